//! What the C-family writers share of HLSL's built-in functions: the
//! ones both MSL's library and the CUDA prelude have under HLSL's own name
//! and arguments, and the word arithmetic of byte-address buffers (an
//! array of 32-bit words in both).

use legalis_ir::{Expression, Handle, Intrinsic as I};

use super::Dialect;
use super::expr::{Exprs, FnCtx};

/// `fun`'s HLSL name where both MSL and the CUDA prelude call it so,
/// with HLSL's arguments.
pub(crate) fn hlsl_named(fun: I) -> Option<&'static str> {
    (fun.is_common_math()
        || matches!(
            fun,
            I::All
                | I::Any
                | I::Atan2
                | I::Dot
                | I::FaceForward
                | I::Fmod
                | I::Log10
                | I::Rsqrt
                | I::Saturate
                | I::Sign
        ))
    .then(|| fun.name())
}

/// How many 32-bit words a byte-address `Load`/`Store` variant moves.
pub(crate) fn words(fun: I) -> usize {
    match fun {
        I::Load2 | I::Store2 => 2,
        I::Load3 | I::Store3 => 3,
        I::Load4 | I::Store4 => 4,
        _ => 1,
    }
}

/// Word `k` (`None`: the first, without an offset) of the byte-address
/// buffer `buffer` at byte address `address`: `b[(a) / 4u + 1u]`.
pub(crate) fn word(buffer: &str, address: &str, k: Option<usize>) -> String {
    match k {
        Some(k) => format!("{buffer}[({address}) / 4u + {k}u]"),
        None => format!("{buffer}[({address}) / 4u]"),
    }
}

/// Byte-address buffer reads and writes over a C-family writer's
/// expressions.
pub(crate) trait ByteAddress: Exprs {
    /// `args` (buffer, address) of a `count`-word load: one word, or
    /// `{vector}{count}(...)` of them; `offset` tells how word `k` is
    /// addressed ([`word`]).
    fn load_words(
        &self,
        ctx: &mut FnCtx<'_, Self::FnState>,
        args: &[Handle<Expression>],
        count: usize,
        vector: &str,
        offset: impl Fn(usize) -> Option<usize>,
    ) -> Result<String, Self::Error> {
        let b = self.expr(ctx, args[0])?;
        let a = self.expr(ctx, args[1])?;
        let words: Vec<String> = (0..count).map(|k| word(&b, &a, offset(k))).collect();
        Ok(if count == 1 {
            words[0].clone()
        } else {
            format!("{vector}{count}({})", words.join(", "))
        })
    }

    /// `args` (buffer, address, value) of a `count`-word store, one line
    /// a word; `component` reads word `k` of the value's text.
    fn store_words(
        &self,
        ctx: &mut FnCtx<'_, Self::FnState>,
        args: &[Handle<Expression>],
        count: usize,
        component: impl Fn(&str, usize) -> String,
    ) -> Result<Vec<String>, Self::Error> {
        let b = self.expr(ctx, args[0])?;
        let a = self.expr(ctx, args[1])?;
        let v = self.expr(ctx, args[2])?;
        if count == 1 {
            return Ok(vec![format!("{} = {v};", word(&b, &a, None))]);
        }
        Ok((0..count)
            .map(|k| format!("{} = {};", word(&b, &a, Some(k)), component(&v, k)))
            .collect())
    }
}

impl<D: Dialect + Exprs> ByteAddress for D {}

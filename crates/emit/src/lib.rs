//! Legalis writers: target code from a legalized IR module.
//!
//! Writers only print; they never change the IR. Each target lives in its
//! own module with naga's backend shape (`Options`, an `Error` enum, one
//! `write` entry function, `write_entries` where one output holds several
//! entry points): [`glsl`] and [`spirv`] write what
//! `legalis_legalize::glsl` legalized, [`wgsl`], [`metal`] and [`cuda`]
//! what `legalis_legalize::{wgsl, metal, cuda}` did. A module that is not
//! legalized for the writer's target (a `Binding::Semantic` left on a
//! varying, say) is the writer's internal "not legalized" error, not a
//! panic. Resources are placed by the binding plan of `legalis_bind`
//! (`Options::bindings`); [`codes`] gives every writer error its
//! diagnostic code.
//!
//! ```
//! use legalis_legalize::Family;
//!
//! let source = r#"
//! [shader("vertex")]
//! float4 main(float3 pos : POSITION) : SV_Position { return float4(pos, 1); }
//! "#;
//! let module = legalis_front::compile(source, &Default::default()).module.unwrap();
//! let policy = legalis_ir::Policy::default();
//! let legalized = legalis_legalize::glsl::Glsl::legalize(&module, 0, &policy).unwrap();
//! let options = legalis_emit::glsl::Options::default();
//! let glsl = legalis_emit::glsl::write(&legalized.module, 0, &options).unwrap();
//! assert!(glsl.starts_with("#version 450"));
//! assert!(glsl.contains("gl_Position"));
//! legalis_validate::validate_glsl(&glsl, legalis_ir::ShaderStage::Vertex).unwrap();
//! ```

#![warn(missing_docs)]

/// Joins string pieces into one `String`, sized once: what `format!`
/// gives for plain strings (`cat!(base, ".", name)` is
/// `format!("{base}.{name}")`), without the formatting machinery, which
/// costs several times as much for the writers' many short pieces.
macro_rules! cat {
    // A `match` keeps the pieces' temporaries alive to its end.
    ($($piece:expr),+ $(,)?) => {
        match [$(::core::convert::AsRef::<str>::as_ref(&$piece)),+] {
            pieces => {
                let mut text = String::with_capacity(pieces.iter().map(|p| p.len()).sum());
                for piece in pieces {
                    text.push_str(piece);
                }
                text
            }
        }
    };
}

/// Appends string pieces to a `String` (`push!(out, a, ";\n")`).
macro_rules! push {
    ($out:expr, $($piece:expr),+ $(,)?) => {{
        let out: &mut String = $out;
        $(out.push_str(::core::convert::AsRef::<str>::as_ref(&$piece));)+
    }};
}

/// Appends the decimal digits of `n` (what `{n}` prints, without the
/// formatting machinery).
pub(crate) fn push_number(out: &mut String, n: u32) {
    let mut digits = [0u8; 10];
    let mut i = digits.len();
    let mut n = n;
    loop {
        i -= 1;
        digits[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    for &d in &digits[i..] {
        out.push(char::from(d));
    }
}

/// `text` as a C string literal (GLSL's `debugPrintfEXT` and CUDA's
/// `printf` read the same): quotes and backslashes escaped, newline, tab
/// and carriage return as `\n`, `\t`, `\r`, other control characters as
/// three octal digits (which no following character can extend).
pub(crate) fn c_string_literal(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c if c.is_ascii_control() => out.push_str(&format!("\\{:03o}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

mod binding;
mod cfamily;
pub mod codes;
pub mod cuda;
mod error;
mod float_text;
pub mod glsl;
mod identifier;
pub mod metal;
mod namer;
mod resource_uses;
pub mod spirv;
mod structs;
pub mod wgsl;

/// What both writers say about a `GetAttributeAtVertex` the legalizer left:
/// it rewrites the calls of the entry point's own function only (B13).
pub(crate) const GET_ATTRIBUTE_AT_VERTEX: &str = "`GetAttributeAtVertex` outside the entry point's own function \
     (the legalizer turns the calls there into reads of per-vertex arrays)";

#[cfg(test)]
mod cat_tests {
    #[test]
    fn cat_and_push_join_what_format_joins() {
        let base = String::from("input");
        let name = "f0";
        assert_eq!(cat!(base, ".", name), format!("{base}.{name}"));
        assert_eq!(cat!("x"), "x");
        let mut out = String::from("  ");
        push!(&mut out, base, " = ", name, ";\n");
        assert_eq!(out, "  input = f0;\n");
    }
}

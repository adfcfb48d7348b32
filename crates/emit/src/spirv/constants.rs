//! Constants, declared once each: scalars by bit pattern, composites by
//! their constituents.

use legalis_ir as ir;
use legalis_ir::{Handle, Literal, ScalarKind, TypeInner};
use spirv::{Op, Word};

use super::writer::{Layout, Result, Writer, unsupported};

impl Writer<'_> {
    fn constant(&mut self, op: Op, ty: Word, operands: Vec<u32>) -> Word {
        let key = (op, ty, operands);
        if let Some(&id) = self.const_ids.get(&key) {
            return id;
        }
        let id = self.b.id();
        // The operand words: constituent ids, or the value's one or two
        // words (low first).
        self.b.global_value(op, ty, id, &key.2);
        self.const_ids.insert(key, id);
        id
    }

    pub fn const_u32(&mut self, ty: Word, value: u32) -> Word {
        // Indices and scopes ask for the same few words again and again;
        // this map answers them without building a key vector.
        if let Some(&id) = self.word_consts.get(&(ty, value)) {
            return id;
        }
        let id = self.constant(Op::Constant, ty, vec![value]);
        self.word_consts.insert((ty, value), id);
        id
    }

    /// A `uint` constant (indices, scopes, semantics).
    pub fn uint(&mut self, value: u32) -> Word {
        let ty = self.uint_type();
        self.const_u32(ty, value)
    }

    pub fn int(&mut self, value: i32) -> Word {
        let ty = self.int_type();
        self.const_u32(ty, value as u32)
    }

    pub fn const_bool(&mut self, value: bool) -> Word {
        let ty = self.bool_type(0);
        let op = if value {
            Op::ConstantTrue
        } else {
            Op::ConstantFalse
        };
        self.constant(op, ty, Vec::new())
    }

    pub fn composite_const(&mut self, ty: Word, parts: Vec<Word>) -> Word {
        self.constant(Op::ConstantComposite, ty, parts)
    }

    /// A scalar constant of `scalar` holding `value` converted from `f64`
    /// or an integer, whichever `lit` is.
    pub fn scalar_const(&mut self, scalar: ir::Scalar, lit: Literal) -> Word {
        let ty = self.numeric(scalar, 0, 0, Layout::Plain);
        let as_f64 = match lit {
            Literal::Bool(b) => f64::from(u8::from(b)),
            Literal::Int(i) => i as f64,
            Literal::Uint(u) => u as f64,
            Literal::Float(f) => f,
        };
        let as_u64 = match lit {
            Literal::Bool(b) => u64::from(b),
            Literal::Int(i) => i as u64,
            Literal::Uint(u) => u,
            Literal::Float(f) if f < 0.0 => (f as i64) as u64,
            Literal::Float(f) => f as u64,
        };
        let bits: u64 = match (scalar.kind, scalar.width) {
            (ScalarKind::Bool, _) => return self.const_bool(as_u64 != 0),
            (ScalarKind::Float, 8) => as_f64.to_bits(),
            (ScalarKind::Float, 2) => u64::from(crate::float_text::f16_bits(as_f64 as f32)),
            (ScalarKind::Float, _) => u64::from((as_f64 as f32).to_bits()),
            (_, 8) => as_u64,
            (ScalarKind::Sint, w) if w < 4 => {
                // Narrow signed constants are sign-extended into the word.
                let shift = 64 - 8 * u32::from(w);
                (((as_u64 << shift) as i64) >> shift) as u32 as u64
            }
            (_, w) if w < 4 => as_u64 & ((1u64 << (8 * u32::from(w))) - 1),
            _ => as_u64 & 0xFFFF_FFFF,
        };
        let words = if scalar.width == 8 {
            vec![bits as u32, (bits >> 32) as u32]
        } else {
            vec![bits as u32]
        };
        self.constant(Op::Constant, ty, words)
    }

    /// A literal of IR type `ty`: a scalar, or a splat for vectors and
    /// matrices.
    pub fn literal(&mut self, lit: Literal, ty: Handle<ir::Type>, span: ir::Span) -> Result<Word> {
        match *self.inner(ty) {
            TypeInner::Scalar(s) => Ok(self.scalar_const(s, lit)),
            TypeInner::Vector { .. } | TypeInner::Matrix { .. } => self.splat_const(ty, lit),
            _ => unsupported("a literal of this type", span),
        }
    }

    /// `value` in every component of numeric type `ty`.
    pub fn splat_const(&mut self, ty: Handle<ir::Type>, lit: Literal) -> Result<Word> {
        let id = self.ty(ty, Layout::Plain)?;
        Ok(match *self.inner(ty) {
            TypeInner::Scalar(s) => self.scalar_const(s, lit),
            TypeInner::Vector { size, scalar } => {
                let c = self.scalar_const(scalar, lit);
                self.composite_const(id, vec![c; size as usize])
            }
            TypeInner::Matrix {
                rows,
                columns,
                scalar,
            } => {
                let c = self.scalar_const(scalar, lit);
                let col_ty = self.numeric(scalar, columns, 0, Layout::Plain);
                let col = self.composite_const(col_ty, vec![c; columns as usize]);
                self.composite_const(id, vec![col; rows as usize])
            }
            _ => return unsupported("a constant of this type", self.module.types.span(ty)),
        })
    }

    /// `value` with the scalar and shape of a scalar or vector of `scalar`
    /// with `size` components (0 for a scalar).
    pub fn shaped_const(&mut self, scalar: ir::Scalar, size: u8, lit: Literal) -> Word {
        let c = self.scalar_const(scalar, lit);
        if size == 0 {
            return c;
        }
        let ty = self.numeric(scalar, size, 0, Layout::Plain);
        self.composite_const(ty, vec![c; size as usize])
    }
}

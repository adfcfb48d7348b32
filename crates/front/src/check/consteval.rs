//! Compile-time evaluation of constant expressions: array sizes, generic
//! value arguments, enum values, `case` labels and attribute arguments.
//!
//! Works on the syntax tree with the checker's scopes, so `static const`
//! variables and enum members with constant values can be used.

use std::fmt;

use super::{Checker, ValueSymbol};
use crate::{ast, codes};

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ConstValue {
    Bool(bool),
    Int(i64),
    Uint(u64),
    Float(f64),
}

impl ConstValue {
    /// The value as a signed integer, for integral values.
    pub fn as_i64(self) -> Option<i64> {
        match self {
            ConstValue::Int(v) => Some(v),
            ConstValue::Uint(v) => i64::try_from(v).ok(),
            ConstValue::Bool(b) => Some(b as i64),
            ConstValue::Float(_) => None,
        }
    }

    pub fn as_f64(self) -> f64 {
        match self {
            ConstValue::Int(v) => v as f64,
            ConstValue::Uint(v) => v as f64,
            ConstValue::Bool(b) => b as i64 as f64,
            ConstValue::Float(v) => v,
        }
    }

    pub fn truthy(self) -> bool {
        match self {
            ConstValue::Bool(b) => b,
            ConstValue::Int(v) => v != 0,
            ConstValue::Uint(v) => v != 0,
            ConstValue::Float(v) => v != 0.0,
        }
    }
}

impl fmt::Display for ConstValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ConstValue::Bool(b) => write!(f, "{b}"),
            ConstValue::Int(v) => write!(f, "{v}"),
            ConstValue::Uint(v) => write!(f, "{v}u"),
            ConstValue::Float(v) => write!(f, "{v:?}"),
        }
    }
}

impl Checker<'_> {
    /// Evaluates a constant expression, reporting `E30012` when it is not one.
    pub fn const_eval(&mut self, expr: &ast::Expr) -> Option<ConstValue> {
        match self.try_const_eval(expr) {
            Ok(v) => Some(v),
            Err(Some((code, message, span))) => {
                self.error(code, message, span);
                None
            }
            Err(None) => None,
        }
    }

    /// Evaluates without reporting: `Err(None)` means "already reported or
    /// not worth reporting", `Err(Some(..))` carries the diagnostic.
    pub fn try_const_eval(
        &self,
        expr: &ast::Expr,
    ) -> Result<ConstValue, Option<(u32, String, legalis_ir::Span)>> {
        use ast::ExprKind as K;
        let not_const = || {
            Err(Some((
                codes::NOT_CONSTANT,
                "expression is not a compile-time constant".to_string(),
                expr.span,
            )))
        };
        match &expr.kind {
            K::Int { value, suffix } => Ok(match suffix {
                ast::IntSuffix::U | ast::IntSuffix::UL | ast::IntSuffix::ULL => {
                    ConstValue::Uint(*value)
                }
                _ => match i64::try_from(*value) {
                    Ok(v) => ConstValue::Int(v),
                    Err(_) => ConstValue::Uint(*value),
                },
            }),
            K::Float { value, .. } => Ok(ConstValue::Float(*value)),
            K::Bool(b) => Ok(ConstValue::Bool(*b)),
            K::Name(path) => match self.lookup_value_path(path) {
                Some(ValueSymbol::EnumMember { value, .. }) => Ok(ConstValue::Int(value)),
                Some(ValueSymbol::Global {
                    constant: Some(v), ..
                }) => Ok(v),
                Some(ValueSymbol::Local {
                    constant: Some(v), ..
                }) => Ok(v),
                Some(_) => not_const(),
                None => Err(Some((
                    codes::UNDEFINED_NAME,
                    format!("undefined name `{}`", path_text(path)),
                    expr.span,
                ))),
            },
            K::Unary { op, expr: inner } => {
                let v = self.try_const_eval(inner)?;
                Ok(match (op, v) {
                    (ast::UnaryOp::Plus, v) => v,
                    (ast::UnaryOp::Neg, ConstValue::Float(f)) => ConstValue::Float(-f),
                    (ast::UnaryOp::Neg, ConstValue::Uint(u)) => ConstValue::Uint(u.wrapping_neg()),
                    (ast::UnaryOp::Neg, v) => {
                        ConstValue::Int(v.as_i64().unwrap_or(0).wrapping_neg())
                    }
                    (ast::UnaryOp::Not, v) => ConstValue::Bool(!v.truthy()),
                    (ast::UnaryOp::BitNot, ConstValue::Uint(u)) => ConstValue::Uint(!u),
                    (ast::UnaryOp::BitNot, ConstValue::Int(i)) => ConstValue::Int(!i),
                    _ => return not_const(),
                })
            }
            K::Binary { op, left, right } => {
                let l = self.try_const_eval(left)?;
                let r = self.try_const_eval(right)?;
                const_binary(*op, l, r).map_err(|message| {
                    let code = if message.contains("zero") {
                        codes::CONSTANT_DIVISION_BY_ZERO
                    } else {
                        codes::NOT_CONSTANT
                    };
                    Some((code, message, expr.span))
                })
            }
            K::Ternary { cond, then, els } => {
                if self.try_const_eval(cond)?.truthy() {
                    self.try_const_eval(then)
                } else {
                    self.try_const_eval(els)
                }
            }
            K::Cast {
                ty,
                array_dims,
                expr: inner,
            } if array_dims.is_empty() => {
                let v = self.try_const_eval(inner)?;
                match super::types::numeric_from_name(&ty.name) {
                    Some((scalar, super::types::Shape::Scalar)) => {
                        Ok(convert_const(v, scalar.kind))
                    }
                    _ => not_const(),
                }
            }
            K::Call { callee, args } if args.len() == 1 => {
                // Scalar constructor-style casts: `uint(3)`.
                if let K::Name(path) = &callee.kind
                    && path.len() == 1
                    && let Some((scalar, super::types::Shape::Scalar)) =
                        super::types::numeric_from_name(&path[0].name)
                {
                    let v = self.try_const_eval(&args[0])?;
                    return Ok(convert_const(v, scalar.kind));
                }
                not_const()
            }
            // `Enum.Member`, as Slang writes qualified enum values.
            K::Member { base, member } => match &base.kind {
                K::Name(path) => {
                    let mut full = path.clone();
                    full.push(member.clone());
                    match self.lookup_value_path(&full) {
                        Some(ValueSymbol::EnumMember { value, .. }) => Ok(ConstValue::Int(value)),
                        _ => not_const(),
                    }
                }
                _ => not_const(),
            },
            K::Error => Err(None),
            _ => not_const(),
        }
    }
}

pub fn path_text(path: &[ast::Ident]) -> String {
    path.iter()
        .map(|i| i.name.as_str())
        .collect::<Vec<_>>()
        .join("::")
}

fn convert_const(v: ConstValue, kind: legalis_ir::ScalarKind) -> ConstValue {
    use legalis_ir::ScalarKind as S;
    match kind {
        S::Bool => ConstValue::Bool(v.truthy()),
        S::Float => ConstValue::Float(v.as_f64()),
        S::Sint => ConstValue::Int(match v {
            ConstValue::Float(f) => f as i64,
            ConstValue::Uint(u) => u as i64,
            other => other.as_i64().unwrap_or(0),
        }),
        S::Uint => ConstValue::Uint(match v {
            ConstValue::Float(f) => f as u64,
            ConstValue::Int(i) => i as u64,
            other => other.as_i64().unwrap_or(0) as u64,
        }),
    }
}

/// One integer operator on two values of one integer type, wrapping like
/// the target's arithmetic; `$make` wraps the result (`ConstValue::Uint`).
macro_rules! integer_binary {
    ($op:expr, $a:expr, $b:expr, $make:path) => {{
        use ast::BinaryOp as B;
        let (a, b) = ($a, $b);
        Ok(match $op {
            B::Add => $make(a.wrapping_add(b)),
            B::Sub => $make(a.wrapping_sub(b)),
            B::Mul => $make(a.wrapping_mul(b)),
            B::Div | B::Rem if b == 0 => {
                return Err("division by zero in a constant expression".to_string());
            }
            B::Div => $make(a.wrapping_div(b)),
            B::Rem => $make(a.wrapping_rem(b)),
            B::Shl => $make(a.wrapping_shl(b as u32)),
            B::Shr => $make(a.wrapping_shr(b as u32)),
            B::BitAnd => $make(a & b),
            B::BitOr => $make(a | b),
            B::BitXor => $make(a ^ b),
            B::Lt => ConstValue::Bool(a < b),
            B::Le => ConstValue::Bool(a <= b),
            B::Gt => ConstValue::Bool(a > b),
            B::Ge => ConstValue::Bool(a >= b),
            B::Eq => ConstValue::Bool(a == b),
            B::Ne => ConstValue::Bool(a != b),
            // Handled before the integer cases; never reached.
            B::And | B::Or | B::Comma => ConstValue::Bool(false),
        })
    }};
}

/// Binary operators on constants with HLSL promotion: float beats unsigned
/// beats signed; bools act as ints.
fn const_binary(op: ast::BinaryOp, l: ConstValue, r: ConstValue) -> Result<ConstValue, String> {
    use ConstValue as C;
    use ast::BinaryOp as B;
    let is_float = matches!(l, C::Float(_)) || matches!(r, C::Float(_));
    let is_uint = matches!(l, C::Uint(_)) || matches!(r, C::Uint(_));
    match op {
        B::And => return Ok(C::Bool(l.truthy() && r.truthy())),
        B::Or => return Ok(C::Bool(l.truthy() || r.truthy())),
        B::Comma => return Ok(r),
        _ => {}
    }
    if is_float {
        let (a, b) = (l.as_f64(), r.as_f64());
        return Ok(match op {
            B::Add => C::Float(a + b),
            B::Sub => C::Float(a - b),
            B::Mul => C::Float(a * b),
            B::Div => C::Float(a / b),
            B::Rem => C::Float(a % b),
            B::Lt => C::Bool(a < b),
            B::Le => C::Bool(a <= b),
            B::Gt => C::Bool(a > b),
            B::Ge => C::Bool(a >= b),
            B::Eq => C::Bool(a == b),
            B::Ne => C::Bool(a != b),
            _ => return Err("operator needs integer operands".to_string()),
        });
    }
    if is_uint {
        integer_binary!(op, as_u64(l), as_u64(r), C::Uint)
    } else {
        integer_binary!(op, l.as_i64().unwrap_or(0), r.as_i64().unwrap_or(0), C::Int)
    }
}

fn as_u64(v: ConstValue) -> u64 {
    match v {
        ConstValue::Uint(u) => u,
        ConstValue::Int(i) => i as u64,
        ConstValue::Bool(b) => b as u64,
        ConstValue::Float(f) => f as u64,
    }
}

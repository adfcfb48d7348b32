//! HLSL's implicit conversions: which exist, what they cost (for overload
//! resolution), and the common type of binary operands.

use legalis_ir as ir;
use legalis_ir::{Handle, Scalar, ScalarKind, Span, Type};

use super::Checker;
use super::types::Shape;
use crate::codes;

/// A typed IR value: an expression handle and its type (`None` for `void`).
#[derive(Clone, Copy, Debug)]
pub struct Value {
    pub expr: Handle<ir::Expression>,
    pub ty: Option<Handle<Type>>,
}

/// The cost of an implicit conversion; lower is better. `None`: impossible.
pub type Cost = Option<u32>;

pub const COST_PROMOTION: u32 = 1;
const COST_CONVERSION: u32 = 2;
const COST_INT_TO_FLOAT: u32 = 3;
const COST_NARROWING: u32 = 4;
const COST_SPLAT: u32 = 10;
const COST_TRUNCATION: u32 = 100;

/// Ordering used to pick the common scalar of two operands.
fn rank(s: Scalar) -> (u8, u8, u8) {
    match s.kind {
        ScalarKind::Bool => (0, 0, 0),
        ScalarKind::Sint => (1, s.width, 0),
        ScalarKind::Uint => (1, s.width, 1),
        ScalarKind::Float => (2, s.width, 0),
    }
}

fn scalar_cost(from: Scalar, to: Scalar) -> u32 {
    if from == to {
        0
    } else if from.kind == to.kind && to.width > from.width {
        COST_PROMOTION
    } else if matches!(
        from.kind,
        ScalarKind::Sint | ScalarKind::Uint | ScalarKind::Bool
    ) && to.kind == ScalarKind::Float
    {
        COST_INT_TO_FLOAT
    } else if rank(to) > rank(from) {
        COST_CONVERSION
    } else {
        COST_NARROWING
    }
}

/// The scalar both operands convert to.
pub fn common_scalar(a: Scalar, b: Scalar) -> Scalar {
    let pick = if rank(a) >= rank(b) { a } else { b };
    if pick.kind == ScalarKind::Bool {
        Scalar::I32
    } else {
        pick
    }
}

impl Checker<'_> {
    /// Cost of converting a value of type `from` to `to` implicitly.
    pub fn conversion_cost(&self, from: Handle<Type>, to: Handle<Type>) -> Cost {
        if from == to {
            return Some(0);
        }
        if from == self.error_ty || to == self.error_ty {
            return Some(0);
        }
        // A `DescriptorHandle<T>` reads as its `T`, and converts to nothing
        // else implicitly (nor does its `uint2` to it).
        if let Some(resource) = self.handle_resource(Some(from)) {
            return (resource == to).then_some(COST_PROMOTION);
        }
        if self.handle_resource(Some(to)).is_some() {
            return None;
        }
        if let Some(cost) = self.optional_conversion_cost(from, to) {
            return Some(cost);
        }
        if let Some(cost) = self.dyn_conversion_cost(from, to) {
            return Some(cost);
        }
        // A `ConstantBuffer<T>` reads as a whole `T`.
        if let ir::TypeInner::ConstantBuffer { inner } | ir::TypeInner::TextureBuffer { inner } =
            *self.inner(from)
            && inner == to
        {
            return Some(COST_PROMOTION);
        }
        let (fs, fshape) = self.numeric(from)?;
        let (ts, tshape) = self.numeric(to)?;
        let elem = scalar_cost(fs, ts);
        let shape = match (fshape, tshape) {
            (a, b) if a == b => 0,
            (Shape::Scalar, _) => COST_SPLAT,
            (Shape::Vector(n), Shape::Vector(m)) if m < n => COST_TRUNCATION,
            (Shape::Vector(_), Shape::Scalar) => COST_TRUNCATION,
            (
                Shape::Matrix {
                    rows: r1,
                    columns: c1,
                },
                Shape::Matrix {
                    rows: r2,
                    columns: c2,
                },
            ) if r2 <= r1 && c2 <= c1 => COST_TRUNCATION,
            (Shape::Matrix { .. }, Shape::Scalar) => COST_TRUNCATION,
            // HLSL lets a vector and a 1xN / Nx1 matrix of the same size convert.
            (Shape::Vector(n), Shape::Matrix { rows, columns })
                if (rows == 1 && columns == n) || (columns == 1 && rows == n) =>
            {
                COST_CONVERSION
            }
            (Shape::Matrix { rows, columns }, Shape::Vector(n))
                if (rows == 1 && columns == n) || (columns == 1 && rows == n) =>
            {
                COST_CONVERSION
            }
            _ => return None,
        };
        Some(elem + shape)
    }

    /// Converts `value` to `to` implicitly, or reports `E30003`. Truncation
    /// warns (`E30081`). Returns the converted expression.
    pub fn coerce(&mut self, value: Value, to: Handle<Type>, span: Span) -> Handle<ir::Expression> {
        let Some(from) = value.ty else {
            self.error(
                codes::TYPE_MISMATCH,
                "a `void` expression has no value",
                span,
            );
            return value.expr;
        };
        let value = self.materialize_optional(value, span);
        if from == to {
            return value.expr;
        }
        if self.handle_resource(Some(from)) == Some(to) {
            return self.deref_handle(value, to, span).expr;
        }
        if let Some(v) = self.coerce_to_optional(value, to, span) {
            return v;
        }
        if let Some(v) = self.coerce_to_dyn(value, to, span) {
            return v;
        }
        match self.conversion_cost(from, to) {
            Some(cost) => {
                if cost >= COST_TRUNCATION {
                    let (a, b) = (self.type_name(from), self.type_name(to));
                    self.warning(
                        codes::IMPLICIT_TRUNCATION,
                        format!("implicit truncation of `{a}` to `{b}`"),
                        span,
                    );
                }
                if from == self.error_ty || to == self.error_ty {
                    return value.expr;
                }
                self.exprs()
                    .append(ir::Expression::Convert { expr: value.expr }, Some(to), span)
            }
            None => {
                let (a, b) = (self.type_name(from), self.type_name(to));
                self.error(
                    codes::TYPE_MISMATCH,
                    format!("cannot convert `{a}` to `{b}`"),
                    span,
                );
                value.expr
            }
        }
    }

    /// Converts without cost checks (explicit casts and intrinsic argument
    /// adaptation that the caller has validated).
    pub fn convert_to(&mut self, value: Value, to: Handle<Type>, span: Span) -> Value {
        if value.ty == Some(to) || value.ty == Some(self.error_ty) || to == self.error_ty {
            return Value {
                expr: value.expr,
                ty: Some(to),
            };
        }
        let expr =
            self.exprs()
                .append(ir::Expression::Convert { expr: value.expr }, Some(to), span);
        Value { expr, ty: Some(to) }
    }

    /// The shape two operands of a component-wise operator agree on.
    pub fn common_shape(&mut self, a: Shape, b: Shape, span: Span) -> Option<Shape> {
        Some(match (a, b) {
            (x, y) if x == y => x,
            (Shape::Scalar, y) => y,
            (x, Shape::Scalar) => x,
            (Shape::Vector(n), Shape::Vector(m)) => {
                self.warning(
                    codes::IMPLICIT_TRUNCATION,
                    format!(
                        "implicit truncation of a vector: operands have {n} and {m} components"
                    ),
                    span,
                );
                Shape::Vector(n.min(m))
            }
            (
                Shape::Matrix {
                    rows: r1,
                    columns: c1,
                },
                Shape::Matrix {
                    rows: r2,
                    columns: c2,
                },
            ) => {
                self.warning(
                    codes::IMPLICIT_TRUNCATION,
                    "implicit truncation of a matrix operand",
                    span,
                );
                Shape::Matrix {
                    rows: r1.min(r2),
                    columns: c1.min(c2),
                }
            }
            _ => return None,
        })
    }
}

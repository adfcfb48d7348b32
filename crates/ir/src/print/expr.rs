//! Expressions, printed inline as the trees they are.
//!
//! Parentheses follow one simple rule instead of a precedence table: an
//! operand that is itself a binary, select or assignment expression is
//! always parenthesised, so a reviewer never has to recall HLSL precedence.

use std::fmt::Write as _;

use super::Writer;
use crate::{Expression, Handle, IncDecOp, Literal, Scalar, ScalarKind, Type, TypeInner, UnaryOp};

/// Where a sub-expression appears, which decides whether it needs parentheses.
#[derive(Clone, Copy)]
enum Position {
    /// Operand of a binary or select expression.
    Operand,
    /// Operand of a unary operator (`-x`, `!x`, `~x`).
    Unary,
    /// Base of `.member`, `[index]`, `.xyzw`, `++`/`--` or a method call.
    Postfix,
}

impl Writer<'_> {
    pub(super) fn expr(&mut self, handle: Handle<Expression>) {
        if !self.exprs.contains(handle) {
            let _ = write!(self.out, "<bad expression {handle:?}>");
            return;
        }
        if self.active[handle.index()] {
            let _ = write!(self.out, "<cycle at expression {handle:?}>");
            return;
        }
        self.active[handle.index()] = true;
        let exprs = self.exprs;
        let ty = exprs.ty(handle);
        match &exprs[handle] {
            Expression::Literal(literal) => self.literal(*literal, ty),
            Expression::Global(global) => self.out.push_str(&self.names.global(*global)),
            Expression::Local(local) => {
                let name = match &self.function {
                    Some((_, names)) => names.local(*local),
                    None => format!("<local {local:?} outside a function>"),
                };
                self.out.push_str(&name);
            }
            Expression::Param(index) => {
                let name = match &self.function {
                    Some((_, names)) => names.param(*index),
                    None => format!("<param {index} outside a function>"),
                };
                self.out.push_str(&name);
            }
            Expression::Member { base, index } => {
                self.operand(*base, Position::Postfix);
                let name = self.member_name(*base, *index);
                let _ = write!(self.out, ".{name}");
            }
            Expression::Index { base, index } => {
                self.operand(*base, Position::Postfix);
                self.out.push('[');
                self.expr(*index);
                self.out.push(']');
            }
            Expression::Deref {
                pointer,
                index: Some(index),
            } => {
                self.operand(*pointer, Position::Postfix);
                self.out.push('[');
                self.expr(*index);
                self.out.push(']');
            }
            Expression::Deref {
                pointer,
                index: None,
            } => {
                self.out.push('*');
                self.operand(*pointer, Position::Postfix);
            }
            Expression::Swizzle { base, components } => {
                self.operand(*base, Position::Postfix);
                self.out.push('.');
                for &c in components {
                    match c {
                        0..=3 => self.out.push(['x', 'y', 'z', 'w'][usize::from(c)]),
                        _ => {
                            let _ = write!(self.out, "<bad component {c}>");
                        }
                    }
                }
            }
            _ => self.compound(handle, ty),
        }
        self.active[handle.index()] = false;
    }

    /// Operator expressions; everything else that is not a leaf goes on to
    /// `application`.
    fn compound(&mut self, handle: Handle<Expression>, ty: Option<Handle<Type>>) {
        let exprs = self.exprs;
        match &exprs[handle] {
            Expression::Unary { op, expr } => {
                self.out.push_str(match op {
                    UnaryOp::Negate => "-",
                    UnaryOp::LogicalNot => "!",
                    UnaryOp::BitwiseNot => "~",
                });
                self.operand(*expr, Position::Unary);
            }
            Expression::Binary { op, left, right } => {
                self.operand(*left, Position::Operand);
                let _ = write!(self.out, " {} ", op.symbol());
                self.operand(*right, Position::Operand);
            }
            Expression::Select {
                condition,
                accept,
                reject,
            } => {
                self.operand(*condition, Position::Operand);
                self.out.push_str(" ? ");
                self.operand(*accept, Position::Operand);
                self.out.push_str(" : ");
                self.operand(*reject, Position::Operand);
            }
            _ => self.application(handle, ty),
        }
    }

    /// Conversions, constructors, calls and assignments: forms that apply
    /// something to a list of operands or to a place.
    fn application(&mut self, handle: Handle<Expression>, ty: Option<Handle<Type>>) {
        let exprs = self.exprs;
        match &exprs[handle] {
            Expression::Convert { expr } => {
                self.out.push_str(&self.optional_type_name(ty));
                self.out.push('(');
                self.expr(*expr);
                self.out.push(')');
            }
            Expression::Construct { components } => {
                if self.constructs_with_braces(ty) {
                    self.out.push('{');
                    self.list(components);
                    self.out.push('}');
                } else {
                    self.out.push_str(&self.optional_type_name(ty));
                    self.call_args(components);
                }
            }
            Expression::Call { function, args } => {
                self.out.push_str(&self.names.function(*function));
                self.call_args(args);
            }
            Expression::Intrinsic { fun, args } => match args.split_first() {
                Some((object, rest)) if fun.is_method() => {
                    self.operand(*object, Position::Postfix);
                    let _ = write!(self.out, ".{}", fun.name());
                    self.call_args(rest);
                }
                _ => {
                    self.out.push_str(fun.name());
                    self.call_args(args);
                }
            },
            Expression::Assign { target, value } => {
                self.expr(*target);
                self.out.push_str(" = ");
                self.expr(*value);
            }
            Expression::IncDec { op, target } => {
                let (prefix, suffix) = match op {
                    IncDecOp::PreIncrement => ("++", ""),
                    IncDecOp::PreDecrement => ("--", ""),
                    IncDecOp::PostIncrement => ("", "++"),
                    IncDecOp::PostDecrement => ("", "--"),
                };
                self.out.push_str(prefix);
                self.operand(*target, Position::Postfix);
                self.out.push_str(suffix);
            }
            // Leaves and accesses are printed by `expr`, operators by `compound`.
            _ => {}
        }
    }

    fn operand(&mut self, handle: Handle<Expression>, position: Position) {
        if self.needs_parens(handle, position) {
            self.out.push('(');
            self.expr(handle);
            self.out.push(')');
        } else {
            self.expr(handle);
        }
    }

    fn needs_parens(&self, handle: Handle<Expression>, position: Position) -> bool {
        if !self.exprs.contains(handle) {
            return false;
        }
        let expr = &self.exprs[handle];
        let loose = matches!(
            expr,
            Expression::Binary { .. } | Expression::Select { .. } | Expression::Assign { .. }
        );
        match position {
            Position::Operand => loose,
            // `-(-x)` and `-(-1)` must not print as the decrement `--x`.
            Position::Unary => {
                loose
                    || matches!(expr, Expression::Unary { .. } | Expression::IncDec { .. })
                    || is_negative_literal(expr)
            }
            Position::Postfix => match expr {
                Expression::Global(_)
                | Expression::Local(_)
                | Expression::Param(_)
                | Expression::Member { .. }
                | Expression::Index { .. }
                | Expression::Deref { index: Some(_), .. }
                | Expression::Swizzle { .. }
                | Expression::Call { .. }
                | Expression::Intrinsic { .. }
                | Expression::Convert { .. } => false,
                Expression::Construct { .. } => self.constructs_with_braces(self.exprs.ty(handle)),
                _ => true,
            },
        }
    }

    fn list(&mut self, items: &[Handle<Expression>]) {
        for (i, &item) in items.iter().enumerate() {
            if i > 0 {
                self.out.push_str(", ");
            }
            self.expr(item);
        }
    }

    fn call_args(&mut self, args: &[Handle<Expression>]) {
        self.out.push('(');
        self.list(args);
        self.out.push(')');
    }

    /// Arrays and structs are built with an initializer list, numbers with a
    /// constructor call; an untyped (malformed) construct uses the list form.
    fn constructs_with_braces(&self, ty: Option<Handle<Type>>) -> bool {
        match ty.and_then(|ty| self.module.types.try_get(ty)) {
            Some(t) => matches!(t.inner, TypeInner::Array { .. } | TypeInner::Struct { .. }),
            None => true,
        }
    }

    fn optional_type_name(&self, ty: Option<Handle<Type>>) -> String {
        match ty {
            Some(ty) => self.type_name(ty),
            None => "<untyped>".to_string(),
        }
    }

    fn member_name(&self, base: Handle<Expression>, index: u32) -> String {
        let member = self
            .exprs
            .ty(base)
            .and_then(|ty| super::struct_members(self.module, ty))
            .and_then(|members| members.get(index as usize));
        match member {
            Some(member) => member.name.clone(),
            None => format!("<member {index}>"),
        }
    }

    /// Literals carry their width through the expression's type: `2u`, `1.0h`,
    /// `3l` (64-bit), `int16_t(3)` (HLSL has no 8/16-bit integer suffix).
    fn literal(&mut self, literal: Literal, ty: Option<Handle<Type>>) {
        let scalar = ty
            .and_then(|ty| self.module.types.try_get(ty))
            .and_then(|t| match t.inner {
                TypeInner::Scalar(s) => Some(s),
                _ => None,
            });
        let width = |kind: ScalarKind| scalar.filter(|s| s.kind == kind).map_or(4, |s| s.width);
        let text = match literal {
            Literal::Bool(b) => b.to_string(),
            Literal::Int(v) => match width(ScalarKind::Sint) {
                8 => format!("{v}l"),
                w @ (1 | 2) => format!("{}({v})", small_scalar(ScalarKind::Sint, w)),
                _ => v.to_string(),
            },
            Literal::Uint(v) => match width(ScalarKind::Uint) {
                8 => format!("{v}ul"),
                w @ (1 | 2) => format!("{}({v})", small_scalar(ScalarKind::Uint, w)),
                _ => format!("{v}u"),
            },
            Literal::Float(v) => float_literal(v, width(ScalarKind::Float)),
        };
        self.out.push_str(&text);
    }
}

fn small_scalar(kind: ScalarKind, width: u8) -> &'static str {
    Scalar { kind, width }.name()
}

/// Rust's `{:?}` for `f64` is the shortest text that reads back to the same
/// value and always has a `.` or an exponent, so `1.0` never prints as `1`.
fn float_literal(value: f64, width: u8) -> String {
    let scalar = Scalar {
        kind: ScalarKind::Float,
        width,
    };
    if !value.is_finite() {
        let text = if value.is_nan() {
            "nan"
        } else if value > 0.0 {
            "inf"
        } else {
            "-inf"
        };
        return format!("{}({text})", scalar.name());
    }
    let suffix = match width {
        2 => "h",
        8 => "l",
        _ => "",
    };
    format!("{value:?}{suffix}")
}

fn is_negative_literal(expr: &Expression) -> bool {
    match *expr {
        Expression::Literal(Literal::Int(v)) => v < 0,
        Expression::Literal(Literal::Float(v)) => v.is_sign_negative(),
        _ => false,
    }
}

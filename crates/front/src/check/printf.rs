//! Debug printf: `printf("x = %d\n", x);` as an expression statement,
//! checked against its format ([`legalis_ir::printf`]) and lowered to
//! `Statement::Printf`.

use legalis_ir as ir;
use legalis_ir::{ScalarKind, Span};

use super::Checker;
use super::types::Shape;
use crate::{ast, codes};

impl Checker<'_> {
    /// Whether `callee` is the built-in `printf`: the bare name, with no
    /// user function, variable or type of that name in scope.
    pub fn is_printf(&self, callee: &ast::Expr) -> bool {
        let ast::ExprKind::Name(path) = &callee.kind else {
            return false;
        };
        let [name] = path.as_slice() else {
            return false;
        };
        name.name == "printf"
            && self.lookup_value("printf").is_none()
            && self.generic_functions("printf").is_none()
            && self.lookup_type("printf").is_none()
    }

    /// `printf(format, args...)` as a statement: the format must be a
    /// string literal whose conversions ([`ir::printf::conversions`]) take
    /// the arguments one each, a vector conversion (`%v3f`) a vector of
    /// that size, an integer conversion an integer, a float conversion a
    /// float. Every problem is `E30042` at what is wrong.
    pub fn lower_printf(&mut self, args: &[ast::Expr], span: Span, out: &mut ir::Block) {
        let Some((format_arg, rest)) = args.split_first() else {
            self.error(
                codes::BAD_PRINTF,
                "`printf` needs a format string: `printf(\"x = %d\\n\", x)`",
                span,
            );
            return;
        };
        let values: Vec<_> = rest.iter().map(|a| self.lower_value(a)).collect();
        let ast::ExprKind::String(format) = &format_arg.kind else {
            self.lower_expr(format_arg);
            self.error(
                codes::BAD_PRINTF,
                "the format of `printf` must be a string literal",
                format_arg.span,
            );
            return;
        };
        if format.contains('\0') {
            self.error(
                codes::BAD_PRINTF,
                "the format of `printf` holds a NUL character, where the targets' strings end",
                format_arg.span,
            );
            return;
        }
        let conversions = match ir::printf::conversions(format) {
            Ok(c) => c,
            Err(e) => {
                self.error(codes::BAD_PRINTF, e.message, format_arg.span);
                return;
            }
        };
        let mut ok = true;
        for (i, (arg, value)) in rest.iter().zip(&values).enumerate() {
            let Some(ty) = value.ty else { continue };
            if ty == self.error_ty {
                ok = false;
                continue;
            }
            let numeric = self.numeric(ty).filter(|(s, shape)| {
                s.kind != ScalarKind::Bool && !matches!(shape, Shape::Matrix { .. })
            });
            let Some((scalar, shape)) = numeric else {
                self.error(
                    codes::BAD_PRINTF,
                    format!(
                        "`printf` prints integer and float scalars and vectors; this argument \
                         is `{}`",
                        self.type_name(ty)
                    ),
                    arg.span,
                );
                ok = false;
                continue;
            };
            let Some(conversion) = conversions.get(i) else {
                continue;
            };
            let text = &format[conversion.range.clone()];
            let size = match shape {
                Shape::Vector(n) => Some(n),
                _ => None,
            };
            let problem = if conversion.vector != size {
                Some(match conversion.vector {
                    Some(n) => format!("`{text}` prints a vector of {n} components"),
                    None => format!("`{text}` prints a scalar"),
                })
            } else if conversion.is_float() != (scalar.kind == ScalarKind::Float) {
                Some(match conversion.is_float() {
                    true => format!("`{text}` prints a float"),
                    false => format!("`{text}` prints an integer"),
                })
            } else {
                None
            };
            if let Some(problem) = problem {
                let name = self.type_name(ty);
                self.error(
                    codes::BAD_PRINTF,
                    format!("{problem}; this argument is `{name}`"),
                    arg.span,
                );
                ok = false;
            }
        }
        if conversions.len() != rest.len() {
            let plural = |n: usize, what: &str| match n {
                1 => format!("1 {what}"),
                n => format!("{n} {what}s"),
            };
            self.error(
                codes::BAD_PRINTF,
                format!(
                    "the format has {} but the call passes {}",
                    plural(conversions.len(), "conversion"),
                    plural(rest.len(), "argument")
                ),
                format_arg.span,
            );
            ok = false;
        }
        if ok {
            let args = values.iter().map(|v| v.expr).collect();
            out.push(
                ir::Statement::Printf {
                    format: format.clone(),
                    args,
                },
                span,
            );
        }
    }

    /// `printf` where a value is wanted (`x = printf(...)`): it is a
    /// statement and returns nothing.
    pub fn printf_as_value(&mut self, callee: &ast::Expr, span: Span) -> super::convert::Value {
        self.error(
            codes::BAD_PRINTF,
            "`printf` returns nothing: call it as a statement of its own",
            callee.span,
        );
        self.error_value(span)
    }
}

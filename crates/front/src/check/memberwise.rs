//! Slang's member-wise constructor: a struct without `__init` is built by
//! `S(a, b)` from one argument per field in declaration order; trailing
//! fields with a default value (`float t = 1.0;`) may be left out, and
//! `S()` takes every field's default, zero for a field without one.
//! `Optional<T>(x)` converts `x` to the optional.

use legalis_ir as ir;
use legalis_ir::{Handle, Span, Type, TypeInner};

use super::Checker;
use super::convert::Value;
use crate::ast;

impl Checker<'_> {
    /// `S(args)` for struct `S` without constructors, or `None` when the
    /// arguments cannot supply its fields (the caller reports it).
    pub fn memberwise_constructor(
        &mut self,
        ty: Handle<Type>,
        args: &[ast::Expr],
        span: Span,
    ) -> Option<Value> {
        // `Optional<T>(x)`: `x` converted to the optional.
        if let [arg] = args
            && self.optional_inner(ty).is_some()
        {
            let v = self.lower_value(arg);
            let expr = self.coerce(v, ty, arg.span);
            return Some(Value { expr, ty: Some(ty) });
        }
        let TypeInner::Struct { members } = self.inner(ty) else {
            return None;
        };
        let member_types: Vec<Handle<Type>> = members.iter().map(|m| m.ty).collect();
        if args.len() > member_types.len() {
            return None;
        }
        let defaults = self.field_defaults.get(&ty).cloned().unwrap_or_default();
        // `S()`: the fields' defaults, zero where a field has none.
        if args.is_empty() {
            let mut components = Vec::with_capacity(member_types.len());
            for (i, &member) in member_types.iter().enumerate() {
                let expr = match defaults.iter().find(|(m, _)| *m as usize == i) {
                    Some((_, default)) => self.lower_initializer(&default.clone(), member),
                    None => self.zero_value(member, span)?,
                };
                components.push(expr);
            }
            return Some(self.append(ir::Expression::Construct { components }, Some(ty), span));
        }
        let default_of = |i: usize| {
            defaults
                .iter()
                .find(|(m, _)| *m as usize == i)
                .map(|(_, e)| e.clone())
        };
        if (args.len()..member_types.len()).any(|i| default_of(i).is_none()) {
            return None;
        }
        let mut components = Vec::with_capacity(member_types.len());
        for (i, &member) in member_types.iter().enumerate() {
            let expr = match args.get(i) {
                Some(arg) => self.lower_initializer(arg, member),
                None => {
                    let default = default_of(i)?;
                    self.lower_initializer(&default, member)
                }
            };
            components.push(expr);
        }
        Some(self.append(ir::Expression::Construct { components }, Some(ty), span))
    }
}

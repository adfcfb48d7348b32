//! B9: a geometry shader's output streams. The entry point's
//! `inout TriangleStream<T> stream` parameter has no GLSL or SPIR-V
//! counterpart: each `stream.Append(v)` becomes a store of every field of
//! `v` to the stream's output globals followed by `EmitVertex` (or
//! `EmitStreamVertex(n)` for stream `n > 0`), `stream.RestartStrip()`
//! becomes `EndPrimitive`, and the parameter disappears.
//!
//! Streams are rewritten where the entry point itself uses them; a stream
//! handed to another function is a coded refusal (`E49991`), not a silent
//! drop.

use legalis_ir as ir;
use legalis_ir::diag::Diagnostic;
use legalis_ir::{Handle, Type, TypeInner};

use crate::common::builder::FunctionBuilder;
use crate::glsl::adapt_builtins;
use crate::glsl::plan::{Plan, Target};

/// A transform-feedback copy output: components `first..first + count` of
/// leaf `leaf`, written at each `Append` of its stream.
#[derive(Clone, Debug)]
pub struct CaptureCopy {
    pub leaf: usize,
    pub global: Handle<ir::GlobalVariable>,
    pub first: u32,
    pub count: u32,
}

/// The stream parameters of `function`, as (parameter index, stream number).
pub fn stream_params(module: &ir::Module, function: Handle<ir::Function>) -> Vec<(u32, u32)> {
    module.functions[function]
        .params
        .iter()
        .enumerate()
        .filter(|(_, p)| is_stream(module, p.ty))
        .enumerate()
        .map(|(stream, (index, _))| (index as u32, stream as u32))
        .collect()
}

pub fn is_stream(module: &ir::Module, ty: Handle<Type>) -> bool {
    matches!(
        module.types.try_get(ty).map(|t| &t.inner),
        Some(TypeInner::Stream { .. })
    )
}

/// Rewrites the streams of `function` (the original entry function) to
/// stores into `globals` (the interface global of each plan leaf) and
/// emits, and removes the stream parameters.
pub fn apply(
    module: &mut ir::Module,
    function: Handle<ir::Function>,
    plan: &Plan,
    globals: &[Handle<ir::GlobalVariable>],
    copies: &[CaptureCopy],
    invert_y: Option<Handle<Type>>,
    uint: Handle<Type>,
) -> Result<(), Vec<Diagnostic>> {
    let streams = stream_params(module, function);
    if streams.is_empty() {
        return Ok(());
    }
    let mut b = FunctionBuilder::of(module.functions[function].clone());
    let mut body = std::mem::take(&mut b.func.body);
    let rewrite = Rewrite {
        module,
        plan,
        globals,
        copies,
        streams: &streams,
        invert_y,
        uint,
    };
    rewrite.block(&mut b, &mut body);
    b.func.body = body;
    let mut func = b.func;
    for &(index, _) in streams.iter().rev() {
        let param = &func.params[index as usize];
        let (name, span) = (param.name.clone(), param.span);
        if !func.compact(Some(index)) {
            let message = format!(
                "output stream `{name}` is used other than by `{name}.Append` and \
                 `{name}.RestartStrip` in the entry point (passed to a function?), \
                 which the GLSL legalizer does not support yet"
            );
            return Err(vec![Diagnostic::error(
                legalis_sysval::codes::NOT_SUPPORTED_YET,
                message,
                span,
            )]);
        }
    }
    *module.functions.get_mut(function) = func;
    Ok(())
}

struct Rewrite<'a> {
    module: &'a ir::Module,
    plan: &'a Plan,
    globals: &'a [Handle<ir::GlobalVariable>],
    copies: &'a [CaptureCopy],
    streams: &'a [(u32, u32)],
    /// `-fvk-invert-y`: the `float` type, to negate the position's `y`
    /// after each store of it.
    invert_y: Option<Handle<Type>>,
    /// `uint`, the type of element indices.
    uint: Handle<Type>,
}

impl Rewrite<'_> {
    fn block(&self, b: &mut FunctionBuilder, block: &mut ir::Block) {
        for stmt in &mut block.stmts {
            if let ir::Statement::Expr(e) = stmt
                && let Some(replacement) = self.statement(b, *e)
            {
                *stmt = replacement;
                continue;
            }
            for inner in stmt.blocks_mut() {
                self.block(b, inner);
            }
        }
    }

    /// The replacement of `stream.Append(v)` or `stream.RestartStrip()`.
    fn statement(
        &self,
        b: &mut FunctionBuilder,
        e: Handle<ir::Expression>,
    ) -> Option<ir::Statement> {
        let ir::Expression::Intrinsic { fun, args } = &b.func.expressions[e] else {
            return None;
        };
        let (fun, args) = (*fun, args.clone());
        if !matches!(fun, ir::Intrinsic::Append | ir::Intrinsic::RestartStrip) {
            return None;
        }
        // `AppendStructuredBuffer.Append` has a global as its object.
        let object = *args.first()?;
        let ir::Expression::Param(param) = b.func.expressions[object] else {
            return None;
        };
        let &(_, stream) = self.streams.iter().find(|(p, _)| *p == param)?;
        if fun == ir::Intrinsic::RestartStrip {
            return Some(ir::Statement::EndPrimitive { stream });
        }
        let value = *args.get(1)?;
        let ty = b.func.expressions.ty(value)?;
        let mut block = ir::Block::default();
        let vertex = b.local("vertex", ty);
        block.push(
            ir::Statement::Declare {
                local: vertex,
                init: Some(value),
            },
            ir::Span::UNDEFINED,
        );
        for (leaf, &global) in self.plan.leaves.iter().zip(self.globals) {
            if leaf.stream != Some(stream) {
                continue;
            }
            let root = b.expr(ir::Expression::Local(vertex), Some(ty));
            let global_ty = self.module.globals[global].ty;
            let field = b.members(self.module, root, ty, &leaf.members);
            let (field, field_ty) =
                crate::glsl::flatten_varyings::part(b, field, leaf.part, global_ty, self.uint);
            let value = adapt_builtins::write_value(b, field, field_ty, global_ty);
            let target = b.expr(ir::Expression::Global(global), Some(global_ty));
            block.push(ir::Statement::Store { target, value }, ir::Span::UNDEFINED);
            let position = matches!(
                leaf.target,
                Target::BuiltIn {
                    value: ir::SystemValue::Position,
                    ..
                }
            );
            if let (Some(float), true) = (self.invert_y, position) {
                let position = b.expr(ir::Expression::Global(global), Some(global_ty));
                block.push(b.invert_y(position, float), ir::Span::UNDEFINED);
            }
        }
        for copy in self.copies {
            let leaf = &self.plan.leaves[copy.leaf];
            if leaf.stream != Some(stream) {
                continue;
            }
            let root = b.expr(ir::Expression::Local(vertex), Some(ty));
            let (field, field_ty) = b.members(self.module, root, ty, &leaf.members);
            let global_ty = self.module.globals[copy.global].ty;
            let value = if global_ty == field_ty {
                field
            } else {
                let components = (copy.first..copy.first + copy.count)
                    .map(|c| c as u8)
                    .collect();
                b.expr(
                    ir::Expression::Swizzle {
                        base: field,
                        components,
                    },
                    Some(global_ty),
                )
            };
            let target = b.expr(ir::Expression::Global(copy.global), Some(global_ty));
            block.push(ir::Statement::Store { target, value }, ir::Span::UNDEFINED);
        }
        block.push(ir::Statement::EmitVertex { stream }, ir::Span::UNDEFINED);
        Some(ir::Statement::Block(block))
    }
}

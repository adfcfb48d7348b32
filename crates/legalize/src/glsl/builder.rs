//! A small helper for building a function's expressions and statements
//! with their types, used by the rewrite passes.

use legalis_ir as ir;
use legalis_ir::{Handle, Span, Type};

#[derive(Debug)]
pub struct FunctionBuilder {
    pub func: ir::Function,
}

impl FunctionBuilder {
    pub fn new(name: &str, span: Span) -> Self {
        FunctionBuilder {
            func: ir::Function {
                name: name.to_string(),
                params: Vec::new(),
                result: None,
                locals: ir::Arena::new(),
                expressions: ir::ExpressionArena::default(),
                body: ir::Block::default(),
                span,
            },
        }
    }

    pub fn expr(
        &mut self,
        expr: ir::Expression,
        ty: Option<Handle<Type>>,
    ) -> Handle<ir::Expression> {
        self.func.expressions.append(expr, ty, Span::UNDEFINED)
    }

    pub fn local(&mut self, name: &str, ty: Handle<Type>) -> Handle<ir::LocalVariable> {
        let var = ir::LocalVariable {
            name: name.to_string(),
            ty,
            is_static: false,
            is_const: false,
        };
        self.func.locals.append(var, Span::UNDEFINED)
    }

    /// Makes room for about `statements` statements and `expressions`
    /// expressions, so a large wrapper does not copy its body as it grows.
    pub fn reserve(&mut self, statements: usize, expressions: usize) {
        self.func.body.reserve(statements);
        self.func.expressions.reserve(expressions);
    }

    pub fn push(&mut self, stmt: ir::Statement) {
        self.func.body.push(stmt, Span::UNDEFINED);
    }

    /// `root.m0.m1...`: a chain of member accesses with their field types.
    pub fn members(
        &mut self,
        module: &ir::Module,
        root: Handle<ir::Expression>,
        root_ty: Handle<Type>,
        members: &[u32],
    ) -> (Handle<ir::Expression>, Handle<Type>) {
        let mut expr = root;
        let mut ty = root_ty;
        for &index in members {
            let field_ty = match module.types.try_get(ty).map(|t| &t.inner) {
                Some(ir::TypeInner::Struct { members }) => {
                    members.get(index as usize).map(|m| m.ty)
                }
                _ => None,
            };
            let Some(field_ty) = field_ty else { break };
            expr = self.expr(ir::Expression::Member { base: expr, index }, Some(field_ty));
            ty = field_ty;
        }
        (expr, ty)
    }

    /// `value.y` (`Part::Component(1)`) or `value[1]` (`Part::Element(1)`)
    /// of a vector or array place or value, typed `scalar_ty`; `value`
    /// itself without a part. `uint` types the element index.
    pub fn part(
        &mut self,
        value: (Handle<ir::Expression>, Handle<Type>),
        part: Option<crate::glsl::plan::Part>,
        scalar_ty: Handle<Type>,
        uint: Handle<Type>,
    ) -> (Handle<ir::Expression>, Handle<Type>) {
        let expr = match part {
            None => return value,
            Some(crate::glsl::plan::Part::Component(j)) => ir::Expression::Swizzle {
                base: value.0,
                components: vec![j],
            },
            Some(crate::glsl::plan::Part::Element(k)) => {
                return (self.element(value.0, k, uint, scalar_ty), scalar_ty);
            }
        };
        (self.expr(expr, Some(scalar_ty)), scalar_ty)
    }

    /// `base[k]` for a constant `k` (typed `uint`), of type `element_ty`.
    pub fn element(
        &mut self,
        base: Handle<ir::Expression>,
        k: u32,
        uint: Handle<Type>,
        element_ty: Handle<Type>,
    ) -> Handle<ir::Expression> {
        let index = self.expr(
            ir::Expression::Literal(ir::Literal::Uint(k.into())),
            Some(uint),
        );
        self.expr(ir::Expression::Index { base, index }, Some(element_ty))
    }

    /// A copy of the expression tree under `expr` (expressions are trees:
    /// a second use needs its own nodes).
    pub fn copy_tree(&mut self, expr: Handle<ir::Expression>) -> Handle<ir::Expression> {
        let ty = self.func.expressions.ty(expr);
        let node = self.func.expressions[expr].clone();
        let copied = node.map_children(|child| self.copy_tree(child));
        self.expr(copied, ty)
    }
}

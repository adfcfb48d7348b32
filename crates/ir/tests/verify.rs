//! Pins the verifier: valid modules pass, and each broken invariant yields
//! its specific error, rendered with where it is (scope and site).

mod common;

use common::{
    Func, Tys, array, block, builtin, entry, global, location, member, sem, strukt, texture, ty,
    tys, vector,
};
use ir::verify::{ErrorKind, NotPlaceReason, PlaceContext, Scope, Site, VerifyError};
use ir::{
    AddressSpace, BinaryOp, EntryPointAttributes, Expression, Handle, IncDecOp, Intrinsic, IoAttrs,
    Literal, Module, ParamDirection, ResourceAccess, Scalar, ShaderStage, Statement, TypeInner,
};
use legalis_ir as ir;

fn render(result: Result<(), Vec<VerifyError>>) -> String {
    match result {
        Ok(()) => "ok".to_string(),
        Err(errors) => errors.iter().map(|e| format!("{e}\n")).collect(),
    }
}

fn report(module: &Module) -> String {
    render(ir::verify::verify(module))
}

fn report_legalized(module: &Module) -> String {
    render(ir::verify::verify_legalized(module))
}

/// The common types, a struct `S { float x; float4 v; }`, and a `void`
/// function `f(inout float a, inout float4 v, inout S s)` to fill in.
fn scratch() -> (Module, Tys, Func) {
    let mut m = Module::default();
    let t = tys(&mut m);
    let s = strukt(
        &mut m,
        "S",
        vec![
            member("x", t.float, IoAttrs::default()),
            member("v", t.float4, IoAttrs::default()),
        ],
    );
    let mut f = Func::new("f");
    f.param("a", t.float, ParamDirection::InOut);
    f.param("v", t.float4, ParamDirection::InOut);
    f.param("s", s, ParamDirection::InOut);
    (m, t, f)
}

fn finish(mut m: Module, f: Func) -> String {
    f.finish(&mut m);
    report(&m)
}

#[test]
fn valid_vertex_module_passes() {
    insta::assert_snapshot!(report(&common::vertex_module()), @"ok");
}

/// Every statement form and every kind of place, used correctly.
#[test]
fn valid_control_flow_and_places_pass() {
    let (mut m, t, mut f) = scratch();
    let rw = texture(
        &mut m,
        ir::TextureDim::D2,
        ResourceAccess::ReadWrite,
        t.float4,
    );
    let image = global(&mut m, "image", rw, AddressSpace::Uniform);
    let cache = array(&mut m, t.float, 8);
    let cache = global(&mut m, "cache", cache, AddressSpace::Workgroup);
    let verts = ty(
        &mut m,
        TypeInner::MeshOutput {
            kind: ir::MeshOutputKind::Vertices,
            element: t.float4,
            count: 3,
        },
    );
    let setter = {
        let mut g = Func::new("set");
        g.param("x", t.float, ParamDirection::Out);
        let (target, value) = (g.p(0), g.float(&t, 1.0));
        g.stmt(Statement::Store { target, value });
        g.finish(&mut m)
    };
    f.param("verts", verts, ParamDirection::Out);
    let i = f.local("i", t.int);
    let zero = f.int(&t, 0);
    f.declare(i, Some(zero));
    // image[uint2(0, 0)] = v; cache[i] = a; verts[i] = v; v.zx = v.xy; s.v.w = 1.0;
    let coord = f.int(&t, 0);
    let object = f.e(Expression::Global(image), rw);
    let target = f.index(object, coord, t.float4);
    let value = f.p(1);
    f.stmt(Statement::Store { target, value });
    let (object, index) = (f.e(Expression::Global(cache), m.globals[cache].ty), f.l(i));
    let target = f.index(object, index, t.float);
    let value = f.p(0);
    f.stmt(Statement::Store { target, value });
    let (object, index) = (f.p(3), f.l(i));
    let target = f.index(object, index, t.float4);
    let value = f.p(1);
    f.stmt(Statement::Store { target, value });
    let (base, source) = (f.p(1), f.p(1));
    let target = f.swizzle(base, &[2, 0], t.float2);
    let value = f.swizzle(source, &[0, 1], t.float2);
    f.stmt(Statement::Store { target, value });
    let base = f.p(2);
    let field = f.member(base, 1, t.float4);
    let target = f.swizzle(field, &[3], t.float);
    let value = f.float(&t, 1.0);
    f.stmt(Statement::Store { target, value });
    // set(s.x); i++;
    let base = f.p(2);
    let arg = f.member(base, 0, t.float);
    let call = f.call(setter, vec![arg], None);
    f.stmt(Statement::Expr(call));
    let x = f.l(i);
    let step = f.inc_dec(IncDecOp::PostIncrement, x);
    f.stmt(Statement::Expr(step));
    let barrier = f.intrinsic(Intrinsic::GroupMemoryBarrierWithGroupSync, vec![], None);
    f.stmt(Statement::Expr(barrier));
    loops_with_jumps(&mut f, &t, i);
    f.stmt(Statement::Return(None));
    insta::assert_snapshot!(finish(m, f), @"ok");
}

/// `while (true) { switch (i) { case 0: continue; default: break; } break; }`
/// and `do { break; } while (false);`.
fn loops_with_jumps(f: &mut Func, t: &Tys, i: Handle<ir::LocalVariable>) {
    use ir::{SwitchCase, SwitchValue};
    let selector = f.l(i);
    let continues = SwitchCase {
        values: vec![SwitchValue::Int(0)],
        body: block(vec![Statement::Continue]),
        fall_through: false,
    };
    let breaks = SwitchCase {
        values: vec![SwitchValue::Default],
        body: block(vec![Statement::Break]),
        fall_through: false,
    };
    let switch = Statement::Switch {
        selector,
        cases: vec![continues, breaks],
    };
    let condition = f.lit(Literal::Bool(true), t.bool_);
    f.stmt(Statement::While {
        condition,
        body: block(vec![switch, Statement::Break]),
    });
    let condition = f.lit(Literal::Bool(false), t.bool_);
    f.stmt(Statement::DoWhile {
        body: block(vec![Statement::Break]),
        condition,
    });
}

#[test]
fn errors_carry_scope_site_and_kind_as_data() {
    let (mut m, t, mut f) = scratch();
    let value = f.float(&t, 1.0);
    f.stmt(Statement::Return(Some(value)));
    f.finish(&mut m);
    let errors = ir::verify::verify(&m).unwrap_err();
    let expected = VerifyError {
        scope: Scope::Function {
            handle: Handle::from_index(0),
            name: "f".to_string(),
        },
        site: Site::Statement("body[0]".to_string()),
        kind: ErrorKind::UnexpectedReturnValue,
        span: ir::Span::UNDEFINED,
    };
    assert_eq!(errors, vec![expected]);
}

#[test]
fn type_errors() {
    let mut m = Module::default();
    let float = ty(&mut m, TypeInner::Scalar(Scalar::F32));
    vector(&mut m, 5, Scalar::F32);
    ty(
        &mut m,
        TypeInner::Matrix {
            rows: 0,
            columns: 4,
            scalar: Scalar::F32,
        },
    );
    strukt(
        &mut m,
        "Twice",
        vec![
            member("a", float, IoAttrs::default()),
            member("a", float, IoAttrs::default()),
        ],
    );
    let (kind, access, normalization) = (ir::BufferKind::Structured, ResourceAccess::Read, None);
    ty(
        &mut m,
        TypeInner::Buffer {
            kind,
            access,
            element: None,
            normalization,
        },
    );
    let kind = ir::BufferKind::ByteAddress;
    ty(
        &mut m,
        TypeInner::Buffer {
            kind,
            access,
            element: Some(float),
            normalization,
        },
    );
    let size = ir::ArraySize::Constant(2);
    ty(
        &mut m,
        TypeInner::Array {
            base: Handle::from_index(40),
            size,
        },
    );
    let own = Handle::from_index(m.types.len());
    ty(&mut m, TypeInner::Array { base: own, size });
    insta::assert_snapshot!(report(&m), @r"
    type [1]: vector size 5 is not 2, 3 or 4
    type [2]: matrix size 0x4 is outside 1x1..4x4
    type [3], member 1: member name `a` is repeated
    type [4]: Structured buffer has no element type
    type [5]: ByteAddress buffer has an element type
    type [6]: type handle [40] is out of range
    type [7]: refers to type [7], which is not declared before it (a cycle?)
    ");
}

#[test]
fn out_of_range_handles() {
    let (mut m, t, mut f) = scratch();
    let bad_ty = Handle::from_index(90);
    global(&mut m, "g", bad_ty, AddressSpace::Private);
    f.param("p", bad_ty, ParamDirection::In);
    f.result(bad_ty, IoAttrs::default());
    f.local("l", bad_ty);
    let global = f.e(Expression::Global(Handle::from_index(7)), t.float);
    let local = f.e(Expression::Local(Handle::from_index(7)), t.float);
    let sum = f.binary(BinaryOp::Add, global, local, t.float);
    f.stmt(Statement::Expr(sum));
    let call = f.call(Handle::from_index(7), vec![], Some(t.float));
    f.stmt(Statement::Expr(call));
    let dangling = f.e(
        Expression::Convert {
            expr: Handle::from_index(70),
        },
        t.float,
    );
    f.stmt(Statement::Expr(dangling));
    f.stmt(Statement::Expr(Handle::from_index(71)));
    f.declare(Handle::from_index(7), None);
    let typed = f.e(Expression::Param(0), bad_ty);
    f.stmt(Statement::Expr(typed));
    insta::assert_snapshot!(finish(m, f), @r"
    global `g` [0]: type handle [90] is out of range
    function `f` [0], parameter 3: type handle [90] is out of range
    function `f` [0], result: type handle [90] is out of range
    function `f` [0], local [0]: type handle [90] is out of range
    function `f` [0], expression [0]: global handle [7] is out of range
    function `f` [0], expression [1]: local handle [7] is out of range
    function `f` [0], expression [3]: function handle [7] is out of range
    function `f` [0], expression [4]: expression handle [70] is out of range
    function `f` [0], expression [5]: type handle [90] is out of range
    function `f` [0], statement body[3]: expression handle [71] is out of range
    function `f` [0], statement body[4]: local handle [7] is out of range
    ");
}

#[test]
fn expression_types() {
    let (mut m, t, mut f) = scratch();
    let void_fn = Func::new("nothing").finish(&mut m);
    let untyped = f
        .func
        .expressions
        .append(Expression::Param(0), None, ir::Span::UNDEFINED);
    f.stmt(Statement::Expr(untyped));
    let typed_void = f.call(void_fn, vec![], Some(t.float));
    f.stmt(Statement::Expr(typed_void));
    let void = f.call(void_fn, vec![], None);
    let a = f.p(0);
    let sum = f.binary(BinaryOp::Add, a, void, t.float);
    f.stmt(Statement::Expr(sum));
    let void = f.call(void_fn, vec![], None);
    let target = f.p(0);
    f.stmt(Statement::Store {
        target,
        value: void,
    });
    let fine = f.call(void_fn, vec![], None);
    f.stmt(Statement::Expr(fine));
    let int_as_float = f.lit(Literal::Int(1), t.float);
    f.stmt(Statement::Expr(int_as_float));
    let float_as_vector = f.lit(Literal::Float(1.0), t.float4);
    f.stmt(Statement::Expr(float_as_vector));
    let barrier = f.intrinsic(Intrinsic::AllMemoryBarrier, vec![], None);
    let target = f.p(0);
    f.stmt(Statement::Store {
        target,
        value: barrier,
    });
    insta::assert_snapshot!(finish(m, f), @r"
    function `f` [1], expression [0]: expression has no type
    function `f` [1], expression [1]: call of a void function has a type
    function `f` [1], expression [4]: uses the result of void call [2] as a value
    function `f` [1], expression [8]: signed integer literal has type `float`
    function `f` [1], expression [9]: float literal has type `float4`
    function `f` [1], statement body[3]: uses the result of void call [5] as a value
    function `f` [1], statement body[7]: uses the result of void call [10] as a value
    ");
}

/// Expressions are trees: a handle shared by two parents, or a forged cycle,
/// is reported once, and the walk ends.
#[test]
fn shared_and_cyclic_expressions() {
    let (m, t, mut f) = scratch();
    let a = f.p(0);
    let sum = f.binary(BinaryOp::Add, a, a, t.float);
    f.stmt(Statement::Expr(sum));
    f.stmt(Statement::Expr(sum));
    let next = Handle::from_index(f.func.expressions.len() + 1);
    let first = f.e(
        Expression::Unary {
            op: ir::UnaryOp::Negate,
            expr: next,
        },
        t.float,
    );
    let second = f.e(
        Expression::Unary {
            op: ir::UnaryOp::Negate,
            expr: first,
        },
        t.float,
    );
    assert_eq!(second, next);
    f.stmt(Statement::Expr(first));
    insta::assert_snapshot!(finish(m, f), @r"
    function `f` [0], expression [0]: expression is used by more than one parent (expressions must be trees)
    function `f` [0], expression [1]: expression is used by more than one parent (expressions must be trees)
    function `f` [0], expression [2]: expression is used by more than one parent (expressions must be trees)
    ");
}

#[test]
fn params_and_locals_outside_their_scope() {
    let (mut m, t, mut f) = scratch();
    let out_of_range = f.e(Expression::Param(3), t.float);
    f.stmt(Statement::Expr(out_of_range));
    let span = ir::Span::UNDEFINED;
    let param = m
        .global_expressions
        .append(Expression::Param(0), Some(t.float), span);
    let local = m.global_expressions.append(
        Expression::Local(Handle::from_index(0)),
        Some(t.float),
        span,
    );
    let sum = m.global_expressions.append(
        Expression::Binary {
            op: BinaryOp::Add,
            left: param,
            right: local,
        },
        Some(t.float),
        span,
    );
    let g = global(&mut m, "g", t.float, AddressSpace::Private);
    m.globals.get_mut(g).init = Some(sum);
    let h = global(&mut m, "h", t.float, AddressSpace::Private);
    m.globals.get_mut(h).init = Some(Handle::from_index(50));
    insta::assert_snapshot!(finish(m, f), @r"
    global initializers, expression [0]: parameter used outside a function
    global initializers, expression [1]: local variable used outside a function
    global `h` [1]: expression handle [50] is out of range
    function `f` [0], expression [0]: parameter index 3 is out of range (the function has 3)
    ");
}

#[test]
fn member_and_swizzle_shapes() {
    let (mut m, t, mut f) = scratch();
    let cb = ty(
        &mut m,
        TypeInner::ConstantBuffer {
            inner: f.func.params[2].ty,
        },
    );
    let cb = global(&mut m, "cb", cb, AddressSpace::Uniform);
    let mut exprs = Vec::new();
    let base = f.p(2);
    exprs.push(f.member(base, 2, t.float));
    let base = f.e(Expression::Global(cb), m.globals[cb].ty);
    exprs.push(f.member(base, 5, t.float));
    let base = f.p(1);
    exprs.push(f.member(base, 0, t.float));
    let base = f.p(1);
    exprs.push(f.swizzle(base, &[], t.float));
    let base = f.p(1);
    exprs.push(f.swizzle(base, &[0, 1, 2, 3, 0], t.float4));
    let base = f.p(1);
    exprs.push(f.swizzle(base, &[4], t.float));
    let base = f.p(1);
    let xy = f.swizzle(base, &[0, 1], t.float2);
    exprs.push(f.swizzle(xy, &[2], t.float));
    let base = f.p(0);
    exprs.push(f.swizzle(base, &[0, 1], t.float2));
    let base = f.p(2);
    exprs.push(f.swizzle(base, &[0], t.float));
    for e in exprs {
        f.stmt(Statement::Expr(e));
    }
    insta::assert_snapshot!(finish(m, f), @r"
    function `f` [0], expression [1]: member index 2 is out of range for `S` (2 members)
    function `f` [0], expression [3]: member index 5 is out of range for `ConstantBuffer<S>` (2 members)
    function `f` [0], expression [5]: member access on `float4`, which is not a struct
    function `f` [0], expression [7]: swizzle has 0 components, not 1 to 4
    function `f` [0], expression [9]: swizzle has 5 components, not 1 to 4
    function `f` [0], expression [11]: swizzle component 4 is not 0..=3
    function `f` [0], expression [14]: swizzle component 2 is beyond `float2`
    function `f` [0], expression [16]: swizzle component 1 is beyond `float`
    function `f` [0], expression [18]: swizzle of `S`, which is not a vector or scalar
    ");
}

#[test]
fn store_targets_must_be_places() {
    let (mut m, t, mut f) = scratch();
    let k = global(&mut m, "k", t.float, AddressSpace::Constant);
    let tex_ty = texture(&mut m, ir::TextureDim::D2, ResourceAccess::Read, t.float4);
    let tex = global(&mut m, "tex", tex_ty, AddressSpace::Uniform);
    let cb_ty = ty(
        &mut m,
        TypeInner::ConstantBuffer {
            inner: f.func.params[2].ty,
        },
    );
    let cb = global(&mut m, "cb", cb_ty, AddressSpace::Uniform);
    let patch = ty(
        &mut m,
        TypeInner::Patch {
            kind: ir::PatchKind::Input,
            element: t.float4,
            count: 3,
        },
    );
    f.param("patch", patch, ParamDirection::In);
    let c = f.local("c", t.float);
    f.func.locals.get_mut(c).is_const = true;
    f.declare(c, None);
    let mut targets = vec![f.e(Expression::Global(k), t.float), f.l(c)];
    let v = f.p(1);
    targets.push(f.swizzle(v, &[0, 0], t.float2));
    let (object, index) = (f.e(Expression::Global(tex), tex_ty), f.int(&t, 0));
    targets.push(f.index(object, index, t.float4));
    let object = f.e(Expression::Global(cb), cb_ty);
    targets.push(f.member(object, 0, t.float));
    let (object, index) = (f.p(3), f.int(&t, 0));
    targets.push(f.index(object, index, t.float4));
    let (a, b) = (f.p(0), f.p(0));
    targets.push(f.binary(BinaryOp::Add, a, b, t.float));
    for target in targets {
        let value = f.float(&t, 0.0);
        f.stmt(Statement::Store { target, value });
    }
    insta::assert_snapshot!(finish(m, f), @r"
    function `f` [0], statement body[1]: store target is not a place: global `k` is constant
    function `f` [0], statement body[2]: store target is not a place: local `c` is const
    function `f` [0], statement body[3]: store target is not a place: the swizzle repeats a component
    function `f` [0], statement body[4]: store target is not a place: `Texture2D<float4>` is read-only
    function `f` [0], statement body[5]: store target is not a place: `ConstantBuffer<S>` is read-only
    function `f` [0], statement body[6]: store target is not a place: `InputPatch<float4, 3>` is read-only
    function `f` [0], statement body[7]: store target is not a place: a binary expression is a value, not storage
    ");
}

#[test]
fn assignments_increments_and_out_arguments_need_places() {
    let (mut m, t, mut f) = scratch();
    let setter = {
        let mut g = Func::new("set");
        g.param("x", t.float, ParamDirection::In);
        g.param("y", t.float, ParamDirection::Out);
        g.param("z", t.float, ParamDirection::InOut);
        g.finish(&mut m)
    };
    let (target, value) = (f.float(&t, 1.0), f.float(&t, 2.0));
    let assign = f.assign(target, value);
    f.stmt(Statement::Expr(assign));
    let target = f.float(&t, 1.0);
    let step = f.inc_dec(IncDecOp::PreIncrement, target);
    f.stmt(Statement::Expr(step));
    let (x, y, z) = (f.float(&t, 1.0), f.p(0), f.float(&t, 3.0));
    let call = f.call(setter, vec![x, y, z], None);
    f.stmt(Statement::Expr(call));
    insta::assert_snapshot!(finish(m, f), @r"
    function `f` [1], expression [2]: assignment target is not a place: a literal is a value, not storage
    function `f` [1], expression [4]: increment/decrement target is not a place: a literal is a value, not storage
    function `f` [1], expression [8]: argument 2 for an out/inout parameter is not a place: a literal is a value, not storage
    ");
}

#[test]
fn calls_match_their_callee() {
    let (mut m, t, mut f) = scratch();
    let two = {
        let mut g = Func::new("two");
        g.param("x", t.float, ParamDirection::In);
        g.param("y", t.float, ParamDirection::In);
        g.finish(&mut m)
    };
    let a = f.p(0);
    let call = f.call(two, vec![a], None);
    f.stmt(Statement::Expr(call));
    // `f` calls itself and a function after it.
    let own = Handle::from_index(m.functions.len());
    let (a, v, s) = (f.p(0), f.p(1), f.p(2));
    let recursion = f.call(own, vec![a, v, s], None);
    f.stmt(Statement::Expr(recursion));
    let later = Handle::from_index(m.functions.len() + 1);
    let call = f.call(later, vec![], None);
    f.stmt(Statement::Expr(call));
    let method = f.intrinsic(Intrinsic::Sample, vec![], Some(t.float4));
    f.stmt(Statement::Expr(method));
    let own_check = f.finish(&mut m);
    assert_eq!(own_check, own);
    Func::new("after").finish(&mut m);
    insta::assert_snapshot!(report(&m), @r"
    function `f` [1], expression [1]: call of `two` passes 1 argument, it takes 2
    function `f` [1], expression [5]: calls `f`, which does not come before the caller (recursion or misordered functions)
    function `f` [1], expression [6]: calls `after`, which does not come before the caller (recursion or misordered functions)
    function `f` [1], expression [7]: method `Sample` is called without an object
    ");
}

#[test]
fn returns_match_the_result() {
    let (mut m, t, mut f) = scratch();
    let value = f.float(&t, 1.0);
    f.stmt(Statement::Return(Some(value)));
    f.finish(&mut m);
    let mut g = Func::new("g");
    g.result(t.float, IoAttrs::default());
    g.stmt(Statement::Return(None));
    g.finish(&mut m);
    insta::assert_snapshot!(report(&m), @r"
    function `f` [0], statement body[0]: `return` with a value in a function without a result
    function `g` [1], statement body[0]: `return` without a value in a function with a result
    ");
}

#[test]
fn jumps_need_an_enclosing_loop_or_switch() {
    use ir::{SwitchCase, SwitchValue};
    let (m, t, mut f) = scratch();
    f.stmt(Statement::Break);
    f.stmt(Statement::Continue);
    // `continue` in a switch that is not in a loop; `break` there is fine.
    let selector = f.int(&t, 0);
    let body = block(vec![Statement::Break, Statement::Continue]);
    let case = SwitchCase {
        values: vec![SwitchValue::Default],
        body,
        fall_through: false,
    };
    f.stmt(Statement::Switch {
        selector,
        cases: vec![case],
    });
    // A `for` init or update is outside the loop body.
    let init = block(vec![Statement::Break]);
    let update = block(vec![Statement::Continue]);
    f.stmt(Statement::For {
        init: Box::new(init),
        condition: None,
        update: Box::new(update),
        body: Box::new(block(vec![])),
    });
    insta::assert_snapshot!(finish(m, f), @r"
    function `f` [0], statement body[0]: `break` outside a loop or switch
    function `f` [0], statement body[1]: `continue` outside a loop
    function `f` [0], statement body[2].cases[0][1]: `continue` outside a loop
    function `f` [0], statement body[3].init[0]: `break` outside a loop or switch
    function `f` [0], statement body[3].update[0]: `continue` outside a loop
    ");
}

#[test]
fn declarations_and_case_labels_are_unique() {
    use ir::{SwitchCase, SwitchValue};
    let (m, t, mut f) = scratch();
    let x = f.local("x", t.float);
    f.declare(x, None);
    f.stmt(Statement::Block(block(vec![Statement::Declare {
        local: x,
        init: None,
    }])));
    let selector = f.int(&t, 0);
    let case = |values| SwitchCase {
        values,
        body: block(vec![]),
        fall_through: false,
    };
    let cases = vec![
        case(vec![SwitchValue::Int(1), SwitchValue::Default]),
        case(vec![SwitchValue::Int(1)]),
        case(vec![SwitchValue::Default]),
    ];
    f.stmt(Statement::Switch { selector, cases });
    insta::assert_snapshot!(finish(m, f), @r"
    function `f` [0], statement body[1][0]: local [0] is declared twice
    function `f` [0], statement body[2]: case label 1 is repeated
    function `f` [0], statement body[2]: `default` label is repeated
    ");
}

#[test]
fn entry_points_resolve_and_are_unique_per_stage() {
    let mut m = common::vertex_module();
    let main = m.entry_points[0].function;
    let attributes = EntryPointAttributes::default();
    entry(
        &mut m,
        "main",
        ShaderStage::Vertex,
        main,
        attributes.clone(),
    );
    entry(
        &mut m,
        "main",
        ShaderStage::Fragment,
        main,
        attributes.clone(),
    );
    entry(
        &mut m,
        "lost",
        ShaderStage::Compute,
        Handle::from_index(9),
        attributes,
    );
    let attributes = EntryPointAttributes {
        patch_constant_func: Some(Handle::from_index(8)),
        ..Default::default()
    };
    entry(&mut m, "hs", ShaderStage::Hull, main, attributes);
    insta::assert_snapshot!(report(&m), @r"
    vertex entry point `main` #1: another entry point of this stage has the same name
    compute entry point `lost` #3: function handle [9] is out of range
    hull entry point `hs` #4, [patchconstantfunc]: function handle [8] is out of range
    ");
}

/// A hull shader whose varyings are partly legalized: `verify` accepts the
/// semantics, `verify_legalized` names each one that survived.
#[test]
fn legalized_modules_keep_no_semantics() {
    let mut m = Module::default();
    let t = tys(&mut m);
    let members = vec![
        member("pos", t.float4, builtin(ir::SystemValue::Position)),
        member("uv", t.float2, sem("TEXCOORD0")),
        member("n", t.float3, location(0)),
    ];
    let vertex = strukt(&mut m, "Vertex", members);
    let patch = ty(
        &mut m,
        TypeInner::Patch {
            kind: ir::PatchKind::Input,
            element: vertex,
            count: 3,
        },
    );
    let tess = array(&mut m, t.float, 3);
    let constants = strukt(
        &mut m,
        "Constants",
        vec![member("edges", tess, sem("SV_TessFactor"))],
    );
    let mut pcf = Func::new("constants");
    pcf.param("patch", patch, ParamDirection::In);
    pcf.result(constants, IoAttrs::default());
    let pcf = pcf.finish(&mut m);
    let mut hs = Func::new("hs");
    hs.param("patch", patch, ParamDirection::In);
    hs.param_with(
        "id",
        t.uint,
        ParamDirection::In,
        ir::ParamRole::Plain,
        sem("SV_OutputControlPointID"),
    );
    hs.param_with(
        "prim",
        t.uint,
        ParamDirection::In,
        ir::ParamRole::Plain,
        builtin(ir::SystemValue::PrimitiveId),
    );
    hs.result(vertex, IoAttrs::default());
    let hs = hs.finish(&mut m);
    let attributes = EntryPointAttributes {
        patch_constant_func: Some(pcf),
        ..Default::default()
    };
    entry(&mut m, "hs", ShaderStage::Hull, hs, attributes);
    assert_eq!(report(&m), "ok");
    insta::assert_snapshot!(report_legalized(&m), @r"
    hull entry point `hs` #0, varying `patch[].uv`: semantic `TEXCOORD` survived legalization (expected a builtin or a location)
    hull entry point `hs` #0, varying `id`: semantic `SV_OutputControlPointID` survived legalization (expected a builtin or a location)
    hull entry point `hs` #0, varying `return.uv`: semantic `TEXCOORD` survived legalization (expected a builtin or a location)
    hull entry point `hs` #0, varying `constants::patch[].uv`: semantic `TEXCOORD` survived legalization (expected a builtin or a location)
    hull entry point `hs` #0, varying `constants::return.edges`: semantic `SV_TessFactor` survived legalization (expected a builtin or a location)
    ");
}

#[test]
fn fully_legalized_module_passes() {
    let mut m = Module::default();
    let t = tys(&mut m);
    let mut f = Func::new("main");
    f.result(t.float4, builtin(ir::SystemValue::Position));
    let (x, one) = (f.float(&t, 0.0), f.float(&t, 1.0));
    let (y, z) = (f.float(&t, 0.0), f.float(&t, 0.0));
    let value = f.construct(vec![x, y, z, one], t.float4);
    f.stmt(Statement::Return(Some(value)));
    let main = f.finish(&mut m);
    entry(
        &mut m,
        "main",
        ShaderStage::Vertex,
        main,
        EntryPointAttributes::default(),
    );
    assert_eq!(report_legalized(&m), "ok");
    assert_ne!(report_legalized(&common::vertex_module()), "ok");
}

/// Whatever a buggy pass produces, the verifier reports instead of panicking.
#[test]
fn garbage_module_is_reported_not_panicked_on() {
    let mut m = Module::default();
    let (nowhere, no_type) = (Handle::from_index(1000), Handle::from_index(1000));
    let span = ir::Span::UNDEFINED;
    let exprs = &mut m.global_expressions;
    let own = Handle::from_index(0);
    exprs.append(
        Expression::Index {
            base: own,
            index: nowhere,
        },
        Some(Handle::from_index(3)),
        span,
    );
    let g = global(&mut m, "g", no_type, AddressSpace::Private);
    m.globals.get_mut(g).init = Some(own);
    let mut f = Func::new("f");
    let e = f.e(
        Expression::Swizzle {
            base: Handle::from_index(0),
            components: vec![9; 6],
        },
        no_type,
    );
    let place = f.e(
        Expression::Member {
            base: Handle::from_index(2),
            index: 0,
        },
        no_type,
    );
    let loop_ = f.e(
        Expression::Member {
            base: place,
            index: 0,
        },
        no_type,
    );
    f.stmt(Statement::Store {
        target: loop_,
        value: e,
    });
    f.finish(&mut m);
    entry(
        &mut m,
        "",
        ShaderStage::Miss,
        Handle::from_index(1000),
        EntryPointAttributes::default(),
    );
    let errors = ir::verify::verify_legalized(&m).unwrap_err();
    assert!(errors.iter().any(|e| e.kind == ErrorKind::Reused));
    insta::assert_snapshot!(render(Err(errors)), @r"
    global initializers, expression [0]: type handle [3] is out of range
    global initializers, expression [0]: expression handle [1000] is out of range
    global `g` [0]: type handle [1000] is out of range
    global `g` [0], expression [0]: expression is used by more than one parent (expressions must be trees)
    function `f` [0], expression [0]: type handle [1000] is out of range
    function `f` [0], expression [0]: swizzle has 6 components, not 1 to 4
    function `f` [0], expression [0]: swizzle component 9 is not 0..=3
    function `f` [0], expression [1]: type handle [1000] is out of range
    function `f` [0], expression [2]: type handle [1000] is out of range
    function `f` [0], expression [2]: expression is used by more than one parent (expressions must be trees)
    function `f` [0], expression [0]: expression is used by more than one parent (expressions must be trees)
    miss entry point `` #0: function handle [1000] is out of range
    ");
}

#[test]
fn place_reasons_are_typed() {
    let (mut m, t, mut f) = scratch();
    let (a, b) = (f.p(0), f.p(0));
    let target = f.binary(BinaryOp::Add, a, b, t.float);
    let value = f.float(&t, 1.0);
    f.stmt(Statement::Store { target, value });
    f.finish(&mut m);
    let errors = ir::verify::verify(&m).unwrap_err();
    let kind = ErrorKind::NotAPlace {
        context: PlaceContext::Store,
        reason: NotPlaceReason::Value("binary expression"),
    };
    assert_eq!(
        errors.iter().map(|e| &e.kind).collect::<Vec<_>>(),
        vec![&kind]
    );
}

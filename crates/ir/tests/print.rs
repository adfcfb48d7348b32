//! Pins the text printer: type spellings, declarations with every varying
//! and binding attribute, every expression and statement form, entry-point
//! attributes, name disambiguation, and markers in malformed modules.

mod common;

use common::{
    Func, Tys, array, block, entry, global, member, scalar, sem, strukt, texture, ty, tys, vector,
};
use ir::{
    AddressSpace, BinaryOp, Binding, BufferKind, EntryPointAttributes, Expression, Handle,
    IncDecOp, Intrinsic, IoAttrs, Literal, Module, ParamDirection, ParamRole, ResourceAccess,
    Scalar, ShaderStage, Statement, TextureDim, Type, TypeInner, UnaryOp,
};
use legalis_ir as ir;

/// `[handle] type_name` for every type of the module, in handle order.
fn type_table(module: &Module) -> String {
    let line = |(handle, _)| format!("{handle:?} {}\n", ir::print::type_name(module, handle));
    module.types.iter().map(line).collect()
}

#[test]
fn numeric_and_array_types_spell_as_hlsl() {
    let mut m = Module::default();
    tys(&mut m);
    let half = scalar(&mut m, Scalar::F16);
    ty(
        &mut m,
        TypeInner::Matrix {
            rows: 2,
            columns: 3,
            scalar: Scalar::F16,
        },
    );
    vector(&mut m, 3, Scalar::U16);
    vector(&mut m, 2, Scalar::I64);
    let float = scalar(&mut m, Scalar::F32);
    let inner = array(&mut m, float, 3);
    array(&mut m, inner, 2);
    ty(
        &mut m,
        TypeInner::Array {
            base: half,
            size: ir::ArraySize::Unsized,
        },
    );
    scalar(&mut m, Scalar::I8);
    scalar(&mut m, Scalar::U16);
    insta::assert_snapshot!(type_table(&m), @r"
    [0] bool
    [1] int
    [2] uint
    [3] float
    [4] half
    [5] double
    [6] int64_t
    [7] uint64_t
    [8] int16_t
    [9] uint8_t
    [10] float2
    [11] float3
    [12] float4
    [13] uint3
    [14] float4x4
    [15] half2x3
    [16] uint16_t3
    [17] int64_t2
    [18] float[3]
    [19] float[2][3]
    [20] half[]
    [21] int8_t
    [22] uint16_t
    ");
}

#[test]
fn resource_types_spell_as_hlsl() {
    use ResourceAccess::{RasterizerOrdered as Ordered, Read, ReadWrite as Rw};
    use ir::Normalization::{Snorm, Unorm};
    let mut m = Module::default();
    let float = scalar(&mut m, Scalar::F32);
    let float4 = vector(&mut m, 4, Scalar::F32);
    let uint = scalar(&mut m, Scalar::U32);
    let half = scalar(&mut m, Scalar::F16);
    let uint3 = vector(&mut m, 3, Scalar::U32);
    let s = strukt(&mut m, "S", vec![member("a", float, IoAttrs::default())]);
    // (dim, access, texel, arrayed, multisampled, normalization)
    let textures = [
        (TextureDim::D1, Read, float4, false, false, None),
        (TextureDim::D2, Read, float4, false, false, None),
        (TextureDim::D3, Rw, uint, false, false, None),
        (TextureDim::Cube, Read, half, false, false, None),
        (TextureDim::D2, Ordered, float4, false, false, None),
        (TextureDim::D2, Read, float4, true, true, None),
        (TextureDim::Cube, Rw, float4, true, false, Some(Unorm)),
    ];
    for (dim, access, texel, arrayed, multisampled, normalization) in textures {
        let inner = TypeInner::Texture(legalis_ir::Texture {
            dim,
            arrayed,
            multisampled,
            access,
            texel,
            normalization,
            combined: false,
            shadow: false,
        });
        ty(&mut m, inner);
    }
    // (dim, arrayed, combined, shadow): `Sampler2D`, `Sampler2DArrayShadow`,
    // `DepthTextureCube`.
    for (dim, arrayed, combined, shadow) in [
        (TextureDim::D2, false, true, false),
        (TextureDim::D2, true, true, true),
        (TextureDim::Cube, false, false, true),
    ] {
        let inner = TypeInner::Texture(legalis_ir::Texture {
            dim,
            arrayed,
            multisampled: false,
            access: Read,
            texel: float,
            normalization: None,
            combined,
            shadow,
        });
        ty(&mut m, inner);
    }
    ty(&mut m, TypeInner::Sampler { comparison: false });
    ty(&mut m, TypeInner::Sampler { comparison: true });
    let elements = array(&mut m, float4, 4);
    // (kind, access, element, normalization)
    let buffers = [
        (BufferKind::Typed, Read, Some(float4), None),
        (BufferKind::Typed, Rw, Some(float), Some(Snorm)),
        (BufferKind::Structured, Read, Some(s), None),
        (BufferKind::Structured, Rw, Some(s), None),
        (BufferKind::Structured, Ordered, Some(s), None),
        (BufferKind::Append, Rw, Some(s), None),
        (BufferKind::Consume, Rw, Some(s), None),
        (BufferKind::ByteAddress, Read, None, None),
        (BufferKind::ByteAddress, Rw, None, None),
        (BufferKind::Structured, Read, Some(elements), None),
    ];
    for (kind, access, element, normalization) in buffers {
        ty(
            &mut m,
            TypeInner::Buffer {
                kind,
                access,
                element,
                normalization,
            },
        );
    }
    ty(&mut m, TypeInner::ConstantBuffer { inner: s });
    ty(&mut m, TypeInner::TextureBuffer { inner: s });
    ty(&mut m, TypeInner::AccelerationStructure);
    shader_io_types(&mut m, s, uint3);
    insta::assert_snapshot!(type_table(&m), @r"
    [0] float
    [1] float4
    [2] uint
    [3] half
    [4] uint3
    [5] S
    [6] Texture1D<float4>
    [7] Texture2D<float4>
    [8] RWTexture3D<uint>
    [9] TextureCube<half>
    [10] RasterizerOrderedTexture2D<float4>
    [11] Texture2DMSArray<float4>
    [12] RWTextureCubeArray<unorm float4>
    [13] Sampler2D<float>
    [14] Sampler2DArrayShadow<float>
    [15] DepthTextureCube<float>
    [16] SamplerState
    [17] SamplerComparisonState
    [18] float4[4]
    [19] Buffer<float4>
    [20] RWBuffer<snorm float>
    [21] StructuredBuffer<S>
    [22] RWStructuredBuffer<S>
    [23] RasterizerOrderedStructuredBuffer<S>
    [24] AppendStructuredBuffer<S>
    [25] ConsumeStructuredBuffer<S>
    [26] ByteAddressBuffer
    [27] RWByteAddressBuffer
    [28] StructuredBuffer<float4[4]>
    [29] ConstantBuffer<S>
    [30] TextureBuffer<S>
    [31] RaytracingAccelerationStructure
    [32] InputPatch<S, 3>
    [33] OutputPatch<S, 4>
    [34] PointStream<S>
    [35] LineStream<S>
    [36] TriangleStream<S>
    [37] OutputVertices<S, 64>
    [38] OutputIndices<uint3, 126>
    [39] OutputPrimitives<S, 126>
    ");
}

fn shader_io_types(m: &mut Module, s: Handle<Type>, uint3: Handle<Type>) {
    use ir::{MeshOutputKind as Mesh, PatchKind, StreamKind};
    ty(
        m,
        TypeInner::Patch {
            kind: PatchKind::Input,
            element: s,
            count: 3,
        },
    );
    ty(
        m,
        TypeInner::Patch {
            kind: PatchKind::Output,
            element: s,
            count: 4,
        },
    );
    ty(
        m,
        TypeInner::Stream {
            kind: StreamKind::Point,
            element: s,
        },
    );
    ty(
        m,
        TypeInner::Stream {
            kind: StreamKind::Line,
            element: s,
        },
    );
    ty(
        m,
        TypeInner::Stream {
            kind: StreamKind::Triangle,
            element: s,
        },
    );
    ty(
        m,
        TypeInner::MeshOutput {
            kind: Mesh::Vertices,
            element: s,
            count: 64,
        },
    );
    ty(
        m,
        TypeInner::MeshOutput {
            kind: Mesh::Indices,
            element: uint3,
            count: 126,
        },
    );
    ty(
        m,
        TypeInner::MeshOutput {
            kind: Mesh::Primitives,
            element: s,
            count: 126,
        },
    );
}

fn io(binding: Binding) -> IoAttrs {
    IoAttrs {
        binding: Some(binding),
        ..IoAttrs::default()
    }
}

#[test]
fn struct_members_show_every_varying_attribute() {
    let mut m = Module::default();
    let t = tys(&mut m);
    let mut flat = sem("BLENDINDICES");
    flat.interpolation.mode = Some(ir::InterpolationMode::Flat);
    let mut located = sem("TEXCOORD1");
    located.explicit_location = Some(3);
    located.explicit_index = Some(1);
    located.interpolation.mode = Some(ir::InterpolationMode::NoPerspective);
    located.interpolation.sampling = Some(ir::Sampling::Centroid);
    let mut matrix = member("world", t.float4x4, sem("WORLD"));
    matrix.matrix_layout = Some(ir::MatrixLayout::ColumnMajor);
    let clip = array(&mut m, t.float, 2);
    let value = ir::SystemValue::ClipDistance;
    let builtin = io(Binding::BuiltIn(ir::BuiltIn {
        value,
        array_index: Some(1),
    }));
    let interpolation = ir::Interpolation {
        mode: Some(ir::InterpolationMode::Linear),
        sampling: Some(ir::Sampling::Sample),
    };
    let (location, component, index, patch, per_primitive) = (2, 1, Some(0), true, true);
    let full = io(Binding::Location {
        location,
        component,
        index,
        interpolation,
        patch,
        per_primitive,
        per_vertex: true,
    });
    let members = vec![
        member("pos", t.float4, sem("SV_Position")),
        member("id", t.uint, flat),
        member("uv", t.float2, located),
        matrix,
        member("color", t.float4, sem("SV_Target3")),
        member("odd", t.float4, sem("SV_Position1")),
        member("clip", clip, builtin),
        member("fog", t.float, full),
        member("depth", t.float, common::location(0)),
        member("plain", t.int, IoAttrs::default()),
    ];
    strukt(&mut m, "VsOut", members);
    insta::assert_snapshot!(ir::print::print_module(&m), @r"
    struct VsOut {
        float4 pos : SV_Position;
        nointerpolation uint id : BLENDINDICES;
        [[vk::location(3)]] [[vk::index(1)]] noperspective centroid float2 uv : TEXCOORD1;
        column_major float4x4 world : WORLD;
        float4 color : SV_Target3;
        float4 odd : SV_Position1;
        float clip[2] : builtin(SV_ClipDistance[1]);
        float fog : location(2, component = 1, index = 0, linear sample, patch, per_primitive, per_vertex);
        float depth : location(0);
        int plain;
    }
    ");
}

#[test]
fn globals_show_space_bindings_layout_and_initializer() {
    use ir::{Register, RegisterClass};
    let mut m = Module::default();
    let t = tys(&mut m);
    let tex = texture(&mut m, TextureDim::D2, ResourceAccess::Read, t.float4);
    let tex = global(&mut m, "tex", tex, AddressSpace::Uniform);
    let binding = &mut m.globals.get_mut(tex).binding;
    binding.register = Some(Register {
        class: RegisterClass::T,
        index: 0,
        space: 1,
    });
    binding.vk_binding = Some((2, 1));
    let params = strukt(
        &mut m,
        "Params",
        vec![member("scale", t.float, IoAttrs::default())],
    );
    let cb = ty(&mut m, TypeInner::ConstantBuffer { inner: params });
    let cb = global(&mut m, "Params", cb, AddressSpace::Uniform);
    let b0 = Register {
        class: RegisterClass::B,
        index: 0,
        space: 0,
    };
    m.globals.get_mut(cb).binding.register = Some(b0);
    let table = array(&mut m, t.float3, 2);
    let k = global(&mut m, "k", table, AddressSpace::Constant);
    m.globals.get_mut(k).init = Some(constant_table(&mut m, &t, table));
    let cache = array(&mut m, t.float, 64);
    global(&mut m, "cache", cache, AddressSpace::Workgroup);
    let world = global(&mut m, "world", t.float4x4, AddressSpace::Private);
    m.globals.get_mut(world).matrix_layout = Some(ir::MatrixLayout::RowMajor);
    let gain = global(&mut m, "gain", t.float, AddressSpace::Uniform);
    let c3 = Register {
        class: RegisterClass::C,
        index: 3,
        space: 0,
    };
    m.globals.get_mut(gain).binding.register = Some(c3);
    insta::assert_snapshot!(ir::print::print_module(&m), @r"
    struct Params {
        float scale;
    }

    global [[vk::binding(2, 1)]] uniform Texture2D<float4> tex : register(t0, space1);
    global uniform ConstantBuffer<Params> Params : register(b0);
    global static const float3 k[2] = {float3(1.0, 2.0, 3.0), float3(0.5)};
    global groupshared float cache[64];
    global static row_major float4x4 world;
    global uniform float gain : register(c3);
    ");
}

/// `{float3(1.0, 2.0, 3.0), float3(0.5)}` in the module's initializer arena.
fn constant_table(m: &mut Module, t: &Tys, table: Handle<Type>) -> Handle<Expression> {
    let exprs = &mut m.global_expressions;
    let span = ir::Span::UNDEFINED;
    let mut add = |e: Expression, ty: Handle<Type>| exprs.append(e, Some(ty), span);
    let lit = |v: f64| Expression::Literal(Literal::Float(v));
    let (a, b, c, d) = (
        add(lit(1.0), t.float),
        add(lit(2.0), t.float),
        add(lit(3.0), t.float),
        add(lit(0.5), t.float),
    );
    let first = add(
        Expression::Construct {
            components: vec![a, b, c],
        },
        t.float3,
    );
    let second = add(Expression::Convert { expr: d }, t.float3);
    add(
        Expression::Construct {
            components: vec![first, second],
        },
        table,
    )
}

#[test]
fn literals_show_their_type() {
    let mut m = Module::default();
    let t = tys(&mut m);
    let mut f = Func::new("literals");
    let cases = [
        (Literal::Bool(true), t.bool_),
        (Literal::Int(-3), t.int),
        (Literal::Uint(2), t.uint),
        (Literal::Float(1.0), t.float),
        (Literal::Float(0.1), t.float),
        (Literal::Float(1e20), t.float),
        (Literal::Float(-2.5e-8), t.float),
        (Literal::Float(1.5), t.half),
        (Literal::Float(3.0), t.double),
        (Literal::Int(3), t.int64),
        (Literal::Uint(3), t.uint64),
        (Literal::Int(-7), t.int16),
        (Literal::Uint(255), t.uint8),
        (Literal::Float(f64::INFINITY), t.float),
        (Literal::Float(f64::NAN), t.half),
    ];
    for (literal, ty) in cases {
        let e = f.lit(literal, ty);
        f.stmt(Statement::Expr(e));
    }
    let h = f.finish(&mut m);
    insta::assert_snapshot!(ir::print::print_function(&m, h), @r"
    fn literals() -> void {
        true;
        -3;
        2u;
        1.0;
        0.1;
        1e20;
        -2.5e-8;
        1.5h;
        3.0l;
        3l;
        3ul;
        int16_t(-7);
        uint8_t(255);
        float(inf);
        half(nan);
    }
    ");
}

/// One expression statement per form, over parameters `a`, `b` (float),
/// `v` (float4), `s` (struct S), `arr` (float[4]), `i` (int).
#[test]
fn every_expression_form() {
    let mut m = Module::default();
    let t = tys(&mut m);
    let s_members = vec![
        member("x", t.float, IoAttrs::default()),
        member("v", t.float4, IoAttrs::default()),
    ];
    let s = strukt(&mut m, "S", s_members);
    let arr = array(&mut m, t.float, 4);
    let helper = {
        let mut f = Func::new("helper");
        f.param("x", t.float, ParamDirection::In);
        f.result(t.float, IoAttrs::default());
        let x = f.p(0);
        f.stmt(Statement::Return(Some(x)));
        f.finish(&mut m)
    };
    let mut f = Func::new("exprs");
    for (name, ty) in [
        ("a", t.float),
        ("b", t.float),
        ("v", t.float4),
        ("s", s),
        ("arr", arr),
        ("i", t.int),
    ] {
        f.param(name, ty, ParamDirection::InOut);
    }
    let mut exprs = access_and_operator_forms(&mut f, &t);
    exprs.extend(construction_and_call_forms(&mut m, &mut f, &t, helper));
    exprs.extend(assignment_forms(&mut f, &t));
    for e in exprs {
        f.stmt(Statement::Expr(e));
    }
    let h = f.finish(&mut m);
    insta::assert_snapshot!(ir::print::print_function(&m, h), @r"
    fn exprs(
        inout float a,
        inout float b,
        inout float4 v,
        inout S s,
        inout float arr[4],
        inout int i,
    ) -> void {
        s.v;
        arr[i];
        v.wzyx;
        (1.0).xxx;
        s.v.xy;
        -a;
        -(-a);
        -(-1);
        !false;
        ~i;
        (a + b) * 2.0;
        -(a - b);
        (v + v).x;
        ((i << 1) & 255) != 0;
        (a < b) || (a >= b);
        (a > b) ? a : 0.0;
        float(i);
        float4(a);
        float4(v.xyz, 1.0);
        {a, b};
        {a, v};
        ({a, b})[0];
        helper(a);
        dot(v, v);
        tex.SampleLevel(samp, v.xy, 0.0);
        GroupMemoryBarrierWithGroupSync();
        a = b = 1.0;
        a + (b = 1.0);
        ++i;
        --i;
        i++;
        arr[i]--;
    }
    ");
}

fn access_and_operator_forms(f: &mut Func, t: &Tys) -> Vec<Handle<Expression>> {
    let (a, b, v, s, arr, i) = (0, 1, 2, 3, 4, 5);
    let mut out = Vec::new();
    // Member of a struct, index of an array, swizzles of a vector, a literal, a member.
    let base = f.p(s);
    out.push(f.member(base, 1, t.float4));
    let (base, index) = (f.p(arr), f.p(i));
    out.push(f.index(base, index, t.float));
    let base = f.p(v);
    out.push(f.swizzle(base, &[3, 2, 1, 0], t.float4));
    let one = f.float(t, 1.0);
    out.push(f.swizzle(one, &[0, 0, 0], t.float3));
    let base = f.p(s);
    let field = f.member(base, 1, t.float4);
    out.push(f.swizzle(field, &[0, 1], t.float2));
    // Unary operators; a negated negation or negative literal must not read as `--`.
    let x = f.p(a);
    out.push(f.unary(UnaryOp::Negate, x));
    let x = f.p(a);
    let neg = f.unary(UnaryOp::Negate, x);
    out.push(f.unary(UnaryOp::Negate, neg));
    let minus_one = f.int(t, -1);
    out.push(f.unary(UnaryOp::Negate, minus_one));
    let no = f.lit(Literal::Bool(false), t.bool_);
    out.push(f.unary(UnaryOp::LogicalNot, no));
    let x = f.p(i);
    out.push(f.unary(UnaryOp::BitwiseNot, x));
    // Binary operands that are binary are parenthesised, as are binary bases.
    let (x, y) = (f.p(a), f.p(b));
    let sum = f.binary(BinaryOp::Add, x, y, t.float);
    let two = f.float(t, 2.0);
    out.push(f.binary(BinaryOp::Multiply, sum, two, t.float));
    let (x, y) = (f.p(a), f.p(b));
    let difference = f.binary(BinaryOp::Subtract, x, y, t.float);
    out.push(f.unary(UnaryOp::Negate, difference));
    let (x, y) = (f.p(v), f.p(v));
    let sum = f.binary(BinaryOp::Add, x, y, t.float4);
    out.push(f.swizzle(sum, &[0], t.float));
    let (x, one) = (f.p(i), f.int(t, 1));
    let shifted = f.binary(BinaryOp::ShiftLeft, x, one, t.int);
    let mask = f.int(t, 255);
    let masked = f.binary(BinaryOp::BitwiseAnd, shifted, mask, t.int);
    let zero = f.int(t, 0);
    out.push(f.binary(BinaryOp::NotEqual, masked, zero, t.bool_));
    let (x, y) = (f.p(a), f.p(b));
    let less = f.binary(BinaryOp::Less, x, y, t.bool_);
    let (x, y) = (f.p(a), f.p(b));
    let at_least = f.binary(BinaryOp::GreaterEqual, x, y, t.bool_);
    out.push(f.binary(BinaryOp::LogicalOr, less, at_least, t.bool_));
    let (x, y) = (f.p(a), f.p(b));
    let condition = f.binary(BinaryOp::Greater, x, y, t.bool_);
    let (accept, reject) = (f.p(a), f.float(t, 0.0));
    out.push(f.e(
        Expression::Select {
            condition,
            accept,
            reject,
        },
        t.float,
    ));
    out
}

fn construction_and_call_forms(
    m: &mut Module,
    f: &mut Func,
    t: &Tys,
    helper: Handle<ir::Function>,
) -> Vec<Handle<Expression>> {
    let (a, b, v, s, i) = (0, 1, 2, 3, 5);
    let s_ty = f.func.params[s as usize].ty;
    let pair = array(m, t.float, 2);
    let tex_ty = texture(m, TextureDim::D2, ResourceAccess::Read, t.float4);
    let sampler_ty = ty(m, TypeInner::Sampler { comparison: false });
    let tex = global(m, "tex", tex_ty, AddressSpace::Uniform);
    let samp = global(m, "samp", sampler_ty, AddressSpace::Uniform);
    let mut out = Vec::new();
    // Conversions name their target type.
    let x = f.p(i);
    out.push(f.e(Expression::Convert { expr: x }, t.float));
    let x = f.p(a);
    out.push(f.e(Expression::Convert { expr: x }, t.float4));
    // Constructors: numbers by type, arrays and structs by list.
    let x = f.p(v);
    let xyz = f.swizzle(x, &[0, 1, 2], t.float3);
    let one = f.float(t, 1.0);
    out.push(f.construct(vec![xyz, one], t.float4));
    let (x, y) = (f.p(a), f.p(b));
    out.push(f.construct(vec![x, y], pair));
    let (x, y) = (f.p(a), f.p(v));
    out.push(f.construct(vec![x, y], s_ty));
    let (x, y) = (f.p(a), f.p(b));
    let list = f.construct(vec![x, y], pair);
    let zero = f.int(t, 0);
    out.push(f.index(list, zero, t.float));
    // Calls, free intrinsics, methods, and a void intrinsic.
    let x = f.p(a);
    out.push(f.call(helper, vec![x], Some(t.float)));
    let (x, y) = (f.p(v), f.p(v));
    out.push(f.intrinsic(Intrinsic::Dot, vec![x, y], Some(t.float)));
    let object = f.e(Expression::Global(tex), tex_ty);
    let sampler = f.e(Expression::Global(samp), sampler_ty);
    let x = f.p(v);
    let uv = f.swizzle(x, &[0, 1], t.float2);
    let lod = f.float(t, 0.0);
    let args = vec![object, sampler, uv, lod];
    out.push(f.intrinsic(Intrinsic::SampleLevel, args, Some(t.float4)));
    out.push(f.intrinsic(Intrinsic::GroupMemoryBarrierWithGroupSync, vec![], None));
    out
}

fn assignment_forms(f: &mut Func, t: &Tys) -> Vec<Handle<Expression>> {
    let (a, b, arr, i) = (0, 1, 4, 5);
    let mut out = Vec::new();
    let (x, y, one) = (f.p(a), f.p(b), f.float(t, 1.0));
    let inner = f.assign(y, one);
    out.push(f.assign(x, inner));
    let (x, y, one) = (f.p(a), f.p(b), f.float(t, 1.0));
    let set = f.assign(y, one);
    out.push(f.binary(BinaryOp::Add, x, set, t.float));
    for op in [
        IncDecOp::PreIncrement,
        IncDecOp::PreDecrement,
        IncDecOp::PostIncrement,
    ] {
        let x = f.p(i);
        out.push(f.inc_dec(op, x));
    }
    let (base, index) = (f.p(arr), f.p(i));
    let element = f.index(base, index, t.float);
    out.push(f.inc_dec(IncDecOp::PostDecrement, element));
    out
}

/// Every statement form, in a `void` function with parameters `bool c`, `int n`.
#[test]
fn every_statement_form() {
    let mut m = Module::default();
    let t = tys(&mut m);
    let touch = {
        let mut f = Func::new("touch");
        f.param("x", t.float, ParamDirection::InOut);
        f.finish(&mut m)
    };
    let mut f = Func::new("statements");
    f.param("c", t.bool_, ParamDirection::In);
    f.param("n", t.int, ParamDirection::In);
    let i = f.local("i", t.int);
    let k = f.local("k", t.float);
    f.func.locals.get_mut(k).is_static = true;
    f.func.locals.get_mut(k).is_const = true;
    let tmp = f.local("t", t.float);
    let zero = f.int(&t, 0);
    f.declare(i, Some(zero));
    let two = f.float(&t, 2.0);
    f.declare(k, Some(two));
    f.declare(tmp, None);
    let s = f.store_float(tmp, &t, 1.0);
    f.stmt(s);
    let arg = f.l(tmp);
    let call = f.call(touch, vec![arg], None);
    f.stmt(Statement::Expr(call));
    let s = f.store_float(tmp, &t, 2.0);
    f.stmt(Statement::Block(block(vec![s])));
    let condition = f.p(0);
    let accept = block(vec![f.store_float(tmp, &t, 3.0)]);
    f.stmt(Statement::If {
        condition,
        accept: Box::new(accept),
        reject: Box::new(block(vec![])),
    });
    let condition = f.p(0);
    let (accept, reject) = (
        block(vec![Statement::Discard]),
        block(vec![Statement::Return(None)]),
    );
    f.stmt(Statement::If {
        condition,
        accept: Box::new(accept),
        reject: Box::new(reject),
    });
    loops(&mut f, &t, i, tmp);
    switch(&mut f, &t, tmp);
    f.stmt(Statement::Return(None));
    let h = f.finish(&mut m);
    insta::assert_snapshot!(ir::print::print_function(&m, h), @r"
    fn statements(in bool c, in int n) -> void {
        var int i = 0;
        var static const float k = 2.0;
        var float t;
        t = 1.0;
        touch(t);
        {
            t = 2.0;
        }
        if (c) {
            t = 3.0;
        }
        if (c) {
            discard;
        } else {
            return;
        }
        for (var int j = 0; j < n; j++, t = 1.0) {
            if (c) {
                continue;
            }
            break;
        }
        for (t = 0.0, i = 1;;) {
            break;
        }
        for (
            init:
                var int k2 = 0;
                if (c) {
                    t = 5.0;
                }
            condition:
            update:
                {
                    ++i;
                }
        ) {
            break;
        }
        while (c) {
            break;
        }
        do {
            t = 4.0;
        } while (c);
        switch (n) {
            case 1:
            case -2: {
                t = 1.0;
                fallthrough;
            }
            case 3: {
            }
            default: {
                break;
            }
        }
        return;
    }
    ");
}

fn loops(f: &mut Func, t: &Tys, i: Handle<ir::LocalVariable>, tmp: Handle<ir::LocalVariable>) {
    // for (var int j = 0; j < n; j++, t = 1.0) { if (c) { continue; } break; }
    let j = f.local("j", t.int);
    let zero = f.int(t, 0);
    let init = block(vec![Statement::Declare {
        local: j,
        init: Some(zero),
    }]);
    let (x, n) = (f.l(j), f.p(1));
    let condition = Some(f.binary(BinaryOp::Less, x, n, t.bool_));
    let x = f.l(j);
    let step = f.inc_dec(IncDecOp::PostIncrement, x);
    let update = block(vec![Statement::Expr(step), f.store_float(tmp, t, 1.0)]);
    let c = f.p(0);
    let skip = Statement::If {
        condition: c,
        accept: Box::new(block(vec![Statement::Continue])),
        reject: Box::new(block(vec![])),
    };
    let body = block(vec![skip, Statement::Break]);
    f.stmt(Statement::For {
        init: Box::new(init),
        condition,
        update: Box::new(update),
        body: Box::new(body),
    });
    // for (t = 0.0, i = 1;;) { break; }: stores alone stay inline.
    let one = f.int(t, 1);
    let target = f.l(i);
    let init = block(vec![
        f.store_float(tmp, t, 0.0),
        Statement::Store { target, value: one },
    ]);
    let (update, body) = (block(vec![]), block(vec![Statement::Break]));
    f.stmt(Statement::For {
        init: Box::new(init),
        condition: None,
        update: Box::new(update),
        body: Box::new(body),
    });
    // A declaration beside other statements, and control flow in the update:
    // the labelled form.
    let k = f.local("k2", t.int);
    let zero = f.int(t, 0);
    let c = f.p(0);
    let set = Statement::If {
        condition: c,
        accept: Box::new(block(vec![f.store_float(tmp, t, 5.0)])),
        reject: Box::new(block(vec![])),
    };
    let init = block(vec![
        Statement::Declare {
            local: k,
            init: Some(zero),
        },
        set,
    ]);
    let x = f.l(i);
    let step = f.inc_dec(IncDecOp::PreIncrement, x);
    let update = block(vec![Statement::Block(block(vec![Statement::Expr(step)]))]);
    let body = block(vec![Statement::Break]);
    f.stmt(Statement::For {
        init: Box::new(init),
        condition: None,
        update: Box::new(update),
        body: Box::new(body),
    });
    let condition = f.p(0);
    f.stmt(Statement::While {
        condition,
        body: block(vec![Statement::Break]),
    });
    let condition = f.p(0);
    let body = block(vec![f.store_float(tmp, t, 4.0)]);
    f.stmt(Statement::DoWhile { body, condition });
}

fn switch(f: &mut Func, t: &Tys, tmp: Handle<ir::LocalVariable>) {
    use ir::{SwitchCase, SwitchValue};
    let selector = f.p(1);
    let first = SwitchCase {
        values: vec![SwitchValue::Int(1), SwitchValue::Int(-2)],
        body: block(vec![f.store_float(tmp, t, 1.0)]),
        fall_through: true,
    };
    let empty = SwitchCase {
        values: vec![SwitchValue::Int(3)],
        body: block(vec![]),
        fall_through: false,
    };
    let body = block(vec![Statement::Break]);
    let default = SwitchCase {
        values: vec![SwitchValue::Default],
        body,
        fall_through: false,
    };
    f.stmt(Statement::Switch {
        selector,
        cases: vec![first, empty, default],
    });
}

#[test]
fn entry_points_show_stage_attributes_and_parameter_roles() {
    let mut m = Module::default();
    let t = tys(&mut m);
    let vs_out = strukt(
        &mut m,
        "VsOut",
        vec![member("pos", t.float4, sem("SV_Position"))],
    );
    let tess = array(&mut m, t.float, 3);
    let constants = vec![
        member("edges", tess, sem("SV_TessFactor")),
        member("inside", t.float, sem("SV_InsideTessFactor")),
    ];
    let hs_const = strukt(&mut m, "HsConst", constants);
    let patch = ty(
        &mut m,
        TypeInner::Patch {
            kind: ir::PatchKind::Input,
            element: vs_out,
            count: 3,
        },
    );
    let mut pcf = Func::new("patch_constants");
    pcf.param("patch", patch, ParamDirection::In);
    pcf.param_with(
        "prim",
        t.uint,
        ParamDirection::In,
        ParamRole::Plain,
        sem("SV_PrimitiveID"),
    );
    pcf.result(hs_const, IoAttrs::default());
    let pcf = pcf.finish(&mut m);
    let mut hs = Func::new("hs_main");
    hs.param("patch", patch, ParamDirection::In);
    hs.param_with(
        "id",
        t.uint,
        ParamDirection::In,
        ParamRole::Plain,
        sem("SV_OutputControlPointID"),
    );
    hs.result(vs_out, IoAttrs::default());
    let hs = hs.finish(&mut m);
    let attributes = EntryPointAttributes {
        domain: Some(ir::TessDomain::Tri),
        partitioning: Some(ir::Partitioning::FractionalOdd),
        output_topology: Some(ir::OutputTopology::TriangleCw),
        output_control_points: Some(3),
        patch_constant_func: Some(pcf),
        max_tess_factor: Some(64.0),
        ..Default::default()
    };
    entry(&mut m, "hs_main", ShaderStage::Hull, hs, attributes);
    let mut cs = Func::new("cs_main");
    cs.param_with(
        "tid",
        t.uint3,
        ParamDirection::In,
        ParamRole::Plain,
        sem("SV_DispatchThreadID"),
    );
    let cs = cs.finish(&mut m);
    let attributes = EntryPointAttributes {
        workgroup_size: Some([8, 8, 1]),
        ..Default::default()
    };
    entry(&mut m, "cs_main", ShaderStage::Compute, cs, attributes);
    geometry_and_fragment(&mut m, &t, vs_out);
    mesh(&mut m, &t, vs_out);
    let text = ir::print::print_module(&m);
    let functions = text.find("\nfn ").expect("functions follow the structs");
    insta::assert_snapshot!(&text[functions + 1..], @r#"
    fn patch_constants(in InputPatch<VsOut, 3> patch, in uint prim : SV_PrimitiveID) -> HsConst {
    }

    fn hs_main(in InputPatch<VsOut, 3> patch, in uint id : SV_OutputControlPointID) -> VsOut {
    }

    fn cs_main(in uint3 tid : SV_DispatchThreadID) -> void {
    }

    fn gs_main(
        in triangle VsOut v[3],
        inout TriangleStream<VsOut> stream,
        in uint instance : SV_GSInstanceID,
    ) -> void {
    }

    fn ps_main(
        in uniform float4 tint,
        in [[vk::location(1)]] sample float2 uv : TEXCOORD2,
        out float depth : SV_DepthGreaterEqual,
        inout uint coverage : SV_Coverage,
    ) -> [[vk::location(0)]] float4 : SV_Target {
    }

    fn ms_main(
        in payload Payload p,
        out OutputVertices<VsOut, 64> verts,
        out OutputIndices<uint3, 126> tris,
    ) -> void {
    }

    entry hull hs_main [domain("tri")] [partitioning("fractional_odd")] [outputtopology("triangle_cw")] [outputcontrolpoints(3)] [patchconstantfunc("patch_constants")] [maxtessfactor(64.0)] -> fn hs_main
    entry compute cs_main [numthreads(8, 8, 1)] -> fn cs_main
    entry geometry gs_main [maxvertexcount(3)] [instance(2)] -> fn gs_main
    entry fragment ps_main [earlydepthstencil] -> fn ps_main
    entry mesh ms_main [numthreads(32, 1, 1)] [outputtopology("triangle")] -> fn ms_main
    "#);
}

fn geometry_and_fragment(m: &mut Module, t: &Tys, vs_out: Handle<Type>) {
    let input = array(m, vs_out, 3);
    let stream = ty(
        m,
        TypeInner::Stream {
            kind: ir::StreamKind::Triangle,
            element: vs_out,
        },
    );
    let mut gs = Func::new("gs_main");
    let triangle = ParamRole::GeometryInput(ir::InputPrimitive::Triangle);
    gs.param_with("v", input, ParamDirection::In, triangle, IoAttrs::default());
    gs.param("stream", stream, ParamDirection::InOut);
    gs.param_with(
        "instance",
        t.uint,
        ParamDirection::In,
        ParamRole::Plain,
        sem("SV_GSInstanceID"),
    );
    let gs = gs.finish(m);
    let attributes = EntryPointAttributes {
        max_vertex_count: Some(3),
        instances: Some(2),
        ..Default::default()
    };
    entry(m, "gs_main", ShaderStage::Geometry, gs, attributes);
    let mut ps = Func::new("ps_main");
    ps.param_with(
        "tint",
        t.float4,
        ParamDirection::In,
        ParamRole::Uniform,
        IoAttrs::default(),
    );
    let mut uv = sem("TEXCOORD2");
    uv.interpolation.sampling = Some(ir::Sampling::Sample);
    uv.explicit_location = Some(1);
    ps.param_with("uv", t.float2, ParamDirection::In, ParamRole::Plain, uv);
    ps.param_with(
        "depth",
        t.float,
        ParamDirection::Out,
        ParamRole::Plain,
        sem("SV_DepthGreaterEqual"),
    );
    ps.param_with(
        "coverage",
        t.uint,
        ParamDirection::InOut,
        ParamRole::Plain,
        sem("SV_Coverage"),
    );
    let mut target = sem("SV_Target");
    target.explicit_location = Some(0);
    ps.result(t.float4, target);
    let ps = ps.finish(m);
    let attributes = EntryPointAttributes {
        early_depth_stencil: true,
        ..Default::default()
    };
    entry(m, "ps_main", ShaderStage::Fragment, ps, attributes);
}

fn mesh(m: &mut Module, t: &Tys, vs_out: Handle<Type>) {
    use ir::MeshOutputKind as Mesh;
    let payload = strukt(
        m,
        "Payload",
        vec![member("count", t.uint, IoAttrs::default())],
    );
    let verts = ty(
        m,
        TypeInner::MeshOutput {
            kind: Mesh::Vertices,
            element: vs_out,
            count: 64,
        },
    );
    let tris = ty(
        m,
        TypeInner::MeshOutput {
            kind: Mesh::Indices,
            element: t.uint3,
            count: 126,
        },
    );
    let mut ms = Func::new("ms_main");
    ms.param_with(
        "p",
        payload,
        ParamDirection::In,
        ParamRole::Payload,
        IoAttrs::default(),
    );
    ms.param("verts", verts, ParamDirection::Out);
    ms.param("tris", tris, ParamDirection::Out);
    let ms = ms.finish(m);
    let attributes = EntryPointAttributes {
        workgroup_size: Some([32, 1, 1]),
        output_topology: Some(ir::OutputTopology::Triangle),
        ..Default::default()
    };
    entry(m, "ms_main", ShaderStage::Mesh, ms, attributes);
}

#[test]
fn whole_module_lists_structs_globals_functions_entry_points() {
    let m = common::vertex_module();
    insta::assert_snapshot!(ir::print::print_module(&m), @r"
    struct VsIn {
        float3 pos : POSITION;
        float2 uv : TEXCOORD;
    }

    struct VsOut {
        float4 pos : SV_Position;
        float2 uv : TEXCOORD;
    }

    struct Params {
        row_major float4x4 mvp;
    }

    global uniform ConstantBuffer<Params> params : register(b0);

    fn scale(in float2 uv, out float2 scaled) -> float {
        scaled = uv * 2.0;
        return 2.0;
    }

    fn main(in VsIn input) -> VsOut {
        var VsOut out;
        out.pos = mul(params.mvp, float4(input.pos, 1.0));
        scale(input.uv, out.uv);
        return out;
    }

    entry vertex main -> fn main
    ");
}

#[test]
fn colliding_names_get_suffixes() {
    let mut m = Module::default();
    let t = tys(&mut m);
    let gx = global(&mut m, "x", t.float, AddressSpace::Private);
    global(&mut m, "x", t.int, AddressSpace::Private);
    for ty in [t.float, t.int] {
        let mut f = Func::new("f");
        f.param("v", ty, ParamDirection::In);
        f.finish(&mut m);
    }
    let mut f = Func::new("main");
    f.param("x", t.float, ParamDirection::In);
    let mut locals = Vec::new();
    for (name, ty) in [("x", t.float), ("t", t.float), ("t", t.float), ("", t.int)] {
        let local = f.local(name, ty);
        f.declare(local, None);
        locals.push(local);
    }
    let (target, value) = (f.e(Expression::Global(gx), t.float), f.p(0));
    f.stmt(Statement::Store { target, value });
    let arg = f.l(locals[2]);
    let call = f.call(Handle::from_index(1), vec![arg], None);
    f.stmt(Statement::Expr(call));
    f.finish(&mut m);
    insta::assert_snapshot!(ir::print::print_module(&m), @r"
    global static float x;
    global static int x#g1;

    fn f(in float v) -> void {
    }

    fn f#1(in int v) -> void {
    }

    fn main(in float x#p0) -> void {
        var float x#0;
        var float t;
        var float t#2;
        var int _#3;
        x = x#p0;
        f#1(t#2);
    }
    ");
}

/// The printer must show what the verifier rejects, never panic on it.
#[test]
fn malformed_module_prints_markers() {
    let mut m = Module::default();
    let t = tys(&mut m);
    let (bad_ty, bad) = (Handle::from_index(99), 9);
    let mut f = Func::new("broken");
    f.local("ghost", t.float);
    f.local("bad", bad_ty);
    let cycle = f.swizzle(Handle::from_index(0), &[0, 7], t.float);
    f.stmt(Statement::Expr(cycle));
    let target = f.e(Expression::Local(Handle::from_index(bad)), t.float);
    let value = f.e(Expression::Global(Handle::from_index(bad)), t.float);
    f.stmt(Statement::Store { target, value });
    let param = f.e(Expression::Param(4), t.float);
    let field = f.member(param, 2, t.float);
    let call = f.call(Handle::from_index(bad), vec![field], Some(bad_ty));
    f.stmt(Statement::Expr(call));
    let untyped = f.func.expressions.append(
        Expression::Convert {
            expr: Handle::from_index(77),
        },
        None,
        ir::Span::UNDEFINED,
    );
    f.stmt(Statement::Return(Some(untyped)));
    f.declare(Handle::from_index(5), None);
    f.finish(&mut m);
    let g = global(&mut m, "g", bad_ty, AddressSpace::Private);
    let param =
        m.global_expressions
            .append(Expression::Param(0), Some(t.float), ir::Span::UNDEFINED);
    m.globals.get_mut(g).init = Some(param);
    let own_handle = Handle::from_index(m.types.len());
    let self_array = ty(
        &mut m,
        TypeInner::Array {
            base: own_handle,
            size: ir::ArraySize::Constant(2),
        },
    );
    assert_eq!(self_array, own_handle);
    global(&mut m, "loop", self_array, AddressSpace::Private);
    let attributes = EntryPointAttributes {
        patch_constant_func: Some(Handle::from_index(8)),
        ..Default::default()
    };
    entry(
        &mut m,
        "main",
        ShaderStage::Hull,
        Handle::from_index(7),
        attributes,
    );
    let text = ir::print::print_module(&m);
    let missing = ir::print::print_function(&m, Handle::from_index(3));
    insta::assert_snapshot!(text + &missing, @r#"
    global static <bad type [99]> g = <param 0 outside a function>;
    global static <cyclic type [15]> loop[2];

    fn broken() -> void {
        // undeclared: var float ghost;
        // undeclared: var <bad type [99]> bad;
        <cycle at expression [0]>.x<bad component 7>;
        <bad local [9]> = <bad global [9]>;
        <bad function [9]>(<bad param 4>.<member 2>);
        return <untyped>(<bad expression [77]>);
        var <bad local [5]>;
    }

    entry hull main [patchconstantfunc("<bad function [8]>")] -> fn <bad function [7]>
    <bad function [3]>
    "#);
}

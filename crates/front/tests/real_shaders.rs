//! Slang features real shaders use, each lowered statically: `constexpr`
//! parameters, type aliases in structs, `is`/`as` on generic types,
//! `ByteAddressBuffer` `Load<T>`/`Store<T>`.

mod common;

use common::{error, ok};
use legalis_ir as ir;

fn function<'m>(module: &'m ir::Module, name: &str) -> Vec<&'m ir::Function> {
    module
        .functions
        .iter()
        .map(|(_, f)| f)
        .filter(|f| f.name == name)
        .collect()
}

// ---- constexpr parameters

const CONSTEXPR: &str = "
RWStructuredBuffer<int> outb;
static const int K = 7;
int add(int a, constexpr int b) { return a + b; }
int twice(int a, constexpr int b) { return add(a, b) + add(a, b * 2); }
[numthreads(1, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    outb[0] = add(int(id.x), 3) + add(int(id.y), 3) + add(1, K) + twice(2, -1);
}
";

#[test]
fn constexpr_calls_are_specialised_per_constant() {
    let module = ok(CONSTEXPR);
    // add(_, 3) once, add(_, 7), and the two `twice` makes: four copies,
    // each with the constant parameter gone.
    let adds = function(&module, "add");
    assert_eq!(adds.len(), 4);
    assert!(adds.iter().all(|f| f.params.len() == 1));
    let twice = function(&module, "twice");
    assert_eq!(twice.len(), 1);
    assert_eq!(twice[0].params.len(), 1);
    // No copy reads a parameter that is gone.
    for f in adds.iter().chain(&twice) {
        assert!(
            f.expressions
                .iter()
                .all(|(_, e)| !matches!(e, ir::Expression::Param(i) if *i >= 1))
        );
    }
}

#[test]
fn constexpr_argument_must_be_constant() {
    error(
        "RWStructuredBuffer<int> outb;
int add(int a, constexpr int b) { return a + b; }
[numthreads(1, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) { outb[0] = add(1, int(id.y)); }",
        "E30012",
        "`constexpr` parameter must be a compile-time constant",
        "int(id.y)",
    );
}

#[test]
fn constexpr_parameter_is_read_only() {
    error(
        "RWStructuredBuffer<int> outb;
int add(int a, constexpr int b) { b += 1; return a + b; }
[numthreads(1, 1, 1)]
void main() { outb[0] = add(1, 2); }",
        "E30007",
        "`constexpr` parameter",
        "b",
    );
}

// ---- type aliases in structs

const ALIASES: &str = "
struct Vec<T, let N : int>
{
    typealias VecT = vector<T, N>;
    typedef T Elem;
    VecT v;
    Elem first() { return v[0]; }
    VecT twice() { VecT r = v * Elem(2); return r; }
    This scaled(T s) { This r; r.v = v * s; return r; }
}
struct Plain
{
    typealias Pair = float2;
    Pair p;
    Pair swap() { return p.yx; }
}
RWStructuredBuffer<float4> outb;
[numthreads(1, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    Vec<float, 3> a;
    a.v = float3(id);
    Vec<float, 3>.VecT t = a.twice();
    Vec<int, 2>::VecT u = int2(1, 2);
    Plain::Pair q = float2(3, 4);
    Plain pl;
    pl.p = q;
    outb[0] = float4(t, a.first()) + float4(a.scaled(2.0).v, float(u.x)) + float4(pl.swap(), 0, 0);
}
";

#[test]
fn struct_aliases_inside_and_outside() {
    let module = ok(ALIASES);
    let vec3 = module
        .types
        .iter()
        .find(|(_, t)| t.name.as_deref() == Some("Vec<float, 3>"))
        .expect("the instance");
    let ir::TypeInner::Struct { members } = &vec3.1.inner else {
        panic!("a struct");
    };
    assert!(matches!(
        module.types[members[0].ty].inner,
        ir::TypeInner::Vector { size: 3, .. }
    ));
    let plain = module
        .types
        .iter()
        .find(|(_, t)| t.name.as_deref() == Some("Plain"))
        .expect("Plain");
    let ir::TypeInner::Struct { members } = &plain.1.inner else {
        panic!("a struct");
    };
    assert!(matches!(
        module.types[members[0].ty].inner,
        ir::TypeInner::Vector { size: 2, .. }
    ));
}

#[test]
fn unknown_struct_alias() {
    error(
        "struct S<T> { typealias V = vector<T, 2>; V v; }
typedef float2 W;
RWStructuredBuffer<float> outb;
[numthreads(1, 1, 1)]
void main() { S<float>.V a = float2(1, 2); S<float>.W b = a; outb[0] = b.x; }",
        "E30002",
        "`S<float>` has no type member `W`",
        "S<float>.W",
    );
}

// ---- ByteAddressBuffer Load<T> / Store<T>

#[test]
fn byte_address_load_and_store_of_a_struct() {
    let module = ok("
struct D { uint a; float2 b; bool c; int d[2]; }
ByteAddressBuffer src;
RWByteAddressBuffer dst;
[numthreads(1, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    D d = src.Load<D>(id.x);
    dst.Store<D>(id.x + 32, d);
}");
    let (_, main) = module
        .functions
        .iter()
        .find(|(_, f)| f.name == "main")
        .expect("main");
    let count = |want: ir::Intrinsic| {
        main.expressions
            .iter()
            .filter(|(_, e)| matches!(e, ir::Expression::Intrinsic { fun, .. } if *fun == want))
            .count()
    };
    // Leaves: a, b (two words), c, d[0], d[1].
    assert_eq!(count(ir::Intrinsic::Load), 4);
    assert_eq!(count(ir::Intrinsic::Load2), 1);
    // Stores: one word each.
    assert_eq!(count(ir::Intrinsic::Store), 6);
}

#[test]
fn byte_address_load_of_16_bit_data_is_an_error() {
    error(
        "struct H { half h; }
ByteAddressBuffer src;
RWStructuredBuffer<float> outb;
[numthreads(1, 1, 1)]
void main() { H h = src.Load<H>(0); outb[0] = h.h; }",
        "E30090",
        "its `half` is not a 32-bit scalar or vector",
        "src.Load<H>(0)",
    );
}

#[test]
fn byte_address_store_on_a_read_only_buffer_is_an_error() {
    error(
        "ByteAddressBuffer src;
[numthreads(1, 1, 1)]
void main() { src.Store<float>(0, 1.0); }",
        "E30010",
        "read-only",
        "Store",
    );
}

// ---- `is`, `as` and `reinterpret<T>`

const TYPE_TESTS: &str = "
interface IShape { float area(); }
struct Circle : IShape { float r; float area() { return 3.0 * r * r; } }
struct Square : IShape { float s; float area() { return s * s; } }
float radiusOr<T : IShape>(T shape, float fallback)
{
    if (T is Circle)
    {
        Circle c = reinterpret<Circle>(shape);
        return c.r;
    }
    if (let sq = shape as Square)
        return sq.s;
    return fallback;
}
bool isSquare<T>(T v) { return v is Square; }
RWStructuredBuffer<float> outb;
[numthreads(1, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    Circle c; c.r = float(id.x);
    Square s; s.s = 2.0;
    outb[0] = radiusOr(c, 1.0) + radiusOr(s, 1.0) + (isSquare(s) ? 1.0 : 0.0);
}
";

#[test]
fn is_and_as_resolve_after_specialisation() {
    let module = ok(TYPE_TESTS);
    let literal_conditions = |name: &str| -> Vec<bool> {
        let f = function(&module, name);
        assert_eq!(f.len(), 1, "{name}");
        f[0].body
            .iter()
            .filter_map(|(s, _)| match s {
                ir::Statement::If { condition, .. } => match f[0].expressions[*condition] {
                    ir::Expression::Literal(ir::Literal::Bool(b)) => Some(b),
                    _ => None,
                },
                _ => None,
            })
            .collect()
    };
    assert_eq!(literal_conditions("radiusOr<Circle>"), vec![true]);
    assert_eq!(literal_conditions("radiusOr<Square>"), vec![false]);
    let square = function(&module, "isSquare<Square>");
    assert!(
        square[0]
            .expressions
            .iter()
            .any(|(_, e)| matches!(e, ir::Expression::Literal(ir::Literal::Bool(true))))
    );
}

#[test]
fn reinterpret_between_types_is_an_error() {
    error(
        "struct A { float x; }
struct B { float y; }
RWStructuredBuffer<float> outb;
[numthreads(1, 1, 1)]
void main() { A a; a.x = 1.0; B b = reinterpret<B>(a); outb[0] = b.y; }",
        "E30091",
        "`reinterpret<B>` of a `A`",
        "reinterpret<B>(a)",
    );
}

#[test]
fn as_on_a_type_is_an_error() {
    error(
        "struct A { float x; }
RWStructuredBuffer<float> outb;
float f<T>() { let o = T as A; return 0.0; }
[numthreads(1, 1, 1)]
void main() { outb[0] = f<A>(); }",
        "E30003",
        "`as` converts a value",
        "T",
    );
}

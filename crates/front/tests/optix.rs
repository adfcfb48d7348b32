//! The OptiX intrinsics beyond DXR and `TRAVERSABLE_TRANSFORM_TYPE`: their
//! signatures, the enum's members, and a shader's own declaration of the
//! enum's name replacing the built-in one.

use legalis_front::{Options, compile};
use legalis_ir as ir;

fn module(src: &str) -> Result<ir::Module, Vec<String>> {
    let out = compile(src, &Options::default());
    let errors: Vec<String> = out
        .diagnostics
        .iter()
        .filter(|d| d.is_error())
        .map(|d| format!("{} {}", d.code_str(), d.message))
        .collect();
    match out.module {
        Some(m) if errors.is_empty() => Ok(m),
        _ => Err(errors),
    }
}

/// The type of each intrinsic call in `main`, printed, by intrinsic name.
fn call_types(m: &ir::Module) -> Vec<(String, String)> {
    let f = m
        .functions
        .iter()
        .find(|(_, f)| f.name == "main")
        .expect("main")
        .1;
    f.expressions
        .iter()
        .filter_map(|(h, e)| match e {
            ir::Expression::Intrinsic { fun, .. } => Some((
                fun.name().to_string(),
                ir::print::type_name(m, f.expressions.ty(h)?),
            )),
            _ => None,
        })
        .collect()
}

#[test]
fn the_optix_intrinsics_have_their_types() {
    let m = module(
        "RWStructuredBuffer<uint> o;
         [shader(\"closesthit\")]
         void main(inout float4 p, in BuiltInTriangleIntersectionAttributes a)
         {
             int c = GetClusterID();
             float4 s = GetSpherePositionAndRadius();
             float2x4 l = GetLssPositionsAndRadii();
             bool b = IsSphereHit() || IsLssHit();
             uint n = GetTransformListSize();
             uint64_t h = GetTransformListHandle(0);
             TRAVERSABLE_TRANSFORM_TYPE t = GetTraversableTransformType(h);
             uint64_t i = GetInstanceTraversable(h, 1);
             uint id = GetTraversableInstanceId(i);
             uint64_t child = GetTraversableChild(i);
             float3x4 w = GetTraversableObjectToWorld(child) + GetTraversableWorldToObject(child);
             o[0] = id + n + t;
         }",
    )
    .unwrap_or_else(|e| panic!("{e:?}"));
    let types = call_types(&m);
    let of = |name: &str| {
        types
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, t)| t.as_str())
            .unwrap_or_else(|| panic!("no call of {name}: {types:?}"))
    };
    assert_eq!(of("GetClusterID"), "int");
    assert_eq!(of("GetSpherePositionAndRadius"), "float4");
    assert_eq!(of("GetLssPositionsAndRadii"), "float2x4");
    assert_eq!(of("IsSphereHit"), "bool");
    assert_eq!(of("IsLssHit"), "bool");
    assert_eq!(of("GetTransformListSize"), "uint");
    assert_eq!(of("GetTransformListHandle"), "uint64_t");
    assert_eq!(of("GetTraversableTransformType"), "uint");
    assert_eq!(of("GetInstanceTraversable"), "uint64_t");
    assert_eq!(of("GetTraversableInstanceId"), "uint");
    assert_eq!(of("GetTraversableChild"), "uint64_t");
    assert_eq!(of("GetTraversableObjectToWorld"), "float3x4");
    assert_eq!(of("GetTraversableWorldToObject"), "float3x4");
}

#[test]
fn the_transform_type_members_are_optix_values() {
    let names = ["NONE", "STATIC", "MATRIX_MOTION", "SRT_MOTION", "INSTANCE"];
    for (value, name) in names.iter().enumerate() {
        let src = format!(
            "static const uint k = uint(TRAVERSABLE_TRANSFORM_TYPE::TRAVERSABLE_TRANSFORM_TYPE_{name});
             static uint f[k + 1];
             [shader(\"compute\")] [numthreads(1, 1, 1)] void main() {{ f[0] = {value}; }}"
        );
        let m = module(&src).unwrap_or_else(|e| panic!("{name}: {e:?}"));
        let f = m.globals.iter().find(|(_, g)| g.name == "f").expect("f").1;
        assert_eq!(
            ir::print::type_name(&m, f.ty),
            format!("uint[{}]", value + 1),
            "{name}"
        );
    }
}

#[test]
fn a_shader_may_declare_the_transform_type_name_itself() {
    let own = "enum TRAVERSABLE_TRANSFORM_TYPE { A = 7 }
               [shader(\"compute\")] [numthreads(1, 1, 1)]
               void main() { TRAVERSABLE_TRANSFORM_TYPE t = TRAVERSABLE_TRANSFORM_TYPE::A; }";
    module(own).unwrap_or_else(|e| panic!("{e:?}"));
    let twice = "enum TRAVERSABLE_TRANSFORM_TYPE { A }
                 struct TRAVERSABLE_TRANSFORM_TYPE { float x; };
                 [shader(\"compute\")] [numthreads(1, 1, 1)] void main() {}";
    let errors = module(twice).expect_err("a second declaration of the name");
    assert!(
        errors.iter().any(|e| e.contains("already defined")),
        "{errors:?}"
    );
}

#[test]
fn a_wrong_argument_count_is_an_error() {
    let src = "[shader(\"closesthit\")]
               void main(inout float4 p, in BuiltInTriangleIntersectionAttributes a)
               { uint64_t h = GetTransformListHandle(); }";
    let errors = module(src).expect_err("no argument");
    assert!(
        errors.iter().any(|e| e.contains("expected 1 argument")),
        "{errors:?}"
    );
}

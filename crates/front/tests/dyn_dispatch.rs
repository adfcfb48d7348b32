//! Values of interface type (dynamic dispatch) in a closed world: a tagged
//! struct with a member per conforming struct, and dispatch functions that
//! switch on the tag (`check/dyn_dispatch.rs`).

mod common;

use legalis_front::{Conformance, Options, compile};
use legalis_ir as ir;

const SHAPES: &str = r#"
    interface IShape { float area(); [mutating] void grow(float by); }
    struct Circle : IShape
    {
        float r;
        float area() { return 3.0 * r * r; }
        [mutating] void grow(float by) { r += by; }
    }
    struct Square : IShape
    {
        float side;
        float area() { return side * side; }
        [mutating] void grow(float by) { side += by; }
    }
    RWStructuredBuffer<float> output;
    [numthreads(1, 1, 1)]
    void main(uint3 id : SV_DispatchThreadID)
    {
        IShape s = Circle(1.0);
        if (id.x == 1)
            s = Square(2.0);
        s.grow(1.0);
        output[id.x] = s.area();
    }
"#;

fn function<'m>(module: &'m ir::Module, name: &str) -> &'m ir::Function {
    module
        .functions
        .iter()
        .map(|(_, f)| f)
        .find(|f| f.name == name)
        .unwrap_or_else(|| panic!("no function `{name}`"))
}

/// The tags of the `switch` in a dispatch function, case by case.
fn case_tags(func: &ir::Function) -> Vec<Vec<ir::SwitchValue>> {
    func.body
        .iter()
        .find_map(|(s, _)| match s {
            ir::Statement::Switch { cases, .. } => {
                Some(cases.iter().map(|c| c.values.clone()).collect())
            }
            _ => None,
        })
        .expect("a switch")
}

#[test]
fn an_interface_value_is_a_tagged_struct() {
    let module = common::ok_with(SHAPES, &Options::default());
    let (_, ty) = module
        .types
        .iter()
        .find(|(_, t)| t.name.as_deref() == Some("IShape"))
        .expect("the interface's value type");
    let ir::TypeInner::Struct { members } = &ty.inner else {
        panic!("not a struct");
    };
    let names: Vec<&str> = members.iter().map(|m| m.name.as_str()).collect();
    assert_eq!(names, ["tag", "as_Circle", "as_Square"]);
    let area = function(&module, "IShape::area");
    assert_eq!(area.params[0].direction, ir::ParamDirection::In);
    assert_eq!(
        case_tags(area),
        [
            vec![ir::SwitchValue::Int(0)],
            vec![ir::SwitchValue::Int(1), ir::SwitchValue::Default]
        ]
    );
    // `[mutating]`: the value is passed `inout` and written back.
    let grow = function(&module, "IShape::grow");
    assert_eq!(grow.params[0].direction, ir::ParamDirection::InOut);
    assert!(grow.result.is_none());
}

#[test]
fn conformance_options_fix_the_tags() {
    let options = Options {
        conformances: vec![Conformance {
            ty: "Square".into(),
            interface: "IShape".into(),
            id: Some(0),
        }],
        ..Default::default()
    };
    let module = common::ok_with(SHAPES, &options);
    let area = function(&module, "IShape::area");
    // Circle takes the lowest free tag, 1; Square's member stays second.
    assert_eq!(
        case_tags(area),
        [
            vec![ir::SwitchValue::Int(1)],
            vec![ir::SwitchValue::Int(0), ir::SwitchValue::Default]
        ]
    );
}

fn errors(src: &str, options: &Options) -> Vec<(String, String)> {
    compile(src, options)
        .diagnostics
        .iter()
        .filter(|d| d.is_error())
        .map(|d| {
            let span = d.primary_span();
            (
                d.code_str(),
                src.get(span.range()).unwrap_or("").to_string(),
            )
        })
        .collect()
}

#[test]
fn a_conformance_option_naming_no_conforming_struct_is_refused() {
    for (ty, interface, id) in [("Triangle", "IShape", 2), ("Square", "IShape", 1)] {
        let mut conformances = vec![Conformance {
            ty: ty.into(),
            interface: interface.into(),
            id: Some(id),
        }];
        if ty == "Square" {
            // Two structs given one tag.
            conformances.push(Conformance {
                ty: "Circle".into(),
                interface: "IShape".into(),
                id: Some(1),
            });
        }
        let options = Options {
            conformances,
            ..Default::default()
        };
        assert_eq!(
            errors(SHAPES, &options),
            [("E30029".to_string(), "IShape".to_string())],
            "{ty}"
        );
    }
}

#[test]
fn a_generic_parameter_stays_static() {
    // `T : IShape` is specialised per argument; no value type is made.
    let src = r#"
        interface IShape { float area(); }
        struct Circle : IShape { float r; float area() { return r * r; } }
        float twice<T : IShape>(T shape) { return 2.0 * shape.area(); }
        RWStructuredBuffer<float> output;
        [numthreads(1, 1, 1)]
        void main() { output[0] = twice(Circle(1.0)); }
    "#;
    let module = common::ok_with(src, &Options::default());
    assert!(
        !module
            .types
            .iter()
            .any(|(_, t)| t.name.as_deref() == Some("IShape"))
    );
    // An interface value as the argument conforms: the specialisation
    // takes the tagged struct and dispatches inside.
    let dynamic = src.replace("twice(Circle(1.0))", "twice((IShape)Circle(1.0))");
    let dynamic = dynamic.replace(
        "void main() {",
        "void main() { IShape s = Circle(2.0); output[1] = twice(s);",
    );
    let module = common::ok_with(&dynamic, &Options::default());
    function(&module, "IShape::area");
}

#[test]
fn member_wise_constructors_fill_fields_in_order() {
    let src = r#"
        struct S { float a; int b = 7; }
        RWStructuredBuffer<float> output;
        [numthreads(1, 1, 1)]
        void main() { S one = S(1.0); S two = S(2.0, 3); S three = S(); output[0] = one.a + float(two.b + three.b); }
    "#;
    common::ok_with(src, &Options::default());
    let bad = r#"
        struct S { float a; int b; }
        RWStructuredBuffer<float> output;
        [numthreads(1, 1, 1)]
        void main() { S one = S(1.0); output[0] = one.a; }
    "#;
    assert_eq!(errors(bad, &Options::default())[0].0, "E30003");
}

#[test]
fn an_optional_interface_value_is_built_by_its_constructor() {
    let src = SHAPES.replace(
        "output[id.x] = s.area();",
        "Optional<IShape> maybe = Optional<IShape>(Circle(3.0)); \
         if (let m = maybe) output[id.x] = m.area(); else output[id.x] = s.area();",
    );
    common::ok_with(&src, &Options::default());
}

#[test]
fn an_interface_value_is_no_varying() {
    let src = r#"
        interface IShape { float area(); }
        struct Circle : IShape { float r; float area() { return r * r; } }
        struct VOut { float4 pos : SV_Position; IShape shape : TEXCOORD0; }
        [shader("vertex")]
        VOut vs(float3 p : POSITION) { VOut o; o.pos = float4(p, 1.0); o.shape = Circle(1.0); return o; }
    "#;
    assert_eq!(
        errors(src, &Options::default()),
        [("E31009".to_string(), "shape".to_string())]
    );
}

#[test]
fn is_and_as_on_an_interface_value_read_the_tag() {
    let src = SHAPES.replace(
        "output[id.x] = s.area();",
        "float r = 0.0; if (s is Square) r += 1.0; if (let c = s as Circle) r += c.r; \
         output[id.x] = r;",
    );
    let module = common::ok_with(&src, &Options::default());
    // The tests compare the tag: nothing is decided statically.
    let main = function(&module, "main");
    let compares_tag = main.expressions.iter().any(|(_, e)| {
        matches!(e, ir::Expression::Binary { op: ir::BinaryOp::Equal, left, .. }
            if matches!(main.expressions[*left], ir::Expression::Member { index: 0, .. }))
    });
    assert!(compares_tag);
}

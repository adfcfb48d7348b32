//! Slang pointer types (`T*`): what the checker accepts, and the coded
//! refusals (E30050) with their spans.

mod common;

use common::ok;
use legalis_front::{Options, compile};
use legalis_ir as ir;

/// The one error of `src`: its code, and the source text its span covers.
fn error(src: &str) -> (String, String, String) {
    let out = compile(src, &Options::default());
    let errors: Vec<_> = out.diagnostics.iter().filter(|d| d.is_error()).collect();
    assert_eq!(errors.len(), 1, "expected one error: {errors:#?}");
    let d = errors[0];
    let span = d.labels.first().map(|l| l.span).expect("a span");
    let text = src[span.start as usize..span.end as usize].to_string();
    (d.code_str(), d.message.clone(), text)
}

const KERNEL: &str = "[shader(\"compute\")] [numthreads(1, 1, 1)]\n";

#[test]
fn pointers_are_read_and_written_through() {
    let src = format!(
        "struct S {{ uint a; float b[4]; }}\n\
         uniform void* table[4];\n\
         {KERNEL}void main(S* s, uint* dst, uint3 id : SV_DispatchThreadID) {{\n\
             S* t = (S*)table[1];\n\
             uint64_t address = (uint64_t)t;\n\
             dst[id.x] = s->a + s.a + (*s).a + ((S*)address)->a;\n\
             s[1].b[2] = t.b[id.y];\n\
         }}\n"
    );
    let module = ok(&src);
    let main = &module.entry_points[0];
    let f = &module.functions[main.function];
    // The pointer parameters are uniform by nature; the id is not.
    let roles: Vec<_> = f.params.iter().map(|p| p.role).collect();
    assert_eq!(
        roles,
        [
            ir::ParamRole::Uniform,
            ir::ParamRole::Uniform,
            ir::ParamRole::Plain
        ]
    );
    let derefs = (f.expressions.iter())
        .filter(|(_, e)| matches!(e, ir::Expression::Deref { .. }))
        .count();
    assert_eq!(derefs, 7);
}

#[test]
fn pointer_refusals_are_coded() {
    let cases = [
        (
            "RWStructuredBuffer<uint>* p;",
            "a pointer to",
            "RWStructuredBuffer<uint>*",
        ),
        (
            "uniform void* p; uint f() { return *p; }",
            "`void*` cannot be dereferenced",
            "*p",
        ),
        ("uint f(uint x) { return *x; }", "need a pointer", "*x"),
        (
            "uniform uint* p; float f() { return (float)p; }",
            "cannot cast",
            "(float)p",
        ),
    ];
    for (src, message, text) in cases {
        let (code, got, span) = error(src);
        assert_eq!(code, "E30050", "{src}: {got}");
        assert!(got.contains(message), "{src}: {got}");
        assert_eq!(span, text, "{src}");
    }
}

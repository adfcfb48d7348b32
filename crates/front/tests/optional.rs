//! Slang's `Optional<T>`, `none`, `Conditional<T, c>` and `if (let ...)`:
//! what is known statically is resolved by the checker, the rest reads
//! `hasValue`; a left-out conditional leaves nothing behind.

mod common;

use common::{error, ok};
use legalis_ir as ir;

fn function<'m>(m: &'m ir::Module, name: &str) -> &'m ir::Function {
    m.functions
        .iter()
        .map(|(_, f)| f)
        .find(|f| f.name == name)
        .unwrap_or_else(|| panic!("no function {name}"))
}

fn param_names(f: &ir::Function) -> Vec<&str> {
    f.params.iter().map(|p| p.name.as_str()).collect()
}

/// Every `If` statement anywhere in `block`.
fn count_ifs(block: &ir::Block) -> usize {
    block
        .stmts
        .iter()
        .map(|s| match s {
            ir::Statement::If { accept, reject, .. } => 1 + count_ifs(accept) + count_ifs(reject),
            ir::Statement::Block(b) => count_ifs(b),
            _ => 0,
        })
        .sum()
}

const VS: &str = "struct In { float4 p : POSITION; } struct Out { float4 p : SV_Position; }";

#[test]
fn a_false_conditional_parameter_is_not_a_parameter() {
    let m = ok(&format!(
        "{VS}
         [shader(\"vertex\")]
         Out main(Conditional<In, true> a, Conditional<In, false> b, Conditional<float3, false> c : COLOR0,
                  Conditional<float3, 1 == 1> d : COLOR1) {{
             Out o; o.p = float4(0, 0, 0, 1);
             if (let x = a.get()) o.p = x.p;
             if (let y = b.get()) o.p += y.p; else o.p.w = 2;
             if (let z = c.get()) o.p.xyz += z;
             if (let w = d.get()) o.p.xyz += w;
             return o;
         }}"
    ));
    let f = function(&m, "main");
    assert_eq!(param_names(f), ["a", "d"]);
    // Both kinds of `if (let ...)` are known: no branch is left.
    assert_eq!(count_ifs(&f.body), 0);
}

#[test]
fn a_false_conditional_result_makes_the_function_void() {
    let m = ok(&format!(
        "{VS}
         [shader(\"vertex\")] Conditional<Out, false> gone(In i) {{ Out o; o.p = i.p; return o; }}
         [shader(\"vertex\")] Conditional<Out, true> kept(In i) {{ Out o; o.p = i.p; return o; }}"
    ));
    assert!(function(&m, "gone").result.is_none());
    assert!(function(&m, "kept").result.is_some());
}

#[test]
fn link_time_constants_decide_conditionals() {
    let m = ok(&format!(
        "{VS}
         extern static const bool withInput = false;
         [shader(\"vertex\")]
         Out main(Conditional<In, withInput> i) {{
             Out o; o.p = 0;
             if (let v = i.get()) o.p = v.p;
             return o;
         }}"
    ));
    assert!(function(&m, "main").params.is_empty());
    error(
        "extern static const bool on;
         [shader(\"compute\")][numthreads(1,1,1)] void main() { }",
        "E30025",
        "needs an initializer",
        "on",
    );
}

#[test]
fn conditional_locals_and_fields_get_and_set() {
    let m = ok(
        "struct S { Conditional<float3, true> a; Conditional<float3, false> b; float k; }
         [shader(\"compute\")][numthreads(1,1,1)]
         void main() {
             S s; s.k = 1;
             s.a.set(float3(1, 2, 3));
             s.b.set(float3(4, 5, 6));
             s.b = float3(0, 0, 0);
             Conditional<int, false> gone = 3;
             Conditional<int, true> here;
             here.set(4);
             gone = here;
             Optional<float3> o = s.b.get();
             Optional<float3> p = s.a;
             Optional<int> q = gone;
             if (let v = here.get()) s.k += v;
         }",
    );
    let names: Vec<Vec<&str>> = m
        .types
        .iter()
        .filter_map(|(_, t)| match (&t.inner, t.name.as_deref()) {
            (ir::TypeInner::Struct { members }, Some(n))
                if n == "S" || n.starts_with("Optional") =>
            {
                Some(members.iter().map(|m| m.name.as_str()).collect())
            }
            _ => None,
        })
        .collect();
    assert!(names.contains(&vec!["a", "k"]), "{names:?}");
    assert!(names.contains(&vec!["value", "hasValue"]), "{names:?}");
}

#[test]
fn optionals_convert_compare_and_branch_at_run_time() {
    let m = ok("struct P { int v; }
         int use(Optional<P> p) { if (p == none) return 0; return p.value.v; }
         Optional<int> maybe(int x) { if (x > 0) return x; return none; }
         RWStructuredBuffer<int> buf;
         [shader(\"compute\")][numthreads(1,1,1)]
         void main(uint3 id : SV_DispatchThreadID) {
             P p; p.v = 2;
             int r = use(p) + use(none);
             if (let m = maybe(int(id.x))) r += m; else r -= 1;
             Optional<int> o = maybe(3);
             if (o != none && o.hasValue) r += o.value;
             buf[0] = r;
         }");
    // The `if (let ...)` on a call's result is decided when it runs.
    assert!(count_ifs(&function(&m, "main").body) >= 2);
}

#[test]
fn parse_and_lower_if_let_in_a_loop() {
    ok(
        "Optional<float> f(int i) { if (i == 0) return none; return float(i); }
        [shader(\"compute\")][numthreads(1,1,1)]
        void main() {
            float t = 0;
            for (int i = 0; i < 4; i++)
                if (let v = f(i))
                    t += v;
                else
                    continue;
        }",
    );
}

#[test]
fn misuse_is_reported() {
    error(
        "[shader(\"compute\")][numthreads(1,1,1)] void main() { float x = 1; if (let y = x) { } }",
        "E30071",
        "needs an `Optional<T>`",
        "x",
    );
    error(
        "[shader(\"compute\")][numthreads(1,1,1)] void main() { let n = none; }",
        "E30071",
        "`none` has no type",
        "none",
    );
    error(
        "typedef Conditional<float, false> Nothing;
         [shader(\"compute\")][numthreads(1,1,1)] void main() { }",
        "E30070",
        "only allowed as the type of a field",
        "Conditional<float, false>",
    );
    error(
        "[shader(\"compute\")][numthreads(1,1,1)] void main() { Conditional<float, true> c; float v = c.set(1); }",
        "E30071",
        "call it as a statement",
        "set",
    );
    error(
        "[shader(\"compute\")][numthreads(1,1,1)] void main() { Optional<float, int> o; }",
        "E30017",
        "`Optional` takes 1 generic argument",
        "Optional<float, int>",
    );
    error(
        "[shader(\"compute\")][numthreads(1,1,1)] void main() { float f = none; }",
        "E30003",
        "none",
        "none",
    );
}

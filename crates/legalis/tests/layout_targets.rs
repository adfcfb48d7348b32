//! Buffer layouts per target: what the writers store as the host lays it
//! out (CUDA column-major matrices, checked by nvcc and a host program),
//! and what they cannot express yet, refused with a code and a span, never
//! written with a layout the host does not expect.

use legalis_ir as ir;

/// The codes and spanned text of `source` compiled for `target`.
fn refusals(source: &str, target: legalis::Target) -> Vec<(u32, String)> {
    let request = legalis::Request::builder("layout.slang", source)
        .entry("main")
        .stage(ir::ShaderStage::Compute)
        .target(target)
        .build();
    let compiled = legalis::compile(&request);
    compiled
        .diagnostics
        .iter()
        .filter(|d| d.is_error())
        .map(|d| {
            let span = d.labels.first().expect("a span").span;
            (
                d.code,
                source[span.start as usize..span.end as usize].to_string(),
            )
        })
        .collect()
}

#[test]
fn wgsl_store_into_part_of_a_padded_uniform_matrix_is_refused() {
    let source = "struct Frame { float2x3 m23; float scale; };
cbuffer Params { Frame frame; };
RWStructuredBuffer<float> result;
[numthreads(1, 1, 1)]
void main()
{
    Frame f = frame;
    f.m23[1] = float3(1.0, 2.0, 3.0);
    result[0] = f.m23[1].y;
}
";
    assert_eq!(
        refusals(source, legalis::Target::Wgsl),
        [(56201, "f.m23[1]".to_string())]
    );
}

#[test]
fn metal_structured_buffer_whose_native_layout_differs_is_refused() {
    // `float2 b` sits at 4 in the packed device layout, at 8 natively.
    let source = "struct Element { float a; float2 b; float3 c; };
RWStructuredBuffer<Element> elements;
[numthreads(1, 1, 1)]
void main() { elements[1] = elements[0]; }
";
    assert_eq!(
        refusals(source, legalis::Target::Metal),
        [(47001, "b".to_string())]
    );
    // A `float3` element: 12 bytes apart packed, 16 natively.
    let source = "RWStructuredBuffer<float3> v;
[numthreads(1, 1, 1)]
void main() { v[1] = v[0]; }
";
    assert_eq!(refusals(source, legalis::Target::Metal)[0].0, 47001);
    // Laid out alike by both rules: written.
    let source = "struct Element { float2 b; float a; float d; float4 c; };
RWStructuredBuffer<Element> elements;
[numthreads(1, 1, 1)]
void main() { elements[1] = elements[0]; }
";
    assert_eq!(refusals(source, legalis::Target::Metal), []);
}

/// The CUDA text of `source` (a compute shader), which must compile.
fn cuda_output(source: &str) -> String {
    let request = legalis::Request::builder("layout.slang", source)
        .entry("main")
        .stage(ir::ShaderStage::Compute)
        .target(legalis::Target::Cuda)
        .build();
    let compiled = legalis::compile(&request);
    let output = compiled.output.unwrap_or_else(|| {
        panic!("no CUDA output: {:?}", compiled.diagnostics);
    });
    String::from_utf8(output.bytes).expect("CUDA text")
}

const COLUMN_MAJOR: &str =
    "cbuffer Params { row_major float2x3 rows; float2x3 columns; float4 v; float3x3 arr[2]; };
struct E { float3x3 m; float k; };
RWStructuredBuffer<E> es;
RWStructuredBuffer<float> result;
[numthreads(1, 1, 1)]
void main()
{
    result[0] = rows[1].z + columns[1].x + v.y + arr[1][2].y;
    E e = es[0];
    e.m[1][2] = 5.0;
    es[1] = e;
    es[2].m[0].yz = float2(1, 2);
    es[2].m[2][1] = 3.0;
    es[3].m = mul(es[0].m, es[1].m);
    result[1] = es[2].m[1][1];
}
";

#[test]
fn cuda_column_major_buffer_matrices_are_stored_in_column_order() {
    let text = cuda_output(COLUMN_MAJOR);
    for wanted in [
        "    lg::float2x3 rows;",
        "    lg::column_major<lg::float2x3> columns;",
        "    lg::array<lg::column_major<lg::float3x3>, 2> arr;",
        "    lg::column_major<lg::float3x3> m;",
        "static_assert(offsetof(Params, columns) == 24, \"Params.columns\");",
        "static_assert(offsetof(E, k) == 36, \"E.k\");",
        // Whole reads through `rows`, whole stores through `columns`,
        // element and row writes in place.
        "lg::rows(Params_1.columns)[1].x",
        "lg::rows(Params_1.arr[1])[2].y",
        "e.m[1][2] = 5.0f;",
        "lg::swizzle_ref<1, 2>(es[2].m[0]) = lg::float2(1.0f, 2.0f);",
        "es[3].m = lg::columns(lg::mul(lg::rows(es[0].m), lg::rows(es[1].m)));",
        "result[1] = lg::rows(es[2].m)[1][1];",
    ] {
        assert!(text.contains(wanted), "missing `{wanted}` in:\n{text}");
    }
    legalis_validate::cuda::validate_cuda(
        &text,
        &[(
            legalis_emit::cuda::PRELUDE_NAME,
            legalis_emit::cuda::PRELUDE,
        )],
    )
    .unwrap_or_else(|e| panic!("{e}\n{text}"));
}

/// The structs the host shares, compiled by nvcc into a host program that
/// writes a column-major matrix's bytes where legalis-layout places them
/// and reads it back through the prelude, then writes one element through
/// a row and finds it at its column-major byte offset.
#[test]
fn cuda_column_major_matrices_hold_the_hosts_bytes() {
    let text = cuda_output(COLUMN_MAJOR);
    let shared = &text[..text.find("__device__ void").expect("a device function")];
    let program = format!(
        "{shared}
#include <cstdio>
#include <cstring>
// Only host code runs: the registration nvcc's host stub calls does nothing.
extern \"C\" void** __cudaRegisterFatBinary(void*) {{ static void* handle; return &handle; }}
extern \"C\" void __cudaRegisterFatBinaryEnd(void**) {{}}
extern \"C\" void __cudaUnregisterFatBinary(void**) {{}}
int main()
{{
    Params p = {{}};
    const float columns[6] = {{1, 2, 3, 4, 5, 6}}; // three columns of two
    std::memcpy(reinterpret_cast<unsigned char*>(&p) + 24, columns, sizeof columns);
    lg::float2x3 m = lg::rows(p.columns);
    const float want[2][3] = {{{{1, 3, 5}}, {{2, 4, 6}}}};
    for (int r = 0; r < 2; ++r)
        for (int c = 0; c < 3; ++c)
            if (m[r][c] != want[r][c]) {{ std::printf(\"m[%d][%d] = %g\\n\", r, c, m[r][c]); return 1; }}
    E e = {{}};
    e.m[1][2] = 5.0f; // row 1, column 2: the third column's second float
    float stored[9];
    std::memcpy(stored, &e, sizeof stored);
    for (int i = 0; i < 9; ++i)
        if (stored[i] != (i == 2 * 3 + 1 ? 5.0f : 0.0f)) {{ std::printf(\"float %d = %g\\n\", i, stored[i]); return 1; }}
    lg::column_major<lg::float3x3> back = lg::columns(lg::rows(e.m));
    if (std::memcmp(&back, &e.m, sizeof back) != 0) {{ std::puts(\"round trip\"); return 1; }}
    std::puts(\"ok\");
    return 0;
}}
"
    );
    let toolchain = legalis_validate::cuda::Toolchain::find().expect("the CUDA toolchain");
    let dir = std::env::temp_dir().join(format!("legalis-column-major-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join(legalis_emit::cuda::PRELUDE_NAME),
        legalis_emit::cuda::PRELUDE,
    )
    .unwrap();
    std::fs::write(dir.join("host.cu"), &program).unwrap();
    let built = std::process::Command::new(&toolchain.nvcc)
        .current_dir(&dir)
        .args(["-std=c++17", "-cudart", "none", "-I", "."])
        .arg("-I")
        .arg(&toolchain.optix_include)
        .args(["host.cu", "-o", "host"])
        .output()
        .expect("nvcc runs");
    assert!(
        built.status.success(),
        "nvcc:\n{}{}\n{program}",
        String::from_utf8_lossy(&built.stdout),
        String::from_utf8_lossy(&built.stderr)
    );
    let ran = std::process::Command::new(dir.join("host"))
        .output()
        .expect("the host program runs");
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(String::from_utf8_lossy(&ran.stdout), "ok\n");
    assert!(ran.status.success());
}

#[test]
fn cuda_references_into_column_major_matrices_are_refused() {
    // C++ binds no plain reference to a matrix stored in columns, or to a
    // row of one.
    let source = "struct E { float3x3 m; };
RWStructuredBuffer<E> es;
void bump(inout float3 row) { row += 1.0; }
[numthreads(1, 1, 1)]
void main() { bump(es[0].m[1]); }
";
    assert_eq!(
        refusals(source, legalis::Target::Cuda),
        [(47002, "es[0].m[1]".to_string())]
    );
    let source = "struct E { float3x3 m; };
RWStructuredBuffer<E> es;
[numthreads(1, 1, 1)]
void main() { es[0].m[1]++; }
";
    assert_eq!(
        refusals(source, legalis::Target::Cuda),
        [(47002, "es[0].m[1]".to_string())]
    );
    // One element is a plain `float&`: incremented in place.
    let source = "struct E { float3x3 m; };
RWStructuredBuffer<E> es;
[numthreads(1, 1, 1)]
void main() { es[0].m[1][2]++; es[0].m[2] += 1.0; }
";
    let text = cuda_output(source);
    assert!(text.contains("(es[0].m[1][2]++);"), "{text}");
    assert!(
        text.contains("es[0].m[2] = (lg::rows(es[0].m)[2] + lg::float3(1.0f));"),
        "{text}"
    );
    legalis_validate::cuda::validate_cuda(
        &text,
        &[(
            legalis_emit::cuda::PRELUDE_NAME,
            legalis_emit::cuda::PRELUDE,
        )],
    )
    .unwrap_or_else(|e| panic!("{e}\n{text}"));
    // Row-major matrices, and vectors as matrices of one row, stay `lg::mat`.
    let source = "cbuffer Params { row_major float2x3 rows; float1x4 one; };
RWStructuredBuffer<float> result;
[numthreads(1, 1, 1)]
void main() { result[0] = rows[1].z + one[0].w; }
";
    assert_eq!(refusals(source, legalis::Target::Cuda), []);
    assert!(!cuda_output(source).contains("column_major"));
}

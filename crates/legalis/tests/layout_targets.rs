//! Buffer layouts the writers cannot express yet are refused with a code
//! and a span, never written with a layout the host does not expect.

use legalis_ir as ir;

/// The codes and spanned text of `source` compiled for `target`.
fn refusals(source: &str, target: legalis::Target) -> Vec<(u32, String)> {
    let request = legalis::Request {
        path: "layout.slang".into(),
        source: source.as_bytes().to_vec(),
        entry: Some("main".into()),
        stage: Some(ir::ShaderStage::Compute),
        target: Some(target),
        ..Default::default()
    };
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

#[test]
fn cuda_column_major_matrix_in_a_buffer_is_refused() {
    let source = "cbuffer Params { row_major float2x3 rows; float2x3 columns; float4 v; };
RWStructuredBuffer<float> result;
[numthreads(1, 1, 1)]
void main() { result[0] = rows[1].z + columns[1].x + v.y; }
";
    assert_eq!(
        refusals(source, legalis::Target::Cuda),
        [(47002, "columns".to_string())]
    );
    let source = "RWStructuredBuffer<float3x3> ms;
[numthreads(1, 1, 1)]
void main() { ms[1] = ms[0]; }
";
    assert_eq!(
        refusals(source, legalis::Target::Cuda),
        [(47002, "ms".to_string())]
    );
    // Row-major matrices, and vectors as matrices of one row, are written.
    let source = "cbuffer Params { row_major float2x3 rows; float1x4 one; };
RWStructuredBuffer<float> result;
[numthreads(1, 1, 1)]
void main() { result[0] = rows[1].z + one[0].w; }
";
    assert_eq!(refusals(source, legalis::Target::Cuda), []);
}

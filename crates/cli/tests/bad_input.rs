//! The bad-input catalogue: every kind of broken input a user can give the
//! command line, each with the exact message it must produce, a non-zero
//! exit status, and no output file left behind (every case asks for
//! `-o out.glsl`, and the folder must hold only the inputs afterwards).
//!
//! The harness's own bad inputs (malformed `//TEST` directives, a corrupt
//! snapshot file) are in `crates/testkit/tests/runner.rs`.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

/// One catalogue entry.
struct Case {
    name: &'static str,
    files: Vec<(&'static str, Vec<u8>)>,
    args: Vec<&'static str>,
    code: i32,
    /// The first line of standard error, exactly.
    first_line: String,
    /// The ` --> file:line:col` line, exactly, when the message has a span.
    location: Option<&'static str>,
}

const VERTEX: &str = "[shader(\"vertex\")]\nfloat4 main() : SV_Position\n{\n";

fn vertex_with(body: &str) -> Vec<u8> {
    format!("{VERTEX}{body}\n}}\n").into_bytes()
}

fn catalogue() -> Vec<Case> {
    let two_entries = b"[shader(\"vertex\")]\nfloat4 vs() : SV_Position { return 0; }\n\
[shader(\"pixel\")]\nfloat4 fs() : SV_Target { return 1; }\n"
        .to_vec();
    let deep_parens = format!(
        "    float x = {}1.0{};\n    return float4(x, 0, 0, 1);",
        "(".repeat(10_000),
        ")".repeat(10_000)
    );
    let deep_blocks = format!(
        "{}{}\n    return float4(0, 0, 0, 1);",
        "{".repeat(10_000),
        "}".repeat(10_000)
    );
    let long_chain = format!(
        "    float x = 1.0{};\n    return float4(x, 0, 0, 1);",
        " + 1.0".repeat(10_000)
    );
    let glsl = |file: &'static str| vec![file, "-target", "glsl", "-o", "out.glsl"];
    // S1 is one struct deep, S(n) holds S(n-1): a local of S256 nests past
    // SPIR-V's 255.
    let mut deep_structs = String::from("struct S1 { float v; };\n");
    for i in 2..=256 {
        deep_structs.push_str(&format!("struct S{i} {{ S{} inner; float w; }};\n", i - 1));
    }
    deep_structs.push_str(
        "RWStructuredBuffer<float> o;\n[shader(\"compute\")] [numthreads(1, 1, 1)]\n\
void main() { S256 s; s.w = 1.0; o[0] = s.w; }\n",
    );
    // A struct of 16384 members and a function of 256 parameters, one
    // past SPIR-V's limits.
    let members: String = (0..16384).map(|i| format!("float m{i}; ")).collect();
    let wide_struct = format!(
        "struct W {{ {members}}};\nRWStructuredBuffer<W> w;\n[shader(\"compute\")] [numthreads(1, 1, 1)]\n\
void main(uint3 id : SV_DispatchThreadID) {{ W v = w[id.y]; w[id.x] = v; }}\n"
    );
    let params: Vec<String> = (0..256).map(|i| format!("float a{i}")).collect();
    let many_params = format!(
        "float f({}) {{ return a0; }}\nRWStructuredBuffer<float> o;\n[shader(\"compute\")] [numthreads(1, 1, 1)]\n\
void main() {{ o[0] = f({}); }}\n",
        params.join(", "),
        vec!["o[1]"; 256].join(", ")
    );
    vec![
        Case {
            name: "truncated file",
            files: vec![(
                "f.slang",
                format!("{VERTEX}    return float4(").into_bytes(),
            )],
            args: glsl("f.slang"),
            code: 1,
            first_line: "error[E20001]: expected expression, found end of file".into(),
            location: Some("  --> f.slang:4:19"),
        },
        Case {
            name: "invalid UTF-8",
            files: vec![("f.slang", b"int a;\nx \xC3\x28 y;\n".to_vec())],
            args: glsl("f.slang"),
            code: 1,
            first_line: "error[E00002]: file is not valid UTF-8".into(),
            location: Some("  --> f.slang:2:3"),
        },
        Case {
            name: "huge integer literal",
            files: vec![(
                "f.slang",
                vertex_with("    int x = 99999999999999999999999;\n    return float4(x, 0, 0, 1);"),
            )],
            args: glsl("f.slang"),
            code: 1,
            first_line:
                "error[E10004]: integer literal `99999999999999999999999` does not fit in 64 bits"
                    .into(),
            location: Some("  --> f.slang:4:13"),
        },
        Case {
            name: "10 000 nested parentheses",
            files: vec![("f.slang", vertex_with(&deep_parens))],
            args: glsl("f.slang"),
            code: 1,
            first_line: "error[E20002]: nesting is deeper than 128 levels".into(),
            location: Some("  --> f.slang:4:142"),
        },
        Case {
            name: "10 000 nested blocks",
            files: vec![("f.slang", vertex_with(&deep_blocks))],
            args: glsl("f.slang"),
            code: 1,
            first_line: "error[E20002]: nesting is deeper than 128 levels".into(),
            location: Some("  --> f.slang:4:129"),
        },
        Case {
            name: "a 10 000-term expression",
            files: vec![("f.slang", vertex_with(&long_chain))],
            args: glsl("f.slang"),
            code: 1,
            first_line: "error[E20002]: expression is deeper than 1024 nested operations".into(),
            location: Some("  --> f.slang:4:6163"),
        },
        Case {
            name: "duplicate semantics",
            files: vec![(
                "f.slang",
                b"struct POut { float4 a : SV_Target0; float4 b : SV_Target0; };\n\
[shader(\"pixel\")]\nPOut main() { POut o; o.a = 0; o.b = 1; return o; }\n"
                    .to_vec(),
            )],
            args: glsl("f.slang"),
            code: 1,
            first_line:
                "error[E31014]: `return.a` and `return.b` both write render target 0 (`SV_Target`)"
                    .into(),
            location: Some("  --> f.slang:1:45"),
        },
        Case {
            name: "conflicting explicit locations",
            files: vec![(
                "f.slang",
                b"struct VOut { float4 pos : SV_Position; [[vk::location(1)]] float4 a : TEXCOORD0; \
[[vk::location(1)]] float4 b : TEXCOORD1; };\n[shader(\"vertex\")]\n\
VOut main() { VOut o; o.pos = 0; o.a = 1; o.b = 2; return o; }\n"
                    .to_vec(),
            )],
            args: glsl("f.slang"),
            code: 1,
            first_line: "error[E49993]: `return.a` and `return.b` both use location 1".into(),
            location: Some("  --> f.slang:1:110"),
        },
        Case {
            name: "missing entry point",
            files: vec![("f.slang", two_entries.clone())],
            args: vec![
                "f.slang", "-target", "glsl", "-entry", "nothere", "-o", "out.glsl",
            ],
            code: 1,
            first_line:
                "error[E31002]: entry point `nothere` not found: no function of that name is defined"
                    .into(),
            location: None,
        },
        Case {
            name: "ambiguous entry point",
            files: vec![("f.slang", two_entries.clone())],
            args: glsl("f.slang"),
            code: 1,
            first_line: "error[E00004]: the file has 2 entry points (vs, fs); GLSL code holds one \
                         entry point: choose one with -entry"
                .into(),
            location: None,
        },
        Case {
            // Several OptiX programs share one CUDA output; a kernel does
            // not join them.
            name: "a CUDA kernel beside an OptiX program",
            files: vec![(
                "f.slang",
                b"[shader(\"compute\")] [numthreads(1, 1, 1)]\nvoid cs() {}\n\
[shader(\"raygeneration\")]\nvoid rg() {}\n"
                    .to_vec(),
            )],
            args: vec!["f.slang", "-target", "cuda", "-o", "out.cu"],
            code: 1,
            first_line: "error[E00004]: the file has 2 entry points (cs, rg); one CUDA output \
                         holds several entry points only when all are OptiX programs: choose one \
                         with -entry"
                .into(),
            location: None,
        },
        Case {
            name: "entry point of the wrong stage",
            files: vec![("f.slang", two_entries.clone())],
            args: vec![
                "f.slang", "-target", "glsl", "-entry", "vs", "-stage", "fragment", "-o",
                "out.glsl",
            ],
            code: 1,
            first_line:
                "error[E31004]: `-stage fragment` disagrees with the `[shader(\"vertex\")]` attribute of `vs`"
                    .into(),
            location: Some("  --> f.slang:1:9"),
        },
        Case {
            name: "unknown target",
            files: vec![("f.slang", two_entries.clone())],
            args: vec!["f.slang", "-target", "foo", "-entry", "vs", "-o", "out.glsl"],
            code: 2,
            first_line: "legalis: error: unknown target 'foo'; targets: glsl spirv spirv-asm metal \
wgsl wgsl-spirv-asm cuda"
                .into(),
            location: None,
        },
        Case {
            name: "an option without its value",
            files: vec![("f.slang", two_entries.clone())],
            args: vec!["f.slang", "-target", "glsl", "-o", "out.glsl", "-entry"],
            code: 2,
            first_line: "legalis: error: -entry needs a value".into(),
            location: None,
        },
        Case {
            name: "unknown option",
            files: vec![("f.slang", two_entries.clone())],
            args: vec!["f.slang", "-bogus", "-o", "out.glsl"],
            code: 2,
            first_line: "legalis: error: unknown option -bogus".into(),
            location: None,
        },
        Case {
            name: "missing input file",
            files: vec![],
            args: glsl("missing.slang"),
            code: 1,
            first_line:
                "error[E00001]: cannot read missing.slang: No such file or directory (os error 2)"
                    .into(),
            location: None,
        },
        Case {
            name: "unreadable input (a folder)",
            files: vec![("sub/f.slang", two_entries.clone())],
            args: glsl("sub"),
            code: 1,
            first_line: "error[E00001]: cannot read sub: Is a directory (os error 21)".into(),
            location: None,
        },
        Case {
            name: "unwritable -o",
            files: vec![("f.slang", two_entries)],
            args: vec![
                "f.slang",
                "-target",
                "glsl",
                "-entry",
                "vs",
                "-o",
                "nofolder/out.glsl",
            ],
            code: 1,
            first_line:
                "error[E00003]: cannot write nofolder/out.glsl: No such file or directory (os error 2)"
                    .into(),
            location: None,
        },
        Case {
            name: "numthreads past HLSL's group limits",
            files: vec![(
                "f.slang",
                b"RWStructuredBuffer<uint> o;\n[shader(\"compute\")]\n\
[numthreads(4294967295, 4294967295, 1)]\nvoid main(uint3 id : SV_DispatchThreadID) { o[id.x] = 1; }\n"
                    .to_vec(),
            )],
            args: vec!["f.slang", "-target", "wgsl", "-o", "out.wgsl"],
            code: 1,
            first_line:
                "error[E31018]: `numthreads` x extent 4294967295 is past the 1024 HLSL allows a compute shader"
                    .into(),
            location: Some("  --> f.slang:3:2"),
        },
        Case {
            name: "structs nested past SPIR-V's limit",
            files: vec![("f.slang", deep_structs.into_bytes())],
            args: vec!["f.slang", "-target", "spirv", "-o", "out.spv"],
            code: 1,
            first_line:
                "error[E49107]: `S256` nests structs 256 deep: GLSL and SPIR-V take 255".into(),
            location: Some("    --> f.slang:259:20"),
        },
        Case {
            name: "a second blend source at location 1",
            files: vec![(
                "f.slang",
                b"struct O { float4 a : SV_Target0; [[vk::location(1), vk::index(1)]] float4 b : SV_Target1; };\n\
[shader(\"fragment\")]\nO main() { O o; o.a = 1; o.b = 0; return o; }\n"
                    .to_vec(),
            )],
            args: glsl("f.slang"),
            code: 1,
            first_line: "error[E49106]: `return.b` is the second source of dual-source blending (`[[vk::index(1)]]`) at location 1: the second source blends at location 0 only; add `[[vk::location(0)]]`".into(),
            location: Some("  --> f.slang:1:76"),
        },
        Case {
            name: "a fragment output past GLSL's locations",
            files: vec![(
                "f.slang",
                b"struct O { [[vk::location(32)]] float4 c : SV_Target0; };\n\
[shader(\"fragment\")]\nO main() { O o; o.c = 1; return o; }\n"
                    .to_vec(),
            )],
            args: glsl("f.slang"),
            code: 1,
            first_line: "error[E56001]: GLSL output does not support `return.c` at location 32: GLSL's fragment outputs are at locations 0 to 31 (`gl_MaxDrawBuffers`); SPIR-V takes it, up to the device's limits".into(),
            location: Some("  --> f.slang:1:40"),
        },
        Case {
            name: "a varying past the last location",
            files: vec![(
                "f.slang",
                b"struct O { float4 p : SV_Position; [[vk::location(4294967295)]] float4 a[2] : A; };\n\
[shader(\"vertex\")]\nO main() { O o; o.p = 1; o.a[0] = 1; o.a[1] = 1; return o; }\n"
                    .to_vec(),
            )],
            args: vec!["f.slang", "-target", "spirv", "-o", "out.spv"],
            code: 1,
            first_line: "error[E49108]: `return.a` at location 4294967295 takes 2 locations, past the last one GLSL and SPIR-V number (4294967295)".into(),
            location: Some("  --> f.slang:1:72"),
        },
        Case {
            name: "a struct past SPIR-V's members",
            files: vec![("f.slang", wide_struct.into_bytes())],
            args: vec!["f.slang", "-target", "spirv", "-o", "out.spv"],
            code: 1,
            first_line: "error[E49109]: `W` has 16384 members: GLSL and SPIR-V take 16383 in a struct"
                .into(),
            location: Some("  --> f.slang:2:23"),
        },
        Case {
            name: "a function past SPIR-V's parameters",
            files: vec![("f.slang", many_params.into_bytes())],
            args: vec!["f.slang", "-target", "spirv", "-o", "out.spv"],
            code: 1,
            first_line: "error[E49110]: `f` has 256 parameters: GLSL and SPIR-V take 255; pass some of them in a struct".into(),
            location: Some("  --> f.slang:1:2965"),
        },
        Case {
            name: "a type past WGSL's size",
            files: vec![(
                "f.slang",
                b"RWStructuredBuffer<float> o;\n[shader(\"compute\")]\n[numthreads(1, 1, 1)]\n\
void main(uint3 id : SV_DispatchThreadID) { float g[65536][65536]; g[id.x][id.y] = 1; o[0] = g[id.y][id.x]; }\n"
                    .to_vec(),
            )],
            args: vec!["f.slang", "-target", "wgsl", "-o", "out.wgsl"],
            code: 1,
            first_line: "error[E55211]: `float[65536][65536]` is larger than the 2147483647 bytes WGSL takes in a type".into(),
            location: Some("  --> f.slang:4:51"),
        },
        Case {
            name: "a buffer of 4 GiB elements on SPIR-V",
            files: vec![(
                "f.slang",
                b"struct T { float4 t[16777216][16]; };\nRWStructuredBuffer<T> b;\nRWStructuredBuffer<float> o;\n\
[shader(\"compute\")]\n[numthreads(1, 1, 1)]\nvoid main(uint3 id : SV_DispatchThreadID) { o[0] = b[0].t[id.x][id.y].x; }\n"
                    .to_vec(),
            )],
            args: vec!["f.slang", "-target", "spirv", "-o", "out.spv"],
            code: 1,
            first_line: "error[E56101]: SPIR-V output does not support a buffer type of 4 GiB or more (offsets and strides are 32-bit)".into(),
            location: Some("  --> f.slang:2:23"),
        },
        Case {
            name: "a ninth render target",
            files: vec![(
                "f.slang",
                b"[shader(\"fragment\")]\nfloat4 main(float4 c : COLOR0) : SV_Target8 { return c; }\n"
                    .to_vec(),
            )],
            args: glsl("f.slang"),
            code: 1,
            first_line: "error[E31019]: `SV_Target8`: HLSL has render targets 0 to 7".into(),
            location: Some("  --> f.slang:2:1"),
        },
        Case {
            name: "two depth outputs",
            files: vec![(
                "f.slang",
                b"struct O { float4 c : SV_Target; float d : SV_Depth; float e : SV_DepthLessEqual; };\n\
[shader(\"fragment\")]\nO main() { O o; o.c = 1; o.d = 0; o.e = 0; return o; }\n"
                    .to_vec(),
            )],
            args: glsl("f.slang"),
            code: 1,
            first_line: "error[E31017]: `return.d` and `return.e` are two depth outputs (`SV_Depth` and `SV_DepthLessEqual`): a fragment shader writes one depth; keep one of them".into(),
            location: Some("  --> f.slang:1:60"),
        },
    ]
}

struct Run {
    code: Option<i32>,
    stderr: String,
    stdout: String,
}

fn run(dir: &Path, args: &[&str]) -> Run {
    let output = Command::new(env!("CARGO_BIN_EXE_legalis"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("the legalis binary runs");
    Run {
        code: output.status.code(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
    }
}

fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("bad-input")
        .join(name.replace(' ', "-"));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).expect("scratch folder");
    dir
}

/// Every path under `dir`, relative, sorted.
fn tree(dir: &Path) -> Vec<String> {
    let mut found = Vec::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(folder) = pending.pop() {
        for entry in fs::read_dir(&folder).expect("readable folder") {
            let path = entry.expect("entry").path();
            if path.is_dir() {
                pending.push(path.clone());
            }
            let relative = path.strip_prefix(dir).expect("inside").to_string_lossy();
            found.push(relative.into_owned());
        }
    }
    found.sort();
    found
}

#[test]
fn every_bad_input_gives_its_exact_message_and_leaves_no_output() {
    let mut failures = Vec::new();
    let cases = catalogue();
    for case in &cases {
        let dir = scratch(case.name);
        for (name, bytes) in &case.files {
            let path = dir.join(name);
            fs::create_dir_all(path.parent().expect("a folder")).expect("folder");
            fs::write(&path, bytes).expect("input file");
        }
        let before = tree(&dir);
        let result = run(&dir, &case.args);
        let mut problems = Vec::new();
        if result.code != Some(case.code) {
            problems.push(format!("exit {:?}, expected {}", result.code, case.code));
        }
        let mut lines = result.stderr.lines();
        let first = lines.next().unwrap_or_default();
        if first != case.first_line {
            problems.push(format!(
                "first line {first:?}\n  expected {:?}",
                case.first_line
            ));
        }
        if let Some(location) = case.location {
            let second = lines.next().unwrap_or_default();
            if second != location {
                problems.push(format!("location {second:?}, expected {location:?}"));
            }
        }
        if result.stderr.contains("panicked") || result.stderr.contains("internal error") {
            problems.push("a panic or an internal error".into());
        }
        if !result.stdout.is_empty() {
            problems.push(format!("standard output is not empty: {:?}", result.stdout));
        }
        let after = tree(&dir);
        if after != before {
            problems.push(format!("files changed: {before:?} -> {after:?}"));
        }
        if !problems.is_empty() {
            failures.push(format!("{}:\n  {}", case.name, problems.join("\n  ")));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} catalogue entries failed:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}

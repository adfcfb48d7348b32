//! `slangc` options that Legalis accepts with no effect, or refuses by
//! name, as the binary runs them: `-obfuscate`, the descriptor-heap
//! strides, the `-g` debug-information formats and `-fvk-use-dx-layout`;
//! `-preserve-params`, which keeps unused resources in the output; the
//! buffer-layout options and their warning where they mean nothing.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// A fragment shader whose names and file name would show if Legalis
/// wrote source-file information.
const SHADER: &str = "\
Texture2D colourMap;
SamplerState linearSampler;

[shader(\"fragment\")]
float4 shadeMain(float2 uvCoordinate : TEXCOORD0) : SV_Target
{
    return colourMap.Sample(linearSampler, uvCoordinate);
}
";

fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("cli_slangc_options")
        .join(name);
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).expect("scratch folder");
    fs::write(dir.join("obscure_source_name.slang"), SHADER).expect("shader file");
    dir
}

fn run(dir: &Path, extra: &[&str]) -> Output {
    let output = Command::new(env!("CARGO_BIN_EXE_legalis"))
        .arg("obscure_source_name.slang")
        .args(extra)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .output()
        .expect("the legalis binary runs");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!stderr.contains("panicked"), "{extra:?}: {stderr}");
    output
}

fn compiled(dir: &Path, extra: &[&str]) -> String {
    let output = run(dir, extra);
    assert_eq!(
        output.status.code(),
        Some(0),
        "{extra:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).expect("text output")
}

/// The text targets that compile a fragment shader (CUDA compiles kernels
/// and OptiX programs).
const FRAGMENT_TARGETS: [&str; 4] = ["glsl", "spirv-asm", "wgsl", "metal"];

#[test]
fn obfuscate_changes_nothing_as_no_output_names_the_source_file() {
    let dir = scratch("obfuscate");
    for target in FRAGMENT_TARGETS {
        let stage = [
            "-target",
            target,
            "-entry",
            "shadeMain",
            "-stage",
            "fragment",
        ];
        let plain = compiled(&dir, &stage);
        let mut with = stage.to_vec();
        with.push("-obfuscate");
        // The output is the same with and without -g3, which asks for the
        // most debug information: there is no source-file information to
        // strip.
        let mut debug = with.clone();
        debug.push("-g3");
        for output in [compiled(&dir, &with), compiled(&dir, &debug)] {
            assert!(
                !output.contains("obscure_source_name"),
                "{target}:\n{output}"
            );
            for marker in ["#line", "OpSource", "OpString", "OpLine"] {
                assert!(!output.contains(marker), "{target} {marker}:\n{output}");
            }
            assert_eq!(output, plain, "{target}");
        }
    }
}

#[test]
fn heap_strides_take_a_number_and_change_nothing() {
    let dir = scratch("heap_strides");
    let base = [
        "-target",
        "spirv-asm",
        "-entry",
        "shadeMain",
        "-stage",
        "fragment",
    ];
    let plain = compiled(&dir, &base);
    let mut with = base.to_vec();
    with.extend([
        "-spirv-resource-heap-stride",
        "32",
        "-spirv-sampler-heap-stride",
        "16",
    ]);
    assert_eq!(compiled(&dir, &with), plain);
    let refused = run(&dir, &["-spirv-resource-heap-stride", "wide"]);
    assert_eq!(refused.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&refused.stderr)
            .contains("-spirv-resource-heap-stride takes numbers, not `wide`"),
        "{}",
        String::from_utf8_lossy(&refused.stderr)
    );
}

#[test]
fn debug_formats_keep_the_level_they_are_given_with() {
    let dir = scratch("debug_formats");
    let base = [
        "-target",
        "spirv-asm",
        "-entry",
        "shadeMain",
        "-stage",
        "fragment",
    ];
    let with = |extra: &[&str]| {
        let mut args = base.to_vec();
        args.extend_from_slice(extra);
        compiled(&dir, &args)
    };
    let plain = with(&[]);
    assert!(plain.contains("OpName"), "{plain}");
    // A format alone sets no level: the names stay, as without it.
    assert_eq!(with(&["-gdwarf"]), plain);
    assert_eq!(with(&["-gpdb"]), plain);
    // Beside -g0 the level applies: the names go.
    let stripped = with(&["-gdwarf", "-g0"]);
    assert!(!stripped.contains("OpName"), "{stripped}");
    assert_eq!(with(&["-g0"]), stripped);
}

#[test]
fn preserve_params_keeps_an_unused_resource_where_legalis_prunes() {
    let dir = scratch("preserve");
    fs::write(
        dir.join("obscure_source_name.slang"),
        format!("Texture2D spareTexture;\n{SHADER}"),
    )
    .expect("shader file");
    for target in ["glsl", "spirv-asm", "wgsl"] {
        let stage = ["-target", target, "-entry", "shadeMain"];
        let plain = compiled(&dir, &stage);
        assert!(!plain.contains("spareTexture"), "{target}: {plain}");
        let mut with = stage.to_vec();
        with.push("-preserve-params");
        let kept = compiled(&dir, &with);
        assert!(kept.contains("spareTexture"), "{target}: {kept}");
    }
}

/// `-fvk-use-c-layout` and `-fvk-use-scalar-layout` lay out SPIR-V (and,
/// for the scalar layout, GLSL) buffers; on a target they do not lay out
/// they warn (E00010) and change nothing; FXC packing stays refused.
#[test]
fn layout_options_apply_where_they_mean_something() {
    let dir = scratch("layouts");
    for (option, target, warns) in [
        ("-fvk-use-c-layout", "spirv-asm", false),
        ("-fvk-use-scalar-layout", "spirv-asm", false),
        ("-force-glsl-scalar-layout", "glsl", false),
        ("-fvk-use-c-layout", "glsl", true),
        ("-fvk-use-c-layout", "metal", true),
        ("-fvk-use-scalar-layout", "wgsl", true),
    ] {
        let args = ["-target", target, "-entry", "shadeMain", option];
        let output = run(&dir, &args);
        assert_eq!(output.status.code(), Some(0), "{args:?}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(
            stderr.contains(&format!(
                "warning[E00010]: {option} has no effect on `{target}` output"
            )),
            warns,
            "{args:?}: {stderr}"
        );
        let text = String::from_utf8_lossy(&output.stdout);
        let plain = compiled(&dir, &args[..4]);
        if target == "spirv-asm" {
            assert!(
                text.contains("OpSourceExtension \"GL_EXT_scalar_block_layout\""),
                "{args:?}: {text}"
            );
        } else {
            assert_eq!(text, plain, "{args:?}");
        }
    }
    let silenced = run(
        &dir,
        &[
            "-target",
            "metal",
            "-fvk-use-c-layout",
            "-warnings-disable",
            "E00010",
        ],
    );
    assert_eq!(silenced.status.code(), Some(0));
    assert!(silenced.stderr.is_empty(), "{silenced:?}");
}

#[test]
fn layout_options_legalis_lacks_stay_refused() {
    let dir = scratch("refused");
    let option = "-fvk-use-dx-layout";
    let output = run(&dir, &["-target", "spirv", option]);
    assert_eq!(output.status.code(), Some(2), "{option}");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.starts_with(&format!(
            "legalis: error: {option} is a slangc option that legalis does not support"
        )),
        "{option}: {stderr}"
    );
    assert!(output.stdout.is_empty(), "{option}");
}

/// An option that changes nothing on the chosen target warns `E00010`,
/// naming the option and the target, and the output is what it is
/// without it; `-warnings-disable E00010` silences it.
#[test]
fn options_without_effect_on_the_target_warn() {
    let dir = scratch("no-effect");
    fs::write(dir.join("kernel.slang"), KERNEL).expect("kernel");
    let kernel = |extra: &[&str]| {
        let output = Command::new(env!("CARGO_BIN_EXE_legalis"))
            .arg("kernel.slang")
            .args(extra)
            .current_dir(&dir)
            .env("NO_COLOR", "1")
            .output()
            .expect("the legalis binary runs");
        (
            output.status.code(),
            String::from_utf8_lossy(&output.stdout).into_owned(),
            String::from_utf8_lossy(&output.stderr).into_owned(),
        )
    };
    let cases: [(&[&str], &str); 3] = [
        (
            &["-target", "metal", "-fvk-t-shift", "4", "0"],
            "warning[E00010]: -fvk-t-shift has no effect on `metal` output: it changes glsl, \
             spirv, spirv-asm, wgsl, wgsl-spirv-asm output only\n",
        ),
        (
            &["-target", "cuda", "-emit-spirv-via-glsl"],
            "warning[E00010]: -emit-spirv-via-glsl has no effect on `cuda` output: it changes \
             spirv, spirv-asm output only\n",
        ),
        (
            &["-target", "metal", "-fvk-bind-globals", "3", "1"],
            "warning[E00010]: -fvk-bind-globals has no effect on `metal` output",
        ),
    ];
    for (args, warning) in cases {
        let (code, stdout, stderr) = kernel(args);
        assert_eq!(code, Some(0), "{args:?}: {stderr}");
        assert!(stderr.starts_with(warning), "{args:?}: {stderr}");
        assert_eq!(stderr.matches("E00010").count(), 1, "{args:?}: {stderr}");
        let (_, plain, plain_stderr) = kernel(&args[..2]);
        assert!(plain_stderr.is_empty(), "{args:?}: {plain_stderr}");
        assert_eq!(stdout, plain, "{args:?}");
        let mut silenced = args.to_vec();
        silenced.extend(["-warnings-disable", "E00010"]);
        let (code, quiet_stdout, quiet) = kernel(&silenced);
        assert_eq!(code, Some(0));
        assert!(quiet.is_empty(), "{silenced:?}: {quiet}");
        assert_eq!(quiet_stdout, plain);
    }
    // Where it means something, no warning; the machine-readable form.
    let (_, _, stderr) = kernel(&["-target", "wgsl", "-fvk-t-shift", "4", "0"]);
    assert!(stderr.is_empty(), "{stderr}");
    let (_, _, stderr) = kernel(&[
        "-target",
        "cuda",
        "-fvk-invert-y",
        "-enable-machine-readable-diagnostics",
    ]);
    assert_eq!(
        stderr,
        "E00010\twarning\t\t0\t0\t0\t0\t-fvk-invert-y has no effect on `cuda` output: it \
         changes glsl, spirv, spirv-asm, wgsl, wgsl-spirv-asm, metal output only\n"
    );
    // Linked pipelines too (the facade checks the layouts of one entry
    // point only).
    fs::write(dir.join("pipeline.slang"), PIPELINE).expect("pipeline");
    let output = Command::new(env!("CARGO_BIN_EXE_legalis"))
        .args([
            "pipeline.slang",
            "-target",
            "glsl",
            "-entry",
            "vs",
            "-entry",
            "fs",
        ])
        .args(["-fvk-use-c-layout", "-g0"])
        .current_dir(&dir)
        .env("NO_COLOR", "1")
        .output()
        .expect("the legalis binary runs");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    assert!(
        stderr.contains("warning[E00010]: -fvk-use-c-layout has no effect on `glsl` output"),
        "{stderr}"
    );
    assert!(
        stderr.contains("warning[E00010]: -g0 has no effect on `glsl` output"),
        "{stderr}"
    );
}

/// A compute kernel every target compiles, with a resource of each
/// register class, an unused one, a plain uniform and a constant buffer
/// whose layout differs between std140 and the scalar rules.
const KERNEL: &str = "\
Texture2D<float4> colourMap : register(t1);
SamplerState linearSampler : register(s2);
Texture2D<float4> spareMap : register(t3);
RWStructuredBuffer<float4> results : register(u0);
cbuffer Params : register(b0) { float3 tint; float weights[2]; };
float gain;

[shader(\"compute\")]
[numthreads(1, 1, 1)]
void kernelMain(uint3 id : SV_DispatchThreadID)
{
    float4 c = colourMap.SampleLevel(linearSampler, float2(0.5, 0.5), 0.0);
    results[id.x] = c * gain + float4(tint, weights[1]);
}
";

/// Vertex and fragment stages with every varying an option changes.
const PIPELINE: &str = "\
Texture2D<float4> colourMap : register(t1);
SamplerState linearSampler : register(s2);
Texture2D<float4> spareMap : register(t3);
cbuffer Params : register(b0) { float4 tint; };
float gain;

struct V { float4 pos : SV_Position; float4 colour : COLOR; half2 uv : TEXCOORD0; };

[shader(\"vertex\")]
V vs(float4 p : POSITION, half2 uv : TEXCOORD0, uint vid : SV_VertexID)
{
    V v;
    v.pos = p * gain;
    v.colour = tint * float(vid);
    v.uv = uv;
    return v;
}

[shader(\"fragment\")]
float4 fs(float4 pos : SV_Position, float4 colour : COLOR) : SV_Target
{
    return colourMap.Sample(linearSampler, pos.xy) * pos.w + colour;
}
";

/// A kernel that reads a `DescriptorHandle` as its resource, which the
/// SPIR-V writer refuses under the capabilities that change handles.
const HANDLES: &str = "\
struct Material { DescriptorHandle<Texture2D<float4>> albedo; DescriptorHandle<SamplerState> sampler; };
uniform Material material;
RWStructuredBuffer<float4> results;

[shader(\"compute\")]
[numthreads(1, 1, 1)]
void handleMain()
{
    results[0] = material.albedo.SampleLevel(material.sampler, float2(0.5, 0.5), 0.0);
}
";

/// An option of the table tried: its table name, the option, what it
/// runs on, and what the command line has before it.
type Probe = (
    &'static str,
    &'static [&'static str],
    &'static [&'static str],
    &'static [&'static str],
);

/// Every option of the table on every target, compiled in-process with
/// and without it: where the table says the option changes the target's
/// output, it does (on a shader that uses what it changes) and no
/// warning names it; where the table says it changes nothing, the output
/// is the same and `E00010` names it.
#[test]
fn the_options_table_is_true_of_the_outputs() {
    use legalis_cli::args::{TARGET_OPTIONS, Writer};
    let dir = scratch("table");
    fs::write(dir.join("kernel.slang"), KERNEL).expect("kernel");
    fs::write(dir.join("pipeline.slang"), PIPELINE).expect("pipeline");
    fs::write(dir.join("handles.slang"), HANDLES).expect("handles");
    let env = legalis_cli::Environment::new(&dir);
    let run = |args: &[&str]| legalis_cli::run(args.iter().copied(), &env);
    let probes: [Probe; 19] = [
        (
            "-fvk-invert-y",
            &["-fvk-invert-y"],
            &["pipeline.slang", "-entry", "vs"],
            &[],
        ),
        (
            "-fvk-use-dx-position-w",
            &["-fvk-use-dx-position-w"],
            &["pipeline.slang", "-entry", "fs"],
            &[],
        ),
        (
            "-fvk-use-entrypoint-name",
            &["-fvk-use-entrypoint-name"],
            &["kernel.slang"],
            &[],
        ),
        (
            "-fvk-raw-vertex-id",
            &["-fvk-raw-vertex-id"],
            &["pipeline.slang", "-entry", "vs"],
            &[],
        ),
        (
            "-fvk-widen-16bit-varyings",
            &["-fvk-widen-16bit-varyings"],
            &["pipeline.slang", "-entry", "vs"],
            &[],
        ),
        (
            "-emit-spirv-via-glsl",
            &["-emit-spirv-via-glsl"],
            &["kernel.slang"],
            &[],
        ),
        (
            "-emit-spirv-directly",
            &["-emit-spirv-directly"],
            &["kernel.slang"],
            &["-emit-spirv-via-glsl"],
        ),
        (
            "-preserve-params",
            &["-preserve-params"],
            &["kernel.slang"],
            &[],
        ),
        (
            "-fvk-use-scalar-layout",
            &["-fvk-use-scalar-layout"],
            &["kernel.slang"],
            &[],
        ),
        (
            "-fvk-use-c-layout",
            &["-fvk-use-c-layout"],
            &["kernel.slang"],
            &[],
        ),
        (
            "-fvk-t-shift",
            &["-fvk-t-shift", "4", "0"],
            &["kernel.slang"],
            &[],
        ),
        (
            "-fvk-s-shift",
            &["-fvk-s-shift", "4", "all"],
            &["kernel.slang"],
            &[],
        ),
        (
            "-fvk-u-shift",
            &["-fvk-u-shift", "4", "0"],
            &["kernel.slang"],
            &[],
        ),
        (
            "-fvk-b-shift",
            &["-fvk-b-shift", "4", "0"],
            &["kernel.slang"],
            &[],
        ),
        (
            "-fvk-bind-globals",
            &["-fvk-bind-globals", "3", "1"],
            &["kernel.slang"],
            &[],
        ),
        ("-g0", &["-g0"], &["kernel.slang"], &[]),
        (
            "-profile glsl_NNN",
            &["-profile", "glsl_460"],
            &["kernel.slang"],
            &[],
        ),
        (
            "-profile spirv_1_N",
            &["-profile", "spirv_1_5"],
            &["kernel.slang"],
            &[],
        ),
        (
            "-capability spvBindlessTextureNV|spvDescriptorHeapEXT",
            &["-capability", "spvDescriptorHeapEXT"],
            &["handles.slang"],
            &[],
        ),
    ];
    let names: Vec<&str> = probes.iter().map(|p| p.0).collect();
    let table: Vec<&str> = TARGET_OPTIONS.iter().map(|o| o.name).collect();
    assert_eq!(names, table, "a probe for every option of the table");
    let mut changed = 0;
    for (name, option, input, before) in probes {
        let entry = TARGET_OPTIONS
            .iter()
            .find(|o| o.name == name)
            .expect("entry");
        for (target, via) in [
            ("glsl", false),
            ("spirv-asm", false),
            ("spirv-asm", true),
            ("wgsl", false),
            ("wgsl-spirv-asm", false),
            ("metal", false),
            ("cuda", false),
        ] {
            if via && name.starts_with("-emit-spirv") {
                continue;
            }
            let mut base: Vec<&str> = input.to_vec();
            base.extend(["-target", target]);
            base.extend(before);
            if via {
                base.push("-emit-spirv-via-glsl");
            }
            let mut with = base.clone();
            with.extend(option);
            let (plain, given) = (run(&base), run(&with));
            let parsed = legalis::Target::from_name(target).expect("target");
            let writer = Writer::of(parsed, via || name == "-emit-spirv-via-glsl");
            let writer = match name {
                "-emit-spirv-directly" => Writer::of(parsed, false),
                _ => writer,
            };
            let effect = writer.is_some_and(|w| entry.writers.contains(&w));
            // The option as written: with its value for -profile and
            // -capability.
            let written = match option[0] {
                "-profile" | "-capability" => option.join(" "),
                other => other.to_string(),
            };
            let warned = given
                .stderr
                .contains(&format!("warning[E00010]: {written} has no effect on `"));
            let context = format!("{with:?}:\n{}\n{}", plain.stderr, given.stderr);
            if effect {
                assert!(!warned, "{context}");
                if plain.code == 0 {
                    assert!(
                        given.stdout != plain.stdout || given.code != plain.code,
                        "the table says it changes this output: {context}"
                    );
                    changed += 1;
                }
            } else {
                assert!(warned, "{context}");
                assert_eq!(given.stdout, plain.stdout, "{context}");
                assert_eq!(given.code, plain.code, "{context}");
            }
        }
    }
    // The claims of an effect were seen, not just allowed: 60 of the
    // probes' compile on this build.
    assert!(changed >= 50, "only {changed} changes seen");
}

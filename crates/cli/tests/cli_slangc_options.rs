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

//! The `legalis` binary as users and scripts see it: exit codes, what goes
//! to standard output and standard error, and the files it leaves behind.

use legalis::ShaderStage;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

struct Run {
    code: Option<i32>,
    stdout: String,
    stderr: String,
}

/// Runs `legalis` in `dir`, so file names in diagnostics are as given.
fn legalis(dir: &Path, args: &[&str]) -> Run {
    let output = Command::new(env!("CARGO_BIN_EXE_legalis"))
        .args(args)
        .current_dir(dir)
        .env_remove("NO_COLOR")
        .output()
        .expect("the legalis binary runs");
    let run = Run {
        code: output.status.code(),
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
    };
    assert!(
        !run.stderr.contains("panicked"),
        "legalis panicked:\n{}",
        run.stderr
    );
    run
}

/// A fresh folder per test, inside the target directory.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("cli")
        .join(name);
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).expect("scratch folder");
    dir
}

fn scratch_with(name: &str, file: &str, contents: &[u8]) -> PathBuf {
    let dir = scratch(name);
    fs::write(dir.join(file), contents).expect("scratch file");
    dir
}

fn repository_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

const COMPUTE: &str = "[shader(\"compute\")]\n[numthreads(1, 1, 1)]\nvoid main() {}\n";

#[test]
fn help_lists_every_option() {
    for flag in ["-h", "-help", "--help"] {
        let run = legalis(&scratch("help"), &[flag]);
        assert_eq!(run.code, Some(0), "{flag}");
        for option in [
            "-entry",
            "-stage",
            "-D NAME[=VALUE]",
            "-dump-ir",
            "-o OUT",
            "-enable-machine-readable-diagnostics",
            "-no-color",
            "-version",
            "-target",
            "-fvk-invert-y",
            "-fvk-use-dx-position-w",
            "-fvk-use-entrypoint-name",
            "-fvk-raw-vertex-id",
            "-emit-spirv-via-glsl",
            "-emit-spirv-directly",
            "-O0 .. -O3",
            "-g, -g0 .. -g3",
        ] {
            assert!(
                run.stdout.contains(option),
                "{flag} omits {option}:\n{}",
                run.stdout
            );
        }
    }
}

/// `-help` lists the long forms, the stage aliases and both kinds of line
/// of the machine-readable diagnostics.
#[test]
fn help_lists_long_forms_aliases_and_span_lines() {
    let run = legalis(&scratch("help-more"), &["--help"]);
    for text in [
        "--help",
        "--version",
        "pixel (fragment)",
        "raygen (raygeneration)",
        "tesscontrol (hull)",
        "E<code> span FILE LINE COL END-LINE END-COL LABEL",
        "-o -",
    ] {
        assert!(run.stdout.contains(text), "{text}:\n{}", run.stdout);
    }
}

#[test]
fn version_names_the_program() {
    let run = legalis(&scratch("version"), &["-version"]);
    assert_eq!(run.code, Some(0));
    assert!(run.stdout.starts_with("legalis "), "{}", run.stdout);
}

#[test]
fn usage_errors_exit_2() {
    let dir = scratch_with("usage", "f.slang", COMPUTE.as_bytes());
    let cases: [(&[&str], &str); 5] = [
        (&["f.slang", "-bogus"], "unknown option -bogus"),
        (&[], "missing input FILE"),
        (&["f.slang", "-entry"], "-entry needs a value"),
        (&["f.slang", "g.slang"], "two input files"),
        (
            &["f.slang", "-target", "hlsl"],
            "unknown target 'hlsl'; targets: glsl spirv spirv-asm metal wgsl wgsl-spirv-asm cuda\n",
        ),
    ];
    for (args, message) in cases {
        let run = legalis(&dir, args);
        assert_eq!(run.code, Some(2), "{args:?}: {}", run.stderr);
        assert!(run.stderr.contains(message), "{args:?}:\n{}", run.stderr);
        assert!(run.stdout.is_empty(), "{args:?}");
    }
}

#[test]
fn unknown_stage_lists_the_valid_ones() {
    let dir = scratch_with("stage", "f.slang", COMPUTE.as_bytes());
    let run = legalis(&dir, &["f.slang", "-stage", "vertx"]);
    assert_eq!(run.code, Some(2));
    for stage in [
        "vertex",
        "fragment(pixel)",
        "compute",
        "hull",
        "domain",
        "geometry",
        "mesh",
        "amplification",
        "raygeneration",
        "intersection",
        "anyhit",
        "closesthit",
        "miss",
        "callable",
    ] {
        assert!(run.stderr.contains(stage), "{stage}:\n{}", run.stderr);
    }
}

#[test]
fn missing_file_is_a_coded_error() {
    let run = legalis(&scratch("missing"), &["nowhere.slang"]);
    assert_eq!(run.code, Some(1));
    assert!(
        run.stderr
            .starts_with("error[E00001]: cannot read nowhere.slang: "),
        "{}",
        run.stderr
    );
}

#[test]
fn folder_as_input_is_a_coded_error() {
    let dir = scratch("folder");
    fs::create_dir(dir.join("shaders")).expect("folder");
    let run = legalis(&dir, &["shaders"]);
    assert_eq!(run.code, Some(1));
    assert!(run.stderr.contains("error[E00001]"), "{}", run.stderr);
}

#[test]
fn invalid_utf8_is_a_coded_error_with_its_location() {
    let dir = scratch_with("utf8", "bad.slang", b"int a;\nx \xC3\x28 y;\n");
    let run = legalis(&dir, &["bad.slang"]);
    assert_eq!(run.code, Some(1));
    assert!(
        run.stderr
            .starts_with("error[E00002]: file is not valid UTF-8\n"),
        "{}",
        run.stderr
    );
    assert!(run.stderr.contains("bad.slang:2:3"), "{}", run.stderr);
}

#[test]
fn machine_readable_diagnostics_are_tab_separated() {
    let dir = scratch_with("machine", "bad.slang", b"int a;\nx \xC3\x28 y;\n");
    let run = legalis(&dir, &["bad.slang", "-enable-machine-readable-diagnostics"]);
    assert_eq!(run.code, Some(1));
    assert_eq!(
        run.stderr,
        "E00002\terror\tbad.slang\t2\t3\t2\t4\tfile is not valid UTF-8\n\
         E00002\tspan\tbad.slang\t2\t3\t2\t4\tinvalid byte 0xC3\n"
    );
}

#[test]
fn machine_readable_diagnostic_without_location() {
    let run = legalis(
        &scratch("machine-missing"),
        &["nowhere.slang", "-enable-machine-readable-diagnostics"],
    );
    assert_eq!(run.code, Some(1));
    let fields: Vec<&str> = run.stderr.trim_end().split('\t').collect();
    assert_eq!(
        fields[..7],
        ["E00001", "error", "", "0", "0", "0", "0"],
        "{}",
        run.stderr
    );
    assert!(fields[7].starts_with("cannot read nowhere.slang: "));
}

#[test]
fn no_colour_when_standard_error_is_not_a_terminal() {
    let run = legalis(&scratch("colour"), &["nowhere.slang"]);
    assert!(!run.stderr.contains('\x1b'), "{}", run.stderr);
}

/// `-force-color` colours diagnostics on a pipe (CI logs); `-no-color`
/// wins over it.
#[test]
fn force_color_colours_a_pipe_and_no_color_wins() {
    let dir = scratch("force-colour");
    let run = legalis(&dir, &["nowhere.slang", "-force-color"]);
    assert_eq!(run.code, Some(1));
    assert!(run.stderr.contains('\x1b'), "{}", run.stderr);
    assert!(run.stderr.contains("E00001"), "{}", run.stderr);
    let run = legalis(&dir, &["nowhere.slang", "-force-color", "-no-color"]);
    assert!(!run.stderr.contains('\x1b'), "{}", run.stderr);
}

#[test]
fn dump_ir_to_file_matches_standard_output() {
    let dir = scratch_with("dump", "f.slang", COMPUTE.as_bytes());
    let printed = legalis(&dir, &["f.slang", "-dump-ir"]);
    assert_eq!(printed.code, Some(0), "{}", printed.stderr);
    assert!(!printed.stdout.is_empty());
    let written = legalis(&dir, &["f.slang", "-dump-ir", "-o", "f.ir"]);
    assert_eq!(written.code, Some(0), "{}", written.stderr);
    assert!(written.stdout.is_empty());
    assert_eq!(
        fs::read_to_string(dir.join("f.ir")).unwrap(),
        printed.stdout
    );
    assert_eq!(file_names(&dir), ["f.ir", "f.slang"]);
}

#[test]
fn without_dump_ir_only_diagnostics_are_printed() {
    let dir = scratch_with("check-only", "f.slang", COMPUTE.as_bytes());
    let run = legalis(&dir, &["f.slang"]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert!(run.stdout.is_empty(), "{}", run.stdout);
}

#[test]
fn unwritable_output_leaves_no_file() {
    let dir = scratch_with("unwritable", "f.slang", COMPUTE.as_bytes());
    fs::create_dir(dir.join("taken")).expect("folder");
    // Running as root defeats permission bits, so use paths no one can write:
    // a missing folder, and a folder where the file should go.
    for output in ["missing/f.ir", "taken"] {
        let run = legalis(&dir, &["f.slang", "-dump-ir", "-o", output]);
        assert_eq!(run.code, Some(1), "{output}");
        assert!(
            run.stderr
                .starts_with(&format!("error[E00003]: cannot write {output}: ")),
            "{}",
            run.stderr
        );
        assert!(run.stdout.is_empty());
    }
    assert_eq!(file_names(&dir), ["f.slang", "taken"]);
    assert!(file_names(&dir.join("taken")).is_empty());
}

/// `-o` naming something that is not a regular file writes into it: the
/// atomic temporary-file-and-rename must not replace a FIFO (or `/dev/null`,
/// which a root CI run once turned into a regular file this way).
#[test]
fn output_to_a_fifo_writes_through_it() {
    use std::os::unix::fs::FileTypeExt;
    let dir = scratch_with("fifo", "f.slang", COMPUTE.as_bytes());
    let made = Command::new("mkfifo")
        .arg(dir.join("pipe"))
        .status()
        .expect("mkfifo runs");
    assert!(made.success());
    let mut reader = Command::new("cat")
        .arg(dir.join("pipe"))
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("cat runs");
    let run = legalis(&dir, &["f.slang", "-dump-ir", "-o", "pipe"]);
    let still_a_fifo = fs::symlink_metadata(dir.join("pipe"))
        .map(|meta| meta.file_type().is_fifo())
        .unwrap_or(false);
    if !still_a_fifo {
        // cat would wait for a writer forever.
        let _ = reader.kill();
    }
    let read = reader.wait_with_output().expect("cat finishes");
    assert!(still_a_fifo, "the FIFO was replaced");
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let text = String::from_utf8_lossy(&read.stdout);
    assert!(
        text.contains("numthreads") || text.contains("compute"),
        "{text}"
    );
    assert_eq!(file_names(&dir), ["f.slang", "pipe"]);
}

/// `-o` through a symbolic link replaces the file it names and keeps the link.
#[test]
fn output_through_a_symlink_keeps_the_link() {
    let dir = scratch_with("symlink", "f.slang", COMPUTE.as_bytes());
    fs::write(dir.join("real.ir"), "old").expect("file");
    std::os::unix::fs::symlink("real.ir", dir.join("link.ir")).expect("symlink");
    let run = legalis(&dir, &["f.slang", "-dump-ir", "-o", "link.ir"]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let link = fs::symlink_metadata(dir.join("link.ir")).expect("link");
    assert!(link.file_type().is_symlink());
    let written = fs::read_to_string(dir.join("real.ir")).expect("real file");
    assert_ne!(written, "old");
    assert_eq!(file_names(&dir), ["f.slang", "link.ir", "real.ir"]);
}

/// `legalis ARGS` in `dir` with `stdin` on its standard input.
fn legalis_with_stdin(dir: &Path, args: &[&str], stdin: &[u8]) -> Run {
    use std::io::Write as _;
    use std::process::Stdio;
    let mut child = Command::new(env!("CARGO_BIN_EXE_legalis"))
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the legalis binary runs");
    let mut input = child.stdin.take().expect("stdin");
    input.write_all(stdin).expect("stdin written");
    drop(input);
    let output = child.wait_with_output().expect("legalis finishes");
    Run {
        code: output.status.code(),
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
    }
}

/// `-` reads the shader from standard input; diagnostics call it
/// `<stdin>`, as the reference's do.
#[test]
fn dash_reads_standard_input() {
    let dir = scratch("stdin");
    let run = legalis_with_stdin(&dir, &["-", "-target", "glsl"], COMPUTE.as_bytes());
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert!(run.stdout.contains("#version 450"), "{}", run.stdout);
    let broken = b"[shader(\"compute\")]\n[numthreads(1,1,1)]\nvoid main() { int x = y; }\n";
    let run = legalis_with_stdin(&dir, &["-", "-target", "glsl"], broken);
    assert_eq!(run.code, Some(1), "{}", run.stderr);
    assert!(run.stderr.contains("--> <stdin>:3:23"), "{}", run.stderr);
    let run = legalis_with_stdin(
        &dir,
        &["-enable-machine-readable-diagnostics", "--", "-"],
        broken,
    );
    assert!(
        run.stderr
            .contains("E30001\terror\t<stdin>\t3\t23\t3\t24\t"),
        "{}",
        run.stderr
    );
    assert!(file_names(&dir).is_empty());
}

/// `-o -` is standard output, and so is `-o /dev/stdout` when standard
/// output is a pipe: written through, the link left alone.
#[test]
fn dash_o_and_dev_stdout_write_standard_output() {
    let dir = scratch_with("o-dash", "f.slang", COMPUTE.as_bytes());
    let plain = legalis(&dir, &["f.slang", "-dump-ir"]);
    assert!(!plain.stdout.is_empty());
    for output in ["-", "/dev/stdout"] {
        let run = legalis(&dir, &["f.slang", "-dump-ir", "-o", output]);
        assert_eq!(run.code, Some(0), "{output}: {}", run.stderr);
        assert_eq!(run.stdout, plain.stdout, "{output}");
        assert_eq!(file_names(&dir), ["f.slang"], "{output}");
    }
    let link = fs::symlink_metadata("/dev/stdout").expect("/dev/stdout");
    assert!(link.file_type().is_symlink());
}

/// A symbolic link to this process's standard output, a pipe: the pipe
/// gets the output and the link stays (the link names `pipe:[N]`, no
/// path, which the write used to take for a missing file and replace).
#[test]
fn output_through_a_symlink_to_a_pipe_keeps_the_link() {
    let dir = scratch_with("symlink-pipe", "f.slang", COMPUTE.as_bytes());
    std::os::unix::fs::symlink("/proc/self/fd/1", dir.join("out")).expect("symlink");
    let plain = legalis(&dir, &["f.slang", "-dump-ir"]);
    let run = legalis(&dir, &["f.slang", "-dump-ir", "-o", "out"]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert_eq!(run.stdout, plain.stdout);
    let link = fs::symlink_metadata(dir.join("out")).expect("link");
    assert!(link.file_type().is_symlink(), "the link was replaced");
    assert_eq!(file_names(&dir), ["f.slang", "out"]);
}

/// `legalis ... | head -1`: the reader closes the pipe before the output
/// is all written; the run ends quietly with the compile's status, on
/// standard output and through `-o /dev/stdout` alike.
#[test]
fn a_closed_pipe_ends_quietly() {
    use std::fmt::Write as _;
    use std::process::Stdio;
    // More IR than a pipe holds (64 KiB), so the write meets the closed end.
    let mut source = String::new();
    for i in 0..4000 {
        let _ = writeln!(source, "float f{i}(float x) {{ return x * {i}.0 + 1.0; }}");
    }
    source.push_str(COMPUTE);
    let dir = scratch_with("closed-pipe", "f.slang", source.as_bytes());
    let plain = legalis(&dir, &["f.slang", "-dump-ir"]);
    assert!(plain.stdout.len() > 2 * 64 * 1024, "{}", plain.stdout.len());
    for extra in [&[][..], &["-o", "/dev/stdout"][..]] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_legalis"))
            .args(["f.slang", "-dump-ir"])
            .args(extra)
            .current_dir(&dir)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the legalis binary runs");
        drop(child.stdout.take());
        let output = child.wait_with_output().expect("legalis finishes");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(0), "{extra:?}: {stderr}");
        assert!(stderr.is_empty(), "{extra:?}: {stderr}");
    }
}

fn file_names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(dir)
        .expect("readable folder")
        .map(|entry| {
            entry
                .expect("entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    names.sort();
    names
}

/// Each example's second line is the command that checks it.
#[test]
fn every_example_checks_cleanly() {
    let root = repository_root();
    let mut checked = 0;
    for entry in fs::read_dir(root.join("examples")).expect("examples/") {
        let path = entry.expect("entry").path();
        if path.extension().is_none_or(|ext| ext != "slang") {
            continue;
        }
        let text = fs::read_to_string(&path).expect("example");
        let command = text
            .lines()
            .nth(1)
            .and_then(|line| line.strip_prefix("// legalis "));
        let Some(command) = command else {
            panic!("{}: line 2 must be `// legalis ARGS`", path.display());
        };
        let args: Vec<&str> = command.split_whitespace().collect();
        let run = legalis(&root, &args);
        assert_eq!(run.code, Some(0), "{command}:\n{}", run.stderr);
        assert!(run.stderr.is_empty(), "{command}:\n{}", run.stderr);
        checked += 1;
    }
    assert_eq!(checked, 14, "one example per stage");
}

// The tests below need the real preprocessor, parser and checker.

#[test]
fn garbage_is_a_coded_error() {
    // A real shader cut off before its last closing brace.
    let vertex = include_str!("../../../examples/vertex.slang").trim_end();
    let truncated = vertex.strip_suffix('}').unwrap_or(vertex);
    let inputs: [&[u8]; 4] = [
        b"float4 main( : {{{ \x01 @@@ ))",
        truncated.as_bytes(),
        b"struct S { float4 p : SV_Position; ",
        b"\0\0\0\0",
    ];
    for (index, input) in inputs.into_iter().enumerate() {
        let dir = scratch_with(&format!("garbage-{index}"), "g.slang", input);
        let run = legalis(&dir, &["g.slang", "-dump-ir"]);
        assert_eq!(run.code, Some(1), "input {index}:\n{}", run.stderr);
        assert!(
            run.stderr.starts_with("error[E"),
            "input {index}:\n{}",
            run.stderr
        );
        assert!(run.stdout.is_empty(), "input {index}");
    }
}

#[test]
fn machine_readable_front_end_error() {
    let source =
        "[shader(\"pixel\")]\nfloat4 main() : SV_Target\n{\n    return undefinedThing;\n}\n";
    let dir = scratch_with("machine-front", "f.slang", source.as_bytes());
    let run = legalis(&dir, &["f.slang", "-enable-machine-readable-diagnostics"]);
    assert_eq!(run.code, Some(1), "{}", run.stderr);
    let first = run.stderr.lines().next().unwrap_or_default();
    let fields: Vec<&str> = first.split('\t').collect();
    assert_eq!(
        fields[..7],
        ["E30001", "error", "f.slang", "4", "12", "4", "26"],
        "{}",
        run.stderr
    );
}

#[test]
fn warnings_do_not_fail_the_run() {
    let source = "[shader(\"compute\")]\n[numthreads(1, 1, 1)]\n[frobnicate]\nvoid main() {}\n";
    let dir = scratch_with("warning", "f.slang", source.as_bytes());
    let run = legalis(&dir, &["f.slang"]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert!(run.stderr.starts_with("warning[E31000]"), "{}", run.stderr);
}

#[test]
fn defines_reach_the_preprocessor() {
    let source = format!("#ifndef ENABLED\n#error \"ENABLED is not defined\"\n#endif\n{COMPUTE}");
    let dir = scratch_with("defines", "f.slang", source.as_bytes());
    let without = legalis(&dir, &["f.slang"]);
    assert_eq!(without.code, Some(1), "{}", without.stderr);
    assert!(
        without.stderr.contains("error[E15007]"),
        "{}",
        without.stderr
    );
    for define in [&["-DENABLED"][..], &["-D", "ENABLED=1"]] {
        let args: Vec<&str> = ["f.slang"].iter().chain(define).copied().collect();
        let run = legalis(&dir, &args);
        assert_eq!(run.code, Some(0), "{args:?}: {}", run.stderr);
    }
}

const VERTEX: &str = "[shader(\"vertex\")]\nfloat4 vsMain(uint vid : SV_VertexID) : SV_Position { return float4(vid, 0, 0, 1); }\n";

#[test]
fn slangc_options_legalis_lacks_are_usage_errors_naming_them() {
    let dir = scratch_with("unsupported", "v.slang", VERTEX.as_bytes());
    for option in [
        "-fspv-reflect",
        "-matrix-layout-row-major",
        "-fvk-use-gl-layout",
        "-Xglslang",
    ] {
        let run = legalis(&dir, &["v.slang", "-target", "glsl", option]);
        assert_eq!(run.code, Some(2), "{option}: {}", run.stderr);
        let message =
            format!("legalis: error: {option} is a slangc option that legalis does not support");
        assert!(
            run.stderr.starts_with(&message),
            "{option}:\n{}",
            run.stderr
        );
        assert!(run.stdout.is_empty(), "{option}");
    }
    let run = legalis(&dir, &["v.slang", "-g7"]);
    assert_eq!(run.code, Some(2));
    assert!(
        run.stderr.contains("unknown debug level -g7"),
        "{}",
        run.stderr
    );
    let run = legalis(&dir, &["v.slang", "-O7"]);
    assert_eq!(run.code, Some(2));
    assert!(
        run.stderr.contains("unknown optimization level -O7"),
        "{}",
        run.stderr
    );
}

#[test]
fn policy_options_change_the_output() {
    let dir = scratch_with("policy", "v.slang", VERTEX.as_bytes());
    let glsl = |extra: &[&str]| {
        let mut args = vec!["v.slang", "-target", "glsl"];
        args.extend_from_slice(extra);
        let run = legalis(&dir, &args);
        assert_eq!(run.code, Some(0), "{extra:?}: {}", run.stderr);
        run.stdout
    };
    let plain = glsl(&[]);
    assert!(plain.contains("gl_VertexIndex - gl_BaseVertex"), "{plain}");
    assert!(!plain.contains("-gl_Position.y"), "{plain}");
    let inverted = glsl(&["-fvk-invert-y", "-O2", "-g"]);
    assert!(
        inverted.contains("gl_Position.y = (-gl_Position.y);"),
        "{inverted}"
    );
    let raw = glsl(&["-fvk-raw-vertex-id"]);
    assert!(raw.starts_with("#version 450"), "{raw}");
    assert!(
        raw.contains("uint(gl_VertexIndex)") && !raw.contains("gl_BaseVertex"),
        "{raw}"
    );

    let spirv = |extra: &[&str]| {
        let mut args = vec!["v.slang", "-target", "spirv-asm"];
        args.extend_from_slice(extra);
        let run = legalis(&dir, &args);
        assert_eq!(run.code, Some(0), "{extra:?}: {}", run.stderr);
        run.stdout
    };
    let main = spirv(&[]);
    assert!(
        main.contains("OpEntryPoint Vertex %vsMain \"main\""),
        "{main}"
    );
    assert!(main.contains("OpName"), "{main}");
    let named = spirv(&["-fvk-use-entrypoint-name"]);
    assert!(
        named.contains("OpEntryPoint Vertex %vsMain \"vsMain\""),
        "{named}"
    );
    let nameless = spirv(&["-g0"]);
    assert!(!nameless.contains("OpName"), "{nameless}");
    let via = spirv(&["-emit-spirv-via-glsl"]);
    assert!(via.contains("; Generator: 0x0008"), "{via}");
    assert!(via.contains("OpSource GLSL 460"), "{via}");
}

#[test]
fn spirv_via_glsl_binary_validates() {
    let dir = scratch_with("via-glsl", "v.slang", VERTEX.as_bytes());
    let run = legalis(
        &dir,
        &[
            "v.slang",
            "-target",
            "spirv",
            "-emit-spirv-via-glsl",
            "-o",
            "v.spv",
        ],
    );
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let bytes = fs::read(dir.join("v.spv")).expect("the module was written");
    let words: Vec<u32> = bytes
        .chunks_exact(4)
        .map(|w| u32::from_le_bytes([w[0], w[1], w[2], w[3]]))
        .collect();
    assert_eq!(words.first(), Some(&0x0723_0203), "SPIR-V magic");
    assert_eq!(words[2] >> 16, 8, "glslang's generator id");
    legalis_validate::validate_spirv(&words, legalis_validate::TargetEnv::Vulkan_1_3)
        .expect("spirv-val accepts glslang's module");
}

/// The vertex, fragment and compute examples through `-target wgsl`: the
/// WGSL naga validates; another stage is the coded refusal `E55201`.
#[test]
fn examples_compile_to_valid_wgsl() {
    let root = repository_root();
    for (file, stage) in [
        ("vertex.slang", ShaderStage::Vertex),
        ("fragment.slang", ShaderStage::Fragment),
        ("compute.slang", ShaderStage::Compute),
    ] {
        let path = format!("examples/{file}");
        let run = legalis(
            &root,
            &[
                &path,
                "-target",
                "wgsl",
                "-entry",
                "main",
                "-stage",
                stage.name(),
            ],
        );
        assert_eq!(run.code, Some(0), "{file}:\n{}", run.stderr);
        legalis_validate::validate_wgsl(&run.stdout, stage)
            .unwrap_or_else(|e| panic!("{file}:\n{e}\n{}", run.stdout));
    }
    let run = legalis(
        &root,
        &[
            "examples/geometry.slang",
            "-target",
            "wgsl",
            "-entry",
            "main",
            "-stage",
            "geometry",
        ],
    );
    assert_eq!(run.code, Some(1));
    assert!(run.stderr.contains("error[E55201]"), "{}", run.stderr);
}

/// `-warnings-disable` leaves out the warnings it names and nothing else:
/// other warnings and every error still print.
#[test]
fn warnings_disable_leaves_out_the_named_warnings_only() {
    let source = format!("#pragma frobnicate\n{COMPUTE}");
    let dir = scratch_with("warnings-disable", "c.slang", source.as_bytes());
    let plain = legalis(&dir, &["c.slang", "-target", "glsl"]);
    assert_eq!(plain.code, Some(0), "{}", plain.stderr);
    assert!(plain.stderr.contains("warning[E15009]"), "{}", plain.stderr);
    for codes in ["E15009", "15009", "e15009,E31000"] {
        let quiet = legalis(
            &dir,
            &["c.slang", "-target", "glsl", "-warnings-disable", codes],
        );
        assert_eq!(quiet.code, Some(0), "{codes}: {}", quiet.stderr);
        assert_eq!(quiet.stderr, "", "{codes}");
        assert_eq!(quiet.stdout, plain.stdout, "{codes}");
    }
    let other = legalis(
        &dir,
        &["c.slang", "-target", "glsl", "-warnings-disable", "E31000"],
    );
    assert!(other.stderr.contains("warning[E15009]"), "{}", other.stderr);
    // An error is never left out.
    let broken = scratch_with("warnings-disable-error", "b.slang", b"void main( {}\n");
    let run = legalis(&broken, &["b.slang", "-warnings-disable", "20001"]);
    assert_eq!(run.code, Some(1), "{}", run.stderr);
    assert!(run.stderr.contains("error[E"), "{}", run.stderr);
}

/// `-profile` picks the lowest GLSL and SPIR-V versions and the stage; a
/// shader model changes nothing; every output still validates.
#[test]
fn profiles_pick_versions_and_the_stage() {
    let dir = scratch_with("profiles", "v.slang", VERTEX.as_bytes());
    let glsl = legalis(
        &dir,
        &["v.slang", "-target", "glsl", "-profile", "glsl_460"],
    );
    assert_eq!(glsl.code, Some(0), "{}", glsl.stderr);
    assert!(glsl.stdout.starts_with("#version 460\n"), "{}", glsl.stdout);
    legalis_validate::validate_glsl(&glsl.stdout, ShaderStage::Vertex).expect("valid GLSL");
    let plain = legalis(&dir, &["v.slang", "-target", "glsl"]);
    let modelled = legalis(&dir, &["v.slang", "-target", "glsl", "-profile", "sm_6_6"]);
    assert_eq!(modelled.stdout, plain.stdout);
    for minor in [3u8, 4, 6] {
        let profile = format!("spirv_1_{minor}");
        let run = legalis(
            &dir,
            &["v.slang", "-target", "spirv-asm", "-profile", &profile],
        );
        assert_eq!(run.code, Some(0), "{profile}: {}", run.stderr);
        assert!(
            run.stdout.contains(&format!("; Version: 1.{minor}")),
            "{profile}: {}",
            run.stdout
        );
        legalis_validate::validate_spirv_asm(&run.stdout)
            .unwrap_or_else(|e| panic!("{profile}: {e}\n{}", run.stdout));
    }
    // The stage from the profile, with no -stage and no [shader].
    let bare = scratch_with(
        "profiles-bare",
        "p.hlsl",
        b"float4 main(float4 c : COLOR0) : SV_Target { return c; }\n",
    );
    let run = legalis(
        &bare,
        &[
            "p.hlsl", "-target", "glsl", "-entry", "main", "-profile", "ps_6_0",
        ],
    );
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    legalis_validate::validate_glsl(&run.stdout, ShaderStage::Fragment).expect("valid GLSL");
}

/// Several `-entry` that cannot be one pipeline go into one module, as
/// the reference writes them; a `-stage` after each `-entry` is its own.
#[test]
fn several_entry_points_that_are_no_pipeline_make_one_module() {
    let source = b"RWStructuredBuffer<float> b;\n\
        [shader(\"fragment\")] float4 f1() : SV_Target { return b[0]; }\n\
        [shader(\"fragment\")] float4 f2() : SV_Target { return b[1]; }\n\
        [shader(\"fragment\")] float4 f3() : SV_Target { return b[2]; }\n";
    let dir = scratch_with("one-module", "m.slang", source);
    let run = legalis(
        &dir,
        &[
            "m.slang",
            "-target",
            "spirv-asm",
            "-entry",
            "f1",
            "-stage",
            "fragment",
            "-entry",
            "f2",
            "-stage",
            "pixel",
        ],
    );
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert_eq!(run.stdout.matches("OpEntryPoint Fragment").count(), 2);
    assert!(!run.stdout.contains("\"f3\""), "{}", run.stdout);
    assert!(!run.stdout.contains("legalis link"), "{}", run.stdout);
    // The binary goes to the -o file.
    let run = legalis(
        &dir,
        &[
            "m.slang", "-target", "spirv", "-entry", "f1", "-entry", "f3", "-o", "m.spv",
        ],
    );
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert!(fs::metadata(dir.join("m.spv")).is_ok_and(|m| m.is_file()));
    // A stage that disagrees with the attribute.
    let run = legalis(
        &dir,
        &[
            "m.slang",
            "-target",
            "spirv-asm",
            "-entry",
            "f1",
            "-entry",
            "f2",
            "-stage",
            "vertex",
        ],
    );
    assert_eq!(run.code, Some(1));
    assert!(run.stderr.contains("E31004"), "{}", run.stderr);
    // GLSL holds one entry point.
    let run = legalis(
        &dir,
        &["m.slang", "-target", "glsl", "-entry", "f1", "-entry", "f2"],
    );
    assert_eq!(run.code, Some(1));
    assert!(run.stderr.contains("E00004"), "{}", run.stderr);
}

#[test]
fn a_linked_pipeline_of_spirv_binaries_needs_a_folder() {
    let source = b"struct V { float4 p : SV_Position; float4 c : COLOR; };\n\
        [shader(\"vertex\")] V vs(float4 p : POSITION) { V v; v.p = p; v.c = p; return v; }\n\
        [shader(\"fragment\")] float4 fs(float4 c : COLOR) : SV_Target { return c; }\n";
    let dir = scratch_with("pipeline-spv", "p.slang", source);
    let run = legalis(
        &dir,
        &[
            "p.slang", "-target", "spirv", "-entry", "vs", "-entry", "fs",
        ],
    );
    assert_eq!(run.code, Some(1));
    assert!(run.stderr.contains("E00008"), "{}", run.stderr);
    assert!(run.stdout.is_empty());
}

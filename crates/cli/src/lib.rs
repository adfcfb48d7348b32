//! The `legalis` command line as a library function: arguments in, the
//! bytes for standard output and standard error and an exit status out.
//!
//! The binary is a thin wrapper around [`run`]; the characterization harness
//! calls [`run`] in-process with the arguments of a test directive, so the
//! suite and users exercise exactly the same path.
//!
//! ```
//! use legalis_cli::{Environment, StandardInput, SUCCESS};
//!
//! // `legalis - -target wgsl`, the shader on standard input.
//! let mut env = Environment::new(".");
//! let shader = "[shader(\"fragment\")] float4 main() : SV_Target { return 1; }";
//! env.stdin = StandardInput::Bytes(shader.into());
//! let outcome = legalis_cli::run(["-", "-target", "wgsl"], &env);
//! assert_eq!(outcome.code, SUCCESS, "{}", outcome.stderr);
//! assert!(String::from_utf8(outcome.stdout).unwrap().contains("@fragment"));
//! ```

#![warn(missing_docs)]

pub mod args;

use std::ffi::OsString;
use std::fs;
use std::io::{self, Read as _, Write as _};
use std::path::{Path, PathBuf};

use args::{Command, CompileArgs, DiagnosticFormat};
use legalis::ir::diag::Diagnostic;

/// Exit status: the run succeeded (warnings allowed).
pub const SUCCESS: u8 = 0;
/// Exit status: a coded error, in the shader or with its files.
pub const COMPILE_ERROR: u8 = 1;
/// Exit status: the command line itself cannot be run (`UsageError`).
pub const USAGE_ERROR: u8 = 2;

/// What a run produced.
#[derive(Debug, Default)]
pub struct Outcome {
    /// What goes to standard output: code or IR, never diagnostics.
    pub stdout: Vec<u8>,
    /// What goes to standard error: the rendered diagnostics.
    pub stderr: String,
    /// The exit status ([`SUCCESS`], [`COMPILE_ERROR`], [`USAGE_ERROR`]).
    pub code: u8,
}

/// Where and how the command runs.
#[derive(Clone, Debug)]
pub struct Environment {
    /// Relative input and `-o` paths are resolved against this folder.
    pub cwd: PathBuf,
    /// Colour in human-form diagnostics.
    pub color: bool,
    /// What FILE `-` reads.
    pub stdin: StandardInput,
}

impl Environment {
    /// Runs in `cwd`, without colour or standard input: what an in-process
    /// caller that supplies neither wants.
    pub fn new(cwd: impl Into<PathBuf>) -> Environment {
        Environment {
            cwd: cwd.into(),
            color: false,
            stdin: StandardInput::Unavailable,
        }
    }
}

/// What the input file `-` reads.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum StandardInput {
    /// The process's standard input, read to its end when FILE is `-` (and
    /// only then): the binary's.
    Process,
    /// These bytes, as if standard input held them: in-process callers and
    /// tests.
    Bytes(Vec<u8>),
    /// None: FILE `-` is an error, `E00001`.
    #[default]
    Unavailable,
}

/// The name diagnostics give standard input, as the reference's do.
pub const STDIN_NAME: &str = "<stdin>";

/// Whether diagnostics on standard error are coloured when no option says:
/// only on a terminal, never with a non-empty `NO_COLOR`
/// (<https://no-color.org>) nor with `TERM=dumb` (a terminal without
/// colour).
pub fn terminal_wants_color(no_color: Option<&str>, term: Option<&str>, is_terminal: bool) -> bool {
    is_terminal && no_color.is_none_or(str::is_empty) && term != Some("dumb")
}

/// Runs one command line (without the program name).
pub fn run<I>(arguments: I, env: &Environment) -> Outcome
where
    I: IntoIterator,
    I::Item: Into<OsString>,
{
    match args::parse(arguments.into_iter().map(Into::into)) {
        Ok(Command::Help) => Outcome {
            stdout: args::HELP.as_bytes().to_vec(),
            ..Outcome::default()
        },
        Ok(Command::Version) => {
            let text = format!("legalis {}\n", env!("CARGO_PKG_VERSION"));
            Outcome {
                stdout: text.into_bytes(),
                ..Outcome::default()
            }
        }
        Ok(Command::Compile(args)) => compile(&args, env),
        Err(error) => Outcome {
            stderr: format!(
                "legalis: error: {error}\nUsage: legalis FILE [options]; legalis -help lists them\n"
            ),
            code: USAGE_ERROR,
            ..Outcome::default()
        },
    }
}

fn compile(args: &CompileArgs, env: &Environment) -> Outcome {
    let reporter = Reporter {
        format: args.diagnostics,
        // `-no-color` wins over `-force-color`, which wins over the
        // terminal's answer.
        color: !args.no_color && (args.force_color || env.color),
        disabled_warnings: &args.disabled_warnings,
    };
    let mut outcome = Outcome::default();
    let from_stdin = args.input.as_os_str() == "-";
    let path = match from_stdin {
        true => STDIN_NAME.to_string(),
        false => args.input.to_string_lossy().to_string(),
    };
    let read = match from_stdin {
        true => read_stdin(&env.stdin),
        false => fs::read(env.cwd.join(&args.input)),
    };
    let source = match read {
        Ok(source) => source,
        Err(error) => {
            reporter.report(
                &mut outcome,
                &path,
                "",
                &[legalis::cannot_read_file(&path, &error)],
            );
            outcome.code = COMPILE_ERROR;
            return outcome;
        }
    };
    // The options that change nothing on the target, said once: the
    // facade warns about the layout options itself (in `compile`, not
    // `link_entries`), and its warning says more.
    let mut unused = args::options_without_effect(args);
    if !args.linked.is_empty() {
        let warnings: Vec<Diagnostic> = unused.into_iter().map(|n| n.diagnostic).collect();
        reporter.report(&mut outcome, &path, "", &warnings);
        let linked = link(args, env, &reporter, path, source);
        outcome.stdout = linked.stdout;
        outcome.stderr.push_str(&linked.stderr);
        outcome.code = linked.code;
        return outcome;
    }
    let mut request = request(args, &path, source);
    request.entry = args.entry.clone();
    request.stage = args.stage;
    request.dump_bindings = args.dump_bindings;
    let compiled = legalis::compile(&request);
    unused.retain(|n| {
        let said = format!("{} has no effect", n.name);
        !compiled.diagnostics.iter().any(|d| {
            d.code == legalis::codes::OPTION_WITHOUT_EFFECT && d.message.starts_with(&said)
        })
    });
    let diagnostics: Vec<Diagnostic> = unused
        .into_iter()
        .map(|n| n.diagnostic)
        .chain(compiled.diagnostics.iter().cloned())
        .collect();
    reporter.report(&mut outcome, &path, &compiled.source_text, &diagnostics);
    if compiled.has_errors() {
        outcome.code = COMPILE_ERROR;
        return outcome;
    }
    let bytes = match (&compiled.output, &compiled.module, args.dump_ir) {
        (Some(generated), _, false) if generated.bindings.is_some() => {
            generated.bindings.clone().unwrap_or_default().into_bytes()
        }
        (Some(generated), _, false) if generated.trace.is_some() => {
            generated.trace.clone().unwrap_or_default().into_bytes()
        }
        (Some(generated), _, true) => legalis::dump_ir(&generated.legalized).into_bytes(),
        (Some(generated), _, false) => generated.bytes.clone(),
        (None, Some(module), true) => legalis::dump_ir(module).into_bytes(),
        _ => return outcome,
    };
    write_output(args, env, &reporter, &path, bytes, &mut outcome);
    outcome
}

/// Writes the one output to `-o OUT`, or to standard output without it.
fn write_output(
    args: &CompileArgs,
    env: &Environment,
    reporter: &Reporter,
    path: &str,
    bytes: Vec<u8>,
    outcome: &mut Outcome,
) {
    match &args.output {
        Some(output) => {
            let written = write_whole_file(&env.cwd.join(output), &bytes);
            // A pipe whose reader left (`-o /dev/stdout | head -1`) had
            // what it wanted, as on standard output: nothing to say.
            if let Err(error) = written
                && error.kind() != io::ErrorKind::BrokenPipe
            {
                let target = output.to_string_lossy();
                reporter.report(
                    outcome,
                    path,
                    "",
                    &[legalis::cannot_write_output(&target, &error)],
                );
                outcome.code = COMPILE_ERROR;
            }
        }
        None => outcome.stdout = bytes,
    }
}

/// Several `-entry`: the stages of one pipeline, linked.
fn link(
    args: &CompileArgs,
    env: &Environment,
    reporter: &Reporter,
    path: String,
    source: Vec<u8>,
) -> Outcome {
    let mut outcome = Outcome::default();
    let mut entries: Vec<(String, Option<legalis::ShaderStage>)> =
        args.entry.iter().map(|e| (e.clone(), args.stage)).collect();
    entries.extend(
        args.linked
            .iter()
            .cloned()
            .zip(args.linked_stages.iter().copied()),
    );
    let request = request(args, &path, source);
    let linked = legalis::link_entries(&request, &entries);
    reporter.report(
        &mut outcome,
        &path,
        &linked.source_text,
        &linked.diagnostics,
    );
    if linked.has_errors() {
        outcome.code = COMPILE_ERROR;
        return outcome;
    }
    let target = args.target.unwrap_or(legalis::Target::Glsl);
    if linked.one_module {
        // Not one pipeline: one module of them all, written like one output.
        let Some((_, generated)) = linked.outputs.first() else {
            return outcome;
        };
        let bytes = generated
            .trace
            .clone()
            .map(String::into_bytes)
            .unwrap_or_else(|| generated.bytes.clone());
        write_output(args, env, reporter, &path, bytes, &mut outcome);
        return outcome;
    }
    if target == legalis::Target::Spirv && args.output.is_none() {
        reporter.report(
            &mut outcome,
            &path,
            "",
            &[legalis::spirv_pipeline_needs_folder()],
        );
        outcome.code = COMPILE_ERROR;
        return outcome;
    }
    // Each stage's code in the target's own kind of file (`cuda` never
    // links: E00012).
    let (comment, extension) = match (target, args.trace) {
        (_, Some(_)) => ("//", "trace"),
        (legalis::Target::Glsl, None) => ("//", "glsl"),
        (legalis::Target::SpirvAsm | legalis::Target::WgslSpirvAsm, None) => (";", "spvasm"),
        (legalis::Target::Spirv, None) => (";", "spv"),
        (legalis::Target::Wgsl, None) => ("//", "wgsl"),
        (legalis::Target::Metal, None) => ("//", "metal"),
        (other, None) => ("//", other.name()),
    };
    for (name, generated) in &linked.outputs {
        let bytes = generated
            .trace
            .clone()
            .map(String::into_bytes)
            .unwrap_or_else(|| generated.bytes.clone());
        match &args.output {
            Some(folder) => {
                let file = env.cwd.join(folder).join(format!("{name}.{extension}"));
                if let Err(error) = write_whole_file(&file, &bytes) {
                    let shown = file.to_string_lossy();
                    reporter.report(
                        &mut outcome,
                        &path,
                        "",
                        &[legalis::cannot_write_output(&shown, &error)],
                    );
                    outcome.code = COMPILE_ERROR;
                    return outcome;
                }
            }
            None => {
                let header = format!(
                    "{comment} legalis link: {name} ({})\n",
                    generated.stage.name()
                );
                outcome.stdout.extend_from_slice(header.as_bytes());
                outcome.stdout.extend_from_slice(&bytes);
            }
        }
    }
    outcome
}

/// Standard input to its end, as `env` supplies it.
fn read_stdin(stdin: &StandardInput) -> io::Result<Vec<u8>> {
    match stdin {
        StandardInput::Process => {
            let mut bytes = Vec::new();
            io::stdin().lock().read_to_end(&mut bytes)?;
            Ok(bytes)
        }
        StandardInput::Bytes(bytes) => Ok(bytes.clone()),
        StandardInput::Unavailable => Err(io::Error::new(
            io::ErrorKind::NotFound,
            "this run has no standard input",
        )),
    }
}

/// The library request the options `args` make for `source` (shown as
/// `path`), without the entry point, stage and binding dump, which only a
/// single compilation takes (a linked pipeline names its entry points
/// apart).
fn request(args: &CompileArgs, path: &str, source: Vec<u8>) -> legalis::Request {
    let mut request = legalis::Request::builder(path, source)
        .policy(args.policy)
        .bindings(args.bindings.clone())
        .allow_glsl(args.allow_glsl)
        .build();
    request.target = args.target;
    request.trace = args.trace;
    request.defines = args.defines.clone();
    request.conformances = args.conformances.clone();
    request
}

/// Writes `contents` to a temporary file beside `path`, then renames it into
/// place, so a failed run never leaves a partial output that looks complete.
///
/// Only a regular file (or a path that does not exist yet) is replaced that
/// way. A device, a pipe, a terminal or a socket (`-o /dev/null`, a FIFO),
/// and a name of an open file descriptor (`/dev/stdout`, `/dev/fd/N`,
/// `/proc/self/fd/N`, whatever it holds), are written in place, whatever
/// symbolic links lead there: renaming over them would replace the device
/// node or the link with a regular file. A symbolic link to a regular file
/// is followed, so the file it names is replaced and the link stays.
fn write_whole_file(path: &Path, contents: &[u8]) -> io::Result<()> {
    // `stat`, which follows every link: a descriptor's link to a pipe
    // (`pipe:[N]`) names no path `canonicalize` could resolve.
    if let Ok(meta) = fs::metadata(path) {
        if !meta.is_file() {
            return fs::write(path, contents);
        }
        if names_a_descriptor(path) {
            // A regular file behind standard output (`> out.txt` or
            // `>> log`): added to, as writing standard output would.
            let mut file = fs::OpenOptions::new().append(true).open(path)?;
            return file.write_all(contents);
        }
    }
    let path = match fs::canonicalize(path) {
        Ok(target) => target,
        // Not there yet (or a dangling link): create it beside the name given.
        Err(_) => path.to_path_buf(),
    };
    let path = path.as_path();
    let name = path
        .file_name()
        .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "the path names no file"))?;
    let folder = match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    };
    let mut temp_name = OsString::from(".");
    temp_name.push(name);
    temp_name.push(format!(".{}.tmp", std::process::id()));
    let temp = folder.join(temp_name);
    let written = fs::write(&temp, contents).and_then(|()| fs::rename(&temp, path));
    if written.is_err() {
        let _ = fs::remove_file(&temp);
    }
    written
}

/// Whether `path`, or a symbolic link on the way from it, names an open
/// file descriptor: `/dev/stdout`, `/dev/stderr`, `/dev/fd/N`,
/// `/proc/PID/fd/N`.
fn names_a_descriptor(path: &Path) -> bool {
    let mut current = path.to_path_buf();
    // As many links as Linux follows.
    for _ in 0..40 {
        let text = current.to_string_lossy();
        let proc_fd = text.strip_prefix("/proc/").is_some_and(|rest| {
            let mut parts = rest.split('/');
            parts.next().is_some() && parts.next() == Some("fd") && parts.next().is_some()
        });
        if proc_fd
            || text.starts_with("/dev/fd/")
            || matches!(text.as_ref(), "/dev/stdout" | "/dev/stderr")
        {
            return true;
        }
        let Ok(next) = fs::read_link(&current) else {
            return false;
        };
        current = match current.parent() {
            Some(parent) if next.is_relative() => parent.join(next),
            _ => next,
        };
    }
    false
}

/// Renders diagnostics in the form the command line asked for.
struct Reporter<'a> {
    format: DiagnosticFormat,
    color: bool,
    /// `-warnings-disable`: warnings with these codes are left out.
    disabled_warnings: &'a [u32],
}

impl Reporter<'_> {
    fn report(&self, outcome: &mut Outcome, path: &str, text: &str, diagnostics: &[Diagnostic]) {
        let kept: Vec<Diagnostic>;
        let diagnostics = if self.disabled_warnings.is_empty() {
            diagnostics
        } else {
            kept = diagnostics
                .iter()
                .filter(|d| d.is_error() || !self.disabled_warnings.contains(&d.code))
                .cloned()
                .collect();
            &kept
        };
        if diagnostics.is_empty() {
            return;
        }
        let rendered = match self.format {
            DiagnosticFormat::Human => {
                legalis::render::render_human(path, text, diagnostics, self.color)
            }
            DiagnosticFormat::Machine => legalis::render::render_machine(path, text, diagnostics),
        };
        outcome.stderr.push_str(&rendered);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colour_only_on_a_terminal_that_has_it() {
        assert!(terminal_wants_color(None, Some("xterm-256color"), true));
        assert!(terminal_wants_color(Some(""), None, true));
        assert!(!terminal_wants_color(None, Some("xterm"), false));
        assert!(!terminal_wants_color(Some("1"), Some("xterm"), true));
        assert!(!terminal_wants_color(None, Some("dumb"), true));
    }

    const COMPUTE: &str = "[shader(\"compute\")]\n[numthreads(1, 1, 1)]\nvoid main() {}\n";

    fn run_with_stdin(args: &[&str], stdin: StandardInput) -> Outcome {
        let env = Environment {
            stdin,
            ..Environment::new(std::env::temp_dir())
        };
        run(args.iter().map(OsString::from), &env)
    }

    /// FILE `-` reads the bytes the environment gives as standard input,
    /// and diagnostics call it `<stdin>`.
    #[test]
    fn dash_reads_the_environments_standard_input() {
        let stdin = StandardInput::Bytes(COMPUTE.as_bytes().to_vec());
        let outcome = run_with_stdin(&["-", "-target", "glsl"], stdin);
        assert_eq!(outcome.code, SUCCESS, "{}", outcome.stderr);
        let code = String::from_utf8_lossy(&outcome.stdout);
        assert!(code.contains("#version 450"), "{code}");
        let broken = StandardInput::Bytes(b"void main() { int x = y; }".to_vec());
        let outcome = run_with_stdin(&["-", "-entry", "main", "-stage", "compute"], broken);
        assert_eq!(outcome.code, COMPILE_ERROR);
        assert!(
            outcome.stderr.contains("--> <stdin>:1:23"),
            "{}",
            outcome.stderr
        );
        let outcome = run_with_stdin(&["-"], StandardInput::Unavailable);
        assert_eq!(outcome.code, COMPILE_ERROR);
        assert!(
            outcome
                .stderr
                .starts_with("error[E00001]: cannot read <stdin>: "),
            "{}",
            outcome.stderr
        );
    }

    /// `-o -` is standard output; so it is for a linked pipeline, under
    /// its header lines.
    #[test]
    fn dash_o_is_standard_output() {
        let stdin = || StandardInput::Bytes(COMPUTE.as_bytes().to_vec());
        let plain = run_with_stdin(&["-", "-target", "glsl"], stdin());
        let dashed = run_with_stdin(&["-", "-target", "glsl", "-o", "-"], stdin());
        assert_eq!(dashed.code, SUCCESS, "{}", dashed.stderr);
        assert!(!dashed.stdout.is_empty());
        assert_eq!(dashed.stdout, plain.stdout);
        let pipeline = "struct V { float4 p : SV_Position; float4 c : COLOR; };\n\
            [shader(\"vertex\")] V vs(float4 p : POSITION) { V v; v.p = p; v.c = p; return v; }\n\
            [shader(\"fragment\")] float4 fs(float4 c : COLOR) : SV_Target { return c; }\n";
        let linked = |extra: &[&str]| {
            let mut args = vec!["-", "-target", "glsl", "-entry", "vs", "-entry", "fs"];
            args.extend_from_slice(extra);
            run_with_stdin(&args, StandardInput::Bytes(pipeline.as_bytes().to_vec()))
        };
        let (plain, dashed) = (linked(&[]), linked(&["-o", "-"]));
        assert_eq!(dashed.code, SUCCESS, "{}", dashed.stderr);
        let text = String::from_utf8_lossy(&dashed.stdout);
        assert!(text.starts_with("// legalis link: vs (vertex)\n"), "{text}");
        assert!(text.contains("// legalis link: fs (fragment)\n"), "{text}");
        assert_eq!(dashed.stdout, plain.stdout);
    }
}

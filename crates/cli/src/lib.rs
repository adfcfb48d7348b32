//! The `legalis` command line as a library function: arguments in, the
//! bytes for standard output and standard error and an exit status out.
//!
//! The binary is a thin wrapper around [`run`]; the characterization harness
//! calls [`run`] in-process with the arguments of a test directive, so the
//! suite and users exercise exactly the same path.

pub mod args;

use std::ffi::OsString;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use args::{Command, CompileArgs, DiagnosticFormat};
use legalis::ir::diag::Diagnostic;

pub const SUCCESS: u8 = 0;
pub const COMPILE_ERROR: u8 = 1;
pub const USAGE_ERROR: u8 = 2;

/// What a run produced.
#[derive(Debug, Default)]
pub struct Outcome {
    pub stdout: Vec<u8>,
    pub stderr: String,
    pub code: u8,
}

/// Where and how the command runs.
#[derive(Clone, Debug)]
pub struct Environment {
    /// Relative input and `-o` paths are resolved against this folder.
    pub cwd: PathBuf,
    /// Colour in human-form diagnostics.
    pub color: bool,
}

/// Whether diagnostics on standard error are coloured when no option says:
/// only on a terminal, never with a non-empty `NO_COLOR`
/// (<https://no-color.org>) nor with `TERM=dumb` (a terminal without
/// colour).
pub fn terminal_wants_color(no_color: Option<&str>, term: Option<&str>, is_terminal: bool) -> bool {
    is_terminal && no_color.is_none_or(str::is_empty) && term != Some("dumb")
}

/// Runs one command line (without the program name).
pub fn run(arguments: impl IntoIterator<Item = OsString>, env: &Environment) -> Outcome {
    match args::parse(arguments) {
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
    let path = args.input.to_string_lossy().to_string();
    let source = match fs::read(env.cwd.join(&args.input)) {
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
    if !args.linked.is_empty() {
        return link(args, env, &reporter, path, source);
    }
    let compiled = legalis::compile(&legalis::Request {
        path: path.clone(),
        source,
        entry: args.entry.clone(),
        stage: args.stage,
        defines: args.defines.clone(),
        target: args.target,
        policy: args.policy,
        trace: args.trace,
        bindings: args.bindings.clone(),
        dump_bindings: args.dump_bindings,
        allow_glsl: args.allow_glsl,
        conformances: args.conformances.clone(),
        threads: legalis::Threads::Pool,
    });
    reporter.report(
        &mut outcome,
        &path,
        &compiled.source_text,
        &compiled.diagnostics,
    );
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
            if let Err(error) = write_whole_file(&env.cwd.join(output), &bytes) {
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
    let request = legalis::Request {
        path: path.clone(),
        source,
        defines: args.defines.clone(),
        target: args.target,
        policy: args.policy,
        trace: args.trace,
        bindings: args.bindings.clone(),
        allow_glsl: args.allow_glsl,
        conformances: args.conformances.clone(),
        ..legalis::Request::default()
    };
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
    let (comment, extension) = match (target, args.trace) {
        (_, Some(_)) => ("//", "trace"),
        (legalis::Target::SpirvAsm, None) => (";", "spvasm"),
        (legalis::Target::Spirv, None) => (";", "spv"),
        _ => ("//", "glsl"),
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

/// Writes `contents` to a temporary file beside `path`, then renames it into
/// place, so a failed run never leaves a partial output that looks complete.
///
/// Only a regular file (or a path that does not exist yet) is replaced that
/// way. A device, a pipe or a socket (`-o /dev/null`, `-o /dev/stdout`, a
/// FIFO) is written in place: renaming over it would replace the device node
/// with a regular file. A symbolic link is followed, so the file it names is
/// replaced and the link stays.
fn write_whole_file(path: &Path, contents: &[u8]) -> io::Result<()> {
    let path = match fs::canonicalize(path) {
        Ok(target) => {
            if !fs::metadata(&target)?.is_file() {
                return fs::write(&target, contents);
            }
            target
        }
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
}

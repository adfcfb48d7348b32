//! `legalis`, the command line: read one shader, check it, print its
//! diagnostics and, with `-dump-ir`, its IR.
//!
//! Exit status: 0 success (warnings allowed), 1 a coded error (in the shader
//! or with its files), 2 a usage error. Diagnostics go to standard error;
//! only the IR goes to standard output, so it can be piped.

mod args;

use std::ffi::OsString;
use std::fs;
use std::io::{self, IsTerminal as _, Write as _};
use std::path::Path;
use std::process::ExitCode;

use args::{Command, CompileArgs, DiagnosticFormat};
use legalis_ir::diag::Diagnostic;

const COMPILE_ERROR: u8 = 1;
const USAGE_ERROR: u8 = 2;

fn main() -> ExitCode {
    match args::parse(std::env::args_os().skip(1)) {
        Ok(Command::Help) => print_stdout(args::HELP),
        Ok(Command::Version) => print_stdout(&format!("legalis {}\n", env!("CARGO_PKG_VERSION"))),
        Ok(Command::Compile(args)) => compile(&args),
        Err(error) => {
            let _ = writeln!(
                io::stderr(),
                "legalis: error: {error}\nUsage: legalis FILE [options]; legalis -help lists them"
            );
            ExitCode::from(USAGE_ERROR)
        }
    }
}

/// Prints help or version; a closed standard output is not worth a panic.
fn print_stdout(text: &str) -> ExitCode {
    match write_stdout(text) {
        Ok(()) => ExitCode::SUCCESS,
        Err(_) => ExitCode::from(COMPILE_ERROR),
    }
}

fn compile(args: &CompileArgs) -> ExitCode {
    let reporter = Reporter::new(args);
    let path = args.input.to_string_lossy();
    let source = match fs::read(&args.input) {
        Ok(source) => source,
        Err(error) => {
            reporter.report(&path, "", &[legalis::cannot_read_file(&path, &error)]);
            return ExitCode::from(COMPILE_ERROR);
        }
    };
    let compiled = legalis::compile(&legalis::Request {
        path: path.to_string(),
        source,
        entry: args.entry.clone(),
        stage: args.stage,
        defines: args.defines.clone(),
    });
    reporter.report(&path, &compiled.source_text, &compiled.diagnostics);
    if compiled.has_errors() {
        return ExitCode::from(COMPILE_ERROR);
    }
    let Some(module) = compiled.module.as_ref().filter(|_| args.dump_ir) else {
        return ExitCode::SUCCESS;
    };
    let ir = legalis::dump_ir(module);
    let (written, target) = match &args.output {
        Some(output) => (
            write_whole_file(output, ir.as_bytes()),
            output.to_string_lossy(),
        ),
        None => (write_stdout(&ir), "standard output".into()),
    };
    match written {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            reporter.report(&path, "", &[legalis::cannot_write_output(&target, &error)]);
            ExitCode::from(COMPILE_ERROR)
        }
    }
}

/// Flushes too: an error that only shows at exit would go unreported.
fn write_stdout(text: &str) -> io::Result<()> {
    let mut stdout = io::stdout().lock();
    stdout.write_all(text.as_bytes())?;
    stdout.flush()
}

/// Writes `contents` to a temporary file beside `path`, then renames it into
/// place, so a failed run never leaves a partial output that looks complete.
fn write_whole_file(path: &Path, contents: &[u8]) -> io::Result<()> {
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

/// Prints diagnostics in the form the command line asked for.
struct Reporter {
    format: DiagnosticFormat,
    color: bool,
}

impl Reporter {
    fn new(args: &CompileArgs) -> Self {
        // https://no-color.org: a set, non-empty NO_COLOR turns colour off.
        let no_color_env = std::env::var_os("NO_COLOR").is_some_and(|value| !value.is_empty());
        Reporter {
            format: args.diagnostics,
            color: !args.no_color && !no_color_env && io::stderr().is_terminal(),
        }
    }

    fn report(&self, path: &str, text: &str, diagnostics: &[Diagnostic]) {
        if diagnostics.is_empty() {
            return;
        }
        let rendered = match self.format {
            DiagnosticFormat::Human => {
                legalis::render::render_human(path, text, diagnostics, self.color)
            }
            DiagnosticFormat::Machine => legalis::render::render_machine(path, text, diagnostics),
        };
        let _ = io::stderr().write_all(rendered.as_bytes());
    }
}

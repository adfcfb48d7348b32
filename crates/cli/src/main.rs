//! `legalis`, the command line: a thin wrapper that runs
//! [`legalis_cli::run`] and writes what it produced.
//!
//! Exit status: 0 success (warnings allowed), 1 a coded error (in the shader
//! or with its files), 2 a usage error. Diagnostics go to standard error;
//! only code or IR goes to standard output, so it can be piped.

use std::io::{self, IsTerminal as _, Write as _};
use std::process::ExitCode;

/// The compiler allocates and frees many small strings and vectors; with
/// glibc's allocator that was a third of the instructions of a large
/// compile, with mimalloc far less (`cargo xtask bench` has the figures).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    let var = |name| std::env::var_os(name).map(|v| v.to_string_lossy().into_owned());
    let env = legalis_cli::Environment {
        cwd: ".".into(),
        color: legalis_cli::terminal_wants_color(
            var("NO_COLOR").as_deref(),
            var("TERM").as_deref(),
            io::stderr().is_terminal(),
        ),
    };
    let outcome = legalis_cli::run(std::env::args_os().skip(1), &env);
    let _ = io::stderr().write_all(outcome.stderr.as_bytes());
    if !outcome.stdout.is_empty() && write_stdout(&outcome.stdout).is_err() {
        // A closed pipe or a full disk: say so rather than lose the output silently.
        let diagnostic = legalis::cannot_write_output(
            "standard output",
            &io::Error::new(io::ErrorKind::BrokenPipe, "the write failed"),
        );
        let _ = io::stderr()
            .write_all(legalis::render::render_human("", "", &[diagnostic], false).as_bytes());
        return ExitCode::from(legalis_cli::COMPILE_ERROR);
    }
    ExitCode::from(outcome.code)
}

/// Flushes too: an error that only shows at exit would go unreported.
fn write_stdout(bytes: &[u8]) -> io::Result<()> {
    let mut stdout = io::stdout().lock();
    stdout.write_all(bytes)?;
    stdout.flush()
}

//! `legalis`, the command line: a thin wrapper that runs
//! [`legalis_cli::run`] and writes what it produced.
//!
//! Exit status: 0 success (warnings allowed), 1 a coded error (in the shader
//! or with its files), 2 a usage error. Diagnostics go to standard error;
//! only code or IR goes to standard output, so it can be piped. A pipe its
//! reader closed early (`legalis ... | head -1`) ends the run quietly with
//! the status the compile had, as `cat` and `grep` end; any other failure
//! to write standard output is error `E00003`.

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
        stdin: legalis_cli::StandardInput::Process,
    };
    let outcome = legalis_cli::run(std::env::args_os().skip(1), &env);
    let _ = io::stderr().write_all(outcome.stderr.as_bytes());
    match write_stdout(&outcome.stdout) {
        // Rust ignores SIGPIPE, so a closed pipe is this error: the
        // reader has what it wanted.
        Err(error) if error.kind() != io::ErrorKind::BrokenPipe => {
            // A full disk, say: say so rather than lose the output silently.
            let diagnostic = legalis::cannot_write_output("standard output", &error);
            let _ = io::stderr()
                .write_all(legalis::render::render_human("", "", &[diagnostic], false).as_bytes());
            ExitCode::from(legalis_cli::COMPILE_ERROR)
        }
        _ => ExitCode::from(outcome.code),
    }
}

/// Flushes too: an error that only shows at exit would go unreported.
fn write_stdout(bytes: &[u8]) -> io::Result<()> {
    if bytes.is_empty() {
        return Ok(());
    }
    let mut stdout = io::stdout().lock();
    stdout.write_all(bytes)?;
    stdout.flush()
}

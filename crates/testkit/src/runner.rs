//! Runs test files: compile per directive, check, validate, snapshot.
//!
//! For each `//TEST` directive of a file the runner invokes a [`Compiler`]
//! on the file with the directive's arguments, then:
//! - `filecheck=P`: runs the file's `//P...:` checks over the output
//!   (stdout, then stderr, as the reference's runner feeds FileCheck);
//! - `diag=P`: adds `-enable-machine-readable-diagnostics` and matches the
//!   file's caret annotations against the diagnostics;
//! - hands a successful output to the [`Validator`], if one is given (a
//!   rejection fails the directive whatever the checks say);
//! - compares the whole output with its insta snapshot
//!   `<snapshot dir>/<file stem>@<n>.snap`, `n` counting the file's
//!   directives from 1 (with `CI=true` insta writes nothing and fails on a
//!   difference; elsewhere it leaves a `.snap.new` for `cargo insta review`).
//!
//! It prints `PASS`/`FAIL`/`SKIP file:line directive` per directive, the
//! reasons under each failure, and returns the counts for the closing
//! `N passed, M failed` line. [`run_dir_recorded`] also returns a
//! [`Record`] per directive (outcome, reasons, whole output), which the
//! JSON/JUnit reports and the drift review read.

use std::io::{self, Write};
use std::panic::AssertUnwindSafe;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use crate::diag;
use crate::directives::{self, Directive, DirectiveKind, TestFile};
use crate::filecheck::CheckFile;

/// What one compiler invocation produced.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CompileOutput {
    pub stdout: String,
    pub stderr: String,
    /// `None` when the process was killed by a signal or could not start.
    pub exit_code: Option<i32>,
}

/// Anything that compiles a test file with the directive's arguments.
pub trait Compiler: Sync {
    fn run(&self, file: &Path, args: &[String]) -> CompileOutput;
}

/// A compiler run as a process: `program prefix_args... FILE ARGS...`, in
/// the test file's folder with the bare file name, so diagnostics and
/// snapshots never contain machine paths. Serves the reference
/// (`python3 .../slangc.py`) and, until it compiles in-process, the
/// `legalis` binary.
#[derive(Debug, Clone)]
pub struct CommandCompiler {
    pub program: PathBuf,
    pub prefix_args: Vec<String>,
}

impl CommandCompiler {
    /// From a command line split into words; `None` when it is empty.
    pub fn from_words(words: &[String]) -> Option<CommandCompiler> {
        let (program, prefix_args) = words.split_first()?;
        Some(CommandCompiler {
            program: PathBuf::from(program),
            prefix_args: prefix_args.to_vec(),
        })
    }
}

impl Compiler for CommandCompiler {
    fn run(&self, file: &Path, args: &[String]) -> CompileOutput {
        let folder = file
            .parent()
            .filter(|p| !p.as_os_str().is_empty())
            .unwrap_or(Path::new("."));
        let name = file.file_name().unwrap_or(file.as_os_str());
        let result = Command::new(&self.program)
            .args(&self.prefix_args)
            .arg(name)
            .args(args)
            .current_dir(folder)
            .stdin(Stdio::null())
            .output();
        match result {
            Ok(output) => CompileOutput {
                stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
                stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
                exit_code: output.status.code(),
            },
            Err(error) => CompileOutput {
                stdout: String::new(),
                stderr: format!("cannot run {}: {error}", self.program.display()),
                exit_code: None,
            },
        }
    }
}

/// The downstream validator of a successful output (glslang + spirv-val,
/// naga...). The `legalis-validate` crate provides the real ones; the runner
/// only needs this trait.
pub trait Validator: Sync {
    /// `target` and `stage` are the directive's `-target` and `-stage`.
    fn validate(&self, target: &str, stage: Option<&str>, output: &str) -> Result<(), String>;

    /// The compiler's own legalization trace of `target` is worth checking
    /// against the output (the project's compiler:
    /// `--trace-legalization=json`). When true, the runner compiles each
    /// validated directive again with that option and calls
    /// [`Validator::round_trip`].
    fn wants_trace(&self, _target: &str) -> bool {
        false
    }

    /// Compares the interface of a validated output with the trace.
    fn round_trip(
        &self,
        _target: &str,
        _stage: Option<&str>,
        _output: &str,
        _trace: &str,
    ) -> Result<(), String> {
        Ok(())
    }

    /// Checks a directive's own `--trace-legalization=json` output.
    fn check_trace(&self, _trace: &str) -> Result<(), String> {
        Ok(())
    }

    /// Checks a directive's own `-dump-bindings=json` output.
    fn check_bindings(&self, _dump: &str) -> Result<(), String> {
        Ok(())
    }

    /// The binding plan of `target` is worth checking against the output
    /// (`-dump-bindings=json`); when true, the runner compiles each
    /// validated directive again with that option and calls
    /// [`Validator::bindings_round_trip`].
    fn wants_bindings(&self, _target: &str) -> bool {
        false
    }

    /// Compares the descriptor bindings of a validated output with the
    /// binding plan.
    fn bindings_round_trip(
        &self,
        _target: &str,
        _stage: Option<&str>,
        _output: &str,
        _dump: &str,
    ) -> Result<(), String> {
        Ok(())
    }

    /// [`Validator::validate`] with the test file and the directive's
    /// arguments at hand, for a check that needs the source (Metal's
    /// signature re-read). `Ok(Some(note))` passes with a note the report
    /// carries (`not validated by a compiler`).
    fn validate_directive(
        &self,
        _file: &Path,
        _args: &[String],
        target: &str,
        stage: Option<&str>,
        output: &str,
    ) -> Result<Option<String>, String> {
        self.validate(target, stage, output).map(|()| None)
    }
}

/// The option that prints the legalization trace instead of code.
pub const TRACE_OPTION: &str = "--trace-legalization";

/// The option that prints the binding plan instead of code.
pub const BINDINGS_OPTION: &str = "-dump-bindings";

/// What to do with directive kinds the harness cannot run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UnsupportedPolicy {
    /// The project's own suite: an unsupported directive is a failure.
    Fail,
    /// A foreign folder: report it as skipped.
    Skip,
}

/// How to run a folder.
pub struct Options<'a> {
    pub compiler: &'a dyn Compiler,
    /// Where validation plugs in; `None` runs no validator.
    pub validator: Option<&'a dyn Validator>,
    /// Folder of the `.snap` files; `None` compares no snapshots.
    pub snapshot_dir: Option<PathBuf>,
    /// The project's own tests must carry a `//META:` block and directives.
    pub require_meta: bool,
    pub unsupported: UnsupportedPolicy,
    /// Only files whose path contains this text.
    pub filter: Option<String>,
    /// Only the files of one shard: `--partition k/n`.
    pub partition: Option<Partition>,
}

/// Shard `index` (1-based) of `count`: a file belongs to the shard its
/// name's FNV-1a hash picks, so the split is the same on every machine and
/// does not move when other files are added.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Partition {
    pub index: u32,
    pub count: u32,
}

impl Partition {
    /// `k/n` with 1 <= k <= n.
    pub fn parse(text: &str) -> Option<Partition> {
        let (k, n) = text.split_once('/')?;
        let (index, count) = (k.parse().ok()?, n.parse().ok()?);
        (count >= 1 && (1..=count).contains(&index)).then_some(Partition { index, count })
    }

    pub fn contains(&self, file: &Path) -> bool {
        let name = file
            .file_name()
            .map(|n| n.to_string_lossy())
            .unwrap_or_default();
        self.contains_name(&name)
    }

    /// Whether the case called `name` is in this shard: FNV-1a of the name,
    /// modulo the shard count (the same on every machine).
    pub fn contains_name(&self, name: &str) -> bool {
        let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
        for byte in name.bytes() {
            hash ^= u64::from(byte);
            hash = hash.wrapping_mul(0x0100_0000_01b3);
        }
        hash % u64::from(self.count) == u64::from(self.index - 1)
    }

    /// The environment variable through which `cargo xtask test legalize
    /// --partition K/N` hands the shard to the generated matrices (cargo
    /// tests).
    pub const ENV: &'static str = "LEGALIS_PARTITION";

    /// The shard named by [`Partition::ENV`], if set. A malformed value
    /// panics: a test run with a typo must not quietly run everything.
    pub fn from_env() -> Option<Partition> {
        let text = std::env::var(Self::ENV).ok()?;
        match Partition::parse(&text) {
            Some(partition) => Some(partition),
            None => panic!("{}={text:?}: expected K/N with 1 <= K <= N", Self::ENV),
        }
    }
}

impl std::fmt::Debug for Options<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Options")
            .field("snapshot_dir", &self.snapshot_dir)
            .field("require_meta", &self.require_meta)
            .field("unsupported", &self.unsupported)
            .field("filter", &self.filter)
            .field("partition", &self.partition)
            .finish_non_exhaustive()
    }
}

/// Directive counts.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Summary {
    pub passed: usize,
    pub failed: usize,
    pub skipped: usize,
}

impl Summary {
    fn add(&mut self, other: Summary) {
        self.passed += other.passed;
        self.failed += other.failed;
        self.skipped += other.skipped;
    }

    /// Every directive counted: passed, failed and skipped.
    pub fn total(&self) -> usize {
        self.passed + self.failed + self.skipped
    }

    /// `N passed, M failed[, K skipped]`.
    pub fn line(&self) -> String {
        let mut line = format!("{} passed, {} failed", self.passed, self.failed);
        if self.skipped > 0 {
            line.push_str(&format!(", {} skipped", self.skipped));
        }
        line
    }
}

/// The test files (`.slang`, `.hlsl`) of `dir`, sorted, filtered.
pub fn test_files(dir: &Path, filter: Option<&str>) -> io::Result<Vec<PathBuf>> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        let is_test = path
            .extension()
            .is_some_and(|ext| ext == "slang" || ext == "hlsl");
        let wanted = filter.is_none_or(|f| path.to_string_lossy().contains(f));
        if path.is_file() && is_test && wanted {
            files.push(path);
        }
    }
    files.sort();
    Ok(files)
}

/// How one directive (or, for a file that cannot run, the file) ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    Pass,
    Fail,
    Skip,
}

/// One directive's result, for machine-readable reports and drift review.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Record {
    /// The test file as shown in reports (repository-relative in the suite).
    pub file: String,
    /// The directive's line; for a file that could not run, the problem's.
    pub line: usize,
    /// 1-based index among the file's directives (the snapshot's `@n`);
    /// 0 for a file that could not run.
    pub number: usize,
    /// The directive as written, or the file's problem.
    pub directive: String,
    pub status: Status,
    /// Why it failed or was skipped.
    pub reasons: Vec<String>,
    /// The whole output as a snapshot pins it, when the compiler ran.
    pub output: Option<String>,
    /// What a pass leaves to say (a Metal output is not validated by a
    /// compiler).
    pub notes: Vec<String>,
}

/// Runs every test file of `dir`, printing to `out`.
pub fn run_dir(dir: &Path, options: &Options<'_>, out: &mut dyn Write) -> io::Result<Summary> {
    Ok(run_dir_recorded(dir, options, out)?.0)
}

/// [`run_dir`], also returning a [`Record`] per directive in file order.
pub fn run_dir_recorded(
    dir: &Path,
    options: &Options<'_>,
    out: &mut dyn Write,
) -> io::Result<(Summary, Vec<Record>)> {
    let files: Vec<PathBuf> = test_files(dir, options.filter.as_deref())?
        .into_iter()
        .filter(|f| options.partition.is_none_or(|p| p.contains(f)))
        .collect();
    // Files run on every core; their reports are printed in file order.
    let workers = std::thread::available_parallelism()
        .map_or(1, usize::from)
        .min(files.len())
        .max(1);
    type Ran = (usize, io::Result<Summary>, Vec<u8>, Vec<Record>);
    let mut ran: Vec<Ran> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..workers)
            .map(|w| {
                let files = &files;
                scope.spawn(move || {
                    let mut mine = Vec::new();
                    for (i, file) in files.iter().enumerate().skip(w).step_by(workers) {
                        mine.push(run_file_guarded(file, i, options));
                    }
                    mine
                })
            })
            .collect();
        // A worker cannot panic (each file and each directive runs under
        // `catch_unwind`); if one still does, the panic goes on rather than
        // dropping the worker's results.
        handles
            .into_iter()
            .flat_map(|h| {
                h.join()
                    .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
            })
            .collect()
    });
    ran.sort_by_key(|r| r.0);
    let mut summary = Summary::default();
    let mut records = Vec::new();
    for (_, file_summary, text, file_records) in ran {
        out.write_all(&text)?;
        summary.add(file_summary?);
        records.extend(file_records);
    }
    Ok((summary, records))
}

/// [`run_file_recorded`] for one worker: a panic while reading or parsing
/// the file (each directive has its own guard) becomes a failure of the
/// file, with the records of the directives that ran before it.
fn run_file_guarded(
    file: &Path,
    index: usize,
    options: &Options<'_>,
) -> (usize, io::Result<Summary>, Vec<u8>, Vec<Record>) {
    let (mut text, mut records) = (Vec::new(), Vec::new());
    let ran = std::panic::catch_unwind(AssertUnwindSafe(|| {
        run_file_recorded(file, options, &mut text, &mut records)
    }));
    let summary = ran.unwrap_or_else(|panic| {
        let shown = file.display().to_string();
        let problem = format!("the harness panicked: {}", panic_message(&*panic));
        let _ = writeln!(text, "FAIL {shown}: {problem}");
        records.push(file_failure(&shown, 0, problem));
        Ok(summary_of(&records))
    });
    (index, summary, text, records)
}

/// The counts of `records`.
fn summary_of(records: &[Record]) -> Summary {
    let mut summary = Summary::default();
    for record in records {
        match record.status {
            Status::Pass => summary.passed += 1,
            Status::Fail => summary.failed += 1,
            Status::Skip => summary.skipped += 1,
        }
    }
    summary
}

/// The text of a panic's payload (`panic!` gives a `&str` or a `String`).
pub fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<String>()
        .map(String::as_str)
        .or_else(|| payload.downcast_ref::<&str>().copied())
        .unwrap_or("a panic without a message")
        .to_string()
}

/// How many results (records) running `dir` with `options` must give: one
/// per directive of each file that parses, one per problem of a file that
/// does not (unreadable, malformed directives, not a suite test). Read
/// apart from the run, so a check that the run gave exactly this many
/// notices a result lost on the way.
pub fn expected_results(dir: &Path, options: &Options<'_>) -> io::Result<usize> {
    let mut count = 0;
    for file in test_files(dir, options.filter.as_deref())?
        .into_iter()
        .filter(|f| options.partition.is_none_or(|p| p.contains(f)))
    {
        count += match std::fs::read_to_string(&file) {
            Err(_) => 1,
            Ok(text) => match directives::parse(&text) {
                Err(errors) => errors.len(),
                Ok(test) if suite_problem(&test, options).is_some() => 1,
                Ok(test) => test.directives.len(),
            },
        };
    }
    Ok(count)
}

/// Runs one test file's directives, printing to `out`.
pub fn run_file(path: &Path, options: &Options<'_>, out: &mut dyn Write) -> io::Result<Summary> {
    run_file_recorded(path, options, out, &mut Vec::new())
}

/// A failure of the whole file (unreadable, malformed, not a suite test).
fn file_failure(shown: &str, line: usize, problem: String) -> Record {
    Record {
        file: shown.to_string(),
        line,
        number: 0,
        directive: problem,
        status: Status::Fail,
        reasons: Vec::new(),
        output: None,
        notes: Vec::new(),
    }
}

/// [`run_file`], appending a [`Record`] per directive to `records`.
pub fn run_file_recorded(
    path: &Path,
    options: &Options<'_>,
    out: &mut dyn Write,
    records: &mut Vec<Record>,
) -> io::Result<Summary> {
    let shown = path.display().to_string();
    let mut summary = Summary::default();
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(error) => {
            writeln!(out, "FAIL {shown}: cannot read: {error}")?;
            records.push(file_failure(&shown, 0, format!("cannot read: {error}")));
            summary.failed += 1;
            return Ok(summary);
        }
    };
    let test = match directives::parse(&text) {
        Ok(test) => test,
        Err(errors) => {
            for error in errors {
                let problem = format!("malformed directive: {}", error.message);
                writeln!(out, "FAIL {shown}:{} {problem}", error.line)?;
                records.push(file_failure(&shown, error.line, problem));
                summary.failed += 1;
            }
            return Ok(summary);
        }
    };
    if let Some(problem) = suite_problem(&test, options) {
        writeln!(out, "FAIL {shown}:1 {problem}")?;
        records.push(file_failure(&shown, 1, problem.to_string()));
        summary.failed += 1;
        return Ok(summary);
    }
    let file = FileRun {
        path,
        shown: &shown,
        text: &text,
        test: &test,
        options,
    };
    for (index, directive) in test.directives.iter().enumerate() {
        // A panic in the compiler, a validator or a checker fails this
        // directive, named, and the file goes on with the next one.
        let ran =
            std::panic::catch_unwind(AssertUnwindSafe(|| file.directive(index + 1, directive)));
        let (outcome, output) = ran.unwrap_or_else(|panic| {
            let reason = format!(
                "panicked while running this directive: {}",
                panic_message(&*panic)
            );
            (Outcome::Fail(vec![reason]), None)
        });
        outcome.print(&shown, directive, out)?;
        let (status, reasons, notes) = match outcome {
            Outcome::Pass(notes) => (Status::Pass, Vec::new(), notes),
            Outcome::Fail(reasons) => (Status::Fail, reasons, Vec::new()),
            Outcome::Skip(reason) => (Status::Skip, vec![reason], Vec::new()),
        };
        match status {
            Status::Pass => summary.passed += 1,
            Status::Fail => summary.failed += 1,
            Status::Skip => summary.skipped += 1,
        }
        records.push(Record {
            file: shown.clone(),
            line: directive.line,
            number: index + 1,
            directive: directive.text.clone(),
            status,
            reasons,
            output: output.as_ref().map(whole_output),
            notes,
        });
    }
    Ok(summary)
}

/// What the project's own suite demands beyond well-formed directives.
fn suite_problem(test: &TestFile, options: &Options<'_>) -> Option<&'static str> {
    if !options.require_meta {
        return None;
    }
    if test.meta.is_none() {
        return Some("missing //META: block at the top of the file");
    }
    if test.directives.is_empty() {
        return Some("no //TEST or //DIAGNOSTIC_TEST directive");
    }
    None
}

enum Outcome {
    /// With the notes the validator left.
    Pass(Vec<String>),
    Fail(Vec<String>),
    Skip(String),
}

impl Outcome {
    fn print(&self, shown: &str, directive: &Directive, out: &mut dyn Write) -> io::Result<()> {
        let head = format!("{shown}:{} {}", directive.line, directive.text);
        match self {
            Outcome::Pass(notes) => {
                writeln!(out, "PASS {head}")?;
                for note in notes {
                    writeln!(out, "    note: {note}")?;
                }
                Ok(())
            }
            Outcome::Skip(reason) => writeln!(out, "SKIP {head}: {reason}"),
            Outcome::Fail(reasons) => {
                writeln!(out, "FAIL {head}")?;
                for reason in reasons {
                    for line in reason.trim_end().lines() {
                        writeln!(out, "    {line}")?;
                    }
                }
                Ok(())
            }
        }
    }
}

/// One file being run.
struct FileRun<'a> {
    path: &'a Path,
    shown: &'a str,
    text: &'a str,
    test: &'a TestFile,
    options: &'a Options<'a>,
}

impl FileRun<'_> {
    /// The outcome, and the compiler's output when it ran.
    fn directive(&self, number: usize, directive: &Directive) -> (Outcome, Option<CompileOutput>) {
        let mut args = directive.args.clone();
        let mut reasons = Vec::new();
        match &directive.kind {
            DirectiveKind::Disabled => (Outcome::Skip("disabled".to_string()), None),
            DirectiveKind::Unsupported { reason } => match self.options.unsupported {
                UnsupportedPolicy::Skip => (Outcome::Skip(reason.clone()), None),
                UnsupportedPolicy::Fail => (Outcome::Fail(vec![reason.clone()]), None),
            },
            DirectiveKind::FileCheck { prefix } => {
                let output = self.options.compiler.run(self.path, &args);
                reasons.extend(self.filecheck(prefix, &output));
                let notes = match self.validate(&args, &output) {
                    Ok(notes) => notes,
                    Err(reason) => {
                        reasons.push(reason);
                        Vec::new()
                    }
                };
                reasons.extend(self.round_trip(&args, &output));
                reasons.extend(self.bindings_round_trip(&args, &output));
                reasons.extend(self.snapshot(number, directive, &output));
                match outcome(reasons, Some(&output)) {
                    Outcome::Pass(_) => (Outcome::Pass(notes), Some(output)),
                    other => (other, Some(output)),
                }
            }
            DirectiveKind::Diagnostic { prefix, exhaustive } => {
                if !args.iter().any(|a| a == MACHINE_DIAGNOSTICS) {
                    args.push(MACHINE_DIAGNOSTICS.to_string());
                }
                let output = self.options.compiler.run(self.path, &args);
                reasons.extend(self.carets(prefix, *exhaustive, &output));
                reasons.extend(self.snapshot(number, directive, &output));
                // A diagnostic test expects the compiler to fail: no note.
                (outcome(reasons, None), Some(output))
            }
        }
    }

    fn filecheck(&self, prefix: &str, output: &CompileOutput) -> Vec<String> {
        let file = match CheckFile::parse(self.shown, self.text, &[prefix]) {
            Ok(file) => file,
            Err(errors) => return errors.iter().map(|e| e.to_string()).collect(),
        };
        let input = format!("{}{}", output.stdout, output.stderr);
        match file.check("<compiler output>", &input) {
            Ok(()) => Vec::new(),
            Err(failures) => failures.iter().map(|f| f.to_string()).collect(),
        }
    }

    fn carets(&self, prefix: &str, exhaustive: bool, output: &CompileOutput) -> Vec<String> {
        let text = format!("{}{}", output.stdout, output.stderr);
        let (diagnostics, _) = diag::parse(&text);
        let annotations: Vec<_> = self.test.annotations_for(prefix).collect();
        let name = self
            .path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or(self.shown);
        match diag::check(self.shown, name, &annotations, &diagnostics, exhaustive) {
            Ok(()) => Vec::new(),
            Err(report) => vec![report],
        }
    }

    /// The validator's notes, or why it rejects the output.
    fn validate(&self, args: &[String], output: &CompileOutput) -> Result<Vec<String>, String> {
        let Some(validator) = self.options.validator else {
            return Ok(Vec::new());
        };
        if output.exit_code != Some(0) {
            return Ok(Vec::new());
        }
        // The output is the trace, not code: a JSON one must follow its schema.
        if let Some(option) = args.iter().find(|a| a.starts_with(TRACE_OPTION)) {
            if option.ends_with("=json") {
                validator
                    .check_trace(&output.stdout)
                    .map_err(|error| format!("the trace does not follow its schema:\n{error}"))?;
            }
            return Ok(Vec::new());
        }
        // So is the binding plan.
        if let Some(option) = args.iter().find(|a| a.starts_with(BINDINGS_OPTION)) {
            if option.ends_with("=json") {
                validator.check_bindings(&output.stdout).map_err(|error| {
                    format!("the binding plan does not follow its schema:\n{error}")
                })?;
            }
            return Ok(Vec::new());
        }
        let Some(target) = option_value(args, "-target") else {
            return Ok(Vec::new());
        };
        let stage = option_value(args, "-stage");
        validator
            .validate_directive(self.path, args, target, stage, &output.stdout)
            .map(|note| note.into_iter().collect())
            .map_err(|error| format!("the {target} validator rejects the output:\n{error}"))
    }

    /// The round-trip interface check of a validated output (see
    /// [`Validator::round_trip`]).
    fn round_trip(&self, args: &[String], output: &CompileOutput) -> Option<String> {
        let validator = self.options.validator?;
        let target = option_value(args, "-target")?;
        if output.exit_code != Some(0)
            || !validator.wants_trace(target)
            || args.iter().any(|a| {
                a.starts_with(TRACE_OPTION) || a.starts_with(BINDINGS_OPTION) || a == "-dump-ir"
            })
        {
            return None;
        }
        let stage = option_value(args, "-stage");
        let mut traced = args.to_vec();
        traced.push(format!("{TRACE_OPTION}=json"));
        let trace = self.options.compiler.run(self.path, &traced);
        if trace.exit_code != Some(0) {
            return Some(format!(
                "the compiler cannot trace this directive:\n{}",
                trace.stderr
            ));
        }
        validator
            .round_trip(target, stage, &output.stdout, &trace.stdout)
            .err()
            .map(|error| {
                format!("the output's interface is not the one the legalization trace promises:\n{error}")
            })
    }

    /// The round-trip binding check of a validated output (see
    /// [`Validator::bindings_round_trip`]); a linked pipeline (several
    /// `-entry`) has one plan per stage and is not checked.
    fn bindings_round_trip(&self, args: &[String], output: &CompileOutput) -> Option<String> {
        let validator = self.options.validator?;
        let target = option_value(args, "-target")?;
        let replaced = args.iter().any(|a| {
            a.starts_with(TRACE_OPTION) || a.starts_with(BINDINGS_OPTION) || a == "-dump-ir"
        });
        let linked = args.iter().filter(|a| *a == "-entry").count() > 1;
        if output.exit_code != Some(0) || !validator.wants_bindings(target) || replaced || linked {
            return None;
        }
        let stage = option_value(args, "-stage");
        let mut dumped = args.to_vec();
        dumped.push(format!("{BINDINGS_OPTION}=json"));
        let dump = self.options.compiler.run(self.path, &dumped);
        if dump.exit_code != Some(0) {
            return Some(format!(
                "the compiler cannot dump the bindings of this directive:\n{}",
                dump.stderr
            ));
        }
        validator
            .bindings_round_trip(target, stage, &output.stdout, &dump.stdout)
            .err()
            .map(|error| {
                format!(
                    "the output's bindings are not the ones the binding plan promises:\n{error}"
                )
            })
    }

    fn snapshot(
        &self,
        number: usize,
        directive: &Directive,
        output: &CompileOutput,
    ) -> Option<String> {
        let dir = self.options.snapshot_dir.as_ref()?;
        let stem = self.path.file_stem()?.to_string_lossy();
        let name = format!("{stem}@{number}");
        // insta reads a relative snapshot path as relative to the file of
        // the assertion (this one), not to the working folder.
        let dir = std::path::absolute(dir).unwrap_or_else(|_| dir.clone());
        let mut settings = insta::Settings::clone_current();
        settings.set_snapshot_path(&dir);
        settings.set_prepend_module_to_snapshot(false);
        settings.set_description(format!(
            "{}:{} {}",
            self.shown, directive.line, directive.text
        ));
        settings.set_input_file(self.path);
        settings.set_omit_expression(true);
        let contents = whole_output(output);
        let compared = settings.bind(|| {
            std::panic::catch_unwind(AssertUnwindSafe(|| {
                insta::assert_snapshot!(name.clone(), contents)
            }))
        });
        compared.err().map(|_| {
            format!(
                "snapshot {}/{name}.snap does not match the output (insta's diff is printed above; \
                 review with `cargo insta review`)",
                dir.display()
            )
        })
    }
}

const MACHINE_DIAGNOSTICS: &str = "-enable-machine-readable-diagnostics";

/// Failures, with the compiler's exit status and stderr when it failed, as
/// that usually explains the rest.
fn outcome(mut reasons: Vec<String>, output: Option<&CompileOutput>) -> Outcome {
    if reasons.is_empty() {
        return Outcome::Pass(Vec::new());
    }
    if let Some(output) = output.filter(|o| o.exit_code != Some(0)) {
        let status = output
            .exit_code
            .map_or("no exit status".to_string(), |c| format!("exit status {c}"));
        let stderr: Vec<&str> = output.stderr.lines().take(12).collect();
        reasons.push(format!(
            "note: the compiler ended with {status}; its stderr begins:\n{}",
            stderr.join("\n")
        ));
    }
    Outcome::Fail(reasons)
}

fn option_value<'a>(args: &'a [String], name: &str) -> Option<&'a str> {
    let at = args.iter().position(|a| a == name)?;
    args.get(at + 1).map(String::as_str)
}

/// What a snapshot pins: stdout, then stderr and a non-zero exit status
/// when there are any.
pub fn whole_output(output: &CompileOutput) -> String {
    let mut text = output.stdout.clone();
    let mut section = |title: &str, body: &str| {
        if !text.is_empty() && !text.ends_with('\n') {
            text.push('\n');
        }
        text.push_str(&format!("--- {title} ---\n{body}"));
    };
    if !output.stderr.is_empty() {
        section("stderr", &output.stderr);
    }
    match output.exit_code {
        Some(0) => {}
        Some(code) => section(&format!("exit status {code}"), ""),
        None => section("no exit status", ""),
    }
    text
}

/// insta reports a snapshot difference by panicking; the runner catches
/// that panic and reports the failure itself, so the default hook's
/// "thread panicked" line is noise. This hook drops exactly those and
/// passes every other panic to the previous hook.
pub fn quiet_snapshot_panics() {
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let message = panic_message(info.payload());
        if !message.starts_with("snapshot assertion for") {
            previous(info);
        }
    }));
}

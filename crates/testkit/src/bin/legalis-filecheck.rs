//! `legalis-filecheck`: the harness's FileCheck engine behind LLVM
//! FileCheck's command line, so both can be run on the same inputs.
//!
//! `legalis-filecheck CHECKFILE [--check-prefix P]... [--check-prefixes P,Q]
//! [--input-file F] [--allow-empty]`; input on stdin by default. Exit 0 when
//! every check holds, 1 when one fails (messages on stderr), 2 for a usage
//! error, an unreadable file, an empty input or a malformed check file —
//! the same statuses as LLVM's FileCheck.

use std::io::Read as _;
use std::process::ExitCode;

use legalis_testkit::filecheck::{COMMENT_PREFIXES, CheckFile, is_valid_prefix};

const USAGE: &str = "usage: legalis-filecheck CHECKFILE [--check-prefix P]... \
[--check-prefixes P,Q] [--input-file F] [--allow-empty]";

#[derive(Debug, Default)]
struct Options {
    check_file: Option<String>,
    prefixes: Vec<String>,
    input_file: Option<String>,
    allow_empty: bool,
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let options = match parse_args(&args) {
        Ok(options) => options,
        Err(message) => {
            eprintln!("legalis-filecheck: {message}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    match run(&options) {
        Ok(code) => ExitCode::from(code),
        Err(message) => {
            eprintln!("legalis-filecheck: {message}");
            ExitCode::from(2)
        }
    }
}

/// Accepts `--opt VALUE`, `--opt=VALUE` and the single-dash spellings, as
/// LLVM's option parser does.
fn parse_args(args: &[String]) -> Result<Options, String> {
    let mut options = Options::default();
    let mut at = 0;
    while at < args.len() {
        let arg = &args[at];
        let bare = arg.trim_start_matches('-');
        let (name, inline) = match bare.split_once('=') {
            Some((name, value)) if arg.starts_with('-') => (name, Some(value.to_string())),
            _ => (bare, None),
        };
        let mut value = || -> Result<String, String> {
            if let Some(value) = &inline {
                return Ok(value.clone());
            }
            at += 1;
            args.get(at).cloned().ok_or(format!("{arg} needs a value"))
        };
        match name {
            _ if !arg.starts_with('-') || arg == "-" => {
                if options.check_file.replace(arg.clone()).is_some() {
                    return Err(format!("unexpected argument '{arg}'"));
                }
            }
            "check-prefix" => options.prefixes.push(value()?),
            "check-prefixes" => options
                .prefixes
                .extend(value()?.split(',').map(str::to_string)),
            "input-file" => options.input_file = Some(value()?),
            "allow-empty" => options.allow_empty = true,
            "help" | "h" => return Err("help requested".to_string()),
            _ => return Err(format!("unknown option '{arg}'")),
        }
        at += 1;
    }
    validate(&mut options)?;
    Ok(options)
}

fn validate(options: &mut Options) -> Result<(), String> {
    if options.check_file.is_none() {
        return Err("missing CHECKFILE".to_string());
    }
    if options.prefixes.is_empty() {
        options.prefixes.push("CHECK".to_string());
    }
    let mut seen = std::collections::HashSet::new();
    for prefix in &options.prefixes {
        if !is_valid_prefix(prefix) || !seen.insert(prefix.as_str()) {
            return Err(format!(
                "supplied check prefix '{prefix}' is invalid: prefixes must be unique, \
                 start with a letter and contain only letters, digits, '-' and '_'"
            ));
        }
    }
    if let Some(prefix) = options
        .prefixes
        .iter()
        .find(|p| COMMENT_PREFIXES.contains(&p.as_str()))
    {
        return Err(format!(
            "supplied check prefix '{prefix}' is also a comment prefix ({})",
            COMMENT_PREFIXES.join(", ")
        ));
    }
    Ok(())
}

fn run(options: &Options) -> Result<u8, String> {
    let check_name = options.check_file.as_deref().expect("validated");
    let check_text = std::fs::read_to_string(check_name)
        .map_err(|e| format!("cannot read check file '{check_name}': {e}"))?;
    let (input_name, input) = match options.input_file.as_deref() {
        None | Some("-") => {
            let mut input = String::new();
            std::io::stdin()
                .read_to_string(&mut input)
                .map_err(|e| format!("cannot read standard input: {e}"))?;
            ("<stdin>".to_string(), input)
        }
        Some(path) => {
            let input = std::fs::read_to_string(path)
                .map_err(|e| format!("cannot read input file '{path}': {e}"))?;
            (path.to_string(), input)
        }
    };
    if input.is_empty() && !options.allow_empty {
        return Err(format!("'{input_name}' is empty"));
    }
    let prefixes: Vec<&str> = options.prefixes.iter().map(String::as_str).collect();
    let mut file = CheckFile::parse(check_name, &check_text, &prefixes).map_err(|errors| {
        let shown: Vec<String> = errors.iter().map(|e| e.to_string()).collect();
        shown.join("\n")
    })?;
    file.allow_empty = options.allow_empty;
    match file.check(&input_name, &input) {
        Ok(()) => Ok(0),
        Err(failures) => {
            for failure in failures {
                eprintln!("{failure}");
            }
            Ok(1)
        }
    }
}

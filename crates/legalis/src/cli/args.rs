//! The `legalis` command line, parsed into a [`Command`] without touching
//! any file.
//!
//! Options are single-dash words as `slangc` spells them, so commands copied
//! from the reference compiler's tests read the same. Anything this build
//! cannot do is a usage error naming the problem, never a silent no-op.

use std::ffi::OsString;
use std::path::PathBuf;

use legalis_ir::ShaderStage;

use crate::Target;

/// What the command line asks for.
#[derive(Debug, PartialEq)]
pub enum Command {
    Help,
    Version,
    Compile(CompileArgs),
}

#[derive(Debug, Default, PartialEq)]
pub struct CompileArgs {
    pub input: PathBuf,
    pub entry: Option<String>,
    pub stage: Option<ShaderStage>,
    pub output: Option<PathBuf>,
    pub target: Option<Target>,
    pub dump_ir: bool,
    pub defines: Vec<(String, String)>,
    pub diagnostics: DiagnosticFormat,
    /// `-no-color`; the environment and the terminal decide the rest.
    pub no_color: bool,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum DiagnosticFormat {
    #[default]
    Human,
    /// `-enable-machine-readable-diagnostics`.
    Machine,
}

/// A command line that cannot be run; the message says why.
#[derive(Debug, PartialEq, Eq)]
pub struct UsageError(pub String);

impl std::fmt::Display for UsageError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

fn usage<T>(message: impl Into<String>) -> Result<T, UsageError> {
    Err(UsageError(message.into()))
}

pub const HELP: &str = "\
legalis: legalize a Slang/HLSL entry point and generate its code

Usage: legalis FILE [options]

Options:
  -target TARGET    generate code: glsl, spirv (binary), spirv-asm (text);
                    metal, wgsl, cuda are planned and refused for now
  -entry NAME       entry point (default: every [shader(\"...\")] function; a
                    target needs exactly one)
  -stage STAGE      stage of -entry: vertex fragment(pixel) compute hull domain
                    geometry mesh amplification raygeneration intersection
                    anyhit closesthit miss callable
  -D NAME[=VALUE]   define a macro (also -DNAME[=VALUE]; -DNAME defines it empty)
  -dump-ir          print the IR instead of code: as checked, or with
                    -target as legalized for it
  -o OUT            write the output (code or IR) to OUT instead of
                    standard output
  -enable-machine-readable-diagnostics
                    print diagnostics as tab-separated lines:
                    E<code> severity file line col end-line end-col message
  -no-color         no colour in diagnostics (so does the NO_COLOR variable)
  -h, -help         show this help
  -version          show the version

Without -target or -dump-ir, legalis only checks FILE and prints its
diagnostics.

Exit status: 0 success (warnings allowed), 1 compile error, 2 usage error.
";

/// Parses the arguments after the program name.
pub fn parse(args: impl IntoIterator<Item = OsString>) -> Result<Command, UsageError> {
    let mut parsed = CompileArgs::default();
    let mut input: Option<PathBuf> = None;
    let mut args = args.into_iter();
    let mut options_ended = false;
    while let Some(arg) = args.next() {
        let option = arg
            .to_str()
            .filter(|text| !options_ended && text.starts_with('-'));
        let Some(option) = option else {
            set_input(&mut input, arg)?;
            continue;
        };
        match option {
            "-h" | "-help" | "--help" => return Ok(Command::Help),
            "-version" | "--version" => return Ok(Command::Version),
            "--" => options_ended = true,
            _ => apply_option(&mut parsed, option, &mut args)?,
        }
    }
    let Some(input) = input else {
        return usage("missing input FILE");
    };
    if parsed.output.is_some() && !parsed.dump_ir && parsed.target.is_none() {
        return usage("-o needs -target or -dump-ir: there is no output to write");
    }
    Ok(Command::Compile(CompileArgs { input, ..parsed }))
}

fn apply_option(
    parsed: &mut CompileArgs,
    option: &str,
    rest: &mut impl Iterator<Item = OsString>,
) -> Result<(), UsageError> {
    match option {
        "-entry" => set_once(&mut parsed.entry, option, text_value(option, rest)?),
        "-stage" => {
            let stage = parse_stage(&text_value(option, rest)?)?;
            set_once(&mut parsed.stage, option, stage)
        }
        "-o" => {
            let path = PathBuf::from(value(option, rest)?);
            set_once(&mut parsed.output, option, path)
        }
        "-D" => {
            let define = parse_define(&text_value(option, rest)?)?;
            parsed.defines.push(define);
            Ok(())
        }
        "-dump-ir" => {
            parsed.dump_ir = true;
            Ok(())
        }
        "-enable-machine-readable-diagnostics" => {
            parsed.diagnostics = DiagnosticFormat::Machine;
            Ok(())
        }
        "-no-color" => {
            parsed.no_color = true;
            Ok(())
        }
        "-target" => {
            let target = parse_target(&text_value(option, rest)?)?;
            set_once(&mut parsed.target, option, target)
        }
        _ => match option.strip_prefix("-D") {
            Some(define) => {
                parsed.defines.push(parse_define(define)?);
                Ok(())
            }
            None => usage(format!("unknown option {option}")),
        },
    }
}

fn set_input(input: &mut Option<PathBuf>, arg: OsString) -> Result<(), UsageError> {
    if let Some(first) = input {
        return usage(format!(
            "two input files, {} and {}: legalis compiles one file",
            first.display(),
            PathBuf::from(arg).display()
        ));
    }
    *input = Some(PathBuf::from(arg));
    Ok(())
}

/// Options that name one thing may appear once: a second `-entry` would
/// otherwise silently win.
fn set_once<T>(slot: &mut Option<T>, option: &str, value: T) -> Result<(), UsageError> {
    if slot.is_some() {
        return usage(format!("{option} given twice"));
    }
    *slot = Some(value);
    Ok(())
}

fn value(option: &str, rest: &mut impl Iterator<Item = OsString>) -> Result<OsString, UsageError> {
    match rest.next() {
        Some(value) => Ok(value),
        None => usage(format!("{option} needs a value")),
    }
}

fn text_value(
    option: &str,
    rest: &mut impl Iterator<Item = OsString>,
) -> Result<String, UsageError> {
    value(option, rest)?
        .into_string()
        .or_else(|_| usage(format!("the value of {option} is not valid UTF-8")))
}

fn parse_stage(name: &str) -> Result<ShaderStage, UsageError> {
    ShaderStage::from_name(name).map_or_else(
        || {
            usage(format!(
                "unknown stage '{name}'; valid stages: {}",
                stage_list()
            ))
        },
        Ok,
    )
}

fn parse_target(name: &str) -> Result<Target, UsageError> {
    let implemented: Vec<&str> = Target::ALL
        .iter()
        .filter(|t| t.is_implemented())
        .map(|t| t.name())
        .collect();
    match Target::from_name(name) {
        Some(target) if target.is_implemented() => Ok(target),
        Some(_) => usage(format!(
            "-target {name} is not implemented yet; implemented targets: {}",
            implemented.join(" ")
        )),
        None => {
            let all: Vec<&str> = Target::ALL.iter().map(|t| t.name()).collect();
            usage(format!(
                "unknown target '{name}'; targets: {} (implemented: {})",
                all.join(" "),
                implemented.join(" ")
            ))
        }
    }
}

/// The stage names for messages, with `pixel`, the alias HLSL users type.
fn stage_list() -> String {
    let names: Vec<&str> = ShaderStage::ALL
        .iter()
        .map(|stage| match stage {
            ShaderStage::Fragment => "fragment(pixel)",
            other => other.name(),
        })
        .collect();
    names.join(" ")
}

/// `NAME` or `NAME=VALUE`; a bare name is defined empty, as `slangc` does.
fn parse_define(define: &str) -> Result<(String, String), UsageError> {
    let (name, value) = define.split_once('=').unwrap_or((define, ""));
    let mut chars = name.chars();
    let starts_well = chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_');
    if !starts_well || !chars.all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return usage(format!("-D{define}: '{name}' is not a macro name"));
    }
    Ok((name.to_string(), value.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_line(line: &str) -> Result<Command, UsageError> {
        parse(line.split_whitespace().map(OsString::from))
    }

    fn compile_args(line: &str) -> CompileArgs {
        match parse_line(line) {
            Ok(Command::Compile(args)) => args,
            other => panic!("{line}: {other:?}"),
        }
    }

    fn error(line: &str) -> String {
        match parse_line(line) {
            Err(UsageError(message)) => message,
            other => panic!("{line}: expected a usage error, got {other:?}"),
        }
    }

    #[test]
    fn full_command_line() {
        let args = compile_args(
            "f.slang -entry main -stage pixel -DA=1 -D B -dump-ir -o out.ir \
             -enable-machine-readable-diagnostics -no-color",
        );
        assert_eq!(
            args,
            CompileArgs {
                input: "f.slang".into(),
                entry: Some("main".into()),
                stage: Some(ShaderStage::Fragment),
                output: Some("out.ir".into()),
                target: None,
                dump_ir: true,
                defines: vec![("A".into(), "1".into()), ("B".into(), String::new())],
                diagnostics: DiagnosticFormat::Machine,
                no_color: true,
            }
        );
    }

    #[test]
    fn help_and_version_win_over_everything_else() {
        assert_eq!(parse_line("f.slang -help"), Ok(Command::Help));
        assert_eq!(parse_line("-h"), Ok(Command::Help));
        assert_eq!(parse_line("--help -bogus"), Ok(Command::Help));
        assert_eq!(parse_line("-version"), Ok(Command::Version));
        assert_eq!(parse_line("--version"), Ok(Command::Version));
    }

    #[test]
    fn usage_errors_say_what_is_wrong() {
        assert_eq!(error("f.slang -bogus"), "unknown option -bogus");
        assert_eq!(error("-entry main"), "missing input FILE");
        assert_eq!(error("f.slang -entry"), "-entry needs a value");
        assert_eq!(error("f.slang -o"), "-o needs a value");
        assert_eq!(error("f.slang -D"), "-D needs a value");
        assert_eq!(
            error("a.slang b.slang"),
            "two input files, a.slang and b.slang: legalis compiles one file"
        );
        assert_eq!(error("f.slang -entry a -entry b"), "-entry given twice");
        assert_eq!(error("f.slang -D=1"), "-D=1: '' is not a macro name");
        assert_eq!(error("f.slang -D1X"), "-D1X: '1X' is not a macro name");
        assert!(error("f.slang -o out.ir").starts_with("-o needs -target or -dump-ir"));
    }

    #[test]
    fn targets_implemented_planned_and_unknown() {
        assert_eq!(
            compile_args("f.slang -target glsl -o out.glsl").target,
            Some(Target::Glsl)
        );
        assert_eq!(
            compile_args("f.slang -target spirv-asm").target,
            Some(Target::SpirvAsm)
        );
        assert_eq!(
            error("f.slang -target wgsl"),
            "-target wgsl is not implemented yet; implemented targets: glsl spirv spirv-asm"
        );
        assert_eq!(
            error("f.slang -target hlsl"),
            "unknown target 'hlsl'; targets: glsl spirv spirv-asm metal wgsl cuda (implemented: glsl spirv spirv-asm)"
        );
        assert_eq!(
            error("f.slang -target glsl -target glsl"),
            "-target given twice"
        );
    }

    #[test]
    fn unknown_stage_lists_every_stage() {
        let message = error("f.slang -stage vertx");
        assert!(
            message.starts_with("unknown stage 'vertx'; valid stages: "),
            "{message}"
        );
        for stage in ShaderStage::ALL {
            assert!(message.contains(stage.name()), "{message}");
        }
        assert!(message.contains("fragment(pixel)"), "{message}");
    }

    #[test]
    fn double_dash_ends_options() {
        assert_eq!(
            compile_args("-- -odd.slang").input,
            PathBuf::from("-odd.slang")
        );
    }

    #[test]
    fn help_mentions_every_option() {
        for option in [
            "-entry",
            "-stage",
            "-D",
            "-dump-ir",
            "-o",
            "-no-color",
            "-help",
            "-version",
            "-enable-machine-readable-diagnostics",
            "-target",
        ] {
            assert!(HELP.contains(option), "{option}");
        }
    }
}

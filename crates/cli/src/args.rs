//! The `legalis` command line, parsed into a [`Command`] without touching
//! any file.
//!
//! Options are single-dash words as `slangc` spells them, so commands copied
//! from the reference compiler's tests read the same. Anything this build
//! cannot do is a usage error naming the problem, never a silent no-op: a
//! `slangc` option Legalis does not implement is refused by name
//! ([`SLANGC_ONLY`]), not ignored.

use std::ffi::OsString;
use std::path::PathBuf;

use legalis::ir::{DebugLevel, OptimizationLevel, Policy, ShaderStage, VertexIdBase};

use legalis::Target;
use legalis::ir::diag::Diagnostic;

/// What the command line asks for.
#[derive(Debug, PartialEq)]
pub enum Command {
    /// `-help`, `--help`, `-h`: print [`HELP`].
    Help,
    /// `-version`, `--version`: print the version.
    Version,
    /// Compile (or link) a file.
    Compile(Box<CompileArgs>),
}

/// A compile command's options, as parsed.
#[derive(Debug, Default, PartialEq)]
pub struct CompileArgs {
    /// The input file; `-` is standard input.
    pub input: PathBuf,
    /// The first `-entry`.
    pub entry: Option<String>,
    /// The entry points after the first when `-entry` is given several
    /// times: the stages of one pipeline, legalized together (linking).
    pub linked: Vec<String>,
    /// The `-stage` given after each of `linked`, if any.
    pub linked_stages: Vec<Option<ShaderStage>>,
    /// The `-stage` given for the first `-entry` (or without `-entry`).
    pub stage: Option<ShaderStage>,
    /// `-o OUT`; `None` without `-o` and with `-o -`.
    pub output: Option<PathBuf>,
    /// `-o -`: the output goes to standard output, as without `-o`.
    pub output_to_stdout: bool,
    /// `-target`; `None` checks only.
    pub target: Option<Target>,
    /// `-dump-ir`: print the IR (after legalization with a target).
    pub dump_ir: bool,
    /// `--trace-legalization[=text|json]`.
    pub trace: Option<legalis::trace::TraceFormat>,
    /// `-D NAME[=VALUE]`, in order.
    pub defines: Vec<(String, String)>,
    /// How diagnostics are rendered.
    pub diagnostics: DiagnosticFormat,
    /// `-no-color`; the environment and the terminal decide the rest.
    pub no_color: bool,
    /// `-force-color`: colour even when standard error is no terminal.
    pub force_color: bool,
    /// The API-convention options (`-fvk-invert-y`, `-O2`, `-g0`, ...).
    pub policy: Policy,
    /// `-fvk-<class>-shift N SPACE` and `-fvk-bind-globals N SET`.
    pub bindings: legalis::bind::Options,
    /// `-dump-bindings[=text|json]`.
    pub dump_bindings: Option<legalis::trace::TraceFormat>,
    /// `-warnings-disable CODE[,CODE...]`: warnings with these codes are
    /// not printed.
    pub disabled_warnings: Vec<u32>,
    /// The stage a `-profile` names (`vs_6_0`); it is the stage when
    /// `-stage` is not given and must agree with it when it is.
    pub profile_stage: Option<ShaderStage>,
    /// `-allow-glsl`: GLSL type names and functions in the source.
    pub allow_glsl: bool,
    /// `-conformance TYPE:IFACE[=N]`: the tag of `TYPE` in values of
    /// interface type `IFACE`.
    pub conformances: Vec<legalis::Conformance>,
    /// The options given whose effect depends on the target
    /// ([`TARGET_OPTIONS`]), in command-line order, for
    /// [`options_without_effect`].
    pub target_options: Vec<GivenOption>,
}

/// An option of [`TARGET_OPTIONS`] as the command line gave it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GivenOption {
    /// Its [`TargetOption::name`].
    pub name: &'static str,
    /// As written: `-force-glsl-scalar-layout`, `-profile glsl_460`.
    pub written: String,
}

/// How diagnostics are rendered on standard error.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum DiagnosticFormat {
    /// rustc-like text with source excerpts (`legalis::render::render_human`).
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

/// The text `-help` prints.
pub const HELP: &str = "\
legalis: legalize a Slang/HLSL entry point and generate its code

Usage: legalis FILE [options]

FILE is the Slang or HLSL source; `-` reads it from standard input
(diagnostics call it <stdin>; ./- names a file called -).

Options:
  -target TARGET    generate code: glsl, spirv (binary), spirv-asm (text;
                    also spirv-assembly, the reference's name),
                    wgsl, wgsl-spirv-asm (the SPIR-V assembly naga's
                    SPIR-V writer makes of the WGSL, validated; E00009
                    where naga cannot make it valid), metal (vertex,
                    fragment, compute, object and
                    mesh), cuda (compute kernels and OptiX programs; the
                    output includes the prelude legalis_cuda.cuh, which
                    legalis::cuda_prelude() returns)
  -entry NAME       entry point (default: every [shader(\"...\")] function:
                    spirv and spirv-asm write them all into one module,
                    one OpEntryPoint each, wgsl into one WGSL module, one
                    entry function each, cuda a file's OptiX programs into
                    one translation unit; other targets need exactly
                    one). Given several times with
                    -target, the entry points are the stages of one
                    pipeline, legalized together (linking): each stage's
                    inputs take the locations (metal: the user(NAME)
                    names) the previous stage writes, keyed by semantic,
                    and every disagreement is an error naming both sides;
                    the codes follow one another on standard output under
                    a `legalis link` header line, or go to -o FOLDER as
                    ENTRY.glsl / .spv / .spvasm / .wgsl / .metal (cuda
                    cannot link, E00012); entry points that are not one
                    pipeline (two of one stage, compute, ray tracing) go
                    into one module
  -stage STAGE      stage of -entry: vertex fragment compute hull domain
                    geometry mesh amplification raygeneration intersection
                    anyhit closesthit miss callable, in any case, or an
                    alias: pixel (fragment), task (amplification),
                    raygen (raygeneration), tesscontrol (hull), tesseval
                    and tessevaluation (domain); after a second or later
                    -entry, that entry point's stage
  -D NAME[=VALUE]   define a macro (also -DNAME[=VALUE]; -DNAME defines it empty)
  -dump-ir          print the IR instead of code: as checked, or with
                    -target as legalized for it
  --trace-legalization[=text|json]
                    print the legalization plan instead of code (needs
                    -target): where each parameter and result leaf went,
                    its type adapter and why, and the interface variables
                    the legalizer made; json follows the schema
                    legalis-trace/1 (docs/design/trace.md)
  -dump-bindings[=text|json]
                    print the binding plan instead of code (needs
                    -target): every resource (textures, samplers, buffers,
                    constant buffers, acceleration structures, the
                    _Globals block of plain uniforms), its binding on the
                    target (set and binding, @group/@binding, [[buffer(n)]]
                    and friends, CUDA kernel parameter or LaunchParams
                    member) and why; json follows the schema
                    legalis-bindings/1 (docs/design/bindings.md)
  -o OUT            write the output (code or IR) to OUT instead of
                    standard output, whole or not at all (a new file
                    renamed into place; through a symbolic link, the file
                    it names); a pipe, terminal or device (/dev/stdout,
                    /dev/null, a FIFO) is written in place, never replaced;
                    -o - is standard output, as without -o (a linked
                    pipeline's codes under their header lines)
  -enable-machine-readable-diagnostics
                    print diagnostics as tab-separated lines, one per
                    diagnostic:
                      E<code> error|warning FILE LINE COL END-LINE END-COL MESSAGE
                    then one per span it marks, the primary span first:
                      E<code> span FILE LINE COL END-LINE END-COL LABEL
                    (LABEL the span's own message, or else MESSAGE); lines
                    and columns count from 1, columns in characters, the
                    end just past the span; without a location FILE is
                    empty and the numbers 0; notes are not printed
  -no-color         no colour in diagnostics (so do the NO_COLOR variable
                    and TERM=dumb); it wins over -force-color
  -force-color      colour in diagnostics even when standard error is not a
                    terminal (CI logs); Legalis's own option
  -h, -help, --help show this help
  -v, -version, --version
                    show the version

API conventions (the same on every target):
  -fvk-invert-y     negate SV_Position.y after an output writes it
  -fvk-use-dx-position-w
                    a fragment SV_Position input's w is 1.0 / gl_FragCoord.w
  -fvk-use-entrypoint-name
                    name the SPIR-V OpEntryPoint after the source entry
                    point instead of main (GLSL's is always main)
  -fvk-use-scalar-layout, -force-glsl-scalar-layout
                    glsl, spirv: constant buffers, storage buffers and
                    pointees follow Vulkan's scalar block layout
                    (GLSL layout(scalar); needs scalarBlockLayout)
  -fvk-use-c-layout spirv: the same buffers follow the C struct rules
                    (scalar, with a struct's size rounded up to its
                    alignment); a warning on other targets
  -fvk-t-shift N SPACE, -fvk-s-shift N SPACE, -fvk-u-shift N SPACE,
  -fvk-b-shift N SPACE
                    glsl, spirv, wgsl: a resource with register(xK, spaceS)
                    and no [[vk::binding]] gets set S, binding K + N when S
                    is SPACE (a number, or all for every space); given
                    again for one class and space, the last one wins
  -fvk-bind-globals N SET
                    glsl, spirv, wgsl: the _Globals block of plain uniforms
                    at set SET, binding N
  -fvk-raw-vertex-id
                    SV_VertexID and SV_InstanceID are gl_VertexIndex and
                    gl_InstanceIndex as they are, without subtracting
                    gl_BaseVertex and gl_BaseInstance (legalis's own option)
  -fvk-widen-16bit-varyings
                    glsl, spirv, wgsl: 16-bit scalar and vector varyings
                    travel as 32-bit ones, converted where the entry point
                    reads and writes them, so the module needs no 16-bit
                    inputs and outputs (storageInputOutput16; on WGSL
                    `half` varyings are `f32` locations instead of `f16`
                    ones); 16-bit matrices and arrays are refused
                    (legalis's own option)
  -emit-spirv-via-glsl
                    spirv, spirv-asm: glslang compiles legalis's GLSL
                    (SPIR-V 1.6) instead of the SPIR-V writer
  -emit-spirv-directly
                    spirv, spirv-asm: the SPIR-V writer (the default)
  -preserve-params  glsl, spirv, wgsl: every resource, constant buffer and
                    plain uniform the file declares stays in the output,
                    used or not (metal, cuda: no effect, an entry point
                    takes what it uses)
  -O0 .. -O3        optimization level (also -Onone -Odefault -Ohigh
                    -Omaximal): accepted, changes nothing yet
  -g, -g0 .. -g3    debug level (also -gnone -gminimal -gstandard -gmaximal):
                    -g0 drops OpName and OpMemberName from SPIR-V; the other
                    levels change nothing yet; a debug-information format
                    (-gdwarf -gpdb -gc7 -gstabs -gcoff -gdefault-format)
                    sets no level and changes nothing

Profiles and capabilities:
  -profile NAME[+CAPABILITY...]
                    glsl_NNN: write at least #version NNN (glsl, and
                    spirv through -emit-spirv-via-glsl; Vulkan GLSL starts
                    at 450, so below that it is 450); spirv_1_N: declare at
                    least SPIR-V 1.N (N = 0..6; the direct writer); vs_X_Y
                    ps_ gs_ hs_ ds_ cs_ as_ ms_: the stage, as -stage
                    (they must agree); sm_X_Y, lib_X_Y: no effect (legalis
                    gates no feature by shader model); +CAPABILITY as
                    -capability
  -capability NAME  accepted: legalis does not restrict the features it
                    uses by capability; spvBindlessTextureNV and
                    spvDescriptorHeapEXT, which change what a
                    DescriptorHandle is, make SPIR-V refuse a handle read
                    as its resource (E56101)

Language:
  -conformance TYPE:IFACE[=N]
                    a value of interface type IFACE (dynamic dispatch)
                    tags struct TYPE with N; without =N, or for a struct
                    not named, tags follow declaration order
  -allow-glsl       also read GLSL spellings, as the reference's GLSL
                    mode does: type names (vec4, ivec2, mat3, sampler2D,
                    usampler2DMS ...) and the functions texelFetch,
                    texelFetchOffset, texture, textureLod, mix, fract,
                    inversesqrt and dFdx/dFdy (Fine, Coarse); GLSL
                    declarations (buffer blocks, layout qualifiers) are
                    not read

Diagnostics:
  -warnings-disable CODE[,CODE...]
                    do not print warnings with these codes (E31000 or
                    31000); errors are always printed

slangc options accepted with no effect here:
  -lang slang|hlsl  legalis reads one language, Slang with HLSL's syntax
                    (another language is refused)
  -skip-spirv-validation
                    legalis does not run the SPIR-V validator on its output
  -enable-experimental-passes, -whole-program, -minimum-slang-optimization
                    the reference's optimiser and linking; legalis always
                    compiles the whole file
  -restrictive-capability-check
                    the reference's capability checks; legalis has none
  -line-directive-mode MODE
                    legalis writes no #line directives
  -obfuscate        the reference strips source-file information; legalis
                    writes none (no #line, OpSource, OpString or OpLine)
  -spirv-resource-heap-stride N, -spirv-sampler-heap-stride N
                    the strides of SPIR-V descriptor heaps; legalis writes
                    no spvDescriptorHeapEXT heap (DescriptorHandle uses
                    the default descriptor-heap arrays)

Other slangc options are refused by name as not supported.

An option that changes nothing on the chosen -target (-fvk-t-shift with
-target metal, -emit-spirv-via-glsl with -target cuda, -fvk-invert-y with
-target cuda, ...) is warning E00010 naming the option and the target.

Without -target or -dump-ir, legalis only checks FILE and prints its
diagnostics.

Exit status: 0 success (warnings allowed), 1 compile error, 2 usage error.
When standard output is a pipe closed early (legalis ... | head -1), the
rest of the output is dropped quietly and the status is the compile's.
";

/// Parses the arguments after the program name.
pub fn parse(args: impl IntoIterator<Item = OsString>) -> Result<Command, UsageError> {
    let mut parsed = CompileArgs::default();
    let mut input: Option<PathBuf> = None;
    let mut args = args.into_iter();
    let mut options_ended = false;
    while let Some(arg) = args.next() {
        // `-` alone is an input: standard input.
        let option = arg
            .to_str()
            .filter(|text| !options_ended && text.starts_with('-') && *text != "-");
        let Some(option) = option else {
            set_input(&mut input, arg)?;
            continue;
        };
        match option {
            "-h" | "-help" | "--help" => return Ok(Command::Help),
            "-v" | "-version" | "--version" => return Ok(Command::Version),
            "--" => options_ended = true,
            _ => apply_option(&mut parsed, option, &mut args)?,
        }
    }
    let Some(input) = input else {
        return usage("missing input FILE");
    };
    match (parsed.stage, parsed.profile_stage) {
        (Some(stage), Some(profiled)) if stage != profiled => {
            return usage(format!(
                "-stage {} and the -profile's stage {} disagree",
                stage.name(),
                profiled.name()
            ));
        }
        (None, profiled) => parsed.stage = profiled,
        _ => {}
    }
    if !parsed.linked.is_empty() {
        if parsed.target.is_none() {
            return usage(
                "several -entry need -target: they are linked as one pipeline or written into one module",
            );
        }
        if parsed.dump_ir {
            return usage("-dump-ir shows one entry point; it cannot be used with several -entry");
        }
    }
    if parsed.trace.is_some() && parsed.target.is_none() {
        return usage("--trace-legalization needs -target: it traces one target's legalization");
    }
    if parsed.dump_bindings.is_some() {
        if parsed.target.is_none() {
            return usage("-dump-bindings needs -target: bindings differ per target");
        }
        if parsed.trace.is_some() || parsed.dump_ir {
            return usage(
                "-dump-bindings, --trace-legalization and -dump-ir all replace the output: choose one",
            );
        }
        if !parsed.linked.is_empty() {
            return usage(
                "-dump-bindings shows one entry point; it cannot be used with several -entry",
            );
        }
    }
    if parsed.trace.is_some() && parsed.dump_ir {
        return usage("--trace-legalization and -dump-ir both replace the output: choose one");
    }
    let output = parsed.output.is_some() || parsed.output_to_stdout;
    if output && !parsed.dump_ir && parsed.target.is_none() {
        return usage("-o needs -target or -dump-ir: there is no output to write");
    }
    Ok(Command::Compile(Box::new(CompileArgs { input, ..parsed })))
}

/// Applies one option, and notes it when its effect depends on the target.
fn apply_option(
    parsed: &mut CompileArgs,
    option: &str,
    rest: &mut impl Iterator<Item = OsString>,
) -> Result<(), UsageError> {
    apply_one_option(parsed, option, rest)?;
    if let Some(entry) = TARGET_OPTIONS
        .iter()
        .find(|e| e.spellings.contains(&option))
    {
        note_target_option(parsed, entry.name, option);
    }
    Ok(())
}

/// Notes an option of [`TARGET_OPTIONS`] (each written form once).
fn note_target_option(parsed: &mut CompileArgs, name: &'static str, written: &str) {
    if !parsed
        .target_options
        .iter()
        .any(|g| g.name == name && g.written == written)
    {
        parsed.target_options.push(GivenOption {
            name,
            written: written.to_string(),
        });
    }
}

fn apply_one_option(
    parsed: &mut CompileArgs,
    option: &str,
    rest: &mut impl Iterator<Item = OsString>,
) -> Result<(), UsageError> {
    match option {
        "-entry" => {
            let name = text_value(option, rest)?;
            match &parsed.entry {
                Some(first) if first == &name || parsed.linked.contains(&name) => {
                    usage(format!("-entry {name} is given twice"))
                }
                Some(_) => {
                    parsed.linked.push(name);
                    parsed.linked_stages.push(None);
                    Ok(())
                }
                None => {
                    parsed.entry = Some(name);
                    Ok(())
                }
            }
        }
        "-stage" => {
            let stage = parse_stage(&text_value(option, rest)?)?;
            // A `-stage` after the second or a later `-entry` is that one's.
            match parsed.linked_stages.last_mut() {
                Some(slot) => set_once(slot, option, stage),
                None => set_once(&mut parsed.stage, option, stage),
            }
        }
        "-o" => {
            let path = value(option, rest)?;
            if parsed.output.is_some() || parsed.output_to_stdout {
                return usage("-o given twice");
            }
            // `-o -` is standard output, as the reference reads it.
            match path.to_str() {
                Some("-") => parsed.output_to_stdout = true,
                _ => parsed.output = Some(PathBuf::from(path)),
            }
            Ok(())
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
        "--trace-legalization" | "-trace-legalization" => {
            set_once(&mut parsed.trace, option, legalis::trace::TraceFormat::Text)
        }
        _ if option.starts_with("--trace-legalization=")
            || option.starts_with("-trace-legalization=") =>
        {
            let (name, form) = option.split_once('=').unwrap_or((option, ""));
            match legalis::trace::TraceFormat::from_name(form) {
                Some(format) => set_once(&mut parsed.trace, name, format),
                None => usage(format!("{name} takes `text` or `json`, not `{form}`")),
            }
        }
        "-dump-bindings" => set_once(
            &mut parsed.dump_bindings,
            option,
            legalis::trace::TraceFormat::Text,
        ),
        _ if option.starts_with("-dump-bindings=") => {
            let (name, form) = option.split_once('=').unwrap_or((option, ""));
            match legalis::trace::TraceFormat::from_name(form) {
                Some(format) => set_once(&mut parsed.dump_bindings, name, format),
                None => usage(format!("{name} takes `text` or `json`, not `{form}`")),
            }
        }
        "-fvk-bind-globals" => {
            let binding = number(option, rest)?;
            let set = number(option, rest)?;
            set_once(&mut parsed.bindings.bind_globals, option, (binding, set))
        }
        _ if shift_class(option).is_some() => {
            let class = shift_class(option).unwrap_or(legalis::ir::RegisterClass::T);
            let amount = number(option, rest)?;
            let space = match text_value(option, rest)?.as_str() {
                "all" => None,
                text => Some(text.parse::<u32>().or_else(|_| {
                    usage(format!(
                        "{option} N SPACE: SPACE is a number or `all`, not `{text}`"
                    ))
                })?),
            };
            parsed.bindings.shifts.push(legalis::bind::Shift {
                class,
                space,
                amount,
            });
            Ok(())
        }
        "-allow-glsl" => {
            parsed.allow_glsl = true;
            Ok(())
        }
        "-conformance" => {
            let text = text_value(option, rest)?;
            parsed.conformances.push(parse_conformance(&text)?);
            Ok(())
        }
        "-warnings-disable" => {
            let list = text_value(option, rest)?;
            for code in list.split(',').map(str::trim).filter(|c| !c.is_empty()) {
                let digits = code.strip_prefix(['E', 'e']).unwrap_or(code);
                match digits.parse::<u32>() {
                    Ok(number) if digits.len() <= 5 => parsed.disabled_warnings.push(number),
                    _ => {
                        return usage(format!(
                            "-warnings-disable takes diagnostic codes separated by commas \
                             (E31000 or 31000), not `{code}`"
                        ));
                    }
                }
            }
            Ok(())
        }
        "-lang" => match text_value(option, rest)?.as_str() {
            // Legalis reads one language, Slang with HLSL's syntax.
            "slang" | "hlsl" => Ok(()),
            other => usage(format!(
                "-lang {other}: legalis reads Slang and HLSL source only (-lang slang or hlsl)"
            )),
        },
        "-profile" => {
            let text = text_value(option, rest)?;
            apply_profile(parsed, &text)
        }
        // Legalis does not restrict the features it uses by capability, so
        // declaring that the target has more changes nothing, except for
        // the two that change what a `DescriptorHandle` is in SPIR-V.
        "-capability" => {
            let name = text_value(option, rest)?;
            note_capability(parsed, &name, &format!("-capability {name}"));
            Ok(())
        }
        // The strides of the SPIR-V descriptor heaps (spvDescriptorHeapEXT,
        // reached through `DescriptorHandle<T>`): Legalis writes no
        // descriptor heap, so there is no stride to set. The value is still
        // checked. When Legalis writes heaps, this option must set their
        // `ArrayStride`.
        "-spirv-resource-heap-stride" | "-spirv-sampler-heap-stride" => {
            number(option, rest).map(drop)
        }
        _ if NO_EFFECT.contains(&option) => Ok(()),
        _ if NO_EFFECT_WITH_VALUE.contains(&option) => text_value(option, rest).map(drop),
        "-enable-machine-readable-diagnostics" => {
            parsed.diagnostics = DiagnosticFormat::Machine;
            Ok(())
        }
        "-no-color" => {
            parsed.no_color = true;
            Ok(())
        }
        "-force-color" => {
            parsed.force_color = true;
            Ok(())
        }
        "-target" => {
            let target = parse_target(&text_value(option, rest)?)?;
            set_once(&mut parsed.target, option, target)
        }
        _ => apply_policy_option(&mut parsed.policy, option).unwrap_or_else(|| {
            match option.strip_prefix("-D") {
                Some(define) => {
                    parsed.defines.push(parse_define(define)?);
                    Ok(())
                }
                None if is_slangc_option(option) => usage(format!(
                    "{option} is a slangc option that legalis does not support"
                )),
                None if option.starts_with("-fvk-") => usage(format!(
                    "unknown option {option}; the -fvk- options legalis supports: {FVK_OPTIONS}"
                )),
                None => usage(format!("unknown option {option}")),
            }
        }),
    }
}

/// The [`Policy`] options; `None` when `option` is not one of them.
fn apply_policy_option(policy: &mut Policy, option: &str) -> Option<Result<(), UsageError>> {
    match option {
        "-fvk-invert-y" => policy.invert_y = true,
        "-fvk-use-dx-position-w" => policy.dx_position_w = true,
        "-fvk-use-entrypoint-name" => policy.use_entry_point_name = true,
        "-fvk-raw-vertex-id" => policy.vertex_ids = VertexIdBase::Raw,
        "-fvk-widen-16bit-varyings" => policy.widen_16bit_varyings = true,
        "-emit-spirv-via-glsl" => policy.spirv_via_glsl = true,
        "-emit-spirv-directly" => policy.spirv_via_glsl = false,
        "-preserve-params" => policy.preserve_params = true,
        "-fvk-use-scalar-layout" | "-force-glsl-scalar-layout" => {
            policy.buffer_layout = legalis::ir::BufferLayout::Scalar;
        }
        "-fvk-use-c-layout" => policy.buffer_layout = legalis::ir::BufferLayout::C,
        _ if SLANGC_ONLY.contains(&option) => return None,
        _ => {
            if let Some(level) = option.strip_prefix("-O") {
                let level = parse_optimization(option, level);
                return Some(level.and_then(|l| set_once(&mut policy.optimization, "-O", l)));
            }
            if let Some(level) = option.strip_prefix("-g") {
                // A debug-information format (`-gdwarf`) sets no level, in
                // `slangc` too; Legalis's targets have one form of debug
                // information each, so it changes nothing.
                if DEBUG_FORMATS.contains(&level) {
                    return Some(Ok(()));
                }
                let level = parse_debug(option, level);
                return Some(level.and_then(|l| set_once(&mut policy.debug, "-g", l)));
            }
            return None;
        }
    }
    Some(Ok(()))
}

/// `-O0`..`-O3` and their names, as `slangc` spells them.
fn parse_optimization(option: &str, level: &str) -> Result<OptimizationLevel, UsageError> {
    Ok(match level {
        "0" | "none" => OptimizationLevel::None,
        "1" | "default" => OptimizationLevel::Default,
        "2" | "high" => OptimizationLevel::High,
        "3" | "maximal" => OptimizationLevel::Maximal,
        "" => return usage("-O needs a level: -O0, -O1, -O2 or -O3"),
        _ => {
            return usage(format!(
                "unknown optimization level {option}; levels: 0 (none), 1 (default), 2 (high), 3 (maximal)"
            ));
        }
    })
}

/// `slangc`'s debug-information formats (`-gdwarf`, `-gpdb`, ...): they
/// choose the format of CPU targets' debug information and set no level;
/// accepted with no effect.
pub const DEBUG_FORMATS: &[&str] = &["default-format", "c7", "pdb", "stabs", "coff", "dwarf"];

/// `-g`, `-g0`..`-g3` and their names.
fn parse_debug(option: &str, level: &str) -> Result<DebugLevel, UsageError> {
    Ok(match level {
        "0" | "none" => DebugLevel::None,
        "1" | "minimal" => DebugLevel::Minimal,
        "" | "2" | "standard" => DebugLevel::Standard,
        "3" | "maximal" => DebugLevel::Maximal,
        _ => {
            return usage(format!(
                "unknown debug level {option}; levels: 0 (none), 1 (minimal), 2 (standard), \
                 3 (maximal); formats (no effect): -gdwarf -gpdb -gc7 -gstabs -gcoff \
                 -gdefault-format"
            ));
        }
    })
}

/// `-profile NAME[+CAPABILITY...]`, as `slangc` spells it: `glsl_NNN` sets
/// the lowest GLSL `#version`, `spirv_1_N` the lowest SPIR-V version, a
/// stage profile (`vs_6_0`, `ps_5_0`, `cs_6_6`, ...) the stage, `sm_X_Y`
/// and `lib_X_Y` (shader models: Legalis gates no feature by them) nothing;
/// `+` capabilities are accepted, as `-capability` is.
fn apply_profile(parsed: &mut CompileArgs, text: &str) -> Result<(), UsageError> {
    let mut parts = text.split('+');
    let name = parts.next().unwrap_or(text);
    // How a warning names one part: the option itself, or the part of it.
    let written = |part: &str| match text.contains('+') {
        true => format!("{part} of -profile {text}"),
        false => format!("-profile {text}"),
    };
    match profile_part(parsed, name, &written(name)) {
        Some(applied) => applied?,
        None => {
            return usage(format!(
                "unknown profile {name}; legalis reads glsl_NNN, spirv_1_N, sm_X_Y, lib_X_Y \
                 and the stage profiles vs ps gs hs ds cs as ms _X_Y (each may add \
                 +CAPABILITY or +PROFILE)"
            ));
        }
    }
    // `glsl_450+spirv_1_4`: a part that names a profile applies it; any
    // other is a capability.
    for part in parts {
        match profile_part(parsed, part, &written(part)) {
            Some(applied) => applied?,
            None => note_capability(parsed, part, &written(part)),
        }
    }
    Ok(())
}

/// A capability named by `-capability` or a profile's `+`: recorded when it
/// changes what a `DescriptorHandle` is in SPIR-V (the writer refuses such
/// handles), accepted with no effect otherwise. `written` is the option
/// that named it, for [`options_without_effect`].
fn note_capability(parsed: &mut CompileArgs, name: &str, written: &str) {
    if let Some(cap) = legalis::ir::HandleCapability::from_name(name) {
        parsed.policy.handle_capability = Some(cap);
        note_target_option(parsed, HANDLE_CAPABILITY, written);
    }
}

/// One profile name applied; `None` when `name` is not a profile.
/// `written` is the whole `-profile` option, for
/// [`options_without_effect`].
fn profile_part(
    parsed: &mut CompileArgs,
    name: &str,
    written: &str,
) -> Option<Result<(), UsageError>> {
    let version = |rest: &str| -> Option<(u32, u32)> {
        let (major, minor) = rest.split_once('_')?;
        Some((major.parse().ok()?, minor.parse().ok()?))
    };
    if let Some(number) = name.strip_prefix("glsl_") {
        let number = number.parse::<u32>().ok()?;
        note_target_option(parsed, GLSL_PROFILE, written);
        return Some(set_once(
            &mut parsed.policy.glsl_version,
            "-profile glsl_",
            number,
        ));
    }
    if let Some(rest) = name.strip_prefix("spirv_") {
        let version = version(rest)?;
        note_target_option(parsed, SPIRV_PROFILE, written);
        return Some(match version {
            (1, minor @ 0..=6) => set_once(
                &mut parsed.policy.spirv_version,
                "-profile spirv_",
                (1, minor as u8),
            ),
            _ => usage(format!(
                "-profile {name}: legalis writes SPIR-V 1.0 to 1.6 (spirv_1_0 .. spirv_1_6)"
            )),
        });
    }
    let (prefix, rest) = name.split_once('_')?;
    version(rest)?;
    let stage = match prefix {
        "sm" | "lib" => return Some(Ok(())),
        "vs" => ShaderStage::Vertex,
        "ps" => ShaderStage::Fragment,
        "gs" => ShaderStage::Geometry,
        "hs" => ShaderStage::Hull,
        "ds" => ShaderStage::Domain,
        "cs" => ShaderStage::Compute,
        "as" => ShaderStage::Amplification,
        "ms" => ShaderStage::Mesh,
        _ => return None,
    };
    Some(set_once(&mut parsed.profile_stage, "-profile", stage))
}

/// `slangc` options that steer what the reference does beyond anything
/// Legalis does, accepted and listed under `-help` as having no effect
/// here.
pub const NO_EFFECT: &[&str] = &[
    // Legalis does not validate its own SPIR-V on the command line (the
    // suite does): there is no validation to skip.
    "-skip-spirv-validation",
    // The reference's optimiser and linker; Legalis always compiles the
    // whole file.
    "-enable-experimental-passes",
    "-whole-program",
    "-minimum-slang-optimization",
    // The reference's capability checks; Legalis checks no capability.
    "-restrictive-capability-check",
    // Strips source-file information from the reference's output; Legalis
    // writes none (no `#line`, `OpSource`, `OpString` or `OpLine`).
    "-obfuscate",
];

/// [`NO_EFFECT`] options that take a value: `-line-directive-mode MODE`
/// (Legalis writes no `#line` directives).
pub const NO_EFFECT_WITH_VALUE: &[&str] = &["-line-directive-mode"];

/// The writer that makes a target's code: what decides whether an option
/// changes the output.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Writer {
    /// `glsl`: the GLSL legalizer, then the GLSL writer.
    Glsl,
    /// `spirv`, `spirv-asm`: the GLSL legalizer, then the SPIR-V writer.
    Spirv,
    /// `spirv`, `spirv-asm` under `-emit-spirv-via-glsl`: the GLSL
    /// legalizer and writer, then glslang.
    SpirvViaGlsl,
    /// `wgsl`: the varying legalizer, then the WGSL writer.
    Wgsl,
    /// `wgsl-spirv-asm`: the WGSL output, then naga's SPIR-V writer.
    WgslSpirv,
    /// `metal`: the varying legalizer, then the MSL writer.
    Metal,
    /// `cuda`: the CUDA legalizer (which reads no policy), then the CUDA
    /// writer.
    Cuda,
}

impl Writer {
    /// The writer of `target`'s code; `None` for a target this table
    /// does not know yet, about which it claims nothing.
    pub fn of(target: Target, spirv_via_glsl: bool) -> Option<Writer> {
        Some(match target {
            Target::Glsl => Writer::Glsl,
            Target::Spirv | Target::SpirvAsm if spirv_via_glsl => Writer::SpirvViaGlsl,
            Target::Spirv | Target::SpirvAsm => Writer::Spirv,
            Target::Wgsl => Writer::Wgsl,
            Target::WgslSpirvAsm => Writer::WgslSpirv,
            Target::Metal => Writer::Metal,
            Target::Cuda => Writer::Cuda,
            _ => return None,
        })
    }
}

/// An option whose effect depends on the target: the writers whose
/// output it changes. Anywhere else it changes nothing, and
/// [`options_without_effect`] says so.
#[derive(Debug)]
pub struct TargetOption {
    /// The option, as this table names it.
    pub name: &'static str,
    /// The command-line words that give it; empty for the ones a value
    /// gives (`-profile glsl_NNN`, `-capability spvBindlessTextureNV`).
    pub spellings: &'static [&'static str],
    /// The writers whose output the option changes.
    pub writers: &'static [Writer],
}

/// The varying legalizers that read `Policy::invert_y` and
/// `dx_position_w`: the GLSL one (`flatten_varyings`, `mesh_outputs`,
/// `geometry_streams`) and the WGSL and Metal ones (`common::wrap`); the
/// CUDA legalizer reads no policy.
const VARYING_LEGALIZERS: &[Writer] = &[
    Writer::Glsl,
    Writer::Spirv,
    Writer::SpirvViaGlsl,
    Writer::Wgsl,
    Writer::WgslSpirv,
    Writer::Metal,
];
/// The targets of the GLSL legalizer, the only one that reads
/// `vertex_ids` and the scalar layout.
const GLSL_LEGALIZER: &[Writer] = &[Writer::Glsl, Writer::Spirv, Writer::SpirvViaGlsl];
/// The targets of the legalizers that read `widen_16bit_varyings`: the
/// GLSL one's and the WGSL one's (Metal passes `half` varyings as they
/// are).
const WIDEN_16BIT: &[Writer] = &[
    Writer::Glsl,
    Writer::Spirv,
    Writer::SpirvViaGlsl,
    Writer::Wgsl,
    Writer::WgslSpirv,
];
/// The targets of `legalis_bind`'s Vulkan rule (which the WGSL rule
/// runs too): register shifts and `-fvk-bind-globals`; and the writers
/// that keep unused resources under `-preserve-params` (GLSL's pruning,
/// the SPIR-V and WGSL writers; naga keeps the WGSL's).
const VULKAN_AND_WGSL: &[Writer] = &[
    Writer::Glsl,
    Writer::Spirv,
    Writer::SpirvViaGlsl,
    Writer::Wgsl,
    Writer::WgslSpirv,
];
/// Both ways to SPIR-V: the entry-point name and debug names are applied
/// to glslang's module as the direct writer applies them.
const SPIRV: &[Writer] = &[Writer::Spirv, Writer::SpirvViaGlsl];

/// [`TargetOption::name`] of `-profile glsl_NNN`.
const GLSL_PROFILE: &str = "-profile glsl_NNN";
/// [`TargetOption::name`] of `-profile spirv_1_N`.
const SPIRV_PROFILE: &str = "-profile spirv_1_N";
/// [`TargetOption::name`] of the capabilities that change what a
/// `DescriptorHandle` is (`Policy::handle_capability`).
const HANDLE_CAPABILITY: &str = "-capability spvBindlessTextureNV|spvDescriptorHeapEXT";

/// Every option whose effect depends on the target, and the writers it
/// changes. The options not here change every target's output the same
/// way (`-entry`, `-D`, `-allow-glsl`, ...), or none (`-O`, the levels
/// `-g1`..`-g3`, [`NO_EFFECT`]: `-help` says so).
pub const TARGET_OPTIONS: &[TargetOption] = &[
    TargetOption {
        name: "-fvk-invert-y",
        spellings: &["-fvk-invert-y"],
        writers: VARYING_LEGALIZERS,
    },
    TargetOption {
        name: "-fvk-use-dx-position-w",
        spellings: &["-fvk-use-dx-position-w"],
        writers: VARYING_LEGALIZERS,
    },
    // The SPIR-V writer's `use_entry_point_name`, and `spirv::rename` of
    // glslang's module; GLSL's entry point is `main` whatever its name.
    TargetOption {
        name: "-fvk-use-entrypoint-name",
        spellings: &["-fvk-use-entrypoint-name"],
        writers: SPIRV,
    },
    TargetOption {
        name: "-fvk-raw-vertex-id",
        spellings: &["-fvk-raw-vertex-id"],
        writers: GLSL_LEGALIZER,
    },
    TargetOption {
        name: "-fvk-widen-16bit-varyings",
        spellings: &["-fvk-widen-16bit-varyings"],
        writers: WIDEN_16BIT,
    },
    // They choose between the two ways to SPIR-V.
    TargetOption {
        name: "-emit-spirv-via-glsl",
        spellings: &["-emit-spirv-via-glsl"],
        writers: SPIRV,
    },
    TargetOption {
        name: "-emit-spirv-directly",
        spellings: &["-emit-spirv-directly"],
        writers: SPIRV,
    },
    TargetOption {
        name: "-preserve-params",
        spellings: &["-preserve-params"],
        writers: VULKAN_AND_WGSL,
    },
    // As the facade's own warning for them has it (`legalis::compile`):
    // the GLSL writer's `layout(scalar)` and the SPIR-V writer's offsets;
    // GLSL cannot declare the C layout.
    TargetOption {
        name: "-fvk-use-scalar-layout",
        spellings: &["-fvk-use-scalar-layout", "-force-glsl-scalar-layout"],
        writers: GLSL_LEGALIZER,
    },
    TargetOption {
        name: "-fvk-use-c-layout",
        spellings: &["-fvk-use-c-layout"],
        writers: &[Writer::Spirv],
    },
    TargetOption {
        name: "-fvk-t-shift",
        spellings: &["-fvk-t-shift"],
        writers: VULKAN_AND_WGSL,
    },
    TargetOption {
        name: "-fvk-s-shift",
        spellings: &["-fvk-s-shift"],
        writers: VULKAN_AND_WGSL,
    },
    TargetOption {
        name: "-fvk-u-shift",
        spellings: &["-fvk-u-shift"],
        writers: VULKAN_AND_WGSL,
    },
    TargetOption {
        name: "-fvk-b-shift",
        spellings: &["-fvk-b-shift"],
        writers: VULKAN_AND_WGSL,
    },
    TargetOption {
        name: "-fvk-bind-globals",
        spellings: &["-fvk-bind-globals"],
        writers: VULKAN_AND_WGSL,
    },
    // `Policy::debug_names`: no `OpName` in either way's SPIR-V.
    TargetOption {
        name: "-g0",
        spellings: &["-g0", "-gnone"],
        writers: SPIRV,
    },
    // The GLSL writer's `#version`, also what glslang compiles.
    TargetOption {
        name: GLSL_PROFILE,
        spellings: &[],
        writers: &[Writer::Glsl, Writer::SpirvViaGlsl],
    },
    // The direct SPIR-V writer's `min_version`; glslang writes 1.6.
    TargetOption {
        name: SPIRV_PROFILE,
        spellings: &[],
        writers: &[Writer::Spirv],
    },
    // The direct SPIR-V writer refuses a handle read as its resource.
    TargetOption {
        name: HANDLE_CAPABILITY,
        spellings: &[],
        writers: &[Writer::Spirv],
    },
];

/// An option given that changes nothing on the chosen target.
#[derive(Clone, Debug)]
pub struct NoEffect {
    /// Its [`TargetOption::name`].
    pub name: &'static str,
    /// The warning, `E00010`, naming the option as written and the target.
    pub diagnostic: Diagnostic,
}

/// The options of `args` that change nothing on its target, one warning
/// (`E00010`) each; none without `-target`.
pub fn options_without_effect(args: &CompileArgs) -> Vec<NoEffect> {
    let Some(target) = args.target else {
        return Vec::new();
    };
    let Some(writer) = Writer::of(target, args.policy.spirv_via_glsl) else {
        return Vec::new();
    };
    let mut unused = Vec::new();
    for given in &args.target_options {
        let Some(entry) = TARGET_OPTIONS.iter().find(|e| e.name == given.name) else {
            continue;
        };
        if entry.writers.contains(&writer) {
            continue;
        }
        let output = match writer {
            Writer::SpirvViaGlsl => {
                format!("`{}` output through -emit-spirv-via-glsl", target.name())
            }
            _ => format!("`{}` output", target.name()),
        };
        let message = format!(
            "{} has no effect on {output}: it changes {} output only",
            given.written,
            uses(entry.writers)
        );
        let mut diagnostic = Diagnostic::warning(
            legalis::codes::OPTION_WITHOUT_EFFECT,
            message,
            legalis::ir::Span::UNDEFINED,
        );
        diagnostic.labels.clear();
        unused.push(NoEffect {
            name: entry.name,
            diagnostic,
        });
    }
    unused
}

/// The targets whose output `writers` make, for a message.
fn uses(writers: &[Writer]) -> String {
    let has = |w| writers.contains(&w);
    let mut names: Vec<&str> = Vec::new();
    if has(Writer::Glsl) {
        names.push("glsl");
    }
    match (has(Writer::Spirv), has(Writer::SpirvViaGlsl)) {
        (true, true) => names.push("spirv, spirv-asm"),
        (true, false) => names.push("spirv, spirv-asm (written directly)"),
        (false, true) => names.push("spirv, spirv-asm (through -emit-spirv-via-glsl)"),
        (false, false) => {}
    }
    for (writer, name) in [
        (Writer::Wgsl, "wgsl"),
        (Writer::WgslSpirv, "wgsl-spirv-asm"),
        (Writer::Metal, "metal"),
        (Writer::Cuda, "cuda"),
    ] {
        if has(writer) {
            names.push(name);
        }
    }
    names.join(", ")
}

/// `-conformance TYPE:IFACE[=N]`: the conformance of struct `TYPE` to
/// interface `IFACE`, with the tag `N` its values take in a value of the
/// interface type (dynamic dispatch).
fn parse_conformance(text: &str) -> Result<legalis::Conformance, UsageError> {
    let bad = || {
        UsageError(format!(
            "-conformance takes TYPE:IFACE or TYPE:IFACE=N (N a number), not `{text}`"
        ))
    };
    let (names, id) = match text.split_once('=') {
        Some((names, id)) => (names, Some(id.trim().parse::<u32>().map_err(|_| bad())?)),
        None => (text, None),
    };
    let (ty, interface) = names.split_once(':').ok_or_else(bad)?;
    let (ty, interface) = (ty.trim(), interface.trim());
    if ty.is_empty() || interface.is_empty() {
        return Err(bad());
    }
    Ok(legalis::Conformance {
        ty: ty.to_string(),
        interface: interface.to_string(),
        id,
    })
}

/// `slangc` options Legalis does not implement, as `slangc -h` lists them;
/// each is refused by name. Families with a variable part (`-I<path>`,
/// `-W<id>`, `-X<compiler>`, `-<compiler>-path`) are matched by
/// `is_slangc_option`.
pub const SLANGC_ONLY: &[&str] = &[
    // General.
    "-depfile",
    "-specialize",
    "-emit-ir",
    "-help-style",
    "-matrix-layout-column-major",
    "-matrix-layout-row-major",
    "-ignore-capabilities",
    "-disable-non-essential-validations",
    "-disable-source-map",
    "-module-name",
    "-std",
    "-warnings-as-errors",
    "-dump-warning-diagnostics",
    "-report-downstream-time",
    "-report-perf-benchmark",
    "-report-detailed-perf-benchmark",
    "-report-checkpoint-intermediates",
    "-trace-coverage",
    "-trace-function-coverage",
    "-trace-branch-coverage",
    "-trace-coverage-boolean",
    "-trace-coverage-binding",
    "-trace-coverage-reserved-space",
    "-coverage-manifest-output",
    "-trace-coverage-counter-width",
    "-report-dynamic-dispatch-sites",
    "-source-embed-style",
    "-source-embed-name",
    "-source-embed-language",
    "-disable-short-circuit",
    "-unscoped-enum",
    "-reflection-json",
    "-msvc-style-bitfield-packing",
    // Target.
    "-default-image-format-unknown",
    "-disable-dynamic-dispatch",
    "-disable-specialization",
    "-fp-mode",
    "-floating-point-mode",
    "-denorm-mode-fp16",
    "-denorm-mode-fp32",
    "-denorm-mode-fp64",
    "-line-directive-mode",
    "-fvk-use-dx-layout",
    "-fvk-use-gl-layout",
    "-fspv-reflect",
    "-enable-effect-annotations",
    "-spirv-core-grammar",
    "-incomplete-library",
    "-bindless-space-index",
    "-separate-debug-info",
    "-emit-cpu-via-cpp",
    "-emit-cpu-via-llvm",
    "-llvm-target-triple",
    "-llvm-cpu",
    "-llvm-features",
    // Downstream.
    "-default-downstream-compiler",
    "-pass-through",
    // Debugging.
    "-dump-ast",
    "-dump-intermediate-prefix",
    "-dump-intermediates",
    "-dump-ir-ids",
    "-E",
    "-output-preprocessor",
    "-no-codegen",
    "-output-includes",
    "-serial-ir",
    "-skip-codegen",
    "-validate-ir",
    "-validate-ir-detailed",
    "-dump-ir-before",
    "-dump-ir-after",
    "-verbose-paths",
    "-verify-debug-serial-ir",
    "-dump-module",
    "-get-module-info",
    "-get-supported-module-versions",
    // Experimental.
    "-file-system",
    "-heterogeneous",
    "-no-mangle",
    "-no-hlsl-binding",
    "-no-hlsl-pack-constant-buffer-elements",
    "-validate-uniformity",
    "-enable-experimental-passes",
    "-enable-experimental-dynamic-dispatch",
    "-embed-downstream-ir",
    "-experimental-feature",
    "-enable-experimental-rich-diagnostics",
    "-diagnostic-color",
    // Internal and repro.
    "-archive-type",
    "-compile-core-module",
    "-doc",
    "-ir-compression",
    "-load-core-module",
    "-r",
    "-save-core-module",
    "-save-core-module-bin-source",
    "-save-glsl-module-bin-source",
    "-track-liveness",
    "-loop-inversion",
    "-whole-program",
    "-dump-repro-on-error",
    "-extract-repro",
    "-load-repro-directory",
    "-load-repro",
    "-repro-file-system",
    "-dump-repro",
    // Deprecated (slangc ignores them; Legalis says so).
    "-parameter-blocks-use-register-spaces",
    "-zero-initialize",
];

/// Whether `option` is a `slangc` option: listed in [`SLANGC_ONLY`] or of a
/// family `slangc` spells with a variable part.
fn is_slangc_option(option: &str) -> bool {
    const COMPILERS: [&str; 17] = [
        "none",
        "fxc",
        "dxc",
        "glslang",
        "spirv-dis",
        "clang",
        "visualstudio",
        "vs",
        "gcc",
        "genericcpp",
        "c",
        "cpp",
        "nvrtc",
        "llvm",
        "spirv-opt",
        "metal",
        "tint",
    ];
    let path = option
        .strip_prefix('-')
        .and_then(|rest| rest.strip_suffix("-path"))
        .is_some_and(|compiler| COMPILERS.contains(&compiler));
    let passed = option.strip_prefix("-X").is_some_and(|rest| {
        rest == "." || COMPILERS.contains(&rest.strip_suffix("...").unwrap_or(rest))
    });
    SLANGC_ONLY.contains(&option)
        || path
        || passed
        || option.starts_with("-I")
        || (option.starts_with("-W") && option.len() > 2)
}

/// The `-fvk-` options Legalis implements, for the message that refuses
/// any other.
const FVK_OPTIONS: &str = "-fvk-invert-y -fvk-use-dx-position-w -fvk-use-entrypoint-name \
     -fvk-use-scalar-layout -fvk-use-c-layout -fvk-raw-vertex-id -fvk-widen-16bit-varyings -fvk-t-shift -fvk-s-shift -fvk-u-shift -fvk-b-shift -fvk-bind-globals";

/// The register class of `-fvk-<class>-shift`.
fn shift_class(option: &str) -> Option<legalis::ir::RegisterClass> {
    use legalis::ir::RegisterClass as R;
    match option.strip_prefix("-fvk-")?.strip_suffix("-shift")? {
        "t" => Some(R::T),
        "s" => Some(R::S),
        "u" => Some(R::U),
        "b" => Some(R::B),
        _ => None,
    }
}

/// An unsigned number value.
fn number(option: &str, rest: &mut impl Iterator<Item = OsString>) -> Result<u32, UsageError> {
    let text = text_value(option, rest)?;
    text.parse::<u32>()
        .or_else(|_| usage(format!("{option} takes numbers, not `{text}`")))
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
            // Name the implemented ones apart only while some are not.
            if implemented.len() == all.len() {
                usage(format!(
                    "unknown target '{name}'; targets: {}",
                    all.join(" ")
                ))
            } else {
                usage(format!(
                    "unknown target '{name}'; targets: {} (implemented: {})",
                    all.join(" "),
                    implemented.join(" ")
                ))
            }
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
            Ok(Command::Compile(args)) => *args,
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
                linked: Vec::new(),
                linked_stages: Vec::new(),
                stage: Some(ShaderStage::Fragment),
                output: Some("out.ir".into()),
                output_to_stdout: false,
                target: None,
                dump_ir: true,
                trace: None,
                defines: vec![("A".into(), "1".into()), ("B".into(), String::new())],
                diagnostics: DiagnosticFormat::Machine,
                no_color: true,
                force_color: false,
                policy: Policy::default(),
                bindings: legalis::bind::Options::default(),
                dump_bindings: None,
                disabled_warnings: Vec::new(),
                profile_stage: None,
                allow_glsl: false,
                conformances: Vec::new(),
                target_options: Vec::new(),
            }
        );
    }

    #[test]
    fn policy_options_set_the_policy() {
        let args = compile_args(
            "f.slang -fvk-invert-y -fvk-use-dx-position-w -fvk-use-entrypoint-name \
             -fvk-raw-vertex-id -fvk-widen-16bit-varyings -emit-spirv-via-glsl -O3 -g0 \
             -preserve-params -fvk-use-c-layout",
        );
        assert_eq!(
            args.policy,
            Policy {
                invert_y: true,
                dx_position_w: true,
                use_entry_point_name: true,
                vertex_ids: VertexIdBase::Raw,
                widen_16bit_varyings: true,
                spirv_via_glsl: true,
                optimization: Some(OptimizationLevel::Maximal),
                debug: Some(DebugLevel::None),
                glsl_version: None,
                spirv_version: None,
                handle_capability: None,
                preserve_params: true,
                buffer_layout: legalis::ir::BufferLayout::C,
            }
        );
        assert_eq!(compile_args("f.slang").policy, Policy::default());
        for option in ["-fvk-use-scalar-layout", "-force-glsl-scalar-layout"] {
            let args = compile_args(&format!("f.slang {option}"));
            assert_eq!(args.policy.buffer_layout, legalis::ir::BufferLayout::Scalar);
        }
        let directly = compile_args("f.slang -emit-spirv-via-glsl -emit-spirv-directly");
        assert!(!directly.policy.spirv_via_glsl);
    }

    #[test]
    fn capabilities_that_change_descriptor_handles_are_recorded() {
        use legalis::ir::HandleCapability;
        let cap = |line: &str| compile_args(line).policy.handle_capability;
        assert_eq!(cap("f.slang -capability spirv_1_5"), None);
        assert_eq!(
            cap("f.slang -capability spvDescriptorHeapEXT"),
            Some(HandleCapability::DescriptorHeapExt)
        );
        assert_eq!(
            cap("f.slang -capability spvBindlessTextureNV"),
            Some(HandleCapability::BindlessTextureNv)
        );
        assert_eq!(
            cap("f.slang -profile glsl_450+spvBindlessTextureNV"),
            Some(HandleCapability::BindlessTextureNv)
        );
    }

    #[test]
    fn optimization_and_debug_levels_as_slangc_spells_them() {
        let levels = [
            ("0", "none", OptimizationLevel::None),
            ("1", "default", OptimizationLevel::Default),
            ("2", "high", OptimizationLevel::High),
            ("3", "maximal", OptimizationLevel::Maximal),
        ];
        for (digit, name, level) in levels {
            for spelling in [digit, name] {
                let args = compile_args(&format!("f.slang -O{spelling}"));
                assert_eq!(args.policy.optimization, Some(level), "-O{spelling}");
            }
        }
        let levels = [
            ("0", "none", DebugLevel::None),
            ("1", "minimal", DebugLevel::Minimal),
            ("2", "standard", DebugLevel::Standard),
            ("3", "maximal", DebugLevel::Maximal),
        ];
        for (digit, name, level) in levels {
            for spelling in [digit, name] {
                let args = compile_args(&format!("f.slang -g{spelling}"));
                assert_eq!(args.policy.debug, Some(level), "-g{spelling}");
            }
        }
        assert_eq!(
            compile_args("f.slang -g").policy.debug,
            Some(DebugLevel::Standard)
        );
    }

    #[test]
    fn debug_formats_set_no_level() {
        for format in DEBUG_FORMATS {
            let args = compile_args(&format!("f.slang -g{format}"));
            assert_eq!(args.policy.debug, None, "-g{format}");
        }
        // A format beside a level, as slangc allows: the level stands.
        assert_eq!(
            compile_args("f.slang -gdwarf -g0").policy.debug,
            Some(DebugLevel::None)
        );
        assert_eq!(
            compile_args("f.slang -g3 -gpdb").policy.debug,
            Some(DebugLevel::Maximal)
        );
    }

    #[test]
    fn bad_levels_are_usage_errors() {
        assert_eq!(
            error("f.slang -O"),
            "-O needs a level: -O0, -O1, -O2 or -O3"
        );
        assert_eq!(
            error("f.slang -O4"),
            "unknown optimization level -O4; levels: 0 (none), 1 (default), 2 (high), 3 (maximal)"
        );
        assert_eq!(
            error("f.slang -g4"),
            "unknown debug level -g4; levels: 0 (none), 1 (minimal), 2 (standard), 3 (maximal); \
             formats (no effect): -gdwarf -gpdb -gc7 -gstabs -gcoff -gdefault-format"
        );
        assert_eq!(error("f.slang -O1 -O2"), "-O given twice");
        assert_eq!(error("f.slang -g -g0"), "-g given twice");
    }

    #[test]
    fn binding_options_and_dump_bindings() {
        use legalis::ir::RegisterClass as R;
        let args = compile_args(
            "f.slang -target glsl -fvk-t-shift 10 0 -fvk-s-shift 20 all -fvk-u-shift 1 2 \
             -fvk-b-shift 3 4 -fvk-bind-globals 7 2 -dump-bindings=json",
        );
        let shift = |class, space, amount| legalis::bind::Shift {
            class,
            space,
            amount,
        };
        assert_eq!(
            args.bindings.shifts,
            [
                shift(R::T, Some(0), 10),
                shift(R::S, None, 20),
                shift(R::U, Some(2), 1),
                shift(R::B, Some(4), 3)
            ]
        );
        assert_eq!(args.bindings.bind_globals, Some((7, 2)));
        assert_eq!(args.dump_bindings, Some(legalis::trace::TraceFormat::Json));
        let text = compile_args("f.slang -target wgsl -dump-bindings").dump_bindings;
        assert_eq!(text, Some(legalis::trace::TraceFormat::Text));
        assert_eq!(
            error("f.slang -dump-bindings"),
            "-dump-bindings needs -target: bindings differ per target"
        );
        assert_eq!(
            error("f.slang -target glsl -dump-bindings -dump-ir"),
            "-dump-bindings, --trace-legalization and -dump-ir all replace the output: choose one"
        );
        assert_eq!(
            error("f.slang -target glsl -dump-bindings=xml"),
            "-dump-bindings takes `text` or `json`, not `xml`"
        );
        assert_eq!(
            error("f.slang -target glsl -entry a -entry b -dump-bindings"),
            "-dump-bindings shows one entry point; it cannot be used with several -entry"
        );
        assert_eq!(
            error("f.slang -fvk-t-shift 1 one"),
            "-fvk-t-shift N SPACE: SPACE is a number or `all`, not `one`"
        );
        assert_eq!(
            error("f.slang -fvk-b-shift x 0"),
            "-fvk-b-shift takes numbers, not `x`"
        );
        assert_eq!(
            error("f.slang -fvk-u-shift 1"),
            "-fvk-u-shift needs a value"
        );
        assert_eq!(
            error("f.slang -fvk-bind-globals 1 2 -fvk-bind-globals 3 4"),
            "-fvk-bind-globals given twice"
        );
        assert!(HELP.contains("-dump-bindings[=text|json]"));
        assert!(HELP.contains("-fvk-bind-globals N SET"));
    }

    #[test]
    fn trace_legalization_forms_and_their_conflicts() {
        use legalis::trace::TraceFormat;
        let traced = |line: &str| compile_args(line).trace;
        assert_eq!(
            traced("f.slang -target glsl --trace-legalization"),
            Some(TraceFormat::Text)
        );
        assert_eq!(
            traced("f.slang -target glsl --trace-legalization=json"),
            Some(TraceFormat::Json)
        );
        assert_eq!(
            traced("f.slang -target spirv-asm -trace-legalization=text"),
            Some(TraceFormat::Text)
        );
        assert_eq!(traced("f.slang -target glsl"), None);
        assert_eq!(
            error("f.slang --trace-legalization"),
            "--trace-legalization needs -target: it traces one target's legalization"
        );
        assert_eq!(
            error("f.slang -target glsl -dump-ir --trace-legalization"),
            "--trace-legalization and -dump-ir both replace the output: choose one"
        );
        assert_eq!(
            error("f.slang -target glsl --trace-legalization=yaml"),
            "--trace-legalization takes `text` or `json`, not `yaml`"
        );
        assert!(
            error("f.slang -target glsl --trace-legalization --trace-legalization=json")
                .contains("--trace-legalization"),
        );
    }

    #[test]
    fn slangc_options_legalis_lacks_are_refused_by_name() {
        for option in [
            "-fspv-reflect",
            "-matrix-layout-row-major",
            "-fvk-use-gl-layout",
            "-Iinclude",
            "-I",
            "-Wno-30081",
            "-Xglslang",
            "-Xdxc...",
            "-X.",
            "-dxc-path",
            "-E",
            "-get-module-info",
            "-zero-initialize",
        ] {
            assert_eq!(
                error(&format!("f.slang {option}")),
                format!("{option} is a slangc option that legalis does not support"),
            );
        }
        assert_eq!(
            error("f.slang -fvk-bogus"),
            "unknown option -fvk-bogus; the -fvk- options legalis supports: -fvk-invert-y \
             -fvk-use-dx-position-w -fvk-use-entrypoint-name -fvk-use-scalar-layout \
             -fvk-use-c-layout -fvk-raw-vertex-id -fvk-widen-16bit-varyings -fvk-t-shift -fvk-s-shift -fvk-u-shift -fvk-b-shift \
             -fvk-bind-globals"
        );
        assert_eq!(error("f.slang -W"), "unknown option -W");
        assert_eq!(error("f.slang -Xbogus"), "unknown option -Xbogus");
        assert!(error("f.slang -gibberish").starts_with(
            "unknown debug level -gibberish; levels: 0 (none), 1 (minimal), 2 (standard), 3 (maximal)"
        ));
        assert_eq!(
            error("f.slang -fvk-use-dx-layout"),
            "-fvk-use-dx-layout is a slangc option that legalis does not support",
        );
        assert_eq!(error("f.slang --frobnicate"), "unknown option --frobnicate");
    }

    #[test]
    fn slangc_options_with_no_effect_here_are_accepted() {
        for line in [
            "f.slang -skip-spirv-validation",
            "f.slang -enable-experimental-passes -whole-program",
            "f.slang -minimum-slang-optimization -restrictive-capability-check",
            "f.slang -line-directive-mode none",
            "f.slang -lang slang",
            "f.slang -lang hlsl",
            "f.slang -obfuscate",
            "f.slang -spirv-resource-heap-stride 32 -spirv-sampler-heap-stride 0",
        ] {
            let Ok(Command::Compile(args)) = parse_line(line) else {
                panic!("{line} is refused: {:?}", parse_line(line));
            };
            assert_eq!(args.input, PathBuf::from("f.slang"), "{line}");
            assert_eq!(args.target, None, "{line}");
        }
        assert_eq!(
            error("f.slang -line-directive-mode"),
            "-line-directive-mode needs a value"
        );
        assert!(
            error("f.slang -spirv-resource-heap-stride big")
                .starts_with("-spirv-resource-heap-stride"),
        );
        assert_eq!(
            error("f.slang -spirv-sampler-heap-stride"),
            "-spirv-sampler-heap-stride needs a value"
        );
        assert_eq!(
            error("f.slang -lang glsl"),
            "-lang glsl: legalis reads Slang and HLSL source only (-lang slang or hlsl)"
        );
    }

    #[test]
    fn spirv_assembly_is_the_references_name_for_spirv_asm() {
        assert_eq!(
            compile_args("f.slang -target spirv-assembly").target,
            Some(Target::SpirvAsm)
        );
    }

    #[test]
    fn profiles_set_versions_and_stages() {
        let args = compile_args("f.slang -profile glsl_460+GL_EXT_ray_tracing");
        assert_eq!(args.policy.glsl_version, Some(460));
        let args =
            compile_args("f.slang -profile spirv_1_4 -capability spvShaderInvocationReorderNV");
        assert_eq!(args.policy.spirv_version, Some((1, 4)));
        assert_eq!(
            compile_args("f.slang -profile vs_6_0").stage,
            Some(ShaderStage::Vertex)
        );
        assert_eq!(
            compile_args("f.slang -profile ps_5_0 -stage fragment").stage,
            Some(ShaderStage::Fragment)
        );
        assert_eq!(compile_args("f.slang -profile sm_6_6").stage, None);
        assert_eq!(
            compile_args("f.slang -profile sm_6_6").policy,
            Policy::default()
        );
        assert_eq!(
            error("f.slang -stage vertex -profile ps_6_0"),
            "-stage vertex and the -profile's stage fragment disagree"
        );
        assert_eq!(
            error("f.slang -profile spirv_1_9"),
            "-profile spirv_1_9: legalis writes SPIR-V 1.0 to 1.6 (spirv_1_0 .. spirv_1_6)"
        );
        assert!(error("f.slang -profile bogus").starts_with("unknown profile bogus;"));
        let args = compile_args("f.slang -profile glsl_450+spirv_1_4+GL_EXT_foo");
        assert_eq!(
            (args.policy.glsl_version, args.policy.spirv_version),
            (Some(450), Some((1, 4)))
        );
        assert!(error("f.slang -profile xs_6_0").starts_with("unknown profile xs_6_0;"));
    }

    #[test]
    fn allow_glsl_is_a_flag() {
        assert!(compile_args("f.slang -allow-glsl -target glsl").allow_glsl);
        assert!(!compile_args("f.slang -target glsl").allow_glsl);
    }

    #[test]
    fn conformance_gives_a_tag() {
        let args = compile_args("f.slang -conformance Impl:IFoo=3 -conformance Other:IFoo");
        assert_eq!(
            args.conformances,
            vec![
                legalis::Conformance {
                    ty: "Impl".into(),
                    interface: "IFoo".into(),
                    id: Some(3),
                },
                legalis::Conformance {
                    ty: "Other".into(),
                    interface: "IFoo".into(),
                    id: None,
                },
            ]
        );
        for bad in ["Impl", "Impl:IFoo=x", ":IFoo=1", "Impl:=2"] {
            assert!(
                error(&format!("f.slang -conformance {bad}")).starts_with("-conformance takes"),
                "{bad}"
            );
        }
    }

    #[test]
    fn warnings_disable_takes_codes() {
        let Ok(Command::Compile(args)) =
            parse_line("f.slang -warnings-disable E15009,31000 -warnings-disable e48007")
        else {
            panic!("refused");
        };
        assert_eq!(args.disabled_warnings, [15009, 31000, 48007]);
        assert_eq!(
            error("f.slang -warnings-disable 39x"),
            "-warnings-disable takes diagnostic codes separated by commas (E31000 or 31000), not `39x`"
        );
        assert_eq!(
            error("f.slang -warnings-disable"),
            "-warnings-disable needs a value"
        );
    }

    #[test]
    fn help_and_version_win_over_everything_else() {
        assert_eq!(parse_line("f.slang -help"), Ok(Command::Help));
        assert_eq!(parse_line("-h"), Ok(Command::Help));
        assert_eq!(parse_line("--help -bogus"), Ok(Command::Help));
        assert_eq!(parse_line("-version"), Ok(Command::Version));
        assert_eq!(parse_line("--version"), Ok(Command::Version));
        assert_eq!(parse_line("-v"), Ok(Command::Version));
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
        assert_eq!(
            error("f.slang -entry a -entry b"),
            "several -entry need -target: they are linked as one pipeline or written into one module"
        );
        let staged = compile_args(
            "f.slang -target spirv -entry a -stage fragment -entry b -stage fragment -entry c",
        );
        assert_eq!(staged.stage, Some(ShaderStage::Fragment));
        assert_eq!(staged.linked_stages, [Some(ShaderStage::Fragment), None]);
        assert_eq!(
            error("f.slang -target glsl -entry a -entry b -stage vertex -stage pixel"),
            "-stage given twice"
        );
        assert_eq!(
            error("f.slang -target glsl -entry a -entry a"),
            "-entry a is given twice"
        );
        assert_eq!(
            compile_args("f.slang -target glsl -entry a -entry b -entry c").linked,
            ["b", "c"]
        );
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
            compile_args("f.slang -target metal").target,
            Some(Target::Metal)
        );
        assert_eq!(
            compile_args("f.slang -target cuda").target,
            Some(Target::Cuda)
        );
        assert_eq!(
            error("f.slang -target hlsl"),
            "unknown target 'hlsl'; targets: glsl spirv spirv-asm metal wgsl wgsl-spirv-asm cuda"
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
            "-fvk-invert-y",
            "-fvk-use-dx-position-w",
            "-fvk-use-entrypoint-name",
            "-fvk-raw-vertex-id",
            "-fvk-widen-16bit-varyings",
            "-emit-spirv-via-glsl",
            "-emit-spirv-directly",
            "-O0 .. -O3",
            "-g0 .. -g3",
            "-gdwarf",
            "-obfuscate",
            "-spirv-resource-heap-stride N",
            "-spirv-sampler-heap-stride N",
        ] {
            assert!(HELP.contains(option), "{option}");
        }
    }

    #[test]
    fn dash_is_standard_input_and_dash_o_standard_output() {
        let args = compile_args("- -target glsl -o -");
        assert_eq!(args.input, PathBuf::from("-"));
        assert_eq!(args.output, None);
        assert!(args.output_to_stdout);
        assert_eq!(compile_args("-target glsl -- -").input, PathBuf::from("-"));
        assert!(!compile_args("f.slang -target glsl -o out").output_to_stdout);
        assert_eq!(error("f.slang -target glsl -o - -o x"), "-o given twice");
        assert_eq!(error("f.slang -target glsl -o x -o -"), "-o given twice");
        assert!(error("f.slang -o -").starts_with("-o needs -target or -dump-ir"));
        assert_eq!(
            error("- f.slang"),
            "two input files, - and f.slang: legalis compiles one file"
        );
    }

    /// The warnings of a command line: each option's written form and
    /// the target it names.
    fn no_effect(line: &str) -> Vec<String> {
        options_without_effect(&compile_args(line))
            .into_iter()
            .map(|n| {
                assert_eq!(n.diagnostic.code, legalis::codes::OPTION_WITHOUT_EFFECT);
                assert!(!n.diagnostic.is_error());
                assert!(n.diagnostic.labels.is_empty(), "no span");
                n.diagnostic.message
            })
            .collect()
    }

    #[test]
    fn options_without_effect_on_the_target_are_named_with_it() {
        assert_eq!(
            no_effect("f.slang -target metal -fvk-t-shift 1 0"),
            [
                "-fvk-t-shift has no effect on `metal` output: it changes glsl, spirv, \
              spirv-asm, wgsl, wgsl-spirv-asm output only"
            ]
        );
        assert_eq!(
            no_effect("f.slang -target cuda -emit-spirv-via-glsl"),
            [
                "-emit-spirv-via-glsl has no effect on `cuda` output: it changes spirv, \
              spirv-asm output only"
            ]
        );
        assert_eq!(
            no_effect(
                "f.slang -target spirv -emit-spirv-via-glsl -fvk-use-c-layout -profile spirv_1_4"
            ),
            [
                "-fvk-use-c-layout has no effect on `spirv` output through -emit-spirv-via-glsl: \
                 it changes spirv, spirv-asm (written directly) output only",
                "-profile spirv_1_4 has no effect on `spirv` output through -emit-spirv-via-glsl: \
                 it changes spirv, spirv-asm (written directly) output only"
            ]
        );
        assert_eq!(
            no_effect("f.slang -target wgsl -profile glsl_460+spvBindlessTextureNV -gnone"),
            [
                "glsl_460 of -profile glsl_460+spvBindlessTextureNV has no effect on `wgsl` \
                 output: it changes glsl, spirv, spirv-asm (through -emit-spirv-via-glsl) output only",
                "spvBindlessTextureNV of -profile glsl_460+spvBindlessTextureNV has no effect on \
                 `wgsl` output: it changes spirv, spirv-asm (written directly) output only",
                "-gnone has no effect on `wgsl` output: it changes spirv, spirv-asm output only"
            ]
        );
        // Said once however often given; nothing without -target, nothing
        // where the option means something, nothing for options every
        // target reads or none does.
        assert_eq!(
            no_effect("f.slang -target metal -fvk-t-shift 1 0 -fvk-t-shift 2 1").len(),
            1
        );
        assert!(no_effect("f.slang -fvk-t-shift 1 0 -emit-spirv-via-glsl -dump-ir").is_empty());
        assert!(no_effect("f.slang -target wgsl -fvk-t-shift 1 0 -preserve-params").is_empty());
        assert!(
            no_effect("f.slang -target cuda -O2 -g2 -DX=1 -obfuscate -profile sm_6_6").is_empty()
        );
        assert!(
            no_effect("f.slang -target spirv-asm -emit-spirv-via-glsl -profile glsl_460 -g0")
                .is_empty()
        );
    }

    /// Which targets each option changes, written out apart from the table
    /// (README: the command line), for every target and both ways to
    /// SPIR-V.
    #[test]
    fn the_table_of_options_per_target() {
        let every_varying = "glsl spirv spirv-asm via wgsl wgsl-spirv-asm metal";
        let vulkan_wgsl = "glsl spirv spirv-asm via wgsl wgsl-spirv-asm";
        let glsl_legalizer = "glsl spirv spirv-asm via";
        let spirv = "spirv spirv-asm via";
        let expected = [
            ("-fvk-invert-y", every_varying),
            ("-fvk-use-dx-position-w", every_varying),
            ("-fvk-use-entrypoint-name", spirv),
            ("-fvk-raw-vertex-id", glsl_legalizer),
            ("-fvk-widen-16bit-varyings", vulkan_wgsl),
            ("-emit-spirv-directly", spirv),
            ("-preserve-params", vulkan_wgsl),
            ("-fvk-use-scalar-layout", glsl_legalizer),
            ("-force-glsl-scalar-layout", glsl_legalizer),
            ("-fvk-use-c-layout", "spirv spirv-asm"),
            ("-fvk-t-shift 1 0", vulkan_wgsl),
            ("-fvk-s-shift 1 all", vulkan_wgsl),
            ("-fvk-u-shift 1 0", vulkan_wgsl),
            ("-fvk-b-shift 1 0", vulkan_wgsl),
            ("-fvk-bind-globals 1 0", vulkan_wgsl),
            ("-g0", spirv),
            ("-profile glsl_460", "glsl via"),
            ("-profile spirv_1_5", "spirv spirv-asm"),
            ("-capability spvDescriptorHeapEXT", "spirv spirv-asm"),
        ];
        for (option, uses) in expected {
            let uses: Vec<&str> = uses.split(' ').collect();
            for target in Target::ALL {
                for via in [false, true] {
                    let spirv_target = matches!(target, Target::Spirv | Target::SpirvAsm);
                    if via && !spirv_target {
                        continue;
                    }
                    let name = if via { "via" } else { target.name() };
                    let via = if via { " -emit-spirv-via-glsl" } else { "" };
                    let line = format!("f.slang -target {}{via} {option}", target.name());
                    let warned = no_effect(&line);
                    let written = option.split(' ').next().unwrap_or(option);
                    let expected_warning = !uses.contains(&name);
                    assert_eq!(
                        warned.iter().any(|w| w.starts_with(&format!("{written} "))),
                        expected_warning,
                        "{line}: {warned:?}"
                    );
                }
            }
        }
        // -emit-spirv-via-glsl itself: the two ways to SPIR-V.
        for target in Target::ALL {
            let line = format!("f.slang -target {} -emit-spirv-via-glsl", target.name());
            let spirv_target = matches!(target, Target::Spirv | Target::SpirvAsm);
            assert_eq!(no_effect(&line).is_empty(), spirv_target, "{line}");
        }
        // Every spelling the table lists is one the parser takes.
        for entry in TARGET_OPTIONS {
            for spelling in entry.spellings {
                let values = if spelling.ends_with("-shift") || *spelling == "-fvk-bind-globals" {
                    " 1 0"
                } else {
                    ""
                };
                let args = compile_args(&format!("f.slang -target cuda {spelling}{values}"));
                assert_eq!(
                    args.target_options,
                    [GivenOption {
                        name: entry.name,
                        written: spelling.to_string()
                    }],
                    "{spelling}"
                );
            }
        }
    }

    #[test]
    fn help_lists_long_forms_stage_aliases_and_the_machine_format() {
        for text in ["--help", "--version", "-o -", "<stdin>", "E00010"] {
            assert!(HELP.contains(text), "{text}");
        }
        let aliases = [
            ("pixel", ShaderStage::Fragment),
            ("task", ShaderStage::Amplification),
            ("raygen", ShaderStage::RayGeneration),
            ("tesscontrol", ShaderStage::Hull),
            ("tesseval", ShaderStage::Domain),
            ("tessevaluation", ShaderStage::Domain),
        ];
        for (alias, stage) in aliases {
            assert_eq!(parse_stage(alias), Ok(stage), "{alias}");
            assert_eq!(parse_stage(&alias.to_uppercase()), Ok(stage), "{alias}");
            let named = HELP.contains(&format!("{alias} ({})", stage.name()))
                || HELP.contains(&format!("{alias}\n                    and tessevaluation"));
            assert!(named, "{alias}");
        }
        for stage in ShaderStage::ALL {
            assert!(HELP.contains(stage.name()), "{}", stage.name());
        }
        // Both kinds of line of render_machine, the span line's fields.
        assert!(HELP.contains("E<code> error|warning FILE LINE COL END-LINE END-COL MESSAGE"));
        assert!(HELP.contains("E<code> span FILE LINE COL END-LINE END-COL LABEL"));
    }
}

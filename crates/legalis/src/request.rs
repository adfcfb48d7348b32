//! What a compilation is asked to do: [`Request`], and the code-generation
//! [`Target`]s.

use crate::{Policy, ShaderStage, front, trace};

/// One compilation: a source file and what to do with it.
///
/// Build one with [`Request::builder`]; every field is public to read and
/// to change after.
///
/// ```
/// let request = legalis::Request::builder("tri.slang", "float4 f() { return 1; }")
///     .target(legalis::Target::Wgsl)
///     .entry("f")
///     .stage(legalis::ShaderStage::Fragment)
///     .define("QUALITY", "2")
///     .build();
/// assert_eq!(request.target, Some(legalis::Target::Wgsl));
/// assert_eq!(request.defines, [("QUALITY".to_string(), "2".to_string())]);
/// ```
#[derive(Clone, Debug, Default)]
#[non_exhaustive]
pub struct Request {
    /// Name shown in diagnostics; never opened.
    pub path: String,
    /// The shader source: UTF-8 text (anything else is `E00002`).
    pub source: Vec<u8>,
    /// Entry point to check; `None` means every `[shader("...")]` function.
    pub entry: Option<String>,
    /// Stage of `entry`; overrides its `[shader]` attribute.
    pub stage: Option<ShaderStage>,
    /// Macro definitions, as `-D NAME=VALUE` gives them.
    pub defines: Vec<(String, String)>,
    /// Code to generate; `None` checks only.
    pub target: Option<Target>,
    /// API-convention choices (`-fvk-invert-y` and friends), the same for
    /// every target.
    pub policy: Policy,
    /// `--trace-legalization`: also render the legalization plan.
    pub trace: Option<trace::TraceFormat>,
    /// The binding options (`-fvk-<class>-shift`, `-fvk-bind-globals`).
    pub bindings: legalis_bind::Options,
    /// `-dump-bindings`: also render the binding plan.
    pub dump_bindings: Option<trace::TraceFormat>,
    /// `-allow-glsl`: the front end reads GLSL type names and functions
    /// (`legalis_front::Options::allow_glsl`).
    pub allow_glsl: bool,
    /// `-conformance TYPE:IFACE[=N]`: tags of interface values
    /// (`legalis_front::Options::conformances`).
    pub conformances: Vec<front::Conformance>,
    /// Which threads the compilation runs on ([`Threads`]).
    pub threads: Threads,
}

/// Which threads a compilation runs on.
///
/// By default ([`Threads::Pool`]) Legalis runs the front end on a pool of
/// worker threads it starts once per process (one per core, at most eight,
/// each with a 256 MiB reserved stack, named `legalis-front-N`): a deeply
/// nested shader needs a deep stack whatever thread the caller is on, and
/// several caller threads can compile side by side. The same threads free
/// large syntax trees after use and verify a large legalized module while
/// its code is written. With [`Threads::CallingThread`] every step runs on
/// the thread that called [`compile`](crate::compile) or
/// [`link`](crate::link): no thread is started, and the caller's stack must
/// be deep enough for its inputs (8 MiB, a main thread's usual stack, holds
/// the deepest nesting the front end accepts, on every target: the test
/// `tests/calling_thread.rs`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Threads {
    /// The process-wide worker pool (the default).
    #[default]
    Pool,
    /// Only the calling thread: no thread is started or used.
    CallingThread,
}

impl Request {
    /// A builder for a request to compile `source`, shown in diagnostics as
    /// `path`; everything else starts at its default (check only, every
    /// entry point, the default [`Policy`]).
    pub fn builder(path: impl Into<String>, source: impl Into<Vec<u8>>) -> RequestBuilder {
        RequestBuilder {
            request: Request {
                path: path.into(),
                source: source.into(),
                ..Request::default()
            },
        }
    }
}

/// Builds a [`Request`] ([`Request::builder`]).
#[derive(Clone, Debug)]
#[must_use = "a builder does nothing until `build` is called"]
pub struct RequestBuilder {
    request: Request,
}

impl RequestBuilder {
    /// Generate code for `target` (without one, only the front end runs).
    pub fn target(mut self, target: Target) -> Self {
        self.request.target = Some(target);
        self
    }

    /// Compile only the entry point `name`.
    pub fn entry(mut self, name: impl Into<String>) -> Self {
        self.request.entry = Some(name.into());
        self
    }

    /// The entry point's stage, overriding its `[shader]` attribute.
    pub fn stage(mut self, stage: ShaderStage) -> Self {
        self.request.stage = Some(stage);
        self
    }

    /// Defines the macro `name` as `value` (`-D name=value`).
    pub fn define(mut self, name: impl Into<String>, value: impl Into<String>) -> Self {
        self.request.defines.push((name.into(), value.into()));
        self
    }

    /// The API conventions (`-fvk-invert-y` and friends).
    pub fn policy(mut self, policy: Policy) -> Self {
        self.request.policy = policy;
        self
    }

    /// Also render the legalization plan in `format`
    /// ([`Generated::trace`](crate::Generated::trace)).
    pub fn trace(mut self, format: trace::TraceFormat) -> Self {
        self.request.trace = Some(format);
        self
    }

    /// The resource-binding options (`-fvk-<class>-shift`, `-fvk-bind-globals`).
    pub fn bindings(mut self, options: legalis_bind::Options) -> Self {
        self.request.bindings = options;
        self
    }

    /// Also render the binding plan in `format`
    /// ([`Generated::bindings`](crate::Generated::bindings)).
    pub fn dump_bindings(mut self, format: trace::TraceFormat) -> Self {
        self.request.dump_bindings = Some(format);
        self
    }

    /// Read GLSL type names and functions too (`-allow-glsl`).
    pub fn allow_glsl(mut self, allow: bool) -> Self {
        self.request.allow_glsl = allow;
        self
    }

    /// Tags an interface value's conformance (`-conformance TYPE:IFACE[=N]`).
    pub fn conformance(mut self, conformance: front::Conformance) -> Self {
        self.request.conformances.push(conformance);
        self
    }

    /// Which threads the compilation runs on.
    pub fn threads(mut self, threads: Threads) -> Self {
        self.request.threads = threads;
        self
    }

    /// The request.
    pub fn build(self) -> Request {
        self.request
    }
}

/// The code-generation targets.
///
/// `Display` writes the `-target` name, and `FromStr` reads it back (also
/// `spirv-assembly`, the reference's name for `spirv-asm`):
///
/// ```
/// use legalis::Target;
/// let target: Target = "wgsl".parse().unwrap();
/// assert_eq!(target, Target::Wgsl);
/// assert_eq!(target.to_string(), "wgsl");
/// assert!("hlsl".parse::<Target>().is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Target {
    /// GLSL 4.50 text for Vulkan.
    Glsl,
    /// A SPIR-V binary (little-endian words).
    Spirv,
    /// SPIR-V assembly text.
    SpirvAsm,
    /// Metal Shading Language text.
    Metal,
    /// WGSL text.
    Wgsl,
    /// WGSL, then SPIR-V assembly from it: naga's SPIR-V writer on the WGSL
    /// Legalis wrote (the reference's `wgsl-spirv-asm`).
    WgslSpirvAsm,
    /// CUDA C++ for compute kernels and OptiX programs.
    Cuda,
}

impl Target {
    /// Every target, in the order `-help` lists them.
    pub const ALL: [Target; 7] = [
        Target::Glsl,
        Target::Spirv,
        Target::SpirvAsm,
        Target::Metal,
        Target::Wgsl,
        Target::WgslSpirvAsm,
        Target::Cuda,
    ];

    /// The `-target` name.
    pub fn name(self) -> &'static str {
        match self {
            Target::Glsl => "glsl",
            Target::Spirv => "spirv",
            Target::SpirvAsm => "spirv-asm",
            Target::Metal => "metal",
            Target::Wgsl => "wgsl",
            Target::WgslSpirvAsm => "wgsl-spirv-asm",
            Target::Cuda => "cuda",
        }
    }

    /// The target a `-target` name means: its [`Target::name`], or
    /// `spirv-assembly`, the reference's name for `spirv-asm`.
    pub fn from_name(name: &str) -> Option<Target> {
        match name {
            "spirv-assembly" => Some(Target::SpirvAsm),
            _ => Target::ALL.into_iter().find(|t| t.name() == name),
        }
    }

    /// Whether this build can generate code for the target.
    pub fn is_implemented(self) -> bool {
        matches!(
            self,
            Target::Glsl
                | Target::Spirv
                | Target::SpirvAsm
                | Target::Wgsl
                | Target::WgslSpirvAsm
                | Target::Metal
                | Target::Cuda
        )
    }
}

impl std::fmt::Display for Target {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Target {
    type Err = UnknownTarget;

    fn from_str(name: &str) -> Result<Target, UnknownTarget> {
        Target::from_name(name).ok_or_else(|| UnknownTarget(name.to_string()))
    }
}

/// A target name [`Target`] does not know; `Display` lists the known ones.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownTarget(pub String);

impl std::fmt::Display for UnknownTarget {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "unknown target '{}'; targets:", self.0)?;
        for target in Target::ALL {
            write!(f, " {target}")?;
        }
        Ok(())
    }
}

impl std::error::Error for UnknownTarget {}

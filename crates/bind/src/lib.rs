//! The binding plan: which binding every resource of an entry point gets on
//! one target, and why.
//!
//! [`plan`] runs once per compile, on the module the target's legalizer
//! produced (entry-point `uniform` parameters are globals by then). The
//! writers read the [`Plan`] instead of numbering resources themselves, and
//! `-dump-bindings` prints it ([`render_text`], [`render_json`]). The rules
//! per target are in [`rules`]; the checks that come with them (D3D11 slot
//! limits, overlapping explicit bindings, register classes that do not fit
//! their resource) in [`check`]. docs/design/bindings.md describes both.
//!
//! ```
//! use legalis_bind::{Place, Target};
//! use legalis_legalize::Family;
//!
//! let source = r#"
//! Texture2D tex : register(t3);
//! SamplerState smp : register(s0);
//! [shader("fragment")]
//! float4 main(float2 uv : TEXCOORD0) : SV_Target { return tex.Sample(smp, uv); }
//! "#;
//! let module = legalis_front::compile(source, &Default::default()).module.unwrap();
//! let policy = legalis_ir::Policy::default();
//! let legalized = legalis_legalize::glsl::Glsl::legalize(&module, 0, &policy).unwrap();
//! let planned = legalis_bind::plan(&legalized.module, 0, Target::Vulkan, &Default::default());
//! assert!(!planned.has_errors());
//! let tex = planned.plan.resources.iter().find(|r| r.name == "tex").unwrap();
//! // Vulkan takes the register's number as the binding, in set 0.
//! assert_eq!(tex.place, Place::Descriptor { set: 0, binding: 3 });
//! ```

#![warn(missing_docs)]

pub mod check;
pub mod codes;
mod dump;
pub mod rules;

use std::collections::{BTreeSet, HashMap};

use legalis_ir as ir;
use legalis_ir::diag::Diagnostic;
use legalis_ir::{
    AddressSpace, ArraySize, BufferKind, Handle, Register, RegisterClass, ResourceAccess,
    ShaderStage, Span, TypeInner,
};

pub use dump::{SCHEMA, render_json, render_text};

/// The targets whose binding rules differ. GLSL and SPIR-V share the
/// Vulkan rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Target {
    /// GLSL and SPIR-V: descriptor sets and bindings ([`rules::vulkan`]).
    Vulkan,
    /// WGSL: the Vulkan rule with every `@group`/`@binding` pair distinct
    /// ([`rules::wgsl`]).
    Wgsl,
    /// Metal: argument-table indices ([`rules::metal`]).
    Metal,
    /// CUDA and OptiX: kernel parameters or `LaunchParams` members
    /// ([`rules::cuda`]).
    Cuda,
}

/// What a resource is, as the source spells its type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// A read-only texture (`Texture2D`, `TextureCube`, `Texture2DMS` ...).
    Texture,
    /// A texture with write access (`RWTexture2D` ...).
    RwTexture,
    /// `SamplerState`.
    Sampler,
    /// `SamplerComparisonState`.
    SamplerComparison,
    /// `cbuffer` or `ConstantBuffer<T>`.
    ConstantBuffer,
    /// `tbuffer` or `TextureBuffer<T>`.
    TextureBuffer,
    /// `Buffer<T>`.
    TypedBuffer,
    /// `RWBuffer<T>`.
    RwTypedBuffer,
    /// `StructuredBuffer<T>`.
    StructuredBuffer,
    /// `RWStructuredBuffer<T>`.
    RwStructuredBuffer,
    /// `AppendStructuredBuffer<T>`.
    AppendStructuredBuffer,
    /// `ConsumeStructuredBuffer<T>`.
    ConsumeStructuredBuffer,
    /// `ByteAddressBuffer`.
    ByteAddressBuffer,
    /// `RWByteAddressBuffer`.
    RwByteAddressBuffer,
    /// `RaytracingAccelerationStructure`.
    AccelerationStructure,
    /// `SubpassInput<T>`: an input attachment (GLSL and SPIR-V descriptors;
    /// Metal reads it as a `[[color(n)]]` input, outside the tables).
    SubpassInput,
    /// The `_Globals` block of plain uniforms.
    Globals,
}

impl Kind {
    /// The resource kind of a (non-array) type; `None` for a plain value.
    pub fn of(inner: &TypeInner) -> Option<Kind> {
        let rw = |access: ResourceAccess| access != ResourceAccess::Read;
        Some(match *inner {
            TypeInner::Texture(ir::Texture { access, .. }) if rw(access) => Kind::RwTexture,
            TypeInner::Texture(_) => Kind::Texture,
            TypeInner::Sampler { comparison: true } => Kind::SamplerComparison,
            TypeInner::Sampler { comparison: false } => Kind::Sampler,
            TypeInner::ConstantBuffer { .. } => Kind::ConstantBuffer,
            TypeInner::TextureBuffer { .. } => Kind::TextureBuffer,
            TypeInner::AccelerationStructure => Kind::AccelerationStructure,
            TypeInner::SubpassInput { .. } => Kind::SubpassInput,
            TypeInner::Buffer { kind, access, .. } => match (kind, rw(access)) {
                (BufferKind::Typed, false) => Kind::TypedBuffer,
                (BufferKind::Typed, true) => Kind::RwTypedBuffer,
                (BufferKind::Structured, false) => Kind::StructuredBuffer,
                (BufferKind::Structured, true) => Kind::RwStructuredBuffer,
                (BufferKind::ByteAddress, false) => Kind::ByteAddressBuffer,
                (BufferKind::ByteAddress, true) => Kind::RwByteAddressBuffer,
                (BufferKind::Append, _) => Kind::AppendStructuredBuffer,
                (BufferKind::Consume, _) => Kind::ConsumeStructuredBuffer,
            },
            _ => return None,
        })
    }

    /// The D3D register class the resource belongs in.
    pub fn class(self) -> RegisterClass {
        match self {
            Kind::Texture
            | Kind::TextureBuffer
            | Kind::TypedBuffer
            | Kind::StructuredBuffer
            | Kind::ByteAddressBuffer
            | Kind::AccelerationStructure
            | Kind::SubpassInput => RegisterClass::T,
            Kind::RwTexture
            | Kind::RwTypedBuffer
            | Kind::RwStructuredBuffer
            | Kind::AppendStructuredBuffer
            | Kind::ConsumeStructuredBuffer
            | Kind::RwByteAddressBuffer => RegisterClass::U,
            Kind::Sampler | Kind::SamplerComparison => RegisterClass::S,
            Kind::ConstantBuffer | Kind::Globals => RegisterClass::B,
        }
    }

    /// The kind's name in dumps and messages.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Texture => "texture",
            Kind::RwTexture => "rw-texture",
            Kind::Sampler => "sampler",
            Kind::SamplerComparison => "comparison-sampler",
            Kind::ConstantBuffer => "constant-buffer",
            Kind::TextureBuffer => "texture-buffer",
            Kind::TypedBuffer => "typed-buffer",
            Kind::RwTypedBuffer => "rw-typed-buffer",
            Kind::StructuredBuffer => "structured-buffer",
            Kind::RwStructuredBuffer => "rw-structured-buffer",
            Kind::AppendStructuredBuffer => "append-structured-buffer",
            Kind::ConsumeStructuredBuffer => "consume-structured-buffer",
            Kind::ByteAddressBuffer => "byte-address-buffer",
            Kind::RwByteAddressBuffer => "rw-byte-address-buffer",
            Kind::AccelerationStructure => "acceleration-structure",
            Kind::SubpassInput => "subpass-input",
            Kind::Globals => "globals-block",
        }
    }
}

/// The letter of a register class, as `register(...)` spells it.
pub(crate) fn class_letter(class: RegisterClass) -> char {
    match class {
        RegisterClass::T => 't',
        RegisterClass::S => 's',
        RegisterClass::U => 'u',
        RegisterClass::B => 'b',
        RegisterClass::C => 'c',
    }
}

/// `-fvk-<class>-shift N SPACE`: explicit registers of `class` in `space`
/// (every space when `None`, the option's `all`) move up by `amount` on
/// GLSL and SPIR-V.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shift {
    /// The register class it shifts (`t`, `s`, `u` or `b`).
    pub class: RegisterClass,
    /// The register space it applies to; `None` for every space.
    pub space: Option<u32>,
    /// The number added to the register's index to get the binding.
    pub amount: u32,
}

/// The binding options of the command line.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// The `-fvk-*-shift` options in command-line order; for one class and
    /// space the last that matches wins.
    pub shifts: Vec<Shift>,
    /// `-fvk-bind-globals N SET`: `(binding, set)` of the `_Globals` block.
    pub bind_globals: Option<(u32, u32)>,
}

impl Options {
    /// The shift that applies to `class` registers of `space`.
    pub fn shift(&self, class: RegisterClass, space: u32) -> Option<Shift> {
        self.shifts
            .iter()
            .rev()
            .find(|s| s.class == class && s.space.is_none_or(|x| x == space))
            .copied()
    }
}

/// How many bindings a resource declaration holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Count {
    /// A single resource.
    One,
    /// An array of this many (the product of the lengths for nested
    /// arrays).
    Array(u32),
    /// `Texture2D t[]`.
    Unsized,
}

impl Count {
    /// Slots it occupies in a D3D register range (an unsized array one).
    pub fn slots(self) -> u32 {
        match self {
            Count::One | Count::Unsized => 1,
            Count::Array(n) => n.max(1),
        }
    }
}

/// A Metal argument table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MetalTable {
    /// `[[buffer(n)]]`: constant, structured and byte-address buffers and
    /// `_Globals`.
    Buffer,
    /// `[[texture(n)]]`: textures and typed buffers (`texture_buffer`).
    Texture,
    /// `[[sampler(n)]]`.
    Sampler,
}

impl MetalTable {
    /// The attribute's name, as in `[[buffer(n)]]`: `buffer`, `texture`
    /// or `sampler`.
    pub fn attribute(self) -> &'static str {
        match self {
            MetalTable::Buffer => "buffer",
            MetalTable::Texture => "texture",
            MetalTable::Sampler => "sampler",
        }
    }

    /// The highest index of the table a Metal function may use: buffers
    /// 0-30, textures 0-127 (macOS; iOS has 0-30), samplers 0-15.
    pub fn last_index(self) -> u32 {
        match self {
            MetalTable::Buffer => 30,
            MetalTable::Texture => 127,
            MetalTable::Sampler => 15,
        }
    }
}

/// Where a resource is on the plan's target.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place {
    /// GLSL/SPIR-V `set`/`binding`, WGSL `@group`/`@binding`.
    Descriptor {
        /// The descriptor set (WGSL's group).
        set: u32,
        /// The binding within the set.
        binding: u32,
    },
    /// Metal `[[buffer(n)]]`, `[[texture(n)]]`, `[[sampler(n)]]`.
    Metal {
        /// The argument table.
        table: MetalTable,
        /// The index in the table (`n`), at most [`MetalTable::last_index`]
        /// when the plan has no `E48009` error.
        index: u32,
    },
    /// Parameter N of a CUDA kernel.
    KernelParameter(u32),
    /// Member N of an OptiX program's `LaunchParams`.
    LaunchParams(u32),
    /// Not in the output: the entry point does not use it (Metal, CUDA),
    /// or the target has no place for the kind (the writer says which).
    None,
}

/// One resource (or the `_Globals` block) and its place.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Resource {
    /// The global; `None` for the `_Globals` block.
    pub global: Option<Handle<ir::GlobalVariable>>,
    /// The global's name as declared; `_Globals` for the block.
    pub name: String,
    /// The declaration (for `_Globals`, its first plain uniform).
    pub span: Span,
    /// What the resource is (of an array, its element's kind).
    pub kind: Kind,
    /// The source type (of an array, its element's), as the IR printer
    /// spells it.
    pub ty: String,
    /// How many bindings the declaration holds (one, or an array's length).
    pub count: Count,
    /// Its `register(xN, spaceS)`, if it has one.
    pub register: Option<Register>,
    /// Its `[[vk::binding(binding, set)]]` as `(binding, set)`, if it has
    /// one.
    pub vk_binding: Option<(u32, u32)>,
    /// A descriptor heap of `DescriptorHandle<T>`: its binding in the
    /// first descriptor set no other resource uses (GLSL and SPIR-V only).
    pub descriptor_heap: Option<u32>,
    /// The ordinal of the `ParameterBlock` it is or came from: its own
    /// descriptor set (GLSL, SPIR-V, WGSL).
    pub parameter_block: Option<u32>,
    /// Whether the entry point reaches it.
    pub used: bool,
    /// Where the target's rule put it.
    pub place: Place,
    /// Why it got its place.
    pub reason: String,
}

/// Every resource of a module and its place on one target.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plan {
    /// The rule the places follow.
    pub target: Target,
    /// The entry point's name; for a plan of several
    /// ([`plan_entries`]), their names joined by `, `.
    pub entry: String,
    /// The (first) entry point's stage.
    pub stage: ShaderStage,
    /// Declaration order, `_Globals` (when plain uniforms exist) first.
    pub resources: Vec<Resource>,
    index: HashMap<Handle<ir::GlobalVariable>, usize>,
}

impl Plan {
    /// The plan's entry of global `g`, when it is a resource.
    pub fn get(&self, g: Handle<ir::GlobalVariable>) -> Option<&Resource> {
        self.index.get(&g).map(|&i| &self.resources[i])
    }

    /// The place of resource global `g`.
    pub fn place(&self, g: Handle<ir::GlobalVariable>) -> Place {
        self.get(g).map_or(Place::None, |r| r.place)
    }

    /// `(set, binding)` of resource global `g`.
    pub fn descriptor(&self, g: Handle<ir::GlobalVariable>) -> Option<(u32, u32)> {
        match self.place(g) {
            Place::Descriptor { set, binding } => Some((set, binding)),
            _ => None,
        }
    }

    /// The `_Globals` block's entry.
    pub fn globals_block(&self) -> Option<&Resource> {
        self.resources.iter().find(|r| r.kind == Kind::Globals)
    }

    /// `(set, binding)` of the `_Globals` block.
    pub fn globals_descriptor(&self) -> Option<(u32, u32)> {
        match self.globals_block()?.place {
            Place::Descriptor { set, binding } => Some((set, binding)),
            _ => None,
        }
    }
}

/// A plan and the diagnostics its checks found.
#[derive(Debug)]
pub struct Planned {
    /// The plan, complete even when the checks found errors.
    pub plan: Plan,
    /// The checks' findings (codes `E48001`-`E48009`, [`codes`]), in
    /// declaration order per check.
    pub diagnostics: Vec<Diagnostic>,
}

impl Planned {
    /// Whether any diagnostic is an error; the compile then stops before
    /// any code is written.
    pub fn has_errors(&self) -> bool {
        self.diagnostics.iter().any(Diagnostic::is_error)
    }
}

/// Whether `g` is bound as a descriptor of its own (not in `_Globals`):
/// a uniform resource or array of resources.
pub fn is_resource(module: &ir::Module, g: &ir::GlobalVariable) -> bool {
    g.space == AddressSpace::Uniform
        && Kind::of(&module.types[strip_arrays(module, g.ty).0].inner).is_some()
}

/// Whether `g` is a plain uniform, a member of `_Globals`.
pub fn is_plain_uniform(module: &ir::Module, g: &ir::GlobalVariable) -> bool {
    g.space == AddressSpace::Uniform && !is_resource(module, g)
}

/// The element type under any arrays, and the outer array's count.
fn strip_arrays(module: &ir::Module, ty: Handle<ir::Type>) -> (Handle<ir::Type>, Count) {
    let mut count = Count::One;
    let mut ty = ty;
    while let TypeInner::Array { base, size } = module.types[ty].inner {
        let n = match size {
            ArraySize::Constant(n) => Count::Array(n),
            ArraySize::Unsized => Count::Unsized,
        };
        count = match (count, n) {
            (Count::One, n) => n,
            (Count::Array(a), Count::Array(b)) => Count::Array(a.saturating_mul(b)),
            _ => Count::Unsized,
        };
        ty = base;
    }
    (ty, count)
}

/// Plans entry point `entry` of `module` (as legalized for `target`) and
/// checks it.
pub fn plan(module: &ir::Module, entry: usize, target: Target, options: &Options) -> Planned {
    plan_entries(module, &[entry], target, options)
}

/// [`plan`] for a module of several entry points (`entries`, at least
/// one): a resource is used when any of them reaches it, and one
/// placement serves them all. The plan is named after them all, joined
/// by `, `, with the first one's stage.
pub fn plan_entries(
    module: &ir::Module,
    entries: &[usize],
    target: Target,
    options: &Options,
) -> Planned {
    let mut used = BTreeSet::new();
    for &entry in entries {
        used.extend(reached_globals(module, entry));
    }
    let entry_point = &module.entry_points[entries[0]];
    let names: Vec<&str> = entries
        .iter()
        .map(|&e| module.entry_points[e].name.as_str())
        .collect();
    let mut resources = Vec::new();
    let mut plain_used = false;
    let mut first_plain = None;
    for (h, g) in module.globals.iter() {
        if g.space != AddressSpace::Uniform {
            continue;
        }
        let (element, count) = strip_arrays(module, g.ty);
        let Some(kind) = Kind::of(&module.types[element].inner) else {
            first_plain.get_or_insert(module.globals.span(h));
            plain_used |= used.contains(&h);
            continue;
        };
        resources.push(Resource {
            global: Some(h),
            name: g.name.clone(),
            span: module.globals.span(h),
            kind,
            ty: ir::print::type_name(module, element),
            count,
            register: g.binding.register,
            vk_binding: g.binding.vk_binding,
            descriptor_heap: g.binding.descriptor_heap,
            parameter_block: g.binding.parameter_block,
            used: used.contains(&h),
            place: Place::None,
            reason: String::new(),
        });
    }
    if let Some(span) = first_plain {
        resources.insert(
            0,
            Resource {
                global: None,
                name: "_Globals".into(),
                span,
                kind: Kind::Globals,
                ty: "_Globals".into(),
                count: Count::One,
                register: None,
                vk_binding: None,
                descriptor_heap: None,
                parameter_block: None,
                used: plain_used,
                place: Place::None,
                reason: String::new(),
            },
        );
    }
    let mut plan = Plan {
        target,
        entry: names.join(", "),
        stage: entry_point.stage,
        index: resources
            .iter()
            .enumerate()
            .filter_map(|(i, r)| Some((r.global?, i)))
            .collect(),
        resources,
    };
    match target {
        Target::Vulkan => rules::vulkan(&mut plan, options),
        Target::Wgsl => rules::wgsl(&mut plan, options),
        Target::Metal => rules::metal(&mut plan),
        Target::Cuda => rules::cuda(&mut plan),
    }
    let diagnostics = check::check(&plan);
    Planned { plan, diagnostics }
}

/// The globals entry point `entry` reaches: through its functions'
/// expressions, the functions they call, and the initializers of the
/// globals those read (`ir::Reach`).
pub fn reached_globals(module: &ir::Module, entry: usize) -> BTreeSet<Handle<ir::GlobalVariable>> {
    ir::Reach::of_entry_point(module, &module.entry_points[entry])
        .globals()
        .collect()
}

//! Cross-stage linking, whatever the target: the entry points of one
//! pipeline legalized together so that what a stage writes and the next
//! reads agree, keyed by semantic.
//!
//! The stages are ordered as the pipeline runs them ([`pipeline_order`]).
//! For each pair, each target's linker (`legalis_legalize::glsl::link`,
//! `legalis_legalize::wgsl::link_inputs`,
//! `legalis_legalize::metal::link_inputs`) describes the user
//! varyings of both plans as [`Varying`]s and [`match_inputs`] checks them:
//! every user-semantic input must be written by the producer, with the same
//! type, the same per-patch-ness (hull to domain), and, into a fragment
//! shader, the same interpolation (and on WGSL, whose pipelines require it,
//! the same sampling); [`check_payload`] checks that an amplification and a
//! mesh shader agree on the payload type. Every disagreement is a
//! diagnostic naming both sides. The target then places the consumer's
//! inputs where the producer writes them ([`Linked`]: GLSL, SPIR-V and
//! WGSL by location; Metal by the `[[user(...)]]` name, which the semantic
//! already gives both sides).
//!
//! Inputs without a user semantic are not keyed, so not checked: they keep
//! the place their stage alone gives them, on every target.

use crate as ir;
use crate::codes;
use crate::diag::Diagnostic;
use crate::{Handle, Span, Type};

/// The pipeline position of a stage, or `None` for stages that link with
/// no other (compute, ray tracing).
fn rank(stage: ir::ShaderStage) -> Option<u8> {
    use ir::ShaderStage as S;
    match stage {
        S::Vertex | S::Amplification => Some(0),
        S::Hull => Some(1),
        S::Domain => Some(2),
        S::Geometry | S::Mesh => Some(3),
        S::Fragment => Some(4),
        _ => None,
    }
}

/// The entry points `chosen` (indices into `module.entry_points`) in the
/// order the pipeline runs them; `E49803` when they are not one pipeline.
pub fn pipeline_order(
    module: &ir::Module,
    chosen: &[usize],
) -> Result<Vec<usize>, Vec<Diagnostic>> {
    let mut errors = Vec::new();
    let mut ranked = Vec::new();
    for &i in chosen {
        let entry = &module.entry_points[i];
        match rank(entry.stage) {
            Some(r) => ranked.push((r, i)),
            None => errors.push(Diagnostic::error(
                codes::LINK_STAGES,
                format!(
                    "{} entry point `{}` is in no graphics pipeline: only vertex, hull, domain, \
                     geometry, amplification, mesh and fragment stages link",
                    entry.stage.name(),
                    entry.name
                ),
                entry.span,
            )),
        }
    }
    ranked.sort();
    for pair in ranked.windows(2) {
        let (a, b) = (
            &module.entry_points[pair[0].1],
            &module.entry_points[pair[1].1],
        );
        let mesh_family = |s: ir::ShaderStage| {
            matches!(s, ir::ShaderStage::Amplification | ir::ShaderStage::Mesh)
        };
        let vertex_family = |s: ir::ShaderStage| {
            matches!(
                s,
                ir::ShaderStage::Vertex
                    | ir::ShaderStage::Hull
                    | ir::ShaderStage::Domain
                    | ir::ShaderStage::Geometry
            )
        };
        let mixed = (mesh_family(a.stage) && vertex_family(b.stage))
            || (vertex_family(a.stage) && mesh_family(b.stage));
        if pair[0].0 == pair[1].0 || mixed {
            errors.push(
                Diagnostic::error(
                    codes::LINK_STAGES,
                    format!(
                        "`{}` ({}) and `{}` ({}) cannot be stages of one pipeline",
                        a.name,
                        a.stage.name(),
                        b.name,
                        b.stage.name()
                    ),
                    b.span,
                )
                .with_label(a.span, "the other one"),
            );
        }
    }
    if errors.is_empty() {
        Ok(ranked.into_iter().map(|(_, i)| i).collect())
    } else {
        Err(errors)
    }
}

/// `(NAME, index)` of a user semantic, upper case: semantics match across
/// stages case-insensitively.
pub fn semantic_key(semantic: &ir::Semantic) -> Option<(String, u32)> {
    match semantic {
        ir::Semantic::User { name, index } => Some((name.to_ascii_uppercase(), *index)),
        _ => None,
    }
}

/// What the previous stage of a linked pipeline fixed for this entry
/// point's inputs: for each user semantic it writes, the location and
/// whether it is per primitive (a mesh shader's primitive outputs).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Linked {
    /// One per input the previous stage writes, in the input's order.
    pub inputs: Vec<LinkedInput>,
    /// A domain shader after its hull: the hull's `[partitioning]`, which
    /// GLSL states in the evaluation shader only.
    pub partitioning: Option<ir::Partitioning>,
    /// A domain shader after its hull: the hull's `[outputtopology]`
    /// (the winding, or point mode), as [`Linked::partitioning`].
    pub output_topology: Option<ir::OutputTopology>,
}

/// Where the previous stage writes one input.
#[derive(Clone, Debug, PartialEq)]
pub struct LinkedInput {
    /// The semantic's name, upper case, and index.
    pub semantic: (String, u32),
    /// The producer's location for it.
    pub location: u32,
    /// The producer writes it per primitive (a mesh shader's primitive
    /// output), so the input is per primitive too.
    pub per_primitive: bool,
}

impl Linked {
    /// Whether the previous stage fixes nothing of this one.
    pub fn is_empty(&self) -> bool {
        self.inputs.is_empty() && self.partitioning.is_none() && self.output_topology.is_none()
    }

    /// The producer's slot for a leaf's user semantic.
    pub fn find(&self, semantic: Option<&ir::Semantic>) -> Option<&LinkedInput> {
        let key = semantic_key(semantic?)?;
        self.inputs.iter().find(|i| i.semantic == key)
    }
}

/// One side of a link: an entry point of the module both stages were
/// legalized from.
#[derive(Clone, Copy, Debug)]
pub struct Side<'a> {
    /// The entry point's name.
    pub entry: &'a str,
    /// Its stage.
    pub stage: ir::ShaderStage,
}

impl Side<'_> {
    /// The entry point's declaration in `module`.
    fn find<'m>(&self, module: &'m ir::Module) -> Option<&'m ir::EntryPoint> {
        module
            .entry_points
            .iter()
            .find(|e| e.name == self.entry && e.stage == self.stage)
    }
}

/// A user varying of one side, as its target's legalizer placed it: an
/// output of the producer or an input of the consumer.
#[derive(Clone, Copy, Debug)]
pub struct Varying<'a> {
    /// `input.uv`, `return.color`: what messages call it.
    pub path: &'a str,
    /// Its semantic; only user semantics key a link.
    pub semantic: Option<&'a ir::Semantic>,
    /// Its type as declared, in the module both sides were legalized from.
    pub ty: Handle<Type>,
    /// Its interpolation after the legalizer's rules (integers flat).
    pub interpolation: ir::Interpolation,
    /// One value per patch (hull outputs of the patch-constant function,
    /// domain inputs outside the control points).
    pub patch: bool,
    /// Where its stage placed it: its location (Metal links by name
    /// instead, and ignores it).
    pub location: u32,
    /// One value per primitive (a mesh shader's primitive outputs).
    pub per_primitive: bool,
    /// The declaration (diagnostics point here).
    pub span: Span,
}

/// What a target's pipelines require beyond what every target checks.
#[derive(Clone, Copy, Debug, Default)]
pub struct Rules {
    /// The sampling (`centroid`, `sample`, or the centre) must agree too,
    /// as WebGPU's pipeline validation requires of WGSL; elsewhere the
    /// consumer's sampling decides.
    pub sampling: bool,
}

/// Checks every keyed input of `consumer` (`inputs`) against the outputs
/// `producer` writes (`outputs`): each must be written, with the same type,
/// per-patch-ness and, into a fragment shader, interpolation (and sampling
/// where `rules` say). `module` is the module both sides were legalized
/// from. Returns where the producer writes each keyed input ([`Linked`]),
/// or every disagreement, each naming both sides (`E49801`, `E49802`).
pub fn match_inputs(
    module: &ir::Module,
    producer: Side,
    outputs: &[Varying],
    consumer: Side,
    inputs: &[Varying],
    rules: Rules,
) -> Result<Linked, Vec<Diagnostic>> {
    let producer_span = producer.find(module).map_or(Span::UNDEFINED, |e| e.span);
    let mut errors = Vec::new();
    let mut linked = Linked::default();
    for input in inputs {
        let Some(key) = input.semantic.and_then(semantic_key) else {
            continue;
        };
        let written = outputs
            .iter()
            .position(|o| o.semantic.and_then(semantic_key).as_ref() == Some(&key));
        let Some(o) = written else {
            errors.push(
                Diagnostic::error(
                    codes::LINK_UNWRITTEN,
                    format!(
                        "{} input `{}` ({}{}) is written by no earlier stage",
                        consumer.stage.name(),
                        input.path,
                        key.0,
                        key.1
                    ),
                    input.span,
                )
                .with_label(
                    producer_span,
                    format!(
                        "the {} entry point `{}` writes no `{}{}`",
                        producer.stage.name(),
                        producer.entry,
                        key.0,
                        key.1
                    ),
                ),
            );
            continue;
        };
        let output = &outputs[o];
        match disagreement(module, producer, output, consumer, input, rules) {
            Some(what) => errors.push(
                Diagnostic::error(codes::LINK_MISMATCH, what, input.span)
                    .with_label(output.span, format!("written here by `{}`", producer.entry)),
            ),
            None => linked.inputs.push(LinkedInput {
                semantic: key,
                location: output.location,
                per_primitive: output.per_primitive,
            }),
        }
    }
    if errors.is_empty() {
        Ok(linked)
    } else {
        Err(errors)
    }
}

/// The first way `input` disagrees with the `output` of the same
/// semantic, as the message that says so.
fn disagreement(
    module: &ir::Module,
    producer: Side,
    output: &Varying,
    consumer: Side,
    input: &Varying,
    rules: Rules,
) -> Option<String> {
    let (path, p, c) = (input.path, producer.entry, consumer.entry);
    let (produced, consumed) = (
        ir::print::type_name(module, output.ty),
        ir::print::type_name(module, input.ty),
    );
    if produced != consumed {
        return Some(format!(
            "`{path}` is `{consumed}` in `{c}` and `{produced}` in `{p}`, which writes it"
        ));
    }
    if output.patch != input.patch {
        let each = |patch: bool| {
            if patch {
                "per patch"
            } else {
                "per control point"
            }
        };
        return Some(format!(
            "`{path}` is read {} in `{c}` but written {} in `{p}`",
            each(input.patch),
            each(output.patch),
        ));
    }
    if consumer.stage != ir::ShaderStage::Fragment {
        return None;
    }
    let (a, b) = (
        interpolation(output.interpolation),
        interpolation(input.interpolation),
    );
    if a != b {
        return Some(format!(
            "`{path}` is interpolated `{b}` in `{c}` but declared `{a}` in `{p}`"
        ));
    }
    let (a, b) = (
        sampling(output.interpolation),
        sampling(input.interpolation),
    );
    if rules.sampling && a != b {
        return Some(format!(
            "`{path}` is sampled `{b}` in `{c}` but `{a}` in `{p}`, which writes it: both \
             sides of a WGSL varying sample alike"
        ));
    }
    None
}

/// A varying's interpolation mode, by its HLSL name.
fn interpolation(interpolation: ir::Interpolation) -> &'static str {
    match interpolation.mode {
        None | Some(ir::InterpolationMode::Linear) => "linear",
        Some(ir::InterpolationMode::Flat) => "nointerpolation",
        Some(ir::InterpolationMode::NoPerspective) => "noperspective",
    }
}

/// A varying's sampling, by its HLSL name (`center` when none is given).
fn sampling(interpolation: ir::Interpolation) -> &'static str {
    match interpolation.sampling {
        None => "center",
        Some(ir::Sampling::Centroid) => "centroid",
        Some(ir::Sampling::Sample) => "sample",
    }
}

/// The payload an amplification shader dispatches, as its target's
/// legalizer found it.
#[derive(Clone, Debug)]
pub struct Dispatched {
    /// The payload's type name.
    pub ty: String,
    /// Where it is dispatched (or declared).
    pub span: Span,
    /// The label there.
    pub label: String,
}

/// The amplification shader `producer`'s payload (`dispatched`, `None`
/// when it dispatches none) and the mesh shader `mesh`'s `in payload` must
/// be the same type: `E49802` when they are not, `E49801` when the mesh
/// shader reads a payload the amplification shader never dispatches.
pub fn check_payload(
    module: &ir::Module,
    producer: Side,
    dispatched: Option<Dispatched>,
    mesh: &ir::EntryPoint,
    errors: &mut Vec<Diagnostic>,
) {
    let read = module.functions[mesh.function]
        .params
        .iter()
        .find(|p| p.role == ir::ParamRole::Payload);
    match (dispatched, read) {
        (Some(written), Some(param)) => {
            let read_ty = ir::print::type_name(module, param.ty);
            if written.ty != read_ty {
                errors.push(
                    Diagnostic::error(
                        codes::LINK_MISMATCH,
                        format!(
                            "the payload is `{read_ty}` in `{}` and `{}` in `{}`, which \
                             dispatches it",
                            mesh.name, written.ty, producer.entry
                        ),
                        param.span,
                    )
                    .with_label(written.span, written.label),
                );
            }
        }
        (None, Some(param)) => errors.push(Diagnostic::error(
            codes::LINK_UNWRITTEN,
            format!(
                "`{}` reads a payload that `{}` never dispatches",
                mesh.name, producer.entry
            ),
            param.span,
        )),
        _ => {}
    }
}

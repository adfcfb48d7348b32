//! Collects the leaves of an entry point's signature and decides, from the
//! system-value table, which are builtins and which are plain varyings.
//! An unknown `SV_*` semantic is rejected here with `E49999` at its
//! declaration (B5); a known one the stage cannot use gets the table's code.

use legalis_ir as ir;
use legalis_ir::diag::Diagnostic;
use legalis_ir::{Handle, Semantic, Span, Type, TypeInner};
use legalis_sysval::codes::NOT_SUPPORTED_YET;
use legalis_sysval::{Access, ArrayIndex, Direction, GlslBuiltin, GlslMapping};

use crate::codes;
use crate::common::leaves;
use crate::glsl::plan::{Part, Reason, Root, Target};

/// A leaf before locations are assigned.
#[derive(Clone, Debug)]
pub struct RawLeaf {
    pub path: String,
    pub root: Root,
    pub members: Vec<u32>,
    pub direction: Direction,
    pub ty: Handle<Type>,
    pub io: ir::IoAttrs,
    pub span: Span,
    /// `None` until locations are assigned; builtins and uniforms are decided here.
    pub target: Option<(Target, Reason)>,
    /// For `SV_Target2`-style leaves: the location the semantic index fixes.
    pub fixed_location: Option<u32>,
    /// Geometry inputs: the leaf is one field of every vertex of the input
    /// primitive, an array of this many elements at the interface.
    pub vertices: Option<u32>,
    /// Geometry outputs: the leaf is a field of the element of output
    /// stream N, written at each `Append`.
    pub stream: Option<u32>,
    /// Read per vertex with `GetAttributeAtVertex` somewhere (B13).
    pub per_vertex: bool,
    /// Mesh outputs: a field of the `out vertices` or `out primitives`
    /// array, an array of `vertices` elements at the interface (B10).
    pub mesh: Option<ir::MeshOutputKind>,
    /// Linked inputs: the previous stage's location and per-primitive flag.
    pub linked: Option<(u32, bool)>,
    /// One scalar of a vector or array declared for consecutive elements
    /// of an arrayed builtin: `float2 c : SV_ClipDistance0` is two leaves,
    /// `c.x` (`gl_ClipDistance[0]`) and `c.y` (`[1]`), each with its part
    /// and the declaration's type.
    pub part: Option<Part>,
}

/// Every leaf of the entry point, in declaration order: parameters first,
/// then the result. With `patch_constant`, `func` is a hull shader's
/// patch-constant function: its leaves are rooted at
/// [`Root::PatchParam`] / [`Root::PatchResult`], and its `InputPatch` /
/// `OutputPatch` parameters have none (the splice passes the hull's own).
pub fn collect_leaves(
    module: &ir::Module,
    func: &ir::Function,
    patch_constant: bool,
) -> Result<Vec<RawLeaf>, Vec<Diagnostic>> {
    let mut leaves = Vec::new();
    let mut errors = Vec::new();
    let mut streams = 0;
    for (index, param) in func.params.iter().enumerate() {
        let root = match patch_constant {
            false => Root::Param(index as u32),
            true => Root::PatchParam(index as u32),
        };
        if patch_constant
            && matches!(
                module.types.try_get(param.ty).map(|t| &t.inner),
                Some(TypeInner::Patch { .. })
            )
        {
            continue;
        }
        let uniform = param.role == ir::ParamRole::Uniform || module.is_resource_type(param.ty);
        if uniform {
            leaves.push(RawLeaf {
                path: param.name.clone(),
                root,
                members: Vec::new(),
                direction: Direction::Input,
                ty: param.ty,
                io: param.io.clone(),
                span: param.span,
                target: Some((Target::Uniform, Reason::Uniform)),
                fixed_location: None,
                vertices: None,
                stream: None,
                per_vertex: false,
                part: None,
                mesh: None,
                linked: None,
            });
            continue;
        }
        let start = Walk {
            root,
            direction: Direction::Input,
            path: param.name.clone(),
            members: Vec::new(),
            vertices: None,
            stream: None,
            mesh: None,
        };
        let (start, ty) = match (module.types.try_get(param.ty).map(|t| &t.inner), param.role) {
            // Mesh outputs: every field of the element is an output array
            // the body writes in place (B10). Indices and the payload have
            // no semantics: `mesh_outputs.rs` makes their globals.
            (
                Some(&TypeInner::MeshOutput {
                    kind: kind @ (ir::MeshOutputKind::Vertices | ir::MeshOutputKind::Primitives),
                    element,
                    count,
                }),
                _,
            ) => {
                let start = Walk {
                    direction: Direction::Output,
                    vertices: Some(count),
                    mesh: Some(kind),
                    ..start
                };
                (start, element)
            }
            (
                Some(TypeInner::MeshOutput {
                    kind: ir::MeshOutputKind::Indices,
                    ..
                }),
                _,
            )
            | (_, ir::ParamRole::Payload) => continue,
            (Some(&TypeInner::Stream { element, .. }), _) => {
                let start = Walk {
                    direction: Direction::Output,
                    stream: Some(streams),
                    ..start
                };
                streams += 1;
                (start, element)
            }
            (
                Some(&TypeInner::Array {
                    base,
                    size: ir::ArraySize::Constant(n),
                }),
                ir::ParamRole::GeometryInput(_),
            )
            | (
                Some(&TypeInner::Patch {
                    element: base,
                    count: n,
                    ..
                }),
                _,
            ) => {
                let start = Walk {
                    vertices: Some(n),
                    ..start
                };
                (start, base)
            }
            _ => {
                for &direction in leaves::directions(param.direction) {
                    let start = Walk {
                        direction,
                        ..start.clone()
                    };
                    walk(
                        module,
                        start,
                        param.ty,
                        &param.io,
                        param.span,
                        &mut leaves,
                        &mut errors,
                    );
                }
                continue;
            }
        };
        walk(
            module,
            start,
            ty,
            &param.io,
            param.span,
            &mut leaves,
            &mut errors,
        );
    }
    if let Some(result) = &func.result {
        let start = Walk {
            root: match patch_constant {
                false => Root::Result,
                true => Root::PatchResult,
            },
            direction: Direction::Output,
            path: match patch_constant {
                false => "return".into(),
                true => format!("{}.return", func.name),
            },
            members: Vec::new(),
            vertices: None,
            stream: None,
            mesh: None,
        };
        walk(
            module,
            start,
            result.ty,
            &result.io,
            result.span,
            &mut leaves,
            &mut errors,
        );
    }
    leaves::collected(leaves, errors)
}

/// Where the walk is.
#[derive(Clone)]
struct Walk {
    root: Root,
    direction: Direction,
    path: String,
    members: Vec<u32>,
    vertices: Option<u32>,
    stream: Option<u32>,
    mesh: Option<ir::MeshOutputKind>,
}

/// Flattens structs into their fields; anything else is one leaf.
fn walk(
    module: &ir::Module,
    at: Walk,
    ty: Handle<Type>,
    io: &ir::IoAttrs,
    span: Span,
    leaves: &mut Vec<RawLeaf>,
    errors: &mut Vec<Diagnostic>,
) {
    // A vector or array of clip or cull distances: one leaf per scalar, on
    // consecutive registers or components, packed later (B15).
    if let Some((value, index)) = distance_semantic(io) {
        let parts: Vec<(Part, String)> = match module.types.try_get(ty).map(|t| &t.inner) {
            Some(&TypeInner::Vector { size, .. }) => (0..size)
                .map(|j| {
                    (
                        Part::Component(j),
                        ["x", "y", "z", "w"][usize::from(j & 3)].to_string(),
                    )
                })
                .collect(),
            Some(&TypeInner::Array {
                size: ir::ArraySize::Constant(n),
                ..
            }) => (0..n)
                .map(|k| (Part::Element(k), format!("[{k}]")))
                .collect(),
            _ => Vec::new(),
        };
        for (k, (part, suffix)) in parts.iter().enumerate() {
            let mut part_io = io.clone();
            part_io.binding = Some(ir::Binding::Semantic(Semantic::System {
                value,
                index: index.saturating_add(k as u32),
            }));
            let sep = if suffix.starts_with('[') { "" } else { "." };
            leaves.push(RawLeaf {
                path: format!("{}{sep}{suffix}", at.path),
                root: at.root.clone(),
                members: at.members.clone(),
                direction: at.direction,
                ty,
                io: part_io,
                span,
                target: None,
                fixed_location: None,
                vertices: at.vertices,
                stream: at.stream,
                per_vertex: false,
                part: Some(*part),
                mesh: at.mesh,
                linked: None,
            });
        }
        if !parts.is_empty() {
            return;
        }
    }
    match module.types.try_get(ty).map(|t| &t.inner) {
        Some(TypeInner::Struct { members }) => {
            leaves.reserve(members.len());
            for field in leaves::fields(members, io, &at.path, &at.members) {
                let next = Walk {
                    root: at.root.clone(),
                    direction: at.direction,
                    path: field.path,
                    members: field.members,
                    vertices: at.vertices,
                    stream: at.stream,
                    mesh: at.mesh,
                };
                let member = field.member;
                walk(module, next, member.ty, &field.io, member.span, leaves, errors);
            }
        }
        Some(TypeInner::Array { base, .. }) if is_struct(module, *base) => errors.push(Diagnostic::error(
            codes::UNSUPPORTED_SHAPE,
            format!("`{}`: arrays of structs as varyings are not supported by the GLSL legalizer yet", at.path),
            span,
        )),
        Some(TypeInner::Array { base, .. }) if is_bool(module, *base) => errors.push(Diagnostic::error(
            codes::UNSUPPORTED_SHAPE,
            format!("`{}`: arrays of `bool` as varyings are not supported by the GLSL legalizer yet (declare them `uint`)", at.path),
            span,
        )),
        Some(TypeInner::Scalar(_) | TypeInner::Vector { .. } | TypeInner::Matrix { .. } | TypeInner::Array { .. }) => {
            leaves.push(RawLeaf {
                path: at.path,
                root: at.root,
                members: at.members,
                direction: at.direction,
                ty,
                io: io.clone(),
                span,
                target: None,
                fixed_location: None,
                vertices: at.vertices,
                stream: at.stream,
                per_vertex: false,
                part: None,
                mesh: at.mesh,
                linked: None,
            });
        }
        _ => {
            let name = ir::print::type_name(module, ty);
            errors.push(Diagnostic::error(
                codes::UNSUPPORTED_SHAPE,
                format!("`{}` of type `{name}` is not supported as a varying by the GLSL legalizer yet", at.path),
                span,
            ));
        }
    }
}

/// Two leaves on one element of an arrayed builtin in one direction
/// (`float2 c : SV_ClipDistance1` and `float d[2] : SV_ClipDistance0`,
/// whose `d[1]` is register 1 too, both reach `gl_ClipDistance[1]`):
/// `E49993`, naming both.
fn element_conflicts(leaves: &[RawLeaf], errors: &mut Vec<Diagnostic>) {
    let element = |leaf: &RawLeaf| match &leaf.target {
        Some((
            Target::BuiltIn {
                row,
                element: Some(e),
                ..
            },
            _,
        )) => Some((row.glsl_name, leaf.direction, *e)),
        _ => None,
    };
    for (i, leaf) in leaves.iter().enumerate() {
        let Some(key) = element(leaf) else {
            continue;
        };
        if let Some(first) = leaves[..i].iter().find(|l| element(l) == Some(key)) {
            errors.push(
                Diagnostic::error(
                    codes::LOCATION_CONFLICT,
                    format!(
                        "`{}` and `{}` both use `{}[{}]`",
                        first.path, leaf.path, key.0, key.2
                    ),
                    leaf.span,
                )
                .with_label(first.span, "the other one"),
            );
        }
    }
}

/// The most clip, cull, and clip plus cull distances Vulkan guarantees.
pub const MAX_DISTANCES: u32 = 8;

/// Clip and cull distances, per direction, within [`MAX_DISTANCES`]
/// elements each and together: `E49998` at the leaf that passes the limit.
fn distance_limits(leaves: &[RawLeaf], errors: &mut Vec<Diagnostic>) {
    for direction in [Direction::Input, Direction::Output] {
        let mut ends = [0u32; 2];
        for leaf in leaves.iter().filter(|l| l.direction == direction) {
            let Some((
                Target::BuiltIn {
                    value,
                    element: Some(e),
                    ..
                },
                _,
            )) = &leaf.target
            else {
                continue;
            };
            let which = match value {
                ir::SystemValue::ClipDistance => 0,
                ir::SystemValue::CullDistance => 1,
                _ => continue,
            };
            ends[which] = ends[which].max(e + 1);
            let (name, end) = (value.name(), ends[which]);
            let message = if end > MAX_DISTANCES {
                format!(
                    "`{}` needs {end} elements of `{name}`; at most {MAX_DISTANCES} are guaranteed",
                    leaf.path
                )
            } else if ends[0] + ends[1] > MAX_DISTANCES {
                format!(
                    "`{}` makes {} clip and cull distances together; at most {MAX_DISTANCES} are guaranteed",
                    leaf.path,
                    ends[0] + ends[1]
                )
            } else {
                continue;
            };
            errors.push(Diagnostic::error(codes::DISTANCE_LIMIT, message, leaf.span));
            break;
        }
    }
}

/// `SV_ClipDistanceN` / `SV_CullDistanceN` (elements of one arrayed
/// builtin), as the value and its index.
fn distance_semantic(io: &ir::IoAttrs) -> Option<(ir::SystemValue, u32)> {
    match &io.binding {
        Some(ir::Binding::Semantic(Semantic::System {
            value: value @ (ir::SystemValue::ClipDistance | ir::SystemValue::CullDistance),
            index,
        })) => Some((*value, *index)),
        _ => None,
    }
}

/// `bool`, `boolN`, or an array of them.
fn is_bool(module: &ir::Module, ty: Handle<Type>) -> bool {
    match module.types.try_get(ty).map(|t| &t.inner) {
        Some(TypeInner::Scalar(s) | TypeInner::Vector { scalar: s, .. }) => {
            s.kind == ir::ScalarKind::Bool
        }
        Some(TypeInner::Array { base, .. }) => is_bool(module, *base),
        _ => false,
    }
}

fn is_struct(module: &ir::Module, ty: Handle<Type>) -> bool {
    matches!(
        module.types.try_get(ty).map(|t| &t.inner),
        Some(TypeInner::Struct { .. })
    )
}

/// Decides builtins from the table; records fixed locations of
/// `SV_Target`-style leaves. Leaves left undecided get locations later.
pub fn map_leaves(
    module: &ir::Module,
    stage: ir::ShaderStage,
    leaves: &mut [RawLeaf],
) -> Vec<Diagnostic> {
    let mut errors = Vec::new();
    for leaf in leaves.iter_mut().filter(|l| l.target.is_none()) {
        let semantic = leaves::semantic(&leaf.io).cloned();
        match semantic {
            Some(Semantic::UnknownSystem { name, .. }) => errors.push(
                Diagnostic::error(
                    codes::UNKNOWN_SYSTEM_VALUE,
                    "unknown system-value semantic",
                    leaf.span,
                )
                .with_primary_message(format!("unknown system-value semantic '{name}'")),
            ),
            Some(Semantic::System { value, index }) => {
                match legalis_sysval::glsl(value, stage, leaf.direction) {
                    GlslMapping::BuiltIn(row)
                        if leaf.vertices.is_some() && row.access == Access::Global =>
                    {
                        let message = match leaf.direction {
                            Direction::Input => format!(
                                "system value `{}` has one value per primitive, not per vertex: \
                                 declare it as a parameter of its own, not as a field of the input primitive",
                                value.name()
                            ),
                            Direction::Output => format!(
                                "system value `{}` has one value per patch, not per control point: \
                                 return it from the patch-constant function",
                                value.name()
                            ),
                        };
                        errors.push(Diagnostic::error(codes::NOT_IN_STAGE, message, leaf.span))
                    }
                    GlslMapping::BuiltIn(row)
                        if matches!(
                            (leaf.mesh, row.access),
                            (Some(ir::MeshOutputKind::Vertices), Access::MeshPerPrimitive)
                                | (Some(ir::MeshOutputKind::Primitives), Access::MeshPerVertex)
                        ) =>
                    {
                        let (each, array) = match row.access {
                            Access::MeshPerPrimitive => ("primitive", "out primitives"),
                            _ => ("vertex", "out vertices"),
                        };
                        errors.push(Diagnostic::error(
                            codes::NOT_IN_STAGE,
                            format!(
                                "system value `{}` has one value per {each}: declare it in the \
                                 element of the `{array}` array",
                                value.name()
                            ),
                            leaf.span,
                        ))
                    }
                    GlslMapping::BuiltIn(row)
                        if leaf.root.is_patch_constant()
                            && leaf.direction == Direction::Output
                            && row.access != Access::Global =>
                    {
                        errors.push(Diagnostic::error(
                            codes::NOT_IN_STAGE,
                            format!(
                                "system value `{}` has one value per control point, not per patch: \
                                 return it from the hull entry point, not the patch-constant function",
                                value.name()
                            ),
                            leaf.span,
                        ))
                    }
                    GlslMapping::BuiltIn(row) => match expressible(module, &row, index, leaf) {
                        Some(element) => {
                            leaf.target = Some((
                                Target::BuiltIn {
                                    value,
                                    row: Box::new(row_for(row, leaf)),
                                    element,
                                },
                                Reason::TableRow,
                            ))
                        }
                        None => errors.push(unsupported(NOT_SUPPORTED_YET, value, stage, leaf)),
                    },
                    GlslMapping::Location { by_index } => {
                        if by_index {
                            leaf.fixed_location = Some(index);
                        }
                    }
                    GlslMapping::Unsupported { code } => {
                        errors.push(unsupported(code, value, stage, leaf))
                    }
                }
            }
            Some(Semantic::User { .. }) | None => {
                if leaf.root.is_patch_constant() && leaf.direction == Direction::Input {
                    errors.push(Diagnostic::error(
                        codes::NOT_IN_STAGE,
                        format!(
                            "patch-constant parameter `{}` needs a system-value semantic \
                             (`SV_PrimitiveID`, `SV_OutputControlPointID`) or an \
                             `InputPatch`/`OutputPatch` type",
                            leaf.path
                        ),
                        leaf.span,
                    ));
                }
                if matches!(stage, ir::ShaderStage::Compute) {
                    errors.push(Diagnostic::error(
                        codes::USER_VARYING_IN_COMPUTE,
                        format!(
                            "compute entry-point parameter `{}` needs a system-value semantic",
                            leaf.path
                        ),
                        leaf.span,
                    ));
                }
            }
        }
    }
    pack_distances(leaves);
    element_conflicts(leaves, &mut errors);
    distance_limits(leaves, &mut errors);
    errors
}

/// Packs clip and cull distances as D3D does (B15): each semantic index
/// is one register of up to four components (`float4 c :
/// SV_ClipDistance1` is register 1, components 0 to 3; each element of
/// `float d[2] : SV_ClipDistance0` a register of its own), and the
/// registers of one direction follow each other in semantic-index order
/// in the one `gl_ClipDistance` array
/// (`common::leaves::register_offsets`, which WGSL and Metal share).
fn pack_distances(leaves: &mut [RawLeaf]) {
    // The register and the component of each distance leaf, by index.
    let place = |leaf: &RawLeaf| match &leaf.target {
        Some((
            Target::BuiltIn {
                value: value @ (ir::SystemValue::ClipDistance | ir::SystemValue::CullDistance),
                element: Some(e),
                ..
            },
            _,
        )) => Some(match leaf.part {
            // The walk numbered the components from the register's index.
            Some(Part::Component(j)) => (*value, e.saturating_sub(u32::from(j)), u32::from(j)),
            _ => (*value, *e, 0),
        }),
        _ => None,
    };
    for direction in [Direction::Input, Direction::Output] {
        for value in [ir::SystemValue::ClipDistance, ir::SystemValue::CullDistance] {
            // Register → its components, in semantic-index order.
            let mut widths: std::collections::BTreeMap<u32, u32> = Default::default();
            for leaf in leaves.iter().filter(|l| l.direction == direction) {
                if let Some((v, register, component)) = place(leaf)
                    && v == value
                {
                    let width = widths.entry(register).or_default();
                    *width = (*width).max(component + 1);
                }
            }
            let (offsets, _) = crate::common::leaves::register_offsets(&widths);
            for leaf in leaves.iter_mut().filter(|l| l.direction == direction) {
                let Some((v, register, component)) = place(leaf) else {
                    continue;
                };
                if v != value {
                    continue;
                }
                if let Some((Target::BuiltIn { element, .. }, _)) = &mut leaf.target {
                    *element = Some(offsets[&register] + component);
                }
            }
        }
    }
}

/// Whether this legalizer can express the row for the leaf yet: a builtin
/// of its own, or, for a geometry per-vertex input, a whole member of
/// `gl_in[]` (not a member of an output or mesh block), and, for one
/// element of an arrayed builtin, a scalar leaf. Returns the element, if
/// any. Layout redeclarations (`layout(depth_greater)`, B14) are the
/// writers' business; `noperspective` alternates are picked by [`row_for`].
fn expressible(
    module: &ir::Module,
    row: &GlslBuiltin,
    index: u32,
    leaf: &RawLeaf,
) -> Option<Option<u32>> {
    // Builtin outputs of streams other than 0 would need `gl_PerVertex`
    // redeclared per stream.
    if leaf.stream.unwrap_or(0) > 0 {
        return None;
    }
    // A per-vertex input reaches a member of `gl_in[]`; a value of the
    // whole primitive (`gl_PrimitiveIDIn`) cannot be a per-vertex field.
    let access_ok = match (leaf.vertices, leaf.direction, leaf.mesh) {
        (Some(_), Direction::Input, _) => row.access == Access::PerVertexIn,
        (Some(_), Direction::Output, None) => row.access == Access::PerControlPointOut,
        (Some(_), Direction::Output, Some(ir::MeshOutputKind::Vertices)) => {
            row.access == Access::MeshPerVertex
        }
        (Some(_), Direction::Output, Some(_)) => row.access == Access::MeshPerPrimitive,
        (None, ..) => row.access == Access::Global,
    };
    if !access_ok {
        return None;
    }
    let Some(array_index) = row.array_index else {
        return Some(None);
    };
    let element = match array_index {
        ArrayIndex::Fixed(i) => i,
        ArrayIndex::SemanticIndex => index,
    };
    let scalar_leaf = leaf.part.is_some()
        || matches!(
            module.types.try_get(leaf.ty).map(|t| &t.inner),
            Some(TypeInner::Scalar(_))
        );
    scalar_leaf.then_some(Some(element))
}

/// The row as the leaf uses it: a `noperspective` declaration of a value
/// with an alternate builtin (`SV_Barycentrics`, B16) is that builtin.
/// The alternate keeps the row's type and requirements; only the names
/// change, and `noperspective` stays set so the writers can tell.
fn row_for(row: GlslBuiltin, leaf: &RawLeaf) -> GlslBuiltin {
    let noperspective = leaf.io.interpolation.mode == Some(ir::InterpolationMode::NoPerspective);
    match row.noperspective {
        Some(alternate) if noperspective => GlslBuiltin {
            glsl_name: alternate.glsl_name,
            spirv_builtin: alternate.spirv_builtin,
            ..row
        },
        _ => row,
    }
}

fn unsupported(
    code: u32,
    value: ir::SystemValue,
    stage: ir::ShaderStage,
    leaf: &RawLeaf,
) -> Diagnostic {
    let what = if code == legalis_sysval::codes::NOT_IN_STAGE {
        format!(
            "system value `{}` is not available as {} {} {}",
            value.name(),
            stage.article(),
            stage.name(),
            leaf.direction.name()
        )
    } else {
        format!(
            "system value `{}` as {} {} {} is not supported by the GLSL target yet",
            value.name(),
            stage.article(),
            stage.name(),
            leaf.direction.name()
        )
    };
    Diagnostic::error(code, what, leaf.span)
}

//! Entry points: which functions are compiled as which stage, and their
//! stage attributes (`[numthreads]`, `[domain]`, `[maxvertexcount]` ...) as
//! typed data, checked against the stage.

use legalis_ir as ir;
use legalis_ir::{Handle, ShaderStage as Stage, Span, TypeInner};

use super::Checker;
use super::attrs::lower_name;
use crate::{ast, codes};

impl Checker<'_> {
    pub fn declare_entry_points(&mut self, file: &[super::FlatItem<'_>]) {
        let mut chosen: Vec<(usize, Stage)> = Vec::new();
        if let Some(name) = self.options.entry.clone() {
            // `-entry N.S.f` (the reference's spelling) or `N::S::f`: a
            // function in a namespace, or a static member function.
            let path = name.replace('.', "::");
            let candidates: Vec<usize> = (0..self.funcs.len())
                .filter(|&f| {
                    let info = &self.funcs[f];
                    (info.name == name || info.name == path)
                        && info.body_item.is_some()
                        && info.this_ty.is_none()
                })
                .collect();
            match candidates.as_slice() {
                [] => {
                    self.error(
                        codes::ENTRY_POINT_NOT_FOUND,
                        format!(
                            "entry point `{name}` not found: no function of that name is defined"
                        ),
                        Span::UNDEFINED,
                    );
                }
                [f] => {
                    // A static member function named by `-entry` is one.
                    let decl = self.funcs[*f].body_item.and_then(|b| b.decl(file));
                    let written = decl.and_then(|d| self.shader_attribute(d));
                    let stage = match (self.options.stage, written) {
                        (Some(given), Some((w, span))) if given != w => {
                            self.error(
                                codes::STAGE_MISMATCH,
                                format!(
                                    "`-stage {}` disagrees with the `[shader(\"{}\")]` attribute of `{name}`",
                                    given.name(),
                                    w.name()
                                ),
                                span,
                            );
                            None
                        }
                        (Some(given), _) => Some(given),
                        (None, Some((w, _))) => Some(w),
                        (None, None) if decl.is_some_and(implies_compute) => Some(Stage::Compute),
                        (None, None) => {
                            let span = decl.map(|d| d.name.span).unwrap_or(Span::UNDEFINED);
                            self.error(
                                codes::MISSING_STAGE_ATTRIBUTE,
                                format!("entry point `{name}` has no stage: pass `-stage` or add `[shader(\"...\")]`"),
                                span,
                            );
                            None
                        }
                    };
                    if let Some(stage) = stage {
                        chosen.push((*f, stage));
                    }
                }
                _ => {
                    let span = function_decl(file, self.funcs[candidates[1]].body_item)
                        .map(|d| d.name.span)
                        .unwrap_or(Span::UNDEFINED);
                    self.error(
                        codes::AMBIGUOUS_ENTRY_POINT,
                        format!("entry point `{name}` is overloaded; an entry point must have one definition"),
                        span,
                    );
                }
            }
        } else {
            for f in 0..self.funcs.len() {
                let Some(decl) = function_decl(file, self.funcs[f].body_item) else {
                    continue;
                };
                if let Some((stage, _)) = self.shader_attribute(decl) {
                    chosen.push((f, stage));
                } else if implies_compute(decl) && self.funcs[f].this_ty.is_none() {
                    // `[numthreads]` alone makes a compute entry point,
                    // as in the reference.
                    chosen.push((f, Stage::Compute));
                }
            }
            if chosen.is_empty() && !self.failed {
                self.warning(
                    codes::NO_ENTRY_POINTS,
                    "no entry points: no function has a `[shader(\"...\")]` or `[numthreads]` attribute and no `-entry` was given",
                    Span::UNDEFINED,
                );
            }
        }
        for (f, stage) in chosen {
            if let Some(decl) = self.funcs[f].body_item.and_then(|b| b.decl(file)) {
                self.declare_entry_point(f, stage, decl);
            }
        }
    }

    /// The stage named by `[shader("...")]`, reporting unknown names.
    fn shader_attribute(&mut self, decl: &ast::FunctionDecl) -> Option<(Stage, Span)> {
        let attr = decl.attributes.iter().find(|a| lower_name(a) == "shader")?;
        if !self.attr_arity(attr, 1, 1) {
            return None;
        }
        let (name, span) = self.attr_string(attr, 0)?;
        match Stage::from_name(&name) {
            Some(stage) => Some((stage, span)),
            None => {
                let all: Vec<&str> = Stage::ALL.iter().map(|s| s.name()).collect();
                self.error(
                    codes::UNKNOWN_STAGE,
                    format!(
                        "unknown stage `{name}`; expected one of: {}",
                        all.join(", ")
                    ),
                    span,
                );
                None
            }
        }
    }

    fn declare_entry_point(&mut self, f: usize, stage: Stage, decl: &ast::FunctionDecl) {
        let mut attributes = ir::EntryPointAttributes::default();
        for attr in &decl.attributes {
            self.stage_attribute(attr, stage, &mut attributes);
        }
        if stage == Stage::Compute
            && attributes.workgroup_size.is_none()
            && !decl
                .attributes
                .iter()
                .any(|a| lower_name(a) == "numthreads")
        {
            // The reference runs such a kernel with one thread per
            // workgroup; say so instead of doing it silently.
            self.warning(
                codes::DEFAULT_WORKGROUP_SIZE,
                "a compute entry point without `[numthreads(x, y, z)]` runs one thread per workgroup: `[numthreads(1, 1, 1)]` is assumed",
                decl.name.span,
            );
            attributes.workgroup_size = Some([1, 1, 1]);
        }
        self.require_stage_attributes(stage, &attributes, decl);
        self.pointer_params_uniform(f);
        if stage == Stage::Geometry {
            self.default_input_primitive(f);
        }
        self.check_entry_signature(f, stage);
        self.reject_dyn_varyings(f, stage);
        self.check_system_values(f, stage, &attributes);
        self.module.entry_points.push(ir::EntryPoint {
            name: decl.name.name.clone(),
            stage,
            function: Handle::from_index(f),
            attributes,
            span: decl.name.span,
        });
    }

    /// Execution modes the intrinsics each entry point reaches ask for,
    /// once the function arena is final: quad operations need quad
    /// derivatives (fragment and compute; the quad-control extension
    /// defines them for those), and quad derivatives need maximal
    /// reconvergence (`[RequireFullQuads]` alone does not);
    /// `beginInvocationInterlock` orders its critical section per pixel.
    /// What the reference does too.
    pub fn imply_entry_attributes(&mut self) {
        for k in 0..self.module.entry_points.len() {
            let ep = &self.module.entry_points[k];
            let stage = ep.stage;
            let (reached, globals) = self.module.reached_from(ep.function);
            // A rasterizer-ordered resource orders the fragment shader's
            // accesses per pixel: the whole shader runs in the interlock.
            let rov = globals.iter().any(|&g| {
                let ty = self.module.globals[g].ty;
                let ty = match self.module.types[ty].inner {
                    TypeInner::Array { base, .. } => base,
                    _ => ty,
                };
                matches!(
                    self.module.types[ty].inner,
                    TypeInner::Texture(ir::Texture {
                        access: ir::ResourceAccess::RasterizerOrdered,
                        ..
                    }) | TypeInner::Buffer {
                        access: ir::ResourceAccess::RasterizerOrdered,
                        ..
                    }
                )
            });
            let out = &mut self.module.entry_points[k].attributes;
            if stage == Stage::Fragment && rov {
                out.pixel_interlock = true;
            }
            if matches!(stage, Stage::Fragment | Stage::Compute)
                && (reached.contains(&ir::Intrinsic::QuadAny)
                    || reached.contains(&ir::Intrinsic::QuadAll))
            {
                out.quad_derivatives = true;
            }
            if out.quad_derivatives {
                out.maximally_reconverges = true;
            }
            let derivatives = [
                ir::Intrinsic::Ddx,
                ir::Intrinsic::Ddy,
                ir::Intrinsic::DdxCoarse,
                ir::Intrinsic::DdyCoarse,
                ir::Intrinsic::DdxFine,
                ir::Intrinsic::DdyFine,
                ir::Intrinsic::Fwidth,
                ir::Intrinsic::Sample,
                ir::Intrinsic::SampleBias,
                ir::Intrinsic::SampleCmp,
                ir::Intrinsic::CalculateLevelOfDetail,
                ir::Intrinsic::CalculateLevelOfDetailUnclamped,
            ];
            if stage == Stage::Compute && out.derivative_group.is_none() {
                out.derivative_group = self.glsl_derivative_group;
            }
            if stage == Stage::Compute
                && out.derivative_group.is_none()
                && derivatives.iter().any(|d| reached.contains(d))
            {
                let [x, y, z] = out.workgroup_size.unwrap_or([1, 1, 1]);
                out.derivative_group = if x % 2 == 0 && y % 2 == 0 {
                    Some(ir::DerivativeGroup::Quads)
                } else if (u64::from(x) * u64::from(y) * u64::from(z)) % 4 == 0 {
                    Some(ir::DerivativeGroup::Linear)
                } else {
                    None
                };
            }
            if stage == Stage::Fragment
                && (reached.contains(&ir::Intrinsic::BeginInvocationInterlock)
                    || reached.contains(&ir::Intrinsic::EndInvocationInterlock))
            {
                out.pixel_interlock = true;
            }
        }
    }

    /// Reads one stage attribute into `out`; warns when the stage does not use it.
    fn stage_attribute(
        &mut self,
        attr: &ast::Attribute,
        stage: Stage,
        out: &mut ir::EntryPointAttributes,
    ) {
        use Stage::*;
        let name = lower_name(attr);
        let stages: &[Stage] = match name.as_str() {
            "numthreads" => &[Compute, Mesh, Amplification],
            "domain" => &[Hull, Domain],
            "outputcontrolpoints" | "patchconstantfunc" | "maxtessfactor" => &[Hull],
            // A domain entry point may state the tessellator's spacing and
            // winding too: GLSL writes them in the evaluation shader.
            "partitioning" => &[Hull, Domain],
            "outputtopology" => &[Hull, Mesh, Domain],
            "maxvertexcount" | "instance" | "streamoutput" | "streamoutputstride" => &[Geometry],
            "earlydepthstencil" | "requirefullquads" => &[Fragment],
            "quadderivatives" => &[Fragment, Compute],
            "derivativegroupquad" | "derivativegrouplinear" => &[Compute],
            "maximallyreconverges" => &Stage::ALL,
            _ => return,
        };
        if !stages.contains(&stage) {
            self.warning(
                codes::ATTRIBUTE_WRONG_STAGE,
                format!(
                    "attribute `{}` has no effect on {} {} entry point",
                    attr.name,
                    stage.article(),
                    stage.name()
                ),
                attr.span,
            );
            return;
        }
        match name.as_str() {
            "numthreads" if self.attr_arity(attr, 3, 3) => {
                let dims = [
                    self.attr_u32(attr, 0),
                    self.attr_u32(attr, 1),
                    self.attr_u32(attr, 2),
                ];
                if let [Some(x), Some(y), Some(z)] = dims {
                    if x == 0 || y == 0 || z == 0 {
                        self.error(
                            codes::BAD_ATTRIBUTE_ARGUMENTS,
                            "`numthreads` extents must be at least 1",
                            attr.span,
                        );
                    } else if let Some(message) = workgroup_limit(stage, [x, y, z]) {
                        self.error(codes::WORKGROUP_LIMIT, message, attr.span);
                    } else {
                        out.workgroup_size = Some([x, y, z]);
                    }
                }
            }
            "domain" => {
                out.domain = self.enum_attr(
                    attr,
                    &[
                        ("tri", ir::TessDomain::Tri),
                        ("quad", ir::TessDomain::Quad),
                        ("isoline", ir::TessDomain::Isoline),
                    ],
                )
            }
            "partitioning" => {
                out.partitioning = self.enum_attr(
                    attr,
                    &[
                        ("integer", ir::Partitioning::Integer),
                        ("fractional_even", ir::Partitioning::FractionalEven),
                        ("fractional_odd", ir::Partitioning::FractionalOdd),
                        ("pow2", ir::Partitioning::Pow2),
                    ],
                )
            }
            "outputtopology" => {
                let options: &[(&str, ir::OutputTopology)] = if stage == Mesh {
                    &[
                        ("point", ir::OutputTopology::Point),
                        ("line", ir::OutputTopology::Line),
                        ("triangle", ir::OutputTopology::Triangle),
                    ]
                } else {
                    &[
                        ("point", ir::OutputTopology::Point),
                        ("line", ir::OutputTopology::Line),
                        ("triangle_cw", ir::OutputTopology::TriangleCw),
                        ("triangle_ccw", ir::OutputTopology::TriangleCcw),
                    ]
                };
                out.output_topology = self.enum_attr(attr, options);
            }
            "outputcontrolpoints" => out.output_control_points = self.ranged_attr(attr, 1, 32),
            "maxvertexcount" => out.max_vertex_count = self.ranged_attr(attr, 1, 1024),
            "instance" => out.instances = self.ranged_attr(attr, 1, 32),
            "streamoutput" if self.attr_arity(attr, 2, 2) => {
                let stream = self.attr_u32(attr, 0);
                if let (Some(stream), Some((text, span))) = (stream, self.attr_string(attr, 1)) {
                    if stream > 3 {
                        self.error(
                            codes::BAD_ATTRIBUTE_ARGUMENTS,
                            "`StreamOutput` stream must be 0 to 3",
                            attr.span,
                        );
                    }
                    out.stream_output
                        .push(ir::StreamOutputDecl { stream, text, span });
                }
            }
            "streamoutputstride" if self.attr_arity(attr, 2, 2) => {
                let (slot, stride) = (self.attr_u32(attr, 0), self.attr_u32(attr, 1));
                if let (Some(slot), Some(stride)) = (slot, stride) {
                    out.stream_output_strides.push(ir::StreamOutputStride {
                        slot,
                        stride,
                        span: attr.span,
                    });
                }
            }
            "maxtessfactor" if self.attr_arity(attr, 1, 1) => {
                out.max_tess_factor = self.attr_f32(attr, 0);
            }
            "earlydepthstencil" if self.attr_arity(attr, 0, 0) => {
                out.early_depth_stencil = true;
            }
            "quadderivatives" if self.attr_arity(attr, 0, 0) => out.quad_derivatives = true,
            "derivativegroupquad" if self.attr_arity(attr, 0, 0) => {
                out.derivative_group = Some(ir::DerivativeGroup::Quads);
            }
            "derivativegrouplinear" if self.attr_arity(attr, 0, 0) => {
                out.derivative_group = Some(ir::DerivativeGroup::Linear);
            }
            "requirefullquads" if self.attr_arity(attr, 0, 0) => out.require_full_quads = true,
            "maximallyreconverges" if self.attr_arity(attr, 0, 0) => {
                out.maximally_reconverges = true;
            }
            "patchconstantfunc" => {
                if !self.attr_arity(attr, 1, 1) {
                    return;
                }
                let Some((fname, span)) = self.attr_string(attr, 0) else {
                    return;
                };
                let found: Vec<usize> = (0..self.funcs.len())
                    .filter(|&f| self.funcs[f].name == fname && self.funcs[f].body_item.is_some())
                    .collect();
                match found.as_slice() {
                    [f] => out.patch_constant_func = Some(Handle::from_index(*f)),
                    [] => self.error(
                        codes::PATCH_CONSTANT_FUNC_NOT_FOUND,
                        format!("patch-constant function `{fname}` is not defined"),
                        span,
                    ),
                    _ => self.error(
                        codes::AMBIGUOUS_OVERLOAD,
                        format!("patch-constant function `{fname}` is overloaded"),
                        span,
                    ),
                }
            }
            _ => {}
        }
    }

    fn ranged_attr(&mut self, attr: &ast::Attribute, min: u32, max: u32) -> Option<u32> {
        if !self.attr_arity(attr, 1, 1) {
            return None;
        }
        let v = self.attr_u32(attr, 0)?;
        if v < min || v > max {
            self.error(
                codes::BAD_ATTRIBUTE_ARGUMENTS,
                format!("`{}` must be from {min} to {max}, found {v}", attr.name),
                attr.span,
            );
            return None;
        }
        Some(v)
    }

    fn enum_attr<T: Copy>(&mut self, attr: &ast::Attribute, options: &[(&str, T)]) -> Option<T> {
        if !self.attr_arity(attr, 1, 1) {
            return None;
        }
        let (value, span) = self.attr_string(attr, 0)?;
        match options.iter().find(|(n, _)| n.eq_ignore_ascii_case(&value)) {
            Some((_, v)) => Some(*v),
            None => {
                let names: Vec<String> = options.iter().map(|(n, _)| format!("\"{n}\"")).collect();
                self.error(
                    codes::BAD_ATTRIBUTE_ARGUMENTS,
                    format!(
                        "`{}` must be one of {}, found \"{value}\"",
                        attr.name,
                        names.join(", ")
                    ),
                    span,
                );
                None
            }
        }
    }

    fn require_stage_attributes(
        &mut self,
        stage: Stage,
        a: &ir::EntryPointAttributes,
        decl: &ast::FunctionDecl,
    ) {
        let mut missing = Vec::new();
        match stage {
            Stage::Compute | Stage::Amplification if a.workgroup_size.is_none() => {
                missing.push("[numthreads(x, y, z)]")
            }
            Stage::Mesh => {
                if a.workgroup_size.is_none() {
                    missing.push("[numthreads(x, y, z)]");
                }
                if a.output_topology.is_none() {
                    missing.push("[outputtopology(\"...\")]");
                }
            }
            Stage::Hull => {
                for (present, name) in [
                    (a.domain.is_some(), "[domain(\"...\")]"),
                    (a.partitioning.is_some(), "[partitioning(\"...\")]"),
                    (a.output_topology.is_some(), "[outputtopology(\"...\")]"),
                    (
                        a.output_control_points.is_some(),
                        "[outputcontrolpoints(n)]",
                    ),
                    (
                        a.patch_constant_func.is_some(),
                        "[patchconstantfunc(\"...\")]",
                    ),
                ] {
                    if !present {
                        missing.push(name);
                    }
                }
            }
            Stage::Domain if a.domain.is_none() => missing.push("[domain(\"...\")]"),
            Stage::Geometry if a.max_vertex_count.is_none() => missing.push("[maxvertexcount(n)]"),
            _ => {}
        }
        // Attributes that were present but malformed were reported already.
        let reported: Vec<String> = decl.attributes.iter().map(lower_name).collect();
        for name in missing {
            let key = name
                .trim_start_matches('[')
                .split(['(', ']'])
                .next()
                .unwrap_or("")
                .to_string();
            if reported.contains(&key) {
                continue;
            }
            self.error(
                codes::MISSING_STAGE_ATTRIBUTE,
                format!(
                    "{} {} entry point needs the attribute `{name}`",
                    stage.article(),
                    stage.name()
                ),
                decl.name.span,
            );
        }
    }

    /// A geometry shader's array input without a primitive modifier
    /// (`GsIn verts[3]`): the primitive its length names (1 `point`, 2
    /// `line`, 3 `triangle`, 4 `lineadj`, 6 `triangleadj`), as the
    /// reference takes `triangle`, with a warning.
    fn default_input_primitive(&mut self, f: usize) {
        let Some(func) = self.bodies[f].as_ref() else {
            return;
        };
        if func
            .params
            .iter()
            .any(|p| matches!(p.role, ir::ParamRole::GeometryInput(_)))
        {
            return;
        }
        let found = func.params.iter().position(|p| {
            p.role == ir::ParamRole::Plain
                && p.direction == ir::ParamDirection::In
                && matches!(self.module.types[p.ty].inner, TypeInner::Array { .. })
        });
        let Some(index) = found else {
            return;
        };
        let (ty, span, name) = {
            let p = &func.params[index];
            (p.ty, p.span, p.name.clone())
        };
        let primitive = match self.module.types[ty].inner {
            TypeInner::Array {
                size: ir::ArraySize::Constant(n),
                ..
            } => match n {
                1 => Some((ir::InputPrimitive::Point, "point")),
                2 => Some((ir::InputPrimitive::Line, "line")),
                3 => Some((ir::InputPrimitive::Triangle, "triangle")),
                4 => Some((ir::InputPrimitive::LineAdj, "lineadj")),
                6 => Some((ir::InputPrimitive::TriangleAdj, "triangleadj")),
                _ => None,
            },
            _ => None,
        };
        let Some((primitive, word)) = primitive else {
            return;
        };
        self.warning(
            codes::DEFAULT_INPUT_PRIMITIVE,
            format!(
                "geometry input `{name}` has no primitive type: `{word}` is taken from its length"
            ),
            span,
        );
        if let Some(func) = self.bodies[f].as_mut() {
            func.params[index].role = ir::ParamRole::GeometryInput(primitive);
        }
    }

    /// Stage-specific parameter types only where their stage allows them.
    /// An entry point's `in` pointer parameter without a semantic is
    /// `uniform` by nature, as in Slang: the host passes the address.
    fn pointer_params_uniform(&mut self, f: usize) {
        let Some(func) = self.bodies[f].as_ref() else {
            return;
        };
        let pointers: Vec<usize> = (func.params.iter().enumerate())
            .filter(|(_, p)| {
                p.role == ir::ParamRole::Plain
                    && p.direction == ir::ParamDirection::In
                    && p.io.binding.is_none()
                    && matches!(self.inner(p.ty), TypeInner::Pointer { .. })
            })
            .map(|(i, _)| i)
            .collect();
        if let Some(func) = self.bodies[f].as_mut() {
            for i in pointers {
                func.params[i].role = ir::ParamRole::Uniform;
            }
        }
    }

    fn check_entry_signature(&mut self, f: usize, stage: Stage) {
        let Some(func) = self.bodies[f].as_ref() else {
            return;
        };
        let params: Vec<(Handle<ir::Type>, ir::ParamRole, Span, String)> = func
            .params
            .iter()
            .map(|p| (p.ty, p.role, p.span, p.name.clone()))
            .collect();
        for (ty, role, span, name) in params {
            let allowed: Option<&[Stage]> = match self.inner(ty) {
                TypeInner::Patch {
                    kind: ir::PatchKind::Input,
                    ..
                } => Some(&[Stage::Hull]),
                TypeInner::Patch {
                    kind: ir::PatchKind::Output,
                    ..
                } => Some(&[Stage::Domain]),
                TypeInner::Stream { .. } => Some(&[Stage::Geometry]),
                TypeInner::MeshOutput { .. } => Some(&[Stage::Mesh]),
                _ => None,
            };
            let role_allowed: Option<&[Stage]> = match role {
                ir::ParamRole::Payload => Some(&[Stage::Mesh]),
                ir::ParamRole::GeometryInput(_) => Some(&[Stage::Geometry]),
                _ => None,
            };
            for allowed in [allowed, role_allowed].into_iter().flatten() {
                if !allowed.contains(&stage) {
                    let ty_name = self.type_name(ty);
                    self.error(
                        codes::BAD_ENTRY_POINT_SIGNATURE,
                        format!("parameter `{name}` of type `{ty_name}` is not allowed in {} {} entry point", stage.article(), stage.name()),
                        span,
                    );
                }
            }
        }
    }
}

fn function_decl<'a>(
    items: &[super::FlatItem<'a>],
    body: Option<super::BodyRef>,
) -> Option<&'a ast::FunctionDecl> {
    // Member functions are entry points only when `-entry` names them.
    body.filter(|b| b.method.is_none())?.decl(items)
}

/// Whether a function without `[shader("...")]` is a compute entry point by
/// its `[numthreads(x, y, z)]` attribute alone.
fn implies_compute(decl: &ast::FunctionDecl) -> bool {
    decl.attributes
        .iter()
        .any(|a| lower_name(a) == "numthreads")
}

/// What is wrong with `[numthreads(x, y, z)]` on a `stage` entry point,
/// past HLSL's limits: a compute shader's extents are at most 1024, 1024
/// and 64 with at most 1024 threads in all (D3D11 `cs_5_0`), a mesh or
/// amplification shader's at most 128 threads in all (D3D12). Every
/// target takes a group within them (Metal, Vulkan and naga's WGSL
/// validator allow more); a device's own smaller limits are the
/// pipeline's to check.
fn workgroup_limit(stage: Stage, [x, y, z]: [u32; 3]) -> Option<String> {
    let threads = u64::from(x) * u64::from(y) * u64::from(z);
    let (extents, total) = match stage {
        Stage::Compute => ([1024, 1024, 64], 1024),
        Stage::Mesh | Stage::Amplification => ([128, 128, 128], 128),
        _ => return None,
    };
    let (article, name) = (stage.article(), stage.name());
    let over = [x, y, z]
        .into_iter()
        .zip(extents)
        .zip(["x", "y", "z"])
        .find(|((v, max), _)| v > max);
    if let Some(((v, max), axis)) = over {
        return Some(format!(
            "`numthreads` {axis} extent {v} is past the {max} HLSL allows {article} {name} shader"
        ));
    }
    (threads > total).then(|| {
        format!(
            "`numthreads({x}, {y}, {z})` is {threads} threads, past the {total} HLSL allows {article} {name} shader's group"
        )
    })
}

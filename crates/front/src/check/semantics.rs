//! System-value checks of an entry point's signature, read from the
//! system-value table (`legalis-sysval`): a value the stage cannot use in
//! that direction, a wrong declared type, the same value twice in one
//! direction, and two outputs for one render target.
//!
//! The walk visits every varying the way the legalizers will: parameters in
//! their direction (`inout` both), the result as an output, struct fields
//! recursively, the element of geometry input arrays, input and output
//! patches as inputs, geometry streams and mesh vertex and primitive arrays
//! as outputs. A hull shader's patch-constant function is checked as part of
//! the hull stage, in a scope of its own.

use legalis_ir as ir;
use legalis_ir::diag::Diagnostic;
use legalis_ir::{Handle, Semantic, ShaderStage as Stage, Span, SystemValue, Type, TypeInner};
use legalis_sysval::{Direction, GlslMapping, Shape};

use super::Checker;
use crate::codes;

/// The render targets HLSL has: `SV_Target0` to `SV_Target7`.
const RENDER_TARGETS: u32 = 8;

/// One declaration with a known system-value semantic.
struct Declared {
    value: SystemValue,
    index: u32,
    direction: Direction,
    ty: Handle<Type>,
    /// The parameter or field name path (`input.pos`), for messages.
    path: String,
    span: Span,
    /// Each geometry output stream has a signature of its own: a value
    /// declared in two streams is no duplicate. 0 outside streams, else
    /// the stream parameter's index plus one.
    scope: usize,
}

impl Checker<'_> {
    /// Checks the system values of entry point `f` of `stage`.
    pub fn check_system_values(
        &mut self,
        f: usize,
        stage: Stage,
        attrs: &ir::EntryPointAttributes,
    ) {
        self.check_function_system_values(f, stage, attrs);
        if stage == Stage::Hull
            && let Some(pcf) = attrs.patch_constant_func
            && pcf.index() != f
        {
            self.check_function_system_values(pcf.index(), stage, attrs);
        }
    }

    fn check_function_system_values(
        &mut self,
        f: usize,
        stage: Stage,
        attrs: &ir::EntryPointAttributes,
    ) {
        let Some(func) = self.bodies[f].as_ref() else {
            return;
        };
        let mut found: Vec<Declared> = Vec::new();
        for (param_index, param) in func.params.iter().enumerate() {
            if matches!(param.role, ir::ParamRole::Uniform | ir::ParamRole::Payload) {
                continue;
            }
            // A patch-constant function's output patch is the hull's own
            // per-control-point output, checked with the hull entry point.
            if stage == Stage::Hull
                && matches!(
                    self.inner(param.ty),
                    TypeInner::Patch {
                        kind: ir::PatchKind::Output,
                        ..
                    }
                )
            {
                continue;
            }
            let directions: &[Direction] = match param.direction {
                ir::ParamDirection::In => &[Direction::Input],
                ir::ParamDirection::Out => &[Direction::Output],
                ir::ParamDirection::InOut => &[Direction::Input, Direction::Output],
            };
            // `triangle float4 v[3] : SV_Position`: the semantic is each
            // vertex's.
            let ty = match (param.role, self.inner(param.ty)) {
                (ir::ParamRole::GeometryInput(_), TypeInner::Array { base, .. }) => *base,
                _ => param.ty,
            };
            let first = found.len();
            for &direction in directions {
                self.collect_system_values(
                    ty,
                    &param.io,
                    direction,
                    &mut param.name.clone(),
                    param.span,
                    &mut found,
                    0,
                );
            }
            if matches!(self.inner(param.ty), TypeInner::Stream { .. }) {
                for d in &mut found[first..] {
                    d.scope = param_index + 1;
                }
            }
        }
        if let Some(result) = &func.result {
            self.collect_system_values(
                result.ty,
                &result.io,
                Direction::Output,
                &mut String::from("return"),
                result.span,
                &mut found,
                0,
            );
        }
        let mut diagnostics = Vec::new();
        for (i, d) in found.iter().enumerate() {
            if let Some(diagnostic) = self.system_value_problem(d, stage, attrs) {
                diagnostics.push(diagnostic);
                continue;
            }
            let earlier = found[..i].iter().find(|e| {
                e.value == d.value
                    && e.index == d.index
                    && e.direction == d.direction
                    && e.scope == d.scope
            });
            if let Some(first) = earlier {
                diagnostics.push(duplicate(first, d, stage));
                continue;
            }
            let other_depth = found[..i]
                .iter()
                .find(|e| is_depth_output(e) && is_depth_output(d) && e.value != d.value);
            if let Some(first) = other_depth {
                diagnostics.push(
                    Diagnostic::error(
                        codes::DEPTH_OUTPUTS,
                        format!(
                            "`{}` and `{}` are two depth outputs (`{}` and `{}`): a fragment shader writes one depth; keep one of them",
                            first.path,
                            d.path,
                            first.value.name(),
                            d.value.name()
                        ),
                        d.span,
                    )
                    .with_label(first.span, "the other depth output"),
                );
            }
        }
        for diagnostic in diagnostics {
            self.push_diagnostic(diagnostic);
        }
    }

    /// Collects the system-value declarations under one varying. `path`
    /// spells the varying; members are appended to it and taken off
    /// again on the way back.
    #[allow(clippy::too_many_arguments, reason = "one recursive walk")]
    fn collect_system_values(
        &self,
        ty: Handle<Type>,
        io: &ir::IoAttrs,
        direction: Direction,
        path: &mut String,
        span: Span,
        found: &mut Vec<Declared>,
        depth: u32,
    ) {
        // Struct nesting is bounded by the parser; recursive structs do not
        // exist, but a bound costs nothing.
        if depth > 64 || ty == self.error_ty {
            return;
        }
        let container = matches!(
            self.inner(ty),
            TypeInner::Patch { .. } | TypeInner::Stream { .. } | TypeInner::MeshOutput { .. }
        );
        if let Some(ir::Binding::Semantic(Semantic::System { value, index })) = &io.binding
            && !container
        {
            found.push(Declared {
                value: *value,
                index: *index,
                direction,
                ty,
                path: path.clone(),
                span,
                scope: 0,
            });
            return;
        }
        match self.inner(ty) {
            TypeInner::Struct { members } => {
                let len = path.len();
                for member in members {
                    path.push('.');
                    path.push_str(&member.name);
                    self.collect_system_values(
                        member.ty,
                        &member.io,
                        direction,
                        path,
                        member.span,
                        found,
                        depth + 1,
                    );
                    path.truncate(len);
                }
            }
            // Geometry input arrays, arrays of structs: per element.
            TypeInner::Array { base, .. } => {
                self.collect_system_values(*base, io, direction, path, span, found, depth + 1)
            }
            // A hull shader reads its input patch, a domain shader the
            // hull's output patch.
            TypeInner::Patch { element, .. } => self.collect_system_values(
                *element,
                io,
                Direction::Input,
                path,
                span,
                found,
                depth + 1,
            ),
            // Streams are `inout` and mesh arrays `out`; both are outputs
            // only, visited once.
            TypeInner::Stream { .. } | TypeInner::MeshOutput { .. }
                if direction == Direction::Input => {}
            TypeInner::Stream { element, .. } => self.collect_system_values(
                *element,
                io,
                Direction::Output,
                path,
                span,
                found,
                depth + 1,
            ),
            TypeInner::MeshOutput {
                kind: ir::MeshOutputKind::Vertices | ir::MeshOutputKind::Primitives,
                element,
                ..
            } => self.collect_system_values(
                *element,
                io,
                Direction::Output,
                path,
                span,
                found,
                depth + 1,
            ),
            _ => {}
        }
    }

    /// A stage/direction or type error for one declaration.
    fn system_value_problem(
        &self,
        d: &Declared,
        stage: Stage,
        attrs: &ir::EntryPointAttributes,
    ) -> Option<Diagnostic> {
        let name = d.value.name();
        let at = format!("{} {}", stage.name(), d.direction.name());
        // Only "not in this stage" is a property of the source; a value the
        // target cannot express yet is the legalizer's to report.
        if let GlslMapping::Unsupported { code } = legalis_sysval::glsl(d.value, stage, d.direction)
            && code == legalis_sysval::codes::NOT_IN_STAGE
        {
            return Some(Diagnostic::error(
                code,
                format!(
                    "system value `{name}` is not available as {} {at}",
                    stage.article()
                ),
                d.span,
            ));
        }
        // D3D has eight render targets; Metal's `[[color(n)]]` and
        // WebGPU's default color attachments stop there too.
        if d.value == SystemValue::Target && d.index >= RENDER_TARGETS {
            return Some(Diagnostic::error(
                codes::RENDER_TARGET_LIMIT,
                format!(
                    "`SV_Target{}`: HLSL has render targets 0 to {}",
                    d.index,
                    RENDER_TARGETS - 1
                ),
                d.span,
            ));
        }
        let allowed = legalis_sysval::declared_types(d.value);
        let shape = self.declared_shape(d.ty);
        let accepted = shape.is_some_and(|(scalar, shape)| allowed.accepts(scalar, shape));
        let found = self.type_name(d.ty);
        if !accepted {
            return Some(Diagnostic::error(
                codes::SYSTEM_VALUE_TYPE,
                format!(
                    "system value `{name}` as {} {at} must be declared {}, not `{found}`",
                    stage.article(),
                    allowed.describe()
                ),
                d.span,
            ));
        }
        let domain = attrs.domain?;
        let want = legalis_sysval::tess_factor_shape(d.value, domain)?;
        let (scalar, shape) = shape?;
        (shape != want).then(|| {
            Diagnostic::error(
                codes::SYSTEM_VALUE_TYPE,
                format!(
                    "system value `{name}` of a `{}` domain must be declared {}, not `{found}`",
                    domain_name(domain),
                    legalis_sysval::spell(scalar.kind, want)
                ),
                d.span,
            )
        })
    }

    /// The scalar and shape of a scalar, vector or one-dimensional array of
    /// scalars; `None` for anything else.
    fn declared_shape(&self, ty: Handle<Type>) -> Option<(ir::Scalar, Shape)> {
        match *self.inner(ty) {
            TypeInner::Scalar(s) => Some((s, Shape::Scalar)),
            TypeInner::Vector { size, scalar } => Some((scalar, Shape::Vector(size))),
            TypeInner::Array {
                base,
                size: ir::ArraySize::Constant(n),
            } => match *self.inner(base) {
                TypeInner::Scalar(s) => Some((s, Shape::Array(n))),
                _ => None,
            },
            _ => None,
        }
    }
}

/// `SV_Depth`, `SV_DepthGreaterEqual` or `SV_DepthLessEqual` written.
fn is_depth_output(d: &Declared) -> bool {
    d.direction == Direction::Output && legalis_sysval::writes_depth(d.value)
}

fn duplicate(first: &Declared, d: &Declared, stage: Stage) -> Diagnostic {
    let semantic = Semantic::System {
        value: d.value,
        index: d.index,
    };
    if d.value == SystemValue::Target && d.direction == Direction::Output {
        return Diagnostic::error(
            codes::RENDER_TARGET_CONFLICT,
            format!(
                "`{}` and `{}` both write render target {} (`{semantic}`)",
                first.path, d.path, d.index
            ),
            d.span,
        )
        .with_label(first.span, "render target first written here");
    }
    Diagnostic::error(
        codes::DUPLICATE_SYSTEM_VALUE,
        format!(
            "system value `{semantic}` is declared twice as {} {} {}: `{}` and `{}`",
            stage.article(),
            stage.name(),
            d.direction.name(),
            first.path,
            d.path
        ),
        d.span,
    )
    .with_label(first.span, "first declared here")
}

fn domain_name(domain: ir::TessDomain) -> &'static str {
    match domain {
        ir::TessDomain::Tri => "tri",
        ir::TessDomain::Quad => "quad",
        ir::TessDomain::Isoline => "isoline",
    }
}

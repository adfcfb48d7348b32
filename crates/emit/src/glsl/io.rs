//! Module-scope declarations: stage inputs and outputs (locations and
//! redeclared builtins), mesh output blocks, private globals and hoisted
//! `static` locals.

use std::fmt::Write as _;

use legalis_ir as ir;
use legalis_ir::{AddressSpace, Handle, ScalarKind, TypeInner};

use super::Error;
use super::writer::{Result, Writer, unsupported};
use crate::push_number;

impl Writer<'_> {
    pub(super) fn write_globals(&mut self) -> Result<String> {
        // About a line of 48 bytes a global (`layout(location = 12) in
        // vec4 name;`): thousands of varyings are not copied as it grows.
        let mut out = String::with_capacity(48 * self.globals.len());
        let mut uniforms = Vec::new();
        let mesh_members = self.write_mesh_blocks(&mut out)?;
        for g in self.globals.clone() {
            if mesh_members.contains(&g) {
                continue;
            }
            let var = &self.module.globals[g];
            let span = self.module.globals.span(g);
            let name = self.global_names[&g].clone();
            match var.space {
                AddressSpace::Uniform
                    if self.inner(self.descriptor_array(var.ty).0).is_resource() =>
                {
                    self.declare_resource(g, &mut out)?
                }
                AddressSpace::Uniform => uniforms.push(g),
                AddressSpace::Private => {
                    let (t, s) = self.type_parts(var.ty, span)?;
                    writeln!(out, "{t} {name}{s};").ok();
                }
                AddressSpace::Constant => {
                    let (t, s) = self.type_parts(var.ty, span)?;
                    let Some(init) = var.init else {
                        return unsupported("a `static const` without initializer", span);
                    };
                    let ctx = self.global_ctx();
                    let value = self.expr(&ctx, init)?;
                    writeln!(out, "const {t} {name}{s} = {value};").ok();
                }
                AddressSpace::Workgroup => {
                    let (t, s) = self.type_parts(var.ty, span)?;
                    writeln!(out, "shared {t} {name}{s};").ok();
                }
                AddressSpace::TaskPayload => {
                    self.require("GL_EXT_mesh_shader");
                    let (t, s) = self.type_parts(var.ty, span)?;
                    writeln!(out, "taskPayloadSharedEXT {t} {name}{s};").ok();
                }
                AddressSpace::Input | AddressSpace::Output => self.declare_stage_io(g, &mut out)?,
                AddressSpace::RayTracing(storage) => {
                    self.declare_ray_storage(g, storage, &mut out)?
                }
            }
        }
        self.declare_static_locals(&mut out)?;
        if !uniforms.is_empty() {
            let (set, binding) = self.globals_block_binding.unwrap_or((0, 0));
            let layout = self.block_layout("std140");
            writeln!(
                out,
                "layout({layout}, set = {set}, binding = {binding}) uniform _Globals\n{{"
            )
            .ok();
            for g in uniforms {
                let var = &self.module.globals[g];
                let span = self.module.globals.span(g);
                let (t, s) = self.type_parts(var.ty, span)?;
                let major = self.nested_major(var.ty, span)?;
                writeln!(out, "    {major}{t} {}{s};", self.global_names[&g]).ok();
            }
            out.push_str("} _globals;\n");
        }
        Ok(out)
    }

    /// B10: a mesh shader redeclares the output blocks `gl_MeshPerVertexEXT`
    /// and `gl_MeshPerPrimitiveEXT` with only the members it writes, each
    /// array as long as the outputs. Returns the globals that are members.
    fn write_mesh_blocks(&mut self, out: &mut String) -> Result<Vec<Handle<ir::GlobalVariable>>> {
        use legalis_sysval::{Access, Direction, GlslMapping};
        let mut members = Vec::new();
        if self.entry.stage != ir::ShaderStage::Mesh {
            return Ok(members);
        }
        let attrs = &self.entry.attributes;
        for (access, count, prefix) in [
            (Access::MeshPerVertex, attrs.mesh_vertices.unwrap_or(0), ""),
            (
                Access::MeshPerPrimitive,
                attrs.mesh_primitives.unwrap_or(0),
                "perprimitiveEXT ",
            ),
        ] {
            let (Some(block), Some(array)) = (access.block_name(), access.block_array()) else {
                continue;
            };
            // Member name -> (type, suffix, elements of an arrayed member).
            let mut decls: Vec<(String, String, String, Option<u32>)> = Vec::new();
            for g in self.globals.clone() {
                let var = &self.module.globals[g];
                let Some(ir::Binding::BuiltIn(b)) =
                    var.io.as_ref().and_then(|io| io.binding.as_ref())
                else {
                    continue;
                };
                if var.space != AddressSpace::Output {
                    continue;
                }
                let GlslMapping::BuiltIn(row) =
                    legalis_sysval::glsl(b.value, self.entry.stage, Direction::Output)
                else {
                    continue;
                };
                if row.access != access {
                    continue;
                }
                members.push(g);
                let element = match self.inner(var.ty) {
                    TypeInner::Array { base, .. } => *base,
                    _ => var.ty,
                };
                let (t, s) = self.type_parts(element, self.module.globals.span(g))?;
                let name = self.global_names[&g].clone();
                match decls.iter_mut().find(|d| d.0 == name) {
                    Some(d) => {
                        d.3 = d.3.max(b.array_index.map(|i| i + 1));
                    }
                    None => decls.push((name, t, s, b.array_index.map(|i| i + 1))),
                }
            }
            if decls.is_empty() {
                continue;
            }
            writeln!(out, "{prefix}out {block}\n{{").ok();
            for (name, t, s, elements) in decls {
                match elements {
                    Some(n) => writeln!(out, "    {t} {name}[{n}];").ok(),
                    None => writeln!(out, "    {t} {name}{s};").ok(),
                };
            }
            writeln!(out, "}} {array}[{count}];").ok();
        }
        Ok(members)
    }

    fn declare_static_locals(&mut self, out: &mut String) -> Result<()> {
        let mut statics: Vec<_> = self.static_locals.clone().into_iter().collect();
        statics.sort_by_key(|((f, l), _)| (*f, *l));
        for ((f, l), s) in statics {
            let func = &self.module.functions[f];
            let (t, suffix) = self.type_parts(func.locals[l].ty, func.span)?;
            writeln!(out, "{t} {}{suffix};", s.name).ok();
            if let Some(guard) = &s.guard {
                writeln!(out, "bool {guard} = false;").ok();
            }
        }
        Ok(())
    }

    /// `layout(location = N ...) [interpolation] in|out T name;` for a
    /// location varying, `pervertexEXT` for a per-vertex one (B13);
    /// builtins are used, never declared, unless their row redeclares them
    /// with a layout (`layout(depth_greater) out float gl_FragDepth;`, B14).
    fn declare_stage_io(&mut self, g: Handle<ir::GlobalVariable>, out: &mut String) -> Result<()> {
        let var = &self.module.globals[g];
        let span = self.module.globals.span(g);
        let binding = var.io.as_ref().and_then(|io| io.binding.as_ref());
        let (location, component, index, interpolation) = match binding {
            Some(ir::Binding::BuiltIn(b)) => return self.redeclare_builtin(g, b.value, out),
            Some(&ir::Binding::Location {
                location,
                per_vertex: true,
                ..
            }) => {
                self.require("GL_EXT_fragment_shader_barycentric");
                let (t, s) = self.type_parts(var.ty, span)?;
                let name = &self.global_names[&g];
                writeln!(
                    out,
                    "layout(location = {location}) pervertexEXT in {t} {name}{s};"
                )
                .ok();
                return Ok(());
            }
            // Implicitly declared, sized by `max_primitives` (B10).
            Some(ir::Binding::PrimitiveIndices) => {
                self.require("GL_EXT_mesh_shader");
                return Ok(());
            }
            Some(ir::Binding::Location {
                location,
                component,
                index,
                interpolation,
                ..
            }) => (*location, *component, *index, *interpolation),
            _ => {
                return Err(Error::NotLegalized {
                    what: format!("stage variable `{}` has no builtin or location", var.name),
                    span,
                });
            }
        };
        let mut layout = String::with_capacity(24);
        layout.push_str("location = ");
        push_number(&mut layout, location);
        if component != 0 {
            write!(layout, ", component = {component}").ok();
        }
        if let Some(i) = index {
            write!(layout, ", index = {i}").ok();
        }
        if let Some(io) = &var.io {
            if let Some(stream) = io.stream {
                write!(layout, ", stream = {stream}").ok();
            }
            if let Some(x) = io.xfb {
                write!(
                    layout,
                    ", xfb_buffer = {}, xfb_offset = {}, xfb_stride = {}",
                    x.buffer, x.offset, x.stride
                )
                .ok();
            }
        }
        let input = var.space == AddressSpace::Input;
        let patch = matches!(binding, Some(ir::Binding::Location { patch: true, .. }));
        let interpolated = !patch
            && ((input && self.entry.stage == ir::ShaderStage::Fragment)
                || (!input && self.entry.stage != ir::ShaderStage::Fragment));
        let mut quals = String::new();
        if patch {
            quals.push_str("patch ");
        }
        if matches!(
            binding,
            Some(ir::Binding::Location {
                per_primitive: true,
                ..
            })
        ) {
            self.require("GL_EXT_mesh_shader");
            quals.push_str("perprimitiveEXT ");
        }
        if interpolated {
            let integer = self
                .inner(var.ty)
                .scalar()
                .is_some_and(|s| s.kind != ScalarKind::Float || s.width == 8);
            match interpolation.mode {
                Some(ir::InterpolationMode::Flat) => quals.push_str("flat "),
                _ if integer && input => quals.push_str("flat "),
                Some(ir::InterpolationMode::NoPerspective) => quals.push_str("noperspective "),
                _ => {}
            }
            match interpolation.sampling {
                Some(ir::Sampling::Centroid) => quals.push_str("centroid "),
                Some(ir::Sampling::Sample) => quals.push_str("sample "),
                None => {}
            }
        }
        let (t, s) = self.type_parts(var.ty, span)?;
        let dir = if input { "in " } else { "out " };
        // `layout(…) quals dir type name[…];`, pieced together: one line
        // per varying, thousands in a large interface.
        for piece in [
            "layout(",
            &layout,
            ") ",
            &quals,
            dir,
            &t,
            " ",
            &self.global_names[&g],
            &s,
            ";\n",
        ] {
            out.push_str(piece);
        }
        Ok(())
    }

    /// A builtin whose system-value row carries a layout qualifier is
    /// redeclared with it; others need no declaration.
    fn redeclare_builtin(
        &mut self,
        g: Handle<ir::GlobalVariable>,
        value: ir::SystemValue,
        out: &mut String,
    ) -> Result<()> {
        let var = &self.module.globals[g];
        let input = var.space == AddressSpace::Input;
        let dir = if input {
            legalis_sysval::Direction::Input
        } else {
            legalis_sysval::Direction::Output
        };
        let legalis_sysval::GlslMapping::BuiltIn(row) =
            legalis_sysval::glsl(value, self.entry.stage, dir)
        else {
            return Ok(());
        };
        let Some(layout) = row.layout else {
            return Ok(());
        };
        let span = self.module.globals.span(g);
        let (t, s) = self.type_parts(var.ty, span)?;
        let dir = if input { "in" } else { "out" };
        let name = &self.global_names[&g];
        writeln!(out, "layout({layout}) {dir} {t} {name}{s};").ok();
        Ok(())
    }
}

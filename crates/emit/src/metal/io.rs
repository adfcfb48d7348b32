//! The interface of an MSL entry function: the attributes of its
//! parameters and result members (`[[position]]`, `[[user(TEXCOORD0)]]`,
//! `[[attribute(n)]]`, from the system-value table's Metal column), the
//! members of its `[[stage_in]]` struct, and a mesh function's
//! `metal::mesh` (B21).

use super::Error;
use super::writer::{GlobalKind, rasterizer_ordered};
use crate::cfamily::prelude::*;
use crate::cfamily::reach;
use legalis_ir as ir;
use legalis_ir::{Handle, ShaderStage, Span, TypeInner};
use legalis_sysval::Direction;

use super::names::RULES;
use super::types::{Result, unsupported};
use super::writer::Writer;

/// The member names of an entry function's `[[stage_in]]` struct, one per
/// parameter (meaningful for the `Location` ones): each parameter's name,
/// made an identifier, renamed when MSL reserves it (`thread`, `device`)
/// or another member already has it.
pub(super) fn stage_in_members(func: &ir::Function) -> Vec<String> {
    let mut taken = crate::namer::Namer::new(RULES);
    func.params
        .iter()
        .map(|p| match p.io.binding {
            Some(ir::Binding::Location { .. }) => taken.call(&p.name),
            _ => String::new(),
        })
        .collect()
}

impl Writer<'_> {
    /// The text inside `[[...]]` of a parameter or result member of a
    /// `stage` entry point.
    pub fn attribute(
        &self,
        binding: &ir::Binding,
        stage: ShaderStage,
        dir: Direction,
        io: &ir::IoAttrs,
        span: Span,
    ) -> Result<String> {
        match binding {
            ir::Binding::BuiltIn(b) => match legalis_sysval::metal(b.value, stage, dir) {
                legalis_sysval::MetalMapping::BuiltIn(row) => {
                    Ok(row.attribute_with(0, io.interpolation))
                }
                _ => Err(Error::NotLegalized {
                    what: format!("`{}` has no Metal attribute here", b.value.name()),
                    span,
                }),
            },
            ir::Binding::Location {
                location,
                interpolation,
                index,
                ..
            } => Ok(legalis_sysval::metal::with_blend(
                legalis_sysval::metal::location_attribute(
                    stage,
                    dir,
                    *location,
                    *interpolation,
                    io.link_name.as_deref(),
                ),
                *index,
            )),
            ir::Binding::Semantic(_) => Err(Error::NotLegalized {
                what: "a varying still bound by its semantic".into(),
                span,
            }),
            ir::Binding::PrimitiveIndices => unsupported(
                "mesh primitive indices as a varying (Metal writes them with `set_index`)",
                span,
            ),
        }
    }

    /// `metal::mesh<V, P, NV, NP, metal::topology::T>` of the entry
    /// function's mesh outputs (B21); `P` is `void` without primitive
    /// data.
    pub(super) fn mesh_type(
        &self,
        entry: &ir::EntryPoint,
        func: &ir::Function,
        span: Span,
    ) -> Result<String> {
        let mut vertex = None;
        let mut primitive = None;
        let mut vertices = 0;
        let mut primitives = 0;
        for p in &func.params {
            if let TypeInner::MeshOutput {
                kind,
                element,
                count,
            } = self.module.types[p.ty].inner
            {
                match kind {
                    ir::MeshOutputKind::Vertices => {
                        vertex = Some(element);
                        vertices = count;
                    }
                    ir::MeshOutputKind::Primitives => {
                        primitive = Some(element);
                        primitives = primitives.max(count);
                    }
                    ir::MeshOutputKind::Indices => primitives = primitives.max(count),
                }
            }
        }
        let Some(vertex) = vertex else {
            return unsupported("a mesh function without `out vertices`", span);
        };
        let primitive = match primitive {
            Some(p) => self.spell(p, span)?,
            None => "void".into(),
        };
        let topology = match entry.attributes.output_topology {
            Some(ir::OutputTopology::Point) => "point",
            Some(ir::OutputTopology::Line) => "line",
            _ => "triangle",
        };
        Ok(format!(
            "metal::mesh<{}, {primitive}, {vertices}, {primitives}, metal::topology::{topology}>",
            self.spell(vertex, span)?
        ))
    }
}

impl Writer<'_> {
    /// Program-scope `constant` values.
    pub(super) fn constants(&self) -> Result<String> {
        let constants = reach::globals_of(&self.kinds, |k| *k == GlobalKind::Constant);
        let exprs = &self.module.global_expressions;
        self.write_constants(&constants, "constant", |init, span| {
            if !super::expr::is_const(exprs, init) {
                return unsupported(
                    "a `static const` initializer that is not a constant expression",
                    span,
                );
            }
            Ok(())
        })
    }

    /// A threaded global as a parameter (attributed on the entry point
    /// `entry`, when it is one). A rasterizer-ordered resource joins raster
    /// order group 0 (`[[raster_order_group(0)]]`, the reference's one
    /// group), which only a fragment function has.
    pub(super) fn global_param(
        &self,
        g: Handle<ir::GlobalVariable>,
        entry: Option<&ir::EntryPoint>,
    ) -> Result<Option<String>> {
        let attributed = entry.is_some();
        let module = self.module;
        let global = &module.globals[g];
        let span = module.globals.span(g);
        let name = &self.names.globals[&g];
        let text = match self.kinds[&g] {
            GlobalKind::Constant => return Ok(None),
            GlobalKind::Plain => return Ok(None),
            GlobalKind::Private if attributed => return Ok(None),
            GlobalKind::Workgroup if attributed => return Ok(None),
            GlobalKind::Private => format!("thread {}& {name}", self.spell(global.ty, span)?),
            GlobalKind::Workgroup => {
                format!("threadgroup {}& {name}", self.spell(global.ty, span)?)
            }
            GlobalKind::Resource(slot) => {
                let ty = self.resource_type(g, span)?;
                let ordered = rasterizer_ordered(&module.types[global.ty].inner);
                match entry {
                    Some(entry) if ordered && entry.stage != ShaderStage::Fragment => {
                        return unsupported(
                            format!(
                                "a rasterizer-ordered resource in a {} entry point (Metal raster order groups are a fragment function's)",
                                entry.stage.name()
                            ),
                            span,
                        );
                    }
                    Some(_) if ordered => format!(
                        "{ty} {name} [[raster_order_group(0)]] [[{}]]",
                        slot.attribute()
                    ),
                    Some(_) => format!("{ty} {name} [[{}]]", slot.attribute()),
                    None => format!("{ty} {name}"),
                }
            }
        };
        Ok(Some(text))
    }
}

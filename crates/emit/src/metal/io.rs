//! The interface of an MSL entry function: the attributes of its
//! parameters and result members (`[[position]]`, `[[user(TEXCOORD0)]]`,
//! `[[attribute(n)]]`, from the system-value table's Metal column), the
//! members of its `[[stage_in]]` struct, and a mesh function's
//! `metal::mesh` (B21).

use legalis_ir as ir;
use legalis_ir::{ShaderStage, Span, TypeInner};
use legalis_sysval::Direction;

use super::Error;
use super::types::{Result, unsupported};
use super::writer::{RULES, Writer};
use crate::cfamily::prelude::*;

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
                ..
            } => Ok(legalis_sysval::metal::location_attribute(
                stage,
                dir,
                *location,
                *interpolation,
                io.link_name.as_deref(),
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

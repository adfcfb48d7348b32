//! MSL spellings of IR types: scalars (`half`, `ushort`; no `double`),
//! vectors (`float4`), matrices (`float3x4`: HLSL `float3x4` under the
//! writer's convention, only of `float` and `half`), `array<T, N>` (value
//! semantics, unlike C arrays), and the resource types.

use super::Error;
use super::io::stage_in_members;
use super::writer::{GlobalKind, Writer, device_layout_matches};
use crate::cfamily::prelude::*;
use legalis_ir as ir;
use legalis_ir::FastHashMap;
use legalis_ir::{Handle, ShaderStage, Span, TypeInner};
use legalis_sysval::Direction;
use std::fmt::Write as _;

use legalis_ir::ScalarKind;

use crate::cfamily;

pub(super) use super::{Result, unsupported};

/// The MSL scalar type: `double` has none.
pub(super) fn scalar(s: ir::Scalar, span: Span) -> Result<&'static str> {
    if (s.kind, s.width) == (ScalarKind::Float, 8) {
        return unsupported("`double` (Metal has no 64-bit floats)", span);
    }
    cfamily::types::stem(s).ok_or_else(|| cfamily::types::odd_scalar(s, span))
}

/// The MSL spelling of the types the C-family speller leaves to it: `T*`
/// (an address in device memory); `RayQuery` is refused.
pub(super) fn other(
    spell: &dyn Fn(Handle<ir::Type>) -> Result<String>,
    inner: &TypeInner,
    span: Span,
) -> Result<Option<String>> {
    Ok(Some(match inner {
        TypeInner::Pointer { base: Some(base) } => format!("device {}*", spell(*base)?),
        TypeInner::Pointer { base: None } => "device void*".to_string(),
        TypeInner::RayQuery { .. } => {
            return unsupported(
                "`RayQuery` (inline ray tracing; Metal's `intersection_query` is not written)",
                span,
            );
        }
        _ => return Ok(None),
    }))
}

/// The MSL type of a texture: `texture2d<float, access::read_write>`
/// (`access::write` when the code only writes it), or
/// `depth2d<float>` when it is sampled with comparison or is a depth
/// texture (`DepthTexture2D`). Combined texture-samplers (`Sampler2D`) are
/// refused: Metal binds textures and samplers apart.
pub(super) fn texture(
    module: &ir::Module,
    ty: Handle<ir::Type>,
    compare: bool,
    write_only: bool,
    span: Span,
) -> Result<String> {
    let TypeInner::Texture(t) = module.types[ty].inner else {
        return unsupported("a texture of an unknown kind", span);
    };
    if t.combined {
        return unsupported(
            format!(
                "the combined texture-sampler `{}` (Metal textures and samplers are separate \
                 arguments)",
                ir::print::type_name(module, ty)
            ),
            span,
        );
    }
    let compare = compare || t.shadow;
    let sc = module.types[t.texel]
        .inner
        .scalar()
        .unwrap_or(ir::Scalar::F32);
    let element = scalar(sc, span)?;
    if sc.kind == ScalarKind::Bool || sc.width == 8 {
        return unsupported(format!("a texture of `{element}` texels"), span);
    }
    use ir::TextureDim as D;
    let prefix = if compare { "depth" } else { "texture" };
    let shape = match (t.dim, t.arrayed, t.multisampled) {
        (D::D1, false, false) if !compare => "1d",
        (D::D1, true, false) if !compare => "1d_array",
        (D::D2, false, false) => "2d",
        (D::D2, true, false) => "2d_array",
        (D::D2, false, true) => "2d_ms",
        (D::D2, true, true) => "2d_ms_array",
        (D::D3, false, false) if !compare => "3d",
        (D::Cube, false, false) => "cube",
        (D::Cube, true, false) => "cube_array",
        _ => {
            return unsupported(
                format!("the texture type `{}`", ir::print::type_name(module, ty)),
                span,
            );
        }
    };
    // A rasterizer-ordered texture is a read-write one whose argument
    // joins a raster order group (`writer.rs`).
    let access = match t.access {
        ir::ResourceAccess::Read => "",
        ir::ResourceAccess::ReadWrite if write_only => ", access::write",
        ir::ResourceAccess::ReadWrite | ir::ResourceAccess::RasterizerOrdered => {
            ", access::read_write"
        }
    };
    if compare && sc.kind != ScalarKind::Float {
        return unsupported("a comparison-sampled texture of integers", span);
    }
    Ok(format!("{prefix}{shape}<{element}{access}>"))
}

/// The MSL type of a typed buffer (`Buffer<T>`, `RWBuffer<T>`):
/// `texture_buffer<uint, access::read_write>`, read and written a texel of
/// four components at a time like a texture.
pub(super) fn texture_buffer(
    module: &ir::Module,
    ty: Handle<ir::Type>,
    span: Span,
) -> Result<String> {
    let TypeInner::Buffer {
        kind: ir::BufferKind::Typed,
        access,
        element: Some(element),
        ..
    } = module.types[ty].inner
    else {
        return unsupported("a typed buffer of an unknown kind", span);
    };
    let sc = module.types[element]
        .inner
        .scalar()
        .unwrap_or(ir::Scalar::F32);
    let s = scalar(sc, span)?;
    if sc.kind == ScalarKind::Bool
        || sc.width != 4 && !(sc.width == 2 && sc.kind == ScalarKind::Float)
    {
        return unsupported(format!("a typed buffer of `{s}` elements"), span);
    }
    let access = match access {
        ir::ResourceAccess::Read => "access::read",
        ir::ResourceAccess::ReadWrite | ir::ResourceAccess::RasterizerOrdered => {
            "access::read_write"
        }
    };
    Ok(format!("texture_buffer<{s}, {access}>"))
}

/// How many coordinates address a texel of a texture of `dim` (without
/// the array layer).
pub(super) fn coordinate_count(dim: ir::TextureDim) -> u8 {
    match dim {
        ir::TextureDim::D1 => 1,
        ir::TextureDim::D2 => 2,
        ir::TextureDim::D3 | ir::TextureDim::Cube => 3,
    }
}

impl Writer<'_> {
    /// The spelling of a struct member's declared type (transposed where
    /// stored so).
    fn member_type(
        &self,
        st: Handle<ir::Type>,
        index: u32,
        m: &ir::StructMember,
    ) -> Result<String> {
        if self.transposed.contains(&(st, index)) {
            return self.transposed_spelling(m.ty, m.span);
        }
        self.spell(m.ty, m.span)
    }

    fn transposed_spelling(&self, ty: Handle<ir::Type>, span: Span) -> Result<String> {
        match self.module.types[ty].inner {
            TypeInner::Matrix {
                rows,
                columns,
                scalar,
            } => Ok(format!("{}{columns}x{rows}", self::scalar(scalar, span)?)),
            TypeInner::Array {
                base,
                size: ir::ArraySize::Constant(n),
            } => Ok(format!(
                "array<{}, {n}>",
                self.transposed_spelling(base, span)?
            )),
            _ => self.spell(ty, span),
        }
    }

    pub(super) fn structs(&self) -> Result<String> {
        let module = self.module;
        let mut out = String::new();
        // The structs whose members carry attributes, with the stage they
        // are the outputs of: each entry function's result and (B21) the
        // vertex and primitive structs of a mesh function's `metal::mesh`.
        let mut attributed: FastHashMap<Handle<ir::Type>, ShaderStage> = FastHashMap::default();
        for (k, entry) in self.entries.iter().enumerate() {
            let func = self.entry_function(k);
            let mesh_elements = func
                .params
                .iter()
                .filter_map(|p| match module.types[p.ty].inner {
                    TypeInner::MeshOutput {
                        kind: ir::MeshOutputKind::Vertices | ir::MeshOutputKind::Primitives,
                        element,
                        ..
                    } => Some(element),
                    _ => None,
                });
            for ty in func.result.iter().map(|r| r.ty).chain(mesh_elements) {
                attributed.entry(ty).or_insert(entry.stage);
            }
        }
        for &ty in &self.used_structs {
            let TypeInner::Struct { members } = &module.types[ty].inner else {
                continue;
            };
            if members.is_empty() {
                return unsupported("an empty struct", module.types.span(ty));
            }
            let names = &self.names.members[&ty];
            writeln!(out, "struct {}\n{{", self.names.struct_name(ty)).ok();
            for (i, m) in members.iter().enumerate() {
                let mut spelled = self.member_type(ty, i as u32, m)?;
                // `float name [[clip_distance]] [N]`: an attributed array
                // is a C array, its extent after the attribute.
                let mut extent = String::new();
                if let (
                    Some(_),
                    TypeInner::Array {
                        base,
                        size: ir::ArraySize::Constant(n),
                    },
                ) = (attributed.get(&ty), &module.types[m.ty].inner)
                {
                    spelled = self.spell(*base, m.span)?;
                    extent = format!(" [{n}]");
                }
                let attribute = if let Some(&stage) = attributed.get(&ty) {
                    let binding = m.io.binding.as_ref().ok_or_else(|| Error::NotLegalized {
                        what: format!("the result member `{}` has no attribute", m.name),
                        span: m.span,
                    })?;
                    format!(
                        " [[{}]]",
                        self.attribute(binding, stage, Direction::Output, &m.io, m.span)?
                    )
                } else {
                    String::new()
                };
                writeln!(out, "    {spelled} {}{attribute}{extent};", names[i]).ok();
            }
            out.push_str("};\n\n");
        }
        for (k, entry) in self.entries.iter().enumerate() {
            let Some((ty, _)) = &self.stage_ins[k] else {
                continue;
            };
            writeln!(out, "struct {ty}\n{{").ok();
            let func = self.entry_function(k);
            for (p, member) in func.params.iter().zip(stage_in_members(func)) {
                let Some(binding @ ir::Binding::Location { .. }) = &p.io.binding else {
                    continue;
                };
                let attribute =
                    self.attribute(binding, entry.stage, Direction::Input, &p.io, p.span)?;
                writeln!(
                    out,
                    "    {} {member} [[{attribute}]];",
                    self.spell(p.ty, p.span)?,
                )
                .ok();
            }
            out.push_str("};\n\n");
        }
        if let Some((ty, _, _)) = &self.globals_block {
            writeln!(out, "struct {ty}\n{{").ok();
            let mut plain: Vec<_> = self
                .kinds
                .iter()
                .filter(|(_, k)| **k == GlobalKind::Plain)
                .map(|(g, _)| *g)
                .collect();
            plain.sort();
            for g in plain {
                let global = &module.globals[g];
                let span = module.globals.span(g);
                let spelled = if self.transposed_plain.contains(&g) {
                    self.transposed_spelling(global.ty, span)?
                } else {
                    self.spell(global.ty, span)?
                };
                writeln!(out, "    {spelled} {};", self.names.globals[&g]).ok();
            }
            out.push_str("};\n\n");
        }
        Ok(out)
    }

    /// The MSL parameter type of a resource global.
    pub(super) fn resource_type(
        &self,
        g: Handle<ir::GlobalVariable>,
        span: Span,
    ) -> Result<String> {
        let module = self.module;
        let global = &module.globals[g];
        Ok(match &module.types[global.ty].inner {
            TypeInner::Texture(_) => self::texture(
                module,
                global.ty,
                self.compare.contains(&g),
                self.write_only(g),
                span,
            )?,
            TypeInner::Sampler { .. } => "sampler".into(),
            TypeInner::SubpassInput { texel, .. } => self.spell(*texel, span)?,
            TypeInner::Buffer {
                kind: ir::BufferKind::Typed,
                ..
            } => self::texture_buffer(module, global.ty, span)?,
            TypeInner::ConstantBuffer { inner } => {
                format!("constant {}&", self.spell(*inner, span)?)
            }
            TypeInner::TextureBuffer { inner } => {
                format!("const device {}&", self.spell(*inner, span)?)
            }
            TypeInner::Buffer {
                kind,
                access,
                element,
                ..
            } => {
                let element = match (kind, element) {
                    (ir::BufferKind::ByteAddress, _) => "uint".to_string(),
                    (_, Some(e)) => {
                        device_layout_matches(module, *e, global.matrix_layout, span)?;
                        self.spell(*e, span)?
                    }
                    (_, None) => return unsupported("a buffer without an element type", span),
                };
                match access {
                    ir::ResourceAccess::Read => format!("const device {element}*"),
                    // Rasterizer-ordered: in a raster order group.
                    ir::ResourceAccess::ReadWrite | ir::ResourceAccess::RasterizerOrdered => {
                        format!("device {element}*")
                    }
                }
            }
            _ => return unsupported("this resource type", span),
        })
    }
}

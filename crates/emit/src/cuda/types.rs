//! CUDA spellings of IR types, through the prelude (`prelude.cuh`):
//! scalars (`uint32_t`, `lg::half`, `double`), vectors (`lg::float4`),
//! matrices (`lg::float3x4`: HLSL's rows, HLSL's `mul`), value arrays
//! (`lg::array<T, N>`); textures as CUDA texture objects
//! (`cudaTextureObject_t`), `RWTexture1D/2D/3D` as surface objects
//! (`cudaSurfaceObject_t`), samplers as the prelude's placeholder
//! `lg::sampler_state` ([`texture`]).

use super::names::RULES;
use super::writer::{GlobalKind, Writer};
use crate::cfamily::prelude::*;
use crate::namer::Namer;
use legalis_ir as ir;
use legalis_ir::{AddressSpace, Handle, Span, TypeInner};
use legalis_layout::{Layouter, Rule};
use std::collections::BTreeSet;
use std::fmt::Write as _;

use legalis_ir::ScalarKind;

pub(super) use super::{Result, unsupported};

/// The CUDA scalar type.
pub(super) fn scalar(s: ir::Scalar, span: Span) -> Result<&'static str> {
    Ok(match (s.kind, s.width) {
        (ScalarKind::Bool, _) => "bool",
        (ScalarKind::Sint, 1) => "int8_t",
        (ScalarKind::Sint, 2) => "int16_t",
        (ScalarKind::Sint, 4) => "int",
        (ScalarKind::Sint, 8) => "int64_t",
        (ScalarKind::Uint, 1) => "uint8_t",
        (ScalarKind::Uint, 2) => "uint16_t",
        (ScalarKind::Uint, 4) => "uint32_t",
        (ScalarKind::Uint, 8) => "uint64_t",
        (ScalarKind::Float, 2) => "lg::half",
        (ScalarKind::Float, 4) => "float",
        (ScalarKind::Float, 8) => "double",
        _ => return unsupported(format!("a {}-byte scalar", s.width), span),
    })
}

/// The prelude's name stem of a vector or matrix of `s` (`float`, `uint`).
pub(super) fn stem(s: ir::Scalar, span: Span) -> Result<&'static str> {
    crate::cfamily::types::stem(s).ok_or_else(|| crate::cfamily::types::odd_scalar(s, span))
}

/// `lg::float4`.
pub(super) fn vector(s: ir::Scalar, size: u8, span: Span) -> Result<String> {
    if size == 1 {
        return Ok(scalar(s, span)?.to_string());
    }
    Ok(format!("lg::{}{size}", stem(s, span)?))
}

/// The CUDA spelling of the types the C-family speller leaves to it:
/// textures, samplers and acceleration structures (a 64-bit handle value,
/// a local or a field as well as a global); `RayQuery` is refused.
pub(super) fn other(
    module: &ir::Module,
    ty: Handle<ir::Type>,
    span: Span,
) -> Result<Option<String>> {
    Ok(Some(match module.types[ty].inner {
        TypeInner::Texture(_) | TypeInner::Sampler { .. } => texture(module, ty, span)?.into(),
        TypeInner::AccelerationStructure => "OptixTraversableHandle".into(),
        TypeInner::RayQuery { .. } => {
            return unsupported("`RayQuery` (OptiX has no inline ray tracing)", span);
        }
        _ => return Ok(None),
    }))
}

/// The CUDA type of a texture or sampler: a texture object, a surface
/// object, or the sampler placeholder (CUDA samples through the state the
/// host gave the texture object). Refused: multisampled and
/// rasterizer-ordered textures, read-write cube and array textures (no
/// CUDA surface reads them as HLSL does), and texels CUDA's texture and
/// surface functions do not read (`float3`, 16-bit, 64-bit types), or a
/// normalized read-write texel (a surface reads the raw bytes).
pub(super) fn texture(
    module: &ir::Module,
    ty: Handle<ir::Type>,
    span: Span,
) -> Result<&'static str> {
    let name = || ir::print::type_name(module, ty);
    match module.types[ty].inner {
        TypeInner::Sampler { .. } => Ok("lg::sampler_state"),
        TypeInner::Texture(t) => {
            if t.combined {
                return unsupported(
                    format!(
                        "the combined texture-sampler `{}` (not written for CUDA yet)",
                        name()
                    ),
                    span,
                );
            }
            if t.multisampled {
                return unsupported(format!("the multisampled texture type `{}`", name()), span);
            }
            if !texel_supported(module, t.texel) {
                return unsupported(
                    format!(
                        "the texel type `{}` of `{}` (CUDA texture objects read 32-bit \
                         float, int and uint scalars and 2- and 4-vectors)",
                        ir::print::type_name(module, t.texel),
                        name()
                    ),
                    span,
                );
            }
            match t.access {
                ir::ResourceAccess::Read => Ok("cudaTextureObject_t"),
                ir::ResourceAccess::ReadWrite
                    if !t.arrayed && t.dim != ir::TextureDim::Cube && t.normalization.is_none() =>
                {
                    Ok("cudaSurfaceObject_t")
                }
                ir::ResourceAccess::ReadWrite => unsupported(
                    format!(
                        "the read-write texture type `{}` (CUDA surface objects here are \
                         1D, 2D and 3D, of unnormalized texels)",
                        name()
                    ),
                    span,
                ),
                ir::ResourceAccess::RasterizerOrdered => unsupported(
                    format!("the rasterizer-ordered texture type `{}`", name()),
                    span,
                ),
            }
        }
        _ => unsupported(format!("the type `{}` as a texture", name()), span),
    }
}

/// Whether CUDA's texture and surface functions read texels of `ty`
/// (through the prelude's `lg::texel`): 32-bit float, int and uint
/// scalars, 2- and 4-vectors.
fn texel_supported(module: &ir::Module, ty: Handle<ir::Type>) -> bool {
    let ok = |s: ir::Scalar| s.width == 4 && s.kind != ScalarKind::Bool;
    match module.types[ty].inner {
        TypeInner::Scalar(s) => ok(s),
        TypeInner::Vector { size, scalar } => matches!(size, 2 | 4) && ok(scalar),
        _ => false,
    }
}

/// A member of a struct shared with the host: its spelling, name, type
/// and matrix major.
type SharedField = (String, String, Handle<ir::Type>, Option<ir::MatrixLayout>);

/// Whether `ty` (a matrix, or an array of them) shared with the host is
/// stored in column order: HLSL's default `column_major`, not `row_major`.
/// A matrix of one row or one column stores the same components in either
/// order and stays an `lg::mat`.
pub(super) fn holds_column_major(
    module: &ir::Module,
    ty: Handle<ir::Type>,
    major: Option<ir::MatrixLayout>,
) -> bool {
    match module.types[ty].inner {
        TypeInner::Array { base, .. } => holds_column_major(module, base, major),
        TypeInner::Matrix { rows, columns, .. } => {
            rows > 1 && columns > 1 && major != Some(ir::MatrixLayout::RowMajor)
        }
        _ => false,
    }
}

impl Writer<'_> {
    /// The spelling of a function parameter's type: a value type, or a
    /// resource as a kernel parameter spells it.
    pub(super) fn param_type(&self, ty: Handle<ir::Type>, span: Span) -> Result<String> {
        if self.module.types[ty].inner.is_resource() {
            return self.resource_type_of(ty, false, span);
        }
        self.spell(ty, span)
    }

    /// The CUDA type of a resource global as a kernel parameter or launch
    /// parameter member.
    pub(super) fn resource_type(
        &self,
        g: Handle<ir::GlobalVariable>,
        span: Span,
    ) -> Result<String> {
        let ty = self.module.globals[g].ty;
        self.resource_type_of(ty, self.column_globals.contains(&g), span)
    }

    /// The CUDA type of a resource of type `ty` (`columns`: a structured
    /// buffer of column-major matrices the host shares).
    pub(super) fn resource_type_of(
        &self,
        ty: Handle<ir::Type>,
        columns: bool,
        span: Span,
    ) -> Result<String> {
        let module = self.module;
        Ok(match &module.types[ty].inner {
            TypeInner::ConstantBuffer { inner } => self.spell(*inner, span)?,
            TypeInner::TextureBuffer { inner } => format!("const {}*", self.spell(*inner, span)?),
            TypeInner::AccelerationStructure => "OptixTraversableHandle".into(),
            TypeInner::Buffer { .. } => self.buffer_pointer(ty, columns, span)?,
            TypeInner::Texture(_) | TypeInner::Sampler { .. } => {
                self::texture(module, ty, span)?.into()
            }
            _ => {
                return unsupported(
                    format!("the resource type `{}`", ir::print::type_name(module, ty)),
                    span,
                );
            }
        })
    }

    /// The pointer a structured or byte-address buffer `ty` is (`columns`:
    /// one of column-major matrices the host shares): `const T*` where it
    /// is read only.
    fn buffer_pointer(&self, ty: Handle<ir::Type>, columns: bool, span: Span) -> Result<String> {
        let TypeInner::Buffer {
            kind,
            access,
            element,
            ..
        } = self.module.types[ty].inner
        else {
            return unsupported("a buffer of an unknown kind", span);
        };
        let element = match (kind, element) {
            (ir::BufferKind::ByteAddress, _) => "uint32_t".to_string(),
            (ir::BufferKind::Structured, Some(e)) => self.spell_stored(e, columns, span)?,
            (ir::BufferKind::Typed, _) => {
                return unsupported("typed buffers (`Buffer<T>`)", span);
            }
            (ir::BufferKind::Append | ir::BufferKind::Consume, _) => {
                return unsupported(
                    "append and consume buffers (no buffer counters in CUDA output)",
                    span,
                );
            }
            (_, None) => return unsupported("a buffer without an element type", span),
        };
        match access {
            ir::ResourceAccess::Read => Ok(format!("const {element}*")),
            ir::ResourceAccess::ReadWrite => Ok(format!("{element}*")),
            ir::ResourceAccess::RasterizerOrdered => {
                unsupported("rasterizer-ordered buffers", span)
            }
        }
    }

    /// The spelling of a value type as stored in memory the host shares:
    /// with `columns`, a matrix (or the matrices of an array) as
    /// `lg::column_major<M>`.
    pub fn spell_stored(&self, ty: Handle<ir::Type>, columns: bool, span: Span) -> Result<String> {
        if !columns {
            return self.spell(ty, span);
        }
        match self.module.types[ty].inner {
            TypeInner::Matrix { .. } => Ok(format!("lg::column_major<{}>", self.spell(ty, span)?)),
            TypeInner::Array {
                base,
                size: ir::ArraySize::Constant(n),
            } => Ok(format!(
                "lg::array<{}, {n}>",
                self.spell_stored(base, true, span)?
            )),
            _ => self.spell(ty, span),
        }
    }

    /// Structs whose bytes the host shares: those inside constant buffers,
    /// structured buffers and the globals block. They get `legalis_layout`
    /// offsets; other structs (payloads, locals only) stay as C++ lays them.
    pub(super) fn buffer_structs(&self) -> BTreeSet<Handle<ir::Type>> {
        let mut out = BTreeSet::new();
        for g in self.kinds.keys() {
            let global = &self.module.globals[*g];
            if global.space == AddressSpace::Uniform {
                crate::structs::mark_structs(self.module, global.ty, &mut out);
            }
        }
        for e in &self.entries {
            let params = &self.module.functions[e.entry.function].params;
            for &i in &e.uniform_params {
                crate::structs::mark_structs(self.module, params[i].ty, &mut out);
            }
        }
        out
    }

    pub(super) fn structs(&self) -> Result<String> {
        let module = self.module;
        let mut out = String::new();
        let shared = self.buffer_structs();
        for &ty in &self.used_structs {
            let TypeInner::Struct { members } = &module.types[ty].inner else {
                continue;
            };
            if members.is_empty() && shared.contains(&ty) {
                // C++ gives an empty struct one byte; the host's layout
                // gives it none.
                return unsupported(
                    "an empty struct in memory the host shares",
                    module.types.span(ty),
                );
            }
            let names = &self.names.members[&ty];
            let mut fields = Vec::new();
            for (i, m) in members.iter().enumerate() {
                let columns = self.column_members.contains(&(ty, i as u32));
                let spelled = self.spell_stored(m.ty, columns, m.span)?;
                fields.push((spelled, names[i].clone(), m.ty, m.matrix_layout));
            }
            if shared.contains(&ty) {
                self.laid_out_struct(&self.names.struct_name(ty), &fields, &mut out)?;
            } else {
                writeln!(out, "struct {}\n{{", self.names.struct_name(ty)).ok();
                for (spelled, field, ..) in &fields {
                    writeln!(out, "    {spelled} {field};").ok();
                }
                out.push_str("};\n\n");
            }
        }
        if let Some((ty, _)) = &self.globals_block {
            let mut fields = Vec::new();
            for g in self.globals_of(GlobalKind::Plain) {
                let global = &module.globals[g];
                let span = module.globals.span(g);
                let columns = self.column_globals.contains(&g);
                let spelled = self.spell_stored(global.ty, columns, span)?;
                fields.push((
                    spelled,
                    self.names.globals[&g].clone(),
                    global.ty,
                    global.matrix_layout,
                ));
            }
            self.laid_out_struct(ty, &fields, &mut out)?;
        }
        for e in &self.entries {
            if let Some(name) = &e.record_struct {
                let fields = self.record_fields_of(e.entry, &e.uniform_params)?;
                self.laid_out_struct(name, &fields, &mut out)?;
            }
        }
        Ok(out)
    }

    /// The members of an OptiX program's shader-record struct: its
    /// `uniform` parameters in order, under their own names.
    pub(super) fn record_fields(&self) -> Result<Vec<SharedField>> {
        self.record_fields_of(self.entry, &self.uniform_params)
    }

    fn record_fields_of(
        &self,
        entry: &ir::EntryPoint,
        uniform_params: &[usize],
    ) -> Result<Vec<SharedField>> {
        let params = &self.module.functions[entry.function].params;
        let mut local = Namer::new(RULES);
        let mut fields = Vec::new();
        for &i in uniform_params {
            let p = &params[i];
            fields.push((
                self.param_type(p.ty, p.span)?,
                local.call(&p.name),
                p.ty,
                None,
            ));
        }
        Ok(fields)
    }

    /// Per member of struct `ty`: whether `laid_out_struct` puts padding
    /// bytes before it.
    pub(super) fn padded_members(&self, ty: Handle<ir::Type>) -> Vec<bool> {
        let TypeInner::Struct { members } = &self.module.types[ty].inner else {
            return Vec::new();
        };
        if !self.buffer_structs().contains(&ty) {
            return Vec::new();
        }
        let types: Vec<_> = members.iter().map(|m| (m.ty, m.matrix_layout)).collect();
        let Ok((_, placed)) = Layouter::new(self.module, Rule::Cuda).struct_layout(&types) else {
            return Vec::new();
        };
        let mut cursor = 0;
        placed
            .iter()
            .map(|m| {
                let padded = m.offset > cursor;
                cursor = m.offset + m.layout.size;
                padded
            })
            .collect()
    }

    /// A struct whose members sit at their `legalis_layout` CUDA offsets:
    /// the prelude's vectors, matrices and arrays align only to their
    /// scalar, so explicit padding bytes before a member (and at the end)
    /// reach every offset and size the rule asks for; `static_assert`s
    /// make nvcc prove them.
    fn laid_out_struct(&self, name: &str, fields: &[SharedField], out: &mut String) -> Result<()> {
        let layouter = Layouter::new(self.module, Rule::Cuda);
        let types: Vec<_> = fields.iter().map(|f| (f.2, f.3)).collect();
        let (layout, placed) = match layouter.struct_layout(&types) {
            Ok(l) => l,
            // Opaque members (resources in a parameter struct) have no
            // layout to keep: the struct stays as C++ lays it out.
            Err(_) => {
                writeln!(out, "struct {name}\n{{").ok();
                for (spelled, field, ..) in fields {
                    writeln!(out, "    {spelled} {field};").ok();
                }
                out.push_str("};\n\n");
                return Ok(());
            }
        };
        writeln!(out, "struct {name}\n{{").ok();
        let mut cursor = 0;
        let mut pads = 0;
        let mut pad = |out: &mut String, to: u32, cursor: &mut u32| {
            if to > *cursor {
                writeln!(out, "    unsigned char _pad{pads}[{}];", to - *cursor).ok();
                pads += 1;
                *cursor = to;
            }
        };
        for ((spelled, field, ..), member) in fields.iter().zip(&placed) {
            pad(out, member.offset, &mut cursor);
            writeln!(out, "    {spelled} {field};").ok();
            cursor = member.offset + member.layout.size;
        }
        pad(out, layout.size, &mut cursor);
        out.push_str("};\n");
        for ((_, field, ..), member) in fields.iter().zip(&placed) {
            writeln!(
                out,
                "static_assert(offsetof({name}, {field}) == {}, \"{name}.{field}\");",
                member.offset
            )
            .ok();
        }
        writeln!(
            out,
            "static_assert(sizeof({name}) == {}, \"sizeof({name})\");\n",
            layout.size
        )
        .ok();
        Ok(())
    }
}

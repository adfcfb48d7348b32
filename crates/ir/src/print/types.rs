//! HLSL spellings of types, for the printer and for diagnostics everywhere.

use crate::{
    ArraySize, BufferKind, Handle, MeshOutputKind, Module, Normalization, PatchKind,
    ResourceAccess, StreamKind, StructMember, TextureDim, Type, TypeInner,
};

/// The HLSL spelling of `ty`: `float4`, `int3`, `float4x4`, `half`,
/// `uint64_t`, struct names, `Texture2D<float4>`, `RWStructuredBuffer<S>`,
/// `InputPatch<VsOut, 3>`, and `float[4]` for arrays (outer size first, as
/// C declarators read: `float[2][3]` is two arrays of three).
pub fn type_name(module: &Module, ty: Handle<Type>) -> String {
    let (base, suffix) = split(module, ty, usize::MAX);
    base + &suffix
}

/// `float name[4]`: a declaration of `name` with array sizes after the name.
pub(super) fn declarator(module: &Module, ty: Handle<Type>, name: &str) -> String {
    let (base, suffix) = split(module, ty, usize::MAX);
    format!("{base} {name}{suffix}")
}

/// The members of a struct type, or of the struct inside a `ConstantBuffer<T>`
/// or `TextureBuffer<T>` (how `cbuffer` fields are reached).
pub(crate) fn struct_members(module: &Module, ty: Handle<Type>) -> Option<&[StructMember]> {
    match &module.types.try_get(ty)?.inner {
        TypeInner::Struct { members } => Some(members),
        TypeInner::ConstantBuffer { inner } | TypeInner::TextureBuffer { inner } => {
            match &module.types.try_get(*inner)?.inner {
                TypeInner::Struct { members } => Some(members),
                _ => None,
            }
        }
        _ => None,
    }
}

/// Splits a type into the element spelling and the array suffix (`[2][3]`).
///
/// Interning builds types bottom-up, so a type only refers to earlier
/// handles; `bound` is the referring type's index, and a reference at or past
/// it (a forged cycle) prints as a marker, which also ends the recursion.
fn split(module: &Module, ty: Handle<Type>, bound: usize) -> (String, String) {
    if ty.index() >= bound {
        return (format!("<cyclic type {ty:?}>"), String::new());
    }
    match module.types.try_get(ty) {
        Some(t) => split_type(module, ty, t),
        None => (format!("<bad type {ty:?}>"), String::new()),
    }
}

fn split_type(module: &Module, handle: Handle<Type>, t: &Type) -> (String, String) {
    if let TypeInner::Array { base, size } = t.inner {
        let (base, suffix) = split(module, base, handle.index());
        let size = match size {
            ArraySize::Constant(n) => n.to_string(),
            ArraySize::Unsized => String::new(),
        };
        return (base, format!("[{size}]{suffix}"));
    }
    (element_name(module, handle, t), String::new())
}

fn element_name(module: &Module, handle: Handle<Type>, t: &Type) -> String {
    let arg = |ty: Handle<Type>| {
        let (base, suffix) = split(module, ty, handle.index());
        base + &suffix
    };
    match &t.inner {
        TypeInner::Scalar(s) => s.name().to_string(),
        TypeInner::Vector { size, scalar } => format!("{}{size}", scalar.name()),
        TypeInner::Matrix {
            rows,
            columns,
            scalar,
        } => format!("{}{rows}x{columns}", scalar.name()),
        TypeInner::Array { .. } => {
            let (base, suffix) = split_type(module, handle, t);
            base + &suffix
        }
        TypeInner::Struct { .. } => match &t.name {
            Some(name) => name.clone(),
            None => "<anonymous struct>".to_string(),
        },
        TypeInner::Texture(_) | TypeInner::Buffer { .. } => resource_name(&t.inner, arg),
        TypeInner::Sampler { comparison: false } => "SamplerState".to_string(),
        TypeInner::Sampler { comparison: true } => "SamplerComparisonState".to_string(),
        TypeInner::ConstantBuffer { inner } => format!("ConstantBuffer<{}>", arg(*inner)),
        TypeInner::TextureBuffer { inner } => format!("TextureBuffer<{}>", arg(*inner)),
        TypeInner::AccelerationStructure => "RaytracingAccelerationStructure".to_string(),
        TypeInner::SubpassInput {
            texel,
            multisampled,
        } => {
            let ms = if *multisampled { "MS" } else { "" };
            format!("SubpassInput{ms}<{}>", arg(*texel))
        }
        TypeInner::HitObject => "HitObject".to_string(),
        TypeInner::RayQuery { flags } => format!("RayQuery<{flags}>"),
        TypeInner::Pointer { base: Some(base) } => format!("{}*", arg(*base)),
        TypeInner::Pointer { base: None } => "void*".to_string(),
        TypeInner::Patch { .. } | TypeInner::Stream { .. } | TypeInner::MeshOutput { .. } => {
            stage_io_name(&t.inner, arg)
        }
    }
}

/// `Texture2DMSArray<float4>`, `RWStructuredBuffer<S>`, `ByteAddressBuffer` ...
fn resource_name(inner: &TypeInner, arg: impl Fn(Handle<Type>) -> String) -> String {
    match inner {
        TypeInner::Texture(crate::Texture {
            dim,
            arrayed,
            multisampled,
            access,
            texel,
            normalization,
            combined,
            shadow,
        }) => {
            let dim = match dim {
                TextureDim::D1 => "1D",
                TextureDim::D2 => "2D",
                TextureDim::D3 => "3D",
                TextureDim::Cube => "Cube",
            };
            let ms = if *multisampled { "MS" } else { "" };
            let array = if *arrayed { "Array" } else { "" };
            let texel = normalized(*normalization, arg(*texel));
            let (kind, depth) = match (*combined, *shadow) {
                (true, true) => ("Sampler", "Shadow"),
                (true, false) => ("Sampler", ""),
                (false, true) => ("DepthTexture", ""),
                (false, false) => ("Texture", ""),
            };
            format!(
                "{}{kind}{dim}{ms}{array}{depth}<{texel}>",
                access_prefix(*access)
            )
        }
        TypeInner::Buffer {
            kind,
            access,
            element,
            normalization,
        } => {
            let name = match kind {
                BufferKind::Typed => format!("{}Buffer", access_prefix(*access)),
                BufferKind::Structured => format!("{}StructuredBuffer", access_prefix(*access)),
                BufferKind::Append => "AppendStructuredBuffer".to_string(),
                BufferKind::Consume => "ConsumeStructuredBuffer".to_string(),
                BufferKind::ByteAddress => format!("{}ByteAddressBuffer", access_prefix(*access)),
            };
            match (element, kind) {
                (Some(element), _) => {
                    format!("{name}<{}>", normalized(*normalization, arg(*element)))
                }
                (None, BufferKind::ByteAddress) => name,
                (None, _) => format!("{name}<<missing element>>"),
            }
        }
        // `element_name` sends only textures and buffers here.
        _ => String::new(),
    }
}

/// `InputPatch<T, 3>`, `TriangleStream<T>`, `OutputVertices<T, 64>`.
fn stage_io_name(inner: &TypeInner, arg: impl Fn(Handle<Type>) -> String) -> String {
    match inner {
        TypeInner::Patch {
            kind,
            element,
            count,
        } => {
            let kind = match kind {
                PatchKind::Input => "InputPatch",
                PatchKind::Output => "OutputPatch",
            };
            format!("{kind}<{}, {count}>", arg(*element))
        }
        TypeInner::Stream { kind, element } => {
            let kind = match kind {
                StreamKind::Point => "PointStream",
                StreamKind::Line => "LineStream",
                StreamKind::Triangle => "TriangleStream",
            };
            format!("{kind}<{}>", arg(*element))
        }
        TypeInner::MeshOutput {
            kind,
            element,
            count,
        } => {
            let kind = match kind {
                MeshOutputKind::Vertices => "OutputVertices",
                MeshOutputKind::Indices => "OutputIndices",
                MeshOutputKind::Primitives => "OutputPrimitives",
            };
            format!("{kind}<{}, {count}>", arg(*element))
        }
        // `element_name` sends only patches, streams and mesh outputs here.
        _ => String::new(),
    }
}

fn access_prefix(access: ResourceAccess) -> &'static str {
    match access {
        ResourceAccess::Read => "",
        ResourceAccess::ReadWrite => "RW",
        ResourceAccess::RasterizerOrdered => "RasterizerOrdered",
    }
}

fn normalized(normalization: Option<Normalization>, element: String) -> String {
    match normalization {
        None => element,
        Some(Normalization::Unorm) => format!("unorm {element}"),
        Some(Normalization::Snorm) => format!("snorm {element}"),
    }
}

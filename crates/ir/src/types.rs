//! Types. Interned in a [`crate::UniqueArena`], so two handles are equal
//! exactly when the types are.

use crate::{Handle, IoAttrs, Span};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ScalarKind {
    Bool,
    Sint,
    Uint,
    Float,
}

/// A scalar: kind plus width in bytes (`bool` is 4 bytes, as in HLSL).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Scalar {
    pub kind: ScalarKind,
    pub width: u8,
}

impl Scalar {
    pub const BOOL: Scalar = Scalar {
        kind: ScalarKind::Bool,
        width: 4,
    };
    pub const I8: Scalar = Scalar {
        kind: ScalarKind::Sint,
        width: 1,
    };
    pub const I16: Scalar = Scalar {
        kind: ScalarKind::Sint,
        width: 2,
    };
    pub const I32: Scalar = Scalar {
        kind: ScalarKind::Sint,
        width: 4,
    };
    pub const I64: Scalar = Scalar {
        kind: ScalarKind::Sint,
        width: 8,
    };
    pub const U8: Scalar = Scalar {
        kind: ScalarKind::Uint,
        width: 1,
    };
    pub const U16: Scalar = Scalar {
        kind: ScalarKind::Uint,
        width: 2,
    };
    pub const U32: Scalar = Scalar {
        kind: ScalarKind::Uint,
        width: 4,
    };
    pub const U64: Scalar = Scalar {
        kind: ScalarKind::Uint,
        width: 8,
    };
    pub const F16: Scalar = Scalar {
        kind: ScalarKind::Float,
        width: 2,
    };
    pub const F32: Scalar = Scalar {
        kind: ScalarKind::Float,
        width: 4,
    };
    pub const F64: Scalar = Scalar {
        kind: ScalarKind::Float,
        width: 8,
    };

    /// The HLSL spelling (`float`, `uint16_t`, `half`, ...).
    pub fn name(self) -> &'static str {
        match (self.kind, self.width) {
            (ScalarKind::Bool, _) => "bool",
            (ScalarKind::Sint, 1) => "int8_t",
            (ScalarKind::Sint, 2) => "int16_t",
            (ScalarKind::Sint, 8) => "int64_t",
            (ScalarKind::Sint, _) => "int",
            (ScalarKind::Uint, 1) => "uint8_t",
            (ScalarKind::Uint, 2) => "uint16_t",
            (ScalarKind::Uint, 8) => "uint64_t",
            (ScalarKind::Uint, _) => "uint",
            (ScalarKind::Float, 2) => "half",
            (ScalarKind::Float, 8) => "double",
            (ScalarKind::Float, _) => "float",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ArraySize {
    Constant(u32),
    /// `T a[]`: only valid where the length comes from elsewhere (resources).
    Unsized,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TextureDim {
    D1,
    D2,
    D3,
    Cube,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ResourceAccess {
    Read,
    ReadWrite,
    /// `RasterizerOrdered*`: read-write with rasterizer ordering.
    RasterizerOrdered,
}

/// `unorm`/`snorm` on a typed resource's element type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Normalization {
    Unorm,
    Snorm,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BufferKind {
    /// `Buffer<T>` / `RWBuffer<T>`: typed texel buffer.
    Typed,
    /// `StructuredBuffer<T>` / `RWStructuredBuffer<T>`.
    Structured,
    /// `AppendStructuredBuffer<T>`.
    Append,
    /// `ConsumeStructuredBuffer<T>`.
    Consume,
    /// `ByteAddressBuffer` / `RWByteAddressBuffer`: no element type.
    ByteAddress,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PatchKind {
    Input,
    Output,
}

/// Primitive kind of a geometry-shader stream (`PointStream` ...).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum StreamKind {
    Point,
    Line,
    Triangle,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MeshOutputKind {
    Vertices,
    Indices,
    Primitives,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MatrixLayout {
    RowMajor,
    ColumnMajor,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct StructMember {
    pub name: String,
    pub ty: Handle<Type>,
    /// Semantic, interpolation and explicit location of the field when the
    /// struct is used as a varying.
    pub io: IoAttrs,
    pub matrix_layout: Option<MatrixLayout>,
    /// The field's name in the source; diagnostics about the field point here.
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum TypeInner {
    Scalar(Scalar),
    /// `size` is 2, 3 or 4 (`float1` is lowered to a scalar).
    Vector {
        size: u8,
        scalar: Scalar,
    },
    /// HLSL `floatRxC`: `rows` rows of `columns` columns.
    Matrix {
        rows: u8,
        columns: u8,
        scalar: Scalar,
    },
    Array {
        base: Handle<Type>,
        size: ArraySize,
    },
    /// A struct; the type's `name` is its declared name.
    Struct {
        members: Vec<StructMember>,
    },
    /// `Texture*` / `RWTexture*`; `texel` is the element type (default `float4`).
    /// `Sampler2D` ... are the same with `combined` (the texture carries its
    /// own sampler, GLSL `sampler2D`, SPIR-V `OpTypeSampledImage`);
    /// `DepthTexture2D` and `Sampler2DShadow` ... set `shadow` (a depth
    /// texture: SPIR-V `Depth` 1, Metal `depth2d`, WGSL `texture_depth_2d`).
    Texture {
        dim: TextureDim,
        arrayed: bool,
        multisampled: bool,
        access: ResourceAccess,
        texel: Handle<Type>,
        normalization: Option<Normalization>,
        combined: bool,
        shadow: bool,
    },
    Sampler {
        comparison: bool,
    },
    Buffer {
        kind: BufferKind,
        access: ResourceAccess,
        element: Option<Handle<Type>>,
        normalization: Option<Normalization>,
    },
    /// `cbuffer` blocks and `ConstantBuffer<T>`; members are reached through `inner`.
    ConstantBuffer {
        inner: Handle<Type>,
    },
    /// `tbuffer` blocks and `TextureBuffer<T>`.
    TextureBuffer {
        inner: Handle<Type>,
    },
    AccelerationStructure,
    /// `SubpassInput<T>` / `SubpassInputMS<T>`: the value the current pixel
    /// (or sample) has in an input attachment of the render pass, read with
    /// `SubpassLoad()` (GLSL `subpassInput`, SPIR-V `SubpassData` images,
    /// Metal `[[color(n)]]` framebuffer fetch). `texel` is the value type.
    SubpassInput {
        texel: Handle<Type>,
        multisampled: bool,
    },
    /// Slang `T*`: the address of a `T` in device memory (a buffer device
    /// address: SPIR-V `PhysicalStorageBuffer`, GLSL `buffer_reference`,
    /// Metal `device T*`). `base` is `None` for `void*`, which only casts
    /// and copies use. Eight bytes in memory.
    Pointer {
        base: Option<Handle<Type>>,
    },
    /// `HitObject` (shader execution reordering): the result of a traced or
    /// made-up ray, kept in a function-local variable (SPIR-V
    /// `OpTypeHitObjectNV`, GLSL `hitObjectNV`).
    HitObject,
    /// `RayQuery<flags>` (inline ray tracing): a query kept in a
    /// function-local variable (SPIR-V `OpTypeRayQueryKHR`, GLSL
    /// `rayQueryEXT`); `flags` are the template's ray flags, which every
    /// `TraceRayInline` of the query adds to its own.
    RayQuery {
        flags: u32,
    },
    /// `InputPatch<T, N>` / `OutputPatch<T, N>`.
    Patch {
        kind: PatchKind,
        element: Handle<Type>,
        count: u32,
    },
    /// `PointStream<T>` / `LineStream<T>` / `TriangleStream<T>`.
    Stream {
        kind: StreamKind,
        element: Handle<Type>,
    },
    /// `OutputVertices<T, N>` / `OutputIndices<T, N>` / `OutputPrimitives<T, N>`
    /// (also spelled `out vertices T v[N]` ...).
    MeshOutput {
        kind: MeshOutputKind,
        element: Handle<Type>,
        count: u32,
    },
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Type {
    /// Declared name of structs and of built-in struct types (`RayDesc`); `None` otherwise.
    pub name: Option<String>,
    pub inner: TypeInner,
}

impl TypeInner {
    /// The scalar of a scalar, vector or matrix.
    pub fn scalar(&self) -> Option<Scalar> {
        match *self {
            TypeInner::Scalar(s) => Some(s),
            TypeInner::Vector { scalar, .. } | TypeInner::Matrix { scalar, .. } => Some(scalar),
            _ => None,
        }
    }

    /// Whether values of this type are plain numbers (scalar, vector, matrix).
    pub fn is_numeric(&self) -> bool {
        self.scalar().is_some()
    }

    /// Whether the type is an opaque resource (texture, sampler, buffer ...).
    pub fn is_resource(&self) -> bool {
        matches!(
            self,
            TypeInner::Texture { .. }
                | TypeInner::Sampler { .. }
                | TypeInner::Buffer { .. }
                | TypeInner::ConstantBuffer { .. }
                | TypeInner::TextureBuffer { .. }
                | TypeInner::AccelerationStructure
                | TypeInner::SubpassInput { .. }
        )
    }
}

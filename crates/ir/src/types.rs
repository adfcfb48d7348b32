//! Types. Interned in a [`crate::UniqueArena`], so two handles are equal
//! exactly when the types are.

use crate::{Handle, IoAttrs, Span};

/// The kind of a scalar.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ScalarKind {
    /// `bool`.
    Bool,
    /// Two's-complement signed integer.
    Sint,
    /// Unsigned integer.
    Uint,
    /// IEEE 754 floating point.
    Float,
}

/// A scalar: kind plus width in bytes (`bool` is 4 bytes, as in HLSL).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Scalar {
    /// The kind.
    pub kind: ScalarKind,
    /// Width in bytes: 1, 2, 4 or 8.
    pub width: u8,
}

impl Scalar {
    /// `bool` (4 bytes).
    pub const BOOL: Scalar = Scalar {
        kind: ScalarKind::Bool,
        width: 4,
    };
    /// `int8_t`.
    pub const I8: Scalar = Scalar {
        kind: ScalarKind::Sint,
        width: 1,
    };
    /// `int16_t`.
    pub const I16: Scalar = Scalar {
        kind: ScalarKind::Sint,
        width: 2,
    };
    /// `int`.
    pub const I32: Scalar = Scalar {
        kind: ScalarKind::Sint,
        width: 4,
    };
    /// `int64_t`.
    pub const I64: Scalar = Scalar {
        kind: ScalarKind::Sint,
        width: 8,
    };
    /// `uint8_t`.
    pub const U8: Scalar = Scalar {
        kind: ScalarKind::Uint,
        width: 1,
    };
    /// `uint16_t`.
    pub const U16: Scalar = Scalar {
        kind: ScalarKind::Uint,
        width: 2,
    };
    /// `uint`.
    pub const U32: Scalar = Scalar {
        kind: ScalarKind::Uint,
        width: 4,
    };
    /// `uint64_t`.
    pub const U64: Scalar = Scalar {
        kind: ScalarKind::Uint,
        width: 8,
    };
    /// `half`.
    pub const F16: Scalar = Scalar {
        kind: ScalarKind::Float,
        width: 2,
    };
    /// `float`.
    pub const F32: Scalar = Scalar {
        kind: ScalarKind::Float,
        width: 4,
    };
    /// `double`.
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

/// The length of an array type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ArraySize {
    /// A length known at compile time.
    Constant(u32),
    /// `T a[]`: only valid where the length comes from elsewhere (resources).
    Unsized,
}

/// The dimensionality of a texture.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TextureDim {
    /// `Texture1D`.
    D1,
    /// `Texture2D`.
    D2,
    /// `Texture3D`.
    D3,
    /// `TextureCube`.
    Cube,
}

/// How shaders may access a resource.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ResourceAccess {
    /// Read-only (`Texture2D`, `StructuredBuffer`).
    Read,
    /// Read-write (`RWTexture2D`, `RWStructuredBuffer`).
    ReadWrite,
    /// `RasterizerOrdered*`: read-write with rasterizer ordering.
    RasterizerOrdered,
}

/// `unorm`/`snorm` on a typed resource's element type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Normalization {
    /// `unorm`: unsigned values in 0..1.
    Unorm,
    /// `snorm`: signed values in -1..1.
    Snorm,
}

/// The kind of an HLSL buffer resource.
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

/// Which patch a hull or domain shader's patch parameter is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PatchKind {
    /// `InputPatch<T, N>`: the input control points.
    Input,
    /// `OutputPatch<T, N>`: the hull shader's output control points.
    Output,
}

/// Primitive kind of a geometry-shader stream (`PointStream` ...).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum StreamKind {
    /// `PointStream<T>`.
    Point,
    /// `LineStream<T>`.
    Line,
    /// `TriangleStream<T>`.
    Triangle,
}

/// Which output array of a mesh shader.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MeshOutputKind {
    /// `out vertices T v[N]`: per-vertex outputs.
    Vertices,
    /// `out indices uintK i[N]`: the vertex indices of each primitive.
    Indices,
    /// `out primitives T p[N]`: per-primitive outputs.
    Primitives,
}

/// A matrix's layout in memory, `row_major` or `column_major` as written; where none is written
/// (`None`), HLSL's default, column-major.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MatrixLayout {
    /// `row_major`: each HLSL row contiguous.
    RowMajor,
    /// `column_major`: each HLSL column contiguous.
    ColumnMajor,
}

/// A member of a struct type.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct StructMember {
    /// The member's name.
    pub name: String,
    /// The member's type.
    pub ty: Handle<Type>,
    /// Semantic, interpolation and explicit location of the field when the
    /// struct is used as a varying.
    pub io: IoAttrs,
    /// `row_major`/`column_major` on a matrix member; `None` if not written.
    pub matrix_layout: Option<MatrixLayout>,
    /// The field's name in the source; diagnostics about the field point here.
    pub span: Span,
}

/// A texture type's properties ([`TypeInner::Texture`]), one value a writer
/// reads whole.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Texture {
    /// 1D, 2D, 3D or cube.
    pub dim: TextureDim,
    /// A texture array (`Texture2DArray`).
    pub arrayed: bool,
    /// Multisampled (`Texture2DMS`).
    pub multisampled: bool,
    /// Read-only, read-write or rasterizer-ordered.
    pub access: ResourceAccess,
    /// The element type.
    pub texel: Handle<Type>,
    /// `unorm`/`snorm` on the element type, if written.
    pub normalization: Option<Normalization>,
    /// A combined image-sampler (`Sampler2D`).
    pub combined: bool,
    /// A depth texture (`DepthTexture2D`, `Sampler2DShadow`).
    pub shadow: bool,
}

/// The shape of a type.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum TypeInner {
    /// A scalar (`float`, `uint16_t`, `bool`).
    Scalar(Scalar),
    /// `size` is 2, 3 or 4 (`float1` is lowered to a scalar).
    Vector {
        /// Components: 2, 3 or 4.
        size: u8,
        /// The component type.
        scalar: Scalar,
    },
    /// HLSL `floatRxC`: `rows` rows of `columns` columns.
    Matrix {
        /// Rows: 1 to 4.
        rows: u8,
        /// Columns: 1 to 4.
        columns: u8,
        /// The element type.
        scalar: Scalar,
    },
    /// `T a[N]`.
    Array {
        /// The element type.
        base: Handle<Type>,
        /// The length.
        size: ArraySize,
    },
    /// A struct; the type's `name` is its declared name.
    Struct {
        /// The members, in declaration order.
        members: Vec<StructMember>,
    },
    /// `Texture*` / `RWTexture*`; `texel` is the element type (default `float4`).
    /// `Sampler2D` ... are the same with `combined` (the texture carries its
    /// own sampler, GLSL `sampler2D`, SPIR-V `OpTypeSampledImage`);
    /// `DepthTexture2D` and `Sampler2DShadow` ... set `shadow` (a depth
    /// texture: SPIR-V `Depth` 1, Metal `depth2d`, WGSL `texture_depth_2d`).
    Texture(Texture),
    /// `SamplerState` or `SamplerComparisonState`.
    Sampler {
        /// `SamplerComparisonState`.
        comparison: bool,
    },
    /// A buffer resource (`StructuredBuffer<T>`, `RWByteAddressBuffer`, `Buffer<T>` ...).
    Buffer {
        /// Which kind of buffer.
        kind: BufferKind,
        /// Read-only, read-write or rasterizer-ordered.
        access: ResourceAccess,
        /// The element type; `None` only for byte-address buffers.
        element: Option<Handle<Type>>,
        /// `unorm`/`snorm` on a typed buffer's element type, if written.
        normalization: Option<Normalization>,
    },
    /// `cbuffer` blocks and `ConstantBuffer<T>`; members are reached through `inner`.
    ConstantBuffer {
        /// The block's struct type.
        inner: Handle<Type>,
    },
    /// `tbuffer` blocks and `TextureBuffer<T>`.
    TextureBuffer {
        /// The block's struct type.
        inner: Handle<Type>,
    },
    /// `RaytracingAccelerationStructure`.
    AccelerationStructure,
    /// `SubpassInput<T>` / `SubpassInputMS<T>`: the value the current pixel
    /// (or sample) has in an input attachment of the render pass, read with
    /// `SubpassLoad()` (GLSL `subpassInput`, SPIR-V `SubpassData` images,
    /// Metal `[[color(n)]]` framebuffer fetch). `texel` is the value type.
    SubpassInput {
        /// The value type.
        texel: Handle<Type>,
        /// `SubpassInputMS<T>`.
        multisampled: bool,
    },
    /// Slang `T*`: the address of a `T` in device memory (a buffer device
    /// address: SPIR-V `PhysicalStorageBuffer`, GLSL `buffer_reference`,
    /// Metal `device T*`). `base` is `None` for `void*`, which only casts
    /// and copies use. Eight bytes in memory.
    Pointer {
        /// The pointee; `None` for `void*`.
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
        /// The template's ray flags (`RAY_FLAG_*` bits).
        flags: u32,
    },
    /// `InputPatch<T, N>` / `OutputPatch<T, N>`.
    Patch {
        /// Input or output patch.
        kind: PatchKind,
        /// The control point type.
        element: Handle<Type>,
        /// `N`: the control points.
        count: u32,
    },
    /// `PointStream<T>` / `LineStream<T>` / `TriangleStream<T>`.
    Stream {
        /// The primitive kind.
        kind: StreamKind,
        /// The vertex type.
        element: Handle<Type>,
    },
    /// `OutputVertices<T, N>` / `OutputIndices<T, N>` / `OutputPrimitives<T, N>`
    /// (also spelled `out vertices T v[N]` ...).
    MeshOutput {
        /// Which output array.
        kind: MeshOutputKind,
        /// The element type.
        element: Handle<Type>,
        /// `N`: the array's length.
        count: u32,
    },
}

/// A type: an optional name and its shape.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Type {
    /// Declared name of structs and of built-in struct types (`RayDesc`); `None` otherwise.
    pub name: Option<String>,
    /// The shape.
    pub inner: TypeInner,
}

impl TypeInner {
    /// The types of the parts an aggregate is built from, in order: each
    /// element of an array of constant size, each member of a struct;
    /// `None` for every other type.
    pub fn parts(&self) -> Option<Vec<Handle<Type>>> {
        match self {
            TypeInner::Array {
                base,
                size: ArraySize::Constant(n),
            } => Some(vec![*base; *n as usize]),
            TypeInner::Struct { members } => Some(members.iter().map(|m| m.ty).collect()),
            _ => None,
        }
    }

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

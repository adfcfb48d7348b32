//! Memory layout of the data a shader shares with the host — `cbuffer`s,
//! `ConstantBuffer<T>`, the `_Globals` block and the elements of
//! `StructuredBuffer<T>`/`RWStructuredBuffer<T>` — per target and address
//! space: sizes, alignments, member offsets, array strides, matrix strides.
//!
//! One function of (type, matrix major, [`Rule`]) serves every writer, so
//! the SPIR-V `Offset` decorations, the GLSL block layout, the WGSL
//! `@align`/`@size` attributes and the Metal and CUDA padding members all
//! follow the same figures. The rules (see `docs/design/layout.md`):
//!
//! - [`Rule::Std140`]: Vulkan uniform blocks; WGSL's `var<uniform>`.
//! - [`Rule::Std430`]: Vulkan storage buffers; WGSL's `var<storage>`.
//! - [`Rule::MetalConstant`]: Metal's natural layout (`float3` 16 bytes),
//!   what the reference uses for constant buffers and globals.
//! - [`Rule::MetalDevice`]: the scalar-aligned layout of D3D structured
//!   buffers (vectors aligned to their scalar, `float3` 12 bytes), what the
//!   reference uses for Metal `device` buffers (`packed_float3`).
//! - [`Rule::Cuda`]: C layout with CUDA's vector types (`float2` aligned
//!   to 8, `float3` to 4, `float4` to 16).
//! - [`Rule::Scalar`]: Vulkan's scalar block layout
//!   (`VK_EXT_scalar_block_layout`, GLSL `layout(scalar)`): every type
//!   aligned to its largest scalar, a struct's size its last member's end;
//!   `-fvk-use-scalar-layout` puts every GLSL/SPIR-V buffer under it.
//! - [`Rule::C`]: the C/C++ struct rules (`-fvk-use-c-layout`, SPIR-V
//!   only): as [`Rule::Scalar`], with a struct's size rounded up to its
//!   alignment, so `struct { int64_t a; int b; }` takes 16 bytes.
//!
//! [`optix`] is the other layout the host shares: where each scalar of an
//! OptiX payload lives in the 32-bit payload registers and which slot each
//! scalar of a hit-attribute struct takes; the CUDA legalizer checks with
//! it and the CUDA writer packs with it.
//!
//! A matrix is laid out as an array of vectors along its major direction:
//! HLSL's default `column_major` stores `columns` vectors of `rows`
//! components, `row_major` stores `rows` vectors of `columns`.
//!
//! ```
//! use legalis_ir as ir;
//! use legalis_layout::{Layouter, Rule};
//!
//! // struct { float3 a; float b; }
//! let mut module = ir::Module::default();
//! let mut ty = |inner| module.types.insert(ir::Type { name: None, inner }, ir::Span::UNDEFINED);
//! let float3 = ty(ir::TypeInner::Vector { size: 3, scalar: ir::Scalar::F32 });
//! let float = ty(ir::TypeInner::Scalar(ir::Scalar::F32));
//! let fields = [(float3, None), (float, None)];
//!
//! // std140 packs the float into the float3's last four bytes ...
//! let std140 = Layouter::new(&module, Rule::Std140);
//! assert_eq!(std140.offsets(&fields).unwrap(), [0, 12]);
//! // ... Metal's constant layout gives a float3 sixteen bytes.
//! let metal = Layouter::new(&module, Rule::MetalConstant);
//! assert_eq!(metal.offsets(&fields).unwrap(), [0, 16]);
//! ```

#![warn(missing_docs)]

pub mod optix;

use legalis_ir as ir;
use legalis_ir::{Handle, ScalarKind, TypeInner};

/// A layout rule: how a target lays out one address space.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Rule {
    /// Vulkan/GLSL std140: arrays, matrices and structs aligned to 16
    /// bytes; Vulkan uniform blocks and WGSL's `var<uniform>`.
    Std140,
    /// Vulkan/GLSL std430: std140 without the rounding of aggregates to
    /// 16; Vulkan storage buffers and WGSL's `var<storage>`.
    Std430,
    /// Metal's natural layout (`float3` takes 16 bytes), for constant
    /// buffers and globals.
    MetalConstant,
    /// The scalar-aligned layout of D3D structured buffers (`float3` takes
    /// 12 bytes aligned to 4), for Metal `device` buffers.
    MetalDevice,
    /// C layout with CUDA's vector types (`float2` aligned to 8, `float3`
    /// to 4, `float4` to 16).
    Cuda,
    /// Vulkan's scalar block layout: every type aligned to its largest
    /// scalar, a struct ending where its last member ends.
    Scalar,
    /// The C/C++ struct rules: [`Rule::Scalar`] with a struct's size
    /// rounded up to its alignment.
    C,
}

/// The targets whose layouts differ.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Target {
    /// SPIR-V for Vulkan.
    Spirv,
    /// GLSL for Vulkan.
    Glsl,
    /// WGSL.
    Wgsl,
    /// The Metal Shading Language.
    Metal,
    /// CUDA and OptiX device code.
    Cuda,
}

/// Where a buffer's data lives: a constant buffer (`cbuffer`,
/// `ConstantBuffer<T>`, `_Globals`) or a structured buffer's elements.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Space {
    /// A constant buffer: `cbuffer`, `ConstantBuffer<T>` or `_Globals`.
    Uniform,
    /// The elements of a `StructuredBuffer<T>` or `RWStructuredBuffer<T>`.
    Storage,
}

impl Rule {
    /// The rule `target` uses for `space`.
    pub fn of(target: Target, space: Space) -> Rule {
        match (target, space) {
            (Target::Spirv | Target::Glsl | Target::Wgsl, Space::Uniform) => Rule::Std140,
            (Target::Spirv | Target::Glsl | Target::Wgsl, Space::Storage) => Rule::Std430,
            (Target::Metal, Space::Uniform) => Rule::MetalConstant,
            (Target::Metal, Space::Storage) => Rule::MetalDevice,
            (Target::Cuda, _) => Rule::Cuda,
        }
    }

    /// The rule's lower-case name as `docs/design/layout.md` writes it:
    /// `std140`, `std430`, `metal-constant`, `metal-device`, `cuda`,
    /// `scalar` or `c`.
    pub fn name(self) -> &'static str {
        match self {
            Rule::Std140 => "std140",
            Rule::Std430 => "std430",
            Rule::MetalConstant => "metal-constant",
            Rule::MetalDevice => "metal-device",
            Rule::Cuda => "cuda",
            Rule::Scalar => "scalar",
            Rule::C => "c",
        }
    }

    /// The rule a Vulkan buffer laid out by std140 or std430 (`self`)
    /// follows under `-fvk-use-scalar-layout` or `-fvk-use-c-layout`; other
    /// rules are kept.
    pub fn under(self, layout: ir::BufferLayout) -> Rule {
        match (self, layout) {
            (Rule::Std140 | Rule::Std430, ir::BufferLayout::Scalar) => Rule::Scalar,
            (Rule::Std140 | Rule::Std430, ir::BufferLayout::C) => Rule::C,
            (rule, _) => rule,
        }
    }

    /// The rule's size of a `bool`: 4 bytes in Vulkan and WGSL (as a
    /// 32-bit integer), 1 byte in C++ (Metal, CUDA).
    fn bool_width(self) -> u32 {
        match self {
            Rule::Std140 | Rule::Std430 | Rule::Scalar | Rule::C => 4,
            Rule::MetalConstant | Rule::MetalDevice | Rule::Cuda => 1,
        }
    }

    /// `(size, align)` of a vector of `n` scalars of `width` bytes
    /// (`n == 1` is a scalar).
    fn vector(self, n: u32, width: u32) -> (u32, u32) {
        if n == 1 {
            return (width, width);
        }
        match self {
            Rule::Std140 | Rule::Std430 => (n * width, if n == 2 { 2 } else { 4 } * width),
            Rule::MetalConstant => {
                let align = if n == 2 { 2 } else { 4 } * width;
                (align, align)
            }
            Rule::MetalDevice | Rule::Scalar | Rule::C => (n * width, width),
            Rule::Cuda => {
                let align = match n {
                    2 => 2 * width,
                    3 => width,
                    _ => 4 * width,
                };
                (n * width, align.min(16))
            }
        }
    }

    /// std140 rounds the alignment of arrays, matrices and structs up to 16.
    fn aggregate_align(self, align: u32) -> u32 {
        if self == Rule::Std140 {
            round_up(align, 16)
        } else {
            align
        }
    }
}

/// Size and alignment in bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    /// Bytes the value occupies, without the padding an array adds after
    /// it (see [`Layout::stride`]).
    pub size: u32,
    /// The alignment its offset must be a multiple of, in bytes; at least 1.
    pub align: u32,
}

impl Layout {
    /// The distance between consecutive elements of an array of this.
    pub fn stride(self) -> u32 {
        round_up(self.size, self.align)
    }
}

/// Why a type has no layout.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Error {
    /// An unsized array anywhere but as a buffer's outermost element array.
    NestedUnsized(ir::Span),
    /// A resource, sampler or other opaque type inside a buffer.
    Opaque(ir::Span),
    /// A type of 4 GiB or more: its size, an offset or a stride past the
    /// 32 bits every layout counts bytes in (SPIR-V's `Offset` and
    /// `ArrayStride` are 32-bit).
    TooLarge(ir::Span),
}

impl Error {
    /// Where the offending type is in the source (the span of its IR
    /// type).
    pub fn span(&self) -> ir::Span {
        match self {
            Error::NestedUnsized(s) | Error::Opaque(s) | Error::TooLarge(s) => *s,
        }
    }

    /// What has no layout, as a noun phrase for a diagnostic's message
    /// ("a nested unsized array", "this type in a buffer").
    pub fn what(&self) -> &'static str {
        match self {
            Error::NestedUnsized(_) => "a nested unsized array",
            Error::Opaque(_) => "this type in a buffer",
            Error::TooLarge(_) => "a buffer type of 4 GiB or more (offsets and strides are 32-bit)",
        }
    }
}

/// A layout or the reason there is none.
pub type Result<T> = std::result::Result<T, Error>;

/// One member of a laid-out struct.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Member {
    /// Bytes from the start of the struct to the member.
    pub offset: u32,
    /// The member's own size and alignment.
    pub layout: Layout,
}

/// Lays out the types of one module under one rule.
#[derive(Clone, Copy, Debug)]
pub struct Layouter<'m> {
    module: &'m ir::Module,
    rule: Rule,
    int_matrix_rows: bool,
}

impl<'m> Layouter<'m> {
    /// A layouter for the types of `module` under `rule`, integer
    /// matrices following their declared major (see
    /// [`Layouter::int_matrices_as_rows`]).
    pub fn new(module: &'m ir::Module, rule: Rule) -> Self {
        Layouter {
            module,
            rule,
            int_matrix_rows: false,
        }
    }

    /// Stores integer and bool matrices as rows whatever their declared
    /// major: the GLSL writer spells them as arrays of row vectors, GLSL
    /// having no integer matrices.
    pub fn int_matrices_as_rows(mut self) -> Self {
        self.int_matrix_rows = true;
        self
    }

    /// The rule it lays types out under.
    pub fn rule(&self) -> Rule {
        self.rule
    }

    fn width(&self, s: ir::Scalar) -> u32 {
        if s.kind == ScalarKind::Bool {
            self.rule.bool_width()
        } else {
            u32::from(s.width.max(1))
        }
    }

    /// The layout of `ty`; `major` is the matrix layout of the member that
    /// has this type (it reaches through arrays to their matrices).
    pub fn layout(&self, ty: Handle<ir::Type>, major: Option<ir::MatrixLayout>) -> Result<Layout> {
        let span = self.module.types.span(ty);
        Ok(match &self.module.types[ty].inner {
            TypeInner::Scalar(s) => {
                let w = self.width(*s);
                Layout { size: w, align: w }
            }
            TypeInner::Vector { size, scalar } => {
                let (size, align) = self.rule.vector(u32::from(*size), self.width(*scalar));
                Layout { size, align }
            }
            TypeInner::Matrix { .. } => {
                let (count, vector) = self.matrix_vectors(ty, major);
                let stride = self.rule.aggregate_align(vector.align);
                Layout {
                    size: count * round_up(vector.size, stride),
                    align: stride,
                }
            }
            TypeInner::Array { base, size } => {
                let stride = self.array_stride(*base, major)?;
                let align = self.rule.aggregate_align(self.layout(*base, major)?.align);
                match size {
                    ir::ArraySize::Constant(n) => Layout {
                        size: n.checked_mul(stride).ok_or(Error::TooLarge(span))?,
                        align,
                    },
                    ir::ArraySize::Unsized => return Err(Error::NestedUnsized(span)),
                }
            }
            TypeInner::Struct { members } => {
                let fields: Vec<_> = members.iter().map(|m| (m.ty, m.matrix_layout)).collect();
                match self.struct_layout(&fields) {
                    Err(Error::TooLarge(_)) => return Err(Error::TooLarge(span)),
                    other => other?.0,
                }
            }
            // A device address (`T*`): eight bytes under every rule.
            TypeInner::Pointer { .. } => Layout { size: 8, align: 8 },
            _ => return Err(Error::Opaque(span)),
        })
    }

    /// The layout of a struct of `fields` and each member's place.
    pub fn struct_layout(
        &self,
        fields: &[(Handle<ir::Type>, Option<ir::MatrixLayout>)],
    ) -> Result<(Layout, Vec<Member>)> {
        let mut offset = 0;
        let mut align = 1;
        let mut out = Vec::with_capacity(fields.len());
        let too_large = || Error::TooLarge(ir::Span::UNDEFINED);
        for &(ty, major) in fields {
            let layout = self.layout(ty, major)?;
            offset = checked_round_up(offset, layout.align).ok_or_else(too_large)?;
            out.push(Member { offset, layout });
            offset = offset.checked_add(layout.size).ok_or_else(too_large)?;
            align = align.max(layout.align);
        }
        let align = self.rule.aggregate_align(align);
        // The scalar layout ends a struct where its last member ends; every
        // other rule pads it to its alignment.
        let size = if self.rule == Rule::Scalar {
            offset
        } else {
            checked_round_up(offset, align).ok_or_else(too_large)?
        };
        Ok((Layout { size, align }, out))
    }

    /// The offsets of `fields` laid out in order.
    pub fn offsets(
        &self,
        fields: &[(Handle<ir::Type>, Option<ir::MatrixLayout>)],
    ) -> Result<Vec<u32>> {
        // A last member that is an unsized array (a struct a pointer
        // points to, `struct S { uint n; float a[]; }`) starts after the
        // others, aligned for its element.
        if let Some((&(last, major), sized)) = fields.split_last()
            && let TypeInner::Array {
                base,
                size: ir::ArraySize::Unsized,
            } = self.module.types[last].inner
        {
            let (layout, members) = self.struct_layout(sized)?;
            let end = members
                .last()
                .map_or(0, |m| m.offset + m.layout.size)
                .min(layout.size);
            let align = self.rule.aggregate_align(self.layout(base, major)?.align);
            let mut offsets: Vec<u32> = members.into_iter().map(|m| m.offset).collect();
            offsets.push(round_up(end, align));
            return Ok(offsets);
        }
        Ok(self
            .struct_layout(fields)?
            .1
            .into_iter()
            .map(|m| m.offset)
            .collect())
    }

    /// Bytes between consecutive elements of an array of `elem`.
    pub fn array_stride(
        &self,
        elem: Handle<ir::Type>,
        major: Option<ir::MatrixLayout>,
    ) -> Result<u32> {
        let l = self.layout(elem, major)?;
        checked_round_up(l.size, self.rule.aggregate_align(l.align))
            .ok_or(Error::TooLarge(self.module.types.span(elem)))
    }

    /// Bytes between the vectors of a matrix (SPIR-V's `MatrixStride`);
    /// 0 for a type that is not a matrix.
    pub fn matrix_stride(&self, ty: Handle<ir::Type>, major: Option<ir::MatrixLayout>) -> u32 {
        if !matches!(self.module.types[ty].inner, TypeInner::Matrix { .. }) {
            return 0;
        }
        let (_, vector) = self.matrix_vectors(ty, major);
        round_up(vector.size, self.rule.aggregate_align(vector.align))
    }

    /// Whether a matrix member is stored row by row.
    fn stores_rows(&self, ty: Handle<ir::Type>, major: Option<ir::MatrixLayout>) -> bool {
        match self.module.types[ty].inner {
            TypeInner::Matrix { scalar, .. } => {
                (self.int_matrix_rows && scalar.kind != ScalarKind::Float)
                    || major == Some(ir::MatrixLayout::RowMajor)
            }
            _ => false,
        }
    }

    /// `(count, layout of one vector)` of a matrix along its major direction.
    fn matrix_vectors(
        &self,
        ty: Handle<ir::Type>,
        major: Option<ir::MatrixLayout>,
    ) -> (u32, Layout) {
        let TypeInner::Matrix {
            rows,
            columns,
            scalar,
        } = self.module.types[ty].inner
        else {
            return (0, Layout { size: 0, align: 1 });
        };
        let (count, len) = if self.stores_rows(ty, major) {
            (rows, columns)
        } else {
            (columns, rows)
        };
        let (size, align) = self.rule.vector(u32::from(len), self.width(scalar));
        (u32::from(count), Layout { size, align })
    }
}

/// `x` rounded up to a multiple of `align`; `None` past `u32::MAX`.
fn checked_round_up(x: u32, align: u32) -> Option<u32> {
    x.div_ceil(align.max(1)).checked_mul(align.max(1))
}

/// `x` rounded up to a multiple of `align` (at most `u32::MAX`: a size
/// that close to it fails [`checked_round_up`] where it is laid out).
fn round_up(x: u32, align: u32) -> u32 {
    x.div_ceil(align.max(1)).saturating_mul(align.max(1))
}

#[cfg(test)]
mod tests {
    use super::*;
    use ir::{ArraySize, MatrixLayout, Scalar, StructMember, Type};

    struct M(ir::Module);

    impl M {
        fn ty(&mut self, inner: TypeInner) -> Handle<Type> {
            self.0
                .types
                .insert(Type { name: None, inner }, ir::Span::default())
        }
        fn f(&mut self) -> Handle<Type> {
            self.ty(TypeInner::Scalar(Scalar::F32))
        }
        fn vec(&mut self, size: u8) -> Handle<Type> {
            self.ty(TypeInner::Vector {
                size,
                scalar: Scalar::F32,
            })
        }
        fn mat(&mut self, rows: u8, columns: u8) -> Handle<Type> {
            self.ty(TypeInner::Matrix {
                rows,
                columns,
                scalar: Scalar::F32,
            })
        }
        fn array(&mut self, base: Handle<Type>, n: u32) -> Handle<Type> {
            self.ty(TypeInner::Array {
                base,
                size: ArraySize::Constant(n),
            })
        }
        fn structure(&mut self, members: &[Handle<Type>]) -> Handle<Type> {
            let members = members
                .iter()
                .enumerate()
                .map(|(i, &ty)| StructMember {
                    name: format!("m{i}"),
                    ty,
                    io: Default::default(),
                    matrix_layout: None,
                    span: ir::Span::default(),
                })
                .collect();
            self.ty(TypeInner::Struct { members })
        }
    }

    /// `struct { float a; float3 b; }`, `float arr[3]`, `float2 a2[2]`,
    /// `row_major float2x3`, `float2x3`, `float3x2` in every rule.
    #[test]
    fn every_rule_on_the_same_members() {
        let mut m = M(ir::Module::default());
        let f = m.f();
        let v2 = m.vec(2);
        let v3 = m.vec(3);
        let inner = m.structure(&[f, v3]);
        let arr = m.array(f, 3);
        let a2 = m.array(v2, 2);
        let m23 = m.mat(2, 3);
        let m32 = m.mat(3, 2);
        let fields = [
            (v3, None),
            (f, None),
            (arr, None),
            (a2, None),
            (inner, None),
            (f, None),
            (m23, Some(MatrixLayout::RowMajor)),
            (m23, Some(MatrixLayout::ColumnMajor)),
            (m32, None),
        ];
        let offsets = |rule| Layouter::new(&m.0, rule).offsets(&fields).unwrap();
        assert_eq!(
            offsets(Rule::Std140),
            [0, 12, 16, 64, 96, 128, 144, 176, 224]
        );
        assert_eq!(offsets(Rule::Std430), [0, 12, 16, 32, 48, 80, 96, 128, 160]);
        assert_eq!(
            offsets(Rule::MetalConstant),
            [0, 16, 20, 32, 48, 80, 96, 128, 160]
        );
        assert_eq!(
            offsets(Rule::MetalDevice),
            [0, 12, 16, 28, 44, 60, 64, 88, 112]
        );
        assert_eq!(offsets(Rule::Cuda), [0, 12, 16, 32, 48, 64, 68, 96, 120]);
        for rule in [Rule::Scalar, Rule::C] {
            assert_eq!(offsets(rule), [0, 12, 16, 28, 44, 60, 64, 88, 112]);
        }
    }

    /// `struct A { int64_t a; int b; }` ends at 12: the scalar layout puts
    /// the next member there, the C layout pads `A` to 16 (its alignment).
    #[test]
    fn scalar_and_c_layouts_differ_on_struct_padding() {
        let mut m = M(ir::Module::default());
        let long = m.ty(TypeInner::Scalar(Scalar::I64));
        let int = m.ty(TypeInner::Scalar(Scalar::I32));
        let a = m.structure(&[long, int]);
        let fields = [(int, None), (a, None), (int, None)];
        let l = |rule| Layouter::new(&m.0, rule);
        assert_eq!(l(Rule::Scalar).offsets(&fields), Ok(vec![0, 8, 20]));
        assert_eq!(l(Rule::C).offsets(&fields), Ok(vec![0, 8, 24]));
        assert_eq!(l(Rule::Std430).offsets(&fields), Ok(vec![0, 8, 24]));
        assert_eq!(
            l(Rule::Scalar).layout(a, None),
            Ok(Layout { size: 12, align: 8 })
        );
        // An array element still starts aligned.
        assert_eq!(l(Rule::Scalar).array_stride(a, None), Ok(16));
        assert_eq!(Rule::Std140.under(ir::BufferLayout::C), Rule::C);
        assert_eq!(Rule::Std430.under(ir::BufferLayout::Scalar), Rule::Scalar);
        assert_eq!(Rule::Std140.under(ir::BufferLayout::Standard), Rule::Std140);
        assert_eq!(
            Rule::MetalDevice.under(ir::BufferLayout::C),
            Rule::MetalDevice
        );
    }

    #[test]
    fn strides_and_sizes() {
        let mut m = M(ir::Module::default());
        let f = m.f();
        let v3 = m.vec(3);
        let m32 = m.mat(3, 2);
        let inner = m.structure(&[f, v3]);
        let l = |rule| Layouter::new(&m.0, rule);
        assert_eq!(l(Rule::Std140).array_stride(f, None), Ok(16));
        assert_eq!(l(Rule::Std430).array_stride(f, None), Ok(4));
        assert_eq!(l(Rule::Std430).array_stride(v3, None), Ok(16));
        assert_eq!(l(Rule::MetalDevice).array_stride(v3, None), Ok(12));
        assert_eq!(l(Rule::Cuda).array_stride(v3, None), Ok(12));
        assert_eq!(l(Rule::MetalConstant).array_stride(v3, None), Ok(16));
        // float3x2: two columns of float3.
        assert_eq!(l(Rule::Std430).matrix_stride(m32, None), 16);
        // row_major float3x2: three rows of float2.
        let rm = Some(MatrixLayout::RowMajor);
        assert_eq!(l(Rule::Std430).matrix_stride(m32, rm), 8);
        assert_eq!(l(Rule::Std140).matrix_stride(m32, rm), 16);
        assert_eq!(l(Rule::Std140).matrix_stride(f, None), 0);
        assert_eq!(
            l(Rule::Std140).layout(inner, None),
            Ok(Layout {
                size: 32,
                align: 16
            })
        );
        assert_eq!(
            l(Rule::Cuda).layout(inner, None),
            Ok(Layout { size: 16, align: 4 })
        );
    }

    #[test]
    fn bool_and_wide_scalars() {
        let mut m = M(ir::Module::default());
        let b = m.ty(TypeInner::Scalar(Scalar::BOOL));
        let d = m.ty(TypeInner::Scalar(Scalar::F64));
        let h = m.ty(TypeInner::Scalar(Scalar::F16));
        let fields = [(b, None), (h, None), (d, None)];
        let offsets = |rule| Layouter::new(&m.0, rule).offsets(&fields).unwrap();
        assert_eq!(offsets(Rule::Std140), [0, 4, 8]);
        assert_eq!(offsets(Rule::Cuda), [0, 2, 8]);
        let d4 = m.ty(TypeInner::Vector {
            size: 4,
            scalar: Scalar::F64,
        });
        // CUDA's double4 aligns to 16, not 32.
        assert_eq!(
            Layouter::new(&m.0, Rule::Cuda).layout(d4, None),
            Ok(Layout {
                size: 32,
                align: 16
            })
        );
    }

    #[test]
    fn opaque_and_nested_unsized_types_have_no_layout() {
        let mut m = M(ir::Module::default());
        let s = m.ty(TypeInner::Sampler { comparison: false });
        let f = m.f();
        let u = m.ty(TypeInner::Array {
            base: f,
            size: ArraySize::Unsized,
        });
        let l = Layouter::new(&m.0, Rule::Std430);
        assert!(matches!(l.layout(s, None), Err(Error::Opaque(_))));
        assert!(matches!(l.layout(u, None), Err(Error::NestedUnsized(_))));
    }
}

//! Memory layout of uniform blocks (std140) and storage buffers (std430):
//! sizes, alignments, member offsets, array and matrix strides.
//!
//! A matrix is stored as vectors along its major direction: with HLSL's
//! default `column_major` each HLSL column (a SPIR-V row of `rows`
//! elements) is one vector; with `row_major` each HLSL row (a SPIR-V
//! column of `columns` elements). std140 rounds vector-array alignment up
//! to 16 bytes; std430 does not.

use legalis_ir as ir;
use legalis_ir::{Handle, TypeInner};

use super::writer::{Layout, Result, Writer, unsupported};

fn round_up(x: u32, align: u32) -> u32 {
    x.div_ceil(align.max(1)) * align.max(1)
}

/// Size and alignment of a vector of `n` scalars of `width` bytes.
fn vector(n: u32, width: u32) -> (u32, u32) {
    let align = match n {
        1 => width,
        2 => 2 * width,
        _ => 4 * width,
    };
    (n * width, align)
}

impl Writer<'_> {
    /// `(size, align)` of `ty` in `layout`; `major` applies to matrices.
    pub fn size_align(
        &self,
        ty: Handle<ir::Type>,
        layout: Layout,
        major: Option<ir::MatrixLayout>,
    ) -> Result<(u32, u32)> {
        let span = self.module.types.span(ty);
        let width = |s: ir::Scalar| {
            if s.kind == ir::ScalarKind::Bool {
                4
            } else {
                u32::from(s.width)
            }
        };
        Ok(match self.inner(ty) {
            TypeInner::Scalar(s) => vector(1, width(*s)),
            TypeInner::Vector { size, scalar } => vector(u32::from(*size), width(*scalar)),
            TypeInner::Matrix { .. } => {
                let (count, stride) = self.matrix_vectors(ty, layout, major);
                (count * stride, self.matrix_align(ty, layout, major))
            }
            TypeInner::Array { base, size } => {
                let stride = self.array_stride(*base, layout, major)?;
                let (_, align) = self.size_align(*base, layout, major)?;
                let align = if layout == Layout::Std140 {
                    round_up(align, 16)
                } else {
                    align
                };
                match size {
                    ir::ArraySize::Constant(n) => (n * stride, align),
                    ir::ArraySize::Unsized => return unsupported("a nested unsized array", span),
                }
            }
            TypeInner::Struct { members } => {
                let fields: Vec<_> = members
                    .iter()
                    .map(|m| (m.ty, m.matrix_layout, String::new()))
                    .collect();
                let offsets = self.member_offsets(&fields, layout)?;
                let mut align = 1;
                let mut end = 0;
                for ((t, major, _), off) in fields.iter().zip(offsets) {
                    let (s, a) = self.size_align(*t, layout, *major)?;
                    align = align.max(a);
                    end = off + s;
                }
                if layout == Layout::Std140 {
                    align = round_up(align, 16);
                }
                (round_up(end, align), align)
            }
            _ => return unsupported("this type in a buffer", span),
        })
    }

    /// Offsets of `fields` laid out in order.
    pub fn member_offsets(
        &self,
        fields: &[(Handle<ir::Type>, Option<ir::MatrixLayout>, String)],
        layout: Layout,
    ) -> Result<Vec<u32>> {
        let mut offset = 0;
        let mut out = Vec::new();
        for (t, major, _) in fields {
            let (size, align) = self.size_align(*t, layout, *major)?;
            offset = round_up(offset, align);
            out.push(offset);
            offset += size;
        }
        Ok(out)
    }

    /// Bytes between consecutive elements of an array of `elem`.
    pub fn array_stride(
        &self,
        elem: Handle<ir::Type>,
        layout: Layout,
        major: Option<ir::MatrixLayout>,
    ) -> Result<u32> {
        let (size, align) = self.size_align(elem, layout, major)?;
        let align = if layout == Layout::Std140 {
            round_up(align, 16)
        } else {
            align
        };
        Ok(round_up(size, align))
    }

    /// `(vector count, stride)` of a matrix stored along its major direction.
    fn matrix_vectors(
        &self,
        ty: Handle<ir::Type>,
        layout: Layout,
        major: Option<ir::MatrixLayout>,
    ) -> (u32, u32) {
        let TypeInner::Matrix {
            rows,
            columns,
            scalar,
        } = *self.inner(ty)
        else {
            return (0, 0);
        };
        let (count, len) = match major {
            Some(ir::MatrixLayout::RowMajor) => (rows, columns),
            _ => (columns, rows),
        };
        let (size, mut align) = vector(u32::from(len), u32::from(scalar.width));
        if layout == Layout::Std140 {
            align = round_up(align, 16);
        }
        (u32::from(count), round_up(size, align))
    }

    fn matrix_align(
        &self,
        ty: Handle<ir::Type>,
        layout: Layout,
        major: Option<ir::MatrixLayout>,
    ) -> u32 {
        let (_, stride) = self.matrix_vectors(ty, layout, major);
        let TypeInner::Matrix { scalar, .. } = *self.inner(ty) else {
            return 1;
        };
        stride
            .min(4 * u32::from(scalar.width))
            .max(if layout == Layout::Std140 { 16 } else { 1 })
    }

    /// The `MatrixStride` decoration of a matrix member.
    pub fn matrix_stride(
        &self,
        ty: Handle<ir::Type>,
        layout: Layout,
        major: Option<ir::MatrixLayout>,
    ) -> u32 {
        self.matrix_vectors(ty, layout, major).1
    }
}

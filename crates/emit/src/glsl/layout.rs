//! std430 sizes and alignments of the types the writer puts in storage
//! blocks, so `GetDimensions` of a structured buffer can report the stride
//! of the `data[]` array GLSL actually lays out.
//!
//! The rules (GLSL 4.50 §7.6.2.2, std430): a scalar of N bytes aligns to N
//! (`bool` is 4); a 2-vector to 2N, a 3- or 4-vector to 4N, its size being
//! its components times N; an array's stride is its element's size rounded
//! up to the element's alignment; a struct aligns to its largest member
//! alignment, members placed in order at their alignment and the size
//! rounded up to the struct's alignment. A matrix is an array of vectors:
//! under the writer's convention (`writer.rs`) an HLSL `floatRxC` is GLSL
//! `matRxC` in a `row_major` block, i.e. C vectors of R components (the HLSL
//! columns); an explicit HLSL `row_major` is GLSL `column_major`, R vectors
//! of C; integer and bool matrices are arrays of R row vectors of C.

use legalis_ir as ir;
use legalis_ir::{Handle, TypeInner};

use super::writer::matrix_as_rows;

/// Size and alignment in bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Layout {
    pub size: u32,
    pub align: u32,
}

/// The stride of a std430 array of `ty`.
pub(super) fn std430_stride(module: &ir::Module, ty: Handle<ir::Type>) -> u32 {
    let l = std430(module, ty, None);
    round_up(l.size, l.align)
}

/// The std430 layout of `ty`; `major` is the member's matrix layout.
pub(super) fn std430(
    module: &ir::Module,
    ty: Handle<ir::Type>,
    major: Option<ir::MatrixLayout>,
) -> Layout {
    match module.types[ty].inner {
        TypeInner::Scalar(s) => scalar(s),
        TypeInner::Vector { size, scalar: s } => vector(s, size),
        TypeInner::Matrix {
            rows,
            columns,
            scalar: s,
        } => {
            let (count, width) = match (matrix_as_rows(s), major) {
                (true, _) | (false, Some(ir::MatrixLayout::RowMajor)) => (rows, columns),
                (false, _) => (columns, rows),
            };
            array(vector(s, width), count.into())
        }
        TypeInner::Array { base, size } => {
            let n = match size {
                ir::ArraySize::Constant(n) => n,
                ir::ArraySize::Unsized => 0,
            };
            array(std430(module, base, major), n)
        }
        TypeInner::Struct { ref members } => {
            let mut offset = 0;
            let mut align = 1;
            for m in members {
                let l = std430(module, m.ty, m.matrix_layout);
                offset = round_up(offset, l.align) + l.size;
                align = align.max(l.align);
            }
            Layout {
                size: round_up(offset, align),
                align,
            }
        }
        // Opaque types never sit in a storage block.
        _ => Layout { size: 0, align: 1 },
    }
}

fn scalar(s: ir::Scalar) -> Layout {
    let n = u32::from(s.width.max(1));
    Layout { size: n, align: n }
}

fn vector(s: ir::Scalar, size: u8) -> Layout {
    let n = scalar(s).size;
    match size {
        1 => scalar(s),
        2 => Layout {
            size: 2 * n,
            align: 2 * n,
        },
        k => Layout {
            size: u32::from(k) * n,
            align: 4 * n,
        },
    }
}

fn array(elem: Layout, n: u32) -> Layout {
    Layout {
        size: round_up(elem.size, elem.align) * n,
        align: elem.align,
    }
}

fn round_up(x: u32, align: u32) -> u32 {
    x.div_ceil(align.max(1)) * align.max(1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use ir::{Scalar, StructMember, Type};

    fn ty(m: &mut ir::Module, inner: TypeInner) -> Handle<ir::Type> {
        m.types
            .insert(Type { name: None, inner }, ir::Span::default())
    }

    fn member(name: &str, ty: Handle<ir::Type>, major: Option<ir::MatrixLayout>) -> StructMember {
        StructMember {
            name: name.into(),
            ty,
            io: Default::default(),
            matrix_layout: major,
            span: ir::Span::default(),
        }
    }

    #[test]
    fn scalars_vectors_and_arrays() {
        let mut m = ir::Module::default();
        let f = ty(&mut m, TypeInner::Scalar(Scalar::F32));
        let h = ty(&mut m, TypeInner::Scalar(Scalar::F16));
        let d = ty(&mut m, TypeInner::Scalar(Scalar::F64));
        let v3 = ty(
            &mut m,
            TypeInner::Vector {
                size: 3,
                scalar: Scalar::F32,
            },
        );
        let h2 = ty(
            &mut m,
            TypeInner::Vector {
                size: 2,
                scalar: Scalar::F16,
            },
        );
        let a3 = ty(
            &mut m,
            TypeInner::Array {
                base: v3,
                size: ir::ArraySize::Constant(2),
            },
        );
        let af = ty(
            &mut m,
            TypeInner::Array {
                base: f,
                size: ir::ArraySize::Constant(3),
            },
        );
        let l = |t| std430(&m, t, None);
        assert_eq!(l(f), Layout { size: 4, align: 4 });
        assert_eq!(l(h), Layout { size: 2, align: 2 });
        assert_eq!(l(d), Layout { size: 8, align: 8 });
        assert_eq!(
            l(v3),
            Layout {
                size: 12,
                align: 16
            }
        );
        assert_eq!(l(h2), Layout { size: 4, align: 4 });
        // std430 arrays of scalars are tight (std140 would use 16).
        assert_eq!(l(af), Layout { size: 12, align: 4 });
        assert_eq!(
            l(a3),
            Layout {
                size: 32,
                align: 16
            }
        );
        assert_eq!(std430_stride(&m, v3), 16);
        assert_eq!(std430_stride(&m, f), 4);
    }

    #[test]
    fn matrices_follow_the_writer_convention() {
        let mut m = ir::Module::default();
        let f2x3 = ty(
            &mut m,
            TypeInner::Matrix {
                rows: 2,
                columns: 3,
                scalar: Scalar::F32,
            },
        );
        let i2x3 = ty(
            &mut m,
            TypeInner::Matrix {
                rows: 2,
                columns: 3,
                scalar: Scalar::I32,
            },
        );
        // Default (HLSL column_major): 3 columns of float2.
        assert_eq!(std430(&m, f2x3, None), Layout { size: 24, align: 8 });
        // HLSL row_major: 2 rows of float3, each padded to 16.
        let rm = Some(ir::MatrixLayout::RowMajor);
        assert_eq!(
            std430(&m, f2x3, rm),
            Layout {
                size: 32,
                align: 16
            }
        );
        // ivec3[2]: rows of int3.
        assert_eq!(
            std430(&m, i2x3, None),
            Layout {
                size: 32,
                align: 16
            }
        );
    }

    #[test]
    fn structs_pad_members_and_round_their_size() {
        let mut m = ir::Module::default();
        let f = ty(&mut m, TypeInner::Scalar(Scalar::F32));
        let v3 = ty(
            &mut m,
            TypeInner::Vector {
                size: 3,
                scalar: Scalar::F32,
            },
        );
        let d = ty(&mut m, TypeInner::Scalar(Scalar::F64));
        // { float a; float3 b; }: b at 16, size 28 rounded to 32.
        let s1 = ty(
            &mut m,
            TypeInner::Struct {
                members: vec![member("a", f, None), member("b", v3, None)],
            },
        );
        // { float3 a; float b; }: b packs into a's padding: 16.
        let s2 = ty(
            &mut m,
            TypeInner::Struct {
                members: vec![member("a", v3, None), member("b", f, None)],
            },
        );
        // { float a; double b; float c; }: 0, 8, 16 -> 20 rounded to 24.
        let s3 = ty(
            &mut m,
            TypeInner::Struct {
                members: vec![
                    member("a", f, None),
                    member("b", d, None),
                    member("c", f, None),
                ],
            },
        );
        assert_eq!(std430_stride(&m, s1), 32);
        assert_eq!(std430_stride(&m, s2), 16);
        assert_eq!(std430_stride(&m, s3), 24);
        assert_eq!(std430(&m, s3, None).align, 8);
    }
}

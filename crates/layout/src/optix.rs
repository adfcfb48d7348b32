//! THE layout function of the OptiX ABI: where each scalar of a payload
//! lives in the 32-bit payload registers (B17), and which attribute slot
//! each scalar of a hit-attribute struct takes (B18). The legalizer checks
//! with it, and the CUDA writer packs and unpacks with it on both sides
//! (the hit and miss programs, and every `TraceRay`/`ReportHit` caller),
//! so producer and consumer cannot disagree.
//!
//! Payload (B17): scalars in declaration order (struct members, then
//! vector components, matrix rows then their components, array elements),
//! each at the next byte offset aligned to its size: `bool` and 8-bit
//! integers take a byte, `half` and 16-bit integers two bytes, so sub-word
//! fields share a register; 32-bit scalars take a register of their own,
//! 64-bit ones two (high word first). Register `offset / 4`, bit
//! `8 * (offset % 4)`. Over [`MAX_PAYLOAD_REGISTERS`] registers, the
//! payload travels as its address in two registers instead.
//!
//! Attributes (B18): one 32-bit slot per scalar in the same order, 64-bit
//! scalars two (high first); at most [`MAX_ATTRIBUTE_SLOTS`] (D8).

use legalis_ir as ir;
use legalis_ir::{Handle, Scalar, ScalarKind, Type, TypeInner};

/// OptiX's payload registers.
pub const MAX_PAYLOAD_REGISTERS: u32 = 32;
/// OptiX's attribute registers (`optixGetAttribute_0` to `_7`): 32 bytes.
pub const MAX_ATTRIBUTE_SLOTS: u32 = 8;

/// One step from a value to a part of it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Access {
    /// A struct member, by index.
    Member(u32),
    /// A vector component, or a matrix row's component.
    Component(u8),
    /// A matrix row.
    Row(u32),
    /// An array element.
    Element(u32),
}

/// A scalar of the value and where it lives.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Field {
    /// From the value to the scalar.
    pub path: Vec<Access>,
    /// The scalar's type.
    pub scalar: Scalar,
    /// The first register (payload) or slot (attributes) it occupies.
    pub register: u32,
    /// The bit its low end sits at in that register (0 for 32- and 64-bit
    /// scalars).
    pub shift: u32,
    /// 8, 16, 32 or 64: 64-bit scalars take `register` (high word) and
    /// `register + 1` (low word).
    pub bits: u32,
}

impl Field {
    /// The mask of the field's bits, shifted down (`0xFF`, `0xFFFF`).
    pub fn mask(&self) -> u32 {
        match self.bits {
            8 => 0xFF,
            16 => 0xFFFF,
            _ => 0xFFFF_FFFF,
        }
    }

    /// Whether the field shares its register with others.
    pub fn is_sub_word(&self) -> bool {
        self.bits < 32
    }

    /// The byte its low end sits at in its register (0 to 3).
    pub fn byte(&self) -> u32 {
        self.shift / 8
    }
}

/// The source spelling of a field's path below a value of type `ty`:
/// `.frame[1].x` (struct members by their declared names, matrix rows as
/// `[r]`, components as `.x` to `.w`, array elements as `[i]`).
pub fn path_text(module: &ir::Module, mut ty: Handle<Type>, path: &[Access]) -> String {
    let mut text = String::new();
    for access in path {
        let inner = module.types.try_get(ty).map(|t| &t.inner);
        match (*access, inner) {
            (Access::Member(i), Some(TypeInner::Struct { members }))
                if let Some(m) = members.get(i as usize) =>
            {
                text.push('.');
                text.push_str(&m.name);
                ty = m.ty;
            }
            (Access::Element(i), Some(TypeInner::Array { base, .. })) => {
                text.push_str(&format!("[{i}]"));
                ty = *base;
            }
            // A matrix row (and an index the type does not have, which
            // the walk never makes).
            (Access::Row(i) | Access::Member(i) | Access::Element(i), _) => {
                text.push_str(&format!("[{i}]"))
            }
            (Access::Component(c), _) => {
                text.push('.');
                text.push(['x', 'y', 'z', 'w'][usize::from(c & 3)]);
            }
        }
    }
    text
}

/// How a payload crosses between programs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Passing {
    /// In this many payload registers, field by field.
    Registers(u32),
    /// Its address in registers 0 (high) and 1 (low): over
    /// [`MAX_PAYLOAD_REGISTERS`].
    Pointer,
}

/// Where every scalar of a value lives.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layout {
    /// Every scalar of the value, in declaration order.
    pub fields: Vec<Field>,
    /// Registers (payload) or slots (attributes) the fields take.
    pub registers: u32,
}

impl Layout {
    /// How a payload of this layout crosses.
    pub fn passing(&self) -> Passing {
        if self.registers > MAX_PAYLOAD_REGISTERS {
            Passing::Pointer
        } else {
            Passing::Registers(self.registers)
        }
    }

    /// The registers the payload occupies in `optixTrace`: the pointer's
    /// two, or its own.
    pub fn register_count(&self) -> u32 {
        match self.passing() {
            Passing::Pointer => 2,
            Passing::Registers(n) => n,
        }
    }
}

/// What cannot be laid out: a value that is not made of numbers and
/// booleans (a resource, an unsized array), named with its path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unpackable {
    /// A phrase naming what cannot be packed, for the diagnostic ("a value
    /// of type `Texture2D<float4>`, which has no bits to pack").
    pub what: String,
}

/// The payload layout of a value of type `ty` (B17).
pub fn payload(module: &ir::Module, ty: Handle<Type>) -> Result<Layout, Unpackable> {
    let mut scalars = Vec::new();
    walk(module, ty, &mut Vec::new(), &mut scalars)?;
    let mut fields = Vec::new();
    let mut offset = 0u32;
    for (path, scalar) in scalars {
        // A `bool` is one byte wherever it is packed.
        let bytes = match scalar.kind {
            ScalarKind::Bool => 1,
            _ => u32::from(scalar.width),
        };
        let (size, align) = match bytes {
            1 => (1, 1),
            2 => (2, 2),
            8 => (8, 4),
            _ => (4, 4),
        };
        offset = offset.div_ceil(align) * align;
        fields.push(Field {
            path,
            scalar,
            register: offset / 4,
            shift: 8 * (offset % 4),
            bits: 8 * size,
        });
        offset += size;
    }
    Ok(Layout {
        fields,
        registers: offset.div_ceil(4),
    })
}

/// The hit-attribute layout of a value of type `ty` (B18): one slot per
/// scalar, two for 64-bit ones.
pub fn attributes(module: &ir::Module, ty: Handle<Type>) -> Result<Layout, Unpackable> {
    let mut scalars = Vec::new();
    walk(module, ty, &mut Vec::new(), &mut scalars)?;
    let mut fields = Vec::new();
    let mut slot = 0;
    for (path, scalar) in scalars {
        let wide = scalar.width == 8;
        fields.push(Field {
            path,
            scalar,
            register: slot,
            shift: 0,
            bits: if wide { 64 } else { 32 },
        });
        slot += if wide { 2 } else { 1 };
    }
    Ok(Layout {
        fields,
        registers: slot,
    })
}

/// The scalars of `ty` in declaration order, with their paths.
fn walk(
    module: &ir::Module,
    ty: Handle<Type>,
    path: &mut Vec<Access>,
    out: &mut Vec<(Vec<Access>, Scalar)>,
) -> Result<(), Unpackable> {
    let Some(t) = module.types.try_get(ty) else {
        return Err(Unpackable {
            what: "a type the module does not define".into(),
        });
    };
    match &t.inner {
        TypeInner::Scalar(s) => out.push((path.clone(), *s)),
        TypeInner::Vector { size, scalar } => {
            for c in 0..*size {
                path.push(Access::Component(c));
                out.push((path.clone(), *scalar));
                path.pop();
            }
        }
        TypeInner::Matrix {
            rows,
            columns,
            scalar,
        } => {
            for r in 0..u32::from(*rows) {
                for c in 0..*columns {
                    path.extend([Access::Row(r), Access::Component(c)]);
                    out.push((path.clone(), *scalar));
                    path.truncate(path.len() - 2);
                }
            }
        }
        TypeInner::Array {
            base,
            size: ir::ArraySize::Constant(n),
        } => {
            for i in 0..*n {
                path.push(Access::Element(i));
                walk(module, *base, path, out)?;
                path.pop();
            }
        }
        TypeInner::Struct { members } => {
            for (i, m) in members.iter().enumerate() {
                path.push(Access::Member(i as u32));
                walk(module, m.ty, path, out)?;
                path.pop();
            }
        }
        _ => {
            return Err(Unpackable {
                what: format!(
                    "a value of type `{}`, which has no bits to pack",
                    ir::print::type_name(module, ty)
                ),
            });
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn module_with(members: &[(&str, TypeInner)]) -> (ir::Module, Handle<Type>) {
        let mut module = ir::Module::default();
        let members = members
            .iter()
            .map(|(name, inner)| {
                let ty = module.types.insert(
                    Type {
                        name: None,
                        inner: inner.clone(),
                    },
                    ir::Span::UNDEFINED,
                );
                ir::StructMember {
                    name: (*name).into(),
                    ty,
                    io: ir::IoAttrs::default(),
                    matrix_layout: None,
                    span: ir::Span::UNDEFINED,
                }
            })
            .collect();
        let ty = module.types.insert(
            Type {
                name: Some("Payload".into()),
                inner: TypeInner::Struct { members },
            },
            ir::Span::UNDEFINED,
        );
        (module, ty)
    }

    /// A struct of one `uint r[n]`.
    fn uints(n: u32) -> (ir::Module, Handle<Type>) {
        let mut module = ir::Module::default();
        let mut add = |inner| {
            module
                .types
                .insert(Type { name: None, inner }, ir::Span::UNDEFINED)
        };
        let base = add(TypeInner::Scalar(Scalar::U32));
        let array = add(TypeInner::Array {
            base,
            size: ir::ArraySize::Constant(n),
        });
        let member = ir::StructMember {
            name: "r".into(),
            ty: array,
            io: ir::IoAttrs::default(),
            matrix_layout: None,
            span: ir::Span::UNDEFINED,
        };
        let ty = add(TypeInner::Struct {
            members: vec![member],
        });
        (module, ty)
    }

    #[test]
    fn registers_and_the_pointer_past_32() {
        for (n, passing) in [
            (16, Passing::Registers(16)),
            (17, Passing::Registers(17)),
            (31, Passing::Registers(31)),
            (32, Passing::Registers(32)),
            (33, Passing::Pointer),
        ] {
            let (module, ty) = uints(n);
            let layout = payload(&module, ty).unwrap();
            assert_eq!(layout.registers, n, "{n}");
            assert_eq!(layout.passing(), passing, "{n}");
            let expected_count = if n > 32 { 2 } else { n };
            assert_eq!(layout.register_count(), expected_count);
            assert_eq!(layout.fields.last().map(|f| f.register), Some(n - 1));
        }
    }

    #[test]
    fn sub_words_share_and_wide_values_pair() {
        let half3 = TypeInner::Vector {
            size: 3,
            scalar: Scalar {
                kind: ScalarKind::Float,
                width: 2,
            },
        };
        let (module, ty) = module_with(&[
            ("h", half3),
            ("b", TypeInner::Scalar(Scalar::BOOL)),
            (
                "d",
                TypeInner::Scalar(Scalar {
                    kind: ScalarKind::Float,
                    width: 8,
                }),
            ),
        ]);
        let layout = payload(&module, ty).unwrap();
        let at: Vec<(u32, u32, u32)> = layout
            .fields
            .iter()
            .map(|f| (f.register, f.shift, f.bits))
            .collect();
        assert_eq!(
            at,
            [(0, 0, 16), (0, 16, 16), (1, 0, 16), (1, 16, 8), (2, 0, 64)]
        );
        assert_eq!(layout.registers, 4);
        assert!(layout.fields[3].is_sub_word());
        assert_eq!(layout.fields[3].mask(), 0xFF);
        assert_eq!(layout.fields[0].mask(), 0xFFFF);
        assert_eq!(layout.fields[4].mask(), 0xFFFF_FFFF);
        let slots = attributes(&module, ty).unwrap();
        assert_eq!(
            slots.registers, 6,
            "one slot per scalar, two for the double"
        );
    }

    #[test]
    fn paths_are_spelled_with_source_names() {
        let frame = TypeInner::Matrix {
            rows: 2,
            columns: 2,
            scalar: Scalar::F32,
        };
        let (module, ty) = module_with(&[("frame", frame), ("b", TypeInner::Scalar(Scalar::BOOL))]);
        let layout = attributes(&module, ty).unwrap();
        let paths: Vec<String> = layout
            .fields
            .iter()
            .map(|f| path_text(&module, ty, &f.path))
            .collect();
        assert_eq!(
            paths,
            [
                ".frame[0].x",
                ".frame[0].y",
                ".frame[1].x",
                ".frame[1].y",
                ".b"
            ]
        );
        let (module, ty) = uints(2);
        let layout = payload(&module, ty).unwrap();
        assert_eq!(path_text(&module, ty, &layout.fields[1].path), ".r[1]");
        assert_eq!(layout.fields[1].byte(), 0);
    }

    #[test]
    fn eight_and_nine_attribute_slots() {
        let float4 = TypeInner::Vector {
            size: 4,
            scalar: Scalar::F32,
        };
        let (module, eight) = module_with(&[("a", float4.clone()), ("b", float4.clone())]);
        assert_eq!(
            attributes(&module, eight).unwrap().registers,
            MAX_ATTRIBUTE_SLOTS
        );
        let (module, nine) = module_with(&[
            ("a", float4.clone()),
            ("b", float4),
            ("c", TypeInner::Scalar(Scalar::F32)),
        ]);
        assert_eq!(
            attributes(&module, nine).unwrap().registers,
            MAX_ATTRIBUTE_SLOTS + 1
        );
    }

    #[test]
    fn opaque_values_cannot_be_packed() {
        let (module, ty) = module_with(&[("s", TypeInner::AccelerationStructure)]);
        assert!(
            payload(&module, ty)
                .unwrap_err()
                .what
                .contains("no bits to pack")
        );
        assert!(attributes(&module, ty).is_err());
    }
}

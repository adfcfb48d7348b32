//! The HLSL column: which types a user may declare each system value with.
//!
//! The front end checks declarations against it (a wrong type is a coded
//! error at the declaration), and the generated mapping tables read the
//! canonical type from it to say when a legalizer converts between the
//! declared type and the builtin's own type.
//!
//! The decisions follow the D3D semantics documentation; where the reference
//! compiler is laxer or stricter the entry says so. Where D3D names `uint`
//! the signed `int` of the same width is accepted too (the reference accepts
//! it, and the legalizer converts either way).

use legalis_ir::{Scalar, ScalarKind, SystemValue as SV, TessDomain};

/// A shape a system value may be declared with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Shape {
    /// A single scalar.
    Scalar,
    /// A vector of exactly this many components (2 to 4).
    Vector(u8),
    /// A one-dimensional array of exactly this many scalars.
    Array(u32),
}

/// The types a system value may be declared with: every combination of one
/// of `kinds` and one of `shapes`, at 32 bits (or 16 with `allow_16bit`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct DeclaredTypes {
    /// Accepted scalar kinds; the first is the canonical one.
    pub kinds: &'static [ScalarKind],
    /// Accepted shapes; the first is the canonical one.
    pub shapes: &'static [Shape],
    /// Whether 16-bit scalars (`half`, `min16float`, `uint16_t`) are
    /// accepted beside 32-bit ones.
    pub allow_16bit: bool,
}

const FLOAT: &[ScalarKind] = &[ScalarKind::Float];
const UINT: &[ScalarKind] = &[ScalarKind::Uint, ScalarKind::Sint];
const BOOL: &[ScalarKind] = &[ScalarKind::Bool];

const SCALAR: &[Shape] = &[Shape::Scalar];
const VEC2: &[Shape] = &[Shape::Vector(2)];
const VEC3: &[Shape] = &[Shape::Vector(3)];
const VEC4: &[Shape] = &[Shape::Vector(4)];
const UP_TO_4: &[Shape] = &[
    Shape::Vector(4),
    Shape::Scalar,
    Shape::Vector(2),
    Shape::Vector(3),
];
const UP_TO_3: &[Shape] = &[Shape::Vector(3), Shape::Scalar, Shape::Vector(2)];
/// Clip and cull distances: up to eight floats in all, as scalars, vectors
/// or arrays (`float d[2] : SV_ClipDistance`).
const DISTANCES: &[Shape] = &[
    Shape::Scalar,
    Shape::Vector(2),
    Shape::Vector(3),
    Shape::Vector(4),
    Shape::Array(1),
    Shape::Array(2),
    Shape::Array(3),
    Shape::Array(4),
    Shape::Array(5),
    Shape::Array(6),
    Shape::Array(7),
    Shape::Array(8),
];

const fn types(kinds: &'static [ScalarKind], shapes: &'static [Shape]) -> DeclaredTypes {
    DeclaredTypes {
        kinds,
        shapes,
        allow_16bit: false,
    }
}

/// The types `sv` may be declared with, in any stage and direction.
pub fn declared_types(sv: SV) -> DeclaredTypes {
    match sv {
        // Stricter than the reference, which accepts `float3` in a fragment
        // shader; D3D's position is always four components. A vertex input
        // `SV_Position` is an ordinary attribute in D3D, but still `float4`
        // here.
        SV::Position => types(FLOAT, VEC4),
        // Render-target outputs may be 16-bit (`half4`, `min16float4`).
        // Stricter than the reference, which accepts `bool`.
        SV::Target => DeclaredTypes {
            allow_16bit: true,
            ..types(
                &[ScalarKind::Float, ScalarKind::Sint, ScalarKind::Uint],
                UP_TO_4,
            )
        },
        SV::Depth | SV::DepthGreaterEqual | SV::DepthLessEqual => types(FLOAT, SCALAR),
        // D3D: `uint`; the reference accepts `int`.
        SV::Coverage => types(UINT, SCALAR),
        // D3D: `uint`; `bool` is what the GLSL builtin is.
        SV::InnerCoverage => types(&[ScalarKind::Uint, ScalarKind::Bool], SCALAR),
        SV::StencilRef => types(UINT, SCALAR),
        // D3D (DXC): `bool`; `uint` as in D3D9-era shaders, which the
        // reference accepts too.
        SV::IsFrontFace => types(&[ScalarKind::Bool, ScalarKind::Uint], SCALAR),
        SV::SampleIndex
        | SV::PrimitiveId
        | SV::VertexId
        | SV::InstanceId
        | SV::VulkanVertexId
        | SV::VulkanInstanceId
        | SV::StartVertexLocation
        | SV::StartInstanceLocation
        | SV::DrawIndex
        | SV::DeviceIndex
        | SV::ViewId
        | SV::RenderTargetArrayIndex
        | SV::ViewportArrayIndex
        | SV::ShadingRate
        | SV::FragInvocationCount
        | SV::GsInstanceId
        | SV::OutputControlPointId
        | SV::GroupIndex
        | SV::WaveLaneIndex
        | SV::WaveLaneCount
        | SV::WaveIndex
        | SV::QuadLaneIndex => types(UINT, SCALAR),
        SV::ClipDistance | SV::CullDistance => types(FLOAT, DISTANCES),
        SV::Barycentrics => types(FLOAT, VEC3),
        SV::CullPrimitive => types(BOOL, SCALAR),
        SV::PointSize => types(FLOAT, SCALAR),
        SV::PointCoord | SV::VulkanSamplePosition => types(FLOAT, VEC2),
        SV::FragSize => types(UINT, VEC2),
        // `float2` for quads and isolines, `float3` for triangles.
        SV::DomainLocation => types(FLOAT, &[Shape::Vector(3), Shape::Vector(2)]),
        // Per domain: `float[4]` quads, `float[3]` triangles, `float[2]`
        // isolines ([`tess_factor_shape`]).
        SV::TessFactor => types(FLOAT, &[Shape::Array(4), Shape::Array(3), Shape::Array(2)]),
        // `float[2]` quads, `float` triangles.
        SV::InsideTessFactor => types(FLOAT, &[Shape::Array(2), Shape::Scalar]),
        SV::DispatchThreadId | SV::GroupId | SV::GroupThreadId => types(UINT, UP_TO_3),
    }
}

/// The one shape a tessellation factor has in `domain`; `None` for the other
/// system values, and for an inside factor of isolines, which have none.
pub fn tess_factor_shape(sv: SV, domain: TessDomain) -> Option<Shape> {
    match (sv, domain) {
        (SV::TessFactor, TessDomain::Quad) => Some(Shape::Array(4)),
        (SV::TessFactor, TessDomain::Tri) => Some(Shape::Array(3)),
        (SV::TessFactor, TessDomain::Isoline) => Some(Shape::Array(2)),
        (SV::InsideTessFactor, TessDomain::Quad) => Some(Shape::Array(2)),
        (SV::InsideTessFactor, TessDomain::Tri) => Some(Shape::Scalar),
        _ => None,
    }
}

impl DeclaredTypes {
    /// Whether a declaration of `scalar` elements in `shape` is accepted.
    pub fn accepts(&self, scalar: Scalar, shape: Shape) -> bool {
        let width_ok = scalar.width == 4 || (self.allow_16bit && scalar.width == 2);
        // `bool` has no 16-bit form.
        let width_ok = width_ok && !(scalar.kind == ScalarKind::Bool && scalar.width != 4);
        width_ok && self.kinds.contains(&scalar.kind) && self.shapes.contains(&shape)
    }

    /// The canonical declaration: `float4`, `uint`, `float[4]`.
    pub fn canonical(&self) -> String {
        spell(self.kinds[0], self.shapes[0])
    }

    /// Every accepted type, for messages: `uint or int`,
    /// `float, float2, float3 or float4`.
    pub fn describe(&self) -> String {
        let mut all = Vec::new();
        for &shape in self.shapes {
            for &kind in self.kinds {
                all.push(spell(kind, shape));
            }
        }
        let mut text = String::new();
        for (i, t) in all.iter().enumerate() {
            if i > 0 {
                text += if i + 1 == all.len() { " or " } else { ", " };
            }
            text += t;
        }
        if self.allow_16bit {
            text += " (or their 16-bit forms)";
        }
        text
    }
}

/// The HLSL spelling of a 32-bit type of `kind` in `shape`.
pub fn spell(kind: ScalarKind, shape: Shape) -> String {
    let scalar = match kind {
        ScalarKind::Bool => "bool",
        ScalarKind::Sint => "int",
        ScalarKind::Uint => "uint",
        ScalarKind::Float => "float",
    };
    match shape {
        Shape::Scalar => scalar.to_string(),
        Shape::Vector(n) => format!("{scalar}{n}"),
        Shape::Array(n) => format!("{scalar}[{n}]"),
    }
}

/// Whether `value` writes the fragment's depth: `SV_Depth`,
/// `SV_DepthGreaterEqual`, `SV_DepthLessEqual`. D3D gives the three one
/// output register (`oDepth`, `oDepthGE`, `oDepthLE`), so an entry point
/// declares one of them: the front end refuses a second (`E31017`).
pub fn writes_depth(value: SV) -> bool {
    matches!(
        value,
        SV::Depth | SV::DepthGreaterEqual | SV::DepthLessEqual
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_system_value_has_a_canonical_32_bit_type() {
        for sv in SV::ALL {
            let t = declared_types(sv);
            assert!(!t.kinds.is_empty() && !t.shapes.is_empty(), "{sv:?}");
            let canonical = Scalar {
                kind: t.kinds[0],
                width: 4,
            };
            assert!(t.accepts(canonical, t.shapes[0]), "{sv:?}");
            for &shape in t.shapes {
                if let Shape::Vector(n) = shape {
                    assert!((2..=4).contains(&n), "{sv:?}: float1 is a scalar");
                }
            }
        }
    }

    #[test]
    fn decisions_spelled_out() {
        let f = |sv| declared_types(sv).canonical();
        assert_eq!(f(SV::Position), "float4");
        assert_eq!(f(SV::Coverage), "uint");
        assert_eq!(f(SV::IsFrontFace), "bool");
        assert_eq!(f(SV::TessFactor), "float[4]");
        assert_eq!(f(SV::DispatchThreadId), "uint3");
        assert_eq!(declared_types(SV::Coverage).describe(), "uint or int");
        assert_eq!(
            declared_types(SV::DomainLocation).describe(),
            "float3 or float2"
        );
        assert_eq!(
            declared_types(SV::Target).describe(),
            "float4, int4, uint4, float, int, uint, float2, int2, uint2, float3, int3 or uint3 (or their 16-bit forms)"
        );
    }

    #[test]
    fn widths_and_kinds_are_checked() {
        let target = declared_types(SV::Target);
        assert!(target.accepts(Scalar::F16, Shape::Vector(4)));
        assert!(!target.accepts(Scalar::F64, Shape::Vector(4)));
        assert!(!target.accepts(Scalar::BOOL, Shape::Scalar));
        let position = declared_types(SV::Position);
        assert!(!position.accepts(Scalar::F16, Shape::Vector(4)));
        assert!(!position.accepts(Scalar::F32, Shape::Vector(3)));
        let face = declared_types(SV::IsFrontFace);
        assert!(face.accepts(Scalar::BOOL, Shape::Scalar));
        assert!(face.accepts(Scalar::U32, Shape::Scalar));
        assert!(!face.accepts(Scalar::F32, Shape::Scalar));
        let clip = declared_types(SV::ClipDistance);
        assert!(clip.accepts(Scalar::F32, Shape::Array(8)));
        assert!(!clip.accepts(Scalar::F32, Shape::Array(9)));
    }

    #[test]
    fn tessellation_factors_per_domain() {
        for domain in [TessDomain::Quad, TessDomain::Tri, TessDomain::Isoline] {
            for sv in [SV::TessFactor, SV::InsideTessFactor] {
                if let Some(shape) = tess_factor_shape(sv, domain) {
                    assert!(declared_types(sv).shapes.contains(&shape), "{sv:?}");
                }
            }
        }
        assert_eq!(
            tess_factor_shape(SV::InsideTessFactor, TessDomain::Isoline),
            None
        );
        assert_eq!(tess_factor_shape(SV::Position, TessDomain::Quad), None);
    }
}

//! The GLSL/SPIR-V builtins the ray-tracing intrinsics read
//! (`DispatchRaysIndex()` is `gl_LaunchIDEXT`, SPIR-V `LaunchIdKHR`):
//! values of the ray-tracing stages that HLSL reads through a function
//! rather than a semantic, so they are keyed by [`Intrinsic`], not by
//! system value. Both the GLSL and the SPIR-V writer declare them from
//! here on first use.

use legalis_ir::Intrinsic as I;

/// A builtin variable a ray-tracing intrinsic reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RayBuiltin {
    /// The GLSL builtin variable (`gl_LaunchIDEXT`).
    pub glsl_name: &'static str,
    /// Its SPIR-V `BuiltIn` decoration (`LaunchIdKHR`).
    pub spirv_builtin: &'static str,
    /// GLSL declares it `int` where HLSL reads a `uint`
    /// (`uint(gl_InstanceID)`); SPIR-V declares it with the intrinsic's
    /// own type.
    pub glsl_int: bool,
    /// The intrinsic reads the builtin transposed: HLSL's `float3x4`
    /// transforms are the 4×3 builtin's transpose (glslang reads
    /// `gl_ObjectToWorld3x4EXT` and the 4×3 one through one variable and,
    /// when a shader uses both, stores one into the other, so only the
    /// 4×3 builtin is declared).
    pub transposed: bool,
}

impl RayBuiltin {
    const fn new(glsl_name: &'static str, spirv_builtin: &'static str) -> Self {
        RayBuiltin {
            glsl_name,
            spirv_builtin,
            glsl_int: false,
            transposed: false,
        }
    }

    const fn int(self) -> Self {
        RayBuiltin {
            glsl_int: true,
            ..self
        }
    }

    const fn transposed(self) -> Self {
        RayBuiltin {
            transposed: true,
            ..self
        }
    }
}

/// The builtin ray-tracing intrinsic `fun` reads; `None` for every
/// intrinsic that reads none (the ray calls, every other intrinsic). A
/// data table.
pub fn ray_builtin(fun: I) -> Option<RayBuiltin> {
    let b = RayBuiltin::new;
    Some(match fun {
        I::DispatchRaysIndex => b("gl_LaunchIDEXT", "LaunchIdKHR"),
        I::DispatchRaysDimensions => b("gl_LaunchSizeEXT", "LaunchSizeKHR"),
        I::WorldRayOrigin => b("gl_WorldRayOriginEXT", "WorldRayOriginKHR"),
        I::WorldRayDirection => b("gl_WorldRayDirectionEXT", "WorldRayDirectionKHR"),
        I::ObjectRayOrigin => b("gl_ObjectRayOriginEXT", "ObjectRayOriginKHR"),
        I::ObjectRayDirection => b("gl_ObjectRayDirectionEXT", "ObjectRayDirectionKHR"),
        I::RayTMin => b("gl_RayTminEXT", "RayTminKHR"),
        I::RayTCurrent => b("gl_RayTmaxEXT", "RayTmaxKHR"),
        I::RayFlags => b("gl_IncomingRayFlagsEXT", "IncomingRayFlagsKHR"),
        I::HitKind => b("gl_HitKindEXT", "HitKindKHR"),
        // HLSL's `InstanceIndex()` is the instance's position, its
        // `InstanceID()` the user's custom index.
        I::InstanceIndex => b("gl_InstanceID", "InstanceId").int(),
        I::InstanceId => b("gl_InstanceCustomIndexEXT", "InstanceCustomIndexKHR").int(),
        I::PrimitiveIndex => b("gl_PrimitiveID", "PrimitiveId").int(),
        I::GeometryIndex => b("gl_GeometryIndexEXT", "RayGeometryIndexKHR").int(),
        I::RayCurrentTime => b("gl_CurrentRayTimeNV", "CurrentRayTimeNV"),
        I::ObjectToWorld4x3 => b("gl_ObjectToWorldEXT", "ObjectToWorldKHR"),
        I::ObjectToWorld3x4 | I::ObjectToWorld => {
            b("gl_ObjectToWorldEXT", "ObjectToWorldKHR").transposed()
        }
        I::WorldToObject4x3 => b("gl_WorldToObjectEXT", "WorldToObjectKHR"),
        I::WorldToObject3x4 | I::WorldToObject => {
            b("gl_WorldToObjectEXT", "WorldToObjectKHR").transposed()
        }
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_spell_identifiers() {
        for &fun in I::ALL {
            if let Some(row) = ray_builtin(fun) {
                assert!(row.glsl_name.starts_with("gl_"), "{fun:?}");
                assert!(
                    row.spirv_builtin.bytes().all(|c| c.is_ascii_alphanumeric()),
                    "{fun:?}"
                );
            }
        }
        let row = ray_builtin(I::ObjectToWorld3x4).unwrap();
        assert_eq!(row.glsl_name, "gl_ObjectToWorldEXT");
        assert!(row.transposed && !row.glsl_int);
        assert!(ray_builtin(I::TraceRay).is_none());
    }
}

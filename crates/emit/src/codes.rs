//! Diagnostic codes of the emitters (`E56xxx`), and the one function that
//! turns a writer's typed error into its code.

/// A construct the GLSL writer does not support (yet).
pub const GLSL_UNSUPPORTED: u32 = 56001;
/// The module handed to the GLSL writer was not legalized for it: a bug in
/// Legalis, never expected from any input.
pub const GLSL_NOT_LEGALIZED: u32 = 56002;

/// The code of a GLSL writer error.
pub fn of(error: &crate::glsl::Error) -> u32 {
    match error {
        crate::glsl::Error::Unsupported { .. } => GLSL_UNSUPPORTED,
        crate::glsl::Error::NotLegalized { .. } | crate::glsl::Error::NoSuchEntryPoint { .. } => {
            GLSL_NOT_LEGALIZED
        }
    }
}

//! glslang and SPIRV-Tools, the two tools Legalis builds from C++, behind
//! the cargo feature `cpp-tools` (off by default: a build without it
//! compiles no C++ and takes a fraction of the time).
//!
//! Two paths need them: `-emit-spirv-via-glsl` (glslang compiles the GLSL
//! Legalis wrote) and `-target wgsl-spirv-asm` (SPIRV-Tools checks the
//! SPIR-V naga writes, whose writer has gaps its own validator does not
//! see). In a build without the feature, a request for either is the
//! error [`missing`] returns, before any work; every other target needs
//! neither.

use legalis_ir::diag::Diagnostic;

use crate::{Policy, ShaderStage, Target, codes, ir};

/// The feature's name, as the error says it.
pub const FEATURE: &str = "cpp-tools";

/// The error for `target` under `policy` in a build without the tools it
/// needs; `None` when the build has them or the request needs neither.
pub fn missing(target: Target, policy: &Policy) -> Option<Diagnostic> {
    missing_in(cfg!(feature = "cpp-tools"), target, policy)
}

/// [`missing`] for a build that has the tools (`built`) or not.
fn missing_in(built: bool, target: Target, policy: &Policy) -> Option<Diagnostic> {
    if built {
        return None;
    }
    let (what, tool) = match target {
        Target::WgslSpirvAsm => ("-target wgsl-spirv-asm", "SPIRV-Tools"),
        Target::Spirv | Target::SpirvAsm if policy.spirv_via_glsl => {
            ("-emit-spirv-via-glsl", "glslang")
        }
        _ => return None,
    };
    Some(crate::without_span(Diagnostic::error(
        codes::FEATURE_NOT_BUILT,
        format!(
            "{what} needs {tool}, and this Legalis was built without the `{FEATURE}` \
             feature that brings it: build with `--features {FEATURE}` (for example \
             `cargo install legalis-cli --features {FEATURE}`)"
        ),
        ir::Span::UNDEFINED,
    )))
}

/// SPIRV-Tools' validation of `words` for Vulkan 1.0; the error is its
/// message.
#[cfg(feature = "cpp-tools")]
pub fn validate_spirv(words: &[u32]) -> Result<(), String> {
    legalis_validate::validate_spirv(words, legalis_validate::TargetEnv::Vulkan_1_0)
}

/// Without SPIRV-Tools nothing can vouch for the words: an error.
#[cfg(not(feature = "cpp-tools"))]
pub fn validate_spirv(_words: &[u32]) -> Result<(), String> {
    Err(format!(
        "SPIRV-Tools is not in this build (the `{FEATURE}` feature is off)"
    ))
}

/// glslang's SPIR-V for `glsl` of `stage`; the error is glslang's message.
#[cfg(feature = "cpp-tools")]
pub fn glsl_to_spirv(glsl: &str, stage: ShaderStage) -> Result<Vec<u32>, String> {
    legalis_validate::glsl_to_spirv(glsl, stage)
}

/// Without glslang there is no SPIR-V from GLSL: an error ([`missing`]
/// refuses such a request before it gets here).
#[cfg(not(feature = "cpp-tools"))]
pub fn glsl_to_spirv(_glsl: &str, _stage: ShaderStage) -> Result<Vec<u32>, String> {
    Err(format!(
        "glslang is not in this build (the `{FEATURE}` feature is off)"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_two_paths_need_the_tools_and_the_error_names_the_feature() {
        let plain = Policy::default();
        let via_glsl = Policy {
            spirv_via_glsl: true,
            ..Policy::default()
        };
        for target in Target::ALL {
            for policy in [&plain, &via_glsl] {
                let needs = target == Target::WgslSpirvAsm
                    || (policy.spirv_via_glsl
                        && matches!(target, Target::Spirv | Target::SpirvAsm));
                assert_eq!(missing_in(true, target, policy).map(|d| d.code), None);
                let error = missing_in(false, target, policy);
                assert_eq!(error.is_some(), needs, "{target} {policy:?}");
                if let Some(error) = error {
                    assert_eq!(error.code_str(), "E00020");
                    assert!(error.is_error());
                    assert!(error.message.contains("`cpp-tools`"), "{}", error.message);
                }
            }
        }
    }
}

//! The intrinsic classifications the writers share, checked against the
//! HLSL names they classify.

use legalis_ir::{Intrinsic, ShaderStage};

#[test]
fn every_atomic_is_named_interlocked_and_its_operation() {
    let mut free = 0;
    let mut on_buffer = 0;
    for &fun in Intrinsic::ALL {
        let Some((op, buffer)) = fun.atomic() else {
            assert!(!fun.name().starts_with("Interlocked"), "{fun:?}");
            continue;
        };
        assert_eq!(fun.name(), format!("Interlocked{}", op.name()), "{fun:?}");
        assert_eq!(buffer, format!("{fun:?}").starts_with("Buffer"), "{fun:?}");
        assert!(fun.has_side_effects(), "{fun:?}");
        assert_eq!(fun.is_method(), buffer, "{fun:?}");
        if buffer {
            on_buffer += 1;
        } else {
            free += 1;
        }
    }
    assert_eq!((free, on_buffer), (9, 9));
}

#[test]
fn texture_method_families_follow_their_names() {
    for &fun in Intrinsic::ALL {
        let name = fun.name();
        assert_eq!(fun.is_sample(), name.starts_with("Sample"), "{fun:?}");
        assert_eq!(fun.is_gather(), name.starts_with("Gather"), "{fun:?}");
        if fun.is_sample() || fun.is_gather() {
            assert!(fun.is_method(), "{fun:?}");
        }
        assert_eq!(
            fun.compares(),
            name.starts_with("SampleCmp") || name.starts_with("GatherCmp"),
            "{fun:?}"
        );
    }
}

#[test]
fn workgroup_stages_are_compute_mesh_and_amplification() {
    let with = ShaderStage::ALL
        .iter()
        .filter(|s| s.has_workgroups())
        .count();
    assert_eq!(with, 3);
    for s in [
        ShaderStage::Compute,
        ShaderStage::Mesh,
        ShaderStage::Amplification,
    ] {
        assert!(s.has_workgroups(), "{s:?}");
    }
}

#[test]
fn common_math_is_spelled_in_lower_case() {
    let common: Vec<_> = Intrinsic::ALL
        .iter()
        .filter(|f| f.is_common_math())
        .collect();
    assert_eq!(common.len(), 31);
    for fun in common {
        let name = fun.name();
        assert_eq!(name, name.to_ascii_lowercase(), "{fun:?}");
        assert_eq!(name, format!("{fun:?}").to_ascii_lowercase(), "{fun:?}");
    }
}

//! The CUDA legalizer through its public entry points: `legalize` is
//! `legalize_unverified` followed by `verify`, and a kernel's system
//! values become leaves of the plan.

use legalis_ir as ir;
use legalis_legalize::Family;
use legalis_legalize::cuda::{Cuda, Plan};

fn front(src: &str) -> ir::Module {
    let options = legalis_front::Options {
        entry: Some("main".into()),
        stage: Some(ir::ShaderStage::Compute),
        ..Default::default()
    };
    let out = legalis_front::compile(src, &options);
    out.module
        .unwrap_or_else(|| panic!("front end: {:#?}", out.diagnostics))
}

const KERNEL: &str = "RWStructuredBuffer<uint> result;
[numthreads(8, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint index : SV_GroupIndex)
{
    result[id.x] = index;
}
";

#[test]
fn legalize_is_the_unverified_legalizer_then_the_verifier() {
    let module = front(KERNEL);
    let policy = ir::Policy::default();
    let verified = Cuda::legalize(&module, 0, &policy).unwrap_or_else(|e| panic!("{e:#?}"));
    let unverified =
        Cuda::legalize_unverified(&module, 0, &policy).unwrap_or_else(|e| panic!("{e:#?}"));
    Cuda::verify(&unverified.module, module.entry_points[0].span).expect("the module verifies");
    assert_eq!(verified.plan, unverified.plan);
    assert_eq!(
        ir::print::print_module(&verified.module),
        ir::print::print_module(&unverified.module)
    );
    let Plan::Kernel { entry, leaves, .. } = &verified.plan else {
        panic!("a compute entry point is a kernel: {:?}", verified.plan);
    };
    assert_eq!(entry, "main");
    let values: Vec<(&str, ir::SystemValue)> =
        leaves.iter().map(|l| (l.path.as_str(), l.value)).collect();
    assert_eq!(
        values,
        [
            ("id", ir::SystemValue::DispatchThreadId),
            ("index", ir::SystemValue::GroupIndex)
        ]
    );
}

#[test]
fn legalize_refuses_a_missing_entry_point_with_a_code() {
    let module = front(KERNEL);
    let errors = Cuda::legalize(&module, 3, &ir::Policy::default()).expect_err("no entry point 3");
    assert_eq!(errors.len(), 1);
    assert_eq!(errors[0].code_str(), "E55408");
    assert!(errors[0].is_error());
}

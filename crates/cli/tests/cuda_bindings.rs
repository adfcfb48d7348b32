//! The CUDA writer orders a kernel's parameters (an OptiX program's
//! `LaunchParams` members) itself; this keeps it and the binding plan
//! (`legalis_bind::rules::cuda`, what `-dump-bindings` prints) in step, on
//! every successful CUDA directive of the characterization suite.

use std::ffi::OsString;
use std::path::Path;

use legalis_bind::{Kind, Place, Target};
use legalis_cli::args::{Command, parse};
use legalis_legalize::{Family, cuda::Cuda};

/// The resources in the writer's order, plain uniforms as `_Globals`.
/// The entry point's `uniform` parameters (a kernel's launch arguments
/// after the resources, an OptiX program's shader-record members) are the
/// entry point's own, not globals the plan places: they are left out.
fn written(module: &legalis_ir::Module) -> Option<Vec<String>> {
    let resources =
        legalis_emit::cuda::resources(module, 0, &legalis_emit::cuda::Options::default()).ok()?;
    let mut names: Vec<String> = Vec::new();
    for r in resources.into_iter().filter(|r| r.parameter.is_none()) {
        let name = match r.block {
            Some(_) => "_Globals".to_string(),
            None => r.global,
        };
        if names.last() != Some(&name) {
            names.push(name);
        }
    }
    Some(names)
}

/// The resources in the plan's order.
fn planned(module: &legalis_ir::Module) -> Vec<String> {
    let plan = legalis_bind::plan(module, 0, Target::Cuda, &Default::default()).plan;
    let mut placed: Vec<(u32, String)> = plan
        .resources
        .iter()
        .filter_map(|r| match r.place {
            Place::KernelParameter(n) | Place::LaunchParams(n) => {
                let name = match r.kind {
                    Kind::Globals => "_Globals".to_string(),
                    _ => r.name.clone(),
                };
                Some((n, name))
            }
            _ => None,
        })
        .collect();
    placed.sort();
    placed.into_iter().map(|(_, name)| name).collect()
}

#[test]
fn the_cuda_writer_and_the_binding_plan_agree() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/legalize");
    let mut files: Vec<_> = std::fs::read_dir(&root)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    let (mut checked, mut with_resources) = (0, 0);
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap();
        for line in text.lines() {
            let Some((_, args)) = line
                .strip_prefix("//TEST:")
                .and_then(|rest| rest.split_once("):"))
            else {
                continue;
            };
            if !args.contains("-target cuda") || args.contains("-dump-bindings") {
                continue;
            }
            let mut arguments: Vec<OsString> = vec![file.clone().into()];
            arguments.extend(args.split_whitespace().map(OsString::from));
            let Ok(Command::Compile(compile)) = parse(arguments) else {
                panic!("{}: cannot parse `{args}`", file.display());
            };
            let options = legalis_front::Options {
                entry: compile.entry.clone(),
                stage: compile.stage,
                defines: compile.defines.clone(),
                allow_glsl: compile.allow_glsl,
                conformances: compile.conformances.clone(),
            };
            let Some(module) = legalis_front::compile(&text, &options).module else {
                continue;
            };
            let Ok(legalized) = Cuda::legalize(&module, 0, &compile.policy) else {
                continue;
            };
            let Some(written) = written(&legalized.module) else {
                continue;
            };
            let planned = planned(&legalized.module);
            assert_eq!(written, planned, "{}: `{args}`", file.display());
            checked += 1;
            with_resources += usize::from(!planned.is_empty());
        }
    }
    assert!(checked >= 20, "only {checked} CUDA directives compiled");
    assert!(with_resources >= 5, "only {with_resources} with resources");
}

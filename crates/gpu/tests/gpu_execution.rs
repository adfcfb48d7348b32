//! The GPU execution tests under `cargo test`.
//!
//! The CPU side always runs: every case's shaders compile with Legalis to
//! SPIR-V that spirv-val accepts for Vulkan 1.2, and every expectation has
//! the size its pipeline writes. The GPU side runs when a Vulkan device can
//! be opened; otherwise the test prints how many cases it skipped (set
//! `LEGALIS_GPU_REQUIRED=1` to make that a failure). `cargo xtask gpu`
//! stages the same cases for a GPU machine.

use std::io::Write;

use legalis_gpu::vk::{Outcome, Runner};
use legalis_gpu::{Expect, Pipeline, cases, stage};
use legalis_validate::TargetEnv;

fn result_words(pipeline: &Pipeline) -> usize {
    match *pipeline {
        Pipeline::Compute { words, .. } => words as usize,
        Pipeline::Rays(ref rays) => rays.words as usize,
        Pipeline::Draw(legalis_gpu::Draw {
            width,
            height,
            targets,
            buffer_words,
            capture_words,
            ..
        }) => {
            (width * height * targets * 4 + buffer_words + capture_words.iter().sum::<u32>())
                as usize
        }
    }
}

#[test]
fn gpu_execution_tests() {
    let mut compiled = Vec::new();
    for case in cases::all() {
        let staged = stage::compile(&case).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(staged.spirv.len(), case.entries.len(), "{}", case.name);
        for (shader, words) in staged.case.shaders.iter().zip(&staged.spirv) {
            legalis_validate::validate_spirv(words, TargetEnv::Vulkan_1_2)
                .unwrap_or_else(|e| panic!("{} {}: {e}", case.name, shader.file));
        }
        assert_eq!(
            case.expect.len(),
            result_words(&case.pipeline),
            "{}: the expectation does not cover what the pipeline writes",
            case.name
        );
        compiled.push(staged);
    }
    let runner = match Runner::new() {
        Ok(runner) => runner,
        Err(why) => {
            assert!(
                std::env::var_os("LEGALIS_GPU_REQUIRED").is_none(),
                "LEGALIS_GPU_REQUIRED is set but no Vulkan device opened: {why}"
            );
            // Straight to stderr, past the test harness's capture, so that
            // a plain `cargo test` shows the count.
            let _ = writeln!(
                std::io::stderr(),
                "{} GPU execution tests skipped: no Vulkan device ({why}); their shaders \
                 compiled and validated and their expected values were computed",
                compiled.len()
            );
            return;
        }
    };
    let mut failures = Vec::new();
    for staged in &compiled {
        match runner.run(&staged.case, &staged.spirv) {
            Outcome::Passed => println!("PASS {}", staged.case.name),
            Outcome::Control(why) => {
                println!("PASS {} (negative control: {why})", staged.case.name)
            }
            Outcome::Skipped(why) => println!("SKIP {}: {why}", staged.case.name),
            Outcome::Failed(why) => failures.push(format!("{}: {why}", staged.case.name)),
        }
    }
    assert!(
        failures.is_empty(),
        "on {}:\n{}",
        runner.description,
        failures.join("\n")
    );
}

/// The comparison the runner applies fails on wrong words, a float out of
/// tolerance and a short result, so a broken pipeline cannot pass.
#[test]
fn comparison_catches_wrong_results() {
    let expect = [Expect::U(7), Expect::F(1.5)];
    assert!(legalis_gpu::mismatches(&expect, &[7, 1.5f32.to_bits()]).is_empty());
    assert!(legalis_gpu::mismatches(&expect, &[7, 1.500_001f32.to_bits()]).is_empty());
    assert_eq!(
        legalis_gpu::mismatches(&expect, &[8, 1.5f32.to_bits()]).len(),
        1
    );
    assert_eq!(
        legalis_gpu::mismatches(&expect, &[7, 1.6f32.to_bits()]).len(),
        1
    );
    assert_eq!(legalis_gpu::mismatches(&expect, &[7]).len(), 1);
    assert_eq!(
        legalis_gpu::mismatches(&expect, &[legalis_gpu::SENTINEL, 2.0f32.to_bits()]).len(),
        2
    );
}

/// The staged SPIR-V records its capabilities, which the runner maps to
/// device features (a half varying needs storageInputOutput16).
#[test]
fn half_case_records_its_capabilities() {
    let case = cases::all()
        .into_iter()
        .find(|c| c.name == "varying-half")
        .expect("the half case exists");
    let staged = stage::compile(&case).unwrap_or_else(|e| panic!("{e}"));
    let fragment = &staged.case.shaders[1];
    assert!(
        fragment
            .capabilities
            .iter()
            .any(|c| c == "StorageInputOutput16")
    );
    assert!(fragment.capabilities.iter().any(|c| c == "Float16"));
}

/// The geometry-streams case's geometry module declares the capabilities
/// the runner maps to VK_EXT_transform_feedback's features, and its
/// expectation leaves room past each stream's vertices.
#[test]
fn geometry_streams_case_records_its_capabilities() {
    let case = cases::all()
        .into_iter()
        .find(|c| c.name == "geometry-streams")
        .expect("the geometry-streams case exists");
    let staged = stage::compile(&case).unwrap_or_else(|e| panic!("{e}"));
    let geometry = &staged.case.shaders[1];
    assert_eq!(geometry.stage, "geometry");
    for capability in ["TransformFeedback", "GeometryStreams"] {
        assert!(
            geometry.capabilities.iter().any(|c| c == capability),
            "{capability} missing from {:?}",
            geometry.capabilities
        );
    }
    let Pipeline::Draw(draw) = &case.pipeline else {
        panic!("geometry-streams is a draw");
    };
    // Slots 0, 1 and 2 are bound; the words past the emitted vertices of
    // each must stay the sentinel.
    assert_eq!(draw.capture_words.map(|w| w > 0), [true, true, true, false]);
    let tail = case.expect.len() - draw.capture_words[2] as usize;
    assert!(
        case.expect[tail..]
            .iter()
            .rev()
            .take(8)
            .all(|e| *e == Expect::U(legalis_gpu::SENTINEL))
    );
}

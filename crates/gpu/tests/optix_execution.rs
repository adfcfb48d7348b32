//! The OptiX execution test under `cargo test` (crates/gpu/src/optix.rs).
//!
//! Always: every entry point compiles with Legalis to CUDA, and the CUDA
//! compiles with `nvcc -ptx` against the OptiX headers (the toolchain
//! `cargo xtask setup` installs; missing, it is a failure, as in the
//! harness); the big payload really passes by address; the expected words
//! cover the three buffers. Where an NVIDIA GPU answers `nvidia-smi -L`,
//! the staged test is built and run (`optix/run.sh`); otherwise the test
//! prints that it skipped it, and `LEGALIS_GPU_REQUIRED=1` makes that a
//! failure.

use std::io::Write;
use std::process::Command;

use legalis_gpu::optix;

#[test]
fn optix_execution_test() {
    let outputs = optix::compile().unwrap_or_else(|e| panic!("{e}"));
    let (prelude_name, prelude) = legalis::cuda_prelude();
    for (file, text) in &outputs {
        legalis_validate::cuda::validate_cuda(text, &[(prelude_name, prelude)])
            .unwrap_or_else(|e| panic!("{file}: {e}"));
    }
    let raygen = &outputs[0].1;
    assert!(
        raygen.contains("lg::pointer_high(&b)"),
        "the 40-register payload must travel by address:\n{raygen}"
    );
    let words = optix::expected();
    assert_eq!(
        words.len() as u32,
        optix::RAYS * optix::WORDS_PER_RAY + 4 * optix::RAYS
    );

    let gpu = Command::new("nvidia-smi")
        .arg("-L")
        .output()
        .is_ok_and(|o| o.status.success());
    if !gpu {
        assert!(
            std::env::var_os("LEGALIS_GPU_REQUIRED").is_none(),
            "LEGALIS_GPU_REQUIRED is set but no NVIDIA GPU answered nvidia-smi -L"
        );
        let _ = writeln!(
            std::io::stderr(),
            "1 OptiX execution test skipped: no NVIDIA GPU (nvidia-smi -L); its {} CUDA \
             outputs compiled to PTX and its {} expected words were computed",
            outputs.len(),
            words.len()
        );
        return;
    }
    let toolchain = legalis_validate::cuda::Toolchain::find().unwrap_or_else(|e| panic!("{e}"));
    let dir = std::env::temp_dir().join(format!("legalis-optix-{}", std::process::id()));
    optix::stage(&dir).unwrap_or_else(|e| panic!("{e}"));
    let run = Command::new("sh")
        .arg(dir.join("run.sh"))
        .env("OPTIX_INCLUDE", &toolchain.optix_include)
        .env("NVCC", &toolchain.nvcc)
        .output()
        .expect("sh runs");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&run.stdout),
        String::from_utf8_lossy(&run.stderr)
    );
    let _ = std::fs::remove_dir_all(&dir);
    println!("{text}");
    assert!(run.status.success(), "optix/run.sh failed:\n{text}");
}

/// The expected words are the HLSL meaning, not a copy of anything the GPU
/// could write: a hit and a miss change the payload differently, the
/// 16-bit conversion is exact, and a wrong word would not match.
#[test]
fn optix_expectations_distinguish_hit_and_miss() {
    assert_eq!(optix::half_bits(3.25), 0x4280);
    assert_eq!(optix::half_bits(4.5), 0x4480);
    let words = optix::expected();
    let per_ray = optix::WORDS_PER_RAY as usize;
    // Ray 0 hits (flag toggled to true from false), ray 2 misses (true).
    assert_eq!(words[0], 1);
    assert_eq!(words[2 * per_ray], 1);
    // uint8_t wraps on the hit: 250 + 7.
    assert_eq!(words[1], 1);
    // The 40-register payload: ray 2 missed, so its words are inverted.
    assert_eq!(words[2 * per_ray + 12], !2000);
    // The int64_t of ray 0: -5e9 * 3 + hit kind 3, low word first.
    let at = (optix::RAYS * optix::WORDS_PER_RAY + 2 * optix::RAYS) as usize;
    let l = u64::from(words[at]) | (u64::from(words[at + 1]) << 32);
    assert_eq!(l as i64, -15_000_000_000 + 3);
    assert_ne!(words[..per_ray], words[per_ray..2 * per_ray]);
}

//! The CUDA toolchain the CUDA target's tests compile every output with:
//! `nvcc` and the OptiX device headers, from the PyPI wheels
//! `legalis_validate::cuda::WHEELS` names, installed with
//! `python3 -m pip install --target <cache>/site` into the cache folder
//! `legalis_validate::cuda::cache_dir` names (outside the repository: the
//! licences forbid committing the headers). `cargo xtask setup` installs
//! them when missing and compiles a small OptiX program as a smoke test.

use std::process::Command;

use legalis_validate::cuda::{Toolchain, WHEELS, cache_dir};

/// The toolchain, installed first when missing.
pub fn ensure() -> Result<Toolchain, String> {
    let dir =
        cache_dir().ok_or("no cache folder: set LEGALIS_CUDA_HOME, XDG_CACHE_HOME or HOME")?;
    let site = dir.join("site");
    if let Ok(toolchain) = Toolchain::in_site(&site) {
        return Ok(toolchain);
    }
    eprintln!(
        "xtask: the CUDA toolchain is missing; installing it: python3 -m pip install --target {} {}",
        site.display(),
        WHEELS.join(" ")
    );
    let _ = std::fs::remove_dir_all(&site);
    std::fs::create_dir_all(&dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let status = Command::new("python3")
        .args([
            "-m",
            "pip",
            "install",
            "--quiet",
            "--disable-pip-version-check",
        ])
        .arg("--target")
        .arg(&site)
        .args(WHEELS)
        .status()
        .map_err(|e| format!("cannot run python3 -m pip: {e}"))?;
    if !status.success() {
        return Err(format!(
            "pip install {} failed ({status})",
            WHEELS.join(" ")
        ));
    }
    Toolchain::in_site(&site)
}

/// nvcc compiles an OptiX program against the headers: a missing
/// compiler or host compiler shows up now, not as a test failure.
pub fn smoke_test(toolchain: &Toolchain) -> Result<(), String> {
    let source = "#include <optix.h>\n\
                  extern \"C\" __global__ void __raygen__smoke()\n\
                  {\n    uint3 i = optixGetLaunchIndex();\n    (void)i;\n}\n";
    let ptx = toolchain.compile(source, &[])?;
    if ptx.contains("__raygen__smoke") {
        Ok(())
    } else {
        Err(format!(
            "nvcc -ptx produced no __raygen__smoke entry:\n{ptx}"
        ))
    }
}

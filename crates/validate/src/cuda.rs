//! CUDA and OptiX device code through `nvcc -ptx`.
//!
//! The toolchain is not on `PATH` and is never committed (its licences
//! forbid it): `cargo xtask setup` installs the PyPI wheels
//! `nvidia-cuda-nvcc`, `nvidia-cuda-cccl` and `pyoptix-contrib` into the
//! cache folder [`cache_dir`] names, and this module finds them there again
//! (`nvidia/cu13/bin/nvcc`, and the OptiX device headers under
//! `optix/include`). A missing toolchain is an error that says to run
//! `cargo xtask setup`, never a silent pass.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};

/// The wheels the setup installs, pinned.
pub const WHEELS: [&str; 3] = [
    "nvidia-cuda-nvcc==13.5.37",
    "nvidia-cuda-cccl==13.3.5.0.6",
    "pyoptix-contrib==0.1.2",
];

/// Where the wheels live: `$LEGALIS_CUDA_HOME` when set, else
/// `$XDG_CACHE_HOME/legalis/cuda` (`$HOME/.cache/legalis/cuda` without it).
/// The wheels are unpacked into its `site` folder.
pub fn cache_dir() -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os("LEGALIS_CUDA_HOME").filter(|d| !d.is_empty()) {
        return Some(PathBuf::from(dir));
    }
    let cache = std::env::var_os("XDG_CACHE_HOME")
        .filter(|d| !d.is_empty())
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|home| Path::new(&home).join(".cache")))?;
    Some(cache.join("legalis").join("cuda"))
}

/// The installed toolchain: `nvcc` and the OptiX include folder.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Toolchain {
    /// The `nvcc` executable (`nvidia/cu13/bin/nvcc` under the site
    /// folder); it exists when [`Toolchain::in_site`] returned the value.
    pub nvcc: PathBuf,
    /// The folder of the OptiX device headers (`optix/include` under the
    /// site folder, holding `optix_device.h`), passed to nvcc with `-I`.
    pub optix_include: PathBuf,
}

impl Toolchain {
    /// The toolchain under `site` (the wheels' install folder).
    pub fn in_site(site: &Path) -> Result<Toolchain, String> {
        let nvcc = site.join("nvidia/cu13/bin/nvcc");
        let optix_include = site.join("optix/include");
        let hint = "run `cargo xtask setup`, which installs it (pip wheels \
                    nvidia-cuda-nvcc, nvidia-cuda-cccl, pyoptix-contrib)";
        if !nvcc.is_file() {
            return Err(format!(
                "nvcc is missing: {} does not exist; {hint}",
                nvcc.display()
            ));
        }
        if !optix_include.join("optix_device.h").is_file() {
            return Err(format!(
                "the OptiX device headers are missing: {} has no optix_device.h; {hint}",
                optix_include.display()
            ));
        }
        Ok(Toolchain {
            nvcc,
            optix_include,
        })
    }

    /// The toolchain in the cache folder.
    pub fn find() -> Result<Toolchain, String> {
        let dir = cache_dir().ok_or(
            "no cache folder for the CUDA toolchain (neither LEGALIS_CUDA_HOME, XDG_CACHE_HOME \
             nor HOME is set); run `cargo xtask setup`",
        )?;
        Toolchain::in_site(&dir.join("site"))
    }

    /// Compiles `source` to PTX (`nvcc -ptx -std=c++17`, the OptiX headers
    /// and the folder of `headers` on the include path). `headers` are
    /// written beside the source first (the Legalis prelude). Returns
    /// nvcc's message on failure.
    pub fn compile(&self, source: &str, headers: &[(&str, &str)]) -> Result<String, String> {
        static COUNTER: AtomicUsize = AtomicUsize::new(0);
        let dir = std::env::temp_dir().join(format!(
            "legalis-nvcc-{}-{}",
            std::process::id(),
            COUNTER.fetch_add(1, Ordering::Relaxed)
        ));
        std::fs::create_dir_all(&dir)
            .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
        let result = self.compile_in(&dir, source, headers);
        let _ = std::fs::remove_dir_all(&dir);
        result
    }

    fn compile_in(
        &self,
        dir: &Path,
        source: &str,
        headers: &[(&str, &str)],
    ) -> Result<String, String> {
        for (name, text) in headers {
            std::fs::write(dir.join(name), text).map_err(|e| e.to_string())?;
        }
        let input = dir.join("shader.cu");
        let output = dir.join("shader.ptx");
        std::fs::write(&input, source).map_err(|e| e.to_string())?;
        let run = Command::new(&self.nvcc)
            .arg("-ptx")
            .arg("-std=c++17")
            .arg("-I")
            .arg(&self.optix_include)
            .arg("-I")
            .arg(dir)
            .arg(&input)
            .arg("-o")
            .arg(&output)
            .output()
            .map_err(|e| format!("cannot run {}: {e}", self.nvcc.display()))?;
        if !run.status.success() {
            let text = format!(
                "{}{}",
                String::from_utf8_lossy(&run.stdout),
                String::from_utf8_lossy(&run.stderr)
            );
            let text = text.replace(&input.display().to_string(), "shader.cu");
            return Err(format!("nvcc -ptx ({}):\n{text}", run.status));
        }
        std::fs::read_to_string(&output).map_err(|e| e.to_string())
    }
}

/// Compiles CUDA/OptiX device code with `nvcc -ptx` from the cached
/// toolchain; `headers` (name, text) are written beside it. Returns the
/// PTX.
pub fn validate_cuda(source: &str, headers: &[(&str, &str)]) -> Result<String, String> {
    Toolchain::find()?.compile(source, headers)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_missing_toolchain_names_the_setup() {
        let empty = std::env::temp_dir().join(format!("legalis-no-cuda-{}", std::process::id()));
        let error = Toolchain::in_site(&empty).unwrap_err();
        assert!(error.contains("cargo xtask setup"), "{error}");
        assert!(error.contains("nvcc is missing"), "{error}");
    }

    #[test]
    fn nvcc_compiles_optix_code_and_rejects_errors() {
        let toolchain = Toolchain::find().unwrap_or_else(|e| panic!("{e}"));
        let good = "#include <optix.h>\n#include \"extra.h\"\n\
                    extern \"C\" __global__ void __miss__m() { optixSetPayload_0(EXTRA); }\n";
        let ptx = toolchain
            .compile(good, &[("extra.h", "#define EXTRA 7u\n")])
            .unwrap_or_else(|e| panic!("{e}"));
        assert!(ptx.contains("__miss__m"), "{ptx}");
        let bad = "extern \"C\" __global__ void k() { undeclared = 1; }\n";
        let error = toolchain.compile(bad, &[]).unwrap_err();
        assert!(error.contains("undeclared"), "{error}");
        assert!(error.contains("shader.cu"), "{error}");
    }
}

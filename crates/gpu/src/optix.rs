//! The OptiX execution test: Legalis' CUDA output (`-target cuda`, one
//! OptiX program per entry point of `crates/gpu/optix/payload.slang`)
//! compiled to PTX and run in an OptiX pipeline by our host program
//! (`crates/gpu/optix/host.cpp`), which compares what the raygen program
//! wrote with [`expected`].
//!
//! The expected words are computed here, on the CPU, from the HLSL meaning
//! of the shader: a payload of mixed widths (`bool`, `uint8_t`, `half`,
//! `int16_t`, `uint`, `float3`, `float2x2`, `double`, `int64_t`), a payload
//! of 40 registers and an 8-slot attribute struct that a custom
//! intersection program reports.

/// The shader file, relative to `crates/gpu`.
pub const FILE: &str = "optix/payload.slang";
/// Its text.
pub const SOURCE: &str = include_str!("../optix/payload.slang");
/// Our host program and the script that builds and runs it on the GPU
/// machine (staged beside the CUDA outputs).
pub const HOST: &str = include_str!("../optix/host.cpp");
pub const SCRIPT: &str = include_str!("../optix/run.sh");
/// The expected words' file inside the staging folder.
pub const EXPECTED: &str = "expected.txt";

/// `(entry point, stage)`; each becomes `<entry>.cu`.
pub const ENTRIES: [(&str, &str); 6] = [
    ("raygen", "raygeneration"),
    ("isect", "intersection"),
    ("hitMixed", "closesthit"),
    ("missMixed", "miss"),
    ("hitBig", "closesthit"),
    ("missBig", "miss"),
];

/// Rays launched (a 4 x 1 x 1 launch): rays 0 and 1 hit the box.
pub const RAYS: u32 = 4;
/// Words of `results` each ray writes.
pub const WORDS_PER_RAY: u32 = 52;
/// Registers of the big payload (past OptiX's 32: passed by address).
pub const BIG_WORDS: u32 = 40;

/// The result words: `results` (52 words a ray), then `doubles` and then
/// `longs`, one 64-bit value a ray each as two words (low, high), as the
/// host program reads them back.
pub fn expected() -> Vec<u32> {
    let mut results = Vec::new();
    let mut doubles = Vec::new();
    let mut longs = Vec::new();
    for i in 0..RAYS {
        let hit = i < 2;
        let fi = i as f32;
        // The intersection program's attributes (only read on a hit).
        let x = if hit { -0.5 + 0.5 * fi } else { 10.0 };
        let frame = [[1.5f32, -2.25], [3.0 + x, 0.125]];
        let ids = [0i32, 7 + i as i32];
        let uv = [x, 0.75f32];
        let t = 4.0 + 0.25 * fi;
        let hit_kind = 3u32;

        let mut flag = i & 1 != 0;
        let mut tiny = (250 + i) as u8;
        let mut h = 1.5 + fi;
        let mut s = (-100 - i as i32) as i16;
        let mut u = 0x1234_5678u32 + i;
        let mut v = [fi, fi + 0.5, -fi];
        let mut m = [[1.0 + fi, 2.0], [3.0, 4.0 - fi]];
        let mut d = f64::from(i * 2 + 1) / 10.0;
        let mut l = -50_000i64 * 100_000 * i64::from(i + 1);
        let mut big: Vec<u32> = (0..BIG_WORDS).map(|k| i * 1000 + k * 7).collect();
        if hit {
            flag = !flag;
            tiny = tiny.wrapping_add(7);
            h = h * 2.0 + 0.25;
            s = s.wrapping_mul(3);
            u = (u ^ 0xA5A5_A5A5)
                .wrapping_add(ids[0] as u32 * 16)
                .wrapping_add(ids[1] as u32);
            v = [v[0] + uv[0], v[1] + uv[1], v[2] + t];
            for (r, row) in m.iter_mut().enumerate() {
                for (c, e) in row.iter_mut().enumerate() {
                    *e += frame[r][c];
                }
            }
            d += f64::from(ids[1]);
            l = l * 3 + i64::from(hit_kind);
            for (k, w) in big.iter_mut().enumerate() {
                *w = w
                    .wrapping_mul(3)
                    .wrapping_add(k as u32)
                    .wrapping_add(ids[1] as u32);
            }
        } else {
            flag = true;
            tiny = tiny.wrapping_sub(1);
            h += 1.0;
            s = s.wrapping_neg();
            u = u.wrapping_add(1);
            v = v.map(|c| c * 2.0);
            m = m.map(|row| row.map(|e: f32| -e));
            d /= 7.0;
            l -= 1;
            for w in &mut big {
                *w = !*w;
            }
        }
        results.extend([
            u32::from(flag),
            u32::from(tiny),
            u32::from(half_bits(h)),
            i32::from(s) as u32,
            u,
            v[0].to_bits(),
            v[1].to_bits(),
            v[2].to_bits(),
            m[0][0].to_bits(),
            m[0][1].to_bits(),
            m[1][0].to_bits(),
            m[1][1].to_bits(),
        ]);
        results.extend(big);
        doubles.extend(split(d.to_bits()));
        longs.extend(split(l as u64));
    }
    results.extend(doubles);
    results.extend(longs);
    results
}

fn split(bits: u64) -> [u32; 2] {
    [bits as u32, (bits >> 32) as u32]
}

/// The IEEE binary16 bits of `value`, which must be a normal half with no
/// rounding (the test's values are).
pub fn half_bits(value: f32) -> u16 {
    let bits = value.to_bits();
    let sign = ((bits >> 16) & 0x8000) as u16;
    let exponent = ((bits >> 23) & 0xFF) as i32 - 127 + 15;
    let mantissa = bits & 0x7F_FFFF;
    assert!(
        (1..31).contains(&exponent) && mantissa & 0x1FFF == 0,
        "{value} is not an exact normal half"
    );
    sign | ((exponent as u16) << 10) | (mantissa >> 13) as u16
}

/// The text of the expected words' file: a line `RESULTS DOUBLES LONGS`
/// (the counts of the three buffers' values), then one hexadecimal word a
/// line.
pub fn expected_file() -> String {
    let mut text = format!("{} {RAYS} {RAYS}\n", RAYS * WORDS_PER_RAY);
    for word in expected() {
        text.push_str(&format!("{word:08x}\n"));
    }
    text
}

/// Legalis' CUDA output for each entry point: `(file name, text)`.
#[cfg(feature = "compile")]
pub fn compile() -> Result<Vec<(String, String)>, String> {
    let mut out = Vec::new();
    for (entry, stage) in ENTRIES {
        let mut request = legalis::Request::builder(FILE, SOURCE)
            .target(legalis::Target::Cuda)
            .entry(entry)
            .build();
        request.stage = legalis::ShaderStage::from_name(stage);
        let compiled = legalis::compile(&request);
        match compiled.output {
            Some(generated) if !compiled.diagnostics.iter().any(|d| d.is_error()) => {
                let text = String::from_utf8(generated.bytes).map_err(|e| e.to_string())?;
                out.push((format!("{entry}.cu"), text));
            }
            _ => {
                return Err(format!(
                    "{FILE} {entry}: Legalis did not compile it:\n{}",
                    legalis::render::render_human(
                        FILE,
                        &compiled.source_text,
                        &compiled.diagnostics,
                        false
                    )
                ));
            }
        }
    }
    Ok(out)
}

/// Writes the OptiX test into `dir` (created if missing): the CUDA
/// outputs, the prelude, the expected words, the host program and
/// `run.sh`, which builds the PTX and the host program with the GPU
/// machine's nvcc and runs it. The OptiX headers are not ours to ship:
/// `run.sh` takes them from `$OPTIX_INCLUDE` or `dir/include`.
#[cfg(feature = "compile")]
pub fn stage(dir: &std::path::Path) -> Result<(), String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let (prelude_name, prelude) = legalis::cuda_prelude();
    let mut files = compile()?;
    files.push((prelude_name.to_string(), prelude.to_string()));
    files.push((EXPECTED.to_string(), expected_file()));
    files.push(("host.cpp".to_string(), HOST.to_string()));
    files.push(("run.sh".to_string(), SCRIPT.to_string()));
    for (name, text) in files {
        let path = dir.join(name);
        std::fs::write(&path, text).map_err(|e| format!("{}: {e}", path.display()))?;
    }
    Ok(())
}

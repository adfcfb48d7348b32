//! Every shader of `tests/layout`, on every target its first line names:
//! `legalis-layout`'s offsets, sizes and strides against the reference
//! compiler's reflection committed in `tests/layout/reference` (written by
//! `cargo xtask reference-layouts`). A difference fails and names the
//! member, unless `tests/layout/findings.txt` lists it with its reason.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use legalis_ir as ir;
use legalis_ir::{AddressSpace, BufferKind, Handle, TypeInner};
use legalis_layout::{Layouter, Rule, Space, Target};

fn corpus() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/layout")
}

fn target(name: &str) -> Target {
    match name {
        "spirv" => Target::Spirv,
        "wgsl" => Target::Wgsl,
        "metal" => Target::Metal,
        "cuda" => Target::Cuda,
        other => panic!("unknown target {other} in a corpus header"),
    }
}

fn module(path: &Path) -> ir::Module {
    let request = legalis::Request::builder(
        path.display().to_string(),
        std::fs::read(path).expect("corpus shader"),
    )
    .entry("main")
    .stage(ir::ShaderStage::Compute)
    .build();
    let compiled = legalis::compile(&request);
    compiled.module.unwrap_or_else(|| {
        panic!(
            "{} does not check: {:?}",
            path.display(),
            compiled.diagnostics
        )
    })
}

/// Legalis' figures in the data's format: one line per member.
fn legalis_lines(m: &ir::Module, t: Target) -> String {
    let mut out = String::new();
    let uniform = Layouter::new(m, Rule::of(t, Space::Uniform));
    let storage = Layouter::new(m, Rule::of(t, Space::Storage));
    let mut globals = Vec::new();
    for (_, g) in m.globals.iter() {
        if g.space != AddressSpace::Uniform {
            continue;
        }
        match &m.types[g.ty].inner {
            TypeInner::ConstantBuffer { inner } => {
                struct_lines(&uniform, m, &g.name, *inner, &mut out)
            }
            TypeInner::Buffer {
                kind: BufferKind::Structured,
                element: Some(e),
                ..
            } => struct_lines(&storage, m, &format!("{}[]", g.name), *e, &mut out),
            TypeInner::Scalar(_)
            | TypeInner::Vector { .. }
            | TypeInner::Matrix { .. }
            | TypeInner::Array { .. }
            | TypeInner::Struct { .. } => globals.push((g.name.clone(), g.ty, g.matrix_layout)),
            _ => {}
        }
    }
    if !globals.is_empty() {
        let fields: Vec<_> = globals.iter().map(|(_, t, l)| (*t, *l)).collect();
        let (_, members) = uniform.struct_layout(&fields).expect("a _Globals layout");
        for ((name, ty, major), member) in globals.iter().zip(members) {
            line(
                &uniform,
                m,
                &format!("_Globals.{name}"),
                *ty,
                *major,
                member.offset,
                &mut out,
            );
        }
    }
    out
}

fn struct_lines(
    l: &Layouter,
    m: &ir::Module,
    prefix: &str,
    ty: Handle<ir::Type>,
    out: &mut String,
) {
    let TypeInner::Struct { members } = &m.types[ty].inner else {
        return;
    };
    let fields: Vec<_> = members.iter().map(|s| (s.ty, s.matrix_layout)).collect();
    let (_, placed) = l.struct_layout(&fields).expect("a struct layout");
    for (s, p) in members.iter().zip(placed) {
        line(
            l,
            m,
            &format!("{prefix}.{}", s.name),
            s.ty,
            s.matrix_layout,
            p.offset,
            out,
        );
    }
}

fn line(
    l: &Layouter,
    m: &ir::Module,
    path: &str,
    ty: Handle<ir::Type>,
    major: Option<ir::MatrixLayout>,
    offset: u32,
    out: &mut String,
) {
    let size = l.layout(ty, major).expect("a member layout").size;
    let _ = write!(out, "{path} offset={offset} size={size}");
    if let TypeInner::Array { base, .. } = m.types[ty].inner {
        let _ = write!(
            out,
            " stride={}",
            l.array_stride(base, major).expect("a stride")
        );
    }
    out.push('\n');
    element(l, m, path, ty, major, out);
}

fn element(
    l: &Layouter,
    m: &ir::Module,
    path: &str,
    ty: Handle<ir::Type>,
    major: Option<ir::MatrixLayout>,
    out: &mut String,
) {
    match m.types[ty].inner {
        TypeInner::Struct { .. } => struct_lines(l, m, path, ty, out),
        TypeInner::Array { base, .. } => {
            if let TypeInner::Array { base: inner, .. } = m.types[base].inner {
                let stride = l.array_stride(inner, major).expect("a stride");
                let _ = writeln!(out, "{path}[] stride={stride}");
            }
            element(l, m, &format!("{path}[]"), base, major, out);
        }
        _ => {}
    }
}

/// `PATH field=value...` lines keyed by path.
fn parse(text: &str) -> BTreeMap<String, BTreeMap<String, String>> {
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let mut words = l.split_whitespace();
            let path = words.next().unwrap_or_default().to_string();
            let fields = words
                .filter_map(|w| w.split_once('='))
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect();
            (path, fields)
        })
        .collect()
}

/// `SHADER TARGET PATH FIELD legalis=N reference=N -- reason` lines.
fn findings() -> BTreeMap<(String, String, String, String), (String, String)> {
    let text = std::fs::read_to_string(corpus().join("findings.txt")).expect("findings.txt");
    let mut out = BTreeMap::new();
    for l in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let (facts, reason) = l
            .split_once(" -- ")
            .expect("a finding has a reason after ` -- `");
        assert!(!reason.trim().is_empty(), "finding without a reason: {l}");
        let w: Vec<&str> = facts.split_whitespace().collect();
        assert_eq!(w.len(), 6, "malformed finding: {l}");
        let value = |s: &str, key: &str| {
            s.strip_prefix(key)
                .expect("legalis=/reference=")
                .to_string()
        };
        out.insert(
            (w[0].into(), w[1].into(), w[2].into(), w[3].into()),
            (value(w[4], "legalis="), value(w[5], "reference=")),
        );
    }
    out
}

#[test]
fn legalis_layouts_match_the_reference_reflection() {
    let mut shaders: Vec<PathBuf> = std::fs::read_dir(corpus())
        .expect("tests/layout")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "slang"))
        .collect();
    shaders.sort();
    assert!(shaders.len() >= 7, "the layout corpus went missing");
    let mut expected = findings();
    let mut failures = Vec::new();
    let mut compared = 0;
    for shader in &shaders {
        let source = std::fs::read_to_string(shader).expect("source");
        let stem = shader
            .file_stem()
            .expect("stem")
            .to_string_lossy()
            .to_string();
        let targets: Vec<&str> = source
            .lines()
            .next()
            .and_then(|l| l.strip_prefix("// targets:"))
            .expect("a `// targets:` first line")
            .split_whitespace()
            .collect();
        let m = module(shader);
        for t in targets {
            let data = corpus().join(format!("reference/{stem}.{t}.txt"));
            let reference = parse(&std::fs::read_to_string(&data).unwrap_or_else(|_| {
                panic!("no {} (run cargo xtask reference-layouts)", data.display())
            }));
            let ours = parse(&legalis_lines(&m, target(t)));
            assert!(!reference.is_empty(), "{} is empty", data.display());
            for path in reference
                .keys()
                .chain(ours.keys())
                .collect::<std::collections::BTreeSet<_>>()
            {
                let (r, o) = (reference.get(path), ours.get(path));
                let (Some(r), Some(o)) = (r, o) else {
                    failures.push(format!(
                        "{stem} {t} {path}: only in {}",
                        if r.is_some() {
                            "the reference"
                        } else {
                            "Legalis"
                        }
                    ));
                    continue;
                };
                for (field, rv) in r {
                    compared += 1;
                    let ov = o.get(field).cloned().unwrap_or_else(|| "-".into());
                    if &ov == rv {
                        continue;
                    }
                    let key = (stem.clone(), t.to_string(), path.clone(), field.clone());
                    match expected.remove(&key) {
                        Some((l, rf)) if l == ov && &rf == rv => {}
                        _ => failures.push(format!(
                            "{stem} {t} {path} {field}: legalis={ov} reference={rv}"
                        )),
                    }
                }
            }
        }
    }
    for ((s, t, p, f), _) in expected {
        failures.push(format!(
            "{s} {t} {p} {f}: listed in findings.txt but no longer differs"
        ));
    }
    assert!(compared > 300, "only {compared} figures compared");
    assert!(
        failures.is_empty(),
        "layout differences:\n{}",
        failures.join("\n")
    );
}

/// The WGSL output of a corpus shader, or the codes of its diagnostics
/// when the writer refuses it.
fn wgsl(path: &Path) -> Result<String, Vec<u32>> {
    let request = legalis::Request::builder(
        path.display().to_string(),
        std::fs::read(path).expect("corpus shader"),
    )
    .entry("main")
    .stage(ir::ShaderStage::Compute)
    .target(legalis::Target::Wgsl)
    .build();
    let compiled = legalis::compile(&request);
    match compiled.output {
        Some(output) => Ok(String::from_utf8(output.bytes).expect("WGSL text")),
        None => Err(compiled.diagnostics.iter().map(|d| d.code).collect()),
    }
}

/// The emitted WGSL's own layout, as naga lays it out, in the format of
/// `legalis_lines`: member paths from the IR (walked alongside the WGSL
/// types), offsets, sizes and strides from naga.
fn naga_lines(m: &ir::Module, wgsl: &naga::Module) -> String {
    let var = |name: &str| {
        let found = wgsl.global_variables.iter().find(|(_, v)| {
            let Some(n) = v.name.as_deref() else {
                return false;
            };
            let base = n
                .rsplit_once('_')
                .filter(|(_, suffix)| suffix.chars().all(|c| c.is_ascii_digit()))
                .map_or(n, |(b, _)| b);
            matches!(
                v.space,
                naga::AddressSpace::Uniform | naga::AddressSpace::Storage { .. }
            ) && (n == name || base == name)
        });
        found
            .unwrap_or_else(|| panic!("no WGSL buffer for {name}"))
            .1
            .ty
    };
    let mut out = String::new();
    let mut globals = Vec::new();
    for (_, g) in m.globals.iter() {
        if g.space != AddressSpace::Uniform {
            continue;
        }
        match &m.types[g.ty].inner {
            TypeInner::ConstantBuffer { inner } => {
                naga_struct(m, wgsl, &g.name, *inner, var(&g.name), &mut out)
            }
            TypeInner::Buffer {
                kind: BufferKind::Structured,
                element: Some(e),
                ..
            } => {
                let naga::TypeInner::Array { base, .. } = wgsl.types[var(&g.name)].inner else {
                    panic!("{} is not a WGSL array", g.name);
                };
                naga_struct(m, wgsl, &format!("{}[]", g.name), *e, base, &mut out)
            }
            TypeInner::Scalar(_)
            | TypeInner::Vector { .. }
            | TypeInner::Matrix { .. }
            | TypeInner::Array { .. }
            | TypeInner::Struct { .. } => globals.push((g.name.clone(), g.ty)),
            _ => {}
        }
    }
    if !globals.is_empty() {
        let naga::TypeInner::Struct { members, .. } = &wgsl.types[var("_Globals")].inner else {
            panic!("_Globals is not a WGSL struct");
        };
        assert_eq!(members.len(), globals.len(), "_Globals members");
        for ((name, ty), member) in globals.iter().zip(members) {
            let path = format!("_Globals.{name}");
            naga_line(m, wgsl, &path, *ty, member.ty, member.offset, &mut out);
        }
    }
    out
}

fn naga_struct(
    m: &ir::Module,
    wgsl: &naga::Module,
    prefix: &str,
    ty: Handle<ir::Type>,
    naga_ty: naga::Handle<naga::Type>,
    out: &mut String,
) {
    let TypeInner::Struct { members } = &m.types[ty].inner else {
        return;
    };
    let naga::TypeInner::Struct { members: ours, .. } = &wgsl.types[naga_ty].inner else {
        panic!("{prefix}: a struct in the IR but not in the WGSL");
    };
    assert_eq!(members.len(), ours.len(), "{prefix}: member count");
    for (s, n) in members.iter().zip(ours) {
        let path = format!("{prefix}.{}", s.name);
        naga_line(m, wgsl, &path, s.ty, n.ty, n.offset, out);
    }
}

fn naga_line(
    m: &ir::Module,
    wgsl: &naga::Module,
    path: &str,
    ty: Handle<ir::Type>,
    naga_ty: naga::Handle<naga::Type>,
    offset: u32,
    out: &mut String,
) {
    let inner = &wgsl.types[naga_ty].inner;
    let size = inner.size(wgsl.to_ctx());
    let _ = write!(out, "{path} offset={offset} size={size}");
    if let naga::TypeInner::Array { stride, .. } = inner {
        let _ = write!(out, " stride={stride}");
    }
    out.push('\n');
    naga_element(m, wgsl, path, ty, naga_ty, out);
}

fn naga_element(
    m: &ir::Module,
    wgsl: &naga::Module,
    path: &str,
    ty: Handle<ir::Type>,
    naga_ty: naga::Handle<naga::Type>,
    out: &mut String,
) {
    match (&m.types[ty].inner, &wgsl.types[naga_ty].inner) {
        (TypeInner::Struct { .. }, _) => naga_struct(m, wgsl, path, ty, naga_ty, out),
        (TypeInner::Array { base, .. }, naga::TypeInner::Array { base: nb, .. }) => {
            if let (TypeInner::Array { .. }, naga::TypeInner::Array { stride, .. }) =
                (&m.types[*base].inner, &wgsl.types[*nb].inner)
            {
                let _ = writeln!(out, "{path}[] stride={stride}");
            }
            naga_element(m, wgsl, &format!("{path}[]"), *base, *nb, out);
        }
        _ => {}
    }
}

/// Reads the WGSL Legalis emits for each corpus shader back with naga and
/// compares every member offset, size and stride of its uniform and
/// storage structs with `legalis-layout`'s: a WGSL spelling whose own
/// layout differs from the rule (a `matCx2` column stride in a uniform
/// block) fails here even where naga accepts the module.
#[test]
fn emitted_wgsl_lays_out_as_legalis_layout_says() {
    let mut checked = 0;
    let mut failures = Vec::new();
    let mut shaders = Vec::new();
    for entry in std::fs::read_dir(corpus()).expect("tests/layout") {
        let shader = entry.expect("entry").path();
        if shader.extension().is_none_or(|x| x != "slang") {
            continue;
        }
        let source = std::fs::read_to_string(&shader).expect("source");
        let first = source.lines().next().unwrap_or_default();
        if !first.split_whitespace().any(|t| t == "wgsl") {
            continue;
        }
        let m = module(&shader);
        let stem = shader
            .file_stem()
            .unwrap_or_default()
            .to_string_lossy()
            .to_string();
        // A shader the WGSL writer refuses (nested uniform arrays, `half`)
        // is refused with a code, never written wrong.
        let text = match wgsl(&shader) {
            Ok(text) => text,
            Err(codes) => {
                assert_eq!(codes, [56201], "{stem}: WGSL refused without E56201");
                continue;
            }
        };
        shaders.push(stem.clone());
        let naga_module = legalis_validate::validate_wgsl(&text, ir::ShaderStage::Compute)
            .unwrap_or_else(|e| panic!("{}: {e}", shader.display()));
        let ours = parse(&legalis_lines(&m, Target::Wgsl));
        let emitted = parse(&naga_lines(&m, &naga_module));
        for (path, fields) in &ours {
            for (field, value) in fields {
                checked += 1;
                let got = emitted.get(path).and_then(|f| f.get(field));
                if got != Some(value) {
                    failures.push(format!(
                        "{stem} {path} {field}: legalis-layout={value} emitted WGSL={}",
                        got.map_or("-", String::as_str)
                    ));
                }
            }
        }
    }
    shaders.sort();
    assert_eq!(
        shaders,
        ["globals", "matrices", "vectors"],
        "shaders written as WGSL"
    );
    assert!(checked > 70, "only {checked} WGSL figures compared");
    assert!(
        failures.is_empty(),
        "emitted WGSL layouts differ:\n{}",
        failures.join("\n")
    );
}

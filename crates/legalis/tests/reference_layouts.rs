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
    let request = legalis::Request {
        path: path.display().to_string(),
        source: std::fs::read(path).expect("corpus shader"),
        entry: Some("main".into()),
        stage: Some(ir::ShaderStage::Compute),
        ..Default::default()
    };
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

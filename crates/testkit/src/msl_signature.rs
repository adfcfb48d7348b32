//! No Metal compiler runs on Linux: the Metal checker
//! (`legalis_validate::metal`, clang against the project's model of
//! `metal_stdlib`) compiles each output, and the harness also re-reads every emitted MSL entry-point
//! signature — the stage qualifier, each parameter's and result member's
//! type and attribute, the `[[stage_in]]` struct, the address space and
//! argument-table index of every resource — and compares it with the
//! legalization plan the Metal legalizer computes for the same file and
//! arguments (issue 9, item 5). A directive that passes says so in the
//! report: [`NOTE`].

use std::collections::{BTreeMap, HashMap};
use std::ffi::OsString;
use std::path::Path;

use legalis_ir as ir;
use legalis_legalize::Family;
use legalis_legalize::metal::{Leaf, MeshShape, Metal, Plan, Target};
use legalis_sysval::{BuiltinType, Direction};

/// What the report says of every Metal output that passes.
pub const NOTE: &str = "its entry-point signature was re-read and matches the legalization plan";

/// A parameter or struct member as written: `TYPE NAME [[ATTRIBUTE]]`,
/// or `TYPE NAME [[raster_order_group(0)]] [[ATTRIBUTE]]` for a
/// rasterizer-ordered resource.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Declared {
    pub ty: String,
    pub name: String,
    /// The text inside the last `[[...]]`, when there is one.
    pub attribute: Option<String>,
    /// `raster_order_group(N)`, when the parameter has it.
    pub raster_order_group: Option<String>,
}

/// An MSL entry point's signature and the structs of the text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Signature {
    /// `vertex`, `fragment`, `kernel`, `object` or `mesh`.
    pub qualifier: String,
    pub result: String,
    pub name: String,
    pub params: Vec<Declared>,
    pub structs: HashMap<String, Vec<Declared>>,
}

/// Reads the one `[[vertex]]`/`[[fragment]]`/`[[kernel]]`/`[[object]]`/
/// `[[mesh]]` function's
/// signature and every struct of `text`.
pub fn read(text: &str) -> Result<Signature, String> {
    let mut signatures = read_all(text)?;
    if signatures.len() > 1 {
        return Err("more than one attributed function".into());
    }
    signatures.pop().ok_or_else(|| {
        "no [[vertex]], [[fragment]], [[kernel]], [[object]] or [[mesh]] function".into()
    })
}

/// Reads the signature of every attributed function of `text` (a
/// translation unit of several entry points has one each), in text
/// order, each with every struct of the text.
pub fn read_all(text: &str) -> Result<Vec<Signature>, String> {
    let mut structs = HashMap::new();
    let mut lines = text.lines();
    let mut entries = Vec::new();
    while let Some(line) = lines.next() {
        if let Some(name) = line.strip_prefix("struct ") {
            let mut members = Vec::new();
            for member in lines.by_ref() {
                let member = member.trim();
                if member == "{" {
                    continue;
                }
                if member == "};" {
                    break;
                }
                let member = member
                    .strip_suffix(';')
                    .ok_or_else(|| format!("struct `{name}`: cannot read `{member}`"))?;
                members.push(declared(member)?);
            }
            structs.insert(name.trim().to_string(), members);
        } else if line.starts_with("[[") && line.contains('(') {
            entries.push(line);
        }
    }
    entries
        .into_iter()
        .map(|line| signature(line, &structs))
        .collect()
}

/// The signature on the attributed function's first line `line`.
fn signature(line: &str, structs: &HashMap<String, Vec<Declared>>) -> Result<Signature, String> {
    // A fragment function's `[[early_fragment_tests]]` comes before its
    // stage qualifier.
    let line = line
        .strip_prefix("[[early_fragment_tests]] ")
        .unwrap_or(line);
    let rest = line.strip_prefix("[[").unwrap_or(line);
    let (qualifier, rest) = rest
        .split_once("]] ")
        .ok_or("a malformed stage qualifier")?;
    let (head, params) = rest
        .split_once('(')
        .ok_or("a signature without parameters")?;
    let params = params
        .strip_suffix(')')
        .ok_or("a signature that does not end its parameter list on its line")?;
    let (result, name) = head
        .rsplit_once(' ')
        .ok_or("a signature without a result type")?;
    let params = split_top_level(params)
        .iter()
        .filter(|p| !p.is_empty())
        .map(|p| declared(p))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Signature {
        qualifier: qualifier.to_string(),
        result: result.to_string(),
        name: name.to_string(),
        params,
        structs: structs.clone(),
    })
}

/// `TYPE NAME [[ATTRIBUTE]]` or `TYPE NAME`, with a
/// `[[raster_order_group(N)]]` before the attribute where there is one.
fn declared(text: &str) -> Result<Declared, String> {
    let text = text.trim();
    // `float d [[clip_distance]] [2]`: a C array's extent follows the
    // attribute; the type read is `float[2]`.
    let (text, extent) = match text.rsplit_once("]] [") {
        Some((head, tail)) if !tail.starts_with('[') => {
            let n = tail
                .strip_suffix(']')
                .ok_or_else(|| format!("an unterminated extent in `{text}`"))?;
            (&text[..head.len() + 2], Some(n))
        }
        _ => (text, None),
    };
    let (decl, mut attribute) = match text.split_once(" [[") {
        Some((decl, attr)) => {
            let attr = attr
                .strip_suffix("]]")
                .ok_or_else(|| format!("an unterminated attribute in `{text}`"))?;
            (decl, Some(attr.to_string()))
        }
        None => (text, None),
    };
    let mut raster_order_group = None;
    if let Some((group, rest)) = attribute.as_deref().and_then(|a| a.split_once("]] [[")) {
        if !group.starts_with("raster_order_group(") {
            return Err(format!("two attributes in `{text}`"));
        }
        raster_order_group = Some(group.to_string());
        attribute = Some(rest.to_string());
    }
    let (ty, name) = decl
        .rsplit_once(' ')
        .ok_or_else(|| format!("no type and name in `{text}`"))?;
    let ty = match extent {
        Some(n) => format!("{ty}[{n}]"),
        None => ty.to_string(),
    };
    Ok(Declared {
        ty,
        name: name.to_string(),
        attribute,
        raster_order_group,
    })
}

/// Splits at commas outside `<...>`, `(...)` and `[[...]]`.
fn split_top_level(text: &str) -> Vec<String> {
    let mut parts = vec![String::new()];
    let mut depth = 0i32;
    for c in text.chars() {
        match c {
            '<' | '(' | '[' => depth += 1,
            '>' | ')' | ']' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(String::new());
                continue;
            }
            _ => {}
        }
        if let Some(last) = parts.last_mut() {
            last.push(c);
        }
    }
    parts.iter().map(|p| p.trim().to_string()).collect()
}

/// `(attribute, MSL type)` pairs, sorted, as the plan expects them.
fn expected(
    plan: &Plan,
    module: &ir::Module,
    direction: Direction,
) -> Result<Vec<(String, String)>, String> {
    let attributes: BTreeMap<String, String> =
        plan.expected_attributes(direction).into_iter().collect();
    let leaves = plan
        .leaves
        .iter()
        .filter(|l| l.direction == direction && l.mesh.is_none());
    pairs_of(leaves, &attributes, module)
}

/// `(attribute, MSL type)` pairs of the `leaves` that have an attribute
/// in `attributes`, sorted: the clip distances one `float[N]` of the
/// elements they fill.
fn pairs_of<'a>(
    leaves: impl Iterator<Item = &'a Leaf>,
    attributes: &BTreeMap<String, String>,
    module: &ir::Module,
) -> Result<Vec<(String, String)>, String> {
    let mut out = Vec::new();
    let mut gathered: BTreeMap<String, u32> = BTreeMap::new();
    for leaf in leaves {
        let Some(attribute) = attributes.get(&leaf.name) else {
            continue;
        };
        if let Target::BuiltIn {
            element: Some(first),
            ..
        } = leaf.target
        {
            let end = first + element_count(module, leaf.ty);
            let len = gathered.entry(attribute.clone()).or_default();
            *len = (*len).max(end);
            continue;
        }
        out.push((attribute.clone(), leaf_type(leaf, module)?));
    }
    out.extend(
        gathered
            .into_iter()
            .map(|(a, n)| (a, format!("float[{n}]"))),
    );
    out.sort();
    Ok(out)
}

/// How many scalars a value of `ty` holds: an array's elements, a
/// vector's components, or 1.
fn element_count(module: &ir::Module, ty: ir::Handle<ir::Type>) -> u32 {
    match module.types.try_get(ty).map(|t| &t.inner) {
        Some(ir::TypeInner::Array {
            size: ir::ArraySize::Constant(n),
            ..
        }) => *n,
        Some(ir::TypeInner::Vector { size, .. }) => u32::from(*size),
        _ => 1,
    }
}

/// The MSL type a leaf has at the interface: the attribute's own, or the
/// declared one.
fn leaf_type(leaf: &Leaf, module: &ir::Module) -> Result<String, String> {
    match &leaf.target {
        Target::BuiltIn { row, .. } if !row.by_index => builtin_type(row.ty),
        _ => declared_type(module, leaf.ty),
    }
}

/// `(attribute, MSL type)` pairs of a mesh function's vertex or primitive
/// struct, sorted, as the plan expects them (B21).
fn expected_mesh(
    plan: &Plan,
    module: &ir::Module,
    kind: ir::MeshOutputKind,
) -> Result<Vec<(String, String)>, String> {
    let attributes: BTreeMap<String, String> = plan.mesh_attributes(kind).into_iter().collect();
    let leaves = plan.leaves.iter().filter(|l| l.mesh == Some(kind));
    pairs_of(leaves, &attributes, module)
}

/// `metal::mesh<V, P, NV, NP, metal::topology::T>`: its five arguments.
fn mesh_arguments(ty: &str) -> Option<Vec<String>> {
    let inner = ty.strip_prefix("metal::mesh<")?.strip_suffix('>')?;
    let parts = split_top_level(inner);
    (parts.len() == 5).then_some(parts)
}

/// Compares a mesh function's `metal::mesh` parameter with the plan: the
/// counts, the topology, and the vertex and primitive structs' members.
fn compare_mesh(
    signature: &Signature,
    ty: &str,
    shape: &MeshShape,
    plan: &Plan,
    module: &ir::Module,
    problems: &mut Vec<String>,
) -> Result<(), String> {
    let Some(args) = mesh_arguments(ty) else {
        problems.push(format!("cannot read the mesh type `{ty}`"));
        return Ok(());
    };
    let want = [
        shape.vertices.to_string(),
        shape.primitives.to_string(),
        format!("metal::topology::{}", shape.topology),
    ];
    if args[2..] != want {
        problems.push(format!(
            "the mesh is `{ty}`, the plan has {} vertices, {} primitives, {} topology",
            shape.vertices, shape.primitives, shape.topology
        ));
    }
    for (arg, kind) in [
        (&args[0], ir::MeshOutputKind::Vertices),
        (&args[1], ir::MeshOutputKind::Primitives),
    ] {
        let want = expected_mesh(plan, module, kind)?;
        let have = if arg == "void" {
            Vec::new()
        } else {
            match signature.structs.get(arg) {
                Some(members) => pairs(&members.iter().collect::<Vec<_>>()),
                None => {
                    problems.push(format!("the mesh's `{arg}` is not a struct of the text"));
                    continue;
                }
            }
        };
        if want != have {
            problems.push(format!(
                "mesh {kind:?} (attribute, type): the plan has {want:?}, the signature {have:?}"
            ));
        }
    }
    Ok(())
}

fn scalar_name(s: ir::Scalar) -> Result<&'static str, String> {
    use ir::ScalarKind as K;
    Ok(match (s.kind, s.width) {
        (K::Bool, _) => "bool",
        (K::Sint, 2) => "short",
        (K::Sint, 4) => "int",
        (K::Uint, 2) => "ushort",
        (K::Uint, 4) => "uint",
        (K::Float, 2) => "half",
        (K::Float, 4) => "float",
        _ => return Err(format!("no MSL varying type for `{}`", s.name())),
    })
}

fn builtin_type(ty: BuiltinType) -> Result<String, String> {
    match ty {
        BuiltinType::Scalar(s) => Ok(scalar_name(s)?.to_string()),
        BuiltinType::Vector(s, n) => Ok(format!("{}{n}", scalar_name(s)?)),
        BuiltinType::Array(..) => Err("an array attribute".into()),
    }
}

fn declared_type(module: &ir::Module, ty: ir::Handle<ir::Type>) -> Result<String, String> {
    match module.types.try_get(ty).map(|t| &t.inner) {
        Some(ir::TypeInner::Scalar(s)) => Ok(scalar_name(*s)?.to_string()),
        Some(ir::TypeInner::Vector { size, scalar }) => {
            Ok(format!("{}{size}", scalar_name(*scalar)?))
        }
        _ => Err("a varying that is not a scalar or vector".into()),
    }
}

fn pairs(items: &[&Declared]) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = items
        .iter()
        .map(|d| (d.attribute.clone().unwrap_or_default(), d.ty.clone()))
        .collect();
    out.sort();
    out
}

fn is_resource_attribute(attribute: &str) -> bool {
    ["buffer(", "texture(", "sampler("]
        .iter()
        .any(|p| attribute.starts_with(p))
}

/// Compares the signature with the plan: stage, inputs, outputs, and the
/// address space and table index of every resource argument.
pub fn compare(signature: &Signature, plan: &Plan, module: &ir::Module) -> Result<(), String> {
    let mut problems = Vec::new();
    let qualifier = match plan.stage {
        ir::ShaderStage::Vertex => "vertex",
        ir::ShaderStage::Fragment => "fragment",
        ir::ShaderStage::Compute => "kernel",
        ir::ShaderStage::Amplification => "object",
        ir::ShaderStage::Mesh => "mesh",
        other => return Err(format!("the plan is for a {} entry point", other.name())),
    };
    if signature.qualifier != qualifier {
        problems.push(format!(
            "the function is [[{}]], the plan is for [[{qualifier}]]",
            signature.qualifier
        ));
    }
    // Inputs: the stage-in struct's members and the attributed parameters.
    let mut inputs: Vec<&Declared> = Vec::new();
    let mut tables: BTreeMap<String, String> = BTreeMap::new();
    let (mut meshes, mut grids, mut payloads) = (0, 0, 0);
    for p in &signature.params {
        // B21: the mesh object and the grid properties take no attribute.
        if p.attribute.is_none() && p.ty.starts_with("metal::mesh<") {
            meshes += 1;
            match &plan.extra.shape {
                Some(shape) => compare_mesh(signature, &p.ty, shape, plan, module, &mut problems)?,
                None => problems.push(format!("the plan has no mesh, the signature `{}`", p.ty)),
            }
            continue;
        }
        if p.attribute.is_none() && p.ty == "mesh_grid_properties" {
            grids += 1;
            continue;
        }
        let Some(attribute) = p.attribute.as_deref() else {
            problems.push(format!("the parameter `{}` has no attribute", p.name));
            continue;
        };
        if attribute == "payload" {
            payloads += 1;
            let (space, payload) = match plan.stage {
                ir::ShaderStage::Mesh => (
                    "const object_data ",
                    plan.leaves
                        .iter()
                        .find(|l| l.target == Target::Payload)
                        .map(|l| ir::print::type_name(module, l.ty)),
                ),
                _ => ("object_data ", plan.extra.object_payload.clone()),
            };
            let pointee = p.ty.strip_prefix(space).and_then(|t| t.strip_suffix('*'));
            match (pointee, payload) {
                (Some(t), Some(want))
                    if signature.structs.contains_key(t) && t.starts_with(&want) => {}
                (_, want) => problems.push(format!(
                    "the payload `{} {}` is not `{space}{}*`",
                    p.ty,
                    p.name,
                    want.unwrap_or_else(|| "(no payload in the plan)".into())
                )),
            }
            continue;
        }
        if let Some(index) = attribute
            .strip_prefix("color(")
            .and_then(|rest| rest.strip_suffix(')'))
            .and_then(|n| n.parse::<u32>().ok())
            && plan.stage == ir::ShaderStage::Fragment
        {
            // A subpass input read by framebuffer fetch: a subpass-input
            // global of the module at that attachment index, of that type.
            let matches = module.globals.iter().any(|(_, g)| {
                matches!(
                    module.types[g.ty].inner,
                    ir::TypeInner::SubpassInput { texel, .. }
                        if g.binding.input_attachment_index.unwrap_or(0) == index
                            && ir::print::type_name(module, texel) == p.ty
                )
            });
            if !matches {
                problems.push(format!(
                    "`{} {}` [[{attribute}]] is no subpass input of the module",
                    p.ty, p.name
                ));
            }
            if let Some(other) = tables.insert(attribute.to_string(), p.name.clone()) {
                problems.push(format!("`{other}` and `{}` share [[{attribute}]]", p.name));
            }
            continue;
        }
        if attribute == "stage_in" {
            match signature.structs.get(&p.ty) {
                Some(members) => inputs.extend(members.iter()),
                None => problems.push(format!("no struct `{}` for [[stage_in]]", p.ty)),
            }
        } else if is_resource_attribute(attribute) {
            if let Some(other) = tables.insert(attribute.to_string(), p.name.clone()) {
                problems.push(format!("`{other}` and `{}` share [[{attribute}]]", p.name));
            }
            let space_ok = match attribute.split('(').next() {
                Some("buffer") => {
                    (p.ty.starts_with("constant ") && p.ty.ends_with('&'))
                        || ((p.ty.starts_with("device ") || p.ty.starts_with("const device "))
                            && (p.ty.ends_with('*') || p.ty.ends_with('&')))
                }
                Some("texture") => p.ty.starts_with("texture") || p.ty.starts_with("depth"),
                _ => p.ty == "sampler",
            };
            if !space_ok {
                problems.push(format!(
                    "`{}` of type `{}` cannot be bound at [[{attribute}]]",
                    p.name, p.ty
                ));
            }
        } else {
            inputs.push(p);
        }
    }
    let want_meshes = usize::from(plan.extra.shape.is_some());
    let want_grids = usize::from(plan.extra.object_payload.is_some());
    let want_payloads = want_grids
        + plan
            .leaves
            .iter()
            .filter(|l| l.target == Target::Payload)
            .count();
    if (meshes, grids, payloads) != (want_meshes, want_grids, want_payloads) {
        problems.push(format!(
            "mesh, grid and payload parameters: the plan has {:?}, the signature {:?}",
            (want_meshes, want_grids, want_payloads),
            (meshes, grids, payloads)
        ));
    }
    let want_in = expected(plan, module, Direction::Input)?;
    let have_in = pairs(&inputs);
    if want_in != have_in {
        problems.push(format!(
            "inputs (attribute, type): the plan has {want_in:?}, the signature {have_in:?}"
        ));
    }
    let want_out = expected(plan, module, Direction::Output)?;
    let have_out = if signature.result == "void" {
        Vec::new()
    } else {
        match signature.structs.get(&signature.result) {
            Some(members) => pairs(&members.iter().collect::<Vec<_>>()),
            None => {
                problems.push(format!(
                    "the result `{}` is not a struct of the text",
                    signature.result
                ));
                Vec::new()
            }
        }
    };
    if want_out != have_out {
        problems.push(format!(
            "outputs (attribute, type): the plan has {want_out:?}, the signature {have_out:?}"
        ));
    }
    let name = legalis_emit::metal::entry_point_name(&plan.entry);
    if signature.name != name {
        problems.push(format!(
            "the function is `{}`, the entry point `{}` is `{name}` in MSL",
            signature.name, plan.entry
        ));
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(problems.join("\n"))
    }
}

/// Re-reads `output` (Legalis's MSL for `file` compiled with `args`) and
/// compares it with the plan; the note for the report when it matches.
pub fn check(file: &Path, args: &[String], output: &str) -> Result<String, String> {
    let mut arguments: Vec<OsString> = vec![file.as_os_str().to_os_string()];
    arguments.extend(args.iter().map(OsString::from));
    let compile = match legalis_cli::args::parse(arguments) {
        Ok(legalis_cli::args::Command::Compile(compile)) => compile,
        Ok(_) => return Err("the directive is not a compilation".into()),
        Err(e) => return Err(format!("the directive's arguments: {}", e.0)),
    };
    let source = std::fs::read(file).map_err(|e| format!("cannot read {}: {e}", file.display()))?;
    // Several `-entry`: one translation unit of them.
    let chosen: Vec<String> = match compile.linked.is_empty() {
        true => Vec::new(),
        false => compile
            .entry
            .iter()
            .chain(&compile.linked)
            .cloned()
            .collect(),
    };
    let mut request = legalis::Request::builder(file.display().to_string(), source)
        .policy(compile.policy)
        .bindings(compile.bindings.clone())
        .allow_glsl(compile.allow_glsl)
        .build();
    request.entry = compile.entry.clone().filter(|_| chosen.is_empty());
    request.stage = compile.stage;
    request.defines = compile.defines.clone();
    request.conformances = compile.conformances.clone();
    // A linked pipeline: each stage's MSL on its own, as the stage alone
    // is legalized (Metal links by the `[[user(...)]]` names the
    // semantics give both sides).
    let stages = crate::legalis::linked_entries(output);
    if !chosen.is_empty() && !stages.is_empty() {
        for (entry, stage, code) in &stages {
            check_entries(&request, std::slice::from_ref(entry), code)
                .map_err(|e| format!("{stage}: {e}"))?;
        }
        return Ok(NOTE.to_string());
    }
    check_entries(&request, &chosen, output)
}

/// [`check`] for a request already made (the corpus test's): the plan
/// comes from the front end and the Metal legalizer on the same source,
/// entry point, stage, defines and policy.
pub fn check_request(request: &legalis::Request, output: &str) -> Result<String, String> {
    check_entries(request, &[], output)
}

/// [`check_request`] for the entry points `chosen` of the file (several
/// `-entry`; none: the request's own, or every entry point of the file
/// without `-entry`). A translation unit of several entry points has one
/// signature each, compared with its own plan, and its resource arguments
/// with the places the one binding plan of them all gives the resources
/// it reaches.
fn check_entries(
    request: &legalis::Request,
    chosen: &[String],
    output: &str,
) -> Result<String, String> {
    let mut request = request.clone();
    request.target = None;
    let compiled = legalis::compile(&request);
    let mut module = compiled.module.ok_or("the front end rejects the file")?;
    if !chosen.is_empty() {
        let mut subset = Vec::new();
        for name in chosen {
            let entry = module.entry_points.iter().find(|e| &e.name == name);
            subset.push(entry.cloned().ok_or(format!("no entry point `{name}`"))?);
        }
        module.entry_points = subset;
    }
    if module.entry_points.len() > 1 {
        return check_several(&request, &module, output);
    }
    // The legalizer has inlined resource arguments (they read their
    // globals) and split the blocks that hold resources, as the facade
    // plans after it.
    let legalized = Metal::legalize(&module, 0, &request.policy)
        .map_err(|e| format!("the Metal legalizer rejects the file: {e:?}"))?;
    let signature = read(output)?;
    compare(&signature, &legalized.plan, &legalized.module)?;
    let bindings = legalis_bind::plan(
        &legalized.module,
        0,
        legalis_bind::Target::Metal,
        &request.bindings,
    );
    compare_bindings(&signature, &bindings.plan)?;
    Ok(NOTE.to_string())
}

/// [`check_entries`] for a module of several entry points.
fn check_several(
    request: &legalis::Request,
    module: &ir::Module,
    output: &str,
) -> Result<String, String> {
    let all = Metal::legalize_all_unverified(module, &request.policy)
        .map_err(|e| format!("the Metal legalizer rejects the file: {e:?}"))?;
    Metal::verify(&all.module, module.entry_points[0].span)
        .map_err(|e| format!("the Metal legalizer leaves an invalid module: {e:?}"))?;
    let signatures = read_all(output)?;
    if signatures.len() != all.plans.len() {
        return Err(format!(
            "{} attributed functions for {} entry points",
            signatures.len(),
            all.plans.len()
        ));
    }
    let entries: Vec<usize> = (0..all.plans.len()).collect();
    let bindings = legalis_bind::plan_entries(
        &all.module,
        &entries,
        legalis_bind::Target::Metal,
        &request.bindings,
    );
    for (k, plan) in all.plans.iter().enumerate() {
        let name = legalis_emit::metal::entry_point_name(&plan.entry);
        let signature = signatures
            .iter()
            .find(|s| s.name == name)
            .ok_or_else(|| format!("no attributed function `{name}`"))?;
        let reached = legalis_bind::reached_globals(&all.module, k);
        let reaches = |r: &legalis_bind::Resource| match r.global {
            Some(g) => reached.contains(&g),
            None => reached
                .iter()
                .any(|&g| legalis_bind::is_plain_uniform(&all.module, &all.module.globals[g])),
        };
        compare(signature, plan, &all.module)
            .and_then(|()| compare_places(signature, &bindings.plan, reaches))
            .map_err(|e| format!("`{name}`: {e}"))?;
    }
    Ok(NOTE.to_string())
}

/// The `[[buffer(n)]]`, `[[texture(n)]]` and `[[sampler(n)]]` parameters
/// of the signature must be exactly the places the binding plan gives the
/// resources the entry point uses.
pub fn compare_bindings(signature: &Signature, plan: &legalis_bind::Plan) -> Result<(), String> {
    compare_places(signature, plan, |_| true)
}

/// [`compare_bindings`] for the resources of `plan` that `reaches` keeps:
/// those one entry point of several reaches.
fn compare_places(
    signature: &Signature,
    plan: &legalis_bind::Plan,
    reaches: impl Fn(&legalis_bind::Resource) -> bool,
) -> Result<(), String> {
    // A rasterizer-ordered resource is in raster order group 0.
    let mut planned: Vec<String> = plan
        .resources
        .iter()
        .filter(|r| reaches(r))
        .filter_map(|r| match r.place {
            legalis_bind::Place::Metal { table, index } => {
                let group = match r.ty.starts_with("RasterizerOrdered") {
                    true => "raster_order_group(0) ",
                    false => "",
                };
                Some(format!("{group}{}({index})", table.attribute()))
            }
            _ => None,
        })
        .collect();
    let mut declared: Vec<String> = signature
        .params
        .iter()
        .filter_map(|p| {
            let attribute = p.attribute.as_deref()?;
            let group = p.raster_order_group.as_deref().map(|g| format!("{g} "));
            Some(format!("{}{attribute}", group.unwrap_or_default()))
        })
        .filter(|a| {
            let a = a.trim_start_matches("raster_order_group(0) ");
            ["buffer(", "texture(", "sampler("]
                .iter()
                .any(|t| a.starts_with(t))
        })
        .collect();
    planned.sort();
    declared.sort();
    match planned == declared {
        true => Ok(()),
        false => Err(format!(
            "the resource parameters are at {declared:?}; the binding plan says {planned:?}"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: &str = "struct fs_in\n{\n    float2 uv [[user(UV)]];\n};\n\n\
        struct fsOutput\n{\n    float4 c [[color(0)]];\n};\n\n\
        [[fragment]] fsOutput fs(fs_in stage_input [[stage_in]], float4 p [[position]], \
        texture2d<float, access::read_write> t [[texture(0)]], constant G& g [[buffer(1)]])\n{\n}\n";

    #[test]
    fn reads_the_signature_and_structs() {
        let s = read(TEXT).unwrap();
        assert_eq!(s.qualifier, "fragment");
        assert_eq!(s.result, "fsOutput");
        assert_eq!(s.params.len(), 4);
        assert_eq!(s.params[2].ty, "texture2d<float, access::read_write>");
        assert_eq!(s.params[3].attribute.as_deref(), Some("buffer(1)"));
        assert_eq!(s.structs["fs_in"][0].attribute.as_deref(), Some("user(UV)"));
    }

    #[test]
    fn every_attributed_function_of_a_translation_unit_is_read() {
        let text = format!(
            "{TEXT}[[kernel]] void cs(uint3 id [[thread_position_in_grid]], \
             device uint* b [[raster_order_group(0)]] [[buffer(0)]])\n{{\n}}\n"
        );
        let all = read_all(&text).unwrap();
        assert_eq!(all.len(), 2);
        assert_eq!((all[0].name.as_str(), all[1].name.as_str()), ("fs", "cs"));
        // Each sees every struct of the text.
        assert!(all[1].structs.contains_key("fs_in"));
        let b = &all[1].params[1];
        assert_eq!(b.attribute.as_deref(), Some("buffer(0)"));
        assert_eq!(
            b.raster_order_group.as_deref(),
            Some("raster_order_group(0)")
        );
        // `read` wants exactly one.
        assert!(read(&text).is_err());
        assert!(read("[[kernel]] void cs(uint b [[a]] [[buffer(0)]])\n").is_err());
    }

    #[test]
    fn malformed_signatures_are_errors() {
        assert!(read("void f() {}").is_err());
        assert!(read("[[vertex]] V f(float4 p [[position)\n").is_err());
        assert!(read("struct S\n{\n    float x\n};\n").is_err());
    }

    fn plan_for(src: &str, stage: ir::ShaderStage) -> (Plan, ir::Module) {
        let options = legalis_front::Options {
            entry: Some("fs".into()),
            stage: Some(stage),
            ..Default::default()
        };
        let module = legalis_front::compile(src, &options).module.unwrap();
        let l = Metal::legalize(&module, 0, &ir::Policy::default()).unwrap();
        (l.plan, l.module)
    }

    #[test]
    fn a_matching_signature_passes_and_each_mismatch_is_named() {
        let (plan, module) = plan_for(
            "float4 fs(float4 p : SV_Position, float2 uv : UV) : SV_Target { return p + uv.x; }",
            ir::ShaderStage::Fragment,
        );
        let s = read(TEXT).unwrap();
        compare(&s, &plan, &module).unwrap();

        let wrong_attribute = TEXT.replace("[[position]]", "[[sample_id]]");
        let e = compare(&read(&wrong_attribute).unwrap(), &plan, &module).unwrap_err();
        assert!(e.contains("inputs"), "{e}");
        let wrong_space = TEXT.replace("constant G& g", "thread G& g");
        let e = compare(&read(&wrong_space).unwrap(), &plan, &module).unwrap_err();
        assert!(e.contains("cannot be bound at [[buffer(1)]]"), "{e}");
        let wrong_type = TEXT.replace("float4 c [[color(0)]]", "int4 c [[color(0)]]");
        let e = compare(&read(&wrong_type).unwrap(), &plan, &module).unwrap_err();
        assert!(e.contains("outputs"), "{e}");
        let shared = TEXT.replace("[[buffer(1)]]", "[[texture(0)]]");
        let e = compare(&read(&shared).unwrap(), &plan, &module).unwrap_err();
        assert!(e.contains("share [[texture(0)]]"), "{e}");
        let stage = TEXT.replace("[[fragment]]", "[[vertex]]");
        let e = compare(&read(&stage).unwrap(), &plan, &module).unwrap_err();
        assert!(e.contains("[[vertex]]"), "{e}");
    }
}

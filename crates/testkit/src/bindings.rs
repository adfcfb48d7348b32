//! The round-trip binding check: the descriptor `(set, binding)` pairs a
//! GLSL, SPIR-V or WGSL output declares, read back from SPIR-V with rspirv
//! (GLSL through glslang) or from naga's module, must be the ones the
//! binding plan (`-dump-bindings=json`, schema `legalis-bindings/1`)
//! promises: every resource the entry point uses is there at its place,
//! nothing is at a place the plan gives no resource, and a variable named
//! like a resource of the plan sits at that resource's place.

use std::collections::{BTreeMap, BTreeSet};

use rspirv::dr::Operand;
use serde_json::Value;
use spirv::{Decoration, Op};

/// The schema name the plan must carry.
pub const SCHEMA: &str = "legalis-bindings/1";

/// A declared binding: the variable's name when the output has one, and
/// its `(set, binding)`.
pub type Declared = (Option<String>, (u32, u32));

/// What the plan promises.
#[derive(Debug, Default)]
pub struct Expected {
    /// Places of the resources the entry point uses.
    pub used: BTreeSet<(u32, u32)>,
    /// Places of every resource of the plan.
    pub all: BTreeSet<(u32, u32)>,
    /// Places of the resources of each name (several descriptor heaps of
    /// `DescriptorHandle`s share one name).
    pub by_name: BTreeMap<String, BTreeSet<(u32, u32)>>,
}

fn field<'a>(value: &'a Value, key: &str, at: &str) -> Result<&'a Value, String> {
    value.get(key).ok_or(format!("{at}: no `{key}`"))
}

fn number(value: &Value, key: &str, at: &str) -> Result<u32, String> {
    field(value, key, at)?
        .as_u64()
        .and_then(|n| u32::try_from(n).ok())
        .ok_or(format!("{at}: `{key}` is not a number"))
}

/// Reads a `-dump-bindings=json` document, checking its shape.
pub fn expected(dump: &str) -> Result<Expected, String> {
    let doc: Value = serde_json::from_str(dump).map_err(|e| format!("not JSON: {e}"))?;
    let schema = field(&doc, "schema", "the document")?;
    if schema != SCHEMA {
        return Err(format!("schema {schema}, expected {SCHEMA}"));
    }
    for key in ["target", "entry", "stage"] {
        field(&doc, key, "the document")?
            .as_str()
            .ok_or(format!("`{key}` is not a string"))?;
    }
    let resources = field(&doc, "resources", "the document")?
        .as_array()
        .ok_or("`resources` is not an array")?;
    let mut out = Expected::default();
    for (i, r) in resources.iter().enumerate() {
        let at = format!("resource {i}");
        let name = field(r, "name", &at)?
            .as_str()
            .ok_or(format!("{at}: bad name"))?;
        for key in ["kind", "type", "class", "reason"] {
            field(r, key, &at)?
                .as_str()
                .ok_or(format!("{at}: `{key}` is not a string"))?;
        }
        let used = field(r, "used", &at)?
            .as_bool()
            .ok_or(format!("{at}: `used` is not a boolean"))?;
        let place = field(r, "place", &at)?;
        if place.is_null() {
            continue;
        }
        if place.get("set").is_some() {
            let pair = (number(place, "set", &at)?, number(place, "binding", &at)?);
            out.all.insert(pair);
            if used {
                out.used.insert(pair);
            }
            out.by_name
                .entry(name.to_string())
                .or_default()
                .insert(pair);
        } else if place.get("metal").is_none()
            && place.get("kernel_parameter").is_none()
            && place.get("launch_params_member").is_none()
        {
            return Err(format!("{at}: unknown place {place}"));
        }
    }
    Ok(out)
}

/// `(name, (set, binding))` of every variable with a descriptor set.
pub fn read_spirv(words: &[u32]) -> Result<Vec<Declared>, String> {
    let words = crate::interface::without_execution_mode_ids(words);
    let module = rspirv::dr::load_words(&words).map_err(|e| format!("rspirv: {e}"))?;
    let mut sets: BTreeMap<u32, u32> = BTreeMap::new();
    let mut bindings: BTreeMap<u32, u32> = BTreeMap::new();
    for inst in &module.annotations {
        if inst.class.opcode != Op::Decorate {
            continue;
        }
        if let [
            Operand::IdRef(id),
            Operand::Decoration(d),
            Operand::LiteralBit32(n),
            ..,
        ] = inst.operands.as_slice()
        {
            match d {
                Decoration::DescriptorSet => sets.insert(*id, *n),
                Decoration::Binding => bindings.insert(*id, *n),
                _ => None,
            };
        }
    }
    let names: BTreeMap<u32, String> = module
        .debug_names
        .iter()
        .filter(|i| i.class.opcode == Op::Name)
        .filter_map(|i| match i.operands.as_slice() {
            [Operand::IdRef(id), Operand::LiteralString(name)] => Some((*id, name.clone())),
            _ => None,
        })
        .collect();
    Ok(bindings
        .iter()
        .map(|(id, binding)| {
            let set = sets.get(id).copied().unwrap_or(0);
            (names.get(id).cloned(), (set, *binding))
        })
        .collect())
}

/// `(name, (group, binding))` of every WGSL global with a binding.
pub fn read_wgsl(module: &naga::Module) -> Vec<Declared> {
    module
        .global_variables
        .iter()
        .filter_map(|(_, g)| {
            let b = g.binding.as_ref()?;
            Some((g.name.clone(), (b.group, b.binding)))
        })
        .collect()
}

/// Compares the places an output declares with the plan's.
pub fn compare(found: &[Declared], expected: &Expected) -> Result<(), String> {
    let mut problems = Vec::new();
    let declared: BTreeSet<(u32, u32)> = found.iter().map(|(_, p)| *p).collect();
    for pair in expected.used.difference(&declared) {
        problems.push(format!(
            "the plan places a used resource at set {}, binding {}; the output declares nothing there",
            pair.0, pair.1
        ));
    }
    for (name, pair) in found {
        if !expected.all.contains(pair) {
            problems.push(format!(
                "the output declares {} at set {}, binding {}, where the plan has no resource",
                name.as_deref().unwrap_or("a variable"),
                pair.0,
                pair.1
            ));
        }
        if let Some(name) = name
            && let Some(planned) = expected.by_name.get(name)
            && !planned.contains(pair)
        {
            let places: Vec<String> = planned
                .iter()
                .map(|(set, binding)| format!("set {set}, binding {binding}"))
                .collect();
            problems.push(format!(
                "`{name}` is at set {}, binding {}; the plan says {}",
                pair.0,
                pair.1,
                places.join(" or ")
            ));
        }
    }
    match problems.is_empty() {
        true => Ok(()),
        false => Err(problems.join("\n")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const DUMP: &str = r#"{"schema": "legalis-bindings/1", "target": "glsl", "entry": "main",
        "stage": "compute", "resources": [
        {"name": "a", "kind": "texture", "type": "Texture2D<float4>", "count": 1, "class": "t",
         "register": null, "vk_binding": null, "used": true, "place": {"set": 0, "binding": 1},
         "reason": "automatic"},
        {"name": "b", "kind": "texture", "type": "Texture2D<float4>", "count": 1, "class": "t",
         "register": null, "vk_binding": null, "used": false, "place": {"set": 0, "binding": 2},
         "reason": "automatic"}]}"#;

    #[test]
    fn the_plan_must_match_the_declared_bindings() {
        let expected = expected(DUMP).unwrap();
        let named = |n: &str, p| (Some(n.to_string()), p);
        compare(&[named("a", (0, 1))], &expected).unwrap();
        compare(&[named("a", (0, 1)), named("b", (0, 2))], &expected).unwrap();
        let missing = compare(&[named("b", (0, 2))], &expected).unwrap_err();
        assert!(missing.contains("declares nothing there"), "{missing}");
        let stray = compare(&[named("a", (0, 1)), (None, (3, 0))], &expected).unwrap_err();
        assert!(stray.contains("where the plan has no resource"), "{stray}");
        let swapped = compare(&[named("a", (0, 2)), named("b", (0, 1))], &expected).unwrap_err();
        assert!(swapped.contains("`a` is at set 0, binding 2"), "{swapped}");
    }

    #[test]
    fn resources_that_share_a_name_may_be_at_any_of_their_places() {
        // The descriptor heaps of `DescriptorHandle`s: one name, one heap
        // per resource kind.
        let shared = DUMP.replace(r#""name": "b""#, r#""name": "a""#);
        let expected = expected(&shared).unwrap();
        let named = |n: &str, p| (Some(n.to_string()), p);
        compare(&[named("a", (0, 1)), named("a", (0, 2))], &expected).unwrap();
        let stray = compare(&[named("a", (0, 1)), named("a", (0, 3))], &expected).unwrap_err();
        assert!(
            stray.contains("the plan says set 0, binding 1 or set 0, binding 2"),
            "{stray}"
        );
    }

    #[test]
    fn a_dump_of_another_shape_is_refused() {
        assert!(expected("{}").is_err());
        assert!(expected(&DUMP.replace("legalis-bindings/1", "legalis-bindings/2")).is_err());
        assert!(expected(&DUMP.replace(r#""used": true"#, r#""used": 1"#)).is_err());
        assert!(expected(&DUMP.replace(r#"{"set": 0, "binding": 1}"#, r#"{"slot": 1}"#)).is_err());
    }
}

//! Applying the writer's naming [`Options`](super::Options) to a SPIR-V
//! module another compiler produced: `-emit-spirv-via-glsl` takes glslang's
//! module, whose entry point is always `main` and which names everything.

use rspirv::binary::Assemble;
use rspirv::dr::Operand;
use rspirv::spirv::Op;

use super::Error;

/// Renames the first `OpEntryPoint` (and its function's `OpName`) to
/// `entry_name` when given, and drops every `OpName`/`OpMemberName` when
/// `debug_names` is false. The header's version and generator are kept.
pub fn rename(
    words: &[u32],
    entry_name: Option<&str>,
    debug_names: bool,
) -> Result<Vec<u32>, Error> {
    let mut module = rspirv::dr::load_words(words).map_err(|e| Error::Internal {
        what: format!("cannot read the SPIR-V module: {e:?}"),
    })?;
    if let Some(name) = entry_name {
        let mut function = None;
        if let Some(entry) = module.entry_points.first_mut() {
            function = entry.operands.get(1).and_then(|o| match o {
                Operand::IdRef(id) => Some(*id),
                _ => None,
            });
            if let Some(literal @ Operand::LiteralString(_)) = entry.operands.get_mut(2) {
                *literal = Operand::LiteralString(name.to_string());
            }
        }
        for inst in &mut module.debug_names {
            let names_function = inst.class.opcode == Op::Name
                && function.is_some()
                && inst.operands.first() == function.map(Operand::IdRef).as_ref();
            if names_function && let Some(literal) = inst.operands.get_mut(1) {
                *literal = Operand::LiteralString(name.to_string());
            }
        }
    }
    if !debug_names {
        module
            .debug_names
            .retain(|inst| !matches!(inst.class.opcode, Op::Name | Op::MemberName));
    }
    let mut out = module.assemble();
    // The reader fills in a header of its own; keep the producer's version
    // and generator, so the module still says who made it.
    if let (Some(version), Some(generator)) = (words.get(1), words.get(2))
        && out.len() > 2
    {
        out[1] = *version;
        out[2] = *generator;
    }
    Ok(out)
}

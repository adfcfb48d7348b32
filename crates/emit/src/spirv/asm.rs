//! `spirv-asm`: readable SPIR-V assembly in the style of `spirv-dis`,
//! with ids named from debug names (`%gl_Position`, `%input_pos`, `%main`)
//! and from types and constants (`%float`, `%v4float`,
//! `%_ptr_Input_v4float`, `%int_0`, `%uint_64`). Names are assigned in
//! module order and made unique with `_1`, `_2` suffixes, so the text is
//! the same on every run; ids without a name keep their number (`%42`).

use legalis_ir::{FastHashMap, FastHashSet};
use std::fmt::Write as _;

use rspirv::dr::{Instruction, Module, Operand};
use rspirv::grammar::GLSL_STD_450_INSTRUCTION_TABLE;
use spirv::Op;

/// Disassembles `words`; invalid input gives a one-line comment.
pub fn disassemble(words: &[u32]) -> String {
    let module = match rspirv::dr::load_words(words) {
        Ok(m) => m,
        Err(e) => return format!("; not a SPIR-V module: {e:?}\n"),
    };
    let names = Namer::assign(&module);
    let mut out = String::new();
    // The header as written: the reader replaces the generator word with
    // its own, which would credit every module to rspirv.
    if let [_, version, generator, bound, ..] = *words {
        let (major, minor) = ((version >> 16) & 0xFF, (version >> 8) & 0xFF);
        writeln!(
            out,
            "; SPIR-V\n; Version: {major}.{minor}\n; Generator: {generator:#010x}\n; Bound: {bound}\n; Schema: 0",
        )
        .ok();
    }
    let types = module
        .types_global_values
        .iter()
        .filter_map(|inst| Some((inst.result_id?, inst)))
        .collect();
    let glsl_sets = module
        .ext_inst_imports
        .iter()
        .filter(|inst| {
            matches!(inst.operands.first(), Some(Operand::LiteralString(s)) if s == "GLSL.std.450")
        })
        .filter_map(|inst| inst.result_id)
        .collect();
    let printer = Printer {
        names: &names,
        types,
        glsl_sets,
    };
    // About 40 bytes a line.
    out.reserve(module.all_inst_iter().count() * 40);
    let mut text = String::new();
    for inst in module.all_inst_iter() {
        printer.line(inst, &mut text, &mut out);
    }
    out
}

/// Names of result ids.
struct Namer {
    names: FastHashMap<u32, String>,
    /// The names taken, `%` names being one scope; every base is already
    /// an identifier (`sanitize`, or made of type and value names).
    used: crate::namer::Namer,
    /// The value part of scalar constants (`0_5` of `%float_0_5`).
    values: FastHashMap<u32, String>,
    debug: FastHashMap<u32, String>,
    float_types: FastHashSet<u32>,
    signed_types: FastHashSet<u32>,
}

impl Namer {
    fn assign(module: &Module) -> FastHashMap<u32, String> {
        let mut n = Namer {
            names: FastHashMap::default(),
            used: crate::namer::Namer::new(RULES),
            values: FastHashMap::default(),
            debug: FastHashMap::default(),
            float_types: FastHashSet::default(),
            signed_types: FastHashSet::default(),
        };
        for inst in &module.debug_names {
            if let (Op::Name, Some(Operand::IdRef(id)), Some(Operand::LiteralString(s))) = (
                inst.class.opcode,
                inst.operands.first(),
                inst.operands.get(1),
            ) {
                n.debug.entry(*id).or_insert_with(|| sanitize(s));
            }
        }
        // Entry points claim their debug names first: `%main` is the
        // entry point even when a helper has the same source name.
        for inst in &module.entry_points {
            if let Some(Operand::IdRef(id)) = inst.operands.get(1)
                && let Some(d) = n.debug.get(id).cloned()
            {
                n.claim(*id, &d);
            }
        }
        for inst in module.all_inst_iter() {
            let Some(id) = inst.result_id else { continue };
            if n.names.contains_key(&id) {
                continue;
            }
            if let Some(base) = n.base_name(inst) {
                n.claim(id, &base);
            }
        }
        n.names
    }

    /// Names `id` after `base`, with the first free `_N` suffix.
    fn claim(&mut self, id: u32, base: &str) {
        let name = self.used.call_raw(base);
        self.names.insert(id, name);
    }

    fn name(&self, id: u32) -> String {
        self.names
            .get(&id)
            .cloned()
            .unwrap_or_else(|| id.to_string())
    }

    fn id_operand(inst: &Instruction, i: usize) -> u32 {
        match inst.operands.get(i) {
            Some(Operand::IdRef(id)) => *id,
            _ => 0,
        }
    }

    fn lit(inst: &Instruction, i: usize) -> u32 {
        match inst.operands.get(i) {
            Some(Operand::LiteralBit32(v)) => *v,
            _ => 0,
        }
    }

    fn base_name(&mut self, inst: &Instruction) -> Option<String> {
        let id = inst.result_id?;
        if let Some(d) = self.debug.get(&id) {
            return Some(d.clone());
        }
        let op = |i| self.name(Self::id_operand(inst, i));
        Some(match inst.class.opcode {
            Op::TypeVoid => "void".into(),
            Op::TypeBool => "bool".into(),
            Op::TypeInt => {
                let signed = Self::lit(inst, 1) == 1;
                if signed {
                    self.signed_types.insert(id);
                }
                let base = match Self::lit(inst, 0) {
                    8 => "char",
                    16 => "short",
                    64 => "long",
                    _ => "int",
                };
                if signed {
                    base.into()
                } else {
                    format!("u{base}")
                }
            }
            Op::TypeFloat => {
                self.float_types.insert(id);
                match Self::lit(inst, 0) {
                    16 => "half".into(),
                    64 => "double".into(),
                    _ => "float".into(),
                }
            }
            Op::TypeVector => format!("v{}{}", Self::lit(inst, 1), op(0)),
            Op::TypeMatrix => format!("mat{}{}", Self::lit(inst, 1), op(0)),
            Op::TypeArray => format!("_arr_{}_{}", op(0), op(1)),
            Op::TypeRuntimeArray => format!("_runtimearr_{}", op(0)),
            Op::TypeStruct => format!("_struct_{id}"),
            Op::TypePointer => match inst.operands.first() {
                Some(Operand::StorageClass(c)) => format!("_ptr_{c:?}_{}", op(1)),
                _ => return None,
            },
            Op::TypeFunction => {
                let mut s = format!("fn_{}", op(0));
                for i in 1..inst.operands.len() {
                    write!(s, "_{}", op(i)).ok();
                }
                s
            }
            Op::TypeImage => image_name(inst, &op(0)),
            Op::TypeSampler => "type_sampler".into(),
            Op::TypeSampledImage => format!("sampled_{}", op(0)),
            Op::ConstantTrue => "true".into(),
            Op::ConstantFalse => "false".into(),
            Op::Constant => {
                let ty = inst.result_type.unwrap_or(0);
                let value = self.constant_text(ty, inst.operands.first());
                self.values.insert(id, value.clone());
                format!("{}_{value}", self.name(ty))
            }
            Op::ConstantComposite => {
                let ty = self.name(inst.result_type.unwrap_or(0));
                let parts: Vec<String> = (0..inst.operands.len())
                    .map(|i| {
                        let c = Self::id_operand(inst, i);
                        self.values.get(&c).cloned().unwrap_or_else(|| "c".into())
                    })
                    .collect();
                if parts.iter().all(|p| p == &parts[0]) && !parts.is_empty() {
                    format!("{ty}_{}", parts[0])
                } else if parts.len() <= 4 {
                    format!("{ty}_{}", parts.join("_"))
                } else {
                    format!("{ty}_composite")
                }
            }
            Op::ExtInstImport => match inst.operands.first() {
                Some(Operand::LiteralString(s)) => sanitize(s),
                _ => return None,
            },
            _ => return None,
        })
    }

    fn constant_text(&self, ty: u32, value: Option<&Operand>) -> String {
        let float = self.float_types.contains(&ty);
        let signed = self.signed_types.contains(&ty);
        let text = match value {
            Some(Operand::LiteralBit32(v)) if float => format_float(f64::from(f32::from_bits(*v))),
            Some(Operand::LiteralBit32(v)) if signed => (*v as i32).to_string(),
            Some(Operand::LiteralBit32(v)) => v.to_string(),
            Some(Operand::LiteralBit64(v)) if float => format_float(f64::from_bits(*v)),
            Some(Operand::LiteralBit64(v)) if signed => (*v as i64).to_string(),
            Some(Operand::LiteralBit64(v)) => v.to_string(),
            _ => "c".into(),
        };
        text.replace('-', "n").replace(['.', '+'], "_")
    }
}

fn format_float(f: f64) -> String {
    if f.is_nan() {
        "nan".into()
    } else if f.is_infinite() {
        if f > 0.0 {
            "inf".into()
        } else {
            "n_inf".into()
        }
    } else {
        format!("{f}")
    }
}

fn image_name(inst: &Instruction, sampled: &str) -> String {
    let get = |i: usize| inst.operands.get(i);
    let dim = match get(1) {
        Some(o @ Operand::Dim(_)) => o.to_string(),
        _ => "unknown".into(),
    };
    let flag = |i: usize, text: &str| match get(i) {
        Some(Operand::LiteralBit32(1)) => text.to_string(),
        _ => String::new(),
    };
    let mut s = format!(
        "image_{dim}{}{}_{sampled}",
        flag(3, "_array"),
        flag(4, "_ms")
    );
    if let (Some(Operand::LiteralBit32(2)), Some(Operand::ImageFormat(f))) = (get(5), get(6)) {
        write!(s, "_{}", format!("{f:?}").to_lowercase()).ok();
    }
    s
}

/// The disassembly's naming: bases are sanitized where they are made
/// (debug names by [`sanitize`]), and nothing is reserved.
const RULES: crate::namer::Rules = crate::namer::Rules {
    sanitize,
    reserved: crate::namer::none_reserved,
};

/// An identifier for `%name`: other characters become `_`, and a leading
/// digit gets a `_` so names never look like plain ids.
fn sanitize(s: &str) -> String {
    let mut out: String = s
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect();
    if out.is_empty() || out.starts_with(|c: char| c.is_ascii_digit()) {
        out.insert(0, '_');
    }
    out
}

struct Printer<'a> {
    names: &'a FastHashMap<u32, String>,
    /// Type and constant instructions by result id.
    types: FastHashMap<u32, &'a Instruction>,
    /// The `GLSL.std.450` imports, whose instructions print by name (those
    /// of other sets, `NonSemantic.DebugPrintf`, by number).
    glsl_sets: FastHashSet<u32>,
}

impl Printer<'_> {
    /// Appends `%name` (or `%id`) to `out`.
    fn id(&self, id: u32, out: &mut String) {
        out.push('%');
        match self.names.get(&id) {
            Some(n) => out.push_str(n),
            None => {
                write!(out, "{id}").ok();
            }
        }
    }

    /// Appends one instruction's line to `out`; `text` is scratch space.
    fn line(&self, inst: &Instruction, text: &mut String, out: &mut String) {
        text.clear();
        text.push_str("Op");
        text.push_str(inst.class.opname);
        if let Some(t) = inst.result_type {
            text.push(' ');
            self.id(t, text);
        }
        // Constant literals print as their type reads them: floats as
        // floats, signed integers with their sign (the assembler refuses
        // 4294967295 for an `int`).
        let literal = match inst.result_type.and_then(|t| self.types.get(&t)) {
            Some(t) if inst.class.opcode == Op::Constant && t.class.opcode == Op::TypeFloat => {
                Literal::Float
            }
            Some(t)
                if inst.class.opcode == Op::Constant
                    && t.class.opcode == Op::TypeInt
                    && matches!(t.operands.get(1), Some(Operand::LiteralBit32(1))) =>
            {
                Literal::Signed
            }
            _ => Literal::Unsigned,
        };
        let glsl_set = inst.class.opcode == Op::ExtInst
            && matches!(inst.operands.first(), Some(Operand::IdRef(set)) if self.glsl_sets.contains(set));
        for (i, o) in inst.operands.iter().enumerate() {
            text.push(' ');
            self.operand(o, literal, glsl_set && i == 1, text);
        }
        match inst.result_id {
            Some(r) => {
                // The result id right-aligned in 12 columns.
                let start = out.len();
                self.id(r, out);
                let width = out[start..].chars().count();
                if width < 12 {
                    out.insert_str(start, &" ".repeat(12 - width));
                }
                out.push_str(" = ");
            }
            None => out.push_str(&" ".repeat(15)),
        }
        out.push_str(text);
        out.push('\n');
    }

    fn operand(&self, o: &Operand, literal: Literal, ext_number: bool, out: &mut String) {
        match o {
            Operand::IdRef(id) | Operand::IdScope(id) | Operand::IdMemorySemantics(id) => {
                self.id(*id, out);
            }
            Operand::LiteralBit32(v) if literal == Literal::Float => {
                write!(out, "{}", f32::from_bits(*v)).ok();
            }
            Operand::LiteralBit64(v) if literal == Literal::Float => {
                write!(out, "{}", f64::from_bits(*v)).ok();
            }
            Operand::LiteralBit32(v) if literal == Literal::Signed => {
                write!(out, "{}", *v as i32).ok();
            }
            Operand::LiteralBit64(v) if literal == Literal::Signed => {
                write!(out, "{}", *v as i64).ok();
            }
            Operand::LiteralBit32(v) => {
                write!(out, "{v}").ok();
            }
            Operand::LiteralBit64(v) => {
                write!(out, "{v}").ok();
            }
            Operand::LiteralExtInstInteger(n) if ext_number => {
                match GLSL_STD_450_INSTRUCTION_TABLE.lookup_opcode(*n) {
                    Some(inst) => out.push_str(inst.opname),
                    None => {
                        write!(out, "{n}").ok();
                    }
                }
            }
            Operand::LiteralString(s) => {
                // As spirv-dis and the assembler read it: only quotes and
                // backslashes escaped, a newline kept as it is.
                out.push('"');
                for c in s.chars() {
                    if matches!(c, '"' | '\\') {
                        out.push('\\');
                    }
                    out.push(c);
                }
                out.push('"');
            }
            Operand::ImageOperands(f) => out.push_str(&flags(f.iter_names())),
            Operand::SelectionControl(f) => out.push_str(&flags(f.iter_names())),
            Operand::LoopControl(f) => out.push_str(&flags(f.iter_names())),
            Operand::FunctionControl(f) => out.push_str(&flags(f.iter_names())),
            Operand::MemoryAccess(f) => out.push_str(&flags(f.iter_names())),
            Operand::MemorySemantics(f) => out.push_str(&flags(f.iter_names())),
            other => {
                write!(out, "{other}").ok();
            }
        }
    }
}

/// `Lod|ConstOffset` from bitflag names (`LOD`, `CONST_OFFSET`); `None` if empty.
fn flags<T>(names: impl Iterator<Item = (&'static str, T)>) -> String {
    let parts: Vec<String> = names
        .map(|(n, _)| {
            n.split('_')
                .map(|w| {
                    let mut c = w.chars();
                    match c.next() {
                        Some(f) => {
                            f.to_ascii_uppercase().to_string() + &c.as_str().to_ascii_lowercase()
                        }
                        None => String::new(),
                    }
                })
                .collect()
        })
        .collect();
    if parts.is_empty() {
        "None".into()
    } else {
        parts.join("|")
    }
}

/// How a constant's literal words read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Literal {
    Unsigned,
    Signed,
    Float,
}

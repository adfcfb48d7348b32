//! The checks of a plan: register classes that do not fit their resource,
//! overlapping explicit bindings, and the D3D11 per-stage slot limits.

use legalis_ir::RegisterClass;
use legalis_ir::diag::Diagnostic;

use crate::{Kind, Place, Plan, Resource, Target, class_letter, codes};

/// D3D11's per-stage limit of shader-resource view slots (`t`
/// registers); past it `E48001`.
pub const MAX_SHADER_RESOURCES: u32 = 128;
/// D3D11's per-stage limit of sampler slots (`s` registers); past it
/// `E48002`.
pub const MAX_SAMPLERS: u32 = 16;
/// D3D11's per-stage limit of constant buffers (`b` registers,
/// `_Globals` included); past it `E48003`.
pub const MAX_CONSTANT_BUFFERS: u32 = 14;

/// Every diagnostic of `plan`, in declaration order per check.
pub fn check(plan: &Plan) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    class_mismatches(plan, &mut out);
    descriptor_heaps(plan, &mut out);
    overlaps(plan, &mut out);
    limits(plan, &mut out);
    metal_tables(plan, &mut out);
    out
}

/// A Metal argument-table index past the table's end.
fn metal_tables(plan: &Plan, out: &mut Vec<Diagnostic>) {
    for r in &plan.resources {
        let Place::Metal { table, index } = r.place else {
            continue;
        };
        let last = table.last_index();
        if index <= last {
            continue;
        }
        let why = if r.register.is_some_and(|reg| reg.index == index) {
            format!(
                "its {} asks for it: give it a register from 0 to {last}",
                spell(r)
            )
        } else {
            "the entry point uses more resources of this table than it holds".to_string()
        };
        out.push(Diagnostic::error(
            codes::METAL_ARGUMENT_TABLE_FULL,
            format!(
                "`{}` would be [[{}({index})]], past the end of Metal's {} argument table \
                 (indices 0 to {last}): {why}",
                r.name,
                table.attribute(),
                table.attribute()
            ),
            r.span,
        ));
    }
}

/// What the kind's register class is called in a message.
fn class_words(class: RegisterClass) -> &'static str {
    match class {
        RegisterClass::T => "shader-resource (`t`) registers",
        RegisterClass::S => "sampler (`s`) registers",
        RegisterClass::U => "unordered-access (`u`) registers",
        RegisterClass::B => "constant-buffer (`b`) registers",
        RegisterClass::C => "constant (`c`) registers",
    }
}

fn spell(r: &Resource) -> String {
    match r.register {
        Some(reg) => format!(
            "register({}{}, space{})",
            class_letter(reg.class),
            reg.index,
            reg.space
        ),
        None => String::new(),
    }
}

/// A descriptor heap (a `DescriptorHandle<T>` read as its resource) the
/// entry point uses, on a target that has none.
fn descriptor_heaps(plan: &Plan, out: &mut Vec<Diagnostic>) {
    let target = match plan.target {
        Target::Vulkan => return,
        Target::Wgsl => "WGSL",
        Target::Metal => "Metal",
        Target::Cuda => "CUDA",
    };
    if let Some(r) = plan
        .resources
        .iter()
        .find(|r| r.used && r.descriptor_heap.is_some())
    {
        out.push(Diagnostic::error(
            codes::DESCRIPTOR_HEAP_UNSUPPORTED,
            format!(
                "a `DescriptorHandle<{}>` is read as its resource here, which needs a \
                 descriptor heap; Legalis writes descriptor heaps for GLSL and SPIR-V \
                 only, not for {target}",
                r.ty
            ),
            r.span,
        ));
    }
}

/// A `register` whose class is not the resource's.
fn class_mismatches(plan: &Plan, out: &mut Vec<Diagnostic>) {
    for r in &plan.resources {
        let Some(reg) = r.register else { continue };
        let want = r.kind.class();
        if reg.class != want {
            out.push(
                Diagnostic::error(
                    codes::REGISTER_CLASS_MISMATCH,
                    format!(
                        "`{}` is a {} (`{}`), which takes {}, not `{}`",
                        r.name,
                        r.kind.name(),
                        r.ty,
                        class_words(want),
                        spell(r)
                    ),
                    r.span,
                )
                .with_note(format!(
                    "write `register({}{}, space{})`",
                    class_letter(want),
                    reg.index,
                    reg.space
                )),
            );
        }
    }
}

/// Explicit bindings of used resources that overlap: the same register
/// range (an error on every target), the same `[[vk::binding]]` on two
/// resources of one register class (an error; a texture and a sampler
/// sharing one are a combined image sampler), or, on GLSL and SPIR-V only,
/// other explicit placements that meet on one descriptor set and binding
/// (a warning).
fn overlaps(plan: &Plan, out: &mut Vec<Diagnostic>) {
    let used: Vec<&Resource> = plan
        .resources
        .iter()
        .filter(|r| r.used && r.kind != Kind::Globals)
        // A register of the wrong class is reported once, as that.
        .filter(|r| r.register.is_none_or(|reg| reg.class == r.kind.class()))
        .collect();
    for (k, second) in used.iter().enumerate() {
        for first in &used[..k] {
            if let Some(d) = overlap(plan, first, second) {
                out.push(d);
                break;
            }
        }
    }
}

fn overlap(plan: &Plan, first: &Resource, second: &Resource) -> Option<Diagnostic> {
    if let (Some(a), Some(b)) = (first.register, second.register)
        && a.class == b.class
        && a.space == b.space
        && a.index < b.index.saturating_add(second.count.slots())
        && b.index < a.index.saturating_add(first.count.slots())
        && first.vk_binding.is_none()
        && second.vk_binding.is_none()
    {
        return Some(
            Diagnostic::error(
                codes::OVERLAPPING_REGISTERS,
                format!(
                    "`{}` ({}) overlaps `{}` ({}): both claim {} {}{} in space{}",
                    second.name,
                    spell(second),
                    first.name,
                    spell(first),
                    class_words(b.class),
                    class_letter(b.class),
                    a.index.max(b.index),
                    b.space
                ),
                second.span,
            )
            .with_label(first.span, format!("`{}` is declared here", first.name)),
        );
    }
    if let (Some(a), Some(b)) = (first.vk_binding, second.vk_binding) {
        // A texture and a sampler at one `[[vk::binding]]` are the
        // combined-image-sampler pattern: deliberate, and left alone.
        if a != b || first.kind.class() != second.kind.class() {
            return None;
        }
        return Some(
            Diagnostic::error(
                codes::OVERLAPPING_VK_BINDINGS,
                format!(
                    "`{}` and `{}` both claim `[[vk::binding({}, {})]]`",
                    second.name, first.name, b.0, b.1
                ),
                second.span,
            )
            .with_label(first.span, format!("`{}` is declared here", first.name)),
        );
    }
    let explicit = |r: &Resource| r.vk_binding.is_some() || r.register.is_some();
    if plan.target == Target::Vulkan
        && explicit(first)
        && explicit(second)
        && first.place == second.place
        && let Place::Descriptor { set, binding } = second.place
    {
        return Some(
            Diagnostic::warning(
                codes::VULKAN_BINDING_COLLISION,
                format!(
                    "`{}` ({}) and `{}` ({}) both land on descriptor set {set}, binding {binding} \
                     on GLSL and SPIR-V",
                    second.name, second.reason, first.name, first.reason
                ),
                second.span,
            )
            .with_label(first.span, format!("`{}` is declared here", first.name))
            .with_note(
                "register classes share one binding space there: separate them with \
                 -fvk-<t|s|u|b>-shift N SPACE or [[vk::binding(b, s)]]",
            ),
        );
    }
    None
}

/// The D3D11 per-stage slot limits, over what the entry point uses;
/// arrays count their length (an unsized array one), `_Globals` is a
/// constant buffer.
fn limits(plan: &Plan, out: &mut Vec<Diagnostic>) {
    let rows = [
        (
            RegisterClass::T,
            MAX_SHADER_RESOURCES,
            codes::TOO_MANY_SHADER_RESOURCES,
            "shader-resource slots (t)",
        ),
        (
            RegisterClass::S,
            MAX_SAMPLERS,
            codes::TOO_MANY_SAMPLERS,
            "sampler slots (s)",
        ),
        (
            RegisterClass::B,
            MAX_CONSTANT_BUFFERS,
            codes::TOO_MANY_CONSTANT_BUFFERS,
            "constant buffers (b)",
        ),
    ];
    for (class, max, code, what) in rows {
        let of_class: Vec<&Resource> = plan
            .resources
            .iter()
            .filter(|r| r.used && r.kind.class() == class)
            .collect();
        let total: u32 = of_class.iter().map(|r| r.count.slots()).sum();
        if total <= max {
            continue;
        }
        let mut sum = 0;
        let over = of_class
            .iter()
            .find(|r| {
                sum += r.count.slots();
                sum > max
            })
            .unwrap_or(&of_class[0]);
        out.push(
            Diagnostic::error(
                code,
                format!(
                    "entry point `{}` uses {total} {what}; a {} stage has {max} (D3D11)",
                    plan.entry,
                    plan.stage.name()
                ),
                over.span,
            )
            .with_primary_message(format!("`{}` passes the limit", over.name)),
        );
    }
}

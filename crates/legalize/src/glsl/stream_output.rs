//! D3D-style stream output as transform feedback. A geometry entry point's
//! `[StreamOutput(stream, "0:SV_Position.xyzw; $SKIP.x; 1:TEXCOORD0.xy")]`
//! lists, in order, the output components of `stream` that transform
//! feedback writes to buffer slot `N` (`N:`, default 0); `$SKIP` leaves a
//! gap of as many components as its mask has (four without one). Each slot
//! packs its entries at consecutive 4-byte offsets; its stride is the extent
//! of its entries unless `[StreamOutputStride(slot, bytes)]` says more.
//!
//! A whole user varying is captured in place (GLSL `xfb_buffer`,
//! `xfb_offset`, `xfb_stride`; SPIR-V `XfbBuffer`, `Offset`, `XfbStride`).
//! Part of a varying, or a builtin (which lives in `gl_PerVertex`), is
//! captured through a copy: an extra output at a free location that each
//! `Append` also writes, holding exactly the declared components.
//!
//! Limits, each a diagnostic at the declaration: slots 0 to 3, at most 64
//! components (gaps included) per stream vertex, strides up to 2048 bytes,
//! one stream per slot, 32-bit scalar or vector outputs only.

use legalis_ir as ir;
use legalis_ir::diag::Diagnostic;
use legalis_ir::{Span, TypeInner};

use crate::codes;
use crate::glsl::plan::{Plan, Target};

/// The most components one stream's declaration may capture per vertex.
pub const MAX_COMPONENTS: u32 = 64;
/// The most bytes per vertex in one buffer.
pub const MAX_STRIDE: u32 = 2048;
/// Buffer slots 0 ..= 3.
pub const SLOTS: u32 = 4;

/// One captured output.
#[derive(Clone, Debug, PartialEq)]
pub struct Capture {
    /// The plan leaf captured.
    pub leaf: usize,
    /// First component and component count of the leaf.
    pub first: u32,
    pub count: u32,
    pub xfb: ir::Xfb,
    /// Captured through a copy output (part of a vector, or a builtin).
    pub copy: bool,
}

struct Entry {
    slot: u32,
    /// `None` for `$SKIP`.
    semantic: Option<ir::Semantic>,
    first: u32,
    count: u32,
    /// Whether a mask was written.
    masked: bool,
    span: Span,
}

/// Parses and checks the declarations of `attrs` against the stream
/// leaves of `plan`.
pub fn plan_captures(
    module: &ir::Module,
    plan: &Plan,
    attrs: &ir::EntryPointAttributes,
) -> Result<Vec<Capture>, Vec<Diagnostic>> {
    let mut errors = Vec::new();
    let mut captures = Vec::new();
    // (slot, stream, extent in bytes, span of the first use)
    let mut slots: Vec<(u32, u32, u32, Span)> = Vec::new();
    for decl in &attrs.stream_output {
        let mut components = 0u32;
        for entry in parse(decl, &mut errors) {
            let found = match &entry.semantic {
                None => None,
                Some(semantic) => match find_leaf(module, plan, decl.stream, semantic) {
                    Ok(found) => Some(found),
                    Err(message) => {
                        errors.push(error(codes::BAD_STREAM_OUTPUT, message, entry.span));
                        continue;
                    }
                },
            };
            // Without a mask an entry is the whole output.
            let count = match found {
                Some((_, width)) if !entry.masked => width,
                _ => entry.count,
            };
            if let Some((leaf, width)) = found
                && entry.first + count > width
            {
                errors.push(error(
                    codes::BAD_STREAM_OUTPUT,
                    format!(
                        "the mask selects components the {width}-component output `{}` does not have",
                        plan.leaves[leaf].path
                    ),
                    entry.span,
                ));
                continue;
            }
            components += count;
            if components > MAX_COMPONENTS {
                errors.push(error(
                    codes::STREAM_OUTPUT_LIMIT,
                    format!(
                        "stream {} captures more than {MAX_COMPONENTS} components per vertex",
                        decl.stream
                    ),
                    entry.span,
                ));
                break;
            }
            let slot_index = match slots.iter().position(|s| s.0 == entry.slot) {
                Some(i) => i,
                None => {
                    slots.push((entry.slot, decl.stream, 0, entry.span));
                    slots.len() - 1
                }
            };
            if slots[slot_index].1 != decl.stream {
                errors.push(
                    error(
                        codes::BAD_STREAM_OUTPUT,
                        format!(
                            "buffer slot {} already captures stream {}; one slot holds one stream",
                            entry.slot, slots[slot_index].1
                        ),
                        entry.span,
                    )
                    .with_label(slots[slot_index].3, "the first use of the slot"),
                );
                continue;
            }
            let offset = slots[slot_index].2;
            slots[slot_index].2 += 4 * count;
            if let Some((leaf, width)) = found {
                let whole = entry.first == 0 && count == width;
                let builtin = matches!(plan.leaves[leaf].target, Target::BuiltIn { .. });
                captures.push(Capture {
                    leaf,
                    first: entry.first,
                    count,
                    xfb: ir::Xfb {
                        buffer: entry.slot,
                        offset,
                        stride: 0,
                    },
                    copy: builtin || !whole,
                });
            }
        }
    }
    for stride in &attrs.stream_output_strides {
        let Some(slot) = slots.iter().find(|s| s.0 == stride.slot) else {
            errors.push(error(
                codes::BAD_STREAM_OUTPUT,
                format!(
                    "no stream-output declaration uses buffer slot {}",
                    stride.slot
                ),
                stride.span,
            ));
            continue;
        };
        if stride.stride % 4 != 0 || stride.stride < slot.2 || stride.stride > MAX_STRIDE {
            errors.push(error(
                codes::STREAM_OUTPUT_LIMIT,
                format!(
                    "the stride of buffer slot {} must be a multiple of 4 from {} (its declarations' extent) to {MAX_STRIDE} bytes, not {}",
                    stride.slot, slot.2, stride.stride
                ),
                stride.span,
            ));
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    for capture in &mut captures {
        let buffer = capture.xfb.buffer;
        let extent = slots.iter().find(|s| s.0 == buffer).map_or(0, |s| s.2);
        capture.xfb.stride = attrs
            .stream_output_strides
            .iter()
            .find(|s| s.slot == buffer)
            .map_or(extent, |s| s.stride);
    }
    Ok(captures)
}

fn error(code: u32, message: impl Into<String>, span: Span) -> Diagnostic {
    Diagnostic::error(code, message, span)
}

/// The stream leaf with `semantic` and its component count.
fn find_leaf(
    module: &ir::Module,
    plan: &Plan,
    stream: u32,
    semantic: &ir::Semantic,
) -> Result<(usize, u32), String> {
    let wanted = semantic_key(semantic);
    let Some(leaf) = plan.leaves.iter().position(|l| {
        l.stream == Some(stream) && l.semantic.as_ref().map(semantic_key) == Some(wanted.clone())
    }) else {
        return Err(format!(
            "stream {stream} has no output with semantic `{}{}`",
            wanted.0, wanted.1
        ));
    };
    let path = &plan.leaves[leaf].path;
    match module.types.try_get(plan.leaves[leaf].ty).map(|t| &t.inner) {
        Some(TypeInner::Scalar(s)) if s.width == 4 => Ok((leaf, 1)),
        Some(TypeInner::Vector { size, scalar }) if scalar.width == 4 => {
            Ok((leaf, u32::from(*size)))
        }
        _ => Err(format!(
            "`{path}` is not a 32-bit scalar or vector; stream output captures only those"
        )),
    }
}

fn semantic_key(semantic: &ir::Semantic) -> (String, u32) {
    match semantic {
        ir::Semantic::System { value, index } => (value.name().to_ascii_uppercase(), *index),
        ir::Semantic::UnknownSystem { name, index } | ir::Semantic::User { name, index } => {
            (name.to_ascii_uppercase(), *index)
        }
    }
}

/// The entries of one declaration, with spans inside the string literal
/// where the literal has no escapes.
fn parse(decl: &ir::StreamOutputDecl, errors: &mut Vec<Diagnostic>) -> Vec<Entry> {
    let exact =
        decl.span.is_defined() && (decl.span.end - decl.span.start) as usize == decl.text.len() + 2;
    let mut entries = Vec::new();
    let mut at = 0usize;
    for piece in decl.text.split(';') {
        let start = at + (piece.len() - piece.trim_start().len());
        at += piece.len() + 1;
        let text = piece.trim();
        if text.is_empty() {
            continue;
        }
        let span = if exact {
            let s = decl.span.start + 1 + start as u32;
            Span::new(s, s + text.len() as u32)
        } else {
            decl.span
        };
        match parse_entry(text) {
            Ok((slot, semantic, mask)) => {
                if slot >= SLOTS {
                    errors.push(error(
                        codes::STREAM_OUTPUT_LIMIT,
                        format!(
                            "buffer slot {slot} is out of range; slots are 0 to {}",
                            SLOTS - 1
                        ),
                        span,
                    ));
                    continue;
                }
                // An output without a mask is resolved to its width later.
                let (first, count) = mask.unwrap_or((0, 4));
                entries.push(Entry {
                    slot,
                    semantic,
                    first,
                    count,
                    masked: mask.is_some(),
                    span,
                })
            }
            Err(message) => errors.push(error(
                codes::BAD_STREAM_OUTPUT,
                format!("stream-output entry `{text}`: {message}"),
                span,
            )),
        }
    }
    entries
}

type Parsed = (u32, Option<ir::Semantic>, Option<(u32, u32)>);

/// `[slot:]name[.mask]`.
fn parse_entry(text: &str) -> Result<Parsed, String> {
    let (slot, rest) = match text.split_once(':') {
        Some((slot, rest)) => {
            let slot = slot
                .trim()
                .parse::<u32>()
                .map_err(|_| format!("`{}` is not a buffer slot number", slot.trim()))?;
            (slot, rest.trim())
        }
        None => (0, text),
    };
    let (name, mask) = match rest.split_once('.') {
        Some((name, mask)) => (name.trim(), Some(parse_mask(mask.trim())?)),
        None => (rest, None),
    };
    if name.eq_ignore_ascii_case("$SKIP") {
        return Ok((slot, None, Some(mask.unwrap_or((0, 4)))));
    }
    if name.is_empty() || !name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') {
        return Err("expected a semantic name".into());
    }
    let semantic = ir::Semantic::parse(name).ok_or("the semantic index is too large")?;
    Ok((slot, Some(semantic), mask))
}

/// `xy`, `yzw`, `rgba`: one to four consecutive components in order.
fn parse_mask(mask: &str) -> Result<(u32, u32), String> {
    let component = |c: char| match c {
        'x' | 'r' => Some(0),
        'y' | 'g' => Some(1),
        'z' | 'b' => Some(2),
        'w' | 'a' => Some(3),
        _ => None,
    };
    let indices: Option<Vec<u32>> = mask.chars().map(component).collect();
    match indices {
        Some(ix) if !ix.is_empty() && ix.windows(2).all(|w| w[1] == w[0] + 1) => {
            Ok((ix[0], ix.len() as u32))
        }
        _ => Err(format!(
            "`.{mask}` is not a mask of consecutive components (`.xy`, `.yzw`)"
        )),
    }
}

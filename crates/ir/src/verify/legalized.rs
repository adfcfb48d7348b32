//! The post-legalization invariant: no varying an entry point exposes still
//! carries its source `Binding::Semantic`; each became a builtin or a
//! location (or the legalizer reported a coded diagnostic and stopped).

use super::{ErrorKind, Report, Scope, Site, VerifyError};
use crate::{Binding, Handle, IoAttrs, Module, Span, Type, TypeInner};

/// Types are checked to refer only to earlier handles, but this runs on
/// modules that failed that check too; stop at a depth no real shader nests.
const MAX_DEPTH: usize = 32;

pub(super) fn check_no_semantics(module: &Module, errors: &mut Vec<VerifyError>) {
    for (index, entry) in module.entry_points.iter().enumerate() {
        let mut report = Report::new(errors, Scope::entry_point(index, entry));
        let patch_constant = entry.attributes.patch_constant_func;
        for (handle, prefix) in [(Some(entry.function), false), (patch_constant, true)] {
            let Some(func) = handle.and_then(|h| module.functions.try_get(h)) else {
                continue;
            };
            // The patch-constant function's varyings are part of the hull
            // interface; name them with their function to tell them apart.
            let prefix = if prefix {
                format!("{}::", func.name)
            } else {
                String::new()
            };
            for param in &func.params {
                let mut path = format!("{prefix}{}", param.name);
                check_varying(
                    module,
                    param.ty,
                    &param.io,
                    &mut path,
                    param.span,
                    &mut report,
                    0,
                );
            }
            if let Some(result) = &func.result {
                let mut path = format!("{prefix}return");
                check_varying(
                    module,
                    result.ty,
                    &result.io,
                    &mut path,
                    result.span,
                    &mut report,
                    0,
                );
            }
        }
    }
}

fn check_varying(
    module: &Module,
    ty: Handle<Type>,
    io: &IoAttrs,
    path: &mut String,
    span: Span,
    report: &mut Report,
    depth: usize,
) {
    if let Some(Binding::Semantic(semantic)) = &io.binding {
        let kind = ErrorKind::SemanticRemains(semantic.clone());
        report.push(Site::Varying(path.clone()), kind, span);
    }
    check_members(module, ty, path, report, depth);
}

/// Struct members are varyings too, also inside arrays, patches, streams and
/// mesh outputs (`verts[].pos`). `path` grows and shrinks back as the walk
/// goes down and up: no path is made for a member that passes.
fn check_members(
    module: &Module,
    ty: Handle<Type>,
    path: &mut String,
    report: &mut Report,
    depth: usize,
) {
    if depth > MAX_DEPTH {
        return;
    }
    let Some(t) = module.types.try_get(ty) else {
        return;
    };
    match &t.inner {
        TypeInner::Struct { members } => {
            for member in members {
                let len = path.len();
                path.push('.');
                path.push_str(&member.name);
                let (ty, io) = (member.ty, &member.io);
                check_varying(module, ty, io, path, member.span, report, depth + 1);
                path.truncate(len);
            }
        }
        TypeInner::Array { base: element, .. }
        | TypeInner::Patch { element, .. }
        | TypeInner::Stream { element, .. }
        | TypeInner::MeshOutput { element, .. } => {
            let len = path.len();
            path.push_str("[]");
            check_members(module, *element, path, report, depth + 1);
            path.truncate(len);
        }
        _ => {}
    }
}

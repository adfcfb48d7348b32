//! Checks of the interned types: handles, shapes, member names.

use super::{ErrorKind, Report, Scope, Site};
use crate::FastHashSet;
use crate::{BufferKind, Handle, Module, Type, TypeInner};

pub(super) fn check_types(module: &Module, errors: &mut Vec<super::VerifyError>) {
    for (handle, ty) in module.types.iter() {
        let mut report = Report::new(errors, Scope::Type(handle));
        let span = module.types.span(handle);
        let refer = |report: &mut Report, referenced: Handle<Type>| {
            reference(module, handle, referenced, Site::Whole, span, report);
        };
        match &ty.inner {
            TypeInner::Scalar(_)
            | TypeInner::Sampler { .. }
            | TypeInner::AccelerationStructure
            | TypeInner::HitObject
            | TypeInner::RayQuery { .. }
            | TypeInner::Pointer { base: None } => {}
            TypeInner::Pointer { base: Some(base) } => refer(&mut report, *base),
            TypeInner::Vector { size, .. } => {
                if !(2..=4).contains(size) {
                    report.push(Site::Whole, ErrorKind::BadVectorSize(*size), span);
                }
            }
            TypeInner::Matrix { rows, columns, .. } => {
                if !(1..=4).contains(rows) || !(1..=4).contains(columns) {
                    let (rows, columns) = (*rows, *columns);
                    let kind = ErrorKind::BadMatrixSize { rows, columns };
                    report.push(Site::Whole, kind, span);
                }
            }
            TypeInner::Struct { members } => {
                let mut names = FastHashSet::default();
                for (index, member) in members.iter().enumerate() {
                    let site = || Site::Member(index as u32);
                    reference(module, handle, member.ty, site(), member.span, &mut report);
                    if !names.insert(member.name.as_str()) {
                        let kind = ErrorKind::DuplicateMember(member.name.clone());
                        report.push(site(), kind, member.span);
                    }
                }
            }
            TypeInner::Buffer { kind, element, .. } => {
                let has_element = element.is_some();
                if has_element == (*kind == BufferKind::ByteAddress) {
                    let kind = ErrorKind::BufferElement {
                        kind: *kind,
                        has_element,
                    };
                    report.push(Site::Whole, kind, span);
                }
                if let Some(element) = element {
                    refer(&mut report, *element);
                }
            }
            TypeInner::Array { base: inner, .. }
            | TypeInner::Texture(crate::Texture { texel: inner, .. })
            | TypeInner::SubpassInput { texel: inner, .. }
            | TypeInner::ConstantBuffer { inner }
            | TypeInner::TextureBuffer { inner }
            | TypeInner::Patch { element: inner, .. }
            | TypeInner::Stream { element: inner, .. }
            | TypeInner::MeshOutput { element: inner, .. } => refer(&mut report, *inner),
        }
    }
}

/// Interning builds types bottom-up, so a valid reference always points at an
/// earlier handle; checking that also proves the type graph has no cycles,
/// which lets everything else recurse through types safely.
fn reference(
    module: &Module,
    owner: Handle<Type>,
    referenced: Handle<Type>,
    site: Site,
    span: crate::Span,
    report: &mut Report,
) {
    if !module.types.contains(referenced) {
        report.push(site, ErrorKind::BadType(referenced), span);
    } else if referenced >= owner {
        report.push(site, ErrorKind::TypeNotBefore(referenced), span);
    }
}

//! The structs a type holds, for the writers that declare only the
//! structs their output uses (WGSL, MSL, CUDA).

use std::collections::BTreeSet;

use legalis_ir as ir;
use legalis_ir::{Handle, TypeInner};

/// Marks `ty` and every struct inside it (members, arrays, buffer
/// contents, mesh outputs).
pub(crate) fn mark_structs(
    module: &ir::Module,
    ty: Handle<ir::Type>,
    used: &mut BTreeSet<Handle<ir::Type>>,
) {
    let Some(t) = module.types.try_get(ty) else {
        return;
    };
    match &t.inner {
        TypeInner::Struct { members } if used.insert(ty) => {
            for m in members {
                mark_structs(module, m.ty, used);
            }
        }
        TypeInner::Array { base, .. } | TypeInner::MeshOutput { element: base, .. } => {
            mark_structs(module, *base, used)
        }
        TypeInner::ConstantBuffer { inner } | TypeInner::TextureBuffer { inner } => {
            mark_structs(module, *inner, used)
        }
        TypeInner::Buffer {
            element: Some(e), ..
        } => mark_structs(module, *e, used),
        _ => {}
    }
}

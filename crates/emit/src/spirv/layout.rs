//! The writer's view of `legalis_layout`: uniform blocks are std140,
//! storage buffers std430, both scalar or C under `-fvk-use-scalar-layout`
//! or `-fvk-use-c-layout` (the figures, rules and matrix convention live
//! in that crate and `docs/design/layout.md`).

use legalis_ir as ir;
use legalis_ir::Handle;
use legalis_layout::{Layouter, Rule};

use super::writer::{Layout, Result, Writer, unsupported};

impl Writer<'_> {
    fn layouter(&self, layout: Layout) -> Layouter<'_> {
        let rule = match layout {
            Layout::Std140 => Rule::Std140,
            _ => Rule::Std430,
        };
        Layouter::new(self.module, rule.under(self.options.buffer_layout))
    }

    /// Offsets of `fields` laid out in order.
    pub fn member_offsets(
        &self,
        fields: &[(Handle<ir::Type>, Option<ir::MatrixLayout>, String)],
        layout: Layout,
    ) -> Result<Vec<u32>> {
        let fields: Vec<_> = fields.iter().map(|(t, m, _)| (*t, *m)).collect();
        self.layouter(layout)
            .offsets(&fields)
            .or_else(|e| unsupported(e.what(), e.span()))
    }

    /// Bytes between consecutive elements of an array of `elem`.
    pub fn array_stride(
        &self,
        elem: Handle<ir::Type>,
        layout: Layout,
        major: Option<ir::MatrixLayout>,
    ) -> Result<u32> {
        self.layouter(layout)
            .array_stride(elem, major)
            .or_else(|e| unsupported(e.what(), e.span()))
    }

    /// The alignment of `ty` in `layout` (a load or store through a
    /// device pointer says it: `Aligned`).
    pub fn alignment(&self, ty: Handle<ir::Type>, layout: Layout) -> Result<u32> {
        self.layouter(layout)
            .layout(ty, None)
            .map(|l| l.align)
            .or_else(|e| unsupported(e.what(), e.span()))
    }

    /// The `MatrixStride` decoration of a matrix member.
    pub fn matrix_stride(
        &self,
        ty: Handle<ir::Type>,
        layout: Layout,
        major: Option<ir::MatrixLayout>,
    ) -> u32 {
        self.layouter(layout).matrix_stride(ty, major)
    }
}

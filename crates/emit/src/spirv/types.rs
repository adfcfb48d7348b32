//! IR types as SPIR-V types, each declared once per memory layout: values
//! and private memory use plain types; uniform blocks (std140) and storage
//! buffers (std430) get their own struct and array types carrying
//! `Offset`/`ArrayStride`/matrix decorations, because Vulkan forbids those
//! decorations on types used for plain values. `bool` in a block is stored
//! as a 32-bit `uint`, as Vulkan has no bool in externally visible memory.

use legalis_ir as ir;
use legalis_ir::{Handle, ScalarKind, TypeInner};
use spirv::{Capability, Decoration, StorageClass, Word};

use super::writer::{Layout, Result, Writer, unsupported};

impl Writer<'_> {
    pub fn void(&mut self) -> Word {
        *self.void_id.get_or_insert_with(|| self.b.type_void())
    }

    /// A scalar (`size` 0), vector (`size` 2..=4) or matrix (`columns` > 0:
    /// `columns` SPIR-V columns of `size` components).
    pub fn numeric(&mut self, scalar: ir::Scalar, size: u8, columns: u8, layout: Layout) -> Word {
        let stored_bool = scalar.kind == ScalarKind::Bool && layout != Layout::Plain;
        let scalar = if stored_bool { ir::Scalar::U32 } else { scalar };
        let layout = if scalar.width == 4 {
            Layout::Plain
        } else {
            layout
        };
        let key = (scalar, size, columns, layout);
        if let Some(&id) = self.numeric_ids.get(&key) {
            return id;
        }
        let id = if columns > 0 {
            let col = self.numeric(scalar, size, 0, layout);
            self.b.type_matrix(col, u32::from(columns))
        } else if size > 0 {
            let s = self.numeric(scalar, 0, 0, layout);
            self.b.type_vector(s, u32::from(size))
        } else {
            self.scalar_type(scalar, layout)
        };
        self.numeric_ids.insert(key, id);
        id
    }

    fn scalar_type(&mut self, scalar: ir::Scalar, layout: Layout) -> Word {
        let bits = u32::from(scalar.width) * 8;
        match (scalar.kind, bits) {
            (_, 64) if scalar.kind == ScalarKind::Float => self.capability(Capability::Float64),
            (_, 64) => self.capability(Capability::Int64),
            (ScalarKind::Float, 16) => self.capability(Capability::Float16),
            (_, 16) => self.capability(Capability::Int16),
            (_, 8) => self.capability(Capability::Int8),
            _ => {}
        }
        match (bits, layout) {
            (16, Layout::Std140) => {
                self.storage_cap(Capability::StorageUniform16, "SPV_KHR_16bit_storage")
            }
            (16, Layout::Std430) => self.storage_cap(
                Capability::StorageBuffer16BitAccess,
                "SPV_KHR_16bit_storage",
            ),
            (8, Layout::Std140) => self.storage_cap(
                Capability::UniformAndStorageBuffer8BitAccess,
                "SPV_KHR_8bit_storage",
            ),
            (8, Layout::Std430) => {
                self.storage_cap(Capability::StorageBuffer8BitAccess, "SPV_KHR_8bit_storage")
            }
            _ => {}
        }
        match scalar.kind {
            ScalarKind::Bool => self.b.type_bool(),
            ScalarKind::Sint => self.b.type_int(bits, 1),
            ScalarKind::Uint => self.b.type_int(bits, 0),
            ScalarKind::Float => self.b.type_float(bits),
        }
    }

    fn storage_cap(&mut self, cap: Capability, ext: &'static str) {
        self.capability(cap);
        self.extensions.insert(ext);
    }

    pub fn bool_type(&mut self, size: u8) -> Word {
        self.numeric(ir::Scalar::BOOL, size, 0, Layout::Plain)
    }

    pub fn uint_type(&mut self) -> Word {
        self.numeric(ir::Scalar::U32, 0, 0, Layout::Plain)
    }

    pub fn int_type(&mut self) -> Word {
        self.numeric(ir::Scalar::I32, 0, 0, Layout::Plain)
    }

    pub fn float_type(&mut self, size: u8) -> Word {
        self.numeric(ir::Scalar::F32, size, 0, Layout::Plain)
    }

    pub fn pointer(&mut self, pointee: Word, class: StorageClass) -> Word {
        if let Some(&id) = self.pointer_ids.get(&(pointee, class)) {
            return id;
        }
        let id = self.b.type_pointer(None, class, pointee);
        self.pointer_ids.insert((pointee, class), id);
        id
    }

    /// `T*`: a `PhysicalStorageBuffer` pointer to `T` in the std430
    /// layout (`void*` points to a `uint`, as in the reference), with the
    /// `ArrayStride` `p[i]` steps by (absent when `T` ends in an unsized
    /// array and has no size).
    pub fn device_pointer(&mut self, base: Option<Handle<ir::Type>>) -> Result<Word> {
        let (pointee, stride) = match base {
            Some(b) => (
                self.ty(b, Layout::Std430)?,
                self.array_stride(b, Layout::Std430, None).ok(),
            ),
            None => (self.uint_type(), Some(4)),
        };
        self.storage_cap(
            Capability::PhysicalStorageBufferAddresses,
            "SPV_KHR_physical_storage_buffer",
        );
        let id = self.pointer(pointee, StorageClass::PhysicalStorageBuffer);
        if self.device_pointers.insert(id)
            && let Some(stride) = stride
        {
            self.decorate(id, Decoration::ArrayStride, [stride.into()]);
        }
        Ok(id)
    }

    /// The SPIR-V type of IR type `ty` in `layout`.
    pub fn ty(&mut self, ty: Handle<ir::Type>, layout: Layout) -> Result<Word> {
        if let Some(&id) = self.type_ids.get(&(ty, layout)) {
            return Ok(id);
        }
        let span = self.module.types.span(ty);
        // The module outlives the writer: no copy of a struct's members.
        let id = match *self.inner(ty) {
            TypeInner::Scalar(s) => self.numeric(s, 0, 0, layout),
            TypeInner::Vector { size, scalar } => self.numeric(scalar, size, 0, layout),
            TypeInner::Matrix {
                rows,
                columns,
                scalar,
            } => {
                if scalar.kind != ScalarKind::Float {
                    return unsupported("matrices of non-float elements", span);
                }
                self.numeric(scalar, columns, rows, layout)
            }
            TypeInner::Array { base, size } => self.array_type(ty, base, size, layout)?,
            TypeInner::Struct { .. } => self.struct_type(ty, layout)?,
            TypeInner::Texture(ir::Texture { combined: true, .. }) => {
                let image = self.image_type(ty)?;
                self.b.type_sampled_image(image)
            }
            TypeInner::Texture(_) | TypeInner::Buffer { .. } | TypeInner::SubpassInput { .. } => {
                self.image_type(ty)?
            }
            TypeInner::Sampler { .. } => self.b.type_sampler(),
            // Outside ray-tracing stages a scene is only traced inline.
            TypeInner::AccelerationStructure => {
                match self.entry.stage.is_ray_tracing() {
                    true => self.require_ray_tracing(),
                    false => self.require_ray_query(),
                }
                self.b.type_acceleration_structure_khr()
            }
            TypeInner::HitObject => {
                self.require_hit_object();
                self.b.type_hit_object_nv()
            }
            TypeInner::RayQuery { .. } => {
                self.require_ray_query();
                self.b.type_ray_query_khr()
            }
            TypeInner::Pointer { base } => self.device_pointer(base)?,
            _ => return unsupported("this type in SPIR-V", span),
        };
        self.type_ids.insert((ty, layout), id);
        Ok(id)
    }

    /// Whether values of `ty` are opaque descriptors in `UniformConstant`
    /// memory (images, samplers, sampled images, texel buffers,
    /// acceleration structures), which may form runtime descriptor arrays.
    fn is_descriptor(&self, ty: Handle<ir::Type>) -> bool {
        matches!(
            self.inner(ty),
            TypeInner::Texture(_)
                | TypeInner::Sampler { .. }
                | TypeInner::AccelerationStructure
                | TypeInner::SubpassInput { .. }
                | TypeInner::Buffer {
                    kind: ir::BufferKind::Typed,
                    ..
                }
        )
    }

    /// The type of a struct member: its plain type, except that an array
    /// of `row_major` matrices in a block gets its own array type, whose
    /// `ArrayStride` is that of row-major matrices.
    fn member_ty(
        &mut self,
        ty: Handle<ir::Type>,
        major: Option<ir::MatrixLayout>,
        layout: Layout,
    ) -> Result<Word> {
        match *self.inner(ty) {
            TypeInner::Array { base, size }
                if layout != Layout::Plain && major == Some(ir::MatrixLayout::RowMajor) =>
            {
                let elem = self.member_ty(base, major, layout)?;
                self.array_of(ty, elem, base, size, layout, major)
            }
            _ => self.ty(ty, layout),
        }
    }

    fn array_type(
        &mut self,
        ty: Handle<ir::Type>,
        base: Handle<ir::Type>,
        size: ir::ArraySize,
        layout: Layout,
    ) -> Result<Word> {
        let elem = self.ty(base, layout)?;
        self.array_of(ty, elem, base, size, layout, None)
    }

    fn array_of(
        &mut self,
        ty: Handle<ir::Type>,
        elem: Word,
        base: Handle<ir::Type>,
        size: ir::ArraySize,
        layout: Layout,
        major: Option<ir::MatrixLayout>,
    ) -> Result<Word> {
        let id = self.b.id();
        match size {
            ir::ArraySize::Constant(n) => {
                let uint = self.uint_type();
                let len = self.const_u32(uint, n);
                self.b.type_array_id(Some(id), elem, len);
            }
            ir::ArraySize::Unsized => {
                if layout == Layout::Plain {
                    if !self.is_descriptor(base) {
                        let span = self.module.types.span(ty);
                        return unsupported("unsized arrays outside buffers", span);
                    }
                    // A runtime descriptor array: images, samplers and
                    // sampled images in `UniformConstant` memory, indexed
                    // at run time (a `DescriptorHandle`'s heap).
                    self.capability(spirv::Capability::RuntimeDescriptorArray);
                    self.extensions.insert("SPV_EXT_descriptor_indexing");
                }
                self.b.type_runtime_array_id(Some(id), elem);
            }
        }
        if layout != Layout::Plain {
            let stride = self.array_stride(base, layout, major)?;
            self.decorate(id, Decoration::ArrayStride, [stride.into()]);
        }
        Ok(id)
    }

    fn struct_type(&mut self, ty: Handle<ir::Type>, layout: Layout) -> Result<Word> {
        let TypeInner::Struct { members } = self.inner(ty) else {
            return unsupported("a struct", self.module.types.span(ty));
        };
        let fields: Vec<(Handle<ir::Type>, Option<ir::MatrixLayout>, String)> = members
            .iter()
            .map(|m| (m.ty, m.matrix_layout, m.name.clone()))
            .collect();
        let name = self.module.types[ty].name.clone();
        self.declare_struct(&fields, layout, name.as_deref())
    }

    /// A new struct type of `fields`, with offsets and matrix decorations
    /// when it has a layout.
    pub fn declare_struct(
        &mut self,
        fields: &[(Handle<ir::Type>, Option<ir::MatrixLayout>, String)],
        layout: Layout,
        name: Option<&str>,
    ) -> Result<Word> {
        let mut member_ids = Vec::new();
        for (t, major, _) in fields {
            member_ids.push(self.member_ty(*t, *major, layout)?);
        }
        let id = self.b.id();
        self.b.type_struct_id(Some(id), member_ids);
        if self.options.debug_names {
            if let Some(n) = name {
                self.b.name(id, n);
            }
            self.b.reserve_names(fields.len());
            for (i, (_, _, n)) in fields.iter().enumerate() {
                self.b.member_name(id, i as u32, n);
            }
        }
        // A struct ending in an unsized array (what a pointer may point
        // to) is a `Block`, as Vulkan asks of every such struct.
        let open = fields.last().is_some_and(|(t, _, _)| {
            matches!(
                self.inner(*t),
                TypeInner::Array {
                    size: ir::ArraySize::Unsized,
                    ..
                }
            )
        });
        if layout != Layout::Plain && open {
            self.decorate(id, Decoration::Block, []);
        }
        if layout != Layout::Plain {
            let offsets = self.member_offsets(fields, layout)?;
            for (i, ((t, major, _), offset)) in fields.iter().zip(offsets).enumerate() {
                let i = i as u32;
                self.b
                    .member_decorate(id, i, Decoration::Offset, [offset.into()]);
                self.decorate_matrix_member(id, i, *t, *major, layout)?;
            }
        }
        Ok(id)
    }

    /// `RowMajor`/`ColMajor` and `MatrixStride` on a matrix member (or an
    /// array of matrices). HLSL's default `column_major` keeps each HLSL
    /// column together; HLSL columns are SPIR-V rows, hence `RowMajor`.
    fn decorate_matrix_member(
        &mut self,
        id: Word,
        index: u32,
        ty: Handle<ir::Type>,
        major: Option<ir::MatrixLayout>,
        layout: Layout,
    ) -> Result<()> {
        let mut base = ty;
        while let TypeInner::Array { base: b, .. } = self.inner(base) {
            base = *b;
        }
        if !matches!(self.inner(base), TypeInner::Matrix { .. }) {
            return Ok(());
        }
        let decoration = match major {
            Some(ir::MatrixLayout::RowMajor) => Decoration::ColMajor,
            _ => Decoration::RowMajor,
        };
        let stride = self.matrix_stride(base, layout, major);
        self.b.member_decorate(id, index, decoration, []);
        self.b
            .member_decorate(id, index, Decoration::MatrixStride, [stride.into()]);
        Ok(())
    }

    /// The `Block` struct a buffer variable points to: the `cbuffer`'s
    /// members, or `{ T data[]; }` for structured and byte-address buffers.
    pub fn block_type(
        &mut self,
        resource: Handle<ir::Type>,
        class: StorageClass,
        span: ir::Span,
    ) -> Result<Word> {
        if let Some(&id) = self.block_ids.get(&(resource, class)) {
            return Ok(id);
        }
        let layout = match class {
            StorageClass::Uniform => Layout::Std140,
            _ => Layout::Std430,
        };
        let id = match self.inner(resource).clone() {
            TypeInner::ConstantBuffer { inner } => {
                let TypeInner::Struct { members } = self.inner(inner) else {
                    return unsupported("a constant buffer of a non-struct type", span);
                };
                let fields: Vec<_> = members
                    .iter()
                    .map(|m| (m.ty, m.matrix_layout, m.name.clone()))
                    .collect();
                let name = self.module.types[inner].name.clone();
                let name = format!("type_{}", name.as_deref().unwrap_or("ConstantBuffer"));
                self.declare_struct(&fields, layout, Some(&name))?
            }
            TypeInner::Buffer { kind, element, .. } => {
                let elem = match (kind, element) {
                    (ir::BufferKind::ByteAddress, _) => None,
                    (_, Some(e)) => Some(e),
                    _ => return unsupported("this buffer", span),
                };
                let name = self.buffer_block_name(resource, elem);
                self.buffer_block(elem, layout, &name)?
            }
            _ => return unsupported("this resource as a block", span),
        };
        self.decorate(id, spirv::Decoration::Block, []);
        self.block_ids.insert((resource, class), id);
        Ok(id)
    }

    fn buffer_block_name(
        &self,
        resource: Handle<ir::Type>,
        elem: Option<Handle<ir::Type>>,
    ) -> String {
        let TypeInner::Buffer { kind, access, .. } = self.inner(resource) else {
            return "type_buffer".into();
        };
        let rw = if *access == ir::ResourceAccess::Read {
            ""
        } else {
            "RW"
        };
        match kind {
            ir::BufferKind::ByteAddress => format!("type_{rw}ByteAddressBuffer"),
            _ => {
                let elem_name = match elem.map(|e| &self.module.types[e]) {
                    Some(ir::Type { name: Some(n), .. }) => n.clone(),
                    Some(t) => t
                        .inner
                        .scalar()
                        .map(|s| s.name().to_string())
                        .unwrap_or_default(),
                    None => String::new(),
                };
                format!("type_{rw}StructuredBuffer_{elem_name}")
            }
        }
    }

    /// `struct { T data[]; }` for a buffer of `elem` (`uint` words for
    /// byte-address buffers).
    fn buffer_block(
        &mut self,
        elem: Option<Handle<ir::Type>>,
        layout: Layout,
        name: &str,
    ) -> Result<Word> {
        let (elem_id, stride) = match elem {
            Some(e) => (self.ty(e, layout)?, self.array_stride(e, layout, None)?),
            None => (self.uint_type(), 4),
        };
        let arr = self.b.id();
        self.b.type_runtime_array_id(Some(arr), elem_id);
        self.decorate(arr, Decoration::ArrayStride, [stride.into()]);
        let id = self.b.id();
        self.b.type_struct_id(Some(id), [arr]);
        if self.options.debug_names {
            self.b.name(id, name);
            self.b.member_name(id, 0, "data");
        }
        self.b
            .member_decorate(id, 0, Decoration::Offset, [0u32.into()]);
        if let Some(e) = elem {
            self.decorate_matrix_member(id, 0, e, None, layout)?;
        }
        Ok(id)
    }
}

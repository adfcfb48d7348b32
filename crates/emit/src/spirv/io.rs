//! Module-scope variables: private and workgroup memory, the `_Globals`
//! block of plain uniforms, descriptors (uniform blocks, storage buffers,
//! textures, samplers) with their set and binding, and the stage inputs
//! and outputs with their `BuiltIn` or `Location` decorations.

use std::str::FromStr;

use legalis_ir as ir;
use legalis_ir::{AddressSpace, Handle, ScalarKind, TypeInner};
use legalis_sysval::Direction;
use spirv::{Capability, Decoration, StorageClass, Word};

use super::writer::{Layout, Ptr, Result, Writer, unsupported};
use crate::spirv::Error;

impl Writer<'_> {
    /// A module-scope `OpVariable`, named and counted as used.
    fn global_var(&mut self, pointee: Word, class: StorageClass, name: &str) -> Word {
        let ptr = self.pointer(pointee, class);
        let id = self.b.variable(ptr, None, class, None);
        if self.device_pointers.contains(&pointee) {
            self.decorate(id, Decoration::AliasedPointer, []);
        }
        if self.options.debug_names {
            self.b.name(id, name);
        }
        self.used_vars.push((id, class));
        id
    }

    pub fn declare_global(&mut self, g: Handle<ir::GlobalVariable>) -> Result<()> {
        if self.globals.contains_key(&g) {
            // Declared with the `_Globals` block of an earlier uniform.
            return Ok(());
        }
        let var = &self.module.globals[g];
        let span = self.module.globals.span(g);
        let class = match var.space {
            AddressSpace::Private | AddressSpace::Constant => StorageClass::Private,
            AddressSpace::Workgroup => StorageClass::Workgroup,
            AddressSpace::TaskPayload => StorageClass::TaskPayloadWorkgroupEXT,
            AddressSpace::Uniform if crate::binding::is_resource(self.module, var) => {
                return self.declare_resource(g);
            }
            AddressSpace::Uniform => return self.declare_plain_uniform(g),
            AddressSpace::Input | AddressSpace::Output => return self.declare_stage_var(g),
            AddressSpace::RayTracing(storage) => {
                self.require_ray_tracing();
                super::ray_tracing::storage_class(storage)
            }
        };
        if self.inner(var.ty).is_resource() {
            return unsupported("resources outside uniform memory", span);
        }
        let ty = self.ty(var.ty, Layout::Plain)?;
        let id = self.global_var(ty, class, &var.name);
        if let Some(ir::IoAttrs {
            binding: Some(ir::Binding::Location { location, .. }),
            ..
        }) = &var.io
        {
            self.decorate(id, Decoration::Location, [(*location).into()]);
        }
        self.globals.insert(g, plain_ptr(id, var.ty, class));
        Ok(())
    }

    /// Plain uniforms live in one std140 `_Globals` block, made when the
    /// first is declared with every reachable plain uniform as a member.
    fn declare_plain_uniform(&mut self, g: Handle<ir::GlobalVariable>) -> Result<()> {
        let module = self.module;
        let plain: Vec<Handle<ir::GlobalVariable>> = self
            .reachable_globals
            .iter()
            .copied()
            .filter(|&h| {
                let v = &module.globals[h];
                v.space == AddressSpace::Uniform && !crate::binding::is_resource(module, v)
            })
            .collect();
        let fields: Vec<_> = plain
            .iter()
            .map(|&h| {
                let v = &module.globals[h];
                (v.ty, v.matrix_layout, v.name.clone())
            })
            .collect();
        let block = self.declare_struct(&fields, Layout::Std140, Some("type_Globals"))?;
        self.decorate(block, Decoration::Block, []);
        let id = self.global_var(block, StorageClass::Uniform, "_Globals");
        let (set, binding) = self.bindings.globals_block.unwrap_or((0, 0));
        self.decorate_binding(id, set, binding);
        for (i, &h) in plain.iter().enumerate() {
            let index = self.uint(i as u32);
            self.globals.insert(
                h,
                Ptr {
                    root: id,
                    indices: vec![index],
                    trailing: Vec::new(),
                    ty: module.globals[h].ty,
                    layout: Layout::Std140,
                    class: StorageClass::Uniform,
                },
            );
        }
        debug_assert!(self.globals.contains_key(&g));
        Ok(())
    }

    fn decorate_binding(&mut self, id: Word, set: u32, binding: u32) {
        self.decorate(id, Decoration::DescriptorSet, [set.into()]);
        self.decorate(id, Decoration::Binding, [binding.into()]);
    }

    fn declare_resource(&mut self, g: Handle<ir::GlobalVariable>) -> Result<()> {
        let var = &self.module.globals[g];
        let span = self.module.globals.span(g);
        if var.binding.descriptor_heap.is_some()
            && let Some(cap) = self.options.handle_capability
        {
            return unsupported(handle_capability_refusal(cap), span);
        }
        let ptr = match self.inner(var.ty).clone() {
            TypeInner::ConstantBuffer { inner } => {
                let block = self.block_type(var.ty, StorageClass::Uniform, span)?;
                let id = self.global_var(block, StorageClass::Uniform, &var.name);
                Ptr {
                    root: id,
                    indices: Vec::new(),
                    trailing: Vec::new(),
                    ty: inner,
                    layout: Layout::Std140,
                    class: StorageClass::Uniform,
                }
            }
            TypeInner::Buffer {
                kind: ir::BufferKind::Structured | ir::BufferKind::ByteAddress,
                access,
                ..
            } => {
                self.extensions
                    .insert("SPV_KHR_storage_buffer_storage_class");
                let block = self.block_type(var.ty, StorageClass::StorageBuffer, span)?;
                let id = self.global_var(block, StorageClass::StorageBuffer, &var.name);
                if access == ir::ResourceAccess::Read {
                    self.decorate(id, Decoration::NonWritable, []);
                }
                if var.globally_coherent {
                    self.decorate(id, Decoration::Coherent, []);
                }
                Ptr {
                    root: id,
                    indices: Vec::new(),
                    trailing: Vec::new(),
                    ty: var.ty,
                    layout: Layout::Std430,
                    class: StorageClass::StorageBuffer,
                }
            }
            TypeInner::Buffer {
                kind: ir::BufferKind::Append | ir::BufferKind::Consume,
                ..
            } => return unsupported("append/consume buffers (they need a counter)", span),
            TypeInner::TextureBuffer { .. } => {
                return unsupported("`tbuffer`/`TextureBuffer`", span);
            }
            TypeInner::Array { base, size }
                if let Some((class, layout)) = self.buffer_block_class(base) =>
            {
                // An array of buffers is an array of blocks, one
                // descriptor each: `bufs[i]` chains to the block first.
                if class == StorageClass::StorageBuffer {
                    self.extensions
                        .insert("SPV_KHR_storage_buffer_storage_class");
                }
                let block = self.block_type(base, class, span)?;
                let array = match size {
                    ir::ArraySize::Constant(n) => {
                        let len = self.uint(n);
                        self.b.type_array(block, len)
                    }
                    ir::ArraySize::Unsized => {
                        self.capability(spirv::Capability::RuntimeDescriptorArray);
                        self.extensions.insert("SPV_EXT_descriptor_indexing");
                        self.b.type_runtime_array_id(None, block)
                    }
                };
                let id = self.global_var(array, class, &var.name);
                if matches!(
                    self.inner(base),
                    TypeInner::Buffer {
                        access: ir::ResourceAccess::Read,
                        ..
                    }
                ) {
                    self.decorate(id, Decoration::NonWritable, []);
                }
                Ptr {
                    root: id,
                    indices: Vec::new(),
                    trailing: Vec::new(),
                    ty: var.ty,
                    layout,
                    class,
                }
            }
            _ => {
                let ty = self.ty(var.ty, Layout::Plain)?;
                let id = self.global_var(ty, StorageClass::UniformConstant, &var.name);
                if var.globally_coherent {
                    self.decorate(id, Decoration::Coherent, []);
                }
                plain_ptr(id, var.ty, StorageClass::UniformConstant)
            }
        };
        let (set, binding) = self.bindings.resources.get(&g).copied().unwrap_or((0, 0));
        self.decorate_binding(ptr.root, set, binding);
        if let Some(index) = var.binding.input_attachment_index {
            self.decorate(ptr.root, Decoration::InputAttachmentIndex, [index.into()]);
        }
        self.globals.insert(g, ptr);
        Ok(())
    }

    /// The storage class and layout of a buffer that is a block of its own
    /// (a structured or byte-address buffer, a constant buffer); `None`
    /// for any other type.
    fn buffer_block_class(&self, ty: Handle<ir::Type>) -> Option<(StorageClass, Layout)> {
        match self.inner(ty) {
            TypeInner::ConstantBuffer { .. } => Some((StorageClass::Uniform, Layout::Std140)),
            TypeInner::Buffer {
                kind: ir::BufferKind::Structured | ir::BufferKind::ByteAddress,
                ..
            } => Some((StorageClass::StorageBuffer, Layout::Std430)),
            _ => None,
        }
    }

    fn declare_stage_var(&mut self, g: Handle<ir::GlobalVariable>) -> Result<()> {
        let var = &self.module.globals[g];
        let span = self.module.globals.span(g);
        let input = var.space == AddressSpace::Input;
        let class = if input {
            StorageClass::Input
        } else {
            StorageClass::Output
        };
        let io = var.io.as_ref();
        let binding = io.and_then(|io| io.binding.as_ref());
        let noperspective = io
            .is_some_and(|io| io.interpolation.mode == Some(ir::InterpolationMode::NoPerspective));
        if let Some(ir::Binding::BuiltIn(b)) = binding
            && let Some(element) = b.array_index
        {
            return self.declare_builtin_element(g, b, element, input);
        }
        let ty = self.ty(var.ty, Layout::Plain)?;
        if self.has_width(var.ty, 2) {
            self.capability(Capability::StorageInputOutput16);
            self.extensions.insert("SPV_KHR_16bit_storage");
        }
        let id = self.global_var(ty, class, &var.name);
        if let Some(stream) = var.io.as_ref().and_then(|io| io.stream) {
            self.capability(Capability::GeometryStreams);
            self.decorate(id, Decoration::Stream, [stream.into()]);
        }
        if let Some(x) = var.io.as_ref().and_then(|io| io.xfb) {
            self.capability(Capability::TransformFeedback);
            self.decorate(id, Decoration::XfbBuffer, [x.buffer.into()]);
            self.decorate(id, Decoration::XfbStride, [x.stride.into()]);
            self.decorate(id, Decoration::Offset, [x.offset.into()]);
        }
        match binding {
            Some(ir::Binding::BuiltIn(b)) => {
                self.decorate_builtin(id, b, input, noperspective, span)?
            }
            // B10: the indices of each primitive, after the topology.
            Some(ir::Binding::PrimitiveIndices) => {
                let row = legalis_sysval::primitive_indices(self.entry.attributes.output_topology);
                let Ok(builtin) = spirv::BuiltIn::from_str(row.spirv_builtin) else {
                    return unsupported(format!("the builtin {}", row.spirv_builtin), span);
                };
                self.decorate(
                    id,
                    Decoration::BuiltIn,
                    [rspirv::dr::Operand::BuiltIn(builtin)],
                );
            }
            // B13: the three vertices' values, never interpolated.
            Some(&ir::Binding::Location {
                location,
                per_vertex: true,
                ..
            }) => {
                self.decorate(id, Decoration::Location, [location.into()]);
                self.decorate(id, Decoration::PerVertexKHR, []);
                self.capability(Capability::FragmentBarycentricKHR);
                self.extensions
                    .insert("SPV_KHR_fragment_shader_barycentric");
            }
            Some(&ir::Binding::Location {
                location,
                component,
                index,
                interpolation,
                patch,
                per_primitive,
                ..
            }) => {
                self.decorate(id, Decoration::Location, [location.into()]);
                if patch {
                    self.decorate(id, Decoration::Patch, []);
                }
                if per_primitive {
                    self.decorate(id, Decoration::PerPrimitiveEXT, []);
                    self.capability(Capability::MeshShadingEXT);
                    self.extensions.insert("SPV_EXT_mesh_shader");
                    self.require_version(1, 4);
                }
                if component != 0 {
                    self.decorate(id, Decoration::Component, [component.into()]);
                }
                if let Some(i) = index {
                    self.decorate(id, Decoration::Index, [i.into()]);
                }
                self.decorate_interpolation(id, var.ty, input, interpolation);
            }
            _ => {
                return Err(Error::NotLegalized {
                    what: format!("stage variable `{}` has no builtin or location", var.name),
                    span,
                });
            }
        }
        self.globals.insert(g, plain_ptr(id, var.ty, class));
        Ok(())
    }

    /// Interpolation applies to fragment inputs and to the outputs of the
    /// stages before; integer and double fragment inputs must be `Flat`.
    fn decorate_interpolation(
        &mut self,
        id: Word,
        ty: Handle<ir::Type>,
        input: bool,
        interpolation: ir::Interpolation,
    ) {
        let fragment = self.entry.stage == ir::ShaderStage::Fragment;
        if input != fragment {
            return;
        }
        let integer = self
            .leaf_scalar(ty)
            .is_some_and(|s| s.kind != ScalarKind::Float || s.width == 8);
        match interpolation.mode {
            Some(ir::InterpolationMode::Flat) => self.decorate(id, Decoration::Flat, []),
            _ if integer && input => self.decorate(id, Decoration::Flat, []),
            Some(ir::InterpolationMode::NoPerspective) => {
                self.decorate(id, Decoration::NoPerspective, [])
            }
            _ => {}
        }
        match interpolation.sampling {
            Some(ir::Sampling::Centroid) => self.decorate(id, Decoration::Centroid, []),
            Some(ir::Sampling::Sample) => {
                self.capability(Capability::SampleRateShading);
                self.decorate(id, Decoration::Sample, []);
            }
            None => {}
        }
    }

    /// An element of an arrayed builtin (`gl_SampleMask[0]`,
    /// `gl_ClipDistance[1]`): every element global of one builtin is a place
    /// in its one variable, declared with the first.
    fn declare_builtin_element(
        &mut self,
        g: Handle<ir::GlobalVariable>,
        b: &ir::BuiltIn,
        element: u32,
        input: bool,
    ) -> Result<()> {
        let var = &self.module.globals[g];
        let span = self.module.globals.span(g);
        let class = if input {
            StorageClass::Input
        } else {
            StorageClass::Output
        };
        let key = (b.value, input);
        // A member of `gl_in[]` (`gl_in[i].gl_ClipDistance[k]`): the IR global
        // is the per-vertex array of element `k`; the variable is an array
        // per vertex of the builtin's array, and the element index goes last.
        let per_vertex = match (self.inner(var.ty), input) {
            (
                &TypeInner::Array {
                    base,
                    size: ir::ArraySize::Constant(n),
                },
                true,
            ) => Some((base, n)),
            _ => None,
        };
        let root = match self.arrayed_builtins.get(&key) {
            Some(&id) => id,
            None => {
                let scalar = per_vertex.map_or(var.ty, |(base, _)| base);
                let elem = self.ty(scalar, Layout::Plain)?;
                let len = self.builtin_array_len(b.value, input);
                let len = self.uint(len);
                let mut array = self.b.type_array(elem, len);
                if let Some((_, vertices)) = per_vertex {
                    let vertices = self.uint(vertices);
                    array = self.b.type_array(array, vertices);
                }
                let id = self.global_var(array, class, &var.name);
                self.decorate_builtin(id, b, input, false, span)?;
                self.arrayed_builtins.insert(key, id);
                id
            }
        };
        let index = self.int(element as i32);
        let (indices, trailing) = match per_vertex {
            Some(_) => (Vec::new(), vec![index]),
            None => (vec![index], Vec::new()),
        };
        self.globals.insert(
            g,
            Ptr {
                root,
                indices,
                trailing,
                ty: var.ty,
                layout: Layout::Plain,
                class,
            },
        );
        Ok(())
    }

    /// The length of an arrayed builtin's variable: the row's, or for
    /// unsized ones (`gl_ClipDistance[]`) one past the highest element the
    /// entry point uses.
    fn builtin_array_len(&self, value: ir::SystemValue, input: bool) -> u32 {
        let dir = if input {
            Direction::Input
        } else {
            Direction::Output
        };
        if let legalis_sysval::GlslMapping::BuiltIn(row) =
            legalis_sysval::glsl(value, self.entry.stage, dir)
            && let legalis_sysval::BuiltinType::Array(_, Some(n)) = row.ty
        {
            return n;
        }
        let space = if input {
            AddressSpace::Input
        } else {
            AddressSpace::Output
        };
        self.reachable_globals
            .iter()
            .map(|&h| &self.module.globals[h])
            .filter(|v| v.space == space)
            .filter_map(|v| match v.io.as_ref().and_then(|io| io.binding.as_ref()) {
                Some(ir::Binding::BuiltIn(b)) if b.value == value => b.array_index,
                _ => None,
            })
            .max()
            .map_or(1, |i| i + 1)
    }

    fn decorate_builtin(
        &mut self,
        id: Word,
        b: &ir::BuiltIn,
        input: bool,
        noperspective: bool,
        span: ir::Span,
    ) -> Result<()> {
        let name = builtin_name(b.value, self.entry.stage, input, noperspective);
        let Some(builtin) = name.and_then(|n| spirv::BuiltIn::from_str(n).ok()) else {
            return unsupported(format!("the system value `{}` here", b.value.name()), span);
        };
        if builtin == spirv::BuiltIn::FragDepth {
            self.writes_depth = true;
        }
        self.decorate(
            id,
            Decoration::BuiltIn,
            [rspirv::dr::Operand::BuiltIn(builtin)],
        );
        self.apply_row_requirements(id, b.value, input, span)
    }

    /// Capability, extension, execution modes and `Flat` the system-value
    /// table's row asks for.
    fn apply_row_requirements(
        &mut self,
        id: Word,
        sv: ir::SystemValue,
        input: bool,
        span: ir::Span,
    ) -> Result<()> {
        let dir = if input {
            Direction::Input
        } else {
            Direction::Output
        };
        let legalis_sysval::GlslMapping::BuiltIn(row) =
            legalis_sysval::glsl(sv, self.entry.stage, dir)
        else {
            return Ok(());
        };
        if let Some(cap) = row.spirv_capability {
            let Ok(cap) = Capability::from_str(cap) else {
                return unsupported(format!("the capability {cap}"), span);
            };
            // The extension a capability needs below the version where it
            // is core, or the version it first exists in.
            match cap {
                Capability::MultiView => {
                    self.extensions.insert("SPV_KHR_multiview");
                }
                Capability::DeviceGroup => {
                    self.extensions.insert("SPV_KHR_device_group");
                }
                Capability::DrawParameters => {
                    self.extensions.insert("SPV_KHR_shader_draw_parameters");
                }
                Capability::ShaderLayer | Capability::ShaderViewportIndex => {
                    self.require_version(1, 5)
                }
                Capability::GroupNonUniform
                | Capability::GroupNonUniformVote
                | Capability::GroupNonUniformBallot
                | Capability::GroupNonUniformQuad => self.require_version(1, 3),
                _ => {}
            }
            self.capability(cap);
        }
        if let Some(ext) = row.spirv_extension {
            self.extensions.insert(ext);
        }
        if row.access == legalis_sysval::Access::MeshPerPrimitive {
            self.decorate(id, Decoration::PerPrimitiveEXT, []);
        }
        for &mode in row.spirv_execution_modes {
            match spirv::ExecutionMode::from_str(mode) {
                Ok(spirv::ExecutionMode::DepthReplacing) => self.writes_depth = true,
                Ok(mode) if !self.row_modes.contains(&mode) => self.row_modes.push(mode),
                Ok(_) => {}
                Err(()) => {
                    return unsupported(
                        format!("the execution mode {mode} `{}` needs", sv.name()),
                        span,
                    );
                }
            }
        }
        if row.flat && input {
            self.decorate(id, Decoration::Flat, []);
        }
        if row.patch {
            self.decorate(id, Decoration::Patch, []);
        }
        Ok(())
    }

    /// The scalar at the bottom of arrays of `ty`, if numeric.
    pub fn leaf_scalar(&self, ty: Handle<ir::Type>) -> Option<ir::Scalar> {
        match self.inner(ty) {
            TypeInner::Array { base, .. } => self.leaf_scalar(*base),
            inner => inner.scalar(),
        }
    }

    fn has_width(&self, ty: Handle<ir::Type>, width: u8) -> bool {
        self.leaf_scalar(ty).is_some_and(|s| s.width == width)
    }
}

/// The SPIR-V builtin implementing system value `sv`: the table's row (its
/// `noperspective` alternate for a `noperspective` global, B16). The
/// draw-parameter bases the rebasing of B6 reads are the rows of
/// `SV_StartVertexLocation` and `SV_StartInstanceLocation`, whose
/// capability (`DrawParameters`) the row asks for too.
fn builtin_name(
    sv: ir::SystemValue,
    stage: ir::ShaderStage,
    input: bool,
    noperspective: bool,
) -> Option<&'static str> {
    let dir = if input {
        Direction::Input
    } else {
        Direction::Output
    };
    match legalis_sysval::glsl(sv, stage, dir) {
        legalis_sysval::GlslMapping::BuiltIn(row) => match row.noperspective {
            Some(alternate) if noperspective => Some(alternate.spirv_builtin),
            _ => Some(row.spirv_builtin),
        },
        _ => None,
    }
}

pub(super) fn plain_ptr(root: Word, ty: Handle<ir::Type>, class: StorageClass) -> Ptr {
    Ptr {
        root,
        indices: Vec::new(),
        trailing: Vec::new(),
        ty,
        layout: Layout::Plain,
        class,
    }
}

/// Why a `DescriptorHandle` read as its resource is refused under `cap`.
pub(super) fn handle_capability_refusal(cap: ir::HandleCapability) -> String {
    let why = match cap {
        ir::HandleCapability::BindlessTextureNv => {
            "64-bit bindless texture and sampler handles (SPV_NV_bindless_texture) are not \
             written yet"
        }
        ir::HandleCapability::DescriptorHeapExt => {
            "untyped descriptor heaps (SPV_EXT_descriptor_heap) are unknown to the SPIR-V \
             validator Legalis checks its output with"
        }
    };
    format!(
        "a `DescriptorHandle` read as its resource under -capability {}: {why}; without the \
         capability it indexes the default descriptor-heap arrays",
        cap.name()
    )
}

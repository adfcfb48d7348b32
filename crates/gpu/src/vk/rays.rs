//! Ray tracing for the runner: a one-triangle scene in acceleration
//! structures, a ray-tracing pipeline with its shader table, and one
//! `vkCmdTraceRaysKHR`.

use std::ffi::{CStr, CString};

use ash::vk;

use super::{Runner, Scratch, barrier, vk_err};
use crate::{Rays, SENTINEL, Scene, StagedCase};

/// The device extensions ray tracing needs.
pub(super) const EXTENSIONS: [&CStr; 3] = [
    ash::khr::acceleration_structure::NAME,
    ash::khr::ray_tracing_pipeline::NAME,
    ash::khr::deferred_host_operations::NAME,
];

/// The extensions' commands and the device's shader-table sizes.
pub(super) struct RayTracing {
    accel: ash::khr::acceleration_structure::Device,
    pipeline: ash::khr::ray_tracing_pipeline::Device,
    handle_size: u32,
    handle_alignment: u32,
    base_alignment: u32,
    scratch_alignment: u32,
}

impl std::fmt::Debug for RayTracing {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RayTracing")
            .field("handle_size", &self.handle_size)
            .finish()
    }
}

impl RayTracing {
    pub(super) unsafe fn new(
        instance: &ash::Instance,
        physical: vk::PhysicalDevice,
        device: &ash::Device,
    ) -> RayTracing {
        let mut pipeline_props = vk::PhysicalDeviceRayTracingPipelinePropertiesKHR::default();
        let mut accel_props = vk::PhysicalDeviceAccelerationStructurePropertiesKHR::default();
        let mut props = vk::PhysicalDeviceProperties2::default()
            .push_next(&mut pipeline_props)
            .push_next(&mut accel_props);
        unsafe { instance.get_physical_device_properties2(physical, &mut props) };
        RayTracing {
            accel: ash::khr::acceleration_structure::Device::new(instance, device),
            pipeline: ash::khr::ray_tracing_pipeline::Device::new(instance, device),
            handle_size: pipeline_props.shader_group_handle_size,
            handle_alignment: pipeline_props.shader_group_handle_alignment,
            base_alignment: pipeline_props.shader_group_base_alignment,
            scratch_alignment: accel_props.min_acceleration_structure_scratch_offset_alignment,
        }
    }
}

fn align(value: u64, to: u64) -> u64 {
    value.div_ceil(to.max(1)) * to.max(1)
}

impl Runner {
    unsafe fn address(&self, buffer: vk::Buffer) -> u64 {
        unsafe {
            self.device
                .get_buffer_device_address(&vk::BufferDeviceAddressInfo::default().buffer(buffer))
        }
    }

    /// Builds an acceleration structure of `geometry` (recording the build
    /// into `cmd`) and returns it with its device address.
    unsafe fn structure(
        &self,
        scratch: &mut Scratch,
        cmd_builds: &mut Vec<Build>,
        ty: vk::AccelerationStructureTypeKHR,
        geometry: vk::AccelerationStructureGeometryKHR<'static>,
    ) -> Result<(vk::AccelerationStructureKHR, u64), String> {
        let rt = self.rays.as_ref().ok_or("no ray tracing")?;
        let geometries = [geometry];
        let info = vk::AccelerationStructureBuildGeometryInfoKHR::default()
            .ty(ty)
            .flags(vk::BuildAccelerationStructureFlagsKHR::PREFER_FAST_TRACE)
            .mode(vk::BuildAccelerationStructureModeKHR::BUILD)
            .geometries(&geometries);
        let mut sizes = vk::AccelerationStructureBuildSizesInfoKHR::default();
        unsafe {
            rt.accel.get_acceleration_structure_build_sizes(
                vk::AccelerationStructureBuildTypeKHR::DEVICE,
                &info,
                &[1],
                &mut sizes,
            )
        };
        let (storage, _) = unsafe {
            self.host_buffer(
                scratch,
                sizes.acceleration_structure_size,
                vk::BufferUsageFlags::ACCELERATION_STRUCTURE_STORAGE_KHR
                    | vk::BufferUsageFlags::SHADER_DEVICE_ADDRESS,
            )
        }?;
        let structure = unsafe {
            rt.accel.create_acceleration_structure(
                &vk::AccelerationStructureCreateInfoKHR::default()
                    .buffer(storage)
                    .size(sizes.acceleration_structure_size)
                    .ty(ty),
                None,
            )
        }
        .map_err(vk_err("vkCreateAccelerationStructureKHR"))?;
        scratch.structures.push((rt.accel.clone(), structure));
        let alignment = u64::from(rt.scratch_alignment);
        let (build_scratch, _) = unsafe {
            self.host_buffer(
                scratch,
                sizes.build_scratch_size + alignment,
                vk::BufferUsageFlags::STORAGE_BUFFER | vk::BufferUsageFlags::SHADER_DEVICE_ADDRESS,
            )
        }?;
        let scratch_address = align(unsafe { self.address(build_scratch) }, alignment);
        cmd_builds.push(Build {
            ty,
            geometry,
            structure,
            scratch_address,
        });
        let address = unsafe {
            rt.accel.get_acceleration_structure_device_address(
                &vk::AccelerationStructureDeviceAddressInfoKHR::default()
                    .acceleration_structure(structure),
            )
        };
        Ok((structure, address))
    }

    /// A host-visible buffer holding `values`; returns its device address.
    unsafe fn upload(
        &self,
        scratch: &mut Scratch,
        values: &[f32],
        usage: vk::BufferUsageFlags,
    ) -> Result<u64, String> {
        let (buffer, ptr) = unsafe { self.host_buffer(scratch, values.len() as u64 * 4, usage) }?;
        unsafe { std::ptr::copy_nonoverlapping(values.as_ptr().cast::<u32>(), ptr, values.len()) };
        Ok(unsafe { self.address(buffer) })
    }

    pub(super) unsafe fn trace(
        &self,
        scratch: &mut Scratch,
        case: &StagedCase,
        spirv: &[Vec<u32>],
        rays: &Rays,
    ) -> Result<Vec<u32>, String> {
        let d = &self.device;
        let rt = self.rays.as_ref().ok_or("no ray tracing")?;
        let address_usage = vk::BufferUsageFlags::SHADER_DEVICE_ADDRESS
            | vk::BufferUsageFlags::ACCELERATION_STRUCTURE_BUILD_INPUT_READ_ONLY_KHR;

        // The scene: one triangle or one box, instanced once.
        let (geometry, procedural) = match &rays.scene {
            Scene::Triangle(triangle) => {
                let floats: Vec<f32> = triangle.iter().flatten().copied().collect();
                let data = unsafe { self.upload(scratch, &floats, address_usage) }?;
                let triangles = vk::AccelerationStructureGeometryTrianglesDataKHR::default()
                    .vertex_format(vk::Format::R32G32B32_SFLOAT)
                    .vertex_data(vk::DeviceOrHostAddressConstKHR {
                        device_address: data,
                    })
                    .vertex_stride(12)
                    .max_vertex(2)
                    .index_type(vk::IndexType::NONE_KHR);
                let geometry = vk::AccelerationStructureGeometryKHR::default()
                    .geometry_type(vk::GeometryTypeKHR::TRIANGLES)
                    .geometry(vk::AccelerationStructureGeometryDataKHR { triangles })
                    .flags(vk::GeometryFlagsKHR::OPAQUE);
                (geometry, false)
            }
            Scene::Aabb(corners) => {
                let data = unsafe { self.upload(scratch, corners, address_usage) }?;
                let aabbs = vk::AccelerationStructureGeometryAabbsDataKHR::default()
                    .data(vk::DeviceOrHostAddressConstKHR {
                        device_address: data,
                    })
                    .stride(24);
                // Not opaque, so that the any-hit shader runs.
                let geometry = vk::AccelerationStructureGeometryKHR::default()
                    .geometry_type(vk::GeometryTypeKHR::AABBS)
                    .geometry(vk::AccelerationStructureGeometryDataKHR { aabbs });
                (geometry, true)
            }
        };
        let mut builds = Vec::new();
        let (_, blas_address) = unsafe {
            self.structure(
                scratch,
                &mut builds,
                vk::AccelerationStructureTypeKHR::BOTTOM_LEVEL,
                geometry,
            )
        }?;
        let instance = vk::AccelerationStructureInstanceKHR {
            transform: vk::TransformMatrixKHR {
                matrix: [1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0],
            },
            instance_custom_index_and_mask: vk::Packed24_8::new(rays.custom_index, 0xFF),
            instance_shader_binding_table_record_offset_and_flags: vk::Packed24_8::new(
                0,
                vk::GeometryInstanceFlagsKHR::TRIANGLE_FACING_CULL_DISABLE.as_raw() as u8,
            ),
            acceleration_structure_reference: vk::AccelerationStructureReferenceKHR {
                device_handle: blas_address,
            },
        };
        let instance_bytes = std::mem::size_of::<vk::AccelerationStructureInstanceKHR>();
        let (instances, instance_ptr) =
            unsafe { self.host_buffer(scratch, instance_bytes as u64, address_usage) }?;
        unsafe {
            std::ptr::copy_nonoverlapping(
                (&raw const instance).cast::<u8>(),
                instance_ptr.cast::<u8>(),
                instance_bytes,
            )
        };
        let instances_address = unsafe { self.address(instances) };
        let (tlas, _) = unsafe {
            self.structure(
                scratch,
                &mut builds,
                vk::AccelerationStructureTypeKHR::TOP_LEVEL,
                vk::AccelerationStructureGeometryKHR::default()
                    .geometry_type(vk::GeometryTypeKHR::INSTANCES)
                    .geometry(vk::AccelerationStructureGeometryDataKHR {
                        instances: vk::AccelerationStructureGeometryInstancesDataKHR::default()
                            .array_of_pointers(false)
                            .data(vk::DeviceOrHostAddressConstKHR {
                                device_address: instances_address,
                            }),
                    }),
            )
        }?;

        // The results buffer and the descriptor set.
        let bytes = u64::from(rays.words) * 4;
        let (results, results_ptr) = unsafe {
            self.host_buffer(
                scratch,
                bytes,
                vk::BufferUsageFlags::STORAGE_BUFFER | vk::BufferUsageFlags::TRANSFER_DST,
            )
        }?;
        let stages_all = vk::ShaderStageFlags::RAYGEN_KHR
            | vk::ShaderStageFlags::MISS_KHR
            | vk::ShaderStageFlags::CLOSEST_HIT_KHR
            | vk::ShaderStageFlags::CALLABLE_KHR;
        let bindings = [
            vk::DescriptorSetLayoutBinding::default()
                .binding(0)
                .descriptor_type(vk::DescriptorType::ACCELERATION_STRUCTURE_KHR)
                .descriptor_count(1)
                .stage_flags(stages_all),
            vk::DescriptorSetLayoutBinding::default()
                .binding(1)
                .descriptor_type(vk::DescriptorType::STORAGE_BUFFER)
                .descriptor_count(1)
                .stage_flags(stages_all),
        ];
        let set_layout = unsafe {
            d.create_descriptor_set_layout(
                &vk::DescriptorSetLayoutCreateInfo::default().bindings(&bindings),
                None,
            )
        }
        .map_err(vk_err("vkCreateDescriptorSetLayout"))?;
        scratch.set_layouts.push(set_layout);
        let set_layouts = [set_layout];
        let sizes = [
            vk::DescriptorPoolSize::default()
                .ty(vk::DescriptorType::ACCELERATION_STRUCTURE_KHR)
                .descriptor_count(1),
            vk::DescriptorPoolSize::default()
                .ty(vk::DescriptorType::STORAGE_BUFFER)
                .descriptor_count(1),
        ];
        let pool = unsafe {
            d.create_descriptor_pool(
                &vk::DescriptorPoolCreateInfo::default()
                    .max_sets(1)
                    .pool_sizes(&sizes),
                None,
            )
        }
        .map_err(vk_err("vkCreateDescriptorPool"))?;
        scratch.descriptor_pools.push(pool);
        let set = unsafe {
            d.allocate_descriptor_sets(
                &vk::DescriptorSetAllocateInfo::default()
                    .descriptor_pool(pool)
                    .set_layouts(&set_layouts),
            )
        }
        .map_err(vk_err("vkAllocateDescriptorSets"))?[0];
        let structures = [tlas];
        let mut structure_write = vk::WriteDescriptorSetAccelerationStructureKHR::default()
            .acceleration_structures(&structures);
        let buffer_infos = [vk::DescriptorBufferInfo::default()
            .buffer(results)
            .offset(0)
            .range(vk::WHOLE_SIZE)];
        let mut scene_write = vk::WriteDescriptorSet::default()
            .dst_set(set)
            .dst_binding(0)
            .descriptor_type(vk::DescriptorType::ACCELERATION_STRUCTURE_KHR)
            .push_next(&mut structure_write);
        scene_write.descriptor_count = 1;
        let writes = [
            scene_write,
            vk::WriteDescriptorSet::default()
                .dst_set(set)
                .dst_binding(1)
                .descriptor_type(vk::DescriptorType::STORAGE_BUFFER)
                .buffer_info(&buffer_infos),
        ];
        unsafe { d.update_descriptor_sets(&writes, &[]) };
        let layout = unsafe {
            d.create_pipeline_layout(
                &vk::PipelineLayoutCreateInfo::default().set_layouts(&set_layouts),
                None,
            )
        }
        .map_err(vk_err("vkCreatePipelineLayout"))?;
        scratch.layouts.push(layout);

        // The pipeline: ray generation, miss, one hit group of the hit
        // shaders, and the callable shader if any, in the manifest's order.
        let unused = vk::RayTracingShaderGroupCreateInfoKHR::default()
            .general_shader(vk::SHADER_UNUSED_KHR)
            .closest_hit_shader(vk::SHADER_UNUSED_KHR)
            .any_hit_shader(vk::SHADER_UNUSED_KHR)
            .intersection_shader(vk::SHADER_UNUSED_KHR);
        let mut hit_group = unused.ty(match procedural {
            true => vk::RayTracingShaderGroupTypeKHR::PROCEDURAL_HIT_GROUP,
            false => vk::RayTracingShaderGroupTypeKHR::TRIANGLES_HIT_GROUP,
        });
        let general = unused.ty(vk::RayTracingShaderGroupTypeKHR::GENERAL);
        let mut names = Vec::new();
        let mut stages = Vec::new();
        let mut groups = Vec::new();
        let order = "the shaders must be raygeneration, miss, the hit shaders, then callable";
        for (i, (shader, words)) in case.shaders.iter().zip(spirv).enumerate() {
            let index = i as u32;
            let stage = match shader.stage.as_str() {
                "raygeneration" if i == 0 => vk::ShaderStageFlags::RAYGEN_KHR,
                "miss" if i == 1 => vk::ShaderStageFlags::MISS_KHR,
                "closesthit" if i >= 2 => vk::ShaderStageFlags::CLOSEST_HIT_KHR,
                "anyhit" if i >= 2 => vk::ShaderStageFlags::ANY_HIT_KHR,
                "intersection" if i >= 2 => vk::ShaderStageFlags::INTERSECTION_KHR,
                "callable" if i + 1 == case.shaders.len() => vk::ShaderStageFlags::CALLABLE_KHR,
                _ => return Err(order.into()),
            };
            let module = unsafe { self.shader(scratch, words) }?;
            names.push(CString::new(shader.entry.as_str()).map_err(|e| e.to_string())?);
            stages.push((stage, module));
            match stage {
                vk::ShaderStageFlags::CLOSEST_HIT_KHR => {
                    hit_group = hit_group.closest_hit_shader(index)
                }
                vk::ShaderStageFlags::ANY_HIT_KHR => hit_group = hit_group.any_hit_shader(index),
                vk::ShaderStageFlags::INTERSECTION_KHR => {
                    hit_group = hit_group.intersection_shader(index)
                }
                vk::ShaderStageFlags::CALLABLE_KHR => {
                    groups.push(hit_group);
                    groups.push(general.general_shader(index));
                }
                _ => groups.push(general.general_shader(index)),
            }
        }
        if groups.len() < 3 {
            groups.push(hit_group);
        }
        if groups.len() < 3 {
            return Err(order.into());
        }
        let stage_infos: Vec<_> = stages
            .iter()
            .zip(&names)
            .map(|(&(stage, module), name)| {
                vk::PipelineShaderStageCreateInfo::default()
                    .stage(stage)
                    .module(module)
                    .name(name)
            })
            .collect();
        let info = vk::RayTracingPipelineCreateInfoKHR::default()
            .stages(&stage_infos)
            .groups(&groups)
            .max_pipeline_ray_recursion_depth(1)
            .layout(layout);
        let pipeline = unsafe {
            rt.pipeline.create_ray_tracing_pipelines(
                vk::DeferredOperationKHR::null(),
                vk::PipelineCache::null(),
                &[info],
                None,
            )
        }
        .map_err(|(_, e)| format!("vkCreateRayTracingPipelinesKHR: {e}"))?[0];
        scratch.pipelines.push(pipeline);

        // The shader table: one record per group, each at a base-aligned
        // offset.
        let handle_size = rt.handle_size as usize;
        let handles = unsafe {
            rt.pipeline.get_ray_tracing_shader_group_handles(
                pipeline,
                0,
                groups.len() as u32,
                groups.len() * handle_size,
            )
        }
        .map_err(vk_err("vkGetRayTracingShaderGroupHandlesKHR"))?;
        let stride = align(rt.handle_size as u64, u64::from(rt.handle_alignment));
        let record = align(stride, u64::from(rt.base_alignment));
        let base = u64::from(rt.base_alignment);
        let (table, table_ptr) = unsafe {
            self.host_buffer(
                scratch,
                record * groups.len() as u64 + base,
                vk::BufferUsageFlags::SHADER_BINDING_TABLE_KHR
                    | vk::BufferUsageFlags::SHADER_DEVICE_ADDRESS,
            )
        }?;
        let raw = unsafe { self.address(table) };
        let start = align(raw, base);
        let regions: Vec<_> = (0..groups.len())
            .map(|g| {
                let offset = start - raw + g as u64 * record;
                unsafe {
                    std::ptr::copy_nonoverlapping(
                        handles[g * handle_size..].as_ptr(),
                        table_ptr.cast::<u8>().add(offset as usize),
                        handle_size,
                    )
                };
                vk::StridedDeviceAddressRegionKHR {
                    device_address: start + g as u64 * record,
                    stride,
                    size: stride,
                }
            })
            .collect();

        unsafe {
            self.submit(scratch, |cmd| {
                // Bottom level first, then the top level that refers to it.
                for build in &builds {
                    let geometries = [build.geometry];
                    let info = vk::AccelerationStructureBuildGeometryInfoKHR::default()
                        .ty(build.ty)
                        .flags(vk::BuildAccelerationStructureFlagsKHR::PREFER_FAST_TRACE)
                        .mode(vk::BuildAccelerationStructureModeKHR::BUILD)
                        .geometries(&geometries)
                        .dst_acceleration_structure(build.structure)
                        .scratch_data(vk::DeviceOrHostAddressKHR {
                            device_address: build.scratch_address,
                        });
                    let range = [
                        vk::AccelerationStructureBuildRangeInfoKHR::default().primitive_count(1)
                    ];
                    rt.accel
                        .cmd_build_acceleration_structures(cmd, &[info], &[&range]);
                    barrier(
                        d,
                        cmd,
                        (
                            vk::PipelineStageFlags::ACCELERATION_STRUCTURE_BUILD_KHR,
                            vk::AccessFlags::ACCELERATION_STRUCTURE_WRITE_KHR,
                        ),
                        (
                            vk::PipelineStageFlags::ACCELERATION_STRUCTURE_BUILD_KHR
                                | vk::PipelineStageFlags::RAY_TRACING_SHADER_KHR,
                            vk::AccessFlags::ACCELERATION_STRUCTURE_READ_KHR,
                        ),
                    );
                }
                d.cmd_fill_buffer(cmd, results, 0, bytes, SENTINEL);
                barrier(
                    d,
                    cmd,
                    (
                        vk::PipelineStageFlags::TRANSFER,
                        vk::AccessFlags::TRANSFER_WRITE,
                    ),
                    (
                        vk::PipelineStageFlags::RAY_TRACING_SHADER_KHR,
                        vk::AccessFlags::SHADER_READ | vk::AccessFlags::SHADER_WRITE,
                    ),
                );
                d.cmd_bind_pipeline(cmd, vk::PipelineBindPoint::RAY_TRACING_KHR, pipeline);
                d.cmd_bind_descriptor_sets(
                    cmd,
                    vk::PipelineBindPoint::RAY_TRACING_KHR,
                    layout,
                    0,
                    &[set],
                    &[],
                );
                // Without a callable shader its region is empty.
                let callable = regions.get(3).copied().unwrap_or_default();
                rt.pipeline.cmd_trace_rays(
                    cmd,
                    &regions[0],
                    &regions[1],
                    &regions[2],
                    &callable,
                    rays.launch[0],
                    rays.launch[1],
                    rays.launch[2],
                );
                barrier(
                    d,
                    cmd,
                    (
                        vk::PipelineStageFlags::RAY_TRACING_SHADER_KHR,
                        vk::AccessFlags::SHADER_WRITE,
                    ),
                    (vk::PipelineStageFlags::HOST, vk::AccessFlags::HOST_READ),
                );
            })
        }?;
        Ok(unsafe { std::slice::from_raw_parts(results_ptr, rays.words as usize) }.to_vec())
    }
}

/// One acceleration-structure build to record.
pub(super) struct Build {
    ty: vk::AccelerationStructureTypeKHR,
    geometry: vk::AccelerationStructureGeometryKHR<'static>,
    structure: vk::AccelerationStructureKHR,
    scratch_address: u64,
}

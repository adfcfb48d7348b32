//! The Vulkan runner (ash): runs one staged case and reads its results.
//!
//! The loader is opened at run time (`ash::Entry::load`), so nothing links
//! against libvulkan: on a machine without a loader or a device,
//! [`Runner::new`] returns an error and callers skip the GPU part.

#![allow(unsafe_code)]

use std::ffi::CString;

use ash::vk;

use crate::{Pipeline, SENTINEL, StagedCase};

mod rays;

/// The optional device features a case's SPIR-V may need.
#[derive(Clone, Copy, Debug, Default)]
pub struct Features {
    pub shader_float16: bool,
    pub storage_input_output16: bool,
    pub shader_int16: bool,
    pub shader_float64: bool,
    pub shader_int64: bool,
    pub shader_draw_parameters: bool,
    pub geometry_shader: bool,
    pub tessellation_shader: bool,
    pub shader_clip_distance: bool,
    /// VK_EXT_mesh_shader's `meshShader` and `taskShader`.
    pub mesh_shader: bool,
    pub task_shader: bool,
    /// VK_KHR_ray_tracing_pipeline with VK_KHR_acceleration_structure and
    /// bufferDeviceAddress.
    pub ray_tracing: bool,
    /// VK_EXT_transform_feedback's `transformFeedback` and
    /// `geometryStreams`.
    pub transform_feedback: bool,
    pub geometry_streams: bool,
}

impl Features {
    /// The feature a SPIR-V capability needs, and whether the device has
    /// it; `None` for capabilities that need none the runner knows of.
    fn for_capability(&self, capability: &str) -> Option<(&'static str, bool)> {
        Some(match capability {
            "Float16" => ("shaderFloat16", self.shader_float16),
            "StorageInputOutput16" => ("storageInputOutput16", self.storage_input_output16),
            "Int16" => ("shaderInt16", self.shader_int16),
            "Float64" => ("shaderFloat64", self.shader_float64),
            "Int64" => ("shaderInt64", self.shader_int64),
            "DrawParameters" => ("shaderDrawParameters", self.shader_draw_parameters),
            "Geometry" => ("geometryShader", self.geometry_shader),
            "Tessellation" => ("tessellationShader", self.tessellation_shader),
            "ClipDistance" => ("shaderClipDistance", self.shader_clip_distance),
            "MeshShadingEXT" => ("meshShader (VK_EXT_mesh_shader)", self.mesh_shader),
            "RayTracingKHR" => (
                "rayTracingPipeline (VK_KHR_ray_tracing_pipeline)",
                self.ray_tracing,
            ),
            "TransformFeedback" => (
                "transformFeedback (VK_EXT_transform_feedback)",
                self.transform_feedback,
            ),
            "GeometryStreams" => (
                "geometryStreams (VK_EXT_transform_feedback)",
                self.geometry_streams,
            ),
            _ => return None,
        })
    }
}

/// What running one case came to.
#[derive(Clone, Debug, PartialEq)]
pub enum Outcome {
    Passed,
    /// A negative control whose results differed, as they must.
    Control(String),
    /// The results differ from the expectation, or Vulkan failed.
    Failed(String),
    /// The device lacks a feature the case needs.
    Skipped(String),
}

/// VK_EXT_transform_feedback's commands and the limits the runner checks.
struct TransformFeedback {
    commands: ash::ext::transform_feedback::Device,
    /// `maxTransformFeedbackStreams` and `maxTransformFeedbackBuffers`.
    streams: u32,
    buffers: u32,
}

/// An instance, a device and a queue that can do graphics and compute.
pub struct Runner {
    _entry: ash::Entry,
    instance: ash::Instance,
    device: ash::Device,
    queue: vk::Queue,
    pool: vk::CommandPool,
    memory: vk::PhysicalDeviceMemoryProperties,
    /// VK_EXT_mesh_shader's commands, when the device has mesh shaders.
    mesh: Option<ash::ext::mesh_shader::Device>,
    /// The ray-tracing commands and properties, when the device has them.
    rays: Option<rays::RayTracing>,
    /// VK_EXT_transform_feedback, when the device has `transformFeedback`.
    xfb: Option<TransformFeedback>,
    /// The device's name and driver version, for the report.
    pub description: String,
    /// The values of the features behind skips and of the transform
    /// feedback properties, as the device reports them, for the report.
    pub feature_report: String,
    pub features: Features,
}

impl std::fmt::Debug for Runner {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Runner")
            .field("description", &self.description)
            .field("features", &self.features)
            .finish()
    }
}

fn vk_err(what: &str) -> impl Fn(vk::Result) -> String + '_ {
    move |e| format!("{what}: {e}")
}

impl Runner {
    /// Opens the Vulkan loader and the first device (a discrete GPU when
    /// there is one) with a graphics-and-compute queue.
    pub fn new() -> Result<Runner, String> {
        let entry = unsafe { ash::Entry::load() }.map_err(|e| format!("no Vulkan loader: {e}"))?;
        let app = vk::ApplicationInfo::default()
            .application_name(c"legalis-gpu")
            .api_version(vk::API_VERSION_1_2);
        let instance = unsafe {
            entry.create_instance(
                &vk::InstanceCreateInfo::default().application_info(&app),
                None,
            )
        }
        .map_err(vk_err("vkCreateInstance"))?;
        match unsafe { Self::open(entry.clone(), instance.clone()) } {
            Ok(runner) => Ok(runner),
            Err(e) => {
                unsafe { instance.destroy_instance(None) };
                Err(e)
            }
        }
    }

    unsafe fn open(entry: ash::Entry, instance: ash::Instance) -> Result<Runner, String> {
        let devices = unsafe { instance.enumerate_physical_devices() }
            .map_err(vk_err("vkEnumeratePhysicalDevices"))?;
        let props = |d: vk::PhysicalDevice| unsafe { instance.get_physical_device_properties(d) };
        let physical = devices
            .iter()
            .copied()
            .find(|&d| props(d).device_type == vk::PhysicalDeviceType::DISCRETE_GPU)
            .or_else(|| devices.first().copied())
            .ok_or("no Vulkan device")?;
        let properties = props(physical);
        if properties.api_version < vk::API_VERSION_1_2 {
            return Err("the Vulkan device does not support Vulkan 1.2".into());
        }
        let name = properties
            .device_name_as_c_str()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let driver = properties.driver_version;
        // NVIDIA packs its driver version 10.8.8.6 bits; others vary.
        let driver = match properties.vendor_id {
            0x10DE => format!(
                "{}.{}.{:02}",
                driver >> 22,
                (driver >> 14) & 0xFF,
                (driver >> 6) & 0xFF
            ),
            _ => format!("{driver:#x}"),
        };
        let description = format!(
            "{name} (Vulkan {}.{}.{}, driver {driver})",
            vk::api_version_major(properties.api_version),
            vk::api_version_minor(properties.api_version),
            vk::api_version_patch(properties.api_version),
        );
        let family = unsafe { instance.get_physical_device_queue_family_properties(physical) }
            .iter()
            .position(|q| {
                q.queue_flags
                    .contains(vk::QueueFlags::GRAPHICS | vk::QueueFlags::COMPUTE)
            })
            .ok_or("no queue family with graphics and compute")? as u32;

        let extensions_here: Vec<_> =
            unsafe { instance.enumerate_device_extension_properties(physical) }
                .map_err(vk_err("vkEnumerateDeviceExtensionProperties"))?;
        let has_extension = |name: &std::ffi::CStr| {
            extensions_here
                .iter()
                .any(|e| e.extension_name_as_c_str() == Ok(name))
        };
        let has_ray_extensions = rays::EXTENSIONS.iter().all(|name| has_extension(name));
        let mut has_rt = vk::PhysicalDeviceRayTracingPipelineFeaturesKHR::default();
        let mut has_as = vk::PhysicalDeviceAccelerationStructureFeaturesKHR::default();
        let has_mesh_extension =
            unsafe { instance.enumerate_device_extension_properties(physical) }
                .map_err(vk_err("vkEnumerateDeviceExtensionProperties"))?
                .iter()
                .any(|e| e.extension_name_as_c_str() == Ok(ash::ext::mesh_shader::NAME));
        let mut has_mesh = vk::PhysicalDeviceMeshShaderFeaturesEXT::default();
        let has_xfb_extension = has_extension(ash::ext::transform_feedback::NAME);
        let mut has_xfb = vk::PhysicalDeviceTransformFeedbackFeaturesEXT::default();
        let mut has11 = vk::PhysicalDeviceVulkan11Features::default();
        let mut has12 = vk::PhysicalDeviceVulkan12Features::default();
        let mut has = vk::PhysicalDeviceFeatures2::default()
            .push_next(&mut has11)
            .push_next(&mut has12);
        if has_mesh_extension {
            has = has.push_next(&mut has_mesh);
        }
        if has_ray_extensions {
            has = has.push_next(&mut has_rt).push_next(&mut has_as);
        }
        if has_xfb_extension {
            has = has.push_next(&mut has_xfb);
        }
        unsafe { instance.get_physical_device_features2(physical, &mut has) };
        let base = has.features;
        // The same 16-bit feature through its own structure (Vulkan 1.1's
        // VkPhysicalDevice16BitStorageFeatures), queried on its own.
        let mut has16 = vk::PhysicalDevice16BitStorageFeatures::default();
        unsafe {
            instance.get_physical_device_features2(
                physical,
                &mut vk::PhysicalDeviceFeatures2::default().push_next(&mut has16),
            )
        };
        let mut xfb_limits = vk::PhysicalDeviceTransformFeedbackPropertiesEXT::default();
        if has_xfb_extension {
            let mut properties2 =
                vk::PhysicalDeviceProperties2::default().push_next(&mut xfb_limits);
            unsafe { instance.get_physical_device_properties2(physical, &mut properties2) };
        }
        let flag = |b: vk::Bool32| b == vk::TRUE;
        let feature_report = format!(
            "storageInputOutput16 {} (VkPhysicalDeviceVulkan11Features) and {} \
             (VkPhysicalDevice16BitStorageFeatures); VK_EXT_transform_feedback {}: \
             transformFeedback {}, geometryStreams {}, \
             transformFeedbackRasterizationStreamSelect {}, \
             transformFeedbackStreamsLinesTriangles {}, maxTransformFeedbackStreams {}, \
             maxTransformFeedbackBuffers {}",
            flag(has11.storage_input_output16),
            flag(has16.storage_input_output16),
            if has_xfb_extension {
                "present"
            } else {
                "absent"
            },
            flag(has_xfb.transform_feedback),
            flag(has_xfb.geometry_streams),
            flag(xfb_limits.transform_feedback_rasterization_stream_select),
            flag(xfb_limits.transform_feedback_streams_lines_triangles),
            xfb_limits.max_transform_feedback_streams,
            xfb_limits.max_transform_feedback_buffers,
        );
        let features = Features {
            shader_float16: has12.shader_float16 == vk::TRUE,
            storage_input_output16: has11.storage_input_output16 == vk::TRUE,
            shader_int16: base.shader_int16 == vk::TRUE,
            shader_float64: base.shader_float64 == vk::TRUE,
            shader_int64: base.shader_int64 == vk::TRUE,
            shader_draw_parameters: has11.shader_draw_parameters == vk::TRUE,
            geometry_shader: base.geometry_shader == vk::TRUE,
            tessellation_shader: base.tessellation_shader == vk::TRUE,
            shader_clip_distance: base.shader_clip_distance == vk::TRUE,
            mesh_shader: has_mesh.mesh_shader == vk::TRUE,
            task_shader: has_mesh.task_shader == vk::TRUE,
            ray_tracing: has_rt.ray_tracing_pipeline == vk::TRUE
                && has_as.acceleration_structure == vk::TRUE
                && has12.buffer_device_address == vk::TRUE,
            transform_feedback: has_xfb.transform_feedback == vk::TRUE,
            geometry_streams: has_xfb.geometry_streams == vk::TRUE,
        };
        // Enable exactly what the device has of the features above.
        let mut on11 = vk::PhysicalDeviceVulkan11Features::default()
            .storage_input_output16(features.storage_input_output16)
            .shader_draw_parameters(features.shader_draw_parameters);
        let mut on12 = vk::PhysicalDeviceVulkan12Features::default()
            .shader_float16(features.shader_float16)
            .buffer_device_address(features.ray_tracing);
        let on_base = vk::PhysicalDeviceFeatures::default()
            .shader_int16(features.shader_int16)
            .shader_float64(features.shader_float64)
            .shader_int64(features.shader_int64)
            .geometry_shader(features.geometry_shader)
            .tessellation_shader(features.tessellation_shader)
            .shader_clip_distance(features.shader_clip_distance)
            .fragment_stores_and_atomics(base.fragment_stores_and_atomics == vk::TRUE)
            .vertex_pipeline_stores_and_atomics(
                base.vertex_pipeline_stores_and_atomics == vk::TRUE,
            );
        let mut on = vk::PhysicalDeviceFeatures2::default()
            .features(on_base)
            .push_next(&mut on11)
            .push_next(&mut on12);
        let priorities = [1.0f32];
        let queues = [vk::DeviceQueueCreateInfo::default()
            .queue_family_index(family)
            .queue_priorities(&priorities)];
        let mut on_mesh = vk::PhysicalDeviceMeshShaderFeaturesEXT::default()
            .mesh_shader(features.mesh_shader)
            .task_shader(features.task_shader);
        let mut extensions = Vec::new();
        let mut info = vk::DeviceCreateInfo::default()
            .queue_create_infos(&queues)
            .push_next(&mut on);
        if features.mesh_shader {
            extensions.push(ash::ext::mesh_shader::NAME.as_ptr());
            info = info.push_next(&mut on_mesh);
        }
        let mut on_rt =
            vk::PhysicalDeviceRayTracingPipelineFeaturesKHR::default().ray_tracing_pipeline(true);
        let mut on_as = vk::PhysicalDeviceAccelerationStructureFeaturesKHR::default()
            .acceleration_structure(true);
        if features.ray_tracing {
            extensions.extend(rays::EXTENSIONS.iter().map(|name| name.as_ptr()));
            info = info.push_next(&mut on_rt).push_next(&mut on_as);
        }
        let mut on_xfb = vk::PhysicalDeviceTransformFeedbackFeaturesEXT::default()
            .transform_feedback(features.transform_feedback)
            .geometry_streams(features.geometry_streams);
        if features.transform_feedback || features.geometry_streams {
            extensions.push(ash::ext::transform_feedback::NAME.as_ptr());
            info = info.push_next(&mut on_xfb);
        }
        let info = info.enabled_extension_names(&extensions);
        let device = unsafe { instance.create_device(physical, &info, None) }
            .map_err(vk_err("vkCreateDevice"))?;
        let queue = unsafe { device.get_device_queue(family, 0) };
        let pool = unsafe {
            device.create_command_pool(
                &vk::CommandPoolCreateInfo::default()
                    .queue_family_index(family)
                    .flags(vk::CommandPoolCreateFlags::RESET_COMMAND_BUFFER),
                None,
            )
        }
        .map_err(vk_err("vkCreateCommandPool"))?;
        let memory = unsafe { instance.get_physical_device_memory_properties(physical) };
        let mesh = features
            .mesh_shader
            .then(|| ash::ext::mesh_shader::Device::new(&instance, &device));
        let xfb = features.transform_feedback.then(|| TransformFeedback {
            commands: ash::ext::transform_feedback::Device::new(&instance, &device),
            streams: xfb_limits.max_transform_feedback_streams,
            buffers: xfb_limits.max_transform_feedback_buffers,
        });
        let rays = match features.ray_tracing {
            true => Some(unsafe { rays::RayTracing::new(&instance, physical, &device) }),
            false => None,
        };
        Ok(Runner {
            mesh,
            rays,
            xfb,
            feature_report,
            _entry: entry,
            instance,
            device,
            queue,
            pool,
            memory,
            description,
            features,
        })
    }

    /// Runs `case` with its shaders' SPIR-V (in `case.shaders` order) and
    /// compares the words it writes with `case.expect`.
    pub fn run(&self, case: &StagedCase, spirv: &[Vec<u32>]) -> Outcome {
        let mut missing = Vec::new();
        for shader in &case.shaders {
            for capability in &shader.capabilities {
                if let Some((feature, false)) = self.features.for_capability(capability)
                    && !missing.contains(&feature)
                {
                    missing.push(feature);
                }
            }
        }
        if case.shaders.iter().any(|s| s.stage == "amplification") && !self.features.task_shader {
            missing.push("taskShader (VK_EXT_mesh_shader)");
        }
        if !missing.is_empty() {
            return Outcome::Skipped(format!("the device lacks {}", missing.join(", ")));
        }
        if let Some(why) = self.lacks_transform_feedback(case) {
            return Outcome::Skipped(why);
        }
        let mut scratch = Scratch::new(&self.device);
        let result = unsafe {
            match &case.pipeline {
                Pipeline::Compute { groups, words } => {
                    self.compute(&mut scratch, case, spirv, *groups, *words)
                }
                Pipeline::Draw(_) => self.draw(&mut scratch, case, spirv),
                Pipeline::Rays(rays) => self.trace(&mut scratch, case, spirv, rays),
            }
        };
        drop(scratch);
        match result {
            Err(e) => Outcome::Failed(e),
            Ok(got) => {
                let bad = crate::mismatches(&case.expect, &got);
                if case.control {
                    return match bad.len() {
                        0 => Outcome::Failed(
                            "the negative control produced the expected words".into(),
                        ),
                        n => Outcome::Control(format!(
                            "{n} of {} words differ, as they must",
                            case.expect.len()
                        )),
                    };
                }
                if bad.is_empty() {
                    return Outcome::Passed;
                }
                let mut text = format!("{} of {} words differ", bad.len(), case.expect.len());
                for (i, expected, got) in bad.iter().take(8) {
                    let got = got.map_or("nothing".to_string(), |g| format!("{g:#010x}"));
                    text += &format!("\n  {}: expected {expected}, got {got}", locate(case, *i));
                }
                Outcome::Failed(text)
            }
        }
    }

    /// Why the device cannot run `case`'s streams or transform feedback
    /// (the capabilities are checked already): too few streams for a
    /// module that emits to several, or too few buffers for its slots.
    fn lacks_transform_feedback(&self, case: &StagedCase) -> Option<String> {
        let streams = case
            .shaders
            .iter()
            .any(|s| s.capabilities.iter().any(|c| c == "GeometryStreams"));
        let slots = match &case.pipeline {
            Pipeline::Draw(draw) => draw.capture_words.iter().rposition(|&w| w > 0),
            _ => None,
        };
        if !streams && slots.is_none() {
            return None;
        }
        let Some(xfb) = &self.xfb else {
            return Some("the device lacks transformFeedback (VK_EXT_transform_feedback)".into());
        };
        if streams && xfb.streams < 2 {
            return Some(format!(
                "the device has {} transform feedback stream(s), the case emits to several",
                xfb.streams
            ));
        }
        match slots {
            Some(slot) if slot as u32 >= xfb.buffers => Some(format!(
                "the device has {} transform feedback buffer(s), the case binds slot {slot}",
                xfb.buffers
            )),
            _ => None,
        }
    }

    fn memory_type(&self, bits: u32, flags: vk::MemoryPropertyFlags) -> Result<u32, String> {
        (0..self.memory.memory_type_count)
            .find(|&i| {
                bits & (1 << i) != 0
                    && self.memory.memory_types[i as usize]
                        .property_flags
                        .contains(flags)
            })
            .ok_or_else(|| format!("no memory type with {flags:?}"))
    }

    /// A host-visible, coherent buffer of `bytes`, mapped.
    pub(crate) unsafe fn host_buffer(
        &self,
        scratch: &mut Scratch,
        bytes: u64,
        usage: vk::BufferUsageFlags,
    ) -> Result<(vk::Buffer, *mut u32), String> {
        let d = &self.device;
        let buffer = unsafe {
            d.create_buffer(
                &vk::BufferCreateInfo::default().size(bytes).usage(usage),
                None,
            )
        }
        .map_err(vk_err("vkCreateBuffer"))?;
        scratch.buffers.push(buffer);
        let needs = unsafe { d.get_buffer_memory_requirements(buffer) };
        let kind = self.memory_type(
            needs.memory_type_bits,
            vk::MemoryPropertyFlags::HOST_VISIBLE | vk::MemoryPropertyFlags::HOST_COHERENT,
        )?;
        let mut flags =
            vk::MemoryAllocateFlagsInfo::default().flags(vk::MemoryAllocateFlags::DEVICE_ADDRESS);
        let mut info = vk::MemoryAllocateInfo::default()
            .allocation_size(needs.size)
            .memory_type_index(kind);
        if usage.contains(vk::BufferUsageFlags::SHADER_DEVICE_ADDRESS) {
            info = info.push_next(&mut flags);
        }
        let memory =
            unsafe { d.allocate_memory(&info, None) }.map_err(vk_err("vkAllocateMemory"))?;
        scratch.memories.push(memory);
        unsafe { d.bind_buffer_memory(buffer, memory, 0) }.map_err(vk_err("vkBindBufferMemory"))?;
        let ptr = unsafe { d.map_memory(memory, 0, bytes, vk::MemoryMapFlags::empty()) }
            .map_err(vk_err("vkMapMemory"))?;
        Ok((buffer, ptr.cast()))
    }

    pub(crate) unsafe fn shader(
        &self,
        scratch: &mut Scratch,
        words: &[u32],
    ) -> Result<vk::ShaderModule, String> {
        let module = unsafe {
            self.device
                .create_shader_module(&vk::ShaderModuleCreateInfo::default().code(words), None)
        }
        .map_err(vk_err("vkCreateShaderModule"))?;
        scratch.modules.push(module);
        Ok(module)
    }

    /// Records commands with `record`, submits them and waits.
    pub(crate) unsafe fn submit(
        &self,
        scratch: &mut Scratch,
        record: impl FnOnce(vk::CommandBuffer),
    ) -> Result<(), String> {
        let d = &self.device;
        let cmd = unsafe {
            d.allocate_command_buffers(
                &vk::CommandBufferAllocateInfo::default()
                    .command_pool(self.pool)
                    .level(vk::CommandBufferLevel::PRIMARY)
                    .command_buffer_count(1),
            )
        }
        .map_err(vk_err("vkAllocateCommandBuffers"))?[0];
        scratch.commands.push((self.pool, cmd));
        unsafe {
            d.begin_command_buffer(
                cmd,
                &vk::CommandBufferBeginInfo::default()
                    .flags(vk::CommandBufferUsageFlags::ONE_TIME_SUBMIT),
            )
        }
        .map_err(vk_err("vkBeginCommandBuffer"))?;
        record(cmd);
        unsafe { d.end_command_buffer(cmd) }.map_err(vk_err("vkEndCommandBuffer"))?;
        let fence = unsafe { d.create_fence(&vk::FenceCreateInfo::default(), None) }
            .map_err(vk_err("vkCreateFence"))?;
        scratch.fences.push(fence);
        let cmds = [cmd];
        unsafe {
            d.queue_submit(
                self.queue,
                &[vk::SubmitInfo::default().command_buffers(&cmds)],
                fence,
            )
        }
        .map_err(vk_err("vkQueueSubmit"))?;
        unsafe { d.wait_for_fences(&[fence], true, 10_000_000_000) }
            .map_err(vk_err("vkWaitForFences"))
    }

    /// A descriptor set with `buffer` as the storage buffer at binding 0,
    /// and its layout.
    unsafe fn storage_set(
        &self,
        scratch: &mut Scratch,
        buffer: vk::Buffer,
        stages: vk::ShaderStageFlags,
    ) -> Result<(vk::DescriptorSetLayout, vk::DescriptorSet), String> {
        let d = &self.device;
        let bindings = [vk::DescriptorSetLayoutBinding::default()
            .binding(0)
            .descriptor_type(vk::DescriptorType::STORAGE_BUFFER)
            .descriptor_count(1)
            .stage_flags(stages)];
        let set_layout = unsafe {
            d.create_descriptor_set_layout(
                &vk::DescriptorSetLayoutCreateInfo::default().bindings(&bindings),
                None,
            )
        }
        .map_err(vk_err("vkCreateDescriptorSetLayout"))?;
        scratch.set_layouts.push(set_layout);
        let set_layouts = [set_layout];
        let sizes = [vk::DescriptorPoolSize::default()
            .ty(vk::DescriptorType::STORAGE_BUFFER)
            .descriptor_count(1)];
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
        let buffers = [vk::DescriptorBufferInfo::default()
            .buffer(buffer)
            .offset(0)
            .range(vk::WHOLE_SIZE)];
        let writes = [vk::WriteDescriptorSet::default()
            .dst_set(set)
            .dst_binding(0)
            .descriptor_type(vk::DescriptorType::STORAGE_BUFFER)
            .buffer_info(&buffers)];
        unsafe { d.update_descriptor_sets(&writes, &[]) };
        Ok((set_layout, set))
    }

    unsafe fn compute(
        &self,
        scratch: &mut Scratch,
        case: &StagedCase,
        spirv: &[Vec<u32>],
        groups: [u32; 3],
        words: u32,
    ) -> Result<Vec<u32>, String> {
        let d = &self.device;
        let [shader] = case.shaders.as_slice() else {
            return Err("a compute case has one shader".into());
        };
        let bytes = u64::from(words) * 4;
        let (buffer, ptr) = unsafe {
            self.host_buffer(
                scratch,
                bytes,
                vk::BufferUsageFlags::STORAGE_BUFFER | vk::BufferUsageFlags::TRANSFER_DST,
            )
        }?;
        let (set_layout, set) =
            unsafe { self.storage_set(scratch, buffer, vk::ShaderStageFlags::COMPUTE) }?;
        let set_layouts = [set_layout];
        let layout = unsafe {
            d.create_pipeline_layout(
                &vk::PipelineLayoutCreateInfo::default().set_layouts(&set_layouts),
                None,
            )
        }
        .map_err(vk_err("vkCreatePipelineLayout"))?;
        scratch.layouts.push(layout);
        let module = unsafe { self.shader(scratch, &spirv[0]) }?;
        let entry = CString::new(shader.entry.as_str()).map_err(|e| e.to_string())?;
        let info = vk::ComputePipelineCreateInfo::default()
            .stage(
                vk::PipelineShaderStageCreateInfo::default()
                    .stage(vk::ShaderStageFlags::COMPUTE)
                    .module(module)
                    .name(&entry),
            )
            .layout(layout);
        let pipeline =
            unsafe { d.create_compute_pipelines(vk::PipelineCache::null(), &[info], None) }
                .map_err(|(_, e)| format!("vkCreateComputePipelines: {e}"))?[0];
        scratch.pipelines.push(pipeline);
        unsafe {
            self.submit(scratch, |cmd| {
                d.cmd_fill_buffer(cmd, buffer, 0, bytes, SENTINEL);
                barrier(
                    d,
                    cmd,
                    (
                        vk::PipelineStageFlags::TRANSFER,
                        vk::AccessFlags::TRANSFER_WRITE,
                    ),
                    (
                        vk::PipelineStageFlags::COMPUTE_SHADER,
                        vk::AccessFlags::SHADER_READ | vk::AccessFlags::SHADER_WRITE,
                    ),
                );
                d.cmd_bind_pipeline(cmd, vk::PipelineBindPoint::COMPUTE, pipeline);
                d.cmd_bind_descriptor_sets(
                    cmd,
                    vk::PipelineBindPoint::COMPUTE,
                    layout,
                    0,
                    &[set],
                    &[],
                );
                d.cmd_dispatch(cmd, groups[0], groups[1], groups[2]);
                barrier(
                    d,
                    cmd,
                    (
                        vk::PipelineStageFlags::COMPUTE_SHADER,
                        vk::AccessFlags::SHADER_WRITE,
                    ),
                    (vk::PipelineStageFlags::HOST, vk::AccessFlags::HOST_READ),
                );
            })
        }?;
        Ok(unsafe { std::slice::from_raw_parts(ptr, words as usize) }.to_vec())
    }

    unsafe fn draw(
        &self,
        scratch: &mut Scratch,
        case: &StagedCase,
        spirv: &[Vec<u32>],
    ) -> Result<Vec<u32>, String> {
        let d = &self.device;
        let Pipeline::Draw(crate::Draw {
            width,
            height,
            targets,
            patch_points,
            buffer_words,
            vertex_count,
            instance_count,
            first_vertex,
            first_instance,
            mesh_groups,
            capture_words,
        }) = case.pipeline
        else {
            return Err("not a draw".into());
        };
        let format = vk::Format::R32G32B32A32_UINT;
        let extent = vk::Extent2D { width, height };
        let texel_bytes = 16u64;
        let target_bytes = u64::from(width) * u64::from(height) * texel_bytes;
        let image_bytes = target_bytes * u64::from(targets);
        let (readback, ptr) =
            unsafe { self.host_buffer(scratch, image_bytes, vk::BufferUsageFlags::TRANSFER_DST) }?;
        let storage_bytes = u64::from(buffer_words) * 4;
        let storage = match buffer_words {
            0 => None,
            _ => Some(unsafe {
                self.host_buffer(
                    scratch,
                    storage_bytes,
                    vk::BufferUsageFlags::STORAGE_BUFFER | vk::BufferUsageFlags::TRANSFER_DST,
                )
            }?),
        };
        // Transform-feedback buffers: (slot, buffer, mapping, words).
        let mut captures = Vec::new();
        for (slot, &words) in capture_words.iter().enumerate() {
            if words == 0 {
                continue;
            }
            let (buffer, ptr) = unsafe {
                self.host_buffer(
                    scratch,
                    u64::from(words) * 4,
                    vk::BufferUsageFlags::TRANSFORM_FEEDBACK_BUFFER_EXT
                        | vk::BufferUsageFlags::TRANSFER_DST,
                )
            }?;
            captures.push((slot as u32, buffer, ptr, words));
        }
        let xfb = match (&self.xfb, captures.is_empty()) {
            (_, true) => None,
            (Some(xfb), false) => Some(&xfb.commands),
            (None, false) => return Err("transform feedback is not enabled".into()),
        };
        let set = match storage {
            Some((buffer, _)) => Some(unsafe {
                self.storage_set(scratch, buffer, vk::ShaderStageFlags::ALL_GRAPHICS)
            }?),
            None => None,
        };
        let mut images = Vec::new();
        let mut views = Vec::new();
        for _ in 0..targets {
            let image = unsafe {
                d.create_image(
                    &vk::ImageCreateInfo::default()
                        .image_type(vk::ImageType::TYPE_2D)
                        .format(format)
                        .extent(vk::Extent3D {
                            width,
                            height,
                            depth: 1,
                        })
                        .mip_levels(1)
                        .array_layers(1)
                        .samples(vk::SampleCountFlags::TYPE_1)
                        .tiling(vk::ImageTiling::OPTIMAL)
                        .usage(
                            vk::ImageUsageFlags::COLOR_ATTACHMENT
                                | vk::ImageUsageFlags::TRANSFER_SRC,
                        )
                        .initial_layout(vk::ImageLayout::UNDEFINED),
                    None,
                )
            }
            .map_err(vk_err("vkCreateImage"))?;
            scratch.images.push(image);
            let needs = unsafe { d.get_image_memory_requirements(image) };
            let kind = self.memory_type(
                needs.memory_type_bits,
                vk::MemoryPropertyFlags::DEVICE_LOCAL,
            )?;
            let memory = unsafe {
                d.allocate_memory(
                    &vk::MemoryAllocateInfo::default()
                        .allocation_size(needs.size)
                        .memory_type_index(kind),
                    None,
                )
            }
            .map_err(vk_err("vkAllocateMemory"))?;
            scratch.memories.push(memory);
            unsafe { d.bind_image_memory(image, memory, 0) }
                .map_err(vk_err("vkBindImageMemory"))?;
            let view = unsafe {
                d.create_image_view(
                    &vk::ImageViewCreateInfo::default()
                        .image(image)
                        .view_type(vk::ImageViewType::TYPE_2D)
                        .format(format)
                        .subresource_range(color_range()),
                    None,
                )
            }
            .map_err(vk_err("vkCreateImageView"))?;
            scratch.views.push(view);
            images.push(image);
            views.push(view);
        }
        let attachments: Vec<_> = (0..targets)
            .map(|_| {
                vk::AttachmentDescription::default()
                    .format(format)
                    .samples(vk::SampleCountFlags::TYPE_1)
                    .load_op(vk::AttachmentLoadOp::CLEAR)
                    .store_op(vk::AttachmentStoreOp::STORE)
                    .stencil_load_op(vk::AttachmentLoadOp::DONT_CARE)
                    .stencil_store_op(vk::AttachmentStoreOp::DONT_CARE)
                    .initial_layout(vk::ImageLayout::UNDEFINED)
                    .final_layout(vk::ImageLayout::TRANSFER_SRC_OPTIMAL)
            })
            .collect();
        let refs: Vec<_> = (0..targets)
            .map(|t| {
                vk::AttachmentReference::default()
                    .attachment(t)
                    .layout(vk::ImageLayout::COLOR_ATTACHMENT_OPTIMAL)
            })
            .collect();
        let subpasses = [vk::SubpassDescription::default()
            .pipeline_bind_point(vk::PipelineBindPoint::GRAPHICS)
            .color_attachments(&refs)];
        let dependencies = [vk::SubpassDependency::default()
            .src_subpass(0)
            .dst_subpass(vk::SUBPASS_EXTERNAL)
            .src_stage_mask(vk::PipelineStageFlags::COLOR_ATTACHMENT_OUTPUT)
            .src_access_mask(vk::AccessFlags::COLOR_ATTACHMENT_WRITE)
            .dst_stage_mask(vk::PipelineStageFlags::TRANSFER)
            .dst_access_mask(vk::AccessFlags::TRANSFER_READ)];
        let render_pass = unsafe {
            d.create_render_pass(
                &vk::RenderPassCreateInfo::default()
                    .attachments(&attachments)
                    .subpasses(&subpasses)
                    .dependencies(&dependencies),
                None,
            )
        }
        .map_err(vk_err("vkCreateRenderPass"))?;
        scratch.render_passes.push(render_pass);
        let framebuffer = unsafe {
            d.create_framebuffer(
                &vk::FramebufferCreateInfo::default()
                    .render_pass(render_pass)
                    .attachments(&views)
                    .width(width)
                    .height(height)
                    .layers(1),
                None,
            )
        }
        .map_err(vk_err("vkCreateFramebuffer"))?;
        scratch.framebuffers.push(framebuffer);
        let set_layouts: Vec<_> = set.iter().map(|&(layout, _)| layout).collect();
        let layout = unsafe {
            d.create_pipeline_layout(
                &vk::PipelineLayoutCreateInfo::default().set_layouts(&set_layouts),
                None,
            )
        }
        .map_err(vk_err("vkCreatePipelineLayout"))?;
        scratch.layouts.push(layout);

        let mut names = Vec::new();
        let mut stages = Vec::new();
        for (shader, words) in case.shaders.iter().zip(spirv) {
            let stage = match shader.stage.as_str() {
                "vertex" => vk::ShaderStageFlags::VERTEX,
                "fragment" => vk::ShaderStageFlags::FRAGMENT,
                "geometry" => vk::ShaderStageFlags::GEOMETRY,
                "hull" => vk::ShaderStageFlags::TESSELLATION_CONTROL,
                "domain" => vk::ShaderStageFlags::TESSELLATION_EVALUATION,
                "mesh" => vk::ShaderStageFlags::MESH_EXT,
                "amplification" => vk::ShaderStageFlags::TASK_EXT,
                other => return Err(format!("a draw cannot run a {other} shader")),
            };
            let module = unsafe { self.shader(scratch, words) }?;
            names.push(CString::new(shader.entry.as_str()).map_err(|e| e.to_string())?);
            stages.push((stage, module));
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
        let vertex_input = vk::PipelineVertexInputStateCreateInfo::default();
        let assembly =
            vk::PipelineInputAssemblyStateCreateInfo::default().topology(match patch_points {
                0 => vk::PrimitiveTopology::TRIANGLE_LIST,
                _ => vk::PrimitiveTopology::PATCH_LIST,
            });
        let tessellation =
            vk::PipelineTessellationStateCreateInfo::default().patch_control_points(patch_points);
        let viewports = [vk::Viewport {
            x: 0.0,
            y: 0.0,
            width: width as f32,
            height: height as f32,
            min_depth: 0.0,
            max_depth: 1.0,
        }];
        let scissors = [vk::Rect2D {
            offset: vk::Offset2D { x: 0, y: 0 },
            extent,
        }];
        let viewport = vk::PipelineViewportStateCreateInfo::default()
            .viewports(&viewports)
            .scissors(&scissors);
        let raster = vk::PipelineRasterizationStateCreateInfo::default()
            .polygon_mode(vk::PolygonMode::FILL)
            .cull_mode(vk::CullModeFlags::NONE)
            .front_face(vk::FrontFace::COUNTER_CLOCKWISE)
            .line_width(1.0);
        let multisample = vk::PipelineMultisampleStateCreateInfo::default()
            .rasterization_samples(vk::SampleCountFlags::TYPE_1);
        let blend_attachments: Vec<_> = (0..targets)
            .map(|_| {
                vk::PipelineColorBlendAttachmentState::default()
                    .blend_enable(false)
                    .color_write_mask(vk::ColorComponentFlags::RGBA)
            })
            .collect();
        let blend =
            vk::PipelineColorBlendStateCreateInfo::default().attachments(&blend_attachments);
        let meshes = mesh_groups != [0; 3];
        let mut info = vk::GraphicsPipelineCreateInfo::default()
            .stages(&stage_infos)
            .viewport_state(&viewport)
            .rasterization_state(&raster)
            .multisample_state(&multisample)
            .color_blend_state(&blend)
            .layout(layout)
            .render_pass(render_pass)
            .subpass(0);
        if !meshes {
            info = info
                .vertex_input_state(&vertex_input)
                .input_assembly_state(&assembly);
        }
        if patch_points != 0 {
            info = info.tessellation_state(&tessellation);
        }
        let pipeline =
            unsafe { d.create_graphics_pipelines(vk::PipelineCache::null(), &[info], None) }
                .map_err(|(_, e)| format!("vkCreateGraphicsPipelines: {e}"))?[0];
        scratch.pipelines.push(pipeline);
        let clears: Vec<_> = (0..targets)
            .map(|_| vk::ClearValue {
                color: vk::ClearColorValue {
                    uint32: [SENTINEL; 4],
                },
            })
            .collect();
        unsafe {
            self.submit(scratch, |cmd| {
                if let Some((buffer, _)) = storage {
                    d.cmd_fill_buffer(cmd, buffer, 0, storage_bytes, SENTINEL);
                    barrier(
                        d,
                        cmd,
                        (
                            vk::PipelineStageFlags::TRANSFER,
                            vk::AccessFlags::TRANSFER_WRITE,
                        ),
                        (
                            vk::PipelineStageFlags::ALL_GRAPHICS,
                            vk::AccessFlags::SHADER_READ | vk::AccessFlags::SHADER_WRITE,
                        ),
                    );
                }
                for &(_, buffer, _, words) in &captures {
                    d.cmd_fill_buffer(cmd, buffer, 0, u64::from(words) * 4, SENTINEL);
                }
                if !captures.is_empty() {
                    barrier(
                        d,
                        cmd,
                        (
                            vk::PipelineStageFlags::TRANSFER,
                            vk::AccessFlags::TRANSFER_WRITE,
                        ),
                        (
                            vk::PipelineStageFlags::TRANSFORM_FEEDBACK_EXT,
                            vk::AccessFlags::TRANSFORM_FEEDBACK_WRITE_EXT,
                        ),
                    );
                }
                d.cmd_begin_render_pass(
                    cmd,
                    &vk::RenderPassBeginInfo::default()
                        .render_pass(render_pass)
                        .framebuffer(framebuffer)
                        .render_area(scissors[0])
                        .clear_values(&clears),
                    vk::SubpassContents::INLINE,
                );
                d.cmd_bind_pipeline(cmd, vk::PipelineBindPoint::GRAPHICS, pipeline);
                if let Some((_, set)) = set {
                    d.cmd_bind_descriptor_sets(
                        cmd,
                        vk::PipelineBindPoint::GRAPHICS,
                        layout,
                        0,
                        &[set],
                        &[],
                    );
                }
                if let Some(xfb) = xfb {
                    for &(slot, buffer, _, _) in &captures {
                        // No sizes: each buffer is bound whole.
                        (xfb.fp().cmd_bind_transform_feedback_buffers_ext)(
                            cmd,
                            slot,
                            1,
                            &buffer,
                            &0,
                            std::ptr::null(),
                        );
                    }
                    // No counter buffers: capture starts at offset 0.
                    (xfb.fp().cmd_begin_transform_feedback_ext)(
                        cmd,
                        0,
                        0,
                        std::ptr::null(),
                        std::ptr::null(),
                    );
                }
                match &self.mesh {
                    Some(mesh) if meshes => mesh.cmd_draw_mesh_tasks(
                        cmd,
                        mesh_groups[0],
                        mesh_groups[1],
                        mesh_groups[2],
                    ),
                    _ => d.cmd_draw(
                        cmd,
                        vertex_count,
                        instance_count,
                        first_vertex,
                        first_instance,
                    ),
                }
                if let Some(xfb) = xfb {
                    (xfb.fp().cmd_end_transform_feedback_ext)(
                        cmd,
                        0,
                        0,
                        std::ptr::null(),
                        std::ptr::null(),
                    );
                }
                d.cmd_end_render_pass(cmd);
                for (t, &image) in images.iter().enumerate() {
                    let region = vk::BufferImageCopy::default()
                        .buffer_offset(t as u64 * target_bytes)
                        .image_subresource(vk::ImageSubresourceLayers {
                            aspect_mask: vk::ImageAspectFlags::COLOR,
                            mip_level: 0,
                            base_array_layer: 0,
                            layer_count: 1,
                        })
                        .image_extent(vk::Extent3D {
                            width,
                            height,
                            depth: 1,
                        });
                    d.cmd_copy_image_to_buffer(
                        cmd,
                        image,
                        vk::ImageLayout::TRANSFER_SRC_OPTIMAL,
                        readback,
                        &[region],
                    );
                }
                let (mut stages, mut access) = (
                    vk::PipelineStageFlags::TRANSFER | vk::PipelineStageFlags::ALL_GRAPHICS,
                    vk::AccessFlags::TRANSFER_WRITE | vk::AccessFlags::SHADER_WRITE,
                );
                if xfb.is_some() {
                    stages |= vk::PipelineStageFlags::TRANSFORM_FEEDBACK_EXT;
                    access |= vk::AccessFlags::TRANSFORM_FEEDBACK_WRITE_EXT;
                }
                barrier(
                    d,
                    cmd,
                    (stages, access),
                    (vk::PipelineStageFlags::HOST, vk::AccessFlags::HOST_READ),
                );
            })
        }?;
        let mut words =
            unsafe { std::slice::from_raw_parts(ptr, (image_bytes / 4) as usize) }.to_vec();
        if let Some((_, storage)) = storage {
            words.extend_from_slice(unsafe {
                std::slice::from_raw_parts(storage, buffer_words as usize)
            });
        }
        for &(_, _, ptr, count) in &captures {
            words.extend_from_slice(unsafe { std::slice::from_raw_parts(ptr, count as usize) });
        }
        Ok(words)
    }
}

impl Drop for Runner {
    fn drop(&mut self) {
        unsafe {
            let _ = self.device.device_wait_idle();
            self.device.destroy_command_pool(self.pool, None);
            self.device.destroy_device(None);
            self.instance.destroy_instance(None);
        }
    }
}

fn color_range() -> vk::ImageSubresourceRange {
    vk::ImageSubresourceRange {
        aspect_mask: vk::ImageAspectFlags::COLOR,
        base_mip_level: 0,
        level_count: 1,
        base_array_layer: 0,
        layer_count: 1,
    }
}

unsafe fn barrier(
    d: &ash::Device,
    cmd: vk::CommandBuffer,
    (src_stage, src_access): (vk::PipelineStageFlags, vk::AccessFlags),
    (dst_stage, dst_access): (vk::PipelineStageFlags, vk::AccessFlags),
) {
    let memory = [vk::MemoryBarrier::default()
        .src_access_mask(src_access)
        .dst_access_mask(dst_access)];
    unsafe {
        d.cmd_pipeline_barrier(
            cmd,
            src_stage,
            dst_stage,
            vk::DependencyFlags::empty(),
            &memory,
            &[],
            &[],
        )
    };
}

/// Where result word `i` of `case` lies, for a failure message.
fn locate(case: &StagedCase, i: usize) -> String {
    match case.pipeline {
        Pipeline::Compute { .. } | Pipeline::Rays(_) => format!("word {i}"),
        Pipeline::Draw(crate::Draw {
            width,
            height,
            targets,
            buffer_words,
            capture_words,
            ..
        }) => {
            let texel = i / 4;
            let per_target = (width * height) as usize;
            let (t, p) = (texel / per_target, texel % per_target);
            if t >= targets as usize {
                let mut at = i - (targets as usize) * per_target * 4;
                if at < buffer_words as usize {
                    return format!("buffer word {at}");
                }
                at -= buffer_words as usize;
                for (slot, &words) in capture_words.iter().enumerate() {
                    if at < words as usize {
                        return format!("capture slot {slot} word {at}");
                    }
                    at -= words as usize;
                }
                return format!("word {i}, past the result");
            }
            format!(
                "target {t} pixel ({}, {}) component {}",
                p % width as usize,
                p / width as usize,
                i % 4
            )
        }
    }
}

/// Every Vulkan object one case makes, destroyed when it is dropped.
pub(crate) struct Scratch<'a> {
    device: &'a ash::Device,
    buffers: Vec<vk::Buffer>,
    images: Vec<vk::Image>,
    views: Vec<vk::ImageView>,
    memories: Vec<vk::DeviceMemory>,
    modules: Vec<vk::ShaderModule>,
    set_layouts: Vec<vk::DescriptorSetLayout>,
    layouts: Vec<vk::PipelineLayout>,
    pipelines: Vec<vk::Pipeline>,
    descriptor_pools: Vec<vk::DescriptorPool>,
    render_passes: Vec<vk::RenderPass>,
    framebuffers: Vec<vk::Framebuffer>,
    fences: Vec<vk::Fence>,
    commands: Vec<(vk::CommandPool, vk::CommandBuffer)>,
    structures: Vec<(
        ash::khr::acceleration_structure::Device,
        vk::AccelerationStructureKHR,
    )>,
}

impl<'a> Scratch<'a> {
    fn new(device: &'a ash::Device) -> Self {
        Scratch {
            device,
            buffers: Vec::new(),
            images: Vec::new(),
            views: Vec::new(),
            memories: Vec::new(),
            modules: Vec::new(),
            set_layouts: Vec::new(),
            layouts: Vec::new(),
            pipelines: Vec::new(),
            descriptor_pools: Vec::new(),
            render_passes: Vec::new(),
            framebuffers: Vec::new(),
            fences: Vec::new(),
            commands: Vec::new(),
            structures: Vec::new(),
        }
    }
}

impl Drop for Scratch<'_> {
    fn drop(&mut self) {
        let d = self.device;
        unsafe {
            let _ = d.device_wait_idle();
            for &(pool, cmd) in &self.commands {
                d.free_command_buffers(pool, &[cmd]);
            }
            self.fences.iter().for_each(|&x| d.destroy_fence(x, None));
            for (loader, structure) in &self.structures {
                loader.destroy_acceleration_structure(*structure, None);
            }
            self.pipelines
                .iter()
                .for_each(|&x| d.destroy_pipeline(x, None));
            self.framebuffers
                .iter()
                .for_each(|&x| d.destroy_framebuffer(x, None));
            self.render_passes
                .iter()
                .for_each(|&x| d.destroy_render_pass(x, None));
            self.descriptor_pools
                .iter()
                .for_each(|&x| d.destroy_descriptor_pool(x, None));
            self.layouts
                .iter()
                .for_each(|&x| d.destroy_pipeline_layout(x, None));
            self.set_layouts
                .iter()
                .for_each(|&x| d.destroy_descriptor_set_layout(x, None));
            self.modules
                .iter()
                .for_each(|&x| d.destroy_shader_module(x, None));
            self.views
                .iter()
                .for_each(|&x| d.destroy_image_view(x, None));
            self.images.iter().for_each(|&x| d.destroy_image(x, None));
            self.buffers.iter().for_each(|&x| d.destroy_buffer(x, None));
            self.memories.iter().for_each(|&x| d.free_memory(x, None));
        }
    }
}

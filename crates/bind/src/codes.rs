//! Diagnostic codes of the binding plan.
//!
//! `E48xxx` is the binding range: resource limits, overlapping explicit
//! bindings and register classes that do not fit their resource. Same
//! format as `legalis_front::codes`, so the test that keeps
//! `docs/diagnostics.md` honest reads this file too.

/// The entry point uses more than 128 shader-resource (`t`) slots, the
/// D3D11 per-stage limit; arrays count their length.
pub const TOO_MANY_SHADER_RESOURCES: u32 = 48001;
/// The entry point uses more than 16 sampler (`s`) slots (D3D11).
pub const TOO_MANY_SAMPLERS: u32 = 48002;
/// The entry point uses more than 14 constant buffers (`b`, the `_Globals`
/// block of plain uniforms included) (D3D11).
pub const TOO_MANY_CONSTANT_BUFFERS: u32 = 48003;
/// A `register(...)` whose class does not fit the resource, such as
/// `Texture2D t : register(b0)` or `SamplerState s : register(t0)`.
pub const REGISTER_CLASS_MISMATCH: u32 = 48004;
/// Two resources the entry point uses claim overlapping registers of the
/// same class and space (arrays occupy their length).
pub const OVERLAPPING_REGISTERS: u32 = 48005;
/// Two resources of one register class the entry point uses claim the
/// same `[[vk::binding(b, s)]]` (a texture and a sampler may: a combined
/// image sampler).
pub const OVERLAPPING_VK_BINDINGS: u32 = 48006;
/// (warning) On GLSL and SPIR-V, two explicitly placed resources of
/// different register classes (`t0` and `s0`, or a register and a
/// `[[vk::binding]]`) land on the same descriptor set and binding; a
/// `-fvk-<class>-shift` or `[[vk::binding]]` separates them.
pub const VULKAN_BINDING_COLLISION: u32 = 48007;
/// A `DescriptorHandle<T>` read as its resource on a target other than
/// GLSL and SPIR-V: its descriptor heap (an unsized array of `T`) has no
/// place there (WGSL, Metal and CUDA).
pub const DESCRIPTOR_HEAP_UNSUPPORTED: u32 = 48008;
/// A resource's Metal argument-table index is past the table's end
/// (buffers 0-30, textures 0-127, samplers 0-15): its register asks for it,
/// or the entry point uses more resources of the table than it holds.
pub const METAL_ARGUMENT_TABLE_FULL: u32 = 48009;

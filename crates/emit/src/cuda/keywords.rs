//! Names a CUDA identifier of the output must not take beyond the C++
//! keywords and `main` (`crate::cfamily::keywords`), as pure data: CUDA's
//! qualifiers and built-in variables, the prelude's namespace and the CUDA
//! vector types it shadows, and the launch-parameter block.

pub const RESERVED: &[&str] = &[
    // The C++ keywords and `main` are `crate::cfamily::keywords`.
    // CUDA's own words and the names the prelude and OptiX take.
    "__global__",
    "__device__",
    "__shared__",
    "__constant__",
    "threadIdx",
    "blockIdx",
    "blockDim",
    "gridDim",
    "warpSize",
    "lg",
    "lg_payload",
    "params",
    "uint",
    "uint2",
    "uint3",
    "uint4",
    "int2",
    "int3",
    "int4",
    "float2",
    "float3",
    "float4",
    "double2",
    "double3",
    "double4",
    "half",
    "int8_t",
    "int16_t",
    "int32_t",
    "int64_t",
    "uint8_t",
    "uint16_t",
    "uint32_t",
    "uint64_t",
    "OptixTraversableHandle",
    "std",
];

// A kernel: threadgroup memory, barriers, atomics, SIMD-group functions,
// read-write textures, integer functions and bit casts.
#include <metal_stdlib>
#include <metal_atomic>
using namespace metal;

struct Counters {
    atomic_uint hits;
    atomic_int balance;
};

struct Params {
    uint count;
    float scale;
};

static void accumulate(threadgroup float* partial, uint lane, float value) {
    partial[lane] = value;
}

kernel void cs_main(device float4* data [[buffer(0)]], constant Params& params [[buffer(1)]],
                    device Counters& counters [[buffer(2)]],
                    texture2d<float, access::read_write> image [[texture(0)]],
                    texture2d<uint, access::write> ids [[texture(1)]],
                    uint3 gid [[thread_position_in_grid]],
                    uint lane [[thread_index_in_threadgroup]],
                    uint simd_lane [[thread_index_in_simdgroup]]) {
    threadgroup float partial[64];
    float4 v = data[gid.x] * params.scale;
    accumulate(partial, lane, length(v.xyz));
    threadgroup_barrier(mem_flags::mem_threadgroup);
    float sum = simd_sum(partial[lane]);
    if (simd_lane == 0u) {
        atomic_fetch_add_explicit(&counters.hits, 1u, memory_order_relaxed);
        atomic_fetch_sub_explicit(&counters.balance, 2, memory_order_relaxed);
    }
    uint bits = as_type<uint>(sum);
    uint ones = popcount(bits) + clz(bits) + extract_bits(bits, 2u, 4u);
    int lo = min(int(gid.y), 4);
    float4 texel = image.read(gid.xy);
    image.write(texel + float4(sum), gid.xy);
    ids.write(uint4(ones, uint(lo), 0u, 1u), gid.xy);
    float e = ldexp(sum, 3) + fract(sum) + sign(sum) + clamp(sum, 0.0, 1.0);
    data[gid.x] = float4(e, abs(-e), fma(e, 2.0, 1.0), rsqrt(e + 1.0));
    simdgroup_barrier(mem_flags::mem_device | mem_flags::mem_threadgroup);
}

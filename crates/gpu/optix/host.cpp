// The host side of Legalis' OptiX execution test (crates/gpu/src/optix.rs,
// docs/design/gpu-execution-tests.md). run.sh builds it with the GPU
// machine's nvcc against the OptiX headers and runs it in the staged folder,
// which holds the PTX of every Legalis CUDA output and expected.txt.
//
// It builds one OptiX pipeline from the six programs of payload.slang: a
// geometry acceleration structure of one custom primitive (the box
// [-1,1]^3, any-hit disabled), two hit groups (closest hit + the
// intersection program) and two miss programs, one of each for the
// mixed-width payload (SBT offset 0, miss 0) and the 40-register payload
// (SBT offset 1, miss 1). It launches 4 x 1 x 1 rays, reads the raygen
// program's three buffers back and compares them word by word with the
// words the CPU computed.
//
// The OptiX API is reached through the function table the driver fills
// (optixQueryFunctionTable). The headers' ABI may be newer than the
// driver's; table_and_run() then takes the newest older ABI it knows that
// the driver has. Exit status: 0 all words
// matched, 1 a mismatch, 2 no device or a setup failure.

#include <cuda.h>
#include <optix.h>
#include <optix_function_table.h>

#include <dlfcn.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace {

OptixFunctionTable T;

[[noreturn]] void die(const std::string& what) {
    std::printf("SETUP FAILED: %s\n", what.c_str());
    std::fflush(stdout);
    std::exit(2);
}

void cu(CUresult r, const char* what) {
    if (r != CUDA_SUCCESS) {
        const char* name = nullptr;
        cuGetErrorName(r, &name);
        die(std::string(what) + ": " + (name ? name : "?"));
    }
}

char log_buffer[8192];

void ox(OptixResult r, const char* what) {
    if (r != OPTIX_SUCCESS)
        die(std::string(what) + ": OptixResult " + std::to_string(int(r)) + "\n" + log_buffer);
}

std::string read_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) die("cannot read " + path);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

struct Expected {
    size_t results = 0, doubles = 0, longs = 0;
    std::vector<uint32_t> words;
};

Expected read_expected() {
    std::ifstream in("expected.txt");
    Expected e;
    if (!(in >> e.results >> e.doubles >> e.longs)) die("expected.txt has no header");
    std::string word;
    while (in >> word) e.words.push_back(uint32_t(std::stoul(word, nullptr, 16)));
    if (e.words.size() != e.results + 2 * (e.doubles + e.longs))
        die("expected.txt: word count does not match its header");
    return e;
}

// What the raygen program's launch parameters are: Legalis declares one
// member per resource it reaches, in declaration order
// (docs/design/target-pipelines/cuda.md).
struct LaunchParams {
    OptixTraversableHandle scene;
    uint32_t* results;
    double* doubles;
    int64_t* longs;
};

struct alignas(OPTIX_SBT_RECORD_ALIGNMENT) Record {
    char header[OPTIX_SBT_RECORD_HEADER_SIZE];
};

CUdeviceptr upload(const void* data, size_t size) {
    CUdeviceptr p = 0;
    cu(cuMemAlloc(&p, size), "cuMemAlloc");
    if (data) cu(cuMemcpyHtoD(p, data, size), "cuMemcpyHtoD");
    return p;
}

// Builds the pipeline, launches it and compares. Returns the process's
// exit status.
int run(const Expected& expected) {
    cu(cuInit(0), "cuInit");
    CUdevice device;
    cu(cuDeviceGet(&device, 0), "cuDeviceGet");
    char name[256] = {};
    cuDeviceGetName(name, sizeof name, device);
    CUcontext context;
    cu(cuDevicePrimaryCtxRetain(&context, device), "cuDevicePrimaryCtxRetain");
    cu(cuCtxSetCurrent(context), "cuCtxSetCurrent");
    std::printf("device: %s\n", name);

    OptixDeviceContext optix = nullptr;
    OptixDeviceContextOptions context_options = {};
    ox(T.optixDeviceContextCreate(context, &context_options, &optix), "optixDeviceContextCreate");

    OptixPipelineCompileOptions pipeline_options = {};
    pipeline_options.usesMotionBlur = 0;
    pipeline_options.traversableGraphFlags = OPTIX_TRAVERSABLE_GRAPH_FLAG_ALLOW_SINGLE_GAS;
    pipeline_options.numPayloadValues = 32;
    pipeline_options.numAttributeValues = 8;
    pipeline_options.exceptionFlags = OPTIX_EXCEPTION_FLAG_NONE;
    pipeline_options.pipelineLaunchParamsVariableName = "params";
    // Every member past the launch parameters' name stays 0, the default
    // (triangles and custom primitives, no micromaps, no clusters): OptiX
    // 9.1 inserted pipelineLaunchParamsSizeInBytes before them, so an
    // ABI 110 runtime reads them 8 bytes early (table_and_run()).
    OptixModuleCompileOptions module_options = {};

    auto module = [&](const char* stem) {
        std::string ptx = read_file(std::string(stem) + ".ptx");
        OptixModule m = nullptr;
        size_t log_size = sizeof log_buffer;
        log_buffer[0] = 0;
        ox(T.optixModuleCreate(optix, &module_options, &pipeline_options, ptx.data(), ptx.size(),
                               log_buffer, &log_size, &m),
           stem);
        return m;
    };
    OptixModule raygen = module("raygen"), isect = module("isect");
    OptixModule hit_mixed = module("hitMixed"), miss_mixed = module("missMixed");
    OptixModule hit_big = module("hitBig"), miss_big = module("missBig");

    OptixProgramGroupDesc desc[5] = {};
    desc[0].kind = OPTIX_PROGRAM_GROUP_KIND_RAYGEN;
    desc[0].raygen = {raygen, "__raygen__raygen"};
    desc[1].kind = OPTIX_PROGRAM_GROUP_KIND_MISS;
    desc[1].miss = {miss_mixed, "__miss__missMixed"};
    desc[2].kind = OPTIX_PROGRAM_GROUP_KIND_MISS;
    desc[2].miss = {miss_big, "__miss__missBig"};
    desc[3].kind = OPTIX_PROGRAM_GROUP_KIND_HITGROUP;
    desc[3].hitgroup.moduleCH = hit_mixed;
    desc[3].hitgroup.entryFunctionNameCH = "__closesthit__hitMixed";
    desc[3].hitgroup.moduleIS = isect;
    desc[3].hitgroup.entryFunctionNameIS = "__intersection__isect";
    desc[4] = desc[3];
    desc[4].hitgroup.moduleCH = hit_big;
    desc[4].hitgroup.entryFunctionNameCH = "__closesthit__hitBig";
    OptixProgramGroupOptions group_options = {};
    OptixProgramGroup groups[5] = {};
    size_t log_size = sizeof log_buffer;
    log_buffer[0] = 0;
    ox(T.optixProgramGroupCreate(optix, desc, 5, &group_options, log_buffer, &log_size, groups),
       "optixProgramGroupCreate");

    OptixPipelineLinkOptions link_options = {};
    link_options.maxTraceDepth = 1;
    OptixPipeline pipeline = nullptr;
    log_size = sizeof log_buffer;
    log_buffer[0] = 0;
    ox(T.optixPipelineCreate(optix, &pipeline_options, &link_options, groups, 5, log_buffer,
                             &log_size, &pipeline),
       "optixPipelineCreate");

    // The scene: one box, in a geometry acceleration structure.
    float box[6] = {-1.0f, -1.0f, -1.0f, 1.0f, 1.0f, 1.0f};
    CUdeviceptr aabb = upload(box, sizeof box);
    unsigned geometry_flags = OPTIX_GEOMETRY_FLAG_DISABLE_ANYHIT;
    OptixBuildInput input = {};
    input.type = OPTIX_BUILD_INPUT_TYPE_CUSTOM_PRIMITIVES;
    input.customPrimitiveArray.aabbBuffers = &aabb;
    input.customPrimitiveArray.numPrimitives = 1;
    input.customPrimitiveArray.flags = &geometry_flags;
    input.customPrimitiveArray.numSbtRecords = 1;
    OptixAccelBuildOptions build_options = {};
    build_options.buildFlags = OPTIX_BUILD_FLAG_NONE;
    build_options.operation = OPTIX_BUILD_OPERATION_BUILD;
    OptixAccelBufferSizes sizes = {};
    ox(T.optixAccelComputeMemoryUsage(optix, &build_options, &input, 1, &sizes),
       "optixAccelComputeMemoryUsage");
    CUdeviceptr temp = upload(nullptr, sizes.tempSizeInBytes);
    CUdeviceptr gas = upload(nullptr, sizes.outputSizeInBytes);
    OptixTraversableHandle handle = 0;
    ox(T.optixAccelBuild(optix, 0, &build_options, &input, 1, temp, sizes.tempSizeInBytes, gas,
                         sizes.outputSizeInBytes, &handle, nullptr, 0),
       "optixAccelBuild");
    cu(cuCtxSynchronize(), "acceleration structure build");

    // The shader binding table: one record a program group, no data.
    Record records[5];
    for (int i = 0; i < 5; ++i)
        ox(T.optixSbtRecordPackHeader(groups[i], &records[i]), "optixSbtRecordPackHeader");
    OptixShaderBindingTable sbt = {};
    sbt.raygenRecord = upload(&records[0], sizeof(Record));
    sbt.missRecordBase = upload(&records[1], 2 * sizeof(Record));
    sbt.missRecordStrideInBytes = sizeof(Record);
    sbt.missRecordCount = 2;
    sbt.hitgroupRecordBase = upload(&records[3], 2 * sizeof(Record));
    sbt.hitgroupRecordStrideInBytes = sizeof(Record);
    sbt.hitgroupRecordCount = 2;

    // The buffers start as 0xDEADBEEF words: a word not written reads so.
    size_t words = expected.words.size();
    CUdeviceptr out = upload(nullptr, words * 4);
    cu(cuMemsetD32(out, 0xDEADBEEFu, words), "cuMemsetD32");
    LaunchParams params = {};
    params.scene = handle;
    params.results = reinterpret_cast<uint32_t*>(out);
    params.doubles = reinterpret_cast<double*>(out + expected.results * 4);
    params.longs = reinterpret_cast<int64_t*>(out + (expected.results + 2 * expected.doubles) * 4);
    CUdeviceptr params_memory = upload(&params, sizeof params);
    unsigned rays = unsigned(expected.doubles);
    ox(T.optixLaunch(pipeline, 0, params_memory, sizeof params, &sbt, rays, 1, 1), "optixLaunch");
    cu(cuCtxSynchronize(), "launch");
    std::vector<uint32_t> got(words);
    cu(cuMemcpyDtoH(got.data(), out, words * 4), "cuMemcpyDtoH");

    // Ray by ray: its 52 result words, then its double and its int64_t.
    size_t per_ray = expected.results / rays;
    int failed = 0;
    for (unsigned ray = 0; ray < rays; ++ray) {
        std::vector<size_t> at;
        for (size_t k = 0; k < per_ray; ++k) at.push_back(ray * per_ray + k);
        for (size_t k = 0; k < 2; ++k) at.push_back(expected.results + 2 * ray + k);
        for (size_t k = 0; k < 2; ++k)
            at.push_back(expected.results + 2 * expected.doubles + 2 * ray + k);
        std::string bad;
        for (size_t w : at)
            if (got[w] != expected.words[w]) {
                char line[96];
                std::snprintf(line, sizeof line, "\n  word %zu: expected %08x, got %08x", w,
                              expected.words[w], got[w]);
                bad += line;
            }
        const char* path = ray < 2 ? "closest hit with the intersection program's attributes"
                                   : "miss";
        if (bad.empty()) {
            std::printf("PASS optix ray %u (%s): mixed-width payload (bool, uint8_t, half, "
                        "int16_t, uint, float3, float2x2, double, int64_t) and 40-register "
                        "payload exact (%zu words)\n",
                        ray, path, at.size());
        } else {
            ++failed;
            std::printf("FAIL optix ray %u (%s):%s\n", ray, path, bad.c_str());
        }
    }
    std::printf("optix: %u passed, %d failed\n", rays - failed, failed);
    return failed ? 1 : 0;
}

// An OptiX function-table ABI older than the headers' and how its table
// differs from theirs: the entries of the headers' table it lacks (each
// later entry moves up one place). Only layouts measured on a driver are
// listed; the driver is asked for each, newest first, with that table's
// size, so a mismatch is refused by the driver (OPTIX_ERROR_FUNCTION_TABLE_SIZE_MISMATCH)
// rather than called through.
struct OlderAbi {
    int abi;
    const char* optix;
    std::vector<size_t> lacks;
};

constexpr size_t entry(size_t offset) { return offset / sizeof(void*); }

std::vector<OlderAbi> older_abis() {
    return {
        // OptiX 9.0 (driver 580): 9.1 added optixPipelineSymbolMemcpyAsync
        // (entry 31), measured on an H200 with driver 580.159.04: with it
        // left out every call run() makes reaches its function.
        {110, "9.0", {entry(offsetof(OptixFunctionTable, optixPipelineSymbolMemcpyAsync))}},
    };
}

// Fills T: with the headers' own ABI when the driver has it, otherwise with
// the newest older ABI of older_abis() the driver has, its table spread
// into the headers' layout (a lacking entry stays null). Prints the ABI
// used. LEGALIS_OPTIX_ABI=N tries only ABI N (the headers' or a listed
// one). The structures run() passes read the same under every listed ABI
// (see the pipeline options there).
int table_and_run(const Expected& expected) {
    void* library = dlopen("libnvoptix.so.1", RTLD_NOW);
    if (!library) die(std::string("no OptiX runtime: ") + dlerror());
    auto query = reinterpret_cast<OptixQueryFunctionTable_t*>(
        dlsym(library, "optixQueryFunctionTable"));
    if (!query) die("libnvoptix.so.1 has no optixQueryFunctionTable");
    const char* only_text = std::getenv("LEGALIS_OPTIX_ABI");
    int only = only_text ? std::atoi(only_text) : 0;
    std::string tried;
    if (!only || only == OPTIX_ABI_VERSION) {
        OptixResult r = query(OPTIX_ABI_VERSION, 0, nullptr, nullptr, &T, sizeof T);
        if (r == OPTIX_SUCCESS) {
            std::printf("optix: ABI %d (OptiX %d.%d, the headers')\n", OPTIX_ABI_VERSION,
                        OPTIX_VERSION / 10000, OPTIX_VERSION / 100 % 100);
            return run(expected);
        }
        tried += " ABI " + std::to_string(OPTIX_ABI_VERSION) + ": " + std::to_string(int(r)) + ";";
    }
    constexpr size_t entries = sizeof(OptixFunctionTable) / sizeof(void*);
    for (const OlderAbi& older : older_abis()) {
        if (only && only != older.abi) continue;
        size_t size = entries - older.lacks.size();
        void* driver[entries] = {};
        OptixResult r = query(older.abi, 0, nullptr, nullptr, driver, size * sizeof(void*));
        if (r != OPTIX_SUCCESS) {
            tried += " ABI " + std::to_string(older.abi) + ": " + std::to_string(int(r)) + ";";
            continue;
        }
        void* table[entries] = {};
        for (size_t i = 0, j = 0; i < entries; ++i) {
            bool lacking = false;
            for (size_t l : older.lacks) lacking = lacking || l == i;
            table[i] = lacking ? nullptr : driver[j++];
        }
        std::memcpy(&T, table, sizeof T);
        std::printf("optix: ABI %d (OptiX %s, the driver's; the headers are ABI %d, "
                    "%zu of their %zu entries absent)\n",
                    older.abi, older.optix, OPTIX_ABI_VERSION, older.lacks.size(), entries);
        return run(expected);
    }
    die("the driver has none of the OptiX ABIs this program knows (optixQueryFunctionTable"
        " returned, per ABI:" + tried + " 7801 is an unsupported ABI, 7802 a table of another "
        "size)");
}

}  // namespace

int main() { return table_and_run(read_expected()); }

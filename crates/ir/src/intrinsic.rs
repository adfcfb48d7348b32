//! Built-in functions and methods of built-in objects.
//!
//! One flat enum: free functions (`dot`, `TraceRay`) and methods (`Sample`,
//! `Append`), where a method call passes its object as the first argument.
//! The front end owns the signatures; this is only the vocabulary.

macro_rules! intrinsics {
    ($( $(#[$doc:meta])* $variant:ident = $name:literal, )*) => {
        /// A built-in function or method, named after its HLSL spelling
        /// ([`Intrinsic::name`]).
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Intrinsic {
            $(
                #[doc = concat!("HLSL `", $name, "`.")]
                #[doc = ""]
                $(#[$doc])*
                $variant,
            )*
        }

        impl Intrinsic {
            /// Every intrinsic, in declaration order.
            pub const ALL: &'static [Intrinsic] = &[ $( Intrinsic::$variant, )* ];

            /// The HLSL spelling (method names without their object).
            pub fn name(self) -> &'static str {
                match self {
                    $( Intrinsic::$variant => $name, )*
                }
            }
        }
    };
}

intrinsics! {
    // Math.
    Abs = "abs", Acos = "acos", All = "all", Any = "any", Asin = "asin",
    AsDouble = "asdouble", AsFloat = "asfloat", AsInt = "asint", AsUint = "asuint",
    AsFloat16 = "asfloat16", AsInt16 = "asint16", AsUint16 = "asuint16",
    Atan = "atan", Atan2 = "atan2", Ceil = "ceil", Clamp = "clamp", Clip = "clip",
    Cos = "cos", Cosh = "cosh", CountBits = "countbits", Cross = "cross",
    Ddx = "ddx", DdxCoarse = "ddx_coarse", DdxFine = "ddx_fine",
    Ddy = "ddy", DdyCoarse = "ddy_coarse", DdyFine = "ddy_fine",
    Degrees = "degrees", Determinant = "determinant", Distance = "distance", Dot = "dot",
    Dst = "dst", Exp = "exp", Exp2 = "exp2", F16ToF32 = "f16tof32", F32ToF16 = "f32tof16",
    FaceForward = "faceforward", FirstBitHigh = "firstbithigh", FirstBitLow = "firstbitlow",
    Floor = "floor", Fma = "fma", Fmod = "fmod", Frac = "frac", Frexp = "frexp", Fwidth = "fwidth",
    IsFinite = "isfinite", IsInf = "isinf", IsNan = "isnan", Ldexp = "ldexp", Length = "length",
    Lerp = "lerp", Lit = "lit", Log = "log", Log10 = "log10", Log2 = "log2", Mad = "mad", Max = "max",
    Min = "min", Modf = "modf", Msad4 = "msad4", Mul = "mul", Noise = "noise", Normalize = "normalize",
    Pow = "pow", Radians = "radians", Rcp = "rcp", Reflect = "reflect", Refract = "refract",
    ReverseBits = "reversebits", Round = "round", Rsqrt = "rsqrt", Saturate = "saturate",
    Sign = "sign", Sin = "sin", SinCos = "sincos", Sinh = "sinh", SmoothStep = "smoothstep",
    Sqrt = "sqrt", Step = "step", Tan = "tan", Tanh = "tanh", Transpose = "transpose", Trunc = "trunc",
    // Synchronisation and atomics.
    AllMemoryBarrier = "AllMemoryBarrier",
    AllMemoryBarrierWithGroupSync = "AllMemoryBarrierWithGroupSync",
    DeviceMemoryBarrier = "DeviceMemoryBarrier",
    DeviceMemoryBarrierWithGroupSync = "DeviceMemoryBarrierWithGroupSync",
    GroupMemoryBarrier = "GroupMemoryBarrier",
    GroupMemoryBarrierWithGroupSync = "GroupMemoryBarrierWithGroupSync",
    /// Fragment shader interlock: the critical section between the two
    /// runs for one fragment of a pixel at a time, in primitive order.
    BeginInvocationInterlock = "beginInvocationInterlock",
    EndInvocationInterlock = "endInvocationInterlock",
    /// WGSL's `workgroupUniformLoad(p)`: a workgroup control barrier, then
    /// the value of the `groupshared` variable `p`, the same for the whole
    /// workgroup.
    WorkgroupUniformLoad = "workgroupUniformLoad",
    InterlockedAdd = "InterlockedAdd", InterlockedAnd = "InterlockedAnd",
    InterlockedCompareExchange = "InterlockedCompareExchange",
    InterlockedCompareStore = "InterlockedCompareStore",
    InterlockedExchange = "InterlockedExchange", InterlockedMax = "InterlockedMax",
    InterlockedMin = "InterlockedMin", InterlockedOr = "InterlockedOr", InterlockedXor = "InterlockedXor",
    // Wave and quad operations.
    WaveGetLaneCount = "WaveGetLaneCount", WaveGetLaneIndex = "WaveGetLaneIndex",
    WaveIsFirstLane = "WaveIsFirstLane", WaveActiveAnyTrue = "WaveActiveAnyTrue",
    WaveActiveAllTrue = "WaveActiveAllTrue", WaveActiveBallot = "WaveActiveBallot",
    WaveActiveAllEqual = "WaveActiveAllEqual",
    WaveActiveCountBits = "WaveActiveCountBits", WaveActiveSum = "WaveActiveSum",
    WaveActiveProduct = "WaveActiveProduct", WaveActiveMin = "WaveActiveMin",
    WaveActiveMax = "WaveActiveMax", WaveActiveBitAnd = "WaveActiveBitAnd",
    WaveActiveBitOr = "WaveActiveBitOr", WaveActiveBitXor = "WaveActiveBitXor",
    WavePrefixSum = "WavePrefixSum", WavePrefixProduct = "WavePrefixProduct",
    WavePrefixCountBits = "WavePrefixCountBits", WaveReadLaneAt = "WaveReadLaneAt",
    WaveReadLaneFirst = "WaveReadLaneFirst", QuadReadAcrossX = "QuadReadAcrossX",
    QuadReadAcrossY = "QuadReadAcrossY", QuadReadAcrossDiagonal = "QuadReadAcrossDiagonal",
    QuadReadLaneAt = "QuadReadLaneAt",
    /// The wave's index in its thread group, and the number of waves in it
    /// (SPIR-V `SubgroupId`/`NumSubgroups`).
    WaveGetWaveIndex = "WaveGetWaveIndex", WaveGetNumWaves = "WaveGetNumWaves",
    /// Whether the condition holds for any / all of the quad's invocations
    /// (SPV_KHR_quad_control).
    QuadAny = "QuadAny", QuadAll = "QuadAll",
    // Fragment-stage intrinsics.
    GetAttributeAtVertex = "GetAttributeAtVertex",
    EvaluateAttributeAtSample = "EvaluateAttributeAtSample",
    EvaluateAttributeAtCentroid = "EvaluateAttributeAtCentroid",
    EvaluateAttributeSnapped = "EvaluateAttributeSnapped",
    GetRenderTargetSampleCount = "GetRenderTargetSampleCount",
    GetRenderTargetSamplePosition = "GetRenderTargetSamplePosition",
    // Mesh and amplification.
    SetMeshOutputCounts = "SetMeshOutputCounts", DispatchMesh = "DispatchMesh",
    // Ray tracing.
    TraceRay = "TraceRay",
    /// `TraceRay` at a point in time (ray-tracing motion blur): the time
    /// comes before the payload.
    TraceMotionRay = "TraceMotionRay",
    /// The time of the ray being traced (motion blur).
    RayCurrentTime = "RayCurrentTime",
    /// The acceleration structure at a device address (a `uint64_t`): a
    /// `DescriptorHandle<RaytracingAccelerationStructure>` read as its
    /// resource. Not spelled in source (the name is no identifier).
    AccelerationStructureFromAddress = "RaytracingAccelerationStructure(address)",
    CallShader = "CallShader", ReportHit = "ReportHit",
    IgnoreHit = "IgnoreHit", AcceptHitAndEndSearch = "AcceptHitAndEndSearch",
    DispatchRaysIndex = "DispatchRaysIndex", DispatchRaysDimensions = "DispatchRaysDimensions",
    WorldRayOrigin = "WorldRayOrigin", WorldRayDirection = "WorldRayDirection",
    ObjectRayOrigin = "ObjectRayOrigin", ObjectRayDirection = "ObjectRayDirection",
    RayTMin = "RayTMin", RayTCurrent = "RayTCurrent", RayFlags = "RayFlags", HitKind = "HitKind",
    InstanceIndex = "InstanceIndex", InstanceId = "InstanceID", PrimitiveIndex = "PrimitiveIndex",
    GeometryIndex = "GeometryIndex",
    ObjectToWorld3x4 = "ObjectToWorld3x4", ObjectToWorld4x3 = "ObjectToWorld4x3",
    WorldToObject3x4 = "WorldToObject3x4", WorldToObject4x3 = "WorldToObject4x3",
    ObjectToWorld = "ObjectToWorld", WorldToObject = "WorldToObject",
    // OptiX: the cluster, sphere and linear-swept-sphere of the current
    // hit, and multilevel traversal (traversable handles as `uint64_t`, the
    // current hit's transform list).
    GetClusterId = "GetClusterID",
    GetSpherePositionAndRadius = "GetSpherePositionAndRadius",
    GetLssPositionsAndRadii = "GetLssPositionsAndRadii",
    IsSphereHit = "IsSphereHit", IsLssHit = "IsLssHit",
    GetTraversableTransformType = "GetTraversableTransformType",
    GetInstanceTraversable = "GetInstanceTraversable",
    GetTraversableInstanceId = "GetTraversableInstanceId",
    GetTraversableChild = "GetTraversableChild",
    GetTraversableObjectToWorld = "GetTraversableObjectToWorld",
    GetTraversableWorldToObject = "GetTraversableWorldToObject",
    GetTransformListSize = "GetTransformListSize",
    GetTransformListHandle = "GetTransformListHandle",
    // Methods of textures.
    Sample = "Sample", SampleBias = "SampleBias", SampleLevel = "SampleLevel",
    SampleGrad = "SampleGrad", SampleCmp = "SampleCmp", SampleCmpLevelZero = "SampleCmpLevelZero",
    SampleCmpLevel = "SampleCmpLevel", SampleCmpGrad = "SampleCmpGrad",
    SampleCmpBias = "SampleCmpBias",
    Gather = "Gather", GatherRed = "GatherRed", GatherGreen = "GatherGreen",
    GatherBlue = "GatherBlue", GatherAlpha = "GatherAlpha", GatherCmp = "GatherCmp",
    GatherCmpRed = "GatherCmpRed",
    CalculateLevelOfDetail = "CalculateLevelOfDetail",
    CalculateLevelOfDetailUnclamped = "CalculateLevelOfDetailUnclamped",
    /// `Texture.Load(coord)` and typed/structured `Buffer.Load(index)`.
    Load = "Load",
    GetDimensions = "GetDimensions",
    /// `SubpassInput.SubpassLoad()`, `SubpassInputMS.SubpassLoad(sample)`.
    SubpassLoad = "SubpassLoad",
    // Methods of byte-address buffers.
    Load2 = "Load2", Load3 = "Load3", Load4 = "Load4",
    Store = "Store", Store2 = "Store2", Store3 = "Store3", Store4 = "Store4",
    // Methods of structured buffers.
    IncrementCounter = "IncrementCounter", DecrementCounter = "DecrementCounter",
    /// `AppendStructuredBuffer.Append(v)` and geometry `Stream.Append(v)`.
    Append = "Append", Consume = "Consume",
    /// Geometry output streams.
    RestartStrip = "RestartStrip",
    // Atomic methods of `RWByteAddressBuffer` (address, value[, out original]).
    BufferInterlockedAdd = "InterlockedAdd", BufferInterlockedAnd = "InterlockedAnd",
    BufferInterlockedOr = "InterlockedOr", BufferInterlockedXor = "InterlockedXor",
    BufferInterlockedMin = "InterlockedMin", BufferInterlockedMax = "InterlockedMax",
    BufferInterlockedExchange = "InterlockedExchange",
    BufferInterlockedCompareExchange = "InterlockedCompareExchange",
    BufferInterlockedCompareStore = "InterlockedCompareStore",
    /// Marks a resource-array index as divergent; yields the index.
    NonUniformResourceIndex = "NonUniformResourceIndex",
    // Shader execution reordering: `HitObject`'s static functions (named
    // with their type), `ReorderThread`, and `HitObject`'s methods.
    HitObjectTraceRay = "HitObject::TraceRay", HitObjectMakeMiss = "HitObject::MakeMiss",
    HitObjectMakeNop = "HitObject::MakeNop", HitObjectInvoke = "HitObject::Invoke",
    /// `ReorderThread(hint, bits)`, `ReorderThread(hit)`,
    /// `ReorderThread(hit, hint, bits)`.
    ReorderThread = "ReorderThread",
    HitObjectIsHit = "IsHit", HitObjectIsMiss = "IsMiss", HitObjectIsNop = "IsNop",
    HitObjectGetRayDesc = "GetRayDesc", HitObjectGetRayTMin = "GetRayTMin",
    HitObjectGetRayTCurrent = "GetRayTCurrent",
    HitObjectGetWorldRayOrigin = "GetWorldRayOrigin",
    HitObjectGetWorldRayDirection = "GetWorldRayDirection",
    HitObjectGetObjectRayOrigin = "GetObjectRayOrigin",
    HitObjectGetObjectRayDirection = "GetObjectRayDirection",
    HitObjectGetObjectToWorld = "GetObjectToWorld",
    HitObjectGetWorldToObject = "GetWorldToObject",
    HitObjectGetInstanceIndex = "GetInstanceIndex", HitObjectGetInstanceId = "GetInstanceID",
    HitObjectGetGeometryIndex = "GetGeometryIndex",
    HitObjectGetPrimitiveIndex = "GetPrimitiveIndex", HitObjectGetHitKind = "GetHitKind",
    HitObjectGetShaderTableIndex = "GetShaderTableIndex",
    /// `hit.GetAttributes<T>()`: the call's type is `T`.
    HitObjectGetAttributes = "GetAttributes",
    HitObjectGetCurrentTime = "GetCurrentTime",
    /// `HitObject::MakeHit(scene, instance, geometry, primitive, kind,
    /// contribution, multiplier, ray, attributes)` (9 arguments) or
    /// `MakeHit(record, scene, instance, geometry, primitive, kind, ray,
    /// attributes)` (8: the hit group's record index first).
    HitObjectMakeHit = "HitObject::MakeHit",
    /// Sphere and linear-swept-sphere hits of a hit object (the free
    /// functions' counterparts).
    HitObjectGetSpherePositionAndRadius = "GetSpherePositionAndRadius",
    HitObjectGetLssPositionsAndRadii = "GetLssPositionsAndRadii",
    HitObjectIsSphereHit = "IsSphereHit", HitObjectIsLssHit = "IsLssHit",
    // Inline ray tracing: `RayQuery`'s methods (its object, a ray-query
    // variable, is the first argument). `TraceRayInline(q, accel, flags,
    // mask, ray)` takes the template's flags already added to the call's.
    RayQueryTraceRayInline = "TraceRayInline", RayQueryProceed = "Proceed",
    RayQueryAbort = "Abort",
    RayQueryCommitNonOpaqueTriangleHit = "CommitNonOpaqueTriangleHit",
    RayQueryCommitProceduralPrimitiveHit = "CommitProceduralPrimitiveHit",
    RayQueryRayFlags = "RayFlags", RayQueryWorldRayOrigin = "WorldRayOrigin",
    RayQueryWorldRayDirection = "WorldRayDirection", RayQueryRayTMin = "RayTMin",
    RayQueryCandidateType = "CandidateType",
    RayQueryCandidateProceduralPrimitiveNonOpaque = "CandidateProceduralPrimitiveNonOpaque",
    RayQueryCandidateTriangleRayT = "CandidateTriangleRayT",
    RayQueryCandidateInstanceIndex = "CandidateInstanceIndex",
    RayQueryCandidateInstanceId = "CandidateInstanceID",
    RayQueryCandidateInstanceContributionToHitGroupIndex =
        "CandidateInstanceContributionToHitGroupIndex",
    RayQueryCandidateGeometryIndex = "CandidateGeometryIndex",
    RayQueryCandidatePrimitiveIndex = "CandidatePrimitiveIndex",
    RayQueryCandidateObjectRayOrigin = "CandidateObjectRayOrigin",
    RayQueryCandidateObjectRayDirection = "CandidateObjectRayDirection",
    RayQueryCandidateObjectToWorld3x4 = "CandidateObjectToWorld3x4",
    RayQueryCandidateObjectToWorld4x3 = "CandidateObjectToWorld4x3",
    RayQueryCandidateWorldToObject3x4 = "CandidateWorldToObject3x4",
    RayQueryCandidateWorldToObject4x3 = "CandidateWorldToObject4x3",
    RayQueryCandidateTriangleBarycentrics = "CandidateTriangleBarycentrics",
    RayQueryCandidateTriangleFrontFace = "CandidateTriangleFrontFace",
    RayQueryCommittedStatus = "CommittedStatus",
    RayQueryCommittedRayT = "CommittedRayT",
    RayQueryCommittedInstanceIndex = "CommittedInstanceIndex",
    RayQueryCommittedInstanceId = "CommittedInstanceID",
    RayQueryCommittedInstanceContributionToHitGroupIndex =
        "CommittedInstanceContributionToHitGroupIndex",
    RayQueryCommittedGeometryIndex = "CommittedGeometryIndex",
    RayQueryCommittedPrimitiveIndex = "CommittedPrimitiveIndex",
    RayQueryCommittedObjectRayOrigin = "CommittedObjectRayOrigin",
    RayQueryCommittedObjectRayDirection = "CommittedObjectRayDirection",
    RayQueryCommittedObjectToWorld3x4 = "CommittedObjectToWorld3x4",
    RayQueryCommittedObjectToWorld4x3 = "CommittedObjectToWorld4x3",
    RayQueryCommittedWorldToObject3x4 = "CommittedWorldToObject3x4",
    RayQueryCommittedWorldToObject4x3 = "CommittedWorldToObject4x3",
    RayQueryCommittedTriangleBarycentrics = "CommittedTriangleBarycentrics",
    RayQueryCommittedTriangleFrontFace = "CommittedTriangleFrontFace",
}

/// What a `RayQuery` getter reads: one of the query's values, of the
/// candidate or the committed intersection where `committed` says which.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RayQueryRead {
    /// The flags the query was made and started with (`RayFlags()`).
    RayFlags,
    /// The ray's origin in world space.
    WorldRayOrigin,
    /// The ray's direction in world space.
    WorldRayDirection,
    /// The ray's minimum `t`.
    RayTMin,
    /// The candidate's type or the committed status.
    Type,
    /// Whether the candidate procedural primitive is opaque, negated.
    ProceduralNonOpaque,
    /// The intersection's `t` (distance along the ray).
    T,
    /// The index of the intersected instance in the acceleration structure.
    InstanceIndex,
    /// The user id of the intersected instance.
    InstanceId,
    /// The intersected instance's contribution to the hit-group index.
    InstanceContributionToHitGroupIndex,
    /// The index of the intersected geometry in its instance.
    GeometryIndex,
    /// The index of the intersected primitive in its geometry.
    PrimitiveIndex,
    /// The ray's origin in the intersected object's space.
    ObjectRayOrigin,
    /// The ray's direction in the intersected object's space.
    ObjectRayDirection,
    /// The object-to-world matrix, 3x4.
    ObjectToWorld3x4,
    /// The object-to-world matrix, 4x3.
    ObjectToWorld4x3,
    /// The world-to-object matrix, 3x4.
    WorldToObject3x4,
    /// The world-to-object matrix, 4x3.
    WorldToObject4x3,
    /// The barycentrics of the intersection in the triangle.
    TriangleBarycentrics,
    /// Whether the intersected triangle is front-facing.
    TriangleFrontFace,
}

impl Intrinsic {
    /// Looks up a free function or method by its HLSL spelling.
    pub fn from_name(name: &str) -> Option<Intrinsic> {
        Intrinsic::ALL.iter().copied().find(|i| i.name() == name)
    }

    /// The free function spelled `name` (not a method).
    pub fn function_from_name(name: &str) -> Option<Intrinsic> {
        Intrinsic::ALL
            .iter()
            .copied()
            .find(|i| i.name() == name && !i.is_method())
    }

    /// The method spelled `name` (`tex.Sample`, `buf.InterlockedAdd`).
    pub fn method_from_name(name: &str) -> Option<Intrinsic> {
        Intrinsic::ALL
            .iter()
            .copied()
            .find(|i| i.name() == name && i.is_method())
    }
}

impl Intrinsic {
    /// Whether the intrinsic is a method of a built-in object
    /// (`tex.Sample(s, uv)`, `buf.Store(a, v)`, `stream.Append(v)`), whose
    /// object is then the first argument.
    pub fn is_method(self) -> bool {
        use Intrinsic::*;
        self.is_sample()
            || self.is_gather()
            || self.atomic().is_some_and(|(_, on_buffer)| on_buffer)
            || matches!(
                self,
                CalculateLevelOfDetail
                    | CalculateLevelOfDetailUnclamped
                    | Load
                    | GetDimensions
                    | SubpassLoad
                    | Load2
                    | Load3
                    | Load4
                    | Store
                    | Store2
                    | Store3
                    | Store4
                    | IncrementCounter
                    | DecrementCounter
                    | Append
                    | Consume
                    | RestartStrip
            )
            || self.is_hit_object_method()
            || self.is_ray_query_method()
    }

    /// Whether the intrinsic is a method of `RayQuery`.
    pub fn is_ray_query_method(self) -> bool {
        use Intrinsic::*;
        matches!(
            self,
            RayQueryTraceRayInline
                | RayQueryProceed
                | RayQueryAbort
                | RayQueryCommitNonOpaqueTriangleHit
                | RayQueryCommitProceduralPrimitiveHit
        ) || self.ray_query_read().is_some()
    }

    /// The value a `RayQuery` getter reads and whether of the committed
    /// intersection (`false`: the candidate, or a value of the whole
    /// query); `None` for every other intrinsic.
    pub fn ray_query_read(self) -> Option<(RayQueryRead, bool)> {
        use Intrinsic::*;
        use RayQueryRead as R;
        Some(match self {
            RayQueryRayFlags => (R::RayFlags, false),
            RayQueryWorldRayOrigin => (R::WorldRayOrigin, false),
            RayQueryWorldRayDirection => (R::WorldRayDirection, false),
            RayQueryRayTMin => (R::RayTMin, false),
            RayQueryCandidateType => (R::Type, false),
            RayQueryCandidateProceduralPrimitiveNonOpaque => (R::ProceduralNonOpaque, false),
            RayQueryCandidateTriangleRayT => (R::T, false),
            RayQueryCandidateInstanceIndex => (R::InstanceIndex, false),
            RayQueryCandidateInstanceId => (R::InstanceId, false),
            RayQueryCandidateInstanceContributionToHitGroupIndex => {
                (R::InstanceContributionToHitGroupIndex, false)
            }
            RayQueryCandidateGeometryIndex => (R::GeometryIndex, false),
            RayQueryCandidatePrimitiveIndex => (R::PrimitiveIndex, false),
            RayQueryCandidateObjectRayOrigin => (R::ObjectRayOrigin, false),
            RayQueryCandidateObjectRayDirection => (R::ObjectRayDirection, false),
            RayQueryCandidateObjectToWorld3x4 => (R::ObjectToWorld3x4, false),
            RayQueryCandidateObjectToWorld4x3 => (R::ObjectToWorld4x3, false),
            RayQueryCandidateWorldToObject3x4 => (R::WorldToObject3x4, false),
            RayQueryCandidateWorldToObject4x3 => (R::WorldToObject4x3, false),
            RayQueryCandidateTriangleBarycentrics => (R::TriangleBarycentrics, false),
            RayQueryCandidateTriangleFrontFace => (R::TriangleFrontFace, false),
            RayQueryCommittedStatus => (R::Type, true),
            RayQueryCommittedRayT => (R::T, true),
            RayQueryCommittedInstanceIndex => (R::InstanceIndex, true),
            RayQueryCommittedInstanceId => (R::InstanceId, true),
            RayQueryCommittedInstanceContributionToHitGroupIndex => {
                (R::InstanceContributionToHitGroupIndex, true)
            }
            RayQueryCommittedGeometryIndex => (R::GeometryIndex, true),
            RayQueryCommittedPrimitiveIndex => (R::PrimitiveIndex, true),
            RayQueryCommittedObjectRayOrigin => (R::ObjectRayOrigin, true),
            RayQueryCommittedObjectRayDirection => (R::ObjectRayDirection, true),
            RayQueryCommittedObjectToWorld3x4 => (R::ObjectToWorld3x4, true),
            RayQueryCommittedObjectToWorld4x3 => (R::ObjectToWorld4x3, true),
            RayQueryCommittedWorldToObject3x4 => (R::WorldToObject3x4, true),
            RayQueryCommittedWorldToObject4x3 => (R::WorldToObject4x3, true),
            RayQueryCommittedTriangleBarycentrics => (R::TriangleBarycentrics, true),
            RayQueryCommittedTriangleFrontFace => (R::TriangleFrontFace, true),
            _ => return None,
        })
    }

    /// The `RayQuery` method spelled `name`.
    pub fn ray_query_method_from_name(name: &str) -> Option<Intrinsic> {
        Intrinsic::ALL
            .iter()
            .copied()
            .find(|i| i.name() == name && i.is_ray_query_method())
    }

    /// Whether the intrinsic is one of the ray-tracing calls (`TraceRay`,
    /// `TraceMotionRay`, `CallShader`, `ReportHit`, `IgnoreHit`,
    /// `AcceptHitAndEndSearch`), as opposed to the ray-tracing values
    /// (`DispatchRaysIndex()` ...) read from builtins.
    pub fn is_ray_call(self) -> bool {
        use Intrinsic::*;
        matches!(
            self,
            TraceRay | TraceMotionRay | CallShader | ReportHit | IgnoreHit | AcceptHitAndEndSearch
        )
    }

    /// Whether the intrinsic is a method of `HitObject` (its object, a
    /// hit-object variable, is the first argument).
    pub fn is_hit_object_method(self) -> bool {
        use Intrinsic::*;
        matches!(
            self,
            HitObjectIsHit
                | HitObjectIsMiss
                | HitObjectIsNop
                | HitObjectGetRayDesc
                | HitObjectGetRayTMin
                | HitObjectGetRayTCurrent
                | HitObjectGetWorldRayOrigin
                | HitObjectGetWorldRayDirection
                | HitObjectGetObjectRayOrigin
                | HitObjectGetObjectRayDirection
                | HitObjectGetObjectToWorld
                | HitObjectGetWorldToObject
                | HitObjectGetInstanceIndex
                | HitObjectGetInstanceId
                | HitObjectGetGeometryIndex
                | HitObjectGetPrimitiveIndex
                | HitObjectGetHitKind
                | HitObjectGetShaderTableIndex
                | HitObjectGetAttributes
                | HitObjectGetCurrentTime
                | HitObjectGetSpherePositionAndRadius
                | HitObjectGetLssPositionsAndRadii
                | HitObjectIsSphereHit
                | HitObjectIsLssHit
        )
    }

    /// Whether the intrinsic belongs to shader execution reordering
    /// (`HitObject` and `ReorderThread`).
    pub fn is_hit_object(self) -> bool {
        use Intrinsic::*;
        self.is_hit_object_method()
            || matches!(
                self,
                HitObjectTraceRay
                    | HitObjectMakeMiss
                    | HitObjectMakeNop
                    | HitObjectMakeHit
                    | HitObjectInvoke
                    | ReorderThread
            )
    }
}

/// The operation of an atomic intrinsic: a free one (`InterlockedAdd`
/// on a variable) or a `RWByteAddressBuffer` method (`InterlockedAdd` on
/// a word of the buffer). Each target names its atomics after it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AtomicOp {
    /// `InterlockedAdd`.
    Add,
    /// `InterlockedAnd`.
    And,
    /// `InterlockedOr`.
    Or,
    /// `InterlockedXor`.
    Xor,
    /// `InterlockedMin`.
    Min,
    /// `InterlockedMax`.
    Max,
    /// `InterlockedExchange`.
    Exchange,
    /// `InterlockedCompareExchange`.
    CompareExchange,
    /// `InterlockedCompareStore`.
    CompareStore,
}

impl AtomicOp {
    /// The operation's name, as HLSL's `Interlocked*` ends (`Add`,
    /// `Exchange`, `CompareStore`).
    pub fn name(self) -> &'static str {
        match self {
            AtomicOp::Add => "Add",
            AtomicOp::And => "And",
            AtomicOp::Or => "Or",
            AtomicOp::Xor => "Xor",
            AtomicOp::Min => "Min",
            AtomicOp::Max => "Max",
            AtomicOp::Exchange => "Exchange",
            AtomicOp::CompareExchange => "CompareExchange",
            AtomicOp::CompareStore => "CompareStore",
        }
    }

    /// Whether it compares before it stores (`CompareExchange`,
    /// `CompareStore`).
    pub fn compares(self) -> bool {
        matches!(self, AtomicOp::CompareExchange | AtomicOp::CompareStore)
    }
}

impl Intrinsic {
    /// Whether GLSL, WGSL, MSL and the CUDA prelude all have this function
    /// under its HLSL name ([`Intrinsic::name`]) with HLSL's arguments: the
    /// math every shading language shares (`abs`, `clamp`, `smoothstep`,
    /// `transpose` ...).
    pub fn is_common_math(self) -> bool {
        use Intrinsic::*;
        matches!(
            self,
            Abs | Acos
                | Asin
                | Atan
                | Ceil
                | Clamp
                | Cos
                | Cosh
                | Cross
                | Determinant
                | Distance
                | Exp
                | Exp2
                | Floor
                | Length
                | Log
                | Log2
                | Max
                | Min
                | Normalize
                | Pow
                | Reflect
                | Sin
                | Sinh
                | SmoothStep
                | Sqrt
                | Step
                | Tan
                | Tanh
                | Transpose
                | Trunc
        )
    }

    /// Whether this is a texture's `Sample*` method (`Sample` to
    /// `SampleCmpBias`).
    pub fn is_sample(self) -> bool {
        use Intrinsic::*;
        matches!(
            self,
            Sample
                | SampleBias
                | SampleLevel
                | SampleGrad
                | SampleCmp
                | SampleCmpLevelZero
                | SampleCmpLevel
                | SampleCmpGrad
                | SampleCmpBias
        )
    }

    /// Whether this is a texture's `Gather*` method.
    pub fn is_gather(self) -> bool {
        use Intrinsic::*;
        matches!(
            self,
            Gather | GatherRed | GatherGreen | GatherBlue | GatherAlpha | GatherCmp | GatherCmpRed
        )
    }

    /// Whether this is a texture method that compares with a reference
    /// value (`SampleCmp*`, `GatherCmp*`): its texture is a depth texture
    /// and its sampler a comparison sampler.
    pub fn compares(self) -> bool {
        use Intrinsic::*;
        matches!(
            self,
            SampleCmp
                | SampleCmpLevelZero
                | SampleCmpLevel
                | SampleCmpGrad
                | SampleCmpBias
                | GatherCmp
                | GatherCmpRed
        )
    }

    /// The operation of an atomic intrinsic, and whether it is a
    /// byte-address buffer's method (`buffer.InterlockedAdd(address,
    /// value)`) rather than a free function on a variable; `None` for
    /// every other intrinsic.
    pub fn atomic(self) -> Option<(AtomicOp, bool)> {
        use Intrinsic::*;
        Some(match self {
            InterlockedAdd => (AtomicOp::Add, false),
            InterlockedAnd => (AtomicOp::And, false),
            InterlockedOr => (AtomicOp::Or, false),
            InterlockedXor => (AtomicOp::Xor, false),
            InterlockedMin => (AtomicOp::Min, false),
            InterlockedMax => (AtomicOp::Max, false),
            InterlockedExchange => (AtomicOp::Exchange, false),
            InterlockedCompareExchange => (AtomicOp::CompareExchange, false),
            InterlockedCompareStore => (AtomicOp::CompareStore, false),
            BufferInterlockedAdd => (AtomicOp::Add, true),
            BufferInterlockedAnd => (AtomicOp::And, true),
            BufferInterlockedOr => (AtomicOp::Or, true),
            BufferInterlockedXor => (AtomicOp::Xor, true),
            BufferInterlockedMin => (AtomicOp::Min, true),
            BufferInterlockedMax => (AtomicOp::Max, true),
            BufferInterlockedExchange => (AtomicOp::Exchange, true),
            BufferInterlockedCompareExchange => (AtomicOp::CompareExchange, true),
            BufferInterlockedCompareStore => (AtomicOp::CompareStore, true),
            _ => return None,
        })
    }

    /// Whether calling the intrinsic changes something besides giving its
    /// value: it writes memory (stores, atomics, counters, `out`
    /// arguments such as `sincos`'s), synchronises (barriers, the
    /// fragment interlock), ends or redirects the invocation (`clip`, the
    /// ray-tracing calls) or changes an object's state (a `RayQuery`'s
    /// traversal, a hit object, mesh output counts). Every other
    /// intrinsic only computes its value from its arguments and what it
    /// reads, so evaluating it twice, or not at all, is unobservable
    /// except for its cost (wave, quad and derivative operations read
    /// the other invocations, which only matters where the control flow
    /// around them changes; see [`is_pure_with`]).
    pub fn has_side_effects(self) -> bool {
        use Intrinsic::*;
        self.atomic().is_some()
            || matches!(
                self,
                Clip | AllMemoryBarrier
                    | AllMemoryBarrierWithGroupSync
                    | DeviceMemoryBarrier
                    | DeviceMemoryBarrierWithGroupSync
                    | GroupMemoryBarrier
                    | GroupMemoryBarrierWithGroupSync
                    | BeginInvocationInterlock
                    | EndInvocationInterlock
                    | WorkgroupUniformLoad
                    | SinCos
                    | Modf
                    | Frexp
                    | GetDimensions
                    | Store
                    | Store2
                    | Store3
                    | Store4
                    | IncrementCounter
                    | DecrementCounter
                    | Append
                    | Consume
                    | RestartStrip
                    | SetMeshOutputCounts
                    | DispatchMesh
                    | TraceRay
                    | TraceMotionRay
                    | CallShader
                    | ReportHit
                    | IgnoreHit
                    | AcceptHitAndEndSearch
                    | HitObjectTraceRay
                    | HitObjectMakeMiss
                    | HitObjectMakeNop
                    | HitObjectMakeHit
                    | HitObjectInvoke
                    | ReorderThread
                    | RayQueryTraceRayInline
                    | RayQueryProceed
                    | RayQueryAbort
                    | RayQueryCommitNonOpaqueTriangleHit
                    | RayQueryCommitProceduralPrimitiveHit
            )
    }
}

/// Whether expression `e` of `exprs` is a constant expression: literals,
/// and constructions, conversions and operators over them; with
/// `selectors`, also members, elements and swizzles of those; and the
/// globals `global` accepts (a target whose constants may name other
/// constants). What each target's module-scope constants may hold is one
/// choice of these.
pub fn is_constant(
    exprs: &crate::ExpressionArena,
    e: crate::Handle<crate::Expression>,
    selectors: bool,
    global: &dyn Fn(crate::Handle<crate::GlobalVariable>) -> bool,
) -> bool {
    use crate::Expression as E;
    let operator = match &exprs[e] {
        E::Literal(_) => return true,
        E::Global(g) => return global(*g),
        E::Construct { .. } | E::Convert { .. } | E::Unary { .. } | E::Binary { .. } => true,
        E::Swizzle { .. } | E::Member { .. } | E::Index { .. } => selectors,
        _ => false,
    };
    operator && (exprs[e].children().into_iter()).all(|c| is_constant(exprs, c, selectors, global))
}

/// Whether evaluating expression `e` of `exprs` twice, or not at all, is
/// unobservable: no call, assignment or increment anywhere in its tree,
/// and no intrinsic with [side effects](Intrinsic::has_side_effects).
pub fn is_pure(exprs: &crate::ExpressionArena, e: crate::Handle<crate::Expression>) -> bool {
    is_pure_with(exprs, e, |fun| !fun.has_side_effects())
}

/// [`is_pure`] with the caller's judgement of intrinsics: `e` is pure
/// when its tree holds no call, assignment or increment and `intrinsic_ok`
/// accepts every intrinsic in it. A writer that keeps more in place than
/// side effects ask (a load under its condition, one call per intrinsic
/// in the text) passes a stricter test than `!has_side_effects()`.
pub fn is_pure_with(
    exprs: &crate::ExpressionArena,
    e: crate::Handle<crate::Expression>,
    intrinsic_ok: impl Fn(Intrinsic) -> bool,
) -> bool {
    use crate::Expression as E;
    let mut stack = vec![e];
    while let Some(h) = stack.pop() {
        let expr = &exprs[h];
        match expr {
            E::Call { .. } | E::Assign { .. } | E::IncDec { .. } => return false,
            E::Intrinsic { fun, .. } if !intrinsic_ok(*fun) => return false,
            _ => stack.extend(expr.children()),
        }
    }
    true
}

impl crate::Module {
    /// The intrinsics `function` and the functions it calls use, and the
    /// globals they name (not those the globals' initializers name).
    pub fn reached_from(
        &self,
        function: crate::Handle<crate::Function>,
    ) -> (
        std::collections::BTreeSet<Intrinsic>,
        std::collections::BTreeSet<crate::Handle<crate::GlobalVariable>>,
    ) {
        let mut found = std::collections::BTreeSet::new();
        let mut globals = std::collections::BTreeSet::new();
        let reach = crate::Reach::calls(self, [function]);
        for f in reach.functions() {
            for (_, e) in self.functions[f].expressions.iter() {
                match e {
                    crate::Expression::Intrinsic { fun, .. } => {
                        found.insert(*fun);
                    }
                    crate::Expression::Global(g) => {
                        globals.insert(*g);
                    }
                    _ => {}
                }
            }
        }
        (found, globals)
    }
}

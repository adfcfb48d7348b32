//! Shader stages and the stage attributes of an entry point, as typed data.

use crate::{Function, Handle};

/// A pipeline stage an entry point runs in, with HLSL's names (`[shader("...")]`, `-stage`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ShaderStage {
    /// Vertex shader.
    Vertex,
    /// Hull shader (Vulkan/GLSL tessellation control).
    Hull,
    /// Domain shader (Vulkan/GLSL tessellation evaluation).
    Domain,
    /// Geometry shader.
    Geometry,
    /// Pixel (fragment) shader.
    Fragment,
    /// Compute shader (a CUDA kernel).
    Compute,
    /// Mesh shader.
    Mesh,
    /// Amplification shader (Vulkan task shader, Metal object function).
    Amplification,
    /// Ray-generation shader.
    RayGeneration,
    /// Intersection shader.
    Intersection,
    /// Any-hit shader.
    AnyHit,
    /// Closest-hit shader.
    ClosestHit,
    /// Miss shader.
    Miss,
    /// Callable shader.
    Callable,
}

impl ShaderStage {
    /// Every stage, in declaration order.
    pub const ALL: [ShaderStage; 14] = [
        ShaderStage::Vertex,
        ShaderStage::Hull,
        ShaderStage::Domain,
        ShaderStage::Geometry,
        ShaderStage::Fragment,
        ShaderStage::Compute,
        ShaderStage::Mesh,
        ShaderStage::Amplification,
        ShaderStage::RayGeneration,
        ShaderStage::Intersection,
        ShaderStage::AnyHit,
        ShaderStage::ClosestHit,
        ShaderStage::Miss,
        ShaderStage::Callable,
    ];

    /// "a" or "an", for messages: "an amplification input".
    pub fn article(self) -> &'static str {
        match self.name().as_bytes()[0] {
            b'a' | b'e' | b'i' | b'o' | b'u' => "an",
            _ => "a",
        }
    }

    /// The canonical name, as `-stage` and `[shader("...")]` spell it.
    pub fn name(self) -> &'static str {
        match self {
            ShaderStage::Vertex => "vertex",
            ShaderStage::Hull => "hull",
            ShaderStage::Domain => "domain",
            ShaderStage::Geometry => "geometry",
            ShaderStage::Fragment => "fragment",
            ShaderStage::Compute => "compute",
            ShaderStage::Mesh => "mesh",
            ShaderStage::Amplification => "amplification",
            ShaderStage::RayGeneration => "raygeneration",
            ShaderStage::Intersection => "intersection",
            ShaderStage::AnyHit => "anyhit",
            ShaderStage::ClosestHit => "closesthit",
            ShaderStage::Miss => "miss",
            ShaderStage::Callable => "callable",
        }
    }

    /// Parses a stage name, accepting the aliases slangc accepts
    /// (`pixel`, `task`, `raygen`, `tesscontrol`, `tesseval`), case-insensitively.
    pub fn from_name(name: &str) -> Option<ShaderStage> {
        let lower = name.to_ascii_lowercase();
        let stage = match lower.as_str() {
            "pixel" => ShaderStage::Fragment,
            "task" => ShaderStage::Amplification,
            "raygen" => ShaderStage::RayGeneration,
            "tesscontrol" => ShaderStage::Hull,
            "tesseval" | "tessevaluation" => ShaderStage::Domain,
            other => return ShaderStage::ALL.into_iter().find(|s| s.name() == other),
        };
        Some(stage)
    }

    /// Whether the stage runs in workgroups (`[numthreads]`): compute,
    /// mesh and amplification.
    pub fn has_workgroups(self) -> bool {
        matches!(
            self,
            ShaderStage::Compute | ShaderStage::Mesh | ShaderStage::Amplification
        )
    }

    /// Whether this is one of the six ray-tracing stages (ray generation to callable).
    pub fn is_ray_tracing(self) -> bool {
        matches!(
            self,
            ShaderStage::RayGeneration
                | ShaderStage::Intersection
                | ShaderStage::AnyHit
                | ShaderStage::ClosestHit
                | ShaderStage::Miss
                | ShaderStage::Callable
        )
    }
}

/// `[domain("...")]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TessDomain {
    /// `"tri"`: a triangle patch.
    Tri,
    /// `"quad"`: a quad patch.
    Quad,
    /// `"isoline"`: a patch of lines.
    Isoline,
}

/// `[partitioning("...")]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Partitioning {
    /// `"integer"`.
    Integer,
    /// `"fractional_even"`.
    FractionalEven,
    /// `"fractional_odd"`.
    FractionalOdd,
    /// `"pow2"`.
    Pow2,
}

impl Partitioning {
    /// The attribute's argument: `"fractional_odd"`.
    pub fn name(self) -> &'static str {
        match self {
            Partitioning::Integer => "integer",
            Partitioning::FractionalEven => "fractional_even",
            Partitioning::FractionalOdd => "fractional_odd",
            Partitioning::Pow2 => "pow2",
        }
    }
}

/// How a compute shader's invocations form the groups its derivatives
/// are taken over (`[DerivativeGroupQuad]`, `[DerivativeGroupLinear]`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DerivativeGroup {
    /// 2x2 quads of the workgroup's x and y (SPIR-V
    /// `DerivativeGroupQuadsKHR`).
    Quads,
    /// Four consecutive invocations by local index (SPIR-V
    /// `DerivativeGroupLinearKHR`).
    Linear,
}

/// `[outputtopology("...")]` of hull and mesh shaders.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OutputTopology {
    /// `"point"`.
    Point,
    /// `"line"`.
    Line,
    /// `"triangle"` (mesh shaders).
    Triangle,
    /// `"triangle_cw"`: clockwise triangles (hull shaders).
    TriangleCw,
    /// `"triangle_ccw"`: counter-clockwise triangles (hull shaders).
    TriangleCcw,
}

impl OutputTopology {
    /// The attribute's argument: `"triangle_cw"`.
    pub fn name(self) -> &'static str {
        match self {
            OutputTopology::Point => "point",
            OutputTopology::Line => "line",
            OutputTopology::Triangle => "triangle",
            OutputTopology::TriangleCw => "triangle_cw",
            OutputTopology::TriangleCcw => "triangle_ccw",
        }
    }
}

/// The input primitive of a geometry shader (`triangle VsOut v[3]`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum InputPrimitive {
    /// `point`: one vertex.
    Point,
    /// `line`: two vertices.
    Line,
    /// `triangle`: three vertices.
    Triangle,
    /// `lineadj`: a line with adjacency, four vertices.
    LineAdj,
    /// `triangleadj`: a triangle with adjacency, six vertices.
    TriangleAdj,
}

/// `[StreamOutput(stream, "0:SV_Position.xyzw; $SKIP.x; 1:TEXCOORD0.xy")]`
/// on a geometry entry point: which outputs of `stream` transform feedback
/// captures, in order, into which buffer slot (`N:`, default 0), with
/// `$SKIP` gaps; the legalizer parses `text`.
#[derive(Clone, Debug, PartialEq)]
pub struct StreamOutputDecl {
    /// The geometry output stream (0 to 3) whose outputs are captured.
    pub stream: u32,
    /// The declaration string's contents, without the quotes.
    pub text: String,
    /// The string literal, quotes included.
    pub span: crate::Span,
}

/// `[StreamOutputStride(slot, bytes)]`: the vertex stride of a buffer slot
/// when it is not the extent of its declarations.
#[derive(Clone, Debug, PartialEq)]
pub struct StreamOutputStride {
    /// The buffer slot.
    pub slot: u32,
    /// The stride in bytes.
    pub stride: u32,
    /// The attribute in the source.
    pub span: crate::Span,
}

/// Stage attributes written on an entry point, as typed data. The front end
/// fills what the source says; legalizers read it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct EntryPointAttributes {
    /// `[numthreads(x, y, z)]`.
    pub workgroup_size: Option<[u32; 3]>,
    /// `[domain("...")]` of hull and domain shaders.
    pub domain: Option<TessDomain>,
    /// `[partitioning("...")]` of hull shaders.
    pub partitioning: Option<Partitioning>,
    /// `[outputtopology("...")]` of hull and mesh shaders.
    pub output_topology: Option<OutputTopology>,
    /// `[outputcontrolpoints(n)]`.
    pub output_control_points: Option<u32>,
    /// `[patchconstantfunc("f")]`, resolved to the function.
    pub patch_constant_func: Option<Handle<Function>>,
    /// `[maxtessfactor(f)]`.
    pub max_tess_factor: Option<f32>,
    /// `[maxvertexcount(n)]`.
    pub max_vertex_count: Option<u32>,
    /// Mesh shaders, after legalization: the sizes of the `out vertices`
    /// and `out primitives` (or `out indices`) arrays, the most vertices
    /// and primitives one workgroup writes.
    pub mesh_vertices: Option<u32>,
    /// Mesh shaders, after legalization: the size of the `out primitives` (or `out indices`) array;
    /// see `mesh_vertices`.
    pub mesh_primitives: Option<u32>,
    /// `[instance(n)]`.
    pub instances: Option<u32>,
    /// A geometry shader's input primitive (`triangle VsOut v[3]`).
    pub input_primitive: Option<InputPrimitive>,
    /// A geometry shader's output primitive (`TriangleStream<T>`).
    pub output_stream: Option<crate::StreamKind>,
    /// `[StreamOutput(stream, "decl")]`: D3D-style stream-output
    /// declarations, as written.
    pub stream_output: Vec<StreamOutputDecl>,
    /// `[StreamOutputStride(slot, bytes)]`.
    pub stream_output_strides: Vec<StreamOutputStride>,
    /// `[earlydepthstencil]`.
    pub early_depth_stencil: bool,
    /// `[QuadDerivatives]`, or an entry point reaching `QuadAny`/`QuadAll`:
    /// derivatives and quad operations over whole quads (SPIR-V
    /// `QuadDerivativesKHR`).
    pub quad_derivatives: bool,
    /// `[RequireFullQuads]`: every quad runs with all four invocations
    /// (SPIR-V `RequireFullQuadsKHR`).
    pub require_full_quads: bool,
    /// `[MaximallyReconverges]`, or implied by quad derivatives (SPIR-V
    /// `MaximallyReconvergesKHR`).
    pub maximally_reconverges: bool,
    /// The entry point reaches `beginInvocationInterlock`: its critical
    /// section is ordered per pixel (SPIR-V `PixelInterlockOrderedEXT`).
    pub pixel_interlock: bool,
    /// A compute shader's derivative groups: `[DerivativeGroupQuad]`,
    /// `[DerivativeGroupLinear]`, or implied when it takes derivatives
    /// (quads when its workgroup's x and y are even, else linear when its
    /// size is a multiple of four).
    pub derivative_group: Option<DerivativeGroup>,
}

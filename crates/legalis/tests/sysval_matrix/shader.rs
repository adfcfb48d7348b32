//! Minimal shaders around one system value: per stage a template that is a
//! valid entry point on its own, with the value under test declared on a
//! line of its own (so a diagnostic's line can be checked) and used: an
//! input is read into an output, an output is written.

use legalis::ShaderStage as S;
use legalis_ir::{Scalar, ScalarKind, SystemValue as SV};
use legalis_sysval::{Access, BuiltinType, Direction, GlslBuiltin};

/// Where the value under test is declared.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Placement {
    /// A parameter of the entry point (`out` for an output).
    Param,
    /// A member of a struct: of an input struct parameter, of the result
    /// struct, of the per-vertex input array element (geometry,
    /// tessellation), of the stream element (geometry), of the control
    /// point or patch-constant struct (hull) or of the mesh vertex or
    /// primitive struct, as the stage has it.
    Field,
    /// The entry point's result itself (`float4 main() : SV_Position`).
    Result,
}

impl Placement {
    pub fn name(self) -> &'static str {
        match self {
            Placement::Param => "param",
            Placement::Field => "field",
            Placement::Result => "result",
        }
    }
}

/// One shader of the matrix.
#[derive(Clone, Debug)]
pub struct Case {
    pub sv: SV,
    pub stage: S,
    pub dir: Direction,
    /// The type the value is declared with.
    pub ty: BuiltinType,
    /// Semantic indices, one declaration each (`SV_ClipDistance0` and
    /// `SV_ClipDistance1` in one shader); `[0]` for non-indexed values.
    pub indices: Vec<u32>,
    pub placement: Placement,
    /// Declared `noperspective` (values with a `noperspective` alternate).
    pub noperspective: bool,
    /// The table's row, when it has one.
    pub row: Option<GlslBuiltin>,
}

impl Case {
    /// `SV_ClipDistance1 fragment input float [field]`.
    pub fn describe(&self) -> String {
        let semantics: Vec<String> = self.indices.iter().map(|&i| self.semantic(i)).collect();
        format!(
            "{} {} {} {}{} [{}]",
            semantics.join("+"),
            self.stage.name(),
            self.dir.name(),
            if self.noperspective {
                "noperspective "
            } else {
                ""
            },
            type_name(self.ty),
            self.placement.name()
        )
    }

    fn semantic(&self, index: u32) -> String {
        if self.sv.is_indexed() {
            format!("{}{index}", self.sv.name())
        } else {
            self.sv.name().to_string()
        }
    }

    fn slots(&self) -> Vec<Slot> {
        let prefix = if self.noperspective {
            "noperspective "
        } else {
            ""
        };
        self.indices
            .iter()
            .map(|&i| Slot {
                name: format!("value{i}"),
                semantic: self.semantic(i),
                ty: self.ty,
                prefix,
            })
            .collect()
    }

    fn input(&self) -> bool {
        self.dir == Direction::Input
    }

    fn access(&self) -> Option<Access> {
        self.row.map(|r| r.access)
    }

    /// Whether the value is one the template would declare anyway (the
    /// vertex shader's `SV_Position`, the fragment shader's `SV_Target0`,
    /// a hull shader's tessellation factors ...).
    fn is(&self, sv: SV, dir: Direction) -> bool {
        self.sv == sv && self.dir == dir && self.indices.contains(&0)
    }
}

/// A generated shader and the line (1-based) of each declaration of the
/// value under test.
#[derive(Clone, Debug)]
pub struct Shader {
    pub source: String,
    pub decl_lines: Vec<usize>,
}

struct Slot {
    name: String,
    semantic: String,
    ty: BuiltinType,
    prefix: &'static str,
}

impl Slot {
    fn declare(&self, direction_prefix: &str) -> String {
        let scalar = scalar_name(self.ty_scalar());
        let (ty, suffix) = match self.ty {
            BuiltinType::Scalar(_) => (scalar.to_string(), String::new()),
            BuiltinType::Vector(_, n) => (format!("{scalar}{n}"), String::new()),
            BuiltinType::Array(_, n) => (scalar.to_string(), format!("[{}]", n.unwrap_or(1))),
        };
        format!(
            "{direction_prefix}{}{ty} {}{suffix} : {}",
            self.prefix, self.name, self.semantic
        )
    }

    fn ty_scalar(&self) -> Scalar {
        match self.ty {
            BuiltinType::Scalar(s) | BuiltinType::Vector(s, _) | BuiltinType::Array(s, _) => s,
        }
    }
}

fn type_name(ty: BuiltinType) -> String {
    match ty {
        BuiltinType::Scalar(s) => scalar_name(s).to_string(),
        BuiltinType::Vector(s, n) => format!("{}{n}", scalar_name(s)),
        BuiltinType::Array(s, n) => format!("{}[{}]", scalar_name(s), n.unwrap_or(1)),
    }
}

fn scalar_name(s: Scalar) -> &'static str {
    match s.kind {
        ScalarKind::Bool => "bool",
        ScalarKind::Sint => "int",
        ScalarKind::Uint => "uint",
        ScalarKind::Float => "float",
    }
}

/// A float expression read from `expr` of type `ty`.
fn read(expr: &str, ty: BuiltinType) -> String {
    let to_float = |e: String, s: Scalar| match s.kind {
        ScalarKind::Float => e,
        ScalarKind::Bool => format!("({e} ? 1.0 : 0.0)"),
        ScalarKind::Sint | ScalarKind::Uint => format!("float({e})"),
    };
    match ty {
        BuiltinType::Scalar(s) => to_float(expr.to_string(), s),
        BuiltinType::Vector(s, _) => to_float(format!("{expr}.x"), s),
        BuiltinType::Array(s, _) => to_float(format!("{expr}[0]"), s),
    }
}

/// Statements storing the float `value` into `lhs` of type `ty`.
fn write(lhs: &str, ty: BuiltinType, value: &str) -> Vec<String> {
    let from_float = |s: Scalar| match s.kind {
        ScalarKind::Float => value.to_string(),
        ScalarKind::Bool => format!("({value} > 0.5)"),
        ScalarKind::Sint => format!("int({value})"),
        ScalarKind::Uint => format!("uint({value})"),
    };
    match ty {
        BuiltinType::Scalar(s) => vec![format!("{lhs} = {};", from_float(s))],
        BuiltinType::Vector(s, n) => {
            let parts = vec![from_float(s); usize::from(n)];
            vec![format!(
                "{lhs} = {}{n}({});",
                scalar_name(s),
                parts.join(", ")
            )]
        }
        BuiltinType::Array(s, n) => (0..n.unwrap_or(1))
            .map(|i| format!("{lhs}[{i}] = {};", from_float(s)))
            .collect(),
    }
}

/// The pieces of one shader; [`Parts::render`] lays them out.
#[derive(Default)]
struct Parts {
    /// Structs, globals and helper functions.
    pre: Vec<String>,
    attributes: Vec<String>,
    result: String,
    result_semantic: Option<String>,
    params: Vec<String>,
    body: Vec<String>,
    /// The value read from the inputs, summed into `x`.
    reads: Vec<String>,
}

impl Parts {
    fn new(stage: S) -> Parts {
        Parts {
            attributes: vec![format!("[shader(\"{}\")]", stage.name())],
            result: "void".into(),
            ..Parts::default()
        }
    }

    fn structure(&mut self, name: &str, members: Vec<String>) {
        self.pre.push(format!("struct {name}"));
        self.pre.push("{".into());
        for m in members {
            self.pre.push(format!("    {m};"));
        }
        self.pre.push("};".into());
        self.pre.push(String::new());
    }

    /// `float x = ...;` summing every read.
    fn sum(&self) -> String {
        if self.reads.is_empty() {
            "float x = 0.5;".into()
        } else {
            format!("float x = 0.5 + {};", self.reads.join(" + "))
        }
    }

    fn render(self, case: &Case) -> Shader {
        let mut lines: Vec<String> = vec![format!("// sysval matrix: {}", case.describe())];
        lines.extend(self.pre);
        lines.extend(self.attributes);
        let semantic = self
            .result_semantic
            .map(|s| format!(" : {s}"))
            .unwrap_or_default();
        if self.params.is_empty() {
            lines.push(format!("{} main(){semantic}", self.result));
        } else {
            lines.push(format!("{} main(", self.result));
            let n = self.params.len();
            for (i, p) in self.params.into_iter().enumerate() {
                let end = if i + 1 == n {
                    format!("){semantic}")
                } else {
                    ",".into()
                };
                lines.push(format!("    {p}{end}"));
            }
        }
        lines.push("{".into());
        for statement in self.body {
            lines.push(format!("    {statement}"));
        }
        lines.push("}".into());
        let mut source = lines.join("\n");
        source.push('\n');
        let decl_lines = case
            .slots()
            .iter()
            .map(|slot| {
                let needle = format!("{} ", slot.name);
                let tail = format!(": {}", slot.semantic);
                lines
                    .iter()
                    .position(|l| {
                        (l.contains(&needle) || l.contains(&format!("{}[", slot.name)))
                            && l.contains(&tail)
                    })
                    // The result itself: the line of `main`.
                    .or_else(|| lines.iter().position(|l| l.contains(" main(")))
                    .map_or(0, |i| i + 1)
            })
            .collect();
        Shader { source, decl_lines }
    }
}

/// The shader for `case`.
pub fn generate(case: &Case) -> Shader {
    match case.stage {
        S::Vertex | S::Fragment | S::Domain => rasterizing(case),
        S::Geometry => geometry(case),
        S::Hull => hull(case),
        S::Mesh => mesh(case),
        S::Compute
        | S::Amplification
        | S::RayGeneration
        | S::Intersection
        | S::AnyHit
        | S::ClosestHit
        | S::Miss
        | S::Callable => flat(case),
    }
}

/// Parameters or an input struct: the placement of an input that is not
/// per vertex.
fn plain_inputs(case: &Case, parts: &mut Parts) {
    let slots = case.slots();
    match case.placement {
        Placement::Field => {
            parts.structure("Inputs", slots.iter().map(|s| s.declare("")).collect());
            parts.params.push("Inputs inputs".into());
            for s in &slots {
                parts.reads.push(read(&format!("inputs.{}", s.name), s.ty));
            }
        }
        Placement::Param | Placement::Result => {
            for s in &slots {
                parts.params.push(s.declare(""));
                parts.reads.push(read(&s.name, s.ty));
            }
        }
    }
}

/// `out` parameters written from `x`.
fn out_params(case: &Case, parts: &mut Parts) -> Vec<String> {
    let mut writes = Vec::new();
    for s in case.slots() {
        parts.params.push(s.declare("out "));
        writes.extend(write(&s.name, s.ty, "x"));
    }
    writes
}

/// The tessellation domain the case's declared types imply: a `float[4]`
/// outer factor, a `float[2]` inside factor or a `float2` domain location
/// mean quads, a `float[2]` outer factor isolines; triangles otherwise.
fn tess_domain(case: &Case) -> (&'static str, u32, Option<u32>) {
    match (case.sv, case.ty) {
        (SV::TessFactor, BuiltinType::Array(_, Some(4)))
        | (SV::InsideTessFactor, BuiltinType::Array(_, Some(2)))
        | (SV::DomainLocation, BuiltinType::Vector(_, 2)) => ("quad", 4, Some(2)),
        (SV::TessFactor, BuiltinType::Array(_, Some(2))) => ("isoline", 2, None),
        _ => ("tri", 3, Some(1)),
    }
}

/// The patch-constant struct's members other than the value under test.
fn patch_constant_members(case: &Case, dir: Direction) -> Vec<String> {
    let (_, edges, inside) = tess_domain(case);
    let mut members = Vec::new();
    if !case.is(SV::TessFactor, dir) {
        members.push(format!("float edges[{edges}] : SV_TessFactor"));
    }
    if !case.is(SV::InsideTessFactor, dir) {
        match inside {
            Some(1) => members.push("float inside : SV_InsideTessFactor".into()),
            Some(n) => members.push(format!("float inside[{n}] : SV_InsideTessFactor")),
            None => {}
        }
    }
    members
}

/// Vertex, fragment and domain shaders: one primary output (`SV_Position`,
/// `SV_Target0`) beside the value.
fn rasterizing(case: &Case) -> Shader {
    let stage = case.stage;
    let mut parts = Parts::new(stage);
    let (primary_sv, primary_name, primary_semantic) = match stage {
        S::Fragment => (SV::Target, "color", "SV_Target0"),
        _ => (SV::Position, "position", "SV_Position"),
    };
    let slots = case.slots();
    if stage == S::Domain {
        let (domain, _, _) = tess_domain(case);
        parts.attributes.push(format!("[domain(\"{domain}\")]"));
        let mut control = Vec::new();
        if !case.is(SV::Position, Direction::Input) {
            control.push("float4 position : SV_Position".into());
            parts.reads.push("patch[0].position.x".into());
        }
        let mut constants = patch_constant_members(case, Direction::Input);
        if !case.is(SV::TessFactor, Direction::Input) {
            parts.reads.push("constants.edges[0]".into());
        }
        if case.input() && case.access() == Some(Access::PerVertexIn) {
            for s in &slots {
                control.push(s.declare(""));
                parts
                    .reads
                    .push(read(&format!("patch[0].{}", s.name), s.ty));
            }
        } else if case.input() && case.row.is_some_and(|r| r.patch) {
            for s in &slots {
                constants.push(s.declare(""));
                parts
                    .reads
                    .push(read(&format!("constants.{}", s.name), s.ty));
            }
        } else if case.input() {
            plain_inputs(case, &mut parts);
        }
        parts.structure("ControlPoint", control);
        parts.structure("PatchConstants", constants);
        parts.params.insert(0, "PatchConstants constants".into());
        if !case.is(SV::DomainLocation, Direction::Input) {
            let location = if tess_domain(case).0 == "quad" {
                "float2"
            } else {
                "float3"
            };
            parts
                .params
                .insert(1, format!("{location} location : SV_DomainLocation"));
            parts.reads.push("location.x".into());
        }
        parts
            .params
            .push("const OutputPatch<ControlPoint, 3> patch".into());
    } else if case.input() {
        plain_inputs(case, &mut parts);
    }
    let primary = |x: &str| format!("float4({x}, 0.0, 0.0, 1.0)");
    if case.input() {
        parts.result = "float4".into();
        parts.result_semantic = Some(primary_semantic.into());
        parts.body.push(parts.sum());
        parts.body.push(format!("return {};", primary("x")));
        return parts.render(case);
    }
    let writes_primary = case.is(primary_sv, Direction::Output);
    parts.body.push(parts.sum());
    match case.placement {
        Placement::Result => {
            let [slot] = slots.as_slice() else {
                panic!("a result placement has one value: {}", case.describe());
            };
            parts.result = type_name(slot.ty);
            parts.result_semantic = Some(slot.semantic.clone());
            parts.body.push(format!("{} result;", type_name(slot.ty)));
            parts.body.extend(write("result", slot.ty, "x"));
            parts.body.push("return result;".into());
        }
        Placement::Field => {
            let mut members = Vec::new();
            if !writes_primary {
                members.push(format!("float4 {primary_name} : {primary_semantic}"));
            }
            members.extend(slots.iter().map(|s| s.declare("")));
            parts.structure("Outputs", members);
            parts.result = "Outputs".into();
            parts.body.push("Outputs output;".into());
            if !writes_primary {
                parts
                    .body
                    .push(format!("output.{primary_name} = {};", primary("x")));
            }
            for s in &slots {
                parts
                    .body
                    .extend(write(&format!("output.{}", s.name), s.ty, "x"));
            }
            parts.body.push("return output;".into());
        }
        Placement::Param => {
            let writes = out_params(case, &mut parts);
            parts.body.extend(writes);
            if !writes_primary {
                parts.result = "float4".into();
                parts.result_semantic = Some(primary_semantic.into());
                parts.body.push(format!("return {};", primary("x")));
            }
        }
    }
    parts.render(case)
}

/// `[maxvertexcount(3)]`, a `triangle` input array whose element struct
/// holds the per-vertex inputs, and a triangle stream whose element struct
/// holds the outputs.
fn geometry(case: &Case) -> Shader {
    let mut parts = Parts::new(S::Geometry);
    parts.attributes.push("[maxvertexcount(3)]".into());
    let slots = case.slots();
    let per_vertex_in = case.input() && case.access() == Some(Access::PerVertexIn);
    let mut vertex = Vec::new();
    if !case.is(SV::Position, Direction::Input) {
        vertex.push("float4 position : SV_Position".into());
        parts.reads.push("input[0].position.x".into());
    }
    parts.params.push("triangle VertexData input[3]".into());
    if per_vertex_in {
        for s in &slots {
            vertex.push(s.declare(""));
            parts
                .reads
                .push(read(&format!("input[0].{}", s.name), s.ty));
        }
    } else if case.input() {
        plain_inputs(case, &mut parts);
    }
    let mut out = Vec::new();
    let writes_position = case.is(SV::Position, Direction::Output);
    if !writes_position {
        out.push("float4 position : SV_Position".into());
    }
    let mut writes = Vec::new();
    if !case.input() {
        for s in &slots {
            out.push(s.declare(""));
            writes.extend(write(&format!("output.{}", s.name), s.ty, "x"));
        }
    }
    parts.structure("VertexData", vertex);
    parts.structure("GeometryOutput", out);
    parts
        .params
        .push("inout TriangleStream<GeometryOutput> stream".into());
    parts.body.push(parts.sum());
    parts.body.push("GeometryOutput output;".into());
    if !writes_position {
        parts
            .body
            .push("output.position = float4(x, 0.0, 0.0, 1.0);".into());
    }
    parts.body.extend(writes);
    parts.body.push("stream.Append(output);".into());
    parts.render(case)
}

/// A triangle (or quad, isoline) patch of three control points with a
/// patch-constant function; per-control-point values are members of the
/// control-point structs, per-patch outputs of the patch-constant struct.
fn hull(case: &Case) -> Shader {
    let mut parts = Parts::new(S::Hull);
    let (domain, _, _) = tess_domain(case);
    let topology = if domain == "isoline" {
        "line"
    } else {
        "triangle_cw"
    };
    for attribute in [
        format!("[domain(\"{domain}\")]"),
        "[partitioning(\"integer\")]".into(),
        format!("[outputtopology(\"{topology}\")]"),
        "[outputcontrolpoints(3)]".into(),
        "[patchconstantfunc(\"patchConstants\")]".into(),
    ] {
        parts.attributes.push(attribute);
    }
    let slots = case.slots();
    let mut control_in = Vec::new();
    if !case.is(SV::Position, Direction::Input) {
        control_in.push("float4 position : SV_Position".into());
        parts.reads.push("patch[0].position.x".into());
    }
    parts
        .params
        .push("InputPatch<ControlPoint, 3> patch".into());
    if case.input() && case.access() == Some(Access::PerVertexIn) {
        for s in &slots {
            control_in.push(s.declare(""));
            parts
                .reads
                .push(read(&format!("patch[0].{}", s.name), s.ty));
        }
    } else if case.input() {
        plain_inputs(case, &mut parts);
    }
    let per_patch = !case.input() && case.row.is_some_and(|r| r.patch);
    let mut control_out = Vec::new();
    let writes_position = case.is(SV::Position, Direction::Output);
    if !writes_position {
        control_out.push("float4 position : SV_Position".into());
    }
    let mut constants = patch_constant_members(case, Direction::Output);
    let mut constant_writes = Vec::new();
    for member in constants.clone() {
        if let Some(rest) = member.strip_prefix("float edges[") {
            let n: u32 = rest[..1].parse().unwrap_or(3);
            constant_writes.extend(write(
                "output.edges",
                BuiltinType::Array(Scalar::F32, Some(n)),
                "1.0",
            ));
        } else if member.starts_with("float inside[") {
            constant_writes.extend(write(
                "output.inside",
                BuiltinType::Array(Scalar::F32, Some(2)),
                "1.0",
            ));
        } else {
            constant_writes.push("output.inside = 1.0;".into());
        }
    }
    let mut writes = Vec::new();
    if !case.input() {
        for s in &slots {
            if per_patch {
                constants.push(s.declare(""));
                constant_writes.extend(write(&format!("output.{}", s.name), s.ty, "1.0"));
            } else {
                control_out.push(s.declare(""));
                writes.extend(write(&format!("output.{}", s.name), s.ty, "x"));
            }
        }
    }
    parts.structure("ControlPoint", control_in);
    parts.structure("HullOutput", control_out);
    parts.structure("PatchConstants", constants);
    parts
        .pre
        .push("PatchConstants patchConstants(InputPatch<ControlPoint, 3> patch)".into());
    parts.pre.push("{".into());
    parts.pre.push("    PatchConstants output;".into());
    for w in constant_writes {
        parts.pre.push(format!("    {w}"));
    }
    parts.pre.push("    return output;".into());
    parts.pre.push("}".into());
    parts.pre.push(String::new());
    parts.result = "HullOutput".into();
    parts.body.push(parts.sum());
    parts.body.push("HullOutput output;".into());
    if !writes_position {
        parts
            .body
            .push("output.position = float4(x, 0.0, 0.0, 1.0);".into());
    }
    parts.body.extend(writes);
    parts.body.push("return output;".into());
    parts.render(case)
}

/// Three vertices and one triangle; per-vertex outputs are members of the
/// vertex struct, per-primitive outputs of the primitive struct.
fn mesh(case: &Case) -> Shader {
    let mut parts = Parts::new(S::Mesh);
    parts
        .attributes
        .push("[outputtopology(\"triangle\")]".into());
    parts.attributes.push("[numthreads(1, 1, 1)]".into());
    let slots = case.slots();
    if case.input() {
        plain_inputs(case, &mut parts);
    }
    let per_primitive = !case.input() && case.access() == Some(Access::MeshPerPrimitive);
    let writes_position = case.is(SV::Position, Direction::Output);
    let mut vertex = Vec::new();
    if !writes_position {
        vertex.push("float4 position : SV_Position".into());
    }
    let mut primitive = Vec::new();
    let mut writes = Vec::new();
    if !case.input() {
        for s in &slots {
            if per_primitive {
                primitive.push(s.declare(""));
                writes.extend(write(&format!("primitives[0].{}", s.name), s.ty, "x"));
            } else {
                vertex.push(s.declare(""));
                for v in 0..3 {
                    writes.extend(write(&format!("vertices[{v}].{}", s.name), s.ty, "x"));
                }
            }
        }
    }
    parts.structure("MeshVertex", vertex);
    parts
        .params
        .push("out vertices MeshVertex vertices[3]".into());
    parts.params.push("out indices uint3 triangles[1]".into());
    if !primitive.is_empty() {
        parts.structure("MeshPrimitive", primitive);
        parts
            .params
            .push("out primitives MeshPrimitive primitives[1]".into());
    }
    parts.body.push(parts.sum());
    parts.body.push("SetMeshOutputCounts(3, 1);".into());
    if !writes_position {
        for v in 0..3 {
            parts.body.push(format!(
                "vertices[{v}].position = float4(x, 0.0, 0.0, 1.0);"
            ));
        }
    }
    parts.body.extend(writes);
    parts.body.push("triangles[0] = uint3(0, 1, 2);".into());
    parts.render(case)
}

/// Compute, amplification and ray-tracing stages: no varyings of their own;
/// the value is read into a buffer (or the amplification payload).
fn flat(case: &Case) -> Shader {
    let stage = case.stage;
    let mut parts = Parts::new(stage);
    match stage {
        S::Compute => parts.attributes.push("[numthreads(8, 8, 1)]".into()),
        S::Amplification => parts.attributes.push("[numthreads(1, 1, 1)]".into()),
        _ => {}
    }
    let payload = matches!(
        stage,
        S::Amplification | S::AnyHit | S::ClosestHit | S::Miss | S::Callable
    );
    if payload {
        parts.structure("Payload", vec!["float value".into()]);
    }
    if stage == S::Amplification {
        parts.pre.push("groupshared Payload payload;".into());
    } else {
        parts.pre.push("RWStructuredBuffer<float> result;".into());
    }
    parts.pre.push(String::new());
    if payload && stage != S::Amplification {
        parts.params.push("inout Payload payload".into());
    }
    if matches!(stage, S::AnyHit | S::ClosestHit) {
        parts
            .params
            .push("in BuiltInTriangleIntersectionAttributes attributes".into());
    }
    let writes = if case.input() {
        plain_inputs(case, &mut parts);
        Vec::new()
    } else {
        out_params(case, &mut parts)
    };
    parts.body.push(parts.sum());
    parts.body.extend(writes);
    if stage == S::Amplification {
        parts.body.push("payload.value = x;".into());
        parts.body.push("DispatchMesh(1, 1, 1, payload);".into());
    } else {
        parts.body.push("result[0] = x;".into());
        if payload {
            parts.body.push("payload.value = x;".into());
        }
    }
    parts.render(case)
}

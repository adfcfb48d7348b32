//! The GLSL writer: its state, the order of the output (version,
//! extensions, layouts, structs, globals, functions) and functions;
//! names, types, declarations and statements are in `names.rs`,
//! `types.rs`, `io.rs` and `stmt.rs`.
//!
//! Matrix convention (the reference's choice, kept so outputs compare): an
//! HLSL `floatRxC` is printed as GLSL `matRxC`, i.e. R GLSL columns of C
//! components, so GLSL column `i` holds HLSL row `i`. Indexing `m[i]`,
//! constructors (HLSL row-major scalar order is GLSL column-major order) and
//! `transpose`/`determinant` then carry over unchanged; `mul(a, b)` becomes
//! `(b * a)`; HLSL's default `column_major` packing becomes GLSL
//! `row_major` blocks (`layout(row_major) uniform; layout(row_major)
//! buffer;`), and an explicit HLSL `row_major` becomes `column_major`.

use legalis_ir::FastHashMap;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use legalis_ir as ir;
use legalis_ir::{Expression, Handle, TypeInner};

use super::names::{RULES, module_namer};
use super::{Error, Options};
use crate::namer::Namer;

pub(super) use super::{Result, unsupported};

/// `gl_MaxGeometryOutputVertices`: the most GLSL guarantees (glslang's
/// default, Vulkan's least `maxGeometryOutputVertices`).
const MAX_GEOMETRY_OUTPUT_VERTICES: u32 = 256;

/// Expressions and names of the function (or initializer list) being printed.
pub(super) struct Ctx<'a> {
    /// The function, `None` for module initializers.
    pub func: Option<&'a ir::Function>,
    /// Its handle, `None` for module initializers.
    pub function: Option<Handle<ir::Function>>,
    pub exprs: &'a ir::ExpressionArena,
    pub locals: FastHashMap<Handle<ir::LocalVariable>, String>,
    pub params: Vec<String>,
}

/// Whether GLSL can pass a resource of this type as a function parameter:
/// sampled textures, samplers and read-only texel buffers can; blocks
/// (buffers, constant buffers) and images (whose format is part of the
/// declaration) cannot, so the legalizer has the functions taking those
/// read the globals passed for them
/// (`legalis_legalize`'s `common/resource_arguments.rs`).
pub(super) fn passable_resource(inner: &TypeInner) -> bool {
    matches!(
        inner,
        TypeInner::Texture(ir::Texture {
            access: ir::ResourceAccess::Read,
            ..
        }) | TypeInner::Sampler { .. }
            | TypeInner::Buffer {
                kind: ir::BufferKind::Typed,
                access: ir::ResourceAccess::Read,
                ..
            }
    )
}

/// A `static` local hoisted to module scope.
#[derive(Clone, Debug)]
pub(super) struct StaticLocal {
    pub name: String,
    /// `bool` global set once the initializer ran; `None` without one.
    pub guard: Option<String>,
}

pub(super) struct Writer<'a> {
    pub module: &'a ir::Module,
    pub entry: &'a ir::EntryPoint,
    pub version: u32,
    pub extensions: BTreeSet<String>,
    /// Helper functions by name, printed before user functions.
    pub helpers: BTreeMap<String, String>,
    /// The module's names (globals, structs, functions, helpers).
    pub names: Namer,
    pub global_names: FastHashMap<Handle<ir::GlobalVariable>, String>,
    pub function_names: FastHashMap<Handle<ir::Function>, String>,
    pub struct_names: FastHashMap<Handle<ir::Type>, String>,
    pub bindings: FastHashMap<Handle<ir::GlobalVariable>, (u32, u32)>,
    /// Binding of the `_Globals` block of plain uniforms, when there is one.
    pub globals_block_binding: Option<(u32, u32)>,
    /// Functions to print, callees first.
    pub functions: Vec<Handle<ir::Function>>,
    /// `static` locals, hoisted to private globals (as HLSL has one
    /// variable per function).
    pub static_locals: FastHashMap<(Handle<ir::Function>, Handle<ir::LocalVariable>), StaticLocal>,
    /// Module-scope temporaries `(type, name)` that hold an operand which a
    /// GLSL spelling needs twice, so it is evaluated once, in place, through
    /// the comma operator (GLSL has no recursion, so one per use site is
    /// enough).
    pub temps: Vec<(String, String)>,
    /// Counter blocks of append/consume buffers and counted structured
    /// buffers: `(instance name, set, binding)` per buffer global.
    pub counters: FastHashMap<Handle<ir::GlobalVariable>, (String, u32, u32)>,
    /// The `main` that wraps the entry point in an interlock, when needed.
    pub interlock_main: Option<String>,
    pub globals: Vec<Handle<ir::GlobalVariable>>,
    /// Structs whose names the output uses, so only those are declared.
    pub printed_structs: BTreeSet<Handle<ir::Type>>,
    /// [`Writer::type_parts`] of every type spelled so far. Spelling a
    /// type again would only repeat its side effects (`require`,
    /// `printed_structs`), which are set insertions.
    pub(super) type_spellings: FastHashMap<Handle<ir::Type>, (String, String)>,
    /// `-fvk-use-scalar-layout`: blocks say `layout(scalar)`.
    pub(super) scalar_layout: bool,
}

impl<'a> Writer<'a> {
    pub fn new(module: &'a ir::Module, entry_point: usize, options: &Options) -> Result<Self> {
        let entry = crate::error::entry_points::<Error>(module, &[entry_point])?[0];
        crate::error::parameterless::<Error>(module, entry)?;
        let mut w = Writer {
            module,
            entry,
            version: options.version,
            extensions: options.extensions.iter().cloned().collect(),
            helpers: BTreeMap::new(),
            names: module_namer(),
            global_names: FastHashMap::default(),
            function_names: FastHashMap::default(),
            struct_names: FastHashMap::default(),
            bindings: FastHashMap::default(),
            globals_block_binding: None,
            functions: Vec::new(),
            static_locals: FastHashMap::default(),
            temps: Vec::new(),
            counters: FastHashMap::default(),
            interlock_main: None,
            globals: Vec::new(),
            printed_structs: BTreeSet::new(),
            type_spellings: FastHashMap::default(),
            scalar_layout: options.scalar_layout,
        };
        w.collect_reachable();
        if options.preserve_params {
            let uniforms = module.globals.iter();
            let uniforms = uniforms.filter(|(_, g)| g.space == ir::AddressSpace::Uniform);
            let mut globals: BTreeSet<_> = w.globals.iter().copied().collect();
            globals.extend(uniforms.map(|(h, _)| h));
            w.globals = globals.into_iter().collect();
        }
        w.assign_names();
        let (bindings, globals_block) =
            super::resources::assign_bindings(module, entry_point, options.bindings.as_ref());
        w.bindings = bindings;
        w.globals_block_binding = globals_block;
        w.check_calls()?;
        w.assign_counters();
        w.collect_static_locals();
        Ok(w)
    }

    /// The global a resource expression denotes, when it names one.
    pub fn resource_global(
        &self,
        ctx: &Ctx,
        e: Handle<Expression>,
    ) -> Option<Handle<ir::GlobalVariable>> {
        match ctx.exprs[e] {
            Expression::Global(g) => Some(g),
            _ => None,
        }
    }

    /// Refuses a call that passes a buffer or image: the legalizer has
    /// every function given a global for one read the global instead, so
    /// what is left is not a global.
    fn check_calls(&self) -> Result<()> {
        for &f in &self.functions {
            let exprs = &self.module.functions[f].expressions;
            for (_, e) in exprs.iter() {
                let Expression::Call { function, args } = e else {
                    continue;
                };
                let params = &self.module.functions[*function].params;
                for (p, &a) in params.iter().zip(args) {
                    let inner = self.inner(p.ty);
                    if inner.is_resource() && !passable_resource(inner) {
                        return unsupported(
                            "passing a buffer or image that is not a global variable \
                             (GLSL cannot pass blocks or images, so a function taking \
                             one reads the global passed for it)",
                            exprs.span(a),
                        );
                    }
                }
            }
        }
        Ok(())
    }

    /// A printing context for function `f`.
    pub fn function_ctx(&self, f: Handle<ir::Function>) -> Ctx<'a> {
        let func = &self.module.functions[f];
        Ctx {
            func: Some(func),
            function: Some(f),
            exprs: &func.expressions,
            locals: FastHashMap::default(),
            params: Vec::new(),
        }
    }

    /// Functions reachable from the entry point (callees first, in arena
    /// order) and the globals they or the used initializers touch.
    fn collect_reachable(&mut self) {
        let reach = ir::Reach::of_entry_point(self.module, self.entry);
        self.functions = reach.functions().collect();
        self.globals = reach.globals().collect();
    }

    /// Whether a reachable global is a rasterizer-ordered resource.
    pub(super) fn uses_rov(&self) -> bool {
        self.globals.iter().any(|&g| {
            matches!(
                self.inner(self.module.globals[g].ty),
                TypeInner::Texture(ir::Texture {
                    access: ir::ResourceAccess::RasterizerOrdered,
                    ..
                }) | TypeInner::Buffer {
                    access: ir::ResourceAccess::RasterizerOrdered,
                    ..
                }
            )
        })
    }

    /// Rasterizer order (see `resources.rs`) and explicit
    /// `beginInvocationInterlock` calls: the entry point's body runs as
    /// `_hlsl_main` inside one fragment shader interlock in `main`, the
    /// only place GLSL allows the interlock calls (the explicit calls print
    /// as nothing; the interlock covers a superset of their section).
    fn write_interlock(&mut self, out: &mut String) -> Result<()> {
        if self.entry.stage != ir::ShaderStage::Fragment {
            return unsupported(
                "rasterizer-ordered resources outside fragment shaders \
                 (GLSL's fragment shader interlock exists only there)",
                self.entry.span,
            );
        }
        self.require("GL_ARB_fragment_shader_interlock");
        out.push_str("layout(pixel_interlock_ordered) in;\n");
        let body = self.names.call_raw("_hlsl_main");
        self.function_names
            .insert(self.entry.function, body.clone());
        self.interlock_main = Some(format!(
            "\nvoid main()\n{{\n    beginInvocationInterlockARB();\n    {body}();\n    endInvocationInterlockARB();\n}}\n"
        ));
        Ok(())
    }

    pub fn write(mut self) -> Result<String> {
        let mut body = String::new();
        self.write_stage_layout(&mut body)?;
        self.write_control_layout(&mut body)?;
        if self.uses_rov() || self.entry.attributes.pixel_interlock {
            self.write_interlock(&mut body)?;
        }
        let decls = self.write_globals()?;
        // About a dozen bytes of text an expression.
        let expressions: usize = (self.functions.iter())
            .map(|f| self.module.functions[*f].expressions.len())
            .sum();
        let mut funcs = String::with_capacity(12 * expressions);
        for f in self.functions.clone() {
            self.write_function(f, &mut funcs)?;
        }
        if let Some(main) = self.interlock_main.take() {
            funcs.push_str(&main);
        }
        let mut decls = decls;
        for (t, name) in &self.temps {
            let (t, s) = match t.find('[') {
                Some(i) => t.split_at(i),
                None => (t.as_str(), ""),
            };
            writeln!(decls, "{t} {name}{s};").ok();
        }
        let structs = self.write_structs()?;
        // The parts are known now: one allocation for the whole text.
        let parts = [&body, &structs, &decls, &funcs]
            .map(|p| p.len())
            .iter()
            .sum::<usize>();
        let helpers: usize = self.helpers.values().map(|h| h.len() + 1).sum();
        let extensions: usize = self.extensions.iter().map(|e| e.len() + 32).sum();
        let mut out = String::with_capacity(128 + parts + helpers + extensions);
        writeln!(out, "#version {}", self.version).ok();
        for ext in &self.extensions {
            writeln!(out, "#extension {ext} : require").ok();
        }
        out.push_str("layout(row_major) uniform;\nlayout(row_major) buffer;\n");
        out.push_str(&body);
        out.push_str(&structs);
        out.push_str(&decls);
        for text in self.helpers.values() {
            out.push('\n');
            out.push_str(text);
        }
        out.push_str(&funcs);
        Ok(out)
    }

    fn write_stage_layout(&mut self, out: &mut String) -> Result<()> {
        use ir::ShaderStage as S;
        let attrs = &self.entry.attributes;
        if self.entry.stage.has_workgroups() {
            let [x, y, z] = attrs.workgroup_size.unwrap_or([1, 1, 1]);
            writeln!(
                out,
                "layout(local_size_x = {x}, local_size_y = {y}, local_size_z = {z}) in;"
            )
            .ok();
        }
        match self.entry.stage {
            S::Fragment if attrs.early_depth_stencil => {
                out.push_str("layout(early_fragment_tests) in;\n");
            }
            S::Vertex | S::Fragment | S::Compute => {}
            S::Mesh => {
                self.require("GL_EXT_mesh_shader");
                let vertices = attrs.mesh_vertices.unwrap_or(0);
                let primitives = attrs.mesh_primitives.unwrap_or(0);
                writeln!(
                    out,
                    "layout(max_vertices = {vertices}, max_primitives = {primitives}) out;"
                )
                .ok();
                let topology = match attrs.output_topology {
                    Some(ir::OutputTopology::Line) => "lines",
                    Some(ir::OutputTopology::Point) => "points",
                    _ => "triangles",
                };
                writeln!(out, "layout({topology}) out;").ok();
            }
            S::Amplification => self.require("GL_EXT_mesh_shader"),
            S::RayGeneration
            | S::Intersection
            | S::AnyHit
            | S::ClosestHit
            | S::Miss
            | S::Callable => {
                self.require("GL_EXT_ray_tracing");
                self.version = self.version.max(460);
            }
            S::Hull => {
                // GLSL declares the tessellator's primitive, spacing and
                // winding only in the evaluation shader.
                let n = attrs.output_control_points.unwrap_or(1);
                writeln!(out, "layout(vertices = {n}) out;").ok();
            }
            S::Domain => {
                let primitive = match attrs.domain {
                    Some(ir::TessDomain::Quad) => "quads",
                    Some(ir::TessDomain::Isoline) => "isolines",
                    Some(ir::TessDomain::Tri) | None => "triangles",
                };
                // The spacing and winding the legalizer took from the
                // entry point or its linked hull (glslang's defaults,
                // `equal_spacing` and `ccw`, without).
                let spacing = attrs.partitioning.map(|p| match p {
                    // The legalizer refuses `pow2` (E49989).
                    ir::Partitioning::Integer | ir::Partitioning::Pow2 => "equal_spacing",
                    ir::Partitioning::FractionalEven => "fractional_even_spacing",
                    ir::Partitioning::FractionalOdd => "fractional_odd_spacing",
                });
                let order = match attrs.output_topology {
                    Some(ir::OutputTopology::TriangleCw) => Some("cw"),
                    Some(ir::OutputTopology::TriangleCcw) => Some("ccw"),
                    Some(ir::OutputTopology::Point) => Some("point_mode"),
                    _ => None,
                };
                let layout: Vec<&str> = [Some(primitive), spacing, order]
                    .into_iter()
                    .flatten()
                    .collect();
                writeln!(out, "layout({}) in;", layout.join(", ")).ok();
            }
            S::Geometry => {
                let input = match attrs.input_primitive {
                    Some(ir::InputPrimitive::Point) => "points",
                    Some(ir::InputPrimitive::Line) => "lines",
                    Some(ir::InputPrimitive::LineAdj) => "lines_adjacency",
                    Some(ir::InputPrimitive::TriangleAdj) => "triangles_adjacency",
                    Some(ir::InputPrimitive::Triangle) | None => "triangles",
                };
                writeln!(out, "layout({input}) in;").ok();
                if let Some(n) = attrs.instances {
                    writeln!(out, "layout(invocations = {n}) in;").ok();
                }
                let output = match attrs.output_stream {
                    Some(ir::StreamKind::Point) => "points",
                    Some(ir::StreamKind::Line) => "line_strip",
                    Some(ir::StreamKind::Triangle) | None => "triangle_strip",
                };
                let max = attrs.max_vertex_count.unwrap_or(1);
                // GLSL refuses `max_vertices` past the implementation's
                // `gl_MaxGeometryOutputVertices`, which is 256 on glslang
                // and the least Vulkan guarantees; SPIR-V states no limit
                // of its own (the device's `maxGeometryOutputVertices`).
                if max > MAX_GEOMETRY_OUTPUT_VERTICES {
                    return unsupported(
                        format!(
                            "`[maxvertexcount({max})]`: GLSL's `max_vertices` is at most {MAX_GEOMETRY_OUTPUT_VERTICES} (`gl_MaxGeometryOutputVertices`); SPIR-V takes up to the device's `maxGeometryOutputVertices`"
                        ),
                        self.entry.span,
                    );
                }
                writeln!(out, "layout({output}, max_vertices = {max}) out;").ok();
            }
        }
        Ok(())
    }

    // ---- types ----

    pub fn require(&mut self, ext: &str) {
        self.extensions.insert(ext.to_string());
    }

    /// The layout qualifier of a block whose standard layout is `standard`
    /// (`std140` or `std430`): `scalar` under `-fvk-use-scalar-layout`.
    pub fn block_layout(&mut self, standard: &'static str) -> &'static str {
        if self.scalar_layout {
            self.require("GL_EXT_scalar_block_layout");
            "scalar"
        } else {
            standard
        }
    }

    /// The layout rule of a storage buffer's elements.
    pub fn storage_rule(&self) -> legalis_layout::Rule {
        if self.scalar_layout {
            legalis_layout::Rule::Scalar
        } else {
            legalis_layout::Rule::Std430
        }
    }

    pub fn inner(&self, ty: Handle<ir::Type>) -> &'a TypeInner {
        &self.module.types[ty].inner
    }

    /// The type of an expression; `void` calls have none.
    pub fn expr_ty(&self, ctx: &Ctx, e: Handle<Expression>) -> Result<Handle<ir::Type>> {
        match ctx.exprs.ty(e) {
            Some(t) => Ok(t),
            None => unsupported("a `void` value used in an expression", ctx.exprs.span(e)),
        }
    }

    // ---- structs ----

    // ---- globals ----

    pub fn global_ctx(&self) -> Ctx<'a> {
        Ctx {
            func: None,
            function: None,
            exprs: &self.module.global_expressions,
            locals: FastHashMap::default(),
            params: Vec::new(),
        }
    }

    // ---- functions ----

    fn write_function(&mut self, f: Handle<ir::Function>, out: &mut String) -> Result<()> {
        let func = &self.module.functions[f];
        // The function's own names; module-level ones stay taken.
        let mut own = Namer::new(RULES);
        let mut ctx = self.function_ctx(f);
        let mut params = Vec::new();
        for p in &func.params {
            let name = own.call_beside(&self.names, &p.name);
            ctx.params.push(name.clone());
            let (t, s) = self.type_parts(p.ty, p.span)?;
            // GLSL passes a `rayQueryEXT` itself, and lets it have no direction.
            let query = matches!(self.inner(p.ty), TypeInner::RayQuery { .. });
            let dir = match p.direction {
                _ if query => "",
                ir::ParamDirection::In => "",
                ir::ParamDirection::Out => "out ",
                ir::ParamDirection::InOut => "inout ",
            };
            params.push(format!("{dir}{t} {name}{s}"));
        }
        for (h, local) in func.locals.iter() {
            let name = match self.static_locals.get(&(f, h)) {
                Some(s) => s.name.clone(),
                None => own.call_beside(&self.names, &local.name),
            };
            ctx.locals.insert(h, name);
        }
        let result = match &func.result {
            Some(r) => self.type_name(r.ty, r.span)?,
            None => "void".to_string(),
        };
        let name = self.function_names[&f].clone();
        let reconverges = if f == self.entry.function && self.entry.attributes.maximally_reconverges
        {
            self.require("GL_EXT_maximal_reconvergence");
            "\n[[maximally_reconverges]]"
        } else {
            ""
        };
        writeln!(
            out,
            "{reconverges}\n{result} {name}({})\n{{",
            params.join(", ")
        )
        .ok();
        if f == self.entry.function {
            self.write_private_inits(out)?;
        }
        self.write_block(&ctx, &func.body, 1, out)?;
        out.push_str("}\n");
        Ok(())
    }
}

//! The GLSL writer: naming, types, declarations, functions and statements.
//!
//! Matrix convention (the reference's choice, kept so outputs compare): an
//! HLSL `floatRxC` is printed as GLSL `matRxC`, i.e. R GLSL columns of C
//! components, so GLSL column `i` holds HLSL row `i`. Indexing `m[i]`,
//! constructors (HLSL row-major scalar order is GLSL column-major order) and
//! `transpose`/`determinant` then carry over unchanged; `mul(a, b)` becomes
//! `(b * a)`; HLSL's default `column_major` packing becomes GLSL
//! `row_major` blocks (`layout(row_major) uniform; layout(row_major)
//! buffer;`), and an explicit HLSL `row_major` becomes `column_major`.

use legalis_ir::{FastHashMap, FastHashSet};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use legalis_ir as ir;
use legalis_ir::{AddressSpace, Expression, Handle, ScalarKind, Span, Statement, TypeInner};

use super::keywords::is_reserved;
use super::{Error, Options};
use crate::namer::{Namer, Rules};
use crate::push_number;

pub(super) use super::{Result, unsupported};

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

/// A GLSL identifier for `name`: keywords get a trailing `_`, `gl_` names a
/// leading `_`, runs of `_` collapse (GLSL reserves `__`), other characters
/// become `_`.
pub(super) fn sanitize(name: &str) -> String {
    let mut s = String::with_capacity(name.len() + 2);
    sanitize_into(name, &mut s);
    s
}

/// GLSL's naming: [`sanitize`] keeps every base off the reserved words
/// (appending `_`), and a numbered name is never one.
pub(super) const RULES: Rules = Rules {
    sanitize,
    reserved: crate::namer::none_reserved,
};

/// The module scope's namer, with the names the writer spells itself
/// (`main`, the `_Globals` block) taken.
fn module_namer() -> Namer {
    let mut names = Namer::new(RULES);
    for name in ["main", "_globals", "_Globals"] {
        names.take(name);
    }
    names
}

/// [`sanitize`] appended to `out`.
pub(super) fn sanitize_into(name: &str, out: &mut String) {
    // Runs of characters GLSL does not allow, and of underscores (`__` is
    // reserved), become one `_`, in one pass.
    let start = out.len();
    let plain =
        name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') && !name.contains("__");
    if plain {
        // Nothing to replace or merge: most names.
        out.push_str(name);
    } else {
        for c in name.chars() {
            let c = if c.is_ascii_alphanumeric() { c } else { '_' };
            if !(c == '_' && out.len() > start && out.ends_with('_')) {
                out.push(c);
            }
        }
    }
    let s = &out[start..];
    if s.is_empty() || s.starts_with(|c: char| c.is_ascii_digit()) {
        out.insert(start, '_');
    }
    let s = &out[start..];
    if s.starts_with("gl_") || s.starts_with("_hlsl_") {
        out.insert(start, 'u');
    }
    if is_reserved(&out[start..]) {
        out.push('_');
    }
}

/// A `static` local hoisted to module scope.
#[derive(Clone, Debug)]
pub(super) struct StaticLocal {
    pub name: String,
    /// `bool` global set once the initializer ran; `None` without one.
    pub guard: Option<String>,
}

/// A helper function name from type spellings: `ivec3[2]` becomes
/// `ivec3_2`, and no `__` survives (GLSL reserves it).
pub(super) fn helper_name(raw: &str) -> String {
    let mut s = raw.replace(['[', ']'], "_");
    while s.contains("__") {
        s = s.replace("__", "_");
    }
    s.trim_end_matches('_').to_string()
}

/// Whether matrices of this scalar are printed as arrays of row vectors
/// (GLSL has `mat`, `dmat` and `f16mat` only).
pub(super) fn matrix_as_rows(scalar: ir::Scalar) -> bool {
    scalar.kind != ScalarKind::Float
}

/// Locals declared with an initializer somewhere in `block`.
fn collect_initialized(block: &ir::Block, out: &mut FastHashSet<Handle<ir::LocalVariable>>) {
    for stmt in &block.stmts {
        match stmt {
            Statement::Declare {
                local,
                init: Some(_),
            } => {
                out.insert(*local);
            }
            Statement::Block(b) => collect_initialized(b, out),
            Statement::If { accept, reject, .. } => {
                collect_initialized(accept, out);
                collect_initialized(reject, out);
            }
            Statement::For {
                init, update, body, ..
            } => {
                for b in [init, update, body] {
                    collect_initialized(b, out);
                }
            }
            Statement::While { body, .. } | Statement::DoWhile { body, .. } => {
                collect_initialized(body, out)
            }
            Statement::Switch { cases, .. } => {
                for c in cases {
                    collect_initialized(&c.body, out);
                }
            }
            _ => {}
        }
    }
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
    type_spellings: FastHashMap<Handle<ir::Type>, (String, String)>,
    /// `-fvk-use-scalar-layout`: blocks say `layout(scalar)`.
    scalar_layout: bool,
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

    /// A module-scope temporary of type `ty` (see [`Writer::temps`]).
    pub fn temp(&mut self, ty: String) -> String {
        let name = self.names.call_raw("_hlsl_tmp");
        self.temps.push((ty, name.clone()));
        name
    }

    /// `static` locals of reachable functions become private globals named
    /// after function and local; one with an initializer gets a guard so the
    /// initializer runs once, when the declaration is first reached.
    fn collect_static_locals(&mut self) {
        for &f in &self.functions {
            let func = &self.module.functions[f];
            let mut inits = FastHashSet::default();
            collect_initialized(&func.body, &mut inits);
            for (l, local) in func.locals.iter().filter(|(_, l)| l.is_static) {
                let base = format!("{}_{}", func.name, local.name);
                let name = self.names.call(&base);
                let guard = inits
                    .contains(&l)
                    .then(|| self.names.call(&format!("{base}_init")));
                self.static_locals
                    .insert((f, l), StaticLocal { name, guard });
            }
        }
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

    fn assign_names(&mut self) {
        let module = self.module;
        // Room for every global's name up front: thousands of varyings
        // would rehash the tables as they grow.
        self.names.reserve(self.globals.len() + module.types.len());
        self.global_names.reserve(self.globals.len());
        // Globals first: a cbuffer keeps its name over its own block struct.
        for &g in &self.globals {
            let var = &module.globals[g];
            let name = match &var.io {
                Some(ir::IoAttrs {
                    binding: Some(ir::Binding::BuiltIn(_) | ir::Binding::PrimitiveIndices),
                    ..
                }) => var.name.clone(),
                _ => self.names.call(&var.name),
            };
            self.global_names.insert(g, name);
        }
        for (h, ty) in module.types.iter() {
            if let (TypeInner::Struct { .. }, Some(name)) = (&ty.inner, &ty.name) {
                let n = self.names.call(name);
                self.struct_names.insert(h, n);
            }
        }
        for &f in &self.functions {
            let name = if f == self.entry.function {
                "main".to_string()
            } else {
                self.names.call(&module.functions[f].name)
            };
            self.function_names.insert(f, name);
        }
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
        match self.entry.stage {
            S::Compute => {
                let [x, y, z] = attrs.workgroup_size.unwrap_or([1, 1, 1]);
                writeln!(
                    out,
                    "layout(local_size_x = {x}, local_size_y = {y}, local_size_z = {z}) in;"
                )
                .ok();
            }
            S::Fragment if attrs.early_depth_stencil => {
                out.push_str("layout(early_fragment_tests) in;\n");
            }
            S::Vertex | S::Fragment => {}
            S::Mesh => {
                self.require("GL_EXT_mesh_shader");
                let [x, y, z] = attrs.workgroup_size.unwrap_or([1, 1, 1]);
                writeln!(
                    out,
                    "layout(local_size_x = {x}, local_size_y = {y}, local_size_z = {z}) in;"
                )
                .ok();
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
            S::Amplification => {
                self.require("GL_EXT_mesh_shader");
                let [x, y, z] = attrs.workgroup_size.unwrap_or([1, 1, 1]);
                writeln!(
                    out,
                    "layout(local_size_x = {x}, local_size_y = {y}, local_size_z = {z}) in;"
                )
                .ok();
            }
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
                writeln!(out, "layout({primitive}) in;").ok();
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
                writeln!(out, "layout({output}, max_vertices = {max}) out;").ok();
            }
        }
        Ok(())
    }

    // ---- types ----

    /// The GLSL spelling of a type, split into the name and the array suffix
    /// (`float` and `[3][2]`), so declarations can put the name between.
    pub fn type_parts(&mut self, ty: Handle<ir::Type>, span: Span) -> Result<(String, String)> {
        if let Some(spelling) = self.type_spellings.get(&ty) {
            return Ok(spelling.clone());
        }
        let spelling = self.spell_type(ty, span)?;
        self.type_spellings.insert(ty, spelling.clone());
        Ok(spelling)
    }

    fn spell_type(&mut self, ty: Handle<ir::Type>, span: Span) -> Result<(String, String)> {
        match &self.module.types[ty].inner {
            TypeInner::Array { base, size } => {
                let (name, inner) = self.type_parts(*base, span)?;
                let dim = match size {
                    ir::ArraySize::Constant(n) => format!("[{n}]"),
                    ir::ArraySize::Unsized => "[]".to_string(),
                };
                Ok((name, format!("{dim}{inner}")))
            }
            &TypeInner::Matrix {
                rows,
                columns,
                scalar,
            } if matrix_as_rows(scalar) => {
                // GLSL has only float matrices: others are arrays of rows.
                let prefix = self.vector_prefix(scalar, span)?;
                Ok((format!("{prefix}vec{columns}"), format!("[{rows}]")))
            }
            _ => Ok((self.value_type(ty, span)?, String::new())),
        }
    }

    pub fn type_name(&mut self, ty: Handle<ir::Type>, span: Span) -> Result<String> {
        let (name, suffix) = self.type_parts(ty, span)?;
        Ok(name + &suffix)
    }

    fn value_type(&mut self, ty: Handle<ir::Type>, span: Span) -> Result<String> {
        match &self.module.types[ty].inner {
            TypeInner::Scalar(s) => self.scalar_name(*s, span),
            TypeInner::Vector { size, scalar } => {
                let prefix = self.vector_prefix(*scalar, span)?;
                Ok(format!("{prefix}vec{size}"))
            }
            TypeInner::Matrix {
                rows,
                columns,
                scalar,
            } => {
                let prefix = match (scalar.kind, scalar.width) {
                    (ScalarKind::Float, 4) => "",
                    (ScalarKind::Float, 8) => "d",
                    (ScalarKind::Float, 2) => {
                        self.require("GL_EXT_shader_explicit_arithmetic_types_float16");
                        "f16"
                    }
                    _ => return unsupported(format!("`{}` matrices here", scalar.name()), span),
                };
                Ok(format!("{prefix}mat{rows}x{columns}"))
            }
            TypeInner::Struct { .. } => {
                self.printed_structs.insert(ty);
                Ok(self.struct_names[&ty].clone())
            }
            _ => super::resources::opaque_type_name(self, ty, span),
        }
    }

    pub fn scalar_name(&mut self, s: ir::Scalar, span: Span) -> Result<String> {
        let (name, ext) = match (s.kind, s.width) {
            (ScalarKind::Bool, _) => ("bool", None),
            (ScalarKind::Sint, 4) => ("int", None),
            (ScalarKind::Uint, 4) => ("uint", None),
            (ScalarKind::Float, 4) => ("float", None),
            (ScalarKind::Float, 8) => ("double", None),
            (ScalarKind::Sint, 1) => ("int8_t", Some("int8")),
            (ScalarKind::Uint, 1) => ("uint8_t", Some("int8")),
            (ScalarKind::Sint, 2) => ("int16_t", Some("int16")),
            (ScalarKind::Uint, 2) => ("uint16_t", Some("int16")),
            (ScalarKind::Sint, 8) => ("int64_t", Some("int64")),
            (ScalarKind::Uint, 8) => ("uint64_t", Some("int64")),
            (ScalarKind::Float, 2) => ("float16_t", Some("float16")),
            _ => return unsupported(format!("the scalar type `{}`", s.name()), span),
        };
        if let Some(ext) = ext {
            self.require(&format!("GL_EXT_shader_explicit_arithmetic_types_{ext}"));
        }
        Ok(name.to_string())
    }

    fn vector_prefix(&mut self, s: ir::Scalar, span: Span) -> Result<&'static str> {
        self.scalar_name(s, span)?;
        Ok(match (s.kind, s.width) {
            (ScalarKind::Bool, _) => "b",
            (ScalarKind::Sint, 4) => "i",
            (ScalarKind::Uint, 4) => "u",
            (ScalarKind::Float, 4) => "",
            (ScalarKind::Float, 8) => "d",
            (ScalarKind::Sint, 1) => "i8",
            (ScalarKind::Uint, 1) => "u8",
            (ScalarKind::Sint, 2) => "i16",
            (ScalarKind::Uint, 2) => "u16",
            (ScalarKind::Sint, 8) => "i64",
            (ScalarKind::Uint, 8) => "u64",
            _ => "f16",
        })
    }

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

    /// Declares the structs that printed code names, members before users.
    fn write_structs(&mut self) -> Result<String> {
        let mut out = String::new();
        let mut done = FastHashSet::default();
        let named: Vec<Handle<ir::Type>> = self.used_struct_types();
        for ty in named {
            self.write_struct(ty, &mut done, &mut out)?;
        }
        Ok(out)
    }

    /// Structs whose names were printed, in declaration order.
    fn used_struct_types(&self) -> Vec<Handle<ir::Type>> {
        self.printed_structs.iter().copied().collect()
    }

    fn write_struct(
        &mut self,
        ty: Handle<ir::Type>,
        done: &mut FastHashSet<Handle<ir::Type>>,
        out: &mut String,
    ) -> Result<()> {
        if !done.insert(ty) {
            return Ok(());
        }
        let TypeInner::Struct { members } = self.inner(ty) else {
            return Ok(());
        };
        for m in members {
            let mut base = m.ty;
            while let TypeInner::Array { base: b, .. } = self.inner(base) {
                base = *b;
            }
            if matches!(self.inner(base), TypeInner::Struct { .. }) {
                self.write_struct(base, done, out)?;
            }
        }
        let body = self.member_list(ty, "    ", false)?;
        writeln!(out, "struct {}\n{{\n{body}}};\n", self.struct_names[&ty]).ok();
        Ok(())
    }

    /// `T name;` lines for the members of struct `ty`, with the matrix
    /// layout flipped per the convention above. GLSL takes a matrix layout
    /// only on a block member, so `in_block` says whether these are a
    /// block's members; a struct member of a block gets the layout of the
    /// matrices inside it ([`Writer::nested_major`]), a plain struct's
    /// members none.
    pub fn member_list(
        &mut self,
        ty: Handle<ir::Type>,
        indent: &str,
        in_block: bool,
    ) -> Result<String> {
        let TypeInner::Struct { members } = self.inner(ty) else {
            return unsupported("a block over a non-struct type", self.module.types.span(ty));
        };
        let mut out = String::new();
        for (i, m) in members.iter().enumerate() {
            let (name, suffix) = self.type_parts(m.ty, m.span)?;
            let layout = match m.matrix_layout {
                _ if !in_block => "",
                Some(ir::MatrixLayout::RowMajor) => "layout(column_major) ",
                Some(ir::MatrixLayout::ColumnMajor) => "layout(row_major) ",
                None => self.nested_major(m.ty, m.span)?,
            };
            let member = self.member_name(ty, i as u32);
            for piece in [indent, layout, &name, " ", &member, &suffix, ";\n"] {
                out.push_str(piece);
            }
        }
        Ok(out)
    }

    /// The layout qualifier a block member of type `ty` needs for the
    /// matrices of the structs inside it: GLSL applies a block member's
    /// `row_major`/`column_major` to every matrix of its struct, and allows
    /// it nowhere inside the struct. HLSL `row_major` matrices (GLSL
    /// `column_major`) get `layout(column_major) `; the others follow the
    /// `layout(row_major)` default, so need nothing; a struct holding both
    /// cannot be said in GLSL.
    pub fn nested_major(&self, ty: Handle<ir::Type>, span: ir::Span) -> Result<&'static str> {
        fn walk(w: &Writer<'_>, ty: Handle<ir::Type>, found: &mut [bool; 2]) {
            match w.inner(ty) {
                TypeInner::Array { base, .. } => walk(w, *base, found),
                TypeInner::Struct { members } => {
                    for m in members {
                        let mut base = m.ty;
                        while let TypeInner::Array { base: b, .. } = w.inner(base) {
                            base = *b;
                        }
                        match w.inner(base) {
                            TypeInner::Matrix { .. } => {
                                let row = m.matrix_layout == Some(ir::MatrixLayout::RowMajor);
                                found[usize::from(row)] = true;
                            }
                            TypeInner::Struct { .. } => walk(w, base, found),
                            _ => {}
                        }
                    }
                }
                _ => {}
            }
        }
        let mut found = [false; 2];
        walk(self, ty, &mut found);
        match found {
            [true, true] => unsupported(
                "a struct in a buffer holding both row_major and column_major matrices \
                 (GLSL gives all of a struct's matrices the layout of the block member)",
                span,
            ),
            [false, true] => Ok("layout(column_major) "),
            _ => Ok(""),
        }
    }

    /// Member names are scoped to their struct, so only keywords and
    /// reserved spellings need renaming.
    pub fn member_name(&self, ty: Handle<ir::Type>, index: u32) -> String {
        match self.inner(ty) {
            TypeInner::Struct { members } => members
                .get(index as usize)
                .map(|m| sanitize(&m.name))
                .unwrap_or_else(|| format!("m{index}")),
            _ => format!("m{index}"),
        }
    }

    // ---- globals ----

    fn write_globals(&mut self) -> Result<String> {
        // About a line of 48 bytes a global (`layout(location = 12) in
        // vec4 name;`): thousands of varyings are not copied as it grows.
        let mut out = String::with_capacity(48 * self.globals.len());
        let mut uniforms = Vec::new();
        let mesh_members = self.write_mesh_blocks(&mut out)?;
        for g in self.globals.clone() {
            if mesh_members.contains(&g) {
                continue;
            }
            let var = &self.module.globals[g];
            let span = self.module.globals.span(g);
            let name = self.global_names[&g].clone();
            match var.space {
                AddressSpace::Uniform
                    if self.inner(self.descriptor_array(var.ty).0).is_resource() =>
                {
                    self.declare_resource(g, &mut out)?
                }
                AddressSpace::Uniform => uniforms.push(g),
                AddressSpace::Private => {
                    let (t, s) = self.type_parts(var.ty, span)?;
                    writeln!(out, "{t} {name}{s};").ok();
                }
                AddressSpace::Constant => {
                    let (t, s) = self.type_parts(var.ty, span)?;
                    let Some(init) = var.init else {
                        return unsupported("a `static const` without initializer", span);
                    };
                    let ctx = self.global_ctx();
                    let value = self.expr(&ctx, init)?;
                    writeln!(out, "const {t} {name}{s} = {value};").ok();
                }
                AddressSpace::Workgroup => {
                    let (t, s) = self.type_parts(var.ty, span)?;
                    writeln!(out, "shared {t} {name}{s};").ok();
                }
                AddressSpace::TaskPayload => {
                    self.require("GL_EXT_mesh_shader");
                    let (t, s) = self.type_parts(var.ty, span)?;
                    writeln!(out, "taskPayloadSharedEXT {t} {name}{s};").ok();
                }
                AddressSpace::Input | AddressSpace::Output => self.declare_stage_io(g, &mut out)?,
                AddressSpace::RayTracing(storage) => {
                    self.declare_ray_storage(g, storage, &mut out)?
                }
            }
        }
        self.declare_static_locals(&mut out)?;
        if !uniforms.is_empty() {
            let (set, binding) = self.globals_block_binding.unwrap_or((0, 0));
            let layout = self.block_layout("std140");
            writeln!(
                out,
                "layout({layout}, set = {set}, binding = {binding}) uniform _Globals\n{{"
            )
            .ok();
            for g in uniforms {
                let var = &self.module.globals[g];
                let span = self.module.globals.span(g);
                let (t, s) = self.type_parts(var.ty, span)?;
                let major = self.nested_major(var.ty, span)?;
                writeln!(out, "    {major}{t} {}{s};", self.global_names[&g]).ok();
            }
            out.push_str("} _globals;\n");
        }
        Ok(out)
    }

    /// B10: a mesh shader redeclares the output blocks `gl_MeshPerVertexEXT`
    /// and `gl_MeshPerPrimitiveEXT` with only the members it writes, each
    /// array as long as the outputs. Returns the globals that are members.
    fn write_mesh_blocks(&mut self, out: &mut String) -> Result<Vec<Handle<ir::GlobalVariable>>> {
        use legalis_sysval::{Access, Direction, GlslMapping};
        let mut members = Vec::new();
        if self.entry.stage != ir::ShaderStage::Mesh {
            return Ok(members);
        }
        let attrs = &self.entry.attributes;
        for (access, count, prefix) in [
            (Access::MeshPerVertex, attrs.mesh_vertices.unwrap_or(0), ""),
            (
                Access::MeshPerPrimitive,
                attrs.mesh_primitives.unwrap_or(0),
                "perprimitiveEXT ",
            ),
        ] {
            let (Some(block), Some(array)) = (access.block_name(), access.block_array()) else {
                continue;
            };
            // Member name -> (type, suffix, elements of an arrayed member).
            let mut decls: Vec<(String, String, String, Option<u32>)> = Vec::new();
            for g in self.globals.clone() {
                let var = &self.module.globals[g];
                let Some(ir::Binding::BuiltIn(b)) =
                    var.io.as_ref().and_then(|io| io.binding.as_ref())
                else {
                    continue;
                };
                if var.space != AddressSpace::Output {
                    continue;
                }
                let GlslMapping::BuiltIn(row) =
                    legalis_sysval::glsl(b.value, self.entry.stage, Direction::Output)
                else {
                    continue;
                };
                if row.access != access {
                    continue;
                }
                members.push(g);
                let element = match self.inner(var.ty) {
                    TypeInner::Array { base, .. } => *base,
                    _ => var.ty,
                };
                let (t, s) = self.type_parts(element, self.module.globals.span(g))?;
                let name = self.global_names[&g].clone();
                match decls.iter_mut().find(|d| d.0 == name) {
                    Some(d) => {
                        d.3 = d.3.max(b.array_index.map(|i| i + 1));
                    }
                    None => decls.push((name, t, s, b.array_index.map(|i| i + 1))),
                }
            }
            if decls.is_empty() {
                continue;
            }
            writeln!(out, "{prefix}out {block}\n{{").ok();
            for (name, t, s, elements) in decls {
                match elements {
                    Some(n) => writeln!(out, "    {t} {name}[{n}];").ok(),
                    None => writeln!(out, "    {t} {name}{s};").ok(),
                };
            }
            writeln!(out, "}} {array}[{count}];").ok();
        }
        Ok(members)
    }

    fn declare_static_locals(&mut self, out: &mut String) -> Result<()> {
        let mut statics: Vec<_> = self.static_locals.clone().into_iter().collect();
        statics.sort_by_key(|((f, l), _)| (*f, *l));
        for ((f, l), s) in statics {
            let func = &self.module.functions[f];
            let (t, suffix) = self.type_parts(func.locals[l].ty, func.span)?;
            writeln!(out, "{t} {}{suffix};", s.name).ok();
            if let Some(guard) = &s.guard {
                writeln!(out, "bool {guard} = false;").ok();
            }
        }
        Ok(())
    }

    pub fn global_ctx(&self) -> Ctx<'a> {
        Ctx {
            func: None,
            function: None,
            exprs: &self.module.global_expressions,
            locals: FastHashMap::default(),
            params: Vec::new(),
        }
    }

    /// `layout(location = N ...) [interpolation] in|out T name;` for a
    /// location varying, `pervertexEXT` for a per-vertex one (B13);
    /// builtins are used, never declared, unless their row redeclares them
    /// with a layout (`layout(depth_greater) out float gl_FragDepth;`, B14).
    fn declare_stage_io(&mut self, g: Handle<ir::GlobalVariable>, out: &mut String) -> Result<()> {
        let var = &self.module.globals[g];
        let span = self.module.globals.span(g);
        let binding = var.io.as_ref().and_then(|io| io.binding.as_ref());
        let (location, component, index, interpolation) = match binding {
            Some(ir::Binding::BuiltIn(b)) => return self.redeclare_builtin(g, b.value, out),
            Some(&ir::Binding::Location {
                location,
                per_vertex: true,
                ..
            }) => {
                self.require("GL_EXT_fragment_shader_barycentric");
                let (t, s) = self.type_parts(var.ty, span)?;
                let name = &self.global_names[&g];
                writeln!(
                    out,
                    "layout(location = {location}) pervertexEXT in {t} {name}{s};"
                )
                .ok();
                return Ok(());
            }
            // Implicitly declared, sized by `max_primitives` (B10).
            Some(ir::Binding::PrimitiveIndices) => {
                self.require("GL_EXT_mesh_shader");
                return Ok(());
            }
            Some(ir::Binding::Location {
                location,
                component,
                index,
                interpolation,
                ..
            }) => (*location, *component, *index, *interpolation),
            _ => {
                return Err(Error::NotLegalized {
                    what: format!("stage variable `{}` has no builtin or location", var.name),
                    span,
                });
            }
        };
        let mut layout = String::with_capacity(24);
        layout.push_str("location = ");
        push_number(&mut layout, location);
        if component != 0 {
            write!(layout, ", component = {component}").ok();
        }
        if let Some(i) = index {
            write!(layout, ", index = {i}").ok();
        }
        if let Some(io) = &var.io {
            if let Some(stream) = io.stream {
                write!(layout, ", stream = {stream}").ok();
            }
            if let Some(x) = io.xfb {
                write!(
                    layout,
                    ", xfb_buffer = {}, xfb_offset = {}, xfb_stride = {}",
                    x.buffer, x.offset, x.stride
                )
                .ok();
            }
        }
        let input = var.space == AddressSpace::Input;
        let patch = matches!(binding, Some(ir::Binding::Location { patch: true, .. }));
        let interpolated = !patch
            && ((input && self.entry.stage == ir::ShaderStage::Fragment)
                || (!input && self.entry.stage != ir::ShaderStage::Fragment));
        let mut quals = String::new();
        if patch {
            quals.push_str("patch ");
        }
        if matches!(
            binding,
            Some(ir::Binding::Location {
                per_primitive: true,
                ..
            })
        ) {
            self.require("GL_EXT_mesh_shader");
            quals.push_str("perprimitiveEXT ");
        }
        if interpolated {
            let integer = self
                .inner(var.ty)
                .scalar()
                .is_some_and(|s| s.kind != ScalarKind::Float || s.width == 8);
            match interpolation.mode {
                Some(ir::InterpolationMode::Flat) => quals.push_str("flat "),
                _ if integer && input => quals.push_str("flat "),
                Some(ir::InterpolationMode::NoPerspective) => quals.push_str("noperspective "),
                _ => {}
            }
            match interpolation.sampling {
                Some(ir::Sampling::Centroid) => quals.push_str("centroid "),
                Some(ir::Sampling::Sample) => quals.push_str("sample "),
                None => {}
            }
        }
        let (t, s) = self.type_parts(var.ty, span)?;
        let dir = if input { "in " } else { "out " };
        // `layout(…) quals dir type name[…];`, pieced together: one line
        // per varying, thousands in a large interface.
        for piece in [
            "layout(",
            &layout,
            ") ",
            &quals,
            dir,
            &t,
            " ",
            &self.global_names[&g],
            &s,
            ";\n",
        ] {
            out.push_str(piece);
        }
        Ok(())
    }

    /// A builtin whose system-value row carries a layout qualifier is
    /// redeclared with it; others need no declaration.
    fn redeclare_builtin(
        &mut self,
        g: Handle<ir::GlobalVariable>,
        value: ir::SystemValue,
        out: &mut String,
    ) -> Result<()> {
        let var = &self.module.globals[g];
        let input = var.space == AddressSpace::Input;
        let dir = if input {
            legalis_sysval::Direction::Input
        } else {
            legalis_sysval::Direction::Output
        };
        let legalis_sysval::GlslMapping::BuiltIn(row) =
            legalis_sysval::glsl(value, self.entry.stage, dir)
        else {
            return Ok(());
        };
        let Some(layout) = row.layout else {
            return Ok(());
        };
        let span = self.module.globals.span(g);
        let (t, s) = self.type_parts(var.ty, span)?;
        let dir = if input { "in" } else { "out" };
        let name = &self.global_names[&g];
        writeln!(out, "layout({layout}) {dir} {t} {name}{s};").ok();
        Ok(())
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

    /// GLSL global initializers must be constant, HLSL `static` ones need not
    /// be: they run at the top of `main`, in declaration order.
    fn write_private_inits(&mut self, out: &mut String) -> Result<()> {
        let ctx = self.global_ctx();
        for g in self.globals.clone() {
            let var = &self.module.globals[g];
            if let (AddressSpace::Private, Some(init)) = (var.space, var.init) {
                let value = self.expr(&ctx, init)?;
                writeln!(out, "    {} = {value};", self.global_names[&g]).ok();
            }
        }
        Ok(())
    }

    pub fn write_block(
        &mut self,
        ctx: &Ctx,
        block: &ir::Block,
        level: usize,
        out: &mut String,
    ) -> Result<()> {
        for (stmt, span) in block.iter() {
            self.write_stmt(ctx, stmt, span, level, out)?;
        }
        Ok(())
    }

    fn write_stmt(
        &mut self,
        ctx: &Ctx,
        stmt: &Statement,
        span: Span,
        level: usize,
        out: &mut String,
    ) -> Result<()> {
        const SPACES: &str = "                                                                ";
        let deep;
        let ind = match SPACES.get(..4 * level) {
            Some(ind) => ind,
            None => {
                deep = "    ".repeat(level);
                deep.as_str()
            }
        };
        match stmt {
            Statement::Declare { local, init } if self.static_local(ctx, *local).is_some() => {
                self.write_static_declare(ctx, *local, *init, ind, out)?
            }
            Statement::Store { target, value } => {
                out.push_str(ind);
                self.write_store(ctx, *target, *value, out)?;
                out.push_str(";\n");
            }
            Statement::Declare {
                local,
                init: Some(init),
            } => {
                let decl = self.local_decl(ctx, *local, span)?;
                out.push_str(ind);
                out.push_str(&decl);
                // `hitObjectNV` cannot be assigned: the call records
                // into the variable.
                if let Some(hit) = self.hit_object_local(ctx, *local) {
                    let record = self.hit_object_record(ctx, &hit, *init)?;
                    writeln!(out, ";\n{ind}{record};").ok();
                    return Ok(());
                }
                out.push_str(" = ");
                self.write_expr(ctx, *init, out)?;
                out.push_str(";\n");
            }
            Statement::Declare { .. } | Statement::Expr(_) => {
                let text = self.simple_stmt(ctx, stmt, span)?;
                writeln!(out, "{ind}{text};").ok();
            }
            Statement::Block(b) => self.write_braced(ctx, "", b, level, out)?,
            Statement::If {
                condition,
                accept,
                reject,
            } => {
                let c = self.expr(ctx, *condition)?;
                self.write_braced(ctx, &format!("if ({c})"), accept, level, out)?;
                if !reject.is_empty() {
                    self.write_braced(ctx, "else", reject, level, out)?;
                }
            }
            Statement::For { .. } => self.write_for(ctx, stmt, span, level, out)?,
            Statement::While { condition, body } => {
                let c = self.expr(ctx, *condition)?;
                self.write_braced(ctx, &format!("while ({c})"), body, level, out)?;
            }
            Statement::DoWhile { body, condition } => {
                writeln!(out, "{ind}do\n{ind}{{").ok();
                self.write_block(ctx, body, level + 1, out)?;
                let c = self.expr(ctx, *condition)?;
                writeln!(out, "{ind}}} while ({c});").ok();
            }
            Statement::Switch { selector, cases } => {
                self.write_switch(ctx, *selector, cases, level, out)?
            }
            Statement::Return(Some(e)) => {
                let v = self.expr(ctx, *e)?;
                writeln!(out, "{ind}return {v};").ok();
            }
            Statement::Break
            | Statement::Continue
            | Statement::Discard
            | Statement::Return(None) => {
                let word = match stmt {
                    Statement::Break => "break",
                    Statement::Continue => "continue",
                    Statement::Discard => "discard",
                    _ => "return",
                };
                writeln!(out, "{ind}{word};").ok();
            }
            Statement::EmitVertex { stream: 0 } => {
                writeln!(out, "{ind}EmitVertex();").ok();
            }
            Statement::EmitVertex { stream } => {
                writeln!(out, "{ind}EmitStreamVertex({stream});").ok();
            }
            Statement::EndPrimitive { stream: 0 } => {
                writeln!(out, "{ind}EndPrimitive();").ok();
            }
            Statement::EndPrimitive { stream } => {
                writeln!(out, "{ind}EndStreamPrimitive({stream});").ok();
            }
            Statement::PatchBarrier => {
                writeln!(out, "{ind}barrier();").ok();
            }
            Statement::Printf { format, args } => {
                self.require("GL_EXT_debug_printf");
                let mut call = crate::c_string_literal(format);
                for arg in args {
                    call.push_str(", ");
                    call.push_str(&self.expr(ctx, *arg)?);
                }
                writeln!(out, "{ind}debugPrintfEXT({call});").ok();
            }
        }
        Ok(())
    }

    /// `head` (if any) then `block` in braces at `level`.
    fn write_braced(
        &mut self,
        ctx: &Ctx,
        head: &str,
        block: &ir::Block,
        level: usize,
        out: &mut String,
    ) -> Result<()> {
        let ind = "    ".repeat(level);
        if !head.is_empty() {
            writeln!(out, "{ind}{head}").ok();
        }
        writeln!(out, "{ind}{{").ok();
        self.write_block(ctx, block, level + 1, out)?;
        writeln!(out, "{ind}}}").ok();
        Ok(())
    }

    fn static_local(&self, ctx: &Ctx, local: Handle<ir::LocalVariable>) -> Option<&StaticLocal> {
        self.static_locals.get(&(ctx.function?, local))
    }

    /// The declaration of a hoisted `static` local: its initializer runs the
    /// first time control reaches it, as in HLSL.
    fn write_static_declare(
        &mut self,
        ctx: &Ctx,
        local: Handle<ir::LocalVariable>,
        init: Option<Handle<Expression>>,
        ind: &str,
        out: &mut String,
    ) -> Result<()> {
        let Some(s) = self.static_local(ctx, local).cloned() else {
            return Ok(());
        };
        if let (Some(init), Some(guard)) = (init, &s.guard) {
            let value = self.expr(ctx, init)?;
            writeln!(
                out,
                "{ind}if (!{guard})\n{ind}{{\n{ind}    {guard} = true;\n{ind}    {} = {value};\n{ind}}}",
                s.name
            )
            .ok();
        }
        Ok(())
    }

    /// Declarations, stores and expression statements without the `;`,
    /// so `for` headers can reuse them.
    fn simple_stmt(&mut self, ctx: &Ctx, stmt: &Statement, span: Span) -> Result<String> {
        match stmt {
            Statement::Declare { local, init } => {
                let func_local = self.local_decl(ctx, *local, span)?;
                match init {
                    Some(e) => Ok(format!("{func_local} = {}", self.expr(ctx, *e)?)),
                    None => Ok(func_local),
                }
            }
            Statement::Store { target, value } => self.store(ctx, *target, *value),
            Statement::Expr(e) => self.expr_stmt(ctx, *e),
            _ => unsupported("this statement in a `for` header", span),
        }
    }

    fn local_decl(
        &mut self,
        ctx: &Ctx,
        local: Handle<ir::LocalVariable>,
        span: Span,
    ) -> Result<String> {
        let Some(var) = ctx.func.and_then(|f| f.locals.try_get(local)) else {
            return unsupported("a local outside its function", span);
        };
        let (t, s) = self.type_parts(var.ty, span)?;
        Ok(format!("{t} {}{s}", ctx.locals[&local]))
    }

    fn write_for(
        &mut self,
        ctx: &Ctx,
        stmt: &Statement,
        span: Span,
        level: usize,
        out: &mut String,
    ) -> Result<()> {
        let Statement::For {
            init,
            condition,
            update,
            body,
        } = stmt
        else {
            return Ok(());
        };
        let ind = "    ".repeat(level);
        let simple = |s: &Statement| match s {
            Statement::Declare { local, .. } => self.static_local(ctx, *local).is_none(),
            Statement::Store { .. } | Statement::Expr(_) => true,
            _ => false,
        };
        let (header_init, inner_level) = if init.stmts.len() <= 1 && init.stmts.iter().all(simple) {
            let text = match init.iter().next() {
                Some((s, sp)) => self.simple_stmt(ctx, s, sp)?,
                None => String::new(),
            };
            (text, level)
        } else {
            // Several init statements: scope them in a block around the loop.
            writeln!(out, "{ind}{{").ok();
            self.write_block(ctx, init, level + 1, out)?;
            (String::new(), level + 1)
        };
        let mut updates = Vec::new();
        for (s, sp) in update.iter() {
            match s {
                Statement::Store { .. } | Statement::Expr(_) => {
                    updates.push(self.simple_stmt(ctx, s, sp)?)
                }
                _ => return unsupported("this statement in a `for` update", sp),
            }
        }
        let c = match condition {
            Some(c) => self.expr(ctx, *c)?,
            None => String::new(),
        };
        let ind2 = "    ".repeat(inner_level);
        writeln!(
            out,
            "{ind2}for ({header_init}; {c}; {})\n{ind2}{{",
            updates.join(", ")
        )
        .ok();
        self.write_block(ctx, body, inner_level + 1, out)?;
        writeln!(out, "{ind2}}}").ok();
        if inner_level != level {
            writeln!(out, "{ind}}}").ok();
        }
        let _ = span;
        Ok(())
    }

    fn write_switch(
        &mut self,
        ctx: &Ctx,
        selector: Handle<Expression>,
        cases: &[ir::SwitchCase],
        level: usize,
        out: &mut String,
    ) -> Result<()> {
        let ind = "    ".repeat(level);
        let sel_ty = self.expr_ty(ctx, selector)?;
        let mut sel = self.expr(ctx, selector)?;
        // Case labels must have the selector's type; other widths go via int.
        let suffix = match self.inner(sel_ty).scalar() {
            Some(ir::Scalar {
                kind: ScalarKind::Uint,
                width: 4,
            }) => "u",
            Some(ir::Scalar {
                kind: ScalarKind::Sint,
                width: 4,
            }) => "",
            _ => {
                sel = format!("int({sel})");
                ""
            }
        };
        writeln!(out, "{ind}switch ({sel})\n{ind}{{").ok();
        for (i, case) in cases.iter().enumerate() {
            for v in &case.values {
                match v {
                    ir::SwitchValue::Int(n) => writeln!(out, "{ind}case {n}{suffix}:").ok(),
                    ir::SwitchValue::Default => writeln!(out, "{ind}default:").ok(),
                };
            }
            writeln!(out, "{ind}{{").ok();
            self.write_block(ctx, &case.body, level + 1, out)?;
            writeln!(out, "{ind}}}").ok();
            let ends = matches!(
                case.body.stmts.last(),
                Some(
                    Statement::Break
                        | Statement::Return(_)
                        | Statement::Continue
                        | Statement::Discard
                )
            );
            if (!case.fall_through && !ends) || i + 1 == cases.len() {
                writeln!(out, "{ind}    break;").ok();
            }
        }
        writeln!(out, "{ind}}}").ok();
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::{sanitize, sanitize_into};

    #[test]
    fn push_number_prints_what_display_prints() {
        for n in [0, 7, 10, 99, 4096, 123_456, u32::MAX] {
            let mut out = String::from("x");
            super::push_number(&mut out, n);
            assert_eq!(out, format!("x{n}"));
        }
    }

    #[test]
    fn sanitize_into_appends_what_sanitize_returns() {
        for name in [
            "",
            "9lives",
            "gl_Position",
            "a__b",
            "_hlsl_x",
            "sample",
            "x.y-z",
            "__",
        ] {
            let mut out = String::from("prefix_");
            sanitize_into(name, &mut out);
            assert_eq!(out, format!("prefix_{}", sanitize(name)), "{name:?}");
        }
        assert_eq!(sanitize("9lives"), "_9lives");
        assert_eq!(sanitize("gl_Position"), "ugl_Position");
        assert_eq!(sanitize("a__b"), "a_b");
    }
}

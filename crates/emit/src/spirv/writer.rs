//! The writer's state and its driver: which functions and globals the entry
//! point reaches, the module header (capabilities, extensions, version,
//! entry point, execution modes) and the low-level instruction helpers the
//! other files share.

use legalis_ir::{FastHashMap, FastHashSet};
use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet};

use legalis_ir as ir;
use legalis_ir::{Expression, Handle, Span};
use rspirv::dr::Operand;
use spirv::{Capability, Op, StorageClass, Word};

use super::builder::Builder;
use super::{Error, Options};
use crate::binding::Bindings;

pub(super) use super::{Result, unsupported};

/// An instruction (`op`) longer than SPIR-V's 16-bit word count can say.
fn too_long<T>(op: u32, span: Span) -> Result<T> {
    unsupported(
        format!(
            "a SPIR-V instruction (opcode {op}) of more than 65535 words: \
             too many interface variables, members or operands for one instruction"
        ),
        span,
    )
}

/// How a type is laid out in memory: `Plain` for values and private
/// memory, std140 for uniform blocks, std430 for storage buffers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(super) enum Layout {
    Plain,
    Std140,
    Std430,
}

/// A place in memory, with the access-chain indices not yet emitted, so a
/// chain of members and indices becomes one `OpAccessChain`.
#[derive(Clone, Debug)]
pub(super) struct Ptr {
    pub root: Word,
    pub indices: Vec<Word>,
    /// Indices that go after every other one: the element of a per-vertex
    /// arrayed builtin (`gl_in[i].gl_ClipDistance[k]` is `[i][k]`, and the
    /// IR indexes the vertex last).
    pub trailing: Vec<Word>,
    /// The IR type of what the place holds (a `cbuffer`'s place holds its
    /// block struct, a structured buffer's place the buffer type).
    pub ty: Handle<ir::Type>,
    pub layout: Layout,
    pub class: StorageClass,
}

/// Breakable constructs, innermost last: where `break` and `continue` go.
#[derive(Clone, Copy, Debug)]
pub(super) enum Breakable {
    Loop { merge: Word, continue_target: Word },
    Switch { merge: Word },
}

/// State of the function being written.
pub(super) struct FnState<'a> {
    pub exprs: &'a ir::ExpressionArena,
    pub func: Option<&'a ir::Function>,
    pub locals: FastHashMap<Handle<ir::LocalVariable>, Word>,
    /// Parameter places: `in` parameters are copied into variables.
    pub params: Vec<Ptr>,
    pub breaks: Vec<Breakable>,
}

/// Builtin inputs the writer declares itself, by name, and the ones looked
/// up or added since the last [`ExtraBuiltins::take_touched`]: the
/// function being written uses those, so every entry point reaching it
/// lists them in its interface.
#[derive(Default)]
pub(super) struct ExtraBuiltins {
    map: BTreeMap<&'static str, Word>,
    touched: RefCell<Vec<Word>>,
}

impl ExtraBuiltins {
    pub fn get(&self, name: &str) -> Option<&Word> {
        let found = self.map.get(name);
        if let Some(&id) = found {
            self.touched.borrow_mut().push(id);
        }
        found
    }

    pub fn insert(&mut self, name: &'static str, id: Word) {
        self.touched.get_mut().push(id);
        self.map.insert(name, id);
    }

    fn take_touched(&mut self) -> Vec<Word> {
        std::mem::take(self.touched.get_mut())
    }
}

pub(super) struct Writer<'a> {
    pub module: &'a ir::Module,
    /// The entry points the module gets, in order: one `OpEntryPoint` each.
    pub entries: Vec<&'a ir::EntryPoint>,
    /// The entry point whose stage decides what is written now: the first
    /// of [`Writer::entries`] that reaches the global or function being
    /// written.
    pub entry: &'a ir::EntryPoint,
    pub options: &'a Options,
    pub b: Builder,
    pub capabilities: BTreeMap<u32, Capability>,
    pub extensions: BTreeSet<&'static str>,
    pub version: (u8, u8),
    pub type_ids: FastHashMap<(Handle<ir::Type>, Layout), Word>,
    pub numeric_ids: FastHashMap<(ir::Scalar, u8, u8, Layout), Word>,
    pub pointer_ids: FastHashMap<(Word, StorageClass), Word>,
    /// The `PhysicalStorageBuffer` pointer types of `T*` values: a
    /// variable or parameter of one is `AliasedPointer`/`Aliased`.
    pub device_pointers: FastHashSet<Word>,
    pub block_ids: FastHashMap<(Handle<ir::Type>, StorageClass), Word>,
    pub const_ids: FastHashMap<(Op, Word, Vec<u32>), Word>,
    /// One-word `OpConstant`s by (type, word): a cache in front of
    /// `const_ids`.
    pub word_consts: FastHashMap<(Word, u32), Word>,
    pub fn_type_ids: FastHashMap<Vec<Word>, Word>,
    pub void_id: Option<Word>,
    pub glsl_ext: Option<Word>,
    /// The `NonSemantic.DebugPrintf` import, made by the first `printf`.
    pub debug_printf_ext: Option<Word>,
    pub globals: FastHashMap<Handle<ir::GlobalVariable>, Ptr>,
    /// Builtins the writer adds itself (subgroup size ...), by name.
    pub extra_builtins: ExtraBuiltins,
    /// The extra builtins each written function uses.
    pub function_builtins: FastHashMap<Handle<ir::Function>, Vec<Word>>,
    /// What each of [`Writer::entries`] reaches.
    pub reach: Vec<ir::Reach>,
    /// Whether declaring a global made its stage write depth, and the
    /// execution modes its system-value row asks for.
    pub global_modes: FastHashMap<Handle<ir::GlobalVariable>, (bool, Vec<spirv::ExecutionMode>)>,
    /// Every global variable the entry point uses, with its storage class.
    /// In the order declared; a repeated id takes its last class. (A
    /// map cost a tree insertion per varying.)
    pub used_vars: Vec<(Word, StorageClass)>,
    /// The `HitObjectAttributeNV` variables `GetAttributes<T>` reads, one
    /// per attribute type.
    pub hit_attributes: Vec<(Handle<ir::Type>, Word)>,
    pub functions: Vec<Handle<ir::Function>>,
    pub reachable_globals: Vec<Handle<ir::GlobalVariable>>,
    pub function_ids: FastHashMap<Handle<ir::Function>, Word>,
    pub bindings: Bindings,
    pub writes_depth: bool,
    /// Execution modes the system-value rows ask for beyond
    /// `DepthReplacing` (`DepthGreater`, `StencilRefReplacingEXT`).
    pub row_modes: Vec<spirv::ExecutionMode>,
    /// The one variable of an arrayed builtin (`SampleMask`,
    /// `ClipDistance`), by system value and whether it is an input; each
    /// element global is a place in it.
    pub arrayed_builtins: FastHashMap<(ir::SystemValue, bool), Word>,
    /// Ids decorated `NonUniform`: `NonUniformResourceIndex` results and
    /// what is reached through them (`intrinsics.rs`, `nonuniform_op`).
    pub nonuniform: FastHashSet<Word>,
    pub fs: FnState<'a>,
}

impl<'a> Writer<'a> {
    pub fn new(
        module: &'a ir::Module,
        entry_points: &[usize],
        options: &'a Options,
    ) -> Result<Self> {
        let entries = crate::error::entry_points::<Error>(module, entry_points)?;
        for entry in &entries {
            crate::error::parameterless::<Error>(module, entry)?;
        }
        let (entry, first) = (entries[0], entry_points[0]);
        let mut w = Writer {
            module,
            entries,
            entry,
            options,
            b: Builder::new(),
            capabilities: BTreeMap::new(),
            extensions: BTreeSet::new(),
            version: options.min_version,
            type_ids: FastHashMap::default(),
            numeric_ids: FastHashMap::default(),
            pointer_ids: FastHashMap::default(),
            device_pointers: FastHashSet::default(),
            block_ids: FastHashMap::default(),
            const_ids: FastHashMap::default(),
            word_consts: FastHashMap::default(),
            fn_type_ids: FastHashMap::default(),
            void_id: None,
            glsl_ext: None,
            debug_printf_ext: None,
            globals: FastHashMap::default(),
            extra_builtins: ExtraBuiltins::default(),
            function_builtins: FastHashMap::default(),
            reach: Vec::new(),
            global_modes: FastHashMap::default(),
            used_vars: Vec::new(),
            hit_attributes: Vec::new(),
            functions: Vec::new(),
            reachable_globals: Vec::new(),
            function_ids: FastHashMap::default(),
            bindings: crate::binding::of(
                module,
                first,
                legalis_bind::Target::Vulkan,
                options.bindings.as_ref(),
            ),
            writes_depth: false,
            row_modes: Vec::new(),
            arrayed_builtins: FastHashMap::default(),
            nonuniform: FastHashSet::default(),
            fs: FnState {
                exprs: &module.global_expressions,
                func: None,
                locals: FastHashMap::default(),
                params: Vec::new(),
                breaks: Vec::new(),
            },
        };
        w.capability(Capability::Shader);
        w.collect_reachable();
        Ok(w)
    }

    /// Functions reachable from each entry point and the globals they and
    /// the initializers of used globals touch; the union, in handle order,
    /// is what the module declares.
    fn collect_reachable(&mut self) {
        let mut functions = BTreeSet::new();
        let mut globals = BTreeSet::new();
        for entry in self.entries.clone() {
            let reach = ir::Reach::of_entry_point(self.module, entry);
            functions.extend(reach.functions());
            globals.extend(reach.globals());
            self.reach.push(reach);
        }
        if self.options.preserve_params {
            let uniforms = self.module.globals.iter();
            let uniforms = uniforms.filter(|(_, g)| g.space == ir::AddressSpace::Uniform);
            globals.extend(uniforms.map(|(h, _)| h));
        }
        self.functions = functions.into_iter().collect();
        self.reachable_globals = globals.into_iter().collect();
    }

    /// The first entry point that reaches function `f` (or, with `None`,
    /// global `g`).
    fn owner(
        &self,
        f: Option<Handle<ir::Function>>,
        g: Option<Handle<ir::GlobalVariable>>,
    ) -> &'a ir::EntryPoint {
        let k = self
            .reach
            .iter()
            .position(|r| {
                f.is_some_and(|f| r.has_function(f)) || g.is_some_and(|g| r.has_global(g))
            })
            .unwrap_or(0);
        self.entries[k]
    }

    /// The module's words.
    pub fn write(self) -> Result<Vec<u32>> {
        let (b, span) = self.write_instructions()?;
        b.module().or_else(|op| too_long(op, span))
    }

    /// The module's little-endian bytes (no word vector of the whole
    /// module is made first).
    pub fn write_le_bytes(self) -> Result<Vec<u8>> {
        let (b, span) = self.write_instructions()?;
        b.module_bytes().or_else(|op| too_long(op, span))
    }

    /// Every instruction, in the builder; with the entry point's span.
    fn write_instructions(mut self) -> Result<(Builder, Span)> {
        // A variable, its name and a decoration or two per global: room
        // for them up front, so thousands of varyings are not copied as
        // the sections grow.
        self.b.reserve_globals(self.reachable_globals.len());
        self.globals.reserve(self.reachable_globals.len());
        self.b
            .memory_model(spirv::AddressingModel::Logical, spirv::MemoryModel::GLSL450);
        if self.options.buffer_layout != ir::BufferLayout::Standard {
            self.b.source_extension("GL_EXT_scalar_block_layout");
        }
        for g in self.reachable_globals.clone() {
            self.entry = self.owner(None, Some(g));
            // A type that cannot be laid out (a buffer of 4 GiB) has no
            // place in the source of its own: the global is where it is.
            self.declare_global(g).map_err(|e| match e {
                Error::Unsupported { what, span } if span == Span::UNDEFINED => {
                    Error::Unsupported {
                        what,
                        span: self.module.globals.span(g),
                    }
                }
                e => e,
            })?;
            let modes = std::mem::take(&mut self.row_modes);
            let depth = std::mem::replace(&mut self.writes_depth, false);
            if depth || !modes.is_empty() {
                self.global_modes.insert(g, (depth, modes));
            }
        }
        for &f in &self.functions {
            let id = self.b.id();
            self.function_ids.insert(f, id);
        }
        self.extra_builtins.take_touched();
        // About three words of body an expression (measured on the scaling
        // shaders): room for the function bodies up front.
        let expressions: usize = (self.functions.iter())
            .map(|&f| self.module.functions[f].expressions.len())
            .sum();
        self.b.reserve_functions(4 * expressions);
        for f in self.functions.clone() {
            self.entry = self.owner(Some(f), None);
            self.write_function(f)?;
            let touched = self.extra_builtins.take_touched();
            if !touched.is_empty() {
                self.function_builtins.insert(f, touched);
            }
        }
        for k in 0..self.entries.len() {
            self.entry = self.entries[k];
            let main_id = self.function_ids[&self.entry.function];
            if self.options.debug_names {
                self.b.name(main_id, self.entry.name.clone());
            }
            self.write_entry_point(k, main_id)?;
        }
        self.write_header();
        Ok((self.b, self.entries[0].span))
    }

    /// Whether `f` is the function of one of the module's entry points.
    pub fn is_entry_function(&self, f: Handle<ir::Function>) -> bool {
        self.entries.iter().any(|e| e.function == f)
    }

    /// The globals entry point `k` reaches, in handle order.
    pub fn entry_globals(&self, k: usize) -> Vec<Handle<ir::GlobalVariable>> {
        self.reach[k].globals().collect()
    }

    /// The variables entry point `k` uses, by id, each with its storage
    /// class: the roots of the places of its globals and the extra
    /// builtins its functions read.
    fn entry_variables(&self, k: usize) -> Vec<(Word, StorageClass)> {
        let reach = &self.reach[k];
        let mut ids: BTreeSet<Word> = reach
            .globals()
            .filter_map(|g| self.globals.get(&g).map(|p| p.root))
            .collect();
        for f in reach.functions() {
            if let Some(touched) = self.function_builtins.get(&f) {
                ids.extend(touched.iter().copied());
            }
        }
        // By id, the last class of a repeated one kept (as a map would).
        let mut used = self.used_vars.clone();
        used.reverse();
        used.sort_by_key(|&(id, _)| id);
        used.dedup_by_key(|&mut (id, _)| id);
        used.retain(|(id, _)| ids.contains(id));
        used
    }

    fn write_entry_point(&mut self, k: usize, main_id: Word) -> Result<()> {
        use ir::ShaderStage as S;
        use spirv::{ExecutionMode as M, ExecutionModel};
        let model = match self.entry.stage {
            S::Vertex => ExecutionModel::Vertex,
            S::Fragment => ExecutionModel::Fragment,
            S::Compute => ExecutionModel::GLCompute,
            S::Geometry => {
                self.capability(spirv::Capability::Geometry);
                ExecutionModel::Geometry
            }
            S::Hull => {
                self.capability(spirv::Capability::Tessellation);
                ExecutionModel::TessellationControl
            }
            S::Mesh | S::Amplification => {
                self.require_version(1, 4);
                self.capability(spirv::Capability::MeshShadingEXT);
                self.extensions.insert("SPV_EXT_mesh_shader");
                if self.entry.stage == S::Mesh {
                    ExecutionModel::MeshEXT
                } else {
                    ExecutionModel::TaskEXT
                }
            }
            S::Domain => {
                self.capability(spirv::Capability::Tessellation);
                ExecutionModel::TessellationEvaluation
            }
            S::RayGeneration => self.ray_tracing(ExecutionModel::RayGenerationKHR),
            S::Intersection => self.ray_tracing(ExecutionModel::IntersectionKHR),
            S::AnyHit => self.ray_tracing(ExecutionModel::AnyHitKHR),
            S::ClosestHit => self.ray_tracing(ExecutionModel::ClosestHitKHR),
            S::Miss => self.ray_tracing(ExecutionModel::MissKHR),
            S::Callable => self.ray_tracing(ExecutionModel::CallableKHR),
        };
        // SPIR-V 1.4 made the interface list every global the entry point
        // uses; before, only its inputs and outputs.
        let all = self.version >= (1, 4);
        let used = self.entry_variables(k);
        let interface: Vec<Word> = used
            .iter()
            .filter(|(_, class)| all || matches!(class, StorageClass::Input | StorageClass::Output))
            .map(|&(id, _)| id)
            .collect();
        // Two entry points of one module may not share a name: with
        // several, each keeps its own.
        let name = if self.options.use_entry_point_name || self.entries.len() > 1 {
            self.entry.name.clone()
        } else {
            "main".to_string()
        };
        self.b.entry_point(model, main_id, name, interface);
        let mut writes_depth = false;
        let mut row_modes = Vec::new();
        for g in self.reach[k].globals() {
            if let Some((depth, modes)) = self.global_modes.get(&g) {
                writes_depth |= depth;
                for mode in modes {
                    if !row_modes.contains(mode) {
                        row_modes.push(*mode);
                    }
                }
            }
        }
        self.control_modes(main_id);
        let attrs = &self.entry.attributes;
        match self.entry.stage {
            S::Fragment => {
                self.b.execution_mode(main_id, M::OriginUpperLeft, []);
                if attrs.early_depth_stencil {
                    self.b.execution_mode(main_id, M::EarlyFragmentTests, []);
                }
                if writes_depth {
                    self.b.execution_mode(main_id, M::DepthReplacing, []);
                }
            }
            S::Compute | S::Amplification => {
                let [x, y, z] = attrs.workgroup_size.unwrap_or([1, 1, 1]);
                self.b.execution_mode(main_id, M::LocalSize, [x, y, z]);
            }
            S::Mesh => {
                let [x, y, z] = attrs.workgroup_size.unwrap_or([1, 1, 1]);
                self.b.execution_mode(main_id, M::LocalSize, [x, y, z]);
                let vertices = attrs.mesh_vertices.unwrap_or(0);
                let primitives = attrs.mesh_primitives.unwrap_or(0);
                self.b
                    .execution_mode(main_id, M::OutputVertices, [vertices]);
                self.b
                    .execution_mode(main_id, M::OutputPrimitivesEXT, [primitives]);
                let topology = match attrs.output_topology {
                    Some(ir::OutputTopology::Line) => M::OutputLinesEXT,
                    Some(ir::OutputTopology::Point) => M::OutputPoints,
                    _ => M::OutputTrianglesEXT,
                };
                self.b.execution_mode(main_id, topology, []);
            }
            S::Domain => {
                let primitive = match attrs.domain {
                    Some(ir::TessDomain::Quad) => M::Quads,
                    Some(ir::TessDomain::Isoline) => M::Isolines,
                    Some(ir::TessDomain::Tri) | None => M::Triangles,
                };
                self.b.execution_mode(main_id, primitive, []);
                // What the entry point or its linked hull states; Vulkan
                // lets either stage carry it when both agree.
                self.tessellator_modes(main_id, attrs, None);
            }
            S::Hull => {
                // The tessellator's modes may sit in either stage in
                // SPIR-V; HLSL writes them on the hull, as the reference
                // does.
                let n = attrs.output_control_points.unwrap_or(1);
                self.tessellator_modes(main_id, attrs, Some(n));
                let primitive = match attrs.domain {
                    Some(ir::TessDomain::Quad) => M::Quads,
                    Some(ir::TessDomain::Isoline) => M::Isolines,
                    Some(ir::TessDomain::Tri) | None => M::Triangles,
                };
                self.b.execution_mode(main_id, primitive, []);
            }
            S::Geometry => {
                let input = match attrs.input_primitive {
                    Some(ir::InputPrimitive::Point) => M::InputPoints,
                    Some(ir::InputPrimitive::Line) => M::InputLines,
                    Some(ir::InputPrimitive::LineAdj) => M::InputLinesAdjacency,
                    Some(ir::InputPrimitive::TriangleAdj) => M::InputTrianglesAdjacency,
                    Some(ir::InputPrimitive::Triangle) | None => M::Triangles,
                };
                let output = match attrs.output_stream {
                    Some(ir::StreamKind::Point) => M::OutputPoints,
                    Some(ir::StreamKind::Line) => M::OutputLineStrip,
                    Some(ir::StreamKind::Triangle) | None => M::OutputTriangleStrip,
                };
                let invocations = attrs.instances.unwrap_or(1);
                let max = attrs.max_vertex_count.unwrap_or(1);
                self.b
                    .execution_mode(main_id, M::Invocations, [invocations]);
                self.b.execution_mode(main_id, input, []);
                self.b.execution_mode(main_id, output, []);
                self.b.execution_mode(main_id, M::OutputVertices, [max]);
                if self
                    .capabilities
                    .contains_key(&(spirv::Capability::TransformFeedback as u32))
                {
                    self.b.execution_mode(main_id, M::Xfb, []);
                }
            }
            _ => {}
        }
        for mode in row_modes {
            self.b.execution_mode(main_id, mode, []);
        }
        Ok(())
    }

    /// Capabilities, extensions and the version go in last: only now is it
    /// known what the module uses.
    /// The tessellator's spacing and vertex order (or point mode) of
    /// `attrs`, with a hull's `OutputVertices` between them.
    fn tessellator_modes(
        &mut self,
        main_id: Word,
        attrs: &ir::EntryPointAttributes,
        output_vertices: Option<u32>,
    ) {
        use spirv::ExecutionMode as M;
        if let Some(spacing) = attrs.partitioning.map(|p| match p {
            // The legalizer refuses `pow2` (E49989).
            ir::Partitioning::Integer | ir::Partitioning::Pow2 => M::SpacingEqual,
            ir::Partitioning::FractionalEven => M::SpacingFractionalEven,
            ir::Partitioning::FractionalOdd => M::SpacingFractionalOdd,
        }) {
            self.b.execution_mode(main_id, spacing, []);
        }
        if let Some(n) = output_vertices {
            self.b.execution_mode(main_id, M::OutputVertices, [n]);
        }
        let order = match attrs.output_topology {
            Some(ir::OutputTopology::TriangleCw) => Some(M::VertexOrderCw),
            Some(ir::OutputTopology::TriangleCcw) => Some(M::VertexOrderCcw),
            Some(ir::OutputTopology::Point) => Some(M::PointMode),
            _ => None,
        };
        if let Some(order) = order {
            self.b.execution_mode(main_id, order, []);
        }
    }

    fn write_header(&mut self) {
        let (major, minor) = self.version;
        self.b.set_version(major, minor);
        for cap in self.capabilities.values() {
            self.b.capability(*cap);
        }
        if self
            .capabilities
            .contains_key(&(Capability::PhysicalStorageBufferAddresses as u32))
        {
            self.b.memory_model(
                spirv::AddressingModel::PhysicalStorageBuffer64,
                spirv::MemoryModel::GLSL450,
            );
        }
        let core = |ext: &str| match ext {
            "SPV_KHR_storage_buffer_storage_class"
            | "SPV_KHR_shader_draw_parameters"
            | "SPV_KHR_16bit_storage"
            | "SPV_KHR_multiview"
            | "SPV_KHR_device_group" => (1, 3),
            "SPV_KHR_8bit_storage"
            | "SPV_KHR_physical_storage_buffer"
            | "SPV_EXT_descriptor_indexing" => (1, 5),
            _ => (9, 9),
        };
        for ext in self.extensions.clone() {
            if self.version < core(ext) {
                self.b.extension(ext);
            }
        }
    }

    pub fn capability(&mut self, cap: Capability) {
        self.capabilities.insert(cap as u32, cap);
    }

    pub fn require_version(&mut self, major: u8, minor: u8) {
        self.version = self.version.max((major, minor));
    }

    pub fn glsl_std(&mut self) -> Word {
        if let Some(id) = self.glsl_ext {
            return id;
        }
        let id = self.b.ext_inst_import("GLSL.std.450");
        self.glsl_ext = Some(id);
        id
    }

    /// Debug printf: `OpExtInst %void %set 1 %format args...` of the
    /// `NonSemantic.DebugPrintf` set (imported, with
    /// `SPV_KHR_non_semantic_info`, on first use), the format an
    /// `OpString`.
    pub fn debug_printf(&mut self, format: &str, args: &[Word]) -> Result<()> {
        let set = match self.debug_printf_ext {
            Some(id) => id,
            None => {
                self.extensions.insert("SPV_KHR_non_semantic_info");
                let id = self.b.ext_inst_import("NonSemantic.DebugPrintf");
                self.debug_printf_ext = Some(id);
                id
            }
        };
        let format = self.b.string(format);
        let mut operands = vec![
            Operand::IdRef(set),
            Operand::LiteralExtInstInteger(1),
            Operand::IdRef(format),
        ];
        operands.extend(args.iter().map(|&a| Operand::IdRef(a)));
        let void = self.void();
        self.op_with(Op::ExtInst, Some(void), operands)?;
        Ok(())
    }

    // ---- instruction helpers ----

    /// Appends `op` with a result of type `ty` and id operands.
    pub fn op(&mut self, op: Op, ty: Word, ids: &[Word]) -> Result<Word> {
        let id = self.b.id();
        self.b
            .insert_words_into_block(op, Some(ty), Some(id), ids)?;
        if !self.nonuniform.is_empty() {
            self.nonuniform_op(op, id, ids);
        }
        Ok(id)
    }

    /// Appends `op` with any operands; returns its result id (0 when the
    /// instruction has no result).
    pub fn op_with(&mut self, op: Op, ty: Option<Word>, operands: Vec<Operand>) -> Result<Word> {
        let id = if ty.is_some() { self.b.id() } else { 0 };
        let result = ty.map(|_| id);
        self.b.insert_into_block(op, ty, result, &operands)?;
        Ok(id)
    }

    /// `OpDecorate` of `target`.
    pub fn decorate(
        &mut self,
        target: Word,
        decoration: spirv::Decoration,
        params: impl IntoIterator<Item = Operand>,
    ) {
        self.b.decorate(target, decoration, params);
    }

    /// A `GLSL.std.450` instruction by name.
    pub fn ext(&mut self, ty: Word, name: &str, args: &[Word]) -> Result<Word> {
        let set = self.glsl_std();
        let table = &rspirv::grammar::GLSL_STD_450_INSTRUCTION_TABLE;
        let Some(number) = table
            .iter()
            .find(|i| i.opname == name)
            .map(|i| i.opcode.into())
        else {
            return Err(Error::Internal {
                what: format!("unknown GLSL.std.450 instruction {name}"),
            });
        };
        let mut operands = vec![Operand::IdRef(set), Operand::LiteralExtInstInteger(number)];
        operands.extend(args.iter().map(|&a| Operand::IdRef(a)));
        self.op_with(Op::ExtInst, Some(ty), operands)
    }

    /// Whether the current block has ended (after `break`, `return` ...).
    pub fn terminated(&self) -> bool {
        self.b.selected_block().is_none()
    }

    /// Starts block `label`.
    pub fn begin(&mut self, label: Word) -> Result<()> {
        self.b.begin_block(Some(label))?;
        Ok(())
    }

    /// Ends the current block with a branch to `target`, unless it ended.
    pub fn branch_to(&mut self, target: Word) -> Result<()> {
        if !self.terminated() {
            self.b.branch(target)?;
        }
        Ok(())
    }

    /// A function-scope variable, placed at the top of the first block as
    /// SPIR-V requires.
    pub fn function_var(&mut self, ty: Word, name: Option<&str>) -> Result<Word> {
        let ptr = self.pointer(ty, StorageClass::Function);
        let id = self.b.id();
        self.b.function_variable(ptr, id)?;
        if self.device_pointers.contains(&ty) {
            self.decorate(id, spirv::Decoration::AliasedPointer, []);
        }
        if let (Some(n), true) = (name, self.options.debug_names) {
            self.b.name(id, n);
        }
        Ok(id)
    }

    pub fn expr_ty(&self, e: Handle<Expression>) -> Result<Handle<ir::Type>> {
        match self.fs.exprs.ty(e) {
            Some(t) => Ok(t),
            None => unsupported("a `void` call used as a value", self.fs.exprs.span(e)),
        }
    }

    pub fn inner(&self, ty: Handle<ir::Type>) -> &'a ir::TypeInner {
        &self.module.types[ty].inner
    }

    pub fn span(&self, e: Handle<Expression>) -> Span {
        self.fs.exprs.span(e)
    }
}

/// Whether evaluating `e` unconditionally, or twice, is unobservable:
/// [`ir::is_pure`], and no method or hit-object read either, so that a
/// texture, buffer or hit-object read stays under the condition that
/// guards it (`c ? t.Load(i) : 0` branches; a `&&` or `||` whose right
/// side reads one short-circuits).
///
/// Two intrinsics with side effects still count as pure here, as they
/// always have in this writer, so that no output changes: `ReportHit`
/// and `workgroupUniformLoad` (its barriers) are evaluated
/// unconditionally in a `?:` arm or on the right of `&&`/`||`
/// (`near && ReportHit(...)` reports the hit when `near` is false).
/// Every other intrinsic with side effects was impure here before too,
/// returns nothing (so is never such an operand), or is refused
/// (`frexp`).
pub(super) fn is_pure(exprs: &ir::ExpressionArena, e: Handle<Expression>) -> bool {
    use ir::Intrinsic as I;
    ir::is_pure_with(exprs, e, |fun| {
        let speculated =
            !fun.has_side_effects() || matches!(fun, I::ReportHit | I::WorkgroupUniformLoad);
        speculated && !fun.is_method() && !fun.is_hit_object()
    })
}

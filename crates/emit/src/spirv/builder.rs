//! The module under construction as words: each instruction is encoded
//! when it is written, into the vector of its section (capabilities,
//! extensions, imports, memory model, entry points, execution modes, debug
//! names, annotations, types and global values, functions), so no
//! instruction is kept as an object and the module is the concatenation of
//! the sections.
//!
//! The methods follow `rspirv::dr::Builder`'s, whose output this builder
//! reproduces word for word: the same header (generator word `0x000F0000`,
//! rspirv's), the same section order, ids handed out in the same order,
//! and the same deduplication of the `type_*` methods (a type asked for
//! without an id gets the id of the first identical type instruction
//! already written, explicit ids included). Writing outside a block or a
//! function is an [`Error::Internal`], as rspirv's builder refused it.

use std::borrow::Borrow;

use legalis_ir::FastHashMap;
use rspirv::binary::Assemble;
use rspirv::dr::Operand;
use spirv::{
    AddressingModel, Capability, Decoration, Dim, ExecutionMode, ExecutionModel, FunctionControl,
    ImageFormat, LoopControl, MemoryModel, Op, SelectionControl, StorageClass, Word,
};

use super::Error;

use super::Result;

/// rspirv's generator word: tool 15, version 0.
const GENERATOR: Word = 0x000F_0000;

fn internal<T>(what: &str) -> Result<T> {
    Err(Error::Internal {
        what: what.to_string(),
    })
}

/// Starts an instruction of `op` in `out`: [`end`] completes its first
/// word with the word count once its operands are in.
fn start(out: &mut Vec<u32>, op: Op) -> usize {
    out.push(op as u32);
    out.len() - 1
}

/// A count of more than 65 535 words does not fit: it stays 0, which no
/// instruction has, and [`Builder::module`] refuses the module.
fn end(out: &mut [u32], start: usize) {
    let count = out.len() - start;
    if count <= 0xFFFF {
        out[start] |= (count as u32) << 16;
    }
}

/// The opcode of the first instruction of `words` (whole instructions)
/// whose word count is 0 (one too long to encode), if any.
fn too_long(words: &[u32]) -> Option<u32> {
    let mut at = 0;
    while let Some(&first) = words.get(at) {
        let count = (first >> 16) as usize;
        if count == 0 {
            return Some(first & 0xFFFF);
        }
        at += count;
    }
    None
}

/// One instruction: the result type and id where it has them, then
/// operand words.
fn words(out: &mut Vec<u32>, op: Op, ty: Option<Word>, id: Option<Word>, operands: &[u32]) {
    let at = start(out, op);
    out.extend(ty);
    out.extend(id);
    out.extend_from_slice(operands);
    end(out, at);
}

/// One instruction: the result type and id where it has them, operand
/// words `head`, then `operands` encoded as rspirv encodes them.
fn operands(
    out: &mut Vec<u32>,
    op: Op,
    ty: Option<Word>,
    id: Option<Word>,
    head: &[u32],
    operands: impl IntoIterator<Item = impl Borrow<Operand>>,
) {
    let at = start(out, op);
    out.extend(ty);
    out.extend(id);
    out.extend_from_slice(head);
    for o in operands {
        o.borrow().assemble_into(out);
    }
    end(out, at);
}

/// A nul-terminated string literal, as `Operand::LiteralString` encodes it.
fn string(out: &mut Vec<u32>, s: &str) {
    let chunks = s.as_bytes().chunks_exact(4);
    let rest = chunks.remainder();
    let mut last = [0u8; 4];
    last[..rest.len()].copy_from_slice(rest);
    out.extend(chunks.map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])));
    out.push(u32::from_le_bytes(last));
}

/// One instruction whose operands are words, a string and more words
/// (`OpName`, `OpEntryPoint` ...).
fn with_string(out: &mut Vec<u32>, op: Op, id: Option<Word>, head: &[u32], s: &str, tail: &[u32]) {
    let at = start(out, op);
    out.extend(id);
    out.extend_from_slice(head);
    string(out, s);
    out.extend_from_slice(tail);
    end(out, at);
}

#[derive(Default)]
pub(super) struct Builder {
    next_id: Word,
    /// The header, made when the module is: magic, version, generator,
    /// bound, schema.
    header: [Word; 5],
    /// The version word of the header.
    version: Word,
    capabilities: Vec<u32>,
    extensions: Vec<u32>,
    ext_inst_imports: Vec<u32>,
    memory_model: Vec<u32>,
    entry_points: Vec<u32>,
    execution_modes: Vec<u32>,
    /// `OpString`s (debug printf formats), which come before the names.
    debug_strings: Vec<u32>,
    debug_names: Vec<u32>,
    annotations: Vec<u32>,
    types_global_values: Vec<u32>,
    functions: Vec<u32>,
    /// Every type instruction written, as its opcode and operand words,
    /// with the id of its first instance.
    types: FastHashMap<Vec<u32>, Word>,
    /// A type's key while it is looked up.
    key: Vec<u32>,
    /// The function being written, as an index into the written ones.
    selected_function: Option<usize>,
    function_count: usize,
    /// The block being written, as an index into its function's blocks.
    selected_block: Option<usize>,
    block_count: usize,
    /// Where in `functions` the current function's first block begins
    /// (after its `OpLabel`), once it has begun.
    first_block: Option<usize>,
    /// The `OpVariable`s of every function's first block, in order.
    function_variables: Vec<u32>,
    /// Where each function's variables go: the offset in `functions` to
    /// put them at, and where they end in `function_variables` (they begin
    /// where the previous function's end).
    placements: Vec<(usize, usize)>,
}

impl Builder {
    pub fn new() -> Builder {
        let mut b = Builder {
            next_id: 1,
            ..Builder::default()
        };
        b.set_version(1, 0);
        b
    }

    /// The module's words: the header and the sections in order; `Err`
    /// with the opcode of an instruction too long for SPIR-V's 16-bit word
    /// count.
    pub fn module(mut self) -> std::result::Result<Vec<u32>, u32> {
        let pieces = self.pieces()?;
        let mut out = Vec::with_capacity(pieces.iter().map(|p| p.len()).sum());
        for piece in pieces {
            out.extend_from_slice(piece);
        }
        Ok(out)
    }

    /// [`Builder::module`] as little-endian bytes, written once: no word
    /// vector of the whole module is made first.
    pub fn module_bytes(mut self) -> std::result::Result<Vec<u8>, u32> {
        let pieces = self.pieces()?;
        let mut out = Vec::with_capacity(4 * pieces.iter().map(|p| p.len()).sum::<usize>());
        for piece in pieces {
            for word in piece {
                out.extend_from_slice(&word.to_le_bytes());
            }
        }
        Ok(out)
    }

    /// The module in order, as slices of whole instructions: the header,
    /// the sections, and the functions with each one's variables spliced
    /// in after its first `OpLabel`.
    fn pieces(&mut self) -> std::result::Result<Vec<&[u32]>, u32> {
        self.place_function_variables();
        self.header = [
            spirv::MAGIC_NUMBER,
            self.version,
            GENERATOR,
            self.next_id,
            0,
        ];
        let sections = [
            &self.capabilities,
            &self.extensions,
            &self.ext_inst_imports,
            &self.memory_model,
            &self.entry_points,
            &self.execution_modes,
            &self.debug_strings,
            &self.debug_names,
            &self.annotations,
            &self.types_global_values,
        ];
        for words in sections.iter().map(|s| s.as_slice()).chain([
            self.functions.as_slice(),
            self.function_variables.as_slice(),
        ]) {
            if let Some(op) = too_long(words) {
                return Err(op);
            }
        }
        let mut pieces: Vec<&[u32]> = vec![&self.header];
        pieces.extend(sections.iter().map(|s| s.as_slice()));
        let (functions, variables) = (&self.functions, &self.function_variables);
        let (mut from, mut variables_from) = (0, 0);
        for &(at, variables_to) in &self.placements {
            pieces.push(&functions[from..at]);
            pieces.push(&variables[variables_from..variables_to]);
            (from, variables_from) = (at, variables_to);
        }
        pieces.push(&functions[from..]);
        Ok(pieces)
    }

    /// Room for `n` more global variables, each with a name and a
    /// decoration or two.
    pub fn reserve_globals(&mut self, n: usize) {
        self.debug_names.reserve(5 * n);
        self.annotations.reserve(4 * n);
        self.types_global_values.reserve(4 * n);
    }

    /// Room for `words` more words of function bodies.
    pub fn reserve_functions(&mut self, words: usize) {
        self.functions.reserve(words);
    }

    /// Room for `n` more names (`OpMemberName` of a short name is five
    /// words): a struct of thousands of members is not copied as the
    /// section grows.
    pub fn reserve_names(&mut self, n: usize) {
        self.debug_names.reserve(5 * n);
    }

    pub fn set_version(&mut self, major: u8, minor: u8) {
        self.version = u32::from_le_bytes([0, minor, major, 0]);
    }

    /// The next unused id.
    pub fn id(&mut self) -> Word {
        let id = self.next_id;
        self.next_id += 1;
        id
    }

    pub fn selected_block(&self) -> Option<usize> {
        self.selected_block
    }

    // ---- module-level instructions ----

    pub fn capability(&mut self, capability: Capability) {
        words(
            &mut self.capabilities,
            Op::Capability,
            None,
            None,
            &[capability as u32],
        );
    }

    pub fn extension(&mut self, extension: &str) {
        with_string(
            &mut self.extensions,
            Op::Extension,
            None,
            &[],
            extension,
            &[],
        );
    }

    pub fn ext_inst_import(&mut self, set: &str) -> Word {
        let id = self.id();
        with_string(
            &mut self.ext_inst_imports,
            Op::ExtInstImport,
            Some(id),
            &[],
            set,
            &[],
        );
        id
    }

    /// The one `OpMemoryModel` (a second call replaces the first).
    pub fn memory_model(&mut self, addressing: AddressingModel, memory: MemoryModel) {
        self.memory_model.clear();
        words(
            &mut self.memory_model,
            Op::MemoryModel,
            None,
            None,
            &[addressing as u32, memory as u32],
        );
    }

    pub fn entry_point(
        &mut self,
        model: ExecutionModel,
        function: Word,
        name: impl AsRef<str>,
        interface: impl AsRef<[Word]>,
    ) {
        with_string(
            &mut self.entry_points,
            Op::EntryPoint,
            None,
            &[model as u32, function],
            name.as_ref(),
            interface.as_ref(),
        );
    }

    pub fn execution_mode(
        &mut self,
        function: Word,
        mode: ExecutionMode,
        params: impl AsRef<[u32]>,
    ) {
        let out = &mut self.execution_modes;
        let at = start(out, Op::ExecutionMode);
        out.extend([function, mode as u32]);
        out.extend_from_slice(params.as_ref());
        end(out, at);
    }

    /// An `OpString` of `text`; its id.
    pub fn string(&mut self, text: &str) -> Word {
        let id = self.id();
        with_string(
            &mut self.debug_strings,
            Op::String,
            Some(id),
            &[],
            text,
            &[],
        );
        id
    }

    /// An `OpSourceExtension`: a source-language extension the module was
    /// written under (glslang writes one per GLSL `#extension`).
    pub fn source_extension(&mut self, extension: &str) {
        with_string(
            &mut self.debug_strings,
            Op::SourceExtension,
            None,
            &[],
            extension,
            &[],
        );
    }

    pub fn name(&mut self, target: Word, name: impl AsRef<str>) {
        with_string(
            &mut self.debug_names,
            Op::Name,
            None,
            &[target],
            name.as_ref(),
            &[],
        );
    }

    pub fn member_name(&mut self, ty: Word, member: u32, name: impl AsRef<str>) {
        with_string(
            &mut self.debug_names,
            Op::MemberName,
            None,
            &[ty, member],
            name.as_ref(),
            &[],
        );
    }

    pub fn decorate(
        &mut self,
        target: Word,
        decoration: Decoration,
        params: impl IntoIterator<Item = Operand>,
    ) {
        let head = [target, decoration as u32];
        let params: Vec<Operand> = params.into_iter().collect();
        operands(
            &mut self.annotations,
            Op::Decorate,
            None,
            None,
            &head,
            &params,
        );
    }

    pub fn member_decorate(
        &mut self,
        ty: Word,
        member: u32,
        decoration: Decoration,
        params: impl IntoIterator<Item = Operand>,
    ) {
        let head = [ty, member, decoration as u32];
        let params: Vec<Operand> = params.into_iter().collect();
        operands(
            &mut self.annotations,
            Op::MemberDecorate,
            None,
            None,
            &head,
            &params,
        );
    }

    /// A constant (or other global value) of type `ty` with operand words
    /// `ops`, in the types-and-global-values section.
    pub fn global_value(&mut self, op: Op, ty: Word, id: Word, ops: &[u32]) {
        words(&mut self.types_global_values, op, Some(ty), Some(id), ops);
    }

    /// A module-scope `OpVariable` (function variables go through
    /// [`Builder::function_variable`]).
    pub fn variable(
        &mut self,
        ty: Word,
        id: Option<Word>,
        class: StorageClass,
        initializer: Option<Word>,
    ) -> Word {
        let id = id.unwrap_or_else(|| self.id());
        let mut ops = vec![class as u32];
        ops.extend(initializer);
        self.global_value(Op::Variable, ty, id, &ops);
        id
    }

    // ---- types ----

    /// Writes type instruction `op` with id `id`, or, without one, finds
    /// the first identical type instruction written and returns its id.
    fn type_inst(&mut self, id: Option<Word>, op: Op, ops: &[u32]) -> Word {
        self.key.clear();
        self.key.push(op as u32);
        self.key.extend_from_slice(ops);
        let id = match id {
            Some(id) => id,
            None => {
                if let Some(&existing) = self.types.get(self.key.as_slice()) {
                    return existing;
                }
                self.id()
            }
        };
        words(&mut self.types_global_values, op, None, Some(id), ops);
        if !self.types.contains_key(self.key.as_slice()) {
            self.types.insert(self.key.clone(), id);
        }
        id
    }

    pub fn type_void(&mut self) -> Word {
        self.type_inst(None, Op::TypeVoid, &[])
    }

    pub fn type_bool(&mut self) -> Word {
        self.type_inst(None, Op::TypeBool, &[])
    }

    pub fn type_int(&mut self, width: u32, signedness: u32) -> Word {
        self.type_inst(None, Op::TypeInt, &[width, signedness])
    }

    pub fn type_float(&mut self, width: u32) -> Word {
        self.type_inst(None, Op::TypeFloat, &[width])
    }

    pub fn type_vector(&mut self, component: Word, count: u32) -> Word {
        self.type_inst(None, Op::TypeVector, &[component, count])
    }

    pub fn type_matrix(&mut self, column: Word, count: u32) -> Word {
        self.type_inst(None, Op::TypeMatrix, &[column, count])
    }

    pub fn type_pointer(&mut self, id: Option<Word>, class: StorageClass, pointee: Word) -> Word {
        self.type_inst(id, Op::TypePointer, &[class as u32, pointee])
    }

    pub fn type_function(&mut self, ret: Word, params: impl IntoIterator<Item = Word>) -> Word {
        let mut ops = vec![ret];
        ops.extend(params);
        self.type_inst(None, Op::TypeFunction, &ops)
    }

    pub fn type_array(&mut self, element: Word, length: Word) -> Word {
        self.type_array_id(None, element, length)
    }

    pub fn type_array_id(&mut self, id: Option<Word>, element: Word, length: Word) -> Word {
        self.type_inst(id, Op::TypeArray, &[element, length])
    }

    pub fn type_runtime_array_id(&mut self, id: Option<Word>, element: Word) -> Word {
        self.type_inst(id, Op::TypeRuntimeArray, &[element])
    }

    pub fn type_struct(&mut self, members: impl IntoIterator<Item = Word>) -> Word {
        self.type_struct_id(None, members)
    }

    pub fn type_struct_id(
        &mut self,
        id: Option<Word>,
        members: impl IntoIterator<Item = Word>,
    ) -> Word {
        let ops: Vec<Word> = members.into_iter().collect();
        self.type_inst(id, Op::TypeStruct, &ops)
    }

    /// `OpTypeImage` of `sampled_type`, `dim`, `[depth, arrayed,
    /// multisampled, sampled]` and `format`, with no access qualifier.
    pub fn type_image(
        &mut self,
        sampled_type: Word,
        dim: Dim,
        [depth, arrayed, ms, sampled]: [u32; 4],
        format: ImageFormat,
    ) -> Word {
        let ops = [
            sampled_type,
            dim as u32,
            depth,
            arrayed,
            ms,
            sampled,
            format as u32,
        ];
        self.type_inst(None, Op::TypeImage, &ops)
    }

    pub fn type_sampled_image(&mut self, image: Word) -> Word {
        self.type_inst(None, Op::TypeSampledImage, &[image])
    }

    pub fn type_sampler(&mut self) -> Word {
        self.type_inst(None, Op::TypeSampler, &[])
    }

    pub fn type_acceleration_structure_khr(&mut self) -> Word {
        self.type_inst(None, Op::TypeAccelerationStructureKHR, &[])
    }

    pub fn type_hit_object_nv(&mut self) -> Word {
        self.type_inst(None, Op::TypeHitObjectNV, &[])
    }

    pub fn type_ray_query_khr(&mut self) -> Word {
        self.type_inst(None, Op::TypeRayQueryKHR, &[])
    }

    // ---- functions and blocks ----

    pub fn begin_function(
        &mut self,
        ret: Word,
        id: Option<Word>,
        control: FunctionControl,
        ty: Word,
    ) -> Result<Word> {
        if self.selected_function.is_some() {
            return internal("a function begun inside another");
        }
        let id = id.unwrap_or_else(|| self.id());
        words(
            &mut self.functions,
            Op::Function,
            Some(ret),
            Some(id),
            &[control.bits(), ty],
        );
        self.selected_function = Some(self.function_count);
        self.function_count += 1;
        self.block_count = 0;
        self.first_block = None;
        Ok(id)
    }

    pub fn end_function(&mut self) -> Result<()> {
        if self.selected_function.is_none() {
            return internal("a function ended outside a function");
        }
        self.place_function_variables();
        words(&mut self.functions, Op::FunctionEnd, None, None, &[]);
        self.selected_function = None;
        self.first_block = None;
        Ok(())
    }

    /// Records where the current function's variables go: at the top of
    /// its first block.
    fn place_function_variables(&mut self) {
        let placed = self.placements.last().map_or(0, |&(_, to)| to);
        if let Some(at) = self.first_block
            && self.function_variables.len() > placed
        {
            self.placements.push((at, self.function_variables.len()));
        }
    }

    pub fn function_parameter(&mut self, ty: Word) -> Result<Word> {
        if self.selected_function.is_none() {
            return internal("a function parameter outside a function");
        }
        if self.block_count > 0 {
            return internal("a function parameter after the function's first block");
        }
        let id = self.id();
        words(
            &mut self.functions,
            Op::FunctionParameter,
            Some(ty),
            Some(id),
            &[],
        );
        Ok(id)
    }

    pub fn begin_block(&mut self, label: Option<Word>) -> Result<Word> {
        if self.selected_function.is_none() {
            return internal("a block outside a function");
        }
        if self.selected_block.is_some() {
            return internal("a block begun inside another");
        }
        let id = label.unwrap_or_else(|| self.id());
        words(&mut self.functions, Op::Label, None, Some(id), &[]);
        if self.first_block.is_none() {
            self.first_block = Some(self.functions.len());
        }
        self.selected_block = Some(self.block_count);
        self.block_count += 1;
        Ok(id)
    }

    /// An `OpVariable` of pointer type `ty` at the top of the current
    /// function's first block, after the ones placed there before.
    pub fn function_variable(&mut self, ty: Word, id: Word) -> Result<()> {
        if self.selected_function.is_none() || self.first_block.is_none() {
            return internal("a function variable outside a function's blocks");
        }
        words(
            &mut self.function_variables,
            Op::Variable,
            Some(ty),
            Some(id),
            &[StorageClass::Function as u32],
        );
        Ok(())
    }

    fn block(&mut self) -> Result<&mut Vec<u32>> {
        match (self.selected_function, self.selected_block) {
            (Some(_), Some(_)) => Ok(&mut self.functions),
            _ => internal("an instruction outside a block"),
        }
    }

    /// Appends `op` to the current block.
    pub fn insert_into_block(
        &mut self,
        op: Op,
        ty: Option<Word>,
        id: Option<Word>,
        ops: &[Operand],
    ) -> Result<()> {
        operands(self.block()?, op, ty, id, &[], ops);
        Ok(())
    }

    /// Appends `op` with operand words `ops` (ids, literals) to the current
    /// block.
    pub fn insert_words_into_block(
        &mut self,
        op: Op,
        ty: Option<Word>,
        id: Option<Word>,
        ops: &[u32],
    ) -> Result<()> {
        words(self.block()?, op, ty, id, ops);
        Ok(())
    }

    /// Appends terminator `op` and ends the current block.
    fn end_block(&mut self, op: Op, ops: &[u32]) -> Result<()> {
        if self.selected_block.is_none() {
            return internal("a terminator outside a block");
        }
        self.insert_words_into_block(op, None, None, ops)?;
        self.selected_block = None;
        Ok(())
    }

    pub fn selection_merge(&mut self, merge: Word, control: SelectionControl) -> Result<()> {
        self.insert_words_into_block(Op::SelectionMerge, None, None, &[merge, control.bits()])
    }

    /// `OpLoopMerge` with no loop-control parameters.
    pub fn loop_merge(
        &mut self,
        merge: Word,
        continue_target: Word,
        control: LoopControl,
    ) -> Result<()> {
        self.insert_words_into_block(
            Op::LoopMerge,
            None,
            None,
            &[merge, continue_target, control.bits()],
        )
    }

    pub fn branch(&mut self, target: Word) -> Result<()> {
        self.end_block(Op::Branch, &[target])
    }

    pub fn branch_conditional(
        &mut self,
        condition: Word,
        yes: Word,
        no: Word,
        weights: impl IntoIterator<Item = u32>,
    ) -> Result<()> {
        let mut ops = vec![condition, yes, no];
        ops.extend(weights);
        self.end_block(Op::BranchConditional, &ops)
    }

    pub fn switch(
        &mut self,
        selector: Word,
        default: Word,
        targets: impl IntoIterator<Item = (Operand, Word)>,
    ) -> Result<()> {
        let mut ops = vec![selector, default];
        for (literal, label) in targets {
            literal.assemble_into(&mut ops);
            ops.push(label);
        }
        self.end_block(Op::Switch, &ops)
    }

    pub fn ret(&mut self) -> Result<()> {
        self.end_block(Op::Return, &[])
    }

    pub fn ret_value(&mut self, value: Word) -> Result<()> {
        self.end_block(Op::ReturnValue, &[value])
    }

    pub fn kill(&mut self) -> Result<()> {
        self.end_block(Op::Kill, &[])
    }

    pub fn unreachable(&mut self) -> Result<()> {
        self.end_block(Op::Unreachable, &[])
    }

    pub fn ignore_intersection_khr(&mut self) -> Result<()> {
        self.end_block(Op::IgnoreIntersectionKHR, &[])
    }

    pub fn terminate_ray_khr(&mut self) -> Result<()> {
        self.end_block(Op::TerminateRayKHR, &[])
    }

    pub fn emit_mesh_tasks_ext(&mut self, counts: [Word; 3], payload: Option<Word>) -> Result<()> {
        let mut ops = counts.to_vec();
        ops.extend(payload);
        self.end_block(Op::EmitMeshTasksEXT, &ops)
    }

    // ---- other instructions of a block ----

    pub fn emit_vertex(&mut self) -> Result<()> {
        self.insert_words_into_block(Op::EmitVertex, None, None, &[])
    }

    pub fn emit_stream_vertex(&mut self, stream: Word) -> Result<()> {
        self.insert_words_into_block(Op::EmitStreamVertex, None, None, &[stream])
    }

    pub fn end_primitive(&mut self) -> Result<()> {
        self.insert_words_into_block(Op::EndPrimitive, None, None, &[])
    }

    pub fn end_stream_primitive(&mut self, stream: Word) -> Result<()> {
        self.insert_words_into_block(Op::EndStreamPrimitive, None, None, &[stream])
    }

    pub fn control_barrier(
        &mut self,
        execution: Word,
        memory: Word,
        semantics: Word,
    ) -> Result<()> {
        self.insert_words_into_block(
            Op::ControlBarrier,
            None,
            None,
            &[execution, memory, semantics],
        )
    }

    pub fn set_mesh_outputs_ext(&mut self, vertices: Word, primitives: Word) -> Result<()> {
        self.insert_words_into_block(Op::SetMeshOutputsEXT, None, None, &[vertices, primitives])
    }

    pub fn report_intersection_khr(&mut self, ty: Word, hit: Word, kind: Word) -> Result<Word> {
        let id = self.id();
        self.insert_words_into_block(Op::ReportIntersectionKHR, Some(ty), Some(id), &[hit, kind])?;
        Ok(id)
    }

    pub fn execute_callable_khr(&mut self, index: Word, data: Word) -> Result<()> {
        self.insert_words_into_block(Op::ExecuteCallableKHR, None, None, &[index, data])
    }

    /// `OpTraceRayKHR` with its eleven id operands (acceleration
    /// structure, flags, cull mask, SBT offset and stride, miss index,
    /// origin, tmin, direction, tmax, payload).
    pub fn trace_ray_khr(&mut self, ids: [Word; 11]) -> Result<()> {
        self.insert_words_into_block(Op::TraceRayKHR, None, None, &ids)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The same instructions through rspirv's builder and this one give
    /// the same words.
    #[test]
    fn matches_rspirv_builder() {
        let mut theirs = rspirv::dr::Builder::new();
        let mut ours = Builder::new();
        theirs.set_version(1, 3);
        ours.set_version(1, 3);
        theirs.capability(Capability::Shader);
        ours.capability(Capability::Shader);
        theirs.extension("SPV_KHR_ray_tracing");
        ours.extension("SPV_KHR_ray_tracing");
        assert_eq!(
            theirs.ext_inst_import("GLSL.std.450"),
            ours.ext_inst_import("GLSL.std.450")
        );
        theirs.memory_model(AddressingModel::Logical, MemoryModel::GLSL450);
        ours.memory_model(AddressingModel::Logical, MemoryModel::GLSL450);
        fn types(b: &mut rspirv::dr::Builder, o: &mut Builder) {
            let pairs = [
                (b.type_void(), o.type_void()),
                (b.type_float(32, None), o.type_float(32)),
                (b.type_int(32, 0), o.type_int(32, 0)),
                (b.type_float(32, None), o.type_float(32)),
                (b.type_vector(2, 4), o.type_vector(2, 4)),
                (b.type_vector(2, 4), o.type_vector(2, 4)),
                (b.type_matrix(5, 4), o.type_matrix(5, 4)),
                (b.type_bool(), o.type_bool()),
                (
                    b.type_pointer(None, StorageClass::Input, 5),
                    o.type_pointer(None, StorageClass::Input, 5),
                ),
                (
                    b.type_pointer(None, StorageClass::Input, 5),
                    o.type_pointer(None, StorageClass::Input, 5),
                ),
                (b.type_function(1, [2, 3]), o.type_function(1, [2, 3])),
                (
                    b.type_array_id(Some(40), 5, 3),
                    o.type_array_id(Some(40), 5, 3),
                ),
                (b.type_array(5, 3), o.type_array(5, 3)),
                (b.type_array(5, 4), o.type_array(5, 4)),
                (
                    b.type_struct_id(Some(41), [5, 2]),
                    o.type_struct_id(Some(41), [5, 2]),
                ),
                (b.type_struct([5, 2]), o.type_struct([5, 2])),
                (
                    b.type_runtime_array_id(Some(42), 2),
                    o.type_runtime_array_id(Some(42), 2),
                ),
                (
                    b.type_image(2, Dim::Dim2D, 0, 0, 0, 1, ImageFormat::Unknown, None),
                    o.type_image(2, Dim::Dim2D, [0, 0, 0, 1], ImageFormat::Unknown),
                ),
                (b.type_sampled_image(20), o.type_sampled_image(20)),
                (b.type_sampler(), o.type_sampler()),
                (
                    b.type_acceleration_structure_khr(),
                    o.type_acceleration_structure_khr(),
                ),
            ];
            for (t, u) in pairs {
                assert_eq!(t, u);
            }
        }
        types(&mut theirs, &mut ours);
        assert_eq!(
            theirs.variable(9, None, StorageClass::Input, None),
            ours.variable(9, None, StorageClass::Input, None)
        );
        let (t, o) = (theirs.id(), ours.id());
        assert_eq!(t, o);
        theirs
            .module_mut()
            .types_global_values
            .push(rspirv::dr::Instruction::new(
                Op::Constant,
                Some(3),
                Some(t),
                vec![Operand::LiteralBit32(7)],
            ));
        ours.global_value(Op::Constant, 3, o, &[7]);
        theirs.name(t, "seven");
        ours.name(o, "seven");
        theirs.member_name(41, 1, "four");
        ours.member_name(41, 1, "four");
        theirs.decorate(9, Decoration::Location, [Operand::LiteralBit32(2)]);
        ours.decorate(9, Decoration::Location, [Operand::LiteralBit32(2)]);
        theirs.member_decorate(41, 0, Decoration::Offset, [Operand::LiteralBit32(0)]);
        ours.member_decorate(41, 0, Decoration::Offset, [Operand::LiteralBit32(0)]);

        let f = theirs.id();
        assert_eq!(f, ours.id());
        theirs
            .begin_function(1, Some(f), FunctionControl::NONE, 11)
            .unwrap();
        ours.begin_function(1, Some(f), FunctionControl::NONE, 11)
            .unwrap();
        assert_eq!(
            theirs.function_parameter(2).unwrap(),
            ours.function_parameter(2).unwrap()
        );
        assert_eq!(
            theirs.begin_block(None).unwrap(),
            ours.begin_block(None).unwrap()
        );
        for n in 0..2 {
            let id = theirs.id();
            assert_eq!(id, ours.id());
            let var = rspirv::dr::Instruction::new(
                Op::Variable,
                Some(10),
                Some(id),
                vec![Operand::StorageClass(StorageClass::Function)],
            );
            theirs.module_mut().functions[0].blocks[0]
                .instructions
                .insert(n, var);
            ours.function_variable(10, id).unwrap();
            let (a, b) = (theirs.id(), ours.id());
            let load =
                rspirv::dr::Instruction::new(Op::Load, Some(2), Some(a), vec![Operand::IdRef(id)]);
            theirs
                .insert_into_block(rspirv::dr::InsertPoint::End, load)
                .unwrap();
            ours.insert_into_block(Op::Load, Some(2), Some(b), &[Operand::IdRef(id)])
                .unwrap();
        }
        theirs.loop_merge(30, 31, LoopControl::NONE, []).unwrap();
        ours.loop_merge(30, 31, LoopControl::NONE).unwrap();
        theirs.selection_merge(30, SelectionControl::NONE).unwrap();
        ours.selection_merge(30, SelectionControl::NONE).unwrap();
        theirs
            .switch(3, 30, [(Operand::LiteralBit32(1), 31)])
            .unwrap();
        ours.switch(3, 30, [(Operand::LiteralBit32(1), 31)])
            .unwrap();
        assert!(ours.selected_block().is_none());
        assert!(ours.ret().is_err(), "a terminator outside a block");
        theirs.begin_block(Some(31)).unwrap();
        ours.begin_block(Some(31)).unwrap();
        assert!(ours.begin_block(None).is_err(), "a block inside a block");
        theirs.ret_value(3).unwrap();
        ours.ret_value(3).unwrap();
        theirs.end_function().unwrap();
        ours.end_function().unwrap();
        assert!(ours.end_function().is_err());
        assert!(ours.function_variable(10, 50).is_err());
        // A second function, its variable placed in its own first block.
        let g = theirs.id();
        assert_eq!(g, ours.id());
        theirs
            .begin_function(1, Some(g), FunctionControl::NONE, 11)
            .unwrap();
        ours.begin_function(1, Some(g), FunctionControl::NONE, 11)
            .unwrap();
        assert_eq!(
            theirs.begin_block(None).unwrap(),
            ours.begin_block(None).unwrap()
        );
        theirs.ret().unwrap();
        ours.ret().unwrap();
        let id = theirs.id();
        assert_eq!(id, ours.id());
        let var = rspirv::dr::Instruction::new(
            Op::Variable,
            Some(10),
            Some(id),
            vec![Operand::StorageClass(StorageClass::Function)],
        );
        theirs.module_mut().functions[1].blocks[0]
            .instructions
            .insert(0, var);
        ours.function_variable(10, id).unwrap();
        theirs.end_function().unwrap();
        ours.end_function().unwrap();
        theirs.entry_point(ExecutionModel::Fragment, f, "main", [9]);
        ours.entry_point(ExecutionModel::Fragment, f, "main", [9]);
        theirs.execution_mode(f, ExecutionMode::LocalSize, [1, 2, 3]);
        ours.execution_mode(f, ExecutionMode::LocalSize, [1, 2, 3]);

        let mut expected = Vec::new();
        theirs.module().assemble_into(&mut expected);
        assert_eq!(ours.module(), Ok(expected));
    }

    /// An instruction of more than 65 535 words cannot be encoded: the
    /// module is refused, naming its opcode, instead of a wrong count; the
    /// bytes are the words, little-endian.
    #[test]
    fn an_instruction_too_long_to_encode_is_refused() {
        // Opcode, model, function, "main" in two words, then the interface.
        let with_interface = |n: u32| {
            let mut b = Builder::new();
            let f = b.id();
            let interface: Vec<Word> = (1..=n).collect();
            b.entry_point(ExecutionModel::Vertex, f, "main", &interface);
            b
        };
        let words = with_interface(0xFFFF - 5)
            .module()
            .expect("65535 words fit");
        assert_eq!(words[5] >> 16, 0xFFFF);
        let bytes = with_interface(0xFFFF - 5).module_bytes().expect("fits");
        let expected: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
        assert_eq!(bytes, expected);

        let entry_point = Op::EntryPoint as u32;
        assert_eq!(with_interface(0xFFFF - 4).module(), Err(entry_point));
        assert_eq!(with_interface(0xFFFF - 4).module_bytes(), Err(entry_point));
    }
}

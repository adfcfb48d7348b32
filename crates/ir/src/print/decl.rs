//! Top-level items: struct declarations, globals, functions, entry points,
//! and the varying attributes (`IoAttrs`, `Binding`) they carry.

use std::fmt::Write as _;

use super::Writer;
use crate::{
    AddressSpace, Binding, Block, EntryPoint, EntryPointAttributes, Function, FunctionParam,
    GlobalVariable, Handle, InputPrimitive, Interpolation, InterpolationMode, IoAttrs,
    MatrixLayout, ParamDirection, ParamRole, RegisterClass, Sampling, Semantic, Statement,
    StructMember, TessDomain, Type,
};

/// A function header longer than this puts one parameter per line.
const MAX_HEADER_WIDTH: usize = 100;

impl<'a> Writer<'a> {
    pub(super) fn struct_decl(
        &mut self,
        handle: Handle<Type>,
        name: Option<&str>,
        members: &[StructMember],
    ) {
        match name {
            Some(name) => {
                let _ = writeln!(self.out, "struct {name} {{");
            }
            None => {
                let _ = writeln!(self.out, "struct <anonymous struct {handle:?}> {{");
            }
        }
        for member in members {
            let layout = matrix_layout(member.matrix_layout);
            let decl = self.declarator(member.ty, &member.name);
            let _ = writeln!(
                self.out,
                "    {}{layout}{decl}{};",
                io_prefix(&member.io),
                binding_suffix(&member.io)
            );
        }
        self.out.push_str("}\n");
    }

    /// `global [[vk::binding(0, 1)]] uniform Texture2D<float4> tex : register(t0, space1);`
    pub(super) fn global(&mut self, handle: Handle<GlobalVariable>, global: &GlobalVariable) {
        self.out.push_str("global ");
        if let Some((binding, set)) = global.binding.vk_binding {
            let _ = write!(self.out, "[[vk::binding({binding}, {set})]] ");
        }
        let ray;
        self.out.push_str(match global.space {
            AddressSpace::Private => "static ",
            AddressSpace::Constant => "static const ",
            AddressSpace::Workgroup => "groupshared ",
            AddressSpace::Uniform => "uniform ",
            AddressSpace::Input => "in ",
            AddressSpace::Output => "out ",
            AddressSpace::TaskPayload => "task_payload ",
            AddressSpace::RayTracing(storage) => {
                ray = format!("{} ", storage.glsl_name());
                &ray
            }
        });
        if global.globally_coherent {
            self.out.push_str("globallycoherent ");
        }
        if let Some(io) = &global.io {
            self.out.push_str(&io_prefix(io));
        }
        self.out.push_str(matrix_layout(global.matrix_layout));
        let decl = self.declarator(global.ty, &self.names.global(handle));
        self.out.push_str(&decl);
        if let Some(register) = global.binding.register {
            let class = match register.class {
                RegisterClass::T => 't',
                RegisterClass::S => 's',
                RegisterClass::U => 'u',
                RegisterClass::B => 'b',
                RegisterClass::C => 'c',
            };
            let _ = write!(self.out, " : register({class}{}", register.index);
            if register.space != 0 {
                let _ = write!(self.out, ", space{}", register.space);
            }
            self.out.push(')');
        }
        if let Some(io) = &global.io {
            self.out.push_str(&binding_suffix(io));
        }
        if let Some(init) = global.init {
            self.out.push_str(" = ");
            self.expr(init);
        }
        self.out.push_str(";\n");
    }

    pub(super) fn function(&mut self, handle: Handle<Function>, func: &'a Function) {
        self.enter_function(func);
        self.function_header(handle, func);
        self.out.push_str(" {\n");
        self.undeclared_locals(func);
        self.block_body(&func.body);
        self.out.push_str("}\n");
        self.leave_function();
    }

    fn function_header(&mut self, handle: Handle<Function>, func: &Function) {
        let params: Vec<String> = func
            .params
            .iter()
            .enumerate()
            .map(|(i, param)| self.param(i, param))
            .collect();
        let result = match &func.result {
            Some(result) => format!(
                "{}{}{}",
                io_prefix(&result.io),
                self.type_name(result.ty),
                binding_suffix(&result.io)
            ),
            None => "void".to_string(),
        };
        let name = self.names.function(handle);
        let one_line = format!("fn {name}({}) -> {result}", params.join(", "));
        if one_line.len() <= MAX_HEADER_WIDTH || params.len() < 2 {
            self.out.push_str(&one_line);
        } else {
            let _ = writeln!(self.out, "fn {name}(");
            for param in &params {
                let _ = writeln!(self.out, "    {param},");
            }
            let _ = write!(self.out, ") -> {result}");
        }
    }

    /// `in uniform float4x4 m`, `inout payload P p`, `in triangle VsOut v[3] : ...`.
    fn param(&self, index: usize, param: &FunctionParam) -> String {
        let direction = match param.direction {
            ParamDirection::In => "in",
            ParamDirection::Out => "out",
            ParamDirection::InOut => "inout",
        };
        let role = match param.role {
            ParamRole::Plain => "",
            ParamRole::Uniform => "uniform ",
            ParamRole::Payload => "payload ",
            ParamRole::GeometryInput(primitive) => match primitive {
                InputPrimitive::Point => "point ",
                InputPrimitive::Line => "line ",
                InputPrimitive::Triangle => "triangle ",
                InputPrimitive::LineAdj => "lineadj ",
                InputPrimitive::TriangleAdj => "triangleadj ",
            },
        };
        let name = match &self.function {
            Some((_, names)) => names.param(index as u32),
            None => param.name.clone(),
        };
        format!(
            "{direction} {role}{}{}{}",
            io_prefix(&param.io),
            self.declarator(param.ty, &name),
            binding_suffix(&param.io)
        )
    }

    /// Locals that no `Declare` statement brings into scope would otherwise be
    /// invisible in the dump.
    fn undeclared_locals(&mut self, func: &Function) {
        let mut declared = vec![false; func.locals.len()];
        mark_declared(&func.body, &mut declared);
        for (local, _) in func.locals.iter() {
            if !declared[local.index()] {
                let decl = self.local_declaration(local);
                let _ = writeln!(self.out, "    // undeclared: var {decl};");
            }
        }
    }

    /// `entry compute main [numthreads(8, 8, 1)] -> fn main`.
    pub(super) fn entry_point(&mut self, entry: &EntryPoint) {
        let _ = write!(self.out, "entry {} {}", entry.stage.name(), entry.name);
        for attribute in self.attributes(&entry.attributes) {
            let _ = write!(self.out, " [{attribute}]");
        }
        let _ = writeln!(self.out, " -> fn {}", self.names.function(entry.function));
    }

    fn attributes(&self, attrs: &EntryPointAttributes) -> Vec<String> {
        let mut out = Vec::new();
        if let Some([x, y, z]) = attrs.workgroup_size {
            out.push(format!("numthreads({x}, {y}, {z})"));
        }
        if let Some(domain) = attrs.domain {
            out.push(format!("domain(\"{}\")", tess_domain(domain)));
        }
        if let Some(partitioning) = attrs.partitioning {
            out.push(format!("partitioning(\"{}\")", partitioning.name()));
        }
        if let Some(topology) = attrs.output_topology {
            out.push(format!("outputtopology(\"{}\")", topology.name()));
        }
        if let Some(n) = attrs.output_control_points {
            out.push(format!("outputcontrolpoints({n})"));
        }
        if let Some(func) = attrs.patch_constant_func {
            out.push(format!(
                "patchconstantfunc(\"{}\")",
                self.names.function(func)
            ));
        }
        if let Some(factor) = attrs.max_tess_factor {
            out.push(format!("maxtessfactor({factor:?})"));
        }
        if let Some(n) = attrs.max_vertex_count {
            out.push(format!("maxvertexcount({n})"));
        }
        if let Some(n) = attrs.instances {
            out.push(format!("instance({n})"));
        }
        for decl in &attrs.stream_output {
            out.push(format!("StreamOutput({}, {:?})", decl.stream, decl.text));
        }
        for stride in &attrs.stream_output_strides {
            out.push(format!(
                "StreamOutputStride({}, {})",
                stride.slot, stride.stride
            ));
        }
        if attrs.early_depth_stencil {
            out.push("earlydepthstencil".to_string());
        }
        for (on, name) in [
            (attrs.quad_derivatives, "QuadDerivatives"),
            (attrs.require_full_quads, "RequireFullQuads"),
            (attrs.maximally_reconverges, "MaximallyReconverges"),
            (attrs.pixel_interlock, "PixelInterlockOrdered"),
        ] {
            if on {
                out.push(name.to_string());
            }
        }
        out
    }
}

fn mark_declared(block: &Block, declared: &mut [bool]) {
    for stmt in &block.stmts {
        match stmt {
            Statement::Declare { local, .. } => {
                if let Some(flag) = declared.get_mut(local.index()) {
                    *flag = true;
                }
            }
            Statement::Block(b) => mark_declared(b, declared),
            Statement::If { accept, reject, .. } => {
                mark_declared(accept, declared);
                mark_declared(reject, declared);
            }
            Statement::For {
                init, update, body, ..
            } => {
                mark_declared(init, declared);
                mark_declared(update, declared);
                mark_declared(body, declared);
            }
            Statement::While { body, .. } | Statement::DoWhile { body, .. } => {
                mark_declared(body, declared)
            }
            Statement::Switch { cases, .. } => {
                for case in cases {
                    mark_declared(&case.body, declared);
                }
            }
            Statement::Store { .. }
            | Statement::Expr(_)
            | Statement::Break
            | Statement::Continue
            | Statement::Return(_)
            | Statement::Discard
            | Statement::EmitVertex { .. }
            | Statement::EndPrimitive { .. }
            | Statement::PatchBarrier
            | Statement::Printf { .. } => {}
        }
    }
}

/// `[[vk::location(3)]] [[vk::index(1)]] nointerpolation centroid `.
fn io_prefix(io: &IoAttrs) -> String {
    let mut text = String::new();
    if let Some(location) = io.explicit_location {
        let _ = write!(text, "[[vk::location({location})]] ");
    }
    if let Some(index) = io.explicit_index {
        let _ = write!(text, "[[vk::index({index})]] ");
    }
    for word in interpolation_words(io.interpolation) {
        text.push_str(word);
        text.push(' ');
    }
    text
}

/// ` : SV_Position`, ` : builtin(SV_ClipDistance[1])`, ` : location(3, ...)`.
fn binding_suffix(io: &IoAttrs) -> String {
    match &io.binding {
        None => String::new(),
        Some(Binding::Semantic(semantic)) => format!(" : {}", semantic_text(semantic)),
        Some(Binding::PrimitiveIndices) => " : primitive_indices".to_string(),
        Some(Binding::BuiltIn(builtin)) => match builtin.array_index {
            Some(i) => format!(" : builtin({}[{i}])", builtin.value.name()),
            None => format!(" : builtin({})", builtin.value.name()),
        },
        Some(Binding::Location {
            location,
            component,
            index,
            interpolation,
            patch,
            per_primitive,
            per_vertex,
        }) => {
            let mut parts = vec![location.to_string()];
            if *component != 0 {
                parts.push(format!("component = {component}"));
            }
            if let Some(index) = index {
                parts.push(format!("index = {index}"));
            }
            if !interpolation.is_default() {
                parts.push(interpolation_words(*interpolation).join(" "));
            }
            if *patch {
                parts.push("patch".to_string());
            }
            if *per_primitive {
                parts.push("per_primitive".to_string());
            }
            if *per_vertex {
                parts.push("per_vertex".to_string());
            }
            format!(" : location({})", parts.join(", "))
        }
    }
}

/// Unlike `Semantic`'s `Display`, shows a non-zero index even on system
/// values that do not take one (`SV_Position1`), so the dump hides nothing.
fn semantic_text(semantic: &Semantic) -> String {
    match semantic {
        Semantic::System { value, index: 0 } => value.name().to_string(),
        Semantic::System { value, index } => format!("{}{index}", value.name()),
        _ => semantic.to_string(),
    }
}

fn interpolation_words(interpolation: Interpolation) -> Vec<&'static str> {
    let mode = interpolation.mode.map(|mode| match mode {
        InterpolationMode::Linear => "linear",
        InterpolationMode::Flat => "nointerpolation",
        InterpolationMode::NoPerspective => "noperspective",
    });
    let sampling = interpolation.sampling.map(|sampling| match sampling {
        Sampling::Centroid => "centroid",
        Sampling::Sample => "sample",
    });
    mode.into_iter().chain(sampling).collect()
}

fn matrix_layout(layout: Option<MatrixLayout>) -> &'static str {
    match layout {
        None => "",
        Some(MatrixLayout::RowMajor) => "row_major ",
        Some(MatrixLayout::ColumnMajor) => "column_major ",
    }
}

fn tess_domain(domain: TessDomain) -> &'static str {
    match domain {
        TessDomain::Tri => "tri",
        TessDomain::Quad => "quad",
        TessDomain::Isoline => "isoline",
    }
}

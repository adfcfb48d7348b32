//! The leaf walk the WGSL and Metal legalizers share: every parameter and
//! the result of an entry point, nested structs flattened into one leaf
//! per field (a field's interpolation inherits its struct's), in
//! declaration order, parameters first. Uniform parameters and resources
//! are one leaf each, decided at once; each target decides the rest from
//! its own column of the system-value table.

use legalis_ir as ir;
use legalis_ir::diag::Diagnostic;
use legalis_ir::{Handle, Span, SystemValue, Type, TypeInner};
use legalis_sysval::Direction;

use super::plan::{FamilyTarget, Reason, Root};

/// A leaf before locations are assigned. `T` is its decided place (the
/// target's target and a reason).
#[derive(Clone, Debug)]
pub struct RawLeaf<T> {
    pub path: String,
    pub root: Root,
    pub members: Vec<u32>,
    pub direction: Direction,
    /// A field of a mesh function's `out vertices`/`out primitives`
    /// element (Metal, B21).
    pub mesh: Option<ir::MeshOutputKind>,
    pub ty: Handle<Type>,
    pub io: ir::IoAttrs,
    pub span: Span,
    /// Builtins and uniforms are decided by the target, locations later.
    pub target: Option<T>,
    /// For `SV_Target2`: the location the semantic index fixes.
    pub fixed_location: Option<u32>,
    /// A row of a matrix varying: the HLSL row and the matrix's rows. A
    /// matrix is one leaf per row where the rules say so, each a vector
    /// (`ty`) at its own location, the rows at consecutive ones.
    pub row: Option<(u32, u32)>,
}

/// What differs between the targets' walks.
#[derive(Clone)]
pub struct Rules<T> {
    /// The place of an entry-point `uniform` parameter or resource.
    pub uniform: T,
    /// Whether a matrix user varying is one leaf per HLSL row
    /// ([`RawLeaf::row`]): WGSL and Metal pass vectors, not matrices.
    pub matrix_rows: bool,
    /// The code of a value that cannot be a varying at all, and what its
    /// message says it cannot be (`a WGSL varying: ` and why).
    pub shape_code: u32,
    pub not_a: &'static str,
}

/// Where the walk is.
pub struct Walk {
    pub root: Root,
    pub direction: Direction,
    pub path: String,
    pub members: Vec<u32>,
}

/// Every leaf of `func`'s signature. `special` may take a parameter
/// first (Metal's payload and mesh outputs): it returns whether it did.
pub fn collect<T: Clone>(
    module: &ir::Module,
    func: &ir::Function,
    rules: &Rules<T>,
    mut special: impl FnMut(u32, &ir::FunctionParam, &mut Vec<RawLeaf<T>>, &mut Vec<Diagnostic>) -> bool,
) -> Result<Vec<RawLeaf<T>>, Vec<Diagnostic>> {
    let mut leaves = Vec::new();
    let mut errors = Vec::new();
    for (index, param) in func.params.iter().enumerate() {
        let root = Root::Param(index as u32);
        // A resource, or an array of them, is a binding, as on GLSL.
        if param.role == ir::ParamRole::Uniform || module.is_resource_type(param.ty) {
            leaves.push(RawLeaf {
                path: param.name.clone(),
                root,
                members: Vec::new(),
                direction: Direction::Input,
                mesh: None,
                ty: param.ty,
                io: param.io.clone(),
                span: param.span,
                target: Some(rules.uniform.clone()),
                fixed_location: None,
                row: None,
            });
            continue;
        }
        if special(index as u32, param, &mut leaves, &mut errors) {
            continue;
        }
        for &direction in directions(param.direction) {
            let at = Walk {
                root: root.clone(),
                direction,
                path: param.name.clone(),
                members: Vec::new(),
            };
            walk(
                module,
                rules,
                at,
                param.ty,
                &param.io,
                param.span,
                &mut leaves,
                &mut errors,
            );
        }
    }
    if let Some(result) = &func.result {
        let at = Walk {
            root: Root::Result,
            direction: Direction::Output,
            path: "return".into(),
            members: Vec::new(),
        };
        walk(
            module,
            rules,
            at,
            result.ty,
            &result.io,
            result.span,
            &mut leaves,
            &mut errors,
        );
    }
    collected(leaves, errors)
}

/// The leaves a walk collected, or its errors if it had any.
pub(crate) fn collected<L>(
    leaves: Vec<L>,
    errors: Vec<Diagnostic>,
) -> Result<Vec<L>, Vec<Diagnostic>> {
    if errors.is_empty() {
        Ok(leaves)
    } else {
        Err(errors)
    }
}

/// Flattens structs into their fields, at any depth; a scalar, vector,
/// matrix or array is one leaf (a matrix one per row where the rules say
/// so); anything else is refused at its declaration.
#[allow(clippy::too_many_arguments)]
pub fn walk<T>(
    module: &ir::Module,
    rules: &Rules<T>,
    at: Walk,
    ty: Handle<Type>,
    io: &ir::IoAttrs,
    span: Span,
    leaves: &mut Vec<RawLeaf<T>>,
    errors: &mut Vec<Diagnostic>,
) {
    let inner = module.types.try_get(ty).map(|t| &t.inner);
    // A matrix user varying is one leaf per row where the rules say so.
    let split = rules.matrix_rows
        && !matches!(
            semantic(io),
            Some(ir::Semantic::System { .. } | ir::Semantic::UnknownSystem { .. })
        );
    let rows = match inner {
        Some(&TypeInner::Matrix {
            rows,
            columns,
            scalar,
        }) if split => module
            .types
            .get(&row_type(columns, scalar))
            .map(|row_ty| (rows, row_ty)),
        _ => None,
    };
    if let Some((rows, row_ty)) = rows {
        for k in 0..u32::from(rows) {
            leaves.push(RawLeaf {
                path: format!("{}[{k}]", at.path),
                root: at.root.clone(),
                members: at.members.clone(),
                direction: at.direction,
                mesh: None,
                ty: row_ty,
                io: row_io(io, k),
                span,
                target: None,
                fixed_location: None,
                row: Some((k, u32::from(rows))),
            });
        }
        return;
    }
    match inner {
        Some(TypeInner::Struct { members }) => {
            for field in fields(members, io, &at.path, &at.members) {
                let next = Walk {
                    root: at.root.clone(),
                    direction: at.direction,
                    path: field.path,
                    members: field.members,
                };
                walk(
                    module,
                    rules,
                    next,
                    field.member.ty,
                    &field.io,
                    field.member.span,
                    leaves,
                    errors,
                );
            }
        }
        Some(TypeInner::Scalar(_) | TypeInner::Vector { .. }) => {}
        // Leaves too, for the target's own shape check to refuse (but for
        // clip-distance arrays), or the system value's.
        Some(TypeInner::Matrix { .. } | TypeInner::Array { .. }) => {}
        _ => {
            let name = ir::print::type_name(module, ty);
            errors.push(Diagnostic::error(
                rules.shape_code,
                format!("`{}` of type `{name}` cannot be {}", at.path, rules.not_a),
                span,
            ));
            return;
        }
    }
    if !matches!(inner, Some(TypeInner::Struct { .. })) {
        leaves.push(RawLeaf {
            path: at.path,
            root: at.root,
            members: at.members,
            direction: at.direction,
            mesh: None,
            ty,
            io: io.clone(),
            span,
            target: None,
            fixed_location: None,
            row: None,
        });
    }
}

/// The type of one row of an HLSL matrix of `columns` columns: a vector,
/// or a scalar for one column.
fn row_type(columns: u8, scalar: ir::Scalar) -> Type {
    let inner = match columns {
        1 => TypeInner::Scalar(scalar),
        size => TypeInner::Vector { size, scalar },
    };
    Type { name: None, inner }
}

/// The attributes of row `k` of a matrix declared with `io`: row `k` of
/// `TEXCOORD0` is `TEXCOORD{k}` (a matrix takes one semantic index per
/// row, as D3D counts them), and row `k` of `[[vk::location(n)]]` is at
/// `n + k`.
fn row_io(io: &ir::IoAttrs, k: u32) -> ir::IoAttrs {
    let mut io = io.clone();
    if let Some(ir::Binding::Semantic(ir::Semantic::User { index, .. })) = &mut io.binding {
        *index = index.saturating_add(k);
    }
    if let Some(location) = &mut io.explicit_location {
        *location = location.saturating_add(k);
    }
    io
}

/// What a refusal of `leaf` names: its path and its type, the whole
/// matrix's for a matrix's first row (`return.m`, `double4x4`); `None`
/// for the other rows, so that a declaration is refused once.
pub(crate) fn refused_as<T>(module: &ir::Module, leaf: &RawLeaf<T>) -> Option<(String, String)> {
    match leaf.row {
        Some((0, rows)) => {
            let path = leaf.path.strip_suffix("[0]").unwrap_or(&leaf.path);
            let inner = module.types.try_get(leaf.ty).map(|t| &t.inner);
            let columns = match inner {
                Some(TypeInner::Vector { size, .. }) => *size,
                _ => 1,
            };
            let scalar = inner.and_then(|t| t.scalar()).map_or("", |s| s.name());
            Some((path.to_string(), format!("{scalar}{rows}x{columns}")))
        }
        Some(_) => None,
        None => Some((leaf.path.clone(), ir::print::type_name(module, leaf.ty))),
    }
}

/// `module`, with the row type of every matrix its entry point `func`
/// passes interned ([`RawLeaf::row`]): borrowed when it has them all.
pub(crate) fn with_row_types<'m>(
    module: &'m ir::Module,
    func: &ir::Function,
) -> std::borrow::Cow<'m, ir::Module> {
    let mut missing = Vec::new();
    let mut pending: Vec<Handle<Type>> = func.params.iter().map(|p| p.ty).collect();
    pending.extend(func.result.as_ref().map(|r| r.ty));
    let mut seen = legalis_ir::FastHashSet::default();
    while let Some(ty) = pending.pop() {
        if !seen.insert(ty) {
            continue;
        }
        match module.types.try_get(ty).map(|t| &t.inner) {
            Some(TypeInner::Struct { members }) => pending.extend(members.iter().map(|m| m.ty)),
            Some(&TypeInner::Matrix {
                columns, scalar, ..
            }) => {
                let row = row_type(columns, scalar);
                if module.types.get(&row).is_none() && !missing.contains(&row) {
                    missing.push(row);
                }
            }
            _ => {}
        }
    }
    if missing.is_empty() {
        return std::borrow::Cow::Borrowed(module);
    }
    let mut module = module.clone();
    for row in missing {
        module.types.insert(row, Span::UNDEFINED);
    }
    std::borrow::Cow::Owned(module)
}

/// One field of a struct the walk flattens.
pub(crate) struct Field<'a> {
    pub member: &'a ir::StructMember,
    /// The member's attributes, its interpolation inherited from the
    /// struct's where it declares none.
    pub io: ir::IoAttrs,
    /// `path.member`.
    pub path: String,
    /// The struct's member indices, then the field's.
    pub members: Vec<u32>,
}

/// The fields of a struct declared with `io`, reached at `path` by the
/// member indices `indices`: what every leaf walk (GLSL's too) descends
/// into.
pub(crate) fn fields<'a>(
    members: &'a [ir::StructMember],
    io: &'a ir::IoAttrs,
    path: &'a str,
    indices: &'a [u32],
) -> impl Iterator<Item = Field<'a>> + 'a {
    members.iter().enumerate().map(move |(index, member)| {
        let mut member_io = member.io.clone();
        if member_io.interpolation.is_default() {
            member_io.interpolation = io.interpolation;
        }
        let mut members = Vec::with_capacity(indices.len() + 1);
        members.extend_from_slice(indices);
        members.push(index as u32);
        let mut text = String::with_capacity(path.len() + 1 + member.name.len());
        text.push_str(path);
        text.push('.');
        text.push_str(&member.name);
        Field {
            member,
            io: member_io,
            path: text,
            members,
        }
    })
}

/// The semantic `io` declares, if any.
pub(crate) fn semantic(io: &ir::IoAttrs) -> Option<&ir::Semantic> {
    match &io.binding {
        Some(ir::Binding::Semantic(s)) => Some(s),
        _ => None,
    }
}

/// The stage directions a parameter declared `direction` crosses.
pub(crate) fn directions(direction: ir::ParamDirection) -> &'static [Direction] {
    match direction {
        ir::ParamDirection::In => &[Direction::Input],
        ir::ParamDirection::Out => &[Direction::Output],
        ir::ParamDirection::InOut => &[Direction::Input, Direction::Output],
    }
}

/// `flat`, which has no sampling: integers and one value per primitive.
pub(crate) const FLAT: ir::Interpolation = ir::Interpolation {
    mode: Some(ir::InterpolationMode::Flat),
    sampling: None,
};

/// Whether `ty` is an integer scalar or vector (always `flat`).
pub(crate) fn is_integer(module: &ir::Module, ty: Handle<Type>) -> bool {
    module
        .types
        .try_get(ty)
        .and_then(|t| t.inner.scalar())
        .is_some_and(|s| matches!(s.kind, ir::ScalarKind::Sint | ir::ScalarKind::Uint))
}

/// The scalar of a scalar or vector type; `None` for any other type.
pub(crate) fn scalar_or_vector(module: &ir::Module, ty: Handle<Type>) -> Option<ir::Scalar> {
    match module.types.try_get(ty).map(|t| &t.inner) {
        Some(TypeInner::Scalar(s)) => Some(*s),
        Some(TypeInner::Vector { scalar, .. }) => Some(*scalar),
        _ => None,
    }
}

/// A `half` scalar or vector (`min16float`, `float16_t`).
pub(crate) fn is_half(module: &ir::Module, ty: Handle<Type>) -> bool {
    scalar_or_vector(module, ty).is_some_and(|s| s == ir::Scalar::F16)
}

/// Two leaves on one location: the error `code` at the `second` leaf's
/// declaration (path, span), labelled at the `first`'s.
pub(crate) fn location_conflict(
    code: u32,
    location: u32,
    first: (&str, Span),
    second: (&str, Span),
) -> Diagnostic {
    let message = format!(
        "`{}` and `{}` both use location {location}",
        first.0, second.0
    );
    Diagnostic::error(code, message, second.1).with_label(first.1, "the other one")
}

/// A system value the target cannot express: the error `code` at `span`,
/// `message` saying why.
pub(crate) fn unsupported_system_value(code: u32, message: String, span: Span) -> Diagnostic {
    Diagnostic::error(code, "system value semantic not supported", span)
        .with_primary_message(message)
}

/// What one target's column decides in [`map_system_values`] (WGSL,
/// Metal): the walk is the same, the column and the codes are not.
pub(crate) trait Column<T> {
    /// The code of an unknown `SV_*` semantic.
    const UNKNOWN_SYSTEM_VALUE: u32;
    /// The code of a system value the target cannot express, and its
    /// message.
    const UNSUPPORTED: (u32, fn(ir::SystemValue) -> String);
    /// The entry point's stage.
    fn stage(&self) -> ir::ShaderStage;
    /// Decides `leaf`, declared with system value `sv` (semantic index
    /// `index`), from the column, or says why the target cannot.
    fn system_value(
        &self,
        leaf: &mut RawLeaf<T>,
        sv: SystemValue,
        index: u32,
    ) -> Option<Diagnostic>;
    /// The error of a user varying where the stage takes none.
    fn user_varying(&self, leaf: &RawLeaf<T>) -> Option<Diagnostic>;
    /// The error of a leaf still undecided whose type cannot be a
    /// varying; `refused` when the leaf has an error already.
    fn shape(&self, leaf: &RawLeaf<T>, refused: bool) -> Option<Diagnostic>;

    /// A system value the column refuses with `code`: the column's own
    /// message for its "not expressible" code ([`Column::UNSUPPORTED`]),
    /// otherwise that the stage has no such value in the leaf's direction
    /// ("an input", "an output").
    fn refused(&self, code: u32, value: SystemValue, leaf: &RawLeaf<T>) -> Diagnostic {
        let message = if code == Self::UNSUPPORTED.0 {
            (Self::UNSUPPORTED.1)(value)
        } else {
            format!(
                "`{}` cannot be an {} of a {} entry point",
                value.name(),
                leaf.direction.name(),
                self.stage().name()
            )
        };
        unsupported_system_value(code, message, leaf.span)
    }
}

/// Decides every undecided leaf that is a system value from `column`;
/// the others stay for location assignment. Returns the errors.
pub(crate) fn map_system_values<T, C: Column<T>>(
    leaves: &mut [RawLeaf<T>],
    column: &C,
) -> Vec<Diagnostic> {
    let mut errors = Vec::new();
    for leaf in leaves.iter_mut() {
        if leaf.target.is_some() {
            continue;
        }
        let semantic = semantic(&leaf.io).cloned();
        let reported = errors.len();
        match semantic {
            Some(ir::Semantic::System { value, index }) => {
                errors.extend(column.system_value(leaf, value, index))
            }
            Some(ir::Semantic::UnknownSystem { name, .. }) => errors.push(Diagnostic::error(
                C::UNKNOWN_SYSTEM_VALUE,
                format!("unknown system-value semantic '{name}'"),
                leaf.span,
            )),
            _ => errors.extend(column.user_varying(leaf)),
        }
        let refused = errors.len() > reported;
        if leaf.target.is_none() {
            errors.extend(column.shape(leaf, refused));
        }
    }
    errors
}

/// The first element of each clip- or cull-distance register in the one
/// array the distances are packed into, and the array's length, every
/// target's (GLSL's too): D3D packs each semantic index as a register of
/// up to four components (`widths`: register → its components), and the
/// registers follow each other in semantic-index order. So `float4`s at
/// `SV_ClipDistance0` and `SV_ClipDistance1` are elements 0 to 3 and 4 to
/// 7, and scalars at `SV_ClipDistance0` and `SV_ClipDistance2` elements 0
/// and 1, as DXC and glslang's HLSL front end pack them.
pub(crate) fn register_offsets(
    widths: &std::collections::BTreeMap<u32, u32>,
) -> (std::collections::BTreeMap<u32, u32>, u32) {
    let mut offsets = std::collections::BTreeMap::new();
    let mut next = 0u32;
    for (&register, &width) in widths {
        offsets.insert(register, next);
        next = next.saturating_add(width);
    }
    (offsets, next)
}

/// The most distances a WGSL or Metal vertex function writes: WebGPU's
/// `clip_distances` and Metal's `[[clip_distance]]` hold eight, as GLSL's
/// `gl_MaxClipDistances` guarantees.
const MAX_DISTANCES: u32 = 8;

/// The registers a distance of type `ty` declared at semantic index
/// `first` takes, with their widths: a scalar or vector is one register,
/// an array of `k` scalars `k` registers from `first`.
fn distance_registers(module: &ir::Module, ty: Handle<Type>, first: u32) -> Vec<(u32, u32)> {
    match module.types.try_get(ty).map(|t| &t.inner) {
        Some(TypeInner::Array {
            size: ir::ArraySize::Constant(k),
            ..
        }) => (0..*k).map(|i| (first.saturating_add(i), 1)).collect(),
        Some(TypeInner::Vector { size, .. }) => vec![(first, u32::from(*size))],
        _ => vec![(first, 1)],
    }
}

/// How many distances a value of type `ty` holds: the elements a leaf
/// fills, in order (array elements, vector components, or the scalar).
pub(crate) fn distance_count(module: &ir::Module, ty: Handle<Type>) -> u32 {
    distance_registers(module, ty, 0).iter().map(|r| r.1).sum()
}

/// WGSL's and Metal's clip distances: every leaf gathered into a builtin
/// array (whose target's element is still its semantic index) gets the
/// first element it fills, as [`register_offsets`] packs the registers.
/// A leaf's registers follow each other, so its elements do too. Two
/// leaves on one register, or more than eight distances in all, are the
/// error `code`.
pub(crate) fn pack_distances<T: FamilyTarget>(
    module: &ir::Module,
    leaves: &mut [RawLeaf<(T, Reason)>],
    code: u32,
) -> Vec<Diagnostic> {
    let mut errors = Vec::new();
    // Each direction's builtin arrays, one at a time.
    let mut arrays: Vec<(Direction, SystemValue)> = Vec::new();
    for leaf in leaves.iter_mut() {
        if let Some((target, _)) = &mut leaf.target
            && target.element_mut().is_some()
            && let Some(value) = target.builtin()
            && !arrays.contains(&(leaf.direction, value))
        {
            arrays.push((leaf.direction, value));
        }
    }
    for (direction, value) in arrays {
        // Register → its width and the leaf that has it.
        let mut registers: std::collections::BTreeMap<u32, (u32, usize)> = Default::default();
        let mut firsts = Vec::new();
        for (i, leaf) in leaves.iter().enumerate() {
            let Some((target, _)) = &leaf.target else {
                continue;
            };
            let ours = leaf.direction == direction && target.builtin() == Some(value);
            let Some(first) = target.element().filter(|_| ours) else {
                continue;
            };
            firsts.push((i, first));
            for (register, width) in distance_registers(module, leaf.ty, first) {
                if let Some(&(_, other)) = registers.get(&register) {
                    let other = &leaves[other];
                    let message = format!(
                        "`{}` and `{}` both write `{}{register}`: each semantic index is one register of up to four distances",
                        other.path,
                        leaf.path,
                        value.name()
                    );
                    errors.push(
                        Diagnostic::error(code, message, leaf.span)
                            .with_label(other.span, "the other one"),
                    );
                    continue;
                }
                registers.insert(register, (width, i));
            }
        }
        let widths = registers.iter().map(|(&r, &(w, _))| (r, w)).collect();
        let (offsets, total) = register_offsets(&widths);
        if let Some((_, &(_, past))) = registers
            .iter()
            .find(|(r, (w, _))| offsets[*r] + w > MAX_DISTANCES)
        {
            let leaf = &leaves[past];
            errors.push(Diagnostic::error(
                code,
                format!(
                    "`{}` makes {total} `{}` values: the target holds {MAX_DISTANCES} in all",
                    leaf.path,
                    value.name()
                ),
                leaf.span,
            ));
        }
        for (i, first) in firsts {
            if let Some((target, _)) = &mut leaves[i].target
                && let Some(element) = target.element_mut()
            {
                *element = offsets[&first];
            }
        }
    }
    errors
}

/// The blend source a fragment output writes, as location numbering sees
/// it: `[[vk::index(1)]]` is the second source of dual-source blending,
/// which shares location 0 with the first; every other leaf is source 0.
pub(crate) fn blend_source(io: &ir::IoAttrs) -> u32 {
    u32::from(io.explicit_index.is_some_and(|i| i > 0))
}

/// A leaf with its location decided, as [`blend_index_errors`] sees it.
pub(crate) struct Located<'a> {
    pub direction: Direction,
    pub io: &'a ir::IoAttrs,
    pub location: u32,
    pub path: &'a str,
    pub span: Span,
}

/// The errors of `[[vk::index(n)]]`, every target's: dual-source blending
/// gives a fragment output a second source, index 1, at location 0 only
/// (Vulkan's `maxFragmentDualSrcAttachments`, Metal's `[[color(0),
/// index(1)]]`, WGSL's `@location(0) @blend_src(1)`), so an index on
/// anything else, an index past 1, or index 1 at another location is the
/// error `code`.
pub(crate) fn blend_index_errors<'a>(
    stage: ir::ShaderStage,
    code: u32,
    leaves: impl IntoIterator<Item = Located<'a>>,
) -> Vec<Diagnostic> {
    let mut errors = Vec::new();
    for leaf in leaves {
        let Some(index) = leaf.io.explicit_index else {
            continue;
        };
        let path = leaf.path;
        let message = if stage != ir::ShaderStage::Fragment || leaf.direction != Direction::Output {
            format!(
                "`{path}` has `[[vk::index({index})]]`, a dual-source blending index: only a fragment output has one"
            )
        } else if index > 1 {
            format!(
                "`{path}` has `[[vk::index({index})]]`: dual-source blending has sources 0 and 1 only"
            )
        } else if index == 1 && leaf.location != 0 {
            format!(
                "`{path}` is the second source of dual-source blending (`[[vk::index(1)]]`) at location {}: the second source blends at location 0 only; add `[[vk::location(0)]]`",
                leaf.location
            )
        } else {
            continue;
        };
        errors.push(Diagnostic::error(code, message, leaf.span));
    }
    errors
}

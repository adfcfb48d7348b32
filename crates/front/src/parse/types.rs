//! Type expressions, the modifier vocabulary, and the token look-ahead that
//! decides whether a type starts here.

use crate::{
    ast::{ARRAY_TYPE, GenericArg, MEMBER_TYPE, Modifier, ModifierKind, POINTER_TYPE, TypeExpr},
    lexer::TokenKind,
};

use super::Parser;

/// Scalar type names; each also names vectors (`float4`) and matrices
/// (`float4x4`) with a dimension suffix.
fn is_scalar_name(name: &str) -> bool {
    matches!(
        name,
        "bool"
            | "int"
            | "uint"
            | "dword"
            | "half"
            | "float"
            | "double"
            | "min16float"
            | "min10float"
            | "min16int"
            | "min12int"
            | "min16uint"
            | "int8_t"
            | "uint8_t"
            | "int16_t"
            | "uint16_t"
            | "int32_t"
            | "uint32_t"
            | "int64_t"
            | "uint64_t"
            | "float16_t"
            | "float32_t"
            | "float64_t"
    )
}

/// Builtin type names that are not scalar, vector or matrix names.
fn is_named_builtin(name: &str) -> bool {
    matches!(
        name,
        "void"
            | "vector"
            | "matrix"
            | "Texture1D"
            | "Texture1DArray"
            | "Texture2D"
            | "Texture2DArray"
            | "Texture2DMS"
            | "Texture2DMSArray"
            | "Texture3D"
            | "TextureCube"
            | "TextureCubeArray"
            | "RWTexture1D"
            | "RWTexture1DArray"
            | "RWTexture2D"
            | "RWTexture2DArray"
            | "RWTexture3D"
            | "RasterizerOrderedTexture1D"
            | "RasterizerOrderedTexture1DArray"
            | "RasterizerOrderedTexture2D"
            | "RasterizerOrderedTexture2DArray"
            | "RasterizerOrderedTexture3D"
            | "Buffer"
            | "RWBuffer"
            | "RasterizerOrderedBuffer"
            | "ByteAddressBuffer"
            | "RWByteAddressBuffer"
            | "RasterizerOrderedByteAddressBuffer"
            | "StructuredBuffer"
            | "RWStructuredBuffer"
            | "RasterizerOrderedStructuredBuffer"
            | "AppendStructuredBuffer"
            | "ConsumeStructuredBuffer"
            | "ConstantBuffer"
            | "TextureBuffer"
            | "ParameterBlock"
            | "Optional"
            | "Conditional"
            | "SamplerState"
            | "SamplerComparisonState"
            | "sampler"
            | "sampler1D"
            | "sampler2D"
            | "sampler3D"
            | "samplerCUBE"
            | "InputPatch"
            | "OutputPatch"
            | "PointStream"
            | "LineStream"
            | "TriangleStream"
            | "OutputVertices"
            | "OutputIndices"
            | "OutputPrimitives"
            | "RayDesc"
            | "RayQuery"
            | "RaytracingAccelerationStructure"
            | "SubpassInput"
            | "SubpassInputMS"
            | "BuiltInTriangleIntersectionAttributes"
            | "HitObject"
            | "DescriptorHandle"
    )
}

/// Whether `name` is a builtin type: a scalar, vector or matrix name,
/// `vector`/`matrix`, a resource, stream, patch or ray-tracing type.
pub(super) fn is_builtin_type_name(name: &str) -> bool {
    if is_scalar_name(name) || is_named_builtin(name) {
        return true;
    }
    let bytes = name.as_bytes();
    let len = bytes.len();
    let is_dim = |c: u8| (b'1'..=b'4').contains(&c);
    if len < 2 || !is_dim(bytes[len - 1]) {
        return false;
    }
    if len >= 4 && bytes[len - 2] == b'x' && is_dim(bytes[len - 3]) {
        return is_scalar_name(&name[..len - 3]);
    }
    is_scalar_name(&name[..len - 1])
}

/// Whether a modifier word always is one, or only when a type and a name
/// follow it (`line`, `point`, `sample` ... are also ordinary identifiers).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum ModifierClass {
    Always,
    Contextual,
}

pub(super) fn modifier_kind(word: &str) -> Option<(ModifierKind, ModifierClass)> {
    use ModifierClass::{Always, Contextual};
    use ModifierKind as M;
    let found = match word {
        "static" => (M::Static, Always),
        "const" => (M::Const, Always),
        "uniform" => (M::Uniform, Always),
        "extern" => (M::Extern, Always),
        "volatile" => (M::Volatile, Always),
        "inline" => (M::Inline, Always),
        "precise" => (M::Precise, Always),
        "groupshared" => (M::GroupShared, Always),
        "globallycoherent" => (M::GloballyCoherent, Always),
        "in" => (M::In, Always),
        "out" => (M::Out, Always),
        "inout" => (M::InOut, Always),
        "nointerpolation" => (M::NoInterpolation, Always),
        "noperspective" => (M::NoPerspective, Always),
        "centroid" => (M::Centroid, Always),
        "row_major" => (M::RowMajor, Always),
        "column_major" => (M::ColumnMajor, Always),
        "unorm" => (M::Unorm, Always),
        "snorm" => (M::Snorm, Always),
        "linear" => (M::Linear, Contextual),
        "sample" => (M::Sample, Contextual),
        "point" => (M::Point, Contextual),
        "line" => (M::Line, Contextual),
        "triangle" => (M::Triangle, Contextual),
        "lineadj" => (M::LineAdj, Contextual),
        "triangleadj" => (M::TriangleAdj, Contextual),
        "vertices" => (M::Vertices, Contextual),
        "indices" => (M::Indices, Contextual),
        "primitives" => (M::Primitives, Contextual),
        "payload" => (M::Payload, Contextual),
        _ => return None,
    };
    Some(found)
}

pub(super) fn is_always_modifier(word: &str) -> bool {
    matches!(modifier_kind(word), Some((_, ModifierClass::Always)))
}

/// Modifiers that belong to the type rather than to the declaration.
/// (`const` written inside generic arguments or a cast is a type modifier
/// too; in a declaration it qualifies the declared name.)
pub(super) fn is_type_modifier(kind: ModifierKind) -> bool {
    matches!(
        kind,
        ModifierKind::Unorm
            | ModifierKind::Snorm
            | ModifierKind::RowMajor
            | ModifierKind::ColumnMajor
    )
}

/// The words [`Parser::type_expr`] reads as modifiers of the type itself.
fn type_modifier_word(word: &str) -> Option<ModifierKind> {
    match word {
        "const" => Some(ModifierKind::Const),
        "unorm" => Some(ModifierKind::Unorm),
        "snorm" => Some(ModifierKind::Snorm),
        "row_major" => Some(ModifierKind::RowMajor),
        "column_major" => Some(ModifierKind::ColumnMajor),
        _ => None,
    }
}

impl Parser<'_> {
    pub(super) fn is_type_name(&self, name: &str) -> bool {
        is_builtin_type_name(name) || self.type_names.contains(name)
    }

    /// Reads a type: type modifiers, a name and generic arguments. A missing
    /// name is reported and gives a type with an empty name.
    pub(super) fn type_expr(&mut self) -> TypeExpr {
        let start = self.peek().span;
        if !self.enter() {
            return error_type(start);
        }
        let mut ty = self.type_expr_inner();
        // `T.Handle`: Slang's shorthand for `DescriptorHandle<T>`.
        while self.at(TokenKind::Dot) && self.nth_word(1) == Some("Handle") {
            self.bump();
            self.bump();
            ty = TypeExpr {
                name: "DescriptorHandle".to_string(),
                args: vec![GenericArg::Type(ty)],
                modifiers: Vec::new(),
                span: self.span_from(start),
            };
        }
        self.leave();
        ty
    }

    fn type_expr_inner(&mut self) -> TypeExpr {
        let start = self.peek().span;
        let mut modifiers = Vec::new();
        while let Some(kind) = self.nth_word(0).and_then(type_modifier_word) {
            let tok = self.bump();
            modifiers.push(Modifier {
                kind,
                span: tok.span,
            });
        }
        if !self.at(TokenKind::Ident) {
            self.error_expected("type");
            return TypeExpr {
                modifiers,
                ..error_type(start)
            };
        }
        let name_tok = self.bump();
        let mut name = self.token_text(name_tok).to_string();
        // `N::S`: a type inside a namespace.
        while self.at(TokenKind::ColonColon) && self.nth_kind(1) == TokenKind::Ident {
            self.bump();
            let part = self.bump();
            name.push_str("::");
            name.push_str(self.token_text(part));
        }
        let mut args = Vec::new();
        if self.eat(TokenKind::Lt) {
            args = self.generic_args();
        }
        let mut ty = TypeExpr {
            name,
            args,
            modifiers,
            span: self.span_from(start),
        };
        // `S<float, 3>.VecT`, `S<float, 3>::VecT`: a struct's type alias.
        while !ty.args.is_empty() && self.member_type_ahead(0) {
            self.bump();
            let member = self.bump();
            ty = TypeExpr {
                name: format!("{MEMBER_TYPE}{}", self.token_text(member)),
                args: vec![GenericArg::Type(ty)],
                modifiers: Vec::new(),
                span: self.span_from(start),
            };
        }
        // `T*`, `T**`: pointer types, after a type name only, so that
        // `a * b` stays a product.
        let mut stars = 0;
        while self.pointer_star_ahead(0, &ty.name) {
            self.bump();
            stars += 1;
            ty = TypeExpr {
                name: POINTER_TYPE.to_string(),
                args: vec![GenericArg::Type(ty)],
                modifiers: Vec::new(),
                span: self.span_from(start),
            };
            if stars > 8 {
                break;
            }
        }
        ty
    }

    /// Whether the `*` at offset `i` makes a pointer type of the type
    /// named `name` before it: the name is a type's, and what follows the
    /// stars can follow a type (a declared name, `)`, `>`, `,`, `[`).
    fn pointer_star_ahead(&self, i: usize, name: &str) -> bool {
        if self.nth_kind(i) != TokenKind::Star || !self.is_type_name(name) {
            return false;
        }
        let mut j = i;
        while self.nth_kind(j) == TokenKind::Star {
            j += 1;
        }
        matches!(
            self.nth_kind(j),
            TokenKind::Ident
                | TokenKind::RParen
                | TokenKind::Gt
                | TokenKind::Shr
                | TokenKind::Comma
                | TokenKind::LBracket
        )
    }

    /// Generic arguments after `<`, through the closing `>`.
    pub(super) fn generic_args(&mut self) -> Vec<GenericArg> {
        let mut args = Vec::new();
        if self.close_generic() {
            return args;
        }
        loop {
            let arg = self.generic_arg(args.len());
            args.push(arg);
            if self.eat(TokenKind::Comma) {
                continue;
            }
            if !self.close_generic() {
                self.error_expected("`,` or `>`");
            }
            return args;
        }
    }

    fn generic_arg(&mut self, index: usize) -> GenericArg {
        if self.generic_arg_is_type(index) {
            let ty = self.type_expr();
            if !self.at(TokenKind::LBracket) {
                return GenericArg::Type(ty);
            }
            return GenericArg::Type(self.array_type_arg(ty));
        }
        let saved = std::mem::replace(&mut self.gt_closes, true);
        let value = self.ternary_expr();
        self.gt_closes = saved;
        GenericArg::Value(value)
    }

    /// `T[N][M]` as a generic argument: an [`ARRAY_TYPE`] of `T` with the
    /// sizes; an unsized dimension is unsupported there.
    fn array_type_arg(&mut self, element: TypeExpr) -> TypeExpr {
        let start = element.span;
        let saved = std::mem::replace(&mut self.gt_closes, false);
        let dims = self.array_dims();
        self.gt_closes = saved;
        let mut args = vec![GenericArg::Type(element)];
        for dim in dims {
            match dim {
                Some(size) => args.push(GenericArg::Value(size)),
                None => {
                    let span = self.span_from(start);
                    self.unsupported("an unsized array as a generic argument", span);
                }
            }
        }
        TypeExpr {
            name: ARRAY_TYPE.to_string(),
            args,
            modifiers: Vec::new(),
            span: self.span_from(start),
        }
    }

    /// A generic argument is a type when it starts with a type modifier or a
    /// known type name, or when it is the first argument and a lone
    /// identifier (`StructuredBuffer<S>` before `S` is declared). Anything
    /// else (`3`, `N + 1`, a later lone `N`) is a value.
    fn generic_arg_is_type(&self, index: usize) -> bool {
        let Some(word) = self.nth_word(0) else {
            return false;
        };
        if type_modifier_word(word).is_some() {
            return true;
        }
        let next = self.nth_kind(1);
        if matches!(next, TokenKind::LParen | TokenKind::ColonColon) {
            return false;
        }
        self.is_type_name(word)
            || (index == 0
                && matches!(
                    next,
                    TokenKind::Comma | TokenKind::Gt | TokenKind::Shr | TokenKind::Lt
                ))
    }

    /// Consumes a `>` closing a generic list; a `>>` closes two lists, so
    /// its second half is left for the outer one.
    fn close_generic(&mut self) -> bool {
        match self.kind() {
            TokenKind::Gt => {
                self.bump();
                true
            }
            TokenKind::Shr => {
                let mut first = self.peek();
                first.kind = TokenKind::Gt;
                first.span.end = first.span.start.saturating_add(1).min(first.span.end);
                self.split_shr = true;
                self.prev = first;
                true
            }
            _ => false,
        }
    }

    // ---- look-ahead (no tokens consumed, no diagnostics)

    /// If a type starts `i` tokens ahead, the offset just past it. Generic
    /// arguments are skipped only after known type names, where `<` cannot
    /// be a comparison.
    pub(super) fn scan_type(&self, mut i: usize) -> Option<usize> {
        while self.nth_word(i).and_then(type_modifier_word).is_some() {
            i += 1;
        }
        let name = self.nth_word(i)?;
        i += 1;
        while self.nth_kind(i) == TokenKind::ColonColon && self.nth_kind(i + 1) == TokenKind::Ident
        {
            i += 2;
        }
        if self.nth_kind(i) == TokenKind::Lt && self.is_type_name(name) {
            i = self.scan_angles(i)?;
            while self.member_type_ahead(i) {
                i += 2;
            }
        }
        if self.pointer_star_ahead(i, name) {
            while self.nth_kind(i) == TokenKind::Star {
                i += 1;
            }
        }
        Some(i)
    }

    /// Whether offset `i` starts `.Name` or `::Name` naming a type alias
    /// member (a declared type name).
    fn member_type_ahead(&self, i: usize) -> bool {
        matches!(self.nth_kind(i), TokenKind::Dot | TokenKind::ColonColon)
            && self
                .nth_word(i + 1)
                .is_some_and(|w| w != "Handle" && self.type_names.contains(w))
    }

    /// From a `<` at offset `i`, the offset past its matching `>`.
    pub(super) fn scan_angles(&self, mut i: usize) -> Option<usize> {
        let mut angles = 0i32;
        let mut parens = 0u32;
        loop {
            match self.nth_kind(i) {
                TokenKind::Lt if parens == 0 => angles += 1,
                TokenKind::Gt if parens == 0 => angles -= 1,
                TokenKind::Shr if parens == 0 => angles -= 2,
                TokenKind::LParen | TokenKind::LBracket => parens += 1,
                TokenKind::RParen | TokenKind::RBracket => parens = parens.checked_sub(1)?,
                TokenKind::Semi | TokenKind::LBrace | TokenKind::RBrace | TokenKind::Eof => {
                    return None;
                }
                _ => {}
            }
            i += 1;
            if angles <= 0 {
                return (angles == 0).then_some(i);
            }
        }
    }

    /// From a `[` at offset `i`, the offset past its matching `]`.
    pub(super) fn scan_brackets(&self, mut i: usize) -> Option<usize> {
        let mut nested = 0u32;
        loop {
            match self.nth_kind(i) {
                TokenKind::LBracket => nested += 1,
                TokenKind::RBracket => {
                    nested -= 1;
                    if nested == 0 {
                        return Some(i + 1);
                    }
                }
                TokenKind::Semi | TokenKind::LBrace | TokenKind::RBrace | TokenKind::Eof => {
                    return None;
                }
                _ => {}
            }
            i += 1;
        }
    }

    /// Whether a declaration head starts `i` tokens ahead: modifier words,
    /// a type, then a name. Decides both "is this statement a declaration"
    /// and "is this contextual word a modifier".
    pub(super) fn scan_decl_head(&self, i: usize) -> bool {
        self.scan_decl_name(i).is_some()
    }

    /// Like [`Parser::scan_decl_head`], giving the offset of the name.
    pub(super) fn scan_decl_name(&self, mut i: usize) -> Option<usize> {
        while self.nth_word(i).is_some_and(is_always_modifier) {
            i += 1;
        }
        let end = self.scan_type(i)?;
        (self.nth_kind(end) == TokenKind::Ident).then_some(end)
    }
}

/// The type given for a type that could not be read (already diagnosed):
/// an empty name.
pub(super) fn error_type(at: legalis_ir::Span) -> TypeExpr {
    TypeExpr {
        name: String::new(),
        args: Vec::new(),
        modifiers: Vec::new(),
        span: legalis_ir::Span::new(at.start, at.start),
    }
}

/// Adds type modifiers read before a declaration's type to the type.
pub(super) fn prepend_type_modifiers(ty: &mut TypeExpr, mut modifiers: Vec<Modifier>) {
    if let Some(first) = modifiers.first() {
        ty.span = first.span.join(ty.span);
        modifiers.append(&mut ty.modifiers);
        ty.modifiers = modifiers;
    }
}

#[cfg(test)]
mod tests {
    use super::is_builtin_type_name;

    #[test]
    fn builtin_type_names() {
        for name in [
            "float",
            "float4",
            "half3",
            "uint2",
            "int64_t",
            "float16_t",
            "min16float2",
            "float4x4",
            "bool1x3",
            "uint64_t4",
            "Texture2D",
            "void",
            "vector",
        ] {
            assert!(is_builtin_type_name(name), "{name}");
        }
        for name in [
            "float5", "float0", "float4x5", "x", "Float4", "int64_", "4", "line",
        ] {
            assert!(!is_builtin_type_name(name), "{name}");
        }
    }
}

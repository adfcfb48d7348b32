//! GLSL type spellings and struct declarations: scalars, vectors, matrices
//! (see `writer.rs` for the matrix convention), arrays and the member
//! lists of structs and blocks.

use legalis_ir::FastHashSet;
use std::fmt::Write as _;

use legalis_ir as ir;
use legalis_ir::{Handle, ScalarKind, Span, TypeInner};

use super::names::sanitize;
use super::writer::{Result, Writer, unsupported};

/// Whether matrices of this scalar are printed as arrays of row vectors
/// (GLSL has `mat`, `dmat` and `f16mat` only).
pub(super) fn matrix_as_rows(scalar: ir::Scalar) -> bool {
    scalar.kind != ScalarKind::Float
}

impl Writer<'_> {
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

    /// Declares the structs that printed code names, members before users.
    pub(super) fn write_structs(&mut self) -> Result<String> {
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
}

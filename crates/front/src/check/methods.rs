//! Methods of built-in objects: textures (`Sample`, `Load`, `Gather` ...),
//! buffers (`Load`, `Store`, `IncrementCounter`, `Append` ...) and geometry
//! output streams (`Append`, `RestartStrip`). The object is the first
//! argument of the IR intrinsic.

use legalis_ir as ir;
use legalis_ir::{Handle, Intrinsic as I, Scalar, ScalarKind, Span, Type, TypeInner};

use super::Checker;
use super::convert::Value;
use super::expr::coord_count;
use super::intrinsics::{Arg, Signature};
use super::types::Shape;
use crate::{ast, codes};

impl Checker<'_> {
    pub fn lower_method_call(
        &mut self,
        object: &ast::Expr,
        method: &ast::Ident,
        args: &[ast::Expr],
        span: Span,
    ) -> Value {
        self.lower_method_call_with(object, method, &[], args, span)
    }

    /// `obj.method<type_args>(args)`; only `HitObject.GetAttributes<T>`
    /// takes generic arguments.
    pub fn lower_method_call_with(
        &mut self,
        object: &ast::Expr,
        method: &ast::Ident,
        type_args: &[ast::GenericArg],
        args: &[ast::Expr],
        span: Span,
    ) -> Value {
        // `HitObject.MakeNop()`: a static function of the built-in type.
        if let ast::ExprKind::Name(path) = &object.kind
            && let [one] = path.as_slice()
            && one.name == "HitObject"
            && self.lookup_value(&one.name).is_none()
        {
            return self.lower_hit_object_static(method, args, span);
        }
        // `S.make()`: a static member function named through its type.
        if let ast::ExprKind::Name(path) = &object.kind
            && let [one] = path.as_slice()
            && self.lookup_value(&one.name).is_none()
            && let Some(super::TypeSymbol::Type(ty)) = self.lookup_type(&one.name)
        {
            let type_name = self.module.types[ty].name.clone().unwrap_or_default();
            let key = format!("{type_name}::{}", method.name);
            let statics: Vec<usize> = match self.global_value(&key) {
                Some(super::ValueSymbol::Functions(list)) => list
                    .iter()
                    .copied()
                    .filter(|&f| self.funcs[f].this_ty.is_none())
                    .collect(),
                _ => Vec::new(),
            };
            if !statics.is_empty() {
                return self.lower_user_call(&key, &statics, None, args, span);
            }
        }
        let obj = self.lower_value(object);
        if let Some(v) = self.conditional_method(obj, method, args, span) {
            return v;
        }
        let obj = self.deref_if_handle(obj, object.span);
        if let Some(ty) = obj.ty
            && matches!(self.inner(ty), TypeInner::HitObject)
        {
            return self.lower_hit_object_method(obj, object.span, method, type_args, args, span);
        }
        if let Some(ty) = obj.ty
            && matches!(self.inner(ty), TypeInner::RayQuery { .. })
        {
            return self.lower_ray_query_method(obj, object.span, method, type_args, args, span);
        }
        if let Some(ty) = obj.ty
            && self.dyn_info(ty).is_some()
        {
            return self.lower_dyn_method_call(obj, object.span, ty, method, type_args, args, span);
        }
        if let Some(ty) = obj.ty
            && ty != self.error_ty
            && let TypeInner::Struct { .. } = self.inner(ty)
        {
            return self.lower_struct_method_call(
                obj,
                object.span,
                ty,
                method,
                type_args,
                args,
                span,
            );
        }
        if !type_args.is_empty()
            && method.name == "Load"
            && obj.ty.is_some_and(|ty| self.is_byte_address(ty))
        {
            return self.lower_byte_address_load(obj, method, type_args, args, span);
        }
        if let Some(first) = type_args.first() {
            let at = match first {
                ast::GenericArg::Type(t) => t.span,
                ast::GenericArg::Value(v) => v.span,
            };
            self.error(
                codes::NO_MATCHING_OVERLOAD,
                format!(
                    "method `{}` takes no generic arguments (only `HitObject.GetAttributes<T>` does)",
                    method.name
                ),
                at,
            );
        }
        let mut values: Vec<Value> = args
            .iter()
            .map(|a| {
                let v = self.lower_value(a);
                self.deref_if_handle(v, a.span)
            })
            .collect();
        let obj_ty = obj.ty.unwrap_or(self.error_ty);
        // A combined texture-sampler (`Sampler2D`) is its own sampler: the
        // object is lowered a second time as the sampler argument, so every
        // target sees the `(texture, sampler, coordinate ...)` shape.
        let combined = matches!(
            self.inner(obj_ty),
            TypeInner::Texture(ir::Texture { combined: true, .. })
        );
        let self_sampler = combined && I::method_from_name(&method.name).is_some_and(takes_sampler);
        if self_sampler {
            values.insert(0, self.lower_value(object));
        }
        if obj_ty == self.error_ty || values.iter().any(|v| v.ty == Some(self.error_ty)) {
            return self.error_value(span);
        }
        let Some(fun) = I::method_from_name(&method.name) else {
            return self.no_method(obj_ty, method);
        };
        let types: Vec<Handle<Type>> = values
            .iter()
            .map(|v| v.ty.unwrap_or(self.error_ty))
            .collect();
        let result = match self.inner(obj_ty).clone() {
            TypeInner::Texture(ir::Texture {
                dim,
                arrayed,
                multisampled,
                access,
                texel,
                ..
            }) => {
                let tex = TextureInfo {
                    dim,
                    arrayed,
                    multisampled,
                    access,
                    texel,
                };
                self.texture_method(fun, &tex, &types)
            }
            TypeInner::Buffer {
                kind,
                access,
                element,
                ..
            } => self.buffer_method(fun, kind, access, element, &types),
            TypeInner::SubpassInput {
                texel,
                multisampled,
            } => match (fun, multisampled, types.len()) {
                (I::SubpassLoad, false, 0) => Ok(Some(Signature {
                    args: Vec::new(),
                    result: Some(texel),
                })),
                (I::SubpassLoad, true, 1) => {
                    let int = self.numeric_ty(Scalar::I32, Shape::Scalar);
                    Ok(Some(Signature {
                        args: vec![Arg::In(int)],
                        result: Some(texel),
                    }))
                }
                (I::SubpassLoad, false, _) => Err("`SubpassLoad` takes no argument".to_string()),
                (I::SubpassLoad, true, _) => {
                    Err("`SubpassLoad` of a multisampled input takes the sample index".to_string())
                }
                _ => Ok(None),
            },
            TypeInner::Stream { element, .. } => match fun {
                I::Append if types.len() == 1 => Ok(Some(Signature {
                    args: vec![Arg::In(element)],
                    result: None,
                })),
                I::RestartStrip if types.is_empty() => Ok(Some(Signature {
                    args: Vec::new(),
                    result: None,
                })),
                I::Append | I::RestartStrip => Err("wrong number of arguments".to_string()),
                _ => Ok(None),
            },
            _ => Ok(None),
        };
        let sig = match result {
            Ok(Some(sig)) => sig,
            Ok(None) => return self.no_method(obj_ty, method),
            Err(message) => {
                let names: Vec<String> = types.iter().map(|&t| self.type_name(t)).collect();
                let obj_name = self.type_name(obj_ty);
                self.error(
                    codes::NO_MATCHING_OVERLOAD,
                    format!(
                        "no overload of `{obj_name}.{}` takes ({}): {message}",
                        method.name,
                        names.join(", ")
                    ),
                    span,
                );
                return self.error_value(span);
            }
        };
        let mut all_values = vec![obj];
        all_values.extend(values);
        let mut all_spans = vec![object.span];
        if self_sampler {
            all_spans.push(object.span);
        }
        all_spans.extend(args.iter().map(|a| a.span));
        let mut sig = sig;
        sig.args.insert(0, Arg::Any);
        self.apply_signature(fun, sig, all_values, &all_spans, span)
    }

    /// `s.f(args)` on a struct with member functions: `S::f(s, args)`.
    /// A method of a struct; a generic one (`s.get<float>()`, or its
    /// arguments inferred) is specialised.
    #[allow(clippy::too_many_arguments)]
    fn lower_struct_method_call(
        &mut self,
        obj: Value,
        obj_span: Span,
        ty: Handle<Type>,
        method: &ast::Ident,
        type_args: &[ast::GenericArg],
        args: &[ast::Expr],
        span: Span,
    ) -> Value {
        let type_name = self.module.types[ty].name.clone().unwrap_or_default();
        let key = format!("{type_name}::{}", method.name);
        let candidates: Vec<usize> = match self.global_value(&key) {
            Some(super::ValueSymbol::Functions(list)) => list
                .iter()
                .copied()
                .filter(|&f| self.funcs[f].this_ty == Some(ty))
                .collect(),
            _ => Vec::new(),
        };
        if let Some(templates) = self.generic_methods(&key) {
            let this = Some((obj, obj_span));
            return self.lower_generic_call(
                &key,
                &templates,
                &candidates,
                type_args,
                this,
                args,
                span,
            );
        }
        if !candidates.is_empty()
            && let Some(first) = type_args.first()
        {
            let at = match first {
                ast::GenericArg::Type(t) => t.span,
                ast::GenericArg::Value(v) => v.span,
            };
            self.error(
                codes::NO_MATCHING_OVERLOAD,
                format!("method `{}` takes no generic arguments", method.name),
                at,
            );
        }
        if candidates.is_empty() {
            for a in args {
                self.lower_expr(a);
            }
            return self.no_method(ty, method);
        }
        self.lower_user_call(&key, &candidates, Some((obj, obj_span)), args, span)
    }

    fn no_method(&mut self, ty: Handle<Type>, method: &ast::Ident) -> Value {
        let name = self.type_name(ty);
        self.error(
            codes::NO_SUCH_MEMBER,
            format!("`{name}` has no method `{}`", method.name),
            method.span,
        );
        self.error_value(method.span)
    }

    fn float_vec(&mut self, n: u8) -> Handle<Type> {
        self.numeric_ty(Scalar::F32, Shape::vector(n))
    }

    fn int_vec(&mut self, n: u8) -> Handle<Type> {
        self.numeric_ty(Scalar::I32, Shape::vector(n))
    }

    fn sampler_arg(&self, ty: Handle<Type>, comparison: bool) -> Result<(), String> {
        match self.inner(ty) {
            TypeInner::Sampler { comparison: c } if *c == comparison => Ok(()),
            // The combined texture-sampler itself (see `lower_method_call`).
            TypeInner::Texture(ir::Texture { combined: true, .. }) => Ok(()),
            _ if comparison => Err("the first argument must be a `SamplerComparisonState`".into()),
            _ => Err("the first argument must be a `SamplerState`".into()),
        }
    }

    fn texture_method(
        &mut self,
        fun: I,
        tex: &TextureInfo,
        types: &[Handle<Type>],
    ) -> Result<Option<Signature>, String> {
        let dims = coord_count(tex.dim);
        let coord = self.float_vec(dims + tex.arrayed as u8);
        let offset_dims = if tex.dim == ir::TextureDim::Cube {
            0
        } else {
            dims
        };
        let offset = self.int_vec(offset_dims.max(1));
        let float = self.scalar_ty(Scalar::F32);
        let texel_scalar = self
            .numeric(tex.texel)
            .map(|(s, _)| s)
            .unwrap_or(Scalar::F32);
        let n = types.len();
        let sampled = tex.access == ir::ResourceAccess::Read && !tex.multisampled;
        // Fixed leading arguments, then how many optional ones may follow.
        let (fixed, optional, result): (Vec<Arg>, Vec<Arg>, Option<Handle<Type>>) = match fun {
            I::Sample if sampled => {
                self.sampler_arg(types.first().copied().ok_or("missing sampler")?, false)?;
                (
                    vec![Arg::Any, Arg::In(coord)],
                    vec![Arg::In(offset), Arg::In(float)],
                    Some(tex.texel),
                )
            }
            I::SampleBias | I::SampleLevel if sampled => {
                self.sampler_arg(types.first().copied().ok_or("missing sampler")?, false)?;
                (
                    vec![Arg::Any, Arg::In(coord), Arg::In(float)],
                    vec![Arg::In(offset)],
                    Some(tex.texel),
                )
            }
            I::SampleGrad if sampled => {
                self.sampler_arg(types.first().copied().ok_or("missing sampler")?, false)?;
                let grad = self.float_vec(dims);
                (
                    vec![Arg::Any, Arg::In(coord), Arg::In(grad), Arg::In(grad)],
                    vec![Arg::In(offset)],
                    Some(tex.texel),
                )
            }
            I::SampleCmp | I::SampleCmpLevelZero if sampled => {
                self.sampler_arg(types.first().copied().ok_or("missing sampler")?, true)?;
                (
                    vec![Arg::Any, Arg::In(coord), Arg::In(float)],
                    vec![Arg::In(offset)],
                    Some(float),
                )
            }
            I::SampleCmpLevel | I::SampleCmpBias if sampled => {
                self.sampler_arg(types.first().copied().ok_or("missing sampler")?, true)?;
                (
                    vec![Arg::Any, Arg::In(coord), Arg::In(float), Arg::In(float)],
                    vec![Arg::In(offset)],
                    Some(float),
                )
            }
            I::SampleCmpGrad if sampled => {
                self.sampler_arg(types.first().copied().ok_or("missing sampler")?, true)?;
                let grad = self.float_vec(dims);
                (
                    vec![
                        Arg::Any,
                        Arg::In(coord),
                        Arg::In(float),
                        Arg::In(grad),
                        Arg::In(grad),
                    ],
                    vec![Arg::In(offset)],
                    Some(float),
                )
            }
            I::Gather | I::GatherRed | I::GatherGreen | I::GatherBlue | I::GatherAlpha
                if sampled && tex.dim != ir::TextureDim::D1 && tex.dim != ir::TextureDim::D3 =>
            {
                self.sampler_arg(types.first().copied().ok_or("missing sampler")?, false)?;
                let four = self.numeric_ty(texel_scalar, Shape::Vector(4));
                (
                    vec![Arg::Any, Arg::In(coord)],
                    vec![Arg::In(offset)],
                    Some(four),
                )
            }
            I::GatherCmp | I::GatherCmpRed
                if sampled && tex.dim != ir::TextureDim::D1 && tex.dim != ir::TextureDim::D3 =>
            {
                self.sampler_arg(types.first().copied().ok_or("missing sampler")?, true)?;
                let four = self.float_vec(4);
                (
                    vec![Arg::Any, Arg::In(coord), Arg::In(float)],
                    vec![Arg::In(offset)],
                    Some(four),
                )
            }
            I::CalculateLevelOfDetail | I::CalculateLevelOfDetailUnclamped if sampled => {
                self.sampler_arg(types.first().copied().ok_or("missing sampler")?, false)?;
                let c = self.float_vec(dims);
                (vec![Arg::Any, Arg::In(c)], Vec::new(), Some(float))
            }
            I::Load => {
                let base = dims + tex.arrayed as u8;
                if tex.multisampled {
                    let c = self.int_vec(base);
                    let int = self.scalar_ty(Scalar::I32);
                    (
                        vec![Arg::In(c), Arg::In(int)],
                        vec![Arg::In(offset)],
                        Some(tex.texel),
                    )
                } else if tex.access == ir::ResourceAccess::Read {
                    let c = self.int_vec(base + 1);
                    (vec![Arg::In(c)], vec![Arg::In(offset)], Some(tex.texel))
                } else {
                    let c = self.int_vec(base);
                    (vec![Arg::In(c)], Vec::new(), Some(tex.texel))
                }
            }
            I::GetDimensions => {
                // `(out w [, out h [, out d]])`, or with a mip level first and
                // the level count last on sampled textures.
                let outs = match tex.dim {
                    ir::TextureDim::D1 => 1,
                    ir::TextureDim::D2 | ir::TextureDim::Cube => 2,
                    ir::TextureDim::D3 => 3,
                } + tex.arrayed as usize
                    + tex.multisampled as usize;
                let mip_form = sampled.then_some(outs + 2);
                return self.get_dimensions(types, outs, mip_form).map(Some);
            }
            _ => return Ok(None),
        };
        if n < fixed.len() || n > fixed.len() + optional.len() {
            return Err(format!(
                "expected {} to {} arguments, found {n}",
                fixed.len(),
                fixed.len() + optional.len()
            ));
        }
        let mut args = fixed;
        args.extend(optional.into_iter().take(n - args.len()));
        Ok(Some(Signature { args, result }))
    }

    /// `GetDimensions`: `outs` `out` scalars, or (when `mip_form` is the
    /// argument count) a `uint` mip level followed by `out` scalars.
    fn get_dimensions(
        &mut self,
        types: &[Handle<Type>],
        outs: usize,
        mip_form: Option<usize>,
    ) -> Result<Signature, String> {
        let with_mip = mip_form == Some(types.len());
        if types.len() != outs && !with_mip {
            let also = mip_form.map(|m| format!(" or {m}")).unwrap_or_default();
            return Err(format!(
                "expected {outs}{also} arguments, found {}",
                types.len()
            ));
        }
        let uint = self.scalar_ty(Scalar::U32);
        let mut args = Vec::with_capacity(types.len());
        for (i, &t) in types.iter().enumerate() {
            match *self.inner(t) {
                TypeInner::Scalar(s)
                    if matches!(
                        s.kind,
                        ScalarKind::Uint | ScalarKind::Float | ScalarKind::Sint
                    ) =>
                {
                    args.push(if i == 0 && with_mip {
                        Arg::In(uint)
                    } else {
                        Arg::OutAny
                    });
                }
                _ => return Err("dimensions are written to `uint` or `float` variables".into()),
            }
        }
        Ok(Signature { args, result: None })
    }

    fn buffer_method(
        &mut self,
        fun: I,
        kind: ir::BufferKind,
        access: ir::ResourceAccess,
        element: Option<Handle<Type>>,
        types: &[Handle<Type>],
    ) -> Result<Option<Signature>, String> {
        use ir::BufferKind as K;
        let uint = self.scalar_ty(Scalar::U32);
        let int = self.scalar_ty(Scalar::I32);
        let writable = access != ir::ResourceAccess::Read;
        let n = types.len();
        let sig = match (fun, kind, element) {
            (I::Load, K::Typed | K::Structured, Some(e)) if n == 1 => Signature {
                args: vec![Arg::In(int)],
                result: Some(e),
            },
            (I::Load | I::Load2 | I::Load3 | I::Load4, K::ByteAddress, _) if n == 1 => {
                let result = self.words_type(fun);
                Signature {
                    args: vec![Arg::In(uint)],
                    result: Some(result),
                }
            }
            (I::Store | I::Store2 | I::Store3 | I::Store4, K::ByteAddress, _)
                if writable && n == 2 =>
            {
                let value = self.words_type(fun);
                Signature {
                    args: vec![Arg::In(uint), Arg::In(value)],
                    result: None,
                }
            }
            (I::IncrementCounter | I::DecrementCounter, K::Structured, _) if writable && n == 0 => {
                Signature {
                    args: Vec::new(),
                    result: Some(uint),
                }
            }
            (I::Append, K::Append, Some(e)) if n == 1 => Signature {
                args: vec![Arg::In(e)],
                result: None,
            },
            (I::Consume, K::Consume, Some(e)) if n == 0 => Signature {
                args: Vec::new(),
                result: Some(e),
            },
            (
                I::BufferInterlockedAdd
                | I::BufferInterlockedAnd
                | I::BufferInterlockedOr
                | I::BufferInterlockedXor
                | I::BufferInterlockedMin
                | I::BufferInterlockedMax
                | I::BufferInterlockedExchange,
                K::ByteAddress,
                _,
            ) if writable && (n == 2 || n == 3) => {
                let mut args = vec![Arg::In(uint), Arg::In(uint)];
                if n == 3 {
                    args.push(Arg::Out(uint));
                }
                Signature { args, result: None }
            }
            (I::BufferInterlockedCompareExchange, K::ByteAddress, _) if writable && n == 4 => {
                Signature {
                    args: vec![Arg::In(uint), Arg::In(uint), Arg::In(uint), Arg::Out(uint)],
                    result: None,
                }
            }
            (I::BufferInterlockedCompareStore, K::ByteAddress, _) if writable && n == 3 => {
                Signature {
                    args: vec![Arg::In(uint), Arg::In(uint), Arg::In(uint)],
                    result: None,
                }
            }
            (I::GetDimensions, K::Structured | K::Append | K::Consume, _) => {
                self.get_dimensions(types, 2, None)?
            }
            (I::GetDimensions, _, _) => self.get_dimensions(types, 1, None)?,
            _ if self.method_exists(fun, kind, writable) => {
                return Err("wrong number of arguments".into());
            }
            _ => return Ok(None),
        };
        Ok(Some(sig))
    }

    /// `uint` .. `uint4`: what `Load`..`Load4` read and `Store`..`Store4` write.
    fn words_type(&mut self, fun: I) -> Handle<Type> {
        let words = match fun {
            I::Load2 | I::Store2 => 2,
            I::Load3 | I::Store3 => 3,
            I::Load4 | I::Store4 => 4,
            _ => 1,
        };
        self.numeric_ty(Scalar::U32, Shape::vector(words))
    }

    fn method_exists(&self, fun: I, kind: ir::BufferKind, writable: bool) -> bool {
        use ir::BufferKind as K;
        match fun {
            I::Load => true,
            I::Load2 | I::Load3 | I::Load4 => kind == K::ByteAddress,
            I::Store | I::Store2 | I::Store3 | I::Store4 => kind == K::ByteAddress && writable,
            I::IncrementCounter | I::DecrementCounter => kind == K::Structured && writable,
            I::Append => kind == K::Append,
            I::Consume => kind == K::Consume,
            I::BufferInterlockedAdd
            | I::BufferInterlockedAnd
            | I::BufferInterlockedOr
            | I::BufferInterlockedXor
            | I::BufferInterlockedMin
            | I::BufferInterlockedMax
            | I::BufferInterlockedExchange
            | I::BufferInterlockedCompareExchange
            | I::BufferInterlockedCompareStore => kind == K::ByteAddress && writable,
            _ => false,
        }
    }
}

/// Texture methods whose first argument is a sampler.
fn takes_sampler(fun: I) -> bool {
    matches!(
        fun,
        I::Sample
            | I::SampleBias
            | I::SampleLevel
            | I::SampleGrad
            | I::SampleCmp
            | I::SampleCmpLevelZero
            | I::SampleCmpLevel
            | I::SampleCmpGrad
            | I::SampleCmpBias
            | I::Gather
            | I::GatherRed
            | I::GatherGreen
            | I::GatherBlue
            | I::GatherAlpha
            | I::GatherCmp
            | I::GatherCmpRed
            | I::CalculateLevelOfDetail
            | I::CalculateLevelOfDetailUnclamped
    )
}

struct TextureInfo {
    dim: ir::TextureDim,
    arrayed: bool,
    multisampled: bool,
    access: ir::ResourceAccess,
    texel: Handle<Type>,
}

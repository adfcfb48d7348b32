//! Attribute arguments and the table of attributes the front end knows.
//!
//! HLSL attribute names are case-insensitive (`[NumThreads(..)]`); names are
//! compared in lower case. An unknown attribute is a warning, never an error.

use super::Checker;
use super::consteval::ConstValue;
use crate::{ast, codes};

/// Where an attribute was written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AttrSite {
    Function,
    Statement,
    Variable,
    Parameter,
    Field,
    Struct,
}

/// Optimisation hints with no effect on meaning; accepted silently.
const HINTS: &[&str] = &[
    "unroll",
    "loop",
    "branch",
    "flatten",
    "fastopt",
    "allow_uav_condition",
    "forcecase",
    "call",
    "noinline",
    "forceinline",
    "inline",
    "rootsignature",
    "wavesize",
    "mutating",
    "__readnone",
    // DXR payload access qualifiers only feed the D3D validator.
    "raypayload",
    // The reference's bound on the payload of a value of interface type;
    // Legalis's interface values hold each conforming struct in a member
    // of its own (`dyn_dispatch.rs`), so they need no bound.
    "anyvaluesize",
];

/// Attributes the checker acts on, by site.
fn acted_on(site: AttrSite, name: &str) -> bool {
    match site {
        AttrSite::Function => matches!(
            name,
            "shader"
                | "numthreads"
                | "domain"
                | "partitioning"
                | "outputtopology"
                | "outputcontrolpoints"
                | "patchconstantfunc"
                | "maxtessfactor"
                | "maxvertexcount"
                | "instance"
                | "streamoutput"
                | "streamoutputstride"
                | "earlydepthstencil"
                | "quadderivatives"
                | "derivativegroupquad"
                | "derivativegrouplinear"
                | "requirefullquads"
                | "maximallyreconverges"
        ),
        AttrSite::Variable => matches!(name, "vk::binding" | "vk::input_attachment_index"),
        AttrSite::Parameter | AttrSite::Field => matches!(name, "vk::location" | "vk::index"),
        AttrSite::Statement | AttrSite::Struct => false,
    }
}

/// Known attributes whose effect Legalis does not apply yet: warned, so the
/// user knows the output ignores them.
const NOT_APPLIED: &[&str] = &[
    "vk::push_constant",
    "vk::image_format",
    "vk::constant_id",
    "vk::offset",
    "vk::builtin",
    "vk::shader_record_ext",
    "vk::shader_record_nv",
    "vk::combinedimagesampler",
    "vk::counter_binding",
    "vk::ext_decorate",
    "vk::ext_builtin_input",
    "vk::ext_storage_class",
];

pub fn lower_name(attr: &ast::Attribute) -> String {
    attr.name.to_ascii_lowercase()
}

impl Checker<'_> {
    /// Warns about attributes that are unknown at `site` or not applied;
    /// returns the attributes the caller must act on.
    pub fn sort_attributes<'b>(
        &mut self,
        attrs: &'b [ast::Attribute],
        site: AttrSite,
    ) -> Vec<&'b ast::Attribute> {
        let mut acted = Vec::new();
        for attr in attrs {
            let name = lower_name(attr);
            if acted_on(site, &name) {
                acted.push(attr);
            } else if HINTS.contains(&name.as_str()) {
                continue;
            } else if NOT_APPLIED.contains(&name.as_str()) {
                self.warning(
                    codes::IGNORED_ANNOTATION,
                    format!(
                        "attribute `{}` is accepted but not applied by Legalis yet",
                        attr.name
                    ),
                    attr.span,
                );
            } else if is_known_elsewhere(&name) {
                self.warning(
                    codes::UNKNOWN_ATTRIBUTE,
                    format!("attribute `{}` has no effect here", attr.name),
                    attr.span,
                );
            } else {
                self.warning(
                    codes::UNKNOWN_ATTRIBUTE,
                    format!("unknown attribute `{}` has no effect", attr.name),
                    attr.span,
                );
            }
        }
        acted
    }

    /// Checks the argument count of an attribute.
    pub fn attr_arity(&mut self, attr: &ast::Attribute, min: usize, max: usize) -> bool {
        let n = attr.args.len();
        if n < min || n > max {
            let wanted = if min == max {
                format!("{min}")
            } else {
                format!("{min} to {max}")
            };
            self.error(
                codes::BAD_ATTRIBUTE_ARGUMENTS,
                format!(
                    "attribute `{}` takes {wanted} argument(s), found {n}",
                    attr.name
                ),
                attr.span,
            );
            return false;
        }
        true
    }

    /// A non-negative integer argument.
    pub fn attr_u32(&mut self, attr: &ast::Attribute, index: usize) -> Option<u32> {
        let arg = attr.args.get(index)?;
        let value = self.const_eval(arg)?;
        match value.as_i64() {
            Some(v) if (0..=u32::MAX as i64).contains(&v) => Some(v as u32),
            _ => {
                self.error(
                    codes::BAD_ATTRIBUTE_ARGUMENTS,
                    format!(
                        "argument {} of `{}` must be a non-negative integer, found {value}",
                        index + 1,
                        attr.name
                    ),
                    arg.span,
                );
                None
            }
        }
    }

    pub fn attr_f32(&mut self, attr: &ast::Attribute, index: usize) -> Option<f32> {
        let arg = attr.args.get(index)?;
        let value = self.const_eval(arg)?;
        match value {
            ConstValue::Bool(_) => {
                self.error(
                    codes::BAD_ATTRIBUTE_ARGUMENTS,
                    format!("argument {} of `{}` must be a number", index + 1, attr.name),
                    arg.span,
                );
                None
            }
            v => Some(v.as_f64() as f32),
        }
    }

    /// A string argument (`[shader("vertex")]`).
    pub fn attr_string(
        &mut self,
        attr: &ast::Attribute,
        index: usize,
    ) -> Option<(String, legalis_ir::Span)> {
        let arg = attr.args.get(index)?;
        match &arg.kind {
            ast::ExprKind::String(s) => Some((s.clone(), arg.span)),
            _ => {
                self.error(
                    codes::BAD_ATTRIBUTE_ARGUMENTS,
                    format!(
                        "argument {} of `{}` must be a string literal",
                        index + 1,
                        attr.name
                    ),
                    arg.span,
                );
                None
            }
        }
    }
}

fn is_known_elsewhere(name: &str) -> bool {
    [AttrSite::Function, AttrSite::Variable, AttrSite::Parameter]
        .iter()
        .any(|&s| acted_on(s, name))
}

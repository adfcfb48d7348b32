//! What every family's legalizer returns ([`Legalized`] for one entry
//! point, [`LegalizedAll`] for a module of several) and the ways to call
//! it, written once as the provided methods of [`Family`]: each family
//! gives only how it legalizes one entry point and the verifier its
//! result must pass.

use legalis_ir as ir;
use legalis_ir::OtherEntryPoints as Others;
use legalis_ir::diag::Diagnostic;

/// One entry point legalized by a family: the module its writers take as
/// it is, and the family's plan (`P`) saying where every leaf of the
/// entry point's parameters and result went, and why (the writers and
/// `--trace-legalization` read it).
#[derive(Clone, Debug)]
pub struct Legalized<P> {
    /// The legalized module: a copy of the input with the chosen entry
    /// point alone, rewritten as the family's documentation describes.
    pub module: ir::Module,
    /// What the family decided for the entry point.
    pub plan: P,
}

/// Every entry point of a module legalized by a family into one module
/// ([`Family::legalize_all_unverified`]), with one plan each.
#[derive(Clone, Debug)]
pub struct LegalizedAll<P> {
    /// The module holding every legalized entry point, in the input's
    /// entry-point order.
    pub module: ir::Module,
    /// One plan per entry point, in the same order.
    pub plans: Vec<P>,
}

mod sealed {
    /// The four families of this crate are the only ones.
    pub trait Sealed {}
}

/// A target family's legalizer: [`crate::glsl::Glsl`],
/// [`crate::wgsl::Wgsl`], [`crate::metal::Metal`] or [`crate::cuda::Cuda`].
///
/// ```
/// use legalis_legalize::{Family, wgsl::Wgsl};
///
/// let source = "[shader(\"compute\")] [numthreads(8, 1, 1)] void main() {}";
/// let module = legalis_front::compile(source, &Default::default()).module.unwrap();
/// let legalized = Wgsl::legalize(&module, 0, &legalis_ir::Policy::default()).unwrap();
/// assert_eq!(legalized.module.entry_points.len(), 1);
/// ```
pub trait Family: sealed::Sealed {
    /// What the family decides for one entry point.
    type Plan;

    /// Whether the result reads resource arguments as the globals they
    /// are bound to (the functions that took a `uniform` resource argument
    /// read its global instead): every family but CUDA, whose kernels keep
    /// their `uniform` parameters as launch arguments.
    const RESOURCE_ARGUMENTS_AS_GLOBALS: bool = true;

    /// Whether every target of the family can pass a resource of this type
    /// to a function. A helper called from several places with different
    /// globals of a type they cannot pass is copied once per global; by
    /// default no resource is passed.
    fn passes_resource(_inner: &ir::TypeInner) -> bool {
        false
    }

    /// Legalizes entry point `entry_point` of `module` under the API
    /// conventions of `policy`, inputs the previous stage of a linked
    /// pipeline writes at the places `linked` gives (a family that links
    /// by names, Metal, or has no stages to link, CUDA, ignores it),
    /// keeping or dropping the other entry points (`others`). The resource
    /// arguments are left as they are and the result is not verified: the
    /// provided methods do both.
    fn legalize_one(
        module: &ir::Module,
        entry_point: usize,
        policy: &ir::Policy,
        linked: &ir::link::Linked,
        others: Others,
    ) -> Result<Legalized<Self::Plan>, Vec<Diagnostic>>;

    /// The IR verifier on a legalized module: a pass that left it invalid
    /// is the family's internal error, reported at the entry point
    /// (`span`).
    fn verify(module: &ir::Module, span: ir::Span) -> Result<(), Vec<Diagnostic>>;

    /// Legalizes entry point `entry_point` of `module` under the API
    /// conventions of `policy`; the result passes [`Family::verify`].
    fn legalize(
        module: &ir::Module,
        entry_point: usize,
        policy: &ir::Policy,
    ) -> Result<Legalized<Self::Plan>, Vec<Diagnostic>> {
        Self::legalize_linked(module, entry_point, policy, &ir::link::Linked::default())
    }

    /// [`Family::legalize`] as a stage of a linked pipeline: inputs the
    /// previous stage writes take its places (`linked`, from the family's
    /// `link_inputs`).
    fn legalize_linked(
        module: &ir::Module,
        entry_point: usize,
        policy: &ir::Policy,
        linked: &ir::link::Linked,
    ) -> Result<Legalized<Self::Plan>, Vec<Diagnostic>> {
        let legalized = Self::legalize_linked_unverified(module, entry_point, policy, linked)?;
        Self::verify(&legalized.module, module.entry_points[entry_point].span)?;
        Ok(legalized)
    }

    /// [`Family::legalize`] without its last step, the IR verifier: for a
    /// caller that runs [`Family::verify`] on the result itself, beside
    /// other work (the command line verifies while the writer writes).
    /// Until [`Family::verify`] passes, the module may be invalid.
    fn legalize_unverified(
        module: &ir::Module,
        entry_point: usize,
        policy: &ir::Policy,
    ) -> Result<Legalized<Self::Plan>, Vec<Diagnostic>> {
        Self::legalize_linked_unverified(module, entry_point, policy, &ir::link::Linked::default())
    }

    /// [`Family::legalize_linked`] without the IR verifier, as
    /// [`Family::legalize_unverified`].
    fn legalize_linked_unverified(
        module: &ir::Module,
        entry_point: usize,
        policy: &ir::Policy,
        linked: &ir::link::Linked,
    ) -> Result<Legalized<Self::Plan>, Vec<Diagnostic>> {
        let mut legalized = Self::legalize_one(module, entry_point, policy, linked, Others::Drop)?;
        finish::<Self>(&mut legalized.module);
        Ok(legalized)
    }

    /// Legalizes every entry point of `module` into one module, each for
    /// its own stage, one after the other: each legalization leaves the
    /// others' functions and globals alone, so the result holds them all
    /// (the family's `write_entries` writes it). The errors of every entry
    /// point are returned together; the IR verifier is the caller's, as
    /// with [`Family::legalize_unverified`].
    fn legalize_all_unverified(
        module: &ir::Module,
        policy: &ir::Policy,
    ) -> Result<LegalizedAll<Self::Plan>, Vec<Diagnostic>> {
        let (mut module, plans) = ir::legalize_each(module, |current, k| {
            let linked = ir::link::Linked::default();
            Self::legalize_one(current, k, policy, &linked, Others::Keep)
                .map(|l| (l.module, l.plan))
        })?;
        finish::<Self>(&mut module);
        Ok(LegalizedAll { module, plans })
    }
}

/// The last step of every legalization of family `F`.
fn finish<F: Family + ?Sized>(module: &mut ir::Module) {
    if F::RESOURCE_ARGUMENTS_AS_GLOBALS {
        super::resource_arguments::inline_resource_arguments(module, F::passes_resource);
    }
}

/// Where the entry point `entry_point` of `module` (a copy of the input)
/// stands once the other entry points are kept or dropped (`others`).
pub(crate) fn keep_or_drop(module: &mut ir::Module, entry_point: usize, others: Others) -> usize {
    match others {
        Others::Drop => {
            module.entry_points = vec![module.entry_points.swap_remove(entry_point)];
            0
        }
        Others::Keep => entry_point,
    }
}

impl sealed::Sealed for crate::glsl::Glsl {}
impl sealed::Sealed for crate::wgsl::Wgsl {}
impl sealed::Sealed for crate::metal::Metal {}
impl sealed::Sealed for crate::cuda::Cuda {}

//! What every family's legalizer returns ([`Legalized`] for one entry
//! point, [`LegalizedAll`] for a module of several) and the ways to call
//! it, written once as the provided methods of [`Family`]: each family
//! gives only how it legalizes one entry point and the verifier its
//! result must pass.

use legalis_ir as ir;
use legalis_ir::OtherEntryPoints as Others;
use legalis_ir::diag::Diagnostic;

use crate::codes;

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

/// One entry point for a family to legalize ([`Family::legalize_one`]):
/// the provided methods of [`Family`] look the entry point up once.
#[derive(Clone, Copy, Debug)]
pub struct Job<'a> {
    /// The module it is in.
    pub module: &'a ir::Module,
    /// Its index in `module.entry_points`.
    pub entry_point: usize,
    /// The entry point.
    pub entry: &'a ir::EntryPoint,
    /// The API conventions to legalize it under.
    pub policy: &'a ir::Policy,
    /// The places of the inputs the previous stage of a linked pipeline
    /// writes (a family that links by names, Metal, or has no stages to
    /// link, CUDA, ignores them).
    pub linked: &'a ir::link::Linked,
    /// Whether the module's other entry points stay.
    pub others: Others,
}

/// Declares a family (`$family`, `$title`): its unit type and its
/// `Legalized` and `LegalizedAll` over the family's `Plan`, which the
/// family's module documentation describes.
macro_rules! family {
    ($family:ident, $title:literal) => {
        #[doc = concat!("The ", $title, " family: its [`Family`](crate::Family) methods")]
        #[doc = "legalize as the module documentation describes."]
        #[derive(Clone, Copy, Debug)]
        pub struct $family;

        #[doc = concat!("One entry point legalized for ", $title, ": the module and its [`Plan`].")]
        pub type Legalized = crate::Legalized<Plan>;

        #[doc = concat!("Every entry point of a module legalized for ", $title, " into one module")]
        #[doc = "([`Family::legalize_all_unverified`](crate::Family::legalize_all_unverified)),"]
        #[doc = "with one [`Plan`] each, in entry-point order."]
        pub type LegalizedAll = crate::LegalizedAll<Plan>;
    };
}
pub(crate) use family;

mod sealed {
    use legalis_ir as ir;
    use legalis_ir::diag::Diagnostic;

    /// A family's diagnostic codes: no entry point, a stage its targets do
    /// not have, and the internal error of an invalid result.
    #[derive(Clone, Copy, Debug)]
    pub struct Codes {
        pub no_entry_point: u32,
        pub unsupported_stage: u32,
        pub internal_verify: u32,
    }

    /// The four families of this crate are the only ones; what each
    /// gives the provided methods of [`super::Family`] is here.
    pub trait Sealed {
        /// The family's codes.
        const CODES: Codes;

        /// The target and the stages it has, as the refusal of another
        /// stage names them ("WGSL has no hull entry points (only vertex,
        /// fragment and compute)").
        const STAGES: (&'static str, &'static str);

        /// Whether the family's targets have `stage`.
        fn has_stage(_stage: ir::ShaderStage) -> bool {
            true
        }

        /// Whether the family's writers print global initializer `init` of
        /// `module` as a module-scope constant: by default literals, and
        /// constructions, conversions, operators and selections over them.
        fn constant_initializer(module: &ir::Module, init: ir::Handle<ir::Expression>) -> bool {
            ir::is_constant(&module.global_expressions, init, true, &|_| false)
        }

        /// Entry point `entry_point` of `module`, or the family's refusal:
        /// no such entry point, or a stage its targets do not have.
        fn entry(
            module: &ir::Module,
            entry_point: usize,
        ) -> Result<&ir::EntryPoint, Vec<Diagnostic>> {
            let Some(entry) = module.entry_points.get(entry_point) else {
                let message = "no entry point to legalize: pass `-entry NAME -stage STAGE` \
                               or add `[shader(\"...\")]`";
                let span = ir::Span::UNDEFINED;
                return Err(vec![Diagnostic::error(
                    Self::CODES.no_entry_point,
                    message,
                    span,
                )]);
            };
            if Self::has_stage(entry.stage) {
                return Ok(entry);
            }
            let (target, stages) = Self::STAGES;
            let message = format!(
                "{target} has no {} entry points (only {stages})",
                entry.stage.name()
            );
            let code = Self::CODES.unsupported_stage;
            Err(vec![Diagnostic::error(code, message, entry.span)])
        }
    }
}

use sealed::Codes;
pub(crate) use sealed::Sealed;

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
    /// default sampled textures and samplers are passed, as GLSL, SPIR-V
    /// and WGSL do.
    fn passes_resource(inner: &ir::TypeInner) -> bool {
        super::resource_arguments::sampled(inner)
    }

    /// Legalizes entry point `entry_point` of `module` under the API
    /// conventions of `policy`, inputs the previous stage of a linked
    /// pipeline writes at the places `linked` gives (a family that links
    /// by names, Metal, or has no stages to link, CUDA, ignores it),
    /// keeping or dropping the other entry points (`others`). The resource
    /// arguments are left as they are and the result is not verified: the
    /// provided methods do both.
    fn legalize_one(job: Job<'_>) -> Result<Legalized<Self::Plan>, Vec<Diagnostic>>;

    /// The [`Job`] of entry point `entry_point` of `module`, refused with
    /// the family's code where there is no such entry point or the family
    /// has not its stage.
    fn job<'a>(
        module: &'a ir::Module,
        entry_point: usize,
        policy: &'a ir::Policy,
        linked: &'a ir::link::Linked,
        others: Others,
    ) -> Result<Job<'a>, Vec<Diagnostic>> {
        let entry = Self::entry(module, entry_point)?;
        Ok(Job {
            module,
            entry_point,
            entry,
            policy,
            linked,
            others,
        })
    }

    /// The IR verifier on a legalized module (`verify_legalized`: no
    /// semantic left on the entry point): a pass that left it invalid is
    /// the family's internal error, reported at the entry point (`span`).
    fn verify(module: &ir::Module, span: ir::Span) -> Result<(), Vec<Diagnostic>> {
        super::report(
            ir::verify::verify_legalized(module),
            span,
            Self::CODES.internal_verify,
        )
    }

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
        let job = Self::job(module, entry_point, policy, linked, Others::Drop)?;
        let mut legalized = Self::legalize_one(job)?;
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
            let job = Self::job(current, k, policy, &linked, Others::Keep)?;
            Self::legalize_one(job).map(|l| (l.module, l.plan))
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
    // A `static const` whose initializer the family's writers cannot print
    // as a constant (`f(0.25)`, a user function's result) is a private
    // global, which they set at the entry point before the body runs, as
    // they do for `static` ones. In declaration order: a constant naming
    // one that went goes too.
    for k in 0..module.globals.len() {
        let g = ir::Handle::from_index(k);
        let global = &module.globals[g];
        if let (ir::AddressSpace::Constant, Some(init)) = (global.space, global.init)
            && !F::constant_initializer(module, init)
        {
            module.globals.get_mut(g).space = ir::AddressSpace::Private;
        }
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

impl Sealed for crate::glsl::Glsl {
    // Every stage: GLSL and SPIR-V have them all.
    const CODES: Codes = Codes {
        no_entry_point: codes::NO_ENTRY_POINT,
        unsupported_stage: codes::UNSUPPORTED_STAGE,
        internal_verify: codes::INTERNAL_VERIFY,
    };
    const STAGES: (&'static str, &'static str) = ("GLSL", "every stage");

    // GLSL constant expressions may name other constants.
    fn constant_initializer(module: &ir::Module, init: ir::Handle<ir::Expression>) -> bool {
        let constant = |g: ir::Handle<ir::GlobalVariable>| {
            module.globals[g].space == ir::AddressSpace::Constant
        };
        ir::is_constant(&module.global_expressions, init, true, &constant)
    }
}

impl Sealed for crate::wgsl::Wgsl {
    const CODES: Codes = Codes {
        no_entry_point: codes::WGSL_NO_ENTRY_POINT,
        unsupported_stage: codes::WGSL_UNSUPPORTED_STAGE,
        internal_verify: codes::WGSL_INTERNAL_VERIFY,
    };
    const STAGES: (&'static str, &'static str) = ("WGSL", "vertex, fragment and compute");

    fn has_stage(stage: ir::ShaderStage) -> bool {
        use ir::ShaderStage as S;
        matches!(stage, S::Vertex | S::Fragment | S::Compute)
    }
}

impl Sealed for crate::metal::Metal {
    const CODES: Codes = Codes {
        no_entry_point: codes::METAL_NO_ENTRY_POINT,
        unsupported_stage: codes::METAL_UNSUPPORTED_STAGE,
        internal_verify: codes::METAL_INTERNAL_VERIFY,
    };
    const STAGES: (&'static str, &'static str) =
        ("Metal", "vertex, fragment, kernel, object and mesh");

    fn has_stage(stage: ir::ShaderStage) -> bool {
        legalis_sysval::metal::has_stage(stage)
    }

    // A program-scope `constant` holds no selection.
    fn constant_initializer(module: &ir::Module, init: ir::Handle<ir::Expression>) -> bool {
        ir::is_constant(&module.global_expressions, init, false, &|_| false)
    }
}

impl Sealed for crate::cuda::Cuda {
    const CODES: Codes = Codes {
        no_entry_point: codes::CUDA_NO_ENTRY_POINT,
        unsupported_stage: codes::CUDA_UNSUPPORTED_STAGE,
        internal_verify: codes::CUDA_INTERNAL_VERIFY,
    };
    const STAGES: (&'static str, &'static str) =
        ("CUDA", "compute kernels and the OptiX ray-tracing programs");

    fn has_stage(stage: ir::ShaderStage) -> bool {
        legalis_sysval::cuda::has_stage(stage)
    }

    // The CUDA writer folds every constant into its uses.
    fn constant_initializer(_module: &ir::Module, _init: ir::Handle<ir::Expression>) -> bool {
        true
    }
}

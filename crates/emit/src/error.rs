//! The one shape of every writer's error: `writer_error!` declares a
//! target's public `Error` (unsupported, not legalized, no such entry
//! point, and the variant only that target has) with its `Result` and
//! `unsupported`, and [`Refusal`] is how shared printers make one.

use legalis_ir::Span;

/// How shared code makes a writer's error.
pub(crate) trait Refusal {
    /// A construct the target does not support, at `span`.
    fn unsupported(what: String, span: Span) -> Self;
    /// What the legalizer should have rewritten, at `span`.
    fn not_legalized(what: String, span: Span) -> Self;
    /// No entry point at `index`.
    fn no_entry_point(index: usize) -> Self;
}

/// The entry points `indices` of `module`: a writer's first step. An
/// index past the list, or no index at all (as 0), is the error.
pub(crate) fn entry_points<'a, E: Refusal>(
    module: &'a legalis_ir::Module,
    indices: &[usize],
) -> Result<Vec<&'a legalis_ir::EntryPoint>, E> {
    if indices.is_empty() {
        return Err(E::no_entry_point(0));
    }
    indices
        .iter()
        .map(|&index| {
            module
                .entry_points
                .get(index)
                .ok_or(E::no_entry_point(index))
        })
        .collect()
}

/// Refuses an entry point whose function still has parameters or a
/// result: GLSL and SPIR-V take a legalized, parameterless one.
pub(crate) fn parameterless<E: Refusal>(
    module: &legalis_ir::Module,
    entry: &legalis_ir::EntryPoint,
) -> Result<(), E> {
    let func = &module.functions[entry.function];
    if !func.params.is_empty() || func.result.is_some() {
        return Err(E::not_legalized(
            format!(
                "entry point `{}` still has parameters or a result",
                entry.name
            ),
            entry.span,
        ));
    }
    Ok(())
}

/// Declares a writer's `Error`. `target` names the output in the messages
/// ("{target} output does not support {what}", "the module is not
/// legalized for {target}: {what}") and `not_legalized` documents what the
/// legalizer leaves that the writer refuses. Then at most one of:
/// - `layout: VERB, layout_doc: DOC`: a `Layout { what, span }` variant,
///   "{target} output does not yet {VERB} {what}" (the C-family writers);
/// - `internal: DOC`: an `Internal { what }` variant without a span,
///   "internal {target} writer error: {what}" (SPIR-V's module builder).
macro_rules! writer_error {
    (
        target: $target:literal,
        not_legalized: $not_legalized:literal
        $(, layout: $layout:literal, layout_doc: $layout_doc:literal)?
        $(, internal: $internal_doc:literal)?
    ) => {
        #[doc = concat!("Why a module could not be written as ", $target, ".")]
        #[derive(Clone, Debug, PartialEq, Eq)]
        pub enum Error {
            #[doc = concat!("A construct ", $target, " output does not support, at its source span.")]
            Unsupported {
                #[doc = concat!("The construct, as the message's object: \"", $target, " output does not support {what}\".")]
                what: String,
                /// Where the construct is in the source.
                span: ::legalis_ir::Span,
            },
            #[doc = concat!("The module was not legalized for ", $target, ": ", $not_legalized)]
            NotLegalized {
                #[doc = concat!("What the legalizer left, for the message \"the module is not legalized for ", $target, ": {what}\".")]
                what: String,
                /// Where the offending item is in the source.
                span: ::legalis_ir::Span,
            },
            /// `entry_point` is not an index into `module.entry_points`.
            NoSuchEntryPoint {
                /// The index asked for.
                index: usize,
            },
            $(
            #[doc = $layout_doc]
            Layout {
                #[doc = concat!("The construct, as the message's object: \"", $target, " output does not yet ", $layout, " {what}\".")]
                what: String,
                /// Where it is in the source.
                span: ::legalis_ir::Span,
            },
            )?
            $(
            #[doc = $internal_doc]
            Internal {
                /// The complaint.
                what: String,
            },
            )?
        }

        impl Error {
            /// The source span the error points at, where it has one.
            pub fn span(&self) -> Option<::legalis_ir::Span> {
                match self {
                    Error::Unsupported { span, .. } | Error::NotLegalized { span, .. } => {
                        Some(*span)
                    }
                    $(Error::Layout { span, .. } => {
                        let _ = $layout;
                        Some(*span)
                    })?
                    Error::NoSuchEntryPoint { .. } => None,
                    $(Error::Internal { .. } => {
                        let _ = $internal_doc;
                        None
                    })?
                }
            }
        }

        impl std::fmt::Display for Error {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                match self {
                    Error::Unsupported { what, .. } => {
                        write!(f, concat!($target, " output does not support {}"), what)
                    }
                    Error::NotLegalized { what, .. } => {
                        write!(f, concat!("the module is not legalized for ", $target, ": {}"), what)
                    }
                    Error::NoSuchEntryPoint { index } => {
                        write!(f, "no entry point with index {index}")
                    }
                    $(Error::Layout { what, .. } => {
                        write!(f, concat!($target, " output does not yet ", $layout, " {}"), what)
                    })?
                    $(Error::Internal { what } => {
                        let _ = $internal_doc;
                        write!(f, concat!("internal ", $target, " writer error: {}"), what)
                    })?
                }
            }
        }

        impl std::error::Error for Error {}

        /// What the writer's functions return.
        pub(crate) type Result<T, E = Error> = std::result::Result<T, E>;

        /// An [`Error::Unsupported`] of `what` at `span`.
        pub(crate) fn unsupported<T>(what: impl Into<String>, span: ::legalis_ir::Span) -> Result<T> {
            Err(Error::Unsupported {
                what: what.into(),
                span,
            })
        }

        impl $crate::error::Refusal for Error {
            fn unsupported(what: String, span: ::legalis_ir::Span) -> Self {
                Error::Unsupported { what, span }
            }
            fn not_legalized(what: String, span: ::legalis_ir::Span) -> Self {
                Error::NotLegalized { what, span }
            }
            fn no_entry_point(index: usize) -> Self {
                Error::NoSuchEntryPoint { index }
            }
        }
    };
}

pub(crate) use writer_error;

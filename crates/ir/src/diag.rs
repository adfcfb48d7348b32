//! Diagnostics as values: a code, a severity, a message and labelled spans.
//!
//! Every crate reports problems with [`Diagnostic`]; only the facade turns them
//! into text (codespan-rendered for people, tab-separated for machines). Codes
//! are `E` + five digits; the ranges are documented in `docs/diagnostics.md`.

use crate::Span;

/// How bad a diagnostic is: an error fails the compile, a warning does not.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Severity {
    /// Reported; the compile goes on and can succeed.
    Warning,
    /// The compile fails.
    Error,
}

impl Severity {
    /// The lower-case word the renderers print (`warning`, `error`).
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Warning => "warning",
            Severity::Error => "error",
        }
    }
}

/// A span with an optional message; the first label of a diagnostic is its
/// primary location.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Label {
    /// Where the label points; [`Span::UNDEFINED`] for compiler-made code.
    pub span: Span,
    /// The label's text; empty for a bare location.
    pub message: String,
}

/// One problem found in the source or in the compiler: a code, a severity, a message, labelled
/// spans and notes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// Numeric part of the code: `49999` prints as `E49999`.
    pub code: u32,
    /// Error or warning.
    pub severity: Severity,
    /// The main message, printed after the code.
    pub message: String,
    /// Primary label first, then secondary labels.
    pub labels: Vec<Label>,
    /// Extra lines printed after the labels (`= note: ...`).
    pub notes: Vec<String>,
}

impl Diagnostic {
    /// An error with `code` (the numeric part, `49999` for `E49999`), `message`, and an unlabelled
    /// primary span.
    pub fn error(code: u32, message: impl Into<String>, span: Span) -> Self {
        Diagnostic {
            code,
            severity: Severity::Error,
            message: message.into(),
            labels: vec![Label {
                span,
                message: String::new(),
            }],
            notes: Vec::new(),
        }
    }

    /// A warning, otherwise as [`Diagnostic::error`].
    pub fn warning(code: u32, message: impl Into<String>, span: Span) -> Self {
        Diagnostic {
            severity: Severity::Warning,
            ..Diagnostic::error(code, message, span)
        }
    }

    /// Sets the message of the primary label.
    pub fn with_primary_message(mut self, message: impl Into<String>) -> Self {
        if let Some(label) = self.labels.first_mut() {
            label.message = message.into();
        }
        self
    }

    /// Adds a secondary label at `span`.
    pub fn with_label(mut self, span: Span, message: impl Into<String>) -> Self {
        self.labels.push(Label {
            span,
            message: message.into(),
        });
        self
    }

    /// Adds a note.
    pub fn with_note(mut self, note: impl Into<String>) -> Self {
        self.notes.push(note.into());
        self
    }

    /// The primary label's span; [`Span::UNDEFINED`] without labels.
    pub fn primary_span(&self) -> Span {
        self.labels
            .first()
            .map(|l| l.span)
            .unwrap_or(Span::UNDEFINED)
    }

    /// Whether the severity is [`Severity::Error`].
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }

    /// `E` followed by the five-digit code.
    pub fn code_str(&self) -> String {
        format!("E{:05}", self.code)
    }
}

//! Diagnostics as values: a code, a severity, a message and labelled spans.
//!
//! Every crate reports problems with [`Diagnostic`]; only the facade turns them
//! into text (codespan-rendered for people, tab-separated for machines). Codes
//! are `E` + five digits; the ranges are documented in `docs/diagnostics.md`.

use crate::Span;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Severity {
    Warning,
    Error,
}

impl Severity {
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
    pub span: Span,
    pub message: String,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// Numeric part of the code: `49999` prints as `E49999`.
    pub code: u32,
    pub severity: Severity,
    pub message: String,
    /// Primary label first, then secondary labels.
    pub labels: Vec<Label>,
    pub notes: Vec<String>,
}

impl Diagnostic {
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

    pub fn with_label(mut self, span: Span, message: impl Into<String>) -> Self {
        self.labels.push(Label {
            span,
            message: message.into(),
        });
        self
    }

    pub fn with_note(mut self, note: impl Into<String>) -> Self {
        self.notes.push(note.into());
        self
    }

    pub fn primary_span(&self) -> Span {
        self.labels
            .first()
            .map(|l| l.span)
            .unwrap_or(Span::UNDEFINED)
    }

    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }

    /// `E` followed by the five-digit code.
    pub fn code_str(&self) -> String {
        format!("E{:05}", self.code)
    }
}

//! Byte ranges into the one source file a module was built from.

/// A half-open byte range `start..end` in the source text.
///
/// [`Span::UNDEFINED`] (`u32::MAX..u32::MAX`) marks compiler-made items.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Span {
    /// The first byte.
    pub start: u32,
    /// One past the last byte.
    pub end: u32,
}

impl Span {
    /// The span of synthesised items; renders as "no location".
    pub const UNDEFINED: Span = Span {
        start: u32::MAX,
        end: u32::MAX,
    };

    /// The span `start..end`.
    pub fn new(start: u32, end: u32) -> Self {
        Span { start, end }
    }

    /// Whether this is a real source range, not [`Span::UNDEFINED`].
    pub fn is_defined(self) -> bool {
        self != Span::UNDEFINED
    }

    /// The smallest span covering both.
    pub fn join(self, other: Span) -> Span {
        if !self.is_defined() {
            return other;
        }
        if !other.is_defined() {
            return self;
        }
        Span {
            start: self.start.min(other.start),
            end: self.end.max(other.end),
        }
    }

    /// `start..end` as a range for slicing the source text.
    pub fn range(self) -> std::ops::Range<usize> {
        self.start as usize..self.end as usize
    }
}

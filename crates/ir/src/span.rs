//! Byte ranges into the one source file a module was built from.

/// A half-open byte range `start..end` in the source text.
///
/// `Span::UNDEFINED` (0..0 with `defined == false`) marks compiler-made items.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Span {
    pub start: u32,
    pub end: u32,
}

impl Span {
    /// The span of synthesised items; renders as "no location".
    pub const UNDEFINED: Span = Span {
        start: u32::MAX,
        end: u32::MAX,
    };

    pub fn new(start: u32, end: u32) -> Self {
        Span { start, end }
    }

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

    pub fn range(self) -> std::ops::Range<usize> {
        self.start as usize..self.end as usize
    }
}

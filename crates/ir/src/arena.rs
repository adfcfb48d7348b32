//! Typed handles into arenas, the storage every IR collection uses.
//!
//! A [`Handle<T>`] is a `u32` index; it is only meaningful for the arena that
//! produced it. [`Arena`] keeps a source [`Span`] beside every value;
//! [`UniqueArena`] interns values so that equal values share one handle (type
//! equality is handle equality).

use indexmap::IndexSet;
use std::fmt;
use std::hash::Hash;
use std::marker::PhantomData;

use crate::Span;

/// An index into an [`Arena`] or [`UniqueArena`] of `T`.
pub struct Handle<T> {
    index: u32,
    marker: PhantomData<fn() -> T>,
}

impl<T> Handle<T> {
    /// Builds a handle from a raw index. Only arenas and verifiers should need this.
    pub fn from_index(index: usize) -> Self {
        let index = u32::try_from(index).expect("arena holds more than u32::MAX items");
        Handle {
            index,
            marker: PhantomData,
        }
    }

    /// The position of the value in its arena.
    pub fn index(self) -> usize {
        self.index as usize
    }
}

impl<T> Clone for Handle<T> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T> Copy for Handle<T> {}
impl<T> PartialEq for Handle<T> {
    fn eq(&self, other: &Self) -> bool {
        self.index == other.index
    }
}
impl<T> Eq for Handle<T> {}
impl<T> PartialOrd for Handle<T> {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl<T> Ord for Handle<T> {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.index.cmp(&other.index)
    }
}
impl<T> Hash for Handle<T> {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.index.hash(state);
    }
}
impl<T> fmt::Debug for Handle<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "[{}]", self.index)
    }
}

/// An append-only vector of `T` addressed by [`Handle<T>`], with a span per item.
#[derive(Clone, Debug)]
pub struct Arena<T> {
    data: Vec<T>,
    spans: Vec<Span>,
}

impl<T> Default for Arena<T> {
    fn default() -> Self {
        Arena {
            data: Vec::new(),
            spans: Vec::new(),
        }
    }
}

impl<T> Arena<T> {
    /// An empty arena.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds `value` and returns its handle.
    pub fn append(&mut self, value: T, span: Span) -> Handle<T> {
        let handle = Handle::from_index(self.data.len());
        self.data.push(value);
        self.spans.push(span);
        handle
    }

    /// Makes room for `additional` more values, so a known number of
    /// appends does not copy the arena as it grows.
    pub fn reserve(&mut self, additional: usize) {
        self.data.reserve(additional);
        self.spans.reserve(additional);
    }

    /// The number of values.
    pub fn len(&self) -> usize {
        self.data.len()
    }

    /// Whether the arena holds no value.
    pub fn is_empty(&self) -> bool {
        self.data.is_empty()
    }

    /// The value behind `handle`, or `None` if the handle is out of range.
    pub fn try_get(&self, handle: Handle<T>) -> Option<&T> {
        self.data.get(handle.index())
    }

    /// The value behind `handle`, mutably.
    ///
    /// # Panics
    ///
    /// If `handle` is out of range.
    pub fn get_mut(&mut self, handle: Handle<T>) -> &mut T {
        &mut self.data[handle.index()]
    }

    /// The source span recorded for `handle` (`Span::UNDEFINED` for synthesised items).
    pub fn span(&self, handle: Handle<T>) -> Span {
        self.spans.get(handle.index()).copied().unwrap_or_default()
    }

    /// Whether `handle` addresses a value of this arena.
    pub fn contains(&self, handle: Handle<T>) -> bool {
        handle.index() < self.data.len()
    }

    /// The values with their handles, in handle (insertion) order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = (Handle<T>, &T)> + '_ {
        self.data
            .iter()
            .enumerate()
            .map(|(i, v)| (Handle::from_index(i), v))
    }

    /// The values with their handles, mutably, in handle order.
    pub fn iter_mut(&mut self) -> impl ExactSizeIterator<Item = (Handle<T>, &mut T)> + '_ {
        self.data
            .iter_mut()
            .enumerate()
            .map(|(i, v)| (Handle::from_index(i), v))
    }

    /// Consumes the arena, returning values and spans in handle order.
    pub fn into_parts(self) -> (Vec<T>, Vec<Span>) {
        (self.data, self.spans)
    }
}

impl<T> std::ops::Index<Handle<T>> for Arena<T> {
    type Output = T;
    fn index(&self, handle: Handle<T>) -> &T {
        &self.data[handle.index()]
    }
}

/// An arena that stores each distinct value once: an insertion-ordered
/// hash set, so a value is held (and cloned with the module) once, not as
/// an element and again as a map key.
#[derive(Clone, Debug)]
pub struct UniqueArena<T: Eq + Hash + Clone> {
    set: IndexSet<T, rustc_hash::FxBuildHasher>,
    spans: Vec<Span>,
}

impl<T: Eq + Hash + Clone> Default for UniqueArena<T> {
    fn default() -> Self {
        UniqueArena {
            set: IndexSet::default(),
            spans: Vec::new(),
        }
    }
}

impl<T: Eq + Hash + Clone> UniqueArena<T> {
    /// An empty arena.
    pub fn new() -> Self {
        Self::default()
    }

    /// Returns the handle of `value`, adding it first if it is new. The span of
    /// the first insertion is kept.
    pub fn insert(&mut self, value: T, span: Span) -> Handle<T> {
        let (index, added) = self.set.insert_full(value);
        if added {
            self.spans.push(span);
        }
        Handle::from_index(index)
    }

    /// The handle of `value` if it was interned.
    pub fn get(&self, value: &T) -> Option<Handle<T>> {
        self.set.get_index_of(value).map(Handle::from_index)
    }

    /// The number of distinct values.
    pub fn len(&self) -> usize {
        self.set.len()
    }

    /// Whether the arena holds no value.
    pub fn is_empty(&self) -> bool {
        self.set.is_empty()
    }

    /// Whether `handle` addresses a value of this arena.
    pub fn contains(&self, handle: Handle<T>) -> bool {
        handle.index() < self.set.len()
    }

    /// The value behind `handle`, or `None` if the handle is out of range.
    pub fn try_get(&self, handle: Handle<T>) -> Option<&T> {
        self.set.get_index(handle.index())
    }

    /// The source span of the value's first insertion (`Span::default()` for a handle out of
    /// range).
    pub fn span(&self, handle: Handle<T>) -> Span {
        self.spans.get(handle.index()).copied().unwrap_or_default()
    }

    /// The values with their handles, in handle (first-insertion) order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = (Handle<T>, &T)> + '_ {
        self.set
            .iter()
            .enumerate()
            .map(|(i, v)| (Handle::from_index(i), v))
    }
}

impl<T: Eq + Hash + Clone> std::ops::Index<Handle<T>> for UniqueArena<T> {
    type Output = T;
    fn index(&self, handle: Handle<T>) -> &T {
        &self.set[handle.index()]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unique_arena_interns_equal_values() {
        let mut arena = UniqueArena::new();
        let a = arena.insert("float4".to_string(), Span::new(0, 6));
        let b = arena.insert("int".to_string(), Span::new(7, 10));
        let c = arena.insert("float4".to_string(), Span::new(11, 17));
        assert_eq!(a, c);
        assert_ne!(a, b);
        assert_eq!(arena.len(), 2);
        assert_eq!(arena.span(c), Span::new(0, 6));
    }

    #[test]
    fn arena_keeps_spans_beside_values() {
        let mut arena = Arena::new();
        let h = arena.append(5u32, Span::new(3, 4));
        assert_eq!(arena[h], 5);
        assert_eq!(arena.span(h), Span::new(3, 4));
        assert!(!arena.contains(Handle::from_index(1)));
        assert_eq!(arena.try_get(Handle::from_index(1)), None);
    }
}

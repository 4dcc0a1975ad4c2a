//! The one way the writers emit bytes: a growing file into which they put the `raw` structs the
//! readers borrow, so that a layout is described once, in `raw.rs`.
//!
//! Tables whose records point at data written after them are reserved first (zeroed) and patched
//! once their targets are known. Every method that writes at a position checks it and fails with a
//! writer [`WriteError`] naming the structure, never dropping a write silently; lengths are narrowed to
//! their fields with [`narrow`], which names the field a value does not fit.

use core::marker::PhantomData;
use core::mem::size_of;

use zerocopy::{Immutable, IntoBytes};

use crate::bytes::u64_of;
use crate::write_error::{WriteError, WriteResult as Result};

/// A writer error: `what` names the format's structure and field, `value` the value it cannot
/// store; the layers above add where in the model it is.
pub(crate) fn invalid(what: &'static str, value: u64, reason: &'static str) -> WriteError {
    WriteError::invalid(what, value, reason)
}

/// Narrows a length, count or index to the type of the field `what` that stores it.
pub(crate) fn narrow<T: TryFrom<usize>>(value: usize, what: &'static str) -> Result<T> {
    T::try_from(value).map_err(|_| invalid(what, u64_of(value), "does not fit the field"))
}

/// The relative pointer stored at `base`'s struct to reach `target` (`target - base`).
pub(crate) fn relative(base: usize, target: usize, what: &'static str) -> Result<i64> {
    let signed = |n: usize| {
        i64::try_from(n).map_err(|_| invalid(what, u64_of(n), "offset does not fit i64"))
    };
    signed(target)?
        .checked_sub(signed(base)?)
        .ok_or_else(|| invalid(what, u64_of(target), "relative pointer overflows i64"))
}

/// A file under construction.
#[derive(Clone, Default)]
pub(crate) struct Sink {
    bytes: Vec<u8>,
}

// By hand: a sink can hold a whole file; show its length and first bytes.
impl core::fmt::Debug for Sink {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_tuple("Sink")
            .field(&crate::bytes::Bytes::new(&self.bytes))
            .finish()
    }
}

/// `count` zeroed records of `T` reserved in a [`Sink`], to be filled with [`Sink::patch_record`].
pub(crate) struct Reserved<T> {
    at: usize,
    count: usize,
    what: &'static str,
    record: PhantomData<fn() -> T>,
}

impl<T> Reserved<T> {
    /// Where the first record starts.
    pub(crate) fn at(&self) -> usize {
        self.at
    }

    /// Where record `index` starts.
    pub(crate) fn record(&self, index: usize) -> Result<usize> {
        if index >= self.count {
            return Err(invalid(
                self.what,
                u64_of(index),
                "record index outside the reserved table",
            ));
        }
        index
            .checked_mul(size_of::<T>())
            .and_then(|o| o.checked_add(self.at))
            .ok_or_else(|| invalid(self.what, u64_of(index), "record offset overflows"))
    }
}

impl Sink {
    /// An empty file.
    pub(crate) fn new() -> Self {
        Self::default()
    }

    /// The position the next byte will have (the length so far).
    pub(crate) fn len(&self) -> usize {
        self.bytes.len()
    }

    /// Appends `value`'s bytes (a raw struct, a table of them, or a byte string); returns where it
    /// starts.
    pub(crate) fn put<T: IntoBytes + Immutable + ?Sized>(&mut self, value: &T) -> usize {
        let at = self.bytes.len();
        self.bytes.extend_from_slice(value.as_bytes());
        at
    }

    /// Appends `count` bytes of `byte` (padding); returns where they start.
    pub(crate) fn fill(&mut self, byte: u8, count: usize) -> Result<usize> {
        let at = self.bytes.len();
        let end = at
            .checked_add(count)
            .ok_or_else(|| invalid("padding", u64_of(count), "file length overflows"))?;
        self.bytes.resize(end, byte);
        Ok(at)
    }

    /// Pads with zeros to a multiple of `to` (a power of two or any non-zero size); returns the
    /// aligned position.
    pub(crate) fn align(&mut self, to: usize) -> Result<usize> {
        let end = self
            .bytes
            .len()
            .checked_next_multiple_of(to)
            .ok_or_else(|| invalid("alignment", u64_of(to), "not a usable alignment"))?;
        self.bytes.resize(end, 0);
        Ok(end)
    }

    /// Reserves `count` zeroed records of `T` (a table whose records point at data not yet
    /// written); `what` names the table in errors.
    pub(crate) fn reserve<T>(&mut self, count: usize, what: &'static str) -> Result<Reserved<T>> {
        let len = count
            .checked_mul(size_of::<T>())
            .ok_or_else(|| invalid(what, u64_of(count), "table size overflows"))?;
        let at = self.fill(0, len)?;
        Ok(Reserved {
            at,
            count,
            what,
            record: PhantomData,
        })
    }

    /// Fills record `index` of a reserved table; returns where it starts.
    pub(crate) fn patch_record<T: IntoBytes + Immutable>(
        &mut self,
        table: &Reserved<T>,
        index: usize,
        value: &T,
    ) -> Result<usize> {
        let at = table.record(index)?;
        self.patch(at, value, table.what)?;
        Ok(at)
    }

    /// Overwrites the bytes at `at` with `value`'s, which must lie inside what is written so far.
    pub(crate) fn patch<T: IntoBytes + Immutable + ?Sized>(
        &mut self,
        at: usize,
        value: &T,
        what: &'static str,
    ) -> Result<()> {
        let src = value.as_bytes();
        let dst = at
            .checked_add(src.len())
            .and_then(|end| self.bytes.get_mut(at..end))
            .ok_or_else(|| {
                invalid(
                    what,
                    u64_of(at),
                    "patched past the end of what is written (a writer bug)",
                )
            })?;
        dst.copy_from_slice(src);
        Ok(())
    }

    /// What is written so far.
    pub(crate) fn as_slice(&self) -> &[u8] {
        &self.bytes
    }

    /// The finished file.
    pub(crate) fn into_bytes(self) -> Vec<u8> {
        self.bytes
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use zerocopy::little_endian::{I64, U32};

    #[derive(IntoBytes, Immutable)]
    #[repr(C)]
    struct Record {
        count: U32,
        ptr: I64,
    }

    #[test]
    fn puts_reserves_and_patches_records() {
        let mut sink = Sink::new();
        assert_eq!(sink.put(b"ab".as_slice()), 0);
        let table = sink.reserve::<Record>(2, "Record").unwrap();
        assert_eq!(table.at(), 2);
        let target = sink.put(&U32::new(7));
        let rec = Record {
            count: U32::new(1),
            ptr: I64::new(relative(table.record(1).unwrap(), target, "Record.ptr").unwrap()),
        };
        assert_eq!(sink.patch_record(&table, 1, &rec).unwrap(), 14);
        assert_eq!(sink.align(8).unwrap(), 32);
        let bytes = sink.into_bytes();
        assert_eq!(bytes.len(), 32);
        assert_eq!(&bytes[14..18], &[1, 0, 0, 0]);
        assert_eq!(&bytes[18..26], &12i64.to_le_bytes());
    }

    #[test]
    fn out_of_range_writes_are_errors() {
        let mut sink = Sink::new();
        let table = sink.reserve::<Record>(1, "Record").unwrap();
        let rec = Record {
            count: U32::new(0),
            ptr: I64::new(0),
        };
        let e = sink.patch_record(&table, 1, &rec).unwrap_err();
        assert_eq!(e.field(), Some("Record"));
        assert!(sink.patch(usize::MAX, &U32::new(1), "X.field").is_err());
        assert!(sink.patch(10, &U32::new(1), "X.field").is_err());
        assert!(sink.reserve::<Record>(usize::MAX, "Record").is_err());
        assert!(sink.align(0).is_err());
        assert_eq!(
            narrow::<u8>(300, "X.count").unwrap_err().field(),
            Some("X.count")
        );
        assert_eq!(narrow::<u16>(300, "X.count").unwrap(), 300);
        assert!(relative(0, usize::MAX, "X.ptr").is_err());
        assert_eq!(relative(16, 8, "X.ptr").unwrap(), -8);
    }
}

//! The no-panic reading layer.
//!
//! [`Bytes`] wraps the whole file (`&'a [u8]`) and hands out borrowed pieces of it: byte ranges,
//! alignment-1 raw structs and tables of them, and the targets of relative pointers. Every read is
//! bounds-checked with overflow-checked arithmetic and fails with an [`Error`] that names the absolute
//! file offset and the field being read. Nothing here allocates or panics, whatever the input.

use zerocopy::{FromBytes, Immutable, IntoBytes, KnownLayout, Unaligned};

use crate::error::{Error, ErrorKind, Result};

// The deflate loop of the formats that store deflated data.
#[cfg(any(feature = "wwd", feature = "pfs"))]
pub(crate) mod inflate;
mod records;
// Each format's writer uses its part of the sink: a build with fewer formats leaves the rest unused.
#[cfg(feature = "write")]
#[allow(dead_code)]
pub(crate) mod sink;
pub use records::{Place, Record, Records};

/// Converts a `usize` to `u64` for error reports (lossless on every supported target).
#[inline]
pub(crate) const fn u64_of(n: usize) -> u64 {
    n as u64
}

/// A whole file's bytes, with bounds-checked readers. `Copy`, one pointer and a length.
///
/// `Debug` shows the length and the first [`DEBUG_HEAD`] bytes: a view's `{:?}` must stay short
/// whatever the size of the file it borrows (a derived `Debug` printed every byte).
#[derive(Clone, Copy)]
pub struct Bytes<'a> {
    data: &'a [u8],
}

/// How many leading bytes `Debug` of [`Bytes`] shows.
pub const DEBUG_HEAD: usize = 16;

impl core::fmt::Debug for Bytes<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Bytes")
            .field("len", &self.data.len())
            .field("head", &Head(self.data))
            .finish()
    }
}

/// `Debug` of the first [`DEBUG_HEAD`] bytes of a slice, in hex.
struct Head<'a>(&'a [u8]);

impl core::fmt::Debug for Head<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        let head = self.0.get(..DEBUG_HEAD).unwrap_or(self.0);
        write!(f, "{head:02x?}")
    }
}

impl<'a> Bytes<'a> {
    /// Wraps the bytes of a whole file. Offsets given to the readers are offsets into `data`.
    pub const fn new(data: &'a [u8]) -> Self {
        Bytes { data }
    }

    /// The whole file.
    pub const fn as_slice(self) -> &'a [u8] {
        self.data
    }

    /// The file's length in bytes.
    pub const fn len(self) -> usize {
        self.data.len()
    }

    /// Whether the file is empty.
    pub const fn is_empty(self) -> bool {
        self.data.is_empty()
    }

    fn truncated(self, offset: usize, needed: usize, what: &'static str) -> Error {
        Error::truncated(
            u64_of(offset),
            what,
            u64_of(needed),
            u64_of(self.data.len().saturating_sub(offset)),
        )
    }

    /// `len` bytes at `offset`.
    #[inline]
    pub fn slice(self, offset: usize, len: usize, what: &'static str) -> Result<&'a [u8]> {
        offset
            .checked_add(len)
            .and_then(|end| self.data.get(offset..end))
            .ok_or_else(|| self.truncated(offset, len, what))
    }

    /// Everything from `offset` to the end of the file.
    #[inline]
    pub fn tail(self, offset: usize, what: &'static str) -> Result<&'a [u8]> {
        self.data
            .get(offset..)
            .ok_or_else(|| self.truncated(offset, 0, what))
    }

    /// A raw on-disk struct at `offset`, borrowed from the file. `T` has alignment 1, so any offset
    /// is fine.
    #[inline]
    pub fn read<T>(self, offset: usize, what: &'static str) -> Result<&'a T>
    where
        T: FromBytes + KnownLayout + Immutable + Unaligned,
    {
        let bytes = self.slice(offset, core::mem::size_of::<T>(), what)?;
        T::ref_from_bytes(bytes)
            .map_err(|_| self.truncated(offset, core::mem::size_of::<T>(), what))
    }

    /// A table of `count` raw records at `offset`, borrowed from the file. A `count` whose records
    /// cannot fit in the bytes that remain is an error before anything is touched.
    #[inline]
    pub fn read_slice<T>(self, offset: usize, count: usize, what: &'static str) -> Result<&'a [T]>
    where
        T: FromBytes + KnownLayout + Immutable + Unaligned,
    {
        let Some(len) = count.checked_mul(core::mem::size_of::<T>()) else {
            return Err(Error::truncated(
                u64_of(offset),
                what,
                u64::MAX,
                u64_of(self.data.len().saturating_sub(offset)),
            ));
        };
        let bytes = self.slice(offset, len, what)?;
        <[T]>::ref_from_bytes_with_elems(bytes, count)
            .map_err(|_| self.truncated(offset, len, what))
    }

    /// A raw on-disk struct at `offset` together with that offset.
    #[inline]
    pub fn located<T>(self, offset: usize, what: &'static str) -> Result<Located<'a, T>>
    where
        T: FromBytes + KnownLayout + Immutable + Unaligned,
    {
        Located::read(self, offset, what)
    }

    /// A [`Table`] of `count` raw records at `offset`, checked against the file once.
    #[inline]
    pub fn table<T>(self, offset: usize, count: usize, what: &'static str) -> Result<Table<'a, T>>
    where
        T: FromBytes + KnownLayout + Immutable + Unaligned,
    {
        Table::read(self, offset, count, what)
    }

    /// Resolves a relative pointer: `base + relative`, which must land inside the file (or exactly
    /// at its end, where an empty range may start). `what` names the pointer field; the error's
    /// offset is `field_offset`, where the pointer itself is stored.
    #[inline]
    pub fn resolve(
        self,
        field_offset: usize,
        base: usize,
        relative: i64,
        what: &'static str,
    ) -> Result<usize> {
        let out_of_bounds = || {
            Error::new(
                u64_of(field_offset),
                what,
                ErrorKind::PointerOutOfBounds {
                    base: u64_of(base),
                    relative,
                    size: u64_of(self.data.len()),
                },
            )
        };
        let rel = isize::try_from(relative).map_err(|_| out_of_bounds())?;
        match base.checked_add_signed(rel) {
            Some(target) if target <= self.data.len() => Ok(target),
            _ => Err(out_of_bounds()),
        }
    }

    /// Little-endian `u32` at `offset`.
    #[inline]
    pub fn u32_le(self, offset: usize, what: &'static str) -> Result<u32> {
        let b = self.slice(offset, 4, what)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }

    /// Big-endian `u32` at `offset`.
    #[inline]
    pub fn u32_be(self, offset: usize, what: &'static str) -> Result<u32> {
        let b = self.slice(offset, 4, what)?;
        Ok(u32::from_be_bytes([b[0], b[1], b[2], b[3]]))
    }

    /// Big-endian `u64` at `offset`.
    #[inline]
    pub fn u64_be(self, offset: usize, what: &'static str) -> Result<u64> {
        let b = self.slice(offset, 8, what)?;
        Ok(u64::from_be_bytes([
            b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7],
        ]))
    }
}

/// A reading position that advances past what it reads: for formats whose records follow one
/// another with variable lengths (strings between fixed parts), where each field's offset is
/// where the previous one ended. Every read goes through [`Bytes`] (bounds-checked, naming the
/// field and its absolute offset) and moves the position only when it succeeds. `Copy`, so a
/// caller can try a read on a copy and keep the original.
#[derive(Debug, Clone, Copy)]
pub struct Cursor<'a> {
    bytes: Bytes<'a>,
    offset: usize,
}

impl<'a> Cursor<'a> {
    /// A cursor at absolute file offset `offset` of `bytes` (it may lie past the end: the first
    /// read then fails).
    pub const fn new(bytes: Bytes<'a>, offset: usize) -> Self {
        Cursor { bytes, offset }
    }

    /// The absolute file offset of the next read.
    pub const fn offset(&self) -> usize {
        self.offset
    }

    /// The whole file the cursor reads.
    pub const fn bytes(&self) -> Bytes<'a> {
        self.bytes
    }

    /// Bytes between the position and the end of the file.
    pub const fn remaining(&self) -> usize {
        self.bytes.len().saturating_sub(self.offset)
    }

    /// Moves past `len` bytes that were read by other means; `what` names them.
    #[inline]
    pub fn take(&mut self, len: usize, what: &'static str) -> Result<&'a [u8]> {
        let taken = self.bytes.slice(self.offset, len, what)?;
        self.offset = self.offset.saturating_add(len);
        Ok(taken)
    }

    /// A raw on-disk struct, borrowed from the file.
    #[inline]
    pub fn read<T>(&mut self, what: &'static str) -> Result<&'a T>
    where
        T: FromBytes + KnownLayout + Immutable + Unaligned,
    {
        let value = self.bytes.read::<T>(self.offset, what)?;
        self.offset = self.offset.saturating_add(core::mem::size_of::<T>());
        Ok(value)
    }

    /// A table of `count` raw records, borrowed from the file (a `count` that cannot fit in the
    /// bytes that remain is an error before anything is touched).
    #[inline]
    pub fn read_slice<T>(&mut self, count: usize, what: &'static str) -> Result<&'a [T]>
    where
        T: FromBytes + KnownLayout + Immutable + Unaligned,
    {
        let items = self.bytes.read_slice::<T>(self.offset, count, what)?;
        self.offset = self.offset.saturating_add(core::mem::size_of_val(items));
        Ok(items)
    }

    /// A raw on-disk struct with its file offset.
    #[inline]
    pub fn located<T>(&mut self, what: &'static str) -> Result<Located<'a, T>>
    where
        T: FromBytes + KnownLayout + Immutable + Unaligned,
    {
        let offset = self.offset;
        let value = self.read::<T>(what)?;
        Ok(Located::new(offset, value))
    }

    /// A [`Table`] of `count` raw records at the position, which moves past them.
    #[inline]
    pub fn table<T>(&mut self, count: usize, what: &'static str) -> Result<Table<'a, T>>
    where
        T: FromBytes + KnownLayout + Immutable + Unaligned,
    {
        let offset = self.offset;
        let records = self.read_slice::<T>(count, what)?;
        Ok(Table { offset, records })
    }

    /// The bytes up to the next NUL, without it; the position moves past the NUL. No NUL before
    /// the end of the file is an error at the string's offset.
    #[inline]
    pub fn zstring(&mut self, what: &'static str) -> Result<&'a [u8]> {
        let rest = self.bytes.tail(self.offset, what)?;
        match rest.iter().position(|&c| c == 0) {
            Some(n) => {
                let text = rest.get(..n).unwrap_or_default();
                self.offset = self.offset.saturating_add(n).saturating_add(1);
                Ok(text)
            }
            None => Err(Error::invalid(
                u64_of(self.offset),
                what,
                u64_of(rest.len()),
                "no NUL before the end of the bytes",
            )),
        }
    }

    /// A byte.
    #[inline]
    pub fn u8(&mut self, what: &'static str) -> Result<u8> {
        Ok(*self.read::<u8>(what)?)
    }

    /// A little-endian `u16`.
    #[inline]
    pub fn u16_le(&mut self, what: &'static str) -> Result<u16> {
        Ok(self.read::<zerocopy::little_endian::U16>(what)?.get())
    }

    /// A little-endian `u32`.
    #[inline]
    pub fn u32_le(&mut self, what: &'static str) -> Result<u32> {
        Ok(self.read::<zerocopy::little_endian::U32>(what)?.get())
    }

    /// A little-endian `i32`.
    #[inline]
    pub fn i32_le(&mut self, what: &'static str) -> Result<i32> {
        Ok(self.read::<zerocopy::little_endian::I32>(what)?.get())
    }

    /// A little-endian `f32`.
    #[inline]
    pub fn f32_le(&mut self, what: &'static str) -> Result<f32> {
        Ok(self.read::<zerocopy::little_endian::F32>(what)?.get())
    }
}

/// A raw on-disk struct borrowed from the file, with the file offset it was read at: what a view
/// of one record holds instead of a `(bytes, at, raw)` triple. `Copy`, two words.
///
/// [`get`](Self::get) hands the struct out with the file's lifetime `'a`; `Deref` reaches its fields
/// directly, but borrows them for as long as the `Located` itself: a view that returns a field
/// (or a slice of one) with the lifetime `'a` goes through `get()`. `Debug` shows the offset, the
/// size and the first [`DEBUG_HEAD`] bytes of the struct.
pub struct Located<'a, T> {
    offset: usize,
    value: &'a T,
}

impl<T> Clone for Located<'_, T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for Located<'_, T> {}

impl<T: IntoBytes + Immutable> core::fmt::Debug for Located<'_, T> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        let raw = self.value.as_bytes();
        f.debug_struct("Located")
            .field("offset", &self.offset)
            .field("size", &raw.len())
            .field("head", &Head(raw))
            .finish()
    }
}

impl<'a, T> Located<'a, T> {
    /// A value already borrowed from the file, with the offset it lies at.
    pub const fn new(offset: usize, value: &'a T) -> Self {
        Located { offset, value }
    }

    /// The absolute file offset of the struct.
    pub const fn offset(&self) -> usize {
        self.offset
    }

    /// The struct, borrowed from the file (for as long as the file, not as long as `self`).
    pub const fn get(&self) -> &'a T {
        self.value
    }

    /// The absolute file offset of a field `field` bytes into the struct (saturating: an offset
    /// past the file fails the read that uses it).
    pub const fn field_offset(&self, field: usize) -> usize {
        self.offset.saturating_add(field)
    }
}

impl<'a, T> Located<'a, T>
where
    T: FromBytes + KnownLayout + Immutable + Unaligned,
{
    /// The struct at `offset` of `bytes` (see [`Bytes::located`]).
    #[inline]
    pub fn read(bytes: Bytes<'a>, offset: usize, what: &'static str) -> Result<Self> {
        Ok(Located {
            offset,
            value: bytes.read(offset, what)?,
        })
    }

    /// The table of `count` records of `U` that a pointer stored `field` bytes into this struct
    /// points to, relative to the struct's start (see [`Table::at_pointer`]).
    #[inline]
    pub fn table<U>(
        &self,
        bytes: Bytes<'a>,
        field: usize,
        relative: i64,
        count: usize,
        what: &'static str,
    ) -> Result<Table<'a, U>>
    where
        U: FromBytes + KnownLayout + Immutable + Unaligned,
    {
        Table::at_pointer(
            bytes,
            self.field_offset(field),
            self.offset,
            relative,
            count,
            what,
        )
    }
}

impl<T> core::ops::Deref for Located<'_, T> {
    type Target = T;

    fn deref(&self) -> &T {
        self.value
    }
}

/// A counted array of fixed-size raw records at a file offset, bounds-checked once when read: its
/// records are then borrowed with their own file offsets ([`Located`]) without another check.
/// `Copy`, three words.
///
/// `Debug` shows the offset, the count, the record size and the first [`DEBUG_HEAD`] bytes of the
/// records, never the whole table.
pub struct Table<'a, T> {
    offset: usize,
    records: &'a [T],
}

impl<T> Clone for Table<'_, T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for Table<'_, T> {}

impl<T: IntoBytes + Immutable> core::fmt::Debug for Table<'_, T> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Table")
            .field("offset", &self.offset)
            .field("count", &self.records.len())
            .field("record_size", &core::mem::size_of::<T>())
            .field("head", &Head(self.records.as_bytes()))
            .finish()
    }
}

impl<'a, T> Table<'a, T> {
    /// A table of no records, said to lie at `offset`.
    pub const fn empty(offset: usize) -> Self {
        Table {
            offset,
            records: &[],
        }
    }

    /// The absolute file offset of the first record (for an empty table, where it would be).
    pub const fn offset(&self) -> usize {
        self.offset
    }

    /// Number of records.
    pub const fn len(&self) -> usize {
        self.records.len()
    }

    /// Whether there are no records.
    pub const fn is_empty(&self) -> bool {
        self.records.is_empty()
    }

    /// The records as stored, borrowed from the file.
    pub const fn records(&self) -> &'a [T] {
        self.records
    }

    /// The absolute file offset of record `i` (which need not exist: the offset saturates).
    #[inline]
    pub const fn offset_of(&self, i: usize) -> usize {
        self.offset
            .saturating_add(i.saturating_mul(core::mem::size_of::<T>()))
    }

    /// Record `i` with its file offset, `None` past the end.
    #[inline]
    pub fn get(&self, i: usize) -> Option<Located<'a, T>> {
        let value = self.records.get(i)?;
        Some(Located::new(record_offset::<T>(self.offset, i), value))
    }

    /// Every record with its index and its file offset, in table order (one count for both,
    /// where `iter().enumerate()` keeps two).
    #[inline]
    pub fn iter_indexed(
        &self,
    ) -> impl DoubleEndedIterator<Item = (usize, Located<'a, T>)> + ExactSizeIterator + use<'a, T>
    {
        let offset = self.offset;
        self.records
            .iter()
            .enumerate()
            .map(move |(i, value)| (i, Located::new(record_offset::<T>(offset, i), value)))
    }

    /// Every record with its file offset, in table order.
    #[inline]
    pub fn iter(&self) -> TableIter<'a, T> {
        TableIter {
            offset: self.offset,
            records: self.records.iter().enumerate(),
        }
    }
}

impl<'a, T> Table<'a, T>
where
    T: FromBytes + KnownLayout + Immutable + Unaligned,
{
    /// `count` records at `offset` of `bytes` (see [`Bytes::table`]).
    #[inline]
    pub fn read(bytes: Bytes<'a>, offset: usize, count: usize, what: &'static str) -> Result<Self> {
        Ok(Table {
            offset,
            records: bytes.read_slice(offset, count, what)?,
        })
    }

    /// `count` records that a relative pointer points to: `relative`, stored at file offset
    /// `field`, counts from `base`. An empty table's pointer is not followed (writers store 0 or
    /// anything for it): the table is empty at `base`, which callers take from a struct read from
    /// the file (a `base` past the end is an error, whatever the count).
    #[inline]
    pub fn at_pointer(
        bytes: Bytes<'a>,
        field: usize,
        base: usize,
        relative: i64,
        count: usize,
        what: &'static str,
    ) -> Result<Self> {
        // An empty table is read at `base` itself (a struct's own place, inside the file) rather
        // than returned early: a select, not a branch, on every table of a view's open.
        let relative = if count == 0 { 0 } else { relative };
        let offset = bytes.resolve(field, base, relative, what)?;
        Table::read(bytes, offset, count, what)
    }
}

impl<'a, T> IntoIterator for Table<'a, T> {
    type Item = Located<'a, T>;
    type IntoIter = TableIter<'a, T>;

    fn into_iter(self) -> TableIter<'a, T> {
        self.iter()
    }
}

/// The file offset of record `i` of a table at `offset`, for an `i` below the table's length.
///
/// Plain arithmetic, which cannot wrap: a table's records were read from the file (or there are
/// none), so `offset + len × size` is at most the file's length. The wrapping forms only keep
/// the compiler from checking what cannot happen, and let it compute the offset of the record a
/// search finds rather than of every record it passes.
#[inline(always)]
const fn record_offset<T>(offset: usize, i: usize) -> usize {
    offset.wrapping_add(i.wrapping_mul(core::mem::size_of::<T>()))
}

/// The records of a [`Table`] with their file offsets. The table was bounds-checked when read,
/// so no item can fail: the items are [`Located`] values, not `Result`s.
pub struct TableIter<'a, T> {
    /// File offset of the table's first record.
    offset: usize,
    records: core::iter::Enumerate<core::slice::Iter<'a, T>>,
}

impl<T> Clone for TableIter<'_, T> {
    fn clone(&self) -> Self {
        TableIter {
            offset: self.offset,
            records: self.records.clone(),
        }
    }
}

impl<T> core::fmt::Debug for TableIter<'_, T> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("TableIter")
            .field("offset", &self.offset)
            .field("remaining", &self.records.len())
            .finish()
    }
}

impl<'a, T> Iterator for TableIter<'a, T> {
    type Item = Located<'a, T>;

    #[inline]
    fn next(&mut self) -> Option<Located<'a, T>> {
        let (i, value) = self.records.next()?;
        Some(Located::new(record_offset::<T>(self.offset, i), value))
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        self.records.size_hint()
    }
}

impl<T> DoubleEndedIterator for TableIter<'_, T> {
    #[inline]
    fn next_back(&mut self) -> Option<Self::Item> {
        let (i, value) = self.records.next_back()?;
        Some(Located::new(record_offset::<T>(self.offset, i), value))
    }
}

impl<T> ExactSizeIterator for TableIter<'_, T> {}

impl<T> core::iter::FusedIterator for TableIter<'_, T> {}

/// Narrows a file value to `usize`, or says it cannot be addressed on this machine.
#[inline]
pub fn to_usize(value: u64, offset: usize, what: &'static str) -> Result<usize> {
    usize::try_from(value).map_err(|_| {
        Error::invalid(
            u64_of(offset),
            what,
            value,
            "does not fit this machine's address space",
        )
    })
}

/// `raw`, stored at file offset `at`, as UTF-8 text; else an error at its first byte that is not
/// part of a character, that byte as the value, `why` saying what the text is.
#[cfg(any(
    feature = "craftstudio",
    feature = "wdb",
    feature = "assets",
    feature = "pfs"
))]
pub(crate) fn utf8<'a>(
    raw: &'a [u8],
    at: usize,
    what: &'static str,
    why: &'static str,
) -> Result<&'a str> {
    core::str::from_utf8(raw).map_err(|e| {
        let bad = e.valid_up_to();
        Error::invalid(
            u64_of(at.saturating_add(bad)),
            what,
            u64::from(raw.get(bad).copied().unwrap_or(0)),
            why,
        )
    })
}

/// Bytes as lowercase hex (the text form of opaque bytes in every format's JSON and maps: WapMap's metadata, tile masks, blobs).
pub fn hex(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        out.push_str(&format!("{b:02x}"));
    }
    out
}

/// The bytes of a [`hex`] string; an error for an odd length or a character that is not a hex
/// digit.
pub fn unhex(text: &str) -> core::result::Result<Vec<u8>, &'static str> {
    let text = text.trim();
    if !text.len().is_multiple_of(2) {
        return Err("an odd number of hex digits");
    }
    text.as_bytes()
        .chunks_exact(2)
        .map(|pair| {
            core::str::from_utf8(pair)
                .ok()
                .and_then(|p| u8::from_str_radix(p, 16).ok())
                .ok_or("a character that is not a hex digit")
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use zerocopy::little_endian::{U16, U32};

    #[derive(Debug, FromBytes, zerocopy::IntoBytes, KnownLayout, Immutable, Unaligned)]
    #[repr(C)]
    struct Pair {
        a: U16,
        b: U32,
    }

    #[test]
    fn debug_shows_length_and_head_only() {
        let data = vec![0xabu8; 1 << 20];
        let shown = format!("{:?}", Bytes::new(&data));
        assert!(shown.len() < 200, "{shown}");
        assert!(shown.contains("len: 1048576"), "{shown}");
        assert_eq!(shown.matches("ab").count(), DEBUG_HEAD);
        assert_eq!(
            format!("{:?}", Bytes::new(&[1, 2])),
            "Bytes { len: 2, head: [01, 02] }"
        );
    }

    #[test]
    fn reads_structs_at_odd_offsets() {
        let data = [0xff, 0x01, 0x00, 0x02, 0x00, 0x00, 0x00];
        let bytes = Bytes::new(&data);
        let p: &Pair = bytes.read(1, "Pair").unwrap();
        assert_eq!((p.a.get(), p.b.get()), (1, 2));
        let e = bytes.read::<Pair>(2, "Pair").unwrap_err();
        assert_eq!(e.offset(), 2);
        assert_eq!(
            e.kind(),
            ErrorKind::Truncated {
                needed: 6,
                available: 5
            }
        );
    }

    #[test]
    fn slices_check_overflow_and_bounds() {
        let data = [0u8; 16];
        let bytes = Bytes::new(&data);
        assert_eq!(bytes.slice(16, 0, "x").unwrap().len(), 0);
        assert!(bytes.slice(17, 0, "x").is_err());
        assert!(bytes.slice(usize::MAX, 2, "x").is_err());
        assert!(bytes.read_slice::<Pair>(0, usize::MAX / 2, "x").is_err());
        assert_eq!(bytes.read_slice::<Pair>(4, 2, "x").unwrap().len(), 2);
        assert!(bytes.read_slice::<Pair>(5, 2, "x").is_err());
    }

    #[test]
    fn big_endian_reads_are_checked() {
        let data = [0xff, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08];
        let bytes = Bytes::new(&data);
        assert_eq!(bytes.u32_be(1, "x").unwrap(), 0x0102_0304);
        assert_eq!(bytes.u64_be(1, "x").unwrap(), 0x0102_0304_0506_0708);
        assert_eq!(bytes.u32_le(1, "x").unwrap(), 0x0403_0201);
        let e = bytes.u64_be(2, "X.value").unwrap_err();
        assert_eq!(
            (e.offset(), e.kind()),
            (
                2,
                ErrorKind::Truncated {
                    needed: 8,
                    available: 7
                }
            )
        );
        assert!(bytes.u32_be(usize::MAX, "x").is_err());
    }

    #[test]
    fn relative_pointers_are_checked() {
        let data = [0u8; 32];
        let bytes = Bytes::new(&data);
        assert_eq!(bytes.resolve(8, 8, 24, "p").unwrap(), 32);
        assert_eq!(bytes.resolve(8, 8, -8, "p").unwrap(), 0);
        assert!(bytes.resolve(8, 8, -9, "p").is_err());
        assert!(bytes.resolve(8, 8, 25, "p").is_err());
        assert!(bytes.resolve(8, usize::MAX, i64::MAX, "p").is_err());
        assert!(bytes.resolve(8, 0, i64::MIN, "p").is_err());
        let e = bytes.resolve(4, 8, 100, "X.ptr").unwrap_err();
        assert_eq!(e.offset(), 4);
        assert!(
            e.to_string()
                .contains("pointer 0x6c is outside the file (size 0x20)"),
            "{e}"
        );
    }

    #[test]
    fn a_cursor_advances_only_past_what_it_read() {
        let data = [1u8, 0x34, 0x12, 0xff, 0xff, 0xff, 0xff, 9];
        let mut cur = Cursor::new(Bytes::new(&data), 0);
        assert_eq!(cur.u8("a").unwrap(), 1);
        assert_eq!(cur.u16_le("b").unwrap(), 0x1234);
        assert_eq!(cur.i32_le("c").unwrap(), -1);
        assert_eq!((cur.offset(), cur.remaining()), (7, 1));
        let e = cur.u16_le("d").unwrap_err();
        assert_eq!((e.offset(), e.what()), (7, "d"));
        assert!(matches!(
            e.kind(),
            ErrorKind::Truncated {
                needed: 2,
                available: 1
            }
        ));
        assert_eq!(cur.offset(), 7, "a failed read does not move the cursor");
        assert_eq!(cur.take(1, "e").unwrap(), &[9]);
        assert!(cur.read_slice::<u8>(usize::MAX, "f").is_err());
        let mut past = Cursor::new(Bytes::new(&data), usize::MAX);
        assert_eq!(past.remaining(), 0);
        assert!(past.u8("h").is_err());
    }

    #[test]
    fn a_table_is_checked_once_and_locates_its_records() {
        // One byte of padding, then three 6-byte pairs, then two stray bytes.
        let mut data = vec![0xee];
        for (a, b) in [(1u16, 10u32), (2, 20), (3, 30)] {
            data.extend_from_slice(&a.to_le_bytes());
            data.extend_from_slice(&b.to_le_bytes());
        }
        data.extend_from_slice(&[0, 0]);
        let bytes = Bytes::new(&data);
        let table: Table<'_, Pair> = bytes.table(1, 3, "Pairs").unwrap();
        assert_eq!(
            (table.offset(), table.len(), table.is_empty()),
            (1, 3, false)
        );
        let second = table.get(1).unwrap();
        assert_eq!(
            (second.offset(), second.a.get(), second.get().b.get()),
            (7, 2, 20)
        );
        assert!(table.get(3).is_none());
        assert_eq!(table.offset_of(3), 19);
        assert_eq!(table.offset_of(usize::MAX), usize::MAX);
        let offsets: Vec<usize> = table.iter().map(|r| r.offset()).collect();
        assert_eq!(offsets, [1, 7, 13]);
        let back: Vec<(usize, u16)> = table
            .iter()
            .rev()
            .map(|r| (r.offset(), r.a.get()))
            .collect();
        assert_eq!(back, [(13, 3), (7, 2), (1, 1)]);
        let mut it = table.into_iter();
        assert_eq!(it.len(), 3);
        assert_eq!(it.next_back().map(|r| r.offset()), Some(13));
        assert_eq!(it.next().map(|r| r.offset()), Some(1));
        assert_eq!(it.next().map(|r| r.offset()), Some(7));
        assert!(it.next().is_none() && it.next_back().is_none());
        // Too many records, or a count whose size overflows: an error at the table's offset.
        let e = bytes.table::<Pair>(1, 4, "Pairs").unwrap_err();
        assert_eq!((e.offset(), e.what()), (1, "Pairs"));
        assert!(bytes.table::<Pair>(1, usize::MAX, "Pairs").is_err());
        assert!(bytes.table::<Pair>(usize::MAX, 1, "Pairs").is_err());
    }

    #[test]
    fn a_table_behind_a_pointer_is_not_followed_when_empty() {
        let data = [0u8; 32];
        let bytes = Bytes::new(&data);
        let empty = Table::<Pair>::at_pointer(bytes, 4, 8, i64::MIN, 0, "T").unwrap();
        assert_eq!((empty.offset(), empty.len()), (8, 0));
        let t = Table::<Pair>::at_pointer(bytes, 4, 8, 12, 2, "T").unwrap();
        assert_eq!((t.offset(), t.len()), (20, 2));
        let e = Table::<Pair>::at_pointer(bytes, 4, 8, 40, 1, "T.ptr").unwrap_err();
        assert_eq!((e.offset(), e.what()), (4, "T.ptr"));
        assert!(Table::<Pair>::at_pointer(bytes, 4, 8, 14, 2, "T").is_err());
        // From a located struct: the pointer's field offset and base come from the struct.
        let at: Located<'_, Pair> = bytes.located(2, "Pair").unwrap();
        let t = at.table::<u8>(bytes, 2, 10, 3, "Pair.items").unwrap();
        assert_eq!((t.offset(), t.records()), (12, &[0u8, 0, 0][..]));
        let e = at.table::<u8>(bytes, 2, -3, 1, "Pair.items").unwrap_err();
        assert_eq!(e.offset(), 4);
    }

    #[test]
    fn located_values_and_tables_debug_short() {
        let data = vec![0xabu8; 6 * 100_000];
        let bytes = Bytes::new(&data);
        let table: Table<'_, Pair> = bytes.table(0, 100_000, "Pairs").unwrap();
        let shown = format!("{table:?}");
        assert!(shown.len() < 200, "{shown}");
        assert!(
            shown.contains("count: 100000") && shown.contains("record_size: 6"),
            "{shown}"
        );
        let head = format!("head: [{}] }}", vec!["ab"; DEBUG_HEAD].join(", "));
        assert!(shown.ends_with(&head), "{shown}");
        let one = table.get(2).unwrap();
        assert_eq!(
            format!("{one:?}"),
            "Located { offset: 12, size: 6, head: [ab, ab, ab, ab, ab, ab] }"
        );
        assert_eq!(
            format!("{:?}", Table::<Pair>::empty(5)),
            "Table { offset: 5, count: 0, record_size: 6, head: [] }"
        );
        let it = table.iter().skip(99_999);
        assert!(format!("{it:?}").len() < 100);
    }

    #[test]
    fn a_cursor_reads_located_values_tables_and_nul_terminated_bytes() {
        let data = [9u8, 1, 0, 2, 0, 0, 0, b'h', b'i', 0, 7, 7, b'x'];
        let mut cur = Cursor::new(Bytes::new(&data), 1);
        let p: Located<'_, Pair> = cur.located("Pair").unwrap();
        assert_eq!(
            (p.offset(), p.a.get(), p.b.get(), cur.offset()),
            (1, 1, 2, 7)
        );
        assert_eq!(cur.zstring("s").unwrap(), b"hi");
        assert_eq!(cur.offset(), 10);
        let t: Table<'_, u8> = cur.table(2, "t").unwrap();
        assert_eq!(
            (t.offset(), t.records(), cur.offset()),
            (10, &[7u8, 7][..], 12)
        );
        let e = cur.zstring("s2").unwrap_err();
        assert_eq!((e.offset(), e.what()), (12, "s2"));
        assert_eq!(cur.offset(), 12, "a failed read does not move the cursor");
        assert!(cur.table::<Pair>(1, "t2").is_err());
        assert!(Cursor::new(Bytes::new(&data), 99).zstring("s").is_err());
    }
}

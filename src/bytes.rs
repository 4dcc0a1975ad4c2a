//! The no-panic reading layer.
//!
//! [`Bytes`] wraps the whole file (`&'a [u8]`) and hands out borrowed pieces of it: byte ranges,
//! alignment-1 raw structs and tables of them, and the targets of relative pointers. Every read is
//! bounds-checked with overflow-checked arithmetic and fails with an [`Error`] that names the absolute
//! file offset and the field being read. Nothing here allocates or panics, whatever the input.

use zerocopy::{FromBytes, Immutable, KnownLayout, Unaligned};

use crate::error::{Error, ErrorKind, Result};

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
        let head = self.data.get(..DEBUG_HEAD).unwrap_or(self.data);
        f.debug_struct("Bytes")
            .field("len", &self.data.len())
            .field("head", &format_args!("{head:02x?}"))
            .finish()
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

/// Narrows a file value to `usize`, or says it cannot be addressed on this machine.
#[inline]
pub(crate) fn to_usize(value: u64, offset: usize, what: &'static str) -> Result<usize> {
    usize::try_from(value).map_err(|_| {
        Error::invalid(
            u64_of(offset),
            what,
            value,
            "does not fit this machine's address space",
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use zerocopy::little_endian::{U16, U32};

    #[derive(Debug, FromBytes, KnownLayout, Immutable, Unaligned)]
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
}

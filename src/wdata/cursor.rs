//! A reading position in the file that advances past what it reads. Every read is bounds-checked
//! through [`Bytes`]; errors carry the absolute offset of the field and its name.

use zerocopy::little_endian::{F32, U32};
use zerocopy::{FromBytes, Immutable, KnownLayout, Unaligned};

use super::raw::Bool32;
use super::wstr::WStr;
use crate::bytes::{Bytes, u64_of};
use crate::error::{Error, Result};

/// A reading position (public only because [`Record`](super::Record) names it; it has no public
/// constructor or method).
#[doc(hidden)]
#[derive(Debug, Clone, Copy)]
pub struct Cursor<'a> {
    pub(crate) bytes: Bytes<'a>,
    pub(crate) at: usize,
}

impl<'a> Cursor<'a> {
    pub(crate) const fn new(bytes: Bytes<'a>, at: usize) -> Self {
        Cursor { bytes, at }
    }

    /// Bytes between the position and the end of the file.
    pub(crate) fn remaining(&self) -> usize {
        self.bytes.len().saturating_sub(self.at)
    }

    pub(crate) fn read<T>(&mut self, what: &'static str) -> Result<&'a T>
    where
        T: FromBytes + KnownLayout + Immutable + Unaligned,
    {
        let value = self.bytes.read::<T>(self.at, what)?;
        self.at += core::mem::size_of::<T>();
        Ok(value)
    }

    /// `count` fixed-size items, borrowed.
    pub(crate) fn slice<T>(&mut self, count: usize, what: &'static str) -> Result<&'a [T]>
    where
        T: FromBytes + KnownLayout + Immutable + Unaligned,
    {
        let items = self.bytes.read_slice::<T>(self.at, count, what)?;
        self.at += core::mem::size_of_val(items);
        Ok(items)
    }

    pub(crate) fn u32(&mut self, what: &'static str) -> Result<u32> {
        Ok(self.read::<U32>(what)?.get())
    }

    pub(crate) fn i32(&mut self, what: &'static str) -> Result<i32> {
        Ok(self.read::<zerocopy::little_endian::I32>(what)?.get())
    }

    pub(crate) fn f32(&mut self, what: &'static str) -> Result<f32> {
        Ok(self.read::<F32>(what)?.get())
    }

    pub(crate) fn bool32(&mut self, what: &'static str) -> Result<Bool32> {
        Ok(*self.read::<Bool32>(what)?)
    }

    pub(crate) fn wstr(&mut self, what: &'static str) -> Result<WStr<'a>> {
        let (s, end) = WStr::read(self.bytes, self.at, what)?;
        self.at = end;
        Ok(s)
    }

    /// A signed 32-bit count: negative is invalid, and `count` records of at least `min_size` bytes
    /// each must fit in the bytes after it. The error names the count's offset.
    pub(crate) fn count(&mut self, what: &'static str, min_size: usize) -> Result<u32> {
        let at = self.at;
        let raw = self.i32(what)?;
        let count = u32::try_from(raw).map_err(|_| {
            Error::invalid(u64_of(at), what, u64::from(raw as u32), "negative count")
        })?;
        check_fits(at, what, count, min_size, self.remaining())?;
        Ok(count)
    }
}

/// `count` records of at least `min_size` bytes must fit in `available` bytes.
pub(crate) fn check_fits(
    at: usize,
    what: &'static str,
    count: u32,
    min_size: usize,
    available: usize,
) -> Result<()> {
    let needed = u64::from(count).saturating_mul(u64_of(min_size));
    if needed > u64_of(available) {
        return Err(Error::truncated(
            u64_of(at),
            what,
            needed,
            u64_of(available),
        ));
    }
    Ok(())
}

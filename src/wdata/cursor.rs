//! What a `.wdata` reads besides plain numbers, on the shared [`Cursor`]: 4-byte bools,
//! length-prefixed UTF-16 strings, and signed counts checked against the bytes that remain.

use super::raw::Bool32;
use super::wstr::WStr;
use crate::bytes::{Cursor, u64_of};
use crate::error::{Error, Result};

/// The `.wdata` reads of a [`Cursor`] (import it as `WdataCursor as _`).
pub(crate) trait WdataCursor<'a> {
    /// A bool stored as 4 bytes.
    fn bool32(&mut self, what: &'static str) -> Result<Bool32>;

    /// A `u16` code-unit count, then the UTF-16LE code units, borrowed.
    fn wstr(&mut self, what: &'static str) -> Result<WStr<'a>>;

    /// A signed 32-bit count: negative is invalid, and `count` records of at least `min_size`
    /// bytes each must fit in the bytes after it. The error names the count's offset.
    fn count(&mut self, what: &'static str, min_size: usize) -> Result<u32>;

    /// An unsigned 32-bit count (a camera info's lists): `count` records of at least `min_size`
    /// bytes each must fit in the bytes after it. The error names the count's offset.
    fn count_u32(&mut self, what: &'static str, min_size: usize) -> Result<u32>;
}

impl<'a> WdataCursor<'a> for Cursor<'a> {
    #[inline]
    fn bool32(&mut self, what: &'static str) -> Result<Bool32> {
        Ok(*self.read::<Bool32>(what)?)
    }

    // Always inlined: with `#[inline]` alone the compiler kept it out of line in the records
    // that read many strings (a name list's loop, a scene resource's paths), where the call and
    // the `Result` it returns through memory cost more than the read; inlined, the bench's walk
    // of the large map takes 36.8 M instructions instead of 40.3 M (the open is unchanged).
    #[inline(always)]
    fn wstr(&mut self, what: &'static str) -> Result<WStr<'a>> {
        // Strings are most of a map's reads: the common case, a whole string, is read here in
        // line; anything short goes to the reader that says what is missing.
        let rest = self
            .bytes()
            .as_slice()
            .get(self.offset()..)
            .unwrap_or_default();
        if let Some(&[low, high]) = rest.get(..2) {
            let len = 2 * usize::from(u16::from_le_bytes([low, high]));
            if let Some(units) = rest.get(2..2 + len) {
                *self = Cursor::new(self.bytes(), self.offset() + 2 + len);
                return Ok(WStr::from_utf16le(units));
            }
        }
        wstr_short(self, what)
    }

    #[inline]
    fn count(&mut self, what: &'static str, min_size: usize) -> Result<u32> {
        let at = self.offset();
        let raw = self.i32_le(what)?;
        let count = u32::try_from(raw).map_err(|_| {
            Error::invalid(
                u64_of(at),
                what,
                u64::from(raw.cast_unsigned()),
                "negative count",
            )
        })?;
        check_fits(at, what, count, min_size, self.remaining())?;
        Ok(count)
    }

    #[inline]
    fn count_u32(&mut self, what: &'static str, min_size: usize) -> Result<u32> {
        let at = self.offset();
        let count = self.u32_le(what)?;
        check_fits(at, what, count, min_size, self.remaining())?;
        Ok(count)
    }
}

/// A string the bytes that remain do not hold: the error says where and how much was needed.
#[cold]
#[inline(never)]
fn wstr_short<'a>(cur: &mut Cursor<'a>, what: &'static str) -> Result<WStr<'a>> {
    let (s, end) = WStr::read(cur.bytes(), cur.offset(), what)?;
    *cur = Cursor::new(cur.bytes(), end);
    Ok(s)
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

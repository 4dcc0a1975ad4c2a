//! [`IndexBuffer`]: one merged index buffer (IndicesPrototype) and its blob; [`Indices`]: index
//! values read in place from a raw blob or from a caller's decoded buffer.

use zerocopy::little_endian::{U16, U32};
use zerocopy::{FromBytes, IntoBytes};

use super::blob::{Blob, copy_into_vec, merged_buffer_blob};
use super::encd::{Encd, IndexInt};
use super::raw::IndicesPrototype;
use crate::bytes::{Bytes, Located, u64_of};
use crate::error::{Error, Result};

/// A merged index buffer, borrowed from the file.
#[derive(Debug, Clone, Copy)]
pub struct IndexBuffer<'a> {
    pub(crate) bytes: Bytes<'a>,
    /// The record and its absolute file offset.
    pub(crate) raw: Located<'a, IndicesPrototype>,
}

/// Why an index size is refused ([`effective_index_size`]).
pub(crate) const BAD_INDEX_SIZE: &str = "index size must be 2 or 4";

/// Why raw index data are refused ([`whole_indices`]).
pub(crate) const NOT_WHOLE_INDICES: &str = "raw index data is not a whole number of indices";

/// Bytes per index as the reader reads them from the stored `indexSize` and `reserved`: `indexSize`
/// when it is 2 or 4, 2 for the swapped (2, 0) fields, `None` for anything else. The reader's rule,
/// which the writer applies too.
#[inline]
pub(crate) fn effective_index_size(index_size: u16, reserved: u16) -> Option<usize> {
    match (index_size, reserved) {
        (size @ (2 | 4), _) => Some(usize::from(size)),
        (0, 2) => Some(2),
        _ => None,
    }
}

/// Whether `len` bytes of raw data are a whole number of `size`-byte indices (`size` 2 or 4, as
/// [`effective_index_size`] gives: a mask, not a division).
#[inline]
pub(crate) const fn whole_indices(len: usize, size: usize) -> bool {
    len & size.wrapping_sub(1) == 0
}

/// Offset of `IndicesPrototype.indexSize`, for error reports.
const INDEX_SIZE_FIELD: usize = 0x0e;

impl<'a> IndexBuffer<'a> {
    /// Absolute file offset of the IndicesPrototype record.
    pub fn offset(&self) -> usize {
        self.raw.offset()
    }

    /// The stored record.
    pub fn raw(&self) -> &'a IndicesPrototype {
        self.raw.get()
    }

    /// Bytes per index as stored in `indexSize` (2 or 4 in most files; see
    /// [`has_swapped_index_size`](Self::has_swapped_index_size)).
    #[inline]
    pub fn index_size(&self) -> usize {
        usize::from(self.raw.index_size.get())
    }

    /// Whether the record's two u16 fields read (2, 0) instead of (0, 2): `reserved` holds 2 and
    /// `indexSize` 0. Some older files store them so; their data are 2-byte indices, and the reader
    /// reads them as such (a raw blob must still be a whole number of 2-byte indices, and the
    /// draws' index ranges are checked against their vertices as for any file). `dump --json` and
    /// `check` report it, so it is never taken silently.
    #[inline]
    pub fn has_swapped_index_size(&self) -> bool {
        self.raw.reserved.get() == 2 && self.raw.index_size.get() == 0
    }

    /// Bytes per index as the reader reads them: `indexSize` when it is 2 or 4, 2 for the swapped
    /// (2, 0) fields, an error for anything else.
    #[inline]
    pub fn effective_index_size(&self) -> Result<usize> {
        effective_index_size(self.raw.index_size.get(), self.raw.reserved.get()).ok_or_else(|| {
            Error::invalid(
                u64_of(self.raw.field_offset(INDEX_SIZE_FIELD)),
                "IndicesPrototype.indexSize",
                u64_of(self.index_size()),
                BAD_INDEX_SIZE,
            )
        })
    }

    merged_buffer_blob!("IndicesPrototype", indices_data_ptr, "indices");

    /// Number of indices: the ENCD element count (checked against what the payload can hold), or
    /// the raw size over the index size.
    pub fn index_count(&self) -> Result<usize> {
        match self.encoded()? {
            Some(encd) => encd.check_index_count("IndicesPrototype.indicesData(ENCD)"),
            None => Ok(self.raw_indices()?.len()),
        }
    }

    /// An error when raw `data` is not a whole number of `size`-byte indices (`size` 2 or 4, as
    /// [`effective_index_size`](Self::effective_index_size) gives: a mask, not a division).
    #[inline]
    fn whole_indices(&self, data: &[u8], size: usize) -> Result<()> {
        if !whole_indices(data.len(), size) {
            return Err(Error::invalid(
                u64_of(self.raw.offset()),
                "IndicesPrototype.sizeInBytes",
                u64::from(self.size_in_bytes()),
                NOT_WHOLE_INDICES,
            ));
        }
        Ok(())
    }

    /// The indices of a raw (non-ENCD) blob, read in place. An encoded blob is an error: decode it
    /// with [`decode_indices_into`](Self::decode_indices_into).
    pub fn raw_indices(&self) -> Result<Indices<'a>> {
        let size = self.effective_index_size()?;
        let data = self.blob().raw_data()?;
        self.whole_indices(data, size)?;
        let bytes = Bytes::new(data);
        let what = "IndicesPrototype.indicesData";
        Ok(if size == 2 {
            Indices::Le16(bytes.read_slice(0, data.len() / 2, what)?)
        } else {
            Indices::Le32(bytes.read_slice(0, data.len() / 4, what)?)
        })
    }

    /// Decodes (ENCD) or copies (raw) the indices into `out`, replacing its contents and reusing its
    /// capacity; returns the number of indices. A raw blob of the output's width at an aligned
    /// address is one copy of its bytes (nothing zeroed first); otherwise it is appended value by
    /// value (a loop the compiler turns into wide loads and stores). The raw path is inlined into
    /// the caller and the ENCD one kept out of line, so decoding a raw blob into a fresh `Vec`
    /// costs what `to_vec` of its stored bytes costs. As with
    /// [`decode_indices_into`](Self::decode_indices_into), `u16` output is refused for 4-byte
    /// indices.
    #[inline]
    pub fn decode_indices_into_vec<I: IndexInt + TryFrom<u32>>(
        &self,
        out: &mut Vec<I>,
    ) -> Result<usize> {
        let (data, at) = self.blob().located()?;
        if Encd::parse(data, at).is_some() {
            return self.decode_encoded_into_vec(out);
        }
        let size = self.effective_index_size()?;
        if I::SIZE < size {
            return self.decode_indices_into(out); // the same refusal, with its error
        }
        self.whole_indices(data, size)?;
        // The same width on a little-endian machine with the blob at an aligned address: the
        // stored bytes are the values, one copy.
        if I::SIZE == size && cfg!(target_endian = "little") {
            if let Ok(values) = bytemuck::try_cast_slice::<u8, I>(data) {
                copy_into_vec(out, values);
                return Ok(out.len());
            }
        }
        Ok(widen_into_vec(data, size, out))
    }

    /// The ENCD half of [`decode_indices_into_vec`](Self::decode_indices_into_vec), kept out of
    /// line so that the raw copy inlines into its caller as a plain `to_vec` would.
    #[inline(never)]
    fn decode_encoded_into_vec<I: IndexInt + TryFrom<u32>>(
        &self,
        out: &mut Vec<I>,
    ) -> Result<usize> {
        // The decoder writes every index: only growth is zeroed.
        let count = self.index_count()?;
        out.truncate(count);
        out.resize(count, I::zeroed());
        self.decode_indices_into(out)
    }

    /// Decodes (ENCD) or copies (raw) the indices into the start of `out`, which must hold at least
    /// [`index_count`](Self::index_count) elements; returns that count. `u32` output takes either
    /// index size; `u16` output is refused for a 4-byte index buffer rather than truncate values.
    /// meshoptimizer's preconditions are checked first: a bad file is an `Err`, never an abort.
    pub fn decode_indices_into<I: IndexInt + TryFrom<u32>>(&self, out: &mut [I]) -> Result<usize> {
        let size = self.effective_index_size()?;
        if I::SIZE < size {
            return Err(Error::invalid(
                u64_of(self.raw.field_offset(INDEX_SIZE_FIELD)),
                "IndicesPrototype.indexSize",
                u64_of(size),
                "4-byte indices cannot be decoded into a u16 buffer",
            ));
        }
        let count = self.index_count()?;
        let out = self.decode_target(out, count)?;
        match self.encoded()? {
            Some(encd) => encd.decode_indices(out, "IndicesPrototype.indicesData(ENCD)")?,
            None => copy_raw(self.raw_indices()?, out),
        }
        Ok(count)
    }
}

/// Replaces `out`'s contents with raw little-endian `size`-byte indices (`data` a whole number of
/// them) that cannot be copied as they are: a blob at an odd address, a 2-byte source into `u32`
/// output, or a big-endian machine. Slice iterators of the alignment-1 little-endian types: a loop
/// of known length, which the compiler turns into wide loads and stores (as fast as a copy of the
/// bytes, measured on the odd-addressed real sample). Returns the number of indices.
#[inline(never)]
fn widen_into_vec<I: IndexInt>(data: &[u8], size: usize, out: &mut Vec<I>) -> usize {
    out.clear();
    if size == 2 {
        if let Ok(values) = <[U16]>::ref_from_bytes(data) {
            out.reserve(values.len());
            out.extend(values.iter().map(|v| I::from_u16(v.get())));
        }
    } else if let Ok(values) = <[U32]>::ref_from_bytes(data) {
        out.reserve(values.len());
        out.extend(values.iter().map(|v| I::from_u32_lossless(v.get())));
    }
    out.len()
}

/// Copies raw little-endian indices into `out` (as long as `raw`). The same width on a
/// little-endian machine is one `copy_from_slice` of the bytes; a 2-byte source into `u32` output
/// (or a big-endian machine) widens value by value.
fn copy_raw<I: IndexInt + TryFrom<u32>>(raw: Indices<'_>, out: &mut [I]) {
    let same_width = match raw {
        Indices::Le16(s) if I::SIZE == 2 => Some(s.as_bytes()),
        Indices::Le32(s) if I::SIZE == 4 => Some(s.as_bytes()),
        _ => None,
    };
    if let Some(bytes) = same_width.filter(|_| cfg!(target_endian = "little")) {
        let out: &mut [u8] = bytemuck::cast_slice_mut(out);
        if let Some(out) = out.get_mut(..bytes.len()) {
            out.copy_from_slice(bytes);
        }
        return;
    }
    for (slot, value) in out.iter_mut().zip(raw.iter()) {
        // Cannot fail: u16 output is only allowed for 2-byte sources.
        *slot = I::try_from(value).unwrap_or_else(|_| I::zeroed());
    }
}

/// Index values, read in place: little-endian from a raw blob at any alignment, or native from a
/// caller's decoded buffer. `Copy`.
#[derive(Debug, Clone, Copy)]
pub enum Indices<'b> {
    /// 2-byte little-endian indices in the file.
    Le16(&'b [U16]),
    /// 4-byte little-endian indices in the file.
    Le32(&'b [U32]),
    /// Decoded 2-byte indices.
    U16(&'b [u16]),
    /// Decoded 4-byte indices.
    U32(&'b [u32]),
}

impl<'b> Indices<'b> {
    /// Number of indices.
    pub fn len(&self) -> usize {
        match self {
            Indices::Le16(s) => s.len(),
            Indices::Le32(s) => s.len(),
            Indices::U16(s) => s.len(),
            Indices::U32(s) => s.len(),
        }
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Index `i`, widened to `u32`.
    pub fn get(&self, i: usize) -> Option<u32> {
        match self {
            Indices::Le16(s) => s.get(i).map(|v| u32::from(v.get())),
            Indices::Le32(s) => s.get(i).map(|v| v.get()),
            Indices::U16(s) => s.get(i).map(|&v| u32::from(v)),
            Indices::U32(s) => s.get(i).copied(),
        }
    }

    /// The indices `start .. start + count`, or `None` if that range is not inside.
    pub fn range(&self, start: usize, count: usize) -> Option<Indices<'b>> {
        let r = start..start.checked_add(count)?;
        Some(match self {
            Indices::Le16(s) => Indices::Le16(s.get(r)?),
            Indices::Le32(s) => Indices::Le32(s.get(r)?),
            Indices::U16(s) => Indices::U16(s.get(r)?),
            Indices::U32(s) => Indices::U32(s.get(r)?),
        })
    }

    /// All indices, widened to `u32`.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = u32> + 'b {
        let this = *self;
        (0..this.len()).map(move |i| this.get(i).unwrap_or(0))
    }

    /// Whole triangles (a trailing partial triangle is left out).
    pub fn triangles(&self) -> impl ExactSizeIterator<Item = [u32; 3]> + 'b {
        let this = *self;
        (0..this.len() / 3).map(move |t| {
            let at = |k| this.get(3 * t + k).unwrap_or(0);
            [at(0), at(1), at(2)]
        })
    }

    /// The largest index, or `None` when empty.
    pub fn max(&self) -> Option<u32> {
        // One loop per representation, so that the compiler can vectorise each.
        match self {
            Indices::Le16(s) => s.iter().map(|v| v.get()).max().map(u32::from),
            Indices::Le32(s) => s.iter().map(|v| v.get()).max(),
            Indices::U16(s) => s.iter().copied().max().map(u32::from),
            Indices::U32(s) => s.iter().copied().max(),
        }
    }
}

impl<'b> From<&'b [u16]> for Indices<'b> {
    fn from(s: &'b [u16]) -> Self {
        Indices::U16(s)
    }
}

impl<'b> From<&'b [u32]> for Indices<'b> {
    fn from(s: &'b [u32]) -> Self {
        Indices::U32(s)
    }
}

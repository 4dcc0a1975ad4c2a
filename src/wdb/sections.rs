//! The `!` metadata sections a reader knows by name, found once on open, and the small readers
//! over them: the per-cell type list, field names, `!!string` and the `!!strArray` tables.

use super::error::{WdbError, WdbResult};
use super::raw::{Entry, StrArrayInfo};
use crate::bytes::u64_of;
use crate::error::{Error, Result};

/// One section's data and its absolute offset in the file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Section<'a> {
    /// Absolute offset of the data.
    pub at: usize,
    /// The data, `size` bytes.
    pub data: &'a [u8],
}

/// The sections this reader interprets. Any of them may be absent.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Known<'a> {
    pub sheetname: Option<Section<'a>>,
    pub string: Option<Section<'a>>,
    pub strtypelist: Option<Section<'a>>,
    pub strtypelistb: Option<Section<'a>>,
    pub typelist: Option<Section<'a>>,
    pub version: Option<Section<'a>>,
    pub structitem: Option<Section<'a>>,
    pub structitemnum: Option<Section<'a>>,
    pub str_array: Option<Section<'a>>,
    pub str_array_info: Option<Section<'a>>,
    pub str_array_list: Option<Section<'a>>,
}

impl<'a> Known<'a> {
    /// Files the section under its name (the first of duplicates wins); unknown names are kept
    /// only in the entry table.
    pub fn file(&mut self, entry: &Entry, section: Section<'a>) {
        let slot = match entry.name_bytes() {
            b"!!sheetname" => &mut self.sheetname,
            b"!!string" => &mut self.string,
            b"!!strtypelist" => &mut self.strtypelist,
            b"!!strtypelistb" => &mut self.strtypelistb,
            b"!!typelist" => &mut self.typelist,
            b"!!version" => &mut self.version,
            b"!structitem" => &mut self.structitem,
            b"!structitemnum" => &mut self.structitemnum,
            b"!!strArray" => &mut self.str_array,
            b"!!strArrayInfo" => &mut self.str_array_info,
            b"!!strArrayList" => &mut self.str_array_list,
            _ => return,
        };
        if slot.is_none() {
            *slot = Some(section);
        }
    }
}

/// Big-endian `u32` `i` of a section, if whole.
#[inline]
pub(crate) fn word(data: &[u8], i: usize) -> Option<u32> {
    let at = i.checked_mul(4)?;
    let b = data.get(at..at.checked_add(4)?)?;
    Some(u32::from_be_bytes([b[0], b[1], b[2], b[3]]))
}

/// Big-endian `u32` at byte `pos`, if whole.
#[inline]
pub(crate) fn word_at(data: &[u8], pos: usize) -> Option<u32> {
    let b = data.get(pos..pos.checked_add(4)?)?;
    Some(u32::from_be_bytes([b[0], b[1], b[2], b[3]]))
}

/// The per-cell type codes: `!!strtypelistb` (one byte per cell, XIII-2/LR) or `!!strtypelist`
/// (one big-endian u32 per cell, XIII-1; a trailing partial word is ignored). Codes: 0 bit-packed
/// (or one whole-word signed int), 1 f32, 2 offset into `!!string`, 3 u32 (u64 for a `u64…` field).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TypeList<'a> {
    data: &'a [u8],
    wide: bool,
}

impl<'a> TypeList<'a> {
    /// One byte per cell (`!!strtypelistb`).
    pub const fn bytes(data: &'a [u8]) -> Self {
        TypeList { data, wide: false }
    }

    /// One big-endian u32 per cell (`!!strtypelist`).
    pub const fn words(data: &'a [u8]) -> Self {
        TypeList { data, wide: true }
    }

    /// Whether codes are u32 (`!!strtypelist`, XIII-1) rather than bytes.
    pub const fn is_wide(&self) -> bool {
        self.wide
    }

    /// Number of cells.
    pub const fn len(&self) -> usize {
        if self.wide {
            self.data.len() / 4
        } else {
            self.data.len()
        }
    }

    /// Whether there are no cells.
    pub const fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The code of cell `i`.
    pub fn get(&self, i: usize) -> Option<u32> {
        if self.wide {
            word(self.data, i)
        } else {
            self.data.get(i).map(|&b| u32::from(b))
        }
    }

    /// Every code in cell order.
    pub fn iter(self) -> impl ExactSizeIterator<Item = u32> + 'a {
        (0..self.len()).map(move |i| self.get(i).unwrap_or(0))
    }
}

/// The `!structitem` field names (NUL-terminated, back to back), at most `!structitemnum` of them.
#[derive(Debug, Clone, Copy)]
pub struct FieldNames<'a> {
    section: Section<'a>,
    count: usize,
    /// Names the section holds (an unterminated tail counts: the section's end ends it).
    stored: usize,
    /// `!structitemnum`, when present: its offset and value.
    declared: Option<(usize, u32)>,
}

impl<'a> FieldNames<'a> {
    /// `num` is `!structitemnum`; without it, every NUL-terminated name counts.
    pub(crate) fn new(section: Section<'a>, num: Option<Section<'a>>) -> Self {
        let terminated = section.data.iter().filter(|&&b| b == 0).count();
        let stored = terminated + usize::from(section.data.last().is_some_and(|&b| b != 0));
        let declared = num.and_then(|s| Some((s.at, word(s.data, 0)?)));
        let count = match declared {
            // The peer tools read the first `!structitemnum` names (the oracle's split keeps an
            // unterminated tail as one more name).
            Some((_, n)) => usize::try_from(n).unwrap_or(usize::MAX).min(stored),
            None => terminated,
        };
        FieldNames {
            section,
            count,
            stored,
            declared,
        }
    }

    /// `!structitemnum`, if present.
    pub const fn declared(&self) -> Option<u32> {
        match self.declared {
            Some((_, n)) => Some(n),
            None => None,
        }
    }

    /// Number of names `!structitem` holds, whatever `!structitemnum` says.
    pub const fn stored(&self) -> usize {
        self.stored
    }

    /// Whether `!structitemnum` (when present) counts exactly the names `!structitem` holds. A
    /// count that disagrees is a damaged file: fewer would silently drop named fields (their
    /// cells would read as unnamed padding), more would invent names. The error names the first
    /// name beyond the count when there is one. [`WdbView::schema`](super::WdbView::schema)
    /// requires this; [`iter`](Self::iter) reads the peer tools' way (the first `!structitemnum`
    /// names).
    pub fn check(&self) -> WdbResult<'a, ()> {
        let Some((at, n)) = self.declared else {
            return Ok(());
        };
        let declared = usize::try_from(n).unwrap_or(usize::MAX);
        if declared == self.stored {
            return Ok(());
        }
        let error = Error::invalid(
            u64_of(at),
            "!structitemnum",
            u64::from(n),
            if declared < self.stored {
                "fewer names than !structitem holds"
            } else {
                "more names than !structitem holds"
            },
        );
        // The first name beyond the count, to say which field the count leaves out.
        match self.all().nth(declared) {
            Some(Ok(name)) => Err(WdbError::in_field(error, name)),
            _ => Err(WdbError::new(error)),
        }
    }

    /// Number of names.
    pub const fn len(&self) -> usize {
        self.count
    }

    /// Whether there are none.
    pub const fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// Each name, as UTF-8 (an invalid name is an error at its offset).
    pub fn iter(self) -> impl Iterator<Item = Result<&'a str>> + 'a {
        self.all().take(self.count)
    }

    /// Every stored name, whatever the count.
    fn all(self) -> impl Iterator<Item = Result<&'a str>> + 'a {
        let mut at = 0usize;
        let data = self.section.data;
        let base = self.section.at;
        (0..self.stored).map_while(move |_| {
            let rest = data.get(at..)?;
            let len = rest.iter().position(|&b| b == 0).unwrap_or(rest.len());
            let raw = rest.get(..len)?;
            let start = at;
            at = at.saturating_add(len).saturating_add(1);
            Some(crate::bytes::utf8(
                raw,
                base.saturating_add(start),
                "!structitem",
                "field name is not valid UTF-8",
            ))
        })
    }
}

/// The position of the first NUL, eight bytes at a time (strings are scanned on every string field
/// read, so this is on the decode path).
#[inline]
pub(crate) fn nul_position(bytes: &[u8]) -> Option<usize> {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    let mut chunks = bytes.chunks_exact(8);
    let mut at = 0usize;
    for c in &mut chunks {
        let v = u64::from_le_bytes([c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]]);
        // The lowest flagged byte is the first zero byte (false positives only sit above one).
        let zero = v.wrapping_sub(ONES) & !v & HIGHS;
        if zero != 0 {
            return Some(at + (zero.trailing_zeros() / 8) as usize);
        }
        at += 8;
    }
    chunks
        .remainder()
        .iter()
        .position(|&b| b == 0)
        .map(|p| at + p)
}

/// The NUL-terminated string at `offset` in `!!string`, without its NUL (a missing terminator
/// ends the string at the section's end). Offset 0 is "no string" and reads as empty even when
/// the file has no `!!string`; any other offset needs the section. `at` is the absolute offset
/// of the field holding the offset, for errors.
#[inline]
pub(crate) fn string<'a>(
    strings: Option<Section<'a>>,
    offset: u32,
    at: usize,
    what: &'static str,
) -> Result<&'a [u8]> {
    let Some(section) = strings else {
        if offset == 0 {
            return Ok(&[]);
        }
        return Err(Error::invalid(
            u64_of(at),
            what,
            u64::from(offset),
            "string offset, but the file has no !!string section",
        ));
    };
    let rest = usize::try_from(offset)
        .ok()
        .and_then(|o| section.data.get(o..))
        .filter(|rest| !rest.is_empty() || offset == 0)
        .ok_or_else(|| {
            Error::invalid(
                u64_of(at),
                what,
                u64::from(offset),
                "string offset is outside !!string",
            )
        })?;
    let len = nul_position(rest).unwrap_or(rest.len());
    Ok(rest.get(..len).unwrap_or(rest))
}

/// `!!strArray` with its `!!strArrayInfo` and `!!strArrayList`: arrays of string offsets packed
/// `per_word` to a big-endian u32, `bits` bits each, lowest bits first.
#[derive(Debug, Clone, Copy)]
pub struct StrArrays<'a> {
    array: Section<'a>,
    list: Section<'a>,
    per_word: u8,
    bits: u8,
}

impl<'a> StrArrays<'a> {
    pub(crate) fn new(array: Section<'a>, info: Section<'a>, list: Section<'a>) -> Result<Self> {
        let raw = crate::bytes::Bytes::new(info.data)
            .read::<StrArrayInfo>(0, "!!strArrayInfo")
            .map_err(|_| {
                Error::truncated(
                    u64_of(info.at),
                    "!!strArrayInfo",
                    u64_of(core::mem::size_of::<StrArrayInfo>()),
                    u64_of(info.data.len()),
                )
            })?;
        let (per_word, bits) = (raw.offsets_per_word, raw.bits_per_offset);
        if u32::from(per_word) * u32::from(bits) > 32 || per_word == 0 {
            return Err(Error::invalid(
                u64_of(
                    info.at
                        .saturating_add(core::mem::offset_of!(StrArrayInfo, offsets_per_word)),
                ),
                "!!strArrayInfo",
                u64::from(per_word) << 8 | u64::from(bits),
                "offsets per word times bits per offset must be 1..=32 bits",
            ));
        }
        Ok(StrArrays {
            array,
            list,
            per_word,
            bits,
        })
    }

    /// Absolute offset of `!!strArrayList`.
    pub(crate) const fn list_at(&self) -> usize {
        self.list.at
    }

    /// String offsets per u32 word (`!!strArrayInfo[2]`).
    pub const fn offsets_per_word(&self) -> u8 {
        self.per_word
    }

    /// Bits per string offset (`!!strArrayInfo[3]`).
    pub const fn bits_per_offset(&self) -> u8 {
        self.bits
    }

    /// `!!strArray`'s bytes.
    pub(crate) const fn array_data(&self) -> &'a [u8] {
        self.array.data
    }

    /// The mask of one slot's bits.
    pub(crate) const fn slot_mask(&self) -> u64 {
        (1u64 << self.bits) - 1
    }

    /// Number of arrays (`!!strArrayList` entries).
    pub const fn array_count(&self) -> usize {
        self.list.data.len() / 4
    }

    #[inline]
    /// The byte range of array `k` inside `!!strArray`: from its list offset to the next one (or
    /// the section's end).
    pub fn array_range(&self, k: usize) -> Option<(usize, usize)> {
        let start = usize::try_from(word(self.list.data, k)?).ok()?;
        let end = match word(self.list.data, k.checked_add(1)?) {
            Some(next) => usize::try_from(next).ok()?,
            None => self.array.data.len(),
        };
        Some((start, end.min(self.array.data.len())))
    }

    /// Number of slots in array `k` (whole words × offsets per word).
    pub fn array_len(&self, k: usize) -> usize {
        self.array_range(k).map_or(0, |(start, end)| {
            (end.saturating_sub(start) / 4) * usize::from(self.per_word)
        })
    }

    #[inline]
    /// The `!!string` offset in slot `index` of array `k`; `at` is the field's absolute offset,
    /// for errors.
    pub fn offset(&self, k: usize, index: u64, at: usize) -> Result<u32> {
        let Some((start, end)) = self.array_range(k) else {
            return Err(Error::invalid(
                u64_of(self.list.at),
                "!!strArrayList",
                u64_of(k),
                "no string array for this field",
            ));
        };
        let out_of_range = || {
            Error::invalid(
                u64_of(at),
                "!!strArray index",
                index,
                "index is outside the field's string array",
            )
        };
        // Indices come from at most 32 bits; 32-bit division is the cheaper instruction.
        let index32 = u32::try_from(index).map_err(|_| out_of_range())?;
        let per32 = u32::from(self.per_word);
        let (word_index, slot) = (index32 / per32, index32 % per32);
        let word_at = usize::try_from(word_index)
            .ok()
            .and_then(|w| w.checked_mul(4))
            .and_then(|w| w.checked_add(start))
            .filter(|&w| w.checked_add(4).is_some_and(|e| e <= end))
            .ok_or_else(out_of_range)?;
        let b = self
            .array
            .data
            .get(word_at..word_at.saturating_add(4))
            .ok_or_else(out_of_range)?;
        let w = u32::from_be_bytes([b[0], b[1], b[2], b[3]]);
        let shift = u64::from(slot) * u64::from(self.bits);
        Ok(((u64::from(w) >> shift) & self.slot_mask()) as u32)
    }
}

#[cfg(test)]
mod tests {
    use super::nul_position;

    #[test]
    fn nul_position_agrees_with_a_byte_scan() {
        let mut data = [0x41u8; 40];
        assert_eq!(nul_position(&data), None);
        for at in 0..data.len() {
            data[at] = 0;
            for start in 0..=at {
                assert_eq!(
                    nul_position(&data[start..]),
                    Some(at - start),
                    "{start} {at}"
                );
            }
            // A 0x01 byte before the NUL and 0x80 bytes around it do not confuse the word test.
            data[at] = if at % 2 == 0 { 0x01 } else { 0x80 };
        }
        assert_eq!(nul_position(&[0x01, 0x80, 0xff, 0x00, 0x00]), Some(3));
        assert_eq!(nul_position(&[]), None);
    }
}

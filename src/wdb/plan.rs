//! The decode plan: each field compiled once, when the schema is built, into a [`Step`] that a
//! record decode runs without looking at the field's name, kind or width again.
//!
//! A record decode is then one size check per record and, per cell, one word read at a
//! precomputed position (the visitor reads a bit-packed cell once for all its fields), and per
//! field one branch on a small op code: bit fields are a shift, a mask and a
//! sign extension by `(bits ^ sign) - sign` (with `sign` 0 for an unsigned field, so both kinds
//! take the same instructions, no branch), string-array slots know their array's byte range in
//! `!!strArray` already. Only the success path is fast: any failure (an offset outside `!!string`,
//! an index outside its array, a missing section) goes back to the general readers in `sections`,
//! which make the precise error.

use super::schema::FieldKind;
use super::sections::{Section, StrArrays, nul_position};
use zerocopy::FromBytes;

/// The largest cell position a step holds (see [`Step::pos`]).
const MAX_POS: u32 = u32::MAX - 8;

/// A record's or a string array's whole big-endian words: a word is then one bounds check on
/// its index (a record's bytes past its last whole word are in no cell).
pub(super) type Words<'a> = &'a [[u8; 4]];

/// The whole words of `bytes` (`as_chunks` without its MSRV of 1.88).
#[inline(always)]
pub(super) fn words(bytes: &[u8]) -> Words<'_> {
    <[[u8; 4]]>::ref_from_prefix_with_elems(bytes, bytes.len() / 4).map_or(&[], |(words, _)| words)
}

/// The words of a string array, shown by their number (a `Debug` of a step never prints the file).
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) struct ArrayWords<'a>(pub(super) Words<'a>);

impl core::fmt::Debug for ArrayWords<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "{} words", self.0.len())
    }
}

/// What a step does with its cell's word.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Op {
    /// `(word >> shift) & mask`: `u` bit fields, whole-word `u` cells, u32 cells.
    Unsigned,
    /// `(word >> shift) & mask`, sign-extended: `i`/`f` bit fields and whole-word signed cells.
    Signed,
    /// The word is an f32.
    Float,
    /// The word is an offset into `!!string`.
    String,
    /// `(word >> shift) & mask` is a slot of string array `array`.
    StrArray,
    /// The word and the next one are a big-endian u64.
    U64,
}

/// One field's compiled decode.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Step<'n> {
    pub(super) op: Op,
    /// `op` is [`Op::Unsigned`] or [`Op::Signed`], apart so that the decode tests it before the
    /// general dispatch (most fields are bit fields).
    pub(super) bits: bool,
    /// `op` is [`Op::Signed`].
    pub(super) signed: bool,
    /// A bit field whose previous field is a bit field of the same cell: the visitor extracts it
    /// from the word it read for that field, without reading it again.
    pub(super) same_word: bool,
    /// The field's first bit (0 = least significant), at most 31.
    pub(super) shift: u8,
    /// The field's bits once shifted down (`u32::MAX` for whole words).
    pub(super) mask: u32,
    /// The field's top bit for a signed field, else 0: `(bits ^ sign) - sign` sign-extends, and
    /// is the bits themselves when `sign` is 0, so both kinds take the same instructions.
    pub(super) sign: u32,
    /// Byte offset of the cell's word in the record, for errors (clamped to [`MAX_POS`] if it
    /// does not fit: no record can be that large, so the size check fails first).
    pub(super) pos: u32,
    /// The cell's word in the record's [`Words`]: `pos / 4` (cells are whole words from the
    /// record's start), `u32::MAX` for a clamped `pos`, whose read then fails as its byte read did.
    pub(super) index: u32,
    /// For [`Op::StrArray`]: which array, and its whole words in `!!strArray` (none when the file
    /// has no such array, or when the offsets per word are not a power of two: every slot then
    /// takes the general reader).
    pub(super) array: usize,
    pub(super) array_words: ArrayWords<'n>,
    /// For [`Op::StrArray`], the file's slot layout: log2 of the offsets per word and the mask
    /// of a slot index's low bits (its slot in the word), bits per offset and their mask.
    pub(super) slot_log2: u8,
    pub(super) slot_index_mask: u32,
    pub(super) slot_bits: u8,
    pub(super) slot_mask: u32,
}

impl<'n> Step<'n> {
    /// A placeholder while the schema lays fields out.
    pub(super) const UNCOMPILED: Step<'n> = Step {
        op: Op::Unsigned,
        bits: false,
        signed: false,
        same_word: false,
        shift: 0,
        mask: 0,
        sign: 0,
        pos: 0,
        index: 0,
        array: 0,
        array_words: ArrayWords(&[]),
        slot_log2: 0,
        slot_index_mask: 0,
        slot_bits: 0,
        slot_mask: 0,
    };

    /// Compiles a field of `kind` at byte `pos`, bits `bit_offset..bit_offset + width` of its
    /// word (`width` 32 for whole words). The schema has checked `bit_offset + width <= 32`.
    pub(super) fn compile(
        kind: FieldKind,
        pos: usize,
        bit_offset: u8,
        width: u8,
        arrays: Option<&StrArrays<'n>>,
    ) -> Step<'n> {
        let width = width.clamp(1, 32);
        let mask = u32::MAX >> (32 - width);
        let mut step = Step {
            shift: bit_offset.min(31),
            mask,
            // Clamped so that an error's `pos + 4` fits any `usize`; no record is that long, so a
            // clamped position (whose `index` stays `u32::MAX`) fails its read.
            pos: u32::try_from(pos).unwrap_or(u32::MAX).min(MAX_POS),
            index: u32::MAX,
            ..Step::UNCOMPILED
        };
        step.op = match kind {
            FieldKind::Int { signed: true } => Op::Signed,
            FieldKind::Int { signed: false } | FieldKind::U32 => Op::Unsigned,
            FieldKind::Float => Op::Float,
            FieldKind::String => Op::String,
            FieldKind::U64 => Op::U64,
            FieldKind::StrArray { array } => {
                step.array = array;
                if let Some(arrays) = arrays {
                    let per_word = arrays.offsets_per_word();
                    let range = arrays
                        .array_range(array)
                        .filter(|_| per_word.is_power_of_two());
                    // `array_range` ends inside the section; a range that does not fit leaves
                    // the step without words.
                    let words = range.and_then(|(start, end)| arrays.array_data().get(start..end));
                    if let Some(words) = words {
                        step.array_words = ArrayWords(self::words(words));
                        step.slot_log2 = per_word.trailing_zeros() as u8;
                        step.slot_index_mask = u32::from(per_word) - 1;
                    }
                    step.slot_bits = arrays.bits_per_offset();
                    step.slot_mask = u32::MAX
                        .checked_shr(32u32.saturating_sub(u32::from(step.slot_bits)))
                        .unwrap_or(0);
                }
                Op::StrArray
            }
        };
        if step.pos < MAX_POS && step.pos.is_multiple_of(4) {
            step.index = step.pos / 4;
        }
        step.bits = matches!(step.op, Op::Unsigned | Op::Signed);
        step.signed = step.op == Op::Signed;
        if step.signed {
            step.sign = mask ^ (mask >> 1);
        }
        step
    }

    /// The big-endian word at the step's cell (`at` = 0) or the one after it (`at` = 1) in the
    /// record's `words`: one comparison of the index with the number of words (the byte range
    /// `pos..pos + 4` needed an addition too). Its own reader rather than `sections::word_at`:
    /// routing this per-field read through the checked helper measured 5 % slower for the
    /// visitor and 40 % for the iterator (`cargo bench --bench wdb`). `index + at` cannot
    /// overflow a `usize` (two u32 terms).
    #[inline(always)]
    pub(super) fn word(&self, words: Words<'_>, at: u32) -> Option<u32> {
        let word = words.get(self.index as usize + at as usize)?;
        Some(u32::from_be_bytes(*word))
    }

    /// The field's bits, zero-extended.
    #[inline(always)]
    pub(super) const fn unsigned(&self, word: u32) -> u32 {
        word.wrapping_shr(self.shift as u32) & self.mask
    }

    /// The field's value in 64 bits: sign-extended for a signed field, zero-extended otherwise.
    #[inline(always)]
    pub(super) const fn extended(&self, word: u32) -> u64 {
        let sign = self.sign as u64;
        (self.unsigned(word) as u64 ^ sign).wrapping_sub(sign)
    }
}

/// The string at `offset` of `strings` when it is there (the common case); `None` sends the
/// caller to [`super::sections::string`] for offset 0 without a section, or for the error.
#[inline(always)]
pub(super) fn string_fast(strings: &[u8], offset: u32) -> Option<&[u8]> {
    let start = usize::try_from(offset).ok()?;
    // Most strings are short: test the first 16 bytes at once and cut the string from them (a
    // length under 16 needs no second bounds check). On 64-bit targets a u32 offset plus 16
    // cannot overflow, so one comparison bounds the 16 bytes.
    let head = strings.get(start..start.checked_add(16)?);
    if let Some(head) = head.and_then(|h| h.first_chunk::<16>()) {
        if let Some(len) = first_nul_16(head) {
            return head.get(..len);
        }
        let rest = strings.get(start..)?;
        let tail = rest.get(16..)?;
        return rest.get(..16 + nul_position(tail).unwrap_or(tail.len()));
    }
    let rest = strings.get(start..)?;
    if rest.is_empty() {
        return None;
    }
    let len = nul_position(rest).unwrap_or(rest.len());
    rest.get(..len)
}

/// The first NUL of `head`. On x86-64, memchr's SSE2 finder (SSE2 is part of every x86-64) makes
/// it one 16-byte compare and a mask, where two words took twice the instructions (the bench
/// table's decode 71.3 M → 64.0 M under callgrind); elsewhere the two words.
#[inline(always)]
fn first_nul_16(head: &[u8; 16]) -> Option<usize> {
    #[cfg(target_arch = "x86_64")]
    if let Some(nul) = memchr::arch::x86_64::sse2::memchr::One::new(0) {
        return nul.find(head);
    }
    first_nul_16_words(head)
}

/// [`first_nul_16`] as two words.
#[inline(always)]
fn first_nul_16_words(head: &[u8; 16]) -> Option<usize> {
    let a = zero_bytes(u64::from_le_bytes(*head.first_chunk::<8>()?));
    if a != 0 {
        return Some((a.trailing_zeros() / 8) as usize);
    }
    let b = zero_bytes(u64::from_le_bytes(*head.last_chunk::<8>()?));
    (b != 0).then(|| 8 + (b.trailing_zeros() / 8) as usize)
}

/// The high bit of each zero byte of `v` set (and possibly of bytes above the first zero, which
/// `trailing_zeros` never sees).
#[inline(always)]
const fn zero_bytes(v: u64) -> u64 {
    v.wrapping_sub(0x0101_0101_0101_0101) & !v & 0x8080_8080_8080_8080
}

/// The `!!string` offset in slot `index` of the step's array when the slot is there; `None`
/// sends the caller to [`StrArrays::offset`] for the value of a layout the step does not handle
/// (offsets per word not a power of two) or the precise error.
#[inline(always)]
pub(super) fn slot_fast(step: &Step<'_>, index: u32) -> Option<u32> {
    // The usual layouts (1, 2, 4 offsets per word) need no division; an index past the array's
    // last word (every index when the step has no words) fails the one comparison.
    let word = u32::from_be_bytes(*step.array_words.0.get((index >> step.slot_log2) as usize)?);
    let slot = index & step.slot_index_mask;
    // `StrArrays::new` checked offsets per word × bits per offset <= 32, so a slot's shift,
    // at most 32 − bits, stays under 32 (and is 0 when bits is 0).
    Some(word.wrapping_shr(slot.wrapping_mul(u32::from(step.slot_bits))) & step.slot_mask)
}

/// `!!string`'s bytes, empty when the file has none.
pub(super) fn strings_data<'a>(strings: Option<Section<'a>>) -> &'a [u8] {
    strings.map_or(&[], |s| s.data)
}

#[cfg(test)]
mod tests {
    use super::{first_nul_16, first_nul_16_words};

    /// Both ways of finding a string's NUL in its first 16 bytes agree with a byte scan: no NUL,
    /// a NUL at every position, bytes after it that are NUL too or look like one to the word
    /// test (0x01, 0x80, 0xff).
    #[test]
    fn the_first_nul_of_16_bytes_is_the_byte_scans() {
        for filler in [0x41u8, 0x01, 0x80, 0xff] {
            let mut head = [filler; 16];
            assert_eq!(first_nul_16(&head), None);
            assert_eq!(first_nul_16_words(&head), None);
            for at in 0..16 {
                for after in [0x00u8, 0x01, 0x80, 0xff] {
                    head = [filler; 16];
                    head[at] = 0;
                    for byte in head.iter_mut().skip(at + 1) {
                        *byte = after;
                    }
                    let scan = head.iter().position(|&b| b == 0);
                    assert_eq!(scan, Some(at));
                    assert_eq!(first_nul_16(&head), scan, "{filler:#x} {at} {after:#x}");
                    assert_eq!(
                        first_nul_16_words(&head),
                        scan,
                        "{filler:#x} {at} {after:#x}"
                    );
                }
            }
        }
    }
}

//! The decode plan: each field compiled once, when the schema is built, into a [`Step`] that a
//! record decode runs without looking at the field's name, kind or width again.
//!
//! A record decode is then one size check per record and, per field, one word read at a
//! precomputed position and one branch on a small op code: bit fields are two shifts (left so the
//! field's top bit is bit 31, then right, arithmetic when signed, so masking and sign extension
//! are the same two instructions), string-array slots know their array's byte range in
//! `!!strArray` already. Only the success path is fast: any failure (an offset outside `!!string`,
//! an index outside its array, a missing section) goes back to the general readers in `sections`,
//! which make the precise error.

use super::schema::FieldKind;
use super::sections::{Section, StrArrays, nul_position};

/// The largest cell position a step holds (see [`Step::word`]).
const MAX_POS: u32 = u32::MAX - 8;

/// What a step does with its cell's word.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Op {
    /// `(word << left) >> right`, zero-extended: `u` bit fields, whole-word `u` cells, u32 cells.
    Unsigned,
    /// `(word << left) >> right` on the word as i32, sign-extended: `i`/`f` bit fields and
    /// whole-word signed cells.
    Signed,
    /// The word is an f32.
    Float,
    /// The word is an offset into `!!string`.
    String,
    /// `(word << left) >> right` is a slot of string array `array`.
    StrArray,
    /// The word and the next one are a big-endian u64.
    U64,
}

/// One field's compiled decode.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Step {
    pub(super) op: Op,
    /// `op` is [`Op::Unsigned`] or [`Op::Signed`], apart so that the decode tests it before the
    /// general dispatch (most fields are bit fields).
    pub(super) bits: bool,
    /// `op` is [`Op::Signed`].
    pub(super) signed: bool,
    /// A bit field whose next field is a bit field of the same cell: the decode extracts both
    /// from one word read, in one turn of its loop.
    pub(super) pair: bool,
    /// Shift that drops the bits above the field (32 − bit offset − width).
    pub(super) left: u8,
    /// Shift that brings the field to bit 0 (32 − width).
    pub(super) right: u8,
    /// Byte offset of the cell's word in the record (`u32::MAX` if it does not fit: no record can
    /// be that large, so the size check fails first). A `u32` so that `pos + 4` cannot overflow
    /// and the bounds check is one comparison.
    pub(super) pos: u32,
    /// For [`Op::StrArray`]: which array, and its bytes `[start, end)` inside `!!strArray`
    /// (empty when the file has no such array: every slot then takes the error path).
    pub(super) array: usize,
    pub(super) array_start: usize,
    pub(super) array_end: usize,
}

impl Step {
    /// A placeholder while the schema lays fields out.
    pub(super) const UNCOMPILED: Step = Step {
        op: Op::Unsigned,
        bits: false,
        signed: false,
        pair: false,
        left: 0,
        right: 0,
        pos: 0,
        array: 0,
        array_start: 0,
        array_end: 0,
    };

    /// Compiles a field of `kind` at byte `pos`, bits `bit_offset..bit_offset + width` of its
    /// word (`width` 32 for whole words). The schema has checked `bit_offset + width <= 32`.
    pub(super) fn compile(
        kind: FieldKind,
        pos: usize,
        bit_offset: u8,
        width: u8,
        arrays: Option<&StrArrays<'_>>,
    ) -> Step {
        let width = width.clamp(1, 32);
        let left = 32u8.saturating_sub(bit_offset).saturating_sub(width);
        let right = 32 - width;
        let mut step = Step {
            op: Op::Unsigned,
            bits: false,
            signed: false,
            pair: false,
            left,
            right,
            // Clamped so that `word`'s `pos + at + 4` fits any `usize`; no record is that long,
            // so a clamped position fails its read and the general reader makes the error.
            pos: u32::try_from(pos).unwrap_or(u32::MAX).min(MAX_POS),
            array: 0,
            array_start: 0,
            array_end: 0,
        };
        step.op = match kind {
            FieldKind::Int { signed: true } => Op::Signed,
            FieldKind::Int { signed: false } | FieldKind::U32 => Op::Unsigned,
            FieldKind::Float => Op::Float,
            FieldKind::String => Op::String,
            FieldKind::U64 => Op::U64,
            FieldKind::StrArray { array } => {
                step.array = array;
                if let Some((start, end)) = arrays.and_then(|a| a.array_range(array)) {
                    step.array_start = start;
                    step.array_end = end.max(start);
                }
                Op::StrArray
            }
        };
        step.bits = matches!(step.op, Op::Unsigned | Op::Signed);
        step.signed = step.op == Op::Signed;
        step
    }

    /// The big-endian word at the step's cell (`at` = 0) or the one after it (`at` = 4). Its own
    /// reader rather than `sections::word_at`: routing this per-field read through the checked
    /// helper measured 5 % slower for the visitor and 40 % for the iterator (`cargo bench --bench
    /// wdb`). `pos + 4` cannot overflow: `pos` is at most [`MAX_POS`] + 4.
    #[inline(always)]
    pub(super) fn word(&self, record: &[u8], at: u32) -> Option<u32> {
        let pos = self.pos as usize + at as usize;
        let b = record.get(pos..pos + 4)?;
        Some(u32::from_be_bytes([b[0], b[1], b[2], b[3]]))
    }

    /// The field's bits, zero-extended.
    #[inline(always)]
    pub(super) const fn unsigned(&self, word: u32) -> u32 {
        (word << self.left) >> self.right
    }

    /// The field's bits, sign-extended.
    #[inline(always)]
    pub(super) const fn signed(&self, word: u32) -> i32 {
        ((word << self.left) as i32) >> self.right
    }
}

/// The string at `offset` of `strings` when it is there (the common case); `None` sends the
/// caller to [`super::sections::string`] for offset 0 without a section, or for the error.
#[inline(always)]
pub(super) fn string_fast(strings: &[u8], offset: u32) -> Option<&[u8]> {
    // On 64-bit targets a u32 offset plus 16 cannot overflow (the check folds away), so one
    // comparison bounds the 16 bytes.
    let start = usize::try_from(offset).ok()?;
    let head_end = start.checked_add(16)?;
    // Most strings are short: test the first 16 bytes as two words without a loop.
    if let Some(head) = strings.get(start..head_end) {
        let (a, b) = head.split_at_checked(8)?;
        let a = zero_bytes(u64::from_le_bytes(a.try_into().ok()?));
        let len = if a != 0 {
            (a.trailing_zeros() / 8) as usize
        } else {
            let b = zero_bytes(u64::from_le_bytes(b.try_into().ok()?));
            if b != 0 {
                8 + (b.trailing_zeros() / 8) as usize
            } else {
                let tail = strings.get(head_end..)?;
                16 + nul_position(tail).unwrap_or(tail.len())
            }
        };
        return strings.get(start..start.checked_add(len)?);
    }
    let rest = strings.get(start..)?;
    if rest.is_empty() {
        return None;
    }
    let len = nul_position(rest).unwrap_or(rest.len());
    rest.get(..len)
}

/// The high bit of each zero byte of `v` set (and possibly of bytes above the first zero, which
/// `trailing_zeros` never sees).
#[inline(always)]
const fn zero_bytes(v: u64) -> u64 {
    v.wrapping_sub(0x0101_0101_0101_0101) & !v & 0x8080_8080_8080_8080
}

/// The `!!string` offset in slot `index` of the step's array when the slot is there; `None` sends
/// the caller to [`StrArrays::offset`] for the precise error.
#[inline(always)]
pub(super) fn slot_fast(arrays: &StrArrays<'_>, step: &Step, index: u32) -> Option<u32> {
    let (word_index, slot) = match arrays.per_word_log2() {
        // The usual layouts (1, 2, 4 offsets per word) need no division.
        Some(log2) => (index >> log2, index & ((1 << log2) - 1)),
        None => {
            let per = u32::from(arrays.offsets_per_word());
            (index.checked_div(per)?, index.checked_rem(per)?)
        }
    };
    let at = usize::try_from(word_index)
        .ok()?
        .checked_mul(4)?
        .checked_add(step.array_start)?;
    if at.checked_add(4)? > step.array_end {
        return None;
    }
    let b = arrays.array_data().get(at..at.checked_add(4)?)?;
    let word = u32::from_be_bytes([b[0], b[1], b[2], b[3]]);
    let shift = slot.checked_mul(u32::from(arrays.bits_per_offset()))?;
    let bits = u64::from(word).checked_shr(shift).unwrap_or(0);
    Some((bits & arrays.slot_mask()) as u32)
}

/// `!!string`'s bytes, empty when the file has none.
pub(super) fn strings_data<'a>(strings: Option<Section<'a>>) -> &'a [u8] {
    strings.map_or(&[], |s| s.data)
}

//! The per-file schema: where each named field lives in a record and how to decode it.
//!
//! Built once per file from the type list and the field names (the file's `!structitem`, or a list
//! the caller supplies for an XIII-1 file). It is the reader's one allocation: a `Vec` of
//! [`FieldSpec`], exactly one entry per field name, each carrying its field compiled into a decode
//! step (see `plan.rs`). Reading records and fields through it allocates nothing.
//!
//! The rules (verified on real files): names map to cells in order; a cell of type 1, 2 or 3 takes
//! one name; a bit-packed cell (type 0) takes names until its 32 bits are used, least significant
//! bits first, and a field that does not fit in the bits left starts the next cell. A field's bit
//! width is the one or two digits right after its first letter (`u4Role` → 4, `uiDespair0` → 0),
//! and width 0 means the whole word. The first letter is the kind: `i` signed, `u` unsigned, `f` a
//! signed integer (not a float), `s` an index into the field's string array.

use super::error::{WdbError, WdbResult};
use super::plan::{Step, strings_data};
use super::sections::{Section, StrArrays, TypeList};
use crate::bytes::u64_of;
use crate::error::Error;

/// How a field's bits are read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FieldKind {
    /// Bits of a bit-packed cell (or its whole word when `width` is 32 and the name gave none),
    /// two's complement when `signed` (`i` and `f` names; `f` is an integer, not a float).
    Int {
        /// `i`/`f` fields are signed, `u` fields unsigned.
        signed: bool,
    },
    /// An index into string array `array` (`s` names with a width): the k-th such name owns the
    /// k-th `!!strArrayList` array.
    StrArray {
        /// Which array of `!!strArray`.
        array: usize,
    },
    /// A whole cell of type 1: big-endian f32.
    Float,
    /// A whole cell of type 2: a big-endian u32 offset into `!!string`.
    String,
    /// A whole cell of type 3: big-endian u32.
    U32,
    /// A type-3 field named `u64…` (one PS3 file): big-endian u64 over 8 bytes.
    U64,
}

/// One field: its name, kind and place in the record.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FieldSpec<'n> {
    /// The field's name.
    pub name: &'n str,
    /// How it is decoded.
    pub kind: FieldKind,
    /// Index of its cell in the type list.
    pub cell: usize,
    /// Byte offset of its cell in the record (cells after a u64 field are 4 bytes further).
    pub byte_offset: usize,
    /// First bit inside the cell's big-endian word (0 = least significant).
    pub bit_offset: u8,
    /// Bits it takes (32 for a whole word).
    pub width: u8,
    /// The same, compiled for decoding (filled in when the schema is complete).
    pub(super) step: Step<'n>,
}

/// The bit width a field's name gives: the one or two ASCII digits right after its first letter,
/// 0 when the second character is not a digit.
pub fn name_width(name: &str) -> u32 {
    let b = name.as_bytes();
    match (b.get(1), b.get(2)) {
        (Some(d1 @ b'0'..=b'9'), Some(d2 @ b'0'..=b'9')) => {
            u32::from(d1 - b'0') * 10 + u32::from(d2 - b'0')
        }
        (Some(d1 @ b'0'..=b'9'), _) => u32::from(d1 - b'0'),
        _ => 0,
    }
}

/// Whether `name` owns a string array: `s` followed by a non-zero digit width.
pub fn owns_string_array(name: &str) -> bool {
    name.starts_with('s') && name_width(name) != 0
}

/// The fields of a file's records, in name order, plus what reading them needs.
#[derive(Debug, Clone)]
pub struct Schema<'n> {
    pub(super) fields: Vec<FieldSpec<'n>>,
    pub(super) record_size: usize,
    pub(super) cells: usize,
    pub(super) arrays: Option<StrArrays<'n>>,
    pub(super) strings: Option<Section<'n>>,
    /// `!!string`'s bytes (empty without it), for the decode's fast path.
    pub(super) strings_data: &'n [u8],
}

impl<'n> Schema<'n> {
    /// Lays `names` over the cells of `types`. `names_len` must be the number of names (the
    /// `Vec` is allocated once at that size). `type_list_at` is the type list's absolute offset,
    /// for errors.
    pub fn build(
        types: TypeList<'_>,
        type_list_at: usize,
        names_len: usize,
        names: impl Iterator<Item = WdbResult<'n, &'n str>>,
        arrays: Option<StrArrays<'n>>,
        strings: Option<Section<'n>>,
    ) -> WdbResult<'n, Schema<'n>> {
        let mut names = names.peekable();
        let mut fields = Vec::with_capacity(names_len);
        let mut pos = 0usize;
        let mut arrays_seen = 0usize;
        let cell_at = |cell: usize| u64_of(type_list_at.saturating_add(cell));
        for (cell, code) in types.iter().enumerate() {
            let bad_code = || {
                Error::invalid(
                    cell_at(cell),
                    "!!strtypelist",
                    u64::from(code),
                    "unknown cell type (0 bit-packed, 1 float, 2 string, 3 u32)",
                )
            };
            if code > 3 {
                return Err(WdbError::new(bad_code()));
            }
            let Some(next) = names.peek().copied() else {
                // Cells beyond the names still belong to every record.
                pos = pos.saturating_add(4);
                continue;
            };
            let first = next?;
            let mut spec = FieldSpec {
                name: first,
                kind: FieldKind::U32,
                cell,
                byte_offset: pos,
                bit_offset: 0,
                width: 32,
                step: Step::UNCOMPILED,
            };
            match code {
                0 => {
                    let mut used = 0u32;
                    while let Some(next) = names.peek().copied() {
                        let name = next?;
                        let width = name_width(name);
                        let letter = name.as_bytes().first().copied().unwrap_or(0);
                        let signed = match letter {
                            b'i' | b'f' => true,
                            b'u' => false,
                            b's' => width == 0,
                            _ => {
                                return Err(WdbError::in_field(
                                    Error::invalid(
                                        cell_at(cell),
                                        "!structitem",
                                        u64::from(letter),
                                        "field type letter must be i, u, f or s",
                                    ),
                                    name,
                                ));
                            }
                        };
                        if width > 32 {
                            return Err(WdbError::in_field(
                                Error::invalid(
                                    cell_at(cell),
                                    "!structitem",
                                    u64::from(width),
                                    "bit width over 32",
                                ),
                                name,
                            ));
                        }
                        if width == 0 {
                            if used != 0 {
                                return Err(WdbError::in_field(
                                    Error::invalid(
                                        cell_at(cell),
                                        "!structitem",
                                        u64::from(used),
                                        "whole-word field in a partly used bit-packed cell",
                                    ),
                                    name,
                                ));
                            }
                            names.next();
                            fields.push(FieldSpec {
                                name,
                                kind: FieldKind::Int { signed },
                                ..spec
                            });
                            break;
                        }
                        if width > 32 - used {
                            break;
                        }
                        let kind = if letter == b's' {
                            arrays_seen += 1;
                            FieldKind::StrArray {
                                array: arrays_seen - 1,
                            }
                        } else {
                            FieldKind::Int { signed }
                        };
                        names.next();
                        fields.push(FieldSpec {
                            name,
                            kind,
                            bit_offset: used as u8,
                            width: width as u8,
                            ..spec
                        });
                        used += width;
                        if used == 32 {
                            break;
                        }
                    }
                    pos = pos.saturating_add(4);
                }
                _ => {
                    names.next();
                    if owns_string_array(first) {
                        // The k-th `s#` name owns the k-th array whatever its cell.
                        arrays_seen += 1;
                    }
                    spec.kind = match code {
                        1 => FieldKind::Float,
                        2 => FieldKind::String,
                        _ if first.starts_with("u64") => FieldKind::U64,
                        _ => FieldKind::U32,
                    };
                    let size = if spec.kind == FieldKind::U64 { 8 } else { 4 };
                    spec.width = size * 8;
                    fields.push(spec);
                    pos = pos.saturating_add(usize::from(size));
                }
            }
        }
        if let Some(next) = names.next() {
            let name = next?;
            return Err(WdbError::in_field(
                Error::invalid(
                    u64_of(type_list_at),
                    "!!strtypelist",
                    u64_of(types.len()),
                    "the type list's cells ran out before the field names",
                ),
                name,
            ));
        }
        if let Some(arrays) = arrays {
            if arrays.array_count() != arrays_seen {
                return Err(WdbError::new(Error::invalid(
                    u64_of(arrays.list_at()),
                    "!!strArrayList",
                    u64_of(arrays.array_count()),
                    "array count differs from the number of s# fields",
                )));
            }
        }
        for field in &mut fields {
            field.step = Step::compile(
                field.kind,
                field.byte_offset,
                field.bit_offset,
                field.width,
                arrays.as_ref(),
            );
        }
        // A bit field right after a bit field of its cell takes the word that one read: the
        // visitor then reads each bit-packed cell once.
        let mut previous: Option<Step<'n>> = None;
        for field in &mut fields {
            let step = &mut field.step;
            step.same_word = step.bits && previous.is_some_and(|p| p.bits && p.pos == step.pos);
            previous = Some(*step);
        }
        Ok(Schema {
            fields,
            strings_data: strings_data(strings),
            record_size: pos,
            cells: types.len(),
            arrays,
            strings,
        })
    }

    /// Every field in name order.
    pub fn fields(&self) -> &[FieldSpec<'n>] {
        &self.fields
    }

    /// Number of fields.
    pub fn len(&self) -> usize {
        self.fields.len()
    }

    /// Whether the schema has no fields.
    pub fn is_empty(&self) -> bool {
        self.fields.is_empty()
    }

    /// Field `i`.
    pub fn field(&self, i: usize) -> Option<&FieldSpec<'n>> {
        self.fields.get(i)
    }

    /// The index of the field named `name` (a scan: schemas have tens of fields).
    pub fn index_of(&self, name: &str) -> Option<usize> {
        self.fields.iter().position(|f| f.name == name)
    }

    /// The record size the type list implies: 4 bytes per cell, 8 for a `u64` field.
    pub fn record_size(&self) -> usize {
        self.record_size
    }

    /// Number of cells in the type list.
    pub fn cells(&self) -> usize {
        self.cells
    }

    /// The string arrays, when the file has them.
    pub fn str_arrays(&self) -> Option<&StrArrays<'n>> {
        self.arrays.as_ref()
    }
}

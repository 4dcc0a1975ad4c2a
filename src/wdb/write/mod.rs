//! The `.wdb` writer: an owned table ([`WdbModel`]) to a file that [`WdbView`](crate::wdb::WdbView)
//! reads back to the same values.
//!
//! A table read from a file ([`WdbModel::from_view`]) keeps the file's `!!string` bytes and string
//! arrays as the seed of the new ones, so that read → write reproduces a real file byte for byte:
//! strings and array items already there keep their offsets and indices, new ones are appended.
//! Records are sorted by name (byte order, as the games keep them) and the entry count follows the
//! records. A value that does not fit its field is an error, never silently cut.
//!
//! Layout, as in the real files: header, entry table, the sections in name order, then the records,
//! each starting on a 4-byte boundary and zero-padded; `!!sheetname` is padded to 16 bytes.

use zerocopy::IntoBytes;
use zerocopy::big_endian::U32;

use crate::bytes::sink::Sink;
use crate::wdb::export::columns::CELL_TYPES;
use crate::wdb::export::columns::value_keys;
use crate::wdb::model::{TableRecord, TableValue, WdbModel, in_record, lossy};
use crate::wdb::{FieldKind, Schema, TypeList, raw};
use crate::write_error::{WriteError, WriteErrorKind};
use pool::Pool;

mod pool;

impl WdbModel {
    /// Writes the file.
    pub fn to_bytes(&self) -> Result<Vec<u8>, WriteError> {
        let type_bytes = self.type_list_bytes()?;
        let types = if self.wide_type_list {
            TypeList::words(&type_bytes)
        } else {
            TypeList::bytes(&type_bytes)
        };
        if let Some(&bad) = self.type_codes.iter().find(|&&c| c > 3) {
            return Err(WriteError::new(WriteErrorKind::Unknown {
                what: "cell type",
                name: bad.to_string(),
                note: CELL_TYPES,
            }));
        }
        let names = self.field_names.as_ref();
        let schema = self.schema()?;
        let record_size = schema.as_ref().map_or(types.len() * 4, Schema::record_size);
        let needs_strings = self.type_codes.contains(&2) || self.str_array.is_some();
        let mut pool = match (&self.string_pool, needs_strings) {
            (Some(seed), _) => Some(Pool::new(seed)),
            (None, true) => Some(Pool::new(&[])),
            (None, false) => None,
        };

        // Records, sorted, checked and encoded.
        // With each record its index in the model, for the errors' paths.
        let mut order: Vec<(usize, &TableRecord)> = self.records.iter().enumerate().collect();
        order.sort_by(|(_, a), (_, b)| a.name.as_bytes().cmp(b.name.as_bytes()));
        for pair in order.windows(2) {
            if pair[0].1.name == pair[1].1.name {
                let (index, record) = pair[1];
                let e = WriteError::new(WriteErrorKind::Duplicate {
                    what: "record name",
                });
                return Err(in_record(e, index, &record.name, None));
            }
        }
        let mut arrays = self.string_arrays.clone();
        if let (Some(schema), Some(pool)) = (&schema, pool.as_mut()) {
            // String-array items go first into `!!string`: their offsets must fit the few bits of
            // an array slot, record strings have 32.
            for (_, record) in &order {
                for (spec, value) in schema.fields().iter().zip(&record.values) {
                    if let (FieldKind::StrArray { array }, TableValue::Str(s)) = (spec.kind, value)
                    {
                        if let Some(items) = arrays.get_mut(array) {
                            if !items.contains(s) {
                                items.push(s.clone());
                            }
                        }
                    }
                }
            }
            for item in arrays.iter().flatten() {
                pool.offset(item)?;
            }
        }
        let mut encoded = Vec::with_capacity(order.len());
        for &(index, record) in &order {
            let at_record = |e: WriteError| in_record(e, index, &record.name, None);
            let name = record.name.as_bytes();
            if name.is_empty() || name.len() > 16 || name.contains(&0) || name[0] == b'!' {
                return Err(at_record(WriteError::rule(
                    "record names are 1 to 16 bytes, without NUL, not starting with '!'",
                )));
            }
            let mut data = vec![0u8; record_size];
            match &schema {
                Some(schema) => {
                    if record.values.len() != schema.len() {
                        return Err(at_record(values_for(
                            record.values.len(),
                            schema.len(),
                            " fields",
                        )));
                    }
                    for (spec, value) in schema.fields().iter().zip(&record.values) {
                        encode_field(spec, value, &mut data, pool.as_mut(), &mut arrays)
                            .map_err(|e| in_record(e, index, &record.name, Some(spec.name)))?;
                    }
                }
                None => {
                    if record.values.len() != types.len() {
                        return Err(at_record(values_for(
                            record.values.len(),
                            types.len(),
                            " cells",
                        )));
                    }
                    for (cell, (code, value)) in types.iter().zip(&record.values).enumerate() {
                        let word = match (code, value) {
                            (1, TableValue::Float(f)) => Ok(f.to_bits()),
                            (2, TableValue::Str(s)) => pool
                                .as_mut()
                                .ok_or_else(|| WriteError::missing("no !!string", None))
                                .and_then(|pool| pool.offset(s)),
                            (0 | 3, v @ (TableValue::Int(_) | TableValue::UInt(_))) => {
                                unsigned(v, 32).and_then(|u| {
                                    u32::try_from(u).map_err(|_| {
                                        WriteError::rule("a u32 cell holds more than 32 bits")
                                    })
                                })
                            }
                            (code, v) => Err(kind_mismatch(code, cell, v)),
                        };
                        let word = word.map_err(|e| {
                            let keys = value_keys(self).unwrap_or_default();
                            let key = keys.get(cell).map(String::as_str);
                            in_record(e, index, &record.name, key)
                        })?;
                        data[cell * 4..cell * 4 + 4].copy_from_slice(&word.to_be_bytes());
                    }
                }
            }
            encoded.push((name, data));
        }

        // Sections.
        let mut sections: Vec<(&[u8], Vec<u8>)> = Vec::new();
        if let Some(sheet) = &self.sheet_name {
            let mut b = sheet.as_bytes().to_vec();
            b.push(0);
            sections.push((b"!!sheetname", b));
        }
        if let Some(layout) = self.str_array {
            let pool = pool
                .as_mut()
                .ok_or_else(|| WriteError::missing("no !!string", None))?;
            let per = usize::from(layout.offsets_per_word);
            let bits = u32::from(layout.bits_per_offset);
            if per == 0 || per as u32 * bits > 32 {
                return Err(WriteError::rule(
                    "!!strArrayInfo: offsets per word × bits per offset must be 1..=32",
                ));
            }
            let mut array = Vec::new();
            let mut list = Vec::new();
            for items in &arrays {
                let start = u32::try_from(array.len()).map_err(|_| {
                    WriteError::rule("!!strArrayList: an array starts beyond 4 GiB")
                })?;
                list.extend_from_slice(&start.to_be_bytes());
                for chunk in items.chunks(per) {
                    let mut word = 0u64;
                    for (slot, item) in chunk.iter().enumerate() {
                        let off = u64::from(pool.offset(item)?);
                        if off >> bits != 0 {
                            return Err(WriteError::message(format!(
                                "string {item:?} is at !!string offset {off}, beyond the {bits} bits of a string-array slot"
                            )));
                        }
                        word |= off << (slot as u32 * bits);
                    }
                    let word = u32::try_from(word).map_err(|_| {
                        WriteError::rule("!!strArray: a word's slots exceed 32 bits")
                    })?;
                    array.extend_from_slice(&word.to_be_bytes());
                }
            }
            sections.push((b"!!strArray", array));
            sections.push((
                b"!!strArrayInfo",
                raw::StrArrayInfo {
                    reserved: [0; 2],
                    offsets_per_word: layout.offsets_per_word,
                    bits_per_offset: layout.bits_per_offset,
                }
                .as_bytes()
                .to_vec(),
            ));
            sections.push((b"!!strArrayList", list));
        } else if arrays.iter().any(|a| !a.is_empty()) {
            return Err(WriteError::rule(
                "string arrays without a !!strArrayInfo layout",
            ));
        }
        if let Some(pool) = pool {
            sections.push((b"!!string", pool.bytes));
        }
        sections.push((
            if self.wide_type_list {
                b"!!strtypelist"
            } else {
                b"!!strtypelistb"
            },
            type_bytes.clone(),
        ));
        if let Some(t) = &self.typelist {
            sections.push((
                b"!!typelist",
                t.iter().flat_map(|c| c.to_be_bytes()).collect(),
            ));
        }
        if let Some(v) = self.version {
            sections.push((b"!!version", v.to_be_bytes().to_vec()));
        }
        if let (Some(n), true) = (names, self.write_field_names) {
            let mut b = Vec::new();
            for name in n {
                b.extend_from_slice(name.as_bytes());
                b.push(0);
            }
            sections.push((b"!structitem", b));
            let count = u32::try_from(n.len())
                .map_err(|_| WriteError::rule("!structitemnum: too many fields"))?;
            sections.push((b"!structitemnum", count.to_be_bytes().to_vec()));
        }
        sections.sort_by(|a, b| a.0.cmp(b.0));

        let count = sections.len() + encoded.len();
        let mut out = Sink::new();
        out.put(&raw::Header {
            magic: raw::MAGIC,
            entry_count: U32::new(
                u32::try_from(count).map_err(|_| WriteError::rule("too many records"))?,
            ),
            reserved: [0; 8],
        });
        let table = out.reserve::<raw::Entry>(count, "Entry")?;
        let entries = sections
            .iter()
            .map(|(n, d)| (*n, d.as_slice()))
            .chain(encoded.iter().map(|(n, d)| (*n, d.as_slice())));
        for (i, (name, data)) in entries.enumerate() {
            let at = out.put(data);
            if name == b"!!sheetname" {
                // The real files pad the sheet name to 16 bytes, and to at least 16 from its start.
                let end = out.align(raw::SHEET_NAME_ALIGN)?;
                out.fill(0, raw::SHEET_NAME_ALIGN.saturating_sub(end - at))?;
            } else {
                out.align(4)?;
            }
            let mut stored = [0u8; raw::NAME_SIZE];
            stored
                .get_mut(..name.len())
                .ok_or_else(|| {
                    WriteError::message(format!("name {:?} is longer than 16 bytes", lossy(name)))
                })?
                .copy_from_slice(name);
            let entry = raw::Entry {
                name: stored,
                offset: U32::new(
                    u32::try_from(at).map_err(|_| WriteError::rule("file would exceed 4 GiB"))?,
                ),
                size: U32::new(
                    u32::try_from(data.len())
                        .map_err(|_| WriteError::rule("Entry.size: data larger than 4 GiB"))?,
                ),
                reserved: [0; 8],
            };
            out.patch_record(&table, i, &entry)?;
        }
        Ok(out.into_bytes())
    }
}

/// A value of another kind than its cell's type code says (a type code changed under the
/// values, or a value edited to another kind): refused, as the value would be stored as the other
/// kind and read back as another value.
fn kind_mismatch(code: u32, cell: usize, value: &TableValue) -> WriteError {
    let held = match value {
        TableValue::Int(_) | TableValue::UInt(_) => "an integer",
        TableValue::Float(_) => "a float",
        TableValue::Str(_) => "a string",
    };
    WriteError::new(WriteErrorKind::TypeCode {
        cell: crate::bytes::u64_of(cell),
        code,
        held,
    })
}

/// `found` values in a record of `expected` fields or cells.
fn values_for(found: usize, expected: usize, of: &'static str) -> WriteError {
    WriteError::new(WriteErrorKind::Mismatch {
        found: crate::bytes::u64_of(found),
        expected: crate::bytes::u64_of(expected),
        unit: " values",
        relation: "for",
        of,
    })
}

/// `value` does not fit a field of `bits` bits.
fn too_wide(value: i128, bits: u32, signed: bool) -> WriteError {
    WriteError::new(WriteErrorKind::DoesNotFit {
        what: "value",
        value,
        bits,
        signed,
        field: None,
    })
}

/// `v` as an unsigned value of `width` bits.
fn unsigned(v: &TableValue, width: u32) -> Result<u64, WriteError> {
    let u = match *v {
        TableValue::UInt(u) => u,
        TableValue::Int(i) => {
            u64::try_from(i).map_err(|_| too_wide(i128::from(i), width, false))?
        }
        _ => return Err(WriteError::rule("an integer field holds a non-integer")),
    };
    if width < 64 && u >> width != 0 {
        return Err(too_wide(i128::from(u), width, false));
    }
    Ok(u)
}

/// `v` as a two's-complement value of `width` bits.
fn signed(v: &TableValue, width: u32) -> Result<u64, WriteError> {
    let i = match *v {
        TableValue::Int(i) => i,
        TableValue::UInt(u) => {
            i64::try_from(u).map_err(|_| too_wide(i128::from(u), width, true))?
        }
        _ => return Err(WriteError::rule("an integer field holds a non-integer")),
    };
    let half = 1i64 << (width - 1);
    if i < -half || i >= half {
        return Err(too_wide(i128::from(i), width, true));
    }
    Ok((i as u64) & ((1u64 << width) - 1))
}

/// The `N` bytes of a field at `pos` in a record: a field outside the record (a schema that does
/// not fit its record size) is an error, not a dropped write.
fn field<const N: usize>(data: &mut [u8], pos: usize) -> Result<&mut [u8; N], WriteError> {
    pos.checked_add(N)
        .and_then(|end| data.get_mut(pos..end))
        .and_then(|slot| <&mut [u8; N]>::try_from(slot).ok())
        .ok_or_else(|| in_layout("field", pos, "lies outside the record"))
}

/// A field of the record's layout at byte `pos` that breaks `rule`.
fn in_layout(field: &'static str, pos: usize, rule: &'static str) -> WriteError {
    WriteError::new(WriteErrorKind::Rule {
        rule,
        at: Some((field, crate::bytes::u64_of(pos))),
    })
}

/// ORs `bits` into the big-endian word at `pos`, `bit` bits up.
fn put_bits(data: &mut [u8], pos: usize, bit: u8, bits: u64) -> Result<(), WriteError> {
    let slot = field::<4>(data, pos)?;
    let word =
        u64::from(u32::from_be_bytes(*slot)) | bits.checked_shl(u32::from(bit)).unwrap_or(u64::MAX);
    let word = u32::try_from(word)
        .map_err(|_| in_layout("bit field", pos, "runs past its 32-bit word"))?;
    *slot = word.to_be_bytes();
    Ok(())
}

fn encode_field(
    spec: &crate::wdb::FieldSpec<'_>,
    value: &TableValue,
    data: &mut [u8],
    pool: Option<&mut Pool>,
    arrays: &mut [Vec<String>],
) -> Result<(), WriteError> {
    let pos = spec.byte_offset;
    let width = u32::from(spec.width);
    match spec.kind {
        FieldKind::Int { signed: true } => {
            put_bits(data, pos, spec.bit_offset, signed(value, width)?)?;
        }
        FieldKind::Int { signed: false } => {
            put_bits(data, pos, spec.bit_offset, unsigned(value, width)?)?;
        }
        FieldKind::StrArray { array } => {
            let TableValue::Str(s) = value else {
                return Err(WriteError::rule("an s# field holds a non-string"));
            };
            let items = arrays.get_mut(array).ok_or_else(|| {
                WriteError::message(format!("no string array {array} for this field"))
            })?;
            let index = match items.iter().position(|i| i == s) {
                Some(i) => i,
                None => {
                    items.push(s.clone());
                    items.len() - 1
                }
            };
            let index = TableValue::UInt(crate::bytes::u64_of(index));
            put_bits(data, pos, spec.bit_offset, unsigned(&index, width)?)?;
        }
        FieldKind::Float => {
            let f = match value {
                TableValue::Float(f) => *f,
                // How the JSON layout spells the non-finite floats.
                TableValue::Str(s) if s == "nan" => f32::NAN,
                TableValue::Str(s) if s == "inf" => f32::INFINITY,
                TableValue::Str(s) if s == "-inf" => f32::NEG_INFINITY,
                v => return Err(kind_mismatch(1, spec.cell, v)),
            };
            *field(data, pos)? = f.to_bits().to_be_bytes();
        }
        FieldKind::String => {
            let TableValue::Str(s) = value else {
                return Err(WriteError::rule("a string field holds a non-string"));
            };
            let pool = pool.ok_or_else(|| WriteError::missing("no !!string", None))?;
            *field(data, pos)? = pool.offset(s)?.to_be_bytes();
        }
        FieldKind::U32 => {
            let value = u32::try_from(unsigned(value, 32)?)
                .map_err(|_| WriteError::rule("a u32 field holds more than 32 bits"))?;
            *field(data, pos)? = value.to_be_bytes();
        }
        FieldKind::U64 => {
            *field(data, pos)? = unsigned(value, 64)?.to_be_bytes();
        }
    }
    Ok(())
}

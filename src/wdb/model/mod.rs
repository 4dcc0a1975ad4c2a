//! The `.wdb` writer: an owned table ([`WdbModel`]) to a file that [`WdbView`] reads back to the
//! same values.
//!
//! A table read from a file ([`WdbModel::from_view`]) keeps the file's `!!string` bytes and string
//! arrays as the seed of the new ones, so that read → write reproduces a real file byte for byte:
//! strings and array items already there keep their offsets and indices, new ones are appended.
//! Records are sorted by name (byte order, as the games keep them) and the entry count follows the
//! records. A value that does not fit its field is an error, never silently cut.
//!
//! Layout, as in the real files: header, entry table, the sections in name order, then the records,
//! each starting on a 4-byte boundary and zero-padded; `!!sheetname` is padded to 16 bytes.

use std::fmt;

use zerocopy::IntoBytes;
use zerocopy::big_endian::U32;

use crate::bytes::sink::Sink;
use crate::wdb::{FieldKind, Game, Schema, TypeList, Value, WdbView, raw};
use crate::write_error::WriteError;
use pool::Pool;

pub mod columns;
#[cfg(feature = "csv")]
pub mod csv;
#[cfg(feature = "serde")]
pub mod json;
mod pool;
pub mod sheet;
#[cfg(feature = "xlsx")]
pub mod xlsx;

/// One field value (or, for a file without names, one cell).
#[derive(Debug, Clone, PartialEq)]
pub enum TableValue {
    /// A signed integer (`i`/`f` fields, whole-word signed cells).
    Int(i64),
    /// An unsigned integer (`u` fields, u32/u64 cells, an XIII-1 bit-packed cell's raw word).
    UInt(u64),
    /// A float cell.
    Float(f32),
    /// A `!!string` string or an `s#` string-array entry.
    Str(String),
}

/// One record: its name and its values in field order (cell order for a file without names).
#[derive(Debug, Clone, PartialEq)]
pub struct TableRecord {
    /// At most 16 bytes, no NUL, not starting with `!`.
    pub name: String,
    /// One value per field.
    pub values: Vec<TableValue>,
}

/// `!!strArrayInfo`: how the string arrays pack their offsets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StrArrayLayout {
    /// String offsets per u32 word.
    pub offsets_per_word: u8,
    /// Bits per offset.
    pub bits_per_offset: u8,
}

/// A whole `.wdb`, owned and editable.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct WdbModel {
    /// `!!sheetname`, if the file has one.
    pub sheet_name: Option<String>,
    /// `!!version`, if the file has one.
    pub version: Option<u32>,
    /// The per-cell type codes (0 bit-packed, 1 float, 2 string, 3 u32/u64).
    pub type_codes: Vec<u32>,
    /// Write `!!strtypelist` (one u32 per cell, XIII-1) instead of `!!strtypelistb` (one byte).
    pub wide_type_list: bool,
    /// `!!typelist`, kept raw.
    pub typelist: Option<Vec<u32>>,
    /// Field names. `None`: the values are cells (an XIII-1 file read without names).
    pub field_names: Option<Vec<String>>,
    /// Whether the names are written as `!structitem` (XIII-2/LR); XIII-1 files have none.
    pub write_field_names: bool,
    /// `!!strArrayInfo`, when the file has string arrays.
    pub str_array: Option<StrArrayLayout>,
    /// The `!!string` bytes to start from (`Some` also keeps the section when nothing needs it).
    pub string_pool: Option<Vec<u8>>,
    /// Each string array's items to start from, in `s#`-field order.
    pub string_arrays: Vec<Vec<String>>,
    /// The records, in any order: they are written sorted by name.
    pub records: Vec<TableRecord>,
}

/// The former name of [`WdbModel`].
pub type WdbTable = WdbModel;

/// The former name of the error of the table's writer and interchange forms: now the one
/// [`WriteError`] of every format's model, whose path names the record and field
/// (`records[3].u4Kind`).
pub type PackError = WriteError;

/// `e` inside the model's record `index`, named `name`, and its field `field` if known.
pub(crate) fn in_record(
    e: WriteError,
    index: usize,
    name: &str,
    field: Option<&str>,
) -> WriteError {
    let e = match field {
        Some(field) => e.in_field(field),
        None => e,
    };
    e.at_index(index)
        .about(format_args!("record {name:?}"))
        .in_field("records")
}

fn lossy(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

impl WdbModel {
    /// Reads a whole file into a table. `names` supplies field names for an XIII-1 file (or
    /// overrides a file's own); without names an XIII-1 file's values are its cells.
    pub fn from_view(view: &WdbView<'_>, names: Option<&[&str]>) -> Result<WdbModel, WriteError> {
        let err = |e: &dyn fmt::Display| WriteError::message(e.to_string());
        let types = view
            .type_list()
            .ok_or_else(|| WriteError::message("no !!strtypelist or !!strtypelistb"))?;
        let file_names: Option<Vec<&str>> = match view.field_names() {
            Some(n) => {
                if names.is_none() {
                    // The file's own names are used: their count must agree with them.
                    n.check().map_err(|e| err(&e))?;
                }
                Some(
                    n.iter()
                        .collect::<crate::Result<_>>()
                        .map_err(|e| err(&e))?,
                )
            }
            None => None,
        };
        let names: Option<Vec<&str>> = names.map(<[&str]>::to_vec).or(file_names);
        let arrays = view.str_arrays().map_err(|e| err(&e))?;
        let mut string_arrays = Vec::new();
        if let Some(a) = arrays {
            for k in 0..a.array_count() {
                let mut items = Vec::new();
                for i in 0..a.array_len(k) {
                    let off = a.offset(k, i as u64, 0).map_err(|e| err(&e))?;
                    let s =
                        crate::wdb::sections_string(view.strings(), off).map_err(|e| err(&e))?;
                    items.push(lossy(s));
                }
                string_arrays.push(items);
            }
        }
        let mut records = Vec::with_capacity(view.record_count());
        match &names {
            Some(names) => {
                let schema = view.schema_with_names(names).map_err(|e| err(&e))?;
                for record in view.records() {
                    let mut values = Vec::with_capacity(schema.len());
                    for (_, v) in schema.values(record) {
                        values.push(match v.map_err(|e| err(&e))? {
                            Value::Int(i) => TableValue::Int(i),
                            Value::UInt(u) => TableValue::UInt(u),
                            Value::Float(f) => TableValue::Float(f),
                            Value::Str(s) => TableValue::Str(lossy(s)),
                        });
                    }
                    records.push(TableRecord {
                        name: lossy(record.name_bytes()),
                        values,
                    });
                }
            }
            None => {
                for record in view.records() {
                    let mut values = Vec::with_capacity(types.len());
                    for cell in view.cells(record) {
                        values.push(match cell.map_err(|e| err(&e))? {
                            crate::wdb::Cell::Bits(w) | crate::wdb::Cell::U32(w) => {
                                TableValue::UInt(u64::from(w))
                            }
                            crate::wdb::Cell::Float(f) => TableValue::Float(f),
                            crate::wdb::Cell::Str(s) => TableValue::Str(lossy(s)),
                        });
                    }
                    records.push(TableRecord {
                        name: lossy(record.name_bytes()),
                        values,
                    });
                }
            }
        }
        Ok(WdbModel {
            sheet_name: view.sheet_name().map(lossy),
            version: view.version(),
            type_codes: types.iter().collect(),
            wide_type_list: types.is_wide(),
            typelist: view.typelist().map(|t| t.iter().collect()),
            field_names: names.map(|n| n.iter().map(|s| s.to_string()).collect()),
            write_field_names: view.game() == Game::Xiii2Lr,
            str_array: arrays.map(|a| StrArrayLayout {
                offsets_per_word: a.offsets_per_word(),
                bits_per_offset: a.bits_per_offset(),
            }),
            string_pool: view.strings().map(|s| s.data.to_vec()),
            string_arrays,
            records,
        })
    }

    fn type_list_bytes(&self) -> Result<Vec<u8>, WriteError> {
        if self.wide_type_list {
            return Ok(self
                .type_codes
                .iter()
                .flat_map(|c| c.to_be_bytes())
                .collect());
        }
        self.type_codes
            .iter()
            .map(|&c| {
                u8::try_from(c).map_err(|_| {
                    WriteError::message(format!("type code {c} does not fit !!strtypelistb's byte"))
                })
            })
            .collect()
    }

    /// The schema the field names lay over the type codes (`None` for a table of cells).
    pub fn schema(&self) -> Result<Option<Schema<'_>>, WriteError> {
        let Some(names) = &self.field_names else {
            return Ok(None);
        };
        let type_bytes = self.type_list_bytes()?;
        let types = if self.wide_type_list {
            TypeList::words(&type_bytes)
        } else {
            TypeList::bytes(&type_bytes)
        };
        Schema::build(
            types,
            0,
            names.len(),
            names.iter().map(|s| Ok(s.as_str())),
            None,
            None,
        )
        .map(Some)
        .map_err(|e| WriteError::message(e.to_string()))
    }

    /// Writes the file.
    pub fn to_bytes(&self) -> Result<Vec<u8>, WriteError> {
        let type_bytes = self.type_list_bytes()?;
        let types = if self.wide_type_list {
            TypeList::words(&type_bytes)
        } else {
            TypeList::bytes(&type_bytes)
        };
        if let Some(&bad) = self.type_codes.iter().find(|&&c| c > 3) {
            return Err(WriteError::message(format!(
                "unknown cell type {bad} (0 bit-packed, 1 float, 2 string, 3 u32)"
            )));
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
                let e = WriteError::message("duplicate record name");
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
                return Err(at_record(WriteError::message(
                    "record names are 1 to 16 bytes, without NUL, not starting with '!'",
                )));
            }
            let mut data = vec![0u8; record_size];
            match &schema {
                Some(schema) => {
                    if record.values.len() != schema.len() {
                        return Err(at_record(WriteError::message(format!(
                            "{} values for {} fields",
                            record.values.len(),
                            schema.len()
                        ))));
                    }
                    for (spec, value) in schema.fields().iter().zip(&record.values) {
                        encode_field(spec, value, &mut data, pool.as_mut(), &mut arrays)
                            .map_err(|e| in_record(e, index, &record.name, Some(spec.name)))?;
                    }
                }
                None => {
                    if record.values.len() != types.len() {
                        return Err(at_record(WriteError::message(format!(
                            "{} values for {} cells",
                            record.values.len(),
                            types.len()
                        ))));
                    }
                    for (cell, (code, value)) in types.iter().zip(&record.values).enumerate() {
                        let word: u32 = match (code, value) {
                            (1, TableValue::Float(f)) => f.to_bits(),
                            (1, v) => (number(v)? as f32).to_bits(),
                            (2, TableValue::Str(s)) => pool
                                .as_mut()
                                .ok_or_else(|| WriteError::message("no !!string"))?
                                .offset(s)?,
                            (_, v) => u32::try_from(unsigned(v, 32)?).map_err(|_| {
                                WriteError::message("a u32 cell holds more than 32 bits")
                            })?,
                        };
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
                .ok_or_else(|| WriteError::message("no !!string"))?;
            let per = usize::from(layout.offsets_per_word);
            let bits = u32::from(layout.bits_per_offset);
            if per == 0 || per as u32 * bits > 32 {
                return Err(WriteError::message(
                    "!!strArrayInfo: offsets per word × bits per offset must be 1..=32",
                ));
            }
            let mut array = Vec::new();
            let mut list = Vec::new();
            for items in &arrays {
                let start = u32::try_from(array.len()).map_err(|_| {
                    WriteError::message("!!strArrayList: an array starts beyond 4 GiB")
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
                        WriteError::message("!!strArray: a word's slots exceed 32 bits")
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
            return Err(WriteError::message(
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
                .map_err(|_| WriteError::message("!structitemnum: too many fields"))?;
            sections.push((b"!structitemnum", count.to_be_bytes().to_vec()));
        }
        sections.sort_by(|a, b| a.0.cmp(b.0));

        let count = sections.len() + encoded.len();
        let mut out = Sink::new();
        out.put(&raw::Header {
            magic: raw::MAGIC,
            entry_count: U32::new(
                u32::try_from(count).map_err(|_| WriteError::message("too many records"))?,
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
                    u32::try_from(at)
                        .map_err(|_| WriteError::message("file would exceed 4 GiB"))?,
                ),
                size: U32::new(
                    u32::try_from(data.len())
                        .map_err(|_| WriteError::message("Entry.size: data larger than 4 GiB"))?,
                ),
                reserved: [0; 8],
            };
            out.patch_record(&table, i, &entry)?;
        }
        Ok(out.into_bytes())
    }
}

fn number(v: &TableValue) -> Result<f64, WriteError> {
    match *v {
        TableValue::Int(i) => Ok(i as f64),
        TableValue::UInt(u) => Ok(u as f64),
        TableValue::Float(f) => Ok(f64::from(f)),
        TableValue::Str(_) => Err(WriteError::message("a string where a number belongs")),
    }
}

/// `v` as an unsigned value of `width` bits.
fn unsigned(v: &TableValue, width: u32) -> Result<u64, WriteError> {
    let out_of_range = |shown: String| {
        WriteError::message(format!("value {shown} does not fit {width} unsigned bits"))
    };
    let u = match *v {
        TableValue::UInt(u) => u,
        TableValue::Int(i) => u64::try_from(i).map_err(|_| out_of_range(i.to_string()))?,
        _ => return Err(WriteError::message("an integer field holds a non-integer")),
    };
    if width < 64 && u >> width != 0 {
        return Err(out_of_range(u.to_string()));
    }
    Ok(u)
}

/// `v` as a two's-complement value of `width` bits.
fn signed(v: &TableValue, width: u32) -> Result<u64, WriteError> {
    let i = match *v {
        TableValue::Int(i) => i,
        TableValue::UInt(u) => i64::try_from(u).map_err(|_| {
            WriteError::message(format!("value {u} does not fit {width} signed bits"))
        })?,
        _ => return Err(WriteError::message("an integer field holds a non-integer")),
    };
    let half = 1i64 << (width - 1);
    if i < -half || i >= half {
        return Err(WriteError::message(format!(
            "value {i} does not fit {width} signed bits"
        )));
    }
    Ok((i as u64) & ((1u64 << width) - 1))
}

/// The `N` bytes of a field at `pos` in a record: a field outside the record (a schema that does
/// not fit its record size) is an error, not a dropped write.
fn field<const N: usize>(data: &mut [u8], pos: usize) -> Result<&mut [u8; N], WriteError> {
    pos.checked_add(N)
        .and_then(|end| data.get_mut(pos..end))
        .and_then(|slot| <&mut [u8; N]>::try_from(slot).ok())
        .ok_or_else(|| WriteError::message(format!("field at byte {pos} lies outside the record")))
}

/// ORs `bits` into the big-endian word at `pos`, `bit` bits up.
fn put_bits(data: &mut [u8], pos: usize, bit: u8, bits: u64) -> Result<(), WriteError> {
    let slot = field::<4>(data, pos)?;
    let word =
        u64::from(u32::from_be_bytes(*slot)) | bits.checked_shl(u32::from(bit)).unwrap_or(u64::MAX);
    let word = u32::try_from(word).map_err(|_| {
        WriteError::message(format!("bit field at byte {pos} runs past its 32-bit word"))
    })?;
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
                return Err(WriteError::message("an s# field holds a non-string"));
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
                v => number(v)? as f32,
            };
            *field(data, pos)? = f.to_bits().to_be_bytes();
        }
        FieldKind::String => {
            let TableValue::Str(s) = value else {
                return Err(WriteError::message("a string field holds a non-string"));
            };
            let pool = pool.ok_or_else(|| WriteError::message("no !!string"))?;
            *field(data, pos)? = pool.offset(s)?.to_be_bytes();
        }
        FieldKind::U32 => {
            let value = u32::try_from(unsigned(value, 32)?)
                .map_err(|_| WriteError::message("a u32 field holds more than 32 bits"))?;
            *field(data, pos)? = value.to_be_bytes();
        }
        FieldKind::U64 => {
            *field(data, pos)? = unsigned(value, 64)?.to_be_bytes();
        }
    }
    Ok(())
}

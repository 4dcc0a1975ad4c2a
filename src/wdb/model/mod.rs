//! The owned `.wdb` table ([`WdbModel`]): copied from a view ([`WdbModel::from_view`], keeping
//! the file's `!!string` bytes and string arrays as the seed of the written ones) or built by
//! hand, and its JSON form. Its writer ([`WdbModel::to_bytes`]) is in `wdb::write`; its other
//! interchange forms (CSV, XLSX, the spreadsheet rows they share) in
//! [`wdb::export`](crate::wdb::export).

use std::fmt;

use crate::wdb::{Game, Schema, TypeList, Value, WdbView};
use crate::write_error::{WriteError, WriteErrorKind};

#[cfg(feature = "serde")]
pub mod json;

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

/// A reader's error (a [`crate::Error`] or a [`WdbError`](crate::wdb::WdbError)) met while a
/// model is made, as its text. Not [`WriteErrorKind::Read`]: that kind also gives the error as
/// its `source`, and the CLI, which prints an error's chain, would print the reader's text twice.
pub(crate) fn read_error(e: &dyn fmt::Display) -> WriteError {
    WriteError::message(e.to_string())
}

pub(crate) fn lossy(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

impl WdbModel {
    /// Reads a whole file into a table. `names` supplies field names for an XIII-1 file (or
    /// overrides a file's own); without names an XIII-1 file's values are its cells.
    pub fn from_view(view: &WdbView<'_>, names: Option<&[&str]>) -> Result<WdbModel, WriteError> {
        let types = view
            .type_list()
            .ok_or_else(|| WriteError::missing("no !!strtypelist or !!strtypelistb", None))?;
        let file_names: Option<Vec<&str>> = match view.field_names() {
            Some(n) => {
                if names.is_none() {
                    // The file's own names are used: their count must agree with them.
                    n.check().map_err(|e| read_error(&e))?;
                }
                Some(
                    n.iter()
                        .collect::<crate::Result<_>>()
                        .map_err(|e| read_error(&e))?,
                )
            }
            None => None,
        };
        let names: Option<Vec<&str>> = names.map(<[&str]>::to_vec).or(file_names);
        let arrays = view.str_arrays().map_err(|e| read_error(&e))?;
        let mut string_arrays = Vec::new();
        if let Some(a) = arrays {
            for k in 0..a.array_count() {
                let mut items = Vec::new();
                for i in 0..a.array_len(k) {
                    let off = a.offset(k, i as u64, 0).map_err(|e| read_error(&e))?;
                    let s = crate::wdb::sections_string(view.strings(), off)
                        .map_err(|e| read_error(&e))?;
                    items.push(lossy(s));
                }
                string_arrays.push(items);
            }
        }
        let mut records = Vec::with_capacity(view.record_count());
        match &names {
            Some(names) => {
                let schema = view.schema_with_names(names).map_err(|e| read_error(&e))?;
                for record in view.records() {
                    let mut values = Vec::with_capacity(schema.len());
                    for (_, v) in schema.values(record) {
                        values.push(match v.map_err(|e| read_error(&e))? {
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
                        values.push(match cell.map_err(|e| read_error(&e))? {
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

    pub(crate) fn type_list_bytes(&self) -> Result<Vec<u8>, WriteError> {
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
                    WriteError::new(WriteErrorKind::DoesNotFit {
                        what: "type code",
                        value: i128::from(c),
                        bits: 8,
                        signed: false,
                        field: Some("!!strtypelistb's byte"),
                    })
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
        .map_err(|e| read_error(&e))
    }
}

//! [`WdbModel`] as a spreadsheet: the rows that CSV and XLSX files hold.
//!
//! The records sheet: a header row (`record`, then the field names, or XIII-1's generic cell
//! keys), a second header row of types (`!type`, then `u7`, `i32`, `float`, `string`, `s4`,
//! `u32`, `u64`, `bits`), then one row per record. Floats are the shortest decimal that reads back
//! to the same f32; XIII-1's bit-packed cells are `0x…` words; `u64` values are text (a
//! spreadsheet's numbers are f64). The metadata rows, each starting with a `!` key, say what the
//! records do not: the game, sheet name, version, type lists, field names, string-array layout
//! and items, and the `!!string` pool as stored (one string a row), so that an unedited sheet
//! packs back byte for byte. A CSV file holds them after the records; an XLSX file on a second
//! sheet.

use super::columns::{float_text, pool_bytes, pool_strings, type_list_key, value_keys};
use crate::wdb::model::{StrArrayLayout, TableRecord, TableValue, WdbModel};
use crate::wdb::{FieldKind, Game};
use crate::write_error::{WriteError, WriteErrorKind};

/// One cell. CSV cells are all [`Text`](SheetCell::Text); XLSX has numbers too.
#[derive(Debug, Clone, PartialEq)]
pub enum SheetCell {
    /// Nothing (an empty string in a string column).
    Empty,
    /// Text.
    Text(String),
    /// A number (integers and floats alike, as a spreadsheet stores them).
    Number(f64),
}

/// The rows of a table: the records sheet and the metadata rows.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Sheet {
    /// Header row, type row, one row per record.
    pub records: Vec<Vec<SheetCell>>,
    /// One row per metadata item, each starting with its `!` key.
    pub meta: Vec<Vec<SheetCell>>,
}

/// The first cell of the type row.
pub const TYPE_ROW: &str = "!type";
/// The first cell of the header row.
pub const RECORD_COLUMN: &str = "record";

/// How a column's values are written and read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Column {
    Signed(u8),
    Unsigned(u8),
    Float,
    Text,
    StrArray(u8),
    U64,
    Bits,
}

impl Column {
    fn name(self) -> String {
        match self {
            Column::Signed(w) => format!("i{w}"),
            Column::Unsigned(w) => format!("u{w}"),
            Column::Float => "float".into(),
            Column::Text => "string".into(),
            Column::StrArray(w) => format!("s{w}"),
            Column::U64 => "u64".into(),
            Column::Bits => "bits".into(),
        }
    }
}

fn columns(table: &WdbModel) -> Result<Vec<Column>, WriteError> {
    match table.schema()? {
        Some(schema) => Ok(schema
            .fields()
            .iter()
            .map(|f| match f.kind {
                FieldKind::Int { signed: true } => Column::Signed(f.width),
                FieldKind::Int { signed: false } => Column::Unsigned(f.width),
                FieldKind::U32 => Column::Unsigned(32),
                FieldKind::StrArray { .. } => Column::StrArray(f.width),
                FieldKind::Float => Column::Float,
                FieldKind::String => Column::Text,
                FieldKind::U64 => Column::U64,
            })
            .collect()),
        None => Ok(table
            .type_codes
            .iter()
            .map(|c| match c {
                0 => Column::Bits,
                1 => Column::Float,
                2 => Column::Text,
                _ => Column::Unsigned(32),
            })
            .collect()),
    }
}

fn text(s: impl Into<String>) -> SheetCell {
    SheetCell::Text(s.into())
}

fn row(key: &str, values: impl IntoIterator<Item = SheetCell>) -> Vec<SheetCell> {
    std::iter::once(text(key)).chain(values).collect()
}

fn numbers(values: &[u32]) -> impl Iterator<Item = SheetCell> + '_ {
    values.iter().map(|&v| SheetCell::Number(f64::from(v)))
}

fn cell(value: &TableValue, column: Column) -> SheetCell {
    match (value, column) {
        (TableValue::UInt(w), Column::Bits) => text(format!("0x{w:08X}")),
        (TableValue::UInt(u), Column::U64) => text(u.to_string()),
        (TableValue::Int(i), _) => SheetCell::Number(*i as f64),
        (TableValue::UInt(u), _) => SheetCell::Number(*u as f64),
        (TableValue::Float(f), _) => match float_text(*f) {
            Ok(v) => SheetCell::Number(v),
            Err(name) => text(name),
        },
        (TableValue::Str(s), _) => text(s.clone()),
    }
}

impl WdbModel {
    /// The table's rows (see the [module docs](self)).
    pub fn to_sheet(&self) -> Result<Sheet, WriteError> {
        let keys = value_keys(self)?;
        let columns = columns(self)?;
        let mut records = vec![
            row(RECORD_COLUMN, keys.iter().map(text)),
            row(TYPE_ROW, columns.iter().map(|c| text(c.name()))),
        ];
        for record in &self.records {
            let values = record.values.iter().zip(&columns);
            records.push(
                std::iter::once(text(record.name.clone()))
                    .chain(values.map(|(v, &c)| cell(v, c)))
                    .collect(),
            );
        }
        let game = if self.write_field_names {
            Game::Xiii2Lr
        } else {
            Game::Xiii1
        };
        let mut meta = vec![row("!game", [text(game.name())])];
        if let Some(sheet) = &self.sheet_name {
            meta.push(row("!!sheetname", [text(sheet.clone())]));
        }
        if let Some(v) = self.version {
            meta.push(row("!!version", numbers(&[v])));
        }
        let types_key = type_list_key(self.wide_type_list);
        meta.push(row(types_key, numbers(&self.type_codes)));
        if let Some(t) = &self.typelist {
            meta.push(row("!!typelist", numbers(t)));
        }
        if let Some(names) = &self.field_names {
            meta.push(row("!structitem", names.iter().map(text)));
        }
        if let Some(layout) = self.str_array {
            let info = [layout.offsets_per_word, layout.bits_per_offset].map(u32::from);
            meta.push(row("!!strArrayInfo", numbers(&info)));
            for (k, items) in self.string_arrays.iter().enumerate() {
                let k = SheetCell::Number(k as f64);
                meta.push(row("!!strArray", [k]));
                for item in items {
                    meta.push(row("!!strArray", [SheetCell::Empty, text(item.clone())]));
                }
            }
        }
        if let Some(pool) = &self.string_pool {
            for s in pool_strings(pool) {
                meta.push(row("!!string", [text(s)]));
            }
        }
        Ok(Sheet { records, meta })
    }

    /// The table a sheet's rows describe. Every error names the row (record name) and the
    /// column; values are checked against their fields by [`to_bytes`](Self::to_bytes).
    pub fn from_sheet(sheet: &Sheet) -> Result<WdbModel, WriteError> {
        let mut table = WdbModel::default();
        let mut pool: Option<Vec<String>> = None;
        let mut game = None;
        for meta in &sheet.meta {
            let Some((key, rest)) = meta.split_first() else {
                continue;
            };
            let key = as_text(key);
            let first = rest.first().map(as_text).unwrap_or_default();
            match key.as_str() {
                "" => continue,
                "!game" => game = Some(first),
                "!!sheetname" => table.sheet_name = Some(first),
                "!!version" => {
                    table.version = Some(
                        u32_cells(rest)
                            .map_err(|e| bad(&key, e))?
                            .first()
                            .copied()
                            .ok_or_else(|| bad(&key, WriteError::missing("no value", None)))?,
                    );
                }
                "!!strtypelist" | "!!strtypelistb" => {
                    table.wide_type_list = key == "!!strtypelist";
                    table.type_codes = u32_cells(rest).map_err(|e| bad(&key, e))?;
                }
                "!!typelist" => table.typelist = Some(u32_cells(rest).map_err(|e| bad(&key, e))?),
                "!structitem" => {
                    let mut names: Vec<String> = rest.iter().map(as_text).collect();
                    // A workbook's sheet is a rectangle: a row shorter than the widest metadata
                    // row (an XIII-1 sheet's type list is longer than its few names) comes back
                    // padded with empty cells, which are no field names.
                    while names.last().is_some_and(String::is_empty) {
                        names.pop();
                    }
                    table.field_names = Some(names);
                }
                "!!strArrayInfo" => {
                    let v = u32_cells(rest).map_err(|e| bad(&key, e))?;
                    let [per, bits] = v.as_slice() else {
                        return Err(bad(
                            &key,
                            WriteError::rule("two values: offsets per word, bits per offset"),
                        ));
                    };
                    let small = |v: u32| {
                        u8::try_from(v)
                            .map_err(|_| bad(&key, WriteError::rule("values are 0..=255")))
                    };
                    table.str_array = Some(StrArrayLayout {
                        offsets_per_word: small(*per)?,
                        bits_per_offset: small(*bits)?,
                    });
                }
                // An array's row has its index; an item's row has none, then the item. A
                // spreadsheet keeps no empty cell, so an empty item's row may come back as the
                // key alone.
                "!!strArray" => match rest.first().map(as_text) {
                    Some(index) if !index.is_empty() => table.string_arrays.push(Vec::new()),
                    _ => table
                        .string_arrays
                        .last_mut()
                        .ok_or_else(|| {
                            bad(&key, WriteError::rule("an item before its array's row"))
                        })?
                        .push(rest.get(1).map(as_text).unwrap_or_default()),
                },
                "!!string" => pool.get_or_insert_with(Vec::new).push(first),
                other => {
                    return Err(WriteError::new(WriteErrorKind::Unknown {
                        what: "metadata row",
                        name: format!("{other:?}"),
                        note: "",
                    }));
                }
            }
        }
        table.write_field_names = match game.as_deref() {
            Some(g) if g == Game::Xiii1.name() => false,
            Some(g) if g == Game::Xiii2Lr.name() => true,
            Some(g) => {
                return Err(WriteError::new(WriteErrorKind::Unknown {
                    what: "game",
                    name: format!("{g:?}"),
                    note: " in \"!game\"",
                }));
            }
            None => return Err(WriteError::missing("metadata row", Some("!game"))),
        };
        table.string_pool = pool.map(|p| pool_bytes(&p));

        let keys = value_keys(&table)?;
        let columns = columns(&table)?;
        let mut rows = sheet.records.iter();
        let header = rows
            .next()
            .ok_or_else(|| WriteError::missing("no header row (record, field names…)", None))?;
        // Where each of the table's columns is in the sheet: a column may be moved, not lost.
        let mut at = Vec::with_capacity(keys.len());
        for key in &keys {
            let i = header
                .iter()
                .position(|c| as_text(c) == *key)
                .ok_or_else(|| {
                    WriteError::missing("missing column in the header row", None).in_field(key)
                })?;
            at.push(i);
        }
        let name_at = header
            .iter()
            .position(|c| as_text(c) == RECORD_COLUMN)
            .ok_or_else(|| WriteError::missing("column in the header row", Some(RECORD_COLUMN)))?;
        for (n, cells) in rows.enumerate() {
            let name = cells.get(name_at).map(as_text).unwrap_or_default();
            if name == TYPE_ROW {
                for ((key, &i), column) in keys.iter().zip(&at).zip(&columns) {
                    let given = cells.get(i).map(as_text).unwrap_or_default();
                    if given != column.name() {
                        return Err(WriteError::message(format!(
                            "the type row says {given:?}, the file's layout gives {:?} (types are not edited in the sheet)",
                            column.name()
                        ))
                        .in_field(key));
                    }
                }
                continue;
            }
            if name.is_empty() && cells.iter().all(|c| as_text(c).is_empty()) {
                continue;
            }
            if name.is_empty() {
                return Err(WriteError::new(WriteErrorKind::Missing {
                    what: "record name",
                    name: None,
                    owner: Some(("row", crate::bytes::u64_of(n + 3))),
                }));
            }
            let mut values = Vec::with_capacity(keys.len());
            for ((key, &i), &column) in keys.iter().zip(&at).zip(&columns) {
                let c = cells.get(i).unwrap_or(&SheetCell::Empty);
                let index = table.records.len();
                let at = |e| crate::wdb::model::in_record(e, index, &name, Some(key));
                values.push(parse(c, column).map_err(at)?);
            }
            table.records.push(TableRecord { name, values });
        }
        Ok(table)
    }
}

/// A cell as text (numbers as their shortest decimal).
fn as_text(c: &SheetCell) -> String {
    match c {
        SheetCell::Empty => String::new(),
        SheetCell::Text(s) => s.clone(),
        SheetCell::Number(n) => n.to_string(),
    }
}

/// A metadata row that does not read: the row's key (as the error's subject), and why.
fn bad(key: &str, why: WriteError) -> WriteError {
    why.about(format_args!("metadata row {key:?}"))
}

fn u32_cells(cells: &[SheetCell]) -> Result<Vec<u32>, WriteError> {
    cells
        .iter()
        .filter(|c| **c != SheetCell::Empty)
        .map(|c| {
            let t = as_text(c);
            t.trim()
                .parse::<u32>()
                .map_err(|_| WriteError::not_a("", format!("{t:?}"), "a u32"))
        })
        .collect()
}

/// A cell as the value of a column of `column`'s type.
fn parse(c: &SheetCell, column: Column) -> Result<TableValue, WriteError> {
    let t = as_text(c);
    let t = t.trim();
    let integer = |t: &str| -> Result<TableValue, WriteError> {
        if let Ok(i) = t.parse::<i64>() {
            return Ok(if i < 0 {
                TableValue::Int(i)
            } else {
                TableValue::UInt(i as u64)
            });
        }
        if let Ok(u) = t.parse::<u64>() {
            return Ok(TableValue::UInt(u));
        }
        if t.is_empty() {
            return Err(WriteError::missing("empty cell in an integer column", None));
        }
        if t.parse::<f64>().is_ok() {
            return Err(WriteError::message(format!(
                "a float ({t}) in an integer column"
            )));
        }
        Err(WriteError::not_a("", format!("{t:?}"), "an integer"))
    };
    match column {
        Column::Signed(_) | Column::Unsigned(_) | Column::U64 => match c {
            // A spreadsheet's integers are f64s with no fraction.
            SheetCell::Number(n) if n.fract() == 0.0 && n.abs() < 9.007_199_254_740_992e15 => {
                Ok(if *n < 0.0 {
                    TableValue::Int(*n as i64)
                } else {
                    TableValue::UInt(*n as u64)
                })
            }
            _ => integer(t),
        },
        Column::Float => match (c, t) {
            (SheetCell::Number(n), _) => Ok(TableValue::Float(*n as f32)),
            (_, "nan") => Ok(TableValue::Float(f32::NAN)),
            (_, "inf") => Ok(TableValue::Float(f32::INFINITY)),
            (_, "-inf") => Ok(TableValue::Float(f32::NEG_INFINITY)),
            _ => t
                .parse::<f32>()
                .map(TableValue::Float)
                .map_err(|_| WriteError::not_a("", format!("{t:?}"), "a float")),
        },
        Column::Bits => {
            let word = t
                .strip_prefix("0x")
                .and_then(|hex| u32::from_str_radix(hex, 16).ok())
                .ok_or_else(|| {
                    WriteError::not_a("bit-packed cell", format!("{t:?}"), "a 0x… word")
                })?;
            Ok(TableValue::UInt(u64::from(word)))
        }
        // Strings are kept exactly, spaces included.
        Column::Text | Column::StrArray(_) => Ok(TableValue::Str(match c {
            SheetCell::Number(n) => n.to_string(),
            other => as_text(other),
        })),
    }
}

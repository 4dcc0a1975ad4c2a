//! [`WdbModel`] as an XLSX workbook (feature `xlsx`): the records on a sheet named `records`,
//! the `!` metadata rows on a sheet named `wdb`. Written with rust_xlsxwriter, read with
//! calamine.

use crate::write_error::{WriteError, WriteErrorKind};
use std::io::Cursor;

use calamine::{Data, DataRef, Reader, Xlsx};
use rust_xlsxwriter::{DocProperties, ExcelDateTime, Workbook, Worksheet};

mod cell_refs;

use super::sheet::{Sheet, SheetCell};
use crate::wdb::model::WdbModel;

/// The records' sheet.
pub const RECORDS_SHEET: &str = "records";
/// The metadata's sheet.
pub const META_SHEET: &str = "wdb";

fn xlsx_error(e: impl std::fmt::Display) -> WriteError {
    WriteError::new(WriteErrorKind::Interchange {
        form: "XLSX",
        line: None,
        message: e.to_string(),
    })
}

fn fill(ws: &mut Worksheet, rows: &[Vec<SheetCell>]) -> Result<(), WriteError> {
    for (r, row) in rows.iter().enumerate() {
        let r = u32::try_from(r).map_err(|_| xlsx_error("more rows than a sheet holds"))?;
        for (c, cell) in row.iter().enumerate() {
            let c = u16::try_from(c).map_err(|_| xlsx_error("more columns than a sheet holds"))?;
            match cell {
                SheetCell::Empty => {}
                SheetCell::Text(s) => {
                    ws.write_string(r, c, s).map_err(xlsx_error)?;
                }
                SheetCell::Number(n) => {
                    ws.write_number(r, c, *n).map_err(xlsx_error)?;
                }
            }
        }
    }
    Ok(())
}

/// How many cell positions a sheet's rows may take beyond 64 per cell: a sheet's table fills its
/// rectangle, so only a hand-made sheet with a few cells far apart comes near.
const SPREAD_FLOOR: u64 = 1 << 22;

/// A sheet's rows, each as long as its last cell. The cells come from calamine's cell reader,
/// not from its dense range: a range is the rectangle around every cell, and two cells at `A1`
/// and `XFD1048576` would make it seventeen billion cells. The rows here are refused when they
/// would take more positions than [`SPREAD_FLOOR`] or 64 per cell, whichever is more.
fn rows(book: &mut Xlsx<Cursor<&[u8]>>, name: &str) -> Result<Vec<Vec<SheetCell>>, WriteError> {
    let in_sheet = |e: &dyn std::fmt::Display| xlsx_error(format!("sheet {name:?}: {e}"));
    let mut reader = book
        .worksheet_cells_reader(name)
        .map_err(|e| in_sheet(&e))?;
    let mut cells = Vec::new();
    while let Some(cell) = reader.next_cell().map_err(|e| in_sheet(&e))? {
        let value = match cell.get_value() {
            DataRef::Empty => continue,
            DataRef::String(s) => SheetCell::Text(s.clone()),
            DataRef::SharedString(s) => SheetCell::Text((*s).to_owned()),
            DataRef::Float(f) => SheetCell::Number(*f),
            DataRef::Int(i) => SheetCell::Number(*i as f64),
            DataRef::Bool(b) => SheetCell::Text(b.to_string()),
            other => SheetCell::Text(Data::from(other.clone()).to_string()),
        };
        cells.push((cell.get_position(), value));
    }
    // In reading order, so that a position given twice keeps its last cell (as calamine's
    // range does), and each row's cells are together.
    cells.sort_by_key(|&(at, _)| at);
    let mut positions = 0u64;
    let mut last_row = None;
    for (i, &((row, column), _)) in cells.iter().enumerate() {
        let row_ends = cells.get(i + 1).is_none_or(|&((next, _), _)| next != row);
        if row_ends {
            positions += u64::from(column) + 1;
        }
        last_row = Some(row);
    }
    positions += last_row.map_or(0, |r| u64::from(r) + 1);
    let budget = SPREAD_FLOOR.max(64 * cells.len() as u64);
    if positions > budget {
        return Err(in_sheet(&format!(
            "{} cells would take {positions} positions in rows, more than {budget}: \
             a table's cells are side by side, these are far apart",
            cells.len()
        )));
    }
    let mut out: Vec<Vec<SheetCell>> = Vec::new();
    for ((row, column), value) in cells {
        let (row, column) = (row as usize, column as usize);
        if out.len() <= row {
            out.resize_with(row + 1, Vec::new);
        }
        let cells = &mut out[row];
        if cells.len() <= column {
            cells.resize(column + 1, SheetCell::Empty);
        }
        cells[column] = value;
    }
    Ok(out)
}

impl WdbModel {
    /// The table as XLSX bytes, dated now (the workbook's creation time, as a spreadsheet
    /// program writes it).
    pub fn to_xlsx(&self) -> Result<Vec<u8>, WriteError> {
        self.workbook(None)
    }

    /// The table as XLSX bytes whose creation time is `unix_seconds` (seconds since 1970 UTC):
    /// the creation time is the only thing in a workbook that is not the table, so the same
    /// table and time give the same bytes (reproducible outputs, diffable exports, fixed fuzz
    /// seeds).
    ///
    /// ```
    /// # fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// let table = gamebin::synth::wdb::items_table();
    /// let book = table.to_xlsx_created_at(0)?;
    /// assert_eq!(book, table.to_xlsx_created_at(0)?);
    /// assert_ne!(book, table.to_xlsx_created_at(86_400)?);
    /// # Ok(())
    /// # }
    /// ```
    pub fn to_xlsx_created_at(&self, unix_seconds: i64) -> Result<Vec<u8>, WriteError> {
        self.workbook(Some(unix_seconds))
    }

    fn workbook(&self, created: Option<i64>) -> Result<Vec<u8>, WriteError> {
        let sheet = self.to_sheet()?;
        let mut book = Workbook::new();
        if let Some(seconds) = created {
            let time = ExcelDateTime::from_timestamp(seconds).map_err(xlsx_error)?;
            book.set_properties(&DocProperties::new().set_creation_datetime(&time));
        }
        let ws = book.add_worksheet();
        ws.set_name(RECORDS_SHEET).map_err(xlsx_error)?;
        fill(ws, &sheet.records)?;
        ws.set_freeze_panes(2, 1).map_err(xlsx_error)?;
        let meta = book.add_worksheet();
        meta.set_name(META_SHEET).map_err(xlsx_error)?;
        fill(meta, &sheet.meta)?;
        book.save_to_buffer().map_err(xlsx_error)
    }

    /// The table of an XLSX workbook made by [`to_xlsx`](Self::to_xlsx), edited or not.
    ///
    /// # Errors
    ///
    /// Besides a workbook that makes no table (a sheet missing, a value that does not fit its
    /// field, which the error names by record and column): a cell reference no sheet has
    /// (`r`/`ref` past `XFD1048576`, or a range that ends before it starts; the error names the
    /// archive's part and the byte), and a sheet whose cells lie so far apart that its rows would
    /// take more than 4,194,304 positions and 64 per cell (a table's cells are side by side).
    pub fn from_xlsx(data: &[u8]) -> Result<WdbModel, WriteError> {
        cell_refs::check(data)?;
        let mut book: Xlsx<_> = Xlsx::new(Cursor::new(data)).map_err(xlsx_error)?;
        let sheet = Sheet {
            records: rows(&mut book, RECORDS_SHEET)?,
            meta: rows(&mut book, META_SHEET)?,
        };
        WdbModel::from_sheet(&sheet)
    }
}

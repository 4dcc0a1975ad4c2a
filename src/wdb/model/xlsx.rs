//! [`WdbModel`] as an XLSX workbook (feature `xlsx`): the records on a sheet named `records`,
//! the `!` metadata rows on a sheet named `wdb`. Written with rust_xlsxwriter, read with
//! calamine.

use crate::write_error::WriteError;
use std::io::Cursor;

use calamine::{Data, Reader, Xlsx};
use rust_xlsxwriter::{DocProperties, ExcelDateTime, Workbook, Worksheet};

use super::WdbModel;
use super::sheet::{Sheet, SheetCell};

/// The records' sheet.
pub const RECORDS_SHEET: &str = "records";
/// The metadata's sheet.
pub const META_SHEET: &str = "wdb";

fn xlsx_error(e: impl std::fmt::Display) -> WriteError {
    WriteError::message(format!("XLSX: {e}"))
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

fn rows(book: &mut Xlsx<Cursor<&[u8]>>, name: &str) -> Result<Vec<Vec<SheetCell>>, WriteError> {
    let range = book
        .worksheet_range(name)
        .map_err(|e| xlsx_error(format!("sheet {name:?}: {e}")))?;
    // The sheets start at A1 (the header row, the first metadata row).
    let (row0, col0) = range.start().unwrap_or((0, 0));
    let mut out = vec![Vec::new(); row0 as usize];
    for row in range.rows() {
        let mut cells = vec![SheetCell::Empty; col0 as usize];
        for c in row {
            cells.push(match c {
                Data::Empty => SheetCell::Empty,
                Data::String(s) => SheetCell::Text(s.clone()),
                Data::Float(f) => SheetCell::Number(*f),
                Data::Int(i) => SheetCell::Number(*i as f64),
                Data::Bool(b) => SheetCell::Text(b.to_string()),
                other => SheetCell::Text(other.to_string()),
            });
        }
        out.push(cells);
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
    pub fn from_xlsx(data: &[u8]) -> Result<WdbModel, WriteError> {
        let mut book: Xlsx<_> = Xlsx::new(Cursor::new(data)).map_err(xlsx_error)?;
        let sheet = Sheet {
            records: rows(&mut book, RECORDS_SHEET)?,
            meta: rows(&mut book, META_SHEET)?,
        };
        WdbModel::from_sheet(&sheet)
    }
}

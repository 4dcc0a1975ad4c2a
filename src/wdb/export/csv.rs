//! [`WdbModel`] as CSV (feature `csv`): the [sheet](super::sheet) rows, the records first, then
//! the `!` metadata rows.

use super::sheet::{Sheet, SheetCell};
use crate::wdb::model::WdbModel;
use crate::write_error::{WriteError, WriteErrorKind};

/// The csv crate's error, as text.
fn csv_error(line: Option<u64>, e: impl std::fmt::Display) -> WriteError {
    WriteError::new(WriteErrorKind::Interchange {
        form: "CSV",
        line,
        message: e.to_string(),
    })
}

/// A cell as CSV text: numbers as their shortest decimal (an f32's reads back to the same f32).
fn cell_text(c: &SheetCell) -> String {
    match c {
        SheetCell::Empty => String::new(),
        SheetCell::Text(s) => s.clone(),
        SheetCell::Number(n) => n.to_string(),
    }
}

impl WdbModel {
    /// The table as CSV bytes (UTF-8).
    pub fn to_csv(&self) -> Result<Vec<u8>, WriteError> {
        let sheet = self.to_sheet()?;
        let mut w = ::csv::WriterBuilder::new()
            .flexible(true)
            .from_writer(Vec::new());
        for row in sheet.records.iter().chain(&sheet.meta) {
            w.write_record(row.iter().map(cell_text))
                .map_err(|e| csv_error(None, e))?;
        }
        w.into_inner().map_err(|e| csv_error(None, e))
    }

    /// The table of a CSV file made by [`to_csv`](Self::to_csv), edited or not. Rows whose first
    /// cell starts with `!` (other than the type row) are metadata wherever they stand.
    pub fn from_csv(data: &[u8]) -> Result<WdbModel, WriteError> {
        let mut r = ::csv::ReaderBuilder::new()
            .has_headers(false)
            .flexible(true)
            .from_reader(data);
        let mut sheet = Sheet::default();
        for (i, row) in r.records().enumerate() {
            let row = row.map_err(|e| csv_error(Some(crate::bytes::u64_of(i + 1)), e))?;
            let cells: Vec<SheetCell> =
                row.iter().map(|c| SheetCell::Text(c.to_string())).collect();
            let first = row.get(0).unwrap_or("");
            if first.starts_with('!') && first != super::sheet::TYPE_ROW {
                sheet.meta.push(cells);
            } else {
                sheet.records.push(cells);
            }
        }
        WdbModel::from_sheet(&sheet)
    }
}

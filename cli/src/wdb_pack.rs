//! `gamebin wdb pack FILE.json|FILE.csv|FILE.xlsx -o FILE.wdb`: a dump (`dump --json`, `wdb
//! csv`, `wdb xlsx`), edited or not, back to a `.wdb`; and `gamebin wdb csv|xlsx FILE.wdb -o OUT`.

use std::path::Path;

use anyhow::{Context, Result};
use gamebin::write::wdb::WdbTable;

use crate::files::{refuse_existing, write_new};
use crate::output::{Status, report};
use crate::wdb::FieldSource;

/// What a dump to pack is, by content: an XLSX workbook is a zip, JSON starts with `{`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Input {
    Json,
    Csv,
    Xlsx,
}

fn kind(data: &[u8]) -> Input {
    if data.starts_with(b"PK\x03\x04") {
        return Input::Xlsx;
    }
    let text = data.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(data);
    match text.iter().find(|b| !b.is_ascii_whitespace()) {
        Some(b'{') => Input::Json,
        _ => Input::Csv,
    }
}

pub fn run(input: &Path, output: &Path, force: bool) -> Result<Status> {
    match pack(input, output, force) {
        Ok(()) => Ok(Status::Success),
        Err(e) => {
            report(input, &e);
            Ok(Status::SomeFailed)
        }
    }
}

fn pack(input: &Path, output: &Path, force: bool) -> Result<()> {
    // Refused before the input is read (no work for nothing), and again when it is created.
    refuse_existing(output, force)?;
    let file = crate::files::map(input)?;
    let data = file.bytes();
    let table = match kind(data) {
        Input::Json => {
            let text = std::str::from_utf8(data).context("not UTF-8 text")?;
            serde_json::from_str::<WdbTable>(text).context("not a .wdb dump (dump --json)")?
        }
        Input::Csv => WdbTable::from_csv(data).context("not a .wdb sheet (wdb csv)")?,
        Input::Xlsx => WdbTable::from_xlsx(data).context("not a .wdb workbook (wdb xlsx)")?,
    };
    // Everything is checked before the output is created: a bad edit writes nothing.
    let bytes = table.to_bytes()?;
    // Checked again as the file is created: one appearing meanwhile is not replaced either.
    write_new(output, &bytes, force)
}

/// The spreadsheet formats `wdb csv` and `wdb xlsx` write.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sheet {
    Csv,
    Xlsx,
}

/// `gamebin wdb csv|xlsx FILE.wdb -o OUT`.
pub fn export(
    path: &Path,
    output: &Path,
    sheet: Sheet,
    fields: &FieldSource,
    force: bool,
) -> Result<Status> {
    let run = || -> Result<()> {
        refuse_existing(output, force)?;
        let table = crate::wdb::table(path, fields)?;
        let bytes = match sheet {
            Sheet::Csv => table.to_csv()?,
            Sheet::Xlsx => match source_date_epoch()? {
                Some(seconds) => table.to_xlsx_created_at(seconds)?,
                None => table.to_xlsx()?,
            },
        };
        write_new(output, &bytes, force)
    };
    match run() {
        Ok(()) => Ok(Status::Success),
        Err(e) => {
            report(path, &e);
            Ok(Status::SomeFailed)
        }
    }
}

/// The reproducible-builds convention: `SOURCE_DATE_EPOCH` (seconds since 1970 UTC), when set,
/// is the time a generated file is dated, so that the same input gives the same bytes.
fn source_date_epoch() -> Result<Option<i64>> {
    match std::env::var("SOURCE_DATE_EPOCH") {
        Ok(text) => text.trim().parse().map(Some).map_err(|_| {
            anyhow::anyhow!("SOURCE_DATE_EPOCH is {text:?}, not a number of seconds since 1970")
        }),
        Err(_) => Ok(None),
    }
}

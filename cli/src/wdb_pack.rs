//! `gamebin wdb pack FILE.json|FILE.csv|FILE.xlsx -o FILE.wdb`: a dump (`dump --json`, `wdb
//! csv`, `wdb xlsx`), edited or not, back to a `.wdb`; and `gamebin wdb csv|xlsx FILE.wdb -o OUT`.

use std::path::Path;

use anyhow::Result;
use gamebin::wdb::model::WdbModel;

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

impl Input {
    /// The kind's name in messages.
    fn name(self) -> &'static str {
        match self {
            Input::Json => "JSON",
            Input::Csv => "CSV",
            Input::Xlsx => "XLSX",
        }
    }
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
    let table = read_dump(input, file.bytes())?;
    // Everything is checked before the output is created: a bad edit writes nothing.
    let bytes = table.to_bytes()?;
    // Checked again as the file is created: one appearing meanwhile is not replaced either.
    write_new(output, &bytes, force)
}

/// What each kind of dump must be, for messages.
const EXPECTED_JSON: &str = "the JSON of `gamebin dump --json FILE.wdb` (an object)";
const EXPECTED_CSV: &str = "the CSV of `gamebin wdb csv` (a row of field names, a row of types, a \
                            row per record, then `!` rows)";
const EXPECTED_XLSX: &str = "the workbook of `gamebin wdb xlsx` (a zip archive starting with \
                             PK\\x03\\x04, sheets `records` and `wdb`)";

/// Reads a dump: its content decides how (an XLSX workbook is a zip, JSON starts with `{`,
/// anything else is read as CSV). When it does not read, the error says what was expected and
/// what was found, for the kind the file's name gives when it has one (`.json`, `.csv`,
/// `.xlsx`), else for the kind its content suggests.
fn read_dump(input: &Path, data: &[u8]) -> Result<WdbModel> {
    let named = input
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase);
    let named = match named.as_deref() {
        Some("json") => Some(Input::Json),
        Some("csv") => Some(Input::Csv),
        Some("xlsx") => Some(Input::Xlsx),
        _ => None,
    };
    let content = kind(data);
    let read = match content {
        Input::Json => std::str::from_utf8(data)
            .map_err(anyhow::Error::from)
            .and_then(|text| Ok(serde_json::from_str::<WdbModel>(text)?)),
        Input::Csv => WdbModel::from_csv(data).map_err(anyhow::Error::from),
        Input::Xlsx => WdbModel::from_xlsx(data).map_err(anyhow::Error::from),
    };
    read.map_err(|cause| {
        let found = found(data);
        match named {
            // The name and the content agree, or the name says nothing: what it is, and why it
            // does not read as a dump.
            None => not_a_dump(content, &found, &cause),
            Some(n) if n == content => not_a_dump(content, &found, &cause),
            // The name promised another kind than the content is.
            Some(n) => {
                let (name, kind, expected) = match n {
                    Input::Json => (".json", "JSON", EXPECTED_JSON),
                    Input::Csv => (".csv", "CSV text", EXPECTED_CSV),
                    Input::Xlsx => (".xlsx", "an XLSX workbook", EXPECTED_XLSX),
                };
                anyhow::anyhow!(
                    "named {name} but is not {kind}: expected {expected}, found {found} (read \
                     as {} by its content: {cause:#})",
                    content.name()
                )
            }
        }
    })
}

fn not_a_dump(content: Input, found: &str, cause: &anyhow::Error) -> anyhow::Error {
    let (what, expected) = match content {
        Input::Json => ("a .wdb dump", EXPECTED_JSON),
        Input::Csv => ("a .wdb sheet", EXPECTED_CSV),
        Input::Xlsx => ("a .wdb workbook", EXPECTED_XLSX),
    };
    anyhow::anyhow!("not {what}: expected {expected}, found {found}: {cause:#}")
}

/// What a dump that does not read is, in a few words: empty, a game file itself (a common slip:
/// the .wdb instead of its dump), a zip, JSON, text (its first characters) or binary data (its
/// first bytes).
fn found(data: &[u8]) -> String {
    if data.is_empty() {
        return "an empty file".into();
    }
    if let Some(format) = gamebin::detect(data) {
        return format!("a {format} file itself, not a dump of one");
    }
    if data.starts_with(b"PK\x03\x04") {
        return "a zip archive".into();
    }
    let head = data.get(..data.len().min(32)).unwrap_or(data);
    let text = match std::str::from_utf8(head) {
        Ok(text) => text,
        // A character cut by the 32 bytes still counts as text.
        Err(e) if e.error_len().is_none() => {
            std::str::from_utf8(head.get(..e.valid_up_to()).unwrap_or(&[])).unwrap_or("")
        }
        Err(_) => "",
    };
    let printable = !text.is_empty()
        && text
            .chars()
            .all(|c| !c.is_control() || c.is_ascii_whitespace() || c == '\u{feff}');
    if printable {
        let line = text.lines().next().unwrap_or("");
        return format!("text starting {line:?}");
    }
    let bytes: Vec<String> = head.iter().take(8).map(|b| format!("{b:02x}")).collect();
    format!("binary data starting {}", bytes.join(" "))
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

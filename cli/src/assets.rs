//! What the CLI shows of a World of Warships `assets.bin`: the info summary and the streaming dump
//! (its JSON elements are the library's `wows::assets::json`).

use std::io::IsTerminal;
use std::path::Path;

use anyhow::Result;
use gamebin::wows::assets::json::RecordForm;
use gamebin::wows::assets::{AssetsView, PathIndex, json as assets_json};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use serde::Serialize;

use crate::output::{Out, count};

#[derive(Debug, Serialize)]
pub struct DatabaseInfo {
    pub name: String,
    pub records: usize,
    pub item_size: Option<usize>,
    pub schema_hash: u32,
}

#[derive(Debug, Serialize)]
pub struct ChecksumInfo {
    pub stored: u32,
    pub matches: &'static str,
}

#[derive(Debug, Serialize)]
pub struct Info {
    pub path: String,
    pub format: &'static str,
    pub strings: usize,
    pub paths: usize,
    /// Live entries of the resource-to-prototype map (those with a record).
    pub prototypes: usize,
    /// Deleted entries: their slots are kept, with no record behind them.
    pub deleted: usize,
    /// Entries in a state no reader has seen (1 or 2); omitted when there are none.
    #[serde(skip_serializing_if = "is_zero")]
    pub other_states: usize,
    pub databases: Vec<DatabaseInfo>,
    pub checksum: ChecksumInfo,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

pub fn info(path: &Path, data: &[u8]) -> Result<Info> {
    let db = AssetsView::from_bytes(data)?;
    let mut databases = Vec::new();
    for d in db.databases().iter() {
        let d = d?;
        databases.push(DatabaseInfo {
            name: d.name().into_owned(),
            records: d.record_count(),
            item_size: d.item_size(),
            schema_hash: d.schema_hash(),
        });
    }
    let checksum = db.verify_checksum();
    let states = db.prototypes().states()?;
    Ok(Info {
        path: path.display().to_string(),
        format: gamebin::Format::WowsAssets.name(),
        strings: db.strings().count(),
        paths: db.paths().len(),
        prototypes: states.live,
        deleted: states.deleted,
        other_states: states.other,
        databases,
        checksum: ChecksumInfo {
            stored: checksum.stored,
            matches: checksum.matches().name(),
        },
    })
}

pub fn info_line(i: &Info) -> String {
    let records: usize = i.databases.iter().map(|d| d.records).sum();
    format!(
        "{}: {}, {}, {}, {}, {} deleted, {} ({}), checksum {:#010x} ({})",
        i.path,
        i.format,
        count(i.strings, "string", "strings"),
        count(i.paths, "path", "paths"),
        count(i.prototypes, "live prototype", "live prototypes"),
        i.deleted,
        count(i.databases.len(), "database", "databases"),
        count(records, "record", "records"),
        i.checksum.stored,
        i.checksum.matches
    )
}

/// The form of the records `--complete` asks for.
pub fn record_form(complete: bool) -> RecordForm {
    if complete {
        RecordForm::Complete
    } else {
        RecordForm::Summary
    }
}

/// A progress bar on stderr for a whole-file walk of `len` items, hidden unless stderr is a
/// terminal.
pub fn progress(len: usize, what: &str) -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    // Cleared however the walk ends (an error, a closed pipe).
    let bar = ProgressBar::with_draw_target(Some(len as u64), ProgressDrawTarget::stderr())
        .with_finish(indicatif::ProgressFinish::AndClear);
    if let Ok(style) =
        ProgressStyle::with_template(&format!("{{bar:40}} {{pos}}/{{len}} {what} {{elapsed}}"))
    {
        bar.set_style(style);
    }
    bar
}

/// Streams the dump: one JSON document (or text) written element by element, never the whole
/// tree in memory (the elements are the library's `assets::json`, each record in `form`). Full
/// paths come from an owned id → entry index.
pub fn dump(path: &Path, data: &[u8], json: bool, form: RecordForm, out: &mut Out) -> Result<()> {
    let db = AssetsView::from_bytes(data)?;
    let info = info(path, data)?;
    let index = PathIndex::build(db.paths())?;
    let total = db.paths().len()
        + db.databases()
            .iter()
            .filter_map(|d| d.ok())
            .map(|d| d.record_count())
            .sum::<usize>();
    let bar = progress(total, "entries");
    if json {
        out.line("{")?;
        out.line(&format!("\"path\": {},", serde_json::json!(info.path)))?;
        out.line(&format!("\"format\": {},", serde_json::json!(info.format)))?;
        out.line(&format!(
            "\"checksum\": {},",
            serde_json::to_string(&info.checksum)?
        ))?;
        out.line(&format!(
            "\"databases\": {},",
            serde_json::to_string(&info.databases)?
        ))?;
        out.line("\"strings\": [")?;
        for (n, s) in db.strings().iter().enumerate() {
            let (id, s) = s?;
            let sep = if n == 0 { "" } else { "," };
            out.line(&format!("{sep}{}", assets_json::string_entry(id, s)))?;
        }
        out.line("],")?;
        out.line("\"paths\": [")?;
    } else {
        out.line(&info_line(&info))?;
    }
    let mut full = String::new();
    for (n, entry) in db.paths().iter().enumerate() {
        bar.inc(1);
        index.full_path(db.paths(), entry.self_id(), &mut full)?;
        let line = if json {
            let sep = if n == 0 { "" } else { "," };
            format!("{sep}{}", assets_json::path_entry(&db, &entry, &full)?)
        } else {
            let kind = match db.prototype(entry.self_id())? {
                Some(at) => db.type_label(at)?,
                None => "-".into(),
            };
            format!("{:#018x}  {kind:<26} {full}", entry.self_id())
        };
        bar.suspend(|| out.line(&line))?;
    }
    if json {
        out.line("],")?;
        out.line("\"records\": [")?;
    }
    for (n, record) in db.records().enumerate() {
        bar.inc(1);
        let (database, i, record) = record?;
        if json {
            let sep = if n == 0 { "" } else { "," };
            let line = assets_json::record_entry_in(&db, &database, i, record, form)?;
            bar.suspend(|| out.line(&format!("{sep}{line}")))?;
        }
    }
    bar.finish_and_clear();
    if json {
        out.line("]")?;
        out.line("}")?;
    }
    Ok(())
}

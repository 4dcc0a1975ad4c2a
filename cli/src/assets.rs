//! What the CLI shows of a World of Warships `assets.bin`: the info summary and the streaming dump
//! (its JSON elements are the library's `wows::assets::json`).

use std::io::IsTerminal;
use std::path::Path;

use anyhow::Result;
use gamebin::View;
use gamebin::wows::assets::json::RecordForm;
use gamebin::wows::assets::{AssetsDb, PathIndex, json as assets_json};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::output::Out;

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
pub fn dump(
    path: &Path,
    db: &AssetsDb<'_>,
    json: bool,
    form: RecordForm,
    out: &mut Out,
) -> Result<()> {
    let db = *db;
    let info = View::summary(&db)?;
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
        out.line(&format!(
            "\"path\": {},",
            serde_json::json!(path.display().to_string())
        ))?;
        out.line(&format!(
            "\"format\": {},",
            serde_json::json!(gamebin::Format::WowsAssets.name())
        ))?;
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
        out.line(&format!("{}: {info}", path.display()))?;
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

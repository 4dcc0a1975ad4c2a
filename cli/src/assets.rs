//! What the CLI shows of a World of Warships `assets.bin`: the info summary, records as JSON with
//! names resolved, and the streaming dump.

use std::io::IsTerminal;
use std::path::Path;

use anyhow::Result;
use gamebin::wows::assets::{
    AssetsView, Database, Layout, PathIndex, Prototype, PrototypeFields, PrototypeRef,
    PrototypeState,
};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use serde::Serialize;
use serde_json::{Value, json};

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

/// A database's type name, or `unknown:0x…` for an unknown magic.
fn database_name(d: &Database<'_>) -> String {
    d.type_name()
        .map_or_else(|| format!("unknown:{:#010x}", d.magic()), str::to_string)
}

pub fn info(path: &Path, data: &[u8]) -> Result<Info> {
    let db = AssetsView::from_bytes(data)?;
    let mut databases = Vec::new();
    for d in db.databases().iter() {
        let d = d?;
        databases.push(DatabaseInfo {
            name: database_name(&d),
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

fn hex64(v: u64) -> String {
    format!("{v:#018x}")
}

fn hex32(v: u32) -> String {
    format!("{v:#010x}")
}

/// A record as JSON: the library's [`PrototypeFields`], name ids resolved through the strings map.
pub fn record_json(db: &AssetsView<'_>, record: Prototype<'_>) -> Result<Value> {
    Ok(serde_json::to_value(PrototypeFields::read(db, record)?)?)
}

/// The state name of a prototype reference.
pub fn state_name(state: PrototypeState) -> String {
    match state {
        PrototypeState::Live => "live".into(),
        PrototypeState::Deleted => "deleted".into(),
        PrototypeState::Other(s) => format!("state {s}"),
    }
}

/// The type name of what a reference points to (`deleted` for deleted entries).
/// The prototype type a reference points into: its database's name, `invalid` for a database
/// index the file does not have; a database table that cannot be read is an error (with its
/// offset), not a type.
pub fn type_of(db: &AssetsView<'_>, at: PrototypeRef) -> gamebin::Result<String> {
    if at.state != PrototypeState::Live {
        return Ok(state_name(at.state));
    }
    Ok(match db.databases().get(at.database as usize)? {
        Some(d) => database_name(&d),
        None => "invalid".into(),
    })
}

/// A prototype reference and its record as JSON.
pub fn prototype_json(db: &AssetsView<'_>, id: u64, at: PrototypeRef) -> Result<Value> {
    let mut out = json!({
        "id": hex64(id),
        "database": at.database,
        "record": at.record,
        "state": state_name(at.state),
    });
    if at.state == PrototypeState::Live {
        out["prototype"] = record_json(db, db.record(at)?)?;
    }
    Ok(out)
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
/// tree in memory. Full paths come from an owned id → entry index (4 + 8 bytes per path).
pub fn dump(path: &Path, data: &[u8], json: bool, out: &mut Out) -> Result<()> {
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
        out.line(&format!("\"path\": {},", json!(info.path)))?;
        out.line(&format!("\"format\": {},", json!(info.format)))?;
        out.line(&format!(
            "\"checksum\": {},",
            serde_json::to_string(&info.checksum)?
        ))?;
        out.line(&format!(
            "\"databases\": {},",
            serde_json::to_string(&info.databases)?
        ))?;
        out.line("\"strings\": [")?;
        let mut first = true;
        for s in db.strings().iter() {
            let (id, s) = s?;
            let sep = if first { "" } else { "," };
            first = false;
            out.line(&format!("{sep}{}", json!({"id": hex32(id), "string": s})))?;
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
        let at = db.prototype(entry.self_id())?;
        if json {
            let sep = if n == 0 { "" } else { "," };
            let line = json!({
                "id": hex64(entry.self_id()),
                "parent": hex64(entry.parent_id()),
                "name": entry.name()?,
                "path": full,
                "prototype": at.map(|at| json!({"database": at.database, "record": at.record, "state": state_name(at.state)})),
            });
            bar.suspend(|| out.line(&format!("{sep}{line}")))?;
        } else {
            let kind = match at {
                Some(at) => type_of(&db, at)?,
                None => "-".to_string(),
            };
            bar.suspend(|| out.line(&format!("{}  {kind:<26} {full}", hex64(entry.self_id()))))?;
        }
    }
    if json {
        out.line("],")?;
        out.line("\"records\": [")?;
    }
    let mut first = true;
    for d in db.databases().iter() {
        let d = d?;
        let layout = match d.layout() {
            Layout::Known { .. } => "known",
            Layout::Checked { .. } => "checked",
            Layout::Raw(_) => "raw",
        };
        for i in 0..d.record_count() {
            bar.inc(1);
            let record = d.prototype(i, db.strings())?;
            if json {
                let sep = if first { "" } else { "," };
                first = false;
                let line = json!({
                    "database": d.index(),
                    "index": i,
                    "layout": layout,
                    "record": record_json(&db, record)?,
                });
                bar.suspend(|| out.line(&format!("{sep}{line}")))?;
            }
            // Raw databases have one entry describing the blob; their record count is the
            // stored one.
            if matches!(record, Prototype::Raw(_)) {
                break;
            }
        }
    }
    bar.finish_and_clear();
    if json {
        out.line("]")?;
        out.line("}")?;
    }
    Ok(())
}

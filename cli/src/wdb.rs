//! What the CLI shows of a Final Fantasy XIII `.wdb`: the info line, and the JSON layout that
//! WDBJsonTool users know (the same keys, numbers and strings as `wdb_oracle.py`).

use std::path::Path;

use anyhow::{Context, Result};
use gamebin::wdb::WdbView;
use gamebin::wdb::model::WdbModel;
use serde::Deserialize;
use serde_json::Value as Json;

/// A JSON object read back with its keys in document order (serde_json's map sorts them).
struct Ordered(Vec<(String, Json)>);

impl<'de> Deserialize<'de> for Ordered {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> serde::de::Visitor<'de> for V {
            type Value = Ordered;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("an object")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut m: A,
            ) -> Result<Ordered, A::Error> {
                let mut out = Vec::new();
                while let Some(entry) = m.next_entry()? {
                    out.push(entry);
                }
                Ok(Ordered(out))
            }
        }
        d.deserialize_map(V)
    }
}

/// The text dump: each top-level key on a line (`records` last), then a line per record.
pub fn dump_text(table: &WdbModel) -> Result<String> {
    use std::fmt::Write as _;
    #[derive(Deserialize)]
    struct Records {
        records: Vec<Ordered>,
    }
    let json = serde_json::to_string(table)?;
    let head: Ordered = serde_json::from_str(&json)?;
    let Records { records } = serde_json::from_str(&json)?;
    let mut s = String::new();
    for (k, v) in head.0.iter().filter(|(k, _)| k != "records") {
        writeln!(s, "{k}: {v}")?;
    }
    for r in &records {
        let mut fields = r.0.iter();
        let name = fields
            .next()
            .map(|(_, v)| v.to_string())
            .unwrap_or_default();
        let rest: Vec<String> = fields.map(|(k, v)| format!("{k}={v}")).collect();
        writeln!(s, "{name}: {}", rest.join(" "))?;
    }
    Ok(s)
}

/// A value parser for each item typed after `--fields`, so that a bad name is a usage error about
/// the command line (exit 2), not an error at a file offset: a name starts with its type letter
/// (`i`, `u`, `f` or `s`), and a bit width, when given, is at most 32. An item with a `.` or a
/// `/` (never in a field name) is a file of names, read when the command runs.
pub fn field_name(name: &str) -> std::result::Result<String, String> {
    if is_names_file(name) {
        return Ok(name.to_owned());
    }
    check_field_name(name)?;
    Ok(name.to_owned())
}

fn is_names_file(item: &str) -> bool {
    item.contains(['.', '/', '\\'])
}

fn check_field_name(name: &str) -> std::result::Result<(), String> {
    match name.as_bytes().first() {
        None => return Err("empty field name (two commas in a row?)".into()),
        Some(b'i' | b'u' | b'f' | b's') => {}
        Some(_) => {
            return Err(
                "a field name starts with its type letter: i (signed), u (unsigned), \
                        f (float) or s (string), e.g. uPrice, i12Power, sName"
                    .into(),
            );
        }
    }
    let width = gamebin::wdb::name_width(name);
    if width > 32 {
        return Err(format!("bit width {width} is over 32"));
    }
    Ok(())
}

/// Where the field names of an XIII-1 file (or names overriding a file's own) come from.
#[derive(Debug, Clone, Default)]
pub struct FieldSource {
    /// `--fields`: names, or files of names (one per line or comma-separated).
    pub fields: Vec<String>,
    /// `--fields-from OTHER.wdb`: the names of an XIII-2/LR file of the same sheet.
    pub fields_from: Option<std::path::PathBuf>,
}

impl FieldSource {
    /// The names to decode `view` with, `None` for the file's own (or its raw cells).
    pub fn names(&self, view: &WdbView<'_>) -> Result<Option<Vec<String>>> {
        if let Some(other) = &self.fields_from {
            return names_from(view, other).map(Some);
        }
        if self.fields.is_empty() {
            return Ok(None);
        }
        let mut names = Vec::new();
        for item in &self.fields {
            if !is_names_file(item) {
                names.push(item.clone());
                continue;
            }
            let text = std::fs::read_to_string(item)
                .with_context(|| format!("cannot read the names file {item}"))?;
            for (line_no, line) in text.lines().enumerate() {
                for name in line.split(',').map(str::trim).filter(|n| !n.is_empty()) {
                    check_field_name(name).map_err(|why| {
                        anyhow::anyhow!("{item}, line {}: field name {name:?}: {why}", line_no + 1)
                    })?;
                    names.push(name.to_owned());
                }
            }
        }
        Ok(Some(names))
    }
}

/// The field names of `other` (an XIII-2/LR file), when its type list is `view`'s.
fn names_from(view: &WdbView<'_>, other: &Path) -> Result<Vec<String>> {
    let file =
        crate::files::map(other).with_context(|| format!("--fields-from {}", other.display()))?;
    let source =
        WdbView::from_bytes(&file).with_context(|| format!("--fields-from {}", other.display()))?;
    let names = source.field_names().with_context(|| {
        format!(
            "--fields-from {}: the file has no field names (!structitem): an XIII-1 file",
            other.display()
        )
    })?;
    let ours: Vec<u32> = view
        .type_list()
        .map(|t| t.iter().collect())
        .unwrap_or_default();
    let theirs: Vec<u32> = source
        .type_list()
        .map(|t| t.iter().collect())
        .unwrap_or_default();
    if ours != theirs {
        let cell = ours.iter().zip(&theirs).position(|(a, b)| a != b);
        anyhow::bail!(
            "--fields-from {}: the layouts differ ({}), so its names do not fit this file",
            other.display(),
            match cell {
                Some(c) => format!("cell {c} has type {} here and {} there", ours[c], theirs[c]),
                None => format!("{} cells here, {} there", ours.len(), theirs.len()),
            }
        );
    }
    names
        .check()
        .map_err(|e| anyhow::anyhow!("--fields-from {}: {e}", other.display()))?;
    names
        .iter()
        .map(|n| n.map(str::to_owned).map_err(anyhow::Error::from))
        .collect()
}

/// The owned model of the file at `path`, with names from `fields`.
pub fn table(path: &Path, fields: &FieldSource) -> Result<WdbModel> {
    let (file, format) = crate::files::open_known(path, crate::files::ReadOptions::default())?;
    if format != gamebin::Format::Ff13Wdb {
        anyhow::bail!("this is {format}, not a .wdb");
    }
    let view = WdbView::from_bytes(&file)?;
    let names = fields.names(&view)?;
    let names: Option<Vec<&str>> = names
        .as_ref()
        .map(|n| n.iter().map(String::as_str).collect());
    let table = WdbModel::from_view(&view, names.as_deref());
    if names.is_some() {
        return table.context(
            "the field names given do not fit this file's type list (its cells, bit-packed \
             fields and strings)",
        );
    }
    Ok(table?)
}

/// `gamebin wdb json FILE [--fields a,b | --fields-from OTHER.wdb]`: the dump with supplied names.
pub fn json(path: &Path, fields: &FieldSource) -> Result<crate::output::Status> {
    let run = || -> Result<String> { Ok(serde_json::to_string_pretty(&table(path, fields)?)?) };
    match run() {
        Ok(text) => {
            let mut out = crate::output::Out::new();
            out.line(&text)?;
            out.flush()?;
            Ok(crate::output::Status::Success)
        }
        Err(e) => {
            crate::output::report(path, &e);
            Ok(crate::output::Status::SomeFailed)
        }
    }
}

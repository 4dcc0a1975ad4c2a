//! Two PFS indexes compared by path: the layout, then every file under its full path (added,
//! removed, or changed: its volume, compression, sizes, CRC-32), every directory (added or
//! removed) and every volume by file name. Not compared: where a blob sits in its volume (every
//! later blob moves when one grows) and the header's checksum (it changes with anything else).

use serde_json::Value;

use super::IdxView;
use super::model::{IdxModel, NameModel};
use crate::diff::value::{compare, compare_keyed, to_value, without};
use crate::diff::{Change, Report};
use crate::view::ViewError;

/// A file's or name's key: its path, or its id when its parents do not lead to the root.
fn key(path: Option<&String>, id: u64) -> String {
    path.cloned().unwrap_or_else(|| format!("(id {id:#018x})"))
}

fn file_entries(model: &IdxModel) -> Vec<(String, Value)> {
    model
        .files
        .iter()
        .map(|f| {
            (
                key(f.path.as_ref(), f.id),
                without(to_value(f), &["path", "id", "offset"]),
            )
        })
        .collect()
}

/// The names with no file record: the directories.
fn directory_entries(model: &IdxModel) -> Vec<(String, Value)> {
    let files: std::collections::HashSet<u64> = model.files.iter().map(|f| f.id).collect();
    model
        .names
        .iter()
        .filter(|n| !files.contains(&n.id))
        .map(|n: &NameModel| (key(n.path.as_ref(), n.id), Value::from("directory")))
        .collect()
}

fn volume_entries(model: &IdxModel) -> Vec<(String, Value)> {
    model
        .volumes
        .iter()
        .map(|v| (v.name.clone(), Value::from(format!("{:#018x}", v.id))))
        .collect()
}

/// Compares two indexes.
pub fn models(a: &IdxModel, b: &IdxModel) -> Report {
    let mut changes: Vec<Change> = Vec::new();
    compare(
        "layout",
        &Value::from(a.layout.as_str()),
        &Value::from(b.layout.as_str()),
        &mut changes,
    );
    compare_keyed("files", file_entries(a), file_entries(b), &mut changes);
    compare_keyed(
        "directories",
        directory_entries(a),
        directory_entries(b),
        &mut changes,
    );
    compare_keyed(
        "volumes",
        volume_entries(a),
        volume_entries(b),
        &mut changes,
    );
    Report::new(crate::Format::WowsPfsIdx.name(), changes)
}

/// Compares two indexes read in place (through their models).
pub fn files(a: &IdxView<'_>, b: &IdxView<'_>) -> Result<Report, ViewError> {
    Ok(models(&IdxModel::from_view(a)?, &IdxModel::from_view(b)?))
}

//! `gamebin assets get FILE ID|PATH`: one prototype as JSON, names resolved and path ids given
//! with their full paths.

use std::path::Path;

use anyhow::{Result, bail};
use gamebin::wows::assets::{AssetsView, ID_LIST_FIELDS, PATH_ID_FIELDS};
use serde_json::Value;

use crate::files;
use crate::output::{Out, Status, is_closed_pipe, report};

/// An id written as `0x…` hex or decimal; anything else is a path.
pub fn parse_id(key: &str) -> Option<u64> {
    match key.strip_prefix("0x").or_else(|| key.strip_prefix("0X")) {
        Some(hex) => u64::from_str_radix(hex, 16).ok(),
        None => key.parse().ok(),
    }
}

pub fn run(path: &Path, key: &str) -> Result<Status> {
    match get(path, key) {
        Ok(status) => Ok(status),
        // The reader of the output went away (`| head`): stop, nothing failed.
        Err(e) if is_closed_pipe(&e) => Ok(Status::Success),
        Err(e) => {
            report(path, &e);
            Ok(Status::SomeFailed)
        }
    }
}

fn get(path: &Path, key: &str) -> Result<Status> {
    let file = files::map(path)?;
    let db = AssetsView::from_bytes(&file)?;
    let key = key.strip_prefix("res/").unwrap_or(key);
    let (id, full) = match parse_id(key) {
        Some(id) => {
            let mut full = String::new();
            let found = db.full_path(id, &mut full)?;
            (id, found.then_some(full))
        }
        None => {
            let hashed = db.path_id(key);
            if db.prototype(hashed)?.is_some() {
                (hashed, Some(key.to_string()))
            } else if let Some(entry) = db.find_path(key)? {
                // Ids are not path hashes in this file: the linear walk found it.
                (entry.self_id(), Some(key.to_string()))
            } else {
                bail!("no path {key:?} (looked up by its hash and in the path table)");
            }
        }
    };
    let Some(at) = db.prototype(id)? else {
        bail!("resource {id:#018x} has no prototype (no live entry in the prototype table)");
    };
    let mut value = crate::assets::prototype_json(&db, id, at)?;
    value["path"] = full.map_or(serde_json::Value::Null, serde_json::Value::String);
    resolve_paths(&db, &mut value["prototype"])?;
    let mut out = Out::new();
    out.line(&serde_json::to_string_pretty(&value)?)?;
    out.flush()?;
    Ok(Status::Success)
}

/// The field a path id's full path is written to: `…_path_id` → `…_path`, `…_id` → `…_path`.
fn path_field(id_field: &str) -> String {
    let stem = id_field.strip_suffix("_id").unwrap_or(id_field);
    if stem.ends_with("_path") {
        stem.to_string()
    } else {
        format!("{stem}_path")
    }
}

/// The field a list of path ids' full paths are written to: `animations` → `animation_paths`.
fn paths_field(ids_field: &str) -> String {
    format!("{}_paths", ids_field.strip_suffix('s').unwrap_or(ids_field))
}

/// The full path of a `0x…` id, `null` when the path tree does not have it (or the text is not
/// an id).
fn path_of(db: &AssetsView<'_>, id: &Value, full: &mut String) -> Result<Value> {
    let Some(id) = id.as_str().and_then(parse_id) else {
        return Ok(Value::Null);
    };
    Ok(if db.full_path(id, full)? {
        Value::String(full.clone())
    } else {
        Value::Null
    })
}

/// Adds, beside every path id of a record's JSON (the visual's geometry, the render sets'
/// materials, the model's visual, skeleton extenders, animations and dye materials, the
/// material's effect and textures), the full path it names (`null` when the path tree lacks it).
/// The ids stay as they were.
fn resolve_paths(db: &AssetsView<'_>, value: &mut Value) -> Result<()> {
    let mut full = String::new();
    match value {
        Value::Object(map) => {
            for id_field in PATH_ID_FIELDS {
                if let Some(id) = map.get(id_field) {
                    let path = path_of(db, id, &mut full)?;
                    map.insert(path_field(id_field), path);
                }
            }
            for ids_field in ID_LIST_FIELDS {
                if let Some(Value::Array(ids)) = map.get(ids_field) {
                    let mut paths = Vec::with_capacity(ids.len());
                    for id in ids {
                        paths.push(path_of(db, id, &mut full)?);
                    }
                    map.insert(paths_field(ids_field), Value::Array(paths));
                }
            }
            if map.get("type").and_then(Value::as_str) == Some("texture") {
                if let Some(id) = map.get("value") {
                    let path = path_of(db, id, &mut full)?;
                    map.insert("path".into(), path);
                }
            }
            for (_, child) in map.iter_mut() {
                if child.is_object() || child.is_array() {
                    resolve_paths(db, child)?;
                }
            }
        }
        Value::Array(items) => {
            for item in items {
                resolve_paths(db, item)?;
            }
        }
        _ => {}
    }
    Ok(())
}

//! `gamebin assets get FILE ID|PATH`: one prototype as JSON, names resolved.

use std::path::Path;

use anyhow::{Result, bail};
use gamebin::wows::assets::AssetsDb;

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
    let db = AssetsDb::from_bytes(&file)?;
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
    let mut out = Out::new();
    out.line(&serde_json::to_string_pretty(&value)?)?;
    out.flush()?;
    Ok(Status::Success)
}

//! `gamebin assets get FILE ID|PATH`: one prototype as JSON, names resolved and path ids given
//! with their full paths (the library's `wows::assets::json::resource`).

use std::path::Path;

use anyhow::{Result, bail};
use gamebin::wows::assets::json::RecordForm;
use gamebin::wows::assets::{AssetsDb, ResourceKey, json};

use crate::files;
use crate::output::{Out, Status, is_closed_pipe, report};

/// An id written as `0x…` hex or decimal; anything else is a path.
pub use gamebin::wows::assets::parse_id;

/// `complete`: the record in its complete form, which reads back (see `json::RecordForm`).
pub fn run(path: &Path, key: &str, complete: bool) -> Result<Status> {
    match get(path, key, crate::assets::record_form(complete)) {
        Ok(status) => Ok(status),
        // The reader of the output went away (`| head`): stop, nothing failed.
        Err(e) if is_closed_pipe(&e) => Ok(Status::Success),
        Err(e) => {
            report(path, &e);
            Ok(Status::SomeFailed)
        }
    }
}

fn get(path: &Path, key: &str, form: RecordForm) -> Result<Status> {
    let file = files::map(path)?;
    let db = AssetsDb::from_bytes(&file)?;
    let key = ResourceKey::parse(key);
    let Some(resource) = db.resolve_key(key)? else {
        bail!(
            "no path {:?} (looked up by its hash and in the path table)",
            key.text()
        );
    };
    let Some(at) = db.prototype(resource.id)? else {
        bail!(
            "resource {:#018x} has no prototype (no live entry in the prototype table)",
            resource.id
        );
    };
    let value = json::resource_in(&db, &resource, at, form)?;
    let mut out = Out::new();
    out.line(&serde_json::to_string_pretty(&value)?)?;
    out.flush()?;
    Ok(Status::Success)
}

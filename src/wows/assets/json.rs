//! The JSON `gamebin` prints for an `assets.bin` (with the `serde` feature): a prototype with its
//! record's [`PrototypeFields`] (`assets get`, with the full paths of the path ids it holds), and
//! the elements of the streamed `dump --json` (a string, a path entry, a record), one
//! [`serde_json::Value`] each, so that a caller streams a whole file without holding it as one
//! tree. Ids are `0x…` hex text of their full width, as everywhere in gamebin's JSON.
//!
//! ```
//! # #[cfg(feature = "write")]
//! # fn main() -> Result<(), gamebin::Error> {
//! # let file = gamebin::synth::assets::example_file();
//! use gamebin::wows::assets::{AssetsDb, ResourceKey, json};
//!
//! let db = AssetsDb::from_bytes(&file)?;
//! let found = db.resolve_key(ResourceKey::parse("content/gameplay/Test.visual"))?.unwrap();
//! let at = db.prototype(found.id)?.expect("a prototype");
//! let value = json::resource(&db, &found, at)?;
//! assert_eq!(value["prototype"]["type"], "VisualPrototype");
//! // Each path id comes with the full path it names.
//! assert_eq!(value["prototype"]["merged_geometry_path"], "content/gameplay/Test.geometry");
//!
//! // The records of every database, as `dump --json` streams them.
//! let mut records = 0;
//! for record in db.records() {
//!     let (database, index, record) = record?;
//!     let line = json::record_entry(&db, &database, index, record)?;
//!     assert_eq!(line["index"], index);
//!     records += 1;
//! }
//! assert_eq!(records, 10); // one of each type
//! # Ok(())
//! # }
//! # #[cfg(not(feature = "write"))]
//! # fn main() {}
//! ```

use serde_json::{Value, json};

use super::{
    AssetsDb, Database, ID_LIST_FIELDS, PATH_ID_FIELDS, PathEntry, Prototype, PrototypeFields,
    PrototypeRef, PrototypeState, Resource, parse_id,
};
use crate::error::{Error, Result};

fn hex64(v: u64) -> String {
    format!("{v:#018x}")
}

fn hex32(v: u32) -> String {
    format!("{v:#010x}")
}

/// Which JSON of a record to print: the plain form, which gives an effect's systems and a
/// velocity field's velocities as their numbers (short, for reading), or the complete form
/// ([`CompleteFields`](super::CompleteFields)), which lists them and so reads back as the record.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum RecordForm {
    /// [`PrototypeFields`]' own JSON: systems and velocities counted.
    #[default]
    Summary,
    /// [`PrototypeFields::complete`]'s JSON: every stored byte, which reads back.
    Complete,
}

/// A record's [`PrototypeFields`] (names resolved through the strings map) as JSON.
pub fn record(db: &AssetsDb<'_>, record: Prototype<'_>) -> Result<Value> {
    record_in(db, record, RecordForm::Summary)
}

/// A record's [`PrototypeFields`] as JSON in `form`.
pub fn record_in(db: &AssetsDb<'_>, record: Prototype<'_>, form: RecordForm) -> Result<Value> {
    let fields = PrototypeFields::read(db, record)?;
    match form {
        RecordForm::Summary => serde_json::to_value(fields),
        RecordForm::Complete => serde_json::to_value(fields.complete()),
    }
    // Every field serializes (string keys, finite or null numbers); were one not to, the error
    // names the record it came from.
    .map_err(|_| {
        let at = record.record_offset().unwrap_or(0);
        Error::invalid(
            crate::bytes::u64_of(at),
            "PrototypeFields",
            0,
            "not representable as JSON",
        )
    })
}

/// A prototype reference as JSON: `id`, `database`, `record`, `state`, and for a live entry its
/// record's fields under `prototype`.
pub fn prototype(db: &AssetsDb<'_>, id: u64, at: PrototypeRef) -> Result<Value> {
    prototype_in(db, id, at, RecordForm::Summary)
}

/// [`prototype`] with the record in `form`.
pub fn prototype_in(
    db: &AssetsDb<'_>,
    id: u64,
    at: PrototypeRef,
    form: RecordForm,
) -> Result<Value> {
    let mut out = json!({
        "id": hex64(id),
        "database": at.database,
        "record": at.record,
        "state": at.state.to_string(),
    });
    if at.state == PrototypeState::Live {
        out["prototype"] = record_in(db, db.record(at)?, form)?;
    }
    Ok(out)
}

/// What `gamebin assets get` prints: [`prototype`], the resource's full path under `path`
/// (`null` when the path table lacks it), and beside every path id of the record the full path
/// it names (see [`add_paths`]).
pub fn resource(db: &AssetsDb<'_>, resource: &Resource, at: PrototypeRef) -> Result<Value> {
    resource_in(db, resource, at, RecordForm::Summary)
}

/// [`resource`] with the record in `form` (`gamebin assets get --complete` prints
/// [`RecordForm::Complete`]). The full paths added beside the ids are ignored when the record is
/// read back.
pub fn resource_in(
    db: &AssetsDb<'_>,
    resource: &Resource,
    at: PrototypeRef,
    form: RecordForm,
) -> Result<Value> {
    let mut value = prototype_in(db, resource.id, at, form)?;
    value["path"] = resource.path.clone().map_or(Value::Null, Value::String);
    add_paths(db, &mut value["prototype"])?;
    Ok(value)
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
fn path_of(db: &AssetsDb<'_>, id: &Value, full: &mut String) -> Result<Value> {
    let Some(id) = id.as_str().and_then(parse_id) else {
        return Ok(Value::Null);
    };
    Ok(if db.full_path(id, full)? {
        Value::String(full.clone())
    } else {
        Value::Null
    })
}

/// Adds, beside every path id of a record's JSON (the fields [`PATH_ID_FIELDS`] and
/// [`ID_LIST_FIELDS`] name: the visual's geometry, the render sets' materials, the model's visual,
/// skeleton extenders, animations and dye materials, the material's effect; and a texture
/// property's value), the full path it names, `null` when the path tree lacks it:
/// `merged_geometry_path_id` → `merged_geometry_path`, `visual_resource_id` → `visual_resource_path`,
/// `animations` → `animation_paths`, a texture's `value` → `path`. The ids stay as they were. Each
/// path is found by a linear walk of the path entries.
pub fn add_paths(db: &AssetsDb<'_>, value: &mut Value) -> Result<()> {
    let mut full = String::new();
    add_paths_with(db, value, &mut full)
}

fn add_paths_with(db: &AssetsDb<'_>, value: &mut Value, full: &mut String) -> Result<()> {
    match value {
        Value::Object(map) => {
            for id_field in PATH_ID_FIELDS {
                if let Some(id) = map.get(id_field) {
                    let path = path_of(db, id, full)?;
                    map.insert(path_field(id_field), path);
                }
            }
            for ids_field in ID_LIST_FIELDS {
                if let Some(Value::Array(ids)) = map.get(ids_field) {
                    let mut paths = Vec::with_capacity(ids.len());
                    for id in ids {
                        paths.push(path_of(db, id, full)?);
                    }
                    map.insert(paths_field(ids_field), Value::Array(paths));
                }
            }
            if map.get("type").and_then(Value::as_str) == Some("texture") {
                if let Some(id) = map.get("value") {
                    let path = path_of(db, id, full)?;
                    map.insert("path".into(), path);
                }
            }
            for (_, child) in map.iter_mut() {
                if child.is_object() || child.is_array() {
                    add_paths_with(db, child, full)?;
                }
            }
        }
        Value::Array(items) => {
            for item in items {
                add_paths_with(db, item, full)?;
            }
        }
        _ => {}
    }
    Ok(())
}

/// One string of the strings map, as `dump --json` lists it: `{"id", "string"}`.
pub fn string_entry(id: u32, string: &str) -> Value {
    json!({"id": hex32(id), "string": string})
}

/// One path entry, as `dump --json` lists it: `id`, `parent`, `name`, its full path `full` (from
/// [`PathIndex`](super::PathIndex) or [`AssetsDb::full_path`]) and where its prototype is
/// (`null` when it has none).
pub fn path_entry(db: &AssetsDb<'_>, entry: &PathEntry<'_>, full: &str) -> Result<Value> {
    let at = db.prototype(entry.self_id())?;
    Ok(json!({
        "id": hex64(entry.self_id()),
        "parent": hex64(entry.parent_id()),
        "name": entry.name()?,
        "path": full,
        "prototype": at.map(|at| json!({
            "database": at.database,
            "record": at.record,
            "state": at.state.to_string(),
        })),
    }))
}

/// One record, as `dump --json` lists it: its database's position, its index there, the
/// database's [`layout`](super::Layout::name) and the record's fields ([`record`]); what
/// [`AssetsDb::records`] yields, turned into JSON.
pub fn record_entry(
    db: &AssetsDb<'_>,
    database: &Database<'_>,
    index: usize,
    prototype: Prototype<'_>,
) -> Result<Value> {
    record_entry_in(db, database, index, prototype, RecordForm::Summary)
}

/// [`record_entry`] with the record in `form` (`gamebin dump --json --complete` prints
/// [`RecordForm::Complete`]).
pub fn record_entry_in(
    db: &AssetsDb<'_>,
    database: &Database<'_>,
    index: usize,
    prototype: Prototype<'_>,
    form: RecordForm,
) -> Result<Value> {
    Ok(json!({
        "database": database.index(),
        "index": index,
        "layout": database.layout().name(),
        "record": record_in(db, prototype, form)?,
    }))
}

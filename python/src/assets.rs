//! `assets.bin`: prototype lookups by id or path, the path table, a record's place in the file.

use gamebin::wows::resolve::gltf::{ModelGlbOptions, model_to_glb};
use gamebin::wows::assets::{AssetsDb, PathIndex, PrototypeRef, PrototypeState};
use gamebin::wows::resolve::{GeometryCache, Missing, ResolveError, ModelResolver};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use crate::errors::OrRaise;
use crate::source::Source;

/// The path table's selfId → entry index, built once per database for O(depth) full paths.
#[pyclass(module = "gamebin._gamebin", frozen)]
pub struct PathTable {
    index: PathIndex,
}

/// Checks the header and returns a summary: counts and the databases' types.
#[pyfunction]
pub fn assets_info<'py>(source: &Bound<'py, Source>) -> PyResult<Bound<'py, PyDict>> {
    let py = source.py();
    let this = source.borrow();
    let db = AssetsDb::from_bytes(this.bytes()?).or_raise(py)?;
    let d = PyDict::new(py);
    d.set_item("paths", db.paths().len())?;
    d.set_item("prototypes", db.prototypes().count())?;
    let databases = PyList::empty(py);
    for database in db.databases().iter() {
        let database = database.or_raise(py)?;
        let e = PyDict::new(py);
        e.set_item("type", database.type_name())?;
        e.set_item("magic", database.magic())?;
        e.set_item("schema_hash", database.schema_hash())?;
        e.set_item("records", database.record_count())?;
        databases.append(e)?;
    }
    d.set_item("databases", databases)?;
    Ok(d)
}

/// The prototype id of `key`: an int is an id; a string is a path, found by its CityHash64 and,
/// failing that when `walk`, by walking the path table (for files whose ids are not path hashes:
/// O(entries × depth), so callers pass `walk` only for such files).
fn id_of(
    db: &AssetsDb<'_>,
    key: &Bound<'_, PyAny>,
    walk: bool,
    py: Python<'_>,
) -> PyResult<Option<u64>> {
    if let Ok(id) = key.extract::<u64>() {
        return Ok(Some(id));
    }
    let path: &str = &key.extract::<String>()?;
    let path = path.strip_prefix("res/").unwrap_or(path);
    let hashed = db.path_id(path);
    if !walk || db.prototype(hashed).or_raise(py)?.is_some() {
        return Ok(Some(hashed));
    }
    Ok(db.find_path(path).or_raise(py)?.map(|e| e.self_id()))
}

fn state_name(state: PrototypeState) -> String {
    match state {
        PrototypeState::Live => "live".to_string(),
        PrototypeState::Deleted => "deleted".to_string(),
        PrototypeState::Other(s) => format!("state {s}"),
    }
}

/// The prototype of `key` (an id or a path): `None` when there is none, else a tuple `(id,
/// database, record, state, type, record_offset, record_size)` (type, offset and size `None` for
/// a record that is not live). A tuple, not a dict: this is the hot path of lookups from Python.
/// `walk`: look a path that is not found by its hash up by walking the path table.
#[pyfunction]
#[pyo3(signature = (source, key, walk = true))]
#[allow(clippy::type_complexity)]
pub fn assets_lookup(
    source: &Bound<'_, Source>,
    key: &Bound<'_, PyAny>,
    walk: bool,
) -> PyResult<
    Option<(
        u64,
        u32,
        u32,
        String,
        Option<&'static str>,
        Option<usize>,
        Option<usize>,
    )>,
> {
    let py = source.py();
    let this = source.borrow();
    let db = AssetsDb::from_bytes(this.bytes()?).or_raise(py)?;
    let Some(id) = id_of(&db, key, walk, py)? else {
        return Ok(None);
    };
    let Some(at): Option<PrototypeRef> = db.prototype(id).or_raise(py)? else {
        return Ok(None);
    };
    let (mut kind, mut offset, mut size) = (None, None, None);
    let live = at.state == PrototypeState::Live;
    let database = match live {
        true => db.databases().get(at.database as usize).or_raise(py)?,
        false => None,
    };
    if let Some(database) = database {
        kind = database.type_name();
        offset = database.record_offset(at.record as usize);
        size = database.record_bytes(at.record as usize).map(<[u8]>::len);
    }
    Ok(Some((
        id,
        at.database,
        at.record,
        state_name(at.state),
        kind,
        offset,
        size,
    )))
}

/// Whether the path ids of up to `sample` entries are the CityHash64 of their full paths (then
/// a path is found by its hash alone).
#[pyfunction]
#[pyo3(signature = (source, sample = 64))]
pub fn assets_ids_are_path_hashes(source: &Bound<'_, Source>, sample: usize) -> PyResult<bool> {
    let py = source.py();
    let this = source.borrow();
    let db = AssetsDb::from_bytes(this.bytes()?).or_raise(py)?;
    Ok(db.ids_are_path_hashes(sample).or_raise(py)?.all_match())
}

/// Builds the path index (one walk of the path table).
#[pyfunction]
pub fn assets_path_table(source: &Bound<'_, Source>) -> PyResult<PathTable> {
    let py = source.py();
    let this = source.borrow();
    let db = AssetsDb::from_bytes(this.bytes()?).or_raise(py)?;
    Ok(PathTable {
        index: PathIndex::build(db.paths()).or_raise(py)?,
    })
}

/// The full path of `id` (`content/…`), `None` when the path table has no such entry.
#[pyfunction]
pub fn assets_full_path(
    source: &Bound<'_, Source>,
    table: &PathTable,
    id: u64,
) -> PyResult<Option<String>> {
    let py = source.py();
    let this = source.borrow();
    let db = AssetsDb::from_bytes(this.bytes()?).or_raise(py)?;
    let mut out = String::new();
    let found = table
        .index
        .full_path(db.paths(), id, &mut out)
        .or_raise(py)?;
    Ok(found.then_some(out))
}

/// Every `(id, full path)` of the path table whose path starts with `prefix`, in table order.
#[pyfunction]
#[pyo3(signature = (source, table, prefix = ""))]
pub fn assets_paths(
    source: &Bound<'_, Source>,
    table: &PathTable,
    prefix: &str,
) -> PyResult<Vec<(u64, String)>> {
    let py = source.py();
    let this = source.borrow();
    let db = AssetsDb::from_bytes(this.bytes()?).or_raise(py)?;
    let paths = db.paths();
    let mut out = Vec::new();
    let mut path = String::new();
    for entry in paths.iter() {
        let id = entry.self_id();
        if table.index.full_path(paths, id, &mut path).or_raise(py)? && path.starts_with(prefix) {
            out.push((id, path.clone()));
        }
    }
    Ok(out)
}

/// Exports the model (or visual) `id` as a GLB at `out`: the model pipeline (model → visual →
/// `.geometry` found under `res`, the game's `res/` folder) of `gamebin model`. Returns the
/// number of scenes and meshes written.
#[pyfunction]
pub fn assets_model_glb(
    source: &Bound<'_, Source>,
    id: u64,
    res: std::path::PathBuf,
    out: std::path::PathBuf,
) -> PyResult<(usize, usize)> {
    let py = source.py();
    let this = source.borrow();
    let db = AssetsDb::from_bytes(this.bytes()?).or_raise(py)?;
    let resolver = ModelResolver::new(db, res.clone());
    let failed = |e: ResolveError| model_error(py, &res, e);
    let model = resolver.resolve(id).map_err(failed)?;
    let mut cache = GeometryCache::new();
    let geometry = cache.load(&resolver, &model).map_err(failed)?;
    let glb =
        model_to_glb(&resolver, &model, &geometry, &ModelGlbOptions::default()).map_err(failed)?;
    std::fs::write(out, &glb.bytes)?;
    Ok((glb.added.scenes, glb.added.meshes))
}

/// A model pipeline's error as Python sees it: a `.geometry` that cannot be opened is the
/// `OSError` subclass of its I/O error kind (`FileNotFoundError`, ...), naming the file's path
/// under `res`; a read failure is a `FormatError` with the reader's offset and field (an offset in
/// the file the message names: the assets.bin or the `.geometry`); anything else missing (no
/// prototype, no visual, a LOD past the last, ...) is a `FormatError` with field `"model"` and
/// offset 0, since it is a fact about the database as a whole, not a place in a file.
fn model_error(py: Python<'_>, res: &std::path::Path, e: ResolveError) -> PyErr {
    use pyo3::exceptions::{PyFileNotFoundError, PyOSError, PyPermissionError};
    use std::io::ErrorKind;
    if let Missing::GeometryModel { path, error } = e.missing() {
        let message = format!("{}: {e}", res.join(path).display());
        return match error {
            ErrorKind::NotFound => PyFileNotFoundError::new_err(message),
            ErrorKind::PermissionDenied => PyPermissionError::new_err(message),
            _ => PyOSError::new_err(message),
        };
    }
    match e.read_error() {
        Some(read) => crate::errors::format_error(py, read.offset(), read.what(), &e.to_string()),
        None => crate::errors::format_error(py, 0, "model", &e.to_string()),
    }
}

/// Writes the crate's example model world (`assets.bin`, and `content/gameplay/Test.geometry`
/// for `content/gameplay/Test.model`) under `root`, for tests and examples.
#[pyfunction]
pub fn write_model_example(py: Python<'_>, root: std::path::PathBuf) -> PyResult<()> {
    let world = gamebin::synth::model_world::example_world().or_raise(py)?;
    world.write_to(&root)?;
    Ok(())
}

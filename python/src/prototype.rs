//! A prototype record's fields: the library's `PrototypeFields` (names resolved through the
//! strings map), as the JSON `gamebin assets get` prints; the Python side parses it and turns the
//! hex ids of the fields the library lists into integers.

use gamebin::wows::assets::{
    AssetsDb, ID_FIELDS, ID_LIST_FIELDS, PrototypeFields, PrototypeState,
};
use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;

use crate::errors::OrRaise;
use crate::source::Source;

/// The decoded fields of prototype `id`'s record as JSON text, or `None` (no live prototype, or a
/// record kept raw).
#[pyfunction]
pub fn assets_prototype_json(source: &Bound<'_, Source>, id: u64) -> PyResult<Option<String>> {
    let py = source.py();
    let this = source.borrow();
    let db = AssetsDb::from_bytes(this.bytes()?).or_raise(py)?;
    let Some(at) = db.prototype(id).or_raise(py)? else {
        return Ok(None);
    };
    if at.state != PrototypeState::Live {
        return Ok(None);
    }
    let fields = PrototypeFields::read(&db, db.record(at).or_raise(py)?).or_raise(py)?;
    if matches!(fields, PrototypeFields::Raw(_)) {
        return Ok(None);
    }
    serde_json::to_string(&fields)
        .map(Some)
        .map_err(|e| PyRuntimeError::new_err(e.to_string()))
}

/// The fields whose JSON value is one hex id, and those holding a list of them.
pub fn add_id_fields(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("ASSETS_ID_FIELDS", ID_FIELDS.to_vec())?;
    m.add("ASSETS_ID_LIST_FIELDS", ID_LIST_FIELDS.to_vec())?;
    Ok(())
}

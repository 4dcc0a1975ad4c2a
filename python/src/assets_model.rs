//! The whole `assets.bin` as the library's `AssetsModel`, in the JSON `gamebin assets unpack`
//! prints (Python parses it into dicts and lists), and that JSON written back as a file.

use gamebin::wows::assets::AssetsDb;
use gamebin::wows::assets::model::{AssetsBuilder, AssetsModel};
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyBytes;

use crate::errors::OrRaise;
use crate::source::Source;

/// Every string, path entry, resource-to-prototype entry and database of the file (each record
/// in the complete form, which reads back), the maps' capacities and the checksum kind, as JSON
/// text.
#[pyfunction]
pub fn assets_model_json(source: &Bound<'_, Source>) -> PyResult<String> {
    let py = source.py();
    let this = source.borrow();
    let view = AssetsDb::from_bytes(this.bytes()?).or_raise(py)?;
    let model = AssetsBuilder::from_view(&view).or_raise(py)?.to_model();
    serde_json::to_string(&model).map_err(|e| PyRuntimeError::new_err(e.to_string()))
}

/// The `assets.bin` a model's JSON text describes. Text that is not a model is a `ValueError`
/// saying why, with its line and column; a model the writer cannot store (a capacity too large,
/// an index too wide for its bits, a record in another type's database) a `FormatError` naming
/// the structure and field.
#[pyfunction]
pub fn write_assets<'py>(py: Python<'py>, model: &str) -> PyResult<Bound<'py, PyBytes>> {
    let model: AssetsModel = serde_json::from_str(model).map_err(|e| {
        let what = if e.is_syntax() || e.is_eof() {
            "not valid JSON"
        } else {
            "not an assets.bin model"
        };
        PyValueError::new_err(format!("{what}: {e}"))
    })?;
    let bytes = AssetsBuilder::from_model(model)
        .and_then(|builder| builder.to_bytes())
        .or_raise(py)?;
    Ok(PyBytes::new(py, &bytes))
}

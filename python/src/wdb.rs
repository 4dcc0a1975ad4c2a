//! `.wdb`: the schema's field names and kinds, and every record's values.

use gamebin::wdb::{Cell, FieldKind, Value, WdbError, WdbView};
use pyo3::IntoPyObjectExt;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList, PyString};

use crate::errors::format_error;
use crate::source::Source;

/// A `WdbError` as a `FormatError` whose message names the record and field as Rust's does.
fn raise(py: Python<'_>, e: WdbError<'_>) -> PyErr {
    let field = e.field.unwrap_or(e.error.what());
    format_error(py, e.error.offset(), field, &e.to_string())
}

/// A string value: `str` when it is UTF-8, else the bytes (the games' text is Shift-JIS or
/// other code pages in places).
fn text<'py>(py: Python<'py>, s: &[u8]) -> PyResult<Bound<'py, PyAny>> {
    Ok(match core::str::from_utf8(s) {
        Ok(s) => PyString::new(py, s).into_any(),
        Err(_) => PyBytes::new(py, s).into_any(),
    })
}

fn value<'py>(py: Python<'py>, v: Value<'_>) -> PyResult<Bound<'py, PyAny>> {
    match v {
        Value::Int(i) => i.into_bound_py_any(py),
        Value::UInt(u) => u.into_bound_py_any(py),
        Value::Float(f) => f.into_bound_py_any(py),
        Value::Str(s) => text(py, s),
    }
}

fn cell<'py>(py: Python<'py>, c: Cell<'_>) -> PyResult<Bound<'py, PyAny>> {
    match c {
        Cell::Bits(b) | Cell::U32(b) => b.into_bound_py_any(py),
        Cell::Float(f) => f.into_bound_py_any(py),
        Cell::Str(s) => text(py, s),
    }
}

/// The NumPy-friendly kind of a field: `"int"`, `"uint"`, `"float"` or `"str"`.
fn kind_name(kind: FieldKind) -> &'static str {
    match kind {
        FieldKind::Int { signed: true } => "int",
        FieldKind::Int { signed: false } | FieldKind::U32 | FieldKind::U64 => "uint",
        FieldKind::Float => "float",
        FieldKind::String | FieldKind::StrArray { .. } => "str",
    }
}

/// The whole table: `{"game", "sheet_name", "version", "fields": [(name, kind)], "records":
/// [(name, [values])]}`. Files without field names (XIII-1) give their cells under the keys
/// `dump --json` gives them (`bitpacked-field_0`, `float-field_0`, …), kinds from the type codes.
#[pyfunction]
pub fn wdb_table<'py>(source: &Bound<'py, Source>) -> PyResult<Bound<'py, PyDict>> {
    let py = source.py();
    let this = source.borrow();
    let view = WdbView::from_bytes(this.bytes()?).map_err(|e| crate::errors::to_py(py, e))?;
    let out = PyDict::new(py);
    out.set_item("game", view.game().name())?;
    out.set_item(
        "sheet_name",
        view.sheet_name().map(|s| text(py, s)).transpose()?,
    )?;
    out.set_item("version", view.version())?;
    let fields = PyList::empty(py);
    let records = PyList::empty(py);
    if view.field_names().is_some() {
        let schema = view.schema().map_err(|e| raise(py, e))?;
        for spec in schema.fields() {
            fields.append((spec.name, kind_name(spec.kind)))?;
        }
        for record in view.records() {
            let values = PyList::empty(py);
            for (_, v) in schema.values(record) {
                values.append(value(py, v.map_err(|e| raise(py, e))?)?)?;
            }
            records.append((text(py, record.name_bytes())?, values))?;
        }
    } else {
        // The cells' keys as `dump --json` and the spreadsheets name them (WDBJsonTool's
        // layout): `bitpacked-field_0`, `float-field_0`, `!!string-field_0`, `uint-field_0`, …,
        // counted per type code.
        use gamebin::wdb::export::columns::CELL_KEYS;
        let types = view.type_list();
        let codes: Vec<u32> = types.map(|t| t.iter().collect()).unwrap_or_default();
        let mut counters = [0usize; CELL_KEYS.len()];
        for code in codes {
            let slot = (code as usize).min(CELL_KEYS.len() - 1);
            let kind = match code {
                1 => "float",
                2 => "str",
                _ => "uint",
            };
            let key = format!("{}_{}", CELL_KEYS[slot], counters[slot]);
            counters[slot] += 1;
            fields.append((key, kind))?;
        }
        for record in view.records() {
            let values = PyList::empty(py);
            for c in view.cells(record) {
                values.append(cell(py, c.map_err(|e| raise(py, e))?)?)?;
            }
            records.append((text(py, record.name_bytes())?, values))?;
        }
    }
    out.set_item("fields", fields)?;
    out.set_item("records", records)?;
    Ok(out)
}

//! Rust errors as Python exceptions: `FormatError` with `.offset` and `.field`.

use pyo3::create_exception;
use pyo3::exceptions::PyException;
use pyo3::prelude::*;

create_exception!(
    _gamebin,
    FormatError,
    PyException,
    "A file that does not read as its format: `.offset` (file offset), `.field` (the structure \
     and field being read), and the message as the Rust library gives it."
);

/// A `FormatError` with its `offset` and `field` attributes set.
pub fn format_error(py: Python<'_>, offset: u64, field: &str, message: &str) -> PyErr {
    let err = FormatError::new_err(message.to_string());
    let value = err.value(py);
    // Setting attributes on a fresh exception instance cannot fail short of memory exhaustion;
    // the error is still raised without them if it does.
    let _ = value.setattr("offset", offset);
    let _ = value.setattr("field", field);
    err
}

/// The library's error as a `FormatError`.
pub fn to_py(py: Python<'_>, e: gamebin::Error) -> PyErr {
    format_error(py, e.offset(), e.what(), &e.to_string())
}

/// `?` on library results inside the bindings.
pub trait OrRaise<T> {
    /// The value, or the error as a `FormatError`.
    fn or_raise(self, py: Python<'_>) -> PyResult<T>;
}

impl<T> OrRaise<T> for gamebin::Result<T> {
    fn or_raise(self, py: Python<'_>) -> PyResult<T> {
        self.map_err(|e| to_py(py, e))
    }
}

//! Rust errors as Python exceptions: `FormatError` with `.offset` and `.field` (and, for a model
//! that cannot be written, `.path`).

use pyo3::create_exception;
use pyo3::exceptions::PyException;
use pyo3::prelude::*;

create_exception!(
    gamebin,
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

/// A model the library cannot write as a `FormatError` about the model: `.path` (where in the
/// model, e.g. `prototypes[0].record`), `.field` (the format's field it would be written to, or
/// None) and `.offset` None (it is about no position in a file); a file read on the way keeps
/// the reader's offset and field.
pub fn write_error_to_py(py: Python<'_>, e: gamebin::WriteError) -> PyErr {
    let err = FormatError::new_err(e.to_string());
    let value = err.value(py);
    let (offset, field) = match e.kind() {
        gamebin::WriteErrorKind::Read(read) => (Some(read.offset()), Some(read.what())),
        _ => (None, e.field()),
    };
    let _ = value.setattr("offset", offset);
    let _ = value.setattr("field", field);
    let _ = value.setattr("path", e.path());
    err
}

impl<T> OrRaise<T> for gamebin::WriteResult<T> {
    fn or_raise(self, py: Python<'_>) -> PyResult<T> {
        self.map_err(|e| write_error_to_py(py, e))
    }
}

/// An export the library could not make as a `FormatError`: the source's read error keeps its
/// `.offset` and `.field`; a limit of the output (a GLB over 4 GiB) has `.offset` None and
/// `.field` naming what in the output.
pub fn export_error_to_py(py: Python<'_>, e: gamebin::ExportError) -> PyErr {
    if let gamebin::ExportError::Source(read) = e {
        return to_py(py, read);
    }
    let err = FormatError::new_err(e.to_string());
    let value = err.value(py);
    let field = match &e {
        gamebin::ExportError::TooLarge { what, .. }
        | gamebin::ExportError::Unwritable { what }
        | gamebin::ExportError::NotGiven { what, .. } => Some(*what),
        _ => None,
    };
    let _ = value.setattr("offset", None::<u64>);
    let _ = value.setattr("field", field);
    err
}

impl<T> OrRaise<T> for gamebin::ExportResult<T> {
    fn or_raise(self, py: Python<'_>) -> PyResult<T> {
        self.map_err(|e| export_error_to_py(py, e))
    }
}

/// An I/O error as the matching `OSError` subclass, its message naming the path.
pub fn io_error(path: &std::path::Path, e: std::io::Error) -> PyErr {
    use pyo3::exceptions::{
        PyFileNotFoundError, PyIsADirectoryError, PyOSError, PyPermissionError,
    };
    use std::io::ErrorKind;
    match e.kind() {
        ErrorKind::NotFound => PyFileNotFoundError::new_err(format!("{}: {e}", path.display())),
        ErrorKind::PermissionDenied => {
            PyPermissionError::new_err(format!("{}: {e}", path.display()))
        }
        _ if path.is_dir() => {
            PyIsADirectoryError::new_err(format!("{}: is a directory", path.display()))
        }
        _ => PyOSError::new_err(format!("{}: {e}", path.display())),
    }
}

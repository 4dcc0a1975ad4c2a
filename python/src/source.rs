//! `Source`: the one owner of a file's bytes (a mapping, or a copy of `bytes`), and the read-only
//! NumPy arrays that borrow them.

use gamebin::MappedFile;
use numpy::ndarray::ArrayView1;
use numpy::{PyArray1, PyReadonlyArray1};
use pyo3::exceptions::{PyBufferError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyWeakrefReference};

use crate::errors::format_error;

/// The bytes of one file, mapped (or copied from `bytes`), shared by every view and array made
/// from it. Arrays keep it alive (it is their `base`); `close()` refuses while any still exists.
#[pyclass(module = "gamebin._gamebin")]
pub struct Source {
    /// `None` once closed.
    file: Option<MappedFile>,
    /// Weak references to the arrays and views handed out, so that `close()` can tell whether
    /// any of them still reads the bytes.
    exports: Vec<Py<PyWeakrefReference>>,
    /// Where the bytes came from, for messages.
    name: String,
}

impl Source {
    /// The bytes, or the error of a closed source.
    pub fn bytes(&self) -> PyResult<&[u8]> {
        match &self.file {
            Some(file) => Ok(file.bytes()),
            None => Err(PyValueError::new_err(format!(
                "{}: the source is closed",
                self.name
            ))),
        }
    }

    /// A source owning `bytes`, named `name` (for messages, and for detection by name).
    pub fn from_vec(bytes: Vec<u8>, name: String) -> Source {
        Source {
            file: Some(MappedFile::from_vec(bytes)),
            exports: Vec::new(),
            name,
        }
    }

    /// Remembers `object` as a user of the bytes (see `close`).
    pub fn track(&mut self, object: &Bound<'_, PyAny>) -> PyResult<()> {
        // Dead references are dropped now and then, so that the list stays as long as the live
        // exports (amortised: only when it has doubled since the last sweep).
        if self.exports.len() >= 64 && self.exports.len().is_power_of_two() {
            let py = object.py();
            self.exports.retain(|w| w.bind(py).upgrade().is_some());
        }
        self.exports.push(PyWeakrefReference::new(object)?.unbind());
        Ok(())
    }

    fn live_exports(&self, py: Python<'_>) -> usize {
        self.exports
            .iter()
            .filter(|w| w.bind(py).upgrade().is_some())
            .count()
    }
}

/// A read-only `uint8` array over `bytes[offset..offset + len]` of `source`, whose base is the
/// source object (so the bytes outlive every array over them).
pub fn bytes_array<'py>(
    source: &Bound<'py, Source>,
    offset: usize,
    len: usize,
) -> PyResult<Bound<'py, PyArray1<u8>>> {
    let py = source.py();
    let array = {
        let this = source.borrow();
        let bytes = this.bytes()?;
        let end = offset.checked_add(len).filter(|&end| end <= bytes.len());
        let Some(slice) = end.and_then(|end| bytes.get(offset..end)) else {
            return Err(format_error(
                py,
                offset as u64,
                "array",
                &format!(
                    "range {offset:#x}+{len:#x} is outside the file (size {:#x})",
                    bytes.len()
                ),
            ));
        };
        let view = ArrayView1::from(slice);
        // SAFETY: the array points into the source's bytes, which live as long as the source
        // object: a mapping or a Vec that is never resized, moved out or dropped before the
        // object (`close` refuses while this array is alive, and the array holds a reference to
        // the source as its base, so the object is not freed first). The array is made
        // read-only below before Python sees it, so nothing writes through the shared bytes.
        unsafe { PyArray1::<u8>::borrow_from_array(&view, source.clone().into_any()) }
    };
    let kwargs = PyDict::new(py);
    kwargs.set_item("write", false)?;
    array.call_method("setflags", (), Some(&kwargs))?;
    source.borrow_mut().track(array.as_any())?;
    Ok(array)
}

#[pymethods]
impl Source {
    /// Maps the file at `path` (read-only). The file must not be truncated or changed while it is
    /// mapped (another process doing so can kill the interpreter with SIGBUS); use `read=True`
    /// to read it into memory instead.
    #[new]
    #[pyo3(signature = (path, read = false))]
    fn new(path: std::path::PathBuf, read: bool) -> PyResult<Self> {
        let file = if read {
            MappedFile::read(&path)
        } else {
            MappedFile::open(&path)
        }
        .map_err(|e| crate::errors::io_error(&path, e))?;
        Ok(Source {
            file: Some(file),
            exports: Vec::new(),
            name: path.display().to_string(),
        })
    }

    /// Copies `data` into a source that owns it: a `bytes`, or a contiguous one-dimensional
    /// `uint8` NumPy array (what Python lays over a `bytearray` or `memoryview` without copying,
    /// so that their bytes too are copied once, here).
    #[staticmethod]
    #[pyo3(signature = (data, name = "<bytes>".to_string()))]
    fn from_bytes(data: &Bound<'_, PyAny>, name: String) -> PyResult<Self> {
        let owned = if let Ok(bytes) = data.cast::<PyBytes>() {
            bytes.as_bytes().to_vec()
        } else if let Ok(array) = data.extract::<PyReadonlyArray1<'_, u8>>() {
            let slice = array.as_slice().map_err(|_| {
                PyTypeError::new_err("from_bytes: the uint8 array is not contiguous")
            })?;
            slice.to_vec()
        } else {
            return Err(PyTypeError::new_err(format!(
                "from_bytes: expected bytes or a uint8 array, not {}",
                data.get_type().name()?
            )));
        };
        Ok(Source {
            file: Some(MappedFile::from_vec(owned)),
            exports: Vec::new(),
            name,
        })
    }

    /// Where the bytes came from (a path, or `<bytes>`).
    #[getter]
    fn name(&self) -> &str {
        &self.name
    }

    /// Whether `close()` was called.
    #[getter]
    fn closed(&self) -> bool {
        self.file.is_none()
    }

    /// Whether the bytes are a mapping of the file (not a copy in memory).
    #[getter]
    fn is_mapped(&self) -> bool {
        self.file.as_ref().is_some_and(MappedFile::is_mapped)
    }

    /// The format detected from the content (`"wows-geometry"`, ...), or `None`.
    fn format(&self) -> PyResult<Option<&'static str>> {
        Ok(gamebin::detect(self.bytes()?).map(gamebin::Format::name))
    }

    /// The format `gamebin.open` reads the bytes as: detected from the content, and when content
    /// says nothing, from the source's name ([`gamebin::detect_file`]: a file named `.geometry`,
    /// `.wdb`, ... is opened as that format through `AnyView`). `None` when neither says
    /// anything; `FormatError` with the reader's offset and field when the name says a format the
    /// bytes do not read as (a truncated or damaged file). `ignore_signature` opens a `.wwd`
    /// level whose header signature is damaged.
    #[pyo3(signature = (ignore_signature = false))]
    fn detect(&self, py: Python<'_>, ignore_signature: bool) -> PyResult<Option<&'static str>> {
        let bytes = self.bytes()?;
        let mut scratch = if ignore_signature {
            gamebin::Scratch::ignoring_signatures()
        } else {
            gamebin::Scratch::new()
        };
        match gamebin::detect_file(std::path::Path::new(&self.name), bytes, true, &mut scratch) {
            Ok(format) => Ok(format.map(gamebin::Format::name)),
            Err(e) => {
                let message = match &e.error {
                    Some(cause) => format!("{}: {e}: {cause}", self.name),
                    None => format!("{}: {e}", self.name),
                };
                let (offset, field) = e
                    .error
                    .map_or((0, "format"), |read| (read.offset(), read.what()));
                Err(format_error(py, offset, field, &message))
            }
        }
    }

    /// Why bytes no format recognises are not read, in the CLI's words (the library's one rule,
    /// [`gamebin::ParseError::unrecognised`]): `"empty (0 bytes): there is nothing to read"`, or
    /// `"not a format gamebin reads (formats are detected by content)"`.
    fn unrecognised(&self) -> PyResult<String> {
        Ok(gamebin::ParseError::unrecognised(self.bytes()?).to_string())
    }

    fn __len__(&self) -> PyResult<usize> {
        Ok(self.bytes()?.len())
    }

    /// A read-only `uint8` array over `len` bytes at `offset`, borrowing the source.
    fn array<'py>(
        slf: &Bound<'py, Self>,
        offset: usize,
        len: usize,
    ) -> PyResult<Bound<'py, PyArray1<u8>>> {
        bytes_array(slf, offset, len)
    }

    /// Records `view` as a user of the bytes: `close()` refuses while it is alive.
    fn track_view(&mut self, view: &Bound<'_, PyAny>) -> PyResult<()> {
        self.track(view)
    }

    /// Number of arrays and views over the bytes that are still alive.
    fn exports(&self, py: Python<'_>) -> usize {
        self.live_exports(py)
    }

    /// Unmaps (or frees) the bytes. An error while an array or view made from them is alive:
    /// delete those first.
    fn close(&mut self, py: Python<'_>) -> PyResult<()> {
        let live = self.live_exports(py);
        if live > 0 {
            return Err(PyBufferError::new_err(format!(
                "{}: cannot close: {live} array(s) or view(s) still use its bytes",
                self.name
            )));
        }
        self.exports.clear();
        self.file = None;
        Ok(())
    }

    fn __repr__(&self) -> String {
        let state = match &self.file {
            None => "closed".to_string(),
            Some(f) if f.is_mapped() => format!("{} bytes mapped", f.bytes().len()),
            Some(f) => format!("{} bytes in memory", f.bytes().len()),
        };
        format!("<gamebin.Source {:?}: {state}>", self.name)
    }
}

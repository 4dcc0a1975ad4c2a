//! A World of Warships install (`.idx` indexes and `.pkg` volumes) from Python: `Install` opens a
//! game folder, an idx folder with its volume folder, or indexes and volumes in memory; lists its
//! files, reads them (as `bytes`, as a read-only array borrowing the volume when stored, or as a
//! `Source` that `gamebin.open` reads). `write_pfs` is the writer, for tests.

use std::path::PathBuf;

use gamebin::diff::ChangeKind;
use gamebin::wows::pfs::{
    BlobReader, Compression, FileState, GameInstall, IdxLayout, InstallDiff, InstallDiffError,
    InstallError, InstallFile, Mapping, PfsWriter, Selection,
};
use numpy::ndarray::ArrayView1;
use numpy::{IntoPyArray, PyArray1};
use pyo3::exceptions::{PyBufferError, PyFileNotFoundError, PyKeyError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyTuple, PyWeakrefReference};

use crate::errors::{format_error, io_error};
use crate::source::Source;

/// An install error as a Python exception naming the file: an index or file that does not read
/// is a `FormatError` (`.offset`, `.field`, and `.path`: the file in the install or the index;
/// `.volume` for a blob), a missing folder, index set or volume an `OSError` subclass.
pub fn install_error(py: Python<'_>, e: InstallError) -> PyErr {
    let message = e.to_string();
    let with = |err: PyErr, attrs: &[(&str, String)]| {
        let value = err.value(py);
        for (name, v) in attrs {
            // Setting an attribute on a fresh exception instance cannot fail short of memory
            // exhaustion; the error is still raised without it if it does.
            let _ = value.setattr(*name, v);
        }
        err
    };
    match e {
        InstallError::Io { path, error } => io_error(&path, error),
        InstallError::NoIndexes { .. } => PyFileNotFoundError::new_err(message),
        InstallError::Index { path, error } => with(
            format_error(py, error.offset(), error.what(), &message),
            &[("path", path.display().to_string())],
        ),
        InstallError::Entry { path, error } => with(
            format_error(py, error.offset(), error.what(), &message),
            &[("path", path)],
        ),
        InstallError::Blob {
            path,
            volume,
            error,
        } => with(
            format_error(py, error.offset(), error.what(), &message),
            &[("path", path), ("volume", volume.display().to_string())],
        ),
        InstallError::Volume {
            path,
            volume,
            error: Some(error),
        } => {
            let err = match error.kind() {
                std::io::ErrorKind::NotFound => PyFileNotFoundError::new_err(message),
                std::io::ErrorKind::PermissionDenied => {
                    pyo3::exceptions::PyPermissionError::new_err(message)
                }
                _ => pyo3::exceptions::PyOSError::new_err(message),
            };
            with(err, &[("path", path), ("volume", volume)])
        }
        InstallError::Volume {
            path,
            volume,
            error: None,
        } => with(
            format_error(py, 0, "FileRecord.volumeId", &message),
            &[("path", path), ("volume", volume)],
        ),
        InstallError::NoRoot { .. } => format_error(py, 0, "NameRecord.parentId", &message),
        // A kind added to the library later: its message, as a FormatError.
        _ => format_error(py, 0, "install", &message),
    }
}

/// The native half of `gamebin.Install`: the library's `GameInstall`, and weak references to the
/// arrays that borrow its volumes (so that `close()` can refuse while one is alive).
#[pyclass(module = "gamebin._gamebin", name = "Install")]
pub struct NativeInstall {
    /// `None` once closed.
    install: Option<GameInstall>,
    exports: Vec<Py<PyWeakrefReference>>,
    /// What was opened, for messages.
    name: String,
}

/// A file's listing: (path, size, stored size, compression, CRC-32).
type Listing = (String, u32, u32, &'static str, u32);

fn listing(path: &str, file: &InstallFile<'_>) -> Listing {
    (
        path.to_owned(),
        file.file.unpacked_size,
        file.file.size,
        file.file.compression.as_str(),
        file.file.crc32,
    )
}

impl NativeInstall {
    fn new(install: GameInstall, name: String) -> NativeInstall {
        NativeInstall {
            install: Some(install),
            exports: Vec::new(),
            name,
        }
    }

    fn install(&self) -> PyResult<&GameInstall> {
        self.install
            .as_ref()
            .ok_or_else(|| PyValueError::new_err(format!("{}: the install is closed", self.name)))
    }

    /// The file at `path`, or a `KeyError` naming it (and saying when it is a folder).
    fn file<'i>(
        &self,
        py: Python<'_>,
        install: &'i GameInstall,
        path: &str,
    ) -> PyResult<InstallFile<'i>> {
        match install.find(path) {
            Ok(Some(file)) => Ok(file),
            Ok(None) => {
                let mut folder = false;
                let mut buffer = String::new();
                install.for_each_file(&Selection::parse(path), &mut buffer, |_, file| {
                    folder = file.is_ok();
                    !folder
                });
                let what = if folder {
                    "a folder, not a file"
                } else {
                    "no such file"
                };
                Err(PyKeyError::new_err(format!(
                    "{path}: {what} in {}",
                    self.name
                )))
            }
            Err(e) => Err(install_error(py, e)),
        }
    }

    fn live_exports(&self, py: Python<'_>) -> usize {
        self.exports
            .iter()
            .filter(|w| w.bind(py).upgrade().is_some())
            .count()
    }

    fn track(&mut self, object: &Bound<'_, PyAny>) -> PyResult<()> {
        if self.exports.len() >= 64 && self.exports.len().is_power_of_two() {
            let py = object.py();
            self.exports.retain(|w| w.bind(py).upgrade().is_some());
        }
        self.exports.push(PyWeakrefReference::new(object)?.unbind());
        Ok(())
    }
}

/// The bytes of `file`: borrowed from its volume when stored, inflated into `buffer` (with the
/// GIL released, so other threads run meanwhile) when compressed.
fn read_file<'v>(
    py: Python<'_>,
    install: &'v GameInstall,
    file: &InstallFile<'_>,
    path: &str,
    buffer: &'v mut Vec<u8>,
) -> PyResult<&'v [u8]> {
    let mut reader = BlobReader::new();
    if file.file.compression == Compression::Stored {
        return install
            .read(file, path, &mut reader, buffer)
            .map_err(|e| install_error(py, e));
    }
    let len = py
        .detach(|| {
            install
                .read(file, path, &mut reader, buffer)
                .map(<[u8]>::len)
        })
        .map_err(|e| install_error(py, e))?;
    buffer.truncate(len);
    Ok(buffer)
}

fn mapping(read: bool) -> Mapping {
    if read { Mapping::Read } else { Mapping::Map }
}

fn read_only(array: &Bound<'_, PyAny>) -> PyResult<()> {
    let kwargs = PyDict::new(array.py());
    kwargs.set_item("write", false)?;
    array.call_method("setflags", (), Some(&kwargs))?;
    Ok(())
}

#[pymethods]
impl NativeInstall {
    /// Opens the game folder `game`: the newest `bin/<build>/idx/` (or `build`'s, an older
    /// build whose indexes the game keeps) and the volumes in `res_packages/` (mapped when
    /// first read; `read=True` reads them into memory instead). Indexes and volumes must not be
    /// truncated or changed while they are mapped.
    #[staticmethod]
    #[pyo3(signature = (game, read = false, build = None))]
    fn open(py: Python<'_>, game: PathBuf, read: bool, build: Option<u64>) -> PyResult<Self> {
        let install = py
            .detach(|| match build {
                Some(build) => GameInstall::open_build(&game, build, mapping(read)),
                None => GameInstall::open(&game, mapping(read)),
            })
            .map_err(|e| install_error(py, e))?;
        let name = match build {
            Some(build) => format!("{}@{build}", game.display()),
            None => game.display().to_string(),
        };
        Ok(NativeInstall::new(install, name))
    }

    /// The builds of the game folder `game` whose indexes it keeps (`bin/<build>/idx/`), oldest
    /// first.
    #[staticmethod]
    fn builds(py: Python<'_>, game: PathBuf) -> PyResult<Vec<u64>> {
        py.detach(|| GameInstall::builds(&game))
            .map_err(|e| install_error(py, e))
    }

    /// Opens the `.idx` files of `idx_dir` with the volumes of `volume_dir`.
    #[staticmethod]
    #[pyo3(signature = (idx_dir, volume_dir, read = false))]
    fn open_dirs(
        py: Python<'_>,
        idx_dir: PathBuf,
        volume_dir: PathBuf,
        read: bool,
    ) -> PyResult<Self> {
        let install = py
            .detach(|| GameInstall::open_dirs(&idx_dir, &volume_dir, mapping(read)))
            .map_err(|e| install_error(py, e))?;
        Ok(NativeInstall::new(install, idx_dir.display().to_string()))
    }

    /// An install of indexes and volumes given as `(file name, bytes)` pairs (copied).
    #[staticmethod]
    fn from_memory(
        py: Python<'_>,
        indexes: Vec<(String, Vec<u8>)>,
        volumes: Vec<(String, Vec<u8>)>,
    ) -> PyResult<Self> {
        let install = py
            .detach(|| GameInstall::from_memory(indexes, volumes))
            .map_err(|e| install_error(py, e))?;
        Ok(NativeInstall::new(install, "<memory>".to_string()))
    }

    /// What was opened (the game folder, the idx folder, or `<memory>`).
    #[getter]
    fn name(&self) -> &str {
        &self.name
    }

    /// Whether `close()` was called.
    #[getter]
    fn closed(&self) -> bool {
        self.install.is_none()
    }

    /// How many files the install holds.
    #[getter]
    fn file_count(&self) -> PyResult<usize> {
        Ok(self.install()?.file_count())
    }

    /// How many distinct names (folders and files) the install holds.
    #[getter]
    fn entry_count(&self) -> PyResult<usize> {
        Ok(self.install()?.entry_count())
    }

    /// The index files, in the order they were read.
    fn index_paths(&self) -> PyResult<Vec<String>> {
        Ok(self
            .install()?
            .index_paths()
            .map(|p| p.display().to_string())
            .collect())
    }

    /// The indexes left out because they do not read: each one's message (the `.idx` file, and
    /// where and why it fails). Their files are not in the install.
    fn damaged(&self) -> PyResult<Vec<String>> {
        Ok(self
            .install()?
            .damaged()
            .iter()
            .map(ToString::to_string)
            .collect())
    }

    /// Ids two indexes give to different records: `(id, kept index, dropped index)`.
    fn conflicts(&self) -> PyResult<Vec<(u64, String, String)>> {
        Ok(self
            .install()?
            .conflicts()
            .iter()
            .map(|c| {
                (
                    c.id,
                    c.kept.display().to_string(),
                    c.dropped.display().to_string(),
                )
            })
            .collect())
    }

    /// Every file the selection names (`None`: all; a prefix of whole segments, or a glob with
    /// `*`, `?`, `**`, as `gamebin pfs ls`), in the install's order: `(path, size, stored size,
    /// compression, crc32)`. A record that does not read raises its error.
    #[pyo3(signature = (selection = None))]
    fn ls(&self, py: Python<'_>, selection: Option<&str>) -> PyResult<Vec<Listing>> {
        let install = self.install()?;
        let selection = selection.map_or(Selection::All, Selection::parse);
        let mut out = Vec::new();
        let mut failed = None;
        let mut buffer = String::new();
        install.for_each_file(&selection, &mut buffer, |path, file| match file {
            Ok(file) => {
                out.push(listing(path, &file));
                true
            }
            Err(e) => {
                failed = Some(e);
                false
            }
        });
        match failed {
            Some(e) => Err(install_error(py, e)),
            None => Ok(out),
        }
    }

    /// The listing of the file at `path` (as `ls` gives it), or `None`.
    fn stat(&self, py: Python<'_>, path: &str) -> PyResult<Option<Listing>> {
        let install = self.install()?;
        match install.find(path) {
            Ok(Some(file)) => Ok(Some(listing(path, &file))),
            Ok(None) => Ok(None),
            Err(e) => Err(install_error(py, e)),
        }
    }

    /// Whether `path` is a file of the install.
    fn __contains__(&self, py: Python<'_>, path: &str) -> PyResult<bool> {
        Ok(self.stat(py, path)?.is_some())
    }

    /// The bytes of the file at `path` (a copy), sizes, trailer and CRC-32 checked. `KeyError`
    /// when there is no such file.
    fn read<'py>(&self, py: Python<'py>, path: &str) -> PyResult<Bound<'py, PyBytes>> {
        let install = self.install()?;
        let file = self.file(py, install, path)?;
        let mut buffer = Vec::new();
        let bytes = read_file(py, install, &file, path, &mut buffer)?;
        Ok(PyBytes::new(py, bytes))
    }

    /// The bytes of the file at `path` as a read-only `uint8` array: borrowed from the volume
    /// (no copy) when stored, the inflated bytes when deflated. A borrowing array keeps the
    /// install alive, and `close()` refuses while one exists.
    fn view<'py>(slf: &Bound<'py, Self>, path: &str) -> PyResult<Bound<'py, PyAny>> {
        let py = slf.py();
        let (array, borrowed) = {
            let this = slf.borrow();
            let install = this.install()?;
            let file = this.file(py, install, path)?;
            let mut buffer = Vec::new();
            let bytes = read_file(py, install, &file, path, &mut buffer)?;
            if file.file.compression == Compression::Stored {
                let view = ArrayView1::from(bytes);
                // SAFETY: a stored file's bytes are a slice of its volume's mapping (or of the
                // Vec a volume read into memory), owned by the `GameInstall` in this object and
                // never moved, resized or dropped before it: the volume is kept for the
                // install's life once loaded, `close()` (the only place the install is dropped
                // before the object) refuses while this array is alive, and the array holds a
                // reference to this object as its base, so the object is not freed first. The
                // array is made read-only below before Python sees it.
                let array =
                    unsafe { PyArray1::<u8>::borrow_from_array(&view, slf.clone().into_any()) };
                (array.into_any(), true)
            } else {
                // Inflated into `buffer`, which the array takes over (no copy).
                let len = bytes.len();
                buffer.truncate(len);
                (buffer.into_pyarray(py).into_any(), false)
            }
        };
        read_only(&array)?;
        if borrowed {
            slf.borrow_mut().track(&array)?;
        }
        Ok(array)
    }

    /// The file at `path` as a `Source` owning its bytes (one copy for a stored file, none more
    /// for a deflated one), named by the path so that `gamebin.open` can also go by its name.
    fn source(&self, py: Python<'_>, path: &str) -> PyResult<Source> {
        let install = self.install()?;
        let file = self.file(py, install, path)?;
        let mut buffer = Vec::new();
        let stored = file.file.compression == Compression::Stored;
        let (copy, len) = {
            let bytes = read_file(py, install, &file, path, &mut buffer)?;
            // A stored file is a slice of the volume: copied out; an inflated one is `buffer`.
            (stored.then(|| bytes.to_vec()), bytes.len())
        };
        let owned = match copy {
            Some(copy) => copy,
            None => {
                buffer.truncate(len);
                buffer
            }
        };
        Ok(Source::from_vec(owned, path.to_string()))
    }

    /// Number of arrays still borrowing the install's volumes.
    fn exports(&self, py: Python<'_>) -> usize {
        self.live_exports(py)
    }

    /// Unmaps the indexes and volumes. `BufferError` while an array from `view()` still borrows
    /// a volume.
    fn close(&mut self, py: Python<'_>) -> PyResult<()> {
        let live = self.live_exports(py);
        if live > 0 {
            return Err(PyBufferError::new_err(format!(
                "{}: cannot close: {live} array(s) still use its volumes",
                self.name
            )));
        }
        self.exports.clear();
        self.install = None;
        Ok(())
    }

    fn __repr__(&self) -> String {
        match &self.install {
            None => format!("<gamebin.Install {:?}: closed>", self.name),
            Some(i) => format!(
                "<gamebin.Install {:?}: {} files>",
                self.name,
                i.file_count()
            ),
        }
    }
}

/// What `write_pfs` returns: the index, and each volume by name.
type WrittenArchive<'py> = (Bound<'py, PyBytes>, Vec<(String, Bound<'py, PyBytes>)>);

/// Writes one index and its volumes from `files`: tuples `(path, data, compression)` or
/// `(path, data, compression, volume)`, compression `"stored"`, `"deflate"` or `"oodle"` (the
/// data written as given under the Oodle words, for tests of what the reader refuses); a volume
/// name other than the current one starts a new volume (the first is `volume`). `layout` is
/// `"current"` or `"legacy"`. Returns `(idx bytes, [(volume name, bytes)])`.
/// One change between two installs: (sign, path, before, after), each state `(size, crc32)`.
type DiffLine = (&'static str, String, Option<(u32, u32)>, Option<(u32, u32)>);

/// What changed between the installs `old` and `new`, from their indexes alone: every file
/// added (`"+"`), removed (`"-"`) or changed (`"~"`: its unpacked size or CRC-32), in path
/// order, each `(sign, path, before, after)` with `before`/`after` `(size, crc32)` or `None`.
/// The list is made with the GIL released; the Python side yields from it.
///
/// An install with a damaged index is a `FormatError` naming the install and the index; two
/// installs that share no file a `ValueError`.
#[pyfunction]
pub fn diff_installs(
    py: Python<'_>,
    old: PyRef<'_, NativeInstall>,
    new: PyRef<'_, NativeInstall>,
) -> PyResult<Vec<DiffLine>> {
    let (a, b) = (old.install()?, new.install()?);
    let state = |s: Option<FileState>| s.map(|s| (s.size, s.crc32));
    let lines = py.detach(|| -> Result<Vec<DiffLine>, InstallDiffError> {
        let diff = InstallDiff::new(a, b)?;
        Ok(diff
            .changes()
            .map(|c| {
                let sign = match c.kind {
                    ChangeKind::Added => "+",
                    ChangeKind::Removed => "-",
                    ChangeKind::Changed => "~",
                };
                (sign, c.path.to_string(), state(c.before), state(c.after))
            })
            .collect())
    });
    lines.map_err(|e| {
        let name = match &e {
            InstallDiffError::Damaged { side, .. } | InstallDiffError::Entry { side, .. } => {
                match side {
                    gamebin::wows::pfs::DiffSide::Old => old.name.clone(),
                    _ => new.name.clone(),
                }
            }
            _ => format!("{} and {}", old.name, new.name),
        };
        let message = format!("{name}: {e}");
        match e {
            InstallDiffError::NoCommonFile { .. } => PyValueError::new_err(message),
            _ => format_error(py, 0, "install", &message),
        }
    })
}

#[pyfunction]
#[pyo3(signature = (files, volume = "data_0001.pkg", layout = "current", level = 6))]
pub fn write_pfs<'py>(
    py: Python<'py>,
    files: Vec<Bound<'py, PyTuple>>,
    volume: &str,
    layout: &str,
    level: u32,
) -> PyResult<WrittenArchive<'py>> {
    let layout = match layout {
        "current" => IdxLayout::Current,
        "legacy" => IdxLayout::Legacy,
        other => {
            return Err(PyValueError::new_err(format!(
                "layout must be \"current\" or \"legacy\", not {other:?}"
            )));
        }
    };
    let mut writer = PfsWriter::new(volume).with_layout(layout).with_level(level);
    let mut current = volume.to_owned();
    for item in &files {
        if !(3..=4).contains(&item.len()) {
            return Err(PyTypeError::new_err(
                "each file is (path, data, compression) or (path, data, compression, volume)",
            ));
        }
        let path: String = item.get_item(0)?.extract()?;
        let data: Vec<u8> = item.get_item(1)?.extract()?;
        let compression: String = item.get_item(2)?.extract()?;
        if item.len() == 4 {
            let name: String = item.get_item(3)?.extract()?;
            if name != current {
                writer.add_volume(&name);
                current = name;
            }
        }
        let written = match compression.as_str() {
            "stored" => writer.add(&path, &data, Compression::Stored),
            "deflate" => writer.add(&path, &data, Compression::Deflate),
            "oodle" => {
                let size = u32::try_from(data.len())
                    .map_err(|_| PyValueError::new_err(format!("{path}: more than 4 GiB")))?;
                writer.add_blob(&path, &data, Compression::OodleStream { flag: 0 }, 0, size)
            }
            other => {
                return Err(PyValueError::new_err(format!(
                    "{path}: compression must be \"stored\", \"deflate\" or \"oodle\", not {other:?}"
                )));
            }
        };
        written.map_err(|e| crate::errors::write_error_to_py(py, e))?;
    }
    let archive = writer
        .finish()
        .map_err(|e| crate::errors::write_error_to_py(py, e))?;
    let volumes = archive
        .volumes
        .into_iter()
        .map(|(name, bytes)| (name, PyBytes::new(py, &bytes)))
        .collect();
    Ok((PyBytes::new(py, &archive.idx), volumes))
}

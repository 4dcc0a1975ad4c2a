//! DDS textures: the summary and where each level lies (for zero-copy arrays of the stored
//! bytes), and one level decoded into a new read-only RGBA8 array.

use gamebin::View;
use gamebin::dds::DdsView;
use numpy::PyArray3;
use numpy::ndarray::Array3;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use crate::errors::{OrRaise, format_error};
use crate::source::Source;

/// The texture: `info` (the summary `gamebin info --json` prints) and `levels`, each with
/// `slice`, `mip`, `width`, `height`, `depth`, `offset` and `size` of its stored bytes.
#[pyfunction]
pub fn dds_texture<'py>(source: &Bound<'py, Source>) -> PyResult<Bound<'py, PyDict>> {
    let py = source.py();
    let this = source.borrow();
    let view = DdsView::from_bytes(this.bytes()?).or_raise(py)?;
    let summary = View::summary(&view).map_err(|e| format_error(py, 0, "DDS", &e.to_string()))?;
    let info = PyDict::new(py);
    info.set_item("format", &summary.format)?;
    info.set_item("srgb", summary.srgb)?;
    info.set_item("dx10", summary.dx10)?;
    info.set_item("width", summary.width)?;
    info.set_item("height", summary.height)?;
    info.set_item("depth", summary.depth)?;
    info.set_item("mips", summary.mips)?;
    info.set_item("slices", summary.slices)?;
    info.set_item("cube", summary.cube)?;
    info.set_item("data_bytes", summary.data_bytes)?;
    info.set_item("trailing_bytes", summary.trailing_bytes)?;
    let levels = PyList::empty(py);
    for level in view.levels() {
        let entry = PyDict::new(py);
        entry.set_item("slice", level.slice)?;
        entry.set_item("mip", level.mip)?;
        entry.set_item("width", level.width)?;
        entry.set_item("height", level.height)?;
        entry.set_item("depth", level.depth)?;
        entry.set_item("offset", level.offset)?;
        entry.set_item("size", level.data.len())?;
        levels.append(entry)?;
    }
    let out = PyDict::new(py);
    out.set_item("info", info)?;
    out.set_item("levels", levels)?;
    Ok(out)
}

/// Level `mip` of slice `slice` decoded to RGBA8: a new read-only `uint8` array of shape
/// `(height × depth, width, 4)`. `IndexError` for a level the texture does not have.
#[pyfunction]
#[pyo3(signature = (source, mip = 0, slice = 0))]
pub fn dds_decode<'py>(
    source: &Bound<'py, Source>,
    mip: u32,
    slice: u32,
) -> PyResult<Bound<'py, PyArray3<u8>>> {
    let py = source.py();
    let pixels = {
        let this = source.borrow();
        let view = DdsView::from_bytes(this.bytes()?).or_raise(py)?;
        let level = view.level(slice, mip).ok_or_else(|| {
            pyo3::exceptions::PyIndexError::new_err(format!(
                "no slice {slice} mip {mip}: the texture has {} slice(s) and {} mip level(s)",
                view.slice_count(),
                view.mip_count()
            ))
        })?;
        let len = level.rgba8_len().ok_or_else(|| {
            format_error(py, level.offset as u64, "DDS level", "the decoded level does not fit in memory")
        })?;
        let mut rgba = vec![0u8; len];
        level.decode_rgba8(&mut rgba).or_raise(py)?;
        let rows = level.height as usize * level.depth as usize;
        Array3::from_shape_vec((rows, level.width as usize, 4), rgba)
            .map_err(|e| format_error(py, level.offset as u64, "DDS level", &e.to_string()))?
    };
    let array = PyArray3::from_owned_array(py, pixels);
    let kwargs = PyDict::new(py);
    kwargs.set_item("write", false)?;
    array.call_method("setflags", (), Some(&kwargs))?;
    Ok(array)
}

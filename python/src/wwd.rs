//! `.wwd`: the level as the library's owned model (its serde form, what `gamebin dump --json`
//! prints), and where each plane's tile grid lies (or the grid itself when the main block had to
//! be inflated).

use gamebin::wwd::model::WwdModel;
use gamebin::wwd::{Inflater, Options, WwdView, text_lossy};
use numpy::PyArray2;
use numpy::ndarray::Array2;
use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList};

use crate::errors::OrRaise;
use crate::source::Source;

/// 8-bit code-page text as `str`, decoded as the library decodes it for display (Windows-1250).
fn text(s: &[u8]) -> String {
    text_lossy(s).into_owned()
}

/// A text of the model as `dump --json` writes it (`%XX` for `%`, control bytes and bytes
/// Windows-1250 leaves undefined, so that it gives back the stored bytes) as the text Python shows:
/// the stored bytes up to the first NUL (as a fixed-size name field ends), decoded as the library
/// decodes text for display. Python users get the level's text, not the lossless transport form.
#[pyfunction]
pub fn wwd_text(escaped: &str) -> PyResult<String> {
    let bytes = gamebin::wwd::unescape(escaped)
        .map_err(|why| pyo3::exceptions::PyValueError::new_err(format!("{escaped:?}: {why}")))?;
    Ok(text_lossy(gamebin::wwd::fixed(&bytes)).into_owned())
}

/// The level: `model`, the JSON text of `[header, planes]` of the owned model with the planes'
/// tiles left out; `compressed`, `signature_ok`; and per plane in `grids` its `shape`
/// `(tiles_high, tiles_wide)` and `tiles_offset` (the grid's offset in the file, for a zero-copy
/// array) or `tiles` (a copied read-only `uint32` array, for a compressed level whose grid lives
/// in the inflated block). `ignore_signature` reads a level whose header signature is not 0x5F4.
#[pyfunction]
#[pyo3(signature = (source, ignore_signature = false))]
pub fn wwd_level<'py>(
    source: &Bound<'py, Source>,
    ignore_signature: bool,
) -> PyResult<Bound<'py, PyDict>> {
    let py = source.py();
    let this = source.borrow();
    let bytes = this.bytes()?;
    let mut inflated = Vec::new();
    let view = WwdView::from_bytes_with(
        bytes,
        &mut inflated,
        &mut Inflater::new(),
        Options { ignore_signature },
    )
    .or_raise(py)?;
    let mut model = WwdModel::from_view(&view).or_raise(py)?;
    let file = bytes.as_ptr_range();
    let grids = PyList::empty(py);
    for (plane, data) in view.planes().zip(&mut model.planes) {
        let tiles = plane.tiles().or_raise(py)?;
        let shape = (tiles.high(), tiles.wide());
        // Out of the model either way: a grid goes to Python as an array, not as JSON numbers.
        let values = std::mem::take(&mut data.tiles);
        let grid = PyDict::new(py);
        grid.set_item("shape", shape)?;
        let first = tiles.rows().next().map(|row| row.as_ptr().cast::<u8>());
        match first {
            Some(p) if file.contains(&p) => {
                grid.set_item("tiles_offset", (p as usize) - (file.start as usize))?;
            }
            _ => {
                // The grid is in the inflated main block (or empty): the model's copy, into NumPy.
                let array = Array2::from_shape_vec(shape, values).map_err(|e| {
                    crate::errors::format_error(py, 0, "PlaneHeader.tiles", &e.to_string())
                })?;
                // Read-only like every other array the package hands out (the zero-copy
                // grids of uncompressed levels are).
                let array = PyArray2::from_owned_array(py, array);
                let kwargs = PyDict::new(py);
                kwargs.set_item("write", false)?;
                array.call_method("setflags", (), Some(&kwargs))?;
                grid.set_item("tiles", array)?;
            }
        }
        grids.append(grid)?;
    }
    let listed = serde_json::to_string(&(&model.header, &model.planes))
        .map_err(|e| PyRuntimeError::new_err(e.to_string()))?;
    let out = PyDict::new(py);
    out.set_item("model", listed)?;
    out.set_item("compressed", view.is_compressed())?;
    out.set_item("signature_ok", view.signature_ok())?;
    out.set_item("grids", grids)?;
    Ok(out)
}

/// A rendered plane: width, height, RGB pixels and the optional PNG.
type Rendered<'py> = (
    usize,
    usize,
    Bound<'py, PyBytes>,
    Option<Bound<'py, PyBytes>>,
);

/// One plane drawn as the command line's `wwd render` draws it (`gamebin::wwd::export::render`): the
/// main plane, or the one named `plane`; `scale` pixels per tile (automatic when `None`),
/// cropped to the part in use unless `crop` is false. Returns `(width, height, rgb, png)`: the RGB
/// pixels row by row, and the same picture as PNG bytes when `png` is true (else `None`).
#[pyfunction]
#[pyo3(signature = (source, ignore_signature = false, plane = None, scale = None, crop = true, png = false))]
pub fn wwd_render<'py>(
    source: &Bound<'py, Source>,
    ignore_signature: bool,
    plane: Option<&str>,
    scale: Option<u32>,
    crop: bool,
    png: bool,
) -> PyResult<Rendered<'py>> {
    use gamebin::wwd::export::render::{RenderError, RenderOptions, render_plane};
    use pyo3::exceptions::{PyKeyError, PyValueError};
    let py = source.py();
    let this = source.borrow();
    let bytes = this.bytes()?;
    let mut inflated = Vec::new();
    let view = WwdView::from_bytes_with(
        bytes,
        &mut inflated,
        &mut Inflater::new(),
        Options { ignore_signature },
    )
    .or_raise(py)?;
    let chosen = match plane {
        Some(name) => view.plane_by_name(name.as_bytes()).ok_or_else(|| {
            let names: Vec<String> = view.planes().map(|p| text(p.name())).collect();
            PyKeyError::new_err(format!(
                "no plane named {name:?} (planes: {})",
                names.join(", ")
            ))
        })?,
        None => view
            .main_plane()
            .or_else(|| view.plane(0))
            .ok_or_else(|| PyValueError::new_err("the level has no planes"))?,
    };
    let options = RenderOptions { scale, crop };
    let picture = render_plane(&view, &chosen, &options).map_err(|e| match e {
        RenderError::Level(e) => crate::errors::to_py(py, e),
        too_large @ RenderError::TooLarge { .. } => {
            PyValueError::new_err(format!("{too_large}; pass a smaller scale"))
        }
    })?;
    let encoded = if png {
        let mut out = Vec::new();
        picture
            .write_png(&mut out)
            .map_err(|e| PyValueError::new_err(e.to_string()))?;
        Some(PyBytes::new(py, &out))
    } else {
        None
    };
    Ok((
        picture.width,
        picture.height,
        PyBytes::new(py, &picture.pixels),
        encoded,
    ))
}

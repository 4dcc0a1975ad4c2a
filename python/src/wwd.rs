//! `.wwd`: header strings, planes (where each tile grid lies, or the grid itself when the main
//! block had to be inflated) and objects.

use gamebin::wwd::{Inflater, Options, WwdView, text_lossy};
use numpy::PyArray2;
use numpy::ndarray::Array2;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList};

use crate::errors::OrRaise;
use crate::source::Source;

/// 8-bit code-page text as `str`, decoded as the library decodes it for display (Windows-1250).
fn text(s: &[u8]) -> String {
    text_lossy(s).into_owned()
}

/// The level: header strings, `compressed`, and per plane its fields, `tiles_offset` (the grid's
/// offset in the file, for a zero-copy array) or `tiles` (a copied `uint32` array, for a
/// compressed level whose grid lives in the inflated block), and its objects as dicts.
/// `ignore_signature` reads a level whose header signature is not 0x5F4.
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
    let out = PyDict::new(py);
    out.set_item("name", text(view.name()))?;
    out.set_item("author", text(view.author()))?;
    out.set_item("birth", text(view.birth()))?;
    out.set_item("rez_file", text(view.rez_file()))?;
    out.set_item("image_dir", text(view.image_dir()))?;
    out.set_item("pal_rez", text(view.pal_rez()))?;
    out.set_item("launch_app", text(view.launch_app()))?;
    out.set_item("compressed", view.is_compressed())?;
    out.set_item("start", view.start())?;
    out.set_item("signature_ok", view.signature_ok())?;
    let file = bytes.as_ptr_range();
    let planes = PyList::empty(py);
    for plane in view.planes() {
        let d = PyDict::new(py);
        d.set_item("name", text(plane.name()))?;
        d.set_item("flags", plane.flags().0)?;
        d.set_item("tile_width", plane.tile_width())?;
        d.set_item("tile_height", plane.tile_height())?;
        d.set_item("tiles_wide", plane.tiles_wide())?;
        d.set_item("tiles_high", plane.tiles_high())?;
        d.set_item("width_px", plane.width_px())?;
        d.set_item("height_px", plane.height_px())?;
        d.set_item("fill_color", plane.fill_color())?;
        d.set_item("z_coord", plane.z_coord())?;
        let tiles = plane.tiles().or_raise(py)?;
        let (wide, high) = (tiles.wide(), tiles.high());
        d.set_item("shape", (high, wide))?;
        let first = tiles.rows().next().map(|row| row.as_ptr().cast::<u8>());
        match first {
            Some(p) if file.contains(&p) => {
                d.set_item("tiles_offset", (p as usize) - (file.start as usize))?;
            }
            _ => {
                // The grid is in the inflated main block (or empty): one copy into NumPy.
                let values: Vec<u32> = tiles.values().collect();
                let grid = Array2::from_shape_vec((high, wide), values).map_err(|e| {
                    crate::errors::format_error(py, 0, "PlaneHeader.tiles", &e.to_string())
                })?;
                // Read-only like every other array the package hands out (the zero-copy
                // grids of uncompressed levels are).
                let array = PyArray2::from_owned_array(py, grid);
                let kwargs = PyDict::new(py);
                kwargs.set_item("write", false)?;
                array.call_method("setflags", (), Some(&kwargs))?;
                d.set_item("tiles", array)?;
            }
        }
        let image_sets = PyList::empty(py);
        for set in plane.image_sets() {
            image_sets.append(text(set.or_raise(py)?))?;
        }
        d.set_item("image_sets", image_sets)?;
        let objects = PyList::empty(py);
        for object in plane.objects().or_raise(py)? {
            let object = object.or_raise(py)?;
            let r = object.raw();
            let o = PyDict::new(py);
            o.set_item("id", object.id())?;
            o.set_item("name", text(object.name()))?;
            o.set_item("logic", text(object.logic()))?;
            o.set_item("image_set", text(object.image_set()))?;
            o.set_item("animation", text(object.animation()))?;
            o.set_item("x", r.location_x.get())?;
            o.set_item("y", r.location_y.get())?;
            o.set_item("z", r.location_z.get())?;
            o.set_item("i", r.location_i.get())?;
            o.set_item("flags_add", r.flags_add.get())?;
            o.set_item("flags_dynamic", r.flags_dynamic.get())?;
            o.set_item("flags_draw", r.flags_draw.get())?;
            o.set_item("flags_user", r.flags_user.get())?;
            o.set_item("score", r.score.get())?;
            o.set_item("points", r.points.get())?;
            o.set_item("powerup", r.powerup.get())?;
            o.set_item("damage", r.damage.get())?;
            o.set_item("smarts", r.smarts.get())?;
            o.set_item("health", r.health.get())?;
            o.set_item("user", r.user.map(|u| u.get()))?;
            objects.append(o)?;
        }
        d.set_item("objects", objects)?;
        planes.append(d)?;
    }
    out.set_item("planes", planes)?;
    Ok(out)
}

/// A rendered plane: width, height, RGB pixels and the optional PNG.
type Rendered<'py> = (
    usize,
    usize,
    Bound<'py, PyBytes>,
    Option<Bound<'py, PyBytes>>,
);

/// One plane drawn as the command line's `wwd render` draws it (`gamebin::wwd::render`): the
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
    use gamebin::wwd::render::{RenderError, RenderOptions, render_plane};
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

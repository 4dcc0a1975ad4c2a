//! `.geometry`: the layout of the buffers, draws and armor (where each lies in the file), and the
//! ENCD decoder into NumPy arrays. The arrays themselves are made in Python over `Source.array`.

use gamebin::wows::geometry::export::gltf::{GeometryGlbOptions, geometry_to_glb};
use gamebin::wows::geometry::{DecodedGeometry, GeometryView, VertexFormat};
use numpy::PyArray1;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use crate::errors::{OrRaise, format_error};
use crate::source::Source;

/// The byte offsets of the attributes a vertex format names, `{"position": 0, ...}`.
fn fields<'py>(py: Python<'py>, f: VertexFormat) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    for a in f.attributes() {
        d.set_item(a.name, a.offset)?;
    }
    Ok(d)
}

/// The NumPy structured dtype (as the dict `numpy.dtype` takes) of vertices of format
/// `format_name` stored `stride` bytes apart, as the library reads them: the attributes that fit
/// the stride, each at its offset with its stored components; other bytes stay unnamed.
#[pyfunction]
pub fn geometry_vertex_dtype<'py>(
    py: Python<'py>,
    format_name: &str,
    stride: usize,
) -> PyResult<Bound<'py, PyDict>> {
    let layout = VertexFormat::parse(format_name.as_bytes()).fitted_to(stride);
    let (names, formats, offsets) = (PyList::empty(py), PyList::empty(py), PyList::empty(py));
    for a in layout.attributes() {
        let kind = if a.float { 'f' } else { 'u' };
        // Bytes have no byte order; NumPy spells them without one.
        let order = if a.component_size > 1 { "<" } else { "" };
        let component = format!("{order}{kind}{}", a.component_size);
        names.append(a.name)?;
        formats.append((component, (a.components,)))?;
        offsets.append(a.offset)?;
    }
    let d = PyDict::new(py);
    d.set_item("names", names)?;
    d.set_item("formats", formats)?;
    d.set_item("offsets", offsets)?;
    d.set_item("itemsize", stride)?;
    Ok(d)
}

/// Everything the Python `GeometryModel` needs to lay arrays over the file: per buffer its data
/// offset, size, stride, format and whether it is ENCD-encoded; the paired draws; the armor
/// nodes' vertex ranges.
#[pyfunction]
pub fn geometry_layout<'py>(source: &Bound<'py, Source>) -> PyResult<Bound<'py, PyDict>> {
    let py = source.py();
    let this = source.borrow();
    let bytes = this.bytes()?;
    let view = GeometryView::from_bytes(bytes).or_raise(py)?;
    let out = PyDict::new(py);

    let vertex_buffers = PyList::empty(py);
    for vb in view.vertex_buffers() {
        let d = PyDict::new(py);
        let format = vb.format().or_raise(py)?;
        d.set_item("offset", vb.offset())?;
        d.set_item("format_name", vb.format_name().or_raise(py)?)?;
        d.set_item("stride", vb.stride())?;
        d.set_item("skinned", vb.is_skinned())?;
        d.set_item("bumped", vb.is_bumped())?;
        d.set_item("data_offset", vb.data_offset().or_raise(py)?)?;
        d.set_item("size", vb.size_in_bytes())?;
        d.set_item("encoded", vb.is_encoded().or_raise(py)?)?;
        d.set_item("count", vb.vertex_count().or_raise(py)?)?;
        d.set_item("fields", fields(py, format)?)?;
        vertex_buffers.append(d)?;
    }
    out.set_item("vertex_buffers", vertex_buffers)?;

    let index_buffers = PyList::empty(py);
    for ib in view.index_buffers() {
        let d = PyDict::new(py);
        d.set_item("offset", ib.offset())?;
        d.set_item("index_size", ib.effective_index_size().or_raise(py)?)?;
        d.set_item("data_offset", ib.data_offset().or_raise(py)?)?;
        d.set_item("size", ib.size_in_bytes())?;
        d.set_item("encoded", ib.is_encoded().or_raise(py)?)?;
        d.set_item("count", ib.index_count().or_raise(py)?)?;
        index_buffers.append(d)?;
    }
    out.set_item("index_buffers", index_buffers)?;

    let draws = PyList::empty(py);
    for draw in view.draws().iter() {
        let d = PyDict::new(py);
        let (v, i) = (draw.vertices, draw.indices);
        d.set_item("vertices_id", v.id())?;
        d.set_item("indices_id", i.id())?;
        d.set_item("pairing", draw.pairing.name())?;
        // The MappingEntry records' file offsets: where a draw's errors point.
        d.set_item("vertex_mapping_offset", v.offset())?;
        d.set_item("index_mapping_offset", i.offset())?;
        d.set_item("vertex_buffer", v.buffer_index())?;
        d.set_item("vertex_offset", v.items_offset())?;
        d.set_item("vertex_count", v.items_count())?;
        d.set_item("index_buffer", i.buffer_index())?;
        d.set_item("index_offset", i.items_offset())?;
        d.set_item("index_count", i.items_count())?;
        draws.append(d)?;
    }
    out.set_item("draws", draws)?;

    let armor = PyList::empty(py);
    for model in view.armor_models() {
        let d = PyDict::new(py);
        d.set_item("name", model.name().or_raise(py)?)?;
        let payload = model.armor().or_raise(py)?;
        d.set_item("id", payload.id())?;
        let nodes = PyList::empty(py);
        for node in payload.nodes() {
            let node = node.or_raise(py)?;
            node.check().or_raise(py)?;
            let n = PyDict::new(py);
            n.set_item("offset", node.offset())?;
            n.set_item(
                "vertices_offset",
                (node.vertices().as_ptr() as usize).saturating_sub(bytes.as_ptr() as usize),
            )?;
            n.set_item("vertex_count", node.vertices().len())?;
            n.set_item("material_id", node.material_id())?;
            n.set_item("layer_index", node.layer_index())?;
            nodes.append(n)?;
        }
        d.set_item("nodes", nodes)?;
        armor.append(d)?;
    }
    out.set_item("armor", armor)?;
    Ok(out)
}

/// Vertex buffer `index` decoded (ENCD) or copied (raw) into a new `uint8` array of
/// `count × stride` bytes.
#[pyfunction]
pub fn geometry_decode_vertices<'py>(
    source: &Bound<'py, Source>,
    index: usize,
) -> PyResult<Bound<'py, PyArray1<u8>>> {
    let py = source.py();
    let this = source.borrow();
    let view = GeometryView::from_bytes(this.bytes()?).or_raise(py)?;
    let Some(vb) = view.vertex_buffer(index) else {
        return Err(format_error(
            py,
            0,
            "vertex_buffers",
            "no vertex buffer with this index",
        ));
    };
    let mut out = Vec::new();
    vb.decode_vertices_into_vec(&mut out).or_raise(py)?;
    Ok(PyArray1::from_vec(py, out))
}

/// Index buffer `index` decoded (ENCD) or copied (raw) into a new `uint16`/`uint32` array (the
/// buffer's own index size).
#[pyfunction]
pub fn geometry_decode_indices<'py>(
    source: &Bound<'py, Source>,
    index: usize,
) -> PyResult<Bound<'py, PyAny>> {
    let py = source.py();
    let this = source.borrow();
    let view = GeometryView::from_bytes(this.bytes()?).or_raise(py)?;
    let Some(ib) = view.index_buffer(index) else {
        return Err(format_error(
            py,
            0,
            "index_buffers",
            "no index buffer with this index",
        ));
    };
    if ib.effective_index_size().or_raise(py)? == 2 {
        let mut out = Vec::<u16>::new();
        ib.decode_indices_into_vec(&mut out).or_raise(py)?;
        Ok(PyArray1::from_vec(py, out).into_any())
    } else {
        let mut out = Vec::<u32>::new();
        ib.decode_indices_into_vec(&mut out).or_raise(py)?;
        Ok(PyArray1::from_vec(py, out).into_any())
    }
}

/// Writes the file as a GLB (every sound draw a mesh; armor too when `armor`); returns the
/// number of meshes and the messages of the draws left out.
#[pyfunction]
#[pyo3(signature = (source, path, armor = false))]
pub fn geometry_export_glb(
    source: &Bound<'_, Source>,
    path: std::path::PathBuf,
    armor: bool,
) -> PyResult<(usize, Vec<String>)> {
    let py = source.py();
    let this = source.borrow();
    let view = GeometryView::from_bytes(this.bytes()?).or_raise(py)?;
    let mut decoded = DecodedGeometry::new();
    decoded.decode(&view);
    let glb = geometry_to_glb(&view, &decoded, &GeometryGlbOptions { armor }).or_raise(py)?;
    std::fs::write(&path, &glb.bytes)?;
    let skipped = glb
        .skipped
        .iter()
        .map(|s| format!("{}: {}", s.part, s.error))
        .collect();
    Ok((glb.meshes, skipped))
}

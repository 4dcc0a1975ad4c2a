//! The `.geometry` writer, for round-trip tests and benchmark inputs made from Python.

use gamebin::wows::geometry::model::{GeometryBuilder, MeshVertex};
use numpy::{PyReadonlyArray1, PyReadonlyArray2};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyBytes;

/// One mesh to write: its name, positions `(N, 3)`, optional normals `(N, 3)` and UVs `(N, 2)`
/// (as the game stores them, `uv - 0.5`), indices local to its vertices, and a texel density.
/// A tuple `(name, positions, normals, uvs, indices, texel_density)`.
#[derive(FromPyObject)]
pub struct MeshInput<'py>(
    String,
    PyReadonlyArray2<'py, f32>,
    Option<PyReadonlyArray2<'py, f32>>,
    Option<PyReadonlyArray2<'py, f32>>,
    PyReadonlyArray1<'py, u32>,
    u16,
);

fn rows<const N: usize>(
    what: &str,
    array: &PyReadonlyArray2<'_, f32>,
    count: usize,
) -> PyResult<Vec<[f32; N]>> {
    let a = array.as_array();
    if a.shape() != [count, N] {
        return Err(PyValueError::new_err(format!(
            "{what} must have shape ({count}, {N}), not {:?}",
            a.shape()
        )));
    }
    Ok(a.rows()
        .into_iter()
        .map(|r| core::array::from_fn(|i| r.get(i).copied().unwrap_or_default()))
        .collect())
}

/// Writes a `.geometry` with one vertex buffer (`vertex_format`) and one index buffer
/// (`index_size` 2 or 4), both ENCD-encoded when `encode`, holding `meshes` in order.
#[pyfunction]
#[pyo3(signature = (meshes, vertex_format = "set3/xyznuvtbpc", encode = true, index_size = 4))]
pub fn write_geometry<'py>(
    py: Python<'py>,
    meshes: Vec<MeshInput<'py>>,
    vertex_format: &str,
    encode: bool,
    index_size: u16,
) -> PyResult<Bound<'py, PyBytes>> {
    if index_size != 2 && index_size != 4 {
        return Err(PyValueError::new_err("index_size must be 2 or 4"));
    }
    let mut builder = GeometryBuilder::new();
    let vb = builder.vertex_buffer(vertex_format, encode);
    let ib = builder.index_buffer(index_size, encode);
    for MeshInput(name, positions, normals, uvs, indices, texel_density) in &meshes {
        let count = positions.as_array().nrows();
        let positions = rows::<3>("positions", positions, count)?;
        let normals = match normals {
            Some(n) => Some(rows::<3>("normals", n, count)?),
            None => None,
        };
        let uvs = match uvs {
            Some(u) => Some(rows::<2>("uvs", u, count)?),
            None => None,
        };
        let vertices: Vec<MeshVertex> = (0..count)
            .zip(positions)
            .map(|(i, position)| {
                let mut v = MeshVertex::at(position);
                if let Some(n) = normals.as_ref().and_then(|n| n.get(i)) {
                    v.normal = *n;
                }
                if let Some(uv) = uvs.as_ref().and_then(|u| u.get(i)) {
                    v.uv = *uv;
                }
                v
            })
            .collect();
        let indices = indices.as_slice()?;
        builder
            .mesh(name, vb, ib, *texel_density, &vertices, indices)
            .map_err(|e| crate::errors::write_error_to_py(py, e))?;
    }
    let bytes = builder
        .to_bytes()
        .map_err(|e| crate::errors::write_error_to_py(py, e))?;
    Ok(PyBytes::new(py, &bytes))
}

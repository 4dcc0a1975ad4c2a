//! `gamebin._gamebin`: the Rust half of the `gamebin` Python package. It owns the bytes (a
//! `Source`), tells Python where each structure lies in them, and decodes what must be decoded;
//! the package's Python half lays read-only NumPy arrays over the bytes and builds the objects
//! users see. Kept thin: every fact comes from the `gamebin` crate.

mod assets;
mod assets_model;
mod dds;
mod errors;
mod geometry;
mod install;
mod models;
mod params;
mod prototype;
mod source;
mod wdb;
mod write;
mod wwd;

use pyo3::prelude::*;

#[pymodule]
fn _gamebin(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("FormatError", m.py().get_type::<errors::FormatError>())?;
    m.add_class::<source::Source>()?;
    m.add_class::<assets::PathTable>()?;
    m.add_class::<install::NativeInstall>()?;
    m.add_class::<params::NativeParams>()?;
    m.add_function(wrap_pyfunction!(install::write_pfs, m)?)?;
    m.add_function(wrap_pyfunction!(install::diff_installs, m)?)?;
    m.add_function(wrap_pyfunction!(geometry::geometry_layout, m)?)?;
    m.add_function(wrap_pyfunction!(geometry::geometry_vertex_dtype, m)?)?;
    m.add_function(wrap_pyfunction!(geometry::geometry_decode_vertices, m)?)?;
    m.add_function(wrap_pyfunction!(geometry::geometry_decode_indices, m)?)?;
    m.add_function(wrap_pyfunction!(geometry::geometry_export_glb, m)?)?;
    m.add_function(wrap_pyfunction!(assets::assets_info, m)?)?;
    m.add_function(wrap_pyfunction!(assets::assets_lookup, m)?)?;
    m.add_function(wrap_pyfunction!(assets::assets_ids_are_path_hashes, m)?)?;
    m.add_function(wrap_pyfunction!(assets::assets_path_table, m)?)?;
    m.add_function(wrap_pyfunction!(assets::assets_full_path, m)?)?;
    m.add_function(wrap_pyfunction!(assets::assets_paths, m)?)?;
    m.add_function(wrap_pyfunction!(prototype::assets_prototype_json, m)?)?;
    prototype::add_id_fields(m)?;
    m.add_function(wrap_pyfunction!(assets::assets_model_glb, m)?)?;
    m.add_function(wrap_pyfunction!(assets::write_model_example, m)?)?;
    m.add_function(wrap_pyfunction!(dds::dds_texture, m)?)?;
    m.add_function(wrap_pyfunction!(dds::dds_decode, m)?)?;
    m.add_function(wrap_pyfunction!(wdb::wdb_table, m)?)?;
    m.add_function(wrap_pyfunction!(wwd::wwd_level, m)?)?;
    m.add_function(wrap_pyfunction!(wwd::wwd_text, m)?)?;
    m.add_function(wrap_pyfunction!(wwd::wwd_render, m)?)?;
    m.add_function(wrap_pyfunction!(models::wdata_json, m)?)?;
    m.add_function(wrap_pyfunction!(models::craftstudio_project, m)?)?;
    m.add_function(wrap_pyfunction!(write::write_geometry, m)?)?;
    m.add_function(wrap_pyfunction!(assets_model::assets_model_json, m)?)?;
    m.add_function(wrap_pyfunction!(assets_model::write_assets, m)?)?;
    Ok(())
}

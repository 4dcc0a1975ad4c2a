//! What the CLI shows of a World of Warships `.geometry`.

use crate::output::count;
use std::path::Path;

use anyhow::Result;
use gamebin::wows::geometry::{GeometrySummary, GeometryView};
use serde::Serialize;

#[derive(Debug, Serialize)]
pub struct Info {
    pub path: String,
    pub format: &'static str,
    pub vertex_buffers: usize,
    pub index_buffers: usize,
    pub vertex_mappings: usize,
    pub index_mappings: usize,
    pub collision_models: usize,
    pub armor_models: usize,
    pub encoded_buffers: usize,
    pub vertices: u64,
    pub indices: u64,
}

pub fn info(path: &Path, data: &[u8]) -> Result<Info> {
    let view = GeometryView::from_bytes(data)?;
    let mut encoded = 0;
    let mut vertices = 0u64;
    for vb in view.vertex_buffers() {
        encoded += usize::from(vb.is_encoded()?);
        vertices += vb.vertex_count()? as u64;
    }
    let mut indices = 0u64;
    for ib in view.index_buffers() {
        encoded += usize::from(ib.is_encoded()?);
        indices += ib.index_count()? as u64;
    }
    Ok(Info {
        path: path.display().to_string(),
        format: gamebin::Format::WowsGeometry.name(),
        vertex_buffers: view.vertex_buffer_count(),
        index_buffers: view.index_buffer_count(),
        vertex_mappings: view.vertex_mappings().len(),
        index_mappings: view.index_mappings().len(),
        collision_models: view.collision_models().len(),
        armor_models: view.armor_models().len(),
        encoded_buffers: encoded,
        vertices,
        indices,
    })
}

pub fn info_line(i: &Info) -> String {
    let plural = |n: usize, word: &str| format!("{n} {word}{}", if n == 1 { "" } else { "s" });
    format!(
        "{}: {}, {} and {} ({} encoded), {}, {}, {} + {} mappings, {}, {}",
        i.path,
        i.format,
        plural(i.vertex_buffers, "vertex buffer"),
        plural(i.index_buffers, "index buffer"),
        i.encoded_buffers,
        count(i.vertices, "vertex", "vertices"),
        count(i.indices, "index", "indices"),
        i.vertex_mappings,
        i.index_mappings,
        plural(i.collision_models, "collision model"),
        plural(i.armor_models, "armor model"),
    )
}

/// `dump`'s model: the file's path and format, then the library's summary of it.
#[derive(Debug, Serialize)]
pub struct Dump {
    pub path: String,
    pub format: &'static str,
    #[serde(flatten)]
    pub summary: GeometrySummary,
}

pub fn dump(path: &Path, data: &[u8]) -> Result<Dump> {
    let view = GeometryView::from_bytes(data)?;
    Ok(Dump {
        path: path.display().to_string(),
        format: gamebin::Format::WowsGeometry.name(),
        summary: GeometrySummary::from_view(&view)?,
    })
}

/// The dump as indented text.
pub fn dump_text(d: &Dump) -> String {
    format!("{}: {}\n{}", d.path, d.format, d.summary)
}

//! `gamebin export FILE.geometry -o DIR`: one Wavefront OBJ per draw.

use std::path::Path;

use anyhow::{Context, Result, bail};
use gamebin::Format;
use gamebin::wows::geometry::{GeometryView, Indices, Vertices};

use crate::files;
use crate::geometry;
use crate::output::{Out, Status, report};

pub fn run(path: &Path, dir: &Path) -> Result<Status> {
    match export(path, dir) {
        Ok(()) => Ok(Status::Success),
        Err(e) => {
            report(path, &e);
            Ok(Status::SomeFailed)
        }
    }
}

fn export(path: &Path, dir: &Path) -> Result<()> {
    let (file, format) = files::open_known(path, files::ReadOptions::default())?;
    if format != Format::WowsGeometry {
        bail!("export reads .geometry files; this is {format}");
    }
    let view = GeometryView::from_bytes(&file)?;
    let decoded = geometry::decode(&view)?;
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let mut out = Out::new();
    let mut written = 0;
    for draw in view.draws() {
        let what = || format!("draw {:#010x}", draw.vertices.id());
        let vb = view
            .vertex_buffer(draw.vertices.buffer_index())
            .with_context(|| {
                format!(
                    "{}: no vertex buffer {}",
                    what(),
                    draw.vertices.buffer_index()
                )
            })?;
        let bytes = decoded
            .vertices
            .get(draw.vertices.buffer_index())
            .map_or(&[][..], Vec::as_slice);
        let merged = Vertices::new(bytes, vb.stride(), vb.format()?)
            .with_context(|| format!("{}: bad stride", what()))?;
        let indices = decoded
            .indices
            .get(draw.indices.buffer_index())
            .map_or(&[][..], Vec::as_slice);
        let vertices = draw
            .vertices_in(&merged)
            .with_context(|| format!("{}: vertex range outside its buffer", what()))?;
        let indices = draw
            .indices_in(&Indices::from(indices))
            .with_context(|| format!("{}: index range outside its buffer", what()))?;
        if let Some(max) = indices.max().filter(|&m| m as usize >= vertices.len()) {
            bail!(
                "{}: index {max} is beyond its {} vertices",
                what(),
                vertices.len()
            );
        }
        let name = format!("{:08x}_{:08x}.obj", draw.vertices.id(), draw.indices.id());
        let target = dir.join(&name);
        std::fs::write(
            &target,
            geometry::draw_obj(path, &draw, &vertices, &indices),
        )
        .with_context(|| format!("cannot write {}", target.display()))?;
        out.line(&target.display().to_string())?;
        written += 1;
    }
    out.flush()?;
    let unpaired = view.vertex_mappings().len() - written;
    if unpaired > 0 {
        eprintln!(
            "gamebin: {}: {unpaired} vertex mapping(s) could not be paired with an index mapping; not exported",
            path.display()
        );
    }
    Ok(())
}

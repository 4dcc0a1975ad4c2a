//! `gamebin export FILE.geometry -o DIR`: one Wavefront OBJ per draw.

use std::path::Path;

use anyhow::{Context, Result, bail};
use gamebin::Format;
use gamebin::wows::geometry::{DecodedGeometry, GeometryView};

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
    let mut decoded = DecodedGeometry::new();
    decoded.decode(&view);
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let mut out = Out::new();
    let mut skipped = 0;
    for draw in decoded.draws(&view) {
        let data = match decoded.draw_data(&draw) {
            Ok(data) => data,
            Err(e) => {
                eprintln!(
                    "gamebin: {}: draw {:#010x} + {:#010x} skipped: {e}",
                    path.display(),
                    draw.vertices.id(),
                    draw.indices.id()
                );
                skipped += 1;
                continue;
            }
        };
        let name = format!("{:08x}_{:08x}.obj", draw.vertices.id(), draw.indices.id());
        let target = dir.join(&name);
        std::fs::write(
            &target,
            geometry::draw_obj(path, &draw, &data.vertices, &data.indices),
        )
        .with_context(|| format!("cannot write {}", target.display()))?;
        out.line(&target.display().to_string())?;
    }
    out.flush()?;
    let unpaired = decoded.draw_table().unpaired_index_mappings().count();
    if unpaired > 0 || skipped > 0 {
        bail!("{skipped} draw(s) skipped, {unpaired} index mapping(s) unpaired; not exported");
    }
    Ok(())
}

//! `gamebin export FILE.geometry -o OUT.glb | DIR`: a GLB, or one Wavefront OBJ per draw.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use gamebin::Format;
use gamebin::export::gltf::{GeometryGlbOptions, geometry_to_glb};
use gamebin::export::obj;
use gamebin::wows::geometry::{DecodedGeometry, GeometryView, PairingDoubt};

use crate::files;
use crate::output::{Out, Status, report};

/// What `export` writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ExportFormat {
    /// One binary glTF file with every draw (and, with --armor, the armor models).
    Glb,
    /// One Wavefront OBJ per draw (and per armor model) in a folder.
    Obj,
}

pub struct Settings {
    pub format: Option<ExportFormat>,
    pub armor: bool,
    pub force: bool,
}

pub fn run(path: &Path, output: &Path, settings: &Settings) -> Result<Status> {
    match export(path, output, settings) {
        Ok(status) => Ok(status),
        Err(e) => {
            report(path, &e);
            Ok(Status::SomeFailed)
        }
    }
}

/// The format asked for, or the one the output's name implies: `.glb` a GLB, anything else a
/// folder of OBJ files.
fn format_of(output: &Path, asked: Option<ExportFormat>) -> ExportFormat {
    asked.unwrap_or_else(|| {
        if output
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("glb"))
        {
            ExportFormat::Glb
        } else {
            ExportFormat::Obj
        }
    })
}

fn export(path: &Path, output: &Path, settings: &Settings) -> Result<Status> {
    let (file, format) = files::open_known(path, files::ReadOptions::default())?;
    if format != Format::WowsGeometry {
        bail!("export reads .geometry files; this is {format}");
    }
    let view = GeometryView::from_bytes(&file)?;
    let mut decoded = DecodedGeometry::new();
    decoded.decode(&view);
    let (vm, im) = (view.vertex_mappings(), view.index_mappings());
    let table = decoded.draw_table();
    // Ties whose meshes are the same either way change nothing in the export (dump --json lists
    // them); every other doubt is said.
    let doubtful = table.notes().iter().filter(|n| {
        !matches!(
            n.doubt,
            PairingDoubt::SameVertexCount {
                interchangeable: true,
                ..
            }
        )
    });
    for note in doubtful {
        eprintln!(
            "gamebin: {}: index mapping {:#010x}: {}",
            path.display(),
            im.get(note.index_mapping).map_or(0, |m| m.id()),
            note.doubt
        );
    }
    let mut skipped = table.unpaired_index_mappings().count();
    for v in table.unpaired_vertex_mappings() {
        eprintln!(
            "gamebin: {}: vertex mapping {:#010x} has no index mapping; not exported",
            path.display(),
            vm.get(v).map_or(0, |m| m.id())
        );
    }
    let source = path.display().to_string();
    let mut written = 0;
    match format_of(output, settings.format) {
        ExportFormat::Glb => {
            crate::files::refuse_existing(output, settings.force)?;
            let options = GeometryGlbOptions {
                armor: settings.armor,
            };
            let glb = geometry_to_glb(&view, &decoded, &options)?;
            for s in &glb.skipped {
                eprintln!(
                    "gamebin: {source}: draw {:#010x} + {:#010x} skipped: {}",
                    s.vertices_id, s.indices_id, s.error
                );
            }
            skipped += glb.skipped.len();
            if glb.meshes > 0 {
                std::fs::write(output, &glb.bytes)
                    .with_context(|| format!("cannot write {}", output.display()))?;
                written = glb.meshes;
                let mut out = Out::new();
                out.line(&output.display().to_string())?;
                out.flush()?;
            }
        }
        ExportFormat::Obj => {
            std::fs::create_dir_all(output)
                .with_context(|| format!("cannot create {}", output.display()))?;
            let mut files: Vec<(PathBuf, String)> = Vec::new();
            for draw in decoded.draws(&view) {
                match decoded.draw_data(&draw) {
                    Ok(data) => {
                        let name =
                            format!("{:08x}_{:08x}.obj", draw.vertices.id(), draw.indices.id());
                        files.push((output.join(name), obj::draw_to_obj(&source, &draw, &data)));
                    }
                    Err(e) => {
                        eprintln!(
                            "gamebin: {source}: draw {:#010x} + {:#010x} skipped: {e}",
                            draw.vertices.id(),
                            draw.indices.id()
                        );
                        skipped += 1;
                    }
                }
            }
            if settings.armor {
                for model in view.armor_models() {
                    let name = model.name()?;
                    let text = obj::armor_to_obj(&source, name, &model.armor()?)?;
                    files.push((output.join(format!("{name}.obj")), text));
                }
            }
            for (target, _) in &files {
                crate::files::refuse_existing(target, settings.force)?;
            }
            let mut out = Out::new();
            for (target, text) in &files {
                std::fs::write(target, text)
                    .with_context(|| format!("cannot write {}", target.display()))?;
                out.line(&target.display().to_string())?;
            }
            out.flush()?;
            written = files.len();
        }
    }
    if written == 0 {
        bail!("nothing to export: no draw could be exported");
    }
    if skipped > 0 {
        eprintln!(
            "gamebin: {source}: {written} mesh(es) written, {skipped} draw(s) or mapping(s) not exported"
        );
        return Ok(Status::SomeFailed);
    }
    Ok(Status::Success)
}

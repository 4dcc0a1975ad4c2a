//! `gamebin export FILE.geometry -o OUT.glb | DIR`: a GLB, or one Wavefront OBJ per draw.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use gamebin::Format;
use gamebin::wows::geometry::export::gltf::{GeometryGlbOptions, GeometryPart, geometry_to_glb};
use gamebin::wows::geometry::export::obj;
use gamebin::wows::geometry::{DecodedGeometry, GeometryView, ModelRecord, PairingDoubt};

use crate::args::ExportFormat;
use crate::files;
use crate::output::{Out, Status, report};

pub struct Settings {
    pub format: Option<ExportFormat>,
    pub armor: bool,
    pub force: bool,
    /// Write what could be exported even when some part could not be (exit status still 1).
    pub partial: bool,
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
    let source = path.display().to_string();
    // Ties whose meshes are the same either way change nothing in the export (dump --json lists
    // them); every other doubt is said, and an index mapping left unpaired is not exported.
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
            "gamebin: {source}: index mapping {:#010x}: {}{}",
            im.get(note.index_mapping_position).map_or(0, |m| m.id()),
            note.doubt,
            if note.vertex_mapping_position.is_none() {
                "; not exported"
            } else {
                ""
            }
        );
    }
    let mut skipped = table.unpaired_index_mappings().count();
    for v in table.unpaired_vertex_mappings() {
        eprintln!(
            "gamebin: {source}: vertex mapping {:#010x} has no index mapping; not exported",
            vm.get(v).map_or(0, |m| m.id())
        );
    }
    if !settings.armor {
        // Not asked for, so not a failure of this export; but the file is damaged there.
        for (part, error) in unreadable_armor(&view) {
            eprintln!(
                "gamebin: {source}: warning: {part} does not read (not exported without \
                 --armor): {error}"
            );
        }
    }
    // Values neither glTF nor OBJ can hold (a NaN texture coordinate): written as 0, said here.
    for finding in decoded.non_finite_attributes(&view) {
        eprintln!("gamebin: {source}: warning: {finding}");
    }
    let written = match format_of(output, settings.format) {
        ExportFormat::Glb => {
            // Refused before the work, and again as the file is created.
            files::refuse_existing(output, settings.force)?;
            let options = GeometryGlbOptions {
                armor: settings.armor,
            };
            let glb = geometry_to_glb(&view, &decoded, &options)?;
            for s in &glb.skipped {
                eprintln!("gamebin: {source}: {} skipped: {}", s.part, s.error);
            }
            skipped += glb.skipped.len();
            ready_to_write(glb.meshes, skipped, settings.partial)?;
            files::write_new(output, &glb.bytes, settings.force)?;
            let mut out = Out::new();
            out.line(&output.display().to_string())?;
            out.flush()?;
            glb.meshes
        }
        ExportFormat::Obj => {
            let mut files: Vec<(PathBuf, String)> = Vec::new();
            for draw in decoded.draws(&view) {
                match decoded.draw_data(&draw) {
                    Ok(data) => {
                        let name =
                            format!("{:08x}_{:08x}.obj", draw.vertices.id(), draw.indices.id());
                        files.push((output.join(name), obj::draw_to_obj(&source, &draw, &data)));
                    }
                    Err(e) => {
                        let part = GeometryPart::Draw {
                            vertices_id: draw.vertices.id(),
                            indices_id: draw.indices.id(),
                        };
                        eprintln!("gamebin: {source}: {part} skipped: {e}");
                        skipped += 1;
                    }
                }
            }
            if settings.armor {
                for (index, model) in view.armor_models().enumerate() {
                    let text = model.name().and_then(|name| {
                        let text = obj::armor_to_obj(&source, name, &model.armor()?)?;
                        Ok((name, text))
                    });
                    match text {
                        Ok((name, text)) => files.push((output.join(format!("{name}.obj")), text)),
                        Err(e) => {
                            let part = armor_part(index, &model);
                            eprintln!("gamebin: {source}: {part} skipped: {e}");
                            skipped += 1;
                        }
                    }
                }
            }
            ready_to_write(files.len(), skipped, settings.partial)?;
            for (target, _) in &files {
                files::refuse_existing(target, settings.force)?;
            }
            std::fs::create_dir_all(output)
                .with_context(|| format!("cannot create {}", output.display()))?;
            let mut out = Out::new();
            for (target, text) in &files {
                files::write_new(target, text.as_bytes(), settings.force)?;
                out.line(&target.display().to_string())?;
            }
            out.flush()?;
            files.len()
        }
    };
    if skipped > 0 {
        eprintln!(
            "gamebin: {source}: partial result (--partial): {written} mesh(es) written, \
             {skipped} draw(s), mapping(s) or armor model(s) not exported"
        );
        return Ok(Status::SomeFailed);
    }
    Ok(Status::Success)
}

/// Whether the export may be written: something to write, and nothing left out unless a partial
/// result was asked for. Otherwise the error that ends the export with nothing written.
fn ready_to_write(meshes: usize, skipped: usize, partial: bool) -> Result<()> {
    if meshes == 0 {
        bail!("nothing to export: no draw could be exported; nothing written");
    }
    if skipped > 0 && !partial {
        bail!(
            "{skipped} draw(s), mapping(s) or armor model(s) could not be exported; nothing \
             written (--partial writes the {meshes} mesh(es) that could be)"
        );
    }
    Ok(())
}

/// An armor model named for messages: its position, and its name when that reads.
fn armor_part(index: usize, model: &ModelRecord<'_>) -> GeometryPart {
    GeometryPart::Armor {
        index,
        name: model.name().ok().map(str::to_owned),
    }
}

/// The armor models that do not read (their name or their armor header), each with why.
fn unreadable_armor(view: &GeometryView<'_>) -> Vec<(GeometryPart, gamebin::Error)> {
    view.armor_models()
        .enumerate()
        .filter_map(|(index, model)| {
            let read = model.name().and_then(|_| model.armor().map(|_| ()));
            read.err().map(|e| (armor_part(index, &model), e))
        })
        .collect()
}

//! A small model world for examples and tests: an `assets.bin` with a ModelPrototype → its
//! VisualPrototype → its MaterialPrototype, and the visual's `.geometry` file, laid out under a
//! resource root the way the game's `res/` folder is; and the synthetic world at a real game's
//! scale: [`write_synth_world`] writes the `assets.bin` of
//! [`synth_world`] with every `.geometry` its visuals name
//! (small varied meshes, raw and ENCD, skinned and unskinned) and two deliberate faults
//! ([`synth_fault`]).

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

use super::assets::example_visual;
use super::assets_scale::{SHIP_PARTS, Scale, SynthModel, part_mapping_ids, synth_world};
use super::geometry::{cube, pyramid, quad};
use crate::wows::assets::model::AssetsBuilder;
use crate::wows::assets::{MaterialFields, ModelFields, PropertyFields, PropertyValue};
use crate::wows::geometry::model::{GeometryBuilder, MeshVertex};
use crate::write_error::WriteResult as Result;

/// The files of a model world: `(path under the root, bytes)`, the `assets.bin` first (at the
/// root, beside `content/`).
#[derive(Debug, Clone, Default)]
pub struct ModelWorld {
    /// Each file's path under the root and its bytes.
    pub files: Vec<(String, Vec<u8>)>,
}

impl ModelWorld {
    /// Writes every file under `root`, creating folders.
    pub fn write_to(&self, root: &Path) -> std::io::Result<()> {
        for (path, bytes) in &self.files {
            let path = root.join(path);
            if let Some(dir) = path.parent() {
                std::fs::create_dir_all(dir)?;
            }
            std::fs::write(path, bytes)?;
        }
        Ok(())
    }
}

/// `content/gameplay/Test.model` → `Test.visual` (the assets writer's example visual: nodes
/// `Scene Root` and `HP_Test`, one render set `rs_hull` drawing the mesh `Hull`, one LOD) →
/// `Test.mfm`, and `Test.geometry` holding `Hull` as an ENCD cube.
pub fn example_world() -> Result<ModelWorld> {
    let mut assets = AssetsBuilder::new();
    let dir = "content/gameplay";
    let geometry_path = format!("{dir}/Test.geometry");
    let geometry = assets.path(&geometry_path)?;
    let mfm = assets.path(&format!("{dir}/Test.mfm"))?;
    let visual = assets.path(&format!("{dir}/Test.visual"))?;
    let model = assets.path(&format!("{dir}/Test.model"))?;
    assets.prototype(
        mfm,
        MaterialFields {
            properties: vec![
                PropertyFields::new("gloss", PropertyValue::Float(0.25)),
                PropertyFields::new("tint", PropertyValue::Vec3([0.5, 0.6, 0.7])),
            ],
            ..Default::default()
        },
    )?;
    assets.prototype(visual, example_visual(geometry, mfm))?;
    assets.prototype(
        model,
        ModelFields {
            visual_resource_id: visual,
            ..Default::default()
        },
    )?;
    let mut mesh = GeometryBuilder::new();
    let vb = mesh.vertex_buffer("set3/xyznuvtbpc", true);
    let ib = mesh.index_buffer(2, true);
    let (vertices, indices) = cube([0.0; 3], 1.0);
    mesh.mesh("Hull", vb, ib, 0, &vertices, &indices)?;
    Ok(ModelWorld {
        files: vec![
            ("assets.bin".into(), assets.to_bytes()?),
            (geometry_path, mesh.to_bytes()?),
        ],
    })
}

/// Writes [`example_world`] into a new folder under the system's temporary folder and returns
/// it (the caller removes it).
pub fn example_root() -> std::result::Result<PathBuf, Box<dyn std::error::Error>> {
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    let root = std::env::temp_dir().join(format!(
        "gamebin-model-{}-{}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    ));
    example_world()?.write_to(&root)?;
    Ok(root)
}

/// A deliberate fault of the synthetic world ([`synth_fault`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SynthFault {
    /// The visual's `.geometry` file is not written.
    MissingGeometry,
    /// The `.geometry` lacks the mesh of one render set: its vertex mapping id is not in the file.
    MissingMapping {
        /// The render set's name.
        render_set: &'static str,
        /// Its vertex mapping id.
        vertices_mapping_id: u32,
    },
}

/// The render set left out of the faulty `.geometry` ([`SynthFault::MissingMapping`]).
const LEFT_OUT_PART: usize = 1;

/// The fault of the ship made in group `group`, if it has one: group 1's geometry file is missing,
/// group 2's geometry lacks the mesh of `rs_deck`. Both groups exist at every [`Scale`].
pub fn synth_fault(group: usize) -> Option<SynthFault> {
    match group {
        1 => Some(SynthFault::MissingGeometry),
        2 => Some(SynthFault::MissingMapping {
            render_set: "rs_deck",
            vertices_mapping_id: part_mapping_ids(LEFT_OUT_PART).0,
        }),
        _ => None,
    }
}

/// The mesh of render set `part` of the ship of group `group`: a cube, a pyramid or a quad (the
/// skinned last part always a cube, whose bones stay below the four nodes it names), its size and
/// place varied by group and part.
pub fn synth_mesh(group: usize, part: usize) -> (Vec<MeshVertex>, Vec<u32>) {
    let size = 0.5 + ((group * 7 + part) % 11) as f32 * 0.25;
    let center = [part as f32 * 2.0, (group % 5) as f32, -(part as f32)];
    match (part + 1 == SHIP_PARTS.len(), (group + part) % 3) {
        (true, _) | (false, 0) => cube(center, size),
        (false, 1) => pyramid(center, size),
        _ => quad(center[1], size),
    }
}

/// The `.geometry` of a synthetic ship (`None` when its fault is a missing file): one mesh per
/// render set with the render set's mapping ids, ENCD-encoded in even groups and raw in odd ones,
/// the skinned part in a skinned vertex buffer.
pub fn synth_geometry(model: &SynthModel) -> Result<Option<Vec<u8>>> {
    let fault = synth_fault(model.group);
    if fault == Some(SynthFault::MissingGeometry) {
        return Ok(None);
    }
    let encode = model.group.is_multiple_of(2);
    let mut g = GeometryBuilder::new();
    let vb = g.vertex_buffer("set3/xyznuvtbpc", encode);
    let skinned = g.vertex_buffer_with("set3/xyznuviiiwwtbpc", 36, true, true, encode);
    let ib = g.index_buffer(2, encode);
    for part in 0..SHIP_PARTS.len() {
        if part == LEFT_OUT_PART && matches!(fault, Some(SynthFault::MissingMapping { .. })) {
            continue;
        }
        let buffer = if part + 1 == SHIP_PARTS.len() {
            skinned
        } else {
            vb
        };
        let (vertices, indices) = synth_mesh(model.group, part);
        g.mesh(part_mapping_ids(part), buffer, ib, 0, &vertices, &indices)?;
    }
    g.to_bytes().map(Some)
}

/// An error of writing a world: a writer's or the file system's.
pub type WorldError = Box<dyn std::error::Error + Send + Sync>;

/// What [`write_synth_world`] wrote.
#[derive(Debug, Clone)]
pub struct SynthWorld {
    /// Every ship model of the `assets.bin`, with its `.geometry` path.
    pub models: Vec<SynthModel>,
    /// `.geometry` files written.
    pub geometry_files: usize,
}

/// Writes [`synth_world`]'s `assets.bin` to `assets` and every `.geometry` its visuals name
/// under `res` (`res/content/…`), except the deliberately missing one ([`synth_fault`]). The
/// geometry files are made and written on every core.
pub fn write_synth_world(
    scale: Scale,
    assets: &Path,
    res: &Path,
) -> std::result::Result<SynthWorld, WorldError> {
    let world = synth_world(scale)?;
    if let Some(dir) = assets.parent() {
        std::fs::create_dir_all(dir)?;
    }
    std::fs::write(assets, &world.assets)?;
    let threads = std::thread::available_parallelism().map_or(1, usize::from);
    let chunk = world.models.len().div_ceil(threads).max(1);
    let written = std::thread::scope(|scope| {
        let workers: Vec<_> = world
            .models
            .chunks(chunk)
            .map(|models| {
                scope.spawn(move || -> std::result::Result<usize, WorldError> {
                    let mut written = 0;
                    for model in models {
                        let Some(bytes) = synth_geometry(model)? else {
                            continue;
                        };
                        let path = res.join(&model.geometry_path);
                        if let Some(dir) = path.parent() {
                            std::fs::create_dir_all(dir)?;
                        }
                        std::fs::write(path, bytes)?;
                        written += 1;
                    }
                    Ok(written)
                })
            })
            .collect();
        let mut written = 0;
        for worker in workers {
            written += worker
                .join()
                .map_err(|_| WorldError::from("a geometry writer thread panicked"))??;
        }
        Ok::<_, WorldError>(written)
    })?;
    Ok(SynthWorld {
        models: world.models,
        geometry_files: written,
    })
}

/// The synthetic world of `scale` under `dir` (`dir/<name>/assets.bin` and `dir/<name>/res/`),
/// written the first time it is asked for and kept (for tests and benchmarks: under `target/`).
/// Written into a temporary folder renamed into place, so concurrent callers never see half a
/// world. Returns the world's folder.
pub fn cached_synth_world(scale: Scale, dir: &Path) -> std::result::Result<PathBuf, WorldError> {
    // Named after the generator's revision: a changed generator makes a new world.
    let name = match scale {
        Scale::Full => "model-world-full-v1",
        Scale::Small => "model-world-small-v1",
    };
    let world = dir.join(name);
    let done = |w: &Path| w.join("complete").is_file();
    if done(&world) {
        return Ok(world);
    }
    let temp = dir.join(format!(
        "{name}.tmp-{}-{}",
        std::process::id(),
        TEMP.fetch_add(1, Ordering::Relaxed)
    ));
    let _ = std::fs::remove_dir_all(&temp);
    let written = write_synth_world(scale, &temp.join("assets.bin"), &temp.join("res"))?;
    std::fs::write(
        temp.join("complete"),
        format!(
            "{} models, {} geometry files\n",
            written.models.len(),
            written.geometry_files
        ),
    )?;
    if std::fs::rename(&temp, &world).is_err() {
        if done(&world) {
            // Another process finished first.
            let _ = std::fs::remove_dir_all(&temp);
        } else {
            // A half world left by an interrupted older run: replaced, once.
            let _ = std::fs::remove_dir_all(&world);
            std::fs::rename(&temp, &world)?;
        }
    }
    Ok(world)
}

static TEMP: AtomicUsize = AtomicUsize::new(0);

//! A small model world for examples and tests: an `assets.bin` with a ModelPrototype → its
//! VisualPrototype → its MaterialPrototype, and the visual's `.geometry` file, laid out under a
//! resource root the way the game's `res/` folder is.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

use super::assets::{
    AssetsBuilder, MaterialSpec, ModelSpec, RecordSpec, ValueSpec, example_visual,
};
use super::geometry::{GeometryBuilder, cube};
use crate::error::Result;

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
        RecordSpec::Material(MaterialSpec {
            properties: vec![
                ("gloss".into(), ValueSpec::Float(0.25)),
                ("tint".into(), ValueSpec::Vec3([0.5, 0.6, 0.7])),
            ],
            ..Default::default()
        }),
    )?;
    assets.prototype(visual, RecordSpec::Visual(example_visual(geometry, mfm)))?;
    assets.prototype(
        model,
        RecordSpec::Model(ModelSpec {
            visual_resource_id: visual,
            ..Default::default()
        }),
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

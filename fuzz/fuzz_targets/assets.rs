//! `assets.bin`: detects, opens and drives every accessor through the driver the corruption tests
//! share (`tests/drive`), so that fuzzing and `tests/corruption.rs` exercise the same surface; then
//! drives the model resolver over the fuzzed file with a fixed resource root (the example model
//! world's `.geometry`, at the path the seeds' visual names): every path entry's id resolved as a
//! model, its `.geometry` loaded, every render set drawn and every LOD exported to GLB.
#![no_main]

use std::path::PathBuf;
use std::sync::OnceLock;

use gamebin::export::model_gltf::{LodChoice, ModelGlbOptions, model_to_glb};
use gamebin::wows::assets::AssetsDb;
use gamebin::wows::model::{GeometryCache, ModelResolver};
use libfuzzer_sys::fuzz_target;

#[path = "../../tests/drive/mod.rs"]
mod drive;

/// Path entries resolved per input: enough to reach every model of a small file, few enough to
/// keep executions fast on big ones.
const MODELS: usize = 64;

/// The resource root, written once per process.
fn root() -> &'static PathBuf {
    static ROOT: OnceLock<PathBuf> = OnceLock::new();
    ROOT.get_or_init(|| {
        let root = std::env::temp_dir().join(format!("gamebin-fuzz-res-{}", std::process::id()));
        let world = gamebin::write::model::example_world().expect("example world");
        world.write_to(&root).expect("write the example world");
        root
    })
}

fn drive_models(data: &[u8]) {
    let Ok(db) = AssetsDb::from_bytes(data) else {
        return;
    };
    let resolver = ModelResolver::new(db, root());
    let mut cache = GeometryCache::new();
    let options = ModelGlbOptions {
        lods: LodChoice::All,
    };
    let _ = std::hint::black_box(resolver.resolve_path("content/gameplay/Test.model"));
    for entry in db.paths().iter().take(MODELS) {
        let Ok(model) = resolver.resolve(entry.self_id()) else {
            continue;
        };
        let Ok(geometry) = cache.load(&resolver, &model) else {
            continue;
        };
        if let Ok(sets) = model.render_sets() {
            for set in sets.flatten() {
                let _ = std::hint::black_box(geometry.draw(&model, &set));
            }
        }
        let _ = std::hint::black_box(model_to_glb(&resolver, &model, &geometry, &options));
    }
}

fuzz_target!(|data: &[u8]| {
    std::hint::black_box(gamebin::detect(data));
    std::hint::black_box(drive::drive_assets(data));
    drive_models(data);
});

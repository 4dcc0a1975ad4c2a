//! What the model export benches share (`model`, `textured`): one model through the pipeline of
//! `gamebin model`, and a new folder for each batch.

use std::path::{Path, PathBuf};

use gamebin::wows::assets::{AssetsDb, Prototype};
use gamebin::wows::resolve::gltf::{ModelGlbOptions, model_to_glb_cached};
use gamebin::wows::resolve::{GeometryCache, ModelResolver};
use gamebin::wows::textures::TextureCache;

/// Where the benches keep what they generate (never committed).
pub fn bench_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/bench-data")
}

/// selfIds of the first `limit` ModelPrototypes in path-table order (the order of a batch).
pub fn model_ids(db: &AssetsDb<'_>, limit: usize) -> Vec<u64> {
    let mut ids = Vec::new();
    for entry in db.paths().iter() {
        let id = entry.self_id();
        if let Ok(Some(at)) = db.prototype(id)
            && matches!(db.record(at), Ok(Prototype::Model(_)))
        {
            ids.push(id);
            if ids.len() == limit {
                break;
            }
        }
    }
    ids
}

/// Geometry files a worker keeps, as in `gamebin model`.
pub const CACHE_FILES: usize = 32;

/// One model through the whole pipeline (resolve; the `.geometry` through the worker's cache;
/// the GLB with `options`, its textures through the batch's `textures`; written to a new file
/// `out/<n>.glb`); `false` when it fails (the synthetic worlds' faults).
pub fn export(
    resolver: &ModelResolver<'_>,
    geometry: &mut GeometryCache,
    textures: &TextureCache,
    options: &ModelGlbOptions,
    id: u64,
    out: &Path,
    n: usize,
) -> bool {
    let Ok(model) = resolver.resolve(id) else {
        return false;
    };
    if geometry.len() >= CACHE_FILES {
        geometry.clear();
    }
    let Ok(loaded) = geometry.load(resolver, &model) else {
        return false;
    };
    let Ok(glb) = model_to_glb_cached(resolver, &model, &loaded, options, textures) else {
        return false;
    };
    std::fs::write(out.join(format!("{n}.glb")), &glb.bytes).is_ok()
}

/// An empty folder for one batch, the previous batch's removed first (outside the timing): a
/// batch writes new files, as `gamebin model` does (it refuses to overwrite without `--force`).
/// Rewriting the same files every iteration would time the file system truncating them instead,
/// which on a disk mounted with `discard` serialises the threads on the device's trim requests.
pub fn fresh_folder(out: &Path) -> PathBuf {
    use std::sync::atomic::{AtomicUsize, Ordering};
    static BATCH: AtomicUsize = AtomicUsize::new(0);
    let n = BATCH.fetch_add(1, Ordering::Relaxed);
    if let Some(previous) = n.checked_sub(1) {
        let _ = std::fs::remove_dir_all(out.join(previous.to_string()));
    }
    let folder = out.join(n.to_string());
    std::fs::create_dir_all(&folder).unwrap();
    folder
}

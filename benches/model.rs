//! Model export benchmarks on the full-scale synthetic world (`gamebin::synth::model_world`: the
//! 170 MB `assets.bin` of `assets_synth` and the 20,877 `.geometry` files its ship visuals name,
//! written once under `target/bench-data/` and reused; never committed).
//!
//! ```text
//! cargo bench --bench model                               # the first 2,048 models (the default)
//! GAMEBIN_BENCH_MODELS=all cargo bench --bench model      # every model of the world (20,878)
//! GAMEBIN_BENCH_MODELS=500 cargo bench --bench model      # the first 500
//! ```
//!
//! The batch is the first `GAMEBIN_BENCH_MODELS` ModelPrototypes in path-table order (the order
//! of `gamebin model --prefix`); the default, [`DEFAULT_MODELS`] = 2,048, is about a tenth of the
//! world. Every ship of the world has the same six parts and meshes of the same generator, so a
//! tenth should export at the rate per model of the whole (the files it reads fit the page cache
//! more easily: `all` checks that), in a tenth of the time and writing a tenth of the GLB bytes
//! per iteration. The issue's figure ("exporting every model of the full-scale test world") is
//! `GAMEBIN_BENCH_MODELS=all`. The bench prints the batch it measures: its size, then how many
//! of it export and how many fail.
//!
//! `batch/threads=N`: the whole pipeline of `gamebin model --prefix` (resolve, read or map and
//! decode the `.geometry` through a per-thread cache, build the GLB, write it to a new file) over
//! the batch on a rayon pool of N threads; the issue's target is ≥ 1.7× on 2 threads against 1.
//! The split of one thread's time: `decode` (read or map and decode each model's `.geometry` into
//! a cold cache), `build` (resolve and build each GLB from a warm cache) and `write` (write each
//! GLB's bytes to a new file in an empty folder, as the batch does). Throughput is in models.

use std::hint::black_box;
use std::path::PathBuf;
use std::time::Duration;

#[path = "batch/mod.rs"]
mod batch;

use batch::{CACHE_FILES, bench_dir, fresh_folder, model_ids};
use criterion::{BatchSize, Criterion, Throughput};
use gamebin::wows::resolve::gltf::{ModelGlbOptions, model_to_glb};
use gamebin::wows::textures::{TextureCache, TextureMode};

/// The export measured against the peer's, which draws meshes only: the synthetic world has no
/// texture files, so asking for them would time failed lookups.
fn meshes_only() -> ModelGlbOptions {
    ModelGlbOptions {
        textures: TextureMode::None,
        ..Default::default()
    }
}
use gamebin::synth::assets_scale::Scale;
use gamebin::synth::model_world::cached_synth_world;
use gamebin::wows::assets::{AssetsDb, PathIndex};
use gamebin::wows::resolve::{GeometryCache, ModelResolver};
use rayon::prelude::*;

/// Models in a batch unless `GAMEBIN_BENCH_MODELS` says otherwise (see the module's docs: about
/// a tenth of the world, the same rate per model in a tenth of the time).
const DEFAULT_MODELS: usize = 2048;

/// The batch size `GAMEBIN_BENCH_MODELS` asks for: a count, or `all`. A value that is neither
/// stops the bench rather than measuring a batch nobody asked for.
fn batch_size() -> usize {
    match std::env::var("GAMEBIN_BENCH_MODELS") {
        Err(_) => DEFAULT_MODELS,
        Ok(n) if n == "all" => usize::MAX,
        Ok(n) => n.parse().unwrap_or_else(|_| {
            panic!("GAMEBIN_BENCH_MODELS={n:?}: expected a number of models or `all`")
        }),
    }
}

fn main() {
    let world = cached_synth_world(Scale::Full, &bench_dir()).unwrap();
    let bytes = std::fs::read(world.join("assets.bin")).unwrap();
    let db = AssetsDb::from_bytes(&bytes).unwrap();
    let index = PathIndex::build(db.paths()).unwrap();
    let resolver = ModelResolver::new(db, world.join("res")).with_path_index(&index);
    let mut ids = model_ids(&db, usize::MAX);
    let world_models = ids.len();
    ids.truncate(batch_size());
    let out = std::env::var_os("GAMEBIN_BENCH_OUT")
        .map_or_else(|| bench_dir().join("model-out"), PathBuf::from);
    let _ = std::fs::remove_dir_all(&out);
    std::fs::create_dir_all(&out).unwrap();
    let models = ids.len() as u64;
    println!("model: a batch of the first {models} of the world's {world_models} models");

    let mut c = Criterion::default()
        .configure_from_args()
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(10));
    let mut g = c.benchmark_group("model");
    g.throughput(Throughput::Elements(models));

    for threads in [1, 2] {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        g.bench_function(format!("batch/threads={threads}"), |b| {
            b.iter_batched(
                || fresh_folder(&out),
                |folder| {
                    pool.install(|| {
                        ids.par_iter()
                            .enumerate()
                            .map_init(GeometryCache::new, |cache, (n, &id)| {
                                usize::from(batch::export(
                                    &resolver,
                                    cache,
                                    &TextureCache::default(),
                                    &meshes_only(),
                                    id,
                                    &folder,
                                    n,
                                ))
                            })
                            .sum::<usize>()
                    })
                },
                BatchSize::PerIteration,
            )
        });
    }

    // The split of one thread's time.
    let resolved: Vec<_> = ids
        .iter()
        .filter_map(|&id| resolver.resolve(id).ok())
        .collect();
    g.bench_function("decode", |b| {
        b.iter(|| {
            let mut cache = GeometryCache::new();
            let mut loaded = 0usize;
            for model in &resolved {
                if cache.len() >= CACHE_FILES {
                    cache.clear();
                }
                loaded += usize::from(cache.load(&resolver, model).is_ok());
            }
            loaded
        })
    });
    // Every file of the batch held at once: `load` on a warm cache only looks the file up.
    let mut warm = GeometryCache::new();
    for model in &resolved {
        let _ = warm.load(&resolver, model);
    }
    g.bench_function("build", |b| {
        b.iter(|| {
            let mut meshes = 0usize;
            for &id in &ids {
                let Ok(model) = resolver.resolve(id) else {
                    continue;
                };
                let Ok(geometry) = warm.load(&resolver, &model) else {
                    continue;
                };
                if let Ok(glb) = model_to_glb(&resolver, &model, &geometry, &meshes_only()) {
                    meshes += glb.added.meshes;
                    black_box(&glb.bytes);
                }
            }
            meshes
        })
    });
    let glbs: Vec<Vec<u8>> = ids
        .iter()
        .filter_map(|&id| {
            let model = resolver.resolve(id).ok()?;
            let geometry = warm.load(&resolver, &model).ok()?;
            model_to_glb(&resolver, &model, &geometry, &meshes_only())
                .ok()
                .map(|glb| glb.bytes)
        })
        .collect();
    println!(
        "model: {} of the batch's {models} models export, {} fail (the world has two faults)",
        glbs.len(),
        ids.len() - glbs.len()
    );
    g.bench_function("write", |b| {
        b.iter_batched(
            || fresh_folder(&out),
            |folder| {
                for (n, glb) in glbs.iter().enumerate() {
                    std::fs::write(folder.join(format!("{n}.glb")), glb).unwrap();
                }
            },
            BatchSize::PerIteration,
        )
    });
    g.finish();
    c.final_summary();
    let _ = std::fs::remove_dir_all(&out);
}

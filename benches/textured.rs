//! The textured model export from the synthetic install (`gamebin synth install --scale small`:
//! the small world's ships, their 196 textures shared by nation and class, BC1/BC3/BC5/BC7 in
//! `.dds` files and `.dd2`/`.dd1`/`.dd0` tiers; written once under `target/bench-data/` and
//! reused), measured beside the same batch without textures.
//!
//! ```text
//! cargo bench --bench textured -- --measurement-time 4
//! GAMEBIN_BENCH_MAX_TEXTURE=none cargo bench --bench textured   # every texture at its largest
//! ```
//!
//! `batch/{untextured,textured}/threads=N`: the whole pipeline of `gamebin model --prefix
//! content/ --res GAME` over every model of the install (resolve; read, inflate and decode each
//! `.geometry` through a per-thread cache; with textures, read each map's tier out of the
//! install, decode it, convert it and encode it as PNG once for the batch through one shared
//! [`TextureCache`], as the CLI does; build the GLB; write it to a new file) on a rayon pool of N
//! threads, at most `GAMEBIN_BENCH_MAX_TEXTURE` pixels a side (1024 by default, the README's
//! examples' limit). Throughput in models; the bench prints the DDS bytes a batch decodes, from
//! which the MB/s of the README's row come.
//!
//! The split of the textured batch's extra cost on one thread, over the batch's distinct
//! textures at the limit: `texture/read` (the tier file found in the install and inflated),
//! `texture/decode` (its level decoded to RGBA8: throughput in DDS bytes), `texture/convert`
//! (the RGBA8 copied and converted to what glTF reads), `texture/png` (the RGBA8 encoded as PNG), and `write/{untextured,textured}` (the
//! batch's GLBs written to new files). The exporter never resizes: it picks the largest tier or
//! mip within the limit, which `texture/read` times.

use std::hint::black_box;
use std::path::PathBuf;
use std::time::Duration;

#[path = "batch/mod.rs"]
mod batch;

use batch::{bench_dir, fresh_folder, model_ids};
use criterion::{BatchSize, Criterion, Throughput};
use gamebin::dds::DdsView;
use gamebin::synth::assets_scale::{Scale, synth_world_textured};
use gamebin::synth::pfs::synth_install;
use gamebin::synth::ship_textures::{DDS_SIZE, ShipTexture, TIERS};
use gamebin::wows::assets::{AssetsDb, PathIndex};
use gamebin::wows::pfs::{BlobReader, GameInstall, Mapping};
use gamebin::wows::resolve::gltf::{ModelGlbOptions, model_to_glb_cached};
use gamebin::wows::resolve::{GeometryCache, ModelResolver};
use gamebin::wows::textures::maps::MapKind;
use gamebin::wows::textures::{TextureCache, TextureMode};
use rayon::prelude::*;

/// The small synthetic install, written once (into a temporary folder renamed into place).
fn cached_install() -> PathBuf {
    // Named after the generator's revision: a changed generator makes a new install.
    let game = bench_dir().join("install-small-textured-v1");
    if game.join("complete").is_file() {
        return game;
    }
    let temp = bench_dir().join(format!("install-small-textured.tmp-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&temp);
    synth_install(Scale::Small)
        .unwrap()
        .write_to(&temp)
        .unwrap();
    std::fs::write(temp.join("complete"), "").unwrap();
    let _ = std::fs::remove_dir_all(&game);
    std::fs::rename(&temp, &game).unwrap();
    game
}

/// `GAMEBIN_BENCH_MAX_TEXTURE`: a side in pixels, or `none` for every texture at its largest.
fn max_texture() -> Option<u32> {
    match std::env::var("GAMEBIN_BENCH_MAX_TEXTURE") {
        Err(_) => Some(1024),
        Ok(n) if n == "none" => None,
        Ok(n) => Some(n.parse().unwrap_or_else(|_| {
            panic!("GAMEBIN_BENCH_MAX_TEXTURE={n:?}: expected pixels or `none`")
        })),
    }
}

/// The file of `texture` the exporter reads within `max` pixels: the largest tier that fits
/// (every texture's `.dds` is 512 pixels, and every limit measured at least that).
fn chosen_file(texture: &ShipTexture, max: Option<u32>) -> String {
    let fits = |side: u32| side <= texture.size && max.is_none_or(|max| side <= max);
    let stem = texture.path.strip_suffix(".dds").unwrap_or(&texture.path);
    match TIERS.iter().rev().find(|&&(_, side)| fits(side)) {
        Some((extension, _)) => format!("{stem}.{extension}"),
        None => {
            assert!(fits(DDS_SIZE), "{}", texture.path);
            texture.path.clone()
        }
    }
}

/// The map a texture is, by its file name's suffix.
fn map_kind(path: &str) -> MapKind {
    let stem = path.strip_suffix(".dds").unwrap_or(path);
    match stem.rsplit('_').next() {
        Some("mg") => MapKind::MetallicGloss,
        Some("n") => MapKind::Normal,
        Some("ao") => MapKind::AmbientOcclusion,
        _ => MapKind::Albedo,
    }
}

fn main() {
    let game = cached_install();
    let install = GameInstall::open(&game, Mapping::Map).unwrap();
    let mut reader = BlobReader::default();
    let assets = install
        .read_to_vec("content/assets.bin", &mut reader)
        .unwrap()
        .unwrap();
    let db = AssetsDb::from_bytes(&assets).unwrap();
    let index = PathIndex::build(db.paths()).unwrap();
    let resolver = ModelResolver::new(db, &game)
        .with_install(&install)
        .with_path_index(&index);
    let ids = model_ids(&db, usize::MAX);
    let models = ids.len() as u64;
    let max = max_texture();
    let out = bench_dir().join("textured-out");
    let _ = std::fs::remove_dir_all(&out);
    std::fs::create_dir_all(&out).unwrap();

    // The batch's distinct textures and the file each is read from.
    let textures = synth_world_textured(Scale::Small).unwrap().textures;
    let files: Vec<(String, MapKind)> = textures
        .iter()
        .map(|t| (chosen_file(t, max), map_kind(&t.path)))
        .collect();
    let tiers: Vec<(Vec<u8>, MapKind)> = files
        .iter()
        .map(|(path, kind)| {
            let bytes = install.read_to_vec(path, &mut reader).unwrap().unwrap();
            (bytes, *kind)
        })
        .collect();
    let level_bytes = |bytes: &[u8]| {
        let view = DdsView::from_bytes(bytes).unwrap();
        view.level(0, 0).unwrap().data.len() as u64
    };
    let dds_bytes: u64 = tiers.iter().map(|(b, _)| level_bytes(b)).sum();
    let decoded: Vec<(u32, u32, Vec<u8>)> = tiers
        .iter()
        .map(|(bytes, kind)| {
            let level = DdsView::from_bytes(bytes).unwrap().level(0, 0).unwrap();
            let mut rgba = vec![0; level.rgba8_len().unwrap()];
            level.decode_rgba8(&mut rgba).unwrap();
            kind.convert(&mut rgba);
            (level.width, level.height, rgba)
        })
        .collect();
    let rgba_bytes: usize = decoded.iter().map(|(_, _, p)| p.len()).sum();
    println!(
        "textured: {models} models; {} distinct textures at most {} px, {:.1} MB of DDS levels \
         decoded a batch ({:.1} MB of RGBA8)",
        textures.len(),
        max.map_or_else(|| "any".to_owned(), |m| m.to_string()),
        dds_bytes as f64 / 1e6,
        rgba_bytes as f64 / 1e6,
    );

    let mut c = Criterion::default()
        .configure_from_args()
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(4));
    let mut g = c.benchmark_group("textured");
    g.throughput(Throughput::Elements(models));
    let untextured = ModelGlbOptions {
        textures: TextureMode::None,
        ..Default::default()
    };
    let textured = ModelGlbOptions {
        textures: TextureMode::Embed,
        max_texture: max,
        ..Default::default()
    };
    for (name, options) in [("untextured", &untextured), ("textured", &textured)] {
        for threads in [1, 2] {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            g.bench_function(format!("batch/{name}/threads={threads}"), |b| {
                b.iter_batched(
                    || fresh_folder(&out),
                    |folder| {
                        // One texture cache a batch, as one `gamebin model` run has.
                        let cache = TextureCache::default();
                        pool.install(|| {
                            ids.par_iter()
                                .enumerate()
                                .map_init(GeometryCache::new, |geometry, (n, &id)| {
                                    usize::from(batch::export(
                                        &resolver, geometry, &cache, options, id, &folder, n,
                                    ))
                                })
                                .sum::<usize>()
                        })
                    },
                    BatchSize::PerIteration,
                )
            });
        }
    }

    // The split of the textures' cost on one thread, over the batch's distinct textures.
    g.throughput(Throughput::Bytes(dds_bytes));
    g.bench_function("texture/read", |b| {
        let mut reader = BlobReader::default();
        b.iter(|| {
            files
                .iter()
                .map(|(path, _)| {
                    let bytes = install.read_to_vec(path, &mut reader).unwrap().unwrap();
                    black_box(DdsView::from_bytes(&bytes).unwrap().width())
                })
                .sum::<u32>()
        })
    });
    g.bench_function("texture/decode", |b| {
        let mut rgba = Vec::new();
        b.iter(|| {
            for (bytes, _) in &tiers {
                let level = DdsView::from_bytes(bytes).unwrap().level(0, 0).unwrap();
                rgba.clear();
                rgba.resize(level.rgba8_len().unwrap(), 0);
                level.decode_rgba8(&mut rgba).unwrap();
                black_box(&rgba);
            }
        })
    });
    g.bench_function("texture/convert", |b| {
        let mut rgba = Vec::new();
        b.iter(|| {
            for ((_, _, converted), (_, kind)) in decoded.iter().zip(&tiers) {
                rgba.clear();
                rgba.extend_from_slice(converted);
                kind.convert(&mut rgba);
                black_box(&rgba);
            }
        })
    });
    g.bench_function("texture/png", |b| {
        let mut png = Vec::new();
        b.iter(|| {
            for (width, height, rgba) in &decoded {
                png.clear();
                gamebin::dds::export::png::write_rgba8(*width, *height, rgba, &mut png).unwrap();
                black_box(&png);
            }
        })
    });

    // Writing the batch's GLBs, with and without their textures.
    g.throughput(Throughput::Elements(models));
    let cache = TextureCache::default();
    let mut geometry = GeometryCache::new();
    for (name, options) in [("untextured", &untextured), ("textured", &textured)] {
        let glbs: Vec<Vec<u8>> = ids
            .iter()
            .filter_map(|&id| {
                let model = resolver.resolve(id).ok()?;
                let loaded = geometry.load(&resolver, &model).ok()?;
                model_to_glb_cached(&resolver, &model, &loaded, options, &cache)
                    .ok()
                    .map(|glb| glb.bytes)
            })
            .collect();
        let total: usize = glbs.iter().map(Vec::len).sum();
        println!(
            "textured: {name}: {} of the {models} models export ({:.1} MB of GLB)",
            glbs.len(),
            total as f64 / 1e6
        );
        g.bench_function(format!("write/{name}"), |b| {
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
    }
    g.finish();
    c.final_summary();
    let _ = std::fs::remove_dir_all(&out);
}

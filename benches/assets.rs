//! `assets.bin` benchmarks on a full-scale generated file (246,065 paths, 786,433 string buckets,
//! 393,241 prototype buckets, ten databases), beside a plain memory scan of the same mapping as
//! the physical reference.
//!
//! ```text
//! cargo bench --bench assets
//! ```
//!
//! The input is made once by `gamebin::synth::assets_scale` (the same bytes as
//! `gamebin synth assets --scale full`) under `target/bench-data/` and reused by later runs; it is
//! never committed. Targets from the issue: `open` < 100 µs; `prototype(id)` median < 100 ns;
//! `lookup_path` < 300 ns; walking all paths building each full path into one reused buffer
//! < 30 ms; `verify_checksum` (both algorithms) within 3× of the plain scan.
//!
//! `assets_diff` compares the file with the patched one (`synth assets --patched`, 3,916
//! changes) and with itself: the target is under 2 s.
//!
//! Lookup benchmarks time batches of 4,096 keys spread over the whole table (criterion's
//! throughput is in elements, so the per-lookup time is the reported time / 4,096).

use std::hint::black_box;
use std::path::PathBuf;
use std::time::Duration;

use criterion::{Criterion, Throughput};
use gamebin::MappedFile;
use gamebin::synth::assets_scale::{Scale, synth, synth_patched};
use gamebin::wows::assets::{AssetsDb, PathIndex, Prototype, PrototypeType};

const BATCH: usize = 4096;

fn input() -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/bench-data");
    // Named after the generator's revision, so a changed generator makes a new file.
    let path = dir.join("assets-full-v3.bin");
    let fresh = std::fs::read(&path)
        .ok()
        .is_some_and(|d| AssetsDb::from_bytes(&d).is_ok_and(|db| db.paths().len() == 246_065));
    if !fresh {
        std::fs::create_dir_all(&dir).unwrap();
        let bytes = synth(Scale::Full).unwrap();
        std::fs::write(&path, bytes).unwrap();
    }
    path
}

/// The patched full-scale file (`gamebin synth assets --patched`), made once like [`input`].
fn patched_input() -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/bench-data");
    let path = dir.join("assets-full-patched-v1.bin");
    if AssetsDb::from_bytes(&std::fs::read(&path).unwrap_or_default()).is_err() {
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(&path, synth_patched(Scale::Full).unwrap()).unwrap();
    }
    path
}

/// A plain pass over every byte (8 bytes at a time): what touching the whole mapping costs.
fn plain_scan(data: &[u8]) -> u64 {
    let mut chunks = data.chunks_exact(8);
    let mut acc = 0u64;
    for c in &mut chunks {
        acc = acc.wrapping_add(u64::from_le_bytes(c.try_into().unwrap()));
    }
    acc ^ chunks.remainder().len() as u64
}

/// A deterministic Fisher–Yates shuffle.
fn shuffle<T>(items: &mut [T]) {
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    for i in (1..items.len()).rev() {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        items.swap(i, (state % (i as u64 + 1)) as usize);
    }
}

fn main() {
    let path = input();
    let file = MappedFile::open(&path).unwrap();
    let data: &[u8] = &file;
    let db = AssetsDb::from_bytes(data).unwrap();
    let index = PathIndex::build(db.paths()).unwrap();

    // Keys spread over the tables, in a shuffled order so that consecutive lookups do not walk
    // the buckets sequentially (which the prefetcher would flatter).
    let ids: Vec<u64> = {
        let all: Vec<u64> = db.prototypes().iter().map(|p| p.unwrap().0).collect();
        let step = (all.len() / BATCH).max(1);
        let mut ids: Vec<u64> = all.iter().step_by(step).take(BATCH).copied().collect();
        shuffle(&mut ids);
        ids
    };
    let paths: Vec<String> = ids
        .iter()
        .map(|&id| {
            let mut s = String::new();
            assert!(index.full_path(db.paths(), id, &mut s).unwrap());
            s
        })
        .collect();
    println!(
        "input: {} ({} bytes), {} paths, {} prototypes, {} strings; ids are path hashes: {:?}",
        path.display(),
        data.len(),
        db.paths().len(),
        db.prototypes().count(),
        db.strings().count(),
        db.ids_are_path_hashes(256).unwrap()
    );
    for d in db.databases().iter() {
        let d = d.unwrap();
        println!(
            "  {:<26} {:>7} records, {:>11} bytes",
            d.type_name().unwrap_or("?"),
            d.record_count(),
            d.blob().len()
        );
    }

    let mut c = Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
        .configure_from_args();

    let mut g = c.benchmark_group("assets");
    g.bench_function("open", |b| {
        b.iter(|| AssetsDb::from_bytes(black_box(data)).unwrap())
    });
    g.throughput(Throughput::Elements(BATCH as u64));
    g.bench_function("prototype_x4096", |b| {
        b.iter(|| {
            let mut n = 0u32;
            for &id in &ids {
                n = n.wrapping_add(db.prototype(black_box(id)).unwrap().unwrap().record);
            }
            n
        })
    });
    g.bench_function("lookup_path_x4096", |b| {
        b.iter(|| {
            let mut n = 0u32;
            for p in &paths {
                n = n.wrapping_add(db.lookup_path(black_box(p)).unwrap().unwrap().record);
            }
            n
        })
    });
    g.bench_function("string_x4096", |b| {
        let names: Vec<u32> = db
            .strings()
            .iter()
            .step_by(50)
            .take(BATCH)
            .map(|s| s.unwrap().0)
            .collect();
        b.iter(|| {
            let mut n = 0usize;
            for &id in &names {
                n += db.string(black_box(id)).unwrap().unwrap().len();
            }
            n
        })
    });
    g.throughput(Throughput::Elements(db.paths().len() as u64));
    g.sample_size(20);
    g.bench_function("walk_all_full_paths", |b| {
        let mut buf = String::with_capacity(512);
        b.iter(|| {
            let mut n = 0usize;
            index
                .for_each_full_path(db.paths(), &mut buf, |_, full| {
                    n += full.len();
                    Ok(())
                })
                .unwrap();
            n
        })
    });
    g.bench_function("full_path_per_id_indexed", |b| {
        let mut buf = String::with_capacity(512);
        b.iter(|| {
            let mut n = 0usize;
            for e in db.paths().iter() {
                index.full_path(db.paths(), e.self_id(), &mut buf).unwrap();
                n += buf.len();
            }
            n
        })
    });
    g.bench_function("full_path_per_index", |b| {
        let mut buf = String::with_capacity(512);
        b.iter(|| {
            let mut n = 0usize;
            for i in 0..db.paths().len() {
                index.full_path_at(db.paths(), i, &mut buf).unwrap();
                n += buf.len();
            }
            n
        })
    });
    g.bench_function("build_path_index", |b| {
        b.iter(|| PathIndex::build(db.paths()).unwrap())
    });
    g.bench_function("walk_all_path_names", |b| {
        b.iter(|| {
            db.paths()
                .iter()
                .map(|e| e.name().unwrap().len())
                .sum::<usize>()
        })
    });
    g.finish();

    // `find_path` is one pass over the path-entry table (stopping at the entry), two for an
    // absent path: both are measured against a plain pass over the same entries (their ids and
    // name sizes), per lookup.
    let mut g = c.benchmark_group("assets_find_path");
    g.sample_size(20);
    let probes: Vec<&String> = paths.iter().step_by(paths.len() / 16).take(16).collect();
    g.throughput(Throughput::Elements(probes.len() as u64));
    g.bench_function("find_path_x16", |b| {
        b.iter(|| {
            let mut n = 0usize;
            for p in &probes {
                n += db.find_path(black_box(p)).unwrap().unwrap().index();
            }
            n
        })
    });
    // An absent path costs both passes: the first finds nothing, the second confirms it.
    let absent: Vec<String> = probes.iter().map(|p| format!("{p}.absent")).collect();
    g.bench_function("find_absent_path_x16", |b| {
        b.iter(|| {
            let mut n = 0usize;
            for p in &absent {
                n += usize::from(db.find_path(black_box(p)).unwrap().is_none());
            }
            n
        })
    });
    g.bench_function("scan_path_entries_x16", |b| {
        b.iter(|| {
            let mut n = 0u64;
            for _ in &probes {
                n = db.paths().iter().fold(n, |n, e| {
                    n.wrapping_add(e.self_id() ^ e.parent_id())
                        .wrapping_add(u64::from(black_box(e.name_size())))
                });
            }
            n
        })
    });
    g.finish();

    let mut g = c.benchmark_group("assets");
    g.sample_size(20);
    g.throughput(Throughput::Bytes(data.len() as u64));
    g.bench_function("plain_scan", |b| b.iter(|| plain_scan(black_box(data))));
    g.bench_function("verify_checksum_both", |b| b.iter(|| db.verify_checksum()));
    g.bench_function("crc32_only", |b| {
        b.iter(|| crc32fast::hash(black_box(db.body())))
    });
    g.bench_function("murmur3_only", |b| {
        b.iter(|| {
            gamebin::hash::Murmur3::new(0)
                .update(black_box(db.body()))
                .finish()
        })
    });
    let visuals = db.database(PrototypeType::Visual).unwrap().unwrap();
    g.throughput(Throughput::Elements(visuals.record_count() as u64));
    g.bench_function("decode_all_visuals_names_and_render_sets", |b| {
        b.iter(|| {
            let mut n = 0usize;
            for i in 0..visuals.record_count() {
                let Prototype::Visual(v) = visuals.prototype(i, db.strings()).unwrap() else {
                    unreachable!()
                };
                for node in v.nodes().unwrap() {
                    n += db.string(node.name_id).unwrap().map_or(0, str::len);
                }
                for s in v.render_sets().unwrap() {
                    n += db.string(s.name_id()).unwrap().map_or(0, str::len);
                    n += db.string(s.material_name_id()).unwrap().map_or(0, str::len);
                    n += s.vertices_mapping_id() as usize & 1;
                    n += s.node_name_ids().unwrap().len();
                }
            }
            n
        })
    });
    g.finish();

    // `diff` against the patched file (`synth_patched`: a changed material, a removed texture
    // path and a new visual in every 20th ship group, so every later visual moves in its
    // database and all of them are read), and against itself (unchanged databases skipped).
    let patched_path = patched_input();
    let patched_file = MappedFile::open(&patched_path).unwrap();
    let patched = AssetsDb::from_bytes(&patched_file).unwrap();
    let report = gamebin::wows::assets::diff::files(&db, &patched).unwrap();
    println!(
        "diff against {}: {} changes",
        patched_path.display(),
        report.changes.len()
    );
    let mut g = c.benchmark_group("assets_diff");
    g.sample_size(10).measurement_time(Duration::from_secs(15));
    g.bench_function("full_scale_vs_patched", |b| {
        b.iter(|| {
            gamebin::wows::assets::diff::files(black_box(&db), black_box(&patched))
                .unwrap()
                .changes
                .len()
        })
    });
    g.bench_function("full_scale_vs_itself", |b| {
        b.iter(|| {
            gamebin::wows::assets::diff::files(black_box(&db), black_box(&db))
                .unwrap()
                .changes
                .len()
        })
    });
    g.finish();
    c.final_summary();
}

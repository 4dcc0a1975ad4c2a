//! PFS archive benchmarks on a synthetic install of a real build's shape (228 indexes, about
//! 421,000 names), written once under `target/pfs-bench/` and memory-mapped as a game folder.
//!
//! ```text
//! cargo bench --bench pfs
//! ```
//!
//! - `open_install`: `GameInstall::open` of the game folder: every index mapped and read, the id
//!   table of every name built (sorted, directories merged). Also printed: the heap the table
//!   keeps per name.
//! - `find`: a path to its name and file record (the path and its folder part hashed, both ids
//!   probed, the file's name record compared with the last segment, then its folders with the
//!   folder table up to the root), over every 97th file listed (4,061 paths) in turn; no
//!   allocation (tests/alloc_pfs.rs).
//! - `find_working_set/N`: the same over the first N of those paths (16, 512, all): how far the
//!   time is the memory the lookups touch, and how far their instructions.
//! - `inflate/gamebin_blob_reader`: reading a 16 MB deflated file with a kept [`BlobReader`] and
//!   output buffer: trailer, sizes, raw inflate and CRC-32. Bytes = the unpacked size.
//! - `inflate/zlib_rs_decompress_slice`: zlib-rs inflating the same raw stream into a kept buffer,
//!   alone (no CRC): the backend's own speed, for comparison.
//! - `read_all/threads_1` and `read_all/threads_2`: every file of a 4,000-file install read
//!   (inflated, CRC-checked) on 1 and 2 threads, each with its own reader and buffer: how reading
//!   an install scales.
//! - `extract/threads_1` and `extract/threads_2`: every file of the full-scale install extracted
//!   as `gamebin pfs extract` does it: read (inflated, CRC-checked), its folders made under a
//!   tmpfs folder in `/dev/shm` the first time one of its files comes (a set shared by the
//!   threads), the file created and written; the output folder removed between runs, untimed.
//!   Then 1 and 2 threads timed in alternation (5 rounds each) and the ratio of their medians
//!   printed. `PFS_BENCH_EXTRACT=0` leaves the group out.

use std::collections::HashSet;
use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use criterion::{Criterion, Throughput};
use gamebin::synth::assets_scale::Scale;
use gamebin::synth::pfs::{filler_install, shape};
use gamebin::wows::pfs::{BlobReader, Compression, GameInstall, Mapping, PfsWriter, Selection};

/// The full-scale install's game folder, written the first time.
fn install_dir() -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/pfs-bench/full-v1");
    if !dir.join("complete").is_file() {
        let (indexes, names) = shape(Scale::Full);
        let install = filler_install(indexes, names).expect("the install writes");
        let _ = std::fs::remove_dir_all(&dir);
        install.write_to(&dir).expect("the install is written");
        std::fs::write(dir.join("complete"), "").expect("marker");
    }
    dir
}

/// 16 MB of varied text-like bytes (a generated `assets.bin`'s first bytes compress alike).
fn big_file() -> Vec<u8> {
    let mut data = Vec::with_capacity(16 << 20);
    let mut x = 0x2545_f491_4f6c_dd1d_u64;
    while data.len() < 16 << 20 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let word = [
            "content/",
            "gameplay/",
            "ship",
            "_hull",
            ".geometry",
            "\0\0\0\0",
        ][x as usize % 6];
        data.extend_from_slice(word.as_bytes());
        data.extend_from_slice(&(x as u32 & 0x0fff).to_le_bytes());
    }
    data
}

/// gamebin's read and zlib-rs's inflate of the same stream timed in alternation (30 rounds of 5
/// runs each), so that both meet the same load: criterion's groups run a minute apart, and on a
/// shared machine their ratio can be off by tens of percent. Prints each one's median round and
/// the ratio of throughputs.
fn interleaved_inflate(
    reader: &mut BlobReader,
    file: &gamebin::wows::pfs::FileEntry,
    pkg: &[u8],
    stream: &[u8],
    out: &mut Vec<u8>,
    plain: &mut [u8],
) {
    const ROUNDS: usize = 30;
    const RUNS: u32 = 5;
    let mut rounds = [Vec::new(), Vec::new()];
    for _ in 0..ROUNDS {
        for (variant, times) in rounds.iter_mut().enumerate() {
            let start = std::time::Instant::now();
            for _ in 0..RUNS {
                let n = if variant == 0 {
                    reader
                        .read(black_box(file), black_box(pkg), out)
                        .expect("read")
                        .len()
                } else {
                    let config = zlib_rs::InflateConfig { window_bits: -15 };
                    let (done, rc) = zlib_rs::decompress_slice(plain, black_box(stream), config);
                    assert_eq!(rc, zlib_rs::ReturnCode::Ok);
                    done.len()
                };
                black_box(n);
            }
            times.push(start.elapsed().as_secs_f64() * 1e3 / f64::from(RUNS));
        }
    }
    let [gamebin, zlib] = rounds.map(|mut t| {
        t.sort_by(f64::total_cmp);
        t[t.len() / 2]
    });
    println!(
        "pfs/inflate interleaved: gamebin {gamebin:.2} ms, zlib-rs {zlib:.2} ms (medians of {ROUNDS} rounds): \
         gamebin at {:.3} of zlib-rs's throughput",
        zlib / gamebin
    );
}

/// Every file of `install` (its paths in `paths`) extracted under `out` on `pool`'s threads, as
/// `pfs extract` does: 64 files to a task, the folders made once (a set shared by the threads).
/// The bytes written.
fn extract_all(
    install: &GameInstall,
    paths: &[String],
    out: &Path,
    pool: &rayon::ThreadPool,
) -> usize {
    use rayon::prelude::*;
    let made = Mutex::new(HashSet::<String>::new());
    pool.install(|| {
        paths
            .par_chunks(64)
            .map_init(
                || (BlobReader::new(), Vec::new()),
                |(reader, buffer), chunk| {
                    let mut sum = 0;
                    for path in chunk {
                        let file = install.find(path).expect("find").expect("a file");
                        let bytes = install.read(&file, path, reader, buffer).expect("read");
                        if let Some((folder, _)) = path.rsplit_once('/') {
                            let known = made.lock().expect("lock").contains(folder);
                            if !known {
                                std::fs::create_dir_all(out.join(folder)).expect("folders");
                                made.lock().expect("lock").insert(folder.to_owned());
                            }
                        }
                        std::fs::write(out.join(path), bytes).expect("write");
                        sum += bytes.len();
                    }
                    sum
                },
            )
            .sum()
    })
}

/// The extraction group (see the module docs).
fn bench_extract(c: &mut Criterion, install: &GameInstall) {
    if std::env::var_os("PFS_BENCH_EXTRACT").is_some_and(|v| v == "0") {
        return;
    }
    let mut paths = Vec::new();
    install.for_each_file(&Selection::All, &mut String::new(), |path, _| {
        paths.push(path.to_owned());
        true
    });
    let out = PathBuf::from(format!("/dev/shm/gamebin-pfs-bench-{}", std::process::id()));
    let pools = [1, 2].map(|threads| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .expect("pool")
    });
    let timed = |pool: &rayon::ThreadPool| {
        let _ = std::fs::remove_dir_all(&out);
        let start = Instant::now();
        black_box(extract_all(install, &paths, &out, pool));
        let elapsed = start.elapsed();
        let _ = std::fs::remove_dir_all(&out);
        elapsed
    };
    let mut g = c.benchmark_group("pfs/extract");
    g.throughput(Throughput::Elements(paths.len() as u64));
    g.sample_size(10);
    g.warm_up_time(Duration::from_millis(1));
    g.measurement_time(Duration::from_secs(30));
    for (pool, threads) in pools.iter().zip([1, 2]) {
        g.bench_function(format!("threads_{threads}"), |b| {
            b.iter_custom(|iters| (0..iters).map(|_| timed(pool)).sum())
        });
    }
    g.finish();
    const ROUNDS: usize = 5;
    let mut rounds = [Vec::new(), Vec::new()];
    for _ in 0..ROUNDS {
        for (pool, times) in pools.iter().zip(rounds.iter_mut()) {
            times.push(timed(pool).as_secs_f64());
        }
    }
    let [one, two] = rounds.map(|mut t| {
        t.sort_by(f64::total_cmp);
        (t[0], t[t.len() / 2], t[t.len() - 1])
    });
    println!(
        "pfs/extract interleaved ({} files, {ROUNDS} rounds each): 1 thread {:.2} s ({:.2}-{:.2}), \
         2 threads {:.2} s ({:.2}-{:.2}): {:.2}x; load average {}",
        paths.len(),
        one.1,
        one.0,
        one.2,
        two.1,
        two.0,
        two.2,
        one.1 / two.1,
        std::fs::read_to_string("/proc/loadavg")
            .unwrap_or_default()
            .trim()
    );
}

fn main() {
    let mut c = Criterion::default().configure_from_args();

    let dir = install_dir();
    let install = GameInstall::open(&dir, Mapping::Map).expect("the install opens");
    println!(
        "pfs: {} names ({} files) in {} indexes; id table {:.2} bytes a name",
        install.entry_count(),
        install.file_count(),
        install.index_paths().count(),
        install.index_heap_bytes() as f64 / install.entry_count().max(1) as f64,
    );
    c.bench_function("pfs/open_install", |b| {
        b.iter(|| GameInstall::open(black_box(&dir), Mapping::Map).expect("open"))
    });

    let mut paths = Vec::new();
    let mut n = 0usize;
    install.for_each_file(&Selection::All, &mut String::new(), |path, _| {
        n += 1;
        if n.is_multiple_of(97) {
            paths.push(path.to_owned());
        }
        paths.len() < 4096
    });
    let mut i = 0;
    c.bench_function("pfs/find", |b| {
        b.iter(|| {
            i = (i + 1) % paths.len();
            install
                .find(black_box(&paths[i]))
                .expect("find")
                .expect("a file")
        })
    });

    // The same lookups over fewer distinct paths: how much of `find` is the memory its pages
    // are in (a working set that stays in the TLB and caches) and how much is its instructions.
    let mut group = c.benchmark_group("pfs/find_working_set");
    for count in [16, 512, paths.len()] {
        let mut i = 0;
        group.bench_function(count.to_string(), |b| {
            b.iter(|| {
                i = (i + 1) % count;
                install
                    .find(black_box(&paths[i]))
                    .expect("find")
                    .expect("a file")
            })
        });
    }
    group.finish();

    let data = big_file();
    let mut writer = PfsWriter::new("big_0001.pkg");
    writer
        .add("content/big.bin", &data, Compression::Deflate)
        .expect("add");
    let archive = writer.finish().expect("finish");
    let big = GameInstall::from_memory(
        vec![("big.idx".into(), archive.idx)],
        archive.volumes.clone(),
    )
    .expect("open");
    let file = big
        .find("content/big.bin")
        .expect("find")
        .expect("the file");
    let pkg = &archive.volumes[0].1;
    let stream = &pkg[..file.file.size as usize];
    let mut g = c.benchmark_group("pfs/inflate");
    g.throughput(Throughput::Bytes(data.len() as u64));
    let (mut reader, mut out) = (BlobReader::new(), Vec::new());
    g.bench_function("gamebin_blob_reader", |b| {
        b.iter(|| {
            reader
                .read(black_box(&file.file), black_box(pkg), &mut out)
                .expect("read")
                .len()
        })
    });
    let mut plain = vec![0u8; data.len()];
    g.bench_function("zlib_rs_decompress_slice", |b| {
        b.iter(|| {
            let config = zlib_rs::InflateConfig { window_bits: -15 };
            let (done, rc) = zlib_rs::decompress_slice(&mut plain, black_box(stream), config);
            assert_eq!(rc, zlib_rs::ReturnCode::Ok);
            done.len()
        })
    });
    g.finish();
    interleaved_inflate(&mut reader, &file.file, pkg, stream, &mut out, &mut plain);

    let small = filler_install(4, 4_000).expect("install");
    let small = GameInstall::from_memory(small.indexes, small.volumes).expect("open");
    let mut files = Vec::new();
    small.for_each_file(&Selection::All, &mut String::new(), |path, _| {
        files.push(path.to_owned());
        true
    });
    let mut g = c.benchmark_group("pfs/read_all");
    g.throughput(Throughput::Elements(files.len() as u64));
    for threads in [1, 2] {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .expect("pool");
        g.bench_function(format!("threads_{threads}"), |b| {
            b.iter(|| {
                use rayon::prelude::*;
                pool.install(|| {
                    files
                        .par_chunks(64)
                        .map_init(
                            || (BlobReader::new(), Vec::new()),
                            |(reader, out), chunk| {
                                let mut sum = 0;
                                for path in chunk {
                                    let file = small.find(path).expect("find").expect("file");
                                    sum +=
                                        small.read(&file, path, reader, out).expect("read").len();
                                }
                                sum
                            },
                        )
                        .sum::<usize>()
                })
            })
        });
    }
    g.finish();
    bench_extract(&mut c, &install);
    c.final_summary();
}

//! `.wwd` benchmarks: opening and walking a real-size Claw level, compressed and uncompressed, and
//! inflating its main block beside zlib-rs's own one-shot inflate of the same stream.
//!
//! ```text
//! cargo bench --bench wwd
//! ```
//!
//! The level is made once, before anything is timed, by the crate's writer: a Claw layout whose
//! Action plane is 768 × 192 tiles (the size of the largest real Claw plane seen), with 1,500
//! objects and 14 tile properties, stored uncompressed and as one zlib stream (default level).
//!
//! - `open_walk/uncompressed`: `WwdView::from_bytes` over the file, then every tile row, image-set
//!   name, object (with its strings) and tile property: zero-copy, no allocation.
//! - `open_walk/compressed_kept_inflater`: the same with the inflate buffer and the [`Inflater`]
//!   kept across iterations, as a tool scanning many levels keeps them (no allocation per open).
//! - `inflate/gamebin_open`: opening the compressed level alone (inflate + header checks) with a
//!   kept buffer and inflater; bytes = the inflated main block.
//! - `inflate/gamebin_open_fresh_inflater`: the same through `WwdView::from_bytes`, which makes a
//!   new decompressor (zlib-rs state, about 47 KB) per open.
//! - `inflate/zlib_rs_decompress_slice`: `zlib_rs::decompress_slice` on the same stream into a
//!   preallocated buffer: the backend's own speed, for comparison.
//! - `wwd_inflate_real_retail01`: the same three on Claw's retail level 1 (27 KB stream, 647 KB
//!   inflated) when `GAMEBIN_SAMPLES` is set.
//!
//! On a shared machine the load changes between criterion's groups, so a ratio of two medians
//! measured a minute apart can be off by tens of percent. With `GAMEBIN_WWD_INTERLEAVED=1` the
//! bench first times gamebin's open (kept inflater; fresh one) and zlib-rs's `decompress_slice`
//! in alternation, 60 rounds of 20 runs each, and prints each one's fastest and median round and
//! its ratio to zlib-rs: a comparison under the same conditions.

use std::hint::black_box;

use criterion::{Criterion, Throughput};
use gamebin::synth::wwd::claw_level;
use gamebin::wwd::{Inflater, Options, TileKind, WwdView};

fn walk(view: &WwdView<'_>) -> u64 {
    let mut sum = 0u64;
    for plane in view.planes() {
        let tiles = plane.tiles().expect("tiles");
        for row in tiles.rows() {
            for t in row {
                sum = sum.wrapping_add(u64::from(t.get()));
            }
        }
        for name in plane.image_sets() {
            sum += name.expect("name").len() as u64;
        }
        for o in plane.objects().expect("objects") {
            let o = o.expect("object");
            sum += (o.logic().len() + o.name().len() + o.image_set().len()) as u64;
            sum = sum.wrapping_add(u64::from(o.location().0.unsigned_abs()));
        }
    }
    for p in view.tile_properties().expect("table").iter() {
        sum += match p.expect("property").kind() {
            TileKind::Single { attribute } => u64::from(attribute.unsigned_abs()),
            TileKind::Double { inside, .. } => u64::from(inside.unsigned_abs()),
            TileKind::Mask { mask } => mask.len() as u64,
        };
    }
    sum
}

fn main() {
    let level = claw_level(768, 192, 1500);
    let plain = level.to_uncompressed().expect("uncompressed level");
    let packed = level.to_compressed().expect("compressed level");
    let inflated_len = (plain.len() - 1524) as u64;
    eprintln!(
        "level: {} bytes uncompressed, {} bytes compressed ({} inflated)",
        plain.len(),
        packed.len(),
        inflated_len
    );
    if std::env::var_os("GAMEBIN_WWD_INTERLEAVED").is_some() {
        interleaved("writer's level", &packed);
        if let Some(real) = real_level() {
            interleaved("retail level 1", &real);
        }
    }
    let mut c = Criterion::default().configure_from_args();

    let mut g = c.benchmark_group("wwd_open_walk");
    g.throughput(Throughput::BytesDecimal(inflated_len));
    g.bench_function("uncompressed", |b| {
        b.iter(|| {
            let mut unused = Vec::new();
            let view = WwdView::from_bytes(black_box(&plain), &mut unused).expect("open");
            black_box(walk(&view))
        })
    });
    let (mut buffer, mut inflater) = (Vec::new(), Inflater::new());
    g.bench_function("compressed_kept_inflater", |b| {
        b.iter(|| {
            let view = open_kept(black_box(&packed), &mut buffer, &mut inflater);
            black_box(walk(&view))
        })
    });
    g.finish();

    inflate_group(&mut c, "wwd_inflate", &packed);

    // The same comparison on a real level's stream, when the samples are available.
    if let Some(real) = real_level() {
        inflate_group(&mut c, "wwd_inflate_real_retail01", &real);
    }
    c.final_summary();
}

/// Claw's retail level 1, when `GAMEBIN_SAMPLES` is set.
fn real_level() -> Option<Vec<u8>> {
    let dir = std::env::var_os("GAMEBIN_SAMPLES")?;
    std::fs::read(std::path::Path::new(&dir).join("wap32-wwd/claw_libwap32_RETAIL01.WWD")).ok()
}

/// Times the three inflates in alternation and prints their fastest and median rounds.
fn interleaved(name: &str, level: &[u8]) {
    const ROUNDS: usize = 60;
    const RUNS: u32 = 20;
    let len = WwdView::from_bytes(level, &mut Vec::new())
        .expect("the level opens")
        .main_block_len();
    let (mut buffer, mut inflater) = (Vec::new(), Inflater::new());
    let mut out = vec![0u8; len];
    let names = [
        "gamebin open, kept inflater",
        "gamebin open, fresh inflater",
        "zlib-rs decompress_slice",
    ];
    let mut rounds: [Vec<f64>; 3] = Default::default();
    for _ in 0..ROUNDS {
        for (variant, times) in rounds.iter_mut().enumerate() {
            let start = std::time::Instant::now();
            for _ in 0..RUNS {
                let n = match variant {
                    0 => open_kept(black_box(level), &mut buffer, &mut inflater).main_block_len(),
                    1 => WwdView::from_bytes(black_box(level), &mut buffer)
                        .expect("open")
                        .main_block_len(),
                    _ => {
                        let (done, rc) = zlib_rs::decompress_slice(
                            &mut out,
                            black_box(&level[1524..]),
                            zlib_rs::InflateConfig::default(),
                        );
                        assert_eq!(rc, zlib_rs::ReturnCode::Ok);
                        done.len()
                    }
                };
                black_box(n);
            }
            times.push(start.elapsed().as_secs_f64() * 1e6 / f64::from(RUNS));
        }
    }
    let stats = rounds.map(|mut t| {
        t.sort_by(f64::total_cmp);
        (t[0], t[t.len() / 2])
    });
    let (zlib_min, zlib_median) = stats[2];
    eprintln!("interleaved, {name} ({len} bytes inflated), {ROUNDS} rounds of {RUNS}:");
    for (name, (min, median)) in names.iter().zip(stats) {
        eprintln!(
            "  {name:30} fastest {min:7.1} µs ({:.2} GB/s), median {median:7.1} µs; \
             speed vs zlib-rs: {:.2}x fastest, {:.2}x median",
            len as f64 / min / 1e3,
            zlib_min / min,
            zlib_median / median
        );
    }
}

fn open_kept<'a>(data: &'a [u8], buffer: &'a mut Vec<u8>, inflater: &mut Inflater) -> WwdView<'a> {
    WwdView::from_bytes_with(data, buffer, inflater, Options::default()).expect("open")
}

/// gamebin's inflate (kept inflater; fresh one) beside zlib-rs's one-shot inflate of the same
/// stream into a preallocated buffer.
fn inflate_group(c: &mut Criterion, name: &str, level: &[u8]) {
    let len = WwdView::from_bytes(level, &mut Vec::new())
        .expect("the level opens")
        .main_block_len();
    let mut g = c.benchmark_group(name);
    g.throughput(Throughput::BytesDecimal(len as u64));
    let (mut buffer, mut inflater) = (Vec::new(), Inflater::new());
    g.bench_function("gamebin_open", |b| {
        b.iter(|| {
            black_box(open_kept(black_box(level), &mut buffer, &mut inflater).main_block_len())
        })
    });
    g.bench_function("gamebin_open_fresh_inflater", |b| {
        b.iter(|| {
            let view = WwdView::from_bytes(black_box(level), &mut buffer).expect("open");
            black_box(view.main_block_len())
        })
    });
    let mut out = vec![0u8; len];
    g.bench_function("zlib_rs_decompress_slice", |b| {
        b.iter(|| {
            let (done, rc) = zlib_rs::decompress_slice(
                &mut out,
                black_box(&level[1524..]),
                zlib_rs::InflateConfig::default(),
            );
            assert_eq!(rc, zlib_rs::ReturnCode::Ok);
            black_box(done.len())
        })
    });
    g.finish();
}

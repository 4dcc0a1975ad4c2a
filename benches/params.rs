//! GameParams.data benchmarks on `synth params --scale full` (14,000 entries, about the game's):
//!
//! ```text
//! cargo bench --bench params
//! ```
//!
//! The file is made once, before anything is timed, by the crate's writer.
//!
//! - `params/open_index`: inflate (reversed zlib) and index every entry, with a kept
//!   [`ParamsScratch`] (no allocation per open); bytes = the inflated pickle.
//! - `params/inflate_only`: the inflate alone (zlib-rs's one-shot decompress of the reversed file
//!   into a preallocated buffer), the floor of `open_index`.
//! - `params/lookup_{name,id,index}`: one look-up after open.
//! - `params/ship_to_json`: the largest ship entry decoded and written as compact JSON.
//! - `params/all_to_json`: every entry decoded and written as compact JSON (one core).
//!
//! The other side of issue #50's comparison rows, CPython's C unpickler on the same file, is
//! `python3 benches/params_cpython.py FILE` (`gamebin synth params --scale full -o FILE`), run
//! right after.

use std::hint::black_box;

use criterion::{Criterion, Throughput};
use gamebin::wows::params::export::json::{Layout, write_entries, write_value};
use gamebin::wows::params::{ParamsScratch, ParamsView};

fn main() {
    let file = gamebin::synth::params::full();
    let mut c = Criterion::default().configure_from_args();
    let mut scratch = ParamsScratch::default();
    let (pickle_len, ship_name, ship_id, ship_index) = {
        let view = ParamsView::from_bytes(&file, &mut scratch).expect("the synthetic file opens");
        let ship = view
            .by_name("PJSD012_Shimakaze_1943")
            .expect("the named ship");
        (
            view.pickle().len(),
            ship.name().into_owned(),
            ship.id().expect("id"),
            ship.index().expect("index").into_owned(),
        )
    };
    eprintln!(
        "params: file {} bytes, pickle {pickle_len} bytes",
        file.len()
    );
    let mut g = c.benchmark_group("params");
    g.throughput(Throughput::Bytes(pickle_len as u64));
    g.sample_size(20);
    g.bench_function("open_index", |b| {
        b.iter(|| {
            let view = ParamsView::from_bytes(black_box(&file), &mut scratch).expect("opens");
            black_box(view.len())
        })
    });
    let mut reversed = file.clone();
    reversed.reverse();
    let mut out = vec![0u8; pickle_len];
    g.bench_function("inflate_only", |b| {
        b.iter(|| {
            let (got, _) = zlib_rs::decompress_slice(
                &mut out,
                black_box(&reversed),
                zlib_rs::InflateConfig::default(),
            );
            black_box(got.len())
        })
    });
    g.throughput(Throughput::Elements(1));
    g.sample_size(100);
    let view = ParamsView::from_bytes(&file, &mut scratch).expect("opens");
    g.bench_function("lookup_name", |b| {
        b.iter(|| black_box(view.by_name(black_box(&ship_name))).map(|e| e.offset()))
    });
    g.bench_function("lookup_id", |b| {
        b.iter(|| black_box(view.by_id(black_box(ship_id))).map(|e| e.offset()))
    });
    g.bench_function("lookup_index", |b| {
        b.iter(|| black_box(view.by_index(black_box(&ship_index))).map(|e| e.offset()))
    });
    let ship = view.by_name(&ship_name).expect("ship");
    let mut buf = Vec::with_capacity(1 << 20);
    g.bench_function("ship_to_json", |b| {
        b.iter(|| {
            buf.clear();
            let v = ship.value().expect("decodes");
            write_value(&mut buf, &v, Layout::Compact, 0).expect("writes");
            black_box(buf.len())
        })
    });
    g.throughput(Throughput::Bytes(pickle_len as u64));
    g.sample_size(10);
    let mut all = Vec::with_capacity(64 << 20);
    g.bench_function("all_to_json", |b| {
        b.iter(|| {
            all.clear();
            let items = view.entries().map(|e| {
                e.value()
                    .map(|v| (e.name(), v))
                    .map_err(std::io::Error::other)
            });
            write_entries(&mut all, items, Layout::Compact).expect("writes");
            black_box(all.len())
        })
    });
    g.finish();
    c.final_summary();
}

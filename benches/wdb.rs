//! `.wdb` benchmarks: decoding every field of every record of a generated 10 MB WDB, beside a
//! plain scan of the same record bytes measured in the same run, and looking records up by name.
//!
//! ```text
//! cargo bench --bench wdb
//! ```
//!
//! The input is made once, before anything is timed, by the crate's writer: a 10.1 MB file of
//! 110,000 records of 60 bytes (15 cells), each with 27 fields in the mix the real files have:
//! three `!!string` fields, three floats, two u32 cells, a whole-word signed cell and 18 bit fields
//! over six bit-packed cells (widths 1 to 20, signed and unsigned, fields that move to the next
//! cell, two `s#` string-array indices).
//!
//! - `plain_scan_file`: sums every big-endian u32 of the whole file — the bytes the full decode
//!   reads (the entry table that locates each record, the records, the string sections) — the
//!   issue's "plain scan of the same bytes" and the reference of the 10× target.
//! - `plain_scan`: the same over the records' bytes alone — a stricter reference (it leaves out
//!   the entry table and the strings that the decode must read too).
//! - `decode_all_fields`: `Schema::for_each_value` over every record, folding each value (string
//!   lengths included, so strings are really resolved); `decode_all_fields_values_iter`: the
//!   same through the `Schema::values` iterator; `decode_all_fields_per_field`: the first again,
//!   reported in fields per second.
//! - `wdb_10mb_on_cpu`: the scan and both decodes timed in this thread's on-CPU time
//!   (`/proc/thread-self/schedstat`), which leaves out the time other processes held a shared
//!   machine's cores (it still counts their effect on the caches).
//! - `record_by_name`: one binary-search lookup, cycling through 4,096 names spread over the file.
//!
//! Measured (2026-11-21, AMD EPYC Zen 4 under KVM, 2 vCPUs, rustc 1.95.0, quiet: load average
//! 1.2–1.3, the bench itself): file scan 0.524 ms (18.0 GiB/s), record-bytes scan 0.339 ms;
//! `for_each_value` 4.51 ms (652 M fields/s) = 8.6× the file scan (target 10×: met) and 13.3× the
//! record-bytes scan; the `values` iterator 5.23 ms. On-CPU: file scan 0.524 ms, `for_each_value`
//! 4.53 ms = 8.7×. `record_by_name` 141 ns, plus one field read 176 ns (target < 1 µs, met).

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, SamplingMode, Throughput};
use gamebin::wdb::model::{StrArrayLayout, TableRecord, TableValue, WdbModel};
use gamebin::wdb::{Schema, Value, WdbView};

const RECORDS: usize = 110_000;

fn names() -> Vec<String> {
    [
        "sName",
        "fScale",
        "fYaw",
        "uFlags",
        "iWhole",
        "u7Race",
        "u9Save",
        "u9Sort",
        "u1Boss",
        "u2Memory",
        "u1Camera",
        "u13Zone",
        "u16Extinct",
        "u16Few",
        "s4Kind",
        "i16ArgA",
        "i16ArgB",
        "u8A",
        "u8B",
        "i8C",
        "s8Icon",
        "sModel",
        "fPitch",
        "sScript",
        "uCount",
        "i12Power",
        "u20Rest",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect()
}

fn table() -> WdbModel {
    use TableValue::{Float as F, Int as I, Str as S, UInt as U};
    let strings: Vec<String> = (0..1000).map(|i| format!("name_{i:04}")).collect();
    let mut records = Vec::with_capacity(RECORDS);
    let mut x = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    for i in 0..RECORDS {
        let r = next();
        let s = |k: u64| S(strings[((r >> k) % 1000) as usize].clone());
        records.push(TableRecord {
            name: format!("rec{i:07}"),
            values: vec![
                s(0),
                F((r % 1000) as f32 * 0.25),
                F(-(((r >> 10) % 360) as f32)),
                U(r >> 32),
                I(-((r % 100_000) as i64)),
                U(r % 128),
                U((r >> 7) % 512),
                U((r >> 16) % 512),
                U((r >> 25) % 2),
                U((r >> 26) % 4),
                U((r >> 28) % 2),
                U((r >> 29) % 8192),
                U((r >> 42) % 65536),
                U((r >> 3) % 65536),
                S(format!("kind{}", r % 4)),
                I(((r >> 20) % 65536) as i64 - 32768),
                I(((r >> 36) % 65536) as i64 - 32768),
                U(r % 256),
                U((r >> 8) % 256),
                I(((r >> 16) % 256) as i64 - 128),
                S(format!("icon{}", (r >> 30) % 40)),
                s(12),
                F(((r >> 5) % 90) as f32),
                s(24),
                U((r >> 40) % 1000),
                I(((r >> 50) % 4096) as i64 - 2048),
                U((r >> 13) % (1 << 20)),
            ],
        });
    }
    WdbModel {
        sheet_name: Some("BenchTable".into()),
        version: Some(1),
        // sName fScale fYaw uFlags iWhole [u7 u9 u9 u1 u2 u1] [u13 u16] [u16 s4] [i16 i16]
        // [u8 u8 i8] [s8 ..] sModel fPitch sScript uCount [i12 u20]
        type_codes: vec![2, 1, 1, 3, 0, 0, 0, 0, 0, 0, 2, 1, 2, 3, 0],
        field_names: Some(names()),
        write_field_names: true,
        str_array: Some(StrArrayLayout {
            offsets_per_word: 2,
            bits_per_offset: 16,
        }),
        string_arrays: vec![Vec::new(); 2],
        records,
        ..WdbModel::default()
    }
}

/// Every field of every record through [`Schema::for_each_value`], each value folded in (string
/// lengths included, so strings are really resolved).
#[inline(never)]
fn visit_all(view: &WdbView<'_>, schema: &Schema<'_>) -> u64 {
    let mut acc = 0u64;
    for record in view.records() {
        schema
            .for_each_value(&record, |_, value| acc = acc.wrapping_add(fold(value)))
            .unwrap();
    }
    acc
}

/// The same through the [`Schema::values`] iterator.
#[inline(never)]
fn iterate_all(view: &WdbView<'_>, schema: &Schema<'_>) -> u64 {
    let mut acc = 0u64;
    for record in view.records() {
        for (_, value) in schema.values(record) {
            acc = acc.wrapping_add(fold(value.unwrap()));
        }
    }
    acc
}

fn fold(v: Value<'_>) -> u64 {
    match v {
        Value::Int(i) => i as u64,
        Value::UInt(u) => u,
        Value::Float(f) => u64::from(f.to_bits()),
        Value::Str(s) => s.len() as u64,
    }
}

/// The records' bytes: one contiguous run after the sections (the writer's layout).
fn record_bytes<'a>(view: &WdbView<'a>) -> &'a [u8] {
    let first = view.record(0).unwrap();
    let last = view.record(view.record_count() - 1).unwrap();
    &view.as_bytes()[first.offset()..last.offset() + last.data().len()]
}

fn plain_scan(bytes: &[u8]) -> u64 {
    bytes
        .chunks_exact(4)
        .map(|w| u64::from(u32::from_be_bytes([w[0], w[1], w[2], w[3]])))
        .fold(0u64, u64::wrapping_add)
}

/// Nanoseconds this thread has run on a CPU (`/proc/thread-self/schedstat`'s first field), so
/// that a measurement on a shared machine leaves out the time other processes held the cores.
fn on_cpu_ns() -> u64 {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse().ok())
        .unwrap_or(0)
}

/// Times `iters` runs of `f` in on-CPU time.
fn on_cpu<T>(iters: u64, mut f: impl FnMut() -> T) -> Duration {
    let start = on_cpu_ns();
    for _ in 0..iters {
        black_box(f());
    }
    Duration::from_nanos(on_cpu_ns().saturating_sub(start))
}

fn main() {
    let file = table().to_bytes().expect("the bench table packs");
    let view = WdbView::from_bytes(&file).unwrap();
    let schema = view.schema().unwrap();
    let bytes = record_bytes(&view);
    let fields = (schema.len() * view.record_count()) as u64;
    eprintln!(
        "input: {} bytes, {} records of {} bytes, {} fields each ({fields} fields), record bytes {}",
        file.len(),
        view.record_count(),
        schema.record_size(),
        schema.len(),
        bytes.len()
    );
    assert!(view.is_sorted());

    let mut c = Criterion::default()
        .configure_from_args()
        .warm_up_time(Duration::from_secs(2))
        .measurement_time(Duration::from_secs(6));

    // Every field of every record, through the visitor and through the iterator: the same two
    // functions under both timers (not a closure inlined into each timing loop, whose code the
    // compiler would lay out once per loop, so that the two timers measured different code).
    let visit_all = || visit_all(black_box(&view), &schema);
    let iterate_all = || iterate_all(black_box(&view), &schema);
    let mut group = c.benchmark_group("wdb_10mb");
    group.throughput(Throughput::Bytes(file.len() as u64));
    group.bench_function("plain_scan_file", |b| {
        b.iter(|| plain_scan(black_box(&file)))
    });
    group.throughput(Throughput::Bytes(bytes.len() as u64));
    group.bench_function("plain_scan", |b| b.iter(|| plain_scan(black_box(bytes))));
    group.bench_function("decode_all_fields", |b| b.iter(visit_all));
    group.bench_function("decode_all_fields_values_iter", |b| b.iter(iterate_all));
    group.throughput(Throughput::Elements(fields));
    group.bench_function("decode_all_fields_per_field", |b| b.iter(visit_all));
    group.finish();

    // The same in on-CPU time: few, long samples, because the kernel updates the counter at
    // scheduler ticks and switches.
    let mut group = c.benchmark_group("wdb_10mb_on_cpu");
    group
        .sampling_mode(SamplingMode::Flat)
        .sample_size(10)
        .measurement_time(Duration::from_secs(10));
    group.throughput(Throughput::Bytes(file.len() as u64));
    group.bench_function("plain_scan_file", |b| {
        b.iter_custom(|n| on_cpu(n, || plain_scan(black_box(&file))))
    });
    group.throughput(Throughput::Bytes(bytes.len() as u64));
    group.bench_function("plain_scan", |b| {
        b.iter_custom(|n| on_cpu(n, || plain_scan(black_box(bytes))))
    });
    group.bench_function("decode_all_fields", |b| {
        b.iter_custom(|n| on_cpu(n, visit_all))
    });
    group.bench_function("decode_all_fields_values_iter", |b| {
        b.iter_custom(|n| on_cpu(n, iterate_all))
    });
    group.finish();

    let lookups: Vec<String> = (0..4096)
        .map(|i| format!("rec{:07}", (i * 7919 * 5) % RECORDS))
        .collect();
    let mut group = c.benchmark_group("wdb_lookup");
    let mut i = 0usize;
    group.bench_function("record_by_name", |b| {
        b.iter(|| {
            i = (i + 1) & 4095;
            black_box(&view).record_by_name(black_box(lookups[i].as_bytes()))
        })
    });
    group.bench_function("record_by_name_and_read_field", |b| {
        b.iter(|| {
            i = (i + 1) & 4095;
            let r = black_box(&view).record_by_name(black_box(lookups[i].as_bytes()));
            schema.value(&r.unwrap(), 11).map(fold)
        })
    });
    group.finish();
    c.final_summary();
}

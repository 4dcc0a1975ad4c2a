//! DDS benchmarks: decoding BC1, BC3 and BC7 levels into RGBA8 with gamebin (bcdec_rs) and with
//! texture2ddecoder, the other pure-Rust decoder measured (image_dds decodes through bcdec_rs and
//! was measured outside this bench: BENCHMARKS.md), on 1024×1024 generated textures and, when
//! `GAMEBIN_SAMPLES` is set, on the real mod textures of `wows-mod/`; opening a texture and
//! listing its levels; and encoding a decoded level as PNG (what a textured export pays per
//! texture). Throughput is bytes of decoded RGBA8 (of PNG input for the encoding).
//!
//! ```text
//! cargo bench --bench dds
//! GAMEBIN_SAMPLES=../shared/samples cargo bench --bench dds -- real
//! ```

use std::hint::black_box;
use std::path::{Path, PathBuf};

use criterion::{BenchmarkId, Criterion, Throughput};
use gamebin::dds::{DdsView, Level, TextureFormat};
use gamebin::synth::dds::{Kind, Spec, texture};

fn theirs(level: &Level<'_>, words: &mut [u32]) {
    let (w, h) = (level.width as usize, level.height as usize);
    let decode = match level.format {
        TextureFormat::Bc1 => texture2ddecoder::decode_bc1,
        TextureFormat::Bc3 => texture2ddecoder::decode_bc3,
        _ => texture2ddecoder::decode_bc7,
    };
    decode(level.data, w, h, words).unwrap();
}

fn decode_pair(c: &mut Criterion, group: &str, name: &str, bytes: &[u8]) {
    let view = DdsView::from_bytes(bytes).unwrap();
    let level = view.level(0, 0).unwrap();
    let len = level.rgba8_len().unwrap();
    let mut g = c.benchmark_group(group);
    g.throughput(Throughput::Bytes(len as u64));
    let mut rgba = vec![0u8; len];
    g.bench_function(BenchmarkId::new("gamebin (bcdec_rs)", name), |b| {
        b.iter(|| level.decode_rgba8(black_box(&mut rgba)).unwrap())
    });
    let mut words = vec![0u32; len / 4];
    g.bench_function(BenchmarkId::new("texture2ddecoder", name), |b| {
        b.iter(|| theirs(black_box(&level), &mut words))
    });
    g.finish();
}

fn real_textures(dir: &Path, found: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        if path.is_dir() {
            real_textures(&path, found);
        } else if path.extension().is_some_and(|e| e == "dds") {
            found.push(path);
        }
    }
}

fn bench(c: &mut Criterion) {
    for (kind, name) in [(Kind::Bc1, "BC1"), (Kind::Bc3, "BC3"), (Kind::Bc7, "BC7")] {
        let bytes = texture(&Spec::new(kind, 1024, 1024, 1)).unwrap();
        decode_pair(c, "dds/decode 1024x1024", name, &bytes);
    }
    if let Some(samples) = std::env::var_os("GAMEBIN_SAMPLES") {
        let mut found = Vec::new();
        real_textures(&Path::new(&samples).join("wows-mod"), &mut found);
        found.sort();
        for path in found {
            let bytes = std::fs::read(&path).unwrap();
            let view = DdsView::from_bytes(&bytes).unwrap();
            if view.width() < 64 {
                continue;
            }
            let name = format!(
                "{} {}",
                view.format().name(),
                path.file_name().unwrap().to_string_lossy()
            );
            decode_pair(c, "dds/decode real", &name, &bytes);
        }
    }

    let mipped = texture(&Spec::new(Kind::Bc7, 1024, 1024, 11)).unwrap();
    c.bench_function("dds/open and list 11 levels", |b| {
        b.iter(|| {
            let view = DdsView::from_bytes(black_box(&mipped)).unwrap();
            view.levels().map(|l| l.data.len()).sum::<usize>()
        })
    });

    let bytes = texture(&Spec::new(Kind::Bc3, 512, 512, 1)).unwrap();
    let view = DdsView::from_bytes(&bytes).unwrap();
    let level = view.level(0, 0).unwrap();
    let mut rgba = vec![0u8; level.rgba8_len().unwrap()];
    level.decode_rgba8(&mut rgba).unwrap();
    let mut g = c.benchmark_group("dds/png");
    g.throughput(Throughput::Bytes(rgba.len() as u64));
    let mut out = Vec::new();
    g.bench_function("encode 512x512 RGBA8 (fast)", |b| {
        b.iter(|| {
            out.clear();
            gamebin::dds::export::png::write_rgba8(512, 512, black_box(&rgba), &mut out).unwrap();
            out.len()
        })
    });
    g.finish();
}

fn main() {
    let mut c = Criterion::default().configure_from_args();
    bench(&mut c);
    c.final_summary();
}

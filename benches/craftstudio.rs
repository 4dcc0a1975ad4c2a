//! CraftStudio `Project.dat` benchmarks: opening a view (which walks and checks the whole file)
//! and a full walk of header, controls, entries and revisions, on the largest real sample and on
//! a generated 10,000-entry project; plus building an [`EntryIndex`] and writing every entry's
//! path through it.
//!
//! ```text
//! GAMEBIN_SAMPLES=../shared/samples cargo bench --bench craftstudio
//! ```
//!
//! Without `GAMEBIN_SAMPLES` the real-sample benchmarks are skipped with a message. The generated
//! project is made by the crate's writer before anything is timed: 100 folders in 10 levels, 9,900
//! assets of every type with 0–4 timestamped revisions each, 64 game controls.
//!
//! [`EntryIndex`]: gamebin::craftstudio::EntryIndex

use std::hint::black_box;
use std::path::PathBuf;

use criterion::{Criterion, Throughput};
use gamebin::craftstudio::model::{ControlSpec, EntrySpec, ProjectModel};
use gamebin::craftstudio::{Parent, ProjectView};

/// 100 folders (ten chains of ten), 9,900 assets spread over them, 64 controls.
fn generated() -> Vec<u8> {
    let mut p = ProjectModel::new("Generated");
    for c in 0..64u16 {
        p.controls.push(ControlSpec::key(
            c,
            &format!("Control {c}"),
            65 + (c % 26) as u8,
        ));
    }
    p.next_control_id = 64;
    for f in 0..100u16 {
        let parent = if f % 10 == 0 { None } else { Some(f - 1) };
        p.entries.push(EntrySpec::folder(
            f,
            parent,
            &format!("Folder {f}"),
            (f / 10 % 10) as u8,
        ));
    }
    for a in 100..10_000u16 {
        let mut asset = EntrySpec::asset(
            a,
            Some(a % 100),
            &format!("Asset number {a}"),
            (a % 10) as u8,
        );
        for r in 0..(a % 5) {
            asset = asset.revision(r, &format!("2014-0{}-1{r} 12:34:56", 1 + r));
        }
        asset.trashed = a % 97 == 0;
        p.entries.push(asset);
    }
    p.next_entry_id = 10_000;
    p.to_bytes().expect("10,000 entries fit a u16 count")
}

/// The largest file in `$GAMEBIN_SAMPLES/craftstudio-project`.
fn largest_sample() -> Option<(String, Vec<u8>)> {
    let Some(dir) = std::env::var_os("GAMEBIN_SAMPLES") else {
        eprintln!("GAMEBIN_SAMPLES is not set: skipping the real-sample benchmarks");
        return None;
    };
    let dir = PathBuf::from(dir).join("craftstudio-project");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .ok()?
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "dat"))
        .collect();
    files.sort_by_key(|p| std::fs::metadata(p).map(|m| m.len()).unwrap_or(0));
    let path = files.pop()?;
    let name = path.file_name()?.to_string_lossy().into_owned();
    Some((name, std::fs::read(&path).ok()?))
}

/// Opens and reads everything once; returns a checksum.
fn open_and_walk(data: &[u8]) -> usize {
    let view = ProjectView::from_bytes(data).expect("opens");
    let mut sum = view.name().len() + view.description().len();
    for c in view.controls() {
        let c = c.expect("an open view's controls read");
        sum += c.name().len() + usize::from(c.positive_key().0) + c.gravity() as usize;
    }
    for e in view.entries() {
        let e = e.expect("an open view's entries read");
        sum += e.name().len() + usize::from(e.parent_id()) + usize::from(e.is_trashed());
        sum += e.entry_type().to_u8() as usize;
        for r in e.revisions() {
            let r = r.expect("an open view's revisions read");
            sum += r.name.len() + usize::from(r.id);
        }
    }
    sum + view.trailing_bytes().len()
}

/// Builds the index and writes every entry's path and resolves every parent through it.
fn index_and_paths(view: &ProjectView<'_>, path: &mut String) -> usize {
    let index = view.index();
    let mut sum = 0;
    for e in view.entries() {
        let e = e.expect("an open view's entries read");
        index.path_into(&e, path).expect("no loops");
        sum += path.len();
        if let Parent::Entry(p) = index.parent(&e) {
            sum += usize::from(p.id());
        }
    }
    sum
}

fn bench(c: &mut Criterion, label: &str, data: &[u8]) {
    let view = ProjectView::from_bytes(data).expect("opens");
    eprintln!(
        "{label}: {} bytes, {} entries, {} controls",
        data.len(),
        view.entry_count(),
        view.control_count()
    );
    let mut group = c.benchmark_group(format!("craftstudio/{label}"));
    group.throughput(Throughput::Bytes(data.len() as u64));
    group.bench_function("open", |b| {
        b.iter(|| ProjectView::from_bytes(black_box(data)).map(|v| v.entry_count()))
    });
    group.bench_function("open_and_full_walk", |b| {
        b.iter(|| open_and_walk(black_box(data)))
    });
    let mut path = String::with_capacity(4096);
    group.bench_function("index_and_all_paths", |b| {
        b.iter(|| index_and_paths(black_box(&view), &mut path))
    });
    group.finish();
}

fn main() {
    let mut c = Criterion::default().configure_from_args();
    if let Some((name, data)) = largest_sample() {
        bench(&mut c, &format!("sample {name}"), &data);
    }
    let data = generated();
    bench(&mut c, "generated 10000 entries", &data);
    c.final_summary();
}

//! What changed in a game update, from two full-scale synthetic installs (`gamebin synth install
//! --scale full` and the same with `--update`: 228 indexes and about 421,000 names each), written
//! once under `target/pfs-bench/diff-v1/` and memory-mapped as game folders.
//!
//! ```text
//! cargo bench --bench install_diff
//! ```
//!
//! - `install_diff/new`: `InstallDiff::new` of the two opened installs: every file record read,
//!   each install's files put in path order (the two on two threads). Also printed: the heap the
//!   diff keeps per file.
//! - `install_diff/changes`: the merge of the two sorted lists, every change counted.
//! - `install_diff/open_and_diff`: both installs opened (`GameInstall::open`), the diff made and
//!   every change walked: the library's part of `gamebin diff OLD NEW --only files`.

use std::hint::black_box;
use std::path::PathBuf;

use criterion::Criterion;
use gamebin::synth::assets_scale::Scale;
use gamebin::synth::pfs::{synth_install, synth_update};
use gamebin::wows::pfs::{GameInstall, InstallDiff, Mapping};

/// The two game folders, written the first time.
fn install_dirs() -> (PathBuf, PathBuf) {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/pfs-bench/diff-v1");
    let (old, new) = (root.join("old"), root.join("new"));
    if !root.join("complete").is_file() {
        let _ = std::fs::remove_dir_all(&root);
        synth_install(Scale::Full)
            .expect("the install is made")
            .write_to(&old)
            .expect("the install is written");
        synth_update(Scale::Full)
            .expect("the update is made")
            .write_to(&new)
            .expect("the update is written");
        std::fs::write(root.join("complete"), "").expect("marker");
    }
    (old, new)
}

fn main() {
    let mut c = Criterion::default().configure_from_args();
    let (old_dir, new_dir) = install_dirs();
    let old = GameInstall::open(&old_dir, Mapping::Map).expect("the old install opens");
    let new = GameInstall::open(&new_dir, Mapping::Map).expect("the new install opens");
    let diff = InstallDiff::new(&old, &new).expect("the diff");
    let (a, b) = diff.file_counts();
    let changes = diff.changes().count();
    eprintln!(
        "install_diff: {a} and {b} files, {changes} changes; the diff keeps {} bytes ({:.1} a file)",
        diff.heap_bytes(),
        diff.heap_bytes() as f64 / (a + b) as f64
    );
    drop(diff);

    let mut g = c.benchmark_group("install_diff");
    g.sample_size(20);
    g.bench_function("new", |bench| {
        bench.iter(|| InstallDiff::new(black_box(&old), black_box(&new)).expect("the diff"))
    });
    let diff = InstallDiff::new(&old, &new).expect("the diff");
    g.bench_function("changes", |bench| {
        bench.iter(|| black_box(&diff).changes().count())
    });
    g.sample_size(10);
    g.bench_function("open_and_diff", |bench| {
        bench.iter(|| {
            let old = GameInstall::open(&old_dir, Mapping::Map).expect("opens");
            let new = GameInstall::open(&new_dir, Mapping::Map).expect("opens");
            let diff = InstallDiff::new(&old, &new).expect("the diff");
            diff.changes().count()
        })
    });
    g.finish();
    c.final_summary();
    cpu_times(&old, &new, &old_dir, &new_dir);
}

/// The process's CPU time so far (user + system, both threads), from `/proc/self/stat`, in
/// clock ticks (`None` off Linux).
fn cpu_ticks() -> Option<u64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // The fields after the command name (which may hold spaces) in parentheses.
    let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
    let utime: u64 = fields.get(11)?.parse().ok()?;
    let stime: u64 = fields.get(12)?.parse().ok()?;
    Some(utime + stime)
}

/// On a machine other processes load, criterion's wall-clock medians include the time this
/// process waited for a core: the CPU time it used, over 20 runs, is printed beside them (ticks
/// of 10 ms; both threads' time summed, so an unloaded machine's wall time lies between the
/// half of it and the whole).
fn cpu_times(old: &GameInstall, new: &GameInstall, old_dir: &PathBuf, new_dir: &PathBuf) {
    const RUNS: u64 = 20;
    let Some(start) = cpu_ticks() else { return };
    for _ in 0..RUNS {
        black_box(
            InstallDiff::new(old, new)
                .expect("the diff")
                .changes()
                .count(),
        );
    }
    let Some(middle) = cpu_ticks() else { return };
    for _ in 0..RUNS {
        let old = GameInstall::open(old_dir, Mapping::Map).expect("opens");
        let new = GameInstall::open(new_dir, Mapping::Map).expect("opens");
        black_box(
            InstallDiff::new(&old, &new)
                .expect("the diff")
                .changes()
                .count(),
        );
    }
    let Some(end) = cpu_ticks() else { return };
    let ms = |ticks: u64| ticks as f64 * 10.0 / RUNS as f64;
    eprintln!(
        "install_diff: CPU time a run (both threads), {RUNS} runs: new + changes {:.0} ms; \
         open both + new + changes {:.0} ms",
        ms(middle - start),
        ms(end - middle)
    );
}

//! Opening through [`AnyView`] is as zero-copy as opening each format's view: detecting a file's
//! format and opening it allocate nothing, for every format, once the [`Scratch`] kept across
//! files is warm (a compressed `.wwd` level inflates into its buffer with its decompressor, which
//! allocate only when a level is larger than every one before it, and the first time). A counting
//! global allocator proves it over the fixtures and the real samples.

use std::path::{Path, PathBuf};

use gamebin::{AnyView, Scratch};

mod counting;

use counting::allocations;

#[global_allocator]
static ALLOCATOR: counting::Counting = counting::Counting;

/// Every file under `dir`, recursively, in name order.
fn files_in(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut paths: Vec<PathBuf> = entries.flatten().map(|e| e.path()).collect();
    paths.sort();
    for path in paths {
        if path.is_dir() {
            files_in(&path, out);
        } else {
            out.push(path);
        }
    }
}

/// Parses every file once to warm the scratch space, then again counting allocations: none, for
/// any file a format recognises. Returns how many files parsed.
fn parse_all_without_allocating(paths: &[PathBuf]) -> usize {
    let files: Vec<Vec<u8>> = paths.iter().map(|p| std::fs::read(p).unwrap()).collect();
    let (fresh, _) = allocations(Scratch::new);
    assert_eq!(fresh, 0, "making scratch space allocates nothing");
    let mut scratch = Scratch::new();
    for data in &files {
        let _ = AnyView::parse(data, &mut scratch);
    }
    let mut parsed = 0;
    for (path, data) in paths.iter().zip(&files) {
        let (n, format) = allocations(|| AnyView::parse(data, &mut scratch).map(|v| v.format()));
        if let Ok(format) = format {
            parsed += 1;
            assert_eq!(n, 0, "{}: parsing as {format} allocated", path.display());
        }
    }
    parsed
}

#[test]
fn fixtures_parse_without_allocating() {
    let mut paths = Vec::new();
    files_in(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures"),
        &mut paths,
    );
    let parsed = parse_all_without_allocating(&paths);
    assert!(parsed >= 6, "only {parsed} fixtures parsed");
}

#[test]
fn samples_parse_without_allocating() {
    let Some(samples) = std::env::var_os("GAMEBIN_SAMPLES") else {
        eprintln!("skipped the real samples: GAMEBIN_SAMPLES is not set");
        return;
    };
    let mut paths = Vec::new();
    files_in(Path::new(&samples), &mut paths);
    let parsed = parse_all_without_allocating(&paths);
    assert!(parsed > 0, "no sample parsed");
}

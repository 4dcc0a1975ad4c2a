//! Every fixture and every real sample, truncated at every length (a dense sample of lengths for
//! large files) and with seeded random byte flips: opening gives `Ok` or `Err`, and then every
//! accessor is driven on what opened. A panic, abort or hang fails the run; a global allocator
//! records the largest single allocation, which must stay in proportion to the input.
//!
//! Generic over formats: each format adds its fixture folder, its sample folder and its driver to
//! `CORPORA`.

mod drive;

use std::path::{Path, PathBuf};

mod counting;

// Per thread: the two tests run in parallel, and one's large buffers (a whole sample copied for
// truncation) must not be charged to the other's inputs.
#[global_allocator]
static ALLOCATOR: counting::Counting = counting::Counting;

/// One format's inputs and the function that drives its views.
struct Corpus {
    fixtures: &'static str,
    samples: &'static str,
    drive: fn(&[u8]) -> usize,
    /// The most the format may legitimately expand its input (decoded buffers, inflated blocks).
    max_expansion: usize,
    /// Only the samples with this extension (a folder of a model's files, whose meshes other
    /// corpora cover).
    only: Option<&'static str>,
}

/// The largest expansion any format's reader allows: ENCD vertex decoding (1024×) or a `.wwd`
/// inflate (1032× its zlib stream, plus the header).
const MAX_EXPANSION: usize = {
    let geometry = gamebin::wows::geometry::MAX_VERTEX_EXPANSION;
    let wwd = gamebin::wwd::MAX_INFLATE_RATIO + 2;
    if geometry > wwd { geometry } else { wwd }
};

const CORPORA: &[Corpus] = &[
    Corpus {
        fixtures: "fixtures/wows-geometry",
        samples: "wows-geometry",
        drive: drive::drive_all,
        // drive_all opens every input as every format: the largest expansion of any applies.
        max_expansion: MAX_EXPANSION,
        only: None,
    },
    Corpus {
        fixtures: "fixtures/craftstudio-project",
        samples: "craftstudio-project",
        drive: drive::drive_all,
        max_expansion: MAX_EXPANSION,
        only: None,
    },
    Corpus {
        fixtures: "fixtures/ff13-wdb",
        samples: "ff13-wdb",
        drive: drive::drive_all,
        max_expansion: MAX_EXPANSION,
        only: None,
    },
    Corpus {
        fixtures: "fixtures/wap32-wwd",
        samples: "wap32-wwd",
        drive: drive::drive_all,
        max_expansion: MAX_EXPANSION,
        only: None,
    },
    Corpus {
        fixtures: "fixtures/rusty-hearts-wdata",
        samples: "rusty-hearts-wdata",
        drive: drive::drive_all,
        max_expansion: MAX_EXPANSION,
        only: None,
    },
    Corpus {
        fixtures: "fixtures/wows-assets",
        samples: "wows-assets",
        drive: drive::drive_all,
        max_expansion: MAX_EXPANSION,
        only: None,
    },
    // Single indexes (and the volumes beside them), opened through AnyView: check, summary, model.
    Corpus {
        fixtures: "fixtures/wows-pfs",
        samples: "wows-pfs-idx",
        drive: drive::drive_all,
        max_expansion: MAX_EXPANSION,
        only: None,
    },
    // Textures, and the real models' folders (textures beside their XML and meshes).
    Corpus {
        fixtures: "fixtures/dds",
        samples: "wows-mod/PnFMods/SEA_PI_Yuugumo_Kiyoshimo/JSD209_Yugumo/gun",
        drive: drive::drive_all,
        max_expansion: MAX_EXPANSION,
        only: Some("dds"),
    },
    Corpus {
        fixtures: "fixtures/dds",
        samples: "wows-mod/PnFMods/SEA_KRE_Atlanta/ASC006_Atlanta_1942/finder",
        drive: drive::drive_all,
        max_expansion: MAX_EXPANSION,
        only: Some("dds"),
    },
    // GameParams.data, classic and by region (the fixtures hold both).
    Corpus {
        fixtures: "fixtures/wows-gameparams",
        samples: "wows-gameparams/classic",
        drive: drive::drive_all,
        max_expansion: MAX_EXPANSION,
        only: None,
    },
    Corpus {
        fixtures: "fixtures/wows-gameparams",
        samples: "wows-gameparams/regional",
        drive: drive::drive_all,
        max_expansion: MAX_EXPANSION,
        only: None,
    },
    // An index and its volume in one input (tests/drive/pfs.rs); no real one is public.
    Corpus {
        fixtures: "fuzz/seeds/pfs",
        samples: "wows-pfs",
        drive: drive::drive_all,
        max_expansion: MAX_EXPANSION,
        only: None,
    },
];

fn files_in(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|entries| entries.flatten().map(|e| e.path()).collect())
        .unwrap_or_default();
    // Not inputs: notes and expected values, and the `.pkg` volumes beside the PFS indexes (no
    // format of their own).
    files.retain(|p| {
        p.is_file()
            && !p
                .extension()
                .is_some_and(|e| e == "txt" || e == "tsv" || e == "json" || e == "pkg")
    });
    files.sort();
    files
}

fn inputs(corpus: &Corpus) -> Vec<PathBuf> {
    let mut files = files_in(&Path::new(env!("CARGO_MANIFEST_DIR")).join(corpus.fixtures));
    assert!(!files.is_empty(), "no fixtures in {}", corpus.fixtures);
    match std::env::var_os("GAMEBIN_SAMPLES") {
        Some(samples) => files.extend(
            files_in(&Path::new(&samples).join(corpus.samples))
                .into_iter()
                .filter(|p| {
                    corpus
                        .only
                        .is_none_or(|only| p.extension().is_some_and(|e| e == only))
                }),
        ),
        None => eprintln!("GAMEBIN_SAMPLES not set: corrupting fixtures only"),
    }
    files
}

/// Lengths to cut at: all of them for small files, otherwise every length of the first 4 KiB and
/// of the last 1 KiB, and about 2,000 spread over the rest.
fn cut_lengths(len: usize) -> Vec<usize> {
    if len <= 16 << 10 {
        return (0..len).collect();
    }
    let step = (len / 2000).max(1);
    let mut cuts: Vec<usize> = (0..4096)
        .chain((4096..len - 1024).step_by(step))
        .chain(len - 1024..len)
        .collect();
    cuts.dedup();
    cuts
}

fn check_allocation(largest: usize, len: usize, max_expansion: usize, what: &str) {
    let bound = len.saturating_mul(max_expansion).max(1 << 20);
    assert!(
        largest <= bound,
        "{what}: an allocation of {largest} bytes for a {len}-byte input"
    );
}

#[test]
fn truncation_at_every_length() {
    for corpus in CORPORA {
        for path in inputs(corpus) {
            let data = std::fs::read(&path).unwrap();
            assert!(
                (corpus.drive)(&data) > 1,
                "{}: the intact file must open and walk",
                path.display()
            );
            for cut in cut_lengths(data.len()) {
                // A fresh allocation of exactly the cut length, so reads past it are caught by the
                // bounds checks rather than landing in the rest of the original buffer.
                let truncated = data[..cut].to_vec();
                let (largest, _) = counting::largest_allocation(|| (corpus.drive)(&truncated));
                check_allocation(
                    largest,
                    cut,
                    corpus.max_expansion,
                    &format!("{} cut at {cut}", path.display()),
                );
            }
        }
    }
}

#[test]
fn seeded_random_byte_flips() {
    let mut state = 0x2545_f491_4f6c_dd1du64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    for corpus in CORPORA {
        for path in inputs(corpus) {
            let data = std::fs::read(&path).unwrap();
            let rounds = if data.len() > 64 << 10 { 300 } else { 1500 };
            for round in 0..rounds {
                let mut mutated = data.clone();
                let flips = 1 + next() as usize % 8;
                for _ in 0..flips {
                    let at = next() as usize % mutated.len();
                    // Half the flips hit the first 512 bytes, where headers and tables live.
                    let at = if next() % 2 == 0 {
                        at % mutated.len().min(512)
                    } else {
                        at
                    };
                    mutated[at] = match next() % 4 {
                        0 => 0xff,
                        1 => 0,
                        _ => next() as u8,
                    };
                }
                let (largest, _) = counting::largest_allocation(|| (corpus.drive)(&mutated));
                check_allocation(
                    largest,
                    mutated.len(),
                    corpus.max_expansion,
                    &format!("{} flip round {round}", path.display()),
                );
            }
        }
    }
}

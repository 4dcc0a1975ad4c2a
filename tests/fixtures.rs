//! The committed fixtures are exactly what the writers make. Regenerate them with
//! `GAMEBIN_REGENERATE=1 cargo test --test fixtures`; without the variable, a fixture that differs
//! from what the writer makes now fails the test.

use std::path::Path;

type Fixtures = fn() -> gamebin::WriteResult<Vec<(&'static str, Vec<u8>)>>;

/// Each format's fixture folder and the writer function that makes its fixtures.
const FORMATS: &[(&str, Fixtures)] = &[
    ("fixtures/wows-geometry", gamebin::synth::geometry::fixtures),
    ("fixtures/wows-assets", gamebin::synth::assets::fixtures),
    (
        "fixtures/craftstudio-project",
        gamebin::synth::craftstudio::fixtures,
    ),
    ("fixtures/ff13-wdb", gamebin::synth::wdb::fixtures),
    ("fixtures/wap32-wwd", gamebin::synth::wwd::fixtures),
    (
        "fixtures/rusty-hearts-wdata",
        gamebin::synth::wdata::fixtures,
    ),
    // Single indexes with their volumes beside them.
    ("fixtures/wows-pfs", gamebin::synth::pfs::fixtures),
    ("fixtures/dds", gamebin::synth::dds::fixtures),
    ("fixtures/wows-gameparams", gamebin::synth::params::fixtures),
    // The PFS fuzz target's seeds: an index and its volume in one input.
    ("fuzz/seeds/pfs", gamebin::synth::pfs::fuzz_seeds),
];

#[test]
fn committed_fixtures_match_the_writers() {
    for &(folder, fixtures) in FORMATS {
        check(folder, fixtures().expect("the writer builds every fixture"));
    }
}

fn check(folder: &str, fixtures: Vec<(&'static str, Vec<u8>)>) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join(folder);
    let regenerate = std::env::var_os("GAMEBIN_REGENERATE").is_some();
    assert!(!fixtures.is_empty());
    if regenerate {
        std::fs::create_dir_all(&dir).unwrap();
    }
    for (name, bytes) in fixtures {
        let path = dir.join(name);
        if regenerate {
            std::fs::write(&path, &bytes).unwrap();
            continue;
        }
        let committed = std::fs::read(&path).unwrap_or_else(|e| {
            panic!(
                "{}: {e}; run GAMEBIN_REGENERATE=1 cargo test --test fixtures",
                path.display()
            )
        });
        assert!(
            committed == bytes,
            "{} differs from what the writer makes now; if the change is intended, run \
             GAMEBIN_REGENERATE=1 cargo test --test fixtures and commit the result",
            path.display()
        );
    }
}

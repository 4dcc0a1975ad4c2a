//! `assets.bin` views allocate nothing: opening, every lookup (strings, prototypes, paths by hash
//! and by linear walk), iterating every map and path, building full paths into a caller buffer,
//! finding databases, walking every record of every database (`records`) and decoding each with
//! all its arrays, a prototype's type label. A counting global allocator
//! proves it over the fixtures, a generated file and the independent sample. The documented
//! allocations of the opt-in `PathIndex` are counted exactly.

use std::path::Path;

use gamebin::wows::assets::{AssetsDb, PathIndex, Prototype, PrototypeType};

mod counting;

use counting::allocations;

#[global_allocator]
static ALLOCATOR: counting::Counting = counting::Counting;

/// Reads every field of a record (the arrays and names included).
fn record_sum(db: &AssetsDb<'_>, record: &Prototype<'_>) -> u64 {
    record.validate().unwrap();
    let mut sum = 0u64;
    match record {
        Prototype::Visual(v) => {
            for n in v.nodes().unwrap() {
                sum += db.string(n.name_id).unwrap().map_or(0, |s| s.len() as u64);
                sum += n.matrix()[12] as u64;
            }
            for s in v.render_sets().unwrap() {
                sum += u64::from(s.vertices_mapping_id() ^ s.indices_mapping_id());
                sum += s.node_name_ids().unwrap().len() as u64;
            }
            for l in v.lods().unwrap() {
                sum += l.render_set_names().unwrap().len() as u64;
            }
        }
        Prototype::Material(m) => {
            for p in m.properties().unwrap() {
                sum += u64::from(p.unwrap().kind);
            }
        }
        Prototype::Model(m) => {
            sum += m.animations().unwrap().len() as u64;
            for d in m.dyes().unwrap() {
                sum += d.tint_name_ids().unwrap().len() as u64;
            }
        }
        Prototype::EffectMetadata(m) => {
            for c in m.channels().unwrap() {
                sum += c.name().unwrap().len() as u64;
            }
        }
        Prototype::AtlasContour(a) => {
            for f in a.frames().unwrap() {
                sum += f.points().unwrap().len() as u64;
            }
        }
        Prototype::PointLight(l) => sum += l.color_animation().unwrap().2.len() as u64,
        Prototype::Effect(e) => sum += e.systems().unwrap().len() as u64,
        _ => {}
    }
    sum
}

/// Everything a pipeline does, with one caller-owned path buffer.
fn walk(data: &[u8], path: &mut String) -> u64 {
    let db = AssetsDb::from_bytes(data).unwrap();
    let mut sum = u64::from(db.verify_checksum().stored);
    assert!(gamebin::detect(data).is_some());
    for s in db.strings().iter() {
        let (id, text) = s.unwrap();
        assert_eq!(db.string(id).unwrap(), Some(text));
        sum += text.len() as u64;
    }
    for p in db.prototypes().iter() {
        let (id, at) = p.unwrap();
        assert_eq!(db.prototype(id).unwrap(), Some(at));
        if let Ok(record) = db.record(at) {
            sum += record_sum(&db, &record);
        }
    }
    for entry in db.paths().iter() {
        sum += entry.name().unwrap().len() as u64;
        assert!(db.full_path(entry.self_id(), path).unwrap());
        sum += db
            .lookup_path(path)
            .unwrap()
            .map_or(0, |p| u64::from(p.record));
        sum += db.find_path(path).unwrap().map_or(0, |e| e.index() as u64);
    }
    for record in db.records() {
        let (database, index, record) = record.unwrap();
        sum += record_sum(&db, &record) + (database.index() + index) as u64;
        sum += db
            .type_label(db.prototypes().iter().next().unwrap().unwrap().1)
            .unwrap()
            .len() as u64;
    }
    for kind in PrototypeType::ALL {
        if let Some(d) = db.database(kind).unwrap() {
            for i in 0..d.record_count() {
                sum += record_sum(&db, &d.prototype(i, db.strings()).unwrap());
                sum += d.record_bytes(i).map_or(0, |b| b.len() as u64);
            }
        }
    }
    sum
}

fn check(name: &str, data: &[u8]) {
    // The caller's path buffer, allocated before counting starts.
    let mut path = String::with_capacity(4096);
    let (n, sum) = allocations(|| walk(data, &mut path));
    assert!(sum > 0);
    assert_eq!(n, 0, "{name}: {n} allocations");
    // The opt-in index: exactly three allocations (its id table's directory and entries, and
    // its array of parents and names' places), whatever the number of paths.
    let db = AssetsDb::from_bytes(data).unwrap();
    let (n, index) = allocations(|| PathIndex::build(db.paths()).unwrap());
    assert_eq!(n, 3, "{name}: PathIndex::build");
    let (n, _) = allocations(|| {
        for entry in db.paths().iter() {
            assert!(
                index
                    .full_path(db.paths(), entry.self_id(), &mut path)
                    .unwrap()
            );
        }
        index
            .for_each_full_path(db.paths(), &mut path, |_, p| {
                assert!(!p.is_empty());
                Ok(())
            })
            .unwrap();
    });
    assert_eq!(n, 0, "{name}: indexed full paths");
}

#[test]
fn the_counter_counts() {
    let (n, v) = allocations(|| vec![1u8; 10]);
    assert_eq!(n, 1);
    drop(v);
}

#[test]
fn fixtures_and_a_generated_file_read_without_allocating() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/wows-assets");
    let mut seen = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        check(&path.display().to_string(), &std::fs::read(&path).unwrap());
        seen += 1;
    }
    assert_eq!(seen, 2);
    let generated =
        gamebin::synth::assets_scale::synth(gamebin::synth::assets_scale::Scale::Small).unwrap();
    check("generated", &generated);
}

#[test]
#[ignore = "needs GAMEBIN_SAMPLES (real files): GAMEBIN_SAMPLES=../shared/samples cargo test -- --include-ignored"]
fn the_sample_reads_without_allocating() {
    let dir = std::env::var_os("GAMEBIN_SAMPLES").expect("GAMEBIN_SAMPLES is not set: this test reads the real samples (run it with GAMEBIN_SAMPLES=../shared/samples cargo test -- --include-ignored)");
    let path = Path::new(&dir).join("wows-assets/minimal_synthetic_assets.bin");
    check("sample", &std::fs::read(path).unwrap());
}

//! GameParams: opening with a kept [`ParamsScratch`] allocates nothing once its buffer and tables
//! are large enough (the first open allocates the inflate buffer, the decompressor and the index
//! tables), and look-ups by name, id and index and iterating the entries with their facts
//! allocate nothing at all. A counting global allocator proves it on the synthetic files and the
//! real samples.

use gamebin::wows::params::{ParamsScratch, ParamsView};

mod counting;

use counting::allocations;

#[global_allocator]
static ALLOCATOR: counting::Counting = counting::Counting;

/// Opens and walks every entry's facts and look-ups; returns a sum so nothing is optimised away.
fn walk(file: &[u8], scratch: &mut ParamsScratch) -> usize {
    let view = ParamsView::from_bytes(file, scratch).unwrap();
    let mut sum = view.len();
    for e in view.entries() {
        let name = e.name();
        sum += name.len();
        sum += e.index().map_or(0, |i| i.len());
        sum += e.type_name().map_or(0, |t| t.len());
        sum += e.nation().map_or(0, |t| t.len());
        sum += e.species().map_or(0, |t| t.len());
        let found = view.by_name(&name).unwrap();
        sum += found.offset() as usize;
        if let Some(id) = e.id() {
            sum += view.by_id(id).unwrap().offset() as usize;
        }
        if let Some(ix) = e.index() {
            sum += view.by_index(&ix).unwrap().offset() as usize;
        }
    }
    for r in view.regions() {
        for e in r.entries() {
            sum += e.offset() as usize;
            sum += r.by_name(&e.name()).unwrap().offset() as usize;
        }
    }
    sum
}

fn check(name: &str, file: &[u8]) {
    let mut scratch = ParamsScratch::default();
    let (cold, _) = allocations(|| walk(file, &mut scratch));
    assert!(
        cold > 0,
        "{name}: the first open allocates its buffer and tables"
    );
    let (warm, _) = allocations(|| walk(file, &mut scratch));
    assert_eq!(
        warm, 0,
        "{name}: {warm} allocations opening again with the kept scratch"
    );
    let view = ParamsView::from_bytes(file, &mut scratch).unwrap();
    let first = view.entries().next().unwrap();
    let (n, _) = allocations(|| view.by_name(&first.name()).is_some() && view.find("0").is_none());
    assert_eq!(n, 0, "{name}: look-ups allocated");
}

#[test]
fn the_counter_counts() {
    let (n, v) = allocations(|| vec![1u8; 10]);
    assert_eq!(n, 1);
    drop(v);
}

#[test]
fn synthetic_files_open_and_look_up_without_allocating() {
    check(
        "synth",
        &gamebin::synth::params::model(2000).to_bytes().unwrap(),
    );
    check(
        "synth regional",
        &gamebin::synth::params::regional_model(2000)
            .to_bytes()
            .unwrap(),
    );
}

#[test]
fn samples_open_and_look_up_without_allocating() {
    let Some(dir) = std::env::var_os("GAMEBIN_SAMPLES") else {
        eprintln!("skipped: GAMEBIN_SAMPLES is not set");
        return;
    };
    for kind in ["classic", "regional"] {
        let path = std::path::Path::new(&dir)
            .join("wows-gameparams")
            .join(kind)
            .join("GameParams.data");
        check(kind, &std::fs::read(path).unwrap());
    }
}

//! Zero-copy means zero allocations: opening a `Project.dat`, reading the header, iterating every
//! control, entry and revision, finding entries by id, resolving parents, listing children and
//! writing paths into a caller's buffer allocate nothing. The one documented allocation is
//! [`EntryIndex`](gamebin::craftstudio::EntryIndex): exactly two arrays.

use std::path::Path;

use gamebin::craftstudio::raw::ROOT_PARENT_ID;
use gamebin::craftstudio::{Parent, ProjectView};

mod counting;

use counting::allocations;

#[global_allocator]
static ALLOCATOR: counting::Counting = counting::Counting;

#[test]
fn the_counter_counts() {
    let (n, v) = allocations(|| vec![1u8; 10]);
    assert_eq!(n, 1);
    drop(v);
}

/// Walks everything the view offers without an index; returns a checksum so nothing is
/// optimised away.
fn walk(data: &[u8], path: &mut String) -> usize {
    let view = ProjectView::from_bytes(data).unwrap();
    let mut sum = view.name().len() + view.description().len() + usize::from(view.next_entry_id());
    for c in view.controls() {
        let c = c.unwrap();
        sum += c.name().len() + usize::from(c.positive_key().name().is_some());
        sum += c.sensitivity() as usize;
    }
    for e in view.entries() {
        let e = e.unwrap();
        sum += e.name().len() + usize::from(e.is_trashed());
        for r in e.revisions() {
            let r = r.unwrap();
            sum += r.name.len() + usize::from(r.id);
        }
        if let Parent::Entry(p) = view.parent(&e) {
            sum += p.name().len();
        }
        sum += view.children(e.id()).count();
        view.path_into(&e, path).unwrap();
        sum += path.len();
    }
    sum += view.children(ROOT_PARENT_ID).count() + view.dangling().count();
    sum + view.trailing_bytes().len()
}

fn inputs() -> Vec<Vec<u8>> {
    let mut files: Vec<Vec<u8>> = gamebin::synth::craftstudio::fixtures()
        .unwrap()
        .into_iter()
        .map(|(_, bytes)| bytes)
        .collect();
    match std::env::var_os("GAMEBIN_SAMPLES") {
        Some(dir) => {
            let dir = Path::new(&dir).join("craftstudio-project");
            for entry in std::fs::read_dir(dir).unwrap() {
                let path = entry.unwrap().path();
                if path.extension().is_some_and(|e| e == "dat") {
                    files.push(std::fs::read(path).unwrap());
                }
            }
        }
        None => eprintln!("GAMEBIN_SAMPLES not set: fixtures only"),
    }
    files
}

#[test]
fn opening_iterating_and_resolving_allocate_nothing() {
    for data in inputs() {
        // Room for the longest path (the fixtures' longest name is far below this).
        let mut path = String::with_capacity(data.len());
        let (n, sum) = allocations(|| walk(&data, &mut path));
        assert!(sum > 0);
        assert_eq!(
            n,
            0,
            "{n} allocations walking a {}-byte project",
            data.len()
        );
    }
}

#[test]
fn an_index_is_exactly_two_allocations() {
    for data in inputs() {
        let view = ProjectView::from_bytes(&data).unwrap();
        let mut path = String::with_capacity(data.len());
        let (n, index) = allocations(|| view.index());
        assert_eq!(n, 2, "building the index");
        let (n, sum) = allocations(|| {
            let mut sum = 0;
            for e in view.entries() {
                let e = e.unwrap();
                sum += index.get(e.id()).map_or(0, |x| x.name().len());
                sum += index.children(e.id()).count();
                index.path_into(&e, &mut path).unwrap();
                sum += path.len();
            }
            sum + index.dangling().count()
        });
        assert!(sum > 0);
        assert_eq!(n, 0, "using the index");
    }
}

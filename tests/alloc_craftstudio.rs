//! Zero-copy means zero allocations: opening a `Project.dat`, reading the header, iterating every
//! control, entry and revision, finding entries by id, resolving parents, listing children and
//! writing paths into a caller's buffer allocate nothing. The one documented allocation is
//! [`EntryIndex`](gamebin::craftstudio::EntryIndex): exactly two arrays.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::path::Path;

use gamebin::craftstudio::{Parent, ProjectView, ROOT_PARENT_ID};

struct Counting;

thread_local! {
    static COUNTING: Cell<bool> = const { Cell::new(false) };
    static ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
}

// SAFETY: forwards to the system allocator unchanged; counts allocations made by this thread
// while counting is on.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if COUNTING.with(Cell::get) {
            ALLOCATIONS.with(|n| n.set(n.get() + 1));
        }
        // SAFETY: same layout as requested.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: allocated above with this layout.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if COUNTING.with(Cell::get) {
            ALLOCATIONS.with(|n| n.set(n.get() + 1));
        }
        // SAFETY: forwarded as given.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

fn allocations<R>(f: impl FnOnce() -> R) -> (usize, R) {
    ALLOCATIONS.with(|n| n.set(0));
    COUNTING.with(|c| c.set(true));
    let r = f();
    COUNTING.with(|c| c.set(false));
    (ALLOCATIONS.with(Cell::get), r)
}

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
        sum += c.name().len() + usize::from(c.positive_key().name().is_some());
        sum += c.sensitivity() as usize;
    }
    for e in view.entries() {
        sum += e.name().len() + usize::from(e.is_trashed());
        for r in e.revisions() {
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
    let mut files: Vec<Vec<u8>> = gamebin::write::craftstudio::fixtures()
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

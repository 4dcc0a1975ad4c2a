//! A `.wwd` view allocates nothing to open and walk an uncompressed level, and exactly what the
//! issue allows for a compressed one: the inflate buffer (when the caller's has too little
//! capacity) and zlib-rs's inflate state. A counting global allocator proves it over the fixtures
//! and the real samples.

use std::path::Path;

use gamebin::wwd::{Options, TileKind, WwdView};

mod counting;

use counting::allocations;

#[global_allocator]
static ALLOCATOR: counting::Counting = counting::Counting;

/// Opens and walks everything; returns a sum so nothing is optimised away.
fn walk(data: &[u8], buffer: &mut Vec<u8>) -> u64 {
    let options = Options {
        ignore_signature: true,
    };
    let view = WwdView::from_bytes_with(data, buffer, options).unwrap();
    view.validate().unwrap();
    let mut sum = view.checksum().stored as u64 + view.game().name().len() as u64;
    sum += (view.name().len() + view.author().len() + view.image_dir().len()) as u64;
    for plane in view.planes() {
        sum += plane.name().len() as u64;
        let tiles = plane.tiles().unwrap();
        for row in tiles.rows() {
            sum += row.len() as u64;
        }
        sum += tiles.values().map(u64::from).fold(0, u64::wrapping_add);
        sum += tiles.tile(0, 0).is_some() as u64;
        for name in plane.image_sets() {
            sum += name.unwrap().len() as u64;
        }
        for o in plane.objects().unwrap() {
            let o = o.unwrap();
            sum += (o.name().len() + o.logic().len() + o.image_set().len()) as u64;
            sum += o.animation().len() as u64 + u64::from(o.location().0.unsigned_abs());
        }
    }
    for p in view.tile_properties().unwrap().iter() {
        let p = p.unwrap();
        sum += match p.kind() {
            TileKind::Single { attribute } => u64::from(attribute.unsigned_abs()),
            TileKind::Double { inside, .. } => u64::from(inside.unsigned_abs()),
            TileKind::Mask { mask } => mask.len() as u64,
        };
    }
    sum
}

#[test]
fn the_counter_counts() {
    let (n, v) = allocations(|| vec![1u8; 10]);
    assert_eq!(n, 1);
    drop(v);
}

fn check(path: &Path) {
    let data = std::fs::read(path).unwrap();
    let compressed = {
        let mut b = Vec::new();
        let options = Options {
            ignore_signature: true,
        };
        WwdView::from_bytes_with(&data, &mut b, options)
            .unwrap()
            .is_compressed()
    };
    let mut buffer = Vec::new();
    let (n, _) = allocations(|| walk(&data, &mut buffer));
    if compressed {
        // The inflate buffer (sized once from the header) and zlib-rs's inflate state.
        assert_eq!(n, 2, "{}: {n} allocations", path.display());
        // With the buffer reused from the previous file: only the inflate state.
        let (n, _) = allocations(|| walk(&data, &mut buffer));
        assert_eq!(
            n,
            1,
            "{}: {n} allocations reusing the buffer",
            path.display()
        );
    } else {
        assert_eq!(n, 0, "{}: {n} allocations", path.display());
        assert_eq!(buffer.capacity(), 0, "the buffer is untouched");
    }
    let (n, _) = allocations(|| gamebin::detect(&data));
    assert_eq!(n, 0, "{}: detect allocated", path.display());
}

fn levels_in(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e.eq_ignore_ascii_case("wwd")))
        .collect();
    files.sort();
    files
}

#[test]
fn fixtures_open_and_walk_with_the_allowed_allocations() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/wap32-wwd");
    let files = levels_in(&dir);
    assert!(files.len() >= 4);
    for path in files {
        check(&path);
    }
}

#[test]
fn samples_open_and_walk_with_the_allowed_allocations() {
    let Some(dir) = std::env::var_os("GAMEBIN_SAMPLES") else {
        eprintln!("skipped: GAMEBIN_SAMPLES is not set");
        return;
    };
    for path in levels_in(&Path::new(&dir).join("wap32-wwd")) {
        check(&path);
    }
}

//! A `.wwd` view allocates nothing to open and walk an uncompressed level, and exactly one
//! allocation for a compressed one, the inflate buffer, when the caller keeps an [`Inflater`]
//! (none at all when the buffer is reused too). The convenience `WwdView::from_bytes` makes a
//! fresh decompressor per level: one more allocation (zlib-rs's state), as documented. A counting
//! global allocator proves it over the fixtures and the real samples.

use std::path::Path;

use gamebin::wwd::{Inflater, Options, TileKind, WwdView};

mod counting;

use counting::allocations;

#[global_allocator]
static ALLOCATOR: counting::Counting = counting::Counting;

const LENIENT: Options = Options {
    ignore_signature: true,
};

/// Opens (with a kept inflater) and walks everything; returns a sum so nothing is optimised away.
fn walk(data: &[u8], buffer: &mut Vec<u8>, inflater: &mut Inflater) -> u64 {
    let view = WwdView::from_bytes_with(data, buffer, inflater, LENIENT).unwrap();
    walk_view(&view)
}

/// Opens with the convenience entry point (a fresh decompressor) and walks everything.
fn walk_convenient(data: &[u8], buffer: &mut Vec<u8>) -> u64 {
    let view = WwdView::from_bytes(data, buffer).unwrap();
    walk_view(&view)
}

fn walk_view(view: &WwdView<'_>) -> u64 {
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
    if let Some(meta) = view.wapmap_meta() {
        sum += (meta.offset() + meta.bytes().len()) as u64;
        sum += u64::from(meta.meta_info_size().unwrap() ^ meta.meta_end_info_size().unwrap());
        for block in meta.blocks() {
            let block = block.unwrap();
            sum += (block.data().len() + block.kind().name().len()) as u64;
        }
        let header = meta.header().unwrap().unwrap();
        sum += header.wapmap_version.len() as u64 + header.map_description.len() as u64;
        sum += header.map_build.unsigned_abs() as u64;
        for guide in meta.guides().unwrap() {
            sum += u64::from(guide.position.get().unsigned_abs()) + u64::from(guide.orientation);
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
    let name = path.display();
    let compressed = {
        let mut b = Vec::new();
        WwdView::from_bytes_with(&data, &mut b, &mut Inflater::new(), LENIENT)
            .unwrap()
            .is_compressed()
    };
    let signed = WwdView::from_bytes(&data, &mut Vec::new()).is_ok();
    let mut inflater = Inflater::new();
    let mut buffer = Vec::new();
    let (n, _) = allocations(|| walk(&data, &mut buffer, &mut inflater));
    if compressed {
        // A cold inflater: its state (once) and the buffer.
        assert_eq!(n, 2, "{name}: {n} allocations with a cold inflater");
        assert!(inflater.is_warm());
        // A warm inflater, a new buffer: exactly one allocation, the buffer.
        let mut fresh = Vec::new();
        let (n, _) = allocations(|| walk(&data, &mut fresh, &mut inflater));
        assert_eq!(n, 1, "{name}: {n} allocations with a warm inflater");
        assert!(fresh.capacity() >= fresh.len() && fresh.len() > 1524);
        // Both kept: none.
        let (n, _) = allocations(|| walk(&data, &mut buffer, &mut inflater));
        assert_eq!(n, 0, "{name}: {n} allocations reusing buffer and inflater");
        if signed {
            // The convenience path: a fresh decompressor per level, as its docs say.
            let (n, _) = allocations(|| walk_convenient(&data, &mut Vec::new()));
            assert_eq!(n, 2, "{name}: {n} allocations through from_bytes");
            let (n, _) = allocations(|| walk_convenient(&data, &mut buffer));
            assert_eq!(
                n, 1,
                "{name}: {n} allocations through from_bytes, buffer reused"
            );
        }
    } else {
        assert_eq!(n, 0, "{name}: {n} allocations");
        assert_eq!(buffer.capacity(), 0, "the buffer is untouched");
        assert!(!inflater.is_warm(), "the inflater is untouched");
        if signed {
            let (n, _) = allocations(|| walk_convenient(&data, &mut buffer));
            assert_eq!(n, 0, "{name}: {n} allocations through from_bytes");
        }
    }
    let (n, _) = allocations(|| gamebin::detect(&data));
    assert_eq!(n, 0, "{name}: detect allocated");
}

/// One inflater and one buffer across every level, as `gamebin info DIR` keeps them: after the
/// first compressed level, a compressed level allocates only when it is larger than any before.
fn check_kept(paths: &[std::path::PathBuf]) {
    let mut inflater = Inflater::new();
    let mut buffer = Vec::new();
    let mut warm = false;
    for path in paths {
        let data = std::fs::read(path).unwrap();
        let capacity = buffer.capacity();
        let (n, compressed) = allocations(|| {
            let view =
                WwdView::from_bytes_with(&data, &mut buffer, &mut inflater, LENIENT).unwrap();
            walk_view(&view);
            view.is_compressed()
        });
        let grows = compressed && buffer.len() > capacity;
        let want = usize::from(compressed && !warm) + usize::from(grows);
        assert_eq!(n, want, "{}: {n} allocations", path.display());
        warm |= compressed;
    }
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
    for path in &files {
        check(path);
    }
    check_kept(&files);
}

#[test]
#[ignore = "needs GAMEBIN_SAMPLES (real files): GAMEBIN_SAMPLES=../shared/samples cargo test -- --include-ignored"]
fn samples_open_and_walk_with_the_allowed_allocations() {
    let dir = std::env::var_os("GAMEBIN_SAMPLES").expect("GAMEBIN_SAMPLES is not set: this test reads the real samples (run it with GAMEBIN_SAMPLES=../shared/samples cargo test -- --include-ignored)");
    let files = levels_in(&Path::new(&dir).join("wap32-wwd"));
    for path in &files {
        check(path);
    }
    check_kept(&files);
}

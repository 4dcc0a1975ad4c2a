//! Drives every `.wwd` accessor.

use std::cell::RefCell;

use gamebin::Scratch;
use gamebin::wwd::{Inflater, Options, TileKind, WwdView, text_lossy};

/// How levels are opened here: strictly first, and when that fails, ignoring the signature.
const LENIENT: Options = Options {
    ignore_signature: true,
};

thread_local! {
    /// Scratch space (an inflate buffer and inflater) kept across inputs, as tools keep it
    /// across levels.
    static KEPT: RefCell<Scratch> = const { RefCell::new(Scratch::ignoring_signatures()) };
}

/// Opens `data` as a level (strictly, and when that fails, ignoring the signature) and drives
/// every accessor. Also opens it with the kept inflater and buffer, whatever earlier inputs left
/// in them, and panics unless that gives the same image or the same error as fresh ones.
pub fn drive_wwd(data: &[u8]) -> usize {
    let mut fresh_buffer = Vec::new();
    let fresh = WwdView::from_bytes_with(data, &mut fresh_buffer, &mut Inflater::new(), LENIENT);
    KEPT.with(|kept| {
        let mut kept = kept.borrow_mut();
        let again = <WwdView<'_> as gamebin::View<'_>>::from_bytes_in(data, &mut kept);
        match (&fresh, &again) {
            (Ok(a), Ok(b)) => assert!(
                a.image() == b.image(),
                "a kept inflater inflated differently"
            ),
            (Err(a), Err(b)) => assert_eq!(a, b, "a kept inflater failed differently"),
            (a, b) => panic!("fresh {:?}, kept {:?}", a.as_ref().err(), b.as_ref().err()),
        }
    });
    let mut buffer = Vec::new();
    if let Ok(view) = WwdView::from_bytes(data, &mut buffer) {
        return walk(&view);
    }
    match fresh {
        Ok(view) => walk(&view),
        Err(_) => 0,
    }
}

fn walk(view: &WwdView<'_>) -> usize {
    let mut seen = 1;
    // Bytes the planes' tile grids, image-set names and objects cover as read: the view refuses
    // at open planes that together cover more than the image, so this walk is bounded by it.
    let mut covered = 0usize;
    let _ = view.validate();
    let _ = (
        view.header(),
        view.is_compressed(),
        view.main_block_len(),
        view.stored_main_block().len(),
        view.image().len(),
        view.signature_ok(),
        view.game().name(),
        view.checksum().verdict.name(),
        view.checksum().residual(),
        view.start(),
    );
    for field in [
        view.name(),
        view.author(),
        view.birth(),
        view.rez_file(),
        view.image_dir(),
        view.pal_rez(),
        view.launch_app(),
    ] {
        let _ = text_lossy(field);
    }
    for i in 0..5 {
        let _ = (view.image_set(i), view.prefix(i));
    }
    let _ = view.main_plane();
    let _ = view.plane_by_name(b"Action");
    let _ = view.plane(view.plane_count());
    for plane in view.planes() {
        seen += 1;
        let f = plane.flags();
        let _ = (
            f.is_main(),
            f.no_draw(),
            f.wraps_x(),
            f.wraps_y(),
            f.auto_tile_size(),
        );
        let _ = (
            plane.offset(),
            plane.raw(),
            text_lossy(plane.name()),
            plane.tile_width(),
            plane.tile_height(),
            plane.width_px(),
            plane.height_px(),
            plane.fill_color(),
            plane.z_coord(),
            plane.image_set_count(),
            plane.object_count(),
        );
        if let Ok(tiles) = plane.tiles() {
            let (w, h) = (tiles.wide(), tiles.high());
            let _ = (tiles.tile(0, 0), tiles.tile(w, 0), tiles.tile(0, h));
            let _ = tiles.tile(w.wrapping_sub(1), h.wrapping_sub(1));
            let _ = tiles.raw(usize::MAX, usize::MAX);
            for row in tiles.rows() {
                seen += usize::from(!row.is_empty());
            }
            covered += 4 * tiles.values().map(gamebin::wwd::Tile::from_raw).count();
        }
        for name in plane.image_sets().flatten() {
            covered += name.len() + 1;
            let _ = text_lossy(name);
        }
        if let Ok(objects) = plane.objects() {
            for object in objects {
                let Ok(o) = object else { break };
                seen += 1;
                covered += 284; // the fixed part; the strings may be empty
                let _ = (o.offset(), o.raw(), o.id(), o.location(), o.size());
                let _ = (o.name(), o.logic(), o.image_set(), o.animation());
            }
        }
    }
    assert!(
        covered <= view.image().len(),
        "the planes cover {covered} bytes of a {}-byte image",
        view.image().len()
    );
    if let Some(meta) = view.wapmap_meta() {
        seen += 1;
        let _ = (
            meta.offset(),
            meta.len(),
            meta.is_empty(),
            meta.bytes().len(),
        );
        let _ = (meta.meta_info_size(), meta.meta_end_info_size());
        assert_eq!(meta.offset() + meta.len(), view.file().len());
        assert_eq!(
            view.stored_main_block().len() + 1524,
            meta.offset(),
            "the main block ends where WapMap's block starts"
        );
        for block in meta.blocks() {
            let Ok(b) = block else { break };
            seen += 1;
            let _ = (b.offset(), b.block_type(), b.kind().name(), b.data().len());
        }
        if let Ok(Some(h)) = meta.header() {
            let _ = (h.wapmap_build, h.map_build);
            let _ = (
                text_lossy(h.wapmap_version),
                text_lossy(h.map_version),
                text_lossy(h.map_description),
            );
        }
        if let Ok(guides) = meta.guides() {
            seen += guides.len();
            for g in guides {
                seen += usize::from(g.orientation <= 1 && g.position.get() != i32::MIN);
            }
        }
    }
    if let Ok(table) = view.tile_properties() {
        let _ = (table.offset(), table.header(), table.is_empty());
        let _ = table.get(table.len().saturating_sub(1));
        for p in table.iter() {
            let Ok(p) = p else { break };
            seen += 1;
            let _ = (
                p.offset(),
                p.id(),
                p.base(),
                p.tile_type(),
                p.width(),
                p.height(),
            );
            let _ = (p.size(), p.dominant_attribute());
            if let TileKind::Mask { mask } = p.kind() {
                assert_eq!(
                    mask.len() as u64,
                    u64::from(p.width()) * u64::from(p.height())
                );
            }
        }
    }
    seen
}

//! `.wwd` levels made by the writer: Claw and Gruntz layouts, a mask tile, empty planes and wrap
//! flags read back to what was written, compressed and not; malformed inputs give precise errors.

use gamebin::ErrorKind;
use gamebin::write::wwd::{Level, TileBody, claw_level, empty_planes_level, gruntz_level, tile};
use gamebin::wwd::{
    ChecksumVerdict, Game, Inflater, MAX_MAIN_BLOCK, Options, Tile, TileKind, WwdView, text_lossy,
};

/// Opens a level; the inflate buffer is leaked so that the view can be returned (tests only).
fn open(data: &[u8]) -> WwdView<'_> {
    let buffer: &'static mut Vec<u8> = Box::leak(Box::default());
    WwdView::from_bytes(data, buffer).unwrap()
}

#[test]
fn claw_layout_reads_back_compressed_and_not() {
    let level = claw_level(24, 12, 9);
    let packed = level.to_compressed().unwrap();
    let plain = level.to_uncompressed().unwrap();
    assert_eq!(&packed[1524..1526], &[0x78, 0x9c]);
    let a = open(&packed);
    let b = open(&plain);
    assert!(a.is_compressed() && !b.is_compressed());
    assert!(a.image()[1524..] == b.image()[1524..]);
    assert_eq!(a.main_block_len(), plain.len() - 1524);
    assert_eq!(
        a.header().decompressed_mainblock_size.get() as usize,
        a.main_block_len()
    );
    assert_eq!(b.header().decompressed_mainblock_size.get(), 0);
    for view in [a, b] {
        view.validate().unwrap();
        assert_eq!(view.game(), Game::Claw);
        assert_eq!(view.name(), b"Claw - Level 1");
        assert_eq!(view.image_dir(), b"\\LEVEL1\\TILES");
        assert_eq!(view.start(), (689, 4723));
        assert_eq!(view.header().unknown3.get(), 2);
        // The writer stores S - 160; for an uncompressed block d[0] is 160 (the first plane's
        // block_size), so that is also exactly the published formula.
        let want = if view.is_compressed() {
            ChecksumVerdict::WapMap
        } else {
            ChecksumVerdict::Seed
        };
        assert_eq!(view.checksum().verdict, want);
        assert_eq!(view.plane_count(), 3);
        let names: Vec<_> = view
            .planes()
            .map(|p| text_lossy(p.name()).into_owned())
            .collect();
        assert_eq!(names, ["Background", "Action", "Tło"]);
        let back = view.plane(0).unwrap();
        assert!(back.flags().wraps_x() && back.flags().wraps_y() && !back.flags().is_main());
        assert_eq!(back.z_coord(), -999);
        let tiles = back.tiles().unwrap();
        assert_eq!(tiles.tile(0, 0), Some(Tile::Filled));
        assert_eq!(tiles.tile(1, 1), Some(Tile::Image { set: 0, index: 3 }));
        assert_eq!(tiles.tile(8, 0), None);
        let front = view.plane(2).unwrap();
        assert!(front.flags().wraps_x() && !front.flags().wraps_y());
        let main = view.main_plane().unwrap();
        assert_eq!(main.name(), b"Action");
        let grid = main.tiles().unwrap();
        assert_eq!((grid.wide(), grid.high()), (24, 12));
        assert_eq!(grid.rows().len(), 12);
        assert_eq!(grid.tile(0, 11), Some(Tile::Image { set: 0, index: 1 }));
        assert_eq!(grid.tile(0, 0), Some(Tile::Image { set: 0, index: 12 }));
        assert_eq!(grid.tile(6, 0), Some(Tile::Filled));
        assert_eq!(grid.tile(7, 0), Some(Tile::Invisible));
        let sets: Vec<_> = main.image_sets().map(Result::unwrap).collect();
        assert_eq!(sets, [b"ACTION"]);
        let objects: Vec<_> = main.objects().unwrap().map(Result::unwrap).collect();
        assert_eq!(objects.len(), 9);
        assert_eq!(objects[1].logic(), b"Officer");
        assert_eq!(objects[1].name(), b"obj1");
        assert_eq!(objects[1].animation(), b"");
        assert_eq!(objects[2].animation(), b"CYCLE100");
        assert_eq!(objects[2].image_set(), b"GAME_TREASURE_COINS");
        assert_eq!(objects[3].location(), (3 * 97, 3 * 53));
        assert_eq!(objects[0].raw().rect_user2.get(), [-5, -6, 7, 8]);
        assert_eq!(objects[0].raw().user[7].get(), -1);
        assert_eq!(objects[0].raw().flags_hit_type.get(), u32::MAX);
        assert_eq!(back.objects().unwrap().count(), 0);
        let props = view.tile_properties().unwrap();
        assert_eq!(props.len(), 14);
        let all: Vec<_> = props.iter().map(Result::unwrap).collect();
        assert_eq!(all[1].kind(), TileKind::Single { attribute: 1 });
        assert_eq!(
            all[5].kind(),
            TileKind::Double {
                outside: 0,
                inside: 1,
                rect: [0, 0, 63, 31]
            }
        );
        assert_eq!(
            all[7].kind(),
            TileKind::Mask {
                mask: &[0, 1, 1, 0, 2, 2, 2, 2, 3, 4, 4, 3]
            }
        );
        assert_eq!((all[7].width(), all[7].height()), (4, 3));
        assert_eq!(all[13].id(), 13);
        assert_eq!(props.get(7).unwrap().unwrap().tile_type(), 3);
        let end = all.last().map(|p| p.position() + p.size()).unwrap();
        assert_eq!(end, view.image().len());
    }
}

#[test]
fn gruntz_layout_and_empty_planes() {
    let data = gruntz_level().to_compressed().unwrap();
    let view = open(&data);
    view.validate().unwrap();
    assert_eq!(view.game(), Game::Gruntz);
    assert_eq!(view.plane_count(), 1);
    let main = view.main_plane().unwrap();
    assert_eq!((main.tile_width(), main.tile_height()), (32, 32));
    assert_eq!(
        main.tiles().unwrap().tile(11, 0),
        Some(Tile::Image { set: 0, index: 40 })
    );
    assert_eq!(main.objects().unwrap().count(), 2);
    assert!(
        view.tile_properties()
            .unwrap()
            .iter()
            .all(|p| p.unwrap().tile_type() == 1)
    );

    let data = empty_planes_level().to_uncompressed().unwrap();
    let view = open(&data);
    view.validate().unwrap();
    assert_eq!(view.game(), Game::Claw);
    for plane in view.planes() {
        let tiles = plane.tiles().unwrap();
        assert_eq!(tiles.values().len(), 0);
        assert_eq!(tiles.tile(0, 0), None);
        assert_eq!(plane.image_sets().count(), 0);
        assert_eq!(plane.objects().unwrap().count(), 0);
    }
    assert!(view.plane(1).unwrap().flags().no_draw());
    assert!(view.tile_properties().unwrap().is_empty());
}

#[test]
fn levels_round_trip_through_the_writer() {
    for level in [claw_level(30, 20, 40), gruntz_level(), empty_planes_level()] {
        let plain = level.to_uncompressed().unwrap();
        let view = open(&plain);
        let again = Level::from_view(&view).unwrap();
        assert!(again.to_uncompressed().unwrap() == plain);
        let packed = again.to_compressed().unwrap();
        let back = open(&packed);
        assert!(back.image()[1524..] == view.image()[1524..]);
    }
}

#[test]
fn writer_refuses_inconsistent_levels() {
    let mut level = gruntz_level();
    level.planes[0].tiles.pop();
    assert!(level.to_uncompressed().is_err());
    let mut level = gruntz_level();
    level.tile_properties[0].body = TileBody::Mask(vec![1, 2, 3]);
    assert!(level.to_compressed().is_err());
    assert_eq!(tile(2, 7), 0x0002_0007);
}

fn err(data: &[u8]) -> gamebin::Error {
    let mut buffer = Vec::new();
    WwdView::from_bytes(data, &mut buffer).unwrap_err()
}

fn reason(e: &gamebin::Error) -> &'static str {
    match e.kind() {
        ErrorKind::InvalidValue { reason, .. } => reason,
        other => panic!("{e}: {other:?}"),
    }
}

fn set_u32(data: &mut [u8], at: usize, v: u32) {
    data[at..at + 4].copy_from_slice(&v.to_le_bytes());
}

#[test]
fn bad_signature_is_an_error_unless_ignored() {
    let mut data = claw_level(4, 4, 1).to_compressed().unwrap();
    set_u32(&mut data, 0, 0xADBA);
    let e = err(&data);
    assert_eq!(
        e.kind(),
        ErrorKind::BadMagic {
            expected: 0x5F4,
            found: 0xADBA
        }
    );
    assert_eq!(e.offset(), 0);
    assert_eq!(gamebin::detect(&data), None);
    let mut buffer = Vec::new();
    let view = WwdView::from_bytes_with(
        &data,
        &mut buffer,
        &mut Inflater::new(),
        Options {
            ignore_signature: true,
        },
    )
    .unwrap();
    assert!(!view.signature_ok());
    view.validate().unwrap();
}

#[test]
fn short_header_is_truncated() {
    let data = claw_level(4, 4, 1).to_uncompressed().unwrap();
    let e = err(&data[..1000]);
    assert_eq!(
        e.kind(),
        ErrorKind::Truncated {
            needed: 1524,
            available: 1000
        }
    );
}

#[test]
fn zlib_stream_errors_are_precise() {
    let good = claw_level(24, 12, 9).to_compressed().unwrap();
    // Truncated stream.
    let e = err(&good[..good.len() - 100]);
    assert!(reason(&e).contains("ends early"), "{e}");
    // Trailing garbage.
    let mut long = good.clone();
    long.extend_from_slice(b"garbage");
    let e = err(&long);
    assert!(reason(&e).contains("after the end"), "{e}");
    assert_eq!(e.offset(), good.len() as u64);
    // Declared too short: the stream is longer.
    let mut short = good.clone();
    let declared = u32::from_le_bytes(good[0x2E8..0x2EC].try_into().unwrap());
    set_u32(&mut short, 0x2E8, declared - 1);
    let e = err(&short);
    assert!(reason(&e).contains("more bytes than declared"), "{e}");
    assert_eq!(e.offset(), 0x2E8);
    // Declared too long.
    set_u32(&mut short, 0x2E8, declared + 1);
    assert!(reason(&err(&short)).contains("fewer bytes"));
    // Oversized and implausible declarations are refused before allocating.
    set_u32(&mut short, 0x2E8, MAX_MAIN_BLOCK as u32 + 1);
    assert!(reason(&err(&short)).contains("cap"));
    set_u32(&mut short, 0x2E8, 50 << 20);
    assert!(reason(&err(&short)).contains("more than the stored zlib stream"));
    set_u32(&mut short, 0x2E8, 0);
    assert!(reason(&err(&short)).contains("must declare"));
    // Corrupt stream: a bad zlib header, and a damaged Adler-32.
    let mut bad = good.clone();
    bad[1524] = 0x00;
    assert!(reason(&err(&bad)).contains("corrupt"));
    let mut bad = good.clone();
    let last = bad.len() - 1;
    bad[last] ^= 0xff;
    assert!(reason(&err(&bad)).contains("corrupt"));
}

#[test]
fn structure_errors_name_the_field() {
    let plain = claw_level(6, 4, 2).to_uncompressed().unwrap();
    // Too many planes for the bytes.
    let mut data = plain.clone();
    set_u32(&mut data, 0x2DC, 100_000);
    let e = err(&data);
    assert_eq!(e.what(), "WwdHeader.planes");
    // An object string running past the end.
    let view = open(&plain);
    let first = view
        .main_plane()
        .unwrap()
        .objects()
        .unwrap()
        .next()
        .unwrap()
        .unwrap();
    let mut data = plain.clone();
    set_u32(&mut data, first.position() + 8, u32::MAX);
    let mut buffer = Vec::new();
    let view = WwdView::from_bytes(&data, &mut buffer).unwrap();
    let e = view.validate().unwrap_err();
    assert_eq!(e.what(), "Object.logic");
    // An unknown tile property type.
    let mut data = plain.clone();
    let at = view.header().offset_tile_properties.get() as usize + 32;
    set_u32(&mut data, at, 9);
    let mut buffer = Vec::new();
    let view = WwdView::from_bytes(&data, &mut buffer).unwrap();
    let e = view.validate().unwrap_err();
    assert_eq!(e.offset(), at as u64);
    assert_eq!(e.what(), "TileProperty.tile_type");
    // A negative tile count.
    let mut data = plain.clone();
    set_u32(&mut data, 1524 + 0x60, u32::MAX);
    let mut buffer = Vec::new();
    let view = WwdView::from_bytes(&data, &mut buffer).unwrap();
    assert_eq!(
        view.plane(0).unwrap().tiles().unwrap_err().what(),
        "PlaneHeader.tiles_wide"
    );
}

#[test]
fn inflate_buffer_is_reused() {
    let data = claw_level(24, 12, 9).to_compressed().unwrap();
    let mut buffer = Vec::with_capacity(1 << 20);
    let ptr = buffer.as_ptr();
    {
        let view = WwdView::from_bytes(&data, &mut buffer).unwrap();
        view.validate().unwrap();
    }
    assert_eq!(buffer.as_ptr(), ptr);
}

/// One inflater and one oversized buffer kept across levels, as a tool scanning an install keeps
/// them: every error is the same as with fresh ones (a stream longer than declared is caught even
/// though the buffer has room for it), and a good level after failed ones reads as when opened
/// alone.
#[test]
fn a_kept_inflater_gives_the_same_results_as_fresh_ones() {
    let good = claw_level(24, 12, 9).to_compressed().unwrap();
    let other = claw_level(30, 7, 4).to_compressed().unwrap();
    let declared = u32::from_le_bytes(good[0x2E8..0x2EC].try_into().unwrap());
    let mut too_long = good.clone();
    set_u32(&mut too_long, 0x2E8, declared - 1);
    let mut too_short = good.clone();
    set_u32(&mut too_short, 0x2E8, declared + 1);
    let mut corrupt = good.clone();
    let last = corrupt.len() - 1;
    corrupt[last] ^= 0xff;
    let truncated = &good[..good.len() - 100];
    let mut trailing = good.clone();
    trailing.extend_from_slice(b"garbage");

    let mut inflater = Inflater::new();
    assert!(!inflater.is_warm());
    let mut buffer = Vec::with_capacity(4 << 20);
    let options = Options::default();
    let files: [&[u8]; 7] = [
        &good, &too_long, &corrupt, &other, truncated, &too_short, &trailing,
    ];
    for round in 0..2 {
        for data in files {
            let kept = WwdView::from_bytes_with(data, &mut buffer, &mut inflater, options)
                .map(|v| (v.image().to_vec(), v.main_block_len()));
            let mut fresh_buffer = Vec::new();
            let fresh = WwdView::from_bytes(data, &mut fresh_buffer)
                .map(|v| (v.image().to_vec(), v.main_block_len()));
            assert_eq!(kept, fresh, "round {round}");
        }
    }
    assert!(inflater.is_warm());
    assert!(reason(&err(&too_long)).contains("more bytes than declared"));
    // And a good level after all of that still reads whole.
    let view = WwdView::from_bytes_with(&good, &mut buffer, &mut inflater, options).unwrap();
    view.validate().unwrap();
    assert_eq!(view.main_block_len(), declared as usize);
}

#[test]
fn an_inflater_can_move_to_another_thread() {
    fn send<T: Send>(_: &T) {}
    let mut inflater = Inflater::new();
    let data = claw_level(4, 4, 1).to_compressed().unwrap();
    WwdView::from_bytes_with(&data, &mut Vec::new(), &mut inflater, Options::default()).unwrap();
    send(&inflater);
    let inflater = std::thread::spawn(move || {
        WwdView::from_bytes_with(&data, &mut Vec::new(), &mut inflater, Options::default())
            .unwrap()
            .plane_count();
        inflater
    })
    .join()
    .unwrap();
    assert!(inflater.is_warm());
}

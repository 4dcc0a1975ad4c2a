//! `.wwd` levels made by the writer: Claw and Gruntz layouts, a mask tile, empty planes and wrap
//! flags read back to what was written, compressed and not; malformed inputs give precise errors;
//! WapMap's metadata block after the main block, read, checksummed around and damaged.

use gamebin::ErrorKind;
use gamebin::synth::wwd::{claw_level, empty_planes_level, gruntz_level, wapmap_meta_data};
use gamebin::wwd::model::{TileBody, WwdModel, tile};
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
        let end = all.last().map(|p| p.offset() + p.size()).unwrap();
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
        let again = WwdModel::from_view(&view).unwrap();
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

/// A level keeps the signature it was read with, even another than 0x5F4 (real levels with a
/// damaged one exist, and read with `ignore_signature`): the writer writes it as given, so such a
/// level packs back as it was, and it reads back with the option that read it.
#[test]
fn writer_keeps_another_signature_for_lenient_readers() {
    let mut level = claw_level(4, 4, 1);
    level.header.signature = 0x5F5.into();
    let lenient = Options {
        ignore_signature: true,
    };
    for bytes in [
        level.to_bytes(),
        level.to_compressed(),
        level.to_uncompressed(),
    ] {
        let bytes = bytes.expect("written as given");
        let mut buffer = Vec::new();
        assert!(
            WwdView::from_bytes(&bytes, &mut buffer).is_err(),
            "strict readers refuse it"
        );
        let mut inflater = gamebin::wwd::Inflater::new();
        let view = WwdView::from_bytes_with(&bytes, &mut buffer, &mut inflater, lenient).unwrap();
        assert_eq!(view.header().signature.get(), 0x5F5);
    }
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
    set_u32(&mut data, first.offset() + 8, u32::MAX);
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

/// Plane header fields, as offsets inside a 160-byte plane header.
const PLANE_TILES_WIDE: usize = 0x60;
const PLANE_NUM_IMAGE_SETS: usize = 0x7C;

/// Points plane `to`'s field at `field` (and the one after it) to plane `from`'s values.
fn copy_plane_fields(data: &mut [u8], from: usize, to: usize, fields: &[usize]) {
    for &field in fields {
        let src = 1524 + from * 160 + field;
        let value: [u8; 4] = data[src..src + 4].try_into().unwrap();
        let dst = 1524 + to * 160 + field;
        data[dst..dst + 4].copy_from_slice(&value);
    }
}

#[test]
fn planes_sharing_their_regions_beyond_the_image_are_refused_at_open() {
    // Field offsets in the plane header: tiles_wide, tiles_high, num_image_sets, num_objects,
    // offset_tiles, offset_image_sets, offset_objects.
    let (wide, high) = (PLANE_TILES_WIDE, PLANE_TILES_WIDE + 4);
    let (names, objects) = (PLANE_NUM_IMAGE_SETS, PLANE_NUM_IMAGE_SETS + 4);
    let (tiles_at, names_at, objects_at) = (
        PLANE_NUM_IMAGE_SETS + 8,
        PLANE_NUM_IMAGE_SETS + 12,
        PLANE_NUM_IMAGE_SETS + 16,
    );
    let refused = |data: &[u8], plane: usize| {
        let e = err(data);
        assert_eq!(e.what(), "PlaneHeader", "{e}");
        assert_eq!(e.offset(), (1524 + plane * 160) as u64, "{e}");
        assert!(reason(&e).contains("share their regions"), "{e}");
        let ErrorKind::InvalidValue { value, .. } = e.kind() else {
            unreachable!()
        };
        assert!(
            value > data.len() as u64,
            "{e}: covered no more than the image"
        );
    };

    // The Action plane's 40×40 grid (6,400 bytes) is most of the image: the Background plane
    // pointing at it too takes the planes past the image's length.
    let plain = claw_level(40, 40, 0).to_uncompressed().unwrap();
    let mut data = plain.clone();
    copy_plane_fields(&mut data, 1, 0, &[wide, high, tiles_at]);
    refused(&data, 1);

    // One 4,000-byte image-set name, read by all three planes.
    let mut level = claw_level(2, 2, 0);
    level.planes[0].image_sets = vec![vec![b'N'; 4000]];
    let plain = level.to_uncompressed().unwrap();
    let mut data = plain.clone();
    for to in [1, 2] {
        copy_plane_fields(&mut data, 0, to, &[names, names_at]);
    }
    // Two copies of the name are already more than the rest of the image.
    refused(&data, 1);

    // Fifty objects of the Action plane, claimed by the other two planes as well.
    let plain = claw_level(2, 2, 50).to_uncompressed().unwrap();
    let mut data = plain.clone();
    for to in [0, 2] {
        copy_plane_fields(&mut data, 1, to, &[objects, objects_at]);
    }
    // The Background plane (0) and the Action plane (1) claim them twice.
    refused(&data, 1);

    // Names without a NUL: two planes' searches each go over most of the image to its end.
    let mut data = claw_level(30, 30, 0).to_uncompressed().unwrap();
    let tail = 1524 + 3 * 160;
    data[tail..].fill(b'x');
    for plane in [0, 1] {
        set_u32(&mut data, 1524 + plane * 160 + names_at, tail as u32);
    }
    refused(&data, 1);

    // Sharing that stays within the image is read as stored: the Background plane reads the
    // Front plane's one name.
    let mut data = claw_level(2, 2, 0).to_uncompressed().unwrap();
    copy_plane_fields(&mut data, 2, 0, &[names, names_at]);
    let view = open(&data);
    let background: Vec<_> = view.plane(0).unwrap().image_sets().collect();
    assert_eq!(background, [Ok(&b"FRONT"[..])]);
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

// WapMap's metadata block. The layout below is WapMap's "WWD extended meta" as its source defines
// it (Zax37/WapMap, `WapMap/io/cWWDx.h` and `cWWDx.cpp`), assembled here by hand, not by the
// writer: tag, blocks of (type byte, int length, data), tag.

/// A block in WapMap's layout, by hand: MetaInfo, Header, Guides, MetaEndInfo.
fn wapmap_block_by_hand(
    build: i32,
    version: &str,
    map_build: i32,
    map_version: &str,
    description: &str,
    guides: &[(u8, i32)],
) -> Vec<u8> {
    let mut header = build.to_le_bytes().to_vec();
    for (i, s) in [version, map_version, description].iter().enumerate() {
        if i == 1 {
            header.extend_from_slice(&map_build.to_le_bytes());
        }
        header.extend_from_slice(s.as_bytes());
        header.push(0);
    }
    let mut guide_data = (guides.len() as i32).to_le_bytes().to_vec();
    for &(orientation, position) in guides {
        guide_data.push(orientation);
        guide_data.extend_from_slice(&position.to_le_bytes());
    }
    // WapMap's own arithmetic (SerializeTo): 9 + 9 + (5 + header) + [5 + guides] + 9 + 10.
    let size = 9
        + 9
        + 5
        + header.len()
        + if guides.is_empty() {
            0
        } else {
            5 + guide_data.len()
        }
        + 9
        + 10;
    let mut out = b"<wm_meta>".to_vec();
    out.push(0);
    out.extend_from_slice(&4i32.to_le_bytes());
    out.extend_from_slice(&(size as i32).to_le_bytes());
    out.push(2);
    out.extend_from_slice(&(header.len() as i32).to_le_bytes());
    out.extend_from_slice(&header);
    if !guides.is_empty() {
        out.push(3);
        out.extend_from_slice(&(guide_data.len() as i32).to_le_bytes());
        out.extend_from_slice(&guide_data);
    }
    out.push(1);
    out.extend_from_slice(&4i32.to_le_bytes());
    out.extend_from_slice(&(size as i32).to_le_bytes());
    out.extend_from_slice(b"</wm_meta>");
    assert_eq!(out.len(), size);
    out
}

/// WapMap's `CalculateChecksum`, transcribed: start at 2^32 − 1 − 159, then for each stored byte
/// from offset 1524 to the end of what it was given, subtract its 1-based index and add the byte.
fn wapmap_calculate_checksum(file: &[u8]) -> u32 {
    let mut sum = u32::MAX - 159;
    for (n, &b) in file.iter().enumerate().skip(1524) {
        sum = sum
            .wrapping_sub((n - 1523) as u32)
            .wrapping_add(u32::from(b));
    }
    sum
}

fn find_tag(data: &[u8]) -> usize {
    data.windows(9).position(|w| w == b"<wm_meta>").unwrap()
}

fn fixture(name: &str) -> Vec<u8> {
    std::fs::read(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("fixtures/wap32-wwd")
            .join(name),
    )
    .unwrap()
}

#[test]
fn a_block_in_wapmaps_layout_reads_after_either_main_block() {
    // WapMap 0.3.1 is build 30 and its default map version is "1.0" (WapMap/conf.h, loadmap.cpp);
    // with a two-letter description the block is 63 bytes, as in the reported level.
    let block = wapmap_block_by_hand(30, "0.3.1", 4, "1.0", "ab", &[]);
    assert_eq!(block.len(), 63);
    let with_guides = wapmap_block_by_hand(30, "0.3.1", 7, "2.1", "Lvl", &[(1, 640), (0, -64)]);
    for block in [&block, &with_guides] {
        for compressed in [true, false] {
            let level = claw_level(8, 6, 3);
            let mut data = if compressed {
                level.to_compressed().unwrap()
            } else {
                level.to_uncompressed().unwrap()
            };
            let main_end = data.len();
            data.extend_from_slice(block);
            let view = open(&data);
            view.validate().unwrap();
            let meta = view.wapmap_meta().expect("the block is found");
            assert_eq!(meta.offset(), main_end);
            assert_eq!(meta.len(), block.len());
            assert!(meta.bytes() == &block[..]);
            assert_eq!(view.stored_main_block().len(), main_end - 1524);
            assert_eq!(meta.meta_info_size().unwrap() as usize, block.len());
            assert_eq!(meta.meta_end_info_size().unwrap() as usize, block.len());
            // The checksum covers the main block only: the writer's verdict is unchanged (for an
            // uncompressed block d[0] is 160, where WapMap's formula is the published one).
            let want = if compressed {
                ChecksumVerdict::WapMap
            } else {
                ChecksumVerdict::Seed
            };
            assert_eq!(view.checksum().verdict, want);
            assert_eq!(view.checksum().wapmap, view.checksum().stored);
            let kinds: Vec<&str> = meta.blocks().map(|b| b.unwrap().kind().name()).collect();
            let h = meta.header().unwrap().unwrap();
            assert_eq!(h.wapmap_build, 30);
            assert_eq!(h.wapmap_version, b"0.3.1");
            if block.len() == 63 {
                assert_eq!(kinds, ["MetaInfo", "Header", "MetaEndInfo"]);
                assert_eq!(
                    (h.map_build, h.map_version, h.map_description),
                    (4, &b"1.0"[..], &b"ab"[..])
                );
                assert!(meta.guides().unwrap().is_empty());
            } else {
                assert_eq!(kinds, ["MetaInfo", "Header", "Guides", "MetaEndInfo"]);
                assert_eq!(
                    (h.map_build, h.map_version, h.map_description),
                    (7, &b"2.1"[..], &b"Lvl"[..])
                );
                let g: Vec<(u8, i32)> = meta
                    .guides()
                    .unwrap()
                    .iter()
                    .map(|g| (g.orientation, g.position.get()))
                    .collect();
                assert_eq!(g, [(1, 640), (0, -64)]);
            }
            // The writer's block is the same bytes as WapMap's layout by hand.
            let mut by_writer = gamebin::wwd::model::WapMapMetaData {
                wapmap_build: 30,
                wapmap_version: b"0.3.1".to_vec(),
                ..Default::default()
            };
            (
                by_writer.map_build,
                by_writer.map_version,
                by_writer.map_description,
            ) = (
                h.map_build,
                h.map_version.to_vec(),
                h.map_description.to_vec(),
            );
            by_writer.guides = meta
                .guides()
                .unwrap()
                .iter()
                .map(|g| (g.orientation, g.position.get()))
                .collect();
            assert!(by_writer.to_bytes().unwrap() == *block);
        }
    }
    // A block type WapMap does not know is skipped by its length, as WapMap skips it.
    let mut odd = block.clone();
    let end_info = odd.len() - 10 - 9;
    odd.splice(end_info..end_info, [9u8, 2, 0, 0, 0, 0xAB, 0xCD]);
    let size = (odd.len() as u32).to_le_bytes();
    odd[14..18].copy_from_slice(&size);
    let n = odd.len();
    odd[n - 14..n - 10].copy_from_slice(&size);
    let mut data = claw_level(8, 6, 3).to_compressed().unwrap();
    data.extend_from_slice(&odd);
    let view = open(&data);
    let meta = view.wapmap_meta().unwrap();
    let unknown = meta.blocks().nth(2).unwrap().unwrap();
    assert_eq!(unknown.kind(), gamebin::wwd::MetaBlockKind::Unknown(9));
    assert_eq!(unknown.data(), [0xAB, 0xCD]);
    assert_eq!(meta.header().unwrap().unwrap().map_description, b"ab");
}

#[test]
fn the_wapmap_fixtures_checksum_is_wapmaps_formula_without_the_block() {
    for name in ["claw_small_wapmap.wwd", "claw_small_nocompress_wapmap.wwd"] {
        let data = fixture(name);
        let tag = find_tag(&data);
        assert!(data.ends_with(b"</wm_meta>"));
        let stored = u32::from_le_bytes(data[748..752].try_into().unwrap());
        // WapMap checksums what it wrote before appending the block...
        assert_eq!(stored, wapmap_calculate_checksum(&data[..tag]), "{name}");
        // ...so counting the block gives another value.
        assert_ne!(stored, wapmap_calculate_checksum(&data), "{name}");
        let view = open(&data);
        view.validate().unwrap();
        let report = view.checksum();
        // d[0] is 160 in an uncompressed block, where WapMap's formula is the published one.
        let want = if view.is_compressed() {
            ChecksumVerdict::WapMap
        } else {
            ChecksumVerdict::Seed
        };
        assert_eq!(report.verdict, want, "{name}");
        assert_eq!(report.wapmap, stored);
        assert_eq!(view.stored_main_block().len(), tag - 1524);
        let meta = view.wapmap_meta().unwrap();
        assert_eq!(meta.offset(), tag);
        let h = meta.header().unwrap().unwrap();
        assert_eq!(h.wapmap_version, b"0.3.1");
        assert_eq!(meta.guides().unwrap().len(), 2);
        // The same level without the block reads to the same image.
        let plain = if view.is_compressed() {
            claw_level(24, 12, 9).to_compressed().unwrap()
        } else {
            claw_level(24, 12, 9).to_uncompressed().unwrap()
        };
        assert!(data[..tag] == plain[..]);
        assert!(open(&plain).image() == view.image());
        assert!(open(&plain).wapmap_meta().is_none());
    }
}

#[test]
fn a_level_with_the_block_round_trips_byte_for_byte() {
    for name in ["claw_small_wapmap.wwd", "claw_small_nocompress_wapmap.wwd"] {
        let data = fixture(name);
        let view = open(&data);
        let level = WwdModel::from_view(&view).unwrap();
        let again = if view.is_compressed() {
            level.to_compressed().unwrap()
        } else {
            level.to_uncompressed().unwrap()
        };
        assert!(again == data, "{name}");
    }
}

#[test]
fn a_damaged_block_after_the_stream_is_an_error_with_its_offset() {
    let good = fixture("claw_small_wapmap.wwd");
    let tag = find_tag(&good);
    let len = good.len();
    // No closing tag: the block stops after MetaEndInfo.
    let e = err(&good[..len - 10]);
    assert_eq!(e.what(), "WapMapMeta.close_tag");
    assert_eq!(e.offset(), (len - 10) as u64);
    assert_eq!(
        e.kind(),
        ErrorKind::Truncated {
            needed: 10,
            available: 0
        }
    );
    // No closing tag: other bytes in its place.
    let mut bad = good.clone();
    bad[len - 10..].copy_from_slice(b"<\\wm_meta>");
    let e = err(&bad);
    assert_eq!(
        (e.what(), e.offset()),
        ("WapMapMeta.close_tag", (len - 10) as u64)
    );
    assert!(reason(&e).contains("closing tag is missing"), "{e}");
    // Cut at every length inside the block: always an error inside the block, never a level.
    for cut in tag + 1..len {
        let e = err(&good[..cut]);
        assert!(e.what().starts_with("WapMapMeta"), "cut at {cut}: {e}");
        assert!(
            (tag as u64..=cut as u64).contains(&e.offset()),
            "cut at {cut}: {e}"
        );
    }
    // Bytes after the closing tag.
    let mut long = good.clone();
    long.extend_from_slice(b"garbage");
    let e = err(&long);
    assert_eq!(e.what(), "WapMapMeta");
    assert_eq!(e.offset(), len as u64);
    assert_eq!(
        e.kind(),
        ErrorKind::InvalidValue {
            value: 7,
            reason: "bytes after the end of the WapMap metadata block"
        }
    );
    // A size that disagrees with the block's length (WapMap would not find the block).
    let mut bad = good.clone();
    bad[tag + 14] ^= 1;
    let e = err(&bad);
    assert_eq!(
        (e.what(), e.offset()),
        ("WapMapMeta.MetaInfo.size", (tag + 14) as u64)
    );
    let mut bad = good.clone();
    bad[len - 14] ^= 1;
    assert_eq!(err(&bad).what(), "WapMapMeta.MetaEndInfo.size");
    // A block length running past the end of the file.
    let mut bad = good.clone();
    bad[tag + 19..tag + 23].copy_from_slice(&u32::MAX.to_le_bytes());
    let e = err(&bad);
    assert_eq!(
        (e.what(), e.offset()),
        ("WapMapMeta.block.data", (tag + 23) as u64)
    );
    // Bytes after the stream that are not a WapMap block stay the stream's error, with offset and
    // length.
    let mut other = good[..tag].to_vec();
    other.extend_from_slice(b"<wm_metaX>");
    let e = err(&other);
    assert_eq!(
        (e.what(), e.offset()),
        ("WwdHeader.main_block(zlib)", tag as u64)
    );
    assert!(
        matches!(e.kind(), ErrorKind::InvalidValue { value: 10, .. }),
        "{e}"
    );
}

#[test]
fn an_uncompressed_level_finds_the_block_from_its_end_as_wapmap_does() {
    let good = fixture("claw_small_nocompress_wapmap.wwd");
    let tag = find_tag(&good);
    let len = good.len();
    // Both tags and the size in place but a damaged inside: an error in the block.
    let mut bad = good.clone();
    bad[tag + 18] = 0; // the first block after MetaInfo becomes a second MetaInfo
    let e = err(&bad);
    assert_eq!(
        (e.what(), e.offset()),
        ("WapMapMeta.block", (tag + 18) as u64)
    );
    // Without its closing tag, or with bytes after it, nothing marks a block: the bytes are the
    // main block's, as in any uncompressed level (whose main block has no stored length).
    for data in [&good[..len - 10], &[&good[..], b"garbage"].concat()[..]] {
        let view = open(data);
        assert!(view.wapmap_meta().is_none());
        view.validate().unwrap();
        assert_eq!(view.stored_main_block().len(), data.len() - 1524);
    }
}

#[test]
fn the_writer_refuses_a_nul_inside_a_wapmap_string() {
    let mut meta = gamebin::synth::wwd::wapmap_meta_data();
    meta.map_description = b"a\0b".to_vec();
    let e = meta.to_bytes().unwrap_err();
    assert_eq!(
        (e.path(), e.field()),
        ("map_description", Some("WapMapMeta.Header.map_description"))
    );
}

/// A level's WapMap block is written verbatim after the main block, where a reader takes only a
/// whole block: a damaged one (here its opening tag, its closing tag, a size, or cut short, as a
/// hand-edited Tiled map may carry) is refused by the writer, not written into a level that does
/// not open. An empty one writes none.
#[test]
fn a_damaged_wapmap_block_is_refused_when_writing() {
    let block = wapmap_meta_data().to_bytes().unwrap();
    let mut damaged = Vec::new();
    let mut open_tag = block.clone();
    open_tag[0] = b'L';
    damaged.push((open_tag, "WapMapMeta.open_tag"));
    let mut close_tag = block.clone();
    *close_tag.last_mut().unwrap() = b'!';
    damaged.push((close_tag, "WapMapMeta.close_tag"));
    damaged.push((block[..block.len() - 3].to_vec(), "WapMapMeta.close_tag"));
    for (meta, field) in damaged {
        let mut level = claw_level(24, 12, 9);
        level.wapmap_meta = Some(meta);
        for bytes in [level.to_compressed(), level.to_uncompressed()] {
            let e = bytes.expect_err("a damaged block is refused");
            assert!(e.to_string().contains(field), "{e}");
        }
    }
    let mut level = claw_level(24, 12, 9);
    level.wapmap_meta = Some(Vec::new());
    let bytes = level.to_compressed().unwrap();
    assert_eq!(bytes, claw_level(24, 12, 9).to_compressed().unwrap());
    level.wapmap_meta = Some(block);
    let bytes = level.to_uncompressed().unwrap();
    assert!(open(&bytes).wapmap_meta().is_some());
}

//! DDS textures: the fixtures and the real samples decode as an independent decoder
//! (texture2ddecoder) decodes them, the writer round-trips every fixture and refuses models whose
//! levels the header does not describe, damaged headers give errors naming the field, and tiers
//! are chosen by size.

use std::path::{Path, PathBuf};

use gamebin::ErrorKind;
use gamebin::dds::model::DdsModel;
use gamebin::dds::{DdsView, Level, TextureFormat, tiers};
use gamebin::synth::dds::{Kind, Spec, fixtures, texture};

mod bcn;
use bcn::independent;

fn decoded(level: &Level<'_>) -> Vec<u8> {
    let mut out = vec![0u8; level.rgba8_len().unwrap()];
    level.decode_rgba8(&mut out).unwrap();
    out
}

/// The largest difference of one channel between two decodings.
fn largest_difference(a: &[u8], b: &[u8]) -> u8 {
    assert_eq!(a.len(), b.len());
    a.iter()
        .zip(b)
        .map(|(x, y)| x.abs_diff(*y))
        .max()
        .unwrap_or(0)
}

#[test]
fn block_compressed_fixtures_decode_as_an_independent_decoder_does() {
    let mut compared = 0;
    for (name, bytes) in fixtures().unwrap() {
        let view = DdsView::from_bytes(&bytes).unwrap();
        for level in view.levels() {
            let ours = decoded(&level);
            if let Some(theirs) = independent(&level) {
                // The two decoders round BC1/BC3's interpolated colours differently by one.
                let diff = largest_difference(&ours, &theirs);
                assert!(
                    diff <= 1,
                    "{name} slice {} mip {}: {diff}",
                    level.slice,
                    level.mip
                );
                compared += 1;
            }
        }
    }
    assert!(compared >= 20, "only {compared} levels compared");
}

#[test]
fn uncompressed_layouts_decode_through_their_masks() {
    let bgra = texture(&Spec::new(Kind::Bgra8, 6, 5, 1)).unwrap();
    let view = DdsView::from_bytes(&bgra).unwrap();
    let level = view.level(0, 0).unwrap();
    let rgba = decoded(&level);
    for (stored, out) in level.data.chunks(4).zip(rgba.chunks(4)) {
        assert_eq!(out, [stored[2], stored[1], stored[0], stored[3]]);
    }

    let grey = texture(&Spec::new(Kind::L8, 7, 3, 1)).unwrap();
    let view = DdsView::from_bytes(&grey).unwrap();
    let level = view.level(0, 0).unwrap();
    for (stored, out) in level.data.iter().zip(decoded(&level).chunks(4)) {
        assert_eq!(out, [*stored, *stored, *stored, 255]);
    }

    let rgb565 = texture(&Spec::new(Kind::B5g6r5, 4, 4, 1)).unwrap();
    let view = DdsView::from_bytes(&rgb565).unwrap();
    let level = view.level(0, 0).unwrap();
    for (stored, out) in level.data.chunks(2).zip(decoded(&level).chunks(4)) {
        let v = u16::from_le_bytes([stored[0], stored[1]]);
        let (r, g, b) = (v >> 11, (v >> 5) & 0x3F, v & 0x1F);
        // UNORM conversion as Direct3D defines it: c / (2^n - 1), then rounded to 8 bits.
        let unorm = |c: u16, max: f64| (f64::from(c) / max * 255.0).round() as u8;
        let (r8, g8, b8) = (unorm(r, 31.0), unorm(g, 63.0), unorm(b, 31.0));
        assert_eq!(out, [r8, g8, b8, 255], "{v:#06x}");
    }
}

#[test]
fn levels_cut_by_the_edge_keep_their_visible_pixels() {
    let bytes = texture(&Spec::new(Kind::Bc1, 5, 3, 3)).unwrap();
    let view = DdsView::from_bytes(&bytes).unwrap();
    let sizes: Vec<_> = view
        .levels()
        .map(|l| (l.width, l.height, l.data.len()))
        .collect();
    assert_eq!(sizes, [(5, 3, 16), (2, 1, 8), (1, 1, 8)]);
    for level in view.levels() {
        let diff = largest_difference(&decoded(&level), &independent(&level).unwrap());
        assert!(diff <= 1, "mip {}: {diff}", level.mip);
    }
}

#[test]
fn cube_maps_and_arrays_list_every_face_and_slice_in_file_order() {
    let cube = texture(&Spec {
        cube: true,
        ..Spec::new(Kind::Bc1, 8, 8, 4)
    })
    .unwrap();
    let view = DdsView::from_bytes(&cube).unwrap();
    assert!(view.is_cube());
    assert_eq!((view.slice_count(), view.mip_count()), (6, 4));
    let mut expected_offset = 128;
    for (i, level) in view.levels().enumerate() {
        assert_eq!((level.slice, level.mip), (i as u32 / 4, i as u32 % 4));
        assert_eq!(level.offset, expected_offset);
        expected_offset += level.data.len();
    }
    assert_eq!(expected_offset, cube.len());
    assert!(view.level(6, 0).is_none() && view.level(0, 4).is_none());

    let array = texture(&Spec {
        array: 2,
        ..Spec::new(Kind::Bc7, 8, 4, 2)
    })
    .unwrap();
    let view = DdsView::from_bytes(&array).unwrap();
    assert_eq!(view.data_offset(), 148);
    assert_eq!(view.slice_count(), 2);
    assert_eq!(view.level(1, 1).unwrap().offset, 148 + 32 + 16 + 32);
}

#[test]
fn every_fixture_round_trips_through_its_model_and_json() {
    for (name, bytes) in fixtures().unwrap() {
        let view = DdsView::from_bytes(&bytes).unwrap();
        let model = DdsModel::from_view(&view);
        assert_eq!(model.to_bytes().unwrap(), bytes, "{name}");
        let json = serde_json::to_string(&model).unwrap();
        let back: DdsModel = serde_json::from_str(&json).unwrap();
        assert_eq!(back, model, "{name}");
    }
}

#[test]
fn the_writer_refuses_levels_the_header_does_not_describe() {
    let model = gamebin::synth::dds::model(&Spec::new(Kind::Bc1, 8, 8, 2));
    let mut short = model.clone();
    short.levels[1].data.pop();
    let e = short.to_bytes().unwrap_err().to_string();
    assert!(
        e.contains("levels[1].data") && e.contains("7 bytes where"),
        "{e}"
    );

    let mut missing = model.clone();
    missing.levels.pop();
    let e = missing.to_bytes().unwrap_err().to_string();
    assert!(
        e.contains("levels") && e.contains("slice 0 mip 1 is missing"),
        "{e}"
    );

    let mut wider = model.clone();
    wider.header.width = 16;
    let e = wider.to_bytes().unwrap_err().to_string();
    assert!(e.contains("levels[0].width"), "{e}");

    let mut no_dx10 = gamebin::synth::dds::model(&Spec::new(Kind::Bc7, 4, 4, 1));
    no_dx10.dx10 = None;
    let e = no_dx10.to_bytes().unwrap_err().to_string();
    assert!(e.contains("dx10"), "{e}");
}

/// A header field set to `value` (little-endian u32 at `offset`).
fn with_u32(bytes: &[u8], offset: usize, value: u32) -> Vec<u8> {
    let mut out = bytes.to_vec();
    out[offset..offset + 4].copy_from_slice(&value.to_le_bytes());
    out
}

#[test]
fn damaged_headers_are_errors_naming_the_field() {
    let bc1 = texture(&Spec::new(Kind::Bc1, 16, 16, 5)).unwrap();
    let bc7 = texture(&Spec::new(Kind::Bc7, 16, 16, 1)).unwrap();
    let cases: [(&str, Vec<u8>, &str); 10] = [
        ("magic", with_u32(&bc1, 0, 0), "DDS magic"),
        ("header size", with_u32(&bc1, 4, 100), "DDS_HEADER.size"),
        ("zero width", with_u32(&bc1, 16, 0), "DDS_HEADER.width"),
        ("zero height", with_u32(&bc1, 12, 0), "DDS_HEADER.height"),
        (
            "unknown FourCC",
            with_u32(&bc1, 84, u32::from_le_bytes(*b"ETC2")),
            "DDS_PIXELFORMAT.fourCC",
        ),
        (
            "unknown DXGI",
            with_u32(&bc7, 128, 10),
            "DDS_HEADER_DXT10.dxgiFormat",
        ),
        (
            "array of none",
            with_u32(&bc7, 140, 0),
            "DDS_HEADER_DXT10.arraySize",
        ),
        (
            "too many mips",
            with_u32(&bc1, 28, 6),
            "DDS_HEADER.mipMapCount",
        ),
        (
            "sizes overflow",
            with_u32(&with_u32(&bc7, 12, u32::MAX), 16, u32::MAX),
            "DDS level size",
        ),
        (
            "levels past the end",
            bc1[..bc1.len() - 1].to_vec(),
            "DDS level data",
        ),
    ];
    for (case, bytes, field) in cases {
        let e = DdsView::from_bytes(&bytes).unwrap_err();
        assert_eq!(e.what(), field, "{case}: {e}");
    }
    let e = DdsView::from_bytes(&bc1[..bc1.len() - 1]).unwrap_err();
    assert_eq!(
        e.kind(),
        ErrorKind::Truncated {
            needed: (bc1.len() - 128) as u64,
            available: (bc1.len() - 129) as u64
        }
    );
    // A huge array of small levels is refused at open, before any walk.
    let many = with_u32(&bc7, 140, u32::MAX / 6);
    assert_eq!(
        DdsView::from_bytes(&many).unwrap_err().what(),
        "DDS level data"
    );
}

#[test]
fn tiers_give_the_largest_texture_within_the_limit() {
    let dir = std::env::temp_dir().join(format!("gamebin-dds-tiers-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let dds = dir.join("hull_a.dds");
    std::fs::write(&dds, texture(&Spec::new(Kind::Bc1, 16, 16, 5)).unwrap()).unwrap();
    std::fs::write(
        dir.join("hull_a.dd2"),
        texture(&Spec::new(Kind::Bc1, 32, 32, 1)).unwrap(),
    )
    .unwrap();
    std::fs::write(
        dir.join("hull_a.dd1"),
        texture(&Spec::new(Kind::Bc1, 64, 64, 1)).unwrap(),
    )
    .unwrap();
    let pick = |limit| {
        let choice = tiers::choose(&dds, limit).unwrap().unwrap();
        (
            choice
                .tier
                .path
                .extension()
                .unwrap()
                .to_str()
                .unwrap()
                .to_owned(),
            choice.mip,
        )
    };
    assert_eq!(pick(None), ("dd1".to_owned(), 0));
    assert_eq!(pick(Some(63)), ("dd2".to_owned(), 0));
    assert_eq!(pick(Some(16)), ("dds".to_owned(), 0));
    assert_eq!(pick(Some(5)), ("dds".to_owned(), 2));
    assert_eq!(pick(Some(1)), ("dds".to_owned(), 4));
    // A tier that exists but does not read is named, not skipped.
    std::fs::write(dir.join("hull_a.dd0"), b"DDS broken").unwrap();
    let e = tiers::choose(&dds, None).unwrap_err();
    assert!(e.to_string().contains("hull_a.dd0"), "{e}");
    assert!(
        tiers::choose(&dir.join("absent.dds"), None)
            .unwrap()
            .is_none()
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

fn samples() -> Option<PathBuf> {
    let dir = std::env::var_os("GAMEBIN_SAMPLES").expect(
        "GAMEBIN_SAMPLES is not set: this test reads the real samples (run it with \
         GAMEBIN_SAMPLES=../shared/samples cargo test -- --include-ignored)",
    );
    Some(PathBuf::from(dir).join("wows-mod"))
}

fn dds_files(dir: &Path, found: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            dds_files(&path, found);
        } else if path.extension().is_some_and(|e| e == "dds") {
            found.push(path);
        }
    }
}

/// The textures SOURCES.txt lists: (file name's end, format, width, height, mip levels).
const LISTED: [(&str, TextureFormat, u32, u32, u32); 9] = [
    ("JGA010_25mm_Type96_a.dds", TextureFormat::Bc3, 128, 128, 1),
    ("JGA010_25mm_Type96_mg.dds", TextureFormat::Bc3, 128, 128, 1),
    ("JGA010_25mm_Type96_n.dds", TextureFormat::Bc1, 256, 256, 9),
    (
        "JSD209_Yugumo/gun/default_ao.dds",
        TextureFormat::Bc1,
        4,
        4,
        3,
    ),
    (
        "JGA010_25mm_Type96_dead_a.dds",
        TextureFormat::Bc1,
        256,
        256,
        9,
    ),
    (
        "AF076_Rangefinder_2_5m_a.dds",
        TextureFormat::Bc3,
        128,
        128,
        1,
    ),
    (
        "AF076_Rangefinder_2_5m_mg.dds",
        TextureFormat::Bc3,
        128,
        128,
        1,
    ),
    (
        "AF076_Rangefinder_2_5m_n.dds",
        TextureFormat::Bc7,
        128,
        128,
        8,
    ),
    ("finder/default_ao.dds", TextureFormat::Bc1, 16, 16, 5),
];

#[test]
#[ignore = "needs GAMEBIN_SAMPLES (real files): GAMEBIN_SAMPLES=../shared/samples cargo test -- --include-ignored"]
fn real_textures_match_sources_txt_and_decode_as_an_independent_decoder_does() {
    let Some(dir) = samples() else { return };
    let mut found = Vec::new();
    dds_files(&dir, &mut found);
    assert_eq!(
        found.len(),
        LISTED.len(),
        "textures under {}",
        dir.display()
    );
    for path in &found {
        let shown = path.to_string_lossy().replace('\\', "/");
        let (_, format, width, height, mips) = LISTED
            .iter()
            .find(|(end, ..)| shown.ends_with(end))
            .unwrap_or_else(|| panic!("{shown} is not listed in SOURCES.txt"));
        let bytes = std::fs::read(path).unwrap();
        assert_eq!(
            gamebin::detect(&bytes),
            Some(gamebin::Format::Dds),
            "{shown}"
        );
        let view = DdsView::from_bytes(&bytes).unwrap();
        assert_eq!(
            (view.format(), view.width(), view.height(), view.mip_count()),
            (*format, *width, *height, *mips),
            "{shown}"
        );
        assert_eq!(view.data_end(), bytes.len(), "{shown}: trailing bytes");
        for level in view.levels() {
            let diff = largest_difference(&decoded(&level), &independent(&level).unwrap());
            assert!(diff <= 1, "{shown} mip {}: {diff}", level.mip);
        }
        assert_eq!(
            DdsModel::from_view(&view).to_bytes().unwrap(),
            bytes,
            "{shown}"
        );
    }
}

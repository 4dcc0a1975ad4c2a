//! A single PFS index as one of `AnyView`'s formats: detected by its magic (not taken for
//! `assets.bin`, the other BigWorld file), its summary and owned model checked against what the
//! writer was given, its check clean on writer-made indexes and naming each damage made to one
//! (with the record's offset), and two indexes compared by path.

use gamebin::hash::murmur3_32;
use gamebin::wows::pfs::{Broken, Compression, IdxFinding, IdxLayout, IdxView, PfsWriter};
use gamebin::{AnyView, Format, Scratch, View};

/// (path, bytes, compression, volume number) as the writer is given them.
fn files() -> Vec<(&'static str, Vec<u8>, Compression, usize)> {
    vec![
        (
            "KDStorage.bin",
            b"KDStorage".to_vec(),
            Compression::Deflate,
            0,
        ),
        (
            "content/gameplay/a.xml",
            b"<a/>".to_vec(),
            Compression::Stored,
            0,
        ),
        (
            "content/gameplay/b.xml",
            vec![b'b'; 300],
            Compression::Deflate,
            0,
        ),
        ("content/c.bin", vec![1, 2, 3], Compression::Stored, 0),
        (
            "gui/flags/c.png",
            b"\x89PNG".to_vec(),
            Compression::Stored,
            1,
        ),
    ]
}

const VOLUMES: [&str; 2] = ["v_0001.pkg", "v_0002.pkg"];

fn write(layout: IdxLayout) -> Vec<u8> {
    let mut writer = PfsWriter::new(VOLUMES[0]).with_layout(layout);
    let mut volume = 0;
    for (path, bytes, compression, v) in files() {
        if v != volume {
            writer.add_volume(VOLUMES[v]);
            volume = v;
        }
        writer.add(path, &bytes, compression).unwrap();
    }
    writer.finish().unwrap().idx
}

/// The checksum stored again after a change, so that only the change is found.
fn reseal(idx: &mut [u8]) {
    let sum = murmur3_32(&idx[0x10..], 0);
    idx[8..12].copy_from_slice(&sum.to_le_bytes());
}

fn errors(idx: &[u8]) -> (Vec<IdxFinding>, Vec<IdxFinding>) {
    let view = IdxView::from_bytes(idx).unwrap();
    let found = view.findings();
    // The generic report says the same, line for line.
    let report = View::check(&view);
    let lines = |f: &[IdxFinding]| f.iter().map(ToString::to_string).collect::<Vec<_>>();
    let report_lines =
        |f: &[gamebin::Finding]| f.iter().map(ToString::to_string).collect::<Vec<_>>();
    assert_eq!(report_lines(&report.errors), lines(&found.errors));
    assert_eq!(report_lines(&report.warnings), lines(&found.warnings));
    (found.errors, found.warnings)
}

#[test]
fn an_index_is_detected_by_its_magic_and_assets_bin_is_not_one() {
    for layout in [IdxLayout::Current, IdxLayout::Legacy] {
        let idx = write(layout);
        assert_eq!(gamebin::detect(&idx), Some(Format::WowsPfsIdx));
        let mut scratch = Scratch::new();
        let view = AnyView::parse(&idx, &mut scratch).unwrap();
        assert_eq!(view.format(), Format::WowsPfsIdx);
        assert!(view.check().is_clean(), "{:?}", view.check());
    }
    let assets = std::fs::read(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("fixtures/wows-assets/all_prototypes.assets.bin"),
    )
    .unwrap();
    assert_ne!(gamebin::detect(&assets), Some(Format::WowsPfsIdx));
    assert_eq!(Format::WowsPfsIdx.name(), "wows-pfs-idx");
}

#[test]
fn the_summary_counts_what_the_writer_was_given() {
    let given = files();
    for layout in [IdxLayout::Current, IdxLayout::Legacy] {
        let idx = write(layout);
        let view = IdxView::from_bytes(&idx).unwrap();
        let info = View::summary(&view).unwrap();
        // KDStorage.bin, content, gameplay, a.xml, b.xml, c.bin, gui, flags, c.png.
        assert_eq!(info.names, 9);
        assert_eq!(info.files, given.len());
        assert_eq!(info.directories, 4);
        assert_eq!(info.volumes, VOLUMES);
        let stored = given.iter().filter(|f| f.2 == Compression::Stored).count();
        assert_eq!(info.compression.stored, stored);
        assert_eq!(info.compression.deflate, given.len() - stored);
        let unpacked: usize = given.iter().map(|f| f.1.len()).sum();
        assert_eq!(info.unpacked_bytes, unpacked as u64);
        assert_eq!(info.checksum, "ok");
        assert_eq!(
            info.layout,
            match layout {
                IdxLayout::Current => "current",
                IdxLayout::Legacy => "legacy",
            }
        );
        let line = info.to_string();
        assert!(line.starts_with("wows-pfs-idx ("), "{line}");
        assert!(line.contains("check the game folder"), "{line}");
    }
}

#[cfg(feature = "write")]
#[test]
fn the_model_holds_every_file_at_its_path_as_written() {
    let given = files();
    let idx = write(IdxLayout::Current);
    let view = IdxView::from_bytes(&idx).unwrap();
    let model = View::to_model(&view).unwrap();
    assert_eq!(model.files.len(), given.len());
    for (file, (path, bytes, compression, volume)) in model.files.iter().zip(&given) {
        assert_eq!(file.path.as_deref(), Some(*path));
        assert_eq!(file.unpacked_size as usize, bytes.len());
        assert_eq!(file.crc32, crc32fast::hash(bytes));
        assert_eq!(file.compression, compression.as_str());
        assert_eq!(file.volume.as_deref(), Some(VOLUMES[*volume]));
        assert_eq!(file.id, gamebin::wows::pfs::path_id(path));
    }
    let dirs: Vec<&str> = model
        .names
        .iter()
        .filter(|n| !given.iter().any(|f| n.path.as_deref() == Some(f.0)))
        .filter_map(|n| n.path.as_deref())
        .collect();
    assert_eq!(dirs, ["content", "content/gameplay", "gui", "gui/flags"]);
    assert_eq!(model.volumes.len(), 2);
    assert_eq!(model.layout, "current");
    // The model writes the very index it was read from, in both layouts.
    assert_eq!(model.to_bytes().unwrap(), idx);
    let legacy = write(IdxLayout::Legacy);
    let view = IdxView::from_bytes(&legacy).unwrap();
    assert_eq!(View::to_model(&view).unwrap().to_bytes().unwrap(), legacy);
}

/// The offset of name record `i` in a current-layout index written by [`write`].
fn name_record(i: usize) -> usize {
    0x38 + i * 32
}

#[test]
fn a_parent_no_record_has_breaks_the_names_under_it() {
    let mut idx = write(IdxLayout::Current);
    // Record 1 is `content`: its children and theirs lose the root.
    let at = name_record(1) + 0x18;
    idx[at..at + 8].copy_from_slice(&0x1111_u64.to_le_bytes());
    let (errors, _) = errors(&idx);
    assert!(matches!(errors[0], IdxFinding::Checksum(_)), "{errors:?}");
    let broken: Vec<usize> = errors
        .iter()
        .filter_map(|e| match e {
            IdxFinding::NoRoot {
                offset,
                why: Broken::MissingParent { parent_id: 0x1111 },
                ..
            } => Some(*offset),
            _ => None,
        })
        .collect();
    // content, gameplay, a.xml, b.xml, c.bin.
    assert_eq!(broken, [1, 2, 3, 4, 5].map(name_record), "{errors:?}");
    assert_eq!(errors.len(), 6, "{errors:?}");
    assert!(
        errors[1]
            .to_string()
            .contains("no name record has id 0x0000000000001111")
    );
}

#[test]
fn a_cycle_of_parents_is_found_not_followed() {
    let mut idx = write(IdxLayout::Current);
    let gameplay = u64::from_le_bytes(idx[name_record(2) + 0x10..][..8].try_into().unwrap());
    // `content`'s parent becomes `content/gameplay`, whose parent is `content`.
    let at = name_record(1) + 0x18;
    idx[at..at + 8].copy_from_slice(&gameplay.to_le_bytes());
    reseal(&mut idx);
    let (errors, _) = errors(&idx);
    assert_eq!(errors.len(), 5, "{errors:?}");
    assert!(errors.iter().all(|e| matches!(
        e,
        IdxFinding::NoRoot {
            why: Broken::Cycle,
            ..
        }
    )));
}

#[test]
fn file_records_must_name_a_name_and_a_volume() {
    let mut idx = write(IdxLayout::Current);
    let view = IdxView::from_bytes(&idx).unwrap();
    let files_at = view.table_offsets()[1];
    // File 0: an id no name has; file 1: a volume no record has; file 3 (stored): sizes that differ.
    idx[files_at..files_at + 8].copy_from_slice(&7_u64.to_le_bytes());
    idx[files_at + 48 + 8..files_at + 48 + 16].copy_from_slice(&9_u64.to_le_bytes());
    idx[files_at + 3 * 48 + 0x20..files_at + 3 * 48 + 0x24].copy_from_slice(&2_u32.to_le_bytes());
    // File 4 becomes an Oodle stream: a warning, not an error.
    idx[files_at + 4 * 48 + 0x18..files_at + 4 * 48 + 0x1c].copy_from_slice(&6_u32.to_le_bytes());
    reseal(&mut idx);
    let (errors, warnings) = errors(&idx);
    assert_eq!(
        errors,
        [
            IdxFinding::FileWithoutName {
                id: 7,
                offset: files_at
            },
            IdxFinding::UnknownVolume {
                id: gamebin::wows::pfs::path_id("content/gameplay/a.xml"),
                offset: files_at + 48,
                volume_id: 9
            },
            IdxFinding::StoredSizes {
                id: gamebin::wows::pfs::path_id("content/c.bin"),
                offset: files_at + 3 * 48,
                size: 2,
                unpacked_size: 3
            },
        ]
    );
    // The Oodle file.
    assert!(
        matches!(warnings.as_slice(), [IdxFinding::Undecodable { .. }]),
        "{warnings:?}"
    );
}

#[test]
fn ids_that_are_not_their_paths_hash_are_warned_about() {
    let mut idx = write(IdxLayout::Current);
    let view = IdxView::from_bytes(&idx).unwrap();
    let volumes_at = view.table_offsets()[2];
    // The second volume's id changes (and the file in it points to the new id).
    let files_at = view.table_offsets()[1];
    idx[volumes_at + 24 + 0x10..volumes_at + 24 + 0x18].copy_from_slice(&5_u64.to_le_bytes());
    idx[files_at + 4 * 48 + 8..files_at + 4 * 48 + 16].copy_from_slice(&5_u64.to_le_bytes());
    // `gui/flags/c.png` (record 8) and the file record get another id.
    idx[name_record(8) + 0x10..name_record(8) + 0x18].copy_from_slice(&6_u64.to_le_bytes());
    idx[files_at + 4 * 48..files_at + 4 * 48 + 8].copy_from_slice(&6_u64.to_le_bytes());
    reseal(&mut idx);
    let (errors, warnings) = errors(&idx);
    assert!(errors.is_empty(), "{errors:?}");
    assert!(
        matches!(
            warnings.as_slice(),
            [
                IdxFinding::PathId { stored: 6, path, .. },
                IdxFinding::VolumeId { stored: 5, name, .. },
            ] if path == "gui/flags/c.png" && name == "v_0002.pkg"
        ),
        "{warnings:?}"
    );
}

#[test]
fn duplicate_ids_and_unreadable_names_are_errors() {
    let mut idx = write(IdxLayout::Current);
    let first = idx[name_record(0) + 0x10..][..8].to_vec();
    // gui (record 6) takes KDStorage.bin's id; the name of record 0 loses its NUL.
    idx[name_record(6) + 0x10..name_record(6) + 0x18].copy_from_slice(&first);
    idx[name_record(0)..name_record(0) + 8].copy_from_slice(&3_u64.to_le_bytes());
    reseal(&mut idx);
    let (errors, _) = errors(&idx);
    assert!(
        errors.iter().any(|e| matches!(
            e,
            IdxFinding::DuplicateId { table: "NameRecord", offset, first, .. }
                if *offset == name_record(6) && *first == name_record(0)
        )),
        "{errors:?}"
    );
    assert!(
        errors
            .iter()
            .any(|e| matches!(e, IdxFinding::Unreadable(_))),
        "{errors:?}"
    );
}

#[cfg(all(feature = "write", feature = "serde"))]
#[test]
fn two_indexes_are_compared_by_path() {
    let a = write(IdxLayout::Current);
    let mut writer = PfsWriter::new(VOLUMES[0]);
    for (path, bytes, compression, _) in files().into_iter().skip(1) {
        let bytes = if path == "content/c.bin" {
            vec![9; 40]
        } else {
            bytes
        };
        writer.add(path, &bytes, compression).unwrap();
    }
    let b = writer.finish().unwrap().idx;
    let (a, b) = (
        IdxView::from_bytes(&a).unwrap(),
        IdxView::from_bytes(&b).unwrap(),
    );
    let report = View::diff(&a, &b).unwrap();
    let lines: Vec<String> = report.lines().collect();
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("- files/KDStorage.bin:")),
        "{lines:?}"
    );
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("~ files/content/c.bin/unpacked_size: 3 -> 40")),
        "{lines:?}"
    );
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("~ files/gui/flags/c.png/volume:")),
        "{lines:?}"
    );
    assert!(
        lines.iter().any(|l| l.starts_with("- volumes/v_0002.pkg")),
        "{lines:?}"
    );
    assert!(View::diff(&a, &a).unwrap().equal);
}

//! PFS archives (`.idx` + `.pkg`): writer-made indexes read back in both layouts, the facts of a
//! real index (from its published hexdump) reproduced by a fixture built to them, and damaged
//! archives refused with the place and the reason.

use gamebin::ErrorKind;
use gamebin::hash::city_hash_64;
use gamebin::wows::pfs::{
    Archive, BlobReader, Compression, IdxLayout, IdxView, PfsWriter, ROOT_PARENT_ID, path_id,
};

/// Files of several directories, some stored and some deflated, over two volumes.
fn files() -> Vec<(String, Vec<u8>, Compression)> {
    let mut files = Vec::new();
    for i in 0..40u32 {
        let dir = [
            "content/gameplay/ships",
            "content/gameplay",
            "gui",
            "maps/01_solomon",
        ][i as usize % 4];
        let data: Vec<u8> = (0..(i * 97 % 3000)).map(|b| (b * i % 251) as u8).collect();
        let compression = if i % 3 == 0 {
            Compression::Stored
        } else {
            Compression::Deflate
        };
        files.push((format!("{dir}/file_{i}.bin"), data, compression));
    }
    files.push((
        "KDStorage.bin".into(),
        b"top level".to_vec(),
        Compression::Deflate,
    ));
    files.push(("empty.txt".into(), Vec::new(), Compression::Stored));
    files
}

fn write(layout: IdxLayout, files: &[(String, Vec<u8>, Compression)]) -> Archive {
    let mut writer = PfsWriter::new("test_0001.pkg").with_layout(layout);
    for (i, (path, data, compression)) in files.iter().enumerate() {
        if i == files.len() / 2 {
            writer.add_volume("test_0002.pkg");
        }
        writer.add(path, data, *compression).unwrap();
    }
    writer.finish().unwrap()
}

fn volume(archive: &Archive, id: u64) -> &[u8] {
    let (_, bytes) = archive
        .volumes
        .iter()
        .find(|(name, _)| city_hash_64(name.as_bytes()) == id)
        .expect("the file's volume is one of the archive's");
    bytes
}

#[test]
fn every_file_round_trips_in_both_layouts() {
    let files = files();
    for layout in [IdxLayout::Current, IdxLayout::Legacy] {
        let archive = write(layout, &files);
        let idx = IdxView::from_bytes(&archive.idx).unwrap();
        assert_eq!(idx.layout(), layout);
        idx.verify_checksum().unwrap();
        assert_eq!(idx.file_count(), files.len());
        assert_eq!(idx.volume_count(), 2);
        // 42 files, and the directories content, content/gameplay, content/gameplay/ships, gui,
        // maps, maps/01_solomon.
        assert_eq!(idx.name_count(), files.len() + 6);
        let volumes: Vec<_> = idx
            .volumes()
            .map(|v| v.unwrap().name_str().unwrap())
            .collect();
        assert_eq!(volumes, ["test_0001.pkg", "test_0002.pkg"]);

        let mut reader = BlobReader::new();
        let mut out = Vec::new();
        for (path, data, compression) in &files {
            let (name, file) = idx.find(path).unwrap().unwrap_or_else(|| panic!("{path}"));
            assert_eq!(name.id, path_id(path));
            assert_eq!(path.rsplit('/').next().unwrap().as_bytes(), name.name);
            assert_eq!(file.compression, *compression, "{path}");
            assert_eq!(file.unpacked_size as usize, data.len());
            let bytes = reader
                .read(&file, volume(&archive, file.volume_id), &mut out)
                .unwrap();
            assert_eq!(bytes, &data[..], "{path}");
        }
        // Directories are names without files; paths not in the index are not found.
        assert!(idx.find("content/gameplay").unwrap().is_none());
        assert!(idx.find("content/gameplay/nothere.bin").unwrap().is_none());
        let top = idx.find("KDStorage.bin").unwrap().unwrap().0;
        assert_eq!(top.parent_id, ROOT_PARENT_ID);
        // Every name's parent is a directory of the index, or the root.
        let ids: std::collections::HashSet<u64> = idx.names().map(|n| n.unwrap().id).collect();
        for name in idx.names() {
            let name = name.unwrap();
            assert!(name.parent_id == ROOT_PARENT_ID || ids.contains(&name.parent_id));
        }
    }
}

#[test]
fn writing_is_deterministic_and_directories_are_written_once() {
    let files = files();
    assert_eq!(
        write(IdxLayout::Current, &files),
        write(IdxLayout::Current, &files)
    );
    let archive = write(IdxLayout::Current, &files);
    let idx = IdxView::from_bytes(&archive.idx).unwrap();
    let gameplay = idx
        .names()
        .filter(|n| n.unwrap().name == b"gameplay")
        .count();
    assert_eq!(gameplay, 1);
}

/// The real `system_data.idx` of build 6775398, as its published hexdump shows it (the values the
/// format notes quote): 0x137 names, 0x11C files, one volume; tables at 0x38, 0x3C06 and 0x7146;
/// the first name record `KDStorage.bin` (length 0x0E, pointer 0x26E0, id 0x93B6404FBA9A0C8F,
/// parent 0xDBB1A1D1B108B927); the first file record (volume 0x77ED330D07031170, offset 0,
/// compression (5, 1), size 0x21F5, CRC 0x5C4500BF, unpacked 0x366C); the volume record (name
/// length 0x15, pointer 0x18) of `system_data_0001.pkg`. The fixture has names of the real
/// lengths' sum, so that every pointer lands where the real file's does.
fn real_index_double() -> Archive {
    const NAMES: usize = 0x137;
    const FILES: usize = 0x11C;
    const POOL: usize = 0x3C06 - 0x2718;
    let dirs = NAMES - FILES;
    let mut writer = PfsWriter::new("system_data_0001.pkg");
    writer
        .add_blob(
            "KDStorage.bin",
            &[0x5a; 0x21F5],
            Compression::Deflate,
            0x5C45_00BF,
            0x366C,
        )
        .unwrap();
    // Directories `d00`..: 4 pool bytes each; the other files share what is left of the pool.
    let mut left = POOL - "KDStorage.bin\0".len() - dirs * 4;
    for i in 1..FILES {
        let files_left = FILES - i;
        let len = left / files_left; // pool bytes of this name, its NUL included
        left -= len;
        let dir = format!("d{:02}", i % dirs);
        let name = format!("{i:04}{}", "x".repeat(len - 1 - 4));
        writer
            .add(&format!("{dir}/{name}"), b"", Compression::Stored)
            .unwrap();
    }
    writer.finish().unwrap()
}

#[test]
fn a_fixture_built_to_the_real_index_reads_back_its_facts() {
    let archive = real_index_double();
    let idx_bytes = &archive.idx;
    let u64_at = |at: usize| u64::from_le_bytes(idx_bytes[at..at + 8].try_into().unwrap());
    let u32_at = |at: usize| u32::from_le_bytes(idx_bytes[at..at + 4].try_into().unwrap());
    // The header and table header, as the hexdump shows them.
    assert_eq!(&idx_bytes[..8], b"ISFP\0\0\0\x02");
    assert_eq!(u32_at(0x0c), 0x40);
    assert_eq!(
        (u32_at(0x10), u32_at(0x14), u32_at(0x18)),
        (0x137, 0x11C, 1)
    );
    assert_eq!(
        (u64_at(0x20), u64_at(0x28), u64_at(0x30)),
        (0x28, 0x3BF6, 0x7136)
    );
    // The first name record.
    assert_eq!((u64_at(0x38), u64_at(0x40)), (0x0E, 0x26E0));
    assert_eq!(
        (u64_at(0x48), u64_at(0x50)),
        (0x93B6_404F_BA9A_0C8F, 0xDBB1_A1D1_B108_B927)
    );
    // The volume record and its name.
    assert_eq!((u64_at(0x7146), u64_at(0x714e)), (0x15, 0x18));
    assert_eq!(idx_bytes.len(), 0x7146 + 0x18 + 0x15);

    // And the reader sees the same facts.
    let idx = IdxView::from_bytes(idx_bytes).unwrap();
    assert_eq!(
        (idx.name_count(), idx.file_count(), idx.volume_count()),
        (0x137, 0x11C, 1)
    );
    assert_eq!(idx.table_offsets(), [0x38, 0x3C06, 0x7146]);
    let first = idx.name(0).unwrap().unwrap();
    assert_eq!(first.name_str().unwrap(), "KDStorage.bin");
    assert_eq!(
        (first.id, first.parent_id),
        (0x93B6_404F_BA9A_0C8F, ROOT_PARENT_ID)
    );
    let file = idx.file(0).unwrap();
    assert_eq!(file.id, 0x93B6_404F_BA9A_0C8F);
    assert_eq!(file.volume_id, 0x77ED_330D_0703_1170);
    assert_eq!(file.offset_in_volume, 0);
    assert_eq!(file.compression, Compression::Deflate);
    assert_eq!(
        (file.size, file.crc32, file.unpacked_size),
        (0x21F5, 0x5C45_00BF, 0x366C)
    );
    let volume = idx.volume(0).unwrap().unwrap();
    assert_eq!(volume.name_str().unwrap(), "system_data_0001.pkg");
    assert_eq!(volume.id, 0x77ED_330D_0703_1170);
    assert_eq!(idx.find("KDStorage.bin").unwrap().unwrap().1, file);
}

/// The error of `result`, which must be one.
fn err<T: std::fmt::Debug>(result: Result<T, gamebin::Error>) -> gamebin::Error {
    result.expect_err("a damaged archive is refused")
}

#[test]
fn damaged_blobs_are_refused_with_the_reason() {
    let files = files();
    let archive = write(IdxLayout::Current, &files);
    let idx = IdxView::from_bytes(&archive.idx).unwrap();
    let mut reader = BlobReader::new();
    let mut out = Vec::new();
    let (_, stored) = idx
        .find("content/gameplay/ships/file_12.bin")
        .unwrap()
        .unwrap();
    let (_, deflated) = idx
        .find("content/gameplay/ships/file_4.bin")
        .unwrap()
        .unwrap();
    assert_eq!(
        (stored.compression, deflated.compression),
        (Compression::Stored, Compression::Deflate)
    );
    let pkg = volume(&archive, stored.volume_id).to_vec();

    // A flipped byte in a stored blob: the CRC says so.
    let mut bad = pkg.clone();
    bad[stored.offset_in_volume as usize + 3] ^= 1;
    let e = err(reader.read(&stored, &bad, &mut out));
    assert!(
        matches!(e.kind(), ErrorKind::ChecksumMismatch { .. }),
        "{e}"
    );
    assert_eq!(e.offset(), stored.offset_in_volume);

    // A flipped byte in a deflated blob: a corrupt stream, a wrong length or a wrong CRC.
    let pkg2 = volume(&archive, deflated.volume_id).to_vec();
    for at in 0..deflated.size as usize {
        let mut bad = pkg2.clone();
        bad[deflated.offset_in_volume as usize + at] ^= 0x10;
        assert!(
            reader.read(&deflated, &bad, &mut out).is_err(),
            "flip at {at}"
        );
    }

    // The trailer disagrees with the record.
    let mut bad = pkg.clone();
    let trailer = (stored.offset_in_volume + u64::from(stored.size)) as usize;
    bad[trailer + 4] ^= 1;
    let e = err(reader.read(&stored, &bad, &mut out));
    assert_eq!(e.what(), "PkgBlobTrailer.crc32");

    // A truncated volume: the blob or its trailer lies past the end.
    for cut in [trailer + 15, trailer, stored.offset_in_volume as usize + 1] {
        let e = err(reader.read(&stored, &pkg[..cut], &mut out));
        assert!(matches!(e.kind(), ErrorKind::Truncated { .. }), "{e}");
    }

    // A record that points outside the volume.
    let mut far = stored;
    far.offset_in_volume = u64::MAX - 3;
    assert!(reader.read(&far, &pkg, &mut out).is_err());

    // An unpacked size the stream cannot have.
    let mut huge = deflated;
    huge.unpacked_size = u32::MAX;
    let e = err(reader.read(&huge, &pkg2, &mut out));
    assert_eq!(
        e.what(),
        "PkgBlobTrailer.unpackedSize",
        "the trailer disagrees first"
    );
    let mut bad = pkg2.clone();
    let trailer = (deflated.offset_in_volume + u64::from(deflated.size)) as usize;
    bad[trailer + 8..trailer + 12].copy_from_slice(&u32::MAX.to_le_bytes());
    let e = err(reader.read(&huge, &bad, &mut out));
    assert_eq!(e.what(), "FileRecord.unpackedSize");
    assert!(
        out.capacity() < 1 << 20,
        "nothing sized by the bad value was allocated"
    );
}

#[test]
fn oodle_and_unknown_compressions_are_named_not_guessed() {
    let mut writer = PfsWriter::new("lesta_0001.pkg");
    writer
        .add_blob(
            "content/a.bin",
            b"OODLE...",
            Compression::OodleStream { flag: 0 },
            0,
            64,
        )
        .unwrap();
    writer
        .add_blob(
            "content/b.bin",
            b"????",
            Compression::Unknown { method: 3, flag: 7 },
            0,
            4,
        )
        .unwrap();
    let archive = writer.finish().unwrap();
    let idx = IdxView::from_bytes(&archive.idx).unwrap();
    let mut reader = BlobReader::new();
    let mut out = Vec::new();
    let pkg = &archive.volumes[0].1;
    let (_, oodle) = idx.find("content/a.bin").unwrap().unwrap();
    let e = err(reader.read(&oodle, pkg, &mut out));
    assert_eq!(
        e.kind(),
        ErrorKind::UnsupportedCompression { method: 6, flag: 0 }
    );
    assert!(e.to_string().contains("Oodle"), "{e}");
    let (_, unknown) = idx.find("content/b.bin").unwrap().unwrap();
    let e = err(reader.read(&unknown, pkg, &mut out));
    assert_eq!(
        e.kind(),
        ErrorKind::UnsupportedCompression { method: 3, flag: 7 }
    );
    // The writer itself only stores or deflates.
    let mut writer = PfsWriter::new("x.pkg");
    assert!(
        writer
            .add("a", b"", Compression::OodleStream { flag: 0 })
            .is_err()
    );
}

#[test]
fn damaged_indexes_are_refused_where_they_are_damaged() {
    let archive = write(IdxLayout::Current, &files());
    let good = &archive.idx;
    let idx = IdxView::from_bytes(good).unwrap();
    let first = idx.name(0).unwrap().unwrap();

    // A table pointer outside the file.
    let mut bad = good.clone();
    bad[0x28..0x30].copy_from_slice(&u64::MAX.to_le_bytes());
    let e = err(IdxView::from_bytes(&bad));
    assert_eq!((e.offset(), e.what()), (0x28, "IdxTableHeader.filesPtr"));
    // A count whose records do not fit.
    let mut bad = good.clone();
    bad[0x10..0x14].copy_from_slice(&u32::MAX.to_le_bytes());
    assert_eq!(err(IdxView::from_bytes(&bad)).what(), "NameRecord");
    // A name without its NUL.
    let mut bad = good.clone();
    bad[first.name_offset + first.name.len()] = b'!';
    let view = IdxView::from_bytes(&bad).unwrap();
    let e = err(view.name(0).unwrap());
    assert!(e.to_string().contains("does not end with its NUL"), "{e}");
    // A name pointer outside the file.
    let mut bad = good.clone();
    bad[first.offset + 8..first.offset + 16].copy_from_slice(&(1u64 << 40).to_le_bytes());
    let view = IdxView::from_bytes(&bad).unwrap();
    assert!(matches!(
        err(view.name(0).unwrap()).kind(),
        ErrorKind::PointerOutOfBounds { .. }
    ));
    // A name that is not UTF-8: read as bytes, refused as text, never found as another path.
    let mut bad = good.clone();
    bad[first.name_offset] = 0xff;
    let view = IdxView::from_bytes(&bad).unwrap();
    let name = view.name(0).unwrap().unwrap();
    assert_eq!(name.name[0], 0xff);
    assert_eq!(err(name.name_str()).offset(), first.name_offset as u64);
    // A wrong checksum, a wrong magic, an unknown version, a pointer size against its version.
    let mut bad = good.clone();
    bad[0x40] ^= 1;
    let e = err(IdxView::from_bytes(&bad).unwrap().verify_checksum());
    assert!(matches!(e.kind(), ErrorKind::ChecksumMismatch { .. }));
    let mut bad = good.clone();
    bad[0] = b'X';
    assert_eq!(err(IdxView::from_bytes(&bad)).what(), "IdxHeader.magic");
    let mut bad = good.clone();
    bad[4..8].copy_from_slice(&3u32.to_le_bytes());
    assert!(matches!(
        err(IdxView::from_bytes(&bad)).kind(),
        ErrorKind::UnsupportedVersion { found: 3 }
    ));
    let mut bad = good.clone();
    bad[0x0c] = 0x20;
    assert_eq!(
        err(IdxView::from_bytes(&bad)).what(),
        "IdxHeader.pointerSize"
    );
}

#[test]
fn a_hash_collision_never_finds_another_file() {
    // The index claims that `gui/b.txt` has the id of `gui/a.txt`: the id matches, the name does
    // not, so looking `gui/a.txt` up finds nothing rather than the other file.
    let mut writer = PfsWriter::new("x.pkg");
    writer.add("gui/b.txt", b"b", Compression::Stored).unwrap();
    let archive = writer.finish().unwrap();
    let mut bad = archive.idx.clone();
    let idx = IdxView::from_bytes(&archive.idx).unwrap();
    let b = idx.find("gui/b.txt").unwrap().unwrap();
    let (name_at, file_at) = (b.0.offset, b.1.offset);
    let a_id = path_id("gui/a.txt").to_le_bytes();
    bad[name_at + 16..name_at + 24].copy_from_slice(&a_id);
    bad[file_at..file_at + 8].copy_from_slice(&a_id);
    let idx = IdxView::from_bytes(&bad).unwrap();
    assert!(idx.find("gui/a.txt").unwrap().is_none());
}

#[test]
fn a_parent_cycle_ends_the_walk() {
    // `gui`'s parent made to be `gui/b.txt` itself: a lookup walks at most one name a segment.
    let mut writer = PfsWriter::new("x.pkg");
    writer.add("gui/b.txt", b"b", Compression::Stored).unwrap();
    let archive = writer.finish().unwrap();
    let idx = IdxView::from_bytes(&archive.idx).unwrap();
    let gui = idx
        .names()
        .map(|n| n.unwrap())
        .find(|n| n.name == b"gui")
        .unwrap();
    let mut bad = archive.idx.clone();
    let b_id = path_id("gui/b.txt").to_le_bytes();
    bad[gui.offset + 24..gui.offset + 32].copy_from_slice(&b_id);
    let idx = IdxView::from_bytes(&bad).unwrap();
    assert!(idx.find("gui/b.txt").unwrap().is_none());
}

#[test]
fn every_truncation_and_flip_reads_or_fails_cleanly() {
    for layout in [IdxLayout::Current, IdxLayout::Legacy] {
        let archive = write(layout, &files());
        let good = &archive.idx;
        let walk = |data: &[u8]| {
            if let Ok(idx) = IdxView::from_bytes(data) {
                let _ = idx.verify_checksum();
                for name in idx.names().flatten() {
                    let _ = name.name_str();
                }
                for volume in idx.volumes().flatten() {
                    let _ = volume.name_str();
                }
                let _ = idx.files().count();
                let _ = idx.find("content/gameplay/ships/file_4.bin");
            }
        };
        for len in 0..good.len() {
            walk(&good[..len]);
        }
        for at in 0..good.len() {
            let mut bad = good.clone();
            bad[at] ^= 0xa5;
            walk(&bad);
        }
    }
}

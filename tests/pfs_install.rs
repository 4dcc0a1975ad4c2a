//! A game install: several writer-made indexes sharing directories, read as one tree — lookups,
//! listings, selections, reading, merged directories, conflicts, missing volumes, a parent cycle,
//! and the game folder layout on disk (the newest build wins), mapped and read.

use std::collections::BTreeSet;

use gamebin::wows::pfs::{
    BlobReader, Compression, GameInstall, InstallError, Mapping, PfsWriter, Selection,
};

/// Files by name: indexes, volumes, or the files put in them.
type Named = Vec<(String, Vec<u8>)>;

/// Two indexes, each with its volume, sharing `content/` and `content/gameplay/`.
fn two_indexes() -> (Named, Named, Named) {
    let mut files = Vec::new();
    let mut indexes = Vec::new();
    let mut volumes = Vec::new();
    for (n, name) in ["basecontent", "vehicles"].into_iter().enumerate() {
        let mut writer = PfsWriter::new(&format!("{name}_0001.pkg"));
        for i in 0..30 {
            let path = match i % 3 {
                0 => format!("content/gameplay/{name}/f{i}.geometry"),
                1 => format!("content/{name}_{i}.xml"),
                _ => format!("gui/{name}/{i}.png"),
            };
            let data: Vec<u8> = format!("{path} {}", "x".repeat(i * 40 + n)).into_bytes();
            let compression = if i % 2 == 0 {
                Compression::Deflate
            } else {
                Compression::Stored
            };
            writer.add(&path, &data, compression).unwrap();
            files.push((path, data));
        }
        let archive = writer.finish().unwrap();
        indexes.push((format!("{name}.idx"), archive.idx));
        volumes.extend(archive.volumes);
    }
    (indexes, volumes, files)
}

#[test]
fn every_file_of_every_index_is_found_listed_and_read() {
    let (indexes, volumes, files) = two_indexes();
    let install = GameInstall::from_memory(indexes, volumes).unwrap();
    assert!(install.conflicts().is_empty(), "{:?}", install.conflicts());
    assert_eq!(install.file_count(), files.len());
    // Directories, once each: content, content/gameplay, content/gameplay/{basecontent,vehicles},
    // gui, gui/{basecontent,vehicles}.
    assert_eq!(install.entry_count(), files.len() + 7);
    // 14 bytes a name, the 65,537 bucket starts, and for names and files apart: each index's
    // first record (2) and the index of each block of 256 records (1), 4 bytes each; then the
    // folder table: 8 bytes a folder and one more, and each folder's name.
    let folder_names: usize = [
        "content",
        "gameplay",
        "basecontent",
        "vehicles",
        "gui",
        "basecontent",
        "vehicles",
    ]
    .iter()
    .map(|n| n.len())
    .sum();
    assert_eq!(
        install.index_heap_bytes(),
        install.entry_count() * 14 + 4 * 65_537 + 2 * 4 * (2 + 1) + 8 * (7 + 1) + folder_names
    );

    let mut reader = BlobReader::new();
    let mut out = Vec::new();
    for (path, data) in &files {
        let file = install
            .find(path)
            .unwrap()
            .unwrap_or_else(|| panic!("{path}"));
        assert_eq!(
            install.read(&file, path, &mut reader, &mut out).unwrap(),
            &data[..]
        );
        let mut full = String::new();
        install.full_path(&file.name, &mut full).unwrap();
        assert_eq!(&full, path);
        assert!(install.find(&format!("/res/{path}")).unwrap().is_some());
        let owned = install.read_to_vec(path, &mut reader).unwrap();
        assert_eq!(owned.as_deref(), Some(&data[..]), "{path}");
    }
    assert_eq!(
        install
            .read_to_vec("content/gameplay", &mut reader)
            .unwrap(),
        None
    );
    assert!(
        install.find("content/gameplay").unwrap().is_none(),
        "a directory is no file"
    );
    assert!(install.find("content/nothere.xml").unwrap().is_none());

    let listed = |selection: &str| {
        let mut seen = BTreeSet::new();
        let mut buffer = String::new();
        install.for_each_file(&Selection::parse(selection), &mut buffer, |path, file| {
            file.unwrap();
            assert!(seen.insert(path.to_owned()), "{path} listed twice");
            true
        });
        seen
    };
    let all: BTreeSet<String> = files.iter().map(|(p, _)| p.clone()).collect();
    assert_eq!(listed(""), all);
    // The files without their paths: the same files, each path rebuilt on request.
    let mut rebuilt = BTreeSet::new();
    let mut path = String::new();
    for file in install.files() {
        let file = file.unwrap();
        install.full_path(&file.name, &mut path).unwrap();
        assert_eq!(install.find(&path).unwrap(), Some(file), "{path}");
        assert!(rebuilt.insert(path.clone()), "{path} twice");
    }
    assert_eq!(rebuilt, all);
    let geometry: BTreeSet<String> = all
        .iter()
        .filter(|p| p.ends_with(".geometry"))
        .cloned()
        .collect();
    assert_eq!(listed("content/**/*.geometry"), geometry);
    let gui: BTreeSet<String> = all
        .iter()
        .filter(|p| p.starts_with("gui/vehicles/"))
        .cloned()
        .collect();
    assert_eq!(listed("gui/vehicles"), gui);
    assert!(
        listed("gui/vehicle").is_empty(),
        "prefixes select whole segments"
    );

    // Stopping early stops.
    let mut calls = 0;
    install.for_each_file(&Selection::All, &mut String::new(), |_, _| {
        calls += 1;
        calls < 3
    });
    assert_eq!(calls, 3);
}

#[test]
fn a_path_two_indexes_give_different_records_is_a_conflict_and_the_first_is_kept() {
    let mut a = PfsWriter::new("a_0001.pkg");
    a.add("content/same.xml", b"first", Compression::Stored)
        .unwrap();
    let mut b = PfsWriter::new("b_0001.pkg");
    b.add("content/same.xml", b"second!", Compression::Stored)
        .unwrap();
    b.add("content/other.xml", b"other", Compression::Stored)
        .unwrap();
    let (a, b) = (a.finish().unwrap(), b.finish().unwrap());
    let install = GameInstall::from_memory(
        vec![("a.idx".into(), a.idx), ("b.idx".into(), b.idx)],
        a.volumes.into_iter().chain(b.volumes).collect(),
    )
    .unwrap();
    assert_eq!(install.conflicts().len(), 1, "{:?}", install.conflicts());
    let conflict = &install.conflicts()[0];
    assert_eq!(
        (conflict.kept.to_str(), conflict.dropped.to_str()),
        (Some("a.idx"), Some("b.idx"))
    );
    let file = install.find("content/same.xml").unwrap().unwrap();
    let (mut reader, mut out) = (BlobReader::new(), Vec::new());
    assert_eq!(
        install
            .read(&file, "content/same.xml", &mut reader, &mut out)
            .unwrap(),
        b"first"
    );
    // `content` itself, in both, is merged without a word.
    assert_eq!(install.entry_count(), 3);
}

#[test]
fn a_missing_volume_is_named_and_the_other_files_still_read() {
    let (indexes, mut volumes, files) = two_indexes();
    let gone = volumes.remove(1).0;
    let install = GameInstall::from_memory(indexes, volumes).unwrap();
    let (mut reader, mut out) = (BlobReader::new(), Vec::new());
    let (mut good, mut bad) = (0, 0);
    for (path, data) in &files {
        let file = install.find(path).unwrap().unwrap();
        match install.read(&file, path, &mut reader, &mut out) {
            Ok(bytes) => {
                assert_eq!(bytes, &data[..]);
                good += 1;
            }
            Err(e @ InstallError::Volume { .. }) => {
                let message = e.to_string();
                assert!(
                    message.starts_with(path.as_str()) && message.contains(&gone),
                    "{message}"
                );
                bad += 1;
            }
            Err(e) => panic!("{e}"),
        }
    }
    assert_eq!((good, bad), (30, 30));
}

#[test]
fn a_parent_cycle_is_an_error_not_a_hang() {
    let mut writer = PfsWriter::new("x_0001.pkg");
    writer.add("a/b/c.txt", b"c", Compression::Stored).unwrap();
    let archive = writer.finish().unwrap();
    let mut idx = archive.idx.clone();
    // `a`'s parent made `a/b`: a -> a/b -> a.
    let view = gamebin::wows::pfs::IdxView::from_bytes(&archive.idx).unwrap();
    let a = view
        .names()
        .map(|n| n.unwrap())
        .find(|n| n.name == b"a")
        .unwrap();
    let b_id = gamebin::wows::pfs::path_id("a/b").to_le_bytes();
    idx[a.offset + 24..a.offset + 32].copy_from_slice(&b_id);
    let install = GameInstall::from_memory(vec![("x.idx".into(), idx)], archive.volumes).unwrap();
    let file = install.find("a/b/c.txt").unwrap();
    assert!(
        file.is_none(),
        "the names do not spell the path up to the root"
    );
    let mut errors = 0;
    install.for_each_file(&Selection::All, &mut String::new(), |_, file| {
        assert!(matches!(file, Err(InstallError::NoRoot { .. })));
        errors += 1;
        true
    });
    assert_eq!(errors, 1);
}

#[test]
fn a_game_folder_opens_at_its_newest_build_mapped_or_read() {
    let (indexes, volumes, files) = two_indexes();
    let dir = std::env::temp_dir().join(format!("gamebin-install-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    for build in ["6775398", "6623042"] {
        std::fs::create_dir_all(dir.join("bin").join(build).join("idx")).unwrap();
    }
    std::fs::create_dir_all(dir.join("bin/9999999")).unwrap(); // newest, but no idx/: skipped
    std::fs::create_dir_all(dir.join("res_packages")).unwrap();
    for (name, bytes) in &indexes {
        std::fs::write(dir.join("bin/6775398/idx").join(name), bytes).unwrap();
    }
    // The older build has only one index: opening it would miss half the files.
    std::fs::write(
        dir.join("bin/6623042/idx").join(&indexes[0].0),
        &indexes[0].1,
    )
    .unwrap();
    for (name, bytes) in &volumes {
        std::fs::write(dir.join("res_packages").join(name), bytes).unwrap();
    }
    for mapping in [Mapping::Map, Mapping::Read] {
        let install = GameInstall::open(&dir, mapping).unwrap();
        assert_eq!(install.file_count(), files.len());
        let (mut reader, mut out) = (BlobReader::new(), Vec::new());
        for (path, data) in &files {
            let file = install.find(path).unwrap().unwrap();
            assert_eq!(
                install.read(&file, path, &mut reader, &mut out).unwrap(),
                &data[..]
            );
        }
    }
    let e = GameInstall::open(dir.join("res_packages"), Mapping::Map).unwrap_err();
    assert!(e.to_string().contains("bin"), "{e}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_path_spelled_by_shared_name_bytes_is_capped() {
    // 40 folders of 202 bytes: an 8 KB path (a crafted index could spell far longer ones from
    // names sharing their bytes); the rebuilt path stops at 4 KB with an error, not a panic.
    let long = "n".repeat(200);
    let path: Vec<String> = (0..40).map(|i| format!("{long}{i:02}")).collect();
    let mut writer = PfsWriter::new("x_0001.pkg");
    writer
        .add(&path.join("/"), b"deep", Compression::Stored)
        .unwrap();
    let archive = writer.finish().unwrap();
    let install =
        GameInstall::from_memory(vec![("x.idx".into(), archive.idx)], archive.volumes).unwrap();
    let mut errors = 0;
    install.for_each_file(&Selection::All, &mut String::new(), |_, file| {
        let e = file.expect_err("too long a path");
        assert!(e.to_string().contains("4096"), "{e}");
        errors += 1;
        true
    });
    assert_eq!(errors, 1);
}

#[test]
fn a_name_off_its_path_is_not_found_at_any_depth_in_any_spelling() {
    let deep: String = (0..40).map(|i| format!("d{i}/")).collect::<String>() + "deep.txt";
    let mut writer = PfsWriter::new("x_0001.pkg");
    for path in ["a/b/c.txt", "a/other/c.txt", "gui/c.txt", deep.as_str()] {
        writer
            .add(path, path.as_bytes(), Compression::Stored)
            .unwrap();
    }
    let archive = writer.finish().unwrap();
    let open = |idx: Vec<u8>| {
        GameInstall::from_memory(vec![("x.idx".into(), idx)], archive.volumes.clone()).unwrap()
    };
    // Found as written, in another spelling, and deeper than the walk of a path as written goes.
    let install = open(archive.idx.clone());
    let spellings = [
        ("a/b/c.txt", "a/b/c.txt"),
        ("/res/a\\b//c.txt", "a/b/c.txt"),
        ("a/./b/c.txt/", "a/b/c.txt"),
        ("res/a/b/c.txt", "a/b/c.txt"),
        (deep.as_str(), deep.as_str()),
        (&format!("res/{deep}"), deep.as_str()),
    ];
    for (path, written) in spellings {
        let file = install.find(path).unwrap().expect(path);
        let mut out = Vec::new();
        let bytes = install
            .read(&file, path, &mut BlobReader::new(), &mut out)
            .unwrap();
        assert_eq!(bytes, written.as_bytes());
    }
    let view = gamebin::wows::pfs::IdxView::from_bytes(&archive.idx).unwrap();
    let record = |name: &[u8], parent: u64| {
        view.names()
            .map(|n| n.unwrap())
            .find(|n| n.name == name && n.parent_id == parent)
            .unwrap()
    };
    let id = gamebin::wows::pfs::path_id;
    // `a/b` renamed `a/x` in place: its child's id still hashes `a/b/c.txt`, its names do not.
    let b = record(b"b", id("a"));
    let mut renamed = archive.idx.clone();
    renamed[b.name_offset] = b'x';
    assert!(open(renamed).find("a/b/c.txt").unwrap().is_none());
    // `a/b/c.txt` moved under `a/other`, and under `d0/d1`, by its parent id alone.
    let c = record(b"c.txt", id("a/b"));
    for parent in ["a/other", "gui"] {
        let mut moved = archive.idx.clone();
        moved[c.offset + 24..c.offset + 32].copy_from_slice(&id(parent).to_le_bytes());
        let install = open(moved);
        assert!(install.find("a/b/c.txt").unwrap().is_none(), "{parent}");
        assert!(install.find("a/other/c.txt").unwrap().is_some());
    }
    // The deep file's top folder made a child of `a`: no longer at the top.
    let d0 = record(b"d0", gamebin::wows::pfs::ROOT_PARENT_ID);
    let mut sunk = archive.idx.clone();
    sunk[d0.offset + 24..d0.offset + 32].copy_from_slice(&id("a").to_le_bytes());
    assert!(open(sunk).find(&deep).unwrap().is_none());
}

/// `count` indexes of about `per` files each (`part_NNN.idx`, each with its volume), sharing
/// folders, as a synthetic install's filler.
fn parts(count: usize, per: usize) -> (Named, Named) {
    let (mut indexes, mut volumes) = (Vec::new(), Vec::new());
    for i in 0..count {
        let mut writer = PfsWriter::new(&format!("part_{i:03}_0001.pkg"));
        for f in 0..per {
            let path = format!("content/shared/i{i:03}_{:02}/f{f:03}.xml", f / 16);
            let compression = if f % 2 == 0 {
                Compression::Deflate
            } else {
                Compression::Stored
            };
            writer.add(&path, path.as_bytes(), compression).unwrap();
        }
        let archive = writer.finish().unwrap();
        indexes.push((format!("part_{i:03}.idx"), archive.idx));
        volumes.extend(archive.volumes);
    }
    (indexes, volumes)
}

/// A damage done to an index's bytes.
type Damage = fn(&mut Vec<u8>);

/// The paths of every file of `install`, each read (CRC-checked) and found again by its path.
fn every_file_read(install: &GameInstall) -> BTreeSet<String> {
    let (mut reader, mut out) = (BlobReader::new(), Vec::new());
    let mut seen = BTreeSet::new();
    install.for_each_file(&Selection::All, &mut String::new(), |path, file| {
        let file = file.unwrap();
        install.read(&file, path, &mut reader, &mut out).unwrap();
        assert_eq!(install.find(path).unwrap(), Some(file), "{path}");
        seen.insert(path.to_owned());
        true
    });
    seen
}

/// The files of a synthetic install's index, by path.
fn paths_of(idx: &[u8]) -> BTreeSet<String> {
    let install =
        GameInstall::from_memory(vec![("one.idx".into(), idx.to_vec())], Vec::new()).unwrap();
    let mut paths = BTreeSet::new();
    install.for_each_file(&Selection::All, &mut String::new(), |path, _| {
        paths.insert(path.to_owned());
        true
    });
    paths
}

#[test]
fn a_damaged_index_costs_its_own_files_not_the_installs() {
    use gamebin::ErrorKind;
    let (base, volumes) = parts(4, 100);
    // Each damage of the second index: cut inside its header, a wrong magic, a name table
    // pointed outside the file, cut before its volume table.
    let damages: [(&str, Damage); 4] = [
        ("truncated header", |b| b.truncate(10)),
        ("bad magic", |b| b[0] ^= 0xff),
        ("table outside the file", |b| {
            b[0x20..0x28].copy_from_slice(&0x7fff_0000u64.to_le_bytes())
        }),
        ("truncated tables", |b| b.truncate(b.len() - 30)),
    ];
    for (what, damage) in damages {
        let mut indexes = base.clone();
        let (bad_name, bad) = &mut indexes[1];
        let lost = paths_of(bad);
        damage(bad);
        let bad_name = bad_name.clone();
        let kept: BTreeSet<String> = (indexes.iter().enumerate())
            .filter(|&(i, _)| i != 1)
            .flat_map(|(_, (_, idx))| paths_of(idx))
            .collect();
        assert!(kept.len() == 300 && lost.len() == 100, "{what}");

        let install = GameInstall::from_memory(indexes, volumes.clone())
            .unwrap_or_else(|e| panic!("{what}: {e}"));
        // Every file of the other indexes listed, found and read; none of the damaged one's.
        assert_eq!(every_file_read(&install), kept, "{what}");
        assert_eq!(install.file_count(), kept.len(), "{what}");
        for path in &lost {
            assert_eq!(install.find(path).unwrap(), None, "{what}: {path}");
        }
        assert_eq!(install.index_paths().count(), 3, "{what}");
        // The damaged index named, with the reader's offset, field and reason.
        let [InstallError::Index { path, error }] = install.damaged() else {
            panic!("{what}: {:?}", install.damaged());
        };
        assert_eq!(path.to_str(), Some(bad_name.as_str()), "{what}");
        match what {
            "truncated header" => {
                assert_eq!((error.offset(), error.what()), (0, "IdxHeader"));
                assert!(matches!(error.kind(), ErrorKind::Truncated { .. }));
            }
            "bad magic" => assert!(
                matches!(error.kind(), ErrorKind::BadMagic { .. }),
                "{error}"
            ),
            _ => assert!(error.offset() >= 0x10, "{what}: {error}"),
        }
        let said = install.damaged()[0].to_string();
        assert!(said.starts_with(&format!("{bad_name}: at 0x")), "{said}");
    }
    // A sound install has none.
    let sound = GameInstall::from_memory(base, volumes).unwrap();
    assert!(sound.damaged().is_empty());
}

#[test]
fn an_install_whose_every_index_is_damaged_does_not_open() {
    let (indexes, volumes) = parts(3, 40);
    let cut = |(name, bytes): &(String, Vec<u8>)| (name.clone(), bytes[..12].to_vec());
    // One index: its own error, as before.
    let one = GameInstall::from_memory(vec![cut(&indexes[0])], volumes.clone());
    let e = one.unwrap_err();
    assert!(matches!(e, InstallError::Index { .. }), "{e:?}");
    assert!(
        e.to_string()
            .starts_with("part_000.idx: at 0x00000000: IdxHeader"),
        "{e}"
    );
    // Several: every one's error, no empty install.
    let all = indexes.iter().map(cut).collect();
    let e = GameInstall::from_memory(all, volumes).unwrap_err();
    let InstallError::NoReadableIndex { damaged } = &e else {
        panic!("{e:?}");
    };
    assert_eq!(damaged.len(), 3);
    let said = e.to_string();
    assert!(
        said.starts_with("none of the 3 indexes reads: part_000.idx: at 0x"),
        "{said}"
    );
    for name in ["part_001.idx", "part_002.idx"] {
        assert!(said.contains(&format!("; {name}: at 0x")), "{said}");
    }
}

#[test]
fn a_game_folder_with_a_damaged_index_keeps_the_others() {
    let (indexes, volumes) = parts(3, 60);
    let dir = std::env::temp_dir().join(format!("gamebin-damaged-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let idx = dir.join("bin/1000001/idx");
    std::fs::create_dir_all(&idx).unwrap();
    std::fs::create_dir_all(dir.join("res_packages")).unwrap();
    for (name, bytes) in &indexes {
        std::fs::write(idx.join(name), bytes).unwrap();
    }
    for (name, bytes) in &volumes {
        std::fs::write(dir.join("res_packages").join(name), bytes).unwrap();
    }
    let whole = GameInstall::open(&dir, Mapping::Map).unwrap();
    let all = every_file_read(&whole);
    drop(whole);
    let lost = paths_of(&indexes[2].1);
    std::fs::write(idx.join("part_002.idx"), &indexes[2].1[..20]).unwrap();
    for mapping in [Mapping::Map, Mapping::Read] {
        let install = GameInstall::open(&dir, mapping).unwrap();
        let listed = every_file_read(&install);
        assert_eq!(
            listed,
            all.difference(&lost).cloned().collect(),
            "{mapping:?}"
        );
        let [InstallError::Index { path, .. }] = install.damaged() else {
            panic!("{:?}", install.damaged());
        };
        assert_eq!(path, &idx.join("part_002.idx"));
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `files_in_record_order` gives the files `files` gives (each once, with the same records), in
/// the order of the indexes' name records: the first index's files before the second's.
#[test]
fn files_in_record_order_are_the_files_in_table_order() {
    let (indexes, volumes, written) = two_indexes();
    let install = GameInstall::from_memory(indexes, volumes).unwrap();
    let by_id: Vec<_> = install.files().map(Result::unwrap).collect();
    let in_order: Vec<_> = install
        .files_in_record_order()
        .map(Result::unwrap)
        .collect();
    assert_eq!(in_order.len(), written.len());
    let key =
        |f: &gamebin::wows::pfs::InstallFile<'_>| (f.name.id, f.file.offset, f.file.crc32, f.index);
    let mut a: Vec<_> = by_id.iter().map(key).collect();
    let mut b: Vec<_> = in_order.iter().map(key).collect();
    a.sort();
    b.sort();
    assert_eq!(a, b);
    // Each index's name records in table order: offsets rise within an index.
    assert!(
        in_order
            .windows(2)
            .all(|w| (w[0].index, w[0].name.offset) < (w[1].index, w[1].name.offset))
    );
    assert!(in_order.first().unwrap().index == 0 && in_order.last().unwrap().index == 1);
}

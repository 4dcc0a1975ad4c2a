//! What changed between two installs (`InstallDiff`), against what the writer was given: the
//! synthetic install and its update (`synth::pfs::synth_install` / `synth_update`), whose
//! manifests list every file with its size and CRC-32 as written; paths whose order is easy to
//! get wrong (a folder's file beside a subfolder, names sorting before and after `/`); and the
//! refusals (a damaged index, installs that share no file).

use std::collections::BTreeMap;

use gamebin::diff::ChangeKind;
use gamebin::synth::assets_scale::Scale;
use gamebin::synth::pfs::{
    SynthInstall, UPDATE_ADDED, UPDATE_REMOVED, UPDATE_RESIZED, UPDATE_SAME_SIZE, synth_install,
    synth_update, update_touches,
};
use gamebin::wows::pfs::{
    Compression, DiffSide, FileState, GameInstall, InstallDiff, InstallDiffError, PfsWriter,
};

/// One change as the tests state it: kind, path, before, after.
type Line = (ChangeKind, String, Option<FileState>, Option<FileState>);

fn open(install: &SynthInstall) -> GameInstall {
    GameInstall::from_memory(install.indexes.clone(), install.volumes.clone()).unwrap()
}

fn lines(diff: &InstallDiff<'_>) -> Vec<Line> {
    diff.changes()
        .map(|c| (c.kind, c.path.to_string(), c.before, c.after))
        .collect()
}

/// The changes the two manifests say there are, in path order (a `BTreeMap` of `String`s is in
/// byte order, which is the diff's path order).
fn expected(old: &SynthInstall, new: &SynthInstall) -> Vec<Line> {
    let map = |i: &SynthInstall| -> BTreeMap<String, FileState> {
        i.manifest
            .iter()
            .map(|(p, size, crc32)| {
                (
                    p.clone(),
                    FileState {
                        size: *size,
                        crc32: *crc32,
                    },
                )
            })
            .collect()
    };
    let (a, b) = (map(old), map(new));
    let mut paths: Vec<&String> = a.keys().chain(b.keys()).collect();
    paths.sort();
    paths.dedup();
    paths
        .into_iter()
        .filter_map(|p| match (a.get(p), b.get(p)) {
            (Some(x), None) => Some((ChangeKind::Removed, p.clone(), Some(*x), None)),
            (None, Some(y)) => Some((ChangeKind::Added, p.clone(), None, Some(*y))),
            (Some(x), Some(y)) if x != y => {
                Some((ChangeKind::Changed, p.clone(), Some(*x), Some(*y)))
            }
            _ => None,
        })
        .collect()
}

/// A filler path's folder number and file number (`…/iNNN_FFFFF/fKK.xml`).
fn filler(path: &str) -> Option<(usize, usize)> {
    let (folder, file) = path.rsplit_once('/')?;
    let folder = folder.rsplit_once('_')?.1.parse().ok()?;
    let file = file.strip_prefix('f')?.strip_suffix(".xml")?.parse().ok()?;
    Some((folder, file))
}

#[test]
fn the_update_against_the_install_every_change_from_the_manifests() {
    let (old, new) = (
        synth_install(Scale::Small).unwrap(),
        synth_update(Scale::Small).unwrap(),
    );
    let (a, b) = (open(&old), open(&new));
    let diff = InstallDiff::new(&a, &b).unwrap();
    assert_eq!(diff.file_counts(), (old.manifest.len(), new.manifest.len()));
    let got = lines(&diff);
    let want = expected(&old, &new);
    assert_eq!(got, want);

    // The known set, by the update's rules: each rule's files are there, as that kind.
    let find = |path: &str| got.iter().find(|l| l.1 == path);
    let assets = find("content/assets.bin").expect("assets.bin changed");
    assert_eq!(assets.0, ChangeKind::Changed);
    let (mut removed, mut added, mut same_size, mut resized) = (0, 0, 0, 0);
    for (path, _, _) in &old.manifest {
        let Some((folder, file)) = filler(path) else {
            continue;
        };
        let line = find(path);
        if file == UPDATE_REMOVED.2 && update_touches(UPDATE_REMOVED, folder) {
            assert_eq!(line.map(|l| l.0), Some(ChangeKind::Removed), "{path}");
            removed += 1;
        } else if file == UPDATE_SAME_SIZE.2 && update_touches(UPDATE_SAME_SIZE, folder) {
            let (_, _, before, after) = line.expect(path);
            let (before, after) = (before.unwrap(), after.unwrap());
            // Only the CRC-32 tells.
            assert_eq!(before.size, after.size, "{path}");
            assert_ne!(before.crc32, after.crc32, "{path}");
            same_size += 1;
        } else if file == UPDATE_RESIZED.2 && update_touches(UPDATE_RESIZED, folder) {
            let (_, _, before, after) = line.expect(path);
            assert_eq!(before.unwrap().size + 1, after.unwrap().size, "{path}");
            resized += 1;
        } else if new.manifest.iter().any(|(p, _, _)| p == path) {
            assert_eq!(line, None, "{path} is the same in both");
        }
    }
    for (path, _, _) in &new.manifest {
        if let Some((folder, file)) = filler(path)
            && file == UPDATE_ADDED.2
        {
            assert!(update_touches(UPDATE_ADDED, folder));
            assert_eq!(find(path).map(|l| l.0), Some(ChangeKind::Added), "{path}");
            added += 1;
        }
    }
    assert!(
        removed > 3 && added > 3 && same_size > 3 && resized > 3,
        "{removed} {added} {same_size} {resized}"
    );

    // An install against itself: nothing.
    assert_eq!(InstallDiff::new(&a, &a).unwrap().changes().count(), 0);
    // The other way round: each change mirrored.
    let back = lines(&InstallDiff::new(&b, &a).unwrap());
    let mirrored: Vec<Line> = want
        .iter()
        .map(|(kind, path, before, after)| {
            let kind = match kind {
                ChangeKind::Added => ChangeKind::Removed,
                ChangeKind::Removed => ChangeKind::Added,
                ChangeKind::Changed => ChangeKind::Changed,
            };
            (kind, path.clone(), *after, *before)
        })
        .collect();
    assert_eq!(back, mirrored);
}

/// An install of `files` (path, bytes), one index over one volume.
fn install_of(files: &[(&str, &[u8])]) -> GameInstall {
    let mut writer = PfsWriter::new("basecontent_0001.pkg");
    for (path, bytes) in files {
        writer.add(path, bytes, Compression::Stored).unwrap();
    }
    let archive = writer.finish().unwrap();
    GameInstall::from_memory(
        vec![("basecontent.idx".to_owned(), archive.idx)],
        archive.volumes,
    )
    .unwrap()
}

/// Files of a folder beside its subfolders, names that sort before `/` (`-`, `.`) and after it:
/// the diff's order is the byte order of the whole paths, as `sort` gives it.
#[test]
fn changes_come_in_the_byte_order_of_whole_paths() {
    let paths = [
        "KDStorage.bin",
        "a/b.txt",
        "a/b/c-d",
        "a/b/c/d.xml",
        "a/b-x/f",
        "a/b0",
        "a/zz",
        "a-/x",
        "a0",
        "ab/c",
        "content/gameplay/x.xml",
        "content/gameplay.xml",
        "content/gameplay/japan/y.xml",
        "content/gameplay-old/z.xml",
    ];
    // Each path only in one of the two (every other one), or in both with other bytes.
    let old: Vec<(&str, &[u8])> = paths
        .iter()
        .enumerate()
        .filter(|(i, _)| i % 3 != 1)
        .map(|(_, p)| (*p, &b"old"[..]))
        .collect();
    let new: Vec<(&str, &[u8])> = paths
        .iter()
        .enumerate()
        .filter(|(i, _)| i % 3 != 2)
        .map(|(i, p)| (*p, if i % 2 == 0 { &b"old"[..] } else { &b"new"[..] }))
        .collect();
    let (a, b) = (install_of(&old), install_of(&new));
    let diff = InstallDiff::new(&a, &b).unwrap();
    let got: Vec<(char, String)> = diff
        .changes()
        .map(|c| (c.sign(), c.path.to_string()))
        .collect();
    let mut want: Vec<(char, String)> = Vec::new();
    let mut sorted = paths.to_vec();
    sorted.sort();
    for p in sorted {
        let i = paths.iter().position(|x| *x == p).unwrap();
        let sign = match (i % 3 != 1, i % 3 != 2) {
            (true, false) => '-',
            (false, true) => '+',
            _ if i % 2 == 0 => continue,
            _ => '~',
        };
        want.push((sign, p.to_owned()));
    }
    assert_eq!(got, want);
    // A line as the command prints it.
    let first = diff.changes().find(|c| c.sign() == '~').unwrap();
    assert_eq!(
        first.to_string(),
        format!(
            "~ {}: 3 bytes, crc32 {:#010x} -> 3 bytes, crc32 {:#010x}",
            first.path,
            crc32(b"old"),
            crc32(b"new")
        )
    );
}

/// CRC-32 (IEEE), bit by bit: the check value the writer stores, computed apart from it.
fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = !0u32;
    for &b in bytes {
        crc ^= u32::from(b);
        for _ in 0..8 {
            crc = if crc & 1 == 1 {
                (crc >> 1) ^ 0xedb8_8320
            } else {
                crc >> 1
            };
        }
    }
    !crc
}

#[test]
fn a_damaged_index_is_refused_naming_the_install_and_the_file() {
    let good = install_of(&[("gui/a.xml", b"a")]);
    let mut writer = PfsWriter::new("other_0001.pkg");
    writer.add("gui/b.xml", b"b", Compression::Stored).unwrap();
    let archive = writer.finish().unwrap();
    let mut broken = archive.idx.clone();
    broken.truncate(40);
    let damaged = GameInstall::from_memory(
        vec![
            ("basecontent.idx".to_owned(), archive.idx.clone()),
            ("broken.idx".to_owned(), broken),
        ],
        archive.volumes,
    )
    .unwrap();
    assert_eq!(damaged.damaged().len(), 1);
    for (old, new, side) in [
        (&good, &damaged, DiffSide::New),
        (&damaged, &good, DiffSide::Old),
    ] {
        let e = InstallDiff::new(old, new).unwrap_err();
        let InstallDiffError::Damaged { side: s, .. } = &e else {
            panic!("{e}");
        };
        assert_eq!(*s, side);
        let text = e.to_string();
        assert!(
            text.contains(side.as_str()) && text.contains("broken.idx"),
            "{text}"
        );
    }
}

#[test]
fn installs_that_share_no_file_are_refused() {
    let a = install_of(&[("gui/a.xml", b"a"), ("gui/b.xml", b"b")]);
    let b = install_of(&[("gui/c.xml", b"c")]);
    let e = InstallDiff::new(&a, &b).unwrap_err();
    assert!(
        matches!(e, InstallDiffError::NoCommonFile { files: (2, 1) }),
        "{e}"
    );
    assert!(e.to_string().contains("share no file"), "{e}");
    // One shared file is enough.
    let c = install_of(&[("gui/c.xml", b"c"), ("gui/b.xml", b"B")]);
    let diff = InstallDiff::new(&a, &c).unwrap();
    let signs: String = diff.changes().map(|c| c.sign()).collect();
    assert_eq!(signs, "-~+");
}

/// Indexes with bytes flipped and cut at many places: the diff against the sound install is
/// made or refused (a damaged index, a name that does not read), never a panic or a hang.
#[test]
fn mutated_indexes_give_a_diff_or_an_error() {
    let files: Vec<(String, Vec<u8>)> = (0..40)
        .map(|i| {
            (
                format!("content/d{}/e{}/f{i}.xml", i % 3, i % 2),
                format!("<f{i}/>").into_bytes(),
            )
        })
        .collect();
    let mut writer = PfsWriter::new("basecontent_0001.pkg");
    for (path, bytes) in &files {
        writer.add(path, bytes, Compression::Stored).unwrap();
    }
    let archive = writer.finish().unwrap();
    let sound = GameInstall::from_memory(
        vec![("basecontent.idx".to_owned(), archive.idx.clone())],
        archive.volumes.clone(),
    )
    .unwrap();
    let mut x = 0x9e37_79b9_7f4a_7c15_u64;
    let (mut made, mut refused) = (0, 0);
    for round in 0..300 {
        let mut idx = archive.idx.clone();
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        if round % 5 == 0 {
            idx.truncate(x as usize % idx.len());
        } else {
            for k in 0..1 + round % 4 {
                let at = (x as usize).wrapping_add(k * 7919) % idx.len();
                idx[at] ^= 1 << ((x >> 32) as u32 % 8);
            }
        }
        let second = ("second.idx".to_owned(), archive.idx.clone());
        let Ok(mutated) = GameInstall::from_memory(
            vec![("basecontent.idx".to_owned(), idx), second],
            archive.volumes.clone(),
        ) else {
            continue;
        };
        for (a, b) in [(&sound, &mutated), (&mutated, &sound)] {
            match InstallDiff::new(a, b) {
                Ok(diff) => {
                    made += 1;
                    let _ = diff.changes().count();
                }
                Err(e) => {
                    refused += 1;
                    assert!(!e.to_string().is_empty());
                }
            }
        }
    }
    assert!(made > 0 && refused > 0, "{made} {refused}");
}

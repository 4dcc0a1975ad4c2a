//! `gamebin pfs ls|cat|extract` on small installs the library's writer makes in a scratch
//! folder: listings (all, prefix, glob, JSON, a closed pipe), files to stdout (stored and
//! deflated), extraction (content, --force, a damaged file named while the others are written,
//! paths that would leave the output folder), and what is said about folders that are no install.

use std::collections::BTreeSet;
use std::path::Path;

mod common;
use common::{close_after_one_line, gamebin, stderr, temp_dir, write_install};

fn arg(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// The files of the test install: (path, bytes, deflated).
fn files() -> Vec<(String, Vec<u8>, bool)> {
    let mut files = Vec::new();
    for i in 0..12 {
        let (path, deflate) = match i % 4 {
            0 => (format!("content/gameplay/japan/ship_{i}.geometry"), false),
            1 => (format!("content/gameplay/usa/ship_{i}.xml"), true),
            2 => (format!("gui/icons/icon_{i}.png"), i % 3 == 0),
            _ => (format!("content/guide_{i}.xml"), true),
        };
        let mut data = format!("file {path}\n").into_bytes();
        data.extend((0..i * 300).map(|b| (b * 7 + i) as u8));
        files.push((path, data, deflate));
    }
    files
}

fn install(name: &str) -> (std::path::PathBuf, Vec<(String, Vec<u8>, bool)>) {
    let dir = temp_dir(name);
    let files = files();
    let refs: Vec<(&str, &[u8], bool)> = files
        .iter()
        .map(|(p, d, z)| (p.as_str(), d.as_slice(), *z))
        .collect();
    // An older build beside the newest: only the newest is read.
    write_install(&dir.join("game"), 100, &refs[..2]);
    write_install(&dir.join("game"), 7708495, &refs);
    (dir, files)
}

fn lines(stdout: &[u8]) -> BTreeSet<String> {
    String::from_utf8(stdout.to_vec())
        .unwrap()
        .lines()
        .map(str::to_owned)
        .collect()
}

#[test]
fn ls_lists_every_file_a_prefix_a_glob_and_json() {
    let (dir, files) = install("pfs-ls");
    let game = dir.join("game");
    let all: BTreeSet<String> = files.iter().map(|f| f.0.clone()).collect();

    let out = gamebin(&["pfs", "ls", arg(&game)]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(out.stderr.is_empty(), "{}", stderr(&out));
    assert_eq!(lines(&out.stdout), all);

    let under = |prefix: &str| -> BTreeSet<String> {
        all.iter()
            .filter(|p| p.starts_with(prefix))
            .cloned()
            .collect()
    };
    // Whole segments: content/gui is not content/guide_3.xml.
    let out = gamebin(&["pfs", "ls", arg(&game), "content/gameplay"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(lines(&out.stdout), under("content/gameplay/"));
    let out = gamebin(&["pfs", "ls", arg(&game), "/res/gui/", "content/gameplay/usa"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let mut both = under("gui/");
    both.extend(under("content/gameplay/usa/"));
    assert_eq!(lines(&out.stdout), both);

    let out = gamebin(&["pfs", "ls", arg(&game), "**/*.xml"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let xml: BTreeSet<String> = all
        .iter()
        .filter(|p| p.ends_with(".xml"))
        .cloned()
        .collect();
    assert_eq!(lines(&out.stdout), xml);
    let out = gamebin(&["pfs", "ls", arg(&game), "content/*.xml"]);
    assert_eq!(lines(&out.stdout), under("content/guide_"));

    // Nothing matches: said, exit 1.
    let out = gamebin(&["pfs", "ls", arg(&game), "content/gui"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
    assert!(
        stderr(&out).contains("no file matches content/gui"),
        "{}",
        stderr(&out)
    );

    let out = gamebin(&["pfs", "ls", "--json", arg(&game)]);
    assert!(out.status.success(), "{}", stderr(&out));
    let mut seen = BTreeSet::new();
    for line in String::from_utf8(out.stdout).unwrap().lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        let path = v["path"].as_str().unwrap();
        let (_, data, deflate) = files.iter().find(|f| f.0 == path).unwrap();
        assert_eq!(v["size"], data.len());
        assert_eq!(
            v["compression"],
            if *deflate { "deflate" } else { "stored" }
        );
        if !deflate {
            assert_eq!(v["stored_size"], data.len());
        }
        assert_eq!(v["crc32"], format!("{:#010x}", crc32(data)));
        seen.insert(path.to_owned());
    }
    assert_eq!(seen, all);

    // info GAME: the newest build's indexes, counted (12 files in 6 folders).
    let out = gamebin(&["info", arg(&game)]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        format!(
            "{}: wows-pfs-install, 1 index in bin/7708495/idx, 12 files, 18 names (files and \
             folders), 0 conflicting ids\n",
            game.display()
        )
    );
    let out = gamebin(&["info", "--json", arg(&game)]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["format"], "wows-pfs-install");
    assert_eq!(v["files"], 12);
    assert_eq!(v["names"], 18);
    assert_eq!(v["indexes"], 1);

    // The same install named by its folders.
    let out = gamebin(&[
        "pfs",
        "ls",
        "--idx",
        arg(&game.join("bin/7708495/idx")),
        "--pkg",
        arg(&game.join("res_packages")),
        "gui",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(lines(&out.stdout), under("gui/"));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// CRC-32 (IEEE), bit by bit: the tests' own, not the library's.
fn crc32(data: &[u8]) -> u32 {
    let mut crc = !0u32;
    for &b in data {
        crc ^= u32::from(b);
        for _ in 0..8 {
            crc = if crc & 1 != 0 {
                (crc >> 1) ^ 0xEDB8_8320
            } else {
                crc >> 1
            };
        }
    }
    !crc
}

#[test]
fn ls_stops_quietly_when_its_reader_goes_away() {
    let dir = temp_dir("pfs-head");
    let paths: Vec<String> = (0..4000)
        .map(|i| format!("content/gameplay/some/rather/long/folder/name/file_{i:05}.xml"))
        .collect();
    let refs: Vec<(&str, &[u8], bool)> = paths
        .iter()
        .map(|p| (p.as_str(), &b"x"[..], false))
        .collect();
    write_install(&dir, 1, &refs);
    let (_, code, said) = close_after_one_line(&["pfs", "ls", arg(&dir)]);
    assert_eq!(code, Some(0), "{said}");
    assert!(said.is_empty(), "{said}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn cat_writes_stored_and_deflated_files() {
    let (dir, files) = install("pfs-cat");
    let game = dir.join("game");
    for (path, data, _) in &files {
        let out = gamebin(&["pfs", "cat", arg(&game), path]);
        assert!(out.status.success(), "{path}: {}", stderr(&out));
        assert_eq!(&out.stdout, data, "{path}");
    }
    let (path, data, _) = &files[1];
    let out = gamebin(&[
        "pfs",
        "cat",
        arg(&game),
        &format!("res\\{}", path.replace('/', "\\")),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(&out.stdout, data);

    let out = gamebin(&["pfs", "cat", arg(&game), "content/nothere.xml"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("content/nothere.xml: no such file"),
        "{}",
        stderr(&out)
    );
    let out = gamebin(&["pfs", "cat", arg(&game), "content/gameplay"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("a folder"), "{}", stderr(&out));
    // No PATH: a usage error.
    let out = gamebin(&["pfs", "cat", arg(&game)]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn extract_writes_every_file_and_replaces_none_without_force() {
    let (dir, files) = install("pfs-extract");
    let game = dir.join("game");
    let res = dir.join("res");
    let out = gamebin(&["pfs", "extract", arg(&game), "-o", arg(&res)]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stderr(&out).contains(&format!("extracted {} files", files.len())),
        "{}",
        stderr(&out)
    );
    for (path, data, _) in &files {
        assert_eq!(&std::fs::read(res.join(path)).unwrap(), data, "{path}");
    }

    // check GAME: every file read and its CRC checked, in command-line order with other paths.
    let fixture = "fixtures/wows-geometry/ships_encd.geometry";
    let out = gamebin(&["check", fixture, arg(&game)]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        format!(
            "{fixture}: wows-geometry: ok\n{}: wows-pfs-install: ok\n",
            game.display()
        )
    );

    // Again: every file refused, each untouched; the first five named, the rest counted (a
    // whole install run again would print a line per file).
    let kept = res.join(&files[0].0);
    std::fs::write(&kept, b"keep").unwrap();
    let out = gamebin(&["pfs", "extract", arg(&game), "-o", arg(&res)]);
    assert_eq!(out.status.code(), Some(1));
    let said = stderr(&out);
    let named = said
        .lines()
        .filter(|l| l.ends_with("exists; not overwritten (use --force to replace it)"))
        .count();
    assert_eq!(named, 5, "{said}");
    assert!(
        said.contains(&format!(
            "{} output files exist and were not overwritten, the first 5 named above (use \
             --force to replace them)",
            files.len()
        )),
        "{said}"
    );
    assert!(
        said.contains(&format!(
            "extracted 0 of {n} files (0 bytes) to {}; {n} failed",
            res.display(),
            n = files.len()
        )),
        "{said}"
    );
    assert_eq!(std::fs::read(&kept).unwrap(), b"keep");
    let out = gamebin(&["pfs", "extract", arg(&game), "-o", arg(&res), "--force"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(std::fs::read(&kept).unwrap(), files[0].1);

    // A selection: only those files.
    let some = dir.join("some");
    let out = gamebin(&[
        "pfs",
        "extract",
        arg(&game),
        "gui",
        "**/*.geometry",
        "-o",
        arg(&some),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    for (path, _, _) in &files {
        let wanted = path.starts_with("gui/") || path.ends_with(".geometry");
        assert_eq!(some.join(path).exists(), wanted, "{path}");
    }

    // An output that is a file: said so, and the file left as it was.
    let file = dir.join("a-file");
    std::fs::write(&file, b"not a folder").unwrap();
    let out = gamebin(&["pfs", "extract", arg(&game), "-o", arg(&file)]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains(&format!(
            "{}: exists and is not a folder (pfs extract writes into a folder)",
            file.display()
        )),
        "{}",
        stderr(&out)
    );
    assert_eq!(std::fs::read(&file).unwrap(), b"not a folder");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_damaged_file_is_named_and_the_others_are_written() {
    let (dir, files) = install("pfs-damaged");
    let game = dir.join("game");
    // A stored file's bytes, found in its volume and changed: its CRC-32 no longer matches.
    let (bad, data, _) = files.iter().find(|f| !f.2 && f.1.len() > 100).unwrap();
    let volume = game.join(if bad.starts_with("gui/") {
        "res_packages/gui_0001.pkg"
    } else {
        "res_packages/basecontent_0001.pkg"
    });
    let mut bytes = std::fs::read(&volume).unwrap();
    let at = bytes
        .windows(data.len())
        .position(|w| w == &data[..])
        .expect("the stored bytes in the volume");
    bytes[at + 50] ^= 0xff;
    std::fs::write(&volume, &bytes).unwrap();

    let res = dir.join("res");
    let out = gamebin(&["pfs", "extract", arg(&game), "-o", arg(&res)]);
    let said = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{said}");
    assert!(said.contains(&format!("gamebin: {bad}: ")), "{said}");
    assert!(
        said.contains(&format!(
            "extracted {} of {} files",
            files.len() - 1,
            files.len()
        )),
        "{said}"
    );
    assert!(!said.contains("panicked"), "{said}");
    for (path, data, _) in &files {
        if path == bad {
            assert!(!res.join(path).exists(), "{path} written");
        } else {
            assert_eq!(&std::fs::read(res.join(path)).unwrap(), data, "{path}");
        }
    }
    // check GAME reads every file: the damaged one is its one error.
    let out = gamebin(&["check", "--json", arg(&game)]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let verdict: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(verdict["format"], "wows-pfs-install");
    let errors = verdict["errors"].as_array().unwrap();
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(
        errors[0].as_str().unwrap().starts_with(&format!("{bad}: ")),
        "{errors:?}"
    );

    let out = gamebin(&["pfs", "cat", arg(&game), bad]);
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
    assert!(stderr(&out).contains(bad.as_str()), "{}", stderr(&out));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_missing_volume_is_named_for_five_of_its_files_and_the_others_are_counted() {
    let (dir, files) = install("pfs-missing-volume");
    let game = dir.join("game");
    let volume = game.join("res_packages/basecontent_0001.pkg");
    let lost: Vec<_> = files.iter().filter(|f| !f.0.starts_with("gui/")).collect();
    assert!(
        lost.len() > 5,
        "the test needs more than five files in the volume"
    );
    let summary = format!(
        "{} files of volume {} not read, the first 5 named above (the volume cannot be read, or \
         ends before them)",
        lost.len(),
        volume.display()
    );

    // Cut before its first file (a download that stopped): each file's own offsets, counted
    // alike.
    let whole = std::fs::read(&volume).unwrap();
    std::fs::write(&volume, &whole[..4]).unwrap();
    let out = gamebin(&["check", "--json", arg(&game)]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let verdict: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let errors = verdict["errors"].as_array().unwrap();
    assert_eq!(errors.len(), 6, "{errors:?}");
    assert!(
        errors[..5]
            .iter()
            .all(|e| e.as_str().unwrap().contains("(truncated file?)")),
        "{errors:?}"
    );
    assert_eq!(errors[5], summary.as_str());

    // Gone.
    std::fs::remove_file(&volume).unwrap();
    // The system's own message, not only the kind of error.
    let cause = format!(
        "its volume {} cannot be opened: {}",
        volume.display(),
        std::io::Error::from_raw_os_error(2)
    );

    let res = dir.join("res");
    let out = gamebin(&["pfs", "extract", arg(&game), "-o", arg(&res)]);
    let said = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{said}");
    assert_eq!(
        said.lines().filter(|l| l.ends_with(&cause)).count(),
        5,
        "{said}"
    );
    assert!(said.contains(&summary), "{said}");
    assert!(
        said.contains(&format!(
            "extracted {} of {} files",
            files.len() - lost.len(),
            files.len()
        )),
        "{said}"
    );
    for (path, data, _) in &files {
        if path.starts_with("gui/") {
            assert_eq!(&std::fs::read(res.join(path)).unwrap(), data, "{path}");
        }
    }

    // check GAME: the same five and the count.
    let out = gamebin(&["check", "--json", arg(&game)]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let verdict: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let errors: Vec<&str> = (verdict["errors"].as_array().unwrap().iter())
        .map(|e| e.as_str().unwrap())
        .collect();
    assert_eq!(errors.len(), 6, "{errors:?}");
    assert!(
        errors[..5].iter().all(|e| e.ends_with(&cause)),
        "{errors:?}"
    );
    assert_eq!(errors[5], summary);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn folders_that_are_no_install_are_named() {
    let dir = temp_dir("pfs-none");
    let out = gamebin(&["pfs", "ls", arg(&dir)]);
    assert_eq!(out.status.code(), Some(1));
    let said = stderr(&out);
    assert!(
        said.contains("no bin/ folder: expected a game folder"),
        "{said}"
    );
    assert!(said.contains(arg(&dir)), "{said}");

    let file = dir.join("file.idx");
    std::fs::write(&file, b"not a folder").unwrap();
    let out = gamebin(&["pfs", "extract", arg(&file), "-o", arg(&dir.join("out"))]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("not a folder"), "{}", stderr(&out));
    assert!(!dir.join("out").exists());

    std::fs::create_dir_all(dir.join("bin/1/idx")).unwrap();
    std::fs::create_dir_all(dir.join("res_packages")).unwrap();
    let out = gamebin(&["pfs", "cat", arg(&dir), "x"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("no index files"), "{}", stderr(&out));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn paths_that_would_leave_the_output_and_oodle_entries_are_refused() {
    use gamebin::wows::pfs::{Compression, PfsWriter};
    let dir = temp_dir("pfs-unsafe");
    let game = dir.join("game");
    let mut writer = PfsWriter::new("basecontent_0001.pkg");
    writer
        .add("content/ok.txt", b"fine", Compression::Stored)
        .unwrap();
    writer
        .add("content/../../escape.txt", b"out", Compression::Stored)
        .unwrap();
    writer
        .add_blob(
            "content/oodle.bin",
            b"compressed",
            Compression::OodleStream { flag: 0 },
            0,
            20,
        )
        .unwrap();
    let archive = writer.finish().unwrap();
    std::fs::create_dir_all(game.join("bin/5/idx")).unwrap();
    std::fs::write(game.join("bin/5/idx/basecontent.idx"), &archive.idx).unwrap();
    std::fs::create_dir_all(game.join("res_packages")).unwrap();
    for (name, bytes) in &archive.volumes {
        std::fs::write(game.join("res_packages").join(name), bytes).unwrap();
    }

    let res = dir.join("out/res");
    let out = gamebin(&["pfs", "extract", arg(&game), "-o", arg(&res)]);
    let said = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{said}");
    assert!(
        said.contains("content/../../escape.txt: the path would leave the output folder"),
        "{said}"
    );
    assert!(said.contains("content/oodle.bin"), "{said}");
    assert!(said.contains("extracted 1 of 3 files"), "{said}");
    assert_eq!(std::fs::read(res.join("content/ok.txt")).unwrap(), b"fine");
    assert!(!dir.join("out/escape.txt").exists());
    assert!(!dir.join("escape.txt").exists());
    assert!(!res.join("content/oodle.bin").exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[cfg(unix)]
#[test]
fn symbolic_links_in_the_output_folder_are_not_followed() {
    let (dir, files) = install("pfs-links");
    let game = dir.join("game");
    let res = dir.join("res");
    let outside = dir.join("outside");
    std::fs::create_dir_all(&res).unwrap();
    std::fs::create_dir_all(&outside).unwrap();
    // gui/ leads outside; one file of content/ is a link to a file outside.
    std::os::unix::fs::symlink(&outside, res.join("gui")).unwrap();
    let (linked, data, _) = files.iter().find(|f| f.0.starts_with("content/")).unwrap();
    std::fs::create_dir_all(res.join(linked).parent().unwrap()).unwrap();
    std::fs::write(outside.join("target"), b"outside").unwrap();
    std::os::unix::fs::symlink(outside.join("target"), res.join(linked)).unwrap();

    let out = gamebin(&["pfs", "extract", arg(&game), "-o", arg(&res), "--force"]);
    let said = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{said}");
    assert!(said.contains("is a symbolic link: not followed"), "{said}");
    let gui = files.iter().filter(|f| f.0.starts_with("gui/")).count();
    assert!(
        said.contains(&format!(
            "extracted {} of {} files",
            files.len() - gui,
            files.len()
        )),
        "{said}"
    );
    // Nothing was written outside; the link to a file was replaced by the file.
    assert_eq!(std::fs::read_dir(&outside).unwrap().count(), 1);
    assert_eq!(std::fs::read(outside.join("target")).unwrap(), b"outside");
    assert_eq!(&std::fs::read(res.join(linked)).unwrap(), data);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn an_id_two_indexes_give_to_different_files_is_a_warning() {
    use gamebin::wows::pfs::{Compression, PfsWriter};
    let dir = temp_dir("pfs-conflict");
    let idx = dir.join("bin/3/idx");
    std::fs::create_dir_all(&idx).unwrap();
    std::fs::create_dir_all(dir.join("res_packages")).unwrap();
    for (name, data) in [("a", &b"first"[..]), ("b", &b"second one"[..])] {
        let mut writer = PfsWriter::new(&format!("{name}_0001.pkg"));
        writer
            .add("content/same.xml", data, Compression::Stored)
            .unwrap();
        writer
            .add(&format!("content/{name}.xml"), data, Compression::Deflate)
            .unwrap();
        let archive = writer.finish().unwrap();
        std::fs::write(idx.join(format!("{name}.idx")), &archive.idx).unwrap();
        for (volume, bytes) in &archive.volumes {
            std::fs::write(dir.join("res_packages").join(volume), bytes).unwrap();
        }
    }
    let out = gamebin(&["pfs", "ls", arg(&dir)]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("warning")
            && stderr(&out).contains("1 id given to different records"),
        "{}",
        stderr(&out)
    );
    assert_eq!(
        lines(&out.stdout),
        ["content/a.xml", "content/b.xml", "content/same.xml"]
            .map(String::from)
            .into()
    );
    // The first index's record is kept.
    let out = gamebin(&["pfs", "cat", arg(&dir), "content/same.xml"]);
    assert_eq!(out.stdout, b"first");
    let out = gamebin(&["check", arg(&dir)]);
    assert!(out.status.success(), "{}", stderr(&out));
    let said = String::from_utf8(out.stdout).unwrap();
    assert!(
        said.contains("wows-pfs-install: ok, 1 warning(s)"),
        "{said}"
    );
    assert!(said.contains("a.idx kept"), "{said}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Every file under `dir`, by path relative to it, with its bytes.
fn tree(dir: &Path) -> std::collections::BTreeMap<String, Vec<u8>> {
    fn walk(root: &Path, dir: &Path, out: &mut std::collections::BTreeMap<String, Vec<u8>>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(root, &path, out);
            } else {
                let name = path
                    .strip_prefix(root)
                    .unwrap()
                    .to_string_lossy()
                    .into_owned();
                out.insert(name, std::fs::read(&path).unwrap());
            }
        }
    }
    let mut out = std::collections::BTreeMap::new();
    walk(dir, dir, &mut out);
    out
}

#[test]
fn commands_read_files_inside_an_install_and_models_export_from_it_as_from_its_extraction() {
    let dir = temp_dir("pfs-inside");
    let game = dir.join("game");
    let out = gamebin(&["synth", "install", "--scale", "small", "-o", arg(&game)]);
    assert!(out.status.success(), "{}", stderr(&out));
    let unpacked = dir.join("unpacked");
    let out = gamebin(&[
        "pfs",
        "extract",
        arg(&game),
        "content/",
        "-o",
        arg(&unpacked),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));

    // `info` of GAME::PATH says what `info` of the extracted file says.
    let inside = format!("{}::content/assets.bin", arg(&game));
    let assets = unpacked.join("content/assets.bin");
    let summary = |arg: &str| {
        let out = gamebin(&["info", arg]);
        assert!(out.status.success(), "{arg}: {}", stderr(&out));
        let text = String::from_utf8(out.stdout).unwrap();
        let (_, summary) = text.split_once(": ").unwrap();
        summary.to_owned()
    };
    assert!(summary(&inside).starts_with("wows-assets"));
    assert_eq!(summary(&inside), summary(arg(&assets)));
    assert!(gamebin(&["check", &inside]).status.success());

    // Models from the install (assets.bin and every .geometry read out of the volumes) are the
    // models from the extracted files, byte for byte, failures included. Without textures: the
    // install's 196 textures, encoded twice at their largest, would take minutes in a debug
    // build (tests/synth_textures.rs exports them).
    let from_install = dir.join("glb-install");
    let from_files = dir.join("glb-files");
    let a = gamebin(&[
        "model",
        &inside,
        "--prefix",
        "content/",
        "--res",
        arg(&game),
        "--textures",
        "none",
        "-o",
        arg(&from_install),
    ]);
    let b = gamebin(&[
        "model",
        arg(&assets),
        "--prefix",
        "content/",
        "--res",
        arg(&unpacked),
        "--textures",
        "none",
        "-o",
        arg(&from_files),
    ]);
    assert_eq!(a.status.code(), b.status.code(), "{}", stderr(&a));
    let glbs = tree(&from_install);
    assert!(glbs.len() > 100, "{} GLBs", glbs.len());
    assert_eq!(glbs, tree(&from_files));
    // The synthetic world's missing geometry file is named as missing from the install.
    assert!(
        stderr(&a).contains("geometry file missing or unreadable in the install"),
        "{}",
        stderr(&a)
    );

    // A path that is not in the install, and a GAME that is no game folder, are named.
    let missing = format!("{}::content/nothere.bin", arg(&game));
    let out = gamebin(&["info", &missing]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("no file content/nothere.bin in the install"),
        "{}",
        stderr(&out)
    );
    let out = gamebin(&["info", &format!("{}::", arg(&game))]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("names no path after the `::`"),
        "{}",
        stderr(&out)
    );
    let nowhere = format!("{}::content/assets.bin", arg(&dir.join("nowhere")));
    let out = gamebin(&["info", &nowhere]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("is not a game folder"),
        "{}",
        stderr(&out)
    );
}

/// A synthetic install of four indexes under `dir/game`; its files' paths, and the paths of the
/// second index's files (`part_001.idx`: its folders are named `i001_*`).
fn four_indexes(dir: &Path) -> (BTreeSet<String>, BTreeSet<String>) {
    let synth = gamebin::synth::pfs::filler_install(4, 400).unwrap();
    synth.write_to(&dir.join("game")).unwrap();
    let out = gamebin(&["pfs", "ls", arg(&dir.join("game"))]);
    assert!(out.status.success(), "{}", stderr(&out));
    let all = lines(&out.stdout);
    let lost: BTreeSet<String> = all
        .iter()
        .filter(|p| p.contains("/i001_"))
        .cloned()
        .collect();
    assert!(lost.len() > 50 && all.len() > lost.len() + 200);
    (all, lost)
}

#[test]
fn a_damaged_index_costs_its_own_files_and_every_command_names_it() {
    let dir = temp_dir("pfs-damaged-index");
    let (all, lost) = four_indexes(&dir);
    let kept: BTreeSet<String> = all.difference(&lost).cloned().collect();
    let game = dir.join("game");
    let idx = game.join("bin/1000001/idx/part_001.idx");
    let whole = std::fs::read(&idx).unwrap();
    let mut bad_magic = whole.clone();
    bad_magic[0] ^= 0xff;
    for damaged in [whole[..10].to_vec(), bad_magic] {
        std::fs::write(&idx, &damaged).unwrap();
        let named = format!("gamebin: {}: at 0x00000000: IdxHeader", idx.display());
        let cost = "; the index is left out: its files are unknown, and ids it may share with the \
                    other indexes are not checked";
        let names_it = |said: &str| {
            assert_eq!(
                said.lines()
                    .filter(|l| l.starts_with(&named) && l.ends_with(cost))
                    .count(),
                1,
                "{said}"
            );
        };

        // ls: every file of the other indexes.
        let out = gamebin(&["pfs", "ls", arg(&game)]);
        assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
        assert_eq!(lines(&out.stdout), kept);
        names_it(&stderr(&out));

        // check: the other indexes' files read; the index is its one error.
        let out = gamebin(&["check", "--json", arg(&game)]);
        assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
        let verdict: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        let errors = verdict["errors"].as_array().unwrap();
        assert_eq!(errors.len(), 1, "{errors:?}");
        let error = errors[0].as_str().unwrap();
        assert!(error.starts_with(&named["gamebin: ".len()..]), "{error}");
        assert!(error.ends_with(cost), "{error}");

        // extract: the other indexes' files written, the index counted apart from failures.
        let res = dir.join("res");
        let _ = std::fs::remove_dir_all(&res);
        let out = gamebin(&["pfs", "extract", arg(&game), "-o", arg(&res)]);
        let said = stderr(&out);
        assert_eq!(out.status.code(), Some(1), "{said}");
        names_it(&said);
        assert!(
            said.contains(&format!("gamebin: extracted {} files (", kept.len()))
                && said.contains("; 1 index not read (named above), its files left out"),
            "{said}"
        );
        for path in &kept {
            assert!(res.join(path).is_file(), "{path}");
        }
        for path in &lost {
            assert!(!res.join(path).exists(), "{path}");
        }

        // cat: a file of another index written; one of the damaged index's may be in it.
        let one = kept.iter().next().unwrap();
        let out = gamebin(&["pfs", "cat", arg(&game), one]);
        assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
        assert_eq!(out.stdout, std::fs::read(res.join(one)).unwrap());
        names_it(&stderr(&out));
        let gone = lost.iter().next().unwrap();
        let out = gamebin(&["pfs", "cat", arg(&game), gone]);
        assert_eq!(out.status.code(), Some(1));
        assert!(
            stderr(&out).contains(&format!(
                "{gone}: no such file in {} (1 index does not read, named above: the file may \
                 be in it)",
                game.display()
            )),
            "{}",
            stderr(&out)
        );

        // info: the others counted, the index named.
        let out = gamebin(&["info", arg(&game)]);
        assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
        let line = String::from_utf8(out.stdout.clone()).unwrap();
        assert!(
            line.contains(&format!(
                "3 indexes in bin/1000001/idx, {} files",
                kept.len()
            )) && line.trim_end().ends_with(", 1 damaged index not read"),
            "{line}"
        );
        names_it(&stderr(&out));
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn an_install_whose_every_index_is_damaged_fails_clearly() {
    let dir = temp_dir("pfs-all-damaged");
    four_indexes(&dir);
    let game = dir.join("game");
    let idx = game.join("bin/1000001/idx");
    for i in 0..4 {
        let path = idx.join(format!("part_{i:03}.idx"));
        let bytes = std::fs::read(&path).unwrap();
        std::fs::write(&path, &bytes[..12]).unwrap();
    }
    let first = format!(
        "none of the 4 indexes reads: {}: at 0x00000000: IdxHeader",
        idx.join("part_000.idx").display()
    );
    let res = dir.join("res");
    for command in [
        vec!["pfs", "ls", arg(&game)],
        vec!["pfs", "extract", arg(&game), "-o", arg(&res)],
        vec!["check", arg(&game)],
        vec!["info", arg(&game)],
    ] {
        let out = gamebin(&command);
        let said = stderr(&out);
        assert_eq!(out.status.code(), Some(1), "{command:?}: {said}");
        assert!(said.contains(&first), "{command:?}: {said}");
        assert!(said.contains("; and 1 more"), "{command:?}: {said}");
        assert!(!said.contains("0 files"), "{command:?}: {said}");
        if command[0] == "pfs" {
            assert!(out.stdout.is_empty(), "{command:?}");
        }
    }
    assert!(!res.exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_file_read_inside_an_install_with_a_damaged_index_is_read_and_the_run_fails() {
    let dir = temp_dir("pfs-inside-damaged");
    let game = dir.join("game");
    let out = gamebin(&["synth", "install", "--scale", "small", "-o", arg(&game)]);
    assert!(out.status.success(), "{}", stderr(&out));
    let idx = game.join("bin/1000001/idx/part_000.idx");
    let bytes = std::fs::read(&idx).unwrap();
    std::fs::write(&idx, &bytes[..10]).unwrap();
    let named = format!("gamebin: {}: at 0x00000000: IdxHeader", idx.display());
    let inside = format!("{}::content/assets.bin", arg(&game));
    for command in [vec!["info", &inside], vec!["dump", &inside]] {
        let out = gamebin(&command);
        assert_eq!(out.status.code(), Some(1), "{command:?}: {}", stderr(&out));
        assert!(
            String::from_utf8_lossy(&out.stdout).contains("wows-assets"),
            "{command:?}"
        );
        assert!(
            stderr(&out).contains(&named),
            "{command:?}: {}",
            stderr(&out)
        );
    }
    let glbs = dir.join("glb");
    let out = gamebin(&[
        "model",
        &inside,
        "--prefix",
        "content/",
        "--res",
        arg(&game),
        "-o",
        arg(&glbs),
        "--textures",
        "none",
    ]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(stderr(&out).contains(&named), "{}", stderr(&out));
    assert!(tree(&glbs).len() > 100);
    std::fs::remove_dir_all(&dir).unwrap();
}

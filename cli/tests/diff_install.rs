//! `gamebin diff OLD NEW` of two game installs and `gamebin pfs extract NEW --changed-since OLD`,
//! on the synthetic install and its update (`synth::pfs::synth_install` / `synth_update`) written
//! to a scratch folder. The expected lines come from the writer's manifests (every file with its
//! size and CRC-32 as written) and from the update's documented rules (assets.bin: the hull
//! material's sort order of every 20th ship group, and a visual new there), never from gamebin's
//! own output. Then the refusals: a folder that is no install, an install with no build, a build
//! it does not have, a damaged index, installs that share no file, a FIFO; and a closed pipe.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use gamebin::synth::assets_scale::{Scale, is_patched, ship_dir};
use gamebin::synth::pfs::{BUILD, SynthInstall, synth_install, synth_update};

mod common;
use common::{close_after_one_line, gamebin, stderr, temp_dir, write_install};

fn arg(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// The two installs on disk (`old/`, `new/`) and their manifests, made once for every test.
struct Pair {
    dir: PathBuf,
    old: SynthInstall,
    new: SynthInstall,
}

fn pair() -> &'static Pair {
    static PAIR: OnceLock<Pair> = OnceLock::new();
    PAIR.get_or_init(|| {
        let dir = temp_dir("diff-install");
        let old = synth_install(Scale::Small).unwrap();
        let new = synth_update(Scale::Small).unwrap();
        old.write_to(&dir.join("old")).unwrap();
        new.write_to(&dir.join("new")).unwrap();
        Pair { dir, old, new }
    })
}

type Manifest = BTreeMap<String, (u32, u32)>;

fn manifest(install: &SynthInstall) -> Manifest {
    install
        .manifest
        .iter()
        .map(|(p, size, crc)| (p.clone(), (*size, *crc)))
        .collect()
}

/// The file lines the manifests say `diff` prints, in path order (a `BTreeMap`'s byte order).
fn expected_file_lines(old: &Manifest, new: &Manifest) -> Vec<String> {
    let paths: BTreeSet<&String> = old.keys().chain(new.keys()).collect();
    let state = |(size, crc): (u32, u32)| format!("{size} bytes, crc32 {crc:#010x}");
    paths
        .into_iter()
        .filter_map(|p| match (old.get(p), new.get(p)) {
            (Some(_), None) => Some(format!("- {p}")),
            (None, Some(_)) => Some(format!("+ {p}")),
            (Some(a), Some(b)) if a != b => Some(format!("~ {p}: {} -> {}", state(*a), state(*b))),
            _ => None,
        })
        .collect()
}

/// The assets.bin lines the update's rules say are there (a subset of its inner lines): in
/// every ship group the patch touches and both worlds hold, the hull material's sort order and
/// the new visual.
fn expected_assets_lines(old: &Manifest, new: &Manifest) -> Vec<String> {
    let mut lines = Vec::new();
    for group in 0..10_000 {
        let (dir, id) = ship_dir(group);
        let geometry = format!("{dir}/{id}.geometry");
        if matches!(group % 10, 7 | 9) || !is_patched(group) {
            continue;
        }
        if old.contains_key(&geometry) && new.contains_key(&geometry) {
            lines.push(format!(
                "~ content/assets.bin::{dir}/{id}_hull.mfm/sort_order: 0 -> 1"
            ));
            lines.push(format!(
                "+ content/assets.bin::{dir}/{id}_patch.visual: VisualPrototype"
            ));
        }
    }
    lines
}

fn stdout_lines(out: &std::process::Output) -> Vec<String> {
    String::from_utf8(out.stdout.clone())
        .unwrap()
        .lines()
        .map(str::to_owned)
        .collect()
}

#[test]
fn every_file_line_and_the_assets_changes_from_the_manifests() {
    let p = pair();
    let (old, new) = (manifest(&p.old), manifest(&p.new));
    let out = gamebin(&["diff", arg(&p.dir.join("old")), arg(&p.dir.join("new"))]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let lines = stdout_lines(&out);
    let (files, inner): (Vec<String>, Vec<String>) =
        lines.into_iter().partition(|l| !l.contains("::"));
    let want = expected_file_lines(&old, &new);
    assert_eq!(files, want);
    // The known set is in it: each kind of change, and one only the CRC-32 tells.
    for sign in ["+ ", "- ", "~ "] {
        assert!(files.iter().any(|l| l.starts_with(sign)), "{sign}");
    }
    assert!(
        files
            .iter()
            .any(|l| l.starts_with("~ content/assets.bin: "))
    );
    let same_size = files.iter().filter(|l| {
        l.split_once(": ")
            .and_then(|(_, s)| s.split_once(" -> "))
            .is_some_and(|(a, b)| a.split(',').next() == b.split(',').next())
    });
    assert!(same_size.count() > 3);

    // Inner lines: each prefixed by the file, the rules' lines among them, counted on stderr.
    assert!(inner.iter().all(|l| {
        ["+ ", "- ", "~ "]
            .iter()
            .any(|s| l.starts_with(&format!("{s}content/assets.bin::")))
    }));
    let rules = expected_assets_lines(&old, &new);
    assert!(rules.len() >= 4, "{rules:?}");
    for line in &rules {
        assert!(inner.contains(line), "{line}");
    }
    let adds = want.iter().filter(|l| l.starts_with("+ ")).count();
    let removes = want.iter().filter(|l| l.starts_with("- ")).count();
    let changes = want.len() - adds - removes;
    let summary = stderr(&out);
    assert!(
        summary.contains(&format!(
            "{adds} added, {removes} removed, {changes} changed (of {} files and {} files)",
            old.len(),
            new.len()
        )),
        "{summary}"
    );
    assert!(
        summary.contains(&format!("content/assets.bin: {} changes", inner.len())),
        "{summary}"
    );
}

#[test]
fn json_is_one_document_of_the_same_changes() {
    let p = pair();
    let (old, new) = (manifest(&p.old), manifest(&p.new));
    let out = gamebin(&[
        "diff",
        "--json",
        arg(&p.dir.join("old")),
        arg(&p.dir.join("new")),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let paths: BTreeSet<&String> = old.keys().chain(new.keys()).collect();
    let state = |s: Option<&(u32, u32)>| match s {
        Some((size, crc)) => serde_json::json!({"size": size, "crc32": format!("{crc:#010x}")}),
        None => serde_json::Value::Null,
    };
    let want: Vec<serde_json::Value> = paths
        .into_iter()
        .filter_map(|p| {
            let (a, b) = (old.get(p), new.get(p));
            let (sign, kind) = match (a, b) {
                (Some(_), None) => ("-", "removed"),
                (None, Some(_)) => ("+", "added"),
                (Some(x), Some(y)) if x != y => ("~", "changed"),
                _ => return None,
            };
            Some(serde_json::json!({
                "sign": sign, "kind": kind, "path": p, "before": state(a), "after": state(b),
            }))
        })
        .collect();
    assert_eq!(doc["files"], serde_json::Value::Array(want));
    let inner = doc["inner"].as_array().unwrap();
    assert_eq!(inner.len(), 1);
    assert_eq!(inner[0]["file"], "content/assets.bin");
    assert_eq!(inner[0]["error"], serde_json::Value::Null);
    let changes = inner[0]["changes"].as_array().unwrap();
    for line in expected_assets_lines(&old, &new) {
        let rest = line.split_once("::").unwrap().1;
        let path = rest.split_once(": ").unwrap().0;
        assert!(
            changes.iter().any(|c| c["path"] == path),
            "{path} in the JSON"
        );
    }
}

#[test]
fn only_and_prefix_keep_their_part() {
    let p = pair();
    let (old, new) = (manifest(&p.old), manifest(&p.new));
    let (a, b) = (p.dir.join("old"), p.dir.join("new"));
    let want = expected_file_lines(&old, &new);

    let out = gamebin(&["diff", "--only", "files", arg(&a), arg(&b)]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(stdout_lines(&out), want);

    let out = gamebin(&["diff", "--only", "assets", arg(&a), arg(&b)]);
    assert_eq!(out.status.code(), Some(0));
    let lines = stdout_lines(&out);
    assert!(!lines.is_empty());
    assert!(lines.iter().all(|l| l.contains(" content/assets.bin::")));

    // The synthetic installs hold no GameParams.data: nothing, and no failure.
    let out = gamebin(&["diff", "--only", "params", arg(&a), arg(&b)]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(out.stdout.is_empty());

    let out = gamebin(&["diff", "--prefix", "gui/flags", arg(&a), arg(&b)]);
    assert_eq!(out.status.code(), Some(0));
    let flags: Vec<String> = want
        .iter()
        .filter(|l| l[2..].starts_with("gui/flags/"))
        .cloned()
        .collect();
    assert!(!flags.is_empty());
    assert_eq!(stdout_lines(&out), flags);

    // Inside assets.bin: the changes under one ship's folder.
    let rule = expected_assets_lines(&old, &new);
    let first = rule[0].split_once("::").unwrap().1;
    let folder = &first[..first.rfind('/').unwrap()];
    let folder = &folder[..folder.rfind('/').unwrap()];
    let prefix = format!("content/assets.bin::{folder}");
    let out = gamebin(&["diff", "--prefix", &prefix, arg(&a), arg(&b)]);
    let lines = stdout_lines(&out);
    assert!(
        lines.contains(&rule[0]) && lines.contains(&rule[1]),
        "{lines:?}"
    );
    assert!(
        lines.iter().all(|l| l[2..].starts_with(&prefix)),
        "{lines:?}"
    );
}

/// A game folder holding the new build and, under an older build number, the old build's
/// indexes (as the game keeps them after an update): `GAME@BUILD` reads the old one.
#[test]
fn game_at_build_compares_two_builds_of_one_folder() {
    let p = pair();
    let dir = temp_dir("diff-install-builds");
    let game = dir.join("game");
    p.new.write_to(&game).unwrap();
    let old_idx = game.join("bin/1000000/idx");
    std::fs::create_dir_all(&old_idx).unwrap();
    for (name, bytes) in &p.old.indexes {
        std::fs::write(old_idx.join(name), bytes).unwrap();
    }
    let older = format!("{}@1000000", arg(&game));
    let newest = format!("{}@{BUILD}", arg(&game));
    let want = expected_file_lines(&manifest(&p.old), &manifest(&p.new));

    let out = gamebin(&["diff", "--only", "files", &older, arg(&game)]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(stdout_lines(&out), want);
    let out = gamebin(&["diff", "--only", "files", &older, &newest]);
    assert_eq!(stdout_lines(&out), want);

    // The old build's assets.bin is not in the volumes (they are the new build's): its inner
    // diff fails, named for that file, and every file line is still printed; exit 1.
    let out = gamebin(&["diff", &older, arg(&game)]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(stdout_lines(&out), want);
    let err = stderr(&out);
    assert!(err.contains("content/assets.bin: the old install"), "{err}");

    // The pfs commands read GAME@BUILD too: the old build's record of assets.bin.
    let out = gamebin(&["pfs", "ls", "--json", &older, "content/assets.bin"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let entry: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let (size, crc) = manifest(&p.old)["content/assets.bin"];
    assert_eq!(entry["size"], size);
    assert_eq!(entry["crc32"], format!("{crc:#010x}"));

    // A build the folder does not have: its builds named.
    let out = gamebin(&["diff", &format!("{}@42", arg(&game)), arg(&game)]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(
        err.contains("no build 42") && err.contains(&format!("1000000, {BUILD}")),
        "{err}"
    );
}

#[test]
fn changed_since_extracts_exactly_the_added_and_changed_files() {
    let p = pair();
    let (old, new) = (manifest(&p.old), manifest(&p.new));
    let out_dir = temp_dir("diff-install-extract").join("update");
    let out = gamebin(&[
        "pfs",
        "extract",
        arg(&p.dir.join("new")),
        "--changed-since",
        arg(&p.dir.join("old")),
        "-o",
        arg(&out_dir),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let mut written = BTreeMap::new();
    let mut stack = vec![out_dir.clone()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let e = e.unwrap().path();
            if e.is_dir() {
                stack.push(e);
            } else {
                let rel = e
                    .strip_prefix(&out_dir)
                    .unwrap()
                    .to_str()
                    .unwrap()
                    .to_owned();
                let bytes = std::fs::read(&e).unwrap();
                written.insert(rel, (bytes.len() as u32, crc32fast::hash(&bytes)));
            }
        }
    }
    let want: Manifest = new
        .iter()
        .filter(|(p, s)| old.get(*p) != Some(s))
        .map(|(p, s)| (p.clone(), *s))
        .collect();
    assert!(want.len() > 10);
    assert_eq!(written, want);
    assert!(stderr(&out).contains(&format!("extracted {} files", want.len())));

    // Nothing changed since itself: nothing written, no failure.
    let out = gamebin(&[
        "pfs",
        "extract",
        arg(&p.dir.join("new")),
        "--changed-since",
        arg(&p.dir.join("new")),
        "-o",
        arg(&out_dir.with_extension("none")),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("nothing extracted"),
        "{}",
        stderr(&out)
    );
    assert!(!out_dir.with_extension("none").exists());
}

#[test]
fn what_is_no_pair_of_installs_is_refused_naming_it() {
    let p = pair();
    let dir = temp_dir("diff-install-bad");
    let new = p.dir.join("new");

    // A folder that is no install.
    let plain = dir.join("plain");
    std::fs::create_dir_all(&plain).unwrap();
    let out = gamebin(&["diff", arg(&plain), arg(&new)]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains(&format!("{}: no bin/ folder", arg(&plain))));

    // An install with no build.
    let empty = dir.join("empty");
    std::fs::create_dir_all(empty.join("bin")).unwrap();
    std::fs::create_dir_all(empty.join("res_packages")).unwrap();
    let out = gamebin(&["diff", arg(&new), arg(&empty)]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(
        err.contains(arg(&empty)) && err.contains("no index files"),
        "{err}"
    );

    // A damaged index in the new install: named, with the install.
    let damaged = dir.join("damaged");
    p.new.write_to(&damaged).unwrap();
    let idx = damaged.join(format!("bin/{BUILD}/idx/part_002.idx"));
    let mut bytes = std::fs::read(&idx).unwrap();
    bytes.truncate(30);
    std::fs::write(&idx, bytes).unwrap();
    let out = gamebin(&["diff", arg(&p.dir.join("old")), arg(&damaged)]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(
        err.contains(&format!("{}: the new install", arg(&damaged)))
            && err.contains("part_002.idx"),
        "{err}"
    );
    assert!(out.stdout.is_empty());

    // Two installs that share no file.
    let (x, y) = (dir.join("x"), dir.join("y"));
    write_install(&x, 1, &[("gui/a.xml", &b"a"[..], false)]);
    write_install(&y, 1, &[("gui/b.xml", &b"b"[..], false)]);
    let out = gamebin(&["diff", arg(&x), arg(&y)]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("share no file"), "{}", stderr(&out));

    // --only with two files is a usage error.
    let out = gamebin(&[
        "diff",
        "--only",
        "files",
        "fixtures/wdb/items.wdb",
        "fixtures/wdb/items.wdb",
    ]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
}

#[cfg(unix)]
#[test]
fn a_fifo_is_refused_not_waited_on() {
    let p = pair();
    let dir = temp_dir("diff-install-fifo");
    let fifo = dir.join("fifo");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(made.success());
    for args in [
        ["diff", arg(&fifo), arg(&p.dir.join("new"))],
        ["diff", arg(&p.dir.join("old")), arg(&fifo)],
    ] {
        let started = std::time::Instant::now();
        let out = gamebin(&args);
        assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
        assert!(stderr(&out).contains("not a folder"), "{}", stderr(&out));
        assert!(started.elapsed().as_secs() < 20);
    }
}

#[test]
fn a_closed_pipe_ends_the_run_quietly() {
    let p = pair();
    let (elapsed, code, err) =
        close_after_one_line(&["diff", arg(&p.dir.join("old")), arg(&p.dir.join("new"))]);
    assert_eq!(code, Some(0), "{err}");
    assert!(
        !err.contains("Broken pipe") && !err.contains("panicked"),
        "{err}"
    );
    assert!(elapsed.as_secs() < 20);
}

/// Issue 51: the changes inside `content/GameParams.data`, from the params writer's own models:
/// the new build's file lacks one entry of the old and has one value of another changed.
#[test]
fn gameparams_changes_are_listed_inside_their_file() {
    use gamebin::wows::params::model::PyValue;
    let old = gamebin::synth::params::model(40);
    let mut new = old.clone();
    let (removed, _) = new.entries.remove(7);
    // The first whole number of the first entry's state (not its id, which look-ups use).
    let (entry, value) = &mut new.entries[0];
    let PyValue::Object(object) = value else {
        panic!("{entry} is not an object")
    };
    let Some(PyValue::Dict(fields)) = &mut object.state else {
        panic!("{entry} has no state dict")
    };
    let (key, before) = fields
        .iter_mut()
        .find_map(|(k, v)| match (k, v) {
            (PyValue::Bytes(k), PyValue::Int(v)) if k.as_slice() != b"id" => {
                Some((String::from_utf8(k.clone()).unwrap(), v))
            }
            _ => None,
        })
        .expect("a whole number");
    let was = *before;
    *before += 1;
    let want = vec![
        format!(
            "~ content/GameParams.data::{entry}.{key}: {was} -> {}",
            was + 1
        ),
        format!("- content/GameParams.data::{removed}: entry"),
    ];

    let dir = temp_dir("diff-params");
    let common: &[u8] = b"<same/>";
    for (side, params) in [("old", &old), ("new", &new)] {
        let bytes = params.to_bytes().unwrap();
        write_install(
            &dir.join(side),
            1,
            &[
                ("content/GameParams.data", &bytes, true),
                ("content/same.xml", common, false),
            ],
        );
    }
    let (a, b) = (dir.join("old"), dir.join("new"));
    let out = gamebin(&["diff", "--only", "params", arg(&a), arg(&b)]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let mut got = stdout_lines(&out);
    got.sort();
    let mut want_sorted = want.clone();
    want_sorted.sort();
    assert_eq!(got, want_sorted);
    // With the files: the file's own line first, then its inside.
    let out = gamebin(&["diff", arg(&a), arg(&b)]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let lines = stdout_lines(&out);
    assert!(
        lines[0].starts_with("~ content/GameParams.data: "),
        "{lines:?}"
    );
    assert_eq!(lines.len(), 3, "{lines:?}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_damaged_gameparams_is_named_and_the_file_lines_still_printed() {
    let good = gamebin::synth::params::model(40).to_bytes().unwrap();
    // The new file cut in its middle: its zlib stream (read from the end) stops early.
    let cut = good[good.len() / 2..].to_vec();
    let dir = temp_dir("diff-params-damaged");
    for (side, params, extra) in [("old", &good, &b"a"[..]), ("new", &cut, &b"bb"[..])] {
        write_install(
            &dir.join(side),
            1,
            &[
                ("content/GameParams.data", params.as_slice(), true),
                ("content/extra.xml", extra, false),
            ],
        );
    }
    let (a, b) = (dir.join("old"), dir.join("new"));
    let out = gamebin(&["diff", arg(&a), arg(&b)]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let lines = stdout_lines(&out);
    // Both files' own lines, from the indexes, though one cannot be compared inside.
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert!(
        lines[0].starts_with("~ content/GameParams.data: "),
        "{lines:?}"
    );
    assert!(lines[1].starts_with("~ content/extra.xml: "), "{lines:?}");
    let err = stderr(&out);
    assert!(
        err.contains("content/GameParams.data: the new file: ")
            && err.contains("its inner changes are not listed")
            && err.contains("content/GameParams.data: not compared (damaged)"),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

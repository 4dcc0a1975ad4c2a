//! `gamebin export` on damaged files (every fixture and real sample cut by one byte, as `head -c
//! -1` cuts it): each part left out is named as what it is (a draw by its mapping ids, an armor
//! model by its position and name, never as a draw of ids 0), a failed export (exit status 1)
//! leaves no file behind unless `--partial` asks for one, and armor models that do not read are a
//! warning when `--armor` was not given.

use std::path::{Path, PathBuf};

mod common;
use common::{at_repository_root, gamebin, root, samples, stderr, temp_dir};

fn arg(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// `file` without its last byte, written into `dir`.
fn cut_by_one(file: &Path, dir: &Path) -> PathBuf {
    let bytes = std::fs::read(file).unwrap();
    let cut = dir.join(file.file_name().unwrap());
    std::fs::write(&cut, &bytes[..bytes.len() - 1]).unwrap();
    cut
}

/// Whatever the damage: no panic, no draw of ids 0, each skipped part on stderr, an output only
/// after exit status 0 or with --partial, and --partial writing what a failed run could.
fn exports_or_leaves_nothing(file: &Path, dir: &Path) {
    let name = file.file_stem().unwrap().to_str().unwrap();
    for armor in [false, true] {
        for output in [
            dir.join(format!("{name}.glb")),
            dir.join(format!("{name}_obj")),
        ] {
            let mut args = vec!["export", arg(file), "-o", arg(&output)];
            if armor {
                args.push("--armor");
            }
            let out = gamebin(&args);
            let said = stderr(&out);
            assert!(!said.contains("panicked"), "{args:?}: {said}");
            assert!(
                !said.contains("0x00000000 + 0x00000000"),
                "{args:?}: {said}"
            );
            match out.status.code() {
                Some(0) => {
                    assert!(output.exists(), "{args:?}: exit 0 and nothing written");
                    assert!(!said.contains("skipped"), "{args:?}: exit 0 but {said}");
                }
                Some(1) => {
                    assert!(
                        !output.exists(),
                        "{args:?} failed and left {} behind: {said}",
                        output.display()
                    );
                    assert!(said.contains("nothing written"), "{args:?}: {said}");
                    // Each part left out is named on a line of its own.
                    let skipped = said.lines().filter(|l| l.contains(" skipped: ")).count();
                    let unpaired = said
                        .lines()
                        .filter(|l| l.ends_with("; not exported"))
                        .count();
                    assert!(skipped + unpaired > 0, "{args:?}: {said}");
                    // With --partial: what could be exported, still exit status 1.
                    if !said.contains("nothing to export") {
                        let mut partial = args.clone();
                        partial.push("--partial");
                        let out = gamebin(&partial);
                        assert_eq!(out.status.code(), Some(1), "{partial:?}: {}", stderr(&out));
                        assert!(output.exists(), "{partial:?}: nothing written");
                        assert!(
                            stderr(&out).contains("partial result (--partial)"),
                            "{partial:?}: {}",
                            stderr(&out)
                        );
                    }
                }
                other => panic!("{args:?}: exit status {other:?}: {said}"),
            }
            let _ = std::fs::remove_file(&output);
            let _ = std::fs::remove_dir_all(&output);
        }
    }
}

/// A file whose last part is its armor model (the writer's ships): cut by one byte, the armor
/// model's name no longer reads.
fn armor_cut_at_its_name(cut: &Path, dir: &Path) {
    let glb = dir.join("armor.glb");
    let with = ["export", arg(cut), "-o", arg(&glb), "--armor"];
    let out = gamebin(&with);
    let said = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{said}");
    assert!(
        said.contains("armor model 0 (name unreadable) skipped: at 0x")
            && said.contains("ArmorModelPrototype.name: needs"),
        "{said}"
    );
    assert!(said.contains("nothing written (--partial writes"), "{said}");
    assert!(!glb.exists());
    // Without --armor the draws are the whole export: written, exit status 0, and a warning
    // that the file is damaged where it was not read.
    let without = ["export", arg(cut), "-o", arg(&glb)];
    let out = gamebin(&without);
    let said = stderr(&out);
    assert_eq!(out.status.code(), Some(0), "{said}");
    assert!(
        said.contains(
            "warning: armor model 0 (name unreadable) does not read (not exported without --armor)"
        ),
        "{said}"
    );
    assert!(glb.exists());
    std::fs::remove_file(&glb).unwrap();
}

#[test]
fn fixtures_cut_by_one_byte_export_or_leave_nothing() {
    at_repository_root();
    let dir = temp_dir("export-cut-fixtures");
    let mut files: Vec<PathBuf> = std::fs::read_dir(root().join("fixtures/wows-geometry"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "geometry"))
        .collect();
    files.sort();
    assert!(files.len() >= 5);
    for file in &files {
        let cut = cut_by_one(file, &dir);
        exports_or_leaves_nothing(&cut, &dir);
    }
    let ships = cut_by_one(
        &root().join("fixtures/wows-geometry/ships_encd.geometry"),
        &dir,
    );
    armor_cut_at_its_name(&ships, &dir);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
#[ignore = "needs GAMEBIN_SAMPLES (real files): GAMEBIN_SAMPLES=../shared/samples cargo test -- --include-ignored"]
fn real_samples_cut_by_one_byte_export_or_leave_nothing() {
    at_repository_root();
    let dir = temp_dir("export-cut-samples");
    let mut files: Vec<PathBuf> = std::fs::read_dir(samples().join("wows-geometry"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "geometry"))
        .collect();
    files.sort();
    assert!(!files.is_empty());
    for file in &files {
        let cut = cut_by_one(file, &dir);
        exports_or_leaves_nothing(&cut, &dir);
    }
    // The file: a ship whose armor model ends the file.
    let kleber = cut_by_one(
        &samples().join("wows-geometry/FSD012_Kleber_1952_0.11.5.geometry"),
        &dir,
    );
    armor_cut_at_its_name(&kleber, &dir);
    std::fs::remove_dir_all(&dir).unwrap();
}

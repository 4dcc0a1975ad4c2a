//! The `gamebin` command line: golden `dump --json` outputs of the fixtures, `info` lines, exit
//! status, and OBJ and GLB export. Re-bless the golden files with `GAMEBIN_BLESS=1 cargo test --test cli`.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use gamebin::wows::geometry::GeometryView;

mod common;
use common::{at_repository_root, gamebin, root, stderr, temp_dir};

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

/// Every fixture, as `<format folder>/<file name>` under `fixtures/`: the files of a format, not
/// the `.pkg` volumes beside the PFS indexes (a volume alone is no format), nor the XML sources'
/// folders (`wows-sources/newer`, read by the library's tests/sources.rs).
fn fixtures() -> Vec<String> {
    let mut names = Vec::new();
    for folder in std::fs::read_dir(root().join("fixtures")).unwrap() {
        let folder = folder.unwrap();
        for file in std::fs::read_dir(folder.path()).unwrap() {
            let file = file.unwrap();
            if !file.file_type().unwrap().is_file() {
                continue;
            }
            let file = file.file_name().into_string().unwrap();
            if file.ends_with(".pkg") {
                continue;
            }
            names.push(format!(
                "{}/{file}",
                folder.file_name().into_string().unwrap()
            ));
        }
    }
    names.sort();
    names
}

#[test]
fn dump_json_matches_the_golden_files() {
    at_repository_root();
    let bless = std::env::var_os("GAMEBIN_BLESS").is_some();
    for name in fixtures() {
        let path = format!("fixtures/{name}");
        let out = gamebin(&["dump", "--json", &path]);
        assert!(out.status.success(), "{path}: {}", stderr(&out));
        let golden = root()
            .join("tests/golden")
            .join(format!("{}.dump.json", name.rsplit('/').next().unwrap()));
        if bless {
            std::fs::write(&golden, stdout(&out)).unwrap();
            continue;
        }
        let want = std::fs::read_to_string(&golden).unwrap_or_else(|e| {
            panic!(
                "{}: {e}; run GAMEBIN_BLESS=1 cargo test --test cli",
                golden.display()
            )
        });
        assert_eq!(
            stdout(&out),
            want,
            "{path}: dump differs from {}",
            golden.display()
        );
    }
}

#[test]
fn golden_dumps_agree_with_what_the_writer_was_told() {
    at_repository_root();
    // Independent of the reader: the fixture builder put a 24-vertex cube and a 5-vertex pyramid
    // into one buffer, with texel densities 17293 and 19309, and two armor nodes of 6 triangles.
    let dump: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(root().join("tests/golden/ships_raw.geometry.dump.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(dump["vertex_buffers"][0]["vertex_count"], 29);
    assert_eq!(dump["index_buffers"][0]["index_count"], 36 + 18);
    assert_eq!(dump["vertex_mappings"][0]["texel_density"], 17293);
    assert_eq!(dump["draws"].as_array().unwrap().len(), 2);
    assert_eq!(dump["armor_models"][0]["triangles"], 12);
    assert_eq!(
        dump["vertex_buffers"][0]["aabb"]["min"],
        serde_json::json!([-1.0, 0.0, -2.75])
    );
    assert_eq!(
        dump["vertex_buffers"][0]["aabb"]["max"],
        serde_json::json!([3.75, 2.0, 1.0])
    );
}

#[test]
fn info_json_has_the_documented_keys() {
    at_repository_root();
    let out = gamebin(&["info", "--json", "fixtures"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let lines: Vec<serde_json::Value> = stdout(&out)
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .filter(|l| l["format"] == "wows-geometry")
        .collect();
    let geometry = fixtures()
        .iter()
        .filter(|f| f.starts_with("wows-geometry/"))
        .count();
    assert_eq!(lines.len(), geometry);
    let keys = [
        "path",
        "format",
        "vertex_buffers",
        "index_buffers",
        "vertex_mappings",
        "index_mappings",
        "collision_models",
        "armor_models",
        "encoded_buffers",
        "vertices",
        "indices",
    ];
    for line in &lines {
        let object = line.as_object().unwrap();
        assert_eq!(object.keys().collect::<Vec<_>>().len(), keys.len());
        for key in keys {
            assert!(object.contains_key(key), "{key} missing in {line}");
        }
    }
    let encd = lines
        .iter()
        .find(|l| l["path"].as_str().unwrap().ends_with("ships_encd.geometry"))
        .unwrap();
    assert_eq!(encd["encoded_buffers"], 2);
    assert_eq!(encd["vertices"], 29);
    assert_eq!(encd["armor_models"], 1);
}

#[test]
#[ignore = "needs GAMEBIN_SAMPLES (real files): GAMEBIN_SAMPLES=../shared/samples cargo test -- --include-ignored"]
fn info_on_real_samples_counts_what_the_blobs_hold() {
    at_repository_root();
    let samples = std::env::var_os("GAMEBIN_SAMPLES").expect("GAMEBIN_SAMPLES is not set: this test reads the real samples (run it with GAMEBIN_SAMPLES=../shared/samples cargo test -- --include-ignored)");
    let path = PathBuf::from(samples).join("wows-geometry/CPA003_Shell_CS_0.11.5.geometry");
    let out = gamebin(&["info", "--json", path.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    let info: serde_json::Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    // The raw blobs are 5152 bytes of 28-byte vertices and 1512 bytes of 2-byte indices.
    assert_eq!(info["vertices"], 5152 / 28);
    assert_eq!(info["indices"], 1512 / 2);
    assert_eq!(info["vertex_mappings"], 3);
}

#[test]
fn a_failing_file_does_not_stop_the_others() {
    at_repository_root();
    let dir = std::env::temp_dir().join(format!("gamebin-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let good = root().join("fixtures/wows-geometry/ships_raw.geometry");
    let mut bad = std::fs::read(&good).unwrap();
    bad[0x28..0x30].copy_from_slice(&0x7fff_0000i64.to_le_bytes());
    let bad_path = dir.join("broken.geometry");
    std::fs::write(&bad_path, &bad).unwrap();
    let text = dir.join("notes.txt");
    std::fs::write(&text, "not a game file").unwrap();

    let out = gamebin(&["info", bad_path.to_str().unwrap(), good.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stdout(&out).contains("ships_raw.geometry: wows-geometry"),
        "{}",
        stdout(&out)
    );
    let err = stderr(&out);
    assert!(
        err.contains("broken.geometry: named .geometry but does not read as one: at 0x00000028: MergedGeometryPrototype.mergedVertices: pointer 0x7fff0000 is outside the file"),
        "{err}"
    );
    // Found in a directory, the damaged file is still reported, not skipped as unknown.
    let out = gamebin(&["info", dir.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("broken.geometry: named .geometry"),
        "{}",
        stderr(&out)
    );
    assert!(!err.contains("panicked"), "{err}");

    // A named file of an unknown format fails; the same file found in a directory is skipped.
    let out = gamebin(&["info", text.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("not a format gamebin reads"));
    std::fs::remove_file(&bad_path).unwrap();
    let out = gamebin(&["info", dir.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stderr(&out).contains("skipped 1 file"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn check_of_a_folder_says_what_it_skipped_as_info_does() {
    // Issue #29: `check DIR` over files gamebin does not read said nothing and exited 0; it counts
    // them on stderr as `info` does (cli/README.md), and still checks the files it reads.
    at_repository_root();
    let dir = std::env::temp_dir().join(format!("gamebin-cli-skip-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("a.txt"), "not a game file").unwrap();
    std::fs::write(dir.join("b.txt"), "nor this").unwrap();
    let only_text = gamebin(&["check", dir.to_str().unwrap()]);
    assert_eq!(only_text.status.code(), Some(0), "{}", stderr(&only_text));
    assert_eq!(stdout(&only_text), "");
    assert!(
        stderr(&only_text).contains("gamebin: skipped 2 file(s) of formats gamebin does not read"),
        "{}",
        stderr(&only_text)
    );
    std::fs::copy(
        root().join("fixtures/wows-geometry/ships_raw.geometry"),
        dir.join("ships_raw.geometry"),
    )
    .unwrap();
    for command in ["check", "info"] {
        let out = gamebin(&[command, dir.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        assert!(
            stdout(&out).contains("ships_raw.geometry: wows-geometry"),
            "{}",
            stdout(&out)
        );
        assert!(
            stderr(&out).contains("gamebin: skipped 2 file(s) of formats gamebin does not read"),
            "{command}: {}",
            stderr(&out)
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn usage_errors_exit_2() {
    at_repository_root();
    assert_eq!(gamebin(&[]).status.code(), Some(2));
    assert_eq!(gamebin(&["info"]).status.code(), Some(2));
    assert_eq!(gamebin(&["dump", "--bogus", "x"]).status.code(), Some(2));
    let help = gamebin(&["--help"]);
    assert!(help.status.success());
    assert!(stdout(&help).contains("Examples:"));
}

#[test]
fn export_writes_one_obj_per_draw() {
    at_repository_root();
    let dir = std::env::temp_dir().join(format!("gamebin-export-{}", std::process::id()));
    let out = gamebin(&[
        "export",
        "fixtures/wows-geometry/ships_encd.geometry",
        "-o",
        dir.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let cube_v = gamebin::wows::geometry::MappingKind::Vertices.id_of("Cube");
    let cube_i = gamebin::wows::geometry::MappingKind::Indices.id_of("Cube");
    let obj = std::fs::read_to_string(dir.join(format!("{cube_v:08x}_{cube_i:08x}.obj"))).unwrap();
    let count = |prefix: &str| obj.lines().filter(|l| l.starts_with(prefix)).count();
    assert_eq!(
        (count("v "), count("vn "), count("vt "), count("f ")),
        (24, 24, 24, 12)
    );
    // Every face corner refers to a vertex that exists (1-based).
    for face in obj.lines().filter(|l| l.starts_with("f ")) {
        for corner in face.split_whitespace().skip(1) {
            let k: usize = corner.split('/').next().unwrap().parse().unwrap();
            assert!((1..=24).contains(&k), "{face}");
        }
    }
    // The cube spans x in -1..1 (mirrored into OBJ space) and y in 0..2.
    let xs: Vec<f32> = obj
        .lines()
        .filter(|l| l.starts_with("v "))
        .map(|l| l.split_whitespace().nth(1).unwrap().parse().unwrap())
        .collect();
    assert_eq!(xs.iter().cloned().fold(f32::MAX, f32::min), -1.0);
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 2);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn export_writes_a_glb_and_never_overwrites_without_force() {
    at_repository_root();
    let dir = std::env::temp_dir().join(format!("gamebin-export-glb-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let glb = dir.join("ships.glb");
    let target = glb.to_str().unwrap();
    let args = [
        "export",
        "fixtures/wows-geometry/ships_encd.geometry",
        "-o",
        target,
        "--armor",
    ];
    let out = gamebin(&args);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout(&out).trim(), target);
    let bytes = std::fs::read(&glb).unwrap();
    let gltf = gltf::Gltf::from_slice(&bytes).unwrap();
    assert_eq!(gltf.meshes().count(), 3, "two draws and the armor model");

    // Again: refused, the file left as it was; with --force, replaced.
    std::fs::write(&glb, b"keep me").unwrap();
    let out = gamebin(&args);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("--force"), "{}", stderr(&out));
    assert_eq!(std::fs::read(&glb).unwrap(), b"keep me");
    let out = gamebin(&[&args[..], &["--force"]].concat());
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(std::fs::read(&glb).unwrap(), bytes);

    // --format obj into a folder; a .geometry that is not one is refused.
    let objs = dir.join("objs");
    let out = gamebin(&[
        "export",
        "fixtures/wows-geometry/mixed_formats.geometry",
        "-o",
        objs.to_str().unwrap(),
        "--format",
        "obj",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(std::fs::read_dir(&objs).unwrap().count(), 3);
    let out = gamebin(&["export", "fixtures/ff13-wdb/items.wdb", "-o", target]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("reads .geometry files"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn export_reports_the_draws_it_cannot_write_and_writes_the_others_only_when_partial() {
    at_repository_root();
    use gamebin::synth::geometry::{cube, pyramid};
    use gamebin::wows::geometry::model::GeometryBuilder;
    let dir = std::env::temp_dir().join(format!("gamebin-export-bad-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // Two meshes; the cube's vertex mapping then claims 10 vertices, too few for index 23.
    let mut b = GeometryBuilder::new();
    let vb = b.vertex_buffer("set3/xyznuvtbpc", false);
    let ib = b.index_buffer(2, false);
    let (v, i) = cube([0.0; 3], 1.0);
    b.mesh((0xc0be, 0xc0bf), vb, ib, 0, &v, &i).unwrap();
    let (v, i) = pyramid([0.0; 3], 1.0);
    b.mesh((0x0be1, 0x0be2), vb, ib, 0, &v, &i).unwrap();
    let mut bytes = b.to_bytes().unwrap();
    let view = GeometryView::from_bytes(&bytes).unwrap();
    let at = view.vertex_mappings().get(0).unwrap().offset();
    bytes[at + 12..at + 16].copy_from_slice(&10u32.to_le_bytes());
    let input = dir.join("bad.geometry");
    std::fs::write(&input, &bytes).unwrap();
    let glb = dir.join("bad.glb");
    let out = gamebin(&[
        "export",
        input.to_str().unwrap(),
        "-o",
        glb.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(
        err.contains("0x0000c0bf"),
        "the unpaired index mapping is named: {err}"
    );
    assert!(
        err.contains("0x0000c0be"),
        "the unused vertex mapping is named: {err}"
    );
    // A failed export leaves nothing behind...
    assert!(err.contains("nothing written (--partial writes"), "{err}");
    assert!(!glb.exists(), "a failed export wrote {}", glb.display());
    // ...unless the partial result is asked for: the sound draw, and still exit status 1.
    let out = gamebin(&[
        "export",
        input.to_str().unwrap(),
        "-o",
        glb.to_str().unwrap(),
        "--partial",
    ]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(stderr(&out).contains("partial result (--partial): 1 mesh(es) written"));
    let gltf = gltf::Gltf::from_slice(&std::fs::read(&glb).unwrap()).unwrap();
    let names: Vec<_> = gltf
        .meshes()
        .map(|m| m.name().unwrap().to_owned())
        .collect();
    assert_eq!(names, ["00000be1_00000be2"], "the sound draw is written");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn check_walks_everything_and_reports_warnings_and_errors() {
    at_repository_root();
    let out = gamebin(&["check", "fixtures"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.contains("swapped_index_size.geometry: wows-geometry: ok, 1 warning(s)"),
        "{text}"
    );
    assert!(text.contains("stored as (2, 0)"), "{text}");
    assert!(text.contains("the pairing may be wrong"), "{text}");
    let out = gamebin(&[
        "check",
        "--json",
        "fixtures/wows-geometry/ambiguous_pairing.geometry",
    ]);
    let v: serde_json::Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    assert_eq!(v["errors"].as_array().unwrap().len(), 0);
    assert_eq!(v["warnings"].as_array().unwrap().len(), 2);

    // A draw whose index mapping no vertex mapping can hold is an error: exit 1.
    let dir = std::env::temp_dir().join(format!("gamebin-check-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut bytes =
        std::fs::read(root().join("fixtures/wows-geometry/ships_raw.geometry")).unwrap();
    let view = GeometryView::from_bytes(&bytes).unwrap();
    let at = view.vertex_mappings().get(0).unwrap().offset();
    bytes[at + 12..at + 16].copy_from_slice(&3u32.to_le_bytes());
    let bad = dir.join("bad.geometry");
    std::fs::write(&bad, &bytes).unwrap();
    let out = gamebin(&["check", bad.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stdout(&out).contains("error: "), "{}", stdout(&out));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn craftstudio_info_json_has_the_issues_keys() {
    at_repository_root();
    let out = gamebin(&["info", "--json", "fixtures/craftstudio-project"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let lines: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 4);
    // Exactly the keys issue 7 lists, in its order (checked on the text: a parsed map is sorted).
    let keys = [
        "path",
        "format",
        "name",
        "format_version",
        "project_type",
        "controls",
        "entries",
        "folders",
        "assets",
        "trashed",
        "trailing_bytes",
    ];
    for (raw, line) in text.lines().zip(&lines) {
        let object = line.as_object().unwrap();
        assert_eq!(object.len(), keys.len());
        let at: Vec<usize> = keys
            .iter()
            .map(|k| raw.find(&format!("\"{k}\":")).unwrap())
            .collect();
        assert!(at.windows(2).all(|w| w[0] < w[1]), "{raw}");
        assert_eq!(line["format"], "craftstudio-project");
    }
    // What the writer was told (src/write/craftstudio.rs): trailing_entries has three entries
    // (one folder, two assets) and 20 + 12 + 9 bytes after them; dangling_parents two trashed.
    let find = |name: &str| {
        lines
            .iter()
            .find(|l| l["path"].as_str().unwrap().ends_with(name))
            .unwrap()
    };
    let t = find("trailing_entries.Project.dat");
    assert_eq!(
        (
            &t["entries"],
            &t["folders"],
            &t["assets"],
            &t["trailing_bytes"]
        ),
        (
            &serde_json::json!(3),
            &serde_json::json!(1),
            &serde_json::json!(2),
            &serde_json::json!(41)
        )
    );
    assert_eq!(find("dangling_parents.Project.dat")["trashed"], 2);
    let every = find("every_type.Project.dat");
    assert_eq!(every["controls"], 4);
    assert_eq!(every["project_type"], "Game");
    assert_eq!(every["format_version"], 9);
}

#[test]
#[ignore = "needs GAMEBIN_SAMPLES (real files): GAMEBIN_SAMPLES=../shared/samples cargo test -- --include-ignored"]
fn craftstudio_info_on_real_samples() {
    at_repository_root();
    let samples = std::env::var_os("GAMEBIN_SAMPLES").expect("GAMEBIN_SAMPLES is not set: this test reads the real samples (run it with GAMEBIN_SAMPLES=../shared/samples cargo test -- --include-ignored)");
    let dir = PathBuf::from(samples).join("craftstudio-project");
    let out = gamebin(&["info", "--json", dir.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    // From SOURCES.txt: entries, controls, trailing bytes.
    let want = [
        ("ConnectionWar", 334, 50, 0),
        ("Glanduff", 307, 79, 0),
        ("Monochrome", 481, 102, 0),
    ];
    let lines: Vec<serde_json::Value> = stdout(&out)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 3);
    for (line, (name, entries, controls, trailing)) in lines.iter().zip(want) {
        assert!(line["path"].as_str().unwrap().contains(name));
        assert_eq!(line["entries"], entries);
        assert_eq!(line["controls"], controls);
        assert_eq!(line["trailing_bytes"], trailing);
        assert_eq!(
            line["folders"].as_u64().unwrap() + line["assets"].as_u64().unwrap(),
            entries
        );
    }
}

#[test]
#[ignore = "needs GAMEBIN_SAMPLES (real files): GAMEBIN_SAMPLES=../shared/samples cargo test -- --include-ignored"]
fn craftstudio_dump_json_of_real_samples_agrees_with_sources_txt() {
    at_repository_root();
    let samples = std::env::var_os("GAMEBIN_SAMPLES").expect("GAMEBIN_SAMPLES is not set: this test reads the real samples (run it with GAMEBIN_SAMPLES=../shared/samples cargo test -- --include-ignored)");
    let dir = PathBuf::from(samples).join("craftstudio-project");
    // From SOURCES.txt: size, entries, controls; 0 trailing bytes, format 9, game, script API 5.
    for (name, size, entries, controls) in [
        ("ConnectionWar", 20_221, 334, 50),
        ("Glanduff", 15_560, 307, 79),
        ("Monochrome", 21_608, 481, 102),
    ] {
        let dump = dump_json(&dir.join(format!("AntarkaGame_CS_{name}_Project.dat")));
        assert_eq!(dump["size"], size, "{name}");
        assert_eq!(dump["entries"].as_array().unwrap().len(), entries, "{name}");
        assert_eq!(
            dump["controls"].as_array().unwrap().len(),
            controls,
            "{name}"
        );
        assert_eq!(dump["trailing"], "", "{name}");
        assert_eq!(dump["trailing_offset"], size, "{name}");
        let header = (
            &dump["format_version"],
            &dump["project_type"],
            &dump["script_api_version"],
        );
        assert_eq!(header, (&9.into(), &0.into(), &5.into()), "{name}");
    }
}

#[test]
fn craftstudio_dump_json_is_the_model_the_writer_was_given() {
    at_repository_root();
    for (name, model) in [
        (
            "dangling_parents",
            gamebin::synth::craftstudio::dangling_parents(),
        ),
        ("every_type", gamebin::synth::craftstudio::every_type()),
    ] {
        let path = format!("fixtures/craftstudio-project/{name}.Project.dat");
        let out = gamebin(&["dump", "--json", &path]);
        assert!(out.status.success(), "{}", stderr(&out));
        let mut dump: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
        let size = std::fs::metadata(&path).unwrap().len();
        assert_eq!(dump["size"], size, "{name}");
        // Written fresh: no bytes after the last entry.
        assert_eq!(dump["trailing_offset"], size, "{name}");
        assert_eq!(dump["trailing"], "", "{name}");
        // Without the file facts, the dump is the writer's input, field for field.
        let facts = dump.as_object_mut().unwrap();
        for key in [
            "path",
            "format",
            "size",
            "entries_offset",
            "trailing_offset",
        ] {
            assert!(facts.remove(key).is_some(), "{name}: {key}");
        }
        // Through JSON text, as the CLI prints it (f32s as their shortest text, not widened).
        let want: serde_json::Value =
            serde_json::from_str(&serde_json::to_string(&model).unwrap()).unwrap();
        assert_eq!(dump, want, "{name}");
    }
    // Hand-checked against the writer's calls (src/write/craftstudio): the entries in file order,
    // the lost script under parent 40, trashed, with its one revision.
    let dump = dump_json(Path::new(
        "fixtures/craftstudio-project/dangling_parents.Project.dat",
    ));
    let ids: Vec<_> = dump["entries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["id"].as_u64().unwrap())
        .collect();
    assert_eq!(ids, [5, 6, 8, 9, 7]);
    let lost = &dump["entries"][0];
    assert_eq!(
        (
            &lost["parent_id"],
            &lost["trashed"],
            &lost["revisions"][0][1]
        ),
        (
            &serde_json::json!(40),
            &serde_json::json!(true),
            &serde_json::json!("2013-12-24 18:00:00")
        )
    );
}

#[test]
fn craftstudio_dump_text_is_the_tree() {
    at_repository_root();
    let out = gamebin(&[
        "dump",
        "fixtures/craftstudio-project/dangling_parents.Project.dat",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    // Outer (9) holds Inner (8) holds the child (6), though the file lists them child first.
    let outer = text.find("  Outer/ [Script folder, id 9]").expect(&text);
    let inner = text.find("    Inner/ [Script folder, id 8]").expect(&text);
    let child = text
        .find("      Child before parent [Script asset, id 6]")
        .expect(&text);
    assert!(outer < inner && inner < child, "{text}");
    assert!(
        text.contains("under missing folder 40 (dangling parent):"),
        "{text}"
    );
    assert!(
        text.contains("under missing folder 41 (dangling parent):"),
        "{text}"
    );
}

#[test]
fn a_damaged_project_dat_reports_the_readers_error_and_others_are_skipped() {
    at_repository_root();
    let dir = std::env::temp_dir().join(format!("gamebin-cli-cs-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let good =
        std::fs::read(root().join("fixtures/craftstudio-project/every_type.Project.dat")).unwrap();
    let damaged = dir.join("Project.dat");
    std::fs::write(&damaged, &good[..good.len() - 3]).unwrap();
    let out = gamebin(&["info", damaged.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("at 0x"), "{}", stderr(&out));
    // Another program's Project.dat found in a directory is skipped, not an error.
    std::fs::write(&damaged, b"\x01\x02not a CraftStudio project").unwrap();
    let out = gamebin(&["info", dir.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn craftstudio_check_finds_missing_and_orphaned_files() {
    at_repository_root();
    use gamebin::craftstudio::model::{EntrySpec, ProjectModel};
    let dir = std::env::temp_dir().join(format!("gamebin-cs-check-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let mut p = ProjectModel::new("Check");
    p.entries.push(EntrySpec::folder(1, None, "Models", 0));
    p.entries
        .push(EntrySpec::asset(2, Some(1), "Hero", 0).revision(0, "2014-01-01 00:00:00"));
    p.entries.push(EntrySpec::asset(3, None, "Level", 1));
    let mut trashed = EntrySpec::asset(4, Some(99), "Old", 7);
    trashed.trashed = true;
    p.entries.push(trashed);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("Project.dat"), p.to_bytes().unwrap()).unwrap();
    let put = |rel: &str| {
        let path = dir.join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, b"x").unwrap();
    };
    put("Assets/Models/2/Current.csmodel");
    put("Assets/Models/2/0.csmodel");
    put("Assets/Maps/3/Current.csmapchunks");
    put("Assets/Scripts/4/Current.csscript");
    let out = gamebin(&["craftstudio", "check", dir.to_str().unwrap()]);
    assert!(out.status.success(), "{}{}", stdout(&out), stderr(&out));
    assert!(
        stdout(&out).contains("0 missing, 0 orphaned"),
        "{}",
        stdout(&out)
    );

    // Remove a revision, add a stray file and a folder of an entry that does not exist.
    std::fs::remove_file(dir.join("Assets/Models/2/0.csmodel")).unwrap();
    put("Assets/Models/2/7.csmodel");
    put("Assets/Scenes/50/Current.csscene");
    let out = gamebin(&["craftstudio", "check", "--json", dir.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let report: serde_json::Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    assert_eq!(report["assets"], 3);
    assert_eq!(report["trashed"], 1);
    assert_eq!(report["missing"].as_array().unwrap().len(), 1);
    assert_eq!(report["missing"][0]["entry_id"], 2);
    assert_eq!(report["missing"][0]["revision_id"], 0);
    assert_eq!(report["missing"][0]["entry"], "Models/Hero");
    assert_eq!(
        report["missing"][0]["expected"],
        Path::new("Assets/Models/2/0.csmodel").display().to_string()
    );
    let orphaned: Vec<&str> = report["orphaned"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    assert_eq!(
        orphaned,
        [
            Path::new("Assets/Models/2/7.csmodel").display().to_string(),
            Path::new("Assets/Scenes/50/Current.csscene")
                .display()
                .to_string()
        ]
    );
    // The Project.dat itself may be named instead of its folder.
    let out = gamebin(&[
        "craftstudio",
        "check",
        dir.join("Project.dat").to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stdout(&out).contains("missing  "), "{}", stdout(&out));
    std::fs::remove_dir_all(&dir).unwrap();
}

// ---- Final Fantasy XIII `.wdb` ----

/// What `wdb_oracle.py` prints for `file`: run live when python3 is on the machine, otherwise the
/// oracle's committed output beside the samples (`expected`, if given). `None`: neither available.
fn oracle(file: &Path, expected: Option<PathBuf>) -> Option<serde_json::Value> {
    let script = root().join("../shared/oracles/wdb_oracle.py");
    if script.exists()
        && let Ok(out) = Command::new("python3").arg(&script).arg(file).output()
    {
        assert!(
            out.status.success(),
            "oracle on {}: {}",
            file.display(),
            stderr(&out)
        );
        return Some(serde_json::from_slice(&out.stdout).unwrap());
    }
    let expected = expected?;
    eprintln!(
        "python3 or the oracle is missing: comparing with {}",
        expected.display()
    );
    Some(serde_json::from_str(&std::fs::read_to_string(expected).unwrap()).unwrap())
}

fn dump_json(file: &Path) -> serde_json::Value {
    let out = gamebin(&["dump", "--json", file.to_str().unwrap()]);
    assert!(out.status.success(), "{}: {}", file.display(), stderr(&out));
    serde_json::from_str(&stdout(&out)).unwrap()
}

/// Asserts equality key by key, in the oracle's key order, so a failure names the first
/// difference. Our two keys after `records` (the `!!string` pool and the string arrays' items,
/// for byte-identical repacks) are not the oracle's and are left out.
fn assert_same_json(ours: &serde_json::Value, want: &serde_json::Value, what: &str) {
    let (mut ours, mut want) = (ours.clone(), want.clone());
    for doc in [&mut ours, &mut want] {
        let doc = doc.as_object_mut().unwrap();
        doc.remove("!!string");
        doc.remove("!!strArray");
    }
    let (o, w) = (ours.as_object().unwrap(), want.as_object().unwrap());
    assert_eq!(
        o.keys().collect::<Vec<_>>(),
        w.keys().collect::<Vec<_>>(),
        "{what}: keys"
    );
    for (key, value) in w {
        if key == "records" {
            let (ro, rw) = (o[key].as_array().unwrap(), value.as_array().unwrap());
            assert_eq!(ro.len(), rw.len(), "{what}: record count");
            for (a, b) in ro.iter().zip(rw) {
                assert_eq!(a, b, "{what}: record {}", b["record"]);
            }
        } else {
            assert_eq!(&o[key], value, "{what}: {key}");
        }
    }
}

fn wdb_samples() -> Option<Vec<(PathBuf, PathBuf)>> {
    let Some(samples) = std::env::var_os("GAMEBIN_SAMPLES") else {
        eprintln!("skipped the real samples: GAMEBIN_SAMPLES is not set");
        return None;
    };
    let dir = PathBuf::from(samples).join("ff13-wdb");
    let mut files = Vec::new();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "wdb") {
            let stem = path.file_stem().unwrap().to_str().unwrap().to_string();
            files.push((
                path,
                dir.join("expected").join(format!("{stem}.oracle.json")),
            ));
        }
    }
    files.sort();
    assert!(files.len() >= 2);
    Some(files)
}

#[test]
#[ignore = "needs GAMEBIN_SAMPLES (real files): GAMEBIN_SAMPLES=../shared/samples cargo test -- --include-ignored"]
fn wdb_dump_json_equals_the_oracle_on_the_samples() {
    at_repository_root();
    let files = wdb_samples().expect(
        "GAMEBIN_SAMPLES is not set: this test reads the real samples (run it with \
         GAMEBIN_SAMPLES=../shared/samples cargo test -- --include-ignored)",
    );
    for (file, expected) in files {
        let want = oracle(&file, Some(expected)).unwrap();
        assert_same_json(&dump_json(&file), &want, &file.display().to_string());
    }
}

#[test]
fn wdb_dump_json_equals_the_oracle_on_the_fixtures() {
    at_repository_root();
    for name in fixtures().iter().filter(|f| f.starts_with("ff13-wdb/")) {
        let file = root().join("fixtures").join(name);
        let Some(want) = oracle(&file, None) else {
            eprintln!("skipped {name}: no python3");
            continue;
        };
        assert_same_json(&dump_json(&file), &want, name);
    }
}

#[test]
fn wdb_pack_reads_back_to_the_same_json() {
    at_repository_root();
    let dir = std::env::temp_dir().join(format!("gamebin-wdb-pack-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut inputs: Vec<PathBuf> = fixtures()
        .iter()
        .filter(|f| f.starts_with("ff13-wdb/"))
        .map(|f| root().join("fixtures").join(f))
        .collect();
    if let Some(files) = wdb_samples() {
        inputs.extend(files.into_iter().map(|(f, _)| f));
    }
    for file in inputs {
        let name = file.file_name().unwrap().to_str().unwrap();
        let before = dump_json(&file);
        let json = dir.join(format!("{name}.json"));
        std::fs::write(&json, serde_json::to_string(&before).unwrap()).unwrap();
        let packed = dir.join(name);
        let out = gamebin(&[
            "wdb",
            "pack",
            json.to_str().unwrap(),
            "-o",
            packed.to_str().unwrap(),
        ]);
        assert!(out.status.success(), "{name}: {}", stderr(&out));
        assert_same_json(&dump_json(&packed), &before, name);
        // Every file, real or made by the writer, comes back byte for byte (the dump carries
        // the `!!string` pool and the string arrays as stored).
        assert!(
            std::fs::read(&packed).unwrap() == std::fs::read(&file).unwrap(),
            "{name}: JSON -> .wdb is not byte-identical"
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn wdb_pack_errors_name_record_and_field() {
    at_repository_root();
    let dir = std::env::temp_dir().join(format!("gamebin-wdb-bad-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut doc = dump_json(&root().join("fixtures/ff13-wdb/items.wdb"));
    doc["records"][1]["u4Kind"] = serde_json::json!(16);
    let json = dir.join("bad.json");
    std::fs::write(&json, doc.to_string()).unwrap();
    let out = gamebin(&[
        "wdb",
        "pack",
        json.to_str().unwrap(),
        "-o",
        dir.join("x.wdb").to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(
        err.contains("].u4Kind: ") && err.contains("16 does not fit 4 unsigned bits"),
        "{err}"
    );
    assert!(
        err.contains(&format!("record {}", doc["records"][1]["record"])),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn wdb_info_json_has_the_documented_keys() {
    at_repository_root();
    let out = gamebin(&["info", "--json", "fixtures/ff13-wdb"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let lines: Vec<serde_json::Value> = stdout(&out)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 5);
    let keys = [
        "path",
        "format",
        "game",
        "sheet",
        "records",
        "fields",
        "record_size",
        "sections",
    ];
    for line in &lines {
        let object = line.as_object().unwrap();
        assert_eq!(object.keys().count(), keys.len(), "{line}");
        for key in keys {
            assert!(object.contains_key(key), "{key} missing in {line}");
        }
        assert_eq!(line["format"], "ff13-wdb");
    }
    let items = lines
        .iter()
        .find(|l| l["path"].as_str().unwrap().ends_with("items.wdb"))
        .unwrap();
    // What the writer was told: 4 records, 6 fields over 4 cells.
    assert_eq!(
        (
            &items["game"],
            &items["sheet"],
            &items["records"],
            &items["fields"],
            &items["record_size"]
        ),
        (
            &serde_json::json!("xiii-2/lr"),
            &serde_json::json!("ItemTable"),
            &serde_json::json!(4),
            &serde_json::json!(6),
            &serde_json::json!(16)
        )
    );
    let xiii1 = lines
        .iter()
        .find(|l| l["path"].as_str().unwrap().ends_with("xiii1_cells.wdb"))
        .unwrap();
    assert_eq!(xiii1["game"], "xiii");
    assert_eq!(xiii1["sheet"], serde_json::Value::Null);
    assert_eq!(
        xiii1["sections"],
        serde_json::json!(["!!string", "!!strtypelist", "!!typelist", "!!version"])
    );
}

#[test]
fn wdb_json_with_supplied_field_names() {
    at_repository_root();
    let out = gamebin(&[
        "wdb",
        "json",
        "fixtures/ff13-wdb/xiii1_cells.wdb",
        "--fields",
        "u1QuickPop,i5attribute,u26Rest,fSpeed,sName,uPower,uBits",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let doc: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(doc["isKnown"], true);
    let fire = doc["records"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["record"] == "ab_fire")
        .unwrap();
    assert_eq!(
        (&fire["i5attribute"], &fire["sName"]),
        (&serde_json::json!(-1), &serde_json::json!("Fire"))
    );
}

#[test]
fn wwd_info_json_has_the_documented_keys() {
    at_repository_root();
    let out = gamebin(&["info", "--json", "fixtures/wap32-wwd"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let lines: Vec<serde_json::Value> = stdout(&out)
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 6);
    let keys = [
        "path",
        "format",
        "game",
        "compressed",
        "planes",
        "main_block_length",
        "objects",
        "tile_properties",
        "tile_property_types",
        "checksum",
        "wapmap_meta",
    ];
    for line in &lines {
        let object = line.as_object().unwrap();
        assert_eq!(object.len(), keys.len(), "{line}");
        for key in keys {
            assert!(object.contains_key(key), "{key} missing in {line}");
        }
        assert_eq!(line["format"], "wap32-wwd");
        let types = line["tile_property_types"].as_object().unwrap();
        assert_eq!(types.keys().collect::<Vec<_>>(), ["1", "2", "3"]);
        let checksum = line["checksum"].as_object().unwrap();
        assert_eq!(
            checksum.keys().collect::<Vec<_>>(),
            ["residual", "stored", "verdict"]
        );
    }
    let claw = lines
        .iter()
        .find(|l| l["path"].as_str().unwrap().ends_with("claw_small.wwd"))
        .unwrap();
    // What the writer was told: claw_level(24, 12, 9), 14 tile properties (two double, one mask).
    assert_eq!(claw["game"], "Claw");
    assert_eq!(claw["compressed"], true);
    assert_eq!(claw["planes"], 3);
    assert_eq!(claw["objects"], 9);
    assert_eq!(claw["tile_properties"], 14);
    assert_eq!(claw["tile_property_types"]["2"], 2);
    assert_eq!(claw["tile_property_types"]["3"], 1);
    assert_eq!(claw["checksum"]["verdict"], "wapmap");
    // zlib streams start with 0x78, 40 below WapMap's constant 160.
    assert_eq!(claw["checksum"]["residual"], -40);
    assert!(claw["wapmap_meta"].is_null());
    // The level WapMap's metadata follows: what the writer was told (wapmap_meta_data()), where
    // WapMap's layout puts it, and the checksum still WapMap's over the main block alone.
    let wapmap = lines
        .iter()
        .find(|l| {
            l["path"]
                .as_str()
                .unwrap()
                .ends_with("claw_small_wapmap.wwd")
        })
        .unwrap();
    let file = std::fs::read("fixtures/wap32-wwd/claw_small_wapmap.wwd").unwrap();
    let meta = &wapmap["wapmap_meta"];
    // 9 + 9 + (5 + 4 + "0.3.1\0" + 4 + "1.0\0" + "Saved by WapMap\0") + (5 + 4 + 2 × 5) + 9 + 10.
    assert_eq!(meta["length"], 95);
    assert_eq!(meta["offset"], file.len() - 95);
    assert_eq!(meta["wapmap_build"], 30);
    assert_eq!(meta["wapmap_version"], "0.3.1");
    assert_eq!(meta["map_build"], 2);
    assert_eq!(meta["map_version"], "1.0");
    assert_eq!(meta["map_description"], "Saved by WapMap");
    assert_eq!(meta["guides"], 2);
    assert_eq!(wapmap["checksum"]["verdict"], "wapmap");
    assert_eq!(wapmap["checksum"]["residual"], -40);
    assert_eq!(wapmap["objects"], 9);
}

#[test]
fn wwd_a_damaged_wapmap_block_fails_with_its_offset() {
    at_repository_root();
    let dir = temp_dir("wapmap-meta");
    let good = std::fs::read("fixtures/wap32-wwd/claw_small_wapmap.wwd").unwrap();
    let cut = dir.join("cut.wwd");
    std::fs::write(&cut, &good[..good.len() - 20]).unwrap();
    let long = dir.join("long.wwd");
    std::fs::write(&long, [&good[..], b"garbage"].concat()).unwrap();
    for (path, what) in [(&cut, "WapMapMeta.block.data"), (&long, "WapMapMeta")] {
        let out = gamebin(&["info", path.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
        let err = stderr(&out);
        assert!(err.contains(&format!(": {what}: ")), "{err}");
        assert!(!err.contains("panicked"), "{err}");
    }
    let err = stderr(&gamebin(&["dump", "--json", long.to_str().unwrap()]));
    assert!(
        err.contains(&format!(
            "at {:#010x}: WapMapMeta: invalid value 7",
            good.len()
        )),
        "{err}"
    );
}

#[test]
#[ignore = "needs GAMEBIN_SAMPLES (real files): GAMEBIN_SAMPLES=../shared/samples cargo test -- --include-ignored"]
fn wwd_info_on_real_samples_matches_expected_tsv() {
    at_repository_root();
    let samples = std::env::var_os("GAMEBIN_SAMPLES").expect("GAMEBIN_SAMPLES is not set: this test reads the real samples (run it with GAMEBIN_SAMPLES=../shared/samples cargo test -- --include-ignored)");
    let path = Path::new(&samples).join("wap32-wwd/claw_libwap32_ParadiseCove.wwd");
    let out = gamebin(&["info", "--json", path.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    let info: serde_json::Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    // EXPECTED.tsv: 3 planes, 885108 bytes, 754 objects, {"1":816,"2":111,"3":1}, 0xf9aa1ffc, 255.
    assert_eq!(info["planes"], 3);
    assert_eq!(info["main_block_length"], 885108);
    assert_eq!(info["objects"], 754);
    assert_eq!(info["tile_properties"], 928);
    assert_eq!(info["tile_property_types"]["2"], 111);
    assert_eq!(info["tile_property_types"]["3"], 1);
    assert_eq!(info["checksum"]["stored"], 0xf9aa1ffcu32);
    assert_eq!(info["checksum"]["verdict"], "seed+residual");
    assert_eq!(info["checksum"]["residual"], 255);
    // A badly signed level named .wwd is reported with the reader's error, exit status 1.
    let bad = Path::new(&samples).join("wap32-wwd/claw_libwap32_RETAIL01_badsig.WWD");
    let out = gamebin(&["info", bad.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("WwdHeader.signature: bad magic"),
        "{}",
        stderr(&out)
    );
}

/// Width and height from a PNG's IHDR chunk.
fn png_size(data: &[u8]) -> (u32, u32) {
    assert_eq!(&data[..8], b"\x89PNG\r\n\x1a\n");
    assert_eq!(&data[12..16], b"IHDR");
    let w = u32::from_be_bytes(data[16..20].try_into().unwrap());
    let h = u32::from_be_bytes(data[20..24].try_into().unwrap());
    (w, h)
}

#[test]
fn wwd_render_writes_a_png_of_the_plane() {
    at_repository_root();
    let dir = std::env::temp_dir().join(format!("gamebin-render-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let png = dir.join("map.png");
    let out = gamebin(&[
        "wwd",
        "render",
        "fixtures/wap32-wwd/claw_small.wwd",
        "--scale",
        "16",
        "-o",
        png.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let (w, h) = png_size(&std::fs::read(&png).unwrap());
    // 24x12 tiles at 16 px, plus the legend underneath.
    assert_eq!(w, 24 * 16);
    assert!(h > 12 * 16, "{h}");
    let out = gamebin(&[
        "wwd",
        "render",
        "fixtures/wap32-wwd/claw_small.wwd",
        "--plane",
        "background",
        "-o",
        png.to_str().unwrap(),
        "--force",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let out = gamebin(&[
        "wwd",
        "render",
        "fixtures/wap32-wwd/claw_small.wwd",
        "--plane",
        "Nope",
        "-o",
        png.to_str().unwrap(),
        "--force",
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("no plane named \"Nope\""),
        "{}",
        stderr(&out)
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn wwd_render_crops_to_the_part_in_use() {
    at_repository_root();
    use gamebin::wwd::model::{ObjectData, PlaneData, WwdModel, tile};
    use gamebin::wwd::{PlaneFlags, Tile};

    let dir = temp_dir("crop");
    // A 40x30-tile main plane of 64-px tiles, invisible but for two tiles and an object.
    let mut level = WwdModel::new("Crop", "gamebin");
    let mut action = PlaneData::new("Action", PlaneFlags::MAIN, 64, 40, 30, Tile::INVISIBLE);
    action.set(10, 5, tile(0, 1));
    action.set(20, 12, Tile::FILLED);
    // Pixel (1500, 1000) is in tile (1500 / 64, 1000 / 64) = (23, 15).
    action
        .objects
        .push(ObjectData::new(1, "Officer", 1500, 1000));
    level.planes.push(action.clone());
    let used = dir.join("used.wwd");
    std::fs::write(&used, level.to_compressed().unwrap()).unwrap();
    // The same with one more object left of and below the grid, which counts at the nearest edge
    // tile (0, 29).
    action
        .objects
        .push(ObjectData::new(2, "Officer", -5, 99_999));
    level.planes[0] = action;
    let edge = dir.join("edge.wwd");
    std::fs::write(&edge, level.to_uncompressed().unwrap()).unwrap();

    let png = dir.join("map.png");
    let render = |file: &Path, extra: &[&str]| {
        let mut args = vec!["wwd", "render", file.to_str().unwrap(), "--scale", "32"];
        args.extend_from_slice(extra);
        args.extend_from_slice(&["-o", png.to_str().unwrap(), "--force"]);
        let out = gamebin(&args);
        assert!(out.status.success(), "{}", stderr(&out));
        (png_size(&std::fs::read(&png).unwrap()), stderr(&out))
    };
    // Used: columns 10..=23, rows 5..=15; with the 2-tile margin columns 8..=25 (18) and rows
    // 3..=17 (15). At 32 px: 576 x 480, plus the legend: 7 lines of 7 font pixels of
    // max(576 / 960, 2) = 2 canvas pixels, plus 12, = 110.
    let ((w, h), said) = render(&used, &[]);
    assert_eq!((w, h), (18 * 32, 15 * 32 + 110), "{said}");
    assert!(said.contains("tiles x 8-25 y 3-17 of 40x30"), "{said}");
    // The whole plane: 1280 x 960 plus the same legend (1280 / 960 = 1, raised to 2).
    let ((w, h), said) = render(&used, &["--no-crop"]);
    assert_eq!((w, h), (40 * 32, 30 * 32 + 110), "{said}");
    assert!(said.contains("tiles x 0-39 y 0-29 of 40x30"), "{said}");
    // Columns 0..=23, rows 5..=29; the margin stops at the grid: columns 0..=25, rows 3..=29.
    let ((w, h), said) = render(&edge, &[]);
    assert_eq!((w, h), (26 * 32, 27 * 32 + 110), "{said}");
    assert!(said.contains("tiles x 0-25 y 3-29 of 40x30"), "{said}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn wwd_ignore_signature_reads_a_badly_signed_level() {
    at_repository_root();
    let dir = temp_dir("badsig");
    let level = gamebin::synth::wwd::claw_level(6, 4, 2);
    let mut data = level.to_compressed().unwrap();
    data[..4].copy_from_slice(&0xADBAu32.to_le_bytes());
    let bad = dir.join("bad.wwd");
    std::fs::write(&bad, &data).unwrap();
    let bad = bad.to_str().unwrap();
    let png = dir.join("map.png");
    let png = png.to_str().unwrap();
    let runs: [&[&str]; 3] = [
        &["info", "--json", bad],
        &["dump", "--json", bad],
        &["wwd", "render", bad, "-o", png],
    ];
    for args in runs {
        // Without the flag: the reader's error, exit status 1.
        let out = gamebin(args);
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        assert!(
            stderr(&out).contains("WwdHeader.signature: bad magic: expected 0x5f4, found 0xadba"),
            "{args:?}: {}",
            stderr(&out)
        );
        // With it: read as usual.
        let mut args = args.to_vec();
        args.insert(1 + usize::from(args[0] == "wwd"), "--ignore-signature");
        let out = gamebin(&args);
        assert!(out.status.success(), "{args:?}: {}", stderr(&out));
    }
    let out = gamebin(&["info", "--json", "--ignore-signature", bad]);
    let info: serde_json::Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    // What the writer was told: claw_level(6, 4, 2), compressed.
    assert_eq!(info["planes"], 3);
    assert_eq!(info["objects"], 2);
    assert_eq!(info["compressed"], true);
    let out = gamebin(&["dump", "--json", "--ignore-signature", bad]);
    let dump: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(dump["signature_ok"], false);
    assert_eq!(dump["level"]["header"]["signature"], 0xADBA);
    // In a directory too: the damaged level is known by its .wwd name.
    std::fs::copy("fixtures/wap32-wwd/claw_small.wwd", dir.join("good.wwd")).unwrap();
    let d = dir.to_str().unwrap();
    let out = gamebin(&["info", d]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(stdout(&out).lines().count(), 1);
    let out = gamebin(&["info", "--ignore-signature", d]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout(&out).lines().count(), 2);
    let help = stdout(&gamebin(&["info", "--help"]));
    assert!(help.contains("--ignore-signature"), "{help}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
#[ignore = "needs GAMEBIN_SAMPLES (real files): GAMEBIN_SAMPLES=../shared/samples cargo test -- --include-ignored"]
fn wwd_ignore_signature_reads_the_real_badly_signed_sample() {
    at_repository_root();
    // The real badly signed sample reads as the original it was made from.
    let samples = std::env::var_os("GAMEBIN_SAMPLES").expect("GAMEBIN_SAMPLES is not set: this test reads the real samples (run it with GAMEBIN_SAMPLES=../shared/samples cargo test -- --include-ignored)");
    let dir = Path::new(&samples).join("wap32-wwd");
    let info = |name: &str| {
        let path = dir.join(name);
        let out = gamebin(&[
            "info",
            "--json",
            "--ignore-signature",
            path.to_str().unwrap(),
        ]);
        assert!(out.status.success(), "{}", stderr(&out));
        let mut info: serde_json::Value = serde_json::from_str(stdout(&out).trim()).unwrap();
        info.as_object_mut().unwrap().remove("path");
        info
    };
    let original = info("claw_libwap32_RETAIL01.WWD");
    assert_eq!(info("claw_libwap32_RETAIL01_badsig.WWD"), original);
    // EXPECTED.tsv: 647102 bytes inflated, 1479 objects.
    assert_eq!(original["main_block_length"], 647102);
    assert_eq!(original["objects"], 1479);
}

#[test]
fn assets_info_json_has_the_keys_the_issue_lists() {
    at_repository_root();
    let out = gamebin(&["info", "--json", "fixtures/wows-assets"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let lines: Vec<serde_json::Value> = stdout(&out)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 2);
    for line in &lines {
        let mut keys: Vec<_> = line.as_object().unwrap().keys().cloned().collect();
        keys.sort();
        assert_eq!(
            keys,
            [
                "checksum",
                "databases",
                "deleted",
                "format",
                "path",
                "paths",
                "prototypes",
                "strings"
            ]
        );
        assert_eq!(line["format"], "wows-assets");
        // The writers' specs: all_prototypes holds ten live records; legacy_layouts two live
        // records and one entry marked deleted (`AssetsBuilder::deleted`).
        let path = line["path"].as_str().unwrap();
        let expected = if path.ends_with("legacy_layouts.assets.bin") {
            (2, 1)
        } else {
            (10, 0)
        };
        assert_eq!(
            (line["prototypes"].as_u64(), line["deleted"].as_u64()),
            (Some(expected.0), Some(expected.1)),
            "{path}"
        );
        for d in line["databases"].as_array().unwrap() {
            let mut keys: Vec<_> = d.as_object().unwrap().keys().cloned().collect();
            keys.sort();
            assert_eq!(keys, ["item_size", "name", "records", "schema_hash"]);
        }
        let mut keys: Vec<_> = line["checksum"]
            .as_object()
            .unwrap()
            .keys()
            .cloned()
            .collect();
        keys.sort();
        assert_eq!(keys, ["matches", "stored"]);
    }
    // The legacy fixture was written with CRC32, an 11th database of unknown magic and the older
    // model layout; the other with MurmurHash3 and one record of each type.
    let legacy = &lines[1];
    assert_eq!(legacy["checksum"]["matches"], "crc32");
    assert_eq!(legacy["databases"].as_array().unwrap().len(), 11);
    assert_eq!(legacy["databases"][3]["item_size"], 0x20);
    assert_eq!(
        legacy["databases"][10]["item_size"],
        serde_json::Value::Null
    );
    // Two live entries and one deleted (three occupied slots).
    assert_eq!(legacy["prototypes"], 2);
    let all = &lines[0];
    assert_eq!(all["checksum"]["matches"], "murmur3");
    assert_eq!(all["prototypes"], 10);
    assert!(
        all["databases"]
            .as_array()
            .unwrap()
            .iter()
            .all(|d| d["records"] == 1)
    );
}

#[test]
#[ignore = "needs GAMEBIN_SAMPLES (real files): GAMEBIN_SAMPLES=../shared/samples cargo test -- --include-ignored"]
fn assets_info_on_the_sample_reports_its_sources_values() {
    at_repository_root();
    let dir = std::env::var_os("GAMEBIN_SAMPLES").expect("GAMEBIN_SAMPLES is not set: this test reads the real samples (run it with GAMEBIN_SAMPLES=../shared/samples cargo test -- --include-ignored)");
    let path = Path::new(&dir).join("wows-assets/minimal_synthetic_assets.bin");
    let out = gamebin(&["info", "--json", path.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    let info: serde_json::Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    assert_eq!(info["strings"], 5);
    assert_eq!(info["paths"], 6);
    assert_eq!(info["prototypes"], 3);
    assert_eq!(info["databases"].as_array().unwrap().len(), 10);
    assert_eq!(info["databases"][1]["name"], "VisualPrototype");
    assert_eq!(info["checksum"]["matches"], "murmur3");

    // Ids here are not path hashes: `get` by path falls back to walking the path table.
    let out = gamebin(&[
        "assets",
        "get",
        path.to_str().unwrap(),
        "content/gameplay/Test.visual",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(v["id"], "0x0000000000003333");
    assert_eq!(
        v["prototype"]["render_sets"][0]["vertices_mapping_id"],
        "0xc301017c"
    );
    assert_eq!(v["prototype"]["nodes"][1]["name"], "HP_Test");
}

#[test]
fn assets_get_and_ls() {
    at_repository_root();
    let file = "fixtures/wows-assets/all_prototypes.assets.bin";
    let out = gamebin(&["assets", "get", file, "res/content/gameplay/Test.mfm"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(v["path"], "content/gameplay/Test.mfm");
    assert_eq!(v["prototype"]["type"], "MaterialPrototype");
    assert_eq!(v["prototype"]["properties"][0]["name"], "diffuseMap");
    assert_eq!(
        v["prototype"]["properties"][0]["value"],
        "0xdeadbeefcafef00d"
    );
    let id = v["id"].as_str().unwrap().to_string();
    let by_id = gamebin(&["assets", "get", file, &id]);
    assert_eq!(stdout(&by_id), stdout(&out));

    let out = gamebin(&["assets", "get", file, "content/nothing"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("no path"), "{}", stderr(&out));

    let out = gamebin(&["assets", "ls", file, "content/effects"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let lines: Vec<String> = stdout(&out).lines().map(str::to_string).collect();
    let kinds: Vec<(&str, &str)> = lines
        .iter()
        .map(|l| {
            let mut f = l.split('\t');
            let _id = f.next().unwrap();
            (f.next().unwrap(), f.next().unwrap())
        })
        .collect();
    assert!(kinds.contains(&("-", "content/effects")));
    assert!(kinds.contains(&("EffectPrototype", "content/effects/fire.effect")));
    assert!(kinds.contains(&("VelocityFieldPrototype", "content/effects/wind.vfield")));
    assert_eq!(kinds.len(), 5);
    let all = gamebin(&["assets", "ls", file]);
    assert_eq!(stdout(&all).lines().count(), 16);
}

#[test]
fn synth_small_is_deterministic_and_reads() {
    at_repository_root();
    let dir = std::env::temp_dir().join(format!("gamebin-synth-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let a = dir.join("a.bin");
    let b = dir.join("b.bin");
    for p in [&a, &b] {
        let out = gamebin(&[
            "synth",
            "assets",
            "--scale",
            "small",
            "-o",
            p.to_str().unwrap(),
        ]);
        assert!(out.status.success(), "{}", stderr(&out));
    }
    assert_eq!(std::fs::read(&a).unwrap(), std::fs::read(&b).unwrap());
    let out = gamebin(&["info", "--json", a.to_str().unwrap()]);
    let info: serde_json::Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    assert_eq!(info["paths"], 2461);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn wdata_info_json_has_the_issues_keys() {
    at_repository_root();
    let out = gamebin(&["info", "--json", "fixtures/rusty-hearts-wdata"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let lines: Vec<serde_json::Value> = stdout(&out)
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 20);
    let keys = [
        "path",
        "format",
        "version",
        "event_box_version",
        "event_boxes",
        "event_boxes_by_type",
        "anibg",
        "item_boxes",
        "gimmicks",
        "trigger_layout",
        "triggers",
        "scenes",
        "scene_resources",
    ];
    for line in &lines {
        let object = line.as_object().unwrap();
        assert_eq!(object.len(), keys.len(), "{line}");
        for key in keys {
            assert!(object.contains_key(key), "{key} missing in {line}");
        }
        assert_eq!(line["format"], "rusty-hearts-wdata");
    }
    // What the writer was told for v22-all-event-boxes: EventBox version 9, every type but 14
    // (two CameraBoxes), one AniBG, ItemBox and Gimmick, the script lists (1 + 0 + 2 paths), two
    // scenes and two scene resources.
    let v22 = lines
        .iter()
        .find(|l| {
            l["path"]
                .as_str()
                .unwrap()
                .ends_with("v22-all-event-boxes.wdata")
        })
        .unwrap();
    assert_eq!(v22["version"], 22);
    assert_eq!(v22["event_box_version"], 9);
    assert_eq!(v22["event_boxes"], 19);
    let by_type = v22["event_boxes_by_type"].as_object().unwrap();
    assert_eq!(by_type.len(), 19);
    assert_eq!(by_type["CameraBox"], 2);
    assert_eq!(by_type["NpcBox"], 1);
    assert_eq!(by_type["UnusedBox"], 0);
    assert_eq!(by_type["ObstacleBox"], 1);
    assert_eq!(
        (
            v22["anibg"].as_u64(),
            v22["item_boxes"].as_u64(),
            v22["gimmicks"].as_u64()
        ),
        (Some(1), Some(1), Some(1))
    );
    assert_eq!(v22["trigger_layout"], "script-paths");
    assert_eq!(v22["triggers"], 3);
    assert_eq!(
        (v22["scenes"].as_u64(), v22["scene_resources"].as_u64()),
        (Some(2), Some(2))
    );
    let v1 = lines
        .iter()
        .find(|l| l["path"].as_str().unwrap().ends_with("v01-minimal.wdata"))
        .unwrap();
    assert_eq!(v1["event_box_version"], serde_json::Value::Null);
    assert_eq!(v1["event_boxes_by_type"], serde_json::json!({}));
    assert_eq!(v1["trigger_layout"], "trigger-list");
}

#[test]
fn wdata_dump_json_has_every_name_as_text() {
    at_repository_root();
    let dump = dump_json(&root().join("fixtures/rusty-hearts-wdata/v22-all-event-boxes.wdata"));
    assert_eq!(dump["format"], "rusty-hearts-wdata");
    // Every stored code unit, the signature's trailing NUL too (`wdata pack` writes it back).
    assert_eq!(dump["signature"], "stairwaygames.\u{0}");
    assert_eq!(dump["model_path"], "map\\v22.mmp");
    // The "no path" sentinel shows as stored.
    assert_eq!(dump["event_box_path"], ".\\");
    let boxes = dump["event_boxes"].as_object().unwrap();
    // `type_count` and one entry per type, keyed by the format's names in type order.
    assert_eq!(boxes.len(), 1 + 19);
    assert_eq!(boxes["type_count"], 19);
    // (`Value` sorts keys; the printed JSON keeps type order.)
    let text = stdout(&gamebin(&[
        "dump",
        "--json",
        "fixtures/rusty-hearts-wdata/v22-all-event-boxes.wdata",
    ]));
    let at = |key: &str| text.find(&format!("\"{key}\": [")).unwrap();
    assert!(at("CameraBox") < at("NpcBox") && at("NpcBox") < at("ObstacleBox"));
    assert_eq!(boxes["NpcBox"][0]["obb"]["name"], "NpcBox60");
    assert_eq!(boxes["CameraBox"].as_array().unwrap().len(), 2);
    // Type 14 has no known layout: its count and bytes in hex.
    assert!(boxes["UnusedBox"]["raw_hex"].is_string());
    assert_eq!(
        dump["event_box_offsets"].as_object().unwrap().len(),
        19,
        "one offset per index entry"
    );
    assert_eq!(dump["trigger_layout"], "script-paths");
    assert_eq!(dump["triggers"]["main_script"], "main.lua");
    assert_eq!(
        dump["triggers"]["script_lists"]["event_scripts"],
        serde_json::json!(["event\\a.lua"])
    );
    assert_eq!(dump["moc_path"], "cut\\intro.moc");
}

#[test]
fn wdata_dump_json_shows_bools_and_omits_what_the_version_does_not_store() {
    at_repository_root();
    // v01 stores none of the version-gated header fields: they are absent, not null.
    let v1 = dump_json(&root().join("fixtures/rusty-hearts-wdata/v01-minimal.wdata"));
    for key in [
        "event_box_version",
        "nav_height_path",
        "obstacle_path",
        "event_boxes",
    ] {
        assert!(v1.get(key).is_none(), "{key} present in {v1}");
    }
    assert!(v1.get("version").is_some());
    let v22 = dump_json(&root().join("fixtures/rusty-hearts-wdata/v22-all-event-boxes.wdata"));
    let info = &v22["event_boxes"]["CameraBox"][0]["infos"];
    // The fixture builder stores 1 in the first three BuildPVS flags and 2 in the fourth: a 0/1
    // flag reads as a JSON boolean, any other stored value as that number.
    assert_eq!(info[0]["build_pvs"], true);
    assert_eq!(info[3]["build_pvs"], 2);
}

#[test]
fn a_damaged_wdata_reports_the_readers_error_and_a_model_file_is_skipped() {
    at_repository_root();
    let dir = std::env::temp_dir().join(format!("gamebin-cli-wdata-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let good =
        std::fs::read(root().join("fixtures/rusty-hearts-wdata/v09-ev3-peer-triggers.wdata"))
            .unwrap();
    let damaged = dir.join("town.wdata");
    std::fs::write(&damaged, &good[..good.len() - 3]).unwrap();
    let out = gamebin(&["info", damaged.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    // The header reads, so content detection names the format and the reader says where it fails.
    assert!(stderr(&out).contains("Triggers.layout"), "{}", stderr(&out));
    assert!(stderr(&out).contains("at 0x"), "{}", stderr(&out));
    // A damaged signature: content detection fails, the name picks the reader, which says why.
    let mut bad = good.clone();
    bad[2] = b'S';
    std::fs::write(&damaged, &bad).unwrap();
    let out = gamebin(&["info", damaged.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(
        err.contains("named .wdata but does not read as one"),
        "{err}"
    );
    assert!(err.contains("Header.Signature"), "{err}");
    // A model file shares the signature, but its second string is no .mmp: not a map.
    std::fs::remove_file(&damaged).unwrap();
    let mut mdata = Vec::new();
    for s in ["stairwaygames.\0", "mesh\\sword.mdata"] {
        let units: Vec<u16> = s.encode_utf16().collect();
        mdata.extend_from_slice(&(units.len() as u16).to_le_bytes());
        units
            .iter()
            .for_each(|u| mdata.extend_from_slice(&u.to_le_bytes()));
        if s.starts_with("stair") {
            mdata.extend_from_slice(&3i32.to_le_bytes());
        }
    }
    std::fs::write(dir.join("sword.mdata"), &mdata).unwrap();
    let out = gamebin(&["info", dir.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stderr(&out).contains("skipped 1 file"), "{}", stderr(&out));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn wdb_sheets_pack_back_and_a_bad_edit_writes_nothing() {
    at_repository_root();
    let dir = std::env::temp_dir().join(format!("gamebin-wdb-sheet-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let input = root().join("fixtures/ff13-wdb/string_arrays.wdb");
    for kind in ["csv", "xlsx"] {
        let sheet = dir.join(format!("a.{kind}"));
        let packed = dir.join(format!("a.{kind}.wdb"));
        let out = gamebin(&[
            "wdb",
            kind,
            input.to_str().unwrap(),
            "-o",
            sheet.to_str().unwrap(),
        ]);
        assert!(out.status.success(), "{kind}: {}", stderr(&out));
        // An existing output is not replaced without --force.
        let out = gamebin(&[
            "wdb",
            kind,
            input.to_str().unwrap(),
            "-o",
            sheet.to_str().unwrap(),
        ]);
        assert_eq!(out.status.code(), Some(1));
        assert!(stderr(&out).contains("--force"), "{}", stderr(&out));
        let out = gamebin(&[
            "wdb",
            "pack",
            sheet.to_str().unwrap(),
            "-o",
            packed.to_str().unwrap(),
        ]);
        assert!(out.status.success(), "{kind}: {}", stderr(&out));
        assert_eq!(
            std::fs::read(&packed).unwrap(),
            std::fs::read(&input).unwrap(),
            "{kind}"
        );
    }
    // A CSV edit whose value does not fit: the error names the record and the field, and no
    // file is written.
    let csv = std::fs::read_to_string(dir.join("a.csv")).unwrap();
    let bad = csv.replacen(
        "a1,second,shield,icon_b,524287",
        "a1,second,shield,icon_b,524288",
        1,
    );
    assert_ne!(bad, csv);
    std::fs::write(dir.join("bad.csv"), bad).unwrap();
    let target = dir.join("bad.wdb");
    let out = gamebin(&[
        "wdb",
        "pack",
        dir.join("bad.csv").to_str().unwrap(),
        "-o",
        target.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(
        err.contains("record \"a1\"")
            && err.contains("].i20Rest: ")
            && err.contains("524288 does not fit 20 signed bits"),
        "{err}"
    );
    assert!(!target.exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn wdb_fields_from_an_xiii2_file_of_the_same_layout() {
    at_repository_root();
    use gamebin::synth::wdb::xiii1_table;
    use gamebin::wdb::model::TableValue;
    let dir = std::env::temp_dir().join(format!("gamebin-wdb-from-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // An XIII-2 file of the same sheet: the XIII-1 fixture's type list, with field names.
    let names = ["uBits", "fRate", "sName", "uCount", "uLast"];
    let mut named = xiii1_table();
    named.field_names = Some(names.iter().map(|s| s.to_string()).collect());
    named.write_field_names = true;
    let other = dir.join("named.wdb");
    std::fs::write(&other, named.to_bytes().unwrap()).unwrap();
    let xiii1 = root().join("fixtures/ff13-wdb/xiii1_cells.wdb");
    let out = gamebin(&[
        "wdb",
        "json",
        xiii1.to_str().unwrap(),
        "--fields-from",
        other.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let doc: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(doc["isKnown"], true);
    for record in xiii1_table().records {
        let got = doc["records"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["record"] == record.name.as_str())
            .unwrap();
        for (name, value) in names.iter().zip(&record.values) {
            let want = match value {
                TableValue::UInt(u) => serde_json::json!(u),
                TableValue::Float(f) => serde_json::json!(f64::from(*f)),
                TableValue::Str(s) => serde_json::json!(s),
                TableValue::Int(i) => serde_json::json!(i),
            };
            assert_eq!(got[name], want, "{} {name}", record.name);
        }
    }
    // The same names from a names file.
    let list = dir.join("names.txt");
    std::fs::write(&list, names.join("\n")).unwrap();
    let out2 = gamebin(&[
        "wdb",
        "json",
        xiii1.to_str().unwrap(),
        "--fields",
        list.to_str().unwrap(),
    ]);
    assert!(out2.status.success(), "{}", stderr(&out2));
    assert_eq!(stdout(&out2), stdout(&out));
    // A file whose layout differs is refused, saying where.
    let out = gamebin(&[
        "wdb",
        "json",
        xiii1.to_str().unwrap(),
        "--fields-from",
        root().join("fixtures/ff13-wdb/items.wdb").to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("the layouts differ (cell 0 has type 0 here and 2 there)"),
        "{}",
        stderr(&out)
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `dump --json` prints the owned model: parsed back, it writes the fixture again (byte for byte
/// uncompressed, the same main block once inflated when compressed).
#[test]
fn wwd_json_dump_is_the_model_and_writes_the_level_back() {
    at_repository_root();
    use gamebin::wwd::model::WwdModel;
    for entry in std::fs::read_dir("fixtures/wap32-wwd").unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "wwd") {
            continue;
        }
        let file = std::fs::read(&path).unwrap();
        let out = gamebin(&["dump", "--json", path.to_str().unwrap()]);
        assert!(out.status.success(), "{path:?}: {}", stderr(&out));
        let dump: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
        let level: WwdModel = serde_json::from_value(dump["level"].clone()).unwrap();
        let written = level.to_bytes().unwrap();
        let (mut a, mut b) = (Vec::new(), Vec::new());
        let before = gamebin::wwd::WwdView::from_bytes(&file, &mut a).unwrap();
        let after = gamebin::wwd::WwdView::from_bytes(&written, &mut b).unwrap();
        assert_eq!(after.image(), before.image(), "{path:?}");
        if !before.is_compressed() {
            assert!(written == file, "{path:?}: not byte-identical");
        }
    }
}

/// `wwd tiled` then `wwd from-tiled` gives the level back; existing outputs are kept without
/// `--force`; a bad edit fails with the layer, cell and field on stderr.
#[test]
fn wwd_tiled_and_back() {
    at_repository_root();
    let dir = std::env::temp_dir().join(format!("gamebin-wwd-tiled-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let level = "fixtures/wap32-wwd/claw_small_nocompress_wapmap.wwd";
    let tmx = dir.join("level.tmx");
    let back = dir.join("level.wwd");
    let (t, b) = (tmx.to_str().unwrap(), back.to_str().unwrap());
    let out = gamebin(&["wwd", "tiled", level, "-o", t]);
    assert!(out.status.success(), "{}", stderr(&out));
    let out = gamebin(&["wwd", "from-tiled", t, "-o", b]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(std::fs::read(&back).unwrap() == std::fs::read(level).unwrap());
    // Not overwritten without --force.
    let out = gamebin(&["wwd", "tiled", level, "-o", t]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("exists; not overwritten (use --force"),
        "{}",
        stderr(&out)
    );
    // A bad edit: a tile beyond every tileset in the Action layer's first cell.
    let text = std::fs::read_to_string(&tmx).unwrap();
    let at = text.find("name=\"Action\"").unwrap();
    let data = at + text[at..].find("<data encoding=\"csv\">\n").unwrap() + 22;
    let comma = data + text[data..].find(',').unwrap();
    let edited = format!("{}77777{}", &text[..data], &text[comma..]);
    std::fs::write(&tmx, edited).unwrap();
    let out = gamebin(&["wwd", "from-tiled", t, "-o", b, "--force"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains(
            "layer \"Action\" (plane 1), tile (0, 0): unknown gid 77777: it is beyond every tileset"
        ),
        "{}",
        stderr(&out)
    );
    // With placeholder images: a PNG per tileset in level2.tiles/, named by the map, and the
    // same level back.
    let tmx = dir.join("level2.tmx");
    let t = tmx.to_str().unwrap();
    let out = gamebin(&["wwd", "tiled", level, "-o", t, "--placeholders"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = std::fs::read_to_string(&tmx).unwrap();
    let sources: Vec<&str> = text
        .split("<image source=\"")
        .skip(1)
        .map(|rest| &rest[..rest.find('"').unwrap()])
        .collect();
    assert!(sources.len() >= 2, "{text}");
    for source in &sources {
        assert!(source.starts_with("level2.tiles/") && source.ends_with(".png"));
        let png = std::fs::read(dir.join(source)).unwrap();
        assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n", "{source}");
    }
    let out = gamebin(&["wwd", "from-tiled", t, "-o", b, "--force"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(std::fs::read(&back).unwrap() == std::fs::read(level).unwrap());
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn idx_info_and_dump_agree_with_what_the_writer_was_told() {
    at_repository_root();
    for (idx, layout, volumes) in gamebin::synth::pfs::fixture_contents() {
        let path = format!("fixtures/wows-pfs/{idx}");
        let out = gamebin(&["info", "--json", &path]);
        assert!(out.status.success(), "{}", stderr(&out));
        let info: serde_json::Value = serde_json::from_str(stdout(&out).trim()).unwrap();
        let given: Vec<_> = volumes
            .iter()
            .flat_map(|(volume, files)| files.iter().map(move |f| (*volume, f)))
            .collect();
        assert_eq!(info["format"], "wows-pfs-idx");
        assert_eq!(info["files"], given.len());
        let names: Vec<&str> = volumes.iter().map(|(v, _)| *v).collect();
        assert_eq!(info["volumes"], serde_json::json!(names));
        let unpacked: usize = given.iter().map(|(_, f)| f.1.len()).sum();
        assert_eq!(info["unpacked_bytes"], unpacked);
        assert_eq!(info["checksum"], "ok");
        let layout_name = match layout {
            gamebin::wows::pfs::IdxLayout::Current => "current",
            gamebin::wows::pfs::IdxLayout::Legacy => "legacy",
        };
        assert_eq!(info["layout"], layout_name);

        let dump: serde_json::Value = serde_json::from_str(
            &std::fs::read_to_string(root().join(format!("tests/golden/{idx}.dump.json"))).unwrap(),
        )
        .unwrap();
        let files = dump["files"].as_array().unwrap();
        assert_eq!(files.len(), given.len());
        for (file, (volume, (path, bytes, compression))) in files.iter().zip(&given) {
            assert_eq!(file["path"], *path);
            assert_eq!(file["volume"], *volume);
            assert_eq!(file["unpacked_size"], bytes.len());
            assert_eq!(file["compression"], compression.as_str());
        }
        let out = gamebin(&["check", &path]);
        assert!(out.status.success(), "{}", stderr(&out));
        assert_eq!(stdout(&out).trim(), format!("{path}: wows-pfs-idx: ok"));
    }
}

/// Issue 49, item 7: `info EMPTYDIR` (and `check EMPTYDIR`) printed nothing and exited 0. The
/// folder is said to be empty, on stderr; nothing failed (as when every file of a folder is
/// skipped), so the exit status stays 0. A folder holding only empty folders is empty too.
#[test]
fn info_of_an_empty_folder_says_it_is_empty() {
    at_repository_root();
    let dir = std::env::temp_dir().join(format!("gamebin-cli-empty-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("a/b")).unwrap();
    for command in ["info", "check"] {
        let out = gamebin(&[command, dir.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(0), "{command}: {}", stderr(&out));
        assert_eq!(stdout(&out), "", "{command}");
        assert_eq!(
            stderr(&out),
            format!(
                "gamebin: {}: an empty folder (no files in it or below it)\n",
                dir.display()
            ),
            "{command}"
        );
    }
    // Beside a file that reads, only the empty folder is named.
    let a = dir.join("a");
    let out = gamebin(&[
        "info",
        "fixtures/wows-geometry/ships_raw.geometry",
        a.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stdout(&out).starts_with("fixtures/wows-geometry/ships_raw.geometry: wows-geometry"));
    assert_eq!(
        stderr(&out),
        format!(
            "gamebin: {}: an empty folder (no files in it or below it)\n",
            a.display()
        )
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Issue 49, item 7: `info` of a mod folder counted its `.model`, `.visual` and `.mfm` files
/// among "formats gamebin does not read", though `gamebin model` reads them; they are counted
/// apart, as model sources read by `gamebin model`.
#[test]
fn info_counts_model_sources_as_read_by_model() {
    at_repository_root();
    let dir = std::env::temp_dir().join(format!("gamebin-cli-sources-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    for name in ["gun.model", "gun.visual", "gun.mfm"] {
        std::fs::copy(
            root().join("fixtures/wows-sources/newer").join(name),
            dir.join(name),
        )
        .unwrap();
    }
    std::fs::write(dir.join("readme.txt"), "a mod's notes").unwrap();
    let out = gamebin(&["info", dir.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        stderr(&out),
        "gamebin: skipped 1 file(s) of formats gamebin does not read\n\
         gamebin: skipped 3 model source(s) (.model, .visual, .mfm): read by gamebin model \
         (gamebin model FOLDER --res ROOT -o OUTDIR)\n"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Issue 49, item 7: `dump - < cut.geometry` said "-: not a format gamebin reads" where the same
/// bytes by name get the reader's error (offset, field, reason). Standard input has no name to
/// choose whose error to show; the `.geometry` reader, which has read the whole header before
/// failing, is shown. Bytes that no reader gets past its header with stay unrecognised.
#[test]
fn standard_input_reports_the_readers_error_as_a_path_does() {
    at_repository_root();
    let file = std::fs::read("fixtures/wows-geometry/ambiguous_pairing.geometry").unwrap();
    let cut = &file[..100];
    let dir = temp_dir("stdin-cut");
    let path = dir.join("cut.geometry");
    std::fs::write(&path, cut).unwrap();
    let reader = "at 0x00000048: MergedGeometryPrototype.verticesMapping: needs 0x20 bytes but \
                  only 0x1c remain (truncated file?)\n";
    for command in ["dump", "info", "check"] {
        let by_name = gamebin(&[command, path.to_str().unwrap()]);
        let by_stdin = common::gamebin_with_stdin(&[command, "-"], cut);
        assert_eq!(by_stdin.status.code(), by_name.status.code(), "{command}");
        assert_eq!(by_stdin.status.code(), Some(1), "{command}");
        if command == "check" {
            continue; // a verdict on stdout, checked below
        }
        assert!(stderr(&by_name).ends_with(reader), "{}", stderr(&by_name));
        assert_eq!(
            stderr(&by_stdin),
            format!(
                "gamebin: -: not recognised by content, and no name says its format: it reads \
                 furthest as .geometry, and does not read as one: {reader}"
            ),
            "{command}"
        );
    }
    let check = common::gamebin_with_stdin(&["check", "-"], cut);
    assert!(stderr(&check).ends_with(reader), "{}", stderr(&check));
    let text = common::gamebin_with_stdin(&["dump", "-"], b"not a game file, but text");
    assert_eq!(
        stderr(&text),
        "gamebin: -: not a format gamebin reads (formats are detected by content)\n"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

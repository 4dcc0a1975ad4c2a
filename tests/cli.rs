//! The `gamebin` command line: golden `dump --json` outputs of the fixtures, `info` lines, exit
//! status, and OBJ export. Re-bless the golden files with `GAMEBIN_BLESS=1 cargo test --test cli`.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn gamebin(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_gamebin"))
        .args(args)
        .current_dir(root())
        .output()
        .expect("run gamebin")
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).unwrap()
}

/// Every fixture, as `<format folder>/<file name>` under `fixtures/`.
fn fixtures() -> Vec<String> {
    let mut names = Vec::new();
    for folder in std::fs::read_dir(root().join("fixtures")).unwrap() {
        let folder = folder.unwrap();
        for file in std::fs::read_dir(folder.path()).unwrap() {
            let file = file.unwrap().file_name().into_string().unwrap();
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
fn info_on_real_samples_counts_what_the_blobs_hold() {
    let Some(samples) = std::env::var_os("GAMEBIN_SAMPLES") else {
        eprintln!("skipped: GAMEBIN_SAMPLES is not set");
        return;
    };
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
fn usage_errors_exit_2() {
    assert_eq!(gamebin(&[]).status.code(), Some(2));
    assert_eq!(gamebin(&["info"]).status.code(), Some(2));
    assert_eq!(gamebin(&["dump", "--bogus", "x"]).status.code(), Some(2));
    let help = gamebin(&["--help"]);
    assert!(help.status.success());
    assert!(stdout(&help).contains("Examples:"));
}

#[test]
fn export_writes_one_obj_per_draw() {
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
fn assets_info_json_has_the_keys_the_issue_lists() {
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
                "format",
                "path",
                "paths",
                "prototypes",
                "strings"
            ]
        );
        assert_eq!(line["format"], "wows-assets");
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
    assert_eq!(legacy["prototypes"], 3);
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
fn assets_info_on_the_sample_reports_its_sources_values() {
    let Some(dir) = std::env::var_os("GAMEBIN_SAMPLES") else {
        eprintln!("skipped: GAMEBIN_SAMPLES is not set");
        return;
    };
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

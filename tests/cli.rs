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
fn wwd_info_json_has_the_documented_keys() {
    let out = gamebin(&["info", "--json", "fixtures/wap32-wwd"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let lines: Vec<serde_json::Value> = stdout(&out)
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 4);
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
}

#[test]
fn wwd_info_on_real_samples_matches_expected_tsv() {
    let Some(samples) = std::env::var_os("GAMEBIN_SAMPLES") else {
        eprintln!("skipped: GAMEBIN_SAMPLES is not set");
        return;
    };
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
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("no plane named \"Nope\""),
        "{}",
        stderr(&out)
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

//! `gamebin wdata pack`: the JSON of `gamebin dump --json`, edited or not, back to a `.wdata`.
//!
//! - Round trips in both directions on every fixture: `.wdata` → JSON → `.wdata` gives the same
//!   bytes, and JSON → `.wdata` → JSON the same JSON; through the library's serde model too, and
//!   on the real files in `GAMEBIN_SAMPLES` when there are any (none are public so far).
//! - Each kind of bad edit is refused with a message naming the structure and field; the messages
//!   are golden files under `tests/golden/wdata_pack/` (re-bless with
//!   `GAMEBIN_BLESS=1 cargo test --test wdata_pack`, and read what you bless).
//!
//! The expected bytes are the committed fixtures (made by the writer from the notes, and checked
//! against hand-assembled bytes in `tests/wdata_hand.rs`), never this command's own output.

use std::path::Path;
use std::process::{Command, Stdio};

use gamebin::synth::wdata;
use gamebin::wdata::WdataView;
use gamebin::wdata::model::WdataModel;
use serde_json::{Value as Json, json};

mod common;
use common::{at_repository_root, gamebin, root, stderr, temp_dir};

/// Every committed `.wdata` fixture: (name, bytes).
fn fixtures() -> Vec<(String, Vec<u8>)> {
    let dir = root().join("fixtures/rusty-hearts-wdata");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    assert!(files.len() >= 20, "fixtures missing in {}", dir.display());
    files
        .into_iter()
        .map(|p| {
            let name = p.file_name().unwrap().to_str().unwrap().to_owned();
            (name, std::fs::read(&p).unwrap())
        })
        .collect()
}

fn dump_json(path: &Path) -> String {
    let out = gamebin(&["dump", "--json", path.to_str().unwrap()]);
    assert!(out.status.success(), "{}: {}", path.display(), stderr(&out));
    String::from_utf8(out.stdout).unwrap()
}

/// Packs `json` (written to `dir/name.json`) to `dir/name.wdata`; the output on success.
fn pack(dir: &Path, name: &str, json: &str) -> Result<Vec<u8>, String> {
    let input = dir.join(format!("{name}.json"));
    let output = dir.join(format!("{name}.wdata"));
    std::fs::write(&input, json).unwrap();
    let out = gamebin(&[
        "wdata",
        "pack",
        input.to_str().unwrap(),
        "-o",
        output.to_str().unwrap(),
        "--force",
    ]);
    if out.status.success() {
        assert!(out.stderr.is_empty(), "{}", stderr(&out));
        Ok(std::fs::read(&output).unwrap())
    } else {
        assert_eq!(out.status.code(), Some(1), "{name}: {}", stderr(&out));
        Err(stderr(&out).replace(&dir.display().to_string(), "$TMP"))
    }
}

#[test]
fn every_fixture_packs_back_to_its_bytes_and_its_json() {
    at_repository_root();
    let dir = temp_dir("fixtures");
    for (name, bytes) in fixtures() {
        let json = dump_json(&root().join("fixtures/rusty-hearts-wdata").join(&name));
        let packed = pack(&dir, &name, &json).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(
            packed == bytes,
            "{name}: packing its dump changed the bytes"
        );
        // The other direction: JSON → .wdata → JSON is the same JSON (but the dump's path).
        let again: Json =
            serde_json::from_str(&dump_json(&dir.join(format!("{name}.wdata")))).unwrap();
        let mut first: Json = serde_json::from_str(&json).unwrap();
        first["path"] = again["path"].clone();
        assert_eq!(first, again, "{name}");
    }
}

#[test]
fn the_library_model_round_trips_through_serde() {
    at_repository_root();
    for (name, map) in wdata::fixture_maps() {
        let bytes = map.to_bytes().unwrap();
        let read = WdataModel::from_view(&WdataView::from_bytes(&bytes).unwrap()).unwrap();
        let text = serde_json::to_string(&read).unwrap();
        let back: WdataModel = serde_json::from_str(&text).unwrap();
        assert!(back.to_bytes().unwrap() == bytes, "{name}");
        // The JSON of what came back is the JSON that went in.
        assert_eq!(serde_json::to_string(&back).unwrap(), text, "{name}");
    }
}

#[test]
fn floats_survive_the_json_exactly() {
    at_repository_root();
    // serde_json reads a number through f64: the shortest f32 text must still give back that f32.
    let mut map = wdata::fixture_maps()
        .into_iter()
        .find(|(name, _)| *name == "v22-all-event-boxes.wdata")
        .unwrap()
        .1;
    let mut x = 0x9E37_79B9_u32;
    let mut floats = Vec::new();
    for _ in 0..20_000 {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        let f = f32::from_bits(x);
        if f.is_finite() {
            floats.push(f);
        }
    }
    floats.extend([
        0.0,
        -0.0,
        f32::MIN_POSITIVE,
        f32::MAX,
        f32::MIN,
        1e-45,
        0.1,
        16_777_217.0,
    ]);
    for chunk in floats.chunks(3) {
        map.anibg.push(gamebin::wdata::model::AniBg {
            obb: gamebin::wdata::model::Obb {
                position: [
                    chunk[0],
                    *chunk.get(1).unwrap_or(&0.0),
                    *chunk.get(2).unwrap_or(&0.0),
                ],
                ..Default::default()
            },
            ..map.anibg[0].clone()
        });
    }
    let bytes = map.to_bytes().unwrap();
    let back: WdataModel = serde_json::from_str(&serde_json::to_string(&map).unwrap()).unwrap();
    assert!(back.to_bytes().unwrap() == bytes);
}

#[test]
#[ignore = "needs GAMEBIN_SAMPLES (the real files' folder) and cargo test -- --include-ignored"]
fn every_real_sample_packs_back_to_its_bytes() {
    at_repository_root();
    let Some(samples) = std::env::var_os("GAMEBIN_SAMPLES") else {
        eprintln!("GAMEBIN_SAMPLES is not set: skipped");
        return;
    };
    let folder = Path::new(&samples).join("rusty-hearts-wdata");
    let Ok(entries) = std::fs::read_dir(&folder) else {
        // No real .wdata is public: the fixtures above are the round trips' inputs until one is.
        eprintln!("{}: no real .wdata samples: skipped", folder.display());
        return;
    };
    let dir = temp_dir("samples");
    for path in entries.map(|e| e.unwrap().path()) {
        if path.extension().is_none_or(|e| e != "wdata") {
            continue;
        }
        let name = path.file_name().unwrap().to_str().unwrap().to_owned();
        let packed = pack(&dir, &name, &dump_json(&path)).unwrap();
        assert!(packed == std::fs::read(&path).unwrap(), "{name}");
    }
}

/// A fixture's dump, as JSON to edit.
fn dump_of(name: &str) -> Json {
    serde_json::from_str(&dump_json(
        &root().join("fixtures/rusty-hearts-wdata").join(name),
    ))
    .unwrap()
}

/// Each kind of bad edit, with the fixture it is made on.
fn bad_edits() -> Vec<(&'static str, Json)> {
    let mut cases = Vec::new();
    let mut edit = |case: &'static str, fixture: &str, f: &dyn Fn(&mut Json)| {
        let mut doc = dump_of(fixture);
        f(&mut doc);
        cases.push((case, doc));
    };
    // A field the version does not store: AniBG PVSRad needs AniBG version 5.
    edit(
        "field_the_version_does_not_store",
        "v09-ev3-peer-triggers.wdata",
        &|d| {
            d["anibg"][0]["pvs_radius"] = json!(1.5);
        },
    );
    // A header field below its version (nav_height_path: main version >= 2).
    edit(
        "header_field_below_its_version",
        "v01-minimal.wdata",
        &|d| {
            d["nav_height_path"] = json!("map\\town.nhm");
        },
    );
    // A field the version stores, left out (CameraInfo.BuildPVS: EventBox version >= 5).
    edit(
        "field_the_version_stores_left_out",
        "v22-all-event-boxes.wdata",
        &|d| {
            d["event_boxes"]["CameraBox"][0]["infos"][0]
                .as_object_mut()
                .unwrap()
                .remove("build_pvs");
        },
    );
    // A version changed without the fields it gates.
    edit("version_raised_without_its_fields", "v08-ev2.wdata", &|d| {
        d["version"] = json!(22);
    });
    // A layout variant of the wrong version: script lists below version 9.
    edit("script_lists_below_version_9", "v08-ev2.wdata", &|d| {
        let o = d.as_object_mut().unwrap();
        o["triggers"].as_object_mut().unwrap().remove("triggers");
        o["triggers"]["script_lists"] =
            json!({"event_scripts": [], "condition_scripts": [], "action_scripts": []});
    });
    // A CameraTarget name where EventBox version 8 stores a text id.
    edit(
        "camera_target_name_at_version_8",
        "v19-ev8-scene-camera.wdata",
        &|d| {
            d["event_boxes"]["CameraTargetBox"][0]["target"] = json!({"name": "boss"});
        },
    );
    // A string longer than its u16 count.
    edit("string_too_long", "v01-minimal.wdata", &|d| {
        d["model_path"] = json!("x".repeat(65_536));
    });
    // A blend time on the last path of a scene resource.
    edit(
        "blend_time_on_the_last_path",
        "v22-all-event-boxes.wdata",
        &|d| {
            let paths = d["scene_resources"][0]["paths"].as_array_mut().unwrap();
            paths.last_mut().unwrap()["blend_time"] = json!(0.5);
        },
    );
    // Paths without the delay stored after their count.
    edit(
        "paths_without_their_delay",
        "v22-all-event-boxes.wdata",
        &|d| {
            d["scene_resources"][0]
                .as_object_mut()
                .unwrap()
                .remove("delay");
        },
    );
    // A group beyond the index's type_count.
    edit(
        "group_beyond_type_count",
        "v22-all-event-boxes.wdata",
        &|d| {
            d["event_boxes"]["type_count"] = json!(2);
        },
    );
    // A misspelt key.
    edit("unknown_key", "v01-minimal.wdata", &|d| {
        d["model_pth"] = json!("map\\town.mmp");
    });
    edit(
        "unknown_key_in_a_record",
        "v22-all-event-boxes.wdata",
        &|d| {
            d["event_boxes"]["NpcBox"][0]["colour"] = json!(3);
        },
    );
    // Beside the triggers' flattened layout.
    edit(
        "unknown_key_in_the_triggers",
        "v22-peer-triggers.wdata",
        &|d| {
            d["triggers"]["main_scrpt"] = json!("main.lua");
        },
    );
    edit(
        "unknown_event_box_group",
        "v22-all-event-boxes.wdata",
        &|d| {
            d["event_boxes"]["NPCBox"] = json!([]);
        },
    );
    // A value of the wrong type or range.
    edit("number_as_text", "v01-minimal.wdata", &|d| {
        d["version"] = json!("1")
    });
    edit("number_out_of_range", "v22-all-event-boxes.wdata", &|d| {
        d["event_boxes"]["CameraBox"][0]["category"] = json!(-1);
    });
    edit("bool_out_of_range", "v22-all-event-boxes.wdata", &|d| {
        d["anibg"][0]["loop"] = json!(4_294_967_296_u64);
    });
    edit("odd_raw_hex", "v22-all-event-boxes.wdata", &|d| {
        d["event_boxes"]["UnusedBox"]["raw_hex"] = json!("abc");
    });
    edit("missing_key", "v01-minimal.wdata", &|d| {
        d.as_object_mut().unwrap().remove("moc_path");
    });
    // Another format's dump.
    edit("another_formats_dump", "v01-minimal.wdata", &|d| {
        d["format"] = json!("ff13-wdb");
    });
    cases
}

#[test]
fn each_kind_of_bad_edit_is_refused_naming_the_field() {
    at_repository_root();
    let bless = std::env::var_os("GAMEBIN_BLESS").is_some();
    let dir = temp_dir("bad");
    let golden_dir = root().join("tests/golden/wdata_pack");
    if bless {
        std::fs::create_dir_all(&golden_dir).unwrap();
    }
    let mut cases: Vec<(&str, String)> = bad_edits()
        .into_iter()
        .map(|(case, doc)| (case, serde_json::to_string_pretty(&doc).unwrap()))
        .collect();
    cases.push(("not_json", "{\"version\": 1,".to_owned()));
    cases.push(("not_an_object", "[1, 2]".to_owned()));
    for (case, text) in cases {
        let message = match pack(&dir, case, &text) {
            Ok(_) => panic!("{case}: packed"),
            Err(message) => message,
        };
        // Never a panic, and the message names the input.
        assert!(!message.contains("panicked"), "{case}: {message}");
        assert!(
            message.contains(&format!("$TMP/{case}.json")),
            "{case}: {message}"
        );
        // A version error in an entry of a list names the entry and the field's JSON key: the
        // path in the model; a writer's error prints no file offset.
        if case == "field_the_version_does_not_store" {
            assert!(
                message.contains(": anibg[0].pvs_radius (AniBG.PVSRad): "),
                "{case}: {message}"
            );
        }
        assert!(!message.contains("at 0x"), "{case}: {message}");
        let golden = golden_dir.join(format!("{case}.txt"));
        if bless {
            std::fs::write(&golden, &message).unwrap();
            continue;
        }
        let want = std::fs::read_to_string(&golden).unwrap_or_else(|e| {
            panic!(
                "{}: {e}; run GAMEBIN_BLESS=1 cargo test --test wdata_pack",
                golden.display()
            )
        });
        assert_eq!(message, want, "{case} (golden {})", golden.display());
    }
}

#[test]
fn an_existing_output_is_kept_without_force() {
    at_repository_root();
    let dir = temp_dir("force");
    let input = dir.join("map.json");
    std::fs::write(
        &input,
        dump_json(&root().join("fixtures/rusty-hearts-wdata/v01-minimal.wdata")),
    )
    .unwrap();
    let output = dir.join("map.wdata");
    std::fs::write(&output, b"keep me").unwrap();
    let args = [
        "wdata",
        "pack",
        input.to_str().unwrap(),
        "-o",
        output.to_str().unwrap(),
    ];
    let out = gamebin(&args);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("exists; not overwritten (use --force"),
        "{}",
        stderr(&out)
    );
    assert_eq!(std::fs::read(&output).unwrap(), b"keep me");
    let mut forced = args.to_vec();
    forced.push("--force");
    assert!(gamebin(&forced).status.success());
    assert_eq!(
        std::fs::read(&output).unwrap(),
        std::fs::read(root().join("fixtures/rusty-hearts-wdata/v01-minimal.wdata")).unwrap()
    );
}

#[test]
fn standard_input_is_read_and_help_has_an_example() {
    at_repository_root();
    let dir = temp_dir("stdin");
    let output = dir.join("map.wdata");
    let json = dump_json(&root().join("fixtures/rusty-hearts-wdata/v22-peer-triggers.wdata"));
    let mut child = Command::new(env!("CARGO_BIN_EXE_gamebin"))
        .args(["wdata", "pack", "-", "-o", output.to_str().unwrap()])
        .stdin(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::io::Write::write_all(&mut child.stdin.take().unwrap(), json.as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(
        std::fs::read(&output).unwrap(),
        std::fs::read(root().join("fixtures/rusty-hearts-wdata/v22-peer-triggers.wdata")).unwrap()
    );
    let help = gamebin(&["wdata", "pack", "--help"]);
    let text = String::from_utf8(help.stdout).unwrap();
    assert!(
        text.contains("gamebin wdata pack town.json -o town.wdata"),
        "{text}"
    );
}

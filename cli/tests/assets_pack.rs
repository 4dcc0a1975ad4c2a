//! `gamebin assets unpack` / `assets pack`: a whole assets.bin as JSON and back; and the complete
//! form of records that `assets get --complete` and `dump --json --complete` print.
//!
//! - Round trips: every fixture and a file of `gamebin synth assets` unpack and pack back to their
//!   very bytes, through files and through standard input and output. So does the real sample
//!   (`GAMEBIN_SAMPLES`, `#[ignore]`d), made by another writer in its own layout, which the
//!   model keeps (its blobs as where their arrays are, no hex); its model holds what its
//!   SOURCES.txt states, it packs with an edit, and with one value edited to a file that
//!   differs only in that value and the checksum, which `check` accepts.
//! - Edits reach the file: a path entry renamed in the JSON is found by its new path.
//! - The complete form of every record of every fixture reads back as the record the library's
//!   reader decodes; the plain form of an effect does not.
//! - Each kind of bad input is refused, nothing written, with a message golden under
//!   `tests/golden/cli/assets_{pack,unpack}_<case>.txt` (re-bless with
//!   `GAMEBIN_BLESS=1 cargo test --test assets_pack`, and read what you bless).
//!
//! The expected bytes are the committed fixtures, the generator's file and the reader's records,
//! never this command's output.

use std::path::{Path, PathBuf};
use std::process::Output;

use gamebin::wows::assets::{AssetsDb, PrototypeFields};
use serde_json::{Value as Json, json};

mod common;
use common::{
    against_golden, at_repository_root, gamebin, gamebin_with_stdin, root, stderr, temp_dir,
    transcript,
};

fn fixtures() -> Vec<PathBuf> {
    let dir = root().join("fixtures/wows-assets");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.to_string_lossy().ends_with(".assets.bin"))
        .collect();
    files.sort();
    assert!(files.len() >= 2, "fixtures missing");
    files
}

fn name_of(path: &Path) -> String {
    path.file_name().unwrap().to_string_lossy().into_owned()
}

fn arg(path: &Path) -> &str {
    path.to_str().unwrap()
}

/// `gamebin assets unpack FILE` (to stdout), parsed.
fn unpack(path: &Path) -> Json {
    let out = gamebin(&["assets", "unpack", arg(path)]);
    assert!(out.status.success(), "{}: {}", path.display(), stderr(&out));
    assert!(
        out.stderr.is_empty(),
        "{}: {}",
        path.display(),
        stderr(&out)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

/// Packs `doc` (written to `dir/name.json`) to `dir/name.bin`; the bytes written.
fn pack(dir: &Path, name: &str, doc: &Json) -> Vec<u8> {
    common::pack_doc("assets", "bin", dir, name, doc)
}

/// Unpack to a file (-o) → pack gives the file's bytes, and the file -o wrote is what stdout
/// gets.
fn assert_packs_back(dir: &Path, path: &Path) {
    let name = name_of(path);
    let json = dir.join(format!("{name}.json"));
    let out = gamebin(&["assets", "unpack", arg(path), "-o", arg(&json)]);
    assert!(out.status.success(), "{name}: {}", stderr(&out));
    assert!(out.stdout.is_empty() && out.stderr.is_empty(), "{name}");
    let written: Json = serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
    assert!(written == unpack(path), "{name}: -o and stdout differ");
    let packed = dir.join(format!("{name}.packed"));
    let out = common::run_pack("assets", &json, &packed, false);
    assert!(out.status.success(), "{name}: {}", stderr(&out));
    assert!(
        std::fs::read(&packed).unwrap() == std::fs::read(path).unwrap(),
        "{name}: unpack → pack changed the bytes"
    );
}

#[test]
fn every_fixture_and_a_generated_file_pack_back_to_their_bytes() {
    at_repository_root();
    let dir = temp_dir("assets-pack-fixtures");
    for path in fixtures() {
        assert_packs_back(&dir, &path);
    }
    let synth = dir.join("small.assets.bin");
    let out = gamebin(&["synth", "assets", "--scale", "small", "-o", arg(&synth)]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_packs_back(&dir, &synth);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn standard_input_and_output_round_trip_too() {
    at_repository_root();
    let dir = temp_dir("assets-pack-stdin");
    let fixture = root().join("fixtures/wows-assets/legacy_layouts.assets.bin");
    let bytes = std::fs::read(&fixture).unwrap();
    let unpacked = gamebin_with_stdin(&["assets", "unpack", "-"], &bytes);
    assert!(unpacked.status.success(), "{}", stderr(&unpacked));
    let output = dir.join("out.bin");
    let out = gamebin_with_stdin(
        &["assets", "pack", "-", "-o", arg(&output)],
        &unpacked.stdout,
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(std::fs::read(&output).unwrap() == bytes);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
#[ignore = "needs GAMEBIN_SAMPLES (real files): GAMEBIN_SAMPLES=../shared/samples cargo test -- --include-ignored"]
fn the_sample_packs_to_a_file_that_reads_the_same() {
    at_repository_root();
    let sample = common::samples().join("wows-assets/minimal_synthetic_assets.bin");
    let model = unpack(&sample);
    // What SOURCES.txt states: the two maps' capacities, the strings, the path names and the
    // three live entries with their places (material, visual, model).
    assert_eq!(model["strings_capacity"], 11);
    assert_eq!(model["prototypes_capacity"], 7);
    let mut strings: Vec<&str> = model["strings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap())
        .collect();
    strings.sort_unstable();
    assert_eq!(
        strings,
        ["HP_Test", "Scene Root", "diffuseMap", "mat_hull", "rs_hull"]
    );
    let names: Vec<&str> = model["paths"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    for name in [
        "content",
        "gameplay",
        "Test.visual",
        "Test.model",
        "Test.mfm",
        "Test.geometry",
    ] {
        assert!(names.contains(&name), "{name} not in {names:?}");
    }
    let mut entries: Vec<(String, u64, u64)> = model["prototypes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            assert_eq!(p["state"], "live");
            let id = p["id"].as_str().unwrap().to_owned();
            (
                id,
                p["database"].as_u64().unwrap(),
                p["record"].as_u64().unwrap(),
            )
        })
        .collect();
    entries.sort();
    assert_eq!(
        entries,
        [
            ("0x0000000000003333".to_owned(), 1, 0),
            ("0x0000000000004444".to_owned(), 3, 0),
            ("0x0000000000005555".to_owned(), 0, 0),
        ]
    );

    // Another writer's layout (aligned sections, slots in the strings map's words, its own
    // padding inside blobs) is kept in the model's "layout": the sample packs to its bytes.
    assert_eq!(model["layout"]["string_words"], "slot");
    // Its blobs, laid out its writer's way, as where their arrays are: no blob's bytes in hex.
    assert!(model["layout"].get("stored_blobs").is_none());
    assert_eq!(model["layout"]["blob_placements"][0]["database"], 0);
    let dir = temp_dir("assets-pack-sample");
    assert_packs_back(&dir, &sample);

    // One value edited (the material's texture, SOURCES.txt's 0xDEADBEEFCAFEF00D): the file
    // packed differs from the sample only in that value's bytes and the checksum, and `check`
    // accepts it.
    let mut edited = model.clone();
    let material = &mut edited["databases"][0]["records"]["decoded"]["records"][0];
    assert_eq!(material["properties"][0]["value"], "0xdeadbeefcafef00d");
    material["properties"][0]["value"] = json!("0x0123456789abcdef");
    let packed = pack(&dir, "value", &edited);
    let original = std::fs::read(&sample).unwrap();
    let at = original
        .windows(8)
        .position(|w| w == 0xDEAD_BEEF_CAFE_F00Du64.to_le_bytes())
        .unwrap();
    assert_eq!(packed.len(), original.len());
    assert_eq!(packed[at..at + 8], 0x0123_4567_89AB_CDEFu64.to_le_bytes());
    for i in (0..packed.len()).filter(|&i| packed[i] != original[i]) {
        assert!((8..12).contains(&i) || (at..at + 8).contains(&i), "{i:#x}");
    }
    let check = gamebin(&["check", arg(&dir.join("value.bin"))]);
    assert!(check.status.success(), "{}", stderr(&check));

    // Edited (a path renamed longer, a string added): what grew pushes the parts after it into
    // the writer's layout, and the file reads back with the edits.
    let mut edited = model.clone();
    let paths = edited["paths"].as_array_mut().unwrap();
    let visual = paths
        .iter_mut()
        .find(|p| p["name"] == "Test.visual")
        .unwrap();
    visual["name"] = json!("Renamed_longer.visual");
    edited["strings"]
        .as_array_mut()
        .unwrap()
        .push(json!("a_new_string"));
    let packed = pack(&dir, "edited", &edited);
    let db = AssetsDb::from_bytes(&packed).unwrap();
    db.validate().unwrap();
    let renamed = db
        .find_path("content/gameplay/Renamed_longer.visual")
        .unwrap()
        .expect("the renamed path");
    assert_eq!(renamed.self_id(), 0x3333);
    assert!(db.prototype(0x3333).unwrap().is_some());
    let id = gamebin::hash::murmur3_32(b"a_new_string", 0);
    assert_eq!(db.string(id).unwrap(), Some("a_new_string"));
    // Without its layout, the model packs in the writer's layout: a file that reads the same.
    let mut dropped = model.clone();
    dropped.as_object_mut().unwrap().remove("layout");
    pack(&dir, "dropped", &dropped);
    let diff = gamebin(&["diff", arg(&sample), arg(&dir.join("dropped.bin"))]);
    assert_eq!(diff.status.code(), Some(0), "{}", stderr(&diff));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Floats JSON has no number for (NaN with and without payload, negative NaN, infinities) and
/// -0.0, in a file the writer made: unpack writes them as text, pack gives their very bits.
#[test]
fn non_finite_floats_pack_back_to_their_bits() {
    at_repository_root();
    let dir = temp_dir("assets-pack-floats");
    let path = dir.join("odd_floats.assets.bin");
    let bytes = gamebin::synth::assets::odd_floats()
        .unwrap()
        .to_bytes()
        .unwrap();
    std::fs::write(&path, &bytes).unwrap();
    let text = unpack(&path).to_string();
    for form in ["\"NaN:0x7fc00001\"", "\"-NaN\"", "\"-inf\"", "\"inf\""] {
        assert!(text.contains(form), "{form} not in the JSON");
    }
    assert_packs_back(&dir, &path);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn an_edited_model_packs_with_the_edit() {
    at_repository_root();
    let dir = temp_dir("assets-pack-edit");
    let fixture = root().join("fixtures/wows-assets/all_prototypes.assets.bin");
    let mut model = unpack(&fixture);
    let paths = model["paths"].as_array_mut().unwrap();
    let visual = paths
        .iter_mut()
        .find(|p| p["name"] == "Test.visual")
        .expect("the fixture's visual");
    visual["name"] = json!("Renamed.visual");
    let packed = pack(&dir, "edited", &model);
    let db = AssetsDb::from_bytes(&packed).unwrap();
    let before = std::fs::read(&fixture).unwrap();
    let before = AssetsDb::from_bytes(&before).unwrap();
    let old = before
        .find_path("content/gameplay/Test.visual")
        .unwrap()
        .expect("the visual's path");
    assert!(
        db.find_path("content/gameplay/Test.visual")
            .unwrap()
            .is_none()
    );
    let renamed = db
        .find_path("content/gameplay/Renamed.visual")
        .unwrap()
        .expect("the renamed path");
    // The entry keeps its id, and so its prototype.
    assert_eq!(renamed.self_id(), old.self_id());
    assert!(db.prototype(renamed.self_id()).unwrap().is_some());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Every path with a prototype in `file` and its id, as `assets ls` lists them.
fn prototype_paths(file: &Path) -> Vec<(u64, String)> {
    let out = gamebin(&["assets", "ls", arg(file)]);
    assert!(out.status.success(), "{}", stderr(&out));
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .filter_map(|line| {
            let mut columns = line.split('\t');
            let (id, kind, path) = (columns.next()?, columns.next()?, columns.next()?);
            let id = u64::from_str_radix(id.strip_prefix("0x")?, 16).ok()?;
            (kind != "-").then(|| (id, path.to_owned()))
        })
        .collect()
}

fn get(file: &Path, key: &str, complete: bool) -> Json {
    let mut args = vec!["assets", "get", arg(file), key];
    if complete {
        args.push("--complete");
    }
    let out = gamebin(&args);
    assert!(out.status.success(), "{key}: {}", stderr(&out));
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn the_complete_form_reads_back_as_the_record() {
    at_repository_root();
    let mut effects = 0;
    for file in fixtures() {
        let bytes = std::fs::read(&file).unwrap();
        let db = AssetsDb::from_bytes(&bytes).unwrap();
        for (id, path) in prototype_paths(&file) {
            let at = db.prototype(id).unwrap().expect("a prototype");
            let Ok(record) = db.record(at) else { continue };
            let read = PrototypeFields::read(&db, record).unwrap();
            // `get` adds full paths beside the ids: reading back ignores them.
            let printed = get(&file, &path, true)["prototype"].take();
            let back: PrototypeFields = serde_json::from_value(printed).unwrap();
            assert_eq!(back, read, "{path}");
            if matches!(read, PrototypeFields::Effect(_)) {
                effects += 1;
                let summary = get(&file, &path, false)["prototype"].take();
                assert!(summary["systems"].is_u64(), "{path}: {summary}");
                assert!(serde_json::from_value::<PrototypeFields>(summary).is_err());
            }
        }

        let out = gamebin(&["dump", "--json", "--complete", arg(&file)]);
        assert!(out.status.success(), "{}", stderr(&out));
        let dump: Json = serde_json::from_slice(&out.stdout).unwrap();
        let mut records = 0;
        for record in db.records() {
            let (database, index, record) = record.unwrap();
            let printed = dump["records"]
                .as_array()
                .unwrap()
                .iter()
                .find(|r| r["database"] == database.index() && r["index"] == index)
                .expect("the record in the dump");
            let back: PrototypeFields = serde_json::from_value(printed["record"].clone()).unwrap();
            assert_eq!(back, PrototypeFields::read(&db, record).unwrap());
            records += 1;
        }
        assert!(records > 0);
    }
    assert!(effects > 0, "no effect in the fixtures");
}

#[test]
fn help_says_what_complete_adds_and_what_reads_back() {
    // The help's words, whichever way clap wraps them.
    let help_of = |args: &[&str]| {
        let out = gamebin(args);
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        text.split_whitespace().collect::<Vec<_>>().join(" ")
    };
    let help = help_of(&["assets", "get", "--help"]);
    assert!(help.contains("--complete"), "{help}");
    assert!(help.contains("Only the complete form reads back"), "{help}");
    let help = help_of(&["dump", "--help"]);
    assert!(help.contains("Only the complete form"), "{help}");
    let help = help_of(&["assets", "unpack", "--help"]);
    assert!(
        help.contains("\"NaN:0x7fc00001\" (its 32 bits in hex)"),
        "{help}"
    );
    for command in ["get", "unpack", "pack"] {
        let help = help_of(&["assets", command, "--help"]);
        assert!(help.contains("Examples:"), "{command}: {help}");
    }
}

/// The bad `pack` inputs: (case, the JSON text), from the model of `all_prototypes.assets.bin`.
fn bad_inputs() -> Vec<(&'static str, String)> {
    let fixture = root().join("fixtures/wows-assets/all_prototypes.assets.bin");
    let model = unpack(&fixture);
    let mut cases = Vec::new();
    let mut edit = |case: &'static str, change: &dyn Fn(&mut Json)| {
        let mut doc = model.clone();
        change(&mut doc);
        cases.push((case, serde_json::to_string_pretty(&doc).unwrap()));
    };
    edit("unknown_key", &|m| {
        let entry = m["paths"][0].as_object_mut().unwrap();
        let name = entry.remove("name").unwrap();
        entry.insert("nam".into(), name);
    });
    edit("missing_key", &|m| {
        m.as_object_mut().unwrap().remove("checksum");
    });
    edit("wrong_type", &|m| {
        m["paths"][1]["self_id"] = json!(true);
    });
    edit("capacity_too_large", &|m| {
        m["strings_capacity"] = json!(1u64 << 40);
    });
    edit("index_too_wide", &|m| {
        m["prototypes"][0]["record"] = json!(1u32 << 24);
    });
    // A float as JSON writers make of NaN; unpack writes non-finite floats as strings.
    edit("null_float", &|m| {
        for database in m["databases"].as_array_mut().unwrap() {
            let records = &mut database["records"]["decoded"]["records"];
            if records[0]["type"] == "EffectPrototype" {
                records[0]["max_emitting_duration"] = Json::Null;
            }
        }
    });
    // The effect as `assets get` prints it without --complete.
    edit("effect_summary", &|m| {
        for database in m["databases"].as_array_mut().unwrap() {
            let records = &mut database["records"]["decoded"]["records"];
            if records[0]["type"] == "EffectPrototype" {
                records[0]["systems"] = json!(2);
            }
        }
    });
    let dump = gamebin(&["dump", "--json", arg(&fixture)]);
    cases.push((
        "dump_json",
        String::from_utf8(dump.stdout).expect("the dump's text"),
    ));
    let geometry = root().join("fixtures/wows-geometry/ships_raw.geometry");
    let dump = gamebin(&["dump", "--json", arg(&geometry)]);
    cases.push((
        "another_formats_dump",
        String::from_utf8(dump.stdout).expect("the dump's text"),
    ));
    let text = serde_json::to_string_pretty(&model).unwrap();
    cases.push(("truncated_json", text[..text.len() / 2].to_owned()));
    cases.push(("not_json", "strings: [diffuseMap]".to_owned()));
    cases
}

#[test]
fn each_kind_of_bad_input_is_refused_and_nothing_written() {
    at_repository_root();
    let dir = temp_dir("assets-pack-bad");
    let tmp = arg(&dir).to_owned();
    let mut runs: Vec<(String, Vec<String>, Output)> = Vec::new();
    let mut run = |case: String, args: Vec<String>| {
        let strs: Vec<&str> = args.iter().map(String::as_str).collect();
        let out = gamebin(&strs);
        runs.push((case, args, out));
    };
    for (case, text) in bad_inputs() {
        let input = dir.join(format!("{case}.json"));
        let output = dir.join(format!("{case}.bin"));
        std::fs::write(&input, text).unwrap();
        run(
            format!("pack_{case}"),
            vec![
                "assets".into(),
                "pack".into(),
                arg(&input).into(),
                "-o".into(),
                arg(&output).into(),
            ],
        );
        assert!(!output.exists(), "{case}: written");
    }
    // Outputs: one that exists is kept without --force; one in a folder that does not exist.
    // (Fixtures named relative to the root, where gamebin runs, so that the messages are the
    // same in every checkout.)
    let fixture = Path::new("fixtures/wows-assets/legacy_layouts.assets.bin");
    let model = dir.join("model.json");
    std::fs::write(&model, unpack(fixture).to_string()).unwrap();
    let exists = dir.join("exists.bin");
    std::fs::write(&exists, b"kept").unwrap();
    let pack_to = |output: &Path| -> Vec<String> {
        ["assets", "pack", arg(&model), "-o", arg(output)]
            .map(String::from)
            .to_vec()
    };
    run("pack_output_exists".into(), pack_to(&exists));
    run(
        "pack_output_unwritable".into(),
        pack_to(&dir.join("no/such/folder/out.bin")),
    );
    run("pack_missing_input".into(), {
        let mut args = pack_to(&dir.join("out.bin"));
        args[2] = format!("{tmp}/missing.json");
        args
    });
    assert!(!dir.join("out.bin").exists());
    let unpack_to = |input: &Path, output: &Path| -> Vec<String> {
        ["assets", "unpack", arg(input), "-o", arg(output)]
            .map(String::from)
            .to_vec()
    };
    run("unpack_output_exists".into(), unpack_to(fixture, &exists));
    run(
        "unpack_output_unwritable".into(),
        unpack_to(fixture, &dir.join("no/such/folder/out.json")),
    );
    let geometry = Path::new("fixtures/wows-geometry/ships_raw.geometry");
    run(
        "unpack_not_assets".into(),
        unpack_to(geometry, &dir.join("geometry.json")),
    );
    let bytes = std::fs::read(fixture).unwrap();
    let cut = dir.join("cut.assets.bin");
    std::fs::write(&cut, &bytes[..bytes.len() / 2]).unwrap();
    run(
        "unpack_truncated".into(),
        unpack_to(&cut, &dir.join("cut.json")),
    );
    assert_eq!(std::fs::read(&exists).unwrap(), b"kept");
    for name in ["geometry.json", "cut.json"] {
        assert!(!dir.join(name).exists(), "{name} written");
    }

    let mut differ = Vec::new();
    for (case, args, out) in runs {
        assert_eq!(out.status.code(), Some(1), "{case}: {}", stderr(&out));
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let got = transcript(&args, &out, &tmp);
        assert!(!got.contains("panicked"), "{case}: {got}");
        let golden = root().join(format!("tests/golden/cli/assets_{case}.txt"));
        if let Some(difference) = against_golden(&golden, &got, "assets_pack") {
            differ.push(format!("{case}: {difference}"));
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
    assert!(differ.is_empty(), "{}", differ.join("\n"));
}

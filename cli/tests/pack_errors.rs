//! Every command that makes a file from an edited model refuses a bad value by naming where in
//! the model it is (a path of the model's own keys and indices, as the edited JSON or map spells
//! them) and prints no file offset: a model has none, and `at 0x00000000` only misled.
//!
//! One bad value per command, each past what the JSON parser checks (a value of the right type
//! that the format cannot store), so that the error comes from the model's writer.

mod common;

use std::path::Path;

use common::{at_repository_root, gamebin, stderr, temp_dir};
use serde_json::{Value as Json, json};

/// The JSON a command prints for `args`.
fn json_of(args: &[&str]) -> Json {
    let out = gamebin(args);
    assert!(out.status.success(), "{args:?}: {}", stderr(&out));
    serde_json::from_slice(&out.stdout).unwrap()
}

/// Runs `args` on an input that must be refused: exit status 1, nothing written to `output`;
/// returns stderr.
fn refused(args: &[&str], output: &Path) -> String {
    let out = gamebin(args);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{args:?}: {err}");
    assert!(!output.exists(), "{args:?}: a file was written");
    err
}

fn write_json(dir: &Path, name: &str, doc: &Json) -> String {
    let path = dir.join(name);
    std::fs::write(&path, serde_json::to_string_pretty(doc).unwrap()).unwrap();
    path.to_str().unwrap().to_owned()
}

#[test]
fn each_pack_command_names_the_model_path_and_no_offset() {
    at_repository_root();
    let dir = temp_dir("pack-errors");
    let out = |name: &str| dir.join(name);
    let arg = |p: &Path| p.to_str().unwrap().to_owned();
    let mut said = Vec::new();

    // wdb pack: a 4-bit field given 16, in the second record.
    let mut doc = json_of(&["wdb", "json", "fixtures/ff13-wdb/items.wdb"]);
    let name = doc["records"][1]["record"].clone();
    doc["records"][1]["u4Kind"] = json!(16);
    let input = write_json(&dir, "items.json", &doc);
    let err = refused(
        &["wdb", "pack", &input, "-o", &arg(&out("items.wdb"))],
        &out("items.wdb"),
    );
    assert!(err.contains("records[1].u4Kind: "), "{err}");
    assert!(err.contains(&format!("record {name}")), "{err}");
    said.push(err);

    // geometry pack: more blob padding than the format's writer allows.
    let mut doc = json_of(&[
        "dump",
        "--json",
        "fixtures/wows-geometry/ships_raw.geometry",
    ]);
    doc["model"]["blob_padding"] = json!(1_000_000);
    let input = write_json(&dir, "ships.json", &doc);
    let err = refused(
        &[
            "geometry",
            "pack",
            &input,
            "-o",
            &arg(&out("ships.geometry")),
        ],
        &out("ships.geometry"),
    );
    assert!(
        err.contains(": blob_padding (GeometryFile.blob_padding): "),
        "{err}"
    );
    said.push(err);

    // wdata pack: a field the AniBG version does not store, set in the first AniBG.
    let mut doc = json_of(&[
        "dump",
        "--json",
        "fixtures/rusty-hearts-wdata/v07-all-event-boxes.wdata",
    ]);
    let anibg = doc["anibg"][0].as_object_mut().unwrap();
    assert!(
        anibg.get("pvs_radius").is_none_or(Json::is_null),
        "{anibg:?}"
    );
    anibg.insert("pvs_radius".into(), json!(4.0));
    let input = write_json(&dir, "map.json", &doc);
    let err = refused(
        &["wdata", "pack", &input, "-o", &arg(&out("map.wdata"))],
        &out("map.wdata"),
    );
    assert!(
        err.contains(": anibg[0].pvs_radius (AniBG.PVSRad): "),
        "{err}"
    );
    said.push(err);

    // assets pack: a record index wider than the resource-to-prototype map's 24 bits.
    let mut doc = json_of(&[
        "assets",
        "unpack",
        "fixtures/wows-assets/all_prototypes.assets.bin",
    ]);
    doc["prototypes"][2]["record"] = json!(1u32 << 24);
    let input = write_json(&dir, "assets.json", &doc);
    let err = refused(
        &["assets", "pack", &input, "-o", &arg(&out("assets.bin"))],
        &out("assets.bin"),
    );
    assert!(
        err.contains(": prototypes[2].record (resourceToPrototypeMap.value): "),
        "{err}"
    );
    said.push(err);

    // wwd from-tiled: a tile beyond every tileset in the second cell of plane 1.
    let tmx = out("level.tmx");
    let done = gamebin(&[
        "wwd",
        "tiled",
        "fixtures/wap32-wwd/claw_small.wwd",
        "-o",
        &arg(&tmx),
    ]);
    assert!(done.status.success(), "{}", stderr(&done));
    let text = std::fs::read_to_string(&tmx).unwrap();
    let at = text.find("name=\"Action\"").unwrap();
    let data = at + text[at..].find("<data encoding=\"csv\">\n").unwrap() + 22;
    let first = data + text[data..].find(',').unwrap() + 1;
    let second = first + text[first..].find(',').unwrap();
    std::fs::write(&tmx, format!("{}77777{}", &text[..first], &text[second..])).unwrap();
    let err = refused(
        &[
            "wwd",
            "from-tiled",
            &arg(&tmx),
            "-o",
            &arg(&out("level.wwd")),
        ],
        &out("level.wwd"),
    );
    assert!(
        err.contains(": planes[1].tiles[1,0]: layer \"Action\" (plane 1), tile (1, 0): "),
        "{err}"
    );
    said.push(err);

    for err in said {
        assert!(!err.contains("0x00000000"), "{err}");
        assert!(!err.contains("panicked"), "{err}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

//! `gamebin geometry pack`: the JSON of `gamebin dump --json FILE.geometry`, edited or not, back
//! to a `.geometry`.
//!
//! - Round trips: every fixture and every real sample (`GAMEBIN_SAMPLES`, `#[ignore]`d) dumps and
//!   packs back to its very bytes; the dump's model alone packs the same; JSON → file → JSON
//!   gives the same JSON.
//! - Edits reach the file: a mesh renamed in the dump (its two mapping ids, hashed here by the
//!   library's MurmurHash3) is found by its new name in the packed file, with the old mesh's data.
//! - The golden dumps' models are the committed fixtures, and their other keys the summary.
//! - Each kind of bad input is refused, nothing written, with a message golden under
//!   `tests/golden/cli/geometry_pack_<case>.txt` (re-bless with
//!   `GAMEBIN_BLESS=1 cargo test --test geometry_pack`, and read what you bless).
//!
//! The expected bytes are the committed fixtures and the real samples, never this command's
//! output.

use std::path::{Path, PathBuf};

use gamebin::wows::geometry::model::GeometryModel;
use gamebin::wows::geometry::{GeometryView, MappingKind};
use serde_json::{Value as Json, json};

mod common;
use common::{
    against_golden, at_repository_root, gamebin, gamebin_with_stdin, root, stderr, temp_dir,
    transcript,
};

/// The `.geometry` files directly in `dir`, sorted.
fn geometry_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "geometry"))
        .collect();
    files.sort();
    files
}

fn fixtures() -> Vec<PathBuf> {
    let files = geometry_files(&root().join("fixtures/wows-geometry"));
    assert!(files.len() >= 6, "fixtures missing");
    files
}

fn name_of(path: &Path) -> String {
    path.file_name().unwrap().to_string_lossy().into_owned()
}

fn dump_json(path: &Path) -> Json {
    let out = gamebin(&["dump", "--json", path.to_str().unwrap()]);
    assert!(out.status.success(), "{}: {}", path.display(), stderr(&out));
    serde_json::from_slice(&out.stdout).unwrap()
}

/// Packs `doc` (written to `dir/name.json`) to `dir/name.geometry`; the bytes written.
fn pack(dir: &Path, name: &str, doc: &Json) -> Vec<u8> {
    common::pack_doc("geometry", "geometry", dir, name, doc)
}

/// Dump → pack gives the file's bytes; the bare model packs the same; and the packed file dumps
/// to the same JSON (but its path).
fn assert_packs_back(dir: &Path, path: &Path) {
    let name = name_of(path);
    let bytes = std::fs::read(path).unwrap();
    let dump = dump_json(path);
    assert!(
        pack(dir, &name, &dump) == bytes,
        "{name}: packing its dump changed the bytes"
    );
    assert!(
        pack(dir, &format!("{name}.model"), &dump["model"]) == bytes,
        "{name}: packing the bare model changed the bytes"
    );
    let mut again = dump_json(&dir.join(format!("{name}.geometry")));
    again["path"] = dump["path"].clone();
    assert!(again == dump, "{name}: the packed file dumps differently");
}

#[test]
fn every_fixture_packs_back_to_its_bytes() {
    at_repository_root();
    let dir = temp_dir("geometry-pack-fixtures");
    for path in fixtures() {
        assert_packs_back(&dir, &path);
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
#[ignore = "needs GAMEBIN_SAMPLES (real files): GAMEBIN_SAMPLES=../shared/samples cargo test -- --include-ignored"]
fn every_sample_packs_back_to_its_bytes() {
    at_repository_root();
    let files = geometry_files(&common::samples().join("wows-geometry"));
    // The seven files listed in the samples' SOURCES.txt.
    assert!(files.len() >= 7, "{} samples", files.len());
    let dir = temp_dir("geometry-pack-samples");
    for path in files {
        assert_packs_back(&dir, &path);
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn standard_input_packs_too() {
    at_repository_root();
    let dir = temp_dir("geometry-pack-stdin");
    let fixture = root().join("fixtures/wows-geometry/ships_encd.geometry");
    let output = dir.join("out.geometry");
    let text = serde_json::to_string(&dump_json(&fixture)).unwrap();
    let out = gamebin_with_stdin(
        &["geometry", "pack", "-", "-o", output.to_str().unwrap()],
        text.as_bytes(),
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(std::fs::read(&output).unwrap() == std::fs::read(&fixture).unwrap());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Replaces `from` by `to` in every mapping of `mappings` (a dump's model's table).
fn rename_ids(mappings: &mut Json, from: u32, to: u32) -> usize {
    let mut renamed = 0;
    for m in mappings.as_array_mut().unwrap() {
        if m["id"] == json!(from) {
            m["id"] = json!(to);
            renamed += 1;
        }
    }
    renamed
}

#[test]
fn an_edited_dump_packs_with_the_edit() {
    at_repository_root();
    let dir = temp_dir("geometry-pack-edit");
    let fixture = root().join("fixtures/wows-geometry/ships_raw.geometry");
    let original = std::fs::read(&fixture).unwrap();
    let mut dump = dump_json(&fixture);
    // The fixture builder named the meshes "Cube" (24 vertices, 36 indices) and "Pyramid"; the
    // ids are MurmurHash3 of "<name>.vertices" and "<name>.indices".
    let model = &mut dump["model"];
    for kind in [MappingKind::Vertices, MappingKind::Indices] {
        let table = match kind {
            MappingKind::Vertices => "vertex_mappings",
            MappingKind::Indices => "index_mappings",
        };
        let renamed = rename_ids(&mut model[table], kind.id_of("Cube"), kind.id_of("Hull"));
        assert_eq!(renamed, 1, "{table}");
    }
    model["armor_models"][0]["name"] = json!("CM_PA_hulled.armor");
    // The summary is what the reader made of the file: pack ignores it, whatever it says.
    dump["draws"] = json!([]);
    dump["vertex_buffers"] = json!("not read");

    let packed = pack(&dir, "edited", &dump);
    let view = GeometryView::from_bytes(&packed).unwrap();
    assert!(view.draw_by_name("Cube").is_none());
    let hull = view.draw_by_name("Hull").expect("the renamed mesh");
    assert_eq!(hull.vertices.items_count(), 24);
    assert_eq!(hull.indices.items_count(), 36);
    let before = GeometryView::from_bytes(&original).unwrap();
    let cube = before.draw_by_name("Cube").unwrap();
    assert_eq!(hull.vertices.items_offset(), cube.vertices.items_offset());
    assert_eq!(hull.indices.items_offset(), cube.indices.items_offset());
    let armor = view.armor_models().next().unwrap();
    assert_eq!(armor.name().unwrap(), "CM_PA_hulled.armor");
    // Same length (the new name is as long as the old one), and only ids and the name differ.
    assert_eq!(packed.len(), original.len());
    let differing = packed.iter().zip(&original).filter(|(a, b)| a != b).count();
    assert!(differing <= 2 * 4 + "hulled".len(), "{differing} bytes");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn golden_dumps_hold_the_fixture_as_their_model_beside_the_summary() {
    at_repository_root();
    // The keys `dump --json` printed before the model was added, which users rely on, and the
    // model's (sorted, as serde_json's objects keep them).
    let mut keys_before = [
        "path",
        "format",
        "vertex_buffers",
        "index_buffers",
        "vertex_mappings",
        "index_mappings",
        "draws",
        "pairing_notes",
        "unpaired_vertex_mappings",
        "unpaired_index_mappings",
        "collision_models",
        "armor_models",
        "model",
    ];
    keys_before.sort_unstable();
    for path in fixtures() {
        let name = name_of(&path);
        let golden = root().join(format!("tests/golden/{name}.dump.json"));
        let mut dump: Json =
            serde_json::from_str(&std::fs::read_to_string(&golden).unwrap()).unwrap();
        let keys: Vec<&str> = dump
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        assert_eq!(keys, keys_before, "{name}");
        let model: GeometryModel = serde_json::from_value(dump["model"].take()).unwrap();
        assert!(
            model.to_bytes().unwrap() == std::fs::read(&path).unwrap(),
            "{name}: the golden model is not the fixture"
        );
    }
}

/// The bad inputs: (case, the JSON text), from the dump of `ships_raw.geometry`.
fn bad_inputs() -> Vec<(&'static str, String)> {
    let dump = dump_json(&root().join("fixtures/wows-geometry/ships_raw.geometry"));
    let mut cases = Vec::new();
    let mut edit = |case: &'static str, change: &dyn Fn(&mut Json)| {
        let mut doc = dump.clone();
        change(&mut doc);
        cases.push((case, serde_json::to_string_pretty(&doc).unwrap()));
    };
    edit("another_formats_dump", &|d| {
        d["format"] = json!("rusty-hearts-wdata");
    });
    // A dump from before the model was added: the summary alone.
    edit("dump_without_model", &|d| {
        d.as_object_mut().unwrap().remove("model");
    });
    edit("unknown_key", &|d| {
        let vb = d["model"]["vertex_buffers"][0].as_object_mut().unwrap();
        let stride = vb.remove("stride").unwrap();
        vb.insert("strides".into(), stride);
    });
    edit("missing_key", &|d| {
        let ib = d["model"]["index_buffers"][0].as_object_mut().unwrap();
        ib.remove("index_size");
    });
    edit("number_out_of_range", &|d| {
        d["model"]["vertex_buffers"][0]["stride"] = json!(70_000);
    });
    edit("odd_hex", &|d| {
        d["model"]["index_buffers"][0]["data"] = json!("abc");
    });
    edit("not_hex", &|d| {
        d["model"]["armor_models"][0]["data"] = json!("zz");
    });
    edit("too_much_padding", &|d| {
        d["model"]["blob_padding"] = json!(1_000_000_000_000u64);
    });
    cases.push(("not_json", "{\"model\": {".to_owned()));
    cases.push(("not_an_object", "[1, 2]".to_owned()));
    cases
}

#[test]
fn each_kind_of_bad_input_is_refused_and_nothing_written() {
    at_repository_root();
    let dir = temp_dir("geometry-pack-bad");
    let mut runs = Vec::new();
    for (case, text) in bad_inputs() {
        let input = dir.join(format!("{case}.json"));
        let output = dir.join(format!("{case}.geometry"));
        std::fs::write(&input, text).unwrap();
        let out = common::run_pack("geometry", &input, &output, false);
        assert_eq!(out.status.code(), Some(1), "{case}: {}", stderr(&out));
        assert!(!output.exists(), "{case}: written");
        runs.push((case, input, output, out));
    }
    // An output that exists is kept without --force.
    let fixture = root().join("fixtures/wows-geometry/ships_raw.geometry");
    let input = dir.join("output_exists.json");
    std::fs::write(&input, dump_json(&fixture).to_string()).unwrap();
    let output = dir.join("output_exists.geometry");
    std::fs::write(&output, b"kept").unwrap();
    let out = common::run_pack("geometry", &input, &output, false);
    assert_eq!(std::fs::read(&output).unwrap(), b"kept");
    runs.push(("output_exists", input, output, out));
    let missing = dir.join("missing.json");
    let out = common::run_pack("geometry", &missing, &dir.join("missing.geometry"), false);
    runs.push(("missing_input", missing, dir.join("missing.geometry"), out));

    let mut differ = Vec::new();
    for (case, input, output, out) in runs {
        let (input, output) = (input.to_str().unwrap(), output.to_str().unwrap());
        let args = ["geometry", "pack", input, "-o", output];
        let got = transcript(&args, &out, dir.to_str().unwrap());
        assert!(!got.contains("panicked"), "{case}: {got}");
        assert!(got.contains("exit: 1\n"), "{case}: {got}");
        let golden = root().join(format!("tests/golden/cli/geometry_pack_{case}.txt"));
        if let Some(difference) = against_golden(&golden, &got, "geometry_pack") {
            differ.push(format!("{case}: {difference}"));
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
    assert!(differ.is_empty(), "{}", differ.join("\n"));
}

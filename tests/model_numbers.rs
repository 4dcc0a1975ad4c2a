//! The writers write what the readers read, number by number: for every committed fixture, every
//! number of its owned model (as its JSON form has it; three of each field that repeats, as a
//! grid's tiles do) is changed alone; the edited model is
//! written, and then either refused with a writer's error (a value the format cannot store), or
//! read back to the very model that was written. "The model that was written" is the edited JSON
//! as the model holds it (deserialized and shown again), which must still hold the edit: a model
//! may show in fewer keys what its JSON accepts in more (the `.wdata` EventBox types beyond the
//! index, when empty), and that is not a number lost. A writer that dropped a field, wrote it
//! somewhere the reader does not look, or recomputed it from other fields would give back another
//! number.
//!
//! The changes keep a number's type: an integer has its lowest bit flipped (in range for every
//! width, signed or not), a float is negated (exact in every width); a zero float becomes 1.
//!
//! Two lists say where a difference is expected. [`DERIVED`]: numbers the writer computes from
//! the rest of the model by design (counts, offsets, sizes, the `.wwd` checksum, as the Tiled
//! importer's derived fields), whose edits are not kept and which may change when anything else
//! does. [`OPEN`]: the edits this test found not written as read when it was written (issue #29
//! lists them); each must still fail, so that a fix takes its line out.

use std::path::Path;

use gamebin::{AnyModel, AnyView, Format, Scratch};
use serde_json::Value as Json;

/// The fixtures' format by their folder (two formats have no magic number to detect them by).
fn format_of(folder: &str) -> Format {
    match folder {
        "wows-geometry" => Format::WowsGeometry,
        "wows-assets" => Format::WowsAssets,
        "ff13-wdb" => Format::Ff13Wdb,
        "wap32-wwd" => Format::Wap32Wwd,
        "rusty-hearts-wdata" => Format::RustyHeartsWdata,
        "craftstudio-project" => Format::CraftStudioProject,
        "wows-pfs" => Format::WowsPfsIdx,
        "dds" => Format::Dds,
        "wows-gameparams" => Format::WowsGameParams,
        other => panic!("a fixture folder of no known format: {other}"),
    }
}

/// The model of a file of `format`, as JSON, or why it does not read. `.wwd` levels are opened
/// with `ignore_signature`: a level keeps the signature it was read with (real ones with another
/// exist), the writer writes it as given, and the reader opens such a level with that option.
fn model_json(format: Format, data: &[u8]) -> Result<Json, String> {
    let mut scratch = Scratch::ignoring_signatures();
    let view = AnyView::from_bytes_as(format, data, &mut scratch).map_err(|e| e.to_string())?;
    let model: AnyModel = view.to_model().map_err(|e| e.to_string())?;
    Ok(serde_json::to_value(&model).unwrap())
}

/// The file the edited model `json` of `format` writes, with the model as it holds the edit (its
/// own JSON again: a model may show what it holds in fewer keys than it accepts, such as the
/// `.wdata` EventBox types beyond its index, empty, which the edited JSON still lists): `None`
/// when the JSON is no model of the format (a number out of its field's type), `Some(Err)` when
/// the writer refuses it.
fn write(format: Format, json: &Json) -> Option<Result<(Vec<u8>, Json), String>> {
    fn typed<T: serde::de::DeserializeOwned + serde::Serialize>(
        json: &Json,
        to_bytes: impl FnOnce(&T) -> Result<Vec<u8>, gamebin::WriteError>,
    ) -> Option<Result<(Vec<u8>, Json), String>> {
        let model: T = serde_json::from_value(json.clone()).ok()?;
        let held = serde_json::to_value(&model).unwrap();
        Some(
            to_bytes(&model)
                .map(|bytes| (bytes, held))
                .map_err(|e| e.to_string()),
        )
    }
    use gamebin::{craftstudio, dds, wdata, wdb, wows, wwd};
    match format {
        Format::WowsGeometry => typed(json, wows::geometry::model::GeometryModel::to_bytes),
        Format::WowsAssets => typed(json, wows::assets::model::AssetsModel::to_bytes),
        Format::Ff13Wdb => typed(json, wdb::model::WdbModel::to_bytes),
        Format::Wap32Wwd => typed(json, wwd::model::WwdModel::to_bytes),
        Format::RustyHeartsWdata => typed(json, wdata::model::WdataModel::to_bytes),
        Format::CraftStudioProject => typed(json, craftstudio::model::ProjectModel::to_bytes),
        Format::WowsPfsIdx => typed(json, wows::pfs::model::IdxModel::to_bytes),
        Format::Dds => typed(json, dds::model::DdsModel::to_bytes),
        // Not reached: the GameParams fixtures are left out above.
        Format::WowsGameParams => None,
    }
}

/// Every number's place in `json`, as a JSON pointer.
fn numbers(json: &Json, at: &mut String, found: &mut Vec<String>) {
    match json {
        Json::Number(_) => found.push(at.clone()),
        Json::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                let len = at.len();
                at.push_str(&format!("/{i}"));
                numbers(item, at, found);
                at.truncate(len);
            }
        }
        Json::Object(map) => {
            for (key, value) in map {
                let len = at.len();
                at.push('/');
                at.push_str(&key.replace('~', "~0").replace('/', "~1"));
                numbers(value, at, found);
                at.truncate(len);
            }
        }
        _ => {}
    }
}

/// Places (JSON pointers, every index written `N`) of numbers the writer derives from the rest of
/// the model, by format folder.
const DERIVED: &[(&str, &str)] = &[
    // A PFS index's checksum is computed; its paths, volume names and compression names are read
    // from the other records (an edited id or parent id changes which paths resolve).
    ("wows-pfs", "/checksum"),
    ("wows-pfs", "/names/N/path"),
    ("wows-pfs", "/files/N/path"),
    ("wows-pfs", "/files/N/volume"),
    ("wows-pfs", "/files/N/compression"),
    ("wap32-wwd", "/header/checksum"),
    ("wap32-wwd", "/header/num_planes"),
    ("wap32-wwd", "/header/offset_planes"),
    ("wap32-wwd", "/header/offset_tile_properties"),
    ("wap32-wwd", "/header/decompressed_mainblock_size"),
    ("wap32-wwd", "/planes/N/header/block_size"),
    ("wap32-wwd", "/planes/N/header/num_image_sets"),
    ("wap32-wwd", "/planes/N/header/num_objects"),
    ("wap32-wwd", "/planes/N/header/offset_image_sets"),
    ("wap32-wwd", "/planes/N/header/offset_objects"),
    ("wap32-wwd", "/planes/N/header/offset_tiles"),
    ("wap32-wwd", "/planes/N/objects/N/fields/size_name"),
    ("wap32-wwd", "/planes/N/objects/N/fields/size_logic"),
    ("wap32-wwd", "/planes/N/objects/N/fields/size_image_set"),
    ("wap32-wwd", "/planes/N/objects/N/fields/size_animation"),
    ("wap32-wwd", "/tile_properties_header/count"),
    ("wap32-wwd", "/tile_properties/N/base/tile_type"),
    ("ff13-wdb", "/recordCount"),
];

/// Edits (the place edited) not written as read when this test was written: open on #29.
const OPEN: &[(&str, &str, &str)] = &[];

/// `place` with every index written `N`.
fn pattern(place: &str) -> String {
    place
        .split('/')
        .map(|step| {
            if !step.is_empty() && step.bytes().all(|b| b.is_ascii_digit()) {
                "N"
            } else {
                step
            }
        })
        .collect::<Vec<_>>()
        .join("/")
}

/// The places where `a` and `b` differ (leaves, and lists or objects of another length or keys).
fn differences(a: &Json, b: &Json, at: &mut String, found: &mut Vec<String>) {
    match (a, b) {
        (Json::Array(x), Json::Array(y)) if x.len() == y.len() => {
            for (i, (x, y)) in x.iter().zip(y).enumerate() {
                let len = at.len();
                at.push_str(&format!("/{i}"));
                differences(x, y, at, found);
                at.truncate(len);
            }
        }
        (Json::Object(x), Json::Object(y)) if x.keys().eq(y.keys()) => {
            for ((key, x), y) in x.iter().zip(y.values()) {
                let len = at.len();
                at.push('/');
                at.push_str(&key.replace('~', "~0").replace('/', "~1"));
                differences(x, y, at, found);
                at.truncate(len);
            }
        }
        _ if a == b => {}
        _ => found.push(at.clone()),
    }
}

/// The resource-to-prototype entries in id order: the model lists them in the map's bucket
/// order, which a capacity changes.
fn in_id_order(mut json: Json) -> Json {
    if let Some(Json::Array(entries)) = json.get_mut("prototypes") {
        entries.sort_by_key(|e| e["id"].to_string());
    }
    json
}

/// `n` changed as the module docs say.
fn changed(n: &serde_json::Number) -> Json {
    if let Some(u) = n.as_u64() {
        Json::from(u ^ 1)
    } else if let Some(i) = n.as_i64() {
        Json::from(i ^ 1)
    } else {
        let f = n.as_f64().unwrap_or_default();
        Json::from(if f == 0.0 { 1.0 } else { -f })
    }
}

#[test]
fn every_number_of_every_fixture_model_is_written_as_read_or_refused() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    let mut files: Vec<_> = std::fs::read_dir(&root)
        .unwrap()
        .flat_map(|dir| std::fs::read_dir(dir.unwrap().path()).unwrap())
        .map(|entry| entry.unwrap().path())
        // The `.pkg` volumes beside the PFS indexes are no format of their own; the XML sources'
        // folders (wows-sources/newer, ...) hold text read by tests/sources.rs.
        .filter(|path| path.is_file() && path.extension().is_none_or(|e| e != "pkg"))
        // A GameParams model's JSON is the dataminers' form, which drops what its writer needs
        // (classes, tuples apart from lists, byte apart from unicode strings): no model is read
        // back from it. Its writer's round trip is tests/params.rs's, number for number.
        .filter(|path| {
            !path
                .parent()
                .is_some_and(|p| p.ends_with("wows-gameparams"))
        })
        .collect();
    files.sort();
    let (mut edits, mut refused, mut not_models) = (0, 0, 0);
    let mut wrong = Vec::new();
    let mut open_seen = std::collections::BTreeSet::new();
    for path in &files {
        let data = std::fs::read(path).unwrap();
        let folder = path.parent().and_then(Path::file_name).unwrap();
        let folder = folder.to_str().unwrap();
        let format = format_of(folder);
        let model = model_json(format, &data).expect("a fixture reads");
        let derived: Vec<&str> = DERIVED
            .iter()
            .filter(|(f, _)| *f == folder)
            .map(|&(_, p)| p)
            .collect();
        let mut places = Vec::new();
        numbers(&model, &mut String::new(), &mut places);
        // Every field, but not every one of a grid's thousand tiles: three places of each.
        let mut tried = std::collections::HashMap::<String, usize>::new();
        for place in places {
            let field = pattern(&place);
            if derived.contains(&field.as_str()) {
                continue;
            }
            let times = tried.entry(field).or_default();
            *times += 1;
            if *times > 3 {
                continue;
            }
            let mut edited = model.clone();
            let number = edited.pointer_mut(&place).unwrap();
            let Json::Number(n) = &*number else {
                unreachable!()
            };
            *number = changed(n);
            edits += 1;
            let fault = match write(format, &edited) {
                None => {
                    not_models += 1;
                    None
                }
                Some(Err(_)) => {
                    refused += 1;
                    None
                }
                // The edit must reach the model (a value the model drops on the way in is not
                // written either), and the model must read back as it was written.
                Some(Ok((_, held))) if held.pointer(&place) != edited.pointer(&place) => {
                    Some(format!(
                        "the model does not hold the edit: {:?}",
                        held.pointer(&place)
                    ))
                }
                Some(Ok((bytes, held))) => match model_json(format, &bytes) {
                    Ok(again) => {
                        let mut differ = Vec::new();
                        differences(
                            &in_id_order(again),
                            &in_id_order(held),
                            &mut String::new(),
                            &mut differ,
                        );
                        differ.retain(|p| !derived.contains(&pattern(p).as_str()));
                        (!differ.is_empty()).then(|| format!("read back differs at {differ:?}"))
                    }
                    Err(e) => Some(format!("the file written does not read: {e}")),
                },
            };
            let Some(fault) = fault else { continue };
            let known = OPEN
                .iter()
                .find(|(f, p, _)| *f == folder && *p == pattern(&place));
            match known {
                Some(open) => {
                    open_seen.insert(*open);
                }
                None => {
                    let name = path.file_name().unwrap().to_string_lossy();
                    let value = edited.pointer(&place).unwrap();
                    wrong.push(format!("{name}: {place} = {value}: {fault}"));
                }
            }
        }
    }
    eprintln!("{edits} edits: {refused} refused by the writer, {not_models} not a model");
    assert!(edits > 500, "{edits}");
    assert!(
        wrong.is_empty(),
        "{} edits not written as read:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
    for open in OPEN {
        assert!(
            open_seen.contains(open),
            "{open:?} is written as read now: take it out of OPEN"
        );
    }
}

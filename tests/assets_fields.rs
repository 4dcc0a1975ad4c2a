//! `PrototypeFields`, the owned record model: every record of the writer's fixtures read into it
//! carries the values the writer was given, and its JSON gives ids as hex text exactly at the
//! fields `ID_FIELDS` / `ID_LIST_FIELDS` name (what the CLI's path resolution and the Python
//! package's integer ids rely on).

use gamebin::synth::assets as w;
use gamebin::wows::assets::model::AssetsBuilder;
use gamebin::wows::assets::{
    AssetsDb, ID_FIELDS, ID_LIST_FIELDS, NodeFields, PATH_ID_FIELDS, PropertyValue,
    PrototypeFields, PrototypeState,
};
use serde_json::Value;

fn fields(db: &AssetsDb<'_>, id: u64) -> PrototypeFields {
    let at = db.prototype(id).unwrap().expect("a prototype");
    assert_eq!(at.state, PrototypeState::Live);
    PrototypeFields::read(db, db.record(at).unwrap()).unwrap()
}

#[test]
fn every_record_type_carries_what_the_writer_was_given() {
    let bytes = w::all_prototypes().unwrap().to_bytes().unwrap();
    let db = AssetsDb::from_bytes(&bytes).unwrap();
    let id = |path: &str| db.path_id(path);

    let PrototypeFields::Material(m) = fields(&db, id("content/gameplay/Test.mfm")) else {
        panic!("a material")
    };
    assert_eq!(m.properties.len(), 10);
    assert_eq!(m.properties[0].name.as_deref(), Some("diffuseMap"));
    assert_eq!(m.properties[0].kind, "texture");
    assert_eq!(
        m.properties[0].value,
        PropertyValue::Texture(0xDEAD_BEEF_CAFE_F00D)
    );
    assert_eq!(m.properties[2].value, PropertyValue::Int(-3));
    assert_eq!(
        m.properties[9].value,
        PropertyValue::Mat4(w::translation([4.0, 5.0, 6.0]))
    );
    assert_eq!(
        (m.fx_path_id, m.collision_flags, m.sort_order),
        (0xF0F0, 0x11, -2)
    );

    let PrototypeFields::Visual(v) = fields(&db, id("content/gameplay/Test.visual")) else {
        panic!("a visual")
    };
    assert_eq!(
        v.merged_geometry_path_id,
        id("content/gameplay/Test.geometry")
    );
    assert_eq!(v.render_sets.len(), 1);
    assert_eq!(
        v.render_sets[0].material_mfm_path_id,
        id("content/gameplay/Test.mfm")
    );
    assert_eq!(v.nodes[0].name.as_deref(), Some("Scene Root"));
    assert_eq!(v.nodes[0].parent, None);
    assert_eq!(v.nodes[1].parent, Some(0));

    let PrototypeFields::Model(model) = fields(&db, id("content/gameplay/Test.model")) else {
        panic!("a model")
    };
    assert_eq!(model.visual_resource_id, id("content/gameplay/Test.visual"));
    assert_eq!(model.misc_type, 2);
    assert_eq!(model.layout, "0x28");
    assert_eq!(model.skeleton_extenders, [id("content/gameplay/Test.skel")]);
    assert_eq!(model.animations, [0xA1, 0xA2]);
    assert_eq!(
        (model.dyes[0].matter_id, model.dyes[0].replaces_id),
        (11, 12)
    );
    assert_eq!(
        model.dyes[0].tints,
        [Some("tint_red".to_string()), Some("tint_blue".to_string())]
    );
    assert_eq!(model.dyes[0].tint_materials, [0xB1, 0xB2]);

    let PrototypeFields::SkeletonExtender(s) = fields(&db, id("content/gameplay/Test.skel")) else {
        panic!("a skeleton extender")
    };
    assert_eq!(s.flag, 1);
    assert_eq!(
        s.parents,
        [Some("Scene Root".to_string()), Some("HP_Gun".to_string())]
    );
    assert_eq!(s.matrices[1], w::translation([0.0, 2.0, 0.0]));

    let PrototypeFields::PointLight(l) = fields(&db, id("content/lights/lamp.light")) else {
        panic!("a point light")
    };
    assert_eq!(l.radius_animation.points.len(), 3);
    assert_eq!(l.radius_animation.points[1].value, 6.0);
    assert_eq!(l.color_animation.points[0].value, [1.0, 0.5, 0.25, 1.0]);
    assert!(l.color_animation.repeated && !l.radius_animation.repeated);

    let PrototypeFields::Effect(e) = fields(&db, id("content/effects/fire.effect")) else {
        panic!("an effect")
    };
    assert_eq!(e.systems.len(), 2);
    assert!(e.systems.iter().all(|s| s.len() == 0x1C8));
    assert_eq!((e.systems[0][0], e.systems[1][0x1C7]), (0xE5, 0x5E));
    let PrototypeFields::VelocityField(f) = fields(&db, id("content/effects/wind.vfield")) else {
        panic!("a velocity field")
    };
    assert_eq!((f.dimensions, f.velocities), ([2, 2, 1], vec![1, 2, 3, 4]));
    let PrototypeFields::EffectPreset(p) = fields(&db, id("content/effects/fire.preset")) else {
        panic!("an effect preset")
    };
    assert_eq!((p.high_id, p.low_id), (0x1111_2222, 0x3333_4444));
    let PrototypeFields::EffectMetadata(meta) = fields(&db, id("content/effects/fire.meta")) else {
        panic!("effect metadata")
    };
    let channels: Vec<_> = meta
        .channels
        .iter()
        .map(|c| (c.name.as_str(), c.kind))
        .collect();
    assert_eq!(channels, [("intensity", 1), ("size", 2)]);
    let PrototypeFields::AtlasContour(a) = fields(&db, id("content/gui/atlas.contour")) else {
        panic!("an atlas contour")
    };
    assert_eq!(
        a.frames,
        [
            vec![[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]],
            vec![[0.5, 0.5], [0.75, 0.5]]
        ]
    );
}

#[test]
fn older_layouts_and_raw_databases() {
    let bytes = w::legacy_layouts().unwrap().to_bytes().unwrap();
    let db = AssetsDb::from_bytes(&bytes).unwrap();
    let PrototypeFields::Model(model) = fields(&db, 0x30) else {
        panic!("a model")
    };
    assert_eq!((model.layout, model.visual_resource_id), ("0x20", 0x40));
    let raw = db.databases().iter().map(Result::unwrap).last().unwrap();
    let record = raw.prototype(0, db.strings()).unwrap();
    let PrototypeFields::Raw(r) = PrototypeFields::read(&db, record).unwrap() else {
        panic!("a raw record")
    };
    assert!(r.raw);
    assert_eq!(r.reason, "unknown prototype type magic");
    assert_eq!(r.database_bytes, 24);
    assert_eq!(PrototypeFields::Raw(r).type_name(), None);
}

/// Whether `text` is an id as the JSON writes them: `0x` and 8 or 16 lowercase hex digits.
fn is_hex_id(text: &str) -> bool {
    text.strip_prefix("0x").is_some_and(|digits| {
        matches!(digits.len(), 8 | 16)
            && digits
                .bytes()
                .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
    })
}

/// Walks `value`, checking that hex ids appear exactly where the lists say.
fn check_ids(value: &Value, key: Option<&str>, hex_seen: &mut usize) {
    match value {
        Value::Object(map) => {
            let texture = map.get("type").and_then(Value::as_str) == Some("texture");
            for (k, v) in map {
                let listed = ID_FIELDS.contains(&k.as_str()) || (texture && k == "value");
                if listed {
                    assert!(
                        v.as_str().is_some_and(is_hex_id),
                        "{k}: {v} is not a hex id"
                    );
                    *hex_seen += 1;
                } else if ID_LIST_FIELDS.contains(&k.as_str()) {
                    for id in v.as_array().expect("a list of ids") {
                        assert!(id.as_str().is_some_and(is_hex_id), "{k}: {id}");
                        *hex_seen += 1;
                    }
                } else {
                    check_ids(v, Some(k), hex_seen);
                }
            }
        }
        Value::Array(items) => items.iter().for_each(|i| check_ids(i, key, hex_seen)),
        Value::String(s) => assert!(!is_hex_id(s), "{key:?}: {s} is an id at an unlisted field"),
        _ => {}
    }
}

#[test]
fn json_gives_ids_as_hex_exactly_at_the_listed_fields() {
    assert!(PATH_ID_FIELDS.iter().all(|f| ID_FIELDS.contains(f)));
    let mut hex_seen = 0;
    for builder in [w::all_prototypes(), w::legacy_layouts()] {
        let bytes = builder.unwrap().to_bytes().unwrap();
        let db = AssetsDb::from_bytes(&bytes).unwrap();
        for database in db.databases().iter() {
            let database = database.unwrap();
            for i in 0..database.record_count().min(16) {
                let record = database.prototype(i, db.strings()).unwrap();
                let fields = PrototypeFields::read(&db, record).unwrap();
                let json = serde_json::to_value(&fields).unwrap();
                assert_eq!(
                    json["type"].as_str(),
                    fields.type_name(),
                    "the JSON is tagged by the type name"
                );
                check_ids(&json, None, &mut hex_seen);
            }
        }
    }
    // Every id field of the fixtures: 4 of the visual (geometry, its render set's mapping ids and
    // material), 2 textures and the effect of the material, the model's visual, extender, 2
    // animations, dye (matter, replaces, 2 tint materials), the preset's 2, the legacy visual's 4,
    // the legacy model's visual, animation and dye (2 + 1).
    assert_eq!(hex_seen, 4 + 3 + 1 + 1 + 2 + 4 + 2 + 4 + 1 + 1 + 3);
}

/// Every record the reader reads into its fields is written back from those fields and read
/// again the same (the writer encodes the reader's fields structs: one declaration of each
/// type's fields), the effect's systems and the velocity field's velocities included.
#[test]
fn records_written_from_their_fields_read_back_the_same() {
    for (builder, v1) in [(w::all_prototypes(), false), (w::legacy_layouts(), true)] {
        let bytes = builder.unwrap().to_bytes().unwrap();
        let db = AssetsDb::from_bytes(&bytes).unwrap();
        let mut written = 0;
        for entry in db.prototypes().iter() {
            let (id, at) = entry.unwrap();
            if at.state != PrototypeState::Live {
                continue;
            }
            let read = PrototypeFields::read(&db, db.record(at).unwrap()).unwrap();
            let mut copy = AssetsBuilder::new();
            if v1 {
                copy.model_layout_v1();
            }
            copy.prototype(id, read.clone()).unwrap();
            let bytes = copy.to_bytes().unwrap();
            let again = AssetsDb::from_bytes(&bytes).unwrap();
            assert_eq!(fields(&again, id), read);
            written += 1;
        }
        assert_eq!(written, if v1 { 2 } else { 10 });
    }
}

#[test]
fn fields_the_writer_cannot_store_are_refused_with_the_field_named() {
    let bytes = w::all_prototypes().unwrap().to_bytes().unwrap();
    let db = AssetsDb::from_bytes(&bytes).unwrap();
    let id = |path: &str| db.path_id(path);
    let error = |fields: &PrototypeFields| {
        AssetsBuilder::new()
            .prototype(1, fields.clone())
            .unwrap_err()
            .to_string()
    };

    let PrototypeFields::Visual(mut visual) = fields(&db, id("content/gameplay/Test.visual"))
    else {
        panic!("a visual")
    };
    visual.render_sets[0].material = None; // an id the strings map did not have
    let message = error(&PrototypeFields::Visual(visual));
    assert!(message.contains("RenderSet.materialNameId"), "{message}");

    let PrototypeFields::SkeletonExtender(mut skeleton) =
        fields(&db, id("content/gameplay/Test.skel"))
    else {
        panic!("a skeleton extender")
    };
    skeleton.parents.pop();
    let message = error(&PrototypeFields::SkeletonExtender(skeleton));
    assert!(
        message.contains("SkeletonExtenderPrototype.nodeCount"),
        "{message}"
    );

    let PrototypeFields::Model(model) = fields(&db, id("content/gameplay/Test.model")) else {
        panic!("a model")
    };
    let mut dye = model.clone();
    dye.dyes[0].tint_materials.push(0xB3);
    let message = error(&PrototypeFields::Model(dye));
    assert!(message.contains("Dye.tintsCount"), "{message}");
    // A current-layout model in a database of the older layout, and extenders in the older one.
    let mut older = AssetsBuilder::new();
    older.model_layout_v1();
    let message = older.prototype(1, model.clone()).unwrap_err().to_string();
    assert!(message.contains("ModelPrototype.layout"), "{message}");
    let mut v1 = model;
    v1.layout = gamebin::wows::assets::MODEL_LAYOUT_V1;
    let message = older.prototype(1, v1).unwrap_err().to_string();
    assert!(
        message.contains("ModelPrototypeV1.skeletonExtenders"),
        "{message}"
    );

    let PrototypeFields::Material(mut material) = fields(&db, id("content/gameplay/Test.mfm"))
    else {
        panic!("a material")
    };
    material.properties[0].kind = "float"; // the value is a texture
    let message = error(&PrototypeFields::Material(material));
    assert!(
        message.contains("MaterialPrototype.propertyIds"),
        "{message}"
    );
}

/// A visual of `repeats` nodes, all named with the same 1,000-character name: the file holds the
/// name once and its id in each node, the owned fields a copy per node.
fn visual_repeating_one_long_name(repeats: usize) -> Vec<u8> {
    let long = "n".repeat(1000);
    let mut visual = w::example_visual(1, 2);
    let node = NodeFields {
        name: Some(long.clone()),
        matrix: w::translation([0.0; 3]),
        parent: None,
    };
    visual.nodes = vec![node; repeats];
    visual.render_sets[0].nodes = vec![Some(long)];
    let mut b = AssetsBuilder::new();
    let id = b.path("content/gameplay/Long.visual").unwrap();
    b.prototype(id, visual).unwrap();
    b.to_bytes().unwrap()
}

#[test]
fn owned_fields_many_times_the_file_are_refused_not_allocated() {
    // 100 copies (about 100 KB from a file of about 10 KB) read; 2,000 copies (2 MB from a file
    // of about 140 KB: more than eight times the file and than 1 MiB) are refused at the record.
    let small = visual_repeating_one_long_name(100);
    let db = AssetsDb::from_bytes(&small).unwrap();
    let PrototypeFields::Visual(v) = fields(&db, db.path_id("content/gameplay/Long.visual")) else {
        panic!("a visual")
    };
    assert_eq!(v.nodes.len(), 100);
    assert_eq!(v.nodes[99].name.as_deref().map(str::len), Some(1000));

    let large = visual_repeating_one_long_name(2000);
    assert!(large.len() < 200_000, "{} bytes", large.len());
    let db = AssetsDb::from_bytes(&large).unwrap();
    let at = db
        .prototype(db.path_id("content/gameplay/Long.visual"))
        .unwrap()
        .unwrap();
    let record = db.record(at).unwrap();
    let e = PrototypeFields::read(&db, record).unwrap_err();
    assert_eq!(e.what(), "VisualPrototype.nodes", "{e}");
    assert!(e.to_string().contains("eight times the file"), "{e}");
}

/// Every record of both fixtures, as JSON and back: the complete form reads back equal for every
/// type, the plain form (what `dump --json` prints) and `assets get`'s (the plain form with full
/// paths beside the ids) for every type but the two it summarizes, which are refused naming the
/// summarized field. Read back, each is written again and reads back the same from the file.
#[test]
fn records_read_back_from_their_json() {
    use gamebin::wows::assets::{ResourceKey, json};
    for (builder, v1) in [(w::all_prototypes(), false), (w::legacy_layouts(), true)] {
        let bytes = builder.unwrap().to_bytes().unwrap();
        let db = AssetsDb::from_bytes(&bytes).unwrap();
        let mut complete = 0;
        for entry in db.prototypes().iter() {
            let (id, at) = entry.unwrap();
            if at.state != PrototypeState::Live {
                continue;
            }
            let read = fields(&db, id);
            let text = serde_json::to_string(&read.complete()).unwrap();
            let back: PrototypeFields = serde_json::from_str(&text).unwrap();
            assert_eq!(back, read, "{text}");
            complete += 1;

            let key = format!("{id:#018x}");
            let found = db.resolve_key(ResourceKey::parse(&key)).unwrap().unwrap();
            let printed = json::resource(&db, &found, at).unwrap()["prototype"].clone();
            let plain = serde_json::to_value(&read).unwrap();
            for value in [printed, plain] {
                let again = serde_json::from_value::<PrototypeFields>(value.clone());
                match read {
                    PrototypeFields::Effect(_) => {
                        let e = again.unwrap_err().to_string();
                        assert!(e.contains("systems as hex text"), "{e}");
                    }
                    PrototypeFields::VelocityField(_) => {
                        let e = again.unwrap_err().to_string();
                        assert!(e.contains("velocity components listed"), "{e}");
                    }
                    _ => assert_eq!(again.unwrap(), read, "{value}"),
                }
            }

            let mut copy = AssetsBuilder::new();
            if v1 {
                copy.model_layout_v1();
            }
            copy.prototype(id, back).unwrap();
            let bytes = copy.to_bytes().unwrap();
            assert_eq!(fields(&AssetsDb::from_bytes(&bytes).unwrap(), id), read);
        }
        assert_eq!(complete, if v1 { 2 } else { 10 });
        // A record of a database kept raw reads back too (the writer refuses it).
        for record in db.records() {
            let (_, _, record) = record.unwrap();
            let read = PrototypeFields::read(&db, record).unwrap();
            if let PrototypeFields::Raw(_) = read {
                let text = serde_json::to_string(&read).unwrap();
                assert_eq!(
                    serde_json::from_str::<PrototypeFields>(&text).unwrap(),
                    read
                );
                let e = AssetsBuilder::new().prototype(1, read).unwrap_err();
                assert!(e.to_string().contains("kept raw"), "{e}");
                complete += 1;
            }
        }
        assert_eq!(complete, if v1 { 3 } else { 10 });
    }
}

/// JSON the writer's input cannot be made from gives a serde error that says why, not a panic.
#[test]
fn json_that_is_no_record_is_refused_with_a_serde_error() {
    let bytes = w::all_prototypes().unwrap().to_bytes().unwrap();
    let db = AssetsDb::from_bytes(&bytes).unwrap();
    let visual = serde_json::to_value(fields(&db, db.path_id("content/gameplay/Test.visual")));
    let model = serde_json::to_value(fields(&db, db.path_id("content/gameplay/Test.model")));
    let material = serde_json::to_value(fields(&db, db.path_id("content/gameplay/Test.mfm")));
    let (visual, model, material) = (visual.unwrap(), model.unwrap(), material.unwrap());
    let refused = |value: Value, expected: &str| {
        let e = serde_json::from_value::<PrototypeFields>(value).unwrap_err();
        assert!(
            e.to_string().contains(expected),
            "{e} (expected {expected:?})"
        );
    };

    let mut v = visual.clone();
    v["type"] = "FuturePrototype".into();
    refused(v, "unknown prototype type `FuturePrototype`");
    let mut v = visual.clone();
    v["type"] = 7.into();
    refused(v, "invalid type");
    let mut v = visual.clone();
    v.as_object_mut().unwrap().remove("type");
    refused(v, "missing field `type`");
    let mut v = visual.clone();
    v["underwater"] = "yes".into();
    refused(
        v,
        "VisualPrototype: invalid type: string \"yes\", expected a boolean",
    );
    let mut v = visual.clone();
    v["nodes"][0]["matrix"] = serde_json::json!([1.0, 2.0]);
    refused(v, "VisualPrototype: invalid length 2");
    let mut v = visual.clone();
    v["merged_geometry_path_id"] = "0xZZ".into();
    refused(v, "an id of 64 bits");
    let mut v = visual;
    v["render_sets"][0]["vertices_mapping_id"] = "0x1_0000_0000".into();
    refused(v, "an id of 32 bits");

    let mut m = model.clone();
    m["layout"] = "0x30".into();
    refused(m, "unknown variant `0x30`");
    let mut m = model;
    m["animations"] = serde_json::json!(["0xA1", true]);
    refused(m, "an id of 64 bits");

    let mut p = material.clone();
    p["properties"][0]["type"] = "quaternion".into();
    refused(p, "unknown variant `quaternion`");
    let mut p = material;
    p["properties"][1]["value"] = "true".into(); // a bool property given text
    refused(p, "MaterialPrototype property value: invalid type");

    refused(Value::Null, "invalid type: null");
    refused(serde_json::json!([1, 2]), "invalid type: sequence");
}

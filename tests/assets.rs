//! `assets.bin` through the writer and back: every record type's fields, both model layouts, both
//! checksum flavours, deleted and unknown entries, and malformed files giving precise errors.

use gamebin::ErrorKind;
use gamebin::hash::{city_hash_64, murmur3_32};
use gamebin::synth::assets as w;
use gamebin::wows::assets::model::{AssetsBuilder, ChecksumKind};
use gamebin::wows::assets::{
    AssetsDb, ChecksumMatch, EffectPresetFields, Layout, MaterialFields, MaterialValue,
    ModelLayout, PropertyFields, PropertyValue, Prototype, PrototypeState, PrototypeType,
    RawReason, VelocityFieldFields,
};

fn record<'a>(db: &AssetsDb<'a>, path: &str) -> Prototype<'a> {
    let at = db.lookup_path(path).unwrap().expect(path);
    assert_eq!(at.state, PrototypeState::Live);
    db.record(at).unwrap()
}

fn name<'a>(db: &AssetsDb<'a>, id: u32) -> &'a str {
    db.string(id).unwrap().unwrap()
}

#[test]
fn every_record_type_round_trips() {
    let bytes = w::all_prototypes().unwrap().to_bytes().unwrap();
    let db = AssetsDb::from_bytes(&bytes).unwrap();
    db.validate().unwrap();
    assert_eq!(db.verify_checksum().matches(), ChecksumMatch::Murmur3);
    assert!(db.ids_are_path_hashes(100).unwrap().all_match());
    assert_eq!(gamebin::detect(&bytes), Some(gamebin::Format::WowsAssets));

    let Prototype::Material(m) = record(&db, "content/gameplay/Test.mfm") else {
        panic!()
    };
    let props: Vec<_> = m
        .properties()
        .unwrap()
        .map(|p| {
            let p = p.unwrap();
            (name(&db, p.name_id), p.value)
        })
        .collect();
    let mat4 = w::translation([4.0, 5.0, 6.0]);
    assert_eq!(props.len(), 10);
    assert_eq!(
        props[0],
        ("diffuseMap", MaterialValue::Texture(0xDEAD_BEEF_CAFE_F00D))
    );
    assert_eq!(props[1], ("alphaTest", MaterialValue::Bool(true)));
    assert_eq!(props[2], ("layer", MaterialValue::Int(-3)));
    assert_eq!(props[3], ("flags", MaterialValue::Uint(7)));
    assert_eq!(props[4], ("gloss", MaterialValue::Float(0.25)));
    assert_eq!(props[5], ("normalMap", MaterialValue::Texture(0x1234)));
    assert_eq!(props[6], ("uvScale", MaterialValue::Vec2([2.0, 3.0])));
    assert_eq!(props[7], ("tint", MaterialValue::Vec3([0.5, 0.6, 0.7])));
    assert_eq!(
        props[8],
        ("color", MaterialValue::Vec4([1.0, 0.0, 0.0, 1.0]))
    );
    let MaterialValue::Mat4(m4) = props[9].1 else {
        panic!()
    };
    assert_eq!(m4.map(|f| f.get()), mat4);
    assert_eq!(m.counts(), [1, 1, 1, 1, 2, 1, 1, 1, 1]);
    assert_eq!(
        (m.fx_path_id(), m.collision_flags(), m.sort_order()),
        (0xF0F0, 0x11, -2)
    );

    let Prototype::Visual(v) = record(&db, "content/gameplay/Test.visual") else {
        panic!()
    };
    assert_eq!(
        v.merged_geometry_path_id(),
        city_hash_64(b"content/gameplay/Test.geometry")
    );
    let nodes: Vec<_> = v.nodes().unwrap().collect();
    assert_eq!(name(&db, nodes[1].name_id), "HP_Test");
    assert_eq!(nodes[1].matrix()[12..15], [1.5, 2.5, 3.5]);
    // The name map is sorted by id and points back at the nodes.
    let map_names = v.name_map_name_ids().unwrap();
    let map_nodes = v.name_map_node_ids().unwrap();
    for (id, node) in map_names.iter().zip(map_nodes) {
        assert_eq!(nodes[usize::from(node.get())].name_id, id.get());
    }
    let rs = v.render_sets().unwrap().next().unwrap();
    assert_eq!(rs.vertices_mapping_id(), murmur3_32(b"Hull.vertices", 0));
    assert_eq!(rs.indices_mapping_id(), murmur3_32(b"Hull.indices", 0));
    assert_eq!(
        rs.material_mfm_path_id(),
        city_hash_64(b"content/gameplay/Test.mfm")
    );

    let Prototype::SkeletonExtender(s) = record(&db, "content/gameplay/Test.skel") else {
        panic!()
    };
    assert_eq!((s.flag(), s.node_count()), (1, 2));
    let names: Vec<_> = s
        .name_ids()
        .unwrap()
        .iter()
        .map(|i| name(&db, i.get()))
        .collect();
    let parents: Vec<_> = s
        .parent_name_ids()
        .unwrap()
        .iter()
        .map(|i| name(&db, i.get()))
        .collect();
    assert_eq!(
        (names, parents),
        (vec!["HP_Gun", "HP_Mast"], vec!["Scene Root", "HP_Gun"])
    );
    assert_eq!(s.matrices().unwrap()[1][13].get(), 2.0);

    let Prototype::Model(model) = record(&db, "content/gameplay/Test.model") else {
        panic!()
    };
    assert!(matches!(model.layout(), ModelLayout::Current(_)));
    assert_eq!(
        model.visual_resource_id(),
        city_hash_64(b"content/gameplay/Test.visual")
    );
    assert_eq!(model.misc_type(), 2);
    assert_eq!(
        model.skeleton_extender_ids().unwrap()[0].get(),
        city_hash_64(b"content/gameplay/Test.skel")
    );
    let anims: Vec<u64> = model
        .animations()
        .unwrap()
        .iter()
        .map(|a| a.get())
        .collect();
    assert_eq!(anims, [0xA1, 0xA2]);
    let dye = model.dyes().unwrap().next().unwrap();
    assert_eq!((dye.matter_id(), dye.replaces_id()), (11, 12));
    let tints: Vec<_> = dye
        .tint_name_ids()
        .unwrap()
        .iter()
        .map(|i| name(&db, i.get()))
        .collect();
    assert_eq!(tints, ["tint_red", "tint_blue"]);
    let mats: Vec<u64> = dye
        .tint_material_ids()
        .unwrap()
        .iter()
        .map(|a| a.get())
        .collect();
    assert_eq!(mats, [0xB1, 0xB2]);

    let Prototype::PointLight(l) = record(&db, "content/lights/lamp.light") else {
        panic!()
    };
    let (period, repeated, points) = l.color_animation().unwrap();
    assert_eq!((period, repeated, points.len()), (2.0, true, 2));
    assert_eq!(points[0].value.map(|f| f.get()), [1.0, 0.5, 0.25, 1.0]);
    let (period, repeated, points) = l.radius_animation().unwrap();
    assert_eq!((period, repeated), (4.0, false));
    let radii: Vec<(f32, f32)> = points
        .iter()
        .map(|p| (p.time.get(), p.value.get()))
        .collect();
    assert_eq!(radii, [(0.0, 3.0), (0.5, 6.0), (1.0, 3.0)]);
    assert_eq!(l.color(), [1.0, 0.9, 0.8, 1.0]);
    assert_eq!(l.local_position(), [1.0, 2.0, 3.0]);
    assert_eq!((l.radius(), l.min_quality()), (5.0, 2));
    assert!(l.animated_color() && l.animated_radius());

    let Prototype::Effect(e) = record(&db, "content/effects/fire.effect") else {
        panic!()
    };
    assert_eq!((e.max_emitting_duration(), e.systems_count()), (1.5, 2));
    let sys = e.system(1).unwrap().unwrap();
    assert_eq!((sys.len(), sys[0], sys[0x1C7]), (0x1C8, 0xE5, 0x5E));
    assert!(e.system(2).unwrap().is_none());

    let Prototype::VelocityField(f) = record(&db, "content/effects/wind.vfield") else {
        panic!()
    };
    assert_eq!(f.dimensions(), [2, 2, 1]);
    let vel: Vec<u16> = f.velocities().unwrap().iter().map(|v| v.get()).collect();
    assert_eq!(vel, [1, 2, 3, 4]);

    let Prototype::EffectPreset(p) = record(&db, "content/effects/fire.preset") else {
        panic!()
    };
    assert_eq!((p.high_id(), p.low_id()), (0x1111_2222, 0x3333_4444));

    let Prototype::EffectMetadata(md) = record(&db, "content/effects/fire.meta") else {
        panic!()
    };
    let channels: Vec<_> = md
        .channels()
        .unwrap()
        .map(|c| (c.name().unwrap(), c.min(), c.max(), c.default(), c.kind()))
        .collect();
    assert_eq!(
        channels,
        [("intensity", 0.0, 2.0, 1.0, 1), ("size", 0.5, 4.0, 1.0, 2)]
    );

    let Prototype::AtlasContour(a) = record(&db, "content/gui/atlas.contour") else {
        panic!()
    };
    let frames: Vec<Vec<(f32, f32)>> = a
        .frames()
        .unwrap()
        .map(|f| {
            f.points()
                .unwrap()
                .iter()
                .map(|p| (p.x.get(), p.y.get()))
                .collect()
        })
        .collect();
    assert_eq!(
        frames,
        [
            vec![(0.0, 0.0), (1.0, 0.0), (0.0, 1.0)],
            vec![(0.5, 0.5), (0.75, 0.5)]
        ]
    );
}

#[test]
fn every_path_and_id_is_found() {
    let bytes = w::all_prototypes().unwrap().to_bytes().unwrap();
    let db = AssetsDb::from_bytes(&bytes).unwrap();
    let index = gamebin::wows::assets::PathIndex::build(db.paths()).unwrap();
    let mut path = String::new();
    let mut with_prototype = 0;
    for entry in db.paths().iter() {
        assert!(db.full_path(entry.self_id(), &mut path).unwrap());
        assert_eq!(db.path_id(&path), entry.self_id(), "{path}");
        assert_eq!(db.find_path(&path).unwrap().unwrap().index(), entry.index());
        let mut again = String::new();
        assert!(
            index
                .full_path(db.paths(), entry.self_id(), &mut again)
                .unwrap()
        );
        assert_eq!(again, path);
        assert!(
            index
                .full_path_at(db.paths(), entry.index(), &mut again)
                .unwrap()
        );
        assert_eq!(again, path);
        if let Some(at) = db.lookup_path(&path).unwrap() {
            assert_eq!(db.prototype(entry.self_id()).unwrap(), Some(at));
            with_prototype += 1;
        }
    }
    assert_eq!(with_prototype, 10);
    assert_eq!(db.prototypes().count(), 10);
    assert!(
        !index
            .full_path_at(db.paths(), db.paths().len(), &mut path)
            .unwrap()
    );
}

#[test]
fn legacy_layouts_deleted_and_unknown_entries() {
    let bytes = w::legacy_layouts().unwrap().to_bytes().unwrap();
    let db = AssetsDb::from_bytes(&bytes).unwrap();
    db.validate().unwrap();
    let c = db.verify_checksum();
    assert_eq!(c.matches(), ChecksumMatch::Crc32);
    assert_eq!(c.stored, crc32fast::hash(&bytes[16..]));
    assert!(!db.ids_are_path_hashes(10).unwrap().all_match());
    let mut path = String::new();
    db.full_path(0x30, &mut path).unwrap();
    assert_eq!(path, "content/ships/Old.model");
    assert_eq!(
        db.find_path("content/ships/Old.visual")
            .unwrap()
            .unwrap()
            .self_id(),
        0x40
    );

    let gone = db.prototype(0x50).unwrap().unwrap();
    assert_eq!(gone.state, PrototypeState::Deleted);

    let visuals = db.database(PrototypeType::Visual).unwrap().unwrap();
    assert_eq!(visuals.layout(), Layout::Known { item_size: 0x70 });
    let models = db.database(PrototypeType::Model).unwrap().unwrap();
    assert_eq!(models.layout(), Layout::Known { item_size: 0x20 });
    assert_eq!(models.schema_hash(), 3_601_929_577);
    let Prototype::Model(m) = db.record(db.prototype(0x30).unwrap().unwrap()).unwrap() else {
        panic!()
    };
    assert!(matches!(m.layout(), ModelLayout::V1(_)));
    assert_eq!((m.visual_resource_id(), m.misc_type()), (0x40, 1));
    assert!(m.skeleton_extender_ids().unwrap().is_empty());
    assert_eq!(m.animations().unwrap()[0].get(), 0xC1);
    let dye = m.dyes().unwrap().next().unwrap();
    assert_eq!(name(&db, dye.tint_name_ids().unwrap()[0].get()), "tint_old");

    let unknown = db.databases().get(10).unwrap().unwrap();
    assert_eq!(unknown.kind(), None);
    assert_eq!(unknown.layout(), Layout::Raw(RawReason::UnknownMagic));
    assert_eq!(unknown.record_count(), 1);
    let Prototype::Raw(raw) = unknown.prototype(0, db.strings()).unwrap() else {
        panic!()
    };
    assert_eq!(raw.reason, RawReason::UnknownMagic);
    assert_eq!(&raw.database[16..], &[0xAB; 8]);
}

/// A database's record size is not stored: readers take it from the type, the schema hash and
/// the records' room. The writer refuses an item size they would not take (here the older model
/// layout's 0x20 under a schema hash that does not name it, in a database with no record to
/// check it against), naming the model's place, and writes one they take as given.
#[test]
fn an_item_size_readers_would_not_take_is_refused() {
    let model = AssetsBuilder::new().to_model();
    let position = model
        .databases
        .iter()
        .position(|d| d.magic == PrototypeType::Model.magic())
        .unwrap();
    let mut edited = model.clone();
    let gamebin::wows::assets::model::DatabaseRecords::Decoded { item_size, .. } =
        &mut edited.databases[position].records
    else {
        panic!("a decoded model database")
    };
    *item_size = 0x20;
    let e = edited.to_bytes().unwrap_err();
    assert_eq!(
        e.path(),
        format!("databases[{position}].records.decoded.item_size")
    );
    assert_eq!(e.field(), Some("Database.itemSize"));
    // Under the schema hash that names the older layout, 0x20 is what readers take.
    edited.databases[position].schema_hash = 3_601_929_577;
    let bytes = edited.to_bytes().unwrap();
    let db = AssetsDb::from_bytes(&bytes).unwrap();
    let models = db.database(PrototypeType::Model).unwrap().unwrap();
    assert_eq!(models.layout(), Layout::Known { item_size: 0x20 });
    model.to_bytes().unwrap();
}

#[test]
fn a_checksum_matching_neither_is_reported_not_refused() {
    let mut b = w::all_prototypes().unwrap();
    b.checksum(ChecksumKind::Fixed(0x1234));
    let bytes = b.to_bytes().unwrap();
    let db = AssetsDb::from_bytes(&bytes).unwrap();
    assert_eq!(db.verify_checksum().matches(), ChecksumMatch::None);
    assert_eq!(db.verify_checksum().stored, 0x1234);
}

#[test]
fn unknown_schema_that_does_not_fit_stays_raw() {
    let mut b = AssetsBuilder::new();
    b.schema_hash(PrototypeType::EffectPreset, 0xBAD);
    let id = b.path("content/a.preset").unwrap();
    b.prototype(
        id,
        EffectPresetFields {
            high_id: 1,
            low_id: 2,
        },
    )
    .unwrap();
    let mut bytes = b.to_bytes().unwrap();
    let db = AssetsDb::from_bytes(&bytes).unwrap();
    let d = db.database(PrototypeType::EffectPreset).unwrap().unwrap();
    assert_eq!(d.layout(), Layout::Checked { item_size: 0x10 });
    // Claim 1000 records in the blob: no layout fits any more.
    let count_at = d.blob_offset();
    bytes[count_at..count_at + 8].copy_from_slice(&1000u64.to_le_bytes());
    let db = AssetsDb::from_bytes(&bytes).unwrap();
    let d = db.database(PrototypeType::EffectPreset).unwrap().unwrap();
    assert_eq!(d.layout(), Layout::Raw(RawReason::RecordsDoNotFit));
    assert!(matches!(
        d.prototype(0, db.strings()).unwrap(),
        Prototype::Raw(r) if r.reason == RawReason::RecordsDoNotFit
    ));
    assert!(d.prototype(1000, db.strings()).is_err());
}

#[test]
fn malformed_headers_give_precise_errors() {
    let good = w::example_file();
    let mut bad = good.clone();
    bad[0] = b'X';
    let e = AssetsDb::from_bytes(&bad).unwrap_err();
    assert_eq!((e.offset(), e.what()), (0, "BWDB.magic"));
    assert!(matches!(
        e.kind(),
        ErrorKind::BadMagic {
            expected: 0x42574442,
            ..
        }
    ));

    let mut bad = good.clone();
    bad[4..8].copy_from_slice(&0x0102_0000u32.to_le_bytes());
    let e = AssetsDb::from_bytes(&bad).unwrap_err();
    assert_eq!(e.what(), "BWDB.version");
    assert_eq!(
        e.kind(),
        ErrorKind::UnsupportedVersion { found: 0x0102_0000 }
    );

    let mut bad = good.clone();
    bad[0xC] = 0x20;
    assert_eq!(
        AssetsDb::from_bytes(&bad).unwrap_err().what(),
        "BWDB.architecture"
    );
    let mut bad = good.clone();
    bad[0xE] = 1;
    assert_eq!(
        AssetsDb::from_bytes(&bad).unwrap_err().what(),
        "BWDB.endianness"
    );

    let e = AssetsDb::from_bytes(&good[..0x40]).unwrap_err();
    assert_eq!((e.offset(), e.what()), (0x10, "BWDB.bodyHeader"));

    // Strings capacity far beyond the file: the buckets do not fit.
    let mut bad = good.clone();
    bad[0x10..0x14].copy_from_slice(&0x4000_0000u32.to_le_bytes());
    let e = AssetsDb::from_bytes(&bad).unwrap_err();
    assert_eq!(e.what(), "offsetsMap.buckets");
    assert!(matches!(e.kind(), ErrorKind::Truncated { .. }));

    // Paths pointer out of the file.
    let mut bad = good.clone();
    bad[0x58..0x60].copy_from_slice(&0x7fff_0000i64.to_le_bytes());
    let e = AssetsDb::from_bytes(&bad).unwrap_err();
    assert_eq!((e.offset(), e.what()), (0x58, "pathsStorage.data"));
    assert!(matches!(
        e.kind(),
        ErrorKind::PointerOutOfBounds { base: 0x50, .. }
    ));
}

#[test]
fn a_full_table_and_a_cyclic_parent_chain_terminate() {
    // Every strings bucket occupied by another key: the probe stops after `capacity` slots.
    let mut b = AssetsBuilder::new();
    b.capacities(3, 1);
    for s in ["a", "b", "c"] {
        b.string(s);
    }
    let id = b.path("x").unwrap();
    b.prototype(id, EffectPresetFields::default()).unwrap();
    let bytes = b.to_bytes().unwrap();
    let db = AssetsDb::from_bytes(&bytes).unwrap();
    assert_eq!(db.string(murmur3_32(b"zzz", 0)).unwrap(), None);
    assert_eq!(db.string(murmur3_32(b"b", 0)).unwrap(), Some("b"));
    assert_eq!(db.prototype(id ^ 1).unwrap(), None);

    let mut b = AssetsBuilder::new();
    b.path_entry(1, 2, "a").path_entry(2, 1, "b");
    let bytes = b.to_bytes().unwrap();
    let db = AssetsDb::from_bytes(&bytes).unwrap();
    let e = db.full_path(1, &mut String::new()).unwrap_err();
    assert_eq!(e.what(), "PathEntry.parentId");
    let index = gamebin::wows::assets::PathIndex::build(db.paths()).unwrap();
    assert!(index.full_path(db.paths(), 2, &mut String::new()).is_err());
    assert!(
        index
            .for_each_full_path(db.paths(), &mut String::new(), |_, _| Ok(()))
            .is_err()
    );
    assert!(db.find_path("b/a").unwrap().is_none());
}

#[test]
fn the_streaming_walk_handles_children_listed_before_parents() {
    let mut b = AssetsBuilder::new();
    b.path_entry(3, 2, "c.model")
        .path_entry(2, 1, "b")
        .path_entry(1, 0, "a")
        .path_entry(4, 2, "d.visual")
        .path_entry(5, 0, "e")
        .path_entry(6, 3, "f");
    let bytes = b.to_bytes().unwrap();
    let db = AssetsDb::from_bytes(&bytes).unwrap();
    let index = gamebin::wows::assets::PathIndex::build(db.paths()).unwrap();
    let mut all = Vec::new();
    index
        .for_each_full_path(db.paths(), &mut String::new(), |_, p| {
            all.push(p.to_string());
            Ok(())
        })
        .unwrap();
    assert_eq!(
        all,
        [
            "a/b/c.model",
            "a/b",
            "a",
            "a/b/d.visual",
            "e",
            "a/b/c.model/f"
        ]
    );
}

#[test]
fn values_of_every_material_type_are_typed() {
    let mut b = AssetsBuilder::new();
    let id = b.path("m.mfm").unwrap();
    b.prototype(
        id,
        MaterialFields {
            properties: vec![
                PropertyFields::new("f", PropertyValue::Float(1.0)),
                PropertyFields::new("g", PropertyValue::Float(2.0)),
            ],
            ..Default::default()
        },
    )
    .unwrap();
    let bytes = b.to_bytes().unwrap();
    let db = AssetsDb::from_bytes(&bytes).unwrap();
    let Prototype::Material(m) = record(&db, "m.mfm") else {
        panic!()
    };
    let p: Vec<_> = m.properties().unwrap().map(|p| p.unwrap()).collect();
    assert_eq!(
        (p[1].kind, p[1].index, p[1].value),
        (3, 1, MaterialValue::Float(2.0))
    );
    assert_eq!(p[1].value.type_name(), "float");
    assert!(m.value(3, 2).is_err());
    assert!(m.value(9, 0).is_err());
}

#[test]
fn every_id_and_path_of_a_generated_file_is_found() {
    use gamebin::synth::assets_scale::{Scale, synth};
    let bytes = synth(Scale::Small).unwrap();
    let db = AssetsDb::from_bytes(&bytes).unwrap();
    db.validate().unwrap();
    assert_eq!(db.paths().len(), 2461);
    assert_eq!(db.strings().capacity(), 7867);
    assert_eq!(db.prototypes().capacity(), 3931);
    assert_eq!(db.verify_checksum().matches(), ChecksumMatch::Murmur3);
    assert!(db.ids_are_path_hashes(64).unwrap().all_match());
    let index = gamebin::wows::assets::PathIndex::build(db.paths()).unwrap();
    let mut path = String::new();
    let mut found = 0;
    for entry in db.paths().iter() {
        assert!(
            index
                .full_path(db.paths(), entry.self_id(), &mut path)
                .unwrap()
        );
        assert_eq!(db.path_id(&path), entry.self_id());
        if let Some(at) = db.lookup_path(&path).unwrap() {
            found += 1;
            let record = db.record(at).unwrap();
            record.validate().unwrap();
            assert!(record.kind().is_some());
        }
    }
    // The streaming walk gives the same paths as the per-id walk.
    let mut walked = 0;
    let mut one = String::new();
    index
        .for_each_full_path(db.paths(), &mut path, |entry, full| {
            index.full_path(db.paths(), entry.self_id(), &mut one)?;
            assert_eq!(full, one);
            walked += 1;
            Ok(())
        })
        .unwrap();
    assert_eq!(walked, db.paths().len());
    // Every r2p entry is reachable from a path and every id in the map was found.
    assert_eq!(found, db.prototypes().count());
    for p in db.prototypes().iter() {
        let (id, at) = p.unwrap();
        assert_eq!(db.prototype(id).unwrap(), Some(at));
    }
    // Every database holds records of its own type.
    let mut total = 0;
    for d in db.databases().iter() {
        let d = d.unwrap();
        assert!(d.record_count() > 0, "{:?}", d.type_name());
        total += d.record_count();
    }
    assert_eq!(total, found);
}

#[test]
fn a_raw_database_with_a_huge_record_count_does_not_hang_validation() {
    let mut bytes = w::legacy_layouts().unwrap().to_bytes().unwrap();
    let db = AssetsDb::from_bytes(&bytes).unwrap();
    let unknown = db.databases().get(10).unwrap().unwrap();
    let at = unknown.blob_offset();
    bytes[at..at + 8].copy_from_slice(&(u64::MAX >> 2).to_le_bytes());
    let db = AssetsDb::from_bytes(&bytes).unwrap();
    db.validate().unwrap();
    let unknown = db.databases().get(10).unwrap().unwrap();
    assert_eq!(unknown.item_size(), None);
    assert!(matches!(
        unknown.prototype(1 << 40, db.strings()).unwrap(),
        Prototype::Raw(_)
    ));
}

/// `{:?}` of a database stays short however many records and paths it holds.
#[test]
fn debug_of_a_large_database_is_short() {
    let mut b = gamebin::wows::assets::model::AssetsBuilder::new();
    for i in 0..5000 {
        b.path(&format!("content/many/file_{i}.fxpreset")).unwrap();
    }
    let bytes = b.to_bytes().unwrap();
    assert!(bytes.len() > 100_000);
    let db = gamebin::wows::assets::AssetsDb::from_bytes(&bytes).unwrap();
    let shown = format!("{db:?}");
    assert!(shown.len() < 4000, "{} characters", shown.len());
}

/// `find_path` answers like a walk through the parents in every shape a table can take: a segment
/// with more namesakes than the one pass keeps on the stack (the fallback), a name repeated along
/// the path, children listed before their parents, a leaf whose parent chain does not reach a
/// root, and names whose parents differ only further up.
#[test]
fn find_path_in_one_pass_agrees_with_the_parent_walk() {
    use gamebin::wows::assets::FIND_CANDIDATES;
    let mut b = AssetsBuilder::new();
    // Children before parents: the leaf first, its folders after.
    b.path_entry(30, 20, "a")
        .path_entry(20, 10, "a")
        .path_entry(10, 0, "a");
    // `x/lods/m` under many folders named `lods`: more namesakes than the pass keeps.
    let folders = FIND_CANDIDATES as u64 + 8;
    for n in 0..folders {
        b.path_entry(1000 + n, 0, &format!("f{n}"))
            .path_entry(2000 + n, 1000 + n, "lods")
            .path_entry(3000 + n, 2000 + n, "m");
    }
    // Two roots with the same child names: only the second's chain is `r2/c/d`.
    b.path_entry(40, 0, "r1")
        .path_entry(41, 40, "c")
        .path_entry(42, 41, "d");
    b.path_entry(50, 0, "r2")
        .path_entry(51, 50, "c")
        .path_entry(52, 51, "d");
    // A leaf whose parent id names no entry.
    b.path_entry(60, 99, "orphan");
    let bytes = b.to_bytes().unwrap();
    let db = AssetsDb::from_bytes(&bytes).unwrap();
    let id = |p: &str| db.find_path(p).unwrap().map(|e| e.self_id());
    assert_eq!(id("a/a/a"), Some(30));
    assert_eq!(id("a/a"), Some(20));
    assert_eq!(id("a"), Some(10));
    assert_eq!(id("a/a/a/a"), None);
    assert_eq!(
        id(&format!("f{}/lods/m", folders - 1)),
        Some(3000 + folders - 1)
    );
    assert_eq!(id("f3/lods/m"), Some(3003));
    assert_eq!(id("f3/lods"), Some(2003));
    assert_eq!(id("lods/m"), None);
    assert_eq!(id("r2/c/d"), Some(52));
    assert_eq!(id("r1/c/d"), Some(42));
    assert_eq!(id("r3/c/d"), None);
    assert_eq!(id("orphan"), None);
    assert_eq!(id(""), None);
    assert_eq!(id(&"a/".repeat(100)), None);
    assert_eq!(id(&"a".repeat(300)), None);
    // Every full path the table holds is found at its own entry.
    let mut path = String::new();
    for entry in db.paths().iter() {
        if db
            .full_path(entry.self_id(), &mut path)
            .is_ok_and(|found| found)
        {
            assert_eq!(id(&path), Some(entry.self_id()), "{path}");
        }
    }
}

// ---- from_view: a read file as a builder, written again ----

/// Everything two files store, compared through their views (the parts that do not depend on
/// where a writer put them): the checksum flavour, both maps' capacities and entries, the path
/// entries in order, and every database with its records (raw databases by their blobs).
fn assert_same_structure(a: &AssetsDb<'_>, b: &AssetsDb<'_>) {
    use gamebin::wows::assets::PrototypeFields;
    assert_eq!(a.verify_checksum().matches(), b.verify_checksum().matches());
    assert_eq!(a.strings().capacity(), b.strings().capacity());
    let strings = |db: &AssetsDb<'_>| {
        let mut all: Vec<(u32, String)> = db
            .strings()
            .iter()
            .map(|s| s.map(|(id, s)| (id, s.to_owned())).unwrap())
            .collect();
        all.sort_unstable();
        all
    };
    assert_eq!(strings(a), strings(b));
    assert_eq!(a.prototypes().capacity(), b.prototypes().capacity());
    let prototypes = |db: &AssetsDb<'_>| {
        let mut all: Vec<(u64, u32)> = db
            .prototypes()
            .iter()
            .map(|p| p.map(|(id, at)| (id, at.value)).unwrap())
            .collect();
        all.sort_unstable();
        all
    };
    assert_eq!(prototypes(a), prototypes(b));
    let paths = |db: &AssetsDb<'_>| {
        db.paths()
            .iter()
            .map(|e| (e.self_id(), e.parent_id(), e.name().unwrap().to_owned()))
            .collect::<Vec<_>>()
    };
    assert_eq!(paths(a), paths(b));
    assert_eq!(a.databases().len(), b.databases().len());
    for (da, db_) in a.databases().iter().zip(b.databases().iter()) {
        let (da, db_) = (da.unwrap(), db_.unwrap());
        assert_eq!(
            (da.magic(), da.schema_hash(), da.layout()),
            (db_.magic(), db_.schema_hash(), db_.layout())
        );
        if da.item_size().is_none() {
            assert_eq!(da.blob(), db_.blob());
            continue;
        }
        assert_eq!(da.record_count(), db_.record_count());
        for i in 0..da.record_count() {
            let (ra, rb) = (
                da.prototype(i, a.strings()).unwrap(),
                db_.prototype(i, b.strings()).unwrap(),
            );
            // The fields hold every stored value (an effect's systems and a velocity field's
            // velocities included).
            assert_eq!(
                PrototypeFields::read(a, ra).unwrap(),
                PrototypeFields::read(b, rb).unwrap()
            );
        }
    }
}

/// `to_bytes(from_view(file))`, and the view of the copy.
fn written_again(file: &[u8]) -> Vec<u8> {
    let view = AssetsDb::from_bytes(file).unwrap();
    AssetsBuilder::from_view(&view).unwrap().to_bytes().unwrap()
}

#[test]
fn every_fixture_is_written_again_byte_for_byte() {
    let mut files = w::fixtures().unwrap();
    files.push((
        "all_prototypes()",
        w::all_prototypes().unwrap().to_bytes().unwrap(),
    ));
    files.push((
        "legacy_layouts()",
        w::legacy_layouts().unwrap().to_bytes().unwrap(),
    ));
    files.push((
        "synth(Small)",
        gamebin::synth::assets_scale::synth(gamebin::synth::assets_scale::Scale::Small).unwrap(),
    ));
    for (name, file) in files {
        let again = written_again(&file);
        assert!(again == file, "{name}: not the same bytes");
        assert_same_structure(
            &AssetsDb::from_bytes(&file).unwrap(),
            &AssetsDb::from_bytes(&again).unwrap(),
        );
    }
}

#[test]
fn from_view_keeps_odd_states_and_layouts() {
    // Explicit capacities (a crowded map), a fixed checksum, a state no reader has seen, and a
    // known type whose blob header the reader does not accept (kept raw).
    let mut b = w::legacy_layouts().unwrap();
    b.capacities(40, 7)
        .checksum(ChecksumKind::Fixed(0xDEAD_BEEF))
        .prototype_value(0x60, (5 << 8) | 1)
        .prototype_value(0x60 + 7, 2)
        .prototype_value(0x60 + 14, 3);
    let header = |size: u64| [1u64.to_le_bytes(), size.to_le_bytes()].concat();
    b.unknown_database(
        PrototypeType::Effect.magic(),
        9,
        [header(24), vec![7; 24]].concat(),
    );
    let file = b.to_bytes().unwrap();
    let view = AssetsDb::from_bytes(&file).unwrap();
    assert_eq!(view.verify_checksum().matches(), ChecksumMatch::None);
    let again = written_again(&file);
    assert!(again == file, "not the same bytes");
    // A builder from a view can be extended: an existing parent is found, not added again.
    let mut b = AssetsBuilder::from_view(&view).unwrap();
    let paths = b.path_count();
    let id = b.path("content/ships/New.model").unwrap();
    assert_eq!(b.path_count(), paths + 1);
    let copy = b.to_bytes().unwrap();
    let copy = AssetsDb::from_bytes(&copy).unwrap();
    let entry = copy.paths().find(id).unwrap();
    assert_eq!(entry.parent_id(), 0x20);
}

#[test]
fn from_view_refuses_what_it_cannot_carry_naming_where() {
    // A render set naming a node whose name is not in the strings map.
    let file = w::all_prototypes().unwrap().to_bytes().unwrap();
    let view = AssetsDb::from_bytes(&file).unwrap();
    let Prototype::Visual(v) = record(&view, "content/gameplay/Test.visual") else {
        panic!()
    };
    let set = v.render_sets().unwrap().next().unwrap();
    let ids = set.node_name_ids().unwrap();
    let at = ids.as_ptr() as usize - file.as_ptr() as usize;
    let mut bad = file.clone();
    bad[at..at + 4].copy_from_slice(&0x1234_5678u32.to_le_bytes());
    let view = AssetsDb::from_bytes(&bad).unwrap();
    let e = AssetsBuilder::from_view(&view).unwrap_err();
    assert_eq!(e.field(), Some("RenderSet.nodeNameIds"));
    // Named by the file's record it was encoding.
    let subject = format!("the file's record at {:#010x}", v.offset());
    assert_eq!(e.subject(), Some(subject.as_str()), "{e}");
    assert!(e.path().starts_with("databases["), "{e}");

    // A visual's render sets pointing outside the file: the reader's error, with its offset.
    let mut bad = file.clone();
    let field = v.offset() + 0x60;
    bad[field..field + 8].copy_from_slice(&0x7fff_0000i64.to_le_bytes());
    let view = AssetsDb::from_bytes(&bad).unwrap();
    let e = read_error(&AssetsBuilder::from_view(&view).unwrap_err());
    assert_eq!(
        (e.what(), e.offset()),
        ("VisualPrototype.renderSets", field as u64)
    );
    assert!(
        matches!(e.kind(), ErrorKind::PointerOutOfBounds { .. }),
        "{e}"
    );

    // A string whose bucket key is not its MurmurHash3.
    let mut bad = file.clone();
    let strings = AssetsDb::from_bytes(&file)
        .unwrap()
        .body_header()
        .strings_buckets_ptr
        .get();
    let buckets = 0x10 + strings as usize;
    let slot = (0..view.strings().capacity())
        .find(|s| bad[buckets + s * 8 + 7] & 0x80 != 0)
        .unwrap();
    bad[buckets + slot * 8] ^= 1;
    let view = AssetsDb::from_bytes(&bad).unwrap();
    let e = read_error(&AssetsBuilder::from_view(&view).unwrap_err());
    assert_eq!(
        (e.what(), e.offset()),
        ("offsetsMap.key", (buckets + slot * 8) as u64)
    );
}

/// The reader's error inside a model's error (a file that does not read while its model is built).
fn read_error(e: &gamebin::WriteError) -> gamebin::Error {
    match e.kind() {
        gamebin::WriteErrorKind::Read(read) => *read,
        _ => panic!("expected the reader's error, got {e}"),
    }
}

#[test]
fn from_view_refuses_records_sharing_arrays_beyond_the_files_size() {
    // Four velocity fields, each pointed at all four arrays at once: written out one by one, the
    // records would take four times the file.
    let mut b = AssetsBuilder::new();
    for i in 0..4 {
        let id = b.path(&format!("content/effects/v{i}.vfield")).unwrap();
        let field = VelocityFieldFields {
            dimensions: [1, 1, 1],
            velocities: vec![7; 4000],
        };
        b.prototype(id, field).unwrap();
    }
    let mut file = b.to_bytes().unwrap();
    let view = AssetsDb::from_bytes(&file).unwrap();
    let database = view
        .database(PrototypeType::VelocityField)
        .unwrap()
        .unwrap();
    let records: Vec<usize> = (0..4).map(|i| database.record_offset(i).unwrap()).collect();
    let first =
        records[0] + i64::from_le_bytes(file[records[0] + 16..][..8].try_into().unwrap()) as usize;
    for &at in &records {
        file[at + 12..at + 16].copy_from_slice(&16_000u32.to_le_bytes());
        file[at + 16..at + 24].copy_from_slice(&((first as i64) - at as i64).to_le_bytes());
    }
    let view = AssetsDb::from_bytes(&file).unwrap();
    view.validate().unwrap();
    let e = read_error(&AssetsBuilder::from_view(&view).unwrap_err());
    assert_eq!(e.what(), "Database.records", "{e}");
    assert!(records.contains(&(e.offset() as usize)), "{e}");
}

#[test]
fn from_view_never_panics_on_damaged_files() {
    // Every truncation and a byte flip at every offset of both fixtures: Ok or Err.
    for (_, file) in w::fixtures().unwrap() {
        for len in 0..file.len() {
            if let Ok(view) = AssetsDb::from_bytes(&file[..len]) {
                if let Ok(b) = AssetsBuilder::from_view(&view) {
                    let _ = b.to_bytes();
                }
            }
        }
        let mut bad = file.clone();
        for at in 0..file.len() {
            bad[at] ^= 0xA5;
            if let Ok(view) = AssetsDb::from_bytes(&bad) {
                if let Ok(b) = AssetsBuilder::from_view(&view) {
                    let _ = b.to_bytes();
                }
            }
            bad[at] ^= 0xA5;
        }
    }
}

#[test]
#[ignore = "needs GAMEBIN_SAMPLES (real files): GAMEBIN_SAMPLES=../shared/samples cargo test -- --include-ignored"]
fn the_independent_sample_is_written_again_with_the_same_structure() {
    let dir = std::path::PathBuf::from(std::env::var_os("GAMEBIN_SAMPLES").expect("GAMEBIN_SAMPLES is not set: this test reads the real samples (run it with GAMEBIN_SAMPLES=../shared/samples cargo test -- --include-ignored)"));
    let path = dir.join("wows-assets/minimal_synthetic_assets.bin");
    let file = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let again = written_again(&file);
    let (a, b) = (
        AssetsDb::from_bytes(&file).unwrap(),
        AssetsDb::from_bytes(&again).unwrap(),
    );
    b.validate().unwrap();
    assert_same_structure(&a, &b);
    // Byte for byte too: the independent writer starts sections and blobs on 8- and 16-byte
    // boundaries, stores slots in its strings' bucket words (6..=10) and pads its blobs' arrays
    // its own way, all of which the builder keeps as the file's layout.
    assert!(again == file, "the sample written again differs");
    assert_eq!(written_again(&again), again);
}

/// Every entry's full path from the index (by position) and from the walk without it: the same
/// path, or an error from both.
fn assert_index_agrees_with_the_walk(file: &[u8]) {
    let db = AssetsDb::from_bytes(file).unwrap();
    let index = gamebin::wows::assets::PathIndex::build(db.paths()).unwrap();
    let (mut by_index, mut by_walk) = (String::new(), String::new());
    for entry in db.paths().iter() {
        let indexed = index.full_path_at(db.paths(), entry.index(), &mut by_index);
        let walked = db.full_path(entry.self_id(), &mut by_walk);
        match (indexed, walked) {
            (Ok(true), Ok(true)) => assert_eq!(by_index, by_walk, "entry {}", entry.index()),
            (Err(_), Err(_)) => {}
            (a, b) => panic!("entry {}: index {a:?}, walk {b:?}", entry.index()),
        }
    }
}

/// The names of `entries` are not UTF-8, and their full paths through the index say so; every
/// other path is the walk's.
fn assert_names_refused_through_the_index(file: &[u8], entries: [usize; 2]) {
    let db = AssetsDb::from_bytes(file).unwrap();
    let index = gamebin::wows::assets::PathIndex::build(db.paths()).unwrap();
    let mut path = String::new();
    for n in entries {
        assert!(db.paths().get(n).unwrap().name().is_err());
        let error = index.full_path_at(db.paths(), n, &mut path).unwrap_err();
        assert!(error.to_string().contains("not UTF-8"), "{error}");
    }
    // The walk over every path, which checks the string pool once, stops at the first of them.
    let error = index
        .for_each_full_path(db.paths(), &mut path, |_, _| Ok(()))
        .unwrap_err();
    assert!(error.to_string().contains("not UTF-8"), "{error}");
    assert_index_agrees_with_the_walk(file);
}

/// Sets the stored size and the pointer of entry `index`'s name, so that it names `size` bytes
/// at file offset `target`.
fn point_name(file: &mut [u8], index: usize, target: usize, size: u32) {
    let at = AssetsDb::from_bytes(file)
        .unwrap()
        .paths()
        .get(index)
        .unwrap()
        .offset();
    // PathEntry: selfId u64, parentId u64, nameSize u32, pad u32, name pointer i64 relative to
    // the name size's offset.
    file[at + 0x10..at + 0x14].copy_from_slice(&size.to_le_bytes());
    let relative = target as i64 - (at + 0x10) as i64;
    file[at + 0x18..at + 0x20].copy_from_slice(&relative.to_le_bytes());
}

#[test]
fn names_in_a_string_pool_and_names_spread_over_the_file_give_the_same_paths() {
    // The builder's names lie end to end in one string pool.
    let file = gamebin::synth::assets::example_file();
    assert_index_agrees_with_the_walk(&file);
    // One name pointed at the file's first bytes (its ASCII magic), far from the others.
    let mut spread = file.clone();
    point_name(&mut spread, 0, 0, 4);
    let db = AssetsDb::from_bytes(&spread).unwrap();
    assert_eq!(
        db.paths().get(0).unwrap().name_bytes().unwrap(),
        &spread[..4]
    );
    assert!(db.paths().get(0).unwrap().name().is_ok());
    assert_index_agrees_with_the_walk(&spread);
}

#[test]
fn names_beyond_ascii_are_kept_in_the_path_index() {
    let mut b = AssetsBuilder::new();
    b.path_entry(1, 0, "größe")
        .path_entry(2, 1, "näme.model")
        .path_entry(3, 1, "ü");
    let bytes = b.to_bytes().unwrap();
    let db = AssetsDb::from_bytes(&bytes).unwrap();
    let index = gamebin::wows::assets::PathIndex::build(db.paths()).unwrap();
    let mut path = String::new();
    assert!(index.full_path(db.paths(), 2, &mut path).unwrap());
    assert_eq!(path, "größe/näme.model");
    assert!(index.full_path(db.paths(), 3, &mut path).unwrap());
    assert_eq!(path, "größe/ü");
    assert_index_agrees_with_the_walk(&bytes);
}

#[test]
fn a_character_cut_in_two_between_adjacent_names_is_no_name_in_the_path_index() {
    // Two names with no terminator between them, whose bytes side by side are UTF-8: the first
    // ends with 0xc3, the second is 0xa9 (the two halves of "é"). The span of all names is then
    // UTF-8, and the index must still refuse each name alone.
    let mut file = gamebin::synth::assets::example_file();
    let (first, start, len) = {
        let db = AssetsDb::from_bytes(&file).unwrap();
        let entry = db
            .paths()
            .iter()
            .find(|e| e.name_bytes().unwrap().len() > 1)
            .unwrap();
        let name = entry.name_bytes().unwrap();
        let start = name.as_ptr() as usize - file.as_ptr() as usize;
        (entry.index(), start, name.len())
    };
    let second = usize::from(first == 0);
    // The first name without its terminator, its last byte 0xc3; its terminator becomes 0xa9,
    // the whole of the second name.
    point_name(&mut file, first, start, len as u32);
    file[start + len - 1] = 0xc3;
    file[start + len] = 0xa9;
    point_name(&mut file, second, start + len, 1);
    assert_names_refused_through_the_index(&file, [first, second]);
}

#[test]
fn a_character_cut_in_two_between_names_is_no_name_in_the_path_index() {
    let mut file = gamebin::synth::assets::example_file();
    // Two entries next to each other in the table, both named: the last byte of the first name
    // and the first of the second become the two halves of "é" (0xc3 0xa9). Each name is then
    // not UTF-8, though the two side by side are.
    let (i, first_end, second_start) = {
        let db = AssetsDb::from_bytes(&file).unwrap();
        let entries: Vec<_> = db.paths().iter().collect();
        let at = |bytes: &[u8]| bytes.as_ptr() as usize - file.as_ptr() as usize;
        let i = entries
            .windows(2)
            .position(|w| w.iter().all(|e| !e.name_bytes().unwrap().is_empty()))
            .unwrap();
        let (first, second) = (
            entries[i].name_bytes().unwrap(),
            entries[i + 1].name_bytes().unwrap(),
        );
        (i, at(first) + first.len(), at(second))
    };
    file[first_end - 1] = 0xc3;
    file[second_start] = 0xa9;
    assert_names_refused_through_the_index(&file, [i, i + 1]);
}

//! The whole `assets.bin` as a model: `AssetsBuilder::from_view` → `AssetsModel` (and, with
//! `serde`, JSON) → back → `to_bytes` gives the input again, byte for byte, for the committed
//! fixtures, the writer's example builders and a generated world; JSON that is no model gives a
//! serde error.
#![cfg(feature = "write")]

use gamebin::hash::murmur3_32;
use gamebin::synth::assets as w;
use gamebin::synth::assets_scale::{Scale, synth};
use gamebin::wows::assets::model::{
    AssetsBuilder, AssetsModel, BlobPlacement, DatabaseRecords, FileLayout, NodeNameMaps, Padding,
    StoredBlob, StringWords,
};
use gamebin::wows::assets::raw::{
    BODY_BASE, BODY_DATABASES_PTR, BODY_PATHS_PTR, BODY_R2P, BODY_R2P_BUCKETS_PTR,
    BODY_R2P_VALUES_PTR,
};
use gamebin::wows::assets::{
    AssetsDb, PropertyValue, Prototype, PrototypeFields, PrototypeState, PrototypeType,
};
use zerocopy::IntoBytes;

/// Every input of the round trips: the fixtures, the example builders' files and a generated
/// world (small scale).
fn inputs() -> Vec<(String, Vec<u8>)> {
    let mut files: Vec<(String, Vec<u8>)> = w::fixtures()
        .unwrap()
        .into_iter()
        .map(|(name, bytes)| (name.to_string(), bytes))
        .collect();
    files.push((
        "all_prototypes()".into(),
        w::all_prototypes().unwrap().to_bytes().unwrap(),
    ));
    files.push((
        "legacy_layouts()".into(),
        w::legacy_layouts().unwrap().to_bytes().unwrap(),
    ));
    files.push(("synth(Small)".into(), synth(Scale::Small).unwrap()));
    files
}

fn model_of(file: &[u8]) -> AssetsModel {
    let view = AssetsDb::from_bytes(file).unwrap();
    AssetsBuilder::from_view(&view).unwrap().to_model()
}

#[test]
fn the_model_of_a_file_writes_the_file_again() {
    for (name, file) in inputs() {
        let model = model_of(&file);
        let again = AssetsBuilder::from_model(model.clone()).unwrap();
        assert_eq!(again.to_bytes().unwrap(), file, "{name}");
        assert_eq!(again.to_model(), model, "{name}");
        // The model's own names for the same round trip, as every format's model has them.
        let view = AssetsDb::from_bytes(&file).unwrap();
        let direct = AssetsModel::from_view(&view).unwrap();
        assert_eq!(direct, model, "{name}");
        assert_eq!(direct.to_bytes().unwrap(), file, "{name}");
    }
}

#[test]
fn a_builder_made_from_a_model_finds_the_paths_it_holds() {
    let file = w::all_prototypes().unwrap().to_bytes().unwrap();
    let view = AssetsDb::from_bytes(&file).unwrap();
    let mut b = AssetsBuilder::from_model(model_of(&file)).unwrap();
    let count = b.path_count();
    let id = b.path("content/gameplay/Test.visual").unwrap();
    assert_eq!(id, view.path_id("content/gameplay/Test.visual"));
    assert_eq!(
        b.path_count(),
        count,
        "no entry added for a path that is there"
    );
    b.path("content/gameplay/New.visual").unwrap();
    assert_eq!(b.path_count(), count + 1, "only the leaf is new");
}

#[test]
fn the_model_carries_what_the_file_stores() {
    let file = w::legacy_layouts().unwrap().to_bytes().unwrap();
    let view = AssetsDb::from_bytes(&file).unwrap();
    let model = model_of(&file);
    assert_eq!(model.strings.len(), view.strings().iter().count());
    assert_eq!(model.paths.len(), view.paths().len());
    assert_eq!(model.databases.len(), view.databases().len());
    assert_eq!(
        model.strings_capacity,
        Some(view.strings().capacity()),
        "the map's capacity as stored"
    );
    // The deleted entry keeps its state; the database of unknown magic its blob.
    assert!(
        model
            .prototypes
            .iter()
            .any(|p| p.id == 0x50 && p.state == PrototypeState::Deleted)
    );
    let raw = model
        .databases
        .iter()
        .filter(|d| matches!(d.records, DatabaseRecords::Raw { .. }))
        .count();
    assert_eq!(raw, 1);
    // Each decoded record is the reader's fields of it.
    for record in view.records() {
        let (database, index, record) = record.unwrap();
        let read = PrototypeFields::read(&view, record).unwrap();
        if let DatabaseRecords::Decoded { records, .. } = &model.databases[database.index()].records
        {
            assert_eq!(records[index], read);
        }
    }
}

#[test]
fn a_model_the_writer_cannot_store_is_refused_with_the_part_named() {
    let file = w::all_prototypes().unwrap().to_bytes().unwrap();
    let model = model_of(&file);
    let error = |model: AssetsModel| AssetsBuilder::from_model(model).unwrap_err().to_string();

    // A record moved into another type's database.
    let mut moved = model.clone();
    let record = match &mut moved.databases[1].records {
        DatabaseRecords::Decoded { records, .. } => records[0].clone(),
        DatabaseRecords::Raw { .. } => panic!("the visuals are decoded"),
    };
    if let DatabaseRecords::Decoded { records, .. } = &mut moved.databases[0].records {
        records.push(record);
    }
    let message = error(moved);
    assert!(message.contains("Database.records"), "{message}");

    let mut twice = model.clone();
    let first = twice.strings[0].clone();
    twice.strings.push(first);
    let message = error(twice);
    assert!(message.contains("offsetsMap.key"), "{message}");

    let mut wide = model.clone();
    wide.prototypes[0].database = 64;
    let message = error(wide);
    assert!(
        message.contains("resourceToPrototypeMap.value"),
        "{message}"
    );

    let mut layout = model.clone();
    if let DatabaseRecords::Decoded { item_size, .. } = &mut layout.databases[3].records {
        *item_size = 0x20; // the model database, its records in the 0x28 layout
    }
    let message = error(layout);
    assert!(message.contains("ModelPrototype.layout"), "{message}");

    // A capacity far beyond the entries would be allocated as given: refused.
    let mut huge = model.clone();
    huge.prototypes_capacity = Some(usize::MAX);
    let message = error(huge);
    assert!(
        message.contains("resourceToPrototypeMap.capacity"),
        "{message}"
    );
    let mut huge = model.clone();
    huge.strings_capacity = Some(8 * huge.strings.len() + 1025);
    let message = error(huge);
    assert!(message.contains("offsetsMap.capacity"), "{message}");

    let mut unknown = model;
    unknown.databases[0].magic ^= 1;
    let message = error(unknown);
    assert!(message.contains("DatabaseEntry.magic"), "{message}");
}

/// `file` (a file of this writer, MurmurHash3 checksum) with `gap` bytes of `fill` inserted
/// before its resource-to-prototype map: the body header's pointers to the parts after the gap
/// moved with them (the path and database entries point relative to themselves, moved too), and
/// the checksum made again. Another writer's layout, made by hand.
fn with_gap_before_r2p(file: &[u8], gap: usize, fill: u8) -> Vec<u8> {
    let field = |bytes: &[u8], at: usize| i64::from_le_bytes(bytes[at..at + 8].try_into().unwrap());
    let r2p_at = (BODY_BASE + BODY_R2P) as i64 + field(file, BODY_BASE + BODY_R2P_BUCKETS_PTR);
    let r2p_at = usize::try_from(r2p_at).unwrap();
    let mut out = file[..r2p_at].to_vec();
    out.extend(std::iter::repeat_n(fill, gap));
    out.extend_from_slice(&file[r2p_at..]);
    for ptr in [
        BODY_R2P_BUCKETS_PTR,
        BODY_R2P_VALUES_PTR,
        BODY_PATHS_PTR,
        BODY_DATABASES_PTR,
    ] {
        let at = BODY_BASE + ptr;
        let moved = field(&out, at) + gap as i64;
        out[at..at + 8].copy_from_slice(&moved.to_le_bytes());
    }
    let checksum = murmur3_32(&out[BODY_BASE..], 0);
    out[8..12].copy_from_slice(&checksum.to_le_bytes());
    out
}

/// The file with the resource-to-prototype map moved 3 bytes on (unaligned) by hand.
fn moved_file() -> (Vec<u8>, Vec<u8>) {
    let file = w::all_prototypes().unwrap().to_bytes().unwrap();
    let moved = with_gap_before_r2p(&file, 3, 0);
    (file, moved)
}

#[test]
fn a_file_with_a_moved_section_is_written_again_byte_for_byte() {
    let (file, moved) = moved_file();
    let view = AssetsDb::from_bytes(&moved).unwrap();
    view.validate().unwrap();
    let model = model_of(&moved);
    let layout = model
        .layout
        .clone()
        .expect("another layout than the writer's");
    let own = AssetsDb::from_bytes(&file).unwrap();
    let own_r2p = (BODY_BASE + BODY_R2P) as u64 as i64 + own.body_header().r2p_buckets_ptr.get();
    assert_eq!(layout.prototype_buckets as i64, own_r2p + 3);
    assert!(layout.stored_blobs.is_empty(), "the blobs are the writer's");
    let again = AssetsBuilder::from_model(model.clone()).unwrap();
    assert_eq!(again.to_bytes().unwrap(), moved);
    // Without its layout, the model is the writer's file again.
    let mut dropped = model;
    dropped.layout = None;
    assert_eq!(
        AssetsBuilder::from_model(dropped)
            .unwrap()
            .to_bytes()
            .unwrap(),
        file
    );
    // The writer's own files carry no layout.
    for (name, file) in inputs() {
        assert_eq!(model_of(&file).layout, None, "{name}");
    }
}

/// Bytes other than zero between parts are kept (a writer's fill); the pads inside the headers
/// and entries are not (the model's docs list it): written as zeros, in a file that reads the
/// same.
#[test]
fn fill_between_parts_is_kept_and_pads_inside_headers_are_not() {
    let file = w::all_prototypes().unwrap().to_bytes().unwrap();
    let filled = with_gap_before_r2p(&file, 5, 0xEE);
    let model = model_of(&filled);
    let padding = &model.layout.as_ref().unwrap().padding;
    assert_eq!(padding.len(), 1);
    assert_eq!(padding[0].bytes, [0xEE; 5]);
    let written = AssetsBuilder::from_model(model)
        .unwrap()
        .to_bytes()
        .unwrap();
    assert!(written == filled, "the fill written again differs");

    // The body header's first pad (after the strings map's capacity), set by hand.
    let mut padded = file.clone();
    padded[BODY_BASE + 4..BODY_BASE + 8].copy_from_slice(&[0xEE; 4]);
    let checksum = murmur3_32(&padded[BODY_BASE..], 0);
    padded[8..12].copy_from_slice(&checksum.to_le_bytes());
    let model = model_of(&padded);
    let written = AssetsBuilder::from_model(model.clone())
        .unwrap()
        .to_bytes()
        .unwrap();
    assert!(written != padded);
    assert!(
        written == file,
        "only the pad (and so the checksum) differs"
    );
    assert_eq!(model_of(&written), model);
}

/// An edit of a file of another layout: a path renamed (its name longer), a string added (the
/// pool longer) and a record changed (its blob no longer the stored one). The parts after what
/// grew are laid out the writer's way; the file reads back with the edits.
fn assert_edits_pack(file: &[u8]) {
    let mut model = model_of(file);
    assert!(model.layout.is_some());
    let visual = model
        .paths
        .iter_mut()
        .find(|p| p.name == "Test.visual")
        .expect("a visual");
    visual.name = "Renamed_longer.visual".into();
    let id = visual.self_id;
    model.strings.push("a_new_string".into());
    for database in &mut model.databases {
        if let DatabaseRecords::Decoded { records, .. } = &mut database.records {
            for record in records {
                if let PrototypeFields::Visual(v) = record {
                    v.lods[0].extent = 1234.5;
                }
            }
        }
    }
    let bytes = AssetsBuilder::from_model(model)
        .unwrap()
        .to_bytes()
        .unwrap();
    let db = AssetsDb::from_bytes(&bytes).unwrap();
    db.validate().unwrap();
    let renamed = db
        .find_path("content/gameplay/Renamed_longer.visual")
        .unwrap()
        .expect("the renamed path");
    assert_eq!(renamed.self_id(), id);
    let at = db.prototype(id).unwrap().expect("its prototype");
    let PrototypeFields::Visual(v) = PrototypeFields::read(&db, db.record(at).unwrap()).unwrap()
    else {
        panic!("a visual")
    };
    assert_eq!(v.lods[0].extent, 1234.5);
    assert_eq!(
        db.string(murmur3_32(b"a_new_string", 0)).unwrap(),
        Some("a_new_string")
    );
}

#[test]
fn an_edited_file_of_another_layout_packs_with_its_edits() {
    assert_edits_pack(&moved_file().1);
    if let Some(file) = sample() {
        assert_edits_pack(&file);
    }
}

/// A layout from a hostile model: gaps beyond what is placed are refused (nothing allocated for
/// them), and so are blobs kept for databases the model does not have or out of order; parts
/// placed over each other fall back to the writer's layout, and neither a blob kept for other
/// records nor padding outside the gaps left is written.
#[test]
fn a_hostile_layout_is_refused_or_falls_back_to_the_writers() {
    let (file, moved) = moved_file();
    let model = model_of(&moved);
    let layout = model.layout.clone().unwrap();
    for far in [
        FileLayout {
            end: usize::MAX,
            ..layout.clone()
        },
        FileLayout {
            string_pool: 1 << 40,
            ..layout.clone()
        },
        FileLayout {
            blobs: vec![usize::MAX / 2; 10],
            ..layout.clone()
        },
    ] {
        let builder = AssetsBuilder::from_model(AssetsModel {
            layout: Some(far),
            ..model.clone()
        })
        .unwrap();
        let e = builder.to_bytes().unwrap_err().to_string();
        assert!(e.contains("layout."), "{e}");
        assert!(e.contains("gaps"), "{e}");
    }
    let kept = |database| StoredBlob {
        database,
        records_size: 0,
        records_murmur3: 0,
        records_crc32: 0,
        blob: vec![0xAB; 4],
    };
    for stored_blobs in [
        vec![kept(99)],
        vec![kept(2), kept(1)],
        vec![kept(1), kept(1)],
    ] {
        let e = AssetsBuilder::from_model(AssetsModel {
            layout: Some(FileLayout {
                stored_blobs,
                ..layout.clone()
            }),
            ..model.clone()
        })
        .unwrap_err()
        .to_string();
        assert!(e.contains("layout.stored_blobs.database"), "{e}");
    }
    // A blob kept for other records (its checksums are not the records') is not written.
    // Padding outside any gap the layout leaves (over the header, past the end) is not written.
    let overlapping = FileLayout {
        string_buckets: 0,
        string_values: 0,
        stored_blobs: vec![kept(1)],
        padding: vec![
            Padding {
                at: 0,
                bytes: vec![0xAB; 8],
            },
            Padding {
                at: usize::MAX - 2,
                bytes: vec![0xAB; 8],
            },
        ],
        ..layout
    };
    let bytes = AssetsBuilder::from_model(AssetsModel {
        layout: Some(overlapping),
        ..model
    })
    .unwrap()
    .to_bytes()
    .unwrap();
    assert_eq!(bytes, file, "the writer's layout from the first part on");
}

/// A blob no placement of its arrays writes again (a byte other than zero in a record's pad,
/// which the writer writes as zero) is kept whole, as the last resort, and written again byte
/// for byte while its records are unchanged.
#[test]
fn a_blob_no_placement_writes_again_is_kept_whole() {
    let mut file = w::all_prototypes().unwrap().to_bytes().unwrap();
    let view = AssetsDb::from_bytes(&file).unwrap();
    let materials = view.database(PrototypeType::Material).unwrap().unwrap();
    let record = materials.record_offset(0).unwrap();
    let position = view
        .databases()
        .iter()
        .position(|d| d.unwrap().magic() == PrototypeType::Material.magic())
        .unwrap();
    // `MaterialPrototype.pad`, after the count and the nine counts.
    file[record + 11] = 0xEE;
    let checksum = murmur3_32(&file[BODY_BASE..], 0);
    file[8..12].copy_from_slice(&checksum.to_le_bytes());
    AssetsDb::from_bytes(&file).unwrap().validate().unwrap();
    let model = model_of(&file);
    let layout = model
        .layout
        .as_ref()
        .expect("a blob the writer writes otherwise");
    let kept: Vec<usize> = layout.stored_blobs.iter().map(|s| s.database).collect();
    assert_eq!(kept, [position]);
    assert!(layout.blob_placements.is_empty());
    let written = AssetsBuilder::from_model(model)
        .unwrap()
        .to_bytes()
        .unwrap();
    assert!(written == file, "the file written again differs");
}

/// A hostile blob placement in a model: gaps past what is placed are refused (one budget for the
/// whole file, blobs included), and so are placements of databases the model does not have or
/// out of order; arrays placed over the records or over each other, an end before the arrays
/// and padding outside the gaps fall back to the writer's placement, in a file that reads the
/// same records.
#[test]
fn a_hostile_blob_placement_is_refused_or_falls_back() {
    let (_, moved) = moved_file();
    let model = model_of(&moved);
    let layout = model.layout.clone().unwrap();
    let with = |blob_placements: Vec<BlobPlacement>| AssetsModel {
        layout: Some(FileLayout {
            blob_placements,
            ..layout.clone()
        }),
        ..model.clone()
    };
    let place = |database, arrays: Vec<usize>, end| BlobPlacement {
        database,
        arrays,
        end,
        padding: Vec::new(),
    };
    let visual = model
        .databases
        .iter()
        .position(|d| d.magic == PrototypeType::Visual.magic())
        .unwrap();
    let error = |m: AssetsModel| match AssetsBuilder::from_model(m) {
        Ok(b) => b.to_bytes().unwrap_err().to_string(),
        Err(e) => e.to_string(),
    };
    // The presets' records have no arrays: the blob's end is placed.
    let preset = model
        .databases
        .iter()
        .position(|d| d.magic == PrototypeType::EffectPreset.magic())
        .unwrap();
    for far in [
        vec![place(visual, vec![usize::MAX / 2; 9], 0)],
        vec![place(visual, vec![1 << 30], 0)],
        vec![place(preset, Vec::new(), usize::MAX)],
    ] {
        let e = error(with(far));
        assert!(e.contains("layout.blob_placements"), "{e}");
        assert!(e.contains("gaps"), "{e}");
    }
    // A gap of 40 KiB before the first blob and one of 40 KiB inside the presets' blob: each
    // under 64 KiB, together over it (one budget for the file and its blobs).
    let mut spread = with(vec![place(preset, Vec::new(), 40 << 10)]);
    spread.layout.as_mut().unwrap().blobs[0] += 40 << 10;
    let e = error(spread);
    assert!(e.contains("layout.blob_placements.end"), "{e}");
    let mut alone = with(Vec::new());
    alone.layout.as_mut().unwrap().blobs[0] += 40 << 10;
    AssetsBuilder::from_model(alone)
        .unwrap()
        .to_bytes()
        .unwrap();
    for unordered in [
        vec![place(99, Vec::new(), 0)],
        vec![place(2, Vec::new(), 0), place(1, Vec::new(), 0)],
    ] {
        let e = error(with(unordered));
        assert!(e.contains("layout.blob_placements.database"), "{e}");
    }
    let mut padded = place(visual, vec![0; 9], 0);
    padded.padding = vec![Padding {
        at: 0,
        bytes: vec![0xAB; 8],
    }];
    for fallback in [
        padded,
        place(visual, vec![16; 9], 16),
        place(visual, vec![200, 200, 200], 0),
        place(visual, vec![600, 400, 200], 0),
    ] {
        let bytes = AssetsBuilder::from_model(with(vec![fallback]))
            .unwrap()
            .to_bytes()
            .unwrap();
        let view = AssetsDb::from_bytes(&bytes).unwrap();
        view.validate().unwrap();
        assert_eq!(model_of(&bytes).databases, model.databases);
    }
}

/// The independent sample, when `GAMEBIN_SAMPLES` names the samples.
fn sample() -> Option<Vec<u8>> {
    let Some(dir) = std::env::var_os("GAMEBIN_SAMPLES") else {
        eprintln!("GAMEBIN_SAMPLES not set: skipped");
        return None;
    };
    let path = std::path::Path::new(&dir).join("wows-assets/minimal_synthetic_assets.bin");
    Some(std::fs::read(path).unwrap())
}

/// The independent sample (another writer's layout: aligned parts, slots in the strings map's
/// words, its own padding inside blobs) is written again byte for byte.
#[test]
fn the_sample_is_written_again_byte_for_byte() {
    let Some(file) = sample() else { return };
    let model = model_of(&file);
    let layout = model.layout.as_ref().expect("another writer's layout");
    assert_eq!(layout.string_words, StringWords::Slot);
    let written = AssetsBuilder::from_model(model)
        .unwrap()
        .to_bytes()
        .unwrap();
    assert!(written == file, "the sample written again differs");
}

/// Where `part` (a slice the reader handed out) starts in `file`.
fn offset_in(file: &[u8], part: &[u8]) -> usize {
    part.as_ptr() as usize - file.as_ptr() as usize
}

/// The positions where `a` and `b` (of one length) differ.
fn differences(a: &[u8], b: &[u8]) -> Vec<usize> {
    assert_eq!(a.len(), b.len());
    (0..a.len()).filter(|&i| a[i] != b[i]).collect()
}

/// The sample's writer places a blob's out-of-line arrays its own way (natural alignment rather
/// than 8, 16-aligned matrices) and leaves node name maps in node order: its model keeps the
/// arrays' offsets and that order, and no blob whole. The offsets are the reader's, found
/// through the stored pointers.
#[test]
fn the_samples_blobs_are_kept_as_placements_not_bytes() {
    let Some(file) = sample() else { return };
    let model = model_of(&file);
    let layout = model.layout.as_ref().expect("another writer's layout");
    assert!(layout.stored_blobs.is_empty(), "{:?}", layout.stored_blobs);
    assert_eq!(layout.node_name_maps, NodeNameMaps::Nodes);
    let placed: Vec<usize> = layout.blob_placements.iter().map(|p| p.database).collect();
    assert_eq!(placed, [0, 1], "the material's and the visual's blobs");

    // The material's three arrays (property names, property ids, the texture values) where the
    // reader finds them, from the blob's start.
    let view = AssetsDb::from_bytes(&file).unwrap();
    let material = view.database(PrototypeType::Material).unwrap().unwrap();
    let Prototype::Material(m) = material.prototype(0, view.strings()).unwrap() else {
        panic!("a material")
    };
    let blob = material.blob_offset();
    let names = offset_in(&file, m.property_name_ids().unwrap().as_bytes());
    let ids = offset_in(&file, m.property_ids().unwrap().as_bytes());
    let placement = &layout.blob_placements[0];
    assert_eq!(placement.arrays[..2], [names - blob, ids - blob]);
    assert_eq!(placement.end, material.blob().len());
    // The texture's value (SOURCES.txt) is the last array, 8 bytes before the blob's end.
    let value = 0xDEAD_BEEF_CAFE_F00Du64.to_le_bytes();
    let at = file.windows(8).position(|w| w == value).unwrap();
    assert_eq!(placement.arrays[2], at - blob);
    assert_eq!(at + 8, blob + placement.end);

    // The visual's node arrays.
    let visuals = view.database(PrototypeType::Visual).unwrap().unwrap();
    let Prototype::Visual(v) = visuals.prototype(0, view.strings()).unwrap() else {
        panic!("a visual")
    };
    let blob = visuals.blob_offset();
    let found = [
        offset_in(&file, v.name_map_name_ids().unwrap().as_bytes()),
        offset_in(&file, v.name_map_node_ids().unwrap().as_bytes()),
        offset_in(&file, v.name_ids().unwrap().as_bytes()),
        offset_in(&file, v.matrices().unwrap().as_bytes()),
        offset_in(&file, v.parent_ids().unwrap().as_bytes()),
    ];
    let placement = &layout.blob_placements[1];
    assert_eq!(placement.arrays[..5], found.map(|at| at - blob));
}

/// The sample with one edit of `edit` made to its model, written.
fn sample_edited(file: &[u8], edit: impl FnOnce(&mut AssetsModel)) -> Vec<u8> {
    let mut model = model_of(file);
    edit(&mut model);
    let bytes = AssetsBuilder::from_model(model)
        .unwrap()
        .to_bytes()
        .unwrap();
    AssetsDb::from_bytes(&bytes).unwrap().validate().unwrap();
    bytes
}

/// Each record of the model's decoded databases.
fn records_of(model: &mut AssetsModel) -> impl Iterator<Item = &mut PrototypeFields> {
    model
        .databases
        .iter_mut()
        .flat_map(|d| match &mut d.records {
            DatabaseRecords::Decoded { records, .. } => records.iter_mut(),
            DatabaseRecords::Raw { .. } => [].iter_mut(),
        })
}

/// One value of a record changed in the sample's model: the file written differs from the
/// sample only in that value's bytes and the header's checksum (every array of the blob, every
/// part of the file where it was).
#[test]
fn an_edited_value_changes_only_its_bytes() {
    let Some(file) = sample() else { return };
    let texture = 0x0123_4567_89AB_CDEFu64;
    let edited = sample_edited(&file, |model| {
        for record in records_of(model) {
            if let PrototypeFields::Material(m) = record {
                m.properties[0].value = PropertyValue::Texture(texture);
            }
        }
    });
    let at = file
        .windows(8)
        .position(|w| w == 0xDEAD_BEEF_CAFE_F00Du64.to_le_bytes())
        .unwrap();
    assert_eq!(edited[at..at + 8], texture.to_le_bytes());
    let checksum = 8..12;
    for i in differences(&file, &edited) {
        assert!(checksum.contains(&i) || (at..at + 8).contains(&i), "{i:#x}");
    }

    // A float of an out-of-line struct: the visual's LOD extent (500.0 in SOURCES.txt).
    let edited = sample_edited(&file, |model| {
        for record in records_of(model) {
            if let PrototypeFields::Visual(v) = record {
                v.lods[0].extent = 250.0;
            }
        }
    });
    let at = file
        .windows(4)
        .position(|w| w == 500.0f32.to_le_bytes())
        .unwrap();
    for i in differences(&file, &edited) {
        assert!(checksum.contains(&i) || (at..at + 4).contains(&i), "{i:#x}");
    }
    assert_eq!(edited[at..at + 4], 250.0f32.to_le_bytes());
}

/// A node renamed (as long as before) in the sample's model: what changes is what the name
/// changes — the strings map (the new name's slot and pool bytes), the node's name id in the
/// visual's name ids and name map (still in node order) — and the checksum; every other byte
/// is where it was.
#[test]
fn a_renamed_node_changes_only_what_its_name_changes() {
    let Some(file) = sample() else { return };
    let edited = sample_edited(&file, |model| {
        let text = model.strings.iter_mut().find(|s| *s == "HP_Test").unwrap();
        *text = "HP_Tesx".into();
        for record in records_of(model) {
            if let PrototypeFields::Visual(v) = record {
                v.nodes[1].name = Some("HP_Tesx".into());
            }
        }
    });
    let view = AssetsDb::from_bytes(&file).unwrap();
    let layout = model_of(&file).layout.unwrap();
    let strings = layout.string_buckets..layout.prototype_buckets;
    let visuals = view.database(PrototypeType::Visual).unwrap().unwrap();
    let Prototype::Visual(v) = visuals.prototype(0, view.strings()).unwrap() else {
        panic!("a visual")
    };
    // Node 1's id, in node order in both arrays.
    let name_id = |ids: &[u8]| offset_in(&file, ids) + 4..offset_in(&file, ids) + 8;
    let in_map = name_id(v.name_map_name_ids().unwrap().as_bytes());
    let in_nodes = name_id(v.name_ids().unwrap().as_bytes());
    let changed = differences(&file, &edited);
    for &i in &changed {
        assert!(
            (8..12).contains(&i)
                || strings.contains(&i)
                || in_map.contains(&i)
                || in_nodes.contains(&i),
            "{i:#x}"
        );
    }
    let id = murmur3_32(b"HP_Tesx", 0).to_le_bytes();
    assert_eq!(edited[in_map], id);
    assert_eq!(edited[in_nodes], id);
}

/// An edit that grows an array (a property more in the material): the arrays that no longer
/// fit where they were are placed the writer's way, the file reads back with the edit.
#[test]
fn a_grown_array_falls_back_to_the_writers_placement() {
    let Some(file) = sample() else { return };
    let edited = sample_edited(&file, |model| {
        for record in records_of(model) {
            if let PrototypeFields::Material(m) = record {
                let mut more = m.properties[0].clone();
                more.name = Some("Scene Root".into());
                more.value = PropertyValue::Texture(7);
                m.properties.push(more);
            }
        }
    });
    let view = AssetsDb::from_bytes(&edited).unwrap();
    let id = view
        .find_path("content/gameplay/Test.mfm")
        .unwrap()
        .unwrap()
        .self_id();
    let at = view.prototype(id).unwrap().unwrap();
    let PrototypeFields::Material(m) =
        PrototypeFields::read(&view, view.record(at).unwrap()).unwrap()
    else {
        panic!("a material")
    };
    assert_eq!(m.properties.len(), 2);
    assert_eq!(m.properties[1].value, PropertyValue::Texture(7));
    assert_eq!(
        m.properties[0].value,
        PropertyValue::Texture(0xDEAD_BEEF_CAFE_F00D)
    );
}

#[cfg(feature = "serde")]
mod json {
    use super::*;
    use serde_json::Value;

    #[test]
    fn a_file_through_json_is_written_again_byte_for_byte() {
        let mut files = inputs();
        files.push(("moved_file()".into(), moved_file().1));
        for (name, file) in files {
            let view = AssetsDb::from_bytes(&file).unwrap();
            let builder = AssetsBuilder::from_view(&view).unwrap();
            let text = serde_json::to_string(&builder).unwrap();
            let again: AssetsBuilder = serde_json::from_str(&text).unwrap();
            assert_eq!(again.to_bytes().unwrap(), file, "{name}");
            // The model itself reads back the same.
            let model: AssetsModel = serde_json::from_str(&text).unwrap();
            assert_eq!(model, builder.to_model(), "{name}");
        }
    }

    /// The real sample (another writer's file): its model, layout included, reads back from
    /// JSON the same and writes the sample's bytes.
    #[test]
    fn the_sample_through_json_keeps_its_model() {
        let Some(file) = sample() else { return };
        let model = model_of(&file);
        let text = serde_json::to_string(&model).unwrap();
        // Its blobs as placements: no blob's bytes in hex.
        assert!(!text.contains("stored_blobs"), "{text}");
        assert!(text.contains("\"blob_placements\""), "{text}");
        let back: AssetsModel = serde_json::from_str(&text).unwrap();
        assert_eq!(back, model);
        let written = AssetsBuilder::from_model(model)
            .unwrap()
            .to_bytes()
            .unwrap();
        let again = AssetsBuilder::from_model(back).unwrap().to_bytes().unwrap();
        assert!(
            written == file && again == file,
            "the sample written again differs"
        );
    }

    #[test]
    fn the_json_gives_ids_as_hex_and_states_and_blobs_as_text() {
        let file = w::legacy_layouts().unwrap().to_bytes().unwrap();
        let value = serde_json::to_value(model_of(&file)).unwrap();
        assert_eq!(value["paths"][0]["self_id"], "0x0000000000000010");
        assert_eq!(value["checksum"], "crc32");
        let deleted = value["prototypes"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["id"] == "0x0000000000000050")
            .unwrap();
        assert_eq!(deleted["state"], "deleted");
        let databases = value["databases"].as_array().unwrap();
        let raw = databases.iter().find(|d| d["records"]["raw"].is_object());
        let blob = &raw.unwrap()["records"]["raw"]["blob"];
        // The blob header (one record, header size 16) and the record's eight 0xAB bytes.
        assert_eq!(blob, "01000000000000001000000000000000abababababababab");
        let model = &databases[3];
        assert_eq!(model["records"]["decoded"]["item_size"], 0x20);
        // The older layout's published schema hash, 3601929577.
        assert_eq!(model["schema_hash"], format!("{:#010x}", 3_601_929_577u32));
    }

    /// Floats JSON has no number for (NaN with and without payload, negative NaN, infinities)
    /// and -0.0, written by the writer into a file: the reader finds their very bits, and the
    /// file goes through the model's JSON and back to the same bytes.
    #[test]
    fn non_finite_floats_go_through_json_with_their_bits() {
        let file = w::odd_floats().unwrap().to_bytes().unwrap();
        let view = AssetsDb::from_bytes(&file).unwrap();
        // The reader's own view of the file (not the model) holds the odd bits.
        let at = view
            .lookup_path("content/gameplay/Test.visual")
            .unwrap()
            .unwrap();
        let PrototypeFields::Visual(visual) =
            PrototypeFields::read(&view, view.record(at).unwrap()).unwrap()
        else {
            panic!("a visual")
        };
        let bits: Vec<u32> = visual.nodes[0].matrix.iter().map(|f| f.to_bits()).collect();
        assert_eq!(bits[..w::ODD_FLOAT_BITS.len()], w::ODD_FLOAT_BITS);

        let text = serde_json::to_string(&model_of(&file)).unwrap();
        for form in [
            "\"NaN\"",
            "\"NaN:0x7fc00001\"",
            "\"-NaN\"",
            "\"NaN:0x7f800001\"",
            "\"inf\"",
            "\"-inf\"",
            "-0.0",
        ] {
            assert!(text.contains(form), "{form} not in the JSON");
        }
        let back: AssetsBuilder = serde_json::from_str(&text).unwrap();
        assert_eq!(back.to_bytes().unwrap(), file);
    }

    /// A `null` where a float is (what JSON makes of NaN elsewhere) is refused with the forms a
    /// float may take.
    #[test]
    fn a_null_float_is_refused_with_the_forms_floats_take() {
        let e = changed(|v| {
            let records = &mut v["databases"][1]["records"]["decoded"]["records"];
            records[0]["lods"][0]["extent"] = Value::Null;
        })
        .unwrap_err()
        .to_string();
        assert!(e.contains("invalid type: null"), "{e}");
        assert!(e.contains("\"-inf\""), "{e}");
    }

    /// A model's JSON with one part changed by `change`.
    fn changed(change: impl FnOnce(&mut Value)) -> serde_json::Result<AssetsBuilder> {
        let file = w::all_prototypes().unwrap().to_bytes().unwrap();
        let mut value = serde_json::to_value(model_of(&file)).unwrap();
        change(&mut value);
        serde_json::from_value(value)
    }

    #[test]
    fn json_that_is_no_model_gives_a_serde_error() {
        let refused = |change: fn(&mut Value), expected: &str| {
            let e = changed(change).unwrap_err().to_string();
            assert!(e.contains(expected), "{e} (expected {expected:?})");
        };
        refused(
            |v| v["databases"][1]["records"]["decoded"]["records"][0]["type"] = "Future".into(),
            "unknown prototype type `Future`",
        );
        refused(
            |v| v["databases"][1]["records"]["decoded"]["records"][0]["abovewater"] = 1.into(),
            "invalid type: integer `1`, expected a boolean",
        );
        refused(|v| v["strings"] = "none".into(), "invalid type: string");
        refused(|v| v["checksum"] = "sha1".into(), "unknown variant `sha1`");
        refused(
            |v| v["prototypes"][0]["state"] = 7.into(),
            "expected \"live\"",
        );
        refused(
            |v| v["paths"][0]["self_id"] = "0x".into(),
            "an id of 64 bits",
        );
        refused(
            |v| v["databases"][0]["records"] = serde_json::json!({"raw": {"blob": "abc"}}),
            "an odd number of hex digits",
        );
        refused(
            |v| v["databases"][0]["records"] = serde_json::json!({"other": {}}),
            "unknown variant `other`",
        );
        // Well-formed JSON the writer refuses: its error, through serde.
        refused(
            |v| v["prototypes"][0]["record"] = (1u32 << 24).into(),
            "resourceToPrototypeMap.value",
        );
        // The effect's summary (as `assets get` prints it) in place of its systems.
        refused(
            |v| {
                let effects = v["databases"].as_array_mut().unwrap().iter_mut();
                for d in effects {
                    let records = &mut d["records"]["decoded"]["records"];
                    if records[0]["type"] == "EffectPrototype" {
                        records[0]["systems"] = 2.into();
                    }
                }
            },
            "systems as hex text",
        );
        // A misspelt key of the model is refused, not dropped (the capacity would fall back to
        // the writer's, changing the file without a word).
        refused(
            |v| {
                let capacity = v["strings_capacity"].take();
                v["string_capacity"] = capacity;
                v.as_object_mut().unwrap().remove("strings_capacity");
            },
            "unknown field `string_capacity`",
        );
        refused(
            |v| v["paths"][0]["parent"] = "0x01".into(),
            "unknown field `parent`",
        );
        assert!(changed(|_| {}).is_ok());
    }
}

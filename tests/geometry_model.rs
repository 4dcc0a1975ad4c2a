//! `GeometryModel`, the owned model of a `.geometry`: `to_bytes(from_view(file))` gives the file
//! back byte for byte when it has the writer's (and the game's) layout — every fixture, and every
//! real sample (`#[ignore]`d: `GAMEBIN_SAMPLES=../shared/samples cargo test -- --include-ignored`)
//! — and otherwise the same file read structurally: the same summary, the same vertices and
//! indices for every mapping, the same armor nodes, and a clean check. Damaged input gives errors,
//! never panics; what opens writes and reads back to the same model.

use gamebin::synth::geometry::{cube, fixtures};
use gamebin::wows::geometry::model::{
    GeometryBuilder, GeometryModel, IndexBufferSpec, MAX_BLOB_PADDING, MappingSpec,
    ModelPrototypeSpec, PADDING_BYTE, armor_payload,
};
use gamebin::wows::geometry::raw::{IndicesPrototype, PackedString};
use gamebin::wows::geometry::{GeometryCheck, GeometryFinding, GeometrySummary, GeometryView};

/// The summary with file offsets cleared (a rewritten file may place records elsewhere).
fn summary_without_offsets(view: &GeometryView<'_>) -> GeometrySummary {
    let mut s = GeometrySummary::from_view(view).expect("summary");
    s.vertex_buffers.iter_mut().for_each(|b| b.offset = 0);
    s.index_buffers.iter_mut().for_each(|b| b.offset = 0);
    s.collision_models.iter_mut().for_each(|m| m.offset = 0);
    s.armor_models.iter_mut().for_each(|m| m.offset = 0);
    s
}

/// The check's findings with file offsets cleared.
fn findings_without_offsets(check: GeometryCheck) -> (Vec<GeometryFinding>, Vec<GeometryFinding>) {
    let clear = |f: GeometryFinding| match f {
        GeometryFinding::SwappedIndexSize { buffer, .. } => {
            GeometryFinding::SwappedIndexSize { buffer, offset: 0 }
        }
        other => other,
    };
    (
        check.errors.into_iter().map(clear).collect(),
        check.warnings.into_iter().map(clear).collect(),
    )
}

/// Each vertex mapping's vertex bytes and each index mapping's indices, decoded.
fn mapped_data(view: &GeometryView<'_>) -> (Vec<Vec<u8>>, Vec<Vec<u32>>) {
    let vertices: Vec<(Vec<u8>, usize)> = view
        .vertex_buffers()
        .map(|vb| {
            let mut out = Vec::new();
            vb.decode_vertices_into_vec(&mut out).expect("vertices");
            (out, vb.stride())
        })
        .collect();
    let indices: Vec<Vec<u32>> = view
        .index_buffers()
        .map(|ib| {
            let mut out = Vec::new();
            ib.decode_indices_into_vec::<u32>(&mut out)
                .expect("indices");
            out
        })
        .collect();
    let per_vertex_mapping = view
        .vertex_mappings()
        .iter()
        .map(|m| {
            let (bytes, stride) = &vertices[m.buffer_index()];
            let start = m.items_offset() * stride;
            bytes[start..start + m.items_count() * stride].to_vec()
        })
        .collect();
    let per_index_mapping = view
        .index_mappings()
        .iter()
        .map(|m| {
            let values = &indices[m.buffer_index()];
            values[m.items_offset()..m.items_offset() + m.items_count()].to_vec()
        })
        .collect();
    (per_vertex_mapping, per_index_mapping)
}

/// Every armor model's name, id, bounds and nodes (material, layer, bounds, vertices as stored).
fn armor(view: &GeometryView<'_>) -> Vec<String> {
    view.armor_models()
        .map(|model| {
            let armor = model.armor().expect("armor payload");
            let nodes: Vec<String> = armor
                .nodes()
                .map(|node| {
                    let node = node.expect("armor node");
                    let vertices: Vec<_> = node
                        .vertices()
                        .iter()
                        .map(|v| (v.position().map(f32::to_bits), v.normal))
                        .collect();
                    format!(
                        "{} {} {:?} {vertices:?}",
                        node.material_id(),
                        node.layer_index(),
                        node.bounds()
                    )
                })
                .collect();
            format!(
                "{} {:#x} {:?} {nodes:?}",
                model.name().expect("name"),
                armor.id(),
                armor.bounds()
            )
        })
        .collect()
}

/// `written` reads as `original` does: same summary, mapped data, armor and check findings.
fn assert_same_structure(name: &str, original: &[u8], written: &[u8]) {
    let a = GeometryView::from_bytes(original).expect("original opens");
    let b = GeometryView::from_bytes(written)
        .unwrap_or_else(|e| panic!("{name}: the written file does not open: {e}"));
    let check = b
        .check()
        .unwrap_or_else(|e| panic!("{name}: the written file fails its check: {e}"));
    assert_eq!(
        findings_without_offsets(check),
        findings_without_offsets(a.check().expect("original checks")),
        "{name}: check findings"
    );
    assert_eq!(
        summary_without_offsets(&b),
        summary_without_offsets(&a),
        "{name}: summary"
    );
    assert!(mapped_data(&b) == mapped_data(&a), "{name}: mapped data");
    assert_eq!(armor(&b), armor(&a), "{name}: armor nodes");
}

/// from_view → to_bytes, and the model read back from what was written is the same model.
fn rewrite(bytes: &[u8]) -> (GeometryModel, Vec<u8>) {
    let view = GeometryView::from_bytes(bytes).expect("opens");
    let model = GeometryModel::from_view(&view).expect("from_view");
    let written = model.to_bytes().expect("to_bytes");
    let again = GeometryModel::from_view(&GeometryView::from_bytes(&written).expect("reopens"))
        .expect("from_view of the written file");
    assert!(
        again == model,
        "the written file reads back to the same model"
    );
    (model, written)
}

#[test]
fn every_fixture_round_trips_byte_for_byte() {
    for (name, bytes) in fixtures().unwrap() {
        let (model, written) = rewrite(&bytes);
        assert!(written == bytes, "{name}: to_bytes(from_view) differs");
        assert_same_structure(name, &bytes, &written);
        let padding = usize::from(name == "mixed_formats.geometry");
        assert_eq!(model.blob_padding, padding, "{name}");
    }
}

#[test]
fn the_builder_writes_through_the_model() {
    let mut b = GeometryBuilder::new();
    b.misalign_blobs(3);
    let vb = b.vertex_buffer("set3/xyznuvtbpc", true);
    let ib = b.index_buffer(2, false);
    let (v, i) = cube([0.0; 3], 1.0);
    b.mesh("Cube", vb, ib, 17000, &v, &i).unwrap();
    b.collision_model("CM_Hull.collision", vec![9; 5]);
    let model = b.to_file().unwrap();
    let bytes = b.to_bytes().unwrap();
    assert!(model.to_bytes().unwrap() == bytes);
    assert!(model.vertex_buffers[0].is_encoded() && !model.index_buffers[0].is_encoded());
    assert_eq!(model.index_buffers[0].data.len(), 36 * 2);
    assert_eq!(
        model.vertex_mappings,
        [MappingSpec {
            id: gamebin::wows::geometry::MappingKind::Vertices.id_of("Cube"),
            buffer: 0,
            texel_density: 17000,
            items_offset: 0,
            items_count: 24,
        }]
    );
    let read = GeometryModel::from_view(&GeometryView::from_bytes(&bytes).unwrap()).unwrap();
    assert_eq!(read, model, "padding 3 is found again");
}

#[test]
fn a_hand_made_model_writes_and_reads_back() {
    let mut file = GeometryModel::new();
    assert_eq!(
        file.to_bytes().unwrap().len(),
        0x48,
        "a header and nothing else"
    );
    file.collision_models.push(ModelPrototypeSpec {
        name: String::new(),
        data: Vec::new(),
    });
    file.armor_models.push(ModelPrototypeSpec {
        name: "Ä.armor".into(),
        data: armor_payload(&[]).unwrap(),
    });
    let (read, written) = rewrite(&file.to_bytes().unwrap());
    assert_eq!(read, file);
    assert_eq!(read.to_bytes().unwrap(), written);
}

/// Byte offset of the first VerticesPrototype's format-name PackedString padding.
fn first_format_name_padding(bytes: &[u8]) -> usize {
    let view = GeometryView::from_bytes(bytes).unwrap();
    let at = view.vertex_buffer(0).unwrap().offset();
    at + core::mem::offset_of!(gamebin::wows::geometry::raw::VerticesPrototype, format_name)
        + core::mem::offset_of!(PackedString, padding)
}

#[test]
fn other_layouts_round_trip_structurally() {
    let canonical = fixtures().unwrap().remove(0).1;
    let mut other = canonical.clone();
    // Non-zero PackedString padding, a non-null pointer of the empty collision table, and bytes
    // after the last structure: none of them is kept.
    let pad = first_format_name_padding(&other);
    other[pad..pad + 4].copy_from_slice(b"junk");
    other[0x38..0x40].copy_from_slice(&0x48u64.to_le_bytes());
    other.extend_from_slice(&[0xcd; 7]);
    let (_, written) = rewrite(&other);
    assert!(written != other);
    assert!(written == canonical, "the canonical layout again");
    assert_same_structure("ships_raw, other layout", &other, &written);

    // Padding longer than the writer's is not taken for blob padding. The writer refuses to
    // write more than MAX_BLOB_PADDING, so the longer run is made by hand: the most padding,
    // then a blob whose first byte is PADDING_BYTE, its pointer moved past that byte.
    let mut long = GeometryModel::new();
    long.blob_padding = MAX_BLOB_PADDING;
    long.index_buffers.push(IndexBufferSpec {
        index_size: 2,
        reserved: 0,
        // Whole 2-byte indices (the writer refuses a partial one); the last is cut off below.
        data: vec![PADDING_BYTE, 1, 0, 2, 0, 0],
    });
    let mut bytes = long.to_bytes().unwrap();
    let record = GeometryView::from_bytes(&bytes)
        .unwrap()
        .index_buffer(0)
        .unwrap()
        .offset();
    let pointer_at = record + core::mem::offset_of!(IndicesPrototype, indices_data_ptr);
    let size_at = record + core::mem::offset_of!(IndicesPrototype, size_in_bytes);
    let pointer = i64::from_le_bytes(bytes[pointer_at..pointer_at + 8].try_into().unwrap());
    bytes[pointer_at..pointer_at + 8].copy_from_slice(&(pointer + 1).to_le_bytes());
    bytes[size_at..size_at + 4].copy_from_slice(&4u32.to_le_bytes());
    let (model, written) = rewrite(&bytes);
    assert_eq!(model.index_buffers[0].data, [1, 0, 2, 0]);
    assert_eq!(model.blob_padding, 0);
    assert!(written.len() < bytes.len());
    assert_same_structure("long padding", &bytes, &written);
    assert!(!written.contains(&PADDING_BYTE), "no padding written");
}

#[test]
fn the_writer_refuses_more_padding_than_it_reads_back() {
    let mut file = GeometryModel::new();
    file.armor_models.push(ModelPrototypeSpec {
        name: "CM_PA_united.armor".into(),
        data: armor_payload(&[]).unwrap(),
    });
    file.blob_padding = MAX_BLOB_PADDING;
    let (read, _) = rewrite(&file.to_bytes().unwrap());
    assert_eq!(read.blob_padding, MAX_BLOB_PADDING);
    // A model from JSON may ask for any padding before every blob and name: refused, not
    // allocated.
    file.blob_padding = MAX_BLOB_PADDING + 1;
    let e = file.to_bytes().unwrap_err();
    assert_eq!(
        (e.path(), e.field()),
        ("blob_padding", Some("GeometryFile.blob_padding"))
    );
    file.blob_padding = usize::MAX;
    assert!(file.to_bytes().is_err());
}

/// A small deterministic generator for the mutations.
fn lcg(state: &mut u64) -> u64 {
    *state = state
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    *state >> 33
}

/// Damaged bytes: from_view is `Ok` or `Err`, never a panic; what reads writes, and reads back to
/// the same model.
fn survive(bytes: &[u8]) -> bool {
    let Ok(view) = GeometryView::from_bytes(bytes) else {
        return false;
    };
    let Ok(model) = GeometryModel::from_view(&view) else {
        return false;
    };
    let written = match model.to_bytes() {
        Ok(written) => written,
        Err(e) => {
            // The writer refuses only what the reader's check refuses, and says where.
            assert!(
                view.check().map_or(true, |found| !found.errors.is_empty()),
                "refused ({e}) though the file checks clean"
            );
            assert!(!e.path().is_empty(), "the refusal names no place: {e}");
            return true;
        }
    };
    assert!(
        written.len() <= bytes.len().saturating_mul(3).max(0x48),
        "written {} bytes from {}",
        written.len(),
        bytes.len()
    );
    let again = GeometryView::from_bytes(&written).expect("the written file opens");
    assert!(GeometryModel::from_view(&again).expect("and reads") == model);
    true
}

#[test]
fn damaged_files_are_errors_or_round_trip() {
    let mut seed = 0x5eed_u64;
    for (name, bytes) in fixtures().unwrap() {
        for len in 0..bytes.len() {
            // The last name or blob ends the file: no truncation reads whole.
            assert!(!survive(&bytes[..len]), "{name} cut at {len}");
        }
        let mut read = 0;
        for _ in 0..400 {
            let mut damaged = bytes.clone();
            for _ in 0..=lcg(&mut seed) % 4 {
                let at = lcg(&mut seed) as usize % damaged.len();
                damaged[at] ^= 1 << (lcg(&mut seed) % 8);
            }
            read += usize::from(survive(&damaged));
        }
        assert!(read > 0, "{name}: some damaged copies still read");
    }
}

#[test]
fn records_sharing_one_blob_are_refused() {
    // Two vertex buffers; the second record is made to point at the first's (large) blob.
    let mut b = GeometryBuilder::new();
    let big = b.vertex_buffer("set3/xyznuvpc", false);
    b.vertex_buffer("set3/xyznuvpc", false);
    b.raw_vertices(big, &[7; 20 * 200]).unwrap();
    let mut bytes = b.to_bytes().unwrap();
    let view = GeometryView::from_bytes(&bytes).unwrap();
    let (first, second) = (
        view.vertex_buffer(0).unwrap(),
        view.vertex_buffer(1).unwrap(),
    );
    let target = first.data_offset().unwrap();
    let relative = (target as i64 - second.offset() as i64).to_le_bytes();
    let (at, size_at) = (second.offset(), second.offset() + 0x18);
    bytes[at..at + 8].copy_from_slice(&relative);
    bytes[size_at..size_at + 4].copy_from_slice(&(20u32 * 200).to_le_bytes());
    let view = GeometryView::from_bytes(&bytes).unwrap();
    assert_eq!(view.vertex_buffer(1).unwrap().data().unwrap().len(), 4000);
    let e = GeometryModel::from_view(&view).unwrap_err();
    assert_eq!(e.what(), "VerticesPrototype");
    assert_eq!(e.offset(), at as u64);
}

#[test]
fn a_name_that_is_not_utf8_is_an_error() {
    let bytes = fixtures().unwrap().remove(0).1;
    let view = GeometryView::from_bytes(&bytes).unwrap();
    let name_at = view
        .vertex_buffer(0)
        .unwrap()
        .format_name()
        .unwrap()
        .as_ptr() as usize
        - bytes.as_ptr() as usize;
    let mut damaged = bytes.clone();
    damaged[name_at] = 0xff;
    let e = GeometryModel::from_view(&GeometryView::from_bytes(&damaged).unwrap()).unwrap_err();
    assert_eq!(e.what(), "VerticesPrototype.formatName");
}

#[cfg(feature = "serde")]
#[test]
fn the_model_goes_through_json() {
    for (name, bytes) in fixtures().unwrap() {
        let model = GeometryModel::from_view(&GeometryView::from_bytes(&bytes).unwrap()).unwrap();
        let json = serde_json::to_value(&model).unwrap();
        let data = json["vertex_buffers"][0]["data"].as_str().unwrap();
        assert!(
            data.len() == 2 * model.vertex_buffers[0].data.len(),
            "{name}: hex"
        );
        let back: GeometryModel = serde_json::from_value(json).unwrap();
        assert!(back == model, "{name}");
        assert!(back.to_bytes().unwrap() == bytes, "{name}");
    }
    let odd = serde_json::json!({"name": "x", "data": "abc"});
    assert!(serde_json::from_value::<ModelPrototypeSpec>(odd).is_err());
}

/// Real files from `$GAMEBIN_SAMPLES/wows-geometry`.
mod samples {
    use std::path::PathBuf;

    use super::{assert_same_structure, rewrite};

    fn dir() -> PathBuf {
        match std::env::var_os("GAMEBIN_SAMPLES") {
            Some(dir) => PathBuf::from(dir).join("wows-geometry"),
            None => panic!(
                "GAMEBIN_SAMPLES is not set: this test reads the real samples (run it with GAMEBIN_SAMPLES=../shared/samples cargo test -- --include-ignored)"
            ),
        }
    }

    /// Every sample: all seven have the writer's layout (header, the two mapping tables, each
    /// prototype table followed by its blobs and names, no padding, empty tables' pointers null).
    const BYTE_IDENTICAL: [&str; 8] = [
        "AGS028_5in38_Mk29_Mod0_0.10.2.geometry",
        "CM001_0.11.5.geometry",
        "CM001_p2g_0.10.2.geometry",
        "CM001_p2g_0.11.5.geometry",
        "CPA001_Shell_AP_0.10.2.geometry",
        "CPA003_Shell_CS_0.11.5.geometry",
        "FSD012_Kleber_1952_0.11.5.geometry",
        "JAS007_Kawanishi_E15K1.geometry",
    ];

    #[test]
    #[ignore = "needs GAMEBIN_SAMPLES (real files): GAMEBIN_SAMPLES=../shared/samples cargo test -- --include-ignored"]
    fn every_sample_round_trips() {
        let dir = dir();
        let mut seen = Vec::new();
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_none_or(|e| e != "geometry") {
                continue;
            }
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            let bytes = std::fs::read(&path).unwrap();
            let (model, written) = rewrite(&bytes);
            assert_eq!(model.blob_padding, 0, "{name}");
            assert_same_structure(&name, &bytes, &written);
            if BYTE_IDENTICAL.contains(&name.as_str()) {
                assert!(written == bytes, "{name}: to_bytes(from_view) differs");
            }
            seen.push(name);
        }
        seen.sort();
        assert_eq!(seen, BYTE_IDENTICAL, "samples in {}", dir.display());
    }

    #[test]
    #[ignore = "needs GAMEBIN_SAMPLES (real files): GAMEBIN_SAMPLES=../shared/samples cargo test -- --include-ignored"]
    fn encd_blobs_are_kept_as_stored() {
        let bytes = std::fs::read(dir().join("CM001_p2g_0.11.5.geometry")).unwrap();
        let (model, _) = rewrite(&bytes);
        assert!(model.vertex_buffers[0].is_encoded() && model.index_buffers[0].is_encoded());
        assert_eq!(model.vertex_buffers[0].data.len(), 0x108);
        assert_eq!(model.index_buffers[0].data.len(), 0x25);
        let kleber = std::fs::read(dir().join("FSD012_Kleber_1952_0.11.5.geometry")).unwrap();
        let (model, _) = rewrite(&kleber);
        assert_eq!(model.armor_models[0].name, "CM_PA_united.armor");
        assert_eq!(model.armor_models[0].data.len(), 0x1b248 - 0x2ac8);
    }
}

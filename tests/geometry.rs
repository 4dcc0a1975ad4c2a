//! `.geometry` round trips through the writer (write → read → the same values) and the reader's
//! answers to malformed files.

use gamebin::ErrorKind;
use gamebin::synth::geometry::{cube, pyramid};
use gamebin::wows::geometry::model::{ArmorNodeSpec, GeometryBuilder, MeshVertex, armor_payload};
use gamebin::wows::geometry::{
    DecodedGeometry, GeometryView, Indices, MappingKind, ModelKind, Pairing, PairingDoubt, Vertices,
};

fn canonical(t: [u32; 3]) -> [u32; 3] {
    let k = (0..3).min_by_key(|&k| t[k]).unwrap();
    [t[k], t[(k + 1) % 3], t[(k + 2) % 3]]
}

/// Builds one file with two meshes and reads every value back.
fn round_trip(format: &str, encode: bool, index_size: u16, misalign: usize) {
    let mut b = GeometryBuilder::new();
    b.misalign_blobs(misalign);
    let vb = b.vertex_buffer(format, encode);
    let ib = b.index_buffer(index_size, encode);
    let meshes = [
        ("Cube", cube([1.0, 2.0, 3.0], 0.5), 1200),
        ("Pyramid", pyramid([-4.0, 0.0, 0.25], 2.0), 3400),
    ];
    for (name, (v, i), density) in &meshes {
        b.mesh(*name, vb, ib, *density, v, i).unwrap();
    }
    let bytes = b.to_bytes().unwrap();
    let what = format!("{format} encode={encode} index_size={index_size} misalign={misalign}");

    let view = GeometryView::from_bytes(&bytes).unwrap();
    view.validate().unwrap();
    assert_eq!(
        gamebin::detect(&bytes),
        Some(gamebin::Format::WowsGeometry),
        "{what}"
    );
    let buffer = view.vertex_buffer(0).unwrap();
    assert_eq!(buffer.format_name().unwrap(), format);
    assert_eq!(buffer.is_encoded().unwrap(), encode);
    assert_eq!(buffer.vertex_count().unwrap(), 24 + 5);
    let mut decoded = vec![0u8; buffer.decoded_len().unwrap()];
    buffer.decode_vertices_into(&mut decoded).unwrap();
    let merged = Vertices::new(&decoded, buffer.stride(), buffer.format().unwrap()).unwrap();

    let ibuf = view.index_buffer(0).unwrap();
    assert_eq!(ibuf.index_size(), usize::from(index_size));
    let mut indices = vec![0u32; ibuf.index_count().unwrap()];
    ibuf.decode_indices_into(&mut indices).unwrap();
    let indices = Indices::from(indices.as_slice());

    for (name, (v, i), density) in &meshes {
        let draw = view.draw_by_name(name).unwrap();
        assert_eq!(draw.pairing, Pairing::ByName);
        assert_eq!(draw.vertices.id(), MappingKind::Vertices.id_of(name));
        assert_eq!(draw.vertices.texel_density(), *density);
        // The densities are unique, so the file's own pairing finds the same draw.
        let paired = view
            .draws()
            .iter()
            .find(|d| d.vertices.id() == draw.vertices.id())
            .unwrap();
        assert_eq!(paired.pairing, Pairing::ByTexelDensity);
        assert_eq!(paired.indices.id(), draw.indices.id());

        let got = draw.vertices_in(&merged).unwrap();
        assert_eq!(got.len(), v.len(), "{what}");
        for (k, want) in v.iter().enumerate() {
            assert_eq!(got.position(k).unwrap(), want.position, "{what}");
            let n = got.normal(k).unwrap();
            for c in 0..3 {
                assert!(
                    (n[c] - want.normal[c]).abs() <= 0.5 / 127.0 + 1e-6,
                    "{what}: normal {n:?} vs {:?}",
                    want.normal
                );
            }
            let uv = got.uv(k).unwrap();
            for c in 0..2 {
                assert!(
                    (uv[c] - want.uv[c]).abs() <= 1e-3,
                    "{what}: uv {uv:?} vs {:?}",
                    want.uv
                );
            }
            if let Some(uv1) = got.uv1(k) {
                assert!((uv1[0] - want.uv1[0]).abs() <= 1e-3);
            }
            if let Some(bones) = got.bone_indices(k) {
                assert_eq!(bones, want.bones);
            }
        }
        let got: Vec<_> = draw
            .indices_in(&indices)
            .unwrap()
            .triangles()
            .map(canonical)
            .collect();
        let want: Vec<_> = i.chunks(3).map(|t| canonical([t[0], t[1], t[2]])).collect();
        assert_eq!(got, want, "{what}");
    }
}

#[test]
fn round_trips_every_layout() {
    for format in [
        "set3/xyznuvtbpc",
        "set3/xyznuv2iiiwwtbpc",
        "set3/xyznuvpc",
        "set3/xyznuviiiwwr",
    ] {
        for encode in [false, true] {
            for index_size in [2, 4] {
                for misalign in [0, 1, 3] {
                    round_trip(format, encode, index_size, misalign);
                }
            }
        }
    }
}

#[test]
fn armor_and_collision_models_round_trip() {
    let tri = |z: f32| [[0.0, 0.0, z], [1.0, 0.0, z], [0.0, 1.0, z]];
    let nodes = [
        ArmorNodeSpec {
            material_id: 3,
            layer_index: 1,
            triangles: vec![tri(0.0), tri(1.0)],
        },
        ArmorNodeSpec {
            material_id: 200,
            layer_index: 4,
            triangles: vec![tri(-2.0)],
        },
    ];
    let mut b = GeometryBuilder::new();
    b.misalign_blobs(1);
    b.armor_model("CM_PA_united.armor", armor_payload(&nodes).unwrap());
    b.collision_model("CM_Hull", vec![1, 2, 3, 4, 5]);
    let bytes = b.to_bytes().unwrap();
    let view = GeometryView::from_bytes(&bytes).unwrap();
    view.validate().unwrap();

    let collision = view.collision_models().next().unwrap();
    assert_eq!(collision.kind(), ModelKind::Collision);
    assert_eq!(collision.name().unwrap(), "CM_Hull");
    assert_eq!(collision.data().unwrap(), &[1, 2, 3, 4, 5]);

    let armor = view.armor_models().next().unwrap();
    assert_eq!(armor.name().unwrap(), "CM_PA_united.armor");
    let payload = armor.armor().unwrap();
    assert_eq!(payload.node_count(), 2);
    assert_eq!(payload.triangle_count().unwrap(), 3);
    assert_eq!(payload.bounds().min, [0.0, 0.0, -2.0]);
    assert_eq!(payload.bounds().max, [1.0, 1.0, 1.0]);
    assert_eq!(payload.trailing_bytes().unwrap(), 0);
    let read: Vec<_> = payload.nodes().map(|n| n.unwrap()).collect();
    for (node, spec) in read.iter().zip(&nodes) {
        assert_eq!(node.material_id(), spec.material_id);
        assert_eq!(node.layer_index(), spec.layer_index);
        assert_eq!(node.triangles().collect::<Vec<_>>(), spec.triangles);
        for v in node.vertices() {
            assert_eq!(
                v.normal(),
                [0.0, 0.0, 1.0],
                "face normal of a triangle in the z plane"
            );
        }
    }
}

/// A cube (mapping ids 1, 2) and a pyramid (3, 4) in one raw buffer, with no texel densities.
fn cube_and_pyramid() -> GeometryBuilder {
    let mut b = GeometryBuilder::new();
    let vb = b.vertex_buffer("set3/xyznuvtbpc", false);
    let ib = b.index_buffer(2, false);
    let (v, i) = cube([0.0; 3], 1.0);
    b.mesh((1, 2), vb, ib, 0, &v, &i).unwrap();
    let (v, i) = pyramid([0.0; 3], 1.0);
    b.mesh((3, 4), vb, ib, 0, &v, &i).unwrap();
    b
}

#[test]
fn pairing_by_index_range_when_densities_are_zero() {
    let mut b = cube_and_pyramid();
    let bytes = b.to_bytes().unwrap();
    let view = GeometryView::from_bytes(&bytes).unwrap();
    let pairs = |view: &GeometryView<'_>| -> Vec<_> {
        view.draws()
            .iter()
            .map(|d| (d.vertices.id(), d.indices.id(), d.pairing))
            .collect()
    };
    assert_eq!(
        pairs(&view),
        [(1, 2, Pairing::ByIndexRange), (3, 4, Pairing::ByIndexRange)]
    );
    assert!(view.draws().table().notes().is_empty());
    assert!(
        view.draw_by_name("Cube").is_none(),
        "ids are not hashes of that name"
    );

    // Reordered index mappings: the index data still decide (cube indices reach 23, pyramid 4).
    b.reorder_index_mappings(&[1, 0]).unwrap();
    let bytes = b.to_bytes().unwrap();
    let view = GeometryView::from_bytes(&bytes).unwrap();
    assert_eq!(
        pairs(&view),
        [(3, 4, Pairing::ByIndexRange), (1, 2, Pairing::ByIndexRange)],
        "draws come in index-mapping order"
    );
    let draws = view.draws();
    assert_eq!(draws.table().max_index(0), Some(Ok(Some(4))));
    assert_eq!(draws.table().max_index(1), Some(Ok(Some(23))));
    assert_eq!(draws.table().unpaired_vertex_mappings().count(), 0);
}

/// The writer's pairing fixtures, read back: what each one exercises holds.
#[test]
fn pairing_fixtures() {
    let fixtures = gamebin::synth::geometry::fixtures().unwrap();
    let get = |name: &str| fixtures.iter().find(|(n, _)| *n == name).unwrap().1.clone();

    // Tables in other orders, texel density 0, two vertex buffers sharing one index buffer, two
    // interchangeable quads: every index mapping in exactly one draw, all by index range.
    let bytes = get("pairing_by_index_range.geometry");
    let view = GeometryView::from_bytes(&bytes).unwrap();
    assert_eq!(view.vertex_buffer_count(), 2);
    assert_eq!(view.index_buffer_count(), 1);
    let draws = view.draws();
    assert_eq!(draws.len(), 4);
    for d in draws.iter() {
        assert_eq!(d.pairing, Pairing::ByIndexRange);
        // The writer named each mesh: the pair found is the pair written.
        let name = ["Hull", "Disc_left", "Mast", "Disc_right"]
            .into_iter()
            .find(|n| MappingKind::Indices.id_of(n) == d.indices.id())
            .unwrap();
        let by_name = view.draw_by_name(name).unwrap();
        if name.starts_with("Disc") {
            // Identical indices and vertex counts: either disc will do, and a note says so.
            assert!(
                ["Disc_left", "Disc_right"]
                    .iter()
                    .any(|n| MappingKind::Vertices.id_of(n) == d.vertices.id())
            );
        } else {
            assert_eq!(d.vertices.id(), by_name.vertices.id(), "{name}");
        }
    }
    let mut seen: Vec<usize> = draws.iter().map(|d| d.indices.index()).collect();
    seen.sort_unstable();
    assert_eq!(
        seen,
        [0, 1, 2, 3],
        "every index mapping in exactly one draw"
    );
    let notes = draws.table().notes();
    assert_eq!(notes.len(), 2, "{notes:?}");
    for n in notes {
        assert!(
            matches!(
                n.doubt,
                PairingDoubt::SameVertexCount {
                    vertex_count: 4,
                    index_mappings: 2,
                    vertex_mappings: 2,
                    interchangeable: true
                }
            ),
            "{n:?}"
        );
    }

    // Two vertex mappings of the same count with different indices: paired in table order, and
    // the doubt is reported with both mappings.
    let bytes = get("ambiguous_pairing.geometry");
    let view = GeometryView::from_bytes(&bytes).unwrap();
    let draws = view.draws();
    assert_eq!(draws.len(), 2);
    assert!(draws.iter().all(|d| d.pairing == Pairing::ByPosition));
    let notes = draws.table().notes();
    assert_eq!(notes.len(), 2);
    assert!(notes.iter().all(|n| matches!(
        n.doubt,
        PairingDoubt::SameVertexCount {
            interchangeable: false,
            ..
        }
    )));
    assert!(notes[0].doubt.to_string().contains("may be wrong"));

    // (2, 0) index-size fields: read as 2-byte indices, and said.
    let bytes = get("swapped_index_size.geometry");
    let view = GeometryView::from_bytes(&bytes).unwrap();
    view.validate().unwrap();
    let ib = view.index_buffer(0).unwrap();
    assert_eq!(ib.index_size(), 0);
    assert!(ib.has_swapped_index_size());
    assert_eq!(ib.effective_index_size().unwrap(), 2);
    let mut decoded = DecodedGeometry::new();
    decoded.decode(&view);
    let draw = view.draw_by_name("Cube").unwrap();
    let data = decoded.draw_data(&draw).unwrap();
    let (v, i) = cube([0.0, 0.0, 0.0], 1.0);
    assert_eq!(data.vertices.len(), v.len());
    assert!(data.indices.iter().eq(i.iter().copied()));
}

#[test]
fn other_index_size_fields_stay_errors() {
    let bytes = gamebin::synth::geometry::fixtures()
        .unwrap()
        .into_iter()
        .find(|(n, _)| *n == "swapped_index_size.geometry")
        .unwrap()
        .1;
    let view = GeometryView::from_bytes(&bytes).unwrap();
    let at = view.index_buffer(0).unwrap().offset();
    for (reserved, size) in [(4u16, 0u16), (0, 0), (2, 3), (1, 0)] {
        let mut bad = bytes.clone();
        put_u16(&mut bad, at + 12, reserved);
        put_u16(&mut bad, at + 14, size);
        let view = GeometryView::from_bytes(&bad).unwrap();
        let e = view
            .index_buffer(0)
            .unwrap()
            .effective_index_size()
            .unwrap_err();
        assert_eq!(e.offset(), (at + 14) as u64, "({reserved}, {size})");
        assert_eq!(e.what(), "IndicesPrototype.indexSize");
    }
}

#[test]
fn pairing_by_fit_when_no_count_matches_exactly() {
    // Index mappings that leave the last vertices of their range unused: no exact count.
    let mut b = GeometryBuilder::new();
    let vb = b.vertex_buffer("set3/xyznuvtbpc", false);
    let ib = b.index_buffer(2, false);
    let (v, i) = cube([0.0; 3], 1.0);
    let unused = |mut v: Vec<_>| {
        v.push(MeshVertex::at([9.0; 3]));
        v
    };
    b.mesh((1, 2), vb, ib, 0, &unused(v), &i).unwrap();
    let (v, i) = pyramid([0.0; 3], 1.0);
    b.mesh((3, 4), vb, ib, 0, &unused(v), &i).unwrap();
    b.reorder_index_mappings(&[1, 0]).unwrap();
    let bytes = b.to_bytes().unwrap();
    let view = GeometryView::from_bytes(&bytes).unwrap();
    let draws = view.draws();
    let pairs: Vec<_> = draws
        .iter()
        .map(|d| (d.vertices.id(), d.indices.id(), d.pairing))
        .collect();
    // The cube's indices (max 23) fit only the 25-vertex mapping; then the pyramid's (max 4) fit
    // only the one left.
    assert_eq!(
        pairs,
        [(3, 4, Pairing::ByIndexRange), (1, 2, Pairing::ByIndexRange)]
    );
    assert!(
        draws.table().notes().is_empty(),
        "{:?}",
        draws.table().notes()
    );
}

#[test]
fn an_index_beyond_its_vertices_is_an_error_naming_the_mapping() {
    // The pyramid's 5 vertices cannot hold the cube's index 23.
    let b = cube_and_pyramid();
    let bytes = b.to_bytes().unwrap();
    let view = GeometryView::from_bytes(&bytes).unwrap();
    let mut decoded = DecodedGeometry::new();
    decoded.decode(&view);
    // A caller's wrong pair: the pyramid's vertices with the cube's indices.
    let wrong = view.draw_by_ids(3, 2).unwrap();
    assert_eq!(wrong.pairing, Pairing::ById);
    let e = decoded.draw_data(&wrong).unwrap_err();
    assert_eq!(e.offset(), wrong.indices.offset() as u64);
    assert_eq!(
        e.kind(),
        ErrorKind::InvalidValue {
            value: 23,
            reason: "an index is beyond the vertices of the paired vertex mapping"
        }
    );
    // The right pair by ids is sound and gives the writer's data.
    let right = view.draw_by_ids(1, 2).unwrap();
    let data = decoded.draw_data(&right).unwrap();
    assert_eq!(data.vertices.len(), 24);
    assert!(data.indices.iter().eq(i_of_cube()));
    assert!(view.draw_by_ids(1, 999).is_none());
}

fn i_of_cube() -> impl Iterator<Item = u32> {
    cube([0.0; 3], 1.0).1.into_iter()
}

/// A small raw file whose fields the malformed cases below overwrite.
fn small() -> Vec<u8> {
    let mut b = GeometryBuilder::new();
    let vb = b.vertex_buffer("set3/xyznuvtbpc", false);
    let ib = b.index_buffer(2, false);
    let v = [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]].map(MeshVertex::at);
    b.mesh("Tri", vb, ib, 7, &v, &[0, 1, 2]).unwrap();
    b.to_bytes().unwrap()
}

fn put_u16(bytes: &mut [u8], at: usize, v: u16) {
    bytes[at..at + 2].copy_from_slice(&v.to_le_bytes());
}

#[test]
fn header_table_out_of_bounds_names_the_field_and_offset() {
    let mut bytes = small();
    bytes[0x28..0x30].copy_from_slice(&0x7fff_0000i64.to_le_bytes());
    let e = GeometryView::from_bytes(&bytes).unwrap_err();
    assert_eq!(e.offset(), 0x28);
    assert_eq!(e.what(), "MergedGeometryPrototype.mergedVertices");
    assert!(matches!(
        e.kind(),
        ErrorKind::PointerOutOfBounds {
            relative: 0x7fff_0000,
            ..
        }
    ));
    assert!(e.to_string().starts_with("at 0x00000028: MergedGeometryPrototype.mergedVertices: pointer 0x7fff0000 is outside the file"), "{e}");

    let mut bytes = small();
    bytes[8..12].copy_from_slice(&u32::MAX.to_le_bytes()); // verticesMappingCount
    let e = GeometryView::from_bytes(&bytes).unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::Truncated { .. }), "{e}");
    assert!(GeometryView::from_bytes(&bytes[..71]).is_err());
}

#[test]
fn blob_pointers_and_sizes_are_checked_lazily() {
    let bytes = small();
    let view = GeometryView::from_bytes(&bytes).unwrap();
    let vb_at = view.vertex_buffer(0).unwrap().offset();
    let ib_at = view.index_buffer(0).unwrap().offset();

    let mut bad = bytes.clone();
    bad[vb_at + 24..vb_at + 28].copy_from_slice(&u32::MAX.to_le_bytes()); // sizeInBytes
    let view = GeometryView::from_bytes(&bad).expect("opening reads no blob");
    let e = view.vertex_buffer(0).unwrap().data().unwrap_err();
    assert_eq!(e.what(), "VerticesPrototype.verticesData");
    assert!(view.validate().is_err());

    let mut bad = bytes.clone();
    bad[vb_at..vb_at + 8].copy_from_slice(&(-(vb_at as i64) - 1).to_le_bytes());
    let view = GeometryView::from_bytes(&bad).unwrap();
    let e = view.vertex_buffer(0).unwrap().data_offset().unwrap_err();
    assert_eq!(e.offset(), vb_at as u64);
    assert!(e.to_string().contains("before the start"), "{e}");

    let mut bad = bytes.clone();
    put_u16(&mut bad, ib_at + 14, 3); // indexSize
    let view = GeometryView::from_bytes(&bad).unwrap();
    let e = view.index_buffer(0).unwrap().index_count().unwrap_err();
    assert_eq!(e.what(), "IndicesPrototype.indexSize");
    assert_eq!(e.offset(), (ib_at + 14) as u64);

    let mut bad = bytes.clone();
    put_u16(&mut bad, vb_at + 28, 0); // strideInBytes
    let view = GeometryView::from_bytes(&bad).unwrap();
    assert!(view.vertex_buffer(0).unwrap().raw_vertices().is_err());
    assert!(
        view.vertex_buffer(0)
            .unwrap()
            .decode_vertices_into(&mut [0u8; 84])
            .is_err()
    );
}

#[test]
fn encoded_preconditions_are_errors_not_aborts() {
    let mut b = GeometryBuilder::new();
    let vb = b.vertex_buffer("set3/xyznuvtbpc", true);
    let ib = b.index_buffer(2, true);
    let (v, i) = cube([0.0; 3], 1.0);
    b.mesh("Cube", vb, ib, 1, &v, &i).unwrap();
    let bytes = b.to_bytes().unwrap();
    let view = GeometryView::from_bytes(&bytes).unwrap();
    let vb_at = view.vertex_buffer(0).unwrap().offset();
    let vdata = view.vertex_buffer(0).unwrap().data_offset().unwrap();
    let idata = view.index_buffer(0).unwrap().data_offset().unwrap();

    // A stride meshoptimizer would assert on.
    for stride in [0u16, 6, 30, 260] {
        let mut bad = bytes.clone();
        put_u16(&mut bad, vb_at + 28, stride);
        let view = GeometryView::from_bytes(&bad).unwrap();
        let mut out = vec![0u8; 24 * 300];
        let e = view
            .vertex_buffer(0)
            .unwrap()
            .decode_vertices_into(&mut out)
            .unwrap_err();
        assert!(
            matches!(e.kind(), ErrorKind::InvalidValue { .. }),
            "stride {stride}: {e}"
        );
    }
    // An index count that is not whole triangles.
    let mut bad = bytes.clone();
    bad[idata + 4..idata + 8].copy_from_slice(&35u32.to_le_bytes());
    let view = GeometryView::from_bytes(&bad).unwrap();
    let e = view
        .index_buffer(0)
        .unwrap()
        .decode_indices_into(&mut [0u32; 36])
        .unwrap_err();
    assert!(e.to_string().contains("multiple of 3"), "{e}");
    // An element count the payload cannot hold.
    let mut bad = bytes.clone();
    bad[vdata + 4..vdata + 8].copy_from_slice(&u32::MAX.to_le_bytes());
    let view = GeometryView::from_bytes(&bad).unwrap();
    assert!(view.vertex_buffer(0).unwrap().decoded_len().is_err());
    // A payload header that is no meshoptimizer vertex codec.
    let mut bad = bytes.clone();
    bad[vdata + 8] = 0x55;
    let view = GeometryView::from_bytes(&bad).unwrap();
    let mut out = vec![0u8; 24 * 28];
    let e = view
        .vertex_buffer(0)
        .unwrap()
        .decode_vertices_into(&mut out)
        .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::UnsupportedVersion { found: 0x55 });
    assert_eq!(e.offset(), (vdata + 8) as u64);
    // A payload one byte short is meshoptimizer's error code, reported.
    let mut bad = bytes.clone();
    let size = u32::from_le_bytes(bad[vb_at + 24..vb_at + 28].try_into().unwrap());
    bad[vb_at + 24..vb_at + 28].copy_from_slice(&(size - 1).to_le_bytes());
    let view = GeometryView::from_bytes(&bad).unwrap();
    let mut out = vec![0u8; 24 * 28];
    let e = view
        .vertex_buffer(0)
        .unwrap()
        .decode_vertices_into(&mut out)
        .unwrap_err();
    assert!(
        matches!(e.kind(), ErrorKind::Decoder { code: -3 | -2 }),
        "{e}"
    );
    assert!(
        e.to_string().contains("meshoptimizer decoder returned"),
        "{e}"
    );
    // Buffers of the wrong size.
    let view = GeometryView::from_bytes(&bytes).unwrap();
    let e = view
        .vertex_buffer(0)
        .unwrap()
        .decode_vertices_into(&mut [0u8; 10])
        .unwrap_err();
    assert!(
        matches!(
            e.kind(),
            ErrorKind::BufferSize {
                needed: 672,
                provided: 10
            }
        ),
        "{e}"
    );
    let e = view
        .vertex_buffer(0)
        .unwrap()
        .decode_vertices_into_typed(&mut [[0u8; 32]; 24])
        .unwrap_err();
    assert!(e.to_string().contains("not one stride long"), "{e}");
    assert!(
        view.index_buffer(0)
            .unwrap()
            .decode_indices_into(&mut [0u16; 35])
            .is_err()
    );
}

#[test]
fn wide_indices_are_not_narrowed() {
    let mut b = GeometryBuilder::new();
    let vb = b.vertex_buffer("set3/xyznuvtbpc", false);
    let ib = b.index_buffer(4, false);
    let v = [[0.0; 3]; 3].map(MeshVertex::at);
    b.mesh("T", vb, ib, 0, &v, &[0, 1, 2]).unwrap();
    let bytes = b.to_bytes().unwrap();
    let view = GeometryView::from_bytes(&bytes).unwrap();
    let e = view
        .index_buffer(0)
        .unwrap()
        .decode_indices_into(&mut [0u16; 3])
        .unwrap_err();
    assert!(e.to_string().contains("u16"), "{e}");
}

#[test]
fn views_are_copy_send_sync_and_outlive_the_view_value() {
    fn assert_traits<T: Copy + Send + Sync>() {}
    assert_traits::<GeometryView<'static>>();
    assert_traits::<gamebin::wows::geometry::VertexBuffer<'static>>();
    assert_traits::<gamebin::wows::geometry::Draw<'static>>();
    let bytes = small();
    // Data handed out lives as long as the bytes, not the view.
    let name = {
        let view = GeometryView::from_bytes(&bytes).unwrap();
        view.vertex_buffer(0).unwrap().format_name().unwrap()
    };
    assert_eq!(name, "set3/xyznuvtbpc");
}

/// The `Vec` decoders give what the slice decoders give, raw and ENCD, 2- and 4-byte, into fresh
/// vectors and into vectors left longer or shorter by an earlier file.
#[test]
fn vec_decoders_match_the_slice_decoders() {
    for (name, bytes) in gamebin::synth::geometry::fixtures().unwrap() {
        let view = GeometryView::from_bytes(&bytes).unwrap();
        for vb in view.vertex_buffers() {
            let mut want = vec![0u8; vb.decoded_len().unwrap()];
            let n = vb.decode_vertices_into(&mut want).unwrap();
            for start in [Vec::new(), vec![0xaa; 3], vec![0x55; want.len() + 100]] {
                let mut got = start;
                assert_eq!(vb.decode_vertices_into_vec(&mut got).unwrap(), n, "{name}");
                assert_eq!(got, want, "{name}");
            }
        }
        for ib in view.index_buffers() {
            let mut want = vec![0u32; ib.index_count().unwrap()];
            ib.decode_indices_into(&mut want).unwrap();
            for start in [Vec::new(), vec![7u32; 2], vec![9u32; want.len() + 10]] {
                let mut got = start;
                assert_eq!(ib.decode_indices_into_vec(&mut got).unwrap(), want.len());
                assert_eq!(got, want, "{name}");
            }
            let mut narrow: Vec<u16> = vec![1, 2, 3];
            match ib.effective_index_size().unwrap() {
                2 => {
                    ib.decode_indices_into_vec(&mut narrow).unwrap();
                    assert!(
                        narrow
                            .iter()
                            .map(|&v| u32::from(v))
                            .eq(want.iter().copied())
                    );
                }
                _ => assert!(ib.decode_indices_into_vec(&mut narrow).is_err(), "{name}"),
            }
        }
    }
}

/// Two mappings of a draw that store different texel densities still pair by their index data,
/// with a note; the pass that ignores densities runs only for what is left unpaired.
#[test]
fn different_densities_on_the_two_sides_pair_by_the_index_data() {
    let mut bytes = gamebin::synth::geometry::fixtures()
        .unwrap()
        .into_iter()
        .find(|(n, _)| *n == "ships_raw.geometry")
        .unwrap()
        .1;
    let view = GeometryView::from_bytes(&bytes).unwrap();
    let offsets: Vec<usize> = view.index_mappings().iter().map(|m| m.offset()).collect();
    for at in offsets {
        put_u16(&mut bytes, at + 6, 0); // packedTexelDensity of every index mapping
    }
    let view = GeometryView::from_bytes(&bytes).unwrap();
    let draws = view.draws();
    assert_eq!(draws.len(), 2);
    for d in draws.iter() {
        assert_eq!(d.pairing, Pairing::ByIndexRange);
        let name = ["Cube", "Pyramid"]
            .into_iter()
            .find(|n| MappingKind::Indices.id_of(n) == d.indices.id())
            .unwrap();
        assert_eq!(d.vertices.id(), MappingKind::Vertices.id_of(name));
    }
    let notes = draws.table().notes();
    assert_eq!(notes.len(), 2, "{notes:?}");
    assert!(notes.iter().all(|n| matches!(
        n.doubt,
        PairingDoubt::TexelDensitiesDiffer { indices: 0, .. }
    )));
}

/// `{:?}` of a view over a large file stays short: lengths and a few bytes, never the file.
#[test]
fn debug_of_a_large_view_is_short() {
    let mut b = GeometryBuilder::new();
    let vb = b.vertex_buffer("set3/xyznuvtbpc", false);
    // About 4 MiB of whole 28-byte vertices (the writer refuses a raw buffer of partial strides).
    b.raw_vertices(vb, &vec![0x5a; 28 * 150_000]).unwrap();
    let bytes = b.to_bytes().unwrap();
    let view = GeometryView::from_bytes(&bytes).unwrap();
    let shown = format!("{view:?}");
    assert!(shown.len() < 2000, "{} characters", shown.len());
}

/// `by_id` scans its table four records at a time and then the rest: at every table length, each
/// id must be found at the first position that holds it (ids repeat here every third mesh, so
/// also within one group of four), and an id not in the table must not be.
#[test]
fn lookups_by_id_find_the_first_mapping_at_every_table_length() {
    for meshes in 0..=11u32 {
        let mut b = GeometryBuilder::new();
        let vb = b.vertex_buffer("set3/xyznuvtbpc", false);
        let ib = b.index_buffer(2, false);
        let v = [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]].map(MeshVertex::at);
        for m in 0..meshes {
            let ids = (100 + m % 3, 200 + m % 3);
            b.mesh(ids, vb, ib, 0, &v, &[0, 1, 2]).unwrap();
        }
        let bytes = b.to_bytes().unwrap();
        let view = GeometryView::from_bytes(&bytes).unwrap();
        for (table, first_id) in [(view.vertex_mappings(), 100), (view.index_mappings(), 200)] {
            assert_eq!(table.len(), meshes as usize);
            for id in first_id..first_id + 5 {
                let first_holding = table.iter().position(|m| m.id() == id);
                let found = table.by_id(id);
                assert_eq!(
                    found.map(|m| m.index()),
                    first_holding,
                    "{meshes} meshes, id {id}"
                );
                if let Some(m) = found {
                    assert_eq!(m.id(), id);
                }
            }
        }
    }
}

/// One meaning per name: a pairing note names its mappings by table position
/// (`index_mapping_position`), the summary (and `dump`, and the command line) by id
/// (`index_mapping`); the position leads to the mapping whose id the summary gives.
#[test]
fn a_pairing_note_gives_positions_and_its_summary_ids() {
    use gamebin::wows::geometry::GeometrySummary;
    let fixtures = gamebin::synth::geometry::fixtures().unwrap();
    let (_, bytes) = fixtures
        .iter()
        .find(|(n, _)| *n == "ambiguous_pairing.geometry")
        .unwrap();
    let view = GeometryView::from_bytes(bytes).unwrap();
    let draws = view.draws();
    let notes = draws.table().notes();
    let summary = GeometrySummary::from_view(&view).unwrap();
    assert_eq!(notes.len(), summary.pairing_notes.len());
    assert!(!notes.is_empty());
    for (note, said) in notes.iter().zip(&summary.pairing_notes) {
        let mapping = view
            .index_mappings()
            .get(note.index_mapping_position)
            .unwrap();
        assert_eq!(said.index_mapping, mapping.id());
        let vertices = note
            .vertex_mapping_position
            .map(|p| view.vertex_mappings().get(p).unwrap().id());
        assert_eq!(said.vertex_mapping, vertices);
        // The ids are hashes, never small table positions.
        assert!(said.index_mapping > 0xffff, "{:#x}", said.index_mapping);
    }
}

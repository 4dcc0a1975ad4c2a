//! Drives every `.geometry` accessor.

use gamebin::wows::geometry::model::GeometryModel;
use gamebin::wows::geometry::{DecodedGeometry, GeometryView, Indices, Vertices};

use super::MAX_DECODE_BYTES;

/// Opens `data` as `.geometry` and drives every accessor, decoding each buffer into a scratch
/// buffer.
pub fn drive_geometry(data: &[u8]) -> usize {
    let mut scratch = gamebin::Scratch::new();
    let Some(view) = super::open::<GeometryView<'_>>(data, &mut scratch) else {
        return 0;
    };
    let mut seen = 1;
    let _ = view.validate();
    let _ = view.header();

    let mut vertex_bytes: Vec<Vec<u8>> = Vec::new();
    for vb in view.vertex_buffers() {
        seen += 1;
        let _ = (
            vb.offset(),
            vb.stride(),
            vb.is_skinned(),
            vb.is_bumped(),
            vb.size_in_bytes(),
        );
        let _ = (
            vb.format_name(),
            vb.data_offset(),
            vb.data(),
            vb.is_encoded(),
            vb.vertex_count(),
        );
        if let Ok(Some(encd)) = vb.encoded() {
            let _ = encd.codec_byte();
        }
        let format = vb.format().unwrap_or_default();
        let mut decoded = Vec::new();
        if let Ok(len) = vb.decoded_len() {
            assert!(
                len <= data
                    .len()
                    .saturating_mul(gamebin::wows::geometry::MAX_VERTEX_EXPANSION)
                    .max(1 << 16),
                "decoded_len {len} is out of proportion to a {}-byte file",
                data.len()
            );
            if len <= MAX_DECODE_BYTES {
                decoded = vec![0u8; len];
                if vb.decode_vertices_into(&mut decoded).is_err() {
                    decoded.clear();
                }
                // A short buffer is an error, never an overrun.
                if len > 0 {
                    assert!(vb.decode_vertices_into(&mut vec![0u8; len - 1]).is_err());
                }
            }
        }
        if let Ok(raw) = vb.raw_vertices() {
            walk_vertices(&raw);
        }
        if let Some(v) = Vertices::new(&decoded, vb.stride(), format) {
            walk_vertices(&v);
        }
        let _ = vb.decode_vertices_into_typed(&mut [[0u32; 7]; 4]);
        vertex_bytes.push(decoded);
    }

    let mut index_values: Vec<Vec<u32>> = Vec::new();
    for ib in view.index_buffers() {
        seen += 1;
        let _ = (
            ib.offset(),
            ib.index_size(),
            ib.effective_index_size(),
            ib.has_swapped_index_size(),
            ib.size_in_bytes(),
            ib.data_offset(),
            ib.data(),
        );
        let _ = (ib.is_encoded(), ib.index_count());
        if let Ok(raw) = ib.raw_indices() {
            walk_indices(&raw);
        }
        let mut decoded = Vec::new();
        if let Ok(count) = ib.index_count() {
            if count.saturating_mul(4) <= MAX_DECODE_BYTES {
                decoded = vec![0u32; count];
                if ib.decode_indices_into(&mut decoded).is_err() {
                    decoded.clear();
                }
                let mut narrow = vec![0u16; count];
                let _ = ib.decode_indices_into(&mut narrow);
                if count > 0 {
                    assert!(ib.decode_indices_into(&mut vec![0u32; count - 1]).is_err());
                }
            }
        }
        walk_indices(&Indices::from(decoded.as_slice()));
        index_values.push(decoded);
    }

    for mappings in [view.vertex_mappings(), view.index_mappings()] {
        for m in mappings.iter() {
            seen += 1;
            let _ = (
                m.id(),
                m.kind(),
                m.index(),
                m.buffer_index(),
                m.texel_density(),
            );
            let _ = (m.items_offset(), m.items_count(), m.raw());
            let _ = mappings.by_id(m.id());
            let _ = mappings.get(m.index());
        }
        let _ = mappings.by_name("Propeller_meshShape");
    }

    let draws = view.draws();
    for note in draws.table().notes() {
        let _ = note.doubt.to_string();
    }
    let _ = (
        draws.table().unpaired_index_mappings().count(),
        draws.table().unpaired_vertex_mappings().count(),
    );
    for position in 0..view.index_mappings().len() {
        let _ = draws.table().max_index(position);
        let _ = draws.table().draw_of_index_mapping(&view, position);
    }
    for draw in draws.iter() {
        seen += 1;
        let _ = draw.pairing.name();
        let vertices = vertex_bytes
            .get(draw.vertices.buffer_index())
            .and_then(|bytes| {
                let vb = view.vertex_buffer(draw.vertices.buffer_index())?;
                Vertices::new(bytes, vb.stride(), vb.format().ok()?)
            });
        let indices = index_values
            .get(draw.indices.buffer_index())
            .map(|values| Indices::from(values.as_slice()));
        if let (Some(v), Some(i)) = (vertices, indices) {
            if let (Some(dv), Some(di)) = (draw.vertices_in(&v), draw.indices_in(&i)) {
                walk_vertices(&dv);
                for t in di.triangles() {
                    for k in t {
                        let _ = dv.position(k as usize);
                    }
                }
            }
        }
    }

    // The whole-file decode, when its buffers stay within the driver's budget.
    let total: usize = view
        .vertex_buffers()
        .map(|vb| vb.decoded_len().unwrap_or(0))
        .chain(
            view.index_buffers()
                .map(|ib| ib.index_count().unwrap_or(0).saturating_mul(4)),
        )
        .fold(0, usize::saturating_add);
    if total <= MAX_DECODE_BYTES {
        let mut decoded = DecodedGeometry::new();
        decoded.decode(&view);
        for draw in decoded.draws(&view) {
            seen += 1;
            if let Ok(data) = decoded.draw_data(&draw) {
                // A checked draw's indices all address its vertices.
                for t in data.indices.triangles() {
                    for k in t {
                        assert!(data.vertices.record(k as usize).is_some());
                    }
                }
            }
        }
        // Both exports, over whatever draws are sound; armor models too.
        let options = gamebin::wows::geometry::export::gltf::GeometryGlbOptions { armor: true };
        if let Ok(glb) =
            gamebin::wows::geometry::export::gltf::geometry_to_glb(&view, &decoded, &options)
        {
            seen += glb.meshes;
            let declared = glb
                .bytes
                .get(8..12)
                .map(|b| u32::from_le_bytes(b.try_into().unwrap()));
            assert_eq!(declared, Some(glb.bytes.len() as u32), "GLB length field");
        }
        for draw in decoded.draws(&view) {
            if let Ok(data) = decoded.draw_data(&draw) {
                let text = gamebin::wows::geometry::export::obj::draw_to_obj("fuzz", &draw, &data);
                seen += usize::from(!text.is_empty());
            }
        }
        for model in view.armor_models() {
            if let Ok(armor) = model.armor() {
                let _ = gamebin::wows::geometry::export::obj::armor_to_obj("fuzz", "armor", &armor);
            }
        }
        for m in view.vertex_mappings().iter().take(4) {
            for n in view.index_mappings().iter().take(4) {
                if let Some(draw) = view.draw_by_ids(m.id(), n.id()) {
                    let _ = decoded.draw_data(&draw);
                }
            }
        }
    }
    let _ = view.draw_by_name("Cube");

    for model in view.collision_models().chain(view.armor_models()) {
        seen += 1;
        let _ = (
            model.kind(),
            model.offset(),
            model.name(),
            model.size_in_bytes(),
        );
        let _ = (model.data_offset(), model.data());
        if let Ok(armor) = model.armor() {
            let _ = (
                armor.id(),
                armor.bounds(),
                armor.node_count(),
                armor.triangle_count(),
            );
            let _ = armor.trailing_bytes();
            for node in armor.nodes().flatten() {
                seen += 1;
                let _ = (
                    node.offset(),
                    node.material_id(),
                    node.layer_index(),
                    node.bounds(),
                    node.check(),
                );
                for v in node.vertices() {
                    let _ = (v.position(), v.normal());
                }
                for t in node.triangles() {
                    std::hint::black_box(t);
                }
            }
        }
    }
    seen + drive_model(&view)
}

/// The owned model: whatever reads writes, unless the writer refuses what the reader's check
/// refuses (naming where in the model), and the written file reads back to the same model.
fn drive_model(view: &GeometryView<'_>) -> usize {
    let Ok(model) = GeometryModel::from_view(view) else {
        return 0;
    };
    let written = match model.to_bytes() {
        Ok(written) => written,
        Err(e) => {
            assert!(
                view.check().map_or(true, |found| !found.errors.is_empty()),
                "the writer refused ({e}) a model whose file checks clean"
            );
            assert!(!e.path().is_empty(), "the refusal names no place: {e}");
            return 0;
        }
    };
    let again = GeometryView::from_bytes(&written).expect("the written file opens");
    let read = GeometryModel::from_view(&again).expect("the written file reads");
    assert!(
        read == model,
        "the written file reads back to the same model"
    );
    1
}

fn walk_vertices(v: &Vertices<'_>) {
    let _ = v.bounds();
    for i in 0..v.len() {
        let _ = (
            v.position(i),
            v.normal(i),
            v.uv(i),
            v.uv1(i),
            v.tangent(i),
            v.binormal(i),
        );
        let _ = v.bone_indices(i);
    }
    let _ = (v.normals().count(), v.uvs().count(), v.record(v.len()));
}

fn walk_indices(i: &Indices<'_>) {
    let _ = (
        i.max(),
        i.triangles().count(),
        i.get(i.len()),
        i.range(1, i.len()),
    );
}

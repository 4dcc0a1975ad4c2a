//! The synthetic `.geometry` files committed under `fixtures/wows-geometry/`, and the small
//! meshes they are made of (also for tests, benchmarks and documentation examples).

use crate::wows::geometry::model::{ArmorNodeSpec, GeometryBuilder, MeshVertex, armor_payload};
use crate::write_error::WriteResult as Result;

/// A cube of half-size `size` centred at `center`: 24 vertices (flat faces) and 36 indices.
pub fn cube(center: [f32; 3], size: f32) -> (Vec<MeshVertex>, Vec<u32>) {
    let mut vertices = Vec::with_capacity(24);
    let mut indices = Vec::with_capacity(36);
    // Each face: its normal axis and sign, and the two in-plane axes.
    for (first, (bone, sign)) in (0u32..).step_by(4).zip([
        (0u8, 1.0f32),
        (0, -1.0),
        (1, 1.0),
        (1, -1.0),
        (2, 1.0),
        (2, -1.0),
    ]) {
        let axis = usize::from(bone);
        let (u, v) = ((axis + 1) % 3, (axis + 2) % 3);
        for (a, b) in [(-1.0f32, -1.0f32), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)] {
            let mut p = center;
            p[axis] += sign * size;
            p[u] += a * size;
            p[v] += b * sign * size;
            let mut normal = [0.0; 3];
            normal[axis] = sign;
            let mut tangent = [0.0; 3];
            tangent[u] = 1.0;
            let mut binormal = [0.0; 3];
            binormal[v] = sign;
            vertices.push(MeshVertex {
                position: p,
                normal,
                uv: [a * 0.5, b * 0.5],
                uv1: [a * 0.25, b * 0.25],
                tangent,
                binormal,
                bones: [bone, 0, 0],
                weights: [255, 0],
            });
        }
        indices.extend([first, first + 1, first + 2, first, first + 2, first + 3]);
    }
    (vertices, indices)
}

/// A square pyramid (5 corners, 6 triangles) with smooth-ish normals.
pub fn pyramid(center: [f32; 3], size: f32) -> (Vec<MeshVertex>, Vec<u32>) {
    let apex = [center[0], center[1] + size, center[2]];
    let base = [(-1.0f32, -1.0f32), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)]
        .map(|(x, z)| [center[0] + x * size, center[1] - size, center[2] + z * size]);
    let mut vertices = vec![MeshVertex {
        uv: [0.0, 0.5],
        ..MeshVertex::at(apex)
    }];
    for (k, p) in base.iter().enumerate() {
        let d = [p[0] - center[0], 0.5 * size, p[2] - center[2]];
        let len = (d[0] * d[0] + d[1] * d[1] + d[2] * d[2]).sqrt();
        vertices.push(MeshVertex {
            normal: d.map(|c| c / len),
            uv: [if k % 3 == 0 { -0.5 } else { 0.5 }, -0.5],
            ..MeshVertex::at(*p)
        });
    }
    let indices = vec![0, 2, 1, 0, 3, 2, 0, 4, 3, 0, 1, 4, 1, 2, 3, 1, 3, 4];
    (vertices, indices)
}

/// The fixture set committed under `fixtures/wows-geometry/`: (file name, bytes).
pub fn fixtures() -> Result<Vec<(&'static str, Vec<u8>)>> {
    Ok(vec![
        ("ships_raw.geometry", ships(false)?.to_bytes()?),
        ("ships_encd.geometry", ships(true)?.to_bytes()?),
        ("mixed_formats.geometry", mixed_formats()?.to_bytes()?),
        (
            "pairing_by_index_range.geometry",
            pairing_by_index_range()?.to_bytes()?,
        ),
        (
            "ambiguous_pairing.geometry",
            ambiguous_pairing()?.to_bytes()?,
        ),
        (
            "swapped_index_size.geometry",
            swapped_index_size()?.to_bytes()?,
        ),
    ])
}

/// A flat quad of four vertices (two triangles), at height `y`.
pub fn quad(y: f32, size: f32) -> (Vec<MeshVertex>, Vec<u32>) {
    let corners = [[-1.0, -1.0], [1.0, -1.0], [1.0, 1.0], [-1.0, 1.0]];
    let vertices = corners
        .iter()
        .map(|[x, z]| MeshVertex {
            normal: [0.0, 1.0, 0.0],
            uv: [x * 0.5, z * 0.5],
            ..MeshVertex::at([x * size, y, z * size])
        })
        .collect();
    (vertices, vec![0, 2, 1, 0, 3, 2])
}

/// What real 0.10 files look like: no texel densities and the index mappings listed in another
/// order than the vertex mappings, over two vertex buffers that share one index buffer; two quads
/// of the same vertex count with identical indices (interchangeable). Every draw pairs by its index
/// range.
fn pairing_by_index_range() -> Result<GeometryBuilder> {
    let mut b = GeometryBuilder::new();
    let hull = b.vertex_buffer("set3/xyznuvtbpc", false);
    let discs = b.vertex_buffer("set3/xyznuvpc", false);
    let ib = b.index_buffer(2, false);
    let (v, i) = cube([0.0, 0.0, 0.0], 1.0);
    b.mesh("Hull", hull, ib, 0, &v, &i)?;
    let (v, i) = quad(0.5, 0.3);
    b.mesh("Disc_left", discs, ib, 0, &v, &i)?;
    let (v, i) = pyramid([0.0, 1.0, 0.0], 0.5);
    b.mesh("Mast", hull, ib, 0, &v, &i)?;
    let (v, i) = quad(0.5, 0.6);
    b.mesh("Disc_right", discs, ib, 0, &v, &i)?;
    b.reorder_index_mappings(&[2, 3, 0, 1])?;
    Ok(b)
}

/// Two vertex mappings of the same count whose index mappings hold different indices, and no texel
/// densities: nothing in the file tells them apart, so they pair in table order and the pairing
/// says so.
fn ambiguous_pairing() -> Result<GeometryBuilder> {
    let mut b = GeometryBuilder::new();
    let vb = b.vertex_buffer("set3/xyznuvtbpc", false);
    let ib = b.index_buffer(2, false);
    let (v, i) = quad(0.0, 1.0);
    b.mesh("Deck", vb, ib, 0, &v, &i)?;
    let (v, _) = quad(1.0, 1.0);
    b.mesh("Roof", vb, ib, 0, &v, &[0, 1, 2, 0, 2, 3])?;
    b.reorder_index_mappings(&[1, 0])?;
    Ok(b)
}

/// A 2-byte index buffer whose IndicesPrototype stores (2, 0) instead of (0, 2), as some older
/// files do.
fn swapped_index_size() -> Result<GeometryBuilder> {
    let mut b = GeometryBuilder::new();
    let vb = b.vertex_buffer("set3/xyznuvtbpc", false);
    let ib = b.index_buffer(2, false);
    let (v, i) = cube([0.0, 0.0, 0.0], 1.0);
    b.mesh("Cube", vb, ib, 0, &v, &i)?;
    b.swap_index_size_fields(ib)?;
    Ok(b)
}

/// Two meshes in one `set3/xyznuvtbpc` buffer with texel densities (index mappings listed in
/// another order), and an armor model: raw or ENCD.
fn ships(encode: bool) -> Result<GeometryBuilder> {
    let mut b = GeometryBuilder::new();
    let vb = b.vertex_buffer("set3/xyznuvtbpc", encode);
    let ib = b.index_buffer(2, encode);
    let (v, i) = cube([0.0, 1.0, 0.0], 1.0);
    b.mesh("Cube", vb, ib, 17293, &v, &i)?;
    let (v, i) = pyramid([3.0, 1.0, -2.0], 0.75);
    b.mesh("Pyramid", vb, ib, 19309, &v, &i)?;
    b.reorder_index_mappings(&[1, 0])?;
    let (v, _) = cube([0.0, 1.0, 0.0], 1.0);
    let faces = |range: core::ops::Range<usize>| {
        range
            .flat_map(|f| {
                let q = &v[4 * f..4 * f + 4];
                [
                    [q[0].position, q[1].position, q[2].position],
                    [q[0].position, q[2].position, q[3].position],
                ]
            })
            .collect::<Vec<_>>()
    };
    b.armor_model(
        "CM_PA_united.armor",
        armor_payload(&[
            ArmorNodeSpec {
                material_id: 7,
                layer_index: 1,
                triangles: faces(0..3),
            },
            ArmorNodeSpec {
                material_id: 12,
                layer_index: 2,
                triangles: faces(3..6),
            },
        ])?,
    );
    Ok(b)
}

/// Two vertex buffers of other formats (skinned, two UV sets), 4-byte indices, no texel densities
/// (pairing by position), a collision model, and every blob at an odd offset.
fn mixed_formats() -> Result<GeometryBuilder> {
    let mut b = GeometryBuilder::new();
    b.misalign_blobs(1);
    let skinned = b.vertex_buffer_with("set3/xyznuviiiwwtbpc", 36, true, true, false);
    let two_uv = b.vertex_buffer("set3/xyznuv2tbpc", true);
    let ib = b.index_buffer(4, false);
    let (v, i) = cube([0.0, 0.0, 0.0], 0.5);
    b.mesh("Turret_skinned", skinned, ib, 0, &v, &i)?;
    let (v, i) = pyramid([0.0, 2.0, 0.0], 0.5);
    b.mesh("Mast", two_uv, ib, 0, &v, &i)?;
    let (v, i) = cube([2.0, 0.0, 0.0], 0.25);
    b.mesh("Hull_lod1", two_uv, ib, 0, &v, &i)?;
    b.collision_model("CM_Hull.collision", (0u8..64).collect());
    Ok(b)
}

/// A small ENCD file with a mesh named `"Cube"` (for documentation examples).
pub fn example_file() -> Vec<u8> {
    ships(true).and_then(|b| b.to_bytes()).unwrap_or_default()
}

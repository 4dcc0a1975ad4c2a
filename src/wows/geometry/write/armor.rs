//! Armor payloads (`ArmorModelPrototype` data) made from triangles grouped by node.

use zerocopy::little_endian::{F32, U32};

use super::pack_unit;
use crate::bytes::sink::{Sink, invalid, narrow};
use crate::bytes::u64_of;
use crate::wows::geometry::raw::{Aabb, ArmorHeader, ArmorNodeHeader, ArmorVertex};
use crate::write_error::WriteResult as Result;

/// One node of an armor model for [`armor_payload`].
#[derive(Debug, Clone, Default)]
pub struct ArmorNodeSpec {
    /// Armor material id of the node's triangles.
    pub material_id: u8,
    /// 1-based armor layer.
    pub layer_index: u8,
    /// Triangles, three corners x, y, z each.
    pub triangles: Vec<[[f32; 3]; 3]>,
}

fn bounds_of<'t>(points: impl Iterator<Item = &'t [f32; 3]>) -> ([f32; 3], [f32; 3]) {
    points.fold(([f32::MAX; 3], [f32::MIN; 3]), |(mut lo, mut hi), p| {
        for k in 0..3 {
            lo[k] = lo[k].min(p[k]);
            hi[k] = hi[k].max(p[k]);
        }
        (lo, hi)
    })
}

fn aabb((lo, hi): ([f32; 3], [f32; 3])) -> Aabb {
    Aabb {
        min: lo.map(F32::new),
        max: hi.map(F32::new),
    }
}

/// An armor payload: id `0x80000001`, overall bounds, and each node with its bounds and triangles
/// (face normals, offset-binary).
pub fn armor_payload(nodes: &[ArmorNodeSpec]) -> Result<Vec<u8>> {
    let mut out = Sink::new();
    out.put(&ArmorHeader {
        id: U32::new(0x8000_0001),
        bounds: aabb(bounds_of(
            nodes.iter().flat_map(|n| n.triangles.iter().flatten()),
        )),
        node_count: U32::new(narrow(nodes.len(), "ArmorHeader.nodeCount")?),
    });
    for node in nodes {
        let vertex_count = node.triangles.len().checked_mul(3).ok_or_else(|| {
            invalid(
                "ArmorNode.vertexCount",
                u64_of(node.triangles.len()),
                "too many triangles",
            )
        })?;
        out.put(&ArmorNodeHeader {
            material_id: node.material_id,
            reserved0: 0,
            layer_index: node.layer_index,
            reserved1: 0,
            bounds: aabb(bounds_of(node.triangles.iter().flatten())),
            vertex_count: U32::new(narrow(vertex_count, "ArmorNode.vertexCount")?),
        });
        for t in &node.triangles {
            let n = face_normal(t);
            for p in t {
                out.put(&ArmorVertex {
                    position: p.map(F32::new),
                    normal: [pack_unit(n[0]), pack_unit(n[1]), pack_unit(n[2])],
                    reserved: 0,
                });
            }
        }
    }
    Ok(out.into_bytes())
}

fn face_normal(t: &[[f32; 3]; 3]) -> [f32; 3] {
    let a = [t[1][0] - t[0][0], t[1][1] - t[0][1], t[1][2] - t[0][2]];
    let b = [t[2][0] - t[0][0], t[2][1] - t[0][1], t[2][2] - t[0][2]];
    let n = [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ];
    let len = (n[0] * n[0] + n[1] * n[1] + n[2] * n[2]).sqrt();
    if len > 0.0 {
        n.map(|c| c / len)
    } else {
        [0.0, 1.0, 0.0]
    }
}

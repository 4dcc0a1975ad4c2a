//! Wavefront OBJ: one draw as positions, normals, texture coordinates and faces, in OBJ's
//! right-handed, Y-up space (see [`axes`](crate::wows::axes)).
//!
//! ```
//! # #[cfg(feature = "write")]
//! # fn main() -> Result<(), gamebin::Error> {
//! # let file = gamebin::synth::geometry::example_file();
//! use gamebin::wows::geometry::export::obj;
//! use gamebin::wows::geometry::{DecodedGeometry, GeometryView};
//!
//! let geometry = GeometryView::from_bytes(&file)?;
//! let mut decoded = DecodedGeometry::new();
//! decoded.decode(&geometry);
//! let cube = geometry.draw_by_name("Cube").expect("a mesh named Cube");
//! let text = obj::draw_to_obj("ship.geometry", &cube, &decoded.draw_data(&cube)?);
//! assert_eq!(text.lines().filter(|l| l.starts_with("v ")).count(), 24);
//! assert_eq!(text.lines().filter(|l| l.starts_with("f ")).count(), 12);
//! # Ok(())
//! # }
//! # #[cfg(not(feature = "write"))]
//! # fn main() {}
//! ```

use core::fmt::Write as _;

use crate::error::Result;
use crate::wows::axes::{finite, rewound, right_handed, texcoord_bottom_left};
use crate::wows::geometry::{Armor, Draw, DrawData};

/// The OBJ file of one draw; `source` names where it came from in the header comment.
pub fn draw_to_obj(source: &str, draw: &Draw<'_>, data: &DrawData<'_>) -> String {
    let (vertices, indices) = (&data.vertices, &data.indices);
    let mut s = String::new();
    let _ = writeln!(s, "# gamebin export of {source}");
    let _ = writeln!(
        s,
        "# vertex mapping {:#010x}, index mapping {:#010x}, paired by {}",
        draw.vertices.id(),
        draw.indices.id(),
        draw.pairing.name()
    );
    let _ = writeln!(s, "o mesh_{:08x}", draw.vertices.id());
    for p in vertices.positions() {
        let [x, y, z] = right_handed(finite(p));
        let _ = writeln!(s, "v {x} {y} {z}");
    }
    let normals = vertices.format().normal.is_some();
    for n in vertices.normals() {
        let [x, y, z] = right_handed(n);
        let _ = writeln!(s, "vn {x} {y} {z}");
    }
    let uvs = vertices.format().uv0.is_some();
    for uv in vertices.uvs() {
        let [u, v] = texcoord_bottom_left(finite(uv));
        let _ = writeln!(s, "vt {u} {v}");
    }
    for t in indices.triangles() {
        let _ = write!(s, "f");
        for k in rewound(t) {
            let k = u64::from(k) + 1;
            let _ = match (uvs, normals) {
                (true, true) => write!(s, " {k}/{k}/{k}"),
                (true, false) => write!(s, " {k}/{k}"),
                (false, true) => write!(s, " {k}//{k}"),
                (false, false) => write!(s, " {k}"),
            };
        }
        let _ = writeln!(s);
    }
    s
}

/// The OBJ file of an armor model: one group per BVH node (`g node_<k>_material_<id>_layer_<n>`),
/// a triangle soup with normals.
pub fn armor_to_obj(source: &str, name: &str, armor: &Armor<'_>) -> Result<String> {
    let mut s = String::new();
    let _ = writeln!(s, "# gamebin export of {source}: armor model {name}");
    let _ = writeln!(s, "o {}", name.replace(char::is_whitespace, "_"));
    let mut next = 1u64;
    for (k, node) in armor.nodes().enumerate() {
        let node = node?;
        let _ = writeln!(
            s,
            "g node_{k}_material_{}_layer_{}",
            node.material_id(),
            node.layer_index()
        );
        for triangle in node.vertices().chunks_exact(3) {
            for v in rewound([&triangle[0], &triangle[1], &triangle[2]]) {
                let [x, y, z] = right_handed(v.position());
                let [nx, ny, nz] = right_handed(v.normal());
                let _ = writeln!(s, "v {x} {y} {z}\nvn {nx} {ny} {nz}");
            }
            let _ = writeln!(
                s,
                "f {a}//{a} {b}//{b} {c}//{c}",
                a = next,
                b = next + 1,
                c = next + 2
            );
            next += 3;
        }
    }
    Ok(s)
}

//! glTF 2.0 binary (GLB) export of a `.geometry` (feature `gltf`), through the shared
//! [`GlbBuilder`].
//!
//! [`add_draw`] and [`add_armor`] turn a decoded draw and an armor model into meshes of a builder,
//! for every exporter that shows a `.geometry`'s meshes (this one, and the model exports of
//! `wows::resolve` and `wows::sources`). [`geometry_to_glb`] does the whole job for one
//! `.geometry`: every sound draw as a mesh on its own node, the armor models on request, and a
//! list of the draws it had to skip and why.
//!
//! Conversions, done here once for every caller: positions and directions to glTF's right-handed,
//! Y-up space (X mirrored, triangles rewound, see [`axes`](crate::wows::axes)); normals and tangents to
//! unit length; the stored `uv − 0.5` to texture coordinates with the top-left origin glTF shares
//! with Direct3D; the three stored bone indices (× 3, in the engine's swizzled byte order) and
//! their weights (two stored, the third the remainder) to `JOINTS_0` and `WEIGHTS_0` summing to 1,
//! unused joints as 0; stored floats that are not finite (NaN, infinite) as 0, which
//! [`Vertices::non_finite`] reports; indices as `u16` where every index fits below 65535, `u32` otherwise.
//!
//! ```
//! # fn main() -> Result<(), gamebin::ExportError> {
//! # let file = gamebin::synth::geometry::example_file();
//! use gamebin::wows::geometry::export::gltf::{GeometryGlbOptions, geometry_to_glb};
//! use gamebin::wows::geometry::{DecodedGeometry, GeometryView};
//!
//! let geometry = GeometryView::from_bytes(&file)?;
//! let mut decoded = DecodedGeometry::new();
//! decoded.decode(&geometry);
//! let glb = geometry_to_glb(&geometry, &decoded, &GeometryGlbOptions { armor: true })?;
//! assert!(glb.skipped.is_empty());
//! assert_eq!(glb.meshes, 2 + 1); // two draws and the armor model
//! assert_eq!(&glb.bytes[..4], b"glTF");
//! # Ok(())
//! # }
//! ```

use crate::bytes::u64_of;
use crate::error::{Error, Result};
use crate::export_error::ExportResult;
use crate::gltf::{Attribute, GlbBuilder, MaterialId, MeshId, NodeId, NodeSpec, Triangles};
use crate::wows::axes::{finite, rewound, right_handed, texcoord_top_left, unit_or};
use crate::wows::geometry::{
    Armor, DecodedGeometry, DrawData, GeometryView, Indices, ModelRecord, Vertices,
};

/// What [`add_draw`] made.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DrawMesh {
    /// The mesh.
    pub mesh: MeshId,
    /// The largest joint index its `JOINTS_0` uses (skinned formats): a node showing the mesh
    /// needs a skin of at least this many joints plus one.
    pub max_joint: Option<u8>,
}

/// The error of a draw or model that cannot become a mesh; `at` is the file offset of the record.
fn unfit(at: usize, what: &'static str, value: usize, reason: &'static str) -> Error {
    Error::invalid(u64_of(at), what, u64_of(value), reason)
}

/// Adds one draw to `builder` as a mesh of one triangle primitive named `name`: every attribute
/// its vertex format has, converted (see the module docs). `data` comes from
/// [`DecodedGeometry::draw_data`], which has checked that every index addresses a vertex.
pub fn add_draw(
    builder: &mut GlbBuilder,
    name: &str,
    data: &DrawData<'_>,
    material: Option<MaterialId>,
) -> Result<DrawMesh> {
    let (vertices, indices) = (&data.vertices, &data.indices);
    let format = vertices.format();
    if vertices.is_empty() || indices.len() < 3 {
        return Err(unfit(
            0,
            "glTF mesh",
            indices.len(),
            "a draw needs vertices and at least one triangle",
        ));
    }
    if format.position.is_none() {
        return Err(unfit(
            0,
            "glTF mesh (vertex format)",
            vertices.stride(),
            "the vertex format has no positions",
        ));
    }
    // The accessors in the order the GLB has always had them: positions, normals, tangents, UV
    // sets, joints and weights, indices.
    let mut attributes = Vec::new();
    let n = vertices.len();
    let position = builder.add_floats(n, true, |i| {
        right_handed(finite(vertices.position(i).unwrap_or_default()))
    });
    attributes.push((Attribute::Position, position));
    if format.normal.is_some() {
        let normal = builder.add_floats(n, false, |i| unit_normal(vertices, i));
        attributes.push((Attribute::Normal, normal));
        if format.tangent.is_some() && format.binormal.is_some() {
            let tangent = builder.add_floats(n, false, |i| tangent(vertices, i));
            attributes.push((Attribute::Tangent, tangent));
        }
    }
    for (set, uv) in [(0, format.uv0), (1, format.uv1)] {
        if uv.is_none() {
            continue;
        }
        let read = if set == 0 {
            Vertices::uv
        } else {
            Vertices::uv1
        };
        let accessor = builder.add_floats(n, false, |i| {
            texcoord_top_left(finite(read(vertices, i).unwrap_or_default()))
        });
        attributes.push((Attribute::TexCoord(set), accessor));
    }
    let mut max_joint = None;
    if format.bone_indices.is_some() && format.bone_weights.is_some() {
        let (joints, weights, max) = skinning(vertices);
        max_joint = Some(max);
        let joints = builder.add_joints(&joints);
        attributes.push((Attribute::Joints(0), joints));
        let weights = builder.add_floats(weights.len(), false, |i| {
            weights.get(i).copied().unwrap_or_default()
        });
        attributes.push((Attribute::Weights(0), weights));
    }
    let indices = builder.add_indices(&triangles(indices));
    let mesh = builder.add_mesh(
        name,
        vec![Triangles {
            attributes,
            indices: Some(indices),
            material,
            extras: None,
        }],
    );
    Ok(DrawMesh { mesh, max_joint })
}

/// The whole triangles of `indices`, rewound (see [`rewound`]).
fn triangles(indices: &Indices<'_>) -> Vec<u32> {
    // Gathered with one loop per representation.
    let whole = indices.len() / 3 * 3;
    let mut values: Vec<u32> = Vec::with_capacity(whole);
    match indices {
        Indices::U32(s) => values.extend_from_slice(s),
        Indices::U16(s) => values.extend(s.iter().map(|&v| u32::from(v))),
        Indices::Le16(s) => values.extend(s.iter().map(|v| u32::from(v.get()))),
        Indices::Le32(s) => values.extend(s.iter().map(|v| v.get())),
    }
    values.truncate(whole);
    for t in values.chunks_exact_mut(3) {
        // The second and third corners trade places, as `rewound` orders them.
        t.swap(1, 2);
    }
    values
}

/// Adds an armor model to `builder` as one mesh named `name` with a primitive per BVH node (a
/// triangle soup with normals); each primitive's extras carry the node's armor `material_id` and
/// `layer`.
pub fn add_armor(
    builder: &mut GlbBuilder,
    name: &str,
    model: &ModelRecord<'_>,
    armor: &Armor<'_>,
) -> Result<MeshId> {
    let mut primitives = Vec::new();
    for node in armor.nodes() {
        let node = node?;
        let mut positions = Vec::with_capacity(node.triangle_count() * 3);
        let mut normals = Vec::with_capacity(node.triangle_count() * 3);
        let corners = node.vertices();
        for triangle in corners.chunks_exact(3) {
            for v in rewound([&triangle[0], &triangle[1], &triangle[2]]) {
                positions.push(right_handed(v.position()));
                normals.push(unit_or(right_handed(v.normal()), [0.0, 1.0, 0.0]));
            }
        }
        if positions.is_empty() {
            continue;
        }
        let position = builder.add_floats(positions.len(), true, |i| {
            positions.get(i).copied().unwrap_or_default()
        });
        let normal = builder.add_floats(normals.len(), false, |i| {
            normals.get(i).copied().unwrap_or_default()
        });
        primitives.push(Triangles {
            attributes: vec![(Attribute::Position, position), (Attribute::Normal, normal)],
            indices: None,
            material: None,
            extras: Some(format!(
                "{{\"material_id\":{},\"layer\":{}}}",
                node.material_id(),
                node.layer_index()
            )),
        });
    }
    if primitives.is_empty() {
        return Err(unfit(
            model.offset(),
            "ArmorModelPrototype",
            0,
            "the armor model has no triangles",
        ));
    }
    Ok(builder.add_mesh(name, primitives))
}

/// The normal of vertex `i`, converted, at unit length.
// Inlined, as `GlbBuilder::add_floats` is: the accessor loop (in `gltf::builder`, another module)
// then compiles as it did when it was written here (without both, 4% more instructions a GLB).
#[inline]
fn unit_normal(vertices: &Vertices<'_>, i: usize) -> [f32; 3] {
    let up = [0.0, 1.0, 0.0];
    vertices
        .normal(i)
        .map_or(up, |n| unit_or(right_handed(n), up))
}

/// The glTF tangent of vertex `i`: the stored tangent (converted, unit length) and in `w` the
/// handedness that makes `cross(normal, tangent) * w` the stored binormal.
#[inline]
fn tangent(vertices: &Vertices<'_>, i: usize) -> [f32; 4] {
    let unit =
        |v: Option<[f32; 3]>, fallback| v.map_or(fallback, |v| unit_or(right_handed(v), fallback));
    let n = unit_normal(vertices, i);
    let t = unit(vertices.tangent(i), [1.0, 0.0, 0.0]);
    let b = unit(vertices.binormal(i), [0.0, 0.0, 1.0]);
    let cross = [
        n[1] * t[2] - n[2] * t[1],
        n[2] * t[0] - n[0] * t[2],
        n[0] * t[1] - n[1] * t[0],
    ];
    let dot: f32 = (0..3).map(|k| cross[k] * b[k]).sum();
    [t[0], t[1], t[2], if dot < 0.0 { -1.0 } else { 1.0 }]
}

/// `JOINTS_0` bytes and `WEIGHTS_0` values for every vertex, and the largest joint used: the
/// stored bones ([`Vertices::bone_indices`]) are the joints and their weights
/// ([`Vertices::bone_weights`]) the weights, in that order, with a fourth of weight 0. A joint
/// named twice gets the weights together (glTF forbids a joint twice with weight), the weights are
/// scaled to sum to 1, and a joint left with weight 0 is written as joint 0, as glTF asks of an
/// unused joint (a rigid vertex stores its one bone three times, or weights of 0 for the others).
fn skinning(vertices: &Vertices<'_>) -> (Vec<[u8; 4]>, Vec<[f32; 4]>, u8) {
    let mut joints = Vec::with_capacity(vertices.len());
    let mut weights = Vec::with_capacity(vertices.len());
    let mut max = 0;
    for i in 0..vertices.len() {
        let mut j = vertices.bone_indices(i).unwrap_or([0; 3]);
        let mut w = vertices.bone_weights(i).unwrap_or([1.0, 0.0, 0.0]);
        for a in 0..3 {
            for b in a + 1..3 {
                if j[a] == j[b] {
                    w[a] += w[b];
                    w[b] = 0.0;
                }
            }
        }
        let sum: f32 = w.iter().sum();
        if sum > 0.0 {
            w = w.map(|c| c / sum);
        } else {
            w = [1.0, 0.0, 0.0];
        }
        for (joint, &weight) in j.iter_mut().zip(&w) {
            if weight > 0.0 {
                max = max.max(*joint);
            } else {
                *joint = 0;
            }
        }
        joints.push([j[0], j[1], j[2], 0]);
        weights.push([w[0], w[1], w[2], 0.0]);
    }
    (joints, weights, max)
}

/// What [`geometry_to_glb`] includes.
#[derive(Debug, Clone, Copy, Default)]
pub struct GeometryGlbOptions {
    /// The armor models too, as extra meshes.
    pub armor: bool,
}

/// A part of a `.geometry` that [`geometry_to_glb`] would have exported: a draw, named by its
/// two mapping ids, or an armor model, named by its position in the file's armor table and by
/// its name when the name reads.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GeometryPart {
    /// A draw: an index mapping paired with a vertex mapping.
    Draw {
        /// The draw's vertex mapping id.
        vertices_id: u32,
        /// The draw's index mapping id.
        indices_id: u32,
    },
    /// An armor model (exported with [`GeometryGlbOptions::armor`]).
    Armor {
        /// Its position in the file's table of armor models.
        index: usize,
        /// Its name, `None` when the name itself could not be read.
        name: Option<String>,
    },
}

impl core::fmt::Display for GeometryPart {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            GeometryPart::Draw {
                vertices_id,
                indices_id,
            } => write!(f, "draw {vertices_id:#010x} + {indices_id:#010x}"),
            GeometryPart::Armor {
                index,
                name: Some(name),
            } => write!(f, "armor model {index} ({name:?})"),
            GeometryPart::Armor { index, name: None } => {
                write!(f, "armor model {index} (name unreadable)")
            }
        }
    }
}

/// A part [`geometry_to_glb`] left out, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SkippedPart {
    /// What was left out.
    pub part: GeometryPart,
    /// Why it could not be exported.
    pub error: Error,
}

/// One `.geometry` as a GLB.
#[derive(Debug, Clone)]
pub struct GeometryGlb {
    /// The file.
    pub bytes: Vec<u8>,
    /// Meshes written (draws, then armor models).
    pub meshes: usize,
    /// Draws and armor models that could not be exported, in the order they were tried.
    pub skipped: Vec<SkippedPart>,
}

/// Exports every sound draw of a decoded `.geometry` as a mesh on its own node, named
/// `<vertex mapping id>_<index mapping id>` in hex, in one scene; skinned draws get a skin over
/// joint nodes `joint_0` … under one root node `joints` (identity transforms: the geometry has no
/// skeleton of its own; joint `k` is the bone a vertex stores as index `k`). Draws
/// that cannot be exported (an index beyond their vertices, a buffer that did not decode) and
/// armor models that do not read are listed in [`GeometryGlb::skipped`] and the others still
/// exported: the bytes are then a partial result, which a caller should not pass off as the
/// whole file.
pub fn geometry_to_glb(
    view: &GeometryView<'_>,
    decoded: &DecodedGeometry,
    options: &GeometryGlbOptions,
) -> ExportResult<GeometryGlb> {
    let mut builder = GlbBuilder::new();
    // Room for the converted attributes (under twice the stored vertex bytes for the formats seen)
    // and indices, so that the binary buffer is not regrown and copied on the way; sized by what
    // was decoded, never by a count the file claims.
    let vertex_bytes: usize = (0..view.vertex_buffer_count())
        .filter_map(|b| decoded.vertex_buffer(b)?.ok())
        .map(|v| v.bytes().len())
        .sum();
    let indices: usize = (0..view.index_buffer_count())
        .filter_map(|b| decoded.index_buffer(b)?.ok())
        .map(|i| i.len())
        .sum();
    builder.reserve(
        vertex_bytes
            .saturating_mul(2)
            .saturating_add(indices.saturating_mul(4)),
    );
    let scene = builder.add_scene("geometry");
    let mut skipped = Vec::new();
    let mut skinned = Vec::new();
    let mut max_joint = 0;
    for draw in decoded.draws(view) {
        let (vertices_id, indices_id) = (draw.vertices.id(), draw.indices.id());
        let name = format!("{vertices_id:08x}_{indices_id:08x}");
        let mesh = decoded
            .draw_data(&draw)
            .and_then(|data| add_draw(&mut builder, &name, &data, None));
        match mesh {
            Ok(mesh) => {
                let node = builder.add_node(&NodeSpec {
                    name: Some(&name),
                    mesh: Some(mesh.mesh),
                    ..Default::default()
                });
                builder.add_to_scene(scene, node);
                if let Some(max) = mesh.max_joint {
                    max_joint = max_joint.max(max);
                    skinned.push(node);
                }
            }
            Err(error) => skipped.push(SkippedPart {
                part: GeometryPart::Draw {
                    vertices_id,
                    indices_id,
                },
                error,
            }),
        }
    }
    if !skinned.is_empty() {
        // The joints hang under one root node: glTF wants a skin's joints to share a root, and
        // the geometry names no skeleton that could give them one.
        let skeleton = builder.add_node(&NodeSpec {
            name: Some("joints"),
            ..Default::default()
        });
        builder.add_to_scene(scene, skeleton);
        let joints: Vec<NodeId> = (0..=max_joint)
            .map(|k| {
                let name = format!("joint_{k}");
                let joint = builder.add_node(&NodeSpec {
                    name: Some(&name),
                    ..Default::default()
                });
                builder.add_child(skeleton, joint);
                joint
            })
            .collect();
        let skin = builder.add_skin("geometry", &joints);
        for node in skinned {
            builder.set_skin(node, skin);
        }
    }
    if options.armor {
        for (index, model) in view.armor_models().enumerate() {
            let mesh = model.name().and_then(|name| {
                let armor = model.armor()?;
                add_armor(&mut builder, name, &model, &armor).map(|m| (name, m))
            });
            match mesh {
                Ok((name, mesh)) => {
                    let node = builder.add_node(&NodeSpec {
                        name: Some(name),
                        mesh: Some(mesh),
                        ..Default::default()
                    });
                    builder.add_to_scene(scene, node);
                }
                Err(error) => skipped.push(SkippedPart {
                    part: GeometryPart::Armor {
                        index,
                        name: model.name().ok().map(str::to_owned),
                    },
                    error,
                }),
            }
        }
    }
    let meshes = builder.mesh_count();
    Ok(GeometryGlb {
        bytes: builder.finish()?,
        meshes,
        skipped,
    })
}

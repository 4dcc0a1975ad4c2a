//! glTF 2.0 binary (GLB) building, written with the `gltf-json` crate (feature `gltf`): the one
//! [`GlbBuilder`] every exporter fills — the `.geometry` export
//! (`wows::geometry::export::gltf`), the `assets.bin` model export (`wows::resolve::gltf`) and the
//! export of a model's BigWorld XML sources (`wows::sources::gltf`).
//!
//! The builder knows glTF, not the formats: it takes values already in glTF's meaning and space
//! (right-handed, Y up; texture coordinates with the top-left origin; unit normals; matrices
//! column-major) and lays them out as accessors, meshes, nodes, skins, materials, textures and
//! scenes in one JSON chunk and one binary buffer. Each exporter converts its own format's data
//! before handing it over.
//!
//! ```
//! # fn main() -> Result<(), gamebin::ExportError> {
//! use gamebin::gltf::{Attribute, GlbBuilder, NodeSpec, Triangles};
//!
//! let corners = [[0.0f32, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]];
//! let mut builder = GlbBuilder::new();
//! let positions = builder.add_floats(corners.len(), true, |i| corners[i]);
//! let indices = builder.add_indices(&[0, 1, 2]);
//! let mesh = builder.add_mesh(
//!     "triangle",
//!     vec![Triangles {
//!         attributes: vec![(Attribute::Position, positions)],
//!         indices: Some(indices),
//!         ..Default::default()
//!     }],
//! );
//! let scene = builder.add_scene("scene");
//! let node = builder.add_node(&NodeSpec {
//!     name: Some("triangle"),
//!     mesh: Some(mesh),
//!     ..Default::default()
//! });
//! builder.add_to_scene(scene, node);
//! let glb = builder.finish()?;
//! assert_eq!(&glb[..4], b"glTF");
//! # Ok(())
//! # }
//! ```

mod builder;

pub use builder::{
    AccessorId, Attribute, GlbBuilder, HierarchyNode, JointOutOfRange, MaterialId, MeshId, NodeId,
    NodeSpec, PbrMaterial, SceneId, SkinId, TextureId, Triangles,
};

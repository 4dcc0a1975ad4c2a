//! The owned `.geometry`: [`GeometryModel`], the model of a file (from a view, serde with the
//! `serde` feature). Its writer is in `geometry::write` and re-exported here: the model's
//! [`to_bytes`](GeometryModel::to_bytes), and [`GeometryBuilder`], which makes a model from
//! meshes — merged vertex and index buffers (raw or ENCD), mappings with hashed ids, collision and
//! armor models ([`armor_payload`]) — and writes it through the model, laid out the way the game's
//! files are.
//!
//! ```
//! use gamebin::wows::geometry::model::{GeometryBuilder, MeshVertex};
//! use gamebin::wows::geometry::GeometryView;
//!
//! let mut builder = GeometryBuilder::new();
//! let vb = builder.vertex_buffer("set3/xyznuvtbpc", true);
//! let ib = builder.index_buffer(2, true);
//! let triangle = [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]].map(MeshVertex::at);
//! builder.mesh("Triangle", vb, ib, 17000, &triangle, &[0, 1, 2]).unwrap();
//! let bytes = builder.to_bytes().unwrap();
//!
//! let view = GeometryView::from_bytes(&bytes).unwrap();
//! assert!(view.vertex_buffer(0).unwrap().is_encoded().unwrap());
//! assert_eq!(view.draw_by_name("Triangle").unwrap().indices.items_count(), 3);
//! ```

mod file;

pub use super::write::{
    ArmorNodeSpec, GeometryBuilder, MeshIds, MeshVertex, armor_payload, f32_to_f16, pack_unit,
    pack_vertex,
};
pub use file::{
    GeometryModel, IndexBufferSpec, MAX_BLOB_PADDING, MappingSpec, ModelPrototypeSpec,
    PADDING_BYTE, VertexBufferSpec,
};

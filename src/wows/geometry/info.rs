//! `.geometry` as one of [`AnyView`](crate::AnyView)'s formats: its [`View`] implementation and
//! the summary `gamebin info` prints.

use core::fmt;

use super::GeometryView;
use crate::view::{View, count};

/// What `gamebin info` shows of a `.geometry`: its tables' lengths and what its buffers hold.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct GeometryInfo {
    /// Vertex buffers (VerticesPrototype).
    pub vertex_buffers: usize,
    /// Index buffers (IndicesPrototype).
    pub index_buffers: usize,
    /// Vertex mappings (draws' vertex ranges).
    pub vertex_mappings: usize,
    /// Index mappings (draws' index ranges).
    pub index_mappings: usize,
    /// Collision models.
    pub collision_models: usize,
    /// Armor models.
    pub armor_models: usize,
    /// Buffers stored meshoptimizer-encoded (ENCD), vertex and index.
    pub encoded_buffers: usize,
    /// Vertices over every vertex buffer.
    pub vertices: u64,
    /// Indices over every index buffer.
    pub indices: u64,
}

impl fmt::Display for GeometryInfo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}, {} and {} ({} encoded), {}, {}, {} + {} mappings, {}, {}",
            <GeometryView<'_> as View<'_>>::NAME,
            count(self.vertex_buffers, "vertex buffer", "vertex buffers"),
            count(self.index_buffers, "index buffer", "index buffers"),
            self.encoded_buffers,
            count(self.vertices, "vertex", "vertices"),
            count(self.indices, "index", "indices"),
            self.vertex_mappings,
            self.index_mappings,
            count(self.collision_models, "collision model", "collision models"),
            count(self.armor_models, "armor model", "armor models"),
        )
    }
}

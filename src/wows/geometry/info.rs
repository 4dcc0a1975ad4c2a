//! `.geometry` as one of [`AnyView`](crate::AnyView)'s formats: its [`View`] implementation and
//! the summary `gamebin info` prints.

use core::fmt;

use super::GeometryView;
use crate::Format;
use crate::any::{CheckReport, Problem, Scratch, View, ViewError, count};
use crate::error::Result;

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
            Format::WowsGeometry,
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

impl<'a> View<'a> for GeometryView<'a> {
    const FORMAT: Format = Format::WowsGeometry;
    type Summary = GeometryInfo;
    #[cfg(feature = "write")]
    type Model = crate::wows::geometry::model::GeometryModel;

    fn looks_like(data: &[u8]) -> bool {
        super::looks_like(data)
    }

    fn open(data: &'a [u8], _: &'a mut Scratch) -> Result<Self> {
        GeometryView::from_bytes(data)
    }

    /// [`GeometryView::check`]: every buffer decoded, every draw paired and read.
    fn check(&self) -> CheckReport {
        match GeometryView::check(self) {
            Ok(found) => CheckReport {
                errors: found.errors.into_iter().map(Problem::Geometry).collect(),
                warnings: found.warnings.into_iter().map(Problem::Geometry).collect(),
            },
            Err(e) => CheckReport::of_walk(Err(e)),
        }
    }

    fn summary(&self) -> Result<GeometryInfo, ViewError> {
        let mut encoded_buffers = 0;
        let mut vertices = 0u64;
        for vb in self.vertex_buffers() {
            encoded_buffers += usize::from(vb.is_encoded()?);
            vertices += vb.vertex_count()? as u64;
        }
        let mut indices = 0u64;
        for ib in self.index_buffers() {
            encoded_buffers += usize::from(ib.is_encoded()?);
            indices += ib.index_count()? as u64;
        }
        Ok(GeometryInfo {
            vertex_buffers: self.vertex_buffer_count(),
            index_buffers: self.index_buffer_count(),
            vertex_mappings: self.vertex_mappings().len(),
            index_mappings: self.index_mappings().len(),
            collision_models: self.collision_models().len(),
            armor_models: self.armor_models().len(),
            encoded_buffers,
            vertices,
            indices,
        })
    }

    #[cfg(feature = "write")]
    fn to_model(&self) -> Result<Self::Model, ViewError> {
        Ok(crate::wows::geometry::model::GeometryModel::from_view(
            self,
        )?)
    }

    #[cfg(all(feature = "write", feature = "serde"))]
    fn diff(&self, other: &Self) -> Result<crate::diff::Report, ViewError> {
        Ok(crate::wows::geometry::diff::files(self, other)?)
    }
}

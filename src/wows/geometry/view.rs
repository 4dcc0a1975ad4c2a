//! The `wows-geometry` format as one of [`AnyView`](crate::AnyView)'s formats: its [`View`]
//! implementation, with the format's facts (its name, the names its files go by).

use super::{GeometryFinding, GeometryInfo, GeometryView};
use crate::error::Result;
use crate::view::{self, CheckReport, NameHint, Scratch, View, ViewError};

impl<'a> View<'a> for GeometryView<'a> {
    const NAME: &'static str = "wows-geometry";
    type Summary = GeometryInfo;
    #[cfg(feature = "write")]
    type Model = crate::wows::geometry::model::GeometryModel;

    fn looks_like(data: &[u8]) -> bool {
        super::looks_like(data)
    }

    /// A `.geometry` has no magic number: a damaged one is known by its extension.
    const NAMED: Option<NameHint> = Some(NameHint {
        extensions: &["geometry"],
        name: ".geometry",
        unreadable: "named .geometry but does not read as one",
    });

    /// No magic number: a reader failing past the fixed header has read it whole, with its
    /// tables' pointers inside the data.
    const NAMELESS_EVIDENCE: Option<u64> = Some(size_of::<super::raw::Header>() as u64);

    fn from_bytes_in(data: &'a [u8], _: &'a mut Scratch) -> Result<Self> {
        GeometryView::from_bytes(data)
    }

    /// [`GeometryView::check`]: every buffer decoded, every draw paired and read.
    fn check(&self) -> CheckReport {
        match GeometryView::check(self) {
            Ok(found) => CheckReport {
                errors: found.errors.iter().map(finding).collect(),
                warnings: found.warnings.iter().map(finding).collect(),
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

/// A `.geometry` finding as every format's: where in the file's tables, and at which offset.
fn finding(found: &GeometryFinding) -> view::Finding {
    let (path, offset) = match found {
        GeometryFinding::SwappedIndexSize { buffer, offset } => {
            (format!("index_buffers[{buffer}]"), Some(*offset as u64))
        }
        GeometryFinding::DrawUnreadable {
            vertices_id,
            indices_id,
            error,
        } => (
            format!("draws[{vertices_id:#010x}+{indices_id:#010x}]"),
            Some(error.offset()),
        ),
        GeometryFinding::Pairing {
            index_mapping_id, ..
        } => (format!("index_mappings[{index_mapping_id:#010x}]"), None),
        GeometryFinding::UnpairedVertexMapping { id } => {
            (format!("vertex_mappings[{id:#010x}]"), None)
        }
        GeometryFinding::NonFiniteAttribute {
            vertices_id,
            indices_id,
            ..
        } => (
            format!("draws[{vertices_id:#010x}+{indices_id:#010x}]"),
            None,
        ),
    };
    view::Finding::new(path, offset, found)
}

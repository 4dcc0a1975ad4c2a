//! A draw: an index mapping paired with the vertex mapping its indices address.

use super::attributes::Vertices;
use super::indices::Indices;
use super::mapping::Mapping;

/// How a draw's two mappings were matched, from the strongest evidence to the weakest.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Pairing {
    /// Both ids are hashes of a mesh name the caller gave
    /// ([`GeometryView::draw_by_name`](super::GeometryView::draw_by_name)).
    ByName,
    /// The caller gave both mapping ids, e.g. from an assets.bin render set
    /// ([`GeometryView::draw_by_ids`](super::GeometryView::draw_by_ids)).
    ById,
    /// The one vertex mapping and the one index mapping with this non-zero packed texel density
    /// (files since 0.11 store the same density on both mappings of a draw).
    ByTexelDensity,
    /// The index data decide: the vertex mapping is the one whose vertex count fits the
    /// largest index (indices are local to the vertex range), exactly or as the only candidate.
    /// Where several index mappings with identical indices fit as many vertex mappings of the
    /// same count, the meshes are the same whichever way they pair; they pair in table order, and
    /// a [`PairingNote`](super::PairingNote) says so.
    ByIndexRange,
    /// Table order decided among candidates the data could not tell apart; a
    /// [`PairingNote`](super::PairingNote) names them.
    ByPosition,
}

impl Pairing {
    /// A short name for reports (`"index-range"`, …).
    pub const fn name(self) -> &'static str {
        match self {
            Pairing::ByName => "name",
            Pairing::ById => "id",
            Pairing::ByTexelDensity => "texel-density",
            Pairing::ByIndexRange => "index-range",
            Pairing::ByPosition => "position",
        }
    }
}

/// A vertex mapping and its index mapping. Index values in the draw's range are local to its vertex
/// range: index `k` means vertex `vertices.items_offset() + k` of the merged buffer.
#[derive(Debug, Clone, Copy)]
pub struct Draw<'a> {
    /// The vertex mapping.
    pub vertices: Mapping<'a>,
    /// The index mapping.
    pub indices: Mapping<'a>,
    /// How the two were matched.
    pub pairing: Pairing,
}

impl<'a> Draw<'a> {
    /// This draw's vertices within the merged vertex buffer's vertices (raw or decoded), or `None`
    /// if the mapping's range is not inside them.
    pub fn vertices_in<'b>(&self, merged: &Vertices<'b>) -> Option<Vertices<'b>> {
        merged.range(self.vertices.items_offset(), self.vertices.items_count())
    }

    /// This draw's indices within the merged index buffer's indices (raw or decoded), or `None` if
    /// the mapping's range is not inside them.
    pub fn indices_in<'b>(&self, merged: &Indices<'b>) -> Option<Indices<'b>> {
        merged.range(self.indices.items_offset(), self.indices.items_count())
    }
}

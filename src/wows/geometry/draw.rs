//! A draw: a vertex mapping paired with its index mapping.
//!
//! The two mapping ids of one mesh hash the same name with different suffixes, so without the name
//! they cannot be matched by id. The files give two other facts: the pair carries the same packed
//! texel density (non-zero since 0.11), and older files list the pairs in the same order in both
//! tables. Pairing uses the name when the caller has it, then a texel density that is unique on
//! both sides, then equal positions with equal densities; anything else stays unpaired.

use super::attributes::Vertices;
use super::indices::Indices;
use super::mapping::{Mapping, Mappings};

/// How a draw's two mappings were matched.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pairing {
    /// Both ids are hashes of the name the caller gave.
    ByName,
    /// The texel density is unique among the vertex mappings and matches one index mapping.
    ByTexelDensity,
    /// Same position in both tables, same texel density.
    ByPosition,
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

/// The index mapping that pairs with vertex mapping `vm`, if one can be told.
pub(crate) fn pair<'a>(
    vm: Mapping<'a>,
    vertex: Mappings<'a>,
    index: Mappings<'a>,
) -> Option<Draw<'a>> {
    let density = vm.texel_density();
    if density != 0
        && vertex
            .iter()
            .filter(|m| m.texel_density() == density)
            .count()
            == 1
    {
        let mut same = index.iter().filter(|m| m.texel_density() == density);
        if let (Some(im), None) = (same.next(), same.next()) {
            return Some(Draw {
                vertices: vm,
                indices: im,
                pairing: Pairing::ByTexelDensity,
            });
        }
    }
    if vertex.len() == index.len() {
        let im = index.get(vm.position())?;
        if im.texel_density() == density {
            return Some(Draw {
                vertices: vm,
                indices: im,
                pairing: Pairing::ByPosition,
            });
        }
    }
    None
}

//! Mappings: named slices of the merged buffers, and how a draw pairs a vertex mapping with its
//! index mapping.

use super::raw::MappingEntry;
use crate::bytes::{Located, Table};
use crate::hash::Murmur3;

/// Why a mapping is refused when its `mergedBufferIndex` names no buffer of its kind.
pub(crate) const NO_MERGED_BUFFER: &str = "no merged buffer with this index";

/// Why a mapping is refused when [`range_fits`] says no.
pub(crate) const RANGE_PAST_BUFFER: &str = "mapping range runs past its merged buffer";

/// Why an index mapping is refused when [`whole_triangles`] says no.
pub(crate) const NOT_WHOLE_TRIANGLES: &str = "the index range is not a whole number of triangles";

/// Whether a mapping's `items_count` items from `items_offset` lie within a merged buffer of
/// `items` items. The reader's rule, which the writer applies too.
#[inline]
pub(crate) fn range_fits(items_offset: usize, items_count: usize, items: usize) -> bool {
    items_offset
        .checked_add(items_count)
        .is_some_and(|end| end <= items)
}

/// Whether an index range of `count` indices is whole triangles (the draws are triangle lists).
#[inline]
pub(crate) const fn whole_triangles(count: usize) -> bool {
    count.is_multiple_of(3)
}

/// Which table a mapping belongs to; also the suffix its id hashes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MappingKind {
    /// A vertex mapping, id = MurmurHash3(`"<name>.vertices"`).
    Vertices,
    /// An index mapping, id = MurmurHash3(`"<name>.indices"`).
    Indices,
}

impl MappingKind {
    /// The suffix the mapping id's name carries.
    pub const fn suffix(self) -> &'static str {
        match self {
            MappingKind::Vertices => ".vertices",
            MappingKind::Indices => ".indices",
        }
    }

    /// The mapping id of a mesh named `name` (e.g. `"Propeller_meshShape"`): MurmurHash3_x86_32,
    /// seed 0, of the name and this kind's suffix, computed without building the string.
    pub fn id_of(self, name: &str) -> u32 {
        Murmur3::new(0)
            .update(name.as_bytes())
            .update(self.suffix().as_bytes())
            .finish()
    }
}

/// One MappingEntry, borrowed. `Copy`.
#[derive(Debug, Clone, Copy)]
pub struct Mapping<'a> {
    /// The record and its absolute file offset.
    pub(crate) raw: Located<'a, MappingEntry>,
    pub(crate) kind: MappingKind,
    /// Index in its table.
    pub(crate) index: usize,
}

impl<'a> Mapping<'a> {
    /// The stored record.
    pub fn raw(&self) -> &'a MappingEntry {
        self.raw.get()
    }

    /// Vertex or index mapping.
    pub fn kind(&self) -> MappingKind {
        self.kind
    }

    /// Index in its mapping table (as [`Mappings::get`] takes it).
    pub fn index(&self) -> usize {
        self.index
    }

    /// Absolute file offset of the MappingEntry.
    pub fn offset(&self) -> usize {
        self.raw.offset()
    }

    /// The mapping id (a hash of the mesh name and the kind's suffix).
    pub fn id(&self) -> u32 {
        self.raw.mapping_id.get()
    }

    /// Which merged buffer (VerticesPrototype or IndicesPrototype) it slices.
    pub fn buffer_index(&self) -> usize {
        usize::from(self.raw.merged_buffer_index.get())
    }

    /// The packed texel density: 0 in older files; equal for the two mappings of one draw.
    pub fn texel_density(&self) -> u16 {
        self.raw.packed_texel_density.get()
    }

    /// First item (vertex or index) in the merged buffer.
    pub fn items_offset(&self) -> usize {
        self.raw.items_offset.get() as usize
    }

    /// Number of items.
    pub fn items_count(&self) -> usize {
        self.raw.items_count.get() as usize
    }
}

/// A borrowed mapping table with lookups. `Copy`.
#[derive(Debug, Clone, Copy)]
pub struct Mappings<'a> {
    /// The records and where the first one starts.
    pub(crate) table: Table<'a, MappingEntry>,
    pub(crate) kind: MappingKind,
}

impl<'a> Mappings<'a> {
    /// Number of mappings.
    pub fn len(&self) -> usize {
        self.table.len()
    }

    /// Whether the table is empty.
    pub fn is_empty(&self) -> bool {
        self.table.is_empty()
    }

    /// The raw table.
    pub fn raw(&self) -> &'a [MappingEntry] {
        self.table.records()
    }

    /// Mapping `i`.
    pub fn get(&self, i: usize) -> Option<Mapping<'a>> {
        self.table.get(i).map(|raw| Mapping {
            raw,
            kind: self.kind,
            index: i,
        })
    }

    /// All mappings in table order.
    pub fn iter(self) -> impl ExactSizeIterator<Item = Mapping<'a>> + 'a {
        let kind = self.kind;
        self.table
            .iter_indexed()
            .map(move |(index, raw)| Mapping { raw, kind, index })
    }

    /// The mapping with this id (a linear scan: tables hold a handful to a few hundred entries and
    /// carry no hash index of their own).
    pub fn by_id(&self, id: u32) -> Option<Mapping<'a>> {
        // Over the plain records, four at a time: the scan is the whole cost of a lookup, and
        // comparing four ids into one mask before branching takes one branch per four records
        // where a record-by-record scan takes two per record. Fewer branches also make the loop's
        // speed depend less on where it happens to land in the binary.
        let records = self.table.records();
        let is_id = |r: &MappingEntry| r.mapping_id.get() == id;
        if records.len() < 4 {
            // No group of four to skip: the plain scan, without the groups' set-up.
            return self.get(records.iter().position(is_id)?);
        }
        let mut quads = records.chunks_exact(4);
        let mut first = 0;
        for quad in &mut quads {
            let hits = quad
                .iter()
                .enumerate()
                .fold(0u32, |hits, (i, r)| hits | (u32::from(is_id(r)) << i));
            if hits != 0 {
                return self.get(first + hits.trailing_zeros() as usize);
            }
            first += 4;
        }
        self.get(first + quads.remainder().iter().position(is_id)?)
    }

    /// The mapping of the mesh named `name` (its id is the hash of `name` + this table's suffix).
    pub fn by_name(&self, name: &str) -> Option<Mapping<'a>> {
        self.by_id(self.kind.id_of(name))
    }
}

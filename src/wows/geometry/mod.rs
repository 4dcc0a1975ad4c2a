//! World of Warships `.geometry` (MergedGeometryPrototype): merged vertex and index buffers, the
//! mappings that slice them into meshes, and collision and armor models.
//!
//! Where its parts are: [`raw`] the on-disk structs; this file the view ([`GeometryView`]) and the
//! reader beside it (buffers, mappings, draws and their pairing, armor); `model` the owned file
//! (`model::GeometryModel`, feature `write`); `write` its writer (`to_bytes`, the builder from
//! meshes, armor payloads; feature `write`, re-exported by `model`); [`export`]
//! GLB and OBJ; `diff` the comparison by buffer, mapping and draw; the fixtures in
//! `synth::geometry`.
//!
//! [`GeometryView::from_bytes`] reads the 72-byte header and checks that the six tables lie inside
//! the file; nothing else is read until asked for. Blobs are borrowed; ENCD (meshoptimizer) blobs
//! are decoded into buffers the caller owns, the only copy.
//!
//! # Format notes
//!
//! - Normals, tangents and binormals are offset-binary bytes read as `(byte − 127) / 127`: the raw
//!   samples store exact axis vectors that way (`7f 7f 00` = (0, 0, −1)).
//! - Vertex format names are parsed into attribute offsets; the stride stored in the file wins, and
//!   a name with unknown letters still reads as opaque records.
//! - A draw pairs a vertex mapping with its index mapping by name (both ids hash it), else by a
//!   texel density unique to the pair, else by equal positions in the two tables ([`Pairing`]).
//!
//!
//! ```
//! # #[cfg(feature = "write")]
//! # fn main() -> Result<(), gamebin::Error> {
//! # let file = gamebin::synth::geometry::example_file();
//! use gamebin::wows::geometry::GeometryView;
//!
//! let geometry = GeometryView::from_bytes(&file)?;
//! let buffer = geometry.vertex_buffer(0).expect("one vertex buffer");
//! assert_eq!(buffer.format_name()?, "set3/xyznuvtbpc");
//!
//! // Decode (ENCD) or copy (raw) the merged vertices into a buffer we own.
//! let mut decoded = vec![0u8; buffer.decoded_len()?];
//! buffer.decode_vertices_into(&mut decoded)?;
//! let vertices = gamebin::wows::geometry::Vertices::new(&decoded, buffer.stride(), buffer.format()?)
//!     .expect("whole records");
//!
//! // Find a mesh by name and read its positions.
//! let draw = geometry.draw_by_name("Cube").expect("a mesh named Cube");
//! let cube = draw.vertices_in(&vertices).expect("range inside the buffer");
//! assert_eq!(cube.positions().count(), 24);
//! # Ok(())
//! # }
//! # #[cfg(not(feature = "write"))]
//! # fn main() {}
//! ```

mod armor;
mod attributes;
mod blob;
mod check;
mod decoded;
#[cfg(all(feature = "write", feature = "serde"))]
pub mod diff;
mod draw;
mod encd;
pub mod export;
mod indices;
mod info;
mod mapping;
#[cfg(feature = "write")]
pub mod model;
mod model_prototype;
mod packed_string;
mod pairing;
pub mod raw;
mod summary;
mod vertex_format;
mod vertices;
mod view;
#[cfg(feature = "write")]
mod write;

pub use armor::{Armor, ArmorNode, ArmorNodes, Bounds};
pub use attributes::{AttributeLayout, FloatAttribute, NonFinite, Vertices};
pub use check::{GeometryCheck, GeometryFinding};
pub use decoded::{DecodedGeometry, DrawData};
pub use draw::{Draw, Pairing};
#[cfg(feature = "write")]
pub(crate) use encd::encode;
pub use encd::{ENCD_HEADER_SIZE, Encd, IndexInt, MAX_VERTEX_EXPANSION};
pub use indices::{IndexBuffer, Indices};
pub use info::GeometryInfo;
pub use mapping::{Mapping, MappingKind, Mappings};
pub use model_prototype::{ModelKind, ModelRecord};
pub use pairing::{DrawTable, PairingDoubt, PairingNote};
pub use summary::{
    Aabb, ArmorNodeSummary, DrawSummary, GeometrySummary, IndexBufferSummary, MappingSummary,
    ModelSummary, PairingNoteSummary, SWAPPED_INDEX_SIZE, VertexBufferSummary,
};
pub use vertex_format::{VertexFormat, f16_to_f32, unpack_unit};
pub use vertices::VertexBuffer;

use crate::bytes::{Bytes, Table, u64_of};
use crate::error::{Error, Result};
use crate::mmap::MappedFile;
use raw::{Header, IndicesPrototype, MappingEntry, ModelPrototype, VerticesPrototype};

/// A `.geometry` file, borrowed. `Copy`, `Send`, `Sync`; everything it hands out lives as long as
/// the file's bytes (`'a`), not as long as the view.
#[derive(Debug, Clone, Copy)]
pub struct GeometryView<'a> {
    bytes: Bytes<'a>,
    header: &'a Header,
    vertex_mappings: Table<'a, MappingEntry>,
    index_mappings: Table<'a, MappingEntry>,
    vertex_buffers: Table<'a, VerticesPrototype>,
    index_buffers: Table<'a, IndicesPrototype>,
    collision_models: Table<'a, ModelPrototype>,
    armor_models: Table<'a, ModelPrototype>,
}

impl<'a> GeometryView<'a> {
    /// Opens a `.geometry` held in memory: reads the header and checks that each table lies inside
    /// the file. O(1), no allocation.
    ///
    /// ```
    /// # #[cfg(feature = "write")]
    /// # fn main() -> Result<(), gamebin::Error> {
    /// # let file = gamebin::synth::geometry::example_file();
    /// use gamebin::wows::geometry::GeometryView;
    ///
    /// let geometry = GeometryView::from_bytes(&file)?; // header and tables only
    /// for buffer in geometry.vertex_buffers() {
    ///     // The format name, stride and whether the blob is meshoptimizer-encoded, read in place.
    ///     println!("{} ({} B/vertex, ENCD: {})", buffer.format_name()?, buffer.stride(), buffer.is_encoded()?);
    /// }
    /// // Draws pair a vertex mapping with an index mapping; how each pair was found is kept.
    /// for draw in geometry.draws().iter() {
    ///     println!("{:#010x} + {:#010x}: {:?}", draw.vertices.id(), draw.indices.id(), draw.pairing);
    /// }
    /// // A raw buffer decodes into a caller's Vec with one copy (ENCD ones through meshoptimizer).
    /// let mut vertices = Vec::new();
    /// let count = geometry.vertex_buffers().next().expect("a buffer").decode_vertices_into_vec(&mut vertices)?;
    /// assert_eq!(vertices.len(), count * geometry.vertex_buffers().next().unwrap().stride());
    /// # Ok(())
    /// # }
    /// # #[cfg(not(feature = "write"))]
    /// # fn main() {}
    /// ```
    pub fn from_bytes(data: &'a [u8]) -> Result<Self> {
        let bytes = Bytes::new(data);
        let header: &Header = bytes.read(0, "MergedGeometryPrototype.header")?;
        // Table pointers count from the file's start; an empty table's pointer is null in real
        // files and is never followed. Each table is named by its header fields (the pointer's
        // place for errors, the pointer, the count) and by its name in the format.
        macro_rules! table {
            ($pointer:ident, $count:ident, $name:literal) => {
                Table::at_pointer(
                    bytes,
                    core::mem::offset_of!(Header, $pointer),
                    0,
                    header.$pointer.get(),
                    header.$count.get() as usize,
                    concat!("MergedGeometryPrototype.", $name),
                )
            };
        }
        Ok(GeometryView {
            bytes,
            header,
            vertex_mappings: table!(
                vertices_mapping_ptr,
                vertices_mapping_count,
                "verticesMapping"
            )?,
            index_mappings: table!(indices_mapping_ptr, indices_mapping_count, "indicesMapping")?,
            vertex_buffers: table!(merged_vertices_ptr, merged_vertices_count, "mergedVertices")?,
            index_buffers: table!(merged_indices_ptr, merged_indices_count, "mergedIndices")?,
            collision_models: table!(
                collision_models_ptr,
                collision_model_count,
                "collisionModels"
            )?,
            armor_models: table!(armor_models_ptr, armor_model_count, "armorModels")?,
        })
    }

    /// Opens a mapped `.geometry`. The file must not change while mapped (see [`MappedFile`]).
    pub fn open(file: &'a MappedFile) -> Result<Self> {
        Self::from_bytes(file.bytes())
    }

    /// The file's bytes.
    pub fn as_bytes(&self) -> &'a [u8] {
        self.bytes.as_slice()
    }

    /// The stored header.
    pub fn header(&self) -> &'a Header {
        self.header
    }

    /// The vertex mapping table.
    pub fn vertex_mappings(&self) -> Mappings<'a> {
        Mappings {
            table: self.vertex_mappings,
            kind: MappingKind::Vertices,
        }
    }

    /// The index mapping table.
    pub fn index_mappings(&self) -> Mappings<'a> {
        Mappings {
            table: self.index_mappings,
            kind: MappingKind::Indices,
        }
    }

    /// Number of merged vertex buffers.
    pub fn vertex_buffer_count(&self) -> usize {
        self.vertex_buffers.len()
    }

    /// Merged vertex buffer `i`.
    pub fn vertex_buffer(&self, i: usize) -> Option<VertexBuffer<'a>> {
        let raw = self.vertex_buffers.get(i)?;
        Some(VertexBuffer {
            bytes: self.bytes,
            raw,
        })
    }

    /// All merged vertex buffers.
    pub fn vertex_buffers(&self) -> impl ExactSizeIterator<Item = VertexBuffer<'a>> + 'a {
        let bytes = self.bytes;
        self.vertex_buffers
            .iter()
            .map(move |raw| VertexBuffer { bytes, raw })
    }

    /// Number of merged index buffers.
    pub fn index_buffer_count(&self) -> usize {
        self.index_buffers.len()
    }

    /// Merged index buffer `i`.
    pub fn index_buffer(&self, i: usize) -> Option<IndexBuffer<'a>> {
        let raw = self.index_buffers.get(i)?;
        Some(IndexBuffer {
            bytes: self.bytes,
            raw,
        })
    }

    /// All merged index buffers.
    pub fn index_buffers(&self) -> impl ExactSizeIterator<Item = IndexBuffer<'a>> + 'a {
        let bytes = self.bytes;
        self.index_buffers
            .iter()
            .map(move |raw| IndexBuffer { bytes, raw })
    }

    fn models(
        &self,
        table: Table<'a, ModelPrototype>,
        kind: ModelKind,
    ) -> impl ExactSizeIterator<Item = ModelRecord<'a>> + 'a {
        let bytes = self.bytes;
        table
            .iter()
            .map(move |raw| ModelRecord { bytes, raw, kind })
    }

    /// Collision models.
    pub fn collision_models(&self) -> impl ExactSizeIterator<Item = ModelRecord<'a>> + 'a {
        self.models(self.collision_models, ModelKind::Collision)
    }

    /// Armor models.
    pub fn armor_models(&self) -> impl ExactSizeIterator<Item = ModelRecord<'a>> + 'a {
        self.models(self.armor_models, ModelKind::Armor)
    }

    /// Pairs every index mapping with the vertex mapping its indices address (see [`Pairing`] and
    /// [`DrawTable`]): raw index data are read in place, ENCD index buffers decoded into scratch
    /// space. Allocates the table; a pipeline reuses one with [`DrawTable::pair`], or decodes and
    /// pairs in one step with [`DecodedGeometry`].
    pub fn draws(&self) -> Draws<'a> {
        let mut table = DrawTable::new();
        table.pair(self);
        Draws { view: *self, table }
    }

    /// The draw of the mesh named `name` (e.g. `"Propeller_meshShape"`): both mapping ids are
    /// hashes of the name.
    pub fn draw_by_name(&self, name: &str) -> Option<Draw<'a>> {
        Some(Draw {
            vertices: self.vertex_mappings().by_name(name)?,
            indices: self.index_mappings().by_name(name)?,
            pairing: Pairing::ByName,
        })
    }

    /// The draw of a vertex mapping id and an index mapping id known to belong together, e.g. an
    /// assets.bin render set's `verticesMappingId` and `indicesMappingId`. `None` when either id is
    /// not in the file.
    pub fn draw_by_ids(&self, vertices_id: u32, indices_id: u32) -> Option<Draw<'a>> {
        Some(Draw {
            vertices: self.vertex_mappings().by_id(vertices_id)?,
            indices: self.index_mappings().by_id(indices_id)?,
            pairing: Pairing::ById,
        })
    }

    /// Walks every structure the file has and checks it: names, blobs, counts, mapping ranges,
    /// armor nodes. Decodes nothing. For tools and tests; readers do not need it.
    pub fn validate(&self) -> Result<()> {
        for vb in self.vertex_buffers() {
            vb.format_name()?;
            vb.decoded_len()?;
        }
        for ib in self.index_buffers() {
            ib.index_count()?;
        }
        for (mappings, what) in [
            (self.vertex_mappings(), "MappingEntry(vertices)"),
            (self.index_mappings(), "MappingEntry(indices)"),
        ] {
            for m in mappings.iter() {
                let items = match m.kind() {
                    MappingKind::Vertices => self
                        .vertex_buffer(m.buffer_index())
                        .map(|b| b.vertex_count()),
                    MappingKind::Indices => {
                        self.index_buffer(m.buffer_index()).map(|b| b.index_count())
                    }
                };
                let at = u64_of(m.offset());
                let Some(items) = items else {
                    return Err(Error::invalid(
                        at,
                        what,
                        u64_of(m.buffer_index()),
                        mapping::NO_MERGED_BUFFER,
                    ));
                };
                if !mapping::range_fits(m.items_offset(), m.items_count(), items.unwrap_or(0)) {
                    return Err(Error::invalid(
                        at,
                        what,
                        u64_of(m.items_offset()),
                        mapping::RANGE_PAST_BUFFER,
                    ));
                }
            }
        }
        for model in self.collision_models().chain(self.armor_models()) {
            model.name()?;
            model.data()?;
        }
        for model in self.armor_models() {
            for node in model.armor()?.nodes() {
                node?.check()?;
            }
        }
        Ok(())
    }
}

/// The paired draws of one file: a [`DrawTable`] with the view it was paired from.
#[derive(Debug, Clone)]
pub struct Draws<'a> {
    view: GeometryView<'a>,
    table: DrawTable,
}

impl<'a> Draws<'a> {
    /// The draws, in index-mapping order.
    pub fn iter(&self) -> impl Iterator<Item = Draw<'a>> + '_ {
        self.table.draws(&self.view)
    }

    /// Number of draws.
    pub fn len(&self) -> usize {
        self.table.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.table.is_empty()
    }

    /// The pairing behind the draws: notes, unpaired mappings, largest indices.
    pub fn table(&self) -> &DrawTable {
        &self.table
    }

    /// The table, to reuse for another file.
    pub fn into_table(self) -> DrawTable {
        self.table
    }
}

/// Whether `data` looks like a `.geometry` file. The format has no magic: the header's tables must
/// lie inside the file after the header, at least one must be non-empty, and a first vertex buffer's
/// format name must read as text.
pub(crate) fn looks_like(data: &[u8]) -> bool {
    let Ok(view) = GeometryView::from_bytes(data) else {
        return false;
    };
    let h = view.header;
    let tables = [
        (h.vertices_mapping_count.get(), h.vertices_mapping_ptr.get()),
        (h.indices_mapping_count.get(), h.indices_mapping_ptr.get()),
        (h.merged_vertices_count.get(), h.merged_vertices_ptr.get()),
        (h.merged_indices_count.get(), h.merged_indices_ptr.get()),
        (h.collision_model_count.get(), h.collision_models_ptr.get()),
        (h.armor_model_count.get(), h.armor_models_ptr.get()),
    ];
    let header_size = core::mem::size_of::<Header>() as i64;
    if tables.iter().all(|&(count, _)| count == 0) {
        return false;
    }
    if tables
        .iter()
        .any(|&(count, ptr)| count != 0 && ptr < header_size)
    {
        return false;
    }
    match view.vertex_buffer(0) {
        Some(vb) => vb
            .format_name()
            .is_ok_and(|name| !name.is_empty() && name.bytes().all(|b| b.is_ascii_graphic())),
        None => true,
    }
}

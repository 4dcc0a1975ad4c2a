//! [`GeometryModel`], the owned model of a `.geometry` file, from a view (its writer,
//! [`GeometryModel::to_bytes`], is in `geometry::write`).

use core::fmt;

use crate::bytes::{Bytes, u64_of};
use crate::error::{Error, Result};
use crate::wows::geometry::raw::{ENCD_MAGIC, IndicesPrototype, ModelPrototype, VerticesPrototype};
use crate::wows::geometry::{GeometryView, Mapping, ModelKind, ModelRecord};

/// The byte [`GeometryModel::blob_padding`] fills with.
pub const PADDING_BYTE: u8 = 0xcd;

/// The largest [`GeometryModel::blob_padding`] that [`GeometryModel::from_view`] recognises (a
/// longer run of [`PADDING_BYTE`] is not the writer's padding, and repeating it before every blob
/// would make the written file out of proportion to the read one).
pub const MAX_BLOB_PADDING: usize = 16;

/// The owned model of a `.geometry` file, in the format's own terms: merged vertex buffers (format
/// name, stride, flags and the blob as stored), merged index buffers (index size and the blob as
/// stored), the two mapping tables, and the collision and armor models (name and payload). ENCD
/// blobs stay encoded: nothing is decoded or re-encoded on the way through.
///
/// [`from_view`](Self::from_view) copies everything a view's records point at, and
/// [`to_bytes`](Self::to_bytes) writes it in the layout the game's files have (and
/// [`GeometryBuilder`](super::GeometryBuilder) writes through this model): the header, the vertex
/// mapping table, the index mapping table, the VerticesPrototype table followed by each vertex blob
/// and its format name, the IndicesPrototype table followed by each index blob, then the collision
/// and the armor model tables, each followed by every payload and its name; no alignment, an empty
/// table's header pointer null. A file laid out that way comes back byte for byte. What is not
/// kept: the four padding bytes of each PackedString (written as zeros), a name's character count
/// (written as its length plus the terminator), structures stored in another order, gaps between
/// them other than the writer's own [`blob_padding`](Self::blob_padding), bytes after the last
/// one, and a non-null pointer of an empty table. The seven real samples have none of these: each
/// comes back byte for byte.
///
/// ```
/// use gamebin::wows::geometry::GeometryView;
/// use gamebin::wows::geometry::model::GeometryModel;
///
/// let bytes = gamebin::synth::geometry::example_file();
/// let view = GeometryView::from_bytes(&bytes)?;
/// let mut file = GeometryModel::from_view(&view)?;
/// assert_eq!(file.vertex_buffers[0].format_name, "set3/xyznuvtbpc");
/// assert!(file.vertex_buffers[0].is_encoded()); // kept as stored, not decoded
/// assert_eq!(file.to_bytes()?, bytes); // the writer's layout comes back byte for byte
///
/// // Rename the armor model and write the file again.
/// file.armor_models[0].name = "CM_PA_renamed.armor".into();
/// let renamed = file.to_bytes()?;
/// let view = GeometryView::from_bytes(&renamed)?;
/// assert_eq!(view.armor_models().next().unwrap().name()?, "CM_PA_renamed.armor");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(deny_unknown_fields)
)]
pub struct GeometryModel {
    /// The merged vertex buffers (VerticesPrototype), in table order.
    pub vertex_buffers: Vec<VertexBufferSpec>,
    /// The merged index buffers (IndicesPrototype), in table order.
    pub index_buffers: Vec<IndexBufferSpec>,
    /// The vertex mapping table, in file order.
    pub vertex_mappings: Vec<MappingSpec>,
    /// The index mapping table, in file order (not necessarily the vertex table's order).
    pub index_mappings: Vec<MappingSpec>,
    /// The collision models (CollisionModelPrototype).
    pub collision_models: Vec<ModelPrototypeSpec>,
    /// The armor models (ArmorModelPrototype).
    pub armor_models: Vec<ModelPrototypeSpec>,
    /// Bytes of [`PADDING_BYTE`] written before every blob and every name, so that they start at
    /// odd offsets (a writer option for tests of unaligned reads). 0 in the game's files;
    /// [`from_view`](Self::from_view) finds it in the gap before the first blob. At most
    /// [`MAX_BLOB_PADDING`]: [`to_bytes`](Self::to_bytes) refuses more (a model read from JSON
    /// could otherwise ask for any amount before every blob).
    #[cfg_attr(feature = "serde", serde(default))]
    pub blob_padding: usize,
}

/// A merged vertex buffer: the VerticesPrototype's fields and the blob it points at.
#[derive(Clone, Default, PartialEq, Eq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(deny_unknown_fields)
)]
pub struct VertexBufferSpec {
    /// The vertex format's name, e.g. `set3/xyznuvtbpc`.
    pub format_name: String,
    /// Bytes per vertex (`strideInBytes`), as stored.
    pub stride: u16,
    /// `isSkinned` as stored (non-zero: bone indices and weights).
    pub is_skinned: u8,
    /// `isBumped` as stored (non-zero: tangents and binormals).
    pub is_bumped: u8,
    /// The blob as stored: raw vertex records, or an ENCD header and meshoptimizer payload.
    /// Lowercase hex in JSON.
    #[cfg_attr(feature = "serde", serde(with = "hex::vertices"))]
    pub data: Vec<u8>,
}

/// A merged index buffer: the IndicesPrototype's fields and the blob it points at.
#[derive(Clone, Default, PartialEq, Eq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(deny_unknown_fields)
)]
pub struct IndexBufferSpec {
    /// `indexSize` as stored: 2 or 4 (0 in files that swap it with `reserved`; see
    /// [`IndexBuffer::has_swapped_index_size`](crate::wows::geometry::IndexBuffer::has_swapped_index_size)).
    pub index_size: u16,
    /// `reserved` as stored (0, or the index size in files that swap the two fields).
    pub reserved: u16,
    /// The blob as stored: little-endian indices, or an ENCD header and meshoptimizer payload.
    /// Lowercase hex in JSON.
    #[cfg_attr(feature = "serde", serde(with = "hex::indices"))]
    pub data: Vec<u8>,
}

/// One MappingEntry: a named range of a merged buffer.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(deny_unknown_fields)
)]
pub struct MappingSpec {
    /// `mappingId`: MurmurHash3 of `"<name>.vertices"` or `"<name>.indices"`.
    pub id: u32,
    /// `mergedBufferIndex`: the merged buffer of the entry's kind the range is in.
    pub buffer: u16,
    /// `packedTexelDensity` (0 in 0.10 files).
    pub texel_density: u16,
    /// `itemsOffset`: the first vertex or index of the range.
    pub items_offset: u32,
    /// `itemsCount`: vertices or indices in the range.
    pub items_count: u32,
}

/// A collision or armor model: its name and payload (armor payloads: see
/// [`armor_payload`](super::armor_payload) and [`Armor`](crate::wows::geometry::Armor)).
#[derive(Clone, Default, PartialEq, Eq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(deny_unknown_fields)
)]
pub struct ModelPrototypeSpec {
    /// The model's name, e.g. `CM_PA_united.armor`.
    pub name: String,
    /// The payload as stored. Lowercase hex in JSON.
    #[cfg_attr(feature = "serde", serde(with = "hex::models"))]
    pub data: Vec<u8>,
}

/// The blobs' hex read back with an error that names the field: the JSON error's line and column
/// point past a string that may be megabytes long, and the same message from three structs would
/// not say which one is at fault.
#[cfg(feature = "serde")]
mod hex {
    use serde::de::{Deserialize, Deserializer, Error as _};

    fn blob<'de, D: Deserializer<'de>>(d: D, field: &str) -> Result<Vec<u8>, D::Error> {
        let text = String::deserialize(d)?;
        crate::bytes::unhex(&text).map_err(|why| {
            D::Error::custom(format_args!(
                "{field} ({} characters) holds {why}",
                text.len()
            ))
        })
    }

    /// A `with` module for the blob at `field`: hex out as every model writes it, hex in with
    /// the field named.
    macro_rules! blob_field {
        ($module:ident, $field:literal) => {
            pub(super) mod $module {
                pub(crate) use crate::serde_hex::serialize;

                pub(crate) fn deserialize<'de, D>(d: D) -> Result<Vec<u8>, D::Error>
                where
                    D: serde::Deserializer<'de>,
                {
                    super::blob(d, $field)
                }
            }
        };
    }

    blob_field!(vertices, "vertex_buffers[].data");
    blob_field!(indices, "index_buffers[].data");
    blob_field!(models, "collision_models[].data or armor_models[].data");
}

// By hand: blobs can be large; show their length and first bytes.
impl fmt::Debug for VertexBufferSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("VertexBufferSpec")
            .field("format_name", &self.format_name)
            .field("stride", &self.stride)
            .field("is_skinned", &self.is_skinned)
            .field("is_bumped", &self.is_bumped)
            .field("data", &Bytes::new(&self.data))
            .finish()
    }
}

impl fmt::Debug for IndexBufferSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("IndexBufferSpec")
            .field("index_size", &self.index_size)
            .field("reserved", &self.reserved)
            .field("data", &Bytes::new(&self.data))
            .finish()
    }
}

impl fmt::Debug for ModelPrototypeSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ModelPrototypeSpec")
            .field("name", &self.name)
            .field("data", &Bytes::new(&self.data))
            .finish()
    }
}

/// Whether a stored blob is meshoptimizer-encoded (starts with the ENCD magic).
fn starts_encd(data: &[u8]) -> bool {
    data.starts_with(&ENCD_MAGIC)
}

impl VertexBufferSpec {
    /// Whether the blob is ENCD (meshoptimizer) data.
    pub fn is_encoded(&self) -> bool {
        starts_encd(&self.data)
    }
}

impl IndexBufferSpec {
    /// Whether the blob is ENCD (meshoptimizer) data.
    pub fn is_encoded(&self) -> bool {
        starts_encd(&self.data)
    }
}

impl MappingSpec {
    fn from_view(m: Mapping<'_>) -> Self {
        let raw = m.raw();
        MappingSpec {
            id: raw.mapping_id.get(),
            buffer: raw.merged_buffer_index.get(),
            texel_density: raw.packed_texel_density.get(),
            items_offset: raw.items_offset.get(),
            items_count: raw.items_count.get(),
        }
    }
}

impl ModelPrototypeSpec {
    fn from_view(model: ModelRecord<'_>, budget: &mut Budget) -> Result<Self> {
        let what = match model.kind() {
            ModelKind::Collision => "CollisionModelPrototype",
            ModelKind::Armor => "ArmorModelPrototype",
        };
        Ok(ModelPrototypeSpec {
            name: budget.copy_str(model.name()?, model.offset(), what)?,
            data: budget.copy(model.data()?, model.offset(), what)?,
        })
    }
}

/// What [`GeometryModel::from_view`] may still copy: the file's length. In a file whose blobs and
/// names do not overlap they add up to less; records that all point at one large blob would
/// otherwise make a model (and a written file) many times the input's size.
struct Budget(usize);

impl Budget {
    fn take(&mut self, len: usize, record_at: usize, what: &'static str) -> Result<()> {
        self.0 = self.0.checked_sub(len).ok_or_else(|| {
            Error::invalid(
                u64_of(record_at),
                what,
                u64_of(len),
                "blobs and names overlap: together they exceed the file",
            )
        })?;
        Ok(())
    }

    fn copy(&mut self, data: &[u8], record_at: usize, what: &'static str) -> Result<Vec<u8>> {
        self.take(data.len(), record_at, what)?;
        Ok(data.to_vec())
    }

    fn copy_str(&mut self, text: &str, record_at: usize, what: &'static str) -> Result<String> {
        self.take(text.len(), record_at, what)?;
        Ok(text.to_owned())
    }
}

impl GeometryModel {
    /// An empty file.
    pub fn new() -> Self {
        Self::default()
    }

    /// Copies a file: every record's fields and every blob and name they point at. Fails (with the
    /// reader's error, naming the field and offset) where a pointer leaves the file, a blob is cut
    /// short or a name is not UTF-8, and where the blobs and names add up to more than the file
    /// (records sharing data: copying it once per record could multiply the file's size). It does
    /// not check what the data mean (mapping ranges, ENCD payloads): those are copied as they are.
    ///
    /// ```
    /// use gamebin::wows::geometry::GeometryView;
    /// use gamebin::wows::geometry::model::GeometryModel;
    ///
    /// let bytes = gamebin::synth::geometry::example_file();
    /// let file = GeometryModel::from_view(&GeometryView::from_bytes(&bytes)?)?;
    /// assert_eq!(file.vertex_mappings.len(), 2);
    /// assert_eq!(file.armor_models[0].name, "CM_PA_united.armor");
    ///
    /// // A blob pointer that leaves the file is an error, not a panic.
    /// let mut damaged = bytes.clone();
    /// let at = GeometryView::from_bytes(&bytes)?.vertex_buffer(0).unwrap().offset();
    /// damaged[at + 7] = 0x7f;
    /// assert!(GeometryModel::from_view(&GeometryView::from_bytes(&damaged)?).is_err());
    /// # Ok::<(), gamebin::Error>(())
    /// ```
    pub fn from_view(view: &GeometryView<'_>) -> Result<Self> {
        let mut budget = Budget(view.as_bytes().len());
        let mut vertex_buffers = Vec::with_capacity(view.vertex_buffer_count());
        for vb in view.vertex_buffers() {
            let (raw, at, what) = (vb.raw(), vb.offset(), "VerticesPrototype");
            vertex_buffers.push(VertexBufferSpec {
                format_name: budget.copy_str(vb.format_name()?, at, what)?,
                stride: raw.stride_in_bytes.get(),
                is_skinned: raw.is_skinned,
                is_bumped: raw.is_bumped,
                data: budget.copy(vb.data()?, at, what)?,
            });
        }
        let mut index_buffers = Vec::with_capacity(view.index_buffer_count());
        for ib in view.index_buffers() {
            let raw = ib.raw();
            index_buffers.push(IndexBufferSpec {
                index_size: raw.index_size.get(),
                reserved: raw.reserved.get(),
                data: budget.copy(ib.data()?, ib.offset(), "IndicesPrototype")?,
            });
        }
        let mut models = |models: &mut dyn Iterator<Item = ModelRecord<'_>>| -> Result<Vec<_>> {
            models
                .map(|m| ModelPrototypeSpec::from_view(m, &mut budget))
                .collect()
        };
        Ok(GeometryModel {
            vertex_buffers,
            index_buffers,
            vertex_mappings: view
                .vertex_mappings()
                .iter()
                .map(MappingSpec::from_view)
                .collect(),
            index_mappings: view
                .index_mappings()
                .iter()
                .map(MappingSpec::from_view)
                .collect(),
            collision_models: models(&mut view.collision_models())?,
            armor_models: models(&mut view.armor_models())?,
            blob_padding: blob_padding_of(view),
        })
    }
}

/// The writer's blob padding a file was written with: the run of [`PADDING_BYTE`] between the
/// first non-empty prototype table and the blob its first record points at (0 when that gap is
/// absent, longer than [`MAX_BLOB_PADDING`], or holds anything else).
fn blob_padding_of(view: &GeometryView<'_>) -> usize {
    let first = |record: usize, size: usize, data: Result<usize>| {
        Some((record.checked_add(size)?, data.ok()?))
    };
    let gap = if let Some(vb) = view.vertex_buffers().next() {
        let records = size_of_table::<VerticesPrototype>(view.vertex_buffer_count());
        first(vb.offset(), records, vb.data_offset())
    } else if let Some(ib) = view.index_buffers().next() {
        let records = size_of_table::<IndicesPrototype>(view.index_buffer_count());
        first(ib.offset(), records, ib.data_offset())
    } else {
        let collision = view.collision_models();
        let armor = view.armor_models();
        let (count, model) = match collision.len() {
            0 => (armor.len(), view.armor_models().next()),
            n => (n, view.collision_models().next()),
        };
        model.and_then(|m| {
            let records = size_of_table::<ModelPrototype>(count);
            first(m.offset(), records, m.data_offset())
        })
    };
    let Some((end, data)) = gap else { return 0 };
    match view.as_bytes().get(end..data) {
        Some(pad) if pad.len() <= MAX_BLOB_PADDING && pad.iter().all(|&b| b == PADDING_BYTE) => {
            pad.len()
        }
        _ => 0,
    }
}

/// Bytes of `count` records of `T` (saturating: only compared with offsets inside a file).
fn size_of_table<T>(count: usize) -> usize {
    count.saturating_mul(core::mem::size_of::<T>())
}

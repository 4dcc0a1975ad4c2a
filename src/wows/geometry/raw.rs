//! On-disk structs of `.geometry` (MergedGeometryPrototype), exactly as stored: little-endian,
//! alignment 1, borrowed straight out of the file.

use core::mem::offset_of;

use zerocopy::little_endian::{F32, I64, U16, U32, U64};
use zerocopy::{FromBytes, Immutable, IntoBytes, KnownLayout, Unaligned};

/// The 72-byte header at offset 0. Its pointers are relative to the file start.
#[derive(Debug, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct Header {
    /// Number of merged vertex buffers ([`VerticesPrototype`] records at `merged_vertices_ptr`).
    pub merged_vertices_count: U32,
    /// Number of merged index buffers ([`IndicesPrototype`] records at `merged_indices_ptr`).
    pub merged_indices_count: U32,
    /// Number of vertex [`MappingEntry`] records (one per mesh).
    pub vertices_mapping_count: U32,
    /// Number of index [`MappingEntry`] records (one per mesh).
    pub indices_mapping_count: U32,
    /// Number of collision models.
    pub collision_model_count: U32,
    /// Number of armor models.
    pub armor_model_count: U32,
    /// File offset of the vertex mapping entries.
    pub vertices_mapping_ptr: I64,
    /// File offset of the index mapping entries.
    pub indices_mapping_ptr: I64,
    /// File offset of the merged vertex buffers' headers.
    pub merged_vertices_ptr: I64,
    /// File offset of the merged index buffers' headers.
    pub merged_indices_ptr: I64,
    /// File offset of the collision models.
    pub collision_models_ptr: I64,
    /// File offset of the armor models.
    pub armor_models_ptr: I64,
}

/// Offset of `Header::vertices_mapping_ptr` (header pointer offsets are for error reports).
pub const HEADER_VERTICES_MAPPING_PTR: usize = offset_of!(Header, vertices_mapping_ptr);
/// Offset of `Header::indices_mapping_ptr`.
pub const HEADER_INDICES_MAPPING_PTR: usize = offset_of!(Header, indices_mapping_ptr);
/// Offset of `Header::merged_vertices_ptr`.
pub const HEADER_MERGED_VERTICES_PTR: usize = offset_of!(Header, merged_vertices_ptr);
/// Offset of `Header::merged_indices_ptr`.
pub const HEADER_MERGED_INDICES_PTR: usize = offset_of!(Header, merged_indices_ptr);
/// Offset of `Header::collision_models_ptr`.
pub const HEADER_COLLISION_MODELS_PTR: usize = offset_of!(Header, collision_models_ptr);
/// Offset of `Header::armor_models_ptr`.
pub const HEADER_ARMOR_MODELS_PTR: usize = offset_of!(Header, armor_models_ptr);

/// A named slice of a merged vertex or index buffer (0x10 bytes).
#[derive(Debug, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct MappingEntry {
    /// MurmurHash3_x86_32 (seed 0) of `"<name>.vertices"` or `"<name>.indices"`.
    pub mapping_id: U32,
    /// Which merged buffer (vertex or index, by the entry's table) the range is in.
    pub merged_buffer_index: U16,
    /// Texel density of the mesh, packed; 0 in 0.10.2 files, non-zero in 0.11.5, equal for the
    /// vertex and index entries of one mesh.
    pub packed_texel_density: U16,
    /// First item (vertex or index) within the merged buffer.
    pub items_offset: U32,
    /// Number of items (vertices or indices) in the range.
    pub items_count: U32,
}

/// A counted string stored out of line (0x10 bytes); `text_ptr` is relative to this struct.
#[derive(Debug, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct PackedString {
    /// Characters including the NUL terminator.
    pub char_count: U32,
    /// Padding; not read.
    pub padding: [u8; 4],
    /// Offset of the text relative to this struct.
    pub text_ptr: I64,
}

/// Offset of `PackedString.text_ptr` within the struct.
pub const PACKED_STRING_TEXT_PTR: usize = offset_of!(PackedString, text_ptr);

/// A merged vertex buffer (0x20 bytes); `vertices_data_ptr` is relative to this struct.
#[derive(Debug, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct VerticesPrototype {
    /// Offset of the vertex blob relative to this struct (raw, or ENCD-encoded).
    pub vertices_data_ptr: I64,
    /// The vertex format's name, e.g. `set3/xyznuvtbpc` (the letters after the slash say the
    /// components).
    pub format_name: PackedString,
    /// Size of the blob, including the 8-byte ENCD header when encoded.
    pub size_in_bytes: U32,
    /// Bytes per vertex; authoritative even when the format name is unknown.
    pub stride_in_bytes: U16,
    /// Non-zero when the vertices carry bone indices and weights.
    pub is_skinned: u8,
    /// Non-zero when the vertices carry tangents and binormals.
    pub is_bumped: u8,
}

/// Offset of `VerticesPrototype.formatName` within the struct.
pub const VERTICES_FORMAT_NAME: usize = offset_of!(VerticesPrototype, format_name);
/// Offset of `strideInBytes` in a [`VerticesPrototype`].
pub const VERTICES_STRIDE: usize = offset_of!(VerticesPrototype, stride_in_bytes);

/// A merged index buffer (0x10 bytes); `indices_data_ptr` is relative to this struct.
#[derive(Debug, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct IndicesPrototype {
    /// Offset of the index blob relative to this struct (raw, or ENCD-encoded).
    pub indices_data_ptr: I64,
    /// Size of the blob, including the 8-byte ENCD header when encoded.
    pub size_in_bytes: U32,
    /// Reserved; not read.
    pub reserved: U16,
    /// Bytes per index: 2 or 4.
    pub index_size: U16,
}

/// A collision or armor model (0x20 bytes). The field order is the one the bytes have (size first,
/// data pointer last), not the seed description's; `data_ptr` is relative to this struct.
#[derive(Debug, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct ModelPrototype {
    /// Size of the model's data in bytes.
    pub size_in_bytes: U64,
    /// The model's name.
    pub name: PackedString,
    /// Offset of the model's data relative to this struct (0x20 in the samples: right after it).
    pub data_ptr: I64,
}

/// Offset of `ModelPrototype.name` within the struct.
pub const MODEL_NAME: usize = offset_of!(ModelPrototype, name);
/// Offset of `ModelPrototype.data_ptr` within the struct.
pub const MODEL_DATA_PTR: usize = offset_of!(ModelPrototype, data_ptr);

/// The header of a meshoptimizer-encoded blob.
#[derive(Debug, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct EncdHeader {
    /// `b"ENCD"`.
    pub magic: [u8; 4],
    /// Number of vertices or indices the meshoptimizer payload decodes to.
    pub element_count: U32,
}

/// The ENCD magic as stored.
pub const ENCD_MAGIC: [u8; 4] = *b"ENCD";

/// An axis-aligned box as stored in armor payloads.
#[derive(Debug, Clone, Copy, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct Aabb {
    /// Minimum corner x, y, z.
    pub min: [F32; 3],
    /// Maximum corner x, y, z.
    pub max: [F32; 3],
}

/// The head of an armor payload (32 bytes).
#[derive(Debug, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct ArmorHeader {
    /// Payload id (0x80000001 in the samples).
    pub id: U32,
    /// Bounds of the whole armor model.
    pub bounds: Aabb,
    /// Number of BVH nodes that follow.
    pub node_count: U32,
}

/// The head of one armor BVH node (32 bytes), followed by `vertex_count` [`ArmorVertex`] records.
#[derive(Debug, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct ArmorNodeHeader {
    /// Armor material id of the node's triangles.
    pub material_id: u8,
    /// Reserved; 0 in the samples.
    pub reserved0: u8,
    /// 1-based armor layer.
    pub layer_index: u8,
    /// Reserved; 0 in the samples.
    pub reserved1: u8,
    /// Bounds of the node's triangles.
    pub bounds: Aabb,
    /// Number of [`ArmorVertex`] records that follow (3 per triangle).
    pub vertex_count: U32,
}

/// One armor vertex (16 bytes): position and an offset-binary normal.
#[derive(Debug, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct ArmorVertex {
    /// Position x, y, z (left-handed, Y up).
    pub position: [F32; 3],
    /// Normal, offset-binary: component = `byte / 127.5 − 1`.
    pub normal: [u8; 3],
    /// Padding; 0 in the samples.
    pub reserved: u8,
}

// The sizes the format gives each struct; a layout change fails the build, not a test.
const _: () = {
    use core::mem::size_of;
    assert!(size_of::<Header>() == 0x48);
    assert!(size_of::<MappingEntry>() == 0x10);
    assert!(size_of::<PackedString>() == 0x10);
    assert!(size_of::<VerticesPrototype>() == 0x20);
    assert!(size_of::<IndicesPrototype>() == 0x10);
    assert!(size_of::<ModelPrototype>() == 0x20);
    assert!(size_of::<EncdHeader>() == 8);
    assert!(size_of::<Aabb>() == 24);
    assert!(size_of::<ArmorHeader>() == 32);
    assert!(size_of::<ArmorNodeHeader>() == 32);
    assert!(size_of::<ArmorVertex>() == 16);
    // The pointer offsets the format's description gives, as the structs place them.
    assert!(HEADER_VERTICES_MAPPING_PTR == 0x18 && HEADER_ARMOR_MODELS_PTR == 0x40);
    assert!(PACKED_STRING_TEXT_PTR == 0x08 && VERTICES_FORMAT_NAME == 0x08);
    assert!(MODEL_NAME == 0x08 && MODEL_DATA_PTR == 0x18);
};

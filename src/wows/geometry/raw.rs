//! On-disk structs of `.geometry` (MergedGeometryPrototype), exactly as stored: little-endian,
//! alignment 1, borrowed straight out of the file.

use zerocopy::little_endian::{F32, I64, U16, U32, U64};
use zerocopy::{FromBytes, Immutable, IntoBytes, KnownLayout, Unaligned};

/// The 72-byte header at offset 0. Its pointers are relative to the file start.
#[derive(Debug, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct Header {
    pub merged_vertices_count: U32,
    pub merged_indices_count: U32,
    pub vertices_mapping_count: U32,
    pub indices_mapping_count: U32,
    pub collision_model_count: U32,
    pub armor_model_count: U32,
    pub vertices_mapping_ptr: I64,
    pub indices_mapping_ptr: I64,
    pub merged_vertices_ptr: I64,
    pub merged_indices_ptr: I64,
    pub collision_models_ptr: I64,
    pub armor_models_ptr: I64,
}

/// Offset of each header pointer field, for error reports.
pub const HEADER_VERTICES_MAPPING_PTR: usize = 0x18;
pub const HEADER_INDICES_MAPPING_PTR: usize = 0x20;
pub const HEADER_MERGED_VERTICES_PTR: usize = 0x28;
pub const HEADER_MERGED_INDICES_PTR: usize = 0x30;
pub const HEADER_COLLISION_MODELS_PTR: usize = 0x38;
pub const HEADER_ARMOR_MODELS_PTR: usize = 0x40;

/// A named slice of a merged vertex or index buffer (0x10 bytes).
#[derive(Debug, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct MappingEntry {
    /// MurmurHash3_x86_32 (seed 0) of `"<name>.vertices"` or `"<name>.indices"`.
    pub mapping_id: U32,
    pub merged_buffer_index: U16,
    pub packed_texel_density: U16,
    /// First item (vertex or index) within the merged buffer.
    pub items_offset: U32,
    pub items_count: U32,
}

/// A counted string stored out of line (0x10 bytes); `text_ptr` is relative to this struct.
#[derive(Debug, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct PackedString {
    /// Characters including the NUL terminator.
    pub char_count: U32,
    pub padding: [u8; 4],
    pub text_ptr: I64,
}

/// Offset of `PackedString.text_ptr` within the struct.
pub const PACKED_STRING_TEXT_PTR: usize = 0x08;

/// A merged vertex buffer (0x20 bytes); `vertices_data_ptr` is relative to this struct.
#[derive(Debug, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct VerticesPrototype {
    pub vertices_data_ptr: I64,
    pub format_name: PackedString,
    /// Size of the blob, including the 8-byte ENCD header when encoded.
    pub size_in_bytes: U32,
    pub stride_in_bytes: U16,
    pub is_skinned: u8,
    pub is_bumped: u8,
}

/// Offset of `VerticesPrototype.formatName` within the struct.
pub const VERTICES_FORMAT_NAME: usize = 0x08;

/// A merged index buffer (0x10 bytes); `indices_data_ptr` is relative to this struct.
#[derive(Debug, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct IndicesPrototype {
    pub indices_data_ptr: I64,
    pub size_in_bytes: U32,
    pub reserved: U16,
    /// Bytes per index: 2 or 4.
    pub index_size: U16,
}

/// A collision or armor model (0x20 bytes). The field order is the one the bytes have (size first,
/// data pointer last), not the seed description's; `data_ptr` is relative to this struct.
#[derive(Debug, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct ModelPrototype {
    pub size_in_bytes: U64,
    pub name: PackedString,
    pub data_ptr: I64,
}

/// Offset of `ModelPrototype.name` and `.data_ptr` within the struct.
pub const MODEL_NAME: usize = 0x08;
pub const MODEL_DATA_PTR: usize = 0x18;

/// The header of a meshoptimizer-encoded blob.
#[derive(Debug, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct EncdHeader {
    /// `b"ENCD"`.
    pub magic: [u8; 4],
    pub element_count: U32,
}

/// The ENCD magic as stored.
pub const ENCD_MAGIC: [u8; 4] = *b"ENCD";

/// An axis-aligned box as stored in armor payloads.
#[derive(Debug, Clone, Copy, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct Aabb {
    pub min: [F32; 3],
    pub max: [F32; 3],
}

/// The head of an armor payload (32 bytes).
#[derive(Debug, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct ArmorHeader {
    pub id: U32,
    pub bounds: Aabb,
    pub node_count: U32,
}

/// The head of one armor BVH node (32 bytes), followed by `vertex_count` [`ArmorVertex`] records.
#[derive(Debug, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct ArmorNodeHeader {
    pub material_id: u8,
    pub reserved0: u8,
    /// 1-based armor layer.
    pub layer_index: u8,
    pub reserved1: u8,
    pub bounds: Aabb,
    pub vertex_count: U32,
}

/// One armor vertex (16 bytes): position and an offset-binary normal.
#[derive(Debug, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct ArmorVertex {
    pub position: [F32; 3],
    pub normal: [u8; 3],
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
};

//! On-disk structs of `assets.bin` (BWDB PrototypeDatabase), exactly as stored: little-endian,
//! alignment 1, borrowed straight out of the file. Offsets in comments are from the struct start;
//! relative pointers (`*_ptr`, i64) are relative to the struct that holds them unless said otherwise.

use zerocopy::little_endian::{F32, I32, I64, U16, U32, U64};
use zerocopy::{FromBytes, Immutable, IntoBytes, KnownLayout, Unaligned};

pub(crate) use crate::wows::bigworld::Header;

/// The 0x60-byte body header at file offset 0x10 (the body base).
#[derive(Debug, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct BodyHeader {
    /// Number of buckets in the strings map (offsetsMap).
    pub strings_capacity: U32,
    /// Padding; not read.
    pub pad0: U32,
    /// Relative to the body base.
    pub strings_buckets_ptr: I64,
    /// Relative to the body base.
    pub strings_values_ptr: I64,
    /// Size in bytes of the string pool.
    pub string_data_size: U32,
    /// Padding; not read.
    pub pad1: U32,
    /// Relative to the body base.
    pub string_data_ptr: I64,
    /// Number of buckets in the resource-to-prototype map.
    pub r2p_capacity: U32,
    /// Padding; not read.
    pub pad2: U32,
    /// Relative to body base + 0x28.
    pub r2p_buckets_ptr: I64,
    /// Relative to body base + 0x28.
    pub r2p_values_ptr: I64,
    /// Number of [`PathEntry`] records.
    pub paths_count: U32,
    /// Padding; not read.
    pub pad3: U32,
    /// Relative to body base + 0x40.
    pub paths_ptr: I64,
    /// Number of [`DatabaseEntry`] records (10 in the seed's layout example; other versions have
    /// others).
    pub databases_count: U32,
    /// Padding; not read.
    pub pad4: U32,
    /// Relative to the body base.
    pub databases_ptr: I64,
}

/// File offset of the body (the first byte after the header).
pub const BODY_BASE: usize = 0x10;
/// Offset of `BodyHeader::strings_buckets_ptr` within the body (these offsets are bases and error
/// positions).
pub const BODY_STRINGS_BUCKETS_PTR: usize = core::mem::offset_of!(BodyHeader, strings_buckets_ptr);
/// Offset of `BodyHeader::strings_values_ptr` within the body.
pub const BODY_STRINGS_VALUES_PTR: usize = core::mem::offset_of!(BodyHeader, strings_values_ptr);
/// Offset of `BodyHeader::string_data_ptr` within the body.
pub const BODY_STRING_DATA_PTR: usize = core::mem::offset_of!(BodyHeader, string_data_ptr);
/// Offset of `BodyHeader::r2p_capacity` within the body: the base of the r2p pointers.
pub const BODY_R2P: usize = core::mem::offset_of!(BodyHeader, r2p_capacity);
/// Offset of `BodyHeader::r2p_buckets_ptr` within the body.
pub const BODY_R2P_BUCKETS_PTR: usize = core::mem::offset_of!(BodyHeader, r2p_buckets_ptr);
/// Offset of `BodyHeader::r2p_values_ptr` within the body.
pub const BODY_R2P_VALUES_PTR: usize = core::mem::offset_of!(BodyHeader, r2p_values_ptr);
/// Offset of `BodyHeader::paths_count` within the body: the base of `paths_ptr`.
pub const BODY_PATHS: usize = core::mem::offset_of!(BodyHeader, paths_count);
/// Offset of `BodyHeader::paths_ptr` within the body.
pub const BODY_PATHS_PTR: usize = core::mem::offset_of!(BodyHeader, paths_ptr);
/// Offset of `BodyHeader::databases_ptr` within the body.
pub const BODY_DATABASES_PTR: usize = core::mem::offset_of!(BodyHeader, databases_ptr);

/// A strings-map bucket: the MurmurHash3 of a string and an occupancy word (bit 31 set when used).
#[derive(Debug, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct StringBucket {
    /// MurmurHash3_x86_32 (seed 0) of the string; the slot to start probing at is `key % capacity`.
    pub key: U32,
    /// Occupancy word: bit 31 set when the bucket is used; an empty bucket is all zero.
    pub word: U32,
}

/// A resource-to-prototype bucket: a selfId and an occupancy word (non-zero when used).
#[derive(Debug, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct PrototypeBucket {
    /// The prototype's selfId (CityHash64 of its full path); probing starts at `key % capacity`.
    pub key: U64,
    /// Occupancy word (non-zero when used; `key == 0 && word == 0` is empty).
    pub word: U64,
}

/// One path entry (0x20 bytes).
#[derive(Debug, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct PathEntry {
    /// CityHash64 of the full path, without a `res/` prefix, segments joined by `/`.
    pub self_id: U64,
    /// 0 for a root.
    pub parent_id: U64,
    /// Characters including the NUL terminator.
    pub name_size: U32,
    /// Padding; not read.
    pub pad: U32,
    /// Relative to this entry + 0x10 (the name's packed string).
    pub name_ptr: I64,
}

/// Offset of the packed name within a path entry, the base of `name_ptr`.
pub const PATH_ENTRY_NAME: usize = 0x10;
/// Offset of `PathEntry.name_ptr`.
pub const PATH_ENTRY_NAME_PTR: usize = 0x18;

/// One database descriptor (0x18 bytes).
#[derive(Debug, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct DatabaseEntry {
    /// MurmurHash3 of the prototype type name.
    pub magic: U32,
    /// MurmurHash3 of a description of the record layout; changes whenever the layout does.
    pub schema_hash: U32,
    /// Size of the blob in bytes.
    pub size: U32,
    /// Padding; not read.
    pub pad: U32,
    /// Relative to this entry.
    pub data_ptr: I64,
}

/// Offset of `DatabaseEntry.data_ptr`.
pub const DATABASE_ENTRY_DATA_PTR: usize = 0x10;

/// The 16-byte header of a database blob.
#[derive(Debug, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct BlobHeader {
    /// Number of records in the blob, `item size` bytes each (the size is per prototype type).
    pub record_count: U64,
    /// Always 16: the records start right after this header.
    pub header_size: U64,
}

/// VisualPrototype (0x70).
#[derive(Debug, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct VisualPrototype {
    /// Number of nodes (the length of each node array).
    pub nodes_count: U32,
    /// Padding; not read.
    pub pad0: U32,
    /// → `u32[nodes_count]`
    pub name_map_name_ids_ptr: I64,
    /// → `u16[nodes_count]`
    pub name_map_node_ids_ptr: I64,
    /// → `u32[nodes_count]`
    pub name_ids_ptr: I64,
    /// → `f32[16][nodes_count]`, column-major
    pub matrices_ptr: I64,
    /// → `u16[nodes_count]`, 0xFFFF = root
    pub parent_ids_ptr: I64,
    /// selfId of the `.geometry` file.
    pub merged_geometry_path_id: U64,
    /// The `underwater` flag, 0 or 1 (meaning not verified).
    pub underwater: u8,
    /// The `abovewater` flag, 0 or 1 (meaning not verified).
    pub abovewater: u8,
    /// Number of [`RenderSet`] records at `render_sets_ptr`.
    pub render_sets_count: U16,
    /// Number of [`Lod`] records at `lods_ptr`.
    pub lods_count: u8,
    /// Padding; not read.
    pub pad1: [u8; 3],
    /// Bounding box minimum x, y, z.
    pub bbox_min: [F32; 3],
    /// Padding; not read.
    pub pad2: U32,
    /// Bounding box maximum x, y, z.
    pub bbox_max: [F32; 3],
    /// Padding; not read.
    pub pad3: U32,
    /// → `RenderSet[render_sets_count]`
    pub render_sets_ptr: I64,
    /// → `Lod[lods_count]`
    pub lods_ptr: I64,
}

/// A visual's render set (0x28).
#[derive(Debug, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct RenderSet {
    /// Name of the render set, a strings-map key (MurmurHash3).
    pub name_id: U32,
    /// Name of the material, a strings-map key (MurmurHash3).
    pub material_name_id: U32,
    /// A `.geometry` MappingEntry id (vertices).
    pub vertices_mapping_id: U32,
    /// A `.geometry` MappingEntry id (indices).
    pub indices_mapping_id: U32,
    /// selfId of the `.mfm` material.
    pub material_mfm_path_id: U64,
    /// Non-zero when the render set is skinned (its vertices carry bones).
    pub skinned: u8,
    /// Number of node name ids at `node_name_ids_ptr`.
    pub nodes_count: u8,
    /// Padding; not read.
    pub pad: [u8; 6],
    /// → `u32[nodes_count]`
    pub node_name_ids_ptr: I64,
}

/// A visual's level of detail (0x10).
#[derive(Debug, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct Lod {
    /// The LOD's `extent` (presumably the distance up to which it is used; not verified).
    pub extent: F32,
    /// Non-zero when this LOD casts shadows.
    pub casts_shadow: u8,
    /// Padding; not read.
    pub pad: u8,
    /// Number of render-set name ids at `render_set_names_ptr`.
    pub render_set_names_count: U16,
    /// → `u32[render_set_names_count]`
    pub render_set_names_ptr: I64,
}

/// MaterialPrototype (0x78).
#[derive(Debug, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct MaterialPrototype {
    /// Number of properties (the length of the name and id arrays).
    pub property_count: U16,
    /// Element counts of the nine typed arrays (bool, int, uint, float, texture, vec2, vec3,
    /// vec4, mat4).
    pub counts: [u8; 9],
    /// Padding; not read.
    pub pad: [u8; 5],
    /// → `u32[property_count]`
    pub property_name_ids_ptr: I64,
    /// → `u16[property_count]`: low 4 bits type, high 12 bits index in that type's array
    pub property_ids_ptr: I64,
    /// One pointer per typed array, in the order of `counts`.
    pub values_ptrs: [I64; 9],
    /// selfId of the material's effect (`.fx`) file.
    pub fx_path_id: U64,
    /// Collision flags, as stored (meaning not known).
    pub collision_flags: U32,
    /// Sort order when drawing.
    pub sort_order: I32,
}

/// Offset of `MaterialPrototype.values_ptrs[0]`.
pub const MATERIAL_VALUES_PTRS: usize = 0x20;

/// ModelPrototype, current layout (0x28).
#[derive(Debug, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct ModelPrototype {
    /// selfId of the model's visual.
    pub visual_resource_id: U64,
    /// Number of skeleton-extender ids at `skeleton_extender_ids_ptr`.
    pub skeleton_extender_count: u8,
    /// The model's misc type, as stored (meaning not known).
    pub misc_type: u8,
    /// Number of animation ids at `animations_ptr`.
    pub animations_count: u8,
    /// Number of [`Dye`] records at `dyes_ptr`.
    pub dyes_count: u8,
    /// Padding; not read.
    pub pad: U32,
    /// → `u64[skeleton_extender_count]`
    pub skeleton_extender_ids_ptr: I64,
    /// → `u64[animations_count]`
    pub animations_ptr: I64,
    /// → `Dye[dyes_count]`
    pub dyes_ptr: I64,
}

/// ModelPrototype, older layout (0x20, schema 3601929577).
#[derive(Debug, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct ModelPrototypeV1 {
    /// selfId of the model's visual.
    pub visual_resource_id: U64,
    /// The model's misc type, as stored (meaning not known).
    pub misc_type: u8,
    /// Number of animation ids at `animations_ptr`.
    pub animations_count: u8,
    /// Number of [`Dye`] records at `dyes_ptr`.
    pub dyes_count: u8,
    /// Padding; not read.
    pub pad: [u8; 5],
    /// → `u64[animations_count]`
    pub animations_ptr: I64,
    /// → `Dye[dyes_count]`
    pub dyes_ptr: I64,
}

/// A model's dye (0x20).
#[derive(Debug, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct Dye {
    /// The dye's matter id, a strings-map key.
    pub matter_id: U32,
    /// Id of what the dye replaces, a strings-map key.
    pub replaces_id: U32,
    /// Number of tints (the length of both tint arrays).
    pub tints_count: U32,
    /// Padding; not read.
    pub pad: U32,
    /// → `u32[tints_count]`
    pub tint_name_ids_ptr: I64,
    /// → `u64[tints_count]`
    pub tint_material_ids_ptr: I64,
}

/// SkeletonExtenderPrototype (0x20).
#[derive(Debug, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct SkeletonExtenderPrototype {
    /// Flag as stored (meaning not known).
    pub flag: U16,
    /// Number of nodes (the length of each node array).
    pub node_count: U16,
    /// Padding; not read.
    pub pad: U32,
    /// → `u32[node_count]`
    pub name_ids_ptr: I64,
    /// → `u32[node_count]`
    pub parent_name_ids_ptr: I64,
    /// → `f32[16][node_count]`
    pub matrices_ptr: I64,
}

/// A keyframed animation (0x20): period, repeat flag, and a counted array of points.
#[derive(Debug, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct Animation {
    /// Length of one cycle (`period`).
    pub period: F32,
    /// Non-zero when the animation repeats.
    pub repeated: u8,
    /// Padding; not read.
    pub pad0: [u8; 11],
    /// Number of keyframes at `points_ptr`.
    pub points_count: I32,
    /// Padding; not read.
    pub pad1: U32,
    /// Relative to the inner struct at +0x10.
    pub points_ptr: I64,
}

/// Offset of the inner `{count, ptr}` struct within [`Animation`], the base of `points_ptr`.
pub const ANIMATION_POINTS: usize = 0x10;
/// Offset of `Animation.points_ptr`.
pub const ANIMATION_POINTS_PTR: usize = 0x18;

/// A colour keyframe (0x14).
#[derive(Debug, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct ColorPoint {
    /// When the keyframe applies, within the period.
    pub time: F32,
    /// Colour RGBA.
    pub value: [F32; 4],
}

/// A scalar keyframe (0x08).
#[derive(Debug, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct ScalarPoint {
    /// When the keyframe applies, within the period.
    pub time: F32,
    /// The value (a radius).
    pub value: F32,
}

/// PointLightPrototype (0x70).
#[derive(Debug, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct PointLightPrototype {
    /// How the colour changes over time (used when `animated_color` is set).
    pub color_animation: Animation,
    /// How the radius changes over time (used when `animated_radius` is set).
    pub radius_animation: Animation,
    /// Colour RGBA.
    pub color: [F32; 4],
    /// Position relative to the owner, x, y, z.
    pub local_position: [F32; 3],
    /// Padding; not read.
    pub pad0: U32,
    /// Radius of the light.
    pub radius: F32,
    /// The `minQuality` setting, as stored (presumably the lowest graphics quality that shows the
    /// light).
    pub min_quality: U32,
    /// Non-zero when `color_animation` applies.
    pub animated_color: u8,
    /// Non-zero when `radius_animation` applies.
    pub animated_radius: u8,
    /// Padding; not read.
    pub pad1: [u8; 6],
}

/// Offset of `PointLightPrototype.radius_animation`.
pub const POINT_LIGHT_RADIUS_ANIMATION: usize = 0x20;

/// VelocityFieldPrototype (0x18).
#[derive(Debug, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct VelocityFieldPrototype {
    /// Grid size x, y, z.
    pub dimensions: [U32; 3],
    /// Number of velocity values at `velocities_ptr`.
    pub velocities_count: U32,
    /// → `u16[velocities_count]`
    pub velocities_ptr: I64,
}

/// EffectPrototype (0x10).
#[derive(Debug, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct EffectPrototype {
    /// Longest emission time of the effect's systems.
    pub max_emitting_duration: F32,
    /// Number of systems at `systems_ptr`.
    pub systems_count: U32,
    /// → `System[systems_count]`, 0x1C8 bytes each (undecoded)
    pub systems_ptr: I64,
}

/// A visual node's stored parent index when it has none (a root).
pub const NO_PARENT: u16 = 0xFFFF;

/// Size of one effect system record (kept raw).
pub const EFFECT_SYSTEM_SIZE: usize = 0x1C8;

/// EffectPresetPrototype (0x10).
#[derive(Debug, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct EffectPresetPrototype {
    /// High 64 bits of the preset's id.
    pub high_id: U64,
    /// Low 64 bits of the preset's id.
    pub low_id: U64,
}

/// EffectMetadataPrototype (0x10).
#[derive(Debug, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct EffectMetadataPrototype {
    /// Number of [`Channel`] records at `channels_ptr`.
    pub count: U64,
    /// → `Channel[count]`
    pub channels_ptr: I64,
}

/// An effect metadata channel (0x20).
#[derive(Debug, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct Channel {
    /// Length of the channel's name in bytes.
    pub name_len: U32,
    /// Padding; not read.
    pub pad: U32,
    /// → `char[name_len]`
    pub name_ptr: I64,
    /// Lowest value.
    pub min: F32,
    /// Highest value.
    pub max: F32,
    /// Default value.
    pub default: F32,
    /// Kind of channel, as stored (meaning not known).
    pub kind: U32,
}

/// AtlasContourProto (0x10).
#[derive(Debug, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct AtlasContourProto {
    /// Number of [`Contour`] records at `contours_ptr` (one per frame).
    pub frame_count: I32,
    /// Padding; not read.
    pub pad: U32,
    /// → `Contour[frame_count]`
    pub contours_ptr: I64,
}

/// One frame's contour (0x10).
#[derive(Debug, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct Contour {
    /// Number of [`Point`] records at `points_ptr`.
    pub count: I32,
    /// Padding; not read.
    pub pad: U32,
    /// → `Point[count]`
    pub points_ptr: I64,
}

/// A contour point (0x08).
#[derive(Debug, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct Point {
    /// x.
    pub x: F32,
    /// y.
    pub y: F32,
}

/// A 4×4 matrix, column-major (0x40).
pub type Matrix = [F32; 16];

// The sizes the notes give each struct; a layout change fails the build, not a test.
const _: () = {
    use core::mem::size_of;
    assert!(size_of::<Header>() == 0x10);
    assert!(size_of::<BodyHeader>() == 0x60);
    assert!(size_of::<StringBucket>() == 8);
    assert!(size_of::<PrototypeBucket>() == 16);
    assert!(size_of::<PathEntry>() == 0x20);
    assert!(size_of::<DatabaseEntry>() == 0x18);
    assert!(size_of::<BlobHeader>() == 0x10);
    assert!(size_of::<VisualPrototype>() == 0x70);
    assert!(size_of::<RenderSet>() == 0x28);
    assert!(size_of::<Lod>() == 0x10);
    assert!(size_of::<MaterialPrototype>() == 0x78);
    assert!(size_of::<ModelPrototype>() == 0x28);
    assert!(size_of::<ModelPrototypeV1>() == 0x20);
    assert!(size_of::<Dye>() == 0x20);
    assert!(size_of::<SkeletonExtenderPrototype>() == 0x20);
    assert!(size_of::<Animation>() == 0x20);
    assert!(size_of::<ColorPoint>() == 0x14);
    assert!(size_of::<ScalarPoint>() == 0x08);
    assert!(size_of::<PointLightPrototype>() == 0x70);
    assert!(size_of::<VelocityFieldPrototype>() == 0x18);
    assert!(size_of::<EffectPrototype>() == 0x10);
    assert!(size_of::<EffectPresetPrototype>() == 0x10);
    assert!(size_of::<EffectMetadataPrototype>() == 0x10);
    assert!(size_of::<Channel>() == 0x20);
    assert!(size_of::<AtlasContourProto>() == 0x10);
    assert!(size_of::<Contour>() == 0x10);
    assert!(size_of::<Point>() == 0x08);
};

//! On-disk structs of a WAP32 `.wwd` level, exactly as stored: little-endian, alignment 1 (objects
//! sit at odd offsets in real files), borrowed straight out of the file or the inflated image.
//!
//! Fields the format leaves unexplained keep the names `unknown*` and are exposed as stored: real
//! files are not always zero there (`Header::unknown3` is 2 in one real level).

use zerocopy::little_endian::{I32, U32};
use zerocopy::{FromBytes, Immutable, IntoBytes, KnownLayout, Unaligned};

/// The header's size, its `signature` in every good file, and where the main block starts.
pub const HEADER_SIZE: usize = 1524;
/// Plane header size (also stored in each plane header's `block_size`).
pub const PLANE_HEADER_SIZE: usize = 160;
/// Size of an object's fixed part; its four strings follow.
pub const OBJECT_FIXED_SIZE: usize = 284;
/// Size of the tile-property table's header.
pub const TILE_PROPERTIES_HEADER_SIZE: usize = 32;

/// `Header::flags`: objects use z coordinates.
pub const FLAG_USE_Z_COORDS: u32 = 0x1;
/// `Header::flags`: the main block is a zlib stream.
pub const FLAG_COMPRESS: u32 = 0x2;

/// Offsets of header fields, for error reports.
pub const HEADER_FLAGS: usize = 0x8;
pub const HEADER_NUM_PLANES: usize = 0x2DC;
pub const HEADER_OFFSET_PLANES: usize = 0x2E0;
pub const HEADER_OFFSET_TILE_PROPERTIES: usize = 0x2E4;
pub const HEADER_DECOMPRESSED_SIZE: usize = 0x2E8;

/// Offsets of plane header fields, relative to the plane header.
pub const PLANE_TILES_WIDE: usize = 0x60;
pub const PLANE_NUM_IMAGE_SETS: usize = 0x7C;
pub const PLANE_OFFSET_OBJECTS: usize = 0x8C;

/// The 1524-byte file header. Strings are 8-bit code-page text in fixed slots.
#[derive(Debug, Clone, Copy, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct Header {
    /// 0x5F4 (the header size) in every good file.
    pub signature: U32,
    pub unknown1: U32,
    /// [`FLAG_USE_Z_COORDS`], [`FLAG_COMPRESS`].
    pub flags: U32,
    pub unknown2: U32,
    pub name: [u8; 64],
    pub author: [u8; 64],
    pub birth: [u8; 64],
    pub rez_file: [u8; 256],
    pub image_dir: [u8; 128],
    pub pal_rez: [u8; 128],
    pub start_x: I32,
    pub start_y: I32,
    pub unknown3: U32,
    pub num_planes: U32,
    /// Absolute offset in the image `header ‖ main block` (1524 in real files).
    pub offset_planes: U32,
    /// Absolute offset in the image `header ‖ main block`.
    pub offset_tile_properties: U32,
    /// The inflated main block's length in compressed files; 0 in uncompressed ones.
    pub decompressed_mainblock_size: U32,
    pub checksum: U32,
    pub unknown4: U32,
    pub launch_app: [u8; 128],
    pub image_sets: [[u8; 128]; 4],
    pub prefixes: [[u8; 32]; 4],
}

/// A plane header (160 bytes).
#[derive(Debug, Clone, Copy, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct PlaneHeader {
    /// 160 in real files.
    pub block_size: U32,
    pub unknown1: U32,
    /// See [`PlaneFlags`](super::PlaneFlags).
    pub flags: U32,
    pub unknown2: U32,
    pub name: [u8; 64],
    pub width_px: I32,
    pub height_px: I32,
    pub tile_width: I32,
    pub tile_height: I32,
    pub tiles_wide: I32,
    pub tiles_high: I32,
    pub unknown3: U32,
    pub unknown4: U32,
    pub movement_x_percent: I32,
    pub movement_y_percent: I32,
    pub fill_color: I32,
    pub num_image_sets: U32,
    pub num_objects: U32,
    pub offset_tiles: U32,
    pub offset_image_sets: U32,
    /// 0 when the plane has no objects.
    pub offset_objects: U32,
    pub z_coord: I32,
    pub unknown5: U32,
    pub unknown6: U32,
    pub unknown7: U32,
}

/// A rectangle as stored: left, top, right, bottom.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned,
)]
#[repr(C)]
pub struct Rect {
    pub left: I32,
    pub top: I32,
    pub right: I32,
    pub bottom: I32,
}

impl Rect {
    /// `[left, top, right, bottom]`.
    pub fn get(&self) -> [i32; 4] {
        [
            self.left.get(),
            self.top.get(),
            self.right.get(),
            self.bottom.get(),
        ]
    }

    /// A rectangle from `[left, top, right, bottom]`.
    pub fn new(r: [i32; 4]) -> Self {
        Rect {
            left: r[0].into(),
            top: r[1].into(),
            right: r[2].into(),
            bottom: r[3].into(),
        }
    }
}

/// An object's fixed part (284 bytes); the name, logic, image-set and animation strings follow it,
/// their lengths in `size_*` (no NUL terminators).
#[derive(Debug, Clone, Copy, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct Object {
    pub id: I32,
    pub size_name: U32,
    pub size_logic: U32,
    pub size_image_set: U32,
    pub size_animation: U32,
    pub location_x: I32,
    pub location_y: I32,
    pub location_z: I32,
    pub location_i: I32,
    pub flags_add: U32,
    pub flags_dynamic: U32,
    pub flags_draw: U32,
    pub flags_user: U32,
    pub score: I32,
    pub points: I32,
    pub powerup: I32,
    pub damage: I32,
    pub smarts: I32,
    pub health: I32,
    pub rect_move: Rect,
    pub rect_hit: Rect,
    pub rect_attack: Rect,
    pub rect_clip: Rect,
    pub rect_user1: Rect,
    pub rect_user2: Rect,
    pub user: [I32; 8],
    pub min_x: I32,
    pub min_y: I32,
    pub max_x: I32,
    pub max_y: I32,
    pub speed_x: I32,
    pub speed_y: I32,
    pub tweak_x: I32,
    pub tweak_y: I32,
    pub counter: I32,
    pub speed: I32,
    pub width: I32,
    pub height: I32,
    pub direction: I32,
    pub face_dir: I32,
    pub time_delay: I32,
    pub frame_delay: I32,
    pub object_type: U32,
    pub flags_hit_type: U32,
    pub move_res_x: U32,
    pub move_res_y: U32,
}

/// The tile-property table's header: `[32, 0, count, 0, 0, 0, 0, 0]` in real files.
#[derive(Debug, Clone, Copy, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct TilePropertiesHeader {
    pub unknown1: U32,
    pub unknown2: U32,
    pub count: U32,
    pub unknown: [U32; 5],
}

/// Tile property types.
pub const TILE_SINGLE: u32 = 1;
pub const TILE_DOUBLE: u32 = 2;
pub const TILE_MASK: u32 = 3;

/// The 16 bytes every tile property starts with.
#[derive(Debug, Clone, Copy, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct TilePropertyBase {
    /// [`TILE_SINGLE`], [`TILE_DOUBLE`] or [`TILE_MASK`].
    pub tile_type: U32,
    pub unknown1: U32,
    pub width: U32,
    pub height: U32,
}

/// What follows the base of a double tile property (24 bytes).
#[derive(Debug, Clone, Copy, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct TilePropertyDouble {
    pub attribute_outside: I32,
    pub attribute_inside: I32,
    pub rect: Rect,
}

/// WapMap's metadata block (see [`WapMapMeta`](super::WapMapMeta)): the opening tag, 9 bytes, no NUL.
pub const WM_META_OPEN: &[u8; 9] = b"<wm_meta>";
/// The closing tag, 10 bytes, no NUL.
pub const WM_META_CLOSE: &[u8; 10] = b"</wm_meta>";

/// WapMap's block types (its `WWDx_BlockType`, values in declaration order).
pub const WM_BLOCK_META_INFO: u8 = 0;
pub const WM_BLOCK_META_END_INFO: u8 = 1;
pub const WM_BLOCK_HEADER: u8 = 2;
pub const WM_BLOCK_GUIDES: u8 = 3;

/// The 5 bytes before each block of WapMap's metadata: a type byte and the length of the data that
/// follows (an `int` in WapMap; read unsigned, so a negative length is out of bounds).
#[derive(Debug, Clone, Copy, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct WmBlockHeader {
    /// [`WM_BLOCK_META_INFO`], [`WM_BLOCK_META_END_INFO`], [`WM_BLOCK_HEADER`],
    /// [`WM_BLOCK_GUIDES`]; other values are blocks WapMap skips by their length.
    pub block_type: u8,
    pub length: U32,
}

/// One guide line of WapMap's `Guides` block (5 bytes): WapMap's `bOrient` (1 horizontal,
/// 0 vertical) and `iPos`.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned,
)]
#[repr(C)]
pub struct WmGuide {
    pub orientation: u8,
    pub position: I32,
}

const _: () = {
    assert!(core::mem::size_of::<Header>() == HEADER_SIZE);
    assert!(core::mem::size_of::<PlaneHeader>() == PLANE_HEADER_SIZE);
    assert!(core::mem::size_of::<Object>() == OBJECT_FIXED_SIZE);
    assert!(core::mem::size_of::<TilePropertiesHeader>() == TILE_PROPERTIES_HEADER_SIZE);
    assert!(core::mem::size_of::<TilePropertyBase>() == 16);
    assert!(core::mem::size_of::<TilePropertyDouble>() == 24);
    assert!(core::mem::size_of::<WmBlockHeader>() == 5);
    assert!(core::mem::size_of::<WmGuide>() == 5);
    assert!(core::mem::size_of::<Rect>() == 16);
};

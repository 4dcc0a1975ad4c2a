//! On-disk structs of a WAP32 `.wwd` level, exactly as stored: little-endian, alignment 1 (objects
//! sit at odd offsets in real files), borrowed straight out of the file or the inflated image.
//!
//! Fields the format leaves unexplained keep the names `unknown*` and are exposed as stored: real
//! files are not always zero there (`Header::unknown3` is 2 in one real level).

use zerocopy::little_endian::{I32, U32};
use zerocopy::{FromBytes, Immutable, IntoBytes, KnownLayout, Unaligned};

use core::mem::offset_of;

use super::field::fields;

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
pub const HEADER_FLAGS: usize = offset_of!(Header, flags);
/// Offset of `Header::num_planes`.
pub const HEADER_NUM_PLANES: usize = offset_of!(Header, num_planes);
/// Offset of `Header::offset_planes`.
pub const HEADER_OFFSET_PLANES: usize = offset_of!(Header, offset_planes);
/// Offset of `Header::offset_tile_properties`.
pub const HEADER_OFFSET_TILE_PROPERTIES: usize = offset_of!(Header, offset_tile_properties);
/// Offset of `Header::decompressed_mainblock_size`.
pub const HEADER_DECOMPRESSED_SIZE: usize = offset_of!(Header, decompressed_mainblock_size);

/// Offsets of plane header fields, relative to the plane header.
pub const PLANE_TILES_WIDE: usize = offset_of!(PlaneHeader, tiles_wide);
/// Offset of `PlaneHeader::tiles_high`.
pub const PLANE_TILES_HIGH: usize = offset_of!(PlaneHeader, tiles_high);
/// Offset of `PlaneHeader::num_image_sets`.
pub const PLANE_NUM_IMAGE_SETS: usize = offset_of!(PlaneHeader, num_image_sets);
/// Offset of `PlaneHeader::offset_objects`.
pub const PLANE_OFFSET_OBJECTS: usize = offset_of!(PlaneHeader, offset_objects);

fields! {
/// The 1524-byte file header. Strings are 8-bit code-page text in fixed slots.
#[derive(Debug, Clone, Copy, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct Header {
    /// 0x5F4 (the header size) in every good file.
    pub signature: U32,
    /// Unknown; 0 in the seed's files.
    pub unknown1: U32,
    /// [`FLAG_USE_Z_COORDS`], [`FLAG_COMPRESS`].
    pub flags: U32,
    /// Unknown; 0 in the seed's files.
    pub unknown2: U32,
    /// The level's name (NUL-terminated in its 64-byte slot, 8-bit code-page text).
    pub name: [u8; 64],
    /// The level's author (64-byte slot).
    pub author: [u8; 64],
    /// The `birth` text (64-byte slot; the seed does not say what it holds).
    pub birth: [u8; 64],
    /// Path of the `.REZ` resource archive the level's graphics come from (256-byte slot).
    pub rez_file: [u8; 256],
    /// The image directory inside the resources (128-byte slot).
    pub image_dir: [u8; 128],
    /// Path of the palette in the resources (128-byte slot).
    pub pal_rez: [u8; 128],
    /// The player's start position, x in pixels of the main plane.
    pub start_x: I32,
    /// The player's start position, y in pixels of the main plane.
    pub start_y: I32,
    /// Unknown; 0 in the seed, but 2 in one real level (never required to be 0).
    pub unknown3: U32,
    /// Number of plane headers at `offset_planes` (Claw: 3, Gruntz: 1–2).
    pub num_planes: U32,
    /// Absolute offset in the image `header ‖ main block` (1524 in real files).
    pub offset_planes: U32,
    /// Absolute offset in the image `header ‖ main block`.
    pub offset_tile_properties: U32,
    /// The inflated main block's length in compressed files; 0 in uncompressed ones.
    pub decompressed_mainblock_size: U32,
    /// Sum over the main block as stored; reported, never verified (see
    /// [`WwdView::checksum`](super::WwdView::checksum)).
    pub checksum: U32,
    /// Unknown; 0 in the seed's files.
    pub unknown4: U32,
    /// The program the editor launches to test the level (128-byte slot).
    pub launch_app: [u8; 128],
    /// Image-set paths 1–4 (128-byte slots each).
    pub image_sets: [[u8; 128]; 4],
    /// The prefixes naming image sets 1–4 in the game (`LEVEL1`, `AREA1`, ...; 32-byte slots).
    pub prefixes: [[u8; 32]; 4],
}
}

fields! {
/// A plane header (160 bytes).
#[derive(Debug, Clone, Copy, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct PlaneHeader {
    /// 160 in real files.
    pub block_size: U32,
    /// Unknown; 0 in the seed's files.
    pub unknown1: U32,
    /// See [`PlaneFlags`](super::PlaneFlags).
    pub flags: U32,
    /// Unknown; 0 in the seed's files.
    pub unknown2: U32,
    /// The plane's name (64-byte slot; one real level has Windows-1250 text here).
    pub name: [u8; 64],
    /// Width in pixels (`tiles_wide * tile_width`).
    pub width_px: I32,
    /// Height in pixels (`tiles_high * tile_height`).
    pub height_px: I32,
    /// Tile width in pixels (64 in Claw, 32 in Gruntz).
    pub tile_width: I32,
    /// Tile height in pixels (64 in Claw, 32 in Gruntz).
    pub tile_height: I32,
    /// Columns of the tile grid.
    pub tiles_wide: I32,
    /// Rows of the tile grid.
    pub tiles_high: I32,
    /// Unknown; 0 in the seed's files.
    pub unknown3: U32,
    /// Unknown; 0 in the seed's files.
    pub unknown4: U32,
    /// Horizontal scroll speed relative to the main plane, in percent (parallax).
    pub movement_x_percent: I32,
    /// Vertical scroll speed relative to the main plane, in percent (parallax).
    pub movement_y_percent: I32,
    /// Palette index drawn for tiles `0xEEEEEEEE` (filled).
    pub fill_color: I32,
    /// Number of NUL-terminated image-set names at `offset_image_sets`.
    pub num_image_sets: U32,
    /// Number of objects at `offset_objects` (only the main plane has some in real files).
    pub num_objects: U32,
    /// Absolute offset (image `header ‖ main block`) of the `tiles_wide * tiles_high` u32 tiles.
    pub offset_tiles: U32,
    /// Absolute offset (image `header ‖ main block`) of the image-set names.
    pub offset_image_sets: U32,
    /// 0 when the plane has no objects.
    pub offset_objects: U32,
    /// The plane's drawing depth.
    pub z_coord: I32,
    /// Unknown; 0 in the seed's files.
    pub unknown5: U32,
    /// Unknown; 0 in the seed's files.
    pub unknown6: U32,
    /// Unknown; 0 in the seed's files.
    pub unknown7: U32,
}
}

/// A rectangle as stored: left, top, right, bottom.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned,
)]
#[repr(C)]
pub struct Rect {
    /// Left edge (x).
    pub left: I32,
    /// Top edge (y).
    pub top: I32,
    /// Right edge (x).
    pub right: I32,
    /// Bottom edge (y).
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

fields! {
/// An object's fixed part (284 bytes); the name, logic, image-set and animation strings follow it,
/// their lengths in `size_*` (no NUL terminators).
#[derive(Debug, Clone, Copy, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct Object {
    /// The object's id in the level.
    pub id: I32,
    /// Length in bytes of the name string that follows the fixed part.
    pub size_name: U32,
    /// Length in bytes of the logic string (the game's behaviour, e.g. `Officer`).
    pub size_logic: U32,
    /// Length in bytes of the image-set string.
    pub size_image_set: U32,
    /// Length in bytes of the animation string.
    pub size_animation: U32,
    /// Position x in pixels of the plane.
    pub location_x: I32,
    /// Position y in pixels of the plane.
    pub location_y: I32,
    /// Drawing depth (used when the header flags say `use z coords`).
    pub location_z: I32,
    /// `location_i`, as the seed names it (meaning not described).
    pub location_i: I32,
    /// Add flags: 0x01 difficult, 0x02 eye candy, 0x04 high detail, 0x08 multiplayer, 0x10 extra
    /// memory, 0x20 fast cpu.
    pub flags_add: U32,
    /// Dynamic flags: 0x1 no hit, 0x2 always active, 0x4 safe, 0x8 auto hit damage.
    pub flags_dynamic: U32,
    /// Draw flags: 0x1 no draw, 0x2 mirror, 0x4 invert, 0x8 flash.
    pub flags_draw: U32,
    /// User flags 1–12 (bits 0x001..0x800), meaning set by the object's logic.
    pub flags_user: U32,
    /// Score value, meaning set by the logic.
    pub score: I32,
    /// Points value, meaning set by the logic.
    pub points: I32,
    /// Power-up value, meaning set by the logic.
    pub powerup: I32,
    /// Damage value, meaning set by the logic.
    pub damage: I32,
    /// Smarts value, meaning set by the logic.
    pub smarts: I32,
    /// Health value, meaning set by the logic.
    pub health: I32,
    /// The move rectangle (pixels).
    pub rect_move: Rect,
    /// The hit rectangle (pixels).
    pub rect_hit: Rect,
    /// The attack rectangle (pixels).
    pub rect_attack: Rect,
    /// The clip rectangle (pixels).
    pub rect_clip: Rect,
    /// User rectangle 1, meaning set by the logic.
    pub rect_user1: Rect,
    /// User rectangle 2, meaning set by the logic.
    pub rect_user2: Rect,
    /// User values 1–8, meaning set by the logic.
    pub user: [I32; 8],
    /// Minimum x, meaning set by the logic.
    pub min_x: I32,
    /// Minimum y, meaning set by the logic.
    pub min_y: I32,
    /// Maximum x, meaning set by the logic.
    pub max_x: I32,
    /// Maximum y, meaning set by the logic.
    pub max_y: I32,
    /// Speed along x.
    pub speed_x: I32,
    /// Speed along y.
    pub speed_y: I32,
    /// Tweak x, meaning set by the logic.
    pub tweak_x: I32,
    /// Tweak y, meaning set by the logic.
    pub tweak_y: I32,
    /// Counter, meaning set by the logic.
    pub counter: I32,
    /// Speed.
    pub speed: I32,
    /// Width, meaning set by the logic.
    pub width: I32,
    /// Height, meaning set by the logic.
    pub height: I32,
    /// Direction, meaning set by the logic.
    pub direction: I32,
    /// Facing direction.
    pub face_dir: I32,
    /// Time delay.
    pub time_delay: I32,
    /// Delay between animation frames.
    pub frame_delay: I32,
    /// The object's type, a single value: 0x001 generic, 0x002 player, 0x004 enemy, 0x008 powerup,
    /// 0x010 shot, 0x020 p-shot, 0x040 e-shot, 0x080 special, 0x100..0x400 user1–4 (user3 is 0x300:
    /// not a bit mask).
    pub object_type: U32,
    /// What the object hits: flags with the values of `object_type`, or 0xFFFFFFFF for all
    /// (user1/user2 overlap user3's 0x300 and are unreliable).
    pub flags_hit_type: U32,
    /// Move resolution x.
    pub move_res_x: U32,
    /// Move resolution y.
    pub move_res_y: U32,
}
}

fields! {
/// The tile-property table's header: `[32, 0, count, 0, 0, 0, 0, 0]` in real files.
#[derive(Debug, Clone, Copy, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct TilePropertiesHeader {
    /// 32 (the header's size) in real files.
    pub unknown1: U32,
    /// Unknown; 0 in real files.
    pub unknown2: U32,
    /// Number of tile properties that follow; a property's index is its tile id.
    pub count: U32,
    /// Unknown; 0 in real files.
    pub unknown: [U32; 5],
}
}

// Tile property types (`TilePropertyBase::tile_type`).
/// `TilePropertyBase::tile_type`: one attribute for the whole tile (all Gruntz tiles), 20 bytes.
pub const TILE_SINGLE: u32 = 1;
/// `TilePropertyBase::tile_type`: an inside attribute in a rectangle and an outside one, 40 bytes.
pub const TILE_DOUBLE: u32 = 2;
/// `TilePropertyBase::tile_type`: one attribute per pixel, 16 + width·height bytes (occurs in real
/// custom Claw levels).
pub const TILE_MASK: u32 = 3;

fields! {
/// The 16 bytes every tile property starts with.
#[derive(Debug, Clone, Copy, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct TilePropertyBase {
    /// [`TILE_SINGLE`], [`TILE_DOUBLE`] or [`TILE_MASK`].
    pub tile_type: U32,
    /// Unknown; 0 in the seed's files.
    pub unknown1: U32,
    /// Tile width in pixels (the mask's width for [`TILE_MASK`]).
    pub width: U32,
    /// Tile height in pixels (the mask's height for [`TILE_MASK`]).
    pub height: U32,
}
}

/// What follows the base of a double tile property (24 bytes).
#[derive(Debug, Clone, Copy, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct TilePropertyDouble {
    /// Attribute outside `rect` (0 clear, 1 solid, 2 ground, 3 climb, 4 death).
    pub attribute_outside: I32,
    /// Attribute inside `rect` (same values).
    pub attribute_inside: I32,
    /// The inside area, in pixels of the tile.
    pub rect: Rect,
}

/// WapMap's metadata block (see [`WapMapMeta`](super::WapMapMeta)): the opening tag, 9 bytes, no NUL.
pub const WM_META_OPEN: &[u8; 9] = b"<wm_meta>";
/// The closing tag, 10 bytes, no NUL.
pub const WM_META_CLOSE: &[u8; 10] = b"</wm_meta>";

// WapMap's block types (its `WWDx_BlockType`, values in declaration order).
/// WapMap's `MetaInfo` block type.
pub const WM_BLOCK_META_INFO: u8 = 0;
/// WapMap's `MetaEndInfo` block type: the end of the metadata.
pub const WM_BLOCK_META_END_INFO: u8 = 1;
/// WapMap's `Header` block type.
pub const WM_BLOCK_HEADER: u8 = 2;
/// WapMap's `Guides` block type.
pub const WM_BLOCK_GUIDES: u8 = 3;

/// The 5 bytes before each block of WapMap's metadata: a type byte and the length of the data that
/// follows (an `int` in WapMap; read unsigned, so a negative length is out of bounds).
#[derive(Debug, Clone, Copy, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct WmBlockHeader {
    /// [`WM_BLOCK_META_INFO`], [`WM_BLOCK_META_END_INFO`], [`WM_BLOCK_HEADER`],
    /// [`WM_BLOCK_GUIDES`]; other values are blocks WapMap skips by their length.
    pub block_type: u8,
    /// Length in bytes of the block's data that follows.
    pub length: U32,
}

/// One guide line of WapMap's `Guides` block (5 bytes): WapMap's `bOrient` (1 horizontal,
/// 0 vertical) and `iPos`.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned,
)]
#[repr(C)]
pub struct WmGuide {
    /// 1 horizontal, 0 vertical (WapMap's `bOrient`).
    pub orientation: u8,
    /// Position of the guide line in pixels (WapMap's `iPos`).
    pub position: I32,
}

const _: () = {
    // The offsets the seed documents.
    assert!(HEADER_FLAGS == 0x8 && HEADER_NUM_PLANES == 0x2DC && HEADER_DECOMPRESSED_SIZE == 0x2E8);
    assert!(
        PLANE_TILES_WIDE == 0x60 && PLANE_NUM_IMAGE_SETS == 0x7C && PLANE_OFFSET_OBJECTS == 0x8C
    );
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

//! Claw / Gruntz levels to and from Tiled maps (TMX, the format the Tiled editor and the `tiled`
//! crate read), so that levels can be edited in a tile map editor and come back unchanged but for
//! the edits.
//!
//! The map, and where each part of the level goes:
//!
//! - **map properties**: every header field (text escaped as [`escape`](crate::wwd::escape) does),
//!   the tile-property table's header fields as `tile_properties.<field>`, and WapMap's metadata
//!   block as `wapmap_meta` (hex). The map's size and tile size are the main plane's.
//! - **one tile layer per plane**, in file order: the layer's size is the grid's, its properties
//!   every plane-header field and the image-set names as `image_set.0`, `image_set.1`, …
//!   Invisible tiles are empty cells (gid 0); filled tiles are the one tile of the `filled`
//!   tileset.
//! - **one tileset per image set of a plane** (properties `plane` and `set`), whose local tile ids
//!   are the level's tile indices; no images (the graphics live in the game's `.REZ` archive).
//!   The tile-property table goes on the main plane's first image set's tileset as tile
//!   properties (`type` single/double/mask, `width`, `height`, `unknown1`, then `attribute`, or
//!   `outside`, `inside`, `rect`, or `mask` as hex), marked with the tileset property
//!   `tile_properties`.
//! - **one object layer per plane with objects** (property `plane`): a point object per object at
//!   its location, its name as the object's name, its logic as its class, and every other field
//!   as a property.
//!
//! Fields the writer recomputes (offsets, counts, string lengths, the checksum and the
//! decompressed size) are left out. Reading a map back checks every value against its field and
//! names the layer, the cell or object, and the field of anything that does not fit.

mod export;
mod import;
mod xml;

pub use export::{TilesetImage, to_tmx, to_tmx_with_placeholders};
pub use import::from_tmx;

use crate::WriteError;

/// Header fields the writer recomputes: not exported, ignored on import.
const DERIVED_HEADER: &[&str] = &[
    "num_planes",
    "offset_planes",
    "offset_tile_properties",
    "decompressed_mainblock_size",
    "checksum",
];
/// Plane-header fields the writer recomputes or that the layer's size gives.
const DERIVED_PLANE: &[&str] = &[
    "block_size",
    "tiles_wide",
    "tiles_high",
    "num_image_sets",
    "num_objects",
    "offset_tiles",
    "offset_image_sets",
    "offset_objects",
];
/// Object fields the writer recomputes or that the object's position gives.
const DERIVED_OBJECT: &[&str] = &[
    "size_name",
    "size_logic",
    "size_image_set",
    "size_animation",
    "location_x",
    "location_y",
];
/// Tile-property fields the writer sets from the body.
const DERIVED_TILE: &[&str] = &["tile_type"];
/// Tile-property-table header fields the writer recomputes.
const DERIVED_TABLE: &[&str] = &["count"];

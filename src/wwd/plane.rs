//! Planes: a header, a grid of tiles, the names of the image sets the tiles come from, and (for the
//! main plane in real files) the objects.

use zerocopy::little_endian::U32;

use super::object::Objects;
use super::raw::{
    OBJECT_FIXED_SIZE, PLANE_NUM_IMAGE_SETS, PLANE_OFFSET_OBJECTS, PLANE_TILES_HIGH,
    PLANE_TILES_WIDE, PlaneHeader,
};
use super::text;
use crate::bytes::{Bytes, Cursor, Located, u64_of};
use crate::error::{Error, Result};

/// A plane's flags.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PlaneFlags(pub u32);

impl PlaneFlags {
    /// The main plane: the one the player moves in, the one with objects.
    pub const MAIN: u32 = 0x01;
    /// Not drawn.
    pub const NO_DRAW: u32 = 0x02;
    /// Repeats horizontally.
    pub const WRAP_X: u32 = 0x04;
    /// Repeats vertically.
    pub const WRAP_Y: u32 = 0x08;
    /// Tile size set automatically by the editor.
    pub const AUTO_TILE_SIZE: u32 = 0x10;

    /// The plane where the action takes place (exactly one per real level).
    pub const fn is_main(self) -> bool {
        self.0 & Self::MAIN != 0
    }
    /// [`PlaneFlags::NO_DRAW`] is set.
    pub const fn no_draw(self) -> bool {
        self.0 & Self::NO_DRAW != 0
    }
    /// [`PlaneFlags::WRAP_X`] is set.
    pub const fn wraps_x(self) -> bool {
        self.0 & Self::WRAP_X != 0
    }
    /// [`PlaneFlags::WRAP_Y`] is set.
    pub const fn wraps_y(self) -> bool {
        self.0 & Self::WRAP_Y != 0
    }
    /// [`PlaneFlags::AUTO_TILE_SIZE`] is set.
    pub const fn auto_tile_size(self) -> bool {
        self.0 & Self::AUTO_TILE_SIZE != 0
    }
}

/// A plane of a level.
#[derive(Debug, Clone, Copy)]
pub struct Plane<'a> {
    pub(crate) image: Bytes<'a>,
    /// The header and its offset in the image.
    pub(crate) raw: Located<'a, PlaneHeader>,
}

/// A tile as stored in a plane's grid.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tile {
    /// `0xFFFFFFFF`: nothing is drawn.
    Invisible,
    /// `0xEEEEEEEE`: filled with the plane's `fill_color`.
    Filled,
    /// A tile of an image set: the high 16 bits are the image-set index, the low 16 bits the tile
    /// index (the tile id that tile properties are indexed by).
    Image {
        /// Index into the plane's image-set names.
        set: u16,
        /// Tile index within the image set.
        index: u16,
    },
}

impl Tile {
    /// The stored value of [`Tile::Invisible`].
    pub const INVISIBLE: u32 = 0xFFFF_FFFF;
    /// The stored value of [`Tile::Filled`].
    pub const FILLED: u32 = 0xEEEE_EEEE;

    /// Classifies a stored tile value.
    pub const fn from_raw(value: u32) -> Tile {
        match value {
            Tile::INVISIBLE => Tile::Invisible,
            Tile::FILLED => Tile::Filled,
            v => Tile::Image {
                set: (v >> 16) as u16,
                index: v as u16,
            },
        }
    }
}

/// A plane's tile grid, borrowed: `tiles_wide × tiles_high` values, row by row from the top left.
#[derive(Debug, Clone, Copy)]
pub struct Tiles<'a> {
    wide: usize,
    high: usize,
    cells: &'a [U32],
}

impl<'a> Tiles<'a> {
    /// Tiles per row.
    pub const fn wide(&self) -> usize {
        self.wide
    }
    /// Rows.
    pub const fn high(&self) -> usize {
        self.high
    }
    /// The stored value at column `x`, row `y`.
    pub fn raw(&self, x: usize, y: usize) -> Option<u32> {
        if x >= self.wide || y >= self.high {
            return None;
        }
        Some(
            self.cells
                .get(y.checked_mul(self.wide)?.checked_add(x)?)?
                .get(),
        )
    }
    /// The tile at column `x`, row `y`.
    pub fn tile(&self, x: usize, y: usize) -> Option<Tile> {
        self.raw(x, y).map(Tile::from_raw)
    }
    /// The rows, top to bottom, each the borrowed stored values.
    pub fn rows(&self) -> impl ExactSizeIterator<Item = &'a [U32]> + 'a {
        let wide = self.wide.max(1);
        let cells = if self.wide == 0 { &[][..] } else { self.cells };
        let high = if self.wide == 0 { 0 } else { self.high };
        cells.chunks_exact(wide).take(high)
    }
    /// Every stored value in grid order.
    pub fn values(&self) -> impl ExactSizeIterator<Item = u32> + 'a {
        self.cells.iter().map(|c| c.get())
    }
}

impl<'a> Plane<'a> {
    /// Absolute offset of the plane header in the image `header ‖ main block`.
    pub const fn offset(&self) -> usize {
        self.raw.offset()
    }
    /// The stored header, every field (reserved ones included).
    pub const fn raw(&self) -> &'a PlaneHeader {
        self.raw.get()
    }
    /// The name's bytes (8-bit code-page text, up to the first NUL of its 64-byte slot).
    pub fn name(&self) -> &'a [u8] {
        text::fixed(&self.raw.get().name)
    }
    /// The plane's flags (0, 1 main, 4 wrap X, 12 wrap X+Y in real files).
    pub fn flags(&self) -> PlaneFlags {
        PlaneFlags(self.raw.flags.get())
    }
    /// Tile width in pixels (64 in Claw, 32 in Gruntz).
    pub fn tile_width(&self) -> i32 {
        self.raw.tile_width.get()
    }
    /// Tile height in pixels (64 in Claw, 32 in Gruntz).
    pub fn tile_height(&self) -> i32 {
        self.raw.tile_height.get()
    }
    /// Columns of the tile grid.
    pub fn tiles_wide(&self) -> i32 {
        self.raw.tiles_wide.get()
    }
    /// Rows of the tile grid.
    pub fn tiles_high(&self) -> i32 {
        self.raw.tiles_high.get()
    }
    /// Width in pixels (`tiles_wide × tile_width`).
    pub fn width_px(&self) -> i32 {
        self.raw.width_px.get()
    }
    /// Height in pixels (`tiles_high × tile_height`).
    pub fn height_px(&self) -> i32 {
        self.raw.height_px.get()
    }
    /// Palette index drawn for [`Tile::Filled`] tiles.
    pub fn fill_color(&self) -> i32 {
        self.raw.fill_color.get()
    }
    /// Drawing depth.
    pub fn z_coord(&self) -> i32 {
        self.raw.z_coord.get()
    }
    /// Number of image-set names.
    pub fn image_set_count(&self) -> u32 {
        self.raw.num_image_sets.get()
    }
    /// Number of objects the header declares.
    pub fn object_count(&self) -> u32 {
        self.raw.num_objects.get()
    }

    fn field(&self, offset: usize) -> u64 {
        u64_of(self.raw.field_offset(offset))
    }

    /// The tile grid. Its size must fit in the bytes after `offset_tiles`.
    pub fn tiles(&self) -> Result<Tiles<'a>> {
        let dimension = |v: i32, what: &'static str, at: usize| {
            usize::try_from(v).map_err(|_| {
                Error::invalid(self.field(at), what, v as u32 as u64, "negative tile count")
            })
        };
        let wide = dimension(
            self.tiles_wide(),
            "PlaneHeader.tiles_wide",
            PLANE_TILES_WIDE,
        )?;
        let high = dimension(
            self.tiles_high(),
            "PlaneHeader.tiles_high",
            PLANE_TILES_HIGH,
        )?;
        let count = wide.checked_mul(high).ok_or_else(|| {
            Error::invalid(
                self.field(PLANE_TILES_WIDE),
                "PlaneHeader.tiles_wide",
                u64_of(wide),
                "tiles_wide × tiles_high overflows",
            )
        })?;
        if count == 0 {
            return Ok(Tiles {
                wide,
                high,
                cells: &[],
            });
        }
        let at = self.raw.offset_tiles.get() as usize;
        let cells = self
            .image
            .read_slice::<U32>(at, count, "PlaneHeader.tiles")?;
        Ok(Tiles { wide, high, cells })
    }

    /// The names of the plane's image sets, each a NUL-terminated string after `offset_image_sets`.
    pub fn image_sets(&self) -> ImageSets<'a> {
        ImageSets {
            image: self.image,
            at: self.raw.offset_image_sets.get() as usize,
            remaining: self.image_set_count(),
            field: self.raw.field_offset(PLANE_NUM_IMAGE_SETS),
        }
    }

    /// The bytes a walk over the plane's tile grid, image-set names and objects covers: each part
    /// as far as it reads (a grid that does not fit, or objects with no offset, cover nothing; a
    /// name without its NUL covers the rest of the image). Objects count their 284-byte fixed
    /// parts, which is what bounds their walk. Walks the names; reads nothing else.
    pub(crate) fn extent(&self) -> usize {
        let tiles = self.tiles().map_or(0, |t| core::mem::size_of_val(t.cells));
        let mut names = self.image_sets();
        let mut name_bytes = 0usize;
        while let Some(name) = names.next() {
            name_bytes += match name {
                Ok(name) => name.len() + 1,
                // The failed search for a NUL went over everything after the name's start.
                Err(_) => self.image.len().saturating_sub(names.at),
            };
        }
        let objects = match self.object_count() as usize {
            0 => 0,
            _ if self.raw.offset_objects.get() == 0 => 0,
            count => count.saturating_mul(OBJECT_FIXED_SIZE).min(
                self.image
                    .len()
                    .saturating_sub(self.raw.offset_objects.get() as usize),
            ),
        };
        tiles.saturating_add(name_bytes).saturating_add(objects)
    }

    /// The plane's objects (real levels have them on the main plane only).
    pub fn objects(&self) -> Result<Objects<'a>> {
        let count = self.object_count();
        let at = self.raw.offset_objects.get() as usize;
        if count != 0 && at == 0 {
            return Err(Error::invalid(
                self.field(PLANE_OFFSET_OBJECTS),
                "PlaneHeader.offset_objects",
                0,
                "the plane has objects but no offset to them",
            ));
        }
        Ok(Objects::new(Cursor::new(self.image, at), count))
    }
}

/// The image-set names of a plane, borrowed. Stops after the first error.
#[derive(Debug, Clone)]
pub struct ImageSets<'a> {
    image: Bytes<'a>,
    at: usize,
    remaining: u32,
    field: usize,
}

impl<'a> Iterator for ImageSets<'a> {
    type Item = Result<&'a [u8]>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.remaining == 0 {
            return None;
        }
        self.remaining -= 1;
        let rest = match self.image.tail(self.at, "PlaneHeader.image_sets") {
            Ok(rest) => rest,
            Err(e) => {
                self.remaining = 0;
                return Some(Err(e));
            }
        };
        match rest.iter().position(|&b| b == 0) {
            Some(len) => {
                let name = rest.get(..len).unwrap_or(&[]);
                self.at = self.at.saturating_add(len + 1);
                Some(Ok(name))
            }
            None => {
                self.remaining = 0;
                Some(Err(Error::invalid(
                    u64_of(self.at),
                    "PlaneHeader.image_sets",
                    u64_of(rest.len()),
                    "image-set name has no NUL before the end of the main block",
                )))
            }
        }
    }
}

impl ImageSets<'_> {
    /// Where the count of names is stored, for callers' reports.
    pub fn count_field(&self) -> usize {
        self.field
    }
}

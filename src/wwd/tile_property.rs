//! Tile properties: a 32-byte table header, then one record per tile id (0, 1, 2, …), each 16 bytes
//! of base plus a body whose size depends on its type: single (4), double (24) or mask (w·h bytes,
//! one attribute per pixel; real custom Claw levels have them).

use super::raw::{
    TILE_DOUBLE, TILE_MASK, TILE_SINGLE, TilePropertiesHeader, TilePropertyBase, TilePropertyDouble,
};
use crate::bytes::{Bytes, Cursor, Located, Place, Record, Records, u64_of};
use crate::error::{Error, ErrorKind, Result};

/// The attributes WapWorld and the Gruntz editor name; other values are user attributes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Attribute {
    /// 0: clear.
    Clear,
    /// 1: solid.
    Solid,
    /// 2: ground.
    Ground,
    /// 3: climb.
    Climb,
    /// 4: death.
    Death,
    /// Any other value (Gruntz defines about 60).
    User(i32),
}

impl Attribute {
    /// The attribute a stored value names.
    pub const fn from_raw(value: i32) -> Attribute {
        match value {
            0 => Attribute::Clear,
            1 => Attribute::Solid,
            2 => Attribute::Ground,
            3 => Attribute::Climb,
            4 => Attribute::Death,
            v => Attribute::User(v),
        }
    }
}

/// What a tile property says, by type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TileKind<'a> {
    /// One attribute for the whole tile.
    Single {
        /// The tile's attribute (see [`Attribute`]).
        attribute: i32,
    },
    /// `inside` within `rect` (left, top, right, bottom), `outside` elsewhere.
    Double {
        /// The attribute outside `rect`.
        outside: i32,
        /// The attribute inside `rect`.
        inside: i32,
        /// The inside area in pixels of the tile: left, top, right, bottom.
        rect: [i32; 4],
    },
    /// One attribute byte per pixel, `width × height`, row by row; borrowed.
    Mask {
        /// The attribute bytes, `width × height`, row by row.
        mask: &'a [u8],
    },
}

/// One tile property, borrowed.
#[derive(Debug, Clone, Copy)]
pub struct TileProperty<'a> {
    id: u32,
    /// The base and the record's offset in the image.
    base: Located<'a, TilePropertyBase>,
    kind: TileKind<'a>,
}

impl<'a> TileProperty<'a> {
    /// Absolute offset in the image `header ‖ main block`.
    pub const fn offset(&self) -> usize {
        self.base.offset()
    }
    /// The tile id (the record's index in the table) it describes.
    pub const fn id(&self) -> u32 {
        self.id
    }
    /// The stored base: type, reserved field, width, height.
    pub const fn base(&self) -> &'a TilePropertyBase {
        self.base.get()
    }
    /// [`TILE_SINGLE`](super::raw::TILE_SINGLE), [`TILE_DOUBLE`](super::raw::TILE_DOUBLE),
    /// [`TILE_MASK`](super::raw::TILE_MASK) or an unknown type as stored.
    pub fn tile_type(&self) -> u32 {
        self.base.tile_type.get()
    }
    /// Tile width in pixels (the mask's width).
    pub fn width(&self) -> u32 {
        self.base.width.get()
    }
    /// Tile height in pixels (the mask's height).
    pub fn height(&self) -> u32 {
        self.base.height.get()
    }
    /// What the property says, by type.
    pub const fn kind(&self) -> TileKind<'a> {
        self.kind
    }
    /// The attribute most of the tile has: a single tile's attribute, a double tile's inside
    /// attribute, or a mask's most frequent byte (for one-colour renderings).
    pub fn dominant_attribute(&self) -> i32 {
        match self.kind {
            TileKind::Single { attribute } => attribute,
            TileKind::Double { inside, .. } => inside,
            TileKind::Mask { mask } => {
                let mut counts = [0usize; 256];
                for &b in mask {
                    if let Some(c) = counts.get_mut(usize::from(b)) {
                        *c += 1;
                    }
                }
                (0..256usize)
                    .max_by_key(|&v| counts.get(v).copied().unwrap_or(0))
                    .map_or(0, |v| v as i32)
            }
        }
    }
    /// Bytes the record occupies.
    pub fn size(&self) -> usize {
        16 + match self.kind {
            TileKind::Single { .. } => 4,
            TileKind::Double { .. } => 24,
            TileKind::Mask { mask } => mask.len(),
        }
    }
}

/// The tile-property table.
#[derive(Debug, Clone, Copy)]
pub struct TileProperties<'a> {
    image: Bytes<'a>,
    /// The table header and its offset in the image.
    header: Located<'a, TilePropertiesHeader>,
}

impl<'a> TileProperties<'a> {
    pub(crate) fn read(image: Bytes<'a>, at: usize) -> Result<Self> {
        let header = image.located(at, "TilePropertiesHeader")?;
        Ok(TileProperties { image, header })
    }
    /// Absolute offset of the table header.
    pub const fn offset(&self) -> usize {
        self.header.offset()
    }
    /// The stored table header.
    pub const fn header(&self) -> &'a TilePropertiesHeader {
        self.header.get()
    }
    /// The number of records the header declares.
    pub fn len(&self) -> u32 {
        self.header.count.get()
    }
    /// Whether the table has no properties.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// The records in id order. Records are variable-sized, so this is a walk; it stops after the
    /// first error and each record consumes at least 20 bytes, so it is bounded by the image.
    pub fn iter(&self) -> TilePropertyIter<'a> {
        let first = self
            .header
            .field_offset(core::mem::size_of::<TilePropertiesHeader>());
        Records::new(Cursor::new(self.image, first), self.len())
    }
    /// The property of tile `id` (a walk of the records before it: O(id)).
    pub fn get(&self, id: u32) -> Option<Result<TileProperty<'a>>> {
        self.iter().nth(id as usize)
    }
}

/// The tile properties in id order (see [`Records`]): a walk that stops after the first error.
pub type TilePropertyIter<'a> = Records<'a, TileProperty<'a>>;

impl<'a> Record<'a> for TileProperty<'a> {
    type Context = ();
    /// The base and a single tile's attribute.
    const MIN_SIZE: usize = core::mem::size_of::<TilePropertyBase>() + 4;

    fn read(cur: &mut Cursor<'a>, (): (), place: Place) -> Result<Self> {
        let at = cur.offset();
        let base: Located<'a, TilePropertyBase> = cur.located("TileProperty")?;
        let body = cur.offset();
        let kind = match base.tile_type.get() {
            TILE_SINGLE => TileKind::Single {
                attribute: cur.i32_le("TileProperty.attribute")?,
            },
            TILE_DOUBLE => {
                let d: &TilePropertyDouble = cur.read("TileProperty(double)")?;
                TileKind::Double {
                    outside: d.attribute_outside.get(),
                    inside: d.attribute_inside.get(),
                    rect: d.rect.get(),
                }
            }
            TILE_MASK => {
                let (w, h) = (u64::from(base.width.get()), u64::from(base.height.get()));
                // w and h are u32: the product fits u64; the read bounds it by the image.
                let len = usize::try_from(w * h).map_err(|_| {
                    Error::new(
                        u64_of(body),
                        "TileProperty.mask",
                        ErrorKind::Truncated {
                            needed: w * h,
                            available: u64_of(cur.remaining()),
                        },
                    )
                })?;
                TileKind::Mask {
                    mask: cur.take(len, "TileProperty.mask")?,
                }
            }
            other => {
                return Err(Error::invalid(
                    u64_of(at),
                    "TileProperty.tile_type",
                    u64::from(other),
                    "unknown tile property type (1 single, 2 double, 3 mask)",
                ));
            }
        };
        Ok(TileProperty {
            id: place.index,
            base,
            kind,
        })
    }
}

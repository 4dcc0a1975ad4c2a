//! The owned `.wwd` level: [`WwdModel`], built by hand or copied from a [`WwdView`]
//! ([`WwdModel::from_view`]), and its JSON form (feature `serde`). Its writer
//! ([`WwdModel::to_bytes`]) is in `write`.

use zerocopy::FromZeros;

use crate::error::Result;
use crate::wwd::raw::{
    self, HEADER_SIZE, Header, PlaneHeader, TilePropertiesHeader, TilePropertyBase,
};
use crate::wwd::{Plane, TileKind, WwdView};
use core::mem::size_of;

/// A level, owned, ready to write (and, with the `serde` feature, what `dump --json` prints).
#[derive(Debug, Clone)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct WwdModel {
    /// Every header field; offsets, counts, the compress flag, sizes and the checksum are
    /// recomputed when writing.
    pub header: Header,
    /// The planes, in file order (the main plane is the one flagged main).
    pub planes: Vec<PlaneData>,
    /// The table header; its count is recomputed.
    pub tile_properties_header: TilePropertiesHeader,
    /// The tile properties; a property's index is its tile id.
    pub tile_properties: Vec<TilePropertyData>,
    /// WapMap's metadata block, `<wm_meta>` to `</wm_meta>`, written verbatim after the stored main
    /// block (so a level read and written again keeps it byte for byte); `None` (or no bytes)
    /// writes none. Build one with [`WapMapMetaData::to_bytes`]. Writing refuses bytes that are not
    /// one whole block, with the reader's error (its offset counts from the block's start): a
    /// reader would not open the level. In JSON, lowercase hex.
    #[cfg_attr(feature = "serde", serde(with = "json::hex"))]
    pub wapmap_meta: Option<Vec<u8>>,
}

/// The fields of WapMap's metadata block (see [`WapMapMeta`](crate::wwd::WapMapMeta)), to build
/// one in the layout WapMap writes: MetaInfo, Header, Guides (only when there are guides),
/// MetaEndInfo, with both sizes filled in.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct WapMapMetaData {
    /// WapMap's `iWapMapBuild`.
    pub wapmap_build: i32,
    /// WapMap's `strWapMapVersion`; no NUL inside.
    pub wapmap_version: Vec<u8>,
    /// WapMap's `iMapBuild`.
    pub map_build: i32,
    /// WapMap's `strMapVersion`; no NUL inside.
    pub map_version: Vec<u8>,
    /// WapMap's `strMapDescription`; no NUL inside.
    pub map_description: Vec<u8>,
    /// `(orientation, position)`: WapMap's `bOrient` (1 horizontal, 0 vertical) and `iPos`.
    pub guides: Vec<(u8, i32)>,
}

/// A plane, owned.
#[derive(Debug, Clone)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct PlaneData {
    /// Every field; counts and offsets are recomputed.
    pub header: PlaneHeader,
    /// `tiles_wide × tiles_high` stored values, row by row.
    pub tiles: Vec<u32>,
    /// Image-set names, without NULs (in JSON, escaped text: see [`escape`](crate::wwd::escape)).
    #[cfg_attr(feature = "serde", serde(with = "json::texts"))]
    pub image_sets: Vec<Vec<u8>>,
    /// The plane's objects (real files have some on the main plane only).
    pub objects: Vec<ObjectData>,
}

/// An object, owned.
#[derive(Debug, Clone)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ObjectData {
    /// Every field of the fixed part; the string sizes are recomputed.
    pub fields: raw::Object,
    /// The name string's bytes.
    #[cfg_attr(feature = "serde", serde(with = "json::text"))]
    pub name: Vec<u8>,
    /// The logic string's bytes.
    #[cfg_attr(feature = "serde", serde(with = "json::text"))]
    pub logic: Vec<u8>,
    /// The image-set string's bytes.
    #[cfg_attr(feature = "serde", serde(with = "json::text"))]
    pub image_set: Vec<u8>,
    /// The animation string's bytes.
    #[cfg_attr(feature = "serde", serde(with = "json::text"))]
    pub animation: Vec<u8>,
}

/// A tile property, owned.
#[derive(Debug, Clone)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct TilePropertyData {
    /// Type, reserved field, width and height; the type is set from `body`.
    pub base: TilePropertyBase,
    /// The body, by type.
    pub body: TileBody,
}

/// A tile property's body by type.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum TileBody {
    /// One attribute for the whole tile.
    Single(i32),
    /// An inside attribute within `rect`, an outside one elsewhere.
    Double {
        /// The attribute outside `rect`.
        outside: i32,
        /// The attribute inside `rect`.
        inside: i32,
        /// The inside area in pixels of the tile: left, top, right, bottom.
        rect: [i32; 4],
    },
    /// `width × height` attribute bytes.
    Mask(Vec<u8>),
}

pub(crate) fn slot<const N: usize>(text: &str) -> [u8; N] {
    let mut out = [0u8; N];
    for (o, b) in out.iter_mut().zip(text.bytes().take(N.saturating_sub(1))) {
        *o = b;
    }
    out
}

impl WwdModel {
    /// An empty level with the header fields the editors always set.
    pub fn new(name: &str, author: &str) -> WwdModel {
        let mut header = Header::new_zeroed();
        header.signature = HEADER_SIZE_U32.into();
        header.flags = raw::FLAG_USE_Z_COORDS.into();
        header.name = slot(name);
        header.author = slot(author);
        let mut tile_properties_header = TilePropertiesHeader::new_zeroed();
        tile_properties_header.unknown1 = 32.into();
        WwdModel {
            header,
            planes: Vec::new(),
            tile_properties_header,
            tile_properties: Vec::new(),
            wapmap_meta: None,
        }
    }

    /// Copies everything a view reads into an owned level.
    pub fn from_view(view: &WwdView<'_>) -> Result<WwdModel> {
        let planes = view
            .planes()
            .map(|p| PlaneData::from_plane(&p))
            .collect::<Result<Vec<_>>>()?;
        let table = view.tile_properties()?;
        let tile_properties = table
            .iter()
            .map(|p| {
                let p = p?;
                Ok(TilePropertyData {
                    base: *p.base(),
                    body: match p.kind() {
                        TileKind::Single { attribute } => TileBody::Single(attribute),
                        TileKind::Double {
                            outside,
                            inside,
                            rect,
                        } => TileBody::Double {
                            outside,
                            inside,
                            rect,
                        },
                        TileKind::Mask { mask } => TileBody::Mask(mask.to_vec()),
                    },
                })
            })
            .collect::<Result<Vec<_>>>()?;
        Ok(WwdModel {
            header: *view.header(),
            planes,
            tile_properties_header: *table.header(),
            tile_properties,
            wapmap_meta: view.wapmap_meta().map(|m| m.bytes().to_vec()),
        })
    }
}

impl PlaneData {
    /// A plane of `wide × high` tiles of `tile_px` pixels, every tile `fill`.
    pub fn new(name: &str, flags: u32, tile_px: i32, wide: i32, high: i32, fill: u32) -> Self {
        let mut header = PlaneHeader::new_zeroed();
        header.block_size = PLANE_HEADER_SIZE_U32.into();
        header.flags = flags.into();
        header.name = slot(name);
        header.tile_width = tile_px.into();
        header.tile_height = tile_px.into();
        header.tiles_wide = wide.into();
        header.tiles_high = high.into();
        header.width_px = (wide * tile_px).into();
        header.height_px = (high * tile_px).into();
        header.movement_x_percent = 100.into();
        header.movement_y_percent = 100.into();
        let cells = usize::try_from(wide.max(0) * high.max(0)).unwrap_or(0);
        PlaneData {
            header,
            tiles: vec![fill; cells],
            image_sets: Vec::new(),
            objects: Vec::new(),
        }
    }

    /// Sets the tile at column `x`, row `y` (ignored outside the grid).
    pub fn set(&mut self, x: usize, y: usize, value: u32) {
        let wide = usize::try_from(self.header.tiles_wide.get()).unwrap_or(0);
        if x >= wide {
            return;
        }
        if let Some(t) = self.tiles.get_mut(y * wide + x) {
            *t = value;
        }
    }

    fn from_plane(p: &Plane<'_>) -> Result<PlaneData> {
        Ok(PlaneData {
            header: *p.raw(),
            tiles: p.tiles()?.values().collect(),
            image_sets: p
                .image_sets()
                .map(|s| s.map(<[u8]>::to_vec))
                .collect::<Result<_>>()?,
            objects: p
                .objects()?
                .map(|o| {
                    let o = o?;
                    Ok(ObjectData {
                        fields: *o.raw(),
                        name: o.name().to_vec(),
                        logic: o.logic().to_vec(),
                        image_set: o.image_set().to_vec(),
                        animation: o.animation().to_vec(),
                    })
                })
                .collect::<Result<_>>()?,
        })
    }
}

impl ObjectData {
    /// An object with the given id, logic and position; everything else zero.
    pub fn new(id: i32, logic: &str, x: i32, y: i32) -> ObjectData {
        let mut fields = raw::Object::new_zeroed();
        fields.id = id.into();
        fields.location_x = x.into();
        fields.location_y = y.into();
        ObjectData {
            fields,
            name: Vec::new(),
            logic: logic.as_bytes().to_vec(),
            image_set: Vec::new(),
            animation: Vec::new(),
        }
    }
}

impl TilePropertyData {
    /// A property of `width × height` pixels with this body (the type follows from it).
    pub fn new(width: u32, height: u32, body: TileBody) -> TilePropertyData {
        let mut base = TilePropertyBase::new_zeroed();
        base.width = width.into();
        base.height = height.into();
        TilePropertyData { base, body }
    }
}

// The stored sizes as the u32 fields hold them, checked when the crate is built.
const HEADER_SIZE_U32: u32 = {
    assert!(HEADER_SIZE <= u32::MAX as usize);
    HEADER_SIZE as u32
};
pub(crate) const PLANE_HEADER_SIZE_U32: u32 = {
    assert!(size_of::<PlaneHeader>() <= u32::MAX as usize);
    size_of::<PlaneHeader>() as u32
};

/// A tile value of image set `set`, tile `index`.
pub const fn tile(set: u16, index: u16) -> u32 {
    // `u32::from` is not const; these widen, they never narrow.
    ((set as u32) << 16) | index as u32
}

/// JSON forms of the model's byte strings: level text escaped as [`escape`](crate::wwd::escape)
/// does (readable, and the same bytes come back), opaque blocks as hex.
#[cfg(feature = "serde")]
mod json {
    use serde::de::Error as _;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    use crate::wwd::{escape, unescape};

    pub(super) mod text {
        use super::*;
        pub(crate) fn serialize<S: Serializer>(bytes: &[u8], s: S) -> Result<S::Ok, S::Error> {
            escape(bytes, b"").serialize(s)
        }
        pub(crate) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<u8>, D::Error> {
            unescape(&String::deserialize(d)?).map_err(D::Error::custom)
        }
    }

    pub(super) mod texts {
        use super::*;
        pub(crate) fn serialize<S: Serializer>(list: &[Vec<u8>], s: S) -> Result<S::Ok, S::Error> {
            s.collect_seq(list.iter().map(|b| escape(b, b"")))
        }
        pub(crate) fn deserialize<'de, D: Deserializer<'de>>(
            d: D,
        ) -> Result<Vec<Vec<u8>>, D::Error> {
            Vec::<String>::deserialize(d)?
                .iter()
                .map(|t| unescape(t).map_err(D::Error::custom))
                .collect()
        }
    }

    pub(super) mod hex {
        use super::*;
        pub(crate) fn serialize<S: Serializer>(
            bytes: &Option<Vec<u8>>,
            s: S,
        ) -> Result<S::Ok, S::Error> {
            bytes.as_deref().map(crate::bytes::hex).serialize(s)
        }
        pub(crate) fn deserialize<'de, D: Deserializer<'de>>(
            d: D,
        ) -> Result<Option<Vec<u8>>, D::Error> {
            Option::<String>::deserialize(d)?
                .map(|h| crate::bytes::unhex(&h).map_err(D::Error::custom))
                .transpose()
        }
    }
}

//! `.wwd` as one of [`AnyView`](crate::AnyView)'s formats: its [`View`] implementation and the
//! summary `gamebin info` prints.

use core::fmt;
use std::collections::BTreeMap;

use super::{ChecksumFacts, WapMapMeta, WwdView, text_lossy};
use crate::error::Result;
use crate::view::{View, count};

/// WapMap's metadata block as `info` and `dump` show it: where it is and its Header fields (`None`
/// when the block has no Header block).
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct WapMapMetaInfo {
    /// File offset of the block.
    pub offset: usize,
    /// Its length in bytes.
    pub length: usize,
    /// The build of WapMap that saved the level.
    pub wapmap_build: Option<i32>,
    /// The version of WapMap that saved the level.
    pub wapmap_version: Option<String>,
    /// The map's own build number.
    pub map_build: Option<i32>,
    /// The map's own version.
    pub map_version: Option<String>,
    /// The map's description.
    pub map_description: Option<String>,
    /// How many guide lines.
    pub guides: usize,
}

impl WapMapMetaInfo {
    /// Reads the block's header and counts its guides.
    pub fn from_meta(meta: &WapMapMeta<'_>) -> Result<WapMapMetaInfo> {
        let text = |bytes: &[u8]| text_lossy(bytes).into_owned();
        let header = meta.header()?;
        Ok(WapMapMetaInfo {
            offset: meta.offset(),
            length: meta.len(),
            wapmap_build: header.map(|h| h.wapmap_build),
            wapmap_version: header.map(|h| text(h.wapmap_version)),
            map_build: header.map(|h| h.map_build),
            map_version: header.map(|h| text(h.map_version)),
            map_description: header.map(|h| text(h.map_description)),
            guides: meta.guides()?.len(),
        })
    }
}

/// What `gamebin info` shows of a `.wwd` level: the game, its planes, objects and tile
/// properties, the checksum's verdict and WapMap's metadata.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct WwdInfo {
    /// Which game the level is for (`"Claw"`, `"Gruntz"`, ...).
    pub game: &'static str,
    /// Whether the main block is stored compressed.
    pub compressed: bool,
    /// Planes.
    pub planes: usize,
    /// Bytes of the main block (inflated).
    pub main_block_length: usize,
    /// Objects over every plane.
    pub objects: usize,
    /// Tile properties.
    pub tile_properties: u32,
    /// Tile properties by type (`"1"` single, `"2"` double, `"3"` mask, and any other stored).
    pub tile_property_types: BTreeMap<String, usize>,
    /// The header's checksum and what it matches.
    pub checksum: ChecksumFacts,
    /// WapMap's metadata block after the main block; `None` when the level has none.
    pub wapmap_meta: Option<WapMapMetaInfo>,
}

impl fmt::Display for WwdInfo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let of_type = |t: &str| self.tile_property_types.get(t).copied().unwrap_or(0);
        write!(
            f,
            "{}, {}, {}{}, main block {}, {}, {} ({} single, {} double, {} mask), checksum {:#010x} ({}, residual {})",
            <WwdView<'_> as View<'_>>::NAME,
            self.game,
            if self.compressed { "compressed, " } else { "" },
            count(self.planes, "plane", "planes"),
            count(self.main_block_length, "byte", "bytes"),
            count(self.objects, "object", "objects"),
            count(self.tile_properties, "tile property", "tile properties"),
            of_type("1"),
            of_type("2"),
            of_type("3"),
            self.checksum.stored,
            self.checksum.verdict,
            self.checksum.residual,
        )?;
        if let Some(m) = &self.wapmap_meta {
            write!(f, ", WapMap metadata {} bytes", m.length)?;
            if let (Some(version), Some(build)) = (&m.wapmap_version, m.wapmap_build) {
                write!(f, " (WapMap {version} build {build})")?;
            }
        }
        Ok(())
    }
}

//! `.wwd` as one of [`AnyView`](crate::AnyView)'s formats: its [`View`] implementation and the
//! summary `gamebin info` prints.

use core::fmt;
use std::collections::BTreeMap;

use super::{ChecksumFacts, WapMapMeta, WwdView, text_lossy};
use crate::Format;
use crate::any::{CheckReport, Scratch, View, ViewError, count};
use crate::error::Result;

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
            Format::Wap32Wwd,
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

impl<'a> View<'a> for WwdView<'a> {
    const FORMAT: Format = Format::Wap32Wwd;
    type Summary = WwdInfo;
    #[cfg(feature = "write")]
    type Model = crate::wwd::model::WwdModel;

    fn looks_like(data: &[u8]) -> bool {
        super::looks_like(data)
    }

    /// Inflates a compressed main block into `scratch`'s buffer, with its decompressor and
    /// options.
    fn open(data: &'a [u8], scratch: &'a mut Scratch) -> Result<Self> {
        scratch.open_wwd(data)
    }

    /// [`WwdView::validate`].
    fn check(&self) -> CheckReport {
        CheckReport::of_walk(self.validate())
    }

    fn summary(&self) -> Result<WwdInfo, ViewError> {
        let mut objects = 0;
        for plane in self.planes() {
            for o in plane.objects()? {
                o?;
                objects += 1;
            }
        }
        let table = self.tile_properties()?;
        let mut types: BTreeMap<String, usize> =
            ["1", "2", "3"].iter().map(|t| (t.to_string(), 0)).collect();
        for p in table.iter() {
            *types.entry(p?.tile_type().to_string()).or_insert(0) += 1;
        }
        Ok(WwdInfo {
            game: self.game().name(),
            compressed: self.is_compressed(),
            planes: self.plane_count(),
            main_block_length: self.main_block_len(),
            objects,
            tile_properties: table.len(),
            tile_property_types: types,
            checksum: self.checksum().facts(),
            wapmap_meta: self
                .wapmap_meta()
                .map(|m| WapMapMetaInfo::from_meta(&m))
                .transpose()?,
        })
    }

    #[cfg(feature = "write")]
    fn to_model(&self) -> Result<Self::Model, ViewError> {
        Ok(crate::wwd::model::WwdModel::from_view(self)?)
    }

    #[cfg(all(feature = "write", feature = "serde"))]
    fn diff(&self, other: &Self) -> Result<crate::diff::Report, ViewError> {
        Ok(crate::wwd::diff::files(self, other)?)
    }
}

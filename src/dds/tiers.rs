//! Texture tiers: World of Warships keeps a texture's mip chain from 512 px down in its `.dds`, and
//! up to three larger single-level textures of the same stem beside it, each a complete DDS twice
//! the size of the one below: `.dd2` (1024), `.dd1` (2048), `.dd0` (4096). A reader that wants the
//! best texture within a size limit picks the largest tier that fits, or a mip of the `.dds`.

use std::path::{Path, PathBuf};

use super::DdsView;
use crate::MappedFile;

/// The tiers' extensions, largest first, then the `.dds` itself.
pub const TIER_EXTENSIONS: [&str; 4] = ["dd0", "dd1", "dd2", "dds"];

/// One file of a texture: its path and the size of its top level.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tier {
    /// The file.
    pub path: PathBuf,
    /// Width of its top level in pixels.
    pub width: u32,
    /// Height of its top level in pixels.
    pub height: u32,
}

/// What [`choose`] picked: a file and the mip level to read from it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Choice {
    /// The tier chosen.
    pub tier: Tier,
    /// The mip level of that file within the limit (0 for the tiers, which have one level).
    pub mip: u32,
}

/// Why no tier could be chosen: a file that exists but does not read as a DDS texture, named.
#[derive(Debug)]
pub struct TierError {
    /// The file.
    pub path: PathBuf,
    /// Why it did not read: an I/O error or the reader's error.
    pub error: Box<dyn std::error::Error + Send + Sync>,
}

impl core::fmt::Display for TierError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "texture {}: {}", self.path.display(), self.error)
    }
}

impl std::error::Error for TierError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&*self.error)
    }
}

/// The tiers of the texture `dds` (a path ending in `.dds`, or any one of its tiers) that exist,
/// largest first; each is opened and its header read. A tier that exists but does not read is an
/// error naming it, not a silent fallback.
pub fn tiers(dds: &Path) -> Result<Vec<Tier>, TierError> {
    let mut found = Vec::new();
    for extension in TIER_EXTENSIONS {
        let path = dds.with_extension(extension);
        if !path.is_file() {
            continue;
        }
        let named = |error: Box<dyn std::error::Error + Send + Sync>| TierError {
            path: path.clone(),
            error,
        };
        let file = MappedFile::open(&path).map_err(|e| named(e.into()))?;
        let view = DdsView::from_bytes(file.bytes()).map_err(|e| named(e.into()))?;
        found.push(Tier {
            width: view.width(),
            height: view.height(),
            path,
        });
    }
    found.sort_by_key(|t| core::cmp::Reverse(t.width.max(t.height)));
    Ok(found)
}

/// The best file of the texture `dds` within `max_size` pixels a side (`None`: no limit): the
/// largest tier that fits, or else the mip of the smallest file that fits (the `.dds` chain goes
/// down to a few pixels). `Ok(None)` when no file of the texture exists.
pub fn choose(dds: &Path, max_size: Option<u32>) -> Result<Option<Choice>, TierError> {
    let found = tiers(dds)?;
    let limit = max_size.unwrap_or(u32::MAX);
    if let Some(tier) = found.iter().find(|t| t.width.max(t.height) <= limit) {
        return Ok(Some(Choice {
            tier: tier.clone(),
            mip: 0,
        }));
    }
    let Some(smallest) = found.last() else {
        return Ok(None);
    };
    let file = MappedFile::open(&smallest.path).map_err(|e| TierError {
        path: smallest.path.clone(),
        error: e.into(),
    })?;
    let view = DdsView::from_bytes(file.bytes()).map_err(|e| TierError {
        path: smallest.path.clone(),
        error: e.into(),
    })?;
    Ok(Some(Choice {
        tier: smallest.clone(),
        mip: view.mip_within(limit),
    }))
}

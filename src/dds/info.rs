//! DDS as one of [`AnyView`](crate::AnyView)'s formats: its [`View`] implementation, the summary
//! `gamebin info` prints and what `gamebin check` finds.

use core::fmt;

use super::DdsView;
use super::raw::PIXEL_FORMAT_SIZE;
use crate::view::{View, count};

/// What `gamebin info` shows of a DDS texture.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct DdsInfo {
    /// The pixel format's short name (`BC1`, `BC7`, `A8R8G8B8`).
    pub format: String,
    /// Whether the DXGI format is sRGB.
    pub srgb: bool,
    /// Whether a DX10 header follows the legacy one.
    pub dx10: bool,
    /// Width of the top level.
    pub width: u32,
    /// Height of the top level.
    pub height: u32,
    /// Depth of the top level (1 unless a volume texture).
    pub depth: u32,
    /// Mip levels per slice.
    pub mips: u32,
    /// Array slices, cube faces counted.
    pub slices: u32,
    /// Whether the slices are cube faces.
    pub cube: bool,
    /// Bytes of every level.
    pub data_bytes: u64,
    /// Bytes after the last level.
    pub trailing_bytes: u64,
}

impl fmt::Display for DdsInfo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", <DdsView<'_> as View<'_>>::NAME, self.format)?;
        if self.srgb {
            f.write_str(" sRGB")?;
        }
        write!(f, " {}x{}", self.width, self.height)?;
        if self.depth > 1 {
            write!(f, "x{}", self.depth)?;
        }
        write!(f, ", {}", count(self.mips, "mip level", "mip levels"))?;
        if self.cube {
            write!(f, ", cube map of {}", count(self.slices, "face", "faces"))?;
        } else if self.slices > 1 {
            write!(f, ", {}", count(self.slices, "array slice", "array slices"))?;
        }
        if self.dx10 {
            f.write_str(", DX10 header")?;
        }
        write!(f, ", {} bytes of levels", self.data_bytes)?;
        if self.trailing_bytes > 0 {
            write!(f, " and {} trailing", self.trailing_bytes)?;
        }
        Ok(())
    }
}

/// What [`View::check`] tolerated in a DDS texture.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum DdsFinding {
    /// Bytes after the last level that no level uses.
    TrailingBytes {
        /// Where they start.
        offset: usize,
        /// How many.
        count: usize,
    },
    /// `DDS_PIXELFORMAT.size` is not 32 (the reader does not rely on it).
    PixelFormatSize {
        /// The value stored.
        stored: u32,
    },
}

impl fmt::Display for DdsFinding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            DdsFinding::TrailingBytes { offset, count } => write!(
                f,
                "at {offset:#x}: {count} bytes after the last level belong to no level"
            ),
            DdsFinding::PixelFormatSize { stored } => write!(
                f,
                "at 0x4c: DDS_PIXELFORMAT.size is {stored}, not {PIXEL_FORMAT_SIZE} (ignored)"
            ),
        }
    }
}

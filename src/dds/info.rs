//! DDS as one of [`AnyView`](crate::AnyView)'s formats: its [`View`] implementation, the summary
//! `gamebin info` prints and what `gamebin check` finds.

use core::fmt;

use super::DdsView;
use super::raw::{MAGIC, PIXEL_FORMAT_SIZE};
use crate::Format;
use crate::any::{CheckReport, Problem, Scratch, View, ViewError, count};
use crate::error::Result;

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
        write!(f, "{} {}", Format::Dds, self.format)?;
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

impl<'a> View<'a> for DdsView<'a> {
    const FORMAT: Format = Format::Dds;
    type Summary = DdsInfo;
    #[cfg(feature = "write")]
    type Model = super::model::DdsModel;

    /// The magic `DDS ` and a header size of 124.
    fn looks_like(data: &[u8]) -> bool {
        data.get(..8).is_some_and(|head| {
            head[..4] == MAGIC.to_le_bytes() && head[4..8] == 124u32.to_le_bytes()
        })
    }

    fn open(data: &'a [u8], _: &'a mut Scratch) -> Result<Self> {
        DdsView::from_bytes(data)
    }

    /// Opening already places every level inside the file and every block decodes to something;
    /// the check reports what the reader tolerated.
    fn check(&self) -> CheckReport {
        let mut report = CheckReport::default();
        let stored = self.header().pixel_format.size.get();
        if stored != PIXEL_FORMAT_SIZE {
            report
                .warnings
                .push(Problem::Dds(DdsFinding::PixelFormatSize { stored }));
        }
        let end = self.data_end();
        if end < self.bytes().len() {
            report
                .warnings
                .push(Problem::Dds(DdsFinding::TrailingBytes {
                    offset: end,
                    count: self.bytes().len() - end,
                }));
        }
        report
    }

    fn summary(&self) -> core::result::Result<DdsInfo, ViewError> {
        Ok(DdsInfo {
            format: self.format().name(),
            srgb: self.is_srgb(),
            dx10: self.dx10().is_some(),
            width: self.width(),
            height: self.height(),
            depth: self.depth(),
            mips: self.mip_count(),
            slices: self.slice_count(),
            cube: self.is_cube(),
            data_bytes: (self.data_end() - self.data_offset()) as u64,
            trailing_bytes: (self.bytes().len() - self.data_end()) as u64,
        })
    }

    #[cfg(feature = "write")]
    fn to_model(&self) -> core::result::Result<Self::Model, ViewError> {
        Ok(super::model::DdsModel::from_view(self))
    }

    #[cfg(all(feature = "write", feature = "serde"))]
    fn diff(&self, other: &Self) -> core::result::Result<crate::diff::Report, ViewError> {
        Ok(super::model::diff(
            &super::model::DdsModel::from_view(self),
            &super::model::DdsModel::from_view(other),
        ))
    }
}

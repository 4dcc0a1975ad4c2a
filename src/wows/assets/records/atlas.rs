//! AtlasContourProto: per frame, a contour polygon.

use super::{At, count_i32};
use crate::error::Result;
use crate::wows::assets::raw::{self, Point};

/// An atlas contour record.
#[derive(Debug, Clone, Copy)]
pub struct AtlasContour<'a> {
    at: At<'a>,
    raw: &'a raw::AtlasContourProto,
}

/// One frame's contour.
#[derive(Debug, Clone, Copy)]
pub struct ContourFrame<'a> {
    at: At<'a>,
    raw: &'a raw::Contour,
}

impl<'a> AtlasContour<'a> {
    pub(crate) fn read(at: At<'a>) -> Result<Self> {
        Ok(AtlasContour {
            at,
            raw: at.raw("AtlasContourProto")?,
        })
    }
    /// File offset of the record.
    pub fn offset(&self) -> usize {
        self.at.at
    }
    /// The frames' contours (`frame_count` of them).
    pub fn frames(&self) -> Result<impl ExactSizeIterator<Item = ContourFrame<'a>> + 'a> {
        let count = count_i32(
            self.raw.frame_count.get(),
            self.at.at,
            "AtlasContourProto.frameCount",
        )?;
        let (base, frames) = self.at.array::<raw::Contour>(
            8,
            self.raw.contours_ptr.get(),
            count,
            "AtlasContourProto.contours",
        )?;
        let at = self.at;
        Ok(frames.iter().enumerate().map(move |(i, raw)| ContourFrame {
            at: at.element(base, i, core::mem::size_of::<raw::Contour>()),
            raw,
        }))
    }
    pub(crate) fn validate(&self) -> Result<()> {
        for f in self.frames()? {
            f.points()?;
        }
        Ok(())
    }
}

impl<'a> ContourFrame<'a> {
    /// The contour's points, borrowed.
    pub fn points(&self) -> Result<&'a [Point]> {
        let count = count_i32(self.raw.count.get(), self.at.at, "Contour.count")?;
        self.at
            .slice(8, self.raw.points_ptr.get(), count, "Contour.points")
    }
}

//! AtlasContourProto: per frame, a contour polygon.

use super::count_i32;
use crate::bytes::{Bytes, Located};
use crate::error::Result;
use crate::wows::assets::raw::{self, Point};

/// An atlas contour record.
#[derive(Debug, Clone, Copy)]
pub struct AtlasContour<'a> {
    bytes: Bytes<'a>,
    raw: Located<'a, raw::AtlasContourProto>,
}

/// One frame's contour.
#[derive(Debug, Clone, Copy)]
pub struct ContourFrame<'a> {
    bytes: Bytes<'a>,
    raw: Located<'a, raw::Contour>,
}

impl<'a> AtlasContour<'a> {
    pub(crate) fn read(bytes: Bytes<'a>, at: usize) -> Result<Self> {
        Ok(AtlasContour {
            bytes,
            raw: Located::read(bytes, at, "AtlasContourProto")?,
        })
    }
    /// File offset of the record.
    pub fn offset(&self) -> usize {
        self.raw.offset()
    }
    /// The frames' contours (`frame_count` of them).
    pub fn frames(&self) -> Result<impl ExactSizeIterator<Item = ContourFrame<'a>> + 'a> {
        let count = count_i32(
            self.raw.frame_count.get(),
            self.raw.offset(),
            "AtlasContourProto.frameCount",
        )?;
        let frames = self.raw.table::<raw::Contour>(
            self.bytes,
            8,
            self.raw.contours_ptr.get(),
            count,
            "AtlasContourProto.contours",
        )?;
        let bytes = self.bytes;
        Ok(frames
            .into_iter()
            .map(move |raw| ContourFrame { bytes, raw }))
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
        let count = count_i32(self.raw.count.get(), self.raw.offset(), "Contour.count")?;
        let points = self.raw.table(
            self.bytes,
            8,
            self.raw.points_ptr.get(),
            count,
            "Contour.points",
        )?;
        Ok(points.records())
    }
}

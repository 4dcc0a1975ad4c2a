//! AtlasContourProto: per frame, a contour polygon.

use super::{Budget, PrototypeRecord, RecordView, Strings, count_i32};
use crate::bytes::{Bytes, Located};
use crate::error::Result;
#[cfg(feature = "serde")]
use crate::wows::assets::fields_float as float;
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

/// An AtlasContourProto's fields.
#[derive(Debug, Clone, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct AtlasContourFields {
    /// Each frame's contour points (x, y).
    #[cfg_attr(feature = "serde", serde(with = "float"))]
    pub frames: Vec<Vec<[f32; 2]>>,
}

impl<'a> RecordView<'a> for AtlasContour<'a> {
    fn read(bytes: Bytes<'a>, at: usize, _item_size: usize, _strings: Strings<'a>) -> Result<Self> {
        Ok(AtlasContour {
            bytes,
            raw: Located::read(bytes, at, "AtlasContourProto")?,
        })
    }

    fn validate(&self) -> Result<()> {
        for f in self.frames()? {
            f.points()?;
        }
        Ok(())
    }
}

impl PrototypeRecord for AtlasContourFields {
    type View<'a> = AtlasContour<'a>;
    type Raw = raw::AtlasContourProto;
    const LAYOUTS: &'static [usize] = &[0x10];

    fn from_view(a: AtlasContour<'_>, budget: &mut Budget<'_, '_>) -> Result<Self> {
        Ok(AtlasContourFields {
            frames: a
                .frames()?
                .map(|f| {
                    budget.list(
                        f.points()?,
                        |p| [p.x.get(), p.y.get()],
                        "AtlasContourProto.frames",
                    )
                })
                .collect::<Result<_>>()?,
        })
    }
}

/// The encoder (feature `write`).
#[cfg(feature = "write")]
mod encode {
    use core::mem::offset_of;
    use zerocopy::little_endian::{F32, I32, I64, U32};

    use super::*;
    use crate::bytes::sink::narrow;
    use crate::wows::assets::records::EncodeRecord;
    use crate::wows::assets::write::{Blob, NodeNameMaps};
    use crate::write_error::WriteResult;

    impl EncodeRecord for AtlasContourFields {
        /// The record, its contour table, then each frame's points.
        fn encode(&self, b: &mut Blob, _name_maps: NodeNameMaps) -> WriteResult<()> {
            let AtlasContourFields { frames } = self;
            let r = b.push_record(
                &raw::AtlasContourProto {
                    frame_count: I32::new(narrow(frames.len(), "AtlasContourProto.frameCount")?),
                    pad: U32::new(0),
                    contours_ptr: I64::new(0),
                },
                "AtlasContourProto",
            )?;
            let field = offset_of!(raw::AtlasContourProto, contours_ptr);
            b.record_table(r, field, frames, "Contour", |b, at, frame| {
                let points: Vec<Point> = frame
                    .iter()
                    .map(|&[x, y]| Point {
                        x: F32::new(x),
                        y: F32::new(y),
                    })
                    .collect();
                Ok(raw::Contour {
                    count: I32::new(narrow(frame.len(), "Contour.count")?),
                    pad: U32::new(0),
                    points_ptr: b.ool_array(
                        at,
                        offset_of!(raw::Contour, points_ptr),
                        &points,
                        "Contour.pointsPtr",
                    )?,
                })
            })
        }
    }
}

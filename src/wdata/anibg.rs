//! AniBG: animated background objects (`i32 count`, then records).

use super::Versions;
use super::cursor::WdataCursor as _;
use super::obb::{OBB_MIN_SIZE, Obb};
use super::raw::Bool32;
use super::records::Record;
use super::wstr::WStr;
use crate::bytes::Cursor;
use crate::error::Result;

/// One animated background object.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct AniBg<'a> {
    /// The box: name, placement and half sizes.
    pub obb: Obb<'a>,
    /// Path of the model to show.
    pub model: WStr<'a>,
    /// Path of the motion (animation) to play.
    pub motion: WStr<'a>,
    /// Whether the motion loops.
    pub looped: Bool32,
    /// Index of the light to use.
    pub light_index: i32,
    /// Cover index (perhaps an occlusion group; the seed does not know).
    pub cover_index: i32,
    /// AniBGVersion >= 3.
    pub shadow: Option<Bool32>,
    /// AniBGVersion >= 4.
    pub move_weight: Option<Bool32>,
    /// AniBGVersion >= 5.
    pub pvs_radius: Option<f32>,
}

impl<'a> Record<'a> for AniBg<'a> {
    const MIN_SIZE: usize = OBB_MIN_SIZE + 2 + 2 + 12;

    #[inline]
    fn read_at(cur: &mut Cursor<'a>, versions: Versions, _last: bool) -> Result<Self> {
        let v = versions.anibg;
        Ok(AniBg {
            obb: Obb::read(cur, "AniBG.Name", "AniBG.Obb")?,
            model: cur.wstr("AniBG.Model")?,
            motion: cur.wstr("AniBG.Motion")?,
            looped: cur.bool32("AniBG.Loop")?,
            light_index: cur.i32_le("AniBG.LightIndex")?,
            cover_index: cur.i32_le("AniBG.CoverIndex")?,
            shadow: if v >= 3 {
                Some(cur.bool32("AniBG.Shadow")?)
            } else {
                None
            },
            move_weight: if v >= 4 {
                Some(cur.bool32("AniBG.MoveWeight")?)
            } else {
                None
            },
            pvs_radius: if v >= 5 {
                Some(cur.f32_le("AniBG.PVSRad")?)
            } else {
                None
            },
        })
    }
}

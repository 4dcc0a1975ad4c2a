//! Gimmick: in-world mechanisms (`i32 count`, then records). No sub-version gates are known.

use super::Versions;
use super::cursor::WdataCursor as _;
use super::obb::{OBB_MIN_SIZE, Obb};
use super::records::Record;
use super::wstr::WStr;
use crate::bytes::Cursor;
use crate::error::Result;

/// One gimmick. Its flags are stored as plain `i32`s (not bools) and kept as such.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Gimmick<'a> {
    /// The box: name, placement and half sizes.
    pub obb: Obb<'a>,
    /// Path of the model to show.
    pub model: WStr<'a>,
    /// Path of the motion (animation) to play.
    pub motion: WStr<'a>,
    /// Loop flag or mode (0/1 or a mode value; an `i32` here, not a bool).
    pub loop_flag: i32,
    /// Index of the light to use.
    pub light_index: i32,
    /// Cover index (perhaps an occlusion group; the seed does not know).
    pub cover_index: i32,
    /// Whether the gimmick casts a shadow (0 or 1).
    pub shadow: i32,
    /// The "move weight" flag (0 or 1; exact use unknown).
    pub move_weight: i32,
    /// Row of the gimmick template table.
    pub template_id: i32,
}

impl<'a> Record<'a> for Gimmick<'a> {
    const MIN_SIZE: usize = OBB_MIN_SIZE + 4 + 24;

    #[inline]
    fn read_at(cur: &mut Cursor<'a>, _versions: Versions, _last: bool) -> Result<Self> {
        Ok(Gimmick {
            obb: Obb::read(cur, "Gimmick.Name", "Gimmick.Obb")?,
            model: cur.wstr("Gimmick.Model")?,
            motion: cur.wstr("Gimmick.Motion")?,
            loop_flag: cur.i32_le("Gimmick.LoopFlag")?,
            light_index: cur.i32_le("Gimmick.LightIndex")?,
            cover_index: cur.i32_le("Gimmick.CoverIndex")?,
            shadow: cur.i32_le("Gimmick.Shadow")?,
            move_weight: cur.i32_le("Gimmick.MoveWeight")?,
            template_id: cur.i32_le("Gimmick.TemplateID")?,
        })
    }
}

//! Gimmick: in-world mechanisms (`i32 count`, then records). No sub-version gates are known.

use super::Versions;
use super::cursor::Cursor;
use super::obb::{OBB_MIN_SIZE, Obb};
use super::records::Record;
use super::wstr::WStr;
use crate::error::Result;

/// One gimmick. Its flags are stored as plain `i32`s (not bools) and kept as such.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Gimmick<'a> {
    pub obb: Obb<'a>,
    pub model: WStr<'a>,
    pub motion: WStr<'a>,
    pub loop_flag: i32,
    pub light_index: i32,
    pub cover_index: i32,
    pub shadow: i32,
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
            loop_flag: cur.i32("Gimmick.LoopFlag")?,
            light_index: cur.i32("Gimmick.LightIndex")?,
            cover_index: cur.i32("Gimmick.CoverIndex")?,
            shadow: cur.i32("Gimmick.Shadow")?,
            move_weight: cur.i32("Gimmick.MoveWeight")?,
            template_id: cur.i32("Gimmick.TemplateID")?,
        })
    }
}

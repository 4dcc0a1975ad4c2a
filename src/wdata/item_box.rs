//! ItemBox: item containers (`i32 count`, then records).

use super::Versions;
use super::cursor::WdataCursor as _;
use super::obb::{OBB_MIN_SIZE, Obb};
use super::raw::Bool32;
use super::records::Record;
use super::wstr::WStr;
use crate::bytes::Cursor;
use crate::error::Result;

/// One item container.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ItemBox<'a> {
    /// The box: name, placement and half sizes.
    pub obb: Obb<'a>,
    /// Path of the model to show.
    pub model: WStr<'a>,
    /// Path of the motion (animation) to play.
    pub motion: WStr<'a>,
    /// The drop table.
    pub table_path: WStr<'a>,
    /// Whether the motion loops.
    pub looped: Bool32,
    /// ItemBoxVersion >= 3.
    pub open_enable: Option<Bool32>,
}

impl<'a> Record<'a> for ItemBox<'a> {
    const MIN_SIZE: usize = OBB_MIN_SIZE + 6 + 4;

    #[inline]
    fn read_at(cur: &mut Cursor<'a>, versions: Versions, _last: bool) -> Result<Self> {
        Ok(ItemBox {
            obb: Obb::read(cur, "ItemBox.Name", "ItemBox.Obb")?,
            model: cur.wstr("ItemBox.Model")?,
            motion: cur.wstr("ItemBox.Motion")?,
            table_path: cur.wstr("ItemBox.TablePath")?,
            looped: cur.bool32("ItemBox.Loop")?,
            open_enable: if versions.item_box >= 3 {
                Some(cur.bool32("ItemBox.OpenEnable")?)
            } else {
                None
            },
        })
    }
}

//! CameraBox (EventBox type 0): an OBB, a category (EventBoxVersion >= 7) and four camera infos,
//! each with its PVS and render lists (EventBoxVersion >= 4). The render lists' per-item id is gated
//! on the *main* version (22), not on EventBoxVersion. The three records are declared in the tables
//! of `flat_records.rs` (with the owned model's); what is here is how they are handed out.

use zerocopy::little_endian::U32;

use super::Versions;
use super::flat_records::SceneDetails;
pub use super::flat_records::{CameraBox, CameraInfo, CameraLists};
use super::gates;
use super::records::{NameList, Records};
use crate::bytes::Cursor;
use crate::error::Result;

/// The names of the eight render lists, in file order (cameras and scenes alike): the order of
/// [`CameraLists::render`].
pub const RENDER_LIST_NAMES: [&str; 8] = [
    "RenderBg",
    "RenderAniBg",
    "RenderItem",
    "RenderGimmick",
    "NoRenderBg",
    "NoRenderAniBg",
    "NoRenderItem",
    "NoRenderGimmick",
];

/// A CameraBox's four camera infos, in order.
#[derive(Debug, Clone)]
pub struct CameraInfos<'a> {
    infos: Records<'a, CameraInfo<'a>>,
    left: usize,
}

impl<'a> Iterator for CameraInfos<'a> {
    type Item = Result<CameraInfo<'a>>;

    /// The next camera info; a read that fails (it cannot in a view that opened) is yielded once
    /// as the error, and the iteration ends.
    #[inline]
    fn next(&mut self) -> Option<Result<CameraInfo<'a>>> {
        let info = self.infos.next()?;
        self.left = if info.is_ok() { self.left - 1 } else { 0 };
        Some(info)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.left, Some(self.left))
    }
}

impl ExactSizeIterator for CameraInfos<'_> {}

/// The PVS event box list: ids below EventBoxVersion 6, `(category, name)` pairs from 6.
#[derive(Debug, Clone, Copy)]
pub enum PvsEventBoxes<'a> {
    /// Below EventBoxVersion 6: event-box ids.
    Ids(&'a [U32]),
    /// From EventBoxVersion 6: `(category, name)` pairs.
    Entries(NameList<'a>),
}

impl PartialEq for PvsEventBoxes<'_> {
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (PvsEventBoxes::Ids(a), PvsEventBoxes::Ids(b)) => a == b,
            (PvsEventBoxes::Entries(a), PvsEventBoxes::Entries(b)) => a.iter().eq(b.iter()),
            _ => false,
        }
    }
}

impl<'a> PvsEventBoxes<'a> {
    /// Reads `count` ids or entries, as the EventBox version says.
    #[inline(always)]
    pub(crate) fn read(
        cur: &mut Cursor<'a>,
        versions: Versions,
        count: u32,
        what: &'static str,
    ) -> Result<Self> {
        Ok(if gates::CAMERA_PVS_ENTRIES.stored(versions) {
            PvsEventBoxes::Entries(NameList::read(cur, count, true, what)?)
        } else {
            PvsEventBoxes::Ids(cur.read_slice(count as usize, what)?)
        })
    }
}

/// `render()` of a record whose eight render lists are fields of the same names (a camera's
/// lists and a scene's second pass).
macro_rules! render_lists {
    ($($record:ident),*) => {$(
        impl<'a> $record<'a> {
            /// The eight render lists, in [`RENDER_LIST_NAMES`] order.
            pub fn render(&self) -> [NameList<'a>; 8] {
                [
                    self.render_bg,
                    self.render_ani,
                    self.render_item,
                    self.render_gimmick,
                    self.no_render_bg,
                    self.no_render_ani,
                    self.no_render_item,
                    self.no_render_gimmick,
                ]
            }
        }
    )*};
}

render_lists!(CameraLists, SceneDetails);

impl<'a> CameraBox<'a> {
    /// The four camera infos, in order (checked at open: always four).
    pub fn camera_infos(&self) -> CameraInfos<'a> {
        CameraInfos {
            infos: self.infos.iter(),
            left: self.infos.len(),
        }
    }

    /// Camera info `index` (0 to 3): `None` beyond 3, the read's error should it fail.
    pub fn camera_info(&self, index: usize) -> Option<Result<CameraInfo<'a>>> {
        self.camera_infos().nth(index)
    }
}

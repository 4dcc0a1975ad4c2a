//! The oriented bounding box that starts every EventBox, AniBG, ItemBox and Gimmick.

use super::cursor::WdataCursor as _;
use super::raw::{RawObb, floats};
use super::wstr::WStr;
use crate::bytes::Cursor;
use crate::error::Result;

/// An object's name and its box: `wstr name; f32 position[3], scale[3], rotation[4] (XYZW),
/// extents[3]` (half sizes).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Obb<'a> {
    /// The box's name (e.g. `NpcBox60`).
    pub name: WStr<'a>,
    /// Position x, y, z (`pos`).
    pub position: [f32; 3],
    /// Scale x, y, z.
    pub scale: [f32; 3],
    /// Quaternion X, Y, Z, W.
    pub rotation: [f32; 4],
    /// Half sizes along the box's axes.
    pub extents: [f32; 3],
}

/// The fewest bytes an OBB takes (an empty name).
pub(crate) const OBB_MIN_SIZE: usize = 2 + core::mem::size_of::<RawObb>();

impl<'a> Obb<'a> {
    // Always inlined, as the records' reads are: a view's open steps over every box, and only
    // inlined is the unused box (thirteen floats) not built.
    #[inline(always)]
    pub(crate) fn read(
        cur: &mut Cursor<'a>,
        name: &'static str,
        obb: &'static str,
    ) -> Result<Self> {
        let name = cur.wstr(name)?;
        let raw: &RawObb = cur.read(obb)?;
        Ok(Obb {
            name,
            position: floats(&raw.position),
            scale: floats(&raw.scale),
            rotation: floats(&raw.rotation),
            extents: floats(&raw.extents),
        })
    }
}

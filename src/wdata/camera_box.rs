//! CameraBox (EventBox type 0): an OBB, a category (EventBoxVersion >= 7) and four camera infos,
//! each with its PVS and render lists (EventBoxVersion >= 4). The render lists' per-item id is gated
//! on the *main* version (22), not on EventBoxVersion.

use zerocopy::little_endian::{F32, U32};

use super::Versions;
use super::cursor::{WdataCursor as _, check_fits};
use super::gates;
use super::obb::Obb;
use super::raw::{Bool32, RawCameraListCounts, RawCameraParams, vec3};
use super::records::NameList;
use super::wstr::WStr;
use crate::bytes::Cursor;
use crate::error::Result;

/// The names of the eight render lists, in file order (cameras and scenes alike).
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

/// A CameraBox. Its four camera infos (large, with their lists) are typed when asked for, so
/// that an [`EventBox`](super::EventBox) stays small.
#[derive(Debug, Clone, Copy)]
pub struct CameraBox<'a> {
    /// The box: name, placement and half sizes.
    pub obb: Obb<'a>,
    /// EventBoxVersion >= 7.
    pub category: Option<u32>,
    infos: Cursor<'a>,
    versions: Versions,
}

impl PartialEq for CameraBox<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.obb == other.obb
            && self.category == other.category
            && self.camera_infos().eq(other.camera_infos())
    }
}

/// A CameraBox's four camera infos, in order.
#[derive(Debug, Clone)]
pub struct CameraInfos<'a> {
    cur: Cursor<'a>,
    index: usize,
    versions: Versions,
}

impl<'a> Iterator for CameraInfos<'a> {
    type Item = Result<CameraInfo<'a>>;

    /// The next camera info; a read that fails (it cannot in a view that opened) is yielded once
    /// as the error, and the iteration ends.
    #[inline]
    fn next(&mut self) -> Option<Result<CameraInfo<'a>>> {
        if self.index >= 4 {
            return None;
        }
        let info = CameraInfo::read(&mut self.cur, self.versions, self.index);
        self.index = if info.is_ok() { self.index + 1 } else { 4 };
        Some(info)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = 4 - self.index.min(4);
        (n, Some(n))
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

/// A camera info's lists (EventBoxVersion >= 4).
#[derive(Debug, Clone, Copy)]
pub struct CameraLists<'a> {
    /// Background ids of the potentially visible set, borrowed.
    pub pvs_bg: &'a [U32],
    /// The event boxes of the potentially visible set.
    pub pvs_event_boxes: PvsEventBoxes<'a>,
    /// The eight render lists in [`RENDER_LIST_NAMES`] order; items carry an id from main version 22.
    pub render: [NameList<'a>; 8],
    /// Build positions, borrowed (`x, y, z` each).
    pub build_positions: &'a [[F32; 3]],
}

impl PartialEq for CameraLists<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.pvs_bg == other.pvs_bg
            && self.pvs_event_boxes == other.pvs_event_boxes
            && self
                .render
                .iter()
                .zip(&other.render)
                .all(|(a, b)| a.iter().eq(b.iter()))
            && self.build_positions == other.build_positions
    }
}

/// One of a CameraBox's four cameras.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CameraInfo<'a> {
    /// Every entry from EventBoxVersion 3; only the first below it.
    pub camera_target: Option<WStr<'a>>,
    /// The camera's name.
    pub camera_name: WStr<'a>,
    /// Camera position x, y, z (the first 3 of the 21 camera floats).
    pub position: [f32; 3],
    /// Camera rotation x, y, z.
    pub rotation: [f32; 3],
    /// Field of view, in degrees.
    pub fov: f32,
    /// Further frustum parameters (extents or clipping planes; the seed does not say which).
    pub frustum: [f32; 14],
    /// EventBoxVersion >= 5.
    pub build_pvs: Option<Bool32>,
    /// EventBoxVersion >= 4.
    pub lists: Option<CameraLists<'a>>,
}

impl<'a> CameraInfo<'a> {
    fn read(cur: &mut Cursor<'a>, versions: Versions, index: usize) -> Result<Self> {
        let camera_target = if gates::CAMERA_TARGET_OF_EVERY_INFO.stored(versions) || index == 0 {
            Some(cur.wstr("CameraInfo.CameraTarget")?)
        } else {
            None
        };
        let camera_name = cur.wstr("CameraInfo.CameraName")?;
        let p: &RawCameraParams = cur.read("CameraInfo.params")?;
        let mut frustum = [0f32; 14];
        for (out, f) in frustum.iter_mut().zip(&p.frustum) {
            *out = f.get();
        }
        let build_pvs = if gates::CAMERA_BUILD_PVS.stored(versions) {
            Some(cur.bool32("CameraInfo.BuildPVS")?)
        } else {
            None
        };
        let lists = if gates::CAMERA_LISTS.stored(versions) {
            Some(CameraLists::read(cur, versions)?)
        } else {
            None
        };
        Ok(CameraInfo {
            camera_target,
            camera_name,
            position: vec3(&p.position),
            rotation: vec3(&p.rotation),
            fov: p.fov.get(),
            frustum,
            build_pvs,
            lists,
        })
    }
}

impl<'a> CameraLists<'a> {
    fn read(cur: &mut Cursor<'a>, versions: Versions) -> Result<Self> {
        let counts_at = cur.offset();
        let counts: &RawCameraListCounts = cur.read("CameraInfo.counts")?;
        check_fits(
            counts_at,
            "CameraInfo.pvsBgCount",
            counts.pvs_bg.get(),
            4,
            cur.remaining(),
        )?;
        let pvs_bg = cur.read_slice(counts.pvs_bg.get() as usize, "CameraInfo.PVS_BG")?;
        let pvs_event_boxes = if !gates::CAMERA_PVS_ENTRIES.stored(versions) {
            check_fits(
                counts_at + 4,
                "CameraInfo.pvsEvCount",
                counts.pvs_event_box.get(),
                4,
                cur.remaining(),
            )?;
            PvsEventBoxes::Ids(cur.read_slice(
                counts.pvs_event_box.get() as usize,
                "CameraInfo.PVS_EventBox",
            )?)
        } else {
            PvsEventBoxes::Entries(NameList::read(
                cur,
                counts.pvs_event_box.get(),
                true,
                "CameraInfo.PVS_EventEntries",
            )?)
        };
        let keyed = gates::RENDER_ITEM_KEY.stored(versions);
        let mut render = [NameList::empty(*cur); 8];
        for (list, count) in render.iter_mut().zip(&counts.render) {
            *list = NameList::read(cur, count.get(), keyed, "CameraInfo.RenderList")?;
        }
        check_fits(
            counts_at + 40,
            "CameraInfo.buildPosCount",
            counts.build_pos.get(),
            12,
            cur.remaining(),
        )?;
        let build_positions =
            cur.read_slice(counts.build_pos.get() as usize, "CameraInfo.BuildPos")?;
        Ok(CameraLists {
            pvs_bg,
            pvs_event_boxes,
            render,
            build_positions,
        })
    }
}

impl<'a> CameraBox<'a> {
    pub(crate) fn read(cur: &mut Cursor<'a>, versions: Versions) -> Result<Self> {
        let obb = Obb::read(cur, "CameraBox.Name", "CameraBox.Obb")?;
        let category = if gates::CAMERA_CATEGORY.stored(versions) {
            Some(cur.u32_le("CameraBox.Category")?)
        } else {
            None
        };
        let infos = *cur;
        for index in 0..4 {
            CameraInfo::read(cur, versions, index)?;
        }
        Ok(CameraBox {
            obb,
            category,
            infos,
            versions,
        })
    }

    /// The four camera infos, in order (checked at open: always four).
    pub fn camera_infos(&self) -> CameraInfos<'a> {
        CameraInfos {
            cur: self.infos,
            index: 0,
            versions: self.versions,
        }
    }

    /// Camera info `index` (0 to 3): `None` beyond 3, the read's error should it fail.
    pub fn camera_info(&self, index: usize) -> Option<Result<CameraInfo<'a>>> {
        self.camera_infos().nth(index)
    }
}

//! CameraBox (EventBox type 0): an OBB, a category (EventBoxVersion >= 7) and four camera infos,
//! each with its PVS and render lists (EventBoxVersion >= 4). The render lists' per-item id is gated
//! on the *main* version (22), not on EventBoxVersion. The three records are declared in the tables
//! of `flat_records.rs` (with the owned model's); what is here is how they are handed out.

use zerocopy::little_endian::U32;

use super::Versions;
use super::flat_records::SceneDetails;
pub use super::flat_records::{CameraBox, CameraInfo, CameraLists};
use super::records::{NameList, Records};
use super::step::{self, size};
use super::{gates, kind};
use crate::bytes::{Cursor, Place};
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

/// A camera info's position, rotation, field of view and frustum: the fixed-size fields between
/// its name and its PVS flag, as `CameraInfo` declares them.
const CAMERA_FLOATS: usize =
    2 * size::<kind::vec3>() + size::<kind::f32>() + size::<kind::f32x14>();

/// The counts before a camera info's lists: one a list of `CameraLists`.
const LIST_COUNTS: usize = 11;

/// Where the four camera infos at `at` end, from their string lengths and list counts alone:
/// `None` when any of it does not fit in `bytes` (the full read then says what and where).
///
/// The infos are stepped over twice for every time they are read (at open to find where the
/// CameraBox group ends, and when a walk is handed each box), and read whole they cost twice as
/// much: every list built, and the record's fields shuffled through the stack to build it. The
/// layout is that of `CameraInfo` and `CameraLists` in `flat_records.rs`, and a test holds the
/// two to the same end, or to failing together, on every fixture cut short or with a byte
/// changed.
#[inline]
pub(crate) fn camera_infos_end(bytes: &[u8], at: usize, versions: Versions) -> Option<usize> {
    let wstr = |at: usize| step::wstr(bytes, at);
    let count = |at: usize| -> Option<usize> {
        let &[a, b, c, d] = bytes.get(at..at.checked_add(4)?)? else {
            return None;
        };
        usize::try_from(u32::from_le_bytes([a, b, c, d])).ok()
    };
    // Past `n` names, each after a `u32` when keyed; every name takes 2 bytes or more, so the
    // loop ends by the end of the bytes whatever `n` says.
    let names = |mut at: usize, n: usize, keyed: bool| -> Option<usize> {
        for _ in 0..n {
            if keyed {
                at = at.checked_add(4)?;
            }
            at = wstr(at)?;
            if at > bytes.len() {
                return None;
            }
        }
        Some(at)
    };
    let pvs_entries = gates::CAMERA_PVS_ENTRIES.stored(versions);
    let render_keyed = gates::RENDER_ITEM_KEY.stored(versions);
    let mut at = at;
    for index in 0..4 {
        // The table's gates, which may depend on the info's place (the first stores its
        // target in every version).
        let place = Place {
            index,
            last: index == 3,
        };
        if CameraInfo::camera_target(versions, place) {
            at = wstr(at)?;
        }
        at = wstr(at)?;
        // Position, rotation, FOV and the fourteen frustum floats.
        at = at.checked_add(CAMERA_FLOATS)?;
        if CameraInfo::build_pvs(versions, place) {
            at = at.checked_add(size::<kind::bool32>())?;
        }
        if CameraInfo::lists(versions, place) {
            let counts = at;
            at = at.checked_add(LIST_COUNTS * size::<kind::u32>())?;
            if at > bytes.len() {
                return None;
            }
            let n = |i: usize| count(counts + size::<kind::u32>() * i);
            at = at.checked_add(n(0)?.checked_mul(size::<kind::u32>())?)?;
            at = if pvs_entries {
                names(at, n(1)?, true)?
            } else {
                at.checked_add(n(1)?.checked_mul(size::<kind::u32>())?)?
            };
            for list in 2..10 {
                at = names(at, n(list)?, render_keyed)?;
            }
            at = at.checked_add(n(10)?.checked_mul(size::<kind::vec3>())?)?;
        }
        if at > bytes.len() {
            return None;
        }
    }
    Some(at)
}

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

#[cfg(all(test, feature = "synth"))]
mod tests {
    use super::*;
    use crate::bytes::Bytes;
    use crate::wdata::{EventBox, Run, WdataView};

    /// Stepping over the infos by their lengths ends where reading them in full does, and fails
    /// exactly when the full read fails (which then gives the error).
    fn agree(bytes: &[u8], at: usize, versions: Versions) {
        let mut cur = Cursor::new(Bytes::new(bytes), at);
        let read = Run::<CameraInfo>::read(&mut cur, 4, versions).map(|_| cur.offset());
        let stepped = camera_infos_end(bytes, at, versions);
        assert_eq!(
            stepped,
            read.ok(),
            "camera infos at {at} of {} bytes",
            bytes.len()
        );
    }

    #[test]
    fn stepping_over_camera_infos_agrees_with_reading_them()
    -> core::result::Result<(), Box<dyn std::error::Error>> {
        let mut boxes = 0;
        for (_, data) in crate::synth::wdata::fixtures()? {
            let map = WdataView::from_bytes(&data)?;
            let versions = map.versions();
            let mut bad = data.clone();
            for b in map.event_boxes() {
                let EventBox::Camera(camera) = b? else {
                    continue;
                };
                boxes += 1;
                let at = camera.infos.offset();
                agree(&data, at, versions);
                // Cut short anywhere in the infos, or with a string length, a count or a
                // number made huge, negative or odd.
                let end = camera_infos_end(&data, at, versions).unwrap_or(data.len());
                for len in at..end {
                    agree(&data[..len], at, versions);
                }
                for i in at..end {
                    for flip in [0xff, 0x80, 0x01] {
                        bad[i] ^= flip;
                        agree(&bad, at, versions);
                        bad[i] ^= flip;
                    }
                }
            }
        }
        assert!(boxes > 0, "no fixture has a CameraBox");
        Ok(())
    }
}

//! EventBoxes (main version >= 7): the index table (`i32 typeCount`, then per type `i32 offset, i32
//! count`, offsets absolute), the groups it points at, and a typed view of every record of every
//! known type. Type 14 is unknown: its records are never guessed at; its group is exposed as raw
//! bytes when the next group's offset bounds it.

use zerocopy::little_endian::{F32, I32};

use super::Versions;
use super::camera_box::CameraBox;
use super::cursor::{WdataCursor as _, check_fits};
pub use super::flat_records::{
    CameraBlockBox, CameraTargetBox, CutoffBox, EnvironmentReverbBox, EtcBox, EventHitBox,
    InAreaBox, MiniMapIconBox, NpcBox, ObstacleBox, PortalBox, RespawnBox, SelectMapPortalBox,
    SkidBox, StartPointBox, TriggerBox, WaypointBox,
};
use super::obb::{OBB_MIN_SIZE, Obb};
use super::raw::RawEventBoxIndexEntry;
use super::records::Record;
use super::wstr::WStr;
use crate::bytes::{Bytes, Cursor, Place, u64_of};
use crate::error::{Error, ErrorKind, Result};

/// Index entries this reader accepts: the game writes 19; a few more are tolerated as unknown types.
pub const MAX_EVENT_BOX_TYPES: u32 = 256;

/// The EventBox types, by index-table position.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum EventBoxType {
    /// 0: a camera area with its four cameras and render lists.
    CameraBox = 0,
    /// 1: where enemies respawn.
    RespawnBox = 1,
    /// 2: a start point.
    StartPointBox = 2,
    /// 3: a trigger area.
    TriggerBox = 3,
    /// 4: an area that makes the player slide.
    SkidBox = 4,
    /// 5: an area that hits (damages).
    EventHitBox = 5,
    /// 6: an NPC's place.
    NpcBox = 6,
    /// 7: a portal to another map.
    PortalBox = 7,
    /// 8: a portal that opens a map selection.
    SelectMapPortalBox = 8,
    /// 9: an area that warps on entry.
    InAreaBox = 9,
    /// 10: any other box with an id.
    EtcBox = 10,
    /// 11: blocks the camera; no fields.
    CameraBlockBox = 11,
    /// 12: a cutoff area.
    CutoffBox = 12,
    /// 13: what the camera targets.
    CameraTargetBox = 13,
    /// Type 14: no known file or reader has one; its layout is unknown.
    UnusedBox = 14,
    /// 15: an icon on the mini map.
    MiniMapIconBox = 15,
    /// 16: an area with an environment reverb.
    EnvironmentReverbBox = 16,
    /// 17: a waypoint of a path network.
    WaypointBox = 17,
    /// 18: an obstacle; no fields.
    ObstacleBox = 18,
}

impl EventBoxType {
    /// Every type, in index order.
    pub const ALL: [EventBoxType; 19] = [
        EventBoxType::CameraBox,
        EventBoxType::RespawnBox,
        EventBoxType::StartPointBox,
        EventBoxType::TriggerBox,
        EventBoxType::SkidBox,
        EventBoxType::EventHitBox,
        EventBoxType::NpcBox,
        EventBoxType::PortalBox,
        EventBoxType::SelectMapPortalBox,
        EventBoxType::InAreaBox,
        EventBoxType::EtcBox,
        EventBoxType::CameraBlockBox,
        EventBoxType::CutoffBox,
        EventBoxType::CameraTargetBox,
        EventBoxType::UnusedBox,
        EventBoxType::MiniMapIconBox,
        EventBoxType::EnvironmentReverbBox,
        EventBoxType::WaypointBox,
        EventBoxType::ObstacleBox,
    ];

    /// The type at index-table position `index`, if the format names one.
    pub fn from_index(index: u32) -> Option<Self> {
        Self::ALL.get(usize::try_from(index).ok()?).copied()
    }

    /// The format's name (`"NpcBox"`).
    pub const fn name(self) -> &'static str {
        match self {
            EventBoxType::CameraBox => "CameraBox",
            EventBoxType::RespawnBox => "RespawnBox",
            EventBoxType::StartPointBox => "StartPointBox",
            EventBoxType::TriggerBox => "TriggerBox",
            EventBoxType::SkidBox => "SkidBox",
            EventBoxType::EventHitBox => "EventHitBox",
            EventBoxType::NpcBox => "NpcBox",
            EventBoxType::PortalBox => "PortalBox",
            EventBoxType::SelectMapPortalBox => "SelectMapPortalBox",
            EventBoxType::InAreaBox => "InAreaBox",
            EventBoxType::EtcBox => "EtcBox",
            EventBoxType::CameraBlockBox => "CameraBlockBox",
            EventBoxType::CutoffBox => "CutoffBox",
            EventBoxType::CameraTargetBox => "CameraTargetBox",
            EventBoxType::UnusedBox => "UnusedBox",
            EventBoxType::MiniMapIconBox => "MiniMapIconBox",
            EventBoxType::EnvironmentReverbBox => "EnvironmentReverbBox",
            EventBoxType::WaypointBox => "WaypointBox",
            EventBoxType::ObstacleBox => "ObstacleBox",
        }
    }

    /// Whether this reader knows the type's record layout (every type but 14).
    pub const fn is_known(self) -> bool {
        !matches!(self, EventBoxType::UnusedBox)
    }
}

/// What a CameraTargetBox targets: a name below EventBoxVersion 8, a text id from 8.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CameraTargetName<'a> {
    /// Below EventBoxVersion 8: the target's name.
    Name(WStr<'a>),
    /// From EventBoxVersion 8: the target name's text id.
    TextId(i32),
}

impl<'a> CameraTargetName<'a> {
    /// The first EventBox version that stores a text id instead of a name.
    pub const TEXT_ID_SINCE: i32 = 8;

    /// Reads the name or the text id, as the EventBox version says.
    pub(crate) fn read(cur: &mut Cursor<'a>, versions: Versions) -> Result<Self> {
        Ok(if versions.event_box < Self::TEXT_ID_SINCE {
            CameraTargetName::Name(cur.wstr("CameraTargetBox.TargetName")?)
        } else {
            CameraTargetName::TextId(cur.i32_le("CameraTargetBox.NameTextID")?)
        })
    }
}

/// A WaypointBox's links, borrowed: the file stores every link's id, then every link's distance
/// (one count for both), and the pairs are put together as they are iterated.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct WaypointLinks<'a> {
    /// Linked waypoint ids.
    pub ids: &'a [I32],
    /// One distance per link.
    pub distances: &'a [F32],
}

impl<'a> WaypointLinks<'a> {
    /// Reads `count` ids, then `count` distances.
    pub(crate) fn read(cur: &mut Cursor<'a>, count: u32, what: &'static str) -> Result<Self> {
        Ok(WaypointLinks {
            ids: cur.read_slice(count as usize, what)?,
            distances: cur.read_slice(count as usize, "WaypointBox.LinkDistances")?,
        })
    }

    /// Number of links.
    pub fn len(&self) -> usize {
        self.ids.len()
    }

    /// Whether the waypoint has no links.
    pub fn is_empty(&self) -> bool {
        self.ids.is_empty()
    }

    /// `(id, distance)` of every link, in file order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = (i32, f32)> + 'a {
        self.ids
            .iter()
            .zip(self.distances)
            .map(|(id, distance)| (id.get(), distance.get()))
    }
}

/// One EventBox record, typed.
#[derive(Debug, Clone, Copy, PartialEq)]
// A tag, then the record at one offset for every variant (and each record has its box first,
// `repr(C)` in `flat_records.rs`): `obb()` is then one address for every type, and a walk that
// reads the box and then matches on the type keeps more of the record in registers. Laid out
// by the compiler (the tag in a niche, the box wherever each variant's layout put it), the walk
// gathered every record on the stack to read it back through `obb()`: 1.4 M of the 44.9 M
// instructions of the bench's walk.
#[repr(u8)]
pub enum EventBox<'a> {
    /// Type 0.
    Camera(CameraBox<'a>),
    /// Type 1.
    Respawn(RespawnBox<'a>),
    /// Type 2.
    StartPoint(StartPointBox<'a>),
    /// Type 3.
    Trigger(TriggerBox<'a>),
    /// Type 4.
    Skid(SkidBox<'a>),
    /// Type 5.
    EventHit(EventHitBox<'a>),
    /// Type 6.
    Npc(NpcBox<'a>),
    /// Type 7.
    Portal(PortalBox<'a>),
    /// Type 8.
    SelectMapPortal(SelectMapPortalBox<'a>),
    /// Type 9.
    InArea(InAreaBox<'a>),
    /// Type 10.
    Etc(EtcBox<'a>),
    /// Type 11: the box alone.
    CameraBlock(CameraBlockBox<'a>),
    /// Type 12.
    Cutoff(CutoffBox<'a>),
    /// Type 13.
    CameraTarget(CameraTargetBox<'a>),
    /// Type 15.
    MiniMapIcon(MiniMapIconBox<'a>),
    /// Type 16.
    EnvironmentReverb(EnvironmentReverbBox<'a>),
    /// Type 17.
    Waypoint(WaypointBox<'a>),
    /// Type 18: the box alone.
    Obstacle(ObstacleBox<'a>),
}

/// One EventBox record of type `R`: no EventBox depends on its place in its group.
#[inline(always)]
fn read_one<'a, R: Record<'a, Context = Versions>>(
    cur: &mut Cursor<'a>,
    versions: Versions,
) -> Result<R> {
    R::read(
        cur,
        versions,
        Place {
            index: 0,
            last: false,
        },
    )
}

impl<'a> EventBox<'a> {
    /// The record's type.
    pub fn event_box_type(&self) -> EventBoxType {
        match self {
            EventBox::Camera(_) => EventBoxType::CameraBox,
            EventBox::Respawn(_) => EventBoxType::RespawnBox,
            EventBox::StartPoint(_) => EventBoxType::StartPointBox,
            EventBox::Trigger(_) => EventBoxType::TriggerBox,
            EventBox::Skid(_) => EventBoxType::SkidBox,
            EventBox::EventHit(_) => EventBoxType::EventHitBox,
            EventBox::Npc(_) => EventBoxType::NpcBox,
            EventBox::Portal(_) => EventBoxType::PortalBox,
            EventBox::SelectMapPortal(_) => EventBoxType::SelectMapPortalBox,
            EventBox::InArea(_) => EventBoxType::InAreaBox,
            EventBox::Etc(_) => EventBoxType::EtcBox,
            EventBox::CameraBlock(_) => EventBoxType::CameraBlockBox,
            EventBox::Cutoff(_) => EventBoxType::CutoffBox,
            EventBox::CameraTarget(_) => EventBoxType::CameraTargetBox,
            EventBox::MiniMapIcon(_) => EventBoxType::MiniMapIconBox,
            EventBox::EnvironmentReverb(_) => EventBoxType::EnvironmentReverbBox,
            EventBox::Waypoint(_) => EventBoxType::WaypointBox,
            EventBox::Obstacle(_) => EventBoxType::ObstacleBox,
        }
    }

    /// The box every record starts with.
    pub fn obb(&self) -> &Obb<'a> {
        match self {
            EventBox::Camera(b) => &b.obb,
            EventBox::Respawn(b) => &b.obb,
            EventBox::StartPoint(b) => &b.obb,
            EventBox::Trigger(b) => &b.obb,
            EventBox::Skid(b) => &b.obb,
            EventBox::EventHit(b) => &b.obb,
            EventBox::Npc(b) => &b.obb,
            EventBox::Portal(b) => &b.obb,
            EventBox::SelectMapPortal(b) => &b.obb,
            EventBox::InArea(b) => &b.obb,
            EventBox::Etc(b) => &b.obb,
            EventBox::CameraBlock(b) => &b.obb,
            EventBox::Cutoff(b) => &b.obb,
            EventBox::MiniMapIcon(b) => &b.obb,
            EventBox::EnvironmentReverb(b) => &b.obb,
            EventBox::Obstacle(b) => &b.obb,
            EventBox::CameraTarget(b) => &b.obb,
            EventBox::Waypoint(b) => &b.obb,
        }
    }

    /// Steps over `count` records of type `ty` (a known type) at the cursor, checking each as
    /// [`read`](Self::read) does and failing with the same error.
    pub(crate) fn step_over(
        cur: &mut Cursor<'a>,
        versions: Versions,
        ty: EventBoxType,
        count: u32,
    ) -> Result<()> {
        // One loop per type, each around that type's own read (always inlined): what a record
        // builds is dropped unused, so only its checks are left, and the type is matched once a
        // group rather than once a record. Opening a view steps over every EventBox so.
        fn each<'a, R: Record<'a, Context = Versions>>(
            cur: &mut Cursor<'a>,
            versions: Versions,
            count: u32,
        ) -> Result<()> {
            for _ in 0..count {
                read_one::<R>(cur, versions)?;
            }
            Ok(())
        }
        match ty {
            EventBoxType::CameraBox => each::<CameraBox>(cur, versions, count),
            EventBoxType::RespawnBox => each::<RespawnBox>(cur, versions, count),
            EventBoxType::StartPointBox => each::<StartPointBox>(cur, versions, count),
            EventBoxType::TriggerBox => each::<TriggerBox>(cur, versions, count),
            EventBoxType::SkidBox => each::<SkidBox>(cur, versions, count),
            EventBoxType::EventHitBox => each::<EventHitBox>(cur, versions, count),
            EventBoxType::NpcBox => each::<NpcBox>(cur, versions, count),
            EventBoxType::PortalBox => each::<PortalBox>(cur, versions, count),
            EventBoxType::SelectMapPortalBox => each::<SelectMapPortalBox>(cur, versions, count),
            EventBoxType::InAreaBox => each::<InAreaBox>(cur, versions, count),
            EventBoxType::EtcBox => each::<EtcBox>(cur, versions, count),
            EventBoxType::CameraBlockBox => each::<CameraBlockBox>(cur, versions, count),
            EventBoxType::CutoffBox => each::<CutoffBox>(cur, versions, count),
            EventBoxType::CameraTargetBox => each::<CameraTargetBox>(cur, versions, count),
            EventBoxType::MiniMapIconBox => each::<MiniMapIconBox>(cur, versions, count),
            EventBoxType::EnvironmentReverbBox => {
                each::<EnvironmentReverbBox>(cur, versions, count)
            }
            EventBoxType::WaypointBox => each::<WaypointBox>(cur, versions, count),
            EventBoxType::ObstacleBox => each::<ObstacleBox>(cur, versions, count),
            // The first record fails as `read` fails it.
            EventBoxType::UnusedBox if count > 0 => Self::read(cur, versions, ty).map(|_| ()),
            EventBoxType::UnusedBox => Ok(()),
        }
    }

    /// Reads one record of type `ty` (a known type) at the cursor.
    // Inlined into a walk (in the caller's crate too), the record is built where the walk
    // matches on it, rather than built here and copied out through the `Result`, every
    // variant's fields gathered into one return slot: 2.3 M of the 56 M instructions of the
    // bench's walk.
    #[inline]
    pub(crate) fn read(cur: &mut Cursor<'a>, versions: Versions, ty: EventBoxType) -> Result<Self> {
        use read_one as read;
        Ok(match ty {
            EventBoxType::CameraBox => EventBox::Camera(read(cur, versions)?),
            EventBoxType::RespawnBox => EventBox::Respawn(read(cur, versions)?),
            EventBoxType::StartPointBox => EventBox::StartPoint(read(cur, versions)?),
            EventBoxType::TriggerBox => EventBox::Trigger(read(cur, versions)?),
            EventBoxType::SkidBox => EventBox::Skid(read(cur, versions)?),
            EventBoxType::EventHitBox => EventBox::EventHit(read(cur, versions)?),
            EventBoxType::NpcBox => EventBox::Npc(read(cur, versions)?),
            EventBoxType::PortalBox => EventBox::Portal(read(cur, versions)?),
            EventBoxType::SelectMapPortalBox => EventBox::SelectMapPortal(read(cur, versions)?),
            EventBoxType::InAreaBox => EventBox::InArea(read(cur, versions)?),
            EventBoxType::EtcBox => EventBox::Etc(read(cur, versions)?),
            EventBoxType::CameraBlockBox => EventBox::CameraBlock(read(cur, versions)?),
            EventBoxType::CutoffBox => EventBox::Cutoff(read(cur, versions)?),
            EventBoxType::CameraTargetBox => EventBox::CameraTarget(read(cur, versions)?),
            EventBoxType::MiniMapIconBox => EventBox::MiniMapIcon(read(cur, versions)?),
            EventBoxType::EnvironmentReverbBox => EventBox::EnvironmentReverb(read(cur, versions)?),
            EventBoxType::WaypointBox => EventBox::Waypoint(read(cur, versions)?),
            EventBoxType::ObstacleBox => EventBox::Obstacle(read(cur, versions)?),
            EventBoxType::UnusedBox => {
                return Err(Error::new(
                    u64_of(cur.offset()),
                    "EventBox.type",
                    ErrorKind::UnsupportedVersion { found: 14 },
                ));
            }
        })
    }
}

/// One index entry and the group it points at.
#[derive(Debug, Clone, Copy)]
pub struct EventBoxGroup<'a> {
    /// Position in the index table (= the type number).
    pub type_index: u32,
    /// Absolute offset of the group (meaningless when `count` is 0).
    pub offset: usize,
    /// Number of records of this type.
    pub count: u32,
    /// For an unknown type (14, or 19 and up) with records: the group's bytes, bounded by the next
    /// group's offset. Never interpreted.
    pub raw: Option<&'a [u8]>,
    bytes: Bytes<'a>,
    versions: Versions,
}

impl<'a> EventBoxGroup<'a> {
    /// The group's type, if the format names one.
    pub fn event_box_type(&self) -> Option<EventBoxType> {
        EventBoxType::from_index(self.type_index)
    }

    /// Whether this reader can type the group's records.
    pub fn is_known(&self) -> bool {
        self.event_box_type().is_some_and(EventBoxType::is_known)
    }

    /// The group's records, typed (none for an unknown type: see [`raw`](Self::raw)).
    pub fn boxes(&self) -> EventBoxes<'a> {
        let ty = self.event_box_type().filter(|t| t.is_known());
        EventBoxes {
            cur: Cursor::new(self.bytes, self.offset),
            remaining: if ty.is_some() { self.count } else { 0 },
            versions: self.versions,
            ty: ty.unwrap_or(EventBoxType::ObstacleBox),
        }
    }
}

/// The typed records of one group.
#[derive(Debug, Clone)]
pub struct EventBoxes<'a> {
    cur: Cursor<'a>,
    remaining: u32,
    versions: Versions,
    ty: EventBoxType,
}

impl<'a> EventBoxes<'a> {
    /// Absolute offset of the next record.
    pub fn offset(&self) -> usize {
        self.cur.offset()
    }
}

impl<'a> Iterator for EventBoxes<'a> {
    type Item = Result<EventBox<'a>>;

    /// The next record; a read that fails (it cannot in a group of a view that opened) is yielded
    /// once as the error, and the iteration ends.
    #[inline]
    fn next(&mut self) -> Option<Result<EventBox<'a>>> {
        self.remaining = self.remaining.checked_sub(1)?;
        let record = EventBox::read(&mut self.cur, self.versions, self.ty);
        if record.is_err() {
            self.remaining = 0;
        }
        Some(record)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.remaining as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for EventBoxes<'_> {}

/// The EventBox section: the index and where AniBG starts.
#[derive(Debug, Clone, Copy)]
pub(crate) struct EventBoxSection<'a> {
    pub(crate) index: &'a [RawEventBoxIndexEntry],
    pub(crate) index_at: usize,
    pub(crate) end: usize,
}

/// The smallest offset of an empty group after `offset` (and inside the file).
fn empty_group_bound(index: &[RawEventBoxIndexEntry], offset: usize, len: usize) -> Option<usize> {
    index
        .iter()
        .filter(|e| e.count.get() == 0)
        .filter_map(|e| usize::try_from(e.offset.get()).ok())
        .filter(|&o| o > offset && o <= len)
        .min()
}

/// A non-empty group's checked start.
fn group_start(
    bytes: Bytes<'_>,
    entry_at: usize,
    e: &RawEventBoxIndexEntry,
    index_end: usize,
) -> Result<(usize, u32)> {
    let count = u32::try_from(e.count.get()).map_err(|_| {
        Error::invalid(
            u64_of(entry_at.saturating_add(4)),
            "EventBoxIndex.count",
            u64::from(e.count.get() as u32),
            "negative count",
        )
    })?;
    let offset = usize::try_from(e.offset.get())
        .ok()
        .filter(|&o| o >= index_end && o <= bytes.len())
        .ok_or_else(|| {
            Error::invalid(
                u64_of(entry_at),
                "EventBoxIndex.offset",
                u64::from(e.offset.get() as u32),
                "group offset is not between the end of the index and the end of the file",
            )
        })?;
    Ok((offset, count))
}

impl<'a> EventBoxSection<'a> {
    /// Reads the index at `at`, walks every known group, and finds the section's end (the end of
    /// the highest-offset non-empty group). Groups must not overlap and must leave no gap between
    /// the index and that end.
    pub(crate) fn read(bytes: Bytes<'a>, at: usize, versions: Versions) -> Result<Self> {
        let mut cur = Cursor::new(bytes, at);
        let types = cur.count("EventBoxIndex.typeCount", 8)?;
        if types > MAX_EVENT_BOX_TYPES {
            return Err(Error::invalid(
                u64_of(at),
                "EventBoxIndex.typeCount",
                u64::from(types),
                "more than 256 EventBox types (the format has 19)",
            ));
        }
        let index_at = cur.offset();
        let index: &[RawEventBoxIndexEntry] =
            cur.read_slice(types as usize, "EventBoxIndex.entries")?;
        let index_end = cur.offset();
        let entry_at = |i: usize| index_at + i * 8;
        let mut end = index_end;
        let mut last_start = None;
        let mut covered = 0usize;
        for (i, e) in index.iter().enumerate() {
            if e.count.get() == 0 {
                continue;
            }
            let (offset, count) = group_start(bytes, entry_at(i), e, index_end)?;
            // The next non-empty group's start bounds this one (groups may come in any order).
            let mut next: Option<usize> = None;
            for (j, other) in index.iter().enumerate() {
                if j == i || other.count.get() == 0 {
                    continue;
                }
                let (o, _) = group_start(bytes, entry_at(j), other, index_end)?;
                if o == offset {
                    return Err(Error::invalid(
                        u64_of(entry_at(j)),
                        "EventBoxIndex.offset",
                        u64_of(o),
                        "two non-empty groups start at the same offset",
                    ));
                }
                if o > offset && next.is_none_or(|n| o < n) {
                    next = Some(o);
                }
            }
            let ty = EventBoxType::from_index(i as u32).filter(|t| t.is_known());
            // An unknown group that no non-empty group follows: the writer gives the empty groups
            // after it "the current position" as offset, which is where it ends.
            let bound = next.or_else(|| empty_group_bound(index, offset, bytes.len()));
            let group_end = match ty {
                Some(ty) => {
                    check_fits(
                        entry_at(i) + 4,
                        "EventBoxIndex.count",
                        count,
                        OBB_MIN_SIZE,
                        bytes.len() - offset,
                    )?;
                    let mut g = Cursor::new(bytes, offset);
                    EventBox::step_over(&mut g, versions, ty, count)?;
                    g.offset()
                }
                None => {
                    let Some(n) = bound else {
                        return Err(Error::new(
                            u64_of(entry_at(i)),
                            "EventBoxIndex.entries",
                            ErrorKind::InvalidValue {
                                value: u64::from(i as u32),
                                reason: "records of an unknown EventBox type (value: the type) in the last group, and no later group offset: its end, and so where AniBG starts, cannot be found",
                            },
                        ));
                    };
                    check_fits(
                        entry_at(i) + 4,
                        "EventBoxIndex.count",
                        count,
                        OBB_MIN_SIZE,
                        n - offset,
                    )?;
                    n
                }
            };
            if let Some(n) = next {
                if group_end > n {
                    return Err(Error::invalid(
                        u64_of(offset),
                        "EventBoxGroup",
                        u64_of(group_end),
                        "the group (value: its end) runs into the next group",
                    ));
                }
            }
            covered += group_end - offset;
            if last_start.is_none_or(|s| offset > s) {
                last_start = Some(offset);
                end = group_end;
            }
        }
        if covered != end - index_end {
            return Err(Error::invalid(
                u64_of(index_end),
                "EventBoxIndex.offset",
                u64_of(end - index_end - covered.min(end - index_end)),
                "bytes between the index and AniBG that no group covers (value: how many)",
            ));
        }
        Ok(EventBoxSection {
            index,
            index_at,
            end,
        })
    }

    /// The group of index entry `i`.
    pub(crate) fn group(
        &self,
        bytes: Bytes<'a>,
        versions: Versions,
        i: usize,
    ) -> Option<EventBoxGroup<'a>> {
        let e = self.index.get(i)?;
        let count = u32::try_from(e.count.get()).unwrap_or(0);
        let offset = usize::try_from(e.offset.get()).unwrap_or(0);
        let known = EventBoxType::from_index(i as u32).is_some_and(EventBoxType::is_known);
        let raw = if count > 0 && !known {
            let next = self
                .index
                .iter()
                .filter(|o| o.count.get() > 0)
                .filter_map(|o| usize::try_from(o.offset.get()).ok())
                .filter(|&o| o > offset)
                .min()
                .or_else(|| empty_group_bound(self.index, offset, bytes.len()));
            next.and_then(|n| bytes.slice(offset, n - offset, "EventBoxGroup").ok())
        } else {
            None
        };
        Some(EventBoxGroup {
            type_index: i as u32,
            offset,
            count,
            raw,
            bytes,
            versions,
        })
    }
}

#[cfg(all(test, feature = "synth"))]
mod tests {
    use super::*;
    use crate::wdata::WdataView;

    /// Where each way of reading a group ends, or how it fails: stepping over it (as a view's
    /// open does) and reading every record typed (as `EventBoxes` does).
    fn both(bytes: &[u8], versions: Versions, ty: EventBoxType, at: usize, count: u32) {
        let bytes = Bytes::new(bytes);
        let mut stepped = Cursor::new(bytes, at);
        let step =
            EventBox::step_over(&mut stepped, versions, ty, count).map(|()| stepped.offset());
        let mut read = Cursor::new(bytes, at);
        let typed = (0..count)
            .try_for_each(|_| EventBox::read(&mut read, versions, ty).map(|_| ()))
            .map(|()| read.offset());
        assert_eq!(step, typed, "{ty:?} group at {at} ({count} records)");
    }

    /// On every fixture, and on every fixture truncated or with a byte changed inside its
    /// EventBoxes, stepping over a group ends where reading it does, or fails with its error.
    #[test]
    fn stepping_over_a_group_agrees_with_reading_it()
    -> core::result::Result<(), Box<dyn std::error::Error>> {
        let fixtures = crate::synth::wdata::fixtures()?;
        let mut groups = 0;
        for (_, data) in &fixtures {
            let map = WdataView::from_bytes(data)?;
            let versions = map.versions();
            let end = map.sections().anibg;
            let mut bad = data.clone();
            for group in map
                .event_box_groups()
                .filter(|g| g.is_known() && g.count > 0)
            {
                let Some(ty) = group.event_box_type() else {
                    continue;
                };
                groups += 1;
                both(data, versions, ty, group.offset, group.count);
                // The group's first records, cut short anywhere, or with a string length, a
                // count or a number made huge, negative or odd.
                let near = group.offset..end.min(group.offset + 600);
                for len in near.clone() {
                    both(&data[..len], versions, ty, group.offset, group.count);
                }
                for at in near.step_by(3) {
                    for flip in [0xff, 0x80, 0x01] {
                        bad[at] ^= flip;
                        both(&bad, versions, ty, group.offset, group.count);
                        bad[at] ^= flip;
                    }
                }
            }
        }
        assert!(groups > 0, "no fixture has an EventBox");
        Ok(())
    }
}

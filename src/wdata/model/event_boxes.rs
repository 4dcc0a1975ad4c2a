//! The EventBoxes section (main version >= 7): an index of `(absolute offset, count)` per type,
//! then the records of each type. Gates use the header's EventBox version (`evVer`), except the
//! CameraBox render-list id, which is gated on the *main* version (22).

use super::from_view::ws;
use super::map::WString;
use super::{
    CameraBlockBox, CameraBox, CameraTargetBox, CutoffBox, EnvironmentReverbBox, EtcBox,
    EventHitBox, InAreaBox, MiniMapIconBox, NpcBox, ObstacleBox, PortalBox, RespawnBox,
    SelectMapPortalBox, SkidBox, StartPointBox, TriggerBox, WaypointBox,
};

/// Number of EventBox types the game knows (0..=18); the writer always writes this many index
/// entries unless [`EventBoxes::type_count`] says fewer.
pub const TYPE_COUNT: u32 = 19;

/// Every EventBox of a map, one list per type (the index entry number is the type).
#[derive(Clone, Debug, PartialEq)]
pub struct EventBoxes {
    /// The number of index entries (normally [`TYPE_COUNT`]); the groups of types at or beyond
    /// it must be empty.
    pub type_count: u32,
    /// Type 0.
    pub camera: Vec<CameraBox>,
    /// Type 1.
    pub respawn: Vec<RespawnBox>,
    /// Type 2.
    pub start_point: Vec<StartPointBox>,
    /// Type 3.
    pub trigger: Vec<TriggerBox>,
    /// Type 4.
    pub skid: Vec<SkidBox>,
    /// Type 5.
    pub event_hit: Vec<EventHitBox>,
    /// Type 6.
    pub npc: Vec<NpcBox>,
    /// Type 7.
    pub portal: Vec<PortalBox>,
    /// Type 8.
    pub select_map_portal: Vec<SelectMapPortalBox>,
    /// Type 9.
    pub in_area: Vec<InAreaBox>,
    /// Type 10.
    pub etc: Vec<EtcBox>,
    /// Type 11.
    pub camera_block: Vec<CameraBlockBox>,
    /// Type 12.
    pub cutoff: Vec<CutoffBox>,
    /// Type 13.
    pub camera_target: Vec<CameraTargetBox>,
    /// Type 14: its layout is unknown, so it is kept as the stored count and raw bytes.
    pub unused: RawGroup,
    /// Type 15.
    pub mini_map_icon: Vec<MiniMapIconBox>,
    /// Type 16.
    pub environment_reverb: Vec<EnvironmentReverbBox>,
    /// Type 17.
    pub waypoint: Vec<WaypointBox>,
    /// Type 18.
    pub obstacle: Vec<ObstacleBox>,
    /// Types 19 and up (no known layout), one raw group per index entry beyond type 18: exactly
    /// `type_count - 19` of them when `type_count` is over 19, none otherwise. A reader can bound
    /// a non-empty one only by a group that follows it in the file (a non-empty one, or an empty
    /// one whose offset is its position): the writer refuses a layout where none does.
    pub beyond: Vec<RawGroup>,
    /// Where the groups lie in the file when another writer laid them out otherwise than this
    /// crate's writer (the default: type order, an empty group's offset its position).
    pub layout: EventBoxLayout,
}

/// How an EventBoxes section's groups are laid out in the file, kept so that a map from another
/// writer packs back byte for byte. The index stores each group's offset, so the groups may lie
/// in any order, and an empty group's offset says nothing: this crate's writer (as the game's)
/// lays the groups out in type order and gives an empty group the position where it lies.
///
/// [`WdataModel::from_view`](super::WdataModel::from_view) records the order it reads and the
/// empty groups stored with offset 0; any other offset of an empty group that is not a position
/// between groups is not kept (writing the model stores its position). When the model is edited
/// the facts still hold: the groups follow the kept order whatever their new sizes, and an empty
/// group listed in `zero_offsets` that is given boxes stores its position like any other.
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(deny_unknown_fields)
)]
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct EventBoxLayout {
    /// The index entries (type numbers, `0..type_count`) in the order their groups lie in the
    /// file, each once; empty for type order.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Vec::is_empty")
    )]
    pub order: Vec<u32>,
    /// The types whose group, while empty, has offset 0 in the index rather than its position,
    /// each once, in type order as read.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Vec::is_empty")
    )]
    pub zero_offsets: Vec<u32>,
}

impl EventBoxLayout {
    /// Whether this is the layout this crate's writer makes by itself (type order, every empty
    /// group's offset its position): the JSON form leaves such a layout out.
    pub fn is_default(&self) -> bool {
        self.order.is_empty() && self.zero_offsets.is_empty()
    }
}

impl Default for EventBoxes {
    fn default() -> EventBoxes {
        EventBoxes {
            type_count: TYPE_COUNT,
            camera: Vec::new(),
            respawn: Vec::new(),
            start_point: Vec::new(),
            trigger: Vec::new(),
            skid: Vec::new(),
            event_hit: Vec::new(),
            npc: Vec::new(),
            portal: Vec::new(),
            select_map_portal: Vec::new(),
            in_area: Vec::new(),
            etc: Vec::new(),
            camera_block: Vec::new(),
            cutoff: Vec::new(),
            camera_target: Vec::new(),
            unused: RawGroup::default(),
            mini_map_icon: Vec::new(),
            environment_reverb: Vec::new(),
            waypoint: Vec::new(),
            obstacle: Vec::new(),
            beyond: Vec::new(),
            layout: EventBoxLayout::default(),
        }
    }
}

/// A group whose record layout is unknown (type 14): the count from the index and the bytes of
/// the group, written as they are.
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(deny_unknown_fields)
)]
#[derive(Clone, Debug, PartialEq, Default)]
pub struct RawGroup {
    /// Number of records, from the index.
    pub count: i32,
    /// Shown in hex in the JSON dump.
    #[cfg_attr(
        feature = "serde",
        serde(
            rename = "raw_hex",
            serialize_with = "super::json::hex",
            deserialize_with = "super::json::from_hex"
        )
    )]
    pub bytes: Vec<u8>,
}

/// The PVS EventBox list: plain ids below evVer 6, `(category, name)` pairs from evVer 6.
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", serde(untagged))]
pub enum PvsEventBoxes {
    /// evVer < 6.
    Ids(Vec<u32>),
    /// evVer >= 6.
    Entries(Vec<PvsEventEntry>),
}

impl Default for PvsEventBoxes {
    fn default() -> PvsEventBoxes {
        PvsEventBoxes::Entries(Vec::new())
    }
}

/// An EventBox reference in a PVS list (evVer >= 6).
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(deny_unknown_fields)
)]
#[derive(Clone, Debug, PartialEq, Default)]
pub struct PvsEventEntry {
    /// The event box's category.
    pub category: u32,
    /// The event box's name.
    pub name: WString,
}

/// An item of a CameraInfo's render / no-render lists.
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(deny_unknown_fields)
)]
#[derive(Clone, Debug, PartialEq, Default)]
pub struct RenderEntry {
    /// Main version >= 22 (not the EventBox version).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub id: Option<u32>,
    /// The item's name.
    pub name: WString,
}

/// How a CameraTargetBox names its target: a string below evVer 8, a text id from evVer 8.
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum CameraTargetName {
    /// evVer < 8.
    Name(WString),
    /// evVer >= 8.
    TextId(i32),
}

impl Default for CameraTargetName {
    fn default() -> CameraTargetName {
        CameraTargetName::TextId(0)
    }
}

/// A waypoint's link to another waypoint.
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(deny_unknown_fields)
)]
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct WaypointLink {
    /// Id of the linked waypoint.
    pub id: i32,
    /// The float stored for the link (a distance, by the writer's reading).
    pub distance: f32,
}

impl PvsEventBoxes {
    /// Number of ids or entries.
    pub fn len(&self) -> usize {
        match self {
            PvsEventBoxes::Ids(ids) => ids.len(),
            PvsEventBoxes::Entries(entries) => entries.len(),
        }
    }

    /// Whether the list is empty.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

impl CameraTargetName {
    /// Copies the reader's target.
    pub(crate) fn from_read(t: crate::wdata::CameraTargetName<'_>) -> CameraTargetName {
        match t {
            crate::wdata::CameraTargetName::Name(n) => CameraTargetName::Name(ws(n)),
            crate::wdata::CameraTargetName::TextId(id) => CameraTargetName::TextId(id),
        }
    }
}

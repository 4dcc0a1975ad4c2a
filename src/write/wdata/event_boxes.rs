//! The EventBoxes section (main version >= 7): an index of `(absolute offset, count)` per type,
//! then the records of each type. Gates use the header's EventBox version (`evVer`), except the
//! CameraBox render-list id, which is gated on the *main* version (22).

use super::model::{Bool32, Obb, WString};

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
        }
    }
}

/// A group whose record layout is unknown (type 14): the count from the index and the bytes of
/// the group, written as they are.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct RawGroup {
    pub count: i32,
    pub bytes: Vec<u8>,
}

/// Type 0: a camera zone with four camera set-ups.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct CameraBox {
    pub obb: Obb,
    /// evVer >= 7.
    pub category: Option<u32>,
    pub infos: [CameraInfo; 4],
}

/// One of a CameraBox's four camera set-ups.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct CameraInfo {
    /// Stored for every entry when evVer >= 3, and only for the first entry below that.
    pub camera_target: Option<WString>,
    pub camera_name: WString,
    /// The first 3 of the 21 stored floats.
    pub camera_position: [f32; 3],
    /// Floats 3..6.
    pub camera_rotation: [f32; 3],
    /// Float 6.
    pub fov: f32,
    /// Floats 7..21.
    pub frustum: [f32; 14],
    /// evVer >= 5.
    pub build_pvs: Option<Bool32>,
    /// evVer >= 4.
    pub lists: Option<CameraLists>,
}

/// A CameraInfo's visibility lists (evVer >= 4), stored as 11 counts then the lists in this order.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct CameraLists {
    pub pvs_bg: Vec<u32>,
    pub pvs_event_boxes: PvsEventBoxes,
    pub render_bg: Vec<RenderEntry>,
    pub render_ani: Vec<RenderEntry>,
    pub render_item: Vec<RenderEntry>,
    pub render_gimmick: Vec<RenderEntry>,
    pub no_render_bg: Vec<RenderEntry>,
    pub no_render_ani: Vec<RenderEntry>,
    pub no_render_item: Vec<RenderEntry>,
    pub no_render_gimmick: Vec<RenderEntry>,
    /// `buildPos` points.
    pub build_positions: Vec<[f32; 3]>,
}

/// The PVS EventBox list: plain ids below evVer 6, `(category, name)` pairs from evVer 6.
#[derive(Clone, Debug, PartialEq)]
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
#[derive(Clone, Debug, PartialEq, Default)]
pub struct PvsEventEntry {
    pub category: u32,
    pub name: WString,
}

/// An item of a CameraInfo's render / no-render lists.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct RenderEntry {
    /// Main version >= 22 (not the EventBox version).
    pub id: Option<u32>,
    pub name: WString,
}

/// Type 1: an enemy spawn volume.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct RespawnBox {
    pub obb: Obb,
    pub total_enemy_num: i32,
    pub enemy_num: i32,
    pub enemy_name: WString,
    pub respawn_time: f32,
    pub respawn_motion: WString,
    pub in_check: Bool32,
    pub random_direction: Bool32,
    /// One flag per difficulty level.
    pub difficulty: [Bool32; 5],
}

/// Type 2: a player start position.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct StartPointBox {
    pub obb: Obb,
    pub id: i32,
}

/// Type 3: a generic trigger volume.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct TriggerBox {
    pub obb: Obb,
    pub state: i32,
    pub action_motion: WString,
    pub motion: WString,
    /// evVer >= 9.
    pub signpost: Option<Signpost>,
}

/// A TriggerBox's signpost (evVer >= 9).
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Signpost {
    pub text_id: i32,
    pub reposition: [f32; 3],
}

/// Type 4: a slide volume.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct SkidBox {
    pub obb: Obb,
    pub state: i32,
    pub velocity: [f32; 3],
    pub end_time: f32,
    pub duration: f32,
}

/// Type 5: a damage volume.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct EventHitBox {
    pub obb: Obb,
    pub state: i32,
    pub anibg_name: WString,
    pub damage: f32,
    pub direction: [f32; 3],
    pub damage_motion: WString,
    pub hit_times: Vec<f32>,
    pub temp_hit_times: Vec<f32>,
}

/// Type 6: an NPC spawn.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct NpcBox {
    pub obb: Obb,
    pub npc_name: WString,
    pub id: i32,
    pub instance_id: i32,
}

/// Type 7: a portal to another map.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct PortalBox {
    pub obb: Obb,
    pub warp_map_name: WString,
    pub id: i32,
    pub msg_type: i32,
    pub warp_map_id: i32,
    pub warp_portal_id: i32,
    pub active: Bool32,
}

/// Type 8: a portal that opens the map selection.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct SelectMapPortalBox {
    pub obb: Obb,
    pub id: i32,
    pub msg_type: i32,
    pub active: Bool32,
}

/// Type 9: an area trigger.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct InAreaBox {
    pub obb: Obb,
    pub warp_map_name: WString,
    pub id: i32,
    pub active: Bool32,
}

/// Type 10: a generic marker.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct EtcBox {
    pub obb: Obb,
    pub id: i32,
}

/// Type 11: a camera blocker (the box alone).
#[derive(Clone, Debug, PartialEq, Default)]
pub struct CameraBlockBox {
    pub obb: Obb,
}

/// Type 12: a cutoff volume.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct CutoffBox {
    pub obb: Obb,
    pub cutoff_type: i32,
}

/// Type 13: a camera focus target.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct CameraTargetBox {
    pub obb: Obb,
    pub target: CameraTargetName,
    /// evVer >= 2.
    pub target_local_pc: Option<Bool32>,
}

/// How a CameraTargetBox names its target: a string below evVer 8, a text id from evVer 8.
#[derive(Clone, Debug, PartialEq)]
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

/// Type 15: a minimap icon position.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct MiniMapIconBox {
    pub obb: Obb,
    pub icon_type: i32,
}

/// Type 16: an audio reverb zone.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct EnvironmentReverbBox {
    pub obb: Obb,
    pub reverb_type: i32,
}

/// Type 17: a waypoint node. The file stores the link ids and then the link distances as two
/// lists of one count; the model pairs them so they cannot differ in length.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct WaypointBox {
    pub obb: Obb,
    pub id: i32,
    pub range: f32,
    pub links: Vec<WaypointLink>,
}

/// A waypoint's link to another waypoint.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct WaypointLink {
    pub id: i32,
    pub distance: f32,
}

/// Type 18: an obstacle volume (the box alone).
#[derive(Clone, Debug, PartialEq, Default)]
pub struct ObstacleBox {
    pub obb: Obb,
}

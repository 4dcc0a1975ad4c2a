//! The EventBox records that are flat — the box, then fields every EventBox version stores —
//! declared once. [`flat_event_boxes!`] is the table: it hands every record (its name, its
//! format name for errors, and each field with its kind and format name) to the macro it is given.
//! The reader ([`reader_records!`], here) and the owned model (`write::wdata`, which makes the
//! model struct, its writer and its conversion from the reader's record) both expand the same
//! table, so a field added to a record reaches all three.
//!
//! Field kinds: `i32`, `f32`, `bool32` (4-byte bool), `wstr` (UTF-16 string), `vec3` (three
//! `f32`s), `bool32x5` (five 4-byte bools).

/// The table of flat EventBox records; `$m!` receives all of them.
macro_rules! flat_event_boxes {
    ($m:ident) => {
        $m! {
            /// RespawnBox (type 1): an enemy spawn volume.
            RespawnBox = "RespawnBox" {
                /// Total number of enemies to respawn.
                total_enemy_num: i32 = "TotalEnemyNum",
                /// Number of enemies at a time.
                enemy_num: i32 = "EnemyNum",
                /// Name of the enemy.
                enemy_name: wstr = "EnemyName",
                /// Time between respawns.
                respawn_time: f32 = "RespawnTime",
                /// Motion the enemies respawn with.
                respawn_motion: wstr = "RespawnMotion",
                /// Respawn only while in the area (the seed's guess).
                in_check: bool32 = "InCheck",
                /// Whether respawned enemies face random directions.
                random_direction: bool32 = "RandomDirection",
                /// One flag per difficulty level.
                difficulty: bool32x5 = "Difficulty",
            }
            /// StartPointBox (type 2): a player start position.
            StartPointBox = "StartPointBox" {
                /// The start point's id.
                id: i32 = "ID",
            }
            /// SkidBox (type 4): a sliding volume.
            SkidBox = "SkidBox" {
                /// Skid state.
                state: i32 = "State",
                /// Velocity x, y, z.
                velocity: vec3 = "Velocity",
                /// End time.
                end_time: f32 = "EndTime",
                /// Duration.
                duration: f32 = "Duration",
            }
            /// NpcBox (type 6): an NPC spawn.
            NpcBox = "NpcBox" {
                /// Name of the NPC.
                npc_name: wstr = "NpcName",
                /// The NPC's id.
                id: i32 = "ID",
                /// Instance id of the NPC.
                instance_id: i32 = "InstanceID",
            }
            /// PortalBox (type 7): a portal to another map.
            PortalBox = "PortalBox" {
                /// Name of the map it warps to.
                warp_map_name: wstr = "WarpMapName",
                /// The portal's id.
                id: i32 = "ID",
                /// Message or portal type (how the portal behaves and shows).
                msg_type: i32 = "MsgType",
                /// Id of the map it warps to.
                warp_map_id: i32 = "WarpMapID",
                /// Id of the entry portal in that map.
                warp_portal_id: i32 = "WarpPortalID",
                /// Whether the portal is active.
                active: bool32 = "Active",
            }
            /// SelectMapPortalBox (type 8): a portal that opens the map selection.
            SelectMapPortalBox = "SelectMapPortalBox" {
                /// The portal's id.
                id: i32 = "ID",
                /// Message or portal type (how the selection shows).
                msg_type: i32 = "MsgType",
                /// Whether the portal is active.
                active: bool32 = "Active",
            }
            /// InAreaBox (type 9): an area trigger.
            InAreaBox = "InAreaBox" {
                /// Name of the map it warps to.
                warp_map_name: wstr = "WarpMapName",
                /// The box's id.
                id: i32 = "ID",
                /// Whether the box is active.
                active: bool32 = "Active",
            }
        }
    };
}
// The owned model (feature `write`) expands the table too.
#[cfg_attr(not(feature = "write"), allow(unused_imports))]
pub(crate) use flat_event_boxes;

/// The reader's type for a field kind (`$lt` is the file's lifetime).
macro_rules! reader_type {
    ($lt:lifetime, i32) => { i32 };
    ($lt:lifetime, f32) => { f32 };
    ($lt:lifetime, bool32) => { $crate::wdata::raw::Bool32 };
    ($lt:lifetime, wstr) => { $crate::wdata::WStr<$lt> };
    ($lt:lifetime, vec3) => { [f32; 3] };
    ($lt:lifetime, bool32x5) => { [$crate::wdata::raw::Bool32; 5] };
}

/// Reads a field of kind `$kind` named `$what` at the cursor.
macro_rules! read_field {
    ($cur:ident, i32, $what:expr) => {
        $cur.i32_le($what)?
    };
    ($cur:ident, f32, $what:expr) => {
        $cur.f32_le($what)?
    };
    ($cur:ident, bool32, $what:expr) => {
        $cur.bool32($what)?
    };
    ($cur:ident, wstr, $what:expr) => {
        $cur.wstr($what)?
    };
    ($cur:ident, vec3, $what:expr) => {
        $crate::wdata::raw::vec3($cur.read($what)?)
    };
    ($cur:ident, bool32x5, $what:expr) => {
        *$cur.read::<[$crate::wdata::raw::Bool32; 5]>($what)?
    };
}

/// The reader's borrowed struct for each record of the table, and its `read`.
macro_rules! reader_records {
    ($(
        $(#[$doc:meta])*
        $name:ident = $label:literal {
            $( $(#[$fdoc:meta])* $field:ident : $kind:ident = $fname:literal, )*
        }
    )*) => {$(
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, PartialEq)]
        pub struct $name<'a> {
            /// The box: name, placement and half sizes.
            pub obb: $crate::wdata::Obb<'a>,
            $( $(#[$fdoc])* pub $field: reader_type!('a, $kind), )*
        }

        impl<'a> $name<'a> {
            /// Reads the record at the cursor.
            pub(crate) fn read(cur: &mut $crate::bytes::Cursor<'a>) -> $crate::error::Result<Self> {
                Ok($name {
                    obb: $crate::wdata::Obb::read(
                        cur,
                        concat!($label, ".Name"),
                        concat!($label, ".Obb"),
                    )?,
                    $( $field: read_field!(cur, $kind, concat!($label, ".", $fname)), )*
                })
            }
        }
    )*};
}

use super::cursor::WdataCursor as _;

flat_event_boxes!(reader_records);

//! The `.wdata` records declared once. Four tables: [`flat_event_boxes!`] (every EventBox type
//! but the unknown 14), [`flat_sections!`] (the AniBG, ItemBox and Gimmick sections, whose fields
//! are gated on their sub-versions), [`flat_inner_records!`] (a trigger, a scene resource's cues,
//! sounds and ambient sounds) and [`nested_records!`] (the records other records or sections
//! hold: a CameraBox's camera infos and their lists, a scene's first and second pass, a scene
//! resource, its paths and its sound block). A table hands every record (its name, its format
//! name for errors, where its list sits in the map's JSON, and each field with its kind, its
//! version gate and its format name) to the macro it is given. The reader ([`reader_records!`],
//! here) and the owned model (`write::wdata`, which makes the model struct, its writer and its
//! conversion from the reader's record) both expand the same tables, so a field added to a
//! record, or a gate changed, reaches all of them.
//!
//! Record syntax: `Name = "FormatName" in "json.section" { fields }`, optionally with
//! `model ModelName` before the `{` (the model's struct is named so) and `+ { fields }` after it
//! (fields of the model's own, written out in full, that the caller fills: a scene's second
//! pass, the triggers' layout).
//!
//! Field syntax: `name: kind = "FormatName"`, then optionally:
//! - `if version OP N` before the `=`: the field is stored only when that field of
//!   [`Versions`](super::Versions) compares so with `N` (`>=`, `<=`); it is an `Option`, `Some`
//!   exactly then; `or first` after it: stored in the first record of its run too;
//! - `unless last ("why")` before the `=`: stored in every record of its run but the last (the
//!   writer's error gives the reason);
//! - `(json "key")` after the format name: the model's JSON key when it is not the field's name;
//! - `["CountName"]` after a list's kind (`["CountName" u32]` for a `u32` count): the list's
//!   count, an `i32` named `CountName`. Lists come last in a record, and the file stores every
//!   list's count (in field order) before the first list's items; `["CountName" @N]` when the
//!   counts are stored in another order than the lists: the count is the `N`th (from 0) of the
//!   record's counts (then every list of the record names its slot); `[here "CountName"]`: the
//!   count is stored in the field's place and the items right after it (such a list may stand
//!   anywhere in a record);
//! - `then { value: kind = "FormatName" }` after a run's format name: a value stored between
//!   the run's count and its records, only when the count is not zero (a scene resource's delay
//!   after its path count). It is a field of its own, an `Option` (`Some` exactly when the run
//!   has records) that comes just before the run's field in the struct and the JSON.
//!
//! Field kinds: `obb` (the box every EventBox, AniBG, ItemBox and Gimmick starts with: its name,
//! then [`RawObb`](super::raw::RawObb)), `i32`, `u32`, `f32`, `bool32` (4-byte bool), `wstr`
//! (UTF-16 string), `vec3` (three `f32`s), `f32x14`, `i32x7`, `wstrx2`, `bool32x5` (five 4-byte
//! bools), `target_name` (a CameraTargetBox's name or text id, as the EventBox version says),
//! the runs `sounds`, `cues`, `ambients` and `scene_paths` (each an `i32` count named by the
//! field's format name, then the records in place), the records `camera_infos` (four),
//! `camera_lists` and `sound_block`; the lists `f32s`, `u32s`, `vec3s`, `names` (UTF-16
//! strings), `render_entries` and `scene_elements` (names keyed from main version 22, a camera's
//! and a scene's), `event_entries` (names, each keyed), `pvs_event_boxes` (ids or keyed names, as
//! the EventBox version says) and `waypoint_links` (the ids, then the distances); or the name of
//! a fixed group of plain numbers (`Signpost`, `SoundFades`, `SceneTiming`, `SceneCamera`,
//! `TimeHold`: one raw struct each, a type the reader and the model share, see `groups.rs`).

/// The table of flat EventBox records; `$m!` receives all of them.
macro_rules! flat_event_boxes {
    ($m:ident) => {
        $m! {
            // Each record's count is `EventBoxes.<name>.count` in errors.
            "EventBoxes.";
            /// CameraBox (type 0): a camera area with its four cameras and their render lists.
            /// The reader types the camera infos when asked for (`camera_infos()`),
            /// so that an [`EventBox`](crate::wdata::EventBox) stays small.
            CameraBox = "CameraBox" in "event_boxes.CameraBox" {
                obb: obb = "Name",
                /// The camera area's category.
                category: u32 if event_box >= 7 = "Category",
                /// The four cameras.
                infos: camera_infos = "CameraInfo",
            }
            /// RespawnBox (type 1): an enemy spawn volume.
            RespawnBox = "RespawnBox" in "event_boxes.RespawnBox" {
                obb: obb = "Name",
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
            StartPointBox = "StartPointBox" in "event_boxes.StartPointBox" {
                obb: obb = "Name",
                /// The start point's id.
                id: i32 = "ID",
            }
            /// TriggerBox (type 3): a trigger area.
            TriggerBox = "TriggerBox" in "event_boxes.TriggerBox" {
                obb: obb = "Name",
                /// Trigger state.
                state: i32 = "State",
                /// Motion of the action.
                action_motion: wstr = "ActionMotion",
                /// Motion.
                motion: wstr = "Motion",
                /// The signpost: its text id and where it shows.
                signpost: Signpost if event_box >= 9 = "SignpostTextID",
            }
            /// SkidBox (type 4): a sliding volume.
            SkidBox = "SkidBox" in "event_boxes.SkidBox" {
                obb: obb = "Name",
                /// Skid state.
                state: i32 = "State",
                /// Velocity x, y, z.
                velocity: vec3 = "Velocity",
                /// End time.
                end_time: f32 = "EndTime",
                /// Duration.
                duration: f32 = "Duration",
            }
            /// EventHitBox (type 5): an area that hits (damages).
            EventHitBox = "EventHitBox" in "event_boxes.EventHitBox" {
                obb: obb = "Name",
                /// Hit state.
                state: i32 = "State",
                /// Name of the AniBG that hits.
                anibg_name: wstr = "AniBGName",
                /// Damage dealt.
                damage: f32 = "Damage",
                /// Direction of the hit, x, y, z.
                direction: vec3 = "Direction",
                /// Motion played by the one hit.
                damage_motion: wstr = "DamageMotion",
                /// The hit times (`hitCnt` floats).
                hit_times: f32s["hitCnt"] = "HitTime",
                /// The temporary hit times (`tempHitCnt` floats).
                temp_hit_times: f32s["tempHitCnt"] = "TempHitTime",
            }
            /// NpcBox (type 6): an NPC spawn.
            NpcBox = "NpcBox" in "event_boxes.NpcBox" {
                obb: obb = "Name",
                /// Name of the NPC.
                npc_name: wstr = "NpcName",
                /// The NPC's id.
                id: i32 = "ID",
                /// Instance id of the NPC.
                instance_id: i32 = "InstanceID",
            }
            /// PortalBox (type 7): a portal to another map.
            PortalBox = "PortalBox" in "event_boxes.PortalBox" {
                obb: obb = "Name",
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
            SelectMapPortalBox = "SelectMapPortalBox" in "event_boxes.SelectMapPortalBox" {
                obb: obb = "Name",
                /// The portal's id.
                id: i32 = "ID",
                /// Message or portal type (how the selection shows).
                msg_type: i32 = "MsgType",
                /// Whether the portal is active.
                active: bool32 = "Active",
            }
            /// InAreaBox (type 9): an area trigger.
            InAreaBox = "InAreaBox" in "event_boxes.InAreaBox" {
                obb: obb = "Name",
                /// Name of the map it warps to.
                warp_map_name: wstr = "WarpMapName",
                /// The box's id.
                id: i32 = "ID",
                /// Whether the box is active.
                active: bool32 = "Active",
            }
            /// EtcBox (type 10): any other box with an id.
            EtcBox = "EtcBox" in "event_boxes.EtcBox" {
                obb: obb = "Name",
                /// The box's id.
                id: i32 = "ID",
            }
            /// CameraBlockBox (type 11): blocks the camera; the box alone.
            CameraBlockBox = "CameraBlockBox" in "event_boxes.CameraBlockBox" {
                obb: obb = "Name",
            }
            /// CutoffBox (type 12): a cutoff area.
            CutoffBox = "CutoffBox" in "event_boxes.CutoffBox" {
                obb: obb = "Name",
                /// Type of cutoff (meanings are the game's).
                cutoff_type: i32 = "CutoffType",
            }
            /// CameraTargetBox (type 13): what the camera targets.
            CameraTargetBox = "CameraTargetBox" in "event_boxes.CameraTargetBox" {
                obb: obb = "Name",
                /// What the camera targets: a name below EventBoxVersion 8, a text id from 8.
                target: target_name = "NameTextID",
                /// Whether the target is the local player character.
                target_local_pc: bool32 if event_box >= 2 = "TargetLocalPC",
            }
            /// MiniMapIconBox (type 15): an icon on the mini map.
            MiniMapIconBox = "MiniMapIconBox" in "event_boxes.MiniMapIconBox" {
                obb: obb = "Name",
                /// Type of icon.
                icon_type: i32 = "IconType",
            }
            /// EnvironmentReverbBox (type 16): an area with an environment reverb.
            EnvironmentReverbBox = "EnvironmentReverbBox" in "event_boxes.EnvironmentReverbBox" {
                obb: obb = "Name",
                /// Type of reverb.
                reverb_type: i32 = "ReverbType",
            }
            /// WaypointBox (type 17): a waypoint of a path network.
            WaypointBox = "WaypointBox" in "event_boxes.WaypointBox" {
                obb: obb = "Name",
                /// The waypoint's id.
                id: i32 = "ID",
                /// Range of the waypoint.
                range: f32 = "Range",
                /// Links to other waypoints: the file stores `linkCnt` ids, then as many
                /// distances.
                links: waypoint_links["linkCnt"] = "Links",
            }
            /// ObstacleBox (type 18): an obstacle; the box alone.
            ObstacleBox = "ObstacleBox" in "event_boxes.ObstacleBox" {
                obb: obb = "Name",
            }
        }
    };
}
// The owned model (feature `write`) expands the table too.
#[cfg_attr(not(feature = "write"), allow(unused_imports))]
pub(crate) use flat_event_boxes;

/// The table of the AniBG, ItemBox and Gimmick records (each section is `i32 count`, then the
/// records); `$m!` receives all of them. Their gates look at the header's sub-versions (0 below
/// main version 7, where the header stores none).
macro_rules! flat_sections {
    ($m:ident) => {
        $m! {
            // Each record's count is `<name>.count` in errors.
            "";
            /// An animated background object (the AniBG section).
            AniBg = "AniBG" in "anibg" {
                obb: obb = "Name",
                /// Path of the model to show.
                model: wstr = "Model",
                /// Path of the motion (animation) to play.
                motion: wstr = "Motion",
                /// Whether the motion loops (`Loop`).
                looped: bool32 = "Loop" (json "loop"),
                /// Index of the light to use.
                light_index: i32 = "LightIndex",
                /// Cover index (perhaps an occlusion group; the seed does not know).
                cover_index: i32 = "CoverIndex",
                /// Whether the object casts a shadow.
                shadow: bool32 if anibg >= 3 = "Shadow",
                /// The "move weight" flag (exact use unknown).
                move_weight: bool32 if anibg >= 4 = "MoveWeight",
                /// Radius of the potentially visible set (`PVSRad`).
                pvs_radius: f32 if anibg >= 5 = "PVSRad",
            }
            /// An item container (the ItemBox section).
            ItemBox = "ItemBox" in "item_boxes" {
                obb: obb = "Name",
                /// Path of the model to show.
                model: wstr = "Model",
                /// Path of the motion (animation) to play.
                motion: wstr = "Motion",
                /// The drop table.
                table_path: wstr = "TablePath",
                /// Whether the motion loops (`Loop`).
                looped: bool32 = "Loop" (json "loop"),
                /// Whether the box can be opened.
                open_enable: bool32 if item_box >= 3 = "OpenEnable",
            }
            /// An in-world mechanism (the Gimmick section). Its flags are stored as plain `i32`s
            /// (not bools) and kept as such; no sub-version gates are known.
            Gimmick = "Gimmick" in "gimmicks" {
                obb: obb = "Name",
                /// Path of the model to show.
                model: wstr = "Model",
                /// Path of the motion (animation) to play.
                motion: wstr = "Motion",
                /// Loop flag or mode (0/1 or a mode value; an `i32` here, not a bool).
                loop_flag: i32 = "LoopFlag",
                /// Index of the light to use.
                light_index: i32 = "LightIndex",
                /// Cover index (perhaps an occlusion group; the seed does not know).
                cover_index: i32 = "CoverIndex",
                /// Whether the gimmick casts a shadow (0 or 1).
                shadow: i32 = "Shadow",
                /// The "move weight" flag (0 or 1; exact use unknown).
                move_weight: i32 = "MoveWeight",
                /// Row of the gimmick template table.
                template_id: i32 = "TemplateID",
            }
        }
    };
}
#[cfg_attr(not(feature = "write"), allow(unused_imports))]
pub(crate) use flat_sections;

/// The table of the flat records inside the Triggers and SceneResources sections (a trigger, a
/// scene resource's cues, sounds and ambient sounds); `$m!` receives all of them. Their gates look
/// at the main version.
macro_rules! flat_inner_records {
    ($m:ident) => {
        $m! {
            // Their counts are fields of the section or the scene resource, named there.
            "";
            /// One trigger of the trigger-list layout: its name, comment and script names.
            Trigger = "Trigger" in "triggers.triggers" {
                /// The trigger's name.
                name: wstr = "Name",
                /// The editor's comment.
                comment: wstr = "Comment",
                /// Event script names.
                events: names["evCnt"] = "Events",
                /// Condition script names.
                conditions: names["condCnt"] = "Conditions",
                /// Action script names.
                actions: names["actCnt"] = "Actions",
            }
            /// A timed cue (main version >= 11).
            Cue = "Cue" in "scene_resources" {
                /// End time of the cue.
                end: f32 = "End",
                /// The cue's name.
                name: wstr = "Name",
                /// The cue's id.
                id: u32 = "ID",
                /// Start time of the cue.
                start: f32 = "Start",
            }
            /// A sound (main version >= 12).
            Sound = "Sound" in "scene_resources" {
                /// Start time of the sound.
                start: f32 = "Start",
                /// Its fades and volume range.
                fades: SoundFades if main >= 16 = "FadeIn",
                /// Path of the sound file.
                path: wstr = "Path",
            }
            /// An ambient sound (main version >= 17).
            Ambient = "Ambient" in "scene_resources" {
                /// Start time of the ambient sound.
                start: f32 = "Start",
                /// Path of the sound file.
                path: wstr = "Path",
                /// Whether it starts with the scene.
                play_on_start: bool32 = "PlayOnStart",
                /// Whether it loops (`Loop`).
                looped: bool32 = "Loop" (json "loop"),
            }
        }
    };
}
#[cfg_attr(not(feature = "write"), allow(unused_imports))]
pub(crate) use flat_inner_records;
/// The table of the records nested in other records or sections (a CameraBox's camera infos and
/// their lists, a scene's two passes, a scene resource, its paths and its sound block); `$m!`
/// receives all of them. A record here is read and written as a field of the record that holds
/// it (its kind names it) or by the section that holds it (the SceneResources section is read
/// and written with its own count name, `SceneResources.count`), never as a counted section of
/// its own.
macro_rules! nested_records {
    ($m:ident) => {
        $m! {
            // Not counted sections: `WHAT` is never used.
            "";
            /// The Triggers section's prefix, the same in both layouts. The owned model's
            /// `Triggers` also holds what follows it, in one of the two layouts (flattened into
            /// the prefix's JSON object: `"triggers"` or `"script_lists"`).
            TriggersHead = "Triggers" in "triggers" model Triggers + {
                /// The triggers, in one of the two layouts.
                #[cfg_attr(feature = "serde", serde(flatten))]
                pub layout: TriggerLayout,
            } {
                /// Reserved (the peer's `reserved0`); kept as read.
                reserved0: i32 = "reserved0",
                /// Directory of the scripts.
                script_dir: wstr = "scriptDir",
                /// Reserved (the peer's `reserved1`); kept as read.
                reserved1: i32 = "reserved1",
                /// Path of the main script.
                main_script: wstr = "mainScript",
            }
            /// A scene's first-pass record. The owned model's `Scene` also holds the scene's
            /// second pass (main version >= 20), which the file stores after every scene's first
            /// pass.
            SceneHead = "Scene" in "scenes" model Scene + {
                /// Version >= 20: the scene's second-pass record.
                #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
                pub pass2: Option<ScenePass2>,
            } {
                /// The camera file (`.mec`).
                file: wstr = "File",
                /// Fade-in time in the editor's preview.
                fade_in_preview: f32 = "FadeInPreview",
                /// Fade hold time in the editor's preview.
                fade_hold_preview: f32 = "FadeHoldPreview",
                /// Fade-out time in the editor's preview.
                fade_out_preview: f32 = "FadeOutPreview",
                /// The scene's timing: its category, fades, blend time and fog.
                timing: SceneTiming if main >= 15 = "Category",
                /// The scene's camera.
                camera: SceneCamera if main >= 19 = "Position",
            }
            /// A scene resource's sound block (main version >= 12): the sounds and the unknown
            /// fields after them.
            SoundBlock = "SceneResource" in "scene_resources" {
                /// The sounds.
                sounds: sounds = "soundCnt",
                /// Unknown (the peer's `Unk1`); kept as read.
                unk1: u32 if main >= 13 = "Unk1",
                /// Unknown (the peer's `Unk2`); kept as read.
                unk2: u32 = "Unk2",
                /// Unknown (the peer's `Unk3`); kept as read.
                unk3: f32 = "Unk3",
                /// Unknown (the peer's `Unk4`); kept as read.
                unk4: u32 = "Unk4",
                /// Seven unknown `i32`s.
                unknown_ints: i32x7 if main <= 14 = "unknownInts",
                /// Two unknown strings.
                unknown_strings: wstrx2 if main <= 13 = "unknownStrings",
            }
            /// A scene's second-pass record (main version >= 20): its name (main version >= 21),
            /// ten counts (the event entries' first, then the ids'), then the lists in this
            /// order.
            SceneDetails = "Scene" in "scenes" model ScenePass2 {
                /// The scene's name.
                name: wstr if main >= 21 = "Name",
                /// The scene ids.
                scene_ids: u32s["sceneIdCnt" @1] = "IndexList",
                /// The `(category, key)` event entries.
                event_entries: event_entries["entryCnt" @0] = "EventScenes",
                /// Backgrounds to render.
                render_bg: scene_elements["rBg" @2] = "RenderBg",
                /// AniBGs to render.
                render_ani: scene_elements["rAni" @3] = "RenderAniBg",
                /// Item boxes to render.
                render_item: scene_elements["rItem" @4] = "RenderItem",
                /// Gimmicks to render.
                render_gimmick: scene_elements["rGim" @5] = "RenderGimmick",
                /// Backgrounds not to render.
                no_render_bg: scene_elements["nBg" @6] = "NoRenderBg",
                /// AniBGs not to render.
                no_render_ani: scene_elements["nAni" @7] = "NoRenderAniBg",
                /// Item boxes not to render.
                no_render_item: scene_elements["nItem" @8] = "NoRenderItem",
                /// Gimmicks not to render.
                no_render_gimmick: scene_elements["nGim" @9] = "NoRenderGimmick",
            }
            /// One scene resource (the SceneResources section is `i32 count`, then the
            /// resources): a keyed sequence of animated paths, cues and sounds.
            SceneResource = "SceneResource" in "scene_resources" {
                /// The resource's key.
                key: wstr = "Key",
                /// Other names of the resource.
                aliases: names[here "aliasCnt"] = "Aliases",
                /// The model/motion paths played in turn.
                paths: scene_paths = "pathCnt" then {
                    /// The delay before the paths play.
                    delay: f32 = "Delay"
                },
                /// The timed cues.
                cues: cues if main >= 11 = "cueCnt",
                /// The sounds and the unknown fields after them.
                sound: sound_block if main >= 12 = "soundCnt",
                /// The ambient sounds.
                ambients: ambients if main >= 17 = "ambientCnt",
            }
            // Named `SceneData` (the model's name) in errors.
            /// One animated element of a scene resource: a model, its motion and the event it
            /// raises.
            ScenePath = "SceneData" in "scene_resources" model SceneData {
                /// Path of the model.
                model: wstr = "Model",
                /// Path of the motion.
                motion: wstr = "Motion",
                /// The path's name.
                name: wstr = "Name",
                /// Name of the event the path raises.
                event_name: wstr = "EventName",
                /// How long the path plays and holds.
                time_hold: TimeHold if main >= 10 = "Time",
                /// Blend into the next path.
                blend_time: f32
                    unless last ("the blend time is stored after every path but the last")
                    = "BlendTime",
            }
            /// One of a CameraBox's four cameras.
            CameraInfo = "CameraInfo" in "event_boxes.CameraBox" {
                /// What the camera looks at.
                camera_target: wstr if event_box >= 3 or first = "CameraTarget",
                /// The camera's name.
                camera_name: wstr = "CameraName",
                /// Camera position x, y, z (the first 3 of the 21 camera floats).
                camera_position: vec3 = "Position",
                /// Camera rotation x, y, z.
                camera_rotation: vec3 = "Rotation",
                /// Field of view, in degrees.
                fov: f32 = "FOV",
                /// Further frustum parameters (extents or clipping planes; the seed does not say
                /// which).
                frustum: f32x14 = "Frustum",
                /// Whether the game builds the camera's potentially visible set.
                build_pvs: bool32 if event_box >= 5 = "BuildPVS",
                /// The camera's visibility lists.
                lists: camera_lists if event_box >= 4 = "lists",
            }
            /// A camera info's visibility lists (EventBoxVersion >= 4): eleven `u32` counts, then
            /// the lists in this order.
            CameraLists = "CameraInfo" in "event_boxes.CameraBox" {
                /// Background ids of the potentially visible set.
                pvs_bg: u32s["pvsBgCount" u32] = "PVS_BG",
                /// The event boxes of the potentially visible set: ids below EventBoxVersion 6,
                /// `(category, name)` entries from 6.
                pvs_event_boxes: pvs_event_boxes["pvsEvCount" u32] = "PVS_EventBox",
                /// Backgrounds to render.
                render_bg: render_entries["renderBgCount" u32] = "RenderBg",
                /// AniBGs to render.
                render_ani: render_entries["renderAniCount" u32] = "RenderAniBg",
                /// Item boxes to render.
                render_item: render_entries["renderItemCount" u32] = "RenderItem",
                /// Gimmicks to render.
                render_gimmick: render_entries["renderGimmickCount" u32] = "RenderGimmick",
                /// Backgrounds not to render.
                no_render_bg: render_entries["noRenderBgCount" u32] = "NoRenderBg",
                /// AniBGs not to render.
                no_render_ani: render_entries["noRenderAniCount" u32] = "NoRenderAniBg",
                /// Item boxes not to render.
                no_render_item: render_entries["noRenderItemCount" u32] = "NoRenderItem",
                /// Gimmicks not to render.
                no_render_gimmick: render_entries["noRenderGimmickCount" u32] = "NoRenderGimmick",
                /// Build positions (`buildPos`), x, y, z each.
                build_positions: vec3s["buildPosCount" u32] = "BuildPos",
            }
        }
    };
}
#[cfg_attr(not(feature = "write"), allow(unused_imports))]
pub(crate) use nested_records;

/// Whether a record is the first of its run: the `or first` of a gate (a CameraBox's first
/// camera info stores its target in every version).
pub(crate) const fn first(place: crate::bytes::Place) -> bool {
    place.index == 0
}

/// The reader's type for a field kind (`$lt` is the file's lifetime); a gated field is an
/// `Option`. A kind that is none of the plain ones names a [`FixedGroup`](super::FixedGroup) type
/// of `wdata`, which the reader and the model share.
macro_rules! reader_type {
    ($lt:lifetime, $kind:ident, $ver:ident) => { Option<reader_type!($lt, $kind)> };
    ($lt:lifetime, obb) => { $crate::wdata::Obb<$lt> };
    ($lt:lifetime, i32) => { i32 };
    ($lt:lifetime, u32) => { u32 };
    ($lt:lifetime, f32) => { f32 };
    ($lt:lifetime, bool32) => { $crate::wdata::raw::Bool32 };
    ($lt:lifetime, wstr) => { $crate::wdata::WStr<$lt> };
    ($lt:lifetime, vec3) => { [f32; 3] };
    ($lt:lifetime, f32x14) => { [f32; 14] };
    ($lt:lifetime, i32x7) => { [i32; 7] };
    ($lt:lifetime, wstrx2) => { [$crate::wdata::WStr<$lt>; 2] };
    ($lt:lifetime, sounds) => { $crate::wdata::Run<$lt, $crate::wdata::Sound<$lt>> };
    ($lt:lifetime, cues) => { $crate::wdata::Run<$lt, $crate::wdata::Cue<$lt>> };
    ($lt:lifetime, ambients) => { $crate::wdata::Run<$lt, $crate::wdata::Ambient<$lt>> };
    ($lt:lifetime, scene_paths) => { $crate::wdata::Run<$lt, $crate::wdata::ScenePath<$lt>> };
    ($lt:lifetime, sound_block) => { $crate::wdata::SoundBlock<$lt> };
    ($lt:lifetime, bool32x5) => { [$crate::wdata::raw::Bool32; 5] };
    ($lt:lifetime, target_name) => { $crate::wdata::CameraTargetName<$lt> };
    ($lt:lifetime, camera_infos) => {
        $crate::wdata::Run<$lt, $crate::wdata::CameraInfo<$lt>>
    };
    ($lt:lifetime, camera_lists) => { $crate::wdata::CameraLists<$lt> };
    ($lt:lifetime, f32s) => { &$lt [zerocopy::little_endian::F32] };
    ($lt:lifetime, u32s) => { &$lt [zerocopy::little_endian::U32] };
    ($lt:lifetime, vec3s) => { &$lt [[zerocopy::little_endian::F32; 3]] };
    ($lt:lifetime, names) => { $crate::wdata::NameList<$lt> };
    ($lt:lifetime, render_entries) => { $crate::wdata::NameList<$lt> };
    ($lt:lifetime, scene_elements) => { $crate::wdata::NameList<$lt> };
    ($lt:lifetime, event_entries) => { $crate::wdata::NameList<$lt> };
    ($lt:lifetime, pvs_event_boxes) => { $crate::wdata::PvsEventBoxes<$lt> };
    ($lt:lifetime, waypoint_links) => { $crate::wdata::WaypointLinks<$lt> };
    ($lt:lifetime, $group:ident) => { $crate::wdata::$group };
}

/// The fewest bytes a field of a kind takes: a gated field may be absent (0), a string may be
/// empty (its count alone), a box's name too.
macro_rules! min_size {
    ($kind:ident, $ver:ident) => {
        0
    };
    (obb) => {
        $crate::wdata::OBB_MIN_SIZE
    };
    (wstr) => {
        2
    };
    (vec3) => {
        12
    };
    (f32x14) => {
        56
    };
    (i32x7) => {
        28
    };
    // Two strings' counts.
    (wstrx2) => {
        4
    };
    // A run: its count.
    (sounds) => {
        4
    };
    (cues) => {
        4
    };
    (ambients) => {
        4
    };
    (scene_paths) => {
        4
    };
    (sound_block) => {
        <$crate::wdata::SoundBlock<'_> as $crate::wdata::Record<'_>>::MIN_SIZE
    };
    (bool32x5) => {
        20
    };
    // A name (its count alone) or a text id.
    (target_name) => {
        2
    };
    (camera_infos) => {
        4 * <$crate::wdata::CameraInfo<'_> as $crate::wdata::Record<'_>>::MIN_SIZE
    };
    (camera_lists) => {
        <$crate::wdata::CameraLists<'_> as $crate::wdata::Record<'_>>::MIN_SIZE
    };
    // A list: its count.
    (f32s) => {
        4
    };
    (u32s) => {
        4
    };
    (vec3s) => {
        4
    };
    (names) => {
        4
    };
    (render_entries) => {
        4
    };
    (scene_elements) => {
        4
    };
    (event_entries) => {
        4
    };
    (pvs_event_boxes) => {
        4
    };
    (waypoint_links) => {
        4
    };
    (i32) => {
        4
    };
    (u32) => {
        4
    };
    (f32) => {
        4
    };
    (bool32) => {
        4
    };
    ($group:ident) => {
        core::mem::size_of::<<$crate::wdata::$group as $crate::wdata::FixedGroup>::Raw>()
    };
}

/// What a field's kind adds to its documentation (the box's is the same everywhere).
macro_rules! kind_doc {
    (obb) => {
        "The box: name, placement and half sizes."
    };
    (render_entries) => {
        "Items carry an id from main version 22."
    };
    (scene_elements) => {
        "Items carry a category from main version 22."
    };
    ($kind:ident) => {
        ""
    };
}
// The owned model (feature `write`) documents its fields with it too.
#[cfg_attr(not(feature = "write"), allow(unused_imports))]
pub(crate) use kind_doc;

/// Documents a field's gate (on both the reader's and the model's field).
macro_rules! gate_doc {
    ($ver:ident $op:tt $min:literal) => {
        concat!(
            "Stored only when [`Versions::",
            stringify!($ver),
            "`](crate::wdata::Versions::",
            stringify!($ver),
            ") ",
            stringify!($op),
            " ",
            stringify!($min),
            " (`None` otherwise)."
        )
    };
    ($ver:ident $op:tt $min:literal, $first:ident) => {
        concat!(
            "Stored in the first record of its run, and in every one when [`Versions::",
            stringify!($ver),
            "`](crate::wdata::Versions::",
            stringify!($ver),
            ") ",
            stringify!($op),
            " ",
            stringify!($min),
            " (`None` where it is not)."
        )
    };
}
// The owned model (feature `write`) documents its gated fields with it too.
#[cfg_attr(not(feature = "write"), allow(unused_imports))]
pub(crate) use gate_doc;

/// Documents the value stored between a run's count and its records (`then`).
macro_rules! then_doc {
    () => {
        "Stored after the count of the run that follows, only when the run has records (`None` \
         otherwise)."
    };
}
#[cfg_attr(not(feature = "write"), allow(unused_imports))]
pub(crate) use then_doc;

/// Documents a field stored in every record of its run but the last (`unless last`).
macro_rules! last_doc {
    (last) => {
        "Stored in every record of its run but the last (`None` in the last)."
    };
}
#[cfg_attr(not(feature = "write"), allow(unused_imports))]
pub(crate) use last_doc;

/// Reads a field of kind `$kind`, named `$label.$fname` in errors, at the cursor (`$v`, `$p`: the
/// versions and the record's place in its run, for the kinds that are records themselves).
macro_rules! read_field {
    ($cur:ident, $v:ident, $p:ident, obb, $label:literal, $fname:literal) => {
        $crate::wdata::Obb::read($cur, concat!($label, ".", $fname), concat!($label, ".Obb"))?
    };
    ($cur:ident, $v:ident, $p:ident, i32, $label:literal, $fname:literal) => {
        $cur.i32_le(concat!($label, ".", $fname))?
    };
    ($cur:ident, $v:ident, $p:ident, u32, $label:literal, $fname:literal) => {
        $cur.u32_le(concat!($label, ".", $fname))?
    };
    ($cur:ident, $v:ident, $p:ident, f32, $label:literal, $fname:literal) => {
        $cur.f32_le(concat!($label, ".", $fname))?
    };
    ($cur:ident, $v:ident, $p:ident, bool32, $label:literal, $fname:literal) => {
        $cur.bool32(concat!($label, ".", $fname))?
    };
    ($cur:ident, $v:ident, $p:ident, wstr, $label:literal, $fname:literal) => {
        $cur.wstr(concat!($label, ".", $fname))?
    };
    ($cur:ident, $v:ident, $p:ident, vec3, $label:literal, $fname:literal) => {
        $crate::wdata::raw::floats($cur.read(concat!($label, ".", $fname))?)
    };
    ($cur:ident, $v:ident, $p:ident, f32x14, $label:literal, $fname:literal) => {
        $crate::wdata::raw::floats($cur.read(concat!($label, ".", $fname))?)
    };
    ($cur:ident, $v:ident, $p:ident, bool32x5, $label:literal, $fname:literal) => {
        *$cur.read::<[$crate::wdata::raw::Bool32; 5]>(concat!($label, ".", $fname))?
    };
    ($cur:ident, $v:ident, $p:ident, i32x7, $label:literal, $fname:literal) => {
        $crate::wdata::raw::ints($cur.read(concat!($label, ".", $fname))?)
    };
    ($cur:ident, $v:ident, $p:ident, wstrx2, $label:literal, $fname:literal) => {
        [
            $cur.wstr(concat!($label, ".", $fname))?,
            $cur.wstr(concat!($label, ".", $fname))?,
        ]
    };
    // A run: an `i32` count, then the records.
    ($cur:ident, $v:ident, $p:ident, sounds, $label:literal, $fname:literal) => {
        $crate::wdata::Run::read_counted($cur, $v, concat!($label, ".", $fname))?
    };
    ($cur:ident, $v:ident, $p:ident, cues, $label:literal, $fname:literal) => {
        $crate::wdata::Run::read_counted($cur, $v, concat!($label, ".", $fname))?
    };
    ($cur:ident, $v:ident, $p:ident, ambients, $label:literal, $fname:literal) => {
        $crate::wdata::Run::read_counted($cur, $v, concat!($label, ".", $fname))?
    };
    ($cur:ident, $v:ident, $p:ident, scene_paths, $label:literal, $fname:literal) => {
        $crate::wdata::Run::read_counted($cur, $v, concat!($label, ".", $fname))?
    };
    ($cur:ident, $v:ident, $p:ident, sound_block, $label:literal, $fname:literal) => {
        $crate::wdata::SoundBlock::read($cur, $v, $p)?
    };
    // Every CameraBox has four camera infos: a run of four, checked now, typed when iterated.
    ($cur:ident, $v:ident, $p:ident, camera_infos, $label:literal, $fname:literal) => {
        $crate::wdata::Run::read($cur, 4, $v)?
    };
    ($cur:ident, $v:ident, $p:ident, camera_lists, $label:literal, $fname:literal) => {
        $crate::wdata::CameraLists::read($cur, $v, $p)?
    };
    ($cur:ident, $v:ident, $p:ident, $group:ident, $label:literal, $fname:literal) => {
        <$crate::wdata::$group as $crate::wdata::FixedGroup>::from_raw(
            $cur.read(concat!($label, ".", $fname))?,
        )
    };
}

/// The fewest bytes an item of a list takes.
macro_rules! item_size {
    (f32s) => {
        4
    };
    (u32s) => {
        4
    };
    (vec3s) => {
        12
    };
    (names) => {
        2
    };
    // Ids below EventBoxVersion 6 (entries, 6 bytes and more, are checked as they are read).
    (pvs_event_boxes) => {
        4
    };
    // Unkeyed below main version 22 (keyed ones are checked as they are read).
    (render_entries) => {
        2
    };
    (scene_elements) => {
        2
    };
    // A category and a name.
    (event_entries) => {
        6
    };
    // An id and a distance.
    (waypoint_links) => {
        8
    };
}

/// A list's count, as wide as the table says (`i32` unless `u32`), checked against the bytes
/// that remain.
macro_rules! read_count {
    ($cur:ident, $kind:ident, $what:expr) => {
        $cur.count($what, item_size!($kind))?
    };
    ($cur:ident, $kind:ident, $what:expr, u32) => {
        $cur.count_u32($what, item_size!($kind))?
    };
}

/// A list, once its count (`$n`) is read: the items, borrowed and checked; a list counted `here`
/// and any other field as read.
macro_rules! read_list {
    ($cur:ident, $v:ident, $kind:ident, $value:ident, $label:literal, $fname:literal, here) => {
        $value
    };
    ($cur:ident, $v:ident, f32s, $n:ident, $label:literal, $fname:literal) => {
        $cur.read_slice($n as usize, concat!($label, ".", $fname))?
    };
    ($cur:ident, $v:ident, u32s, $n:ident, $label:literal, $fname:literal) => {
        $cur.read_slice($n as usize, concat!($label, ".", $fname))?
    };
    ($cur:ident, $v:ident, vec3s, $n:ident, $label:literal, $fname:literal) => {
        $cur.read_slice($n as usize, concat!($label, ".", $fname))?
    };
    ($cur:ident, $v:ident, names, $n:ident, $label:literal, $fname:literal) => {
        $crate::wdata::NameList::read($cur, $n, false, concat!($label, ".", $fname))?
    };
    ($cur:ident, $v:ident, render_entries, $n:ident, $label:literal, $fname:literal) => {
        $crate::wdata::NameList::read(
            $cur,
            $n,
            $crate::wdata::gates::RENDER_ITEM_KEY.stored($v),
            concat!($label, ".", $fname),
        )?
    };
    ($cur:ident, $v:ident, scene_elements, $n:ident, $label:literal, $fname:literal) => {
        read_list!($cur, $v, render_entries, $n, $label, $fname)
    };
    ($cur:ident, $v:ident, event_entries, $n:ident, $label:literal, $fname:literal) => {
        $crate::wdata::NameList::read($cur, $n, true, concat!($label, ".", $fname))?
    };
    ($cur:ident, $v:ident, pvs_event_boxes, $n:ident, $label:literal, $fname:literal) => {
        $crate::wdata::PvsEventBoxes::read($cur, $v, $n, concat!($label, ".", $fname))?
    };
    ($cur:ident, $v:ident, waypoint_links, $n:ident, $label:literal, $fname:literal) => {
        $crate::wdata::WaypointLinks::read($cur, $n, concat!($label, ".", $fname))?
    };
    ($cur:ident, $v:ident, $kind:ident, $value:ident, $label:literal, $fname:literal) => {
        $value
    };
}

/// Reads a field, or for a gated one `Some(field)` when the version stores it and `None` (nothing
/// read) when it does not, or for a list its count (the items come after every count).
macro_rules! read_gated {
    ($cur:ident, $v:ident, $p:ident, target_name, $label:literal, $fname:literal) => {
        $crate::wdata::CameraTargetName::read($cur, $v)?
    };
    // A list counted `here`: its count, then its items at once.
    (
        $cur:ident, $v:ident, $p:ident, $kind:ident, $label:literal, $fname:literal,
        here $count:literal
    ) => {{
        let n = read_count!($cur, $kind, concat!($label, ".", $count));
        read_list!($cur, $v, $kind, n, $label, $fname)
    }};
    // A run with a value between its count and its records: the value goes to `$then` (declared
    // by the record's read), the run is the field.
    (
        $cur:ident, $v:ident, $p:ident, $kind:ident, $label:literal, $fname:literal,
        then $then:ident $tkind:ident $tname:literal
    ) => {{
        let (value, run) = $crate::wdata::Run::read_counted_then(
            $cur,
            $v,
            concat!($label, ".", $fname),
            |$cur| Ok(read_field!($cur, $v, $p, $tkind, $label, $tname)),
        )?;
        $then = value;
        run
    }};
    // A count stored in a slot of the record's counts: read there, the cursor left at the
    // first count (it moves past them all once every count is read).
    (
        $cur:ident, $v:ident, $p:ident, $kind:ident, $label:literal, $fname:literal,
        $count:literal $(, $cw:ident)?, @ $slot:literal
    ) => {{
        let mut at = $crate::bytes::Cursor::new($cur.bytes(), $cur.offset().saturating_add(4 * $slot));
        read_count!(at, $kind, concat!($label, ".", $count) $(, $cw)?)
    }};
    (
        $cur:ident, $v:ident, $p:ident, $kind:ident, $label:literal, $fname:literal,
        $count:literal $(, $cw:ident)?
    ) => {
        read_count!($cur, $kind, concat!($label, ".", $count) $(, $cw)?)
    };
    (
        $cur:ident, $v:ident, $p:ident, $kind:ident, unless $last:ident ($why:literal),
        $label:literal, $fname:literal
    ) => {
        if $p.$last {
            None
        } else {
            Some(read_field!($cur, $v, $p, $kind, $label, $fname))
        }
    };
    (
        $cur:ident, $v:ident, $p:ident, $kind:ident, $ver:ident $op:tt $min:literal $(|| $first:ident)?,
        $label:literal, $fname:literal
    ) => {
        if $v.$ver $op $min $(|| $first($p))? {
            Some(read_field!($cur, $v, $p, $kind, $label, $fname))
        } else {
            None
        }
    };
    ($cur:ident, $v:ident, $p:ident, $kind:ident, $label:literal, $fname:literal) => {
        read_field!($cur, $v, $p, $kind, $label, $fname)
    };
}

/// 1, whatever the token (to count a repetition).
macro_rules! one {
    ($t:tt) => {
        1
    };
}
#[cfg_attr(not(feature = "write"), allow(unused_imports))]
pub(crate) use one;

/// The reader's borrowed struct for each record of a table, its `read` and its [`Record`]
/// implementation (the fewest bytes it takes, from its fields' kinds).
///
/// [`Record`]: super::Record
macro_rules! reader_records {
    (
        $count_prefix:literal;
        $(
            $(#[$doc:meta])*
            $name:ident = $label:literal in $section:literal
                $(model $model:ident $(+ { $($extra:tt)* })?)? {
                $(
                    $(#[$fdoc:meta])*
                    $field:ident : $kind:ident
                        $([$($here:ident)? $count:literal $($cw:ident)? $(@ $slot:literal)?])?
                        $(if $ver:ident $op:tt $min:literal $(or $first:ident)?)?
                        $(unless $last:ident ($why:literal))?
                        = $fname:literal $((json $key:literal))?
                        $(then { $(#[$tdoc:meta])* $then:ident : $tkind:ident = $tname:literal })?,
                )*
            }
        )*
    ) => {$(
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, PartialEq)]
        pub struct $name<'a> {
            $(
                $(
                    $(#[$tdoc])*
                    #[doc = ""]
                    #[doc = then_doc!()]
                    pub $then: Option<reader_type!('a, $tkind)>,
                )?
                $(#[$fdoc])*
                #[doc = kind_doc!($kind)]
                $(#[doc = ""] #[doc = gate_doc!($ver $op $min $(, $first)?)])?
                $(#[doc = ""] #[doc = last_doc!($last)])?
                pub $field: reader_type!('a, $kind $(, $ver)? $(, $last)?),
            )*
        }

        impl<'a> $name<'a> {
            /// Reads the record at the cursor, the one at `place` in its run; `versions` open or
            /// close its gated fields.
            // Always inlined: opening a view reads every record only to check it and drops it,
            // and only inlined can the compiler drop what the record builds. Left to the
            // compiler, which inlines by how the crate's code is split into units (it differs
            // with the features), a CameraInfo's lists came back from an outlined read and were
            // copied three times per camera info (memcpy, about 300 bytes each): 0.85 M of the
            // 20.8 M instructions per open of the bench's large map.
            #[inline(always)]
            pub(crate) fn read(
                cur: &mut $crate::bytes::Cursor<'a>,
                versions: $crate::wdata::Versions,
                place: $crate::bytes::Place,
            ) -> $crate::error::Result<Self> {
                // Read only by the gated fields and the nested records (a record may have none).
                let _ = (versions, place);
                // The fields in order, a list's count in its place; then the lists' items.
                $(
                    $(let $then;)?
                    let $field = read_gated!(
                        cur,
                        versions,
                        place,
                        $kind,
                        $($ver $op $min $(|| $first)?,)?
                        $(unless $last ($why),)?
                        $label,
                        $fname
                        $(, $($here)? $count $(, $cw)? $(, @ $slot)?)?
                        $(, then $then $tkind $tname)?
                    );
                )*
                // Counts stored in slots were read where they are: move past them.
                let slotted: usize = 0 $($($(+ one!($slot))?)?)*;
                if slotted > 0 {
                    cur.take(4 * slotted, concat!($label, ".counts"))?;
                }
                $(
                    let $field =
                        read_list!(cur, versions, $kind, $field, $label, $fname $($(, $here)?)?);
                )*
                Ok($name { $($($then,)? $field,)* })
            }
        }

        impl<'a> $crate::wdata::Record<'a> for $name<'a> {
            type Context = $crate::wdata::Versions;
            const MIN_SIZE: usize = 0 $(+ min_size!($kind $(, $ver)? $(, $last)?))*;

            // Always inlined, as the inherent `read` is.
            #[inline(always)]
            fn read(
                cur: &mut $crate::bytes::Cursor<'a>,
                versions: $crate::wdata::Versions,
                place: $crate::bytes::Place,
            ) -> $crate::error::Result<Self> {
                Self::read(cur, versions, place)
            }
        }

        // A record must take bytes in every version: a stored count is bounded by them.
        const _: () = assert!(<$name<'_> as $crate::wdata::Record<'_>>::MIN_SIZE > 0);
    )*};
}

use super::cursor::WdataCursor as _;

flat_event_boxes!(reader_records);
flat_sections!(reader_records);
flat_inner_records!(reader_records);
nested_records!(reader_records);

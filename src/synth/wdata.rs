//! The committed fixtures (`fixtures/rusty-hearts-wdata/`): one or more for version 1, 2 and
//! every version from 6 to 22 (so each gate of the notes has a fixture on both sides), built by
//! one generator that fills every version-gated field exactly when the versions store it.
//! Together they cover every EventBox type (type 14 only as an empty group), every EventBox
//! sub-version gate (2..=9), the AniBG (3, 4, 5) and ItemBox (3) gates, both trigger layouts,
//! both scene passes and every SceneResources gate (10..=17), with empty and non-empty lists,
//! `".\"` paths and Korean text. Values are small and regular so `tests/wdata_hand.rs` can spell
//! the expected bytes out by hand.

use crate::write_error::WriteResult as Result;

use crate::wdata::model::*;
use crate::wdata::{SceneCamera, SceneTiming, Signpost, SoundFades, TimeHold};

/// What one fixture holds.
#[derive(Clone, Copy)]
pub(super) struct Plan {
    pub(super) version: i32,
    /// EventBox, AniBG and ItemBox versions (used from main version 7).
    pub(super) ev: i32,
    pub(super) anibg: i32,
    pub(super) item_box: i32,
    /// EventBox types with one record each (and two of the first type listed).
    pub(super) boxes: &'static [u32],
    pub(super) anibg_count: usize,
    pub(super) item_box_count: usize,
    pub(super) gimmick_count: usize,
    /// Triggers of the peer layout (unused with `script_lists`).
    pub(super) triggers: usize,
    /// The seed's script-lists layout instead of the peer's (version >= 9 only).
    pub(super) script_lists: bool,
    pub(super) scenes: usize,
    pub(super) scene_resources: usize,
}

const ALL_TYPES: &[u32] = &[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 15, 16, 17, 18];

const fn plan(version: i32, ev: i32, anibg: i32, item_box: i32, boxes: &'static [u32]) -> Plan {
    Plan {
        version,
        ev,
        anibg,
        item_box,
        boxes,
        anibg_count: 1,
        item_box_count: 1,
        gimmick_count: 1,
        triggers: 1,
        script_lists: false,
        scenes: 1,
        scene_resources: 1,
    }
}

/// Every fixture: file name and plan.
pub(super) const PLANS: &[(&str, Plan)] = &[
    ("v01-minimal.wdata", plan(1, 0, 0, 0, &[])),
    (
        "v02-empty-sections.wdata",
        Plan {
            anibg_count: 0,
            item_box_count: 0,
            gimmick_count: 0,
            triggers: 0,
            scenes: 0,
            scene_resources: 0,
            ..plan(2, 0, 0, 0, &[])
        },
    ),
    (
        "v06-sections.wdata",
        Plan {
            anibg_count: 2,
            item_box_count: 2,
            gimmick_count: 2,
            triggers: 2,
            scenes: 2,
            scene_resources: 2,
            ..plan(6, 0, 0, 0, &[])
        },
    ),
    ("v07-all-event-boxes.wdata", plan(7, 1, 2, 2, ALL_TYPES)),
    ("v08-ev2.wdata", plan(8, 2, 3, 3, &[13, 0, 17])),
    ("v09-ev3-peer-triggers.wdata", plan(9, 3, 4, 3, &[0, 3, 13])),
    ("v10-ev4-path-times.wdata", plan(10, 4, 5, 3, &[0])),
    ("v11-ev4-cues.wdata", plan(11, 4, 5, 3, &[17])),
    (
        "v12-ev4-sounds.wdata",
        Plan {
            script_lists: true,
            scene_resources: 2,
            ..plan(12, 4, 5, 3, &[0])
        },
    ),
    (
        "v13-ev4-script-lists.wdata",
        Plan {
            script_lists: true,
            ..plan(13, 4, 5, 3, &[0, 5])
        },
    ),
    ("v14-ev5.wdata", plan(14, 5, 5, 3, &[0])),
    (
        "v15-ev5-scene-timing.wdata",
        Plan {
            script_lists: true,
            scenes: 2,
            ..plan(15, 5, 5, 3, &[5, 0])
        },
    ),
    ("v16-ev6-sound-fades.wdata", plan(16, 6, 5, 3, &[0, 17])),
    (
        "v17-ev7-ambients.wdata",
        Plan {
            script_lists: true,
            ..plan(17, 7, 5, 3, &[0, 1, 2, 13])
        },
    ),
    ("v18-ev8-script-counts.wdata", plan(18, 8, 5, 3, &[13])),
    ("v19-ev8-scene-camera.wdata", plan(19, 8, 5, 3, &[0, 13])),
    (
        "v20-ev9-scene-pass2.wdata",
        Plan {
            scenes: 2,
            ..plan(20, 9, 5, 3, &[3, 0])
        },
    ),
    (
        "v21-scene-names.wdata",
        Plan {
            script_lists: true,
            ..plan(21, 9, 5, 3, &[0, 6, 7])
        },
    ),
    (
        "v22-all-event-boxes.wdata",
        Plan {
            script_lists: true,
            scenes: 2,
            scene_resources: 2,
            ..plan(22, 9, 5, 3, ALL_TYPES)
        },
    ),
    (
        "v22-peer-triggers.wdata",
        Plan {
            triggers: 2,
            ..plan(22, 9, 5, 3, &[0, 18])
        },
    ),
];

/// Every fixture, by file name.
pub fn fixtures() -> Result<Vec<(&'static str, Vec<u8>)>> {
    fixture_maps()
        .into_iter()
        .map(|(name, map)| Ok((name, map.to_bytes()?)))
        .collect()
}

/// The model behind every fixture, by file name: what a reader must decode from each file
/// (`write(&map)` is the committed file).
pub fn fixture_maps() -> Vec<(&'static str, WdataModel)> {
    PLANS.iter().map(|(name, p)| (*name, build(p))).collect()
}

/// The map a plan describes.
pub(super) fn build(p: &Plan) -> WdataModel {
    let v = p.version;
    let at = |min: i32, value: i32| (v >= min).then_some(value);
    let (ev, anibg, item_box) = if v >= 7 {
        (p.ev, p.anibg, p.item_box)
    } else {
        (0, 0, 0)
    };
    let no_path = || WString::new(NO_PATH);
    let event_boxes = (v >= 7).then(|| {
        let mut boxes = EventBoxes::default();
        for (i, &ty) in p.boxes.iter().enumerate() {
            let n = if i == 0 { 2 } else { 1 };
            for j in 0..n {
                push_box(&mut boxes, ty, ty as i32 * 10 + j, ev, v);
            }
        }
        boxes
    });
    let triggers = Triggers {
        reserved0: 0,
        script_dir: no_path(),
        reserved1: 0,
        main_script: WString::new("main.lua"),
        layout: if p.script_lists {
            TriggerLayout::ScriptLists {
                event_scripts: vec![WString::new("event\\a.lua")],
                condition_scripts: Vec::new(),
                action_scripts: vec![WString::new("action\\b.lua"), WString::new("action\\c.lua")],
            }
        } else {
            TriggerLayout::Peer((0..p.triggers).map(trigger).collect())
        },
    };
    WdataModel {
        signature: WString::nul_terminated(SIGNATURE),
        version: v,
        event_box_version: at(7, ev),
        anibg_version: at(7, anibg),
        item_box_version: at(7, item_box),
        gimmick_version: at(8, 1),
        script_count1: at(9, 3),
        script_condition_count1: at(16, 4),
        script_count2: at(18, 5),
        script_condition_count2: at(18, 6),
        // Version 2's fixture has an empty ModelPath (allowed: "empty or .mmp").
        model_path: if v == 2 {
            WString::default()
        } else {
            WString::new(&format!("map\\v{v:02}.mmp"))
        },
        nav_mesh_path: WString::new("map\\nav.nav"),
        nav_height_path: (v >= 2).then(no_path),
        event_box_path: no_path(),
        event_boxes,
        anibg: (0..p.anibg_count).map(|k| anibg_record(k, anibg)).collect(),
        item_boxes: (0..p.item_box_count)
            .map(|k| item_box_record(k, item_box))
            .collect(),
        gimmicks: (0..p.gimmick_count).map(gimmick).collect(),
        obstacle_path: (v >= 2).then(no_path),
        moc_path: WString::new("cut\\intro.moc"),
        anibg_path: no_path(),
        triggers,
        scenes: (0..p.scenes).map(|i| scene(i, v)).collect(),
        scene_resources: (0..p.scene_resources)
            .map(|i| scene_resource(i, v))
            .collect(),
    }
}

/// The box every record starts with; `k` seeds the position.
pub(super) fn obb(name: String, k: i32) -> Obb {
    let f = k as f32;
    Obb {
        name: WString::new(&name),
        position: [f, f + 1.0, f + 2.0],
        scale: [1.5, 2.5, 3.5],
        rotation: [0.0, 0.25, 0.5, 0.75],
        extents: [4.0, 5.0, 6.0],
    }
}

/// Adds one record of type `ty` (seed `k`) with the fields of EventBox version `ev` and main
/// version `v`.
pub(super) fn push_box(boxes: &mut EventBoxes, ty: u32, k: i32, ev: i32, v: i32) {
    let b = |kind: &str| obb(format!("{kind}{k}"), k);
    match ty {
        0 => boxes.camera.push(CameraBox {
            obb: b("CameraBox"),
            category: (ev >= 7).then_some(7),
            infos: [0, 1, 2, 3].map(|i| camera_info(i, ev, v)),
        }),
        1 => boxes.respawn.push(RespawnBox {
            obb: b("RespawnBox"),
            total_enemy_num: 10,
            enemy_num: 3,
            enemy_name: WString::new("goblin"),
            respawn_time: 2.5,
            respawn_motion: WString::new("spawn"),
            in_check: Bool32(1),
            random_direction: Bool32(0),
            difficulty: [1, 0, 1, 0, 1].map(Bool32),
        }),
        2 => boxes.start_point.push(StartPointBox {
            obb: b("StartPointBox"),
            id: k,
        }),
        3 => boxes.trigger.push(TriggerBox {
            obb: b("TriggerBox"),
            state: 1,
            action_motion: WString::new("open"),
            motion: WString::new("idle"),
            signpost: (ev >= 9).then_some(Signpost {
                text_id: 500,
                reposition: [0.0, 1.0, 0.0],
            }),
        }),
        4 => boxes.skid.push(SkidBox {
            obb: b("SkidBox"),
            state: 2,
            velocity: [1.0, 0.0, -1.0],
            end_time: 0.5,
            duration: 1.25,
        }),
        5 => boxes.event_hit.push(EventHitBox {
            obb: b("EventHitBox"),
            state: 3,
            anibg_name: WString::new("trap"),
            damage: 12.5,
            direction: [0.0, 0.0, 1.0],
            damage_motion: WString::new("hit"),
            hit_times: vec![0.25, 0.75],
            temp_hit_times: vec![1.0],
        }),
        6 => boxes.npc.push(NpcBox {
            obb: b("NpcBox"),
            npc_name: WString::new("마을 촌장"),
            id: 100,
            instance_id: 1,
        }),
        7 => boxes.portal.push(PortalBox {
            obb: b("PortalBox"),
            warp_map_name: WString::new("dungeon01"),
            id: 1,
            msg_type: 2,
            warp_map_id: 300,
            warp_portal_id: 4,
            active: Bool32(1),
        }),
        8 => boxes.select_map_portal.push(SelectMapPortalBox {
            obb: b("SelectMapPortalBox"),
            id: 2,
            msg_type: 3,
            active: Bool32(0),
        }),
        9 => boxes.in_area.push(InAreaBox {
            obb: b("InAreaBox"),
            warp_map_name: WString::new("field"),
            id: 5,
            active: Bool32(1),
        }),
        10 => boxes.etc.push(EtcBox {
            obb: b("EtcBox"),
            id: 6,
        }),
        11 => boxes.camera_block.push(CameraBlockBox {
            obb: b("CameraBlockBox"),
        }),
        12 => boxes.cutoff.push(CutoffBox {
            obb: b("CutoffBox"),
            cutoff_type: 7,
        }),
        13 => boxes.camera_target.push(CameraTargetBox {
            obb: b("CameraTargetBox"),
            target: if ev >= 8 {
                CameraTargetName::TextId(900)
            } else {
                CameraTargetName::Name(WString::new("boss"))
            },
            target_local_pc: (ev >= 2).then_some(Bool32(1)),
        }),
        15 => boxes.mini_map_icon.push(MiniMapIconBox {
            obb: b("MiniMapIconBox"),
            icon_type: 8,
        }),
        16 => boxes.environment_reverb.push(EnvironmentReverbBox {
            obb: b("EnvironmentReverbBox"),
            reverb_type: 9,
        }),
        17 => boxes.waypoint.push(WaypointBox {
            obb: b("WaypointBox"),
            id: 10,
            range: 3.5,
            links: vec![
                WaypointLink {
                    id: 11,
                    distance: 2.0,
                },
                WaypointLink {
                    id: 12,
                    distance: 4.5,
                },
            ],
        }),
        18 => boxes.obstacle.push(ObstacleBox {
            obb: b("ObstacleBox"),
        }),
        _ => {}
    }
}

/// Camera set-up `i` of a CameraBox: the first has every list non-empty but two, the others
/// have empty lists; the last stores a BuildPVS of 2 (any non-zero value means true).
fn camera_info(i: usize, ev: i32, v: i32) -> CameraInfo {
    let n = i as f32;
    let entry = |name: &str, id: u32| RenderEntry {
        id: (v >= 22).then_some(id),
        name: WString::new(name),
    };
    let lists = if i == 0 {
        CameraLists {
            pvs_bg: vec![1, 2],
            pvs_event_boxes: if ev >= 6 {
                PvsEventBoxes::Entries(vec![PvsEventEntry {
                    category: 4,
                    name: WString::new("ev"),
                }])
            } else {
                PvsEventBoxes::Ids(vec![3])
            },
            render_bg: vec![entry("bg0", 10)],
            render_ani: vec![entry("ani0", 11)],
            render_item: Vec::new(),
            render_gimmick: vec![entry("gim0", 13)],
            no_render_bg: vec![entry("nbg0", 14)],
            no_render_ani: Vec::new(),
            no_render_item: vec![entry("nitem0", 16)],
            no_render_gimmick: vec![entry("ngim0", 17)],
            build_positions: vec![[1.0, 2.0, 3.0]],
        }
    } else {
        CameraLists {
            pvs_event_boxes: if ev >= 6 {
                PvsEventBoxes::Entries(Vec::new())
            } else {
                PvsEventBoxes::Ids(Vec::new())
            },
            ..CameraLists::default()
        }
    };
    CameraInfo {
        camera_target: (ev >= 3 || i == 0).then(|| WString::new(&format!("target{i}"))),
        camera_name: WString::new(&format!("cam{i}")),
        camera_position: [n, 0.0, -n],
        camera_rotation: [0.5, 1.5, 2.5],
        fov: 60.0 + n,
        frustum: core::array::from_fn(|j| j as f32 * 0.5),
        build_pvs: (ev >= 5).then_some(Bool32(if i == 3 { 2 } else { 1 })),
        lists: (ev >= 4).then_some(lists),
    }
}

fn anibg_record(k: usize, ver: i32) -> AniBg {
    AniBg {
        obb: obb(format!("AniBG{k}"), k as i32),
        model: WString::new("bg\\tree.mdata"),
        motion: WString::new("sway"),
        looped: Bool32(1),
        light_index: 1,
        cover_index: 2,
        shadow: (ver >= 3).then_some(Bool32(1)),
        move_weight: (ver >= 4).then_some(Bool32(0)),
        pvs_radius: (ver >= 5).then_some(30.0),
    }
}

fn item_box_record(k: usize, ver: i32) -> ItemBox {
    ItemBox {
        obb: obb(format!("ItemBox{k}"), k as i32),
        model: WString::new("item\\chest.mdata"),
        motion: WString::new("open"),
        table_path: WString::new("table\\chest.rh"),
        looped: Bool32(0),
        open_enable: (ver >= 3).then_some(Bool32(1)),
    }
}

fn gimmick(k: usize) -> Gimmick {
    Gimmick {
        obb: obb(format!("Gimmick{k}"), k as i32),
        model: WString::new("gimmick\\lever.mdata"),
        motion: WString::new("pull"),
        loop_flag: 1,
        light_index: 2,
        cover_index: 3,
        shadow: 1,
        move_weight: 0,
        template_id: 42,
    }
}

fn trigger(i: usize) -> Trigger {
    Trigger {
        name: WString::new(&format!("trigger{i}")),
        comment: WString::new("문을 연다"),
        events: vec![WString::new("OnEnter")],
        conditions: Vec::new(),
        actions: vec![WString::new("OpenDoor"), WString::new("PlaySound")],
    }
}

fn scene(i: usize, v: i32) -> Scene {
    let element = |key: &str, category: u32| SceneElement {
        category: (v >= 22).then_some(category),
        key: WString::new(key),
    };
    Scene {
        file: WString::new(&format!("scene{i}.mec")),
        fade_in_preview: 0.5,
        fade_hold_preview: 1.0,
        fade_out_preview: 1.5,
        timing: (v >= 15).then_some(SceneTiming {
            category: i as u32,
            fade_in: 0.25,
            fade_hold: 0.5,
            fade_out: 0.75,
            blend_time: 1.0,
            fog_near: 10.0,
            fog_far: 100.0,
        }),
        camera: (v >= 19).then_some(SceneCamera {
            position: [1.0, 2.0, 3.0],
            rotation: [0.0, 90.0, 0.0],
            fov: 45.0,
            aspect_ratio: 1.75,
        }),
        pass2: (v >= 20).then(|| {
            if i == 0 {
                ScenePass2 {
                    name: (v >= 21).then(|| WString::new("장면 하나")),
                    scene_ids: vec![1, 2],
                    event_entries: vec![EventEntry {
                        category: 1,
                        key: WString::new("intro"),
                    }],
                    render_bg: vec![element("bg", 3)],
                    render_ani: Vec::new(),
                    render_item: vec![element("item", 4)],
                    render_gimmick: Vec::new(),
                    no_render_bg: vec![element("nbg", 5)],
                    no_render_ani: vec![element("nani", 6)],
                    no_render_item: Vec::new(),
                    no_render_gimmick: vec![element("ngim", 7)],
                }
            } else {
                ScenePass2 {
                    name: (v >= 21).then(|| WString::new(&format!("scene{i}"))),
                    ..ScenePass2::default()
                }
            }
        }),
    }
}

/// Resource 0 has two paths, an alias, a cue, a sound and an ambient; the others are empty.
fn scene_resource(i: usize, v: i32) -> SceneResource {
    let full = i == 0;
    let path = |motion: &str, last: bool| SceneData {
        model: WString::new("npc.mdata"),
        motion: WString::new(motion),
        name: WString::new("actor"),
        event_name: WString::new("ev"),
        time_hold: (v >= 10).then_some(TimeHold {
            time: 100,
            hold: 200,
        }),
        blend_time: (!last).then_some(0.25),
    };
    SceneResource {
        key: WString::new(&format!("res{i}")),
        aliases: if full {
            vec![WString::new("alias0")]
        } else {
            Vec::new()
        },
        delay: full.then_some(0.5),
        paths: if full {
            vec![path("walk", false), path("talk", true)]
        } else {
            Vec::new()
        },
        cues: (v >= 11).then(|| {
            if full {
                vec![Cue {
                    end: 2.0,
                    name: WString::new("shake"),
                    id: 7,
                    start: 1.0,
                }]
            } else {
                Vec::new()
            }
        }),
        sound: (v >= 12).then(|| SoundBlock {
            sounds: if full {
                vec![Sound {
                    start: 0.5,
                    fades: (v >= 16).then_some(SoundFades {
                        fade_in: 0.125,
                        fade_out: 0.25,
                        vol_max: 1.0,
                        vol_min: 0.5,
                    }),
                    path: WString::new("sound\\boom.wav"),
                }]
            } else {
                Vec::new()
            },
            unk1: (v >= 13).then_some(11),
            unk2: 22,
            unk3: 3.5,
            unk4: 44,
            unknown_ints: (v <= 14).then_some([1, 2, 3, 4, 5, 6, 7]),
            unknown_strings: (v <= 13).then(|| [WString::new("u1"), WString::new("u2")]),
        }),
        ambients: (v >= 17).then(|| {
            if full {
                vec![Ambient {
                    start: 0.0,
                    path: WString::new("amb\\wind.wav"),
                    play_on_start: Bool32(1),
                    looped: Bool32(1),
                }]
            } else {
                Vec::new()
            }
        }),
    }
}

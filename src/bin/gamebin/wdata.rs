//! What the CLI shows of a Rusty Hearts `.wdata` map: a one-line (or JSON) summary, and the whole
//! map with every name as text.

use std::fmt::Write as _;
use std::path::Path;

use anyhow::Result;
use gamebin::wdata::{
    self, Bool32, CameraTargetName, EventBox, EventBoxType, NameList, Obb, PvsEventBoxes,
    RENDER_LIST_NAMES, TriggerLayout, WStr, WdataView,
};
use serde::ser::{Serialize, SerializeMap, Serializer};

/// Count of EventBoxes per type name, in type order.
#[derive(Debug)]
pub struct ByType(Vec<(String, usize)>);

impl Serialize for ByType {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(self.0.len()))?;
        for (name, count) in &self.0 {
            map.serialize_entry(name, count)?;
        }
        map.end()
    }
}

fn type_name(index: u32) -> String {
    EventBoxType::from_index(index).map_or_else(|| format!("Type{index}"), |t| t.name().to_owned())
}

/// `"trigger-list"`, `"script-paths"`, or `"ambiguous"` when both layouts end exactly at EOF (the
/// trigger list is then what is counted and dumped).
fn layout_name(view: &WdataView<'_>) -> &'static str {
    if view.trigger_layout_ambiguous() {
        "ambiguous"
    } else {
        view.trigger_layout().name()
    }
}

#[derive(Debug, serde::Serialize)]
pub struct Info {
    pub path: String,
    pub format: &'static str,
    pub version: i32,
    pub event_box_version: Option<i32>,
    pub event_boxes: usize,
    pub event_boxes_by_type: ByType,
    pub anibg: usize,
    pub item_boxes: usize,
    pub gimmicks: usize,
    pub trigger_layout: &'static str,
    /// Triggers (trigger-list layout) or script paths (script-paths layout).
    pub triggers: usize,
    pub scenes: usize,
    pub scene_resources: usize,
}

pub fn info(path: &Path, data: &[u8]) -> Result<Info> {
    let view = WdataView::from_bytes(data)?;
    let by_type = view
        .event_box_groups()
        .map(|g| (type_name(g.type_index), g.count as usize))
        .collect();
    Ok(Info {
        path: path.display().to_string(),
        format: gamebin::Format::RustyHeartsWdata.name(),
        version: view.version(),
        event_box_version: view.header().event_box_version,
        event_boxes: view.event_box_count(),
        event_boxes_by_type: ByType(by_type),
        anibg: view.anibg().len(),
        item_boxes: view.item_boxes().len(),
        gimmicks: view.gimmicks().len(),
        trigger_layout: layout_name(&view),
        triggers: view.triggers().entry_count(),
        scenes: view.scenes().len(),
        scene_resources: view.scene_resources().len(),
    })
}

pub fn info_line(i: &Info) -> String {
    let ev = i
        .event_box_version
        .map_or_else(String::new, |v| format!(" (EventBox version {v})"));
    format!(
        "{}: {} version {}, {} event boxes{ev}, {} anibg, {} item boxes, {} gimmicks, {} triggers ({}), {} scenes, {} scene resources",
        i.path,
        i.format,
        i.version,
        i.event_boxes,
        i.anibg,
        i.item_boxes,
        i.gimmicks,
        i.triggers,
        i.trigger_layout,
        i.scenes,
        i.scene_resources
    )
}

fn text(s: WStr<'_>) -> String {
    s.to_string()
}

fn texts(list: NameList<'_>) -> Vec<String> {
    list.iter().map(|n| n.name.to_string()).collect()
}

#[derive(Debug, serde::Serialize)]
pub struct NamedDump {
    /// The category (or id) stored before the name, when the list stores one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub category: Option<u32>,
    pub name: String,
}

fn named(list: NameList<'_>) -> Vec<NamedDump> {
    list.iter()
        .map(|n| NamedDump {
            category: n.category,
            name: n.name.to_string(),
        })
        .collect()
}

/// The eight render lists by name.
#[derive(Debug)]
pub struct RenderLists(Vec<(&'static str, Vec<NamedDump>)>);

impl Serialize for RenderLists {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(self.0.len()))?;
        for (name, list) in &self.0 {
            map.serialize_entry(name, list)?;
        }
        map.end()
    }
}

fn render_lists(lists: [NameList<'_>; 8]) -> RenderLists {
    RenderLists(
        RENDER_LIST_NAMES
            .iter()
            .zip(lists)
            .map(|(name, list)| (*name, named(list)))
            .collect(),
    )
}

fn b(v: Bool32) -> bool {
    v.get()
}

#[derive(Debug, serde::Serialize)]
pub struct HeaderDump {
    pub signature: String,
    pub version: i32,
    pub event_box_version: Option<i32>,
    pub anibg_version: Option<i32>,
    pub item_box_version: Option<i32>,
    pub gimmick_version: Option<i32>,
    pub script_count1: Option<i32>,
    pub script_condition_count1: Option<i32>,
    pub script_count2: Option<i32>,
    pub script_condition_count2: Option<i32>,
    pub model_path: String,
    pub nav_mesh_path: String,
    pub nav_height_path: Option<String>,
    pub event_box_path: String,
}

#[derive(Debug, serde::Serialize)]
pub struct ObbDump {
    pub name: String,
    pub position: [f32; 3],
    pub scale: [f32; 3],
    pub rotation: [f32; 4],
    pub extents: [f32; 3],
}

fn obb(o: &Obb<'_>) -> ObbDump {
    ObbDump {
        name: text(o.name),
        position: o.position,
        scale: o.scale,
        rotation: o.rotation,
        extents: o.extents,
    }
}

#[derive(Debug, serde::Serialize)]
pub struct CameraListsDump {
    pub pvs_bg: Vec<u32>,
    /// Ids below EventBox version 6, `(category, name)` from 6.
    pub pvs_event_boxes: serde_json::Value,
    pub render: RenderLists,
    pub build_positions: Vec<[f32; 3]>,
}

#[derive(Debug, serde::Serialize)]
pub struct CameraInfoDump {
    pub camera_target: Option<String>,
    pub camera_name: String,
    pub position: [f32; 3],
    pub rotation: [f32; 3],
    pub fov: f32,
    pub frustum: [f32; 14],
    pub build_pvs: Option<bool>,
    pub lists: Option<CameraListsDump>,
}

/// One EventBox's own fields (after its OBB), by type.
#[derive(Debug, serde::Serialize)]
#[serde(untagged)]
pub enum Fields {
    Camera {
        category: Option<u32>,
        camera_infos: Vec<CameraInfoDump>,
    },
    Respawn {
        total_enemy_num: i32,
        enemy_num: i32,
        enemy_name: String,
        respawn_time: f32,
        respawn_motion: String,
        in_check: bool,
        random_direction: bool,
        difficulty: [bool; 5],
    },
    Trigger {
        state: i32,
        action_motion: String,
        motion: String,
        signpost_text_id: Option<i32>,
        signpost_reposition: Option<[f32; 3]>,
    },
    Skid {
        state: i32,
        velocity: [f32; 3],
        end_time: f32,
        duration: f32,
    },
    EventHit {
        state: i32,
        anibg_name: String,
        damage: f32,
        direction: [f32; 3],
        damage_motion: String,
        hit_times: Vec<f32>,
        temp_hit_times: Vec<f32>,
    },
    Npc {
        npc_name: String,
        id: i32,
        instance_id: i32,
    },
    Portal {
        warp_map_name: String,
        id: i32,
        msg_type: i32,
        warp_map_id: i32,
        warp_portal_id: i32,
        active: bool,
    },
    SelectMapPortal {
        id: i32,
        msg_type: i32,
        active: bool,
    },
    InArea {
        warp_map_name: String,
        id: i32,
        active: bool,
    },
    Id {
        id: i32,
    },
    CutoffType {
        cutoff_type: i32,
    },
    CameraTarget {
        target_name: Option<String>,
        name_text_id: Option<i32>,
        target_local_pc: Option<bool>,
    },
    IconType {
        icon_type: i32,
    },
    ReverbType {
        reverb_type: i32,
    },
    Waypoint {
        id: i32,
        range: f32,
        links: Vec<i32>,
        link_distances: Vec<f32>,
    },
    None {},
}

#[derive(Debug, serde::Serialize)]
pub struct EventBoxDump {
    pub obb: ObbDump,
    #[serde(flatten)]
    pub fields: Fields,
}

#[derive(Debug, serde::Serialize)]
pub struct GroupDump {
    #[serde(rename = "type")]
    pub type_name: String,
    pub type_index: u32,
    pub offset: usize,
    pub count: u32,
    pub boxes: Vec<EventBoxDump>,
    /// An unknown type's group bytes, in hex (never interpreted).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub raw_hex: Option<String>,
}

fn floats(v: &[zerocopy::little_endian::F32]) -> Vec<f32> {
    v.iter().map(|f| f.get()).collect()
}

fn camera_info(c: &wdata::CameraInfo<'_>) -> CameraInfoDump {
    CameraInfoDump {
        camera_target: c.camera_target.map(text),
        camera_name: text(c.camera_name),
        position: c.position,
        rotation: c.rotation,
        fov: c.fov,
        frustum: c.frustum,
        build_pvs: c.build_pvs.map(b),
        lists: c.lists.map(|l| CameraListsDump {
            pvs_bg: l.pvs_bg.iter().map(|v| v.get()).collect(),
            pvs_event_boxes: match l.pvs_event_boxes {
                PvsEventBoxes::Ids(ids) => {
                    serde_json::json!(ids.iter().map(|v| v.get()).collect::<Vec<_>>())
                }
                PvsEventBoxes::Entries(list) => serde_json::json!(named(list)),
            },
            render: render_lists(l.render),
            build_positions: l
                .build_positions
                .iter()
                .map(|p| [p[0].get(), p[1].get(), p[2].get()])
                .collect(),
        }),
    }
}

fn fields(e: &EventBox<'_>) -> Fields {
    match e {
        EventBox::Camera(c) => Fields::Camera {
            category: c.category,
            camera_infos: c.camera_infos().map(|i| camera_info(&i)).collect(),
        },
        EventBox::Respawn(r) => Fields::Respawn {
            total_enemy_num: r.total_enemy_num,
            enemy_num: r.enemy_num,
            enemy_name: text(r.enemy_name),
            respawn_time: r.respawn_time,
            respawn_motion: text(r.respawn_motion),
            in_check: b(r.in_check),
            random_direction: b(r.random_direction),
            difficulty: r.difficulty.map(b),
        },
        EventBox::StartPoint(s) => Fields::Id { id: s.id },
        EventBox::Trigger(t) => Fields::Trigger {
            state: t.state,
            action_motion: text(t.action_motion),
            motion: text(t.motion),
            signpost_text_id: t.signpost.map(|s| s.text_id),
            signpost_reposition: t.signpost.map(|s| s.reposition),
        },
        EventBox::Skid(s) => Fields::Skid {
            state: s.state,
            velocity: s.velocity,
            end_time: s.end_time,
            duration: s.duration,
        },
        EventBox::EventHit(h) => Fields::EventHit {
            state: h.state,
            anibg_name: text(h.anibg_name),
            damage: h.damage,
            direction: h.direction,
            damage_motion: text(h.damage_motion),
            hit_times: floats(h.hit_times),
            temp_hit_times: floats(h.temp_hit_times),
        },
        EventBox::Npc(n) => Fields::Npc {
            npc_name: text(n.npc_name),
            id: n.id,
            instance_id: n.instance_id,
        },
        EventBox::Portal(p) => Fields::Portal {
            warp_map_name: text(p.warp_map_name),
            id: p.id,
            msg_type: p.msg_type,
            warp_map_id: p.warp_map_id,
            warp_portal_id: p.warp_portal_id,
            active: b(p.active),
        },
        EventBox::SelectMapPortal(p) => Fields::SelectMapPortal {
            id: p.id,
            msg_type: p.msg_type,
            active: b(p.active),
        },
        EventBox::InArea(a) => Fields::InArea {
            warp_map_name: text(a.warp_map_name),
            id: a.id,
            active: b(a.active),
        },
        EventBox::Etc(v) => Fields::Id { id: v.value },
        EventBox::Cutoff(v) => Fields::CutoffType {
            cutoff_type: v.value,
        },
        EventBox::CameraTarget(c) => Fields::CameraTarget {
            target_name: match c.target {
                CameraTargetName::Name(n) => Some(text(n)),
                CameraTargetName::TextId(_) => None,
            },
            name_text_id: match c.target {
                CameraTargetName::TextId(id) => Some(id),
                CameraTargetName::Name(_) => None,
            },
            target_local_pc: c.target_local_pc.map(b),
        },
        EventBox::MiniMapIcon(v) => Fields::IconType { icon_type: v.value },
        EventBox::EnvironmentReverb(v) => Fields::ReverbType {
            reverb_type: v.value,
        },
        EventBox::Waypoint(w) => Fields::Waypoint {
            id: w.id,
            range: w.range,
            links: w.links.iter().map(|v| v.get()).collect(),
            link_distances: floats(w.link_distances),
        },
        EventBox::CameraBlock(_) | EventBox::Obstacle(_) => Fields::None {},
    }
}

#[derive(Debug, serde::Serialize)]
pub struct AniBgDump {
    pub obb: ObbDump,
    pub model: String,
    pub motion: String,
    #[serde(rename = "loop")]
    pub looped: bool,
    pub light_index: i32,
    pub cover_index: i32,
    pub shadow: Option<bool>,
    pub move_weight: Option<bool>,
    pub pvs_radius: Option<f32>,
}

#[derive(Debug, serde::Serialize)]
pub struct ItemBoxDump {
    pub obb: ObbDump,
    pub model: String,
    pub motion: String,
    pub table_path: String,
    #[serde(rename = "loop")]
    pub looped: bool,
    pub open_enable: Option<bool>,
}

#[derive(Debug, serde::Serialize)]
pub struct GimmickDump {
    pub obb: ObbDump,
    pub model: String,
    pub motion: String,
    pub loop_flag: i32,
    pub light_index: i32,
    pub cover_index: i32,
    pub shadow: i32,
    pub move_weight: i32,
    pub template_id: i32,
}

#[derive(Debug, serde::Serialize)]
pub struct TriggerDump {
    pub name: String,
    pub comment: String,
    pub events: Vec<String>,
    pub conditions: Vec<String>,
    pub actions: Vec<String>,
}

#[derive(Debug, serde::Serialize)]
pub struct TriggersDump {
    pub layout: &'static str,
    pub reserved0: i32,
    pub script_dir: String,
    pub reserved1: i32,
    pub main_script: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub triggers: Option<Vec<TriggerDump>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub event_scripts: Option<Vec<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub condition_scripts: Option<Vec<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub action_scripts: Option<Vec<String>>,
}

#[derive(Debug, serde::Serialize)]
pub struct SceneDetailsDump {
    pub name: Option<String>,
    pub scene_ids: Vec<u32>,
    pub event_entries: Vec<NamedDump>,
    pub render: RenderLists,
}

#[derive(Debug, serde::Serialize)]
pub struct SceneDump {
    pub file: String,
    pub fade_in_preview: f32,
    pub fade_hold_preview: f32,
    pub fade_out_preview: f32,
    pub timing: Option<wdata_timing::Timing>,
    pub camera: Option<wdata_timing::Camera>,
    pub details: Option<SceneDetailsDump>,
}

/// Serde mirrors of the scene's fixed blocks.
pub mod wdata_timing {
    #[derive(Debug, serde::Serialize)]
    pub struct Timing {
        pub category: u32,
        pub fade_in: f32,
        pub fade_hold: f32,
        pub fade_out: f32,
        pub blend_time: f32,
        pub fog_near: f32,
        pub fog_far: f32,
    }

    #[derive(Debug, serde::Serialize)]
    pub struct Camera {
        pub position: [f32; 3],
        pub rotation: [f32; 3],
        pub fov: f32,
        pub aspect_ratio: f32,
    }
}

#[derive(Debug, serde::Serialize)]
pub struct PathDump {
    pub model: String,
    pub motion: String,
    pub name: String,
    pub event_name: String,
    pub time: Option<u32>,
    pub hold: Option<u32>,
    pub blend_time: Option<f32>,
}

#[derive(Debug, serde::Serialize)]
pub struct CueDump {
    pub end: f32,
    pub name: String,
    pub id: u32,
    pub start: f32,
}

#[derive(Debug, serde::Serialize)]
pub struct SoundDump {
    pub start: f32,
    pub fade_in: Option<f32>,
    pub fade_out: Option<f32>,
    pub vol_max: Option<f32>,
    pub vol_min: Option<f32>,
    pub path: String,
}

#[derive(Debug, serde::Serialize)]
pub struct SoundBlockDump {
    pub sounds: Vec<SoundDump>,
    pub unk1: Option<u32>,
    pub unk2: u32,
    pub unk3: f32,
    pub unk4: u32,
    pub unknown_ints: Option<[i32; 7]>,
    pub unknown_strings: Option<[String; 2]>,
}

#[derive(Debug, serde::Serialize)]
pub struct AmbientDump {
    pub start: f32,
    pub path: String,
    pub play_on_start: bool,
    #[serde(rename = "loop")]
    pub looped: bool,
}

#[derive(Debug, serde::Serialize)]
pub struct ResourceDump {
    pub key: String,
    pub aliases: Vec<String>,
    pub delay: Option<f32>,
    pub paths: Vec<PathDump>,
    pub cues: Option<Vec<CueDump>>,
    pub sound: Option<SoundBlockDump>,
    pub ambients: Option<Vec<AmbientDump>>,
}

#[derive(Debug, serde::Serialize)]
pub struct SectionsDump {
    pub event_boxes: Option<usize>,
    pub anibg: usize,
    pub item_boxes: usize,
    pub gimmicks: usize,
    pub trailing_paths: usize,
    pub triggers: usize,
    pub scenes: usize,
    pub scene_resources: usize,
}

#[derive(Debug, serde::Serialize)]
pub struct Dump {
    pub path: String,
    pub format: &'static str,
    pub size: usize,
    pub header: HeaderDump,
    /// Absolute offsets where the sections start.
    pub sections: SectionsDump,
    pub event_box_groups: Vec<GroupDump>,
    pub anibg: Vec<AniBgDump>,
    pub item_boxes: Vec<ItemBoxDump>,
    pub gimmicks: Vec<GimmickDump>,
    pub obstacle_path: Option<String>,
    pub moc_path: String,
    pub anibg_path: String,
    pub triggers: TriggersDump,
    pub scenes: Vec<SceneDump>,
    pub scene_resources: Vec<ResourceDump>,
}

fn hex(bytes: &[u8]) -> String {
    let mut s = String::with_capacity(bytes.len() * 2);
    for byte in bytes {
        let _ = write!(s, "{byte:02x}");
    }
    s
}

pub fn dump(path: &Path, data: &[u8]) -> Result<Dump> {
    let view = WdataView::from_bytes(data)?;
    let h = view.header();
    let t = view.triggers();
    let scripts = t.script_paths();
    let sections = view.sections();
    Ok(Dump {
        path: path.display().to_string(),
        format: gamebin::Format::RustyHeartsWdata.name(),
        size: data.len(),
        header: HeaderDump {
            signature: text(h.signature),
            version: h.version,
            event_box_version: h.event_box_version,
            anibg_version: h.anibg_version,
            item_box_version: h.item_box_version,
            gimmick_version: h.gimmick_version,
            script_count1: h.script_count1,
            script_condition_count1: h.script_condition_count1,
            script_count2: h.script_count2,
            script_condition_count2: h.script_condition_count2,
            model_path: text(h.model_path),
            nav_mesh_path: text(h.nav_mesh_path),
            nav_height_path: h.nav_height_path.map(text),
            event_box_path: text(h.event_box_path),
        },
        sections: SectionsDump {
            event_boxes: sections.event_boxes,
            anibg: sections.anibg,
            item_boxes: sections.item_boxes,
            gimmicks: sections.gimmicks,
            trailing_paths: sections.trailing_paths,
            triggers: sections.triggers,
            scenes: sections.scenes,
            scene_resources: sections.scene_resources,
        },
        event_box_groups: view
            .event_box_groups()
            .map(|g| GroupDump {
                type_name: type_name(g.type_index),
                type_index: g.type_index,
                offset: g.offset,
                count: g.count,
                boxes: g
                    .boxes()
                    .map(|e| EventBoxDump {
                        obb: obb(e.obb()),
                        fields: fields(&e),
                    })
                    .collect(),
                raw_hex: g.raw.map(hex),
            })
            .collect(),
        anibg: view
            .anibg()
            .iter()
            .map(|a| AniBgDump {
                obb: obb(&a.obb),
                model: text(a.model),
                motion: text(a.motion),
                looped: b(a.looped),
                light_index: a.light_index,
                cover_index: a.cover_index,
                shadow: a.shadow.map(b),
                move_weight: a.move_weight.map(b),
                pvs_radius: a.pvs_radius,
            })
            .collect(),
        item_boxes: view
            .item_boxes()
            .iter()
            .map(|i| ItemBoxDump {
                obb: obb(&i.obb),
                model: text(i.model),
                motion: text(i.motion),
                table_path: text(i.table_path),
                looped: b(i.looped),
                open_enable: i.open_enable.map(b),
            })
            .collect(),
        gimmicks: view
            .gimmicks()
            .iter()
            .map(|g| GimmickDump {
                obb: obb(&g.obb),
                model: text(g.model),
                motion: text(g.motion),
                loop_flag: g.loop_flag,
                light_index: g.light_index,
                cover_index: g.cover_index,
                shadow: g.shadow,
                move_weight: g.move_weight,
                template_id: g.template_id,
            })
            .collect(),
        obstacle_path: view.obstacle_path().map(text),
        moc_path: text(view.moc_path()),
        anibg_path: text(view.anibg_path()),
        triggers: TriggersDump {
            layout: layout_name(&view),
            reserved0: t.reserved0,
            script_dir: text(t.script_dir),
            reserved1: t.reserved1,
            main_script: text(t.main_script),
            triggers: (t.layout() == TriggerLayout::TriggerList).then(|| {
                t.triggers()
                    .map(|t| TriggerDump {
                        name: text(t.name),
                        comment: text(t.comment),
                        events: texts(t.events),
                        conditions: texts(t.conditions),
                        actions: texts(t.actions),
                    })
                    .collect()
            }),
            event_scripts: scripts.map(|s| texts(s.events)),
            condition_scripts: scripts.map(|s| texts(s.conditions)),
            action_scripts: scripts.map(|s| texts(s.actions)),
        },
        scenes: view
            .scenes()
            .iter()
            .map(|s| SceneDump {
                file: text(s.head.file),
                fade_in_preview: s.head.fade_in_preview,
                fade_hold_preview: s.head.fade_hold_preview,
                fade_out_preview: s.head.fade_out_preview,
                timing: s.head.timing.map(|t| wdata_timing::Timing {
                    category: t.category,
                    fade_in: t.fade_in,
                    fade_hold: t.fade_hold,
                    fade_out: t.fade_out,
                    blend_time: t.blend_time,
                    fog_near: t.fog_near,
                    fog_far: t.fog_far,
                }),
                camera: s.head.camera.map(|c| wdata_timing::Camera {
                    position: c.position,
                    rotation: c.rotation,
                    fov: c.fov,
                    aspect_ratio: c.aspect_ratio,
                }),
                details: s.details.map(|d| SceneDetailsDump {
                    name: d.name.map(text),
                    scene_ids: d.scene_ids.iter().map(|v| v.get()).collect(),
                    event_entries: named(d.event_entries),
                    render: render_lists(d.render),
                }),
            })
            .collect(),
        scene_resources: view
            .scene_resources()
            .iter()
            .map(|r| ResourceDump {
                key: text(r.key),
                aliases: texts(r.aliases),
                delay: r.delay,
                paths: r
                    .paths
                    .iter()
                    .map(|p| PathDump {
                        model: text(p.model),
                        motion: text(p.motion),
                        name: text(p.name),
                        event_name: text(p.event_name),
                        time: p.time,
                        hold: p.hold,
                        blend_time: p.blend_time,
                    })
                    .collect(),
                cues: r.cues.map(|c| {
                    c.iter()
                        .map(|c| CueDump {
                            end: c.end,
                            name: text(c.name),
                            id: c.id,
                            start: c.start,
                        })
                        .collect()
                }),
                sound: r.sound.map(|s| SoundBlockDump {
                    sounds: s
                        .sounds
                        .iter()
                        .map(|s| SoundDump {
                            start: s.start,
                            fade_in: s.fades.map(|f| f.fade_in),
                            fade_out: s.fades.map(|f| f.fade_out),
                            vol_max: s.fades.map(|f| f.vol_max),
                            vol_min: s.fades.map(|f| f.vol_min),
                            path: text(s.path),
                        })
                        .collect(),
                    unk1: s.unk1,
                    unk2: s.unk2,
                    unk3: s.unk3,
                    unk4: s.unk4,
                    unknown_ints: s.legacy_ints.map(|v| v.map(|i| i.get())),
                    unknown_strings: s.legacy_strings.map(|v| v.map(text)),
                }),
                ambients: r.ambients.map(|a| {
                    a.iter()
                        .map(|a| AmbientDump {
                            start: a.start,
                            path: text(a.path),
                            play_on_start: b(a.play_on_start),
                            looped: b(a.looped),
                        })
                        .collect()
                }),
            })
            .collect(),
    })
}

fn path_or_none(p: &str) -> &str {
    if p.is_empty() || p == wdata::NO_PATH {
        "(none)"
    } else {
        p
    }
}

/// The dump as text: the header, then one line per record.
pub fn dump_text(d: &Dump) -> String {
    let mut out = String::new();
    let h = &d.header;
    let _ = writeln!(out, "{}: {}, {} bytes", d.path, d.format, d.size);
    let sub = |v: Option<i32>| v.map_or_else(|| "-".to_owned(), |v| v.to_string());
    let _ = writeln!(
        out,
        "version {}, EventBox {}, AniBG {}, ItemBox {}, Gimmick {}",
        h.version,
        sub(h.event_box_version),
        sub(h.anibg_version),
        sub(h.item_box_version),
        sub(h.gimmick_version)
    );
    let _ = writeln!(out, "model {}", path_or_none(&h.model_path));
    let _ = writeln!(out, "navmesh {}", path_or_none(&h.nav_mesh_path));
    if let Some(p) = &h.nav_height_path {
        let _ = writeln!(out, "navheight {}", path_or_none(p));
    }
    let _ = writeln!(out, "eventbox path {}", path_or_none(&h.event_box_path));
    let total: u32 = d.event_box_groups.iter().map(|g| g.count).sum();
    let _ = writeln!(out, "event boxes ({total}):");
    for g in d.event_box_groups.iter().filter(|g| g.count > 0) {
        let _ = writeln!(
            out,
            "  {} (type {}) at {:#x}: {}",
            g.type_name, g.type_index, g.offset, g.count
        );
        for e in &g.boxes {
            let [x, y, z] = e.obb.position;
            let _ = writeln!(out, "    {:?} at ({x}, {y}, {z})", e.obb.name);
        }
        if let Some(raw) = &g.raw_hex {
            let _ = writeln!(out, "    unknown layout: {} raw bytes", raw.len() / 2);
        }
    }
    let _ = writeln!(out, "anibg ({}):", d.anibg.len());
    for a in &d.anibg {
        let _ = writeln!(
            out,
            "  {:?} model {} motion {:?}",
            a.obb.name, a.model, a.motion
        );
    }
    let _ = writeln!(out, "item boxes ({}):", d.item_boxes.len());
    for i in &d.item_boxes {
        let _ = writeln!(
            out,
            "  {:?} model {} table {}",
            i.obb.name, i.model, i.table_path
        );
    }
    let _ = writeln!(out, "gimmicks ({}):", d.gimmicks.len());
    for g in &d.gimmicks {
        let _ = writeln!(
            out,
            "  {:?} model {} template {}",
            g.obb.name, g.model, g.template_id
        );
    }
    if let Some(p) = &d.obstacle_path {
        let _ = writeln!(out, "obstacle path {}", path_or_none(p));
    }
    let _ = writeln!(out, "moc path {}", path_or_none(&d.moc_path));
    let _ = writeln!(out, "anibg path {}", path_or_none(&d.anibg_path));
    let t = &d.triggers;
    let _ = writeln!(
        out,
        "triggers ({}): script dir {}, main script {}",
        t.layout,
        path_or_none(&t.script_dir),
        t.main_script
    );
    for tr in t.triggers.iter().flatten() {
        let _ = writeln!(
            out,
            "  {:?}: events {:?}, conditions {:?}, actions {:?}",
            tr.name, tr.events, tr.conditions, tr.actions
        );
    }
    for (kind, list) in [
        ("event scripts", &t.event_scripts),
        ("condition scripts", &t.condition_scripts),
        ("action scripts", &t.action_scripts),
    ] {
        if let Some(list) = list {
            let _ = writeln!(out, "  {kind}: {list:?}");
        }
    }
    let _ = writeln!(out, "scenes ({}):", d.scenes.len());
    for s in &d.scenes {
        let name = s
            .details
            .as_ref()
            .and_then(|d| d.name.as_deref())
            .map_or_else(String::new, |n| format!("{n:?} "));
        let _ = writeln!(out, "  {name}camera file {}", s.file);
    }
    let _ = writeln!(out, "scene resources ({}):", d.scene_resources.len());
    for r in &d.scene_resources {
        let _ = writeln!(
            out,
            "  {:?}: {} paths, {} cues, {} sounds, {} ambients",
            r.key,
            r.paths.len(),
            r.cues.as_ref().map_or(0, Vec::len),
            r.sound.as_ref().map_or(0, |s| s.sounds.len()),
            r.ambients.as_ref().map_or(0, Vec::len)
        );
    }
    out
}

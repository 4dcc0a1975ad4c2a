//! Rusty Hearts `.wdata`: maps assembled byte by byte in this file from the notes
//! (`specs/rusty-hearts-wdata.notes.md`), read back against the values written into them; the
//! writer's fixtures read, round-tripped byte for byte and truncated at every length; the trigger
//! layout chosen (and ambiguity reported); malformed inputs giving precise errors.

use gamebin::wdata::{
    CameraTargetName, EventBox, EventBoxType, PvsEventBoxes, TimeHold, TriggerLayout, WdataView,
};
use gamebin::{ErrorKind, Format};

/// A little-endian byte assembler: what the notes say, one field at a time.
#[derive(Default)]
struct W(Vec<u8>);

impl W {
    fn i32(&mut self, v: i32) -> &mut Self {
        self.0.extend_from_slice(&v.to_le_bytes());
        self
    }
    fn u32(&mut self, v: u32) -> &mut Self {
        self.0.extend_from_slice(&v.to_le_bytes());
        self
    }
    fn f32(&mut self, v: f32) -> &mut Self {
        self.0.extend_from_slice(&v.to_le_bytes());
        self
    }
    fn floats(&mut self, v: &[f32]) -> &mut Self {
        for &f in v {
            self.f32(f);
        }
        self
    }
    /// `u16` unit count, then UTF-16LE.
    fn s(&mut self, text: &str) -> &mut Self {
        let units: Vec<u16> = text.encode_utf16().collect();
        self.0
            .extend_from_slice(&(units.len() as u16).to_le_bytes());
        for u in units {
            self.0.extend_from_slice(&u.to_le_bytes());
        }
        self
    }
    /// The signature as the game stores it: 14 characters + NUL, count 15.
    fn signature(&mut self) -> &mut Self {
        self.s("stairwaygames.\0")
    }
    fn pos(&self) -> usize {
        self.0.len()
    }
    fn patch(&mut self, at: usize, v: i32) {
        self.0[at..at + 4].copy_from_slice(&v.to_le_bytes());
    }
    /// Name, position, scale, rotation XYZW, extents: positions from `k` so each box differs.
    fn obb(&mut self, name: &str, k: f32) -> &mut Self {
        self.s(name)
            .floats(&[k, k + 1.0, k + 2.0])
            .floats(&[1.0, 1.0, 1.0])
            .floats(&[0.0, 0.0, 0.0, 1.0])
            .floats(&[0.5, 0.5, k])
    }
}

/// Header for main version `v` with the given sub-versions (ignored where `v` stores none).
fn header(w: &mut W, v: i32, ev: i32, ani: i32, item: i32) {
    w.signature().i32(v);
    if v >= 7 {
        w.i32(ev).i32(ani).i32(item);
    }
    if v >= 8 {
        w.i32(80); // GimmickVersion
    }
    if v >= 9 {
        w.i32(91); // ScriptCount1
    }
    if v >= 16 {
        w.i32(161);
    }
    if v >= 18 {
        w.i32(181).i32(182);
    }
    w.s("map\\town.mmp").s("map\\town.nav");
    if v >= 2 {
        w.s("map\\town.height");
    }
    w.s(".\\");
}

/// The sections after Gimmick up to the triggers: paths, then a one-trigger list.
fn paths_and_trigger_list(w: &mut W, v: i32) {
    if v >= 2 {
        w.s("map\\town.obstacle");
    }
    w.s(".\\").s("ani.path");
    w.i32(7).s(".\\").i32(8).s("main.lua");
    w.i32(1); // triggerCount
    w.s("Door").s("opens the door");
    w.i32(1).i32(0).i32(2);
    w.s("OnEnemiesDead").s("OpenDoor").s("PlaySound");
}

/// One scene (both passes from v20) and one scene resource with two paths.
fn scenes_and_resources(w: &mut W, v: i32) {
    w.i32(1);
    w.s("cam.mec").floats(&[0.1, 0.2, 0.3]);
    if v >= 15 {
        w.u32(5).floats(&[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]);
    }
    if v >= 19 {
        w.floats(&[7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 60.0, 1.5]);
    }
    if v >= 20 {
        if v >= 21 {
            w.s("Intro");
        }
        // entryCnt, sceneIdCnt, then the 8 render counts.
        w.i32(1)
            .i32(2)
            .i32(1)
            .i32(0)
            .i32(0)
            .i32(0)
            .i32(0)
            .i32(0)
            .i32(0)
            .i32(1);
        w.u32(100).u32(101);
        w.u32(3).s("BossIntro");
        if v >= 22 {
            w.u32(40);
        }
        w.s("bg_wall");
        if v >= 22 {
            w.u32(41);
        }
        w.s("gate");
    }
    w.i32(1); // SceneResources
    w.s("BossIntro").i32(1).s("Boss");
    w.i32(2).f32(0.25); // pathCnt, Delay
    for (i, name) in ["walk", "roar"].iter().enumerate() {
        w.s("boss.mdata").s(name).s("Boss").s("ev");
        if v >= 10 {
            w.u32(10 + i as u32).u32(20 + i as u32);
        }
        if i == 0 {
            w.f32(0.75); // BlendTime, not after the last path
        }
    }
    if v >= 11 {
        w.i32(1).f32(2.5).s("shake").u32(9).f32(1.5);
    }
    if v >= 12 {
        w.i32(1).f32(0.5);
        if v >= 16 {
            w.floats(&[0.1, 0.2, 1.0, 0.3]);
        }
        w.s("roar.wav");
        if v >= 13 {
            w.u32(11);
        }
        w.u32(12).f32(13.0).u32(14);
        if v <= 14 {
            for i in 0..7 {
                w.i32(-i);
            }
        }
        if v <= 13 {
            w.s("unk_a").s("unk_b");
        }
    }
    if v >= 17 {
        w.i32(1).f32(3.0).s("wind.wav").u32(1).u32(2);
    }
}

/// A version 1 map: no EventBoxes, no NavHeightPath, no ObstaclePath, the oldest gates.
fn version_1() -> Vec<u8> {
    let mut w = W::default();
    header(&mut w, 1, 0, 0, 0);
    w.i32(1); // AniBG
    w.obb("torch", 1.0)
        .s("torch.mdata")
        .s("burn")
        .u32(1)
        .i32(2)
        .i32(3);
    w.i32(1); // ItemBox
    w.obb("chest", 2.0)
        .s("chest.mdata")
        .s("open")
        .s("drop.tbl")
        .u32(0);
    w.i32(1); // Gimmick
    w.obb("trap", 3.0)
        .s("trap.mdata")
        .s("spin")
        .i32(1)
        .i32(2)
        .i32(3)
        .i32(4)
        .i32(5)
        .i32(6);
    paths_and_trigger_list(&mut w, 1);
    scenes_and_resources(&mut w, 1);
    w.0
}

#[test]
fn version_1_reads_back_field_by_field() {
    let data = version_1();
    assert_eq!(gamebin::detect(&data), Some(Format::RustyHeartsWdata));
    let map = WdataView::from_bytes(&data).unwrap();
    let h = map.header();
    assert_eq!(h.signature.len_units(), 15);
    assert!(h.signature.eq_str("stairwaygames."));
    assert_eq!(map.version(), 1);
    assert_eq!(h.event_box_version, None);
    assert_eq!(h.gimmick_version, None);
    assert_eq!(h.model_path.to_string(), "map\\town.mmp");
    assert_eq!(h.nav_height_path, None);
    assert!(h.event_box_path.is_no_path());
    assert_eq!(map.event_box_count(), 0);
    assert_eq!(map.event_boxes().count(), 0);
    assert_eq!(map.sections().event_boxes, None);

    let anibg: Vec<_> = map.anibg().iter().map(Result::unwrap).collect();
    assert_eq!(anibg.len(), 1);
    let a = anibg[0];
    assert!(a.obb.name.eq_str("torch"));
    assert_eq!(a.obb.position, [1.0, 2.0, 3.0]);
    assert_eq!(a.obb.rotation, [0.0, 0.0, 0.0, 1.0]);
    assert_eq!(a.obb.extents, [0.5, 0.5, 1.0]);
    assert!(a.looped.get());
    assert_eq!((a.light_index, a.cover_index), (2, 3));
    assert_eq!((a.shadow, a.move_weight, a.pvs_radius), (None, None, None));
    let i = map.item_boxes().iter().next().unwrap().unwrap();
    assert!(i.table_path.eq_str("drop.tbl"));
    assert_eq!(i.open_enable, None);
    let g = map.gimmicks().iter().next().unwrap().unwrap();
    assert_eq!(
        (
            g.loop_flag,
            g.light_index,
            g.cover_index,
            g.shadow,
            g.move_weight,
            g.template_id
        ),
        (1, 2, 3, 4, 5, 6)
    );
    assert_eq!(map.obstacle_path(), None);
    assert!(map.moc_path().as_path().is_none());
    assert!(map.anibg_path().eq_str("ani.path"));

    let t = map.triggers();
    assert_eq!(map.trigger_layout(), TriggerLayout::TriggerList);
    assert!(!map.trigger_layout_ambiguous());
    assert_eq!((t.head.reserved0, t.head.reserved1), (7, 8));
    assert!(t.head.main_script.eq_str("main.lua"));
    let door = t.triggers().next().unwrap().unwrap();
    assert!(door.name.eq_str("Door"));
    assert_eq!(door.events.len(), 1);
    assert_eq!(door.conditions.len(), 0);
    let actions: Vec<String> = door
        .actions
        .iter()
        .map(|n| n.unwrap().name.to_string())
        .collect();
    assert_eq!(actions, ["OpenDoor", "PlaySound"]);

    let scene = map.scenes().iter().next().unwrap().unwrap();
    assert!(scene.head.file.eq_str("cam.mec"));
    assert_eq!(scene.head.fade_out_preview, 0.3);
    assert!(scene.head.timing.is_none() && scene.head.camera.is_none());
    assert!(scene.details.is_none());

    let r = map.scene_resources().iter().next().unwrap().unwrap();
    assert!(r.key.eq_str("BossIntro"));
    assert_eq!(
        r.aliases.iter().next().unwrap().unwrap().name.to_string(),
        "Boss"
    );
    assert_eq!(r.delay, Some(0.25));
    let paths: Vec<_> = r.paths.iter().map(Result::unwrap).collect();
    assert_eq!(paths.len(), 2);
    assert_eq!(paths[0].blend_time, Some(0.75));
    assert_eq!(paths[1].blend_time, None);
    assert!(paths[1].motion.eq_str("roar"));
    assert_eq!(paths[0].time_hold, None);
    assert!(r.cues.is_none() && r.sound.is_none() && r.ambients.is_none());
}

/// Every EventBox type but 14 at EventBox version 9, main version `v` (>= 7).
fn every_event_box(v: i32) -> Vec<u8> {
    let mut w = W::default();
    header(&mut w, v, 9, 5, 3);
    w.i32(19);
    let index = w.pos();
    for _ in 0..19 {
        w.i32(0).i32(0);
    }
    let keyed = v >= 22;
    for ty in 0..19 {
        let at = w.pos() as i32;
        let count = if ty == 14 { 0 } else { 1 };
        w.patch(index + ty * 8, at);
        w.patch(index + ty * 8 + 4, count);
        if ty == 14 {
            continue;
        }
        w.obb(&format!("box{ty}"), ty as f32);
        match ty {
            0 => {
                w.u32(77); // Category
                for c in 0..4 {
                    w.s(&format!("target{c}")).s(&format!("cam{c}"));
                    w.floats(&(0..21).map(|f| f as f32 + c as f32).collect::<Vec<_>>());
                    w.u32(c); // BuildPVS
                    // pvsBg 2, pvsEv 1, render counts (1 in RenderBg, 1 in NoRenderGimmick), buildPos 1
                    w.u32(2)
                        .u32(1)
                        .u32(1)
                        .u32(0)
                        .u32(0)
                        .u32(0)
                        .u32(0)
                        .u32(0)
                        .u32(0)
                        .u32(1)
                        .u32(1);
                    w.u32(5).u32(6);
                    w.u32(3).s("npc_box");
                    if keyed {
                        w.u32(500);
                    }
                    w.s("wall");
                    if keyed {
                        w.u32(501);
                    }
                    w.s("lever");
                    w.floats(&[1.0, 2.0, 3.0]);
                }
            }
            1 => {
                w.i32(10).i32(3).s("Goblin").f32(30.0).s("spawn");
                w.u32(1).u32(0).u32(1).u32(1).u32(0).u32(0).u32(2);
            }
            2 => {
                w.i32(4);
            }
            3 => {
                w.i32(1)
                    .s("push")
                    .s("idle")
                    .i32(1234)
                    .floats(&[0.0, 1.5, 0.0]);
            }
            4 => {
                w.i32(2).floats(&[1.0, 0.0, -1.0]).f32(4.0).f32(2.0);
            }
            5 => {
                w.i32(3)
                    .s("spikes")
                    .f32(25.0)
                    .floats(&[0.0, 1.0, 0.0])
                    .s("hit");
                w.i32(2).i32(1).f32(0.5).f32(1.0).f32(0.75);
            }
            6 => {
                w.s("Guard").i32(12).i32(34);
            }
            7 => {
                w.s("dungeon01").i32(1).i32(2).i32(1001).i32(3).u32(1);
            }
            8 => {
                w.i32(5).i32(6).u32(0);
            }
            9 => {
                w.s("plaza").i32(7).u32(1);
            }
            10 | 12 | 15 | 16 => {
                w.i32(100 + ty as i32);
            }
            13 => {
                w.i32(4321).u32(1);
            }
            17 => {
                w.i32(8).f32(2.5).i32(2).i32(9).i32(10).f32(3.0).f32(4.0);
            }
            _ => {}
        }
    }
    w.i32(1);
    w.obb("flame", 5.0)
        .s("flame.mdata")
        .s("burn")
        .u32(1)
        .i32(2)
        .i32(3)
        .u32(1)
        .u32(0)
        .f32(50.0);
    w.i32(1);
    w.obb("chest", 6.0)
        .s("chest.mdata")
        .s("open")
        .s("drop.tbl")
        .u32(0)
        .u32(1);
    w.i32(0);
    paths_and_trigger_list(&mut w, v);
    scenes_and_resources(&mut w, v);
    w.0
}

#[test]
fn version_22_every_event_box_type_reads_back() {
    let data = every_event_box(22);
    let map = WdataView::from_bytes(&data).unwrap();
    assert_eq!(map.version(), 22);
    let h = map.header();
    assert_eq!(
        (
            h.event_box_version,
            h.anibg_version,
            h.item_box_version,
            h.gimmick_version
        ),
        (Some(9), Some(5), Some(3), Some(80))
    );
    assert_eq!(
        (
            h.script_count1,
            h.script_condition_count1,
            h.script_count2,
            h.script_condition_count2
        ),
        (Some(91), Some(161), Some(181), Some(182))
    );
    assert!(h.nav_height_path.unwrap().eq_str("map\\town.height"));
    assert_eq!(map.event_box_index().len(), 19);
    assert_eq!(map.event_box_count(), 18);
    let boxes: Vec<EventBox> = map.event_boxes().map(Result::unwrap).collect();
    assert_eq!(boxes.len(), 18);
    let types: Vec<EventBoxType> = boxes.iter().map(|b| b.event_box_type()).collect();
    let expected: Vec<EventBoxType> = EventBoxType::ALL
        .into_iter()
        .filter(|t| *t != EventBoxType::UnusedBox)
        .collect();
    assert_eq!(types, expected);
    for b in &boxes {
        let ty = b.event_box_type() as u8;
        assert_eq!(b.obb().name.to_string(), format!("box{ty}"));
        assert_eq!(b.obb().position[0], f32::from(ty));
    }
    let EventBox::Camera(cam) = boxes[0] else {
        panic!("type 0 is a CameraBox")
    };
    assert_eq!(cam.category, Some(77));
    assert_eq!(cam.camera_infos().count(), 4);
    for (c, info) in cam.camera_infos().map(Result::unwrap).enumerate() {
        assert_eq!(
            info.camera_target.unwrap().to_string(),
            format!("target{c}")
        );
        assert_eq!(info.camera_name.to_string(), format!("cam{c}"));
        assert_eq!(
            info.camera_position,
            [c as f32, 1.0 + c as f32, 2.0 + c as f32]
        );
        assert_eq!(info.fov, 6.0 + c as f32);
        assert_eq!(info.frustum[13], 20.0 + c as f32);
        assert_eq!(info.build_pvs.unwrap().raw(), c as u32);
        let lists = info.lists.unwrap();
        assert_eq!(
            lists.pvs_bg.iter().map(|v| v.get()).collect::<Vec<_>>(),
            [5, 6]
        );
        let PvsEventBoxes::Entries(pvs) = lists.pvs_event_boxes else {
            panic!("evVer 9 stores (category, name) PVS entries")
        };
        let first = pvs.iter().next().unwrap().unwrap();
        assert_eq!(
            (first.category, first.name.to_string().as_str()),
            (Some(3), "npc_box")
        );
        let bg = lists.render()[0].iter().next().unwrap().unwrap();
        assert_eq!(
            (bg.category, bg.name.to_string().as_str()),
            (Some(500), "wall")
        );
        assert!(lists.render()[1..7].iter().all(|l| l.is_empty()));
        let gim = lists.render()[7].iter().next().unwrap().unwrap();
        assert_eq!(
            (gim.category, gim.name.to_string().as_str()),
            (Some(501), "lever")
        );
        assert_eq!(lists.build_positions.len(), 1);
        assert_eq!(lists.build_positions[0][2].get(), 3.0);
    }
    let EventBox::Respawn(r) = boxes[1] else {
        panic!()
    };
    assert_eq!(
        (r.total_enemy_num, r.enemy_num, r.respawn_time),
        (10, 3, 30.0)
    );
    assert!(r.enemy_name.eq_str("Goblin") && r.in_check.get() && !r.random_direction.get());
    assert_eq!(r.difficulty.map(|d| d.raw()), [1, 1, 0, 0, 2]);
    let EventBox::StartPoint(s) = boxes[2] else {
        panic!()
    };
    assert_eq!(s.id, 4);
    let EventBox::Trigger(t) = boxes[3] else {
        panic!()
    };
    assert_eq!(t.state, 1);
    assert!(t.action_motion.eq_str("push") && t.motion.eq_str("idle"));
    let sign = t.signpost.unwrap();
    assert_eq!((sign.text_id, sign.reposition), (1234, [0.0, 1.5, 0.0]));
    let EventBox::Skid(s) = boxes[4] else {
        panic!()
    };
    assert_eq!(
        (s.state, s.velocity, s.end_time, s.duration),
        (2, [1.0, 0.0, -1.0], 4.0, 2.0)
    );
    let EventBox::EventHit(e) = boxes[5] else {
        panic!()
    };
    assert_eq!((e.state, e.damage, e.direction), (3, 25.0, [0.0, 1.0, 0.0]));
    assert!(e.anibg_name.eq_str("spikes") && e.damage_motion.eq_str("hit"));
    assert_eq!(
        e.hit_times.iter().map(|f| f.get()).collect::<Vec<_>>(),
        [0.5, 1.0]
    );
    assert_eq!(
        e.temp_hit_times.iter().map(|f| f.get()).collect::<Vec<_>>(),
        [0.75]
    );
    let EventBox::Npc(n) = boxes[6] else { panic!() };
    assert!(n.npc_name.eq_str("Guard"));
    assert_eq!((n.id, n.instance_id), (12, 34));
    let EventBox::Portal(p) = boxes[7] else {
        panic!()
    };
    assert!(p.warp_map_name.eq_str("dungeon01"));
    assert_eq!(
        (p.id, p.msg_type, p.warp_map_id, p.warp_portal_id),
        (1, 2, 1001, 3)
    );
    assert!(p.active.get());
    let EventBox::SelectMapPortal(p) = boxes[8] else {
        panic!()
    };
    assert_eq!((p.id, p.msg_type, p.active.get()), (5, 6, false));
    let EventBox::InArea(a) = boxes[9] else {
        panic!()
    };
    assert_eq!((a.id, a.active.get()), (7, true));
    assert!(a.warp_map_name.eq_str("plaza"));
    let EventBox::Etc(v) = boxes[10] else {
        panic!()
    };
    assert_eq!(v.id, 110);
    assert!(matches!(boxes[11], EventBox::CameraBlock(_)));
    let EventBox::Cutoff(v) = boxes[12] else {
        panic!()
    };
    assert_eq!(v.cutoff_type, 112);
    let EventBox::CameraTarget(c) = boxes[13] else {
        panic!()
    };
    assert_eq!(c.target, CameraTargetName::TextId(4321));
    assert!(c.target_local_pc.unwrap().get());
    let EventBox::MiniMapIcon(v) = boxes[14] else {
        panic!()
    };
    assert_eq!(v.icon_type, 115);
    let EventBox::EnvironmentReverb(v) = boxes[15] else {
        panic!()
    };
    assert_eq!(v.reverb_type, 116);
    let EventBox::Waypoint(wp) = boxes[16] else {
        panic!()
    };
    assert_eq!((wp.id, wp.range), (8, 2.5));
    assert_eq!(wp.links.len(), 2);
    assert_eq!(wp.links.iter().collect::<Vec<_>>(), [(9, 3.0), (10, 4.0)]);
    assert!(matches!(boxes[17], EventBox::Obstacle(o) if o.obb.name.eq_str("box18")));
    let unused = map.event_box_group(EventBoxType::UnusedBox).unwrap();
    assert_eq!((unused.count, unused.raw), (0, None));

    let a = map.anibg().iter().next().unwrap().unwrap();
    assert_eq!(
        (
            a.shadow.map(|b| b.get()),
            a.move_weight.map(|b| b.get()),
            a.pvs_radius
        ),
        (Some(true), Some(false), Some(50.0))
    );
    let i = map.item_boxes().iter().next().unwrap().unwrap();
    assert_eq!(i.open_enable.map(|b| b.get()), Some(true));
    assert_eq!(map.gimmicks().len(), 0);
    assert!(map.obstacle_path().unwrap().eq_str("map\\town.obstacle"));

    let scene = map.scenes().iter().next().unwrap().unwrap();
    let timing = scene.head.timing.unwrap();
    assert_eq!(
        (timing.category, timing.fade_in, timing.fog_far),
        (5, 1.0, 6.0)
    );
    let camera = scene.head.camera.unwrap();
    assert_eq!(
        (camera.position, camera.fov, camera.aspect_ratio),
        ([7.0, 8.0, 9.0], 60.0, 1.5)
    );
    let d = scene.details.unwrap();
    assert!(d.name.unwrap().eq_str("Intro"));
    assert_eq!(
        d.scene_ids.iter().map(|v| v.get()).collect::<Vec<_>>(),
        [100, 101]
    );
    let entry = d.event_entries.iter().next().unwrap().unwrap();
    assert_eq!(
        (entry.category, entry.name.to_string().as_str()),
        (Some(3), "BossIntro")
    );
    let bg = d.render_bg.iter().next().unwrap().unwrap();
    assert_eq!(
        (bg.category, bg.name.to_string().as_str()),
        (Some(40), "bg_wall")
    );
    let gate = d.no_render_gimmick.iter().next().unwrap().unwrap();
    assert_eq!(
        (gate.category, gate.name.to_string().as_str()),
        (Some(41), "gate")
    );

    let r = map.scene_resources().iter().next().unwrap().unwrap();
    let paths: Vec<_> = r.paths.iter().map(Result::unwrap).collect();
    let time_hold = |t: u32, h: u32| Some(TimeHold { time: t, hold: h });
    assert_eq!(paths[0].time_hold, time_hold(10, 20));
    assert_eq!(paths[1].time_hold, time_hold(11, 21));
    let cue = r.cues.unwrap().iter().next().unwrap().unwrap();
    assert_eq!((cue.end, cue.id, cue.start), (2.5, 9, 1.5));
    assert!(cue.name.eq_str("shake"));
    let sound = r.sound.unwrap();
    let s = sound.sounds.iter().next().unwrap().unwrap();
    assert_eq!(s.start, 0.5);
    assert_eq!(s.fades.unwrap().vol_max, 1.0);
    assert!(s.path.eq_str("roar.wav"));
    assert_eq!(
        (sound.unk1, sound.unk2, sound.unk3, sound.unk4),
        (Some(11), 12, 13.0, 14)
    );
    assert!(sound.unknown_ints.is_none() && sound.unknown_strings.is_none());
    let amb = r.ambients.unwrap().iter().next().unwrap().unwrap();
    assert_eq!(
        (amb.start, amb.play_on_start.raw(), amb.looped.raw()),
        (3.0, 1, 2)
    );
}

#[test]
fn render_list_ids_follow_the_main_version_not_the_event_box_version() {
    // Same EventBox version (9), main version 21: render items carry no id; PVS entries still do.
    let data = every_event_box(21);
    let map = WdataView::from_bytes(&data).unwrap();
    let EventBox::Camera(cam) = map.event_boxes().next().unwrap().unwrap() else {
        panic!()
    };
    let lists = cam.camera_info(0).unwrap().unwrap().lists.unwrap();
    assert!(!lists.render()[0].is_keyed());
    assert_eq!(
        lists.render()[0].iter().next().unwrap().unwrap().category,
        None
    );
    assert!(
        lists.render()[0]
            .iter()
            .next()
            .unwrap()
            .unwrap()
            .name
            .eq_str("wall")
    );
    let d = map
        .scenes()
        .iter()
        .next()
        .unwrap()
        .unwrap()
        .details
        .unwrap();
    assert_eq!(d.render_bg.iter().next().unwrap().unwrap().category, None);
}

/// Every main version from 7 to 22 with every EventBox type parses exactly to EOF; the gates of
/// the scene resource block appear where the notes put them.
#[test]
fn every_main_version_from_7_reads() {
    for v in 7..=22 {
        let data = every_event_box(v);
        let map = WdataView::from_bytes(&data).unwrap_or_else(|e| panic!("v{v}: {e}"));
        assert_eq!(map.event_boxes().count(), 18, "v{v}");
        let r = map.scene_resources().iter().next().unwrap().unwrap();
        assert_eq!(r.cues.is_some(), v >= 11, "v{v}");
        let sound = r.sound;
        assert_eq!(sound.is_some(), v >= 12, "v{v}");
        if let Some(s) = sound {
            assert_eq!(s.unk1.is_some(), v >= 13, "v{v}");
            assert_eq!(s.unknown_ints.is_some(), v <= 14, "v{v}");
            assert_eq!(s.unknown_strings.is_some(), v <= 13, "v{v}");
            if let Some(ints) = s.unknown_ints {
                assert_eq!(ints[6], -6);
            }
            if let Some([a, b]) = s.unknown_strings {
                assert!(a.eq_str("unk_a") && b.eq_str("unk_b"));
            }
            assert_eq!(
                s.sounds.iter().next().unwrap().unwrap().fades.is_some(),
                v >= 16
            );
        }
        assert_eq!(r.ambients.is_some(), v >= 17, "v{v}");
        let scene = map.scenes().iter().next().unwrap().unwrap();
        assert_eq!(scene.head.timing.is_some(), v >= 15);
        assert_eq!(scene.head.camera.is_some(), v >= 19);
        assert_eq!(scene.details.is_some(), v >= 20);
        assert_eq!(scene.details.and_then(|d| d.name).is_some(), v >= 21);
    }
}

/// Main version 7 with old EventBox versions: CameraBox without category, targets only on the
/// first camera below evVer 3, no lists below 4, PVS ids below 6, CameraTarget by name below 8.
fn old_event_boxes(ev: i32) -> Vec<u8> {
    let mut w = W::default();
    header(&mut w, 7, ev, 2, 2);
    w.i32(19);
    let index = w.pos();
    for _ in 0..19 {
        w.i32(0).i32(0);
    }
    // CameraBox group first, then CameraTarget: both in index order.
    for (ty, _) in [(0usize, ()), (13, ())] {
        let at = w.pos() as i32;
        w.patch(index + ty * 8, at);
        w.patch(index + ty * 8 + 4, 1);
        w.obb(&format!("box{ty}"), 1.0);
        if ty == 0 {
            if ev >= 7 {
                w.u32(55); // Category
            }
            for c in 0..4 {
                if ev >= 3 || c == 0 {
                    w.s("target");
                }
                w.s("cam").floats(&[0.5; 21]);
                if ev >= 5 {
                    w.u32(1);
                }
                if ev >= 4 {
                    w.u32(1)
                        .u32(2)
                        .u32(0)
                        .u32(0)
                        .u32(0)
                        .u32(0)
                        .u32(0)
                        .u32(0)
                        .u32(0)
                        .u32(0)
                        .u32(0);
                    w.u32(44);
                    if ev < 6 {
                        w.u32(45).u32(46);
                    } else {
                        w.u32(1).s("a").u32(2).s("b");
                    }
                }
            }
        } else {
            if ev < 8 {
                w.s("boss");
            } else {
                w.i32(99);
            }
            if ev >= 2 {
                w.u32(1);
            }
        }
    }
    w.i32(0).i32(0).i32(0); // AniBG, ItemBox, Gimmick
    paths_and_trigger_list(&mut w, 7);
    scenes_and_resources(&mut w, 7);
    w.0
}

#[test]
fn event_box_version_gates() {
    for ev in 1..=9 {
        let data = old_event_boxes(ev);
        let map = WdataView::from_bytes(&data).unwrap_or_else(|e| panic!("evVer {ev}: {e}"));
        let boxes: Vec<_> = map.event_boxes().map(Result::unwrap).collect();
        assert_eq!(boxes.len(), 2);
        let EventBox::Camera(cam) = boxes[0] else {
            panic!()
        };
        assert_eq!(cam.category, (ev >= 7).then_some(55));
        assert!(cam.camera_info(0).unwrap().unwrap().camera_target.is_some());
        assert_eq!(
            cam.camera_info(3).unwrap().unwrap().camera_target.is_some(),
            ev >= 3
        );
        assert_eq!(
            cam.camera_info(1).unwrap().unwrap().build_pvs.is_some(),
            ev >= 5
        );
        let lists = cam.camera_info(2).unwrap().unwrap().lists;
        assert_eq!(lists.is_some(), ev >= 4);
        if let Some(l) = lists {
            assert_eq!(l.pvs_bg[0].get(), 44);
            match l.pvs_event_boxes {
                PvsEventBoxes::Ids(ids) => {
                    assert!(ev < 6);
                    assert_eq!(ids.iter().map(|v| v.get()).collect::<Vec<_>>(), [45, 46]);
                }
                PvsEventBoxes::Entries(e) => {
                    assert!(ev >= 6);
                    let names: Vec<_> = e
                        .iter()
                        .map(Result::unwrap)
                        .map(|n| (n.category, n.name.to_string()))
                        .collect();
                    assert_eq!(names, [(Some(1), "a".into()), (Some(2), "b".into())]);
                }
            }
        }
        let EventBox::CameraTarget(t) = boxes[1] else {
            panic!()
        };
        match t.target {
            CameraTargetName::Name(n) => assert!(ev < 8 && n.eq_str("boss")),
            CameraTargetName::TextId(id) => assert!(ev >= 8 && id == 99),
        }
        assert_eq!(t.target_local_pc.is_some(), ev >= 2);
    }
}

/// After `mainScript`, version 9: `ev=0, cond=0, act=1 "x"`, scenes 0, resources 0 in the
/// script-paths layout — which, read as a trigger list, is `triggerCount=0`, scenes 0, and one
/// resource keyed "x" with no aliases and no paths. Both end exactly at EOF.
fn ambiguous_v9() -> Vec<u8> {
    let mut w = W::default();
    header(&mut w, 9, 9, 5, 3);
    w.i32(19);
    for _ in 0..19 {
        w.i32(0).i32(0);
    }
    // Empty groups: offsets point just past the index, as the game's writer does.
    let end = w.pos() as i32;
    for ty in 0..19 {
        w.patch(w.pos() - 19 * 8 + ty * 8, end);
    }
    w.i32(0).i32(0).i32(0);
    w.s(".\\").s(".\\").s(".\\");
    w.i32(0).s(".\\").i32(0).s("main.lua");
    w.i32(0).i32(0).i32(1).s("x").i32(0).i32(0);
    w.0
}

#[test]
fn trigger_layout_ambiguity_is_reported() {
    let data = ambiguous_v9();
    let map = WdataView::from_bytes(&data).unwrap();
    assert!(map.trigger_layout_ambiguous());
    assert_eq!(map.trigger_layout(), TriggerLayout::TriggerList);
    assert_eq!(map.triggers().trigger_count(), 0);
    assert_eq!(map.scene_resources().len(), 1);
}

#[test]
fn script_paths_layout_is_chosen_when_only_it_reaches_eof() {
    let mut w = W::default();
    header(&mut w, 9, 9, 5, 3);
    w.i32(0); // no EventBox types
    w.i32(0).i32(0).i32(0);
    w.s(".\\").s(".\\").s(".\\");
    w.i32(0).s("scripts\\").i32(0).s("main.lua");
    w.i32(2).i32(1).i32(1);
    w.s("ev_a.lua").s("ev_b.lua").s("cond.lua").s("act.lua");
    w.i32(0).i32(0);
    let data = w.0;
    let map = WdataView::from_bytes(&data).unwrap();
    assert_eq!(map.trigger_layout(), TriggerLayout::ScriptPaths);
    assert!(!map.trigger_layout_ambiguous());
    let s = map.triggers().script_paths().unwrap();
    let events: Vec<String> = s
        .events
        .iter()
        .map(|n| n.unwrap().name.to_string())
        .collect();
    assert_eq!(events, ["ev_a.lua", "ev_b.lua"]);
    assert!(
        s.actions
            .iter()
            .next()
            .unwrap()
            .unwrap()
            .name
            .eq_str("act.lua")
    );
    assert_eq!(map.triggers().entry_count(), 4);
    assert_eq!(map.triggers().triggers().count(), 0);

    // Below version 9 the script-paths layout does not exist: the same bytes are an error.
    let mut old = data.clone();
    let version_at = 2 + 30;
    old[version_at..version_at + 4].copy_from_slice(&8i32.to_le_bytes());
    // Version 8 stores no ScriptCount1: remove it.
    old.drain(version_at + 4 + 16..version_at + 4 + 20);
    assert!(WdataView::from_bytes(&old).is_err());
}

#[test]
fn neither_trigger_layout_is_an_error_that_says_so() {
    let mut data = ambiguous_v9();
    data.extend_from_slice(&[1, 2, 3]);
    let e = WdataView::from_bytes(&data).unwrap_err();
    assert_eq!(e.what(), "Triggers.layout");
    // reserved0 (4), scriptDir ".\" (6), reserved1 (4), mainScript "main.lua" (18), then 24 bytes.
    let triggers_at = data.len() - 3 - 24 - 32;
    assert_eq!(e.offset() as usize, triggers_at);
    assert!(e.to_string().contains("neither trigger layout"), "{e}");
}

#[test]
fn trailing_bytes_below_version_9_name_the_end() {
    let mut data = version_1();
    let len = data.len();
    data.extend_from_slice(&[0; 5]);
    let e = WdataView::from_bytes(&data).unwrap_err();
    assert_eq!((e.what(), e.offset() as usize), ("SceneResources.end", len));
    assert!(matches!(e.kind(), ErrorKind::InvalidValue { value: 5, .. }));
}

/// A scene resource's counts are named where reading them fails (below version 9, so that no
/// second trigger layout is tried): the hand-built map stores the alias count before the aliases,
/// then the path count, the delay and the paths. (A cut in the delay is a path count the rest of
/// the file cannot hold: the count is checked first.)
#[test]
fn scene_resource_counts_are_named_where_they_fail() {
    let base = version_1();
    let map = WdataView::from_bytes(&base).unwrap();
    let r = map.scene_resources().iter().next().unwrap().unwrap();
    let alias_count_at = r.aliases.offset() - 4;
    let delay_at = r.paths.offset() - 4;
    let path_count_at = delay_at - 4;
    let named = |data: &[u8]| {
        let e = WdataView::from_bytes(data).unwrap_err();
        (e.offset() as usize, e.what())
    };
    assert_eq!(
        named(&base[..delay_at + 2]),
        (path_count_at, "SceneResource.pathCnt")
    );
    let mut data = base.clone();
    data[path_count_at..delay_at].copy_from_slice(&(-1i32).to_le_bytes());
    assert_eq!(named(&data), (path_count_at, "SceneResource.pathCnt"));
    let mut data = base.clone();
    data[alias_count_at..alias_count_at + 4].copy_from_slice(&1_000_000i32.to_le_bytes());
    assert_eq!(named(&data), (alias_count_at, "SceneResource.aliasCnt"));
}

#[test]
fn every_truncation_of_every_hand_built_map_is_an_error() {
    let mut inputs = vec![version_1(), ambiguous_v9()];
    inputs.extend((7..=22).map(every_event_box));
    inputs.extend((1..=9).map(old_event_boxes));
    for data in inputs {
        WdataView::from_bytes(&data).unwrap();
        for len in 0..data.len() {
            assert!(
                WdataView::from_bytes(&data[..len]).is_err(),
                "a {len}-byte prefix of a {}-byte map opened",
                data.len()
            );
        }
    }
}

#[test]
fn malformed_headers_give_precise_errors() {
    let mut data = version_1();
    data[2] = b'S';
    let e = WdataView::from_bytes(&data).unwrap_err();
    assert_eq!((e.offset(), e.what()), (0, "Header.Signature"));
    assert_eq!(gamebin::detect(&data), None);

    let mut data = version_1();
    data[32..36].copy_from_slice(&23i32.to_le_bytes());
    let e = WdataView::from_bytes(&data).unwrap_err();
    assert_eq!((e.offset(), e.what()), (32, "Header.Version"));
    assert_eq!(e.kind(), ErrorKind::UnsupportedVersion { found: 23 });

    // A model file shares the signature: its second string is no `.mmp`.
    let mut w = W::default();
    w.signature().i32(1).s("mesh\\sword.mdata").s("x").s("y");
    assert_eq!(gamebin::detect(&w.0), None);
}

#[test]
fn impossible_counts_and_offsets_give_precise_errors() {
    // AniBG count in version 1: right after the header.
    let base = version_1();
    let anibg_at = WdataView::from_bytes(&base).unwrap().sections().anibg;
    let mut data = base.clone();
    data[anibg_at..anibg_at + 4].copy_from_slice(&(-1i32).to_le_bytes());
    let e = WdataView::from_bytes(&data).unwrap_err();
    assert_eq!((e.offset() as usize, e.what()), (anibg_at, "AniBG.count"));
    assert!(e.to_string().contains("negative count"), "{e}");
    let mut data = base.clone();
    data[anibg_at..anibg_at + 4].copy_from_slice(&1_000_000i32.to_le_bytes());
    let e = WdataView::from_bytes(&data).unwrap_err();
    assert_eq!((e.offset() as usize, e.what()), (anibg_at, "AniBG.count"));
    assert!(matches!(e.kind(), ErrorKind::Truncated { needed, .. } if needed == 1_000_000 * 70));

    // An EventBox group offset outside the file.
    let base = every_event_box(22);
    let map = WdataView::from_bytes(&base).unwrap();
    let index_at = map.event_box_index_offset().unwrap();
    let mut data = base.clone();
    data[index_at + 6 * 8..index_at + 6 * 8 + 4]
        .copy_from_slice(&(base.len() as i32 + 1).to_le_bytes());
    let e = WdataView::from_bytes(&data).unwrap_err();
    assert_eq!(
        (e.offset() as usize, e.what()),
        (index_at + 48, "EventBoxIndex.offset")
    );

    // Two groups swapped offsets: each reads the other's records as its own type and fails.
    let mut data = base.clone();
    let npc = &base[index_at + 48..index_at + 52].to_vec();
    let etc = &base[index_at + 80..index_at + 84].to_vec();
    data[index_at + 48..index_at + 52].copy_from_slice(etc);
    data[index_at + 80..index_at + 84].copy_from_slice(npc);
    assert!(WdataView::from_bytes(&data).is_err());
}

#[test]
fn type_14_is_raw_bytes_when_bounded_and_an_error_when_last() {
    // A type-14 group of 1 record of 60 unknown bytes between the NpcBox group and the rest.
    let mut w = W::default();
    header(&mut w, 7, 9, 5, 3);
    w.i32(19);
    let index = w.pos();
    for _ in 0..19 {
        w.i32(0).i32(0);
    }
    let unused_at = w.pos() as i32;
    w.patch(index + 14 * 8, unused_at);
    w.patch(index + 14 * 8 + 4, 1);
    w.0.extend_from_slice(&[0xab; 60]);
    let npc_at = w.pos() as i32;
    w.patch(index + 6 * 8, npc_at);
    w.patch(index + 6 * 8 + 4, 1);
    w.obb("npc", 1.0).s("Guard").i32(1).i32(2);
    w.i32(0).i32(0).i32(0);
    paths_and_trigger_list(&mut w, 7);
    scenes_and_resources(&mut w, 7);
    let data = w.0;
    let map = WdataView::from_bytes(&data).unwrap();
    let g = map.event_box_group(EventBoxType::UnusedBox).unwrap();
    assert!(!g.is_known());
    assert_eq!(g.count, 1);
    assert_eq!(g.raw, Some(&[0xab; 60][..]));
    assert_eq!(g.boxes().count(), 0);
    assert_eq!(map.event_box_count(), 2);
    assert_eq!(map.event_boxes().count(), 1);
    // Laid out as another writer does (type 14 before type 6, offset 0 for the empty groups),
    // and kept so: the model packs back byte for byte.
    let model = gamebin::wdata::model::WdataModel::from_view(&map).unwrap();
    let layout = &model.event_boxes.as_ref().unwrap().layout;
    assert_eq!(layout.zero_offsets.len(), 17);
    assert!(model.to_bytes().unwrap() == data);

    // Swap the groups: type 14 is now last and nothing bounds it.
    let mut w = W::default();
    header(&mut w, 7, 9, 5, 3);
    w.i32(19);
    let index = w.pos();
    for _ in 0..19 {
        w.i32(0).i32(0);
    }
    let npc_at = w.pos() as i32;
    w.patch(index + 6 * 8, npc_at);
    w.patch(index + 6 * 8 + 4, 1);
    w.obb("npc", 1.0).s("Guard").i32(1).i32(2);
    let unused_at = w.pos() as i32;
    w.patch(index + 14 * 8, unused_at);
    w.patch(index + 14 * 8 + 4, 1);
    w.0.extend_from_slice(&[0xab; 60]);
    w.i32(0).i32(0).i32(0);
    paths_and_trigger_list(&mut w, 7);
    scenes_and_resources(&mut w, 7);
    let e = WdataView::from_bytes(&w.0).unwrap_err();
    assert_eq!(
        (e.offset() as usize, e.what()),
        (index + 14 * 8, "EventBoxIndex.entries")
    );
    assert!(e.to_string().contains("unknown EventBox type"), "{e}");
}

#[test]
fn strings_are_borrowed_at_odd_addresses() {
    // Every field of the format is 2 or 4 bytes long, so in a file strings start at even offsets;
    // a buffer that starts at an odd address puts them all at odd addresses.
    let data = every_event_box(22);
    let mut buffer = vec![0u8];
    buffer.extend_from_slice(&data);
    let shifted = &buffer[1..];
    let map = WdataView::from_bytes(shifted).unwrap();
    let mut names = 0;
    for b in map.event_boxes().map(Result::unwrap) {
        let n = b.obb().name;
        let start = n.as_bytes().as_ptr() as usize - shifted.as_ptr() as usize;
        assert_eq!(n.as_bytes().as_ptr() as usize % 2, 1);
        assert_eq!(&shifted[start..start + n.as_bytes().len()], n.as_bytes());
        assert_eq!(n.to_string(), format!("box{}", b.event_box_type() as u8));
        names += 1;
    }
    assert_eq!(names, 18);
}

/// What each fixture holds, written down from the writer's fixture plans (`v07-all-event-boxes`:
/// main version 7, EventBox version 1, every type but 14 with two records of the first listed…):
/// name, main version, EventBox version, the EventBox types with records (the first has two),
/// AniBG/ItemBox/Gimmick counts, the trigger layout and its entries, scenes, scene resources.
type Expected = (
    &'static str,
    i32,
    Option<i32>,
    &'static [u8],
    usize,
    TriggerLayout,
    usize,
    usize,
    usize,
);

const ALL_TYPES: &[u8] = &[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 15, 16, 17, 18];
const LIST: TriggerLayout = TriggerLayout::TriggerList;
const SCRIPTS: TriggerLayout = TriggerLayout::ScriptPaths;

#[rustfmt::skip]
const FIXTURES: &[Expected] = &[
    ("v01-minimal.wdata", 1, None, &[], 1, LIST, 1, 1, 1),
    ("v02-empty-sections.wdata", 2, None, &[], 0, LIST, 0, 0, 0),
    ("v06-sections.wdata", 6, None, &[], 2, LIST, 2, 2, 2),
    ("v07-all-event-boxes.wdata", 7, Some(1), ALL_TYPES, 1, LIST, 1, 1, 1),
    ("v08-ev2.wdata", 8, Some(2), &[13, 0, 17], 1, LIST, 1, 1, 1),
    ("v09-ev3-peer-triggers.wdata", 9, Some(3), &[0, 3, 13], 1, LIST, 1, 1, 1),
    ("v10-ev4-path-times.wdata", 10, Some(4), &[0], 1, LIST, 1, 1, 1),
    ("v11-ev4-cues.wdata", 11, Some(4), &[17], 1, LIST, 1, 1, 1),
    // Script lists: one event script, no condition script, two action scripts.
    ("v12-ev4-sounds.wdata", 12, Some(4), &[0], 1, SCRIPTS, 3, 1, 2),
    ("v13-ev4-script-lists.wdata", 13, Some(4), &[0, 5], 1, SCRIPTS, 3, 1, 1),
    ("v14-ev5.wdata", 14, Some(5), &[0], 1, LIST, 1, 1, 1),
    ("v15-ev5-scene-timing.wdata", 15, Some(5), &[5, 0], 1, SCRIPTS, 3, 2, 1),
    ("v16-ev6-sound-fades.wdata", 16, Some(6), &[0, 17], 1, LIST, 1, 1, 1),
    ("v17-ev7-ambients.wdata", 17, Some(7), &[0, 1, 2, 13], 1, SCRIPTS, 3, 1, 1),
    ("v18-ev8-script-counts.wdata", 18, Some(8), &[13], 1, LIST, 1, 1, 1),
    ("v19-ev8-scene-camera.wdata", 19, Some(8), &[0, 13], 1, LIST, 1, 1, 1),
    ("v20-ev9-scene-pass2.wdata", 20, Some(9), &[3, 0], 1, LIST, 1, 2, 1),
    ("v21-scene-names.wdata", 21, Some(9), &[0, 6, 7], 1, SCRIPTS, 3, 1, 1),
    ("v22-all-event-boxes.wdata", 22, Some(9), ALL_TYPES, 1, SCRIPTS, 3, 2, 2),
    ("v22-peer-triggers.wdata", 22, Some(9), &[0, 18], 1, LIST, 2, 1, 1),
];

fn fixtures() -> Vec<(&'static str, Vec<u8>)> {
    gamebin::synth::wdata::fixtures().unwrap()
}

#[test]
fn every_fixture_reads_as_planned() {
    let fixtures = fixtures();
    assert_eq!(fixtures.len(), FIXTURES.len());
    for (name, data) in &fixtures {
        let &(_, version, ev, types, objects, layout, triggers, scenes, resources) = FIXTURES
            .iter()
            .find(|f| f.0 == *name)
            .unwrap_or_else(|| panic!("no expectation for {name}"));
        assert_eq!(
            gamebin::detect(data),
            Some(Format::RustyHeartsWdata),
            "{name}"
        );
        let map = WdataView::from_bytes(data).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(map.version(), version, "{name}");
        assert_eq!(map.header().event_box_version, ev, "{name}");
        assert!(map.header().signature.eq_str("stairwaygames."));
        assert_eq!(map.header().signature.len_units(), 15);
        if version == 2 {
            assert!(map.header().model_path.is_empty());
        } else {
            assert_eq!(
                map.header().model_path.to_string(),
                format!("map\\v{version:02}.mmp")
            );
        }
        assert_eq!(map.moc_path().to_string(), "cut\\intro.moc", "{name}");
        // The first listed type has two records, the others one.
        let expected_boxes = if types.is_empty() { 0 } else { types.len() + 1 };
        assert_eq!(map.event_box_count(), expected_boxes, "{name}");
        assert_eq!(map.event_boxes().count(), expected_boxes, "{name}");
        for (i, &ty) in types.iter().enumerate() {
            let group = map
                .event_box_group(EventBoxType::from_index(u32::from(ty)).unwrap())
                .unwrap();
            assert_eq!(
                group.count as usize,
                if i == 0 { 2 } else { 1 },
                "{name} type {ty}"
            );
            for (j, b) in group.boxes().map(Result::unwrap).enumerate() {
                // Names are "<TypeName><type × 10 + j>", positions start at that seed.
                let k = i32::from(ty) * 10 + j as i32;
                assert_eq!(
                    b.obb().name.to_string(),
                    format!("{}{k}", b.event_box_type().name())
                );
                assert_eq!(b.obb().position, [k as f32, k as f32 + 1.0, k as f32 + 2.0]);
                assert_eq!(b.obb().rotation, [0.0, 0.25, 0.5, 0.75]);
            }
        }
        if version >= 7 {
            assert_eq!(map.event_box_index().len(), 19, "{name}");
        }
        assert_eq!(map.anibg().len(), objects, "{name}");
        assert_eq!(map.item_boxes().len(), objects, "{name}");
        assert_eq!(map.gimmicks().len(), objects, "{name}");
        assert_eq!(map.trigger_layout(), layout, "{name}");
        assert!(!map.trigger_layout_ambiguous(), "{name}");
        assert_eq!(map.triggers().entry_count(), triggers, "{name}");
        assert!(map.triggers().head.main_script.eq_str("main.lua"));
        assert_eq!(map.scenes().len(), scenes, "{name}");
        assert_eq!(map.scenes().iter().count(), scenes, "{name}");
        assert_eq!(map.scene_resources().len(), resources, "{name}");
        assert_eq!(map.scene_resources().iter().count(), resources, "{name}");
    }
}

#[test]
fn every_fixture_reads_back_to_the_model_it_was_written_from() {
    use gamebin::synth::wdata::fixture_maps;
    use gamebin::wdata::model::WdataModel;
    for (name, model) in fixture_maps() {
        let data = model.to_bytes().unwrap();
        let map = WdataView::from_bytes(&data).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(
            WdataModel::from_view(&map).unwrap() == model,
            "{name}: the view differs from its model"
        );
    }
}

#[test]
fn every_fixture_round_trips_byte_for_byte() {
    use gamebin::wdata::model::WdataModel;
    for (name, data) in fixtures() {
        let map = WdataView::from_bytes(&data).unwrap();
        let model = WdataModel::from_view(&map).unwrap();
        assert!(
            model.to_bytes().unwrap() == data,
            "{name} does not round-trip"
        );
    }
    // The hand-assembled maps too (their EventBox groups follow the writer's layout).
    for data in [version_1(), every_event_box(22), every_event_box(9)] {
        let map = WdataView::from_bytes(&data).unwrap();
        let model = WdataModel::from_view(&map).unwrap();
        assert!(model.to_bytes().unwrap() == data);
    }
}

#[test]
fn every_truncation_of_every_fixture_is_an_error() {
    for (name, data) in fixtures() {
        for len in 0..data.len() {
            assert!(
                WdataView::from_bytes(&data[..len]).is_err(),
                "{name}: the {len}-byte prefix opened"
            );
        }
    }
}

/// The `dump --json` path (view → owned model → JSON) on damaged maps: whatever the reader opens
/// converts and serializes, without a panic.
#[cfg(feature = "serde")]
#[test]
fn every_map_that_opens_after_a_byte_flip_dumps_as_json() {
    use gamebin::wdata::model::WdataModel;
    let mut opened = 0;
    for (name, data) in fixtures() {
        let mut damaged = data.clone();
        // Every fifth byte keeps the test a few seconds long in debug builds; the fuzz and
        // corruption tests cover the reader itself byte by byte.
        for at in (0..data.len()).step_by(5) {
            damaged[at] ^= 0x80;
            if let Ok(view) = WdataView::from_bytes(&damaged) {
                let model = WdataModel::from_view(&view)
                    .unwrap_or_else(|e| panic!("{name}, byte {at} flipped: {e}"));
                assert!(
                    serde_json::to_writer(std::io::sink(), &model).is_ok(),
                    "{name}, byte {at}"
                );
                opened += 1;
            }
            damaged[at] = data[at];
        }
    }
    // Most flips land in floats, names and ids, which the reader cannot tell from real values.
    assert!(opened > 1000, "only {opened} damaged maps opened");
}

//! Drives every Rusty Hearts `.wdata` accessor.

use gamebin::Result;
use gamebin::wdata::{CameraTargetName, EventBox, NameList, PvsEventBoxes, WStr, WdataView};

/// Every record of a view that opened was checked at open: iterating it must not fail.
fn read<T>(item: Result<T>) -> T {
    match item {
        Ok(item) => item,
        Err(e) => panic!("a record of a .wdata view that opened fails to read: {e}"),
    }
}

/// Touches a string the ways a caller may: its units, chars, comparisons, path checks and the
/// formatter (into a counting sink, no allocation).
fn string(s: WStr<'_>) -> usize {
    use core::fmt::Write;
    struct Count(usize);
    impl Write for Count {
        fn write_str(&mut self, s: &str) -> core::fmt::Result {
            self.0 += s.len();
            Ok(())
        }
    }
    let mut sink = Count(0);
    let _ = write!(sink, "{s}");
    let _ = (s.is_no_path(), s.as_path(), s.eq_str("x"), s.len_units());
    let _ = s.ends_with_ignore_ascii_case(".mmp");
    sink.0 + s.chars().filter(|c| c.is_err()).count() + s.units().len()
}

fn names(list: NameList<'_>) -> usize {
    let _ = (list.len(), list.is_empty(), list.is_keyed(), list.offset());
    list.iter()
        .map(read)
        .map(|n| string(n.name) + n.category.map_or(0, |c| c as usize & 1))
        .sum::<usize>()
        + 1
}

fn event_box(b: &EventBox<'_>) -> usize {
    let _ = b.event_box_type().name();
    let mut n = string(b.obb().name);
    match b {
        EventBox::Camera(c) => {
            let _ = c.category;
            assert_eq!(c.camera_infos().len(), 4);
            let _ = c.camera_info(3).map(read);
            for info in c.camera_infos().map(read) {
                n += info.camera_target.map_or(0, string) + string(info.camera_name);
                let _ = (
                    info.camera_position,
                    info.camera_rotation,
                    info.fov,
                    info.frustum,
                    info.build_pvs,
                );
                if let Some(l) = info.lists {
                    n += l.pvs_bg.len() + l.build_positions.len();
                    n += match l.pvs_event_boxes {
                        PvsEventBoxes::Ids(ids) => ids.len(),
                        PvsEventBoxes::Entries(e) => names(e),
                    };
                    n += l.render().iter().map(|r| names(*r)).sum::<usize>();
                }
            }
        }
        EventBox::Respawn(r) => n += string(r.enemy_name) + string(r.respawn_motion),
        EventBox::Trigger(t) => n += string(t.action_motion) + string(t.motion),
        EventBox::EventHit(e) => {
            n += string(e.anibg_name) + string(e.damage_motion);
            n += e.hit_times.len() + e.temp_hit_times.len();
        }
        EventBox::Npc(x) => n += string(x.npc_name),
        EventBox::Portal(p) => n += string(p.warp_map_name),
        EventBox::InArea(a) => n += string(a.warp_map_name),
        EventBox::CameraTarget(c) => {
            if let CameraTargetName::Name(s) = c.target {
                n += string(s);
            }
        }
        EventBox::Waypoint(w) => n += w.links.len() + w.links.iter().count(),
        _ => {}
    }
    n
}

/// Opens `data` as a `.wdata` map and drives every accessor.
pub fn drive_wdata(data: &[u8]) -> usize {
    let mut scratch = gamebin::Scratch::new();
    let Some(view) = super::open::<WdataView<'_>>(data, &mut scratch) else {
        return 0;
    };
    let mut seen = 1;
    let h = view.header();
    seen += string(h.signature) + string(h.model_path) + string(h.nav_mesh_path);
    seen += h.nav_height_path.map_or(0, string) + string(h.event_box_path);
    let _ = (
        h.model_path_is_a_map(),
        view.version(),
        view.versions(),
        view.sections(),
    );
    let _ = (
        view.as_bytes().len(),
        view.event_box_index_offset(),
        view.event_box_count(),
    );
    let _ = view.event_box_index().len();
    for g in view.event_box_groups() {
        seen += 1;
        let _ = (
            g.event_box_type(),
            g.is_known(),
            g.offset,
            g.count,
            g.raw.map(<[u8]>::len),
        );
        assert!(g.boxes().len() <= g.count as usize);
        for b in g.boxes().map(read) {
            seen += 1 + event_box(&b);
        }
    }
    seen += view.event_boxes().map(read).count();
    for a in view.anibg().into_iter().map(read) {
        seen += string(a.obb.name) + string(a.model) + string(a.motion);
        let _ = (a.looped, a.shadow, a.move_weight, a.pvs_radius);
    }
    for i in view.item_boxes().into_iter().map(read) {
        seen += string(i.obb.name) + string(i.model) + string(i.motion) + string(i.table_path);
    }
    for g in view.gimmicks().into_iter().map(read) {
        seen += string(g.obb.name) + string(g.model) + string(g.motion);
    }
    seen += view.obstacle_path().map_or(0, string) + string(view.moc_path());
    seen += string(view.anibg_path());
    let t = view.triggers();
    let _ = (
        view.trigger_layout().name(),
        view.trigger_layout_ambiguous(),
        t.entry_count(),
    );
    seen += string(t.head.script_dir) + string(t.head.main_script);
    for tr in t.triggers().map(read) {
        seen += string(tr.name) + string(tr.comment);
        seen += names(tr.events) + names(tr.conditions) + names(tr.actions);
    }
    if let Some(s) = t.script_paths() {
        seen += names(s.events) + names(s.conditions) + names(s.actions);
    }
    let scenes = view.scenes();
    let _ = (scenes.len(), scenes.details_offset());
    for s in scenes.iter().map(read) {
        seen += string(s.head.file);
        let _ = (s.head.timing, s.head.camera);
        if let Some(d) = s.details {
            seen += d.name.map_or(0, string) + d.scene_ids.len() + names(d.event_entries);
            seen += d.render().iter().map(|r| names(*r)).sum::<usize>();
        }
    }
    for r in view.scene_resources().into_iter().map(read) {
        seen += string(r.key) + names(r.aliases);
        let _ = r.delay;
        for p in r.paths.into_iter().map(read) {
            seen += string(p.model) + string(p.motion) + string(p.name) + string(p.event_name);
            let _ = (p.time_hold, p.blend_time);
        }
        for c in r.cues.into_iter().flatten().map(read) {
            seen += string(c.name);
        }
        if let Some(s) = r.sound {
            for sound in s.sounds.into_iter().map(read) {
                seen += string(sound.path);
                let _ = sound.fades;
            }
            let _ = (s.unk1, s.unk2, s.unk3, s.unk4, s.unknown_ints);
            for x in s.unknown_strings.into_iter().flatten() {
                seen += string(x);
            }
        }
        for a in r.ambients.into_iter().flatten().map(read) {
            seen += string(a.path);
        }
    }
    seen
}

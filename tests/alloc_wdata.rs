//! Zero-copy means zero allocations: opening a `.wdata` map (the one checking pass over the whole
//! file) and iterating every section with every record typed — EventBoxes of every type with the
//! CameraBox lists, AniBG, ItemBox, Gimmick, triggers, both scene passes, scene resources with
//! their paths, cues, sounds and ambients — allocate nothing. Strings are compared and formatted
//! without being decoded into a `String`.

use gamebin::wdata::{EventBox, NameList, PvsEventBoxes, WStr, WdataView};

mod counting;

use counting::allocations;

#[global_allocator]
static ALLOCATOR: counting::Counting = counting::Counting;

#[test]
fn the_counter_counts() {
    let (n, v) = allocations(|| vec![1u8; 10]);
    assert_eq!(n, 1);
    drop(v);
}

fn s(w: WStr<'_>) -> usize {
    w.units().map(usize::from).sum::<usize>() + usize::from(w.eq_str("Guard")) + w.chars().count()
}

fn l(list: NameList<'_>) -> usize {
    list.iter()
        .map(Result::unwrap)
        .map(|n| s(n.name) + n.category.unwrap_or(0) as usize)
        .sum()
}

/// Opens the map and reads every field of every record; returns a checksum.
fn walk(data: &[u8]) -> usize {
    let map = WdataView::from_bytes(data).unwrap();
    let h = map.header();
    let mut sum = s(h.signature) + s(h.model_path) + h.nav_height_path.map_or(0, s);
    for b in map.event_boxes().map(Result::unwrap) {
        sum += s(b.obb().name) + b.obb().position[0] as usize;
        match b {
            EventBox::Camera(c) => {
                for info in c.camera_infos().map(Result::unwrap) {
                    sum += info.camera_target.map_or(0, s) + s(info.camera_name);
                    if let Some(lists) = info.lists {
                        sum += lists.pvs_bg.len() + lists.build_positions.len();
                        sum += match lists.pvs_event_boxes {
                            PvsEventBoxes::Ids(ids) => ids.len(),
                            PvsEventBoxes::Entries(e) => l(e),
                        };
                        sum += lists.render().into_iter().map(l).sum::<usize>();
                    }
                }
            }
            EventBox::Npc(n) => sum += s(n.npc_name) + n.id as usize,
            EventBox::EventHit(e) => sum += e.hit_times.len() + s(e.damage_motion),
            EventBox::Waypoint(w) => sum += w.links.len(),
            _ => {}
        }
    }
    for g in map.event_box_groups() {
        sum += g.raw.map_or(0, <[u8]>::len);
    }
    for a in map.anibg().into_iter().map(Result::unwrap) {
        sum += s(a.model) + usize::from(a.looped.get());
    }
    for i in map.item_boxes().into_iter().map(Result::unwrap) {
        sum += s(i.table_path);
    }
    for g in map.gimmicks().into_iter().map(Result::unwrap) {
        sum += s(g.motion) + g.template_id as usize;
    }
    let t = map.triggers();
    for tr in t.triggers().map(Result::unwrap) {
        sum += s(tr.name) + l(tr.events) + l(tr.conditions) + l(tr.actions);
    }
    if let Some(p) = t.script_paths() {
        sum += l(p.events) + l(p.conditions) + l(p.actions);
    }
    for scene in map.scenes().iter().map(Result::unwrap) {
        sum += s(scene.head.file);
        if let Some(d) = scene.details {
            sum += d.name.map_or(0, s) + d.scene_ids.len() + l(d.event_entries);
            sum += d.render().into_iter().map(l).sum::<usize>();
        }
    }
    for r in map.scene_resources().into_iter().map(Result::unwrap) {
        sum += s(r.key) + l(r.aliases);
        for p in r.paths.into_iter().map(Result::unwrap) {
            sum += s(p.model) + s(p.event_name) + p.time_hold.map_or(0, |t| t.time) as usize;
        }
        for c in r.cues.into_iter().flatten().map(Result::unwrap) {
            sum += s(c.name);
        }
        if let Some(block) = r.sound {
            for sound in block.sounds.into_iter().map(Result::unwrap) {
                sum += s(sound.path);
            }
            sum += block.unknown_strings.map_or(0, |[a, b]| s(a) + s(b));
        }
        for a in r.ambients.into_iter().flatten().map(Result::unwrap) {
            sum += s(a.path);
        }
    }
    sum
}

#[test]
fn opening_and_walking_every_record_allocates_nothing() {
    let mut inputs: Vec<Vec<u8>> = gamebin::synth::wdata::fixtures()
        .unwrap()
        .into_iter()
        .map(|(_, bytes)| bytes)
        .collect();
    inputs.push(
        gamebin::synth::wdata_large::large_map(3)
            .to_bytes()
            .unwrap(),
    );
    for data in inputs {
        let (n, sum) = allocations(|| walk(&data));
        assert!(sum > 0);
        assert_eq!(n, 0, "{n} allocations walking a {}-byte map", data.len());
    }
}

//! A large deterministic map for the reader's benchmark: every EventBox type many times, long
//! scene resources.

use super::wdata::{PLANS, build, push_box};
use crate::wdata::model::{EventBoxes, SceneData, SceneResource, WdataModel};

/// A version-22 map (EventBox version 9) with `boxes_per_type` records of every EventBox type
/// (0..=13, 15..=18), as many AniBG, ItemBox and Gimmick records, and the fixture generator's
/// scenes and scene resources repeated `boxes_per_type / 10 + 1` times. Deterministic: the same
/// argument gives the same map. `large_map(200)` writes about 0.6 MB, `large_map(2_000)` about
/// 9 MB.
pub fn large_map(boxes_per_type: usize) -> WdataModel {
    let plan = PLANS
        .iter()
        .find(|(name, _)| *name == "v22-all-event-boxes.wdata")
        .map(|(_, p)| *p);
    let Some(mut plan) = plan else {
        return WdataModel::default();
    };
    let repeats = boxes_per_type / 10 + 1;
    plan.anibg_count = boxes_per_type;
    plan.item_box_count = boxes_per_type;
    plan.gimmick_count = boxes_per_type;
    plan.scenes = repeats;
    plan.scene_resources = repeats;
    plan.boxes = &[];
    let mut map = build(&plan);
    let mut boxes = EventBoxes::default();
    for ty in 0..19u32 {
        for j in 0..boxes_per_type {
            let k = i32::try_from(j).unwrap_or(i32::MAX);
            push_box(&mut boxes, ty, k, plan.ev, plan.version);
        }
    }
    map.event_boxes = Some(boxes);
    // Long scene resources: every resource gets the first one's paths, cues and sounds many
    // times over (a blend time after every path but the last).
    let template = map.scene_resources.first().cloned();
    if let Some(template) = template {
        let path_count = boxes_per_type / 20 + 2;
        for r in &mut map.scene_resources {
            *r = SceneResource {
                key: r.key.clone(),
                ..template.clone()
            };
            r.paths = (0..path_count)
                .map(|i| SceneData {
                    blend_time: (i + 1 < path_count).then_some(0.25),
                    ..template.paths.first().cloned().unwrap_or_default()
                })
                .collect();
            if let Some(cues) = &mut r.cues {
                *cues = cues.iter().cycle().take(path_count).cloned().collect();
            }
            if let Some(sound) = &mut r.sound {
                sound.sounds = sound
                    .sounds
                    .iter()
                    .cycle()
                    .take(path_count)
                    .cloned()
                    .collect();
            }
        }
    }
    map
}

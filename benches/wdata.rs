//! Rusty Hearts `.wdata` benchmarks on a large generated map (the writer's `large_map(2_000)`:
//! 2,000 records of every EventBox type but 14, 2,000 AniBG, ItemBox and Gimmick records, 201
//! scenes and 201 scene resources with 102 paths, cues and sounds each; 8.86 MB), written once
//! before anything is
//! timed:
//!
//! - `open`: `WdataView::from_bytes`, the one checking pass over the whole file;
//! - `open + typed walk`: open, then every record of every section iterated and typed, every
//!   string's units read;
//! - `plain scan`: a sum over the same bytes as `u16`s, the floor any reader of the file pays.
//!
//! Target: the typed walk at >= 500 MB/s.
//!
//! ```text
//! cargo bench --bench wdata
//! ```

use std::hint::black_box;

use criterion::{Criterion, Throughput};
use gamebin::Result;
use gamebin::wdata::{EventBox, NameList, PvsEventBoxes, WStr, WdataView};

fn s(w: WStr<'_>) -> u64 {
    w.units().fold(0u64, |a, u| a.wrapping_add(u64::from(u)))
}

fn l(list: NameList<'_>) -> Result<u64> {
    list.iter().try_fold(0u64, |a, n| {
        let n = n?;
        Ok(a.wrapping_add(s(n.name))
            .wrapping_add(u64::from(n.category.unwrap_or(0))))
    })
}

/// Every record of every section, typed; every string's units summed.
fn walk(data: &[u8]) -> Result<u64> {
    let map = WdataView::from_bytes(data)?;
    let mut sum = s(map.header().model_path);
    for b in map.event_boxes() {
        let b = b?;
        sum = sum
            .wrapping_add(s(b.obb().name))
            .wrapping_add(b.obb().position[0] as u64);
        match b {
            EventBox::Camera(c) => {
                for info in c.camera_infos() {
                    let info = info?;
                    sum = sum.wrapping_add(info.camera_target.map_or(0, s) + s(info.camera_name));
                    if let Some(lists) = info.lists {
                        sum = sum.wrapping_add(lists.pvs_bg.len() as u64);
                        sum = sum.wrapping_add(match lists.pvs_event_boxes {
                            PvsEventBoxes::Ids(ids) => ids.len() as u64,
                            PvsEventBoxes::Entries(e) => l(e)?,
                        });
                        for list in lists.render() {
                            sum = sum.wrapping_add(l(list)?);
                        }
                    }
                }
            }
            EventBox::Respawn(r) => sum = sum.wrapping_add(s(r.enemy_name) + s(r.respawn_motion)),
            EventBox::Trigger(t) => sum = sum.wrapping_add(s(t.action_motion) + s(t.motion)),
            EventBox::EventHit(e) => {
                sum = sum.wrapping_add(s(e.anibg_name) + e.hit_times.len() as u64)
            }
            EventBox::Npc(n) => sum = sum.wrapping_add(s(n.npc_name)),
            EventBox::Portal(p) => sum = sum.wrapping_add(s(p.warp_map_name)),
            EventBox::InArea(a) => sum = sum.wrapping_add(s(a.warp_map_name)),
            EventBox::Waypoint(w) => sum = sum.wrapping_add(w.links.len() as u64),
            _ => {}
        }
    }
    for a in map.anibg() {
        let a = a?;
        sum = sum.wrapping_add(s(a.obb.name) + s(a.model) + s(a.motion));
    }
    for i in map.item_boxes() {
        let i = i?;
        sum = sum.wrapping_add(s(i.obb.name) + s(i.model) + s(i.table_path));
    }
    for g in map.gimmicks() {
        let g = g?;
        sum = sum.wrapping_add(s(g.obb.name) + s(g.model) + g.template_id as u64);
    }
    let t = map.triggers();
    for tr in t.triggers() {
        let tr = tr?;
        sum = sum.wrapping_add(s(tr.name) + l(tr.events)? + l(tr.conditions)? + l(tr.actions)?);
    }
    if let Some(p) = t.script_paths() {
        sum = sum.wrapping_add(l(p.events)? + l(p.conditions)? + l(p.actions)?);
    }
    for scene in map.scenes().iter() {
        let scene = scene?;
        sum = sum.wrapping_add(s(scene.head.file));
        if let Some(d) = scene.details {
            sum = sum.wrapping_add(l(d.event_entries)? + d.scene_ids.len() as u64);
            for list in d.render() {
                sum = sum.wrapping_add(l(list)?);
            }
        }
    }
    for r in map.scene_resources() {
        let r = r?;
        sum = sum.wrapping_add(s(r.key) + l(r.aliases)?);
        for p in r.paths {
            let p = p?;
            sum = sum.wrapping_add(s(p.model) + s(p.motion) + s(p.name) + s(p.event_name));
        }
        for c in r.cues.into_iter().flatten() {
            let c = c?;
            sum = sum.wrapping_add(s(c.name));
        }
        if let Some(block) = r.sound {
            for sound in block.sounds {
                let sound = sound?;
                sum = sum.wrapping_add(s(sound.path));
            }
        }
        for a in r.ambients.into_iter().flatten() {
            sum = sum.wrapping_add(s(a?.path));
        }
    }
    Ok(sum)
}

/// The same bytes, summed as little-endian `u16`s.
fn scan(data: &[u8]) -> u64 {
    data.chunks_exact(2).fold(0u64, |a, c| {
        a.wrapping_add(u64::from(u16::from_le_bytes([c[0], c[1]])))
    })
}

fn main() {
    let map = gamebin::synth::wdata_large::large_map(2_000);
    let data = map.to_bytes().expect("the large map writes");
    drop(map);
    assert!(
        walk(&data).is_ok_and(|sum| sum > 0),
        "the large map opens and walks"
    );
    eprintln!("large map: {} bytes", data.len());

    let mut c = Criterion::default().configure_from_args();
    let mut group = c.benchmark_group("wdata");
    group.throughput(Throughput::Bytes(data.len() as u64));
    group.bench_function("open", |b| {
        b.iter(|| WdataView::from_bytes(black_box(&data)).map(|m| m.event_box_count()))
    });
    group.bench_function("open + typed walk", |b| b.iter(|| walk(black_box(&data))));
    group.bench_function("plain scan", |b| b.iter(|| scan(black_box(&data))));
    group.finish();
    c.final_summary();
}

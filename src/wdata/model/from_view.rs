//! Reader → owned model: [`WdataModel::from_view`] copies everything a [`WdataView`] read into a
//! [`WdataModel`], so that `write(from_view(view))` gives the file's bytes back (tested on every
//! fixture). EventBox groups of types the format does not know (14, and any index entry beyond
//! 18) are kept as their count and raw bytes, and the groups' layout (their order in the file,
//! the empty ones stored with offset 0) as an [`EventBoxLayout`], so that a map another writer
//! laid out otherwise packs back byte for byte too.

use crate::error::Result;
use crate::wdata::{self as read, EventBox, EventBoxType, WdataView};

use super::*;

pub(crate) fn ws(s: read::WStr<'_>) -> WString {
    WString {
        units: s.units().collect(),
    }
}

pub(crate) fn names(list: read::NameList<'_>) -> Result<Vec<WString>> {
    list.iter().map(|n| Ok(ws(n?.name))).collect()
}

pub(crate) fn obb(o: &read::Obb<'_>) -> Obb {
    Obb {
        name: ws(o.name),
        position: o.position,
        scale: o.scale,
        rotation: o.rotation,
        extents: o.extents,
    }
}

pub(crate) fn b32(b: read::Bool32) -> Bool32 {
    Bool32(b.raw())
}

/// Every record of a run, copied into the model.
pub(crate) fn copied<'a, R: read::Record<'a, Context = read::Versions>, M>(
    run: read::Run<'a, R>,
    from_read: impl Fn(&R) -> Result<M>,
) -> Result<Vec<M>> {
    run.iter().map(|r| from_read(&r?)).collect()
}

pub(crate) fn render_entries(list: read::NameList<'_>) -> Result<Vec<RenderEntry>> {
    list.iter()
        .map(|n| {
            let n = n?;
            Ok(RenderEntry {
                id: n.category,
                name: ws(n.name),
            })
        })
        .collect()
}

pub(crate) fn pvs_event_boxes(pvs: read::PvsEventBoxes<'_>) -> Result<PvsEventBoxes> {
    Ok(match pvs {
        read::PvsEventBoxes::Ids(ids) => PvsEventBoxes::Ids(ids.iter().map(|v| v.get()).collect()),
        read::PvsEventBoxes::Entries(list) => PvsEventBoxes::Entries(
            list.iter()
                .map(|n| {
                    let n = n?;
                    Ok(PvsEventEntry {
                        category: n.category.unwrap_or(0),
                        name: ws(n.name),
                    })
                })
                .collect::<Result<_>>()?,
        ),
    })
}

/// A CameraBox's four camera infos, copied.
pub(crate) fn camera_infos(run: read::Run<'_, read::CameraInfo<'_>>) -> Result<[CameraInfo; 4]> {
    let mut infos = [(); 4].map(|_| CameraInfo::default());
    for (slot, info) in infos.iter_mut().zip(run) {
        *slot = CameraInfo::from_read(&info?)?;
    }
    Ok(infos)
}

pub(crate) fn scene_elements(list: read::NameList<'_>) -> Result<Vec<SceneElement>> {
    list.iter()
        .map(|n| {
            let n = n?;
            Ok(SceneElement {
                category: n.category,
                key: ws(n.name),
            })
        })
        .collect()
}

pub(crate) fn event_entries(list: read::NameList<'_>) -> Result<Vec<EventEntry>> {
    list.iter()
        .map(|n| {
            let n = n?;
            Ok(EventEntry {
                category: n.category.unwrap_or(0),
                key: ws(n.name),
            })
        })
        .collect()
}

/// The layout of the EventBox groups as the file stores it: the entries ordered by where their
/// groups lie, and the empty groups stored with offset 0.
///
/// Groups are sorted by offset; at one offset the empty groups come before the non-empty one
/// (which has bytes, so the position after it is another), in type order. An empty group stored
/// with offset 0 (never a position: the index lies before every group) takes the place of the
/// next entry in type order that stores a position, so a file laid out in type order gives the
/// default layout.
fn layout(view: &WdataView<'_>) -> EventBoxLayout {
    let index = view.event_box_index();
    let zero = |e: &read::raw::RawEventBoxIndexEntry| e.count.get() == 0 && e.offset.get() == 0;
    // Each entry's place in the file: (offset, non-empty, type).
    let mut places: Vec<(i64, bool, u32)> = Vec::with_capacity(index.len());
    let mut next = i64::try_from(view.sections().anibg).unwrap_or(i64::MAX);
    // At most 256 entries (the reader's limit).
    for (ty, e) in index.iter().enumerate().rev() {
        let ty = ty as u32;
        if !zero(e) {
            next = i64::from(e.offset.get());
        }
        places.push((next, e.count.get() != 0, ty));
    }
    places.sort_unstable();
    let order: Vec<u32> = places.iter().map(|&(_, _, ty)| ty).collect();
    let in_type_order = (0u32..).zip(&order).all(|(ty, &o)| ty == o);
    EventBoxLayout {
        order: if in_type_order { Vec::new() } else { order },
        zero_offsets: (0u32..)
            .zip(index)
            .filter(|(_, e)| zero(e))
            .map(|(ty, _)| ty)
            .collect(),
    }
}

fn event_boxes(view: &WdataView<'_>) -> Result<EventBoxes> {
    let mut out = EventBoxes {
        type_count: u32::try_from(view.event_box_index().len()).unwrap_or(u32::MAX),
        layout: layout(view),
        ..EventBoxes::default()
    };
    for group in view.event_box_groups() {
        if group.event_box_type() == Some(EventBoxType::UnusedBox) {
            out.unused = RawGroup {
                count: i32::try_from(group.count).unwrap_or(i32::MAX),
                bytes: group.raw.unwrap_or_default().to_vec(),
            };
            continue;
        }
        if group.type_index >= TYPE_COUNT {
            out.beyond.push(RawGroup {
                count: i32::try_from(group.count).unwrap_or(i32::MAX),
                bytes: group.raw.unwrap_or_default().to_vec(),
            });
            continue;
        }
        for b in group.boxes() {
            match b? {
                EventBox::Camera(c) => out.camera.push(CameraBox::from_read(&c)?),
                EventBox::Respawn(r) => out.respawn.push(RespawnBox::from_read(&r)?),
                EventBox::StartPoint(r) => out.start_point.push(StartPointBox::from_read(&r)?),
                EventBox::Trigger(r) => out.trigger.push(TriggerBox::from_read(&r)?),
                EventBox::Skid(r) => out.skid.push(SkidBox::from_read(&r)?),
                EventBox::EventHit(r) => out.event_hit.push(EventHitBox::from_read(&r)?),
                EventBox::Npc(r) => out.npc.push(NpcBox::from_read(&r)?),
                EventBox::Portal(r) => out.portal.push(PortalBox::from_read(&r)?),
                EventBox::SelectMapPortal(r) => out
                    .select_map_portal
                    .push(SelectMapPortalBox::from_read(&r)?),
                EventBox::InArea(r) => out.in_area.push(InAreaBox::from_read(&r)?),
                EventBox::Etc(r) => out.etc.push(EtcBox::from_read(&r)?),
                EventBox::CameraBlock(r) => out.camera_block.push(CameraBlockBox::from_read(&r)?),
                EventBox::Cutoff(r) => out.cutoff.push(CutoffBox::from_read(&r)?),
                EventBox::CameraTarget(r) => {
                    out.camera_target.push(CameraTargetBox::from_read(&r)?)
                }
                EventBox::MiniMapIcon(r) => out.mini_map_icon.push(MiniMapIconBox::from_read(&r)?),
                EventBox::EnvironmentReverb(r) => out
                    .environment_reverb
                    .push(EnvironmentReverbBox::from_read(&r)?),
                EventBox::Waypoint(r) => out.waypoint.push(WaypointBox::from_read(&r)?),
                EventBox::Obstacle(r) => out.obstacle.push(ObstacleBox::from_read(&r)?),
            }
        }
    }
    Ok(out)
}

fn scene(s: read::Scene<'_>) -> Result<Scene> {
    Ok(Scene {
        pass2: s.details.map(|d| ScenePass2::from_read(&d)).transpose()?,
        ..Scene::from_read(&s.head)?
    })
}

impl WdataModel {
    /// Copies everything `view` read into an owned map; writing it gives the same bytes back for
    /// every file whose empty EventBox groups store their position or 0 as offset (see
    /// [`EventBoxLayout`]), the groups in any order.
    pub fn from_view(view: &WdataView<'_>) -> Result<WdataModel> {
        let h = view.header();
        let t = view.triggers();
        let layout = match t.script_paths() {
            Some(s) => TriggerLayout::ScriptLists {
                event_scripts: names(s.events)?,
                condition_scripts: names(s.conditions)?,
                action_scripts: names(s.actions)?,
            },
            None => TriggerLayout::Peer(
                t.triggers()
                    .map(|t| Trigger::from_read(&t?))
                    .collect::<Result<_>>()?,
            ),
        };
        Ok(WdataModel {
            signature: ws(h.signature),
            version: h.version,
            event_box_version: h.event_box_version,
            anibg_version: h.anibg_version,
            item_box_version: h.item_box_version,
            gimmick_version: h.gimmick_version,
            script_count1: h.script_count1,
            script_condition_count1: h.script_condition_count1,
            script_count2: h.script_count2,
            script_condition_count2: h.script_condition_count2,
            model_path: ws(h.model_path),
            nav_mesh_path: ws(h.nav_mesh_path),
            nav_height_path: h.nav_height_path.map(ws),
            event_box_path: ws(h.event_box_path),
            event_boxes: match view.event_box_index_offset() {
                Some(_) => Some(event_boxes(view)?),
                None => None,
            },
            anibg: copied(view.anibg(), AniBg::from_read)?,
            item_boxes: copied(view.item_boxes(), ItemBox::from_read)?,
            gimmicks: copied(view.gimmicks(), Gimmick::from_read)?,
            obstacle_path: view.obstacle_path().map(ws),
            moc_path: ws(view.moc_path()),
            anibg_path: ws(view.anibg_path()),
            triggers: Triggers {
                layout,
                ..Triggers::from_read(&t.head)?
            },
            scenes: view
                .scenes()
                .iter()
                .map(|s| scene(s?))
                .collect::<Result<_>>()?,
            scene_resources: view
                .scene_resources()
                .iter()
                .map(|r| SceneResource::from_read(&r?))
                .collect::<Result<_>>()?,
        })
    }
}

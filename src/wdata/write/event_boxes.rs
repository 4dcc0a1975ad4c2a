//! Writes the EventBoxes section: the index (`type_count` entries of absolute offset and count),
//! then each group in the order of the model's [`EventBoxLayout`]; and the parts of EventBoxes
//! that are not flat records (PVS lists, render entries, CameraTarget names). The trait every
//! counted record implements, [`Record`], is here too: the record tables implement it.

use crate::bytes::Place;
use crate::wdata::model::{
    CameraTargetName, EventBoxLayout, EventBoxes, PvsEventBoxes, RawGroup, RenderEntry, TYPE_COUNT,
};
use crate::wdata::raw::RawEventBoxIndexEntry;
use crate::wdata::{OBB_MIN_SIZE, Versions, gates};
use crate::write_error::WriteResult as Result;

use super::encode::{Encoder, version_value};
impl EventBoxes {
    /// The index (`type_count` entries of absolute offset and count), then every group in the
    /// order of [`EventBoxLayout::order`] (type order when it is empty); an empty group's offset
    /// is the position where it lies, or 0 when [`EventBoxLayout::zero_offsets`] lists it.
    pub(crate) fn write(&self, s: &mut Encoder, g: Versions) -> Result<()> {
        let refused = |value: u64, reason: &'static str| {
            super::encode::refused("EventBoxes.typeCount", value, reason)
                .in_field("type_count")
                .in_field("event_boxes")
        };
        let type_count = u64::from(self.type_count);
        let beyond = usize::try_from(self.type_count.saturating_sub(TYPE_COUNT)).ok();
        if beyond != Some(self.beyond.len()) {
            return Err(refused(
                type_count,
                "every index entry beyond type 18 needs a raw group in `beyond`, and only those",
            ));
        }
        let order = self.layout.order(self.type_count)?;
        let zero = self.layout.zero_offsets(self.type_count)?;
        s.u32(self.type_count);
        // The index is reserved zeroed and each entry filled once its group is written.
        let count = usize::try_from(self.type_count).map_err(|_| {
            refused(
                type_count,
                "more index entries than this machine can address",
            )
        })?;
        let index = s
            .out
            .reserve::<RawEventBoxIndexEntry>(count, "EventBoxes.index[type]")?;
        // Fields of `self` by type number; types 19 and up follow (`type_count` = 19 + their
        // number, checked above).
        let fixed: [&dyn Group; 19] = [
            &self.camera,
            &self.respawn,
            &self.start_point,
            &self.trigger,
            &self.skid,
            &self.event_hit,
            &self.npc,
            &self.portal,
            &self.select_map_portal,
            &self.in_area,
            &self.etc,
            &self.camera_block,
            &self.cutoff,
            &self.camera_target,
            &self.unused,
            &self.mini_map_icon,
            &self.environment_reverb,
            &self.waypoint,
            &self.obstacle,
        ];
        let groups: Vec<&dyn Group> = fixed
            .into_iter()
            .chain(self.beyond.iter().map(|r| r as &dyn Group))
            .collect();
        // The types the index has no entry for (below 19) must be empty: they write nothing.
        for group in groups.iter().skip(count) {
            if group.write(s, g)? != 0 {
                return Err(refused(
                    type_count,
                    "the model holds boxes of a type the index has no entry for",
                ));
            }
        }
        // A group of unknown layout with records, and no later group whose offset bounds it.
        let mut unbounded = false;
        for ty in order {
            // `order` holds each entry below `type_count` once, and `groups` has one per entry.
            let Some(group) = groups.get(ty as usize) else {
                continue;
            };
            let at = i32::try_from(s.out.len()).map_err(|_| {
                super::encode::refused(
                    "EventBoxes.offset",
                    s.pos(),
                    "the group starts beyond what an i32 offset can address",
                )
            })?;
            let count = group.write(s, g)?;
            let offset = if count == 0 && zero.contains(&ty) {
                0
            } else {
                // A reader finds the end of a group of unknown layout only at a later group's
                // offset: this one, a position, is that end.
                unbounded = count > 0 && !group.layout_known();
                at
            };
            let entry = RawEventBoxIndexEntry {
                offset: offset.into(),
                count: count.into(),
            };
            s.out.patch_record(&index, ty as usize, &entry)?;
        }
        if unbounded {
            return Err(refused(
                type_count,
                "a group of unknown layout (type 14, or beyond type 18) with records is the last group in the file (no later group's offset is its position), so nothing marks where it ends",
            ));
        }
        Ok(())
    }
}

impl EventBoxLayout {
    /// The order groups are written in: every index entry below `type_count` once (type order
    /// when [`order`](Self::order) is empty). Anything else is refused, naming the entry.
    fn order(&self, type_count: u32) -> Result<Vec<u32>> {
        if self.order.is_empty() {
            return Ok((0..type_count).collect());
        }
        let named = each_once(&self.order, type_count).map_err(|e| in_layout(e, "order"))?;
        if named.iter().any(|&n| !n) {
            return Err(in_layout(
                layout_refused(
                    crate::bytes::u64_of(self.order.len()),
                    "the order leaves out an index entry (value: how many it names; it must name each of 0 to type_count - 1 once)",
                ),
                "order",
            ));
        }
        Ok(self.order.clone())
    }

    /// The types whose empty group stores offset 0, each an index entry named once.
    fn zero_offsets(&self, type_count: u32) -> Result<&[u32]> {
        each_once(&self.zero_offsets, type_count).map_err(|e| in_layout(e, "zero_offsets"))?;
        Ok(&self.zero_offsets)
    }
}

/// Which of the index entries `0..type_count` `list` names, refusing an entry beyond them or
/// named twice (the error names the list's item). `type_count` is at most 19 plus the model's
/// raw groups beyond type 18 (checked before).
fn each_once(list: &[u32], type_count: u32) -> Result<Vec<bool>> {
    let mut named = vec![false; type_count as usize];
    for (i, &ty) in list.iter().enumerate() {
        let at = |e: crate::WriteError| e.at_index(i);
        let Some(slot) = named.get_mut(ty as usize) else {
            return Err(at(layout_refused(
                u64::from(ty),
                "not an index entry (a type number from 0 to type_count - 1)",
            )));
        };
        if core::mem::replace(slot, true) {
            return Err(at(layout_refused(
                u64::from(ty),
                "an index entry named twice",
            )));
        }
    }
    Ok(named)
}

fn layout_refused(value: u64, reason: &'static str) -> crate::WriteError {
    super::encode::refused("EventBoxes.layout", value, reason)
}

/// An error in the layout's list `list`: `event_boxes.layout.order[3]`.
fn in_layout(e: crate::WriteError, list: &str) -> crate::WriteError {
    e.in_field(list).in_field("layout").in_field("event_boxes")
}

/// Where record `index` of a list of `len` stands (what a record's layout may depend on).
pub(crate) fn place(index: usize, len: usize) -> Place {
    Place {
        index: u32::try_from(index).unwrap_or(u32::MAX),
        last: index + 1 == len,
    }
}

/// One type's group: writes its records and returns the count for the index.
trait Group {
    fn write(&self, s: &mut Encoder, g: Versions) -> Result<i32>;
    /// Whether a reader knows the records' layout (and so where the group ends).
    fn layout_known(&self) -> bool {
        true
    }
}

/// A record of a counted list (the records of one EventBox type, or of the AniBG, ItemBox and
/// Gimmick sections), written one after the other.
pub(crate) trait Record {
    /// The count's name in errors (`EventBoxes.CameraBox.count`, `AniBG.count`).
    const WHAT: &'static str;
    /// Where the list is in the map's JSON (`event_boxes.CameraBox`, `anibg`): what an error
    /// inside a record names with the record's index.
    const SECTION: &'static str;
    /// Writes the record, the one at `place` in its list.
    fn write(&self, s: &mut Encoder, g: Versions, place: Place) -> Result<()>;
}

/// The records of a run, each knowing its place in it.
pub(crate) fn write_records<R: Record>(
    s: &mut Encoder,
    list: &[R],
    versions: Versions,
) -> Result<()> {
    for (i, r) in list.iter().enumerate() {
        r.write(s, versions, place(i, list.len()))?;
    }
    Ok(())
}

impl<R: Record> Group for Vec<R> {
    fn write(&self, s: &mut Encoder, g: Versions) -> Result<i32> {
        let count = i32::try_from(self.len()).map_err(|_| {
            super::encode::refused(
                R::WHAT,
                crate::bytes::u64_of(self.len()),
                "more boxes than an i32 count can hold",
            )
        })?;
        for (i, r) in self.iter().enumerate() {
            r.write(s, g, place(i, self.len()))
                .map_err(|e| e.at_index(i).in_field(R::SECTION))?;
        }
        Ok(count)
    }
}

impl Group for RawGroup {
    fn write(&self, s: &mut Encoder, _: Versions) -> Result<i32> {
        if self.count < 0 || (self.count == 0 && !self.bytes.is_empty()) {
            return Err(super::encode::refused(
                "EventBoxes.RawGroup.count",
                u64::from(self.count.cast_unsigned()),
                "an unknown group (type 14, or beyond type 18) needs a non-negative count, and bytes only with a count",
            ));
        }
        // Every record starts with an OBB, so a reader takes a group shorter than `count` of the
        // smallest OBB for a damaged one; and an empty group with a count would start where the
        // next group starts.
        let needed = u64::from(self.count.cast_unsigned())
            .saturating_mul(crate::bytes::u64_of(OBB_MIN_SIZE));
        if crate::bytes::u64_of(self.bytes.len()) < needed {
            return Err(super::encode::refused(
                "EventBoxes.RawGroup.raw_hex",
                crate::bytes::u64_of(self.bytes.len()),
                "an unknown group's bytes (value: their length) are fewer than its count of the smallest box (an OBB with an empty name) takes",
            ));
        }
        s.out.put(self.bytes.as_slice());
        Ok(self.count)
    }

    fn layout_known(&self) -> bool {
        false
    }
}

impl PvsEventBoxes {
    /// Refuses the variant the EventBox version does not store. An empty list stores only its
    /// count, so either variant writes it (the JSON of an empty list, `[]`, cannot say which one
    /// it was).
    pub(crate) fn check(&self, g: Versions, what: &'static str) -> Result<()> {
        let entries = crate::wdata::gates::CAMERA_PVS_ENTRIES;
        match self {
            PvsEventBoxes::Ids(ids) if !entries.stored(g) || ids.is_empty() => Ok(()),
            PvsEventBoxes::Entries(list) if entries.stored(g) || list.is_empty() => Ok(()),
            _ => Err(super::encode::refused(
                what,
                version_value(entries.version(g)),
                "PVS EventBox ids are stored below EventBox version 6, (category, name) \
                 entries from 6",
            )),
        }
    }

    /// The ids or the entries, once the count is written.
    pub(crate) fn write_items(&self, s: &mut Encoder, what: &'static str) -> Result<()> {
        match self {
            PvsEventBoxes::Ids(ids) => ids.iter().for_each(|&id| s.u32(id)),
            PvsEventBoxes::Entries(entries) => {
                for e in entries {
                    s.u32(e.category);
                    s.wstr(&e.name, what)?;
                }
            }
        }
        Ok(())
    }
}

impl RenderEntry {
    /// The id (main version >= 22), then the name.
    pub(crate) fn write(&self, s: &mut Encoder, g: Versions) -> Result<()> {
        if let Some(&id) = s.gate(
            &self.id,
            gates::RENDER_ITEM_KEY.decide(g),
            "CameraInfo.renderList.id",
        )? {
            s.u32(id);
        }
        s.wstr(&self.name, "CameraInfo.renderList.name")
    }
}

impl CameraTargetName {
    /// The name or the text id, whichever the EventBox version stores (refusing the other).
    pub(crate) fn write(&self, s: &mut Encoder, g: Versions) -> Result<()> {
        let text_id_since = crate::wdata::CameraTargetName::TEXT_ID_SINCE;
        match (self, g.event_box >= text_id_since) {
            (CameraTargetName::Name(name), false) => s.wstr(name, "CameraTargetBox.TargetName"),
            (CameraTargetName::TextId(id), true) => {
                s.i32(*id);
                Ok(())
            }
            _ => Err(super::encode::refused(
                "CameraTargetBox.NameTextID",
                version_value(g.event_box),
                "the target is a name below EventBox version 8 and a text id from 8",
            )),
        }
    }
}

//! `.wdata` as one of [`AnyView`](crate::AnyView)'s formats: its [`View`] implementation and the
//! summary `gamebin info` prints.

use core::fmt;

use super::{EventBoxType, WdataView};
use crate::view::{View, count};

/// An EventBox type's name (`"Spawn"`, ...), or `Type14` for a type the reader does not know.
pub fn event_box_type_name(type_index: u32) -> String {
    EventBoxType::from_index(type_index)
        .map_or_else(|| format!("Type{type_index}"), |t| t.name().to_owned())
}

/// Which layout the triggers were read with: `"trigger-list"`, `"script-paths"`, or `"ambiguous"`
/// when both layouts end exactly at the end of the file (the trigger list is then what is read).
pub fn trigger_layout_label(view: &WdataView<'_>) -> &'static str {
    if view.trigger_layout_ambiguous() {
        "ambiguous"
    } else {
        view.trigger_layout().name()
    }
}

/// A number per EventBox type name, in type order (counts in `info`, offsets in `dump`); with
/// `serde`, an object keyed by the names.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ByEventBoxType(pub Vec<(String, usize)>);

impl ByEventBoxType {
    /// Each group's `number` (its count, its offset), by the group's type name.
    pub fn of(view: &WdataView<'_>, number: impl Fn(&super::EventBoxGroup<'_>) -> usize) -> Self {
        ByEventBoxType(
            view.event_box_groups()
                .map(|g| (event_box_type_name(g.type_index), number(&g)))
                .collect(),
        )
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for ByEventBoxType {
    fn serialize<S: serde::Serializer>(&self, s: S) -> core::result::Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = s.serialize_map(Some(self.0.len()))?;
        for (name, number) in &self.0 {
            map.serialize_entry(name, number)?;
        }
        map.end()
    }
}

/// What `gamebin info` shows of a `.wdata` map: its versions and how many records each section
/// holds.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct WdataInfo {
    /// The map's version.
    pub version: i32,
    /// The EventBox section's version, when stored.
    pub event_box_version: Option<i32>,
    /// EventBoxes over every type.
    pub event_boxes: usize,
    /// EventBoxes by type name, in type order.
    pub event_boxes_by_type: ByEventBoxType,
    /// AniBG records.
    pub anibg: usize,
    /// ItemBox records.
    pub item_boxes: usize,
    /// Gimmick records.
    pub gimmicks: usize,
    /// `"trigger-list"`, `"script-paths"` or `"ambiguous"` ([`trigger_layout_label`]).
    pub trigger_layout: &'static str,
    /// Triggers (trigger-list layout) or script paths (script-paths layout).
    pub triggers: usize,
    /// Scenes.
    pub scenes: usize,
    /// Scene resources.
    pub scene_resources: usize,
}

impl fmt::Display for WdataInfo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} version {}, {}",
            <WdataView<'_> as View<'_>>::NAME,
            self.version,
            count(self.event_boxes, "event box", "event boxes"),
        )?;
        if let Some(v) = self.event_box_version {
            write!(f, " (EventBox version {v})")?;
        }
        write!(
            f,
            ", {} anibg, {}, {}, {} ({}), {}, {}",
            self.anibg,
            count(self.item_boxes, "item box", "item boxes"),
            count(self.gimmicks, "gimmick", "gimmicks"),
            count(self.triggers, "trigger", "triggers"),
            self.trigger_layout,
            count(self.scenes, "scene", "scenes"),
            count(self.scene_resources, "scene resource", "scene resources")
        )
    }
}

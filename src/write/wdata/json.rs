//! How the owned model reads as JSON (feature `cli`; `gamebin dump --json` serializes a
//! [`WdataMap`](super::WdataMap)). Most types derive `Serialize`; the impls here are the ones
//! where the stored form would read badly:
//! - a [`WString`] is its text (trailing NULs trimmed, unpaired surrogates as U+FFFD), not code
//!   units; the `".\"` "no path" sentinel shows as it is stored;
//! - a [`Bool32`] is a JSON boolean when it stores 0 or 1, and the stored number otherwise, so an
//!   odd value stays visible;
//! - [`EventBoxes`] is an object keyed by the format's type names (`"CameraBox"`, …), in type
//!   order, after its `type_count` (index entries beyond type 18 as `"Type19"`, …);
//! - the type-14 group's bytes are hex, a path's `Time`/`Hold` pair is `{"time", "hold"}`.

use core::fmt::Write as _;

use serde::ser::{Serialize, SerializeMap, SerializeStruct, Serializer};

use super::event_boxes::EventBoxes;
use super::model::{Bool32, WString};
use crate::wdata::EventBoxType;

impl Serialize for WString {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.to_string_lossy())
    }
}

impl Serialize for Bool32 {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self.0 {
            0 => s.serialize_bool(false),
            1 => s.serialize_bool(true),
            other => s.serialize_u32(other),
        }
    }
}

/// The format's name for EventBox type `ty` (every type the model holds has one).
fn type_name(ty: u32) -> &'static str {
    EventBoxType::from_index(ty).map_or("UnknownBox", EventBoxType::name)
}

impl Serialize for EventBoxes {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(None)?;
        map.serialize_entry("type_count", &self.type_count)?;
        // A type beyond the index's `type_count` is shown only if it holds something (the writer
        // would refuse that model, and the dump must not hide it).
        macro_rules! group {
            ($ty:literal, $field:ident, $empty:expr) => {
                if $ty < self.type_count || !$empty {
                    map.serialize_entry(type_name($ty), &self.$field)?;
                }
            };
            ($ty:literal, $field:ident) => {
                group!($ty, $field, self.$field.is_empty())
            };
        }
        group!(0, camera);
        group!(1, respawn);
        group!(2, start_point);
        group!(3, trigger);
        group!(4, skid);
        group!(5, event_hit);
        group!(6, npc);
        group!(7, portal);
        group!(8, select_map_portal);
        group!(9, in_area);
        group!(10, etc);
        group!(11, camera_block);
        group!(12, cutoff);
        group!(13, camera_target);
        group!(
            14,
            unused,
            self.unused.count == 0 && self.unused.bytes.is_empty()
        );
        group!(15, mini_map_icon);
        group!(16, environment_reverb);
        group!(17, waypoint);
        group!(18, obstacle);
        for (ty, raw) in (19u32..).zip(&self.beyond) {
            map.serialize_entry(&format!("Type{ty}"), raw)?;
        }
        map.end()
    }
}

/// Bytes as lowercase hex, two digits each.
pub(super) fn hex<S: Serializer>(bytes: &[u8], s: S) -> Result<S::Ok, S::Error> {
    let mut text = String::with_capacity(bytes.len().saturating_mul(2));
    for byte in bytes {
        let _ = write!(text, "{byte:02x}");
    }
    s.serialize_str(&text)
}

/// A path's `Time` and `Hold` (only called for `Some`: the field skips `None`).
pub(super) fn time_hold<S: Serializer>(
    value: &Option<(u32, u32)>,
    s: S,
) -> Result<S::Ok, S::Error> {
    match value {
        Some((time, hold)) => {
            let mut st = s.serialize_struct("TimeHold", 2)?;
            st.serialize_field("time", time)?;
            st.serialize_field("hold", hold)?;
            st.end()
        }
        None => s.serialize_none(),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::super::{
        Bool32, EventBoxes, NpcBox, RawGroup, SceneData, StartPointBox, WString, WdataMap,
    };

    #[test]
    fn a_string_is_its_text_without_trailing_nuls() {
        let signature = WString::nul_terminated("stairwaygames.");
        assert_eq!(json!(signature), json!("stairwaygames."));
        assert_eq!(json!(WString::new(".\\")), json!(".\\"));
        // 'a', an unpaired high surrogate, 'b', two NULs.
        let odd = WString {
            units: vec![0x61, 0xD800, 0x62, 0, 0],
        };
        assert_eq!(json!(odd), json!("a\u{FFFD}b"));
    }

    #[test]
    fn a_bool_is_a_boolean_for_0_and_1_and_the_stored_number_otherwise() {
        assert_eq!(json!(Bool32(0)), json!(false));
        assert_eq!(json!(Bool32(1)), json!(true));
        assert_eq!(json!(Bool32(7)), json!(7));
        assert_eq!(json!(Bool32(u32::MAX)), json!(4_294_967_295_u32));
    }

    #[test]
    fn event_boxes_are_keyed_by_type_name_and_nothing_is_hidden() {
        let boxes = EventBoxes {
            type_count: 3,
            start_point: vec![StartPointBox {
                id: 5,
                ..StartPointBox::default()
            }],
            // Beyond `type_count`: the writer refuses it, the dump shows it.
            npc: vec![NpcBox::default()],
            unused: RawGroup {
                count: 1,
                bytes: vec![0x00, 0xab, 0x10],
            },
            beyond: vec![RawGroup::default()],
            ..EventBoxes::default()
        };
        let value = json!(boxes);
        let keys: Vec<&str> = value
            .as_object()
            .map(|o| o.keys().map(String::as_str).collect())
            .unwrap_or_default();
        let mut want = vec![
            "type_count",
            "CameraBox",
            "RespawnBox",
            "StartPointBox",
            "NpcBox",
            "UnusedBox",
            "Type19",
        ];
        want.sort_unstable();
        assert_eq!(keys, want);
        assert_eq!(value["StartPointBox"][0]["id"], 5);
        assert_eq!(value["UnusedBox"], json!({"count": 1, "raw_hex": "00ab10"}));
    }

    #[test]
    fn gated_fields_are_left_out_and_time_hold_is_named() {
        let map = WdataMap::default();
        let value = json!(map);
        for key in ["event_box_version", "nav_height_path", "event_boxes"] {
            assert!(value.get(key).is_none(), "{key}");
        }
        let path = SceneData {
            time_hold: Some((3, 4)),
            ..SceneData::default()
        };
        let value = json!(path);
        assert_eq!(value["time_hold"], json!({"time": 3, "hold": 4}));
        assert!(value.get("blend_time").is_none());
    }
}

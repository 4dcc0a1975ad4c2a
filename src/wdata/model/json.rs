//! How the owned model reads as JSON (feature `serde`; `gamebin dump --json` serializes a
//! [`WdataModel`](super::WdataModel) and `gamebin wdata pack` deserializes it back). Most types derive
//! both traits; the impls here are the ones where the stored form would read badly. Every form is
//! exact, so JSON → model → bytes gives back the file the JSON was dumped from:
//! - a [`WString`] is its text with every stored code unit (a trailing NUL shows as `\u0000`);
//!   a string holding an unpaired surrogate (no text can) is the list of its code units;
//! - a [`Bool32`] is a JSON boolean when it stores 0 or 1, and the stored number otherwise, so an
//!   odd value stays visible;
//! - [`EventBoxes`] is an object keyed by the format's type names (`"CameraBox"`, …), in type
//!   order, after its `type_count` (index entries beyond type 18 as `"Type19"`, …), then the
//!   groups' `"layout"` when another writer laid them out otherwise than this crate's writer
//!   (`{"order": [18, 17, …], "zero_offsets": [2, 5]}`, each list left out when empty);
//! - the type-14 group's bytes are hex, a path's `Time`/`Hold` pair is `{"time", "hold"}`.
//!
//! Deserializing refuses what a dump never holds (an unknown key, a group named twice, odd hex),
//! naming it; what the map's version cannot store is left to the writer, which names the field.

use core::fmt;

use serde::de::value::MapAccessDeserializer;
use serde::de::{
    self, Deserialize, DeserializeSeed, Deserializer, IntoDeserializer, MapAccess, Visitor,
};
use serde::ser::{Serialize, SerializeMap, Serializer};

use super::event_boxes::{EventBoxes, RawGroup};
use super::map::{Bool32, WString, WdataModel};
use crate::wdata::EventBoxType;

impl Serialize for WString {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match String::from_utf16(&self.units) {
            Ok(text) => s.serialize_str(&text),
            // No text holds an unpaired surrogate: the code units keep it.
            Err(_) => self.units.serialize(s),
        }
    }
}

impl<'de> Deserialize<'de> for WString {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<WString, D::Error> {
        struct Units;
        impl<'de> Visitor<'de> for Units {
            type Value = WString;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a string, or a list of UTF-16 code units")
            }
            fn visit_str<E: de::Error>(self, text: &str) -> Result<WString, E> {
                Ok(WString::new(text))
            }
            fn visit_seq<A: de::SeqAccess<'de>>(self, mut seq: A) -> Result<WString, A::Error> {
                let mut units = Vec::new();
                while let Some(unit) = seq.next_element::<u16>()? {
                    units.push(unit);
                }
                Ok(WString { units })
            }
        }
        d.deserialize_any(Units)
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

impl<'de> Deserialize<'de> for Bool32 {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Bool32, D::Error> {
        struct Stored;
        impl Visitor<'_> for Stored {
            type Value = Bool32;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("true, false or the stored number (0 to 4294967295)")
            }
            fn visit_bool<E: de::Error>(self, value: bool) -> Result<Bool32, E> {
                Ok(Bool32::from(value))
            }
            fn visit_u64<E: de::Error>(self, value: u64) -> Result<Bool32, E> {
                u32::try_from(value)
                    .map(Bool32)
                    .map_err(|_| E::invalid_value(de::Unexpected::Unsigned(value), &self))
            }
            fn visit_i64<E: de::Error>(self, value: i64) -> Result<Bool32, E> {
                u32::try_from(value)
                    .map(Bool32)
                    .map_err(|_| E::invalid_value(de::Unexpected::Signed(value), &self))
            }
        }
        d.deserialize_any(Stored)
    }
}

/// The format's name for EventBox type `ty` (every type the model holds has one).
fn type_name(ty: u32) -> &'static str {
    EventBoxType::from_index(ty).map_or("UnknownBox", EventBoxType::name)
}

/// Calls `$m!(type index, field)` for every EventBox type with a known layout but type 14, in
/// type order: the one list of groups that serializing and deserializing share.
macro_rules! known_groups {
    ($m:ident) => {
        $m!(0, camera);
        $m!(1, respawn);
        $m!(2, start_point);
        $m!(3, trigger);
        $m!(4, skid);
        $m!(5, event_hit);
        $m!(6, npc);
        $m!(7, portal);
        $m!(8, select_map_portal);
        $m!(9, in_area);
        $m!(10, etc);
        $m!(11, camera_block);
        $m!(12, cutoff);
        $m!(13, camera_target);
        $m!(15, mini_map_icon);
        $m!(16, environment_reverb);
        $m!(17, waypoint);
        $m!(18, obstacle);
    };
}

/// Type 14, whose layout is unknown.
const UNUSED_TYPE: u32 = 14;

/// The key of the groups' layout ([`EventBoxes::layout`]), after the groups.
const LAYOUT: &str = "layout";

impl Serialize for EventBoxes {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(None)?;
        map.serialize_entry("type_count", &self.type_count)?;
        // A type beyond the index's `type_count` is shown only if it holds something (the writer
        // would refuse that model, and the dump must not hide it).
        macro_rules! group {
            ($ty:literal, $field:ident) => {
                if $ty < self.type_count || !self.$field.is_empty() {
                    map.serialize_entry(type_name($ty), &self.$field)?;
                }
                // Type 14 sits between 13 and 15 in the file's order and the dump's.
                if $ty == UNUSED_TYPE - 1
                    && (UNUSED_TYPE < self.type_count
                        || self.unused.count != 0
                        || !self.unused.bytes.is_empty())
                {
                    map.serialize_entry(type_name(UNUSED_TYPE), &self.unused)?;
                }
            };
        }
        known_groups!(group);
        for (ty, raw) in (19u32..).zip(&self.beyond) {
            map.serialize_entry(&format!("Type{ty}"), raw)?;
        }
        // Only another writer's layout is shown: a dump of a map this crate wrote has no key.
        if !self.layout.is_default() {
            map.serialize_entry(LAYOUT, &self.layout)?;
        }
        map.end()
    }
}

impl<'de> Deserialize<'de> for EventBoxes {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<EventBoxes, D::Error> {
        struct Groups;
        impl<'de> Visitor<'de> for Groups {
            type Value = EventBoxes;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an object of EventBox groups keyed by type name")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<EventBoxes, A::Error> {
                let mut boxes = EventBoxes::default();
                let mut type_count = None;
                let mut layout = None;
                // Which groups were named (types 0..=18), to refuse one named twice.
                let mut seen = [false; 19];
                // `TypeN` groups by N, placed in order once all are read.
                let mut beyond: Vec<(u32, RawGroup)> = Vec::new();
                while let Some(key) = map.next_key::<String>()? {
                    if key == "type_count" {
                        if type_count.is_some() {
                            return Err(de::Error::duplicate_field("type_count"));
                        }
                        type_count = Some(map.next_value::<u32>()?);
                        continue;
                    }
                    if key == LAYOUT {
                        if layout.is_some() {
                            return Err(de::Error::duplicate_field(LAYOUT));
                        }
                        layout = Some(map.next_value()?);
                        continue;
                    }
                    let known = (0..19).find(|&t| type_name(t) == key);
                    let Some(ty) = known else {
                        let n = key.strip_prefix("Type").and_then(|n| n.parse::<u32>().ok());
                        let Some(n) = n.filter(|&n| n >= 19) else {
                            return Err(de::Error::custom(format_args!(
                                "unknown EventBox group {key:?} (a type name such as \
                                 \"CameraBox\", or \"Type19\" and up)"
                            )));
                        };
                        if beyond.iter().any(|&(m, _)| m == n) {
                            return Err(de::Error::custom(format_args!(
                                "EventBox group {key:?} is named twice"
                            )));
                        }
                        beyond.push((n, map.next_value()?));
                        continue;
                    };
                    let Some(slot) = seen.get_mut(ty as usize) else {
                        return Err(de::Error::custom(format_args!(
                            "EventBox type {ty} has no group in the model"
                        )));
                    };
                    if core::mem::replace(slot, true) {
                        return Err(de::Error::custom(format_args!(
                            "EventBox group {key:?} is named twice"
                        )));
                    }
                    macro_rules! read {
                        ($ty:literal, $field:ident) => {
                            if ty == $ty {
                                boxes.$field = map.next_value()?;
                                continue;
                            }
                        };
                    }
                    known_groups!(read);
                    boxes.unused = map.next_value()?;
                }
                boxes.type_count =
                    type_count.ok_or_else(|| de::Error::missing_field("type_count"))?;
                boxes.layout = layout.unwrap_or_default();
                // `Type19`, `Type20`, … must be consecutive from 19: each is one index entry.
                beyond.sort_unstable_by_key(|&(n, _)| n);
                for (want, (n, raw)) in (19u32..).zip(beyond) {
                    if n != want {
                        return Err(de::Error::custom(format_args!(
                            "EventBox group \"Type{want}\" is missing before \"Type{n}\""
                        )));
                    }
                    boxes.beyond.push(raw);
                }
                Ok(boxes)
            }
        }
        d.deserialize_map(Groups)
    }
}

/// Raw bytes as lowercase hex (the crate's text form of opaque bytes, [`crate::bytes::hex`]).
pub(crate) fn hex<S: Serializer>(bytes: &[u8], s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&crate::bytes::hex(bytes))
}

/// The bytes [`hex`] wrote (either case); the error names the field.
pub(crate) fn from_hex<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<u8>, D::Error> {
    let text = String::deserialize(d)?;
    crate::bytes::unhex(&text).map_err(|e| {
        de::Error::custom(format_args!(
            "raw_hex ({} characters) has {e}",
            text.trim().len()
        ))
    })
}

/// The keys `gamebin dump --json` prints beside the map's own fields: facts about the file that was read
/// (its path, size, section offsets, …), not part of the map, so packing skips them.
const DUMP_ONLY_KEYS: [&str; 6] = [
    "path",
    "format",
    "size",
    "sections",
    "event_box_offsets",
    "trigger_layout",
];

impl WdataModel {
    /// The map a `gamebin dump --json` document describes, edited or not: the keys the dump
    /// prints beside the map's own fields (the file's path, size, section offsets, …) are
    /// skipped, a `"format"` other than `rusty-hearts-wdata` and any key the map does not have
    /// are refused. Read straight from the text, so that an error gives its line and column;
    /// what the map's version cannot store is left to the writer.
    pub fn from_dump_json(text: &str) -> serde_json::Result<WdataModel> {
        let mut de = serde_json::Deserializer::from_str(text);
        let map = de.deserialize_map(DumpVisitor)?;
        de.end()?;
        Ok(map)
    }
}

/// Reads a dump's top-level object as a [`WdataModel`], through [`SkipDumpKeys`].
struct DumpVisitor;

impl<'de> Visitor<'de> for DumpVisitor {
    type Value = WdataModel;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("the object `gamebin dump --json` prints for a .wdata")
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> core::result::Result<WdataModel, A::Error> {
        WdataModel::deserialize(MapAccessDeserializer::new(SkipDumpKeys(map)))
    }
}

/// The dump's object without its dump-only keys (a `"format"` other than this one's is refused).
struct SkipDumpKeys<A>(A);

impl<'de, A: MapAccess<'de>> MapAccess<'de> for SkipDumpKeys<A> {
    type Error = A::Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> core::result::Result<Option<K::Value>, A::Error> {
        while let Some(key) = self.0.next_key::<String>()? {
            if key == "format" {
                let format = self.0.next_value::<String>()?;
                let wdata = crate::Format::RustyHeartsWdata.name();
                if format != wdata {
                    return Err(de::Error::custom(format_args!(
                        "its \"format\" is {format:?}, not {wdata:?}"
                    )));
                }
            } else if DUMP_ONLY_KEYS.contains(&key.as_str()) {
                self.0.next_value::<de::IgnoredAny>()?;
            } else {
                return seed.deserialize(key.into_deserializer()).map(Some);
            }
        }
        Ok(None)
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(
        &mut self,
        seed: V,
    ) -> core::result::Result<V::Value, A::Error> {
        self.0.next_value_seed(seed)
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::super::{
        Bool32, EventBoxes, NpcBox, RawGroup, SceneData, StartPointBox, TriggerLayout, Triggers,
        WString, WdataModel,
    };

    #[test]
    fn a_string_is_every_stored_code_unit_and_reads_back_the_same() {
        let signature = WString::nul_terminated("stairwaygames.");
        assert_eq!(json!(signature), json!("stairwaygames.\u{0}"));
        assert_eq!(json!(WString::new(".\\")), json!(".\\"));
        // 'a', an unpaired high surrogate, 'b', two NULs: no text holds it, the units do.
        let odd = WString {
            units: vec![0x61, 0xD800, 0x62, 0, 0],
        };
        assert_eq!(json!(odd), json!([0x61, 0xD800, 0x62, 0, 0]));
        for s in [
            signature,
            odd,
            WString::new(""),
            WString::new("타운\u{1F600}"),
        ] {
            let back: WString = serde_json::from_value(json!(s)).unwrap();
            assert_eq!(back, s);
        }
        assert!(serde_json::from_value::<WString>(json!([70000])).is_err());
        assert!(serde_json::from_value::<WString>(json!(5)).is_err());
    }

    #[test]
    fn a_bool_reads_back_from_a_boolean_or_the_stored_number() {
        for b in [0, 1, 7, u32::MAX] {
            let back: Bool32 = serde_json::from_value(json!(Bool32(b))).unwrap();
            assert_eq!(back, Bool32(b));
        }
        assert!(serde_json::from_value::<Bool32>(json!(-1)).is_err());
        assert!(serde_json::from_value::<Bool32>(json!(4_294_967_296_u64)).is_err());
        assert!(serde_json::from_value::<Bool32>(json!("true")).is_err());
    }

    #[test]
    fn event_box_groups_read_back_and_bad_groups_are_refused() {
        let boxes = EventBoxes {
            type_count: 21,
            start_point: vec![StartPointBox {
                id: 5,
                ..StartPointBox::default()
            }],
            unused: RawGroup {
                count: 2,
                bytes: vec![0x00, 0xab, 0x10],
            },
            beyond: vec![
                RawGroup::default(),
                RawGroup {
                    count: 1,
                    bytes: vec![1],
                },
            ],
            ..EventBoxes::default()
        };
        let back: EventBoxes = serde_json::from_value(json!(boxes)).unwrap();
        assert_eq!(back, boxes);
        let refused = |value: serde_json::Value, says: &str| {
            let e = serde_json::from_value::<EventBoxes>(value).unwrap_err();
            assert!(e.to_string().contains(says), "{e}");
        };
        refused(
            json!({"type_count": 19, "CameraBoxes": []}),
            "unknown EventBox group",
        );
        refused(
            json!({"type_count": 19, "Type18": []}),
            "unknown EventBox group",
        );
        refused(
            json!({"type_count": 21, "Type20": {"count": 0, "raw_hex": ""}}),
            "\"Type19\" is missing",
        );
        refused(json!({"NpcBox": []}), "missing field `type_count`");
        refused(
            json!({"type_count": 19, "UnusedBox": {"count": 0, "raw_hex": "abc"}}),
            "odd number",
        );
        refused(
            json!({"type_count": 19, "UnusedBox": {"count": 0, "raw_hex": "zz"}}),
            "not a hex digit",
        );
        let twice = r#"{"type_count": 19, "NpcBox": [], "NpcBox": []}"#;
        let e = serde_json::from_str::<EventBoxes>(twice).unwrap_err();
        assert!(e.to_string().contains("named twice"), "{e}");
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
        let map = WdataModel::default();
        let value = json!(map);
        for key in ["event_box_version", "nav_height_path", "event_boxes"] {
            assert!(value.get(key).is_none(), "{key}");
        }
        let path = SceneData {
            time_hold: Some(crate::wdata::TimeHold { time: 3, hold: 4 }),
            ..SceneData::default()
        };
        let value = json!(path);
        assert_eq!(value["time_hold"], json!({"time": 3, "hold": 4}));
        assert!(value.get("blend_time").is_none());
    }

    /// The triggers' layout is flattened into their object, and a key beside it is still checked:
    /// a misspelt one is refused in either layout, in the model's JSON and in a whole map's, and
    /// so are both layouts at once.
    #[test]
    fn a_misspelt_key_in_the_triggers_is_refused() {
        let script_lists = TriggerLayout::ScriptLists {
            event_scripts: vec![WString::new("event\\a.lua")],
            condition_scripts: Vec::new(),
            action_scripts: Vec::new(),
        };
        for layout in [TriggerLayout::default(), script_lists] {
            let triggers = Triggers {
                main_script: WString::new("main.lua"),
                layout,
                ..Triggers::default()
            };
            let good = json!(triggers);
            let back: Triggers = serde_json::from_value(good.clone()).unwrap();
            assert_eq!(back, triggers);
            let mut bad = good.clone();
            bad["main_scrpt"] = json!("main.lua");
            let e = serde_json::from_value::<Triggers>(bad).unwrap_err();
            assert!(e.to_string().contains("unknown field `main_scrpt`"), "{e}");

            let mut map = json!(WdataModel {
                triggers,
                ..WdataModel::default()
            });
            assert!(serde_json::from_value::<WdataModel>(map.clone()).is_ok());
            map["triggers"]["reserved"] = json!(0);
            let e = serde_json::from_value::<WdataModel>(map).unwrap_err();
            assert!(e.to_string().contains("unknown field `reserved`"), "{e}");
        }
        let mut both = json!(Triggers::default());
        both["script_lists"] =
            json!({"event_scripts": [], "condition_scripts": [], "action_scripts": []});
        // The layout takes one of the two keys; the other is left over.
        let e = serde_json::from_value::<Triggers>(both).unwrap_err();
        assert!(e.to_string().starts_with("unknown field `"), "{e}");
    }
}

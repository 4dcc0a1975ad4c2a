//! The count checks, which need more items than a test can allocate through the model. (What
//! the writer refuses is tested through the public API in `tests/wdata_hand.rs`.)

use super::encode::Encoder;

#[test]
fn counts_that_do_not_fit_their_field_are_errors() {
    let mut s = Encoder::new();
    let e = s.count_i32(1 << 31, "Trigger.evCnt");
    assert!(matches!(e, Err(e) if e.field() == Some("Trigger.evCnt")));
    assert!(s.count_i32((1 << 31) - 1, "Trigger.evCnt").is_ok());
    let e = s.u32_count(1 << 32, "CameraInfo.pvsBg");
    assert!(matches!(e, Err(e) if e.field() == Some("CameraInfo.pvsBg")));
    let n = s.u32_count((1 << 32) - 1, "CameraInfo.pvsBg");
    s.out.put(&n.expect("u32::MAX fits"));
    assert_eq!(
        s.out.as_slice(),
        [0xff, 0xff, 0xff, 0x7f, 0xff, 0xff, 0xff, 0xff]
    );
}

/// Every field name the version-gate table maps is one the writer's checks use, and its JSON
/// key is a key of the map's JSON (found in some fixture map, every gated field being present in
/// one of them).
#[cfg(feature = "serde")]
#[test]
fn gated_fields_map_to_json_keys_the_dump_has() {
    fn keys(v: &serde_json::Value, out: &mut std::collections::BTreeSet<String>) {
        match v {
            serde_json::Value::Object(m) => {
                for (k, v) in m {
                    out.insert(k.clone());
                    keys(v, out);
                }
            }
            serde_json::Value::Array(items) => items.iter().for_each(|v| keys(v, out)),
            _ => {}
        }
    }
    let mut all = std::collections::BTreeSet::new();
    for (_, map) in crate::synth::wdata::fixture_maps()
        .into_iter()
        .chain([("large", crate::synth::wdata_large::large_map(2))])
    {
        keys(&serde_json::to_value(&map).unwrap(), &mut all);
    }
    for (what, key) in super::GATED_KEYS {
        assert!(
            all.contains(key),
            "{what}: {key} is no key of the map's JSON"
        );
    }
}

/// A field the version cannot store in the second AniBG entry: the error's path is the section's
/// JSON key, the entry's index and the field's key; outside any list, the field's key alone.
#[test]
fn version_errors_name_the_entry_and_the_json_key() {
    let (name, mut map) = crate::synth::wdata::fixture_maps()
        .into_iter()
        .find(|(_, m)| m.anibg.len() >= 2 && m.anibg_version.unwrap_or(0) < 3)
        .expect("a fixture with two AniBG entries of a version without Shadow");
    map.anibg[1].shadow = Some(crate::wdata::model::Bool32(1));
    let e = map.to_bytes().unwrap_err();
    assert_eq!(
        (e.path(), e.field()),
        ("anibg[1].shadow", Some("AniBG.Shadow")),
        "{name}"
    );
    let text = e.to_string();
    assert!(
        text.starts_with("anibg[1].shadow (AniBG.Shadow): invalid value "),
        "{text}"
    );
    assert!(!text.contains("0x00000000"), "{text}");
    assert_eq!(map.to_bytes().unwrap_err(), e);

    let (_, mut map) = crate::synth::wdata::fixture_maps()
        .into_iter()
        .find(|(_, m)| m.version >= 2 && !m.gimmicks.is_empty())
        .expect("a fixture with gimmicks and an obstacle path");
    map.obstacle_path = None;
    let e = map.to_bytes().unwrap_err();
    assert_eq!(e.path(), "obstacle_path");
    assert!(
        e.to_string().starts_with("obstacle_path (ObstaclePath): "),
        "{e}"
    );
}

/// Event boxes are named by their group's place in the JSON and their index there; every group
/// a record type writes is a list of the map's JSON (in the fixture with every event box).
#[cfg(feature = "serde")]
#[test]
fn event_box_errors_name_the_group_and_the_index() {
    let (_, map) = crate::synth::wdata::fixture_maps()
        .into_iter()
        .find(|(n, _)| *n == "v22-all-event-boxes.wdata")
        .expect("the v22 fixture");
    let json = serde_json::to_value(&map).unwrap();
    use super::event_boxes::Record;
    use crate::wdata::model::*;
    for section in [
        CameraBox::SECTION,
        RespawnBox::SECTION,
        StartPointBox::SECTION,
        TriggerBox::SECTION,
        SkidBox::SECTION,
        EventHitBox::SECTION,
        NpcBox::SECTION,
        PortalBox::SECTION,
        SelectMapPortalBox::SECTION,
        InAreaBox::SECTION,
        EtcBox::SECTION,
        CameraBlockBox::SECTION,
        CutoffBox::SECTION,
        CameraTargetBox::SECTION,
        MiniMapIconBox::SECTION,
        EnvironmentReverbBox::SECTION,
        WaypointBox::SECTION,
        ObstacleBox::SECTION,
        AniBg::SECTION,
        ItemBox::SECTION,
        Gimmick::SECTION,
    ] {
        let pointer = format!("/{}", section.replace('.', "/"));
        assert!(
            json.pointer(&pointer)
                .is_some_and(serde_json::Value::is_array),
            "{section}"
        );
    }
    let mut edited = map.clone();
    let boxes = edited.event_boxes.as_mut().unwrap();
    let last = boxes.camera.len() - 1;
    boxes.camera[last].infos[0].build_pvs = None;
    let e = edited.to_bytes().unwrap_err();
    assert_eq!(e.path(), format!("event_boxes.CameraBox[{last}].build_pvs"));
    // A flat record (declared by the table) names its group too: it used to name only
    // `event_boxes`, the flat types being missing from a hand-kept list of groups.
    let mut edited = map.clone();
    let boxes = edited.event_boxes.as_mut().unwrap();
    boxes.respawn[0].enemy_name = WString {
        units: vec![0x41; 1 << 16],
    };
    let e = edited.to_bytes().unwrap_err();
    assert_eq!(e.path(), "event_boxes.RespawnBox[0]");
    assert_eq!(e.field(), Some("RespawnBox.EnemyName"));
}

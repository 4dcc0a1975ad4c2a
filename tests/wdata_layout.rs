//! `.wdata` maps whose EventBox groups another writer laid out (issue #29): the index stores each
//! group's offset, so the groups may lie in any order, and an empty group's offset may be its
//! position (the game's writer, and this crate's) or 0. A helper here lays the groups of the
//! committed fixtures out again — in reverse, or with offset 0 for the empty groups — by moving
//! their bytes and rewriting the index by hand (no writer code); each such map must read, and
//! its owned model must pack back to the very same bytes, and, edited, change only what was
//! edited (and the offsets that follow from it).
#![cfg(all(feature = "wdata", feature = "write"))]

use gamebin::wdata::WdataView;
use gamebin::wdata::model::{EventBoxLayout, NpcBox, RawGroup, WString, WdataModel};

fn le_i32(bytes: &[u8], at: usize) -> i32 {
    i32::from_le_bytes(bytes[at..at + 4].try_into().unwrap())
}

fn put_i32(bytes: &mut [u8], at: usize, v: i32) {
    bytes[at..at + 4].copy_from_slice(&v.to_le_bytes());
}

/// How [`relaid`] lays the groups out.
#[derive(Clone, Copy, Debug)]
enum Order {
    /// Type order, as this crate's writer does.
    Types,
    /// Highest type first.
    Reverse,
    /// Type order turned by a third of the entries (a middle group first).
    Rotated,
}

impl Order {
    fn types(self, n: usize) -> Vec<usize> {
        match self {
            Order::Types => (0..n).collect(),
            Order::Reverse => (0..n).rev().collect(),
            Order::Rotated => (0..n).map(|i| (i + n / 3) % n).collect(),
        }
    }
}

/// `data` with its EventBox groups laid out in `order`, each empty group's offset its position
/// or, with `zero`, 0. The groups' bytes are moved as they are: a non-empty group runs from its
/// offset to the next non-empty group's offset (to AniBG for the last one).
fn relaid(data: &[u8], order: Order, zero: bool) -> Vec<u8> {
    let view = WdataView::from_bytes(data).unwrap();
    let index_at = view.event_box_index_offset().expect("main version >= 7");
    let n = usize::try_from(le_i32(data, index_at - 4)).unwrap();
    let index_end = index_at + 8 * n;
    let section_end = view.sections().anibg;
    let entries: Vec<(usize, usize)> = (0..n)
        .map(|i| {
            let at = index_at + 8 * i;
            (le_i32(data, at) as usize, le_i32(data, at + 4) as usize)
        })
        .collect();
    let mut starts: Vec<usize> = entries.iter().filter(|e| e.1 > 0).map(|e| e.0).collect();
    starts.push(section_end);
    starts.sort_unstable();
    let mut out = data[..index_end].to_vec();
    for ty in order.types(n) {
        let (offset, count) = entries[ty];
        let at = out.len() as i32;
        if count == 0 {
            put_i32(&mut out, index_at + 8 * ty, if zero { 0 } else { at });
            continue;
        }
        let end = starts.iter().copied().find(|&s| s > offset).unwrap();
        out.extend_from_slice(&data[offset..end]);
        put_i32(&mut out, index_at + 8 * ty, at);
    }
    out.extend_from_slice(&data[section_end..]);
    out
}

/// The committed fixtures that have EventBoxes (main version >= 7).
fn maps() -> Vec<(&'static str, Vec<u8>)> {
    gamebin::synth::wdata::fixtures()
        .unwrap()
        .into_iter()
        .filter(|(_, data)| {
            WdataView::from_bytes(data)
                .unwrap()
                .event_box_index_offset()
                .is_some()
        })
        .collect()
}

/// The committed fixture `name`.
fn fixture(name: &str) -> Vec<u8> {
    maps().into_iter().find(|(n, _)| *n == name).unwrap().1
}

const LAYOUTS: [(Order, bool); 5] = [
    (Order::Reverse, false),
    (Order::Types, true),
    (Order::Reverse, true),
    (Order::Rotated, false),
    (Order::Rotated, true),
];

fn model(data: &[u8]) -> WdataModel {
    WdataModel::from_view(&WdataView::from_bytes(data).unwrap()).unwrap()
}

/// The model with the groups' layout forgotten (what it holds but for the layout).
fn content(mut map: WdataModel) -> WdataModel {
    if let Some(boxes) = &mut map.event_boxes {
        boxes.layout = EventBoxLayout::default();
    }
    map
}

#[test]
fn maps_laid_out_otherwise_read_and_pack_back_byte_for_byte() {
    let mut laid_out_otherwise = 0;
    for (name, data) in maps() {
        let original = model(&data);
        assert!(original.event_boxes.as_ref().unwrap().layout.is_default());
        for (order, zero) in LAYOUTS {
            let other = relaid(&data, order, zero);
            let what = format!("{name} laid out {order:?}, zero offsets {zero}");
            let view = WdataView::from_bytes(&other).unwrap_or_else(|e| panic!("{what}: {e}"));
            assert_eq!(
                view.event_box_count(),
                WdataView::from_bytes(&data).unwrap().event_box_count()
            );
            let map = WdataModel::from_view(&view).unwrap();
            // The same boxes, in the same groups.
            assert!(content(map.clone()) == original, "{what}: the boxes differ");
            let layout = &map.event_boxes.as_ref().unwrap().layout;
            assert_eq!(layout.is_default(), other == data, "{what}: {layout:?}");
            if other != data {
                laid_out_otherwise += 1;
            }
            assert!(
                map.to_bytes().unwrap() == other,
                "{what} does not pack back"
            );
            #[cfg(feature = "serde")]
            {
                // Through the JSON form, as `dump --json` then `wdata pack` go.
                let json = serde_json::to_string(&map).unwrap();
                assert_eq!(json.contains("\"layout\""), other != data, "{what}");
                let back = WdataModel::from_dump_json(&json).unwrap();
                assert_eq!(
                    back.event_boxes.as_ref().map(|b| &b.layout),
                    Some(layout),
                    "{what}: the JSON form loses the layout"
                );
                assert!(back.to_bytes().unwrap() == other, "{what}: JSON → bytes");
            }
        }
    }
    assert!(laid_out_otherwise > 50, "{laid_out_otherwise}");
}

/// The layout of a reversed map, as read: every entry in reverse, save that the empty groups at
/// one offset come before the group that starts there, in type order.
#[test]
fn the_order_read_is_where_the_groups_lie() {
    let data = fixture("v08-ev2.wdata");
    // Types 0, 13 and 17 have boxes. Reversed: empty 18, then 17; empty 16 to 14, then 13; empty
    // 12 to 1, then 0 — each run of empty groups in type order before the group that follows.
    let map = model(&relaid(&data, Order::Reverse, false));
    let layout = &map.event_boxes.as_ref().unwrap().layout;
    let want: Vec<u32> = [
        18, 17, 14, 15, 16, 13, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 0,
    ]
    .into();
    assert_eq!(layout.order, want);
    assert!(layout.zero_offsets.is_empty());
    let map = model(&relaid(&data, Order::Types, true));
    let layout = &map.event_boxes.as_ref().unwrap().layout;
    assert!(
        layout.order.is_empty(),
        "type order is the default: {layout:?}"
    );
    let empty: Vec<u32> = (0..19).filter(|t| ![0, 13, 17].contains(t)).collect();
    assert_eq!(layout.zero_offsets, empty);
}

/// Bytes of `a` and `b` (of one length) that differ.
fn differing(a: &[u8], b: &[u8]) -> Vec<usize> {
    assert_eq!(a.len(), b.len());
    (0..a.len()).filter(|&i| a[i] != b[i]).collect()
}

#[test]
fn an_edited_map_laid_out_otherwise_changes_only_what_was_edited() {
    let data = fixture("v22-all-event-boxes.wdata");
    for (order, zero) in LAYOUTS {
        let other = relaid(&data, order, zero);
        let map = model(&other);

        // A number: its four bytes change, nothing else.
        let mut edited = map.clone();
        let npc = &mut edited.event_boxes.as_mut().unwrap().npc[0];
        let id = npc.id;
        npc.id = id + 1000;
        let bytes = edited.to_bytes().unwrap();
        let changed = differing(&other, &bytes);
        let (first, last) = (changed[0], changed[changed.len() - 1]);
        assert!(last - first < 4, "{order:?} {zero}: {changed:?}");
        // The id is the stored i32 that now reads 1000 more.
        let at = (last.saturating_sub(3)..=first)
            .find(|&at| le_i32(&bytes, at) == id + 1000 && le_i32(&other, at) == id);
        assert!(at.is_some(), "{order:?} {zero}: {changed:?}");

        // A name made longer: the group grows, the groups after it in the file move, and the
        // index follows the kept order; the rest is the map as it was.
        let mut edited = map.clone();
        let portal = &mut edited.event_boxes.as_mut().unwrap().portal[0];
        portal.obb.name = WString::new("a much longer portal name");
        let bytes = edited.to_bytes().unwrap();
        let view = WdataView::from_bytes(&bytes).unwrap();
        let back = WdataModel::from_view(&view).unwrap();
        assert!(
            back == edited,
            "{order:?} {zero}: the edit reads back with its layout"
        );
        // The same edit on the map in this crate's layout, laid out as the other writer does.
        let plain = content(edited).to_bytes().unwrap();
        assert!(relaid(&plain, order, zero) == bytes, "{order:?} {zero}");
    }
}

#[test]
fn boxes_added_to_a_group_stored_with_offset_0_get_its_position() {
    let data = fixture("v08-ev2.wdata");
    let other = relaid(&data, Order::Reverse, true);
    let mut map = model(&other);
    let boxes = map.event_boxes.as_mut().unwrap();
    assert!(boxes.layout.zero_offsets.contains(&6));
    boxes.npc.push(NpcBox {
        npc_name: WString::new("Guard"),
        id: 7,
        ..NpcBox::default()
    });
    let bytes = map.to_bytes().unwrap();
    let back = model(&bytes);
    let layout = &back.event_boxes.as_ref().unwrap().layout;
    assert!(!layout.zero_offsets.contains(&6));
    assert_eq!(back.event_boxes.as_ref().unwrap().npc.len(), 1);
    assert!(content(back) == content(map));
}

/// A group of unknown layout (type 14) needs a later group whose offset bounds it.
#[test]
fn an_unknown_group_moves_with_its_bytes_and_must_stay_bounded() {
    let data = fixture("v08-ev2.wdata");
    let mut map = model(&data);
    map.event_boxes.as_mut().unwrap().unused = RawGroup {
        count: 1,
        bytes: vec![0xab; 60],
    };
    let plain = map.to_bytes().unwrap();
    for (order, zero) in LAYOUTS {
        let other = relaid(&plain, order, zero);
        let read = model(&other);
        assert_eq!(read.event_boxes.as_ref().unwrap().unused.bytes, [0xab; 60]);
        assert!(read.to_bytes().unwrap() == other, "{order:?} {zero}");
    }
    // Type 14 last in the file, the empty groups after it stored with offset 0: nothing bounds it.
    let boxes = map.event_boxes.as_mut().unwrap();
    boxes.layout.order = (0..19).filter(|&t| t != 14).chain([14]).collect();
    assert!(map.to_bytes().is_err());
    let boxes = map.event_boxes.as_mut().unwrap();
    boxes.layout.order = (0..19)
        .filter(|&t| t != 14 && t != 5)
        .chain([14, 5])
        .collect();
    map.to_bytes().unwrap();
    map.event_boxes.as_mut().unwrap().layout.zero_offsets = vec![5];
    let e = map.to_bytes().unwrap_err();
    assert_eq!(e.path(), "event_boxes.type_count");
    assert!(e.to_string().contains("nothing marks where it ends"), "{e}");
}

#[test]
fn impossible_layouts_are_refused_naming_the_entry() {
    let data = fixture("v08-ev2.wdata");
    let map = model(&relaid(&data, Order::Reverse, true));
    let refused = |edit: &dyn Fn(&mut EventBoxLayout), path: &str, says: &str| {
        let mut bad = map.clone();
        edit(&mut bad.event_boxes.as_mut().unwrap().layout);
        let e = bad.to_bytes().unwrap_err();
        assert_eq!(e.path(), path, "{e}");
        assert!(e.to_string().contains(says), "{e}");
    };
    refused(
        &|l| l.order[3] = l.order[2],
        "event_boxes.layout.order[3]",
        "named twice",
    );
    refused(
        &|l| l.order[0] = 19,
        "event_boxes.layout.order[0]",
        "not an index entry",
    );
    refused(
        &|l| {
            l.order.pop();
        },
        "event_boxes.layout.order",
        "leaves out an index entry",
    );
    refused(
        &|l| l.zero_offsets.push(l.zero_offsets[0]),
        "event_boxes.layout.zero_offsets[16]",
        "named twice",
    );
    refused(
        &|l| l.zero_offsets[1] = 40,
        "event_boxes.layout.zero_offsets[1]",
        "not an index entry",
    );
    // Fewer index entries than the order names.
    let mut fewer = map.clone();
    let boxes = fewer.event_boxes.as_mut().unwrap();
    boxes.type_count = 18;
    boxes.obstacle.clear();
    let e = fewer.to_bytes().unwrap_err();
    assert!(e.path().starts_with("event_boxes.layout.order["), "{e}");
}

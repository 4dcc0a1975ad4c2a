//! CraftStudio `Project.dat`: the writer's projects read back field by field, byte-exact round
//! trips, the tree (parents, children, dangling parents, paths), trailing bytes, and malformed
//! inputs giving precise errors.

use gamebin::craftstudio::model::{EntrySpec, ProjectModel};
use gamebin::craftstudio::raw::ROOT_PARENT_ID;
use gamebin::craftstudio::{
    ControlSource, ControlType, EntryType, Key, MemberRole, MembershipPolicy, Parent, PathStart,
    ProjectType, ProjectView,
};
use gamebin::synth::craftstudio as write;
use gamebin::{ErrorKind, Format, WriteErrorKind};

fn round_trip(bytes: &[u8]) {
    let view = ProjectView::from_bytes(bytes).unwrap();
    assert_eq!(
        ProjectModel::from_view(&view).unwrap().to_bytes().unwrap(),
        bytes
    );
}

#[test]
fn every_fixture_round_trips_and_is_detected() {
    for (name, bytes) in write::fixtures().unwrap() {
        round_trip(&bytes);
        assert_eq!(
            gamebin::detect(&bytes),
            Some(Format::CraftStudioProject),
            "{name}"
        );
        ProjectView::from_bytes(&bytes).unwrap().validate().unwrap();
    }
}

#[test]
fn header_and_controls_read_back() {
    let p = write::every_type();
    let bytes = p.to_bytes().unwrap();
    let view = ProjectView::from_bytes(&bytes).unwrap();
    assert_eq!(view.format_version(), 9);
    assert_eq!(view.project_type(), ProjectType::Game);
    assert_eq!(view.name(), "Every type");
    assert_eq!(view.description(), "Un projet d'essai: é, è, ç");
    assert_eq!(view.startup_scene_id(), 21);
    assert_eq!(view.script_api_version(), 5);
    assert_eq!(view.membership_policy(), MembershipPolicy::Open);
    assert_eq!(view.default_member_role(), MemberRole::Moderator);
    assert_eq!(view.next_control_id(), 4);
    assert_eq!(view.control_count(), 4);
    let controls: Vec<_> = view.controls().collect::<Result<_, _>>().unwrap();
    assert_eq!(controls.len(), 4);
    assert_eq!(controls[1].name(), "Défense");
    assert_eq!(controls[1].positive_key(), Key(69));
    assert_eq!(controls[1].positive_key().name(), Some("E"));
    assert_eq!(controls[2].source(), ControlSource::Mouse);
    assert_eq!(controls[2].positive_button(), 6);
    let axis = controls[3];
    assert_eq!(axis.control_type(), ControlType::Axis);
    assert_eq!(axis.positive_key().name(), Some("Right"));
    assert_eq!(axis.negative_key().name(), Some("Left"));
    assert_eq!(
        (
            axis.dead_zone(),
            axis.sensitivity(),
            axis.gravity(),
            axis.snap_to_zero()
        ),
        (0.25, 3.0, 3.5, false)
    );
    assert!(view.trailing_bytes().is_empty());
}

#[test]
fn entries_of_every_type() {
    let p = write::every_type();
    let bytes = p.to_bytes().unwrap();
    let view = ProjectView::from_bytes(&bytes).unwrap();
    assert_eq!(view.entry_count(), p.entries.len());
    assert_eq!(view.entries().count(), p.entries.len());
    for (entry, spec) in view.entries().zip(&p.entries) {
        let entry = entry.unwrap();
        assert_eq!(entry.id(), spec.id);
        assert_eq!(entry.parent_id(), spec.parent_id);
        assert_eq!(entry.name(), spec.name);
        assert_eq!(entry.is_folder(), spec.is_folder);
        assert_eq!(entry.entry_type().to_u8(), spec.entry_type);
        assert_eq!(entry.is_locked(), spec.locked);
        assert_eq!(entry.is_trashed(), spec.trashed && !spec.is_folder);
        let revisions: Vec<_> = entry
            .revisions()
            .map(|r| r.map(|r| (r.id, r.name.to_string())))
            .collect::<Result<_, _>>()
            .unwrap();
        assert_eq!(revisions, spec.revisions);
    }
    let types: Vec<EntryType> = view
        .entries()
        .map(Result::unwrap)
        .filter(|e| e.is_root())
        .map(|e| e.entry_type())
        .collect();
    assert_eq!(types.len(), 10);
    assert!(types.contains(&EntryType::Unknown(5)));
    assert!(types.contains(&EntryType::Font));
    let mut path = String::new();
    let sword = view.entry_by_id(3).unwrap();
    assert_eq!(view.path_into(&sword, &mut path).unwrap(), PathStart::Root);
    assert_eq!(path, "Models/Héros/Épée");
    let index = view.index();
    assert_eq!(index.path_into(&sword, &mut path).unwrap(), PathStart::Root);
    assert_eq!(path, "Models/Héros/Épée");
    let models: Vec<_> = index.children(0).map(|e| e.unwrap().name()).collect();
    assert_eq!(models, ["Models asset", "Héros"]);
    assert_eq!(view.children(ROOT_PARENT_ID).count(), 10);
    assert_eq!(index.children(ROOT_PARENT_ID).count(), 10);
}

#[test]
fn dangling_parents_are_reported_not_fatal() {
    let bytes = write::dangling_parents().to_bytes().unwrap();
    let view = ProjectView::from_bytes(&bytes).unwrap();
    let dangling: Vec<u16> = view.dangling().map(|e| e.unwrap().id()).collect();
    assert_eq!(dangling, [5, 7]);
    let index = view.index();
    assert_eq!(
        index
            .dangling()
            .map(|e| e.unwrap().id())
            .collect::<Vec<_>>(),
        [5, 7]
    );
    let lost = view.entry_by_id(5).unwrap();
    assert!(matches!(view.parent(&lost), Parent::Dangling(40)));
    let mut path = String::new();
    assert_eq!(
        view.path_into(&lost, &mut path).unwrap(),
        PathStart::Dangling(40)
    );
    assert_eq!(path, "Old script");
    // A child listed before its parent, which is listed before its own parent.
    let child = view.entry_by_id(6).unwrap();
    assert_eq!(view.path_into(&child, &mut path).unwrap(), PathStart::Root);
    assert_eq!(path, "Outer/Inner/Child before parent");
    assert!(matches!(view.parent(&child), Parent::Entry(p) if p.id() == 8));
}

#[test]
fn a_loop_of_parents_is_an_error_at_the_entry() {
    let mut p = ProjectModel::new("Loop");
    p.entries.push(EntrySpec::folder(1, Some(2), "A", 0));
    p.entries.push(EntrySpec::folder(2, Some(1), "B", 0));
    let bytes = p.to_bytes().unwrap();
    let view = ProjectView::from_bytes(&bytes).unwrap();
    let a = view.entries().next().unwrap().unwrap();
    let e = view.path_into(&a, &mut String::new()).unwrap_err();
    assert_eq!(e.offset(), a.offset() as u64);
    assert_eq!(e.what(), "ProjectEntry.parent_id");
    assert!(view.validate().is_err());
}

#[test]
fn trailing_bytes_that_look_like_entries_are_not_read() {
    let bytes = write::trailing_entries().unwrap();
    let view = ProjectView::from_bytes(&bytes).unwrap();
    assert_eq!(view.entry_count(), 3);
    assert_eq!(view.entries().count(), 3);
    let names: Vec<_> = view.entries().map(|e| e.unwrap().name()).collect();
    assert_eq!(names, ["Scripts", "Game", "Menu"]);
    // Hand count: "Removed" asset = 5 + 1 + 7 + 2 + 5 = 20 bytes, "Gone" folder = 5 + 1 + 4 + 2
    // = 12, then 9 bytes of an entry cut mid-name.
    assert_eq!(view.trailing_bytes().len(), 20 + 12 + 9);
    assert_eq!(view.trailing_offset() + 41, bytes.len());
    // The trailing bytes start with a whole entry, as in real files.
    assert_eq!(view.trailing_bytes()[0], 0);
    assert_eq!(&view.trailing_bytes()[6..13], b"Removed");
}

#[test]
fn long_strings_use_multi_byte_lengths() {
    let p = write::long_strings();
    let bytes = p.to_bytes().unwrap();
    // 200 = 0xc8 → [0xc8, 0x01]; 16,510 → [0xfe, 0x80, 0x01].
    assert_eq!(&bytes[2..4], &[0xc8, 0x01]);
    let view = ProjectView::from_bytes(&bytes).unwrap();
    assert_eq!(view.name().len(), 200);
    assert_eq!(view.description().len(), 16_510);
    let desc_at = 2 + 2 + 200 + 6;
    assert_eq!(&bytes[desc_at..desc_at + 3], &[0xfe, 0x80, 0x01]);
    let control = view.controls().next().unwrap().unwrap();
    assert_eq!(control.name().chars().count(), 100);
    let entry = view.entries().next().unwrap().unwrap();
    assert_eq!(entry.revisions().next().unwrap().unwrap().name.len(), 300);
}

#[test]
fn malformed_strings_fail_with_their_offset() {
    let good = write::example_file();
    // The name's length at offset 2: an over-long varint.
    let mut bad = good.clone();
    bad.splice(2..3, [0xff, 0xff, 0xff, 0xff, 0xff, 0x01]);
    let e = ProjectView::from_bytes(&bad).unwrap_err();
    assert_eq!((e.offset(), e.what()), (2, "Project.name"));
    assert!(matches!(e.kind(), ErrorKind::InvalidValue { .. }));
    // A fifth varint byte above 0x0f overflows 32 bits.
    let mut bad = good.clone();
    bad.splice(2..3, [0x80, 0x80, 0x80, 0x80, 0x10]);
    assert!(matches!(
        ProjectView::from_bytes(&bad).unwrap_err().kind(),
        ErrorKind::InvalidValue { value: 0x10, .. }
    ));
    // Invalid UTF-8 in the name "Example": the third byte.
    let mut bad = good.clone();
    bad[5] = 0xc3;
    let e = ProjectView::from_bytes(&bad).unwrap_err();
    assert_eq!((e.offset(), e.what()), (5, "Project.name"));
    // A length running past the end.
    let mut bad = good.clone();
    bad[2] = 0x7f;
    assert!(matches!(
        ProjectView::from_bytes(&bad).unwrap_err().kind(),
        ErrorKind::Truncated { needed: 0x7f, .. }
    ));
    // An unknown format version.
    let mut bad = good.clone();
    bad[0] = 8;
    assert_eq!(
        ProjectView::from_bytes(&bad).unwrap_err().kind(),
        ErrorKind::UnsupportedVersion { found: 8 }
    );
}

#[test]
fn truncation_is_an_error_at_every_length() {
    let good = write::every_type().to_bytes().unwrap();
    for cut in 0..good.len() {
        let e = ProjectView::from_bytes(&good[..cut]).unwrap_err();
        assert!(e.offset() <= cut as u64, "cut {cut}: {e}");
        assert!(gamebin::detect(&good[..cut]).is_none());
    }
}

#[test]
fn unknown_enum_values_are_kept() {
    let mut p = ProjectModel::new("Odd");
    p.project_type = 7;
    p.membership_policy = 9;
    p.default_member_role = 0;
    p.entries.push(EntrySpec::asset(0, None, "x", 200));
    let bytes = p.to_bytes().unwrap();
    let view = ProjectView::from_bytes(&bytes).unwrap();
    assert_eq!(view.project_type(), ProjectType::Unknown(7));
    assert_eq!(view.membership_policy(), MembershipPolicy::Unknown(9));
    assert_eq!(view.default_member_role(), MemberRole::Unknown(0));
    assert_eq!(
        view.entries().next().unwrap().unwrap().entry_type(),
        EntryType::Unknown(200)
    );
    // Readable, but not what detection calls a project.
    assert_eq!(gamebin::detect(&bytes), None);
}

#[test]
fn views_are_copy_send_sync() {
    fn check<T: Copy + Send + Sync>() {}
    check::<ProjectView<'static>>();
    check::<gamebin::craftstudio::Entry<'static>>();
}

#[test]
fn a_table_too_long_for_its_u16_count_is_an_error_naming_it() {
    let mut p = ProjectModel::new("Big");
    p.entries = vec![EntrySpec::folder(0, None, "f", 7); 65_536];
    let e = p.to_bytes().unwrap_err();
    assert_eq!((e.path(), e.field()), ("entries", Some("Project.entries")));
    assert!(matches!(
        e.kind(),
        WriteErrorKind::InvalidValue { value: 65_536, .. }
    ));
    p.entries.truncate(65_535);
    assert!(p.to_bytes().is_ok());

    let mut p = ProjectModel::new("Many revisions");
    let mut asset = EntrySpec::asset(0, None, "a", 7);
    asset.revisions = vec![(0, String::new()); 65_536];
    p.entries.push(asset);
    let e = p.to_bytes().unwrap_err();
    assert_eq!(
        (e.path(), e.field()),
        ("entries[0].revisions", Some("ProjectEntry.revisions"))
    );
}

#[test]
fn string_lengths_are_net_7_bit_integers() {
    // 127 fits one byte; 128 takes two (0x80 | 0, 1); 16,384 takes three (0x80, 0x80, 1).
    for (len, prefix) in [
        (0usize, &[0x00][..]),
        (127, &[0x7f]),
        (128, &[0x80, 0x01]),
        (300, &[0xac, 0x02]),
        (16_384, &[0x80, 0x80, 0x01]),
    ] {
        let bytes = ProjectModel::new(&"n".repeat(len)).to_bytes().unwrap();
        assert_eq!(&bytes[2..2 + prefix.len()], prefix, "length {len}");
        assert_eq!(ProjectView::from_bytes(&bytes).unwrap().name().len(), len);
    }
}

// serde_json is a dev-dependency; the owned models derive serde with `serde`.
#[cfg(feature = "serde")]
#[test]
fn the_owned_project_round_trips_through_serde() {
    for (name, bytes) in write::fixtures().unwrap() {
        let project = ProjectModel::from_view(&ProjectView::from_bytes(&bytes).unwrap()).unwrap();
        let back: ProjectModel =
            serde_json::from_str(&serde_json::to_string(&project).unwrap()).unwrap();
        assert_eq!(back, project, "{name}");
        assert_eq!(back.to_bytes().unwrap(), bytes, "{name}");
    }
}

/// Every entry of the tree and its subtrees, depth first.
fn flatten(entries: &[gamebin::craftstudio::model::TreeEntry], out: &mut Vec<u16>) {
    for e in entries {
        out.push(e.id);
        flatten(&e.children, out);
    }
}

#[test]
fn the_project_tree_places_every_entry_once() {
    for (name, bytes) in write::fixtures().unwrap() {
        let view = ProjectView::from_bytes(&bytes).unwrap();
        let tree = gamebin::craftstudio::model::ProjectTree::from_view(&view);
        let mut ids = Vec::new();
        flatten(&tree.tree, &mut ids);
        for d in &tree.dangling {
            flatten(&d.entries, &mut ids);
        }
        ids.extend(&tree.unreachable);
        let mut want: Vec<u16> = view.entries().map(|e| e.unwrap().id()).collect();
        ids.sort_unstable();
        want.sort_unstable();
        assert_eq!(ids, want, "{name}");
        assert_eq!(tree.entry_count, view.entry_count(), "{name}");
    }
    // The writer's dangling project: children under their folders, trashed assets under the
    // parent ids that no entry has (40 and 41).
    let tree = gamebin::craftstudio::model::ProjectTree::from_view(
        &ProjectView::from_bytes(&write::dangling_parents().to_bytes().unwrap()).unwrap(),
    );
    let outer = &tree.tree[0];
    assert_eq!(
        (outer.name.as_str(), outer.children[0].name.as_str()),
        ("Outer", "Inner")
    );
    assert_eq!(outer.children[0].children[0].name, "Child before parent");
    let parents: Vec<u16> = tree.dangling.iter().map(|d| d.parent_id).collect();
    assert_eq!(parents, [40, 41]);
    assert!(tree.unreachable.is_empty());
    assert_eq!(
        tree.header.project_type,
        gamebin::craftstudio::model::Named::Name("Game")
    );
}

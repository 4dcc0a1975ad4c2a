//! The projects of the committed fixtures (`fixtures/craftstudio-project/`) and of the docs'
//! examples, made through the owned model [`ProjectModel`].

use crate::craftstudio::model::{ControlSpec, EntrySpec, ProjectModel};
use crate::write_error::WriteResult as Result;

/// A small project: a "Jump" control on Space, a "Characters" folder holding the "Player" model.
pub fn example_file() -> Vec<u8> {
    let mut p = ProjectModel::new("Example");
    p.controls.push(ControlSpec::key(0, "Jump", 32));
    p.next_control_id = 1;
    p.entries.push(EntrySpec::folder(0, None, "Characters", 0));
    p.entries
        .push(EntrySpec::asset(1, Some(0), "Player", 0).revision(0, "2014-03-01 12:00:00"));
    p.next_entry_id = 2;
    p.to_bytes().unwrap_or_default()
}

/// Entry types 0–9 (5 is unknown to CraftStudio's wiki but kept as a number).
const ALL_TYPES: [(u8, &str); 10] = [
    (0, "Models"),
    (1, "Maps"),
    (2, "Scenes"),
    (3, "TileSets"),
    (4, "Documents"),
    (5, "Unknown5"),
    (6, "ModelAnimations"),
    (7, "Scripts"),
    (8, "Sounds"),
    (9, "Fonts"),
];

/// The committed fixtures under `fixtures/craftstudio-project/`.
pub fn fixtures() -> Result<Vec<(&'static str, Vec<u8>)>> {
    Ok(vec![
        ("every_type.Project.dat", every_type().to_bytes()?),
        (
            "dangling_parents.Project.dat",
            dangling_parents().to_bytes()?,
        ),
        ("trailing_entries.Project.dat", trailing_entries()?),
        ("long_strings.Project.dat", long_strings().to_bytes()?),
    ])
}

/// A folder and an asset of every entry type (one locked, one trashed, several with revisions),
/// keyboard, mouse and axis controls, and non-ASCII names.
pub fn every_type() -> ProjectModel {
    let mut p = ProjectModel::new("Every type");
    p.description = "Un projet d'essai: é, è, ç".to_string();
    p.startup_scene_id = 21;
    p.membership_policy = 2;
    p.default_member_role = 3;
    p.controls.push(ControlSpec::key(0, "Sauter", 32));
    p.controls.push(ControlSpec::key(1, "Défense", 69));
    let mut zoom = ControlSpec::key(2, "Zoom", 0);
    zoom.settings.control_source = 1;
    zoom.settings.positive_button = 6;
    p.controls.push(zoom);
    let mut horizontal = ControlSpec::key(3, "Horizontal", 39);
    let axis = &mut horizontal.settings;
    axis.control_type = 0;
    axis.negative_key = 37;
    axis.dead_zone = 0.25.into();
    axis.sensitivity = 3.0.into();
    axis.gravity = 3.5.into();
    axis.snap_to_zero = 0;
    p.controls.push(horizontal);
    p.next_control_id = 4;
    for (i, (ty, folder)) in (0u16..).zip(ALL_TYPES) {
        let folder_id = 10 * i;
        p.entries
            .push(EntrySpec::folder(folder_id, None, folder, ty));
        let mut asset = EntrySpec::asset(
            folder_id + 1,
            Some(folder_id),
            &format!("{folder} asset"),
            ty,
        );
        for r in 0..(i % 3) {
            asset = asset.revision(r, &format!("2014-0{}-1{r} 10:2{r}:00", 1 + i % 9));
        }
        asset.locked = i % 4 == 1;
        asset.trashed = i == 7;
        p.entries.push(asset);
    }
    p.entries.push(EntrySpec::folder(2, Some(0), "Héros", 0));
    p.entries
        .push(EntrySpec::asset(3, Some(2), "Épée", 0).revision(0, "2014-05-06 07:08:09"));
    p.next_entry_id = 91;
    p
}

/// Trashed assets whose folders were deleted, and children listed before their parents.
pub fn dangling_parents() -> ProjectModel {
    let mut p = ProjectModel::new("Dangling");
    let mut lost =
        EntrySpec::asset(5, Some(40), "Old script", 7).revision(0, "2013-12-24 18:00:00");
    lost.trashed = true;
    p.entries.push(lost);
    p.entries
        .push(EntrySpec::asset(6, Some(8), "Child before parent", 7));
    p.entries.push(EntrySpec::folder(8, Some(9), "Inner", 7));
    p.entries.push(EntrySpec::folder(9, None, "Outer", 7));
    let mut lost_model = EntrySpec::asset(7, Some(41), "Old model", 0);
    lost_model.trashed = true;
    p.entries.push(lost_model);
    p.next_entry_id = 42;
    p
}

/// Three entries, then the bytes of two more whole entries and one cut mid-name: what an older,
/// longer save leaves behind. A reader must stop after `entry_count`.
pub fn trailing_entries() -> Result<Vec<u8>> {
    let mut p = ProjectModel::new("Trailing");
    p.entries.push(EntrySpec::folder(0, None, "Scripts", 7));
    p.entries
        .push(EntrySpec::asset(1, Some(0), "Game", 7).revision(0, "2014-01-01 00:00:00"));
    p.entries.push(EntrySpec::asset(2, Some(0), "Menu", 7));
    p.next_entry_id = 5;
    let mut older = ProjectModel::new("Trailing");
    older
        .entries
        .push(EntrySpec::asset(3, Some(0), "Removed", 7));
    older.entries.push(EntrySpec::folder(4, None, "Gone", 0));
    let old = older.to_bytes()?;
    // The two old entries sit after the old file's (identical) header and counts.
    let header = ProjectModel::new("Trailing").to_bytes()?.len();
    p.trailing = old.get(header..).unwrap_or_default().to_vec();
    p.trailing
        .extend_from_slice(&[0, 4, 0, 0xff, 0xff, 20, b'C', b'u', b't']);
    p.to_bytes()
}

/// Strings whose lengths take two and three varint bytes (a 200-byte name, a 16,500-byte
/// description, a 300-byte revision name).
pub fn long_strings() -> ProjectModel {
    let mut p = ProjectModel::new(&"N".repeat(200));
    p.description = "Description. ".repeat(1270);
    p.controls.push(ControlSpec::key(0, &"é".repeat(100), 13));
    p.next_control_id = 1;
    p.entries.push(
        EntrySpec::asset(0, None, &"long asset name ".repeat(9), 4).revision(0, &"t".repeat(300)),
    );
    p.next_entry_id = 1;
    p
}

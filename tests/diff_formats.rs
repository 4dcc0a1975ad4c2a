//! `diff` of `.geometry`, WWD, `.wdata` and Project.dat files made by the writers with known
//! changes: each test states the changes it makes and checks that they are exactly what the
//! comparison reports (paths, kinds and values), and that a file compared with itself is equal.

use gamebin::craftstudio::ProjectView;
use gamebin::diff::{ChangeKind, Report, Status};
use gamebin::wdata::WdataView;
use gamebin::wows::assets::AssetsDb;
use gamebin::wows::geometry::GeometryView;
use gamebin::write::craftstudio::ProjectFile;
use gamebin::write::wdata::{self, WdataMap};
use gamebin::write::wwd::Level;
use gamebin::wwd::WwdView;

fn summary(report: &Report) -> Vec<(ChangeKind, String, Option<String>, Option<String>)> {
    report
        .changes
        .iter()
        .map(|c| (c.kind, c.path.clone(), c.before.clone(), c.after.clone()))
        .collect()
}

fn changed(
    path: &str,
    before: &str,
    after: &str,
) -> (ChangeKind, String, Option<String>, Option<String>) {
    (
        ChangeKind::Changed,
        path.to_string(),
        Some(before.to_string()),
        Some(after.to_string()),
    )
}

#[test]
fn project_entries_by_path() {
    let bytes = gamebin::write::craftstudio::example_file();
    let view = ProjectView::from_bytes(&bytes).unwrap();
    assert_eq!(
        gamebin::diff::craftstudio::files(&view, &view).status(),
        Status::Equal
    );

    let mut project = ProjectFile::from_view(&view).unwrap();
    // Lock the first asset (not a folder), and change the project's description.
    let asset = project
        .entries
        .iter_mut()
        .find(|e| !e.is_folder && !e.locked)
        .expect("an unlocked asset");
    asset.locked = true;
    let asset_id = asset.id;
    project.description = "edited".into();
    let edited = project.to_bytes().unwrap();
    let edited_view = ProjectView::from_bytes(&edited).unwrap();
    let report = gamebin::diff::craftstudio::files(&view, &edited_view);
    assert_eq!(report.status(), Status::Different);
    // The asset's path, from the tree of the original.
    let tree = gamebin::write::craftstudio::ProjectTree::from_view(&view);
    fn find(
        entries: &[gamebin::write::craftstudio::TreeEntry],
        id: u16,
        prefix: &str,
    ) -> Option<String> {
        entries.iter().find_map(|e| {
            let path = if prefix.is_empty() {
                e.name.clone()
            } else {
                format!("{prefix}/{}", e.name)
            };
            if e.id == id {
                Some(path)
            } else {
                find(&e.children, id, &path)
            }
        })
    }
    let path = find(&tree.tree, asset_id, "").expect("the asset is in the tree");
    let changes = summary(&report);
    assert_eq!(changes.len(), 2, "{changes:?}");
    assert_eq!(changes[0].0, ChangeKind::Changed);
    assert_eq!(changes[0].1, "header/description");
    assert_eq!(changes[0].3.as_deref(), Some("\"edited\""));
    assert_eq!(
        changes[1],
        changed(&format!("entries/{path}/locked"), "false", "true")
    );
}

#[test]
fn level_tiles_as_rectangles_and_objects_by_id() {
    let bytes = gamebin::write::wwd::example_file();
    let mut inflated = Vec::new();
    let view = WwdView::from_bytes(&bytes, &mut inflated).unwrap();
    let level = Level::from_view(&view).unwrap();
    assert_eq!(
        gamebin::diff::wwd::levels(&level, &level).status(),
        Status::Equal
    );

    let mut edited = level.clone();
    let plane = edited
        .planes
        .iter_mut()
        .find(|p| p.header.tiles_wide.get() >= 3 && p.header.tiles_high.get() >= 2)
        .expect("a plane of at least 3×2 tiles");
    let name =
        String::from_utf8_lossy(plane.header.name.split(|&c| c == 0).next().unwrap()).into_owned();
    let wide = plane.header.tiles_wide.get() as usize;
    // A 2×2 block of tiles at (1, 0), each set to a value none of them had.
    let new = plane.tiles.iter().max().copied().unwrap_or(0) + 1;
    let before: Vec<u32> = [(1, 0), (2, 0), (1, 1), (2, 1)]
        .iter()
        .map(|&(x, y)| plane.tiles[y * wide + x])
        .collect();
    for (x, y) in [(1, 0), (2, 0), (1, 1), (2, 1)] {
        plane.tiles[y * wide + x] = new;
    }
    let report = gamebin::diff::wwd::levels(&level, &edited);
    assert_eq!(
        summary(&report),
        vec![changed(
            &format!("planes/{name}/tiles/x 1-2, y 0-1"),
            &format!("{} {} / {} {}", before[0], before[1], before[2], before[3]),
            &format!("{new} {new} / {new} {new}"),
        )]
    );

    // An object moved: reported under its id, field by field.
    let mut moved = level.clone();
    let (plane_name, object) = moved
        .planes
        .iter_mut()
        .find_map(|p| {
            let name = String::from_utf8_lossy(p.header.name.split(|&c| c == 0).next().unwrap())
                .into_owned();
            p.objects.first_mut().map(|o| (name, o))
        })
        .expect("an object");
    let x = object.fields.location_x.get();
    object.fields.location_x.set(x + 10);
    let id = object.fields.id.get();
    let report = gamebin::diff::wwd::levels(&level, &moved);
    assert_eq!(
        summary(&report),
        vec![changed(
            &format!("planes/{plane_name}/objects/{id}/fields/location_x"),
            &x.to_string(),
            &(x + 10).to_string(),
        )]
    );
}

#[test]
fn wdata_by_section_and_entry() {
    for (name, bytes) in wdata::fixtures().unwrap() {
        let view = WdataView::from_bytes(&bytes).unwrap();
        assert_eq!(
            gamebin::diff::wdata::files(&view, &view).unwrap().status(),
            Status::Equal,
            "{name}"
        );
        let map = WdataMap::from_view(&view).unwrap();
        let mut edited = map.clone();
        edited.version = map.version; // unchanged
        if let Some(count) = edited.script_count1 {
            edited.script_count1 = Some(count + 1);
            let report = gamebin::diff::wdata::maps(&map, &edited);
            assert_eq!(
                summary(&report),
                vec![changed(
                    "script_count1",
                    &count.to_string(),
                    &(count + 1).to_string()
                )],
                "{name}"
            );
        }
    }
}

#[test]
fn geometry_equal_and_different_files() {
    let a = gamebin::write::geometry::example_file();
    let view = GeometryView::from_bytes(&a).unwrap();
    let report = gamebin::diff::geometry::files(&view, &view).unwrap();
    assert_eq!(report.status(), Status::Equal, "{:?}", report.changes);
    // One byte of the first vertex changed in a raw file: the draw over vertex 0 reports one
    // vertex that differs, the first; nothing else changes but, at most, the buffer's bounds.
    let raw = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/fixtures/wows-geometry/ships_raw.geometry"
    ))
    .unwrap();
    let vr = GeometryView::from_bytes(&raw).unwrap();
    let at = vr.vertex_buffer(0).unwrap().data_offset().unwrap();
    let mut edited = raw.clone();
    edited[at] ^= 0x01;
    let ve = GeometryView::from_bytes(&edited).unwrap();
    let report = gamebin::diff::geometry::files(&vr, &ve).unwrap();
    let data: Vec<_> = report
        .changes
        .iter()
        .filter(|c| c.path.ends_with("/vertex data"))
        .collect();
    assert!(!data.is_empty(), "{:?}", report.changes);
    for c in &data {
        assert_eq!(
            c.after.as_deref(),
            Some("1 differ, the first at vertex 0"),
            "{c}"
        );
    }
    for c in &report.changes {
        assert!(
            c.path.ends_with("/vertex data") || c.path.starts_with("vertex_buffers/0/aabb"),
            "{c}"
        );
    }
}

/// The patched synthetic assets.bin against the original: in each group the generator patches
/// (and only there) one material field changed, one texture path removed, one visual added — the
/// changes stated from the generator's documented patch, found in the original by path.
#[test]
fn assets_by_path() {
    use gamebin::diff::ChangeKind::{Added, Removed};
    use gamebin::write::assets_synth::{Scale, is_patched, ship_dir, synth, synth_patched};
    let (a, b) = (
        synth(Scale::Small).unwrap(),
        synth_patched(Scale::Small).unwrap(),
    );
    let (da, db) = (
        AssetsDb::from_bytes(&a).unwrap(),
        AssetsDb::from_bytes(&b).unwrap(),
    );
    assert_eq!(
        gamebin::diff::assets::files(&da, &da).unwrap().status(),
        Status::Equal
    );

    let mut want = Vec::new();
    let mut added_visuals = 0;
    let mut group = 0;
    // Groups of the original file, until one that the file does not have (every group has a
    // fixed number of paths; effects and lights are groups 7 and 9 of every ten).
    loop {
        let (dir, id) = ship_dir(group);
        let hull = format!("{dir}/{id}_hull.mfm");
        let is_ship = !matches!(group % 10, 7 | 9);
        if is_ship && da.lookup_path(&hull).unwrap().is_none() {
            break;
        }
        if is_ship && is_patched(group) {
            want.push(changed(&format!("{hull}/sort_order"), "0", "1"));
            want.push((
                Removed,
                format!("{dir}/{id}_bridge_a.dds"),
                Some("(path)".to_string()),
                None,
            ));
            want.push((
                Added,
                format!("{dir}/{id}_patch.visual"),
                None,
                Some("VisualPrototype".to_string()),
            ));
            added_visuals += 1;
        }
        group += 1;
    }
    assert!(want.len() >= 30, "{} changes stated", want.len());
    let visuals = da
        .database(gamebin::wows::assets::PrototypeType::Visual)
        .unwrap()
        .unwrap()
        .record_count();
    want.push(changed(
        "databases/VisualPrototype/records",
        &visuals.to_string(),
        &(visuals + added_visuals).to_string(),
    ));
    let report = gamebin::diff::assets::files(&da, &db).unwrap();
    assert_eq!(report.status(), Status::Different);
    let (mut got, mut want) = (summary(&report), want);
    let key = |c: &(ChangeKind, String, Option<String>, Option<String>)| (c.1.clone(), c.2.clone());
    got.sort_by_key(key);
    want.sort_by_key(key);
    assert_eq!(got, want);
}

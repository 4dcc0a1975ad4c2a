//! `diff` of `.geometry`, WWD, `.wdata` and Project.dat files made by the writers with known
//! changes: each test states the changes it makes and checks that they are exactly what the
//! comparison reports (paths, kinds and values), and that a file compared with itself is equal.

use gamebin::craftstudio::ProjectView;
use gamebin::craftstudio::model::ProjectModel;
use gamebin::diff::{ChangeKind, Report, Status};
use gamebin::synth::geometry::{cube, pyramid, quad};
use gamebin::synth::wdata;
use gamebin::wdata::WdataView;
use gamebin::wows::assets::AssetsDb;
use gamebin::wows::geometry::model::{GeometryBuilder, MeshVertex};
use gamebin::wows::geometry::{GeometrySummary, GeometryView, MappingKind};
use gamebin::wwd::WwdView;
use gamebin::wwd::model::WwdModel;
use serde_json::json;

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
    let bytes = gamebin::synth::craftstudio::example_file();
    let view = ProjectView::from_bytes(&bytes).unwrap();
    assert_eq!(
        gamebin::craftstudio::diff::files(&view, &view).status(),
        Status::Equal
    );

    let mut project = ProjectModel::from_view(&view).unwrap();
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
    let report = gamebin::craftstudio::diff::files(&view, &edited_view);
    assert_eq!(report.status(), Status::Different);
    // The asset's path, from the tree of the original.
    let tree = gamebin::craftstudio::model::ProjectTree::from_view(&view);
    fn find(
        entries: &[gamebin::craftstudio::model::TreeEntry],
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
    let bytes = gamebin::synth::wwd::example_file();
    let mut inflated = Vec::new();
    let view = WwdView::from_bytes(&bytes, &mut inflated).unwrap();
    let level = WwdModel::from_view(&view).unwrap();
    assert_eq!(
        gamebin::wwd::diff::levels(&level, &level).status(),
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
    let report = gamebin::wwd::diff::levels(&level, &edited);
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
    let report = gamebin::wwd::diff::levels(&level, &moved);
    assert_eq!(
        summary(&report),
        vec![changed(
            &format!("planes/{plane_name}/objects/{id}/fields/location_x"),
            &x.to_string(),
            &(x + 10).to_string(),
        )]
    );
}

/// `(kind, path)` of a change and the value it shows for the side that has one.
fn removed(path: &str, before: &str) -> (ChangeKind, String, Option<String>, Option<String>) {
    (
        ChangeKind::Removed,
        path.to_string(),
        Some(before.to_string()),
        None,
    )
}

fn added(path: &str, after: &str) -> (ChangeKind, String, Option<String>, Option<String>) {
    (
        ChangeKind::Added,
        path.to_string(),
        None,
        Some(after.to_string()),
    )
}

/// A whole entry as a change shows it: its JSON value (keys in order), cut after 240 characters.
fn entry_text<T: serde::Serialize>(entry: &T) -> String {
    let text = serde_json::to_value(entry).unwrap().to_string();
    if text.chars().count() > 240 {
        text.chars().take(240).collect::<String>() + "…"
    } else {
        text
    }
}

/// Every fixture with at least two gimmicks, edited through the owned model and written by the
/// writer: the first gimmick's template id changed, the second removed, a new one named `Lever`
/// appended, and (in the peer trigger layout) the first trigger removed. The diff of the files
/// reports exactly those, by section and entry name.
#[test]
fn wdata_entries_edited_added_and_removed() {
    use gamebin::wdata::model::{TriggerLayout, WString};
    let mut tried = 0;
    for (name, map) in wdata::fixture_maps() {
        let bytes = map.to_bytes().unwrap();
        let view = WdataView::from_bytes(&bytes).unwrap();
        assert_eq!(
            gamebin::wdata::diff::files(&view, &view).unwrap().status(),
            Status::Equal,
            "{name}"
        );
        if map.gimmicks.len() < 2 {
            continue;
        }
        tried += 1;
        let mut edited = map.clone();
        let template = edited.gimmicks[0].template_id;
        edited.gimmicks[0].template_id = template + 1;
        let gone = edited.gimmicks.remove(1);
        let mut lever = map.gimmicks[0].clone();
        lever.obb.name = WString::new("Lever");
        edited.gimmicks.push(lever.clone());
        let first = |g: &gamebin::wdata::model::Gimmick| g.obb.name.to_string_lossy();
        let mut want = vec![
            changed(
                &format!("gimmicks/{}/template_id", first(&map.gimmicks[0])),
                &template.to_string(),
                &(template + 1).to_string(),
            ),
            removed(&format!("gimmicks/{}", first(&gone)), &entry_text(&gone)),
            added("gimmicks/Lever", &entry_text(&lever)),
        ];
        if let TriggerLayout::Peer(triggers) = &mut edited.triggers.layout {
            if !triggers.is_empty() {
                let trigger = triggers.remove(0);
                want.push(removed(
                    &format!("triggers/triggers/{}", trigger.name.to_string_lossy()),
                    &entry_text(&trigger),
                ));
            }
        }
        let edited_bytes = edited.to_bytes().unwrap();
        let edited_view = WdataView::from_bytes(&edited_bytes).unwrap();
        let report = gamebin::wdata::diff::files(&view, &edited_view).unwrap();
        assert_eq!(report.status(), Status::Different, "{name}");
        assert_eq!(summary(&report), want, "{name}");
        // The owned models compare the same way as the files they write.
        assert_eq!(gamebin::wdata::diff::maps(&map, &edited), report, "{name}");
    }
    assert!(tried >= 1, "no fixture with two gimmicks");
}

/// Hull (a cube, 24 vertices, 36 indices) and `second` in one raw vertex buffer and one 2-byte
/// index buffer, each mesh with its own texel density.
type Mesh = (Vec<MeshVertex>, Vec<u32>);

fn two_meshes(hull: Mesh, second: (&str, u16, Mesh)) -> Vec<u8> {
    let mut b = GeometryBuilder::new();
    let vb = b.vertex_buffer("set3/xyznuvtbpc", false);
    let ib = b.index_buffer(2, false);
    b.mesh("Hull", vb, ib, 100, &hull.0, &hull.1).unwrap();
    let (name, density, (v, i)) = second;
    b.mesh(name, vb, ib, density, &v, &i).unwrap();
    b.to_bytes().unwrap()
}

fn mapping_id(kind: MappingKind, name: &str) -> String {
    format!("{:#010x}", kind.id_of(name))
}

/// Pairs written by the geometry builder with stated changes: vertex data and indices edited in
/// one draw, another draw's vertex and index counts changed, a mesh removed and another added.
/// Every mesh lies within the hull's bounds, so the buffers' bounds never change.
#[test]
fn geometry_draws_changed_added_and_removed() {
    let hull = cube([0.0, 0.0, 0.0], 1.0);
    let a = two_meshes(hull.clone(), ("Mast", 200, pyramid([0.0, 0.0, 0.0], 0.5)));
    let va = GeometryView::from_bytes(&a).unwrap();
    let report = gamebin::wows::geometry::diff::files(&va, &va).unwrap();
    assert_eq!(report.status(), Status::Equal, "{:?}", report.changes);
    let sa = GeometrySummary::from_view(&va).unwrap();
    let (size, vertices) = (
        sa.vertex_buffers[0].size_in_bytes,
        sa.vertex_buffers[0].vertex_count,
    );
    assert_eq!(vertices, 24 + 5);
    let stride = size / 29;
    let hi = mapping_id(MappingKind::Indices, "Hull");
    let (mv, mi) = (
        mapping_id(MappingKind::Vertices, "Mast"),
        mapping_id(MappingKind::Indices, "Mast"),
    );

    // 1. The hull's vertex 5 gets another UV and its indices 6 and 7 (4 and 5) swap; the mast
    //    becomes a cube: 24 vertices instead of 5, 36 indices instead of 18.
    let mut edited_hull = hull.clone();
    edited_hull.0[5].uv = [0.25, 0.25];
    edited_hull.1.swap(6, 7);
    assert_ne!(hull.1[6], hull.1[7]);
    let b = two_meshes(edited_hull, ("Mast", 200, cube([0.0, 0.0, 0.0], 0.5)));
    let vb = GeometryView::from_bytes(&b).unwrap();
    let report = gamebin::wows::geometry::diff::files(&va, &vb).unwrap();
    let mut want = vec![
        changed(
            "vertex_buffers/0/size_in_bytes",
            &size.to_string(),
            &(size + 19 * stride).to_string(),
        ),
        changed("vertex_buffers/0/vertex_count", "29", "48"),
        changed("index_buffers/0/size_in_bytes", "108", "144"),
        changed("index_buffers/0/index_count", "54", "72"),
        changed(&format!("vertex_mappings/{mv}/count"), "5", "24"),
        changed(&format!("index_mappings/{mi}/count"), "18", "36"),
        changed(&format!("draws/{mi}/triangles"), "6", "12"),
        changed(
            &format!("draws/{hi}/vertex data"),
            "24 vertices",
            "1 differ, the first at vertex 5",
        ),
        changed(
            &format!("draws/{hi}/indices"),
            "36 indices",
            "2 differ, the first at index 6",
        ),
    ];
    let key = |c: &(ChangeKind, String, Option<String>, Option<String>)| c.1.clone();
    let mut got = summary(&report);
    got.sort_by_key(key);
    want.sort_by_key(key);
    assert_eq!(got, want);

    // 2. The mast removed and a deck (a quad: 4 vertices, 6 indices) added after the hull.
    let b = two_meshes(hull.clone(), ("Deck", 300, quad(0.5, 0.5)));
    let vb = GeometryView::from_bytes(&b).unwrap();
    let sb = GeometrySummary::from_view(&vb).unwrap();
    let report = gamebin::wows::geometry::diff::files(&va, &vb).unwrap();
    let (dv, di) = (
        mapping_id(MappingKind::Vertices, "Deck"),
        mapping_id(MappingKind::Indices, "Deck"),
    );
    let number = |id: &str| u32::from_str_radix(&id[2..], 16).unwrap();
    // How each draw paired is the reader's to say (stated by the summary of its own file).
    let pairing = |s: &GeometrySummary, id: &str| {
        s.draws
            .iter()
            .find(|d| d.index_mapping == number(id))
            .map(|d| d.pairing)
            .unwrap()
    };
    let draw = |v: &str, i: &str, pairing: &str, triangles: usize| {
        json!({
            "vertex_mapping": number(v),
            "index_mapping": number(i),
            "pairing": pairing,
            "triangles": triangles,
        })
    };
    let mapping = |id: &str, offset: usize, count: usize, density: u16| {
        json!({
            "id": number(id),
            "buffer": 0,
            "offset": offset,
            "count": count,
            "texel_density": density,
        })
    };
    // In the report's order: fields by name (the JSON values' key order), removals then additions.
    let none = serde_json::Value::Null;
    let want = vec![
        (
            "vertex_buffers/0/size_in_bytes".to_string(),
            ChangeKind::Changed,
            json!(size),
            json!(size - stride),
        ),
        (
            "vertex_buffers/0/vertex_count".into(),
            ChangeKind::Changed,
            json!(29),
            json!(28),
        ),
        (
            "index_buffers/0/index_count".into(),
            ChangeKind::Changed,
            json!(54),
            json!(42),
        ),
        (
            "index_buffers/0/size_in_bytes".into(),
            ChangeKind::Changed,
            json!(108),
            json!(84),
        ),
        (
            format!("vertex_mappings/{mv}"),
            ChangeKind::Removed,
            mapping(&mv, 24, 5, 200),
            none.clone(),
        ),
        (
            format!("vertex_mappings/{dv}"),
            ChangeKind::Added,
            none.clone(),
            mapping(&dv, 24, 4, 300),
        ),
        (
            format!("index_mappings/{mi}"),
            ChangeKind::Removed,
            mapping(&mi, 36, 18, 200),
            none.clone(),
        ),
        (
            format!("index_mappings/{di}"),
            ChangeKind::Added,
            none.clone(),
            mapping(&di, 36, 6, 300),
        ),
        (
            format!("draws/{mi}"),
            ChangeKind::Removed,
            draw(&mv, &mi, pairing(&sa, &mi), 6),
            none.clone(),
        ),
        (
            format!("draws/{di}"),
            ChangeKind::Added,
            none.clone(),
            draw(&dv, &di, pairing(&sb, &di), 2),
        ),
    ];
    let parsed = |v: &Option<String>| {
        v.as_deref().map_or(serde_json::Value::Null, |t| {
            serde_json::from_str(t).unwrap()
        })
    };
    let got: Vec<_> = report
        .changes
        .iter()
        .map(|c| (c.path.clone(), c.kind, parsed(&c.before), parsed(&c.after)))
        .collect();
    assert_eq!(got, want);
}

/// The patched synthetic assets.bin against the original: in each group the generator patches
/// (and only there) one material field changed, one texture path removed, one visual added — the
/// changes stated from the generator's documented patch, found in the original by path.
#[test]
fn assets_by_path() {
    use gamebin::diff::ChangeKind::{Added, Removed};
    use gamebin::synth::assets_scale::{Scale, is_patched, ship_dir, synth, synth_patched};
    let (a, b) = (
        synth(Scale::Small).unwrap(),
        synth_patched(Scale::Small).unwrap(),
    );
    let (da, db) = (
        AssetsDb::from_bytes(&a).unwrap(),
        AssetsDb::from_bytes(&b).unwrap(),
    );
    assert_eq!(
        gamebin::wows::assets::diff::files(&da, &da)
            .unwrap()
            .status(),
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
    let report = gamebin::wows::assets::diff::files(&da, &db).unwrap();
    assert_eq!(report.status(), Status::Different);
    let (mut got, mut want) = (summary(&report), want);
    let key = |c: &(ChangeKind, String, Option<String>, Option<String>)| (c.1.clone(), c.2.clone());
    got.sort_by_key(key);
    want.sort_by_key(key);
    assert_eq!(got, want);
}

fn samples(format: &str) -> Vec<std::path::PathBuf> {
    let dir = std::env::var_os("GAMEBIN_SAMPLES").expect("GAMEBIN_SAMPLES");
    let mut out: Vec<_> = std::fs::read_dir(std::path::Path::new(&dir).join(format))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            !p.extension()
                .is_some_and(|e| e.eq_ignore_ascii_case("txt") || e == "tsv")
                && p.is_file()
        })
        .collect();
    out.sort();
    assert!(!out.is_empty(), "no {format} samples");
    out
}

/// Every real level, geometry and project compared with itself is equal; a level and a project
/// written again by their writers from the owned model are equal to the original (nothing the
/// writers move — offsets, sizes, the checksum, the compressed stream — shows as a change); and
/// one tile changed in a level's widest plane is exactly one one-tile rectangle.
#[test]
#[ignore = "needs GAMEBIN_SAMPLES (the shared samples directory)"]
fn real_samples_compare_equal_to_themselves_and_their_rewrites() {
    let options = gamebin::wwd::Options {
        ignore_signature: true,
    };
    for path in samples("wap32-wwd") {
        let file = std::fs::read(&path).unwrap();
        let mut buffer = Vec::new();
        let mut inflater = gamebin::wwd::Inflater::new();
        let view = WwdView::from_bytes_with(&file, &mut buffer, &mut inflater, options).unwrap();
        let level = WwdModel::from_view(&view).unwrap();
        let report = gamebin::wwd::diff::files(&view, &view).unwrap();
        assert_eq!(report.status(), Status::Equal, "{path:?}");
        let written = level.to_bytes().unwrap();
        let mut buffer2 = Vec::new();
        let again =
            WwdView::from_bytes_with(&written, &mut buffer2, &mut inflater, options).unwrap();
        let report = gamebin::wwd::diff::files(&view, &again).unwrap();
        assert_eq!(report.changes, Vec::new(), "{path:?}");

        let (index, plane) = level
            .planes
            .iter()
            .enumerate()
            .max_by_key(|(_, p)| p.header.tiles_wide.get())
            .unwrap();
        let (wide, high) = (
            plane.header.tiles_wide.get() as usize,
            plane.header.tiles_high.get() as usize,
        );
        let (x, y) = (wide / 2, high / 2);
        let old = plane.tiles[y * wide + x];
        let new = if old == 1 { 2 } else { 1 };
        let mut edited = level.clone();
        edited.planes[index].tiles[y * wide + x] = new;
        let name = String::from_utf8_lossy(plane.header.name.split(|&c| c == 0).next().unwrap())
            .into_owned();
        assert_eq!(
            summary(&gamebin::wwd::diff::levels(&level, &edited)),
            vec![changed(
                &format!("planes/{name}/tiles/x {x}-{x}, y {y}-{y}"),
                &old.to_string(),
                &new.to_string()
            )],
            "{path:?}"
        );
    }
    for path in samples("wows-geometry") {
        let file = std::fs::read(&path).unwrap();
        let view = GeometryView::from_bytes(&file).unwrap();
        let report = gamebin::wows::geometry::diff::files(&view, &view).unwrap();
        assert_eq!(report.changes, Vec::new(), "{path:?}");
    }
    for path in samples("craftstudio-project") {
        let file = std::fs::read(&path).unwrap();
        let view = ProjectView::from_bytes(&file).unwrap();
        assert_eq!(
            gamebin::craftstudio::diff::files(&view, &view).status(),
            Status::Equal,
            "{path:?}"
        );
        let written = ProjectModel::from_view(&view).unwrap().to_bytes().unwrap();
        let again = ProjectView::from_bytes(&written).unwrap();
        let report = gamebin::craftstudio::diff::files(&view, &again);
        assert_eq!(report.changes, Vec::new(), "{path:?}");
    }
}

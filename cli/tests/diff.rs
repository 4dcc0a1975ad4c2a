//! `gamebin diff`: pairs made by the writers with known changes (WDB, assets.bin, `.geometry`,
//! WWD, `.wdata`, Project.dat), written to a temporary folder; each test states the changes and
//! checks that they are exactly what `diff` reports, in the library and through the CLI (whose
//! human and JSON outputs are golden files: re-bless with `GAMEBIN_BLESS=1 cargo test -p
//! gamebin-cli --test diff`), and the exit codes: 0 equal, 1 different, 2 on errors.

use std::path::{Path, PathBuf};

use gamebin::diff::{Change, Report, Status};
use gamebin::synth::wdb::{items_table, xiii1_table};
use gamebin::wdb::WdbView;
use gamebin::wdb::model::{TableRecord, TableValue, WdbModel};

mod common;
use common::{at_repository_root, gamebin, root};

/// The items fixture and an edit of it, with the changes the edit makes, stated by hand.
fn edited_items() -> (WdbModel, WdbModel, Vec<Change>) {
    let before = items_table();
    let mut after = before.clone();
    let record = |t: &mut WdbModel, name: &str| -> usize {
        t.records.iter().position(|r| r.name == name).unwrap()
    };
    let potion = record(&mut after, "it_potion");
    after.records[potion].values[1] = TableValue::UInt(60); // u16Price 50 -> 60
    let ether = record(&mut after, "it_ether");
    after.records[ether].values[0] = TableValue::Str("Ether+".into()); // sName
    let elixir = record(&mut after, "it_elixir");
    after.records[elixir].values[4] = TableValue::Float(1.25); // fWeight 1 -> 1.25
    after.records[elixir].values[3] = TableValue::Int(-1); // i12Power -2048 -> -1
    let antidote = record(&mut after, "it_antidote");
    after.records.remove(antidote);
    after.records.push(TableRecord {
        name: "it_megalixir".into(),
        values: vec![
            TableValue::Str("Megalixir".into()),
            TableValue::UInt(9999),
            TableValue::UInt(3),
            TableValue::Int(0),
            TableValue::Float(2.0),
            TableValue::UInt(0),
        ],
    });
    after.version = Some(0x1234_5679);
    let changes = vec![
        Change::changed("!!version", "305419896", "305419897"),
        Change::changed("it_potion/u16Price", "50", "60"),
        Change::changed("it_ether/sName", "\"Ether\"", "\"Ether+\""),
        Change::changed("it_elixir/i12Power", "-2048", "-1"),
        Change::changed("it_elixir/fWeight", "1", "1.25"),
        Change::removed("it_antidote", "(record)"),
        Change::added("it_megalixir", "(record)"),
    ];
    (before, after, changes)
}

fn sorted(mut v: Vec<Change>) -> Vec<Change> {
    v.sort_by(|a, b| a.path.cmp(&b.path));
    v
}

#[test]
fn wdb_diff_reports_exactly_the_changes_made() {
    at_repository_root();
    let (before, after, changes) = edited_items();
    let (a, b) = (before.to_bytes().unwrap(), after.to_bytes().unwrap());
    let (va, vb) = (
        WdbView::from_bytes(&a).unwrap(),
        WdbView::from_bytes(&b).unwrap(),
    );
    let report = gamebin::wdb::diff::files(&va, &vb).unwrap();
    assert_eq!(sorted(report.changes.clone()), sorted(changes));
    assert_eq!(report.status(), Status::Different);
    assert_eq!(report.status().code(), 1);
    // A file against itself, and against its own repack through JSON: equal.
    let same = gamebin::wdb::diff::files(&va, &va).unwrap();
    assert_eq!(same, Report::new("ff13-wdb", Vec::new()));
    assert_eq!(same.status().code(), 0);
}

#[test]
fn wdb_diff_of_xiii1_cells() {
    at_repository_root();
    let before = xiii1_table();
    let mut after = before.clone();
    after.records[0].values[0] = TableValue::UInt(0x3F); // ab_fire's first bit-packed cell
    let (a, b) = (before.to_bytes().unwrap(), after.to_bytes().unwrap());
    let report = gamebin::wdb::diff::files(
        &WdbView::from_bytes(&a).unwrap(),
        &WdbView::from_bytes(&b).unwrap(),
    )
    .unwrap();
    assert_eq!(
        report.changes,
        vec![Change::changed("ab_fire/bitpacked-field_0", "62", "63")]
    );
}

fn golden(name: &str, got: &str) {
    let path = root().join("tests/golden/diff").join(name);
    if std::env::var_os("GAMEBIN_BLESS").is_some() {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, got).unwrap();
        return;
    }
    let want = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "{}: {e}; run GAMEBIN_BLESS=1 cargo test --test diff",
            path.display()
        )
    });
    assert_eq!(
        got, want,
        "{name} (re-bless with GAMEBIN_BLESS=1 cargo test --test diff)"
    );
}

#[test]
fn cli_diff_prints_the_changes_and_exits_like_diff() {
    at_repository_root();
    let dir: PathBuf = std::env::temp_dir().join(format!("gamebin-diff-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (before, after, changes) = edited_items();
    let (a, b) = (dir.join("items.wdb"), dir.join("items_edited.wdb"));
    std::fs::write(&a, before.to_bytes().unwrap()).unwrap();
    std::fs::write(&b, after.to_bytes().unwrap()).unwrap();
    let (a, b) = (a.to_str().unwrap(), b.to_str().unwrap());

    let out = gamebin(&["diff", a, b]);
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(text.lines().count(), changes.len());
    for change in &changes {
        assert!(
            text.lines().any(|l| l == change.to_string()),
            "{change} missing from\n{text}"
        );
    }
    golden("items_edited.txt", &text);

    let out = gamebin(&["diff", "--json", a, b]);
    assert_eq!(out.status.code(), Some(1));
    let json = String::from_utf8(out.stdout).unwrap();
    let report: Report = serde_json::from_str(&json).unwrap();
    assert_eq!(sorted(report.changes), sorted(changes));
    golden("items_edited.json", &json);

    let out = gamebin(&["diff", a, a]);
    assert_eq!((out.status.code(), out.stdout.len()), (Some(0), 0));
    // Errors: exit 2, whatever the cause.
    let geometry = "fixtures/wows-geometry/ships_encd.geometry";
    let truncated = dir.join("truncated.wdb");
    std::fs::write(&truncated, &before.to_bytes().unwrap()[..40]).unwrap();
    let truncated = truncated.to_str().unwrap();
    for (args, says) in [
        (vec![a, geometry], "diff compares two files of one format"),
        (vec![a, truncated], "truncated.wdb"),
        (vec![a, "no/such/file.wdb"], "no/such/file.wdb"),
    ] {
        let out = gamebin(&[&["diff"], &args[..]].concat());
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(err.contains(says), "{err}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Two synthetic assets.bin files from `gamebin synth assets` and its `--patched` twin: the diff
/// (whose changes the library's test states from the generator) is printed one line per change,
/// with the database's record count first, and exits 1; the human and JSON outputs are golden.
#[test]
fn cli_diff_of_assets_by_path() {
    let dir: PathBuf =
        std::env::temp_dir().join(format!("gamebin-diff-assets-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (a, b) = (dir.join("a.bin"), dir.join("b.bin"));
    let (a, b) = (a.to_str().unwrap(), b.to_str().unwrap());
    for (args, made) in [
        (vec!["synth", "assets", "--scale", "small", "-o", a], a),
        (
            vec!["synth", "assets", "--scale", "small", "--patched", "-o", b],
            b,
        ),
    ] {
        let out = gamebin(&args);
        assert_eq!(out.status.code(), Some(0), "{args:?}");
        assert!(Path::new(made).is_file());
    }
    let out = gamebin(&["diff", a, b]);
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.starts_with("~ databases/VisualPrototype/records: "),
        "{text}"
    );
    assert_eq!(text.lines().filter(|l| l.starts_with("+ ")).count(), 13);
    golden("synth_small_patched.txt", &text);
    let out = gamebin(&["diff", "--json", a, b]);
    assert_eq!(out.status.code(), Some(1));
    let report: Report = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report.changes.len(), text.lines().count());
    assert_eq!(report.format, "wows-assets");
    let out = gamebin(&["diff", a, a]);
    assert_eq!((out.status.code(), out.stdout.len()), (Some(0), 0));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A change as the report shows a whole added or removed value: its JSON value (keys in order),
/// cut after 240 characters.
fn shown<T: serde::Serialize>(value: &T) -> String {
    let text = serde_json::to_value(value).unwrap().to_string();
    if text.chars().count() > 240 {
        text.chars().take(240).collect::<String>() + "…"
    } else {
        text
    }
}

/// Writes a pair into a temporary folder and checks `gamebin diff` on it: exit 1 and exactly the
/// `stated` changes (one human line each, and the same list in `--json`), both outputs golden
/// (`NAME.txt`, `NAME.json`); each file against itself exits 0 with nothing printed; a truncated
/// copy of the second file, a file of another format and a missing file exit 2.
fn check_cli_pair(name: &str, format: &str, a: &[u8], b: &[u8], stated: Vec<Change>) {
    at_repository_root();
    let dir: PathBuf =
        std::env::temp_dir().join(format!("gamebin-diff-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (pa, pb, cut) = (dir.join("a"), dir.join("b"), dir.join("truncated"));
    std::fs::write(&pa, a).unwrap();
    std::fs::write(&pb, b).unwrap();
    std::fs::write(&cut, &b[..b.len() / 2]).unwrap();
    let (pa, pb, cut) = (
        pa.to_str().unwrap(),
        pb.to_str().unwrap(),
        cut.to_str().unwrap(),
    );

    let out = gamebin(&["diff", pa, pb]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(
        out.status.code(),
        Some(1),
        "{name}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut got: Vec<&str> = text.lines().collect();
    let mut want: Vec<String> = stated.iter().map(Change::to_string).collect();
    got.sort_unstable();
    want.sort_unstable();
    assert_eq!(got, want, "{name}");
    golden(&format!("{name}.txt"), &text);

    let out = gamebin(&["diff", "--json", pa, pb]);
    assert_eq!(out.status.code(), Some(1), "{name}");
    let json = String::from_utf8(out.stdout).unwrap();
    let report: Report = serde_json::from_str(&json).unwrap();
    assert_eq!(report.format, format);
    assert!(!report.equal);
    assert_eq!(sorted(report.changes), sorted(stated), "{name}");
    golden(&format!("{name}.json"), &json);

    for path in [pa, pb] {
        let out = gamebin(&["diff", path, path]);
        assert_eq!(
            (out.status.code(), out.stdout.len()),
            (Some(0), 0),
            "{name}"
        );
        let out = gamebin(&["diff", "--json", path, path]);
        assert_eq!(out.status.code(), Some(0), "{name}");
        let report: Report = serde_json::from_slice(&out.stdout).unwrap();
        assert!(report.equal && report.changes.is_empty(), "{name}");
    }
    let other = if format == "ff13-wdb" {
        "fixtures/wows-geometry/ships_encd.geometry"
    } else {
        "fixtures/ff13-wdb/items.wdb"
    };
    assert!(Path::new(other).is_file(), "{other}");
    let missing = dir.join("missing");
    let missing = missing.to_str().unwrap();
    for (args, says) in [
        ([pa, other], "diff compares two files of one format"),
        ([pa, cut], "truncated"),
        ([missing, pb], "missing"),
    ] {
        let out = gamebin(&["diff", args[0], args[1]]);
        assert_eq!(out.status.code(), Some(2), "{name}: {args:?}");
        assert!(out.stdout.is_empty(), "{name}: {args:?}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(err.contains(says), "{name}: {err}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Two `.geometry` files from the builder: the hull's vertex 5 given another UV, the mast
/// removed and a deck added after the hull (the mesh shapes' counts: a cube has 24 vertices and
/// 36 indices, a pyramid 5 and 18, a quad 4 and 6).
#[test]
fn cli_diff_of_geometry_by_mapping_and_draw() {
    use gamebin::synth::geometry::{cube, pyramid, quad};
    use gamebin::wows::geometry::MappingKind;
    use gamebin::wows::geometry::model::{GeometryBuilder, MeshVertex};
    let file = |hull: &[MeshVertex], (name, density, (v, i)): (&str, u16, (Vec<_>, Vec<u32>))| {
        let mut b = GeometryBuilder::new();
        let vb = b.vertex_buffer("set3/xyznuvtbpc", false);
        let ib = b.index_buffer(2, false);
        let (_, hull_indices) = cube([0.0; 3], 1.0);
        b.mesh("Hull", vb, ib, 100, hull, &hull_indices).unwrap();
        b.mesh(name, vb, ib, density, &v, &i).unwrap();
        b.to_bytes().unwrap()
    };
    let (hull, _) = cube([0.0; 3], 1.0);
    let mut edited = hull.clone();
    edited[5].uv = [0.25, 0.25];
    let a = file(&hull, ("Mast", 200, pyramid([0.0; 3], 0.5)));
    let b = file(&edited, ("Deck", 300, quad(0.5, 0.5)));
    // xyz, normal, uv, tangent, binormal: 3 f32 + 4 packed bytes + 2 f16 + 4 + 4 bytes.
    let stride = 12 + 4 + 4 + 4 + 4;
    let id = |kind: MappingKind, name: &str| format!("{:#010x}", kind.id_of(name));
    let (mv, mi) = (
        id(MappingKind::Vertices, "Mast"),
        id(MappingKind::Indices, "Mast"),
    );
    let (dv, di) = (
        id(MappingKind::Vertices, "Deck"),
        id(MappingKind::Indices, "Deck"),
    );
    let number = |id: &str| u32::from_str_radix(&id[2..], 16).unwrap();
    let mapping = |id: &str, offset: u32, count: u32, density: u16| {
        serde_json::json!({"buffer": 0, "count": count, "id": number(id), "offset": offset,
            "texel_density": density})
        .to_string()
    };
    let draw = |v: &str, i: &str, triangles: u32| {
        serde_json::json!({"index_mapping": number(i), "pairing": "texel-density",
            "triangles": triangles, "vertex_mapping": number(v)})
        .to_string()
    };
    let stated = vec![
        Change::changed(
            "vertex_buffers/0/size_in_bytes",
            (29 * stride).to_string(),
            (28 * stride).to_string(),
        ),
        Change::changed("vertex_buffers/0/vertex_count", "29", "28"),
        Change::changed("index_buffers/0/index_count", "54", "42"),
        Change::changed("index_buffers/0/size_in_bytes", "108", "84"),
        Change::removed(format!("vertex_mappings/{mv}"), mapping(&mv, 24, 5, 200)),
        Change::added(format!("vertex_mappings/{dv}"), mapping(&dv, 24, 4, 300)),
        Change::removed(format!("index_mappings/{mi}"), mapping(&mi, 36, 18, 200)),
        Change::added(format!("index_mappings/{di}"), mapping(&di, 36, 6, 300)),
        Change::removed(format!("draws/{mi}"), draw(&mv, &mi, 6)),
        Change::added(format!("draws/{di}"), draw(&dv, &di, 2)),
        Change::changed(
            format!("draws/{}/vertex data", id(MappingKind::Indices, "Hull")),
            "24 vertices",
            "1 differ, the first at vertex 5",
        ),
    ];
    check_cli_pair("geometry_deck", "wows-geometry", &a, &b, stated);
}

/// A Claw level from the writer and an edit of it: a 2×2 block of the action plane's tiles set to
/// one tile, its first object moved 10 pixels right, and an object added.
#[test]
fn cli_diff_of_levels_by_plane_and_object() {
    use gamebin::synth::wwd::claw_level;
    use gamebin::wwd::model::ObjectData;
    let level = claw_level(12, 8, 3);
    let mut edited = level.clone();
    let plane = edited
        .planes
        .iter_mut()
        .find(|p| p.header.name.starts_with(b"Action\0"))
        .expect("the action plane");
    let wide = 12;
    let before: Vec<String> = [(2, 3), (3, 3), (2, 4), (3, 4)]
        .iter()
        .map(|&(x, y)| plane.tiles[y * wide + x].to_string())
        .collect();
    // A tile id none of the four had.
    let tile = 77;
    assert!(!before.contains(&tile.to_string()));
    for (x, y) in [(2, 3), (3, 3), (2, 4), (3, 4)] {
        plane.set(x, y, tile);
    }
    let object = plane.objects.first_mut().expect("an object");
    let (x, object_id) = (object.fields.location_x.get(), object.fields.id.get());
    object.fields.location_x.set(x + 10);
    let new_id = plane
        .objects
        .iter()
        .map(|o| o.fields.id.get())
        .max()
        .unwrap()
        + 1;
    let added = ObjectData::new(new_id, "Officer", 640, 320);
    plane.objects.push(added.clone());
    let stated = vec![
        Change::changed(
            "planes/Action/tiles/x 2-3, y 3-4",
            format!("{} {} / {} {}", before[0], before[1], before[2], before[3]),
            format!("{tile} {tile} / {tile} {tile}"),
        ),
        Change::changed(
            format!("planes/Action/objects/{object_id}/fields/location_x"),
            x.to_string(),
            (x + 10).to_string(),
        ),
        Change::added(format!("planes/Action/objects/{new_id}"), shown(&added)),
    ];
    check_cli_pair(
        "level_edited",
        "wap32-wwd",
        &level.to_bytes().unwrap(),
        &edited.to_bytes().unwrap(),
        stated,
    );
}

/// A `.wdata` fixture map with two gimmicks, edited through the owned model: the first gimmick's
/// template id changed, the second removed, one named `Lever` added.
#[test]
fn cli_diff_of_wdata_by_section_and_entry() {
    use gamebin::synth::wdata;
    use gamebin::wdata::model::WString;
    let (_, map) = wdata::fixture_maps()
        .into_iter()
        .find(|(_, m)| m.gimmicks.len() >= 2)
        .expect("a fixture with two gimmicks");
    let mut edited = map.clone();
    edited.gimmicks[0].template_id += 1;
    let gone = edited.gimmicks.remove(1);
    let mut lever = map.gimmicks[0].clone();
    lever.obb.name = WString::new("Lever");
    edited.gimmicks.push(lever.clone());
    let template = map.gimmicks[0].template_id;
    let stated = vec![
        Change::changed(
            format!(
                "gimmicks/{}/template_id",
                map.gimmicks[0].obb.name.to_string_lossy()
            ),
            template.to_string(),
            (template + 1).to_string(),
        ),
        Change::removed(
            format!("gimmicks/{}", gone.obb.name.to_string_lossy()),
            shown(&gone),
        ),
        Change::added("gimmicks/Lever", shown(&lever)),
    ];
    check_cli_pair(
        "wdata_gimmicks",
        "rusty-hearts-wdata",
        &map.to_bytes().unwrap(),
        &edited.to_bytes().unwrap(),
        stated,
    );
}

/// The example CraftStudio project and an edit of it: its description changed and its first
/// unlocked asset locked (reported under the asset's path in the tree).
#[test]
fn cli_diff_of_projects_by_entry_path() {
    use gamebin::craftstudio::ProjectView;
    use gamebin::craftstudio::model::{ProjectModel, ProjectTree, TreeEntry};
    let bytes = gamebin::synth::craftstudio::example_file();
    let view = ProjectView::from_bytes(&bytes).unwrap();
    let mut project = ProjectModel::from_view(&view).unwrap();
    let description = project.description.clone();
    project.description = "edited".into();
    let asset = project
        .entries
        .iter_mut()
        .find(|e| !e.is_folder && !e.locked)
        .expect("an unlocked asset");
    asset.locked = true;
    let asset_id = asset.id;
    fn find(entries: &[TreeEntry], id: u16, prefix: &str) -> Option<String> {
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
    let path = find(&ProjectTree::from_view(&view).tree, asset_id, "").expect("in the tree");
    let stated = vec![
        Change::changed(
            "header/description",
            serde_json::Value::from(description).to_string(),
            "\"edited\"",
        ),
        Change::changed(format!("entries/{path}/locked"), "false", "true"),
    ];
    check_cli_pair(
        "project_edited",
        "craftstudio-project",
        &bytes,
        &project.to_bytes().unwrap(),
        stated,
    );
}

//! `gamebin diff`: pairs made by the writers with known changes; the test states the changes
//! and checks that they are exactly what `diff` reports, in the library and through the CLI
//! (whose human and JSON outputs are golden files: re-bless with `GAMEBIN_BLESS=1 cargo test
//! --test diff`).

use std::path::{Path, PathBuf};
use std::process::Command;

use gamebin::diff::{Change, Report, Status};
use gamebin::wdb::WdbView;
use gamebin::write::wdb::{TableRecord, TableValue, WdbTable, items_table, xiii1_table};

fn root() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
}

/// The items fixture and an edit of it, with the changes the edit makes, stated by hand.
fn edited_items() -> (WdbTable, WdbTable, Vec<Change>) {
    let before = items_table();
    let mut after = before.clone();
    let record = |t: &mut WdbTable, name: &str| -> usize {
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
    let report = gamebin::diff::wdb::files(&va, &vb).unwrap();
    assert_eq!(sorted(report.changes.clone()), sorted(changes));
    assert_eq!(report.status(), Status::Different);
    assert_eq!(report.status().code(), 1);
    // A file against itself, and against its own repack through JSON: equal.
    let same = gamebin::diff::wdb::files(&va, &va).unwrap();
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
    let report = gamebin::diff::wdb::files(
        &WdbView::from_bytes(&a).unwrap(),
        &WdbView::from_bytes(&b).unwrap(),
    )
    .unwrap();
    assert_eq!(
        report.changes,
        vec![Change::changed("ab_fire/bitpacked-field_0", "62", "63")]
    );
}

fn gamebin(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_gamebin"))
        .args(args)
        .current_dir(root())
        .output()
        .unwrap()
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

/// Cargo runs a package's tests from its own folder (`cli/`); the fixtures, the golden files and
/// a relative `GAMEBIN_SAMPLES` are relative to the repository root, so every test starts there.
fn at_repository_root() {
    static MOVED: std::sync::Once = std::sync::Once::new();
    MOVED.call_once(|| {
        std::env::set_current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
            .expect("the repository root");
    });
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

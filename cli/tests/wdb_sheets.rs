//! `gamebin wdb csv|xlsx` and `wdb pack` on what modders hand back: an XIII-1 file (no field
//! names in it) named with `--fields`, exported and packed back byte for byte; and workbooks
//! saved with each kind of bad edit (written here with rust_xlsxwriter, as a spreadsheet program
//! saves them, not through gamebin's own writer), which `wdb pack` refuses naming the record and
//! the column, writing nothing.

use gamebin::synth::wdb::{items_table, xiii1_table};
use gamebin::wdb::export::sheet::SheetCell;
use gamebin::wdb::export::xlsx::{META_SHEET, RECORDS_SHEET};

mod common;
use common::{gamebin, root, stderr, temp_dir};

/// The XIII-1 fixture's five cells, named by a names file: the CSV and the XLSX show the names
/// in the header row and the fixture's values under them, and pack back to the fixture's bytes;
/// `--fields-from` an XIII-2 file of the same sheet gives the same CSV.
#[test]
fn xiii1_sheets_with_field_names_pack_back_byte_for_byte() {
    let dir = temp_dir("wdb-xiii1-fields");
    let fixture = root().join("fixtures/ff13-wdb/xiii1_cells.wdb");
    let original = std::fs::read(&fixture).unwrap();
    let names = ["uBits", "fRate", "sName", "uCount", "uLast"];
    let list = dir.join("names.txt");
    std::fs::write(&list, names.join("\n")).unwrap();
    let table = xiii1_table();
    for kind in ["csv", "xlsx"] {
        let sheet = dir.join(format!("cells.{kind}"));
        let packed = dir.join(format!("cells.{kind}.wdb"));
        let out = gamebin(&[
            "wdb",
            kind,
            fixture.to_str().unwrap(),
            "--fields",
            list.to_str().unwrap(),
            "-o",
            sheet.to_str().unwrap(),
        ]);
        assert!(out.status.success(), "{kind}: {}", stderr(&out));
        let bytes = std::fs::read(&sheet).unwrap();
        // The sheet as the library reads it back: the names given, the fixture's values.
        let read = if kind == "csv" {
            gamebin::wdb::model::WdbModel::from_csv(&bytes)
        } else {
            gamebin::wdb::model::WdbModel::from_xlsx(&bytes)
        }
        .unwrap();
        let rows = read.to_sheet().unwrap().records;
        let header: Vec<SheetCell> = std::iter::once("record")
            .chain(names)
            .map(|n| SheetCell::Text(n.into()))
            .collect();
        assert_eq!(rows[0], header, "{kind}");
        // Records in the file's order (sorted by name, as the games' files are).
        let mut want = table.records.clone();
        want.sort_by(|a, b| a.name.cmp(&b.name));
        assert_eq!(read.records, want, "{kind}");
        if kind == "csv" {
            let text = String::from_utf8(bytes).unwrap();
            assert!(
                text.starts_with("record,uBits,fRate,sName,uCount,uLast\n"),
                "{text}"
            );
        }
        let out = gamebin(&[
            "wdb",
            "pack",
            sheet.to_str().unwrap(),
            "-o",
            packed.to_str().unwrap(),
        ]);
        assert!(out.status.success(), "{kind}: {}", stderr(&out));
        assert!(
            std::fs::read(&packed).unwrap() == original,
            "{kind}: not byte-identical"
        );
        // An existing output is kept: exit 1, the file untouched.
        std::fs::write(&packed, b"keep").unwrap();
        let out = gamebin(&[
            "wdb",
            "pack",
            sheet.to_str().unwrap(),
            "-o",
            packed.to_str().unwrap(),
        ]);
        assert_eq!(out.status.code(), Some(1), "{kind}");
        assert!(stderr(&out).contains("--force"), "{}", stderr(&out));
        assert_eq!(std::fs::read(&packed).unwrap(), b"keep");
    }
    // The same names taken from an XIII-2 file of the same sheet (the fixture's type list, with
    // field names): the same CSV.
    let mut named = xiii1_table();
    named.field_names = Some(names.iter().map(|s| s.to_string()).collect());
    named.write_field_names = true;
    let other = dir.join("named.wdb");
    std::fs::write(&other, named.to_bytes().unwrap()).unwrap();
    let from = dir.join("from.csv");
    let out = gamebin(&[
        "wdb",
        "csv",
        fixture.to_str().unwrap(),
        "--fields-from",
        other.to_str().unwrap(),
        "-o",
        from.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(
        std::fs::read(&from).unwrap(),
        std::fs::read(dir.join("cells.csv")).unwrap()
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Writes `rows` to a worksheet named `name` cell by cell, text as text and numbers as numbers.
fn fill(book: &mut rust_xlsxwriter::Workbook, name: &str, rows: &[Vec<SheetCell>]) {
    let ws = book.add_worksheet();
    ws.set_name(name).unwrap();
    for (r, row) in rows.iter().enumerate() {
        for (c, cell) in row.iter().enumerate() {
            let (r, c) = (r as u32, c as u16);
            match cell {
                SheetCell::Empty => {}
                SheetCell::Text(s) => {
                    ws.write_string(r, c, s).unwrap();
                }
                SheetCell::Number(n) => {
                    ws.write_number(r, c, *n).unwrap();
                }
            }
        }
    }
}

/// The items fixture's rows with `edit` made, saved as a workbook.
fn edited_workbook(edit: impl Fn(&mut Vec<Vec<SheetCell>>)) -> Vec<u8> {
    let sheet = items_table().to_sheet().unwrap();
    let mut records = sheet.records.clone();
    edit(&mut records);
    let mut book = rust_xlsxwriter::Workbook::new();
    fill(&mut book, RECORDS_SHEET, &records);
    fill(&mut book, META_SHEET, &sheet.meta);
    book.save_to_buffer().unwrap()
}

fn text(s: &str) -> SheetCell {
    SheetCell::Text(s.into())
}

fn column(rows: &[Vec<SheetCell>], name: &str) -> usize {
    rows[0].iter().position(|c| *c == text(name)).unwrap()
}

fn row(rows: &[Vec<SheetCell>], record: &str) -> usize {
    rows.iter().position(|r| r[0] == text(record)).unwrap()
}

/// Sets the cell of `record`, column `field`.
fn set(
    record: &'static str,
    field: &'static str,
    value: SheetCell,
) -> impl Fn(&mut Vec<Vec<SheetCell>>) {
    move |rows| {
        let (r, c) = (row(rows, record), column(rows, field));
        rows[r][c] = value.clone();
    }
}

#[test]
fn bad_xlsx_edits_name_the_record_and_the_column_and_write_nothing() {
    let dir = temp_dir("wdb-bad-xlsx");
    // An unedited workbook saved the same way packs to the fixture (the check is fair).
    let good = dir.join("good.xlsx");
    std::fs::write(&good, edited_workbook(|_| {})).unwrap();
    let target = dir.join("good.wdb");
    let out = gamebin(&[
        "wdb",
        "pack",
        good.to_str().unwrap(),
        "-o",
        target.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(std::fs::read(&target).unwrap() == items_table().to_bytes().unwrap());

    type Edit = Box<dyn Fn(&mut Vec<Vec<SheetCell>>)>;
    let cases: Vec<(&str, Edit, Vec<&str>)> = vec![
        (
            "too_big",
            Box::new(set("it_ether", "u4Kind", SheetCell::Number(16.0))),
            vec![
                "record \"it_ether\"",
                "u4Kind: ",
                "16 does not fit 4 unsigned bits",
            ],
        ),
        (
            "too_small",
            Box::new(set("it_ether", "i12Power", SheetCell::Number(-2049.0))),
            vec!["record \"it_ether\"", "i12Power: ", "does not fit"],
        ),
        (
            "float_in_integer",
            Box::new(set("it_potion", "u16Price", SheetCell::Number(1.5))),
            vec![
                "record \"it_potion\"",
                "u16Price: ",
                "a float (1.5) in an integer column",
            ],
        ),
        (
            "text_in_float",
            Box::new(set("it_potion", "fWeight", text("heavy"))),
            vec!["record \"it_potion\"", "fWeight: ", "is not a float"],
        ),
        (
            "duplicate_name",
            Box::new(set("it_ether", "record", text("it_potion"))),
            vec!["record \"it_potion\"", "duplicate"],
        ),
        (
            "long_name",
            Box::new(set("it_ether", "record", text("it_ether_is_too_long"))),
            vec!["record \"it_ether_is_too_long\"", "1 to 16 bytes"],
        ),
        (
            "missing_column",
            Box::new(|rows: &mut Vec<Vec<SheetCell>>| {
                let c = column(rows, "fWeight");
                for r in rows.iter_mut() {
                    if c < r.len() {
                        r.remove(c);
                    }
                }
            }),
            vec!["fWeight: ", "missing column"],
        ),
        (
            "type_changed",
            Box::new(set("!type", "u4Kind", text("u8"))),
            vec!["u4Kind: ", "type row"],
        ),
    ];
    for (name, edit, says) in cases {
        let input = dir.join(format!("{name}.xlsx"));
        std::fs::write(&input, edited_workbook(edit)).unwrap();
        let target = dir.join(format!("{name}.wdb"));
        let out = gamebin(&[
            "wdb",
            "pack",
            input.to_str().unwrap(),
            "-o",
            target.to_str().unwrap(),
        ]);
        assert_eq!(out.status.code(), Some(1), "{name}");
        let err = stderr(&out);
        for s in says {
            assert!(err.contains(s), "{name}: {s:?} not in {err}");
        }
        assert!(!target.exists(), "{name}: a file was written");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `SOURCE_DATE_EPOCH` dates the workbook: two exports a second apart are the same bytes, the
/// same as the library's workbook of that date; a value that is no number is an error naming it,
/// and nothing is written.
#[test]
fn xlsx_dated_by_source_date_epoch_is_reproducible() {
    let dir = temp_dir("wdb-xlsx-epoch");
    let fixture = root().join("fixtures/ff13-wdb/items.wdb");
    let export = |name: &str, epoch: &str| {
        let out = dir.join(name);
        let o = std::process::Command::new(env!("CARGO_BIN_EXE_gamebin"))
            .args(["wdb", "xlsx", fixture.to_str().unwrap(), "-o"])
            .arg(&out)
            .env("SOURCE_DATE_EPOCH", epoch)
            .stdin(std::process::Stdio::null())
            .output()
            .unwrap();
        (o, out)
    };
    let (o, first) = export("a.xlsx", "1000000000");
    assert!(o.status.success(), "{}", stderr(&o));
    std::thread::sleep(std::time::Duration::from_millis(1100));
    let (o, second) = export("b.xlsx", "1000000000");
    assert!(o.status.success(), "{}", stderr(&o));
    let bytes = std::fs::read(&first).unwrap();
    assert_eq!(bytes, std::fs::read(&second).unwrap());
    let view_bytes = std::fs::read(&fixture).unwrap();
    let view = gamebin::wdb::WdbView::from_bytes(&view_bytes).unwrap();
    let table = gamebin::wdb::model::WdbModel::from_view(&view, None).unwrap();
    assert_eq!(bytes, table.to_xlsx_created_at(1_000_000_000).unwrap());

    let (o, bad) = export("c.xlsx", "yesterday");
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("SOURCE_DATE_EPOCH is \"yesterday\""),
        "{}",
        stderr(&o)
    );
    assert!(!bad.exists());
}

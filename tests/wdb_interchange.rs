//! `.wdb` ↔ JSON, CSV and XLSX: every fixture and real sample round-trips byte for byte in both
//! directions (file → dump → file, and dump → file → dump), and each kind of bad edit is an
//! error naming the record and the column.

use gamebin::synth::wdb::{
    items_table, no_string_table, ps3_u64_table, string_arrays_table, xiii1_table,
};
use gamebin::wdb::WdbView;
use gamebin::wdb::model::WdbModel;

/// Every interchange format: its name, the table to its bytes, its bytes to a table.
type Encode = fn(&WdbModel) -> Vec<u8>;
type Decode = fn(&[u8]) -> Result<WdbModel, String>;
const FORMATS: [(&str, Encode, Decode); 3] = [
    (
        "json",
        |t| serde_json::to_vec_pretty(t).unwrap(),
        |b| serde_json::from_slice(b).map_err(|e| e.to_string()),
    ),
    (
        "csv",
        |t| t.to_csv().unwrap(),
        |b| WdbModel::from_csv(b).map_err(|e| e.to_string()),
    ),
    (
        "xlsx",
        |t| t.to_xlsx().unwrap(),
        |b| WdbModel::from_xlsx(b).map_err(|e| e.to_string()),
    ),
];

/// file → table → dump → table → file is the identity, and so is dump → file → dump (for XLSX,
/// whose zip carries timestamps, the rows of the dump are compared).
fn round_trips(name: &str, file: &[u8]) {
    let view = WdbView::from_bytes(file).unwrap();
    let table = WdbModel::from_view(&view, None).unwrap();
    assert_eq!(table.to_bytes().unwrap(), file, "{name}: read → write");
    for (format, encode, decode) in FORMATS {
        let dump = encode(&table);
        let back = decode(&dump).unwrap_or_else(|e| panic!("{name} {format}: {e}"));
        let packed = back.to_bytes().unwrap();
        assert!(
            packed == file,
            "{name}: {format} → .wdb is not byte-identical"
        );
        let again = WdbModel::from_view(&WdbView::from_bytes(&packed).unwrap(), None).unwrap();
        if format == "xlsx" {
            assert_eq!(
                again.to_sheet().unwrap(),
                table.to_sheet().unwrap(),
                "{name}"
            );
        } else {
            assert!(
                encode(&again) == dump,
                "{name}: .wdb → {format} → .wdb → {format} differs"
            );
        }
    }
}

#[test]
fn every_fixture_round_trips_through_json_csv_and_xlsx() {
    for (name, bytes) in gamebin::synth::wdb::fixtures().unwrap() {
        round_trips(name, &bytes);
    }
}

#[test]
#[ignore = "needs GAMEBIN_SAMPLES (real files): GAMEBIN_SAMPLES=../shared/samples cargo test -- --include-ignored"]
fn every_sample_round_trips_through_json_csv_and_xlsx() {
    let dir = std::env::var_os("GAMEBIN_SAMPLES").expect(
        "GAMEBIN_SAMPLES is not set: this test reads the real samples (run it with \
         GAMEBIN_SAMPLES=../shared/samples cargo test -- --include-ignored)",
    );
    let dir = std::path::PathBuf::from(dir).join("ff13-wdb");
    let mut seen = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "wdb") {
            round_trips(&path.display().to_string(), &std::fs::read(&path).unwrap());
            seen += 1;
        }
    }
    assert!(seen >= 2, "the samples hold two .wdb files");
}

/// The monster book's pool holds strings no field points at (the notes' evidence that the pool
/// cannot be rebuilt from the records): the dump must carry them.
#[test]
#[ignore = "needs GAMEBIN_SAMPLES (real files): GAMEBIN_SAMPLES=../shared/samples cargo test -- --include-ignored"]
fn the_monster_book_pool_holds_strings_no_record_uses() {
    let dir = std::env::var_os("GAMEBIN_SAMPLES").expect("GAMEBIN_SAMPLES is not set");
    let path =
        std::path::PathBuf::from(dir).join("ff13-wdb/bartz24_ffmoddingwpf_lr_monster_book.wdb");
    let file = std::fs::read(path).unwrap();
    let table = WdbModel::from_view(&WdbView::from_bytes(&file).unwrap(), None).unwrap();
    let pool = gamebin::wdb::export::columns::pool_strings(table.string_pool.as_ref().unwrap());
    let used: std::collections::HashSet<&str> = table
        .records
        .iter()
        .flat_map(|r| &r.values)
        .filter_map(|v| match v {
            gamebin::wdb::model::TableValue::Str(s) => Some(s.as_str()),
            _ => None,
        })
        .chain(table.string_arrays.iter().flatten().map(String::as_str))
        .collect();
    // Strings that are neither a value nor the tail of one (the writer shares tails).
    let unused: Vec<&String> = pool
        .iter()
        .filter(|s| !used.iter().any(|u| u.ends_with(s.as_str())))
        .collect();
    assert_eq!(unused.len(), 28, "{unused:?}");
    // Packing without the pool gives a valid file with the same values, but not the same bytes.
    let mut rebuilt = table.clone();
    rebuilt.string_pool = None;
    let bytes = rebuilt.to_bytes().unwrap();
    assert_ne!(bytes, file);
    let again = WdbModel::from_view(&WdbView::from_bytes(&bytes).unwrap(), None).unwrap();
    assert_eq!(again.records, table.records);
}

/// Edits `cell` (a CSV line of `record`, column `column`) of a table's CSV and packs it.
fn pack_edited_csv(table: &WdbModel, edit: impl Fn(&mut Vec<Vec<String>>)) -> String {
    let csv = String::from_utf8(table.to_csv().unwrap()).unwrap();
    let mut rows: Vec<Vec<String>> = csv
        .lines()
        .map(|l| l.split(',').map(str::to_string).collect())
        .collect();
    edit(&mut rows);
    let text: String = rows.iter().map(|r| r.join(",") + "\n").collect();
    match WdbModel::from_csv(text.as_bytes()).and_then(|t| t.to_bytes()) {
        Ok(_) => panic!("the bad edit packed"),
        Err(e) => e.to_string(),
    }
}

fn column(rows: &[Vec<String>], name: &str) -> usize {
    rows[0].iter().position(|c| c == name).unwrap()
}

fn row(rows: &[Vec<String>], record: &str) -> usize {
    rows.iter().position(|r| r[0] == record).unwrap()
}

/// Whether an error's text ends its model path with `field` (`records[1].u4Kind: …`, or the
/// column alone for the header: `fWeight: …`).
fn names_field(e: &str, field: &str) -> bool {
    e.contains(&format!(".{field}: "))
        || e.contains(&format!(": {field}: "))
        || e.starts_with(&format!("{field}: "))
}

#[test]
fn bad_csv_edits_name_the_record_and_the_column() {
    let table = items_table();
    let set = |record: &'static str, field: &'static str, value: &'static str| {
        move |rows: &mut Vec<Vec<String>>| {
            let (r, c) = (row(rows, record), column(rows, field));
            rows[r][c] = value.to_string();
        }
    };
    // A value that does not fit its bit field.
    let e = pack_edited_csv(&table, set("it_ether", "u4Kind", "16"));
    assert!(
        e.contains("record \"it_ether\"")
            && names_field(&e, "u4Kind")
            && e.contains("16 does not fit 4 unsigned bits"),
        "{e}"
    );
    let e = pack_edited_csv(&table, set("it_ether", "i12Power", "-2049"));
    assert!(
        names_field(&e, "i12Power") && e.contains("does not fit"),
        "{e}"
    );
    // A float in an integer column.
    let e = pack_edited_csv(&table, set("it_potion", "u16Price", "1.5"));
    assert!(
        e.contains("record \"it_potion\"")
            && names_field(&e, "u16Price")
            && e.contains("a float (1.5) in an integer column"),
        "{e}"
    );
    // Text in a float column.
    let e = pack_edited_csv(&table, set("it_potion", "fWeight", "heavy"));
    assert!(
        names_field(&e, "fWeight") && e.contains("is not a float"),
        "{e}"
    );
    // A duplicate record name.
    let e = pack_edited_csv(&table, set("it_ether", "record", "it_potion"));
    assert!(
        e.contains("record \"it_potion\"") && e.contains("duplicate"),
        "{e}"
    );
    // An over-long record name.
    let e = pack_edited_csv(&table, set("it_ether", "record", "it_ether_is_too_long"));
    assert!(
        e.contains("record \"it_ether_is_too_long\"") && e.contains("1 to 16 bytes"),
        "{e}"
    );
    // A missing column.
    let e = pack_edited_csv(&table, |rows| {
        let c = column(rows, "fWeight");
        let records = |r: &&mut Vec<String>| r[0] == "!type" || !r[0].starts_with('!');
        for r in rows.iter_mut().take_while(records) {
            r.remove(c);
        }
    });
    assert!(
        names_field(&e, "fWeight") && e.contains("missing column"),
        "{e}"
    );
    // A changed type.
    let e = pack_edited_csv(&table, set("!type", "u4Kind", "u8"));
    assert!(names_field(&e, "u4Kind") && e.contains("type row"), "{e}");
}

#[test]
fn bad_json_and_xlsx_edits_name_the_record_and_the_column() {
    let table = items_table();
    let mut doc: serde_json::Value = serde_json::to_value(&table).unwrap();
    let records = doc["records"].as_array_mut().unwrap();
    let ether = records
        .iter_mut()
        .find(|r| r["record"] == "it_ether")
        .unwrap();
    ether["u16Price"] = serde_json::json!(2.5);
    let e = serde_json::from_value::<WdbModel>(doc.clone())
        .unwrap()
        .to_bytes()
        .unwrap_err();
    assert_eq!(
        (e.subject(), e.path().rsplit('.').next()),
        (Some("record \"it_ether\""), Some("u16Price"))
    );
    assert!(e.path().starts_with("records["), "{e}");
    let records = doc["records"].as_array_mut().unwrap();
    let ether = records
        .iter_mut()
        .find(|r| r["record"] == "it_ether")
        .unwrap();
    ether.as_object_mut().unwrap().remove("sName");
    let e = serde_json::from_value::<WdbModel>(doc)
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("record \"it_ether\"") && e.contains("].sName") && e.contains("missing"),
        "{e}"
    );

    // XLSX: a number too large for its field, set through the rows.
    let mut sheet = table.to_sheet().unwrap();
    let (r, c) = {
        let header = &sheet.records[0];
        let c = header
            .iter()
            .position(|x| *x == gamebin::wdb::export::sheet::SheetCell::Text("u16Price".into()))
            .unwrap();
        let r = sheet
            .records
            .iter()
            .position(|row| {
                row[0] == gamebin::wdb::export::sheet::SheetCell::Text("it_elixir".into())
            })
            .unwrap();
        (r, c)
    };
    sheet.records[r][c] = gamebin::wdb::export::sheet::SheetCell::Number(65536.0);
    let e = WdbModel::from_sheet(&sheet)
        .unwrap()
        .to_bytes()
        .unwrap_err();
    assert_eq!(
        (e.subject(), e.path().rsplit('.').next()),
        (Some("record \"it_elixir\""), Some("u16Price"))
    );
    assert!(e.path().starts_with("records["), "{e}");
    sheet.records[r][c] = gamebin::wdb::export::sheet::SheetCell::Number(0.25);
    let e = WdbModel::from_sheet(&sheet).unwrap_err();
    assert_eq!(
        (e.subject(), e.path().rsplit('.').next()),
        (Some("record \"it_elixir\""), Some("u16Price"))
    );
    assert!(e.path().starts_with("records["), "{e}");
    assert!(
        e.to_string()
            .contains("a float (0.25) in an integer column"),
        "{e}"
    );
}

#[test]
fn edits_pack_and_read_back() {
    // An edit through each format: the new value is read back, the rest unchanged.
    for table in [
        items_table(),
        string_arrays_table(),
        xiii1_table(),
        no_string_table(),
        ps3_u64_table(),
    ] {
        let mut edited = table.clone();
        edited.records[0].name = "zz_new".into();
        let bytes = edited.to_bytes().unwrap();
        for (format, encode, decode) in FORMATS {
            let back = decode(&encode(&edited)).unwrap();
            assert_eq!(back.to_bytes().unwrap(), bytes, "{format}");
        }
    }
}

/// An XIII-1 table named by the user (`--fields`): the names are in every dump and come back from
/// it, and the file packed from any dump is the unnamed file's bytes (XIII-1 files store no
/// names). An XLSX sheet is a rectangle, so the short `!structitem` row comes back padded.
#[test]
fn xiii1_with_field_names_round_trips_through_every_format() {
    let names: Vec<String> = ["uBits", "fRate", "sName", "uCount", "uLast"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let mut named = xiii1_table();
    named.field_names = Some(names.clone());
    assert!(!named.write_field_names);
    let bytes = xiii1_table().to_bytes().unwrap();
    assert!(named.to_bytes().unwrap() == bytes);
    for (format, encode, decode) in FORMATS {
        let back = decode(&encode(&named)).unwrap_or_else(|e| panic!("{format}: {e}"));
        assert_eq!(back.field_names.as_ref(), Some(&names), "{format}");
        assert!(back.to_bytes().unwrap() == bytes, "{format}");
    }
}

/// A workbook whose cells name shared strings past the shared-string table (here the table's
/// part was renamed, so it is empty): found by the `interchange` fuzz target, where the XLSX
/// reader of the time indexed the table unchecked and panicked. It must be an error.
#[test]
fn a_shared_string_index_past_the_table_is_an_error_not_a_panic() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/regressions/xlsx_shared_string_index_past_the_table.xlsx"
    );
    let data = std::fs::read(path).unwrap();
    let error = WdbModel::from_xlsx(&data).expect_err("the workbook's strings are missing");
    assert!(error.to_string().contains("XLSX"), "{error}");
}

/// The workbook of `table` with its records sheet's XML passed through `edit`, the other parts as
/// written: the way a hand or a program other than a spreadsheet edits a workbook.
fn workbook_with_records_sheet(table: &WdbModel, edit: impl Fn(&str) -> String) -> Vec<u8> {
    use std::io::{Cursor, Read, Write};
    let written = table.to_xlsx().unwrap();
    let mut archive = zip::ZipArchive::new(Cursor::new(written)).unwrap();
    let mut out = zip::ZipWriter::new(Cursor::new(Vec::new()));
    let mut edited = false;
    for i in 0..archive.len() {
        let mut part = archive.by_index(i).unwrap();
        let name = part.name().unwrap().into_owned();
        let mut text = String::new();
        part.read_to_string(&mut text).unwrap();
        // rust_xlsxwriter writes the sheets in order: `records` first.
        if name == "xl/worksheets/sheet1.xml" {
            assert!(text.contains("<sheetData>"), "{text}");
            text = edit(&text);
            edited = true;
        }
        out.start_file(name, zip::write::SimpleFileOptions::default())
            .unwrap();
        out.write_all(text.as_bytes()).unwrap();
    }
    assert!(edited, "the records sheet is xl/worksheets/sheet1.xml");
    out.finish().unwrap().into_inner()
}

/// Cell references that calamine parses into `u32`s with plain arithmetic, and a range it fills cell
/// by cell: found by the `interchange` fuzz target (a `<dimension ref>` whose column overflowed,
/// a panic in a build with overflow checks). Each is an error that names the part or the sheet
/// (a far cell reads without its rectangle, to the sheet's own error), and an unedited workbook
/// rewritten the same way still reads.
#[test]
fn cell_references_no_sheet_has_are_errors_not_panics_or_huge_ranges() {
    let table = items_table();
    let same = workbook_with_records_sheet(&table, str::to_owned);
    let back = WdbModel::from_xlsx(&same).unwrap();
    assert!(back.to_bytes().unwrap() == table.to_bytes().unwrap());

    let dimension = |reference: &'static str| {
        move |xml: &str| {
            let at = xml.find("<dimension ref=\"").unwrap() + "<dimension ref=\"".len();
            let end = at + xml[at..].find('"').unwrap();
            format!("{}{reference}{}", &xml[..at], &xml[end..])
        }
    };
    // One cell at the sheet's last: calamine's range would be the rectangle around it and A1.
    let far_cell = |xml: &str| {
        xml.replace(
            "</sheetData>",
            "<row r=\"1048576\"><c r=\"XFD1048576\" t=\"inlineStr\"><is><t>far</t></is></c></row></sheetData>",
        )
    };
    // Rows of one cell each in the last column: 16,384 positions a cell.
    let last_column = |xml: &str| {
        let rows: String = (100..400)
            .map(|r| format!("<row r=\"{r}\"><c r=\"XFD{r}\"><v>1</v></c></row>"))
            .collect();
        xml.replace("</sheetData>", &format!("{rows}</sheetData>"))
    };
    let dimensions = [
        (
            "a column past u32",
            "A1:AAAAAAAAAAAAAAAA1",
            "column past XFD",
        ),
        ("a row past u32", "A1:B99999999999999", "row past 1048576"),
        (
            "a range that ends before it starts",
            "C9:A1",
            "ends before it starts",
        ),
        (
            "a column past XFD that fits a u32",
            "A1:XFE2",
            "column past XFD",
        ),
    ];
    let mut cases: Vec<(&str, Vec<u8>, &str)> = dimensions
        .into_iter()
        .map(|(what, reference, why)| {
            (
                what,
                workbook_with_records_sheet(&table, dimension(reference)),
                why,
            )
        })
        .collect();
    cases.push((
        "two cells seventeen billion positions apart",
        workbook_with_records_sheet(&table, far_cell),
        "row 1048577 has no record name",
    ));
    cases.push((
        "300 cells in the last column",
        workbook_with_records_sheet(&table, last_column),
        "cells would take",
    ));
    for (what, workbook, why) in cases {
        let error = WdbModel::from_xlsx(&workbook).expect_err(what).to_string();
        assert!(error.contains(why), "{what}: {error}");
        assert!(
            [
                "xl/worksheets/sheet1.xml",
                "sheet \"records\"",
                "row 1048577"
            ]
            .iter()
            .any(|place| error.contains(place)),
            "{what}: {error}"
        );
    }
}

//! `.wdb`: round trips through the writer (the values read back are the values the writer was
//! given), sorted lookup and its unsorted fallback, and malformed inputs → errors that name the
//! record and the field.

use gamebin::synth::wdb::{
    items_table, no_string_table, ps3_u64_table, string_arrays_table, xiii1_table,
};
use gamebin::wdb::model::{TableRecord, TableValue, WdbModel};
use gamebin::wdb::{Cell, FieldKind, Game, Value, WdbView};

/// The value the reader should give for what the writer was told.
fn expected(v: &TableValue) -> Value<'_> {
    match v {
        TableValue::Int(i) => Value::Int(*i),
        TableValue::UInt(u) => Value::UInt(*u),
        TableValue::Float(f) => Value::Float(*f),
        TableValue::Str(s) => Value::Str(s.as_bytes()),
    }
}

fn round_trip(table: &WdbModel) {
    let bytes = table.to_bytes().unwrap();
    let view = WdbView::from_bytes(&bytes).unwrap();
    assert_eq!(view.record_count(), table.records.len());
    assert!(view.is_sorted());
    view.validate().unwrap();
    match &table.field_names {
        Some(names) if table.write_field_names => {
            assert_eq!(view.game(), Game::Xiii2Lr);
            let schema = view.schema().unwrap();
            assert_eq!(schema.len(), names.len());
            for record in &table.records {
                let r = view.record_by_name(&record.name).unwrap();
                for (i, want) in record.values.iter().enumerate() {
                    assert_eq!(
                        schema.value(&r, i).unwrap(),
                        expected(want),
                        "{} {}",
                        record.name,
                        names[i]
                    );
                    assert_eq!(
                        schema.value_by_name(&r, &names[i]).unwrap().unwrap(),
                        expected(want)
                    );
                }
            }
        }
        _ => {
            assert_eq!(view.game(), Game::Xiii1);
            assert!(view.schema().is_err(), "XIII-1 has no names of its own");
            for record in &table.records {
                let r = view.record_by_name(&record.name).unwrap();
                for (i, want) in record.values.iter().enumerate() {
                    let got = view.cell(&r, i).unwrap();
                    let same = match (got, want) {
                        (Cell::Bits(w) | Cell::U32(w), TableValue::UInt(u)) => u64::from(w) == *u,
                        (Cell::Float(f), TableValue::Float(g)) => f.to_bits() == g.to_bits(),
                        (Cell::Str(s), TableValue::Str(t)) => s == t.as_bytes(),
                        _ => false,
                    };
                    assert!(same, "{} cell {i}: {got:?} vs {want:?}", record.name);
                }
            }
        }
    }
    // read → table → write is the identity on what the writer makes.
    let again = WdbModel::from_view(&view, None)
        .unwrap()
        .to_bytes()
        .unwrap();
    assert_eq!(again, bytes);
}

#[test]
fn every_fixture_table_round_trips() {
    for table in [
        items_table(),
        xiii1_table(),
        no_string_table(),
        string_arrays_table(),
        ps3_u64_table(),
    ] {
        round_trip(&table);
    }
}

#[test]
fn bit_fields_are_lsb_first_and_signed_over_their_width() {
    // The notes' verified cell: 0x0000003E holding u1QuickPop, i5attribute, i8flag = 0, -1, 0.
    let mut table = no_string_table();
    table.records.truncate(1);
    let bytes = table.to_bytes().unwrap();
    let view = WdbView::from_bytes(&bytes).unwrap();
    let schema = view.schema().unwrap();
    let r0 = view.record_by_name("r0").unwrap();
    let quick = schema
        .field(schema.index_of("u1QuickPop").unwrap())
        .unwrap();
    let cell = &r0.data()[quick.byte_offset..quick.byte_offset + 4];
    assert_eq!(cell, &0x0000_003Eu32.to_be_bytes());
    let attribute = schema.field(4).unwrap();
    assert_eq!((attribute.bit_offset, attribute.width), (1, 5));
}

#[test]
fn xiii1_cells_decode_with_caller_supplied_names() {
    let bytes = xiii1_table().to_bytes().unwrap();
    let view = WdbView::from_bytes(&bytes).unwrap();
    // Cell 0 = 0x3E = u1 0, i5 -1 (0b11111), u26 0; cell 4 = whole-word u.
    let names = [
        "u1QuickPop",
        "i5attribute",
        "u26Rest",
        "fSpeed",
        "sName",
        "uPower",
        "uBits",
    ];
    let schema = view.schema_with_names(&names).unwrap();
    let fire = view.record_by_name("ab_fire").unwrap();
    let v = |n: &str| schema.value_by_name(&fire, n).unwrap().unwrap();
    assert_eq!(v("u1QuickPop"), Value::UInt(0));
    assert_eq!(v("i5attribute"), Value::Int(-1));
    assert_eq!(v("u26Rest"), Value::UInt(0));
    // A partly used cell followed by a whole-word field is an error, naming the field.
    let e = view
        .schema_with_names(&["u1QuickPop", "i5attribute", "fSpeed"])
        .unwrap_err();
    assert_eq!(e.field, Some("fSpeed"));
    assert_eq!(v("fSpeed"), Value::Float(1.5));
    assert_eq!(v("sName").as_str(), Some("Fire"));
    assert_eq!(v("uPower"), Value::UInt(100));
    assert_eq!(v("uBits"), Value::UInt(0x8000_0001));
    assert_eq!(
        view.typelist().unwrap().iter().collect::<Vec<_>>(),
        [3, 3, 1, 1, 2, 3, 0]
    );
}

#[test]
fn string_arrays_and_u64_fields() {
    let bytes = string_arrays_table().to_bytes().unwrap();
    let view = WdbView::from_bytes(&bytes).unwrap();
    let schema = view.schema().unwrap();
    let kinds: Vec<FieldKind> = schema.fields().iter().map(|f| f.kind).collect();
    assert_eq!(
        kinds,
        [
            FieldKind::String,
            FieldKind::StrArray { array: 0 },
            FieldKind::StrArray { array: 1 },
            FieldKind::Int { signed: true },
            FieldKind::StrArray { array: 2 },
            FieldKind::Int { signed: false },
        ]
    );
    assert_eq!(view.str_arrays().unwrap().unwrap().array_count(), 3);
    let long = schema.field(4).unwrap();
    assert_eq!((long.cell, long.bit_offset, long.width), (2, 0, 12));

    let bytes = ps3_u64_table().to_bytes().unwrap();
    let view = WdbView::from_bytes(&bytes).unwrap();
    let schema = view.schema().unwrap();
    assert_eq!(schema.record_size(), 16, "4 x 3 cells + 4 for the u64");
    let frames = schema.field(2).unwrap();
    assert_eq!(frames.byte_offset, 12);
}

#[test]
fn lookup_falls_back_to_a_scan_when_names_are_unsorted() {
    let bytes = items_table().to_bytes().unwrap();
    let mut data = bytes.clone();
    let view = WdbView::from_bytes(&bytes).unwrap();
    // Swap the first two record entries (names, offsets and sizes together).
    let first = 16 + 32 * (view.entries().len() - view.record_count());
    let (a, b) = (first, first + 32);
    let entry_a = data[a..a + 32].to_vec();
    data.copy_within(b..b + 32, a);
    data[b..b + 32].copy_from_slice(&entry_a);
    let unsorted = WdbView::from_bytes(&data).unwrap();
    assert!(!unsorted.is_sorted());
    for name in ["it_antidote", "it_elixir", "it_ether", "it_potion"] {
        assert_eq!(
            unsorted.record_by_name(name).unwrap().data(),
            view.record_by_name(name).unwrap().data()
        );
    }
    assert!(unsorted.record_by_name("it_phoenix").is_none());
}

#[test]
fn the_writer_sorts_new_records_in_and_counts_them() {
    let mut table = items_table();
    table.records.push(TableRecord {
        name: "it_hipotion".into(),
        values: table.records[0].values.clone(),
    });
    let bytes = table.to_bytes().unwrap();
    let view = WdbView::from_bytes(&bytes).unwrap();
    assert_eq!(u32::from_be_bytes(bytes[4..8].try_into().unwrap()), 6 + 5);
    let names: Vec<&str> = view.records().map(|r| r.name().unwrap()).collect();
    assert_eq!(
        names,
        [
            "it_antidote",
            "it_elixir",
            "it_ether",
            "it_hipotion",
            "it_potion"
        ]
    );
}

#[test]
fn the_writer_refuses_values_that_do_not_fit() {
    let cases: [(usize, TableValue, &str); 6] = [
        (1, TableValue::UInt(65536), "u16Price"),
        (2, TableValue::UInt(16), "u4Kind"),
        (2, TableValue::Int(-1), "u4Kind"),
        (3, TableValue::Int(2048), "i12Power"),
        (3, TableValue::Int(-2049), "i12Power"),
        (5, TableValue::UInt(1 << 32), "uFlags"),
    ];
    for (field, value, name) in cases {
        let mut table = items_table();
        table.records[0].values[field] = value.clone();
        let e = table.to_bytes().unwrap_err();
        // Record 0 of the model, named by its name, and the field.
        assert_eq!(e.path(), format!("records[0].{name}"), "{value:?}");
        assert_eq!(e.subject(), Some("record \"it_potion\""), "{value:?}");
        assert!(e.to_string().contains("does not fit"), "{e}");
    }
    let mut table = items_table();
    table.records[1].name = table.records[0].name.clone();
    let e = table.to_bytes().unwrap_err();
    assert!(e.to_string().contains("duplicate"), "{e}");
    assert!(e.path() == "records[0]" || e.path() == "records[1]", "{e}");
    let mut table = items_table();
    table.records[0].name = "a_name_longer_than_16".into();
    assert!(table.to_bytes().is_err());
    let mut table = items_table();
    table.records[0].values.pop();
    let e = table.to_bytes().unwrap_err();
    assert!(e.to_string().contains("values for"), "{e}");
    assert_eq!(e.path(), "records[0]");
}

/// A type code changed under the values (or a value edited to another kind than its cell's
/// code) is refused, naming the record and the field: written, the value would be stored as the
/// other kind (an integer as a float, a u32 as a string offset) and read back as another value.
#[test]
fn the_writer_refuses_a_type_code_that_does_not_fit_the_values() {
    // XIII-2/LR: the whole-word `iWhole` cell typed float.
    let mut table = no_string_table();
    table.type_codes[0] = 1;
    let e = table.to_bytes().unwrap_err();
    assert!(
        e.path().starts_with("records[") && e.path().ends_with("].iWhole"),
        "{e}"
    );
    assert!(e.to_string().contains("type code 1 (float)"), "{e}");
    // The float field holding an integer: the same refusal.
    let mut table = items_table();
    table.records[0].values[4] = TableValue::UInt(1);
    let e = table.to_bytes().unwrap_err();
    assert_eq!(e.path(), "records[0].fWeight", "{e}");
    assert!(e.to_string().contains("an integer"), "{e}");
    // XIII-1 cells: a u32 cell typed string, a bit-packed cell typed float.
    for (cell, code, kind) in [
        (3, 2, "type code 2 (string)"),
        (0, 1, "type code 1 (float)"),
    ] {
        let mut table = xiii1_table();
        table.type_codes[cell] = code;
        let e = table.to_bytes().unwrap_err();
        assert!(e.path().starts_with("records["), "{e}");
        assert!(e.to_string().contains(kind), "{e}");
    }
    // Unchanged, every table writes.
    for table in [no_string_table(), items_table(), xiii1_table()] {
        table.to_bytes().unwrap();
    }
}

/// Replaces the first occurrence of `from` in `data` by `to` (same length).
fn patch(data: &mut [u8], from: &[u8], to: &[u8]) {
    assert_eq!(from.len(), to.len());
    let at = data
        .windows(from.len())
        .position(|w| w == from)
        .unwrap_or_else(|| panic!("{:?} not in the file", String::from_utf8_lossy(from)));
    data[at..at + to.len()].copy_from_slice(to);
}

/// The error of reading field `field` of record `record`, as text.
fn field_error(data: &[u8], record: &str, field: &str) -> String {
    let view = WdbView::from_bytes(data).unwrap();
    let schema = view.schema().unwrap();
    let r = view.record_by_name(record).unwrap();
    let e = schema.value_by_name(&r, field).unwrap().unwrap_err();
    assert_eq!(e.record, Some(record.as_bytes()));
    assert_eq!(e.field, Some(field));
    // The iterator and the visitor stop at the same first failure, naming the same record and
    // field (the record-size error names the first field).
    let first = schema
        .values(r)
        .find_map(|(_, v)| v.err())
        .expect("the iterator fails too");
    let mut seen = 0;
    let visited = schema.for_each_value(&r, |_, _| seen += 1).unwrap_err();
    assert_eq!(visited, first);
    assert_eq!(seen, schema.index_of(first.field.unwrap()).unwrap());
    if first.field == Some(field) {
        assert_eq!(first, e);
    }
    e.to_string()
}

/// `for_each_value` hands over exactly what `values` and `value` give, in field order.
fn visitor_agrees(bytes: &[u8]) {
    let view = WdbView::from_bytes(bytes).unwrap();
    let Ok(schema) = view.schema() else {
        return;
    };
    for record in view.records() {
        let mut visited = Vec::new();
        schema
            .for_each_value(&record, |field, value| visited.push((field.name, value)))
            .unwrap();
        let listed: Vec<_> = schema
            .values(record)
            .map(|(field, value)| (field.name, value.unwrap()))
            .collect();
        assert_eq!(visited, listed);
        assert_eq!(schema.values(record).len(), schema.len());
        for (i, (_, value)) in listed.iter().enumerate() {
            assert_eq!(schema.value(&record, i).unwrap(), *value);
        }
    }
}

#[test]
fn the_visitor_the_iterator_and_single_reads_agree() {
    for table in [
        items_table(),
        no_string_table(),
        string_arrays_table(),
        ps3_u64_table(),
    ] {
        visitor_agrees(&table.to_bytes().unwrap());
    }
}

#[test]
fn a_structitemnum_that_disagrees_with_the_names_is_an_error() {
    let data = items_table().to_bytes().unwrap();
    let view = WdbView::from_bytes(&data).unwrap();
    let names = view.field_names().unwrap();
    assert_eq!((names.declared(), names.stored()), (Some(6), 6));
    names.check().unwrap();
    let num = view.section("!structitemnum").unwrap().at;

    // Fewer: the peer tools would drop fWeight and uFlags; the reader says so, naming fWeight.
    let mut fewer = data.clone();
    fewer[num..num + 4].copy_from_slice(&4u32.to_be_bytes());
    let view = WdbView::from_bytes(&fewer).unwrap();
    assert_eq!(
        view.field_names().unwrap().len(),
        4,
        "read the peer tools' way"
    );
    let e = view.schema().unwrap_err();
    assert_eq!((e.record, e.field), (None, Some("fWeight")));
    assert_eq!(e.error.offset(), num as u64);
    assert_eq!(e.error.what(), "!structitemnum");
    assert!(
        e.to_string().contains("fewer names than !structitem holds"),
        "{e}"
    );
    assert_eq!(view.field_names().unwrap().check(), Err(e));
    assert!(view.validate().is_err());
    let packed = WdbModel::from_view(&view, None).unwrap_err();
    assert!(packed.to_string().contains("fewer names"), "{packed}");
    // Names supplied by the caller do not depend on the file's count.
    let names = [
        "sName", "u16Price", "u4Kind", "i12Power", "fWeight", "uFlags",
    ];
    assert_eq!(view.schema_with_names(&names).unwrap().len(), 6);

    // More: no name to blame, the count is the error.
    let mut more = data;
    more[num..num + 4].copy_from_slice(&7u32.to_be_bytes());
    let view = WdbView::from_bytes(&more).unwrap();
    let e = view.schema().unwrap_err();
    assert_eq!((e.record, e.field), (None, None));
    assert!(
        e.to_string().contains("more names than !structitem holds"),
        "{e}"
    );
}

#[test]
fn schema_errors_name_the_field() {
    // An unknown type letter.
    let mut data = items_table().to_bytes().unwrap();
    patch(&mut data, b"u4Kind\0", b"x4Kind\0");
    let e = WdbView::from_bytes(&data).unwrap().schema().unwrap_err();
    assert_eq!(e.field, Some("x4Kind"));
    assert!(e.to_string().contains("letter must be i, u, f or s"), "{e}");

    // A width-0 field in a partly used cell.
    let mut data = items_table().to_bytes().unwrap();
    patch(&mut data, b"i12Power\0", b"iX2Power\0");
    let e = WdbView::from_bytes(&data).unwrap().schema().unwrap_err();
    assert_eq!(e.field, Some("iX2Power"));
    assert!(e.to_string().contains("partly used"), "{e}");

    // More names than cells.
    let bytes = items_table().to_bytes().unwrap();
    let view = WdbView::from_bytes(&bytes).unwrap();
    let names = [
        "sName", "u16Price", "u4Kind", "i12Power", "fWeight", "uFlags", "uExtra",
    ];
    let e = view.schema_with_names(&names).unwrap_err();
    assert_eq!(e.field, Some("uExtra"));
    assert!(
        e.to_string().contains("ran out before the field names"),
        "{e}"
    );

    // An unknown cell type code.
    let mut data = items_table().to_bytes().unwrap();
    let types = WdbView::from_bytes(&data)
        .unwrap()
        .section("!!strtypelistb")
        .unwrap()
        .at;
    data[types + 3] = 7;
    let e = WdbView::from_bytes(&data).unwrap().schema().unwrap_err();
    assert!(e.to_string().contains("unknown cell type"), "{e}");
    assert_eq!(e.error.offset(), (types + 3) as u64);
}

#[test]
fn record_errors_name_the_record_and_the_field() {
    // A record of the wrong size: shrink it_potion's entry by 4 bytes.
    let mut data = items_table().to_bytes().unwrap();
    let view = WdbView::from_bytes(&data).unwrap();
    let index = view
        .entries()
        .iter()
        .position(|e| e.name_bytes() == b"it_potion")
        .unwrap();
    let size_at = 16 + 32 * index + 20;
    data[size_at + 3] -= 4;
    let e = field_error(&data, "it_potion", "fWeight");
    assert!(e.contains("record size differs"), "{e}");
    assert!(
        e.contains("\"it_potion\"") && e.contains("\"fWeight\""),
        "{e}"
    );

    // An out-of-range string offset.
    let mut data = items_table().to_bytes().unwrap();
    let view = WdbView::from_bytes(&data).unwrap();
    let at = view.record_by_name("it_ether").unwrap().offset();
    data[at..at + 4].copy_from_slice(&0x7fffu32.to_be_bytes());
    let e = field_error(&data, "it_ether", "sName");
    assert!(e.contains("outside !!string"), "{e}");

    // A missing !!string that a record needs (offset 0 still reads as "no string").
    let mut data = items_table().to_bytes().unwrap();
    patch(&mut data, b"!!string\0", b"!!strinX\0");
    let e = field_error(&data, "it_ether", "sName");
    assert!(e.contains("no !!string section"), "{e}");
    let view = WdbView::from_bytes(&data).unwrap();
    let schema = view.schema().unwrap();
    let antidote = view.record_by_name("it_antidote").unwrap();
    assert_eq!(schema.value(&antidote, 0).unwrap(), Value::Str(b""));

    // An out-of-range string-array index.
    let mut data = string_arrays_table().to_bytes().unwrap();
    let view = WdbView::from_bytes(&data).unwrap();
    let at = view.record_by_name("a1").unwrap().offset();
    data[at + 7] |= 0x0f; // s4Kind = 15, beyond its 3 items (2 words)
    let e = field_error(&data, "a1", "s4Kind");
    assert!(e.contains("outside the field's string array"), "{e}");
    // The first index past its last word (whose slots the next array's words follow).
    let mut data = string_arrays_table().to_bytes().unwrap();
    data[at + 7] = (data[at + 7] & 0xf0) | 4; // s4Kind = 4: word 2 of 2
    let e = field_error(&data, "a1", "s4Kind");
    assert!(e.contains("outside the field's string array"), "{e}");

    // A missing !!strArray that s# fields need.
    let mut data = string_arrays_table().to_bytes().unwrap();
    patch(&mut data, b"!!strArray\0", b"!!strArraX\0");
    let e = field_error(&data, "a0", "s8Icon");
    assert!(e.contains("no !!strArray"), "{e}");
}

#[test]
fn container_errors_say_where() {
    let data = items_table().to_bytes().unwrap();
    let e = WdbView::from_bytes(&data[..10]).unwrap_err();
    assert_eq!(e.what(), "WdbHeader");
    let mut bad = data.clone();
    bad[0] = b'X';
    assert_eq!(
        WdbView::from_bytes(&bad).unwrap_err().what(),
        "WdbHeader.magic"
    );
    let mut bad = data.clone();
    bad[16 + 16] = 0xff; // the first entry's offset
    let e = WdbView::from_bytes(&bad).unwrap_err();
    assert_eq!((e.offset(), e.what()), (32, "WdbEntry.offset"));
    let mut bad = data;
    bad[4..8].copy_from_slice(&u32::MAX.to_be_bytes());
    assert_eq!(
        WdbView::from_bytes(&bad).unwrap_err().what(),
        "WdbHeader.entryCount"
    );
}

/// The visitor's fast paths (one word read for all the bit fields of a cell, the sign extension
/// by `(bits ^ sign) - sign`, strings cut from their first 16 bytes, a string-array slot through
/// the step's copy of the file's layout) against the values the writer was given, over every field
/// kind: bit fields of every width 1–32 signed and unsigned at their extremes, a cell of 32
/// one-bit fields, whole-word cells, floats, u32, u64, strings of 0–40 bytes (the last one at the
/// end of `!!string`), and string arrays in four slot layouts, one not a power of two.
#[test]
fn the_visitor_gives_every_field_kind_as_written() {
    use gamebin::wdb::model::StrArrayLayout;
    let mut names: Vec<String> = vec!["sName".into(), "fScale".into(), "iWhole".into()];
    let mut codes = vec![2u32, 1, 0];
    // Widths 1..=32 in first-fit cells, alternating signed and unsigned.
    for w in 1..=32u32 {
        names.push(format!("{}{w}W{w}", if w % 2 == 0 { 'i' } else { 'u' }));
    }
    // 32 one-bit fields: one cell.
    for k in 0..32 {
        names.push(format!("u1Bit{k}"));
    }
    names.extend(["s4Kind", "u28Pad", "uWord", "sModel", "s8Icon", "i24Mid"].map(String::from));
    names.extend(["fPitch", "uCount", "u64Size", "sLast"].map(String::from));
    let widths: Vec<u32> = names
        .iter()
        .map(|n| {
            n[1..]
                .chars()
                .take_while(char::is_ascii_digit)
                .collect::<String>()
        })
        .map(|d| d.parse().unwrap_or(0))
        .collect();
    // Bit-packed cells for the fields after the first three, first fit, as the reader lays them;
    // the fields of a whole cell, with its type code.
    let whole_cell = |name: &str| match name {
        "uWord" => Some(0),
        "fPitch" => Some(1),
        "sModel" | "sLast" => Some(2),
        "uCount" | "u64Size" => Some(3),
        _ => None,
    };
    let mut used = 0;
    for (name, &w) in names.iter().zip(&widths).skip(3) {
        match whole_cell(name) {
            Some(code) => {
                codes.push(code);
                used = 32;
            }
            None if used + w > 32 || codes.len() == 3 => {
                codes.push(0);
                used = w;
            }
            None => used += w,
        }
    }
    let pool: Vec<String> = (0..=40)
        .map(|n| "abcdefghijklmnopqrstuvwxyz0123456789ABCDE"[..n].into())
        .collect();
    let mut x = 0x2545_f491_4f6c_dd1du64;
    let mut next = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    for (per_word, bits) in [(2u8, 16u8), (4, 8), (3, 10), (1, 32)] {
        let mut records = Vec::new();
        for r in 0..120usize {
            let mut values = Vec::new();
            for (name, &w) in names.iter().zip(&widths) {
                let raw = next();
                // The first records take the extremes, the rest random values.
                let pick = |lo: i128, hi: i128| match r {
                    0 => lo,
                    1 => hi,
                    2 => 0,
                    _ => lo + (raw as i128).rem_euclid(hi - lo + 1),
                };
                let value = match (name.as_bytes()[0], w) {
                    (b's', 0) => TableValue::Str(pool[(raw % 40) as usize].clone()),
                    (b's', _) => TableValue::Str(format!("{name}_{}", raw % 7)),
                    (b'f', _) => TableValue::Float(f32::from_bits(raw as u32 & 0x3fff_ffff)),
                    (b'i', 0) => TableValue::Int(pick(i32::MIN.into(), i32::MAX.into()) as i64),
                    (b'i', w) => TableValue::Int(pick(-(1 << (w - 1)), (1 << (w - 1)) - 1) as i64),
                    (_, 64) => TableValue::UInt(pick(0, u64::MAX.into()) as u64),
                    (_, 0) => TableValue::UInt(pick(0, u32::MAX.into()) as u64),
                    (_, w) => TableValue::UInt(pick(0, (1 << w) - 1) as u64),
                };
                values.push(value);
            }
            if r == 3 {
                // The longest string last in `!!string`, nothing after its NUL.
                *values.last_mut().unwrap() = TableValue::Str("z".repeat(40));
            }
            records.push(TableRecord {
                name: format!("r{r:04}"),
                values,
            });
        }
        let table = WdbModel {
            sheet_name: Some("EveryKind".into()),
            version: Some(1),
            type_codes: codes.clone(),
            field_names: Some(names.clone()),
            write_field_names: true,
            str_array: Some(StrArrayLayout {
                offsets_per_word: per_word,
                bits_per_offset: bits,
            }),
            string_arrays: vec![Vec::new(); 2],
            records: records.clone(),
            ..WdbModel::default()
        };
        let bytes = table.to_bytes().unwrap();
        let view = WdbView::from_bytes(&bytes).unwrap();
        let schema = view.schema().unwrap();
        assert_eq!(schema.len(), names.len());
        for record in view.records() {
            let written = records
                .iter()
                .find(|r| r.name.as_bytes() == record.name_bytes())
                .unwrap();
            let mut visited = Vec::new();
            schema
                .for_each_value(&record, |_, value| visited.push(value))
                .unwrap();
            let want: Vec<Value<'_>> = written.values.iter().map(expected).collect();
            assert_eq!(visited, want, "{per_word}×{bits}, {:?}", record.name());
        }
        visitor_agrees(&bytes);
    }
}

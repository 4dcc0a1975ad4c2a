//! The tables of the committed fixtures (`fixtures/ff13-wdb/`) and of the docs' examples.

use crate::wdb::model::{StrArrayLayout, TableRecord, TableValue, WdbModel};

fn record(name: &str, values: Vec<TableValue>) -> TableRecord {
    TableRecord {
        name: name.to_string(),
        values,
    }
}

fn names(list: &[&str]) -> Option<Vec<String>> {
    Some(list.iter().map(|s| s.to_string()).collect())
}

use TableValue::{Float as F, Int as I, Str as S, UInt as U};

fn s(text: &str) -> TableValue {
    S(text.to_string())
}

/// An XIII-2/LR item table: a string, three bit fields sharing one cell (u16 + u4 + i12), a float
/// and a u32. Records are listed unsorted; the writer sorts them.
pub fn items_table() -> WdbModel {
    WdbModel {
        sheet_name: Some("ItemTable".into()),
        version: Some(0x1234_5678),
        type_codes: vec![2, 0, 1, 3],
        field_names: names(&[
            "sName", "u16Price", "u4Kind", "i12Power", "fWeight", "uFlags",
        ]),
        write_field_names: true,
        records: vec![
            record(
                "it_potion",
                vec![s("Potion"), U(50), U(1), I(-100), F(0.5), U(7)],
            ),
            record(
                "it_ether",
                vec![s("Ether"), U(1500), U(2), I(2047), F(0.25), U(0)],
            ),
            record(
                "it_elixir",
                vec![
                    s("Elixir"),
                    U(65535),
                    U(15),
                    I(-2048),
                    F(1.0),
                    U(u64::from(u32::MAX)),
                ],
            ),
            record("it_antidote", vec![s(""), U(0), U(0), I(0), F(-3.5), U(1)]),
        ],
        ..WdbModel::default()
    }
}

/// The bytes of [`items_table`], for examples.
pub fn example_file() -> crate::WriteResult<Vec<u8>> {
    items_table().to_bytes()
}

/// An XIII-1 table: u32 type codes (`!!strtypelist`) and `!!typelist`, no field names; the values
/// are the cells (a bit-packed cell as its raw word).
pub fn xiii1_table() -> WdbModel {
    WdbModel {
        version: Some(3),
        type_codes: vec![0, 1, 2, 3, 0],
        wide_type_list: true,
        typelist: Some(vec![3, 3, 1, 1, 2, 3, 0]),
        records: vec![
            record(
                "ab_fire",
                vec![U(0x0000_003E), F(1.5), s("Fire"), U(100), U(0x8000_0001)],
            ),
            record(
                "ab_blizzard",
                vec![U(0), F(-0.125), s("Blizzard"), U(7), U(0xFFFF_FFFF)],
            ),
            record("ab_none", vec![U(0x1234_5678), F(0.0), s(""), U(0), U(0)]),
        ],
        ..WdbModel::default()
    }
}

/// An XIII-2/LR table without `!!string` (no string cells, so none is written): a whole-word
/// signed cell, a float, a u32 and a partly used bit-packed cell (the notes' u1 + i5 + i8).
pub fn no_string_table() -> WdbModel {
    WdbModel {
        sheet_name: Some("Rates".into()),
        version: Some(1),
        type_codes: vec![0, 1, 3, 0],
        field_names: names(&[
            "iWhole",
            "fRate",
            "uCount",
            "u1QuickPop",
            "i5attribute",
            "i8flag",
        ]),
        write_field_names: true,
        records: vec![
            record("r0", vec![I(-123_456), F(2.5), U(9), U(0), I(-1), I(0)]),
            record(
                "r1",
                vec![I(i64::from(i32::MAX)), F(0.1), U(0), U(1), I(15), I(-128)],
            ),
        ],
        ..WdbModel::default()
    }
}

/// Several string arrays with several index widths (s4, s8 sharing a cell with an i20; s12 moving
/// to the next cell), two 16-bit offsets per word, beside a `!!string` field.
pub fn string_arrays_table() -> WdbModel {
    WdbModel {
        sheet_name: Some("Arrays".into()),
        version: Some(2),
        type_codes: vec![2, 0, 0],
        field_names: names(&["sName", "s4Kind", "s8Icon", "i20Rest", "s12Long", "u20Tail"]),
        write_field_names: true,
        str_array: Some(StrArrayLayout {
            offsets_per_word: 2,
            bits_per_offset: 16,
        }),
        string_arrays: vec![Vec::new(); 3],
        records: vec![
            record(
                "a0",
                vec![
                    s("first"),
                    s("sword"),
                    s("icon_a"),
                    I(-5),
                    s("long_x"),
                    U(1),
                ],
            ),
            record(
                "a1",
                vec![
                    s("second"),
                    s("shield"),
                    s("icon_b"),
                    I(524_287),
                    s(""),
                    U(2),
                ],
            ),
            record(
                "a2",
                vec![
                    s("third"),
                    s("sword"),
                    s("icon_c"),
                    I(-524_288),
                    s("long_y"),
                    U(3),
                ],
            ),
            record(
                "a3",
                vec![
                    s("first"),
                    s("bow"),
                    s("icon_a"),
                    I(0),
                    s("long_z"),
                    U(1_048_575),
                ],
            ),
        ],
        ..WdbModel::default()
    }
}

/// The PS3 case: a type-3 cell named `u64…` holds a big-endian u64 over 8 bytes.
pub fn ps3_u64_table() -> WdbModel {
    WdbModel {
        sheet_name: Some("movie_items".into()),
        version: Some(4),
        type_codes: vec![2, 3, 3],
        field_names: names(&["sMovie", "u64Size", "uFrames"]),
        write_field_names: true,
        records: vec![
            record(
                "mv_open",
                vec![s("op.bik"), U(0x0123_4567_89AB_CDEF), U(30)],
            ),
            record("mv_end", vec![s("ed.bik"), U(u64::MAX), U(60)]),
        ],
        ..WdbModel::default()
    }
}

/// The committed fixtures (`fixtures/ff13-wdb/`).
pub fn fixtures() -> crate::WriteResult<Vec<(&'static str, Vec<u8>)>> {
    Ok(vec![
        ("items.wdb", items_table().to_bytes()?),
        ("xiii1_cells.wdb", xiii1_table().to_bytes()?),
        ("no_string.wdb", no_string_table().to_bytes()?),
        ("string_arrays.wdb", string_arrays_table().to_bytes()?),
        ("ps3_u64.wdb", ps3_u64_table().to_bytes()?),
    ])
}

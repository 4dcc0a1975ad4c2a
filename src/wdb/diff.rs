//! `.wdb` files compared by record name and field: the header sections (sheet name, version,
//! type lists, field names, string-array layout), records added and removed, and each field that
//! changed. The `!!string` pool's layout is not compared (two files with the same values but
//! strings laid out differently are equal); values are.
//!
//! Linear in the files: both are read into their owned model ([`WdbModel`]) once, and records are
//! matched by name through a hash map.

use crate::write_error::WriteError;
use std::collections::HashMap;

use crate::diff::{Change, Report};
use crate::wdb::WdbView;
use crate::wdb::export::columns::{float_text, value_keys};
use crate::wdb::model::{TableValue, WdbModel};

/// A value as the change list shows it: integers and strings as JSON writes them, floats as the
/// shortest decimal of the f32.
fn shown(v: &TableValue) -> String {
    match v {
        TableValue::Int(i) => i.to_string(),
        TableValue::UInt(u) => u.to_string(),
        TableValue::Float(f) => match float_text(*f) {
            Ok(x) => x.to_string(),
            Err(name) => name.to_string(),
        },
        TableValue::Str(s) => format!("{s:?}"),
    }
}

/// Equal values (floats by their bits: a NaN equals itself, 0 and -0 differ).
fn same(a: &TableValue, b: &TableValue) -> bool {
    match (a, b) {
        (TableValue::Float(x), TableValue::Float(y)) => x.to_bits() == y.to_bits(),
        _ => a == b,
    }
}

fn opt<T: core::fmt::Debug>(v: &Option<T>) -> String {
    match v {
        Some(v) => format!("{v:?}"),
        None => "(none)".into(),
    }
}

/// Compares two tables.
pub fn tables(a: &WdbModel, b: &WdbModel) -> Result<Report, WriteError> {
    let mut changes = Vec::new();
    let mut head = |path: &str, x: String, y: String| {
        if x != y {
            changes.push(Change::changed(path, x, y));
        }
    };
    head("!!sheetname", opt(&a.sheet_name), opt(&b.sheet_name));
    head("!!version", opt(&a.version), opt(&b.version));
    head(
        "!!strtypelist",
        format!("{:?}", a.type_codes),
        format!("{:?}", b.type_codes),
    );
    head("!!typelist", opt(&a.typelist), opt(&b.typelist));
    head(
        "!!strArrayInfo",
        opt(&a.str_array.map(|l| (l.offsets_per_word, l.bits_per_offset))),
        opt(&b.str_array.map(|l| (l.offsets_per_word, l.bits_per_offset))),
    );
    // Fields are matched by their key (field name, or XIII-1's generic cell key).
    let (keys_a, keys_b) = (value_keys(a)?, value_keys(b)?);
    let index_b: HashMap<&str, usize> = keys_b
        .iter()
        .enumerate()
        .map(|(i, k)| (k.as_str(), i))
        .collect();
    let index_a: HashMap<&str, usize> = keys_a
        .iter()
        .enumerate()
        .map(|(i, k)| (k.as_str(), i))
        .collect();
    for k in keys_a.iter().filter(|k| !index_b.contains_key(k.as_str())) {
        changes.push(Change::removed(format!("!structitem/{k}"), "(field)"));
    }
    for k in keys_b.iter().filter(|k| !index_a.contains_key(k.as_str())) {
        changes.push(Change::added(format!("!structitem/{k}"), "(field)"));
    }
    let fields: Vec<(&str, usize, usize)> = keys_a
        .iter()
        .enumerate()
        .filter_map(|(i, k)| Some((k.as_str(), i, *index_b.get(k.as_str())?)))
        .collect();

    let records_b: HashMap<&str, usize> = b
        .records
        .iter()
        .enumerate()
        .map(|(i, r)| (r.name.as_str(), i))
        .collect();
    let names_a: std::collections::HashSet<&str> =
        a.records.iter().map(|r| r.name.as_str()).collect();
    for ra in &a.records {
        let Some(&j) = records_b.get(ra.name.as_str()) else {
            changes.push(Change::removed(&ra.name, "(record)"));
            continue;
        };
        let rb = &b.records[j];
        for &(key, i, j) in &fields {
            let (Some(x), Some(y)) = (ra.values.get(i), rb.values.get(j)) else {
                continue;
            };
            if !same(x, y) {
                changes.push(Change::changed(
                    format!("{}/{key}", ra.name),
                    shown(x),
                    shown(y),
                ));
            }
        }
    }
    for rb in b
        .records
        .iter()
        .filter(|r| !names_a.contains(r.name.as_str()))
    {
        changes.push(Change::added(&rb.name, "(record)"));
    }
    Ok(Report::new(crate::Format::Ff13Wdb.name(), changes))
}

/// Compares two `.wdb` files (each with its own field names, or its cells for XIII-1).
pub fn files(a: &WdbView<'_>, b: &WdbView<'_>) -> Result<Report, WriteError> {
    tables(
        &WdbModel::from_view(a, None)?,
        &WdbModel::from_view(b, None)?,
    )
}

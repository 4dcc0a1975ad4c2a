//! `gamebin wdb pack FILE.json -o FILE.wdb`: the JSON of `gamebin dump --json` (WDBJsonTool's
//! layout), edited or not, back to a `.wdb`.

use std::path::Path;

use anyhow::{Context, Result, bail};
use gamebin::wdb::owns_string_array;
use gamebin::write::wdb::{StrArrayLayout, TableRecord, TableValue, WdbTable};
use serde_json::Value as Json;

use crate::output::{Status, report};
use crate::wdb::read_json;

pub fn run(json: &Path, output: &Path) -> Result<Status> {
    match pack(json, output) {
        Ok(()) => Ok(Status::Success),
        Err(e) => {
            report(json, &e);
            Ok(Status::SomeFailed)
        }
    }
}

fn pack(json: &Path, output: &Path) -> Result<()> {
    let doc = read_json(json)?;
    let table = table(&doc)?;
    let bytes = table.to_bytes()?;
    std::fs::write(output, bytes).with_context(|| format!("cannot write {}", output.display()))
}

fn codes(doc: &Json, key: &str) -> Result<Vec<u32>> {
    let Some(list) = doc.get(key) else {
        bail!("no {key:?} list");
    };
    list.as_array()
        .with_context(|| format!("{key:?} is not a list"))?
        .iter()
        .map(|c| {
            c.as_u64()
                .and_then(|c| u32::try_from(c).ok())
                .with_context(|| format!("{key:?}: {c} is not a type code"))
        })
        .collect()
}

fn small(doc: &Json, key: &str) -> Result<u8> {
    doc.get(key)
        .and_then(Json::as_u64)
        .and_then(|v| u8::try_from(v).ok())
        .with_context(|| format!("{key:?} must be a number 0..=255"))
}

/// A JSON value as a table value; `0x…` strings are XIII-1's raw bit-packed cells.
fn value(v: &Json, raw_bits: bool) -> Result<TableValue> {
    Ok(match v {
        Json::Number(n) => {
            if let Some(i) = n.as_i64() {
                TableValue::Int(i)
            } else if let Some(u) = n.as_u64() {
                TableValue::UInt(u)
            } else {
                // The shortest decimal of an f32 reads back to that f32 when parsed as one.
                TableValue::Float(n.to_string().parse::<f32>().context("not a float")?)
            }
        }
        Json::String(s) if raw_bits => {
            let hex = s
                .strip_prefix("0x")
                .with_context(|| format!("bit-packed cell {s:?} is not 0x…"))?;
            TableValue::UInt(u64::from(u32::from_str_radix(hex, 16)?))
        }
        Json::String(s) => TableValue::Str(s.clone()),
        other => bail!("{other} is neither a number nor a string"),
    })
}

/// The table a dump's JSON describes.
pub fn table(doc: &Json) -> Result<WdbTable> {
    let xiii1 = doc.get("isKnown").is_some();
    let names: Option<Vec<String>> = match doc.get("!structitem") {
        Some(list) => Some(
            list.as_array()
                .context("\"!structitem\" is not a list")?
                .iter()
                .map(|n| {
                    n.as_str()
                        .map(str::to_string)
                        .context("a field name is not a string")
                })
                .collect::<Result<_>>()?,
        ),
        None => None,
    };
    let version = match doc.get("!!version") {
        None | Some(Json::Null) => None,
        Some(v) => Some(
            v.as_u64()
                .and_then(|v| u32::try_from(v).ok())
                .context("\"!!version\" must be a u32")?,
        ),
    };
    let mut table = WdbTable {
        version,
        write_field_names: !xiii1,
        ..WdbTable::default()
    };
    if xiii1 {
        table.type_codes = codes(doc, "!!strtypelist")?;
        table.wide_type_list = true;
        let typelist = codes(doc, "!!typelist")?;
        table.typelist = (!typelist.is_empty()).then_some(typelist);
    } else {
        table.sheet_name = match doc.get("!!sheetname").and_then(Json::as_str) {
            None | Some("Not Specified") => None,
            Some(s) => Some(s.to_string()),
        };
        table.wide_type_list = doc
            .get("isStrTypelistV1")
            .and_then(Json::as_bool)
            .unwrap_or(false);
        table.type_codes = codes(
            doc,
            if table.wide_type_list {
                "!!strtypelist"
            } else {
                "!!strtypelistb"
            },
        )?;
        if doc.get("hasTypelist").and_then(Json::as_bool) == Some(true) {
            table.typelist = Some(codes(doc, "!!typelist")?);
        }
        if doc.get("hasStrArray").and_then(Json::as_bool) == Some(true) {
            table.str_array = Some(StrArrayLayout {
                offsets_per_word: small(doc, "offsetsPerValue")?,
                bits_per_offset: small(doc, "bitsPerOffset")?,
            });
            let arrays = names
                .iter()
                .flatten()
                .filter(|n| owns_string_array(n))
                .count();
            table.string_arrays = vec![Vec::new(); arrays];
        }
    }
    let records = doc
        .get("records")
        .and_then(Json::as_array)
        .context("no \"records\" list")?;
    for (i, record) in records.iter().enumerate() {
        let name = record
            .get("record")
            .and_then(Json::as_str)
            .with_context(|| format!("record {i} has no \"record\" name"))?
            .to_string();
        let field = |key: &str| -> Result<&Json> {
            record
                .get(key)
                .with_context(|| format!("record {name:?} has no {key:?}"))
        };
        let mut values = Vec::new();
        match &names {
            Some(names) => {
                for n in names {
                    let v = match record.get(n.as_str()) {
                        Some(v) => v,
                        None => field(&format!("{n}(uint64)"))?,
                    };
                    values.push(
                        value(v, false).with_context(|| format!("record {name:?}, field {n:?}"))?,
                    );
                }
            }
            None => {
                let mut counters = [0usize; 4];
                for &code in &table.type_codes {
                    let key = match code {
                        0 => "bitpacked-field",
                        1 => "float-field",
                        2 => "!!string-field",
                        3 => "uint-field",
                        other => bail!("unknown cell type {other}"),
                    };
                    let slot = code as usize;
                    let key = format!("{key}_{}", counters[slot]);
                    counters[slot] += 1;
                    values.push(
                        value(field(&key)?, code == 0)
                            .with_context(|| format!("record {name:?}, {key:?}"))?,
                    );
                }
            }
        }
        table.records.push(TableRecord { name, values });
    }
    table.field_names = names;
    Ok(table)
}

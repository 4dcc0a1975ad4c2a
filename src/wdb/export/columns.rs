//! The columns of a table as the interchange formats name them (JSON keys, spreadsheet headers)
//! and how they write floats.

use crate::wdb::FieldKind;
use crate::wdb::model::WdbModel;
use crate::write_error::{WriteError, WriteErrorKind};

/// The key a record's `u64…` field has in WDBJsonTool's layout.
pub const U64_SUFFIX: &str = "(uint64)";

/// The generic keys of an XIII-1 file's cells (no field names), by type code.
pub const CELL_KEYS: [&str; 4] = [
    "bitpacked-field",
    "float-field",
    "!!string-field",
    "uint-field",
];

/// The type codes a cell may have, as the error of an unknown one lists them.
pub(crate) const CELL_TYPES: &str = " (0 bit-packed, 1 float, 2 string, 3 u32)";

/// The JSON key of each value of a record: field names (`u64…` fields with `(uint64)`), or the
/// generic cell keys (`bitpacked-field_0`, `float-field_0`, …) without names.
pub fn value_keys(table: &WdbModel) -> Result<Vec<String>, WriteError> {
    let Some(names) = &table.field_names else {
        let mut counters = [0usize; 4];
        return table
            .type_codes
            .iter()
            .map(|&code| {
                let slot = usize::try_from(code)
                    .ok()
                    .filter(|&s| s < 4)
                    .ok_or_else(|| {
                        WriteError::new(WriteErrorKind::Unknown {
                            what: "cell type",
                            name: code.to_string(),
                            note: CELL_TYPES,
                        })
                    })?;
                let key = format!("{}_{}", CELL_KEYS[slot], counters[slot]);
                counters[slot] += 1;
                Ok(key)
            })
            .collect();
    };
    let schema = table.schema()?;
    Ok(names
        .iter()
        .zip(schema.iter().flat_map(|s| s.fields()))
        .map(|(name, spec)| {
            if spec.kind == FieldKind::U64 {
                format!("{name}{U64_SUFFIX}")
            } else {
                name.clone()
            }
        })
        .collect())
}

/// An f32 as WDBJsonTool writes it: the shortest decimal that reads back to the same f32 (as
/// an f64 of that decimal); NaN and the infinities as `"nan"`, `"inf"`, `"-inf"`.
pub fn float_text(x: f32) -> Result<f64, &'static str> {
    if x.is_nan() {
        return Err("nan");
    }
    if x.is_infinite() {
        return Err(if x > 0.0 { "inf" } else { "-inf" });
    }
    Ok(format!("{x}").parse::<f64>().unwrap_or(f64::from(x)))
}

/// `!!string` as its NUL-terminated strings (an unterminated tail counts as one more).
pub fn pool_strings(pool: &[u8]) -> Vec<String> {
    let body = pool.strip_suffix(&[0]).unwrap_or(pool);
    body.split(|&b| b == 0)
        .map(|s| String::from_utf8_lossy(s).into_owned())
        .collect()
}

/// The bytes of a pool given as its strings.
pub fn pool_bytes(strings: &[String]) -> Vec<u8> {
    let mut out = Vec::new();
    for s in strings {
        out.extend_from_slice(s.as_bytes());
        out.push(0);
    }
    out
}

/// The name of the type-list section: `!!strtypelist` (u32 codes) or `!!strtypelistb` (bytes).
pub fn type_list_key(wide: bool) -> &'static str {
    if wide {
        "!!strtypelist"
    } else {
        "!!strtypelistb"
    }
}

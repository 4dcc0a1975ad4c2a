//! [`WdbModel`] as JSON in WDBJsonTool's layout (feature `serde`): the same keys, numbers and
//! strings as the independent oracle (`wdb_oracle.py`), plus two keys of our own after
//! `records` so that an unedited dump packs back byte for byte:
//!
//! - `"!!string"`: the `!!string` section as its strings in stored order. The games' writer does
//!   not lay the pool out from the records alone: a real LR file (`monster_book.wdb`) holds 28
//!   strings that no field or string array points at, and its order follows no order of the
//!   records, so the pool is carried as it is. Strings edited in or out of the records are
//!   appended after it (an unused string stays, as it does in the game's files).
//! - `"!!strArray"`: each string array's items in slot order (a record's `s#` field stores the
//!   index of its string in its array, which the resolved string alone does not give).
//!
//! Serialization goes through any serde format; deserialization needs a self-describing one
//! (JSON). A value that does not fit its field is found by [`WdbModel::to_bytes`], which names
//! the record and field.

use crate::write_error::{WriteError, WriteErrorKind};
use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::ser::{Serialize, SerializeMap, SerializeSeq, Serializer};

use super::{StrArrayLayout, TableRecord, TableValue, WdbModel};
use crate::wdb::export::columns::{
    float_text, pool_bytes, pool_strings, type_list_key, value_keys,
};
use crate::wdb::owns_string_array;

/// How WDBJsonTool writes a missing sheet name.
const NO_SHEET: &str = "Not Specified";

/// One value as the layout writes it.
struct JsonValue<'t>(&'t TableValue, bool);

impl Serialize for JsonValue<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match (self.0, self.1) {
            // XIII-1's bit-packed cells, opaque: the tool writes them in hex.
            (TableValue::UInt(w), true) => s.serialize_str(&format!("0x{w:08X}")),
            (TableValue::Int(i), _) => s.serialize_i64(*i),
            (TableValue::UInt(u), _) => s.serialize_u64(*u),
            (TableValue::Float(f), _) => match float_text(*f) {
                Ok(v) => s.serialize_f64(v),
                Err(text) => s.serialize_str(text),
            },
            (TableValue::Str(t), _) => s.serialize_str(t),
        }
    }
}

struct JsonRecord<'t> {
    record: &'t TableRecord,
    keys: &'t [String],
    raw_bits: &'t [bool],
}

impl Serialize for JsonRecord<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(self.keys.len() + 1))?;
        map.serialize_entry("record", &self.record.name)?;
        for ((key, value), &raw) in self.keys.iter().zip(&self.record.values).zip(self.raw_bits) {
            map.serialize_entry(key, &JsonValue(value, raw))?;
        }
        map.end()
    }
}

struct Strings<'t>(&'t [String]);

impl Serialize for Strings<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(Some(self.0.len()))?;
        for item in self.0 {
            seq.serialize_element(item)?;
        }
        seq.end()
    }
}

impl Serialize for WdbModel {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::Error as _;
        let keys = value_keys(self).map_err(S::Error::custom)?;
        let raw_bits: Vec<bool> = if self.field_names.is_none() {
            self.type_codes.iter().map(|&c| c == 0).collect()
        } else {
            vec![false; keys.len()]
        };
        let mut map = s.serialize_map(None)?;
        map.serialize_entry("recordCount", &self.records.len())?;
        if self.write_field_names {
            let sheet = self.sheet_name.as_deref().filter(|s| !s.is_empty());
            map.serialize_entry("!!sheetname", sheet.unwrap_or(NO_SHEET))?;
            map.serialize_entry("hasStrArray", &self.str_array.is_some())?;
            if let Some(layout) = self.str_array {
                map.serialize_entry("bitsPerOffset", &layout.bits_per_offset)?;
                map.serialize_entry("offsetsPerValue", &layout.offsets_per_word)?;
            }
            map.serialize_entry("isStrTypelistV1", &self.wide_type_list)?;
            map.serialize_entry(type_list_key(self.wide_type_list), &self.type_codes)?;
            map.serialize_entry("hasTypelist", &self.typelist.is_some())?;
            if let Some(t) = &self.typelist {
                map.serialize_entry("!!typelist", t)?;
            }
        } else {
            map.serialize_entry("isKnown", &self.field_names.is_some())?;
            map.serialize_entry("!!strtypelist", &self.type_codes)?;
            map.serialize_entry("!!typelist", self.typelist.as_deref().unwrap_or(&[]))?;
        }
        map.serialize_entry("!!version", &self.version)?;
        if let Some(names) = &self.field_names {
            map.serialize_entry("!structitem", &Strings(names))?;
        }
        let records: Vec<JsonRecord<'_>> = self
            .records
            .iter()
            .map(|record| JsonRecord {
                record,
                keys: &keys,
                raw_bits: &raw_bits,
            })
            .collect();
        map.serialize_entry("records", &records)?;
        if let Some(pool) = &self.string_pool {
            map.serialize_entry("!!string", &Strings(&pool_strings(pool)))?;
        }
        if self.str_array.is_some() {
            let arrays: Vec<Strings<'_>> = self.string_arrays.iter().map(|a| Strings(a)).collect();
            map.serialize_entry("!!strArray", &arrays)?;
        }
        map.end()
    }
}

/// A JSON value, as deserialized before it is checked against the layout.
#[derive(Debug, Clone, PartialEq)]
pub enum Node {
    /// `null`.
    Null,
    /// `true` / `false`.
    Bool(bool),
    /// A negative integer.
    Int(i64),
    /// A non-negative integer.
    UInt(u64),
    /// A number with a fraction or exponent.
    Float(f64),
    /// A string.
    Str(String),
    /// A list.
    Seq(Vec<Node>),
    /// An object, its keys in document order.
    Map(Vec<(String, Node)>),
}

impl Node {
    /// The value of `key` in an object (the first, if repeated).
    pub fn get(&self, key: &str) -> Option<&Node> {
        match self {
            Node::Map(entries) => entries.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    fn as_u64(&self) -> Option<u64> {
        match *self {
            Node::UInt(u) => Some(u),
            _ => None,
        }
    }

    fn as_bool(&self) -> Option<bool> {
        match *self {
            Node::Bool(b) => Some(b),
            _ => None,
        }
    }

    fn as_str(&self) -> Option<&str> {
        match self {
            Node::Str(s) => Some(s),
            _ => None,
        }
    }

    fn as_seq(&self) -> Option<&[Node]> {
        match self {
            Node::Seq(s) => Some(s),
            _ => None,
        }
    }

    /// How an error shows the value.
    fn shown(&self) -> String {
        match self {
            Node::Null => "null".into(),
            Node::Bool(b) => b.to_string(),
            Node::Int(i) => i.to_string(),
            Node::UInt(u) => u.to_string(),
            Node::Float(f) => f.to_string(),
            Node::Str(s) => format!("{s:?}"),
            Node::Seq(_) => "a list".into(),
            Node::Map(_) => "an object".into(),
        }
    }
}

impl<'de> Deserialize<'de> for Node {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct NodeVisitor;
        impl<'de> Visitor<'de> for NodeVisitor {
            type Value = Node;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a JSON value")
            }
            fn visit_unit<E>(self) -> Result<Node, E> {
                Ok(Node::Null)
            }
            fn visit_none<E>(self) -> Result<Node, E> {
                Ok(Node::Null)
            }
            fn visit_bool<E>(self, v: bool) -> Result<Node, E> {
                Ok(Node::Bool(v))
            }
            fn visit_i64<E>(self, v: i64) -> Result<Node, E> {
                Ok(u64::try_from(v).map_or(Node::Int(v), Node::UInt))
            }
            fn visit_u64<E>(self, v: u64) -> Result<Node, E> {
                Ok(Node::UInt(v))
            }
            fn visit_f64<E>(self, v: f64) -> Result<Node, E> {
                Ok(Node::Float(v))
            }
            fn visit_str<E>(self, v: &str) -> Result<Node, E> {
                Ok(Node::Str(v.to_string()))
            }
            fn visit_string<E>(self, v: String) -> Result<Node, E> {
                Ok(Node::Str(v))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Node, A::Error> {
                let mut out = Vec::new();
                while let Some(v) = seq.next_element()? {
                    out.push(v);
                }
                Ok(Node::Seq(out))
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Node, A::Error> {
                let mut out = Vec::new();
                while let Some((k, v)) = map.next_entry::<String, Node>()? {
                    out.push((k, v));
                }
                Ok(Node::Map(out))
            }
        }
        d.deserialize_any(NodeVisitor)
    }
}

impl<'de> Deserialize<'de> for WdbModel {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let doc = Node::deserialize(d)?;
        WdbModel::from_json(&doc).map_err(de::Error::custom)
    }
}

fn codes(doc: &Node, key: &str) -> Result<Vec<u32>, WriteError> {
    let list = doc
        .get(key)
        .ok_or_else(|| WriteError::missing("list", Some(key)))?
        .as_seq()
        .ok_or_else(|| WriteError::not_a("", format!("{key:?}"), "a list"))?;
    list.iter()
        .map(|c| {
            c.as_u64()
                .and_then(|c| u32::try_from(c).ok())
                .ok_or_else(|| {
                    WriteError::not_a("", c.shown(), "a type code").about(format_args!("{key:?}"))
                })
        })
        .collect()
}

fn small(doc: &Node, key: &str) -> Result<u8, WriteError> {
    doc.get(key)
        .and_then(Node::as_u64)
        .and_then(|v| u8::try_from(v).ok())
        .ok_or_else(|| {
            WriteError::new(WriteErrorKind::NotA {
                what: format!("{key:?}"),
                found: None,
                expected: "a number 0..=255",
            })
        })
}

fn strings(node: &Node, what: &str) -> Result<Vec<String>, WriteError> {
    node.as_seq()
        .ok_or_else(|| WriteError::not_a("", format!("{what:?}"), "a list"))?
        .iter()
        .map(|n| {
            n.as_str().map(str::to_string).ok_or_else(|| {
                WriteError::not_a("", n.shown(), "a string").about(format_args!("{what:?}"))
            })
        })
        .collect()
}

/// A JSON value as a table value; `0x…` strings are XIII-1's raw bit-packed cells.
fn value(v: &Node, raw_bits: bool) -> Result<TableValue, WriteError> {
    Ok(match v {
        Node::Int(i) => TableValue::Int(*i),
        Node::UInt(u) => TableValue::UInt(*u),
        // The shortest decimal of an f32 reads back to that f32.
        Node::Float(f) => TableValue::Float(*f as f32),
        Node::Str(s) if raw_bits => {
            let word = s
                .strip_prefix("0x")
                .and_then(|hex| u32::from_str_radix(hex, 16).ok())
                .ok_or_else(|| WriteError::not_a("bit-packed cell", format!("{s:?}"), "0x…"))?;
            TableValue::UInt(u64::from(word))
        }
        Node::Str(s) => TableValue::Str(s.clone()),
        other => {
            return Err(WriteError::message(format!(
                "{} is neither a number nor a string",
                other.shown()
            )));
        }
    })
}

impl WdbModel {
    /// The table a document in WDBJsonTool's layout describes (what `gamebin dump --json`
    /// prints). Errors name the record and the key; values are checked against their fields
    /// by [`to_bytes`](Self::to_bytes).
    pub fn from_json(doc: &Node) -> Result<WdbModel, WriteError> {
        let xiii1 = doc.get("isKnown").is_some();
        let names = match doc.get("!structitem") {
            Some(list) => Some(strings(list, "!structitem")?),
            None => None,
        };
        let version =
            match doc.get("!!version") {
                None | Some(Node::Null) => None,
                Some(v) => Some(v.as_u64().and_then(|v| u32::try_from(v).ok()).ok_or_else(
                    || {
                        WriteError::new(WriteErrorKind::NotA {
                            what: "\"!!version\"".into(),
                            found: None,
                            expected: "a u32",
                        })
                    },
                )?),
            };
        let mut table = WdbModel {
            version,
            write_field_names: !xiii1,
            ..WdbModel::default()
        };
        if xiii1 {
            table.type_codes = codes(doc, "!!strtypelist")?;
            table.wide_type_list = true;
            let typelist = codes(doc, "!!typelist")?;
            table.typelist = (!typelist.is_empty()).then_some(typelist);
        } else {
            table.sheet_name = match doc.get("!!sheetname").and_then(Node::as_str) {
                None | Some(NO_SHEET) => None,
                Some(s) => Some(s.to_string()),
            };
            table.wide_type_list = doc
                .get("isStrTypelistV1")
                .and_then(Node::as_bool)
                .unwrap_or(false);
            table.type_codes = codes(doc, type_list_key(table.wide_type_list))?;
            if doc.get("hasTypelist").and_then(Node::as_bool) == Some(true) {
                table.typelist = Some(codes(doc, "!!typelist")?);
            }
            if doc.get("hasStrArray").and_then(Node::as_bool) == Some(true) {
                table.str_array = Some(StrArrayLayout {
                    offsets_per_word: small(doc, "offsetsPerValue")?,
                    bits_per_offset: small(doc, "bitsPerOffset")?,
                });
                let arrays = names
                    .iter()
                    .flatten()
                    .filter(|n| owns_string_array(n))
                    .count();
                table.string_arrays = match doc.get("!!strArray") {
                    Some(list) => list
                        .as_seq()
                        .ok_or_else(|| WriteError::not_a("", "\"!!strArray\"", "a list of lists"))?
                        .iter()
                        .map(|a| strings(a, "!!strArray"))
                        .collect::<Result<_, _>>()?,
                    None => vec![Vec::new(); arrays],
                };
            }
        }
        if let Some(pool) = doc.get("!!string") {
            table.string_pool = Some(pool_bytes(&strings(pool, "!!string")?));
        }
        table.field_names = names;
        let keys = value_keys(&table)?;
        let records = doc
            .get("records")
            .and_then(Node::as_seq)
            .ok_or_else(|| WriteError::missing("list", Some("records")))?;
        for (i, record) in records.iter().enumerate() {
            let name = record
                .get("record")
                .and_then(Node::as_str)
                .ok_or_else(|| {
                    WriteError::new(WriteErrorKind::Missing {
                        what: "\"record\" name",
                        name: None,
                        owner: Some(("record", crate::bytes::u64_of(i))),
                    })
                })?
                .to_string();
            let mut values = Vec::with_capacity(keys.len());
            for (k, key) in keys.iter().enumerate() {
                let raw_bits = table.field_names.is_none() && table.type_codes.get(k) == Some(&0);
                let v = record.get(key).ok_or_else(|| {
                    let e = WriteError::missing("missing column", None);
                    super::in_record(e, i, &name, Some(key.as_str()))
                })?;
                values.push(
                    value(v, raw_bits)
                        .map_err(|e| super::in_record(e, i, &name, Some(key.as_str())))?,
                );
            }
            table.records.push(TableRecord { name, values });
        }
        Ok(table)
    }
}

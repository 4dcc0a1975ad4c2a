//! What the CLI shows of a Final Fantasy XIII `.wdb`: the info line, and the JSON layout that
//! WDBJsonTool users know (the same keys, numbers and strings as `wdb_oracle.py`).

use crate::output::count;
use std::path::Path;

use anyhow::{Context, Result};
use gamebin::wdb::{Cell, Game, Schema, Value, WdbView};
use serde::Serialize;
use serde::ser::SerializeMap;
use serde_json::Value as Json;

#[derive(Debug, Serialize)]
pub struct Info {
    pub path: String,
    pub format: &'static str,
    pub game: &'static str,
    pub sheet: Option<String>,
    pub records: usize,
    pub fields: usize,
    pub record_size: usize,
    pub sections: Vec<String>,
}

/// `fields` and `record_size` come from the schema; an XIII-1 file (no names) counts its cells.
pub fn info(path: &Path, data: &[u8]) -> Result<Info> {
    let view = WdbView::from_bytes(data)?;
    let (fields, record_size) = match view.game() {
        Game::Xiii2Lr => {
            let schema = view.schema().map_err(owned)?;
            (schema.len(), schema.record_size())
        }
        Game::Xiii1 => {
            let cells = view.type_list().map_or(0, |t| t.len());
            (cells, cells * 4)
        }
    };
    Ok(Info {
        path: path.display().to_string(),
        format: gamebin::Format::Ff13Wdb.name(),
        game: view.game().name(),
        sheet: view
            .sheet_name()
            .map(|s| String::from_utf8_lossy(s).into_owned()),
        records: view.record_count(),
        fields,
        record_size,
        sections: view
            .sections()
            .map(|(name, _)| String::from_utf8_lossy(name).into_owned())
            .collect(),
    })
}

pub fn info_line(i: &Info) -> String {
    format!(
        "{}: {} ({}), sheet {}, {} of {}, {}, sections {}",
        i.path,
        i.format,
        i.game,
        i.sheet.as_deref().unwrap_or("(none)"),
        count(i.records, "record", "records"),
        count(i.record_size, "byte", "bytes"),
        count(i.fields, "field", "fields"),
        i.sections.join(" "),
    )
}

/// A JSON object that keeps its keys in insertion order (serde_json's map sorts them).
#[derive(Debug, Default)]
pub struct Object(pub Vec<(String, Json)>);

impl Object {
    fn put(&mut self, key: impl Into<String>, value: impl Into<Json>) {
        self.0.push((key.into(), value.into()));
    }
}

impl Serialize for Object {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(self.0.len()))?;
        for (k, v) in &self.0 {
            map.serialize_entry(k, v)?;
        }
        map.end()
    }
}

/// The dump: the header object, then `records`.
#[derive(Debug)]
pub struct Dump {
    pub head: Object,
    pub records: Vec<Object>,
}

impl Serialize for Dump {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(self.head.0.len() + 1))?;
        for (k, v) in &self.head.0 {
            map.serialize_entry(k, v)?;
        }
        map.serialize_entry("records", &self.records)?;
        map.end()
    }
}

/// Turns a borrowed reader error into an owned one.
fn owned(e: gamebin::wdb::WdbError<'_>) -> anyhow::Error {
    anyhow::anyhow!("{e}")
}

/// An f32 as WDBJsonTool writes it: the shortest decimal that reads back to the same f32.
pub fn float(x: f32) -> Json {
    if x.is_nan() {
        return Json::from("nan");
    }
    if x.is_infinite() {
        return Json::from(if x > 0.0 { "inf" } else { "-inf" });
    }
    format!("{x}")
        .parse::<f64>()
        .ok()
        .and_then(serde_json::Number::from_f64)
        .map_or(Json::Null, Json::Number)
}

fn text(bytes: &[u8]) -> Json {
    Json::from(String::from_utf8_lossy(bytes).into_owned())
}

fn value(v: Value<'_>) -> Json {
    match v {
        Value::Int(i) => Json::from(i),
        Value::UInt(u) => Json::from(u),
        Value::Float(f) => float(f),
        Value::Str(s) => text(s),
    }
}

/// The dump of a file, with `names` overriding (or, for XIII-1, supplying) the field names.
pub fn dump(data: &[u8], names: Option<&[&str]>) -> Result<Dump> {
    let view = WdbView::from_bytes(data)?;
    let types: Vec<Json> = view
        .type_list()
        .map(|t| t.iter().map(Json::from).collect())
        .unwrap_or_default();
    let typelist: Option<Vec<Json>> = view.typelist().map(|t| t.iter().map(Json::from).collect());
    let mut head = Object::default();
    head.put("recordCount", view.record_count());
    let file_names: Option<Vec<&str>> = match view.field_names() {
        Some(n) => {
            if names.is_none() {
                // The file's own names are used: their count must agree with them.
                n.check().map_err(owned)?;
            }
            Some(n.iter().collect::<gamebin::Result<_>>()?)
        }
        None => None,
    };
    let schema_names: Option<Vec<&str>> = names.map(<[&str]>::to_vec).or(file_names);
    if view.game() == Game::Xiii2Lr {
        let sheet = view.sheet_name().unwrap_or(&[]);
        head.put(
            "!!sheetname",
            if sheet.is_empty() {
                Json::from("Not Specified")
            } else {
                text(sheet)
            },
        );
        let arrays = view.str_arrays()?;
        head.put("hasStrArray", arrays.is_some());
        if let Some(a) = arrays {
            head.put("bitsPerOffset", a.bits_per_offset());
            head.put("offsetsPerValue", a.offsets_per_word());
        }
        let wide = view.type_list().is_some_and(|t| t.is_wide());
        head.put("isStrTypelistV1", wide);
        head.put(
            if wide {
                "!!strtypelist"
            } else {
                "!!strtypelistb"
            },
            types,
        );
        head.put("hasTypelist", typelist.is_some());
        if let Some(t) = typelist {
            head.put("!!typelist", t);
        }
    } else {
        head.put("isKnown", schema_names.is_some());
        head.put("!!strtypelist", types);
        head.put("!!typelist", typelist.unwrap_or_default());
    }
    head.put("!!version", view.version());
    let mut records = Vec::with_capacity(view.record_count());
    match &schema_names {
        Some(names) => {
            head.put(
                "!structitem",
                names.iter().map(|&n| Json::from(n)).collect::<Vec<_>>(),
            );
            let schema: Schema<'_> = view.schema_with_names(names).map_err(owned)?;
            for record in view.records() {
                let mut out = Object::default();
                out.put("record", text(record.name_bytes()));
                for (field, v) in schema.values(record) {
                    let v = v.map_err(owned)?;
                    if field.kind == gamebin::wdb::FieldKind::U64 {
                        out.put(format!("{}(uint64)", field.name), value(v));
                    } else {
                        out.put(field.name, value(v));
                    }
                }
                records.push(out);
            }
        }
        None => {
            for record in view.records() {
                let mut out = Object::default();
                out.put("record", text(record.name_bytes()));
                let mut counters = [0usize; 4];
                for cell in view.cells(record) {
                    let (slot, key, v) = match cell.map_err(owned)? {
                        Cell::Bits(w) => (0, "bitpacked-field", Json::from(format!("0x{w:08X}"))),
                        Cell::Float(f) => (1, "float-field", float(f)),
                        Cell::Str(s) => (2, "!!string-field", text(s)),
                        Cell::U32(u) => (3, "uint-field", Json::from(u)),
                    };
                    out.put(format!("{key}_{}", counters[slot]), v);
                    counters[slot] += 1;
                }
                records.push(out);
            }
        }
    }
    Ok(Dump { head, records })
}

pub fn dump_text(d: &Dump) -> Result<String> {
    use std::fmt::Write as _;
    let mut s = String::new();
    for (k, v) in &d.head.0 {
        if v.is_array() {
            writeln!(s, "{k}: {}", serde_json::to_string(v)?)?;
        } else {
            writeln!(s, "{k}: {v}")?;
        }
    }
    for r in &d.records {
        let mut fields = r.0.iter();
        let name = fields
            .next()
            .map(|(_, v)| v.to_string())
            .unwrap_or_default();
        let rest: Vec<String> = fields.map(|(k, v)| format!("{k}={v}")).collect();
        writeln!(s, "{name}: {}", rest.join(" "))?;
    }
    Ok(s)
}

/// A value parser for each name typed after `--fields`, so that a bad name is a usage error about
/// the command line (exit 2), not an error at a file offset: a name starts with its type letter
/// (`i`, `u`, `f` or `s`), and a bit width, when given, is at most 32.
pub fn field_name(name: &str) -> std::result::Result<String, String> {
    match name.as_bytes().first() {
        None => return Err("empty field name (two commas in a row?)".into()),
        Some(b'i' | b'u' | b'f' | b's') => {}
        Some(_) => {
            return Err(
                "a field name starts with its type letter: i (signed), u (unsigned), \
                        f (float) or s (string), e.g. uPrice, i12Power, sName"
                    .into(),
            );
        }
    }
    let width = gamebin::wdb::name_width(name);
    if width > 32 {
        return Err(format!("bit width {width} is over 32"));
    }
    Ok(name.to_owned())
}

/// `gamebin wdb json FILE --fields a,b`: the dump with supplied names.
pub fn json(path: &Path, fields: &[String]) -> Result<crate::output::Status> {
    let run = || -> Result<String> {
        let (file, format) = crate::files::open_known(path, crate::files::ReadOptions::default())?;
        if format != gamebin::Format::Ff13Wdb {
            anyhow::bail!("this is {format}, not a .wdb");
        }
        let names: Vec<&str> = fields.iter().map(String::as_str).collect();
        let dump = if names.is_empty() {
            dump(&file, None)?
        } else {
            dump(&file, Some(&names[..])).context(
                "the field names given with --fields do not fit this file's type list \
                 (its cells, bit-packed fields and strings)",
            )?
        };
        Ok(serde_json::to_string_pretty(&dump)?)
    };
    match run() {
        Ok(text) => {
            let mut out = crate::output::Out::new();
            out.line(&text)?;
            out.flush()?;
            Ok(crate::output::Status::Success)
        }
        Err(e) => {
            crate::output::report(path, &e);
            Ok(crate::output::Status::SomeFailed)
        }
    }
}

/// Reads a dump's JSON file for `wdb pack`.
pub fn read_json(path: &Path) -> Result<Json> {
    let text = if crate::files::is_stdin(path) {
        std::io::read_to_string(std::io::stdin().lock()).context("cannot read standard input")?
    } else {
        std::fs::read_to_string(path).with_context(|| "cannot read".to_string())?
    };
    serde_json::from_str(&text).context("not valid JSON")
}

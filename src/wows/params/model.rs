//! The owned params: every entry's value as an owned Python value ([`PyValue`]), what
//! `dump --json` prints and the writer (`write.rs`) takes back.

use super::index::RootKind;
use super::value::{Global, Object, Value};
use super::{ParamsError, ParamsView};

/// An owned Python value (the owned form of [`Value`]).
#[derive(Debug, Clone, PartialEq)]
pub enum PyValue {
    /// `None`
    None,
    /// `True`/`False`
    Bool(bool),
    /// An int that fits i64.
    Int(i64),
    /// An int beyond i64: its decimal digits.
    BigInt(String),
    /// A float.
    Float(f64),
    /// A Python 2 byte string.
    Bytes(Vec<u8>),
    /// A unicode string.
    Str(String),
    /// A tuple.
    Tuple(Vec<PyValue>),
    /// A list.
    List(Vec<PyValue>),
    /// A set.
    Set(Vec<PyValue>),
    /// A dict (pairs in order).
    Dict(Vec<(PyValue, PyValue)>),
    /// An object: class (module, name), construction arguments, state.
    Object(Box<PyObject>),
    /// A class or function named and not called.
    Global(String, String),
    /// A reference to a value containing it (a cycle): the memo id.
    Ref(u32),
}

/// An owned object.
#[derive(Debug, Clone, PartialEq)]
pub struct PyObject {
    /// Its class's module (`GameParams`).
    pub module: String,
    /// Its class's name (`GPData`).
    pub name: String,
    /// Its construction arguments (empty for `_reconstructor` objects).
    pub args: Vec<PyValue>,
    /// Its state (a GPData's dict of fields).
    pub state: Option<PyValue>,
}

impl PyValue {
    /// A byte string of `s`'s UTF-8 (how the game's files store text).
    pub fn s(s: &str) -> PyValue {
        PyValue::Bytes(s.as_bytes().to_vec())
    }

    /// A `GameParams.<class>` object made by `copy_reg._reconstructor`, with `fields` as its state.
    pub fn object(class: &str, fields: Vec<(PyValue, PyValue)>) -> PyValue {
        PyValue::Object(Box::new(PyObject {
            module: "GameParams".into(),
            name: class.into(),
            args: Vec::new(),
            state: Some(PyValue::Dict(fields)),
        }))
    }

    /// The borrowed [`Value`] of this value (for the JSON writer).
    pub fn as_value(&self) -> Value<'_> {
        use std::borrow::Cow::Borrowed;
        fn all(v: &[PyValue]) -> Vec<Value<'_>> {
            v.iter().map(PyValue::as_value).collect()
        }
        match self {
            PyValue::None => Value::None,
            PyValue::Bool(b) => Value::Bool(*b),
            PyValue::Int(i) => Value::Int(*i),
            PyValue::BigInt(s) => Value::BigInt(Borrowed(s)),
            PyValue::Float(f) => Value::Float(*f),
            PyValue::Bytes(b) => Value::Bytes(Borrowed(b)),
            PyValue::Str(s) => Value::Str(Borrowed(s)),
            PyValue::Tuple(v) => Value::Tuple(all(v)),
            PyValue::List(v) => Value::List(all(v)),
            PyValue::Set(v) => Value::Set(all(v)),
            PyValue::Dict(d) => Value::Dict(
                d.iter()
                    .map(|(k, v)| (k.as_value(), v.as_value()))
                    .collect(),
            ),
            PyValue::Object(o) => Value::Object(Box::new(Object {
                class: Global {
                    module: o.module.as_bytes(),
                    name: o.name.as_bytes(),
                },
                args: all(&o.args),
                state: o.state.as_ref().map(PyValue::as_value),
            })),
            PyValue::Global(m, n) => Value::Global(Global {
                module: m.as_bytes(),
                name: n.as_bytes(),
            }),
            PyValue::Ref(id) => Value::Ref(*id),
        }
    }
}

impl From<&Value<'_>> for PyValue {
    fn from(v: &Value<'_>) -> PyValue {
        let all = |v: &[Value<'_>]| v.iter().map(PyValue::from).collect();
        let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
        match v {
            Value::None => PyValue::None,
            Value::Bool(b) => PyValue::Bool(*b),
            Value::Int(i) => PyValue::Int(*i),
            Value::BigInt(s) => PyValue::BigInt(s.to_string()),
            Value::Float(f) => PyValue::Float(*f),
            Value::Bytes(b) => PyValue::Bytes(b.to_vec()),
            Value::Str(s) => PyValue::Str(s.to_string()),
            Value::Tuple(v) => PyValue::Tuple(all(v)),
            Value::List(v) => PyValue::List(all(v)),
            Value::Set(v) => PyValue::Set(all(v)),
            Value::Dict(d) => PyValue::Dict(d.iter().map(|(k, v)| (k.into(), v.into())).collect()),
            Value::Object(o) => PyValue::Object(Box::new(PyObject {
                module: text(o.class.module),
                name: text(o.class.name),
                args: all(&o.args),
                state: o.state.as_ref().map(PyValue::from),
            })),
            Value::Global(g) => PyValue::Global(text(g.module), text(g.name)),
            Value::Ref(id) => PyValue::Ref(*id),
        }
    }
}

/// One entry: its name and value.
pub type EntryModel = (String, PyValue);

/// The whole file, owned.
#[derive(Debug, Clone, PartialEq)]
pub struct ParamsModel {
    /// The root's shape: a list `[params]` or a dict `{'': params, region: overrides}`.
    pub root: RootKind,
    /// The base entries, in order.
    pub entries: Vec<EntryModel>,
    /// Each region's name and its overriding entries.
    pub regions: Vec<(String, Vec<EntryModel>)>,
}

impl ParamsModel {
    /// Every entry of `view`, decoded.
    pub fn from_view(view: &ParamsView<'_>) -> Result<ParamsModel, ParamsError> {
        let mut budget = view.walk_budget();
        let mut entry = |e: super::Entry<'_>| -> Result<EntryModel, ParamsError> {
            Ok((
                e.name().into_owned(),
                PyValue::from(&e.value_within(&mut budget)?),
            ))
        };
        Ok(ParamsModel {
            root: view.root_kind(),
            entries: view.entries().map(&mut entry).collect::<Result<_, _>>()?,
            regions: view
                .regions()
                .map(|r| {
                    Ok((
                        r.name().map_or_else(String::new, |n| n.into_owned()),
                        r.overrides().map(&mut entry).collect::<Result<_, _>>()?,
                    ))
                })
                .collect::<Result<_, ParamsError>>()?,
        })
    }

    /// The JSON of the base entries (`name → entry`) as `params export` writes it.
    pub fn write_json<W: std::io::Write>(
        &self,
        w: &mut W,
        layout: super::export::json::Layout,
    ) -> std::io::Result<()> {
        super::export::json::write_entries(
            w,
            self.entries
                .iter()
                .map(|(n, v)| Ok::<_, std::io::Error>((n.as_str().into(), v.as_value()))),
            layout,
        )
    }
}

#[cfg(feature = "serde")]
mod serde_impl {
    use serde::ser::{SerializeMap, SerializeSeq};
    use serde::{Serialize, Serializer};

    use super::{ParamsModel, PyValue};
    use crate::wows::params::export::json::key_text;
    use crate::wows::params::index::RootKind;

    /// The JSON dataminers know: objects as their state, tuples and sets as arrays, keys as
    /// Python's `json` writes them, longs beyond i64 as strings of their digits.
    impl Serialize for PyValue {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            match self {
                PyValue::None => s.serialize_unit(),
                PyValue::Bool(b) => s.serialize_bool(*b),
                PyValue::Int(i) => s.serialize_i64(*i),
                PyValue::BigInt(d) => s.serialize_str(d),
                PyValue::Float(f) => s.serialize_f64(*f),
                PyValue::Bytes(b) => match core::str::from_utf8(b) {
                    Ok(t) => s.serialize_str(t),
                    Err(_) => s.serialize_str(&crate::wows::params::latin1(b)),
                },
                PyValue::Str(t) => s.serialize_str(t),
                PyValue::Tuple(v) | PyValue::List(v) | PyValue::Set(v) => {
                    let mut seq = s.serialize_seq(Some(v.len()))?;
                    for item in v {
                        seq.serialize_element(item)?;
                    }
                    seq.end()
                }
                PyValue::Dict(d) => {
                    let mut map = s.serialize_map(Some(d.len()))?;
                    for (k, v) in d {
                        map.serialize_entry(&key_text(&k.as_value()), v)?;
                    }
                    map.end()
                }
                PyValue::Object(o) => match (&o.state, o.args.is_empty()) {
                    (Some(state), _) => state.serialize(s),
                    (None, true) => s.serialize_map(Some(0))?.end(),
                    (None, false) => PyValue::List(o.args.clone()).serialize(s),
                },
                PyValue::Global(m, n) => s.serialize_str(&format!("{m}.{n}")),
                PyValue::Ref(id) => s.serialize_str(&format!("<cycle: memo {id}>")),
            }
        }
    }

    struct Entries<'m>(&'m [super::EntryModel]);

    impl Serialize for Entries<'_> {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            let mut map = s.serialize_map(Some(self.0.len()))?;
            for (n, v) in self.0 {
                map.serialize_entry(n, v)?;
            }
            map.end()
        }
    }

    /// Classic files: `name → entry`; files by region: `{"": base, "RU": overrides, …}`.
    impl Serialize for ParamsModel {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            if self.root != RootKind::Dict {
                return Entries(&self.entries).serialize(s);
            }
            let mut map = s.serialize_map(Some(1 + self.regions.len()))?;
            map.serialize_entry("", &Entries(&self.entries))?;
            for (name, entries) in &self.regions {
                map.serialize_entry(name, &Entries(entries))?;
            }
            map.end()
        }
    }
}

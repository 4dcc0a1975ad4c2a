//! [`PrototypeFields`] to and from JSON (feature `serde`): objects tagged by `"type"`, ids as
//! `0x…` hex text. What reads back is what the writer takes, so that a record printed by
//! `gamebin assets get --json` (its `"prototype"`) or `dump --json` can be edited and written
//! again.
//!
//! Two of the printed forms are summaries that do not carry every stored byte: an effect's
//! `systems` (their number, and `systems_bytes`) and a velocity field's `velocities` (their
//! number). [`CompleteFields`] prints those two in full (the systems as hex text, one string
//! each; the velocities listed), and only the full form reads back: a summary is refused with a
//! serde error naming the field. Keys a record does not have (such as the full paths that
//! `assets get` adds beside the ids) are ignored when reading.

use serde::de::{self, DeserializeOwned, Error as _, Unexpected, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::{Map, Value};

use super::{PrototypeFields, PrototypeType, RawReason, parse_id};

/// A record's JSON with every stored byte: as [`PrototypeFields`] serializes, except an effect's
/// systems (hex text, one string per system) and a velocity field's velocities (listed), which
/// the plain form summarizes. It reads back as a [`PrototypeFields`] equal to the record.
///
/// ```
/// # #[cfg(feature = "write")]
/// # fn main() -> Result<(), Box<dyn std::error::Error>> {
/// # let file = gamebin::synth::assets::example_file();
/// use gamebin::wows::assets::{AssetsDb, PrototypeFields};
///
/// let db = AssetsDb::from_bytes(&file)?;
/// let at = db.lookup_path("content/effects/fire.effect")?.expect("an effect");
/// let effect = PrototypeFields::read(&db, db.record(at)?)?;
/// // The plain form summarizes the systems, which does not read back ...
/// let summary = serde_json::to_string(&effect)?;
/// assert!(serde_json::from_str::<PrototypeFields>(&summary).is_err());
/// // ... the complete form does.
/// let complete = serde_json::to_string(&effect.complete())?;
/// assert_eq!(serde_json::from_str::<PrototypeFields>(&complete)?, effect);
/// # Ok(())
/// # }
/// # #[cfg(not(feature = "write"))]
/// # fn main() {}
/// ```
#[derive(Debug, Clone, Copy)]
pub struct CompleteFields<'f>(pub &'f PrototypeFields);

impl PrototypeFields {
    /// The record's JSON with every stored byte ([`CompleteFields`]).
    pub fn complete(&self) -> CompleteFields<'_> {
        CompleteFields(self)
    }
}

/// Serializes a record's `fields` with its type name beside them (`"type"`, then the fields).
pub(crate) fn tagged<T: Serialize, S: Serializer>(
    r#type: Option<&'static str>,
    fields: &T,
    s: S,
) -> Result<S::Ok, S::Error> {
    /// The record's fields with its type name beside them.
    #[derive(Serialize)]
    struct Tagged<'a, T> {
        r#type: Option<&'static str>,
        #[serde(flatten)]
        fields: &'a T,
    }
    Tagged { r#type, fields }.serialize(s)
}

impl Serialize for PrototypeFields {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.serialize_tagged(false, s)
    }
}

impl Serialize for CompleteFields<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.0.serialize_tagged(true, s)
    }
}

/// Records in their complete form (`#[serde(serialize_with)]` of a list of records that must
/// read back byte for byte).
#[cfg(feature = "write")]
pub(crate) fn complete_records<S: Serializer>(
    records: &[PrototypeFields],
    s: S,
) -> Result<S::Ok, S::Error> {
    s.collect_seq(records.iter().map(CompleteFields))
}

impl<'de> Deserialize<'de> for PrototypeFields {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let mut map = Map::deserialize(d)?;
        let tag = map
            .remove("type")
            .ok_or_else(|| D::Error::missing_field("type"))?;
        let fields = Value::Object(map);
        let name = match tag {
            Value::Null => return of(fields, "raw record").map(Self::Raw),
            Value::String(name) => name,
            other => {
                return Err(D::Error::invalid_type(
                    unexpected(&other),
                    &"a prototype type name, or null for a record kept raw",
                ));
            }
        };
        let kind = PrototypeType::ALL
            .into_iter()
            .find(|t| t.name() == name)
            .ok_or_else(|| {
                D::Error::custom(format_args!(
                    "unknown prototype type `{name}` (expected one of the ten type names, \
                     `VisualPrototype` … `AtlasContourProto`, or null for a record kept raw)"
                ))
            })?;
        Self::deserialize_kind(kind, fields)
    }
}

/// `value` read as a `T`, an error naming `what` otherwise.
pub(crate) fn of<T: DeserializeOwned, E: de::Error>(value: Value, what: &str) -> Result<T, E> {
    T::deserialize(value).map_err(|e| E::custom(format_args!("{what}: {e}")))
}

/// What serde's errors call a JSON value of the wrong type.
fn unexpected(value: &Value) -> Unexpected<'_> {
    match value {
        Value::Null => Unexpected::Unit,
        Value::Bool(b) => Unexpected::Bool(*b),
        Value::Number(_) => Unexpected::Other("a number"),
        Value::String(s) => Unexpected::Str(s),
        Value::Array(_) => Unexpected::Seq,
        Value::Object(_) => Unexpected::Map,
    }
}

/// [`RawFields::reason`] read back: one of the reasons the reader gives.
pub(super) fn raw_reason<'de, D: Deserializer<'de>>(d: D) -> Result<&'static str, D::Error> {
    const REASONS: [&str; 3] = [
        RawReason::UnknownMagic.describe(),
        RawReason::UnexpectedHeaderSize(0).describe(),
        RawReason::RecordsDoNotFit.describe(),
    ];
    let text = String::deserialize(d)?;
    REASONS
        .into_iter()
        .find(|reason| *reason == text)
        .ok_or_else(|| D::Error::unknown_variant(&text, &REASONS))
}

/// An id read back from `0x…` hex text (or decimal text, or a number), refused when it does not
/// fit `T`.
pub(crate) struct Id<T>(pub(crate) T);

impl<'de, T: TryFrom<u64>> Deserialize<'de> for Id<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct IdVisitor<T>(core::marker::PhantomData<T>);
        impl<T: TryFrom<u64>> Visitor<'_> for IdVisitor<T> {
            type Value = T;
            fn expecting(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                write!(
                    f,
                    "an id of {} bits as `0x…` hex text",
                    core::mem::size_of::<T>() * 8
                )
            }
            fn visit_str<E: de::Error>(self, text: &str) -> Result<T, E> {
                parse_id(text)
                    .and_then(|id| T::try_from(id).ok())
                    .ok_or_else(|| E::invalid_value(Unexpected::Str(text), &self))
            }
            fn visit_u64<E: de::Error>(self, id: u64) -> Result<T, E> {
                T::try_from(id).map_err(|_| E::invalid_value(Unexpected::Unsigned(id), &self))
            }
        }
        d.deserialize_any(IdVisitor(core::marker::PhantomData))
            .map(Id)
    }
}

/// Ids as `0x…` hex text of their full width, as the rest of gamebin's JSON gives them (and read
/// back from it), and large arrays summarized by their length.
pub(crate) mod hex {
    use serde::{Deserialize, Deserializer, Serializer};

    use super::Id;

    /// A 32-bit id.
    pub mod id32 {
        use super::*;

        pub fn serialize<S: Serializer>(id: &u32, s: S) -> Result<S::Ok, S::Error> {
            s.collect_str(&format_args!("{id:#010x}"))
        }

        pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<u32, D::Error> {
            Id::deserialize(d).map(|id| id.0)
        }
    }

    /// A 64-bit id.
    pub mod id64 {
        use super::*;

        pub fn serialize<S: Serializer>(id: &u64, s: S) -> Result<S::Ok, S::Error> {
            s.collect_str(&format_args!("{id:#018x}"))
        }

        pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<u64, D::Error> {
            Id::deserialize(d).map(|id| id.0)
        }
    }

    /// A list of 64-bit ids.
    pub mod ids64 {
        use super::*;

        pub fn serialize<S: Serializer>(ids: &[u64], s: S) -> Result<S::Ok, S::Error> {
            s.collect_seq(ids.iter().map(|id| format!("{id:#018x}")))
        }

        pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<u64>, D::Error> {
            let ids = Vec::<Id<u64>>::deserialize(d)?;
            Ok(ids.into_iter().map(|id| id.0).collect())
        }
    }

    /// A list given by its length (not an id: the summaries of large arrays).
    pub fn count<S: Serializer, T>(items: &[T], s: S) -> Result<S::Ok, S::Error> {
        s.serialize_u64(items.len() as u64)
    }
}

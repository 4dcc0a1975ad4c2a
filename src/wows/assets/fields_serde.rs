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

use serde::de::{self, DeserializeOwned, Error as _, SeqAccess, Unexpected, Visitor};
use serde::ser::SerializeStruct;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::{Map, Value};

use super::fields::{
    AtlasContourFields, EffectFields, EffectMetadataFields, EffectPresetFields, MODEL_LAYOUT,
    MODEL_LAYOUT_V1, MaterialFields, ModelFields, Name, PointLightFields, PropertyFields,
    PropertyValue, PrototypeFields, SkeletonExtenderFields, VelocityFieldFields, VisualFields,
};
use super::fields_float::{self as float, Lossless};
use super::records::TYPE_NAMES;
use super::{PrototypeType, RawReason, parse_id};

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

    /// Serializes the record tagged by its type name; `complete` lists what the plain form
    /// summarizes.
    fn serialize_tagged<S: Serializer>(&self, complete: bool, s: S) -> Result<S::Ok, S::Error> {
        /// The record's fields with its type name beside them.
        #[derive(Serialize)]
        struct Tagged<'a, T> {
            r#type: Option<&'static str>,
            #[serde(flatten)]
            fields: &'a T,
        }
        let r#type = self.type_name();
        match self {
            Self::Visual(fields) => Tagged { r#type, fields }.serialize(s),
            Self::Material(fields) => Tagged { r#type, fields }.serialize(s),
            Self::Model(fields) => Tagged { r#type, fields }.serialize(s),
            Self::SkeletonExtender(fields) => Tagged { r#type, fields }.serialize(s),
            Self::PointLight(fields) => Tagged { r#type, fields }.serialize(s),
            Self::Effect(e) if complete => Tagged {
                r#type,
                fields: &CompleteEffect(e),
            }
            .serialize(s),
            Self::Effect(fields) => Tagged { r#type, fields }.serialize(s),
            Self::VelocityField(v) if complete => Tagged {
                r#type,
                fields: &CompleteVelocityField(v),
            }
            .serialize(s),
            Self::VelocityField(fields) => Tagged { r#type, fields }.serialize(s),
            Self::EffectPreset(fields) => Tagged { r#type, fields }.serialize(s),
            Self::EffectMetadata(fields) => Tagged { r#type, fields }.serialize(s),
            Self::AtlasContour(fields) => Tagged { r#type, fields }.serialize(s),
            Self::Raw(fields) => Tagged { r#type, fields }.serialize(s),
        }
    }
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
        let what = kind.name();
        Ok(match kind {
            PrototypeType::Visual => Self::Visual(of::<VisualFields, _>(fields, what)?),
            PrototypeType::Material => Self::Material(of::<MaterialFields, _>(fields, what)?),
            PrototypeType::Model => Self::Model(of::<ModelFields, _>(fields, what)?),
            PrototypeType::SkeletonExtender => {
                Self::SkeletonExtender(of::<SkeletonExtenderFields, _>(fields, what)?)
            }
            PrototypeType::PointLight => Self::PointLight(of::<PointLightFields, _>(fields, what)?),
            PrototypeType::Effect => Self::Effect(of::<EffectFields, _>(fields, what)?),
            PrototypeType::VelocityField => {
                Self::VelocityField(of::<VelocityFieldFields, _>(fields, what)?)
            }
            PrototypeType::EffectPreset => {
                Self::EffectPreset(of::<EffectPresetFields, _>(fields, what)?)
            }
            PrototypeType::EffectMetadata => {
                Self::EffectMetadata(of::<EffectMetadataFields, _>(fields, what)?)
            }
            PrototypeType::AtlasContour => {
                Self::AtlasContour(of::<AtlasContourFields, _>(fields, what)?)
            }
        })
    }
}

/// `value` read as a `T`, an error naming `what` otherwise.
fn of<T: DeserializeOwned, E: de::Error>(value: Value, what: &str) -> Result<T, E> {
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

impl<'de> Deserialize<'de> for PropertyFields {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        /// A property as printed: its value is read once its type is known.
        #[derive(Deserialize)]
        struct Printed {
            name: Name,
            #[serde(rename = "type")]
            kind: String,
            value: Value,
        }
        let Printed { name, kind, value } = Printed::deserialize(d)?;
        let what = "MaterialPrototype property value";
        let value = match kind.as_str() {
            "bool" => PropertyValue::Bool(of(value, what)?),
            "int" => PropertyValue::Int(of(value, what)?),
            "uint" => PropertyValue::Uint(of(value, what)?),
            "float" => PropertyValue::Float(of::<Lossless<_>, _>(value, what)?.0),
            "texture" => PropertyValue::Texture(of::<Id<u64>, _>(value, what)?.0),
            "vec2" => PropertyValue::Vec2(of::<Lossless<_>, _>(value, what)?.0),
            "vec3" => PropertyValue::Vec3(of::<Lossless<_>, _>(value, what)?.0),
            "vec4" => PropertyValue::Vec4(of::<Lossless<_>, _>(value, what)?.0),
            "mat4" => PropertyValue::Mat4(of::<Lossless<_>, _>(value, what)?.0),
            other => return Err(D::Error::unknown_variant(other, &TYPE_NAMES)),
        };
        Ok(PropertyFields {
            name,
            kind: value.type_name(),
            value,
        })
    }
}

impl Serialize for EffectFields {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut out = s.serialize_struct("EffectFields", 3)?;
        out.serialize_field(
            "max_emitting_duration",
            &Lossless(&self.max_emitting_duration),
        )?;
        out.serialize_field("systems", &self.systems.len())?;
        let bytes: usize = self.systems.iter().map(Vec::len).sum();
        out.serialize_field("systems_bytes", &bytes)?;
        out.end()
    }
}

/// An effect with its systems as hex text.
struct CompleteEffect<'f>(&'f EffectFields);

impl Serialize for CompleteEffect<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut out = s.serialize_struct("EffectFields", 2)?;
        out.serialize_field(
            "max_emitting_duration",
            &Lossless(&self.0.max_emitting_duration),
        )?;
        let systems: Vec<String> = self
            .0
            .systems
            .iter()
            .map(|s| crate::bytes::hex(s))
            .collect();
        out.serialize_field("systems", &systems)?;
        out.end()
    }
}

impl<'de> Deserialize<'de> for EffectFields {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        /// An effect in its complete form.
        #[derive(Deserialize)]
        struct Complete {
            #[serde(with = "float")]
            max_emitting_duration: f32,
            #[serde(deserialize_with = "systems")]
            systems: Vec<Vec<u8>>,
        }
        let Complete {
            max_emitting_duration,
            systems,
        } = Complete::deserialize(d)?;
        Ok(EffectFields {
            max_emitting_duration,
            systems,
        })
    }
}

/// A velocity field with its velocities listed.
struct CompleteVelocityField<'f>(&'f VelocityFieldFields);

impl Serialize for CompleteVelocityField<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut out = s.serialize_struct("VelocityFieldFields", 2)?;
        out.serialize_field("dimensions", &self.0.dimensions)?;
        out.serialize_field("velocities", &self.0.velocities)?;
        out.end()
    }
}

/// An effect's systems, one hex string each; the summary (a number) is refused.
fn systems<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<Vec<u8>>, D::Error> {
    struct Systems;
    impl<'de> Visitor<'de> for Systems {
        type Value = Vec<Vec<u8>>;
        fn expecting(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
            f.write_str(
                "the systems as hex text, one string each (the number `assets get` prints is a \
                 summary without their bytes: print the record with `gamebin assets get \
                 --complete`, or write it with `complete()`)",
            )
        }
        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
            let mut systems = Vec::new();
            while let Some(text) = seq.next_element::<String>()? {
                let bytes = crate::bytes::unhex(&text)
                    .map_err(|why| A::Error::invalid_value(Unexpected::Str(&text), &why))?;
                systems.push(bytes);
            }
            Ok(systems)
        }
    }
    d.deserialize_seq(Systems)
}

/// A velocity field's velocities, listed; the summary (a number) is refused.
pub(super) fn velocities<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<u16>, D::Error> {
    struct Velocities;
    impl<'de> Visitor<'de> for Velocities {
        type Value = Vec<u16>;
        fn expecting(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
            f.write_str(
                "the velocity components listed (the number `assets get` prints is a summary \
                 without them: print the record with `gamebin assets get --complete`, or write \
                 it with `complete()`)",
            )
        }
        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
            let mut velocities = Vec::new();
            while let Some(v) = seq.next_element()? {
                velocities.push(v);
            }
            Ok(velocities)
        }
    }
    d.deserialize_seq(Velocities)
}

/// [`ModelFields::layout`] read back: one of the two layout names.
pub(super) fn model_layout<'de, D: Deserializer<'de>>(d: D) -> Result<&'static str, D::Error> {
    let text = String::deserialize(d)?;
    [MODEL_LAYOUT, MODEL_LAYOUT_V1]
        .into_iter()
        .find(|layout| *layout == text)
        .ok_or_else(|| D::Error::unknown_variant(&text, &[MODEL_LAYOUT, MODEL_LAYOUT_V1]))
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
struct Id<T>(T);

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

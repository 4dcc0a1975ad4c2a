//! EffectPrototype: the effect's longest emission and its particle systems, kept raw at their
//! fixed size (0x1C8 bytes each).

use super::{Budget, PrototypeRecord, RecordView, Strings};
use crate::bytes::{Bytes, Located, u64_of};
use crate::error::{Error, Result};
use crate::wows::assets::raw::{self, EFFECT_SYSTEM_SIZE};

/// An effect record.
#[derive(Debug, Clone, Copy)]
pub struct Effect<'a> {
    bytes: Bytes<'a>,
    raw: Located<'a, raw::EffectPrototype>,
}

impl<'a> Effect<'a> {
    /// The stored record.
    pub fn raw(&self) -> &'a raw::EffectPrototype {
        self.raw.get()
    }
    /// File offset of the record.
    pub fn offset(&self) -> usize {
        self.raw.offset()
    }
    /// Longest emission time of the effect's systems.
    pub fn max_emitting_duration(&self) -> f32 {
        self.raw.max_emitting_duration.get()
    }
    /// Number of systems (0x1C8 bytes each, kept raw).
    pub fn systems_count(&self) -> usize {
        self.raw.systems_count.get() as usize
    }
    /// The systems as one borrowed byte range of `systems_count × 0x1C8` bytes (undecoded).
    pub fn systems(&self) -> Result<&'a [u8]> {
        let len = self
            .systems_count()
            .checked_mul(EFFECT_SYSTEM_SIZE)
            .ok_or_else(|| {
                Error::invalid(
                    u64_of(self.raw.field_offset(4)),
                    "EffectPrototype.systemsCount",
                    u64_of(self.systems_count()),
                    "too many systems",
                )
            })?;
        let systems = self.raw.table(
            self.bytes,
            8,
            self.raw.systems_ptr.get(),
            len,
            "EffectPrototype.systems",
        )?;
        Ok(systems.records())
    }
    /// System `index`'s raw bytes.
    pub fn system(&self, index: usize) -> Result<Option<&'a [u8]>> {
        let all = self.systems()?;
        Ok(all.chunks_exact(EFFECT_SYSTEM_SIZE).nth(index))
    }
}

/// An EffectPrototype's fields, its particle systems as stored (undecoded). In JSON the systems
/// are summarized: `systems` (their number) and `systems_bytes` (their size).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct EffectFields {
    /// The longest emission.
    pub max_emitting_duration: f32,
    /// The particle systems' records, [`EFFECT_SYSTEM_SIZE`](super::super::raw::EFFECT_SYSTEM_SIZE)
    /// (0x1C8) bytes each (the writer zero-pads a shorter one and refuses a longer one).
    pub systems: Vec<Vec<u8>>,
}

impl<'a> RecordView<'a> for Effect<'a> {
    fn read(bytes: Bytes<'a>, at: usize, _item_size: usize, _strings: Strings<'a>) -> Result<Self> {
        Ok(Effect {
            bytes,
            raw: Located::read(bytes, at, "EffectPrototype")?,
        })
    }

    fn validate(&self) -> Result<()> {
        self.systems().map(drop)
    }
}

impl PrototypeRecord for EffectFields {
    type View<'a> = Effect<'a>;
    type Raw = raw::EffectPrototype;
    const LAYOUTS: &'static [usize] = &[0x10];

    fn from_view(e: Effect<'_>, _budget: &mut Budget<'_, '_>) -> Result<Self> {
        Ok(EffectFields {
            max_emitting_duration: e.max_emitting_duration(),
            systems: e
                .systems()?
                .chunks(EFFECT_SYSTEM_SIZE)
                .map(<[u8]>::to_vec)
                .collect(),
        })
    }

    /// The complete form lists the systems as hex text; the plain one summarizes them.
    #[cfg(feature = "serde")]
    fn serialize_tagged<S: serde::Serializer>(
        &self,
        r#type: Option<&'static str>,
        complete: bool,
        s: S,
    ) -> core::result::Result<S::Ok, S::Error> {
        use crate::wows::assets::fields_serde::tagged;
        if complete {
            tagged(r#type, &serde_forms::Complete(self), s)
        } else {
            tagged(r#type, self, s)
        }
    }
}

/// The effect's two JSON forms: the summary it serializes as, the complete form with every
/// system's bytes, and reading back from the complete form only.
#[cfg(feature = "serde")]
mod serde_forms {
    use serde::de::{Error as _, SeqAccess, Unexpected, Visitor};
    use serde::ser::SerializeStruct;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    use super::EffectFields;
    use crate::wows::assets::fields_float::{self as float, Lossless};

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
    pub(super) struct Complete<'f>(pub(super) &'f EffectFields);

    impl Serialize for Complete<'_> {
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

    /// An effect's systems, one hex string each; the summary (a number) is refused.
    fn systems<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<Vec<u8>>, D::Error> {
        struct Systems;
        impl<'de> Visitor<'de> for Systems {
            type Value = Vec<Vec<u8>>;
            fn expecting(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                f.write_str(
                    "the systems as hex text, one string each (the number `assets get` prints \
                     is a summary without their bytes: print the record with `gamebin assets \
                     get --complete`, or write it with `complete()`)",
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
}

/// The encoder (feature `write`).
#[cfg(feature = "write")]
mod encode {
    use core::mem::offset_of;
    use zerocopy::little_endian::{F32, I64, U32};

    use super::*;
    use crate::bytes::sink::{invalid, narrow};
    use crate::wows::assets::records::EncodeRecord;
    use crate::wows::assets::write::{Blob, NodeNameMaps};
    use crate::write_error::WriteResult;

    impl EncodeRecord for EffectFields {
        /// The record, then its systems at their fixed size.
        fn encode(&self, b: &mut Blob, _name_maps: NodeNameMaps) -> WriteResult<()> {
            let EffectFields {
                max_emitting_duration,
                systems,
            } = self;
            let r = b.push_record(
                &raw::EffectPrototype {
                    max_emitting_duration: F32::new(*max_emitting_duration),
                    systems_count: U32::new(narrow(systems.len(), "EffectPrototype.systemsCount")?),
                    systems_ptr: I64::new(0),
                },
                "EffectPrototype",
            )?;
            let mut bytes = Vec::new();
            for s in systems {
                // A system is kept raw at its fixed size: shorter ones are zero-padded, a longer one
                // cannot be stored.
                if s.len() > EFFECT_SYSTEM_SIZE {
                    return Err(invalid(
                        "EffectPrototype.systems",
                        u64_of(s.len()),
                        "a system is longer than 0x1C8 bytes",
                    ));
                }
                bytes.extend_from_slice(s);
                bytes.resize(bytes.len() + EFFECT_SYSTEM_SIZE - s.len(), 0);
            }
            b.record_array(r, offset_of!(raw::EffectPrototype, systems_ptr), &bytes)
        }
    }
}

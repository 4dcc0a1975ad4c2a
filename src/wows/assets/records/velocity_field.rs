//! VelocityFieldPrototype: a 3-D grid of packed velocities.

use zerocopy::little_endian::U16;

use super::{Budget, PrototypeRecord, RecordView, Strings};
use crate::bytes::{Bytes, Located};
use crate::error::Result;
#[cfg(feature = "serde")]
use crate::wows::assets::fields_serde::hex;
use crate::wows::assets::raw;

/// A velocity field record.
#[derive(Debug, Clone, Copy)]
pub struct VelocityField<'a> {
    bytes: Bytes<'a>,
    raw: Located<'a, raw::VelocityFieldPrototype>,
}

impl<'a> VelocityField<'a> {
    /// The stored record.
    pub fn raw(&self) -> &'a raw::VelocityFieldPrototype {
        self.raw.get()
    }
    /// File offset of the record.
    pub fn offset(&self) -> usize {
        self.raw.offset()
    }
    /// Grid dimensions (x, y, z).
    pub fn dimensions(&self) -> [u32; 3] {
        self.raw.dimensions.map(|d| d.get())
    }
    /// The packed velocities.
    pub fn velocities(&self) -> Result<&'a [U16]> {
        let velocities = self.raw.table(
            self.bytes,
            0x10,
            self.raw.velocities_ptr.get(),
            self.raw.velocities_count.get() as usize,
            "VelocityFieldPrototype.velocities",
        )?;
        Ok(velocities.records())
    }
}

/// A VelocityFieldPrototype's fields. In JSON the velocities are summarized by their number.
#[derive(Debug, Clone, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct VelocityFieldFields {
    /// The grid's size.
    pub dimensions: [u32; 3],
    /// The stored velocity components, packed as stored.
    #[cfg_attr(
        feature = "serde",
        serde(
            serialize_with = "hex::count",
            deserialize_with = "serde_forms::velocities"
        )
    )]
    pub velocities: Vec<u16>,
}

impl<'a> RecordView<'a> for VelocityField<'a> {
    fn read(bytes: Bytes<'a>, at: usize, _item_size: usize, _strings: Strings<'a>) -> Result<Self> {
        Ok(VelocityField {
            bytes,
            raw: Located::read(bytes, at, "VelocityFieldPrototype")?,
        })
    }

    fn validate(&self) -> Result<()> {
        self.velocities().map(drop)
    }
}

impl PrototypeRecord for VelocityFieldFields {
    type View<'a> = VelocityField<'a>;
    type Raw = raw::VelocityFieldPrototype;
    const LAYOUTS: &'static [usize] = &[0x18];

    fn from_view(v: VelocityField<'_>, budget: &mut Budget<'_, '_>) -> Result<Self> {
        Ok(VelocityFieldFields {
            dimensions: v.dimensions(),
            velocities: budget.list(
                v.velocities()?,
                |x| x.get(),
                "VelocityFieldPrototype.velocities",
            )?,
        })
    }

    /// The complete form lists the velocities; the plain one gives their number.
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

/// The complete JSON form of a velocity field, and reading its velocities back (from that form
/// only).
#[cfg(feature = "serde")]
mod serde_forms {
    use serde::de::{SeqAccess, Visitor};
    use serde::ser::SerializeStruct;
    use serde::{Deserializer, Serialize, Serializer};

    use super::VelocityFieldFields;

    /// A velocity field with its velocities listed.
    pub(super) struct Complete<'f>(pub(super) &'f VelocityFieldFields);

    impl Serialize for Complete<'_> {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            let mut out = s.serialize_struct("VelocityFieldFields", 2)?;
            out.serialize_field("dimensions", &self.0.dimensions)?;
            out.serialize_field("velocities", &self.0.velocities)?;
            out.end()
        }
    }

    /// A velocity field's velocities, listed; the summary (a number) is refused.
    pub(super) fn velocities<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<u16>, D::Error> {
        struct Velocities;
        impl<'de> Visitor<'de> for Velocities {
            type Value = Vec<u16>;
            fn expecting(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                f.write_str(
                    "the velocity components listed (the number `assets get` prints is a \
                     summary without them: print the record with `gamebin assets get \
                     --complete`, or write it with `complete()`)",
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
}

/// The encoder (feature `write`).
#[cfg(feature = "write")]
mod encode {
    use core::mem::offset_of;
    use zerocopy::little_endian::{I64, U32};

    use super::*;
    use crate::bytes::sink::narrow;
    use crate::wows::assets::records::EncodeRecord;
    use crate::wows::assets::write::{Blob, NodeNameMaps};
    use crate::write_error::WriteResult;

    impl EncodeRecord for VelocityFieldFields {
        /// The record, then its velocities.
        fn encode(&self, b: &mut Blob, _name_maps: NodeNameMaps) -> WriteResult<()> {
            let VelocityFieldFields {
                dimensions,
                velocities,
            } = self;
            let r = b.push_record(
                &raw::VelocityFieldPrototype {
                    dimensions: dimensions.map(U32::new),
                    velocities_count: U32::new(narrow(
                        velocities.len(),
                        "VelocityFieldPrototype.velocitiesCount",
                    )?),
                    velocities_ptr: I64::new(0),
                },
                "VelocityFieldPrototype",
            )?;
            let data: Vec<U16> = velocities.iter().map(|&x| U16::new(x)).collect();
            b.record_array(
                r,
                offset_of!(raw::VelocityFieldPrototype, velocities_ptr),
                &data,
            )
        }
    }
}

//! EffectMetadataPrototype: named channels with their ranges.

use super::{Budget, PrototypeRecord, RecordView, Strings};
use crate::bytes::{Bytes, Located, to_usize, u64_of};
use crate::error::{Error, Result};
#[cfg(feature = "serde")]
use crate::wows::assets::fields_float as float;
use crate::wows::assets::raw;

/// An effect metadata record.
#[derive(Debug, Clone, Copy)]
pub struct EffectMetadata<'a> {
    bytes: Bytes<'a>,
    raw: Located<'a, raw::EffectMetadataPrototype>,
}

/// One metadata channel.
#[derive(Debug, Clone, Copy)]
pub struct Channel<'a> {
    bytes: Bytes<'a>,
    raw: Located<'a, raw::Channel>,
}

impl<'a> EffectMetadata<'a> {
    /// File offset of the record.
    pub fn offset(&self) -> usize {
        self.raw.offset()
    }
    /// The channels, in stored order.
    pub fn channels(&self) -> Result<impl ExactSizeIterator<Item = Channel<'a>> + 'a> {
        let count = to_usize(
            self.raw.count.get(),
            self.raw.offset(),
            "EffectMetadataPrototype.count",
        )?;
        let channels = self.raw.table::<raw::Channel>(
            self.bytes,
            8,
            self.raw.channels_ptr.get(),
            count,
            "EffectMetadataPrototype.channels",
        )?;
        let bytes = self.bytes;
        Ok(channels.into_iter().map(move |raw| Channel { bytes, raw }))
    }
}

impl<'a> Channel<'a> {
    /// The stored channel.
    pub fn raw(&self) -> &'a raw::Channel {
        self.raw.get()
    }
    /// The name's bytes (a trailing NUL, if stored, is dropped).
    pub fn name_bytes(&self) -> Result<&'a [u8]> {
        let bytes = self
            .raw
            .table::<u8>(
                self.bytes,
                8,
                self.raw.name_ptr.get(),
                self.raw.name_len.get() as usize,
                "Channel.name",
            )?
            .records();
        Ok(match bytes.split_last() {
            Some((0, name)) => name,
            _ => bytes,
        })
    }
    /// The channel's name (`name_len` bytes, UTF-8 checked).
    pub fn name(&self) -> Result<&'a str> {
        let bytes = self.name_bytes()?;
        core::str::from_utf8(bytes).map_err(|e| {
            Error::invalid(
                u64_of(self.raw.field_offset(8)),
                "Channel.name",
                u64_of(e.valid_up_to()),
                "not UTF-8 (value = position of the first bad byte)",
            )
        })
    }
    /// Lowest value.
    pub fn min(&self) -> f32 {
        self.raw.min.get()
    }
    /// Highest value.
    pub fn max(&self) -> f32 {
        self.raw.max.get()
    }
    /// Default value.
    pub fn default(&self) -> f32 {
        self.raw.default.get()
    }
    /// Kind of channel, as stored (meaning not known).
    pub fn kind(&self) -> u32 {
        self.raw.kind.get()
    }
}

/// An effect metadata channel.
#[derive(Debug, Clone, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ChannelFields {
    /// The channel's name.
    pub name: String,
    /// Its smallest value.
    #[cfg_attr(feature = "serde", serde(with = "float"))]
    pub min: f32,
    /// Its largest value.
    #[cfg_attr(feature = "serde", serde(with = "float"))]
    pub max: f32,
    /// Its default value.
    #[cfg_attr(feature = "serde", serde(with = "float"))]
    pub default: f32,
    /// Its kind.
    pub kind: u32,
}

/// An EffectMetadataPrototype's fields.
#[derive(Debug, Clone, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct EffectMetadataFields {
    /// The channels.
    pub channels: Vec<ChannelFields>,
}

impl<'a> RecordView<'a> for EffectMetadata<'a> {
    fn read(bytes: Bytes<'a>, at: usize, _item_size: usize, _strings: Strings<'a>) -> Result<Self> {
        Ok(EffectMetadata {
            bytes,
            raw: Located::read(bytes, at, "EffectMetadataPrototype")?,
        })
    }

    fn validate(&self) -> Result<()> {
        for c in self.channels()? {
            c.name()?;
        }
        Ok(())
    }
}

impl PrototypeRecord for EffectMetadataFields {
    type View<'a> = EffectMetadata<'a>;
    type Raw = raw::EffectMetadataPrototype;
    const LAYOUTS: &'static [usize] = &[0x10];

    fn from_view(m: EffectMetadata<'_>, budget: &mut Budget<'_, '_>) -> Result<Self> {
        Ok(EffectMetadataFields {
            channels: m
                .channels()?
                .map(|c| {
                    budget.item::<ChannelFields>("EffectMetadataPrototype.channels")?;
                    Ok(ChannelFields {
                        name: budget.text(c.name()?, "EffectMetadataPrototype.channels")?,
                        min: c.min(),
                        max: c.max(),
                        default: c.default(),
                        kind: c.kind(),
                    })
                })
                .collect::<Result<_>>()?,
        })
    }
}

/// The encoder (feature `write`).
#[cfg(feature = "write")]
mod encode {
    use core::mem::offset_of;
    use zerocopy::little_endian::{F32, I64, U32, U64};

    use super::*;
    use crate::bytes::sink::narrow;
    use crate::wows::assets::records::EncodeRecord;
    use crate::wows::assets::write::{Blob, NodeNameMaps};
    use crate::write_error::WriteResult;

    impl EncodeRecord for EffectMetadataFields {
        /// The record, its channel table, then each channel's name.
        fn encode(&self, b: &mut Blob, _name_maps: NodeNameMaps) -> WriteResult<()> {
            let EffectMetadataFields { channels } = self;
            let r = b.push_record(
                &raw::EffectMetadataPrototype {
                    count: U64::new(u64_of(channels.len())),
                    channels_ptr: I64::new(0),
                },
                "EffectMetadataPrototype",
            )?;
            let field = offset_of!(raw::EffectMetadataPrototype, channels_ptr);
            b.record_table(r, field, channels, "Channel", |b, at, channel| {
                let ChannelFields {
                    name,
                    min,
                    max,
                    default,
                    kind,
                } = channel;
                let mut name = name.as_bytes().to_vec();
                name.push(0);
                Ok(raw::Channel {
                    name_len: U32::new(narrow(name.len(), "Channel.nameLen")?),
                    pad: U32::new(0),
                    name_ptr: b.ool_array(
                        at,
                        offset_of!(raw::Channel, name_ptr),
                        &name,
                        "Channel.namePtr",
                    )?,
                    min: F32::new(*min),
                    max: F32::new(*max),
                    default: F32::new(*default),
                    kind: U32::new(*kind),
                })
            })
        }
    }
}

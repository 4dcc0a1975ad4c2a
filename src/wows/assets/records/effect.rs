//! EffectPrototype (header and systems, the systems kept raw), EffectPresetPrototype and
//! EffectMetadataPrototype (named channels with ranges).

use crate::bytes::{Bytes, Located, to_usize, u64_of};
use crate::error::{Error, Result};
use crate::wows::assets::raw::{self, EFFECT_SYSTEM_SIZE};

/// An effect record.
#[derive(Debug, Clone, Copy)]
pub struct Effect<'a> {
    bytes: Bytes<'a>,
    raw: Located<'a, raw::EffectPrototype>,
}

impl<'a> Effect<'a> {
    pub(crate) fn read(bytes: Bytes<'a>, at: usize) -> Result<Self> {
        Ok(Effect {
            bytes,
            raw: Located::read(bytes, at, "EffectPrototype")?,
        })
    }
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

/// An effect preset record: a 128-bit id in two halves.
#[derive(Debug, Clone, Copy)]
pub struct EffectPreset<'a> {
    raw: Located<'a, raw::EffectPresetPrototype>,
}

impl<'a> EffectPreset<'a> {
    pub(crate) fn read(bytes: Bytes<'a>, at: usize) -> Result<Self> {
        Ok(EffectPreset {
            raw: Located::read(bytes, at, "EffectPresetPrototype")?,
        })
    }
    /// File offset of the record.
    pub fn offset(&self) -> usize {
        self.raw.offset()
    }
    /// High 64 bits of the preset's id.
    pub fn high_id(&self) -> u64 {
        self.raw.high_id.get()
    }
    /// Low 64 bits of the preset's id.
    pub fn low_id(&self) -> u64 {
        self.raw.low_id.get()
    }
}

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
    pub(crate) fn read(bytes: Bytes<'a>, at: usize) -> Result<Self> {
        Ok(EffectMetadata {
            bytes,
            raw: Located::read(bytes, at, "EffectMetadataPrototype")?,
        })
    }
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
    pub(crate) fn validate(&self) -> Result<()> {
        for c in self.channels()? {
            c.name()?;
        }
        Ok(())
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

//! EffectPrototype (header and systems, the systems kept raw), EffectPresetPrototype and
//! EffectMetadataPrototype (named channels with ranges).

use super::At;
use crate::bytes::{to_usize, u64_of};
use crate::error::{Error, Result};
use crate::wows::assets::raw::{self, EFFECT_SYSTEM_SIZE};

/// An effect record.
#[derive(Debug, Clone, Copy)]
pub struct Effect<'a> {
    at: At<'a>,
    raw: &'a raw::EffectPrototype,
}

impl<'a> Effect<'a> {
    pub(crate) fn read(at: At<'a>) -> Result<Self> {
        Ok(Effect {
            at,
            raw: at.raw("EffectPrototype")?,
        })
    }
    /// The stored record.
    pub fn raw(&self) -> &'a raw::EffectPrototype {
        self.raw
    }
    /// File offset of the record.
    pub fn offset(&self) -> usize {
        self.at.at
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
                    u64_of(self.at.at + 4),
                    "EffectPrototype.systemsCount",
                    u64_of(self.systems_count()),
                    "too many systems",
                )
            })?;
        self.at.slice(
            8,
            self.raw.systems_ptr.get(),
            len,
            "EffectPrototype.systems",
        )
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
    at: At<'a>,
    raw: &'a raw::EffectPresetPrototype,
}

impl<'a> EffectPreset<'a> {
    pub(crate) fn read(at: At<'a>) -> Result<Self> {
        Ok(EffectPreset {
            at,
            raw: at.raw("EffectPresetPrototype")?,
        })
    }
    /// File offset of the record.
    pub fn offset(&self) -> usize {
        self.at.at
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
    at: At<'a>,
    raw: &'a raw::EffectMetadataPrototype,
}

/// One metadata channel.
#[derive(Debug, Clone, Copy)]
pub struct Channel<'a> {
    at: At<'a>,
    raw: &'a raw::Channel,
}

impl<'a> EffectMetadata<'a> {
    pub(crate) fn read(at: At<'a>) -> Result<Self> {
        Ok(EffectMetadata {
            at,
            raw: at.raw("EffectMetadataPrototype")?,
        })
    }
    /// File offset of the record.
    pub fn offset(&self) -> usize {
        self.at.at
    }
    /// The channels, in stored order.
    pub fn channels(&self) -> Result<impl ExactSizeIterator<Item = Channel<'a>> + 'a> {
        let count = to_usize(
            self.raw.count.get(),
            self.at.at,
            "EffectMetadataPrototype.count",
        )?;
        let (base, channels) = self.at.array::<raw::Channel>(
            8,
            self.raw.channels_ptr.get(),
            count,
            "EffectMetadataPrototype.channels",
        )?;
        let at = self.at;
        Ok(channels.iter().enumerate().map(move |(i, raw)| Channel {
            at: at.element(base, i, core::mem::size_of::<raw::Channel>()),
            raw,
        }))
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
        self.raw
    }
    /// The name's bytes (a trailing NUL, if stored, is dropped).
    pub fn name_bytes(&self) -> Result<&'a [u8]> {
        let bytes = self.at.slice::<u8>(
            8,
            self.raw.name_ptr.get(),
            self.raw.name_len.get() as usize,
            "Channel.name",
        )?;
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
                u64_of(self.at.at + 8),
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

//! EffectPresetPrototype: a 128-bit id in two halves (the effects of high and low quality).

use super::{Budget, PrototypeRecord, RecordView, Strings};
use crate::bytes::{Bytes, Located};
use crate::error::Result;
use crate::wows::assets::raw;

/// An effect preset record: a 128-bit id in two halves.
#[derive(Debug, Clone, Copy)]
pub struct EffectPreset<'a> {
    raw: Located<'a, raw::EffectPresetPrototype>,
}

impl<'a> EffectPreset<'a> {
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

/// An EffectPresetPrototype's fields.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct EffectPresetFields {
    /// The high-quality effect's id.
    #[cfg_attr(feature = "serde", serde(with = "hex::id64"))]
    pub high_id: u64,
    /// The low-quality effect's id.
    #[cfg_attr(feature = "serde", serde(with = "hex::id64"))]
    pub low_id: u64,
}

#[cfg(feature = "serde")]
use crate::wows::assets::fields_serde::hex;

impl<'a> RecordView<'a> for EffectPreset<'a> {
    fn read(bytes: Bytes<'a>, at: usize, _item_size: usize, _strings: Strings<'a>) -> Result<Self> {
        Ok(EffectPreset {
            raw: Located::read(bytes, at, "EffectPresetPrototype")?,
        })
    }

    /// Nothing out of line to check.
    fn validate(&self) -> Result<()> {
        Ok(())
    }
}

impl PrototypeRecord for EffectPresetFields {
    type View<'a> = EffectPreset<'a>;
    type Raw = raw::EffectPresetPrototype;
    const LAYOUTS: &'static [usize] = &[0x10];

    fn from_view(p: EffectPreset<'_>, _budget: &mut Budget<'_, '_>) -> Result<Self> {
        Ok(EffectPresetFields {
            high_id: p.high_id(),
            low_id: p.low_id(),
        })
    }
}

/// The encoder (feature `write`).
#[cfg(feature = "write")]
mod encode {
    use zerocopy::little_endian::U64;

    use super::*;
    use crate::wows::assets::records::EncodeRecord;
    use crate::wows::assets::write::{Blob, NodeNameMaps};
    use crate::write_error::WriteResult;

    impl EncodeRecord for EffectPresetFields {
        /// Two ids, nothing out of line.
        fn encode(&self, b: &mut Blob, _name_maps: NodeNameMaps) -> WriteResult<()> {
            let EffectPresetFields { high_id, low_id } = *self;
            b.push_record(
                &raw::EffectPresetPrototype {
                    high_id: U64::new(high_id),
                    low_id: U64::new(low_id),
                },
                "EffectPresetPrototype",
            )?;
            Ok(())
        }
    }
}

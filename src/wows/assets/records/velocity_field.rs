//! VelocityFieldPrototype: a 3-D grid of packed velocities.

use zerocopy::little_endian::U16;

use super::At;
use crate::error::Result;
use crate::wows::assets::raw;

/// A velocity field record.
#[derive(Debug, Clone, Copy)]
pub struct VelocityField<'a> {
    at: At<'a>,
    raw: &'a raw::VelocityFieldPrototype,
}

impl<'a> VelocityField<'a> {
    pub(crate) fn read(at: At<'a>) -> Result<Self> {
        Ok(VelocityField {
            at,
            raw: at.raw("VelocityFieldPrototype")?,
        })
    }
    /// The stored record.
    pub fn raw(&self) -> &'a raw::VelocityFieldPrototype {
        self.raw
    }
    /// File offset of the record.
    pub fn offset(&self) -> usize {
        self.at.at
    }
    /// Grid dimensions (x, y, z).
    pub fn dimensions(&self) -> [u32; 3] {
        self.raw.dimensions.map(|d| d.get())
    }
    /// The packed velocities.
    pub fn velocities(&self) -> Result<&'a [U16]> {
        self.at.slice(
            0x10,
            self.raw.velocities_ptr.get(),
            self.raw.velocities_count.get() as usize,
            "VelocityFieldPrototype.velocities",
        )
    }
}

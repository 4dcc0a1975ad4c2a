//! VelocityFieldPrototype: a 3-D grid of packed velocities.

use zerocopy::little_endian::U16;

use crate::bytes::{Bytes, Located};
use crate::error::Result;
use crate::wows::assets::raw;

/// A velocity field record.
#[derive(Debug, Clone, Copy)]
pub struct VelocityField<'a> {
    bytes: Bytes<'a>,
    raw: Located<'a, raw::VelocityFieldPrototype>,
}

impl<'a> VelocityField<'a> {
    pub(crate) fn read(bytes: Bytes<'a>, at: usize) -> Result<Self> {
        Ok(VelocityField {
            bytes,
            raw: Located::read(bytes, at, "VelocityFieldPrototype")?,
        })
    }
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

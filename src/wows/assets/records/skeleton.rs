//! SkeletonExtenderPrototype: extra skeleton nodes (names, parents, matrices).

use zerocopy::little_endian::U32;

use super::At;
use crate::error::Result;
use crate::wows::assets::raw::{self, Matrix};
use crate::wows::assets::strings::Strings;

/// A skeleton extender record.
#[derive(Debug, Clone, Copy)]
pub struct SkeletonExtender<'a> {
    at: At<'a>,
    raw: &'a raw::SkeletonExtenderPrototype,
    strings: Strings<'a>,
}

impl<'a> SkeletonExtender<'a> {
    pub(crate) fn read(at: At<'a>, strings: Strings<'a>) -> Result<Self> {
        Ok(SkeletonExtender {
            at,
            raw: at.raw("SkeletonExtenderPrototype")?,
            strings,
        })
    }
    /// The stored record.
    pub fn raw(&self) -> &'a raw::SkeletonExtenderPrototype {
        self.raw
    }
    /// File offset of the record.
    pub fn offset(&self) -> usize {
        self.at.at
    }
    /// Flag as stored (meaning not known).
    pub fn flag(&self) -> u16 {
        self.raw.flag.get()
    }
    /// Number of nodes.
    pub fn node_count(&self) -> usize {
        usize::from(self.raw.node_count.get())
    }
    /// The nodes' name ids (strings-map keys), borrowed.
    pub fn name_ids(&self) -> Result<&'a [U32]> {
        self.at.slice(
            0x08,
            self.raw.name_ids_ptr.get(),
            self.node_count(),
            "SkeletonExtenderPrototype.nameIds",
        )
    }
    /// The nodes' parents' name ids (strings-map keys), borrowed.
    pub fn parent_name_ids(&self) -> Result<&'a [U32]> {
        self.at.slice(
            0x10,
            self.raw.parent_name_ids_ptr.get(),
            self.node_count(),
            "SkeletonExtenderPrototype.parentNameIds",
        )
    }
    /// The nodes' 4×4 matrices, column-major, borrowed.
    pub fn matrices(&self) -> Result<&'a [Matrix]> {
        self.at.slice(
            0x18,
            self.raw.matrices_ptr.get(),
            self.node_count(),
            "SkeletonExtenderPrototype.matrices",
        )
    }
    /// A name id's string, through the strings map.
    pub fn name(&self, name_id: u32) -> Result<Option<&'a str>> {
        self.strings.get(name_id)
    }
    pub(crate) fn validate(&self) -> Result<()> {
        for id in self.name_ids()?.iter().chain(self.parent_name_ids()?) {
            self.name(id.get())?;
        }
        self.matrices().map(drop)
    }
}

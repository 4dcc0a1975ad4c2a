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
    pub fn raw(&self) -> &'a raw::SkeletonExtenderPrototype {
        self.raw
    }
    pub fn offset(&self) -> usize {
        self.at.at
    }
    pub fn flag(&self) -> u16 {
        self.raw.flag.get()
    }
    pub fn node_count(&self) -> usize {
        usize::from(self.raw.node_count.get())
    }
    pub fn name_ids(&self) -> Result<&'a [U32]> {
        self.at.slice(
            0x08,
            self.raw.name_ids_ptr.get(),
            self.node_count(),
            "SkeletonExtenderPrototype.nameIds",
        )
    }
    pub fn parent_name_ids(&self) -> Result<&'a [U32]> {
        self.at.slice(
            0x10,
            self.raw.parent_name_ids_ptr.get(),
            self.node_count(),
            "SkeletonExtenderPrototype.parentNameIds",
        )
    }
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

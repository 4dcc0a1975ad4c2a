//! SkeletonExtenderPrototype: extra skeleton nodes (names, parents, matrices).

use zerocopy::little_endian::U32;

use crate::bytes::{Bytes, Located};
use crate::error::Result;
use crate::wows::assets::raw::{self, Matrix};
use crate::wows::assets::strings::Strings;

/// A skeleton extender record.
#[derive(Debug, Clone, Copy)]
pub struct SkeletonExtender<'a> {
    bytes: Bytes<'a>,
    raw: Located<'a, raw::SkeletonExtenderPrototype>,
    strings: Strings<'a>,
}

impl<'a> SkeletonExtender<'a> {
    pub(crate) fn read(bytes: Bytes<'a>, at: usize, strings: Strings<'a>) -> Result<Self> {
        Ok(SkeletonExtender {
            bytes,
            raw: Located::read(bytes, at, "SkeletonExtenderPrototype")?,
            strings,
        })
    }
    /// The stored record.
    pub fn raw(&self) -> &'a raw::SkeletonExtenderPrototype {
        self.raw.get()
    }
    /// File offset of the record.
    pub fn offset(&self) -> usize {
        self.raw.offset()
    }
    /// The `node_count` elements that the pointer `field` bytes into the record points to.
    fn nodes<T>(&self, field: usize, relative: i64, what: &'static str) -> Result<&'a [T]>
    where
        T: zerocopy::FromBytes + zerocopy::KnownLayout + zerocopy::Immutable + zerocopy::Unaligned,
    {
        let table = self
            .raw
            .table(self.bytes, field, relative, self.node_count(), what)?;
        Ok(table.records())
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
        self.nodes(
            0x08,
            self.raw.name_ids_ptr.get(),
            "SkeletonExtenderPrototype.nameIds",
        )
    }
    /// The nodes' parents' name ids (strings-map keys), borrowed.
    pub fn parent_name_ids(&self) -> Result<&'a [U32]> {
        self.nodes(
            0x10,
            self.raw.parent_name_ids_ptr.get(),
            "SkeletonExtenderPrototype.parentNameIds",
        )
    }
    /// The nodes' 4×4 matrices, column-major, borrowed.
    pub fn matrices(&self) -> Result<&'a [Matrix]> {
        self.nodes(
            0x18,
            self.raw.matrices_ptr.get(),
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

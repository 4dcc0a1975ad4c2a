//! SkeletonExtenderPrototype: extra skeleton nodes (names, parents, matrices).

use zerocopy::little_endian::U32;

use super::{Budget, Name, PrototypeRecord, RecordView};
use crate::bytes::{Bytes, Located};
use crate::error::Result;
#[cfg(feature = "serde")]
use crate::wows::assets::fields_float as float;
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
}

/// A SkeletonExtenderPrototype's fields.
#[derive(Debug, Clone, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct SkeletonExtenderFields {
    /// The flag.
    pub flag: u16,
    /// The extra nodes' names.
    pub names: Vec<Name>,
    /// Their parents' names.
    pub parents: Vec<Name>,
    /// Their matrices.
    #[cfg_attr(feature = "serde", serde(with = "float"))]
    pub matrices: Vec<[f32; 16]>,
}

impl<'a> RecordView<'a> for SkeletonExtender<'a> {
    fn read(bytes: Bytes<'a>, at: usize, _item_size: usize, strings: Strings<'a>) -> Result<Self> {
        Ok(SkeletonExtender {
            bytes,
            raw: Located::read(bytes, at, "SkeletonExtenderPrototype")?,
            strings,
        })
    }

    fn validate(&self) -> Result<()> {
        for id in self.name_ids()?.iter().chain(self.parent_name_ids()?) {
            self.name(id.get())?;
        }
        self.matrices().map(drop)
    }
}

impl PrototypeRecord for SkeletonExtenderFields {
    type View<'a> = SkeletonExtender<'a>;
    type Raw = raw::SkeletonExtenderPrototype;
    const LAYOUTS: &'static [usize] = &[0x20];

    fn from_view(s: SkeletonExtender<'_>, budget: &mut Budget<'_, '_>) -> Result<Self> {
        Ok(SkeletonExtenderFields {
            flag: s.flag(),
            names: budget.names(s.name_ids()?, "SkeletonExtenderPrototype.names")?,
            parents: budget.names(s.parent_name_ids()?, "SkeletonExtenderPrototype.parents")?,
            matrices: budget.list(
                s.matrices()?,
                |m| m.map(|f| f.get()),
                "SkeletonExtenderPrototype.matrices",
            )?,
        })
    }
}

/// The encoder (feature `write`).
#[cfg(feature = "write")]
mod encode {
    use core::mem::offset_of;
    use zerocopy::little_endian::{I64, U16};

    use super::*;
    use crate::bytes::{
        sink::{invalid, narrow},
        u64_of,
    };
    use crate::wows::assets::records::EncodeRecord;
    use crate::wows::assets::write::{Blob, NodeNameMaps, floats, named_ids};
    use crate::write_error::WriteResult;

    impl EncodeRecord for SkeletonExtenderFields {
        /// Each node's name, then its parent's.
        fn names<'r>(&'r self, names: &mut Vec<&'r str>) {
            for (name, parent) in self.names.iter().zip(&self.parents) {
                names.extend(name.as_deref());
                names.extend(parent.as_deref());
            }
        }

        /// The record, then its names, parents' names and matrices.
        fn encode(&self, b: &mut Blob, _name_maps: NodeNameMaps) -> WriteResult<()> {
            let SkeletonExtenderFields {
                flag,
                names,
                parents,
                matrices,
            } = self;
            if parents.len() != names.len() || matrices.len() != names.len() {
                return Err(invalid(
                    "SkeletonExtenderPrototype.nodeCount",
                    u64_of(names.len()),
                    "names, parents and matrices differ in number",
                ));
            }
            let r = b.push_record(
                &raw::SkeletonExtenderPrototype {
                    flag: U16::new(*flag),
                    node_count: U16::new(narrow(
                        names.len(),
                        "SkeletonExtenderPrototype.nodeCount",
                    )?),
                    pad: U32::new(0),
                    name_ids_ptr: I64::new(0),
                    parent_name_ids_ptr: I64::new(0),
                    matrices_ptr: I64::new(0),
                },
                "SkeletonExtenderPrototype",
            )?;
            let names = named_ids(names, "SkeletonExtenderPrototype.nameIds")?;
            let field = offset_of!(raw::SkeletonExtenderPrototype, name_ids_ptr);
            b.record_array(r, field, &names)?;
            let parents = named_ids(parents, "SkeletonExtenderPrototype.parentNameIds")?;
            let field = offset_of!(raw::SkeletonExtenderPrototype, parent_name_ids_ptr);
            b.record_array(r, field, &parents)?;
            let matrices: Vec<Matrix> = matrices.iter().map(|m| floats(*m)).collect();
            let field = offset_of!(raw::SkeletonExtenderPrototype, matrices_ptr);
            b.record_array(r, field, &matrices)?;
            Ok(())
        }
    }
}

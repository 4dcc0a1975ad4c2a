//! ModelPrototype in its two layouts (0x28 current, 0x20 older), told apart by the database's item
//! size, and the model's dyes.

use zerocopy::little_endian::{U32, U64};

use crate::bytes::{Bytes, Located, Table};
use crate::error::Result;
use crate::wows::assets::raw;
use crate::wows::assets::strings::Strings;

/// Which of the two record layouts a model uses.
#[derive(Debug, Clone, Copy)]
pub enum ModelLayout<'a> {
    /// 0x28 bytes, with skeleton extenders.
    Current(&'a raw::ModelPrototype),
    /// 0x20 bytes, no skeleton extenders (schema 3601929577).
    V1(&'a raw::ModelPrototypeV1),
}

/// A model record.
#[derive(Debug, Clone, Copy)]
pub struct Model<'a> {
    bytes: Bytes<'a>,
    at: usize,
    layout: ModelLayout<'a>,
    strings: Strings<'a>,
}

/// A dye: a replacement of a material by tints.
#[derive(Debug, Clone, Copy)]
pub struct Dye<'a> {
    bytes: Bytes<'a>,
    raw: Located<'a, raw::Dye>,
}

impl<'a> Model<'a> {
    pub(crate) fn read(
        bytes: Bytes<'a>,
        at: usize,
        item_size: usize,
        strings: Strings<'a>,
    ) -> Result<Self> {
        let layout = if item_size == core::mem::size_of::<raw::ModelPrototypeV1>() {
            ModelLayout::V1(
                Located::<raw::ModelPrototypeV1>::read(bytes, at, "ModelPrototype")?.get(),
            )
        } else {
            ModelLayout::Current(
                Located::<raw::ModelPrototype>::read(bytes, at, "ModelPrototype")?.get(),
            )
        };
        Ok(Model {
            bytes,
            at,
            layout,
            strings,
        })
    }

    /// The `count` elements that the pointer `field` bytes into the record points to.
    fn table<T>(
        &self,
        field: usize,
        relative: i64,
        count: u8,
        what: &'static str,
    ) -> Result<Table<'a, T>>
    where
        T: zerocopy::FromBytes + zerocopy::KnownLayout + zerocopy::Immutable + zerocopy::Unaligned,
    {
        Table::at_pointer(
            self.bytes,
            self.at.saturating_add(field),
            self.at,
            relative,
            usize::from(count),
            what,
        )
    }

    /// The stored struct, in its layout.
    pub fn layout(&self) -> ModelLayout<'a> {
        self.layout
    }

    /// File offset of the record.
    pub fn offset(&self) -> usize {
        self.at
    }

    /// selfId of the model's visual.
    pub fn visual_resource_id(&self) -> u64 {
        match self.layout {
            ModelLayout::Current(m) => m.visual_resource_id.get(),
            ModelLayout::V1(m) => m.visual_resource_id.get(),
        }
    }

    /// The model's misc type, as stored (meaning not known).
    pub fn misc_type(&self) -> u8 {
        match self.layout {
            ModelLayout::Current(m) => m.misc_type,
            ModelLayout::V1(m) => m.misc_type,
        }
    }

    /// selfIds of the skeleton extenders (always empty in the older layout).
    pub fn skeleton_extender_ids(&self) -> Result<&'a [U64]> {
        match self.layout {
            ModelLayout::Current(m) => Ok(self
                .table(
                    0x10,
                    m.skeleton_extender_ids_ptr.get(),
                    m.skeleton_extender_count,
                    "ModelPrototype.skeletonExtenderIds",
                )?
                .records()),
            ModelLayout::V1(_) => Ok(&[]),
        }
    }

    /// selfIds of the animations.
    pub fn animations(&self) -> Result<&'a [U64]> {
        let (field, ptr, count) = match self.layout {
            ModelLayout::Current(m) => (0x18, m.animations_ptr.get(), m.animations_count),
            ModelLayout::V1(m) => (0x10, m.animations_ptr.get(), m.animations_count),
        };
        Ok(self
            .table(field, ptr, count, "ModelPrototype.animations")?
            .records())
    }

    /// The dyes.
    pub fn dyes(&self) -> Result<impl ExactSizeIterator<Item = Dye<'a>> + 'a> {
        let (field, ptr, count) = match self.layout {
            ModelLayout::Current(m) => (0x20, m.dyes_ptr.get(), m.dyes_count),
            ModelLayout::V1(m) => (0x18, m.dyes_ptr.get(), m.dyes_count),
        };
        let dyes = self.table::<raw::Dye>(field, ptr, count, "ModelPrototype.dyes")?;
        let bytes = self.bytes;
        Ok(dyes.into_iter().map(move |raw| Dye { bytes, raw }))
    }

    /// A name id's string, through the strings map.
    pub fn name(&self, name_id: u32) -> Result<Option<&'a str>> {
        self.strings.get(name_id)
    }

    pub(crate) fn validate(&self) -> Result<()> {
        self.skeleton_extender_ids()?;
        self.animations()?;
        for dye in self.dyes()? {
            for id in dye.tint_name_ids()? {
                self.name(id.get())?;
            }
            dye.tint_material_ids()?;
        }
        Ok(())
    }
}

impl<'a> Dye<'a> {
    /// The stored dye.
    pub fn raw(&self) -> &'a raw::Dye {
        self.raw.get()
    }
    /// The dye's matter id, a strings-map key.
    pub fn matter_id(&self) -> u32 {
        self.raw.matter_id.get()
    }
    /// Id of what the dye replaces, a strings-map key.
    pub fn replaces_id(&self) -> u32 {
        self.raw.replaces_id.get()
    }
    /// Number of tints.
    pub fn tints_count(&self) -> usize {
        self.raw.tints_count.get() as usize
    }
    /// The tints' name ids (strings-map keys), borrowed.
    pub fn tint_name_ids(&self) -> Result<&'a [U32]> {
        let ids = self.raw.table(
            self.bytes,
            0x10,
            self.raw.tint_name_ids_ptr.get(),
            self.tints_count(),
            "Dye.tintNameIds",
        )?;
        Ok(ids.records())
    }
    /// The tints' material selfIds, borrowed.
    pub fn tint_material_ids(&self) -> Result<&'a [U64]> {
        let ids = self.raw.table(
            self.bytes,
            0x18,
            self.raw.tint_material_ids_ptr.get(),
            self.tints_count(),
            "Dye.tintMaterialIds",
        )?;
        Ok(ids.records())
    }
}

//! ModelPrototype in its two layouts (0x28 current, 0x20 older), told apart by the database's item
//! size, and the model's dyes.

use zerocopy::little_endian::{U32, U64};

use super::{Budget, Name, PrototypeRecord, RecordView};
use crate::bytes::{Bytes, Located, Table};
use crate::error::Result;
#[cfg(feature = "serde")]
use crate::wows::assets::fields_serde::hex;
use crate::wows::assets::raw;
use crate::wows::assets::strings::Strings;

/// [`ModelFields::layout`] of a record in the current 0x28-byte layout.
pub const MODEL_LAYOUT: &str = "0x28";
/// [`ModelFields::layout`] of a record in the older 0x20-byte layout (no skeleton extenders).
pub const MODEL_LAYOUT_V1: &str = "0x20";

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

/// A model's dye.
#[derive(Debug, Clone, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct DyeFields {
    /// The matter id.
    #[cfg_attr(feature = "serde", serde(with = "hex::id32"))]
    pub matter_id: u32,
    /// The id it replaces.
    #[cfg_attr(feature = "serde", serde(with = "hex::id32"))]
    pub replaces_id: u32,
    /// The tints' names.
    pub tints: Vec<Name>,
    /// The tints' material path ids.
    #[cfg_attr(feature = "serde", serde(with = "hex::ids64"))]
    pub tint_materials: Vec<u64>,
}

/// A ModelPrototype's fields.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ModelFields {
    /// The record layout: [`MODEL_LAYOUT`] (`0x28`, current) or [`MODEL_LAYOUT_V1`] (`0x20`, the
    /// older one without skeleton extenders). The writer refuses a layout that is not its
    /// database's.
    #[cfg_attr(feature = "serde", serde(deserialize_with = "model_layout"))]
    pub layout: FixedName,
    /// The visual's resource id.
    #[cfg_attr(feature = "serde", serde(with = "hex::id64"))]
    pub visual_resource_id: u64,
    /// The misc type.
    pub misc_type: u8,
    /// Skeleton extenders' resource ids.
    #[cfg_attr(feature = "serde", serde(with = "hex::ids64"))]
    pub skeleton_extenders: Vec<u64>,
    /// Animations' resource ids.
    #[cfg_attr(feature = "serde", serde(with = "hex::ids64"))]
    pub animations: Vec<u64>,
    /// The dyes.
    pub dyes: Vec<DyeFields>,
}

/// A layout's name out of the two. Spelled as an alias so that serde's derive does not borrow a
/// `&str` field from its input (it would need the input to live forever): [`model_layout`]
/// reads it back as one of the two.
type FixedName = &'static str;

/// [`ModelFields::layout`] read back: one of the two layout names.
#[cfg(feature = "serde")]
fn model_layout<'de, D: serde::Deserializer<'de>>(
    d: D,
) -> core::result::Result<&'static str, D::Error> {
    use serde::Deserialize;
    use serde::de::Error as _;
    let text = String::deserialize(d)?;
    [MODEL_LAYOUT, MODEL_LAYOUT_V1]
        .into_iter()
        .find(|layout| *layout == text)
        .ok_or_else(|| D::Error::unknown_variant(&text, &[MODEL_LAYOUT, MODEL_LAYOUT_V1]))
}

/// A model in the current layout ([`MODEL_LAYOUT`]) with nothing set.
impl Default for ModelFields {
    fn default() -> Self {
        ModelFields {
            layout: MODEL_LAYOUT,
            visual_resource_id: 0,
            misc_type: 0,
            skeleton_extenders: Vec::new(),
            animations: Vec::new(),
            dyes: Vec::new(),
        }
    }
}

impl<'a> RecordView<'a> for Model<'a> {
    fn read(bytes: Bytes<'a>, at: usize, item_size: usize, strings: Strings<'a>) -> Result<Self> {
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

    fn validate(&self) -> Result<()> {
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

impl PrototypeRecord for ModelFields {
    type View<'a> = Model<'a>;
    type Raw = raw::ModelPrototype;
    const KNOWN_SCHEMAS: &'static [(u32, usize)] = &[(3_601_929_577, 0x20)];
    const LAYOUTS: &'static [usize] = &[0x28, 0x20];

    fn from_view(m: Model<'_>, budget: &mut Budget<'_, '_>) -> Result<Self> {
        let dyes = m
            .dyes()?
            .map(|d| {
                budget.item::<DyeFields>("ModelPrototype.dyes")?;
                Ok(DyeFields {
                    matter_id: d.matter_id(),
                    replaces_id: d.replaces_id(),
                    tints: budget.names(d.tint_name_ids()?, "Dye.tintNameIds")?,
                    tint_materials: budget.list(
                        d.tint_material_ids()?,
                        |i| i.get(),
                        "Dye.tintMaterialIds",
                    )?,
                })
            })
            .collect::<Result<_>>()?;
        Ok(ModelFields {
            layout: match m.layout() {
                ModelLayout::Current(_) => MODEL_LAYOUT,
                ModelLayout::V1(_) => MODEL_LAYOUT_V1,
            },
            visual_resource_id: m.visual_resource_id(),
            misc_type: m.misc_type(),
            skeleton_extenders: budget.list(
                m.skeleton_extender_ids()?,
                |i| i.get(),
                "ModelPrototype.skeletonExtenderResourceIds",
            )?,
            animations: budget.list(m.animations()?, |i| i.get(), "ModelPrototype.animations")?,
            dyes,
        })
    }
}

/// The encoder (feature `write`).
#[cfg(feature = "write")]
mod encode {
    use core::mem::offset_of;
    use zerocopy::little_endian::I64;

    use super::*;
    use crate::bytes::{
        sink::{invalid, narrow},
        u64_of,
    };
    use crate::wows::assets::records::EncodeRecord;
    use crate::wows::assets::write::{Blob, NodeNameMaps, ids64, named_ids};
    use crate::write_error::WriteResult;

    impl EncodeRecord for ModelFields {
        /// Each dye's tint names.
        fn names<'r>(&'r self, names: &mut Vec<&'r str>) {
            for d in &self.dyes {
                names.extend(d.tints.iter().filter_map(|n| n.as_deref()));
            }
        }

        /// The record in the database's layout (0x28, or the older 0x20 without skeleton extenders:
        /// fields in the other layout, or skeleton extenders for the older one, are refused).
        fn encode(&self, b: &mut Blob, _name_maps: NodeNameMaps) -> WriteResult<()> {
            let ModelFields {
                layout,
                visual_resource_id,
                misc_type,
                skeleton_extenders,
                animations,
                dyes,
            } = self;
            if *layout != b.model_layout() {
                return Err(invalid(
                    "ModelPrototype.layout",
                    u64_of(b.item_size),
                    "the database's model layout is not this record's",
                ));
            }
            let animations_count = narrow(animations.len(), "ModelPrototype.animationsCount")?;
            let dyes_count = narrow(dyes.len(), "ModelPrototype.dyesCount")?;
            let (r, animations_ptr, dyes_ptr) = if *layout == MODEL_LAYOUT_V1 {
                if !skeleton_extenders.is_empty() {
                    return Err(invalid(
                        "ModelPrototypeV1.skeletonExtenders",
                        u64_of(skeleton_extenders.len()),
                        "the older model layout has no skeleton extenders",
                    ));
                }
                let r = b.push_record(
                    &raw::ModelPrototypeV1 {
                        visual_resource_id: U64::new(*visual_resource_id),
                        misc_type: *misc_type,
                        animations_count,
                        dyes_count,
                        pad: [0; 5],
                        animations_ptr: I64::new(0),
                        dyes_ptr: I64::new(0),
                    },
                    "ModelPrototypeV1",
                )?;
                (
                    r,
                    offset_of!(raw::ModelPrototypeV1, animations_ptr),
                    offset_of!(raw::ModelPrototypeV1, dyes_ptr),
                )
            } else {
                let r = b.push_record(
                    &raw::ModelPrototype {
                        visual_resource_id: U64::new(*visual_resource_id),
                        skeleton_extender_count: narrow(
                            skeleton_extenders.len(),
                            "ModelPrototype.skeletonExtenderCount",
                        )?,
                        misc_type: *misc_type,
                        animations_count,
                        dyes_count,
                        pad: U32::new(0),
                        skeleton_extender_ids_ptr: I64::new(0),
                        animations_ptr: I64::new(0),
                        dyes_ptr: I64::new(0),
                    },
                    "ModelPrototype",
                )?;
                let extenders = ids64(skeleton_extenders.iter().copied());
                b.record_array(
                    r,
                    offset_of!(raw::ModelPrototype, skeleton_extender_ids_ptr),
                    &extenders,
                )?;
                (
                    r,
                    offset_of!(raw::ModelPrototype, animations_ptr),
                    offset_of!(raw::ModelPrototype, dyes_ptr),
                )
            };
            b.record_array(r, animations_ptr, &ids64(animations.iter().copied()))?;
            b.record_table(r, dyes_ptr, dyes, "Dye", |b, at, dye| {
                let DyeFields {
                    matter_id,
                    replaces_id,
                    tints,
                    tint_materials,
                } = dye;
                if tints.len() != tint_materials.len() {
                    return Err(invalid(
                        "Dye.tintsCount",
                        u64_of(tint_materials.len()),
                        "a dye's tint names and tint materials differ in number",
                    ));
                }
                let names = named_ids(tints, "Dye.tintNameIds")?;
                let materials = ids64(tint_materials.iter().copied());
                Ok(raw::Dye {
                    matter_id: U32::new(*matter_id),
                    replaces_id: U32::new(*replaces_id),
                    tints_count: U32::new(narrow(tints.len(), "Dye.tintsCount")?),
                    pad: U32::new(0),
                    tint_name_ids_ptr: b.ool_array(
                        at,
                        offset_of!(raw::Dye, tint_name_ids_ptr),
                        &names,
                        "Dye.tintNameIdsPtr",
                    )?,
                    tint_material_ids_ptr: b.ool_array(
                        at,
                        offset_of!(raw::Dye, tint_material_ids_ptr),
                        &materials,
                        "Dye.tintMaterialIdsPtr",
                    )?,
                })
            })
        }
    }
}

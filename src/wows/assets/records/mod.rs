//! The prototype record types. Each is declared in one file here, `<type>.rs`: its typed view
//! over the file (the raw struct in [`raw`](super::raw) located in the file,
//! [`Located`](crate::bytes::Located); arrays borrowed as [`Table`](crate::bytes::Table)s when
//! asked for, relative pointers resolved from the struct that holds them; name ids resolved
//! through the strings map), its owned fields (`<Type>Fields`, read from the view) and, behind
//! the `write` feature, its encoder. This file holds the one list of the types, [`prototypes!`]'s
//! invocation, from which every dispatch over them is derived: [`PrototypeType`] (names, record
//! sizes, layouts), [`Prototype`] (read, validate) and
//! [`PrototypeFields`](super::PrototypeFields) (read, encode, JSON tag). A new record type is one
//! file and one line in that list.

mod atlas_contour;
mod effect;
mod effect_metadata;
mod effect_preset;
mod material;
mod model;
mod point_light;
mod skeleton_extender;
mod velocity_field;
mod visual;

pub use atlas_contour::{AtlasContour, AtlasContourFields, ContourFrame};
pub use effect::{Effect, EffectFields};
pub use effect_metadata::{Channel, ChannelFields, EffectMetadata, EffectMetadataFields};
pub use effect_preset::{EffectPreset, EffectPresetFields};
pub use material::{
    Material, MaterialFields, MaterialProperty, MaterialValue, PropertyFields, PropertyValue,
};
pub use model::{Dye, DyeFields, MODEL_LAYOUT, MODEL_LAYOUT_V1, Model, ModelFields, ModelLayout};
pub use point_light::{AnimationFields, KeyFields, PointLight, PointLightFields};
pub use skeleton_extender::{SkeletonExtender, SkeletonExtenderFields};
pub use velocity_field::{VelocityField, VelocityFieldFields};
pub use visual::{
    BoundsFields, Lod, LodFields, Node, NodeFields, RenderSet, RenderSetFields, Visual,
    VisualFields,
};

use super::database::RawReason;
use super::fields::{Budget, Name};
use super::strings::Strings;
#[cfg(feature = "write")]
use super::write::{Blob, NodeNameMaps};
use crate::bytes::Bytes;
use crate::error::Result;

/// A record's view as the list of prototype types ([`prototypes!`]) reads and checks it
/// (its file offset is every view's `offset()`).
pub(crate) trait RecordView<'a>: Sized {
    /// The record at file offset `at`, in the layout of `item_size` bytes (one of its type's
    /// [`LAYOUTS`](PrototypeRecord::LAYOUTS) or [`KNOWN_SCHEMAS`](PrototypeRecord::KNOWN_SCHEMAS)).
    fn read(bytes: Bytes<'a>, at: usize, item_size: usize, strings: Strings<'a>) -> Result<Self>;
    /// Reads every array the record points to (and resolves every name id).
    fn validate(&self) -> Result<()>;
}

/// What the list of prototype types ([`prototypes!`]) needs of each record type, implemented by
/// its owned fields in the type's file: its view, which layouts the reader knows, how the fields
/// are read from the view and (feature `write`: [`EncodeRecord`]) encoded.
pub(crate) trait PrototypeRecord: Sized {
    /// The borrowed view of a record.
    type View<'a>: RecordView<'a>;
    /// The current layout's raw struct: its size is the database's record size.
    type Raw;
    /// (schema hash, record size) pairs whose layout is known.
    const KNOWN_SCHEMAS: &'static [(u32, usize)] = &[];
    /// Record sizes of the layouts the reader decodes, newest first.
    const LAYOUTS: &'static [usize];

    /// The record's fields, owned, within `budget`.
    fn from_view(view: Self::View<'_>, budget: &mut Budget<'_, '_>) -> Result<Self>;

    /// Serializes the fields beside their type name `r#type`; `complete` asks for what the plain
    /// form summarizes (see [`CompleteFields`](super::CompleteFields)).
    #[cfg(feature = "serde")]
    fn serialize_tagged<S: serde::Serializer>(
        &self,
        r#type: Option<&'static str>,
        _complete: bool,
        s: S,
    ) -> core::result::Result<S::Ok, S::Error>
    where
        Self: serde::Serialize,
    {
        super::fields_serde::tagged(r#type, self, s)
    }
}

/// How a record type's fields are written (feature `write`), implemented in the `encode` module
/// of the type's file.
#[cfg(feature = "write")]
pub(crate) trait EncodeRecord {
    /// Every name the fields hold, in the order the strings map gets them (names stored as
    /// MurmurHash3 ids); none by default.
    fn names<'r>(&'r self, _names: &mut Vec<&'r str>) {}
    /// Fills the raw record into `blob`, its arrays out of line; `name_maps` is the order of a
    /// visual's node name map (the one layout choice a record's encoder makes).
    fn encode(
        &self,
        blob: &mut Blob,
        name_maps: NodeNameMaps,
    ) -> crate::write_error::WriteResult<()>;
}

/// Declares the prototype types from their one list: for each, the variant name, its view, its
/// owned fields and its type name as the file's databases spell it (the database magic is its
/// MurmurHash3). Derives [`PrototypeType`], [`Prototype`], [`PrototypeFields`] and every match
/// over them, each arm going to the type's [`PrototypeRecord`].
macro_rules! prototypes {
    ($($(#[$doc:meta])* $variant:ident($view:ident, $fields:ident) = $name:literal,)*) => {
        /// The prototype types of the current client, with their magic (MurmurHash3 of the name)
        /// and current record size.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum PrototypeType {
            $($(#[$doc])* $variant,)*
        }

        impl PrototypeType {
            /// All of them, in the seed's database order.
            pub const ALL: [PrototypeType; [$(PrototypeType::$variant),*].len()] =
                [$(PrototypeType::$variant),*];

            /// The type name the magic is computed from.
            pub const fn name(self) -> &'static str {
                match self {
                    $(PrototypeType::$variant => $name,)*
                }
            }

            /// Record size of the current layout (its raw struct's size).
            pub const fn item_size(self) -> usize {
                match self {
                    $(PrototypeType::$variant => {
                        core::mem::size_of::<<$fields as PrototypeRecord>::Raw>()
                    })*
                }
            }

            /// (schema hash, record size) pairs whose layout is known for this type.
            pub(crate) const fn known_schemas(self) -> &'static [(u32, usize)] {
                match self {
                    $(PrototypeType::$variant => <$fields as PrototypeRecord>::KNOWN_SCHEMAS,)*
                }
            }

            /// Record sizes of the layouts the reader decodes, newest first.
            pub(crate) const fn layouts(self) -> &'static [usize] {
                match self {
                    $(PrototypeType::$variant => <$fields as PrototypeRecord>::LAYOUTS,)*
                }
            }
        }

        /// A record of any prototype type, or raw bytes with the reason it is not decoded.
        #[derive(Debug, Clone, Copy)]
        pub enum Prototype<'a> {
            $(#[doc = concat!("A `", $name, "` record.")] $variant($view<'a>),)*
            /// A record whose layout the reader does not know: its bytes, and why.
            Raw(RawRecord<'a>),
        }

        impl<'a> Prototype<'a> {
            pub(crate) fn read(
                bytes: Bytes<'a>,
                at: usize,
                kind: PrototypeType,
                item_size: usize,
                strings: Strings<'a>,
            ) -> Result<Self> {
                Ok(match kind {
                    $(PrototypeType::$variant => Prototype::$variant(
                        <$view<'a> as RecordView<'a>>::read(bytes, at, item_size, strings)?,
                    ),)*
                })
            }

            /// The record's type, `None` for a raw record.
            pub fn kind(&self) -> Option<PrototypeType> {
                Some(match self {
                    $(Prototype::$variant(_) => PrototypeType::$variant,)*
                    Prototype::Raw(_) => return None,
                })
            }

            /// Reads every array the record points to (and resolves every name id), reporting
            /// the first failure.
            pub fn validate(&self) -> Result<()> {
                match self {
                    $(Prototype::$variant(v) => v.validate(),)*
                    Prototype::Raw(_) => Ok(()),
                }
            }

            /// The file offset of a decoded record (where errors about its fields are
            /// reported), `None` for a raw one.
            pub(crate) fn record_offset(&self) -> Option<usize> {
                match self {
                    $(Prototype::$variant(v) => Some(v.offset()),)*
                    Prototype::Raw(_) => None,
                }
            }
        }

        /// One prototype record's fields; one variant per prototype type the reader decodes.
        #[derive(Debug, Clone, PartialEq)]
        pub enum PrototypeFields {
            $(#[doc = concat!("A `", $name, "`'s fields.")] $variant($fields),)*
            /// A record of a database the reader keeps raw, and why.
            Raw(super::RawFields),
        }

        // A type's fields convert into the enum, so that the writer
        // (`AssetsBuilder::prototype`, feature `write`) takes them as they are.
        $(impl From<$fields> for PrototypeFields {
            fn from(fields: $fields) -> Self {
                Self::$variant(fields)
            }
        })*

        impl PrototypeFields {
            /// The fields of `record`, owned, within `budget`.
            pub(crate) fn read_within(
                record: Prototype<'_>,
                budget: &mut Budget<'_, '_>,
            ) -> Result<Self> {
                Ok(match record {
                    $(Prototype::$variant(v) => {
                        Self::$variant(<$fields as PrototypeRecord>::from_view(v, budget)?)
                    })*
                    Prototype::Raw(r) => Self::Raw(super::RawFields::of(r)),
                })
            }

            /// The prototype type of the record, `None` for a record kept raw.
            pub fn kind(&self) -> Option<PrototypeType> {
                Some(match self {
                    $(Self::$variant(_) => PrototypeType::$variant,)*
                    Self::Raw(_) => return None,
                })
            }

            /// Every string the record names, in the order they are added to the strings map
            /// (a name the reader found missing, `None`, is refused when the record is
            /// encoded).
            #[cfg(feature = "write")]
            pub(crate) fn names(&self) -> Vec<&str> {
                let mut names = Vec::new();
                match self {
                    $(Self::$variant(f) => <$fields as EncodeRecord>::names(f, &mut names),)*
                    Self::Raw(_) => {}
                }
                names
            }

            /// Encodes a decoded record's fields into `blob` (`Ok(false)` for a record kept raw,
            /// which carries no fields to encode).
            #[cfg(feature = "write")]
            pub(crate) fn encode(
                &self,
                blob: &mut Blob,
                name_maps: NodeNameMaps,
            ) -> crate::write_error::WriteResult<bool> {
                match self {
                    $(Self::$variant(f) => {
                        <$fields as EncodeRecord>::encode(f, blob, name_maps).map(|()| true)
                    })*
                    Self::Raw(_) => Ok(false),
                }
            }

            /// Serializes the record tagged by its type name; `complete` lists what the plain
            /// form summarizes.
            #[cfg(feature = "serde")]
            pub(crate) fn serialize_tagged<S: serde::Serializer>(
                &self,
                complete: bool,
                s: S,
            ) -> core::result::Result<S::Ok, S::Error> {
                let r#type = self.type_name();
                match self {
                    $(Self::$variant(f) => {
                        <$fields as PrototypeRecord>::serialize_tagged(f, r#type, complete, s)
                    })*
                    Self::Raw(fields) => super::fields_serde::tagged(r#type, fields, s),
                }
            }

            /// The fields of a record of type `kind` read from their JSON object (without its
            /// `"type"`).
            #[cfg(feature = "serde")]
            pub(crate) fn deserialize_kind<E: serde::de::Error>(
                kind: PrototypeType,
                fields: serde_json::Value,
            ) -> core::result::Result<Self, E> {
                Ok(match kind {
                    $(PrototypeType::$variant => {
                        Self::$variant(super::fields_serde::of::<$fields, E>(fields, $name)?)
                    })*
                })
            }
        }
    };
}

prototypes! {
    /// `MaterialPrototype`.
    Material(Material, MaterialFields) = "MaterialPrototype",
    /// `VisualPrototype`.
    Visual(Visual, VisualFields) = "VisualPrototype",
    /// `SkeletonExtenderPrototype`.
    SkeletonExtender(SkeletonExtender, SkeletonExtenderFields) = "SkeletonExtenderPrototype",
    /// `ModelPrototype`.
    Model(Model, ModelFields) = "ModelPrototype",
    /// `PointLightPrototype`.
    PointLight(PointLight, PointLightFields) = "PointLightPrototype",
    /// `EffectPrototype`.
    Effect(Effect, EffectFields) = "EffectPrototype",
    /// `VelocityFieldPrototype`.
    VelocityField(VelocityField, VelocityFieldFields) = "VelocityFieldPrototype",
    /// `EffectPresetPrototype`.
    EffectPreset(EffectPreset, EffectPresetFields) = "EffectPresetPrototype",
    /// `EffectMetadataPrototype`.
    EffectMetadata(EffectMetadata, EffectMetadataFields) = "EffectMetadataPrototype",
    /// `AtlasContourProto`.
    AtlasContour(AtlasContour, AtlasContourFields) = "AtlasContourProto",
}

/// A record whose layout the reader does not know: the whole database blob, the record's index,
/// and why it is not decoded.
#[derive(Clone, Copy)]
pub struct RawRecord<'a> {
    /// The database's blob (header, records, out-of-line data).
    pub database: &'a [u8],
    /// File offset of the blob.
    pub offset: usize,
    /// Record index within the database.
    pub index: usize,
    /// Why the record is not decoded.
    pub reason: RawReason,
}

// By hand: the database blob can be most of the file; [`Bytes`] shows its length and first bytes.
impl core::fmt::Debug for RawRecord<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("RawRecord")
            .field("database", &Bytes::new(self.database))
            .field("offset", &self.offset)
            .field("index", &self.index)
            .field("reason", &self.reason)
            .finish()
    }
}

/// A count stored as a signed integer: negative counts are errors.
pub(crate) fn count_i32(value: i32, at: usize, what: &'static str) -> Result<usize> {
    usize::try_from(value).map_err(|_| {
        crate::error::Error::invalid(
            crate::bytes::u64_of(at),
            what,
            value as u32 as u64,
            "negative count",
        )
    })
}

//! Typed views of prototype records. Each holds the file's bytes and its raw struct located in
//! the file ([`Located`](crate::bytes::Located)); arrays are borrowed from the file when asked for
//! as [`Table`](crate::bytes::Table)s (relative pointers resolved from the struct that holds them),
//! and name ids resolve through the strings map.

mod atlas;
mod effect;
mod material;
mod model;
mod point_light;
mod skeleton;
mod velocity_field;
mod visual;

pub use atlas::{AtlasContour, ContourFrame};
pub use effect::{Channel, Effect, EffectMetadata, EffectPreset};
pub(crate) use material::TYPE_NAMES;
pub use material::{Material, MaterialProperty, MaterialValue};
pub use model::{Dye, Model, ModelLayout};
pub use point_light::PointLight;
pub use skeleton::SkeletonExtender;
pub use velocity_field::VelocityField;
pub use visual::{Lod, Node, RenderSet, Visual};

use super::database::{PrototypeType, RawReason};
use super::strings::Strings;
use crate::bytes::Bytes;
use crate::error::Result;

/// A record of any prototype type, or raw bytes with the reason it is not decoded.
#[derive(Debug, Clone, Copy)]
pub enum Prototype<'a> {
    /// A `MaterialPrototype` record.
    Material(Material<'a>),
    /// A `VisualPrototype` record.
    Visual(Visual<'a>),
    /// A `SkeletonExtenderPrototype` record.
    SkeletonExtender(SkeletonExtender<'a>),
    /// A `ModelPrototype` record (either layout).
    Model(Model<'a>),
    /// A `PointLightPrototype` record.
    PointLight(PointLight<'a>),
    /// An `EffectPrototype` record.
    Effect(Effect<'a>),
    /// A `VelocityFieldPrototype` record.
    VelocityField(VelocityField<'a>),
    /// An `EffectPresetPrototype` record.
    EffectPreset(EffectPreset<'a>),
    /// An `EffectMetadataPrototype` record.
    EffectMetadata(EffectMetadata<'a>),
    /// An `AtlasContourProto` record.
    AtlasContour(AtlasContour<'a>),
    /// A record whose layout the reader does not know: its bytes, and why.
    Raw(RawRecord<'a>),
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

impl<'a> Prototype<'a> {
    pub(crate) fn read(
        bytes: Bytes<'a>,
        at: usize,
        kind: PrototypeType,
        item_size: usize,
        strings: Strings<'a>,
    ) -> Result<Self> {
        Ok(match kind {
            PrototypeType::Material => Prototype::Material(Material::read(bytes, at, strings)?),
            PrototypeType::Visual => Prototype::Visual(Visual::read(bytes, at, strings)?),
            PrototypeType::SkeletonExtender => {
                Prototype::SkeletonExtender(SkeletonExtender::read(bytes, at, strings)?)
            }
            PrototypeType::Model => Prototype::Model(Model::read(bytes, at, item_size, strings)?),
            PrototypeType::PointLight => Prototype::PointLight(PointLight::read(bytes, at)?),
            PrototypeType::Effect => Prototype::Effect(Effect::read(bytes, at)?),
            PrototypeType::VelocityField => {
                Prototype::VelocityField(VelocityField::read(bytes, at)?)
            }
            PrototypeType::EffectPreset => Prototype::EffectPreset(EffectPreset::read(bytes, at)?),
            PrototypeType::EffectMetadata => {
                Prototype::EffectMetadata(EffectMetadata::read(bytes, at)?)
            }
            PrototypeType::AtlasContour => Prototype::AtlasContour(AtlasContour::read(bytes, at)?),
        })
    }

    /// The record's type, `None` for a raw record.
    pub fn kind(&self) -> Option<PrototypeType> {
        Some(match self {
            Prototype::Material(_) => PrototypeType::Material,
            Prototype::Visual(_) => PrototypeType::Visual,
            Prototype::SkeletonExtender(_) => PrototypeType::SkeletonExtender,
            Prototype::Model(_) => PrototypeType::Model,
            Prototype::PointLight(_) => PrototypeType::PointLight,
            Prototype::Effect(_) => PrototypeType::Effect,
            Prototype::VelocityField(_) => PrototypeType::VelocityField,
            Prototype::EffectPreset(_) => PrototypeType::EffectPreset,
            Prototype::EffectMetadata(_) => PrototypeType::EffectMetadata,
            Prototype::AtlasContour(_) => PrototypeType::AtlasContour,
            Prototype::Raw(_) => return None,
        })
    }

    /// Reads every array the record points to (and resolves every name id), reporting the first
    /// failure.
    pub fn validate(&self) -> Result<()> {
        match self {
            Prototype::Material(m) => m.validate(),
            Prototype::Visual(v) => v.validate(),
            Prototype::SkeletonExtender(s) => s.validate(),
            Prototype::Model(m) => m.validate(),
            Prototype::PointLight(p) => p.validate(),
            Prototype::Effect(e) => e.systems().map(drop),
            Prototype::VelocityField(v) => v.velocities().map(drop),
            Prototype::EffectPreset(_) | Prototype::Raw(_) => Ok(()),
            Prototype::EffectMetadata(e) => e.validate(),
            Prototype::AtlasContour(a) => a.validate(),
        }
    }
}

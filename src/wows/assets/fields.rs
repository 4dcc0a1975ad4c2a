//! [`PrototypeFields`]: a prototype record's decoded fields, owned, with every name id resolved
//! through the strings map — what `gamebin assets get` and `dump --json` print, what the Python
//! package's `Prototype.to_dict()` gives and what `diff` of two assets.bin files compares. Reading
//! a record into it allocates (names, lists); the borrowed record views stay the zero-copy path.
//! It is also the writer's one record input (`AssetsBuilder::prototype`, feature `write`): each
//! record is declared once, here, for reading and writing.
//!
//! With the `serde` feature it serializes as JSON objects tagged by `"type"` (the database's name,
//! `null` for a record kept raw), ids as `0x…` hex text: the fields named in [`ID_FIELDS`] and
//! [`ID_LIST_FIELDS`], and a texture property's value (a property whose `"type"` is
//! `"texture"`). Floats are JSON numbers, except those JSON has no number for (NaN, infinity),
//! which are strings that keep their bits: `"inf"`, `"-inf"`, `"NaN"`, `"-NaN"`, or `"NaN:0x…"`
//! with the 32 bits of any other NaN. It reads back from that JSON too, except the two summaries it prints (an
//! effect's systems, a velocity field's velocities), which `PrototypeFields::complete` prints
//! in full.
//!
//! ```
//! # #[cfg(feature = "write")]
//! # fn main() -> Result<(), gamebin::Error> {
//! # let file = gamebin::synth::assets::example_file();
//! use gamebin::wows::assets::{AssetsDb, PrototypeFields};
//!
//! let db = AssetsDb::from_bytes(&file)?;
//! let at = db.lookup_path("content/gameplay/Test.visual")?.expect("a visual");
//! let PrototypeFields::Visual(visual) = PrototypeFields::read(&db, db.record(at)?)? else {
//!     panic!("a visual")
//! };
//! assert_eq!(visual.nodes[0].name.as_deref(), Some("Scene Root"));
//! # Ok(())
//! # }
//! # #[cfg(not(feature = "write"))]
//! # fn main() {}
//! ```

use super::raw::EFFECT_SYSTEM_SIZE;
use super::records::TYPE_NAMES;
use super::{AssetsDb, MaterialValue, ModelLayout, Prototype, PrototypeType};
use crate::bytes::u64_of;
use crate::error::{Error, Result};
use zerocopy::little_endian::U32;

#[cfg(feature = "serde")]
use super::{fields_float as float, fields_serde::hex};

/// Fields holding one path id (a resource id: the CityHash64 of a full path in most files), which
/// the path tree can turn into a full path.
pub const PATH_ID_FIELDS: [&str; 4] = [
    "merged_geometry_path_id",
    "material_mfm_path_id",
    "visual_resource_id",
    "fx_path_id",
];

/// Every field holding one id, given as `0x…` hex text in JSON: the path ids of
/// [`PATH_ID_FIELDS`], mapping ids and the other ids.
pub const ID_FIELDS: [&str; 10] = [
    "merged_geometry_path_id",
    "material_mfm_path_id",
    "visual_resource_id",
    "fx_path_id",
    "vertices_mapping_id",
    "indices_mapping_id",
    "matter_id",
    "replaces_id",
    "high_id",
    "low_id",
];

/// Fields holding a list of path ids, given as `0x…` hex text in JSON.
pub const ID_LIST_FIELDS: [&str; 3] = ["skeleton_extenders", "animations", "tint_materials"];

/// [`ModelFields::layout`] of a record in the current 0x28-byte layout.
pub const MODEL_LAYOUT: &str = "0x28";
/// [`ModelFields::layout`] of a record in the older 0x20-byte layout (no skeleton extenders).
pub const MODEL_LAYOUT_V1: &str = "0x20";

/// Declares [`PrototypeFields`] and, beside it, each variant's fields converting into it, so that
/// the writer (`AssetsBuilder::prototype`, feature `write`) takes a type's fields as they are.
macro_rules! prototype_fields {
    (
        $(#[$meta:meta])*
        pub enum $name:ident {
            $($(#[$variant_meta:meta])* $variant:ident($fields:ty),)*
        }
    ) => {
        $(#[$meta])*
        pub enum $name {
            $($(#[$variant_meta])* $variant($fields),)*
        }

        $(impl From<$fields> for $name {
            fn from(fields: $fields) -> Self {
                Self::$variant(fields)
            }
        })*
    };
}

prototype_fields! {
    /// One prototype record's fields; one variant per prototype type the reader decodes.
    #[derive(Debug, Clone, PartialEq)]
    pub enum PrototypeFields {
        /// A VisualPrototype: skeleton, render sets and LODs.
        Visual(VisualFields),
        /// A MaterialPrototype: typed properties.
        Material(MaterialFields),
        /// A ModelPrototype: its visual, skeleton extenders, animations and dyes.
        Model(ModelFields),
        /// A SkeletonExtenderPrototype: extra nodes.
        SkeletonExtender(SkeletonExtenderFields),
        /// A PointLightPrototype.
        PointLight(PointLightFields),
        /// An EffectPrototype (its particle systems kept raw; summarized in JSON).
        Effect(EffectFields),
        /// A VelocityFieldPrototype (its velocities summarized by count in JSON).
        VelocityField(VelocityFieldFields),
        /// An EffectPresetPrototype.
        EffectPreset(EffectPresetFields),
        /// An EffectMetadataPrototype.
        EffectMetadata(EffectMetadataFields),
        /// An AtlasContourProto.
        AtlasContour(AtlasContourFields),
        /// A record of a database the reader keeps raw, and why.
        Raw(RawFields),
    }
}

/// A name out of a fixed set (a layout's, a reason's). Spelled as an alias so that serde's derive
/// does not borrow a `&str` field from its input (it would need the input to live forever): the
/// field's own function reads it back as one of the set.
type FixedName = &'static str;

/// A name id resolved: `None` when the strings map has no such id.
pub type Name = Option<String>;

/// A visual's node.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct NodeFields {
    /// The node's name.
    pub name: Name,
    /// The parent's position in the node list (`None` for a root).
    pub parent: Option<u16>,
    /// The node's matrix, column-major.
    #[cfg_attr(feature = "serde", serde(with = "float"))]
    pub matrix: [f32; 16],
}

/// A visual's render set: which mappings of its geometry it draws, with which material.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct RenderSetFields {
    /// The render set's name.
    pub name: Name,
    /// The material's name.
    pub material: Name,
    /// The geometry's vertex mapping id.
    #[cfg_attr(feature = "serde", serde(with = "hex::id32"))]
    pub vertices_mapping_id: u32,
    /// The geometry's index mapping id.
    #[cfg_attr(feature = "serde", serde(with = "hex::id32"))]
    pub indices_mapping_id: u32,
    /// The path id of the material's `.mfm`.
    #[cfg_attr(feature = "serde", serde(with = "hex::id64"))]
    pub material_mfm_path_id: u64,
    /// Whether the render set is skinned over `nodes`.
    pub skinned: bool,
    /// The names of the nodes it is attached to.
    pub nodes: Vec<Name>,
}

/// A visual's level of detail.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct LodFields {
    /// The distance up to which the LOD is drawn.
    #[cfg_attr(feature = "serde", serde(with = "float"))]
    pub extent: f32,
    /// Whether it casts shadows.
    pub casts_shadow: bool,
    /// The names of the render sets it draws.
    pub render_sets: Vec<Name>,
}

/// A bounding box.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct BoundsFields {
    /// The smallest corner.
    #[cfg_attr(feature = "serde", serde(with = "float"))]
    pub min: [f32; 3],
    /// The largest corner.
    #[cfg_attr(feature = "serde", serde(with = "float"))]
    pub max: [f32; 3],
}

/// A VisualPrototype's fields.
#[derive(Debug, Clone, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct VisualFields {
    /// The path id of the `.geometry` file.
    #[cfg_attr(feature = "serde", serde(with = "hex::id64"))]
    pub merged_geometry_path_id: u64,
    /// Drawn under water.
    pub underwater: bool,
    /// Drawn above water.
    pub abovewater: bool,
    /// The bounding box.
    pub bounding_box: BoundsFields,
    /// The skeleton.
    pub nodes: Vec<NodeFields>,
    /// The render sets.
    pub render_sets: Vec<RenderSetFields>,
    /// The levels of detail.
    pub lods: Vec<LodFields>,
}

/// A material property's value.
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize), serde(untagged))]
pub enum PropertyValue {
    /// `bool`.
    Bool(bool),
    /// `int`.
    Int(i32),
    /// `uint`.
    Uint(u32),
    /// `float`.
    Float(#[cfg_attr(feature = "serde", serde(serialize_with = "float::serialize"))] f32),
    /// `texture`: the texture's path id.
    Texture(#[cfg_attr(feature = "serde", serde(serialize_with = "hex::id64::serialize"))] u64),
    /// `vec2`.
    Vec2(#[cfg_attr(feature = "serde", serde(serialize_with = "float::serialize"))] [f32; 2]),
    /// `vec3`.
    Vec3(#[cfg_attr(feature = "serde", serde(serialize_with = "float::serialize"))] [f32; 3]),
    /// `vec4`.
    Vec4(#[cfg_attr(feature = "serde", serde(serialize_with = "float::serialize"))] [f32; 4]),
    /// `mat4`.
    Mat4(#[cfg_attr(feature = "serde", serde(serialize_with = "float::serialize"))] [f32; 16]),
}

impl From<MaterialValue<'_>> for PropertyValue {
    fn from(value: MaterialValue<'_>) -> Self {
        match value {
            MaterialValue::Bool(b) => Self::Bool(b),
            MaterialValue::Int(i) => Self::Int(i),
            MaterialValue::Uint(u) => Self::Uint(u),
            MaterialValue::Float(f) => Self::Float(f),
            MaterialValue::Texture(t) => Self::Texture(t),
            MaterialValue::Vec2(v) => Self::Vec2(v),
            MaterialValue::Vec3(v) => Self::Vec3(v),
            MaterialValue::Vec4(v) => Self::Vec4(v),
            MaterialValue::Mat4(m) => Self::Mat4(m.map(|f| f.get())),
        }
    }
}

impl PropertyValue {
    /// The value type's number: its typed array among the nine, the low 4 bits of a property id.
    pub const fn type_index(&self) -> u8 {
        match self {
            Self::Bool(_) => 0,
            Self::Int(_) => 1,
            Self::Uint(_) => 2,
            Self::Float(_) => 3,
            Self::Texture(_) => 4,
            Self::Vec2(_) => 5,
            Self::Vec3(_) => 6,
            Self::Vec4(_) => 7,
            Self::Mat4(_) => 8,
        }
    }

    /// The value type's name (`bool`, `int`, …, `mat4`), as [`MaterialValue::type_name`] gives it.
    pub const fn type_name(&self) -> &'static str {
        TYPE_NAMES[self.type_index() as usize]
    }
}

/// A material property.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct PropertyFields {
    /// The property's name.
    pub name: Name,
    /// The value type's name (`bool`, `int`, `uint`, `float`, `texture`, `vec2` … `mat4`).
    #[cfg_attr(feature = "serde", serde(rename = "type"))]
    pub kind: &'static str,
    /// The value.
    pub value: PropertyValue,
}

impl PropertyFields {
    /// A property named `name` holding `value` (its `kind` is the value's type name).
    pub fn new(name: &str, value: PropertyValue) -> Self {
        PropertyFields {
            name: Some(name.to_owned()),
            kind: value.type_name(),
            value,
        }
    }
}

/// A MaterialPrototype's fields.
#[derive(Debug, Clone, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct MaterialFields {
    /// The typed properties, in the record's order.
    pub properties: Vec<PropertyFields>,
    /// The path id of the effect (`.fx`).
    #[cfg_attr(feature = "serde", serde(with = "hex::id64"))]
    pub fx_path_id: u64,
    /// Collision flags.
    pub collision_flags: u32,
    /// Sort order.
    pub sort_order: i32,
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
    #[cfg_attr(
        feature = "serde",
        serde(deserialize_with = "super::fields_serde::model_layout")
    )]
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

/// A key of a point light's animation.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(
    feature = "serde",
    serde(bound(serialize = "T: float::Floats", deserialize = "T: float::Floats"))
)]
pub struct KeyFields<T> {
    /// The key's time.
    #[cfg_attr(feature = "serde", serde(with = "float"))]
    pub time: f32,
    /// The value at that time.
    #[cfg_attr(feature = "serde", serde(with = "float"))]
    pub value: T,
}

/// A point light's animation of one value.
#[derive(Debug, Clone, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(
    feature = "serde",
    serde(bound(serialize = "T: float::Floats", deserialize = "T: float::Floats"))
)]
pub struct AnimationFields<T> {
    /// The period.
    #[cfg_attr(feature = "serde", serde(with = "float"))]
    pub period: f32,
    /// Whether it repeats.
    pub repeated: bool,
    /// The keys.
    pub points: Vec<KeyFields<T>>,
}

/// A PointLightPrototype's fields.
#[derive(Debug, Clone, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct PointLightFields {
    /// RGBA colour.
    #[cfg_attr(feature = "serde", serde(with = "float"))]
    pub color: [f32; 4],
    /// Position relative to its node.
    #[cfg_attr(feature = "serde", serde(with = "float"))]
    pub local_position: [f32; 3],
    /// Radius.
    #[cfg_attr(feature = "serde", serde(with = "float"))]
    pub radius: f32,
    /// The lowest graphics quality that shows it.
    pub min_quality: u32,
    /// Whether the colour is animated.
    pub animated_color: bool,
    /// Whether the radius is animated.
    pub animated_radius: bool,
    /// The colour animation.
    pub color_animation: AnimationFields<[f32; 4]>,
    /// The radius animation.
    pub radius_animation: AnimationFields<f32>,
}

/// An EffectPrototype's fields, its particle systems as stored (undecoded). In JSON the systems
/// are summarized: `systems` (their number) and `systems_bytes` (their size).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct EffectFields {
    /// The longest emission.
    pub max_emitting_duration: f32,
    /// The particle systems' records, [`EFFECT_SYSTEM_SIZE`](super::raw::EFFECT_SYSTEM_SIZE)
    /// (0x1C8) bytes each (the writer zero-pads a shorter one and refuses a longer one).
    pub systems: Vec<Vec<u8>>,
}

/// A VelocityFieldPrototype's fields. In JSON the velocities are summarized by their number.
#[derive(Debug, Clone, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct VelocityFieldFields {
    /// The grid's size.
    pub dimensions: [u32; 3],
    /// The stored velocity components, packed as stored.
    #[cfg_attr(
        feature = "serde",
        serde(
            serialize_with = "hex::count",
            deserialize_with = "super::fields_serde::velocities"
        )
    )]
    pub velocities: Vec<u16>,
}

/// An EffectPresetPrototype's fields.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct EffectPresetFields {
    /// The high-quality effect's id.
    #[cfg_attr(feature = "serde", serde(with = "hex::id64"))]
    pub high_id: u64,
    /// The low-quality effect's id.
    #[cfg_attr(feature = "serde", serde(with = "hex::id64"))]
    pub low_id: u64,
}

/// An effect metadata channel.
#[derive(Debug, Clone, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ChannelFields {
    /// The channel's name.
    pub name: String,
    /// Its smallest value.
    #[cfg_attr(feature = "serde", serde(with = "float"))]
    pub min: f32,
    /// Its largest value.
    #[cfg_attr(feature = "serde", serde(with = "float"))]
    pub max: f32,
    /// Its default value.
    #[cfg_attr(feature = "serde", serde(with = "float"))]
    pub default: f32,
    /// Its kind.
    pub kind: u32,
}

/// An EffectMetadataPrototype's fields.
#[derive(Debug, Clone, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct EffectMetadataFields {
    /// The channels.
    pub channels: Vec<ChannelFields>,
}

/// An AtlasContourProto's fields.
#[derive(Debug, Clone, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct AtlasContourFields {
    /// Each frame's contour points (x, y).
    #[cfg_attr(feature = "serde", serde(with = "float"))]
    pub frames: Vec<Vec<[f32; 2]>>,
}

/// A record of a database kept raw.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct RawFields {
    /// Always `true`: marks the record as undecoded in JSON.
    pub raw: bool,
    /// The record's index in its database.
    pub index: usize,
    /// Why the database is kept raw.
    #[cfg_attr(
        feature = "serde",
        serde(deserialize_with = "super::fields_serde::raw_reason")
    )]
    pub reason: FixedName,
    /// The database blob's size in bytes.
    pub database_bytes: usize,
}

/// What one record's owned fields may take: eight times the file (at least 1 MiB). A record's
/// lists and names are bounded by the file one by one, but records may point many lists at the
/// same bytes (a render set's node names, an atlas frame's points) and many ids at one long
/// string; copied one by one, a small crafted file would make the fields grow with the square of
/// its size. Well-formed records take a small part of this.
struct Budget<'v, 'a> {
    db: &'v AssetsDb<'a>,
    left: usize,
    /// The record's file offset, where an error is reported.
    at: usize,
}

impl<'v, 'a> Budget<'v, 'a> {
    fn new(db: &'v AssetsDb<'a>, at: usize) -> Self {
        Budget {
            db,
            left: db.as_bytes().len().saturating_mul(8).max(1 << 20),
            at,
        }
    }

    /// Takes `bytes` from what is left, or says which part of the record exhausted it.
    fn take(&mut self, bytes: usize, what: &'static str) -> Result<()> {
        self.left = self.left.checked_sub(bytes).ok_or_else(|| {
            Error::invalid(
                u64_of(self.at),
                what,
                u64_of(bytes),
                "the record's lists and names, copied one by one, would take more than eight \
                 times the file (they share bytes: a damaged or crafted file)",
            )
        })?;
        Ok(())
    }

    /// One fixed-size item of a list of structs.
    fn item<T>(&mut self, what: &'static str) -> Result<()> {
        self.take(core::mem::size_of::<T>(), what)
    }

    /// A list of plain values, converted one by one.
    fn list<T, U>(
        &mut self,
        items: &[T],
        convert: impl Fn(&T) -> U,
        what: &'static str,
    ) -> Result<Vec<U>> {
        self.take(items.len().saturating_mul(core::mem::size_of::<U>()), what)?;
        Ok(items.iter().map(convert).collect())
    }

    /// A name id resolved through the strings map.
    fn name(&mut self, id: u32, what: &'static str) -> Result<Name> {
        let text = self.db.string(id)?;
        self.take(
            core::mem::size_of::<Name>().saturating_add(text.map_or(0, str::len)),
            what,
        )?;
        Ok(text.map(str::to_owned))
    }

    /// A list of name ids, resolved.
    fn names(&mut self, ids: &[U32], what: &'static str) -> Result<Vec<Name>> {
        ids.iter().map(|id| self.name(id.get(), what)).collect()
    }

    /// A string stored in the record itself.
    fn text(&mut self, text: &str, what: &'static str) -> Result<String> {
        self.take(text.len(), what)?;
        Ok(text.to_owned())
    }
}

/// The file offset of a record, where errors about its fields are reported.
fn record_offset(record: &Prototype<'_>) -> usize {
    match record {
        Prototype::Visual(v) => v.offset(),
        Prototype::Material(m) => m.offset(),
        Prototype::Model(m) => m.offset(),
        Prototype::SkeletonExtender(s) => s.offset(),
        Prototype::PointLight(l) => l.offset(),
        Prototype::Effect(e) => e.offset(),
        Prototype::VelocityField(v) => v.offset(),
        Prototype::EffectPreset(p) => p.offset(),
        Prototype::EffectMetadata(m) => m.offset(),
        Prototype::AtlasContour(a) => a.offset(),
        Prototype::Raw(_) => 0,
    }
}

impl PrototypeFields {
    /// Reads `record`'s fields, its name ids resolved through `db`'s strings map. Errors are the
    /// record view's (a list beyond the database, a bad channel name).
    pub fn read(db: &AssetsDb<'_>, record: Prototype<'_>) -> Result<Self> {
        let budget = &mut Budget::new(db, record_offset(&record));
        Ok(match record {
            Prototype::Visual(v) => {
                let nodes = v
                    .nodes()?
                    .map(|n| {
                        budget.item::<NodeFields>("VisualPrototype.nodes")?;
                        Ok(NodeFields {
                            name: budget.name(n.name_id, "VisualPrototype.nodes")?,
                            parent: n.parent,
                            matrix: n.matrix(),
                        })
                    })
                    .collect::<Result<_>>()?;
                let render_sets = v
                    .render_sets()?
                    .map(|s| {
                        budget.item::<RenderSetFields>("VisualPrototype.renderSets")?;
                        Ok(RenderSetFields {
                            name: budget.name(s.name_id(), "RenderSet.name")?,
                            material: budget
                                .name(s.material_name_id(), "RenderSet.materialName")?,
                            vertices_mapping_id: s.vertices_mapping_id(),
                            indices_mapping_id: s.indices_mapping_id(),
                            material_mfm_path_id: s.material_mfm_path_id(),
                            skinned: s.skinned(),
                            nodes: budget.names(s.node_name_ids()?, "RenderSet.nodeNameIds")?,
                        })
                    })
                    .collect::<Result<_>>()?;
                let lods = v
                    .lods()?
                    .map(|l| {
                        budget.item::<LodFields>("VisualPrototype.lods")?;
                        Ok(LodFields {
                            extent: l.extent(),
                            casts_shadow: l.casts_shadow(),
                            render_sets: budget
                                .names(l.render_set_names()?, "Lod.renderSetNames")?,
                        })
                    })
                    .collect::<Result<_>>()?;
                let (min, max) = v.bounding_box();
                Self::Visual(VisualFields {
                    merged_geometry_path_id: v.merged_geometry_path_id(),
                    underwater: v.underwater(),
                    abovewater: v.abovewater(),
                    bounding_box: BoundsFields { min, max },
                    nodes,
                    render_sets,
                    lods,
                })
            }
            Prototype::Material(m) => {
                let mut properties = Vec::with_capacity(m.property_count());
                for p in m.properties()? {
                    let p = p?;
                    budget.item::<PropertyFields>("MaterialPrototype.properties")?;
                    properties.push(PropertyFields {
                        name: budget.name(p.name_id, "MaterialPrototype.properties")?,
                        kind: p.value.type_name(),
                        value: p.value.into(),
                    });
                }
                Self::Material(MaterialFields {
                    properties,
                    fx_path_id: m.fx_path_id(),
                    collision_flags: m.collision_flags(),
                    sort_order: m.sort_order(),
                })
            }
            Prototype::Model(m) => {
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
                Self::Model(ModelFields {
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
                    animations: budget.list(
                        m.animations()?,
                        |i| i.get(),
                        "ModelPrototype.animations",
                    )?,
                    dyes,
                })
            }
            Prototype::SkeletonExtender(s) => Self::SkeletonExtender(SkeletonExtenderFields {
                flag: s.flag(),
                names: budget.names(s.name_ids()?, "SkeletonExtenderPrototype.names")?,
                parents: budget.names(s.parent_name_ids()?, "SkeletonExtenderPrototype.parents")?,
                matrices: budget.list(
                    s.matrices()?,
                    |m| m.map(|f| f.get()),
                    "SkeletonExtenderPrototype.matrices",
                )?,
            }),
            Prototype::PointLight(l) => {
                let (color_period, color_repeated, color_points) = l.color_animation()?;
                let (radius_period, radius_repeated, radius_points) = l.radius_animation()?;
                Self::PointLight(PointLightFields {
                    color: l.color(),
                    local_position: l.local_position(),
                    radius: l.radius(),
                    min_quality: l.min_quality(),
                    animated_color: l.animated_color(),
                    animated_radius: l.animated_radius(),
                    color_animation: AnimationFields {
                        period: color_period,
                        repeated: color_repeated,
                        points: budget.list(
                            color_points,
                            |p| KeyFields {
                                time: p.time.get(),
                                value: p.value.map(|f| f.get()),
                            },
                            "PointLightPrototype.colorAnimation",
                        )?,
                    },
                    radius_animation: AnimationFields {
                        period: radius_period,
                        repeated: radius_repeated,
                        points: budget.list(
                            radius_points,
                            |p| KeyFields {
                                time: p.time.get(),
                                value: p.value.get(),
                            },
                            "PointLightPrototype.radiusAnimation",
                        )?,
                    },
                })
            }
            Prototype::Effect(e) => Self::Effect(EffectFields {
                max_emitting_duration: e.max_emitting_duration(),
                systems: e
                    .systems()?
                    .chunks(EFFECT_SYSTEM_SIZE)
                    .map(<[u8]>::to_vec)
                    .collect(),
            }),
            Prototype::VelocityField(v) => Self::VelocityField(VelocityFieldFields {
                dimensions: v.dimensions(),
                velocities: budget.list(
                    v.velocities()?,
                    |x| x.get(),
                    "VelocityFieldPrototype.velocities",
                )?,
            }),
            Prototype::EffectPreset(p) => Self::EffectPreset(EffectPresetFields {
                high_id: p.high_id(),
                low_id: p.low_id(),
            }),
            Prototype::EffectMetadata(m) => Self::EffectMetadata(EffectMetadataFields {
                channels: m
                    .channels()?
                    .map(|c| {
                        budget.item::<ChannelFields>("EffectMetadataPrototype.channels")?;
                        Ok(ChannelFields {
                            name: budget.text(c.name()?, "EffectMetadataPrototype.channels")?,
                            min: c.min(),
                            max: c.max(),
                            default: c.default(),
                            kind: c.kind(),
                        })
                    })
                    .collect::<Result<_>>()?,
            }),
            Prototype::AtlasContour(a) => Self::AtlasContour(AtlasContourFields {
                frames: a
                    .frames()?
                    .map(|f| {
                        budget.list(
                            f.points()?,
                            |p| [p.x.get(), p.y.get()],
                            "AtlasContourProto.frames",
                        )
                    })
                    .collect::<Result<_>>()?,
            }),
            Prototype::Raw(r) => Self::Raw(RawFields {
                raw: true,
                index: r.index,
                reason: r.reason.describe(),
                database_bytes: r.database.len(),
            }),
        })
    }

    /// The prototype type of the record, `None` for a record kept raw.
    pub fn kind(&self) -> Option<PrototypeType> {
        Some(match self {
            Self::Visual(_) => PrototypeType::Visual,
            Self::Material(_) => PrototypeType::Material,
            Self::Model(_) => PrototypeType::Model,
            Self::SkeletonExtender(_) => PrototypeType::SkeletonExtender,
            Self::PointLight(_) => PrototypeType::PointLight,
            Self::Effect(_) => PrototypeType::Effect,
            Self::VelocityField(_) => PrototypeType::VelocityField,
            Self::EffectPreset(_) => PrototypeType::EffectPreset,
            Self::EffectMetadata(_) => PrototypeType::EffectMetadata,
            Self::AtlasContour(_) => PrototypeType::AtlasContour,
            Self::Raw(_) => return None,
        })
    }

    /// The prototype type's name as the file's databases spell it (`VisualPrototype`, …,
    /// `AtlasContourProto`: [`PrototypeType::name`]), `None` for a record kept raw.
    pub fn type_name(&self) -> Option<&'static str> {
        self.kind().map(PrototypeType::name)
    }
}

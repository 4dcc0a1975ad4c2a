//! MaterialPrototype: named properties whose values live in nine typed arrays (bool, int, uint,
//! float, texture, vec2, vec3, vec4, mat4). A property id's low 4 bits are its type, the high 12
//! bits its index in that type's array.

use zerocopy::little_endian::{F32, I32, U16, U32, U64};

use super::{Budget, Name, PrototypeRecord, RecordView};
use crate::bytes::{Bytes, Located, u64_of};
use crate::error::{Error, Result};
use crate::wows::assets::raw::{self, MATERIAL_VALUES_PTRS, Matrix};
use crate::wows::assets::strings::Strings;
#[cfg(feature = "serde")]
use crate::wows::assets::{fields_float as float, fields_serde::hex};

/// A material record.
#[derive(Debug, Clone, Copy)]
pub struct Material<'a> {
    bytes: Bytes<'a>,
    raw: Located<'a, raw::MaterialPrototype>,
    strings: Strings<'a>,
}

/// A property value, typed.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum MaterialValue<'a> {
    /// A bool property (stored as a byte).
    Bool(bool),
    /// An int property.
    Int(i32),
    /// A uint property.
    Uint(u32),
    /// A float property.
    Float(f32),
    /// selfId of the texture.
    Texture(u64),
    /// A vec2 property.
    Vec2([f32; 2]),
    /// A vec3 property.
    Vec3([f32; 3]),
    /// A vec4 property.
    Vec4([f32; 4]),
    /// A mat4 property, column-major, borrowed.
    Mat4(&'a Matrix),
}

impl MaterialValue<'_> {
    /// The type's name (`"bool"`, `"int"`, …, `"mat4"`).
    pub const fn type_name(&self) -> &'static str {
        TYPE_NAMES[match self {
            MaterialValue::Bool(_) => 0,
            MaterialValue::Int(_) => 1,
            MaterialValue::Uint(_) => 2,
            MaterialValue::Float(_) => 3,
            MaterialValue::Texture(_) => 4,
            MaterialValue::Vec2(_) => 5,
            MaterialValue::Vec3(_) => 6,
            MaterialValue::Vec4(_) => 7,
            MaterialValue::Mat4(_) => 8,
        }]
    }
}

/// Names of the nine value types, by type number.
pub const TYPE_NAMES: [&str; 9] = [
    "bool", "int", "uint", "float", "texture", "vec2", "vec3", "vec4", "mat4",
];

/// One property: its name id, its stored id (type and index) and its value.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MaterialProperty<'a> {
    /// The property's name, a strings-map key (MurmurHash3).
    pub name_id: u32,
    /// Type number 0..=8 (low 4 bits of the property id).
    pub kind: u8,
    /// Index in that type's array (high 12 bits).
    pub index: u16,
    /// The property's value.
    pub value: MaterialValue<'a>,
}

/// Stored little-endian floats, decoded.
fn decode_floats<const N: usize>(v: &[F32; N]) -> [f32; N] {
    v.map(|f| f.get())
}

impl<'a> Material<'a> {
    /// The stored record.
    pub fn raw(&self) -> &'a raw::MaterialPrototype {
        self.raw.get()
    }

    /// File offset of the record.
    pub fn offset(&self) -> usize {
        self.raw.offset()
    }

    /// The `count` elements that the pointer `field` bytes into the record points to.
    fn table<T>(
        &self,
        field: usize,
        relative: i64,
        count: usize,
        what: &'static str,
    ) -> Result<&'a [T]>
    where
        T: zerocopy::FromBytes + zerocopy::KnownLayout + zerocopy::Immutable + zerocopy::Unaligned,
    {
        let table = self.raw.table(self.bytes, field, relative, count, what)?;
        Ok(table.records())
    }

    /// Number of properties.
    pub fn property_count(&self) -> usize {
        usize::from(self.raw.property_count.get())
    }

    /// Element counts of the nine typed arrays.
    pub fn counts(&self) -> [u8; 9] {
        self.raw.counts
    }

    /// The properties' name ids (strings-map keys), borrowed.
    pub fn property_name_ids(&self) -> Result<&'a [U32]> {
        self.table(
            0x10,
            self.raw.property_name_ids_ptr.get(),
            self.property_count(),
            "MaterialPrototype.propertyNameIds",
        )
    }

    /// The properties' ids: low 4 bits the type (0..8), high 12 bits the index in that type's
    /// array.
    pub fn property_ids(&self) -> Result<&'a [U16]> {
        self.table(
            0x18,
            self.raw.property_ids_ptr.get(),
            self.property_count(),
            "MaterialPrototype.propertyIds",
        )
    }

    /// The typed array of type `kind` (0..=8) as a borrowed slice of `T`.
    fn values<T>(&self, kind: usize, what: &'static str) -> Result<&'a [T]>
    where
        T: zerocopy::FromBytes + zerocopy::KnownLayout + zerocopy::Immutable + zerocopy::Unaligned,
    {
        let ptr = self.raw.values_ptrs.get(kind).map_or(0, |p| p.get());
        let count = self.raw.counts.get(kind).copied().unwrap_or(0);
        self.table(
            MATERIAL_VALUES_PTRS + kind * 8,
            ptr,
            usize::from(count),
            what,
        )
    }

    /// Value `index` of type `kind`.
    pub fn value(&self, kind: u8, index: u16) -> Result<MaterialValue<'a>> {
        let i = usize::from(index);
        let missing = || {
            Error::invalid(
                u64_of(
                    self.raw
                        .field_offset(MATERIAL_VALUES_PTRS + usize::from(kind) * 8),
                ),
                "MaterialPrototype.propertyIds",
                u64::from(index),
                "index is past the typed array's count",
            )
        };
        Ok(match kind {
            0 => MaterialValue::Bool(
                *self
                    .values::<u8>(0, "MaterialPrototype.bools")?
                    .get(i)
                    .ok_or_else(missing)?
                    != 0,
            ),
            1 => MaterialValue::Int(
                self.values::<I32>(1, "MaterialPrototype.ints")?
                    .get(i)
                    .ok_or_else(missing)?
                    .get(),
            ),
            2 => MaterialValue::Uint(
                self.values::<U32>(2, "MaterialPrototype.uints")?
                    .get(i)
                    .ok_or_else(missing)?
                    .get(),
            ),
            3 => MaterialValue::Float(
                self.values::<F32>(3, "MaterialPrototype.floats")?
                    .get(i)
                    .ok_or_else(missing)?
                    .get(),
            ),
            4 => MaterialValue::Texture(
                self.values::<U64>(4, "MaterialPrototype.textures")?
                    .get(i)
                    .ok_or_else(missing)?
                    .get(),
            ),
            5 => MaterialValue::Vec2(decode_floats(
                self.values::<[F32; 2]>(5, "MaterialPrototype.vec2s")?
                    .get(i)
                    .ok_or_else(missing)?,
            )),
            6 => MaterialValue::Vec3(decode_floats(
                self.values::<[F32; 3]>(6, "MaterialPrototype.vec3s")?
                    .get(i)
                    .ok_or_else(missing)?,
            )),
            7 => MaterialValue::Vec4(decode_floats(
                self.values::<[F32; 4]>(7, "MaterialPrototype.vec4s")?
                    .get(i)
                    .ok_or_else(missing)?,
            )),
            8 => MaterialValue::Mat4(
                self.values::<Matrix>(8, "MaterialPrototype.mat4s")?
                    .get(i)
                    .ok_or_else(missing)?,
            ),
            other => {
                return Err(Error::invalid(
                    u64_of(self.raw.field_offset(0x18)),
                    "MaterialPrototype.propertyIds",
                    u64::from(other),
                    "property type is not 0..=8",
                ));
            }
        })
    }

    /// Every property with its value.
    pub fn properties(
        &self,
    ) -> Result<impl ExactSizeIterator<Item = Result<MaterialProperty<'a>>> + 'a> {
        let names = self.property_name_ids()?;
        let ids = self.property_ids()?;
        let this = *self;
        Ok(names.iter().zip(ids).map(move |(name, id)| {
            let id = id.get();
            let (kind, index) = ((id & 0xF) as u8, id >> 4);
            Ok(MaterialProperty {
                name_id: name.get(),
                kind,
                index,
                value: this.value(kind, index)?,
            })
        }))
    }

    /// A property's name, through the strings map.
    pub fn name(&self, name_id: u32) -> Result<Option<&'a str>> {
        self.strings.get(name_id)
    }

    /// selfId of the effect (`.fx`) file.
    pub fn fx_path_id(&self) -> u64 {
        self.raw.fx_path_id.get()
    }

    /// Collision flags, as stored (meaning not known).
    pub fn collision_flags(&self) -> u32 {
        self.raw.collision_flags.get()
    }

    /// Sort order when drawing.
    pub fn sort_order(&self) -> i32 {
        self.raw.sort_order.get()
    }
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

impl<'a> RecordView<'a> for Material<'a> {
    fn read(bytes: Bytes<'a>, at: usize, _item_size: usize, strings: Strings<'a>) -> Result<Self> {
        Ok(Material {
            bytes,
            raw: Located::read(bytes, at, "MaterialPrototype")?,
            strings,
        })
    }

    fn validate(&self) -> Result<()> {
        for p in self.properties()? {
            self.name(p?.name_id)?;
        }
        Ok(())
    }
}

impl PrototypeRecord for MaterialFields {
    type View<'a> = Material<'a>;
    type Raw = raw::MaterialPrototype;
    const KNOWN_SCHEMAS: &'static [(u32, usize)] = &[(2_840_859_861, 0x78)];
    const LAYOUTS: &'static [usize] = &[0x78];

    fn from_view(m: Material<'_>, budget: &mut Budget<'_, '_>) -> Result<Self> {
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
        Ok(MaterialFields {
            properties,
            fx_path_id: m.fx_path_id(),
            collision_flags: m.collision_flags(),
            sort_order: m.sort_order(),
        })
    }
}

/// A property read back from JSON: its value is read once its type is known.
#[cfg(feature = "serde")]
mod serde_forms {
    use serde::de::Error as _;
    use serde::{Deserialize, Deserializer};
    use serde_json::Value;

    use super::{Name, PropertyFields, PropertyValue, TYPE_NAMES};
    use crate::wows::assets::fields_float::Lossless;
    use crate::wows::assets::fields_serde::{Id, of};

    impl<'de> Deserialize<'de> for PropertyFields {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            /// A property as printed: its value is read once its type is known.
            #[derive(Deserialize)]
            struct Printed {
                name: Name,
                #[serde(rename = "type")]
                kind: String,
                value: Value,
            }
            let Printed { name, kind, value } = Printed::deserialize(d)?;
            let what = "MaterialPrototype property value";
            let value = match kind.as_str() {
                "bool" => PropertyValue::Bool(of(value, what)?),
                "int" => PropertyValue::Int(of(value, what)?),
                "uint" => PropertyValue::Uint(of(value, what)?),
                "float" => PropertyValue::Float(of::<Lossless<_>, _>(value, what)?.0),
                "texture" => PropertyValue::Texture(of::<Id<u64>, _>(value, what)?.0),
                "vec2" => PropertyValue::Vec2(of::<Lossless<_>, _>(value, what)?.0),
                "vec3" => PropertyValue::Vec3(of::<Lossless<_>, _>(value, what)?.0),
                "vec4" => PropertyValue::Vec4(of::<Lossless<_>, _>(value, what)?.0),
                "mat4" => PropertyValue::Mat4(of::<Lossless<_>, _>(value, what)?.0),
                other => return Err(D::Error::unknown_variant(other, &TYPE_NAMES)),
            };
            Ok(PropertyFields {
                name,
                kind: value.type_name(),
                value,
            })
        }
    }
}

/// The encoder (feature `write`).
#[cfg(feature = "write")]
mod encode {
    use core::mem::{offset_of, size_of};
    use zerocopy::IntoBytes;
    use zerocopy::little_endian::I64;

    use super::*;
    use crate::bytes::sink::{invalid, narrow};
    use crate::wows::assets::records::EncodeRecord;
    use crate::wows::assets::write::{Blob, NodeNameMaps, floats, named};
    use crate::write_error::WriteResult;

    impl PropertyValue {
        /// Appends the value as its typed array stores it.
        fn encode(&self, out: &mut Vec<u8>) {
            match *self {
                PropertyValue::Bool(b) => out.push(u8::from(b)),
                PropertyValue::Int(v) => out.extend_from_slice(I32::new(v).as_bytes()),
                PropertyValue::Uint(v) => out.extend_from_slice(U32::new(v).as_bytes()),
                PropertyValue::Float(v) => out.extend_from_slice(F32::new(v).as_bytes()),
                PropertyValue::Texture(v) => out.extend_from_slice(U64::new(v).as_bytes()),
                PropertyValue::Vec2(v) => out.extend_from_slice(floats(v).as_bytes()),
                PropertyValue::Vec3(v) => out.extend_from_slice(floats(v).as_bytes()),
                PropertyValue::Vec4(v) => out.extend_from_slice(floats(v).as_bytes()),
                PropertyValue::Mat4(v) => out.extend_from_slice(floats(v).as_bytes()),
            }
        }
    }

    impl EncodeRecord for MaterialFields {
        /// Each property's name.
        fn names<'r>(&'r self, names: &mut Vec<&'r str>) {
            names.extend(self.properties.iter().filter_map(|p| p.name.as_deref()));
        }

        /// The record, its properties sorted into the nine typed arrays.
        fn encode(&self, b: &mut Blob, _name_maps: NodeNameMaps) -> WriteResult<()> {
            let MaterialFields {
                properties,
                fx_path_id,
                collision_flags,
                sort_order,
            } = self;
            let mut arrays: [Vec<u8>; 9] = Default::default();
            let mut counts = [0u8; 9];
            let mut prop_ids = Vec::with_capacity(properties.len());
            let mut names = Vec::with_capacity(properties.len());
            for PropertyFields { name, kind, value } in properties {
                names.push(U32::new(named(name, "MaterialPrototype.propertyNameIds")?));
                if *kind != value.type_name() {
                    return Err(invalid(
                        "MaterialPrototype.propertyIds",
                        u64::from(value.type_index()),
                        "the property's type is not its value's",
                    ));
                }
                let kind = value.type_index();
                let slot = usize::from(kind);
                let (Some(count), Some(array)) = (counts.get_mut(slot), arrays.get_mut(slot))
                else {
                    return Err(invalid(
                        "MaterialPrototype.propertyIds",
                        u64::from(kind),
                        "no such type",
                    ));
                };
                // The id keeps 12 bits for the index in its type's array; the count is one byte.
                let index = u16::from(*count);
                *count = count.checked_add(1).ok_or_else(|| {
                    invalid(
                        "MaterialPrototype.counts",
                        u64::from(*count),
                        "more than 255 values of one type",
                    )
                })?;
                value.encode(array);
                prop_ids.push(U16::new((index << 4) | u16::from(kind)));
            }
            let r = b.push_record(
                &raw::MaterialPrototype {
                    property_count: U16::new(narrow(
                        properties.len(),
                        "MaterialPrototype.propertyCount",
                    )?),
                    counts,
                    pad: [0; 5],
                    property_name_ids_ptr: I64::new(0),
                    property_ids_ptr: I64::new(0),
                    values_ptrs: [I64::new(0); 9],
                    fx_path_id: U64::new(*fx_path_id),
                    collision_flags: U32::new(*collision_flags),
                    sort_order: I32::new(*sort_order),
                },
                "MaterialPrototype",
            )?;
            b.record_array(
                r,
                offset_of!(raw::MaterialPrototype, property_name_ids_ptr),
                &names,
            )?;
            b.record_array(
                r,
                offset_of!(raw::MaterialPrototype, property_ids_ptr),
                &prop_ids,
            )?;
            let values_ptrs = offset_of!(raw::MaterialPrototype, values_ptrs);
            for (k, array) in arrays.iter().enumerate() {
                b.record_array(r, values_ptrs + k * size_of::<I64>(), array)?;
            }
            Ok(())
        }
    }
}

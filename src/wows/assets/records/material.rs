//! MaterialPrototype: named properties whose values live in nine typed arrays (bool, int, uint,
//! float, texture, vec2, vec3, vec4, mat4). A property id's low 4 bits are its type, the high 12
//! bits its index in that type's array.

use zerocopy::little_endian::{F32, I32, U16, U32, U64};

use crate::bytes::{Bytes, Located, u64_of};
use crate::error::{Error, Result};
use crate::wows::assets::raw::{self, MATERIAL_VALUES_PTRS, Matrix};
use crate::wows::assets::strings::Strings;

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

fn floats<const N: usize>(v: &[F32; N]) -> [f32; N] {
    v.map(|f| f.get())
}

impl<'a> Material<'a> {
    pub(crate) fn read(bytes: Bytes<'a>, at: usize, strings: Strings<'a>) -> Result<Self> {
        Ok(Material {
            bytes,
            raw: Located::read(bytes, at, "MaterialPrototype")?,
            strings,
        })
    }

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
            5 => MaterialValue::Vec2(floats(
                self.values::<[F32; 2]>(5, "MaterialPrototype.vec2s")?
                    .get(i)
                    .ok_or_else(missing)?,
            )),
            6 => MaterialValue::Vec3(floats(
                self.values::<[F32; 3]>(6, "MaterialPrototype.vec3s")?
                    .get(i)
                    .ok_or_else(missing)?,
            )),
            7 => MaterialValue::Vec4(floats(
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

    pub(crate) fn validate(&self) -> Result<()> {
        for p in self.properties()? {
            self.name(p?.name_id)?;
        }
        Ok(())
    }
}

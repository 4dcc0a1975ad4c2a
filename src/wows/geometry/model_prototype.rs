//! Collision and armor models (CollisionModelPrototype, ArmorModelPrototype): a name and a blob.

use super::armor::Armor;
use super::blob::Blob;
use super::packed_string;
use super::raw::{MODEL_DATA_PTR, MODEL_NAME, ModelPrototype};
use crate::bytes::{Bytes, Located, to_usize};
use crate::error::Result;

/// Which table a model comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ModelKind {
    /// CollisionModelPrototype.
    Collision,
    /// ArmorModelPrototype.
    Armor,
}

impl ModelKind {
    fn names(self) -> (&'static str, &'static str, &'static str) {
        match self {
            ModelKind::Collision => (
                "CollisionModelPrototype.name",
                "CollisionModelPrototype.dataPtr",
                "CollisionModelPrototype.data",
            ),
            ModelKind::Armor => (
                "ArmorModelPrototype.name",
                "ArmorModelPrototype.dataPtr",
                "ArmorModelPrototype.data",
            ),
        }
    }
}

/// A collision or armor model, borrowed from the file. `Copy`.
#[derive(Debug, Clone, Copy)]
pub struct ModelRecord<'a> {
    pub(crate) bytes: Bytes<'a>,
    /// The record and its absolute file offset.
    pub(crate) raw: Located<'a, ModelPrototype>,
    pub(crate) kind: ModelKind,
}

impl<'a> ModelRecord<'a> {
    /// Collision or armor.
    pub fn kind(&self) -> ModelKind {
        self.kind
    }

    /// Absolute file offset of the record.
    pub fn offset(&self) -> usize {
        self.raw.offset()
    }

    /// The stored record.
    pub fn raw(&self) -> &'a ModelPrototype {
        self.raw.get()
    }

    /// The model's name (e.g. `"CM_PA_united.armor"`), borrowed.
    pub fn name(&self) -> Result<&'a str> {
        packed_string::utf8(
            self.bytes,
            self.raw.field_offset(MODEL_NAME),
            self.kind.names().0,
        )
    }

    /// The name's bytes as stored (without the terminator), whatever their encoding.
    pub fn name_bytes(&self) -> Result<&'a [u8]> {
        packed_string::text(
            self.bytes,
            self.raw.field_offset(MODEL_NAME),
            self.kind.names().0,
        )
    }

    /// The blob's stored size.
    pub fn size_in_bytes(&self) -> u64 {
        self.raw.size_in_bytes.get()
    }

    fn blob(&self) -> Result<Blob<'a>> {
        let (_, pointer_field, data_field) = self.kind.names();
        Ok(Blob {
            bytes: self.bytes,
            record_at: self.raw.offset(),
            pointer_at: self.raw.field_offset(MODEL_DATA_PTR),
            relative: self.raw.data_ptr.get(),
            size: to_usize(self.size_in_bytes(), self.raw.offset(), data_field)?,
            pointer_field,
            data_field,
        })
    }

    /// Absolute file offset of the blob.
    pub fn data_offset(&self) -> Result<usize> {
        self.blob()?.offset()
    }

    /// The blob, borrowed.
    pub fn data(&self) -> Result<&'a [u8]> {
        self.blob()?.data()
    }

    /// The blob read as an armor payload (BVH nodes of triangles). Meaningful for armor models;
    /// collision payloads have a layout of their own, exposed as bytes only.
    pub fn armor(&self) -> Result<Armor<'a>> {
        Armor::parse(self.bytes, self.data_offset()?, self.data()?.len())
    }
}

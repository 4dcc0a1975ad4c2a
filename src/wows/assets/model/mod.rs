//! The owned `assets.bin`: [`AssetsBuilder`], which gathers strings, the path tree (CityHash64
//! ids), resource-to-prototype entries and records given as the reader's own
//! [`PrototypeFields`], and [`AssetsModel`], the whole file as plain data, which the builder
//! converts to and from (and, with the `serde` feature, is read from and written to JSON as);
//! both copied from a view with `from_view`. Their writer — the records' encoding into database
//! blobs, the hash maps, the file's layout and checksum, `to_bytes` — is in `assets::write`; its
//! public types ([`FileLayout`], [`BlobPlacement`], ...) are re-exported here.
//!
//! ```
//! use gamebin::wows::assets::model::AssetsBuilder;
//! use gamebin::wows::assets::{AssetsDb, EffectPresetFields, Prototype};
//!
//! let mut builder = AssetsBuilder::new();
//! let id = builder.path("content/effects/smoke.fxpreset").unwrap();
//! builder
//!     .prototype(id, EffectPresetFields { high_id: 1, low_id: 2 })
//!     .unwrap();
//! let bytes = builder.to_bytes().unwrap();
//!
//! let db = AssetsDb::from_bytes(&bytes).unwrap();
//! let at = db.lookup_path("content/effects/smoke.fxpreset").unwrap().unwrap();
//! assert!(matches!(db.record(at).unwrap(), Prototype::EffectPreset(p) if p.low_id() == 2));
//! ```

use core::mem::size_of;
use std::collections::HashMap;

use crate::bytes::u64_of;
use crate::hash::{city_hash_64, murmur3_32};
use crate::wows::assets::raw::ModelPrototypeV1;
use crate::wows::assets::{PrototypeFields, PrototypeRef, PrototypeType};
use crate::write_error::{WriteError, WriteResult as Result};

mod assets_model;
mod from_view;

use super::write::Blob;
pub use super::write::{BlobPlacement, FileLayout, NodeNameMaps, Padding, StoredBlob, StringWords};
pub use assets_model::{
    AssetsModel, DatabaseModel, DatabaseRecords, PathEntryModel, PrototypeEntryModel,
};

/// Which checksum the header stores (in JSON `"murmur3"`, `"crc32"` or `{"fixed": "0x…"}`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(rename_all = "snake_case")
)]
pub enum ChecksumKind {
    /// MurmurHash3_x86_32 (seed 0) of the body.
    Murmur3,
    /// CRC32 of the body.
    Crc32,
    /// A fixed value (to test a checksum that matches neither).
    Fixed(
        #[cfg_attr(
            feature = "serde",
            serde(with = "crate::wows::assets::serde_ids::id32")
        )]
        u32,
    ),
}

pub(crate) fn name_id(name: &str) -> u32 {
    murmur3_32(name.as_bytes(), 0)
}

/// Builds an `assets.bin`. With the `serde` feature it is (de)serialized as its
/// [`AssetsModel`].
#[derive(Debug, Clone)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(into = "AssetsModel", try_from = "AssetsModel")
)]
pub struct AssetsBuilder {
    pub(in crate::wows::assets) pool: Vec<u8>,
    /// Name id → the string's offset in the pool.
    pub(in crate::wows::assets) strings: HashMap<u32, usize>,
    pub(in crate::wows::assets) string_order: Vec<u32>,
    pub(in crate::wows::assets) strings_capacity: Option<usize>,
    pub(in crate::wows::assets) r2p_capacity: Option<usize>,
    pub(in crate::wows::assets) paths: Vec<(u64, u64, String)>,
    pub(in crate::wows::assets) path_ids: HashMap<String, u64>,
    pub(in crate::wows::assets) prototypes: Vec<(u64, u32)>,
    pub(in crate::wows::assets) blobs: Vec<Blob>,
    pub(in crate::wows::assets) checksum: ChecksumKind,
    /// Where another writer placed the parts (`None`: the writer's own layout).
    pub(in crate::wows::assets) layout: Option<FileLayout>,
    /// The order the visuals' node name maps are encoded in (the layout's, when it has one).
    pub(in crate::wows::assets) node_name_maps: NodeNameMaps,
}

impl Default for AssetsBuilder {
    fn default() -> Self {
        Self::new()
    }
}

impl AssetsBuilder {
    /// An empty database with the ten prototype databases (in the seed's order) and a MurmurHash3
    /// checksum.
    pub fn new() -> Self {
        AssetsBuilder {
            pool: Vec::new(),
            strings: HashMap::new(),
            string_order: Vec::new(),
            strings_capacity: None,
            r2p_capacity: None,
            paths: Vec::new(),
            path_ids: HashMap::new(),
            prototypes: Vec::new(),
            blobs: PrototypeType::ALL
                .iter()
                .map(|t| Blob::new(t.magic(), 0, t.item_size()))
                .collect(),
            checksum: ChecksumKind::Murmur3,
            layout: None,
            node_name_maps: NodeNameMaps::Sorted,
        }
    }

    /// The checksum flavour to store.
    pub fn checksum(&mut self, kind: ChecksumKind) -> &mut Self {
        self.checksum = kind;
        self
    }

    /// Fixes the hash tables' capacities (otherwise twice the entries plus one).
    pub fn capacities(&mut self, strings: usize, prototypes: usize) -> &mut Self {
        self.strings_capacity = Some(strings);
        self.r2p_capacity = Some(prototypes);
        self
    }

    /// Sets the schema hash of a type's database.
    pub fn schema_hash(&mut self, kind: PrototypeType, schema_hash: u32) -> &mut Self {
        if let Some(b) = self.blob_mut(kind) {
            b.schema_hash = schema_hash;
        }
        self
    }

    /// Writes models in the older 0x20-byte layout (schema 3601929577). Call before adding models.
    pub fn model_layout_v1(&mut self) -> &mut Self {
        if let Some(b) = self.blob_mut(PrototypeType::Model) {
            // The record size is the older raw struct's (its size is asserted in `raw.rs`).
            b.item_size = size_of::<ModelPrototypeV1>();
            b.schema_hash = 3_601_929_577;
        }
        self
    }

    /// Adds a database with an unknown magic and a raw blob.
    pub fn unknown_database(&mut self, magic: u32, schema_hash: u32, blob: Vec<u8>) -> &mut Self {
        let mut b = Blob::new(magic, schema_hash, 0);
        b.raw = Some(blob);
        self.blobs.push(b);
        self
    }

    fn blob_mut(&mut self, kind: PrototypeType) -> Option<&mut Blob> {
        self.blobs.iter_mut().find(|b| b.magic == kind.magic())
    }

    /// Adds a string to the strings map (once), returning its name id.
    pub fn string(&mut self, s: &str) -> u32 {
        let id = name_id(s);
        if !self.strings.contains_key(&id) {
            self.strings.insert(id, self.pool.len());
            self.string_order.push(id);
            self.pool.extend_from_slice(s.as_bytes());
            self.pool.push(0);
        }
        id
    }

    /// Number of path entries so far.
    pub fn path_count(&self) -> usize {
        self.paths.len()
    }

    /// Adds a path entry with explicit ids (as in files whose ids are not path hashes).
    pub fn path_entry(&mut self, self_id: u64, parent_id: u64, name: &str) -> &mut Self {
        self.paths.push((self_id, parent_id, name.to_string()));
        self
    }

    /// Adds a full path (`content/…`) and every missing ancestor, with CityHash64 ids; returns the
    /// leaf's id.
    pub fn path(&mut self, path: &str) -> Result<u64> {
        if path.is_empty() || path.split('/').any(str::is_empty) {
            return Err(WriteError::invalid(
                "PathEntry.name",
                0,
                "empty path segment",
            ));
        }
        let mut parent = 0u64;
        let mut end = 0usize;
        for segment in path.split('/') {
            end += segment.len();
            let prefix = &path[..end];
            let id = match self.path_ids.get(prefix) {
                Some(&id) => id,
                None => {
                    let id = city_hash_64(prefix.as_bytes());
                    self.path_ids.insert(prefix.to_string(), id);
                    self.paths.push((id, parent, segment.to_string()));
                    id
                }
            };
            parent = id;
            end += 1;
        }
        Ok(parent)
    }

    /// Marks `self_id` as deleted in the resource-to-prototype map.
    pub fn deleted(&mut self, self_id: u64) -> &mut Self {
        self.prototypes.push((self_id, 3));
        self
    }

    /// Adds a raw resource-to-prototype entry (any stored value).
    pub fn prototype_value(&mut self, self_id: u64, value: u32) -> &mut Self {
        self.prototypes.push((self_id, value));
        self
    }

    /// Encodes `record` (any type's fields, or a [`PrototypeFields`] as the reader read it) into
    /// its type's database and maps `self_id` to it. Refused, with an error naming the field: a
    /// record kept raw, a name the strings map lacked (`None`: records are written from their
    /// names), a model whose layout is not its database's, lists that must pair up and do not.
    ///
    /// ```
    /// # fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// use gamebin::wows::assets::{AssetsDb, PrototypeFields};
    /// use gamebin::synth::assets::example_file;
    /// use gamebin::wows::assets::model::AssetsBuilder;
    ///
    /// let file = example_file();
    /// let db = AssetsDb::from_bytes(&file)?;
    /// let path = "content/gameplay/Test.visual";
    /// let visual = PrototypeFields::read(&db, db.record(db.lookup_path(path)?.unwrap())?)?;
    ///
    /// let mut builder = AssetsBuilder::new();
    /// let id = builder.path(path)?;
    /// builder.prototype(id, visual.clone())?;
    /// let bytes = builder.to_bytes()?;
    /// let copy = AssetsDb::from_bytes(&bytes)?;
    /// let again = PrototypeFields::read(&copy, copy.record(copy.lookup_path(path)?.unwrap())?)?;
    /// assert_eq!(again, visual);
    /// # Ok(())
    /// # }
    /// ```
    pub fn prototype(
        &mut self,
        self_id: u64,
        record: impl Into<PrototypeFields>,
    ) -> Result<&mut Self> {
        let (database, index) = self.encode(record.into())?;
        self.map(self_id, database, index)
    }

    /// Maps `self_id` to record `index` of database `database`.
    fn map(&mut self, self_id: u64, database: usize, index: usize) -> Result<&mut Self> {
        let value = PrototypeRef::live_value(database, index).ok_or_else(|| {
            WriteError::invalid(
                "resourceToPrototypeMap.value",
                u64_of(index),
                "record index needs more than 24 bits or database index more than 6",
            )
        })?;
        self.prototypes.push((self_id, value));
        Ok(self)
    }

    /// Encodes a record without mapping any resource to it; returns its index.
    pub fn record(&mut self, record: impl Into<PrototypeFields>) -> Result<usize> {
        Ok(self.encode(record.into())?.1)
    }
}

//! An `assets.bin` writer: strings and resource-to-prototype maps with linear probing, the path
//! tree with CityHash64 ids, and prototype databases whose records (all ten types) are encoded
//! from the reader's own [`PrototypeFields`] — one declaration of each record, read and written —
//! laid out the way the seed describes the game's file. Either checksum flavour.
//!
//! ```
//! use gamebin::write::assets::AssetsBuilder;
//! use gamebin::wows::assets::{AssetsView, EffectPresetFields, Prototype};
//!
//! let mut builder = AssetsBuilder::new();
//! let id = builder.path("content/effects/smoke.fxpreset").unwrap();
//! builder
//!     .prototype(id, EffectPresetFields { high_id: 1, low_id: 2 })
//!     .unwrap();
//! let bytes = builder.to_bytes().unwrap();
//!
//! let db = AssetsView::from_bytes(&bytes).unwrap();
//! let at = db.lookup_path("content/effects/smoke.fxpreset").unwrap().unwrap();
//! assert!(matches!(db.record(at).unwrap(), Prototype::EffectPreset(p) if p.low_id() == 2));
//! ```

use core::mem::{offset_of, size_of};
use std::collections::HashMap;

use zerocopy::little_endian::{F32, I32, I64, U16, U32, U64};
use zerocopy::{FromZeros, Immutable, IntoBytes};

use super::sink::{Reserved, Sink, invalid, narrow, relative};
use crate::bytes::u64_of;
use crate::error::{Error, Result};
use crate::hash::{city_hash_64, murmur3_32};
use crate::wows::assets::raw::NO_PARENT;
use crate::wows::assets::raw::{
    Animation, AtlasContourProto, BlobHeader, BodyHeader, Channel, ColorPoint, Contour,
    DatabaseEntry, Dye, EFFECT_SYSTEM_SIZE, EffectMetadataPrototype, EffectPresetPrototype,
    EffectPrototype, Header, Lod, MaterialPrototype, Matrix, ModelPrototype, ModelPrototypeV1,
    PathEntry, Point, PointLightPrototype, PrototypeBucket, RenderSet, ScalarPoint,
    SkeletonExtenderPrototype, StringBucket, VelocityFieldPrototype, VisualPrototype,
};
use crate::wows::assets::{
    ARCHITECTURE, AnimationFields, AssetsView, AtlasContourFields, BoundsFields, ChannelFields,
    ChecksumMatch, DyeFields, EffectFields, EffectMetadataFields, EffectPresetFields, KeyFields,
    LodFields, MAGIC, MODEL_LAYOUT, MODEL_LAYOUT_V1, MaterialFields, ModelFields, Name, NodeFields,
    PathIndex, PointLightFields, PropertyFields, PropertyValue, Prototype, PrototypeFields,
    PrototypeRef, PrototypeType, RenderSetFields, SkeletonExtenderFields, VERSION,
    VelocityFieldFields, VisualFields,
};

mod model;

pub use model::{AssetsModel, DatabaseModel, DatabaseRecords, PathEntryModel, PrototypeEntryModel};

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

/// The identity matrix translated by `t`.
pub fn translation(t: [f32; 3]) -> [f32; 16] {
    let mut m = [0.0; 16];
    m[0] = 1.0;
    m[5] = 1.0;
    m[10] = 1.0;
    m[15] = 1.0;
    m[12] = t[0];
    m[13] = t[1];
    m[14] = t[2];
    m
}

/// A point light's animation of `period` through `keys` (time, value).
pub fn animation<T: Copy>(period: f32, repeated: bool, keys: &[(f32, T)]) -> AnimationFields<T> {
    AnimationFields {
        period,
        repeated,
        points: keys
            .iter()
            .map(|&(time, value)| KeyFields { time, value })
            .collect(),
    }
}

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

/// Little-endian floats, as the records store them.
fn floats<const N: usize>(values: [f32; N]) -> [F32; N] {
    values.map(F32::new)
}

/// A database blob under construction: fixed-size records first, out-of-line arrays after them.
/// Pointers from records into the out-of-line area are patched once the record count is final.
#[derive(Debug, Clone)]
struct Blob {
    magic: u32,
    schema_hash: u32,
    item_size: usize,
    count: usize,
    records: Sink,
    ool: Sink,
    /// (record-area field position, record-area base, out-of-line target)
    fixups: Vec<(usize, usize, usize)>,
    /// Raw blob bytes for a database of unknown layout (written as is).
    raw: Option<Vec<u8>>,
    /// The records encoded, as given (what the model of the file carries).
    fields: Vec<PrototypeFields>,
}

impl Blob {
    fn new(magic: u32, schema_hash: u32, item_size: usize) -> Self {
        Blob {
            magic,
            schema_hash,
            item_size,
            count: 0,
            records: Sink::new(),
            ool: Sink::new(),
            fixups: Vec::new(),
            raw: None,
            fields: Vec::new(),
        }
    }

    /// The [`ModelFields::layout`] this database's item size makes (meaningful for models only).
    fn model_layout(&self) -> &'static str {
        if self.item_size == size_of::<ModelPrototypeV1>() {
            MODEL_LAYOUT_V1
        } else {
            MODEL_LAYOUT
        }
    }

    /// Appends a record; its type must have the database's item size. Returns its position in the
    /// record area.
    fn push_record<T: IntoBytes + Immutable>(
        &mut self,
        record: &T,
        what: &'static str,
    ) -> Result<usize> {
        if size_of::<T>() != self.item_size {
            return Err(invalid(
                what,
                u64_of(self.item_size),
                "the database's item size is not this record layout's",
            ));
        }
        self.count += 1;
        Ok(self.records.put(record))
    }

    /// Appends an array to the out-of-line area (8-aligned), returning its position there.
    fn array<T: IntoBytes + Immutable>(&mut self, items: &[T]) -> Result<usize> {
        self.ool.align(8)?;
        Ok(self.ool.put(items))
    }

    /// Stores a table of out-of-line structs, one made by `make` per item (8-aligned, each filled
    /// once `make` has written its arrays after it, given the struct's position), and points the
    /// field at `rec + field` at it; an empty table's pointer stays null.
    fn record_table<S, T: IntoBytes + Immutable>(
        &mut self,
        rec: usize,
        field: usize,
        items: &[S],
        what: &'static str,
        mut make: impl FnMut(&mut Self, usize, &S) -> Result<T>,
    ) -> Result<()> {
        if items.is_empty() {
            return Ok(());
        }
        self.ool.align(8)?;
        let table: Reserved<T> = self.ool.reserve(items.len(), what)?;
        self.fixups.push((rec + field, rec, table.at()));
        for (i, item) in items.iter().enumerate() {
            let value = make(self, table.record(i)?, item)?;
            self.ool.patch_record(&table, i, &value)?;
        }
        Ok(())
    }

    /// Stores a non-empty array out of line and points the field at `rec + field` at it,
    /// relative to the record; an empty array's pointer stays null.
    fn record_array<T: IntoBytes + Immutable>(
        &mut self,
        rec: usize,
        field: usize,
        items: &[T],
    ) -> Result<()> {
        if !items.is_empty() {
            let target = self.array(items)?;
            self.fixups.push((rec + field, rec, target));
        }
        Ok(())
    }

    /// Stores a non-empty array out of line; returns the pointer to it that an out-of-line struct
    /// at `base` stores (null for an empty array).
    fn ool_array<T: IntoBytes + Immutable>(
        &mut self,
        base: usize,
        items: &[T],
        what: &'static str,
    ) -> Result<I64> {
        if items.is_empty() {
            return Ok(I64::new(0));
        }
        let target = self.array(items)?;
        pointer(base, target, what)
    }

    /// The finished blob: header, records (pointers patched), out-of-line data.
    fn finish(&self) -> Result<Vec<u8>> {
        if let Some(raw) = &self.raw {
            return Ok(raw.clone());
        }
        let mut out = Sink::new();
        out.put(&BlobHeader {
            record_count: U64::new(u64_of(self.count)),
            header_size: U64::new(u64_of(size_of::<BlobHeader>())),
        });
        let records_at = out.put(self.records.as_slice());
        out.align(8)?;
        let ool_at = out.put(self.ool.as_slice());
        for &(field, base, target) in &self.fixups {
            let rel = pointer(records_at + base, ool_at + target, "record pointer")?;
            out.patch(records_at + field, &rel, "record pointer")?;
        }
        Ok(out.into_bytes())
    }
}

/// The relative pointer from the struct at `base` to `target`.
fn pointer(base: usize, target: usize, what: &'static str) -> Result<I64> {
    relative(base, target, what).map(I64::new)
}

fn ids(ids: impl IntoIterator<Item = u32>) -> Vec<U32> {
    ids.into_iter().map(U32::new).collect()
}

fn ids64(ids: impl IntoIterator<Item = u64>) -> Vec<U64> {
    ids.into_iter().map(U64::new).collect()
}

fn name_id(name: &str) -> u32 {
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
    pool: Vec<u8>,
    /// Name id → the string's offset in the pool.
    strings: HashMap<u32, usize>,
    string_order: Vec<u32>,
    strings_capacity: Option<usize>,
    r2p_capacity: Option<usize>,
    paths: Vec<(u64, u64, String)>,
    path_ids: HashMap<String, u64>,
    prototypes: Vec<(u64, u32)>,
    blobs: Vec<Blob>,
    checksum: ChecksumKind,
}

impl Default for AssetsBuilder {
    fn default() -> Self {
        Self::new()
    }
}

/// The smallest capacity the writer uses for `n` entries: a load factor of at most one half.
fn capacity_for(n: usize) -> usize {
    (n * 2 + 1).max(1)
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
            return Err(Error::invalid(0, "PathEntry.name", 0, "empty path segment"));
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
    /// # fn main() -> Result<(), gamebin::Error> {
    /// use gamebin::wows::assets::{AssetsView, PrototypeFields};
    /// use gamebin::write::assets::{AssetsBuilder, example_file};
    ///
    /// let file = example_file();
    /// let db = AssetsView::from_bytes(&file)?;
    /// let path = "content/gameplay/Test.visual";
    /// let visual = PrototypeFields::read(&db, db.record(db.lookup_path(path)?.unwrap())?)?;
    ///
    /// let mut builder = AssetsBuilder::new();
    /// let id = builder.path(path)?;
    /// builder.prototype(id, visual.clone())?;
    /// let bytes = builder.to_bytes()?;
    /// let copy = AssetsView::from_bytes(&bytes)?;
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

    /// The builder of an existing file, carrying every part the file stores: the strings (in
    /// their stored order), the path entries (in table order, ids as stored), the
    /// resource-to-prototype entries (values as stored: live, deleted or other states), every
    /// database in table order (magic, schema hash, record layout, every record decoded and
    /// encoded again; a database kept raw as its blob), the capacities of both hash maps and the
    /// checksum flavour that matched (the stored value when neither did).
    /// [`to_bytes`](Self::to_bytes) then writes the file again: byte for byte the same for a file
    /// this writer made, and the builder can be changed before that (a record added, a checksum
    /// chosen).
    ///
    /// What the writer lays out its own way, whatever the file did: the sections' order and the
    /// padding between them, the string pool (the map's strings one after another, in the order of
    /// their buckets' words), the buckets' words (strings: bit 31 and the order; prototypes: 1),
    /// each database's out-of-line arrays (after the records, in record order). Hash map entries
    /// are added again in an order that puts each one back in its slot when the map was filled by
    /// linear probing.
    ///
    /// Refused, with an error naming the structure, the field and its file offset: whatever the
    /// reader refuses (a pointer outside the file, a list past its database, …); a string whose
    /// name id is not its MurmurHash3, or a name id stored twice; a record naming an id the
    /// strings map lacks (records are written from their names); a path name that is not UTF-8;
    /// strings or records that share bytes in the file so much that, written out one by one, they
    /// would be larger than the file.
    ///
    /// ```
    /// # fn main() -> Result<(), gamebin::Error> {
    /// use gamebin::wows::assets::{AssetsView, EffectPresetFields, PrototypeType};
    /// use gamebin::write::assets::{AssetsBuilder, example_file};
    ///
    /// let file = example_file();
    /// let view = AssetsView::from_bytes(&file)?;
    /// let builder = AssetsBuilder::from_view(&view)?;
    /// assert_eq!(builder.to_bytes()?, file); // written again, byte for byte
    ///
    /// // Changed, then written: the new record beside every old one.
    /// let mut builder = AssetsBuilder::from_view(&view)?;
    /// let id = builder.path("content/effects/smoke.preset")?;
    /// builder.prototype(id, EffectPresetFields { high_id: 7, low_id: 8 })?;
    /// let bytes = builder.to_bytes()?;
    /// let changed = AssetsView::from_bytes(&bytes)?;
    /// let presets = changed.database(PrototypeType::EffectPreset)?.expect("presets");
    /// assert_eq!(presets.record_count(), 2);
    /// assert!(changed.lookup_path("content/gameplay/Test.visual")?.is_some());
    /// # Ok(())
    /// # }
    /// ```
    pub fn from_view(view: &AssetsView<'_>) -> Result<AssetsBuilder> {
        let checksum = view.verify_checksum();
        let mut b = AssetsBuilder {
            pool: Vec::new(),
            strings: HashMap::new(),
            string_order: Vec::new(),
            strings_capacity: Some(view.strings().capacity()),
            r2p_capacity: Some(view.prototypes().capacity()),
            paths: Vec::new(),
            path_ids: HashMap::new(),
            prototypes: Vec::new(),
            blobs: Vec::new(),
            checksum: match checksum.matches() {
                ChecksumMatch::Murmur3 => ChecksumKind::Murmur3,
                ChecksumMatch::Crc32 => ChecksumKind::Crc32,
                ChecksumMatch::None => ChecksumKind::Fixed(checksum.stored),
            },
        };
        b.strings_from(view)?;
        b.paths_from(view)?;
        b.prototypes_from(view)?;
        b.databases_from(view)?;
        Ok(b)
    }

    /// The strings map's strings, added in the order of their buckets' words (the order the
    /// writer stores there), which rebuilds this writer's pool and slots.
    fn strings_from(&mut self, view: &AssetsView<'_>) -> Result<()> {
        let mut slots = Vec::new();
        let mut total = 0usize;
        for (at, key, word, text) in view.strings().slots() {
            let text = text?;
            if murmur3_32(text.as_bytes(), 0) != key {
                return Err(Error::invalid(
                    u64_of(at),
                    "offsetsMap.key",
                    u64::from(key),
                    "not the MurmurHash3 of its string (the writer derives name ids from strings)",
                ));
            }
            // Strings may share bytes in a pool; written one after another they must still fit
            // in what a file of this size can hold.
            total = total.saturating_add(text.len() + 1);
            within_file(view, total, at, "stringData")?;
            slots.push((word & 0x7FFF_FFFF, at, key, text));
        }
        slots.sort_unstable_by_key(|&(order, at, _, _)| (order, at));
        for (_, at, key, text) in slots {
            if self.strings.contains_key(&key) {
                return Err(Error::invalid(
                    u64_of(at),
                    "offsetsMap.key",
                    u64::from(key),
                    "a second bucket holds this name id",
                ));
            }
            self.string(text);
        }
        Ok(())
    }

    /// The path entries in table order, and the full path of each (when its parent chain
    /// resolves) for [`path`](Self::path) to find.
    fn paths_from(&mut self, view: &AssetsView<'_>) -> Result<()> {
        let paths = view.paths();
        self.paths.reserve_exact(paths.len());
        for entry in paths.iter() {
            let name = entry.name()?;
            self.paths
                .push((entry.self_id(), entry.parent_id(), name.to_owned()));
        }
        let index = PathIndex::build(paths)?;
        let mut full = String::new();
        for entry in paths.iter() {
            if let Ok(true) = index.full_path_at(paths, entry.index(), &mut full) {
                self.path_ids.entry(full.clone()).or_insert(entry.self_id());
            }
        }
        Ok(())
    }

    /// The resource-to-prototype entries, values as stored, in an order that puts each back in
    /// its slot: linear probing fills a run of occupied slots from its first slot on, so the
    /// entries are added slot by slot from the first slot after an empty one.
    fn prototypes_from(&mut self, view: &AssetsView<'_>) -> Result<()> {
        let mut entries = Vec::new();
        for entry in view.prototypes().iter() {
            let (key, at) = entry?;
            entries.push((at.slot, key, at.value));
        }
        // Slots come in order: the first position whose slot is not its index is empty.
        let empty = entries
            .iter()
            .enumerate()
            .find(|&(i, e)| e.0 != i)
            .map_or(entries.len(), |(i, _)| i);
        let first = entries.partition_point(|e| e.0 <= empty);
        entries.rotate_left(first);
        self.prototypes
            .extend(entries.into_iter().map(|(_, key, value)| (key, value)));
        Ok(())
    }

    /// Every database in table order: records decoded and encoded again, or the blob as stored
    /// when the reader keeps the database raw.
    fn databases_from(&mut self, view: &AssetsView<'_>) -> Result<()> {
        for database in view.databases().iter() {
            let database = database?;
            let (magic, schema_hash) = (database.magic(), database.schema_hash());
            let (Some(_), Some(item_size)) = (database.kind(), database.item_size()) else {
                self.unknown_database(magic, schema_hash, database.blob().to_vec());
                continue;
            };
            let index = self.blobs.len();
            self.blobs.push(Blob::new(magic, schema_hash, item_size));
            // The layout's checks bound the record count by the blob.
            for i in 0..database.record_count() {
                let record = database.prototype(i, view.strings())?;
                let at = database.record_offset(i).unwrap_or(database.blob_offset());
                self.encode_record(view, index, record)
                    .map_err(|e| at_record(e, at))?;
                // Records may share arrays in a file; written out one by one they must still fit
                // in what a file of this size can hold (no output many times the input).
                let written = self
                    .blobs
                    .get(index)
                    .map_or(0, |b| b.records.len().saturating_add(b.ool.len()));
                within_file(view, written, at, "Database.records")?;
            }
        }
        Ok(())
    }

    /// Encodes a record the reader read into database `database`, from its [`PrototypeFields`].
    fn encode_record(
        &mut self,
        view: &AssetsView<'_>,
        database: usize,
        record: Prototype<'_>,
    ) -> Result<usize> {
        let read = PrototypeFields::read(view, record)?;
        self.encode_fields(database, read)
    }

    /// Maps `self_id` to record `index` of database `database`.
    fn map(&mut self, self_id: u64, database: usize, index: usize) -> Result<&mut Self> {
        let value = PrototypeRef::live_value(database, index).ok_or_else(|| {
            Error::invalid(
                0,
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

    /// The position of the (decoded) database of `kind`.
    fn database_of(&self, kind: PrototypeType) -> Result<usize> {
        self.blobs
            .iter()
            .position(|b| b.magic == kind.magic() && b.raw.is_none())
            .ok_or_else(|| Error::invalid(0, "databases", u64::from(kind.magic()), "no database"))
    }

    /// Encodes `record` into its type's database; returns the database's position and the
    /// record's index there.
    fn encode(&mut self, record: PrototypeFields) -> Result<(usize, usize)> {
        let kind = record.kind().ok_or_else(raw_refused)?;
        let database = self.database_of(kind)?;
        Ok((database, self.encode_fields(database, record)?))
    }

    /// Encodes a record's fields into database `database` and keeps them there; returns the
    /// record's index.
    fn encode_fields(&mut self, database: usize, record: PrototypeFields) -> Result<usize> {
        // Name ids first (they borrow self mutably for the strings map).
        for n in names(&record) {
            self.string(n);
        }
        let Some(b) = self.blobs.get_mut(database) else {
            return Err(invalid("databases", u64_of(database), "no database"));
        };
        let index = b.count;
        match &record {
            PrototypeFields::Visual(v) => encode_visual(b, v)?,
            PrototypeFields::Material(m) => encode_material(b, m)?,
            PrototypeFields::Model(m) => encode_model(b, m)?,
            PrototypeFields::SkeletonExtender(s) => encode_skeleton_extender(b, s)?,
            PrototypeFields::PointLight(p) => encode_point_light(b, p)?,
            PrototypeFields::Effect(e) => encode_effect(b, e)?,
            PrototypeFields::VelocityField(v) => encode_velocity_field(b, v)?,
            PrototypeFields::EffectPreset(p) => encode_effect_preset(b, p)?,
            PrototypeFields::EffectMetadata(m) => encode_effect_metadata(b, m)?,
            PrototypeFields::AtlasContour(a) => encode_atlas_contour(b, a)?,
            PrototypeFields::Raw(_) => return Err(raw_refused()),
        }
        b.fields.push(record);
        Ok(index)
    }

    /// The file's bytes.
    pub fn to_bytes(&self) -> Result<Vec<u8>> {
        let strings_cap = self
            .strings_capacity
            .unwrap_or_else(|| capacity_for(self.string_order.len()));
        let mut string_buckets: Vec<StringBucket> = zeroed(strings_cap, "offsetsMap.capacity")?;
        let mut string_values: Vec<U32> = zeroed(strings_cap, "offsetsMap.capacity")?;
        for (n, &id) in self.string_order.iter().enumerate() {
            let slot = probe(strings_cap, u64::from(id), |s| {
                string_buckets
                    .get(s)
                    .is_some_and(|b| b.key.get() == 0 && b.word.get() == 0)
            })
            .ok_or_else(|| too_big("offsetsMap.capacity", strings_cap))?;
            // The word's low 31 bits hold the string's order; bit 31 marks the bucket used.
            let order: u32 = narrow(n, "offsetsMap.word")?;
            if order > 0x7FFF_FFFF {
                return Err(too_big("offsetsMap.word", n));
            }
            let offset = self.strings.get(&id).copied().unwrap_or(0);
            let (Some(bucket), Some(value)) =
                (string_buckets.get_mut(slot), string_values.get_mut(slot))
            else {
                return Err(too_big("offsetsMap.capacity", slot));
            };
            *bucket = StringBucket {
                key: U32::new(id),
                word: U32::new(0x8000_0000 | order),
            };
            *value = U32::new(narrow(offset, "offsetsMap.value")?);
        }

        let r2p_cap = self
            .r2p_capacity
            .unwrap_or_else(|| capacity_for(self.prototypes.len()));
        let mut r2p_buckets: Vec<PrototypeBucket> =
            zeroed(r2p_cap, "resourceToPrototypeMap.capacity")?;
        let mut r2p_values: Vec<U32> = zeroed(r2p_cap, "resourceToPrototypeMap.capacity")?;
        for &(id, value) in &self.prototypes {
            let slot = probe(r2p_cap, id, |s| {
                r2p_buckets
                    .get(s)
                    .is_some_and(|b| b.key.get() == 0 && b.word.get() == 0)
            })
            .ok_or_else(|| too_big("resourceToPrototypeMap.capacity", r2p_cap))?;
            let (Some(bucket), Some(stored)) =
                (r2p_buckets.get_mut(slot), r2p_values.get_mut(slot))
            else {
                return Err(too_big("resourceToPrototypeMap.capacity", slot));
            };
            *bucket = PrototypeBucket {
                key: U64::new(id),
                word: U64::new(1),
            };
            *stored = U32::new(value);
        }

        // Layout, in the seed's order: header, body header, strings map, string pool,
        // resource-to-prototype map, path entries, their names, database entries, blobs.
        let mut out = Sink::new();
        let header_slot = out.reserve::<Header>(1, "Header")?;
        let body = out.len();
        let body_slot = out.reserve::<BodyHeader>(1, "BodyHeader")?;
        let string_buckets_at = out.put(string_buckets.as_slice());
        let string_values_at = out.put(string_values.as_slice());
        let pool_at = out.put(self.pool.as_slice());
        let r2p_buckets_at = out.put(r2p_buckets.as_slice());
        let r2p_values_at = out.put(r2p_values.as_slice());
        let paths = out.reserve::<PathEntry>(self.paths.len(), "PathEntry")?;
        for (i, (self_id, parent_id, name)) in self.paths.iter().enumerate() {
            let name_at = out.put(name.as_bytes());
            out.put(&0u8);
            // `name_ptr` is relative to the packed name inside the entry, not to the entry.
            let name_base = paths.record(i)? + offset_of!(PathEntry, name_size);
            let entry = PathEntry {
                self_id: U64::new(*self_id),
                parent_id: U64::new(*parent_id),
                name_size: U32::new(narrow(name.len() + 1, "PathEntry.name.size")?),
                pad: U32::new(0),
                name_ptr: pointer(name_base, name_at, "PathEntry.name")?,
            };
            out.patch_record(&paths, i, &entry)?;
        }
        let databases = out.reserve::<DatabaseEntry>(self.blobs.len(), "DatabaseEntry")?;
        for (i, b) in self.blobs.iter().enumerate() {
            let blob = b.finish()?;
            let blob_at = out.put(blob.as_slice());
            let entry = DatabaseEntry {
                magic: U32::new(b.magic),
                schema_hash: U32::new(b.schema_hash),
                size: U32::new(narrow(blob.len(), "DatabaseEntry.size")?),
                pad: U32::new(0),
                data_ptr: pointer(databases.record(i)?, blob_at, "DatabaseEntry.data")?,
            };
            out.patch_record(&databases, i, &entry)?;
        }
        // The r2p and paths pointers are relative to their {count, ptr} pairs in the body header.
        let r2p = body + offset_of!(BodyHeader, r2p_capacity);
        let paths_base = body + offset_of!(BodyHeader, paths_count);
        let body_header = BodyHeader {
            strings_capacity: U32::new(narrow(strings_cap, "offsetsMap.capacity")?),
            pad0: U32::new(0),
            strings_buckets_ptr: pointer(body, string_buckets_at, "offsetsMap.buckets")?,
            strings_values_ptr: pointer(body, string_values_at, "offsetsMap.values")?,
            string_data_size: U32::new(narrow(self.pool.len(), "stringData.size")?),
            pad1: U32::new(0),
            string_data_ptr: pointer(body, pool_at, "stringData")?,
            r2p_capacity: U32::new(narrow(r2p_cap, "resourceToPrototypeMap.capacity")?),
            pad2: U32::new(0),
            r2p_buckets_ptr: pointer(r2p, r2p_buckets_at, "resourceToPrototypeMap.buckets")?,
            r2p_values_ptr: pointer(r2p, r2p_values_at, "resourceToPrototypeMap.values")?,
            paths_count: U32::new(narrow(self.paths.len(), "pathsStorage.count")?),
            pad3: U32::new(0),
            paths_ptr: pointer(paths_base, paths.at(), "pathsStorage.data")?,
            databases_count: U32::new(narrow(self.blobs.len(), "databasesCount")?),
            pad4: U32::new(0),
            databases_ptr: pointer(body, databases.at(), "databases")?,
        };
        out.patch_record(&body_slot, 0, &body_header)?;
        let checked = out.as_slice().get(body..).unwrap_or_default();
        let checksum = match self.checksum {
            ChecksumKind::Murmur3 => murmur3_32(checked, 0),
            ChecksumKind::Crc32 => crc32fast::hash(checked),
            ChecksumKind::Fixed(v) => v,
        };
        let header = Header {
            magic: U32::new(MAGIC),
            version: U32::new(VERSION),
            checksum: U32::new(checksum),
            architecture: U16::new(ARCHITECTURE),
            endianness: U16::new(0),
        };
        out.patch_record(&header_slot, 0, &header)?;
        Ok(out.into_bytes())
    }
}

/// Refuses `written` bytes made from a view (parts it shares, written out one by one) that are
/// more than the whole file: `what`, at `at`, would make an output many times its input.
fn within_file(view: &AssetsView<'_>, written: usize, at: usize, what: &'static str) -> Result<()> {
    if written > view.as_bytes().len() {
        return Err(Error::invalid(
            u64_of(at),
            what,
            u64_of(written),
            "written out one by one (parts the file shares copied), larger than the file",
        ));
    }
    Ok(())
}

/// A writer's error (reported at offset 0) placed at the record it was encoding.
fn at_record(e: Error, at: usize) -> Error {
    if e.offset() == 0 {
        Error::new(u64_of(at), e.what(), e.kind())
    } else {
        e
    }
}

/// A record the reader kept raw: it carries no fields to encode.
fn raw_refused() -> Error {
    invalid(
        "PrototypeFields",
        0,
        "a record kept raw is not writable as fields",
    )
}

fn too_big(what: &'static str, n: usize) -> Error {
    invalid(what, u64_of(n), "does not fit the table")
}

/// `count` zeroed table entries, or an error naming the table when they cannot be allocated.
fn zeroed<T: FromZeros>(count: usize, what: &'static str) -> Result<Vec<T>> {
    let mut table = Vec::new();
    table
        .try_reserve_exact(count)
        .map_err(|_| too_big(what, count))?;
    table.extend((0..count).map(|_| T::new_zeroed()));
    Ok(table)
}

/// The first free slot for `key` by linear probing, or `None` when the table is full.
fn probe(capacity: usize, key: u64, free: impl Fn(usize) -> bool) -> Option<usize> {
    let mut slot = usize::try_from(key.checked_rem(u64_of(capacity))?).ok()?;
    for _ in 0..capacity {
        if free(slot) {
            return Some(slot);
        }
        slot = (slot + 1) % capacity;
    }
    None
}

/// Every string `record` names, in the order they are added to the strings map (a name the
/// reader found missing, `None`, is refused when the record is encoded).
fn names<'r>(record: &'r PrototypeFields) -> Vec<&'r str> {
    let mut names: Vec<&'r str> = Vec::new();
    let mut add = |list: &'r [Name]| names.extend(list.iter().filter_map(|n| n.as_deref()));
    match record {
        PrototypeFields::Visual(v) => {
            for n in &v.nodes {
                add(core::slice::from_ref(&n.name));
            }
            for s in &v.render_sets {
                add(core::slice::from_ref(&s.name));
                add(core::slice::from_ref(&s.material));
                add(&s.nodes);
            }
            for l in &v.lods {
                add(&l.render_sets);
            }
        }
        PrototypeFields::Material(m) => {
            for p in &m.properties {
                add(core::slice::from_ref(&p.name));
            }
        }
        PrototypeFields::Model(m) => {
            for d in &m.dyes {
                add(&d.tints);
            }
        }
        PrototypeFields::SkeletonExtender(s) => {
            for (name, parent) in s.names.iter().zip(&s.parents) {
                add(core::slice::from_ref(name));
                add(core::slice::from_ref(parent));
            }
        }
        PrototypeFields::PointLight(_)
        | PrototypeFields::Effect(_)
        | PrototypeFields::VelocityField(_)
        | PrototypeFields::EffectPreset(_)
        | PrototypeFields::EffectMetadata(_)
        | PrototypeFields::AtlasContour(_)
        | PrototypeFields::Raw(_) => {}
    }
    names
}

/// The name id of a name the reader resolved; `None` (an id the strings map lacked) cannot be
/// written back.
fn named(name: &Name, what: &'static str) -> Result<u32> {
    name.as_deref().map(name_id).ok_or_else(|| {
        invalid(
            what,
            0,
            "a name missing from the strings map cannot be written",
        )
    })
}

fn named_ids(names: &[Name], what: &'static str) -> Result<Vec<U32>> {
    names.iter().map(|n| named(n, what).map(U32::new)).collect()
}

/// A VisualPrototype: the record, its node arrays, then its render sets and LODs.
fn encode_visual(b: &mut Blob, v: &VisualFields) -> Result<()> {
    let VisualFields {
        merged_geometry_path_id,
        underwater,
        abovewater,
        bounding_box: BoundsFields { min, max },
        nodes,
        render_sets,
        lods,
    } = v;
    let r = b.push_record(
        &VisualPrototype {
            nodes_count: U32::new(narrow(nodes.len(), "VisualPrototype.nodesCount")?),
            pad0: U32::new(0),
            name_map_name_ids_ptr: I64::new(0),
            name_map_node_ids_ptr: I64::new(0),
            name_ids_ptr: I64::new(0),
            matrices_ptr: I64::new(0),
            parent_ids_ptr: I64::new(0),
            merged_geometry_path_id: U64::new(*merged_geometry_path_id),
            underwater: u8::from(*underwater),
            abovewater: u8::from(*abovewater),
            render_sets_count: U16::new(narrow(
                render_sets.len(),
                "VisualPrototype.renderSetsCount",
            )?),
            lods_count: narrow(lods.len(), "VisualPrototype.lodsCount")?,
            pad1: [0; 3],
            bbox_min: floats(*min),
            pad2: U32::new(0),
            bbox_max: floats(*max),
            pad3: U32::new(0),
            render_sets_ptr: I64::new(0),
            lods_ptr: I64::new(0),
        },
        "VisualPrototype",
    )?;
    let name_ids: Vec<U32> = nodes
        .iter()
        .map(|n| named(&n.name, "VisualPrototype.nameIds").map(U32::new))
        .collect::<Result<_>>()?;
    // The name map, sorted by name id for the reader's binary search.
    let mut map = Vec::with_capacity(nodes.len());
    for (i, id) in name_ids.iter().enumerate() {
        let node_id: u16 = narrow(i, "VisualPrototype.nameMapNodeIds")?;
        map.push((id.get(), node_id));
    }
    map.sort_unstable();
    let field = offset_of!(VisualPrototype, name_map_name_ids_ptr);
    b.record_array(r, field, &ids(map.iter().map(|m| m.0)))?;
    let node_ids: Vec<U16> = map.iter().map(|m| U16::new(m.1)).collect();
    b.record_array(
        r,
        offset_of!(VisualPrototype, name_map_node_ids_ptr),
        &node_ids,
    )?;
    b.record_array(r, offset_of!(VisualPrototype, name_ids_ptr), &name_ids)?;
    let matrices: Vec<Matrix> = nodes.iter().map(|n| floats(n.matrix)).collect();
    b.record_array(r, offset_of!(VisualPrototype, matrices_ptr), &matrices)?;
    let parents: Vec<U16> = nodes
        .iter()
        .map(|n| U16::new(n.parent.unwrap_or(NO_PARENT)))
        .collect();
    b.record_array(r, offset_of!(VisualPrototype, parent_ids_ptr), &parents)?;
    let field = offset_of!(VisualPrototype, render_sets_ptr);
    b.record_table(r, field, render_sets, "RenderSet", |b, at, set| {
        let RenderSetFields {
            name,
            material,
            vertices_mapping_id,
            indices_mapping_id,
            material_mfm_path_id,
            skinned,
            nodes,
        } = set;
        let node_names = named_ids(nodes, "RenderSet.nodeNameIds")?;
        Ok(RenderSet {
            name_id: U32::new(named(name, "RenderSet.nameId")?),
            material_name_id: U32::new(named(material, "RenderSet.materialNameId")?),
            vertices_mapping_id: U32::new(*vertices_mapping_id),
            indices_mapping_id: U32::new(*indices_mapping_id),
            material_mfm_path_id: U64::new(*material_mfm_path_id),
            skinned: u8::from(*skinned),
            nodes_count: narrow(nodes.len(), "RenderSet.nodesCount")?,
            pad: [0; 6],
            node_name_ids_ptr: b.ool_array(at, &node_names, "RenderSet.nodeNameIdsPtr")?,
        })
    })?;
    let field = offset_of!(VisualPrototype, lods_ptr);
    b.record_table(r, field, lods, "Lod", |b, at, lod| {
        let LodFields {
            extent,
            casts_shadow,
            render_sets,
        } = lod;
        let names = named_ids(render_sets, "Lod.renderSetNames")?;
        Ok(Lod {
            extent: F32::new(*extent),
            casts_shadow: u8::from(*casts_shadow),
            pad: 0,
            render_set_names_count: U16::new(narrow(render_sets.len(), "Lod.renderSetNamesCount")?),
            render_set_names_ptr: b.ool_array(at, &names, "Lod.renderSetNamesPtr")?,
        })
    })
}

/// A MaterialPrototype: properties sorted into the nine typed arrays.
fn encode_material(b: &mut Blob, m: &MaterialFields) -> Result<()> {
    let MaterialFields {
        properties,
        fx_path_id,
        collision_flags,
        sort_order,
    } = m;
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
        let (Some(count), Some(array)) = (counts.get_mut(slot), arrays.get_mut(slot)) else {
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
        &MaterialPrototype {
            property_count: U16::new(narrow(properties.len(), "MaterialPrototype.propertyCount")?),
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
        offset_of!(MaterialPrototype, property_name_ids_ptr),
        &names,
    )?;
    b.record_array(
        r,
        offset_of!(MaterialPrototype, property_ids_ptr),
        &prop_ids,
    )?;
    let values_ptrs = offset_of!(MaterialPrototype, values_ptrs);
    for (k, array) in arrays.iter().enumerate() {
        b.record_array(r, values_ptrs + k * size_of::<I64>(), array)?;
    }
    Ok(())
}

/// A ModelPrototype in the database's layout (0x28, or the older 0x20 without skeleton
/// extenders: fields in the other layout, or skeleton extenders for the older one, are refused).
fn encode_model(b: &mut Blob, m: &ModelFields) -> Result<()> {
    let ModelFields {
        layout,
        visual_resource_id,
        misc_type,
        skeleton_extenders,
        animations,
        dyes,
    } = m;
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
            &ModelPrototypeV1 {
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
            offset_of!(ModelPrototypeV1, animations_ptr),
            offset_of!(ModelPrototypeV1, dyes_ptr),
        )
    } else {
        let r = b.push_record(
            &ModelPrototype {
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
            offset_of!(ModelPrototype, skeleton_extender_ids_ptr),
            &extenders,
        )?;
        (
            r,
            offset_of!(ModelPrototype, animations_ptr),
            offset_of!(ModelPrototype, dyes_ptr),
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
        Ok(Dye {
            matter_id: U32::new(*matter_id),
            replaces_id: U32::new(*replaces_id),
            tints_count: U32::new(narrow(tints.len(), "Dye.tintsCount")?),
            pad: U32::new(0),
            tint_name_ids_ptr: b.ool_array(at, &names, "Dye.tintNameIdsPtr")?,
            tint_material_ids_ptr: b.ool_array(at, &materials, "Dye.tintMaterialIdsPtr")?,
        })
    })
}

/// A SkeletonExtenderPrototype: the record, then its names, parents' names and matrices.
fn encode_skeleton_extender(b: &mut Blob, s: &SkeletonExtenderFields) -> Result<()> {
    let SkeletonExtenderFields {
        flag,
        names,
        parents,
        matrices,
    } = s;
    if parents.len() != names.len() || matrices.len() != names.len() {
        return Err(invalid(
            "SkeletonExtenderPrototype.nodeCount",
            u64_of(names.len()),
            "names, parents and matrices differ in number",
        ));
    }
    let r = b.push_record(
        &SkeletonExtenderPrototype {
            flag: U16::new(*flag),
            node_count: U16::new(narrow(names.len(), "SkeletonExtenderPrototype.nodeCount")?),
            pad: U32::new(0),
            name_ids_ptr: I64::new(0),
            parent_name_ids_ptr: I64::new(0),
            matrices_ptr: I64::new(0),
        },
        "SkeletonExtenderPrototype",
    )?;
    let names = named_ids(names, "SkeletonExtenderPrototype.nameIds")?;
    let field = offset_of!(SkeletonExtenderPrototype, name_ids_ptr);
    b.record_array(r, field, &names)?;
    let parents = named_ids(parents, "SkeletonExtenderPrototype.parentNameIds")?;
    let field = offset_of!(SkeletonExtenderPrototype, parent_name_ids_ptr);
    b.record_array(r, field, &parents)?;
    let matrices: Vec<Matrix> = matrices.iter().map(|m| floats(*m)).collect();
    let field = offset_of!(SkeletonExtenderPrototype, matrices_ptr);
    b.record_array(r, field, &matrices)?;
    Ok(())
}

/// A PointLightPrototype: the record, then the colour and radius keyframes.
fn encode_point_light(b: &mut Blob, p: &PointLightFields) -> Result<()> {
    let PointLightFields {
        color,
        local_position,
        radius,
        min_quality,
        animated_color,
        animated_radius,
        color_animation,
        radius_animation,
    } = p;
    fn animation<T>(a: &AnimationFields<T>) -> Result<Animation> {
        let AnimationFields {
            period,
            repeated,
            points,
        } = a;
        Ok(Animation {
            period: F32::new(*period),
            repeated: u8::from(*repeated),
            pad0: [0; 11],
            points_count: I32::new(narrow(points.len(), "Animation.pointsCount")?),
            pad1: U32::new(0),
            points_ptr: I64::new(0),
        })
    }
    let r = b.push_record(
        &PointLightPrototype {
            color_animation: animation(color_animation)?,
            radius_animation: animation(radius_animation)?,
            color: floats(*color),
            local_position: floats(*local_position),
            pad0: U32::new(0),
            radius: F32::new(*radius),
            min_quality: U32::new(*min_quality),
            animated_color: u8::from(*animated_color),
            animated_radius: u8::from(*animated_radius),
            pad1: [0; 6],
        },
        "PointLightPrototype",
    )?;
    let color_points: Vec<ColorPoint> = color_animation
        .points
        .iter()
        .map(|&KeyFields { time, value }| ColorPoint {
            time: F32::new(time),
            value: floats(value),
        })
        .collect();
    let radius_points: Vec<ScalarPoint> = radius_animation
        .points
        .iter()
        .map(|&KeyFields { time, value }| ScalarPoint {
            time: F32::new(time),
            value: F32::new(value),
        })
        .collect();
    // `points_ptr` is relative to the inner {count, ptr} struct, not to the animation.
    let (base, field) = (
        offset_of!(Animation, points_count),
        offset_of!(Animation, points_ptr),
    );
    let color = offset_of!(PointLightPrototype, color_animation);
    if !color_points.is_empty() {
        let t = b.array(&color_points)?;
        b.fixups.push((r + color + field, r + color + base, t));
    }
    let radius = offset_of!(PointLightPrototype, radius_animation);
    if !radius_points.is_empty() {
        let t = b.array(&radius_points)?;
        b.fixups.push((r + radius + field, r + radius + base, t));
    }
    Ok(())
}

/// An EffectPrototype: the record, then its systems at their fixed size.
fn encode_effect(b: &mut Blob, e: &EffectFields) -> Result<()> {
    let EffectFields {
        max_emitting_duration,
        systems,
    } = e;
    let r = b.push_record(
        &EffectPrototype {
            max_emitting_duration: F32::new(*max_emitting_duration),
            systems_count: U32::new(narrow(systems.len(), "EffectPrototype.systemsCount")?),
            systems_ptr: I64::new(0),
        },
        "EffectPrototype",
    )?;
    let mut bytes = Vec::new();
    for s in systems {
        // A system is kept raw at its fixed size: shorter ones are zero-padded, a longer one
        // cannot be stored.
        if s.len() > EFFECT_SYSTEM_SIZE {
            return Err(invalid(
                "EffectPrototype.systems",
                u64_of(s.len()),
                "a system is longer than 0x1C8 bytes",
            ));
        }
        bytes.extend_from_slice(s);
        bytes.resize(bytes.len() + EFFECT_SYSTEM_SIZE - s.len(), 0);
    }
    b.record_array(r, offset_of!(EffectPrototype, systems_ptr), &bytes)
}

/// A VelocityFieldPrototype: the record, then its velocities.
fn encode_velocity_field(b: &mut Blob, v: &VelocityFieldFields) -> Result<()> {
    let VelocityFieldFields {
        dimensions,
        velocities,
    } = v;
    let r = b.push_record(
        &VelocityFieldPrototype {
            dimensions: dimensions.map(U32::new),
            velocities_count: U32::new(narrow(
                velocities.len(),
                "VelocityFieldPrototype.velocitiesCount",
            )?),
            velocities_ptr: I64::new(0),
        },
        "VelocityFieldPrototype",
    )?;
    let data: Vec<U16> = velocities.iter().map(|&x| U16::new(x)).collect();
    b.record_array(r, offset_of!(VelocityFieldPrototype, velocities_ptr), &data)
}

/// An EffectPresetPrototype: two ids, nothing out of line.
fn encode_effect_preset(b: &mut Blob, p: &EffectPresetFields) -> Result<()> {
    let EffectPresetFields { high_id, low_id } = *p;
    b.push_record(
        &EffectPresetPrototype {
            high_id: U64::new(high_id),
            low_id: U64::new(low_id),
        },
        "EffectPresetPrototype",
    )?;
    Ok(())
}

/// An EffectMetadataPrototype: the record, its channel table, then each channel's name.
fn encode_effect_metadata(b: &mut Blob, m: &EffectMetadataFields) -> Result<()> {
    let EffectMetadataFields { channels } = m;
    let r = b.push_record(
        &EffectMetadataPrototype {
            count: U64::new(u64_of(channels.len())),
            channels_ptr: I64::new(0),
        },
        "EffectMetadataPrototype",
    )?;
    let field = offset_of!(EffectMetadataPrototype, channels_ptr);
    b.record_table(r, field, channels, "Channel", |b, at, channel| {
        let ChannelFields {
            name,
            min,
            max,
            default,
            kind,
        } = channel;
        let mut name = name.as_bytes().to_vec();
        name.push(0);
        Ok(Channel {
            name_len: U32::new(narrow(name.len(), "Channel.nameLen")?),
            pad: U32::new(0),
            name_ptr: b.ool_array(at, &name, "Channel.namePtr")?,
            min: F32::new(*min),
            max: F32::new(*max),
            default: F32::new(*default),
            kind: U32::new(*kind),
        })
    })
}

/// An AtlasContourProto: the record, its contour table, then each frame's points.
fn encode_atlas_contour(b: &mut Blob, a: &AtlasContourFields) -> Result<()> {
    let AtlasContourFields { frames } = a;
    let r = b.push_record(
        &AtlasContourProto {
            frame_count: I32::new(narrow(frames.len(), "AtlasContourProto.frameCount")?),
            pad: U32::new(0),
            contours_ptr: I64::new(0),
        },
        "AtlasContourProto",
    )?;
    let field = offset_of!(AtlasContourProto, contours_ptr);
    b.record_table(r, field, frames, "Contour", |b, at, frame| {
        let points: Vec<Point> = frame
            .iter()
            .map(|&[x, y]| Point {
                x: F32::new(x),
                y: F32::new(y),
            })
            .collect();
        Ok(Contour {
            count: I32::new(narrow(frame.len(), "Contour.count")?),
            pad: U32::new(0),
            points_ptr: b.ool_array(at, &points, "Contour.pointsPtr")?,
        })
    })
}

/// A visual like the independent sample's: two nodes, one render set, one LOD.
pub fn example_visual(geometry_id: u64, mfm_id: u64) -> VisualFields {
    VisualFields {
        nodes: vec![
            NodeFields {
                name: Some("Scene Root".into()),
                matrix: translation([0.0; 3]),
                parent: None,
            },
            NodeFields {
                name: Some("HP_Test".into()),
                matrix: translation([1.5, 2.5, 3.5]),
                parent: Some(0),
            },
        ],
        merged_geometry_path_id: geometry_id,
        underwater: false,
        abovewater: true,
        bounding_box: BoundsFields {
            min: [-1.0, -2.0, -3.0],
            max: [1.0, 2.0, 3.0],
        },
        render_sets: vec![RenderSetFields {
            name: Some("rs_hull".into()),
            material: Some("mat_hull".into()),
            vertices_mapping_id: murmur3_32(b"Hull.vertices", 0),
            indices_mapping_id: murmur3_32(b"Hull.indices", 0),
            material_mfm_path_id: mfm_id,
            skinned: false,
            nodes: vec![Some("Scene Root".into())],
        }],
        lods: vec![LodFields {
            extent: 500.0,
            casts_shadow: true,
            render_sets: vec![Some("rs_hull".into())],
        }],
    }
}

/// One record of each of the ten types, with every array non-empty, mapped from CityHash64 path
/// ids under `content/gameplay/` (the visual at `content/gameplay/Test.visual`).
pub fn all_prototypes() -> Result<AssetsBuilder> {
    let mut b = AssetsBuilder::new();
    let dir = "content/gameplay";
    let geometry = b.path(&format!("{dir}/Test.geometry"))?;
    let mfm = b.path(&format!("{dir}/Test.mfm"))?;
    let visual = b.path(&format!("{dir}/Test.visual"))?;
    let model = b.path(&format!("{dir}/Test.model"))?;
    let skeleton = b.path(&format!("{dir}/Test.skel"))?;
    b.prototype(
        mfm,
        MaterialFields {
            properties: vec![
                PropertyFields::new("diffuseMap", PropertyValue::Texture(0xDEAD_BEEF_CAFE_F00D)),
                PropertyFields::new("alphaTest", PropertyValue::Bool(true)),
                PropertyFields::new("layer", PropertyValue::Int(-3)),
                PropertyFields::new("flags", PropertyValue::Uint(7)),
                PropertyFields::new("gloss", PropertyValue::Float(0.25)),
                PropertyFields::new("normalMap", PropertyValue::Texture(0x1234)),
                PropertyFields::new("uvScale", PropertyValue::Vec2([2.0, 3.0])),
                PropertyFields::new("tint", PropertyValue::Vec3([0.5, 0.6, 0.7])),
                PropertyFields::new("color", PropertyValue::Vec4([1.0, 0.0, 0.0, 1.0])),
                PropertyFields::new(
                    "uvTransform",
                    PropertyValue::Mat4(translation([4.0, 5.0, 6.0])),
                ),
            ],
            fx_path_id: 0xF0F0,
            collision_flags: 0x11,
            sort_order: -2,
        },
    )?;
    b.prototype(visual, example_visual(geometry, mfm))?;
    b.prototype(
        skeleton,
        SkeletonExtenderFields {
            flag: 1,
            names: vec![Some("HP_Gun".into()), Some("HP_Mast".into())],
            parents: vec![Some("Scene Root".into()), Some("HP_Gun".into())],
            matrices: vec![translation([0.0, 1.0, 0.0]), translation([0.0, 2.0, 0.0])],
        },
    )?;
    b.prototype(
        model,
        ModelFields {
            layout: MODEL_LAYOUT,
            visual_resource_id: visual,
            misc_type: 2,
            skeleton_extenders: vec![skeleton],
            animations: vec![0xA1, 0xA2],
            dyes: vec![DyeFields {
                matter_id: 11,
                replaces_id: 12,
                tints: vec![Some("tint_red".into()), Some("tint_blue".into())],
                tint_materials: vec![0xB1, 0xB2],
            }],
        },
    )?;
    let light = b.path("content/lights/lamp.light")?;
    b.prototype(
        light,
        PointLightFields {
            color_animation: animation(
                2.0,
                true,
                &[(0.0, [1.0, 0.5, 0.25, 1.0]), (1.0, [0.0, 0.0, 1.0, 1.0])],
            ),
            radius_animation: animation(4.0, false, &[(0.0, 3.0), (0.5, 6.0), (1.0, 3.0)]),
            color: [1.0, 0.9, 0.8, 1.0],
            local_position: [1.0, 2.0, 3.0],
            radius: 5.0,
            min_quality: 2,
            animated_color: true,
            animated_radius: true,
        },
    )?;
    let effect = b.path("content/effects/fire.effect")?;
    // A system's first and last bytes marked.
    let mut system = vec![0u8; EFFECT_SYSTEM_SIZE];
    if let Some((first, rest)) = system.split_first_mut() {
        *first = 0xE5;
        if let Some(last) = rest.last_mut() {
            *last = 0x5E;
        }
    }
    b.prototype(
        effect,
        EffectFields {
            max_emitting_duration: 1.5,
            systems: vec![system.clone(), system],
        },
    )?;
    let field = b.path("content/effects/wind.vfield")?;
    b.prototype(
        field,
        VelocityFieldFields {
            dimensions: [2, 2, 1],
            velocities: vec![1, 2, 3, 4],
        },
    )?;
    let preset = b.path("content/effects/fire.preset")?;
    b.prototype(
        preset,
        EffectPresetFields {
            high_id: 0x1111_2222,
            low_id: 0x3333_4444,
        },
    )?;
    let metadata = b.path("content/effects/fire.meta")?;
    b.prototype(
        metadata,
        EffectMetadataFields {
            channels: vec![
                ChannelFields {
                    name: "intensity".into(),
                    min: 0.0,
                    max: 2.0,
                    default: 1.0,
                    kind: 1,
                },
                ChannelFields {
                    name: "size".into(),
                    min: 0.5,
                    max: 4.0,
                    default: 1.0,
                    kind: 2,
                },
            ],
        },
    )?;
    let atlas = b.path("content/gui/atlas.contour")?;
    b.prototype(
        atlas,
        AtlasContourFields {
            frames: vec![
                vec![[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]],
                vec![[0.5, 0.5], [0.75, 0.5]],
            ],
        },
    )?;
    Ok(b)
}

/// Older layouts and odd states: models in the 0x20 layout, a visual database with its known
/// schema hash, a deleted entry, a database of unknown magic, explicit (non-hash) path ids and a
/// CRC32 checksum.
pub fn legacy_layouts() -> Result<AssetsBuilder> {
    let mut b = AssetsBuilder::new();
    b.checksum(ChecksumKind::Crc32)
        .model_layout_v1()
        .schema_hash(PrototypeType::Visual, 0x3167_064B);
    b.path_entry(0x10, 0, "content")
        .path_entry(0x20, 0x10, "ships")
        .path_entry(0x30, 0x20, "Old.model")
        .path_entry(0x40, 0x20, "Old.visual")
        .path_entry(0x50, 0x20, "Gone.model");
    b.prototype(0x40, example_visual(0, 0))?;
    b.prototype(
        0x30,
        ModelFields {
            layout: MODEL_LAYOUT_V1,
            visual_resource_id: 0x40,
            misc_type: 1,
            skeleton_extenders: Vec::new(),
            animations: vec![0xC1],
            dyes: vec![DyeFields {
                matter_id: 1,
                replaces_id: 2,
                tints: vec![Some("tint_old".into())],
                tint_materials: vec![0xD1],
            }],
        },
    )?;
    b.deleted(0x50);
    // One record of 8 bytes the reader cannot decode, after the blob header.
    let mut blob = BlobHeader {
        record_count: U64::new(1),
        header_size: U64::new(u64_of(size_of::<BlobHeader>())),
    }
    .as_bytes()
    .to_vec();
    blob.extend([0xAB; 8]);
    b.unknown_database(murmur3_32(b"FuturePrototype", 0), 0x1234_5678, blob);
    Ok(b)
}

/// The committed fixtures (`fixtures/wows-assets/`).
pub fn fixtures() -> Result<Vec<(&'static str, Vec<u8>)>> {
    Ok(vec![
        ("all_prototypes.assets.bin", all_prototypes()?.to_bytes()?),
        ("legacy_layouts.assets.bin", legacy_layouts()?.to_bytes()?),
    ])
}

/// A small valid file (the `all_prototypes` fixture), for examples and doc tests.
pub fn example_file() -> Vec<u8> {
    all_prototypes()
        .and_then(|b| b.to_bytes())
        .unwrap_or_default()
}

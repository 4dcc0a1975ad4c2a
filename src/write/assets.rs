//! An `assets.bin` writer: strings and resource-to-prototype maps with linear probing, the path
//! tree with CityHash64 ids, and prototype databases whose records are encoded from typed specs
//! (all ten types), laid out the way the seed describes the game's file. Either checksum flavour.
//!
//! ```
//! use gamebin::write::assets::{AssetsBuilder, RecordSpec, EffectPresetSpec};
//! use gamebin::wows::assets::{AssetsDb, Prototype};
//!
//! let mut builder = AssetsBuilder::new();
//! let id = builder.path("content/effects/smoke.fxpreset").unwrap();
//! builder
//!     .prototype(id, RecordSpec::EffectPreset(EffectPresetSpec { high_id: 1, low_id: 2 }))
//!     .unwrap();
//! let bytes = builder.to_bytes().unwrap();
//!
//! let db = AssetsDb::from_bytes(&bytes).unwrap();
//! let at = db.lookup_path("content/effects/smoke.fxpreset").unwrap().unwrap();
//! assert!(matches!(db.record(at).unwrap(), Prototype::EffectPreset(p) if p.low_id() == 2));
//! ```

use std::collections::HashMap;

use crate::bytes::u64_of;
use crate::error::{Error, Result};
use crate::hash::{city_hash_64, murmur3_32};
use crate::wows::assets::{ARCHITECTURE, MAGIC, PrototypeType, VERSION};

/// Which checksum the header stores.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChecksumKind {
    /// MurmurHash3_x86_32 (seed 0) of the body.
    Murmur3,
    /// CRC32 of the body.
    Crc32,
    /// A fixed value (to test a checksum that matches neither).
    Fixed(u32),
}

/// One node of a visual.
#[derive(Debug, Clone, PartialEq)]
pub struct NodeSpec {
    pub name: String,
    /// Column-major 4×4.
    pub matrix: [f32; 16],
    pub parent: Option<u16>,
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

/// A visual's render set.
#[derive(Debug, Clone, PartialEq)]
pub struct RenderSetSpec {
    pub name: String,
    pub material_name: String,
    pub vertices_mapping_id: u32,
    pub indices_mapping_id: u32,
    pub material_mfm_path_id: u64,
    pub skinned: bool,
    pub node_names: Vec<String>,
}

/// A visual's level of detail.
#[derive(Debug, Clone, PartialEq)]
pub struct LodSpec {
    pub extent: f32,
    pub casts_shadow: bool,
    pub render_set_names: Vec<String>,
}

/// A VisualPrototype.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct VisualSpec {
    pub nodes: Vec<NodeSpec>,
    pub merged_geometry_path_id: u64,
    pub underwater: bool,
    pub abovewater: bool,
    pub bbox: ([f32; 3], [f32; 3]),
    pub render_sets: Vec<RenderSetSpec>,
    pub lods: Vec<LodSpec>,
}

/// A material property value.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum ValueSpec {
    Bool(bool),
    Int(i32),
    Uint(u32),
    Float(f32),
    Texture(u64),
    Vec2([f32; 2]),
    Vec3([f32; 3]),
    Vec4([f32; 4]),
    Mat4([f32; 16]),
}

impl ValueSpec {
    fn kind(&self) -> usize {
        match self {
            ValueSpec::Bool(_) => 0,
            ValueSpec::Int(_) => 1,
            ValueSpec::Uint(_) => 2,
            ValueSpec::Float(_) => 3,
            ValueSpec::Texture(_) => 4,
            ValueSpec::Vec2(_) => 5,
            ValueSpec::Vec3(_) => 6,
            ValueSpec::Vec4(_) => 7,
            ValueSpec::Mat4(_) => 8,
        }
    }

    fn encode(&self, out: &mut Vec<u8>) {
        match *self {
            ValueSpec::Bool(b) => out.push(u8::from(b)),
            ValueSpec::Int(v) => out.extend(v.to_le_bytes()),
            ValueSpec::Uint(v) => out.extend(v.to_le_bytes()),
            ValueSpec::Float(v) => out.extend(v.to_le_bytes()),
            ValueSpec::Texture(v) => out.extend(v.to_le_bytes()),
            ValueSpec::Vec2(v) => floats(out, &v),
            ValueSpec::Vec3(v) => floats(out, &v),
            ValueSpec::Vec4(v) => floats(out, &v),
            ValueSpec::Mat4(v) => floats(out, &v),
        }
    }
}

/// A MaterialPrototype.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct MaterialSpec {
    pub properties: Vec<(String, ValueSpec)>,
    pub fx_path_id: u64,
    pub collision_flags: u32,
    pub sort_order: i32,
}

/// A model's dye.
#[derive(Debug, Clone, PartialEq)]
pub struct DyeSpec {
    pub matter_id: u32,
    pub replaces_id: u32,
    /// (tint name, tint material selfId)
    pub tints: Vec<(String, u64)>,
}

/// A ModelPrototype (written in the database's layout: 0x28, or 0x20 when the database uses the
/// older layout, which has no skeleton extenders).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ModelSpec {
    pub visual_resource_id: u64,
    pub misc_type: u8,
    pub skeleton_extender_ids: Vec<u64>,
    pub animations: Vec<u64>,
    pub dyes: Vec<DyeSpec>,
}

/// A SkeletonExtenderPrototype: (name, parent name, matrix) per node.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct SkeletonExtenderSpec {
    pub flag: u16,
    pub nodes: Vec<(String, String, [f32; 16])>,
}

/// A PointLightPrototype.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct PointLightSpec {
    pub color_period: f32,
    pub color_repeated: bool,
    pub color_points: Vec<(f32, [f32; 4])>,
    pub radius_period: f32,
    pub radius_repeated: bool,
    pub radius_points: Vec<(f32, f32)>,
    pub color: [f32; 4],
    pub local_position: [f32; 3],
    pub radius: f32,
    pub min_quality: u32,
    pub animated_color: bool,
    pub animated_radius: bool,
}

/// A VelocityFieldPrototype.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct VelocityFieldSpec {
    pub dimensions: [u32; 3],
    pub velocities: Vec<u16>,
}

/// An EffectPrototype; each system is 0x1C8 raw bytes (shorter ones are zero-padded).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct EffectSpec {
    pub max_emitting_duration: f32,
    pub systems: Vec<Vec<u8>>,
}

/// An EffectPresetPrototype.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct EffectPresetSpec {
    pub high_id: u64,
    pub low_id: u64,
}

/// An effect metadata channel.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ChannelSpec {
    pub name: String,
    pub min: f32,
    pub max: f32,
    pub default: f32,
    pub kind: u32,
}

/// An EffectMetadataPrototype.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct EffectMetadataSpec {
    pub channels: Vec<ChannelSpec>,
}

/// An AtlasContourProto: per frame, a polygon.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct AtlasContourSpec {
    pub frames: Vec<Vec<[f32; 2]>>,
}

/// A record of any of the ten types.
#[derive(Debug, Clone, PartialEq)]
pub enum RecordSpec {
    Material(MaterialSpec),
    Visual(VisualSpec),
    SkeletonExtender(SkeletonExtenderSpec),
    Model(ModelSpec),
    PointLight(PointLightSpec),
    Effect(EffectSpec),
    VelocityField(VelocityFieldSpec),
    EffectPreset(EffectPresetSpec),
    EffectMetadata(EffectMetadataSpec),
    AtlasContour(AtlasContourSpec),
}

impl RecordSpec {
    /// The prototype type of the record.
    pub fn kind(&self) -> PrototypeType {
        match self {
            RecordSpec::Material(_) => PrototypeType::Material,
            RecordSpec::Visual(_) => PrototypeType::Visual,
            RecordSpec::SkeletonExtender(_) => PrototypeType::SkeletonExtender,
            RecordSpec::Model(_) => PrototypeType::Model,
            RecordSpec::PointLight(_) => PrototypeType::PointLight,
            RecordSpec::Effect(_) => PrototypeType::Effect,
            RecordSpec::VelocityField(_) => PrototypeType::VelocityField,
            RecordSpec::EffectPreset(_) => PrototypeType::EffectPreset,
            RecordSpec::EffectMetadata(_) => PrototypeType::EffectMetadata,
            RecordSpec::AtlasContour(_) => PrototypeType::AtlasContour,
        }
    }
}

fn floats(out: &mut Vec<u8>, values: &[f32]) {
    for v in values {
        out.extend(v.to_le_bytes());
    }
}

fn put(buf: &mut [u8], at: usize, bytes: &[u8]) {
    if let Some(dst) = buf.get_mut(at..at + bytes.len()) {
        dst.copy_from_slice(bytes);
    }
}

/// A database blob under construction: fixed-size records first, out-of-line arrays after them.
/// Pointers from records into the out-of-line area are patched once the record count is final.
#[derive(Debug, Clone)]
struct Blob {
    magic: u32,
    schema_hash: u32,
    item_size: usize,
    count: usize,
    records: Vec<u8>,
    ool: Vec<u8>,
    /// (record-area field position, record-area base, out-of-line target)
    fixups: Vec<(usize, usize, usize)>,
    /// Raw blob bytes for a database of unknown layout (written as is).
    raw: Option<Vec<u8>>,
}

impl Blob {
    fn new(magic: u32, schema_hash: u32, item_size: usize) -> Self {
        Blob {
            magic,
            schema_hash,
            item_size,
            count: 0,
            records: Vec::new(),
            ool: Vec::new(),
            fixups: Vec::new(),
            raw: None,
        }
    }

    /// Appends an array to the out-of-line area (8-aligned), returning its position there.
    fn array(&mut self, bytes: &[u8]) -> usize {
        self.ool.resize(self.ool.len().next_multiple_of(8), 0);
        let at = self.ool.len();
        self.ool.extend_from_slice(bytes);
        at
    }

    /// Points the record field at `rec + field` to out-of-line position `target` (null when the
    /// array is empty).
    fn record_ptr(&mut self, rec: usize, field: usize, target: Option<usize>) {
        if let Some(target) = target {
            self.fixups.push((rec + field, rec, target));
        }
    }

    /// Stores an out-of-line array and points the record field at it.
    fn record_array(&mut self, rec: usize, field: usize, bytes: &[u8]) {
        if !bytes.is_empty() {
            let t = self.array(bytes);
            self.record_ptr(rec, field, Some(t));
        }
    }

    /// Points the out-of-line struct field at `base + field` to out-of-line position `target`.
    fn ool_ptr(&mut self, base: usize, field: usize, target: usize) {
        let rel = target as i64 - base as i64;
        put(&mut self.ool, base + field, &rel.to_le_bytes());
    }

    /// Stores an array and points an out-of-line struct's field at it.
    fn ool_array(&mut self, base: usize, field: usize, bytes: &[u8]) {
        if !bytes.is_empty() {
            let t = self.array(bytes);
            self.ool_ptr(base, field, t);
        }
    }

    fn new_record(&mut self) -> usize {
        let at = self.records.len();
        self.records.resize(at + self.item_size, 0);
        self.count += 1;
        at
    }

    /// The finished blob: header, records (pointers patched), out-of-line data.
    fn finish(&self) -> Vec<u8> {
        if let Some(raw) = &self.raw {
            return raw.clone();
        }
        let mut out = Vec::with_capacity(16 + self.records.len() + self.ool.len() + 8);
        out.extend(u64_of(self.count).to_le_bytes());
        out.extend(16u64.to_le_bytes());
        out.extend_from_slice(&self.records);
        out.resize(out.len().next_multiple_of(8), 0);
        let ool_at = out.len() - 16;
        out.extend_from_slice(&self.ool);
        for &(field, base, target) in &self.fixups {
            let rel = (ool_at + target) as i64 - base as i64;
            put(&mut out, 16 + field, &rel.to_le_bytes());
        }
        out
    }
}

fn ids(ids: impl IntoIterator<Item = u32>) -> Vec<u8> {
    ids.into_iter().flat_map(u32::to_le_bytes).collect()
}

fn ids64(ids: impl IntoIterator<Item = u64>) -> Vec<u8> {
    ids.into_iter().flat_map(u64::to_le_bytes).collect()
}

fn name_id(name: &str) -> u32 {
    murmur3_32(name.as_bytes(), 0)
}

/// Builds an `assets.bin`.
#[derive(Debug, Clone)]
pub struct AssetsBuilder {
    pool: Vec<u8>,
    strings: HashMap<u32, u32>,
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
            b.item_size = 0x20;
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
            self.strings.insert(id, self.pool.len() as u32);
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

    /// Encodes `record` into its type's database and maps `self_id` to it.
    pub fn prototype(&mut self, self_id: u64, record: RecordSpec) -> Result<&mut Self> {
        let kind = record.kind();
        let database = self
            .blobs
            .iter()
            .position(|b| b.magic == kind.magic() && b.raw.is_none())
            .ok_or_else(|| {
                Error::invalid(0, "databases", u64::from(kind.magic()), "no database")
            })?;
        let index = self.encode(database, &record)?;
        if index >= 1 << 24 || database >= 64 {
            return Err(Error::invalid(
                0,
                "resourceToPrototypeMap.value",
                u64_of(index),
                "record index needs more than 24 bits or database index more than 6",
            ));
        }
        self.prototypes
            .push((self_id, ((index as u32) << 8) | ((database as u32) << 2)));
        Ok(self)
    }

    /// Encodes a record without mapping any resource to it; returns its index.
    pub fn record(&mut self, record: &RecordSpec) -> Result<usize> {
        let kind = record.kind();
        let database = self
            .blobs
            .iter()
            .position(|b| b.magic == kind.magic() && b.raw.is_none())
            .ok_or_else(|| {
                Error::invalid(0, "databases", u64::from(kind.magic()), "no database")
            })?;
        self.encode(database, record)
    }

    fn encode(&mut self, database: usize, record: &RecordSpec) -> Result<usize> {
        // Name ids first (they borrow self mutably for the strings map).
        let names = collect_names(record);
        for n in &names {
            self.string(n);
        }
        let Some(b) = self.blobs.get_mut(database) else {
            return Err(Error::invalid(
                0,
                "databases",
                u64_of(database),
                "no database",
            ));
        };
        let index = b.count;
        let r = b.new_record();
        let rec = |b: &mut Blob, field: usize, bytes: &[u8]| put(&mut b.records, r + field, bytes);
        match record {
            RecordSpec::Visual(v) => {
                let n = v.nodes.len();
                rec(b, 0, &(n as u32).to_le_bytes());
                let mut map: Vec<(u32, u16)> = v
                    .nodes
                    .iter()
                    .enumerate()
                    .map(|(i, node)| (name_id(&node.name), i as u16))
                    .collect();
                map.sort_unstable();
                b.record_array(r, 0x08, &ids(map.iter().map(|m| m.0)));
                let node_ids: Vec<u8> = map.iter().flat_map(|m| m.1.to_le_bytes()).collect();
                b.record_array(r, 0x10, &node_ids);
                b.record_array(r, 0x18, &ids(v.nodes.iter().map(|n| name_id(&n.name))));
                let mut matrices = Vec::new();
                for node in &v.nodes {
                    floats(&mut matrices, &node.matrix);
                }
                b.record_array(r, 0x20, &matrices);
                let parents: Vec<u8> = v
                    .nodes
                    .iter()
                    .flat_map(|n| n.parent.unwrap_or(0xFFFF).to_le_bytes())
                    .collect();
                b.record_array(r, 0x28, &parents);
                rec(b, 0x30, &v.merged_geometry_path_id.to_le_bytes());
                rec(b, 0x38, &[u8::from(v.underwater), u8::from(v.abovewater)]);
                rec(b, 0x3A, &(v.render_sets.len() as u16).to_le_bytes());
                rec(b, 0x3C, &[v.lods.len() as u8]);
                let mut bbox = Vec::new();
                floats(&mut bbox, &v.bbox.0);
                bbox.extend([0; 4]);
                floats(&mut bbox, &v.bbox.1);
                rec(b, 0x40, &bbox);
                if !v.render_sets.is_empty() {
                    let sets = b.array(&vec![0; v.render_sets.len() * 0x28]);
                    b.record_ptr(r, 0x60, Some(sets));
                    for (i, s) in v.render_sets.iter().enumerate() {
                        let at = sets + i * 0x28;
                        let mut fixed = ids([
                            name_id(&s.name),
                            name_id(&s.material_name),
                            s.vertices_mapping_id,
                            s.indices_mapping_id,
                        ]);
                        fixed.extend(s.material_mfm_path_id.to_le_bytes());
                        fixed.extend([u8::from(s.skinned), s.node_names.len() as u8]);
                        put(&mut b.ool, at, &fixed);
                        b.ool_array(at, 0x20, &ids(s.node_names.iter().map(|n| name_id(n))));
                    }
                }
                if !v.lods.is_empty() {
                    let lods = b.array(&vec![0; v.lods.len() * 0x10]);
                    b.record_ptr(r, 0x68, Some(lods));
                    for (i, l) in v.lods.iter().enumerate() {
                        let at = lods + i * 0x10;
                        let mut fixed = l.extent.to_le_bytes().to_vec();
                        fixed.extend([u8::from(l.casts_shadow), 0]);
                        fixed.extend((l.render_set_names.len() as u16).to_le_bytes());
                        put(&mut b.ool, at, &fixed);
                        b.ool_array(at, 8, &ids(l.render_set_names.iter().map(|n| name_id(n))));
                    }
                }
            }
            RecordSpec::Material(m) => {
                rec(b, 0, &(m.properties.len() as u16).to_le_bytes());
                let mut arrays: [Vec<u8>; 9] = Default::default();
                let mut counts = [0u8; 9];
                let mut prop_ids = Vec::new();
                for (_, value) in &m.properties {
                    let kind = value.kind();
                    let index = u16::from(counts[kind]);
                    counts[kind] = counts[kind].saturating_add(1);
                    value.encode(&mut arrays[kind]);
                    prop_ids.extend(((index << 4) | kind as u16).to_le_bytes());
                }
                rec(b, 2, &counts);
                b.record_array(r, 0x10, &ids(m.properties.iter().map(|p| name_id(&p.0))));
                b.record_array(r, 0x18, &prop_ids);
                for (k, array) in arrays.iter().enumerate() {
                    b.record_array(r, 0x20 + k * 8, array);
                }
                rec(b, 0x68, &m.fx_path_id.to_le_bytes());
                rec(b, 0x70, &m.collision_flags.to_le_bytes());
                rec(b, 0x74, &m.sort_order.to_le_bytes());
            }
            RecordSpec::Model(m) => {
                let v1 = b.item_size == 0x20;
                rec(b, 0, &m.visual_resource_id.to_le_bytes());
                let (animations, dyes) = if v1 {
                    rec(
                        b,
                        8,
                        &[m.misc_type, m.animations.len() as u8, m.dyes.len() as u8],
                    );
                    (0x10, 0x18)
                } else {
                    rec(
                        b,
                        8,
                        &[
                            m.skeleton_extender_ids.len() as u8,
                            m.misc_type,
                            m.animations.len() as u8,
                            m.dyes.len() as u8,
                        ],
                    );
                    b.record_array(r, 0x10, &ids64(m.skeleton_extender_ids.iter().copied()));
                    (0x18, 0x20)
                };
                b.record_array(r, animations, &ids64(m.animations.iter().copied()));
                if !m.dyes.is_empty() {
                    let at0 = b.array(&vec![0; m.dyes.len() * 0x20]);
                    b.record_ptr(r, dyes, Some(at0));
                    for (i, d) in m.dyes.iter().enumerate() {
                        let at = at0 + i * 0x20;
                        put(
                            &mut b.ool,
                            at,
                            &ids([d.matter_id, d.replaces_id, d.tints.len() as u32]),
                        );
                        b.ool_array(at, 0x10, &ids(d.tints.iter().map(|t| name_id(&t.0))));
                        b.ool_array(at, 0x18, &ids64(d.tints.iter().map(|t| t.1)));
                    }
                }
            }
            RecordSpec::SkeletonExtender(s) => {
                rec(b, 0, &s.flag.to_le_bytes());
                rec(b, 2, &(s.nodes.len() as u16).to_le_bytes());
                b.record_array(r, 0x08, &ids(s.nodes.iter().map(|n| name_id(&n.0))));
                b.record_array(r, 0x10, &ids(s.nodes.iter().map(|n| name_id(&n.1))));
                let mut matrices = Vec::new();
                for n in &s.nodes {
                    floats(&mut matrices, &n.2);
                }
                b.record_array(r, 0x18, &matrices);
            }
            RecordSpec::PointLight(p) => {
                let mut color_points = Vec::new();
                for (t, v) in &p.color_points {
                    floats(&mut color_points, &[*t]);
                    floats(&mut color_points, v);
                }
                let mut radius_points = Vec::new();
                for (t, v) in &p.radius_points {
                    floats(&mut radius_points, &[*t, *v]);
                }
                for (off, period, repeated, count, points) in [
                    (
                        0,
                        p.color_period,
                        p.color_repeated,
                        p.color_points.len(),
                        color_points,
                    ),
                    (
                        0x20,
                        p.radius_period,
                        p.radius_repeated,
                        p.radius_points.len(),
                        radius_points,
                    ),
                ] {
                    rec(b, off, &period.to_le_bytes());
                    rec(b, off + 4, &[u8::from(repeated)]);
                    rec(b, off + 0x10, &(count as i32).to_le_bytes());
                    if !points.is_empty() {
                        let t = b.array(&points);
                        b.fixups.push((r + off + 0x18, r + off + 0x10, t));
                    }
                }
                let mut tail = Vec::new();
                floats(&mut tail, &p.color);
                floats(&mut tail, &p.local_position);
                tail.extend([0; 4]);
                floats(&mut tail, &[p.radius]);
                tail.extend(p.min_quality.to_le_bytes());
                tail.extend([u8::from(p.animated_color), u8::from(p.animated_radius)]);
                rec(b, 0x40, &tail);
            }
            RecordSpec::VelocityField(v) => {
                rec(b, 0, &ids(v.dimensions));
                rec(b, 0x0C, &(v.velocities.len() as u32).to_le_bytes());
                let data: Vec<u8> = v.velocities.iter().flat_map(|x| x.to_le_bytes()).collect();
                b.record_array(r, 0x10, &data);
            }
            RecordSpec::Effect(e) => {
                rec(b, 0, &e.max_emitting_duration.to_le_bytes());
                rec(b, 4, &(e.systems.len() as u32).to_le_bytes());
                let mut systems = Vec::with_capacity(e.systems.len() * 0x1C8);
                for s in &e.systems {
                    let mut one = s.clone();
                    one.resize(0x1C8, 0);
                    systems.extend(one);
                }
                b.record_array(r, 8, &systems);
            }
            RecordSpec::EffectPreset(p) => {
                rec(b, 0, &p.high_id.to_le_bytes());
                rec(b, 8, &p.low_id.to_le_bytes());
            }
            RecordSpec::EffectMetadata(m) => {
                rec(b, 0, &u64_of(m.channels.len()).to_le_bytes());
                if !m.channels.is_empty() {
                    let at0 = b.array(&vec![0; m.channels.len() * 0x20]);
                    b.record_ptr(r, 8, Some(at0));
                    for (i, c) in m.channels.iter().enumerate() {
                        let at = at0 + i * 0x20;
                        let mut name = c.name.as_bytes().to_vec();
                        name.push(0);
                        put(&mut b.ool, at, &(name.len() as u32).to_le_bytes());
                        let mut tail = Vec::new();
                        floats(&mut tail, &[c.min, c.max, c.default]);
                        tail.extend(c.kind.to_le_bytes());
                        put(&mut b.ool, at + 0x10, &tail);
                        b.ool_array(at, 8, &name);
                    }
                }
            }
            RecordSpec::AtlasContour(a) => {
                rec(b, 0, &(a.frames.len() as i32).to_le_bytes());
                if !a.frames.is_empty() {
                    let at0 = b.array(&vec![0; a.frames.len() * 0x10]);
                    b.record_ptr(r, 8, Some(at0));
                    for (i, f) in a.frames.iter().enumerate() {
                        let at = at0 + i * 0x10;
                        put(&mut b.ool, at, &(f.len() as i32).to_le_bytes());
                        let mut pts = Vec::new();
                        for p in f {
                            floats(&mut pts, p);
                        }
                        b.ool_array(at, 8, &pts);
                    }
                }
            }
        }
        Ok(index)
    }

    /// The file's bytes.
    pub fn to_bytes(&self) -> Result<Vec<u8>> {
        let too_big = |what, n: usize| Error::invalid(0, what, u64_of(n), "does not fit 32 bits");
        let u32_of = |what, n: usize| u32::try_from(n).map_err(|_| too_big(what, n));

        let strings_cap = self
            .strings_capacity
            .unwrap_or_else(|| capacity_for(self.string_order.len()));
        let mut string_buckets = vec![0u8; strings_cap * 8];
        let mut string_values = vec![0u8; strings_cap * 4];
        for (n, &id) in self.string_order.iter().enumerate() {
            let slot = probe(strings_cap, u64::from(id), |s| {
                string_buckets
                    .get(s * 8..s * 8 + 8)
                    .is_some_and(|b| b.iter().all(|&x| x == 0))
            })
            .ok_or_else(|| too_big("offsetsMap.capacity", strings_cap))?;
            put(&mut string_buckets, slot * 8, &id.to_le_bytes());
            let word = 0x8000_0000 | (n as u32 & 0x7FFF_FFFF);
            put(&mut string_buckets, slot * 8 + 4, &word.to_le_bytes());
            let offset = self.strings.get(&id).copied().unwrap_or(0);
            put(&mut string_values, slot * 4, &offset.to_le_bytes());
        }

        let r2p_cap = self
            .r2p_capacity
            .unwrap_or_else(|| capacity_for(self.prototypes.len()));
        let mut r2p_buckets = vec![0u8; r2p_cap * 16];
        let mut r2p_values = vec![0u8; r2p_cap * 4];
        for &(id, value) in &self.prototypes {
            let slot = probe(r2p_cap, id, |s| {
                r2p_buckets
                    .get(s * 16..s * 16 + 16)
                    .is_some_and(|b| b.iter().all(|&x| x == 0))
            })
            .ok_or_else(|| too_big("resourceToPrototypeMap.capacity", r2p_cap))?;
            put(&mut r2p_buckets, slot * 16, &id.to_le_bytes());
            put(&mut r2p_buckets, slot * 16 + 8, &1u64.to_le_bytes());
            put(&mut r2p_values, slot * 4, &value.to_le_bytes());
        }

        // Layout, in the seed's order.
        let body = 0x10usize;
        let string_buckets_at = body + 0x60;
        let string_values_at = string_buckets_at + string_buckets.len();
        let pool_at = string_values_at + string_values.len();
        let r2p_buckets_at = pool_at + self.pool.len();
        let r2p_values_at = r2p_buckets_at + r2p_buckets.len();
        let paths_at = r2p_values_at + r2p_values.len();
        let names_at = paths_at + self.paths.len() * 0x20;
        let names_len: usize = self.paths.iter().map(|p| p.2.len() + 1).sum();
        let databases_at = names_at + names_len;
        let blobs: Vec<Vec<u8>> = self.blobs.iter().map(Blob::finish).collect();
        let blobs_at = databases_at + self.blobs.len() * 0x18;
        let total = blobs_at + blobs.iter().map(Vec::len).sum::<usize>();

        let mut out = Vec::with_capacity(total);
        out.extend(MAGIC.to_le_bytes());
        out.extend(VERSION.to_le_bytes());
        out.extend([0; 4]);
        out.extend(ARCHITECTURE.to_le_bytes());
        out.extend(0u16.to_le_bytes());
        let rel = |target: usize, base: usize| (target as i64 - base as i64).to_le_bytes();
        out.extend(u32_of("offsetsMap.capacity", strings_cap)?.to_le_bytes());
        out.extend([0; 4]);
        out.extend(rel(string_buckets_at, body));
        out.extend(rel(string_values_at, body));
        out.extend(u32_of("stringData.size", self.pool.len())?.to_le_bytes());
        out.extend([0; 4]);
        out.extend(rel(pool_at, body));
        out.extend(u32_of("resourceToPrototypeMap.capacity", r2p_cap)?.to_le_bytes());
        out.extend([0; 4]);
        out.extend(rel(r2p_buckets_at, body + 0x28));
        out.extend(rel(r2p_values_at, body + 0x28));
        out.extend(u32_of("pathsStorage.count", self.paths.len())?.to_le_bytes());
        out.extend([0; 4]);
        out.extend(rel(paths_at, body + 0x40));
        out.extend(u32_of("databasesCount", self.blobs.len())?.to_le_bytes());
        out.extend([0; 4]);
        out.extend(rel(databases_at, body));
        out.extend_from_slice(&string_buckets);
        out.extend_from_slice(&string_values);
        out.extend_from_slice(&self.pool);
        out.extend_from_slice(&r2p_buckets);
        out.extend_from_slice(&r2p_values);
        let mut name_at = names_at;
        for (i, (self_id, parent_id, name)) in self.paths.iter().enumerate() {
            let entry = paths_at + i * 0x20;
            out.extend(self_id.to_le_bytes());
            out.extend(parent_id.to_le_bytes());
            out.extend(u32_of("PathEntry.name.size", name.len() + 1)?.to_le_bytes());
            out.extend([0; 4]);
            out.extend(rel(name_at, entry + 0x10));
            name_at += name.len() + 1;
        }
        for (_, _, name) in &self.paths {
            out.extend_from_slice(name.as_bytes());
            out.push(0);
        }
        let mut blob_at = blobs_at;
        for (i, (b, blob)) in self.blobs.iter().zip(&blobs).enumerate() {
            let entry = databases_at + i * 0x18;
            out.extend(b.magic.to_le_bytes());
            out.extend(b.schema_hash.to_le_bytes());
            out.extend(u32_of("DatabaseEntry.size", blob.len())?.to_le_bytes());
            out.extend([0; 4]);
            out.extend(rel(blob_at, entry));
            blob_at += blob.len();
        }
        for blob in &blobs {
            out.extend_from_slice(blob);
        }
        let checksum = match self.checksum {
            ChecksumKind::Murmur3 => murmur3_32(&out[body..], 0),
            ChecksumKind::Crc32 => crc32fast::hash(&out[body..]),
            ChecksumKind::Fixed(v) => v,
        };
        put(&mut out, 8, &checksum.to_le_bytes());
        Ok(out)
    }
}

/// The first free slot for `key` by linear probing, or `None` when the table is full.
fn probe(capacity: usize, key: u64, free: impl Fn(usize) -> bool) -> Option<usize> {
    if capacity == 0 {
        return None;
    }
    let mut slot = (key % capacity as u64) as usize;
    for _ in 0..capacity {
        if free(slot) {
            return Some(slot);
        }
        slot = (slot + 1) % capacity;
    }
    None
}

/// Every string a record names (added to the strings map).
fn collect_names(record: &RecordSpec) -> Vec<&str> {
    let mut names = Vec::new();
    match record {
        RecordSpec::Visual(v) => {
            names.extend(v.nodes.iter().map(|n| n.name.as_str()));
            for s in &v.render_sets {
                names.push(&s.name);
                names.push(&s.material_name);
                names.extend(s.node_names.iter().map(String::as_str));
            }
            for l in &v.lods {
                names.extend(l.render_set_names.iter().map(String::as_str));
            }
        }
        RecordSpec::Material(m) => names.extend(m.properties.iter().map(|p| p.0.as_str())),
        RecordSpec::Model(m) => {
            for d in &m.dyes {
                names.extend(d.tints.iter().map(|t| t.0.as_str()));
            }
        }
        RecordSpec::SkeletonExtender(s) => {
            for n in &s.nodes {
                names.push(&n.0);
                names.push(&n.1);
            }
        }
        _ => {}
    }
    names
}

/// A visual like the independent sample's: two nodes, one render set, one LOD.
pub fn example_visual(geometry_id: u64, mfm_id: u64) -> VisualSpec {
    VisualSpec {
        nodes: vec![
            NodeSpec {
                name: "Scene Root".into(),
                matrix: translation([0.0; 3]),
                parent: None,
            },
            NodeSpec {
                name: "HP_Test".into(),
                matrix: translation([1.5, 2.5, 3.5]),
                parent: Some(0),
            },
        ],
        merged_geometry_path_id: geometry_id,
        underwater: false,
        abovewater: true,
        bbox: ([-1.0, -2.0, -3.0], [1.0, 2.0, 3.0]),
        render_sets: vec![RenderSetSpec {
            name: "rs_hull".into(),
            material_name: "mat_hull".into(),
            vertices_mapping_id: murmur3_32(b"Hull.vertices", 0),
            indices_mapping_id: murmur3_32(b"Hull.indices", 0),
            material_mfm_path_id: mfm_id,
            skinned: false,
            node_names: vec!["Scene Root".into()],
        }],
        lods: vec![LodSpec {
            extent: 500.0,
            casts_shadow: true,
            render_set_names: vec!["rs_hull".into()],
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
        RecordSpec::Material(MaterialSpec {
            properties: vec![
                (
                    "diffuseMap".into(),
                    ValueSpec::Texture(0xDEAD_BEEF_CAFE_F00D),
                ),
                ("alphaTest".into(), ValueSpec::Bool(true)),
                ("layer".into(), ValueSpec::Int(-3)),
                ("flags".into(), ValueSpec::Uint(7)),
                ("gloss".into(), ValueSpec::Float(0.25)),
                ("normalMap".into(), ValueSpec::Texture(0x1234)),
                ("uvScale".into(), ValueSpec::Vec2([2.0, 3.0])),
                ("tint".into(), ValueSpec::Vec3([0.5, 0.6, 0.7])),
                ("color".into(), ValueSpec::Vec4([1.0, 0.0, 0.0, 1.0])),
                (
                    "uvTransform".into(),
                    ValueSpec::Mat4(translation([4.0, 5.0, 6.0])),
                ),
            ],
            fx_path_id: 0xF0F0,
            collision_flags: 0x11,
            sort_order: -2,
        }),
    )?;
    b.prototype(visual, RecordSpec::Visual(example_visual(geometry, mfm)))?;
    b.prototype(
        skeleton,
        RecordSpec::SkeletonExtender(SkeletonExtenderSpec {
            flag: 1,
            nodes: vec![
                (
                    "HP_Gun".into(),
                    "Scene Root".into(),
                    translation([0.0, 1.0, 0.0]),
                ),
                (
                    "HP_Mast".into(),
                    "HP_Gun".into(),
                    translation([0.0, 2.0, 0.0]),
                ),
            ],
        }),
    )?;
    b.prototype(
        model,
        RecordSpec::Model(ModelSpec {
            visual_resource_id: visual,
            misc_type: 2,
            skeleton_extender_ids: vec![skeleton],
            animations: vec![0xA1, 0xA2],
            dyes: vec![DyeSpec {
                matter_id: 11,
                replaces_id: 12,
                tints: vec![("tint_red".into(), 0xB1), ("tint_blue".into(), 0xB2)],
            }],
        }),
    )?;
    let light = b.path("content/lights/lamp.light")?;
    b.prototype(
        light,
        RecordSpec::PointLight(PointLightSpec {
            color_period: 2.0,
            color_repeated: true,
            color_points: vec![(0.0, [1.0, 0.5, 0.25, 1.0]), (1.0, [0.0, 0.0, 1.0, 1.0])],
            radius_period: 4.0,
            radius_repeated: false,
            radius_points: vec![(0.0, 3.0), (0.5, 6.0), (1.0, 3.0)],
            color: [1.0, 0.9, 0.8, 1.0],
            local_position: [1.0, 2.0, 3.0],
            radius: 5.0,
            min_quality: 2,
            animated_color: true,
            animated_radius: true,
        }),
    )?;
    let effect = b.path("content/effects/fire.effect")?;
    let mut system = vec![0u8; 0x1C8];
    system[0] = 0xE5;
    system[0x1C7] = 0x5E;
    b.prototype(
        effect,
        RecordSpec::Effect(EffectSpec {
            max_emitting_duration: 1.5,
            systems: vec![system.clone(), system],
        }),
    )?;
    let field = b.path("content/effects/wind.vfield")?;
    b.prototype(
        field,
        RecordSpec::VelocityField(VelocityFieldSpec {
            dimensions: [2, 2, 1],
            velocities: vec![1, 2, 3, 4],
        }),
    )?;
    let preset = b.path("content/effects/fire.preset")?;
    b.prototype(
        preset,
        RecordSpec::EffectPreset(EffectPresetSpec {
            high_id: 0x1111_2222,
            low_id: 0x3333_4444,
        }),
    )?;
    let metadata = b.path("content/effects/fire.meta")?;
    b.prototype(
        metadata,
        RecordSpec::EffectMetadata(EffectMetadataSpec {
            channels: vec![
                ChannelSpec {
                    name: "intensity".into(),
                    min: 0.0,
                    max: 2.0,
                    default: 1.0,
                    kind: 1,
                },
                ChannelSpec {
                    name: "size".into(),
                    min: 0.5,
                    max: 4.0,
                    default: 1.0,
                    kind: 2,
                },
            ],
        }),
    )?;
    let atlas = b.path("content/gui/atlas.contour")?;
    b.prototype(
        atlas,
        RecordSpec::AtlasContour(AtlasContourSpec {
            frames: vec![
                vec![[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]],
                vec![[0.5, 0.5], [0.75, 0.5]],
            ],
        }),
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
    b.prototype(0x40, RecordSpec::Visual(example_visual(0, 0)))?;
    b.prototype(
        0x30,
        RecordSpec::Model(ModelSpec {
            visual_resource_id: 0x40,
            misc_type: 1,
            skeleton_extender_ids: Vec::new(),
            animations: vec![0xC1],
            dyes: vec![DyeSpec {
                matter_id: 1,
                replaces_id: 2,
                tints: vec![("tint_old".into(), 0xD1)],
            }],
        }),
    )?;
    b.deleted(0x50);
    let mut blob = 1u64.to_le_bytes().to_vec();
    blob.extend(16u64.to_le_bytes());
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

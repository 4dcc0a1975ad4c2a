//! [`AssetsModel`]: a whole `assets.bin` as plain data — what [`AssetsBuilder::from_view`]
//! carries, with nothing encoded — which the builder converts to and from. With the `serde`
//! feature it (and so the builder) is JSON: `from_view` → JSON → back → `to_bytes` gives the file
//! again, byte for byte, for a file this writer made, and for one of another writer as far as
//! its [`FileLayout`] keeps it (see [`AssetsModel`]).
//!
//! ```
//! # #[cfg(feature = "serde")]
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! use gamebin::wows::assets::AssetsDb;
//! use gamebin::synth::assets::example_file;
//! use gamebin::wows::assets::model::AssetsBuilder;
//!
//! let file = example_file();
//! let builder = AssetsBuilder::from_view(&AssetsDb::from_bytes(&file)?)?;
//! let text = serde_json::to_string(&builder)?;
//! let again: AssetsBuilder = serde_json::from_str(&text)?;
//! assert_eq!(again.to_bytes()?, file);
//! # Ok(())
//! # }
//! # #[cfg(not(feature = "serde"))]
//! # fn main() {}
//! ```

use std::collections::HashMap;

use super::{AssetsBuilder, ChecksumKind, FileLayout};
use crate::bytes::sink::invalid;
use crate::bytes::u64_of;
use crate::wows::assets::write::Blob;
use crate::wows::assets::{
    MAX_PATH_DEPTH, PrototypeFields, PrototypeRef, PrototypeState, PrototypeType,
};
#[cfg(feature = "serde")]
use crate::wows::assets::{complete_records, serde_ids};
use crate::write_error::{WriteContext, WriteError, WriteResult as Result};

/// A whole `assets.bin` as plain data: each part in the order the file stores it. In JSON, a key
/// the model does not have is refused (a misspelt key would otherwise be dropped silently); only
/// inside a record are other keys ignored (see [`PrototypeFields`]' JSON).
///
/// The model of a file another writer made carries its [`layout`](Self::layout): where each part
/// starts, the strings map's words, the order of the visuals' node name maps, the bytes between
/// parts that are not zero, and where the out-of-line arrays are in the blobs the writer would
/// lay out otherwise (with the bytes between them that are not zero), so that the file is
/// written again byte for byte (see [`FileLayout`] for edits). What the model still
/// does not keep, written the writer's way (the file reads the same, its bytes differ):
/// - bytes other than zero in the pads of the header, the body header, the path and database
///   entries (written as zeros; bytes between parts are kept);
/// - a string pool whose strings are not one after another (gaps, strings sharing bytes): they
///   are written one after another, in the pool's order;
/// - strings map words that are neither the strings' order nor their slots (written as the
///   order), resource-to-prototype words other than 1 (written as 1);
/// - path names that are not one after another in table order (written so, from the first
///   name's offset);
/// - parts in another order than the seed's: placed where stored up to the first one out of
///   order, the writer's way from there on;
/// - a blob that no placement of its arrays writes again (records sharing an array, bytes other
///   than zero in the pads of a record or of an out-of-line struct, node name maps neither
///   sorted nor in node order, ...) is kept whole, as stored ([`StoredBlob`](super::StoredBlob),
///   hex in JSON), and written as stored only while its records are unchanged.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(deny_unknown_fields)
)]
pub struct AssetsModel {
    /// The strings map's strings, in their stored order (each one's name id is its MurmurHash3).
    pub strings: Vec<String>,
    /// The path entries, in table order.
    pub paths: Vec<PathEntryModel>,
    /// The resource-to-prototype entries, in the order that puts each back in its slot.
    pub prototypes: Vec<PrototypeEntryModel>,
    /// The prototype databases, in table order.
    pub databases: Vec<DatabaseModel>,
    /// The strings map's capacity (`None`: the writer's, twice the strings plus one).
    pub strings_capacity: Option<usize>,
    /// The resource-to-prototype map's capacity (`None`: the writer's, twice the entries plus
    /// one).
    pub prototypes_capacity: Option<usize>,
    /// The checksum the header stores.
    pub checksum: ChecksumKind,
    /// Where another writer placed the file's parts (`None`, and no `layout` in JSON: the
    /// writer's own layout). Dropping it lays the whole file out the writer's way.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub layout: Option<FileLayout>,
}

impl AssetsModel {
    /// The model of a file: every part it stores ([`AssetsBuilder::from_view`], then
    /// [`AssetsBuilder::to_model`]).
    pub fn from_view(view: &crate::wows::assets::AssetsDb<'_>) -> Result<AssetsModel> {
        Ok(AssetsBuilder::from_view(view)?.to_model())
    }
}

/// A path entry: its id, its parent's id and its name.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(deny_unknown_fields)
)]
pub struct PathEntryModel {
    /// The entry's id (the CityHash64 of its full path in most files).
    #[cfg_attr(feature = "serde", serde(with = "serde_ids::id64"))]
    pub self_id: u64,
    /// The parent's id (no entry has it for a root).
    #[cfg_attr(feature = "serde", serde(with = "serde_ids::id64"))]
    pub parent_id: u64,
    /// The entry's name (one segment of the path).
    pub name: String,
}

/// A resource-to-prototype entry: a resource's id and where its record is, in its state.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(deny_unknown_fields)
)]
pub struct PrototypeEntryModel {
    /// The resource's id.
    #[cfg_attr(feature = "serde", serde(with = "serde_ids::id64"))]
    pub id: u64,
    /// The database's position in [`AssetsModel::databases`] (6 bits).
    pub database: u32,
    /// The record's index in that database (24 bits).
    pub record: u32,
    /// The entry's state: `"live"`, `"deleted"`, or 1 or 2 as stored.
    #[cfg_attr(feature = "serde", serde(with = "state"))]
    pub state: PrototypeState,
}

/// A prototype database: its descriptor and its records.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(deny_unknown_fields)
)]
pub struct DatabaseModel {
    /// The magic: the MurmurHash3 of the prototype type's name.
    #[cfg_attr(feature = "serde", serde(with = "serde_ids::id32"))]
    pub magic: u32,
    /// The schema hash, as stored.
    #[cfg_attr(feature = "serde", serde(with = "serde_ids::id32"))]
    pub schema_hash: u32,
    /// The records, decoded or as stored.
    pub records: DatabaseRecords,
}

/// A database's records: decoded, or its blob as stored when the reader keeps it raw.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(rename_all = "snake_case", deny_unknown_fields)
)]
pub enum DatabaseRecords {
    /// Records of the database's type, each as its fields (in JSON their complete form,
    /// `CompleteFields`, so that every stored byte reads back).
    Decoded {
        /// Bytes per record: the layout (a model database's 0x28 or 0x20).
        item_size: usize,
        /// The records, in index order.
        #[cfg_attr(feature = "serde", serde(serialize_with = "complete_records"))]
        records: Vec<PrototypeFields>,
    },
    /// The blob as stored (hex text in JSON).
    Raw {
        /// The blob's bytes.
        #[cfg_attr(feature = "serde", serde(with = "crate::serde_hex"))]
        blob: Vec<u8>,
    },
}

impl AssetsBuilder {
    /// The builder's file as plain data: every string, path entry, resource-to-prototype entry
    /// and record it holds, the capacities and the checksum flavour.
    pub fn to_model(&self) -> AssetsModel {
        let strings = self
            .string_order
            .iter()
            .map(|id| {
                let at = self.strings.get(id).copied().unwrap_or(0);
                let text = self.pool.get(at..).unwrap_or_default();
                let end = text.iter().position(|&b| b == 0).unwrap_or(text.len());
                String::from_utf8_lossy(text.get(..end).unwrap_or_default()).into_owned()
            })
            .collect();
        let paths = self
            .paths
            .iter()
            .map(|(self_id, parent_id, name)| PathEntryModel {
                self_id: *self_id,
                parent_id: *parent_id,
                name: name.clone(),
            })
            .collect();
        let prototypes = self
            .prototypes
            .iter()
            .map(|&(id, value)| {
                let at = PrototypeRef::decode(value, 0);
                PrototypeEntryModel {
                    id,
                    database: at.database,
                    record: at.record,
                    state: at.state,
                }
            })
            .collect();
        let databases = self
            .blobs
            .iter()
            .map(|b| DatabaseModel {
                magic: b.magic,
                schema_hash: b.schema_hash,
                records: match &b.raw {
                    Some(blob) => DatabaseRecords::Raw { blob: blob.clone() },
                    None => DatabaseRecords::Decoded {
                        item_size: b.item_size,
                        records: b.fields.clone(),
                    },
                },
            })
            .collect();
        AssetsModel {
            strings,
            paths,
            prototypes,
            databases,
            strings_capacity: self.strings_capacity,
            prototypes_capacity: self.r2p_capacity,
            checksum: self.checksum,
            layout: self.layout.clone(),
        }
    }

    /// The builder of a file given as plain data: each part added in the model's order, each
    /// record encoded into its database. Refused, with an error naming the structure and field:
    /// a map's capacity over eight times its entries (and 1,024 more), two strings with one name
    /// id, a decoded database of an unknown magic or a record size its
    /// type does not have, a record of another type than its database's, an entry's index or
    /// state that does not fit its bits, and whatever [`prototype`](Self::prototype) refuses in a
    /// record.
    pub fn from_model(model: AssetsModel) -> Result<AssetsBuilder> {
        let AssetsModel {
            strings,
            paths,
            prototypes,
            databases,
            strings_capacity,
            prototypes_capacity,
            checksum,
            layout,
        } = model;
        let mut b = AssetsBuilder::new();
        b.blobs.clear();
        b.strings_capacity = bounded(strings_capacity, strings.len(), "offsetsMap.capacity")
            .in_field("strings_capacity")?;
        b.r2p_capacity = bounded(
            prototypes_capacity,
            prototypes.len(),
            "resourceToPrototypeMap.capacity",
        )
        .in_field("prototypes_capacity")?;
        b.checksum = checksum;
        if let Some(layout) = &layout {
            layout.check(databases.len()).in_field("layout")?;
        }
        b.node_name_maps = layout
            .as_ref()
            .map_or_else(Default::default, |l| l.node_name_maps);
        b.layout = layout;
        for (i, text) in strings.iter().enumerate() {
            let known = b.string_order.len();
            b.string(text);
            if b.string_order.len() == known {
                let e = invalid(
                    "offsetsMap.key",
                    u64::from(super::name_id(text)),
                    "a second string has this name id",
                );
                return Err(e.at_index(i).in_field("strings"));
            }
        }
        b.paths = paths
            .into_iter()
            .map(|p| (p.self_id, p.parent_id, p.name))
            .collect();
        b.index_paths();
        for (position, database) in databases.into_iter().enumerate() {
            let in_database = |e: WriteError| e.at_index(position).in_field("databases");
            let DatabaseModel {
                magic,
                schema_hash,
                records,
            } = database;
            let (item_size, records) = match records {
                DatabaseRecords::Raw { blob } => {
                    b.unknown_database(magic, schema_hash, blob);
                    continue;
                }
                DatabaseRecords::Decoded { item_size, records } => (item_size, records),
            };
            let kind = PrototypeType::from_magic(magic)
                .ok_or_else(|| {
                    invalid(
                        "DatabaseEntry.magic",
                        u64::from(magic),
                        "records are decoded only for the ten known prototype types",
                    )
                    .in_field("magic")
                })
                .map_err(in_database)?;
            b.blobs.push(Blob::new(magic, schema_hash, item_size));
            for (i, record) in records.into_iter().enumerate() {
                let in_record = |e: WriteError| in_database(e.at_index(i).in_field("records"));
                if record.kind() != Some(kind) {
                    let e = invalid(
                        "Database.records",
                        u64_of(position),
                        "a record of another type than its database's",
                    );
                    return Err(in_record(e));
                }
                b.encode_fields(position, record).map_err(in_record)?;
            }
        }
        for (i, entry) in prototypes.into_iter().enumerate() {
            let index = |i: u32| usize::try_from(i).unwrap_or(usize::MAX);
            let value =
                PrototypeRef::stored_value(index(entry.database), index(entry.record), entry.state)
                    .ok_or_else(|| {
                        // The entry's field that does not fit: its record index (24 bits), its
                        // database index (6 bits), or else its state (0 to 3).
                        let (key, value) = if entry.record >= 1 << 24 {
                            ("record", entry.record)
                        } else if entry.database >= 1 << 6 {
                            ("database", entry.database)
                        } else {
                            let stored = match entry.state {
                                PrototypeState::Other(n) => u32::from(n),
                                PrototypeState::Live | PrototypeState::Deleted => 0,
                            };
                            ("state", stored)
                        };
                        WriteError::invalid(
                            "resourceToPrototypeMap.value",
                            u64::from(value),
                            "record index needs more than 24 bits, database index more than 6, or \
                     the state is not 0 to 3",
                        )
                        .in_field(key)
                        .at_index(i)
                        .in_field("prototypes")
                    })?;
            b.prototypes.push((entry.id, value));
        }
        Ok(b)
    }

    /// Finds each path entry's full path through its parents' ids (a chain ends at an id no entry
    /// has), so that [`path`](Self::path) reuses the entries that are there.
    fn index_paths(&mut self) {
        let mut by_id: HashMap<u64, usize> = HashMap::with_capacity(self.paths.len());
        for (i, (self_id, _, _)) in self.paths.iter().enumerate() {
            by_id.entry(*self_id).or_insert(i);
        }
        let mut chain: Vec<&str> = Vec::with_capacity(MAX_PATH_DEPTH);
        for (self_id, parent_id, name) in &self.paths {
            chain.clear();
            chain.push(name);
            let mut parent = *parent_id;
            while let Some((_, grandparent, name)) =
                by_id.get(&parent).and_then(|&i| self.paths.get(i))
            {
                if chain.len() == MAX_PATH_DEPTH {
                    break;
                }
                chain.push(name);
                parent = *grandparent;
            }
            // A chain longer than the reader follows (or a loop) names no path.
            if chain.len() == MAX_PATH_DEPTH && by_id.contains_key(&parent) {
                continue;
            }
            chain.reverse();
            self.path_ids.entry(chain.join("/")).or_insert(*self_id);
        }
    }
}

/// A map's capacity as a model gives it, refused above eight times its entries (and 1,024 more):
/// the tables are allocated at that size, and a model read from text must not make the writer
/// allocate without bound (the writer's own maps hold twice the entries plus one, real files
/// about as many).
fn bounded(capacity: Option<usize>, entries: usize, what: &'static str) -> Result<Option<usize>> {
    let most = entries.saturating_mul(8).saturating_add(1024);
    match capacity {
        Some(c) if c > most => Err(invalid(
            what,
            u64_of(c),
            "more than eight times the map's entries (and 1,024 more)",
        )),
        _ => Ok(capacity),
    }
}

impl From<AssetsBuilder> for AssetsModel {
    fn from(builder: AssetsBuilder) -> Self {
        builder.to_model()
    }
}

impl TryFrom<AssetsModel> for AssetsBuilder {
    type Error = WriteError;

    fn try_from(model: AssetsModel) -> Result<Self> {
        AssetsBuilder::from_model(model)
    }
}

/// A resource-to-prototype entry's state as text: `"live"`, `"deleted"`, or the stored number
/// for the two states no reader has seen.
#[cfg(feature = "serde")]
mod state {
    use serde::de::{Unexpected, Visitor};
    use serde::{Deserializer, Serializer};

    use crate::wows::assets::PrototypeState;

    pub fn serialize<S: Serializer>(state: &PrototypeState, s: S) -> Result<S::Ok, S::Error> {
        match state {
            PrototypeState::Live => s.serialize_str("live"),
            PrototypeState::Deleted => s.serialize_str("deleted"),
            PrototypeState::Other(n) => s.serialize_u8(*n),
        }
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<PrototypeState, D::Error> {
        struct State;
        impl Visitor<'_> for State {
            type Value = PrototypeState;
            fn expecting(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                f.write_str("\"live\", \"deleted\", 1 or 2")
            }
            fn visit_str<E: serde::de::Error>(self, text: &str) -> Result<PrototypeState, E> {
                match text {
                    "live" => Ok(PrototypeState::Live),
                    "deleted" => Ok(PrototypeState::Deleted),
                    _ => Err(E::invalid_value(Unexpected::Str(text), &self)),
                }
            }
            fn visit_u64<E: serde::de::Error>(self, n: u64) -> Result<PrototypeState, E> {
                match n {
                    1 | 2 => Ok(PrototypeState::Other(n as u8)),
                    _ => Err(E::invalid_value(Unexpected::Unsigned(n), &self)),
                }
            }
        }
        d.deserialize_any(State)
    }
}

//! [`FileLayout`]: where a file made by another writer placed its parts, kept in the model so that
//! such a file is written again byte for byte, and the placing of the parts at those offsets.
//!
//! The writer's own layout puts each part right after the one before it, in the seed's order.
//! Other writers align parts (the independent sample starts the resource-to-prototype map, the
//! path table, the database table and each blob on 8- or 16-byte boundaries), order the string
//! pool otherwise than the strings map's words, store each bucket's slot in its word, may fill
//! the gaps between parts with other bytes than zeros, place a database's out-of-line arrays
//! their own way (natural rather than 8-byte alignment, matrices on 16 bytes, another order)
//! and leave the visuals' node name maps in node order. [`AssetsBuilder::from_view`] keeps what
//! differs from the writer's own layout here (nothing, for a file this writer made: no `layout`
//! in the model's JSON), and [`AssetsBuilder::to_bytes`] honours it.
//!
//! A blob whose arrays are placed otherwise is kept as a [`BlobPlacement`]: each array's offset,
//! found by following the stored pointers (those of the records first, then those inside the
//! arrays found), and the blob's end — a few numbers, whatever the blob's size. Only a blob no
//! placement writes again byte for byte (records sharing an array, bytes other than zero in the
//! pads of a record or an array, a header size other than 16, ...) is kept whole, as a
//! [`StoredBlob`]: the last resort.
//!
//! Edits: a part is placed at its stored offset when everything before it ends there or before
//! (the gap zero-filled); once a part has grown past the next one's offset (a longer string pool,
//! a renamed path, a blob with a record more), that part and every part after it are laid out
//! the writer's own way, one after another. Inside a blob, arrays are placed the same way, in the
//! order of their stored offsets: an edited value changes only its bytes, an array that grew
//! (or a record added) places the arrays from it on the writer's way, after the others. A blob
//! kept as stored is written as stored only while its records are the ones it was read with (the
//! blob the writer makes from them has the recorded size and checksums); a database whose
//! records changed is written the writer's way (or by its placement, when it has one).
//! Padding is written back only inside a gap the layout still leaves.
//! Dropping the layout (`"layout"` removed from the JSON) writes the whole file the writer's way.
//!
//! A hostile layout cannot make the writer allocate without bound: the gaps it asks for, between
//! parts and inside blobs together, may add up to at most the bytes placed so far (64 KiB more),
//! or the model is refused; arrays placed over the records or over each other fall back to the
//! writer's placing.

use core::mem::size_of;

use zerocopy::little_endian::I64;

use super::blob_placement::BlobPlacement;
use crate::bytes::sink::invalid;
use crate::bytes::{Bytes, u64_of};
use crate::hash::murmur3_32;
use crate::wows::assets::model::AssetsBuilder;
use crate::wows::assets::raw::{
    BODY_BASE, BODY_DATABASES_PTR, BODY_PATHS, BODY_PATHS_PTR, BODY_R2P, BODY_R2P_BUCKETS_PTR,
    BODY_R2P_VALUES_PTR, BODY_STRING_DATA_PTR, BODY_STRINGS_BUCKETS_PTR, BODY_STRINGS_VALUES_PTR,
    BodyHeader, DatabaseEntry, PathEntry, PrototypeBucket, StringBucket,
};
use crate::wows::assets::{AssetsDb, Prototype, PrototypeType};
use crate::write_error::WriteResult as Result;

/// Where another writer placed the parts of a file (file offsets), and what the writer would
/// otherwise not write the same: the strings map's words, the visuals' node name maps, where the
/// out-of-line arrays of blobs laid out otherwise are, and (the last resort) blobs no placement
/// writes again, whole.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(deny_unknown_fields)
)]
pub struct FileLayout {
    /// The strings map's buckets (`offsetsMap`).
    pub string_buckets: usize,
    /// The strings map's values (pool offsets).
    pub string_values: usize,
    /// The string pool (`stringData`).
    pub string_pool: usize,
    /// The resource-to-prototype map's buckets.
    pub prototype_buckets: usize,
    /// The resource-to-prototype map's values.
    pub prototype_values: usize,
    /// The path table (`pathsStorage`).
    pub paths: usize,
    /// The path names, one after another in table order.
    pub path_names: usize,
    /// The database table.
    pub databases: usize,
    /// Each database's blob, in table order (a database added after the last has none: placed
    /// the writer's way).
    pub blobs: Vec<usize>,
    /// The file's length: zero bytes after the last blob up to it.
    pub end: usize,
    /// What the strings map's bucket words hold beside the occupied bit.
    pub string_words: StringWords,
    /// The order of the visuals' node name maps (absent in JSON: sorted).
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "NodeNameMaps::is_sorted")
    )]
    pub node_name_maps: NodeNameMaps,
    /// The bytes between parts that are not zero (a writer's fill), written back into the gaps
    /// the layout leaves.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Vec::is_empty")
    )]
    pub padding: Vec<Padding>,
    /// Where the out-of-line arrays are in the blobs of databases whose arrays the writer
    /// places otherwise (other alignment, other order), in table order.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Vec::is_empty")
    )]
    pub blob_placements: Vec<BlobPlacement>,
    /// The blobs of databases the writer would lay out otherwise and no [`BlobPlacement`]
    /// writes again byte for byte (records sharing arrays, bytes other than zero in the pads
    /// of records or arrays, ...), as stored: the last resort.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Vec::is_empty")
    )]
    pub stored_blobs: Vec<StoredBlob>,
}

/// What a strings map bucket's word holds in its low 31 bits (bit 31 marks it occupied).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(rename_all = "snake_case")
)]
pub enum StringWords {
    /// The string's position in the model's strings (this writer's choice).
    #[default]
    Order,
    /// The bucket's own slot (the independent sample's writer).
    Slot,
}

/// The order of a VisualPrototype's node name map (its name ids and node indices, parallel).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(rename_all = "snake_case")
)]
pub enum NodeNameMaps {
    /// Sorted by name id, for lookup (as the format is described; this writer's choice).
    #[default]
    Sorted,
    /// In node order (the independent sample's writer).
    Nodes,
}

impl NodeNameMaps {
    /// Whether this is [`Sorted`](Self::Sorted), the writer's own order.
    pub fn is_sorted(&self) -> bool {
        *self == NodeNameMaps::Sorted
    }

    /// The order of the node name maps of `view`'s visuals: in node order when a visual's map
    /// is in node order and not sorted (a map neither sorted nor in node order is not written
    /// the same either way: its blob is then kept as stored).
    pub(in crate::wows::assets) fn of(view: &AssetsDb<'_>) -> NodeNameMaps {
        for database in view.databases().iter().flatten() {
            // A raw database's record count is unchecked: never a loop bound.
            if database.kind() != Some(PrototypeType::Visual) || database.item_size().is_none() {
                continue;
            }
            for i in 0..database.record_count() {
                let Ok(Prototype::Visual(visual)) = database.prototype(i, view.strings()) else {
                    break;
                };
                let (Ok(names), Ok(nodes)) =
                    (visual.name_map_name_ids(), visual.name_map_node_ids())
                else {
                    break;
                };
                let pairs = || {
                    names
                        .iter()
                        .map(|n| n.get())
                        .zip(nodes.iter().map(|n| n.get()))
                };
                let sorted = pairs().zip(pairs().skip(1)).all(|(a, b)| a <= b);
                let in_node_order = nodes
                    .iter()
                    .enumerate()
                    .all(|(i, n)| usize::from(n.get()) == i);
                if in_node_order && !sorted {
                    return NodeNameMaps::Nodes;
                }
            }
        }
        NodeNameMaps::Sorted
    }
}

/// Bytes between two parts, as stored (when not all zero).
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(deny_unknown_fields)
)]
pub struct Padding {
    /// Where they start in the file.
    pub at: usize,
    /// The bytes (hex text in JSON).
    #[cfg_attr(feature = "serde", serde(with = "crate::serde_hex"))]
    pub bytes: Vec<u8>,
}

/// A database's blob as stored, written as is while the database's records are the ones it was
/// read with: the blob the writer makes from the records still has `records_size` bytes and
/// these checksums.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(deny_unknown_fields)
)]
pub struct StoredBlob {
    /// The database's position in the table.
    pub database: usize,
    /// The size of the blob the writer makes from the records.
    pub records_size: usize,
    /// Its MurmurHash3 (seed 0).
    #[cfg_attr(
        feature = "serde",
        serde(with = "crate::wows::assets::serde_ids::id32")
    )]
    pub records_murmur3: u32,
    /// Its CRC32.
    #[cfg_attr(
        feature = "serde",
        serde(with = "crate::wows::assets::serde_ids::id32")
    )]
    pub records_crc32: u32,
    /// The blob as stored (hex text in JSON).
    #[cfg_attr(feature = "serde", serde(with = "crate::serde_hex"))]
    pub blob: Vec<u8>,
}

impl StoredBlob {
    /// `stored` kept for database `database`, whose records the writer writes as `written`.
    pub(in crate::wows::assets) fn new(database: usize, written: &[u8], stored: &[u8]) -> Self {
        StoredBlob {
            database,
            records_size: written.len(),
            records_murmur3: murmur3_32(written, 0),
            records_crc32: crc32fast::hash(written),
            blob: stored.to_vec(),
        }
    }

    /// Whether `written` (the blob the writer makes from the records now) is the one this blob
    /// was kept for.
    pub(in crate::wows::assets) fn matches(&self, written: &[u8]) -> bool {
        written.len() == self.records_size
            && murmur3_32(written, 0) == self.records_murmur3
            && crc32fast::hash(written) == self.records_crc32
    }
}

impl FileLayout {
    /// The blob kept as stored for database `database`, if any.
    pub(in crate::wows::assets) fn stored_blob(&self, database: usize) -> Option<&StoredBlob> {
        // In increasing database order (`check` refuses any other): one search per database.
        let i = self
            .stored_blobs
            .binary_search_by_key(&database, |s| s.database)
            .ok()?;
        self.stored_blobs.get(i)
    }

    /// The placement of database `database`'s arrays, if any.
    pub(in crate::wows::assets) fn blob_placement(
        &self,
        database: usize,
    ) -> Option<&BlobPlacement> {
        let i = self
            .blob_placements
            .binary_search_by_key(&database, |p| p.database)
            .ok()?;
        self.blob_placements.get(i)
    }

    /// Refuses stored blobs and blob placements that are not one per database, in table order,
    /// of the `databases` the model has.
    pub(in crate::wows::assets) fn check(&self, databases: usize) -> Result<()> {
        in_table_order(
            self.stored_blobs.iter().map(|s| s.database),
            databases,
            "layout.stored_blobs.database",
        )?;
        in_table_order(
            self.blob_placements.iter().map(|p| p.database),
            databases,
            "layout.blob_placements.database",
        )
    }
}

/// Refuses `positions` that are not databases of the `databases` a model has, each after the
/// one before.
fn in_table_order(
    positions: impl Iterator<Item = usize>,
    databases: usize,
    what: &'static str,
) -> Result<()> {
    let mut next = 0;
    for database in positions {
        if database < next || database >= databases {
            return Err(invalid(
                what,
                u64_of(database),
                "not a database of the model, or not after the one kept before",
            ));
        }
        next = database + 1;
    }
    Ok(())
}

/// Where `part` starts in `file`, when it is a slice of it.
fn offset_in(file: &[u8], part: &[u8]) -> Option<usize> {
    let at = (part.as_ptr() as usize).checked_sub(file.as_ptr() as usize)?;
    (at.checked_add(part.len())? <= file.len()).then_some(at)
}

impl FileLayout {
    /// The layout of the file `view` reads, for the builder `b` made from it: `None` when it is
    /// the writer's own (every part right after the one before it, the words the strings'
    /// order, every blob the one the writer makes from its records).
    pub(in crate::wows::assets) fn of(
        view: &AssetsDb<'_>,
        b: &AssetsBuilder,
    ) -> Result<Option<FileLayout>> {
        let file = view.as_bytes();
        let h = view.body_header();
        // The reader's own resolution (it opened the file, so none of these fails).
        let at = |field: usize, base: usize, ptr: &I64, what| {
            Bytes::new(file).resolve(BODY_BASE + field, BODY_BASE + base, ptr.get(), what)
        };
        let string_buckets = at(
            BODY_STRINGS_BUCKETS_PTR,
            0,
            &h.strings_buckets_ptr,
            "offsetsMap.buckets",
        )?;
        let string_values = at(
            BODY_STRINGS_VALUES_PTR,
            0,
            &h.strings_values_ptr,
            "offsetsMap.values",
        )?;
        let string_pool = at(BODY_STRING_DATA_PTR, 0, &h.string_data_ptr, "stringData")?;
        let prototype_buckets = at(
            BODY_R2P_BUCKETS_PTR,
            BODY_R2P,
            &h.r2p_buckets_ptr,
            "resourceToPrototypeMap.buckets",
        )?;
        let prototype_values = at(
            BODY_R2P_VALUES_PTR,
            BODY_R2P,
            &h.r2p_values_ptr,
            "resourceToPrototypeMap.values",
        )?;
        let paths = at(
            BODY_PATHS_PTR,
            BODY_PATHS,
            &h.paths_ptr,
            "pathsStorage.data",
        )?;
        let databases = at(BODY_DATABASES_PTR, 0, &h.databases_ptr, "databases")?;
        let path_count = view.paths().len();
        let path_names = match view.paths().get(0) {
            Some(first) => offset_in(file, first.name_bytes()?),
            None => None,
        }
        .unwrap_or(paths.saturating_add(path_count.saturating_mul(size_of::<PathEntry>())));

        let mut blobs = Vec::new();
        let mut blob_placements = Vec::new();
        let mut stored_blobs = Vec::new();
        for (i, database) in view.databases().iter().enumerate() {
            let database = database?;
            blobs.push(database.blob_offset());
            let Some(built) = b.blobs.get(i).filter(|built| built.raw.is_none()) else {
                continue;
            };
            let written = built.finish()?;
            if written != database.blob() {
                match BlobPlacement::of(i, built, database.blob()) {
                    Some(placement) => blob_placements.push(placement),
                    None => stored_blobs.push(StoredBlob::new(i, &written, database.blob())),
                }
            }
        }

        // Each bucket's word: the string's order, or its slot.
        let buckets_at = string_buckets;
        let orders: std::collections::HashMap<u32, usize> = b
            .string_order
            .iter()
            .enumerate()
            .map(|(order, &id)| (id, order))
            .collect();
        let mut by_order = true;
        let mut by_slot = true;
        for (bucket_at, key, word, _) in view.strings().slots() {
            let slot = bucket_at.saturating_sub(buckets_at) / size_of::<StringBucket>();
            let order = orders.get(&key);
            by_order &= order.is_some_and(|&o| u64_of(o) == u64::from(word & 0x7FFF_FFFF));
            by_slot &= u64_of(slot) == u64::from(word & 0x7FFF_FFFF);
        }
        let string_words = if by_slot && !by_order {
            StringWords::Slot
        } else {
            StringWords::Order
        };

        let layout = FileLayout {
            string_buckets,
            string_values,
            string_pool,
            prototype_buckets,
            prototype_values,
            paths,
            path_names,
            databases,
            blobs,
            end: file.len(),
            string_words,
            node_name_maps: b.node_name_maps,
            padding: Vec::new(),
            blob_placements,
            stored_blobs,
        };
        let mut layout = layout;
        // What lies between the parts, when it is not zeros.
        let parts = layout.parts(view);
        for pair in parts.windows(2) {
            let &[(at, size), (next, _)] = pair else {
                continue;
            };
            let gap_at = at.saturating_add(size);
            if let Some(gap) = file.get(gap_at..next).filter(|g| g.iter().any(|&b| b != 0)) {
                layout.padding.push(Padding {
                    at: gap_at,
                    bytes: gap.to_vec(),
                });
            }
        }
        Ok((!layout.is_own(view)).then_some(layout))
    }

    /// Whether every part starts right after the one before it (the writer's own placing), the
    /// words are the strings' order and no blob is kept as stored.
    fn is_own(&self, view: &AssetsDb<'_>) -> bool {
        let mut next = BODY_BASE + size_of::<BodyHeader>();
        for (at, size) in self.parts(view) {
            if at != next {
                return false;
            }
            next = at.saturating_add(size);
        }
        self.string_words == StringWords::Order
            && self.node_name_maps.is_sorted()
            && self.stored_blobs.is_empty()
            && self.blob_placements.is_empty()
            && self.padding.is_empty()
    }

    /// Each part's (offset, size) in file order as the layout places them, the end last.
    fn parts(&self, view: &AssetsDb<'_>) -> Vec<(usize, usize)> {
        let strings = view.strings();
        let r2p = view.prototypes().capacity();
        let names: usize = view
            .paths()
            .iter()
            .map(|p| p.name_size() as usize)
            .fold(0, usize::saturating_add);
        let size = |n: usize, each: usize| n.saturating_mul(each);
        let mut parts = vec![
            (
                self.string_buckets,
                size(strings.capacity(), size_of::<StringBucket>()),
            ),
            (self.string_values, size(strings.capacity(), 4)),
            (self.string_pool, strings.pool().len()),
            (
                self.prototype_buckets,
                size(r2p, size_of::<PrototypeBucket>()),
            ),
            (self.prototype_values, size(r2p, 4)),
            (self.paths, size(view.paths().len(), size_of::<PathEntry>())),
            (self.path_names, names),
            (
                self.databases,
                size(view.databases().len(), size_of::<DatabaseEntry>()),
            ),
        ];
        for (blob, database) in self.blobs.iter().zip(view.databases().iter()) {
            parts.push((*blob, database.map_or(0, |d| d.blob().len())));
        }
        parts.push((self.end, 0));
        parts
    }
}

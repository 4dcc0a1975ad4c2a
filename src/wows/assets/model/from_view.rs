//! [`AssetsBuilder::from_view`]: the builder of an existing file, every part it stores added
//! again in an order that rebuilds the same tables.

use std::collections::HashMap;

use super::{AssetsBuilder, ChecksumKind, FileLayout, NodeNameMaps};
use crate::bytes::u64_of;
use crate::error::Error;
use crate::hash::murmur3_32;
use crate::wows::assets::write::Blob;
use crate::wows::assets::{AssetsDb, ChecksumMatch, PathIndex, Prototype, PrototypeFields};
use crate::write_error::WriteResult;

impl AssetsBuilder {
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
    /// Where the file's parts start, the strings map's words (the strings' order or their
    /// slots), the order of the visuals' node name maps and where the out-of-line arrays are in
    /// the blobs the writer would lay out otherwise are kept as its
    /// [`FileLayout`] when they are not the writer's own (see [`AssetsModel`](super::AssetsModel)
    /// for what is still laid out the writer's way). The strings are added in the pool's order.
    /// Hash map entries are added again in an order that puts each one back in its slot when
    /// the map was filled by linear probing.
    ///
    /// Refused, with an error naming the structure, the field and its file offset: whatever the
    /// reader refuses (a pointer outside the file, a list past its database, …); a string whose
    /// name id is not its MurmurHash3, or a name id stored twice; a record naming an id the
    /// strings map lacks (records are written from their names); a path name that is not UTF-8;
    /// strings or records that share bytes in the file so much that, written out one by one, they
    /// would be larger than the file.
    ///
    /// ```
    /// # fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// use gamebin::wows::assets::{AssetsDb, EffectPresetFields, PrototypeType};
    /// use gamebin::synth::assets::example_file;
    /// use gamebin::wows::assets::model::AssetsBuilder;
    ///
    /// let file = example_file();
    /// let view = AssetsDb::from_bytes(&file)?;
    /// let builder = AssetsBuilder::from_view(&view)?;
    /// assert_eq!(builder.to_bytes()?, file); // written again, byte for byte
    ///
    /// // Changed, then written: the new record beside every old one.
    /// let mut builder = AssetsBuilder::from_view(&view)?;
    /// let id = builder.path("content/effects/smoke.preset")?;
    /// builder.prototype(id, EffectPresetFields { high_id: 7, low_id: 8 })?;
    /// let bytes = builder.to_bytes()?;
    /// let changed = AssetsDb::from_bytes(&bytes)?;
    /// let presets = changed.database(PrototypeType::EffectPreset)?.expect("presets");
    /// assert_eq!(presets.record_count(), 2);
    /// assert!(changed.lookup_path("content/gameplay/Test.visual")?.is_some());
    /// # Ok(())
    /// # }
    /// ```
    pub fn from_view(view: &AssetsDb<'_>) -> WriteResult<AssetsBuilder> {
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
            layout: None,
            node_name_maps: NodeNameMaps::of(view),
        };
        b.strings_from(view)?;
        b.paths_from(view)?;
        b.prototypes_from(view)?;
        b.databases_from(view)?;
        b.layout = FileLayout::of(view, &b)?;
        Ok(b)
    }

    /// The strings map's strings, added in the order of the pool (for a file this writer made,
    /// the order of their buckets' words too), which rebuilds the pool and the slots.
    fn strings_from(&mut self, view: &AssetsDb<'_>) -> WriteResult<()> {
        let pool = view.strings().pool().as_ptr() as usize;
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
                )
                .into());
            }
            // Strings may share bytes in a pool; written one after another they must still fit
            // in what a file of this size can hold.
            total = total.saturating_add(text.len() + 1);
            within_file(view, total, at, "stringData")?;
            // Where the string is in the pool (the reader hands out slices of it).
            let in_pool = (text.as_ptr() as usize).wrapping_sub(pool);
            slots.push((in_pool, word & 0x7FFF_FFFF, at, key, text));
        }
        slots.sort_unstable_by_key(|&(in_pool, order, at, _, _)| (in_pool, order, at));
        for (_, _, at, key, text) in slots {
            if self.strings.contains_key(&key) {
                return Err(Error::invalid(
                    u64_of(at),
                    "offsetsMap.key",
                    u64::from(key),
                    "a second bucket holds this name id",
                )
                .into());
            }
            self.string(text);
        }
        Ok(())
    }

    /// The path entries in table order, and the full path of each (when its parent chain
    /// resolves) for [`path`](Self::path) to find.
    fn paths_from(&mut self, view: &AssetsDb<'_>) -> WriteResult<()> {
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
    fn prototypes_from(&mut self, view: &AssetsDb<'_>) -> WriteResult<()> {
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
    fn databases_from(&mut self, view: &AssetsDb<'_>) -> WriteResult<()> {
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
                self.encode_record(view, index, record).map_err(|e| {
                    e.at_index(i)
                        .in_field("records")
                        .at_index(index)
                        .in_field("databases")
                        .about(format_args!("the file's record at {at:#010x}"))
                })?;
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
        view: &AssetsDb<'_>,
        database: usize,
        record: Prototype<'_>,
    ) -> WriteResult<usize> {
        let read = PrototypeFields::read(view, record)?;
        self.encode_fields(database, read)
    }
}

/// Refuses `written` bytes made from a view (parts it shares, written out one by one) that are
/// more than the whole file: `what`, at `at`, would make an output many times its input.
fn within_file(
    view: &AssetsDb<'_>,
    written: usize,
    at: usize,
    what: &'static str,
) -> WriteResult<()> {
    if written > view.as_bytes().len() {
        return Err(Error::invalid(
            u64_of(at),
            what,
            u64_of(written),
            "written out one by one (parts the file shares copied), larger than the file",
        )
        .into());
    }
    Ok(())
}

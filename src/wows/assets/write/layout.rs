//! The file's layout: the header, the body header and the sections after it in the seed's order
//! (each where the model's [`FileLayout`](super::FileLayout) places it, while it can), each
//! pointer relative to where the format measures it from, then the checksum over the body.

use core::mem::{offset_of, size_of};

use super::placer::Placer;
use super::pointer;
use crate::bytes::sink::{Sink, narrow};
use crate::hash::murmur3_32;
use crate::wows::assets::model::{AssetsBuilder, ChecksumKind};
use crate::wows::assets::raw::{
    BODY_PATHS, BODY_R2P, BodyHeader, DatabaseEntry, Header, PathEntry,
};
use crate::wows::assets::{ARCHITECTURE, MAGIC, VERSION};
use crate::write_error::WriteResult as Result;
use zerocopy::little_endian::{U16, U32, U64};

impl AssetsBuilder {
    /// The file's bytes.
    pub fn to_bytes(&self) -> Result<Vec<u8>> {
        let (strings_cap, string_buckets, string_values) = self.strings_map()?;
        let (r2p_cap, r2p_buckets, r2p_values) = self.prototypes_map()?;

        // Layout, in the seed's order: header, body header, strings map, string pool,
        // resource-to-prototype map, path entries, their names, database entries, blobs.
        let mut out = Sink::new();
        let header_slot = out.reserve::<Header>(1, "Header")?;
        let body = out.len();
        let body_slot = out.reserve::<BodyHeader>(1, "BodyHeader")?;
        // Each part where the model's layout places it, while it can (see `file_layout`).
        let layout = self.layout.as_ref();
        let mut place = Placer::new(layout, layout.map_or(&[][..], |l| l.padding.as_slice()));
        let string_buckets_at = place.put(
            &mut out,
            |l| Some(l.string_buckets),
            string_buckets.as_slice(),
            "layout.string_buckets",
        )?;
        let string_values_at = place.put(
            &mut out,
            |l| Some(l.string_values),
            string_values.as_slice(),
            "layout.string_values",
        )?;
        let pool_at = place.put(
            &mut out,
            |l| Some(l.string_pool),
            self.pool.as_slice(),
            "layout.string_pool",
        )?;
        let r2p_buckets_at = place.put(
            &mut out,
            |l| Some(l.prototype_buckets),
            r2p_buckets.as_slice(),
            "layout.prototype_buckets",
        )?;
        let r2p_values_at = place.put(
            &mut out,
            |l| Some(l.prototype_values),
            r2p_values.as_slice(),
            "layout.prototype_values",
        )?;
        let size = |items: usize, each: usize| items.saturating_mul(each);
        place.place(
            &mut out,
            |l| Some(l.paths),
            size(self.paths.len(), size_of::<PathEntry>()),
            "layout.paths",
        )?;
        let paths = out.reserve::<PathEntry>(self.paths.len(), "PathEntry")?;
        let names: usize = self.paths.iter().map(|p| p.2.len() + 1).sum();
        place.place(&mut out, |l| Some(l.path_names), names, "layout.path_names")?;
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
        place.place(
            &mut out,
            |l| Some(l.databases),
            size(self.blobs.len(), size_of::<DatabaseEntry>()),
            "layout.databases",
        )?;
        let databases = out.reserve::<DatabaseEntry>(self.blobs.len(), "DatabaseEntry")?;
        for (i, b) in self.blobs.iter().enumerate() {
            // The blob as stored while its records are unchanged (its bytes point only inside
            // it: right wherever it is placed), else its arrays where the layout places them.
            let kept = match layout.and_then(|l| l.stored_blob(i)) {
                Some(stored) if stored.matches(&b.finish()?) => Some(stored.blob.as_slice()),
                _ => None,
            };
            let placed;
            let blob = match kept {
                Some(kept) => kept,
                None => {
                    let placement = layout.and_then(|l| l.blob_placement(i));
                    let padding = placement.map_or(&[][..], |p| p.padding.as_slice());
                    let mut inner = place.nested(placement, padding, out.len());
                    placed = b.finish_placed(&mut inner)?;
                    place.absorb(&inner);
                    placed.as_slice()
                }
            };
            b.check_read_item_size(blob)
                .map_err(|e| e.at_index(i).in_field("databases"))?;
            let blob_at = place.put(&mut out, |l| l.blobs.get(i).copied(), blob, "layout.blobs")?;
            let entry = DatabaseEntry {
                magic: U32::new(b.magic),
                schema_hash: U32::new(b.schema_hash),
                size: U32::new(narrow(blob.len(), "DatabaseEntry.size")?),
                pad: U32::new(0),
                data_ptr: pointer(databases.record(i)?, blob_at, "DatabaseEntry.data")?,
            };
            out.patch_record(&databases, i, &entry)?;
        }
        place.place(&mut out, |l| Some(l.end), 0, "layout.end")?;
        place.pad(&mut out, "layout.padding")?;
        // The r2p and paths pointers are relative to their {count, ptr} pairs in the body header.
        let r2p = body + BODY_R2P;
        let paths_base = body + BODY_PATHS;
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

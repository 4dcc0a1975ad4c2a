//! [`BlobPlacement`]: where another writer placed a database blob's out-of-line arrays, found by
//! following the blob's own pointers, so that a blob laid out otherwise than the writer's way
//! is described by a few offsets rather than kept whole.

use core::mem::size_of;

use zerocopy::little_endian::I64;

use super::blob::{Blob, Holder};
use super::file_layout::Padding;
use super::placer::Placer;
use crate::bytes::Bytes;
use crate::wows::assets::raw::BlobHeader;

/// Where another writer placed a database's out-of-line arrays inside its blob (offsets from
/// the blob's start; the records always follow the blob's header). The arrays are numbered in
/// the order the writer makes them from the records: each record's arrays in the order of its
/// pointer fields, a table of structs before the arrays its structs point at.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(deny_unknown_fields)
)]
pub struct BlobPlacement {
    /// The database's position in the table.
    pub database: usize,
    /// Each array's offset in the blob. An array is placed there while every array placed
    /// before it (in offset order) ends there or before; from the first one that does not fit
    /// (an array grew, a record was added), the rest are placed the writer's way after them.
    pub arrays: Vec<usize>,
    /// The blob's length: zero bytes after the last array up to it.
    pub end: usize,
    /// The bytes between the records and the arrays, or between arrays, that are not zero,
    /// written back into the gaps the placement leaves (`at` counted from the blob's start).
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Vec::is_empty")
    )]
    pub padding: Vec<Padding>,
}

impl BlobPlacement {
    /// The order in which `blob`'s arrays are placed: by their offsets here (an array numbered
    /// past this placement's, from a record added, last, in the writer's order).
    pub(super) fn order(&self, blob: &Blob) -> Vec<usize> {
        let mut order: Vec<usize> = (0..blob.arrays.len()).collect();
        order.sort_by_key(|&k| (self.arrays.get(k).copied().unwrap_or(usize::MAX), k));
        order
    }

    /// The placement of `stored` (database `database`'s blob as stored) for `blob` (the same
    /// records, encoded): each array's offset found through the stored pointers, those of the
    /// record area first, then those inside the arrays already found. `None` where the stored
    /// blob does not follow the records' pointers to one array each, inside the blob, after
    /// the records and apart from each other, or where the placement does not write `stored`
    /// again byte for byte.
    pub(super) fn of(database: usize, blob: &Blob, stored: &[u8]) -> Option<BlobPlacement> {
        let bytes = Bytes::new(stored);
        let records_at = size_of::<BlobHeader>();
        let records_end = records_at.checked_add(blob.records.len())?;
        bytes.slice(0, records_end, "Database.records").ok()?;
        let mut found: Vec<Option<usize>> = vec![None; blob.arrays.len()];
        // An array's pointers are made after the pointer to it: the holder is found first.
        for p in &blob.pointers {
            let holder = match p.holder {
                Holder::Records => records_at,
                Holder::Array(h) => (*found.get(h)?)?,
            };
            let field = holder.checked_add(p.field)?;
            let base = holder.checked_add(p.base)?;
            let rel = bytes.read::<I64>(field, "blob pointer").ok()?.get();
            let target = bytes.resolve(field, base, rel, "blob pointer").ok()?;
            let len = blob.arrays.get(p.target)?.len;
            bytes.slice(target, len, "out-of-line array").ok()?;
            let slot = found.get_mut(p.target)?;
            if target < records_end || slot.replace(target).is_some() {
                return None;
            }
        }
        let arrays: Vec<usize> = found.into_iter().collect::<Option<_>>()?;
        let mut spans: Vec<(usize, usize)> = arrays
            .iter()
            .zip(&blob.arrays)
            .map(|(&at, a)| (at, at.saturating_add(a.len)))
            .collect();
        spans.sort_unstable();
        spans.push((stored.len(), stored.len()));
        // The gaps between records and arrays: an overlap has none (and is refused).
        let mut padding = Vec::new();
        let mut end = records_end;
        for (at, stop) in spans {
            let gap = stored.get(end..at)?;
            if gap.iter().any(|&b| b != 0) {
                padding.push(Padding {
                    at: end,
                    bytes: gap.to_vec(),
                });
            }
            end = stop;
        }
        let placement = BlobPlacement {
            database,
            arrays,
            end: stored.len(),
            padding,
        };
        let again = blob.finish_placed(&mut Placer::new(Some(&placement), &placement.padding));
        again
            .is_ok_and(|again| again == stored)
            .then_some(placement)
    }
}

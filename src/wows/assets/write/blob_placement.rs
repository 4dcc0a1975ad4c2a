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
    pub(in crate::wows::assets) fn order(&self, blob: &Blob) -> Vec<usize> {
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
    pub(in crate::wows::assets) fn of(
        database: usize,
        blob: &Blob,
        stored: &[u8],
    ) -> Option<BlobPlacement> {
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

#[cfg(test)]
mod tests {
    use core::mem::offset_of;

    use super::*;
    use crate::wows::assets::model::NodeNameMaps;
    use crate::wows::assets::raw::MaterialPrototype;
    use crate::wows::assets::records::EncodeRecord;
    use crate::wows::assets::{MaterialFields, PropertyFields, PropertyValue};

    /// A material database of one record with two properties: four out-of-line arrays (names,
    /// ids, the texture and the float values).
    fn material() -> Blob {
        let property = |name: &str, value: PropertyValue| PropertyFields {
            name: Some(name.into()),
            kind: value.type_name(),
            value,
        };
        let fields = MaterialFields {
            properties: vec![
                property("a", PropertyValue::Texture(5)),
                property("b", PropertyValue::Float(1.5)),
            ],
            ..MaterialFields::default()
        };
        let mut blob = Blob::new(0, 0, size_of::<MaterialPrototype>());
        fields.encode(&mut blob, NodeNameMaps::Sorted).unwrap();
        blob
    }

    const RECORD: usize = size_of::<BlobHeader>();

    /// The record's pointer fields that hold a pointer (not null).
    fn pointer_fields(bytes: &[u8]) -> Vec<usize> {
        let first = offset_of!(MaterialPrototype, property_name_ids_ptr);
        let last = offset_of!(MaterialPrototype, fx_path_id);
        (first..last)
            .step_by(8)
            .map(|field| RECORD + field)
            .filter(|&at| bytes[at..at + 8] != [0; 8])
            .collect()
    }

    fn add(bytes: &mut [u8], at: usize, by: i64) {
        let value = i64::from_le_bytes(bytes[at..at + 8].try_into().unwrap()) + by;
        bytes[at..at + 8].copy_from_slice(&value.to_le_bytes());
    }

    #[test]
    fn the_writers_own_blob_is_placed_where_the_writer_puts_its_arrays() {
        let blob = material();
        let own = blob.finish().unwrap();
        let placement = BlobPlacement::of(3, &blob, &own).unwrap();
        let ool_at = (RECORD + blob.records.len()).next_multiple_of(8);
        let offsets: Vec<usize> = blob.arrays.iter().map(|a| ool_at + a.at).collect();
        assert_eq!(placement.arrays, offsets);
        assert_eq!(placement.arrays.len(), 4);
        assert_eq!((placement.database, placement.end), (3, own.len()));
        assert!(placement.padding.is_empty());
    }

    /// Four bytes of 0xEE inserted between the records and the arrays, the record's pointers
    /// moved by hand: the arrays are found four bytes on, the fill kept as padding.
    #[test]
    fn moved_arrays_are_found_through_the_stored_pointers() {
        let blob = material();
        let own = blob.finish().unwrap();
        let records_end = RECORD + blob.records.len();
        let mut moved = own[..records_end].to_vec();
        moved.extend_from_slice(&[0xEE; 4]);
        moved.extend_from_slice(&own[records_end..]);
        for at in pointer_fields(&own) {
            add(&mut moved, at, 4);
        }
        let placement = BlobPlacement::of(0, &blob, &moved).unwrap();
        let own_placement = BlobPlacement::of(0, &blob, &own).unwrap();
        let shifted: Vec<usize> = own_placement.arrays.iter().map(|a| a + 4).collect();
        assert_eq!(placement.arrays, shifted);
        assert_eq!(
            placement.padding,
            [Padding {
                at: records_end,
                bytes: vec![0xEE; 4]
            }]
        );
    }

    /// Stored pointers that lead nowhere a placement can describe give no placement (the blob
    /// is then kept whole): into the records, two to one array, out of the blob, a cut blob.
    #[test]
    fn pointers_that_lead_nowhere_give_no_placement() {
        let blob = material();
        let own = blob.finish().unwrap();
        let fields = pointer_fields(&own);
        let (first, second) = (fields[0], fields[1]);
        let mut into_records = own.clone();
        add(&mut into_records, first, -100);
        let mut shared = own.clone();
        let target = i64::from_le_bytes(own[first..first + 8].try_into().unwrap());
        shared[second..second + 8].copy_from_slice(&target.to_le_bytes());
        let mut outside = own.clone();
        outside[first..first + 8].copy_from_slice(&i64::MAX.to_le_bytes());
        let mut overlapping = own.clone();
        add(&mut overlapping, second, -2);
        for stored in [
            into_records,
            shared,
            outside,
            overlapping,
            own[..own.len() - 1].to_vec(),
            own[..RECORD].to_vec(),
            Vec::new(),
        ] {
            assert_eq!(BlobPlacement::of(0, &blob, &stored), None);
        }
    }
}

//! The id table of an install: every name of every index, sorted by id, found in one or two
//! memory reads.
//!
//! Ids are CityHash64 values, spread evenly over 64 bits, so the table is cut into 65,536
//! buckets by an id's top 16 bits: a directory of where each bucket starts (256 KB), and the
//! entries, each 14 bytes (the id's low 48 bits — the top 16 are the bucket's —, its name record
//! and its file record). At a real install's 421,000 names a bucket holds about six entries: a
//! lookup reads the directory and one or two cache lines of entries, and scans them. Uneven ids
//! cost only time (a longer scan, binary from 16 entries), never correctness.

use zerocopy::little_endian::U32;
use zerocopy::{FromBytes, Immutable, IntoBytes, KnownLayout, Unaligned};

/// "No file record": a directory, before it is given its place in the folder table.
pub(super) const NO_FILE: u32 = u32::MAX;

/// The top bit of a slot's `file`: set, the name is a folder and the other bits are its position
/// in the folder table; clear, they are its file record. File records are therefore fewer than
/// 2^31 (the install refuses more).
pub(super) const FOLDER: u32 = 1 << 31;

/// Buckets of the directory: one per value of an id's top 16 bits.
const BUCKETS: usize = 1 << 16;

/// One name of the install: its id, its name record and its file record, each numbered across
/// all indexes (an index's records follow those of the indexes before it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(super) struct Slot {
    pub id: u64,
    pub name: u32,
    pub file: u32,
}

impl Slot {
    /// Whether the name is a folder (no file record).
    #[inline]
    pub fn is_folder(&self) -> bool {
        self.file & FOLDER != 0
    }

    /// The folder's position in the folder table (meaningful for a folder only).
    #[inline]
    pub fn folder(&self) -> u32 {
        self.file & !FOLDER
    }
}

/// A slot as the table keeps it: 14 bytes, alignment 1.
#[derive(Debug, Clone, Copy, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
struct Packed {
    low: [u8; 6],
    name: U32,
    file: U32,
}

impl Packed {
    /// The id's low 48 bits: the first eight bytes of the slot read as one word (one load where
    /// six byte loads were put together), `name`'s two first masked.
    #[inline]
    fn low(&self) -> u64 {
        let word = (self.as_bytes().get(..8)).and_then(|b| <[u8; 8]>::try_from(b).ok());
        word.map_or(0, u64::from_le_bytes) & ((1 << 48) - 1)
    }

    #[inline]
    fn slot(&self, bucket: usize) -> Slot {
        Slot {
            id: (bucket as u64) << 48 | self.low(),
            name: self.name.get(),
            file: self.file.get(),
        }
    }
}

/// The bucket directory and the packed slots.
#[derive(Debug, Default)]
pub(super) struct EntryIndex {
    /// Where bucket `b`'s slots start; `starts[b + 1]` where they end (`BUCKETS + 1` values).
    starts: Vec<u32>,
    slots: Vec<Packed>,
}

impl EntryIndex {
    /// The table of `slots`, which must be sorted by id with no id twice, and fewer than 2^32.
    pub fn new(slots: &[Slot]) -> EntryIndex {
        debug_assert!(slots.windows(2).all(|w| w[0].id < w[1].id));
        let mut starts = Vec::with_capacity(BUCKETS + 1);
        let mut packed = Vec::with_capacity(slots.len());
        for slot in slots {
            let bucket = (slot.id >> 48) as usize;
            while starts.len() <= bucket {
                starts.push(packed.len() as u32);
            }
            let low = slot.id.to_le_bytes();
            packed.push(Packed {
                low: [low[0], low[1], low[2], low[3], low[4], low[5]],
                name: slot.name.into(),
                file: slot.file.into(),
            });
        }
        while starts.len() <= BUCKETS {
            starts.push(packed.len() as u32);
        }
        EntryIndex {
            starts,
            slots: packed,
        }
    }

    pub fn len(&self) -> usize {
        self.slots.len()
    }

    /// Heap bytes held.
    pub fn heap_bytes(&self) -> usize {
        self.slots.capacity() * size_of::<Packed>() + self.starts.capacity() * size_of::<u32>()
    }

    /// The slots of bucket `bucket`.
    #[inline]
    fn bucket(&self, bucket: usize) -> &[Packed] {
        let start = self.starts.get(bucket).copied().unwrap_or(0) as usize;
        let end = self.starts.get(bucket + 1).copied().unwrap_or(0) as usize;
        self.slots.get(start..end).unwrap_or(&[])
    }

    /// Starts reading the slots of `id`'s bucket without waiting for them: a lookup that will
    /// probe several ids calls this for each first, so that their cache misses overlap instead
    /// of following each other (a scan's exit, taken on the slots' values, is a branch the
    /// processor guesses wrong often enough to stop the reads behind it).
    #[inline]
    pub fn prefetch(&self, id: u64) {
        // A load whose value is kept (not branched on) goes on while the next instructions run.
        core::hint::black_box(self.bucket((id >> 48) as usize).first().map(|s| s.low[0]));
    }

    /// The slot of `id`.
    #[inline]
    pub fn find(&self, id: u64) -> Option<Slot> {
        let bucket = (id >> 48) as usize;
        let slots = self.bucket(bucket);
        let low = id & ((1 << 48) - 1);
        let found = if slots.len() <= 16 {
            slots.iter().find(|s| s.low() == low)
        } else {
            slots
                .binary_search_by_key(&low, Packed::low)
                .ok()
                .and_then(|i| slots.get(i))
        };
        found.map(|s| s.slot(bucket))
    }

    /// Every slot, in id order.
    pub fn iter(&self) -> impl Iterator<Item = Slot> + '_ {
        (0..BUCKETS.min(self.starts.len().saturating_sub(1)))
            .flat_map(move |b| self.bucket(b).iter().map(move |s| s.slot(b)))
    }
}

/// Sorts `items` whose keys are spread evenly over 64 bits, in time linear in their number: a
/// counting sort into the table's buckets by `top16` (the key's top 16 bits), then each bucket
/// (a handful of items) sorted on its own. About four times faster than a comparison sort at a
/// real install's 421,000 names, which is most of opening one.
pub(super) fn sort_by_buckets<T: Copy + Ord>(items: &mut Vec<T>, top16: impl Fn(&T) -> usize) {
    let mut starts = vec![0usize; BUCKETS + 1];
    for item in items.iter() {
        starts[top16(item) + 1] += 1;
    }
    for b in 0..BUCKETS {
        starts[b + 1] += starts[b];
    }
    let Some(&first) = items.first() else {
        return;
    };
    let mut sorted = vec![first; items.len()];
    let mut next = starts.clone();
    for &item in items.iter() {
        let b = top16(&item);
        sorted[next[b]] = item;
        next[b] += 1;
    }
    for b in 0..BUCKETS {
        sorted[starts[b]..starts[b + 1]].sort_unstable();
    }
    *items = sorted;
}

#[cfg(test)]
mod tests {
    use super::*;

    fn index(ids: impl IntoIterator<Item = u64>) -> (EntryIndex, Vec<Slot>) {
        let mut slots: Vec<Slot> = ids
            .into_iter()
            .enumerate()
            .map(|(i, id)| Slot {
                id,
                name: i as u32,
                file: NO_FILE,
            })
            .collect();
        slots.sort_unstable_by_key(|s| s.id);
        slots.dedup_by_key(|s| s.id);
        (EntryIndex::new(&slots), slots)
    }

    #[test]
    fn finds_every_id_and_no_other_on_even_and_skewed_ids() {
        let even = index((0..5000u64).map(|i| crate::hash::city_hash_64(&i.to_le_bytes())));
        // All in bucket 0 (binary search), and at both ends of the id space.
        let skewed = index(
            (0..5000u64)
                .map(|i| i * i * i)
                .chain([u64::MAX, u64::MAX - 1]),
        );
        let tiny = index([3, 9]);
        for (table, slots) in [&even, &skewed, &tiny] {
            assert_eq!(table.iter().collect::<Vec<_>>(), *slots);
            for slot in slots {
                assert_eq!(table.find(slot.id), Some(*slot));
                for near in [slot.id.wrapping_add(1), slot.id.wrapping_sub(1)] {
                    if slots.binary_search_by_key(&near, |s| s.id).is_err() {
                        assert_eq!(table.find(near), None);
                    }
                }
            }
        }
        assert_eq!(EntryIndex::default().find(0), None);
        assert_eq!(EntryIndex::new(&[]).find(7), None);
        assert_eq!(size_of::<Packed>(), 14);
    }

    #[test]
    fn the_bucket_sort_sorts() {
        let mut items: Vec<(u64, u32)> = (0..20_000u32)
            .map(|i| (crate::hash::city_hash_64(&(i % 15_000).to_le_bytes()), i))
            .chain([(0, 1), (u64::MAX, 0), (0, 0)])
            .collect();
        let mut expected = items.clone();
        expected.sort_unstable();
        sort_by_buckets(&mut items, |&(id, _)| (id >> 48) as usize);
        assert_eq!(items, expected);
        let mut empty: Vec<(u64, u32)> = Vec::new();
        sort_by_buckets(&mut empty, |&(id, _)| (id >> 48) as usize);
        assert!(empty.is_empty());
    }
}

//! A table from 64-bit ids to 32-bit values (an entry's position), built in linear time without
//! a hash map and found in one or two memory reads.
//!
//! The ids are hashes (CityHash64 of paths), spread evenly over 64 bits, so the table is cut into
//! 65,536 buckets by an id's top 16 bits: a directory of where each bucket starts (256 KB) and
//! the entries, 10 bytes each (the id's low 48 bits, the top 16 being the bucket's, and the value),
//! placed by a radix sort of two passes (by the top 8 bits, then by the next 8). At 246,000 ids a
//! bucket holds about four, scanned: a lookup reads the directory and one cache line of entries.
//! The whole table is under 3 MB at that size, so it stays in the second-level cache where a hash
//! map of 16-byte slots at its load factor (8 MB) does not. Ids that are not spread cost only time
//! (a longer bucket, searched by halves), never correctness.

use core::fmt;

use zerocopy::little_endian::{U32, U64};
use zerocopy::{FromBytes, Immutable, IntoBytes, KnownLayout, Unaligned};

/// Buckets of the directory: one per value of an id's top 16 bits.
const BUCKETS: usize = 1 << 16;

/// Partitions of the first placing pass: one per value of an id's top 8 bits.
const PARTITIONS: usize = 1 << 8;

/// Buckets in a partition.
const PER_PARTITION: usize = BUCKETS / PARTITIONS;

/// The largest partition sorted on the stack (20 KB): at 246,000 spread ids a partition holds
/// about 960. A larger one is sorted in place.
const STACKED: usize = 2048;

/// The longest bucket scanned; a longer one is sorted and searched by halves.
const SCANNED: usize = 16;

/// The bits of an id kept in an entry.
const LOW: u64 = (1 << 48) - 1;

/// An entry: 10 bytes, alignment 1.
#[derive(Debug, Clone, Copy, Default, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
struct Packed {
    low: [u8; 6],
    value: U32,
}

/// A pair between the two placing passes, in the caller's scratch: 12 bytes, alignment 1.
#[derive(Debug, Clone, Copy, Default, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
struct Pending {
    id: U64,
    value: U32,
}

impl Packed {
    #[inline]
    fn low(&self) -> u64 {
        let [a, b, c, d, e, f] = self.low;
        u64::from_le_bytes([a, b, c, d, e, f, 0, 0])
    }

    /// Holds `id` (its low 48 bits) and `value`, stored as two words: the id's six bytes with the
    /// value's two low ones, then its two high ones (where six byte stores and a word were 20
    /// instructions an entry, callgrind).
    #[inline]
    fn set(&mut self, id: u64, value: u32) {
        let (first, second) = self.as_mut_bytes().split_at_mut(8);
        first.copy_from_slice(&((id & LOW) | u64::from(value) << 48).to_le_bytes());
        second.copy_from_slice(&value.to_le_bytes()[2..]);
    }

    /// The order within a bucket: by id, then by value (so the smallest value of an id is first).
    fn key(&self) -> (u64, u32) {
        (self.low(), self.value.get())
    }
}

/// The directory and the entries.
#[derive(Clone, Default)]
pub(crate) struct IdTable {
    /// Where bucket `b`'s entries start; `starts[b + 1]` where they end (`BUCKETS + 1` values).
    starts: Vec<u32>,
    entries: Vec<Packed>,
}

impl fmt::Debug for IdTable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("IdTable")
            .field("ids", &self.entries.len())
            .finish_non_exhaustive()
    }
}

impl IdTable {
    /// The table of the `(id, value)` pairs `pairs` yields (asked twice: once to count, once to
    /// place them), fewer than 2^32 of them, in increasing order of value (as positions are); an
    /// id given more than once is found with its first value. `scratch` holds the pairs between
    /// the two placing passes: 12 bytes a pair, a caller's buffer it is about to fill anyway (the
    /// table allocates its own when `scratch` is shorter). Two allocations: the directory and the
    /// entries.
    ///
    /// The pairs are placed in two passes, as a radix sort does: first into 256 partitions by
    /// their top 8 bits (256 places written at a time, whose cache lines stay in cache), then each
    /// partition, about 1,000 pairs in a few kilobytes, sorted by the next 8 bits on the stack and
    /// appended to the table. Placing each pair straight into its bucket wrote to 65,536 places
    /// scattered over the whole table, each store a likely cache miss.
    pub fn build<I: Iterator<Item = (u64, u32)>>(
        pairs: impl Fn() -> I,
        scratch: &mut [u8],
    ) -> IdTable {
        let mut sizes = [0usize; PARTITIONS];
        let mut count = 0usize;
        for (id, _) in pairs() {
            if let Some(n) = sizes.get_mut(partition(id)) {
                *n += 1;
            }
            count += 1;
        }
        let mut heads = [0usize; PARTITIONS];
        let mut begin = 0;
        for (head, size) in heads.iter_mut().zip(sizes) {
            *head = begin;
            begin += size;
        }
        let mut own;
        let pending = match <[Pending]>::mut_from_prefix_with_elems(scratch, count) {
            Ok((pending, _)) => pending,
            Err(_) => {
                own = vec![Pending::default(); count];
                &mut own[..]
            }
        };
        for (id, value) in pairs().take(count) {
            let Some(head) = heads.get_mut(partition(id)) else {
                continue;
            };
            if let Some(slot) = pending.get_mut(*head) {
                *slot = Pending {
                    id: id.into(),
                    value: value.into(),
                };
            }
            *head += 1;
        }
        let mut starts = Vec::with_capacity(BUCKETS + 1);
        let mut entries = Vec::with_capacity(count);
        let mut sorted = [Packed::default(); STACKED];
        let mut begin = 0;
        for size in sizes {
            let part = pending.get_mut(begin..begin + size).unwrap_or_default();
            place(part, &mut sorted, &mut starts, &mut entries);
            begin += size;
        }
        starts.push(u32_of(entries.len()));
        // The entries of a bucket are in the order given, so a scan finds an id's first value
        // first; only a bucket too long to scan is sorted, for a search by halves (then by id and
        // value: the first value given is the smallest). No entry is removed: an id given twice
        // keeps its later entries, never found.
        for b in 0..BUCKETS {
            let start = starts.get(b).map_or(0, |&s| s as usize);
            let end = starts.get(b + 1).map_or(0, |&s| s as usize);
            if end - start > SCANNED {
                if let Some(bucket) = entries.get_mut(start..end) {
                    bucket.sort_unstable_by_key(Packed::key);
                }
            }
        }
        IdTable { starts, entries }
    }

    /// The value of `id`.
    #[inline]
    pub fn get(&self, id: u64) -> Option<u32> {
        let b = bucket(id);
        let start = *self.starts.get(b)? as usize;
        let end = *self.starts.get(b + 1)? as usize;
        let entries = self.entries.get(start..end)?;
        let low = id & LOW;
        let found = if entries.len() <= SCANNED {
            entries.iter().find(|e| e.low() == low)
        } else {
            let first = entries.partition_point(|e| e.low() < low);
            entries.get(first).filter(|e| e.low() == low)
        };
        found.map(|e| e.value.get())
    }
}

/// The bucket of `id`: its top 16 bits.
#[inline]
fn bucket(id: u64) -> usize {
    (id >> 48) as usize
}

/// The partition of `id`: its top 8 bits.
#[inline]
fn partition(id: u64) -> usize {
    (id >> 56) as usize
}

/// The bucket of `id` within its partition: the 8 bits below the partition's.
#[inline]
fn sub_bucket(id: u64) -> usize {
    (id >> 48) as usize & (PER_PARTITION - 1)
}

/// A position as the directory keeps it (the table holds fewer than 2^32 entries).
fn u32_of(position: usize) -> u32 {
    u32::try_from(position).unwrap_or(u32::MAX)
}

/// Appends one partition's pairs to `entries`, ordered by bucket and, within a bucket, as given,
/// and the partition's buckets' starts to `starts`.
fn place(
    part: &mut [Pending],
    sorted: &mut [Packed; STACKED],
    starts: &mut Vec<u32>,
    entries: &mut Vec<Packed>,
) {
    let base = entries.len();
    if part.len() <= STACKED {
        // A counting sort on the stack: stable, so a bucket keeps the order given.
        let mut at = [0usize; PER_PARTITION + 1];
        for pair in part.iter() {
            if let Some(n) = at.get_mut(sub_bucket(pair.id.get()) + 1) {
                *n += 1;
            }
        }
        for k in 0..PER_PARTITION {
            let before = at.get(k).copied().unwrap_or(0);
            if let Some(n) = at.get_mut(k + 1) {
                *n += before;
            }
        }
        starts.extend(at.iter().take(PER_PARTITION).map(|&k| u32_of(base + k)));
        for pair in part.iter() {
            let (id, value) = (pair.id.get(), pair.value.get());
            let Some(next) = at.get_mut(sub_bucket(id)) else {
                continue;
            };
            if let Some(entry) = sorted.get_mut(*next) {
                entry.set(id, value);
            }
            *next += 1;
        }
        entries.extend_from_slice(sorted.get(..part.len()).unwrap_or_default());
    } else {
        // Ids that are not spread: sorted in place, by bucket and then by value, which is the
        // order given.
        part.sort_unstable_by_key(|pair| (sub_bucket(pair.id.get()), pair.value.get()));
        let mut i = 0;
        for k in 0..PER_PARTITION {
            while part
                .get(i)
                .is_some_and(|pair| sub_bucket(pair.id.get()) < k)
            {
                i += 1;
            }
            starts.push(u32_of(base + i));
        }
        entries.extend(part.iter().map(|pair| {
            let mut entry = Packed::default();
            entry.set(pair.id.get(), pair.value.get());
            entry
        }));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn table(pairs: &[(u64, u32)]) -> IdTable {
        IdTable::build(|| pairs.iter().copied(), &mut [])
    }

    #[test]
    fn every_id_is_found_with_its_first_value_and_no_other_id() {
        let even: Vec<(u64, u32)> = (0..20_000u32)
            .map(|i| (crate::hash::city_hash_64(&(i % 15_000).to_le_bytes()), i))
            .collect();
        // All in bucket 0 (searched by halves), both ends of the id space, repeated ids.
        let skewed: Vec<(u64, u32)> = (0..5000u64)
            .map(|i| i * i * i % (1 << 40))
            .chain([u64::MAX, u64::MAX, 0, 0])
            .enumerate()
            .map(|(value, id)| (id, value as u32))
            .collect();
        for pairs in [&even[..], &skewed[..], &[(7, 1)][..], &[][..]] {
            let mut expected: HashMap<u64, u32> = HashMap::new();
            for &(id, value) in pairs {
                let kept = expected.entry(id).or_insert(value);
                *kept = (*kept).min(value);
            }
            let t = table(pairs);
            for (&id, &value) in &expected {
                assert_eq!(t.get(id), Some(value), "{id:#x}");
                for near in [id.wrapping_add(1), id.wrapping_sub(1), id ^ (1 << 50)] {
                    if !expected.contains_key(&near) {
                        assert_eq!(t.get(near), None, "{near:#x}");
                    }
                }
            }
        }
        assert_eq!(IdTable::default().get(0), None);
        assert_eq!(size_of::<Packed>(), 10);
    }

    /// A partition too large for the stack (ids sharing their top 8 bits, spread over its 256
    /// buckets, some repeated) and one that fits, placed through a caller's scratch that holds
    /// other bytes: both sorted as the directory says, each id found with its first value.
    #[test]
    fn a_crowded_partition_and_a_used_scratch() {
        let crowded = (0..5_000u64)
            .map(|i| (0x7f << 56) | (crate::hash::city_hash_64(&(i % 4_000).to_le_bytes()) >> 8));
        let spread = (0..3_000u64).map(|i| crate::hash::city_hash_64(&(i % 2_500).to_be_bytes()));
        let pairs: Vec<(u64, u32)> = crowded.chain(spread).zip(0..).collect();
        let mut expected: HashMap<u64, u32> = HashMap::new();
        for &(id, value) in &pairs {
            expected.entry(id).or_insert(value);
        }
        let mut scratch = vec![0xa5u8; pairs.len() * size_of::<Pending>()];
        let t = IdTable::build(|| pairs.iter().copied(), &mut scratch);
        assert_eq!(t.entries.len(), pairs.len());
        assert_eq!(t.starts.len(), BUCKETS + 1);
        assert!(t.starts.windows(2).all(|w| w[0] <= w[1]));
        for (b, w) in t.starts.windows(2).enumerate() {
            let bucket_ids = t
                .entries
                .get(w[0] as usize..w[1] as usize)
                .unwrap_or_default();
            assert!(bucket_ids.iter().all(|e| {
                let id = (b as u64) << 48 | e.low();
                expected.contains_key(&id)
            }));
        }
        for (&id, &value) in &expected {
            assert_eq!(t.get(id), Some(value), "{id:#x}");
            assert_eq!(t.get(id ^ 1 << 47), None, "{:#x}", id ^ 1 << 47);
        }
    }
}

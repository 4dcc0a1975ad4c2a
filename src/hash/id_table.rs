//! A table from 64-bit ids to 32-bit values (an entry's position), built in linear time without
//! a hash map and found in one or two memory reads.
//!
//! The ids are hashes (CityHash64 of paths), spread evenly over 64 bits, so the table is cut into
//! 65,536 buckets by an id's top 16 bits: a directory of where each bucket starts (256 KB) and
//! the entries, 10 bytes each (the id's low 48 bits, the top 16 being the bucket's, and the value),
//! placed by a counting sort (one pass to count, one to place). At 246,000 ids a bucket holds
//! about four, scanned: a lookup reads the directory and one cache line of entries. The whole table is under 3 MB at that size, so it
//! stays in the second-level cache where a hash map of 16-byte slots at its load factor (8 MB)
//! does not. Ids that are not spread cost only time (a longer bucket, searched by halves), never
//! correctness.

use core::fmt;

use zerocopy::little_endian::U32;
use zerocopy::{FromBytes, Immutable, IntoBytes, KnownLayout, Unaligned};

/// Buckets of the directory: one per value of an id's top 16 bits.
const BUCKETS: usize = 1 << 16;

/// The longest bucket scanned; a longer one is sorted and searched by halves.
const SCANNED: usize = 16;

/// The bits of an id kept in an entry.
const LOW: u64 = (1 << 48) - 1;

/// An entry: 10 bytes, alignment 1.
#[derive(Debug, Clone, Copy, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
struct Packed {
    low: [u8; 6],
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
    /// The table of the `(id, value)` pairs `pairs` yields (asked twice: once to count each
    /// bucket, once to fill it), fewer than 2^32 of them, in increasing order of value (as
    /// positions are); an id given more than once is found with its first value. Two
    /// allocations: the directory and the entries.
    pub fn build<I: Iterator<Item = (u64, u32)>>(pairs: impl Fn() -> I) -> IdTable {
        let mut starts = vec![0u32; BUCKETS + 1];
        let mut count = 0usize;
        for (id, _) in pairs() {
            if let Some(n) = starts.get_mut(bucket(id) + 1) {
                *n = n.saturating_add(1);
            }
            count += 1;
        }
        for b in 0..BUCKETS {
            let before = starts.get(b).copied().unwrap_or(0);
            if let Some(n) = starts.get_mut(b + 1) {
                *n = n.saturating_add(before);
            }
        }
        let empty = Packed {
            low: [0; 6],
            value: 0.into(),
        };
        let mut entries = vec![empty; count];
        // Each bucket filled from its start: `starts[b]` moves to where bucket b + 1 starts, and
        // the directory is shifted back by one place after.
        for (id, value) in pairs().take(count) {
            let Some(next) = starts.get_mut(bucket(id)) else {
                continue;
            };
            if let Some(entry) = entries.get_mut(*next as usize) {
                entry.set(id, value);
            }
            *next = next.saturating_add(1);
        }
        starts.copy_within(0..BUCKETS, 1);
        if let Some(first) = starts.first_mut() {
            *first = 0;
        }
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

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn table(pairs: &[(u64, u32)]) -> IdTable {
        IdTable::build(|| pairs.iter().copied())
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
}

//! The two hash maps' tables: the strings map (name id → string) and the resource-to-prototype
//! map (resource id → record), filled by linear probing from the key modulo the capacity, as the
//! reader probes them.

use zerocopy::little_endian::{U32, U64};
use zerocopy::{FromZeros, Immutable, IntoBytes};

use super::StringWords;
use crate::bytes::sink::{invalid, narrow};
use crate::bytes::u64_of;
use crate::wows::assets::model::AssetsBuilder;
use crate::wows::assets::raw::{PrototypeBucket, StringBucket};
use crate::write_error::{WriteError, WriteResult as Result};

impl AssetsBuilder {
    /// The strings map: its capacity, buckets (key, and a word whose low 31 bits hold the
    /// string's order, or its slot when the model's layout says so, bit 31 marking the bucket
    /// used) and values (pool offsets).
    pub(in crate::wows::assets) fn strings_map(
        &self,
    ) -> Result<(usize, Vec<StringBucket>, Vec<U32>)> {
        let capacity = self
            .strings_capacity
            .unwrap_or_else(|| capacity_for(self.string_order.len()));
        let entries = self.string_order.iter().enumerate().map(|(n, &id)| {
            let order: u32 = narrow(n, "offsetsMap.word")?;
            if order > 0x7FFF_FFFF {
                return Err(too_big("offsetsMap.word", n));
            }
            let offset = self.strings.get(&id).copied().unwrap_or(0);
            let bucket = StringBucket {
                key: U32::new(id),
                word: U32::new(0x8000_0000 | order),
            };
            Ok((u64::from(id), bucket, narrow(offset, "offsetsMap.value")?))
        });
        let (mut buckets, values) = fill(capacity, entries, "offsetsMap.capacity")?;
        if self.layout.as_ref().map(|l| l.string_words) == Some(StringWords::Slot) {
            for (slot, bucket) in buckets.iter_mut().enumerate() {
                if bucket.word.get() != 0 {
                    let slot: u32 = narrow(slot, "offsetsMap.word")?;
                    bucket.word = U32::new(0x8000_0000 | (slot & 0x7FFF_FFFF));
                }
            }
        }
        Ok((capacity, buckets, values))
    }

    /// The resource-to-prototype map: its capacity, buckets (key, word 1) and values (as
    /// stored).
    pub(in crate::wows::assets) fn prototypes_map(
        &self,
    ) -> Result<(usize, Vec<PrototypeBucket>, Vec<U32>)> {
        let capacity = self
            .r2p_capacity
            .unwrap_or_else(|| capacity_for(self.prototypes.len()));
        let entries = self.prototypes.iter().map(|&(id, value)| {
            let bucket = PrototypeBucket {
                key: U64::new(id),
                word: U64::new(1),
            };
            Ok((id, bucket, value))
        });
        let (buckets, values) = fill(capacity, entries, "resourceToPrototypeMap.capacity")?;
        Ok((capacity, buckets, values))
    }
}

/// A map's buckets and values, `capacity` of each, with every entry (key, bucket, value) in the
/// first free slot from its key modulo the capacity; a free slot's bucket is all zeros.
fn fill<B: FromZeros + IntoBytes + Immutable>(
    capacity: usize,
    entries: impl IntoIterator<Item = Result<(u64, B, u32)>>,
    what: &'static str,
) -> Result<(Vec<B>, Vec<U32>)> {
    let mut buckets: Vec<B> = zeroed(capacity, what)?;
    let mut values: Vec<U32> = zeroed(capacity, what)?;
    for entry in entries {
        let (key, bucket, value) = entry?;
        let slot = probe(capacity, key, |s| {
            buckets
                .get(s)
                .is_some_and(|b| b.as_bytes().iter().all(|&byte| byte == 0))
        })
        .ok_or_else(|| too_big(what, capacity))?;
        let (Some(stored_bucket), Some(stored_value)) =
            (buckets.get_mut(slot), values.get_mut(slot))
        else {
            return Err(too_big(what, slot));
        };
        *stored_bucket = bucket;
        *stored_value = U32::new(value);
    }
    Ok((buckets, values))
}

/// The smallest capacity the writer uses for `n` entries: a load factor of at most one half.
fn capacity_for(n: usize) -> usize {
    (n * 2 + 1).max(1)
}

fn too_big(what: &'static str, n: usize) -> WriteError {
    invalid(what, u64_of(n), "does not fit the table")
}

/// `count` zeroed table entries, or an error naming the table when they cannot be allocated.
fn zeroed<T: FromZeros>(count: usize, what: &'static str) -> Result<Vec<T>> {
    let mut table = Vec::new();
    table
        .try_reserve_exact(count)
        .map_err(|_| too_big(what, count))?;
    table.extend((0..count).map(|_| T::new_zeroed()));
    Ok(table)
}

/// The first free slot for `key` by linear probing, or `None` when the table is full.
fn probe(capacity: usize, key: u64, free: impl Fn(usize) -> bool) -> Option<usize> {
    let mut slot = usize::try_from(key.checked_rem(u64_of(capacity))?).ok()?;
    for _ in 0..capacity {
        if free(slot) {
            return Some(slot);
        }
        slot = (slot + 1) % capacity;
    }
    None
}

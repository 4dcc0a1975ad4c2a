//! The strings section: an open-addressing map from a string's MurmurHash3 (its "name id") to its
//! offset in a pool of NUL-terminated UTF-8 strings.

use zerocopy::little_endian::U32;

use super::raw::StringBucket;
use crate::bytes::{Bytes, Table, u64_of};
use crate::error::{Error, Result};

/// Bit 31 of a bucket's word marks it occupied.
const OCCUPIED: u32 = 0x8000_0000;

/// The strings map, borrowed. Probes are bounded by the capacity, so a full or corrupt table cannot
/// loop.
#[derive(Clone, Copy)]
pub struct Strings<'a> {
    buckets: &'a [StringBucket],
    buckets_at: usize,
    values: &'a [U32],
    pool: &'a [u8],
    pool_at: usize,
}

// By hand: the derived `Debug` printed every bucket and the whole string pool.
impl core::fmt::Debug for Strings<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Strings")
            .field("capacity", &self.buckets.len())
            .field("buckets_at", &self.buckets_at)
            .field("pool", &Bytes::new(self.pool))
            .field("pool_at", &self.pool_at)
            .finish()
    }
}

impl<'a> Strings<'a> {
    pub(crate) fn new(
        buckets: Table<'a, StringBucket>,
        values: Table<'a, U32>,
        pool: Table<'a, u8>,
    ) -> Self {
        Strings {
            buckets: buckets.records(),
            buckets_at: buckets.offset(),
            values: values.records(),
            pool: pool.records(),
            pool_at: pool.offset(),
        }
    }

    /// Number of buckets.
    pub fn capacity(&self) -> usize {
        self.buckets.len()
    }

    /// The string pool.
    pub fn pool(&self) -> &'a [u8] {
        self.pool
    }

    /// Whether `other` is byte for byte the same map (buckets, values and pool), so that every
    /// name id resolves to the same string in both.
    pub fn same_as(&self, other: &Strings<'_>) -> bool {
        use zerocopy::IntoBytes;
        self.buckets.as_bytes() == other.buckets.as_bytes()
            && self.values.as_bytes() == other.values.as_bytes()
            && self.pool == other.pool
    }

    /// The string with name id `id`: slot `id % capacity`, then linear probing until the key is
    /// found or an empty slot (all zero) is reached, at most `capacity` slots.
    pub fn get(&self, id: u32) -> Result<Option<&'a str>> {
        let capacity = self.buckets.len();
        if capacity == 0 {
            return Ok(None);
        }
        let mut slot = id as usize % capacity;
        for _ in 0..capacity {
            let bucket = self.buckets.get(slot).ok_or_else(|| self.corrupt(slot))?;
            let (key, word) = (bucket.key.get(), bucket.word.get());
            if key == 0 && word == 0 {
                return Ok(None);
            }
            if key == id && word & OCCUPIED != 0 {
                return self.at_slot(slot).map(Some);
            }
            slot += 1;
            if slot == capacity {
                slot = 0;
            }
        }
        Ok(None)
    }

    fn corrupt(&self, slot: usize) -> Error {
        Error::invalid(
            u64_of(slot),
            "offsetsMap.buckets",
            u64_of(self.buckets.len()),
            "slot past the capacity",
        )
    }

    /// The string that slot `slot` points to.
    fn at_slot(&self, slot: usize) -> Result<&'a str> {
        let value = self.values.get(slot).ok_or_else(|| self.corrupt(slot))?;
        let offset = value.get() as usize;
        let what = "stringData.string";
        let at = self.pool_at.saturating_add(offset);
        let rest = self.pool.get(offset..).ok_or_else(|| {
            Error::invalid(
                u64_of(at),
                what,
                u64::from(value.get()),
                "string offset is past the string pool",
            )
        })?;
        let len = rest.iter().position(|&b| b == 0).ok_or_else(|| {
            Error::invalid(
                u64_of(at),
                what,
                u64_of(rest.len()),
                "string has no NUL terminator inside the pool",
            )
        })?;
        let text = rest.get(..len).unwrap_or_default();
        crate::bytes::utf8(text, at, what, "not UTF-8")
    }

    /// Every occupied slot as (file offset of its bucket, name id, stored word, string), in slot
    /// order: what a writer needs to lay the map out again.
    #[cfg(feature = "write")]
    pub(crate) fn slots(&self) -> impl Iterator<Item = (usize, u32, u32, Result<&'a str>)> + 'a {
        let this = *self;
        self.buckets
            .iter()
            .enumerate()
            .filter(|(_, b)| b.word.get() & OCCUPIED != 0)
            .map(move |(slot, b)| {
                let at = this
                    .buckets_at
                    .saturating_add(slot.saturating_mul(core::mem::size_of::<StringBucket>()));
                (at, b.key.get(), b.word.get(), this.at_slot(slot))
            })
    }

    /// Every occupied slot's (name id, string), in slot order.
    pub fn iter(&self) -> StringsIter<'a> {
        StringsIter {
            strings: *self,
            slot: 0,
        }
    }

    /// Number of occupied slots (a walk over the buckets).
    pub fn count(&self) -> usize {
        self.buckets
            .iter()
            .filter(|b| b.word.get() & OCCUPIED != 0)
            .count()
    }
}

/// Iterator over the occupied slots of the strings map.
#[derive(Debug, Clone)]
pub struct StringsIter<'a> {
    strings: Strings<'a>,
    slot: usize,
}

impl<'a> Iterator for StringsIter<'a> {
    type Item = Result<(u32, &'a str)>;

    fn next(&mut self) -> Option<Self::Item> {
        while let Some(bucket) = self.strings.buckets.get(self.slot) {
            let slot = self.slot;
            self.slot += 1;
            if bucket.word.get() & OCCUPIED != 0 {
                let key = bucket.key.get();
                return Some(self.strings.at_slot(slot).map(|s| (key, s)));
            }
        }
        None
    }
}

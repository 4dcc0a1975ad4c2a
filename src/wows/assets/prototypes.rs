//! The resource-to-prototype map: an open-addressing map from a resource's selfId (its path id) to
//! where its prototype record is stored.

use zerocopy::little_endian::U32;

use super::raw::PrototypeBucket;
use crate::bytes::{Table, u64_of};
use crate::error::{Error, Result};

/// A record's state, the low two bits of the stored value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PrototypeState {
    /// 0: the record is live.
    Live,
    /// 3: the entry was deleted; its database and record fields mean nothing.
    Deleted,
    /// 1 or 2: not seen in any reader; reported as stored.
    Other(u8),
}

/// `live`, `deleted`, or `state N` for a state no reader has seen (as `gamebin assets` prints it).
impl core::fmt::Display for PrototypeState {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            PrototypeState::Live => f.write_str("live"),
            PrototypeState::Deleted => f.write_str("deleted"),
            PrototypeState::Other(s) => write!(f, "state {s}"),
        }
    }
}

/// Where a resource's prototype lives: decoded from the stored value as `state = v & 3`,
/// `database = (v >> 2) & 0x3F`, `record = v >> 8`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct PrototypeRef {
    /// Position in this file's database array.
    pub database: u32,
    /// Record index within that database.
    pub record: u32,
    /// Live or deleted (the value's low 2 bits).
    pub state: PrototypeState,
    /// The map slot the entry was found in.
    pub slot: usize,
    /// The value as stored.
    pub value: u32,
}

/// Where a stored value keeps its database index (6 bits) and its record index (the high 24).
const DATABASE_SHIFT: u32 = 2;
const DATABASE_MASK: u32 = 0x3F;
const RECORD_SHIFT: u32 = 8;

impl PrototypeRef {
    pub(crate) fn decode(value: u32, slot: usize) -> Self {
        PrototypeRef {
            database: (value >> DATABASE_SHIFT) & DATABASE_MASK,
            record: value >> RECORD_SHIFT,
            state: match value & 3 {
                0 => PrototypeState::Live,
                3 => PrototypeState::Deleted,
                s => PrototypeState::Other(s as u8),
            },
            slot,
            value,
        }
    }

    /// The value a live entry stores for record `record` of database `database`; `None` when
    /// either index does not fit its bits.
    #[cfg(feature = "write")]
    pub(crate) fn live_value(database: usize, record: usize) -> Option<u32> {
        let database = u32::try_from(database)
            .ok()
            .filter(|&d| d <= DATABASE_MASK)?;
        let record = u32::try_from(record)
            .ok()
            .filter(|&r| r <= u32::MAX >> RECORD_SHIFT)?;
        Some((record << RECORD_SHIFT) | (database << DATABASE_SHIFT))
    }

    /// The value an entry stores for record `record` of database `database` in `state` (what
    /// [`decode`](Self::decode) reads back); `None` when an index does not fit its bits or the
    /// state is not one of the four.
    #[cfg(feature = "write")]
    pub(crate) fn stored_value(
        database: usize,
        record: usize,
        state: PrototypeState,
    ) -> Option<u32> {
        let state = match state {
            PrototypeState::Live => 0,
            PrototypeState::Deleted => 3,
            PrototypeState::Other(s @ (1 | 2)) => u32::from(s),
            PrototypeState::Other(_) => return None,
        };
        Some(Self::live_value(database, record)? | state)
    }
}

/// The resource-to-prototype map, borrowed. Probes are bounded by the capacity.
#[derive(Clone, Copy)]
pub struct Prototypes<'a> {
    buckets: &'a [PrototypeBucket],
    values: &'a [U32],
    buckets_at: usize,
}

// By hand: a real map has hundreds of thousands of buckets; show where and how many.
impl core::fmt::Debug for Prototypes<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Prototypes")
            .field("buckets_at", &self.buckets_at)
            .field("capacity", &self.buckets.len())
            .finish()
    }
}

impl<'a> Prototypes<'a> {
    pub(crate) fn new(buckets: Table<'a, PrototypeBucket>, values: Table<'a, U32>) -> Self {
        Prototypes {
            buckets: buckets.records(),
            values: values.records(),
            buckets_at: buckets.offset(),
        }
    }

    /// Number of buckets.
    pub fn capacity(&self) -> usize {
        self.buckets.len()
    }

    /// File offset of bucket `slot` (for error reports).
    pub(crate) fn value_offset(&self, slot: usize) -> usize {
        self.buckets_at.saturating_add(slot.saturating_mul(16))
    }

    /// The prototype of `self_id`: slot `self_id % capacity`, linear probing until the key is found
    /// or an empty slot (key and word zero) is reached, at most `capacity` slots. A bucket is
    /// occupied when its word is non-zero (readers disagree on bit 0 or bit 63; both count).
    #[inline]
    pub fn get(&self, self_id: u64) -> Result<Option<PrototypeRef>> {
        let capacity = self.buckets.len();
        if capacity == 0 {
            return Ok(None);
        }
        let mut slot = (self_id % capacity as u64) as usize;
        for _ in 0..capacity {
            let Some(bucket) = self.buckets.get(slot) else {
                break;
            };
            let (key, word) = (bucket.key.get(), bucket.word.get());
            if word == 0 && key == 0 {
                return Ok(None);
            }
            if key == self_id && word != 0 {
                return self.at_slot(slot).map(Some);
            }
            slot += 1;
            if slot == capacity {
                slot = 0;
            }
        }
        Ok(None)
    }

    fn at_slot(&self, slot: usize) -> Result<PrototypeRef> {
        let value = self.values.get(slot).ok_or_else(|| {
            Error::invalid(
                u64_of(self.value_offset(slot)),
                "resourceToPrototypeMap.values",
                u64_of(slot),
                "slot past the capacity",
            )
        })?;
        Ok(PrototypeRef::decode(value.get(), slot))
    }

    /// Every occupied slot's (selfId, location), in slot order.
    pub fn iter(&self) -> impl Iterator<Item = Result<(u64, PrototypeRef)>> + 'a {
        let this = *self;
        self.buckets
            .iter()
            .enumerate()
            .filter(|(_, b)| b.word.get() != 0)
            .map(move |(slot, b)| this.at_slot(slot).map(|r| (b.key.get(), r)))
    }

    /// Number of occupied slots (a walk over the buckets), deleted entries included: see
    /// [`states`](Self::states) for live and deleted apart.
    pub fn count(&self) -> usize {
        self.buckets.iter().filter(|b| b.word.get() != 0).count()
    }

    /// The occupied slots counted by state: a deleted entry keeps its slot (and a stale value), so
    /// only `live` entries have a record. One walk over the buckets, no allocation.
    pub fn states(&self) -> Result<PrototypeStates> {
        let mut states = PrototypeStates::default();
        for entry in self.iter() {
            let (_, at) = entry?;
            match at.state {
                PrototypeState::Live => states.live += 1,
                PrototypeState::Deleted => states.deleted += 1,
                PrototypeState::Other(_) => states.other += 1,
            }
        }
        Ok(states)
    }
}

/// Occupied slots of the resource-to-prototype map by state ([`Prototypes::states`]).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PrototypeStates {
    /// State 0: a record exists.
    pub live: usize,
    /// State 3: deleted; the slot is kept, its record fields mean nothing.
    pub deleted: usize,
    /// States 1 and 2, not seen in any reader.
    pub other: usize,
}

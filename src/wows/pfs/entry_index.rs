//! The id table of an install: every name of every index, sorted by id, 16 bytes an entry, found
//! by interpolation (ids are CityHash64 values, spread evenly over 64 bits) with a bisection step
//! whenever a guess does not halve the range, so that a lookup takes a few probes on real ids and
//! at most about twice the steps of a binary search on any ids.

/// "No file record": a directory.
pub(super) const NO_FILE: u32 = u32::MAX;

/// One name of the install: its id, its name record and its file record, each numbered across
/// all indexes (an index's records follow those of the indexes before it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Slot {
    pub id: u64,
    pub name: u32,
    pub file: u32,
}

/// The sorted slots.
#[derive(Debug, Default)]
pub(super) struct EntryIndex {
    slots: Vec<Slot>,
}

impl EntryIndex {
    /// The table of `slots`, which must be sorted by id with no id twice.
    pub fn new(slots: Vec<Slot>) -> EntryIndex {
        debug_assert!(slots.windows(2).all(|w| w[0].id < w[1].id));
        EntryIndex { slots }
    }

    pub fn len(&self) -> usize {
        self.slots.len()
    }

    pub fn slots(&self) -> &[Slot] {
        &self.slots
    }

    /// Heap bytes held.
    pub fn heap_bytes(&self) -> usize {
        self.slots.capacity() * size_of::<Slot>()
    }

    /// The slot of `id`.
    #[inline]
    pub fn find(&self, id: u64) -> Option<&Slot> {
        let slots = &self.slots[..];
        let (mut lo, mut hi) = (0usize, slots.len());
        while hi - lo > 8 {
            let (low, high) = (slots[lo].id, slots[hi - 1].id);
            if id < low || id > high {
                return None;
            }
            let width = hi - lo;
            let span = u128::from(high - low).max(1);
            let guess = lo + (u128::from(id - low) * (width as u128 - 1) / span) as usize;
            let at = slots[guess].id;
            if at == id {
                return Some(&slots[guess]);
            }
            if at < id {
                lo = guess + 1;
            } else {
                hi = guess;
            }
            // A guess that did not halve the range is followed by a bisection.
            if hi - lo > width / 2 && hi - lo > 8 {
                let mid = lo + (hi - lo) / 2;
                match slots[mid].id.cmp(&id) {
                    core::cmp::Ordering::Equal => return Some(&slots[mid]),
                    core::cmp::Ordering::Less => lo = mid + 1,
                    core::cmp::Ordering::Greater => hi = mid,
                }
            }
        }
        slots[lo..hi].iter().find(|s| s.id == id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn index(ids: impl IntoIterator<Item = u64>) -> EntryIndex {
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
        EntryIndex::new(slots)
    }

    #[test]
    fn finds_every_id_and_no_other_on_even_and_skewed_ids() {
        let even = index((0..5000u64).map(|i| crate::hash::city_hash_64(&i.to_le_bytes())));
        let skewed = index(
            (0..5000u64)
                .map(|i| i * i * i)
                .chain([u64::MAX, u64::MAX - 1]),
        );
        let tiny = index([3, 9]);
        for table in [&even, &skewed, &tiny] {
            for slot in table.slots() {
                assert_eq!(table.find(slot.id), Some(slot));
                for near in [slot.id.wrapping_add(1), slot.id.wrapping_sub(1)] {
                    if table.slots().binary_search_by_key(&near, |s| s.id).is_err() {
                        assert_eq!(table.find(near), None);
                    }
                }
            }
        }
        assert_eq!(EntryIndex::default().find(0), None);
    }
}

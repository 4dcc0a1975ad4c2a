//! Which index holds a record numbered across the whole install, in one or two memory reads.
//!
//! An install numbers the name records (and, apart, the file records) of all its indexes in one
//! sequence: index `k`'s records start at `firsts[k]`. A lookup reads a record or two a folder of
//! the path, and a binary search over some 230 starts for each was a good part of a lookup's
//! time. So the sequence is cut into blocks of `BLOCK` records, and each block keeps the index
//! that holds its first record: the index of a record is that, or one of the next few (an index
//! smaller than a block is the only way to need more than one step, and the steps are bounded
//! by a binary search over the block's indexes).

/// Records per block: real indexes hold hundreds to tens of thousands of records each.
const BLOCK_SHIFT: u32 = 8;

/// The first record of each index, and of each block the index that holds its first record.
#[derive(Debug, Default)]
pub(super) struct RecordRanges {
    firsts: Vec<u32>,
    blocks: Vec<u32>,
}

impl RecordRanges {
    /// The ranges of indexes whose first records are `firsts` (ascending, the first 0), `total`
    /// records in all.
    pub fn new(firsts: Vec<u32>, total: u32) -> RecordRanges {
        let block_count = (total >> BLOCK_SHIFT) as usize + 1;
        let mut blocks = Vec::with_capacity(block_count);
        let mut k = 0usize;
        for block in 0..block_count {
            let first = (block as u64) << BLOCK_SHIFT;
            while firsts.get(k + 1).is_some_and(|&f| u64::from(f) <= first) {
                k += 1;
            }
            blocks.push(k as u32);
        }
        RecordRanges { firsts, blocks }
    }

    /// The index holding record `n`: the last whose first record is at most `n` (0 when none).
    #[inline]
    pub fn index_of(&self, n: u32) -> usize {
        let block = (n >> BLOCK_SHIFT) as usize;
        let Some(&from) = self.blocks.get(block) else {
            return self.search(n, 0, self.firsts.len());
        };
        let from = from as usize;
        // Most blocks lie inside one index; one step covers a block that starts another.
        match self.firsts.get(from + 1) {
            Some(&next) if next <= n => {
                let to = self
                    .blocks
                    .get(block + 1)
                    .map_or(self.firsts.len(), |&b| b as usize + 1);
                self.search(n, from + 1, to)
            }
            _ => from,
        }
    }

    /// The last index in `from..to` whose first record is at most `n` (`from` when none).
    fn search(&self, n: u32, from: usize, to: usize) -> usize {
        let firsts = self
            .firsts
            .get(from..to.min(self.firsts.len()))
            .unwrap_or(&[]);
        from + firsts
            .partition_point(|&first| first <= n)
            .saturating_sub(1)
    }

    /// Heap bytes held.
    pub fn heap_bytes(&self) -> usize {
        (self.firsts.capacity() + self.blocks.capacity()) * size_of::<u32>()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The plain answer: a binary search over every index.
    fn searched(firsts: &[u32], n: u32) -> usize {
        firsts.partition_point(|&f| f <= n).saturating_sub(1)
    }

    #[test]
    fn every_record_is_found_in_the_index_a_search_finds() {
        let layouts: [&[u32]; 6] = [
            &[0],
            &[0, 1000, 1001, 1002, 5000],
            // Many indexes inside one block, and empty indexes (equal firsts).
            &[0, 3, 3, 7, 9, 200, 255, 256, 257, 700],
            &[0, 256, 512, 768],
            &[0, 0, 0, 10],
            &[0, 100_000],
        ];
        for firsts in layouts {
            let total = firsts.last().unwrap() + 300;
            let ranges = RecordRanges::new(firsts.to_vec(), total);
            for n in (0..total + 600).chain([u32::MAX - 1, u32::MAX]) {
                assert_eq!(ranges.index_of(n), searched(firsts, n), "{firsts:?} {n}");
            }
        }
        assert_eq!(RecordRanges::default().index_of(5), 0);
    }
}

//! `!!string` under construction: the seed's strings keep their offsets, new strings are appended.

use crate::write_error::WriteError;
use std::collections::HashMap;

/// `!!string` under construction: the seed's strings keep their offsets.
pub(super) struct Pool {
    pub(super) bytes: Vec<u8>,
    index: HashMap<Vec<u8>, u32>,
}

impl Pool {
    pub(super) fn new(seed: &[u8]) -> Self {
        let mut pool = Pool {
            bytes: seed.to_vec(),
            index: HashMap::new(),
        };
        if pool.bytes.is_empty() {
            pool.bytes.push(0);
        }
        // Every terminated suffix is a string a field may point at (the games' tools share
        // tails: "m327" can be the end of "libra_m327"); the lowest offset wins, as in the files.
        let mut start = 0usize;
        while start < pool.bytes.len() {
            let rest = &pool.bytes[start..];
            let len = rest.iter().position(|&b| b == 0).unwrap_or(rest.len());
            for skip in 0..=len {
                let key = rest[skip..len].to_vec();
                // A string beyond 4 GiB cannot be pointed at: it is kept, not indexed.
                if let Ok(at) = u32::try_from(start + skip) {
                    pool.index.entry(key).or_insert(at);
                }
            }
            start += len + 1;
        }
        if pool.bytes.last() != Some(&0) {
            pool.bytes.push(0);
        }
        pool
    }

    pub(super) fn offset(&mut self, s: &str) -> Result<u32, WriteError> {
        if s.contains('\0') {
            return Err(WriteError::rule("a string holds a NUL"));
        }
        if let Some(&at) = self.index.get(s.as_bytes()) {
            return Ok(at);
        }
        let at = u32::try_from(self.bytes.len())
            .map_err(|_| WriteError::rule("!!string would exceed 4 GiB"))?;
        self.bytes.extend_from_slice(s.as_bytes());
        self.bytes.push(0);
        self.index.insert(s.as_bytes().to_vec(), at);
        Ok(at)
    }
}

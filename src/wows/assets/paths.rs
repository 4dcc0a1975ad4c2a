//! The path tree: entries of (selfId, parentId, name). A resource's full path is its ancestors'
//! names joined by `/`; its selfId is (per the peers, unverified) the CityHash64 of that path.

use std::collections::HashMap;

use super::raw::{self, PATH_ENTRY_NAME, PATH_ENTRY_NAME_PTR};
use crate::bytes::{Bytes, u64_of};
use crate::error::{Error, Result};
use crate::hash::city_hash_64;

/// The deepest parent chain a full path may have; deeper chains (or cycles) are errors.
pub const MAX_PATH_DEPTH: usize = 64;

/// The path id of a full path: CityHash64 of its bytes.
pub fn path_id(path: &str) -> u64 {
    city_hash_64(path.as_bytes())
}

/// The path entries, borrowed.
#[derive(Debug, Clone, Copy)]
pub struct Paths<'a> {
    bytes: Bytes<'a>,
    at: usize,
    entries: &'a [raw::PathEntry],
}

/// One path entry. `Copy`; its name is read (and checked) when asked for.
#[derive(Debug, Clone, Copy)]
pub struct PathEntry<'a> {
    bytes: Bytes<'a>,
    at: usize,
    index: usize,
    raw: &'a raw::PathEntry,
}

impl<'a> PathEntry<'a> {
    /// The resource id.
    pub fn self_id(&self) -> u64 {
        self.raw.self_id.get()
    }

    /// The parent's id, 0 for a root.
    pub fn parent_id(&self) -> u64 {
        self.raw.parent_id.get()
    }

    /// Position in the path table.
    pub fn index(&self) -> usize {
        self.index
    }

    /// File offset of the entry.
    pub fn offset(&self) -> usize {
        self.at
    }

    /// The stored name bytes without the NUL terminator.
    pub fn name_bytes(&self) -> Result<&'a [u8]> {
        let size = self.raw.name_size.get() as usize;
        if size == 0 {
            return Ok(&[]);
        }
        let at = self.bytes.resolve(
            self.at + PATH_ENTRY_NAME_PTR,
            self.at + PATH_ENTRY_NAME,
            self.raw.name_ptr.get(),
            "PathEntry.name",
        )?;
        let text = self.bytes.slice(at, size, "PathEntry.name")?;
        Ok(match text.split_last() {
            Some((0, name)) => name,
            _ => text,
        })
    }

    /// The name (one path segment), UTF-8.
    pub fn name(&self) -> Result<&'a str> {
        let bytes = self.name_bytes()?;
        core::str::from_utf8(bytes).map_err(|e| {
            Error::invalid(
                u64_of(self.at + PATH_ENTRY_NAME_PTR),
                "PathEntry.name",
                u64_of(e.valid_up_to()),
                "not UTF-8 (value = position of the first bad byte)",
            )
        })
    }
}

/// How many sampled entries had a selfId equal to the CityHash64 of their full path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PathHashCheck {
    pub checked: usize,
    pub matched: usize,
}

impl PathHashCheck {
    /// Every sampled id is the hash of its path (and something was sampled).
    pub fn all_match(&self) -> bool {
        self.checked > 0 && self.matched == self.checked
    }
}

impl<'a> Paths<'a> {
    pub(crate) fn new(bytes: Bytes<'a>, at: usize, entries: &'a [raw::PathEntry]) -> Self {
        Paths { bytes, at, entries }
    }

    /// Number of entries.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether there are no entries.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Entry `index`.
    pub fn get(&self, index: usize) -> Option<PathEntry<'a>> {
        let raw = self.entries.get(index)?;
        Some(PathEntry {
            bytes: self.bytes,
            at: self.at + index * core::mem::size_of::<raw::PathEntry>(),
            index,
            raw,
        })
    }

    /// Every entry, in table order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = PathEntry<'a>> + 'a {
        let (bytes, at) = (self.bytes, self.at);
        self.entries
            .iter()
            .enumerate()
            .map(move |(index, raw)| PathEntry {
                bytes,
                at: at + index * core::mem::size_of::<raw::PathEntry>(),
                index,
                raw,
            })
    }

    /// The entry with `self_id`, by a linear scan. O(entries), no allocation.
    pub fn find(&self, self_id: u64) -> Option<PathEntry<'a>> {
        let index = self
            .entries
            .iter()
            .position(|e| e.self_id.get() == self_id)?;
        self.get(index)
    }

    /// Writes the full path of `self_id` into `out` (cleared first), using `find` to go from an id
    /// to its entry. The chain is collected on the stack (at most [`MAX_PATH_DEPTH`] entries), so
    /// a cycle or an absurd depth is an error, not a hang.
    pub(crate) fn full_path(
        &self,
        self_id: u64,
        out: &mut String,
        find: impl Fn(u64) -> Option<PathEntry<'a>>,
    ) -> Result<bool> {
        out.clear();
        let Some(mut entry) = find(self_id) else {
            return Ok(false);
        };
        let mut chain = [0u32; MAX_PATH_DEPTH];
        let mut depth = 0usize;
        loop {
            let Some(slot) = chain.get_mut(depth) else {
                return Err(Error::invalid(
                    u64_of(entry.at),
                    "PathEntry.parentId",
                    entry.parent_id(),
                    "parent chain is cyclic or deeper than MAX_PATH_DEPTH",
                ));
            };
            *slot = entry.index as u32;
            depth += 1;
            let parent = entry.parent_id();
            if parent == 0 {
                break;
            }
            entry = find(parent).ok_or_else(|| {
                Error::invalid(
                    u64_of(entry.at + 8),
                    "PathEntry.parentId",
                    parent,
                    "no path entry has this id",
                )
            })?;
        }
        for (n, &index) in chain.iter().take(depth).rev().enumerate() {
            if n > 0 {
                out.push('/');
            }
            if let Some(e) = self.get(index as usize) {
                out.push_str(e.name()?);
            }
        }
        Ok(true)
    }

    /// The entry whose full path is `path`: every entry named like the last segment is checked
    /// against the other segments by walking its parents (linear scans). No allocation.
    pub(crate) fn find_path(&self, path: &str) -> Result<Option<PathEntry<'a>>> {
        let mut segments = path.rsplit('/');
        let Some(last) = segments.next() else {
            return Ok(None);
        };
        'candidates: for entry in self.iter() {
            if entry.name_bytes()? != last.as_bytes() {
                continue;
            }
            let mut current = entry;
            for segment in path.rsplit('/').skip(1) {
                let parent = current.parent_id();
                if parent == 0 {
                    continue 'candidates;
                }
                match self.find(parent) {
                    Some(p) if p.name_bytes()? == segment.as_bytes() => current = p,
                    _ => continue 'candidates,
                }
            }
            if current.parent_id() == 0 {
                return Ok(Some(entry));
            }
        }
        Ok(None)
    }

    /// Samples up to `sample` entries spread over the table and counts those whose selfId is the
    /// CityHash64 of their full path.
    pub(crate) fn check_hashes(&self, sample: usize) -> Result<PathHashCheck> {
        let n = self.entries.len();
        let mut check = PathHashCheck {
            checked: 0,
            matched: 0,
        };
        if n == 0 || sample == 0 {
            return Ok(check);
        }
        let step = (n / sample).max(1);
        let mut path = String::new();
        for index in (0..n).step_by(step).take(sample) {
            let Some(entry) = self.get(index) else {
                break;
            };
            self.full_path(entry.self_id(), &mut path, |id| self.find(id))?;
            check.checked += 1;
            if path_id(&path) == entry.self_id() {
                check.matched += 1;
            }
        }
        Ok(check)
    }
}

/// An owned index from selfId to entry, for callers doing many id → path walks on files where a
/// linear parent scan is too slow. Opt-in: building it allocates one hash map of `entries` slots
/// (about 16 bytes × entries × the map's load factor) and walks the table once.
#[derive(Debug, Clone, Default)]
pub struct PathIndex {
    by_id: HashMap<u64, u32>,
}

impl PathIndex {
    /// Indexes every entry by selfId (the first entry wins for a duplicated id).
    pub fn build(paths: Paths<'_>) -> Result<PathIndex> {
        let mut by_id = HashMap::with_capacity(paths.len());
        for (i, e) in paths.entries.iter().enumerate() {
            by_id.entry(e.self_id.get()).or_insert(i as u32);
        }
        Ok(PathIndex { by_id })
    }

    /// The entry with `self_id`. O(1).
    pub fn get<'a>(&self, paths: Paths<'a>, self_id: u64) -> Option<PathEntry<'a>> {
        paths.get(*self.by_id.get(&self_id)? as usize)
    }

    /// Writes the full path of `self_id` into `out`, O(depth). `Ok(false)` when no entry has the
    /// id; cycles and chains deeper than [`MAX_PATH_DEPTH`] are errors.
    pub fn full_path(&self, paths: Paths<'_>, self_id: u64, out: &mut String) -> Result<bool> {
        paths.full_path(self_id, out, |id| self.get(paths, id))
    }
}

//! The path tree: entries of (selfId, parentId, name). A resource's full path is its ancestors'
//! names joined by `/`; its selfId is (per the peers, unverified) the CityHash64 of that path.

use zerocopy::IntoBytes as _;

use super::raw::{self, PATH_ENTRY_NAME, PATH_ENTRY_NAME_PTR};
use crate::bytes::{Bytes, Table, u64_of};
use crate::error::{Error, Result};
use crate::hash::city_hash_64;
use crate::hash::id_table::IdTable;

/// The deepest parent chain a full path may have; deeper chains (or cycles) are errors.
pub const MAX_PATH_DEPTH: usize = 64;

/// How many entries per path segment [`AssetsDb::find_path`](super::AssetsDb::find_path) keeps
/// on the stack in its one pass; more namesakes of one segment make it fall back to walking
/// parents through the table.
pub const FIND_CANDIDATES: usize = 32;

/// Stored name sizes `find_path`'s one pass tells apart by a table look-up; a path with a longer
/// segment is looked up by walking parents.
const NAME_SIZES: usize = 256;

/// What `find_path`'s parents-first passes decided.
enum Passes<'a> {
    Found(PathEntry<'a>),
    Absent,
    Undecided,
}

/// A set of ids that can answer "certainly not in it" with one bit test: 4,096 bits (on the
/// stack) indexed by a multiplicative hash of the id, so that ids which are themselves hashes and
/// ids which are small counters spread alike.
struct ParentFilter {
    words: [u64; 64],
}

impl Default for ParentFilter {
    fn default() -> Self {
        ParentFilter { words: [0; 64] }
    }
}

impl ParentFilter {
    fn slot(id: u64) -> (usize, u64) {
        let h = id.wrapping_mul(0x9e37_79b9_7f4a_7c15);
        ((h >> 58) as usize, 1 << ((h >> 52) & 63))
    }

    fn insert(&mut self, id: u64) {
        let (word, bit) = Self::slot(id);
        if let Some(w) = self.words.get_mut(word) {
            *w |= bit;
        }
    }

    fn may_hold(&self, id: u64) -> bool {
        let (word, bit) = Self::slot(id);
        self.words.get(word).is_some_and(|w| w & bit != 0)
    }
}

/// Entries named like one segment of a path being looked up, on the stack.
#[derive(Clone, Copy)]
struct Candidates {
    indices: [u32; FIND_CANDIDATES],
    len: usize,
}

impl Candidates {
    const EMPTY: Candidates = Candidates {
        indices: [0; FIND_CANDIDATES],
        len: 0,
    };

    /// Adds an entry index; false when full.
    fn push(&mut self, index: u32) -> bool {
        let Some(slot) = self.indices.get_mut(self.len) else {
            return false;
        };
        *slot = index;
        self.len += 1;
        true
    }

    fn as_slice(&self) -> &[u32] {
        self.indices.get(..self.len).unwrap_or_default()
    }
}

/// The path id of a full path: CityHash64 of its bytes.
pub fn path_id(path: &str) -> u64 {
    city_hash_64(path.as_bytes())
}

/// The path entries, borrowed.
#[derive(Clone, Copy)]
pub struct Paths<'a> {
    bytes: Bytes<'a>,
    entries: Table<'a, raw::PathEntry>,
}

// By hand: a real file has hundreds of thousands of entries; show where and how many.
impl core::fmt::Debug for Paths<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Paths")
            .field("at", &self.entries.offset())
            .field("count", &self.entries.len())
            .finish()
    }
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

    /// The stored name size (characters including the NUL terminator, as the file says), read
    /// without following the name's pointer.
    pub fn name_size(&self) -> u32 {
        self.raw.name_size.get()
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
        Ok(self.name_at()?.1)
    }

    /// The name's bytes (without the NUL terminator) and their file offset; offset 0 for a stored
    /// size of 0, whose pointer is not followed.
    #[inline]
    fn name_at(&self) -> Result<(usize, &'a [u8])> {
        let size = self.raw.name_size.get() as usize;
        if size == 0 {
            return Ok((0, &[]));
        }
        let at = self.bytes.resolve(
            self.at + PATH_ENTRY_NAME_PTR,
            self.at + PATH_ENTRY_NAME,
            self.raw.name_ptr.get(),
            "PathEntry.name",
        )?;
        let text = self.bytes.slice(at, size, "PathEntry.name")?;
        Ok(match text.split_last() {
            Some((0, name)) => (at, name),
            _ => (at, text),
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
    /// Entries sampled.
    pub checked: usize,
    /// Entries whose selfId matched.
    pub matched: usize,
}

impl PathHashCheck {
    /// Every sampled id is the hash of its path (and something was sampled).
    pub fn all_match(&self) -> bool {
        self.checked > 0 && self.matched == self.checked
    }
}

impl<'a> Paths<'a> {
    pub(crate) fn new(bytes: Bytes<'a>, entries: Table<'a, raw::PathEntry>) -> Self {
        Paths { bytes, entries }
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
            at: raw.offset(),
            index,
            raw: raw.get(),
        })
    }

    /// Every entry, in table order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = PathEntry<'a>> + 'a {
        let bytes = self.bytes;
        self.entries
            .iter()
            .enumerate()
            .map(move |(index, raw)| PathEntry {
                bytes,
                at: raw.offset(),
                index,
                raw: raw.get(),
            })
    }

    /// The entry with `self_id`, by a linear scan. O(entries), no allocation.
    pub fn find(&self, self_id: u64) -> Option<PathEntry<'a>> {
        let index = self
            .entries
            .records()
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

    /// The entry whose full path is `path`, in one pass over the table and without allocating.
    ///
    /// A first pass assumes parents listed before their children, as in the game's files: an
    /// entry's name is read only when its parent matched the segment before, and the pass stops
    /// at the path's entry (half the table on average). When it finds nothing, a second such pass
    /// tells an absent path (it matches nothing new) from a table in another order; only then
    /// does a pass that works for any order decide: it collects, per segment, the entries named
    /// like it (the stored name size filters before any name is read), then checks each
    /// candidate for the last segment against the other segments' candidates by parent id. Should a segment have more than [`FIND_CANDIDATES`]
    /// namesakes, the lookup walks parents through the table instead (one scan per segment: same
    /// answer, slower). When several entries have the same full path, the answer is one of them.
    pub(crate) fn find_path(&self, path: &str) -> Result<Option<PathEntry<'a>>> {
        let mut segments = [""; MAX_PATH_DEPTH];
        let mut depth = 0usize;
        for segment in path.split('/') {
            let Some(slot) = segments.get_mut(depth) else {
                return Ok(None); // deeper than any chain the reader accepts
            };
            *slot = segment;
            depth += 1;
        }
        let segments = segments.get(..depth).unwrap_or_default();
        // Which segments an entry's stored name size can match (with or without its NUL), as a
        // bit per depth: one table look-up per entry decides whether its name is read at all.
        let mut by_size = [0u64; NAME_SIZES];
        for (k, segment) in segments.iter().enumerate() {
            for size in [segment.len(), segment.len() + 1] {
                let Some(bits) = by_size.get_mut(size) else {
                    return self.find_path_by_parents(path); // a segment too long for the table
                };
                *bits |= 1 << k;
            }
        }
        match self.find_path_parents_first(segments, &by_size)? {
            Passes::Found(entry) => return Ok(Some(entry)),
            Passes::Absent => return Ok(None),
            Passes::Undecided => {}
        }
        let mut found = [Candidates::EMPTY; MAX_PATH_DEPTH];
        for entry in self.iter() {
            let stored = entry.raw.name_size.get() as usize;
            let mut depths = by_size.get(stored).copied().unwrap_or(0);
            // Only a root can be the first segment, and only a non-root any other.
            depths &= if entry.parent_id() == 0 { 1 } else { !1 };
            if depths == 0 {
                continue;
            }
            let name = entry.name_bytes()?;
            while depths != 0 {
                let k = depths.trailing_zeros() as usize;
                depths &= depths - 1;
                if segments.get(k).is_none_or(|s| s.as_bytes() != name) {
                    continue;
                }
                let Some(list) = found.get_mut(k) else {
                    continue;
                };
                if !list.push(entry.index as u32) {
                    return self.find_path_by_parents(path);
                }
            }
        }
        let Some((last, ancestors)) = found.get(..depth).and_then(<[Candidates]>::split_last)
        else {
            return Ok(None);
        };
        'candidates: for &index in last.as_slice() {
            let Some(leaf) = self.get(index as usize) else {
                continue;
            };
            let mut parent = leaf.parent_id();
            for level in ancestors.iter().rev() {
                let Some(p) = level
                    .as_slice()
                    .iter()
                    .filter_map(|&i| self.get(i as usize))
                    .find(|p| p.self_id() == parent)
                else {
                    continue 'candidates;
                };
                parent = p.parent_id();
            }
            if parent == 0 {
                return Ok(Some(leaf));
            }
        }
        Ok(None)
    }

    /// [`find_path`](Self::find_path)'s passes for tables that list a parent before its children
    /// (as the game's do): an entry is compared with a segment only when its parent already
    /// matched the segment before (or it is a root, for the first), so almost no name is read,
    /// and a pass stops at the first entry that completes the path. A pass that finds nothing is
    /// followed by another over what the first matched; when that one matches nothing new, the
    /// matches are closed under "child of a match" in any table order, and the path is absent.
    /// `Undecided` when a second pass still grows (children listed before their parents) or a
    /// segment has more namesakes than kept.
    fn find_path_parents_first(
        &self,
        segments: &[&str],
        by_size: &[u64; NAME_SIZES],
    ) -> Result<Passes<'a>> {
        let Some(last) = segments.len().checked_sub(1) else {
            return Ok(Passes::Absent);
        };
        // Entries that matched a segment so far: their position, selfId and the depths their
        // children may match (a bit per depth). Almost every entry's parent is none of them; a
        // bit set of hashed ids rejects those in one test.
        let mut matched = [(u32::MAX, 0u64, 0u64); FIND_CANDIDATES];
        let mut count = 0usize;
        let mut filter = ParentFilter::default();
        // An entry can match in a later pass only if its parent matched after it in an earlier
        // one: the second pass stops where the first made its last match.
        let mut reach = self.len();
        for _pass in 0..2 {
            let mut grew = false;
            let mut last_match = 0;
            for entry in self.iter().take(reach) {
                let parent = entry.parent_id();
                let child_depths = if parent == 0 {
                    1
                } else if !filter.may_hold(parent) {
                    continue;
                } else {
                    matched.get(..count).unwrap_or_default().iter().fold(
                        0,
                        |bits, &(_, id, below)| {
                            if id == parent { bits | below } else { bits }
                        },
                    )
                };
                let stored = entry.raw.name_size.get() as usize;
                let mut depths = child_depths & by_size.get(stored).copied().unwrap_or(0);
                if depths == 0 {
                    continue;
                }
                let name = entry.name_bytes()?;
                let mut below = 0u64;
                while depths != 0 {
                    let k = depths.trailing_zeros() as usize;
                    depths &= depths - 1;
                    if segments.get(k).is_some_and(|s| s.as_bytes() == name) {
                        if k == last {
                            return Ok(Passes::Found(entry));
                        }
                        below |= 1 << (k + 1);
                    }
                }
                if below == 0 {
                    continue;
                }
                let index = entry.index as u32;
                let known = matched.get_mut(..count).unwrap_or_default();
                if let Some(m) = known.iter_mut().find(|m| m.0 == index) {
                    if m.2 | below != m.2 {
                        m.2 |= below;
                        (grew, last_match) = (true, entry.index);
                    }
                    continue;
                }
                let Some(slot) = matched.get_mut(count) else {
                    return Ok(Passes::Undecided); // more namesakes than kept
                };
                *slot = (index, entry.self_id(), below);
                count += 1;
                (grew, last_match) = (true, entry.index);
                filter.insert(entry.self_id());
            }
            if !grew {
                return Ok(Passes::Absent);
            }
            reach = last_match;
        }
        Ok(Passes::Undecided)
    }

    /// [`find_path`](Self::find_path)'s fallback: every entry named like the last segment is
    /// checked against the other segments by walking its parents (a linear scan per step).
    fn find_path_by_parents(&self, path: &str) -> Result<Option<PathEntry<'a>>> {
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

/// Hashes a u64 key with MurmurHash3's 64-bit finalizer: path ids are already hashes (or small
/// arbitrary numbers in some files), so SipHash's cost buys nothing here.
#[derive(Debug, Clone, Copy, Default)]
pub struct IdHasher(u64);

impl core::hash::Hasher for IdHasher {
    fn finish(&self) -> u64 {
        let mut h = self.0;
        h ^= h >> 33;
        h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
        h ^= h >> 33;
        h = h.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
        h ^ (h >> 33)
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

/// A parent index meaning "root" (parentId 0).
const ROOT: u32 = u32::MAX;
/// A parent index meaning "no entry has the parentId".
const MISSING: u32 = u32::MAX - 1;

/// An owned index for callers doing many id → path walks: selfId → entry, and each entry's
/// parent as an entry index and where its name lies in the file, so that a full path is O(depth)
/// array steps and copies of the names' bytes. Opt-in: building it walks the table four times and
/// makes exactly three allocations — the id table (a 256 KB directory by the ids' top 16 bits
/// and 10 bytes an entry, sorted in linear time: small enough to stay in cache, where a hash
/// map's 16-byte slots at its load factor did not) and 12 bytes per entry for its parent and
/// name. The names stay in the file: a full path is joined from them and checked as UTF-8 once,
/// whole, which is the check of each of its names, since a `/` can neither end nor start the
/// bytes of a character; a walk over every path checks the file's string pool once instead.
/// Its calls take the [`Paths`] of the file it was built from: another file's give other names
/// (or errors), never a read out of bounds.
#[derive(Debug, Clone, Default)]
pub struct PathIndex {
    by_id: IdTable,
    nodes: Vec<Node>,
    /// The file's bytes from the first name to the last, when they are at most twice the names
    /// with their terminators (a string pool): a walk over every path checks them as UTF-8 once.
    pool: (usize, usize),
}

/// One entry in a [`PathIndex`]: its parent's position and where its name is in the file.
#[derive(Debug, Clone, Copy)]
struct Node {
    parent: u32,
    name_start: u32,
    /// [`UNLOCATED`] when the name's place was not kept (it does not read, or lies past 4 GiB):
    /// read from the entry at each call, which reports the error, if reading it is one.
    name_len: u32,
}

/// A name whose place the index does not keep.
const UNLOCATED: u32 = u32::MAX;

impl PathIndex {
    /// Indexes every entry by selfId (the first entry wins for a duplicated id).
    ///
    /// ```
    /// # #[cfg(feature = "write")]
    /// # fn main() -> Result<(), gamebin::Error> {
    /// # let file = gamebin::synth::assets::example_file();
    /// use gamebin::wows::assets::{AssetsDb, PathIndex};
    ///
    /// let db = AssetsDb::from_bytes(&file)?;
    /// let index = PathIndex::build(db.paths())?; // three allocations, whatever the size
    /// let mut full = String::new();
    /// assert!(index.full_path(db.paths(), db.path_id("content/gui/atlas.contour"), &mut full)?);
    /// assert_eq!(full, "content/gui/atlas.contour");
    /// // Every full path in table order, each built from the previous one.
    /// let mut models = 0;
    /// index.for_each_full_path(db.paths(), &mut full, |_entry, path| {
    ///     models += usize::from(path.ends_with(".model"));
    ///     Ok(())
    /// })?;
    /// assert_eq!(models, 1);
    /// # Ok(())
    /// # }
    /// # #[cfg(not(feature = "write"))]
    /// # fn main() {}
    /// ```
    pub fn build(paths: Paths<'_>) -> Result<PathIndex> {
        let records = paths.entries.records();
        // The nodes' buffer, 12 bytes an entry, lends itself to the id table's placing first.
        let mut scratch = vec![[0u32; 3]; records.len()];
        // Positions fit in u32: a path entry is more than 4 bytes and the file is read whole.
        let by_id = IdTable::build(
            || (records.iter().enumerate()).map(|(i, e)| (e.self_id.get(), i as u32)),
            scratch.as_mut_bytes(),
        );
        // Over the records' slice rather than `Paths::iter`, so that the collect knows the
        // length it fills and inlines the loop (a call an entry before). The records are in
        // memory, so their offsets cannot overflow.
        let first = paths.entries.offset();
        let entries = records.iter().enumerate().map(|(index, raw)| PathEntry {
            bytes: paths.bytes,
            at: first + index * size_of::<raw::PathEntry>(),
            index,
            raw,
        });
        // The names are not copied: their copy (3.8 MB at full scale, in fresh pages) was a
        // quarter of a first build's time. A path is checked as UTF-8 when it is joined instead.
        let mut span = (usize::MAX, 0usize);
        let mut stored = 0usize;
        // Collected in place: a `Node` is a `[u32; 3]`'s size and alignment.
        let mut nodes: Vec<Node> = scratch
            .into_iter()
            .zip(entries)
            .map(|(_, e)| {
                let (name_start, name_len) = match e.name_at() {
                    Ok((at, name)) => match (u32::try_from(at), u32::try_from(name.len())) {
                        (Ok(start), Ok(len)) if len != UNLOCATED => {
                            if len > 0 {
                                span = (span.0.min(at), span.1.max(at + name.len()));
                                stored = stored.saturating_add(name.len() + 1);
                            }
                            (start, len)
                        }
                        _ => (0, UNLOCATED),
                    },
                    Err(_) => (0, UNLOCATED),
                };
                Node {
                    parent: ROOT,
                    name_start,
                    name_len,
                }
            })
            .collect();
        // The parents in a loop of their own: each lookup is a likely cache miss or two, and a
        // loop this short keeps many of them under way at once. The entries of a folder come
        // together in the table: the last parent found is most often the next one's too.
        let mut last_parent = (0u64, ROOT);
        for (node, raw) in nodes.iter_mut().zip(records) {
            node.parent = match raw.parent_id.get() {
                0 => ROOT,
                parent if parent == last_parent.0 => last_parent.1,
                parent => {
                    let found = by_id.get(parent).unwrap_or(MISSING);
                    last_parent = (parent, found);
                    found
                }
            };
        }
        // Writers put the names end to end (this project's and the independent one of the
        // samples do); a pool with some padding or shared names is still one.
        let pool = if span.0 < span.1 && span.1 - span.0 <= stored.saturating_mul(2) {
            span
        } else {
            (0, 0)
        };
        Ok(PathIndex { by_id, nodes, pool })
    }

    /// The entry with `self_id`. O(1).
    pub fn get<'a>(&self, paths: Paths<'a>, self_id: u64) -> Option<PathEntry<'a>> {
        paths.get(self.by_id.get(self_id)? as usize)
    }

    /// Writes the full path of `self_id` into `out`, O(depth). `Ok(false)` when no entry has the
    /// id; cycles and chains deeper than [`MAX_PATH_DEPTH`] are errors.
    pub fn full_path(&self, paths: Paths<'_>, self_id: u64, out: &mut String) -> Result<bool> {
        out.clear();
        let Some(start) = self.by_id.get(self_id) else {
            return Ok(false);
        };
        self.write_full_path(paths, start, out)?;
        Ok(true)
    }

    /// Writes the full path of the entry at position `index` of the path table into `out`,
    /// O(depth) with no hash probe: for walks by table position. `Ok(false)` when `index` is past
    /// the table.
    pub fn full_path_at(&self, paths: Paths<'_>, index: usize, out: &mut String) -> Result<bool> {
        out.clear();
        match u32::try_from(index) {
            Ok(start) if index < paths.len() => {
                self.write_full_path(paths, start, out)?;
                Ok(true)
            }
            _ => Ok(false),
        }
    }

    /// Writes the names of `start`'s chain, root first, joined by `/`, into `out` (cleared;
    /// left empty on an error).
    fn write_full_path(&self, paths: Paths<'_>, start: u32, out: &mut String) -> Result<()> {
        let mut chain = [0u32; MAX_PATH_DEPTH];
        let depth = self.chain(paths, start, &mut chain, |_| false)?.0;
        let chain = chain.get(..depth).unwrap_or_default();
        // `out`'s own buffer, so that a caller reusing it allocates nothing.
        let mut joined = core::mem::take(out).into_bytes();
        joined.clear();
        for (i, &index) in chain.iter().rev().enumerate() {
            if i > 0 {
                joined.push(b'/');
            }
            match self.name_bytes(paths, index) {
                Ok(name) => joined.extend_from_slice(name),
                Err(e) => {
                    *out = emptied(joined);
                    return Err(e);
                }
            }
        }
        match String::from_utf8(joined) {
            Ok(text) => {
                *out = text;
                Ok(())
            }
            Err(e) => {
                *out = emptied(e.into_bytes());
                Err(self.not_utf8(paths, chain.iter().copied()))
            }
        }
    }

    /// The bytes of the name of the entry at `index`, from where the index found them, or read
    /// from the entry when it kept no place (or the place is not in `paths`' file).
    #[inline]
    fn name_bytes<'a>(&self, paths: Paths<'a>, index: u32) -> Result<&'a [u8]> {
        let node = self.nodes.get(index as usize);
        let kept = node.filter(|n| n.name_len != UNLOCATED).and_then(|n| {
            let start = n.name_start as usize;
            paths
                .bytes
                .as_slice()
                .get(start..start + n.name_len as usize)
        });
        match kept {
            Some(name) => Ok(name),
            None => paths
                .get(index as usize)
                .map_or(Ok(&[]), |e| e.name_bytes()),
        }
    }

    /// The error of the first entry of `chain` whose name is not UTF-8 (the error path of a
    /// joined path that is not).
    #[cold]
    fn not_utf8(&self, paths: Paths<'_>, chain: impl IntoIterator<Item = u32>) -> Error {
        let bad = (chain.into_iter())
            .filter_map(|index| paths.get(index as usize))
            .find_map(|entry| entry.name().err());
        bad.unwrap_or_else(|| {
            Error::invalid(
                u64_of(paths.entries.offset()),
                "PathEntry.name",
                0,
                "a name on this path is not UTF-8",
            )
        })
    }

    /// Collects `start` and its ancestors (leaf first) into `chain` until a root or an entry for
    /// which `stop` is true (not collected). Returns the count and the stop entry, if any.
    fn chain(
        &self,
        paths: Paths<'_>,
        start: u32,
        chain: &mut [u32; MAX_PATH_DEPTH],
        stop: impl Fn(u32) -> bool,
    ) -> Result<(usize, Option<u32>)> {
        let mut current = start;
        let mut depth = 0usize;
        loop {
            if stop(current) {
                return Ok((depth, Some(current)));
            }
            let entry = paths.get(current as usize);
            let at = entry.map_or(0, |e| e.at);
            let Some(slot) = chain.get_mut(depth) else {
                return Err(Error::invalid(
                    u64_of(at),
                    "PathEntry.parentId",
                    entry.map_or(0, |e| e.parent_id()),
                    "parent chain is cyclic or deeper than MAX_PATH_DEPTH",
                ));
            };
            *slot = current;
            depth += 1;
            match self.nodes.get(current as usize).map(|n| n.parent) {
                Some(ROOT) | None => return Ok((depth, None)),
                Some(MISSING) => {
                    return Err(Error::invalid(
                        u64_of(at + 8),
                        "PathEntry.parentId",
                        entry.map_or(0, |e| e.parent_id()),
                        "no path entry has this id",
                    ));
                }
                Some(parent) => current = parent,
            }
        }
    }

    /// Calls `f` with every entry and its full path, in table order, building each path in `out`
    /// from the previous one: the common prefix with the previous path is kept, so a walk in the
    /// table's (parents-near-children) order touches each entry's name about once. No allocation
    /// beyond `out` growing.
    pub fn for_each_full_path<'a>(
        &self,
        paths: Paths<'a>,
        out: &mut String,
        mut f: impl FnMut(PathEntry<'a>, &str) -> Result<()>,
    ) -> Result<()> {
        out.clear();
        // The string pool checked once for the whole walk, so that a name in it is a slice of it
        // (checking each path whole, most of it kept from the one before, cost a third more).
        let pool = (paths.bytes.as_slice().get(self.pool.0..self.pool.1))
            .and_then(|bytes| core::str::from_utf8(bytes).ok())
            .unwrap_or_default();
        // The previous path's chain, root first: (entry index, length of `out` up to it).
        let mut kept = [(u32::MAX, 0usize); MAX_PATH_DEPTH];
        let mut kept_len = 0usize;
        let mut up = [0u32; MAX_PATH_DEPTH];
        for entry in paths.iter() {
            let live = kept.get(..kept_len).unwrap_or_default();
            let (n, stop) = self.chain(paths, entry.index as u32, &mut up, |i| {
                live.iter().any(|&(k, _)| k == i)
            })?;
            let (base, depth) = match stop.and_then(|s| live.iter().position(|&(k, _)| k == s)) {
                Some(k) => (kept.get(k).map_or(0, |&(_, len)| len), k + 1),
                None => (0, 0),
            };
            out.truncate(base);
            kept_len = depth;
            for &index in up.iter().take(n).rev() {
                if kept_len > 0 {
                    out.push('/');
                }
                out.push_str(self.name_in(paths, pool, index)?);
                let Some(slot) = kept.get_mut(kept_len) else {
                    return Err(Error::invalid(
                        u64_of(entry.at),
                        "PathEntry.parentId",
                        entry.parent_id(),
                        "parent chain is cyclic or deeper than MAX_PATH_DEPTH",
                    ));
                };
                *slot = (index, out.len());
                kept_len += 1;
            }
            f(entry, out)?;
        }
        Ok(())
    }

    /// The name of the entry at `index`: a slice of `pool` (the string pool, checked) when it
    /// is one, else its bytes checked on their own. A name cut from the pool in the middle of a
    /// character (its bytes UTF-8 only with its neighbours') is no slice of it, and is refused.
    #[inline]
    fn name_in<'a>(&self, paths: Paths<'a>, pool: &'a str, index: u32) -> Result<&'a str> {
        let node = self.nodes.get(index as usize);
        let sliced = node.filter(|n| n.name_len != UNLOCATED).and_then(|n| {
            let start = (n.name_start as usize).checked_sub(self.pool.0)?;
            pool.get(start..start + n.name_len as usize)
        });
        match sliced {
            Some(name) => Ok(name),
            None => core::str::from_utf8(self.name_bytes(paths, index)?)
                .map_err(|_| self.not_utf8(paths, [index])),
        }
    }
}

/// `bytes`' buffer as an empty `String`, kept for its capacity.
fn emptied(mut bytes: Vec<u8>) -> String {
    bytes.clear();
    String::from_utf8(bytes).unwrap_or_default()
}

//! What changed between two installs (two builds of the game), from their indexes alone: every
//! file added, removed, or changed (its unpacked size or its CRC-32), in path order. No volume is
//! read: a file record holds the CRC-32 of the file's unpacked bytes, so a change that keeps the
//! size is still seen.
//!
//! Each install's files are put in path order once ([`InstallDiff::new`]): per file a 32-byte
//! entry (its name, borrowed from the index; its folder's number; its size and CRC-32), and each
//! folder's path once. Then [`InstallDiff::changes`] merges the two sorted lists as an iterator,
//! allocating nothing: a caller can stream a diff of two full builds (421,000 names each) without
//! a list of the changes.
//!
//! Path order is byte order of the full paths (`sort` with `LC_ALL=C`). Paths are compared as
//! their folder's path (with its `/`) followed by the name, never built: two files of one folder
//! compare by name; folders by their place in the sorted folder list, except where one is inside
//! the other (`a/` and `a/b/`), where the name in the outer folder is compared with the rest of
//! the inner path.

use core::cmp::Ordering;
use core::fmt;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use super::install::{GameInstall, InstallError, MAX_DEPTH, MAX_PATH_BYTES};
use super::path::ROOT_PARENT_ID;
use crate::diff::ChangeKind;

/// Which of the two installs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DiffSide {
    /// The first install (the "before").
    Old,
    /// The second install (the "after").
    New,
}

impl DiffSide {
    /// `"old"` or `"new"`.
    pub const fn as_str(self) -> &'static str {
        match self {
            DiffSide::Old => "old",
            DiffSide::New => "new",
        }
    }
}

/// Why two installs could not be compared.
#[derive(Debug)]
#[non_exhaustive]
pub enum InstallDiffError {
    /// An install has indexes that do not read: its files are unknown, so every one of them
    /// would show as added or removed. Each index named, with where and why.
    Damaged {
        /// The install.
        side: DiffSide,
        /// Each damaged index's error ([`GameInstall::damaged`]: the `.idx` file, where and
        /// why), as text.
        errors: Vec<String>,
    },
    /// A file record whose name does not read (or is not UTF-8), or whose path does not lead to
    /// the root.
    Entry {
        /// The install.
        side: DiffSide,
        /// Which record and why.
        error: InstallError,
    },
    /// Both installs hold files and no path is in both: not two builds of one game.
    NoCommonFile {
        /// How many files each holds (old, new).
        files: (usize, usize),
    },
}

impl fmt::Display for InstallDiffError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            InstallDiffError::Damaged { side, errors } => {
                write!(
                    f,
                    "the {} install has {} that {} not read, so its files are unknown:",
                    side.as_str(),
                    if errors.len() == 1 {
                        "1 index".to_owned()
                    } else {
                        format!("{} indexes", errors.len())
                    },
                    if errors.len() == 1 { "does" } else { "do" },
                )?;
                // The first few: a whole build's 228 would make one huge line.
                const NAMED: usize = 3;
                for (i, e) in errors.iter().take(NAMED).enumerate() {
                    write!(f, "{}{e}", if i == 0 { " " } else { "; " })?;
                }
                match errors.len().saturating_sub(NAMED) {
                    0 => Ok(()),
                    n => write!(f, "; and {n} more"),
                }
            }
            InstallDiffError::Entry { side, error } => {
                write!(f, "the {} install: {error}", side.as_str())
            }
            InstallDiffError::NoCommonFile { files: (a, b) } => write!(
                f,
                "the two installs share no file ({a} and {b} files): not two builds of one game"
            ),
        }
    }
}

impl std::error::Error for InstallDiffError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            InstallDiffError::Entry { error, .. } => Some(error),
            InstallDiffError::Damaged { .. } | InstallDiffError::NoCommonFile { .. } => None,
        }
    }
}

/// What the index says of a file's bytes: enough to tell a change, read from its record alone.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FileState {
    /// The unpacked size in bytes.
    pub size: u32,
    /// CRC-32 of the unpacked bytes.
    pub crc32: u32,
}

impl fmt::Display for FileState {
    /// `1234 bytes, crc 0x1a2b3c4d`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} bytes, crc32 {:#010x}", self.size, self.crc32)
    }
}

/// A file's full path, as its folder's path and its name (both borrowed): written out with
/// [`ChangedPath::write_to`] or `Display`, never allocated by the diff.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ChangedPath<'d> {
    /// The folder's path with its trailing `/` (empty at the top).
    pub folder: &'d str,
    /// The file's name.
    pub name: &'d str,
}

impl ChangedPath<'_> {
    /// Writes the path into `out` (cleared first).
    pub fn write_to(&self, out: &mut String) {
        out.clear();
        out.push_str(self.folder);
        out.push_str(self.name);
    }

    /// The path's length in bytes.
    pub fn len(&self) -> usize {
        self.folder.len() + self.name.len()
    }

    /// Never: a file has a name.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

impl fmt::Display for ChangedPath<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.folder)?;
        f.write_str(self.name)
    }
}

/// One file that differs between the two installs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FileChange<'d> {
    /// Added (only in the new install), removed (only in the old) or changed.
    pub kind: ChangeKind,
    /// Its path, relative to `res/`.
    pub path: ChangedPath<'d>,
    /// Its size and CRC-32 in the old install (`None` when added).
    pub before: Option<FileState>,
    /// Its size and CRC-32 in the new install (`None` when removed).
    pub after: Option<FileState>,
}

impl FileChange<'_> {
    /// `+`, `-` or `~`.
    pub const fn sign(&self) -> char {
        match self.kind {
            ChangeKind::Added => '+',
            ChangeKind::Removed => '-',
            ChangeKind::Changed => '~',
        }
    }
}

impl fmt::Display for FileChange<'_> {
    /// `+ PATH`, `- PATH`, `~ PATH: 120 bytes, crc32 0x… -> 120 bytes, crc32 0x…`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.sign(), self.path)?;
        if let (Some(before), Some(after)) = (self.before, self.after) {
            write!(f, ": {before} -> {after}")?;
        }
        Ok(())
    }
}

/// A file of one install, in 32 bytes: its name borrowed from its index, its folder's number in
/// the install's sorted folders, and what its record says of its bytes.
#[derive(Debug, Clone, Copy)]
struct Entry<'i> {
    name: &'i str,
    folder: u32,
    state: FileState,
}

/// Hashes an id as it is: ids are CityHash64 values already.
#[derive(Default)]
struct IdHasher(u64);

impl Hasher for IdHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }
    fn write_u64(&mut self, id: u64) {
        self.0 = id;
    }
}

/// Every folder met while an install's files are read: its path (with its `/`) built once from
/// its parent's, and its number.
#[derive(Default)]
struct FolderTable<'i> {
    /// By id: each folder holding files, and each folder above one.
    numbers: HashMap<u64, u32, BuildHasherDefault<IdHasher>>,
    paths: String,
    ranges: Vec<(u32, u32)>,
    /// The folders above the one asked for whose paths are not built yet, nearest first.
    chain: Vec<(u64, &'i str)>,
}

impl<'i> FolderTable<'i> {
    /// The number of folder `id`: its path built from the nearest folder above it already known
    /// (the names up to there read once), each folder on the way numbered too.
    fn number(&mut self, install: &'i GameInstall, id: u64) -> Result<u32, InstallError> {
        self.chain.clear();
        let mut at = id;
        let known = loop {
            if let Some(&n) = self.numbers.get(&at) {
                break n;
            }
            if at == ROOT_PARENT_ID {
                break self.add(at, None, "")?;
            }
            // A cycle of parent ids, or a tree deeper than any real one.
            if self.chain.len() >= MAX_DEPTH {
                return Err(InstallError::NoRoot { id });
            }
            let name = install
                .name_by_id(at)
                .ok_or(InstallError::NoRoot { id })??;
            let text = name.name_str().map_err(|error| InstallError::Entry {
                path: format!("{at:#018x}"),
                error,
            })?;
            self.chain.push((at, text));
            at = name.parent_id;
        };
        let mut n = known;
        while let Some((at, text)) = self.chain.pop() {
            n = self.add(at, Some(n), text)?;
        }
        Ok(n)
    }

    /// Adds folder `id` named `name` inside folder `parent` (`None`: the top, whose path is empty).
    fn add(&mut self, id: u64, parent: Option<u32>, name: &str) -> Result<u32, InstallError> {
        let start = self.paths.len();
        if let Some((from, to)) = parent.and_then(|p| self.ranges.get(p as usize).copied()) {
            let (from, to) = (from as usize, to as usize);
            // Always so (the ranges are those of strings pushed whole): checked, as copying a
            // range that is not would panic.
            if from <= to
                && to <= start
                && self.paths.is_char_boundary(from)
                && self.paths.is_char_boundary(to)
            {
                self.paths.extend_from_within(from..to);
            }
            self.paths.push_str(name);
            self.paths.push('/');
        }
        let too_long = |what: &'static str, value: usize| InstallError::Entry {
            path: format!("{id:#018x}"),
            error: crate::error::Error::invalid(0, "NameRecord.name", value as u64, what),
        };
        let len = self.paths.len() - start;
        if len > MAX_PATH_BYTES {
            return Err(too_long(
                "the folder's full path grows past 4096 bytes",
                len,
            ));
        }
        let (Ok(start), Ok(end), Ok(n)) = (
            u32::try_from(start),
            u32::try_from(self.paths.len()),
            u32::try_from(self.ranges.len()),
        ) else {
            return Err(too_long(
                "the folders' paths take more than 4 GB",
                self.paths.len(),
            ));
        };
        self.ranges.push((start, end));
        self.numbers.insert(id, n);
        Ok(n)
    }
}

/// The files of one install in path order.
#[derive(Debug)]
struct SortedFiles<'i> {
    /// Every folder's path with its `/` (the top's empty), one after the other.
    folder_paths: String,
    /// Each folder's range in `folder_paths`, in path order.
    folders: Vec<(u32, u32)>,
    /// For each folder, one past the last folder inside it (they follow it in path order).
    inside_end: Vec<u32>,
    entries: Vec<Entry<'i>>,
}

impl<'i> SortedFiles<'i> {
    fn new(install: &'i GameInstall, side: DiffSide) -> Result<Self, InstallDiffError> {
        let entry_error = |error| InstallDiffError::Entry { side, error };
        // Folders by their id, numbered in the order first met; their paths one after the other.
        let mut table = FolderTable::default();
        let mut entries = Vec::with_capacity(install.file_count());
        // The last folder met: a folder's files mostly come together in record order.
        let mut last: Option<(u64, u32)> = None;
        for file in install.files_in_record_order() {
            let file = file.map_err(entry_error)?;
            let name = file.name.name_str().map_err(|error| {
                entry_error(InstallError::Entry {
                    path: format!("{:#018x}", file.name.id),
                    error,
                })
            })?;
            let parent = file.name.parent_id;
            let folder = match last {
                Some((id, n)) if id == parent => n,
                _ => table.number(install, parent).map_err(entry_error)?,
            };
            last = Some((parent, folder));
            entries.push(Entry {
                name,
                folder,
                state: FileState {
                    size: file.file.unpacked_size,
                    crc32: file.file.crc32,
                },
            });
        }
        let FolderTable {
            paths: mut folder_paths,
            ranges: mut folders,
            ..
        } = table;
        // Grown by doubling while the files were read: what is kept is what is used.
        folder_paths.shrink_to_fit();
        folders.shrink_to_fit();
        let mut sorted = SortedFiles {
            folder_paths,
            folders,
            inside_end: Vec::new(),
            entries,
        };
        sorted.sort();
        Ok(sorted)
    }

    fn folder(&self, n: u32) -> &str {
        let (start, end) = self.folders.get(n as usize).copied().unwrap_or((0, 0));
        self.folder_paths
            .get(start as usize..end as usize)
            .unwrap_or_default()
    }

    /// Renumbers the folders in path order, finds which lie inside which, and sorts the files.
    fn sort(&mut self) {
        let mut order: Vec<u32> = (0..self.folders.len() as u32).collect();
        order.sort_unstable_by(|&a, &b| self.folder(a).cmp(self.folder(b)));
        let mut rank = vec![0u32; order.len()];
        for (r, &n) in order.iter().enumerate() {
            if let Some(slot) = rank.get_mut(n as usize) {
                *slot = r as u32;
            }
        }
        self.folders = order
            .iter()
            .filter_map(|&n| self.folders.get(n as usize).copied())
            .collect();
        for entry in &mut self.entries {
            entry.folder = rank.get(entry.folder as usize).copied().unwrap_or(0);
        }
        // A folder's path ends with `/`, so the folders inside it are those whose paths start
        // with it: the run right after it in path order. One pass with the chain of open folders.
        let count = self.folders.len() as u32;
        let mut inside_end = vec![count; self.folders.len()];
        let mut open: Vec<u32> = Vec::new();
        for r in 0..count {
            while let Some(&top) = open.last() {
                if self.folder(r).starts_with(self.folder(top)) {
                    break;
                }
                if let Some(end) = inside_end.get_mut(top as usize) {
                    *end = r;
                }
                open.pop();
            }
            open.push(r);
        }
        self.inside_end = inside_end;
        // By folder, then by name within each folder: the numbers alone first, then each folder's
        // names, which lie together in its index (a sort by whole paths at once compared names
        // read from all over the indexes, and was most of the diff's time).
        let mut entries = core::mem::take(&mut self.entries);
        entries.sort_unstable_by_key(|e| e.folder);
        for folder in entries.chunk_by_mut(|a, b| a.folder == b.folder) {
            folder.sort_unstable_by(|a, b| a.name.cmp(b.name));
        }
        // That is path order but where a folder holds files beside subfolders (`a/x.txt` sorts
        // among `a/b/…` and `a/y/…`): such files are merged into place by a stable sort, which
        // takes the sorted runs as they are. Most installs need it for a few folders only.
        let in_order = |a: &Entry<'_>, b: &Entry<'_>| self.cmp_entries(a, b) != Ordering::Greater;
        if !entries.is_sorted_by(in_order) {
            entries.sort_by(|a, b| self.cmp_entries(a, b));
        }
        self.entries = entries;
    }

    /// Whether folder `inner` lies inside folder `outer` (both numbers in path order).
    fn is_inside(&self, inner: u32, outer: u32) -> bool {
        inner > outer && inner < self.inside_end.get(outer as usize).copied().unwrap_or(0)
    }

    /// Two files of this install in path order.
    fn cmp_entries(&self, a: &Entry<'_>, b: &Entry<'_>) -> Ordering {
        if a.folder == b.folder {
            a.name.cmp(b.name)
        } else if self.is_inside(b.folder, a.folder) {
            let rest = self
                .folder(b.folder)
                .get(self.folder(a.folder).len()..)
                .unwrap_or_default();
            cmp_concat(a.name.as_bytes(), rest.as_bytes(), b.name.as_bytes())
        } else if self.is_inside(a.folder, b.folder) {
            let rest = self
                .folder(a.folder)
                .get(self.folder(b.folder).len()..)
                .unwrap_or_default();
            cmp_concat(b.name.as_bytes(), rest.as_bytes(), a.name.as_bytes()).reverse()
        } else {
            // Neither path is a prefix of the other: they differ inside both, as the folders do.
            a.folder.cmp(&b.folder)
        }
    }

    fn path(&self, entry: &Entry<'i>) -> ChangedPath<'_> {
        ChangedPath {
            folder: self.folder(entry.folder),
            name: entry.name,
        }
    }
}

/// `x` against `y1` followed by `y2`, bytewise.
fn cmp_concat(x: &[u8], y1: &[u8], y2: &[u8]) -> Ordering {
    let n = x.len().min(y1.len());
    match x.get(..n).cmp(&y1.get(..n)) {
        Ordering::Equal if x.len() < y1.len() => Ordering::Less,
        Ordering::Equal => x.get(n..).unwrap_or_default().cmp(y2),
        other => other,
    }
}

/// `a1 a2` against `b1 b2`, bytewise.
fn cmp_paths(a1: &[u8], a2: &[u8], b1: &[u8], b2: &[u8]) -> Ordering {
    if a1.len() <= b1.len() {
        let (head, rest) = b1.split_at(a1.len());
        match a1.cmp(head) {
            Ordering::Equal => cmp_concat(a2, rest, b2),
            other => other,
        }
    } else {
        cmp_paths(b1, b2, a1, a2).reverse()
    }
}

/// Two installs, their files put in path order, ready to be compared ([`InstallDiff::changes`]).
///
/// ```
/// # #[cfg(feature = "write")]
/// # fn main() -> Result<(), Box<dyn std::error::Error>> {
/// use gamebin::wows::pfs::{Compression, GameInstall, InstallDiff, PfsWriter};
///
/// let install = |files: &[(&str, &[u8])]| -> Result<GameInstall, Box<dyn std::error::Error>> {
///     let mut writer = PfsWriter::new("basecontent_0001.pkg");
///     for (path, bytes) in files {
///         writer.add(path, bytes, Compression::Deflate)?;
///     }
///     let archive = writer.finish()?;
///     let indexes = vec![("basecontent.idx".into(), archive.idx)];
///     Ok(GameInstall::from_memory(indexes, archive.volumes)?)
/// };
/// let old = install(&[("gui/a.xml", b"<a/>"), ("gui/b.xml", b"<b/>")])?;
/// let new = install(&[("gui/a.xml", b"<A/>"), ("gui/c.xml", b"<c/>")])?;
/// let diff = InstallDiff::new(&old, &new)?;
/// let lines: Vec<String> = diff.changes().map(|c| format!("{} {}", c.sign(), c.path)).collect();
/// assert_eq!(lines, ["~ gui/a.xml", "- gui/b.xml", "+ gui/c.xml"]);
/// # Ok(())
/// # }
/// # #[cfg(not(feature = "write"))]
/// # fn main() {}
/// ```
#[derive(Debug)]
pub struct InstallDiff<'i> {
    old: SortedFiles<'i>,
    new: SortedFiles<'i>,
    /// For each folder of the old install, the number of the folder of the same path in the new
    /// one: the merge then compares two files of one folder by name alone.
    same_folder: Vec<u32>,
}

impl<'i> InstallDiff<'i> {
    /// Reads the file records of both installs (no volume is read) and puts each install's
    /// files in path order, the two on two threads.
    ///
    /// Refused: an install with an index that does not read (its files would show as added or
    /// removed), a file whose name does not read, and two installs that both hold files but share
    /// none (not two builds of one game).
    pub fn new(old: &'i GameInstall, new: &'i GameInstall) -> Result<Self, InstallDiffError> {
        for (install, side) in [(old, DiffSide::Old), (new, DiffSide::New)] {
            if !install.damaged().is_empty() {
                return Err(InstallDiffError::Damaged {
                    side,
                    errors: install.damaged().iter().map(ToString::to_string).collect(),
                });
            }
        }
        // The two sorts are independent, and each is most of the work.
        let (old_files, new_files) = std::thread::scope(|scope| {
            let worker = scope.spawn(|| SortedFiles::new(new, DiffSide::New));
            let old_files = SortedFiles::new(old, DiffSide::Old);
            // A panic there is a bug of this module: carried on as it is, not made an error.
            let new_files = worker
                .join()
                .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
            (old_files, new_files)
        });
        let (old_files, new_files) = (old_files?, new_files?);
        let same_folder = same_folders(&old_files, &new_files);
        let diff = InstallDiff {
            old: old_files,
            new: new_files,
            same_folder,
        };
        let (a, b) = diff.file_counts();
        // Two builds of one game share most files: the first shared path comes early.
        if a > 0 && b > 0 && !diff.shares_a_file() {
            return Err(InstallDiffError::NoCommonFile { files: (a, b) });
        }
        Ok(diff)
    }

    /// How many files each install holds (old, new).
    pub fn file_counts(&self) -> (usize, usize) {
        (self.old.entries.len(), self.new.entries.len())
    }

    /// The heap the diff holds, in bytes: 32 bytes a file and each folder's path once.
    pub fn heap_bytes(&self) -> usize {
        let side = |s: &SortedFiles<'_>| {
            s.entries.capacity() * size_of::<Entry<'_>>()
                + s.folder_paths.capacity()
                + s.folders.capacity() * 8
                + s.inside_end.capacity() * 4
        };
        side(&self.old) + side(&self.new) + self.same_folder.capacity() * 4
    }

    fn shares_a_file(&self) -> bool {
        let (mut i, mut j) = (0, 0);
        while let (Some(a), Some(b)) = (self.old.entries.get(i), self.new.entries.get(j)) {
            match self.cmp_across(a, b) {
                Ordering::Less => i += 1,
                Ordering::Greater => j += 1,
                Ordering::Equal => return true,
            }
        }
        false
    }

    /// A file of the old install against one of the new, in path order.
    fn cmp_across(&self, a: &Entry<'_>, b: &Entry<'_>) -> Ordering {
        if self.same_folder.get(a.folder as usize) == Some(&b.folder) {
            return a.name.cmp(b.name);
        }
        cmp_paths(
            self.old.folder(a.folder).as_bytes(),
            a.name.as_bytes(),
            self.new.folder(b.folder).as_bytes(),
            b.name.as_bytes(),
        )
    }

    /// Every file added, removed or changed (unpacked size or CRC-32), in path order; unchanged
    /// files are not listed. Nothing is allocated, and nothing is read: every record was read
    /// (and its errors returned) by [`InstallDiff::new`], so the changes are not `Result`s.
    pub fn changes(&self) -> Changes<'_, 'i> {
        Changes {
            diff: self,
            old: 0,
            new: 0,
        }
    }
}

/// For each folder of `old`, the number of the folder of the same path in `new` (`u32::MAX`
/// when `new` has none): both lists are in path order, so one merge finds them.
fn same_folders(old: &SortedFiles<'_>, new: &SortedFiles<'_>) -> Vec<u32> {
    let mut same = vec![u32::MAX; old.folders.len()];
    let (mut i, mut j) = (0u32, 0u32);
    while (i as usize) < old.folders.len() && (j as usize) < new.folders.len() {
        match old.folder(i).cmp(new.folder(j)) {
            Ordering::Less => i += 1,
            Ordering::Greater => j += 1,
            Ordering::Equal => {
                if let Some(slot) = same.get_mut(i as usize) {
                    *slot = j;
                }
                i += 1;
                j += 1;
            }
        }
    }
    same
}

/// The changes of an [`InstallDiff`], in path order: a merge of the two sorted file lists.
#[derive(Debug, Clone)]
pub struct Changes<'d, 'i> {
    diff: &'d InstallDiff<'i>,
    old: usize,
    new: usize,
}

impl<'d> Iterator for Changes<'d, '_> {
    type Item = FileChange<'d>;

    fn next(&mut self) -> Option<FileChange<'d>> {
        let diff = self.diff;
        loop {
            let a = diff.old.entries.get(self.old);
            let b = diff.new.entries.get(self.new);
            let order = match (a, b) {
                (None, None) => return None,
                (Some(_), None) => Ordering::Less,
                (None, Some(_)) => Ordering::Greater,
                (Some(a), Some(b)) => diff.cmp_across(a, b),
            };
            match (order, a, b) {
                (Ordering::Less, Some(a), _) => {
                    self.old += 1;
                    return Some(FileChange {
                        kind: ChangeKind::Removed,
                        path: diff.old.path(a),
                        before: Some(a.state),
                        after: None,
                    });
                }
                (Ordering::Greater, _, Some(b)) => {
                    self.new += 1;
                    return Some(FileChange {
                        kind: ChangeKind::Added,
                        path: diff.new.path(b),
                        before: None,
                        after: Some(b.state),
                    });
                }
                (Ordering::Equal, Some(a), Some(b)) => {
                    self.old += 1;
                    self.new += 1;
                    if a.state != b.state {
                        return Some(FileChange {
                            kind: ChangeKind::Changed,
                            path: diff.new.path(b),
                            before: Some(a.state),
                            after: Some(b.state),
                        });
                    }
                }
                // Not reached: an order is only taken of the files there are.
                _ => return None,
            }
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let left = |s: &SortedFiles<'_>, at: usize| s.entries.len().saturating_sub(at);
        let (a, b) = (
            left(&self.diff.old, self.old),
            left(&self.diff.new, self.new),
        );
        (0, Some(a + b))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every pair of a set of paths (folders inside folders, names that sort before and after
    /// `/`) compared through the split forms, against the paths compared whole.
    #[test]
    fn split_paths_compare_as_whole_ones() {
        let paths = [
            "a", "a.txt", "a/b", "a/b.txt", "a/b-x/f", "a/b/c", "a/b/c/d", "a/zz", "a/b0", "ab/c",
            "b", "a/b/", "a-/x",
        ];
        let split = |p: &'static str| match p.rfind('/') {
            Some(at) => (&p[..=at], &p[at + 1..]),
            None => ("", p),
        };
        for x in paths {
            for y in paths {
                let ((x1, x2), (y1, y2)) = (split(x), split(y));
                assert_eq!(
                    cmp_paths(x1.as_bytes(), x2.as_bytes(), y1.as_bytes(), y2.as_bytes()),
                    x.cmp(y),
                    "{x} {y}"
                );
                if let Some(rest) = y1.strip_prefix(x1) {
                    assert_eq!(
                        cmp_concat(x2.as_bytes(), rest.as_bytes(), y2.as_bytes()),
                        x.cmp(y),
                        "{x} {y}"
                    );
                }
            }
        }
    }
}

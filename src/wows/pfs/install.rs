//! A game install: every index of a build and the volumes they point into, as one tree.
//!
//! [`GameInstall::open`] maps every `.idx` of the newest build (`bin/<build>/idx/`) and builds one
//! table of every name's id (16 bytes an entry); volumes (`res_packages/*.pkg`) are mapped the
//! first time a file in them is read. Directory records repeated across indexes are merged; a
//! path whose id two indexes give to different records is reported ([`GameInstall::conflicts`])
//! and the first index's record is kept. An index that does not read is left out and the others
//! kept ([`GameInstall::damaged`] names it and says why). A lookup hashes the path, finds its id, and checks the
//! names from the file up to the root against the path's segments, so a hash collision can never
//! return another file.

use core::fmt;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use super::blob::BlobReader;
use super::entry::{Compression, FileEntry, Name, Volume};
use super::entry_index::{EntryIndex, FOLDER, NO_FILE, Slot, sort_by_buckets};
use super::folders::{FolderWalk, Folders, ROOT, UNKNOWN};
use super::path::{ROOT_PARENT_ID, is_normal, path_id, same_segment, spells};
use super::ranges::RecordRanges;
use super::select::Selection;
use super::{IdxShape, IdxView};
use crate::error::Error;
use crate::hash::city_hash_64;
use crate::mmap::MappedFile;

/// How the install's files are brought into memory.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Mapping {
    /// Memory-mapped (the default): nothing is read until it is used. The files must not be
    /// truncated or changed while the install is open (see [`MappedFile::open`]).
    #[default]
    Map,
    /// Read into memory: safe against files changed by another process, at the cost of reading
    /// every index at once and each volume when first used.
    Read,
}

/// Why an install, or a file in it, could not be read: which file, and the reader's error.
#[derive(Debug)]
#[non_exhaustive]
pub enum InstallError {
    /// A folder or file of the install could not be opened or read.
    Io {
        /// The folder or file.
        path: PathBuf,
        /// What the system said.
        error: std::io::Error,
    },
    /// A game folder with no `bin/<build>/idx/` holding an `.idx` file.
    NoIndexes {
        /// The folder searched.
        dir: PathBuf,
    },
    /// A build asked for ([`GameInstall::open_build`]) that the game folder does not have.
    NoBuild {
        /// The game folder.
        dir: PathBuf,
        /// The build asked for.
        build: u64,
        /// The builds it has, oldest first.
        builds: Vec<u64>,
    },
    /// An index that does not read: its header, its tables or a volume record. Opening an
    /// install leaves such an index out and keeps the others ([`GameInstall::damaged`]).
    Index {
        /// The `.idx` file.
        path: PathBuf,
        /// Where and why.
        error: Error,
    },
    /// A file of the install whose record or bytes do not read.
    Entry {
        /// The file's path in the install (or its id, when its names do not read).
        path: String,
        /// Where and why (offsets in its index or its volume, as the field names say).
        error: Error,
    },
    /// A file whose stored bytes in its volume do not read: outside the volume, a trailer or
    /// CRC-32 that disagrees with the record, a stream that does not inflate to its size, a
    /// compression gamebin does not decode.
    Blob {
        /// The file's path in the install.
        path: String,
        /// The volume file.
        volume: PathBuf,
        /// Where (the offset in the volume, or in the index for the record's fields) and why.
        error: Error,
    },
    /// A file whose volume is named by no index, or whose volume file is missing.
    Volume {
        /// The file's path in the install.
        path: String,
        /// The volume, by name when an index names it, else by id.
        volume: String,
        /// The volume file that could not be opened, if one was tried.
        error: Option<std::io::Error>,
    },
    /// An install of several indexes none of which reads (or opens): each one's error, in the
    /// order of their paths. (An install of one such index fails with that index's error.)
    NoReadableIndex {
        /// Each index's [`InstallError::Index`] or [`InstallError::Io`].
        damaged: Vec<InstallError>,
    },
    /// A name whose parents do not lead to the root (a cycle, or more than 1,024 levels).
    NoRoot {
        /// The id of the name.
        id: u64,
    },
    /// A name number that no index of this install holds (one taken from another install):
    /// nothing was read.
    NoSuchName {
        /// The install-wide number of the name record.
        name: u32,
    },
}

impl fmt::Display for InstallError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            InstallError::Io { path, error } => write!(f, "{}: {error}", path.display()),
            InstallError::NoIndexes { dir } => write!(
                f,
                "{}: no index files: expected a game folder (with bin/<build>/idx/*.idx and res_packages/)",
                dir.display()
            ),
            InstallError::NoBuild { dir, build, builds } => {
                write!(
                    f,
                    "{}: no build {build} (no bin/{build}/idx/ holding .idx files); ",
                    dir.display()
                )?;
                match builds.as_slice() {
                    [] => write!(f, "it has no build"),
                    builds => {
                        f.write_str("its builds: ")?;
                        for (i, b) in builds.iter().enumerate() {
                            write!(f, "{}{b}", if i == 0 { "" } else { ", " })?;
                        }
                        Ok(())
                    }
                }
            }
            InstallError::Index { path, error } => write!(f, "{}: {error}", path.display()),
            InstallError::Entry { path, error } => write!(f, "{path}: {error}"),
            InstallError::Blob {
                path,
                volume,
                error,
            } => write!(f, "{path}: in {}: {error}", volume.display()),
            InstallError::Volume {
                path,
                volume,
                error: Some(error),
            } => write!(f, "{path}: its volume {volume} cannot be opened: {error}"),
            InstallError::Volume {
                path,
                volume,
                error: None,
            } => write!(f, "{path}: no index names its volume {volume}"),
            InstallError::NoReadableIndex { damaged } => {
                write!(f, "none of the {} indexes reads:", damaged.len())?;
                // The first few, then a count: a whole build's 228 would make one huge line.
                const NAMED: usize = 3;
                for (i, e) in damaged.iter().take(NAMED).enumerate() {
                    let sep = if i == 0 { " " } else { "; " };
                    write!(f, "{sep}{e}")?;
                }
                match damaged.len().saturating_sub(NAMED) {
                    0 => Ok(()),
                    1 => write!(f, "; and 1 more"),
                    n => write!(f, "; and {n} more"),
                }
            }
            InstallError::NoRoot { id } => write!(
                f,
                "name {id:#018x}: its parents do not lead to the root (a cycle?)"
            ),
            InstallError::NoSuchName { name } => {
                write!(f, "no name record numbered {name} in this install")
            }
        }
    }
}

impl InstallError {
    /// The volume a file could not be read from, when that is what this error says: a volume
    /// no index names, one that cannot be opened, or one that ends before the file's bytes (a
    /// cut download). Every file of such a volume fails alike, so that a caller reading many can
    /// count them by volume rather than report each.
    pub fn unread_volume(&self) -> Option<String> {
        match self {
            InstallError::Volume { volume, .. } => Some(volume.clone()),
            InstallError::Blob { volume, error, .. }
                if matches!(error.kind(), crate::error::ErrorKind::Truncated { .. }) =>
            {
                Some(volume.display().to_string())
            }
            _ => None,
        }
    }
}

impl std::error::Error for InstallError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            InstallError::Io { error, .. } => Some(error),
            InstallError::Index { error, .. }
            | InstallError::Entry { error, .. }
            | InstallError::Blob { error, .. } => Some(error),
            InstallError::Volume { error, .. } => error.as_ref().map(|e| e as _),
            InstallError::NoReadableIndex { damaged } => damaged.first().map(|e| e as _),
            InstallError::NoIndexes { .. }
            | InstallError::NoBuild { .. }
            | InstallError::NoRoot { .. }
            | InstallError::NoSuchName { .. } => None,
        }
    }
}

/// The result type of an install's operations.
pub type InstallResult<T> = core::result::Result<T, InstallError>;

/// An id two indexes give to different records: the first is kept.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Conflict {
    /// The id.
    pub id: u64,
    /// The index whose record is kept.
    pub kept: PathBuf,
    /// The index whose record is left out.
    pub dropped: PathBuf,
}

/// One index of the install.
#[derive(Debug)]
struct Index {
    path: PathBuf,
    file: MappedFile,
    /// Where its tables lie (read once, when the install is opened).
    shape: IdxShape,
    /// The install-wide number of its first name record and of its first file record.
    first_name: u32,
    first_file: u32,
}

/// One volume of the install, mapped when first read.
#[derive(Debug)]
struct VolumeFile {
    id: u64,
    path: PathBuf,
    /// The mapping, or why the volume could not be opened (its kind and the system's code, kept
    /// so that every file of the volume is told the system's own message).
    data: OnceLock<Result<MappedFile, (std::io::ErrorKind, Option<i32>)>>,
}

/// The deepest tree a path is rebuilt through; a deeper chain is taken for a cycle.
pub(super) const MAX_DEPTH: usize = 1024;

/// The longest full path rebuilt (real ones are under 260 bytes): names may share their bytes, so
/// a small crafted index could otherwise spell a path of gigabytes.
pub const MAX_PATH_BYTES: usize = 4096;

/// The most segments a path found by [`GameInstall::find`]'s walk has (real paths have under
/// ten); a deeper one is put in normal form and found by its id like another spelling.
const WALKED_SEGMENTS: usize = 32;

/// Writes where the `/`s of `path` are into `slashes`, and returns how many there are; `None`
/// when `path` has a `\\` or a NUL (neither spelling of a path in an install has: a `\\`
/// separates segments only in other spellings, and names end at a NUL) or more `/`s than
/// `slashes` holds. Eight bytes at a time: a lookup's first step, over every byte of the path.
fn find_slashes(path: &[u8], slashes: &mut [usize]) -> Option<usize> {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const LOW7: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    // 0x80 in each byte of `word` equal to `byte`, exactly (no borrow between bytes).
    let equal = |word: u64, byte: u8| {
        let t = word ^ (ONES * u64::from(byte));
        !(((t & LOW7) + LOW7) | t | LOW7)
    };
    let mut count = 0;
    let mut chunks = path.chunks_exact(8);
    let last = {
        // The last bytes padded with a byte that is none of the three.
        let mut padded = [b'a'; 8];
        let rest = chunks.remainder();
        padded.get_mut(..rest.len())?.copy_from_slice(rest);
        padded
    };
    let words = chunks
        .by_ref()
        .map(|chunk| <[u8; 8]>::try_from(chunk).map_or(0, u64::from_le_bytes))
        .chain([u64::from_le_bytes(last)]);
    for (i, word) in words.enumerate() {
        if equal(word, b'\\') | equal(word, 0) != 0 {
            return None;
        }
        let mut found = equal(word, b'/');
        while found != 0 {
            *slashes.get_mut(count)? = i * 8 + found.trailing_zeros() as usize / 8;
            count += 1;
            found &= found - 1;
        }
    }
    Some(count)
}

/// How [`GameInstall::find`]'s walk of a path taken as it is ended.
enum Walk<'i> {
    /// Every segment matched, up to the root: the leaf's slot, name record and file record.
    Found(Slot, Name<'i>, Option<FileEntry>),
    /// Not in the install under this spelling.
    NotFound,
    /// The path is not in normal form (its hash is not its id).
    NotNormal,
    /// Name record (install-wide number) does not read.
    Unread(u32),
}

/// A game install (or any folder of indexes with their volumes), read as one tree.
#[derive(Debug)]
pub struct GameInstall {
    indexes: Vec<Index>,
    /// Which index holds a name record, and a file record (numbered across the install).
    name_ranges: RecordRanges,
    file_ranges: RecordRanges,
    /// Sorted by id, each id once.
    volumes: Vec<VolumeFile>,
    entries: EntryIndex,
    /// Every folder's name and parent, for lookups that do not read the indexes' folders.
    folders: Folders,
    conflicts: Vec<Conflict>,
    /// The indexes left out because they do not read.
    damaged: Vec<InstallError>,
    mapping: Mapping,
}

/// A file of the install: its name record, its file record and the index they come from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct InstallFile<'i> {
    /// The name record.
    pub name: Name<'i>,
    /// The file record.
    pub file: FileEntry,
    /// Which index (in [`GameInstall::index_paths`] order) holds them.
    pub index: usize,
}

impl GameInstall {
    /// Opens the game folder `game`: the newest numbered build under `bin/` that has an `idx/`
    /// folder with `.idx` files, and the volumes in `res_packages/`.
    ///
    /// An index that does not open or read is left out, the others kept: check
    /// [`GameInstall::damaged`]. When none reads, the install does not open (that index's error,
    /// or [`InstallError::NoReadableIndex`] for several).
    pub fn open(game: impl AsRef<Path>, mapping: Mapping) -> InstallResult<GameInstall> {
        let game = game.as_ref();
        let Some(&newest) = GameInstall::builds(game)?.last() else {
            return Err(InstallError::NoIndexes {
                dir: game.to_path_buf(),
            });
        };
        GameInstall::open_build(game, newest, mapping)
    }

    /// The numbered builds of the game folder `game` that have an `idx/` folder with `.idx`
    /// files (`bin/<build>/idx/`), oldest first: after an update the game keeps the previous
    /// build's indexes beside the new ones, so two builds can be compared.
    pub fn builds(game: impl AsRef<Path>) -> InstallResult<Vec<u64>> {
        let bin = game.as_ref().join("bin");
        let mut builds = Vec::new();
        for entry in read_dir(&bin)? {
            let Some(build) = entry
                .file_name()
                .to_str()
                .and_then(|n| n.parse::<u64>().ok())
            else {
                continue;
            };
            let idx = entry.path().join("idx");
            let has_indexes = std::fs::read_dir(&idx)
                .is_ok_and(|mut files| files.any(|f| f.is_ok_and(|f| is_idx(&f.path()))));
            if has_indexes {
                builds.push(build);
            }
        }
        builds.sort_unstable();
        Ok(builds)
    }

    /// Opens build `build` of the game folder `game` (`bin/<build>/idx/`, one of
    /// [`GameInstall::builds`]) with the volumes of `res_packages/` (those of the newest build:
    /// an older build's files may no longer be in them, though its indexes read).
    pub fn open_build(
        game: impl AsRef<Path>,
        build: u64,
        mapping: Mapping,
    ) -> InstallResult<GameInstall> {
        let game = game.as_ref();
        let builds = GameInstall::builds(game)?;
        if !builds.contains(&build) {
            return Err(InstallError::NoBuild {
                dir: game.to_path_buf(),
                build,
                builds,
            });
        }
        let idx = game.join("bin").join(build.to_string()).join("idx");
        GameInstall::open_dirs(idx, game.join("res_packages"), mapping)
    }

    /// Opens the `.idx` files of `idx_dir` with the volumes of `volume_dir` (a damaged index as
    /// in [`GameInstall::open`]).
    pub fn open_dirs(
        idx_dir: impl AsRef<Path>,
        volume_dir: impl AsRef<Path>,
        mapping: Mapping,
    ) -> InstallResult<GameInstall> {
        let idx_dir = idx_dir.as_ref();
        let mut paths: Vec<PathBuf> = read_dir(idx_dir)?
            .into_iter()
            .map(|e| e.path())
            .filter(|p| is_idx(p))
            .collect();
        if paths.is_empty() {
            return Err(InstallError::NoIndexes {
                dir: idx_dir.to_path_buf(),
            });
        }
        paths.sort();
        let mut files = Vec::with_capacity(paths.len());
        // An index that cannot be opened is left out as one that does not read.
        let mut damaged = Vec::new();
        for path in paths {
            let file = match mapping {
                Mapping::Map => MappedFile::open(&path),
                Mapping::Read => MappedFile::read(&path),
            };
            match file {
                Ok(file) => files.push((path, file)),
                Err(error) => damaged.push(InstallError::Io { path, error }),
            }
        }
        GameInstall::build(files, volume_dir.as_ref(), Vec::new(), mapping, damaged)
    }

    /// An install of indexes and volumes already in memory (each with its file name): the
    /// synthetic installs and the tests use it. A damaged index as in [`GameInstall::open`].
    pub fn from_memory(
        indexes: Vec<(String, Vec<u8>)>,
        volumes: Vec<(String, Vec<u8>)>,
    ) -> InstallResult<GameInstall> {
        let files = indexes
            .into_iter()
            .map(|(name, bytes)| (PathBuf::from(name), MappedFile::from_vec(bytes)))
            .collect();
        let volumes = volumes
            .into_iter()
            .map(|(name, bytes)| (name, MappedFile::from_vec(bytes)))
            .collect();
        GameInstall::build(files, Path::new(""), volumes, Mapping::Read, Vec::new())
    }

    fn build(
        files: Vec<(PathBuf, MappedFile)>,
        volume_dir: &Path,
        mut loaded: Vec<(String, MappedFile)>,
        mapping: Mapping,
        mut damaged: Vec<InstallError>,
    ) -> InstallResult<GameInstall> {
        let mut indexes = Vec::with_capacity(files.len());
        let mut volumes: Vec<VolumeFile> = Vec::new();
        let (mut names, mut file_records) = (0u64, 0u64);
        for (path, file) in files {
            // An index that does not read is left out, the others kept (`damaged`).
            let (idx, index_volumes) = match read_index(&path, &file, names, file_records) {
                Ok(read) => read,
                Err(error) => {
                    damaged.push(error);
                    continue;
                }
            };
            for (id, name) in index_volumes {
                if volumes.iter().any(|v| v.id == id) {
                    continue;
                }
                let data = OnceLock::new();
                if let Some(at) = loaded.iter().position(|(n, _)| *n == name) {
                    let _ = data.set(Ok(loaded.swap_remove(at).1));
                }
                volumes.push(VolumeFile {
                    id,
                    path: volume_dir.join(&name),
                    data,
                });
            }
            // Below the limits: checked by `read_index`.
            let (first_name, first_file) = (names as u32, file_records as u32);
            names += idx.name_count() as u64;
            file_records += idx.file_count() as u64;
            let shape = idx.shape();
            indexes.push(Index {
                path,
                file,
                shape,
                first_name,
                first_file,
            });
        }
        if indexes.is_empty() && !damaged.is_empty() {
            // Not an empty install: one whose every index is damaged.
            return Err(match damaged.len() {
                1 => damaged.swap_remove(0),
                _ => InstallError::NoReadableIndex { damaged },
            });
        }
        // By id, for `volume_bytes`'s binary search: a read looked its volume up among a real
        // install's hundreds by a scan (a quarter of a read's instructions, callgrind).
        volumes.sort_unstable_by_key(|v| v.id);
        let mut install = GameInstall {
            // `names` and `file_records` are below 2^32 - 1 (checked above).
            name_ranges: RecordRanges::new(
                indexes.iter().map(|i| i.first_name).collect(),
                names as u32,
            ),
            file_ranges: RecordRanges::new(
                indexes.iter().map(|i| i.first_file).collect(),
                file_records as u32,
            ),
            indexes,
            volumes,
            entries: EntryIndex::default(),
            folders: Folders::default(),
            conflicts: Vec::new(),
            damaged,
            mapping,
        };
        let (entries, folders) = install.index_entries()?;
        install.entries = entries;
        install.folders = folders;
        Ok(install)
    }

    /// The table of every name, its file attached, duplicates merged; and the table of folders.
    fn index_entries(&mut self) -> InstallResult<(EntryIndex, Folders)> {
        let total: usize = self
            .indexes
            .iter()
            .map(|i| self.view_of(i).map(|v| v.name_count()).unwrap_or(0))
            .sum();
        let mut slots = Vec::with_capacity(total);
        let mut files: Vec<(u64, u32)> = Vec::new();
        for index in &self.indexes {
            let view = self.view_of(index)?;
            slots.extend(view.name_ids().enumerate().map(|(i, id)| Slot {
                id,
                name: index.first_name + i as u32,
                file: NO_FILE,
            }));
            files.extend(
                view.file_ids()
                    .enumerate()
                    .map(|(i, id)| (id, index.first_file + i as u32)),
            );
        }
        sort_by_buckets(&mut slots, |s| (s.id >> 48) as usize);
        sort_by_buckets(&mut files, |&(id, _)| (id >> 48) as usize);
        // Attach each file record to the first name of its id.
        let mut next = 0;
        for (id, file) in files {
            while slots.get(next).is_some_and(|s| s.id < id) {
                next += 1;
            }
            match slots.get_mut(next) {
                Some(slot) if slot.id == id && slot.is_folder() => slot.file = file,
                Some(slot) if slot.id == id => {
                    let first = slot.file;
                    if !self.same_file(first, file) {
                        self.conflict(id, self.index_of_file(first), self.index_of_file(file));
                    }
                }
                // A file record without a name: not reachable by path; `check` reports it.
                _ => {}
            }
        }
        // Merge repeated ids: equal directories silently, anything else as a conflict.
        let mut kept: Vec<Slot> = Vec::with_capacity(slots.len());
        for slot in slots {
            match kept.last_mut() {
                Some(last) if last.id == slot.id => {
                    if !(slot.is_folder() && self.same_name(*last, slot)) {
                        self.conflict(
                            slot.id,
                            self.index_of_name(last.name),
                            self.index_of_name(slot.name),
                        );
                    }
                }
                _ => kept.push(slot),
            }
        }
        // Each folder gets its place in the folder table in the order of its name records, so
        // that their names are read through each index once, in order, rather than at random.
        let mut by_record: Vec<(u32, usize)> = (kept.iter().enumerate())
            .filter(|(_, s)| s.is_folder())
            .map(|(i, s)| (s.name, i))
            .collect();
        by_record.sort_unstable();
        // A place must leave the top bit, which tells a folder from a file, clear.
        if by_record.len() >= FOLDER as usize {
            return Err(InstallError::Index {
                path: self
                    .indexes
                    .first()
                    .map(|i| i.path.clone())
                    .unwrap_or_default(),
                error: Error::invalid(
                    0x10,
                    "IdxTableHeader",
                    by_record.len() as u64,
                    "the install holds more than 2^31 - 1 folders",
                ),
            });
        }
        for (position, &(_, i)) in by_record.iter().enumerate() {
            if let Some(slot) = kept.get_mut(i) {
                // Below 2^31: checked above.
                slot.file = FOLDER | position as u32;
            }
        }
        // Each folder's id and place, in id order (as the slots are): a parent is found here, in
        // a table small enough to stay in the cache, not by a probe of the whole id table.
        let folder_ids: Vec<(u64, u32)> = (kept.iter())
            .filter(|s| s.is_folder())
            .map(|s| (s.id, s.folder()))
            .collect();
        let mut folders = Folders::with_capacity(by_record.len());
        for &(record, _) in &by_record {
            let Some(Name {
                name, parent_id, ..
            }) = self.lookup_name(record)
            else {
                folders.push(&[], UNKNOWN);
                continue;
            };
            let parent = match folder_ids.binary_search_by_key(&parent_id, |&(id, _)| id) {
                _ if parent_id == ROOT_PARENT_ID => ROOT,
                Ok(i) => folder_ids.get(i).map_or(UNKNOWN, |&(_, place)| place),
                // Not a folder: a missing parent, or a file's name (the indexes then decide).
                Err(_) => UNKNOWN,
            };
            folders.push(name, parent);
        }
        folders.finish();
        Ok((EntryIndex::new(&kept), folders))
    }

    fn conflict(&mut self, id: u64, kept: usize, dropped: usize) {
        let path = |i: usize| {
            self.indexes
                .get(i)
                .map(|x| x.path.clone())
                .unwrap_or_default()
        };
        let conflict = Conflict {
            id,
            kept: path(kept),
            dropped: path(dropped),
        };
        self.conflicts.push(conflict);
    }

    /// Whether two name records (of one id) say the same: name and parent.
    fn same_name(&self, a: Slot, b: Slot) -> bool {
        match (self.name_record(a.name), self.name_record(b.name)) {
            (Ok(a), Ok(b)) => a.name == b.name && a.parent_id == b.parent_id,
            _ => false,
        }
    }

    /// Whether two file records say the same (their offsets in their indexes aside).
    fn same_file(&self, a: u32, b: u32) -> bool {
        match (self.file_record(a), self.file_record(b)) {
            (Some(a), Some(b)) => FileEntry { offset: 0, ..a } == FileEntry { offset: 0, ..b },
            _ => false,
        }
    }

    /// The view of `index`, from the table bounds read when the install was opened: no header is
    /// read again on a lookup.
    fn view_of<'i>(&self, index: &'i Index) -> InstallResult<IdxView<'i>> {
        let bytes = index.file.bytes();
        match IdxView::with_shape(bytes, index.shape) {
            Some(view) => Ok(view),
            // Not reached: the bytes are those the shape was read from.
            None => IdxView::from_bytes(bytes).map_err(|error| InstallError::Index {
                path: index.path.clone(),
                error,
            }),
        }
    }

    fn index_of_name(&self, name: u32) -> usize {
        self.name_ranges.index_of(name)
    }

    fn index_of_file(&self, file: u32) -> usize {
        self.file_ranges.index_of(file)
    }

    /// Name record `name` (install-wide number).
    fn name_record(&self, name: u32) -> InstallResult<Name<'_>> {
        let missing = || InstallError::NoSuchName { name };
        let index = self
            .indexes
            .get(self.index_of_name(name))
            .ok_or_else(missing)?;
        let record = name.checked_sub(index.first_name).map(|i| i as usize);
        record
            .and_then(|i| index.shape.name(index.file.bytes(), i))
            .ok_or_else(missing)?
            .map_err(|error| InstallError::Index {
                path: index.path.clone(),
                error,
            })
    }

    /// File record `file` (install-wide number).
    fn file_record(&self, file: u32) -> Option<FileEntry> {
        let index = self.indexes.get(self.index_of_file(file))?;
        let record = file.checked_sub(index.first_file)? as usize;
        index.shape.file(index.file.bytes(), record)
    }

    /// The paths of the indexes, in the order they were read.
    pub fn index_paths(&self) -> impl Iterator<Item = &Path> {
        self.indexes.iter().map(|i| i.path.as_path())
    }

    /// Each index, read.
    pub fn indexes(&self) -> impl Iterator<Item = (&Path, InstallResult<IdxView<'_>>)> {
        self.indexes
            .iter()
            .map(|i| (i.path.as_path(), self.view_of(i)))
    }

    /// How many distinct names (directories and files) the install holds.
    pub fn entry_count(&self) -> usize {
        self.entries.len()
    }

    /// How many of them are files.
    pub fn file_count(&self) -> usize {
        self.entries.iter().filter(|s| !s.is_folder()).count()
    }

    /// The heap the install keeps for its lookups (the id table: 14 bytes a name and a 256 KB
    /// directory; which index holds a record: 4 bytes each 256 records; each folder's name and
    /// parent: 8 bytes and its name a folder), in bytes.
    pub fn index_heap_bytes(&self) -> usize {
        self.entries.heap_bytes()
            + self.name_ranges.heap_bytes()
            + self.file_ranges.heap_bytes()
            + self.folders.heap_bytes()
    }

    /// Ids that two indexes give to different records.
    pub fn conflicts(&self) -> &[Conflict] {
        &self.conflicts
    }

    /// The indexes left out because they do not read, in the order of their paths: each an
    /// [`InstallError::Index`] (its header, its tables or a volume record does not read: the
    /// offset, the field and why) or an [`InstallError::Io`] (the file could not be opened).
    ///
    /// Their files are not in the install, and what they hold is unknown: a file of theirs is
    /// not found, and ids they share with the other indexes are not checked
    /// ([`GameInstall::conflicts`] covers the indexes that read). Empty for a sound install;
    /// an install none of whose indexes reads does not open.
    pub fn damaged(&self) -> &[InstallError] {
        &self.damaged
    }

    /// The file at `path` (relative to `res/`; the forms [`path_id`] accepts), or `None`.
    /// The path's id is probed, then the names from the file up to the root are compared with
    /// its segments, so a hash collision can never return another file.
    ///
    /// A path already in the form ids are taken of (`content/assets.bin`) is hashed as it is and
    /// its segments compared in place: the file's name record with the last one, the folder
    /// table with the others; another spelling (`res\\content//assets.bin`) is put in that form
    /// first.
    pub fn find(&self, path: &str) -> InstallResult<Option<InstallFile<'_>>> {
        let mut slashes = [0; WALKED_SEGMENTS - 1];
        if let Some(count) = find_slashes(path.as_bytes(), &mut slashes) {
            match self.walk_normal(path, slashes.get(..count).unwrap_or_default()) {
                Walk::Found(leaf, name, file) => {
                    return Ok(file.map(|file| InstallFile {
                        name,
                        file,
                        index: self.index_of_file(leaf.file),
                    }));
                }
                Walk::Unread(name) => return self.name_record(name).map(|_| None),
                Walk::NotFound if is_normal(path) => return Ok(None),
                Walk::NotFound | Walk::NotNormal => {}
            }
        }
        let Some(slot) = self.entries.find(path_id(path)) else {
            return Ok(None);
        };
        if slot.is_folder() {
            return Ok(None);
        }
        let name = self.name_record(slot.name)?;
        let parent = |id| match self.entries.find(id) {
            Some(slot) => self.name_record(slot.name).map(Some),
            None => Ok(None),
        };
        if !spells(name, path, parent)? {
            return Ok(None);
        }
        Ok(self.install_file(slot, name))
    }

    /// [`GameInstall::find`] of `path` taken as it is: its hash probed, its last segment compared
    /// with the name found, then its folders with the folder table (or with the names of the
    /// indexes, where the table does not know a folder: [`GameInstall::walk_records`]). Only a
    /// normal path's hash is its id, so a segment that shows the path is not in normal form
    /// (empty, `.`, or a top `res` with more below) stops the walk. `slashes`: where the path's
    /// `/`s are.
    fn walk_normal(&self, path: &str, slashes: &[usize]) -> Walk<'_> {
        let bytes = path.as_bytes();
        let id = city_hash_64(bytes);
        // The folder's id, from the hash of the path's folder part (a folder's id when the path is
        // a file's): both probes' reads start before either is scanned.
        let folder_id = slashes
            .last()
            .map(|&last| city_hash_64(bytes.get(..last).unwrap_or_default()));
        self.entries.prefetch(id);
        if let Some(folder_id) = folder_id {
            self.entries.prefetch(folder_id);
        }
        let Some(leaf) = self.entries.find(id).filter(|slot| !slot.is_folder()) else {
            return Walk::NotFound;
        };
        // Read first: its memory read then overlaps those of the names.
        let file = self.file_record(leaf.file);
        let split = slashes.split_last();
        let segment = split.map_or(bytes, |(&last, _)| {
            bytes.get(last + 1..).unwrap_or_default()
        });
        if matches!(segment, b"" | b".") {
            return Walk::NotNormal;
        }
        let Some(name) = self.lookup_name(leaf.name) else {
            return Walk::Unread(leaf.name);
        };
        let (Some((&last, above)), Some(folder_id)) = (split, folder_id) else {
            return self.walk_records(leaf, name, file, path, slashes);
        };
        let folder = self.entries.find(folder_id);
        if !same_segment(name.name, segment) || name.parent_id == ROOT_PARENT_ID {
            return Walk::NotFound;
        }
        let folder = match folder {
            Some(folder) if folder.id == name.parent_id => Some(folder),
            _ => self.entries.find(name.parent_id),
        };
        match folder {
            None => Walk::NotFound,
            Some(folder) if folder.is_folder() => {
                match self.folders.walk(folder.folder(), bytes, above, last) {
                    FolderWalk::Matches => Walk::Found(leaf, name, file),
                    FolderWalk::Differs => Walk::NotFound,
                    FolderWalk::NotNormal => Walk::NotNormal,
                    FolderWalk::Unknown => self.walk_records(leaf, name, file, path, slashes),
                }
            }
            // A file's name as a parent: the indexes are read as they are.
            Some(_) => self.walk_records(leaf, name, file, path, slashes),
        }
    }

    /// [`GameInstall::walk_normal`] through the names of the indexes alone: from the last
    /// segment up (`leaf_name`, the leaf's name record, already read), each segment compared
    /// with a name and the name's parent probed. Each step takes a segment off the path, so a
    /// cycle of parent ids ends with the path.
    fn walk_records<'i>(
        &'i self,
        leaf: Slot,
        leaf_name: Name<'i>,
        file: Option<FileEntry>,
        path: &str,
        slashes: &[usize],
    ) -> Walk<'i> {
        let mut name = leaf_name;
        let mut end = path.len();
        let mut slashes = slashes.iter().rev();
        loop {
            let slash = slashes.next();
            let start = slash.map_or(0, |&at| at + 1);
            let segment = path.as_bytes().get(start..end).unwrap_or_default();
            if matches!(segment, b"" | b".") {
                return Walk::NotNormal;
            }
            if !same_segment(name.name, segment) {
                return Walk::NotFound;
            }
            let at_root = name.parent_id == ROOT_PARENT_ID;
            match slash {
                None if segment == b"res" && end < path.len() => return Walk::NotNormal,
                None if at_root => return Walk::Found(leaf, leaf_name, file),
                Some(&slash) if !at_root => {
                    let Some(parent) = self.entries.find(name.parent_id) else {
                        return Walk::NotFound;
                    };
                    let Some(parent_name) = self.lookup_name(parent.name) else {
                        return Walk::Unread(parent.name);
                    };
                    name = parent_name;
                    end = slash;
                }
                // The names reach the root before the path's top, or the path ends below it.
                _ => return Walk::NotFound,
            }
        }
    }

    /// Name record `name` (install-wide number) as a lookup compares it ([`IdxShape::lookup_name`]),
    /// `None` when it does not read ([`GameInstall::name_record`] says why).
    #[inline]
    fn lookup_name(&self, name: u32) -> Option<Name<'_>> {
        let index = self.indexes.get(self.index_of_name(name))?;
        let record = name.checked_sub(index.first_name)? as usize;
        index.shape.lookup_name(index.file.bytes(), record)
    }

    fn install_file<'i>(&'i self, slot: Slot, name: Name<'i>) -> Option<InstallFile<'i>> {
        Some(InstallFile {
            name,
            file: self.file_record(slot.file)?,
            index: self.index_of_file(slot.file),
        })
    }

    /// Writes the full path of `name` into `out` (cleared first), from the root down.
    pub fn full_path(&self, name: &Name<'_>, out: &mut String) -> InstallResult<()> {
        out.clear();
        let mut current = *name;
        for _ in 0..MAX_DEPTH {
            let text = current.name_str().map_err(|error| InstallError::Entry {
                path: format!("{:#018x}", name.id),
                error,
            })?;
            // Built from the leaf up, each segment put in front: paths are short, and this keeps
            // one buffer and no list of segments.
            if out.len() + text.len() + 1 > MAX_PATH_BYTES {
                return Err(InstallError::Entry {
                    path: format!("{:#018x}", name.id),
                    error: Error::invalid(
                        crate::bytes::u64_of(current.name_offset),
                        "NameRecord.name",
                        (out.len() + text.len() + 1) as u64,
                        "the full path grows past 4096 bytes",
                    ),
                });
            }
            if !out.is_empty() {
                out.insert(0, '/');
            }
            out.insert_str(0, text);
            if current.parent_id == ROOT_PARENT_ID {
                return Ok(());
            }
            let Some(parent) = self.entries.find(current.parent_id) else {
                return Err(InstallError::NoRoot { id: name.id });
            };
            current = self.name_record(parent.name)?;
        }
        Err(InstallError::NoRoot { id: name.id })
    }

    /// Every file of the install (in id order), with its full path written into `path` before
    /// `each` is called: no allocation per file once `path` has grown to the longest path. Files
    /// whose records do not read are passed as errors; `each` returning `false` stops the walk.
    /// The files borrow the install, not the walk: they can be kept (to read them later, on other
    /// threads).
    pub fn for_each_file<'i>(
        &'i self,
        selection: &Selection,
        path: &mut String,
        mut each: impl FnMut(&str, InstallResult<InstallFile<'i>>) -> bool,
    ) {
        for slot in self.entries.iter() {
            if slot.is_folder() {
                continue;
            }
            let file = self.name_record(slot.name).and_then(|name| {
                self.full_path(&name, path)?;
                Ok(name)
            });
            let go_on = match file {
                Ok(name) if selection.matches(path) => match self.install_file(slot, name) {
                    Some(file) => each(path, Ok(file)),
                    None => true,
                },
                Ok(_) => true,
                Err(error) => each(&format!("{:#018x}", slot.id), Err(error)),
            };
            if !go_on {
                return;
            }
        }
    }

    /// The name record of `id` (a folder's, or a file's), or `None` when the install has no
    /// name of that id.
    pub(super) fn name_by_id(&self, id: u64) -> Option<InstallResult<Name<'_>>> {
        let slot = self.entries.find(id)?;
        Some(self.name_record(slot.name))
    }

    /// Every file of the install in the order of its name records (index by index, each in
    /// table order), as [`GameInstall::files`] gives them: for a walk of every file, the records
    /// are then read one after the other rather than at random, and a folder's files mostly
    /// come together. One transient table of 4 bytes a name (which name record is which file).
    pub fn files_in_record_order(
        &self,
    ) -> impl Iterator<Item = InstallResult<InstallFile<'_>>> + '_ {
        let names = self
            .indexes
            .last()
            .and_then(|i| self.view_of(i).ok().map(|v| (i.first_name, v.name_count())))
            .map_or(0, |(first, count)| first as usize + count);
        let mut files = vec![NO_FILE; names];
        for slot in self.entries.iter().filter(|s| !s.is_folder()) {
            if let Some(file) = files.get_mut(slot.name as usize) {
                *file = slot.file;
            }
        }
        files
            .into_iter()
            .enumerate()
            .filter(|&(_, file)| file != NO_FILE)
            .filter_map(move |(name, file)| {
                // Below 2^32 - 1: the install numbers its names in u32 (`build`).
                let slot = Slot {
                    id: 0,
                    name: name as u32,
                    file,
                };
                match self.name_record(slot.name) {
                    Ok(name) => self.install_file(slot, name).map(Ok),
                    Err(error) => Some(Err(error)),
                }
            })
    }

    /// Every file of the install (in id order), without its path ([`GameInstall::full_path`]
    /// gives it): nothing is allocated. A file whose name record does not read is an error.
    pub fn files(&self) -> impl Iterator<Item = InstallResult<InstallFile<'_>>> + '_ {
        self.entries
            .iter()
            .filter(|slot| !slot.is_folder())
            .filter_map(|slot| match self.name_record(slot.name) {
                Ok(name) => self.install_file(slot, name).map(Ok),
                Err(error) => Some(Err(error)),
            })
    }

    /// The bytes of `file`: borrowed from its volume when stored, inflated into `out` when
    /// deflated; sizes, trailer and CRC-32 checked. `path` names the file in errors.
    pub fn read<'v>(
        &'v self,
        file: &InstallFile<'_>,
        path: &str,
        reader: &mut BlobReader,
        out: &'v mut Vec<u8>,
    ) -> InstallResult<&'v [u8]> {
        let (volume, bytes) = self.volume_bytes(file.file.volume_id, path)?;
        reader
            .read(&file.file, bytes, out)
            .map_err(|error| InstallError::Blob {
                path: path.to_owned(),
                volume: volume.to_path_buf(),
                error,
            })
    }

    /// The bytes of the file at `path`, owned (inflated and CRC-checked; a stored file copied out
    /// of its volume), or `None` when the install has no file there: for a reader that wants
    /// the file for itself, such as an `AssetsDb` over `content/assets.bin`.
    pub fn read_to_vec(
        &self,
        path: &str,
        reader: &mut BlobReader,
    ) -> InstallResult<Option<Vec<u8>>> {
        let Some(file) = self.find(path)? else {
            return Ok(None);
        };
        let mut out = Vec::new();
        let bytes = self.read(&file, path, reader, &mut out)?;
        // A stored file is a slice of its volume; a deflated one is `out`, resized to it.
        if file.file.compression == Compression::Stored {
            return Ok(Some(bytes.to_vec()));
        }
        Ok(Some(out))
    }

    /// The bytes of the volume `id`, mapped (or read) on first use.
    fn volume_bytes(&self, id: u64, path: &str) -> InstallResult<(&Path, &[u8])> {
        // The ids are distinct (the first index to name one keeps it) and sorted (`build`).
        let found = self.volumes.binary_search_by_key(&id, |v| v.id);
        let Some(volume) = found.ok().and_then(|at| self.volumes.get(at)) else {
            return Err(InstallError::Volume {
                path: path.to_owned(),
                volume: format!("{id:#018x}"),
                error: None,
            });
        };
        let data = volume.data.get_or_init(|| {
            let file = match self.mapping {
                Mapping::Map => MappedFile::open(&volume.path),
                Mapping::Read => MappedFile::read(&volume.path),
            };
            file.map_err(|e| (e.kind(), e.raw_os_error()))
        });
        match data {
            Ok(file) => Ok((&volume.path, file.bytes())),
            Err((kind, code)) => Err(InstallError::Volume {
                path: path.to_owned(),
                volume: volume.path.display().to_string(),
                error: Some(code.map_or_else(
                    || std::io::Error::from(*kind),
                    std::io::Error::from_raw_os_error,
                )),
            }),
        }
    }
}

/// The index `file` (at `path`) opened, with its volumes' ids and file names: an error when its
/// header, its tables or a volume record does not read, or when its records would take the
/// install past the numbers it can hold (`names` and `file_records` before it).
fn read_index<'f>(
    path: &Path,
    file: &'f MappedFile,
    names: u64,
    file_records: u64,
) -> InstallResult<(IdxView<'f>, Vec<(u64, String)>)> {
    let damaged = |error| InstallError::Index {
        path: path.to_path_buf(),
        error,
    };
    let idx = IdxView::from_bytes(file.bytes()).map_err(damaged)?;
    // At most one a 24-byte record inside the file (checked by `from_bytes`).
    let mut volumes = Vec::with_capacity(idx.volume_count());
    for volume in idx.volumes() {
        let volume = volume.map_err(damaged)?;
        volumes.push((volume.id, volume_file_name(&volume).map_err(damaged)?));
    }
    let names = names + idx.name_count() as u64;
    let file_records = file_records + idx.file_count() as u64;
    if names >= u64::from(NO_FILE) || file_records >= u64::from(FOLDER) {
        return Err(damaged(Error::invalid(
            0x10,
            "IdxTableHeader",
            u64::from(NO_FILE),
            "the install holds more than 2^32 - 2 names or 2^31 - 1 files",
        )));
    }
    Ok((idx, volumes))
}

/// A volume's file name, which must be a plain file name (it is joined to the volume folder).
fn volume_file_name(volume: &Volume<'_>) -> crate::error::Result<String> {
    let name = volume.name_str()?;
    if name.is_empty() || matches!(name, "." | "..") || name.contains(['/', '\\', ':', '\0']) {
        return Err(Error::invalid(
            crate::bytes::u64_of(volume.name_offset),
            "VolumeRecord.name",
            name.len() as u64,
            "not a plain file name (a folder, a drive or a parent would lead outside the volume folder)",
        ));
    }
    Ok(name.to_owned())
}

fn is_idx(path: &Path) -> bool {
    path.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("idx"))
        && path.is_file()
}

fn read_dir(dir: &Path) -> InstallResult<Vec<std::fs::DirEntry>> {
    let io = |error| InstallError::Io {
        path: dir.to_path_buf(),
        error,
    };
    std::fs::read_dir(dir)
        .map_err(io)?
        .collect::<Result<Vec<_>, _>>()
        .map_err(io)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slashes_are_found_at_every_position_and_backslashes_and_nuls_refused() {
        let mut slashes = [0; WALKED_SEGMENTS - 1];
        for len in 0..40 {
            for mask in [
                0u64,
                1,
                0b1001,
                0x5555_5555_5555,
                (1 << 40) - 1,
                1 << 39,
                1 << 7,
            ] {
                let path: Vec<u8> = (0..len)
                    .map(|i| {
                        if mask >> i & 1 == 1 {
                            b'/'
                        } else {
                            b'a' + (i % 26) as u8
                        }
                    })
                    .collect();
                let expected: Vec<usize> = (0..len).filter(|&i| path[i] == b'/').collect();
                let found = find_slashes(&path, &mut slashes);
                if expected.len() <= slashes.len() {
                    assert_eq!(found, Some(expected.len()), "{path:?}");
                    assert_eq!(&slashes[..expected.len()], &expected[..], "{path:?}");
                } else {
                    assert_eq!(found, None, "{path:?}");
                }
                for at in 0..len {
                    for bad in [b'\\', 0] {
                        let mut bad_path = path.clone();
                        bad_path[at] = bad;
                        assert_eq!(find_slashes(&bad_path, &mut slashes), None);
                    }
                }
            }
        }
        // Bytes next to the three (and above 0x7f) are none of them.
        let near = [b'.', b'0', b'[', b']', 0x01, 0xff, 0x80, 0xaf, 0xdc];
        assert_eq!(find_slashes(&near, &mut slashes), Some(0));
    }
}

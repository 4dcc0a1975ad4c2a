//! A single `.idx` as one of [`AnyView`](crate::AnyView)'s formats: its [`View`] implementation,
//! the summary `gamebin info` prints and what `gamebin check` finds in it.
//!
//! An index alone says where every file's bytes are, not what they are: the blobs and their
//! CRC-32s are in the `.pkg` volumes, which `gamebin check` of the game folder reads
//! ([`GameInstall`](super::GameInstall)). What one index can verify is checked here: its
//! checksum, every record, the tree (each name's parents lead to the root, no cycle, ids unique
//! and equal to the hash of their paths), and each file record's name and volume.

use core::fmt;
use std::collections::HashMap;

use super::entry::Compression;
use super::tree::{Broken, Reach, Tree};
use super::{IdxLayout, IdxView};
use crate::error::Error;
use crate::hash::city_hash_64;
use crate::view::{View, count};

/// What the summary and the check say of the blobs: an index does not hold them.
pub const BLOBS_NOT_CHECKED: &str =
    "blobs and their CRC-32s are in the .pkg volumes: check the game folder to read them";

/// One thing the `.idx` check found. `Display` reads like the reader's errors: the file offset of
/// the record, the structure and field, what is wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum IdxFinding {
    /// The header's checksum does not match the bytes after it (error).
    Checksum(Error),
    /// A record that does not read: its name is outside the file, not NUL-terminated or not UTF-8
    /// (error).
    Unreadable(Error),
    /// A record whose id an earlier record of the same table has (error: which one a lookup
    /// finds is a matter of order).
    DuplicateId {
        /// `"NameRecord"`, `"FileRecord"` or `"VolumeRecord"`.
        table: &'static str,
        /// The id.
        id: u64,
        /// The file offset of this record.
        offset: usize,
        /// The file offset of the first record with the id.
        first: usize,
    },
    /// A name whose parents do not lead to the root (error).
    NoRoot {
        /// The name's id.
        id: u64,
        /// The file offset of its record.
        offset: usize,
        /// Why.
        why: Broken,
    },
    /// A name whose parent is a file, not a directory (error).
    ParentIsFile {
        /// The name's id.
        id: u64,
        /// The file offset of its record.
        offset: usize,
        /// The parent's id.
        parent_id: u64,
    },
    /// A name whose id is not CityHash64 of its full path: a lookup by path misses it (warning).
    PathId {
        /// The file offset of its record.
        offset: usize,
        /// The full path its parents spell.
        path: String,
        /// The id stored.
        stored: u64,
        /// CityHash64 of the path.
        computed: u64,
    },
    /// A file record whose id no name record has: it has no path (error).
    FileWithoutName {
        /// The file's id.
        id: u64,
        /// The file offset of its record.
        offset: usize,
    },
    /// A file record whose volume id no volume record has (error).
    UnknownVolume {
        /// The file's id.
        id: u64,
        /// The file offset of its record.
        offset: usize,
        /// The volume id stored.
        volume_id: u64,
    },
    /// A stored (uncompressed) file whose stored and unpacked sizes differ (error).
    StoredSizes {
        /// The file's id.
        id: u64,
        /// The file offset of its record.
        offset: usize,
        /// The stored size.
        size: u32,
        /// The unpacked size.
        unpacked_size: u32,
    },
    /// A file stored with a compression gamebin does not decode: an Oodle stream, or an unknown
    /// pair of words (warning).
    Undecodable {
        /// The file's id.
        id: u64,
        /// The file offset of its record.
        offset: usize,
        /// The compression.
        compression: Compression,
    },
    /// A volume whose id is not CityHash64 of its file name (warning).
    VolumeId {
        /// The file offset of its record.
        offset: usize,
        /// The file name.
        name: String,
        /// The id stored.
        stored: u64,
        /// CityHash64 of the name.
        computed: u64,
    },
    /// A volume no file record points into (warning).
    UnusedVolume {
        /// The file offset of its record.
        offset: usize,
        /// The file name.
        name: String,
    },
    /// The full paths were not all rebuilt: they would take more than the budget (warning; the
    /// ids of the names left out are not compared with their paths).
    PathBudget {
        /// The bytes of paths rebuilt at most.
        budget: usize,
    },
}

impl fmt::Display for IdxFinding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IdxFinding::Checksum(e) | IdxFinding::Unreadable(e) => e.fmt(f),
            IdxFinding::DuplicateId {
                table,
                id,
                offset,
                first,
            } => write!(
                f,
                "at {offset:#010x}: {table}.id: {id:#018x} is the id of the record at {first:#010x} too"
            ),
            IdxFinding::NoRoot { id, offset, why } => write!(
                f,
                "at {offset:#010x}: NameRecord.parentId: name {id:#018x}: {}",
                why.describe()
            ),
            IdxFinding::ParentIsFile {
                id,
                offset,
                parent_id,
            } => write!(
                f,
                "at {offset:#010x}: NameRecord.parentId: name {id:#018x}: its parent {parent_id:#018x} is a file, not a directory"
            ),
            IdxFinding::PathId {
                offset,
                path,
                stored,
                computed,
            } => write!(
                f,
                "at {offset:#010x}: NameRecord.id: {stored:#018x} is not CityHash64 of its path {path:?} ({computed:#018x}): a lookup by path misses it"
            ),
            IdxFinding::FileWithoutName { id, offset } => write!(
                f,
                "at {offset:#010x}: FileRecord.id: no name record has id {id:#018x}: the file has no path"
            ),
            IdxFinding::UnknownVolume {
                id,
                offset,
                volume_id,
            } => write!(
                f,
                "at {offset:#010x}: FileRecord.volumeId: file {id:#018x}: no volume record has id {volume_id:#018x}"
            ),
            IdxFinding::StoredSizes {
                id,
                offset,
                size,
                unpacked_size,
            } => write!(
                f,
                "at {offset:#010x}: FileRecord.size: file {id:#018x} is stored uncompressed but its stored size {size} is not its unpacked size {unpacked_size}"
            ),
            IdxFinding::Undecodable {
                id,
                offset,
                compression,
            } => {
                let (method, flag) = compression.words();
                write!(
                    f,
                    "at {offset:#010x}: FileRecord.compression: file {id:#018x} is stored as ({method}, {flag}), {}: gamebin does not decode it",
                    compression.as_str()
                )
            }
            IdxFinding::VolumeId {
                offset,
                name,
                stored,
                computed,
            } => write!(
                f,
                "at {offset:#010x}: VolumeRecord.id: {stored:#018x} is not CityHash64 of its name {name:?} ({computed:#018x})"
            ),
            IdxFinding::UnusedVolume { offset, name } => write!(
                f,
                "at {offset:#010x}: VolumeRecord: no file record points into {name:?}"
            ),
            IdxFinding::PathBudget { budget } => write!(
                f,
                "the full paths would take more than {budget} bytes: some were not rebuilt, and their ids not compared with them"
            ),
        }
    }
}

/// How many files are stored each way.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct CompressionCounts {
    /// Stored as they are.
    pub stored: usize,
    /// Raw deflate.
    pub deflate: usize,
    /// Oodle data streams (not decoded by gamebin).
    pub oodle: usize,
    /// Any other pair of compression words.
    pub unknown: usize,
}

/// What `gamebin info` shows of a `.idx`: its layout, how many names, files and volumes it holds,
/// the bytes its files take, and whether its checksum matches.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct IdxInfo {
    /// `"current"` (pointer size 0x40) or `"legacy"` (0x20).
    pub layout: &'static str,
    /// Name records: directories and files.
    pub names: usize,
    /// Name records that are directories (the names without a file record, counted as names
    /// minus file records).
    pub directories: usize,
    /// File records.
    pub files: usize,
    /// The `.pkg` volumes the index names, in table order.
    pub volumes: Vec<String>,
    /// How many files are stored each way.
    pub compression: CompressionCounts,
    /// The files' bytes as stored in the volumes.
    pub stored_bytes: u64,
    /// The files' bytes unpacked.
    pub unpacked_bytes: u64,
    /// `"ok"` when the header's checksum matches the bytes after it, else `"mismatch"`.
    pub checksum: &'static str,
    /// What is not verified here ([`BLOBS_NOT_CHECKED`]).
    pub blobs: &'static str,
}

impl fmt::Display for IdxInfo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} ({} layout), {} ({} and {}), {}",
            <IdxView<'_> as View<'_>>::NAME,
            self.layout,
            count(self.names, "name", "names"),
            count(self.directories, "directory", "directories"),
            count(self.files, "file", "files"),
            count(self.volumes.len(), "volume", "volumes"),
        )?;
        match self.volumes.as_slice() {
            [] => {}
            [one] => write!(f, " ({one})")?,
            [first, ..] => write!(f, " ({first}, …)")?,
        }
        let c = &self.compression;
        write!(f, ", {} stored, {} deflate", c.stored, c.deflate)?;
        if c.oodle > 0 {
            write!(f, ", {} oodle", c.oodle)?;
        }
        if c.unknown > 0 {
            write!(f, ", {} unknown", c.unknown)?;
        }
        write!(
            f,
            ", {} bytes unpacked ({} stored), checksum {}; blobs not read (check the game folder)",
            self.unpacked_bytes, self.stored_bytes, self.checksum
        )
    }
}

impl IdxLayout {
    /// `"current"` or `"legacy"`.
    pub const fn name(self) -> &'static str {
        match self {
            IdxLayout::Current => "current",
            IdxLayout::Legacy => "legacy",
        }
    }
}

/// What [`IdxView::findings`] found: errors and warnings (see [`IdxFinding`] for which is which),
/// each in the order found.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct IdxFindings {
    /// What cannot be used as it is.
    pub errors: Vec<IdxFinding>,
    /// What was tolerated.
    pub warnings: Vec<IdxFinding>,
}

impl IdxFinding {
    /// The file offset the finding is at (a record's, or where reading failed), when it is at
    /// one.
    pub fn offset(&self) -> Option<u64> {
        match self {
            IdxFinding::Checksum(e) | IdxFinding::Unreadable(e) => Some(e.offset()),
            IdxFinding::DuplicateId { offset, .. }
            | IdxFinding::NoRoot { offset, .. }
            | IdxFinding::ParentIsFile { offset, .. }
            | IdxFinding::PathId { offset, .. }
            | IdxFinding::FileWithoutName { offset, .. }
            | IdxFinding::UnknownVolume { offset, .. }
            | IdxFinding::StoredSizes { offset, .. }
            | IdxFinding::Undecodable { offset, .. }
            | IdxFinding::VolumeId { offset, .. }
            | IdxFinding::UnusedVolume { offset, .. } => Some(*offset as u64),
            IdxFinding::PathBudget { .. } => None,
        }
    }
}

impl IdxView<'_> {
    /// Every problem the records, tree and header show: the checksum, every record, the tree and
    /// each file's name and volume.
    pub fn findings(&self) -> IdxFindings {
        findings(self)
    }
}

fn findings(view: &IdxView<'_>) -> IdxFindings {
    let mut report = IdxFindings::default();
    let mut error = |f: IdxFinding| report.errors.push(f);
    let mut warnings = Vec::new();
    let mut warning = |f: IdxFinding| warnings.push(f);
    if let Err(e) = view.verify_checksum() {
        error(IdxFinding::Checksum(e));
    }
    let tree = Tree::of(view);
    let record_offset = |i: usize| {
        view.table_offsets()[0]
            + i * match view.layout() {
                IdxLayout::Current => size_of::<super::raw::NameRecord>(),
                IdxLayout::Legacy => size_of::<super::raw::LegacyNameRecord>(),
            }
    };
    for &(i, first, id) in &tree.duplicates {
        error(IdxFinding::DuplicateId {
            table: "NameRecord",
            id,
            offset: record_offset(i),
            first: record_offset(first),
        });
    }
    // Each file record's offset by id (the first of each id).
    let mut files: HashMap<u64, usize> = HashMap::with_capacity(view.file_count());
    // Each volume's position by id (the first of each id).
    let mut volumes: HashMap<u64, usize> = HashMap::with_capacity(view.volume_count());
    for (i, id) in view.volume_ids().enumerate() {
        volumes.entry(id).or_insert(i);
    }
    let mut used = vec![false; view.volume_count()];
    for file in view.files() {
        if let Some(duplicate) = first_of_id(&mut files, "FileRecord", file.id, file.offset) {
            error(duplicate);
        }
        if !tree.by_id.contains_key(&file.id) {
            error(IdxFinding::FileWithoutName {
                id: file.id,
                offset: file.offset,
            });
        }
        match volumes.get(&file.volume_id) {
            Some(&v) => {
                if let Some(u) = used.get_mut(v) {
                    *u = true;
                }
            }
            None => error(IdxFinding::UnknownVolume {
                id: file.id,
                offset: file.offset,
                volume_id: file.volume_id,
            }),
        }
        match file.compression {
            Compression::Stored if file.size != file.unpacked_size => {
                error(IdxFinding::StoredSizes {
                    id: file.id,
                    offset: file.offset,
                    size: file.size,
                    unpacked_size: file.unpacked_size,
                })
            }
            Compression::OodleStream { .. } | Compression::Unknown { .. } => {
                warning(IdxFinding::Undecodable {
                    id: file.id,
                    offset: file.offset,
                    compression: file.compression,
                })
            }
            Compression::Stored | Compression::Deflate => {}
        }
    }
    for (i, name) in tree.names.iter().enumerate() {
        let name = match name {
            Ok(name) => name,
            Err(e) => {
                error(IdxFinding::Unreadable(*e));
                continue;
            }
        };
        if files.contains_key(&name.parent_id) {
            error(IdxFinding::ParentIsFile {
                id: name.id,
                offset: name.offset,
                parent_id: name.parent_id,
            });
        }
        match &tree.reach[i] {
            Reach::Root {
                path: Some(path), ..
            } => {
                let computed = city_hash_64(path.as_bytes());
                if computed != name.id {
                    warning(IdxFinding::PathId {
                        offset: name.offset,
                        path: path.clone(),
                        stored: name.id,
                        computed,
                    });
                }
            }
            Reach::Root { path: None, .. } | Reach::Unreadable => {}
            Reach::Broken(why) => error(IdxFinding::NoRoot {
                id: name.id,
                offset: name.offset,
                why: *why,
            }),
        }
    }
    let mut seen: HashMap<u64, usize> = HashMap::with_capacity(volumes.len());
    for (i, volume) in view.volumes().enumerate() {
        let volume = match volume {
            Ok(volume) => volume,
            Err(e) => {
                error(IdxFinding::Unreadable(e));
                continue;
            }
        };
        if let Some(duplicate) = first_of_id(&mut seen, "VolumeRecord", volume.id, volume.offset) {
            error(duplicate);
        }
        let name = String::from_utf8_lossy(volume.name).into_owned();
        let computed = city_hash_64(volume.name);
        if computed != volume.id {
            warning(IdxFinding::VolumeId {
                offset: volume.offset,
                name: name.clone(),
                stored: volume.id,
                computed,
            });
        }
        if !used.get(i).copied().unwrap_or(true) {
            warning(IdxFinding::UnusedVolume {
                offset: volume.offset,
                name,
            });
        }
    }
    if tree.out_of_budget {
        warning(IdxFinding::PathBudget {
            budget: Tree::path_budget(view),
        });
    }
    report.warnings = warnings;
    report
}

/// Keeps `offset` as the first record of `id` in `seen`, or gives the duplicate when an earlier
/// record of the table has that id.
fn first_of_id(
    seen: &mut HashMap<u64, usize>,
    table: &'static str,
    id: u64,
    offset: usize,
) -> Option<IdxFinding> {
    match seen.entry(id) {
        std::collections::hash_map::Entry::Occupied(first) => Some(IdxFinding::DuplicateId {
            table,
            id,
            offset,
            first: *first.get(),
        }),
        std::collections::hash_map::Entry::Vacant(slot) => {
            slot.insert(offset);
            None
        }
    }
}

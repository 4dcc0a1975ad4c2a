//! World of Warships PFS archives: the `.idx` index files of an install and the `.pkg` volumes they
//! point into. Every resource of the game (`content/assets.bin`, each `.geometry`, each texture)
//! is a blob in a volume, found through an index.
//!
//! Where its parts are: [`raw`] the on-disk structs; this file the index's view ([`IdxView`]);
//! `entry` what its records say ([`Name`], [`FileEntry`], [`Volume`], [`Compression`]); `blob`
//! reading a file's bytes out of its volume ([`BlobReader`]: borrowed when stored, inflated into
//! the caller's buffer when deflated, CRC-checked); `path` the path ids; `write` the writer of
//! indexes and volumes (feature `write`), which makes the fixtures.
//!
//! An index holds three tables, each behind a pointer from the table header at 0x10: name records
//! (the tree: a name, its id and its parent's id; a directory is a name with no file record), file
//! records (the volume, offset, sizes, compression and CRC-32 of a file's bytes) and volume records
//! (the `.pkg` file names). [`IdxView::from_bytes`] reads the header, the table header and checks
//! that the three tables lie inside the file: O(1), nothing is walked and nothing is allocated.
//! Names are resolved (bounds-checked, NUL required) when a record is read.
//!
//! # Format notes
//!
//! No real index is public; the layout follows the public readers and a real `system_data.idx`'s
//! published hexdump (its values are reproduced by a test fixture).
//!
//! - Every field is little-endian, whatever one public description says; the file table follows
//!   the string pool and is not aligned.
//! - A name's id is CityHash64 of its full path relative to `res/` (`/`-separated, no leading
//!   slash); a top-level name's parent id is CityHash64(`"."`). A volume's id is CityHash64 of its
//!   file name. So a path is found by hashing it, with no walk of the tree.
//! - Compression is told by two words: (0, 0) stored, (5, 1) raw deflate (no zlib header); 6 is an
//!   Oodle data stream (proprietary: reported, not decoded). Any other pair is reported as unknown
//!   rather than guessed.
//! - A volume stores a 16-byte trailer after each blob (0, CRC-32, unpacked size, 0); the next
//!   blob starts after it.
//! - Legacy indexes (pointer size 0x20, version word 0x01010004) hold the same facts with 32-bit
//!   pointers and fields in another order; volume names in them (and in early current ones) start
//!   with `//.//`, which is not part of the file name.
//!
//! ```
//! # #[cfg(feature = "write")]
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! use gamebin::wows::pfs::{BlobReader, Compression, IdxView, PfsWriter};
//!
//! // An index and its volume, made by the writer (a real install has them on disk).
//! let mut writer = PfsWriter::new("system_data_0001.pkg");
//! writer.add("gui/readme.txt", b"hello", Compression::Stored)?;
//! writer.add("content/assets.bin", &[7; 4096], Compression::Deflate)?;
//! let archive = writer.finish()?;
//!
//! let idx = IdxView::from_bytes(&archive.idx)?;
//! let volume = &archive.volumes[0].1;
//! let mut reader = BlobReader::new();
//! let mut out = Vec::new();
//! let (name, file) = idx.find("content/assets.bin")?.expect("the file is in the index");
//! assert_eq!(name.name_str()?, "assets.bin");
//! let bytes = reader.read(&file, volume, &mut out)?; // inflated into `out`, CRC checked
//! assert_eq!(bytes, &[7; 4096][..]);
//! # Ok(())
//! # }
//! # #[cfg(not(feature = "write"))]
//! # fn main() {}
//! ```

mod blob;
#[cfg(all(feature = "write", feature = "serde"))]
pub mod diff;
mod entry;
mod entry_index;
mod folders;
mod info;
mod install;
mod install_diff;
#[cfg(feature = "write")]
pub mod model;
mod path;
mod ranges;
pub mod raw;
mod select;
mod tree;
mod view;
#[cfg(feature = "write")]
mod write;

pub use blob::BlobReader;
pub use entry::{Compression, FileEntry, Name, Volume};
pub use info::{BLOBS_NOT_CHECKED, CompressionCounts, IdxFinding, IdxFindings, IdxInfo};
pub use install::{
    Conflict, GameInstall, InstallError, InstallFile, InstallResult, MAX_PATH_BYTES, Mapping,
};
pub use install_diff::{
    ChangedPath, Changes, DiffSide, FileChange, FileState, InstallDiff, InstallDiffError,
};
pub use path::{ROOT_PARENT_ID, path_id};
pub use select::Selection;
pub use tree::Broken;
#[cfg(feature = "write")]
pub use write::{Archive, PfsWriter};

use crate::bytes::Bytes;
use crate::error::{Error, ErrorKind, Result};
use crate::hash::murmur3_32;
use entry::{FileRecord as _, Record};
use zerocopy::{FromBytes, Immutable, KnownLayout, Unaligned};

/// The stored magic: bytes `ISFP`.
pub const MAGIC: u32 = 0x5046_5349;
/// The current layout's version word (bytes `00 00 00 02`).
pub const VERSION: u32 = 0x0200_0000;
/// The legacy layout's version word.
pub const LEGACY_VERSION: u32 = 0x0101_0004;
/// Where the table header starts, and what every table pointer counts from.
const TABLE_BASE: usize = 0x10;

/// Which of the two index layouts a file uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IdxLayout {
    /// Pointer size 0x40, version word 0x02000000: every current build.
    Current,
    /// Pointer size 0x20, version word 0x01010004: old builds.
    Legacy,
}

impl IdxLayout {
    /// The header's version word and pointer size of this layout.
    pub const fn version_and_pointer_size(self) -> (u32, u16) {
        match self {
            IdxLayout::Current => (VERSION, 0x40),
            IdxLayout::Legacy => (LEGACY_VERSION, 0x20),
        }
    }
}

/// `$body` with `$table` bound to that table of `$tables`, whichever the layout: the body is
/// generic over the layouts' record types (the traits of `entry`).
macro_rules! by_layout {
    ($tables:expr, $table:ident => $body:expr) => {
        match $tables {
            Tables::Current { $table, .. } => $body,
            Tables::Legacy { $table, .. } => $body,
        }
    };
}

/// The three tables, borrowed from the file in the layout it uses.
#[derive(Clone, Copy)]
enum Tables<'a> {
    Current {
        names: &'a [raw::NameRecord],
        files: &'a [raw::FileRecord],
        volumes: &'a [raw::VolumeRecord],
    },
    Legacy {
        names: &'a [raw::LegacyNameRecord],
        files: &'a [raw::LegacyFileRecord],
        volumes: &'a [raw::LegacyVolumeRecord],
    },
}

/// A PFS index (`.idx`) read in place: its name, file and volume tables, borrowed.
///
/// `Copy`; opening checks the header and that the tables lie inside the file, and allocates
/// nothing. Records are read as they are asked for.
#[derive(Clone, Copy)]
pub struct IdxView<'a> {
    bytes: Bytes<'a>,
    tables: Tables<'a>,
    /// File offsets of the name, file and volume tables.
    at: [usize; 3],
    /// The header's checksum.
    checksum: u32,
}

impl core::fmt::Debug for IdxView<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("IdxView")
            .field("len", &self.bytes.len())
            .field("layout", &self.layout())
            .field("names", &self.name_count())
            .field("files", &self.file_count())
            .field("volumes", &self.volume_count())
            .finish()
    }
}

/// Where an opened index's tables lie: enough to view the same bytes again without reading its
/// headers. An install keeps one per index, since it views an index on every record it reads.
#[derive(Debug, Clone, Copy)]
pub(super) struct IdxShape {
    layout: IdxLayout,
    at: [usize; 3],
    counts: [usize; 3],
    checksum: u32,
}

impl IdxShape {
    /// Name record `i` of `data` (the bytes the shape was read from), read alone: an install
    /// reads a record or two per lookup, and building a whole view for each (three tables
    /// checked) cost more than the record.
    #[inline]
    pub(super) fn name<'a>(&self, data: &'a [u8], i: usize) -> Option<Result<Name<'a>>> {
        let [names, _, _] = self.at;
        match self.layout {
            IdxLayout::Current => {
                let (record, offset) = self.record::<raw::NameRecord>(data, names, 0, i)?;
                Some(entry::name(Bytes::new(data), offset, record))
            }
            IdxLayout::Legacy => {
                let (record, offset) = self.record::<raw::LegacyNameRecord>(data, names, 0, i)?;
                Some(entry::name(Bytes::new(data), offset, record))
            }
        }
    }

    /// Name record `i` of `data` as a lookup compares it, without the reader's error: `None`
    /// when the record does not read (then [`IdxShape::name`] says why). A NUL inside the name
    /// is not looked for: a lookup compares the name with a segment that has none, so a name it
    /// matches is the one [`IdxShape::name`] reads.
    #[inline]
    pub(super) fn lookup_name<'a>(&self, data: &'a [u8], i: usize) -> Option<Name<'a>> {
        fn read<'a, R: entry::NamedRecord>(
            shape: &IdxShape,
            data: &'a [u8],
            i: usize,
        ) -> Option<Name<'a>> {
            let [names, _, _] = shape.at;
            let (record, offset) = shape.record::<R>(data, names, 0, i)?;
            let (_, base, ptr, len) = record.stored_name();
            let at = offset
                .checked_add(base)?
                .checked_add(usize::try_from(ptr).ok()?)?;
            let stored = data.get(at..at.checked_add(usize::try_from(len).ok()?)?)?;
            match stored.split_last() {
                Some((&0, name)) => Some(Name {
                    id: record.id(),
                    parent_id: record.parent_id(),
                    name,
                    offset,
                    name_offset: at,
                }),
                _ => None,
            }
        }
        match self.layout {
            IdxLayout::Current => read::<raw::NameRecord>(self, data, i),
            IdxLayout::Legacy => read::<raw::LegacyNameRecord>(self, data, i),
        }
    }

    /// File record `i` of `data`, read alone (see [`IdxShape::name`]).
    #[inline]
    pub(super) fn file(&self, data: &[u8], i: usize) -> Option<FileEntry> {
        let [_, files, _] = self.at;
        match self.layout {
            IdxLayout::Current => {
                let (record, offset) = self.record::<raw::FileRecord>(data, files, 1, i)?;
                Some(record.entry(offset))
            }
            IdxLayout::Legacy => {
                let (record, offset) = self.record::<raw::LegacyFileRecord>(data, files, 1, i)?;
                Some(record.entry(offset))
            }
        }
    }

    /// Record `i` of the table at `at` (table number `table` in `counts`), and its offset.
    #[inline]
    fn record<'a, R: Record>(
        &self,
        data: &'a [u8],
        at: usize,
        table: usize,
        i: usize,
    ) -> Option<(&'a R, usize)> {
        if i >= *self.counts.get(table)? {
            return None;
        }
        let offset = at.checked_add(i.checked_mul(size_of::<R>())?)?;
        let (record, _) = R::ref_from_prefix(data.get(offset..)?).ok()?;
        Some((record, offset))
    }
}

/// A table header of either layout: each table's (count, where its pointer is stored, pointer),
/// names, files and volumes in that order.
trait TableHeader: FromBytes + KnownLayout + Immutable + Unaligned {
    fn tables(&self) -> [(u32, usize, u64); 3];
}

impl TableHeader for raw::TableHeader {
    fn tables(&self) -> [(u32, usize, u64); 3] {
        [
            (self.name_count.get(), 0x20, self.names_ptr.get()),
            (self.file_count.get(), 0x28, self.files_ptr.get()),
            (self.volume_count.get(), 0x30, self.volumes_ptr.get()),
        ]
    }
}

impl TableHeader for raw::LegacyTableHeader {
    fn tables(&self) -> [(u32, usize, u64); 3] {
        [
            (self.name_count.get(), 0x14, self.names_ptr.get().into()),
            (self.file_count.get(), 0x1c, self.files_ptr.get().into()),
            (self.volume_count.get(), 0x24, self.volumes_ptr.get().into()),
        ]
    }
}

/// The name, file and volume tables a table header of type `H` points at, checked to lie inside
/// the file, and their offsets.
type TableSlices<'a, N, F, V> = (&'a [N], &'a [F], &'a [V], [usize; 3]);

fn read_tables<'a, H, N, F, V>(bytes: Bytes<'a>) -> Result<TableSlices<'a, N, F, V>>
where
    H: TableHeader,
    N: Record,
    F: Record,
    V: Record,
{
    const POINTERS: [&str; 3] = [
        "IdxTableHeader.namesPtr",
        "IdxTableHeader.filesPtr",
        "IdxTableHeader.volumesPtr",
    ];
    let header: &H = bytes.read(TABLE_BASE, "IdxTableHeader")?;
    let tables = header.tables();
    let mut at = [0; 3];
    for (k, &(_, field, ptr)) in tables.iter().enumerate() {
        at[k] = table_at(bytes, field, ptr, POINTERS[k])?;
    }
    let count = |k: usize| tables[k].0 as usize;
    Ok((
        bytes.read_slice(at[0], count(0), "NameRecord")?,
        bytes.read_slice(at[1], count(1), "FileRecord")?,
        bytes.read_slice(at[2], count(2), "VolumeRecord")?,
        at,
    ))
}

/// `TABLE_BASE + ptr`, which must land inside the file; `field` is where the pointer is stored.
fn table_at(bytes: Bytes<'_>, field: usize, ptr: u64, what: &'static str) -> Result<usize> {
    // Pointers are unsigned: one past i64::MAX is out of bounds, not negative.
    let relative = i64::try_from(ptr).unwrap_or(i64::MAX);
    bytes.resolve(field, TABLE_BASE, relative, what)
}

impl<'a> IdxView<'a> {
    /// Opens an index: the header (magic, layout), the table header and the three tables' bounds.
    pub fn from_bytes(data: &'a [u8]) -> Result<Self> {
        let bytes = Bytes::new(data);
        let header: &raw::Header = bytes.read(0, "IdxHeader")?;
        if header.magic.get() != MAGIC {
            return Err(Error::new(
                0,
                "IdxHeader.magic",
                ErrorKind::BadMagic {
                    expected: u64::from(MAGIC),
                    found: u64::from(header.magic.get()),
                },
            ));
        }
        if header.endianness.get() != 0 {
            return Err(Error::invalid(
                0x0e,
                "IdxHeader.endianness",
                u64::from(header.endianness.get()),
                "not 0 (little-endian): no big-endian index is known",
            ));
        }
        let layout = match (header.version.get(), header.architecture.get()) {
            (VERSION, 0x40) => IdxLayout::Current,
            (LEGACY_VERSION, 0x20) => IdxLayout::Legacy,
            (VERSION | LEGACY_VERSION, size) => {
                return Err(Error::invalid(
                    0x0c,
                    "IdxHeader.pointerSize",
                    u64::from(size),
                    "does not match the version word (0x40 for 0x02000000, 0x20 for 0x01010004)",
                ));
            }
            (version, _) => {
                return Err(Error::new(
                    4,
                    "IdxHeader.version",
                    ErrorKind::UnsupportedVersion {
                        found: u64::from(version),
                    },
                ));
            }
        };
        let (tables, at) = match layout {
            IdxLayout::Current => {
                let (names, files, volumes, at) = read_tables::<raw::TableHeader, _, _, _>(bytes)?;
                let tables = Tables::Current {
                    names,
                    files,
                    volumes,
                };
                (tables, at)
            }
            IdxLayout::Legacy => {
                let (names, files, volumes, at) =
                    read_tables::<raw::LegacyTableHeader, _, _, _>(bytes)?;
                let tables = Tables::Legacy {
                    names,
                    files,
                    volumes,
                };
                (tables, at)
            }
        };
        Ok(IdxView {
            bytes,
            tables,
            at,
            checksum: header.checksum.get(),
        })
    }

    /// Where this view's tables lie, for [`IdxView::with_shape`].
    pub(super) fn shape(&self) -> IdxShape {
        IdxShape {
            layout: self.layout(),
            at: self.at,
            counts: [self.name_count(), self.file_count(), self.volume_count()],
            checksum: self.checksum,
        }
    }

    /// The view of `data` that [`IdxView::from_bytes`] gave when it returned `shape`, rebuilt
    /// from the table bounds alone (each slice still checked to lie inside `data`); `None` when
    /// `data` is not the bytes the shape was taken from.
    pub(super) fn with_shape(data: &'a [u8], shape: IdxShape) -> Option<Self> {
        fn table<R: Record>(data: &[u8], at: usize, count: usize) -> Option<&[R]> {
            <[R]>::ref_from_prefix_with_elems(data.get(at..)?, count)
                .ok()
                .map(|(table, _)| table)
        }
        let [names, files, volumes] = shape.at;
        let [name_count, file_count, volume_count] = shape.counts;
        let tables = match shape.layout {
            IdxLayout::Current => Tables::Current {
                names: table(data, names, name_count)?,
                files: table(data, files, file_count)?,
                volumes: table(data, volumes, volume_count)?,
            },
            IdxLayout::Legacy => Tables::Legacy {
                names: table(data, names, name_count)?,
                files: table(data, files, file_count)?,
                volumes: table(data, volumes, volume_count)?,
            },
        };
        Some(IdxView {
            bytes: Bytes::new(data),
            tables,
            at: shape.at,
            checksum: shape.checksum,
        })
    }

    /// The whole file.
    pub fn as_bytes(&self) -> &'a [u8] {
        self.bytes.as_slice()
    }

    /// The layout the file uses.
    pub fn layout(&self) -> IdxLayout {
        match self.tables {
            Tables::Current { .. } => IdxLayout::Current,
            Tables::Legacy { .. } => IdxLayout::Legacy,
        }
    }

    /// The checksum the header stores (MurmurHash3 of everything after the header).
    pub fn stored_checksum(&self) -> u32 {
        self.checksum
    }

    /// Checks the header's checksum against the bytes after the header: a pass over the whole
    /// file, so it is done on request only.
    pub fn verify_checksum(&self) -> Result<()> {
        let body = self.bytes.tail(TABLE_BASE, "IdxHeader.checksum")?;
        let computed = murmur3_32(body, 0);
        let stored = self.stored_checksum();
        if computed == stored {
            Ok(())
        } else {
            Err(Error::new(
                8,
                "IdxHeader.checksum",
                ErrorKind::ChecksumMismatch {
                    stored: u64::from(stored),
                    computed: u64::from(computed),
                },
            ))
        }
    }

    /// How many name records (directories and files) the index holds.
    pub fn name_count(&self) -> usize {
        by_layout!(self.tables, names => names.len())
    }

    /// How many file records the index holds.
    pub fn file_count(&self) -> usize {
        by_layout!(self.tables, files => files.len())
    }

    /// How many volume records the index holds.
    pub fn volume_count(&self) -> usize {
        by_layout!(self.tables, volumes => volumes.len())
    }

    /// The file offsets of the name, file and volume tables.
    pub fn table_offsets(&self) -> [usize; 3] {
        self.at
    }

    /// Name record `i` with its name resolved, or `None` past the last one.
    pub fn name(&self, i: usize) -> Option<Result<Name<'a>>> {
        by_layout!(self.tables, names => {
            let (record, offset) = entry::record_at(names, self.at[0], i)?;
            Some(entry::name(self.bytes, offset, record))
        })
    }

    /// Every name record in table order, each read as it is reached.
    pub fn names(&self) -> impl Iterator<Item = Result<Name<'a>>> + 'a {
        let view = *self;
        (0..self.name_count()).filter_map(move |i| view.name(i))
    }

    /// File record `i`, or `None` past the last one.
    pub fn file(&self, i: usize) -> Option<FileEntry> {
        by_layout!(self.tables, files => {
            let (record, offset) = entry::record_at(files, self.at[1], i)?;
            Some(record.entry(offset))
        })
    }

    /// Every file record in table order.
    pub fn files(&self) -> impl Iterator<Item = FileEntry> + 'a {
        let view = *self;
        (0..self.file_count()).filter_map(move |i| view.file(i))
    }

    /// Volume record `i` with its name resolved, or `None` past the last one.
    pub fn volume(&self, i: usize) -> Option<Result<Volume<'a>>> {
        by_layout!(self.tables, volumes => {
            let (record, offset) = entry::record_at(volumes, self.at[2], i)?;
            Some(entry::volume(self.bytes, offset, record))
        })
    }

    /// Every volume record in table order.
    pub fn volumes(&self) -> impl Iterator<Item = Result<Volume<'a>>> + 'a {
        let view = *self;
        (0..self.volume_count()).filter_map(move |i| view.volume(i))
    }

    /// The id of every name record, in table order (nothing else is read).
    pub fn name_ids(&self) -> impl Iterator<Item = u64> + 'a {
        let tables = self.tables;
        (0..self.name_count())
            .map(move |i| by_layout!(tables, names => names.get(i).map_or(0, Record::id)))
    }

    /// The id of every file record, in table order.
    pub fn file_ids(&self) -> impl Iterator<Item = u64> + 'a {
        let tables = self.tables;
        (0..self.file_count())
            .map(move |i| by_layout!(tables, files => files.get(i).map_or(0, Record::id)))
    }

    /// The id of every volume record, in table order (nothing else is read).
    pub fn volume_ids(&self) -> impl Iterator<Item = u64> + 'a {
        let tables = self.tables;
        (0..self.volume_count())
            .map(move |i| by_layout!(tables, volumes => volumes.get(i).map_or(0, Record::id)))
    }

    /// The name record with `id`, by a scan of the name table (an install keeps an index instead).
    pub fn name_by_id(&self, id: u64) -> Option<Result<Name<'a>>> {
        self.name(by_layout!(self.tables, names => position(names, id))?)
    }

    /// The file record with `id`, by a scan of the file table.
    pub fn file_by_id(&self, id: u64) -> Option<FileEntry> {
        self.file(by_layout!(self.tables, files => position(files, id))?)
    }

    /// The volume record with `id`, by a scan of the volume table.
    pub fn volume_by_id(&self, id: u64) -> Option<Result<Volume<'a>>> {
        self.volume(by_layout!(self.tables, volumes => position(volumes, id))?)
    }

    /// The file at `path` (relative to `res/`, `/`-separated; see [`path_id`] for the forms
    /// accepted): its name and file record, or `None` when the index does not hold it.
    ///
    /// The path's id is looked up, then the names from the file up to the root are compared with
    /// the path's segments, so that a hash collision can never return another file.
    pub fn find(&self, path: &str) -> Result<Option<(Name<'a>, FileEntry)>> {
        let id = path_id(path);
        let Some(name) = self.name_by_id(id).transpose()? else {
            return Ok(None);
        };
        let parent = |id| self.name_by_id(id).transpose();
        if !path::spells(name, path, parent)? {
            return Ok(None);
        }
        Ok(self.file_by_id(id).map(|file| (name, file)))
    }
}

/// The position of the first record of `records` with `id`.
fn position<R: Record>(records: &[R], id: u64) -> Option<usize> {
    records.iter().position(|r| r.id() == id)
}

//! What an index's records say, the same for both layouts: a name in the tree, a file's place in
//! its volume, a volume's file name.

use zerocopy::{FromBytes, Immutable, KnownLayout, Unaligned};

use super::raw;
use crate::bytes::{Bytes, u64_of};
use crate::error::{Error, Result};

/// A name record: one directory or file of the tree, its name borrowed from the index.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Name<'a> {
    /// CityHash64 of the full path ([`path_id`](super::path_id)).
    pub id: u64,
    /// The parent directory's id ([`ROOT_PARENT_ID`](super::ROOT_PARENT_ID) at the top).
    pub parent_id: u64,
    /// The last segment of the path, as stored (its NUL not included).
    pub name: &'a [u8],
    /// The file offset of the record.
    pub offset: usize,
    /// The file offset of the name's bytes.
    pub name_offset: usize,
}

impl<'a> Name<'a> {
    /// The name as text; an error at the name's offset when it is not UTF-8.
    pub fn name_str(&self) -> Result<&'a str> {
        crate::bytes::utf8(self.name, self.name_offset, "NameRecord.name", "not UTF-8")
    }
}

/// How a file's bytes are stored in its volume: the file record's two compression words.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Compression {
    /// (0, 0): the bytes as they are.
    Stored,
    /// (5, 1): raw deflate (no zlib header).
    Deflate,
    /// (6, any): an Oodle data stream (the Lesta client), a proprietary codec gamebin does not
    /// decode.
    OodleStream {
        /// The second word as stored.
        flag: u32,
    },
    /// Any other pair: not guessed.
    Unknown {
        /// The first word (the method).
        method: u32,
        /// The second word (the flag).
        flag: u32,
    },
}

impl Compression {
    /// The compression of a record's (method, flag) words.
    pub const fn from_words(method: u32, flag: u32) -> Compression {
        match (method, flag) {
            (0, 0) => Compression::Stored,
            (5, 1) => Compression::Deflate,
            (6, flag) => Compression::OodleStream { flag },
            (method, flag) => Compression::Unknown { method, flag },
        }
    }

    /// The (method, flag) words a record stores for this compression.
    pub const fn words(self) -> (u32, u32) {
        match self {
            Compression::Stored => (0, 0),
            Compression::Deflate => (5, 1),
            Compression::OodleStream { flag } => (6, flag),
            Compression::Unknown { method, flag } => (method, flag),
        }
    }

    /// A short name: `stored`, `deflate`, `oodle` or `unknown`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Compression::Stored => "stored",
            Compression::Deflate => "deflate",
            Compression::OodleStream { .. } => "oodle",
            Compression::Unknown { .. } => "unknown",
        }
    }
}

/// A file record: where a file's bytes are in which volume, how they are stored, their CRC-32.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FileEntry {
    /// The id of the file's name record.
    pub id: u64,
    /// The id of the volume holding the bytes.
    pub volume_id: u64,
    /// Where the stored bytes start in the volume.
    pub offset_in_volume: u64,
    /// How the bytes are stored.
    pub compression: Compression,
    /// The stored size in bytes.
    pub size: u32,
    /// CRC-32 of the unpacked bytes.
    pub crc32: u32,
    /// The unpacked size in bytes.
    pub unpacked_size: u32,
    /// The file offset of the record in its index.
    pub offset: usize,
}

/// What the records of both layouts hold, so that one function reads each kind of record.
pub(super) trait Record: FromBytes + KnownLayout + Immutable + Unaligned {
    /// The record's id (a path's, or a volume's).
    fn id(&self) -> u64;
}

/// A record with a name: where its pointer is stored and what it counts from (both relative to
/// the record), the pointer, the stored length (its NUL included), and the parent's id.
pub(super) trait NamedRecord: Record {
    /// What errors call the name.
    const WHAT: &'static str;
    fn stored_name(&self) -> (usize, usize, u64, u64);
    fn parent_id(&self) -> u64;
}

/// A file record, in either layout.
pub(super) trait FileRecord: Record {
    fn entry(&self, offset: usize) -> FileEntry;
}

impl Record for raw::NameRecord {
    fn id(&self) -> u64 {
        self.id.get()
    }
}

impl NamedRecord for raw::NameRecord {
    const WHAT: &'static str = "NameRecord.name";
    fn stored_name(&self) -> (usize, usize, u64, u64) {
        (8, 0, self.name_ptr.get(), self.name_len.get())
    }
    fn parent_id(&self) -> u64 {
        self.parent_id.get()
    }
}

impl Record for raw::LegacyNameRecord {
    fn id(&self) -> u64 {
        self.id.get()
    }
}

impl NamedRecord for raw::LegacyNameRecord {
    const WHAT: &'static str = "NameRecord.name";
    fn stored_name(&self) -> (usize, usize, u64, u64) {
        (
            20,
            16,
            self.name_ptr.get().into(),
            self.name_len.get().into(),
        )
    }
    fn parent_id(&self) -> u64 {
        self.parent_id.get()
    }
}

impl Record for raw::VolumeRecord {
    fn id(&self) -> u64 {
        self.id.get()
    }
}

impl NamedRecord for raw::VolumeRecord {
    const WHAT: &'static str = "VolumeRecord.name";
    fn stored_name(&self) -> (usize, usize, u64, u64) {
        (8, 0, self.name_ptr.get(), self.name_len.get())
    }
    fn parent_id(&self) -> u64 {
        0
    }
}

impl Record for raw::LegacyVolumeRecord {
    fn id(&self) -> u64 {
        self.id.get()
    }
}

impl NamedRecord for raw::LegacyVolumeRecord {
    const WHAT: &'static str = "VolumeRecord.name";
    fn stored_name(&self) -> (usize, usize, u64, u64) {
        (
            12,
            8,
            self.name_ptr.get().into(),
            self.name_len.get().into(),
        )
    }
    fn parent_id(&self) -> u64 {
        0
    }
}

impl Record for raw::FileRecord {
    fn id(&self) -> u64 {
        self.id.get()
    }
}

impl FileRecord for raw::FileRecord {
    fn entry(&self, offset: usize) -> FileEntry {
        FileEntry {
            id: self.id.get(),
            volume_id: self.volume_id.get(),
            offset_in_volume: self.offset.get(),
            compression: Compression::from_words(
                self.compression.get(),
                self.compression_flag.get(),
            ),
            size: self.size.get(),
            crc32: self.crc32.get(),
            unpacked_size: self.unpacked_size.get(),
            offset,
        }
    }
}

impl Record for raw::LegacyFileRecord {
    fn id(&self) -> u64 {
        self.id.get()
    }
}

impl FileRecord for raw::LegacyFileRecord {
    fn entry(&self, offset: usize) -> FileEntry {
        let word = self.compression.get();
        FileEntry {
            id: self.id.get(),
            volume_id: self.volume_id.get(),
            offset_in_volume: self.offset.get(),
            compression: Compression::from_words(word as u32, (word >> 32) as u32),
            size: self.size.get(),
            crc32: self.crc32.get(),
            unpacked_size: self.unpacked_size.get(),
            offset,
        }
    }
}

/// A volume record: one `.pkg` file of the install.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Volume<'a> {
    /// CityHash64 of the file name.
    pub id: u64,
    /// The `.pkg` file name, without the `//.//` some indexes put before it.
    pub name: &'a [u8],
    /// The file offset of the record.
    pub offset: usize,
    /// The file offset of the name's bytes as stored.
    pub name_offset: usize,
}

impl<'a> Volume<'a> {
    /// The file name as text; an error at the name's offset when it is not UTF-8.
    pub fn name_str(&self) -> Result<&'a str> {
        crate::bytes::utf8(
            self.name,
            self.name_offset,
            "VolumeRecord.name",
            "not UTF-8",
        )
    }
}

/// The NUL-terminated string of `len` bytes (its NUL included) at `base + ptr`: its bytes without
/// the NUL, and where they start.
fn stored_name<'a>(
    bytes: Bytes<'a>,
    field: usize,
    base: usize,
    ptr: u64,
    len: u64,
    what: &'static str,
) -> Result<(&'a [u8], usize)> {
    let at = bytes.resolve(field, base, i64::try_from(ptr).unwrap_or(i64::MAX), what)?;
    let len = crate::bytes::to_usize(len, field, what)?;
    let stored = bytes.slice(at, len, what)?;
    let Some((&0, name)) = stored.split_last() else {
        return Err(Error::invalid(
            u64_of(at),
            what,
            u64_of(len),
            "the name does not end with its NUL",
        ));
    };
    if let Some(nul) = name.iter().position(|&b| b == 0) {
        return Err(Error::invalid(
            u64_of(at + nul),
            what,
            0,
            "a NUL inside the name",
        ));
    }
    Ok((name, at))
}

/// Record `i` of `records` (a table at `table_at`) and its file offset.
pub(super) fn record_at<R: Record>(
    records: &[R],
    table_at: usize,
    i: usize,
) -> Option<(&R, usize)> {
    Some((records.get(i)?, table_at + i * size_of::<R>()))
}

/// The name of the record at `offset`: its bytes (without the NUL) and where they are.
fn name_of<'a, R: NamedRecord>(
    bytes: Bytes<'a>,
    offset: usize,
    r: &R,
) -> Result<(&'a [u8], usize)> {
    let (field, base, ptr, len) = r.stored_name();
    stored_name(bytes, offset + field, offset + base, ptr, len, R::WHAT)
}

/// Name record `r` at `offset`, its name resolved.
pub(super) fn name<'a, R: NamedRecord>(bytes: Bytes<'a>, offset: usize, r: &R) -> Result<Name<'a>> {
    let (name, name_offset) = name_of(bytes, offset, r)?;
    Ok(Name {
        id: r.id(),
        parent_id: r.parent_id(),
        name,
        offset,
        name_offset,
    })
}

/// The prefix some indexes put before a volume's file name.
const VOLUME_PREFIX: &[u8] = b"//.//";

/// Volume record `r` at `offset`, its name resolved.
pub(super) fn volume<'a, R: NamedRecord>(
    bytes: Bytes<'a>,
    offset: usize,
    r: &R,
) -> Result<Volume<'a>> {
    let (name, name_offset) = name_of(bytes, offset, r)?;
    Ok(Volume {
        id: r.id(),
        name: name.strip_prefix(VOLUME_PREFIX).unwrap_or(name),
        offset,
        name_offset,
    })
}

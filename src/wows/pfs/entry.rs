//! What an index's records say, the same for both layouts: a name in the tree, a file's place in
//! its volume, a volume's file name.

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
        core::str::from_utf8(self.name).map_err(|e| {
            Error::invalid(
                u64_of(self.name_offset + e.valid_up_to()),
                "NameRecord.name",
                u64::from(self.name.get(e.valid_up_to()).copied().unwrap_or(0)),
                "not UTF-8",
            )
        })
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

impl FileEntry {
    pub(super) fn from_current(r: &raw::FileRecord, offset: usize) -> FileEntry {
        FileEntry {
            id: r.id.get(),
            volume_id: r.volume_id.get(),
            offset_in_volume: r.offset.get(),
            compression: Compression::from_words(r.compression.get(), r.compression_flag.get()),
            size: r.size.get(),
            crc32: r.crc32.get(),
            unpacked_size: r.unpacked_size.get(),
            offset,
        }
    }

    pub(super) fn from_legacy(r: &raw::LegacyFileRecord, offset: usize) -> FileEntry {
        let word = r.compression.get();
        FileEntry {
            id: r.id.get(),
            volume_id: r.volume_id.get(),
            offset_in_volume: r.offset.get(),
            compression: Compression::from_words(word as u32, (word >> 32) as u32),
            size: r.size.get(),
            crc32: r.crc32.get(),
            unpacked_size: r.unpacked_size.get(),
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
        core::str::from_utf8(self.name).map_err(|e| {
            Error::invalid(
                u64_of(self.name_offset + e.valid_up_to()),
                "VolumeRecord.name",
                u64::from(self.name.get(e.valid_up_to()).copied().unwrap_or(0)),
                "not UTF-8",
            )
        })
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

pub(super) fn name_current<'a>(
    bytes: Bytes<'a>,
    offset: usize,
    r: &raw::NameRecord,
) -> Result<Name<'a>> {
    let (name, name_offset) = stored_name(
        bytes,
        offset + 8,
        offset,
        r.name_ptr.get(),
        r.name_len.get(),
        "NameRecord.name",
    )?;
    Ok(Name {
        id: r.id.get(),
        parent_id: r.parent_id.get(),
        name,
        offset,
        name_offset,
    })
}

pub(super) fn name_legacy<'a>(
    bytes: Bytes<'a>,
    offset: usize,
    r: &raw::LegacyNameRecord,
) -> Result<Name<'a>> {
    let (name, name_offset) = stored_name(
        bytes,
        offset + 20,
        offset + 16,
        r.name_ptr.get().into(),
        r.name_len.get().into(),
        "NameRecord.name",
    )?;
    Ok(Name {
        id: r.id.get(),
        parent_id: r.parent_id.get(),
        name,
        offset,
        name_offset,
    })
}

/// The prefix some indexes put before a volume's file name.
const VOLUME_PREFIX: &[u8] = b"//.//";

pub(super) fn volume_current<'a>(
    bytes: Bytes<'a>,
    offset: usize,
    r: &raw::VolumeRecord,
) -> Result<Volume<'a>> {
    let (name, name_offset) = stored_name(
        bytes,
        offset + 8,
        offset,
        r.name_ptr.get(),
        r.name_len.get(),
        "VolumeRecord.name",
    )?;
    Ok(Volume {
        id: r.id.get(),
        name: name.strip_prefix(VOLUME_PREFIX).unwrap_or(name),
        offset,
        name_offset,
    })
}

pub(super) fn volume_legacy<'a>(
    bytes: Bytes<'a>,
    offset: usize,
    r: &raw::LegacyVolumeRecord,
) -> Result<Volume<'a>> {
    let (name, name_offset) = stored_name(
        bytes,
        offset + 12,
        offset + 8,
        r.name_ptr.get().into(),
        r.name_len.get().into(),
        "VolumeRecord.name",
    )?;
    Ok(Volume {
        id: r.id.get(),
        name: name.strip_prefix(VOLUME_PREFIX).unwrap_or(name),
        offset,
        name_offset,
    })
}

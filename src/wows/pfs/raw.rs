//! On-disk structs of a PFS index (`.idx`), exactly as stored: little-endian, alignment 1 (the file
//! table follows the string pool and is not aligned in real files), borrowed straight out of the
//! file. Offsets in comments are from the struct start.
//!
//! Two layouts exist: the current one (pointer size 0x40, version word `00 00 00 02`) and a legacy
//! one of old builds (pointer size 0x20, version word 0x01010004) with 32-bit counts and pointers
//! and its fields in another order.

use zerocopy::little_endian::{U32, U64};
use zerocopy::{FromBytes, Immutable, IntoBytes, KnownLayout, Unaligned};

/// The 16-byte BigWorld file header (the same header `assets.bin` starts with): magic `ISFP`,
/// the layout's version word, the MurmurHash3 of everything after it, pointer size and byte order.
pub(crate) use crate::wows::bigworld::Header;

/// The table header at 0x10 (the base every table pointer counts from), current layout.
#[derive(Debug, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct TableHeader {
    /// Name records: directories and files.
    pub name_count: U32,
    /// File records.
    pub file_count: U32,
    /// Volume (`.pkg`) records.
    pub volume_count: U32,
    /// Reserved, 0.
    pub reserved: U32,
    /// The name table, relative to 0x10.
    pub names_ptr: U64,
    /// The file table, relative to 0x10.
    pub files_ptr: U64,
    /// The volume table, relative to 0x10.
    pub volumes_ptr: U64,
}

/// A name record (32 bytes, current layout): one directory or file of the tree.
#[derive(Debug, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct NameRecord {
    /// The name's length in bytes, its NUL included.
    pub name_len: U64,
    /// The name, relative to the start of this record.
    pub name_ptr: U64,
    /// CityHash64 of the full path (relative to `res/`, `/`-separated).
    pub id: U64,
    /// The parent directory's id; CityHash64(".") for a top-level name.
    pub parent_id: U64,
}

/// A file record (48 bytes, current layout): where a file's bytes are and how they are stored.
#[derive(Debug, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct FileRecord {
    /// The id of the file's name record.
    pub id: U64,
    /// The id of the volume holding the bytes: CityHash64 of the `.pkg` file name.
    pub volume_id: U64,
    /// Where the stored bytes start in the volume.
    pub offset: U64,
    /// 0 stored, 5 deflate, 6 an Oodle data stream.
    pub compression: U32,
    /// 0 stored, 1 deflate.
    pub compression_flag: U32,
    /// The stored (compressed) size.
    pub size: U32,
    /// CRC-32 (ISO-HDLC, as zlib) of the unpacked bytes.
    pub crc32: U32,
    /// The unpacked size.
    pub unpacked_size: U32,
    /// 0.
    pub reserved: U32,
}

/// A volume record (24 bytes, current layout): one `.pkg` file.
#[derive(Debug, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct VolumeRecord {
    /// The name's length in bytes, its NUL included.
    pub name_len: U64,
    /// The name, relative to the start of this record.
    pub name_ptr: U64,
    /// CityHash64 of the `.pkg` file name.
    pub id: U64,
}

/// The table header at 0x10, legacy layout: three (count, pointer) pairs, pointers relative to 0x10.
#[derive(Debug, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct LegacyTableHeader {
    /// Name records.
    pub name_count: U32,
    /// The name table, relative to 0x10.
    pub names_ptr: U32,
    /// File records.
    pub file_count: U32,
    /// The file table, relative to 0x10.
    pub files_ptr: U32,
    /// Volume records.
    pub volume_count: U32,
    /// The volume table, relative to 0x10.
    pub volumes_ptr: U32,
}

/// A name record (24 bytes, legacy layout).
#[derive(Debug, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct LegacyNameRecord {
    /// CityHash64 of the full path.
    pub id: U64,
    /// The parent directory's id.
    pub parent_id: U64,
    /// The name's length in bytes, its NUL included.
    pub name_len: U32,
    /// The name, relative to this field's own offset (record + 16).
    pub name_ptr: U32,
}

/// A file record (48 bytes, legacy layout).
#[derive(Debug, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct LegacyFileRecord {
    /// Where the stored bytes start in the volume.
    pub offset: U64,
    /// 0.
    pub reserved: U32,
    /// The stored (compressed) size.
    pub size: U32,
    /// CRC-32 of the unpacked bytes.
    pub crc32: U32,
    /// The unpacked size.
    pub unpacked_size: U32,
    /// The compression word, read as the current layout's two words (low: method, high: flag).
    pub compression: U64,
    /// The id of the file's name record.
    pub id: U64,
    /// The id of the volume holding the bytes.
    pub volume_id: U64,
}

/// A volume record (16 bytes, legacy layout).
#[derive(Debug, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct LegacyVolumeRecord {
    /// CityHash64 of the `.pkg` file name.
    pub id: U64,
    /// The name's length in bytes, its NUL included.
    pub name_len: U32,
    /// The name, relative to this field's own offset (record + 8).
    pub name_ptr: U32,
}

/// The 16 bytes a `.pkg` volume stores after each blob.
#[derive(Debug, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct BlobTrailer {
    /// 0.
    pub reserved0: U32,
    /// CRC-32 of the unpacked bytes (the file record's).
    pub crc32: U32,
    /// The unpacked size (the file record's).
    pub unpacked_size: U32,
    /// 0.
    pub reserved1: U32,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_are_the_formats() {
        assert_eq!(size_of::<Header>(), 16);
        assert_eq!(size_of::<TableHeader>(), 0x28);
        assert_eq!(size_of::<NameRecord>(), 32);
        assert_eq!(size_of::<FileRecord>(), 48);
        assert_eq!(size_of::<VolumeRecord>(), 24);
        assert_eq!(size_of::<LegacyTableHeader>(), 24);
        assert_eq!(size_of::<LegacyNameRecord>(), 24);
        assert_eq!(size_of::<LegacyFileRecord>(), 48);
        assert_eq!(size_of::<LegacyVolumeRecord>(), 16);
        assert_eq!(size_of::<BlobTrailer>(), 16);
    }
}

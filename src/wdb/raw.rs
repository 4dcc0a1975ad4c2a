//! On-disk structs of a `.wdb` (WPD container), exactly as stored: big-endian, alignment 1,
//! borrowed straight out of the file.

use zerocopy::big_endian::U32;
use zerocopy::{FromBytes, Immutable, IntoBytes, KnownLayout, Unaligned};

/// `"WPD\0"`, the container's magic.
pub const MAGIC: [u8; 4] = *b"WPD\0";

/// Size of the header and of one entry.
pub const HEADER_SIZE: usize = 16;
/// Size of one entry of the entry table.
pub const ENTRY_SIZE: usize = 32;
/// Bytes of an entry's NUL-padded name.
pub const NAME_SIZE: usize = 16;

/// `!!sheetname`'s data is padded to a multiple of this, and to at least this many bytes
/// (verified on the real files).
pub const SHEET_NAME_ALIGN: usize = 16;

/// `!!strArrayInfo`: how `!!strArray` packs its string offsets.
#[derive(Debug, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct StrArrayInfo {
    /// Zero in every known file.
    pub reserved: [u8; 2],
    /// String offsets per big-endian u32 word.
    pub offsets_per_word: u8,
    /// Bits per string offset.
    pub bits_per_offset: u8,
}

/// The 16-byte header.
#[derive(Debug, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct Header {
    /// `"WPD\0"`.
    pub magic: [u8; 4],
    /// Entries in the table, the `!` sections included.
    pub entry_count: U32,
    /// Zero in every known file.
    pub reserved: [u8; 8],
}

/// One 32-byte entry: a section (name starting with `!`) or a record.
#[derive(Debug, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct Entry {
    /// NUL-padded name; all 16 bytes are the name when there is no NUL.
    pub name: [u8; NAME_SIZE],
    /// Absolute offset of the entry's data.
    pub offset: U32,
    /// Size of the entry's data in bytes.
    pub size: U32,
    /// Zero in `.wdb` files (a plain WPD pack keeps a file extension here).
    pub reserved: [u8; 8],
}

impl Entry {
    /// The name without its NUL padding.
    #[inline]
    pub fn name_bytes(&self) -> &[u8] {
        trim_name(&self.name)
    }

    /// Whether this entry is a `!` metadata section rather than a record.
    pub fn is_section(&self) -> bool {
        self.name[0] == b'!'
    }
}

/// A stored name up to its first NUL (all 16 bytes when there is none).
#[inline]
pub(crate) fn trim_name(name: &[u8; NAME_SIZE]) -> &[u8] {
    // Every record read makes its name: find the NUL in all 16 bytes at once.
    let v = u128::from_le_bytes(*name);
    let zero = v.wrapping_sub(u128::from_le_bytes([1; NAME_SIZE]))
        & !v
        & u128::from_le_bytes([0x80; NAME_SIZE]);
    // The lowest flagged byte is the first NUL (false positives only sit above one).
    let end = (zero.trailing_zeros() / 8) as usize;
    name.get(..end).unwrap_or(name)
}

const _: () = assert!(core::mem::size_of::<Header>() == HEADER_SIZE);
const _: () = assert!(core::mem::size_of::<Entry>() == ENTRY_SIZE);
const _: () = assert!(core::mem::size_of::<StrArrayInfo>() == 4);

#[cfg(test)]
mod tests {
    use super::{Entry, NAME_SIZE};
    use zerocopy::FromZeros;

    #[test]
    fn name_bytes_stops_at_the_first_nul() {
        let mut entry = Entry::new_zeroed();
        assert_eq!(entry.name_bytes(), b"");
        for len in 1..=NAME_SIZE {
            entry.name = [0; NAME_SIZE];
            entry.name[..len].fill(0x80 | len as u8);
            assert_eq!(entry.name_bytes().len(), len);
            if len + 2 < NAME_SIZE {
                // Bytes after the NUL (0x01 and 0x80 around it) do not count.
                entry.name[len + 1] = 0x01;
                entry.name[len + 2] = 0x80;
                assert_eq!(entry.name_bytes().len(), len);
            }
        }
        entry.name = *b"rec\x01\x00\x00\x01\x00abcdefgh";
        assert_eq!(entry.name_bytes(), b"rec\x01");
    }
}

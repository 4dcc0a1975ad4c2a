//! The 16-byte header BigWorld files start with (`assets.bin`, PFS indexes): a magic, a version
//! word, a checksum of the rest of the file, and the pointer size and byte order of the tables
//! that follow.

use zerocopy::little_endian::{U16, U32};
use zerocopy::{FromBytes, Immutable, IntoBytes, KnownLayout, Unaligned};

/// The 16-byte file header.
#[derive(Debug, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct Header {
    /// The format's magic: stored bytes `BDWB` in `assets.bin` (0x42574442 as a little-endian
    /// u32), `ISFP` in a PFS index (0x50465349).
    pub magic: U32,
    /// Format version (0x01010000 in `assets.bin`'s seed example; 0x02000000 or 0x01010004 in
    /// PFS indexes).
    pub version: U32,
    /// A checksum of the body (bytes 0x10..EOF): MurmurHash3 in PFS indexes; in `assets.bin`
    /// which algorithm is not verified on a real file.
    pub checksum: U32,
    /// Pointer size in bits (0x40; 0x20 in legacy PFS indexes).
    pub architecture: U16,
    /// 0 = little-endian.
    pub endianness: U16,
}

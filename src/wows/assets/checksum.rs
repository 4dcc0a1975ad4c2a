//! The header checksum. Which algorithm the game uses is not verified on a real file: the seed
//! says CRC32 of the body, a peer computes MurmurHash3_x86_32 (seed 0) of the same bytes. Both are
//! computed and the caller is told which matched.

use crate::hash::Murmur3;

/// Which candidate algorithm equals the stored checksum.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChecksumMatch {
    /// CRC32 (IEEE, as `crc32fast` computes it) of the body.
    Crc32,
    /// MurmurHash3_x86_32, seed 0, of the body.
    Murmur3,
    /// Neither.
    None,
}

impl ChecksumMatch {
    /// `"crc32"`, `"murmur3"` or `"none"`.
    pub const fn name(self) -> &'static str {
        match self {
            ChecksumMatch::Crc32 => "crc32",
            ChecksumMatch::Murmur3 => "murmur3",
            ChecksumMatch::None => "none",
        }
    }
}

/// The stored checksum, both computed candidates, and which matched.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Checksum {
    pub stored: u32,
    pub crc32: u32,
    pub murmur3: u32,
}

impl Checksum {
    pub(crate) fn compute(stored: u32, body: &[u8]) -> Checksum {
        // Two whole passes measured faster than one chunked pass that feeds both: MurmurHash3 is
        // bound by its serial chain, not by memory, and crc32fast runs best on long inputs.
        let crc = crc32fast::hash(body);
        let murmur = Murmur3::new(0).update(body).finish();
        Checksum {
            stored,
            crc32: crc,
            murmur3: murmur,
        }
    }

    /// Which candidate equals the stored value (CRC32 first if, improbably, both do).
    pub fn matches(&self) -> ChecksumMatch {
        if self.crc32 == self.stored {
            ChecksumMatch::Crc32
        } else if self.murmur3 == self.stored {
            ChecksumMatch::Murmur3
        } else {
            ChecksumMatch::None
        }
    }
}

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
    /// The header's `checksum`.
    pub stored: u32,
    /// CRC32 of the body (bytes 0x10..EOF), the seed's reading.
    pub crc32: u32,
    /// MurmurHash3_x86_32 (seed 0) of the body, Akizuki's reading.
    pub murmur3: u32,
}

impl Checksum {
    pub(crate) fn compute(stored: u32, body: &[u8]) -> Checksum {
        let (crc32, murmur3) = if body.len() >= PARALLEL_FROM && more_than_one_core() {
            crc32_beside_murmur3(body)
        } else {
            (crc32fast::hash(body), murmur3(body))
        };
        Checksum {
            stored,
            crc32,
            murmur3,
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

/// Bodies from this size on are hashed on two threads. Below it, a thread costs more than it saves
/// (and small files then verify without allocating).
const PARALLEL_FROM: usize = 4 << 20;

fn murmur3(body: &[u8]) -> u32 {
    Murmur3::new(0).update(body).finish()
}

fn more_than_one_core() -> bool {
    std::thread::available_parallelism().is_ok_and(|n| n.get() > 1)
}

/// CRC32 on a second thread while this one runs MurmurHash3. MurmurHash3_x86_32 is one serial
/// dependency chain (xor, rotate, multiply-add per 4-byte block), about 8× slower than a plain
/// scan of a full-size file (see BENCHMARKS.md, assets.bin), while crc32fast folds with carry-less
/// multiplies at memory speed; overlapping them makes verifying both cost what MurmurHash3 alone costs. Falls back to
/// one thread when the system refuses a thread.
fn crc32_beside_murmur3(body: &[u8]) -> (u32, u32) {
    std::thread::scope(|scope| {
        let crc = std::thread::Builder::new()
            .name("gamebin-crc32".into())
            .spawn_scoped(scope, || crc32fast::hash(body));
        let murmur = murmur3(body);
        let crc = match crc {
            // crc32fast does not panic; should the thread die anyway, compute it here.
            Ok(handle) => handle.join().unwrap_or_else(|_| crc32fast::hash(body)),
            Err(_) => crc32fast::hash(body),
        };
        (crc, murmur)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_threads_compute_what_one_thread_computes() {
        let body: Vec<u8> = (0..PARALLEL_FROM as u32 + 4099)
            .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
            .collect();
        let reference = (crc32fast::hash(&body), crate::hash::murmur3_32(&body, 0));
        assert_eq!(crc32_beside_murmur3(&body), reference);
        let c = Checksum::compute(reference.1, &body);
        assert_eq!((c.crc32, c.murmur3), reference);
        assert_eq!(c.matches(), ChecksumMatch::Murmur3);
    }
}

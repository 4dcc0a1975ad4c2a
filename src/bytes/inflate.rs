//! Inflating a deflate stream into exactly the bytes its container declares: the one loop behind
//! every format that stores deflated data (a `.wwd` level's zlib main block, a PFS volume's raw
//! deflate blobs). Each format says what a failure means in its own words ([`Inflate`]).

use flate2::{Decompress, FlushDecompress, Status};

/// The most deflate can expand its input (about 1032:1): a declared length beyond
/// `stored * MAX_INFLATE_RATIO + 64` cannot be honest, so it is refused before anything is
/// allocated.
pub const MAX_INFLATE_RATIO: usize = 1032;

/// Whether `declared` bytes could come out of `stored` bytes of deflate.
pub(crate) fn plausible(stored: usize, declared: usize) -> bool {
    declared <= stored.saturating_mul(MAX_INFLATE_RATIO).saturating_add(64)
}

/// Why a stream did not inflate to exactly the declared length.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Inflate {
    /// The stream is not valid deflate; `input` bytes of it were consumed.
    Corrupt { input: u64, produced: u64 },
    /// The stream ended after `produced` bytes, fewer than declared.
    Short { input: u64, produced: u64 },
    /// The input ran out after `produced` bytes, fewer than declared, with the stream unfinished.
    EndsEarly { input: u64, produced: u64 },
    /// The stream goes on after the declared length.
    Long,
    /// The output is full and the input consumed, but the stream has no end.
    NoEnd { input: u64, produced: u64 },
}

/// Inflates `stored` into all of `out` with `z` (reset by the caller for a new stream), and
/// returns how many bytes of `stored` the stream took. The loop continues only while the
/// decompressor makes progress, so it ends on any input.
pub(crate) fn inflate_exact(
    z: &mut Decompress,
    stored: &[u8],
    out: &mut [u8],
) -> Result<usize, Inflate> {
    let corrupt = |z: &Decompress| Inflate::Corrupt {
        input: z.total_in(),
        produced: z.total_out(),
    };
    let mut status;
    loop {
        let before = (z.total_in(), z.total_out());
        let input = stored.get(to_index(z.total_in())..).unwrap_or(&[]);
        let output = out.get_mut(to_index(z.total_out())..).unwrap_or(&mut []);
        status = z
            .decompress(input, output, FlushDecompress::Finish)
            .map_err(|_| corrupt(z))?;
        if status == Status::StreamEnd || (z.total_in(), z.total_out()) == before {
            break;
        }
    }
    let produced = z.total_out();
    let declared = out.len() as u64;
    if status == Status::StreamEnd {
        if produced != declared {
            return Err(Inflate::Short {
                input: z.total_in(),
                produced,
            });
        }
        return Ok(to_index(z.total_in()));
    }
    if produced < declared {
        return Err(Inflate::EndsEarly {
            input: z.total_in(),
            produced,
        });
    }
    // The output is full: the stream must end here.
    let input = stored.get(to_index(z.total_in())..).unwrap_or(&[]);
    let mut probe = [0u8; 1];
    let end = z
        .decompress(input, &mut probe, FlushDecompress::Finish)
        .map_err(|_| corrupt(z))?;
    if z.total_out() != produced {
        return Err(Inflate::Long);
    }
    if end != Status::StreamEnd {
        return Err(Inflate::NoEnd {
            input: z.total_in(),
            produced,
        });
    }
    Ok(to_index(z.total_in()))
}

/// A decompressor count (never more than the slices it counts) as an index.
fn to_index(n: u64) -> usize {
    usize::try_from(n).unwrap_or(usize::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;
    use flate2::{Compress, Compression, FlushCompress};

    fn raw_deflate(data: &[u8]) -> Vec<u8> {
        let mut z = Compress::new(Compression::default(), false);
        let mut out = Vec::with_capacity(data.len() + 64);
        z.compress_vec(data, &mut out, FlushCompress::Finish)
            .unwrap();
        out
    }

    #[test]
    fn exact_short_long_and_corrupt_streams() {
        let data: Vec<u8> = (0..5000u32).map(|i| (i % 7) as u8).collect();
        let stored = raw_deflate(&data);
        let mut z = Decompress::new(false);
        let mut out = vec![0; data.len()];
        assert_eq!(inflate_exact(&mut z, &stored, &mut out), Ok(stored.len()));
        assert_eq!(out, data);

        z.reset(false);
        let mut longer = vec![0; data.len() + 1];
        assert!(matches!(
            inflate_exact(&mut z, &stored, &mut longer),
            Err(Inflate::Short { .. })
        ));
        z.reset(false);
        let mut shorter = vec![0; data.len() - 1];
        assert_eq!(
            inflate_exact(&mut z, &stored, &mut shorter),
            Err(Inflate::Long)
        );
        z.reset(false);
        assert!(matches!(
            inflate_exact(&mut z, &stored[..stored.len() / 2], &mut out),
            Err(Inflate::EndsEarly { .. })
        ));
        z.reset(false);
        assert!(matches!(
            inflate_exact(&mut z, &[0xff; 16], &mut out),
            Err(Inflate::Corrupt { .. })
        ));
    }
}

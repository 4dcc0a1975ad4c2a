//! The main block of a compressed level: one zlib stream (RFC 1950, never raw deflate) from the end
//! of the header to the end of the file, inflated once into a caller-owned buffer that then holds
//! the whole image `header ‖ inflated main block`, so that the format's absolute offsets index it
//! directly.

use flate2::{Decompress, FlushDecompress, Status};

use super::raw::{HEADER_DECOMPRESSED_SIZE, HEADER_SIZE};
use crate::bytes::u64_of;
use crate::error::{Error, Result};

/// The largest inflated main block gamebin accepts (the largest real one is 2.45 MB).
pub const MAX_MAIN_BLOCK: usize = 64 << 20;

/// The most deflate can expand its input (about 1032:1), with room for a stream's fixed overhead:
/// a declared length beyond it cannot be honest, so it is refused before anything is allocated.
pub const MAX_INFLATE_RATIO: usize = 1032;

const WHAT: &str = "WwdHeader.main_block(zlib)";

/// Inflates `stored` (the bytes after the header) into `buffer` as `header ‖ inflated`, checking
/// that the stream inflates to exactly `declared` bytes and ends exactly at the end of the file.
///
/// `buffer` is cleared; it grows (one allocation) only when its capacity is too small. The
/// decompressor's own state is one more allocation (zlib-rs, about 47 KB).
pub(crate) fn inflate_into(
    header: &[u8],
    stored: &[u8],
    declared: u32,
    buffer: &mut Vec<u8>,
) -> Result<()> {
    let declared_len = declared as usize;
    let field = u64_of(HEADER_DECOMPRESSED_SIZE);
    if declared_len == 0 {
        return Err(Error::invalid(
            field,
            "WwdHeader.decompressed_mainblock_size",
            0,
            "a compressed level must declare its inflated main block's length",
        ));
    }
    if declared_len > MAX_MAIN_BLOCK {
        return Err(Error::invalid(
            field,
            "WwdHeader.decompressed_mainblock_size",
            u64::from(declared),
            "larger than the 64 MiB cap on an inflated main block",
        ));
    }
    if declared_len
        > stored
            .len()
            .saturating_mul(MAX_INFLATE_RATIO)
            .saturating_add(64)
    {
        return Err(Error::invalid(
            field,
            "WwdHeader.decompressed_mainblock_size",
            u64::from(declared),
            "more than the stored zlib stream can inflate to (truncated file?)",
        ));
    }
    let total = HEADER_SIZE + declared_len;
    buffer.clear();
    buffer.reserve_exact(total);
    buffer.extend_from_slice(header);
    buffer.resize(total, 0);
    let out = buffer.get_mut(HEADER_SIZE..).unwrap_or(&mut []);
    let mut z = Decompress::new(true);
    let at = |z: &Decompress| u64_of(HEADER_SIZE).saturating_add(z.total_in());
    let corrupt =
        |z: &Decompress| Error::invalid(at(z), WHAT, z.total_out(), "the zlib stream is corrupt");
    // One call inflates the whole stream when it is sound; the loop only continues while the
    // decompressor makes progress, so it ends on any input.
    let mut status;
    loop {
        let before = (z.total_in(), z.total_out());
        let input = stored.get(to_index(z.total_in())..).unwrap_or(&[]);
        let output = out.get_mut(to_index(z.total_out())..).unwrap_or(&mut []);
        status = z
            .decompress(input, output, FlushDecompress::Finish)
            .map_err(|_| corrupt(&z))?;
        if status == Status::StreamEnd || (z.total_in(), z.total_out()) == before {
            break;
        }
    }
    let produced = z.total_out();
    if status != Status::StreamEnd {
        if produced < u64_of(declared_len) {
            return Err(Error::invalid(
                at(&z),
                WHAT,
                produced,
                "the zlib stream ends early: it inflates to fewer bytes than decompressed_mainblock_size (truncated file?)",
            ));
        }
        // The output is full: the stream must end here.
        let input = stored.get(to_index(z.total_in())..).unwrap_or(&[]);
        let mut probe = [0u8; 1];
        let end = z
            .decompress(input, &mut probe, FlushDecompress::Finish)
            .map_err(|_| corrupt(&z))?;
        if z.total_out() != produced {
            return Err(Error::invalid(
                field,
                "WwdHeader.decompressed_mainblock_size",
                u64::from(declared),
                "the zlib stream inflates to more bytes than declared",
            ));
        }
        if end != Status::StreamEnd {
            return Err(Error::invalid(
                at(&z),
                WHAT,
                produced,
                "the zlib stream does not end (truncated file?)",
            ));
        }
    } else if produced != u64_of(declared_len) {
        return Err(Error::invalid(
            at(&z),
            WHAT,
            produced,
            "the zlib stream inflates to fewer bytes than decompressed_mainblock_size",
        ));
    }
    let trailing = u64_of(stored.len()).saturating_sub(z.total_in());
    if trailing != 0 {
        return Err(Error::invalid(
            at(&z),
            WHAT,
            trailing,
            "bytes after the end of the zlib stream",
        ));
    }
    Ok(())
}

/// A decompressor count (never more than the slices it counts) as an index.
fn to_index(n: u64) -> usize {
    usize::try_from(n).unwrap_or(usize::MAX)
}

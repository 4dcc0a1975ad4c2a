//! The file's layer: every byte reversed, a zlib stream. Inflated once into the caller's buffer,
//! reading the file backwards through a chunk buffer kept across files (no reversed copy of the
//! whole file).

use flate2::{Decompress, FlushDecompress, Status};

use crate::error::{Error, ErrorKind, Result};

/// The largest inflated pickle read: 512 MiB (the game's is about 30 MB).
pub const MAX_PICKLE: usize = 512 << 20;

/// The most deflate can expand its input (about 1032:1).
const MAX_INFLATE_RATIO: usize = 1032;

const WHAT: &str = "GameParams.data (reversed zlib)";

/// Whether `cmf`, `flg` form a zlib header (RFC 1950: deflate, a window of at most 32 KiB, the
/// check bits, no preset dictionary).
fn zlib_header(cmf: u8, flg: u8) -> bool {
    cmf & 0x0f == 8
        && cmf >> 4 <= 7
        && (u16::from(cmf) * 256 + u16::from(flg)) % 31 == 0
        && flg & 0x20 == 0
}

/// Whether `data` ends like a reversed zlib stream: its last byte a zlib CMF of a 32 KiB window
/// (`0x78`, what every zlib writer uses), the byte before it a valid FLG, and the first deflate
/// block header (the byte before those) not of the reserved block type.
pub fn looks_reversed_zlib(data: &[u8]) -> bool {
    let n = data.len();
    if n < 8 {
        return false;
    }
    let (cmf, flg, first) = (data[n - 1], data[n - 2], data[n - 3]);
    cmf == 0x78 && zlib_header(cmf, flg) && (first >> 1) & 3 != 3
}

/// What the bytes are when they are not a reversed zlib stream, for the error.
fn not_reversed_zlib(data: &[u8]) -> Error {
    let reason = match data {
        [] => "the file is empty",
        [cmf, flg, ..] if zlib_header(*cmf, *flg) => {
            "the file is a zlib stream that is not reversed (GameParams.data stores its bytes reversed)"
        }
        [b'(' | 0x80 | b']' | b'}', ..] => {
            "the file looks like an uncompressed pickle; GameParams.data is a reversed zlib stream"
        }
        _ => {
            "its last two bytes, read first, are not a zlib header (expected 0x78 and a check byte)"
        }
    };
    let found = data
        .iter()
        .rev()
        .take(2)
        .fold(0u64, |acc, &b| (acc << 8) | u64::from(b));
    Error::new(
        data.len().saturating_sub(1) as u64,
        WHAT,
        ErrorKind::InvalidValue {
            value: found,
            reason,
        },
    )
}

/// How much of the file is reversed into the chunk buffer at a time. Each call of the inflate
/// ends by copying the last 32 KiB of its output into zlib's window, and runs the slow loop near
/// the ends of its input: 16 KiB chunks made the inflate of the 30 MB synthetic pickle 5–10 ms
/// slower (45–52 ms) than one call over the whole file (38–41 ms); 256 KiB is within noise of it.
const CHUNK: usize = 256 << 10;

/// Inflates the reversed bytes of `file` into `out` (which keeps its capacity across files),
/// using `z` (reset here) and `chunk` (the file's bytes reversed, [`CHUNK`] at a time; kept across
/// files too), and returns the pickle's length: the pickle is `out[..len]`. `out` is
/// left longer (its bytes past the pickle zero or an earlier file's), so that the next file
/// inflates into it without zero-filling it again. Errors give file offsets.
pub(crate) fn inflate_reversed(
    file: &[u8],
    out: &mut Vec<u8>,
    chunk: &mut Vec<u8>,
    z: &mut Decompress,
) -> Result<usize> {
    if !file
        .len()
        .checked_sub(2)
        .is_some_and(|_| zlib_header(file[file.len() - 1], file[file.len() - 2]))
    {
        return Err(not_reversed_zlib(file));
    }
    z.reset(true);
    let cap = MAX_PICKLE.min(
        file.len()
            .saturating_mul(MAX_INFLATE_RATIO)
            .saturating_add(64),
    );
    // A first guess at the size (the game's pickles are 5–6 times the file), grown by doubling.
    let guess = file.len().saturating_mul(8).max(4096).min(cap);
    if out.capacity() < guess {
        *out = vec![0; guess];
    } else if out.len() < out.capacity() {
        let c = out.capacity();
        out.resize(c, 0);
    }
    if chunk.len() < CHUNK {
        chunk.resize(CHUNK, 0);
    }
    let mut consumed = 0usize; // bytes of the reversed file given to the decompressor
    let mut filled = 0usize; // bytes of `chunk` holding reversed input not yet consumed
    let mut chunk_at = 0usize;
    loop {
        if chunk_at >= filled {
            // Refill with the next bytes of the file, last first.
            let remaining = file.len() - consumed;
            let n = remaining.min(chunk.len());
            let from = remaining - n;
            for (dst, src) in chunk.iter_mut().zip(file[from..remaining].iter().rev()) {
                *dst = *src;
            }
            filled = n;
            chunk_at = 0;
        }
        let produced = z.total_out() as usize;
        if produced == out.len() {
            if out.len() >= cap {
                out.truncate(produced);
                return Err(Error::invalid(
                    file.len().saturating_sub(consumed) as u64,
                    WHAT,
                    produced as u64,
                    "the pickle inflates beyond the cap (512 MiB, or 1032 times the file)",
                ));
            }
            let grown = out.len().saturating_mul(2).min(cap);
            out.resize(grown, 0);
        }
        let before_in = z.total_in();
        let before_out = z.total_out();
        let input = chunk.get(chunk_at..filled).unwrap_or(&[]);
        let output = out.get_mut(produced..).unwrap_or(&mut []);
        let status = z
            .decompress(input, output, FlushDecompress::None)
            .map_err(|_| {
                Error::invalid(
                    file.len().saturating_sub(z.total_in() as usize + 1) as u64,
                    WHAT,
                    z.total_out(),
                    "the zlib stream is corrupt",
                )
            })?;
        let took = (z.total_in() - before_in) as usize;
        chunk_at += took;
        consumed += took;
        if status == Status::StreamEnd {
            return Ok(z.total_out() as usize);
        }
        if took == 0 && z.total_out() == before_out && consumed >= file.len() {
            out.truncate(z.total_out() as usize);
            return Err(Error::invalid(
                0,
                WHAT,
                z.total_out(),
                "the zlib stream ends before its end marker (truncated file?)",
            ));
        }
        if took == 0
            && z.total_out() == before_out
            && chunk_at < filled
            && out.len() > z.total_out() as usize
        {
            return Err(Error::invalid(
                file.len().saturating_sub(consumed + 1) as u64,
                WHAT,
                z.total_out(),
                "the zlib stream makes no progress",
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use flate2::{Compress, Compression, FlushCompress};

    fn reversed_zlib(data: &[u8]) -> Vec<u8> {
        let mut z = Compress::new(Compression::default(), true);
        let mut out = Vec::with_capacity(data.len() + 64);
        z.compress_vec(data, &mut out, FlushCompress::Finish)
            .unwrap();
        out.reverse();
        out
    }

    #[test]
    fn round_trip_truncation_and_wrong_layers() {
        let data: Vec<u8> = (0..200_000u32).map(|i| (i % 251) as u8).collect();
        let file = reversed_zlib(&data);
        assert!(looks_reversed_zlib(&file));
        let mut z = Decompress::new(true);
        let mut out = Vec::new();
        let mut chunk = Vec::new();
        let n = inflate_reversed(&file, &mut out, &mut chunk, &mut z).unwrap();
        assert_eq!(out[..n], data);
        // Truncated (the stream's end cut off: the file's first bytes).
        assert!(inflate_reversed(&file[file.len() / 2..], &mut out, &mut chunk, &mut z).is_err());
        // Not reversed.
        let mut plain = file.clone();
        plain.reverse();
        let e = inflate_reversed(&plain, &mut out, &mut chunk, &mut z).unwrap_err();
        assert!(e.to_string().contains("not reversed"), "{e}");
        let e = inflate_reversed(&[], &mut out, &mut chunk, &mut z).unwrap_err();
        assert!(e.to_string().contains("empty"), "{e}");
        // Corrupt.
        let mut bad = file.clone();
        let n = bad.len();
        for b in &mut bad[n - 40..n - 3] {
            *b = 0xff;
        }
        assert!(inflate_reversed(&bad, &mut out, &mut chunk, &mut z).is_err());
    }
}

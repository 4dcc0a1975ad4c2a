//! A file's bytes out of its volume: borrowed when stored, inflated into the caller's buffer when
//! deflated; the size, the CRC-32 and the volume's trailer after the blob are checked either way.

use flate2::Decompress;

use super::entry::{Compression, FileEntry};
use super::raw::BlobTrailer;
use crate::bytes::inflate::{Inflate, inflate_exact, plausible};
use crate::bytes::{Bytes, to_usize, u64_of};
use crate::error::{Error, ErrorKind, Result};

/// Reads files out of volumes, keeping one raw-deflate decompressor across them.
///
/// Making one allocates nothing; the first deflated file allocates the decompressor's state once
/// (zlib-rs: about 47 KB), which later files reuse after a reset. Make one per thread.
#[derive(Debug, Default)]
pub struct BlobReader {
    state: Option<Decompress>,
}

impl BlobReader {
    /// A reader with no state yet.
    pub const fn new() -> BlobReader {
        BlobReader { state: None }
    }

    /// The decompressor, fresh for a new raw deflate stream.
    fn fresh(&mut self) -> &mut Decompress {
        match &mut self.state {
            Some(z) => {
                z.reset(false);
                z
            }
            none => none.insert(Decompress::new(false)),
        }
    }

    /// The bytes of `file` from `volume` (the whole `.pkg` it names): a slice of the volume when
    /// stored, else inflated into `out` (resized to the unpacked size; it allocates only when
    /// smaller than that) and a slice of it.
    ///
    /// Errors, with the offset in the volume: a blob or trailer outside the volume, a trailer that
    /// disagrees with the record, a stored size other than the unpacked one, a stream that does
    /// not inflate to exactly the unpacked size, a CRC-32 other than the record's, and a
    /// compression gamebin does not decode (Oodle, unknown words).
    pub fn read<'v>(
        &mut self,
        file: &FileEntry,
        volume: &'v [u8],
        out: &'v mut Vec<u8>,
    ) -> Result<&'v [u8]> {
        let stored = blob(file, volume)?;
        let at = u64_of(to_usize(file.offset_in_volume, 0, "FileRecord.offset")?);
        let unpacked = file.unpacked_size as usize;
        let bytes: &[u8] = match file.compression {
            Compression::Stored => {
                if stored.len() != unpacked {
                    return Err(Error::invalid(
                        u64_of(file.offset),
                        "FileRecord.unpackedSize",
                        u64::from(file.unpacked_size),
                        "differs from the stored size of a stored file",
                    ));
                }
                stored
            }
            Compression::Deflate => {
                if !plausible(stored.len(), unpacked) {
                    return Err(Error::invalid(
                        u64_of(file.offset),
                        "FileRecord.unpackedSize",
                        u64::from(file.unpacked_size),
                        "more than the stored deflate stream can inflate to",
                    ));
                }
                let output = output_of(out, unpacked);
                inflate_exact(self.fresh(), stored, output).map_err(|e| inflate_error(e, at))?;
                output
            }
            Compression::OodleStream { .. } | Compression::Unknown { .. } => {
                let (method, flag) = file.compression.words();
                return Err(Error::new(
                    u64_of(file.offset),
                    "FileRecord.compression",
                    ErrorKind::UnsupportedCompression {
                        method: u64::from(method),
                        flag: u64::from(flag),
                    },
                ));
            }
        };
        let computed = crc32fast::hash(bytes);
        if computed != file.crc32 {
            return Err(Error::new(
                at,
                "PkgBlob(crc32)",
                ErrorKind::ChecksumMismatch {
                    stored: u64::from(file.crc32),
                    computed: u64::from(computed),
                },
            ));
        }
        Ok(bytes)
    }
}

/// The stored bytes of `file` in `volume`, once the trailer after them agrees with the record.
pub fn blob<'v>(file: &FileEntry, volume: &'v [u8]) -> Result<&'v [u8]> {
    let volume = Bytes::new(volume);
    let start = to_usize(file.offset_in_volume, 0, "FileRecord.offset")?;
    let stored = volume.slice(start, file.size as usize, "PkgBlob")?;
    let end = start + stored.len();
    let trailer: &BlobTrailer = volume.read(end, "PkgBlobTrailer")?;
    if trailer.crc32.get() != file.crc32 {
        return Err(Error::invalid(
            u64_of(end + 4),
            "PkgBlobTrailer.crc32",
            u64::from(trailer.crc32.get()),
            "differs from the file record's CRC-32",
        ));
    }
    if trailer.unpacked_size.get() != file.unpacked_size {
        return Err(Error::invalid(
            u64_of(end + 8),
            "PkgBlobTrailer.unpackedSize",
            u64::from(trailer.unpacked_size.get()),
            "differs from the file record's unpacked size",
        ));
    }
    Ok(stored)
}

/// What a failed inflate means for a blob at `at` in its volume.
fn inflate_error(e: Inflate, at: u64) -> Error {
    const WHAT: &str = "PkgBlob(deflate)";
    match e {
        Inflate::Corrupt { input, produced } => Error::invalid(
            at.saturating_add(input),
            WHAT,
            produced,
            "the deflate stream is corrupt",
        ),
        Inflate::EndsEarly { input, produced } => Error::invalid(
            at.saturating_add(input),
            WHAT,
            produced,
            "the deflate stream ends early: it inflates to fewer bytes than the record's unpacked size (truncated?)",
        ),
        Inflate::Short { input, produced } => Error::invalid(
            at.saturating_add(input),
            WHAT,
            produced,
            "the deflate stream inflates to fewer bytes than the record's unpacked size",
        ),
        Inflate::Long => Error::invalid(
            at,
            WHAT,
            0,
            "the deflate stream inflates to more bytes than the record's unpacked size",
        ),
        Inflate::NoEnd { input, produced } => Error::invalid(
            at.saturating_add(input),
            WHAT,
            produced,
            "the deflate stream does not end where its stored size does",
        ),
    }
}

/// Makes `buffer` exactly `len` bytes long for a stream to overwrite. A buffer too small is
/// replaced by a new zeroed one (one allocation, through the allocator's zeroed path); a large
/// enough one keeps its bytes, and only those beyond its old length are zeroed: every byte is
/// overwritten by a sound stream, so reusing a buffer costs nothing to prepare.
fn output_of(buffer: &mut Vec<u8>, len: usize) -> &mut [u8] {
    if buffer.capacity() < len {
        *buffer = vec![0; len];
    } else {
        buffer.resize(len, 0);
    }
    buffer
}

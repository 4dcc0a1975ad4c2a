//! A prototype's data blob: a relative pointer stored in a record, resolved from the record's start,
//! and a stored size. Vertex buffers, index buffers and models all reach their data this way.

use super::encd::Encd;
use crate::bytes::Bytes;
use crate::bytes::u64_of;
use crate::error::{Error, ErrorKind, Result};

#[derive(Debug, Clone, Copy)]
pub(crate) struct Blob<'a> {
    pub bytes: Bytes<'a>,
    /// Absolute offset of the record the pointer is relative to.
    pub record_at: usize,
    /// Absolute offset of the pointer field, for error reports.
    pub pointer_at: usize,
    pub relative: i64,
    pub size: usize,
    /// Field names for errors: the pointer, then the data.
    pub pointer_field: &'static str,
    pub data_field: &'static str,
}

impl<'a> Blob<'a> {
    /// Absolute file offset of the data.
    #[inline]
    pub fn offset(&self) -> Result<usize> {
        self.bytes.resolve(
            self.pointer_at,
            self.record_at,
            self.relative,
            self.pointer_field,
        )
    }

    /// The data, borrowed.
    pub fn data(&self) -> Result<&'a [u8]> {
        self.located().map(|(data, _)| data)
    }

    /// The data and its absolute file offset, the pointer resolved once (decoding small buffers
    /// is dominated by such fixed costs).
    #[inline]
    pub fn located(&self) -> Result<(&'a [u8], usize)> {
        let at = self.offset()?;
        Ok((self.bytes.slice(at, self.size, self.data_field)?, at))
    }

    /// The ENCD header and payload, or `None` for raw data.
    pub fn encoded(&self) -> Result<Option<Encd<'a>>> {
        let (data, at) = self.located()?;
        Ok(Encd::parse(data, at))
    }

    /// The data when they are raw, to be read in place; ENCD data are an error (they must be
    /// decoded into a buffer first).
    #[inline]
    pub fn raw_data(&self) -> Result<&'a [u8]> {
        let (data, at) = self.located()?;
        if Encd::parse(data, at).is_some() {
            return Err(Error::invalid(
                u64_of(at),
                self.data_field,
                0,
                "the blob is ENCD-encoded: decode it into a buffer",
            ));
        }
        Ok(data)
    }
}

/// The blob accessors of a merged buffer ([`VertexBuffer`](super::VertexBuffer),
/// [`IndexBuffer`](super::IndexBuffer)), inside its `impl`. Both records store the blob's pointer
/// first, relative to the record's own start, and its size, and read the blob alike: only the
/// record's name, the pointer field and what the blob holds differ (`"VerticesPrototype"`,
/// `vertices_data_ptr`, `"vertices"` names the fields `VerticesPrototype.verticesDataPtr` and
/// `VerticesPrototype.verticesData` in errors).
macro_rules! merged_buffer_blob {
    ($record:literal, $pointer:ident, $items:literal) => {
        /// The blob's stored size in bytes (including the ENCD header when encoded).
        #[inline]
        pub fn size_in_bytes(&self) -> u32 {
            self.raw.size_in_bytes.get()
        }

        #[inline]
        fn blob(&self) -> Blob<'a> {
            Blob {
                bytes: self.bytes,
                record_at: self.raw.offset(),
                pointer_at: self.raw.offset(),
                relative: self.raw.$pointer.get(),
                size: self.size_in_bytes() as usize,
                pointer_field: concat!($record, ".", $items, "DataPtr"),
                data_field: concat!($record, ".", $items, "Data"),
            }
        }

        /// Absolute file offset of the blob.
        pub fn data_offset(&self) -> Result<usize> {
            self.blob().offset()
        }

        #[doc = concat!("The blob, borrowed: raw ", $items, " or an ENCD header and payload.")]
        pub fn data(&self) -> Result<&'a [u8]> {
            self.blob().data()
        }

        /// The ENCD header and payload, or `None` for a raw blob.
        pub fn encoded(&self) -> Result<Option<Encd<'a>>> {
            self.blob().encoded()
        }

        /// Whether the blob is ENCD (meshoptimizer) encoded.
        pub fn is_encoded(&self) -> Result<bool> {
            Ok(self.encoded()?.is_some())
        }

        /// The start of a caller's buffer that `needed` decoded items go in, or the error.
        #[inline]
        fn decode_target<'o, T>(&self, out: &'o mut [T], needed: usize) -> Result<&'o mut [T]> {
            super::blob::decode_target(
                out,
                needed,
                self.raw.offset(),
                concat!($record, " (decode buffer)"),
            )
        }
    };
}
pub(super) use merged_buffer_blob;

/// The start of a caller's buffer `out` that `needed` decoded items go in, or the error that says
/// it is too small, at the buffer's record (`record_at`, named `what`). Vertex and index buffers
/// decode into caller buffers alike.
#[inline]
pub(crate) fn decode_target<'o, T>(
    out: &'o mut [T],
    needed: usize,
    record_at: usize,
    what: &'static str,
) -> Result<&'o mut [T]> {
    let provided = out.len();
    out.get_mut(..needed).ok_or_else(|| {
        Error::new(
            u64_of(record_at),
            what,
            ErrorKind::BufferSize {
                needed: u64_of(needed),
                provided: u64_of(provided),
            },
        )
    })
}

/// Replaces `out`'s contents with `values`: into its capacity when that suffices, otherwise into a
/// new allocation of exactly their size (what `to_vec` does), since growing the old one would
/// copy contents about to be replaced. Decoding a raw blob into a fresh `Vec` then costs what
/// copying its stored bytes costs.
pub(crate) fn copy_into_vec<T: Copy>(out: &mut Vec<T>, values: &[T]) {
    if out.capacity() < values.len() {
        *out = values.to_vec();
    } else {
        out.clear();
        out.extend_from_slice(values);
    }
}

//! ENCD blobs: an 8-byte header (`"ENCD"`, element count) and a meshoptimizer payload.
//!
//! This file is the crate's only meshoptimizer FFI call site. meshoptimizer's decoders are safe for
//! untrusted *payloads*, but their parameters are guarded by C `assert`s that abort the process
//! (vertex size in 1..=256 and a multiple of 4; index count a multiple of 3; index size 2 or 4), and
//! they write `count × size` bytes to the destination without knowing its length. Every one of those
//! preconditions is checked here, in Rust, before the call.
#![allow(unsafe_code)]

use core::ffi::c_void;

use super::raw::{ENCD_MAGIC, EncdHeader};
use crate::bytes::u64_of;
use crate::error::{Error, ErrorKind, Result};

/// Size of the ENCD header that precedes the payload.
pub const ENCD_HEADER_SIZE: usize = 8;

/// No meshoptimizer vertex payload decodes to more than this many times its own length. Codec v1
/// spends at least one control byte per four vertex bytes per block of at most 256 vertices (ratio
/// 1024); codec v0, which the game's files use, spends at least two header bits per vertex byte per
/// group of 16 vertices (ratio 64). A larger claimed output is corrupt, and rejecting it up front
/// bounds what a caller must allocate to `payload × 64` (v0) or `× 1024` (v1).
pub const MAX_VERTEX_EXPANSION: usize = 1024;

/// The expansion bound of codec v0 (see [`MAX_VERTEX_EXPANSION`]).
const MAX_VERTEX_EXPANSION_V0: usize = 64;

/// An encoded blob: its element count and the meshoptimizer payload after the header.
#[derive(Debug, Clone, Copy)]
pub struct Encd<'a> {
    /// Vertices or indices the payload decodes to.
    pub element_count: u32,
    /// The meshoptimizer payload (the blob less its 8-byte header).
    pub payload: &'a [u8],
    /// Absolute file offset of the payload, for error reports.
    pub payload_offset: usize,
}

impl<'a> Encd<'a> {
    /// Reads the blob at absolute offset `blob_offset` as ENCD if it starts with the magic.
    #[inline]
    pub fn parse(blob: &'a [u8], blob_offset: usize) -> Option<Self> {
        let (header, payload) = zerocopy::FromBytes::ref_from_prefix(blob).ok()?;
        let header: &EncdHeader = header;
        (header.magic == ENCD_MAGIC).then_some(Encd {
            element_count: header.element_count.get(),
            payload,
            payload_offset: blob_offset.saturating_add(ENCD_HEADER_SIZE),
        })
    }

    /// The codec version from the payload's first byte (`0xa?` vertex, `0xe?` index), if any.
    pub fn codec_byte(&self) -> Option<u8> {
        self.payload.first().copied()
    }

    fn error(&self, what: &'static str, kind: ErrorKind) -> Error {
        Error::new(u64_of(self.payload_offset), what, kind)
    }

    /// The decoder writes exactly `needed` elements: the caller's buffer must have that length.
    fn check_output(&self, needed: usize, provided: usize, what: &'static str) -> Result<()> {
        if needed == provided {
            return Ok(());
        }
        Err(self.error(
            what,
            ErrorKind::BufferSize {
                needed: u64_of(needed),
                provided: u64_of(provided),
            },
        ))
    }

    /// meshoptimizer's return code as a result (0 is success).
    fn decoded(&self, code: core::ffi::c_int, what: &'static str) -> Result<()> {
        match code {
            0 => Ok(()),
            code => Err(self.error(
                what,
                ErrorKind::Decoder {
                    code: i64::from(code),
                },
            )),
        }
    }

    /// Checks that `count` vertices of `stride` bytes can be decoded from this payload, and returns
    /// the decoded length in bytes.
    pub fn vertex_output_len(&self, stride: usize, what: &'static str) -> Result<usize> {
        check_vertex_stride(stride, self.payload_offset, what)?;
        let count = self.element_count as usize;
        let len = count.checked_mul(stride).ok_or_else(|| {
            Error::invalid(
                u64_of(self.payload_offset),
                what,
                u64::from(self.element_count),
                "element count × stride overflows",
            )
        })?;
        let expansion = match self.codec_byte() {
            Some(0xa0) => MAX_VERTEX_EXPANSION_V0,
            Some(0xa1) => MAX_VERTEX_EXPANSION,
            header => {
                return Err(self.error(
                    what,
                    ErrorKind::UnsupportedVersion {
                        found: header.map_or(u64::MAX, u64::from),
                    },
                ));
            }
        };
        if len / expansion > self.payload.len() {
            return Err(self.error(
                what,
                ErrorKind::InvalidValue {
                    value: u64::from(self.element_count),
                    reason: "element count needs more output than a meshoptimizer payload of this size can hold",
                },
            ));
        }
        Ok(len)
    }

    /// Decodes the payload into `out`, which must be exactly `element_count × stride` bytes.
    pub fn decode_vertices(&self, out: &mut [u8], stride: usize, what: &'static str) -> Result<()> {
        let len = self.vertex_output_len(stride, what)?;
        self.check_output(len, out.len(), what)?;
        // SAFETY: `out` is exactly `element_count × stride` bytes, which is all the decoder writes;
        // the payload pointer and length describe a live slice; the decoder's asserted
        // preconditions (stride in 1..=256, a multiple of 4) were checked above.
        let code = unsafe {
            meshopt::ffi::meshopt_decodeVertexBuffer(
                out.as_mut_ptr().cast::<c_void>(),
                self.element_count as usize,
                stride,
                self.payload.as_ptr(),
                self.payload.len(),
            )
        };
        self.decoded(code, what)
    }

    /// Checks that the element count can be decoded as indices from this payload.
    pub fn check_index_count(&self, what: &'static str) -> Result<usize> {
        let count = self.element_count as usize;
        if !count.is_multiple_of(3) {
            return Err(self.error(
                what,
                ErrorKind::InvalidValue {
                    value: u64::from(self.element_count),
                    reason: "an encoded index count must be a multiple of 3 (whole triangles)",
                },
            ));
        }
        // The codec spends one byte per triangle plus a 17-byte header and table.
        if count / 3 > self.payload.len().saturating_sub(17) {
            return Err(self.error(
                what,
                ErrorKind::InvalidValue {
                    value: u64::from(self.element_count),
                    reason: "index count needs more triangles than the payload encodes (one byte each)",
                },
            ));
        }
        Ok(count)
    }

    /// Decodes the payload into `out` (exactly `element_count` indices of 2 or 4 bytes).
    pub fn decode_indices<I: IndexInt>(&self, out: &mut [I], what: &'static str) -> Result<()> {
        let count = self.check_index_count(what)?;
        self.check_output(count, out.len(), what)?;
        // SAFETY: `out` holds exactly `count` elements of `I::SIZE` (2 or 4, enforced by the sealed
        // `IndexInt`) bytes, which is all the decoder writes; `count` is a multiple of 3, checked
        // above, as the decoder asserts.
        let code = unsafe {
            meshopt::ffi::meshopt_decodeIndexBuffer(
                out.as_mut_ptr().cast::<c_void>(),
                count,
                I::SIZE,
                self.payload.as_ptr(),
                self.payload.len(),
            )
        };
        self.decoded(code, what)
    }
}

/// The vertex strides meshoptimizer accepts; anything else would trip its aborting asserts.
pub fn check_vertex_stride(stride: usize, offset: usize, what: &'static str) -> Result<()> {
    if stride == 0 || stride > 256 || !stride.is_multiple_of(4) {
        return Err(Error::invalid(
            u64_of(offset),
            what,
            u64_of(stride),
            "an encoded vertex stride must be 4..=256 and a multiple of 4",
        ));
    }
    Ok(())
}

mod sealed {
    pub trait Sealed {}
    impl Sealed for u16 {}
    impl Sealed for u32 {}
}

/// An index type meshoptimizer can decode into: `u16` or `u32`.
pub trait IndexInt: sealed::Sealed + bytemuck::Pod + Into<u32> {
    /// Bytes per index.
    const SIZE: usize;
    /// A 2-byte index.
    fn from_u16(v: u16) -> Self;
    /// A 4-byte index; only asked of types that hold it (`u16` saturates, never reached).
    fn from_u32_lossless(v: u32) -> Self;
}

impl IndexInt for u16 {
    const SIZE: usize = 2;
    fn from_u16(v: u16) -> Self {
        v
    }
    fn from_u32_lossless(v: u32) -> Self {
        u16::try_from(v).unwrap_or(u16::MAX)
    }
}

impl IndexInt for u32 {
    const SIZE: usize = 4;
    fn from_u16(v: u16) -> Self {
        u32::from(v)
    }
    fn from_u32_lossless(v: u32) -> Self {
        v
    }
}

/// Encoders for the writer: meshoptimizer vertex and index codec **v0**, as Wargaming's converter
/// writes them.
#[cfg(feature = "write")]
pub mod encode {
    use super::*;
    use crate::write_error::{WriteError, WriteResult};
    use std::sync::Mutex;

    /// meshoptimizer keeps the index encoder's version in a global that must not change while an
    /// encode runs; every index encode here sets it under this lock.
    static INDEX_ENCODER: Mutex<()> = Mutex::new(());

    /// Encodes `vertices` (`stride`-byte records) with the v0 vertex codec.
    pub fn vertices(vertices: &[u8], stride: usize) -> WriteResult<Vec<u8>> {
        if check_vertex_stride(stride, 0, "").is_err() {
            return Err(WriteError::invalid(
                "VerticesPrototype.strideInBytes",
                u64_of(stride),
                "an encoded vertex stride must be 4..=256 and a multiple of 4",
            ));
        }
        if !vertices.len().is_multiple_of(stride) {
            return Err(WriteError::invalid(
                "VerticesPrototype.data",
                u64_of(vertices.len()),
                "vertex bytes are not a whole number of strides",
            ));
        }
        let count = vertices.len() / stride;
        // SAFETY: pure computation on two integers.
        let bound = unsafe { meshopt::ffi::meshopt_encodeVertexBufferBound(count, stride) };
        let mut out = vec![0u8; bound];
        // SAFETY: `vertices` holds `count × stride` bytes; `out` has the bound meshoptimizer asks
        // for; stride is 4..=256 and a multiple of 4, level 0 is in range, version 0 is supported.
        let written = unsafe {
            meshopt::ffi::meshopt_encodeVertexBufferLevel(
                out.as_mut_ptr(),
                out.len(),
                vertices.as_ptr().cast::<c_void>(),
                count,
                stride,
                0,
                0,
            )
        };
        if written == 0 {
            return Err(WriteError::invalid(
                "VerticesPrototype.data",
                u64_of(vertices.len()),
                "meshoptimizer could not encode these vertices",
            ));
        }
        out.truncate(written);
        Ok(out)
    }

    /// Encodes `indices` (whole triangles) with the v0 index codec.
    pub fn indices(indices: &[u32], vertex_count: usize) -> WriteResult<Vec<u8>> {
        if !indices.len().is_multiple_of(3) {
            return Err(WriteError::invalid(
                "IndicesPrototype.data",
                u64_of(indices.len()),
                "index count must be a multiple of 3",
            ));
        }
        // SAFETY: pure computation on two integers.
        let bound =
            unsafe { meshopt::ffi::meshopt_encodeIndexBufferBound(indices.len(), vertex_count) };
        let mut out = vec![0u8; bound];
        let _guard = INDEX_ENCODER
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        // SAFETY: the version global is only changed under the lock held here; `out` has the bound
        // meshoptimizer asks for; the index count is a multiple of 3 as its assert requires.
        let written = unsafe {
            meshopt::ffi::meshopt_encodeIndexVersion(0);
            meshopt::ffi::meshopt_encodeIndexBuffer(
                out.as_mut_ptr(),
                out.len(),
                indices.as_ptr(),
                indices.len(),
            )
        };
        if written == 0 {
            return Err(WriteError::invalid(
                "IndicesPrototype.data",
                u64_of(indices.len()),
                "meshoptimizer could not encode these indices",
            ));
        }
        out.truncate(written);
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rejects_aborting_parameters_before_calling() {
        let payload = [0xa0u8; 64];
        let e = Encd {
            element_count: 1,
            payload: &payload,
            payload_offset: 8,
        };
        for stride in [0, 3, 6, 260, 1000] {
            let mut out = vec![0u8; stride];
            assert!(
                e.decode_vertices(&mut out, stride, "t").is_err(),
                "stride {stride}"
            );
        }
        let e = Encd {
            element_count: 4,
            payload: &payload,
            payload_offset: 8,
        };
        let mut out = [0u16; 4];
        assert!(e.decode_indices(&mut out, "t").is_err());
    }

    #[test]
    fn rejects_wrong_buffer_lengths_and_impossible_counts() {
        let payload = [0xa0u8; 40];
        let e = Encd {
            element_count: 10,
            payload: &payload,
            payload_offset: 8,
        };
        let mut short = vec![0u8; 10 * 12 - 1];
        assert!(matches!(
            e.decode_vertices(&mut short, 12, "t").unwrap_err().kind(),
            ErrorKind::BufferSize { .. }
        ));
        let huge = Encd {
            element_count: u32::MAX,
            payload: &payload,
            payload_offset: 8,
        };
        assert!(huge.vertex_output_len(256, "t").is_err());
        assert!(huge.check_index_count("t").is_err());
    }

    #[cfg(feature = "write")]
    #[test]
    fn an_encoder_refusal_names_the_field_and_claims_no_offset() {
        let stride = encode::vertices(&[0; 12], 6).unwrap_err().to_string();
        assert!(
            stride.contains("VerticesPrototype.strideInBytes"),
            "{stride}"
        );
        assert!(
            !stride.contains("0x0000"),
            "a write has no file offset: {stride}"
        );
        let ragged = encode::vertices(&[0; 10], 4).unwrap_err().to_string();
        assert!(ragged.contains("whole number of strides"), "{ragged}");
        let indices = encode::indices(&[0, 1], 2).unwrap_err().to_string();
        assert!(indices.contains("multiple of 3"), "{indices}");
        assert!(!indices.contains("0x0000"), "{indices}");
    }

    #[cfg(feature = "write")]
    #[test]
    fn round_trips_through_the_v0_codecs() {
        let stride = 12;
        let vertices: Vec<u8> = (0..stride * 100).map(|i| (i * 7 % 251) as u8).collect();
        let encoded = encode::vertices(&vertices, stride).unwrap();
        assert_eq!(encoded[0], 0xa0, "vertex codec v0");
        let e = Encd {
            element_count: 100,
            payload: &encoded,
            payload_offset: 0,
        };
        let mut out = vec![0u8; vertices.len()];
        e.decode_vertices(&mut out, stride, "t").unwrap();
        assert_eq!(out, vertices);

        let indices: Vec<u32> = (0..99).map(|i| (i * 13) % 100).collect();
        let encoded = encode::indices(&indices, 100).unwrap();
        assert_eq!(encoded[0], 0xe0, "index codec v0");
        let e = Encd {
            element_count: 99,
            payload: &encoded,
            payload_offset: 0,
        };
        let mut out = vec![0u32; 99];
        e.decode_indices(&mut out, "t").unwrap();
        // The index codec may rotate a triangle's corners (keeping its winding).
        let canonical = |t: &[u32]| {
            let k = (0..3).min_by_key(|&k| t[k]).unwrap_or(0);
            [t[k], t[(k + 1) % 3], t[(k + 2) % 3]]
        };
        let got: Vec<_> = out.chunks(3).map(canonical).collect();
        let want: Vec<_> = indices.chunks(3).map(canonical).collect();
        assert_eq!(got, want);
    }
}

//! [`VertexBuffer`]: one merged vertex buffer (VerticesPrototype) and its blob.

use super::attributes::Vertices;
use super::blob::{Blob, copy_into_vec, merged_buffer_blob};
use super::encd::Encd;
use super::packed_string;
use super::raw::{VERTICES_FORMAT_NAME, VERTICES_STRIDE, VerticesPrototype};
use super::vertex_format::VertexFormat;
use crate::bytes::{Bytes, Located, u64_of};
use crate::error::{Error, Result};

/// Why raw vertex data are refused: [`whole_strides`] found no whole number of strides.
pub(crate) const NOT_WHOLE_STRIDES: &str = "raw vertex data is not a whole number of strides";

/// How many vertices `len` bytes of raw vertex data of `stride` hold; `None` when they are not a
/// whole number of strides (or the stride is 0). The reader's rule, which the writer applies too.
#[inline]
pub(crate) fn whole_strides(len: usize, stride: usize) -> Option<usize> {
    // Strides are small and blobs below 4 GiB: a 32-bit division, several times cheaper than
    // a 64-bit one, is most of what checking a small blob costs.
    match (u32::try_from(len), u32::try_from(stride)) {
        (Ok(len), Ok(stride)) => len
            .checked_div(stride)
            .filter(|_| len.is_multiple_of(stride))
            .map(|count| count as usize),
        _ => len
            .checked_div(stride)
            .filter(|_| len.is_multiple_of(stride)),
    }
}

/// A merged vertex buffer: format, stride, flags, and its blob (raw or ENCD), borrowed from the file.
#[derive(Debug, Clone, Copy)]
pub struct VertexBuffer<'a> {
    pub(crate) bytes: Bytes<'a>,
    /// The record and its absolute file offset.
    pub(crate) raw: Located<'a, VerticesPrototype>,
}

impl<'a> VertexBuffer<'a> {
    /// Absolute file offset of the VerticesPrototype record.
    pub fn offset(&self) -> usize {
        self.raw.offset()
    }

    /// The stored record.
    pub fn raw(&self) -> &'a VerticesPrototype {
        self.raw.get()
    }

    /// The format name (e.g. `"set3/xyznuvtbpc"`), borrowed, without the terminator.
    pub fn format_name(&self) -> Result<&'a str> {
        packed_string::utf8(
            self.bytes,
            self.raw.field_offset(VERTICES_FORMAT_NAME),
            "VerticesPrototype.formatName",
        )
    }

    /// The format name's bytes as stored (without the terminator), whatever their encoding.
    pub fn format_name_bytes(&self) -> Result<&'a [u8]> {
        packed_string::text(
            self.bytes,
            self.raw.field_offset(VERTICES_FORMAT_NAME),
            "VerticesPrototype.formatName",
        )
    }

    /// The attribute layout the format name describes, restricted to the stride.
    pub fn format(&self) -> Result<VertexFormat> {
        Ok(VertexFormat::parse(self.format_name_bytes()?).fitted_to(self.stride()))
    }

    /// Bytes per vertex, as stored (authoritative over the format name).
    pub fn stride(&self) -> usize {
        usize::from(self.raw.stride_in_bytes.get())
    }

    /// Absolute file offset of the record's `strideInBytes`.
    pub fn stride_offset(&self) -> usize {
        self.raw.field_offset(VERTICES_STRIDE)
    }

    /// The `isSkinned` flag.
    pub fn is_skinned(&self) -> bool {
        self.raw.is_skinned != 0
    }

    /// The `isBumped` flag.
    pub fn is_bumped(&self) -> bool {
        self.raw.is_bumped != 0
    }

    merged_buffer_blob!("VerticesPrototype", vertices_data_ptr, "vertices");

    /// Number of vertices: the ENCD element count, or the raw size over the stride.
    pub fn vertex_count(&self) -> Result<usize> {
        match self.encoded()? {
            Some(encd) => Ok(encd.element_count as usize),
            None => Ok(self.raw_vertices()?.len()),
        }
    }

    /// Bytes the decoded vertices take (`vertex_count × stride`): the length a buffer for
    /// [`decode_vertices_into`](Self::decode_vertices_into) needs. For an encoded blob this is checked
    /// against what its payload can decode to (at most 1024 × the payload), so a corrupt count never
    /// asks a caller for an absurd buffer.
    pub fn decoded_len(&self) -> Result<usize> {
        match self.encoded()? {
            Some(encd) => {
                encd.vertex_output_len(self.stride(), "VerticesPrototype.verticesData(ENCD)")
            }
            None => Ok(self.raw_vertices()?.bytes().len()),
        }
    }

    /// How many vertices raw `data` holds, or an error when it is not a whole number of strides.
    fn whole_strides(&self, data: &[u8]) -> Result<usize> {
        whole_strides(data.len(), self.stride()).ok_or_else(|| {
            Error::invalid(
                u64_of(self.raw.offset()),
                "VerticesPrototype.sizeInBytes",
                u64::from(self.size_in_bytes()),
                NOT_WHOLE_STRIDES,
            )
        })
    }

    /// The vertices of a raw (non-ENCD) blob, read in place. An encoded blob is an error: decode it
    /// with [`decode_vertices_into`](Self::decode_vertices_into).
    pub fn raw_vertices(&self) -> Result<Vertices<'a>> {
        let data = self.blob().raw_data()?;
        let stride = self.stride();
        self.whole_strides(data)?;
        let format = self.format()?;
        Vertices::new(data, stride, format).ok_or_else(|| {
            Error::invalid(
                u64_of(self.raw.offset()),
                "VerticesPrototype.strideInBytes",
                u64_of(stride),
                "bad stride",
            )
        })
    }

    /// Decodes (ENCD) or copies (raw) the vertices into `out`, the only copy the reader makes. `out`
    /// must hold at least [`decoded_len`](Self::decoded_len) bytes; the vertices are written to its
    /// start. Returns the number of vertices. Every meshoptimizer precondition is checked first: a
    /// bad file is an `Err`, never an abort.
    pub fn decode_vertices_into(&self, out: &mut [u8]) -> Result<usize> {
        let needed = self.decoded_len()?;
        let out = self.decode_target(out, needed)?;
        match self.encoded()? {
            Some(encd) => {
                encd.decode_vertices(out, self.stride(), "VerticesPrototype.verticesData(ENCD)")?;
                Ok(encd.element_count as usize)
            }
            None => {
                let raw = self.raw_vertices()?;
                out.copy_from_slice(raw.bytes());
                Ok(raw.len())
            }
        }
    }

    /// Decodes (ENCD) or copies (raw) the vertices into `out`, replacing its contents and reusing
    /// its capacity; returns the number of vertices. A raw blob is copied in with one copy and
    /// nothing is zeroed first, so decoding into a fresh or reused `Vec` costs what copying the
    /// stored bytes costs; an ENCD blob is decoded over the old contents (only growth is zeroed).
    #[inline]
    pub fn decode_vertices_into_vec(&self, out: &mut Vec<u8>) -> Result<usize> {
        let (data, at) = self.blob().located()?;
        if Encd::parse(data, at).is_none() {
            // A plain copy needs only whole strides, not the format's attribute layout.
            let count = self.whole_strides(data)?;
            copy_into_vec(out, data);
            return Ok(count);
        }
        self.decode_encoded_into_vec(out)
    }

    /// The ENCD half of [`decode_vertices_into_vec`](Self::decode_vertices_into_vec), kept out of
    /// line so that the raw copy inlines into its caller as a plain `to_vec` would.
    #[inline(never)]
    fn decode_encoded_into_vec(&self, out: &mut Vec<u8>) -> Result<usize> {
        // The decoder writes every byte: only growth is zeroed, so a reused buffer is not.
        let len = self.decoded_len()?;
        out.truncate(len);
        out.resize(len, 0);
        self.decode_vertices_into(out)
    }

    /// [`decode_vertices_into`](Self::decode_vertices_into) for a caller's typed vertex records:
    /// `T` must be exactly one stride long (`#[repr(C)]` plain data, e.g. `[u8; 28]` or a struct
    /// of the format's fields). Returns the number of vertices written to the start of `out`.
    pub fn decode_vertices_into_typed<T: bytemuck::Pod>(&self, out: &mut [T]) -> Result<usize> {
        if core::mem::size_of::<T>() != self.stride() {
            return Err(Error::invalid(
                u64_of(self.raw.offset()),
                "VerticesPrototype.strideInBytes",
                u64_of(self.stride()),
                "the caller's vertex type is not one stride long",
            ));
        }
        let bytes = bytemuck::try_cast_slice_mut(out).map_err(|_| {
            Error::invalid(
                u64_of(self.raw.offset()),
                "VerticesPrototype.strideInBytes",
                u64_of(self.stride()),
                "the caller's vertex type cannot be viewed as bytes",
            )
        })?;
        self.decode_vertices_into(bytes)
    }
}

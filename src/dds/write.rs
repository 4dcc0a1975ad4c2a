//! Writes a DDS texture from its owned [`DdsModel`]: the header, the DX10 header when the model has
//! one, every level and the trailing bytes, byte for byte as a file read into the model held them.
//! A model whose levels are not the ones its header describes is refused, with the field.

use zerocopy::IntoBytes;
use zerocopy::little_endian::U32;

use super::DdsView;
use super::model::DdsModel;
use super::raw::{MAGIC, RawDx10Header, RawHeader, RawPixelFormat};
use crate::write_error::{WriteError, WriteErrorKind, WriteResult};

impl DdsModel {
    /// The stored header, as the file holds it.
    fn raw_header(&self) -> RawHeader {
        let h = &self.header;
        let pf = &h.pixel_format;
        RawHeader {
            size: h.size.into(),
            flags: h.flags.into(),
            height: h.height.into(),
            width: h.width.into(),
            pitch_or_linear_size: h.pitch_or_linear_size.into(),
            depth: h.depth.into(),
            mip_map_count: h.mip_map_count.into(),
            reserved1: h.reserved1.map(U32::new),
            pixel_format: RawPixelFormat {
                size: pf.size.into(),
                flags: pf.flags.into(),
                four_cc: pf.four_cc.into(),
                rgb_bit_count: pf.rgb_bit_count.into(),
                r_bit_mask: pf.r_bit_mask.into(),
                g_bit_mask: pf.g_bit_mask.into(),
                b_bit_mask: pf.b_bit_mask.into(),
                a_bit_mask: pf.a_bit_mask.into(),
            },
            caps: h.caps.into(),
            caps2: h.caps2.into(),
            caps3: h.caps3.into(),
            caps4: h.caps4.into(),
            reserved2: h.reserved2.into(),
        }
    }

    /// Writes the texture: the header, the DX10 header when the model has one, every level and
    /// the trailing bytes. The result is read back: a header the reader refuses, or levels that
    /// are not the ones the header describes (their number, order, sizes or byte counts), is an
    /// error naming the field, so that what is written always reads.
    pub fn to_bytes(&self) -> WriteResult<Vec<u8>> {
        let mut out = Vec::new();
        out.extend_from_slice(&MAGIC.to_le_bytes());
        out.extend_from_slice(self.raw_header().as_bytes());
        let pf = &self.header.pixel_format;
        let says_dx10 =
            pf.flags & super::raw::DDPF_FOURCC != 0 && pf.four_cc == super::format::FOURCC_DX10;
        match (&self.dx10, says_dx10) {
            (Some(d), true) => out.extend_from_slice(
                RawDx10Header {
                    dxgi_format: d.dxgi_format.into(),
                    resource_dimension: d.resource_dimension.into(),
                    misc_flag: d.misc_flag.into(),
                    array_size: d.array_size.into(),
                    misc_flags2: d.misc_flags2.into(),
                }
                .as_bytes(),
            ),
            (None, false) => {}
            (Some(_), false) => {
                return Err(WriteError::rule(
                    "a DX10 header is written only after the FourCC \"DX10\" (with the FourCC flag 0x4)",
                )
                .in_field("dx10"));
            }
            (None, true) => {
                return Err(WriteError::rule(
                    "the FourCC \"DX10\" needs the DX10 header that follows it",
                )
                .in_field("dx10"));
            }
        }
        self.check_levels(&out)?;
        for level in &self.levels {
            out.extend_from_slice(&level.data);
        }
        out.extend_from_slice(&self.trailing);
        Ok(out)
    }

    /// Reads the written header back and compares the model's levels with the ones it describes.
    fn check_levels(&self, header: &[u8]) -> WriteResult<()> {
        let view = DdsView::header_only(header).map_err(|e| {
            let field = if e.what().starts_with("DDS_HEADER_DXT10") {
                "dx10"
            } else {
                "header"
            };
            WriteError::new(WriteErrorKind::ReadBack {
                what: "texture",
                error: e,
            })
            .in_field(field)
        })?;
        // The header's description is bounded by what a file can hold: a header that describes
        // more levels than the model has stops at the first one missing.
        let mut described = view.described_levels();
        for (i, level) in self.levels.iter().enumerate() {
            let Some([slice, mip, width, height, depth, bytes]) = described.next() else {
                return Err(WriteError::message(format!(
                    "the header describes {i} levels; this one is extra"
                ))
                .at_index(i)
                .in_field("levels"));
            };
            let held = [
                level.slice,
                level.mip,
                level.width,
                level.height,
                level.depth,
            ];
            let names = ["slice", "mip", "width", "height", "depth"];
            for ((name, held), described) in names
                .iter()
                .zip(held)
                .zip([slice, mip, width, height, depth])
            {
                if u64::from(held) != described {
                    return Err(WriteError::new(WriteErrorKind::Mismatch {
                        found: u64::from(held),
                        expected: described,
                        unit: "",
                        relation: "where the header describes",
                        of: "",
                    })
                    .in_field(name)
                    .at_index(i)
                    .in_field("levels"));
                }
            }
            if level.data.len() as u64 != bytes {
                return Err(WriteError::new(WriteErrorKind::Mismatch {
                    found: level.data.len() as u64,
                    expected: bytes,
                    unit: " bytes",
                    relation: "where the header's format and size need",
                    of: "",
                })
                .in_field("data")
                .at_index(i)
                .in_field("levels"));
            }
        }
        if let Some([slice, mip, ..]) = described.next() {
            return Err(WriteError::message(format!(
                "slice {slice} mip {mip} is missing: the model has {} levels",
                self.levels.len()
            ))
            .in_field("levels"));
        }
        Ok(())
    }
}

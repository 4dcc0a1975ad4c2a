//! The owned model of a DDS texture: every header field as stored, the DX10 header, each level's
//! bytes (with its slice, mip and size, derived, for people and for `diff`) and the bytes after the
//! last level. What `gamebin dump --json` prints of a texture; [`DdsModel::to_bytes`] writes it
//! back byte for byte, and refuses a model whose levels are not the ones its header describes.

use zerocopy::IntoBytes;
use zerocopy::little_endian::U32;

use super::DdsView;
use super::raw::{MAGIC, RawDx10Header, RawHeader, RawPixelFormat};
use crate::write_error::{WriteError, WriteErrorKind, WriteResult};

/// A DDS texture, owned.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(deny_unknown_fields))]
pub struct DdsModel {
    /// `DDS_HEADER`.
    pub header: HeaderModel,
    /// `DDS_HEADER_DXT10`, when the FourCC is `DX10`.
    pub dx10: Option<Dx10Model>,
    /// Every level in file order: slice by slice, each slice's mips from the largest.
    pub levels: Vec<LevelModel>,
    /// Bytes after the last level.
    #[cfg_attr(feature = "serde", serde(with = "crate::serde_hex"))]
    pub trailing: Vec<u8>,
}

/// `DDS_HEADER`, field by field.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(deny_unknown_fields))]
#[allow(missing_docs)]
pub struct HeaderModel {
    pub size: u32,
    pub flags: u32,
    pub height: u32,
    pub width: u32,
    pub pitch_or_linear_size: u32,
    pub depth: u32,
    pub mip_map_count: u32,
    pub reserved1: [u32; 11],
    pub pixel_format: PixelFormatModel,
    pub caps: u32,
    pub caps2: u32,
    pub caps3: u32,
    pub caps4: u32,
    pub reserved2: u32,
}

/// `DDS_PIXELFORMAT`, field by field.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(deny_unknown_fields))]
#[allow(missing_docs)]
pub struct PixelFormatModel {
    pub size: u32,
    pub flags: u32,
    pub four_cc: u32,
    pub rgb_bit_count: u32,
    pub r_bit_mask: u32,
    pub g_bit_mask: u32,
    pub b_bit_mask: u32,
    pub a_bit_mask: u32,
}

/// `DDS_HEADER_DXT10`, field by field.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(deny_unknown_fields))]
#[allow(missing_docs)]
pub struct Dx10Model {
    pub dxgi_format: u32,
    pub resource_dimension: u32,
    pub misc_flag: u32,
    pub array_size: u32,
    pub misc_flags2: u32,
}

/// One level: where it is in the texture (derived from the header) and its bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(deny_unknown_fields))]
pub struct LevelModel {
    /// The array slice (cube faces counted).
    pub slice: u32,
    /// The mip level.
    pub mip: u32,
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// Depth slices.
    pub depth: u32,
    /// The stored bytes.
    #[cfg_attr(feature = "serde", serde(with = "crate::serde_hex"))]
    pub data: Vec<u8>,
}

fn u32s<const N: usize>(stored: &[U32; N]) -> [u32; N] {
    stored.map(U32::get)
}

impl DdsModel {
    /// The model of a texture read in place.
    pub fn from_view(view: &DdsView<'_>) -> DdsModel {
        let h = view.header();
        let pf = &h.pixel_format;
        DdsModel {
            header: HeaderModel {
                size: h.size.get(),
                flags: h.flags.get(),
                height: h.height.get(),
                width: h.width.get(),
                pitch_or_linear_size: h.pitch_or_linear_size.get(),
                depth: h.depth.get(),
                mip_map_count: h.mip_map_count.get(),
                reserved1: u32s(&h.reserved1),
                pixel_format: PixelFormatModel {
                    size: pf.size.get(),
                    flags: pf.flags.get(),
                    four_cc: pf.four_cc.get(),
                    rgb_bit_count: pf.rgb_bit_count.get(),
                    r_bit_mask: pf.r_bit_mask.get(),
                    g_bit_mask: pf.g_bit_mask.get(),
                    b_bit_mask: pf.b_bit_mask.get(),
                    a_bit_mask: pf.a_bit_mask.get(),
                },
                caps: h.caps.get(),
                caps2: h.caps2.get(),
                caps3: h.caps3.get(),
                caps4: h.caps4.get(),
                reserved2: h.reserved2.get(),
            },
            dx10: view.dx10().map(|d| Dx10Model {
                dxgi_format: d.dxgi_format.get(),
                resource_dimension: d.resource_dimension.get(),
                misc_flag: d.misc_flag.get(),
                array_size: d.array_size.get(),
                misc_flags2: d.misc_flags2.get(),
            }),
            levels: view
                .levels()
                .map(|l| LevelModel {
                    slice: l.slice,
                    mip: l.mip,
                    width: l.width,
                    height: l.height,
                    depth: l.depth,
                    data: l.data.to_vec(),
                })
                .collect(),
            trailing: view
                .bytes()
                .get(view.data_end()..)
                .unwrap_or_default()
                .to_vec(),
        }
    }

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

/// Compares two textures: every header field, then each level by slice and mip (its size, and
/// whether its bytes changed).
#[cfg(feature = "serde")]
pub(crate) fn diff(a: &DdsModel, b: &DdsModel) -> crate::diff::Report {
    use crate::diff::value::{compare, compare_keyed, to_value};
    use serde_json::Value;
    let mut changes = Vec::new();
    compare(
        "header",
        &to_value(&a.header),
        &to_value(&b.header),
        &mut changes,
    );
    compare("dx10", &to_value(&a.dx10), &to_value(&b.dx10), &mut changes);
    let levels = |m: &DdsModel| -> Vec<(String, Value)> {
        m.levels
            .iter()
            .map(|l| {
                (
                    format!("slice {} mip {}", l.slice, l.mip),
                    serde_json::json!({
                        "width": l.width,
                        "height": l.height,
                        "depth": l.depth,
                        "bytes": l.data.len(),
                        "digest": fingerprint(&l.data),
                    }),
                )
            })
            .collect()
    };
    compare_keyed("levels", levels(a), levels(b), &mut changes);
    compare(
        "trailing",
        &Value::from(crate::bytes::hex(&a.trailing)),
        &Value::from(crate::bytes::hex(&b.trailing)),
        &mut changes,
    );
    crate::diff::Report::new(crate::Format::Dds.name(), changes)
}

/// A level's fingerprint for `diff`: both files are compared in one process, so std's hasher
/// tells changed bytes apart without a checksum dependency.
#[cfg(feature = "serde")]
fn fingerprint(data: &[u8]) -> String {
    use std::hash::{Hash, Hasher};
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    data.hash(&mut hasher);
    format!("{:016x}", hasher.finish())
}

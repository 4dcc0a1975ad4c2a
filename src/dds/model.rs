//! The owned model of a DDS texture: every header field as stored, the DX10 header, each level's
//! bytes (with its slice, mip and size, derived, for people and for `diff`) and the bytes after the
//! last level. What `gamebin dump --json` prints of a texture; [`DdsModel::to_bytes`] (in
//! `dds::write`) writes it back byte for byte.

use zerocopy::little_endian::U32;

use super::DdsView;

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
}

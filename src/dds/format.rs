//! What a DDS texture's pixels are: a block-compressed format (BC1–BC7) or an uncompressed layout
//! described by bit masks, from the legacy pixel format (FourCC or masks) or the DX10 header's
//! DXGI format.

use core::fmt;

use super::raw::{
    DDPF_ALPHA, DDPF_ALPHAPIXELS, DDPF_BUMPDUDV, DDPF_FOURCC, DDPF_LUMINANCE, DDPF_YUV,
    RawPixelFormat,
};

/// The layout of a texture's pixels.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TextureFormat {
    /// BC1 (`DXT1`): 8 bytes per 4×4 block, RGB with 1-bit alpha.
    Bc1,
    /// BC2 (`DXT2`, `DXT3`): 16 bytes per block, RGB with explicit 4-bit alpha.
    Bc2,
    /// BC3 (`DXT4`, `DXT5`): 16 bytes per block, RGB with interpolated alpha.
    Bc3,
    /// BC4 (`ATI1`, `BC4U`, `BC4S`): 8 bytes per block, one channel.
    Bc4 {
        /// Signed normalised values (`BC4S`, DXGI `BC4_SNORM`).
        signed: bool,
    },
    /// BC5 (`ATI2`, `BC5U`, `BC5S`): 16 bytes per block, two channels.
    Bc5 {
        /// Signed normalised values (`BC5S`, DXGI `BC5_SNORM`).
        signed: bool,
    },
    /// BC6H: 16 bytes per block, RGB half floats (high dynamic range).
    Bc6h {
        /// Signed floats (DXGI `BC6H_SF16`).
        signed: bool,
    },
    /// BC7: 16 bytes per block, RGBA.
    Bc7,
    /// Uncompressed pixels, each `bits` wide, with their channels at the masks' bits.
    Uncompressed(PixelMasks),
}

/// An uncompressed pixel layout: a little-endian pixel of `bits` bits and where each channel lies in
/// it. A zero mask is a channel the texture does not store.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PixelMasks {
    /// Bits per pixel: 8, 16, 24 or 32.
    pub bits: u32,
    /// The red channel (the luminance of a luminance layout).
    pub red: u32,
    /// The green channel.
    pub green: u32,
    /// The blue channel.
    pub blue: u32,
    /// The alpha channel.
    pub alpha: u32,
    /// One grey channel in `red`, shown in red, green and blue alike.
    pub luminance: bool,
}

impl PixelMasks {
    const fn rgba(bits: u32, red: u32, green: u32, blue: u32, alpha: u32) -> PixelMasks {
        PixelMasks {
            bits,
            red,
            green,
            blue,
            alpha,
            luminance: false,
        }
    }

    const fn grey(bits: u32, grey: u32, alpha: u32) -> PixelMasks {
        PixelMasks {
            bits,
            red: grey,
            green: 0,
            blue: 0,
            alpha,
            luminance: true,
        }
    }

    /// Bytes per pixel.
    pub const fn bytes(&self) -> u32 {
        self.bits / 8
    }
}

/// Why a pixel format is not one gamebin decodes; `Display` says which value and why.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UnknownFormat {
    /// A FourCC that names no format gamebin knows (a legacy `D3DFORMAT` number, `UYVY`, ...).
    FourCc(u32),
    /// A DXGI format of the DX10 header that is not BCn or a common 8-bit-per-channel layout.
    Dxgi(u32),
    /// An uncompressed layout whose bit count is not 8, 16, 24 or 32, or whose masks reach past it.
    Masks(u32),
    /// A YUV or signed bump-map layout (flags as stored).
    Flags(u32),
}

impl fmt::Display for UnknownFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            UnknownFormat::FourCc(code) => {
                write!(
                    f,
                    "FourCC {} is not a format gamebin decodes",
                    four_cc_text(code)
                )
            }
            UnknownFormat::Dxgi(code) => {
                write!(f, "DXGI format {code} is not a format gamebin decodes")
            }
            UnknownFormat::Masks(bits) => write!(
                f,
                "an uncompressed layout of {bits} bits per pixel (8, 16, 24 or 32, masks within them)"
            ),
            UnknownFormat::Flags(flags) => write!(
                f,
                "pixel format flags {flags:#x} (YUV or bump-map data) are not decoded"
            ),
        }
    }
}

/// A FourCC as text when it is four printable characters (`"DXT1"`), else its number.
pub fn four_cc_text(code: u32) -> String {
    let bytes = code.to_le_bytes();
    if bytes.iter().all(|b| b.is_ascii_graphic() || *b == b' ') {
        format!("{:?}", String::from_utf8_lossy(&bytes))
    } else {
        code.to_string()
    }
}

const fn four_cc(code: &[u8; 4]) -> u32 {
    u32::from_le_bytes(*code)
}

/// The FourCC of a texture that continues with a DX10 header.
pub const FOURCC_DX10: u32 = four_cc(b"DX10");

impl TextureFormat {
    /// The format a legacy pixel format describes (its FourCC must not be `DX10`).
    pub fn from_pixel_format(pf: &RawPixelFormat) -> Result<TextureFormat, UnknownFormat> {
        let flags = pf.flags.get();
        if flags & DDPF_FOURCC != 0 {
            let code = pf.four_cc.get();
            return match &code.to_le_bytes() {
                b"DXT1" => Ok(TextureFormat::Bc1),
                b"DXT2" | b"DXT3" => Ok(TextureFormat::Bc2),
                b"DXT4" | b"DXT5" => Ok(TextureFormat::Bc3),
                b"ATI1" | b"BC4U" => Ok(TextureFormat::Bc4 { signed: false }),
                b"BC4S" => Ok(TextureFormat::Bc4 { signed: true }),
                b"ATI2" | b"BC5U" => Ok(TextureFormat::Bc5 { signed: false }),
                b"BC5S" => Ok(TextureFormat::Bc5 { signed: true }),
                _ => Err(UnknownFormat::FourCc(code)),
            };
        }
        if flags & (DDPF_BUMPDUDV | DDPF_YUV) != 0 {
            return Err(UnknownFormat::Flags(flags));
        }
        let bits = pf.rgb_bit_count.get();
        let alpha = if flags & (DDPF_ALPHAPIXELS | DDPF_ALPHA) != 0 {
            pf.a_bit_mask.get()
        } else {
            0
        };
        let masks = if flags & DDPF_ALPHA != 0 && flags & DDPF_LUMINANCE == 0 {
            PixelMasks::rgba(bits, 0, 0, 0, alpha)
        } else if flags & DDPF_LUMINANCE != 0 {
            PixelMasks::grey(bits, pf.r_bit_mask.get(), alpha)
        } else {
            PixelMasks::rgba(
                bits,
                pf.r_bit_mask.get(),
                pf.g_bit_mask.get(),
                pf.b_bit_mask.get(),
                alpha,
            )
        };
        uncompressed(masks)
    }

    /// The format a DX10 header's DXGI format names (typeless and sRGB variants read as their
    /// UNORM form; [`is_srgb_dxgi`] tells the sRGB ones).
    pub fn from_dxgi(code: u32) -> Result<TextureFormat, UnknownFormat> {
        Ok(match code {
            70..=72 => TextureFormat::Bc1,
            73..=75 => TextureFormat::Bc2,
            76..=78 => TextureFormat::Bc3,
            79 | 80 => TextureFormat::Bc4 { signed: false },
            81 => TextureFormat::Bc4 { signed: true },
            82 | 83 => TextureFormat::Bc5 { signed: false },
            84 => TextureFormat::Bc5 { signed: true },
            94 | 95 => TextureFormat::Bc6h { signed: false },
            96 => TextureFormat::Bc6h { signed: true },
            97..=99 => TextureFormat::Bc7,
            // R10G10B10A2_UNORM
            24 => TextureFormat::Uncompressed(PixelMasks::rgba(
                32,
                0x3FF,
                0xF_FC00,
                0x3FF0_0000,
                0xC000_0000,
            )),
            // R8G8B8A8 (typeless, UNORM, UNORM_SRGB)
            27..=29 => TextureFormat::Uncompressed(PixelMasks::rgba(
                32,
                0xFF,
                0xFF00,
                0xFF_0000,
                0xFF00_0000,
            )),
            // R8G8 (typeless, UNORM)
            48 | 49 => TextureFormat::Uncompressed(PixelMasks::rgba(16, 0xFF, 0xFF00, 0, 0)),
            // R8 (typeless, UNORM): one grey channel
            60 | 61 => TextureFormat::Uncompressed(PixelMasks::grey(8, 0xFF, 0)),
            // A8_UNORM
            65 => TextureFormat::Uncompressed(PixelMasks::rgba(8, 0, 0, 0, 0xFF)),
            // B5G6R5_UNORM
            85 => TextureFormat::Uncompressed(PixelMasks::rgba(16, 0xF800, 0x07E0, 0x001F, 0)),
            // B5G5R5A1_UNORM
            86 => TextureFormat::Uncompressed(PixelMasks::rgba(16, 0x7C00, 0x03E0, 0x001F, 0x8000)),
            // B8G8R8A8 (UNORM, typeless, UNORM_SRGB)
            87 | 90 | 91 => TextureFormat::Uncompressed(PixelMasks::rgba(
                32,
                0xFF_0000,
                0xFF00,
                0xFF,
                0xFF00_0000,
            )),
            // B8G8R8X8 (UNORM, typeless, UNORM_SRGB)
            88 | 92 | 93 => {
                TextureFormat::Uncompressed(PixelMasks::rgba(32, 0xFF_0000, 0xFF00, 0xFF, 0))
            }
            // B4G4R4A4_UNORM
            115 => {
                TextureFormat::Uncompressed(PixelMasks::rgba(16, 0x0F00, 0x00F0, 0x000F, 0xF000))
            }
            _ => return Err(UnknownFormat::Dxgi(code)),
        })
    }

    /// Bytes per 4×4 block of a block-compressed format; `None` for an uncompressed one.
    pub const fn block_bytes(&self) -> Option<u64> {
        match self {
            TextureFormat::Bc1 | TextureFormat::Bc4 { .. } => Some(8),
            TextureFormat::Bc2
            | TextureFormat::Bc3
            | TextureFormat::Bc5 { .. }
            | TextureFormat::Bc6h { .. }
            | TextureFormat::Bc7 => Some(16),
            TextureFormat::Uncompressed(_) => None,
        }
    }

    /// Bytes of one `width` × `height` image of this format (one depth slice of a level); `None`
    /// when the size overflows `u64`.
    pub fn image_bytes(&self, width: u32, height: u32) -> Option<u64> {
        let (w, h) = (u64::from(width.max(1)), u64::from(height.max(1)));
        match self.block_bytes() {
            Some(block) => w.div_ceil(4).checked_mul(h.div_ceil(4))?.checked_mul(block),
            None => {
                let TextureFormat::Uncompressed(masks) = self else {
                    return None;
                };
                w.checked_mul(u64::from(masks.bytes()))?.checked_mul(h)
            }
        }
    }

    /// The short name `gamebin info` prints (`BC1`, `BC7`, `B8G8R8A8`, `L8`).
    pub fn name(&self) -> String {
        match self {
            TextureFormat::Bc1 => "BC1".into(),
            TextureFormat::Bc2 => "BC2".into(),
            TextureFormat::Bc3 => "BC3".into(),
            TextureFormat::Bc4 { signed: false } => "BC4".into(),
            TextureFormat::Bc4 { signed: true } => "BC4 signed".into(),
            TextureFormat::Bc5 { signed: false } => "BC5".into(),
            TextureFormat::Bc5 { signed: true } => "BC5 signed".into(),
            TextureFormat::Bc6h { signed: false } => "BC6H".into(),
            TextureFormat::Bc6h { signed: true } => "BC6H signed".into(),
            TextureFormat::Bc7 => "BC7".into(),
            TextureFormat::Uncompressed(masks) => masks.name(),
        }
    }
}

impl PixelMasks {
    /// The channels from the most significant bits down, with their widths (`B8G8R8A8` is
    /// `A8R8G8B8` in this order: a pixel `0xAARRGGBB`); `L8`, `L8A8` for luminance.
    fn name(&self) -> String {
        let mut channels: Vec<(u32, char, u32)> = Vec::new();
        let grey = if self.luminance { 'L' } else { 'R' };
        for (mask, letter) in [
            (self.red, grey),
            (self.green, 'G'),
            (self.blue, 'B'),
            (self.alpha, 'A'),
        ] {
            if mask != 0 {
                channels.push((mask.trailing_zeros(), letter, mask.count_ones()));
            }
        }
        if channels.is_empty() {
            return format!("X{}", self.bits);
        }
        channels.sort_by_key(|c| core::cmp::Reverse(c.0));
        let mut name: String = channels
            .iter()
            .map(|(_, letter, width)| format!("{letter}{width}"))
            .collect();
        let used: u32 = channels.iter().map(|c| c.2).sum();
        if used < self.bits {
            name.push_str(&format!(" ({} bits)", self.bits));
        }
        name
    }
}

/// Whether a DXGI format is one of the sRGB BCn or 8-bit layouts (colour values stored gamma
/// encoded).
pub const fn is_srgb_dxgi(code: u32) -> bool {
    matches!(code, 29 | 72 | 75 | 78 | 91 | 93 | 99)
}

/// Checks an uncompressed layout: 8, 16, 24 or 32 bits, every mask within them and of contiguous
/// bits (a channel is a run of bits), at least one channel.
fn uncompressed(masks: PixelMasks) -> Result<TextureFormat, UnknownFormat> {
    let fits = |mask: u32| {
        let run = u64::from(mask) >> mask.trailing_zeros().min(31);
        let contiguous = run & (run + 1) == 0;
        contiguous && (masks.bits == 32 || mask >> masks.bits == 0)
    };
    let any = masks.red | masks.green | masks.blue | masks.alpha != 0;
    if matches!(masks.bits, 8 | 16 | 24 | 32)
        && any
        && [masks.red, masks.green, masks.blue, masks.alpha]
            .into_iter()
            .all(fits)
    {
        Ok(TextureFormat::Uncompressed(masks))
    } else {
        Err(UnknownFormat::Masks(masks.bits))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_layout_is_named_from_its_most_significant_channel_down() {
        let bgra = TextureFormat::from_dxgi(87).unwrap();
        assert_eq!(bgra.name(), "A8R8G8B8");
        let rgba = TextureFormat::from_dxgi(28).unwrap();
        assert_eq!(rgba.name(), "A8B8G8R8");
        let bgrx = TextureFormat::from_dxgi(88).unwrap();
        assert_eq!(bgrx.name(), "R8G8B8 (32 bits)");
        assert_eq!(TextureFormat::from_dxgi(61).unwrap().name(), "L8");
    }

    #[test]
    fn masks_must_be_runs_of_bits_within_the_pixel() {
        let split = PixelMasks::rgba(16, 0x0F0F, 0, 0, 0);
        assert_eq!(uncompressed(split), Err(UnknownFormat::Masks(16)));
        let past = PixelMasks::rgba(16, 0xFF_0000, 0, 0, 0);
        assert_eq!(uncompressed(past), Err(UnknownFormat::Masks(16)));
        let odd_bits = PixelMasks::rgba(12, 0xFF, 0, 0, 0);
        assert_eq!(uncompressed(odd_bits), Err(UnknownFormat::Masks(12)));
        let none = PixelMasks::rgba(32, 0, 0, 0, 0);
        assert_eq!(uncompressed(none), Err(UnknownFormat::Masks(32)));
    }

    #[test]
    fn block_image_sizes_round_up_to_whole_blocks_and_never_overflow() {
        assert_eq!(TextureFormat::Bc1.image_bytes(1, 1), Some(8));
        assert_eq!(TextureFormat::Bc7.image_bytes(5, 4), Some(32));
        assert_eq!(TextureFormat::Bc3.image_bytes(u32::MAX, u32::MAX), None);
        let rgb = TextureFormat::from_dxgi(87).unwrap();
        assert_eq!(rgb.image_bytes(3, 2), Some(24));
        assert_eq!(four_cc_text(FOURCC_DX10), "\"DX10\"");
        assert_eq!(four_cc_text(113), "113");
    }
}

//! Decoding a level into RGBA8 pixels in a buffer the caller owns: block-compressed formats through
//! `bcdec_rs` (the fastest of the pure-Rust decoders measured, BENCHMARKS.md), uncompressed layouts
//! through their channel masks.
//!
//! What each format gives, so that every format lands in the same four channels:
//! - BC1, BC2, BC3, BC7: red, green, blue and alpha as stored.
//! - BC4: one channel, shown as grey (red = green = blue), alpha 255.
//! - BC5: two channels in red and green; blue 0, alpha 255 (a normal map's Z is not rebuilt).
//! - BC6H: half floats clamped to 0..1 and scaled to 0..255 (no tone mapping), alpha 255.
//! - Signed BC4/BC5: -1..1 mapped onto 0..255.
//! - Uncompressed: each channel's bits scaled to 8 bits (`v × 255 / max`, rounded); a channel
//!   without a mask is 0, alpha without a mask 255; luminance is shown as grey.

use super::format::{PixelMasks, TextureFormat};
use super::view::Level;
use crate::bytes::u64_of;
use crate::error::{Error, ErrorKind, Result};

/// A block decoder writing 4×4 RGBA8 pixels at a row pitch in bytes (bcdec's signature).
type DirectBlock = fn(&[u8], &mut [u8], usize);

impl Level<'_> {
    /// Bytes of this level decoded as RGBA8: width × height × depth × 4; `None` when that
    /// overflows `usize`.
    pub fn rgba8_len(&self) -> Option<usize> {
        (self.width as usize)
            .checked_mul(self.height as usize)?
            .checked_mul(self.depth as usize)?
            .checked_mul(4)
    }

    /// Decodes the level into `out`, RGBA8, rows top to bottom, depth slices one after another.
    /// `out` must be exactly [`rgba8_len`](Self::rgba8_len) bytes. Allocates nothing.
    pub fn decode_rgba8(&self, out: &mut [u8]) -> Result<()> {
        let needed = self.rgba8_len().ok_or(Error::invalid(
            u64_of(self.offset),
            "DDS level",
            u64::from(self.width),
            "the decoded level does not fit in memory",
        ))?;
        if out.len() != needed {
            return Err(Error::new(
                u64_of(self.offset),
                "RGBA8 output buffer",
                ErrorKind::BufferSize {
                    needed: u64_of(needed),
                    provided: u64_of(out.len()),
                },
            ));
        }
        if needed == 0 {
            return Ok(());
        }
        let (width, height) = (self.width as usize, self.height as usize);
        let image_out = width * height * 4;
        let image_in = self.data.len() / self.depth.max(1) as usize;
        for (input, output) in self
            .data
            .chunks_exact(image_in.max(1))
            .zip(out.chunks_exact_mut(image_out))
        {
            let image = Image {
                width,
                height,
                input,
                output,
            };
            match self.format {
                TextureFormat::Bc1 => {
                    image.blocks(8, Some(bcdec_rs::bc1), |b, t| bcdec_rs::bc1(b, t, 16))
                }
                TextureFormat::Bc2 => {
                    image.blocks(16, Some(bcdec_rs::bc2), |b, t| bcdec_rs::bc2(b, t, 16))
                }
                TextureFormat::Bc3 => {
                    image.blocks(16, Some(bcdec_rs::bc3), |b, t| bcdec_rs::bc3(b, t, 16))
                }
                TextureFormat::Bc7 => {
                    image.blocks(16, Some(bcdec_rs::bc7), |b, t| bcdec_rs::bc7(b, t, 16))
                }
                TextureFormat::Bc4 { signed: false } => image.blocks(8, None, bc4_grey),
                TextureFormat::Bc4 { signed: true } => image.blocks(8, None, bc4_signed_grey),
                TextureFormat::Bc5 { signed: false } => image.blocks(16, None, bc5_red_green),
                TextureFormat::Bc5 { signed: true } => image.blocks(16, None, bc5_signed_red_green),
                TextureFormat::Bc6h { signed } => {
                    image.blocks(16, None, |b, t| bc6h_clamped(b, t, signed))
                }
                TextureFormat::Uncompressed(masks) => image.pixels(masks),
            }
        }
        Ok(())
    }
}

/// One depth slice of a level: its stored bytes and its RGBA8 pixels.
struct Image<'i, 'o> {
    width: usize,
    height: usize,
    input: &'i [u8],
    output: &'o mut [u8],
}

impl Image<'_, '_> {
    /// Decodes 4×4 blocks of `block_bytes`: whole blocks straight into the output with `direct`
    /// when the format has one, the others (and blocks cut by the right or bottom edge) through a
    /// 4×4 tile.
    fn blocks(
        self,
        block_bytes: usize,
        direct: Option<DirectBlock>,
        tile: impl Fn(&[u8], &mut [u8; 64]),
    ) {
        let pitch = self.width * 4;
        let blocks_wide = self.width.div_ceil(4);
        let mut tile_pixels = [0u8; 64];
        for (i, block) in self.input.chunks_exact(block_bytes).enumerate() {
            let (x, y) = ((i % blocks_wide) * 4, (i / blocks_wide) * 4);
            if y >= self.height {
                break;
            }
            let start = y * pitch + x * 4;
            let whole = x + 4 <= self.width && y + 4 <= self.height;
            match direct {
                Some(decode) if whole => decode(block, &mut self.output[start..], pitch),
                _ => {
                    tile(block, &mut tile_pixels);
                    let columns = (self.width - x).min(4) * 4;
                    for row in 0..(self.height - y).min(4) {
                        let at = start + row * pitch;
                        self.output[at..at + columns]
                            .copy_from_slice(&tile_pixels[row * 16..row * 16 + columns]);
                    }
                }
            }
        }
    }

    /// Decodes uncompressed pixels through their masks (8-bit RGBA and BGRA copied or swapped
    /// without the general path).
    fn pixels(self, masks: PixelMasks) {
        let bytes = masks.bytes() as usize;
        let row_in = self.width * bytes;
        let channels = [
            Channel::new(masks.red, 0),
            Channel::new(
                if masks.luminance {
                    masks.red
                } else {
                    masks.green
                },
                0,
            ),
            Channel::new(
                if masks.luminance {
                    masks.red
                } else {
                    masks.blue
                },
                0,
            ),
            Channel::new(masks.alpha, 255),
        ];
        let rgba8 = [0xFF, 0xFF00, 0xFF_0000, 0xFF00_0000];
        let bgra8 = [0xFF_0000, 0xFF00, 0xFF, 0xFF00_0000];
        let stored = [masks.red, masks.green, masks.blue, masks.alpha];
        for (row, out) in self
            .input
            .chunks_exact(row_in)
            .zip(self.output.chunks_exact_mut(self.width * 4))
        {
            if bytes == 4 && !masks.luminance && stored == rgba8 {
                out.copy_from_slice(row);
                continue;
            }
            for (pixel, rgba) in row.chunks_exact(bytes).zip(out.chunks_exact_mut(4)) {
                if bytes == 4 && !masks.luminance && stored == bgra8 {
                    rgba.copy_from_slice(&[pixel[2], pixel[1], pixel[0], pixel[3]]);
                    continue;
                }
                let mut word = [0u8; 4];
                word[..bytes].copy_from_slice(pixel);
                let value = u32::from_le_bytes(word);
                for (out, channel) in rgba.iter_mut().zip(&channels) {
                    *out = channel.get(value);
                }
            }
        }
    }
}

/// One channel of an uncompressed pixel: its mask, where it starts, its largest value.
struct Channel {
    mask: u32,
    shift: u32,
    max: u64,
    absent: u8,
}

impl Channel {
    fn new(mask: u32, absent: u8) -> Channel {
        Channel {
            mask,
            shift: mask.trailing_zeros().min(31),
            max: u64::from(mask) >> mask.trailing_zeros().min(31),
            absent,
        }
    }

    fn get(&self, pixel: u32) -> u8 {
        if self.mask == 0 {
            return self.absent;
        }
        let v = u64::from((pixel & self.mask) >> self.shift);
        if self.max == 255 {
            v as u8
        } else {
            ((v * 255 + self.max / 2) / self.max) as u8
        }
    }
}

fn unit_to_u8(v: f32) -> u8 {
    (v.clamp(0.0, 1.0) * 255.0 + 0.5) as u8
}

fn signed_to_u8(v: f32) -> u8 {
    unit_to_u8((v.clamp(-1.0, 1.0) + 1.0) * 0.5)
}

fn bc4_grey(block: &[u8], tile: &mut [u8; 64]) {
    let mut red = [0u8; 16];
    bcdec_rs::bc4(block, &mut red, 4, false);
    for (pixel, r) in tile.chunks_exact_mut(4).zip(red) {
        pixel.copy_from_slice(&[r, r, r, 255]);
    }
}

fn bc4_signed_grey(block: &[u8], tile: &mut [u8; 64]) {
    let mut red = [0f32; 16];
    bcdec_rs::bc4_float(block, &mut red, 4, true);
    for (pixel, r) in tile.chunks_exact_mut(4).zip(red) {
        let r = signed_to_u8(r);
        pixel.copy_from_slice(&[r, r, r, 255]);
    }
}

fn bc5_red_green(block: &[u8], tile: &mut [u8; 64]) {
    let mut rg = [0u8; 32];
    bcdec_rs::bc5(block, &mut rg, 8, false);
    for (pixel, rg) in tile.chunks_exact_mut(4).zip(rg.chunks_exact(2)) {
        pixel.copy_from_slice(&[rg[0], rg[1], 0, 255]);
    }
}

fn bc5_signed_red_green(block: &[u8], tile: &mut [u8; 64]) {
    let mut rg = [0f32; 32];
    bcdec_rs::bc5_float(block, &mut rg, 8, true);
    for (pixel, rg) in tile.chunks_exact_mut(4).zip(rg.chunks_exact(2)) {
        pixel.copy_from_slice(&[signed_to_u8(rg[0]), signed_to_u8(rg[1]), 0, 255]);
    }
}

fn bc6h_clamped(block: &[u8], tile: &mut [u8; 64], signed: bool) {
    let mut rgb = [0f32; 48];
    bcdec_rs::bc6h_float(block, &mut rgb, 12, signed);
    for (pixel, rgb) in tile.chunks_exact_mut(4).zip(rgb.chunks_exact(3)) {
        pixel.copy_from_slice(&[
            unit_to_u8(rgb[0]),
            unit_to_u8(rgb[1]),
            unit_to_u8(rgb[2]),
            255,
        ]);
    }
}

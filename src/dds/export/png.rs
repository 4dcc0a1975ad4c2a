//! A decoded level written as PNG (feature `png`): RGBA8, at the fastest compression level, since
//! texture encoding dominates a textured export and a texture is re-encoded often.

use std::io::Write;

use crate::dds::Level;

/// Decodes `level` and writes it to `out` as an RGBA8 PNG (a volume level's depth slices stacked
/// top to bottom). `pixels` is the caller's buffer, resized as needed and reusable across levels.
pub fn write_level(
    level: &Level<'_>,
    pixels: &mut Vec<u8>,
    out: impl Write,
) -> std::io::Result<()> {
    let len = level
        .rgba8_len()
        .ok_or_else(|| std::io::Error::other("the decoded level does not fit in memory"))?;
    pixels.clear();
    pixels.resize(len, 0);
    level.decode_rgba8(pixels).map_err(std::io::Error::other)?;
    let height = level
        .height
        .checked_mul(level.depth)
        .ok_or_else(|| std::io::Error::other("the level is too large for PNG"))?;
    write_rgba8(level.width, height, pixels, out)
}

/// Writes `width` × `height` RGBA8 pixels as PNG, at the fastest compression level.
pub fn write_rgba8(width: u32, height: u32, rgba: &[u8], out: impl Write) -> std::io::Result<()> {
    let mut encoder = png::Encoder::new(out, width, height);
    encoder.set_color(png::ColorType::Rgba);
    encoder.set_depth(png::BitDepth::Eight);
    encoder.set_compression(png::Compression::Fast);
    let mut writer = encoder.write_header().map_err(std::io::Error::other)?;
    writer
        .write_image_data(rgba)
        .map_err(std::io::Error::other)?;
    writer.finish().map_err(std::io::Error::other)
}

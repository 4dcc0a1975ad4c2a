//! An independent BCn decoder for the tests to compare against: texture2ddecoder, which shares no
//! code with the bcdec_rs that gamebin decodes with.

use gamebin::dds::{Level, TextureFormat};

/// `level` decoded by texture2ddecoder, as RGBA8 (it writes BGRA words); `None` for a format it
/// is not asked about here (the uncompressed layouts are checked otherwise).
pub fn independent(level: &Level<'_>) -> Option<Vec<u8>> {
    let (w, h) = (level.width as usize, level.height as usize);
    let mut words = vec![0u32; w * h];
    let decode = match level.format {
        TextureFormat::Bc1 => texture2ddecoder::decode_bc1,
        TextureFormat::Bc3 => texture2ddecoder::decode_bc3,
        TextureFormat::Bc7 => texture2ddecoder::decode_bc7,
        _ => return None,
    };
    decode(level.data, w, h, &mut words).unwrap();
    Some(
        words
            .iter()
            .flat_map(|p| {
                let [b, g, r, a] = p.to_le_bytes();
                [r, g, b, a]
            })
            .collect(),
    )
}

//! Drives every DDS accessor: the header, every level of every slice decoded, the level lookups at
//! and past the edges, the mip choice, and the model written back.

use gamebin::dds::DdsView;

use super::MAX_DECODE_BYTES;

pub fn drive_dds(data: &[u8]) -> usize {
    let Ok(view) = DdsView::from_bytes(data) else {
        return 0;
    };
    let mut seen = 1;
    let _ = (
        view.format().name(),
        view.is_srgb(),
        view.dx10(),
        view.header(),
    );
    let _ = (
        view.mip_within(1),
        view.mip_within(u32::MAX),
        view.data_end(),
    );
    let mut pixels = Vec::new();
    for level in view.levels() {
        seen += 1;
        assert!(level.offset + level.data.len() <= data.len());
        let Some(len) = level.rgba8_len().filter(|&n| n <= MAX_DECODE_BYTES) else {
            continue;
        };
        pixels.clear();
        pixels.resize(len, 0);
        if let Err(e) = level.decode_rgba8(&mut pixels) {
            panic!("a level of a texture that opened does not decode: {e}");
        }
        // The wrong size is refused, never written past.
        assert!(level.decode_rgba8(&mut pixels[..len - 1]).is_err());
    }
    assert!(view.level(view.slice_count(), 0).is_none());
    assert!(view.level(0, view.mip_count()).is_none());
    let model = gamebin::dds::model::DdsModel::from_view(&view);
    match model.to_bytes() {
        Ok(bytes) => assert_eq!(bytes, data, "a texture that opened writes back differently"),
        Err(e) => panic!("a texture that opened does not write back: {e}"),
    }
    seen
}

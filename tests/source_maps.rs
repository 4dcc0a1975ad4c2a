//! The texture maps of the real mod models (`$GAMEBIN_SAMPLES/wows-mod`) as the GLB export writes
//! them: every texel of each converted PNG is what an independent decoder (texture2ddecoder) reads
//! from the `.dds` (within 1 of 255, the decoders' rounding), converted by the rules of `wows::textures::maps` as restated here: albedo and
//! occlusion as stored, roughness = 255 − gloss (R) with metalness (B) kept, the normal's X and Y
//! kept with Z rebuilt to unit length.

use std::path::PathBuf;

use gamebin::dds::DdsView;
use gamebin::wows::sources::gltf::{SourceGlbOptions, source_model_to_glb};
use gamebin::wows::sources::resolve;
use gamebin::wows::textures::TextureMode;

mod bcn;

fn res_root() -> PathBuf {
    let dir = std::env::var_os("GAMEBIN_SAMPLES").expect(
        "GAMEBIN_SAMPLES is not set: this test reads the real samples (run it with \
         GAMEBIN_SAMPLES=../shared/samples cargo test -- --include-ignored)",
    );
    PathBuf::from(dir).join("wows-mod")
}

/// The top level of a `.dds`, decoded by texture2ddecoder, as RGBA8 texels.
fn independent_top(path: &std::path::Path) -> (u32, u32, Vec<[u8; 4]>) {
    let bytes = std::fs::read(path).unwrap();
    let texture = DdsView::from_bytes(&bytes).unwrap();
    let level = texture.level(0, 0).unwrap();
    let rgba = bcn::independent(&level).unwrap_or_else(|| {
        panic!(
            "{}: {:?} is not in the samples",
            path.display(),
            level.format
        )
    });
    let texels = rgba
        .chunks_exact(4)
        .map(|c| [c[0], c[1], c[2], c[3]])
        .collect();
    (level.width, level.height, texels)
}

fn png_texels(png_bytes: &[u8]) -> (u32, u32, Vec<[u8; 4]>) {
    let mut reader = png::Decoder::new(std::io::Cursor::new(png_bytes))
        .read_info()
        .unwrap();
    let mut pixels = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut pixels).unwrap();
    assert_eq!(info.color_type, png::ColorType::Rgba);
    let texels = pixels[..info.buffer_size()]
        .chunks_exact(4)
        .map(|c| [c[0], c[1], c[2], c[3]])
        .collect();
    (info.width, info.height, texels)
}

/// A signed unit component from a byte, as glTF reads normal textures.
fn unit(b: u8) -> f32 {
    f32::from(b) / 127.5 - 1.0
}

#[test]
#[ignore = "needs GAMEBIN_SAMPLES (real files): GAMEBIN_SAMPLES=../shared/samples cargo test -- --include-ignored"]
fn every_map_of_the_sample_models_is_converted_texel_by_texel() {
    let root = res_root();
    let mut seen = std::collections::BTreeSet::new();
    for model in [
        "PnFMods/SEA_PI_Yuugumo_Kiyoshimo/JSD209_Yugumo/gun/JGA010_25mm_Type96.model",
        "PnFMods/SEA_KRE_Atlanta/ASC006_Atlanta_1942/finder/AF076_Rangefinder_2_5m.model",
    ] {
        let source = resolve(&root, &root.join(model)).unwrap();
        let options = SourceGlbOptions {
            lod: Some(0),
            textures: TextureMode::External,
            ..Default::default()
        };
        let glb = source_model_to_glb(&root, &source, &options).unwrap();
        assert!(glb.warnings.is_empty(), "{:?}", glb.warnings);
        assert_eq!(glb.images.len(), 4, "{model}: _a, _mg, _n, _ao");
        for image in &glb.images {
            let (stem, kind) = image.path.split_once('.').unwrap();
            let (w, h, stored) = independent_top(&root.join(format!("{stem}.dds")));
            let (pw, ph, written) = png_texels(&image.png);
            assert_eq!((pw, ph), (w, h), "{}", image.path);
            for (i, (s, out)) in stored.iter().zip(&written).enumerate() {
                let at = format!("{} texel {i}: stored {s:?}, written {out:?}", image.path);
                let expected = match kind {
                    "png" => *s,
                    "metallic-roughness.png" => [s[1], 255 - s[0], s[2], 255],
                    "normal.png" => {
                        let (x, y) = (unit(s[0]), unit(s[1]));
                        let n = [unit(out[0]), unit(out[1]), unit(out[2])];
                        let length = n.iter().map(|c| c * c).sum::<f32>().sqrt();
                        assert!((length - 1.0).abs() < 0.02, "{at}: length {length}");
                        assert!(n[2] >= -0.01, "{at}: faces away");
                        // Inside the unit circle X and Y are kept; outside, scaled onto it.
                        let keep = x * x + y * y <= 0.98;
                        [
                            if keep { s[0] } else { out[0] },
                            if keep { s[1] } else { out[1] },
                            out[2],
                            255,
                        ]
                    }
                    other => panic!("{other}"),
                };
                let close = expected.iter().zip(out).all(|(e, o)| e.abs_diff(*o) <= 1);
                assert!(close, "{at}, expected {expected:?}");
            }
            seen.insert(kind.to_owned());
        }
    }
    assert_eq!(seen.len(), 3, "{seen:?}");
}

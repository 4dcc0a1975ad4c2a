//! The textured model export end to end on the synthetic install: `gamebin synth install` writes
//! the textures its materials name, and `gamebin model` exports its ships with every map of every
//! material embedded, read at the tier the size limit picks, with no texture left out; with
//! `--textures none` without images.

use std::collections::BTreeSet;
use std::path::Path;

mod common;
use common::{gamebin, stderr, temp_dir};

fn arg(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// Width and height of an embedded PNG image of `gltf`.
fn image_size(gltf: &gltf::Gltf, image: &gltf::Image<'_>) -> (u32, u32) {
    let gltf::image::Source::View { view, mime_type } = image.source() else {
        panic!("image {} is not embedded", image.index());
    };
    assert_eq!(mime_type, "image/png");
    let blob = gltf.blob.as_deref().unwrap();
    let png = &blob[view.offset()..view.offset() + view.length()];
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
    let be = |at: usize| u32::from_be_bytes(png[at..at + 4].try_into().unwrap());
    (be(16), be(20))
}

/// Checks that every material of the GLB at `path` has its four maps, each an embedded image,
/// and returns the images' sizes.
fn every_material_textured(path: &Path) -> Vec<(u32, u32)> {
    let gltf = gltf::Gltf::open(path).unwrap();
    assert!(gltf.materials().len() > 0, "{}", path.display());
    for material in gltf.materials() {
        let name = material.name().unwrap_or_default().to_owned();
        let pbr = material.pbr_metallic_roughness();
        assert!(pbr.base_color_texture().is_some(), "{name}: no albedo");
        assert!(
            pbr.metallic_roughness_texture().is_some(),
            "{name}: no metallic/gloss"
        );
        assert!(material.normal_texture().is_some(), "{name}: no normal map");
        assert!(
            material.occlusion_texture().is_some(),
            "{name}: no occlusion map"
        );
    }
    // Three materials of three maps each, and the ambient occlusion map they share.
    assert_eq!(gltf.images().len(), 10, "{}", path.display());
    gltf.images().map(|i| image_size(&gltf, &i)).collect()
}

#[test]
fn models_of_the_synthetic_install_export_with_every_texture_and_without_with_none() {
    let dir = temp_dir("synth-textures");
    let game = dir.join("game");
    let out = gamebin(&["synth", "install", "--scale", "small", "-o", arg(&game)]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("196 textures in 270 files"),
        "{}",
        stderr(&out)
    );
    let assets = format!("{}::content/assets.bin", arg(&game));

    // One ship at 1024 pixels: its nation's hull albedo (BC7, up to 4096) and normal map (BC5,
    // up to 2048) are read from their `.dd2` tier, the bridge's 512-pixel maps from the `.dds`.
    let one = dir.join("one.glb");
    let out = gamebin(&[
        "model",
        &assets,
        "content/gameplay/japan/ship/destroyer/J00000/J00000.model",
        "--res",
        arg(&game),
        "--max-texture",
        "1024",
        "-o",
        arg(&one),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(!stderr(&out).contains("warning"), "{}", stderr(&out));
    assert!(stderr(&out).contains("10 textures"), "{}", stderr(&out));
    let sizes: BTreeSet<_> = every_material_textured(&one).into_iter().collect();
    assert_eq!(sizes, BTreeSet::from([(512, 512), (1024, 1024)]));

    // A nation's ships, each with all its textures (shared between them: the hull's by nation,
    // the deck's by class), none left out.
    let batch = dir.join("japan");
    let out = gamebin(&[
        "model",
        &assets,
        "--prefix",
        "content/gameplay/japan",
        "--res",
        arg(&game),
        "--max-texture",
        "512",
        "-o",
        arg(&batch),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(!stderr(&out).contains("left out"), "{}", stderr(&out));
    let mut glbs = Vec::new();
    for entry in walk(&batch) {
        for size in every_material_textured(&entry) {
            assert_eq!(size, (512, 512));
        }
        glbs.push(entry);
    }
    assert!(glbs.len() >= 10, "{} GLBs", glbs.len());

    // The same batch without textures: no image, no warning.
    let bare = dir.join("bare");
    let out = gamebin(&[
        "model",
        &assets,
        "--prefix",
        "content/gameplay/japan",
        "--res",
        arg(&game),
        "--textures",
        "none",
        "-o",
        arg(&bare),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(!stderr(&out).contains("warning"), "{}", stderr(&out));
    assert!(!stderr(&out).contains("left out"), "{}", stderr(&out));
    let bare_glbs = walk(&bare);
    assert_eq!(bare_glbs.len(), glbs.len());
    for path in bare_glbs {
        let gltf = gltf::Gltf::open(&path).unwrap();
        assert_eq!(gltf.images().len(), 0, "{}", path.display());
        assert_eq!(gltf.textures().len(), 0, "{}", path.display());
        assert!(gltf.materials().len() > 0);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Every `.glb` under `dir`.
fn walk(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut found = Vec::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(dir) = todo.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                todo.push(path);
            } else if path.extension().is_some_and(|e| e == "glb") {
                found.push(path);
            }
        }
    }
    found.sort();
    found
}

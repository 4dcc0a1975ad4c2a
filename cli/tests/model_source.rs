//! `gamebin model X.model --res ROOT -o X.glb` on the real mod models of `wows-mod/`: every node of
//! the visual, every render set of LOD 0 with its draw's triangle count (read from the `.geometry`
//! by its own reader), the albedo, metallic/gloss, normal and occlusion maps embedded at their DDS
//! sizes, or written beside the GLB; the classic `<parent>` chain as one scene per LOD; a wrong
//! resource root named with the file it lacks.

use std::path::PathBuf;

mod common;
use common::{at_repository_root, gamebin, stderr, temp_dir};

fn res_root() -> PathBuf {
    let dir = std::env::var_os("GAMEBIN_SAMPLES").expect(
        "GAMEBIN_SAMPLES is not set: this test reads the real samples (run it with \
         GAMEBIN_SAMPLES=../shared/samples cargo test -- --include-ignored)",
    );
    let dir = PathBuf::from(dir);
    let dir = if dir.is_absolute() {
        dir
    } else {
        common::root().join(dir)
    };
    dir.join("wows-mod")
}

const GUN: &str = "PnFMods/SEA_PI_Yuugumo_Kiyoshimo/JSD209_Yugumo/gun/JGA010_25mm_Type96";
const FINDER: &str = "PnFMods/SEA_KRE_Atlanta/ASC006_Atlanta_1942/finder/AF076_Rangefinder_2_5m";

/// `gamebin model MODEL --res ROOT -o OUT EXTRA…`.
fn export(
    model: &std::path::Path,
    root: &std::path::Path,
    out: &std::path::Path,
    extra: &[&str],
) -> std::process::Output {
    let mut args = vec![
        "model",
        model.to_str().unwrap(),
        "--res",
        root.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    gamebin(&args)
}

/// The GLB's document and binary chunk.
fn load(path: &std::path::Path) -> (gltf::Document, Vec<u8>) {
    let glb = gltf::Gltf::from_slice(&std::fs::read(path).unwrap()).unwrap();
    let blob = glb.blob.clone().unwrap();
    (glb.document, blob)
}

/// The size of an embedded PNG image, from its header (read by the png crate).
fn image_size(image: gltf::Image<'_>, blob: &[u8]) -> (u32, u32) {
    let gltf::image::Source::View { view, mime_type } = image.source() else {
        panic!("the image is not embedded");
    };
    assert_eq!(mime_type, "image/png");
    let bytes = &blob[view.offset()..view.offset() + view.length()];
    let reader = png::Decoder::new(std::io::Cursor::new(bytes))
        .read_info()
        .unwrap();
    (reader.info().width, reader.info().height)
}

/// Triangles of the draw whose index mapping has `id`, by the `.geometry` reader.
fn triangles(geometry: &std::path::Path, indices_id: u32) -> usize {
    let bytes = std::fs::read(geometry).unwrap();
    let view = gamebin::wows::geometry::GeometryView::from_bytes(&bytes).unwrap();
    let mapping = view.index_mappings().by_id(indices_id).unwrap();
    mapping.items_count() as usize / 3
}

#[test]
#[ignore = "needs GAMEBIN_SAMPLES (real files): GAMEBIN_SAMPLES=../shared/samples cargo test -- --include-ignored"]
fn the_newer_form_exports_its_nodes_lod_0_and_its_albedo() {
    at_repository_root();
    let root = res_root();
    let out = temp_dir("model-source-gun").join("gun.glb");
    let model = root.join(format!("{GUN}.model"));
    let run = export(&model, &root, &out, &[]);
    assert!(run.status.success(), "{}", stderr(&run));
    let (document, blob) = load(&out);
    // The skeleton: Scene Root, Turret, HP_gunFire1..3, HP_gunFireEffect; and the mesh's node.
    let names: Vec<_> = document
        .nodes()
        .filter_map(|n| n.name().map(str::to_owned))
        .collect();
    for node in [
        "Scene Root",
        "Turret",
        "HP_gunFire1",
        "HP_gunFire2",
        "HP_gunFire3",
        "HP_gunFireEffect",
    ] {
        assert!(
            names.iter().any(|n| n == node),
            "{node} missing from {names:?}"
        );
    }
    // LOD 0 draws TurretShape (indices 0x98e59262, SOURCES.txt), with the draw's triangles.
    assert_eq!(document.meshes().count(), 1);
    let primitive = document
        .meshes()
        .next()
        .unwrap()
        .primitives()
        .next()
        .unwrap();
    let geometry = root.join(format!("{GUN}.geometry"));
    assert_eq!(
        primitive.indices().unwrap().count() / 3,
        triangles(&geometry, 0x98e59262)
    );
    // Its maps at their DDS sizes (SOURCES.txt): the albedo 128x128 as the base colour, the
    // metallic/gloss 128x128 as metallic-roughness, the normal map 256x256, default_ao 4x4.
    let material = primitive.material();
    let surface = material.pbr_metallic_roughness();
    let base = surface.base_color_texture().unwrap();
    assert_eq!(image_size(base.texture().source(), &blob), (128, 128));
    let metal_rough = surface.metallic_roughness_texture().unwrap();
    assert_eq!(
        image_size(metal_rough.texture().source(), &blob),
        (128, 128)
    );
    let normal = material.normal_texture().unwrap();
    assert_eq!(image_size(normal.texture().source(), &blob), (256, 256));
    let occlusion = material.occlusion_texture().unwrap();
    assert_eq!(image_size(occlusion.texture().source(), &blob), (4, 4));
    assert_eq!(material.name(), Some(&*format!("{GUN}.mfm")));
    assert!(!material.double_sided(), "the .mfm says doubleSided false");
    assert_eq!(material.alpha_mode(), gltf::material::AlphaMode::Opaque);
}

/// The relative URIs of a GLB's images.
fn image_uris(path: &std::path::Path) -> Vec<String> {
    let (document, _) = load(path);
    document
        .images()
        .map(|image| match image.source() {
            gltf::image::Source::Uri { uri, .. } => uri.to_owned(),
            gltf::image::Source::View { .. } => panic!("an image is embedded"),
        })
        .collect()
}

#[test]
#[ignore = "needs GAMEBIN_SAMPLES (real files): GAMEBIN_SAMPLES=../shared/samples cargo test -- --include-ignored"]
fn external_textures_are_files_beside_the_glb_written_once() {
    at_repository_root();
    let root = res_root();
    let out = temp_dir("model-source-external");
    let external = |model: &str, extra: &[&str]| {
        let model = root.join(format!("{model}.model"));
        let mut args = vec!["--textures", "external"];
        args.extend_from_slice(extra);
        export(&model, &root, &out, &args)
    };
    let run = external(GUN, &[]);
    assert!(run.status.success(), "{}", stderr(&run));
    let uris = image_uris(&out.join("JGA010_25mm_Type96.glb"));
    assert_eq!(
        uris,
        [
            format!("textures/{GUN}_a.png"),
            format!("textures/{GUN}_mg.metallic-roughness.png"),
            format!("textures/{GUN}_n.normal.png"),
            "textures/PnFMods/SEA_PI_Yuugumo_Kiyoshimo/JSD209_Yugumo/gun/default_ao.png".to_owned(),
        ]
    );
    for uri in &uris {
        let bytes = std::fs::read(out.join(uri)).unwrap();
        assert!(bytes.starts_with(b"\x89PNG"), "{uri} is not a PNG");
    }
    // The destroyed variant shares three of them: the same bytes, so they are kept, not refused.
    let run = external(&format!("{GUN}_dead"), &[]);
    assert!(run.status.success(), "{}", stderr(&run));
    // A texture changed on disk is not replaced without --force, and the GLB is not written.
    let normal = out.join(format!("textures/{GUN}_n.normal.png"));
    std::fs::write(&normal, b"edited").unwrap();
    std::fs::remove_file(out.join("JGA010_25mm_Type96.glb")).unwrap();
    let run = external(GUN, &[]);
    assert!(!run.status.success());
    assert!(stderr(&run).contains("--force"), "{}", stderr(&run));
    assert!(!out.join("JGA010_25mm_Type96.glb").exists());
    let run = external(GUN, &["--force"]);
    assert!(run.status.success(), "{}", stderr(&run));
    assert!(std::fs::read(&normal).unwrap().starts_with(b"\x89PNG"));
}

#[test]
#[ignore = "needs GAMEBIN_SAMPLES (real files): GAMEBIN_SAMPLES=../shared/samples cargo test -- --include-ignored"]
fn the_classic_chain_is_one_scene_per_lod_and_a_wrong_root_names_the_missing_file() {
    at_repository_root();
    let root = res_root();
    let dir = temp_dir("model-source-finder");
    let out = dir.join("finder.glb");
    let model = root.join(format!("{FINDER}.model"));
    let run = export(&model, &root, &out, &["--lod", "all"]);
    assert!(run.status.success(), "{}", stderr(&run));
    let (document, blob) = load(&out);
    // SOURCES.txt: the chain lods/…_lod1 -> _lod2 -> _lod3 under the top model.
    assert_eq!(document.scenes().count(), 4);
    assert_eq!(document.meshes().count(), 4);
    let geometry = root.join(format!("{FINDER}.geometry"));
    let ids = [
        "AM001Shape.indices",
        "AM001_lod1Shape.indices",
        "AM001_lod2Shape.indices",
        "AM001_lod3Shape.indices",
    ];
    let want: Vec<usize> = ids
        .iter()
        .map(|name| triangles(&geometry, gamebin::hash::murmur3_32(name.as_bytes(), 0)))
        .collect();
    let got: Vec<usize> = document
        .meshes()
        .map(|m| m.primitives().next().unwrap().indices().unwrap().count() / 3)
        .collect();
    assert_eq!(got, want);
    let image = document.images().next().unwrap();
    assert_eq!(image_size(image, &blob), (128, 128));

    let wrong = export(&model, &dir, &dir.join("x.glb"), &[]);
    assert_eq!(wrong.status.code(), Some(1));
    assert!(
        stderr(&wrong).contains(&format!("<nodefullVisual>: {FINDER}.visual is missing")),
        "{}",
        stderr(&wrong)
    );
    assert!(!dir.join("x.glb").exists());
}

#[test]
#[ignore = "needs GAMEBIN_SAMPLES (real files): GAMEBIN_SAMPLES=../shared/samples cargo test -- --include-ignored"]
fn a_folder_exports_its_top_models_and_leaves_the_lods_to_them() {
    at_repository_root();
    let root = res_root();
    let out = temp_dir("model-source-batch").join("glb");
    let run = export(&root.join("PnFMods"), &root, &out, &[]);
    assert!(run.status.success(), "{}", stderr(&run));
    // Three top models (SOURCES.txt: the gun, its destroyed variant, the rangefinder); the
    // rangefinder's lods/ models are its LODs, not models of their own.
    let mut written: Vec<String> = String::from_utf8(run.stdout)
        .unwrap()
        .lines()
        .map(|l| l.rsplit('/').next().unwrap().to_owned())
        .collect();
    written.sort();
    assert_eq!(
        written,
        [
            "AF076_Rangefinder_2_5m.glb",
            "JGA010_25mm_Type96.glb",
            "JGA010_25mm_Type96_dead.glb"
        ]
    );
    assert!(
        out.join("SEA_KRE_Atlanta/ASC006_Atlanta_1942/finder/AF076_Rangefinder_2_5m.glb")
            .is_file()
    );
    // --prefix keeps the top models whose path under ROOT starts with it (a leading res/ dropped).
    let some = temp_dir("model-source-batch-prefix").join("glb");
    let run = export(
        &root,
        &root,
        &some,
        &[
            "--prefix",
            "res/PnFMods/SEA_PI_Yuugumo_Kiyoshimo/JSD209_Yugumo/gun/JGA010_25mm_Type96_",
        ],
    );
    assert!(run.status.success(), "{}", stderr(&run));
    let written = String::from_utf8(run.stdout).unwrap();
    assert_eq!(written.lines().count(), 1, "{written}");
    assert!(
        written.trim_end().ends_with("JGA010_25mm_Type96_dead.glb"),
        "{written}"
    );
    let none = export(
        &root,
        &root,
        &some,
        &["--prefix", "PnFMods/nowhere", "--force"],
    );
    assert_eq!(none.status.code(), Some(1));
    assert!(
        stderr(&none).contains("starting with \"PnFMods/nowhere\""),
        "{}",
        stderr(&none)
    );
    // With external textures every GLB names images under OUTDIR/textures, each written once.
    let external = temp_dir("model-source-batch-external").join("glb");
    let run = export(
        &root.join("PnFMods"),
        &root,
        &external,
        &["--textures", "external"],
    );
    assert!(run.status.success(), "{}", stderr(&run));
    let finder = external.join("SEA_KRE_Atlanta/ASC006_Atlanta_1942/finder");
    let uris = image_uris(&finder.join("AF076_Rangefinder_2_5m.glb"));
    assert_eq!(uris.len(), 4);
    for uri in &uris {
        assert!(uri.starts_with("../../../textures/PnFMods/"), "{uri}");
        assert!(finder.join(uri).is_file(), "{uri} does not resolve");
    }
}

/// Issue 49, item 5, for a .model source: `-o newdir/` (a folder that does not exist yet) failed
/// with "cannot create newdir/: Is a directory"; the folder is made and the GLB put in it, with
/// its external textures beside it.
#[test]
#[ignore = "needs GAMEBIN_SAMPLES (real files): GAMEBIN_SAMPLES=../shared/samples cargo test -- --include-ignored"]
fn an_output_folder_named_with_a_slash_is_made() {
    at_repository_root();
    let root = res_root();
    let tmp = temp_dir("model-source-new-folder");
    let folder = format!("{}/new/", tmp.display());
    let model = root.join(format!("{GUN}.model"));
    let run = export(
        &model,
        &root,
        std::path::Path::new(&folder),
        &["--textures", "external"],
    );
    assert!(run.status.success(), "{}", stderr(&run));
    let glb = tmp.join("new/JGA010_25mm_Type96.glb");
    assert!(glb.is_file(), "{}", stderr(&run));
    assert!(tmp.join(format!("new/textures/{GUN}_a.png")).is_file());
    assert_eq!(image_uris(&glb)[0], format!("textures/{GUN}_a.png"));
    std::fs::remove_dir_all(&tmp).unwrap();
}

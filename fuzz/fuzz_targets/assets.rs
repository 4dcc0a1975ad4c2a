//! `assets.bin`: detects, opens and drives every accessor through the driver the corruption tests
//! share (`tests/drive`), so that fuzzing and `tests/corruption.rs` exercise the same surface,
//! the model resolver included (with and without a path index) — here with a fixed resource root
//! (the example model world's `.geometry`, at the path the seeds' visual names): path entries
//! resolved as models, their `.geometry` loaded, every render set drawn and every model whose
//! file loaded exported to GLB with every LOD. The same bytes are also read as the JSON of a whole
//! file's model (`AssetsBuilder`), which must be refused or written, never panic.
#![no_main]

use std::path::PathBuf;
use std::sync::OnceLock;

use gamebin::wows::resolve::gltf::{LodChoice, ModelGlbOptions, model_to_glb};
use gamebin::wows::textures::TextureMode;
use gamebin::wows::resolve::{LoadedGeometry, ModelResolver, ResolvedModel};
use libfuzzer_sys::fuzz_target;

#[path = "../../tests/drive/mod.rs"]
mod drive;

/// The resource root, written once per process.
fn root() -> &'static PathBuf {
    static ROOT: OnceLock<PathBuf> = OnceLock::new();
    ROOT.get_or_init(|| {
        let root = std::env::temp_dir().join(format!("gamebin-fuzz-res-{}", std::process::id()));
        let world = gamebin::synth::model_world::example_world().expect("example world");
        world.write_to(&root).expect("write the example world");
        root
    })
}

fuzz_target!(|data: &[u8]| {
    // Generically first (detection, check, summary, model), then this format's every accessor.
    std::hint::black_box(drive::drive_any(data));
    // Textures are read from files under the resource root, which a fuzz input does not have.
    let options = ModelGlbOptions {
        lods: LodChoice::All,
        textures: TextureMode::None,
        ..Default::default()
    };
    let mut export =
        |resolver: &ModelResolver<'_>, model: &ResolvedModel<'_>, geometry: LoadedGeometry<'_>| {
            let glb = model_to_glb(resolver, model, &geometry, &options);
            usize::from(std::hint::black_box(glb).is_ok())
        };
    std::hint::black_box(drive::drive_assets_under(data, Some(root()), &mut export));
    if let Ok(builder) = serde_json::from_slice::<gamebin::wows::assets::model::AssetsBuilder>(data)
    {
        std::hint::black_box(builder.to_bytes().is_ok());
    }
});

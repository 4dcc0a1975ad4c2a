//! `gamebin model X.model --res ROOT -o X.glb`: a model from its BigWorld XML sources (a mod's
//! `.model`, `.visual`, `.mfm`, `.geometry` and `.dds` files), resolved under the resource root
//! and written as GLB.

use std::path::Path;

use anyhow::{Context, Result, bail};
use gamebin::export::model_gltf::LodChoice;
use gamebin::wows::sources::gltf::{SourceGlbOptions, TextureMode, source_model_to_glb};

use crate::files;
use crate::output::{Status, count, report};

/// Whether `path` holds XML (a `.model` source), by content: its first non-blank byte is `<`.
pub fn is_xml_source(path: &Path) -> bool {
    use std::io::Read as _;
    if files::is_stdin(path) {
        return false;
    }
    let mut head = [0u8; 64];
    let Ok(mut file) = std::fs::File::open(path) else {
        return false;
    };
    let n = file.read(&mut head).unwrap_or(0);
    let head = head[..n]
        .strip_prefix(b"\xEF\xBB\xBF")
        .unwrap_or(&head[..n]);
    head.iter()
        .find(|b| !b.is_ascii_whitespace())
        .is_some_and(|&b| b == b'<')
}

/// `--textures`.
#[derive(Debug, Clone, Copy, clap::ValueEnum)]
pub enum Textures {
    /// The albedo embedded as PNG.
    Embed,
    /// No images.
    None,
}

impl From<Textures> for TextureMode {
    fn from(t: Textures) -> Self {
        match t {
            Textures::Embed => TextureMode::Embed,
            Textures::None => TextureMode::None,
        }
    }
}

/// What the export was asked for.
pub struct Settings<'a> {
    pub res: &'a Path,
    pub output: &'a Path,
    pub lods: LodChoice,
    pub textures: TextureMode,
    pub max_texture: Option<u32>,
    pub force: bool,
}

pub fn run(model: &Path, settings: &Settings<'_>) -> Result<Status> {
    match export(model, settings) {
        Ok(()) => Ok(Status::Success),
        Err(e) => {
            report(model, &e);
            Ok(Status::SomeFailed)
        }
    }
}

fn export(model: &Path, settings: &Settings<'_>) -> Result<()> {
    if !settings.res.is_dir() {
        bail!(
            "{}: the resource root (--res) is not a folder: name the folder the paths inside the \
             model's files are relative to (the game's res/, or a mod's copy of it)",
            settings.res.display()
        );
    }
    let output = if settings.output.is_dir() {
        let stem = model.file_stem().context("the model has no file name")?;
        settings.output.join(stem).with_extension("glb")
    } else {
        settings.output.to_path_buf()
    };
    files::refuse_existing(&output, settings.force)?;
    let source = gamebin::wows::sources::resolve(settings.res, model)?;
    let options = SourceGlbOptions {
        lod: match settings.lods {
            LodChoice::One(i) => Some(i),
            LodChoice::All => None,
        },
        textures: settings.textures,
        max_texture: settings.max_texture,
    };
    let glb = source_model_to_glb(settings.res, &source, &options)?;
    for warning in &glb.warnings {
        eprintln!("gamebin: {}: warning: {warning}", model.display());
    }
    files::write_new(&output, &glb.bytes, settings.force)?;
    eprintln!(
        "{} -> {}: {}, {}, {}, {}",
        model.display(),
        output.display(),
        count(glb.scenes, "scene", "scenes"),
        count(glb.meshes, "mesh", "meshes"),
        count(glb.materials, "material", "materials"),
        count(glb.textures, "texture", "textures"),
    );
    Ok(())
}

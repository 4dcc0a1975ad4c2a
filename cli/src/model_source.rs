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
#[derive(Clone, Copy)]
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
    let (output, glb) = export_quietly(model, settings)?;
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

/// Exports one model and writes its GLB; its warnings go to stderr. Returns where it went and
/// what it holds.
fn export_quietly(
    model: &Path,
    settings: &Settings<'_>,
) -> Result<(std::path::PathBuf, gamebin::wows::sources::gltf::SourceGlb)> {
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
    Ok((output, glb))
}

/// The `.model` files under `folder` (recursively, symbolic links not followed), sorted.
fn model_files(folder: &Path, out: &mut Vec<std::path::PathBuf>) -> Result<()> {
    let entries =
        std::fs::read_dir(folder).with_context(|| format!("cannot list {}", folder.display()))?;
    for entry in entries {
        let entry = entry?;
        let kind = entry.file_type()?;
        let path = entry.path();
        if kind.is_dir() {
            model_files(&path, out)?;
        } else if kind.is_file()
            && path
                .extension()
                .is_some_and(|e| e.eq_ignore_ascii_case("model"))
            && is_xml_source(&path)
        {
            out.push(path);
        }
    }
    Ok(())
}

/// `gamebin model FOLDER --res ROOT -o OUTDIR`: every top `.model` source under FOLDER (a model
/// that another one names as its `<parent>` is a LOD of it and is exported through it), each to
/// `OUTDIR/<its path under FOLDER>.glb`, on every core.
pub fn run_batch(folder: &Path, settings: &Settings<'_>) -> Result<Status> {
    use std::ops::ControlFlow;

    use crate::output::Out;
    if !settings.res.is_dir() {
        bail!(
            "{}: the resource root (--res) is not a folder",
            settings.res.display()
        );
    }
    let mut found = Vec::new();
    model_files(folder, &mut found)?;
    found.sort();
    // The LODs of the classic form: every model some other one names as its parent.
    let mut parents = std::collections::HashSet::new();
    for path in &found {
        let Ok(text) = gamebin::wows::sources::read_source(path) else {
            continue;
        };
        if let Ok(model) =
            gamebin::wows::sources::ModelFile::parse(&path.display().to_string(), &text)
            && let Some(parent) = model.parent
        {
            parents.insert(format!("{parent}.model"));
        }
    }
    let items: Vec<std::path::PathBuf> = found
        .into_iter()
        .filter(|path| {
            gamebin::wows::sources::relative_to(settings.res, path)
                .is_none_or(|relative| !parents.contains(&relative))
        })
        .collect();
    if items.is_empty() {
        bail!("no .model source under {}", folder.display());
    }
    std::fs::create_dir_all(settings.output)
        .with_context(|| format!("cannot create {}", settings.output.display()))?;
    let bar = crate::assets::progress(items.len(), "models");
    let mut out = Out::new();
    let (mut written, mut failed) = (0usize, 0usize);
    let mut closed = false;
    crate::parallel::ordered(
        &items,
        || (),
        |(), model| -> Result<std::path::PathBuf> {
            let relative = model.strip_prefix(folder).unwrap_or(model);
            let target = settings.output.join(relative).with_extension("glb");
            if let Some(parent) = target.parent() {
                std::fs::create_dir_all(parent)
                    .with_context(|| format!("cannot create {}", parent.display()))?;
            }
            let one = Settings {
                output: &target,
                ..*settings
            };
            Ok(export_quietly(model, &one)?.0)
        },
        |model, result| {
            bar.inc(1);
            match result {
                Ok(target) => {
                    written += 1;
                    let line = target.display().to_string();
                    let shown = bar.suspend(|| out.line(&line).and_then(|()| out.flush()));
                    if shown.is_err() || out.is_closed() {
                        closed = true;
                        return ControlFlow::Break(());
                    }
                }
                Err(e) => {
                    failed += 1;
                    bar.suspend(|| report(model, &e));
                }
            }
            ControlFlow::Continue(())
        },
    );
    bar.finish_and_clear();
    if closed {
        return Ok(Status::Success);
    }
    out.flush()?;
    eprintln!(
        "gamebin: exported {written} of {} to {}{}",
        count(items.len(), "model", "models"),
        settings.output.display(),
        if failed > 0 {
            format!("; {failed} failed")
        } else {
            String::new()
        }
    );
    Ok(if failed > 0 {
        Status::SomeFailed
    } else {
        Status::Success
    })
}

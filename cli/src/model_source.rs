//! `gamebin model X.model --res ROOT -o X.glb`: a model from its BigWorld XML sources (a mod's
//! `.model`, `.visual`, `.mfm`, `.geometry` and `.dds` files), resolved under the resource root
//! and written as GLB.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use anyhow::{Context, Result, bail};
use gamebin::wows::resolve::gltf::LodChoice;
use gamebin::wows::sources::gltf::{SourceGlb, SourceGlbOptions, source_model_to_glb_cached};
use gamebin::wows::textures::{TextureCache, TextureImage, TextureMode};

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
    is_xml(&head[..n])
}

/// Whether `bytes` (a file's start) are XML: the first non-blank byte after a UTF-8 byte order
/// mark is `<`.
pub fn is_xml(bytes: &[u8]) -> bool {
    let head = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    head.iter()
        .find(|b| !b.is_ascii_whitespace())
        .is_some_and(|&b| b == b'<')
}

/// The folder named `textures` where `--textures external` writes the images, the same for every
/// GLB of a run, and the images already written there by this run.
pub struct TextureFolder {
    /// The folder holding `textures/`.
    pub parent: PathBuf,
    written: Mutex<HashSet<String>>,
}

impl TextureFolder {
    pub fn new(parent: PathBuf) -> Self {
        TextureFolder {
            parent,
            written: Mutex::new(HashSet::new()),
        }
    }

    /// Writes the images a GLB names that this run has not written yet. A file already there with
    /// the same bytes is left as it is; with other bytes, replaced only with `force`.
    pub fn write(&self, images: &[TextureImage], force: bool) -> Result<()> {
        for image in images {
            let first = self
                .written
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
                .insert(image.path.clone());
            if !first {
                continue;
            }
            let target = self.parent.join("textures").join(&image.path);
            if std::fs::read(&target).is_ok_and(|old| old[..] == image.png[..]) {
                continue;
            }
            if let Some(folder) = target.parent() {
                std::fs::create_dir_all(folder)
                    .with_context(|| format!("cannot create {}", folder.display()))?;
            }
            files::write_new(&target, &image.png, force)?;
        }
        Ok(())
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
    let glb_folder = match files::names_folder(settings.output) {
        true => settings.output,
        false => settings.output.parent().unwrap_or(Path::new("")),
    };
    let shared = Shared {
        cache: TextureCache::default(),
        folder: TextureFolder::new(glb_folder.to_path_buf()),
    };
    match export(model, settings, &shared) {
        Ok(()) => Ok(Status::Success),
        Err(e) => {
            report(model, &e);
            Ok(Status::SomeFailed)
        }
    }
}

/// What the exports of one run share: decoded textures, and where external ones go.
struct Shared {
    cache: TextureCache,
    folder: TextureFolder,
}

fn export(model: &Path, settings: &Settings<'_>, shared: &Shared) -> Result<()> {
    let (output, glb) = export_quietly(model, settings, shared)?;
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
    shared: &Shared,
) -> Result<(PathBuf, SourceGlb)> {
    if !settings.res.is_dir() {
        bail!(
            "{}: the resource root (--res) is not a folder: name the folder the paths inside the \
             model's files are relative to (the game's res/, or a mod's copy of it)",
            settings.res.display()
        );
    }
    let into_folder = files::names_folder(settings.output);
    let output = if into_folder {
        let stem = model.file_stem().context("the model has no file name")?;
        settings.output.join(stem).with_extension("glb")
    } else {
        settings.output.to_path_buf()
    };
    files::refuse_existing(&output, settings.force)?;
    let source = gamebin::wows::sources::resolve(settings.res, model)?;
    // The URIs climb from the GLB's folder to the one holding `textures/`.
    let depth = output
        .parent()
        .and_then(|p| p.strip_prefix(&shared.folder.parent).ok())
        .map_or(0, |below| below.components().count());
    let options = SourceGlbOptions {
        lod: match settings.lods {
            LodChoice::One(i) => Some(i),
            LodChoice::All => None,
        },
        textures: settings.textures,
        max_texture: settings.max_texture,
        texture_uri_prefix: format!("{}textures/", "../".repeat(depth)),
    };
    let glb = source_model_to_glb_cached(settings.res, &source, &options, &shared.cache)?;
    for warning in &glb.warnings {
        eprintln!("gamebin: {}: warning: {warning}", model.display());
    }
    // A folder named as the output (`-o newdir/`) is made once there is something to put in it.
    if into_folder {
        files::make_folder(settings.output)?;
    }
    shared.folder.write(&glb.images, settings.force)?;
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

/// `gamebin model FOLDER --res ROOT -o OUTDIR [--prefix PREFIX]`: every top `.model` source under
/// FOLDER (a model that another one names as its `<parent>` is a LOD of it and is exported through
/// it), or those whose path under ROOT starts with PREFIX, each to `OUTDIR/<its path under
/// FOLDER>.glb`, on every core.
pub fn run_batch(folder: &Path, prefix: Option<&str>, settings: &Settings<'_>) -> Result<Status> {
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
    let prefix = prefix.map(gamebin::wows::resolve::strip_res);
    let items: Vec<std::path::PathBuf> = found
        .into_iter()
        .filter(|path| {
            let relative = gamebin::wows::sources::relative_to(settings.res, path);
            let top = relative
                .as_ref()
                .is_none_or(|relative| !parents.contains(relative));
            let wanted = match (prefix, &relative) {
                (None, _) => true,
                (Some(prefix), Some(relative)) => relative.starts_with(prefix),
                (Some(_), None) => false,
            };
            top && wanted
        })
        .collect();
    if items.is_empty() {
        match prefix {
            Some(prefix) => bail!(
                "no .model source under {} has a path under {} starting with {prefix:?}",
                folder.display(),
                settings.res.display()
            ),
            None => bail!("no .model source under {}", folder.display()),
        }
    }
    std::fs::create_dir_all(settings.output)
        .with_context(|| format!("cannot create {}", settings.output.display()))?;
    let shared = Shared {
        cache: TextureCache::default(),
        folder: TextureFolder::new(settings.output.to_path_buf()),
    };
    let bar = crate::assets::progress(items.len(), "models");
    let mut out = Out::new();
    let (mut written, mut failed) = (0usize, 0usize);
    let mut reported = crate::batch::Failures::default();
    let mut listing = crate::output::Listing::default();
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
            Ok(export_quietly(model, &one, &shared)?.0)
        },
        |model, result| {
            bar.inc(1);
            match result {
                Ok(target) => {
                    written += 1;
                    let line = target.display().to_string();
                    bar.suspend(|| listing.show(&mut out, &line));
                }
                Err(e) => {
                    failed += 1;
                    if reported.is_named(&e) {
                        bar.suspend(|| report(model, &e));
                    }
                }
            }
            ControlFlow::Continue(())
        },
    );
    bar.finish_and_clear();
    // Said after the summary: the export went on to the end.
    let listed = listing.finish(&mut out);
    for line in reported.unnamed() {
        eprintln!("gamebin: {line}");
    }
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
    listed?;
    Ok(if failed > 0 {
        Status::SomeFailed
    } else {
        Status::Success
    })
}

//! `gamebin model ASSETS.bin ID|PATH --res DIR -o OUT.glb` (one model) and
//! `gamebin model ASSETS.bin --prefix PREFIX --res DIR -o OUTDIR` (every model under a path
//! prefix, on every core): models resolved through the `assets.bin`, their meshes drawn from the
//! `.geometry` files under the resource root, written as GLB.
//!
//! [`run`] takes the command's arguments and first tells the two kinds of input apart: a `.model`
//! source or a folder of them goes to `model_source`.

use std::collections::BTreeMap;
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, anyhow, bail};
use gamebin::wows::assets::{AssetsDb, PathIndex, Prototype, PrototypeState};
use gamebin::wows::resolve::gltf::{LodChoice, ModelGlbOptions, ModelScenes, model_to_glb_cached};
use gamebin::wows::resolve::{GeometryCache, Missing, ModelResolver, ResolveError, strip_res};
use gamebin::wows::textures::{TextureCache, TextureMode};
use gamebin::{Format, MappedFile};

use crate::args::ModelArgs;
use crate::batch::Cause;
use crate::model_source::{self, TextureFolder};
use crate::output::{Listing, Out, Status, count, report};
use crate::{files, parallel};

/// What `model` writes.
pub struct Settings<'a> {
    /// The resource root (the folder holding `content/`, or the one holding `res/`).
    pub res: &'a Path,
    /// The GLB (one model) or the folder (a batch).
    pub output: &'a Path,
    /// The levels of detail.
    pub lods: LodChoice,
    /// A batch exports the VisualPrototypes under the prefix instead of the ModelPrototypes.
    pub visuals: bool,
    /// Textures embedded, external or left out.
    pub textures: TextureMode,
    /// The largest side of a texture in pixels.
    pub max_texture: Option<u32>,
    /// Replace existing files.
    pub force: bool,
}

/// `gamebin model`: a .model source or a folder of them (recognised by content) exported through
/// `model_source`, or one model or a batch of an assets.bin; a key or `--prefix` that does not
/// fit the input is a usage error (exit status 2).
pub fn run(args: ModelArgs) -> Result<Status> {
    let ModelArgs {
        file,
        key,
        prefix,
        res,
        output,
        lod,
        visuals,
        force,
        textures,
        max_texture,
    } = args;
    let source_settings = model_source::Settings {
        res: &res,
        output: &output,
        lods: lod,
        textures: textures.into(),
        max_texture,
        force,
    };
    if file.is_dir() {
        if key.is_some() {
            return Ok(source_with_key(&file));
        }
        return model_source::run_batch(&file, prefix.as_deref(), &source_settings);
    }
    // Opened as every command opens its input (a FIFO or device refused at once, not waited on;
    // a missing file named as missing), and once: standard input can be read only once.
    let bytes = match files::map(&file) {
        Ok(bytes) => bytes,
        Err(e) => {
            report(&file, &e);
            return Ok(Status::SomeFailed);
        }
    };
    // A .model source is read through its path (its .visual lies beside it): not from standard
    // input or from inside an install.
    let by_path = !files::is_stdin(&file) && files::in_install(&file).is_none();
    if by_path && model_source::is_xml(&bytes) {
        if key.is_some() || prefix.is_some() {
            return Ok(source_with_key(&file));
        }
        drop(bytes);
        return model_source::run(&file, &source_settings);
    }
    if let Err(e) = assets_input(&file, &bytes, key.is_some() || prefix.is_some()) {
        report(&file, &e);
        return Ok(Status::SomeFailed);
    }
    let settings = Settings {
        res: &res,
        output: &output,
        lods: lod,
        visuals,
        textures: textures.into(),
        max_texture,
        force,
    };
    match (key, prefix) {
        (Some(key), _) => run_one(&file, bytes, &key, &settings),
        (None, Some(prefix)) => run_batch(&file, bytes, &prefix, &settings),
        (None, None) => {
            eprintln!(
                "gamebin: {}: name the model to export (an id or a full path) or --prefix for a \
                 batch",
                file.display()
            );
            Ok(Status::Usage)
        }
    }
}

/// A .model source (or a folder of them) given a model key, or a single source given
/// `--prefix`: a usage error.
fn source_with_key(file: &Path) -> Status {
    eprintln!(
        "gamebin: {}: a .model source is exported without a model key or --prefix (they choose \
         models of an assets.bin, or of a folder of sources)",
        file.display()
    );
    Status::Usage
}

/// Why `bytes`, not a .model source, are not the assets.bin `model` exports from, said as other
/// commands say it: an empty file is empty; a `.geometry` (by content, or by name when damaged)
/// is pointed to `gamebin export`, the command for one mesh file; another format is named.
/// Without a model key or `--prefix` (`choosing` false) the assets.bin must also open: only a
/// real one gets the usage message that asks for them. With them, the assets.bin's own reader
/// says what is wrong, as before.
fn assets_input(path: &Path, bytes: &[u8], choosing: bool) -> Result<()> {
    if bytes.is_empty() {
        bail!("{}", gamebin::ParseError::unrecognised(bytes));
    }
    let format = match gamebin::detect_file(path, bytes, true, &mut gamebin::Scratch::new()) {
        Ok(format) => format,
        Err(named) if named.format == Format::WowsGeometry => Some(Format::WowsGeometry),
        Err(named) => return Err(named.into()),
    };
    match format {
        Some(Format::WowsGeometry) => bail!(
            "a .geometry file (meshes without a model): export its meshes with gamebin export \
             FILE -o OUT.glb; model reads an assets.bin or a .model source"
        ),
        Some(format) if format != Format::WowsAssets => {
            bail!("a {format} file: model reads an assets.bin or a .model source")
        }
        _ if !choosing => AssetsDb::from_bytes(bytes).map(|_| ()).map_err(Into::into),
        _ => Ok(()),
    }
}

/// Geometry files a worker keeps mapped and decoded: models of one ship sit next to each other in
/// path order and share files, and a bounded cache keeps a batch over the whole game from
/// holding every file at once.
const CACHE_FILES: usize = 32;

fn check_res(res: &Path) -> Result<()> {
    if !res.is_dir() {
        bail!(
            "{}: the resource root (--res) is not a folder: name the game's res/ folder (the \
             one holding content/) or the folder holding res/",
            res.display()
        );
    }
    Ok(())
}

/// One model to `settings.output`.
pub fn run_one(
    assets: &Path,
    file: MappedFile,
    key: &str,
    settings: &Settings<'_>,
) -> Result<Status> {
    match one(&file, key, settings) {
        Ok(status) => Ok(status),
        Err(e) => {
            report(assets, &e);
            Ok(Status::SomeFailed)
        }
    }
}

fn one(file: &MappedFile, key: &str, settings: &Settings<'_>) -> Result<Status> {
    check_res(settings.res)?;
    let db = AssetsDb::from_bytes(file)?;
    let install = install_at(settings.res)?;
    let resolver = with_install(ModelResolver::new(db, settings.res), install.as_deref());
    let model = match crate::assets_get::parse_id(key) {
        Some(id) => resolver.resolve(id),
        None => resolver.resolve_path(key),
    }?;
    let mut name = String::new();
    if !resolver.full_path(model.self_id(), &mut name)? {
        name = format!("{:#018x}", model.self_id());
    }
    // A folder named as the output gets `<model name>.glb` in it, made if it is not there yet
    // (`-o newdir/`) once there is something to put in it.
    let into_folder = files::names_folder(settings.output);
    let target = if into_folder {
        settings.output.join(glb_name(&name))
    } else {
        settings.output.to_path_buf()
    };
    crate::files::refuse_existing(&target, settings.force)?;
    let mut cache = GeometryCache::new();
    let geometry = cache.load(&resolver, &model)?;
    let options = ModelGlbOptions {
        lods: settings.lods,
        textures: settings.textures,
        max_texture: settings.max_texture,
        ..Default::default()
    };
    let glb = model_to_glb_cached(
        &resolver,
        &model,
        &geometry,
        &options,
        &TextureCache::default(),
    )?;
    for warning in &glb.warnings {
        eprintln!("gamebin: {name}: warning: {warning}");
    }
    if into_folder {
        files::make_folder(settings.output)?;
    }
    let folder = TextureFolder::new(target.parent().unwrap_or(Path::new("")).to_path_buf());
    folder.write(&glb.images, settings.force)?;
    crate::files::write_new(&target, &glb.bytes, settings.force)?;
    // The GLB is written: a reader of stdout gone away (`| head`) loses only its name.
    let mut out = Out::new();
    if let Err(e) = out.line(&target.display().to_string())
        && !out.is_closed()
    {
        return Err(e.into());
    }
    out.flush()?;
    eprintln!(
        "gamebin: {name}: {}, {}",
        describe(&glb.added),
        count(glb.textures, "texture", "textures")
    );
    Ok(Status::Success)
}

/// The install of `--res` when it names a game folder (its `.geometry` files are read out of
/// the volumes), `None` for a resource folder.
fn install_at(res: &Path) -> Result<Option<std::sync::Arc<gamebin::wows::pfs::GameInstall>>> {
    if crate::install::is_game_folder(res) {
        return crate::install::shared(res, files::install_mapping()).map(Some);
    }
    Ok(None)
}

fn with_install<'a>(
    resolver: ModelResolver<'a>,
    install: Option<&'a gamebin::wows::pfs::GameInstall>,
) -> ModelResolver<'a> {
    match install {
        Some(install) => resolver.with_install(install),
        None => resolver,
    }
}

/// `X.model` → `X.glb` (the last segment of a full path).
fn glb_name(full_path: &str) -> String {
    let name = full_path.rsplit('/').next().unwrap_or(full_path);
    let stem = name.rsplit_once('.').map_or(name, |(stem, _)| stem);
    format!("{stem}.glb")
}

fn describe(added: &ModelScenes) -> String {
    format!(
        "{}, {}, {}, {}, {}",
        count(added.scenes, "scene", "scenes"),
        count(added.nodes, "node", "nodes"),
        count(added.meshes, "mesh", "meshes"),
        count(added.materials, "material", "materials"),
        count(added.skins, "skin", "skins")
    )
}

/// A model of a batch: its selfId and full path.
struct Item {
    id: u64,
    path: String,
}

/// Why one model of a batch failed.
enum Failure {
    Model(ResolveError),
    Output(anyhow::Error),
}

impl Failure {
    /// The kind of failure, for the summary.
    fn kind(&self) -> &'static str {
        let Failure::Model(e) = self else {
            return "output file not written";
        };
        match e.missing() {
            Missing::Prototype => "no prototype",
            Missing::NotAModel { .. } => "not a model",
            Missing::Visual { .. } => "visual missing",
            Missing::GeometryPath { .. } => "geometry path not in the path tree",
            Missing::UnsafePath { .. } => "geometry path leaves the resource root",
            Missing::GeometryModel { .. } => "geometry file missing",
            Missing::GeometryRead { .. } => "geometry file unreadable",
            Missing::InstallFile { .. } => "geometry file missing or unreadable in the install",
            Missing::VerticesMapping { .. } => "vertices mapping not in its geometry",
            Missing::IndicesMapping { .. } => "indices mapping not in its geometry",
            Missing::Draw { .. } => "draw does not decode",
            Missing::Material { .. } => "material missing",
            Missing::LodRenderSet { .. } => "LOD names a missing render set",
            Missing::Lod { .. } => "LOD past the visual's",
            Missing::Node { .. } => "render set names a missing node",
            Missing::NodeParent { .. } => "node hierarchy broken",
            Missing::Joint { .. } => "joint past the skin",
            Missing::Assets(_) => "assets.bin unreadable",
            Missing::Export(_) => "GLB export failed",
            _ => "other",
        }
    }
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Failure::Model(e) => write!(f, "{e}"),
            Failure::Output(e) => write!(f, "{e:#}"),
        }
    }
}

/// Every model (or visual) whose full path starts with `prefix`, in path-table order.
fn collect(db: &AssetsDb<'_>, index: &PathIndex, prefix: &str, visuals: bool) -> Result<Vec<Item>> {
    let mut items = Vec::new();
    let mut full = String::new();
    for entry in db.paths().iter() {
        let id = entry.self_id();
        if !index.full_path(db.paths(), id, &mut full)? || !full.starts_with(prefix) {
            continue;
        }
        let Some(at) = db.prototype(id)? else {
            continue;
        };
        if at.state != PrototypeState::Live {
            continue;
        }
        let wanted = match db.record(at)? {
            Prototype::Model(_) => !visuals,
            Prototype::Visual(_) => visuals,
            _ => false,
        };
        if wanted {
            items.push(Item {
                id,
                path: full.clone(),
            });
        }
    }
    Ok(items)
}

/// Every model under `prefix` to a GLB each under `settings.output`, on every core.
pub fn run_batch(
    assets: &Path,
    file: MappedFile,
    prefix: &str,
    settings: &Settings<'_>,
) -> Result<Status> {
    match batch(assets, &file, prefix, settings) {
        Ok(status) => Ok(status),
        Err(e) => {
            report(assets, &e);
            Ok(Status::SomeFailed)
        }
    }
}

fn batch(
    assets: &Path,
    file: &MappedFile,
    prefix: &str,
    settings: &Settings<'_>,
) -> Result<Status> {
    check_res(settings.res)?;
    let db = AssetsDb::from_bytes(file)?;
    let index = PathIndex::build(db.paths())?;
    let prefix = strip_res(prefix);
    let items = collect(&db, &index, prefix, settings.visuals)?;
    let what = if settings.visuals { "visual" } else { "model" };
    if items.is_empty() {
        bail!("no {what} prototype has a path starting with {prefix:?}");
    }
    std::fs::create_dir_all(settings.output)
        .with_context(|| format!("cannot create {}", settings.output.display()))?;
    let install = install_at(settings.res)?;
    let resolver = with_install(ModelResolver::new(db, settings.res), install.as_deref())
        .with_path_index(&index);
    let options = ModelGlbOptions {
        lods: settings.lods,
        textures: settings.textures,
        max_texture: settings.max_texture,
        ..Default::default()
    };
    let shared = Shared {
        cache: TextureCache::default(),
        folder: TextureFolder::new(settings.output.to_path_buf()),
    };
    let mut texture_warnings = (0usize, None::<String>);
    let bar = crate::assets::progress(items.len(), &format!("{what}s"));
    let mut out = Out::new();
    let mut failures: Vec<Failure> = Vec::new();
    let mut reported = crate::batch::Failures::default();
    let mut written = 0usize;
    let mut listing = Listing::default();
    parallel::ordered(
        &items,
        GeometryCache::new,
        |cache, item| export_one(&resolver, cache, item, settings, &options, &shared),
        |_, result| {
            bar.inc(1);
            match result {
                Ok((target, warnings)) => {
                    written += 1;
                    texture_warnings.0 += warnings.len();
                    if texture_warnings.1.is_none() {
                        texture_warnings.1 = warnings.into_iter().next();
                    }
                    let line = target.display().to_string();
                    bar.suspend(|| listing.show(&mut out, &line));
                }
                Err(failure) => {
                    let named = match &failure {
                        Failure::Output(e) => reported.is_named(e),
                        Failure::Model(e) => reported.is_named_for(match e.missing() {
                            Missing::InstallFile {
                                volume: Some(volume),
                                ..
                            } => Some(Cause::Volume(volume.clone())),
                            _ => None,
                        }),
                    };
                    if named {
                        bar.suspend(|| eprintln!("gamebin: {}: {failure}", assets.display()));
                    }
                    failures.push(failure);
                }
            }
            ControlFlow::Continue(())
        },
    );
    bar.finish_and_clear();
    // Said after the summary: the export went on to the end.
    let listed = listing.finish(&mut out);
    if let (n @ 1.., Some(first)) = texture_warnings {
        eprintln!(
            "gamebin: {} left out of the GLBs (missing or unreadable), the first: {first}",
            count(n, "texture", "textures")
        );
    }
    if failures.is_empty() {
        eprintln!(
            "gamebin: exported {} to {}",
            count(written, what, &format!("{what}s")),
            settings.output.display()
        );
        listed?;
        return Ok(Status::Success);
    }
    for line in reported.unnamed() {
        eprintln!("gamebin: {line}");
    }
    let mut kinds: BTreeMap<&str, usize> = BTreeMap::new();
    for failure in &failures {
        *kinds.entry(failure.kind()).or_default() += 1;
    }
    let kinds: Vec<String> = kinds.iter().map(|(k, n)| format!("{n} {k}")).collect();
    eprintln!(
        "gamebin: exported {written} of {} to {}; {} failed ({})",
        count(items.len(), what, &format!("{what}s")),
        settings.output.display(),
        failures.len(),
        kinds.join(", ")
    );
    listed?;
    Ok(Status::SomeFailed)
}

fn export_one(
    resolver: &ModelResolver<'_>,
    cache: &mut GeometryCache,
    item: &Item,
    settings: &Settings<'_>,
    options: &ModelGlbOptions,
    shared: &Shared,
) -> std::result::Result<(PathBuf, Vec<String>), Failure> {
    // The path must stay under the output folder when joined to it.
    if !gamebin::wows::is_safe_resource_path(&item.path) {
        return Err(Failure::Output(anyhow!(
            "{}: the path would leave the output folder; not written",
            item.path
        )));
    }
    let stem = item
        .path
        .rsplit_once('.')
        .map_or(item.path.as_str(), |p| p.0);
    let target = settings.output.join(format!("{stem}.glb"));
    crate::files::refuse_existing(&target, settings.force).map_err(Failure::Output)?;
    let model = resolver.resolve(item.id).map_err(Failure::Model)?;
    if cache.len() >= CACHE_FILES {
        cache.clear();
    }
    let geometry = cache.load(resolver, &model).map_err(Failure::Model)?;
    // The URIs climb from the GLB's folder to OUTDIR, which holds `textures/`.
    let depth = Path::new(stem)
        .parent()
        .map_or(0, |p| p.components().count());
    let options = ModelGlbOptions {
        texture_uri_prefix: format!("{}textures/", "../".repeat(depth)),
        ..options.clone()
    };
    let glb = model_to_glb_cached(resolver, &model, &geometry, &options, &shared.cache)
        .map_err(Failure::Model)?;
    let write = || -> Result<()> {
        if let Some(dir) = target.parent() {
            std::fs::create_dir_all(dir)
                .with_context(|| format!("cannot create {}", dir.display()))?;
        }
        shared.folder.write(&glb.images, settings.force)?;
        crate::files::write_new(&target, &glb.bytes, settings.force)
    };
    write().map_err(Failure::Output)?;
    Ok((target, glb.warnings))
}

/// What the exports of a batch share: decoded textures, and where external ones go.
struct Shared {
    cache: TextureCache,
    folder: TextureFolder,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn output_names() {
        assert_eq!(glb_name("content/a/B.model"), "B.glb");
        assert_eq!(glb_name("0x00000000000000ff"), "0x00000000000000ff.glb");
    }
}

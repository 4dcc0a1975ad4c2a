//! A material's textures in a GLB, for both model exports (a model from its XML sources, and one
//! from `assets.bin`): each map a material names ([`maps`]: albedo, metallic/gloss, normal,
//! ambient occlusion) read from a resource folder or a game install, at the best tier or mip within
//! a size limit, converted to glTF's meaning, encoded as PNG once per run ([`TextureCache`]), and
//! embedded in the GLB or written beside it ([`GlbTextures`]). Decoding needs the `dds` and `png`
//! features; without them no image is made and the paths stay in the materials' extras.

pub mod maps;

use std::collections::HashMap;
use std::path::Path;
use std::sync::{Arc, OnceLock};

use maps::MapKind;

use crate::gltf::{GlbBuilder, TextureId};

/// Where the textures go.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum TextureMode {
    /// Each material's maps decoded, converted and embedded as PNG (needs the `dds` and `png`
    /// features).
    #[default]
    Embed,
    /// The same PNGs as files beside the GLB ([`TextureImage`]s, for the caller to write), which
    /// the GLB names by relative URI.
    External,
    /// No images: the texture paths stay in the materials' extras.
    None,
}

/// Where the texture files are: a resource folder (holding `content/`, or a mod's copy of `res/`)
/// or a game install's volumes.
#[derive(Debug, Clone, Copy)]
pub enum TextureFiles<'a> {
    /// Paths joined to this folder.
    Folder(&'a Path),
    /// Files read out of the install's volumes.
    #[cfg(feature = "pfs")]
    Install(&'a crate::wows::pfs::GameInstall),
}

/// A texture image for [`TextureMode::External`]: its path ([`image_path`]), to be written
/// under the folder its URI starts from.
#[derive(Debug, Clone)]
pub struct TextureImage {
    /// Where it goes, relative to the URI prefix (the `.dds` path with `.png`).
    pub path: String,
    /// The PNG file.
    pub png: Arc<[u8]>,
}

/// The PNG's path for a texture's map: the `.dds` path with `.png` for the texels as stored,
/// `X.normal.png` or `X.metallic-roughness.png` for converted ones.
pub fn image_path(dds: &str, kind: MapKind) -> String {
    let stem = dds.strip_suffix(".dds").unwrap_or(dds);
    format!("{stem}{}.png", kind.converted_suffix())
}

/// `path` as a relative URI: bytes other than letters, digits, `-._~` and `/` percent-encoded.
fn uri_path(path: &str) -> String {
    let mut uri = String::with_capacity(path.len());
    for byte in path.bytes() {
        if byte.is_ascii_alphanumeric() || b"-._~/".contains(&byte) {
            uri.push(char::from(byte));
        } else {
            uri.push_str(&format!("%{byte:02X}"));
        }
    }
    uri
}

/// What glTF calls the map, for warnings.
fn map_name(kind: MapKind) -> &'static str {
    match kind {
        MapKind::Albedo => "base colour texture",
        MapKind::MetallicGloss => "metallic-roughness texture",
        MapKind::Normal => "normal texture",
        MapKind::AmbientOcclusion => "occlusion texture",
    }
}

/// Textures decoded and converted once for several exports (a batch reading one set of files
/// with one size limit): each `.dds` and map is encoded as PNG once, by whichever export asks
/// first, and shared between threads. The PNGs kept are bounded ([`TextureCache::BUDGET`]
/// bytes): a batch over a whole game would otherwise hold every texture it ever encoded. Past the
/// budget the cache starts afresh; the models of one ship sit next to each other in path order,
/// so what they share is still encoded once.
#[derive(Debug, Default)]
pub struct TextureCache {
    images: std::sync::Mutex<Kept>,
}

/// The PNGs kept and their total size.
#[derive(Debug, Default)]
struct Kept {
    encoded: Encoded,
    bytes: usize,
}

/// A texture's PNG (or why there is none), by `.dds` path, map and size limit: filled once by
/// the first export that asks; one asking while it is encoded waits for it rather than encoding
/// it again.
type Encoded = HashMap<(String, MapKind, Option<u32>), Arc<OnceLock<PngResult>>>;

type PngResult = Result<Arc<[u8]>, String>;

impl TextureCache {
    /// The most bytes of PNG the cache keeps.
    pub const BUDGET: usize = 256 << 20;

    /// `dds` (a resource path) decoded at the best tier or mip within `max` pixels a side,
    /// converted for `kind`, as PNG; or why not.
    pub fn png(
        &self,
        files: TextureFiles<'_>,
        dds: &str,
        kind: MapKind,
        max: Option<u32>,
    ) -> Result<Arc<[u8]>, String> {
        let key = (dds.to_owned(), kind, max);
        let slot = Arc::clone(self.lock().encoded.entry(key.clone()).or_default());
        // Encoded without the cache's lock (other textures encode meanwhile); only an export
        // asking for this same one waits, instead of encoding it a second time.
        let mut encoded_here = false;
        let png = slot.get_or_init(|| {
            encoded_here = true;
            encode(files, dds, kind, max).map(Arc::from)
        });
        if encoded_here {
            let size = png.as_ref().map_or(0, |png| png.len()) + key.0.len();
            let mut kept = self.lock();
            if kept.bytes.saturating_add(size) > Self::BUDGET {
                // Afresh, keeping only this one (the models asking next are likely to share it).
                *kept = Kept::default();
                kept.encoded.insert(key, Arc::clone(&slot));
            }
            kept.bytes += size;
        }
        png.clone()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Kept> {
        // A panic elsewhere cannot leave the map half-written: insertions are single calls.
        self.images
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

#[cfg(all(feature = "dds", feature = "png"))]
fn encode(
    files: TextureFiles<'_>,
    dds: &str,
    kind: MapKind,
    max: Option<u32>,
) -> Result<Vec<u8>, String> {
    if !crate::wows::is_safe_resource_path(dds) {
        return Err("not a path under the resource root".into());
    }
    let (bytes, mip) = match files {
        TextureFiles::Folder(root) => {
            let path = root.join(dds);
            let choice = crate::dds::tiers::choose(&path, max)
                .map_err(|e| e.to_string())?
                .ok_or_else(|| format!("missing (looked for {})", path.display()))?;
            let file = crate::MappedFile::open(&choice.tier.path).map_err(|e| e.to_string())?;
            (Bytes::Mapped(file), choice.mip)
        }
        #[cfg(feature = "pfs")]
        TextureFiles::Install(install) => {
            let (bytes, mip) = install_tier(install, dds, max)?;
            (Bytes::Read(bytes), mip)
        }
    };
    let texture = crate::dds::DdsView::from_bytes(bytes.get()).map_err(|e| e.to_string())?;
    let level = texture
        .level(0, mip)
        .ok_or_else(|| format!("no mip {mip}"))?;
    let len = level
        .rgba8_len()
        .ok_or("the decoded level does not fit in memory")?;
    let height = level
        .height
        .checked_mul(level.depth)
        .ok_or("the level is too large for PNG")?;
    let mut pixels = vec![0; len];
    level.decode_rgba8(&mut pixels).map_err(|e| e.to_string())?;
    kind.convert(&mut pixels);
    let mut png = Vec::new();
    crate::dds::export::png::write_rgba8(level.width, height, &pixels, &mut png)
        .map_err(|e| e.to_string())?;
    Ok(png)
}

#[cfg(not(all(feature = "dds", feature = "png")))]
fn encode(_: TextureFiles<'_>, _: &str, _: MapKind, _: Option<u32>) -> Result<Vec<u8>, String> {
    Err("gamebin was built without the dds and png features".into())
}

/// A texture file's bytes: mapped from a folder, or read out of an install.
#[cfg(all(feature = "dds", feature = "png"))]
enum Bytes {
    Mapped(crate::MappedFile),
    #[cfg(feature = "pfs")]
    Read(Vec<u8>),
}

#[cfg(all(feature = "dds", feature = "png"))]
impl Bytes {
    fn get(&self) -> &[u8] {
        match self {
            Bytes::Mapped(file) => file.bytes(),
            #[cfg(feature = "pfs")]
            Bytes::Read(bytes) => bytes,
        }
    }
}

/// The best file of the texture `dds` in `install` within `max` pixels a side, as
/// [`tiers::choose`](crate::dds::tiers::choose) picks it from a folder: the largest tier that
/// fits, or the mip of the smallest file that does. Each tier is inflated to be read, so without
/// a limit the largest is read alone; with one, they are read from the smallest up until one is
/// too large (at most one file read in vain, where reading down from a 4096-pixel `.dd0` would
/// inflate every tier above the limit).
#[cfg(all(feature = "dds", feature = "png", feature = "pfs"))]
fn install_tier(
    install: &crate::wows::pfs::GameInstall,
    dds: &str,
    max: Option<u32>,
) -> Result<(Vec<u8>, u32), String> {
    use crate::dds::tiers::TIER_EXTENSIONS;
    let stem = dds.strip_suffix(".dds").unwrap_or(dds);
    let mut reader = crate::wows::pfs::BlobReader::default();
    let mut read = |extension: &str| -> Result<Option<(Vec<u8>, u32)>, String> {
        let path = format!("{stem}.{extension}");
        let Some(bytes) = install
            .read_to_vec(&path, &mut reader)
            .map_err(|e| format!("{path}: {e}"))?
        else {
            return Ok(None);
        };
        let view = crate::dds::DdsView::from_bytes(&bytes).map_err(|e| format!("{path}: {e}"))?;
        let side = view.width().max(view.height());
        Ok(Some((bytes, side)))
    };
    let missing = || format!("no such file in the install (nor a tier of it: {stem}.dd0…)");
    let Some(limit) = max else {
        for extension in TIER_EXTENSIONS {
            if let Some((bytes, _)) = read(extension)? {
                return Ok((bytes, 0));
            }
        }
        return Err(missing());
    };
    let mut best = None;
    for extension in TIER_EXTENSIONS.into_iter().rev() {
        let Some((bytes, side)) = read(extension)? else {
            continue;
        };
        if side <= limit {
            best = Some((bytes, 0));
            continue;
        }
        if best.is_none() {
            // Even the smallest file is too large: a mip of it.
            let view = crate::dds::DdsView::from_bytes(&bytes).map_err(|e| e.to_string())?;
            let mip = view.mip_within(limit);
            return Ok((bytes, mip));
        }
        break;
    }
    best.ok_or_else(missing)
}

/// The textures of one GLB: each `.dds` and map added once (from the [`TextureCache`] shared by
/// the run), embedded or named by URI, with the images to write and the warnings for textures
/// that could not be read.
#[derive(Debug)]
pub struct GlbTextures<'x> {
    files: TextureFiles<'x>,
    cache: &'x TextureCache,
    mode: TextureMode,
    max: Option<u32>,
    uri_prefix: &'x str,
    added: HashMap<(String, MapKind), Option<TextureId>>,
    /// Textures added to the GLB.
    pub count: usize,
    /// With [`TextureMode::External`], the images the GLB names.
    pub images: Vec<TextureImage>,
    /// One line per texture left out (missing or unreadable).
    pub warnings: Vec<String>,
}

impl<'x> GlbTextures<'x> {
    /// Textures from `files` through `cache`, `mode` and at most `max` pixels a side; external
    /// images named `uri_prefix` + their path.
    pub fn new(
        files: TextureFiles<'x>,
        cache: &'x TextureCache,
        mode: TextureMode,
        max: Option<u32>,
        uri_prefix: &'x str,
    ) -> Self {
        GlbTextures {
            files,
            cache,
            mode,
            max,
            uri_prefix,
            added: HashMap::new(),
            count: 0,
            images: Vec::new(),
            warnings: Vec::new(),
        }
    }

    /// Where the textures go.
    pub fn mode(&self) -> TextureMode {
        self.mode
    }

    /// Records a texture left out for a reason found by the caller.
    pub fn warn(&mut self, line: String) {
        if self.mode != TextureMode::None && cfg!(all(feature = "dds", feature = "png")) {
            self.warnings.push(line);
        }
    }

    /// The texture of `dds` as map `kind` in `builder`, added the first time; `None` when
    /// textures are not wanted or it cannot be read (a warning, once).
    pub fn texture(
        &mut self,
        builder: &mut GlbBuilder,
        dds: &str,
        kind: MapKind,
    ) -> Option<TextureId> {
        if self.mode == TextureMode::None || !cfg!(all(feature = "dds", feature = "png")) {
            return None;
        }
        let key = (dds.to_owned(), kind);
        if let Some(&known) = self.added.get(&key) {
            return known;
        }
        let texture = match self.cache.png(self.files, dds, kind, self.max) {
            Ok(png) => {
                self.count += 1;
                let name = image_path(dds, kind);
                Some(match self.mode {
                    TextureMode::External => {
                        let uri = format!("{}{}", self.uri_prefix, uri_path(&name));
                        let texture = builder.add_uri_texture(&name, &uri);
                        self.images.push(TextureImage { path: name, png });
                        texture
                    }
                    _ => builder.add_png_texture(&name, &png),
                })
            }
            Err(why) => {
                self.warnings.push(format!(
                    "texture {dds} ({}): {why}; the material has no {}",
                    kind.property(),
                    map_name(kind)
                ));
                None
            }
        };
        self.added.insert(key, texture);
        texture
    }
}

#[cfg(all(test, feature = "dds", feature = "png", feature = "synth"))]
mod tests {
    use super::*;

    #[test]
    fn a_texture_asked_for_at_once_by_several_exports_is_encoded_once() {
        let dir =
            std::env::temp_dir().join(format!("gamebin-texture-cache-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("content")).unwrap();
        std::fs::write(
            dir.join("content/hull_a.dds"),
            crate::synth::dds::example_file(),
        )
        .unwrap();
        let cache = TextureCache::default();
        let start = std::sync::Barrier::new(8);
        let pngs: Vec<Arc<[u8]>> = std::thread::scope(|s| {
            let asks: Vec<_> = (0..8)
                .map(|_| {
                    s.spawn(|| {
                        start.wait();
                        let files = TextureFiles::Folder(&dir);
                        cache.png(files, "content/hull_a.dds", MapKind::Albedo, None)
                    })
                })
                .collect();
            asks.into_iter()
                .map(|ask| ask.join().unwrap().unwrap())
                .collect()
        });
        std::fs::remove_dir_all(&dir).unwrap();
        assert!(pngs[0].starts_with(b"\x89PNG"));
        // One encode: every export holds the very same PNG, not an equal copy of its own.
        assert!(pngs.iter().all(|png| Arc::ptr_eq(png, &pngs[0])));
        let kept = cache.lock();
        assert_eq!(kept.encoded.len(), 1);
        assert_eq!(kept.bytes, pngs[0].len() + "content/hull_a.dds".len());
    }
}

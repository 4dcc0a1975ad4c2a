//! GLB export of a model read from its sources ([`SourceModel`], feature `gltf`): one scene per
//! level of detail exported, each with the visual's node tree and its transforms, and per render
//! set a node showing its mesh, found in the `.geometry` by the MurmurHash3 ids of its mapping
//! names (a child of the first node the render set is bound to, or, for a skinned mesh, a scene
//! root with a skin over the render set's nodes). Materials are named by their `.mfm` path, their
//! properties in the material's extras; with the `dds` and `png` features their albedo, metallic/
//! gloss, normal and ambient occlusion maps become glTF's base colour, metallic-roughness, normal
//! and occlusion textures, converted as [`maps`](super::maps) says, as PNG embedded in the GLB or
//! written beside it. Coordinates are converted as in every gamebin export (X mirrored, triangles
//! rewound).

use std::collections::HashMap;
use std::path::Path;
#[cfg(all(feature = "dds", feature = "png"))]
use std::sync::Arc;

use gltf_json as json;

use super::maps::MapKind;
use super::{Material, PropertyValue, SourceError, SourceModel};
use crate::MappedFile;
use crate::wows::axes::right_handed_matrix;
#[cfg(all(feature = "dds", feature = "png"))]
use crate::wows::geometry::export::gltf::TextureId;
use crate::wows::geometry::export::gltf::{
    GlbBuilder, MaterialId, MeshId, NodeId, NodeSpec, PbrMaterial,
};
use crate::wows::geometry::{DecodedGeometry, GeometryView};
use crate::wows::is_safe_resource_path;

/// Where the textures go.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum TextureMode {
    /// Each material's maps decoded, converted and embedded as PNG (needs the `dds` and `png`
    /// features).
    #[default]
    Embed,
    /// The same PNGs as files beside the GLB ([`SourceGlb::images`], for the caller to write),
    /// which the GLB names by relative URI.
    External,
    /// No images: the texture paths stay in the materials' extras.
    None,
}

/// What [`source_model_to_glb`] exports.
#[derive(Debug, Clone)]
pub struct SourceGlbOptions {
    /// One level of detail by index (`Some(0)`: the finest), or every one as its own scene.
    pub lod: Option<usize>,
    /// Textures embedded, external or left out.
    pub textures: TextureMode,
    /// The largest side of a texture in pixels (the largest tier or mip within it).
    pub max_texture: Option<u32>,
    /// With [`TextureMode::External`]: what comes before an image's path in its URI, relative to
    /// the GLB (`textures/` by default: the images in a folder beside it).
    pub texture_uri_prefix: String,
}

impl Default for SourceGlbOptions {
    fn default() -> Self {
        SourceGlbOptions {
            lod: None,
            textures: TextureMode::default(),
            max_texture: None,
            texture_uri_prefix: "textures/".to_owned(),
        }
    }
}

/// A texture image for [`TextureMode::External`]: its path (the `.dds` path under the resource
/// root with `.png`, see [`image_path`]), to be written under the folder the URIs start from.
#[derive(Debug, Clone)]
pub struct SourceImage {
    /// Where it goes, relative to [`SourceGlbOptions::texture_uri_prefix`].
    pub path: String,
    /// The PNG file.
    pub png: std::sync::Arc<[u8]>,
}

/// A model's GLB and what it holds.
#[derive(Debug, Clone, Default)]
pub struct SourceGlb {
    /// The file.
    pub bytes: Vec<u8>,
    /// Scenes (one per LOD exported).
    pub scenes: usize,
    /// Meshes (one per render set, shared by the scenes).
    pub meshes: usize,
    /// Materials.
    pub materials: usize,
    /// Textures (embedded or external).
    pub textures: usize,
    /// With [`TextureMode::External`], the images the GLB names, for the caller to write.
    pub images: Vec<SourceImage>,
    /// Skins.
    pub skins: usize,
    /// What was left out, one line each (a texture file missing or unreadable): the model is
    /// still exported.
    pub warnings: Vec<String>,
}

/// A render set's transform rows as glTF's column-major matrix: BigWorld's rows act on row
/// vectors (row 3 is the translation), which is the column-major layout of the same transform
/// acting on column vectors.
fn matrix(rows: &[[f32; 4]; 4]) -> [f32; 16] {
    let mut out = [0.0; 16];
    for (i, row) in rows.iter().enumerate() {
        out[i * 4..i * 4 + 4].copy_from_slice(row);
    }
    out
}

/// Exports `model` (read by [`resolve`](super::resolve) under `root`) as one GLB.
pub fn source_model_to_glb(
    root: &Path,
    model: &SourceModel,
    options: &SourceGlbOptions,
) -> Result<SourceGlb, SourceError> {
    source_model_to_glb_cached(root, model, options, &TextureCache::default())
}

/// [`source_model_to_glb`] with textures shared through `cache` by the exports of a batch (every
/// one under the same `root`).
pub fn source_model_to_glb_cached(
    root: &Path,
    model: &SourceModel,
    options: &SourceGlbOptions,
    cache: &TextureCache,
) -> Result<SourceGlb, SourceError> {
    let Some((top, _)) = model.visuals.first() else {
        return Err(SourceError::new(
            &model.model,
            "",
            0,
            "the model has no visual",
        ));
    };
    let at_top = |why: String| SourceError::new(top, "", 0, why);
    if !is_safe_resource_path(&model.geometry) {
        return Err(at_top(format!(
            "{:?} is not a path under the resource root",
            model.geometry
        )));
    }
    let path = root.join(&model.geometry);
    let file = MappedFile::open(&path).map_err(|e| {
        at_top(format!(
            "its geometry {} cannot be read (looked for {}): {e}",
            model.geometry,
            path.display()
        ))
    })?;
    let view = GeometryView::from_bytes(file.bytes())
        .map_err(|e| SourceError::new(&model.geometry, "", 0, e.to_string()))?;
    let mut decoded = DecodedGeometry::new();
    decoded.decode(&view);
    let lods: Vec<usize> = match options.lod {
        Some(i) if i < model.lods.len() => vec![i],
        Some(i) => {
            return Err(SourceError::new(
                &model.model,
                "",
                0,
                format!("no LOD {i}: the model has {}", model.lods.len()),
            ));
        }
        None => (0..model.lods.len()).collect(),
    };
    let name = model
        .model
        .rsplit(['/', '\\'])
        .next()
        .unwrap_or_default()
        .trim_end_matches(".model")
        .to_owned();
    let mut export = Export {
        root,
        model,
        options,
        view: &view,
        decoded: &decoded,
        builder: GlbBuilder::new(),
        meshes: HashMap::new(),
        materials: HashMap::new(),
        #[cfg(all(feature = "dds", feature = "png"))]
        textures: HashMap::new(),
        cache,
        out: SourceGlb::default(),
    };
    for &i in &lods {
        let scene = match options.lod {
            Some(_) => name.clone(),
            None => format!("{name} LOD{i}"),
        };
        export.scene(&scene, i)?;
    }
    let Export {
        builder, mut out, ..
    } = export;
    out.bytes = builder.finish().map_err(|e| at_top(e.to_string()))?;
    Ok(out)
}

struct Export<'x> {
    root: &'x Path,
    model: &'x SourceModel,
    options: &'x SourceGlbOptions,
    view: &'x GeometryView<'x>,
    decoded: &'x DecodedGeometry,
    builder: GlbBuilder,
    /// (visual, render set) → its mesh and largest joint.
    meshes: HashMap<(usize, usize), (MeshId, Option<u8>)>,
    /// `.mfm` path → material.
    materials: HashMap<String, MaterialId>,
    /// (`.dds` path, map) → texture (`None`: missing or unreadable, warned once).
    #[cfg(all(feature = "dds", feature = "png"))]
    textures: HashMap<(String, MapKind), Option<TextureId>>,
    #[cfg_attr(not(all(feature = "dds", feature = "png")), allow(dead_code))]
    cache: &'x TextureCache,
    out: SourceGlb,
}

impl Export<'_> {
    fn scene(&mut self, name: &str, lod_index: usize) -> Result<(), SourceError> {
        // A `SourceModel` is plain data a caller may build: its indices are checked, not trusted.
        let unknown = |what: String| SourceError::new(&self.model.model, "", 0, what);
        let lod = self
            .model
            .lods
            .get(lod_index)
            .ok_or_else(|| unknown(format!("no LOD {lod_index}")))?;
        let (visual_path, visual) = self.model.visuals.get(lod.visual).ok_or_else(|| {
            unknown(format!(
                "LOD {lod_index} names visual {}, which the model does not hold",
                lod.visual
            ))
        })?;
        let scene = self.builder.add_scene(name);
        self.out.scenes += 1;
        let ids: Vec<NodeId> = visual
            .nodes
            .iter()
            .map(|node| {
                self.builder.add_node(&NodeSpec {
                    name: Some(&node.identifier),
                    matrix: Some(right_handed_matrix(matrix(&node.transform))),
                    ..Default::default()
                })
            })
            .collect();
        for (node, &id) in visual.nodes.iter().zip(&ids) {
            match node.parent.and_then(|p| ids.get(p)) {
                Some(&parent) => self.builder.add_child(parent, id),
                None => self.builder.add_to_scene(scene, id),
            }
        }
        for &s in &lod.render_sets {
            let set = visual.render_sets.get(s).ok_or_else(|| {
                SourceError::new(
                    visual_path,
                    "",
                    0,
                    format!("LOD {lod_index} draws render set {s}, which the visual does not have"),
                )
            })?;
            let set_name = set
                .name
                .clone()
                .unwrap_or_else(|| set.vertices.trim_end_matches(".vertices").to_owned());
            let fail = |why: String| {
                SourceError::new(
                    visual_path,
                    "renderSet",
                    0,
                    format!("render set {set_name:?}: {why}"),
                )
            };
            let (mesh, max_joint) = match self.meshes.get(&(lod.visual, s)) {
                Some(&mesh) => mesh,
                None => {
                    let material = match set.materials.first() {
                        Some(m) => Some(self.material(&m.mfm)?),
                        None => None,
                    };
                    let draw = self
                        .view
                        .draw_by_ids(set.vertices_id, set.indices_id)
                        .ok_or_else(|| {
                            fail(format!(
                                "its mappings {} ({:#010x}) and {} ({:#010x}) are not both in {}",
                                set.vertices,
                                set.vertices_id,
                                set.indices,
                                set.indices_id,
                                self.model.geometry
                            ))
                        })?;
                    let data = self
                        .decoded
                        .draw_data(&draw)
                        .map_err(|e| fail(e.to_string()))?;
                    let added = self
                        .builder
                        .add_draw(&set_name, &data, material)
                        .map_err(|e| fail(e.to_string()))?;
                    self.out.meshes += 1;
                    let mesh = (added.mesh, added.max_joint);
                    self.meshes.insert((lod.visual, s), mesh);
                    mesh
                }
            };
            let attached: Vec<NodeId> = set
                .nodes
                .iter()
                .map(|node| {
                    visual
                        .node(node)
                        .and_then(|i| ids.get(i).copied())
                        .ok_or_else(|| {
                            fail(format!(
                                "it is bound to node {node:?}, which the visual does not have"
                            ))
                        })
                })
                .collect::<Result<_, _>>()?;
            let skinned = self
                .builder
                .place_mesh(scene, &set_name, mesh, max_joint, &attached, &ids)
                .map_err(|e| {
                    fail(format!(
                        "its vertices name joint {} of {} nodes",
                        e.joint, e.joints
                    ))
                })?;
            self.out.skins += usize::from(skinned);
        }
        Ok(())
    }

    /// The material of `mfm`, added the first time it is asked for.
    fn material(&mut self, mfm: &str) -> Result<MaterialId, SourceError> {
        if let Some(&material) = self.materials.get(mfm) {
            return Ok(material);
        }
        let source = self.model.material(mfm).ok_or_else(|| {
            SourceError::new(
                &self.model.model,
                "",
                0,
                format!("material {mfm} was not read"),
            )
        })?;
        let mut pbr = drawing(source);
        #[cfg(all(feature = "dds", feature = "png"))]
        for kind in MapKind::ALL {
            let texture = self.texture(source, kind);
            match kind {
                MapKind::Albedo => pbr.base_color = texture,
                MapKind::MetallicGloss => pbr.metallic_roughness = texture,
                MapKind::Normal => pbr.normal = texture,
                MapKind::AmbientOcclusion => pbr.occlusion = texture,
            }
        }
        let material = self.builder.add_pbr_material(mfm, extras(source), &pbr);
        self.out.materials += 1;
        self.materials.insert(mfm.to_owned(), material);
        Ok(material)
    }

    /// The texture of the material's map `kind`, converted to glTF's meaning, added once per
    /// `.dds` and map; `None` when the material names none, textures are not wanted, or it cannot
    /// be read (a warning).
    #[cfg(all(feature = "dds", feature = "png"))]
    fn texture(&mut self, material: &Material, kind: MapKind) -> Option<TextureId> {
        if self.options.textures == TextureMode::None {
            return None;
        }
        let dds = material.properties.iter().find_map(|p| match &p.value {
            PropertyValue::Texture { dds, .. } if p.name == kind.property() => Some(dds),
            _ => None,
        })?;
        let key = (dds.clone(), kind);
        if let Some(&known) = self.textures.get(&key) {
            return known;
        }
        let texture = match self
            .cache
            .png(self.root, dds, kind, self.options.max_texture)
        {
            Ok(png) => {
                self.out.textures += 1;
                let name = image_path(dds, kind);
                Some(match self.options.textures {
                    TextureMode::External => {
                        let uri = format!("{}{}", self.options.texture_uri_prefix, uri_path(&name));
                        let texture = self.builder.add_uri_texture(&name, &uri);
                        self.out.images.push(SourceImage { path: name, png });
                        texture
                    }
                    _ => self.builder.add_png_texture(&name, &png),
                })
            }
            Err(why) => {
                self.out.warnings.push(format!(
                    "texture {dds} ({}): {why}; the material has no {}",
                    kind.property(),
                    map_name(kind)
                ));
                None
            }
        };
        self.textures.insert(key, texture);
        texture
    }
}

/// What glTF calls the map, for warnings.
#[cfg(all(feature = "dds", feature = "png"))]
fn map_name(kind: MapKind) -> &'static str {
    match kind {
        MapKind::Albedo => "base colour texture",
        MapKind::MetallicGloss => "metallic-roughness texture",
        MapKind::Normal => "normal texture",
        MapKind::AmbientOcclusion => "occlusion texture",
    }
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

/// How the material is drawn, from its `doubleSided`, `alphaTestEnable` and `alphaReference`
/// (0–255, BigWorld's alpha-test reference) properties.
fn drawing(material: &Material) -> PbrMaterial {
    let value = |name: &str| {
        material
            .properties
            .iter()
            .find(|p| p.name == name)
            .map(|p| &p.value)
    };
    let alpha_test = matches!(value("alphaTestEnable"), Some(PropertyValue::Bool(true)));
    let reference = match value("alphaReference") {
        Some(PropertyValue::Int(i)) => (*i).clamp(0, 255) as f32 / 255.0,
        Some(PropertyValue::Float(f)) if f.is_finite() => f.clamp(0.0, 255.0) / 255.0,
        _ => 0.5,
    };
    PbrMaterial {
        double_sided: matches!(value("doubleSided"), Some(PropertyValue::Bool(true))),
        alpha_cutoff: alpha_test.then_some(reference),
        ..Default::default()
    }
}

/// Textures decoded and converted once for several exports (a batch under one resource root and
/// one `max_texture`): each `.dds` and map is encoded as PNG once, by whichever export asks
/// first, and shared.
#[derive(Debug, Default)]
pub struct TextureCache {
    #[cfg(all(feature = "dds", feature = "png"))]
    images: std::sync::Mutex<Encoded>,
}

/// A texture's PNG (or why there is none), by `.dds` path, map and size limit.
#[cfg(all(feature = "dds", feature = "png"))]
type Encoded = HashMap<(String, MapKind, Option<u32>), PngResult>;

#[cfg(all(feature = "dds", feature = "png"))]
type PngResult = Result<Arc<[u8]>, String>;

#[cfg(all(feature = "dds", feature = "png"))]
impl TextureCache {
    /// `dds` (res-relative) decoded at the best tier or mip within the size limit, converted for
    /// `kind`, as PNG.
    fn png(&self, root: &Path, dds: &str, kind: MapKind, max: Option<u32>) -> PngResult {
        let key = (dds.to_owned(), kind, max);
        if let Some(known) = self.lock().get(&key) {
            return known.clone();
        }
        // Encoded without the lock: two exports asking at once both encode, neither waits.
        let png = encode(root, dds, kind, max).map(Arc::from);
        self.lock().insert(key, png.clone());
        png
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Encoded> {
        // A panic elsewhere cannot leave the map half-written: insertions are single calls.
        self.images
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

#[cfg(all(feature = "dds", feature = "png"))]
fn encode(root: &Path, dds: &str, kind: MapKind, max: Option<u32>) -> Result<Vec<u8>, String> {
    if !is_safe_resource_path(dds) {
        return Err("not a path under the resource root".into());
    }
    let path = root.join(dds);
    let choice = crate::dds::tiers::choose(&path, max)
        .map_err(|e| e.to_string())?
        .ok_or_else(|| format!("missing (looked for {})", path.display()))?;
    let file = MappedFile::open(&choice.tier.path).map_err(|e| e.to_string())?;
    let texture = crate::dds::DdsView::from_bytes(file.bytes()).map_err(|e| e.to_string())?;
    let level = texture
        .level(0, choice.mip)
        .ok_or_else(|| format!("no mip {}", choice.mip))?;
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
    crate::dds::png::write_rgba8(level.width, height, &pixels, &mut png)
        .map_err(|e| e.to_string())?;
    Ok(png)
}

/// The material's properties as one JSON object: name → value (booleans, numbers, arrays for
/// vectors, the texture's stored path), and its shader as `fx`.
fn extras(material: &Material) -> Option<String> {
    let mut object = json::Value::Object(Default::default());
    let json::Value::Object(map) = &mut object else {
        return None;
    };
    if let Some(fx) = &material.fx {
        map.insert("fx".to_owned(), json::Value::from(fx.as_str()));
    }
    for property in &material.properties {
        let value = match &property.value {
            PropertyValue::Bool(b) => json::Value::from(*b),
            PropertyValue::Int(i) => json::Value::from(*i),
            PropertyValue::Float(f) => json::Value::from(f64::from(*f)),
            PropertyValue::Vector4(v) => {
                json::Value::Array(v.iter().map(|f| json::Value::from(f64::from(*f))).collect())
            }
            PropertyValue::Texture { stored, .. } => json::Value::from(stored.as_str()),
        };
        map.insert(property.name.clone(), value);
    }
    if map.is_empty() {
        return None;
    }
    json::serialize::to_string(&object).ok()
}

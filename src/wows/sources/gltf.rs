//! GLB export of a model read from its sources ([`SourceModel`], feature `gltf`), through the scene
//! export both model pipelines share ([`crate::wows::scene`]): one scene per
//! level of detail exported, each with the visual's node tree and its transforms, and per render
//! set a node showing its mesh, found in the `.geometry` by the MurmurHash3 ids of its mapping
//! names (a child of the first node the render set is bound to, or, for a skinned mesh, a scene
//! root with a skin over the render set's nodes). Materials are named by their `.mfm` path, their
//! properties in the material's extras; with the `dds` and `png` features their albedo, metallic/
//! gloss, normal and ambient occlusion maps become glTF's base colour, metallic-roughness, normal
//! and occlusion textures, converted as [`maps`](crate::wows::textures::maps) says, as PNG embedded in the GLB or
//! written beside it. Coordinates are converted as in every gamebin export (X mirrored, triangles
//! rewound).

use std::path::Path;

use gltf_json as json;

use super::{
    Material, PropertyValue, SourceError, SourceLod, SourceModel, VisualFile, VisualRenderSet,
};
use crate::MappedFile;
use crate::gltf::{GlbBuilder, HierarchyNode, PbrMaterial};
use crate::wows::geometry::DrawData;
use crate::wows::geometry::{DecodedGeometry, GeometryView};
use crate::wows::is_safe_resource_path;
use crate::wows::scene::{SceneFailure, SceneMaterial, SceneSource, add_scenes};
use crate::wows::textures::{GlbTextures, TextureFiles, maps::MapKind};
use crate::wows::textures::{TextureCache, TextureImage, TextureMode};

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
    pub images: Vec<TextureImage>,
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
    let scenes: Vec<(usize, String)> = lods
        .iter()
        .map(|&i| match options.lod {
            Some(_) => (i, name.clone()),
            None => (i, format!("{name} LOD{i}")),
        })
        .collect();
    let mut first_set = Vec::with_capacity(model.visuals.len());
    let mut sets = Vec::new();
    for (v, (_, visual)) in model.visuals.iter().enumerate() {
        first_set.push(sets.len());
        sets.extend((0..visual.render_sets.len()).map(|s| (v, s)));
    }
    let source = Source {
        model,
        view: &view,
        decoded: &decoded,
        first_set,
        sets,
    };
    let mut builder = GlbBuilder::new();
    let mut textures = GlbTextures::new(
        TextureFiles::Folder(root),
        cache,
        options.textures,
        options.max_texture,
        &options.texture_uri_prefix,
    );
    let counts = add_scenes(&mut builder, &mut textures, &source, &scenes)?;
    Ok(SourceGlb {
        bytes: builder.finish().map_err(|e| at_top(e.to_string()))?,
        scenes: counts.scenes,
        meshes: counts.meshes,
        materials: counts.materials,
        textures: textures.count,
        images: textures.images,
        skins: counts.skins,
        warnings: textures.warnings,
    })
}

/// A [`SourceModel`] as the scene export asks for it. Render sets are keyed by their position in
/// `sets`: every visual's, in order. A `SourceModel` is plain data a caller may build: its
/// indices are checked, not trusted.
struct Source<'x> {
    model: &'x SourceModel,
    view: &'x GeometryView<'x>,
    decoded: &'x DecodedGeometry,
    /// Visual → the key of its first render set.
    first_set: Vec<usize>,
    /// Key → (visual, render set).
    sets: Vec<(usize, usize)>,
}

impl Source<'_> {
    fn lod(&self, lod: usize) -> Result<(&SourceLod, &str, &VisualFile), SourceError> {
        let unknown = |what: String| SourceError::new(&self.model.model, "", 0, what);
        let entry = self
            .model
            .lods
            .get(lod)
            .ok_or_else(|| unknown(format!("no LOD {lod}")))?;
        let (path, visual) = self.model.visuals.get(entry.visual).ok_or_else(|| {
            unknown(format!(
                "LOD {lod} names visual {}, which the model does not hold",
                entry.visual
            ))
        })?;
        Ok((entry, path, visual))
    }

    /// The render set of `key`, its visual's path and the visual.
    fn set(&self, key: usize) -> Result<(&VisualRenderSet, &str, &VisualFile), SourceError> {
        // Keys come from `sets`, built from the visuals themselves; checked all the same.
        let (v, s) = self.sets.get(key).copied().unwrap_or((usize::MAX, 0));
        self.model
            .visuals
            .get(v)
            .and_then(|(path, visual)| Some((visual.render_sets.get(s)?, path.as_str(), visual)))
            .ok_or_else(|| {
                SourceError::new(&self.model.model, "", 0, format!("no render set {key}"))
            })
    }

    /// An error about the render set of `key`.
    fn fail_set(&self, key: usize, why: String) -> SourceError {
        let path = self
            .set(key)
            .map_or(self.model.model.as_str(), |(_, path, _)| path);
        SourceError::new(
            path,
            "renderSet",
            0,
            format!("render set {:?}: {why}", self.render_set_name(key)),
        )
    }
}

impl SceneSource for Source<'_> {
    type Error = SourceError;

    fn hierarchy(&self, lod: usize) -> Result<Vec<HierarchyNode<'_>>, SourceError> {
        let (_, _, visual) = self.lod(lod)?;
        Ok(visual
            .nodes
            .iter()
            .map(|node| HierarchyNode {
                name: Some(&node.identifier),
                matrix: matrix(&node.transform),
                parent: node.parent,
            })
            .collect())
    }

    fn render_sets(&self, lod: usize) -> Result<Vec<usize>, SourceError> {
        let (entry, path, visual) = self.lod(lod)?;
        let first = self.first_set.get(entry.visual).copied().unwrap_or(0);
        entry
            .render_sets
            .iter()
            .map(|&s| {
                if s < visual.render_sets.len() {
                    Ok(first + s)
                } else {
                    Err(SourceError::new(
                        path,
                        "",
                        0,
                        format!("LOD {lod} draws render set {s}, which the visual does not have"),
                    ))
                }
            })
            .collect()
    }

    fn render_set_name(&self, key: usize) -> String {
        let Ok((set, _, _)) = self.set(key) else {
            return format!("render set {key}");
        };
        set.name
            .clone()
            .unwrap_or_else(|| set.vertices.trim_end_matches(".vertices").to_owned())
    }

    fn attached(&self, _: usize, key: usize) -> Result<Vec<usize>, SourceError> {
        let (set, _, visual) = self.set(key)?;
        set.nodes
            .iter()
            .map(|node| {
                visual.node(node).ok_or_else(|| {
                    self.fail_set(
                        key,
                        format!("it is bound to node {node:?}, which the visual does not have"),
                    )
                })
            })
            .collect()
    }

    fn material_key(&self, key: usize) -> Result<Option<String>, SourceError> {
        let (set, _, _) = self.set(key)?;
        Ok(set.materials.first().map(|m| m.mfm.clone()))
    }

    fn material(&self, _: usize, mfm: &str) -> Result<SceneMaterial, SourceError> {
        let source = self.model.material(mfm).ok_or_else(|| {
            SourceError::new(
                &self.model.model,
                "",
                0,
                format!("material {mfm} was not read"),
            )
        })?;
        let maps = MapKind::ALL
            .into_iter()
            .filter_map(|kind| {
                source.properties.iter().find_map(|p| match &p.value {
                    PropertyValue::Texture { dds, .. } if p.name == kind.property() => {
                        Some((kind, dds.clone()))
                    }
                    _ => None,
                })
            })
            .collect();
        Ok(SceneMaterial {
            name: mfm.to_owned(),
            extras: extras(source),
            drawing: drawing(source),
            maps,
            unresolved: Vec::new(),
        })
    }

    fn draw(&self, key: usize) -> Result<DrawData<'_>, SourceError> {
        let (set, _, _) = self.set(key)?;
        let draw = self
            .view
            .draw_by_ids(set.vertices_id, set.indices_id)
            .ok_or_else(|| {
                self.fail_set(
                    key,
                    format!(
                        "its mappings {} ({:#010x}) and {} ({:#010x}) are not both in {}",
                        set.vertices,
                        set.vertices_id,
                        set.indices,
                        set.indices_id,
                        self.model.geometry
                    ),
                )
            })?;
        self.decoded
            .draw_data(&draw)
            .map_err(|e| self.fail_set(key, e.to_string()))
    }

    fn fail(&self, key: usize, failure: SceneFailure) -> SourceError {
        let why = match failure {
            SceneFailure::Export(e) => e.to_string(),
            SceneFailure::Joint(e) => {
                format!("its vertices name joint {} of {} nodes", e.joint, e.joints)
            }
        };
        self.fail_set(key, why)
    }
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

//! GLB export of a resolved model ([`ResolvedModel`]), through [`GlbBuilder`] (feature `gltf`) and
//! the scene export both model pipelines share ([`crate::wows::scene`]).
//!
//! One scene per level of detail exported (the one chosen, LOD 0 by default, or all of them),
//! each holding the visual's node hierarchy with its matrices and, per render set of that LOD, a
//! node named after the render set showing its mesh: a child of the first node the render set is
//! attached to, or, for a skinned mesh, a scene root with a skin over the render set's nodes (all
//! the visual's nodes when it names none). Meshes and materials are shared between scenes.
//! Materials are named by their `.mfm` path; their scalar and vector properties (and textures, by
//! path) are the material's extras, and their albedo, metallic/gloss, normal and ambient occlusion
//! maps become glTF's textures as for a model from its sources ([`textures`](crate::wows::textures):
//! read under the resource root, or out of the install the resolver reads), embedded or beside the
//! GLB. Coordinates are converted once, as in the `.geometry` export:
//! positions by [`add_draw`](crate::wows::geometry::export::gltf::add_draw), node matrices by
//! [`right_handed_matrix`](crate::wows::axes::right_handed_matrix) (in
//! [`add_scenes`]).
//!
//! ```
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! # let root = gamebin::synth::model_world::example_root()?;
//! # let file = std::fs::read(root.join("assets.bin"))?;
//! use gamebin::wows::resolve::gltf::{ModelGlbOptions, model_to_glb};
//! use gamebin::wows::assets::AssetsDb;
//! use gamebin::wows::resolve::{GeometryCache, ModelResolver};
//!
//! let resolver = ModelResolver::new(AssetsDb::from_bytes(&file)?, &root);
//! let mut cache = GeometryCache::new();
//! let model = resolver.resolve_path("content/gameplay/Test.model")?;
//! let geometry = cache.load(&resolver, &model)?;
//! let glb = model_to_glb(&resolver, &model, &geometry, &ModelGlbOptions::default())?;
//! assert_eq!(&glb.bytes[..4], b"glTF");
//! # std::fs::remove_dir_all(&root)?;
//! # Ok(())
//! # }
//! ```

use std::collections::HashMap;

use gltf_json as json;

use crate::gltf::{GlbBuilder, HierarchyNode};
use crate::wows::assets::MaterialValue;
use crate::wows::dds_path;
use crate::wows::geometry::DrawData;
use crate::wows::resolve::{
    LoadedGeometry, Missing, ModelNode, ModelResolver, ResolveError, ResolvedModel,
    ResolvedRenderSet,
};
use crate::wows::scene::{SceneFailure, SceneMaterial, SceneSource, add_scenes};
use crate::wows::textures::{GlbTextures, TextureFiles, maps::MapKind};
use crate::wows::textures::{TextureCache, TextureImage, TextureMode};

/// Which levels of detail to export.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LodChoice {
    /// One LOD, by index, as the one scene.
    One(usize),
    /// Every LOD, each as its own scene (`<name> LOD<i>`).
    All,
}

impl Default for LodChoice {
    fn default() -> Self {
        LodChoice::One(0)
    }
}

/// What [`model_to_glb`] and [`add_model`] export.
#[derive(Debug, Clone)]
pub struct ModelGlbOptions {
    /// The levels of detail (LOD 0 by default). A visual without LODs exports all its render
    /// sets in one scene.
    pub lods: LodChoice,
    /// Textures embedded (the default), external or left out.
    pub textures: TextureMode,
    /// The largest side of a texture in pixels (the largest tier or mip within it).
    pub max_texture: Option<u32>,
    /// With [`TextureMode::External`]: what comes before an image's path in its URI, relative to
    /// the GLB (`textures/` by default).
    pub texture_uri_prefix: String,
}

impl Default for ModelGlbOptions {
    fn default() -> Self {
        ModelGlbOptions {
            lods: LodChoice::default(),
            textures: TextureMode::default(),
            max_texture: None,
            texture_uri_prefix: "textures/".to_owned(),
        }
    }
}

/// What [`add_model`] added.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ModelScenes {
    /// Scenes added (one per level of detail exported).
    pub scenes: usize,
    /// Nodes added (the hierarchy once per scene, and a node per render set).
    pub nodes: usize,
    /// Meshes added (one per render set, shared by the scenes).
    pub meshes: usize,
    /// Materials added.
    pub materials: usize,
    /// Skins added.
    pub skins: usize,
}

/// One model as a GLB.
#[derive(Debug, Clone)]
pub struct ModelGlb {
    /// The file.
    pub bytes: Vec<u8>,
    /// What it holds.
    pub added: ModelScenes,
    /// Textures added (embedded or external).
    pub textures: usize,
    /// With [`TextureMode::External`], the images the GLB names, for the caller to write.
    pub images: Vec<TextureImage>,
    /// Textures left out (missing or unreadable), one line each: the model is still exported.
    pub warnings: Vec<String>,
}

/// Exports `model` (its meshes from `geometry`, its `.geometry` loaded through a
/// [`GeometryCache`](crate::wows::resolve::GeometryCache)) as one GLB. Any missing piece fails the
/// model with an error naming it and the render set; a texture that cannot be read is a warning.
pub fn model_to_glb(
    resolver: &ModelResolver<'_>,
    model: &ResolvedModel<'_>,
    geometry: &LoadedGeometry<'_>,
    options: &ModelGlbOptions,
) -> Result<ModelGlb, ResolveError> {
    model_to_glb_cached(resolver, model, geometry, options, &TextureCache::default())
}

/// [`model_to_glb`] with textures shared through `cache` by the exports of a batch (every one
/// through the same resolver).
pub fn model_to_glb_cached(
    resolver: &ModelResolver<'_>,
    model: &ResolvedModel<'_>,
    geometry: &LoadedGeometry<'_>,
    options: &ModelGlbOptions,
    cache: &TextureCache,
) -> Result<ModelGlb, ResolveError> {
    let mut builder = GlbBuilder::new();
    let mut name = String::new();
    if !matches!(resolver.full_path(model.self_id(), &mut name), Ok(true)) {
        name = format!("{:#018x}", model.self_id());
    }
    let name = name.rsplit('/').next().unwrap_or_default().to_owned();
    let mut textures = GlbTextures::new(
        texture_files(resolver),
        cache,
        options.textures,
        options.max_texture,
        &options.texture_uri_prefix,
    );
    let added = add_model(
        &mut builder,
        &mut textures,
        resolver,
        model,
        geometry,
        options,
        &name,
    )?;
    let bytes = builder
        .finish()
        .map_err(|e| model.error(None, Missing::Export(e)))?;
    Ok(ModelGlb {
        bytes,
        added,
        textures: textures.count,
        images: textures.images,
        warnings: textures.warnings,
    })
}

/// Where the resolver's textures are: in its install, or under its resource root.
fn texture_files<'r>(resolver: &'r ModelResolver<'_>) -> TextureFiles<'r> {
    #[cfg(feature = "pfs")]
    if let Some(install) = resolver.install() {
        return TextureFiles::Install(install);
    }
    TextureFiles::Folder(resolver.root())
}

/// The scenes of one model, added to `builder` (several models can share one GLB, and its
/// `textures`): scenes named `name` (one LOD) or `name LOD<i>` (all LODs).
pub fn add_model(
    builder: &mut GlbBuilder,
    textures: &mut GlbTextures<'_>,
    resolver: &ModelResolver<'_>,
    model: &ResolvedModel<'_>,
    geometry: &LoadedGeometry<'_>,
    options: &ModelGlbOptions,
    name: &str,
) -> Result<ModelScenes, ResolveError> {
    let nodes: Vec<ModelNode<'_>> = model.nodes()?.collect();
    check_hierarchy(model, &nodes)?;
    let lods: Vec<Option<usize>> = match (options.lods, model.lod_count()) {
        (LodChoice::One(0) | LodChoice::All, 0) => vec![None],
        (LodChoice::One(i), _) => {
            model.lod(i)?;
            vec![Some(i)]
        }
        (LodChoice::All, n) => (0..n).map(Some).collect(),
    };
    let mut source = Source {
        resolver,
        model,
        geometry,
        nodes,
        sets: HashMap::new(),
        lods: Vec::with_capacity(lods.len()),
    };
    let mut scenes = Vec::with_capacity(lods.len());
    for lod in lods {
        let sets: Vec<ResolvedRenderSet<'_>> = match lod {
            Some(i) => model.lod_render_sets(i)?.collect::<Result<_, _>>()?,
            None => model.render_sets()?.collect::<Result<_, _>>()?,
        };
        let scene_name = match (options.lods, lod) {
            (LodChoice::All, Some(i)) => format!("{name} LOD{i}"),
            _ => name.to_owned(),
        };
        scenes.push((source.lods.len(), scene_name));
        source.lods.push(sets.iter().map(|set| set.index).collect());
        source
            .sets
            .extend(sets.into_iter().map(|set| (set.index, set)));
    }
    let counts = add_scenes(builder, textures, &source, &scenes)?;
    Ok(ModelScenes {
        scenes: counts.scenes,
        nodes: counts.nodes,
        meshes: counts.meshes,
        materials: counts.materials,
        skins: counts.skins,
    })
}

/// Every parent index is a node's, and no parent chain is a cycle (glTF needs a forest). O(nodes).
fn check_hierarchy(model: &ResolvedModel<'_>, nodes: &[ModelNode<'_>]) -> Result<(), ResolveError> {
    // 0: not seen, 1: on the walk in progress, 2: reaches a root.
    let mut state = vec![0u8; nodes.len()];
    let mut walk = Vec::new();
    for start in 0..nodes.len() {
        let mut at = start;
        walk.clear();
        loop {
            match state.get(at) {
                Some(2) => break,
                Some(1) | None => {
                    let node = walk.last().copied().unwrap_or(start);
                    let parent = nodes.get(node).and_then(|n| n.parent).unwrap_or(0);
                    return Err(model.error(None, Missing::NodeParent { node, parent }));
                }
                Some(_) => {}
            }
            if let Some(s) = state.get_mut(at) {
                *s = 1;
            }
            walk.push(at);
            match nodes.get(at).and_then(|n| n.parent) {
                Some(parent) => at = usize::from(parent),
                None => break,
            }
        }
        for &n in &walk {
            if let Some(s) = state.get_mut(n) {
                *s = 2;
            }
        }
    }
    Ok(())
}

/// A resolved model as the scene export asks for it: render sets keyed by their index in the
/// visual, resolved once for the LODs exported; the scenes' LODs by their position in `lods`.
struct Source<'x, 'a, 'c> {
    resolver: &'x ModelResolver<'a>,
    model: &'x ResolvedModel<'a>,
    geometry: &'x LoadedGeometry<'c>,
    /// The visual's nodes, their hierarchy checked.
    nodes: Vec<ModelNode<'a>>,
    sets: HashMap<usize, ResolvedRenderSet<'a>>,
    /// Scene → the render sets it draws.
    lods: Vec<Vec<usize>>,
}

impl<'a> Source<'_, 'a, '_> {
    /// The render set of `key` (keys come from `lods`, which `sets` resolves).
    fn set(&self, key: usize) -> Result<&ResolvedRenderSet<'a>, ResolveError> {
        self.sets.get(&key).ok_or_else(|| {
            self.model.error(
                None,
                Missing::Export(crate::ExportError::NotGiven {
                    what: "render set",
                    key: key as u64,
                }),
            )
        })
    }
}

impl SceneSource for Source<'_, '_, '_> {
    type Error = ResolveError;

    fn hierarchy(&self, _: usize) -> Result<Vec<HierarchyNode<'_>>, ResolveError> {
        Ok(self
            .nodes
            .iter()
            .map(|node| HierarchyNode {
                name: node.name,
                matrix: node.matrix,
                parent: node.parent.map(usize::from),
            })
            .collect())
    }

    fn render_sets(&self, scene: usize) -> Result<Vec<usize>, ResolveError> {
        Ok(self.lods.get(scene).cloned().unwrap_or_default())
    }

    fn render_set_name(&self, key: usize) -> String {
        match self.sets.get(&key) {
            Some(set) => set
                .name
                .map_or_else(|| format!("{:#010x}", set.name_id()), str::to_owned),
            None => format!("render set {key}"),
        }
    }

    fn attached(&self, _: usize, key: usize) -> Result<Vec<usize>, ResolveError> {
        let set = self.set(key)?;
        let fail = |missing| self.model.error(Some(&set.render_set), missing);
        let names = set
            .render_set
            .node_name_ids()
            .map_err(|e| fail(Missing::Assets(e)))?;
        self.model
            .render_set_nodes(set)?
            .zip(names)
            .map(|(i, name)| {
                i.ok_or_else(|| {
                    fail(Missing::Node {
                        name_id: name.get(),
                    })
                })
            })
            .collect()
    }

    fn material_key(&self, key: usize) -> Result<Option<String>, ResolveError> {
        Ok(Some(format!(
            "{:#018x}",
            self.set(key)?.material_mfm_path_id
        )))
    }

    fn material(&self, key: usize, _: &str) -> Result<SceneMaterial, ResolveError> {
        let set = self.set(key)?;
        let extras = material_extras(self.resolver, set)
            .map_err(|e| self.model.error(Some(&set.render_set), Missing::Assets(e)))?;
        let mfm = set.material_mfm_path_id;
        let mut name = String::new();
        if !matches!(self.resolver.full_path(mfm, &mut name), Ok(true)) {
            name = format!("{mfm:#018x}");
        }
        let mut material = scene_material(self.resolver, set);
        material.name = name;
        material.extras = extras;
        Ok(material)
    }

    fn draw(&self, key: usize) -> Result<DrawData<'_>, ResolveError> {
        self.geometry.draw(self.model, self.set(key)?)
    }

    fn fail(&self, key: usize, failure: SceneFailure) -> ResolveError {
        let missing = match failure {
            SceneFailure::Export(e) => Missing::Export(e.into()),
            SceneFailure::Joint(e) => Missing::Joint {
                joint: e.joint,
                joints: e.joints,
            },
        };
        let set = self.sets.get(&key).map(|set| &set.render_set);
        self.model.error(set, missing)
    }
}

/// How the render set's material is drawn (`doubleSided`, `alphaTestEnable` with
/// `alphaReference` out of 255) and its maps by path (the `.dds` of the stored name's stem; a texture id the path tree lacks is a
/// warning). A property that does not read leaves the material as glTF's defaults have it: its
/// extras already name the damage.
fn scene_material(resolver: &ModelResolver<'_>, set: &ResolvedRenderSet<'_>) -> SceneMaterial {
    let mut material = SceneMaterial::default();
    let Ok(properties) = set.material.properties() else {
        return material;
    };
    let (mut alpha_test, mut reference) = (false, 0.5);
    let mut path = String::new();
    for property in properties.flatten() {
        let Ok(Some(name)) = set.material.name(property.name_id) else {
            continue;
        };
        match (name, property.value) {
            ("doubleSided", MaterialValue::Bool(b)) => material.drawing.double_sided = b,
            ("alphaTestEnable", MaterialValue::Bool(b)) => alpha_test = b,
            ("alphaReference", MaterialValue::Int(v)) => {
                reference = v.clamp(0, 255) as f32 / 255.0;
            }
            ("alphaReference", MaterialValue::Uint(v)) => {
                reference = v.min(255) as f32 / 255.0;
            }
            (name, MaterialValue::Texture(id)) => {
                let Some(kind) = MapKind::ALL.into_iter().find(|k| k.property() == name) else {
                    continue;
                };
                if matches!(resolver.full_path(id, &mut path), Ok(true)) {
                    material.maps.push((kind, dds_path(&path)));
                } else {
                    material.unresolved.push(format!(
                        "texture {id:#018x} ({name}) is not in the path tree; the material has \
                         no image for it"
                    ));
                }
            }
            _ => {}
        }
    }
    material.drawing.alpha_cutoff = alpha_test.then_some(reference);
    material
}

/// A float as JSON (`null` for NaN and infinities, which JSON cannot hold).
fn number(f: f32) -> json::Value {
    json::Value::from(f64::from(f))
}

/// The material's properties as one JSON object: name → value (numbers, booleans, arrays for
/// vectors and matrices, the texture's path, or its id in hex when the path tree lacks it).
fn material_extras(
    resolver: &ModelResolver<'_>,
    set: &ResolvedRenderSet<'_>,
) -> crate::Result<Option<String>> {
    let mut object = json::Value::Object(Default::default());
    let mut path = String::new();
    for property in set.material.properties()? {
        let property = property?;
        let name = set
            .material
            .name(property.name_id)?
            .map_or_else(|| format!("{:#010x}", property.name_id), str::to_owned);
        let value = match property.value {
            MaterialValue::Bool(b) => json::Value::from(b),
            MaterialValue::Int(v) => json::Value::from(v),
            MaterialValue::Uint(v) => json::Value::from(v),
            MaterialValue::Float(v) => number(v),
            MaterialValue::Texture(id) => match resolver.full_path(id, &mut path) {
                Ok(true) => json::Value::from(path.as_str()),
                _ => json::Value::from(format!("{id:#018x}")),
            },
            MaterialValue::Vec2(v) => json::Value::Array(v.map(number).to_vec()),
            MaterialValue::Vec3(v) => json::Value::Array(v.map(number).to_vec()),
            MaterialValue::Vec4(v) => json::Value::Array(v.map(number).to_vec()),
            MaterialValue::Mat4(m) => json::Value::Array(m.map(|f| number(f.get())).to_vec()),
        };
        if let json::Value::Object(map) = &mut object {
            map.insert(name, value);
        }
    }
    if object.as_object().is_none_or(|map| map.is_empty()) {
        return Ok(None);
    }
    Ok(json::serialize::to_string(&object).ok())
}

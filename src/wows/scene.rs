//! One model resolved for export, whichever files it was read from: an `assets.bin` model
//! (`wows::resolve`) or a model's BigWorld XML sources (`wows::sources`) both answer the questions
//! of [`SceneSource`] (the node tree of a level of detail, the render sets it draws, their nodes,
//! materials and meshes), and [`add_scenes`] turns the answers into GLB scenes. The two exports
//! differ only in where the answers come from and in how their errors name what is missing.

use std::collections::HashMap;

use crate::gltf::{
    GlbBuilder, HierarchyNode, JointOutOfRange, MaterialId, MeshId, NodeId, PbrMaterial,
};
use crate::wows::axes::right_handed_matrix;
use crate::wows::geometry::DrawData;
use crate::wows::geometry::export::gltf::add_draw;
use crate::wows::textures::GlbTextures;
use crate::wows::textures::maps::MapKind;

/// A material as both exports resolve it.
#[derive(Debug, Clone, Default)]
pub struct SceneMaterial {
    /// Its name in the GLB (the `.mfm` path).
    pub name: String,
    /// Its properties as one JSON object, for the material's extras.
    pub extras: Option<String>,
    /// How it is drawn (sides, alpha mask); its textures are filled in from `maps`.
    pub drawing: PbrMaterial,
    /// Its maps by resource path (`.dds`), in the order named.
    pub maps: Vec<(MapKind, String)>,
    /// Maps it names that could not be found, one line each (warnings).
    pub unresolved: Vec<String>,
}

/// Why a render set could not be placed: the source says in its own terms.
#[derive(Debug)]
pub enum SceneFailure {
    /// The mesh does not fit glTF.
    Export(crate::Error),
    /// A vertex names a joint beyond the nodes the render set is bound to.
    Joint(JointOutOfRange),
}

/// What [`add_scenes`] asks of a model.
pub trait SceneSource {
    /// The source's error (naming its files and what is missing).
    type Error;

    /// The node tree of level of detail `lod` (in the classic XML form each LOD has its own), its
    /// transforms in the game's space.
    fn hierarchy(&self, lod: usize) -> Result<Vec<HierarchyNode<'_>>, Self::Error>;

    /// The render sets `lod` draws, by a key of the source's that is the same for the same render
    /// set in every LOD (its mesh is added once).
    fn render_sets(&self, lod: usize) -> Result<Vec<usize>, Self::Error>;

    /// The render set's name in the GLB.
    fn render_set_name(&self, set: usize) -> String;

    /// The nodes of `lod`'s tree the render set is bound to, by position in the tree.
    fn attached(&self, lod: usize, set: usize) -> Result<Vec<usize>, Self::Error>;

    /// The key of the render set's material (`None`: it has none), the same for every render set
    /// using it.
    fn material_key(&self, set: usize) -> Result<Option<String>, Self::Error>;

    /// The material of `key`, asked once per key.
    fn material(&self, set: usize, key: &str) -> Result<SceneMaterial, Self::Error>;

    /// The render set's mesh: its vertices and indices.
    fn draw(&self, set: usize) -> Result<DrawData<'_>, Self::Error>;

    /// The error of a render set that does not fit glTF.
    fn fail(&self, set: usize, failure: SceneFailure) -> Self::Error;
}

/// What [`add_scenes`] added.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct SceneCounts {
    /// Scenes (one per level of detail).
    pub scenes: usize,
    /// Nodes (the tree once per scene, and one per render set placed).
    pub nodes: usize,
    /// Meshes (one per render set, shared by the scenes).
    pub meshes: usize,
    /// Materials.
    pub materials: usize,
    /// Skins.
    pub skins: usize,
}

/// Adds one scene per `(lod, scene name)` of `source` to `builder`: the LOD's node tree with its
/// transforms, and each render set it draws as a mesh on the first node it is bound to (or
/// skinned over its nodes), with its material and the material's maps as textures. Meshes and
/// materials are shared between the scenes.
pub fn add_scenes<S: SceneSource>(
    builder: &mut GlbBuilder,
    textures: &mut GlbTextures<'_>,
    source: &S,
    scenes: &[(usize, String)],
) -> Result<SceneCounts, S::Error> {
    let mut meshes: HashMap<usize, (MeshId, Option<u8>)> = HashMap::new();
    let mut materials: HashMap<String, MaterialId> = HashMap::new();
    let mut counts = SceneCounts::default();
    for (lod, scene_name) in scenes {
        let lod = *lod;
        let scene = builder.add_scene(scene_name);
        counts.scenes += 1;
        // The builder takes glTF's space; the sources give the game's.
        let mut hierarchy = source.hierarchy(lod)?;
        for node in &mut hierarchy {
            node.matrix = right_handed_matrix(node.matrix);
        }
        let ids = builder.add_hierarchy(scene, &hierarchy);
        counts.nodes += ids.len();
        for set in source.render_sets(lod)? {
            let name = source.render_set_name(set);
            let (mesh, max_joint) = match meshes.get(&set) {
                Some(&mesh) => mesh,
                None => {
                    let material = match source.material_key(set)? {
                        Some(key) => Some(match materials.get(&key) {
                            Some(&material) => material,
                            None => {
                                let material =
                                    add_material(builder, textures, source.material(set, &key)?);
                                counts.materials += 1;
                                materials.insert(key, material);
                                material
                            }
                        }),
                        None => None,
                    };
                    let data = source.draw(set)?;
                    let added = add_draw(builder, &name, &data, material)
                        .map_err(|e| source.fail(set, SceneFailure::Export(e)))?;
                    counts.meshes += 1;
                    let mesh = (added.mesh, added.max_joint);
                    meshes.insert(set, mesh);
                    mesh
                }
            };
            let attached: Vec<NodeId> = source
                .attached(lod, set)?
                .into_iter()
                .filter_map(|i| ids.get(i).copied())
                .collect();
            let skinned = builder
                .place_mesh(scene, &name, mesh, max_joint, &attached, &ids)
                .map_err(|e| source.fail(set, SceneFailure::Joint(e)))?;
            counts.skins += usize::from(skinned);
            counts.nodes += 1;
        }
    }
    Ok(counts)
}

/// The material, its maps added as textures (each once per GLB) and its unresolved maps warned.
fn add_material(
    builder: &mut GlbBuilder,
    textures: &mut GlbTextures<'_>,
    material: SceneMaterial,
) -> MaterialId {
    let mut pbr = material.drawing;
    for (kind, path) in &material.maps {
        let texture = textures.texture(builder, path, *kind);
        match kind {
            MapKind::Albedo => pbr.base_color = texture,
            MapKind::MetallicGloss => pbr.metallic_roughness = texture,
            MapKind::Normal => pbr.normal = texture,
            MapKind::AmbientOcclusion => pbr.occlusion = texture,
        }
    }
    for line in material.unresolved {
        textures.warn(line);
    }
    builder.add_pbr_material(&material.name, material.extras, &pbr)
}

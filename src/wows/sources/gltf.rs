//! GLB export of a model read from its sources ([`SourceModel`], feature `gltf`): one scene per
//! level of detail exported, each with the visual's node tree and its transforms, and per render
//! set a node showing its mesh, found in the `.geometry` by the MurmurHash3 ids of its mapping
//! names (a child of the first node the render set is bound to, or, for a skinned mesh, a scene
//! root with a skin over the render set's nodes). Materials are named by their `.mfm` path, their
//! properties in the material's extras; with the `dds` and `png` features the albedo
//! (`diffuseMap`, the `_a` texture) is embedded as PNG and is the material's base colour.
//! Coordinates are converted as in every gamebin export (X mirrored, triangles rewound).

use std::collections::HashMap;
use std::path::Path;

use gltf_json as json;

use super::{Material, PropertyValue, SourceError, SourceModel};
use crate::MappedFile;
use crate::wows::axes::right_handed_matrix;
use crate::wows::geometry::export::gltf::{GlbBuilder, MaterialId, MeshId, NodeId, NodeSpec};
use crate::wows::geometry::{DecodedGeometry, GeometryView};
use crate::wows::is_safe_resource_path;

/// Whether textures are embedded.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum TextureMode {
    /// Each material's albedo decoded and embedded as PNG (needs the `dds` and `png` features).
    #[default]
    Embed,
    /// No images: the texture paths stay in the materials' extras.
    None,
}

/// What [`source_model_to_glb`] exports.
#[derive(Debug, Clone, Copy, Default)]
pub struct SourceGlbOptions {
    /// One level of detail by index (`Some(0)`: the finest), or every one as its own scene.
    pub lod: Option<usize>,
    /// Textures embedded or not.
    pub textures: TextureMode,
    /// The largest side of an embedded texture in pixels (the largest tier or mip within it).
    pub max_texture: Option<u32>,
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
    /// Textures embedded.
    pub textures: usize,
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
    /// `.dds` path → texture (`None`: missing or unreadable, warned once).
    #[cfg(all(feature = "dds", feature = "png"))]
    textures: HashMap<String, Option<crate::wows::geometry::export::gltf::TextureId>>,
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
        let extras = extras(source);
        let base_color = self.albedo(source);
        #[cfg(not(all(feature = "dds", feature = "png")))]
        let _ = base_color;
        #[cfg(all(feature = "dds", feature = "png"))]
        let material = self.builder.add_textured_material(mfm, extras, base_color);
        #[cfg(not(all(feature = "dds", feature = "png")))]
        let material = self.builder.add_material(mfm, extras);
        self.out.materials += 1;
        self.materials.insert(mfm.to_owned(), material);
        Ok(material)
    }

    /// The albedo texture (`diffuseMap`), embedded once per `.dds`.
    #[cfg(all(feature = "dds", feature = "png"))]
    fn albedo(
        &mut self,
        material: &Material,
    ) -> Option<crate::wows::geometry::export::gltf::TextureId> {
        if self.options.textures == TextureMode::None {
            return None;
        }
        let dds = material
            .properties
            .iter()
            .find_map(|p| match (&p.name[..], &p.value) {
                ("diffuseMap", PropertyValue::Texture { dds, .. }) => Some(dds.clone()),
                _ => None,
            })?;
        if let Some(&known) = self.textures.get(&dds) {
            return known;
        }
        let texture = match self.encode(&dds) {
            Ok(png) => {
                self.out.textures += 1;
                Some(self.builder.add_png_texture(&dds, &png))
            }
            Err(why) => {
                self.out
                    .warnings
                    .push(format!("texture {dds}: {why}; the material has no image"));
                None
            }
        };
        self.textures.insert(dds, texture);
        texture
    }

    #[cfg(not(all(feature = "dds", feature = "png")))]
    fn albedo(&mut self, _: &Material) -> Option<()> {
        None
    }

    /// `dds` (res-relative) decoded at the best tier or mip within the size limit, as PNG.
    #[cfg(all(feature = "dds", feature = "png"))]
    fn encode(&self, dds: &str) -> Result<Vec<u8>, String> {
        if !is_safe_resource_path(dds) {
            return Err("not a path under the resource root".into());
        }
        let path = self.root.join(dds);
        let choice = crate::dds::tiers::choose(&path, self.options.max_texture)
            .map_err(|e| e.to_string())?
            .ok_or_else(|| format!("missing (looked for {})", path.display()))?;
        let file = MappedFile::open(&choice.tier.path).map_err(|e| e.to_string())?;
        let texture = crate::dds::DdsView::from_bytes(file.bytes()).map_err(|e| e.to_string())?;
        let level = texture
            .level(0, choice.mip)
            .ok_or_else(|| format!("no mip {}", choice.mip))?;
        let mut pixels = Vec::new();
        let mut png = Vec::new();
        crate::dds::png::write_level(&level, &mut pixels, &mut png).map_err(|e| e.to_string())?;
        Ok(png)
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

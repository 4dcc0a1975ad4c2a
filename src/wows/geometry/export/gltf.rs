//! glTF 2.0 binary (GLB) export, written with the `gltf-json` crate (feature `gltf`).
//!
//! [`GlbBuilder`] turns decoded draws and armor models into meshes, with the nodes, skins, materials
//! and scenes a caller arranges them in, and writes one `.glb`: the JSON chunk and one binary
//! buffer. [`geometry_to_glb`] does the whole job for one `.geometry`: every sound draw as a mesh on
//! its own node, the armor models on request, and a list of the draws it had to skip and why.
//!
//! Conversions, done here once for every caller: positions and directions to glTF's right-handed,
//! Y-up space (X mirrored, triangles rewound, see [`axes`](crate::wows::axes)); normals and tangents to
//! unit length; the stored `uv − 0.5` to texture coordinates with the top-left origin glTF shares
//! with Direct3D; the three stored bone indices (× 3, in the engine's swizzled byte order) and
//! their weights (two stored, the third the remainder) to `JOINTS_0` and `WEIGHTS_0` summing to 1,
//! unused joints as 0; stored floats that are not finite (NaN, infinite) as 0, which
//! [`Vertices::non_finite`] reports; indices as `u16` where every index fits below 65535, `u32` otherwise.
//!
//! ```
//! # fn main() -> Result<(), gamebin::Error> {
//! # let file = gamebin::synth::geometry::example_file();
//! use gamebin::wows::geometry::export::gltf::{GeometryGlbOptions, geometry_to_glb};
//! use gamebin::wows::geometry::{DecodedGeometry, GeometryView};
//!
//! let geometry = GeometryView::from_bytes(&file)?;
//! let mut decoded = DecodedGeometry::new();
//! decoded.decode(&geometry);
//! let glb = geometry_to_glb(&geometry, &decoded, &GeometryGlbOptions { armor: true })?;
//! assert!(glb.skipped.is_empty());
//! assert_eq!(glb.meshes, 2 + 1); // two draws and the armor model
//! assert_eq!(&glb.bytes[..4], b"glTF");
//! # Ok(())
//! # }
//! ```

use std::borrow::Cow;
use std::collections::BTreeMap;

use gltf_json as json;
use json::validation::Checked::Valid;
use json::validation::USize64;

use crate::bytes::u64_of;
use crate::error::{Error, Result};
use crate::wows::axes::{finite, rewound, right_handed, texcoord_top_left, unit_or};
use crate::wows::geometry::{
    Armor, DecodedGeometry, DrawData, GeometryView, Indices, ModelRecord, Vertices,
};

/// A mesh of a [`GlbBuilder`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MeshId(u32);

/// A node of a [`GlbBuilder`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NodeId(u32);

/// A material of a [`GlbBuilder`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MaterialId(u32);

/// A texture (an image, embedded or beside the GLB, and its sampler) of a [`GlbBuilder`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TextureId(u32);

/// What [`GlbBuilder::add_pbr_material`] makes a material of: its textures in glTF's meaning
/// (already converted to it) and how it is drawn.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct PbrMaterial {
    /// The base colour (RGB) and alpha.
    pub base_color: Option<TextureId>,
    /// Roughness in G, metalness in B.
    pub metallic_roughness: Option<TextureId>,
    /// A tangent-space normal map (+Y up the image).
    pub normal: Option<TextureId>,
    /// Ambient occlusion in R.
    pub occlusion: Option<TextureId>,
    /// Both faces drawn.
    pub double_sided: bool,
    /// Alpha-tested: texels whose alpha is below this (0–1) are not drawn.
    pub alpha_cutoff: Option<f32>,
}

/// A skin of a [`GlbBuilder`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SkinId(u32);

/// A scene of a [`GlbBuilder`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SceneId(u32);

/// What [`GlbBuilder::place_mesh`] refuses: a skinned mesh whose vertices name a joint past the
/// nodes its skin would have.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct JointOutOfRange {
    /// The largest joint the vertices name.
    pub joint: u8,
    /// The nodes the skin would have.
    pub joints: usize,
}

/// What [`GlbBuilder::add_draw`] made.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DrawMesh {
    /// The mesh.
    pub mesh: MeshId,
    /// The largest joint index its `JOINTS_0` uses (skinned formats): a node showing the mesh
    /// needs a skin of at least this many joints plus one.
    pub max_joint: Option<u8>,
}

/// A node to add: its name, what it shows and where it sits relative to its parent.
#[derive(Debug, Clone, Default)]
pub struct NodeSpec<'n> {
    /// The node's name.
    pub name: Option<&'n str>,
    /// The mesh it shows.
    pub mesh: Option<MeshId>,
    /// The skin that deforms its mesh.
    pub skin: Option<SkinId>,
    /// Its transform relative to its parent, column-major, already in glTF's space.
    pub matrix: Option<[f32; 16]>,
}

/// One node of a model's hierarchy for [`GlbBuilder::add_hierarchy`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct HierarchyNode<'n> {
    /// The node's name.
    pub name: Option<&'n str>,
    /// Its transform relative to its parent, column-major, in the game's (left-handed) space.
    pub matrix: [f32; 16],
    /// Its parent's position in the hierarchy; `None` for a root.
    pub parent: Option<usize>,
}

/// Builds one GLB from meshes, nodes, skins, materials and scenes.
#[derive(Debug, Clone)]
pub struct GlbBuilder {
    root: json::Root,
    bin: Vec<u8>,
}

impl Default for GlbBuilder {
    fn default() -> Self {
        Self::new()
    }
}

/// The error of a draw or model that cannot become a mesh; `at` is the file offset of the record.
fn unfit(at: usize, what: &'static str, value: usize, reason: &'static str) -> Error {
    Error::invalid(u64_of(at), what, u64_of(value), reason)
}

/// `n` as glTF's 64-bit size type.
fn size(n: usize) -> USize64 {
    USize64(u64_of(n))
}

/// A glTF index as the builder's id (glTF indices stay far below `u32::MAX`).
fn id(index: usize) -> u32 {
    u32::try_from(index).unwrap_or(u32::MAX)
}

impl GlbBuilder {
    /// An empty glTF asset (generator `gamebin`).
    pub fn new() -> Self {
        let mut root = json::Root::default();
        root.asset.generator = Some(format!("gamebin {}", env!("CARGO_PKG_VERSION")));
        GlbBuilder {
            root,
            bin: Vec::new(),
        }
    }

    /// Makes room for `bytes` more bytes of binary buffer, so that a caller that knows the size of
    /// what it will add saves the buffer's regrowth.
    pub fn reserve(&mut self, bytes: usize) {
        self.bin.reserve(bytes);
    }

    /// Appends `count` values of `N` floats made by `value` to the binary buffer as one accessor,
    /// written straight into the buffer; with their bounds when `bounded` (positions).
    fn push_floats<const N: usize>(
        &mut self,
        count: usize,
        bounded: bool,
        value: impl Fn(usize) -> [f32; N],
    ) -> json::Index<json::Accessor> {
        let offset = self.bin.len().next_multiple_of(4);
        self.bin
            .resize(offset.saturating_add(count.saturating_mul(4 * N)), 0);
        let (mut min, mut max) = ([f32::INFINITY; N], [f32::NEG_INFINITY; N]);
        let out = self.bin.get_mut(offset..).unwrap_or_default();
        for (i, record) in out.chunks_exact_mut(4 * N).enumerate() {
            let v = value(i);
            if bounded {
                for k in 0..N {
                    min[k] = min[k].min(v[k]);
                    max[k] = max[k].max(v[k]);
                }
            }
            for (slot, c) in record.chunks_exact_mut(4).zip(v) {
                slot.copy_from_slice(&c.to_le_bytes());
            }
        }
        let view = self.root.push(json::buffer::View {
            buffer: json::Index::new(0),
            byte_length: size(self.bin.len() - offset),
            byte_offset: Some(size(offset)),
            byte_stride: None,
            name: None,
            target: Some(Valid(json::buffer::Target::ArrayBuffer)),
            extensions: None,
            extras: None,
        });
        let type_ = match N {
            2 => json::accessor::Type::Vec2,
            3 => json::accessor::Type::Vec3,
            _ => json::accessor::Type::Vec4,
        };
        let bounds = |b: [f32; N]| bounded.then(|| json::Value::from(b.to_vec()));
        self.root.push(json::Accessor {
            buffer_view: Some(view),
            byte_offset: Some(USize64(0)),
            count: size(count),
            component_type: Valid(json::accessor::GenericComponentType(
                json::accessor::ComponentType::F32,
            )),
            extensions: None,
            extras: None,
            type_: Valid(type_),
            min: bounds(min),
            max: bounds(max),
            name: None,
            normalized: false,
            sparse: None,
        })
    }

    /// Appends `bytes` to the binary buffer as a buffer view, 4-byte aligned as accessors need.
    fn push_view(
        &mut self,
        bytes: &[u8],
        target: json::buffer::Target,
    ) -> json::Index<json::buffer::View> {
        let offset = self.bin.len().next_multiple_of(4);
        self.bin.resize(offset, 0);
        self.bin.extend_from_slice(bytes);
        self.root.push(json::buffer::View {
            buffer: json::Index::new(0),
            byte_length: size(bytes.len()),
            byte_offset: Some(size(offset)),
            byte_stride: None,
            name: None,
            target: Some(Valid(target)),
            extensions: None,
            extras: None,
        })
    }

    #[allow(clippy::too_many_arguments)]
    fn push_accessor(
        &mut self,
        bytes: &[u8],
        count: usize,
        component: json::accessor::ComponentType,
        type_: json::accessor::Type,
        normalized: bool,
        bounds: Option<([f32; 3], [f32; 3])>,
        target: json::buffer::Target,
    ) -> json::Index<json::Accessor> {
        let view = self.push_view(bytes, target);
        let (min, max) = match bounds {
            Some((min, max)) => (
                Some(json::Value::from(min.to_vec())),
                Some(json::Value::from(max.to_vec())),
            ),
            None => (None, None),
        };
        self.root.push(json::Accessor {
            buffer_view: Some(view),
            byte_offset: Some(USize64(0)),
            count: size(count),
            component_type: Valid(json::accessor::GenericComponentType(component)),
            extensions: None,
            extras: None,
            type_: Valid(type_),
            min,
            max,
            name: None,
            normalized,
            sparse: None,
        })
    }

    fn push_f32s<const N: usize>(
        &mut self,
        values: &[[f32; N]],
        bounds: Option<([f32; 3], [f32; 3])>,
    ) -> json::Index<json::Accessor> {
        let type_ = match N {
            2 => json::accessor::Type::Vec2,
            3 => json::accessor::Type::Vec3,
            _ => json::accessor::Type::Vec4,
        };
        let bytes = le_bytes(values);
        self.push_accessor(
            &bytes,
            values.len(),
            json::accessor::ComponentType::F32,
            type_,
            false,
            bounds,
            json::buffer::Target::ArrayBuffer,
        )
    }

    /// Adds one draw as a mesh of one triangle primitive named `name`: every attribute its vertex
    /// format has, converted (see the module docs). `data` comes from
    /// [`DecodedGeometry::draw_data`], which has checked that every index addresses a vertex.
    pub fn add_draw(
        &mut self,
        name: &str,
        data: &DrawData<'_>,
        material: Option<MaterialId>,
    ) -> Result<DrawMesh> {
        let (vertices, indices) = (&data.vertices, &data.indices);
        let format = vertices.format();
        if vertices.is_empty() || indices.len() < 3 {
            return Err(unfit(
                0,
                "glTF mesh",
                indices.len(),
                "a draw needs vertices and at least one triangle",
            ));
        }
        if format.position.is_none() {
            return Err(unfit(
                0,
                "glTF mesh (vertex format)",
                vertices.stride(),
                "the vertex format has no positions",
            ));
        }
        let mut attributes = BTreeMap::new();
        let n = vertices.len();
        let position = self.push_floats(n, true, |i| {
            right_handed(finite(vertices.position(i).unwrap_or_default()))
        });
        attributes.insert(Valid(json::mesh::Semantic::Positions), position);
        if format.normal.is_some() {
            let normal = self.push_floats(n, false, |i| unit_normal(vertices, i));
            attributes.insert(Valid(json::mesh::Semantic::Normals), normal);
            if format.tangent.is_some() && format.binormal.is_some() {
                let tangent = self.push_floats(n, false, |i| tangent(vertices, i));
                attributes.insert(Valid(json::mesh::Semantic::Tangents), tangent);
            }
        }
        for (set, uv) in [(0, format.uv0), (1, format.uv1)] {
            if uv.is_none() {
                continue;
            }
            let read = if set == 0 {
                Vertices::uv
            } else {
                Vertices::uv1
            };
            let accessor = self.push_floats(n, false, |i| {
                texcoord_top_left(finite(read(vertices, i).unwrap_or_default()))
            });
            attributes.insert(Valid(json::mesh::Semantic::TexCoords(set)), accessor);
        }
        let mut max_joint = None;
        if format.bone_indices.is_some() && format.bone_weights.is_some() {
            let (joints, weights, max) = skinning(vertices);
            max_joint = Some(max);
            let joints = self.push_accessor(
                &joints,
                vertices.len(),
                json::accessor::ComponentType::U8,
                json::accessor::Type::Vec4,
                false,
                None,
                json::buffer::Target::ArrayBuffer,
            );
            attributes.insert(Valid(json::mesh::Semantic::Joints(0)), joints);
            let weights = self.push_f32s(&weights, None);
            attributes.insert(Valid(json::mesh::Semantic::Weights(0)), weights);
        }
        let indices = self.push_indices(indices);
        let primitive = json::mesh::Primitive {
            attributes,
            extensions: None,
            extras: None,
            indices: Some(indices),
            material: material.map(|m| json::Index::new(m.0)),
            mode: Valid(json::mesh::Mode::Triangles),
            targets: None,
        };
        let mesh = self.root.push(json::Mesh {
            extensions: None,
            extras: None,
            name: Some(name.to_owned()),
            primitives: vec![primitive],
            weights: None,
        });
        Ok(DrawMesh {
            mesh: MeshId(id(mesh.value())),
            max_joint,
        })
    }

    fn push_indices(&mut self, indices: &Indices<'_>) -> json::Index<json::Accessor> {
        // Whole triangles, rewound, gathered with one loop per representation.
        let whole = indices.len() / 3 * 3;
        let mut values: Vec<u32> = Vec::with_capacity(whole);
        match indices {
            Indices::U32(s) => values.extend_from_slice(s),
            Indices::U16(s) => values.extend(s.iter().map(|&v| u32::from(v))),
            Indices::Le16(s) => values.extend(s.iter().map(|v| u32::from(v.get()))),
            Indices::Le32(s) => values.extend(s.iter().map(|v| v.get())),
        }
        values.truncate(whole);
        for t in values.chunks_exact_mut(3) {
            t.swap(1, 2);
        }
        // 65535 is the primitive-restart value of u16 indices, which glTF forbids in the data.
        let narrow = values.iter().all(|&m| m < 0xffff);
        let (bytes, component) = if narrow {
            let values: Vec<u16> = values
                .iter()
                .map(|&v| u16::try_from(v).unwrap_or(u16::MAX))
                .collect();
            (
                le_bytes(&values).into_owned(),
                json::accessor::ComponentType::U16,
            )
        } else {
            (
                le_bytes(&values).into_owned(),
                json::accessor::ComponentType::U32,
            )
        };
        self.push_accessor(
            &bytes,
            whole,
            component,
            json::accessor::Type::Scalar,
            false,
            None,
            json::buffer::Target::ElementArrayBuffer,
        )
    }

    /// Adds an armor model as one mesh named `name` with a primitive per BVH node (a triangle soup
    /// with normals); each primitive's extras carry the node's armor `material_id` and `layer`.
    pub fn add_armor(
        &mut self,
        name: &str,
        model: &ModelRecord<'_>,
        armor: &Armor<'_>,
    ) -> Result<MeshId> {
        let mut primitives = Vec::new();
        for node in armor.nodes() {
            let node = node?;
            let mut positions = Vec::with_capacity(node.triangle_count() * 3);
            let mut normals = Vec::with_capacity(node.triangle_count() * 3);
            let corners = node.vertices();
            for triangle in corners.chunks_exact(3) {
                for v in rewound([&triangle[0], &triangle[1], &triangle[2]]) {
                    positions.push(right_handed(v.position()));
                    normals.push(unit_or(right_handed(v.normal()), [0.0, 1.0, 0.0]));
                }
            }
            if positions.is_empty() {
                continue;
            }
            let bounds = bounds(&positions);
            let position = self.push_f32s(&positions, Some(bounds));
            let normal = self.push_f32s(&normals, None);
            let extras = format!(
                "{{\"material_id\":{},\"layer\":{}}}",
                node.material_id(),
                node.layer_index()
            );
            primitives.push(json::mesh::Primitive {
                attributes: BTreeMap::from([
                    (Valid(json::mesh::Semantic::Positions), position),
                    (Valid(json::mesh::Semantic::Normals), normal),
                ]),
                extensions: None,
                extras: raw_json(extras),
                indices: None,
                material: None,
                mode: Valid(json::mesh::Mode::Triangles),
                targets: None,
            });
        }
        if primitives.is_empty() {
            return Err(unfit(
                model.offset(),
                "ArmorModelPrototype",
                0,
                "the armor model has no triangles",
            ));
        }
        let mesh = self.root.push(json::Mesh {
            extensions: None,
            extras: None,
            name: Some(name.to_owned()),
            primitives,
            weights: None,
        });
        Ok(MeshId(id(mesh.value())))
    }

    /// Adds a material named `name` (e.g. its `.mfm` path) with `extras`, a JSON object of its
    /// properties, if any. A plain grey metallic-roughness material otherwise.
    pub fn add_material(&mut self, name: &str, extras: Option<String>) -> MaterialId {
        let material = self.root.push(json::Material {
            name: Some(name.to_owned()),
            extras: extras.and_then(raw_json),
            ..Default::default()
        });
        MaterialId(id(material.value()))
    }

    /// Places `mesh` in `scene` on a node named `name`: a mesh without joints as a child of the
    /// first of `attached` (at the scene's root when it has none); a skinned one (`max_joint`, the
    /// largest joint its vertices name) as a scene root with a skin named `name` over `attached`,
    /// or over `every` node of the model when `attached` is empty (a skinned node's own transform
    /// does not apply, so it sits at the root). Returns whether a skin was added.
    pub fn place_mesh(
        &mut self,
        scene: SceneId,
        name: &str,
        mesh: MeshId,
        max_joint: Option<u8>,
        attached: &[NodeId],
        every: &[NodeId],
    ) -> core::result::Result<bool, JointOutOfRange> {
        match max_joint {
            Some(joint) => {
                let joints = if attached.is_empty() { every } else { attached };
                if usize::from(joint) >= joints.len() {
                    return Err(JointOutOfRange {
                        joint,
                        joints: joints.len(),
                    });
                }
                let skin = self.add_skin(name, joints);
                let node = self.add_node(&NodeSpec {
                    name: Some(name),
                    mesh: Some(mesh),
                    skin: Some(skin),
                    matrix: None,
                });
                self.add_to_scene(scene, node);
                Ok(true)
            }
            None => {
                let node = self.add_node(&NodeSpec {
                    name: Some(name),
                    mesh: Some(mesh),
                    ..Default::default()
                });
                match attached.first() {
                    Some(&parent) => self.add_child(parent, node),
                    None => self.add_to_scene(scene, node),
                }
                Ok(false)
            }
        }
    }

    /// Adds a PNG image, embedded in the binary buffer, and a texture sampling it (linear
    /// filtering, repeated).
    pub fn add_png_texture(&mut self, name: &str, png: &[u8]) -> TextureId {
        let offset = self.bin.len().next_multiple_of(4);
        self.bin.resize(offset, 0);
        self.bin.extend_from_slice(png);
        // An image's view has no target (it is neither vertex nor index data).
        let view = self.root.push(json::buffer::View {
            buffer: json::Index::new(0),
            byte_length: size(png.len()),
            byte_offset: Some(size(offset)),
            byte_stride: None,
            name: None,
            target: None,
            extensions: None,
            extras: None,
        });
        let image = self.root.push(json::Image {
            buffer_view: Some(view),
            mime_type: Some(json::image::MimeType("image/png".to_owned())),
            name: Some(name.to_owned()),
            uri: None,
            extensions: None,
            extras: None,
        });
        self.add_texture(name, image)
    }

    /// Adds a texture sampling the PNG image at `uri` (a relative URI: the image is a file beside
    /// the GLB, which the caller writes), filtered and repeated as
    /// [`add_png_texture`](Self::add_png_texture).
    pub fn add_uri_texture(&mut self, name: &str, uri: &str) -> TextureId {
        let image = self.root.push(json::Image {
            buffer_view: None,
            mime_type: None,
            name: Some(name.to_owned()),
            uri: Some(uri.to_owned()),
            extensions: None,
            extras: None,
        });
        self.add_texture(name, image)
    }

    fn add_texture(&mut self, name: &str, image: json::Index<json::Image>) -> TextureId {
        let sampler = match self.root.samplers.is_empty() {
            true => self.root.push(json::texture::Sampler {
                mag_filter: Some(Valid(json::texture::MagFilter::Linear)),
                min_filter: Some(Valid(json::texture::MinFilter::LinearMipmapLinear)),
                ..Default::default()
            }),
            false => json::Index::new(0),
        };
        let texture = self.root.push(json::Texture {
            name: Some(name.to_owned()),
            sampler: Some(sampler),
            source: image,
            extensions: None,
            extras: None,
        });
        TextureId(id(texture.value()))
    }

    /// Adds a material like [`add_material`](Self::add_material) with glTF's metallic-roughness
    /// model: its textures (from [`add_png_texture`](Self::add_png_texture) or
    /// [`add_uri_texture`](Self::add_uri_texture), sampled with texture coordinates set 0) and how
    /// it is drawn. Without a metallic-roughness texture the material is a dielectric (metallic
    /// factor 0, glTF's default being 1).
    pub fn add_pbr_material(
        &mut self,
        name: &str,
        extras: Option<String>,
        pbr: &PbrMaterial,
    ) -> MaterialId {
        let info = |texture: Option<TextureId>| {
            texture.map(|texture| json::texture::Info {
                index: json::Index::new(texture.0),
                tex_coord: 0,
                extensions: None,
                extras: None,
            })
        };
        let mut material = json::Material {
            name: Some(name.to_owned()),
            extras: extras.and_then(raw_json),
            double_sided: pbr.double_sided,
            ..Default::default()
        };
        if let Some(cutoff) = pbr.alpha_cutoff {
            material.alpha_mode = Valid(json::material::AlphaMode::Mask);
            material.alpha_cutoff = Some(json::material::AlphaCutoff(cutoff));
        }
        let surface = &mut material.pbr_metallic_roughness;
        surface.base_color_texture = info(pbr.base_color);
        surface.metallic_roughness_texture = info(pbr.metallic_roughness);
        if pbr.metallic_roughness.is_none() {
            surface.metallic_factor = json::material::StrengthFactor(0.0);
        }
        material.normal_texture = pbr.normal.map(|texture| json::material::NormalTexture {
            index: json::Index::new(texture.0),
            scale: 1.0,
            tex_coord: 0,
            extensions: None,
            extras: None,
        });
        material.occlusion_texture =
            pbr.occlusion
                .map(|texture| json::material::OcclusionTexture {
                    index: json::Index::new(texture.0),
                    strength: json::material::StrengthFactor(1.0),
                    tex_coord: 0,
                    extensions: None,
                    extras: None,
                });
        let material = self.root.push(material);
        MaterialId(id(material.value()))
    }

    /// Adds a node (not yet in a scene: see [`add_child`](Self::add_child) and
    /// [`add_to_scene`](Self::add_to_scene)).
    pub fn add_node(&mut self, spec: &NodeSpec<'_>) -> NodeId {
        let node = self.root.push(json::Node {
            name: spec.name.map(str::to_owned),
            mesh: spec.mesh.map(|m| json::Index::new(m.0)),
            skin: spec.skin.map(|s| json::Index::new(s.0)),
            matrix: spec.matrix,
            ..Default::default()
        });
        NodeId(id(node.value()))
    }

    /// Adds a model's node hierarchy to `scene`, as both model exports read one (from an
    /// `assets.bin` visual or a `.visual` file): each node named, its game-space transform
    /// converted to glTF's ([`right_handed_matrix`](crate::wows::axes::right_handed_matrix)), a
    /// child of its parent, or a scene root when it has none (or names none of `nodes`). Returns
    /// the nodes' ids in the order given.
    pub fn add_hierarchy(&mut self, scene: SceneId, nodes: &[HierarchyNode<'_>]) -> Vec<NodeId> {
        let ids: Vec<NodeId> = nodes
            .iter()
            .map(|node| {
                self.add_node(&NodeSpec {
                    name: node.name,
                    matrix: Some(crate::wows::axes::right_handed_matrix(node.matrix)),
                    ..Default::default()
                })
            })
            .collect();
        for (node, &id) in nodes.iter().zip(&ids) {
            match node.parent.and_then(|p| ids.get(p)) {
                Some(&parent) => self.add_child(parent, id),
                None => self.add_to_scene(scene, id),
            }
        }
        ids
    }

    /// Makes `child` a child of `parent`.
    pub fn add_child(&mut self, parent: NodeId, child: NodeId) {
        if let Some(node) = self.root.nodes.get_mut(parent.0 as usize) {
            node.children
                .get_or_insert_with(Vec::new)
                .push(json::Index::new(child.0));
        }
    }

    /// Adds a skin over `joints` (nodes already added) with identity inverse bind matrices.
    pub fn add_skin(&mut self, name: &str, joints: &[NodeId]) -> SkinId {
        let skin = self.root.push(json::Skin {
            extensions: None,
            extras: None,
            inverse_bind_matrices: None,
            joints: joints.iter().map(|j| json::Index::new(j.0)).collect(),
            name: Some(name.to_owned()),
            skeleton: None,
        });
        SkinId(id(skin.value()))
    }

    /// Adds an empty scene named `name`; the first one added is the default scene.
    pub fn add_scene(&mut self, name: &str) -> SceneId {
        let scene = self.root.push(json::Scene {
            extensions: None,
            extras: None,
            name: Some(name.to_owned()),
            nodes: Vec::new(),
        });
        if self.root.scene.is_none() {
            self.root.scene = Some(scene);
        }
        SceneId(id(scene.value()))
    }

    /// Puts `node` (and its children) into `scene`.
    pub fn add_to_scene(&mut self, scene: SceneId, node: NodeId) {
        if let Some(scene) = self.root.scenes.get_mut(scene.0 as usize) {
            scene.nodes.push(json::Index::new(node.0));
        }
    }

    /// Number of meshes added.
    pub fn mesh_count(&self) -> usize {
        self.root.meshes.len()
    }

    /// Writes the GLB: a 12-byte header, the JSON chunk (padded with spaces) and the binary chunk
    /// (padded with zeros).
    pub fn finish(mut self) -> Result<Vec<u8>> {
        let bin_len = self.bin.len().next_multiple_of(4);
        self.bin.resize(bin_len, 0);
        if bin_len > 0 {
            self.root.buffers = vec![json::Buffer {
                byte_length: size(bin_len),
                name: None,
                uri: None,
                extensions: None,
                extras: None,
            }];
        }
        let mut text = self.root.to_vec().map_err(|_| {
            Error::invalid(
                0,
                "glTF JSON",
                0,
                "the glTF document could not be serialized",
            )
        })?;
        text.resize(text.len().next_multiple_of(4), b' ');
        let total = 12 + 8 + text.len() + if bin_len > 0 { 8 + bin_len } else { 0 };
        let u32_of = |n: usize| {
            u32::try_from(n)
                .map_err(|_| Error::invalid(0, "GLB length", u64_of(n), "a GLB is at most 4 GiB"))
        };
        let mut glb = Vec::with_capacity(total);
        glb.extend_from_slice(b"glTF");
        glb.extend_from_slice(&2u32.to_le_bytes());
        glb.extend_from_slice(&u32_of(total)?.to_le_bytes());
        glb.extend_from_slice(&u32_of(text.len())?.to_le_bytes());
        glb.extend_from_slice(b"JSON");
        glb.extend_from_slice(&text);
        if bin_len > 0 {
            glb.extend_from_slice(&u32_of(bin_len)?.to_le_bytes());
            glb.extend_from_slice(b"BIN\0");
            glb.extend_from_slice(&self.bin);
        }
        Ok(glb)
    }
}

/// Plain numbers as glTF's little-endian bytes: the values' own bytes on a little-endian machine,
/// converted one by one elsewhere.
fn le_bytes<T: bytemuck::Pod + LeBytes>(values: &[T]) -> Cow<'_, [u8]> {
    if cfg!(target_endian = "little") {
        Cow::Borrowed(bytemuck::cast_slice(values))
    } else {
        Cow::Owned(values.iter().flat_map(LeBytes::le_bytes).collect())
    }
}

/// The little-endian bytes of a number or an array of numbers.
trait LeBytes {
    fn le_bytes(&self) -> Vec<u8>;
}

macro_rules! le_bytes_of_arrays {
    ($($t:ty),*) => {$(
        impl<const N: usize> LeBytes for [$t; N] {
            fn le_bytes(&self) -> Vec<u8> {
                self.iter().flat_map(|v| v.to_le_bytes()).collect()
            }
        }
        impl LeBytes for $t {
            fn le_bytes(&self) -> Vec<u8> {
                self.to_le_bytes().to_vec()
            }
        }
    )*};
}

le_bytes_of_arrays!(f32, u16, u32);

fn raw_json(text: String) -> Option<Box<json::extras::RawValue>> {
    json::extras::RawValue::from_string(text).ok()
}

fn bounds(positions: &[[f32; 3]]) -> ([f32; 3], [f32; 3]) {
    let mut min = [f32::INFINITY; 3];
    let mut max = [f32::NEG_INFINITY; 3];
    for p in positions {
        for k in 0..3 {
            min[k] = min[k].min(p[k]);
            max[k] = max[k].max(p[k]);
        }
    }
    (min, max)
}

/// The normal of vertex `i`, converted, at unit length.
fn unit_normal(vertices: &Vertices<'_>, i: usize) -> [f32; 3] {
    let up = [0.0, 1.0, 0.0];
    vertices
        .normal(i)
        .map_or(up, |n| unit_or(right_handed(n), up))
}

/// The glTF tangent of vertex `i`: the stored tangent (converted, unit length) and in `w` the
/// handedness that makes `cross(normal, tangent) * w` the stored binormal.
fn tangent(vertices: &Vertices<'_>, i: usize) -> [f32; 4] {
    let unit =
        |v: Option<[f32; 3]>, fallback| v.map_or(fallback, |v| unit_or(right_handed(v), fallback));
    let n = unit_normal(vertices, i);
    let t = unit(vertices.tangent(i), [1.0, 0.0, 0.0]);
    let b = unit(vertices.binormal(i), [0.0, 0.0, 1.0]);
    let cross = [
        n[1] * t[2] - n[2] * t[1],
        n[2] * t[0] - n[0] * t[2],
        n[0] * t[1] - n[1] * t[0],
    ];
    let dot: f32 = (0..3).map(|k| cross[k] * b[k]).sum();
    [t[0], t[1], t[2], if dot < 0.0 { -1.0 } else { 1.0 }]
}

/// `JOINTS_0` bytes and `WEIGHTS_0` values for every vertex, and the largest joint used: the
/// stored bones ([`Vertices::bone_indices`]) are the joints and their weights
/// ([`Vertices::bone_weights`]) the weights, in that order, with a fourth of weight 0. A joint
/// named twice gets the weights together (glTF forbids a joint twice with weight), the weights are
/// scaled to sum to 1, and a joint left with weight 0 is written as joint 0, as glTF asks of an
/// unused joint (a rigid vertex stores its one bone three times, or weights of 0 for the others).
fn skinning(vertices: &Vertices<'_>) -> (Vec<u8>, Vec<[f32; 4]>, u8) {
    let mut joints = Vec::with_capacity(vertices.len() * 4);
    let mut weights = Vec::with_capacity(vertices.len());
    let mut max = 0;
    for i in 0..vertices.len() {
        let mut j = vertices.bone_indices(i).unwrap_or([0; 3]);
        let mut w = vertices.bone_weights(i).unwrap_or([1.0, 0.0, 0.0]);
        for a in 0..3 {
            for b in a + 1..3 {
                if j[a] == j[b] {
                    w[a] += w[b];
                    w[b] = 0.0;
                }
            }
        }
        let sum: f32 = w.iter().sum();
        if sum > 0.0 {
            w = w.map(|c| c / sum);
        } else {
            w = [1.0, 0.0, 0.0];
        }
        for (joint, &weight) in j.iter_mut().zip(&w) {
            if weight > 0.0 {
                max = max.max(*joint);
            } else {
                *joint = 0;
            }
        }
        joints.extend_from_slice(&[j[0], j[1], j[2], 0]);
        weights.push([w[0], w[1], w[2], 0.0]);
    }
    (joints, weights, max)
}

/// What [`geometry_to_glb`] includes.
#[derive(Debug, Clone, Copy, Default)]
pub struct GeometryGlbOptions {
    /// The armor models too, as extra meshes.
    pub armor: bool,
}

/// A part of a `.geometry` that [`geometry_to_glb`] would have exported: a draw, named by its
/// two mapping ids, or an armor model, named by its position in the file's armor table and by
/// its name when the name reads.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GeometryPart {
    /// A draw: an index mapping paired with a vertex mapping.
    Draw {
        /// The draw's vertex mapping id.
        vertices_id: u32,
        /// The draw's index mapping id.
        indices_id: u32,
    },
    /// An armor model (exported with [`GeometryGlbOptions::armor`]).
    Armor {
        /// Its position in the file's table of armor models.
        index: usize,
        /// Its name, `None` when the name itself could not be read.
        name: Option<String>,
    },
}

impl core::fmt::Display for GeometryPart {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            GeometryPart::Draw {
                vertices_id,
                indices_id,
            } => write!(f, "draw {vertices_id:#010x} + {indices_id:#010x}"),
            GeometryPart::Armor {
                index,
                name: Some(name),
            } => write!(f, "armor model {index} ({name:?})"),
            GeometryPart::Armor { index, name: None } => {
                write!(f, "armor model {index} (name unreadable)")
            }
        }
    }
}

/// A part [`geometry_to_glb`] left out, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SkippedPart {
    /// What was left out.
    pub part: GeometryPart,
    /// Why it could not be exported.
    pub error: Error,
}

/// One `.geometry` as a GLB.
#[derive(Debug, Clone)]
pub struct GeometryGlb {
    /// The file.
    pub bytes: Vec<u8>,
    /// Meshes written (draws, then armor models).
    pub meshes: usize,
    /// Draws and armor models that could not be exported, in the order they were tried.
    pub skipped: Vec<SkippedPart>,
}

/// Exports every sound draw of a decoded `.geometry` as a mesh on its own node, named
/// `<vertex mapping id>_<index mapping id>` in hex, in one scene; skinned draws get a skin over
/// joint nodes `joint_0` … under one root node `joints` (identity transforms: the geometry has no
/// skeleton of its own; joint `k` is the bone a vertex stores as index `k`). Draws
/// that cannot be exported (an index beyond their vertices, a buffer that did not decode) and
/// armor models that do not read are listed in [`GeometryGlb::skipped`] and the others still
/// exported: the bytes are then a partial result, which a caller should not pass off as the
/// whole file.
pub fn geometry_to_glb(
    view: &GeometryView<'_>,
    decoded: &DecodedGeometry,
    options: &GeometryGlbOptions,
) -> Result<GeometryGlb> {
    let mut builder = GlbBuilder::new();
    // Room for the converted attributes (under twice the stored vertex bytes for the formats seen)
    // and indices, so that the binary buffer is not regrown and copied on the way; sized by what
    // was decoded, never by a count the file claims.
    let vertex_bytes: usize = (0..view.vertex_buffer_count())
        .filter_map(|b| decoded.vertex_buffer(b)?.ok())
        .map(|v| v.bytes().len())
        .sum();
    let indices: usize = (0..view.index_buffer_count())
        .filter_map(|b| decoded.index_buffer(b)?.ok())
        .map(|i| i.len())
        .sum();
    builder.reserve(
        vertex_bytes
            .saturating_mul(2)
            .saturating_add(indices.saturating_mul(4)),
    );
    let scene = builder.add_scene("geometry");
    let mut skipped = Vec::new();
    let mut skinned = Vec::new();
    let mut max_joint = 0;
    for draw in decoded.draws(view) {
        let (vertices_id, indices_id) = (draw.vertices.id(), draw.indices.id());
        let name = format!("{vertices_id:08x}_{indices_id:08x}");
        let mesh = decoded
            .draw_data(&draw)
            .and_then(|data| builder.add_draw(&name, &data, None));
        match mesh {
            Ok(mesh) => {
                let node = builder.add_node(&NodeSpec {
                    name: Some(&name),
                    mesh: Some(mesh.mesh),
                    ..Default::default()
                });
                builder.add_to_scene(scene, node);
                if let Some(max) = mesh.max_joint {
                    max_joint = max_joint.max(max);
                    skinned.push(node);
                }
            }
            Err(error) => skipped.push(SkippedPart {
                part: GeometryPart::Draw {
                    vertices_id,
                    indices_id,
                },
                error,
            }),
        }
    }
    if !skinned.is_empty() {
        // The joints hang under one root node: glTF wants a skin's joints to share a root, and
        // the geometry names no skeleton that could give them one.
        let skeleton = builder.add_node(&NodeSpec {
            name: Some("joints"),
            ..Default::default()
        });
        builder.add_to_scene(scene, skeleton);
        let joints: Vec<NodeId> = (0..=max_joint)
            .map(|k| {
                let name = format!("joint_{k}");
                let joint = builder.add_node(&NodeSpec {
                    name: Some(&name),
                    ..Default::default()
                });
                builder.add_child(skeleton, joint);
                joint
            })
            .collect();
        let skin = builder.add_skin("geometry", &joints);
        for node in skinned {
            if let Some(n) = builder.root.nodes.get_mut(node.0 as usize) {
                n.skin = Some(json::Index::new(skin.0));
            }
        }
    }
    if options.armor {
        for (index, model) in view.armor_models().enumerate() {
            let mesh = model.name().and_then(|name| {
                let armor = model.armor()?;
                builder.add_armor(name, &model, &armor).map(|m| (name, m))
            });
            match mesh {
                Ok((name, mesh)) => {
                    let node = builder.add_node(&NodeSpec {
                        name: Some(name),
                        mesh: Some(mesh),
                        ..Default::default()
                    });
                    builder.add_to_scene(scene, node);
                }
                Err(error) => skipped.push(SkippedPart {
                    part: GeometryPart::Armor {
                        index,
                        name: model.name().ok().map(str::to_owned),
                    },
                    error,
                }),
            }
        }
    }
    let meshes = builder.mesh_count();
    Ok(GeometryGlb {
        bytes: builder.finish()?,
        meshes,
        skipped,
    })
}

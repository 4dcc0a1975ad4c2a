//! [`GlbBuilder`]: one GLB from accessors, meshes, nodes, skins, materials, textures and scenes.

use std::borrow::Cow;

use gltf_json as json;
use json::validation::Checked::Valid;
use json::validation::USize64;

use crate::bytes::u64_of;
use crate::export_error::{ExportError, ExportResult};

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

/// An accessor of a [`GlbBuilder`]: values in its binary buffer that a primitive reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AccessorId(u32);

/// What a primitive reads an accessor as: glTF's vertex attribute semantics.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Attribute {
    /// `POSITION` (`VEC3`, with bounds).
    Position,
    /// `NORMAL` (`VEC3`, unit length).
    Normal,
    /// `TANGENT` (`VEC4`: a unit tangent and the bitangent's sign in `w`).
    Tangent,
    /// `TEXCOORD_n` (`VEC2`, origin at the top left).
    TexCoord(u32),
    /// `JOINTS_n` (from [`GlbBuilder::add_joints`]).
    Joints(u32),
    /// `WEIGHTS_n` (`VEC4`, summing to 1).
    Weights(u32),
}

impl Attribute {
    fn semantic(self) -> json::mesh::Semantic {
        match self {
            Attribute::Position => json::mesh::Semantic::Positions,
            Attribute::Normal => json::mesh::Semantic::Normals,
            Attribute::Tangent => json::mesh::Semantic::Tangents,
            Attribute::TexCoord(set) => json::mesh::Semantic::TexCoords(set),
            Attribute::Joints(set) => json::mesh::Semantic::Joints(set),
            Attribute::Weights(set) => json::mesh::Semantic::Weights(set),
        }
    }
}

/// One triangle-list primitive of a mesh, for [`GlbBuilder::add_mesh`].
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Triangles {
    /// Its vertex attributes, each an accessor added before (an attribute named twice: the last).
    pub attributes: Vec<(Attribute, AccessorId)>,
    /// Its indices ([`GlbBuilder::add_indices`]); `None`: every three vertices are a triangle.
    pub indices: Option<AccessorId>,
    /// Its material.
    pub material: Option<MaterialId>,
    /// A JSON object for the primitive's extras.
    pub extras: Option<String>,
}

/// What [`GlbBuilder::place_mesh`] refuses: a skinned mesh whose vertices name a joint past the
/// nodes its skin would have.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct JointOutOfRange {
    /// The largest joint the vertices name.
    pub joint: u8,
    /// The nodes the skin would have.
    pub joints: usize,
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

/// One node of a hierarchy for [`GlbBuilder::add_hierarchy`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct HierarchyNode<'n> {
    /// The node's name.
    pub name: Option<&'n str>,
    /// Its transform relative to its parent, column-major, already in glTF's space.
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

    /// Adds `count` values of `N` floats (2, 3 or 4: glTF's `VEC2`, `VEC3`, `VEC4`) made by
    /// `value` as one accessor, written straight into the binary buffer (no copy of the values in
    /// between); with their bounds when `bounded` (glTF asks them of positions). The values are
    /// taken as they are: already in glTF's space and meaning.
    // Inlined into its caller, with the closure: the loop then reads the vertices with what the
    // caller knows of their format (a call per accessor cost 4% of a GLB's instructions).
    #[inline]
    pub fn add_floats<const N: usize>(
        &mut self,
        count: usize,
        bounded: bool,
        value: impl Fn(usize) -> [f32; N],
    ) -> AccessorId {
        // Checked when the call is compiled: glTF has float vectors of 2, 3 and 4 only.
        const {
            assert!(
                N >= 2 && N <= 4,
                "glTF float vectors have 2, 3 or 4 components"
            )
        };
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
        let accessor = self.root.push(json::Accessor {
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
        });
        AccessorId(id(accessor.value()))
    }

    /// Adds four joint indices per vertex (`JOINTS_n`, unsigned bytes) as one accessor.
    pub fn add_joints(&mut self, joints: &[[u8; 4]]) -> AccessorId {
        self.push_accessor(
            joints.as_flattened(),
            joints.len(),
            json::accessor::ComponentType::U8,
            json::accessor::Type::Vec4,
            json::buffer::Target::ArrayBuffer,
        )
    }

    /// Adds a primitive's vertex indices as one accessor, in the order given: as `u16` where every
    /// index fits below 65535, `u32` otherwise.
    pub fn add_indices(&mut self, indices: &[u32]) -> AccessorId {
        // 65535 is the primitive-restart value of u16 indices, which glTF forbids in the data.
        let narrow = indices.iter().all(|&m| m < 0xffff);
        let (bytes, component) = if narrow {
            let values: Vec<u16> = indices
                .iter()
                .map(|&v| u16::try_from(v).unwrap_or(u16::MAX))
                .collect();
            (
                le_bytes(&values).into_owned(),
                json::accessor::ComponentType::U16,
            )
        } else {
            (
                le_bytes(indices).into_owned(),
                json::accessor::ComponentType::U32,
            )
        };
        self.push_accessor(
            &bytes,
            indices.len(),
            component,
            json::accessor::Type::Scalar,
            json::buffer::Target::ElementArrayBuffer,
        )
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

    /// `bytes` (`count` values) as an accessor over a view of their own, without bounds.
    fn push_accessor(
        &mut self,
        bytes: &[u8],
        count: usize,
        component: json::accessor::ComponentType,
        type_: json::accessor::Type,
        target: json::buffer::Target,
    ) -> AccessorId {
        let view = self.push_view(bytes, target);
        let accessor = self.root.push(json::Accessor {
            buffer_view: Some(view),
            byte_offset: Some(USize64(0)),
            count: size(count),
            component_type: Valid(json::accessor::GenericComponentType(component)),
            extensions: None,
            extras: None,
            type_: Valid(type_),
            min: None,
            max: None,
            name: None,
            normalized: false,
            sparse: None,
        });
        AccessorId(id(accessor.value()))
    }

    /// Adds a mesh named `name` of `primitives`, each a triangle list over accessors added before.
    pub fn add_mesh(&mut self, name: &str, primitives: Vec<Triangles>) -> MeshId {
        let primitives = primitives
            .into_iter()
            .map(|p| json::mesh::Primitive {
                attributes: p
                    .attributes
                    .into_iter()
                    .map(|(attribute, accessor)| {
                        (Valid(attribute.semantic()), json::Index::new(accessor.0))
                    })
                    .collect(),
                extensions: None,
                extras: p.extras.and_then(raw_json),
                indices: p.indices.map(|a| json::Index::new(a.0)),
                material: p.material.map(|m| json::Index::new(m.0)),
                mode: Valid(json::mesh::Mode::Triangles),
                targets: None,
            })
            .collect();
        let mesh = self.root.push(json::Mesh {
            extensions: None,
            extras: None,
            name: Some(name.to_owned()),
            primitives,
            weights: None,
        });
        MeshId(id(mesh.value()))
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

    /// Adds a node hierarchy to `scene`: each node named, with its transform (already in glTF's
    /// space), a child of its parent, or a scene root when it has none (or names none of
    /// `nodes`). Returns the nodes' ids in the order given.
    pub fn add_hierarchy(&mut self, scene: SceneId, nodes: &[HierarchyNode<'_>]) -> Vec<NodeId> {
        let ids: Vec<NodeId> = nodes
            .iter()
            .map(|node| {
                self.add_node(&NodeSpec {
                    name: node.name,
                    matrix: Some(node.matrix),
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

    /// Makes `skin` deform the mesh of `node` (a node added before the skin, whose joints may be
    /// added after it).
    pub fn set_skin(&mut self, node: NodeId, skin: SkinId) {
        if let Some(node) = self.root.nodes.get_mut(node.0 as usize) {
            node.skin = Some(json::Index::new(skin.0));
        }
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
    pub fn finish(mut self) -> ExportResult<Vec<u8>> {
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
        let mut text = self
            .root
            .to_vec()
            .map_err(|_| ExportError::Unwritable { what: "glTF JSON" })?;
        text.resize(text.len().next_multiple_of(4), b' ');
        let total = 12 + 8 + text.len() + if bin_len > 0 { 8 + bin_len } else { 0 };
        // A GLB stores its lengths as 32-bit words.
        let u32_of = |n: usize| {
            u32::try_from(n).map_err(|_| ExportError::TooLarge {
                what: "GLB length",
                value: u64_of(n),
                limit: u64::from(u32::MAX),
            })
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

/// Indices as glTF's little-endian bytes: the values' own bytes on a little-endian machine,
/// converted one by one elsewhere.
fn le_bytes<T: bytemuck::Pod + LeBytes>(values: &[T]) -> Cow<'_, [u8]> {
    if cfg!(target_endian = "little") {
        Cow::Borrowed(bytemuck::cast_slice(values))
    } else {
        Cow::Owned(values.iter().flat_map(|v| v.le_bytes()).collect())
    }
}

/// The little-endian bytes of an index.
trait LeBytes {
    fn le_bytes(&self) -> impl Iterator<Item = u8>;
}

impl LeBytes for u16 {
    fn le_bytes(&self) -> impl Iterator<Item = u8> {
        self.to_le_bytes().into_iter()
    }
}

impl LeBytes for u32 {
    fn le_bytes(&self) -> impl Iterator<Item = u8> {
        self.to_le_bytes().into_iter()
    }
}

/// `text` as a glTF extras value (a JSON object the caller made); `None` if it is not JSON.
fn raw_json(text: String) -> Option<Box<json::extras::RawValue>> {
    json::extras::RawValue::from_string(text).ok()
}

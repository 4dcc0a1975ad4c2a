//! `.geometry` writing: [`GeometryFile`], the owned model of a file (from a view, to bytes, serde
//! with the `serde` feature), and [`GeometryBuilder`], which makes one from meshes — merged vertex
//! and index buffers (raw or ENCD), mappings with hashed ids, collision and armor models — and
//! writes it through the model, laid out the way the game's files are.
//!
//! ```
//! use gamebin::write::geometry::{GeometryBuilder, MeshVertex};
//! use gamebin::wows::geometry::GeometryView;
//!
//! let mut builder = GeometryBuilder::new();
//! let vb = builder.vertex_buffer("set3/xyznuvtbpc", true);
//! let ib = builder.index_buffer(2, true);
//! let triangle = [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]].map(MeshVertex::at);
//! builder.mesh("Triangle", vb, ib, 17000, &triangle, &[0, 1, 2]).unwrap();
//! let bytes = builder.to_bytes().unwrap();
//!
//! let view = GeometryView::from_bytes(&bytes).unwrap();
//! assert!(view.vertex_buffer(0).unwrap().is_encoded().unwrap());
//! assert_eq!(view.draw_by_name("Triangle").unwrap().indices.items_count(), 3);
//! ```

mod file;

pub use file::{
    GeometryFile, IndexBufferSpec, MAX_BLOB_PADDING, MappingSpec, ModelPrototypeSpec, PADDING_BYTE,
    VertexBufferSpec,
};

use zerocopy::IntoBytes;
use zerocopy::little_endian::{F32, U16, U32};

use super::sink::{Sink, invalid, narrow};
use crate::bytes::u64_of;
use crate::error::{Error, Result};
use crate::wows::geometry::raw::{
    Aabb, ArmorHeader, ArmorNodeHeader, ArmorVertex, ENCD_MAGIC, EncdHeader,
};
use crate::wows::geometry::{MappingKind, VertexFormat, encode};

/// One vertex's attributes; the writer places those the format has at the format's offsets.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MeshVertex {
    /// Position x, y, z (left-handed, Y up).
    pub position: [f32; 3],
    /// Unit normal (stored offset-binary).
    pub normal: [f32; 3],
    /// Texture coordinates as the game stores them (`uv − 0.5`).
    pub uv: [f32; 2],
    /// The second texture coordinate set (formats with `uv2`), stored like `uv`.
    pub uv1: [f32; 2],
    /// Unit tangent (stored offset-binary).
    pub tangent: [f32; 3],
    /// Unit binormal (stored offset-binary).
    pub binormal: [f32; 3],
    /// Bone indices (stored × 3).
    pub bones: [u8; 3],
    /// Bone weights.
    pub weights: [u8; 4],
}

impl MeshVertex {
    /// A vertex at `position` facing +Y, with neutral other attributes.
    pub fn at(position: [f32; 3]) -> MeshVertex {
        MeshVertex {
            position,
            normal: [0.0, 1.0, 0.0],
            uv: [0.0, 0.0],
            uv1: [0.0, 0.0],
            tangent: [1.0, 0.0, 0.0],
            binormal: [0.0, 0.0, 1.0],
            bones: [0, 0, 0],
            weights: [255, 0, 0, 0],
        }
    }
}

/// A unit component as an offset-binary byte (`v × 127 + 127`, rounded).
pub fn pack_unit(v: f32) -> u8 {
    (v.clamp(-1.0, 1.0) * 127.0 + 127.0).round() as u8
}

/// f32 to IEEE 754 binary16, rounding to nearest even (overflow to infinity, underflow to
/// subnormals and zero).
pub fn f32_to_f16(value: f32) -> u16 {
    let bits = value.to_bits();
    let sign = ((bits >> 16) & 0x8000) as u16;
    let exp = ((bits >> 23) & 0xff) as i32;
    let mant = bits & 0x7f_ffff;
    if exp == 0xff {
        return sign | 0x7c00 | if mant != 0 { 0x200 } else { 0 };
    }
    let e = exp - 127 + 15;
    if e >= 0x1f {
        return sign | 0x7c00;
    }
    if e <= 0 {
        if e < -10 {
            return sign;
        }
        let m = mant | 0x80_0000;
        let shift = (14 - e) as u32;
        let half = m >> shift;
        let rest = m & ((1 << shift) - 1);
        let halfway = 1 << (shift - 1);
        let round = rest > halfway || (rest == halfway && half & 1 == 1);
        return sign | (half + u32::from(round)) as u16;
    }
    let half = ((e as u32) << 10) | (mant >> 13);
    let rest = mant & 0x1fff;
    let round = rest > 0x1000 || (rest == 0x1000 && half & 1 == 1);
    sign | (half + u32::from(round)) as u16
}

/// Writes one attribute at its offset in a vertex record (an absent attribute writes nothing).
/// [`VertexFormat::fitted_to`] keeps only attributes that fit the stride, so a write past the
/// record would be a fault in the format table: it is reported, not dropped.
fn put_attribute(record: &mut [u8], at: Option<u8>, bytes: &[u8]) -> Result<()> {
    let Some(at) = at.map(usize::from) else {
        return Ok(());
    };
    let slot = at
        .checked_add(bytes.len())
        .and_then(|end| record.get_mut(at..end))
        .ok_or_else(|| {
            invalid(
                "VertexFormat.attribute",
                u64_of(at),
                "attribute outside the vertex record",
            )
        })?;
    slot.copy_from_slice(bytes);
    Ok(())
}

/// Packs `v` into one record of `format` (`stride` bytes).
pub fn pack_vertex(format: &VertexFormat, stride: usize, v: &MeshVertex) -> Result<Vec<u8>> {
    let f = format.fitted_to(stride);
    let mut out = vec![0u8; stride];
    put_attribute(&mut out, f.position, v.position.map(F32::new).as_bytes())?;
    let unit = |u: [f32; 3]| [pack_unit(u[0]), pack_unit(u[1]), pack_unit(u[2]), 0];
    put_attribute(&mut out, f.normal, &unit(v.normal))?;
    put_attribute(&mut out, f.tangent, &unit(v.tangent))?;
    put_attribute(&mut out, f.binormal, &unit(v.binormal))?;
    let uv = |t: [f32; 2]| t.map(|c| U16::new(f32_to_f16(c)));
    put_attribute(&mut out, f.uv0, uv(v.uv).as_bytes())?;
    put_attribute(&mut out, f.uv1, uv(v.uv1).as_bytes())?;
    let bones = v.bones.map(|b| b.saturating_mul(3));
    put_attribute(&mut out, f.bone_indices, &[bones[0], bones[1], bones[2], 0])?;
    put_attribute(&mut out, f.bone_weights, &v.weights)?;
    Ok(out)
}

/// A vertex buffer being built: its records unencoded until [`GeometryBuilder::to_file`].
#[derive(Debug, Clone)]
struct PendingVertices {
    format: String,
    stride: u16,
    skinned: bool,
    bumped: bool,
    encode: bool,
    data: Vec<u8>,
}

/// An index buffer being built: its indices unencoded until [`GeometryBuilder::to_file`].
#[derive(Debug, Clone)]
struct PendingIndices {
    index_size: u16,
    encode: bool,
    indices: Vec<u32>,
    /// Vertices the indices may refer to, for the encoder's bound.
    vertex_count: usize,
    /// Store `reserved` = 2, `indexSize` = 0, as some older files do.
    swapped_size_fields: bool,
}

/// Builds a `.geometry` file in memory.
#[derive(Debug, Clone, Default)]
pub struct GeometryBuilder {
    vertex_buffers: Vec<PendingVertices>,
    index_buffers: Vec<PendingIndices>,
    vertex_mappings: Vec<MappingSpec>,
    index_mappings: Vec<MappingSpec>,
    collision_models: Vec<ModelPrototypeSpec>,
    armor_models: Vec<ModelPrototypeSpec>,
    /// Bytes inserted before each blob, to exercise unaligned reads.
    misalign: usize,
}

fn build_error(what: &'static str, value: usize, reason: &'static str) -> Error {
    invalid(what, u64_of(value), reason)
}

impl GeometryBuilder {
    /// An empty file.
    pub fn new() -> Self {
        Self::default()
    }

    /// Inserts `bytes` padding bytes ([`PADDING_BYTE`]) before every blob and name so that they
    /// start at odd offsets, as some real files have them ([`GeometryFile::blob_padding`]); at
    /// most [`MAX_BLOB_PADDING`] ([`to_bytes`](Self::to_bytes) refuses more).
    pub fn misalign_blobs(&mut self, bytes: usize) -> &mut Self {
        self.misalign = bytes;
        self
    }

    /// Adds a merged vertex buffer of `format` (stride from the name), ENCD-encoded if `encode`.
    /// Returns its index.
    pub fn vertex_buffer(&mut self, format: &str, encode: bool) -> usize {
        let stride = VertexFormat::parse(format.as_bytes()).size;
        self.vertex_buffer_with(format, stride, false, true, encode)
    }

    /// Adds a merged vertex buffer with an explicit stride and flags. Returns its index.
    pub fn vertex_buffer_with(
        &mut self,
        format: &str,
        stride: u16,
        skinned: bool,
        bumped: bool,
        encode: bool,
    ) -> usize {
        self.vertex_buffers.push(PendingVertices {
            format: format.to_owned(),
            stride,
            skinned,
            bumped,
            encode,
            data: Vec::new(),
        });
        self.vertex_buffers.len() - 1
    }

    /// Adds a merged index buffer of 2- or 4-byte indices. Returns its index.
    pub fn index_buffer(&mut self, index_size: u16, encode: bool) -> usize {
        self.index_buffers.push(PendingIndices {
            index_size,
            encode,
            indices: Vec::new(),
            vertex_count: 0,
            swapped_size_fields: false,
        });
        self.index_buffers.len() - 1
    }

    /// Stores index buffer `ib`'s (2-byte) index size the way some older files do: `reserved` 2 and
    /// `indexSize` 0, the two u16 fields swapped.
    pub fn swap_index_size_fields(&mut self, ib: usize) -> Result<&mut Self> {
        let ibuf = self.index_buffers.get_mut(ib).ok_or_else(|| {
            build_error(
                "GeometryBuilder.swap_index_size_fields",
                ib,
                "no such index buffer",
            )
        })?;
        if ibuf.index_size != 2 {
            return Err(build_error(
                "GeometryBuilder.swap_index_size_fields",
                usize::from(ibuf.index_size),
                "only 2-byte index buffers are stored swapped",
            ));
        }
        ibuf.swapped_size_fields = true;
        Ok(self)
    }

    /// Appends a mesh named `name` to vertex buffer `vb` and index buffer `ib`, with mappings whose
    /// ids hash the name. `indices` are local to the mesh's vertices.
    pub fn mesh(
        &mut self,
        name: &str,
        vb: usize,
        ib: usize,
        texel_density: u16,
        vertices: &[MeshVertex],
        indices: &[u32],
    ) -> Result<&mut Self> {
        let ids = (
            MappingKind::Vertices.id_of(name),
            MappingKind::Indices.id_of(name),
        );
        self.mesh_with_ids(ids, vb, ib, texel_density, vertices, indices)
    }

    /// [`mesh`](Self::mesh) with explicit (vertex, index) mapping ids.
    pub fn mesh_with_ids(
        &mut self,
        (vertex_id, index_id): (u32, u32),
        vb: usize,
        ib: usize,
        texel_density: u16,
        vertices: &[MeshVertex],
        indices: &[u32],
    ) -> Result<&mut Self> {
        let vbuf = self
            .vertex_buffers
            .get_mut(vb)
            .ok_or_else(|| build_error("GeometryBuilder.mesh", vb, "no such vertex buffer"))?;
        let stride = usize::from(vbuf.stride);
        let format = VertexFormat::parse(vbuf.format.as_bytes());
        let first_vertex = vbuf.data.len().checked_div(stride).unwrap_or(0);
        for v in vertices {
            vbuf.data.extend(pack_vertex(&format, stride, v)?);
        }
        let vertex_total = vbuf.data.len().checked_div(stride).unwrap_or(0);
        let beyond = |&&i: &&u32| usize::try_from(i).map_or(true, |i| i >= vertices.len());
        if let Some(&bad) = indices.iter().find(beyond) {
            return Err(invalid(
                "GeometryBuilder.mesh",
                u64::from(bad),
                "index beyond the mesh's vertices",
            ));
        }
        let ibuf = self
            .index_buffers
            .get_mut(ib)
            .ok_or_else(|| build_error("GeometryBuilder.mesh", ib, "no such index buffer"))?;
        let first_index = ibuf.indices.len();
        ibuf.indices.extend_from_slice(indices);
        ibuf.vertex_count = ibuf.vertex_count.max(vertex_total);
        let count = |n: usize| {
            u32::try_from(n).map_err(|_| build_error("GeometryBuilder.mesh", n, "too many items"))
        };
        self.vertex_mappings.push(MappingSpec {
            id: vertex_id,
            buffer: narrow(vb, "MappingEntry.mergedBufferIndex")?,
            texel_density,
            items_offset: count(first_vertex)?,
            items_count: count(vertices.len())?,
        });
        self.index_mappings.push(MappingSpec {
            id: index_id,
            buffer: narrow(ib, "MappingEntry.mergedBufferIndex")?,
            texel_density,
            items_offset: count(first_index)?,
            items_count: count(indices.len())?,
        });
        Ok(self)
    }

    /// Appends raw vertex records to buffer `vb` without a mapping (for large synthetic buffers).
    pub fn raw_vertices(&mut self, vb: usize, records: &[u8]) -> Result<&mut Self> {
        let vbuf = self.vertex_buffers.get_mut(vb).ok_or_else(|| {
            build_error("GeometryBuilder.raw_vertices", vb, "no such vertex buffer")
        })?;
        vbuf.data.extend_from_slice(records);
        Ok(self)
    }

    /// Reorders the index mapping table (a permutation of positions), as files with texel
    /// densities may list them in another order than the vertex mappings.
    pub fn reorder_index_mappings(&mut self, order: &[usize]) -> Result<&mut Self> {
        let mut sorted = order.to_vec();
        sorted.sort_unstable();
        if sorted != (0..self.index_mappings.len()).collect::<Vec<_>>() {
            return Err(build_error(
                "GeometryBuilder.reorder_index_mappings",
                order.len(),
                "not a permutation",
            ));
        }
        self.index_mappings = order.iter().map(|&i| self.index_mappings[i]).collect();
        Ok(self)
    }

    /// Adds a collision model with an opaque payload.
    pub fn collision_model(&mut self, name: &str, payload: Vec<u8>) -> &mut Self {
        self.collision_models.push(ModelPrototypeSpec {
            name: name.to_owned(),
            data: payload,
        });
        self
    }

    /// Adds an armor model (payload from [`armor_payload`]).
    pub fn armor_model(&mut self, name: &str, payload: Vec<u8>) -> &mut Self {
        self.armor_models.push(ModelPrototypeSpec {
            name: name.to_owned(),
            data: payload,
        });
        self
    }

    /// The file as a model: each vertex and index buffer encoded (ENCD) or stored as asked, the
    /// mappings in their tables' order, the models as added.
    pub fn to_file(&self) -> Result<GeometryFile> {
        let vertex_buffers = self
            .vertex_buffers
            .iter()
            .map(PendingVertices::to_spec)
            .collect::<Result<_>>()?;
        let index_buffers = self
            .index_buffers
            .iter()
            .map(PendingIndices::to_spec)
            .collect::<Result<_>>()?;
        Ok(GeometryFile {
            vertex_buffers,
            index_buffers,
            vertex_mappings: self.vertex_mappings.clone(),
            index_mappings: self.index_mappings.clone(),
            collision_models: self.collision_models.clone(),
            armor_models: self.armor_models.clone(),
            blob_padding: self.misalign,
        })
    }

    /// Writes the file ([`to_file`](Self::to_file), then [`GeometryFile::to_bytes`]): the
    /// header, the two mapping tables, then each prototype table followed by the blobs and names
    /// its records point at.
    pub fn to_bytes(&self) -> Result<Vec<u8>> {
        self.to_file()?.to_bytes()
    }
}

impl PendingVertices {
    /// The stored blob (ENCD, or the records as they are) and the record's fields.
    fn to_spec(&self) -> Result<VertexBufferSpec> {
        let data = if self.encode {
            let stride = usize::from(self.stride);
            let payload = encode::vertices(&self.data, stride)?;
            encd_blob(self.data.len() / stride.max(1), &payload)?
        } else {
            self.data.clone()
        };
        Ok(VertexBufferSpec {
            format_name: self.format.clone(),
            stride: self.stride,
            is_skinned: u8::from(self.skinned),
            is_bumped: u8::from(self.bumped),
            data,
        })
    }
}

impl PendingIndices {
    /// The stored blob (ENCD, or 2- or 4-byte indices) and the record's two size fields.
    fn to_spec(&self) -> Result<IndexBufferSpec> {
        let data = if self.encode {
            let payload = encode::indices(&self.indices, self.vertex_count)?;
            encd_blob(self.indices.len(), &payload)?
        } else if self.index_size == 2 {
            let narrowed: Result<Vec<U16>> = self
                .indices
                .iter()
                .map(|&i| {
                    u16::try_from(i).map(U16::new).map_err(|_| {
                        invalid(
                            "GeometryBuilder.index",
                            u64::from(i),
                            "index does not fit 2 bytes",
                        )
                    })
                })
                .collect();
            narrowed?.as_bytes().to_vec()
        } else {
            let wide: Vec<U32> = self.indices.iter().map(|&i| U32::new(i)).collect();
            wide.as_bytes().to_vec()
        };
        // Some older files swap the two u16 fields: (2, 0) instead of (0, 2).
        let (reserved, index_size) = if self.swapped_size_fields {
            (self.index_size, 0)
        } else {
            (0, self.index_size)
        };
        Ok(IndexBufferSpec {
            index_size,
            reserved,
            data,
        })
    }
}

/// An ENCD blob: its header, then the meshoptimizer payload.
fn encd_blob(count: usize, payload: &[u8]) -> Result<Vec<u8>> {
    let mut blob = Sink::new();
    blob.put(&EncdHeader {
        magic: ENCD_MAGIC,
        element_count: U32::new(narrow(count, "EncdHeader.elementCount")?),
    });
    blob.put(payload);
    Ok(blob.into_bytes())
}

/// One node of an armor model for [`armor_payload`].
#[derive(Debug, Clone, Default)]
pub struct ArmorNodeSpec {
    /// Armor material id of the node's triangles.
    pub material_id: u8,
    /// 1-based armor layer.
    pub layer_index: u8,
    /// Triangles, three corners x, y, z each.
    pub triangles: Vec<[[f32; 3]; 3]>,
}

fn bounds_of<'t>(points: impl Iterator<Item = &'t [f32; 3]>) -> ([f32; 3], [f32; 3]) {
    points.fold(([f32::MAX; 3], [f32::MIN; 3]), |(mut lo, mut hi), p| {
        for k in 0..3 {
            lo[k] = lo[k].min(p[k]);
            hi[k] = hi[k].max(p[k]);
        }
        (lo, hi)
    })
}

fn aabb((lo, hi): ([f32; 3], [f32; 3])) -> Aabb {
    Aabb {
        min: lo.map(F32::new),
        max: hi.map(F32::new),
    }
}

/// An armor payload: id `0x80000001`, overall bounds, and each node with its bounds and triangles
/// (face normals, offset-binary).
pub fn armor_payload(nodes: &[ArmorNodeSpec]) -> Result<Vec<u8>> {
    let mut out = Sink::new();
    out.put(&ArmorHeader {
        id: U32::new(0x8000_0001),
        bounds: aabb(bounds_of(
            nodes.iter().flat_map(|n| n.triangles.iter().flatten()),
        )),
        node_count: U32::new(narrow(nodes.len(), "ArmorHeader.nodeCount")?),
    });
    for node in nodes {
        let vertex_count = node.triangles.len().checked_mul(3).ok_or_else(|| {
            invalid(
                "ArmorNode.vertexCount",
                u64_of(node.triangles.len()),
                "too many triangles",
            )
        })?;
        out.put(&ArmorNodeHeader {
            material_id: node.material_id,
            reserved0: 0,
            layer_index: node.layer_index,
            reserved1: 0,
            bounds: aabb(bounds_of(node.triangles.iter().flatten())),
            vertex_count: U32::new(narrow(vertex_count, "ArmorNode.vertexCount")?),
        });
        for t in &node.triangles {
            let n = face_normal(t);
            for p in t {
                out.put(&ArmorVertex {
                    position: p.map(F32::new),
                    normal: [pack_unit(n[0]), pack_unit(n[1]), pack_unit(n[2])],
                    reserved: 0,
                });
            }
        }
    }
    Ok(out.into_bytes())
}

fn face_normal(t: &[[f32; 3]; 3]) -> [f32; 3] {
    let a = [t[1][0] - t[0][0], t[1][1] - t[0][1], t[1][2] - t[0][2]];
    let b = [t[2][0] - t[0][0], t[2][1] - t[0][1], t[2][2] - t[0][2]];
    let n = [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ];
    let len = (n[0] * n[0] + n[1] * n[1] + n[2] * n[2]).sqrt();
    if len > 0.0 {
        n.map(|c| c / len)
    } else {
        [0.0, 1.0, 0.0]
    }
}

/// A cube of half-size `size` centred at `center`: 24 vertices (flat faces) and 36 indices.
pub fn cube(center: [f32; 3], size: f32) -> (Vec<MeshVertex>, Vec<u32>) {
    let mut vertices = Vec::with_capacity(24);
    let mut indices = Vec::with_capacity(36);
    // Each face: its normal axis and sign, and the two in-plane axes.
    for (first, (bone, sign)) in (0u32..).step_by(4).zip([
        (0u8, 1.0f32),
        (0, -1.0),
        (1, 1.0),
        (1, -1.0),
        (2, 1.0),
        (2, -1.0),
    ]) {
        let axis = usize::from(bone);
        let (u, v) = ((axis + 1) % 3, (axis + 2) % 3);
        for (a, b) in [(-1.0f32, -1.0f32), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)] {
            let mut p = center;
            p[axis] += sign * size;
            p[u] += a * size;
            p[v] += b * sign * size;
            let mut normal = [0.0; 3];
            normal[axis] = sign;
            let mut tangent = [0.0; 3];
            tangent[u] = 1.0;
            let mut binormal = [0.0; 3];
            binormal[v] = sign;
            vertices.push(MeshVertex {
                position: p,
                normal,
                uv: [a * 0.5, b * 0.5],
                uv1: [a * 0.25, b * 0.25],
                tangent,
                binormal,
                bones: [bone, 0, 0],
                weights: [255, 0, 0, 0],
            });
        }
        indices.extend([first, first + 1, first + 2, first, first + 2, first + 3]);
    }
    (vertices, indices)
}

/// A square pyramid (5 corners, 6 triangles) with smooth-ish normals.
pub fn pyramid(center: [f32; 3], size: f32) -> (Vec<MeshVertex>, Vec<u32>) {
    let apex = [center[0], center[1] + size, center[2]];
    let base = [(-1.0f32, -1.0f32), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)]
        .map(|(x, z)| [center[0] + x * size, center[1] - size, center[2] + z * size]);
    let mut vertices = vec![MeshVertex {
        uv: [0.0, 0.5],
        ..MeshVertex::at(apex)
    }];
    for (k, p) in base.iter().enumerate() {
        let d = [p[0] - center[0], 0.5 * size, p[2] - center[2]];
        let len = (d[0] * d[0] + d[1] * d[1] + d[2] * d[2]).sqrt();
        vertices.push(MeshVertex {
            normal: d.map(|c| c / len),
            uv: [if k % 3 == 0 { -0.5 } else { 0.5 }, -0.5],
            ..MeshVertex::at(*p)
        });
    }
    let indices = vec![0, 2, 1, 0, 3, 2, 0, 4, 3, 0, 1, 4, 1, 2, 3, 1, 3, 4];
    (vertices, indices)
}

/// The fixture set committed under `fixtures/wows-geometry/`: (file name, bytes).
pub fn fixtures() -> Result<Vec<(&'static str, Vec<u8>)>> {
    Ok(vec![
        ("ships_raw.geometry", ships(false)?.to_bytes()?),
        ("ships_encd.geometry", ships(true)?.to_bytes()?),
        ("mixed_formats.geometry", mixed_formats()?.to_bytes()?),
        (
            "pairing_by_index_range.geometry",
            pairing_by_index_range()?.to_bytes()?,
        ),
        (
            "ambiguous_pairing.geometry",
            ambiguous_pairing()?.to_bytes()?,
        ),
        (
            "swapped_index_size.geometry",
            swapped_index_size()?.to_bytes()?,
        ),
    ])
}

/// A flat quad of four vertices (two triangles), at height `y`.
pub fn quad(y: f32, size: f32) -> (Vec<MeshVertex>, Vec<u32>) {
    let corners = [[-1.0, -1.0], [1.0, -1.0], [1.0, 1.0], [-1.0, 1.0]];
    let vertices = corners
        .iter()
        .map(|[x, z]| MeshVertex {
            normal: [0.0, 1.0, 0.0],
            uv: [x * 0.5, z * 0.5],
            ..MeshVertex::at([x * size, y, z * size])
        })
        .collect();
    (vertices, vec![0, 2, 1, 0, 3, 2])
}

/// What real 0.10 files look like: no texel densities and the index mappings listed in another
/// order than the vertex mappings, over two vertex buffers that share one index buffer; two quads
/// of the same vertex count with identical indices (interchangeable). Every draw pairs by its index
/// range.
fn pairing_by_index_range() -> Result<GeometryBuilder> {
    let mut b = GeometryBuilder::new();
    let hull = b.vertex_buffer("set3/xyznuvtbpc", false);
    let discs = b.vertex_buffer("set3/xyznuvpc", false);
    let ib = b.index_buffer(2, false);
    let (v, i) = cube([0.0, 0.0, 0.0], 1.0);
    b.mesh("Hull", hull, ib, 0, &v, &i)?;
    let (v, i) = quad(0.5, 0.3);
    b.mesh("Disc_left", discs, ib, 0, &v, &i)?;
    let (v, i) = pyramid([0.0, 1.0, 0.0], 0.5);
    b.mesh("Mast", hull, ib, 0, &v, &i)?;
    let (v, i) = quad(0.5, 0.6);
    b.mesh("Disc_right", discs, ib, 0, &v, &i)?;
    b.reorder_index_mappings(&[2, 3, 0, 1])?;
    Ok(b)
}

/// Two vertex mappings of the same count whose index mappings hold different indices, and no texel
/// densities: nothing in the file tells them apart, so they pair in table order and the pairing
/// says so.
fn ambiguous_pairing() -> Result<GeometryBuilder> {
    let mut b = GeometryBuilder::new();
    let vb = b.vertex_buffer("set3/xyznuvtbpc", false);
    let ib = b.index_buffer(2, false);
    let (v, i) = quad(0.0, 1.0);
    b.mesh("Deck", vb, ib, 0, &v, &i)?;
    let (v, _) = quad(1.0, 1.0);
    b.mesh("Roof", vb, ib, 0, &v, &[0, 1, 2, 0, 2, 3])?;
    b.reorder_index_mappings(&[1, 0])?;
    Ok(b)
}

/// A 2-byte index buffer whose IndicesPrototype stores (2, 0) instead of (0, 2), as some older
/// files do.
fn swapped_index_size() -> Result<GeometryBuilder> {
    let mut b = GeometryBuilder::new();
    let vb = b.vertex_buffer("set3/xyznuvtbpc", false);
    let ib = b.index_buffer(2, false);
    let (v, i) = cube([0.0, 0.0, 0.0], 1.0);
    b.mesh("Cube", vb, ib, 0, &v, &i)?;
    b.swap_index_size_fields(ib)?;
    Ok(b)
}

/// Two meshes in one `set3/xyznuvtbpc` buffer with texel densities (index mappings listed in
/// another order), and an armor model: raw or ENCD.
fn ships(encode: bool) -> Result<GeometryBuilder> {
    let mut b = GeometryBuilder::new();
    let vb = b.vertex_buffer("set3/xyznuvtbpc", encode);
    let ib = b.index_buffer(2, encode);
    let (v, i) = cube([0.0, 1.0, 0.0], 1.0);
    b.mesh("Cube", vb, ib, 17293, &v, &i)?;
    let (v, i) = pyramid([3.0, 1.0, -2.0], 0.75);
    b.mesh("Pyramid", vb, ib, 19309, &v, &i)?;
    b.reorder_index_mappings(&[1, 0])?;
    let (v, _) = cube([0.0, 1.0, 0.0], 1.0);
    let faces = |range: core::ops::Range<usize>| {
        range
            .flat_map(|f| {
                let q = &v[4 * f..4 * f + 4];
                [
                    [q[0].position, q[1].position, q[2].position],
                    [q[0].position, q[2].position, q[3].position],
                ]
            })
            .collect::<Vec<_>>()
    };
    b.armor_model(
        "CM_PA_united.armor",
        armor_payload(&[
            ArmorNodeSpec {
                material_id: 7,
                layer_index: 1,
                triangles: faces(0..3),
            },
            ArmorNodeSpec {
                material_id: 12,
                layer_index: 2,
                triangles: faces(3..6),
            },
        ])?,
    );
    Ok(b)
}

/// Two vertex buffers of other formats (skinned, two UV sets), 4-byte indices, no texel densities
/// (pairing by position), a collision model, and every blob at an odd offset.
fn mixed_formats() -> Result<GeometryBuilder> {
    let mut b = GeometryBuilder::new();
    b.misalign_blobs(1);
    let skinned = b.vertex_buffer_with("set3/xyznuviiiwwtbpc", 36, true, true, false);
    let two_uv = b.vertex_buffer("set3/xyznuv2tbpc", true);
    let ib = b.index_buffer(4, false);
    let (v, i) = cube([0.0, 0.0, 0.0], 0.5);
    b.mesh("Turret_skinned", skinned, ib, 0, &v, &i)?;
    let (v, i) = pyramid([0.0, 2.0, 0.0], 0.5);
    b.mesh("Mast", two_uv, ib, 0, &v, &i)?;
    let (v, i) = cube([2.0, 0.0, 0.0], 0.25);
    b.mesh("Hull_lod1", two_uv, ib, 0, &v, &i)?;
    b.collision_model("CM_Hull.collision", (0u8..64).collect());
    Ok(b)
}

/// A small ENCD file with a mesh named `"Cube"` (for documentation examples).
pub fn example_file() -> Vec<u8> {
    ships(true).and_then(|b| b.to_bytes()).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::wows::geometry::f16_to_f32;

    #[test]
    fn f16_round_trips_every_half() {
        for h in 0..=u16::MAX {
            let f = f16_to_f32(h);
            if f.is_nan() {
                continue;
            }
            assert_eq!(f32_to_f16(f), h, "{h:#06x} -> {f}");
        }
        assert_eq!(f32_to_f16(1.0e6), 0x7c00);
        assert_eq!(f32_to_f16(1.0e-9), 0);
        assert_eq!(f32_to_f16(1.0 + 1.0 / 4096.0), 0x3c00, "ties round to even");
    }
}

//! [`GeometryBuilder`]: a `.geometry` made from meshes (merged vertex and index buffers, raw or
//! ENCD, mappings with hashed ids, collision and armor models) and written through the owned model
//! [`GeometryModel`]; and the packing of one vertex into a vertex format's record.

use zerocopy::IntoBytes;
use zerocopy::little_endian::{F32, U16, U32};

use crate::bytes::sink::{Sink, invalid, narrow};
use crate::bytes::u64_of;
use crate::wows::geometry::model::{
    GeometryModel, IndexBufferSpec, MappingSpec, ModelPrototypeSpec, VertexBufferSpec,
};
use crate::wows::geometry::raw::{ENCD_MAGIC, EncdHeader};
use crate::wows::geometry::{MappingKind, VertexFormat, encode};
use crate::write_error::{WriteError, WriteResult as Result};

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
    /// Bone indices in the order the skin reads them (first, second, third); stored × 3 and in
    /// the engine's byte order (see [`Vertices::bone_indices`](crate::wows::geometry::Vertices::bone_indices)).
    pub bones: [u8; 3],
    /// The first two bones' weights as bytes (`w × 255`); the third bone gets what remains.
    pub weights: [u8; 2],
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
            weights: [255, 0],
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
    // Both fields as the engine's packed vertex lays them out: a colour the shaders read back
    // swizzled, so the first index and weight go in the third byte.
    put_attribute(&mut out, f.bone_indices, &[bones[2], bones[1], bones[0], 0])?;
    put_attribute(
        &mut out,
        f.bone_weights,
        &[0, v.weights[1], v.weights[0], 0],
    )?;
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

fn build_error(what: &'static str, value: usize, reason: &'static str) -> WriteError {
    invalid(what, u64_of(value), reason)
}

/// A collision or armor model as added: both kinds are a name and a payload the builder does not
/// read.
fn model_spec(name: &str, data: Vec<u8>) -> ModelPrototypeSpec {
    ModelPrototypeSpec {
        name: name.to_owned(),
        data,
    }
}

/// What names a mesh's vertex and index mappings in [`GeometryBuilder::mesh`]: a name (`&str`),
/// whose hashes are the two ids as the game's files make them, or the `(vertex, index)` ids.
pub trait MeshIds {
    /// The (vertex mapping, index mapping) ids.
    fn mapping_ids(self) -> (u32, u32);
}

impl MeshIds for &str {
    fn mapping_ids(self) -> (u32, u32) {
        (
            MappingKind::Vertices.id_of(self),
            MappingKind::Indices.id_of(self),
        )
    }
}

impl MeshIds for &String {
    fn mapping_ids(self) -> (u32, u32) {
        self.as_str().mapping_ids()
    }
}

impl MeshIds for (u32, u32) {
    fn mapping_ids(self) -> (u32, u32) {
        self
    }
}

impl GeometryBuilder {
    /// An empty file.
    pub fn new() -> Self {
        Self::default()
    }

    /// Inserts `bytes` padding bytes ([`PADDING_BYTE`](super::PADDING_BYTE)) before every blob and name so that they
    /// start at odd offsets, as some real files have them ([`GeometryModel::blob_padding`]); at
    /// most [`MAX_BLOB_PADDING`](super::MAX_BLOB_PADDING) ([`to_bytes`](Self::to_bytes) refuses more).
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

    /// Appends a mesh to vertex buffer `vb` and index buffer `ib`, its two mappings named by `ids`:
    /// a name, whose hashes are their ids as in the game's files, or the (vertex, index) ids
    /// themselves. `indices` are local to the mesh's vertices.
    pub fn mesh(
        &mut self,
        ids: impl MeshIds,
        vb: usize,
        ib: usize,
        texel_density: u16,
        vertices: &[MeshVertex],
        indices: &[u32],
    ) -> Result<&mut Self> {
        let (vertex_id, index_id) = ids.mapping_ids();
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
        self.collision_models.push(model_spec(name, payload));
        self
    }

    /// Adds an armor model (payload from [`armor_payload`](super::armor_payload)).
    pub fn armor_model(&mut self, name: &str, payload: Vec<u8>) -> &mut Self {
        self.armor_models.push(model_spec(name, payload));
        self
    }

    /// The file as a model: each vertex and index buffer encoded (ENCD) or stored as asked, the
    /// mappings in their tables' order, the models as added.
    pub fn to_file(&self) -> Result<GeometryModel> {
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
        Ok(GeometryModel {
            vertex_buffers,
            index_buffers,
            vertex_mappings: self.vertex_mappings.clone(),
            index_mappings: self.index_mappings.clone(),
            collision_models: self.collision_models.clone(),
            armor_models: self.armor_models.clone(),
            blob_padding: self.misalign,
        })
    }

    /// Writes the file ([`to_file`](Self::to_file), then [`GeometryModel::to_bytes`]): the
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

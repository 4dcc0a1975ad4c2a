//! `.geometry` writing: [`GeometryModel::to_bytes`] lays a model out the way the game's files
//! are (header, mapping tables, prototype tables each followed by their blobs and names, every
//! pointer relative); [`GeometryBuilder`] (`builder.rs`) makes a model from meshes — merged vertex
//! and index buffers (raw or ENCD), mappings with hashed ids — and `armor.rs` armor payloads from
//! triangles.

use core::mem::offset_of;

use zerocopy::FromZeros;
use zerocopy::little_endian::{I64, U16, U32, U64};

use crate::bytes::sink::{Sink, invalid, narrow, relative};
use crate::bytes::u64_of;
use crate::wows::geometry::model::{
    GeometryModel, MAX_BLOB_PADDING, MappingSpec, ModelPrototypeSpec, PADDING_BYTE,
};
use crate::wows::geometry::raw::{
    Header, IndicesPrototype, MappingEntry, ModelPrototype, PackedString, VerticesPrototype,
};
use crate::write_error::{WriteContext, WriteResult};

mod armor;
mod builder;
mod rules;

pub use armor::{ArmorNodeSpec, armor_payload};
pub use builder::{GeometryBuilder, MeshIds, MeshVertex, f32_to_f16, pack_unit, pack_vertex};

impl GeometryModel {
    /// Writes the file in the layout described at [`GeometryModel`]. Fails with a writer
    /// error naming the structure and field when a count, size or name does not fit its field,
    /// or when [`blob_padding`](Self::blob_padding) is over [`MAX_BLOB_PADDING`]; and, with the
    /// model's path to the field, for every value the reader would refuse, so that what is written
    /// is a file `check` accepts: a vertex stride that does not divide a raw buffer or that
    /// meshoptimizer cannot decode, an index size other than 2 or 4, a mapping that names no
    /// buffer, runs past its buffer or (indices) is not whole triangles, and what the reader's
    /// check of the written bytes finds (an ENCD payload that does not decode, an index mapping
    /// that pairs with no vertex mapping).
    ///
    /// ```
    /// use gamebin::wows::geometry::GeometryView;
    /// use gamebin::wows::geometry::model::{GeometryModel, ModelPrototypeSpec};
    ///
    /// let mut file = GeometryModel::new();
    /// file.collision_models.push(ModelPrototypeSpec {
    ///     name: "CM_Hull.collision".into(),
    ///     data: vec![1, 2, 3],
    /// });
    /// let bytes = file.to_bytes()?;
    /// let view = GeometryView::from_bytes(&bytes)?;
    /// let model = view.collision_models().next().expect("one collision model");
    /// assert_eq!((model.name()?, model.data()?), ("CM_Hull.collision", &[1u8, 2, 3][..]));
    /// assert_eq!(GeometryModel::from_view(&view)?, file);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn to_bytes(&self) -> WriteResult<Vec<u8>> {
        if self.blob_padding > MAX_BLOB_PADDING {
            return Err(invalid(
                "GeometryFile.blob_padding",
                u64_of(self.blob_padding),
                "more than MAX_BLOB_PADDING (16) bytes before every blob and name",
            )
            .in_field("blob_padding"));
        }
        self.check_fields()?;
        let mut out = Sink::new();
        let header_slot = out.reserve::<Header>(1, "Header")?;
        let mut header = Header::new_zeroed();
        let count = |n: usize, what| narrow::<u32>(n, what).map(U32::new);
        // A list too long for its count: the error's path is the list.
        let list_count = |n: usize, what, list| count(n, what).in_field(list);
        header.merged_vertices_count = list_count(
            self.vertex_buffers.len(),
            "Header.mergedVerticesCount",
            "vertex_buffers",
        )?;
        header.merged_indices_count = list_count(
            self.index_buffers.len(),
            "Header.mergedIndicesCount",
            "index_buffers",
        )?;
        header.vertices_mapping_count = list_count(
            self.vertex_mappings.len(),
            "Header.verticesMappingCount",
            "vertex_mappings",
        )?;
        header.indices_mapping_count = list_count(
            self.index_mappings.len(),
            "Header.indicesMappingCount",
            "index_mappings",
        )?;
        header.collision_model_count = list_count(
            self.collision_models.len(),
            "Header.collisionModelCount",
            "collision_models",
        )?;
        header.armor_model_count = list_count(
            self.armor_models.len(),
            "Header.armorModelCount",
            "armor_models",
        )?;

        header.vertices_mapping_ptr = table_ptr(&out, self.vertex_mappings.len())?;
        put_mappings(&mut out, &self.vertex_mappings);
        header.indices_mapping_ptr = table_ptr(&out, self.index_mappings.len())?;
        put_mappings(&mut out, &self.index_mappings);

        // Vertex buffers: the prototype table, then each blob followed by its format name.
        header.merged_vertices_ptr = table_ptr(&out, self.vertex_buffers.len())?;
        let table =
            out.reserve::<VerticesPrototype>(self.vertex_buffers.len(), "VerticesPrototype")?;
        for (i, vb) in self.vertex_buffers.iter().enumerate() {
            let mut put = || -> WriteResult<()> {
                let at = table.record(i)?;
                let data_at = self.put_blob(&mut out, &vb.data)?;
                let name_at = self.put_name(&mut out, &vb.format_name)?;
                let record = VerticesPrototype {
                    vertices_data_ptr: pointer(at, data_at, "VerticesPrototype.verticesDataPtr")?,
                    format_name: packed_string(
                        at + offset_of!(VerticesPrototype, format_name),
                        name_at,
                        &vb.format_name,
                        "VerticesPrototype.formatName",
                    )?,
                    size_in_bytes: count(vb.data.len(), "VerticesPrototype.sizeInBytes")?,
                    stride_in_bytes: U16::new(vb.stride),
                    is_skinned: vb.is_skinned,
                    is_bumped: vb.is_bumped,
                };
                out.patch_record(&table, i, &record)?;
                Ok(())
            };
            put().at_index(i).in_field("vertex_buffers")?;
        }

        // Index buffers: the prototype table, then each blob.
        header.merged_indices_ptr = table_ptr(&out, self.index_buffers.len())?;
        let table =
            out.reserve::<IndicesPrototype>(self.index_buffers.len(), "IndicesPrototype")?;
        for (i, ib) in self.index_buffers.iter().enumerate() {
            let mut put = || -> WriteResult<()> {
                let at = table.record(i)?;
                let data_at = self.put_blob(&mut out, &ib.data)?;
                let record = IndicesPrototype {
                    indices_data_ptr: pointer(at, data_at, "IndicesPrototype.indicesDataPtr")?,
                    size_in_bytes: count(ib.data.len(), "IndicesPrototype.sizeInBytes")?,
                    reserved: U16::new(ib.reserved),
                    index_size: U16::new(ib.index_size),
                };
                out.patch_record(&table, i, &record)?;
                Ok(())
            };
            put().at_index(i).in_field("index_buffers")?;
        }

        // Collision and armor models: each table, then each payload followed by its name.
        header.collision_models_ptr = self
            .put_models(&mut out, &self.collision_models)
            .in_field("collision_models")?;
        header.armor_models_ptr = self
            .put_models(&mut out, &self.armor_models)
            .in_field("armor_models")?;
        out.patch_record(&header_slot, 0, &header)?;
        let bytes = out.into_bytes();
        self.check_written(&bytes)?;
        Ok(bytes)
    }

    /// A model table and, after it, each payload followed by its name; returns the header's
    /// pointer to the table.
    fn put_models(&self, out: &mut Sink, models: &[ModelPrototypeSpec]) -> WriteResult<I64> {
        let ptr = table_ptr(out, models.len())?;
        let table = out.reserve::<ModelPrototype>(models.len(), "ModelPrototype")?;
        for (i, model) in models.iter().enumerate() {
            let mut put = || -> WriteResult<()> {
                let at = table.record(i)?;
                let data_at = self.put_blob(out, &model.data)?;
                let name_at = self.put_name(out, &model.name)?;
                let size: u64 = narrow(model.data.len(), "ModelPrototype.sizeInBytes")?;
                let record = ModelPrototype {
                    size_in_bytes: U64::new(size),
                    name: packed_string(
                        at + offset_of!(ModelPrototype, name),
                        name_at,
                        &model.name,
                        "ModelPrototype.name",
                    )?,
                    data_ptr: pointer(at, data_at, "ModelPrototype.dataPtr")?,
                };
                out.patch_record(&table, i, &record)?;
                Ok(())
            };
            put().at_index(i)?;
        }
        Ok(ptr)
    }

    /// The padding, then `blob`; returns where the blob starts.
    fn put_blob(&self, out: &mut Sink, blob: &[u8]) -> WriteResult<usize> {
        out.fill(PADDING_BYTE, self.blob_padding)?;
        Ok(out.put(blob))
    }

    /// The padding, then `name` and its NUL; returns where the name starts.
    fn put_name(&self, out: &mut Sink, name: &str) -> WriteResult<usize> {
        let at = self.put_blob(out, name.as_bytes())?;
        out.put(&0u8);
        Ok(at)
    }
}

impl MappingSpec {
    fn to_raw(self) -> MappingEntry {
        MappingEntry {
            mapping_id: U32::new(self.id),
            merged_buffer_index: U16::new(self.buffer),
            packed_texel_density: U16::new(self.texel_density),
            items_offset: U32::new(self.items_offset),
            items_count: U32::new(self.items_count),
        }
    }
}

/// A mapping table, in the order given.
fn put_mappings(out: &mut Sink, mappings: &[MappingSpec]) {
    let entries: Vec<MappingEntry> = mappings.iter().map(|m| m.to_raw()).collect();
    out.put(entries.as_slice());
}

/// A header pointer (relative to the file start) to a table about to be written at the end of
/// `out`: null for an empty table, as the game's files have it.
fn table_ptr(out: &Sink, count: usize) -> WriteResult<I64> {
    if count == 0 {
        return Ok(I64::new(0));
    }
    pointer(0, out.len(), "Header.tablePtr")
}

/// The relative pointer from the struct at `base` to `target`.
fn pointer(base: usize, target: usize, what: &'static str) -> WriteResult<I64> {
    relative(base, target, what).map(I64::new)
}

/// A packed string at `at` whose text (NUL-terminated) was written at `text_at`.
fn packed_string(
    at: usize,
    text_at: usize,
    text: &str,
    what: &'static str,
) -> WriteResult<PackedString> {
    let with_nul = text
        .len()
        .checked_add(1)
        .ok_or_else(|| invalid(what, u64_of(text.len()), "name too long"))?;
    Ok(PackedString {
        char_count: U32::new(narrow(with_nul, what)?),
        padding: [0; 4],
        text_ptr: pointer(at, text_at, what)?,
    })
}

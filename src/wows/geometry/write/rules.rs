//! What the reader refuses, refused by the writer: a model whose file `check` would call broken is
//! not written. Each rule is the reader's own predicate (from `vertices.rs`, `indices.rs`,
//! `encd.rs`, `mapping.rs`), applied to the model's fields before anything is laid out, so that the
//! refusal names the field (`vertex_buffers[0].stride`, `vertex_mappings[2].items_count`); what
//! depends on the data themselves (an ENCD payload that does not decode with its stride, an index
//! mapping no vertex mapping can be paired with) is found by the reader's check of the bytes
//! written, and named by the mapping or buffer it is about.

use crate::error::{Error, ErrorKind};
use crate::wows::geometry::encd::Encd;
use crate::wows::geometry::indices::{
    BAD_INDEX_SIZE, NOT_WHOLE_INDICES, effective_index_size, whole_indices,
};
use crate::wows::geometry::mapping::{
    NO_MERGED_BUFFER, NOT_WHOLE_TRIANGLES, RANGE_PAST_BUFFER, range_fits, whole_triangles,
};
use crate::wows::geometry::model::{GeometryModel, IndexBufferSpec, MappingSpec, VertexBufferSpec};
use crate::wows::geometry::vertices::{NOT_WHOLE_STRIDES, whole_strides};
use crate::wows::geometry::{GeometryFinding, GeometryView, PairingDoubt};
use crate::write_error::{WriteContext, WriteError, WriteResult};

/// The format's fields of one mapping table, for the refusals.
struct MappingFields {
    list: &'static str,
    buffer: &'static str,
    offset: &'static str,
    count: &'static str,
    /// Index mappings: their ranges are triangle lists.
    triangles: bool,
}

const VERTEX_MAPPINGS: MappingFields = MappingFields {
    list: "vertex_mappings",
    buffer: "MappingEntry(vertices).mergedBufferIndex",
    offset: "MappingEntry(vertices).itemsOffset",
    count: "MappingEntry(vertices).itemsCount",
    triangles: false,
};

const INDEX_MAPPINGS: MappingFields = MappingFields {
    list: "index_mappings",
    buffer: "MappingEntry(indices).mergedBufferIndex",
    offset: "MappingEntry(indices).itemsOffset",
    count: "MappingEntry(indices).itemsCount",
    triangles: true,
};

impl GeometryModel {
    /// Refuses every value of the model's buffers and mappings that the reader refuses (see the
    /// module docs), before anything is written.
    pub(super) fn check_fields(&self) -> WriteResult<()> {
        let vertices = self
            .vertex_buffers
            .iter()
            .enumerate()
            .map(|(i, vb)| vertex_count(vb).at_index(i).in_field("vertex_buffers"))
            .collect::<WriteResult<Vec<usize>>>()?;
        let indices = self
            .index_buffers
            .iter()
            .enumerate()
            .map(|(i, ib)| index_count(ib).at_index(i).in_field("index_buffers"))
            .collect::<WriteResult<Vec<usize>>>()?;
        check_mappings(&self.vertex_mappings, &vertices, &VERTEX_MAPPINGS)?;
        check_mappings(&self.index_mappings, &indices, &INDEX_MAPPINGS)
    }

    /// Refuses `bytes`, the file written, when the reader's check finds an error in it: what the
    /// fields alone do not decide (an ENCD payload that does not decode with its stride, indices
    /// that need more vertices than any vertex mapping has). The refusal names the mapping or
    /// buffer the check names.
    pub(super) fn check_written(&self, bytes: &[u8]) -> WriteResult<()> {
        let view = GeometryView::from_bytes(bytes)?;
        let found = view.check().map_err(|e| blob_refusal(&view, e))?;
        match found.errors.first() {
            Some(finding) => Err(self.refusal(finding)),
            None => Ok(()),
        }
    }

    /// The refusal of a file whose check found `finding`, at the model's entry it is about.
    fn refusal(&self, finding: &GeometryFinding) -> WriteError {
        let position = |mappings: &[MappingSpec], id: u32| mappings.iter().position(|m| m.id == id);
        let at_mapping =
            |error: WriteError, list: &str, mappings: &[MappingSpec], id| match position(
                mappings, id,
            ) {
                Some(i) => error.at_index(i).in_field(list),
                None => error.in_field(list),
            };
        match *finding {
            GeometryFinding::DrawUnreadable {
                vertices_id,
                indices_id,
                error,
            } => {
                // The record the reader was reading when it failed: a buffer's data, or a mapping.
                let what = error.what();
                let (list, mappings, id) = if what.starts_with("MappingEntry(vertices)") {
                    ("vertex_mappings", &self.vertex_mappings, vertices_id)
                } else {
                    ("index_mappings", &self.index_mappings, indices_id)
                };
                let buffer = |mappings: &[MappingSpec], id| {
                    position(mappings, id)
                        .and_then(|i| mappings.get(i))
                        .map(|m| usize::from(m.buffer))
                };
                let error = WriteError::from(error);
                if what.starts_with("VerticesPrototype") {
                    if let Some(b) = buffer(&self.vertex_mappings, vertices_id) {
                        return error.at_index(b).in_field("vertex_buffers");
                    }
                } else if what.starts_with("IndicesPrototype") {
                    if let Some(b) = buffer(&self.index_mappings, indices_id) {
                        return error.at_index(b).in_field("index_buffers");
                    }
                }
                at_mapping(error, list, mappings, id)
            }
            GeometryFinding::Pairing {
                index_mapping_id,
                doubt,
            } => {
                let reason = match doubt {
                    PairingDoubt::IndexDataUnreadable(_) => "its index data cannot be read",
                    _ => {
                        "no unpaired vertex mapping of its texel density has the vertices its \
                         indices need"
                    }
                };
                let error = WriteError::invalid(
                    "MappingEntry(indices)",
                    u64::from(index_mapping_id),
                    reason,
                );
                at_mapping(
                    error,
                    "index_mappings",
                    &self.index_mappings,
                    index_mapping_id,
                )
            }
            // Not an error of the check; the model as a whole if it ever becomes one.
            _ => WriteError::invalid("GeometryFile", 0, "the file written does not check clean"),
        }
    }
}

/// The refusal of a file the reader stopped reading at `error`: at the blob the error is in (an
/// armor payload the reader cannot walk, say), found by its place in the file written.
fn blob_refusal(view: &GeometryView<'_>, error: Error) -> WriteError {
    let at = error.offset();
    let holds = |start: crate::error::Result<usize>, len: u64| {
        // The end included: a read that runs out stops at the blob's end.
        start.is_ok_and(|start| (start as u64..=(start as u64).saturating_add(len)).contains(&at))
    };
    let error = WriteError::from(error);
    let place = [
        (
            "vertex_buffers",
            view.vertex_buffers()
                .position(|b| holds(b.data_offset(), u64::from(b.size_in_bytes()))),
        ),
        (
            "index_buffers",
            view.index_buffers()
                .position(|b| holds(b.data_offset(), u64::from(b.size_in_bytes()))),
        ),
        (
            "collision_models",
            view.collision_models()
                .position(|m| holds(m.data_offset(), m.size_in_bytes())),
        ),
        (
            "armor_models",
            view.armor_models()
                .position(|m| holds(m.data_offset(), m.size_in_bytes())),
        ),
    ]
    .into_iter()
    .find_map(|(list, i)| Some((list, i?)));
    match place {
        Some((list, i)) => error.in_field("data").at_index(i).in_field(list),
        None => error,
    }
}

/// The reader's reason for refusing a value, or `fallback` when its error says no reason.
fn reason(error: &Error, fallback: &'static str) -> &'static str {
    match error.kind() {
        ErrorKind::InvalidValue { reason, .. } => reason,
        _ => fallback,
    }
}

/// The vertices a buffer holds as the reader counts them, or the refusal of its stride: raw data
/// must be a whole number of strides; ENCD data need a stride meshoptimizer can decode and an
/// element count its payload can hold.
fn vertex_count(vb: &VertexBufferSpec) -> WriteResult<usize> {
    let stride = usize::from(vb.stride);
    let refuse = |reason| {
        WriteError::invalid(
            "VerticesPrototype.strideInBytes",
            u64::from(vb.stride),
            reason,
        )
        .in_field("stride")
    };
    match Encd::parse(&vb.data, 0) {
        Some(encd) => match encd.vertex_output_len(stride, "VerticesPrototype.strideInBytes") {
            Ok(_) => Ok(encd.element_count as usize),
            // A payload of a codec the reader does not know: the data, not the stride.
            Err(e) if !matches!(e.kind(), ErrorKind::InvalidValue { .. }) => {
                Err(WriteError::from(e).in_field("data"))
            }
            Err(e) => Err(refuse(reason(
                &e,
                "the stride does not fit the ENCD payload",
            ))),
        },
        None => whole_strides(vb.data.len(), stride).ok_or_else(|| refuse(NOT_WHOLE_STRIDES)),
    }
}

/// The indices a buffer holds as the reader counts them, or the refusal of its index size (2 or
/// 4, or the swapped (0, 2); raw data a whole number of indices) or of its ENCD element count.
fn index_count(ib: &IndexBufferSpec) -> WriteResult<usize> {
    let refuse = |reason| {
        WriteError::invalid(
            "IndicesPrototype.indexSize",
            u64::from(ib.index_size),
            reason,
        )
        .in_field("index_size")
    };
    let size =
        effective_index_size(ib.index_size, ib.reserved).ok_or_else(|| refuse(BAD_INDEX_SIZE))?;
    match Encd::parse(&ib.data, 0) {
        Some(encd) => encd
            .check_index_count("IndicesPrototype.indicesData(ENCD)")
            .map_err(|e| WriteError::from(e).in_field("data")),
        None if whole_indices(ib.data.len(), size) => Ok(ib.data.len() / size),
        None => Err(refuse(NOT_WHOLE_INDICES)),
    }
}

/// Refuses a mapping that names no buffer of its kind, whose range runs past its buffer's `items`,
/// or (index mappings) whose range is not whole triangles.
fn check_mappings(
    mappings: &[MappingSpec],
    items: &[usize],
    fields: &MappingFields,
) -> WriteResult<()> {
    for (i, m) in mappings.iter().enumerate() {
        let refuse = |field, model_field, value: u32, reason| {
            WriteError::invalid(field, u64::from(value), reason)
                .in_field(model_field)
                .at_index(i)
                .in_field(fields.list)
        };
        let Some(&n) = items.get(usize::from(m.buffer)) else {
            return Err(refuse(
                fields.buffer,
                "buffer",
                u32::from(m.buffer),
                NO_MERGED_BUFFER,
            ));
        };
        let (offset, count) = (m.items_offset as usize, m.items_count as usize);
        if !range_fits(offset, count, n) {
            // The offset alone past the buffer is the offset's fault; otherwise the count's.
            return Err(if offset > n {
                refuse(
                    fields.offset,
                    "items_offset",
                    m.items_offset,
                    RANGE_PAST_BUFFER,
                )
            } else {
                refuse(
                    fields.count,
                    "items_count",
                    m.items_count,
                    RANGE_PAST_BUFFER,
                )
            });
        }
        if fields.triangles && !whole_triangles(count) {
            return Err(refuse(
                fields.count,
                "items_count",
                m.items_count,
                NOT_WHOLE_TRIANGLES,
            ));
        }
    }
    Ok(())
}

//! [`DecodedGeometry`]: every merged buffer of a file decoded once and its draws paired, each
//! draw's vertices and indices handed out as slices of buffers the caller owns and reuses.

use super::GeometryView;
use super::attributes::Vertices;
use super::draw::Draw;
use super::indices::Indices;
use super::pairing::DrawTable;
use super::vertex_format::VertexFormat;
use crate::bytes::u64_of;
use crate::error::{Error, Result};

#[derive(Debug, Clone)]
struct VertexSlot {
    bytes: Vec<u8>,
    stride: usize,
    /// Where the stride is stored, for errors about it.
    stride_at: usize,
    format: VertexFormat,
    state: Result<()>,
}

impl Default for VertexSlot {
    fn default() -> Self {
        VertexSlot {
            bytes: Vec::new(),
            stride: 0,
            stride_at: 0,
            format: VertexFormat::default(),
            state: Ok(()),
        }
    }
}

#[derive(Debug, Clone)]
struct IndexSlot {
    /// 2-byte buffers decode into `narrow`, 4-byte ones into `wide`: a raw buffer of the same
    /// width is then one copy.
    narrow: Vec<u16>,
    wide: Vec<u32>,
    size: usize,
    state: Result<()>,
}

impl Default for IndexSlot {
    fn default() -> Self {
        IndexSlot {
            narrow: Vec::new(),
            wide: Vec::new(),
            size: 2,
            state: Ok(()),
        }
    }
}

/// One draw's vertices and indices, checked: the indices are whole triangles and every index is
/// below the vertex count.
#[derive(Debug, Clone, Copy)]
pub struct DrawData<'b> {
    /// The draw's vertices (its range of the merged buffer).
    pub vertices: Vertices<'b>,
    /// The draw's indices, local to `vertices`.
    pub indices: Indices<'b>,
}

/// Every merged buffer of one `.geometry` decoded (ENCD) or copied (raw) once, and the draws
/// paired from the decoded indices. Owned by the caller and reusable: [`decode`](Self::decode)
/// another file into the same value and its buffers are reused, so a pipeline allocates only when a
/// file needs more room than any before it.
///
/// ```
/// # #[cfg(feature = "write")]
/// # fn main() -> Result<(), gamebin::Error> {
/// # let file = gamebin::synth::geometry::example_file();
/// use gamebin::wows::geometry::{DecodedGeometry, GeometryView};
///
/// let mut decoded = DecodedGeometry::new(); // keep it across files
/// let geometry = GeometryView::from_bytes(&file)?;
/// decoded.decode(&geometry);
/// for draw in decoded.draws(&geometry) {
///     let data = decoded.draw_data(&draw)?; // checked: every index is below the vertex count
///     for [a, b, c] in data.indices.triangles() {
///         let _corner = data.vertices.position(a as usize);
///     }
/// }
/// assert!(decoded.draw_table().notes().is_empty(), "nothing was left to chance");
/// # Ok(())
/// # }
/// # #[cfg(not(feature = "write"))]
/// # fn main() {}
/// ```
#[derive(Debug, Clone, Default)]
pub struct DecodedGeometry {
    vertices: Vec<VertexSlot>,
    indices: Vec<IndexSlot>,
    vertex_buffers: usize,
    index_buffers: usize,
    table: DrawTable,
}

impl DecodedGeometry {
    /// Empty buffers.
    pub fn new() -> Self {
        Self::default()
    }

    /// Decodes every merged buffer of `view` and pairs its draws. A buffer that cannot be decoded
    /// keeps its error (the draws that use it report it) and the others are still decoded.
    pub fn decode(&mut self, view: &GeometryView<'_>) {
        self.vertex_buffers = view.vertex_buffer_count();
        if self.vertices.len() < self.vertex_buffers {
            self.vertices
                .resize_with(self.vertex_buffers, VertexSlot::default);
        }
        for (slot, vb) in self.vertices.iter_mut().zip(view.vertex_buffers()) {
            slot.stride = vb.stride();
            slot.stride_at = vb.stride_offset();
            slot.state = (|| {
                slot.format = vb.format()?;
                vb.decode_vertices_into_vec(&mut slot.bytes)?;
                Ok(())
            })();
            if slot.state.is_err() {
                slot.bytes.clear();
            }
        }
        self.index_buffers = view.index_buffer_count();
        if self.indices.len() < self.index_buffers {
            self.indices
                .resize_with(self.index_buffers, IndexSlot::default);
        }
        for (slot, ib) in self.indices.iter_mut().zip(view.index_buffers()) {
            slot.state = (|| {
                slot.size = ib.effective_index_size()?;
                if slot.size == 2 {
                    ib.decode_indices_into_vec(&mut slot.narrow)?;
                } else {
                    ib.decode_indices_into_vec(&mut slot.wide)?;
                }
                Ok(())
            })();
            if slot.state.is_err() {
                slot.narrow.clear();
                slot.wide.clear();
            }
        }
        let mut table = core::mem::take(&mut self.table);
        table.pair_with(view, &|b| self.index_buffer(b));
        self.table = table;
    }

    /// Vertex buffer `i` as decoded, or why it could not be; `None` when the file has no such
    /// buffer.
    pub fn vertex_buffer(&self, i: usize) -> Option<Result<Vertices<'_>>> {
        let slot = self.vertices.get(i).filter(|_| i < self.vertex_buffers)?;
        Some(slot.state.and_then(|()| {
            Vertices::new(&slot.bytes, slot.stride, slot.format).ok_or(Error::invalid(
                u64_of(slot.stride_at),
                "VerticesPrototype.strideInBytes",
                u64_of(slot.stride),
                "zero, or the decoded bytes are not a whole number of strides",
            ))
        }))
    }

    /// Index buffer `i` as decoded, or why it could not be; `None` when the file has no such
    /// buffer.
    pub fn index_buffer(&self, i: usize) -> Option<Result<Indices<'_>>> {
        let slot = self.indices.get(i).filter(|_| i < self.index_buffers)?;
        Some(slot.state.map(|()| {
            if slot.size == 2 {
                Indices::U16(&slot.narrow)
            } else {
                Indices::U32(&slot.wide)
            }
        }))
    }

    /// How the draws were paired: notes on every choice the data did not force, unpaired mappings.
    pub fn draw_table(&self) -> &DrawTable {
        &self.table
    }

    /// The paired draws of `view` (the view last decoded), in index-mapping order.
    pub fn draws<'a, 't>(
        &'t self,
        view: &GeometryView<'a>,
    ) -> impl Iterator<Item = Draw<'a>> + use<'a, 't> {
        self.table.draws(view)
    }

    /// A draw's vertices and indices from the decoded buffers, checked: both ranges lie inside
    /// their buffers, the indices are whole triangles and each is below the vertex count. Any draw
    /// of the decoded file will do, whichever way it was paired (e.g.
    /// [`GeometryView::draw_by_ids`]).
    pub fn draw_data(&self, draw: &Draw<'_>) -> Result<DrawData<'_>> {
        let (vm, im) = (draw.vertices, draw.indices);
        let merged = self
            .vertex_buffer(vm.buffer_index())
            .ok_or(Error::invalid(
                u64_of(vm.offset()),
                "MappingEntry(vertices).mergedBufferIndex",
                u64_of(vm.buffer_index()),
                "no merged vertex buffer with this index",
            ))??;
        let vertices = draw.vertices_in(&merged).ok_or(Error::invalid(
            u64_of(vm.offset()),
            "MappingEntry(vertices).itemsCount",
            u64_of(vm.items_count()),
            "the vertex range runs past its merged vertex buffer",
        ))?;
        let merged = self.index_buffer(im.buffer_index()).ok_or(Error::invalid(
            u64_of(im.offset()),
            "MappingEntry(indices).mergedBufferIndex",
            u64_of(im.buffer_index()),
            "no merged index buffer with this index",
        ))??;
        let indices = draw.indices_in(&merged).ok_or(Error::invalid(
            u64_of(im.offset()),
            "MappingEntry(indices).itemsCount",
            u64_of(im.items_count()),
            "the index range runs past its merged index buffer",
        ))?;
        if !super::mapping::whole_triangles(indices.len()) {
            return Err(Error::invalid(
                u64_of(im.offset()),
                "MappingEntry(indices).itemsCount",
                u64_of(indices.len()),
                super::mapping::NOT_WHOLE_TRIANGLES,
            ));
        }
        if let Some(max) = indices.max().filter(|&m| m as usize >= vertices.len()) {
            return Err(Error::invalid(
                u64_of(im.offset()),
                "MappingEntry(indices) (largest index)",
                u64::from(max),
                "an index is beyond the vertices of the paired vertex mapping",
            ));
        }
        Ok(DrawData { vertices, indices })
    }
}

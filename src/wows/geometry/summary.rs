//! [`GeometrySummary`]: an owned description of a `.geometry` file — its buffers (with bounds and
//! the largest index, from a whole-file decode), mappings, draws and how each was paired, and its
//! collision and armor models. What `gamebin dump` prints (as JSON with the `serde` feature, as
//! text through `Display`), for tools that want the same facts without the command line.

use core::fmt;

use super::{DecodedGeometry, GeometryView, Mapping};
use crate::bytes::u64_of;
use crate::error::{Error, Result};

/// An axis-aligned bounding box of positions.
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Aabb {
    /// The smallest x, y and z.
    pub min: [f32; 3],
    /// The largest x, y and z.
    pub max: [f32; 3],
}

/// One merged vertex buffer (VerticesPrototype).
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct VertexBufferSummary {
    /// Position in the file's vertex buffer table.
    pub index: usize,
    /// File offset of the record.
    pub offset: usize,
    /// The vertex format's name (`set3/xyznuvtbpc`, …).
    pub format: String,
    /// Bytes per vertex.
    pub stride: usize,
    /// Whether the format carries bone indices and weights.
    pub skinned: bool,
    /// Whether the format carries tangents and binormals.
    pub bumped: bool,
    /// Whether the blob is meshoptimizer ENCD data.
    pub encoded: bool,
    /// The blob's stored size.
    pub size_in_bytes: u32,
    /// Vertices in the buffer.
    pub vertex_count: usize,
    /// Bounds of the decoded positions (`None` for an empty buffer).
    pub aabb: Option<Aabb>,
}

/// One merged index buffer (IndicesPrototype).
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct IndexBufferSummary {
    /// Position in the file's index buffer table.
    pub index: usize,
    /// File offset of the record.
    pub offset: usize,
    /// Bytes per index as read (2 for the swapped (2, 0) fields).
    pub index_size: usize,
    /// Whether the blob is meshoptimizer ENCD data.
    pub encoded: bool,
    /// The blob's stored size.
    pub size_in_bytes: u32,
    /// Indices in the buffer.
    pub index_count: usize,
    /// The largest decoded index (`None` for an empty buffer).
    pub max_index: Option<u32>,
    /// What the reader tolerated in this record ([`SWAPPED_INDEX_SIZE`]).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub anomaly: Option<&'static str>,
}

/// The anomaly note of an index buffer whose index-size fields are swapped.
pub const SWAPPED_INDEX_SIZE: &str =
    "indexSize and reserved stored as (2, 0) instead of (0, 2): read as 2-byte indices";

/// One entry of a mapping table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct MappingSummary {
    /// The mapping id (what render sets name).
    pub id: u32,
    /// The merged buffer it points into.
    pub buffer: usize,
    /// First item (vertex or index) in that buffer.
    pub offset: usize,
    /// Items.
    pub count: usize,
    /// `packedTexelDensity` (0 in every 0.10.x file).
    pub texel_density: u16,
}

impl MappingSummary {
    fn of(m: Mapping<'_>) -> Self {
        MappingSummary {
            id: m.id(),
            buffer: m.buffer_index(),
            offset: m.items_offset(),
            count: m.items_count(),
            texel_density: m.texel_density(),
        }
    }
}

/// One draw: an index mapping paired with a vertex mapping.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct DrawSummary {
    /// The vertex mapping's id.
    pub vertex_mapping: u32,
    /// The index mapping's id.
    pub index_mapping: u32,
    /// How the pair was decided ([`Pairing::name`](super::Pairing::name)).
    pub pairing: &'static str,
    /// Triangles (indices / 3).
    pub triangles: usize,
}

/// A pairing that stayed in doubt, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct PairingNoteSummary {
    /// The index mapping's id (its position is
    /// [`PairingNote::index_mapping_position`](super::PairingNote::index_mapping_position)).
    pub index_mapping: u32,
    /// The id of the vertex mapping it was paired with, if any.
    pub vertex_mapping: Option<u32>,
    /// Why the pairing is in doubt.
    pub note: String,
}

/// One node of an armor model.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct ArmorNodeSummary {
    /// The armor material id of its triangles.
    pub material_id: u8,
    /// Its layer.
    pub layer: u8,
    /// Triangles in the node.
    pub triangles: usize,
}

/// A collision or armor model.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct ModelSummary {
    /// The model's name.
    pub name: String,
    /// File offset of the record.
    pub offset: usize,
    /// The blob's stored size.
    pub size: u64,
    /// Triangles (armor models).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub triangles: Option<usize>,
    /// Nodes (armor models).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub nodes: Option<Vec<ArmorNodeSummary>>,
}

/// Everything [`GeometrySummary::from_view`] reads of a file.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct GeometrySummary {
    /// The merged vertex buffers.
    pub vertex_buffers: Vec<VertexBufferSummary>,
    /// The merged index buffers.
    pub index_buffers: Vec<IndexBufferSummary>,
    /// The vertex mapping table, in file order.
    pub vertex_mappings: Vec<MappingSummary>,
    /// The index mapping table, in file order.
    pub index_mappings: Vec<MappingSummary>,
    /// The draws, in index-mapping order.
    pub draws: Vec<DrawSummary>,
    /// Pairings in doubt.
    pub pairing_notes: Vec<PairingNoteSummary>,
    /// Vertex mappings no draw uses (their ids).
    pub unpaired_vertex_mappings: Vec<u32>,
    /// Index mappings without a draw (their ids).
    pub unpaired_index_mappings: Vec<u32>,
    /// The collision models.
    pub collision_models: Vec<ModelSummary>,
    /// The armor models.
    pub armor_models: Vec<ModelSummary>,
}

impl GeometrySummary {
    /// Validates the file, decodes every buffer once (for bounds and the largest index), pairs the
    /// draws and reads the models.
    ///
    /// ```
    /// # #[cfg(feature = "write")]
    /// # fn main() -> Result<(), gamebin::Error> {
    /// use gamebin::wows::geometry::{GeometrySummary, GeometryView};
    ///
    /// let file = gamebin::synth::geometry::example_file();
    /// let view = GeometryView::from_bytes(&file)?;
    /// let summary = GeometrySummary::from_view(&view)?;
    /// assert_eq!(summary.vertex_buffers.len(), view.vertex_buffer_count());
    /// println!("{summary}"); // what `gamebin dump` prints after the file's name
    /// # Ok(())
    /// # }
    /// # #[cfg(not(feature = "write"))]
    /// # fn main() {}
    /// ```
    pub fn from_view(view: &GeometryView<'_>) -> Result<Self> {
        view.validate()?;
        let mut decoded = DecodedGeometry::new();
        decoded.decode(view);
        let missing = |offset: usize, what: &'static str, index: usize| {
            Error::invalid(
                u64_of(offset),
                what,
                u64_of(index),
                "the decode has no such buffer",
            )
        };
        let mut vertex_buffers = Vec::new();
        for (index, vb) in view.vertex_buffers().enumerate() {
            let merged = decoded
                .vertex_buffer(index)
                .ok_or_else(|| missing(vb.offset(), "VerticesPrototype", index))??;
            vertex_buffers.push(VertexBufferSummary {
                index,
                offset: vb.offset(),
                format: vb.format_name()?.to_owned(),
                stride: vb.stride(),
                skinned: vb.is_skinned(),
                bumped: vb.is_bumped(),
                encoded: vb.is_encoded()?,
                size_in_bytes: vb.size_in_bytes(),
                vertex_count: vb.vertex_count()?,
                aabb: merged.bounds().map(|(min, max)| Aabb { min, max }),
            });
        }
        let mut index_buffers = Vec::new();
        for (index, ib) in view.index_buffers().enumerate() {
            let merged = decoded
                .index_buffer(index)
                .ok_or_else(|| missing(ib.offset(), "IndicesPrototype", index))??;
            index_buffers.push(IndexBufferSummary {
                index,
                offset: ib.offset(),
                index_size: ib.effective_index_size()?,
                encoded: ib.is_encoded()?,
                size_in_bytes: ib.size_in_bytes(),
                index_count: ib.index_count()?,
                max_index: merged.max(),
                anomaly: ib.has_swapped_index_size().then_some(SWAPPED_INDEX_SIZE),
            });
        }
        let table = decoded.draw_table();
        let draws = decoded
            .draws(view)
            .map(|d| DrawSummary {
                vertex_mapping: d.vertices.id(),
                index_mapping: d.indices.id(),
                pairing: d.pairing.name(),
                triangles: d.indices.items_count() / 3,
            })
            .collect();
        let (vm, im) = (view.vertex_mappings(), view.index_mappings());
        let id = |m: Option<Mapping<'_>>| m.map_or(0, |m| m.id());
        let pairing_notes = table
            .notes()
            .iter()
            .map(|n| PairingNoteSummary {
                index_mapping: id(im.get(n.index_mapping_position)),
                vertex_mapping: n.vertex_mapping_position.map(|v| id(vm.get(v))),
                note: n.doubt.to_string(),
            })
            .collect();
        let mut collision_models = Vec::new();
        for m in view.collision_models() {
            collision_models.push(ModelSummary {
                name: m.name()?.to_owned(),
                offset: m.offset(),
                size: m.size_in_bytes(),
                triangles: None,
                nodes: None,
            });
        }
        let mut armor_models = Vec::new();
        for m in view.armor_models() {
            let armor = m.armor()?;
            let mut nodes = Vec::new();
            for node in armor.nodes() {
                let node = node?;
                nodes.push(ArmorNodeSummary {
                    material_id: node.material_id(),
                    layer: node.layer_index(),
                    triangles: node.triangle_count(),
                });
            }
            armor_models.push(ModelSummary {
                name: m.name()?.to_owned(),
                offset: m.offset(),
                size: m.size_in_bytes(),
                triangles: Some(armor.triangle_count()?),
                nodes: Some(nodes),
            });
        }
        Ok(GeometrySummary {
            vertex_buffers,
            index_buffers,
            vertex_mappings: vm.iter().map(MappingSummary::of).collect(),
            index_mappings: im.iter().map(MappingSummary::of).collect(),
            draws,
            pairing_notes,
            unpaired_vertex_mappings: table
                .unpaired_vertex_mappings()
                .map(|v| id(vm.get(v)))
                .collect(),
            unpaired_index_mappings: table
                .unpaired_index_mappings()
                .map(|i| id(im.get(i)))
                .collect(),
            collision_models,
            armor_models,
        })
    }
}

impl fmt::Display for GeometrySummary {
    /// Indented text, a line per buffer, mapping, draw, note and model.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for vb in &self.vertex_buffers {
            writeln!(
                f,
                "vertex buffer {} at {:#x}: {} stride {}{}{}, {}{} bytes, {} vertices",
                vb.index,
                vb.offset,
                vb.format,
                vb.stride,
                if vb.skinned { ", skinned" } else { "" },
                if vb.bumped { ", bumped" } else { "" },
                if vb.encoded { "ENCD " } else { "raw " },
                vb.size_in_bytes,
                vb.vertex_count
            )?;
            if let Some(b) = &vb.aabb {
                writeln!(f, "  bounds {:?} .. {:?}", b.min, b.max)?;
            }
        }
        for ib in &self.index_buffers {
            write!(
                f,
                "index buffer {} at {:#x}: {}-byte indices, {}{} bytes, {} indices, max ",
                ib.index,
                ib.offset,
                ib.index_size,
                if ib.encoded { "ENCD " } else { "raw " },
                ib.size_in_bytes,
                ib.index_count,
            )?;
            match ib.max_index {
                Some(max) => writeln!(f, "{max}")?,
                None => writeln!(f, "-")?,
            }
            if let Some(anomaly) = ib.anomaly {
                writeln!(f, "  anomaly: {anomaly}")?;
            }
        }
        for (title, table) in [
            ("vertex mappings", &self.vertex_mappings),
            ("index mappings", &self.index_mappings),
        ] {
            writeln!(f, "{title}: {}", table.len())?;
            for m in table {
                writeln!(
                    f,
                    "  {:#010x} buffer {} items {}..{} texel density {}",
                    m.id,
                    m.buffer,
                    m.offset,
                    m.offset + m.count,
                    m.texel_density
                )?;
            }
        }
        writeln!(f, "draws: {}", self.draws.len())?;
        for d in &self.draws {
            writeln!(
                f,
                "  {:#010x} + {:#010x} ({} triangles, paired by {})",
                d.vertex_mapping, d.index_mapping, d.triangles, d.pairing
            )?;
        }
        for n in &self.pairing_notes {
            write!(f, "  note on index mapping {:#010x}", n.index_mapping)?;
            if let Some(v) = n.vertex_mapping {
                write!(f, " (paired with {v:#010x})")?;
            }
            writeln!(f, ": {}", n.note)?;
        }
        for (what, ids) in [
            ("vertex", &self.unpaired_vertex_mappings),
            ("index", &self.unpaired_index_mappings),
        ] {
            if let Some((first, rest)) = ids.split_first() {
                write!(f, "  unpaired {what} mappings: {first:#010x}")?;
                for id in rest {
                    write!(f, ", {id:#010x}")?;
                }
                writeln!(f)?;
            }
        }
        for (title, models) in [
            ("collision models", &self.collision_models),
            ("armor models", &self.armor_models),
        ] {
            writeln!(f, "{title}: {}", models.len())?;
            for m in models {
                write!(f, "  {} at {:#x}, {} bytes", m.name, m.offset, m.size)?;
                if let Some(t) = m.triangles {
                    let nodes = m.nodes.as_ref().map_or(0, Vec::len);
                    write!(f, ", {t} triangles in {nodes} nodes")?;
                }
                writeln!(f)?;
            }
        }
        Ok(())
    }
}

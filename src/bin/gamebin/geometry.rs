//! What the CLI shows of a World of Warships `.geometry`.

use crate::output::count;
use std::fmt::Write as _;
use std::path::Path;

use anyhow::{Context, Result};
use gamebin::wows::geometry::{DecodedGeometry, GeometryView, Mapping};
use serde::Serialize;

#[derive(Debug, Serialize)]
pub struct Info {
    pub path: String,
    pub format: &'static str,
    pub vertex_buffers: usize,
    pub index_buffers: usize,
    pub vertex_mappings: usize,
    pub index_mappings: usize,
    pub collision_models: usize,
    pub armor_models: usize,
    pub encoded_buffers: usize,
    pub vertices: u64,
    pub indices: u64,
}

pub fn info(path: &Path, data: &[u8]) -> Result<Info> {
    let view = GeometryView::from_bytes(data)?;
    let mut encoded = 0;
    let mut vertices = 0u64;
    for vb in view.vertex_buffers() {
        encoded += usize::from(vb.is_encoded()?);
        vertices += vb.vertex_count()? as u64;
    }
    let mut indices = 0u64;
    for ib in view.index_buffers() {
        encoded += usize::from(ib.is_encoded()?);
        indices += ib.index_count()? as u64;
    }
    Ok(Info {
        path: path.display().to_string(),
        format: gamebin::Format::WowsGeometry.name(),
        vertex_buffers: view.vertex_buffer_count(),
        index_buffers: view.index_buffer_count(),
        vertex_mappings: view.vertex_mappings().len(),
        index_mappings: view.index_mappings().len(),
        collision_models: view.collision_models().len(),
        armor_models: view.armor_models().len(),
        encoded_buffers: encoded,
        vertices,
        indices,
    })
}

pub fn info_line(i: &Info) -> String {
    let plural = |n: usize, word: &str| format!("{n} {word}{}", if n == 1 { "" } else { "s" });
    format!(
        "{}: {}, {} and {} ({} encoded), {}, {}, {} + {} mappings, {}, {}",
        i.path,
        i.format,
        plural(i.vertex_buffers, "vertex buffer"),
        plural(i.index_buffers, "index buffer"),
        i.encoded_buffers,
        count(i.vertices, "vertex", "vertices"),
        count(i.indices, "index", "indices"),
        i.vertex_mappings,
        i.index_mappings,
        plural(i.collision_models, "collision model"),
        plural(i.armor_models, "armor model"),
    )
}

#[derive(Debug, Serialize)]
pub struct Aabb {
    pub min: [f32; 3],
    pub max: [f32; 3],
}

#[derive(Debug, Serialize)]
pub struct VertexBufferDump {
    pub index: usize,
    pub offset: usize,
    pub format: String,
    pub stride: usize,
    pub skinned: bool,
    pub bumped: bool,
    pub encoded: bool,
    pub size_in_bytes: u32,
    pub vertex_count: usize,
    pub aabb: Option<Aabb>,
}

#[derive(Debug, Serialize)]
pub struct IndexBufferDump {
    pub index: usize,
    pub offset: usize,
    pub index_size: usize,
    pub encoded: bool,
    pub size_in_bytes: u32,
    pub index_count: usize,
    pub max_index: Option<u32>,
    /// What the reader tolerated in this record (e.g. swapped index-size fields).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub anomaly: Option<&'static str>,
}

#[derive(Debug, Serialize)]
pub struct MappingDump {
    pub id: u32,
    pub buffer: usize,
    pub offset: usize,
    pub count: usize,
    pub texel_density: u16,
}

#[derive(Debug, Serialize)]
pub struct DrawDump {
    pub vertex_mapping: u32,
    pub index_mapping: u32,
    pub pairing: &'static str,
    pub triangles: usize,
}

#[derive(Debug, Serialize)]
pub struct PairingNoteDump {
    pub index_mapping: u32,
    pub vertex_mapping: Option<u32>,
    pub note: String,
}

#[derive(Debug, Serialize)]
pub struct ArmorNodeDump {
    pub material_id: u8,
    pub layer: u8,
    pub triangles: usize,
}

#[derive(Debug, Serialize)]
pub struct ModelDump {
    pub name: String,
    pub offset: usize,
    pub size: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub triangles: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nodes: Option<Vec<ArmorNodeDump>>,
}

#[derive(Debug, Serialize)]
pub struct Dump {
    pub path: String,
    pub format: &'static str,
    pub vertex_buffers: Vec<VertexBufferDump>,
    pub index_buffers: Vec<IndexBufferDump>,
    pub vertex_mappings: Vec<MappingDump>,
    pub index_mappings: Vec<MappingDump>,
    pub draws: Vec<DrawDump>,
    pub pairing_notes: Vec<PairingNoteDump>,
    pub unpaired_vertex_mappings: Vec<u32>,
    pub unpaired_index_mappings: Vec<u32>,
    pub collision_models: Vec<ModelDump>,
    pub armor_models: Vec<ModelDump>,
}

fn mapping(m: Mapping<'_>) -> MappingDump {
    MappingDump {
        id: m.id(),
        buffer: m.buffer_index(),
        offset: m.items_offset(),
        count: m.items_count(),
        texel_density: m.texel_density(),
    }
}

/// The anomaly note of a record whose index-size fields are swapped.
pub const SWAPPED_INDEX_SIZE: &str =
    "indexSize and reserved stored as (2, 0) instead of (0, 2): read as 2-byte indices";

pub fn dump(path: &Path, data: &[u8]) -> Result<Dump> {
    let view = GeometryView::from_bytes(data)?;
    view.validate()?;
    let mut decoded = DecodedGeometry::new();
    decoded.decode(&view);
    let mut vertex_buffers = Vec::new();
    for (index, vb) in view.vertex_buffers().enumerate() {
        let what = || format!("vertex buffer {index} at {:#x}", vb.offset());
        let merged = decoded
            .vertex_buffer(index)
            .context("no such vertex buffer")?
            .with_context(what)?;
        vertex_buffers.push(VertexBufferDump {
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
        let what = || format!("index buffer {index} at {:#x}", ib.offset());
        let merged = decoded
            .index_buffer(index)
            .context("no such index buffer")?
            .with_context(what)?;
        index_buffers.push(IndexBufferDump {
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
        .draws(&view)
        .map(|d| DrawDump {
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
        .map(|n| PairingNoteDump {
            index_mapping: id(im.get(n.index_mapping)),
            vertex_mapping: n.vertex_mapping.map(|v| id(vm.get(v))),
            note: n.doubt.to_string(),
        })
        .collect();
    let mut collision_models = Vec::new();
    for m in view.collision_models() {
        collision_models.push(ModelDump {
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
            nodes.push(ArmorNodeDump {
                material_id: node.material_id(),
                layer: node.layer_index(),
                triangles: node.triangle_count(),
            });
        }
        armor_models.push(ModelDump {
            name: m.name()?.to_owned(),
            offset: m.offset(),
            size: m.size_in_bytes(),
            triangles: Some(armor.triangle_count()?),
            nodes: Some(nodes),
        });
    }
    Ok(Dump {
        path: path.display().to_string(),
        format: gamebin::Format::WowsGeometry.name(),
        vertex_buffers,
        index_buffers,
        vertex_mappings: view.vertex_mappings().iter().map(mapping).collect(),
        index_mappings: view.index_mappings().iter().map(mapping).collect(),
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

/// The dump as indented text.
pub fn dump_text(d: &Dump) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "{}: {}", d.path, d.format);
    for vb in &d.vertex_buffers {
        let _ = writeln!(
            s,
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
        );
        if let Some(b) = &vb.aabb {
            let _ = writeln!(s, "  bounds {:?} .. {:?}", b.min, b.max);
        }
    }
    for ib in &d.index_buffers {
        let _ = writeln!(
            s,
            "index buffer {} at {:#x}: {}-byte indices, {}{} bytes, {} indices, max {}",
            ib.index,
            ib.offset,
            ib.index_size,
            if ib.encoded { "ENCD " } else { "raw " },
            ib.size_in_bytes,
            ib.index_count,
            ib.max_index.map_or("-".to_string(), |m| m.to_string())
        );
        if let Some(anomaly) = ib.anomaly {
            let _ = writeln!(s, "  anomaly: {anomaly}");
        }
    }
    for (title, table) in [
        ("vertex mappings", &d.vertex_mappings),
        ("index mappings", &d.index_mappings),
    ] {
        let _ = writeln!(s, "{title}: {}", table.len());
        for m in table {
            let _ = writeln!(
                s,
                "  {:#010x} buffer {} items {}..{} texel density {}",
                m.id,
                m.buffer,
                m.offset,
                m.offset + m.count,
                m.texel_density
            );
        }
    }
    let _ = writeln!(s, "draws: {}", d.draws.len());
    for dr in &d.draws {
        let _ = writeln!(
            s,
            "  {:#010x} + {:#010x} ({} triangles, paired by {})",
            dr.vertex_mapping, dr.index_mapping, dr.triangles, dr.pairing
        );
    }
    for n in &d.pairing_notes {
        let _ = writeln!(
            s,
            "  note on index mapping {:#010x}{}: {}",
            n.index_mapping,
            n.vertex_mapping
                .map_or(String::new(), |v| format!(" (paired with {v:#010x})")),
            n.note
        );
    }
    for (what, ids) in [
        ("vertex", &d.unpaired_vertex_mappings),
        ("index", &d.unpaired_index_mappings),
    ] {
        if !ids.is_empty() {
            let ids: Vec<String> = ids.iter().map(|id| format!("{id:#010x}")).collect();
            let _ = writeln!(s, "  unpaired {what} mappings: {}", ids.join(", "));
        }
    }
    for (title, models) in [
        ("collision models", &d.collision_models),
        ("armor models", &d.armor_models),
    ] {
        let _ = writeln!(s, "{title}: {}", models.len());
        for m in models {
            let _ = write!(s, "  {} at {:#x}, {} bytes", m.name, m.offset, m.size);
            if let Some(t) = m.triangles {
                let _ = write!(
                    s,
                    ", {t} triangles in {} nodes",
                    m.nodes.as_ref().map_or(0, Vec::len)
                );
            }
            let _ = writeln!(s);
        }
    }
    s
}

//! Armor payloads: a bounding box and a list of BVH nodes, each a soup of triangles (three vertices
//! apiece) with a material id and armor layer.

use super::raw::{Aabb, ArmorHeader, ArmorNodeHeader, ArmorVertex};
use super::vertex_format::unpack_unit;
use crate::bytes::{Bytes, Cursor, Located, Place, Record, Records, u64_of};
use crate::error::{Error, Result};

/// An axis-aligned box.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Bounds {
    /// Minimum corner x, y, z.
    pub min: [f32; 3],
    /// Maximum corner x, y, z.
    pub max: [f32; 3],
}

impl From<&Aabb> for Bounds {
    fn from(b: &Aabb) -> Self {
        Bounds {
            min: b.min.map(|v| v.get()),
            max: b.max.map(|v| v.get()),
        }
    }
}

/// An armor payload, borrowed. `Copy`.
#[derive(Debug, Clone, Copy)]
pub struct Armor<'a> {
    /// The file cut off at the payload's end, so reads past the payload fail with file offsets.
    bytes: Bytes<'a>,
    /// The payload's header, at the payload's start.
    header: Located<'a, ArmorHeader>,
}

impl<'a> Armor<'a> {
    /// Reads the payload of `len` bytes at absolute offset `start` of `file`.
    pub(crate) fn parse(file: Bytes<'a>, start: usize, len: usize) -> Result<Self> {
        let payload = file.slice(start, len, "ArmorModelPrototype.data")?;
        let end = start.saturating_add(payload.len());
        let bytes = Bytes::new(file.as_slice().get(..end).unwrap_or_default());
        let header = bytes.located(start, "Armor.header")?;
        Ok(Armor { bytes, header })
    }

    /// The payload's id word (0x80000001 in the known files).
    pub fn id(&self) -> u32 {
        self.header.id.get()
    }

    /// The bounds of the whole model.
    pub fn bounds(&self) -> Bounds {
        Bounds::from(&self.header.bounds)
    }

    /// The stored node count.
    pub fn node_count(&self) -> u32 {
        self.header.node_count.get()
    }

    /// The BVH nodes, read lazily one after another. Stops after the stored count, or after the
    /// first node that does not fit in the payload (yielded as an `Err`).
    pub fn nodes(&self) -> ArmorNodes<'a> {
        let first = self
            .header
            .field_offset(core::mem::size_of::<ArmorHeader>());
        Records::new(Cursor::new(self.bytes, first), self.node_count())
    }

    /// Triangles over all nodes (walks the nodes; no allocation).
    pub fn triangle_count(&self) -> Result<usize> {
        self.nodes().try_fold(0usize, |sum, node| {
            Ok(sum.saturating_add(node?.triangle_count()))
        })
    }

    /// Bytes of the payload after the last node (0 in well-formed files).
    pub fn trailing_bytes(&self) -> Result<usize> {
        let mut nodes = self.nodes();
        for node in &mut nodes {
            node?;
        }
        Ok(self.bytes.len().saturating_sub(nodes.offset()))
    }
}

/// An armor payload's nodes, read lazily one after another (see [`Records`]).
pub type ArmorNodes<'a> = Records<'a, ArmorNode<'a>>;

impl<'a> Record<'a> for ArmorNode<'a> {
    type Context = ();
    const MIN_SIZE: usize = core::mem::size_of::<ArmorNodeHeader>();

    fn read(cur: &mut Cursor<'a>, (): (), _: Place) -> Result<Self> {
        let header: Located<'a, ArmorNodeHeader> = cur.located("ArmorNode.header")?;
        let count = header.vertex_count.get() as usize;
        let vertices = cur.read_slice(count, "ArmorNode.vertices")?;
        Ok(ArmorNode { header, vertices })
    }
}

/// One BVH node of an armor model: its triangles, borrowed.
#[derive(Debug, Clone, Copy)]
pub struct ArmorNode<'a> {
    /// The node's header, at the node's offset.
    header: Located<'a, ArmorNodeHeader>,
    vertices: &'a [ArmorVertex],
}

impl<'a> ArmorNode<'a> {
    /// Absolute file offset of the node.
    pub fn offset(&self) -> usize {
        self.header.offset()
    }

    /// The armor material id.
    pub fn material_id(&self) -> u8 {
        self.header.material_id
    }

    /// The armor layer (1-based).
    pub fn layer_index(&self) -> u8 {
        self.header.layer_index
    }

    /// The node's bounds.
    pub fn bounds(&self) -> Bounds {
        Bounds::from(&self.header.bounds)
    }

    /// The node's vertices as stored (three per triangle).
    pub fn vertices(&self) -> &'a [ArmorVertex] {
        self.vertices
    }

    /// Whole triangles (a trailing partial triangle is left out).
    pub fn triangle_count(&self) -> usize {
        self.vertices.len() / 3
    }

    /// Whether the vertex count is a whole number of triangles.
    pub fn check(&self) -> Result<()> {
        if !self.vertices.len().is_multiple_of(3) {
            return Err(Error::invalid(
                u64_of(self.header.field_offset(28)),
                "ArmorNode.vertexCount",
                u64_of(self.vertices.len()),
                "armor vertices are not a whole number of triangles",
            ));
        }
        Ok(())
    }

    /// The triangles' corner positions.
    pub fn triangles(&self) -> impl ExactSizeIterator<Item = [[f32; 3]; 3]> + 'a {
        self.vertices.chunks_exact(3).map(|t| {
            let p = |v: &ArmorVertex| v.position.map(|c| c.get());
            [p(&t[0]), p(&t[1]), p(&t[2])]
        })
    }
}

impl ArmorVertex {
    /// The position.
    pub fn position(&self) -> [f32; 3] {
        self.position.map(|c| c.get())
    }

    /// The normal, decoded from offset-binary bytes.
    pub fn normal(&self) -> [f32; 3] {
        self.normal.map(unpack_unit)
    }
}

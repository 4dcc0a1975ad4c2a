//! VisualPrototype: a node hierarchy (names, matrices, parents), render sets that tie materials to
//! `.geometry` mappings, and levels of detail.

use zerocopy::little_endian::{U16, U32};

use crate::bytes::{Bytes, Located};
use crate::error::Result;
use crate::wows::assets::raw::{self, Matrix};
use crate::wows::assets::strings::Strings;

/// A visual record.
#[derive(Debug, Clone, Copy)]
pub struct Visual<'a> {
    bytes: Bytes<'a>,
    raw: Located<'a, raw::VisualPrototype>,
    strings: Strings<'a>,
}

/// One node of a visual's hierarchy.
#[derive(Debug, Clone, Copy)]
pub struct Node<'a> {
    /// The node's name, a strings-map key (MurmurHash3).
    pub name_id: u32,
    /// Column-major 4×4.
    pub matrix: &'a Matrix,
    /// Index of the parent node, `None` for a root (stored 0xFFFF).
    pub parent: Option<u16>,
}

impl Node<'_> {
    /// The matrix as plain floats (column-major).
    pub fn matrix(&self) -> [f32; 16] {
        self.matrix.map(|f| f.get())
    }
}

/// A render set: a mesh (two `.geometry` mapping ids) drawn with a material.
#[derive(Debug, Clone, Copy)]
pub struct RenderSet<'a> {
    bytes: Bytes<'a>,
    raw: Located<'a, raw::RenderSet>,
}

/// A level of detail.
#[derive(Debug, Clone, Copy)]
pub struct Lod<'a> {
    bytes: Bytes<'a>,
    raw: Located<'a, raw::Lod>,
}

impl<'a> Visual<'a> {
    pub(crate) fn read(bytes: Bytes<'a>, at: usize, strings: Strings<'a>) -> Result<Self> {
        Ok(Visual {
            bytes,
            raw: Located::read(bytes, at, "VisualPrototype")?,
            strings,
        })
    }

    /// The stored struct.
    pub fn raw(&self) -> &'a raw::VisualPrototype {
        self.raw.get()
    }

    /// File offset of the record.
    pub fn offset(&self) -> usize {
        self.raw.offset()
    }

    /// Number of nodes.
    pub fn nodes_count(&self) -> usize {
        self.raw.nodes_count.get() as usize
    }

    fn nodes_array<T>(&self, field: usize, relative: i64, what: &'static str) -> Result<&'a [T]>
    where
        T: zerocopy::FromBytes + zerocopy::KnownLayout + zerocopy::Immutable + zerocopy::Unaligned,
    {
        let table = self
            .raw
            .table(self.bytes, field, relative, self.nodes_count(), what)?;
        Ok(table.records())
    }

    /// Name ids of the node name map (sorted for lookup, parallel to `name_map_node_ids`).
    pub fn name_map_name_ids(&self) -> Result<&'a [U32]> {
        self.nodes_array(
            0x08,
            self.raw.name_map_name_ids_ptr.get(),
            "VisualPrototype.nameMapNameIds",
        )
    }

    /// Node indices of the node name map.
    pub fn name_map_node_ids(&self) -> Result<&'a [U16]> {
        self.nodes_array(
            0x10,
            self.raw.name_map_node_ids_ptr.get(),
            "VisualPrototype.nameMapNodeIds",
        )
    }

    /// Each node's name id.
    pub fn name_ids(&self) -> Result<&'a [U32]> {
        self.nodes_array(0x18, self.raw.name_ids_ptr.get(), "VisualPrototype.nameIds")
    }

    /// Each node's matrix.
    pub fn matrices(&self) -> Result<&'a [Matrix]> {
        self.nodes_array(
            0x20,
            self.raw.matrices_ptr.get(),
            "VisualPrototype.matrices",
        )
    }

    /// Each node's parent index (0xFFFF for a root).
    pub fn parent_ids(&self) -> Result<&'a [U16]> {
        self.nodes_array(
            0x28,
            self.raw.parent_ids_ptr.get(),
            "VisualPrototype.parentIds",
        )
    }

    /// The nodes: name id, matrix and parent together.
    pub fn nodes(&self) -> Result<impl ExactSizeIterator<Item = Node<'a>> + 'a> {
        let names = self.name_ids()?;
        let matrices = self.matrices()?;
        let parents = self.parent_ids()?;
        Ok(names
            .iter()
            .zip(matrices)
            .zip(parents)
            .map(|((name, matrix), parent)| Node {
                name_id: name.get(),
                matrix,
                parent: match parent.get() {
                    raw::NO_PARENT => None,
                    p => Some(p),
                },
            }))
    }

    /// Node `name_id`'s name, through the strings map.
    pub fn name(&self, name_id: u32) -> Result<Option<&'a str>> {
        self.strings.get(name_id)
    }

    /// selfId (path id) of the `.geometry` holding this visual's meshes.
    pub fn merged_geometry_path_id(&self) -> u64 {
        self.raw.merged_geometry_path_id.get()
    }

    /// The `underwater` flag (meaning not verified).
    pub fn underwater(&self) -> bool {
        self.raw.underwater != 0
    }

    /// The `abovewater` flag (meaning not verified).
    pub fn abovewater(&self) -> bool {
        self.raw.abovewater != 0
    }

    /// Bounding box (min, max).
    pub fn bounding_box(&self) -> ([f32; 3], [f32; 3]) {
        (
            self.raw.bbox_min.map(|f| f.get()),
            self.raw.bbox_max.map(|f| f.get()),
        )
    }

    /// The render sets.
    pub fn render_sets(&self) -> Result<impl ExactSizeIterator<Item = RenderSet<'a>> + 'a> {
        let sets = self.raw.table::<raw::RenderSet>(
            self.bytes,
            0x60,
            self.raw.render_sets_ptr.get(),
            usize::from(self.raw.render_sets_count.get()),
            "VisualPrototype.renderSets",
        )?;
        let bytes = self.bytes;
        Ok(sets.into_iter().map(move |raw| RenderSet { bytes, raw }))
    }

    /// The levels of detail.
    pub fn lods(&self) -> Result<impl ExactSizeIterator<Item = Lod<'a>> + 'a> {
        let lods = self.raw.table::<raw::Lod>(
            self.bytes,
            0x68,
            self.raw.lods_ptr.get(),
            usize::from(self.raw.lods_count),
            "VisualPrototype.lods",
        )?;
        let bytes = self.bytes;
        Ok(lods.into_iter().map(move |raw| Lod { bytes, raw }))
    }

    pub(crate) fn validate(&self) -> Result<()> {
        self.name_map_name_ids()?;
        self.name_map_node_ids()?;
        for node in self.nodes()? {
            self.name(node.name_id)?;
        }
        for set in self.render_sets()? {
            self.name(set.name_id())?;
            self.name(set.material_name_id())?;
            for id in set.node_name_ids()? {
                self.name(id.get())?;
            }
        }
        for lod in self.lods()? {
            lod.render_set_names()?;
        }
        Ok(())
    }
}

impl<'a> RenderSet<'a> {
    /// The stored render set.
    pub fn raw(&self) -> &'a raw::RenderSet {
        self.raw.get()
    }
    /// Name of the render set, a strings-map key.
    pub fn name_id(&self) -> u32 {
        self.raw.name_id.get()
    }
    /// Name of the material, a strings-map key.
    pub fn material_name_id(&self) -> u32 {
        self.raw.material_name_id.get()
    }
    /// The `.geometry` vertex MappingEntry id of this mesh.
    pub fn vertices_mapping_id(&self) -> u32 {
        self.raw.vertices_mapping_id.get()
    }
    /// The `.geometry` index MappingEntry id of this mesh.
    pub fn indices_mapping_id(&self) -> u32 {
        self.raw.indices_mapping_id.get()
    }
    /// selfId of the `.mfm` material.
    pub fn material_mfm_path_id(&self) -> u64 {
        self.raw.material_mfm_path_id.get()
    }
    /// Whether the render set is skinned.
    pub fn skinned(&self) -> bool {
        self.raw.skinned != 0
    }
    /// Name ids of the nodes this render set is bound to.
    pub fn node_name_ids(&self) -> Result<&'a [U32]> {
        let ids = self.raw.table(
            self.bytes,
            0x20,
            self.raw.node_name_ids_ptr.get(),
            usize::from(self.raw.nodes_count),
            "RenderSet.nodeNameIds",
        )?;
        Ok(ids.records())
    }
}

impl<'a> Lod<'a> {
    /// The stored LOD.
    pub fn raw(&self) -> &'a raw::Lod {
        self.raw.get()
    }
    /// The LOD's `extent` (presumably the distance up to which it is used; not verified).
    pub fn extent(&self) -> f32 {
        self.raw.extent.get()
    }
    /// Whether this LOD casts shadows.
    pub fn casts_shadow(&self) -> bool {
        self.raw.casts_shadow != 0
    }
    /// Name ids of the render sets drawn at this level.
    pub fn render_set_names(&self) -> Result<&'a [U32]> {
        let names = self.raw.table(
            self.bytes,
            0x08,
            self.raw.render_set_names_ptr.get(),
            usize::from(self.raw.render_set_names_count.get()),
            "Lod.renderSetNames",
        )?;
        Ok(names.records())
    }
}

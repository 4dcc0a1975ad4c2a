//! VisualPrototype: a node hierarchy (names, matrices, parents), render sets that tie materials to
//! `.geometry` mappings, and levels of detail.

use zerocopy::little_endian::{U16, U32};

use super::{Budget, Name, PrototypeRecord, RecordView};
use crate::bytes::{Bytes, Located};
use crate::error::Result;
use crate::wows::assets::raw::{self, Matrix};
use crate::wows::assets::strings::Strings;
#[cfg(feature = "serde")]
use crate::wows::assets::{fields_float as float, fields_serde::hex};

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

/// A visual's node.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct NodeFields {
    /// The node's name.
    pub name: Name,
    /// The parent's position in the node list (`None` for a root).
    pub parent: Option<u16>,
    /// The node's matrix, column-major.
    #[cfg_attr(feature = "serde", serde(with = "float"))]
    pub matrix: [f32; 16],
}

/// A visual's render set: which mappings of its geometry it draws, with which material.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct RenderSetFields {
    /// The render set's name.
    pub name: Name,
    /// The material's name.
    pub material: Name,
    /// The geometry's vertex mapping id.
    #[cfg_attr(feature = "serde", serde(with = "hex::id32"))]
    pub vertices_mapping_id: u32,
    /// The geometry's index mapping id.
    #[cfg_attr(feature = "serde", serde(with = "hex::id32"))]
    pub indices_mapping_id: u32,
    /// The path id of the material's `.mfm`.
    #[cfg_attr(feature = "serde", serde(with = "hex::id64"))]
    pub material_mfm_path_id: u64,
    /// Whether the render set is skinned over `nodes`.
    pub skinned: bool,
    /// The names of the nodes it is attached to.
    pub nodes: Vec<Name>,
}

/// A visual's level of detail.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct LodFields {
    /// The distance up to which the LOD is drawn.
    #[cfg_attr(feature = "serde", serde(with = "float"))]
    pub extent: f32,
    /// Whether it casts shadows.
    pub casts_shadow: bool,
    /// The names of the render sets it draws.
    pub render_sets: Vec<Name>,
}

/// A bounding box.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct BoundsFields {
    /// The smallest corner.
    #[cfg_attr(feature = "serde", serde(with = "float"))]
    pub min: [f32; 3],
    /// The largest corner.
    #[cfg_attr(feature = "serde", serde(with = "float"))]
    pub max: [f32; 3],
}

/// A VisualPrototype's fields.
#[derive(Debug, Clone, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct VisualFields {
    /// The path id of the `.geometry` file.
    #[cfg_attr(feature = "serde", serde(with = "hex::id64"))]
    pub merged_geometry_path_id: u64,
    /// Drawn under water.
    pub underwater: bool,
    /// Drawn above water.
    pub abovewater: bool,
    /// The bounding box.
    pub bounding_box: BoundsFields,
    /// The skeleton.
    pub nodes: Vec<NodeFields>,
    /// The render sets.
    pub render_sets: Vec<RenderSetFields>,
    /// The levels of detail.
    pub lods: Vec<LodFields>,
}

impl<'a> RecordView<'a> for Visual<'a> {
    fn read(bytes: Bytes<'a>, at: usize, _item_size: usize, strings: Strings<'a>) -> Result<Self> {
        Ok(Visual {
            bytes,
            raw: Located::read(bytes, at, "VisualPrototype")?,
            strings,
        })
    }

    fn validate(&self) -> Result<()> {
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

impl PrototypeRecord for VisualFields {
    type View<'a> = Visual<'a>;
    type Raw = raw::VisualPrototype;
    const KNOWN_SCHEMAS: &'static [(u32, usize)] = &[(0x3167_064B, 0x70)];
    const LAYOUTS: &'static [usize] = &[0x70];

    fn from_view(v: Visual<'_>, budget: &mut Budget<'_, '_>) -> Result<Self> {
        let nodes = v
            .nodes()?
            .map(|n| {
                budget.item::<NodeFields>("VisualPrototype.nodes")?;
                Ok(NodeFields {
                    name: budget.name(n.name_id, "VisualPrototype.nodes")?,
                    parent: n.parent,
                    matrix: n.matrix(),
                })
            })
            .collect::<Result<_>>()?;
        let render_sets = v
            .render_sets()?
            .map(|s| {
                budget.item::<RenderSetFields>("VisualPrototype.renderSets")?;
                Ok(RenderSetFields {
                    name: budget.name(s.name_id(), "RenderSet.name")?,
                    material: budget.name(s.material_name_id(), "RenderSet.materialName")?,
                    vertices_mapping_id: s.vertices_mapping_id(),
                    indices_mapping_id: s.indices_mapping_id(),
                    material_mfm_path_id: s.material_mfm_path_id(),
                    skinned: s.skinned(),
                    nodes: budget.names(s.node_name_ids()?, "RenderSet.nodeNameIds")?,
                })
            })
            .collect::<Result<_>>()?;
        let lods = v
            .lods()?
            .map(|l| {
                budget.item::<LodFields>("VisualPrototype.lods")?;
                Ok(LodFields {
                    extent: l.extent(),
                    casts_shadow: l.casts_shadow(),
                    render_sets: budget.names(l.render_set_names()?, "Lod.renderSetNames")?,
                })
            })
            .collect::<Result<_>>()?;
        let (min, max) = v.bounding_box();
        Ok(VisualFields {
            merged_geometry_path_id: v.merged_geometry_path_id(),
            underwater: v.underwater(),
            abovewater: v.abovewater(),
            bounding_box: BoundsFields { min, max },
            nodes,
            render_sets,
            lods,
        })
    }
}

/// The encoder (feature `write`).
#[cfg(feature = "write")]
mod encode {
    use core::mem::offset_of;
    use zerocopy::little_endian::{F32, I64, U64};

    use super::*;
    use crate::bytes::sink::narrow;
    use crate::wows::assets::raw::NO_PARENT;
    use crate::wows::assets::records::EncodeRecord;
    use crate::wows::assets::write::{Blob, NodeNameMaps, floats, ids, named, named_ids};
    use crate::write_error::WriteResult;

    impl EncodeRecord for VisualFields {
        /// The nodes' names, then each render set's name, material and nodes, then each LOD's
        /// render sets.
        fn names<'r>(&'r self, names: &mut Vec<&'r str>) {
            let mut add = |list: &'r [Name]| names.extend(list.iter().filter_map(|n| n.as_deref()));
            for n in &self.nodes {
                add(core::slice::from_ref(&n.name));
            }
            for s in &self.render_sets {
                add(core::slice::from_ref(&s.name));
                add(core::slice::from_ref(&s.material));
                add(&s.nodes);
            }
            for l in &self.lods {
                add(&l.render_sets);
            }
        }

        /// The record, its node arrays (the name map in the order `name_maps` gives), then its render
        /// sets and LODs.
        fn encode(&self, b: &mut Blob, name_maps: NodeNameMaps) -> WriteResult<()> {
            let VisualFields {
                merged_geometry_path_id,
                underwater,
                abovewater,
                bounding_box: BoundsFields { min, max },
                nodes,
                render_sets,
                lods,
            } = self;
            let r = b.push_record(
                &raw::VisualPrototype {
                    nodes_count: U32::new(narrow(nodes.len(), "VisualPrototype.nodesCount")?),
                    pad0: U32::new(0),
                    name_map_name_ids_ptr: I64::new(0),
                    name_map_node_ids_ptr: I64::new(0),
                    name_ids_ptr: I64::new(0),
                    matrices_ptr: I64::new(0),
                    parent_ids_ptr: I64::new(0),
                    merged_geometry_path_id: U64::new(*merged_geometry_path_id),
                    underwater: u8::from(*underwater),
                    abovewater: u8::from(*abovewater),
                    render_sets_count: U16::new(narrow(
                        render_sets.len(),
                        "VisualPrototype.renderSetsCount",
                    )?),
                    lods_count: narrow(lods.len(), "VisualPrototype.lodsCount")?,
                    pad1: [0; 3],
                    bbox_min: floats(*min),
                    pad2: U32::new(0),
                    bbox_max: floats(*max),
                    pad3: U32::new(0),
                    render_sets_ptr: I64::new(0),
                    lods_ptr: I64::new(0),
                },
                "VisualPrototype",
            )?;
            let name_ids: Vec<U32> = nodes
                .iter()
                .map(|n| named(&n.name, "VisualPrototype.nameIds").map(U32::new))
                .collect::<WriteResult<_>>()?;
            // The name map, sorted by name id for a lookup by binary search (or in node order, as
            // another writer left it).
            let mut map = Vec::with_capacity(nodes.len());
            for (i, id) in name_ids.iter().enumerate() {
                let node_id: u16 = narrow(i, "VisualPrototype.nameMapNodeIds")?;
                map.push((id.get(), node_id));
            }
            if name_maps.is_sorted() {
                map.sort_unstable();
            }
            let field = offset_of!(raw::VisualPrototype, name_map_name_ids_ptr);
            b.record_array(r, field, &ids(map.iter().map(|m| m.0)))?;
            let node_ids: Vec<U16> = map.iter().map(|m| U16::new(m.1)).collect();
            b.record_array(
                r,
                offset_of!(raw::VisualPrototype, name_map_node_ids_ptr),
                &node_ids,
            )?;
            b.record_array(r, offset_of!(raw::VisualPrototype, name_ids_ptr), &name_ids)?;
            let matrices: Vec<Matrix> = nodes.iter().map(|n| floats(n.matrix)).collect();
            b.record_array(r, offset_of!(raw::VisualPrototype, matrices_ptr), &matrices)?;
            let parents: Vec<U16> = nodes
                .iter()
                .map(|n| U16::new(n.parent.unwrap_or(NO_PARENT)))
                .collect();
            b.record_array(
                r,
                offset_of!(raw::VisualPrototype, parent_ids_ptr),
                &parents,
            )?;
            let field = offset_of!(raw::VisualPrototype, render_sets_ptr);
            b.record_table(r, field, render_sets, "RenderSet", |b, at, set| {
                let RenderSetFields {
                    name,
                    material,
                    vertices_mapping_id,
                    indices_mapping_id,
                    material_mfm_path_id,
                    skinned,
                    nodes,
                } = set;
                let node_names = named_ids(nodes, "RenderSet.nodeNameIds")?;
                Ok(raw::RenderSet {
                    name_id: U32::new(named(name, "RenderSet.nameId")?),
                    material_name_id: U32::new(named(material, "RenderSet.materialNameId")?),
                    vertices_mapping_id: U32::new(*vertices_mapping_id),
                    indices_mapping_id: U32::new(*indices_mapping_id),
                    material_mfm_path_id: U64::new(*material_mfm_path_id),
                    skinned: u8::from(*skinned),
                    nodes_count: narrow(nodes.len(), "RenderSet.nodesCount")?,
                    pad: [0; 6],
                    node_name_ids_ptr: b.ool_array(
                        at,
                        offset_of!(raw::RenderSet, node_name_ids_ptr),
                        &node_names,
                        "RenderSet.nodeNameIdsPtr",
                    )?,
                })
            })?;
            let field = offset_of!(raw::VisualPrototype, lods_ptr);
            b.record_table(r, field, lods, "Lod", |b, at, lod| {
                let LodFields {
                    extent,
                    casts_shadow,
                    render_sets,
                } = lod;
                let names = named_ids(render_sets, "Lod.renderSetNames")?;
                Ok(raw::Lod {
                    extent: F32::new(*extent),
                    casts_shadow: u8::from(*casts_shadow),
                    pad: 0,
                    render_set_names_count: U16::new(narrow(
                        render_sets.len(),
                        "Lod.renderSetNamesCount",
                    )?),
                    render_set_names_ptr: b.ool_array(
                        at,
                        offset_of!(raw::Lod, render_set_names_ptr),
                        &names,
                        "Lod.renderSetNamesPtr",
                    )?,
                })
            })
        }
    }
}

//! `.visual`: the node tree with its transforms, the render sets (the mappings they draw, the
//! nodes they are bound to, their materials) and, in the newer form, the LODs. Both generations
//! read into one [`VisualFile`]:
//! - newer: `<skeleton>` of nested `<node>`s, `<renderSets>` of named `<renderSet>`s whose
//!   mappings are `"<name>.vertices"` and `"<name>.indices"`, `<lods>` listing render set names;
//! - classic: a top-level `<node>` tree, unnamed `<renderSet>`s whose `<geometry>` names the
//!   mappings (`<vertices>`, `<primitive>`) and holds each material in a `<primitiveGroup>`; the
//!   LODs are the `.model` files' `<parent>` chain.
//!
//! A mapping's id in the `.geometry` is MurmurHash3 (seed 0) of its name (checked on real files:
//! `TurretShape.vertices` is 0x03432c0c), so a render set finds its draw by name.

use super::SourceError;
use super::xml::Element;
use crate::hash::murmur3_32;

/// Which generation the file is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum VisualForm {
    /// `<skeleton>`, named render sets, `<lods>`.
    Skeleton,
    /// A top-level `<node>` tree, `<geometry>` mapping names, LODs from the `.model` chain.
    NodeTree,
}

/// One node of the tree, in depth-first order (a parent before its children).
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct VisualNode {
    /// `<identifier>`.
    pub identifier: String,
    /// The parent's index in [`VisualFile::nodes`]; `None` for a root.
    pub parent: Option<usize>,
    /// `<transform>` as stored, rows 0–3 (row 3 the translation); a row of three numbers gets 0
    /// as its fourth (1 for row 3), so that every transform is the same 4×4 matrix.
    pub transform: [[f32; 4]; 4],
}

/// A material of a render set.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct VisualMaterial {
    /// `<identifier>` (the shader's material name).
    pub identifier: String,
    /// `<mfm>`: the material file, relative to the res/ root.
    pub mfm: String,
    /// The classic form's `<primitiveGroup>` number; `None` in the newer form.
    pub primitive_group: Option<u32>,
    /// The line of its `<mfm>` (for the error when the file it names is missing).
    #[cfg_attr(feature = "serde", serde(skip))]
    pub line: usize,
}

/// One render set: what it draws and with what.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct VisualRenderSet {
    /// `<name>` (newer form); `None` in the classic form, whose render sets are unnamed.
    pub name: Option<String>,
    /// `<treatAsWorldSpaceObject>` (false when absent).
    pub treat_as_world_space_object: bool,
    /// The node identifiers it is bound to (`<nodes><node>`, or the classic `<node>`s).
    pub nodes: Vec<String>,
    /// The vertex mapping's name (`"<name>.vertices"`, or the classic `<vertices>`).
    pub vertices: String,
    /// The index mapping's name (`"<name>.indices"`, or the classic `<primitive>`).
    pub indices: String,
    /// MurmurHash3 (seed 0) of `vertices`: the vertex mapping's id in the `.geometry`.
    pub vertices_id: u32,
    /// MurmurHash3 (seed 0) of `indices`: the index mapping's id.
    pub indices_id: u32,
    /// Its materials (one in the newer form; one per primitive group in the classic form).
    pub materials: Vec<VisualMaterial>,
}

/// A level of detail of the newer form.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct VisualLod {
    /// `<extent>`: the distance up to which it is drawn.
    pub extent: f32,
    /// `<castsShadow>`.
    pub casts_shadow: bool,
    /// The names of the render sets it draws.
    pub render_sets: Vec<String>,
}

/// A parsed `.visual` file.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct VisualFile {
    /// The root element's name (the file's name).
    pub root: String,
    /// Which generation.
    pub form: VisualForm,
    /// Every node, depth first.
    pub nodes: Vec<VisualNode>,
    /// The render sets in file order.
    pub render_sets: Vec<VisualRenderSet>,
    /// The newer form's LODs, finest first as stored; empty in the classic form.
    pub lods: Vec<VisualLod>,
    /// `<boundingBox>`: min and max corners.
    pub bounding_box: Option<[[f32; 3]; 2]>,
}

impl VisualFile {
    /// Parses the text of the `.visual` file `file`.
    pub fn parse(file: &str, text: &str) -> Result<Self, SourceError> {
        Self::from_element(file, &super::xml::parse(file, text)?)
    }

    /// Reads a parsed `.visual` root element.
    pub fn from_element(file: &str, root: &Element) -> Result<Self, SourceError> {
        let (form, tops): (VisualForm, Vec<&Element>) = match root.child("skeleton") {
            Some(skeleton) => (
                VisualForm::Skeleton,
                skeleton.children_named("node").collect(),
            ),
            None => (VisualForm::NodeTree, root.children_named("node").collect()),
        };
        let mut nodes = Vec::new();
        for top in tops {
            read_nodes(file, top, None, &mut nodes)?;
        }
        let render_sets = match form {
            VisualForm::Skeleton => match root.child("renderSets") {
                Some(sets) => sets
                    .children_named("renderSet")
                    .map(|set| named_render_set(file, set))
                    .collect::<Result<_, _>>()?,
                None => Vec::new(),
            },
            VisualForm::NodeTree => root
                .children_named("renderSet")
                .map(|set| classic_render_set(file, set))
                .collect::<Result<_, _>>()?,
        };
        let lods = match root.child("lods") {
            Some(lods) => lods
                .children_named("lod")
                .map(|lod| read_lod(file, lod))
                .collect::<Result<_, _>>()?,
            None => Vec::new(),
        };
        for lod in &lods {
            for name in &lod.render_sets {
                if !render_sets
                    .iter()
                    .any(|s: &VisualRenderSet| s.name.as_ref() == Some(name))
                {
                    let at = root.child("lods").unwrap_or(root);
                    return Err(at.error(
                        file,
                        format!("a LOD draws render set {name:?}, which the file does not define"),
                    ));
                }
            }
        }
        let bounding_box = match root.child("boundingBox") {
            Some(b) => Some([corner(file, b, "min")?, corner(file, b, "max")?]),
            None => None,
        };
        Ok(VisualFile {
            root: root.name.clone(),
            form,
            nodes,
            render_sets,
            lods,
            bounding_box,
        })
    }

    /// The index of the node named `identifier`.
    pub fn node(&self, identifier: &str) -> Option<usize> {
        self.nodes.iter().position(|n| n.identifier == identifier)
    }
}

fn corner(file: &str, bounding_box: &Element, name: &str) -> Result<[f32; 3], SourceError> {
    bounding_box
        .child(name)
        .ok_or_else(|| bounding_box.error(file, format!("no <{name}> element")))?
        .floats(file, None, [0.0; 3])
}

/// A node and its descendants, depth first. The tree's depth is bounded by the XML reader's.
fn read_nodes(
    file: &str,
    node: &Element,
    parent: Option<usize>,
    out: &mut Vec<VisualNode>,
) -> Result<(), SourceError> {
    let identifier = node.required_text(file, "identifier")?.to_owned();
    let transform = match node.child("transform") {
        Some(t) => read_transform(file, t)?,
        None => IDENTITY,
    };
    let index = out.len();
    out.push(VisualNode {
        identifier,
        parent,
        transform,
    });
    for child in node.children_named("node") {
        read_nodes(file, child, Some(index), out)?;
    }
    Ok(())
}

const IDENTITY: [[f32; 4]; 4] = [
    [1.0, 0.0, 0.0, 0.0],
    [0.0, 1.0, 0.0, 0.0],
    [0.0, 0.0, 1.0, 0.0],
    [0.0, 0.0, 0.0, 1.0],
];

/// `<row0>`..`<row3>`, each of 3 or 4 numbers.
fn read_transform(file: &str, transform: &Element) -> Result<[[f32; 4]; 4], SourceError> {
    let mut rows = IDENTITY;
    for (i, row) in rows.iter_mut().enumerate() {
        let name = format!("row{i}");
        let element = transform
            .child(&name)
            .ok_or_else(|| transform.error(file, format!("no <{name}> element")))?;
        *row = element.floats(file, Some(3), IDENTITY[i])?;
    }
    Ok(rows)
}

fn read_material(
    file: &str,
    material: &Element,
    primitive_group: Option<u32>,
) -> Result<VisualMaterial, SourceError> {
    let mfm = material
        .child("mfm")
        .ok_or_else(|| material.error(file, "no <mfm> element"))?;
    Ok(VisualMaterial {
        identifier: material
            .child("identifier")
            .map(|e| e.text.clone())
            .unwrap_or_default(),
        mfm: mfm.text.clone(),
        primitive_group,
        line: mfm.line,
    })
}

fn world_space(file: &str, set: &Element) -> Result<bool, SourceError> {
    set.child("treatAsWorldSpaceObject")
        .map(|e| e.bool(file))
        .transpose()
        .map(|b| b.unwrap_or(false))
}

fn mapped(
    name: Option<String>,
    treat_as_world_space_object: bool,
    nodes: Vec<String>,
    vertices: String,
    indices: String,
    materials: Vec<VisualMaterial>,
) -> VisualRenderSet {
    VisualRenderSet {
        vertices_id: murmur3_32(vertices.as_bytes(), 0),
        indices_id: murmur3_32(indices.as_bytes(), 0),
        name,
        treat_as_world_space_object,
        nodes,
        vertices,
        indices,
        materials,
    }
}

/// A newer form's `<renderSet>`: `<name>`, `<nodes>`, one `<material>`.
fn named_render_set(file: &str, set: &Element) -> Result<VisualRenderSet, SourceError> {
    let name = set.required_text(file, "name")?;
    if name.is_empty() {
        return Err(set.error(file, "a render set with an empty <name>"));
    }
    let nodes = set
        .child("nodes")
        .map(|n| n.children_named("node").map(|e| e.text.clone()).collect())
        .unwrap_or_default();
    let materials = set
        .children_named("material")
        .map(|m| read_material(file, m, None))
        .collect::<Result<_, _>>()?;
    Ok(mapped(
        Some(name.to_owned()),
        world_space(file, set)?,
        nodes,
        format!("{name}.vertices"),
        format!("{name}.indices"),
        materials,
    ))
}

/// A classic `<renderSet>`: `<node>`s, `<geometry>` with `<vertices>`, `<primitive>` and the
/// `<primitiveGroup>`s holding the materials.
fn classic_render_set(file: &str, set: &Element) -> Result<VisualRenderSet, SourceError> {
    let geometry = set
        .child("geometry")
        .ok_or_else(|| set.error(file, "no <geometry> element"))?;
    let mut materials = Vec::new();
    for group in geometry.children_named("primitiveGroup") {
        let number = group.text.parse::<u32>().map_err(|_| {
            group.error(
                file,
                format!("{:?} is not a primitive group number", group.text),
            )
        })?;
        for material in group.children_named("material") {
            materials.push(read_material(file, material, Some(number))?);
        }
    }
    Ok(mapped(
        None,
        world_space(file, set)?,
        set.children_named("node").map(|e| e.text.clone()).collect(),
        geometry.required_text(file, "vertices")?.to_owned(),
        geometry.required_text(file, "primitive")?.to_owned(),
        materials,
    ))
}

fn read_lod(file: &str, lod: &Element) -> Result<VisualLod, SourceError> {
    Ok(VisualLod {
        extent: lod
            .child("extent")
            .ok_or_else(|| lod.error(file, "no <extent> element"))?
            .float(file)?,
        casts_shadow: lod
            .child("castsShadow")
            .map(|e| e.bool(file))
            .transpose()?
            .unwrap_or(false),
        render_sets: lod
            .child("renderSets")
            .map(|r| {
                r.children_named("renderSet")
                    .map(|e| e.text.clone())
                    .collect()
            })
            .unwrap_or_default(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_classic_render_set_names_its_mappings_and_groups() {
        let text = "<v.visual>\n<node><identifier>Scene Root</identifier>\n<node><identifier>\tA\t</identifier></node></node>\n<renderSet><node>A</node><geometry><vertices>AShape.vertices</vertices><primitive>AShape.indices</primitive><primitiveGroup>\t0\n<material><identifier>M</identifier><mfm>a/m.mfm</mfm></material></primitiveGroup></geometry></renderSet></v.visual>";
        let v = VisualFile::parse("v.visual", text).unwrap();
        assert_eq!(v.form, VisualForm::NodeTree);
        assert_eq!(v.nodes[1].parent, Some(0));
        assert_eq!(v.nodes[1].transform, IDENTITY);
        let set = &v.render_sets[0];
        assert_eq!(
            (set.name.as_deref(), set.nodes.as_slice()),
            (None, &["A".to_owned()][..])
        );
        assert_eq!(set.vertices_id, murmur3_32(b"AShape.vertices", 0));
        assert_eq!(set.materials[0].primitive_group, Some(0));
        assert!(v.lods.is_empty());
    }

    #[test]
    fn a_lod_naming_no_render_set_is_an_error_with_its_place() {
        let text = "<v.visual><skeleton/><renderSets><renderSet><name>S</name></renderSet></renderSets>\n<lods><lod><extent>1</extent><renderSets><renderSet>T</renderSet></renderSets></lod></lods></v.visual>";
        let e = VisualFile::parse("v.visual", text).unwrap_err();
        assert_eq!(
            e.to_string(),
            "v.visual:2: <v.visual/lods>: a LOD draws render set \"T\", which the file does not define"
        );
    }

    #[test]
    fn rows_of_three_numbers_complete_the_matrix() {
        let text = "<v.visual><skeleton><node><identifier>R</identifier><transform><row0>1 0 0</row0><row1>0 1 0</row1><row2>0 0 1</row2><row3>5 6 7</row3></transform></node></skeleton></v.visual>";
        let v = VisualFile::parse("v.visual", text).unwrap();
        assert_eq!(v.nodes[0].transform[3], [5.0, 6.0, 7.0, 1.0]);
        let bad = text.replace("<row1>0 1 0</row1>", "<row1>0 1</row1>");
        let e = VisualFile::parse("v.visual", &bad).unwrap_err();
        assert!(
            e.to_string().contains("row1") && e.to_string().contains("2 numbers"),
            "{e}"
        );
    }
}

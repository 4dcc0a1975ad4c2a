//! `.model`: which visual draws the model and, in the classic form, the next LOD's `.model`.

use super::SourceError;
use super::xml::Element;

/// How a `.model` names its visual.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum VisualKind {
    /// Newer form: `<visual>` with the full `.visual` path.
    Visual,
    /// Classic form: `<nodefullVisual>`, a path without the `.visual` extension.
    Nodefull,
    /// Classic form: `<nodelessVisual>`, a path without the `.visual` extension.
    Nodeless,
}

/// A parsed `.model` file.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct ModelFile {
    /// The root element's name (the file name, e.g. `X.model`).
    pub root: String,
    /// Which element named the visual.
    pub visual_kind: VisualKind,
    /// The `.visual` path relative to the res/ root (`.visual` appended for the classic form).
    pub visual: String,
    /// Classic form: the next (coarser) LOD's `.model` path, without extension as stored.
    pub parent: Option<String>,
    /// Classic form: the distance up to which this model is drawn.
    pub extent: Option<f32>,
    /// Classic form: whether it casts shadows.
    pub casts_shadow: Option<bool>,
    /// Line of the `<parent>` element (for errors about the file it names).
    pub parent_line: usize,
    /// Line of the element naming the visual (for errors about the file it names; like every
    /// line kept for errors, not part of the serialized model).
    #[cfg_attr(feature = "serde", serde(skip))]
    pub visual_line: usize,
}

impl VisualKind {
    /// The element that names the visual.
    pub const fn element(self) -> &'static str {
        match self {
            VisualKind::Visual => "visual",
            VisualKind::Nodefull => "nodefullVisual",
            VisualKind::Nodeless => "nodelessVisual",
        }
    }
}

impl ModelFile {
    /// Parses the text of the `.model` file `file`.
    pub fn parse(file: &str, text: &str) -> Result<Self, SourceError> {
        Self::from_element(file, &super::xml::parse(file, text)?)
    }

    /// Reads a parsed `.model` root element.
    pub fn from_element(file: &str, root: &Element) -> Result<Self, SourceError> {
        let (visual_kind, el) = [
            (VisualKind::Visual, "visual"),
            (VisualKind::Nodefull, "nodefullVisual"),
            (VisualKind::Nodeless, "nodelessVisual"),
        ]
        .into_iter()
        .find_map(|(k, n)| root.child(n).map(|e| (k, e)))
        .ok_or_else(|| {
            root.error(
                file,
                "no <visual>, <nodefullVisual> or <nodelessVisual> element",
            )
        })?;
        if el.text.is_empty() {
            return Err(el.error(file, "empty visual path"));
        }
        let visual = match visual_kind {
            VisualKind::Visual => el.text.clone(),
            _ => format!("{}.visual", el.text),
        };
        let parent = root.child("parent").filter(|p| !p.text.is_empty());
        Ok(ModelFile {
            root: root.name.clone(),
            visual_kind,
            visual,
            parent: parent.map(|p| p.text.clone()),
            parent_line: parent.map_or(0, |p| p.line),
            visual_line: el.line,
            extent: root.child("extent").map(|e| e.float(file)).transpose()?,
            casts_shadow: root
                .child("castsShadow")
                .map(|e| e.bool(file))
                .transpose()?,
        })
    }
}

//! A model's sources resolved over a res/ root: the `.model`, its visual, the levels of detail
//! (the newer form's `<lods>`, or the classic `<parent>` chain of `.model` files, each with its own
//! visual), the `.geometry` beside the top visual, and every `.mfm` the render sets name. Each
//! path a file names is checked to stay under the root before it is read; a file that is missing
//! is an error naming it, and the file, line and element that named it.

use std::path::Path;

use super::{Material, ModelFile, SourceError, VisualFile, VisualForm, read_source};
use crate::wows::is_safe_resource_path;

/// The most `.model` files a `<parent>` chain may hold (real chains have four): a longer one, or
/// a cycle, is an error rather than a walk without end.
pub const MAX_LOD_CHAIN: usize = 16;

/// Who named a file: for the error when it is missing.
#[derive(Debug, Clone, Copy)]
struct NamedBy<'n> {
    file: &'n str,
    element: &'n str,
    line: usize,
}

/// One level of detail.
#[derive(Debug, Clone, PartialEq)]
pub struct SourceLod {
    /// The distance up to which it is drawn (`None` when its file does not say).
    pub extent: Option<f32>,
    /// Whether it casts shadows.
    pub casts_shadow: bool,
    /// Its visual: an index into [`SourceModel::visuals`].
    pub visual: usize,
    /// The render sets it draws: indices into that visual's render sets.
    pub render_sets: Vec<usize>,
}

/// A model read from its sources.
#[derive(Debug, Clone, PartialEq)]
pub struct SourceModel {
    /// The `.model` as named.
    pub model: String,
    /// The visuals by res-relative path: the top model's first, then each classic LOD's.
    pub visuals: Vec<(String, VisualFile)>,
    /// The levels of detail, finest first.
    pub lods: Vec<SourceLod>,
    /// The `.geometry` beside the top visual (res-relative): it holds every LOD's mappings.
    pub geometry: String,
    /// Every material the render sets name, by `.mfm` path, in the order first named.
    pub materials: Vec<(String, Material)>,
}

impl SourceModel {
    /// The material at `mfm`.
    pub fn material(&self, mfm: &str) -> Option<&Material> {
        self.materials
            .iter()
            .find(|(p, _)| p == mfm)
            .map(|(_, m)| m)
    }
}

/// Reads the res-relative `path` under `root`, named by `by`.
fn read(root: &Path, path: &str, by: NamedBy<'_>) -> Result<String, SourceError> {
    let fail = |why: String| SourceError::new(by.file, by.element, by.line, why);
    if !is_safe_resource_path(path) {
        return Err(fail(format!(
            "{path:?} is not a path under the resource root (empty, absolute, or with .. or \\)"
        )));
    }
    let file = root.join(path);
    read_source(&file).map_err(|e| {
        fail(match e.kind() {
            std::io::ErrorKind::NotFound => {
                format!("{path} is missing (looked for {})", file.display())
            }
            _ => format!("{path} cannot be read ({}): {e}", file.display()),
        })
    })
}

/// The res-relative path of `file` under `root`, with `/` separators; `None` when it is not under
/// it.
pub fn relative_to(root: &Path, file: &Path) -> Option<String> {
    let relative = file.strip_prefix(root).ok()?;
    let parts: Option<Vec<&str>> = relative.iter().map(|p| p.to_str()).collect();
    Some(parts?.join("/"))
}

/// Reads the model at `model` (a file path) and everything it names under `root` (the folder the
/// paths inside the files are relative to: the res/ folder, or a mod's copy of it).
pub fn resolve(root: &Path, model: &Path) -> Result<SourceModel, SourceError> {
    let shown = model.display().to_string();
    let text = read_source(model)
        .map_err(|e| SourceError::new(&shown, "", 0, format!("cannot be read: {e}")))?;
    let top = ModelFile::parse(&shown, &text)?;
    let mut visuals: Vec<(String, VisualFile)> = Vec::new();
    let mut lods = Vec::new();
    let visual = load_visual(root, &shown, &top)?;
    visuals.push((top.visual.clone(), visual));
    match visuals[0].1.form {
        VisualForm::Skeleton => {
            let visual = &visuals[0].1;
            if visual.lods.is_empty() {
                lods.push(SourceLod {
                    extent: top.extent,
                    casts_shadow: top.casts_shadow.unwrap_or(false),
                    visual: 0,
                    render_sets: (0..visual.render_sets.len()).collect(),
                });
            }
            for lod in &visual.lods {
                let render_sets = lod
                    .render_sets
                    .iter()
                    .filter_map(|name| {
                        visual
                            .render_sets
                            .iter()
                            .position(|s| s.name.as_ref() == Some(name))
                    })
                    .collect();
                lods.push(SourceLod {
                    extent: Some(lod.extent),
                    casts_shadow: lod.casts_shadow,
                    visual: 0,
                    render_sets,
                });
            }
        }
        VisualForm::NodeTree => {
            lods.push(SourceLod {
                extent: top.extent,
                casts_shadow: top.casts_shadow.unwrap_or(false),
                visual: 0,
                render_sets: (0..visuals[0].1.render_sets.len()).collect(),
            });
            let mut named_by = (shown.clone(), top.parent_line);
            let mut next = top.parent.clone();
            let mut seen: Vec<String> = Vec::new();
            while let Some(stem) = next.take() {
                let path = format!("{stem}.model");
                if lods.len() >= MAX_LOD_CHAIN || seen.contains(&path) {
                    return Err(SourceError::new(
                        &named_by.0,
                        "parent",
                        named_by.1,
                        format!(
                            "the <parent> chain repeats {path} or is longer than {MAX_LOD_CHAIN} models"
                        ),
                    ));
                }
                seen.push(path.clone());
                let by = NamedBy {
                    file: &named_by.0,
                    element: "parent",
                    line: named_by.1,
                };
                let text = read(root, &path, by)?;
                let lod = ModelFile::parse(&path, &text)?;
                let visual = load_visual(root, &path, &lod)?;
                lods.push(SourceLod {
                    extent: lod.extent,
                    casts_shadow: lod.casts_shadow.unwrap_or(false),
                    visual: visuals.len(),
                    render_sets: (0..visual.render_sets.len()).collect(),
                });
                visuals.push((lod.visual.clone(), visual));
                named_by = (path, lod.parent_line);
                next = lod.parent;
            }
        }
    }
    let mut materials: Vec<(String, Material)> = Vec::new();
    for (visual_path, visual) in &visuals {
        for set in &visual.render_sets {
            for material in &set.materials {
                if materials.iter().any(|(p, _)| *p == material.mfm) {
                    continue;
                }
                let by = NamedBy {
                    file: visual_path,
                    element: "renderSet/material/mfm",
                    line: material.line,
                };
                let text = read(root, &material.mfm, by)?;
                materials.push((material.mfm.clone(), Material::parse(&material.mfm, &text)?));
            }
        }
    }
    let top_visual = &visuals[0].0;
    let geometry = match top_visual.strip_suffix(".visual") {
        Some(stem) => format!("{stem}.geometry"),
        None => format!("{top_visual}.geometry"),
    };
    Ok(SourceModel {
        model: shown,
        visuals,
        lods,
        geometry,
        materials,
    })
}

fn load_visual(
    root: &Path,
    model_file: &str,
    model: &ModelFile,
) -> Result<VisualFile, SourceError> {
    let by = NamedBy {
        file: model_file,
        element: model.visual_kind.element(),
        line: model.visual_line,
    };
    let text = read(root, &model.visual, by)?;
    VisualFile::parse(&model.visual, &text)
}

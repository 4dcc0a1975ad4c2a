//! The project folder a `Project.dat` indexes: `Assets/<Kind>/<entry id>/Current.<ext>` holds an
//! asset's current state and `<revision id>.<ext>` each saved revision (`Assets/Models/12/
//! Current.csmodel`, `Assets/Maps/40/3.csmapchunks`).
//!
//! [`check`] maps every asset to its files and reports what is missing and what no entry
//! accounts for. Unlike the view it reads directories and allocates (paths, the list of files).

use std::collections::BTreeSet;
use std::io;
use std::path::{Path, PathBuf};

use super::{Entry, ProjectView};

/// The file name of an asset's current state, before its extension.
pub const CURRENT: &str = "Current";

/// The files of one asset, relative to the project folder; `None` where the file is missing.
#[derive(Debug, Clone)]
pub struct AssetFiles<'a> {
    /// The asset.
    pub entry: Entry<'a>,
    /// `Assets/<Kind>/<id>`, `None` for an entry type with no known folder.
    pub folder: Option<PathBuf>,
    /// `Assets/<Kind>/<id>/Current.<ext>`, `None` where it is missing.
    pub current: Option<PathBuf>,
    /// Each revision id with its file.
    pub revisions: Vec<(u16, Option<PathBuf>)>,
}

/// A file a live asset should have but the folder lacks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Missing {
    /// The asset's entry id.
    pub entry_id: u16,
    /// `None` for the current file, the revision id otherwise.
    pub revision_id: Option<u16>,
    /// The expected path with the type's usual extension, relative to the project folder.
    pub expected: PathBuf,
}

/// What [`check`] found.
#[derive(Debug, Clone)]
pub struct FolderCheck<'a> {
    /// Every asset (trashed ones too), in file order.
    pub assets: Vec<AssetFiles<'a>>,
    /// Files of live (not trashed) assets that do not exist.
    pub missing: Vec<Missing>,
    /// Files under `Assets/` that belong to no entry and revision, sorted.
    pub orphaned: Vec<PathBuf>,
    /// Assets of an entry type whose folder is unknown (their files cannot be told).
    pub unknown_types: usize,
}

impl FolderCheck<'_> {
    /// Whether nothing is missing or orphaned.
    pub fn is_clean(&self) -> bool {
        self.missing.is_empty() && self.orphaned.is_empty()
    }
}

/// Maps each asset of `project` to its files under `dir` (the folder that holds `Project.dat`)
/// and reports missing files of live assets and files no entry accounts for. A trashed asset's
/// files are accounted for (it can be restored) but not required.
pub fn check<'a>(dir: &Path, project: &ProjectView<'a>) -> io::Result<FolderCheck<'a>> {
    let mut files = BTreeSet::new();
    let assets_dir = dir.join("Assets");
    if assets_dir.is_dir() {
        collect(dir, Path::new("Assets"), &mut files)?;
    }
    let mut report = FolderCheck {
        assets: Vec::new(),
        missing: Vec::new(),
        orphaned: Vec::new(),
        unknown_types: 0,
    };
    for entry in project.entries() {
        let entry = entry.map_err(invalid_data)?;
        if !entry.is_asset() {
            continue;
        }
        let kind = entry.entry_type();
        let Some(kind_folder) = kind.assets_folder() else {
            report.unknown_types += 1;
            report.assets.push(AssetFiles {
                entry,
                folder: None,
                current: None,
                revisions: entry
                    .revisions()
                    .map(|r| r.map(|r| (r.id, None)))
                    .collect::<Result<_, _>>()
                    .map_err(invalid_data)?,
            });
            continue;
        };
        let folder = Path::new("Assets")
            .join(kind_folder)
            .join(entry.id().to_string());
        let mut claim = |stem: &str| {
            kind.extensions().iter().find_map(|ext| {
                let path = folder.join(format!("{stem}.{ext}"));
                files.remove(&path).then_some(path)
            })
        };
        let current = claim(CURRENT);
        let revisions: Vec<(u16, Option<PathBuf>)> = entry
            .revisions()
            .map(|r| r.map(|r| (r.id, claim(&r.id.to_string()))))
            .collect::<Result<_, _>>()
            .map_err(invalid_data)?;
        if !entry.is_trashed() {
            let usual = kind.extensions().first().copied().unwrap_or_default();
            if current.is_none() {
                report.missing.push(Missing {
                    entry_id: entry.id(),
                    revision_id: None,
                    expected: folder.join(format!("{CURRENT}.{usual}")),
                });
            }
            for &(id, ref path) in &revisions {
                if path.is_none() {
                    report.missing.push(Missing {
                        entry_id: entry.id(),
                        revision_id: Some(id),
                        expected: folder.join(format!("{id}.{usual}")),
                    });
                }
            }
        }
        report.assets.push(AssetFiles {
            entry,
            folder: Some(folder),
            current,
            revisions,
        });
    }
    report.orphaned = files.into_iter().collect();
    Ok(report)
}

/// A read error of `Project.dat` as an I/O error of the check (the view walked every record when
/// it opened, so there is none in practice).
fn invalid_data(e: crate::Error) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, e)
}

/// Every file under `root/relative`, as paths relative to `root`. Symbolic links to directories
/// are not followed, so a link cycle cannot loop the walk.
fn collect(root: &Path, relative: &Path, files: &mut BTreeSet<PathBuf>) -> io::Result<()> {
    for item in std::fs::read_dir(root.join(relative))? {
        let item = item?;
        let path = relative.join(item.file_name());
        let kind = item.file_type()?;
        if kind.is_dir() {
            collect(root, &path, files)?;
        } else {
            files.insert(path);
        }
    }
    Ok(())
}

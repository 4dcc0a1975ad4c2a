//! The `craftstudio-project` format as one of [`AnyView`](crate::AnyView)'s formats: its [`View`]
//! implementation, with the format's facts (its name, the names its files go by).

use std::path::Path;

use super::{ProjectInfo, ProjectView};
use crate::error::Result;
use crate::view::{CheckReport, NameHint, Scratch, View, ViewError};

impl<'a> View<'a> for ProjectView<'a> {
    const NAME: &'static str = "craftstudio-project";
    type Summary = ProjectInfo;
    #[cfg(feature = "write")]
    type Model = crate::craftstudio::model::ProjectModel;

    fn looks_like(data: &[u8]) -> bool {
        super::looks_like(data)
    }

    /// Named by a whole name, `Project.dat` (see [`named_like`](Self::named_like)).
    const NAMED: Option<NameHint> = Some(NameHint {
        extensions: &[],
        name: "Project.dat",
        unreadable: "named Project.dat but does not read as a CraftStudio project",
    });

    /// A name ending in `Project.dat` (case ignored). Other programs use that name too: a file
    /// found by walking a folder is taken for a project only when its first bytes read like a
    /// CraftStudio header; one the user named is read as a project whatever it holds.
    fn named_like(path: &Path, data: &[u8], named: bool) -> Option<NameHint> {
        let name = path.file_name()?.to_str()?.to_ascii_lowercase();
        let project_dat = name.ends_with("project.dat");
        Self::NAMED.filter(|_| project_dat && (named || super::header_looks_like(data)))
    }

    fn from_bytes_in(data: &'a [u8], _: &'a mut Scratch) -> Result<Self> {
        ProjectView::from_bytes(data)
    }

    /// [`ProjectView::validate`]: every entry read and its path through its parents resolved.
    fn check(&self) -> CheckReport {
        CheckReport::of_walk(self.validate())
    }

    fn summary(&self) -> Result<ProjectInfo, ViewError> {
        let (mut folders, mut assets, mut trashed) = (0, 0, 0);
        for entry in self.entries() {
            let entry = entry?;
            folders += usize::from(entry.is_folder());
            assets += usize::from(entry.is_asset());
            trashed += usize::from(entry.is_trashed());
        }
        Ok(ProjectInfo {
            name: self.name().to_owned(),
            format_version: self.format_version(),
            project_type: self.project_type(),
            controls: self.control_count(),
            entries: self.entry_count(),
            folders,
            assets,
            trashed,
            trailing_bytes: self.trailing_bytes().len(),
        })
    }

    #[cfg(feature = "write")]
    fn to_model(&self) -> Result<Self::Model, ViewError> {
        Ok(crate::craftstudio::model::ProjectModel::from_view(self)?)
    }

    #[cfg(all(feature = "write", feature = "serde"))]
    fn diff(&self, other: &Self) -> Result<crate::diff::Report, ViewError> {
        Ok(crate::craftstudio::diff::files(self, other))
    }
}

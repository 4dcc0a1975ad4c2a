//! CraftStudio `Project.dat` as one of [`AnyView`](crate::AnyView)'s formats: its [`View`]
//! implementation and the summary `gamebin info` prints.

use core::fmt;

use super::{ProjectType, ProjectView};
use crate::Format;
use crate::any::{CheckReport, Scratch, View, ViewError, count};
use crate::error::Result;

/// What `gamebin info` shows of a CraftStudio project: its name and type, and what its asset tree
/// and game controls hold.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct ProjectInfo {
    /// The project's name.
    pub name: String,
    /// The header's format version.
    pub format_version: u8,
    /// What the project makes; with `serde`, its name (`"Game"`), or the stored number when the
    /// reader does not know it.
    #[cfg_attr(feature = "serde", serde(serialize_with = "name_or_number"))]
    pub project_type: ProjectType,
    /// Game controls.
    pub controls: usize,
    /// Entries of the asset tree.
    pub entries: usize,
    /// Entries that are folders.
    pub folders: usize,
    /// Entries that are assets.
    pub assets: usize,
    /// Entries in the trash.
    pub trashed: usize,
    /// Bytes after the last entry.
    pub trailing_bytes: usize,
}

#[cfg(feature = "serde")]
fn name_or_number<S: serde::Serializer>(
    t: &ProjectType,
    s: S,
) -> core::result::Result<S::Ok, S::Error> {
    match t.name() {
        Some(name) => s.serialize_str(name),
        None => s.serialize_u8(t.to_u8()),
    }
}

impl fmt::Display for ProjectInfo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}, ", Format::CraftStudioProject)?;
        match self.project_type.name() {
            Some(name) => f.write_str(name)?,
            None => write!(f, "project type {}", self.project_type.to_u8())?,
        }
        write!(
            f,
            " {:?}, {} ({}, {}, {} trashed), {}, {}",
            self.name,
            count(self.entries, "entry", "entries"),
            count(self.folders, "folder", "folders"),
            count(self.assets, "asset", "assets"),
            self.trashed,
            count(self.controls, "game control", "game controls"),
            count(self.trailing_bytes, "trailing byte", "trailing bytes")
        )
    }
}

impl<'a> View<'a> for ProjectView<'a> {
    const FORMAT: Format = Format::CraftStudioProject;
    type Summary = ProjectInfo;
    #[cfg(feature = "write")]
    type Model = crate::craftstudio::model::ProjectModel;

    fn looks_like(data: &[u8]) -> bool {
        super::looks_like(data)
    }

    fn open(data: &'a [u8], _: &'a mut Scratch) -> Result<Self> {
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

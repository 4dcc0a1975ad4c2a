//! CraftStudio `Project.dat` as one of [`AnyView`](crate::AnyView)'s formats: its [`View`]
//! implementation and the summary `gamebin info` prints.

use core::fmt;

use super::{ProjectType, ProjectView};
use crate::view::{View, count};

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
        write!(f, "{}, ", <ProjectView<'_> as View<'_>>::NAME)?;
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

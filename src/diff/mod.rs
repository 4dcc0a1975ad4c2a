//! Structural comparison of two files of one format: a list of [`Change`]s, each at a path-like
//! location (`it_potion/u16Price`), with the values before and after, rendered for people
//! ([`Report::lines`]) or tools (serde, feature `serde`). [`Report::status`] follows `diff`'s
//! exit convention: 0 equal, 1 different (2, errors, is the caller's).
//!
//! This module holds what every comparison shares; each format's comparison sits in its own
//! folder, beside its reader: `.wdb` by record and field (`wdb::diff`, feature `write`); with the
//! `serde` feature as well, `.geometry` by buffer, mapping and draw (`wows::geometry::diff`), WWD
//! levels by plane, tile rectangle and object (`wwd::diff`), `.wdata` maps by section and entry
//! (`wdata::diff`), CraftStudio projects by entry path (`craftstudio::diff`) and PFS indexes by
//! file path (`wows::pfs::diff`), compared through their owned models; with `serde` alone,
//! `assets.bin` files by path (`wows::assets::diff`: added, removed and changed prototypes, and
//! which fields changed).

// Each format's comparison uses its part of these helpers: a build with fewer formats leaves the
// rest unused.
#[cfg(feature = "serde")]
#[allow(dead_code)]
pub(crate) mod value;

use core::fmt;

/// What happened at a location.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
pub enum ChangeKind {
    /// Only in the second file.
    Added,
    /// Only in the first file.
    Removed,
    /// In both, with different values.
    Changed,
}

/// One difference.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Change {
    /// Where: `/`-separated names from the file's structure (`record/field`, `!!sheetname`).
    pub path: String,
    /// Added, removed or changed.
    pub kind: ChangeKind,
    /// The value in the first file (`None` when added).
    pub before: Option<String>,
    /// The value in the second file (`None` when removed).
    pub after: Option<String>,
}

impl Change {
    /// A value only in the second file.
    pub fn added(path: impl Into<String>, after: impl Into<String>) -> Self {
        Change {
            path: path.into(),
            kind: ChangeKind::Added,
            before: None,
            after: Some(after.into()),
        }
    }

    /// A value only in the first file.
    pub fn removed(path: impl Into<String>, before: impl Into<String>) -> Self {
        Change {
            path: path.into(),
            kind: ChangeKind::Removed,
            before: Some(before.into()),
            after: None,
        }
    }

    /// A value in both, different.
    pub fn changed(
        path: impl Into<String>,
        before: impl Into<String>,
        after: impl Into<String>,
    ) -> Self {
        Change {
            path: path.into(),
            kind: ChangeKind::Changed,
            before: Some(before.into()),
            after: Some(after.into()),
        }
    }
}

impl fmt::Display for Change {
    /// `~ path: before -> after`, `+ path: after`, `- path: before`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let none = String::new();
        let (before, after) = (
            self.before.as_ref().unwrap_or(&none),
            self.after.as_ref().unwrap_or(&none),
        );
        match self.kind {
            ChangeKind::Added => write!(f, "+ {}: {after}", self.path),
            ChangeKind::Removed => write!(f, "- {}: {before}", self.path),
            ChangeKind::Changed => write!(f, "~ {}: {before} -> {after}", self.path),
        }
    }
}

/// The differences between two files of one format, in the files' order.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Report {
    /// The format's short name (`"ff13-wdb"`).
    pub format: String,
    /// Whether the files are equal in everything compared.
    pub equal: bool,
    /// Every difference.
    pub changes: Vec<Change>,
}

/// `diff`'s exit convention.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    /// Exit 0: no difference.
    Equal,
    /// Exit 1: differences.
    Different,
    /// Exit 2: a file could not be read or compared.
    Trouble,
}

impl Status {
    /// The process exit code: 0, 1 or 2.
    pub const fn code(self) -> u8 {
        match self {
            Status::Equal => 0,
            Status::Different => 1,
            Status::Trouble => 2,
        }
    }
}

impl Report {
    /// A report of `changes` between two files of `format`.
    pub fn new(format: &str, changes: Vec<Change>) -> Self {
        Report {
            format: format.to_string(),
            equal: changes.is_empty(),
            changes,
        }
    }

    /// [`Status::Equal`] or [`Status::Different`].
    pub fn status(&self) -> Status {
        if self.changes.is_empty() {
            Status::Equal
        } else {
            Status::Different
        }
    }

    /// One line per change, for people.
    pub fn lines(&self) -> impl Iterator<Item = String> + '_ {
        self.changes.iter().map(Change::to_string)
    }
}

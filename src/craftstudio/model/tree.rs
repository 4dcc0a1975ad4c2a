//! A project as a tree, owned: the header with its enumerations named, the game controls, and the
//! entries nested under their folders — what `gamebin dump` prints as text for a `Project.dat`
//! (`dump --json` serializes the model, [`ProjectModel`](super::ProjectModel)), and what `gamebin
//! diff` compares by path.
//!
//! The tree is built from a view that opened, so every record reads: the view walked each one
//! then, and reading the same bytes at the same offsets again cannot fail.
//!
//! Real files hold entries whose folder was deleted (their parent id leads nowhere): they are
//! kept as [`DanglingSubtree`]s, and entries reached from neither the root nor a dangling parent
//! (their parents form a loop) are listed by id in [`ProjectTree::unreachable`], so every entry of
//! the file shows up exactly once.

use std::collections::HashSet;

use super::ControlSpec;
use crate::craftstudio::raw::ROOT_PARENT_ID;
use crate::craftstudio::{Entry, EntryIndex, GameControl, ProjectView};

/// Nesting beyond this is not expanded (a file can nest 65,535 deep; the tree stays readable and
/// building it stays bounded). Entries below it are listed as unreachable.
pub const MAX_DEPTH: usize = 256;

/// An enumeration value: its name when the format knows it, else the stored number.
#[cfg_attr(feature = "serde", derive(serde::Serialize), serde(untagged))]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Named {
    /// A known value's name.
    Name(&'static str),
    /// A value the format does not name.
    Number(u8),
}

impl Named {
    fn new(name: Option<&'static str>, value: u8) -> Named {
        name.map_or(Named::Number(value), Named::Name)
    }

    /// The name, or `#` and the number.
    pub fn label(&self) -> String {
        match self {
            Named::Name(s) => (*s).to_owned(),
            Named::Number(v) => format!("#{v}"),
        }
    }
}

/// A game control and where it lies: the model's [`ControlSpec`] (its fields declared once, in
/// [`ControlSettings`](crate::craftstudio::raw::ControlSettings)), whose accessors name the
/// values (`settings.source()`, `settings.positive_key().name()`).
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[derive(Debug, Clone, PartialEq)]
pub struct Control {
    /// Its file offset.
    pub offset: usize,
    /// The control.
    #[cfg_attr(feature = "serde", serde(flatten))]
    pub control: ControlSpec,
}

impl Control {
    fn new(c: &GameControl<'_>) -> Control {
        Control {
            offset: c.offset(),
            control: ControlSpec::from_view(c),
        }
    }
}

/// A saved revision of an asset.
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Revision {
    /// The revision id.
    pub id: u16,
    /// Its name (a timestamp in real files).
    pub name: String,
}

/// An entry with the entries under it.
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TreeEntry {
    /// The entry's id.
    pub id: u16,
    /// Its file offset.
    pub offset: usize,
    /// Its name.
    pub name: String,
    /// Whether it is a folder.
    pub folder: bool,
    /// The asset type (a folder's type says which tree it belongs to).
    pub entry_type: Named,
    /// Whether it is locked against editing.
    pub locked: bool,
    /// Whether the asset is in the trash.
    pub trashed: bool,
    /// The id the asset's next revision gets (`None` for a folder).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub next_revision_id: Option<u16>,
    /// The asset's revisions, oldest first.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Vec::is_empty"))]
    pub revisions: Vec<Revision>,
    /// A folder's entries.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Vec::is_empty"))]
    pub children: Vec<TreeEntry>,
}

/// Entries under a parent id that no entry has (their folder was deleted).
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DanglingSubtree {
    /// The parent id no entry has.
    pub parent_id: u16,
    /// The entries under it, with theirs.
    pub entries: Vec<TreeEntry>,
}

/// Where the bytes after the last entry start, and how many there are.
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TrailingBytes {
    /// File offset of the first trailing byte.
    pub offset: usize,
    /// Number of trailing bytes.
    pub length: usize,
}

/// The project header with its enumerations named.
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Header {
    /// 9 in every real file.
    pub format_version: u8,
    /// Game or movie.
    pub project_type: Named,
    /// The project's name.
    pub name: String,
    /// The project's description.
    pub description: String,
    /// Entry id of the scene the game starts with.
    pub startup_scene_id: u16,
    /// 5 in every real file.
    pub script_api_version: u16,
    /// Who may join.
    pub membership_policy: Named,
    /// The role new members get.
    pub default_member_role: Named,
    /// The id the next new control gets.
    pub next_control_id: u16,
    /// The id the next new entry gets.
    pub next_entry_id: u16,
}

/// A whole project as a tree (see the module docs).
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[derive(Debug, Clone, PartialEq)]
pub struct ProjectTree {
    /// The header.
    pub header: Header,
    /// The game controls, in file order.
    pub controls: Vec<Control>,
    /// How many entries the file holds.
    pub entry_count: usize,
    /// The tree from the root.
    pub tree: Vec<TreeEntry>,
    /// Subtrees whose parent folder no longer exists, by parent id.
    pub dangling: Vec<DanglingSubtree>,
    /// Ids of entries reached from neither (their parents loop, or nest beyond [`MAX_DEPTH`]).
    pub unreachable: Vec<u16>,
    /// The bytes after the last entry.
    pub trailing_bytes: TrailingBytes,
}

impl ProjectTree {
    /// The tree of a project (builds the view's [`EntryIndex`]).
    pub fn from_view(view: &ProjectView<'_>) -> ProjectTree {
        let index = view.index();
        let mut builder = TreeBuilder {
            index: &index,
            placed: HashSet::new(),
        };
        let tree = builder.subtrees(ROOT_PARENT_ID, 0);
        let mut dangling_ids: Vec<u16> = index
            .dangling()
            .map_while(Result::ok)
            .map(|e| e.parent_id())
            .collect();
        dangling_ids.sort_unstable();
        dangling_ids.dedup();
        let dangling = dangling_ids
            .into_iter()
            .map(|parent_id| DanglingSubtree {
                parent_id,
                entries: builder.subtrees(parent_id, 0),
            })
            .collect();
        let unreachable = view
            .walked_entries()
            .filter(|e| !builder.placed.contains(&e.offset()))
            .map(|e| e.id())
            .collect();
        let p = view.project_type();
        let policy = view.membership_policy();
        let role = view.default_member_role();
        ProjectTree {
            header: Header {
                format_version: view.format_version(),
                project_type: Named::new(p.name(), p.to_u8()),
                name: view.name().to_owned(),
                description: view.description().to_owned(),
                startup_scene_id: view.startup_scene_id(),
                script_api_version: view.script_api_version(),
                membership_policy: Named::new(policy.name(), policy.to_u8()),
                default_member_role: Named::new(role.name(), role.to_u8()),
                next_control_id: view.next_control_id(),
                next_entry_id: view.next_entry_id(),
            },
            controls: view
                .controls()
                .map_while(Result::ok)
                .map(|c| Control::new(&c))
                .collect(),
            entry_count: view.entry_count(),
            tree,
            dangling,
            unreachable,
            trailing_bytes: TrailingBytes {
                offset: view.trailing_offset(),
                length: view.trailing_bytes().len(),
            },
        }
    }
}

/// Places each entry once, depth first from a parent id.
struct TreeBuilder<'i, 'a> {
    index: &'i EntryIndex<'a>,
    /// Offsets of the entries placed so far.
    placed: HashSet<usize>,
}

impl<'a> TreeBuilder<'_, 'a> {
    fn subtrees(&mut self, parent_id: u16, depth: usize) -> Vec<TreeEntry> {
        if depth > MAX_DEPTH {
            return Vec::new();
        }
        let index = self.index;
        let mut out = Vec::new();
        for child in index.children(parent_id).map_while(Result::ok) {
            // An entry is placed once, even where duplicate ids would attach it twice.
            if self.placed.insert(child.offset()) {
                out.push(self.node(&child, depth));
            }
        }
        out
    }

    fn node(&mut self, e: &Entry<'a>, depth: usize) -> TreeEntry {
        let children = if e.is_folder() {
            self.subtrees(e.id(), depth + 1)
        } else {
            Vec::new()
        };
        TreeEntry {
            id: e.id(),
            offset: e.offset(),
            name: e.name().to_owned(),
            folder: e.is_folder(),
            entry_type: Named::new(e.entry_type().name(), e.entry_type().to_u8()),
            locked: e.is_locked(),
            trashed: e.is_trashed(),
            next_revision_id: e.next_revision_id(),
            revisions: e
                .revisions()
                .map_while(Result::ok)
                .map(|r| Revision {
                    id: r.id,
                    name: r.name.to_owned(),
                })
                .collect(),
            children,
        }
    }
}

//! A CraftStudio `Project.dat`, owned: the header, game controls, entries with revisions, and any
//! trailing bytes; written (`craftstudio::write`, [`ProjectModel::to_bytes`]) the way
//! CraftStudio's .NET `BinaryWriter` does.
//! [`ProjectModel::from_view`] copies a view, so read → write reproduces a file byte for byte
//! (CraftStudio writes canonical length prefixes and booleans as 0 or 1; a file with other
//! boolean bytes in its entries or padded length prefixes is normalised). `ProjectModel` is the
//! format's owned model: `gamebin dump --json` prints it (with the `serde` feature).
//!
//! [`ProjectTree`] is the same project as a tree with every value named (what `gamebin dump`
//! prints as text).
//!
//! ```
//! use gamebin::craftstudio::ProjectView;
//! use gamebin::craftstudio::model::{EntrySpec, ProjectModel};
//!
//! let mut project = ProjectModel::new("Demo");
//! project.entries.push(EntrySpec::folder(1, None, "Scripts", 7));
//! project.entries.push(EntrySpec::asset(2, Some(1), "Main", 7));
//! let bytes = project.to_bytes().unwrap();
//! let view = ProjectView::from_bytes(&bytes).unwrap();
//! assert_eq!(view.entry_count(), 2);
//! assert_eq!(ProjectModel::from_view(&view).unwrap().to_bytes().unwrap(), bytes);
//! ```

mod tree;

pub use tree::{
    Control, DanglingSubtree, Header, MAX_DEPTH, Named, ProjectTree, Revision, TrailingBytes,
    TreeEntry,
};

use crate::craftstudio::raw::ControlSettings;
use crate::craftstudio::raw::ROOT_PARENT_ID;
use crate::craftstudio::{Entry, GameControl, ProjectView};
use crate::error::Result;

/// One game control: its id and name, and the fixed fields after the name as the reader's
/// [`ControlSettings`] (declared once, in `craftstudio::raw`; written as they are).
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Debug, Clone, PartialEq)]
pub struct ControlSpec {
    /// The control's id.
    pub id: u16,
    /// The name scripts ask for.
    pub name: String,
    /// Type, source, keys, buttons, joystick, axis settings (stored bytes kept: a
    /// `snap_to_zero` other than 0 or 1 is written back as it was read).
    #[cfg_attr(feature = "serde", serde(flatten))]
    pub settings: ControlSettings,
}

impl ControlSpec {
    /// A keyboard button on virtual-key code `key`, with CraftStudio's default axis settings.
    pub fn key(id: u16, name: &str, key: u8) -> Self {
        ControlSpec {
            id,
            name: name.to_string(),
            settings: ControlSettings::key(key),
        }
    }

    /// Copies a control of a view.
    pub fn from_view(control: &GameControl<'_>) -> Self {
        ControlSpec {
            id: control.id(),
            name: control.name().to_string(),
            settings: *control.settings(),
        }
    }
}

/// One entry: a folder (no revisions) or an asset.
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Debug, Clone, PartialEq)]
pub struct EntrySpec {
    /// Whether the entry is a folder.
    pub is_folder: bool,
    /// The entry's id.
    pub id: u16,
    /// 0xFFFF at the root.
    pub parent_id: u16,
    /// The entry's name.
    pub name: String,
    /// 0 Model, 1 Map, 2 Scene, 3 TileSet, 4 Document, 6 ModelAnimation, 7 Script, 8 Sound, 9 Font.
    pub entry_type: u8,
    /// Whether the entry is locked against editing.
    pub locked: bool,
    /// Assets only (not written for folders).
    pub trashed: bool,
    /// The id the asset's next new revision gets (assets only).
    pub next_revision_id: u16,
    /// Revisions: id and name, a "YYYY-MM-DD HH:MM:SS" timestamp (assets only).
    pub revisions: Vec<(u16, String)>,
}

impl EntrySpec {
    /// A folder under `parent` (`None` for the root).
    pub fn folder(id: u16, parent: Option<u16>, name: &str, entry_type: u8) -> Self {
        EntrySpec {
            is_folder: true,
            id,
            parent_id: parent.unwrap_or(ROOT_PARENT_ID),
            name: name.to_string(),
            entry_type,
            locked: false,
            trashed: false,
            next_revision_id: 0,
            revisions: Vec::new(),
        }
    }

    /// An asset under `parent` with no revisions.
    pub fn asset(id: u16, parent: Option<u16>, name: &str, entry_type: u8) -> Self {
        EntrySpec {
            is_folder: false,
            ..EntrySpec::folder(id, parent, name, entry_type)
        }
    }

    /// Copies an entry of a view, with its revisions.
    pub fn from_view(e: &Entry<'_>) -> Result<Self> {
        Ok(EntrySpec {
            is_folder: e.is_folder(),
            id: e.id(),
            parent_id: e.parent_id(),
            name: e.name().to_string(),
            entry_type: e.entry_type().to_u8(),
            locked: e.is_locked(),
            trashed: e.is_trashed(),
            next_revision_id: e.next_revision_id().unwrap_or(0),
            revisions: e
                .revisions()
                .map(|r| r.map(|r| (r.id, r.name.to_string())))
                .collect::<Result<_>>()?,
        })
    }

    /// Adds a revision named by its timestamp.
    pub fn revision(mut self, id: u16, timestamp: &str) -> Self {
        self.revisions.push((id, timestamp.to_string()));
        self.next_revision_id = self.next_revision_id.max(id.saturating_add(1));
        self
    }
}

/// A whole `Project.dat`, owned.
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Debug, Clone, PartialEq)]
pub struct ProjectModel {
    /// 9 in every real file.
    pub format_version: u8,
    /// 0 game, 1 movie.
    pub project_type: u8,
    /// The project's name.
    pub name: String,
    /// Entry id of the scene the game starts with.
    pub startup_scene_id: u16,
    /// 5 in every real file.
    pub script_api_version: u16,
    /// 0 MembershipRequest, 1 InviteOnly, 2 Open.
    pub membership_policy: u8,
    /// 1 Spectator, 2 Member, 3 Moderator, 4 Administrator.
    pub default_member_role: u8,
    /// The project's description.
    pub description: String,
    /// The id the next new control gets.
    pub next_control_id: u16,
    /// The game controls.
    pub controls: Vec<ControlSpec>,
    /// The id the next new entry gets.
    pub next_entry_id: u16,
    /// The entries, in file order.
    pub entries: Vec<EntrySpec>,
    /// Bytes written after the last entry (left over from an older save in real files); hex in
    /// JSON.
    #[cfg_attr(feature = "serde", serde(with = "crate::serde_hex"))]
    pub trailing: Vec<u8>,
}

impl ProjectModel {
    /// An empty game project with the values real files have (format 9, script API 5, open to
    /// membership requests, new members as Member).
    pub fn new(name: &str) -> Self {
        ProjectModel {
            format_version: 9,
            project_type: 0,
            name: name.to_string(),
            startup_scene_id: 0,
            script_api_version: 5,
            membership_policy: 0,
            default_member_role: 2,
            description: String::new(),
            next_control_id: 0,
            controls: Vec::new(),
            next_entry_id: 0,
            entries: Vec::new(),
            trailing: Vec::new(),
        }
    }

    /// Copies everything a view holds, trailing bytes included. Fails only with a read error of
    /// the view's iterators (none for a view that opened: it walked every record).
    pub fn from_view(view: &ProjectView<'_>) -> Result<Self> {
        let s = view.settings();
        Ok(ProjectModel {
            format_version: view.format_version(),
            project_type: view.project_type().to_u8(),
            name: view.name().to_string(),
            startup_scene_id: s.startup_scene_id.get(),
            script_api_version: s.script_api_version.get(),
            membership_policy: s.membership_policy,
            default_member_role: s.default_member_role,
            description: view.description().to_string(),
            next_control_id: view.next_control_id(),
            controls: view
                .controls()
                .map(|c| c.map(|c| ControlSpec::from_view(&c)))
                .collect::<Result<_>>()?,
            next_entry_id: view.next_entry_id(),
            entries: view
                .entries()
                .map(|e| e.and_then(|e| EntrySpec::from_view(&e)))
                .collect::<Result<_>>()?,
            trailing: view.trailing_bytes().to_vec(),
        })
    }
}

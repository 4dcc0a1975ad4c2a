//! A CraftStudio `Project.dat` writer: an owned project (header, game controls, entries with
//! revisions, and any trailing bytes) written the way CraftStudio's .NET `BinaryWriter` does.
//! [`ProjectFile::from_view`] copies a view, so read → write reproduces a file byte for byte
//! (CraftStudio writes canonical length prefixes and booleans as 0 or 1; a file with other
//! boolean bytes in its entries or padded length prefixes is normalised). `ProjectFile` is the
//! format's owned model: `gamebin dump --json` prints it (with the `serde` feature).
//!
//! [`ProjectTree`] is the same project as a tree with every value named (what `gamebin dump`
//! prints as text).
//!
//! ```
//! use gamebin::craftstudio::ProjectView;
//! use gamebin::write::craftstudio::{EntrySpec, ProjectFile};
//!
//! let mut project = ProjectFile::new("Demo");
//! project.entries.push(EntrySpec::folder(1, None, "Scripts", 7));
//! project.entries.push(EntrySpec::asset(2, Some(1), "Main", 7));
//! let bytes = project.to_bytes().unwrap();
//! let view = ProjectView::from_bytes(&bytes).unwrap();
//! assert_eq!(view.entry_count(), 2);
//! assert_eq!(ProjectFile::from_view(&view).unwrap().to_bytes().unwrap(), bytes);
//! ```

mod tree;

pub use tree::{
    Control, DanglingSubtree, Header, MAX_DEPTH, Named, ProjectTree, Revision, TrailingBytes,
    TreeEntry,
};

use zerocopy::little_endian::U16;

use crate::craftstudio::netstr;
use crate::craftstudio::raw::{
    AssetHead, ControlSettings, EntryFlags, EntryHead, FileStart, ProjectSettings, TableHead,
};
use crate::craftstudio::{
    ControlRecord, Entry, EntryRecord, GameControl, ProjectView, ROOT_PARENT_ID, RevisionRecord,
};
use crate::error::Result;
use crate::write::sink::{Sink, narrow};

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
pub struct ProjectFile {
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
    #[cfg_attr(feature = "serde", serde(with = "crate::write::serde_hex"))]
    pub trailing: Vec<u8>,
}

impl ProjectFile {
    /// An empty game project with the values real files have (format 9, script API 5, open to
    /// membership requests, new members as Member).
    pub fn new(name: &str) -> Self {
        ProjectFile {
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
        Ok(ProjectFile {
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

    /// The file's bytes, laid out by the reader's raw structs (`craftstudio::raw`). Fails,
    /// naming the structure and field, if a table has more than 65,535 records or a string is
    /// longer than a .NET string's `i32` length can say.
    pub fn to_bytes(&self) -> Result<Vec<u8>> {
        let mut out = Sink::new();
        out.put(&FileStart {
            format_version: self.format_version,
            project_type: self.project_type,
        });
        netstr::write(&mut out, &self.name, "Project.name")?;
        out.put(&ProjectSettings {
            startup_scene_id: self.startup_scene_id.into(),
            script_api_version: self.script_api_version.into(),
            membership_policy: self.membership_policy,
            default_member_role: self.default_member_role,
        });
        netstr::write(&mut out, &self.description, "Project.description")?;
        out.put(&TableHead {
            next_id: self.next_control_id.into(),
            count: count(self.controls.len(), "Project.game_controls")?,
        });
        for c in &self.controls {
            let record = ControlRecord {
                id: c.id,
                name: &c.name,
                settings: &c.settings,
            };
            record.write(&mut out)?;
        }
        out.put(&TableHead {
            next_id: self.next_entry_id.into(),
            count: count(self.entries.len(), "Project.entries")?,
        });
        let mut revisions = Vec::new();
        for e in &self.entries {
            let asset = if e.is_folder {
                None
            } else {
                Some(AssetHead {
                    trashed: e.trashed.into(),
                    next_revision_id: e.next_revision_id.into(),
                    revision_count: count(e.revisions.len(), "ProjectEntry.revisions")?,
                })
            };
            revisions.clear();
            if asset.is_some() {
                revisions.extend(
                    e.revisions
                        .iter()
                        .map(|(id, name)| RevisionRecord { id: *id, name }),
                );
            }
            let record = EntryRecord {
                head: &EntryHead {
                    is_folder: e.is_folder.into(),
                    id: e.id.into(),
                    parent_id: e.parent_id.into(),
                },
                name: &e.name,
                flags: &EntryFlags {
                    entry_type: e.entry_type,
                    locked: e.locked.into(),
                },
                asset: asset.as_ref(),
            };
            record.write(&mut out, &revisions)?;
        }
        out.put(self.trailing.as_slice());
        Ok(out.into_bytes())
    }
}

/// A table's record count as the file's `u16`.
fn count(n: usize, what: &'static str) -> Result<U16> {
    narrow::<u16>(n, what).map(U16::new)
}

/// A small project: a "Jump" control on Space, a "Characters" folder holding the "Player" model.
pub fn example_file() -> Vec<u8> {
    let mut p = ProjectFile::new("Example");
    p.controls.push(ControlSpec::key(0, "Jump", 32));
    p.next_control_id = 1;
    p.entries.push(EntrySpec::folder(0, None, "Characters", 0));
    p.entries
        .push(EntrySpec::asset(1, Some(0), "Player", 0).revision(0, "2014-03-01 12:00:00"));
    p.next_entry_id = 2;
    p.to_bytes().unwrap_or_default()
}

/// Entry types 0–9 (5 is unknown to CraftStudio's wiki but kept as a number).
const ALL_TYPES: [(u8, &str); 10] = [
    (0, "Models"),
    (1, "Maps"),
    (2, "Scenes"),
    (3, "TileSets"),
    (4, "Documents"),
    (5, "Unknown5"),
    (6, "ModelAnimations"),
    (7, "Scripts"),
    (8, "Sounds"),
    (9, "Fonts"),
];

/// The committed fixtures under `fixtures/craftstudio-project/`.
pub fn fixtures() -> Result<Vec<(&'static str, Vec<u8>)>> {
    Ok(vec![
        ("every_type.Project.dat", every_type().to_bytes()?),
        (
            "dangling_parents.Project.dat",
            dangling_parents().to_bytes()?,
        ),
        ("trailing_entries.Project.dat", trailing_entries()?),
        ("long_strings.Project.dat", long_strings().to_bytes()?),
    ])
}

/// A folder and an asset of every entry type (one locked, one trashed, several with revisions),
/// keyboard, mouse and axis controls, and non-ASCII names.
pub fn every_type() -> ProjectFile {
    let mut p = ProjectFile::new("Every type");
    p.description = "Un projet d'essai: é, è, ç".to_string();
    p.startup_scene_id = 21;
    p.membership_policy = 2;
    p.default_member_role = 3;
    p.controls.push(ControlSpec::key(0, "Sauter", 32));
    p.controls.push(ControlSpec::key(1, "Défense", 69));
    let mut zoom = ControlSpec::key(2, "Zoom", 0);
    zoom.settings.control_source = 1;
    zoom.settings.positive_button = 6;
    p.controls.push(zoom);
    let mut horizontal = ControlSpec::key(3, "Horizontal", 39);
    let axis = &mut horizontal.settings;
    axis.control_type = 0;
    axis.negative_key = 37;
    axis.dead_zone = 0.25.into();
    axis.sensitivity = 3.0.into();
    axis.gravity = 3.5.into();
    axis.snap_to_zero = 0;
    p.controls.push(horizontal);
    p.next_control_id = 4;
    for (i, (ty, folder)) in (0u16..).zip(ALL_TYPES) {
        let folder_id = 10 * i;
        p.entries
            .push(EntrySpec::folder(folder_id, None, folder, ty));
        let mut asset = EntrySpec::asset(
            folder_id + 1,
            Some(folder_id),
            &format!("{folder} asset"),
            ty,
        );
        for r in 0..(i % 3) {
            asset = asset.revision(r, &format!("2014-0{}-1{r} 10:2{r}:00", 1 + i % 9));
        }
        asset.locked = i % 4 == 1;
        asset.trashed = i == 7;
        p.entries.push(asset);
    }
    p.entries.push(EntrySpec::folder(2, Some(0), "Héros", 0));
    p.entries
        .push(EntrySpec::asset(3, Some(2), "Épée", 0).revision(0, "2014-05-06 07:08:09"));
    p.next_entry_id = 91;
    p
}

/// Trashed assets whose folders were deleted, and children listed before their parents.
pub fn dangling_parents() -> ProjectFile {
    let mut p = ProjectFile::new("Dangling");
    let mut lost =
        EntrySpec::asset(5, Some(40), "Old script", 7).revision(0, "2013-12-24 18:00:00");
    lost.trashed = true;
    p.entries.push(lost);
    p.entries
        .push(EntrySpec::asset(6, Some(8), "Child before parent", 7));
    p.entries.push(EntrySpec::folder(8, Some(9), "Inner", 7));
    p.entries.push(EntrySpec::folder(9, None, "Outer", 7));
    let mut lost_model = EntrySpec::asset(7, Some(41), "Old model", 0);
    lost_model.trashed = true;
    p.entries.push(lost_model);
    p.next_entry_id = 42;
    p
}

/// Three entries, then the bytes of two more whole entries and one cut mid-name: what an older,
/// longer save leaves behind. A reader must stop after `entry_count`.
pub fn trailing_entries() -> Result<Vec<u8>> {
    let mut p = ProjectFile::new("Trailing");
    p.entries.push(EntrySpec::folder(0, None, "Scripts", 7));
    p.entries
        .push(EntrySpec::asset(1, Some(0), "Game", 7).revision(0, "2014-01-01 00:00:00"));
    p.entries.push(EntrySpec::asset(2, Some(0), "Menu", 7));
    p.next_entry_id = 5;
    let mut older = ProjectFile::new("Trailing");
    older
        .entries
        .push(EntrySpec::asset(3, Some(0), "Removed", 7));
    older.entries.push(EntrySpec::folder(4, None, "Gone", 0));
    let old = older.to_bytes()?;
    // The two old entries sit after the old file's (identical) header and counts.
    let header = ProjectFile::new("Trailing").to_bytes()?.len();
    p.trailing = old.get(header..).unwrap_or_default().to_vec();
    p.trailing
        .extend_from_slice(&[0, 4, 0, 0xff, 0xff, 20, b'C', b'u', b't']);
    p.to_bytes()
}

/// Strings whose lengths take two and three varint bytes (a 200-byte name, a 16,500-byte
/// description, a 300-byte revision name).
pub fn long_strings() -> ProjectFile {
    let mut p = ProjectFile::new(&"N".repeat(200));
    p.description = "Description. ".repeat(1270);
    p.controls.push(ControlSpec::key(0, &"é".repeat(100), 13));
    p.next_control_id = 1;
    p.entries.push(
        EntrySpec::asset(0, None, &"long asset name ".repeat(9), 4).revision(0, &"t".repeat(300)),
    );
    p.next_entry_id = 1;
    p
}

//! CraftStudio `Project.dat`: the project header, its game controls, and the tree of folders and
//! assets (with their saved revisions) that indexes a project folder.
//!
//! Where its parts are: `raw.rs` the fixed fields; this file the view ([`ProjectView`]) and the
//! reader beside it (`control.rs`, `entry.rs`, `index.rs`); `model` the owned project
//! (`model::ProjectModel`, feature `write`) and its tree form; `write.rs` its writer
//! (`to_bytes`, feature `write`); `diff` the comparison by entry path; the fixtures in
//! `synth::craftstudio`.
//!
//! The file is a sequence of variable-length records (.NET length-prefixed strings between fixed
//! fields), so [`ProjectView::from_bytes`] walks it once, checking every length and string, and
//! remembers where the controls, the entries and the trailing bytes start. Afterwards every
//! accessor is infallible and hands out `&'a str` borrowed from the file. Nothing allocates.
//!
//! Real files often carry bytes after the last entry (an older, longer save that was overwritten
//! without truncation; they can even look like entries): `entry_count` is authoritative and the rest
//! is exposed as [`ProjectView::trailing_bytes`], never an error.
//!
//! ```
//! # #[cfg(feature = "write")]
//! # fn main() -> Result<(), gamebin::Error> {
//! # let file = gamebin::synth::craftstudio::example_file();
//! use gamebin::craftstudio::{EntryType, Parent, ProjectView};
//!
//! let project = ProjectView::from_bytes(&file)?;
//! assert_eq!(project.name(), "Example");
//! // Iterators over the file yield `Result`s: a read error is an item, never a silent end.
//! let controls = project.controls().collect::<Result<Vec<_>, _>>()?;
//! let jump = controls.iter().find(|c| c.name() == "Jump").expect("a Jump control");
//! assert_eq!(jump.positive_key().name(), Some("Space"));
//!
//! let mut path = String::new();
//! for entry in project.entries() {
//!     let entry = entry?;
//!     if entry.is_asset() {
//!         project.path_into(&entry, &mut path)?;
//!         println!("{:?} {path}: {} revisions", entry.entry_type(), entry.revision_count());
//!     }
//! }
//! let player = project.entry_by_id(1).expect("an asset");
//! assert_eq!(player.name(), "Player");
//! assert_eq!(player.entry_type(), EntryType::Model);
//! assert!(matches!(project.parent(&player), Parent::Entry(folder) if folder.name() == "Characters"));
//! # Ok(())
//! # }
//! # #[cfg(not(feature = "write"))]
//! # fn main() {}
//! ```

mod control;
#[cfg(all(feature = "write", feature = "serde"))]
pub mod diff;
mod entry;
mod enums;
pub mod folder;
mod index;
mod info;
#[cfg(feature = "write")]
pub mod model;
pub(crate) mod netstr;
pub mod raw;
mod view;
#[cfg(feature = "write")]
mod write;

// The records' one declaration of their layout, for the writer.
#[cfg(feature = "write")]
pub(crate) use control::ControlRecord;
pub use control::{GameControl, GameControls};
pub use entry::{Entries, Entry, Parent, Revision, Revisions};
#[cfg(feature = "write")]
pub(crate) use entry::{EntryRecord, RevisionRecord};
pub use enums::{
    ControlSource, ControlType, EntryType, Key, MemberRole, MembershipPolicy, ProjectType,
    mouse_button_name,
};
pub use index::EntryIndex;
pub use info::ProjectInfo;
use raw::{FORMAT_VERSION, ROOT_PARENT_ID};

use crate::bytes::{Bytes, Cursor, Records, u64_of};
use crate::error::{Error, ErrorKind, Result};
use crate::mmap::MappedFile;
use raw::{FileStart, ProjectSettings, TableHead};

/// A `Project.dat`, borrowed. `Copy`, `Send`, `Sync`; everything it hands out lives as long as the
/// file's bytes (`'a`).
#[derive(Debug, Clone, Copy)]
pub struct ProjectView<'a> {
    bytes: Bytes<'a>,
    start: &'a FileStart,
    name: &'a str,
    settings: &'a ProjectSettings,
    description: &'a str,
    controls_head: &'a TableHead,
    controls_at: usize,
    entries_head: &'a TableHead,
    entries_at: usize,
    trailing_at: usize,
}

/// Where a path written by [`ProjectView::path_into`] starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PathStart {
    /// At the root: the path is complete.
    Root,
    /// Under a parent id that no entry has (a deleted folder): the path starts below it.
    Dangling(u16),
}

impl<'a> ProjectView<'a> {
    /// Opens a `Project.dat` held in memory: reads the header and walks the controls and exactly
    /// `entry_count` entries, checking every length and string. O(file size), no allocation.
    ///
    /// ```
    /// # #[cfg(feature = "write")]
    /// # fn main() -> Result<(), gamebin::Error> {
    /// # let file = gamebin::synth::craftstudio::example_file();
    /// use gamebin::craftstudio::ProjectView;
    ///
    /// let project = ProjectView::from_bytes(&file)?;
    /// assert_eq!(project.name(), "Example");
    /// assert!(project.entries().any(|entry| entry.is_ok_and(|e| e.name() == "Player")));
    /// # Ok(())
    /// # }
    /// # #[cfg(not(feature = "write"))]
    /// # fn main() {}
    /// ```
    pub fn from_bytes(data: &'a [u8]) -> Result<Self> {
        let bytes = Bytes::new(data);
        let start: &FileStart = bytes.read(0, "Project.format_version")?;
        if start.format_version != FORMAT_VERSION {
            return Err(Error::new(
                0,
                "Project.format_version",
                ErrorKind::UnsupportedVersion {
                    found: u64::from(start.format_version),
                },
            ));
        }
        let mut cur = Cursor::new(bytes, core::mem::size_of::<FileStart>());
        let name = netstr::read(&mut cur, "Project.name")?;
        let settings: &ProjectSettings = cur.read("Project.settings")?;
        let description = netstr::read(&mut cur, "Project.description")?;
        let controls_head: &TableHead = cur.read("Project.game_controls")?;
        let controls_at = cur.offset();
        // Bounded: each control consumes at least 24 bytes or fails.
        for _ in 0..controls_head.count.get() {
            GameControl::parse(&mut cur)?;
        }
        let entries_head: &TableHead = cur.read("Project.entries")?;
        let entries_at = cur.offset();
        // Bounded: each entry consumes at least 8 bytes or fails.
        for _ in 0..entries_head.count.get() {
            Entry::read_at(&mut cur)?;
        }
        let at = cur.offset();
        Ok(ProjectView {
            bytes,
            start,
            name,
            settings,
            description,
            controls_head,
            controls_at,
            entries_head,
            entries_at,
            trailing_at: at,
        })
    }

    /// Opens a mapped `Project.dat`. The file must not change while mapped (see [`MappedFile`]).
    pub fn open(file: &'a MappedFile) -> Result<Self> {
        Self::from_bytes(file.bytes())
    }

    /// The file's bytes.
    pub fn as_bytes(&self) -> &'a [u8] {
        self.bytes.as_slice()
    }

    /// 9 in every file this reader opens.
    pub fn format_version(&self) -> u8 {
        self.start.format_version
    }

    /// Game or movie (`project_type`).
    pub fn project_type(&self) -> ProjectType {
        ProjectType::from_u8(self.start.project_type)
    }

    /// The project's name.
    pub fn name(&self) -> &'a str {
        self.name
    }

    /// The stored fields between the name and the description.
    pub fn settings(&self) -> &'a ProjectSettings {
        self.settings
    }

    /// The id of the entry (a Scene) the game starts with.
    pub fn startup_scene_id(&self) -> u16 {
        self.settings.startup_scene_id.get()
    }

    /// 5 in every real file.
    pub fn script_api_version(&self) -> u16 {
        self.settings.script_api_version.get()
    }

    /// Who may join the project.
    pub fn membership_policy(&self) -> MembershipPolicy {
        MembershipPolicy::from_u8(self.settings.membership_policy)
    }

    /// The role a new member gets.
    pub fn default_member_role(&self) -> MemberRole {
        MemberRole::from_u8(self.settings.default_member_role)
    }

    /// The project's description.
    pub fn description(&self) -> &'a str {
        self.description
    }

    /// The id the next new game control would get.
    pub fn next_control_id(&self) -> u16 {
        self.controls_head.next_id.get()
    }

    /// Number of game controls.
    pub fn control_count(&self) -> usize {
        usize::from(self.controls_head.count.get())
    }

    /// The game controls in file order (`Result`s: see [`Records`]).
    ///
    /// ```
    /// # #[cfg(feature = "write")]
    /// # fn main() -> Result<(), gamebin::Error> {
    /// # let file = gamebin::synth::craftstudio::example_file();
    /// use gamebin::craftstudio::ProjectView;
    ///
    /// let project = ProjectView::from_bytes(&file)?;
    /// for control in project.controls() {
    ///     let control = control?;
    ///     println!("{} {:?}: {:?}", control.id(), control.name(), control.positive_key().name());
    /// }
    /// assert_eq!(project.controls().count(), project.control_count());
    /// # Ok(())
    /// # }
    /// # #[cfg(not(feature = "write"))]
    /// # fn main() {}
    /// ```
    pub fn controls(&self) -> GameControls<'a> {
        Records::new(
            Cursor::new(self.bytes, self.controls_at),
            u32::from(self.controls_head.count.get()),
        )
    }

    /// The id the next new entry would get.
    pub fn next_entry_id(&self) -> u16 {
        self.entries_head.next_id.get()
    }

    /// Number of entries (`entry_count`), folders and assets.
    pub fn entry_count(&self) -> usize {
        usize::from(self.entries_head.count.get())
    }

    /// Absolute offset of the first entry.
    pub fn entries_offset(&self) -> usize {
        self.entries_at
    }

    /// The entries in file order (parents need not come before their children); `Result`s (see
    /// [`Records`]).
    ///
    /// ```
    /// # #[cfg(feature = "write")]
    /// # fn main() -> Result<(), gamebin::Error> {
    /// # let file = gamebin::synth::craftstudio::example_file();
    /// use gamebin::craftstudio::ProjectView;
    ///
    /// let project = ProjectView::from_bytes(&file)?;
    /// let mut assets = 0;
    /// for entry in project.entries() {
    ///     let entry = entry?;
    ///     if entry.is_asset() {
    ///         assets += 1;
    ///         println!("{} {:?}: {} revision(s)", entry.id(), entry.name(), entry.revision_count());
    ///     }
    /// }
    /// assert_eq!(assets, 1);
    /// assert_eq!(project.entries().count(), project.entry_count());
    /// # Ok(())
    /// # }
    /// # #[cfg(not(feature = "write"))]
    /// # fn main() {}
    /// ```
    pub fn entries(&self) -> Entries<'a> {
        Records::new(
            Cursor::new(self.bytes, self.entries_at),
            u32::from(self.entries_head.count.get()),
        )
    }

    /// Absolute offset where the trailing bytes start (the end of the last entry).
    pub fn trailing_offset(&self) -> usize {
        self.trailing_at
    }

    /// The unparsed bytes after the last entry: left over from an older, longer save. Normal, not
    /// an error; empty in a freshly written file.
    pub fn trailing_bytes(&self) -> &'a [u8] {
        self.bytes
            .as_slice()
            .get(self.trailing_at..)
            .unwrap_or_default()
    }

    /// The entries the view walked when it opened. Reading the same bytes at the same offsets
    /// again cannot fail, so stopping at an error (there is none) loses nothing: for the
    /// infallible lookups built on the walk.
    pub(crate) fn walked_entries(&self) -> impl Iterator<Item = Entry<'a>> + 'a {
        self.entries().map_while(Result::ok)
    }

    /// The first entry with this id, by a scan of the entries (O(n), no allocation). For many
    /// lookups build an [`EntryIndex`].
    pub fn entry_by_id(&self, id: u16) -> Option<Entry<'a>> {
        self.walked_entries().find(|e| e.id() == id)
    }

    /// Where `entry`'s parent id leads: the root, an entry, or a dangling id.
    pub fn parent(&self, entry: &Entry<'a>) -> Parent<'a> {
        resolve_parent(entry, |id| self.entry_by_id(id))
    }

    /// The entries whose parent id is `parent_id`, in file order (use [`ROOT_PARENT_ID`] for the
    /// root's children). O(n) per call. A read error is yielded, not skipped.
    pub fn children(&self, parent_id: u16) -> impl Iterator<Item = Result<Entry<'a>>> + 'a {
        self.entries()
            .filter(move |e| e.as_ref().map_or(true, |e| e.parent_id() == parent_id))
    }

    /// Entries whose parent id is neither the root nor any entry's id (O(n²) scans; an
    /// [`EntryIndex`] does it in O(n log n)). A read error is yielded, not skipped.
    pub fn dangling(&self) -> impl Iterator<Item = Result<Entry<'a>>> + 'a {
        let view = *self;
        self.entries().filter(move |e| {
            e.as_ref()
                .map_or(true, |e| matches!(view.parent(e), Parent::Dangling(_)))
        })
    }

    /// Writes `entry`'s path from the root, names joined by `/` (`"Characters/Hero/Player"`), into
    /// `out` (cleared first; no allocation when its capacity suffices). A loop in the parent chain
    /// is an error at the entry's offset.
    ///
    /// ```
    /// # #[cfg(feature = "write")]
    /// # fn main() -> Result<(), gamebin::Error> {
    /// # let file = gamebin::synth::craftstudio::example_file();
    /// use gamebin::craftstudio::{PathStart, ProjectView};
    ///
    /// let project = ProjectView::from_bytes(&file)?;
    /// let player = project.entry_by_id(1).expect("entry 1");
    /// let mut path = String::new();
    /// assert_eq!(project.path_into(&player, &mut path)?, PathStart::Root);
    /// assert_eq!(path, "Characters/Player");
    /// # Ok(())
    /// # }
    /// # #[cfg(not(feature = "write"))]
    /// # fn main() {}
    /// ```
    pub fn path_into(&self, entry: &Entry<'a>, out: &mut String) -> Result<PathStart> {
        path_into(entry, self.entry_count(), out, |id| self.entry_by_id(id))
    }

    /// Builds an [`EntryIndex`] for O(log n) lookups, children and paths.
    ///
    /// ```
    /// # #[cfg(feature = "write")]
    /// # fn main() -> Result<(), gamebin::Error> {
    /// # let file = gamebin::synth::craftstudio::example_file();
    /// use gamebin::craftstudio::ProjectView;
    /// use gamebin::craftstudio::raw::ROOT_PARENT_ID;
    ///
    /// let project = ProjectView::from_bytes(&file)?;
    /// let index = project.index(); // two allocations, then O(log n) per lookup
    /// for top in index.children(ROOT_PARENT_ID) {
    ///     let top = top?;
    ///     for child in index.children(top.id()) {
    ///         println!("{}", index.display_path(&child?));
    ///     }
    /// }
    /// assert_eq!(index.get(0).map(|e| e.name()), Some("Characters"));
    /// # Ok(())
    /// # }
    /// # #[cfg(not(feature = "write"))]
    /// # fn main() {}
    /// ```
    pub fn index(&self) -> EntryIndex<'a> {
        EntryIndex::new(*self)
    }

    /// Checks everything the view does not check on open: that every parent chain ends (at the root
    /// or at a dangling id) without looping. For tools and tests; it allocates an [`EntryIndex`]
    /// and a path buffer.
    pub fn validate(&self) -> Result<()> {
        let index = self.index();
        let mut scratch = String::new();
        for entry in self.entries() {
            index.path_into(&entry?, &mut scratch)?;
        }
        Ok(())
    }
}

/// Where `entry`'s parent id leads, using `lookup` to find entries by id.
pub(crate) fn resolve_parent<'a>(
    entry: &Entry<'a>,
    lookup: impl Fn(u16) -> Option<Entry<'a>>,
) -> Parent<'a> {
    let id = entry.parent_id();
    if id == ROOT_PARENT_ID {
        return Parent::Root;
    }
    match lookup(id) {
        Some(parent) => Parent::Entry(parent),
        None => Parent::Dangling(id),
    }
}

/// The path of `entry` into `out`, climbing at most `limit` parents.
pub(crate) fn path_into<'a>(
    entry: &Entry<'a>,
    limit: usize,
    out: &mut String,
    lookup: impl Fn(u16) -> Option<Entry<'a>>,
) -> Result<PathStart> {
    out.clear();
    out.push_str(entry.name());
    let mut current = *entry;
    for _ in 0..=limit {
        match resolve_parent(&current, &lookup) {
            Parent::Root => return Ok(PathStart::Root),
            Parent::Dangling(id) => return Ok(PathStart::Dangling(id)),
            Parent::Entry(parent) => {
                out.insert(0, '/');
                out.insert_str(0, parent.name());
                current = parent;
            }
        }
    }
    Err(Error::invalid(
        u64_of(entry.offset()),
        "ProjectEntry.parent_id",
        u64::from(entry.parent_id()),
        "the chain of parents loops",
    ))
}

/// Whether `data` looks like a `Project.dat`. There is no magic and other programs use the name,
/// so: format version 9, project type 0 or 1, a valid name, a known membership policy and member
/// role, and then the whole file must walk (controls and `entry_count` entries).
pub(crate) fn looks_like(data: &[u8]) -> bool {
    let Ok(view) = ProjectView::from_bytes(data) else {
        return false;
    };
    matches!(view.start.project_type, 0 | 1)
        && view.settings.membership_policy <= 2
        && (1..=4).contains(&view.settings.default_member_role)
}

/// Whether the first bytes of `data` read like a `Project.dat` header (the checks of
/// `looks_like` short of walking the tables): lets a caller that knows the file is named
/// `Project.dat` show the reader's error for a damaged one.
pub fn header_looks_like(data: &[u8]) -> bool {
    let bytes = Bytes::new(data);
    let Ok(start) = bytes.read::<FileStart>(0, "") else {
        return false;
    };
    if start.format_version != FORMAT_VERSION || start.project_type > 1 {
        return false;
    }
    let mut cur = Cursor::new(bytes, core::mem::size_of::<FileStart>());
    match netstr::read(&mut cur, "") {
        Ok(_) => cur
            .read::<ProjectSettings>("")
            .is_ok_and(|s| s.membership_policy <= 2 && (1..=4).contains(&s.default_member_role)),
        // A name cut off by the end of the file still says "a project header starts here".
        Err(e) => matches!(e.kind(), ErrorKind::Truncated { .. }),
    }
}

//! Project entries (folders and assets) and the revisions of an asset.

use super::enums::EntryType;
use super::netstr;
use super::raw::{AssetHead, EntryFlags, EntryHead, ROOT_PARENT_ID};
use super::sequence::{Record, Sequence};
use crate::bytes::Bytes;
use crate::error::Result;

/// One project entry, a folder or an asset, borrowed from the file.
#[derive(Debug, Clone, Copy)]
pub struct Entry<'a> {
    bytes: Bytes<'a>,
    at: usize,
    head: &'a EntryHead,
    name: &'a str,
    flags: &'a EntryFlags,
    /// Assets only: the asset fields and the offset of the first revision.
    asset: Option<(&'a AssetHead, usize)>,
    end: usize,
}

/// Where an entry's parent id leads.
#[derive(Debug, Clone, Copy)]
pub enum Parent<'a> {
    /// The entry is at the root (parent id 0xFFFF).
    Root,
    /// The parent entry.
    Entry(Entry<'a>),
    /// No entry has this id: the parent folder was deleted (real files have trashed entries
    /// whose folder is gone). Reported, not an error.
    Dangling(u16),
}

impl<'a> Entry<'a> {
    /// Reads the entry at `at`, walking (and checking) its revisions to find where it ends.
    pub(crate) fn parse(bytes: Bytes<'a>, at: usize) -> Result<Self> {
        let head: &EntryHead = bytes.read(at, "ProjectEntry.head")?;
        let (name, after_name) = netstr::read(
            bytes,
            at.saturating_add(core::mem::size_of::<EntryHead>()),
            "ProjectEntry.name",
        )?;
        let flags: &EntryFlags = bytes.read(after_name, "ProjectEntry.flags")?;
        let after_flags = after_name.saturating_add(core::mem::size_of::<EntryFlags>());
        let (asset, end) = if head.is_folder != 0 {
            (None, after_flags)
        } else {
            let asset: &AssetHead = bytes.read(after_flags, "ProjectEntry.asset")?;
            let revisions_at = after_flags.saturating_add(core::mem::size_of::<AssetHead>());
            let mut end = revisions_at;
            // Bounded: each revision consumes at least 3 bytes or fails.
            for _ in 0..asset.revision_count.get() {
                end = Revision::parse(bytes, end)?.1;
            }
            (Some((asset, revisions_at)), end)
        };
        Ok(Entry {
            bytes,
            at,
            head,
            name,
            flags,
            asset,
            end,
        })
    }

    /// Absolute offset of the entry in the file.
    pub fn offset(&self) -> usize {
        self.at
    }

    /// Absolute offset just past the entry (and its revisions).
    pub fn end(&self) -> usize {
        self.end
    }

    /// The entry's id (`Assets/<Kind>/<id>` for an asset).
    pub fn id(&self) -> u16 {
        self.head.id.get()
    }

    /// The stored parent id (0xFFFF at the root); resolve it with
    /// [`ProjectView::parent`](super::ProjectView::parent).
    pub fn parent_id(&self) -> u16 {
        self.head.parent_id.get()
    }

    /// Whether the entry sits at the root of its tree.
    pub fn is_root(&self) -> bool {
        self.parent_id() == ROOT_PARENT_ID
    }

    /// Whether the entry is a folder.
    pub fn is_folder(&self) -> bool {
        self.head.is_folder != 0
    }

    /// Whether the entry is an asset (not a folder).
    pub fn is_asset(&self) -> bool {
        !self.is_folder()
    }

    /// The entry's name (UTF-8; non-ASCII names occur).
    pub fn name(&self) -> &'a str {
        self.name
    }

    /// The asset type (a folder's type says which tree it belongs to).
    pub fn entry_type(&self) -> EntryType {
        EntryType::from_u8(self.flags.entry_type)
    }

    /// Whether the entry is locked against editing.
    pub fn is_locked(&self) -> bool {
        self.flags.locked != 0
    }

    /// Whether the asset is in the trash (folders are never trashed).
    pub fn is_trashed(&self) -> bool {
        self.asset.is_some_and(|(a, _)| a.trashed != 0)
    }

    /// The stored asset fields, `None` for a folder.
    pub fn asset_head(&self) -> Option<&'a AssetHead> {
        self.asset.map(|(a, _)| a)
    }

    /// The id the asset's next revision would get, `None` for a folder.
    pub fn next_revision_id(&self) -> Option<u16> {
        self.asset.map(|(a, _)| a.next_revision_id.get())
    }

    /// Number of revisions (0 for a folder).
    pub fn revision_count(&self) -> usize {
        self.asset
            .map_or(0, |(a, _)| usize::from(a.revision_count.get()))
    }

    /// The asset's saved revisions, oldest first (none for a folder).
    pub fn revisions(&self) -> Revisions<'a> {
        match self.asset {
            Some((a, at)) => Sequence::new(self.bytes, at, a.revision_count.get()),
            None => Sequence::new(self.bytes, self.end, 0),
        }
    }
}

/// A saved revision of an asset: its id (the file `Assets/<Kind>/<entry id>/<revision id>.<ext>`)
/// and its name, a "YYYY-MM-DD HH:MM:SS" timestamp in real files.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Revision<'a> {
    /// File offset of the revision record.
    pub offset: usize,
    /// The revision id (its file is `<revision id>.<ext>`).
    pub id: u16,
    /// The revision's name ("YYYY-MM-DD HH:MM:SS" in real files).
    pub name: &'a str,
}

impl<'a> Revision<'a> {
    fn parse(bytes: Bytes<'a>, at: usize) -> Result<(Self, usize)> {
        let id = bytes.read::<zerocopy::little_endian::U16>(at, "AssetRevision.id")?;
        let (name, end) = netstr::read(bytes, at.saturating_add(2), "AssetRevision.name")?;
        Ok((
            Revision {
                offset: at,
                id: id.get(),
                name,
            },
            end,
        ))
    }
}

/// The revisions of an asset, in file order.
pub type Revisions<'a> = Sequence<'a, Revision<'a>>;

impl<'a> Record<'a> for Revision<'a> {
    fn read(bytes: Bytes<'a>, at: usize) -> Result<(Self, usize)> {
        Revision::parse(bytes, at)
    }
}

/// The project entries in file order: exactly `entry_count` of them (checked when the view
/// opened).
pub type Entries<'a> = Sequence<'a, Entry<'a>>;

impl<'a> Record<'a> for Entry<'a> {
    fn read(bytes: Bytes<'a>, at: usize) -> Result<(Self, usize)> {
        let entry = Entry::parse(bytes, at)?;
        Ok((entry, entry.end))
    }
}

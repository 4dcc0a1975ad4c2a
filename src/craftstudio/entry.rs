//! Project entries (folders and assets) and the revisions of an asset.

use super::enums::EntryType;
use super::netstr;
use super::raw::{AssetHead, EntryFlags, EntryHead, ROOT_PARENT_ID};
#[cfg(feature = "write")]
use crate::bytes::sink::Sink;
use crate::bytes::{Bytes, Cursor, Place, Record, Records};
use crate::error::Result;
#[cfg(feature = "write")]
use zerocopy::little_endian::U16;

/// A project entry's parts in file order, up to its revisions: the one declaration of its layout.
/// [`EntryRecord::read`] fills every part and [`EntryRecord::write`] destructures every part,
/// side by side, so a part added here cannot be missed by the reader or the writer. An asset's
/// revisions ([`RevisionRecord`]s, `asset.revision_count` of them) follow.
#[derive(Debug, Clone, Copy)]
pub(crate) struct EntryRecord<'a> {
    pub(crate) head: &'a EntryHead,
    pub(crate) name: &'a str,
    pub(crate) flags: &'a EntryFlags,
    /// Assets only (`head.is_folder == 0`); a folder's record ends after its flags.
    pub(crate) asset: Option<&'a AssetHead>,
}

impl<'a> EntryRecord<'a> {
    /// Reads the entry at the cursor up to its revisions, and moves the cursor to where the
    /// revisions start (the next entry, for a folder).
    #[inline]
    pub(crate) fn read(cur: &mut Cursor<'a>) -> Result<Self> {
        let head: &EntryHead = cur.read("ProjectEntry.head")?;
        let name = netstr::read(cur, "ProjectEntry.name")?;
        let flags: &EntryFlags = cur.read("ProjectEntry.flags")?;
        let asset = if head.is_folder != 0 {
            None
        } else {
            Some(cur.read::<AssetHead>("ProjectEntry.asset")?)
        };
        Ok(EntryRecord {
            head,
            name,
            flags,
            asset,
        })
    }

    /// Appends the entry as [`read`](Self::read) reads it, then `revisions` (which must be
    /// `asset.revision_count` of them, and none for a folder).
    #[cfg(feature = "write")]
    pub(crate) fn write(
        &self,
        out: &mut Sink,
        revisions: &[RevisionRecord<'_>],
    ) -> crate::write_error::WriteResult<()> {
        let EntryRecord {
            head,
            name,
            flags,
            asset,
        } = *self;
        let stored = asset.map_or(0, |a| usize::from(a.revision_count.get()));
        if (head.is_folder != 0) != asset.is_none() || stored != revisions.len() {
            return Err(crate::bytes::sink::invalid(
                "ProjectEntry.asset",
                crate::bytes::u64_of(revisions.len()),
                "an asset (and only an asset) has the asset fields, with its revision count",
            ));
        }
        out.put(head);
        netstr::write(out, name, "ProjectEntry.name")?;
        out.put(flags);
        if let Some(asset) = asset {
            out.put(asset);
        }
        for revision in revisions {
            revision.write(out)?;
        }
        Ok(())
    }
}

/// One project entry, a folder or an asset, borrowed from the file.
#[derive(Debug, Clone, Copy)]
pub struct Entry<'a> {
    bytes: Bytes<'a>,
    at: usize,
    record: EntryRecord<'a>,
    /// Offset of the first revision (the end, for a folder).
    revisions_at: usize,
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
    #[inline]
    pub(crate) fn parse(bytes: Bytes<'a>, at: usize) -> Result<Self> {
        Entry::read_at(&mut Cursor::new(bytes, at))
    }

    /// Reads the entry at the cursor, walking (and checking) its revisions, and moves the cursor
    /// past them.
    #[inline]
    pub(crate) fn read_at(cur: &mut Cursor<'a>) -> Result<Self> {
        let at = cur.offset();
        let record = EntryRecord::read(cur)?;
        let revisions_at = cur.offset();
        // Bounded: each revision consumes at least 3 bytes or fails.
        for _ in 0..record.asset.map_or(0, |a| a.revision_count.get()) {
            RevisionRecord::read(cur)?;
        }
        Ok(Entry {
            bytes: cur.bytes(),
            at,
            record,
            revisions_at,
            end: cur.offset(),
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
        self.record.head.id.get()
    }

    /// The stored parent id (0xFFFF at the root); resolve it with
    /// [`ProjectView::parent`](super::ProjectView::parent).
    pub fn parent_id(&self) -> u16 {
        self.record.head.parent_id.get()
    }

    /// Whether the entry sits at the root of its tree.
    pub fn is_root(&self) -> bool {
        self.parent_id() == ROOT_PARENT_ID
    }

    /// Whether the entry is a folder.
    pub fn is_folder(&self) -> bool {
        self.record.head.is_folder != 0
    }

    /// Whether the entry is an asset (not a folder).
    pub fn is_asset(&self) -> bool {
        !self.is_folder()
    }

    /// The entry's name (UTF-8; non-ASCII names occur).
    pub fn name(&self) -> &'a str {
        self.record.name
    }

    /// The asset type (a folder's type says which tree it belongs to).
    pub fn entry_type(&self) -> EntryType {
        EntryType::from_u8(self.record.flags.entry_type)
    }

    /// Whether the entry is locked against editing.
    pub fn is_locked(&self) -> bool {
        self.record.flags.locked != 0
    }

    /// Whether the asset is in the trash (folders are never trashed).
    pub fn is_trashed(&self) -> bool {
        self.record.asset.is_some_and(|a| a.trashed != 0)
    }

    /// The stored asset fields, `None` for a folder.
    pub fn asset_head(&self) -> Option<&'a AssetHead> {
        self.record.asset
    }

    /// The id the asset's next revision would get, `None` for a folder.
    pub fn next_revision_id(&self) -> Option<u16> {
        self.record.asset.map(|a| a.next_revision_id.get())
    }

    /// Number of revisions (0 for a folder).
    pub fn revision_count(&self) -> usize {
        self.record
            .asset
            .map_or(0, |a| usize::from(a.revision_count.get()))
    }

    /// The asset's saved revisions, oldest first (none for a folder).
    pub fn revisions(&self) -> Revisions<'a> {
        let count = self.record.asset.map_or(0, |a| a.revision_count.get());
        Records::new(Cursor::new(self.bytes, self.revisions_at), u32::from(count))
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

/// A revision's parts in file order (id, name): the one declaration of its layout, read and
/// written side by side.
#[derive(Debug, Clone, Copy)]
pub(crate) struct RevisionRecord<'a> {
    pub(crate) id: u16,
    pub(crate) name: &'a str,
}

impl<'a> RevisionRecord<'a> {
    /// Reads the revision at the cursor and moves the cursor past it.
    #[inline]
    pub(crate) fn read(cur: &mut Cursor<'a>) -> Result<Self> {
        Ok(RevisionRecord {
            id: cur.u16_le("AssetRevision.id")?,
            name: netstr::read(cur, "AssetRevision.name")?,
        })
    }

    /// Appends the revision as [`read`](Self::read) reads it.
    #[cfg(feature = "write")]
    pub(crate) fn write(&self, out: &mut Sink) -> crate::write_error::WriteResult<()> {
        let RevisionRecord { id, name } = *self;
        out.put(&U16::new(id));
        netstr::write(out, name, "AssetRevision.name")
    }
}

/// The revisions of an asset, in file order.
pub type Revisions<'a> = Records<'a, Revision<'a>>;

impl<'a> Record<'a> for Revision<'a> {
    type Context = ();
    /// The id and a one-byte name length.
    const MIN_SIZE: usize = 2 + 1;

    #[inline]
    fn read(cur: &mut Cursor<'a>, (): (), _: Place) -> Result<Self> {
        let offset = cur.offset();
        let RevisionRecord { id, name } = RevisionRecord::read(cur)?;
        Ok(Revision { offset, id, name })
    }
}

/// The project entries in file order: exactly `entry_count` of them (checked when the view
/// opened).
pub type Entries<'a> = Records<'a, Entry<'a>>;

impl<'a> Record<'a> for Entry<'a> {
    type Context = ();
    /// A folder: the head, a one-byte name length and the flags.
    const MIN_SIZE: usize =
        core::mem::size_of::<EntryHead>() + 1 + core::mem::size_of::<EntryFlags>();

    #[inline]
    fn read(cur: &mut Cursor<'a>, (): (), _: Place) -> Result<Self> {
        Entry::read_at(cur)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_revision_that_does_not_read_is_an_item_and_the_last() {
        // Two revisions claimed, one whole (id 7, name "ab"), the second cut after its id.
        let data = [7, 0, 2, b'a', b'b', 8, 0];
        let mut revisions = Revisions::new(Cursor::new(Bytes::new(&data), 0), 2);
        let first = revisions.next().unwrap().unwrap();
        assert_eq!((first.id, first.name, first.offset), (7, "ab", 0));
        let e = revisions.next().unwrap().unwrap_err();
        assert_eq!(e.what(), "AssetRevision.name");
        assert_eq!(e.offset(), 7);
        assert!(revisions.next().is_none());
        // A count beyond the records gives one error, not as many as the count.
        let mut many = Revisions::new(Cursor::new(Bytes::new(&data), 0), 60_000);
        assert_eq!(many.by_ref().filter(Result::is_err).count(), 1);
    }
}

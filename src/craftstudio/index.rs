//! An index of a project's entries by id and by parent id, for walking the whole tree.
//!
//! The view itself finds an entry by id with a scan (no allocation); a tool that resolves every
//! parent, lists every folder's children or prints every path would make that O(n²). The index
//! costs exactly two allocations (two arrays of `entry_count` pairs) and makes each of those
//! O(log n).

use super::entry::{Entry, Parent};
use super::{PathStart, ProjectView};
use crate::error::Result;

/// Entries sorted by id and by parent id. Built by [`ProjectView::index`].
#[derive(Debug, Clone)]
pub struct EntryIndex<'a> {
    view: ProjectView<'a>,
    /// (id, offset), sorted by id; entries with the same id keep file order.
    by_id: Vec<(u16, usize)>,
    /// (parent id, offset), sorted by parent id; siblings keep file order.
    by_parent: Vec<(u16, usize)>,
}

impl<'a> EntryIndex<'a> {
    pub(crate) fn new(view: ProjectView<'a>) -> Self {
        let mut by_id = Vec::with_capacity(view.entry_count());
        let mut by_parent = Vec::with_capacity(view.entry_count());
        for entry in view.walked_entries() {
            by_id.push((entry.id(), entry.offset()));
            by_parent.push((entry.parent_id(), entry.offset()));
        }
        // Sorting whole (key, offset) pairs keeps file order among equal keys (offsets are
        // unique), as a stable sort would, without the scratch allocation of a stable sort.
        by_id.sort_unstable();
        by_parent.sort_unstable();
        EntryIndex {
            view,
            by_id,
            by_parent,
        }
    }

    /// The view the index was built from.
    pub fn view(&self) -> &ProjectView<'a> {
        &self.view
    }

    fn entry_at(&self, offset: usize) -> Option<Entry<'a>> {
        Entry::parse(self.view.bytes, offset).ok()
    }

    /// The first entry (in file order) with this id. O(log n).
    pub fn get(&self, id: u16) -> Option<Entry<'a>> {
        let i = self.by_id.partition_point(|&(k, _)| k < id);
        match self.by_id.get(i) {
            Some(&(k, offset)) if k == id => self.entry_at(offset),
            _ => None,
        }
    }

    /// Where `entry`'s parent id leads.
    pub fn parent(&self, entry: &Entry<'a>) -> Parent<'a> {
        super::resolve_parent(entry, |id| self.get(id))
    }

    /// The entries whose parent id is `parent_id`, in file order. O(log n) to find them. Each is
    /// read again at its offset: a `Result`, as every iterator over file data yields.
    pub fn children(&self, parent_id: u16) -> impl Iterator<Item = Result<Entry<'a>>> + '_ {
        let start = self.by_parent.partition_point(|&(k, _)| k < parent_id);
        let end = self.by_parent.partition_point(|&(k, _)| k <= parent_id);
        self.by_parent
            .get(start..end)
            .unwrap_or_default()
            .iter()
            .map(move |&(_, offset)| Entry::parse(self.view.bytes, offset))
    }

    /// Entries whose parent is neither the root nor an entry: their folder was deleted. A read
    /// error is yielded, not skipped.
    pub fn dangling(&self) -> impl Iterator<Item = Result<Entry<'a>>> + '_ {
        self.view.entries().filter(move |e| {
            e.as_ref()
                .map_or(true, |e| matches!(self.parent(e), Parent::Dangling(_)))
        })
    }

    /// `entry`'s path from the root (see [`ProjectView::path_into`]), with O(log n) lookups.
    pub fn path_into(&self, entry: &Entry<'a>, out: &mut String) -> Result<PathStart> {
        super::path_into(entry, self.view.entry_count(), out, |id| self.get(id))
    }

    /// `entry`'s path for messages and listings: the path from the root
    /// (`"Characters/Player"`); below `<missing folder ID>/` when the chain of parents ends at a
    /// deleted folder; `<loop>/NAME` when the chain loops. Allocates the string.
    ///
    /// ```
    /// # #[cfg(feature = "write")]
    /// # fn main() -> Result<(), gamebin::Error> {
    /// # let file = gamebin::synth::craftstudio::example_file();
    /// use gamebin::craftstudio::ProjectView;
    ///
    /// let project = ProjectView::from_bytes(&file)?;
    /// let index = project.index();
    /// let player = project.entry_by_id(1).expect("entry 1");
    /// assert_eq!(index.display_path(&player), "Characters/Player");
    /// # Ok(())
    /// # }
    /// # #[cfg(not(feature = "write"))]
    /// # fn main() {}
    /// ```
    pub fn display_path(&self, entry: &Entry<'a>) -> String {
        let mut path = String::new();
        match self.path_into(entry, &mut path) {
            Ok(PathStart::Root) => path,
            Ok(PathStart::Dangling(id)) => format!("<missing folder {id}>/{path}"),
            Err(_) => format!("<loop>/{}", entry.name()),
        }
    }
}

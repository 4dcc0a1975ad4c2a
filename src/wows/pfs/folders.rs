//! The install's folders, each once: its name, copied, and where its parent is in the same table.
//!
//! A lookup compares every segment of a path with a name of the install, so that a hash collision
//! can never return another file. Read from the indexes, each folder above a file costs a probe of
//! the id table, a name record and its name's bytes: three memory reads that depend on each other,
//! each a cache miss at a real install's size. A real install has about 17 files a folder, so
//! the folders' names are a small part of its names (about a byte of this table per name of the
//! install): kept here, next to each other, they stay in the processor's cache, and a path's
//! folders are checked without touching the indexes.

use super::path::same_segment;

/// The parent of a folder at the top of the install.
pub(super) const ROOT: u32 = u32::MAX;

/// The parent of a folder whose record does not read, or whose parent id is not a folder of
/// the table: such a folder is checked against the indexes as before, where the lookup finds the
/// reason (or the name) itself.
pub(super) const UNKNOWN: u32 = u32::MAX - 1;

/// How a path's folders compared with the table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum FolderWalk {
    /// Every segment matched a folder, up to the root.
    Matches,
    /// A segment differs from its folder's name, or the path and the folders reach the root at
    /// different depths.
    Differs,
    /// A segment shows the path is not in normal form (empty, `.`, or a top `res`).
    NotNormal,
    /// A folder on the way is [`UNKNOWN`]: ask the indexes.
    Unknown,
}

/// Every folder: `(parent position, where its name starts in names)`, with one more entry whose
/// start is the end of the last name.
#[derive(Debug, Default)]
pub(super) struct Folders {
    entries: Vec<[u32; 2]>,
    names: Vec<u8>,
}

impl Folders {
    /// An empty table with room for `count` folders.
    pub fn with_capacity(count: usize) -> Folders {
        Folders {
            entries: Vec::with_capacity(count + 1),
            names: Vec::new(),
        }
    }

    /// Adds the next folder: its name and its parent's position ([`ROOT`], [`UNKNOWN`], or a
    /// position given to an earlier or later [`Folders::push`]). A table whose names outgrow
    /// 4 GB keeps the folder as [`UNKNOWN`] with no name.
    pub fn push(&mut self, name: &[u8], parent: u32) {
        let start = self.names.len();
        let fits = u32::try_from(start + name.len()).is_ok();
        if fits {
            self.names.extend_from_slice(name);
        }
        let parent = if fits { parent } else { UNKNOWN };
        self.entries.push([parent, start as u32]);
    }

    /// Closes the table after the last [`Folders::push`].
    pub fn finish(&mut self) {
        self.entries.push([UNKNOWN, self.names.len() as u32]);
        self.entries.shrink_to_fit();
        self.names.shrink_to_fit();
    }

    /// Folder `at`: its name and its parent's position.
    #[inline]
    pub fn get(&self, at: u32) -> Option<(&[u8], u32)> {
        let at = at as usize;
        let [parent, start] = *self.entries.get(at)?;
        let [_, end] = *self.entries.get(at + 1)?;
        Some((self.names.get(start as usize..end as usize)?, parent))
    }

    /// Compares the folder at `at` and its parents with `path`'s segments before `end`, from the
    /// last up; `slashes` are where the `/`s before `end` are. Each step takes a segment off
    /// the path, so a cycle of parents ends with the path.
    pub fn walk(&self, mut at: u32, path: &[u8], slashes: &[usize], mut end: usize) -> FolderWalk {
        let mut slashes = slashes.iter().rev();
        loop {
            let slash = slashes.next();
            let start = slash.map_or(0, |&s| s + 1);
            let segment = path.get(start..end).unwrap_or_default();
            if matches!(segment, b"" | b".") {
                return FolderWalk::NotNormal;
            }
            let Some((name, parent)) = self.get(at) else {
                return FolderWalk::Unknown;
            };
            if parent == UNKNOWN {
                return FolderWalk::Unknown;
            }
            if !same_segment(name, segment) {
                return FolderWalk::Differs;
            }
            match slash {
                // A folder is never a path's last segment: a top `res` has more below it.
                None if segment == b"res" => return FolderWalk::NotNormal,
                None if parent == ROOT => return FolderWalk::Matches,
                Some(&s) if parent != ROOT => {
                    at = parent;
                    end = s;
                }
                _ => return FolderWalk::Differs,
            }
        }
    }

    /// Heap bytes held.
    pub fn heap_bytes(&self) -> usize {
        self.entries.capacity() * size_of::<[u32; 2]>() + self.names.capacity()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// content (0) / gameplay (1) / ships (2); res (3) / x (4); a folder whose parent is unknown
    /// (5); a folder that is its own parent (6).
    fn table() -> Folders {
        let mut f = Folders::with_capacity(7);
        f.push(b"content", ROOT);
        f.push(b"gameplay", 0);
        f.push(b"ships", 1);
        f.push(b"res", ROOT);
        f.push(b"x", 3);
        f.push(b"lost", UNKNOWN);
        f.push(b"loop", 6);
        f.finish();
        f
    }

    fn walk(f: &Folders, at: u32, folders: &str) -> FolderWalk {
        let path = format!("{folders}/leaf");
        let slashes: Vec<usize> = (0..path.len())
            .filter(|&i| path.as_bytes()[i] == b'/')
            .collect();
        let (&end, above) = slashes.split_last().unwrap();
        f.walk(at, path.as_bytes(), above, end)
    }

    #[test]
    fn a_path_matches_its_folders_and_nothing_else() {
        let f = table();
        assert_eq!(f.get(2), Some((&b"ships"[..], 1)));
        assert_eq!(f.get(7), None);
        assert_eq!(walk(&f, 2, "content/gameplay/ships"), FolderWalk::Matches);
        assert_eq!(walk(&f, 0, "content"), FolderWalk::Matches);
        // A name differs, the path is deeper or shallower than the folders.
        assert_eq!(walk(&f, 2, "content/gameplay/ship"), FolderWalk::Differs);
        assert_eq!(walk(&f, 2, "content/gameplai/ships"), FolderWalk::Differs);
        assert_eq!(walk(&f, 2, "x/content/gameplay/ships"), FolderWalk::Differs);
        assert_eq!(walk(&f, 2, "gameplay/ships"), FolderWalk::Differs);
        // Not normal: an empty or `.` segment, a top `res`.
        assert_eq!(walk(&f, 2, "content//ships"), FolderWalk::NotNormal);
        assert_eq!(walk(&f, 2, "./gameplay/ships"), FolderWalk::NotNormal);
        assert_eq!(walk(&f, 4, "res/x"), FolderWalk::NotNormal);
        // Unknown parents and positions go back to the indexes.
        assert_eq!(walk(&f, 5, "a/lost"), FolderWalk::Unknown);
        assert_eq!(walk(&f, 9, "content"), FolderWalk::Unknown);
        // A cycle ends with the path.
        assert_eq!(walk(&f, 6, "loop/loop/loop/loop"), FolderWalk::Differs);
    }
}

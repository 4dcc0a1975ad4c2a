//! Lazily typed runs of records. A run was walked and checked when the view opened, so its
//! iterator yields exactly its count of `Ok` records; should a read fail anyway, the iterator yields
//! that error once and then ends, as every iterator over file data does (it never ends silently).

use core::marker::PhantomData;

use super::Versions;
use super::cursor::WdataCursor as _;
use super::step::StepOver;
use super::wstr::WStr;
use crate::bytes::{Cursor, Place};
use crate::error::Result;

/// A `.wdata` record reads with the file's versions ([`Versions`], its [`Record::Context`]); a
/// scene path's blend time depends on whether it is the last of its run ([`Place::last`]).
pub use crate::bytes::{Record, Records};

/// Reads and discards `count` records; returns where the run ends.
pub(crate) fn walk<'a, R: Record<'a, Context = Versions>>(
    cur: &mut Cursor<'a>,
    versions: Versions,
    count: u32,
) -> Result<()> {
    for index in 0..count {
        let last = index + 1 == count;
        R::read(cur, versions, Place { index, last })?;
    }
    Ok(())
}

/// One item of a name list: an optional `u32` category (or id) and a name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Named<'a> {
    /// The category or id stored before the name, when the list stores one.
    pub category: Option<u32>,
    /// The name or key.
    pub name: WStr<'a>,
}

/// A counted list of names, each optionally preceded by a `u32` category: a trigger's events, a
/// camera's render lists, a scene's entries. Walked and checked at open; iterated lazily.
#[derive(Debug, Clone, Copy)]
pub struct NameList<'a> {
    cur: Cursor<'a>,
    count: u32,
    keyed: bool,
}

/// Two lists are equal when their items are (wherever they are stored).
impl PartialEq for NameList<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.iter().eq(other.iter())
    }
}

impl<'a> NameList<'a> {
    /// Reads (checks) a list of `count` items at the cursor and advances past it.
    #[inline(always)]
    pub(crate) fn read(
        cur: &mut Cursor<'a>,
        count: u32,
        keyed: bool,
        what: &'static str,
    ) -> Result<Self> {
        let start = *cur;
        let min = if keyed { 6 } else { 2 };
        super::cursor::check_fits(cur.offset(), what, count, min, cur.remaining())?;
        for _ in 0..count {
            if keyed {
                cur.u32_le(what)?;
            }
            cur.wstr(what)?;
        }
        Ok(NameList {
            cur: start,
            count,
            keyed,
        })
    }

    /// Number of items.
    pub fn len(&self) -> usize {
        usize::try_from(self.count).unwrap_or(usize::MAX)
    }

    /// Whether the list has no entries.
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// Whether every item carries a category.
    pub fn is_keyed(&self) -> bool {
        self.keyed
    }

    /// Absolute offset of the first item.
    pub fn offset(&self) -> usize {
        self.cur.offset()
    }

    /// The entries, in file order.
    pub fn iter(&self) -> NameIter<'a> {
        NameIter {
            cur: self.cur,
            remaining: self.count,
            keyed: self.keyed,
        }
    }
}

impl<'a> IntoIterator for NameList<'a> {
    type Item = Result<Named<'a>>;
    type IntoIter = NameIter<'a>;
    fn into_iter(self) -> NameIter<'a> {
        self.iter()
    }
}

/// The items of a [`NameList`].
#[derive(Debug, Clone)]
pub struct NameIter<'a> {
    cur: Cursor<'a>,
    remaining: u32,
    keyed: bool,
}

impl<'a> Iterator for NameIter<'a> {
    type Item = Result<Named<'a>>;

    #[inline]
    fn next(&mut self) -> Option<Result<Named<'a>>> {
        self.remaining = self.remaining.checked_sub(1)?;
        let mut read = || -> Result<Named<'a>> {
            let category = if self.keyed {
                Some(self.cur.u32_le("NameList.category")?)
            } else {
                None
            };
            let name = self.cur.wstr("NameList.name")?;
            Ok(Named { category, name })
        };
        let item = read();
        if item.is_err() {
            self.remaining = 0;
        }
        Some(item)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = usize::try_from(self.remaining).unwrap_or(usize::MAX);
        (n, Some(n))
    }
}

impl ExactSizeIterator for NameIter<'_> {}

/// A counted run of records, checked at open, kept as a position and a count (`Copy`); iterate it
/// with [`iter`](Run::iter).
#[derive(Debug)]
pub struct Run<'a, R> {
    cur: Cursor<'a>,
    count: u32,
    versions: Versions,
    record: PhantomData<fn() -> R>,
}

impl<R> Clone for Run<'_, R> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<R> Copy for Run<'_, R> {}

/// Two runs are equal when their records are (wherever they are stored).
impl<'a, R: Record<'a, Context = Versions> + PartialEq> PartialEq for Run<'a, R> {
    fn eq(&self, other: &Self) -> bool {
        self.iter().eq(other.iter())
    }
}

impl<'a, R: Record<'a, Context = Versions>> Run<'a, R> {
    /// Checks a run of `count` records at the cursor and advances past it.
    pub(crate) fn read(cur: &mut Cursor<'a>, count: u32, versions: Versions) -> Result<Self> {
        let start = *cur;
        walk::<R>(cur, versions, count)?;
        Ok(Run {
            cur: start,
            count,
            versions,
            record: PhantomData,
        })
    }

    /// The run of `count` records at the cursor, which the caller has checked by other means.
    pub(crate) const fn stepped(cur: Cursor<'a>, count: u32, versions: Versions) -> Self {
        Run {
            cur,
            count,
            versions,
            record: PhantomData,
        }
    }

    /// Checks a run of `count` records at the cursor by stepping over them by their lengths
    /// ([`StepOver`]), reading them in full only when the step does not fit (to report what is
    /// wrong), and advances past it.
    #[inline(always)]
    pub(crate) fn read_stepped(cur: &mut Cursor<'a>, count: u32, versions: Versions) -> Result<Self>
    where
        R: StepOver,
    {
        let bytes = cur.bytes();
        match R::run_end(bytes.as_slice(), cur.offset(), count, versions) {
            Some(end) => {
                let run = Self::stepped(*cur, count, versions);
                *cur = Cursor::new(bytes, end);
                Ok(run)
            }
            None => Self::read(cur, count, versions),
        }
    }

    /// Reads an `i32` count (checked against `R::MIN_SIZE`), then the run, stepped over
    /// ([`Run::read_stepped`]).
    #[inline(always)]
    pub(crate) fn read_counted_stepped(
        cur: &mut Cursor<'a>,
        versions: Versions,
        what: &'static str,
    ) -> Result<Self>
    where
        R: StepOver,
    {
        let count = cur.count(what, R::MIN_SIZE)?;
        Self::read_stepped(cur, count, versions)
    }

    /// Reads an `i32` count (checked against `R::MIN_SIZE`), then the run.
    pub(crate) fn read_counted(
        cur: &mut Cursor<'a>,
        versions: Versions,
        what: &'static str,
    ) -> Result<Self> {
        let count = cur.count(what, R::MIN_SIZE)?;
        Self::read(cur, count, versions)
    }

    /// Reads an `i32` count (checked against `R::MIN_SIZE`), then, when it is not zero, the
    /// value `between` reads (a scene resource's delay, stored between its path count and its
    /// paths), then the run, stepped over ([`Run::read_stepped`]).
    // Always inlined, as the records' reads are (see `reader_records!`): `between` is a closure.
    #[inline(always)]
    pub(crate) fn read_counted_then<T>(
        cur: &mut Cursor<'a>,
        versions: Versions,
        what: &'static str,
        between: impl FnOnce(&mut Cursor<'a>) -> Result<T>,
    ) -> Result<(Option<T>, Self)>
    where
        R: StepOver,
    {
        let count = cur.count(what, R::MIN_SIZE)?;
        let value = if count > 0 { Some(between(cur)?) } else { None };
        Ok((value, Self::read_stepped(cur, count, versions)?))
    }

    /// Number of records.
    pub fn len(&self) -> usize {
        self.count as usize
    }

    /// Whether the run has no records.
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// Absolute offset of the first record.
    pub fn offset(&self) -> usize {
        self.cur.offset()
    }

    /// The records, in file order.
    pub fn iter(&self) -> Records<'a, R> {
        Records::with_context(self.cur, self.count, self.versions)
    }
}

impl<'a, R: Record<'a, Context = Versions>> IntoIterator for Run<'a, R> {
    type Item = Result<R>;
    type IntoIter = Records<'a, R>;
    fn into_iter(self) -> Records<'a, R> {
        self.iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bytes::Bytes;

    /// A list that claims three names over bytes holding one and a half: the first is read, the
    /// second is yielded as its error (with the offset where it failed), and the iteration ends
    /// there rather than silently or in a loop.
    #[test]
    fn a_failed_read_is_yielded_once_then_the_iteration_ends() {
        // "A" (1 unit), then a name that claims 4 units but has 1.
        let data = [1, 0, b'A', 0, 4, 0, b'B', 0];
        let list = NameList {
            cur: Cursor::new(Bytes::new(&data), 0),
            count: 3,
            keyed: false,
        };
        let mut names = list.iter();
        assert_eq!(names.len(), 3);
        let first = names
            .next()
            .expect("an item")
            .expect("the first name reads");
        assert!(first.name.eq_str("A"));
        let second = names.next().expect("the failure is yielded");
        let error = second.expect_err("the second name runs past the end");
        // The units of the second name start at 6, where 8 bytes are needed and 2 remain.
        assert_eq!(error.offset(), 6, "{error}");
        assert!(names.next().is_none());
        assert_eq!(names.len(), 0);
    }
}

//! A run of variable-length records read one after another: the one iterator behind every walk
//! over such records (CraftStudio's controls, entries and revisions, a WWD plane's objects and
//! its tile properties, WapMap's metadata blocks, an armor model's BVH nodes).
//!
//! The convention every iterator over file data in gamebin follows lives here once: items are
//! `Result`s; a record that does not read is yielded as an `Err` once and ends the run (nothing
//! after it can be found), so an iterator never ends silently on an error. A file's count cannot
//! make the walk run long: a record that reads takes at least one byte (a record that took none
//! ends the run), and a read past the end fails.

use core::marker::PhantomData;

use super::Cursor;
use crate::error::Result;

/// A variable-length record that reads itself at a [`Cursor`] and leaves the cursor where the
/// next record starts.
pub trait Record<'a>: Sized {
    /// What every read in a run needs besides the cursor: `()` for most formats, the file's
    /// versions for `.wdata` (whose layouts depend on them).
    type Context: Copy;

    /// The fewest bytes one record takes. It bounds [`Records`]'s `size_hint` by the bytes that
    /// remain (and bounds a stored count before anything is read); it must be at least 1.
    const MIN_SIZE: usize;

    /// Reads the record at `cur`, the one at `place` in its run, and moves `cur` past it. On
    /// error the cursor's position does not matter: the run ends.
    fn read(cur: &mut Cursor<'a>, context: Self::Context, place: Place) -> Result<Self>;

    /// Whether this record closes its run before the count is reached (a terminator, as WapMap's
    /// end block). By default only the count ends a run.
    #[inline]
    fn ends_run(&self) -> bool {
        false
    }
}

/// Where a record stands in its run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Place {
    /// Its index, from 0.
    pub index: u32,
    /// Whether it is the last the count allows (some layouts end differently).
    pub last: bool,
}

/// The records of a run, in file order: `Ok` records, or one `Err` that ends the run.
///
/// Opening a view checks the runs it hands out, so on a file that opened every item is `Ok` in
/// practice; the items stay `Result`s so that a walk over a file changed since (or a run a view
/// did not check) still reports where and why it stopped.
pub struct Records<'a, R: Record<'a>> {
    cursor: Cursor<'a>,
    context: R::Context,
    index: u32,
    remaining: u32,
    record: PhantomData<R>,
}

impl<'a, R: Record<'a>> Clone for Records<'a, R> {
    fn clone(&self) -> Self {
        Records { ..*self }
    }
}

impl<'a, R: Record<'a>> core::fmt::Debug for Records<'a, R> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Records")
            .field("offset", &self.cursor.offset())
            .field("index", &self.index)
            .field("remaining", &self.remaining)
            .finish()
    }
}

impl<'a, R: Record<'a>> Records<'a, R> {
    /// A run of up to `count` records starting at `cursor`, each read with `context`.
    pub const fn with_context(cursor: Cursor<'a>, count: u32, context: R::Context) -> Self {
        Records {
            cursor,
            context,
            index: 0,
            remaining: count,
            record: PhantomData,
        }
    }
}

impl<'a, R: Record<'a, Context = ()>> Records<'a, R> {
    /// A run of up to `count` records starting at `cursor`.
    pub const fn new(cursor: Cursor<'a>, count: u32) -> Self {
        Records::with_context(cursor, count, ())
    }

    /// A run that only a terminator record ends (or the end of the bytes, as an error).
    pub const fn until_terminator(cursor: Cursor<'a>) -> Self {
        Records::new(cursor, u32::MAX)
    }
}

impl<'a, R: Record<'a>> Records<'a, R> {
    /// Absolute file offset of the next record.
    pub const fn offset(&self) -> usize {
        self.cursor.offset()
    }
}

impl<'a, R: Record<'a>> Iterator for Records<'a, R> {
    type Item = Result<R>;

    #[inline]
    fn next(&mut self) -> Option<Result<R>> {
        self.remaining = self.remaining.checked_sub(1)?;
        let at = self.cursor.offset();
        let place = Place {
            index: self.index,
            last: self.remaining == 0,
        };
        match R::read(&mut self.cursor, self.context, place) {
            Ok(record) => {
                self.index = self.index.wrapping_add(1);
                if record.ends_run() || self.cursor.offset() <= at {
                    self.remaining = 0;
                }
                Some(Ok(record))
            }
            Err(e) => {
                self.remaining = 0;
                Some(Err(e))
            }
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        // An error or a terminator ends the run early: up to the count, and up to one record
        // (an error) more than the remaining bytes hold.
        let fit = (self.cursor.remaining() / R::MIN_SIZE.max(1)).saturating_add(1);
        let remaining = usize::try_from(self.remaining).unwrap_or(usize::MAX);
        (0, Some(remaining.min(fit)))
    }
}

impl<'a, R: Record<'a>> core::iter::FusedIterator for Records<'a, R> {}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bytes::Bytes;

    /// A test record: a length byte, then that many bytes; a length of 0xFF is a terminator.
    #[derive(Debug, PartialEq)]
    struct Chunk<'a> {
        index: u32,
        body: &'a [u8],
    }

    impl<'a> Record<'a> for Chunk<'a> {
        type Context = ();
        const MIN_SIZE: usize = 1;

        fn read(cur: &mut Cursor<'a>, _: (), place: Place) -> Result<Self> {
            let index = place.index;
            let len = cur.u8("Chunk.len")?;
            let body = if len == 0xFF {
                &[][..]
            } else {
                cur.take(usize::from(len), "Chunk.body")?
            };
            Ok(Chunk { index, body })
        }

        fn ends_run(&self) -> bool {
            self.body.is_empty()
        }
    }

    fn run(data: &[u8], count: u32) -> Records<'_, Chunk<'_>> {
        Records::new(Cursor::new(Bytes::new(data), 0), count)
    }

    #[test]
    fn the_count_ends_a_run_and_records_know_their_index() {
        let data = [1, b'a', 2, b'b', b'c', 1, b'z'];
        let chunks: Vec<_> = run(&data, 2).collect::<Result<_>>().unwrap();
        assert_eq!(
            chunks,
            [
                Chunk {
                    index: 0,
                    body: b"a"
                },
                Chunk {
                    index: 1,
                    body: b"bc"
                }
            ]
        );
    }

    #[test]
    fn a_record_that_does_not_read_is_the_last_item() {
        // Three claimed; the second is cut: one Ok, one Err naming where, then nothing.
        let data = [1, b'a', 5, b'b'];
        let mut chunks = run(&data, 3);
        assert!(chunks.next().unwrap().is_ok());
        let e = chunks.next().unwrap().unwrap_err();
        assert_eq!((e.what(), e.offset()), ("Chunk.body", 3));
        assert!(chunks.next().is_none());
        assert!(chunks.next().is_none());
    }

    #[test]
    fn a_huge_count_is_bounded_by_the_bytes() {
        let data = [1, b'a'];
        let mut chunks = run(&data, u32::MAX);
        assert_eq!(chunks.size_hint(), (0, Some(3)));
        assert_eq!(chunks.by_ref().filter(Result::is_err).count(), 1);
        assert_eq!(run(&data, u32::MAX).count(), 2);
    }

    #[test]
    fn a_terminator_ends_a_run_without_a_count() {
        let data = [1, b'a', 0xFF, 1, b'b'];
        let mut chunks = Records::<Chunk<'_>>::until_terminator(Cursor::new(Bytes::new(&data), 0));
        assert_eq!(chunks.next().unwrap().unwrap().body, b"a");
        assert_eq!(chunks.next().unwrap().unwrap().index, 1);
        assert_eq!(chunks.offset(), 3);
        assert!(chunks.next().is_none());
    }
}

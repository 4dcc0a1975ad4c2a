//! A counted run of variable-length records read one after another (game controls, entries, an
//! asset's revisions). The run was walked and checked when the view opened, so every item is `Ok`
//! in practice; the items are `Result`s all the same, as every iterator over file data in gamebin
//! yields them: should a read fail, the error is yielded once and the iterator ends after it.

use core::marker::PhantomData;

use crate::bytes::{Bytes, Cursor};
use crate::error::Result;

/// A record read at a cursor, which it leaves where the next one starts.
///
/// Crate-private in effect (this module is private and the trait is not re-exported): the public
/// API has one `Record` trait, `.wdata`'s.
pub trait Record<'a>: Sized {
    /// Reads the record at the cursor and moves the cursor past it.
    fn read(cur: &mut Cursor<'a>) -> Result<Self>;
}

/// The records of a counted run, in file order: `Ok` records, or one `Err` that ends the run.
#[derive(Debug, Clone)]
pub struct Sequence<'a, R> {
    cursor: Cursor<'a>,
    remaining: u16,
    record: PhantomData<R>,
}

impl<'a, R> Sequence<'a, R> {
    pub(crate) fn new(bytes: Bytes<'a>, at: usize, count: u16) -> Self {
        Sequence {
            cursor: Cursor::new(bytes, at),
            remaining: count,
            record: PhantomData,
        }
    }
}

impl<'a, R: Record<'a>> Iterator for Sequence<'a, R> {
    type Item = Result<R>;

    #[inline]
    fn next(&mut self) -> Option<Result<R>> {
        self.remaining = self.remaining.checked_sub(1)?;
        match R::read(&mut self.cursor) {
            Ok(record) => Some(Ok(record)),
            Err(e) => {
                // Nothing after a record that does not read can be found: end after the error.
                self.remaining = 0;
                Some(Err(e))
            }
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        // An error ends the run early: up to `remaining` items.
        (0, Some(usize::from(self.remaining)))
    }
}

impl<'a, R: Record<'a>> core::iter::FusedIterator for Sequence<'a, R> {}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::craftstudio::Revision;

    #[test]
    fn a_record_that_does_not_read_is_an_item_and_the_last() {
        // Two revisions claimed, one whole (id 7, name "ab"), the second cut after its id.
        let data = [7, 0, 2, b'a', b'b', 8, 0];
        let mut revisions = Sequence::<Revision<'_>>::new(Bytes::new(&data), 0, 2);
        let first = revisions.next().unwrap().unwrap();
        assert_eq!((first.id, first.name, first.offset), (7, "ab", 0));
        let e = revisions.next().unwrap().unwrap_err();
        assert_eq!(e.what(), "AssetRevision.name");
        assert_eq!(e.offset(), 7);
        assert!(revisions.next().is_none());
        // A count beyond the records gives one error, not as many as the count.
        let mut many = Sequence::<Revision<'_>>::new(Bytes::new(&data), 0, 60_000);
        assert_eq!(many.by_ref().filter(Result::is_err).count(), 1);
    }
}

//! A counted run of variable-length records read one after another (game controls, entries, an
//! asset's revisions). The run was walked and checked when the view opened, so the iterator yields
//! exactly its count; should a read fail anyway, it ends rather than loop.

use core::marker::PhantomData;

use crate::bytes::Bytes;
use crate::error::Result;

/// A record that can be read at an offset, giving the offset where the next one starts.
pub trait Record<'a>: Sized {
    /// Reads the record at absolute offset `at`.
    fn read(bytes: Bytes<'a>, at: usize) -> Result<(Self, usize)>;
}

/// The records of a counted run, in file order.
#[derive(Debug, Clone)]
pub struct Sequence<'a, R> {
    bytes: Bytes<'a>,
    at: usize,
    remaining: u16,
    record: PhantomData<R>,
}

impl<'a, R> Sequence<'a, R> {
    pub(crate) fn new(bytes: Bytes<'a>, at: usize, count: u16) -> Self {
        Sequence {
            bytes,
            at,
            remaining: count,
            record: PhantomData,
        }
    }
}

impl<'a, R: Record<'a>> Iterator for Sequence<'a, R> {
    type Item = R;

    fn next(&mut self) -> Option<R> {
        self.remaining = self.remaining.checked_sub(1)?;
        match R::read(self.bytes, self.at) {
            Ok((record, end)) => {
                self.at = end;
                Some(record)
            }
            Err(_) => {
                self.remaining = 0;
                None
            }
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = usize::from(self.remaining);
        (n, Some(n))
    }
}

impl<'a, R: Record<'a>> ExactSizeIterator for Sequence<'a, R> {}

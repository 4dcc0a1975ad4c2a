//! [`Placer`]: parts placed at the offsets another writer's layout gives them, while the parts
//! written so far still end there or before; the writer's own placing from the first part that
//! no longer fits. The file's parts follow its [`FileLayout`](super::FileLayout), a blob's
//! out-of-line arrays its [`BlobPlacement`](super::BlobPlacement); one budget bounds the gaps of
//! both.

use zerocopy::{Immutable, IntoBytes};

use super::file_layout::Padding;
use crate::bytes::sink::{Sink, invalid};
use crate::bytes::u64_of;
use crate::write_error::WriteResult as Result;

/// The gaps a layout may ask for beyond the bytes placed: alignment of a small file.
const SLACK: usize = 64 << 10;

/// Places parts at the offsets of a layout `L` while it still can. Offsets are positions in the
/// sink the parts are written to (the file, or one blob).
pub(in crate::wows::assets) struct Placer<'l, L> {
    /// The layout while it is followed.
    layout: Option<&'l L>,
    /// The layout's fill between parts, written into the gaps it was stored in.
    padding: &'l [Padding],
    /// Where the sink starts in the file (the budget counts the file's bytes).
    origin: usize,
    /// The gaps zero-filled so far in the whole file, this sink's and those before it.
    gaps: usize,
    /// The gaps zero-filled in this sink, (start, end), in order.
    filled: Vec<(usize, usize)>,
}

impl<'l, L> Placer<'l, L> {
    /// A placer of a file's parts by `layout`, with the fill `padding`.
    pub(in crate::wows::assets) fn new(layout: Option<&'l L>, padding: &'l [Padding]) -> Self {
        Placer {
            layout,
            padding,
            origin: 0,
            gaps: 0,
            filled: Vec::new(),
        }
    }

    /// A placer of the parts of a part that starts at `at` in this placer's sink (a blob in the
    /// file) by their own `layout`: its gaps count against the budget of this one (given back
    /// with [`absorb`](Self::absorb)).
    pub(in crate::wows::assets) fn nested<'m, M>(
        &self,
        layout: Option<&'m M>,
        padding: &'m [Padding],
        at: usize,
    ) -> Placer<'m, M> {
        Placer {
            layout,
            padding,
            origin: self.origin.saturating_add(at),
            gaps: self.gaps,
            filled: Vec::new(),
        }
    }

    /// Takes back the budget a [`nested`](Self::nested) placer spent.
    pub(in crate::wows::assets) fn absorb<M>(&mut self, nested: &Placer<'_, M>) {
        self.gaps = nested.gaps;
    }

    /// The layout while it is followed (`None` from the first part it could not place on).
    pub(in crate::wows::assets) fn layout(&self) -> Option<&'l L> {
        self.layout
    }

    /// Writes the layout's padding into the gaps it was stored in, where those gaps were left
    /// (a padding whose gap an edit closed is dropped).
    pub(in crate::wows::assets) fn pad(&self, out: &mut Sink, what: &'static str) -> Result<()> {
        for padding in self.padding {
            let end = padding.at.saturating_add(padding.bytes.len());
            let gap = self
                .filled
                .partition_point(|&(start, _)| start <= padding.at);
            let inside = gap
                .checked_sub(1)
                .and_then(|g| self.filled.get(g))
                .is_some_and(|&(_, gap_end)| end <= gap_end);
            if inside {
                out.patch(padding.at, padding.bytes.as_slice(), what)?;
            }
        }
        Ok(())
    }

    /// Moves to where the layout places the part `what` (offset given by `at`, `size` bytes
    /// long): zero-fills up to it, or gives the layout up when the sink already goes past it.
    pub(in crate::wows::assets) fn place(
        &mut self,
        out: &mut Sink,
        at: impl FnOnce(&L) -> Option<usize>,
        size: usize,
        what: &'static str,
    ) -> Result<()> {
        let Some(target) = self.layout.and_then(at) else {
            self.layout = None;
            return Ok(());
        };
        let Some(gap) = target.checked_sub(out.len()) else {
            // A part before this one grew past it: the writer's layout from here on.
            self.layout = None;
            return Ok(());
        };
        // The bytes placed in the file, not counting the gaps (else each gap could double it).
        let placed = self
            .origin
            .saturating_add(out.len())
            .saturating_sub(self.gaps)
            .saturating_add(size);
        self.gaps = self.gaps.saturating_add(gap);
        if self.gaps > placed.saturating_add(SLACK) {
            return Err(invalid(
                what,
                u64_of(target),
                "the layout's gaps before this part add up to more than the bytes placed (and \
                 64 KiB more)",
            ));
        }
        let start = out.fill(0, gap)?;
        if gap > 0 {
            self.filled.push((start, target));
        }
        Ok(())
    }

    /// Places `value` (a part) where the layout puts it (see [`place`](Self::place)) and
    /// writes it; returns where it starts.
    pub(in crate::wows::assets) fn put<T: IntoBytes + Immutable + ?Sized>(
        &mut self,
        out: &mut Sink,
        at: impl FnOnce(&L) -> Option<usize>,
        value: &T,
        what: &'static str,
    ) -> Result<usize> {
        self.place(out, at, value.as_bytes().len(), what)?;
        Ok(out.put(value))
    }
}

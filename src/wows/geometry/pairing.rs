//! Pairing every index mapping of a file with the vertex mapping its indices address.
//!
//! A mesh's two mapping ids hash its name with two suffixes, so without the name they cannot be
//! matched by id, and the two tables need not list the meshes in the same order (real 0.10 files do
//! not). The file still says a lot: files since 0.11 store the same packed texel density on both
//! mappings of a draw, and index values are local to the draw's vertex range, so the largest index
//! of an index mapping says how many vertices its vertex mapping must have — exactly that many in
//! every real file seen, since the converter keeps only the vertices a mesh uses. The pairing uses,
//! in order: a texel density that only one mapping on each side has; a vertex mapping whose count is
//! exactly the largest index plus one; the only vertex mapping that holds the indices, or the
//! tightest one; and table order last, where nothing else tells candidates apart. Every choice the
//! data did not force is recorded as a [`PairingNote`], never hidden.
//!
//! The work is O(n log n) in the number of mappings plus one pass over the index data; the table
//! owns its scratch space and reuses it, so pairing file after file allocates only when a file has
//! more mappings than any before it.

use core::fmt;
use core::ops::Range;

use super::GeometryView;
use super::draw::{Draw, Pairing};
use super::indices::{IndexBuffer, Indices};
use super::mapping::{Mapping, Mappings};
use crate::bytes::u64_of;
use crate::error::{Error, Result};

/// No vertex mapping (an unpaired index mapping).
const NONE: u32 = u32::MAX;

/// What the index data of one index mapping say.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct IndexSummary {
    /// The largest index; `None` for an empty mapping.
    max: Option<u32>,
}

/// Index buffer `b` of the file being paired (raw in place or decoded), why it cannot be read, or
/// `None` when the file has no such buffer.
type Merged<'s, 'f> = &'f dyn Fn(usize) -> Option<Result<Indices<'s>>>;

#[derive(Debug, Clone, Copy)]
struct Entry {
    /// Position of the paired vertex mapping, or [`NONE`].
    vertex: u32,
    pairing: Pairing,
}

/// Why a pairing was a choice, or why an index mapping stayed unpaired.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum PairingDoubt {
    /// `index_mappings` index mappings need exactly `vertex_count` vertices and `vertex_mappings`
    /// vertex mappings (of the same texel density) have that many: they were paired in table order.
    /// `interchangeable`: the index mappings hold identical indices, so the meshes are the same
    /// whichever way they pair and only which id goes with which is a guess.
    SameVertexCount {
        /// The vertex count the indices need (largest index + 1).
        vertex_count: u32,
        /// How many index mappings need it.
        index_mappings: u32,
        /// How many vertex mappings have it.
        vertex_mappings: u32,
        /// Whether the tied index mappings hold identical indices.
        interchangeable: bool,
    },
    /// No vertex mapping left has exactly the count the indices need and `candidates` hold enough
    /// vertices: the one at the same table position (if it is a candidate) or the tightest was
    /// taken.
    SeveralFit {
        /// How many vertex mappings could hold the indices.
        candidates: u32,
    },
    /// The index data could not be read; the mapping was paired by table position where the
    /// vertex mapping there is free and has the same texel density, and left unpaired otherwise.
    IndexDataUnreadable(Error),
    /// No vertex mapping left holds `max_index + 1` vertices with this texel density: unpaired.
    NoneFits {
        /// The largest index of the index mapping.
        max_index: u32,
    },
    /// Paired by the index data alone although the two mappings store different texel densities
    /// (the two of a draw are equal in every file seen).
    TexelDensitiesDiffer {
        /// The vertex mapping's density.
        vertices: u16,
        /// The index mapping's density.
        indices: u16,
    },
    /// The only vertex mapping with this index mapping's (non-zero) texel density has too few
    /// vertices for its indices, so the density did not decide.
    TexelDensityMismatch {
        /// The largest index of the index mapping.
        max_index: u32,
        /// The vertex count of the vertex mapping with the same density.
        vertex_count: u32,
    },
}

impl fmt::Display for PairingDoubt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            PairingDoubt::SameVertexCount {
                vertex_count,
                index_mappings,
                vertex_mappings,
                interchangeable,
            } => {
                write!(
                    f,
                    "{index_mappings} index mappings need {vertex_count} vertices and \
                     {vertex_mappings} vertex mappings have that many: paired in table order"
                )?;
                if interchangeable {
                    write!(
                        f,
                        " (their indices are identical: the meshes are the same either way)"
                    )
                } else {
                    write!(f, " (their indices differ: the pairing may be wrong)")
                }
            }
            PairingDoubt::SeveralFit { candidates } => write!(
                f,
                "no vertex mapping has exactly the vertices the indices need and {candidates} \
                 hold enough: the one at the same table position or the tightest was taken"
            ),
            PairingDoubt::IndexDataUnreadable(e) => write!(f, "index data unreadable ({e})"),
            PairingDoubt::NoneFits { max_index } => write!(
                f,
                "no unpaired vertex mapping with the same texel density has the {} vertices \
                 index {max_index} needs",
                u64::from(max_index) + 1
            ),
            PairingDoubt::TexelDensitiesDiffer { vertices, indices } => write!(
                f,
                "paired by the index data although the texel densities differ (vertex mapping \
                 {vertices}, index mapping {indices})"
            ),
            PairingDoubt::TexelDensityMismatch {
                max_index,
                vertex_count,
            } => write!(
                f,
                "the vertex mapping with the same texel density has {vertex_count} vertices, too \
                 few for index {max_index}"
            ),
        }
    }
}

/// A choice the pairing made that the data did not force, or an index mapping it left unpaired.
///
/// The mappings are named by their positions in their tables (`view.index_mappings().get(p)`),
/// not by their ids: the summaries ([`PairingNoteSummary`](super::PairingNoteSummary)), `dump`
/// and the command line name them by id, as `index_mapping` and `vertex_mapping`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PairingNote {
    /// Position of the index mapping in its table.
    pub index_mapping_position: usize,
    /// Position of the vertex mapping it was paired with, if any.
    pub vertex_mapping_position: Option<usize>,
    /// Why.
    pub doubt: PairingDoubt,
}

/// How every index mapping of one file pairs with a vertex mapping. Owned and reusable: a pipeline
/// keeps one and calls [`pair`](Self::pair) for each file, which reuses its memory. Positions
/// refer to the tables of the view last paired; [`draws`](Self::draws) resolves them against a
/// view and yields nothing for a view whose tables have other lengths.
#[derive(Debug, Clone, Default)]
pub struct DrawTable {
    /// One entry per index mapping, in table order.
    entries: Vec<Entry>,
    vertex_taken: Vec<bool>,
    vertex_mappings: usize,
    summaries: Vec<Result<IndexSummary>>,
    notes: Vec<PairingNote>,
    // Scratch space, kept between files.
    order_v: Vec<u32>,
    order_i: Vec<u32>,
    next_free: Vec<u32>,
    runs: Vec<(Range<usize>, Range<usize>)>,
    /// ENCD index buffers decoded by [`pair`](Self::pair), one per merged buffer, and whether each
    /// decoded.
    decoded: Vec<Vec<u32>>,
    decode_states: Vec<Result<bool>>,
}

impl DrawTable {
    /// An empty table.
    pub fn new() -> Self {
        Self::default()
    }

    /// Pairs the draws of `view`, reading raw index data in place and decoding ENCD index buffers
    /// into scratch space the table keeps.
    pub fn pair(&mut self, view: &GeometryView<'_>) {
        let mut decoded = core::mem::take(&mut self.decoded);
        let mut states = core::mem::take(&mut self.decode_states);
        let buffers = view.index_buffer_count();
        if decoded.len() < buffers {
            decoded.resize_with(buffers, Vec::new);
        }
        states.clear();
        for (ib, scratch) in view.index_buffers().zip(decoded.iter_mut()) {
            states.push(decode_if_encoded(ib, scratch));
        }
        let merged = |b: usize| {
            let ib = view.index_buffer(b)?;
            Some(match states.get(b) {
                Some(Ok(true)) => Ok(Indices::U32(decoded.get(b).map_or(&[][..], Vec::as_slice))),
                Some(Err(e)) => Err(*e),
                _ => ib.raw_indices(),
            })
        };
        self.pair_with(view, &merged);
        self.decoded = decoded;
        self.decode_states = states;
    }

    /// Pairs the draws of `view` from index buffers already decoded (see [`Merged`]).
    pub(crate) fn pair_with<'s>(&mut self, view: &GeometryView<'_>, merged: Merged<'s, '_>) {
        self.summarize(view, merged);
        self.solve(view, merged);
    }

    /// The draws, in index-mapping order (unpaired index mappings are left out: see
    /// [`unpaired_index_mappings`](Self::unpaired_index_mappings) and [`notes`](Self::notes)).
    pub fn draws<'a, 't>(
        &'t self,
        view: &GeometryView<'a>,
    ) -> impl Iterator<Item = Draw<'a>> + use<'a, 't> {
        let (vm, im) = (view.vertex_mappings(), view.index_mappings());
        let same = vm.len() == self.vertex_mappings && im.len() == self.entries.len();
        let entries = if same { &self.entries[..] } else { &[] };
        entries
            .iter()
            .enumerate()
            .filter_map(move |(i, e)| draw(vm, im, i, *e))
    }

    /// The draw of the index mapping at `position`, if it was paired.
    pub fn draw_of_index_mapping<'a>(
        &self,
        view: &GeometryView<'a>,
        position: usize,
    ) -> Option<Draw<'a>> {
        let (vm, im) = (view.vertex_mappings(), view.index_mappings());
        if vm.len() != self.vertex_mappings || im.len() != self.entries.len() {
            return None;
        }
        draw(vm, im, position, *self.entries.get(position)?)
    }

    /// Number of draws (paired index mappings).
    pub fn len(&self) -> usize {
        self.entries.iter().filter(|e| e.vertex != NONE).count()
    }

    /// Whether no index mapping was paired.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Every choice the data did not force, and why each unpaired index mapping stayed so.
    pub fn notes(&self) -> &[PairingNote] {
        &self.notes
    }

    /// Positions of the index mappings that were not paired.
    pub fn unpaired_index_mappings(&self) -> impl Iterator<Item = usize> + '_ {
        self.entries
            .iter()
            .enumerate()
            .filter(|(_, e)| e.vertex == NONE)
            .map(|(i, _)| i)
    }

    /// Positions of the vertex mappings that no index mapping was paired with.
    pub fn unpaired_vertex_mappings(&self) -> impl Iterator<Item = usize> + '_ {
        self.vertex_taken
            .iter()
            .enumerate()
            .filter(|(_, taken)| !**taken)
            .map(|(i, _)| i)
    }

    /// The largest index of the index mapping at `position` (`Ok(None)` when it is empty), or why
    /// its index data could not be read.
    pub fn max_index(&self, position: usize) -> Option<Result<Option<u32>>> {
        self.summaries
            .get(position)
            .map(|s| s.as_ref().map(|s| s.max).map_err(|e| *e))
    }

    /// Reads what each index mapping's data say.
    fn summarize<'s>(&mut self, view: &GeometryView<'_>, merged: Merged<'s, '_>) {
        let im = view.index_mappings();
        self.summaries.clear();
        self.summaries.extend(im.iter().map(|m| {
            let all = merged(m.buffer_index()).ok_or(Error::invalid(
                u64_of(m.offset()),
                "MappingEntry(indices).mergedBufferIndex",
                u64_of(m.buffer_index()),
                "no merged index buffer with this index",
            ))??;
            Ok(IndexSummary {
                max: mapping_indices(all, m)?.max(),
            })
        }));
    }

    fn solve<'s>(&mut self, view: &GeometryView<'_>, merged: Merged<'s, '_>) {
        let (vm, im) = (view.vertex_mappings(), view.index_mappings());
        self.vertex_mappings = vm.len();
        self.entries.clear();
        self.entries.resize(
            im.len(),
            Entry {
                vertex: NONE,
                pairing: Pairing::ByPosition,
            },
        );
        self.vertex_taken.clear();
        self.vertex_taken.resize(vm.len(), false);
        self.notes.clear();
        self.pair_by_texel_density(vm, im);
        self.pair_by_exact_count(vm, im, merged, Density::Matched);
        self.pair_by_fit(vm, im, Density::Matched);
        // A file whose two mappings of a draw carry different densities (none is known, but a
        // reader that then pairs nothing would be wrong): what is left pairs by the data alone.
        if self.unpaired_index_mappings().next().is_some() {
            self.pair_by_exact_count(vm, im, merged, Density::Ignored);
            self.pair_by_fit(vm, im, Density::Ignored);
            self.note_density_mismatches(vm, im);
        }
        self.pair_unreadable_by_position(vm, im);
    }

    fn link(&mut self, index: u32, vertex: u32, pairing: Pairing) {
        if let Some(e) = self.entries.get_mut(index as usize) {
            *e = Entry { vertex, pairing };
        }
        if let Some(t) = self.vertex_taken.get_mut(vertex as usize) {
            *t = true;
        }
    }

    /// Notes every draw paired across different texel densities (by the passes that ignore them).
    fn note_density_mismatches(&mut self, vm: Mappings<'_>, im: Mappings<'_>) {
        for i in 0..im.len() {
            let Some(&Entry { vertex, .. }) = self.entries.get(i) else {
                continue;
            };
            let (Some(v), Some(m)) = (vm.get(vertex as usize), im.get(i)) else {
                continue;
            };
            if v.texel_density() != m.texel_density() {
                let doubt = PairingDoubt::TexelDensitiesDiffer {
                    vertices: v.texel_density(),
                    indices: m.texel_density(),
                };
                self.note(to_u32(i), Some(vertex), doubt);
            }
        }
    }

    fn note(&mut self, index: u32, vertex: Option<u32>, doubt: PairingDoubt) {
        self.notes.push(PairingNote {
            index_mapping_position: index as usize,
            vertex_mapping_position: vertex.map(|v| v as usize),
            doubt,
        });
    }

    /// The free vertex mappings' positions into `out`, sorted by `key`, then position.
    fn free_vertices_by<K: Ord>(&self, count: usize, key: impl Fn(u32) -> K, out: &mut Vec<u32>) {
        out.clear();
        out.extend((0..count).map(to_u32).filter(|&v| self.is_free_vertex(v)));
        out.sort_unstable_by_key(|&p| (key(p), p));
    }

    fn is_free_index(&self, i: u32) -> bool {
        self.entries
            .get(i as usize)
            .is_some_and(|e| e.vertex == NONE)
    }

    fn is_free_vertex(&self, v: u32) -> bool {
        self.vertex_taken.get(v as usize).is_some_and(|t| !t)
    }

    fn known_max(&self, i: u32) -> Option<u32> {
        self.summaries.get(i as usize)?.as_ref().ok()?.max
    }

    /// A non-zero texel density that exactly one mapping on each side has pairs them, when the
    /// vertex mapping holds the indices (or the index data cannot say).
    fn pair_by_texel_density(&mut self, vm: Mappings<'_>, im: Mappings<'_>) {
        let density = |m: &Mappings<'_>, p: u32| m.get(p as usize).map_or(0, |m| m.texel_density());
        let mut order_v = core::mem::take(&mut self.order_v);
        let mut order_i = core::mem::take(&mut self.order_i);
        order_v.clear();
        order_v.extend((0..vm.len()).map(to_u32));
        order_v.sort_unstable_by_key(|&p| (density(&vm, p), p));
        order_i.clear();
        order_i.extend((0..im.len()).map(to_u32));
        order_i.sort_unstable_by_key(|&p| (density(&im, p), p));
        let mut runs = core::mem::take(&mut self.runs);
        matching_runs(
            &order_i,
            &order_v,
            |p| density(&im, p),
            |p| density(&vm, p),
            &mut runs,
        );
        for (tied, targets) in runs.iter().cloned() {
            let (Some(&[i]), Some(&[v])) = (order_i.get(tied), order_v.get(targets)) else {
                continue; // a density several mappings share decides nothing
            };
            if density(&im, i) == 0 {
                continue;
            }
            let count = vm.get(v as usize).map_or(0, |m| m.raw().items_count.get());
            match self.summaries.get(i as usize) {
                Some(Ok(IndexSummary { max: Some(max), .. })) if *max >= count => {
                    let doubt = PairingDoubt::TexelDensityMismatch {
                        max_index: *max,
                        vertex_count: count,
                    };
                    self.note(i, None, doubt);
                }
                _ => self.link(i, v, Pairing::ByTexelDensity),
            }
        }
        self.runs = runs;
        self.order_v = order_v;
        self.order_i = order_i;
    }

    /// An index mapping whose largest index + 1 is the count of exactly one free vertex mapping of
    /// its density pairs with it; ties pair in table order and are noted.
    fn pair_by_exact_count<'s>(
        &mut self,
        vm: Mappings<'_>,
        im: Mappings<'_>,
        merged: Merged<'s, '_>,
        density: Density,
    ) {
        let mut order_v = core::mem::take(&mut self.order_v);
        let mut order_i = core::mem::take(&mut self.order_i);
        let vkey = |p: u32| {
            vm.get(p as usize).map_or((0, 0), |m| {
                (density.of(m), u64::from(m.raw().items_count.get()))
            })
        };
        self.free_vertices_by(vm.len(), vkey, &mut order_v);
        order_i.clear();
        let needed = |this: &Self, p: u32| {
            let density = im.get(p as usize).map_or(0, |m| density.of(m));
            this.known_max(p).map(|max| (density, u64::from(max) + 1))
        };
        order_i.extend(
            (0..im.len())
                .map(to_u32)
                .filter(|&i| self.is_free_index(i) && needed(self, i).is_some()),
        );
        order_i.sort_unstable_by_key(|&p| (needed(self, p), p));
        let mut runs = core::mem::take(&mut self.runs);
        matching_runs(
            &order_i,
            &order_v,
            |p| needed(self, p).unwrap_or_default(),
            vkey,
            &mut runs,
        );
        for (tied, targets) in runs.iter().cloned() {
            let ki = order_i
                .get(tied.start)
                .and_then(|&i| needed(self, i))
                .unwrap_or_default();
            let tied = order_i.get(tied).unwrap_or(&[]);
            let targets = order_v.get(targets).unwrap_or(&[]);
            let Some(&i) = tied.first() else { continue };
            let tie = tied.len() > 1 || targets.len() > 1;
            // Tied index mappings with identical indices make the same meshes whichever way
            // they pair (compared value by value: ties are rare and small).
            let values = |p: u32| {
                let m = im.get(p as usize)?;
                mapping_indices(merged(m.buffer_index())?.ok()?, m).ok()
            };
            let first = values(i);
            let interchangeable = first.is_some()
                && tied.iter().all(|&p| {
                    values(p).is_some_and(|v| first.is_some_and(|f| v.iter().eq(f.iter())))
                });
            let pairing = if !tie || interchangeable {
                Pairing::ByIndexRange
            } else {
                Pairing::ByPosition
            };
            let doubt = PairingDoubt::SameVertexCount {
                vertex_count: u32::try_from(ki.1).unwrap_or(u32::MAX),
                index_mappings: to_u32(tied.len()),
                vertex_mappings: to_u32(targets.len()),
                interchangeable,
            };
            for (&i, &v) in tied.iter().zip(targets) {
                if let Some(e) = self.entries.get_mut(i as usize) {
                    *e = Entry { vertex: v, pairing };
                }
                if let Some(t) = self.vertex_taken.get_mut(v as usize) {
                    *t = true;
                }
                if tie {
                    self.notes.push(PairingNote {
                        index_mapping_position: i as usize,
                        vertex_mapping_position: Some(v as usize),
                        doubt,
                    });
                }
            }
        }
        self.runs = runs;
        self.order_v = order_v;
        self.order_i = order_i;
    }

    /// Index mappings that no vertex count matches exactly take, from the largest index down, the
    /// only free vertex mapping that holds them, or (noted) the one at the same position or the
    /// tightest.
    fn pair_by_fit(&mut self, vm: Mappings<'_>, im: Mappings<'_>, pass: Density) {
        let mut order_v = core::mem::take(&mut self.order_v);
        let mut order_i = core::mem::take(&mut self.order_i);
        let mut next_free = core::mem::take(&mut self.next_free);
        let vkey = |p: u32| {
            vm.get(p as usize)
                .map_or((0, 0), |m| (pass.of(m), m.raw().items_count.get()))
        };
        self.free_vertices_by(vm.len(), vkey, &mut order_v);
        let ikey = |this: &Self, p: u32| {
            let density = im.get(p as usize).map_or(0, |m| pass.of(m));
            (density, core::cmp::Reverse(this.known_max(p).unwrap_or(0)))
        };
        order_i.clear();
        order_i.extend(
            (0..im.len())
                .map(to_u32)
                .filter(|&i| self.is_free_index(i) && self.known_max(i).is_some()),
        );
        order_i.sort_unstable_by_key(|&p| (ikey(self, p), p));
        let mut a = 0;
        while let Some(&first) = order_i.get(a) {
            let density = ikey(self, first).0;
            let run_i = run(&order_i, a, |p| ikey(self, p).0 == density);
            // The free vertex mappings of this density, by ascending count.
            let from = order_v.partition_point(|&p| vkey(p).0 < density);
            let to = order_v.partition_point(|&p| vkey(p).0 <= density);
            let group = order_v.get(from..to).unwrap_or(&[]);
            // `next_free[k]` leads to the first untaken slot at or after `k` (with a sentinel).
            next_free.clear();
            next_free.extend((0..=group.len()).map(to_u32));
            let mut taken = 0usize;
            for &i in order_i.get(a..a + run_i).unwrap_or(&[]) {
                let max = self.known_max(i).unwrap_or(0);
                // Every slot taken so far lies at or after `lo`: maxima only decrease.
                let lo = group.partition_point(|&p| vkey(p).1 <= max);
                let candidates = (group.len() - lo).saturating_sub(taken);
                if candidates == 0 {
                    // Said once, on the last pass: an earlier one may still find a pair.
                    if pass == Density::Ignored {
                        self.note(i, None, PairingDoubt::NoneFits { max_index: max });
                    }
                    continue;
                }
                // The vertex mapping at the index mapping's position, if it is a free candidate
                // (the group is sorted by key, then position: a binary search finds it).
                let same_position = group
                    .binary_search_by_key(&(vkey(i), i), |&p| (vkey(p), p))
                    .ok()
                    .filter(|&k| k >= lo && find(&mut next_free, k) == k);
                let (slot, pairing) = match same_position {
                    Some(k) if candidates > 1 => (k, Pairing::ByPosition),
                    _ => (find(&mut next_free, lo), Pairing::ByIndexRange),
                };
                let Some(&v) = group.get(slot) else { continue };
                if let Some(n) = next_free.get_mut(slot) {
                    *n = to_u32(slot + 1);
                }
                taken += 1;
                self.link(i, v, pairing);
                if candidates > 1 {
                    let doubt = PairingDoubt::SeveralFit {
                        candidates: to_u32(candidates),
                    };
                    self.note(i, Some(v), doubt);
                }
            }
            a += run_i;
        }
        self.order_v = order_v;
        self.order_i = order_i;
        self.next_free = next_free;
    }

    /// Index mappings whose data cannot be read (or that are empty) pair by table position when
    /// the vertex mapping there is free and has the same texel density.
    fn pair_unreadable_by_position(&mut self, vm: Mappings<'_>, im: Mappings<'_>) {
        for i in 0..im.len() {
            let p = to_u32(i);
            if !self.is_free_index(p) {
                continue;
            }
            let error = match self.summaries.get(i) {
                Some(Err(e)) => Some(*e),
                Some(Ok(IndexSummary { max: None })) => None,
                _ => continue, // readable: the earlier passes decided (and noted why)
            };
            let density = im.get(i).map(|m| m.texel_density());
            let there = vm
                .get(i)
                .filter(|v| Some(v.texel_density()) == density && self.is_free_vertex(p));
            if there.is_some() {
                self.link(p, p, Pairing::ByPosition);
            }
            if let Some(e) = error {
                self.note(p, there.map(|_| p), PairingDoubt::IndexDataUnreadable(e));
            }
        }
    }
}

/// Whether a pass pairs only mappings of equal texel density.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Density {
    Matched,
    Ignored,
}

impl Density {
    /// The density a pass compares: the stored one, or 0 for all when densities are ignored.
    fn of(self, m: Mapping<'_>) -> u16 {
        match self {
            Density::Matched => m.texel_density(),
            Density::Ignored => 0,
        }
    }
}

fn draw<'a>(vm: Mappings<'a>, im: Mappings<'a>, index: usize, e: Entry) -> Option<Draw<'a>> {
    if e.vertex == NONE {
        return None;
    }
    Some(Draw {
        vertices: vm.get(e.vertex as usize)?,
        indices: im.get(index)?,
        pairing: e.pairing,
    })
}

/// Table positions fit in `u32`: the tables' counts are stored as `u32`.
fn to_u32(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// The runs of equal key that two lists sorted by key have in common: for each key both lists hold,
/// the range of each list's elements with that key, in key order.
fn matching_runs<K: Ord>(
    a: &[u32],
    b: &[u32],
    key_a: impl Fn(u32) -> K,
    key_b: impl Fn(u32) -> K,
    out: &mut Vec<(Range<usize>, Range<usize>)>,
) {
    out.clear();
    let (mut i, mut j) = (0, 0);
    while let (Some(&x), Some(&y)) = (a.get(i), b.get(j)) {
        let (kx, ky) = (key_a(x), key_b(y));
        let run_a = run(a, i, |p| key_a(p) == kx);
        let run_b = run(b, j, |p| key_b(p) == ky);
        match kx.cmp(&ky) {
            core::cmp::Ordering::Less => i += run_a,
            core::cmp::Ordering::Greater => j += run_b,
            core::cmp::Ordering::Equal => {
                out.push((i..i + run_a, j..j + run_b));
                i += run_a;
                j += run_b;
            }
        }
    }
}

/// Length of the run of elements from `start` that satisfy `same` (at least 1 when `start` is
/// inside, so every loop over runs advances).
fn run(order: &[u32], start: usize, same: impl Fn(u32) -> bool) -> usize {
    order
        .get(start..)
        .map_or(0, |rest| rest.iter().take_while(|&&p| same(p)).count())
        .max(1)
}

/// The first free slot at or after `k`, compressing the path it walked.
fn find(next_free: &mut [u32], k: usize) -> usize {
    let mut root = k;
    while let Some(&n) = next_free.get(root) {
        if n as usize == root {
            break;
        }
        root = n as usize;
    }
    let mut at = k;
    while let Some(n) = next_free.get_mut(at) {
        let next = *n as usize;
        if next == root || next == at {
            break;
        }
        *n = to_u32(root);
        at = next;
    }
    root
}

/// Decodes an ENCD index buffer into `scratch` (`Ok(true)`); a raw one is read in place later
/// (`Ok(false)`).
fn decode_if_encoded(ib: IndexBuffer<'_>, scratch: &mut Vec<u32>) -> Result<bool> {
    if ib.encoded()?.is_none() {
        return Ok(false);
    }
    let count = ib.index_count()?;
    scratch.clear();
    scratch.resize(count, 0);
    ib.decode_indices_into(scratch.as_mut_slice())?;
    Ok(true)
}

/// The indices of mapping `m` within its merged buffer's indices.
fn mapping_indices<'s>(all: Indices<'s>, m: Mapping<'_>) -> Result<Indices<'s>> {
    all.range(m.items_offset(), m.items_count())
        .ok_or(Error::invalid(
            u64_of(m.offset()),
            "MappingEntry(indices).itemsCount",
            u64_of(m.items_count()),
            "the index range runs past its merged index buffer",
        ))
}

//! World of Warships `GameParams.data`: every ship, gun, shell, aircraft and consumable of the game
//! (about 14,000 entries), read in place.
//!
//! The file's bytes reversed are a zlib stream; inflated (once, into the caller's buffer: the one
//! copy) they are a Python 2 pickle, protocol 0 in the game's files (protocols 0–2 are read). The
//! root is a list whose element 0 is the params (classic files), or a dict with the base params
//! under `''` and each region's overriding entries under its own key (game 14.9 and later). The
//! params are a dict from entry name (`PJSD012_Shimakaze_1943`) to a `GameParams.GPData` object
//! (made by `copy_reg._reconstructor`, its fields set by BUILD) with an `id` (u32), an `index`
//! (`PJSD012`), a `typeinfo` (`type`, `nation`, `species`) and everything else.
//!
//! Opening indexes the entries in one pass over the pickle's opcodes that builds no value
//! (`index.rs`): after it, look-ups by name, id and index are O(1) and allocate nothing, and an
//! entry's [`Value`] is decoded only when asked for ([`Entry::value`]), its strings borrowing the
//! pickle where they need no unescaping. Shared values (the pickle's memo) are decoded from where
//! they were put; a value containing itself is a [`Value::Ref`], never followed.
//!
//! Where its parts are: `inflate.rs` the reversed zlib layer; `pickle.rs` the opcodes;
//! `index.rs` the index pass; `value.rs` the values and their decoder; `strings.rs` the string
//! escapes; [`export`] the JSON dataminers use; `view.rs` its [`View`](crate::View) implementation;
//! `model.rs` the owned params and `write.rs` their writer (feature `write`).
//!
//! Decoding is bounded by a budget of values, so that shared values, copies and long strings
//! cannot expand a small pickle without end: each entry's own budget for [`Entry::value`] (the
//! pickle's length plus a million), or one budget for a walk over every entry
//! ([`ParamsView::walk_budget`] with [`Entry::value_within`], as an export, `check` and `diff` do:
//! a hostile file could otherwise make each entry spend a budget of its own).
//!
//! Errors name offsets in the *inflated* pickle (the file's own bytes are a zlib stream), except
//! errors of the zlib layer, which name file offsets; an error inside an entry comes with the
//! entry's name ([`ParamsError`]).
//!
//! Allocations: opening allocates the inflate buffer and the index tables (kept in the caller's
//! [`Scratch`] or [`ParamsScratch`], so that opening another file allocates nothing once they are
//! large enough); look-ups and iterating entries allocate nothing; decoding a value allocates its
//! containers.
//!
//! ```
//! # #[cfg(feature = "write")]
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! # let bytes = gamebin::synth::params::example_file();
//! use gamebin::wows::params::{ParamsScratch, ParamsView};
//!
//! let mut scratch = ParamsScratch::default();
//! let params = ParamsView::from_bytes(&bytes, &mut scratch)?;
//! let ship = params.by_name("PJSD012_Shimakaze_1943").expect("in the example");
//! assert_eq!(ship.index().as_deref(), Some("PJSD012"));
//! assert_eq!(ship.type_name().as_deref(), Some("Ship"));
//! let value = ship.value()?;
//! println!("{:?}", value.at_path("A_Hull.health"));
//!
//! // Every entry, drawing on one budget for the file.
//! let mut budget = params.walk_budget();
//! for entry in params.entries() {
//!     let value = entry.value_within(&mut budget)?;
//!     assert!(value.get("id").is_some());
//! }
//! # Ok(())
//! # }
//! # #[cfg(not(feature = "write"))]
//! # fn main() {}
//! ```

#[cfg(all(feature = "write", feature = "serde"))]
mod diff;
pub mod export;
mod index;
mod inflate;
#[cfg(feature = "write")]
pub mod model;
mod pickle;
mod strings;
mod value;
mod view;
#[cfg(feature = "write")]
pub mod write;

use core::fmt;
use std::borrow::Cow;

use flate2::Decompress;

use crate::error::{Error, Result};
use crate::view::Scratch;
use index::{EntryRec, IndexState, NONE, Span, str_bytes};

pub use index::{MAX_DEPTH, RootKind};
pub use inflate::{MAX_PICKLE, looks_reversed_zlib};
pub use strings::latin1;
pub use value::{Global, Object, Value};
pub use view::ParamsInfo;

/// What opening a GameParams keeps across files: the inflate buffer, the zlib decompressor and
/// the index's tables. Reused, opening another file allocates nothing once they are large enough.
#[derive(Default)]
pub struct ParamsScratch {
    pickle: Vec<u8>,
    state: ParamsState,
}

impl ParamsScratch {
    /// The file opened last into this scratch space, again (O(1): no inflate, no index pass);
    /// `None` when none opened, or the last open failed. For holders that keep the scratch and
    /// look entries up later (the Python package).
    pub fn opened(&self) -> Option<ParamsView<'_>> {
        let file_len = self.state.index.opened?;
        Some(ParamsView {
            pickle: self.pickle.get(..self.state.index.pickle_len)?,
            ix: &self.state.index,
            file_len,
        })
    }
}

impl fmt::Debug for ParamsScratch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ParamsScratch")
            .field("pickle", &self.state.index.pickle_len)
            .field("entries", &self.state.index.entries.len())
            .finish()
    }
}

/// The decompressor and the index, kept in a [`Scratch`] for the generic open.
#[derive(Default)]
pub(crate) struct ParamsState {
    z: Option<Decompress>,
    /// The file's bytes reversed, a chunk at a time (the inflate's input).
    chunk: Vec<u8>,
    index: IndexState,
}

impl ParamsState {
    fn open<'a>(&'a mut self, file: &[u8], pickle: &'a mut Vec<u8>) -> Result<ParamsView<'a>> {
        let z = self.z.get_or_insert_with(|| Decompress::new(true));
        self.index.opened = None;
        let len = inflate::inflate_reversed(file, pickle, &mut self.chunk, z)?;
        let pickle = pickle.get(..len).unwrap_or(&[]);
        self.index.build(pickle)?;
        self.index.finish(pickle);
        self.index.opened = Some(file.len());
        self.index.pickle_len = len;
        Ok(ParamsView {
            pickle,
            ix: &self.index,
            file_len: file.len(),
        })
    }
}

/// An error inside an entry: the entry's name with the reader's error (its offset in the inflated
/// pickle).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParamsError {
    /// The entry being read, when there is one.
    pub entry: Option<String>,
    /// The offset, the structure and why.
    pub error: Error,
}

impl fmt::Display for ParamsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.entry {
            Some(name) => write!(
                f,
                "entry {name}: {} (offset in the inflated pickle)",
                self.error
            ),
            // No entry: the file itself (its offsets are the file's, where the inflate stopped) or
            // the pickle's frame (its structures say `pickle`).
            None => write!(f, "{}", self.error),
        }
    }
}

// No `source`: the message holds the reader's error already, and a chain of causes would print
// it twice.
impl std::error::Error for ParamsError {}

/// An opened `GameParams.data`: the inflated pickle and its index of entries.
#[derive(Clone, Copy)]
pub struct ParamsView<'a> {
    pickle: &'a [u8],
    ix: &'a IndexState,
    file_len: usize,
}

impl fmt::Debug for ParamsView<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ParamsView")
            .field("file_len", &self.file_len)
            .field("pickle_len", &self.pickle.len())
            .field("entries", &self.ix.base_count)
            .field("regions", &self.ix.regions.len())
            .finish()
    }
}

impl<'a> ParamsView<'a> {
    /// Opens a `GameParams.data` file's bytes: inflates them into `scratch` and indexes the
    /// entries. A pickle damaged past its first entries opens with the entries before the damage
    /// ([`ParamsView::damage`]); use [`ParamsView::from_bytes_strict`] to refuse it.
    pub fn from_bytes(file: &[u8], scratch: &'a mut ParamsScratch) -> Result<Self> {
        scratch.state.open(file, &mut scratch.pickle)
    }

    /// [`from_bytes`](Self::from_bytes), refusing a damaged pickle with the error and the entry
    /// being read.
    pub fn from_bytes_strict(
        file: &[u8],
        scratch: &'a mut ParamsScratch,
    ) -> core::result::Result<Self, ParamsError> {
        let view =
            Self::from_bytes(file, scratch).map_err(|error| ParamsError { entry: None, error })?;
        match view.damage() {
            Some(e) => Err(e),
            None => Ok(view),
        }
    }

    /// Opens through the generic [`Scratch`] (what [`AnyView`](crate::AnyView) does).
    pub(crate) fn from_scratch(file: &[u8], scratch: &'a mut Scratch) -> Result<Self> {
        let (pickle, state) = scratch.parts::<ParamsState>();
        state.open(file, pickle)
    }

    /// The inflated pickle (every offset of the errors is into it).
    pub fn pickle(&self) -> &'a [u8] {
        self.pickle
    }

    /// The budget of decoded values for decoding every entry once (an export, a check, a
    /// diff), for [`Entry::value_within`]: eight values a byte of the pickle plus a million. The
    /// game's files take about 0.15 a byte; a file that expands beyond it through shared values
    /// or copies gets an error for each entry past it, not a walk without end.
    pub fn walk_budget(&self) -> usize {
        value::walk_budget(self.pickle.len())
    }

    /// The file's length (compressed).
    pub fn file_len(&self) -> usize {
        self.file_len
    }

    /// The pickle's protocol (0 in the game's files; from its PROTO opcode otherwise).
    pub fn protocol(&self) -> u8 {
        self.ix.protocol
    }

    /// The root's shape: a list (classic) or a dict by region.
    pub fn root_kind(&self) -> RootKind {
        self.ix.root_kind
    }

    /// Where the index pass stopped in a damaged pickle, with the entry being read then; `None`
    /// when the whole pickle was read.
    pub fn damage(&self) -> Option<ParamsError> {
        self.ix.damage.map(|d| ParamsError {
            entry: str_bytes(self.pickle, &self.ix.memo, d.entry)
                .map(|b| String::from_utf8_lossy(&b).into_owned()),
            error: d.error,
        })
    }

    /// The number of base entries.
    pub fn len(&self) -> usize {
        self.ix.base_count
    }

    /// Whether there are no base entries.
    pub fn is_empty(&self) -> bool {
        self.ix.base_count == 0
    }

    fn entry(&self, i: u32) -> Entry<'a> {
        Entry { view: *self, i }
    }

    fn rec(&self, i: u32) -> Option<&'a EntryRec> {
        self.ix.entries.get(i as usize)
    }

    /// The base entries, in the pickle's order.
    pub fn entries(&self) -> impl Iterator<Item = Entry<'a>> + use<'a> {
        let view = *self;
        (0..self.ix.entries.len() as u32)
            .filter(move |&i| view.rec(i).is_some_and(|r| r.region == 0))
            .map(move |i| view.entry(i))
    }

    /// The regions that override entries (`RU`, ...), in the pickle's order.
    pub fn regions(&self) -> impl Iterator<Item = Region<'a>> + use<'a> {
        let view = *self;
        (1..=self.ix.regions.len() as u32).map(move |region| Region { view, region })
    }

    /// The region named `name`.
    pub fn region(&self, name: &str) -> Option<Region<'a>> {
        self.regions().find(|r| r.name().as_deref() == Some(name))
    }

    fn find_name(&self, name: &[u8], region: u32) -> Option<Entry<'a>> {
        let mut found = None;
        for i in index::probe(&self.ix.by_name, strings::hash(name)) {
            let Some(rec) = self.rec(i) else { continue };
            if (rec.region == region || rec.region == 0)
                && str_bytes(self.pickle, &self.ix.memo, rec.name).is_some_and(|n| *n == *name)
            {
                if rec.region == region {
                    return Some(self.entry(i));
                }
                found = Some(self.entry(i));
            }
        }
        found
    }

    fn find_id(&self, id: u32, region: u32) -> Option<Entry<'a>> {
        let mut found = None;
        for i in index::probe(&self.ix.by_id, index::id_hash(id)) {
            let Some(rec) = self.rec(i) else { continue };
            if rec.id == Some(id) && (rec.region == region || rec.region == 0) {
                if rec.region == region {
                    return Some(self.entry(i));
                }
                found = Some(self.entry(i));
            }
        }
        found
    }

    fn find_index(&self, ix: &[u8], region: u32) -> Option<Entry<'a>> {
        let mut found = None;
        for i in index::probe(&self.ix.by_index, strings::hash(ix)) {
            let Some(rec) = self.rec(i) else { continue };
            if (rec.region == region || rec.region == 0)
                && str_bytes(self.pickle, &self.ix.memo, rec.facts.index).is_some_and(|n| *n == *ix)
            {
                if rec.region == region {
                    return Some(self.entry(i));
                }
                found = Some(self.entry(i));
            }
        }
        found
    }

    /// The base entry named `name` (O(1), no allocation).
    pub fn by_name(&self, name: &str) -> Option<Entry<'a>> {
        self.find_name(name.as_bytes(), 0)
    }

    /// The base entry whose `id` is `id`.
    pub fn by_id(&self, id: u32) -> Option<Entry<'a>> {
        self.find_id(id, 0)
    }

    /// The base entry whose `index` is `index` (`PJSD012`).
    pub fn by_index(&self, index: &str) -> Option<Entry<'a>> {
        self.find_index(index.as_bytes(), 0)
    }

    /// The entry a user names: a name, an id (decimal or `0x…`) or an index, tried in that order.
    pub fn find(&self, key: &str) -> Option<Entry<'a>> {
        find_key(
            key,
            |n| self.by_name(n),
            |id| self.by_id(id),
            |i| self.by_index(i),
        )
    }
}

fn parse_id(key: &str) -> Option<u32> {
    match key.strip_prefix("0x").or_else(|| key.strip_prefix("0X")) {
        Some(hex) => u32::from_str_radix(hex, 16).ok(),
        None => key.parse().ok(),
    }
}

fn find_key<'a>(
    key: &str,
    name: impl Fn(&str) -> Option<Entry<'a>>,
    id: impl Fn(u32) -> Option<Entry<'a>>,
    index: impl Fn(&str) -> Option<Entry<'a>>,
) -> Option<Entry<'a>> {
    name(key)
        .or_else(|| parse_id(key).and_then(&id))
        .or_else(|| index(key))
}

/// A region's overrides laid over the base params.
#[derive(Clone, Copy)]
pub struct Region<'a> {
    view: ParamsView<'a>,
    region: u32,
}

impl fmt::Debug for Region<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Region")
            .field("name", &self.name())
            .field("overrides", &self.override_count())
            .finish()
    }
}

impl<'a> Region<'a> {
    /// The region's key (`RU`).
    pub fn name(&self) -> Option<Cow<'a, str>> {
        let span = *self.view.ix.regions.get(self.region as usize - 1)?;
        let b = str_bytes(self.view.pickle, &self.view.ix.memo, span)?;
        Some(bytes_to_str(b))
    }

    /// The region's own entries (those it overrides or adds).
    pub fn overrides(&self) -> impl Iterator<Item = Entry<'a>> + use<'a> {
        let (view, region) = (self.view, self.region);
        (0..view.ix.entries.len() as u32)
            .filter(move |&i| view.rec(i).is_some_and(|r| r.region == region))
            .map(move |i| view.entry(i))
    }

    /// How many entries the region overrides or adds.
    pub fn override_count(&self) -> usize {
        self.overrides().count()
    }

    /// Every entry as the region sees it: each base entry, or the region's entry of the same
    /// name, then the region's entries the base does not have.
    pub fn entries(&self) -> impl Iterator<Item = Entry<'a>> + use<'a> {
        let this = *self;
        let base = self.view.entries().map(move |e| {
            e.name_bytes()
                .and_then(|n| this.view.find_name(&n, this.region))
                .unwrap_or(e)
        });
        let added = self.overrides().filter(move |e| {
            e.name_bytes()
                .and_then(|n| this.view.find_name(&n, 0))
                .is_none_or(|b| b.region_id() != 0)
        });
        base.chain(added)
    }

    /// The entry named `name` as the region sees it.
    pub fn by_name(&self, name: &str) -> Option<Entry<'a>> {
        self.view.find_name(name.as_bytes(), self.region)
    }

    /// The entry whose `id` is `id` as the region sees it.
    pub fn by_id(&self, id: u32) -> Option<Entry<'a>> {
        self.view.find_id(id, self.region)
    }

    /// The entry whose `index` is `index` as the region sees it.
    pub fn by_index(&self, index: &str) -> Option<Entry<'a>> {
        self.view.find_index(index.as_bytes(), self.region)
    }

    /// A name, an id (decimal or `0x…`) or an index, as the region sees it.
    pub fn find(&self, key: &str) -> Option<Entry<'a>> {
        find_key(
            key,
            |n| self.by_name(n),
            |id| self.by_id(id),
            |i| self.by_index(i),
        )
    }
}

fn bytes_to_str(b: Cow<'_, [u8]>) -> Cow<'_, str> {
    match b {
        Cow::Borrowed(b) => match core::str::from_utf8(b) {
            Ok(s) => Cow::Borrowed(s),
            Err(_) => Cow::Owned(latin1(b)),
        },
        Cow::Owned(b) => match String::from_utf8(b) {
            Ok(s) => Cow::Owned(s),
            Err(e) => Cow::Owned(latin1(e.as_bytes())),
        },
    }
}

/// One entry of the params: its name and the facts the index found, its value on demand.
#[derive(Clone, Copy)]
pub struct Entry<'a> {
    view: ParamsView<'a>,
    i: u32,
}

impl fmt::Debug for Entry<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Entry")
            .field("name", &self.name())
            .field("id", &self.id())
            .field("offset", &self.offset())
            .finish()
    }
}

impl<'a> Entry<'a> {
    fn rec(&self) -> EntryRec {
        self.view.rec(self.i).copied().unwrap_or(EntryRec::EMPTY)
    }

    fn text(&self, span: Span) -> Option<Cow<'a, str>> {
        if span.is_empty() {
            return None;
        }
        str_bytes(self.view.pickle, &self.view.ix.memo, span).map(bytes_to_str)
    }

    fn region_id(&self) -> u32 {
        self.rec().region
    }

    /// The name's bytes.
    pub fn name_bytes(&self) -> Option<Cow<'a, [u8]>> {
        str_bytes(self.view.pickle, &self.view.ix.memo, self.rec().name)
    }

    /// The entry's name (its key in the params; latin-1 when not UTF-8).
    pub fn name(&self) -> Cow<'a, str> {
        self.text(self.rec().name).unwrap_or(Cow::Borrowed(""))
    }

    /// Its `id` (a u32), when it has one.
    pub fn id(&self) -> Option<u32> {
        self.rec().id
    }

    /// Its `index` (`PJSD012`).
    pub fn index(&self) -> Option<Cow<'a, str>> {
        self.text(self.rec().facts.index)
    }

    /// Its `typeinfo.type` (`Ship`), when a string.
    pub fn type_name(&self) -> Option<Cow<'a, str>> {
        self.text(self.rec().facts.ty)
    }

    /// Its `typeinfo.nation` (`Japan`), when a string.
    pub fn nation(&self) -> Option<Cow<'a, str>> {
        self.text(self.rec().facts.nation)
    }

    /// Its `typeinfo.species` (`Destroyer`), when a string (None is common).
    pub fn species(&self) -> Option<Cow<'a, str>> {
        self.text(self.rec().facts.species)
    }

    /// The region it belongs to (`None` for a base entry).
    pub fn region(&self) -> Option<Cow<'a, str>> {
        match self.rec().region {
            0 => None,
            r => Region {
                view: self.view,
                region: r,
            }
            .name(),
        }
    }

    /// Where its value's opcodes start in the inflated pickle.
    pub fn offset(&self) -> u64 {
        u64::from(self.rec().value.start)
    }

    /// Decodes its value (an object: its class and state dict), with a budget of its own (the
    /// pickle's length plus a million values). To decode every entry, draw on one budget with
    /// [`value_within`](Self::value_within): a hostile file could make each entry spend its own.
    pub fn value(&self) -> core::result::Result<Value<'a>, ParamsError> {
        value::decode(self.view.pickle, &self.view.ix.memo, self.rec().value)
            .map_err(|error| self.error(error))
    }

    /// Decodes its value drawing on a budget of decoded values shared across entries (a whole
    /// export: shared memo values cannot expand it beyond the budget). Start from
    /// [`ParamsView::walk_budget`].
    pub fn value_within(&self, budget: &mut usize) -> core::result::Result<Value<'a>, ParamsError> {
        value::decode_with(
            self.view.pickle,
            &self.view.ix.memo,
            self.rec().value,
            budget,
        )
        .map_err(|error| self.error(error))
    }

    /// `error` as an error of this entry.
    pub fn error(&self, error: Error) -> ParamsError {
        ParamsError {
            entry: Some(self.name().into_owned()),
            error,
        }
    }
}

impl EntryRec {
    const EMPTY: EntryRec = EntryRec {
        name: Span::EMPTY,
        value: Span::EMPTY,
        region: NONE,
        owner: 0,
        facts: index::NO_FACTS,
        id: None,
        name_hash: 0,
    };
}

/// Opens a pickle that is already inflated (not reversed, not compressed), indexing it into
/// `state`: for tools that hold the pickle itself.
pub fn from_pickle<'a>(pickle: &'a [u8], scratch: &'a mut ParamsScratch) -> Result<ParamsView<'a>> {
    scratch.state.index.opened = None;
    scratch.state.index.build(pickle)?;
    scratch.state.index.finish(pickle);
    Ok(ParamsView {
        pickle,
        ix: &scratch.state.index,
        file_len: pickle.len(),
    })
}

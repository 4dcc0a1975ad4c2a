//! The index pass: one walk over the pickle's opcodes that follows the shape of its stack without
//! building a value, and records what look-ups need — each entry's name and value span, its `id`,
//! `index` and typeinfo strings, and where each memo value lies (so that a memo get decodes the
//! value it stands for later, on demand).
//!
//! A value's span is from its first opcode to the end of the last opcode that made or changed it
//! (its memo put, the set-items and appends into it, the BUILD of its state): decoding those
//! opcodes alone gives the value. Nothing else can change a value once something other than its
//! children lies above it on the stack, so spans never interleave.
//!
//! Two roles tell the entries apart without looking at values: the root (the bottom container)
//! and params dicts (a dict whose nearest container below is the root or another params dict);
//! the pairs set into a params dict are entries. Their facts come from the keys set into any dict
//! and follow the values (see `Role`), so that nothing depends on the nesting, which a stack
//! machine shows only once a value is complete.

use super::pickle::{Op, StrForm, at, read_op, text_end, text_id};
use super::strings;
use crate::error::{Error, ErrorKind, Result};

/// The deepest nesting of containers the reader follows (ships nest 6–10 levels; the bound keeps
/// a damaged file from nesting without end).
pub const MAX_DEPTH: usize = 256;
/// The most values (and marks) the pickle's stack may hold at once.
pub const MAX_STACK: usize = 1 << 16;

pub(crate) const NONE: u32 = u32::MAX;

/// A range of the pickle's bytes: where a value's opcodes start and end.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Span {
    pub start: u32,
    pub end: u32,
}

impl Span {
    pub const EMPTY: Span = Span {
        start: NONE,
        end: NONE,
    };
    pub fn is_empty(self) -> bool {
        self.start == NONE
    }
}

/// A memo slot: the span of the value put there (end `NONE` while the value is still being built)
/// and the facts found in it (a typeinfo object shared through the memo).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Memo {
    pub span: Span,
    pub facts: u32,
    /// What the string put here names as a key (`TAG_*`), 0 for anything else.
    pub tag: u8,
    /// Whether the value put here is a class or function other than the byte-string makers of
    /// CPython 3 (`copy_reg._reconstructor`): an object made by calling it is no string, which
    /// the index then knows without reading the call again.
    pub plain_global: bool,
}

const MEMO_UNSET: Memo = Memo {
    span: Span::EMPTY,
    facts: NONE,
    tag: 0,
    plain_global: false,
};

/// What an entry's state says of it, found during the pass.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Facts {
    /// The `id` value's span (an int).
    pub id: Span,
    pub index: Span,
    pub typeinfo: Span,
    /// The typeinfo's `type`, `nation` and `species`.
    pub ty: Span,
    pub nation: Span,
    pub species: Span,
    /// This dict's own `type`, `nation` and `species` keys (a TypeInfo's state; an entry may
    /// have a `type` of its own, a DogTag's `heroic`, which is not its typeinfo's).
    pub own_ty: Span,
    pub own_nation: Span,
    pub own_species: Span,
}

pub(crate) const NO_FACTS: Facts = Facts {
    id: Span::EMPTY,
    index: Span::EMPTY,
    typeinfo: Span::EMPTY,
    ty: Span::EMPTY,
    nation: Span::EMPTY,
    species: Span::EMPTY,
    own_ty: Span::EMPTY,
    own_nation: Span::EMPTY,
    own_species: Span::EMPTY,
};

/// One entry of the params (or of a region's overrides).
#[derive(Debug, Clone, Copy)]
pub(crate) struct EntryRec {
    /// The key's span (its string, resolved through the memo).
    pub name: Span,
    /// The value's span (resolved through the memo).
    pub value: Span,
    /// 0 for the base params, `k` for the region `regions[k - 1]`.
    pub region: u32,
    /// The params dict the entry was set into (while the pass runs).
    pub owner: u32,
    pub facts: Facts,
    pub id: Option<u32>,
    pub name_hash: u64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Mark,
    Scalar,
    Str,
    Int,
    Global,
    Get,
    Dict,
    List,
    Tuple,
    Object,
    /// A byte string as CPython 3 pickles one in protocols 0-2: a call of `_codecs.encode` or
    /// `bytes`. A string, not a container: a dict above it (a region's params above its key)
    /// is not inside it.
    Bytes,
}

impl Kind {
    fn is_container(self) -> bool {
        matches!(self, Kind::Dict | Kind::List | Kind::Tuple | Kind::Object)
    }
}

/// What a container is to the index: the root, a params dict (a dict whose nearest container
/// below is the root or another params dict: the base params and each region's overrides), or
/// anything else. Entries are the pairs set into a params dict; their facts come from the keys
/// set into any dict (`id`, `index`, `typeinfo`, `type`, `nation`, `species`) and flow to the
/// object a dict is the state of (BUILD), so that no role needs the nesting (which a stack
/// machine only shows once a value is complete: protocol 2 piles siblings up before a SETITEMS).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Role {
    None,
    Root,
    Params,
}

/// What a string key names, for the facts (0: nothing the index keeps).
const TAG_ID: u8 = 1;
const TAG_INDEX: u8 = 2;
const TAG_TYPEINFO: u8 = 3;
const TAG_TYPE: u8 = 4;
const TAG_NATION: u8 = 5;
const TAG_SPECIES: u8 = 6;

fn tag_of(key: &[u8]) -> u8 {
    match key {
        b"id" => TAG_ID,
        b"index" => TAG_INDEX,
        b"typeinfo" => TAG_TYPEINFO,
        b"type" => TAG_TYPE,
        b"nation" => TAG_NATION,
        b"species" => TAG_SPECIES,
        _ => 0,
    }
}

#[derive(Debug, Clone, Copy)]
struct Slot {
    start: u32,
    end: u32,
    kind: Kind,
    role: Role,
    /// The memo id put on this value, or `NONE`.
    memo: u32,
    /// For a memo get: the memo id.
    target: u32,
    /// Index into the facts, or `NONE`.
    facts: u32,
    /// Params: its id (`owner` of its entries); root list: how many values were appended.
    seq: u32,
}

impl Slot {
    /// Whether taking the slot off the stack closes nothing (no container, mark or memo value):
    /// it can be dropped without [`Pass::pop`].
    #[inline]
    fn closes_nothing(&self) -> bool {
        self.memo == NONE && !self.kind.is_container() && self.kind != Kind::Mark
    }
}

/// Where the index pass keeps its tables; kept across files in the caller's scratch space so
/// that opening another file reuses them.
#[derive(Debug, Default)]
pub struct IndexState {
    pub(crate) memo: Vec<Memo>,
    pub(crate) entries: Vec<EntryRec>,
    pub(crate) regions: Vec<Span>,
    pub(crate) facts: Vec<Facts>,
    stack: Vec<Slot>,
    open: Vec<u32>,
    /// The stack indices of the marks on it (the topmost last): no search for a mark.
    marks: Vec<u32>,
    tmp: Vec<Slot>,
    params_seen: u32,
    /// Open addressing, `NONE` for empty: entries by name, by id and by index.
    pub(crate) by_name: Vec<u32>,
    pub(crate) by_id: Vec<u32>,
    pub(crate) by_index: Vec<u32>,
    pub(crate) root_kind: RootKind,
    pub(crate) base_count: usize,
    pub(crate) protocol: u8,
    pub(crate) damage: Option<Damage>,
    /// The length of the file last opened with these tables (`None` until one opened).
    pub(crate) opened: Option<usize>,
    /// The length of its pickle (the start of the scratch's inflate buffer, which is longer).
    pub(crate) pickle_len: usize,
}

/// The shape of the root.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum RootKind {
    /// Nothing read yet.
    #[default]
    Unknown,
    /// A list whose element 0 is the params (classic files).
    List,
    /// A dict: `''` the base params, other keys a region's overrides.
    Dict,
}

/// Where the pass stopped in a damaged pickle: the error and the entry being read then.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Damage {
    pub error: Error,
    pub entry: Span,
}

/// A string value at `span`'s start (its op read again), resolved through `memo` for a get.
pub(crate) fn str_at<'a>(data: &'a [u8], memo: &[Memo], span: Span) -> Option<(StrForm, &'a [u8])> {
    let mut pos = span.start as usize;
    for _ in 0..4 {
        match read_op(data, pos).ok()?.0 {
            Op::Str(form, raw) => return Some((form, raw)),
            Op::Get(id) => {
                let m = memo.get(id as usize)?;
                if m.span.is_empty() {
                    return None;
                }
                pos = m.span.start as usize;
            }
            _ => return None,
        }
    }
    None
}

/// The bytes of the string at `span` (for keys: borrowed unless escaped).
pub(crate) fn str_bytes<'a>(
    data: &'a [u8],
    memo: &[Memo],
    span: Span,
) -> Option<std::borrow::Cow<'a, [u8]>> {
    if let Some((form, raw)) = str_at(data, memo, span) {
        return strings::decode(form, raw).ok();
    }
    // Python 3 writes bytes in protocols 0-2 as `_codecs.encode(text, 'latin1')` (and b'' as
    // `bytes()`): such a string is decoded as a value (allocating; only files CPython 3 wrote).
    if !calls_bytes_maker(data, memo, span) {
        return None;
    }
    // The decoder follows a memo get itself (a key that is a get of such a string).
    match super::value::decode(data, memo, span).ok()? {
        super::value::Value::Bytes(b) => Some(std::borrow::Cow::Owned(b.into_owned())),
        _ => None,
    }
}

/// Whether a global is `_codecs.encode` or `bytes`: what CPython 3 calls for a byte string.
fn is_bytes_maker(module: &[u8], name: &[u8]) -> bool {
    matches!(
        (module, name),
        (b"_codecs", b"encode") | (b"__builtin__" | b"builtins", b"bytes")
    )
}

/// Whether the value at `span` starts with the global `_codecs.encode` or `bytes` (through memo
/// gets): a byte string as CPython 3 pickles one.
fn calls_bytes_maker(data: &[u8], memo: &[Memo], span: Span) -> bool {
    let mut pos = span.start as usize;
    for _ in 0..4 {
        match read_op(data, pos).map(|(op, _)| op) {
            Ok(Op::Global(m, n)) => return is_bytes_maker(m, n),
            Ok(Op::Get(id)) => match memo.get(id as usize) {
                Some(m) if !m.span.is_empty() => pos = m.span.start as usize,
                _ => return false,
            },
            _ => return false,
        }
    }
    false
}

impl IndexState {
    fn reset(&mut self) {
        self.memo.clear();
        self.entries.clear();
        self.regions.clear();
        self.facts.clear();
        self.stack.clear();
        self.open.clear();
        self.marks.clear();
        self.by_name.clear();
        self.by_id.clear();
        self.by_index.clear();
        self.params_seen = 0;
        self.root_kind = RootKind::Unknown;
        self.base_count = 0;
        self.protocol = 0;
        self.damage = None;
    }

    /// Indexes `data` (the inflated pickle). A pickle damaged after its root began keeps the
    /// entries read before the damage (in `damage`); one damaged before is an error.
    pub(crate) fn build(&mut self, data: &[u8]) -> Result<()> {
        self.build_with::<true>(data)
    }

    /// [`build`](Self::build), with the pass's fast paths (`FAST`) or without them (the tests
    /// compare the two).
    fn build_with<const FAST: bool>(&mut self, data: &[u8]) -> Result<()> {
        self.reset();
        if data.len() >= NONE as usize {
            return Err(Error::invalid(
                0,
                "GameParams pickle",
                data.len() as u64,
                "an inflated pickle of 4 GiB or more is not read",
            ));
        }
        let mut pass = Pass {
            data,
            st: self,
            current: Span::EMPTY,
            current_at: NONE as usize,
        };
        let result = pass.run::<FAST>();
        let current = pass.current;
        if let Err(error) = result {
            if self.entries.is_empty() && self.stack.is_empty() {
                return Err(error);
            }
            self.damage = Some(Damage {
                error,
                entry: current,
            });
            // The entries of a params dict right above the root, which the root never took, are
            // kept as base entries: the damage cut the pickle before the root could take them.
            for e in self.entries.iter_mut() {
                if e.region == NONE && e.owner & TOP_PARAMS != 0 {
                    e.region = 0;
                }
            }
        }
        self.entries
            .retain(|e| e.region != NONE && e.region != DROPPED);
        if self.damage.is_none() && self.entries.is_empty() && self.root_kind == RootKind::Unknown {
            return Err(Error::invalid(
                0,
                "GameParams pickle root",
                0,
                "the root is neither a list (params first) nor a dict of params by region",
            ));
        }
        self.base_count = self.entries.iter().filter(|e| e.region == 0).count();
        self.stack.clear();
        self.open.clear();
        Ok(())
    }

    /// Fills the entries' ids and name hashes and builds the three look-up tables.
    pub(crate) fn finish(&mut self, data: &[u8]) {
        for e in self.entries.iter_mut() {
            e.name_hash = str_bytes(data, &self.memo, e.name).map_or(0, |b| strings::hash(&b));
            e.id = int_at(data, &self.memo, e.facts.id).and_then(|v| u32::try_from(v).ok());
        }
        let cap = (self.entries.len() * 2).next_power_of_two().max(16);
        for t in [&mut self.by_name, &mut self.by_id, &mut self.by_index] {
            t.clear();
            t.resize(cap, NONE);
        }
        for (i, e) in self.entries.iter().enumerate() {
            let i = i as u32;
            insert(&mut self.by_name, e.name_hash, i);
            if let Some(id) = e.id {
                insert(&mut self.by_id, id_hash(id), i);
            }
            if let Some(ix) = str_bytes(data, &self.memo, e.facts.index) {
                insert(&mut self.by_index, strings::hash(&ix), i);
            }
        }
    }
}

pub(crate) fn id_hash(id: u32) -> u64 {
    u64::from(id).wrapping_mul(0x9e37_79b9_7f4a_7c15)
}

fn insert(table: &mut [u32], hash: u64, value: u32) {
    let mask = table.len() - 1;
    let mut i = (hash as usize) & mask;
    for _ in 0..table.len() {
        if let Some(slot) = table.get_mut(i) {
            if *slot == NONE {
                *slot = value;
                return;
            }
        }
        i = (i + 1) & mask;
    }
}

/// The entries in `table` whose hash is `hash` (in insertion order of their probe chain), as
/// candidates the caller compares.
pub(crate) fn probe(table: &[u32], hash: u64) -> impl Iterator<Item = u32> + '_ {
    let mask = table.len().wrapping_sub(1);
    let start = (hash as usize) & mask;
    (0..table.len())
        .map(move |k| table.get((start + k) & mask).copied().unwrap_or(NONE))
        .take_while(|&v| v != NONE)
}

/// The int at `span` (an `I`/`L` text or a binary int), through the memo.
pub(crate) fn int_at(data: &[u8], memo: &[Memo], span: Span) -> Option<i64> {
    if span.is_empty() {
        return None;
    }
    let mut pos = span.start as usize;
    for _ in 0..4 {
        match read_op(data, pos).ok()?.0 {
            Op::Int(v) => return Some(v),
            Op::IntText(t) => return core::str::from_utf8(t).ok()?.trim().parse().ok(),
            // Protocol 2 writes ints past i32 (ids) as LONG1: little-endian two's complement.
            Op::LongBytes(b) if b.len() <= 8 => {
                let fill = if b.last().is_some_and(|&x| x & 0x80 != 0) {
                    0xff
                } else {
                    0
                };
                let mut a = [fill; 8];
                a.get_mut(..b.len())?.copy_from_slice(b);
                return Some(i64::from_le_bytes(a));
            }
            Op::Get(id) => pos = memo.get(id as usize)?.span.start as usize,
            _ => return None,
        }
    }
    None
}

const DROPPED: u32 = NONE - 1;
/// The flag of a params dict right above the root, in its sequence number.
const TOP_PARAMS: u32 = 1 << 31;

struct Pass<'d, 's> {
    data: &'d [u8],
    st: &'s mut IndexState,
    /// The key of the entry being read (for errors), and its stack index.
    current: Span,
    current_at: usize,
}

impl Pass<'_, '_> {
    fn err(&self, pos: usize, what: &'static str, reason: &'static str, value: u64) -> Error {
        Error::new(at(pos), what, ErrorKind::InvalidValue { value, reason })
    }

    fn underflow(&self, pos: usize, what: &'static str) -> Error {
        self.err(
            pos,
            what,
            "the opcode needs more values than the stack holds above its mark (stack underflow)",
            self.st.stack.len() as u64,
        )
    }

    /// The role of the nearest container below the top of the stack.
    fn parent_role(&self) -> Role {
        self.st
            .open
            .last()
            .and_then(|&i| self.st.stack.get(i as usize))
            .map_or(Role::None, |s| s.role)
    }

    /// A string or memo get about to be pushed at stack index `n`, from `start` to `end`: when it
    /// is a key of the params (right above a params dict, above a mark right above one, or two
    /// slots above the key before it in a batch of protocol 2's SETITEMS: key, value, key), it is
    /// the entry being read (for errors).
    #[inline(always)]
    fn note_key(&mut self, n: usize, start: usize, end: usize) {
        let below = |k: usize| n.checked_sub(k).and_then(|i| self.st.stack.get(i));
        let mark = self.st.marks.last().map_or(0, |&m| m as usize + 1);
        let is_key = match below(1) {
            Some(s) if s.role == Role::Params => true,
            Some(s) if s.kind == Kind::Mark => below(2).is_some_and(|p| p.role == Role::Params),
            _ => {
                self.current_at != NONE as usize
                    && n == self.current_at + 2
                    && mark <= self.current_at
            }
        };
        if is_key {
            self.current = Span {
                start: start as u32,
                end: end as u32,
            };
            self.current_at = n;
        }
    }

    /// [`push`](Self::push) of a value that is no container, string, memo get or mark (a number,
    /// None): nothing to work out but the slot.
    #[inline(always)]
    fn push_scalar(&mut self, pos: usize, next: usize, kind: Kind) -> Result<()> {
        if self.st.stack.len() >= MAX_STACK {
            return self.push(pos, pos, next, kind);
        }
        self.st.stack.push(Slot {
            start: pos as u32,
            end: next as u32,
            kind,
            role: Role::None,
            memo: NONE,
            target: NONE,
            facts: NONE,
            seq: 0,
        });
        Ok(())
    }

    fn push(&mut self, pos: usize, start: usize, end: usize, kind: Kind) -> Result<()> {
        // The stack's bound is the nesting's too: every level of nesting is a slot.
        if self.st.stack.len() >= MAX_STACK {
            return Err(self.err(
                pos,
                "pickle stack",
                "the pickle's stack grows beyond 65,536 values (nesting without end?)",
                self.st.stack.len() as u64,
            ));
        }
        let mut role = Role::None;
        let parent = if kind.is_container() {
            self.parent_role()
        } else {
            Role::None
        };
        if kind == Kind::Mark {
            self.st.marks.push(self.st.stack.len() as u32);
        }
        if kind.is_container() {
            role = match (self.st.open.is_empty(), parent, kind) {
                (true, _, _) => Role::Root,
                (false, Role::Root | Role::Params, Kind::Dict) => Role::Params,
                _ => Role::None,
            };
            if role == Role::Root {
                self.st.root_kind = match kind {
                    Kind::List => RootKind::List,
                    Kind::Dict => RootKind::Dict,
                    _ => RootKind::Unknown,
                };
            }
            self.st.open.push(self.st.stack.len() as u32);
        } else if matches!(kind, Kind::Str | Kind::Get | Kind::Bytes) {
            self.note_key(self.st.stack.len(), start, end);
        }
        let seq = if role == Role::Params {
            self.st.params_seen = self.st.params_seen.saturating_add(1) & !TOP_PARAMS;
            // A params dict right above the root (not one that only looks like it, above
            // another: a dict an entry is made of) is marked, for a damaged pickle's entries.
            let top = if parent == Role::Root { TOP_PARAMS } else { 0 };
            self.st.params_seen | top
        } else {
            0
        };
        self.st.stack.push(Slot {
            start: start as u32,
            end: end as u32,
            kind,
            role,
            memo: NONE,
            target: NONE,
            facts: NONE,
            seq,
        });
        Ok(())
    }

    /// Removes the top slot, closing the memo spans put on it.
    fn pop(&mut self) -> Option<Slot> {
        let s = self.st.stack.pop()?;
        if s.kind.is_container() {
            self.st.open.pop();
        }
        if s.kind == Kind::Mark {
            self.st.marks.pop();
        }
        if s.memo != NONE {
            if let Some(m) = self.st.memo.get_mut(s.memo as usize) {
                m.span.end = s.end;
                m.facts = s.facts;
            }
        }
        Some(s)
    }

    /// The stack index of the topmost mark.
    fn mark(&self, pos: usize, what: &'static str) -> Result<usize> {
        match self.st.marks.last() {
            Some(&m) => Ok(m as usize),
            None => Err(self.err(
                pos,
                what,
                "the opcode needs a mark and the stack has none",
                0,
            )),
        }
    }

    fn facts_of(&mut self, slot: usize) -> Option<usize> {
        let s = self.st.stack.get_mut(slot)?;
        if s.facts == NONE {
            s.facts = self.st.facts.len() as u32;
            self.st.facts.push(NO_FACTS);
        }
        Some(s.facts as usize)
    }

    /// The facts a value slot carries: its own, or through the memo for a get.
    fn carried_facts(&self, s: &Slot) -> u32 {
        if s.facts != NONE {
            return s.facts;
        }
        if s.kind == Kind::Get {
            return self
                .st
                .memo
                .get(s.target as usize)
                .map_or(NONE, |m| m.facts);
        }
        NONE
    }

    /// The span a value slot stands for: its own, or the memo value of a get.
    fn resolved(&self, s: &Slot) -> Span {
        if s.kind == Kind::Get {
            if let Some(m) = self.st.memo.get(s.target as usize) {
                if m.span.end != NONE {
                    return m.span;
                }
            }
        }
        Span {
            start: s.start,
            end: s.end,
        }
    }

    /// What key slot `k` names (`TAG_*`): a string read again, or the tag its memo put kept.
    fn tag(&self, k: &Slot) -> u8 {
        match k.kind {
            Kind::Get => self.st.memo.get(k.target as usize).map_or(0, |m| m.tag),
            // The names kept have no escapes: a string with one is none of them (and is not
            // unescaped here, which would allocate for every such string put in the memo).
            Kind::Str => match read_op(self.data, k.start as usize) {
                Ok((Op::Str(_, raw), _)) if !raw.contains(&b'\\') => tag_of(raw),
                _ => 0,
            },
            Kind::Object | Kind::Bytes => {
                // Most objects are calls of a class put in the memo (`g4`, every GPData): no
                // string, without reading the call's class twice through the memo.
                if let Ok((Op::Get(id), _)) = read_op(self.data, k.start as usize) {
                    if self
                        .st
                        .memo
                        .get(id as usize)
                        .is_some_and(|m| m.plain_global)
                    {
                        return 0;
                    }
                }
                let span = Span {
                    start: k.start,
                    end: k.end,
                };
                str_bytes(self.data, &self.st.memo, span).map_or(0, |b| tag_of(&b))
            }
            _ => 0,
        }
    }

    /// A key and its value set into the container at stack index `target`.
    fn set_item(&mut self, target: usize, key: Slot, value: Slot) {
        let Some(t) = self.st.stack.get(target).copied() else {
            return;
        };
        match t.role {
            Role::Params => {
                let facts = self.carried_facts(&value);
                let rec = EntryRec {
                    name: self.resolved(&key),
                    value: self.resolved(&value),
                    region: NONE,
                    owner: t.seq,
                    facts: self
                        .st
                        .facts
                        .get(facts as usize)
                        .copied()
                        .unwrap_or(NO_FACTS),
                    id: None,
                    name_hash: 0,
                };
                self.st.entries.push(rec);
                // A dict only looks like params when it is an entry made of a plain dict (above
                // the params): its keys are that entry's facts too.
            }
            Role::Root => {
                if t.kind == Kind::Dict && value.role == Role::Params {
                    let region = match str_bytes(self.data, &self.st.memo, self.resolved(&key)) {
                        Some(k) if k.is_empty() => 0,
                        _ => {
                            self.st.regions.push(self.resolved(&key));
                            self.st.regions.len() as u32
                        }
                    };
                    self.assign(value.seq, region);
                } else if value.role == Role::Params {
                    self.assign(value.seq, DROPPED);
                }
                return;
            }
            Role::None => {}
        }
        if t.kind != Kind::Dict {
            return;
        }
        // Any other dict: a key the index keeps goes to the dict's facts (an entry's state, a
        // typeinfo's state, or a dict that is an entry itself).
        let tag = self.tag(&key);
        if tag == 0 {
            return;
        }
        let span = self.resolved(&value);
        let carried = self.carried_facts(&value);
        let sub = self.st.facts.get(carried as usize).copied();
        let Some(f) = self.facts_of(target) else {
            return;
        };
        let Some(facts) = self.st.facts.get_mut(f) else {
            return;
        };
        match tag {
            TAG_ID => facts.id = span,
            TAG_INDEX => facts.index = span,
            TAG_TYPEINFO => {
                facts.typeinfo = span;
                if let Some(sub) = sub {
                    facts.ty = sub.own_ty;
                    facts.nation = sub.own_nation;
                    facts.species = sub.own_species;
                }
            }
            TAG_TYPE => facts.own_ty = span,
            TAG_NATION => facts.own_nation = span,
            _ => facts.own_species = span,
        }
    }

    /// The entries of params dict `seq` belong to `region` (or are dropped).
    fn assign(&mut self, seq: u32, region: u32) {
        for e in self.st.entries.iter_mut() {
            if e.owner == seq && e.region == NONE {
                e.region = region;
            }
        }
    }

    /// `value` appended to the container at stack index `target`.
    fn appended(&mut self, target: usize, value: &Slot) {
        let Some(t) = self.st.stack.get_mut(target) else {
            return;
        };
        if t.role != Role::Root {
            return;
        }
        let first = t.seq == 0;
        t.seq = t.seq.saturating_add(1);
        if value.role == Role::Params {
            self.assign(value.seq, if first { 0 } else { DROPPED });
        }
    }

    fn touch(&mut self, target: usize, end: usize) {
        if let Some(t) = self.st.stack.get_mut(target) {
            t.end = end as u32;
        }
    }

    /// Takes the values above the topmost mark off the stack (closing their memo spans) with
    /// the mark, into `tmp` (kept across files: no allocation once it has grown); returns the
    /// mark's index and start.
    fn take_marked(&mut self, pos: usize, what: &'static str) -> Result<(usize, u32)> {
        let m = self.mark(pos, what)?;
        let start = self.st.stack.get(m).map_or(pos as u32, |s| s.start);
        let mut tmp = core::mem::take(&mut self.st.tmp);
        tmp.clear();
        tmp.extend_from_slice(self.st.stack.get(m + 1..).unwrap_or(&[]));
        while self.st.stack.len() > m {
            self.pop();
        }
        self.st.tmp = tmp;
        Ok((m, start))
    }

    /// Builds a container of kind `kind` from the values above the topmost mark (they and the
    /// mark are consumed; a dict's pairs are set into it); the new slot starts where the mark did.
    /// Returns how many values there were.
    fn build_from_mark(
        &mut self,
        pos: usize,
        next: usize,
        kind: Kind,
        what: &'static str,
    ) -> Result<usize> {
        let (_, start) = self.take_marked(pos, what)?;
        let n = self.st.tmp.len();
        if kind == Kind::Dict && !n.is_multiple_of(2) {
            return Err(self.err(
                pos,
                what,
                "a dict needs key, value pairs: an odd count",
                n as u64,
            ));
        }
        self.push(pos, start as usize, next, kind)?;
        if kind == Kind::Dict {
            let t = self.st.stack.len() - 1;
            self.set_pairs(t);
        }
        Ok(n)
    }

    /// Sets the pairs held in `tmp` into the container at stack index `t`.
    fn set_pairs(&mut self, t: usize) {
        let tmp = core::mem::take(&mut self.st.tmp);
        for pair in tmp.chunks_exact(2) {
            self.set_item(t, pair[0], pair[1]);
        }
        self.st.tmp = tmp;
    }

    fn need(&self, n: usize, pos: usize, what: &'static str) -> Result<()> {
        let base = self.st.marks.last().map_or(0, |&m| m as usize + 1);
        if self.st.stack.len() < base + n {
            return Err(self.underflow(pos, what));
        }
        Ok(())
    }

    /// A key and value set into a plain dict in one step, when the opcodes at `pos` are the
    /// commonest triple of a protocol-0 pickle: a key that is a memo get naming nothing the index
    /// keeps or a number line, a value that is a number line, `N` or a memo get, then SETITEM;
    /// and the top of the stack is a dict that is neither the root nor params, above the topmost
    /// mark. Its effect is the three opcodes' (neither value closes anything, the key is no
    /// fact): the notes of the entry being read that the two pushes would make, and the dict's
    /// end. Returns the offset after the SETITEM, or `None` (nothing done) for anything else,
    /// which the opcodes one at a time then read.
    #[inline(always)]
    fn plain_pair(&mut self, pos: usize) -> Option<usize> {
        let data = self.data;
        let n = self.st.stack.len();
        let base = self.st.marks.last().map_or(0, |&m| m as usize + 1);
        if n < base + 1 || n + 2 > MAX_STACK {
            return None;
        }
        let t = self.st.stack.get(n - 1)?;
        if t.kind != Kind::Dict || t.role != Role::None {
            return None;
        }
        let defined = |id: u32| {
            self.st
                .memo
                .get(id as usize)
                .filter(|m| !m.span.is_empty())
                .map(|m| m.tag)
        };
        let (key_end, key_get) = match data.get(pos)? {
            b'g' => {
                let (id, end) = text_id(data, pos + 1)?;
                if defined(id)? != 0 {
                    return None;
                }
                (end, true)
            }
            _ => (text_end(data, pos + 1)?, false),
        };
        let (value_end, value_get) = match data.get(key_end)? {
            b'g' => {
                let (id, end) = text_id(data, key_end + 1)?;
                defined(id)?;
                (end, true)
            }
            b'F' | b'I' | b'L' => (text_end(data, key_end + 1)?, false),
            b'N' => (key_end + 1, false),
            _ => return None,
        };
        if data.get(value_end) != Some(&b's') {
            return None;
        }
        // What `note_key` does for a push above a slot that is neither params nor a mark.
        let mark = base;
        if key_get
            && self.current_at != NONE as usize
            && n == self.current_at + 2
            && mark <= self.current_at
        {
            self.current = Span {
                start: pos as u32,
                end: key_end as u32,
            };
            self.current_at = n;
        }
        if value_get
            && self.current_at != NONE as usize
            && n + 1 == self.current_at + 2
            && mark <= self.current_at
        {
            self.current = Span {
                start: key_end as u32,
                end: value_end as u32,
            };
            self.current_at = n + 1;
        }
        self.touch(n - 1, value_end + 1);
        Some(value_end + 1)
    }

    /// A memo get (`g`, `h`, `j`) of `id`: [`push`](Self::push) of a get, written out.
    #[inline(always)]
    fn get(&mut self, pos: usize, next: usize, id: u32) -> Result<()> {
        let defined = self
            .st
            .memo
            .get(id as usize)
            .is_some_and(|m| !m.span.is_empty());
        if !defined {
            return Err(self.err(
                pos,
                "pickle GET",
                "a memo get of an id no put defined before it",
                u64::from(id),
            ));
        }
        let n = self.st.stack.len();
        if n >= MAX_STACK {
            return self.push(pos, pos, next, Kind::Get);
        }
        self.note_key(n, pos, next);
        self.st.stack.push(Slot {
            start: pos as u32,
            end: next as u32,
            kind: Kind::Get,
            role: Role::None,
            memo: NONE,
            target: id,
            facts: NONE,
            seq: 0,
        });
        Ok(())
    }

    /// A memo put (`p`, `q`, `r`) of `id` on the top value.
    #[inline]
    fn put(&mut self, pos: usize, next: usize, id: u32) -> Result<()> {
        self.need(1, pos, "pickle PUT")?;
        let id_us = id as usize;
        let len = self.st.memo.len();
        if id_us >= len {
            // Ids are dense in every pickler; an id beyond the values the rest of the
            // pickle could make is refused before the memo grows to it.
            if id_us - len > self.data.len() - pos {
                return Err(self.err(
                    pos,
                    "pickle PUT",
                    "a memo id larger than the values the pickle could hold",
                    u64::from(id),
                ));
            }
            self.st.memo.resize(id_us + 1, MEMO_UNSET);
        }
        let Some(top) = self.st.stack.last_mut() else {
            return Err(self.underflow(pos, "pickle PUT"));
        };
        if top.memo != NONE {
            return Err(self.err(
                pos,
                "pickle PUT",
                "a value put in the memo twice (no pickler does this)",
                u64::from(id),
            ));
        }
        top.memo = id;
        top.end = next as u32;
        let top = *top;
        // A string put once and got as a key many times: what it names is read here,
        // once (a byte string as CPython 3 pickles it, a call, once too).
        let tag = match top.kind {
            Kind::Str | Kind::Object | Kind::Bytes => self.tag(&top),
            _ => 0,
        };
        let plain_global = top.kind == Kind::Global
            && matches!(read_op(self.data, top.start as usize), Ok((Op::Global(m, n), _))
                if !is_bytes_maker(m, n));
        if let Some(m) = self.st.memo.get_mut(id_us) {
            *m = Memo {
                span: Span {
                    start: top.start,
                    end: NONE,
                },
                facts: NONE,
                tag,
                plain_global,
            };
        }
        Ok(())
    }

    /// SETITEM: the key and value on top set into the dict below them.
    #[inline(always)]
    fn set_item_op(&mut self, pos: usize, next: usize) -> Result<()> {
        // Most set-items: a key that closes nothing (a memo get or a number) and names none of the
        // facts the index keeps, set into a dict that is neither the root nor params. All that
        // changes is the stack (the value's memo span and container closed, if it has them) and
        // the dict's end.
        let n = self.st.stack.len();
        let base = self.st.marks.last().map_or(0, |&m| m as usize + 1);
        if n >= base + 3 {
            if let Some(&[t, k, v]) = self.st.stack.get(n - 3..) {
                if t.kind == Kind::Dict && t.role == Role::None && k.closes_nothing() {
                    let tag = match k.kind {
                        Kind::Get => self.st.memo.get(k.target as usize).map_or(0, |m| m.tag),
                        Kind::Int | Kind::Scalar => 0,
                        _ => u8::MAX,
                    };
                    if tag == 0 {
                        // A value that is a container or a memo value (a dict of a ship's
                        // module, a list put in the memo) closes them as it goes.
                        if v.closes_nothing() {
                            self.st.stack.truncate(n - 2);
                        } else {
                            self.pop();
                            self.st.stack.truncate(n - 2);
                        }
                        self.touch(n - 3, next);
                        return Ok(());
                    }
                }
            }
        }
        self.set_item_slow(pos, next)
    }

    /// SETITEM in general.
    #[inline(never)]
    fn set_item_slow(&mut self, pos: usize, next: usize) -> Result<()> {
        self.need(3, pos, "pickle SETITEM")?;
        let n = self.st.stack.len();
        let Some(&[k, v]) = self.st.stack.get(n - 2..) else {
            return Err(self.underflow(pos, "pickle SETITEM"));
        };
        if k.closes_nothing() && v.closes_nothing() {
            // A number or a string key or value (most of them): no memo span or container to
            // close.
            self.st.stack.truncate(n - 2);
        } else {
            self.pop();
            self.pop();
        }
        let t = n - 3;
        self.check_kind(t, pos, "pickle SETITEM", &[Kind::Dict])?;
        self.set_item(t, k, v);
        self.touch(t, next);
        Ok(())
    }

    /// APPEND: the value on top appended to the list below it.
    #[inline]
    fn append(&mut self, pos: usize, next: usize) -> Result<()> {
        self.need(2, pos, "pickle APPEND")?;
        let n = self.st.stack.len();
        let Some(&v) = self.st.stack.get(n - 1) else {
            return Err(self.underflow(pos, "pickle APPEND"));
        };
        if v.closes_nothing() {
            self.st.stack.truncate(n - 1);
        } else {
            self.pop();
        }
        let t = n - 2;
        self.check_kind(t, pos, "pickle APPEND", &[Kind::List, Kind::Object])?;
        self.appended(t, &v);
        self.touch(t, next);
        Ok(())
    }

    fn run<const FAST: bool>(&mut self) -> Result<()> {
        let data = self.data;
        let mut pos = 0usize;
        loop {
            // The opcodes most of a protocol-0 pickle is made of (memo gets, set-items, number
            // lines, memo puts, marks, appends), read here in their usual form without building
            // an `Op`; anything else, or one of them in a form that is not the usual one, goes
            // through `read_op`, which reads every opcode and names what is wrong.
            if let Some(&code) = data.get(pos).filter(|_| FAST) {
                if matches!(code, b'g' | b'I' | b'F' | b'L') {
                    if let Some(next) = self.plain_pair(pos) {
                        pos = next;
                        continue;
                    }
                }
                let p = pos + 1;
                let fast = match code {
                    b'g' => match text_id(data, p) {
                        Some((id, next)) => {
                            self.get(pos, next, id)?;
                            Some(next)
                        }
                        None => None,
                    },
                    b's' => {
                        self.set_item_op(pos, p)?;
                        Some(p)
                    }
                    b'F' => match text_end(data, p) {
                        Some(next) => {
                            self.push_scalar(pos, next, Kind::Scalar)?;
                            Some(next)
                        }
                        None => None,
                    },
                    b'I' | b'L' => match text_end(data, p) {
                        Some(next) => {
                            self.push_scalar(pos, next, Kind::Int)?;
                            Some(next)
                        }
                        None => None,
                    },
                    b'p' => match text_id(data, p) {
                        Some((id, next)) => {
                            self.put(pos, next, id)?;
                            Some(next)
                        }
                        None => None,
                    },
                    b'(' => {
                        self.push(pos, pos, p, Kind::Mark)?;
                        Some(p)
                    }
                    b'a' => {
                        self.append(pos, p)?;
                        Some(p)
                    }
                    b'N' => {
                        self.push_scalar(pos, p, Kind::Scalar)?;
                        Some(p)
                    }
                    _ => None,
                };
                if let Some(next) = fast {
                    pos = next;
                    continue;
                }
            }
            let (op, next) = read_op(data, pos)?;
            match op {
                Op::Proto(v) => {
                    if pos != 0 {
                        return Err(self.err(pos, "pickle PROTO", "PROTO after the start", 0));
                    }
                    self.st.protocol = v;
                }
                Op::Stop => {
                    if self.st.stack.len() != 1 || self.st.stack[0].kind == Kind::Mark {
                        return Err(self.err(
                            pos,
                            "pickle STOP",
                            "the pickle stops with other than one value on its stack",
                            self.st.stack.len() as u64,
                        ));
                    }
                    self.pop();
                    if next != data.len() {
                        return Err(self.err(
                            next,
                            "pickle STOP",
                            "bytes follow the pickle's STOP opcode",
                            (data.len() - next) as u64,
                        ));
                    }
                    return Ok(());
                }
                Op::Mark => self.push(pos, pos, next, Kind::Mark)?,
                Op::Pop => {
                    if self.pop().is_none() {
                        return Err(self.underflow(pos, "pickle POP"));
                    }
                }
                Op::PopMark => {
                    self.take_marked(pos, "pickle POP_MARK")?;
                }
                Op::Dup => {
                    self.need(1, pos, "pickle DUP")?;
                    let Some(&top) = self.st.stack.last() else {
                        return Err(self.underflow(pos, "pickle DUP"));
                    };
                    self.push(pos, top.start as usize, top.end as usize, top.kind)?;
                }
                Op::IntText(_) | Op::Int(_) | Op::LongBytes(_) => {
                    self.push(pos, pos, next, Kind::Int)?
                }
                Op::Bool(_) | Op::FloatText(_) | Op::Float(_) | Op::None => {
                    self.push(pos, pos, next, Kind::Scalar)?
                }
                Op::Str(..) => self.push(pos, pos, next, Kind::Str)?,
                Op::Global(..) => self.push(pos, pos, next, Kind::Global)?,
                Op::EmptyList => self.push(pos, pos, next, Kind::List)?,
                Op::EmptyDict => self.push(pos, pos, next, Kind::Dict)?,
                Op::EmptyTuple => self.push(pos, pos, next, Kind::Tuple)?,
                Op::List => {
                    self.build_from_mark(pos, next, Kind::List, "pickle LIST")?;
                }
                Op::Tuple => {
                    self.build_from_mark(pos, next, Kind::Tuple, "pickle TUPLE")?;
                }
                Op::Dict => {
                    self.build_from_mark(pos, next, Kind::Dict, "pickle DICT")?;
                }
                Op::Inst(..) => {
                    self.build_from_mark(pos, next, Kind::Object, "pickle INST")?;
                }
                Op::Obj => {
                    if self.build_from_mark(pos, next, Kind::Object, "pickle OBJ")? == 0 {
                        return Err(self.underflow(pos, "pickle OBJ"));
                    }
                }
                Op::TupleN(n) => {
                    let n = usize::from(n);
                    self.need(n, pos, "pickle TUPLE1/2/3")?;
                    let mut start = pos as u32;
                    for _ in 0..n {
                        if let Some(s) = self.pop() {
                            start = s.start;
                        }
                    }
                    self.push(pos, start as usize, next, Kind::Tuple)?;
                }
                Op::Append => self.append(pos, next)?,
                Op::Appends => {
                    let (m, _) = self.take_marked(pos, "pickle APPENDS")?;
                    if m == 0 {
                        return Err(self.underflow(pos, "pickle APPENDS"));
                    }
                    let t = m - 1;
                    self.check_kind(t, pos, "pickle APPENDS", &[Kind::List, Kind::Object])?;
                    let tmp = core::mem::take(&mut self.st.tmp);
                    for v in &tmp {
                        self.appended(t, v);
                    }
                    self.st.tmp = tmp;
                    self.touch(t, next);
                }
                Op::SetItem => self.set_item_op(pos, next)?,
                Op::SetItems => {
                    let (m, _) = self.take_marked(pos, "pickle SETITEMS")?;
                    if m == 0 {
                        return Err(self.underflow(pos, "pickle SETITEMS"));
                    }
                    let n = self.st.tmp.len();
                    if !n.is_multiple_of(2) {
                        return Err(self.err(
                            pos,
                            "pickle SETITEMS",
                            "set-items needs key, value pairs: an odd count",
                            n as u64,
                        ));
                    }
                    let t = m - 1;
                    self.check_kind(t, pos, "pickle SETITEMS", &[Kind::Dict])?;
                    self.set_pairs(t);
                    self.touch(t, next);
                }
                Op::Get(id) => self.get(pos, next, id)?,
                Op::Put(id) => self.put(pos, next, id)?,
                Op::Reduce | Op::NewObj => {
                    let what = if op == Op::Reduce {
                        "pickle REDUCE"
                    } else {
                        "pickle NEWOBJ"
                    };
                    self.need(2, pos, what)?;
                    let (Some(args), Some(callable)) = (self.pop(), self.pop()) else {
                        return Err(self.underflow(pos, what));
                    };
                    // A class or function called with a tuple (or memo gets of them): anything
                    // else is damage the value decoder would meet later.
                    if !matches!(callable.kind, Kind::Global | Kind::Get)
                        || !matches!(args.kind, Kind::Tuple | Kind::Get)
                    {
                        return Err(self.err(
                            pos,
                            what,
                            "the opcode calls a value that is not a class or function, or not with a tuple",
                            0,
                        ));
                    }
                    let kind = if op == Op::Reduce && self.makes_bytes(&callable) {
                        Kind::Bytes
                    } else {
                        Kind::Object
                    };
                    self.push(pos, callable.start as usize, next, kind)?;
                }
                Op::Build => {
                    self.need(2, pos, "pickle BUILD")?;
                    let Some(state) = self.pop() else {
                        return Err(self.underflow(pos, "pickle BUILD"));
                    };
                    let t = self.st.stack.len() - 1;
                    self.check_kind(t, pos, "pickle BUILD", &[Kind::Object])?;
                    let carried = self.carried_facts(&state);
                    if let Some(obj) = self.st.stack.get_mut(t) {
                        if carried != NONE {
                            obj.facts = carried;
                        }
                        obj.end = next as u32;
                    }
                }
            }
            pos = next;
        }
    }

    /// Whether `callable` (a global or a memo get) is `_codecs.encode` or `bytes`; a get of a
    /// class the memo knows for one (every `copy_reg._reconstructor` after the first) is not
    /// read again.
    fn makes_bytes(&self, callable: &Slot) -> bool {
        if callable.kind == Kind::Get
            && self
                .st
                .memo
                .get(callable.target as usize)
                .is_none_or(|m| m.plain_global)
        {
            return false;
        }
        let span = Span {
            start: callable.start,
            end: callable.end,
        };
        calls_bytes_maker(self.data, &self.st.memo, span)
    }

    /// The slot at `t` must be one of `kinds` (a get of one counts: its value is not known here).
    fn check_kind(&self, t: usize, pos: usize, what: &'static str, kinds: &[Kind]) -> Result<()> {
        match self.st.stack.get(t) {
            Some(s) if kinds.contains(&s.kind) || s.kind == Kind::Get => Ok(()),
            Some(s) if s.kind == Kind::Mark => Err(self.underflow(pos, what)),
            Some(_) => Err(self.err(
                pos,
                what,
                "the opcode's target is not a container it can fill",
                t as u64,
            )),
            None => Err(self.underflow(pos, what)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Everything the pass leaves for the view, and its result.
    fn summary(data: &[u8], fast: bool) -> String {
        let mut st = IndexState::default();
        let result = if fast {
            st.build_with::<true>(data)
        } else {
            st.build_with::<false>(data)
        };
        format!(
            "{result:?} {:?} {:?} {:?} {:?} {:?} {:?} {} {}",
            st.entries,
            st.memo,
            st.regions,
            st.facts,
            st.damage,
            st.root_kind,
            st.base_count,
            st.protocol
        )
    }

    /// The fast paths of the pass change nothing: on the fixtures (protocol 0, classic and by
    /// region) whole, cut short at every length up to 3,000 bytes and then every 211th, and with
    /// a byte changed every 97th (to each opcode the fast paths read, and to others).
    #[test]
    fn fast_paths_change_nothing() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/wows-gameparams");
        for name in ["GameParams.data", "regional.GameParams.data"] {
            let file = std::fs::read(dir.join(name)).unwrap();
            // An entry that is a plain dict (its keys right above it, where the error's entry
            // is worked out from the stack's shape), keys and values of every kind the fast
            // path takes, and a list.
            let plain = b"(lp0\n(dp1\nS'e1'\np2\n(dp3\ng2\nI1\nsI5\nF1.0\nsF2.5\nNsg2\ng2\nsL7L\nI01\nsS'x'\n(lp4\nF1.0\naI2\nasssS'e2'\np5\n(dp6\ng5\ng2\nssa.";
            for cut in 0..=plain.len() {
                let data = &plain[..cut];
                assert_eq!(
                    summary(data, true),
                    summary(data, false),
                    "plain cut at {cut}"
                );
            }
            let mut pickle = Vec::new();
            let mut chunk = Vec::new();
            let mut z = flate2::Decompress::new(true);
            let n = super::super::inflate::inflate_reversed(&file, &mut pickle, &mut chunk, &mut z)
                .unwrap();
            pickle.truncate(n);
            let same = |data: &[u8], what: &str| {
                assert_eq!(summary(data, true), summary(data, false), "{name}: {what}");
            };
            same(&pickle, "whole");
            let cuts = (0..pickle.len().min(3_000)).chain((3_000..pickle.len()).step_by(211));
            for cut in cuts {
                same(&pickle[..cut], &format!("cut at {cut}"));
            }
            let swaps = b"gIFLNsSp(ad.x\n0123456789";
            for (k, at) in (0..pickle.len()).step_by(97).enumerate() {
                let mut bad = pickle.clone();
                bad[at] = swaps[k % swaps.len()];
                same(&bad, &format!("byte {at} changed"));
            }
        }
    }
}

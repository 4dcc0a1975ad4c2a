//! Values decoded on demand from a span of the pickle: [`Value`] borrows the pickle's bytes where
//! a string needs no unescaping, and a memo get decodes the value its memo slot stands for (a
//! value that refers to itself is a [`Value::Ref`], never followed).

use std::borrow::Cow;

use super::index::{MAX_DEPTH, Memo, NONE, Span};
use super::pickle::{Op, StrForm, at, read_op};
use super::strings;
use crate::error::{Error, ErrorKind, Result};

/// A Python value of the pickle.
#[derive(Debug, Clone, PartialEq)]
pub enum Value<'a> {
    /// `None`
    None,
    /// `True`/`False` (`I01`/`I00`, NEWTRUE/NEWFALSE)
    Bool(bool),
    /// An int or long that fits i64 (ids are u32: they fit).
    Int(i64),
    /// An int or long beyond i64, as its exact decimal digits (with `-` when negative).
    BigInt(Cow<'a, str>),
    /// A float.
    Float(f64),
    /// A Python 2 byte string (`str`): UTF-8 in the game's newer files; see [`Value::as_str`].
    Bytes(Cow<'a, [u8]>),
    /// A unicode string.
    Str(Cow<'a, str>),
    /// A tuple.
    Tuple(Vec<Value<'a>>),
    /// A list.
    List(Vec<Value<'a>>),
    /// A set or frozenset (`__builtin__.set([...])`), in the pickle's order.
    Set(Vec<Value<'a>>),
    /// A dict, its pairs in the pickle's order (keys of any kind).
    Dict(Vec<(Value<'a>, Value<'a>)>),
    /// An object (`GameParams.GPData`, `GameParams.TypeInfo`, …) with its class and state.
    Object(Box<Object<'a>>),
    /// A class or function named by the pickle and not called.
    Global(Global<'a>),
    /// A reference to a value that contains it (a cycle): the memo id of the value, not followed.
    Ref(u32),
}

/// A class or function the pickle names (`GameParams.GPData`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Global<'a> {
    /// The module (`GameParams`, `copy_reg`, `__builtin__`).
    pub module: &'a [u8],
    /// The name in the module.
    pub name: &'a [u8],
}

impl Global<'_> {
    fn is(&self, module: &[u8], name: &[u8]) -> bool {
        self.module == module && self.name == name
    }
}

impl core::fmt::Display for Global<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(
            f,
            "{}.{}",
            String::from_utf8_lossy(self.module),
            String::from_utf8_lossy(self.name)
        )
    }
}

/// An object: its class, the arguments it was made with (other than `_reconstructor`'s) and the
/// state BUILD gave it (a GPData's state is its dict of fields).
#[derive(Debug, Clone, PartialEq)]
pub struct Object<'a> {
    /// The class (`GameParams.GPData`).
    pub class: Global<'a>,
    /// The arguments of its construction, when they are not `_reconstructor`'s (cls, base, state).
    pub args: Vec<Value<'a>>,
    /// The state set by BUILD, if any.
    pub state: Option<Value<'a>>,
}

impl<'a> Value<'a> {
    /// The text of a string: a unicode string, or a byte string that is UTF-8.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::Str(s) => Some(s),
            Value::Bytes(b) => core::str::from_utf8(b).ok(),
            _ => None,
        }
    }

    /// The int, when it is one that fits i64.
    pub fn as_int(&self) -> Option<i64> {
        match self {
            Value::Int(v) => Some(*v),
            _ => None,
        }
    }

    /// The fields of a dict, or of an object's state dict: what dataminers see of a GPData.
    pub fn fields(&self) -> Option<&[(Value<'a>, Value<'a>)]> {
        match self {
            Value::Dict(d) => Some(d),
            Value::Object(o) => o.state.as_ref()?.fields(),
            _ => None,
        }
    }

    /// The value under the string key `key` in a dict or an object's state.
    pub fn get(&self, key: &str) -> Option<&Value<'a>> {
        self.fields()?
            .iter()
            .find(|(k, _)| k.as_str() == Some(key))
            .map(|(_, v)| v)
    }

    /// The value at a dotted path (`A_Hull.health`); a part that is a number also indexes a list
    /// or tuple, and matches an int key.
    pub fn at_path(&self, path: &str) -> Option<&Value<'a>> {
        let mut v = self;
        for part in path.split('.').filter(|p| !p.is_empty()) {
            v = match v {
                Value::List(items) | Value::Tuple(items) | Value::Set(items) => {
                    items.get(part.parse::<usize>().ok()?)?
                }
                _ => match v.get(part) {
                    Some(x) => x,
                    None => {
                        let n: i64 = part.parse().ok()?;
                        v.fields()?
                            .iter()
                            .find(|(k, _)| k.as_int() == Some(n))
                            .map(|(_, x)| x)?
                    }
                },
            };
        }
        Some(v)
    }

    /// How many byte strings in this value (keys included) are not UTF-8.
    pub fn non_utf8_strings(&self) -> usize {
        match self {
            Value::Bytes(b) => usize::from(core::str::from_utf8(b).is_err()),
            Value::Tuple(v) | Value::List(v) | Value::Set(v) => {
                v.iter().map(Value::non_utf8_strings).sum()
            }
            Value::Dict(d) => d
                .iter()
                .map(|(k, v)| k.non_utf8_strings() + v.non_utf8_strings())
                .sum(),
            Value::Object(o) => {
                o.args.iter().map(Value::non_utf8_strings).sum::<usize>()
                    + o.state.as_ref().map_or(0, Value::non_utf8_strings)
            }
            _ => 0,
        }
    }
}

/// The most values one decode makes, counting each time a shared memo value is decoded again
/// (so that values sharing values sharing values cannot expand without end): the pickle's
/// length plus a million. A value's share of it is [`cost`].
fn budget(len: usize) -> usize {
    len.saturating_add(1 << 20)
}

/// The budget for decoding every entry of a file once (an export, a check, a diff): eight values
/// a byte of the pickle plus a million. The game's files take about 0.15 a byte (the synthetic
/// full-scale file and both samples; files CPython 3 re-pickled, 0.45).
pub(crate) fn walk_budget(len: usize) -> usize {
    len.saturating_mul(8).saturating_add(1 << 20)
}

/// Bytes of owned string one unit of the budget pays for: a string unescaped into a buffer of
/// its own costs by its length, so that copies of one long string (a memo value got again and
/// again, a DUP) count as the bytes they take, not as one value each.
const STRING_BYTES_PER_UNIT: usize = 32;

/// What `v` alone costs the budget, its contents aside: one, and one more for each
/// [`STRING_BYTES_PER_UNIT`] bytes of string it owns.
fn cost(v: &Value<'_>) -> usize {
    let owned = match v {
        Value::Str(Cow::Owned(s)) | Value::BigInt(Cow::Owned(s)) => s.len(),
        Value::Bytes(Cow::Owned(b)) => b.len(),
        _ => 0,
    };
    1 + owned / STRING_BYTES_PER_UNIT
}

/// Takes from `budget` what a copy of `v` costs: [`cost`] of each value in it. False (the
/// budget then spent) when the copy costs more than is left: the walk stops there, so that
/// walking costs no more than the budget it takes.
fn charge_copy(v: &Value<'_>, budget: &mut usize) -> bool {
    let Some(left) = budget.checked_sub(cost(v)) else {
        *budget = 0;
        return false;
    };
    *budget = left;
    match v {
        Value::Tuple(items) | Value::List(items) | Value::Set(items) => {
            items.iter().all(|item| charge_copy(item, budget))
        }
        Value::Dict(pairs) => pairs
            .iter()
            .all(|(k, v)| charge_copy(k, budget) && charge_copy(v, budget)),
        Value::Object(o) => {
            o.args.iter().all(|a| charge_copy(a, budget))
                && o.state.as_ref().is_none_or(|s| charge_copy(s, budget))
        }
        _ => true,
    }
}

struct Frame {
    resume: usize,
    end: usize,
    base: usize,
    marks: usize,
    memo: u32,
}

/// Decodes the value whose opcodes are `span` of `data`.
pub(crate) fn decode<'a>(data: &'a [u8], memo: &[Memo], span: Span) -> Result<Value<'a>> {
    let mut budget = budget(data.len());
    decode_with(data, memo, span, &mut budget)
}

/// [`decode`] drawing on a budget of values shared by several decodes (a whole file's export).
pub(crate) fn decode_with<'a>(
    data: &'a [u8],
    memo: &[Memo],
    span: Span,
    budget: &mut usize,
) -> Result<Value<'a>> {
    let mut d = Decoder {
        data,
        memo,
        stack: Vec::new(),
        marks: Vec::new(),
        frames: Vec::new(),
        budget,
    };
    d.run(span)
}

struct Decoder<'a, 'm, 'b> {
    data: &'a [u8],
    memo: &'m [Memo],
    /// Values with their nesting depth.
    stack: Vec<(Value<'a>, u16)>,
    marks: Vec<usize>,
    frames: Vec<Frame>,
    budget: &'b mut usize,
}

fn invalid(pos: usize, what: &'static str, reason: &'static str, value: u64) -> Error {
    Error::new(at(pos), what, ErrorKind::InvalidValue { value, reason })
}

fn over_budget(pos: usize) -> Error {
    invalid(
        pos,
        "pickle value",
        "the value expands beyond its decode's budget of values (for one entry the pickle's length plus a million; for a walk over every entry eight a byte plus a million) through shared memo values, copies or long strings",
        0,
    )
}

/// `items` (key, value, key, value…) appended to `pairs` as pairs; an odd count is refused (DICT
/// and SETITEMS, `what`), `pairs` then left as it was.
fn pair_up<'a>(
    items: Vec<Value<'a>>,
    pairs: &mut Vec<(Value<'a>, Value<'a>)>,
    pos: usize,
    what: &'static str,
) -> Result<()> {
    if !items.len().is_multiple_of(2) {
        return Err(invalid(
            pos,
            what,
            "key, value pairs needed: an odd count",
            items.len() as u64,
        ));
    }
    let mut it = items.into_iter();
    while let (Some(k), Some(v)) = (it.next(), it.next()) {
        pairs.push((k, v));
    }
    Ok(())
}

/// An object of `class` made from `args`, its state not yet set (BUILD sets it).
fn new_object<'a>(class: Global<'a>, args: Vec<Value<'a>>) -> Value<'a> {
    Value::Object(Box::new(Object {
        class,
        args,
        state: None,
    }))
}

fn parse_int(text: &[u8], pos: usize) -> Result<Value<'_>> {
    let bad = || {
        invalid(
            pos,
            "pickle INT",
            "not a decimal integer",
            text.len() as u64,
        )
    };
    let s = core::str::from_utf8(text).map_err(|_| bad())?.trim();
    if let Ok(v) = s.parse::<i64>() {
        return Ok(Value::Int(v));
    }
    let digits = s.strip_prefix('-').unwrap_or(s);
    let digits = digits.strip_prefix('+').unwrap_or(digits);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(bad());
    }
    Ok(Value::BigInt(Cow::Borrowed(s)))
}

/// A little-endian two's-complement long (LONG1/LONG4) as an int or its decimal digits.
fn long_bytes(bytes: &[u8]) -> Value<'static> {
    if bytes.is_empty() {
        return Value::Int(0);
    }
    if bytes.len() <= 8 {
        let neg = bytes.last().is_some_and(|&b| b & 0x80 != 0);
        let mut a = [if neg { 0xff } else { 0 }; 8];
        a[..bytes.len()].copy_from_slice(bytes);
        return Value::Int(i64::from_le_bytes(a));
    }
    // Beyond i64: the magnitude in base 10^9 limbs (the bytes bound the work).
    let neg = bytes.last().is_some_and(|&b| b & 0x80 != 0);
    let mut mag: Vec<u8> = bytes.to_vec();
    if neg {
        // Two's complement negation.
        let mut carry = 1u16;
        for b in mag.iter_mut() {
            let v = u16::from(!*b) + carry;
            *b = v as u8;
            carry = v >> 8;
        }
    }
    let mut limbs: Vec<u32> = Vec::new();
    for &byte in mag.iter().rev() {
        let mut carry = u64::from(byte);
        for l in limbs.iter_mut() {
            let v = u64::from(*l) * 256 + carry;
            *l = (v % 1_000_000_000) as u32;
            carry = v / 1_000_000_000;
        }
        while carry > 0 {
            limbs.push((carry % 1_000_000_000) as u32);
            carry /= 1_000_000_000;
        }
    }
    let mut s = String::new();
    if neg {
        s.push('-');
    }
    match limbs.split_last() {
        None => s.push('0'),
        Some((top, rest)) => {
            s.push_str(&top.to_string());
            for l in rest.iter().rev() {
                s.push_str(&format!("{l:09}"));
            }
        }
    }
    Value::BigInt(Cow::Owned(s))
}

fn parse_float(text: &[u8], pos: usize) -> Result<f64> {
    let bad = || invalid(pos, "pickle FLOAT", "not a float", text.len() as u64);
    let s = core::str::from_utf8(text).map_err(|_| bad())?.trim();
    match s {
        "nan" | "-nan" => Ok(f64::NAN),
        "inf" => Ok(f64::INFINITY),
        "-inf" => Ok(f64::NEG_INFINITY),
        _ => s.parse::<f64>().map_err(|_| bad()),
    }
}

impl<'a> Decoder<'a, '_, '_> {
    fn push(&mut self, pos: usize, v: Value<'a>, depth: u16) -> Result<()> {
        if *self.budget == 0 {
            return Err(over_budget(pos));
        }
        *self.budget -= 1;
        if usize::from(depth) > MAX_DEPTH {
            return Err(invalid(
                pos,
                "pickle nesting",
                "values nest deeper than 256 levels",
                u64::from(depth),
            ));
        }
        if self.stack.len() >= super::index::MAX_STACK {
            return Err(invalid(
                pos,
                "pickle stack",
                "the pickle's stack grows beyond 65,536 values",
                self.stack.len() as u64,
            ));
        }
        self.stack.push((v, depth));
        Ok(())
    }

    /// Takes from the budget what `v`, a string or long just decoded, owns beyond the one unit
    /// its push takes (see [`cost`]).
    fn charge_owned(&mut self, pos: usize, v: &Value<'_>) -> Result<()> {
        let extra = cost(v) - 1;
        match self.budget.checked_sub(extra) {
            Some(left) => *self.budget = left,
            None => return Err(over_budget(pos)),
        }
        Ok(())
    }

    fn floor(&self) -> usize {
        let m = self.marks.last().copied().unwrap_or(0);
        let f = self.frames.last().map_or(0, |f| f.base);
        m.max(f)
    }

    /// Refuses opcode `what` when the stack holds no value above the innermost mark or frame.
    fn above_floor(&self, pos: usize, what: &'static str, reason: &'static str) -> Result<()> {
        if self.stack.len() <= self.floor() {
            return Err(invalid(pos, what, reason, self.stack.len() as u64));
        }
        Ok(())
    }

    fn pop(&mut self, pos: usize, what: &'static str) -> Result<(Value<'a>, u16)> {
        self.above_floor(
            pos,
            what,
            "the opcode needs more values than the stack holds above its mark (stack underflow)",
        )?;
        self.stack
            .pop()
            .ok_or_else(|| invalid(pos, what, "stack underflow", 0))
    }

    fn take_marked(&mut self, pos: usize, what: &'static str) -> Result<(Vec<Value<'a>>, u16)> {
        let frame_marks = self.frames.last().map_or(0, |f| f.marks);
        if self.marks.len() <= frame_marks {
            return Err(invalid(
                pos,
                what,
                "the opcode needs a mark and the stack has none",
                0,
            ));
        }
        let m = self.marks.pop().unwrap_or(0);
        let items = self.stack.split_off(m.min(self.stack.len()));
        let depth = items.iter().map(|(_, d)| *d).max().unwrap_or(0);
        Ok((items.into_iter().map(|(v, _)| v).collect(), depth))
    }

    fn top(&mut self, pos: usize, what: &'static str) -> Result<&mut (Value<'a>, u16)> {
        self.above_floor(pos, what, "stack underflow: no container to fill")?;
        self.stack
            .last_mut()
            .ok_or_else(|| invalid(pos, what, "stack underflow", 0))
    }

    /// The dict on top of the stack that SETITEM or SETITEMS (`what`) fills, with its depth.
    fn dict_on_top(
        &mut self,
        pos: usize,
        what: &'static str,
    ) -> Result<(&mut Vec<(Value<'a>, Value<'a>)>, &mut u16)> {
        match self.top(pos, what)? {
            (Value::Dict(pairs), depth) => Ok((pairs, depth)),
            _ => Err(invalid(pos, what, "items set in a value not a dict", 0)),
        }
    }

    /// The list on top of the stack that APPEND or APPENDS (`what`) fills, with its depth.
    fn list_on_top(
        &mut self,
        pos: usize,
        what: &'static str,
    ) -> Result<(&mut Vec<Value<'a>>, &mut u16)> {
        match self.top(pos, what)? {
            (Value::List(list), depth) => Ok((list, depth)),
            _ => Err(invalid(pos, what, "appended to a value not a list", 0)),
        }
    }

    fn run(&mut self, span: Span) -> Result<Value<'a>> {
        let data = self.data;
        if span.is_empty() || span.end == NONE || span.start > span.end {
            return Err(invalid(
                span.start as usize,
                "pickle value",
                "the value's span is not known (a value still being built)",
                0,
            ));
        }
        let mut pos = span.start as usize;
        let mut end = span.end as usize;
        loop {
            if pos >= end {
                if pos > end {
                    return Err(invalid(
                        end,
                        "pickle value",
                        "an opcode runs past the value's end",
                        0,
                    ));
                }
                let base = self.frames.last().map_or(0, |f| f.base);
                let marks = self.frames.last().map_or(0, |f| f.marks);
                if self.stack.len() != base + 1 || self.marks.len() != marks {
                    return Err(invalid(
                        pos,
                        "pickle value",
                        "the value's opcodes leave other than one value",
                        self.stack.len().saturating_sub(base) as u64,
                    ));
                }
                match self.frames.pop() {
                    Some(f) => {
                        pos = f.resume;
                        end = f.end;
                        continue;
                    }
                    None => {
                        return Ok(self.stack.pop().map(|(v, _)| v).unwrap_or(Value::None));
                    }
                }
            }
            let (op, next) = read_op(data, pos)?;
            match op {
                Op::Proto(_) | Op::Put(_) => {}
                Op::Stop => {
                    return Err(invalid(pos, "pickle STOP", "STOP inside a value", 0));
                }
                Op::Mark => self.marks.push(self.stack.len()),
                Op::Pop => {
                    let frame_marks = self.frames.last().map_or(0, |f| f.marks);
                    if self.marks.len() > frame_marks
                        && self.marks.last() == Some(&self.stack.len())
                    {
                        self.marks.pop();
                    } else {
                        self.pop(pos, "pickle POP")?;
                    }
                }
                Op::PopMark => {
                    self.take_marked(pos, "pickle POP_MARK")?;
                }
                Op::Dup => {
                    // The copy is whole: it costs what its every value costs (doubling a value
                    // again and again would otherwise cost one each time).
                    self.above_floor(pos, "pickle DUP", "stack underflow: nothing to copy")?;
                    let Some((top, depth)) = self.stack.last() else {
                        return Err(invalid(pos, "pickle DUP", "stack underflow", 0));
                    };
                    if !charge_copy(top, self.budget) {
                        return Err(over_budget(pos));
                    }
                    let copy = (top.clone(), *depth);
                    // The copy's outermost value was charged with the rest; its push takes one.
                    *self.budget = self.budget.saturating_add(1);
                    self.push(pos, copy.0, copy.1)?;
                }
                Op::IntText(t) => {
                    let v = parse_int(t, pos)?;
                    self.push(pos, v, 0)?;
                }
                Op::Int(v) => self.push(pos, Value::Int(v), 0)?,
                Op::LongBytes(b) => {
                    let v = long_bytes(b);
                    self.charge_owned(pos, &v)?;
                    self.push(pos, v, 0)?;
                }
                Op::Bool(b) => self.push(pos, Value::Bool(b), 0)?,
                Op::FloatText(t) => {
                    let f = parse_float(t, pos)?;
                    self.push(pos, Value::Float(f), 0)?;
                }
                Op::Float(f) => self.push(pos, Value::Float(f), 0)?,
                Op::None => self.push(pos, Value::None, 0)?,
                Op::Str(form, raw) => {
                    let bytes = strings::decode(form, raw).map_err(|(_, reason)| {
                        invalid(pos, "pickle string", reason, raw.len() as u64)
                    })?;
                    let v = match form {
                        StrForm::Escaped | StrForm::Raw => Value::Bytes(bytes),
                        StrForm::Utf8 | StrForm::RawUnicodeEscape => match bytes {
                            Cow::Borrowed(b) => match core::str::from_utf8(b) {
                                Ok(s) => Value::Str(Cow::Borrowed(s)),
                                Err(_) => {
                                    return Err(invalid(
                                        pos,
                                        "pickle BINUNICODE",
                                        "not UTF-8",
                                        b.len() as u64,
                                    ));
                                }
                            },
                            Cow::Owned(b) => match String::from_utf8(b) {
                                Ok(s) => Value::Str(Cow::Owned(s)),
                                Err(_) => {
                                    return Err(invalid(pos, "pickle UNICODE", "not UTF-8", 0));
                                }
                            },
                        },
                    };
                    if matches!(v, Value::Str(Cow::Owned(_)) | Value::Bytes(Cow::Owned(_))) {
                        self.charge_owned(pos, &v)?;
                    }
                    self.push(pos, v, 0)?;
                }
                Op::Global(module, name) => {
                    self.push(pos, Value::Global(Global { module, name }), 0)?
                }
                Op::EmptyList => self.push(pos, Value::List(Vec::new()), 1)?,
                Op::EmptyDict => self.push(pos, Value::Dict(Vec::new()), 1)?,
                Op::EmptyTuple => self.push(pos, Value::Tuple(Vec::new()), 1)?,
                Op::List => {
                    let (items, d) = self.take_marked(pos, "pickle LIST")?;
                    self.push(pos, Value::List(items), d + 1)?;
                }
                Op::Tuple => {
                    let (items, d) = self.take_marked(pos, "pickle TUPLE")?;
                    self.push(pos, Value::Tuple(items), d + 1)?;
                }
                Op::Dict => {
                    const WHAT: &str = "pickle DICT";
                    let (items, d) = self.take_marked(pos, WHAT)?;
                    let mut pairs = Vec::with_capacity(items.len() / 2);
                    pair_up(items, &mut pairs, pos, WHAT)?;
                    self.push(pos, Value::Dict(pairs), d + 1)?;
                }
                Op::TupleN(n) => {
                    let mut items = Vec::with_capacity(usize::from(n));
                    let mut d = 0;
                    for _ in 0..n {
                        let (v, vd) = self.pop(pos, "pickle TUPLE1/2/3")?;
                        d = d.max(vd);
                        items.push(v);
                    }
                    items.reverse();
                    self.push(pos, Value::Tuple(items), d + 1)?;
                }
                Op::Append => {
                    const WHAT: &str = "pickle APPEND";
                    let (v, d) = self.pop(pos, WHAT)?;
                    let (list, depth) = self.list_on_top(pos, WHAT)?;
                    list.push(v);
                    *depth = (*depth).max(d + 1);
                }
                Op::Appends => {
                    const WHAT: &str = "pickle APPENDS";
                    let (items, d) = self.take_marked(pos, WHAT)?;
                    let (list, depth) = self.list_on_top(pos, WHAT)?;
                    list.extend(items);
                    *depth = (*depth).max(d + 1);
                }
                Op::SetItem => {
                    const WHAT: &str = "pickle SETITEM";
                    let (v, vd) = self.pop(pos, WHAT)?;
                    let (k, kd) = self.pop(pos, WHAT)?;
                    let (pairs, depth) = self.dict_on_top(pos, WHAT)?;
                    pairs.push((k, v));
                    *depth = (*depth).max(vd.max(kd) + 1);
                }
                Op::SetItems => {
                    const WHAT: &str = "pickle SETITEMS";
                    let (items, d) = self.take_marked(pos, WHAT)?;
                    let (pairs, depth) = self.dict_on_top(pos, WHAT)?;
                    pair_up(items, pairs, pos, WHAT)?;
                    *depth = (*depth).max(d + 1);
                }
                Op::Get(id) => {
                    let m = self.memo.get(id as usize).copied();
                    let Some(m) = m.filter(|m| !m.span.is_empty()) else {
                        return Err(invalid(
                            pos,
                            "pickle GET",
                            "a memo get of an id no put defined",
                            u64::from(id),
                        ));
                    };
                    let inside = (m.span.start as usize) <= pos
                        && (m.span.end == NONE || pos < m.span.end as usize);
                    let cycle = inside || self.frames.iter().any(|f| f.memo == id);
                    if cycle {
                        self.push(pos, Value::Ref(id), 0)?;
                    } else {
                        if self.frames.len() >= MAX_DEPTH {
                            return Err(invalid(
                                pos,
                                "pickle GET",
                                "memo values refer to memo values deeper than 256 levels",
                                u64::from(id),
                            ));
                        }
                        self.frames.push(Frame {
                            resume: next,
                            end,
                            base: self.stack.len(),
                            marks: self.marks.len(),
                            memo: id,
                        });
                        pos = m.span.start as usize;
                        end = m.span.end as usize;
                        continue;
                    }
                }
                Op::Reduce => {
                    let (args, ad) = self.pop(pos, "pickle REDUCE")?;
                    let (callable, _) = self.pop(pos, "pickle REDUCE")?;
                    let Value::Global(g) = callable else {
                        return Err(invalid(
                            pos,
                            "pickle REDUCE",
                            "REDUCE of a value that is not a class or function",
                            0,
                        ));
                    };
                    let Value::Tuple(args) = args else {
                        return Err(invalid(
                            pos,
                            "pickle REDUCE",
                            "REDUCE's arguments are not a tuple",
                            0,
                        ));
                    };
                    let (v, d) = reduce(g, args, ad, pos)?;
                    self.push(pos, v, d)?;
                }
                Op::NewObj => {
                    let (args, ad) = self.pop(pos, "pickle NEWOBJ")?;
                    let (cls, _) = self.pop(pos, "pickle NEWOBJ")?;
                    let (Value::Global(class), Value::Tuple(args)) = (cls, args) else {
                        return Err(invalid(
                            pos,
                            "pickle NEWOBJ",
                            "NEWOBJ needs a class and a tuple",
                            0,
                        ));
                    };
                    self.push(pos, new_object(class, args), ad + 1)?;
                }
                Op::Inst(module, name) => {
                    let (args, d) = self.take_marked(pos, "pickle INST")?;
                    let class = Global { module, name };
                    self.push(pos, new_object(class, args), d + 1)?;
                }
                Op::Obj => {
                    let (mut items, d) = self.take_marked(pos, "pickle OBJ")?;
                    if items.is_empty() {
                        return Err(invalid(
                            pos,
                            "pickle OBJ",
                            "OBJ needs a class after its mark",
                            0,
                        ));
                    }
                    let Value::Global(class) = items.remove(0) else {
                        return Err(invalid(
                            pos,
                            "pickle OBJ",
                            "OBJ's first value is not a class",
                            0,
                        ));
                    };
                    self.push(pos, new_object(class, items), d + 1)?;
                }
                Op::Build => {
                    let (state, sd) = self.pop(pos, "pickle BUILD")?;
                    let (t, td) = self.top(pos, "pickle BUILD")?;
                    match t {
                        Value::Object(o) => o.state = Some(state),
                        _ => {
                            return Err(invalid(
                                pos,
                                "pickle BUILD",
                                "BUILD on a value that is not an object",
                                0,
                            ));
                        }
                    }
                    *td = (*td).max(sd + 1);
                }
            }
            pos = next;
        }
    }
}

/// A REDUCE: `copy_reg._reconstructor(cls, base, state)` makes an object of `cls`; `set`/
/// `frozenset` of a list make a set; anything else is an object of the callable with its args.
fn reduce<'a>(
    g: Global<'a>,
    mut args: Vec<Value<'a>>,
    ad: u16,
    pos: usize,
) -> Result<(Value<'a>, u16)> {
    if g.is(b"copy_reg", b"_reconstructor") || g.is(b"copyreg", b"_reconstructor") {
        if let Some(Value::Global(class)) = args.first() {
            let class = *class;
            return Ok((new_object(class, Vec::new()), 1));
        }
        return Err(invalid(
            pos,
            "pickle REDUCE",
            "_reconstructor's first argument is not a class",
            0,
        ));
    }
    // Python 3 pickles bytes in protocols 0-2 as `_codecs.encode(text, 'latin1')`: the bytes.
    if g.is(b"_codecs", b"encode") && args.len() == 2 {
        let latin1 = args
            .get(1)
            .and_then(Value::as_str)
            .is_some_and(|e| matches!(e, "latin1" | "latin-1" | "iso-8859-1" | "iso8859-1"));
        if let (true, Some(text)) = (latin1, args.first().and_then(Value::as_str)) {
            let bytes: Option<Vec<u8>> = text
                .chars()
                .map(|c| u8::try_from(u32::from(c)).ok())
                .collect();
            return match bytes {
                Some(b) => Ok((Value::Bytes(Cow::Owned(b)), 0)),
                None => Err(invalid(
                    pos,
                    "pickle REDUCE",
                    "_codecs.encode of text beyond latin-1",
                    0,
                )),
            };
        }
    }
    let builtin = |name: &[u8]| g.is(b"__builtin__", name) || g.is(b"builtins", name);
    if builtin(b"bytes") && args.is_empty() {
        return Ok((Value::Bytes(Cow::Borrowed(b"")), 0));
    }
    let set = [b"__builtin__".as_slice(), b"builtins"]
        .iter()
        .any(|m| g.is(m, b"set") || g.is(m, b"frozenset"));
    if set && args.len() <= 1 {
        return Ok(match args.pop() {
            None => (Value::Set(Vec::new()), 1),
            Some(Value::List(items) | Value::Tuple(items) | Value::Set(items)) => {
                (Value::Set(items), ad)
            }
            Some(_) => {
                return Err(invalid(
                    pos,
                    "pickle REDUCE",
                    "set() of a value that is not a list",
                    0,
                ));
            }
        });
    }
    Ok((new_object(g, args), ad + 1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn longs_beyond_i64_keep_their_digits() {
        assert_eq!(long_bytes(&[0xff]), Value::Int(-1));
        assert_eq!(long_bytes(&[0x00, 0x01]), Value::Int(256));
        // 2^64 = 18446744073709551616
        let v = long_bytes(&[0, 0, 0, 0, 0, 0, 0, 0, 1]);
        assert_eq!(v, Value::BigInt(Cow::Owned("18446744073709551616".into())));
        // -2^64
        let v = long_bytes(&[0, 0, 0, 0, 0, 0, 0, 0, 0xff]);
        assert_eq!(v, Value::BigInt(Cow::Owned("-18446744073709551616".into())));
        assert_eq!(
            parse_int(b"123456789012345678901234", 0).unwrap(),
            Value::BigInt(Cow::Borrowed("123456789012345678901234"))
        );
        assert_eq!(parse_int(b"4183734032", 0).unwrap(), Value::Int(4183734032));
        assert!(parse_int(b"12x", 0).is_err());
    }
}

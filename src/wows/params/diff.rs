//! Two GameParams compared by entry: entries added and removed (by name), and each changed value
//! by its path (`PJSD012_Shimakaze_1943.A_Hull.health: 19800 -> 20100`), values as their JSON.
//! Objects compare by their state (as dataminers' JSON shows them); lists and tuples by position.
//!
//! Most entries do not change between two game versions, and decoding both sides of each would be
//! most of the work: an entry whose opcodes are the same on both sides (memo ids aside, see
//! [`SameOps`]) is known equal without being decoded.

use super::export::json::{Layout, key_text, write_value};
use super::index::{Memo, NONE, Span};
use super::pickle::{Op, read_op};
use super::value::Value;
use super::{ParamsError, ParamsView};
use crate::diff::{Change, Report};

fn json(v: &Value<'_>) -> String {
    let mut out = Vec::new();
    let _ = write_value(&mut out, v, Layout::Compact, 0);
    String::from_utf8_lossy(&out).into_owned()
}

/// What a value compares as: an object as its state.
fn seen<'v, 'a>(v: &'v Value<'a>) -> &'v Value<'a> {
    match v {
        Value::Object(o) => o.state.as_ref().map_or(v, seen),
        _ => v,
    }
}

fn compare(path: &str, a: &Value<'_>, b: &Value<'_>, out: &mut Vec<Change>) {
    let (a, b) = (seen(a), seen(b));
    match (a, b) {
        (Value::Dict(x), Value::Dict(y)) => {
            for (k, va) in x {
                let name = format!("{path}.{}", key_text(k));
                match y.iter().find(|(kb, _)| kb == k) {
                    Some((_, vb)) => compare(&name, va, vb, out),
                    None => out.push(Change::removed(name, json(va))),
                }
            }
            for (k, vb) in y {
                if !x.iter().any(|(ka, _)| ka == k) {
                    out.push(Change::added(format!("{path}.{}", key_text(k)), json(vb)));
                }
            }
        }
        (Value::List(x), Value::List(y)) | (Value::Tuple(x), Value::Tuple(y))
            if x.len() == y.len() =>
        {
            for (i, (va, vb)) in x.iter().zip(y).enumerate() {
                compare(&format!("{path}.{i}"), va, vb, out);
            }
        }
        _ => {
            if a != b {
                out.push(Change::changed(path, json(a), json(b)));
            }
        }
    }
}

/// Whether two values' opcodes are the same, but for the memo ids they use: a memo id is only
/// where a pickler happened to number a shared value, and one entry added early in a file
/// renumbers every later one. A put inside the value pairs its two ids (a get of either must then
/// be of the other); a get of a value put outside it compares that value the same way, once per
/// pair. `false` when in doubt (a pairing that breaks, nesting past [`SameOps::MAX_DEPTH`], an
/// opcode that does not read): the caller then decodes both values and compares those.
struct SameOps<'a> {
    a: &'a [u8],
    b: &'a [u8],
    memo_a: &'a [Memo],
    memo_b: &'a [Memo],
    /// For each memo id of `a`: its partner in `b` while inside the value that puts it, or
    /// `NONE`.
    paired: Vec<u32>,
    /// For each memo id of `a` put outside the values compared: the id of `b` found equal to it
    /// (`NONE`: not compared, or not equal).
    equal: Vec<u32>,
}

impl<'a> SameOps<'a> {
    /// How deep a get of a value put elsewhere (which may get another) is followed.
    const MAX_DEPTH: u32 = 32;

    fn new(old: &ParamsView<'a>, new: &ParamsView<'a>) -> Self {
        SameOps {
            a: old.pickle,
            b: new.pickle,
            memo_a: &old.ix.memo,
            memo_b: &new.ix.memo,
            paired: vec![NONE; old.ix.memo.len()],
            equal: vec![NONE; old.ix.memo.len()],
        }
    }

    fn same(&mut self, a: Span, b: Span, depth: u32) -> bool {
        if a.is_empty() || b.is_empty() || depth > Self::MAX_DEPTH {
            return false;
        }
        let (mut pa, mut pb) = (a.start as usize, b.start as usize);
        let (ea, eb) = (a.end as usize, b.end as usize);
        // The ids this value puts, to unpair when it ends (an id may be put again elsewhere).
        let mut puts: Vec<u32> = Vec::new();
        let same = loop {
            match (pa < ea, pb < eb) {
                (false, false) => break true,
                (true, true) => {}
                _ => break false,
            }
            let (Ok((oa, na)), Ok((ob, nb))) = (read_op(self.a, pa), read_op(self.b, pb)) else {
                break false;
            };
            (pa, pb) = (na, nb);
            let ok = match (oa, ob) {
                (Op::Put(x), Op::Put(y)) => match self.paired.get_mut(x as usize) {
                    Some(slot) => {
                        *slot = y;
                        puts.push(x);
                        true
                    }
                    None => false,
                },
                (Op::Get(x), Op::Get(y)) => match self.paired.get(x as usize).copied() {
                    Some(NONE) => self.same_memo(x, y, depth),
                    Some(partner) => partner == y,
                    None => false,
                },
                (oa, ob) => oa == ob,
            };
            if !ok {
                break false;
            }
        };
        for x in puts {
            if let Some(slot) = self.paired.get_mut(x as usize) {
                *slot = NONE;
            }
        }
        same
    }

    /// Whether memo value `x` of `a`, put outside the value being compared, is the same as memo
    /// value `y` of `b`.
    fn same_memo(&mut self, x: u32, y: u32, depth: u32) -> bool {
        if self.equal.get(x as usize) == Some(&y) {
            return true;
        }
        let (Some(ma), Some(mb)) = (self.memo_a.get(x as usize), self.memo_b.get(y as usize))
        else {
            return false;
        };
        let (sa, sb) = (ma.span, mb.span);
        if sa.end == NONE || sb.end == NONE {
            return false;
        }
        let same = self.same(sa, sb, depth + 1);
        if same {
            if let Some(slot) = self.equal.get_mut(x as usize) {
                *slot = y;
            }
        }
        same
    }
}

/// The changes from `old` to `new` (base entries).
pub fn files(old: &ParamsView<'_>, new: &ParamsView<'_>) -> Result<Report, ParamsError> {
    let mut changes = Vec::new();
    let mut same_ops = SameOps::new(old, new);
    let (mut budget_old, mut budget_new) = (old.walk_budget(), new.walk_budget());
    for e in old.entries() {
        let name = e.name();
        match new.by_name(&name) {
            None => changes.push(Change::removed(name.into_owned(), "entry")),
            Some(n) => {
                if same_ops.same(e.rec().value, n.rec().value, 0) {
                    continue;
                }
                let va = e.value_within(&mut budget_old)?;
                let vb = n.value_within(&mut budget_new)?;
                compare(&name, &va, &vb, &mut changes);
            }
        }
    }
    for n in new.entries() {
        if old.by_name(&n.name()).is_none() {
            changes.push(Change::added(n.name().into_owned(), "entry"));
        }
    }
    Ok(Report::new(
        <ParamsView<'_> as crate::View<'_>>::NAME,
        changes,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::wows::params::model::{ParamsModel, PyValue};
    use crate::wows::params::{ParamsScratch, RootKind};

    fn file(entries: &[(&str, PyValue)]) -> Vec<u8> {
        ParamsModel {
            root: RootKind::List,
            entries: entries
                .iter()
                .map(|(n, v)| (n.to_string(), v.clone()))
                .collect(),
            regions: Vec::new(),
        }
        .to_bytes()
        .expect("the writer writes it")
    }

    fn dict(pairs: &[(&str, &str)]) -> PyValue {
        PyValue::Dict(
            pairs
                .iter()
                .map(|(k, v)| (PyValue::s(k), PyValue::s(v)))
                .collect(),
        )
    }

    /// The diff's lines, and for each entry of `old` also in `new`, whether its opcodes were
    /// found the same (so not decoded).
    fn diff(old: &[u8], new: &[u8]) -> (Vec<String>, Vec<(String, bool)>) {
        let (mut sa, mut sb) = (ParamsScratch::default(), ParamsScratch::default());
        let a = ParamsView::from_bytes(old, &mut sa).expect("opens");
        let b = ParamsView::from_bytes(new, &mut sb).expect("opens");
        let lines = files(&a, &b)
            .expect("compares")
            .changes
            .iter()
            .map(ToString::to_string)
            .collect();
        let mut same_ops = SameOps::new(&a, &b);
        let skipped = a
            .entries()
            .filter_map(|e| {
                let n = b.by_name(&e.name())?;
                let same = same_ops.same(e.rec().value, n.rec().value, 0);
                Some((e.name().into_owned(), same))
            })
            .collect();
        (lines, skipped)
    }

    #[test]
    fn entries_renumbered_by_an_added_entry_are_the_same_without_decoding() {
        let a = dict(&[("health", "19800"), ("speed", "fast")]);
        let b = dict(&[("health", "19800"), ("armour", "thin")]);
        let old = file(&[("A", a.clone()), ("B", b.clone())]);
        // An entry first, with strings of its own: every memo id of A and B moves.
        let new = file(&[("Z", dict(&[("zz", "zzz")])), ("A", a), ("B", b)]);
        let (lines, same) = diff(&old, &new);
        assert_eq!(lines, ["+ Z: entry"]);
        assert_eq!(same, [("A".into(), true), ("B".into(), true)]);
    }

    #[test]
    fn a_shared_string_that_changed_is_a_change_where_the_bytes_are_the_same() {
        // B's value is two gets of strings A put: the same bytes in both files, though the
        // string A put changed, and with it B's value.
        let old = file(&[("A", dict(&[("k", "x")])), ("B", dict(&[("k", "x")]))]);
        let new = file(&[("A", dict(&[("k", "y")])), ("B", dict(&[("k", "y")]))]);
        let (lines, same) = diff(&old, &new);
        assert_eq!(lines, ["~ A.k: \"x\" -> \"y\"", "~ B.k: \"x\" -> \"y\""]);
        assert_eq!(same, [("A".into(), false), ("B".into(), false)]);
    }

    #[test]
    fn a_get_of_another_string_of_the_same_entry_is_a_change() {
        // `c` gets the string put for `a` in one file and the one put for `b` in the other: the
        // same opcodes but for the id of one get, which pairs with another put.
        let old = file(&[("A", dict(&[("a", "x"), ("b", "y"), ("c", "x")]))]);
        let new = file(&[("A", dict(&[("a", "x"), ("b", "y"), ("c", "y")]))]);
        let (lines, same) = diff(&old, &new);
        assert_eq!(lines, ["~ A.c: \"x\" -> \"y\""]);
        assert_eq!(same, [("A".into(), false)]);
    }

    #[test]
    fn an_update_lists_exactly_what_it_changed() {
        let old_model = crate::synth::params::model(300);
        let new_model = crate::synth::params::update(&old_model);
        // What the update did, from the two models (not from the diff).
        let names =
            |m: &ParamsModel| -> Vec<String> { m.entries.iter().map(|(n, _)| n.clone()).collect() };
        let (old_names, new_names) = (names(&old_model), names(&new_model));
        let mut want: Vec<String> = Vec::new();
        for (name, value) in &old_model.entries {
            let Some((_, after)) = new_model.entries.iter().find(|(n, _)| n == name) else {
                want.push(format!("- {name}: entry"));
                continue;
            };
            let fields = |v: &PyValue| match v {
                PyValue::Object(o) => match &o.state {
                    Some(PyValue::Dict(f)) => f.clone(),
                    _ => Vec::new(),
                },
                _ => Vec::new(),
            };
            for ((k, x), (_, y)) in fields(value).iter().zip(fields(after).iter()) {
                if let (PyValue::Bytes(k), PyValue::Int(x), PyValue::Int(y)) = (k, x, y) {
                    if x != y {
                        let k = String::from_utf8_lossy(k);
                        want.push(format!("~ {name}.{k}: {x} -> {y}"));
                    }
                }
            }
        }
        for name in new_names.iter().filter(|n| !old_names.contains(n)) {
            want.push(format!("+ {name}: entry"));
        }
        assert!(
            want.len() > 40,
            "the update changes enough to test: {want:?}"
        );
        let (lines, same) = diff(
            &old_model.to_bytes().expect("writes"),
            &new_model.to_bytes().expect("writes"),
        );
        assert_eq!(lines, want);
        // Every entry the update left alone was found the same without being decoded.
        let unchanged = same.iter().filter(|(_, s)| *s).count();
        let changed_entries = want.iter().filter(|l| l.starts_with('~')).count();
        assert_eq!(unchanged + changed_entries, same.len());
    }
}

//! Two GameParams compared by entry: entries added and removed (by name), and each changed value
//! by its path (`PJSD012_Shimakaze_1943.A_Hull.health: 19800 -> 20100`), values as their JSON.
//! Objects compare by their state (as dataminers' JSON shows them); lists and tuples by position.

use super::json::{Layout, key_text, write_value};
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

/// The changes from `old` to `new` (base entries).
pub fn files(old: &ParamsView<'_>, new: &ParamsView<'_>) -> Result<Report, ParamsError> {
    let mut changes = Vec::new();
    for e in old.entries() {
        let name = e.name();
        match new.by_name(&name) {
            None => changes.push(Change::removed(name.into_owned(), "entry")),
            Some(n) => {
                let (va, vb) = (e.value()?, n.value()?);
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

//! Two owned models compared through their serde form: objects by key, arrays by position or by a
//! key the format chooses (an entry's path, an object's id), leaves by value. What the formats'
//! `diff` modules share; each picks the keys that make a change readable for its format.

use serde_json::Value;

use super::Change;

/// The longest text a change shows for one side; longer values (a whole added subtree) are cut.
const SHOWN: usize = 240;

/// A value as one line: strings as JSON writes them, structures as compact JSON, cut at
/// [`SHOWN`] characters.
pub(crate) fn shown(v: &Value) -> String {
    let mut text = v.to_string();
    if text.chars().count() > SHOWN {
        text = text.chars().take(SHOWN).collect::<String>() + "…";
    }
    text
}

/// `path/key`, or `key` at the top.
pub(crate) fn join(path: &str, key: &str) -> String {
    if path.is_empty() {
        key.to_string()
    } else {
        format!("{path}/{key}")
    }
}

/// Every difference between `a` and `b` under `path`: objects by key (keys in `a`'s order, then
/// those only in `b`), arrays by position, anything else by value.
pub(crate) fn compare(path: &str, a: &Value, b: &Value, changes: &mut Vec<Change>) {
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            for (key, va) in x {
                match y.get(key) {
                    Some(vb) => compare(&join(path, key), va, vb, changes),
                    None => changes.push(Change::removed(join(path, key), shown(va))),
                }
            }
            for (key, vb) in y {
                if !x.contains_key(key) {
                    changes.push(Change::added(join(path, key), shown(vb)));
                }
            }
        }
        (Value::Array(x), Value::Array(y)) => {
            for (i, (va, vb)) in x.iter().zip(y).enumerate() {
                compare(&join(path, &i.to_string()), va, vb, changes);
            }
            for (i, va) in x.iter().enumerate().skip(y.len()) {
                changes.push(Change::removed(join(path, &i.to_string()), shown(va)));
            }
            for (i, vb) in y.iter().enumerate().skip(x.len()) {
                changes.push(Change::added(join(path, &i.to_string()), shown(vb)));
            }
        }
        _ if a != b => changes.push(Change::changed(path, shown(a), shown(b))),
        _ => {}
    }
}

/// Two lists of `(key, value)` compared by key: each key of `a` in order (removed, or compared
/// with `b`'s value of the same key), then the keys only in `b` (added). A key repeated within one
/// list is told apart by its occurrence (`key#2`). Linear: one hash map of `b`'s keys.
pub(crate) fn compare_keyed(
    path: &str,
    a: Vec<(String, Value)>,
    b: Vec<(String, Value)>,
    changes: &mut Vec<Change>,
) {
    let numbered = |items: Vec<(String, Value)>| {
        let mut seen = std::collections::HashMap::<String, usize>::new();
        items
            .into_iter()
            .map(|(key, value)| {
                let n = seen.entry(key.clone()).or_insert(0);
                *n += 1;
                let key = if *n == 1 { key } else { format!("{key}#{n}") };
                (key, value)
            })
            .collect::<Vec<_>>()
    };
    let (a, b) = (numbered(a), numbered(b));
    let mut in_b: std::collections::HashMap<&str, &Value> =
        b.iter().map(|(k, v)| (k.as_str(), v)).collect();
    for (key, va) in &a {
        match in_b.remove(key.as_str()) {
            Some(vb) => compare(&join(path, key), va, vb, changes),
            None => changes.push(Change::removed(join(path, key), shown(va))),
        }
    }
    for (key, vb) in &b {
        if in_b.contains_key(key.as_str()) {
            changes.push(Change::added(join(path, key), shown(vb)));
        }
    }
}

/// A model as its serde value (the models' serializations cannot fail: no maps with non-string
/// keys, no custom errors; a failure is shown as the value `null` rather than hidden).
pub(crate) fn to_value<T: serde::Serialize>(model: &T) -> Value {
    serde_json::to_value(model).unwrap_or(Value::Null)
}

/// Removes `keys` from an object (fields a comparison handles itself, or positions in the file
/// that shift whenever anything before them changes).
pub(crate) fn without(mut v: Value, keys: &[&str]) -> Value {
    if let Value::Object(map) = &mut v {
        for key in keys {
            map.remove(*key);
        }
    }
    v
}

/// Removes `key` from every object within `v` (a file position that appears at every level).
pub(crate) fn without_anywhere(mut v: Value, key: &str) -> Value {
    fn strip(v: &mut Value, key: &str) {
        match v {
            Value::Object(map) => {
                map.remove(key);
                map.values_mut().for_each(|v| strip(v, key));
            }
            Value::Array(items) => items.iter_mut().for_each(|v| strip(v, key)),
            _ => {}
        }
    }
    strip(&mut v, key);
    v
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diff::ChangeKind;
    use serde_json::json;

    #[test]
    fn objects_by_key_arrays_by_position() {
        let mut changes = Vec::new();
        compare(
            "",
            &json!({"a": 1, "b": [1, 2], "c": {"x": true}}),
            &json!({"a": 2, "b": [1], "d": "new"}),
            &mut changes,
        );
        let got: Vec<(String, ChangeKind)> =
            changes.iter().map(|c| (c.path.clone(), c.kind)).collect();
        assert_eq!(
            got,
            vec![
                ("a".to_string(), ChangeKind::Changed),
                ("b/1".to_string(), ChangeKind::Removed),
                ("c".to_string(), ChangeKind::Removed),
                ("d".to_string(), ChangeKind::Added),
            ]
        );
    }

    #[test]
    fn keyed_lists_tell_repeated_keys_apart() {
        let mut changes = Vec::new();
        compare_keyed(
            "objects",
            vec![
                ("1".into(), json!(1)),
                ("1".into(), json!(2)),
                ("2".into(), json!(3)),
            ],
            vec![
                ("2".into(), json!(3)),
                ("1".into(), json!(1)),
                ("3".into(), json!(4)),
            ],
            &mut changes,
        );
        let got: Vec<String> = changes.iter().map(ToString::to_string).collect();
        assert_eq!(got, vec!["- objects/1#2: 2", "+ objects/3: 4"]);
    }

    #[test]
    fn long_values_are_cut() {
        let long = Value::String("x".repeat(1000));
        assert!(shown(&long).chars().count() <= SHOWN + 1);
    }
}

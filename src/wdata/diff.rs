//! Rusty Hearts `.wdata` maps compared by section and entry: the owned model
//! ([`WdataModel`], what `dump --json` prints) field by field, each section (header, event box
//! groups, AniBG, item boxes, gimmicks, triggers, scenes, scene resources) under its name. The
//! placed objects (AniBG, item boxes, gimmicks) are matched by their OBB's name and the triggers
//! by their name, so that an entry added or removed in the middle of a section is one change, not
//! a shift of every entry after it; the other sections' entries by their position.

use serde_json::Value;

use crate::diff::value::{compare, compare_keyed, join, shown, to_value};
use crate::diff::{Change, Report};
use crate::error::Result;
use crate::wdata::WdataView;
use crate::wdata::model::WdataModel;

/// Compares two maps.
pub fn files(a: &WdataView<'_>, b: &WdataView<'_>) -> Result<Report> {
    Ok(maps(&WdataModel::from_view(a)?, &WdataModel::from_view(b)?))
}

/// Compares two owned maps.
pub fn maps(a: &WdataModel, b: &WdataModel) -> Report {
    let mut changes = Vec::new();
    sections("", &to_value(a), &to_value(b), Level::Map, &mut changes);
    Report::new(crate::Format::RustyHeartsWdata.name(), changes)
}

/// Where [`sections`] is: the map, or the Triggers section within it.
#[derive(Clone, Copy, PartialEq)]
enum Level {
    Map,
    Triggers,
}

/// The key that matches an entry of a keyed list: the text at `pointer` (its JSON form when it
/// is not text, as a name with an unpaired surrogate is).
fn keyed(items: &Value, pointer: &str) -> Vec<(String, Value)> {
    items
        .as_array()
        .map(|items| {
            items
                .iter()
                .map(|item| {
                    let key = match item.pointer(pointer) {
                        Some(Value::String(s)) => s.clone(),
                        Some(other) => shown(other),
                        None => String::new(),
                    };
                    (key, item.clone())
                })
                .collect()
        })
        .unwrap_or_default()
}

/// The fields of an object in `a`'s order (then those only in `b`), each list of named entries by
/// name and anything else by [`compare`].
fn sections(path: &str, a: &Value, b: &Value, level: Level, changes: &mut Vec<Change>) {
    let (Value::Object(x), Value::Object(y)) = (a, b) else {
        compare(path, a, b, changes);
        return;
    };
    for (key, va) in x {
        let Some(vb) = y.get(key) else {
            changes.push(Change::removed(join(path, key), shown(va)));
            continue;
        };
        let here = join(path, key);
        let named = match (level, key.as_str()) {
            (Level::Map, "anibg" | "item_boxes" | "gimmicks") => Some("/obb/name"),
            (Level::Triggers, "triggers") => Some("/name"),
            _ => None,
        };
        match named {
            Some(pointer) if va.is_array() && vb.is_array() => {
                compare_keyed(&here, keyed(va, pointer), keyed(vb, pointer), changes)
            }
            _ if level == Level::Map && key == "triggers" => {
                sections(&here, va, vb, Level::Triggers, changes)
            }
            _ => compare(&here, va, vb, changes),
        }
    }
    for (key, vb) in y {
        if !x.contains_key(key) {
            changes.push(Change::added(join(path, key), shown(vb)));
        }
    }
}

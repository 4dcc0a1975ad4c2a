//! CraftStudio `Project.dat` files compared by entry path: the header and game controls field by
//! field, then every folder and asset under its path in the tree (`Scripts/Player`), added,
//! removed or changed (name, type, lock, trash, revisions). File offsets are not compared: they
//! move whenever anything before them changes.

use serde_json::Value;

use crate::craftstudio::ProjectView;
use crate::craftstudio::model::{ProjectTree, TreeEntry};
use crate::diff::value::{compare, compare_keyed, join, to_value, without, without_anywhere};
use crate::diff::{Change, Report};

/// Each entry under its path, children after their folder, without the fields compared apart
/// (its children) or not at all (its offset).
fn entries(prefix: &str, list: &[TreeEntry], out: &mut Vec<(String, Value)>) {
    for entry in list {
        let path = join(prefix, &entry.name);
        out.push((
            path.clone(),
            without(to_value(entry), &["children", "offset"]),
        ));
        entries(&path, &entry.children, out);
    }
}

/// The entries of a tree by path: the tree from the root, then each subtree whose folder is gone
/// under `(parent N)`.
fn by_path(tree: &ProjectTree) -> Vec<(String, Value)> {
    let mut out = Vec::new();
    entries("", &tree.tree, &mut out);
    for dangling in &tree.dangling {
        entries(
            &format!("(parent {})", dangling.parent_id),
            &dangling.entries,
            &mut out,
        );
    }
    out
}

/// Compares two projects.
pub fn files(a: &ProjectView<'_>, b: &ProjectView<'_>) -> Report {
    let (ta, tb) = (ProjectTree::from_view(a), ProjectTree::from_view(b));
    let mut changes: Vec<Change> = Vec::new();
    let positionless = |v| without_anywhere(v, "offset");
    compare(
        "header",
        &positionless(to_value(&ta.header)),
        &positionless(to_value(&tb.header)),
        &mut changes,
    );
    compare(
        "controls",
        &positionless(to_value(&ta.controls)),
        &positionless(to_value(&tb.controls)),
        &mut changes,
    );
    compare_keyed("entries", by_path(&ta), by_path(&tb), &mut changes);
    compare(
        "unreachable",
        &to_value(&ta.unreachable),
        &to_value(&tb.unreachable),
        &mut changes,
    );
    compare(
        "trailing_bytes",
        &Value::from(ta.trailing_bytes.length),
        &Value::from(tb.trailing_bytes.length),
        &mut changes,
    );
    Report::new(crate::Format::CraftStudioProject.name(), changes)
}

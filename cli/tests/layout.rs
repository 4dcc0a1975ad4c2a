//! The command line's files do not import each other in a circle, and the game-install plumbing
//! (`install.rs`) uses no other file of the CLI: each file's `crate::<file>` references, read from
//! the sources.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// Every file of `cli/src` (by module name) with the other files it names as `crate::<name>`
/// (in paths or in `use crate::{…}` lists).
fn references() -> BTreeMap<String, BTreeSet<String>> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut sources = BTreeMap::new();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "rs") {
            let name = path.file_stem().unwrap().to_str().unwrap().to_owned();
            sources.insert(name, std::fs::read_to_string(&path).unwrap());
        }
    }
    let names: BTreeSet<String> = sources.keys().cloned().collect();
    let word = |s: &str| -> String {
        s.chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect()
    };
    sources
        .iter()
        .map(|(name, text)| {
            let mut named = BTreeSet::new();
            for (i, _) in text.match_indices("crate::") {
                let rest = &text[i + "crate::".len()..];
                let mut candidates = vec![word(rest)];
                // `crate::{a, b::c}`: each first segment of the list.
                if let Some(list) = rest.strip_prefix('{') {
                    let list = &list[..list.find('}').unwrap_or(list.len())];
                    candidates.extend(list.split(',').map(|item| word(item.trim())));
                }
                named.extend(
                    candidates
                        .into_iter()
                        .filter(|c| c != name && names.contains(c)),
                );
            }
            (name.clone(), named)
        })
        .collect()
}

#[test]
fn no_file_of_the_cli_imports_itself_through_others() {
    let graph = references();
    assert!(graph.len() > 20, "the CLI's files were read: {graph:?}");
    assert!(
        graph.get("check").is_some_and(|m| m.contains("install")),
        "the references are seen: {graph:?}"
    );
    // A depth-first walk from each file: reaching it again is a circle.
    for start in graph.keys() {
        let mut stack: Vec<Vec<&str>> = vec![vec![start.as_str()]];
        let mut seen = BTreeSet::new();
        while let Some(path) = stack.pop() {
            let last = *path.last().unwrap();
            for next in &graph[last] {
                assert!(
                    next != start,
                    "files import each other in a circle: {} -> {next}",
                    path.join(" -> ")
                );
                if seen.insert(next.as_str()) {
                    let mut longer = path.clone();
                    longer.push(next);
                    stack.push(longer);
                }
            }
        }
    }
}

#[test]
fn the_install_plumbing_uses_no_other_file_of_the_cli() {
    let graph = references();
    assert_eq!(graph["install"], BTreeSet::new());
}

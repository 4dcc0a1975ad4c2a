//! What the CLI shows of a CraftStudio `Project.dat`.

use std::fmt::Write as _;
use std::path::Path;

use anyhow::Result;
use gamebin::View;
use gamebin::craftstudio::model::{ProjectModel, ProjectTree, TreeEntry};
use gamebin::craftstudio::mouse_button_name;
use gamebin::craftstudio::{ControlSource, Key, ProjectView};
use serde::Serialize;

/// `dump --json`: the file's path, format and where its tables lie, then the library's owned model
/// of the project (`gamebin::craftstudio::model::ProjectModel`, every stored field).
#[derive(Debug, Serialize)]
pub struct Dump {
    pub path: String,
    pub format: &'static str,
    pub size: usize,
    /// File offset of the first entry.
    pub entries_offset: usize,
    /// File offset of the bytes after the last entry (the model's `trailing`).
    pub trailing_offset: usize,
    #[serde(flatten)]
    pub project: ProjectModel,
}

pub fn dump(path: &Path, size: usize, view: &ProjectView<'_>) -> Result<Dump> {
    Ok(Dump {
        path: path.display().to_string(),
        format: gamebin::Format::CraftStudioProject.name(),
        size,
        entries_offset: view.entries_offset(),
        trailing_offset: view.trailing_offset(),
        project: View::to_model(view)?,
    })
}

/// `dump` as text: the library's tree of the project, every value named.
pub fn dump_text(path: &Path, view: &ProjectView<'_>) -> String {
    tree_text_of(path, &ProjectTree::from_view(view))
}

fn tree_text(out: &mut String, entries: &[TreeEntry], depth: usize) {
    for e in entries {
        let mut flags = String::new();
        if e.locked {
            flags.push_str(" locked");
        }
        if e.trashed {
            flags.push_str(" trashed");
        }
        let _ = writeln!(
            out,
            "{:indent$}{}{} [{} {}, id {}]{flags}{}",
            "",
            e.name,
            if e.folder { "/" } else { "" },
            e.entry_type.label(),
            if e.folder { "folder" } else { "asset" },
            e.id,
            if e.revisions.is_empty() {
                String::new()
            } else {
                format!(", {} revisions", e.revisions.len())
            },
            indent = 2 * depth + 2
        );
        tree_text(out, &e.children, depth + 1);
    }
}

fn tree_text_of(path: &Path, d: &ProjectTree) -> String {
    let mut out = String::new();
    let h = &d.header;
    let _ = writeln!(
        out,
        "{}: {}",
        path.display(),
        gamebin::Format::CraftStudioProject.name()
    );
    let _ = writeln!(
        out,
        "project {:?} ({}), format version {}, script API {}, startup scene {}",
        h.name,
        h.project_type.label(),
        h.format_version,
        h.script_api_version,
        h.startup_scene_id
    );
    let _ = writeln!(
        out,
        "membership {}, default role {}",
        h.membership_policy.label(),
        h.default_member_role.label()
    );
    if !h.description.is_empty() {
        let _ = writeln!(out, "description: {:?}", h.description);
    }
    let _ = writeln!(out, "game controls ({}):", d.controls.len());
    for c in &d.controls {
        let c = &c.control;
        let s = &c.settings;
        let key = |k: Key| {
            k.name()
                .map_or_else(|| format!("key {}", k.0), str::to_owned)
        };
        let mouse_button = (s.source() == ControlSource::Mouse)
            .then(|| mouse_button_name(s.positive_button))
            .flatten();
        let input = match mouse_button {
            Some(button) => format!("mouse {button}"),
            None if s.negative_key != 0 => {
                format!("{} / {}", key(s.positive_key()), key(s.negative_key()))
            }
            None => key(s.positive_key()),
        };
        let label =
            |name: Option<&str>, value: u8| name.map_or_else(|| format!("#{value}"), str::to_owned);
        let _ = writeln!(
            out,
            "  {} {:?}: {} {}, {input}",
            c.id,
            c.name,
            label(s.source().name(), s.control_source),
            label(s.control_type().name(), s.control_type)
        );
    }
    let _ = writeln!(out, "entries ({}):", d.entry_count);
    tree_text(&mut out, &d.tree, 0);
    for dangling in &d.dangling {
        let _ = writeln!(
            out,
            "under missing folder {} (dangling parent):",
            dangling.parent_id
        );
        tree_text(&mut out, &dangling.entries, 0);
    }
    if !d.unreachable.is_empty() {
        let _ = writeln!(out, "in a loop of parents: {:?}", d.unreachable);
    }
    let _ = writeln!(
        out,
        "trailing bytes: {} at {:#x}",
        d.trailing_bytes.length, d.trailing_bytes.offset
    );
    out
}

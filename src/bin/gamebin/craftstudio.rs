//! What the CLI shows of a CraftStudio `Project.dat`.

use crate::output::count;
use std::collections::HashSet;
use std::fmt::Write as _;
use std::path::Path;

use anyhow::Result;
use gamebin::craftstudio::{
    Entry, EntryIndex, GameControl, Key, PathStart, ProjectView, ROOT_PARENT_ID, mouse_button_name,
};
use serde::Serialize;

/// An enumeration value: its name when known, else the stored number.
#[derive(Debug, Serialize)]
#[serde(untagged)]
pub enum Named {
    Name(&'static str),
    Number(u8),
}

fn named(name: Option<&'static str>, value: u8) -> Named {
    name.map_or(Named::Number(value), Named::Name)
}

#[derive(Debug, Serialize)]
pub struct Info {
    pub path: String,
    pub format: &'static str,
    pub name: String,
    pub format_version: u8,
    pub project_type: Named,
    pub controls: usize,
    pub entries: usize,
    pub folders: usize,
    pub assets: usize,
    pub trashed: usize,
    pub trailing_bytes: usize,
}

pub fn info(path: &Path, data: &[u8]) -> Result<Info> {
    let view = ProjectView::from_bytes(data)?;
    let (mut folders, mut assets, mut trashed) = (0, 0, 0);
    for entry in view.entries() {
        folders += usize::from(entry.is_folder());
        assets += usize::from(entry.is_asset());
        trashed += usize::from(entry.is_trashed());
    }
    Ok(Info {
        path: path.display().to_string(),
        format: gamebin::Format::CraftStudioProject.name(),
        name: view.name().to_owned(),
        format_version: view.format_version(),
        project_type: named(view.project_type().name(), view.project_type().to_u8()),
        controls: view.control_count(),
        entries: view.entry_count(),
        folders,
        assets,
        trashed,
        trailing_bytes: view.trailing_bytes().len(),
    })
}

pub fn info_line(i: &Info) -> String {
    let kind = match &i.project_type {
        Named::Name(n) => (*n).to_owned(),
        Named::Number(n) => format!("project type {n}"),
    };
    format!(
        "{}: {}, {kind} {:?}, {} ({}, {}, {} trashed), {}, {}",
        i.path,
        i.format,
        i.name,
        count(i.entries, "entry", "entries"),
        count(i.folders, "folder", "folders"),
        count(i.assets, "asset", "assets"),
        i.trashed,
        count(i.controls, "game control", "game controls"),
        count(i.trailing_bytes, "trailing byte", "trailing bytes")
    )
}

#[derive(Debug, Serialize)]
pub struct KeyDump {
    pub code: u8,
    pub name: Option<&'static str>,
}

fn key(k: Key) -> KeyDump {
    KeyDump {
        code: k.0,
        name: k.name(),
    }
}

#[derive(Debug, Serialize)]
pub struct ButtonDump {
    pub index: u8,
    /// The mouse button's name, for a mouse control.
    pub name: Option<&'static str>,
}

#[derive(Debug, Serialize)]
pub struct ControlDump {
    pub id: u16,
    pub offset: usize,
    pub name: String,
    pub control_type: Named,
    pub source: Named,
    pub positive_key: KeyDump,
    pub negative_key: KeyDump,
    pub positive_button: ButtonDump,
    pub negative_button: ButtonDump,
    pub joystick_index: u8,
    pub joystick_axis: u8,
    pub dead_zone: f32,
    pub sensitivity: f32,
    pub gravity: f32,
    pub snap_to_zero: bool,
}

fn control(c: &GameControl<'_>) -> ControlDump {
    let mouse = c.source() == gamebin::craftstudio::ControlSource::Mouse;
    let button = |index: u8| ButtonDump {
        index,
        name: if mouse {
            mouse_button_name(index)
        } else {
            None
        },
    };
    ControlDump {
        id: c.id(),
        offset: c.offset(),
        name: c.name().to_owned(),
        control_type: named(c.control_type().name(), c.control_type().to_u8()),
        source: named(c.source().name(), c.source().to_u8()),
        positive_key: key(c.positive_key()),
        negative_key: key(c.negative_key()),
        positive_button: button(c.positive_button()),
        negative_button: button(c.negative_button()),
        joystick_index: c.joystick_index(),
        joystick_axis: c.joystick_axis(),
        dead_zone: c.dead_zone(),
        sensitivity: c.sensitivity(),
        gravity: c.gravity(),
        snap_to_zero: c.snap_to_zero(),
    }
}

#[derive(Debug, Serialize)]
pub struct RevisionDump {
    pub id: u16,
    pub name: String,
}

#[derive(Debug, Serialize)]
pub struct EntryDump {
    pub id: u16,
    pub offset: usize,
    pub name: String,
    pub folder: bool,
    pub entry_type: Named,
    pub locked: bool,
    pub trashed: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub next_revision_id: Option<u16>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub revisions: Vec<RevisionDump>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub children: Vec<EntryDump>,
}

/// Entries under a parent id that no entry has.
#[derive(Debug, Serialize)]
pub struct DanglingDump {
    pub parent_id: u16,
    pub entries: Vec<EntryDump>,
}

#[derive(Debug, Serialize)]
pub struct TrailingDump {
    pub offset: usize,
    pub length: usize,
}

#[derive(Debug, Serialize)]
pub struct HeaderDump {
    pub format_version: u8,
    pub project_type: Named,
    pub name: String,
    pub description: String,
    pub startup_scene_id: u16,
    pub script_api_version: u16,
    pub membership_policy: Named,
    pub default_member_role: Named,
    pub next_control_id: u16,
    pub next_entry_id: u16,
}

#[derive(Debug, Serialize)]
pub struct Dump {
    pub path: String,
    pub format: &'static str,
    pub header: HeaderDump,
    pub controls: Vec<ControlDump>,
    pub entry_count: usize,
    /// The tree from the root.
    pub tree: Vec<EntryDump>,
    /// Subtrees whose parent folder no longer exists.
    pub dangling: Vec<DanglingDump>,
    /// Ids of entries reached from neither (their parents loop).
    pub unreachable: Vec<u16>,
    pub trailing_bytes: TrailingDump,
}

/// Nesting beyond this is not expanded (a file can nest 65,535 deep; the output stays readable
/// and the recursion bounded). Entries below it are listed as unreachable.
const MAX_DEPTH: usize = 256;

struct TreeBuilder<'i, 'a> {
    index: &'i EntryIndex<'a>,
    placed: HashSet<usize>,
}

impl<'a> TreeBuilder<'_, 'a> {
    fn subtrees(&mut self, parent_id: u16, depth: usize) -> Vec<EntryDump> {
        if depth > MAX_DEPTH {
            return Vec::new();
        }
        let index = self.index;
        let mut out = Vec::new();
        for child in index.children(parent_id) {
            // An entry is placed once, even where duplicate ids would attach it twice.
            if self.placed.insert(child.offset()) {
                out.push(self.node(&child, depth));
            }
        }
        out
    }

    fn node(&mut self, e: &Entry<'a>, depth: usize) -> EntryDump {
        let children = if e.is_folder() {
            self.subtrees(e.id(), depth + 1)
        } else {
            Vec::new()
        };
        EntryDump {
            id: e.id(),
            offset: e.offset(),
            name: e.name().to_owned(),
            folder: e.is_folder(),
            entry_type: named(e.entry_type().name(), e.entry_type().to_u8()),
            locked: e.is_locked(),
            trashed: e.is_trashed(),
            next_revision_id: e.next_revision_id(),
            revisions: e
                .revisions()
                .map(|r| RevisionDump {
                    id: r.id,
                    name: r.name.to_owned(),
                })
                .collect(),
            children,
        }
    }
}

pub fn dump(path: &Path, data: &[u8]) -> Result<Dump> {
    let view = ProjectView::from_bytes(data)?;
    let index = view.index();
    let mut builder = TreeBuilder {
        index: &index,
        placed: HashSet::new(),
    };
    let tree = builder.subtrees(ROOT_PARENT_ID, 0);
    let mut dangling_ids: Vec<u16> = index.dangling().map(|e| e.parent_id()).collect::<Vec<_>>();
    dangling_ids.sort_unstable();
    dangling_ids.dedup();
    let dangling = dangling_ids
        .into_iter()
        .map(|parent_id| DanglingDump {
            parent_id,
            entries: builder.subtrees(parent_id, 0),
        })
        .collect();
    let unreachable = view
        .entries()
        .filter(|e| !builder.placed.contains(&e.offset()))
        .map(|e| e.id())
        .collect();
    let p = view.project_type();
    Ok(Dump {
        path: path.display().to_string(),
        format: gamebin::Format::CraftStudioProject.name(),
        header: HeaderDump {
            format_version: view.format_version(),
            project_type: named(p.name(), p.to_u8()),
            name: view.name().to_owned(),
            description: view.description().to_owned(),
            startup_scene_id: view.startup_scene_id(),
            script_api_version: view.script_api_version(),
            membership_policy: named(
                view.membership_policy().name(),
                view.membership_policy().to_u8(),
            ),
            default_member_role: named(
                view.default_member_role().name(),
                view.default_member_role().to_u8(),
            ),
            next_control_id: view.next_control_id(),
            next_entry_id: view.next_entry_id(),
        },
        controls: view.controls().map(|c| control(&c)).collect(),
        entry_count: view.entry_count(),
        tree,
        dangling,
        unreachable,
        trailing_bytes: TrailingDump {
            offset: view.trailing_offset(),
            length: view.trailing_bytes().len(),
        },
    })
}

fn label(n: &Named) -> String {
    match n {
        Named::Name(s) => (*s).to_owned(),
        Named::Number(v) => format!("#{v}"),
    }
}

fn tree_text(out: &mut String, entries: &[EntryDump], depth: usize) {
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
            label(&e.entry_type),
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

pub fn dump_text(d: &Dump) -> String {
    let mut out = String::new();
    let h = &d.header;
    let _ = writeln!(out, "{}: {}", d.path, d.format);
    let _ = writeln!(
        out,
        "project {:?} ({}), format version {}, script API {}, startup scene {}",
        h.name,
        label(&h.project_type),
        h.format_version,
        h.script_api_version,
        h.startup_scene_id
    );
    let _ = writeln!(
        out,
        "membership {}, default role {}",
        label(&h.membership_policy),
        label(&h.default_member_role)
    );
    if !h.description.is_empty() {
        let _ = writeln!(out, "description: {:?}", h.description);
    }
    let _ = writeln!(out, "game controls ({}):", d.controls.len());
    for c in &d.controls {
        let key = |k: &KeyDump| {
            k.name
                .map_or_else(|| format!("key {}", k.code), str::to_owned)
        };
        let input = match (&c.source, c.positive_button.name) {
            (Named::Name("Mouse"), Some(button)) => format!("mouse {button}"),
            _ if c.negative_key.code != 0 => {
                format!("{} / {}", key(&c.positive_key), key(&c.negative_key))
            }
            _ => key(&c.positive_key),
        };
        let _ = writeln!(
            out,
            "  {} {:?}: {} {}, {input}",
            c.id,
            c.name,
            label(&c.source),
            label(&c.control_type)
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

/// Path of an entry for messages; a dangling start is marked.
pub fn entry_path(index: &EntryIndex<'_>, entry: &Entry<'_>) -> String {
    let mut path = String::new();
    match index.path_into(entry, &mut path) {
        Ok(PathStart::Root) => path,
        Ok(PathStart::Dangling(id)) => format!("<missing folder {id}>/{path}"),
        Err(_) => format!("<loop>/{}", entry.name()),
    }
}

//! What the CLI shows of a Rusty Hearts `.wdata` map: a one-line (or JSON) summary, and the whole
//! map with every name as text; and `wdata pack`, which writes the JSON back.

use crate::output::{Status, report};
use std::fmt::Write as _;
use std::path::Path;

use anyhow::{Context as _, Result, anyhow};
use gamebin::View;
use gamebin::wdata::model::{TriggerLayout, WString, WdataModel};
use gamebin::wdata::{
    ByEventBoxType, SectionOffsets, WdataView, event_box_type_name, trigger_layout_label,
};

#[derive(Debug, serde::Serialize)]
pub struct Dump {
    pub path: String,
    pub format: &'static str,
    pub size: usize,
    /// Absolute offsets where the sections start.
    pub sections: SectionOffsets,
    /// Absolute offset of each EventBox group, by type name (from the stored index).
    pub event_box_offsets: ByEventBoxType,
    /// `"trigger-list"`, `"script-paths"` or `"ambiguous"` (which layout the triggers were read
    /// with; the map's `triggers` holds the one that was dumped).
    pub trigger_layout: &'static str,
    /// The whole map, every field the file stores (see `gamebin::wdata::model::WdataModel`).
    #[serde(flatten)]
    pub map: WdataModel,
}

pub fn dump(path: &Path, size: usize, view: &WdataView<'_>) -> Result<Dump> {
    Ok(Dump {
        path: path.display().to_string(),
        format: gamebin::Format::RustyHeartsWdata.name(),
        size,
        sections: view.sections(),
        event_box_offsets: ByEventBoxType::of(view, |g| g.offset),
        trigger_layout: trigger_layout_label(view),
        map: View::to_model(view)?,
    })
}

/// A path field as text, `(none)` for an empty path or the `".\"` sentinel.
fn path_or_none(p: &WString) -> String {
    if p.units.is_empty() || p.is_no_path() {
        "(none)".to_owned()
    } else {
        p.to_string_lossy()
    }
}

/// The dump as text: the header, then one line per record (EventBoxes by group, read from the
/// view for their offsets).
pub fn dump_text(path: &Path, size: usize, view: &WdataView<'_>) -> Result<String> {
    let d = dump(path, size, view)?;
    let m = &d.map;
    let mut out = String::new();
    let _ = writeln!(out, "{}: {}, {} bytes", d.path, d.format, d.size);
    let sub = |v: Option<i32>| v.map_or_else(|| "-".to_owned(), |v| v.to_string());
    let _ = writeln!(
        out,
        "version {}, EventBox {}, AniBG {}, ItemBox {}, Gimmick {}",
        m.version,
        sub(m.event_box_version),
        sub(m.anibg_version),
        sub(m.item_box_version),
        sub(m.gimmick_version)
    );
    let _ = writeln!(out, "model {}", path_or_none(&m.model_path));
    let _ = writeln!(out, "navmesh {}", path_or_none(&m.nav_mesh_path));
    if let Some(p) = &m.nav_height_path {
        let _ = writeln!(out, "navheight {}", path_or_none(p));
    }
    let _ = writeln!(out, "eventbox path {}", path_or_none(&m.event_box_path));
    let _ = writeln!(out, "event boxes ({}):", view.event_box_count());
    for g in view.event_box_groups().filter(|g| g.count > 0) {
        let _ = writeln!(
            out,
            "  {} (type {}) at {:#x}: {}",
            event_box_type_name(g.type_index),
            g.type_index,
            g.offset,
            g.count
        );
        for e in g.boxes() {
            let e = e?;
            let o = e.obb();
            let [x, y, z] = o.position;
            let _ = writeln!(out, "    {:?} at ({x}, {y}, {z})", o.name.to_string());
        }
        if let Some(raw) = g.raw {
            let _ = writeln!(out, "    unknown layout: {} raw bytes", raw.len());
        }
    }
    let _ = writeln!(out, "anibg ({}):", m.anibg.len());
    for a in &m.anibg {
        let _ = writeln!(
            out,
            "  {:?} model {} motion {:?}",
            a.obb.name.to_string_lossy(),
            a.model.to_string_lossy(),
            a.motion.to_string_lossy()
        );
    }
    let _ = writeln!(out, "item boxes ({}):", m.item_boxes.len());
    for i in &m.item_boxes {
        let _ = writeln!(
            out,
            "  {:?} model {} table {}",
            i.obb.name.to_string_lossy(),
            i.model.to_string_lossy(),
            i.table_path.to_string_lossy()
        );
    }
    let _ = writeln!(out, "gimmicks ({}):", m.gimmicks.len());
    for g in &m.gimmicks {
        let _ = writeln!(
            out,
            "  {:?} model {} template {}",
            g.obb.name.to_string_lossy(),
            g.model.to_string_lossy(),
            g.template_id
        );
    }
    if let Some(p) = &m.obstacle_path {
        let _ = writeln!(out, "obstacle path {}", path_or_none(p));
    }
    let _ = writeln!(out, "moc path {}", path_or_none(&m.moc_path));
    let _ = writeln!(out, "anibg path {}", path_or_none(&m.anibg_path));
    let t = &m.triggers;
    let _ = writeln!(
        out,
        "triggers ({}): script dir {}, main script {}",
        d.trigger_layout,
        path_or_none(&t.script_dir),
        t.main_script.to_string_lossy()
    );
    let texts =
        |list: &[WString]| -> Vec<String> { list.iter().map(WString::to_string_lossy).collect() };
    match &t.layout {
        TriggerLayout::Peer(triggers) => {
            for tr in triggers {
                let _ = writeln!(
                    out,
                    "  {:?}: events {:?}, conditions {:?}, actions {:?}",
                    tr.name.to_string_lossy(),
                    texts(&tr.events),
                    texts(&tr.conditions),
                    texts(&tr.actions)
                );
            }
        }
        TriggerLayout::ScriptLists {
            event_scripts,
            condition_scripts,
            action_scripts,
        } => {
            for (kind, list) in [
                ("event scripts", event_scripts),
                ("condition scripts", condition_scripts),
                ("action scripts", action_scripts),
            ] {
                let _ = writeln!(out, "  {kind}: {:?}", texts(list));
            }
        }
    }
    let _ = writeln!(out, "scenes ({}):", m.scenes.len());
    for s in &m.scenes {
        let name = s
            .pass2
            .as_ref()
            .and_then(|p| p.name.as_ref())
            .map_or_else(String::new, |n| format!("{:?} ", n.to_string_lossy()));
        let _ = writeln!(out, "  {name}camera file {}", s.file.to_string_lossy());
    }
    let _ = writeln!(out, "scene resources ({}):", m.scene_resources.len());
    for r in &m.scene_resources {
        let _ = writeln!(
            out,
            "  {:?}: {} paths, {} cues, {} sounds, {} ambients",
            r.key.to_string_lossy(),
            r.paths.len(),
            r.cues.as_ref().map_or(0, Vec::len),
            r.sound.as_ref().map_or(0, |s| s.sounds.len()),
            r.ambients.as_ref().map_or(0, Vec::len)
        );
    }
    Ok(out)
}

/// `gamebin wdata pack FILE.json -o FILE.wdata`: the JSON of `dump --json`, edited or not, back
/// to a map. Exit status 1 (with the reason on stderr) when the JSON is not a map the version can
/// store.
pub fn pack_run(json: &Path, output: &Path, force: bool) -> Result<Status> {
    match pack(json, output, force) {
        Ok(()) => Ok(Status::Success),
        Err(e) => {
            report(json, &e);
            Ok(Status::SomeFailed)
        }
    }
}

fn pack(json: &Path, output: &Path, force: bool) -> Result<()> {
    let text = if crate::files::is_stdin(json) {
        std::io::read_to_string(std::io::stdin().lock()).context("cannot read standard input")?
    } else {
        std::fs::read_to_string(json).context("cannot read")?
    };
    let map = map_from_json(&text)?;
    // The error's path names the entry (section key and index in the JSON) and the field's key.
    let bytes = map.to_bytes().context("the model cannot be written")?;
    crate::files::write_new(output, &bytes, force)
}

/// The map a `dump --json` document describes ([`WdataModel::from_dump_json`]), its errors told
/// apart: bad JSON, or JSON that is not a map.
pub fn map_from_json(text: &str) -> Result<WdataModel> {
    WdataModel::from_dump_json(text).map_err(|e| {
        if e.is_syntax() || e.is_eof() {
            anyhow!("not valid JSON: {e}")
        } else {
            anyhow!("not a .wdata map: {e}")
        }
    })
}

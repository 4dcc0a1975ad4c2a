//! `gamebin craftstudio check DIR`: maps every asset of a project folder's `Project.dat` to its
//! `Assets/<Kind>/<id>/` files and reports missing and orphaned files.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use gamebin::craftstudio::{ProjectView, folder};
use serde::Serialize;

use crate::output::{Out, Status, report};

#[derive(Debug, Serialize)]
struct MissingJson {
    entry_id: u16,
    entry: String,
    /// `null` for the current file.
    revision_id: Option<u16>,
    expected: String,
}

#[derive(Debug, Serialize)]
struct CheckJson {
    project: String,
    assets: usize,
    trashed: usize,
    files_found: usize,
    missing: Vec<MissingJson>,
    orphaned: Vec<String>,
    unknown_types: usize,
}

pub fn run(dir: &Path, json: bool) -> Result<Status> {
    match check(dir, json) {
        Ok(clean) => Ok(if clean {
            Status::Success
        } else {
            Status::SomeFailed
        }),
        Err(e) => {
            report(dir, &e);
            Ok(Status::SomeFailed)
        }
    }
}

/// Runs the check and prints it; `Ok(true)` when nothing is missing or orphaned.
fn check(dir: &Path, json: bool) -> Result<bool> {
    // Accept the project folder or its Project.dat.
    let (dir, dat): (PathBuf, PathBuf) = if dir.is_dir() {
        (dir.to_path_buf(), dir.join("Project.dat"))
    } else {
        (
            dir.parent().map(Path::to_path_buf).unwrap_or_default(),
            dir.to_path_buf(),
        )
    };
    let file = crate::files::map(&dat).with_context(|| format!("{}", dat.display()))?;
    let view = ProjectView::from_bytes(&file).with_context(|| {
        format!(
            "{} does not read as a CraftStudio Project.dat",
            dat.display()
        )
    })?;
    let result = folder::check(&dir, &view)
        .with_context(|| format!("cannot read {}", dir.join("Assets").display()))?;
    let index = view.index();
    let files_found: usize = result
        .assets
        .iter()
        .map(|a| {
            usize::from(a.current.is_some()) + a.revisions.iter().filter(|r| r.1.is_some()).count()
        })
        .sum();
    let trashed = result
        .assets
        .iter()
        .filter(|a| a.entry.is_trashed())
        .count();
    let missing: Vec<MissingJson> = result
        .missing
        .iter()
        .map(|m| MissingJson {
            entry_id: m.entry_id,
            entry: index
                .get(m.entry_id)
                .map(|e| index.display_path(&e))
                .unwrap_or_default(),
            revision_id: m.revision_id,
            expected: m.expected.display().to_string(),
        })
        .collect();
    let out_json = CheckJson {
        project: dat.display().to_string(),
        assets: result.assets.len(),
        trashed,
        files_found,
        missing,
        orphaned: result
            .orphaned
            .iter()
            .map(|p| p.display().to_string())
            .collect(),
        unknown_types: result.unknown_types,
    };
    let mut out = Out::new();
    if json {
        out.line(&serde_json::to_string(&out_json)?)?;
    } else {
        for m in &out_json.missing {
            let what = match m.revision_id {
                Some(id) => format!("revision {id}"),
                None => "current file".to_owned(),
            };
            out.line(&format!(
                "missing  {}  ({what} of entry {} {:?})",
                m.expected, m.entry_id, m.entry
            ))?;
        }
        for o in &out_json.orphaned {
            out.line(&format!("orphaned {o}"))?;
        }
        out.line(&format!(
            "{}: {} assets ({} trashed), {} files found, {} missing, {} orphaned{}",
            out_json.project,
            out_json.assets,
            out_json.trashed,
            out_json.files_found,
            out_json.missing.len(),
            out_json.orphaned.len(),
            if out_json.unknown_types > 0 {
                format!(
                    ", {} assets of unknown types not checked",
                    out_json.unknown_types
                )
            } else {
                String::new()
            }
        ))?;
    }
    out.flush()?;
    Ok(result.is_clean())
}

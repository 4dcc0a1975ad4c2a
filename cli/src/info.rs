//! `gamebin info PATH...`: one summary line (or JSON object) per file.

use std::ops::ControlFlow;
use std::path::{Path, PathBuf};

use anyhow::Result;
use gamebin::{AnySummary, AnyView, Scratch};
use serde::Serialize;

use crate::files::{self, Input, ReadOptions};
use crate::install::{self, PathGroup, Source};
use crate::output::{Out, Status, count, progress_bar, report};
use crate::parallel;

pub fn run(paths: &[PathBuf], json: bool, options: ReadOptions) -> Result<Status> {
    let mut out = Out::new();
    let mut failed = 0usize;
    let mut skipped = files::Skipped::default();
    // A game folder named on the command line is summarised as an install (its indexes read);
    // the other paths as files, in runs between them, so that lines come in command-line order.
    for group in install::path_groups(paths) {
        if out.is_closed() {
            break;
        }
        let path = match group {
            PathGroup::Files(run) => {
                info_files(run, json, options, &mut out, &mut failed, &mut skipped)?;
                continue;
            }
            PathGroup::GameFolder(path) => path,
        };
        match info_install(path, json) {
            Ok((text, damaged)) => {
                failed += usize::from(damaged);
                if let Err(e) = out.line(&text) {
                    if out.is_closed() {
                        break;
                    }
                    return Err(e.into());
                }
            }
            Err(e) => {
                failed += 1;
                report(path, &e);
            }
        }
    }
    out.flush()?;
    skipped.report();
    Ok(if failed == 0 {
        Status::Success
    } else {
        Status::SomeFailed
    })
}

/// `info INSTALL`'s line: the game folder's indexes read (not its files), counted; and whether an
/// index does not read (each is named on stderr, the others counted).
fn info_install(dir: &Path, json: bool) -> Result<(String, bool)> {
    let install = install::open(Source::Game(dir), files::install_mapping())?;
    let damaged = install::report_damaged(&install);
    let idx_dir = install
        .index_paths()
        .next()
        .and_then(Path::parent)
        .map(|p| p.strip_prefix(dir).unwrap_or(p).display().to_string())
        .unwrap_or_default();
    let indexes = install.index_paths().count();
    let files = install.file_count();
    let entries = install.entry_count();
    let conflicts = install.conflicts().len();
    if json {
        let mut value = serde_json::json!({
            "path": dir.display().to_string(),
            "format": "wows-pfs-install",
            "idx_dir": idx_dir,
            "indexes": indexes,
            "files": files,
            "names": entries,
            "conflicts": conflicts,
        });
        if damaged {
            value["damaged_indexes"] = install.damaged().len().into();
        }
        return Ok((serde_json::to_string(&value)?, damaged));
    }
    let mut line = format!(
        "{}: wows-pfs-install, {} in {idx_dir}, {}, {} (files and folders), {}",
        dir.display(),
        count(indexes, "index", "indexes"),
        count(files, "file", "files"),
        count(entries, "name", "names"),
        count(conflicts, "conflicting id", "conflicting ids"),
    );
    if damaged {
        let n = install.damaged().len();
        line += &format!(
            ", {} not read",
            count(n, "damaged index", "damaged indexes")
        );
    }
    Ok((line, damaged))
}

/// The lines of the files under `paths` (directories walked), read in parallel, in order.
fn info_files(
    paths: &[PathBuf],
    json: bool,
    options: ReadOptions,
    out: &mut Out,
    failed: &mut usize,
    skipped: &mut files::Skipped,
) -> Result<()> {
    if paths.is_empty() {
        return Ok(());
    }
    let (inputs, walk_failures) = files::collect(paths);
    *failed += walk_failures.len();
    for (path, e) in &walk_failures {
        report(path, e);
    }
    files::report_empty_folders(paths, &inputs, &walk_failures);
    let progress = progress_bar(inputs.len());
    let mut write_error = None;
    // Files are read in parallel (one scratch space, the .wwd levels' inflate buffer and
    // decompressor, for each worker thread) and reported in the order given.
    parallel::ordered(
        &inputs,
        || options.scratch(),
        |scratch, input| line(input, json, scratch),
        |input, result| {
            progress.inc(1);
            match result {
                Ok(Some(text)) => {
                    if let Err(e) = progress.suspend(|| out.line(&text)) {
                        // A closed pipe (`| head`) ends the run quietly; other write errors
                        // fail it.
                        if !out.is_closed() {
                            write_error = Some(e);
                        }
                        return ControlFlow::Break(());
                    }
                }
                Ok(None) => skipped.add(&input.path),
                Err(e) => {
                    *failed += 1;
                    progress.suspend(|| report(&input.path, &e));
                }
            }
            ControlFlow::Continue(())
        },
    );
    progress.finish_and_clear();
    match write_error {
        Some(e) => Err(e.into()),
        None => Ok(()),
    }
}

/// The info line of one input, `None` for an unrecognised file found in a directory.
fn line(input: &Input, json: bool, scratch: &mut Scratch) -> Result<Option<String>> {
    let Some((file, format)) = files::open_input(input, scratch)? else {
        return Ok(None);
    };
    let summary = AnyView::from_bytes_as(format, &file, scratch)?.summary()?;
    let path = input.path.display().to_string();
    Ok(Some(if json {
        serde_json::to_string(&Line {
            path,
            format: format.name(),
            summary,
        })?
    } else {
        format!("{path}: {summary}")
    }))
}

/// `info --json`'s object: the path and format, then the format's own summary.
#[derive(Serialize)]
struct Line {
    path: String,
    format: &'static str,
    #[serde(flatten)]
    summary: AnySummary,
}

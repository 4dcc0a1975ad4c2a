//! `gamebin check PATH...`: walks every structure of every file and says what is wrong (errors)
//! and what the reader tolerated or could not decide (warnings).

use std::ops::ControlFlow;
use std::path::{Path, PathBuf};

use anyhow::Result;
use gamebin::CheckReport;
use gamebin::wows::pfs::BlobReader;
use gamebin::{AnyView, Scratch};
use serde::Serialize;

use crate::batch::{Cause, Failures};
use crate::files::{self, Input, ReadOptions};
use crate::install::{self, PathGroup, Source, readable_files, selected_files};
use crate::output::{Out, Status, progress_bar, report};
use crate::parallel;

/// What `check` found in one file.
#[derive(Debug, Default, Serialize)]
pub struct Verdict {
    pub path: String,
    pub format: &'static str,
    pub errors: Vec<String>,
    pub warnings: Vec<String>,
}

/// What a run has counted so far, across the groups of paths it checks.
#[derive(Default)]
struct Tally {
    failed: usize,
    skipped: files::Skipped,
}

pub fn run(paths: &[PathBuf], json: bool, options: ReadOptions) -> Result<Status> {
    let mut out = Out::new();
    let mut tally = Tally::default();
    // A game folder named on the command line is checked as an install (every file of its
    // archives read and its CRC-32 checked); the other paths as files, in runs between them, so
    // that verdicts come in command-line order.
    for group in install::path_groups(paths) {
        if out.is_closed() {
            break;
        }
        let path = match group {
            PathGroup::Files(run) => {
                check_files(run, json, options, &mut out, &mut tally)?;
                continue;
            }
            PathGroup::GameFolder(path) => path,
        };
        match check_install(path) {
            Ok(v) => {
                tally.failed += usize::from(!v.errors.is_empty());
                if let Err(e) = emit(&v, json, &mut out) {
                    if out.is_closed() {
                        break;
                    }
                    return Err(e);
                }
            }
            Err(e) => {
                tally.failed += 1;
                report(path, &e);
            }
        }
    }
    out.flush()?;
    tally.skipped.report();
    Ok(if tally.failed == 0 {
        Status::Success
    } else {
        Status::SomeFailed
    })
}

/// Writes one verdict (text or a JSON line).
fn emit(v: &Verdict, json: bool, out: &mut Out) -> Result<()> {
    let text = if json {
        serde_json::to_string(v)?
    } else {
        text(v)
    };
    Ok(out.line(&text)?)
}

/// Checks the files under `paths` (directories walked), in parallel, verdicts in order.
fn check_files(
    paths: &[PathBuf],
    json: bool,
    options: ReadOptions,
    out: &mut Out,
    tally: &mut Tally,
) -> Result<()> {
    if paths.is_empty() {
        return Ok(());
    }
    let (inputs, walk_failures) = files::collect(paths);
    tally.failed += walk_failures.len();
    for (path, e) in &walk_failures {
        report(path, e);
    }
    files::report_empty_folders(paths, &inputs, &walk_failures);
    let progress = progress_bar(inputs.len());
    let mut write_error = None;
    // Files are checked in parallel (one scratch space, the .wwd decompressor, per worker thread)
    // and reported in the order given.
    parallel::ordered(
        &inputs,
        || options.scratch(),
        |scratch, input| verdict(input, scratch),
        |input, result| {
            progress.inc(1);
            match result {
                Ok(None) => tally.skipped.add(&input.path),
                Ok(Some(v)) => {
                    tally.failed += usize::from(!v.errors.is_empty());
                    let written = progress.suspend(|| emit(&v, json, out));
                    if let Err(e) = written {
                        // A closed pipe ends the run quietly; other write errors fail it.
                        if !out.is_closed() {
                            write_error = Some(e);
                        }
                        return ControlFlow::Break(());
                    }
                }
                Err(e) => {
                    tally.failed += 1;
                    progress.suspend(|| report(&input.path, &e));
                }
            }
            ControlFlow::Continue(())
        },
    );
    progress.finish_and_clear();
    match write_error {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

/// `check INSTALL`: every file of the game folder read (inflated) and its CRC-32 checked, on
/// every core; the errors name each file that does not read, the warnings each id two indexes
/// give to different records.
fn check_install(dir: &Path) -> Result<Verdict> {
    let install = install::open(Source::Game(dir), files::install_mapping())?;
    // An index that does not read is one error; the files of the others are read.
    let mut errors: Vec<String> = install.damaged().iter().map(install::damaged).collect();
    let files = readable_files(&install, |e| errors.push(e.to_string()));
    let items = selected_files(&install, &files, &[], |e| errors.push(e.to_string()));
    let mut reported = Failures::default();
    let bar = progress_bar(items.len());
    parallel::ordered(
        &items,
        || (BlobReader::new(), Vec::new()),
        |(reader, buffer), item| {
            install
                .read(item.file, &item.path, reader, buffer)
                .map(|_| ())
        },
        |_, result| {
            bar.inc(1);
            if let Err(e) = result {
                let cause = e.unread_volume().map(Cause::Volume);
                if reported.is_named_for(cause) {
                    errors.push(e.to_string());
                }
            }
            ControlFlow::Continue(())
        },
    );
    bar.finish_and_clear();
    errors.extend(reported.unnamed());
    Ok(Verdict {
        path: dir.display().to_string(),
        format: "wows-pfs-install",
        errors,
        warnings: install
            .conflicts()
            .iter()
            .map(|c| {
                format!(
                    "an id two indexes give to different records: {}",
                    install::conflict(c)
                )
            })
            .collect(),
    })
}

fn text(v: &Verdict) -> String {
    let mut s = format!("{}: {}: ", v.path, v.format);
    s += match (v.errors.len(), v.warnings.len()) {
        (0, 0) => "ok".to_owned(),
        (0, w) => format!("ok, {w} warning(s)"),
        (e, w) => format!("{e} error(s), {w} warning(s)"),
    }
    .as_str();
    for e in &v.errors {
        s += &format!("\n  error: {e}");
    }
    for w in &v.warnings {
        s += &format!("\n  warning: {w}");
    }
    s
}

/// The verdict on one input, `None` for an unrecognised file found in a directory. A file that is
/// recognised but does not open has that as its error.
fn verdict(input: &Input, scratch: &mut Scratch) -> Result<Option<Verdict>> {
    let Some((file, format)) = files::open_input(input, scratch)? else {
        return Ok(None);
    };
    let found = match AnyView::from_bytes_as(format, &file, scratch) {
        Ok(view) => view.check(),
        Err(e) => CheckReport::of_walk(Err(e)),
    };
    Ok(Some(Verdict {
        path: input.path.display().to_string(),
        format: format.name(),
        errors: found.errors.iter().map(ToString::to_string).collect(),
        warnings: found.warnings.iter().map(ToString::to_string).collect(),
    }))
}

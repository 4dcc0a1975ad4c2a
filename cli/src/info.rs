//! `gamebin info PATH...`: one summary line (or JSON object) per file.

use std::ops::ControlFlow;
use std::path::PathBuf;

use anyhow::Result;
use gamebin::{AnySummary, AnyView, Scratch};
use serde::Serialize;

use crate::files::{self, Input, ReadOptions};
use crate::output::{Out, Status, progress_bar, report};
use crate::parallel;

pub fn run(paths: &[PathBuf], json: bool, options: ReadOptions) -> Result<Status> {
    let (inputs, walk_failures) = files::collect(paths);
    let mut failed = walk_failures.len();
    for (path, e) in &walk_failures {
        report(path, e);
    }
    let progress = progress_bar(inputs.len());
    let mut out = Out::new();
    let mut skipped = 0usize;
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
                Ok(None) => skipped += 1,
                Err(e) => {
                    failed += 1;
                    progress.suspend(|| report(&input.path, &e));
                }
            }
            ControlFlow::Continue(())
        },
    );
    progress.finish_and_clear();
    if let Some(e) = write_error {
        return Err(e.into());
    }
    out.flush()?;
    if skipped > 0 {
        eprintln!("gamebin: skipped {skipped} file(s) of formats gamebin does not read");
    }
    Ok(if failed == 0 {
        Status::Success
    } else {
        Status::SomeFailed
    })
}

/// The info line of one input, `None` for an unrecognised file found in a directory.
fn line(input: &Input, json: bool, scratch: &mut Scratch) -> Result<Option<String>> {
    let Some((file, format)) = files::open_input(input, scratch)? else {
        return Ok(None);
    };
    let summary = AnyView::open(format, &file, scratch)?.summary()?;
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

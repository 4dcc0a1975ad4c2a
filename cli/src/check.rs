//! `gamebin check PATH...`: walks every structure of every file and says what is wrong (errors)
//! and what the reader tolerated or could not decide (warnings).

use std::ops::ControlFlow;
use std::path::PathBuf;

use anyhow::Result;
use gamebin::any::CheckReport;
use gamebin::{AnyView, Scratch};
use serde::Serialize;

use crate::files::{self, Input, ReadOptions};
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

pub fn run(paths: &[PathBuf], json: bool, options: ReadOptions) -> Result<Status> {
    let (inputs, walk_failures) = files::collect(paths);
    let mut failed = walk_failures.len();
    for (path, e) in &walk_failures {
        report(path, e);
    }
    let progress = progress_bar(inputs.len());
    let mut out = Out::new();
    let mut write_error = None;
    let mut skipped = 0usize;
    // Files are checked in parallel (one scratch space, the .wwd decompressor, per worker thread)
    // and reported in the order given.
    parallel::ordered(
        &inputs,
        || options.scratch(),
        |scratch, input| verdict(input, scratch),
        |input, result| {
            progress.inc(1);
            match result {
                Ok(None) => skipped += 1,
                Ok(Some(v)) => {
                    failed += usize::from(!v.errors.is_empty());
                    let text = if json {
                        serde_json::to_string(&v).map_err(anyhow::Error::from)
                    } else {
                        Ok(text(&v))
                    };
                    let written = text.and_then(|text| Ok(progress.suspend(|| out.line(&text))?));
                    if let Err(e) = written {
                        // A closed pipe ends the run quietly; other write errors fail it.
                        if !out.is_closed() {
                            write_error = Some(e);
                        }
                        return ControlFlow::Break(());
                    }
                }
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
        return Err(e);
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
    let found = match AnyView::open(format, &file, scratch) {
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

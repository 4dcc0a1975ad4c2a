//! `gamebin diff A B [--json]`: a structural comparison of two files of one format. Exit 0 when
//! equal, 1 when different, 2 on errors (as `diff` does).

use std::path::Path;

use anyhow::{Result, bail};
use gamebin::diff::{Report, Status};
use gamebin::{AnyView, Format};

use crate::files::{self, ReadOptions};
use crate::output::{Out, is_closed_pipe};

fn compare(a: &Path, b: &Path) -> Result<Report> {
    let (file_a, format_a) = files::open_known(a, ReadOptions::default())
        .map_err(|e| e.context(a.display().to_string()))?;
    let (file_b, format_b) = files::open_known(b, ReadOptions::default())
        .map_err(|e| e.context(b.display().to_string()))?;
    if format_a != format_b {
        bail!(
            "{} is {format_a} and {} is {format_b}: diff compares two files of one format",
            a.display(),
            b.display()
        );
    }
    // A reader's error with the file it came from.
    let (mut scratch_a, mut scratch_b) = (
        ReadOptions::default().scratch(),
        ReadOptions::default().scratch(),
    );
    let va = AnyView::from_bytes_as(format_a, &file_a, &mut scratch_a)
        .map_err(|e| anyhow::anyhow!("{}: {e}", a.display()))?;
    let vb = AnyView::from_bytes_as(format_b, &file_b, &mut scratch_b)
        .map_err(|e| anyhow::anyhow!("{}: {e}", b.display()))?;
    match va.diff(&vb) {
        Some(Ok(report)) => Ok(report),
        // An assets.bin's comparison reads both files at once: its error names both.
        Some(Err(e)) if format_a == Format::WowsAssets => {
            bail!("{} / {}: {e}", a.display(), b.display())
        }
        Some(Err(e)) => Err(e.into()),
        None => bail!(
            "{} and {} are of different formats",
            a.display(),
            b.display()
        ),
    }
}

/// Runs the comparison and prints it; the exit status follows `diff`'s convention.
pub fn run(a: &Path, b: &Path, json: bool) -> Status {
    let report = match compare(a, b) {
        Ok(report) => report,
        Err(e) => {
            eprintln!("gamebin diff: {e:#}");
            return Status::Trouble;
        }
    };
    let mut out = Out::new();
    let printed = (|| -> Result<()> {
        if json {
            out.line(&serde_json::to_string_pretty(&report)?)?;
        } else {
            for line in report.lines() {
                out.line(&line)?;
            }
        }
        out.flush()?;
        Ok(())
    })();
    match printed {
        Err(e) if !is_closed_pipe(&e) => {
            eprintln!("gamebin diff: {e:#}");
            Status::Trouble
        }
        _ => report.status(),
    }
}

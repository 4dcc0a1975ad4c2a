//! `gamebin diff A B [--json]`: a structural comparison of two files of one format. Exit 0 when
//! equal, 1 when different, 2 on errors (as `diff` does).

use std::path::Path;

use anyhow::{Result, bail};
use gamebin::Format;
use gamebin::craftstudio::ProjectView;
use gamebin::diff::{Report, Status};
use gamebin::wdata::WdataView;
use gamebin::wdb::WdbView;
use gamebin::wows::assets::AssetsView;
use gamebin::wows::geometry::GeometryView;
use gamebin::wwd::WwdView;

use crate::files::{self, ReadOptions};
use crate::output::{Out, is_closed_pipe};

/// A reader's error with the file it came from.
fn named(path: &Path, e: gamebin::Error) -> anyhow::Error {
    anyhow::anyhow!("{}: {e}", path.display())
}

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
    match format_a {
        Format::Ff13Wdb => {
            let va = WdbView::from_bytes(&file_a)
                .map_err(|e| anyhow::anyhow!("{}: {e}", a.display()))?;
            let vb = WdbView::from_bytes(&file_b)
                .map_err(|e| anyhow::anyhow!("{}: {e}", b.display()))?;
            Ok(gamebin::diff::wdb::files(&va, &vb)?)
        }
        Format::WowsGeometry => {
            let (va, vb) = (
                GeometryView::from_bytes(&file_a).map_err(|e| named(a, e))?,
                GeometryView::from_bytes(&file_b).map_err(|e| named(b, e))?,
            );
            Ok(gamebin::diff::geometry::files(&va, &vb)?)
        }
        Format::Wap32Wwd => {
            let (mut ia, mut ib) = (Vec::new(), Vec::new());
            let va = WwdView::from_bytes(&file_a, &mut ia).map_err(|e| named(a, e))?;
            let vb = WwdView::from_bytes(&file_b, &mut ib).map_err(|e| named(b, e))?;
            Ok(gamebin::diff::wwd::files(&va, &vb)?)
        }
        Format::RustyHeartsWdata => {
            let va = WdataView::from_bytes(&file_a).map_err(|e| named(a, e))?;
            let vb = WdataView::from_bytes(&file_b).map_err(|e| named(b, e))?;
            Ok(gamebin::diff::wdata::files(&va, &vb)?)
        }
        Format::CraftStudioProject => {
            let va = ProjectView::from_bytes(&file_a).map_err(|e| named(a, e))?;
            let vb = ProjectView::from_bytes(&file_b).map_err(|e| named(b, e))?;
            Ok(gamebin::diff::craftstudio::files(&va, &vb))
        }
        Format::WowsAssets => {
            let va = AssetsView::from_bytes(&file_a).map_err(|e| named(a, e))?;
            let vb = AssetsView::from_bytes(&file_b).map_err(|e| named(b, e))?;
            Ok(gamebin::diff::assets::files(&va, &vb)
                .map_err(|e| anyhow::anyhow!("{} / {}: {e}", a.display(), b.display()))?)
        }
        other => bail!("diff does not compare {other} files"),
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

//! `gamebin assets ls FILE [PREFIX]`: every path (or those under PREFIX) with its id and prototype
//! type, streamed one line at a time.

use std::path::Path;

use anyhow::Result;
use gamebin::wows::assets::{AssetsDb, PathIndex};

use crate::assets::progress;
use crate::files;
use crate::output::{Out, Status, is_closed_pipe, report};

pub fn run(path: &Path, prefix: Option<&str>) -> Result<Status> {
    match list(path, prefix) {
        Ok(status) => Ok(status),
        // The reader of the output went away (`| head`): stop, nothing failed.
        Err(e) if is_closed_pipe(&e) => Ok(Status::Success),
        Err(e) => {
            report(path, &e);
            Ok(Status::SomeFailed)
        }
    }
}

fn list(path: &Path, prefix: Option<&str>) -> Result<Status> {
    let file = files::map(path)?;
    let db = AssetsDb::from_bytes(&file)?;
    let prefix = prefix.map(|p| p.strip_prefix("res/").unwrap_or(p));
    // One id → entry index makes each full path O(depth) instead of a scan per parent.
    let index = PathIndex::build(db.paths())?;
    let bar = progress(db.paths().len(), "paths");
    let mut out = Out::new();
    let mut full = String::new();
    let mut failed: Option<std::io::Error> = None;
    let walked = index.for_each_full_path(db.paths(), &mut full, |entry, full| {
        bar.inc(1);
        if prefix.is_some_and(|p| !full.starts_with(p)) {
            return Ok(());
        }
        let kind = match db.prototype(entry.self_id())? {
            Some(at) => db.type_label(at)?,
            None => "-".into(),
        };
        if let Err(e) =
            bar.suspend(|| out.line(&format!("{:#018x}\t{kind}\t{full}", entry.self_id())))
        {
            failed = Some(e);
            // Stops the walk at once; this error is not reported (the write error is).
            return Err(gamebin::Error::new(
                0,
                "standard output",
                gamebin::ErrorKind::InvalidValue {
                    value: 0,
                    reason: "cannot write",
                },
            ));
        }
        Ok(())
    });
    bar.finish_and_clear();
    if let Some(e) = failed {
        return Err(e.into());
    }
    walked?;
    out.flush()?;
    Ok(Status::Success)
}

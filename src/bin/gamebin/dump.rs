//! `gamebin dump FILE [--json]`: everything the reader decodes.

use std::path::Path;

use anyhow::Result;
use gamebin::Format;

use crate::assets;
use crate::craftstudio;
use crate::files::{self, ReadOptions};
use crate::geometry;
use crate::output::{Out, Status, report};
use crate::wdata;
use crate::wdb;
use crate::wwd;

pub fn run(path: &Path, json: bool, options: ReadOptions) -> Result<Status> {
    if let Some(status) = stream(path, json, options)? {
        return Ok(status);
    }
    match text(path, json, options) {
        Ok(text) => {
            let mut out = Out::new();
            out.line(text.trim_end())?;
            out.flush()?;
            Ok(Status::Success)
        }
        Err(e) => {
            report(path, &e);
            Ok(Status::SomeFailed)
        }
    }
}

/// Formats whose dump is streamed (written as it is read); `None` for the others.
fn stream(path: &Path, json: bool, options: ReadOptions) -> Result<Option<Status>> {
    let (file, format) = match files::open_known(path, options) {
        Ok(known) => known,
        Err(_) => return Ok(None),
    };
    if format != Format::WowsAssets {
        return Ok(None);
    }
    let mut out = Out::new();
    let result = assets::dump(path, &file, json, &mut out);
    out.flush()?;
    Ok(Some(match result {
        Ok(()) => Status::Success,
        Err(e) => {
            report(path, &e);
            Status::SomeFailed
        }
    }))
}

fn text(path: &Path, json: bool, options: ReadOptions) -> Result<String> {
    let (file, format) = files::open_known(path, options)?;
    match format {
        Format::WowsGeometry => {
            let dump = geometry::dump(path, &file)?;
            Ok(if json {
                serde_json::to_string_pretty(&dump)?
            } else {
                geometry::dump_text(&dump)
            })
        }
        Format::Ff13Wdb => {
            let dump = wdb::dump(&file, None)?;
            if json {
                Ok(serde_json::to_string_pretty(&dump)?)
            } else {
                wdb::dump_text(&dump)
            }
        }
        Format::CraftStudioProject => {
            let dump = craftstudio::dump(path, &file)?;
            Ok(if json {
                serde_json::to_string_pretty(&dump)?
            } else {
                craftstudio::dump_text(&dump)
            })
        }
        Format::Wap32Wwd => {
            let dump = wwd::dump(path, &file, &mut wwd::Opener::new(options.wwd()))?;
            Ok(if json {
                serde_json::to_string_pretty(&dump)?
            } else {
                wwd::dump_text(&dump)
            })
        }
        Format::RustyHeartsWdata => {
            if json {
                Ok(serde_json::to_string_pretty(&wdata::dump(path, &file)?)?)
            } else {
                wdata::dump_text(path, &file)
            }
        }
        other => anyhow::bail!("format {other} has no dump view yet"),
    }
}

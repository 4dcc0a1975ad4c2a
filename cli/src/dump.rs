//! `gamebin dump FILE [--json]`: everything the reader decodes.

use std::path::Path;

use anyhow::Result;
use gamebin::Format;

use crate::assets;
use crate::craftstudio;
use crate::files::{self, ReadOptions};
use crate::geometry;
use crate::output::{Out, Status, is_closed_pipe, report};
use crate::wdata;
use crate::wdb;
use crate::wwd;

pub fn run(path: &Path, json: bool, options: ReadOptions) -> Result<Status> {
    // Opened once: standard input can be read only once.
    let (file, format) = match files::open_known(path, options) {
        Ok(known) => known,
        Err(e) => {
            report(path, &e);
            return Ok(Status::SomeFailed);
        }
    };
    let mut out = Out::new();
    let result = if format == Format::WowsAssets {
        // Streamed: written as it is read.
        assets::dump(path, &file, json, &mut out)
    } else {
        text(path, &file, format, json, options).and_then(|text| Ok(out.line(text.trim_end())?))
    };
    out.flush()?;
    Ok(match result {
        Ok(()) => Status::Success,
        // The reader of the output went away (`| head`): stop, nothing failed.
        Err(e) if is_closed_pipe(&e) => Status::Success,
        Err(e) => {
            report(path, &e);
            Status::SomeFailed
        }
    })
}

fn text(
    path: &Path,
    file: &[u8],
    format: Format,
    json: bool,
    options: ReadOptions,
) -> Result<String> {
    match format {
        Format::WowsGeometry => {
            if json {
                Ok(serde_json::to_string_pretty(&geometry::dump(path, file)?)?)
            } else {
                geometry::dump_text(path, file)
            }
        }
        Format::Ff13Wdb => {
            let dump = wdb::dump(file, None)?;
            if json {
                Ok(serde_json::to_string_pretty(&dump)?)
            } else {
                wdb::dump_text(&dump)
            }
        }
        Format::CraftStudioProject => {
            if json {
                Ok(serde_json::to_string_pretty(&craftstudio::dump(
                    path, file,
                )?)?)
            } else {
                craftstudio::dump_text(path, file)
            }
        }
        Format::Wap32Wwd => {
            let dump = wwd::dump(path, file, &mut wwd::Opener::new(options.wwd()))?;
            Ok(if json {
                serde_json::to_string_pretty(&dump)?
            } else {
                wwd::dump_text(&dump)
            })
        }
        Format::RustyHeartsWdata => {
            if json {
                Ok(serde_json::to_string_pretty(&wdata::dump(path, file)?)?)
            } else {
                wdata::dump_text(path, file)
            }
        }
        other => anyhow::bail!("format {other} has no dump view yet"),
    }
}

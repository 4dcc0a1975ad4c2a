//! `gamebin dump FILE [--json]`: everything the reader decodes.

use std::path::Path;

use anyhow::Result;
use gamebin::{AnyView, View};

use crate::assets;
use crate::craftstudio;
use crate::files::{self, ReadOptions};
use crate::geometry;
use crate::idx;
use crate::output::{Out, Status, is_closed_pipe, report};
use crate::params;
use crate::texture;
use crate::wdata;
use crate::wdb;
use crate::wwd;

/// `complete`: an assets.bin's records in their complete form (see `assets::dump`).
pub fn run(path: &Path, json: bool, complete: bool, options: ReadOptions) -> Result<Status> {
    // Opened once: standard input can be read only once.
    let (file, format) = match files::open_known(path, options) {
        Ok(known) => known,
        Err(e) => {
            report(path, &e);
            return Ok(Status::SomeFailed);
        }
    };
    let mut out = Out::new();
    let mut scratch = options.scratch();
    let result = AnyView::from_bytes_as(format, &file, &mut scratch)
        .map_err(anyhow::Error::from)
        .and_then(|view| write(path, file.len(), &view, json, complete, &mut out));
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

/// Writes the dump of a file: each format's document (`--json`: its path, format, facts the
/// reader found and its owned model) or text. An `assets.bin` is streamed, written as it is read.
fn write(
    path: &Path,
    size: usize,
    view: &AnyView<'_>,
    json: bool,
    complete: bool,
    out: &mut Out,
) -> Result<()> {
    let text = match view {
        AnyView::Assets(db) => {
            return assets::dump(path, db, json, assets::record_form(complete), out);
        }
        AnyView::Geometry(view) => {
            geometry::warn_non_finite(path, view);
            if json {
                serde_json::to_string_pretty(&geometry::dump(path, view)?)?
            } else {
                geometry::dump_text(path, view)?
            }
        }
        AnyView::Wdb(view) => {
            let table = View::to_model(view)?;
            if json {
                serde_json::to_string_pretty(&table)?
            } else {
                wdb::dump_text(&table)?
            }
        }
        AnyView::CraftStudio(view) => {
            if json {
                serde_json::to_string_pretty(&craftstudio::dump(path, size, view)?)?
            } else {
                craftstudio::dump_text(path, view)
            }
        }
        AnyView::Wwd(view) => {
            let dump = wwd::dump(path, view)?;
            if json {
                serde_json::to_string_pretty(&dump)?
            } else {
                wwd::dump_text(&dump)
            }
        }
        AnyView::PfsIdx(view) => {
            if json {
                serde_json::to_string_pretty(&idx::dump_idx(path, view)?)?
            } else {
                idx::dump_idx_text(path, view)?
            }
        }
        AnyView::Dds(view) => {
            if json {
                serde_json::to_string_pretty(&texture::dump(path, view)?)?
            } else {
                texture::dump_text(path, view)?
            }
        }
        AnyView::Params(view) => {
            return params::dump(path, view, json, out);
        }
        AnyView::Wdata(view) => {
            if json {
                serde_json::to_string_pretty(&wdata::dump(path, size, view)?)?
            } else {
                wdata::dump_text(path, size, view)?
            }
        }
    };
    Ok(out.line(text.trim_end())?)
}

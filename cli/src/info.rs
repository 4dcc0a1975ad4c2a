//! `gamebin info PATH...`: one summary line (or JSON object) per file.

use std::ops::ControlFlow;
use std::path::{Path, PathBuf};

use anyhow::Result;
use gamebin::Format;

use crate::assets;
use crate::craftstudio;
use crate::files::{self, Input, ReadOptions};
use crate::geometry;
use crate::output::{Out, Status, progress_bar, report};
use crate::parallel;
use crate::wdata;
use crate::wdb;
use crate::wwd;

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
    // Files are read in parallel (one inflate buffer and decompressor for the .wwd levels of each
    // worker thread) and reported in the order given.
    parallel::ordered(
        &inputs,
        || wwd::Opener::new(options.wwd()),
        |levels, input| line(input, json, options, levels),
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
fn line(
    input: &Input,
    json: bool,
    options: ReadOptions,
    levels: &mut wwd::Opener,
) -> Result<Option<String>> {
    let Some((file, format)) = files::open_input(input, options)? else {
        return Ok(None);
    };
    Ok(Some(render(&input.path, &file, format, json, levels)?))
}

fn render(
    path: &Path,
    data: &[u8],
    format: Format,
    json: bool,
    levels: &mut wwd::Opener,
) -> Result<String> {
    match format {
        Format::WowsGeometry => {
            let info = geometry::info(path, data)?;
            Ok(if json {
                serde_json::to_string(&info)?
            } else {
                geometry::info_line(&info)
            })
        }
        Format::Ff13Wdb => {
            let info = wdb::info(path, data)?;
            Ok(if json {
                serde_json::to_string(&info)?
            } else {
                wdb::info_line(&info)
            })
        }
        Format::CraftStudioProject => {
            let info = craftstudio::info(path, data)?;
            Ok(if json {
                serde_json::to_string(&info)?
            } else {
                craftstudio::info_line(&info)
            })
        }
        Format::Wap32Wwd => {
            let info = wwd::info(path, data, levels)?;
            Ok(if json {
                serde_json::to_string(&info)?
            } else {
                wwd::info_line(&info)
            })
        }
        Format::WowsAssets => {
            let info = assets::info(path, data)?;
            Ok(if json {
                serde_json::to_string(&info)?
            } else {
                assets::info_line(&info)
            })
        }
        Format::RustyHeartsWdata => {
            let info = wdata::info(path, data)?;
            Ok(if json {
                serde_json::to_string(&info)?
            } else {
                wdata::info_line(&info)
            })
        }
        other => anyhow::bail!("format {other} has no info view yet"),
    }
}

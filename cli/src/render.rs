//! `gamebin wwd render FILE.wwd [--plane NAME] -o map.png`: a picture of one plane of a level
//! (`gamebin::wwd::export::render`), written as a PNG.

use std::io::BufWriter;
use std::path::Path;

use anyhow::{Context, Result, bail};
use gamebin::Format;
use gamebin::wwd::export::render::{RenderError, RenderOptions, render_plane};
use gamebin::wwd::{Inflater, WwdView, text_lossy};

use crate::files::{self, ReadOptions};
use crate::output::{Status, report};

/// What to draw and how.
pub struct Settings<'s> {
    /// The plane's name; `None` for the main plane.
    pub plane: Option<&'s str>,
    /// Pixels per tile; `None` for automatic.
    pub scale: Option<u32>,
    /// Crop to the part of the plane in use.
    pub crop: bool,
    pub read: ReadOptions,
    /// Replace an existing output file.
    pub force: bool,
}

pub fn run(path: &Path, settings: &Settings<'_>, output: &Path) -> Result<Status> {
    match render(path, settings, output) {
        Ok(()) => Ok(Status::Success),
        Err(e) => {
            report(path, &e);
            Ok(Status::SomeFailed)
        }
    }
}

fn render(path: &Path, settings: &Settings<'_>, output: &Path) -> Result<()> {
    // Refused before the level is read (no work for nothing), and again when it is created.
    files::refuse_existing(output, settings.force)?;
    let (file, format) = files::open_known(path, settings.read)?;
    if format != Format::Wap32Wwd {
        bail!("wwd render reads .wwd levels; this is {format}");
    }
    let mut buffer = Vec::new();
    let view = WwdView::from_bytes_with(
        &file,
        &mut buffer,
        &mut Inflater::new(),
        settings.read.wwd(),
    )?;
    let plane = match settings.plane {
        Some(name) => view.plane_by_name(name.as_bytes()).with_context(|| {
            let names: Vec<String> = view
                .planes()
                .map(|p| text_lossy(p.name()).into_owned())
                .collect();
            format!("no plane named {name:?} (planes: {})", names.join(", "))
        })?,
        None => view
            .main_plane()
            .or_else(|| view.plane(0))
            .context("the level has no planes")?,
    };
    let options = RenderOptions {
        scale: settings.scale,
        crop: settings.crop,
    };
    let picture = render_plane(&view, &plane, &options).map_err(|e| match e {
        RenderError::TooLarge { .. } => anyhow::anyhow!("{e}; pass a smaller --scale"),
        RenderError::Level(e) => e.into(),
    })?;
    let file = files::create_new(output, settings.force)?;
    picture
        .write_png(BufWriter::new(file))
        .with_context(|| format!("cannot write {}", output.display()))?;
    let (area, (wide, high)) = (picture.area, picture.plane_tiles);
    eprintln!(
        "gamebin: wrote {} ({}x{} px, plane {}, tiles x {}-{} y {}-{} of {}x{})",
        output.display(),
        picture.width,
        picture.height,
        text_lossy(plane.name()),
        area.x0,
        area.x1.saturating_sub(1),
        area.y0,
        area.y1.saturating_sub(1),
        wide,
        high,
    );
    Ok(())
}

//! `gamebin texture FILE.dds -o OUT.png`: one level of a DDS texture decoded to PNG; and the DDS
//! parts of `dump`.

use std::fmt::Write as _;
use std::path::Path;

use anyhow::{Context, Result, bail};
use gamebin::dds::DdsView;
use gamebin::dds::model::DdsModel;
use gamebin::{Format, View};
use serde::Serialize;

use crate::files::{self, ReadOptions};
use crate::output::{Status, report};

/// What `texture` was asked for.
pub struct Settings {
    /// The mip level (`--mip`).
    pub mip: Option<u32>,
    /// The array slice or cube face (`--slice`).
    pub slice: u32,
    /// The largest side wanted (`--max-size`): the best tier or mip within it.
    pub max_size: Option<u32>,
    pub force: bool,
    pub read: ReadOptions,
}

pub fn run(path: &Path, output: &Path, settings: &Settings) -> Result<Status> {
    match texture(path, output, settings) {
        Ok(()) => Ok(Status::Success),
        Err(e) => {
            report(path, &e);
            Ok(Status::SomeFailed)
        }
    }
}

fn texture(path: &Path, output: &Path, settings: &Settings) -> Result<()> {
    files::refuse_existing(output, settings.force)?;
    // --max-size looks at the texture's tiers (.dd0/.dd1/.dd2 beside the .dds) first.
    let (source, tier_mip) = match settings.max_size {
        Some(limit) if !files::is_stdin(path) => {
            match gamebin::dds::tiers::choose(path, Some(limit))? {
                Some(choice) => (choice.tier.path, Some(choice.mip)),
                None => (path.to_path_buf(), None),
            }
        }
        _ => (path.to_path_buf(), None),
    };
    let (file, format) = files::open_known(&source, settings.read)?;
    if format != Format::Dds {
        bail!(
            "texture reads .dds textures; {} is {format}",
            source.display()
        );
    }
    let view = DdsView::from_bytes(&file)?;
    let mip = match (settings.mip, tier_mip, settings.max_size) {
        (Some(mip), _, _) => mip,
        (None, Some(mip), _) => mip,
        (None, None, Some(limit)) => view.mip_within(limit),
        (None, None, None) => 0,
    };
    let level = view.level(settings.slice, mip).with_context(|| {
        format!(
            "no slice {} mip {mip}: the texture has {} and {}",
            settings.slice,
            crate::output::count(view.slice_count(), "slice", "slices"),
            crate::output::count(view.mip_count(), "mip level", "mip levels"),
        )
    })?;
    let mut pixels = Vec::new();
    let mut png = Vec::new();
    gamebin::dds::export::png::write_level(&level, &mut pixels, &mut png)
        .with_context(|| format!("cannot decode slice {} mip {mip}", settings.slice))?;
    files::write_new(output, &png, settings.force)?;
    eprintln!(
        "{}: {} slice {} mip {mip}, {}x{} -> {}",
        source.display(),
        level.format.name(),
        level.slice,
        level.width,
        u64::from(level.height) * u64::from(level.depth),
        output.display()
    );
    Ok(())
}

/// `dump --json` of a texture: its path, the summary `info` prints, and the model (every header
/// field and each level's bytes in hex), which reads back.
#[derive(Serialize)]
pub struct TextureDump {
    pub path: String,
    pub format: &'static str,
    pub size: usize,
    pub summary: gamebin::dds::DdsInfo,
    #[serde(flatten)]
    pub model: DdsModel,
}

pub fn dump(path: &Path, view: &DdsView<'_>) -> Result<TextureDump> {
    Ok(TextureDump {
        path: path.display().to_string(),
        format: Format::Dds.name(),
        size: view.bytes().len(),
        summary: View::summary(view)?,
        model: View::to_model(view)?,
    })
}

/// `dump` of a texture as text: the summary, the header's fields, then one line per level.
pub fn dump_text(path: &Path, view: &DdsView<'_>) -> Result<String> {
    let mut out = String::new();
    let h = view.header();
    let pf = &h.pixel_format;
    let _ = writeln!(out, "{}: {}", path.display(), View::summary(view)?);
    let _ = writeln!(
        out,
        "header: flags {:#x}, pitch or linear size {}, depth {}, mip count {}, caps {:#x} {:#x}",
        h.flags.get(),
        h.pitch_or_linear_size.get(),
        h.depth.get(),
        h.mip_map_count.get(),
        h.caps.get(),
        h.caps2.get()
    );
    let _ = writeln!(
        out,
        "pixel format: flags {:#x}, FourCC {}, {} bits, masks {:#010x} {:#010x} {:#010x} {:#010x}",
        pf.flags.get(),
        gamebin::dds::four_cc_text(pf.four_cc.get()),
        pf.rgb_bit_count.get(),
        pf.r_bit_mask.get(),
        pf.g_bit_mask.get(),
        pf.b_bit_mask.get(),
        pf.a_bit_mask.get()
    );
    if let Some(d) = view.dx10() {
        let _ = writeln!(
            out,
            "DX10: DXGI format {}, dimension {}, misc {:#x}, array size {}, misc2 {:#x}",
            d.dxgi_format.get(),
            d.resource_dimension.get(),
            d.misc_flag.get(),
            d.array_size.get(),
            d.misc_flags2.get()
        );
    }
    for level in view.levels() {
        let _ = writeln!(
            out,
            "slice {} mip {}: {}x{}{}, {} bytes at {:#x}",
            level.slice,
            level.mip,
            level.width,
            level.height,
            if level.depth > 1 {
                format!("x{}", level.depth)
            } else {
                String::new()
            },
            level.data.len(),
            level.offset
        );
    }
    Ok(out)
}

//! What the CLI shows of a Claw / Gruntz `.wwd` level.

use crate::output::{Status, report};
use std::fmt::Write as _;
use std::path::Path;

use anyhow::Result;
use gamebin::wwd::model::{TileBody, WwdModel};
use gamebin::wwd::{ChecksumFacts, PlaneFlags, WapMapMetaInfo, WwdView, text_lossy};
use gamebin::{AnyView, View};
use serde::Serialize;

fn text(bytes: &[u8]) -> String {
    text_lossy(bytes).into_owned()
}

/// `dump`: what the level says about itself, then the owned model (every stored field; the writer
/// takes it back as is).
#[derive(Debug, Serialize)]
pub struct Dump {
    pub path: String,
    pub format: &'static str,
    pub game: &'static str,
    pub compressed: bool,
    pub main_block_length: usize,
    pub signature_ok: bool,
    pub checksum: ChecksumFacts,
    /// WapMap's metadata block, decoded; `null` when the level has none (its bytes are in the
    /// model's `wapmap_meta`).
    pub wapmap: Option<WapMapMetaInfo>,
    pub level: WwdModel,
}

pub fn dump(path: &Path, view: &WwdView<'_>) -> Result<Dump> {
    Ok(Dump {
        path: path.display().to_string(),
        format: gamebin::Format::Wap32Wwd.name(),
        game: view.game().name(),
        compressed: view.is_compressed(),
        main_block_length: view.main_block_len(),
        signature_ok: view.signature_ok(),
        checksum: view.checksum().facts(),
        wapmap: view
            .wapmap_meta()
            .map(|m| WapMapMetaInfo::from_meta(&m))
            .transpose()?,
        level: View::to_model(view)?,
    })
}

pub fn dump_text(d: &Dump) -> String {
    let mut s = String::new();
    let h = &d.level.header;
    let slot = |b: &[u8]| text(gamebin::wwd::fixed(b));
    let _ = writeln!(s, "{}: {} ({})", d.path, d.format, d.game);
    let _ = writeln!(
        s,
        "level {:?} by {:?} ({}), {}main block {} bytes",
        slot(&h.name),
        slot(&h.author),
        slot(&h.birth),
        if d.compressed { "compressed, " } else { "" },
        d.main_block_length
    );
    let _ = writeln!(
        s,
        "start ({}, {}), image dir {:?}, image sets {:?}, prefixes {:?}",
        h.start_x.get(),
        h.start_y.get(),
        slot(&h.image_dir),
        h.image_sets.iter().map(|b| slot(b)).collect::<Vec<_>>(),
        h.prefixes.iter().map(|b| slot(b)).collect::<Vec<_>>()
    );
    let _ = writeln!(
        s,
        "checksum {:#010x}: {} (residual {})",
        d.checksum.stored, d.checksum.verdict, d.checksum.residual
    );
    for p in &d.level.planes {
        let r = &p.header;
        let f = PlaneFlags(r.flags.get());
        let _ = writeln!(
            s,
            "plane {:?}: flags {:#x}{}{}{}, {}x{} tiles of {}x{} px, movement {}%/{}%, z {}, image sets {:?}, {} objects",
            slot(&r.name),
            f.0,
            if f.is_main() { " main" } else { "" },
            if f.wraps_x() { " wrap-x" } else { "" },
            if f.wraps_y() { " wrap-y" } else { "" },
            r.tiles_wide.get(),
            r.tiles_high.get(),
            r.tile_width.get(),
            r.tile_height.get(),
            r.movement_x_percent.get(),
            r.movement_y_percent.get(),
            r.z_coord.get(),
            p.image_sets.iter().map(|b| text(b)).collect::<Vec<_>>(),
            p.objects.len()
        );
        for o in &p.objects {
            let f = &o.fields;
            let _ = writeln!(
                s,
                "  object {} {:?} logic {:?} at ({}, {}) z {}",
                f.id.get(),
                text(&o.name),
                text(&o.logic),
                f.location_x.get(),
                f.location_y.get(),
                f.location_z.get()
            );
        }
    }
    let count = |want: fn(&TileBody) -> bool| {
        d.level
            .tile_properties
            .iter()
            .filter(|p| want(&p.body))
            .count()
    };
    let _ = writeln!(
        s,
        "{} tile properties: {} single, {} double, {} mask",
        d.level.tile_properties.len(),
        count(|b| matches!(b, TileBody::Single(_))),
        count(|b| matches!(b, TileBody::Double { .. })),
        count(|b| matches!(b, TileBody::Mask(_)))
    );
    if let Some(m) = &d.wapmap {
        let _ = write!(s, "WapMap metadata at {:#x}, {} bytes", m.offset, m.length);
        if let (Some(version), Some(build)) = (&m.wapmap_version, m.wapmap_build) {
            let _ = write!(
                s,
                ": saved by WapMap {version} build {build}, map version {:?} build {}, description {:?}",
                m.map_version.as_deref().unwrap_or(""),
                m.map_build.unwrap_or(0),
                m.map_description.as_deref().unwrap_or("")
            );
        }
        let _ = writeln!(s, ", {} guides", m.guides);
    }
    s
}

/// `gamebin wwd tiled LEVEL.wwd -o LEVEL.tmx`.
pub fn tiled(
    path: &Path,
    output: &Path,
    options: crate::files::ReadOptions,
    force: bool,
    placeholders: bool,
) -> Result<Status> {
    let run = || -> Result<()> {
        let (file, format) = crate::files::open_known(path, options)?;
        let mut scratch = options.scratch();
        let AnyView::Wwd(view) = AnyView::from_bytes_as(format, &file, &mut scratch)? else {
            anyhow::bail!("not a .wwd level ({format})");
        };
        let level = View::to_model(&view)?;
        if !placeholders {
            let map = gamebin::wwd::export::tiled::to_tmx(&level);
            return crate::files::write_new(output, map.as_bytes(), force);
        }
        // The tileset images go to `NAME.tiles/` beside `NAME.tmx`, named relative to the map.
        let stem = output
            .file_stem()
            .map_or_else(|| "map".into(), |s| s.to_string_lossy().into_owned());
        let folder = format!("{stem}.tiles");
        let (map, images) = gamebin::wwd::export::tiled::to_tmx_with_placeholders(&level, &folder)
            .map_err(|e| anyhow::anyhow!("tileset images: {e}"))?;
        let base = output.parent().unwrap_or(Path::new(""));
        crate::files::refuse_existing(output, force)?;
        std::fs::create_dir_all(base.join(&folder))
            .map_err(|e| anyhow::anyhow!("cannot make {}: {e}", base.join(&folder).display()))?;
        for image in &images {
            let target = base.join(&image.file);
            let mut png = Vec::new();
            image.picture.write_png(&mut png)?;
            crate::files::write_new(&target, &png, force)?;
        }
        crate::files::write_new(output, map.as_bytes(), force)
    };
    Ok(match run() {
        Ok(()) => Status::Success,
        Err(e) => {
            report(path, &e);
            Status::SomeFailed
        }
    })
}

/// `gamebin wwd from-tiled LEVEL.tmx -o LEVEL.wwd`.
pub fn from_tiled(path: &Path, output: &Path, force: bool) -> Result<Status> {
    let run = || -> Result<()> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| anyhow::anyhow!("cannot read the map: {e}"))?;
        let level = gamebin::wwd::export::tiled::from_tmx(&text)?;
        crate::files::write_new(output, &level.to_bytes()?, force)
    };
    Ok(match run() {
        Ok(()) => Status::Success,
        Err(e) => {
            report(path, &e);
            Status::SomeFailed
        }
    })
}

//! What the CLI shows of a Claw / Gruntz `.wwd` level.

use crate::output::{Status, count, report};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;

use anyhow::Result;
use gamebin::write::wwd::{Level, TileBody};
use gamebin::wwd::{ChecksumFacts, Inflater, Options, PlaneFlags, WapMapMeta, WwdView, text_lossy};
use serde::Serialize;

/// Opens levels with the command line's options, keeping one inflate buffer and one decompressor
/// across them, so that `gamebin info DIR` over thousands of compressed levels allocates the
/// decompressor once and the buffer only when a level is larger than every one before it.
pub struct Opener {
    buffer: Vec<u8>,
    inflater: Inflater,
    options: Options,
}

impl Opener {
    pub fn new(options: Options) -> Opener {
        Opener {
            buffer: Vec::new(),
            inflater: Inflater::new(),
            options,
        }
    }

    /// Opens a level, inflating into the kept buffer when compressed.
    pub fn open<'a>(&'a mut self, data: &'a [u8]) -> Result<WwdView<'a>> {
        Ok(WwdView::from_bytes_with(
            data,
            &mut self.buffer,
            &mut self.inflater,
            self.options,
        )?)
    }
}

fn text(bytes: &[u8]) -> String {
    text_lossy(bytes).into_owned()
}

/// WapMap's metadata block in `info`: where it is and its Header fields (`null` when the block has
/// no Header block).
#[derive(Debug, Serialize)]
pub struct WapMapMetaInfo {
    pub offset: usize,
    pub length: usize,
    pub wapmap_build: Option<i32>,
    pub wapmap_version: Option<String>,
    pub map_build: Option<i32>,
    pub map_version: Option<String>,
    pub map_description: Option<String>,
    /// How many guide lines.
    pub guides: usize,
}

fn wapmap_meta_info(meta: &WapMapMeta<'_>) -> Result<WapMapMetaInfo> {
    let header = meta.header()?;
    Ok(WapMapMetaInfo {
        offset: meta.offset(),
        length: meta.len(),
        wapmap_build: header.map(|h| h.wapmap_build),
        wapmap_version: header.map(|h| text(h.wapmap_version)),
        map_build: header.map(|h| h.map_build),
        map_version: header.map(|h| text(h.map_version)),
        map_description: header.map(|h| text(h.map_description)),
        guides: meta.guides()?.len(),
    })
}

#[derive(Debug, Serialize)]
pub struct Info {
    pub path: String,
    pub format: &'static str,
    pub game: &'static str,
    pub compressed: bool,
    pub planes: usize,
    pub main_block_length: usize,
    pub objects: usize,
    pub tile_properties: u32,
    pub tile_property_types: BTreeMap<String, usize>,
    pub checksum: ChecksumFacts,
    /// WapMap's metadata block after the main block; `null` when the level has none.
    pub wapmap_meta: Option<WapMapMetaInfo>,
}

pub fn info(path: &Path, data: &[u8], levels: &mut Opener) -> Result<Info> {
    let view = levels.open(data)?;
    let mut objects = 0;
    for plane in view.planes() {
        for o in plane.objects()? {
            o?;
            objects += 1;
        }
    }
    let table = view.tile_properties()?;
    let mut types: BTreeMap<String, usize> =
        ["1", "2", "3"].iter().map(|t| (t.to_string(), 0)).collect();
    for p in table.iter() {
        *types.entry(p?.tile_type().to_string()).or_insert(0) += 1;
    }
    Ok(Info {
        path: path.display().to_string(),
        format: gamebin::Format::Wap32Wwd.name(),
        game: view.game().name(),
        compressed: view.is_compressed(),
        planes: view.plane_count(),
        main_block_length: view.main_block_len(),
        objects,
        tile_properties: table.len(),
        tile_property_types: types,
        checksum: view.checksum().facts(),
        wapmap_meta: view
            .wapmap_meta()
            .map(|m| wapmap_meta_info(&m))
            .transpose()?,
    })
}

pub fn info_line(i: &Info) -> String {
    let mut line = format!(
        "{}: {}, {}, {}{}, main block {}, {}, {} ({} single, {} double, {} mask), checksum {:#010x} ({}, residual {})",
        i.path,
        i.format,
        i.game,
        if i.compressed { "compressed, " } else { "" },
        count(i.planes, "plane", "planes"),
        count(i.main_block_length, "byte", "bytes"),
        count(i.objects, "object", "objects"),
        count(i.tile_properties, "tile property", "tile properties"),
        i.tile_property_types.get("1").unwrap_or(&0),
        i.tile_property_types.get("2").unwrap_or(&0),
        i.tile_property_types.get("3").unwrap_or(&0),
        i.checksum.stored,
        i.checksum.verdict,
        i.checksum.residual,
    );
    if let Some(m) = &i.wapmap_meta {
        let _ = write!(line, ", WapMap metadata {} bytes", m.length);
        if let (Some(version), Some(build)) = (&m.wapmap_version, m.wapmap_build) {
            let _ = write!(line, " (WapMap {version} build {build})");
        }
    }
    line
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
    pub level: Level,
}

pub fn dump(path: &Path, data: &[u8], levels: &mut Opener) -> Result<Dump> {
    let view = levels.open(data)?;
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
            .map(|m| wapmap_meta_info(&m))
            .transpose()?,
        level: Level::from_view(&view)?,
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
        if format != gamebin::Format::Wap32Wwd {
            anyhow::bail!("not a .wwd level ({format})");
        }
        let mut levels = Opener::new(options.wwd());
        let view = levels.open(&file)?;
        let level = Level::from_view(&view)?;
        if !placeholders {
            let map = gamebin::wwd::tiled::to_tmx(&level);
            return crate::files::write_new(output, map.as_bytes(), force);
        }
        // The tileset images go to `NAME.tiles/` beside `NAME.tmx`, named relative to the map.
        let stem = output
            .file_stem()
            .map_or_else(|| "map".into(), |s| s.to_string_lossy().into_owned());
        let folder = format!("{stem}.tiles");
        let (map, images) = gamebin::wwd::tiled::to_tmx_with_placeholders(&level, &folder)
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
        let level = gamebin::wwd::tiled::from_tmx(&text)?;
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

//! What the CLI shows of a Claw / Gruntz `.wwd` level.

use crate::output::count;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;

use anyhow::{Context, Result};
use gamebin::wwd::{Inflater, Object, Options, Plane, TileKind, WapMapMeta, WwdView, text_lossy};
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

#[derive(Debug, Serialize)]
pub struct Checksum {
    pub stored: u32,
    pub verdict: &'static str,
    /// `stored − (published formula)`, signed.
    pub residual: i32,
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
    pub checksum: Checksum,
    /// WapMap's metadata block after the main block; `null` when the level has none.
    pub wapmap_meta: Option<WapMapMetaInfo>,
}

fn checksum(view: &WwdView<'_>) -> Checksum {
    let c = view.checksum();
    Checksum {
        stored: c.stored,
        verdict: c.verdict.name(),
        residual: c.residual(),
    }
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
        checksum: checksum(&view),
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

#[derive(Debug, Serialize)]
pub struct HeaderDump {
    pub signature: u32,
    pub unknown1: u32,
    pub flags: u32,
    pub unknown2: u32,
    pub name: String,
    pub author: String,
    pub birth: String,
    pub rez_file: String,
    pub image_dir: String,
    pub pal_rez: String,
    pub start_x: i32,
    pub start_y: i32,
    pub unknown3: u32,
    pub num_planes: u32,
    pub offset_planes: u32,
    pub offset_tile_properties: u32,
    pub decompressed_mainblock_size: u32,
    pub checksum: u32,
    pub unknown4: u32,
    pub launch_app: String,
    pub image_sets: Vec<String>,
    pub prefixes: Vec<String>,
}

#[derive(Debug, Serialize)]
pub struct ObjectDump {
    pub offset: usize,
    pub id: i32,
    pub name: String,
    pub logic: String,
    pub image_set: String,
    pub animation: String,
    pub location: [i32; 4],
    pub flags_add: u32,
    pub flags_dynamic: u32,
    pub flags_draw: u32,
    pub flags_user: u32,
    pub score: i32,
    pub points: i32,
    pub powerup: i32,
    pub damage: i32,
    pub smarts: i32,
    pub health: i32,
    pub rect_move: [i32; 4],
    pub rect_hit: [i32; 4],
    pub rect_attack: [i32; 4],
    pub rect_clip: [i32; 4],
    pub rect_user1: [i32; 4],
    pub rect_user2: [i32; 4],
    pub user: [i32; 8],
    pub min: [i32; 2],
    pub max: [i32; 2],
    pub speed_xy: [i32; 2],
    pub tweak: [i32; 2],
    pub counter: i32,
    pub speed: i32,
    pub width: i32,
    pub height: i32,
    pub direction: i32,
    pub face_dir: i32,
    pub time_delay: i32,
    pub frame_delay: i32,
    pub object_type: u32,
    pub flags_hit_type: u32,
    pub move_res: [u32; 2],
}

fn object_dump(o: &Object<'_>) -> ObjectDump {
    let r = o.raw();
    ObjectDump {
        offset: o.position(),
        id: o.id(),
        name: text(o.name()),
        logic: text(o.logic()),
        image_set: text(o.image_set()),
        animation: text(o.animation()),
        location: [
            r.location_x.get(),
            r.location_y.get(),
            r.location_z.get(),
            r.location_i.get(),
        ],
        flags_add: r.flags_add.get(),
        flags_dynamic: r.flags_dynamic.get(),
        flags_draw: r.flags_draw.get(),
        flags_user: r.flags_user.get(),
        score: r.score.get(),
        points: r.points.get(),
        powerup: r.powerup.get(),
        damage: r.damage.get(),
        smarts: r.smarts.get(),
        health: r.health.get(),
        rect_move: r.rect_move.get(),
        rect_hit: r.rect_hit.get(),
        rect_attack: r.rect_attack.get(),
        rect_clip: r.rect_clip.get(),
        rect_user1: r.rect_user1.get(),
        rect_user2: r.rect_user2.get(),
        user: r.user.map(|u| u.get()),
        min: [r.min_x.get(), r.min_y.get()],
        max: [r.max_x.get(), r.max_y.get()],
        speed_xy: [r.speed_x.get(), r.speed_y.get()],
        tweak: [r.tweak_x.get(), r.tweak_y.get()],
        counter: r.counter.get(),
        speed: r.speed.get(),
        width: r.width.get(),
        height: r.height.get(),
        direction: r.direction.get(),
        face_dir: r.face_dir.get(),
        time_delay: r.time_delay.get(),
        frame_delay: r.frame_delay.get(),
        object_type: r.object_type.get(),
        flags_hit_type: r.flags_hit_type.get(),
        move_res: [r.move_res_x.get(), r.move_res_y.get()],
    }
}

#[derive(Debug, Serialize)]
pub struct PlaneDump {
    pub offset: usize,
    pub name: String,
    pub flags: u32,
    pub main: bool,
    pub no_draw: bool,
    pub wrap_x: bool,
    pub wrap_y: bool,
    pub auto_tile_size: bool,
    pub width_px: i32,
    pub height_px: i32,
    pub tile_width: i32,
    pub tile_height: i32,
    pub tiles_wide: i32,
    pub tiles_high: i32,
    pub movement_x_percent: i32,
    pub movement_y_percent: i32,
    pub fill_color: i32,
    pub z_coord: i32,
    /// Reserved fields as stored: unknown1..7 of the plane header.
    pub unknown: [u32; 7],
    pub image_sets: Vec<String>,
    /// Stored tile values, one array per row: 4294967295 is invisible, 4008636142 filled, others
    /// `image_set << 16 | tile`.
    pub tiles: Vec<Vec<u32>>,
    pub objects: Vec<ObjectDump>,
}

fn plane_dump(p: &Plane<'_>) -> Result<PlaneDump> {
    let r = p.raw();
    let f = p.flags();
    Ok(PlaneDump {
        offset: p.position(),
        name: text(p.name()),
        flags: f.0,
        main: f.is_main(),
        no_draw: f.no_draw(),
        wrap_x: f.wraps_x(),
        wrap_y: f.wraps_y(),
        auto_tile_size: f.auto_tile_size(),
        width_px: p.width_px(),
        height_px: p.height_px(),
        tile_width: p.tile_width(),
        tile_height: p.tile_height(),
        tiles_wide: p.tiles_wide(),
        tiles_high: p.tiles_high(),
        movement_x_percent: r.movement_x_percent.get(),
        movement_y_percent: r.movement_y_percent.get(),
        fill_color: p.fill_color(),
        z_coord: p.z_coord(),
        unknown: [
            r.unknown1.get(),
            r.unknown2.get(),
            r.unknown3.get(),
            r.unknown4.get(),
            r.unknown5.get(),
            r.unknown6.get(),
            r.unknown7.get(),
        ],
        image_sets: p
            .image_sets()
            .map(|s| s.map(text))
            .collect::<Result<_, _>>()?,
        tiles: p
            .tiles()?
            .rows()
            .map(|row| row.iter().map(|t| t.get()).collect())
            .collect(),
        objects: p
            .objects()?
            .map(|o| o.map(|o| object_dump(&o)))
            .collect::<Result<_, _>>()?,
    })
}

#[derive(Debug, Serialize)]
pub struct TilePropertyDump {
    pub id: u32,
    pub offset: usize,
    #[serde(rename = "type")]
    pub tile_type: &'static str,
    pub width: u32,
    pub height: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub attribute: Option<i32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub outside: Option<i32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub inside: Option<i32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rect: Option<[i32; 4]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mask: Option<Vec<u8>>,
}

#[derive(Debug, Serialize)]
pub struct MetaBlockDump {
    pub offset: usize,
    #[serde(rename = "type")]
    pub block_type: u8,
    /// WapMap's name for the type, or `unknown`.
    pub name: &'static str,
    pub length: usize,
}

#[derive(Debug, Serialize)]
pub struct MetaHeaderDump {
    pub wapmap_build: i32,
    pub wapmap_version: String,
    pub map_build: i32,
    pub map_version: String,
    pub map_description: String,
}

#[derive(Debug, Serialize)]
pub struct GuideDump {
    /// WapMap's `bOrient`: 1 horizontal, 0 vertical.
    pub orientation: u8,
    pub position: i32,
}

/// WapMap's metadata block in `dump`: its blocks, its Header block (`null` when it has none) and
/// its guide lines.
#[derive(Debug, Serialize)]
pub struct WapMapMetaDump {
    pub offset: usize,
    pub length: usize,
    pub blocks: Vec<MetaBlockDump>,
    pub header: Option<MetaHeaderDump>,
    pub guides: Vec<GuideDump>,
}

fn wapmap_meta_dump(meta: &WapMapMeta<'_>) -> Result<WapMapMetaDump> {
    let blocks = meta
        .blocks()
        .map(|b| {
            b.map(|b| MetaBlockDump {
                offset: b.offset(),
                block_type: b.block_type(),
                name: b.kind().name(),
                length: b.data().len(),
            })
        })
        .collect::<Result<_, _>>()?;
    Ok(WapMapMetaDump {
        offset: meta.offset(),
        length: meta.len(),
        blocks,
        header: meta.header()?.map(|h| MetaHeaderDump {
            wapmap_build: h.wapmap_build,
            wapmap_version: text(h.wapmap_version),
            map_build: h.map_build,
            map_version: text(h.map_version),
            map_description: text(h.map_description),
        }),
        guides: meta
            .guides()?
            .iter()
            .map(|g| GuideDump {
                orientation: g.orientation,
                position: g.position.get(),
            })
            .collect(),
    })
}

#[derive(Debug, Serialize)]
pub struct Dump {
    pub path: String,
    pub format: &'static str,
    pub game: &'static str,
    pub compressed: bool,
    pub main_block_length: usize,
    pub signature_ok: bool,
    pub checksum: Checksum,
    pub header: HeaderDump,
    pub planes: Vec<PlaneDump>,
    pub tile_properties: Vec<TilePropertyDump>,
    /// WapMap's metadata block after the main block; `null` when the level has none.
    pub wapmap_meta: Option<WapMapMetaDump>,
}

pub fn dump(path: &Path, data: &[u8], levels: &mut Opener) -> Result<Dump> {
    let view = levels.open(data)?;
    let h = view.header();
    let header = HeaderDump {
        signature: h.signature.get(),
        unknown1: h.unknown1.get(),
        flags: h.flags.get(),
        unknown2: h.unknown2.get(),
        name: text(view.name()),
        author: text(view.author()),
        birth: text(view.birth()),
        rez_file: text(view.rez_file()),
        image_dir: text(view.image_dir()),
        pal_rez: text(view.pal_rez()),
        start_x: h.start_x.get(),
        start_y: h.start_y.get(),
        unknown3: h.unknown3.get(),
        num_planes: h.num_planes.get(),
        offset_planes: h.offset_planes.get(),
        offset_tile_properties: h.offset_tile_properties.get(),
        decompressed_mainblock_size: h.decompressed_mainblock_size.get(),
        checksum: h.checksum.get(),
        unknown4: h.unknown4.get(),
        launch_app: text(view.launch_app()),
        image_sets: (0..4).filter_map(|i| view.image_set(i)).map(text).collect(),
        prefixes: (0..4).filter_map(|i| view.prefix(i)).map(text).collect(),
    };
    let planes = view
        .planes()
        .map(|p| plane_dump(&p).with_context(|| format!("plane {}", text(p.name()))))
        .collect::<Result<_>>()?;
    let mut tile_properties = Vec::new();
    for p in view.tile_properties()?.iter() {
        let p = p?;
        let mut d = TilePropertyDump {
            id: p.id(),
            offset: p.position(),
            tile_type: "single",
            width: p.width(),
            height: p.height(),
            attribute: None,
            outside: None,
            inside: None,
            rect: None,
            mask: None,
        };
        match p.kind() {
            TileKind::Single { attribute } => d.attribute = Some(attribute),
            TileKind::Double {
                outside,
                inside,
                rect,
            } => {
                d.tile_type = "double";
                (d.outside, d.inside, d.rect) = (Some(outside), Some(inside), Some(rect));
            }
            TileKind::Mask { mask } => {
                d.tile_type = "mask";
                d.mask = Some(mask.to_vec());
            }
        }
        tile_properties.push(d);
    }
    Ok(Dump {
        path: path.display().to_string(),
        format: gamebin::Format::Wap32Wwd.name(),
        game: view.game().name(),
        compressed: view.is_compressed(),
        main_block_length: view.main_block_len(),
        signature_ok: view.signature_ok(),
        checksum: checksum(&view),
        header,
        planes,
        tile_properties,
        wapmap_meta: view
            .wapmap_meta()
            .map(|m| wapmap_meta_dump(&m))
            .transpose()?,
    })
}

pub fn dump_text(d: &Dump) -> String {
    let mut s = String::new();
    let h = &d.header;
    let _ = writeln!(s, "{}: {} ({})", d.path, d.format, d.game);
    let _ = writeln!(
        s,
        "level {:?} by {:?} ({}), {}main block {} bytes",
        h.name,
        h.author,
        h.birth,
        if d.compressed { "compressed, " } else { "" },
        d.main_block_length
    );
    let _ = writeln!(
        s,
        "start ({}, {}), image dir {:?}, image sets {:?}, prefixes {:?}",
        h.start_x, h.start_y, h.image_dir, h.image_sets, h.prefixes
    );
    let _ = writeln!(
        s,
        "checksum {:#010x}: {} (residual {})",
        d.checksum.stored, d.checksum.verdict, d.checksum.residual
    );
    for p in &d.planes {
        let _ = writeln!(
            s,
            "plane {:?} at {:#x}: flags {:#x}{}{}{}, {}x{} tiles of {}x{} px, movement {}%/{}%, z {}, image sets {:?}, {} objects",
            p.name,
            p.offset,
            p.flags,
            if p.main { " main" } else { "" },
            if p.wrap_x { " wrap-x" } else { "" },
            if p.wrap_y { " wrap-y" } else { "" },
            p.tiles_wide,
            p.tiles_high,
            p.tile_width,
            p.tile_height,
            p.movement_x_percent,
            p.movement_y_percent,
            p.z_coord,
            p.image_sets,
            p.objects.len()
        );
        for o in &p.objects {
            let _ = writeln!(
                s,
                "  object {} {:?} logic {:?} at ({}, {}) z {}",
                o.id, o.name, o.logic, o.location[0], o.location[1], o.location[2]
            );
        }
    }
    let count = |t: &str| {
        d.tile_properties
            .iter()
            .filter(|p| p.tile_type == t)
            .count()
    };
    let _ = writeln!(
        s,
        "{} tile properties: {} single, {} double, {} mask",
        d.tile_properties.len(),
        count("single"),
        count("double"),
        count("mask")
    );
    if let Some(m) = &d.wapmap_meta {
        let _ = write!(
            s,
            "WapMap metadata at {:#x}, {} bytes, blocks {:?}",
            m.offset,
            m.length,
            m.blocks.iter().map(|b| b.name).collect::<Vec<_>>()
        );
        if let Some(h) = &m.header {
            let _ = write!(
                s,
                ": saved by WapMap {} build {}, map version {:?} build {}, description {:?}",
                h.wapmap_version, h.wapmap_build, h.map_version, h.map_build, h.map_description
            );
        }
        let _ = writeln!(s, ", {} guides", m.guides.len());
    }
    s
}

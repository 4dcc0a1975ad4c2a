//! A level ([`WwdModel`](crate::wwd::model::WwdModel)) → TMX.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use super::xml::escape as xml;
use super::{DERIVED_HEADER, DERIVED_OBJECT, DERIVED_PLANE, DERIVED_TABLE, DERIVED_TILE};
use crate::bytes::hex;
use crate::wwd::export::render::{Picture, Property, RenderError, SheetTiles, tile_sheet};
use crate::wwd::model::{PlaneData, TileBody, WwdModel};
use crate::wwd::raw::{Header, Object, PlaneHeader, TilePropertiesHeader, TilePropertyBase};
use crate::wwd::{PlaneFlags, Tile, escape, fixed};

/// A tileset of the map: which plane's image set it stands for, its first gid and size.
struct Tileset {
    /// `None` for the `filled` tileset and the one that only carries the tile properties.
    plane_set: Option<(usize, u16)>,
    name: String,
    first_gid: u32,
    count: u32,
    tile_width: i32,
    tile_height: i32,
    tile_properties: bool,
    filled: bool,
}

/// Appends `<properties>` with one string property per (name, value), when there are any.
fn properties(out: &mut String, indent: &str, props: &[(String, String)]) {
    if props.is_empty() {
        return;
    }
    let _ = writeln!(out, "{indent}<properties>");
    for (name, value) in props {
        let _ = writeln!(
            out,
            "{indent} <property name=\"{}\" value=\"{}\"/>",
            xml(name),
            xml(value)
        );
    }
    let _ = writeln!(out, "{indent}</properties>");
}

/// Every field of a raw struct but the derived ones, as (prefix + name, text).
fn fields(
    names: &[&'static str],
    skip: &[&str],
    prefix: &str,
    text: impl Fn(&str) -> Option<String>,
) -> Vec<(String, String)> {
    names
        .iter()
        .filter(|n| !skip.contains(n))
        .filter_map(|n| Some((format!("{prefix}{n}"), text(n)?)))
        .collect()
}

/// The image-set indices a plane's tiles use, with the highest tile index of each; every named
/// image set is listed even when no tile uses it.
fn sets_used(plane: &PlaneData) -> BTreeMap<u16, u32> {
    let mut sets: BTreeMap<u16, u32> = BTreeMap::new();
    for s in 0..plane.image_sets.len().min(usize::from(u16::MAX) + 1) {
        sets.insert(s as u16, 0);
    }
    for &value in &plane.tiles {
        if let Tile::Image { set, index } = Tile::from_raw(value) {
            let top = sets.entry(set).or_insert(0);
            *top = (*top).max(u32::from(index) + 1);
        }
    }
    sets
}

impl Tileset {
    /// Tiles per row of the tileset (and of its image).
    fn columns(&self) -> u32 {
        self.count.clamp(1, 64)
    }
}

fn tile_size(v: i32) -> i32 {
    v.max(1)
}

/// The level as a TMX map (see the [module](super) for the layout). Text only: the tilesets have
/// no images ([`to_tmx_with_placeholders`] gives them some).
pub fn to_tmx(level: &WwdModel) -> String {
    match tmx(level, |_| Ok::<_, core::convert::Infallible>(None)) {
        Ok(text) => text,
        Err(never) => match never {},
    }
}

/// A tileset's image for [`to_tmx_with_placeholders`]: its file name as the map names it (in the
/// folder given) and the picture to write there.
#[derive(Debug, Clone)]
pub struct TilesetImage {
    /// The `source` of the tileset's `<image>`: `folder/NN-name.png`, relative to the map.
    pub file: String,
    /// The picture (see [`crate::wwd::export::render`]; `write_png` with the `png` feature).
    pub picture: Picture,
}

/// [`to_tmx`] with an image for every tileset, so that Tiled draws the tiles: placeholders made
/// from the level alone, without the game's `.REZ` graphics — each tile shows its collision
/// attributes (the tile property's single, double or mask attributes, coloured as `wwd render`
/// colours them; grey where the level has no property for it) and its tile id. The map names
/// each image `folder/NN-name.png`; the caller writes the pictures there. `from_tmx` ignores the
/// images: a map with them converts back to the same level.
pub fn to_tmx_with_placeholders(
    level: &WwdModel,
    folder: &str,
) -> Result<(String, Vec<TilesetImage>), RenderError> {
    let properties: Vec<Property> = level
        .tile_properties
        .iter()
        .map(|tp| match &tp.body {
            TileBody::Single(a) => Property::Single(*a),
            TileBody::Double {
                outside,
                inside,
                rect,
            } => Property::Double {
                outside: *outside,
                inside: *inside,
                rect: *rect,
            },
            TileBody::Mask(mask) => Property::Mask {
                width: usize::try_from(tp.base.width.get()).unwrap_or(0),
                height: usize::try_from(tp.base.height.get()).unwrap_or(0),
                mask: mask.clone(),
            },
        })
        .collect();
    let mut images = Vec::new();
    let text = tmx(level, |t: &Tileset| {
        let tiles = if t.filled {
            SheetTiles::Filled
        } else {
            SheetTiles::Numbered(&properties)
        };
        let size = |v: i32| u32::try_from(v).unwrap_or(1);
        let picture = tile_sheet(
            tiles,
            (size(t.tile_width), size(t.tile_height)),
            t.count,
            t.columns(),
        )?;
        let file = format!("{folder}/{:02}-{}.png", images.len(), file_name(&t.name));
        let reference = (file.clone(), picture.width, picture.height);
        images.push(TilesetImage { file, picture });
        Ok::<_, RenderError>(Some(reference))
    })?;
    Ok((text, images))
}

/// A tileset's name as a file name: letters, digits, `-` and `_` kept, anything else `_`.
fn file_name(name: &str) -> String {
    name.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// The map, with `image(tileset)` giving each tileset's image (`source`, width, height), if any.
fn tmx<E>(
    level: &WwdModel,
    mut image: impl FnMut(&Tileset) -> Result<Option<(String, usize, usize)>, E>,
) -> Result<String, E> {
    let main = level
        .planes
        .iter()
        .position(|p| PlaneFlags(p.header.flags.get()).is_main());
    let reference = main
        .and_then(|m| level.planes.get(m))
        .or(level.planes.first());
    let (map_tw, map_th) = reference.map_or((64, 64), |p| {
        (
            tile_size(p.header.tile_width.get()),
            tile_size(p.header.tile_height.get()),
        )
    });
    let map_w = level
        .planes
        .iter()
        .map(|p| p.header.tiles_wide.get())
        .max()
        .unwrap_or(0)
        .max(0);
    let map_h = level
        .planes
        .iter()
        .map(|p| p.header.tiles_high.get())
        .max()
        .unwrap_or(0)
        .max(0);

    // Tilesets: `filled` first, then each plane's image sets; gids follow one another.
    let mut tilesets = vec![Tileset {
        plane_set: None,
        name: "filled".into(),
        first_gid: 1,
        count: 1,
        tile_width: map_tw,
        tile_height: map_th,
        tile_properties: false,
        filled: true,
    }];
    let mut next_gid: u32 = 2;
    let table_len = u32::try_from(level.tile_properties.len()).unwrap_or(u32::MAX);
    let mut carried = false;
    for (p, plane) in level.planes.iter().enumerate() {
        for (set, top) in sets_used(plane) {
            let carries = Some(p) == main && set == 0;
            carried |= carries;
            let count = if carries { top.max(table_len) } else { top }.max(1);
            let name = plane
                .image_sets
                .get(usize::from(set))
                .map_or_else(|| format!("plane {p} set {set}"), |n| escape(n, b""));
            tilesets.push(Tileset {
                plane_set: Some((p, set)),
                name,
                first_gid: next_gid,
                count,
                tile_width: tile_size(plane.header.tile_width.get()),
                tile_height: tile_size(plane.header.tile_height.get()),
                tile_properties: carries,
                filled: false,
            });
            next_gid = next_gid.saturating_add(count);
        }
    }
    if !carried && table_len > 0 {
        tilesets.push(Tileset {
            plane_set: None,
            name: "tile properties".into(),
            first_gid: next_gid,
            count: table_len,
            tile_width: map_tw,
            tile_height: map_th,
            tile_properties: true,
            filled: false,
        });
    }
    let gid_of: BTreeMap<(usize, u16), u32> = tilesets
        .iter()
        .filter_map(|t| Some((t.plane_set?, t.first_gid)))
        .collect();

    let mut out = String::new();
    let object_layers = level
        .planes
        .iter()
        .filter(|p| !p.objects.is_empty())
        .count();
    let objects: usize = level.planes.iter().map(|p| p.objects.len()).sum();
    let _ = writeln!(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>");
    let _ = writeln!(
        out,
        "<map version=\"1.10\" tiledversion=\"1.10.2\" orientation=\"orthogonal\" renderorder=\"right-down\" width=\"{map_w}\" height=\"{map_h}\" tilewidth=\"{map_tw}\" tileheight=\"{map_th}\" infinite=\"0\" nextlayerid=\"{}\" nextobjectid=\"{}\">",
        level.planes.len() + object_layers + 1,
        objects + 1
    );
    let h = &level.header;
    let mut map_props = fields(Header::FIELD_NAMES, DERIVED_HEADER, "", |n| h.field_text(n));
    let t = &level.tile_properties_header;
    map_props.extend(fields(
        TilePropertiesHeader::FIELD_NAMES,
        DERIVED_TABLE,
        "tile_properties.",
        |n| t.field_text(n),
    ));
    if let Some(meta) = &level.wapmap_meta {
        map_props.push(("wapmap_meta".into(), hex(meta)));
    }
    properties(&mut out, " ", &map_props);

    for t in &tilesets {
        let _ = writeln!(
            out,
            " <tileset firstgid=\"{}\" name=\"{}\" tilewidth=\"{}\" tileheight=\"{}\" tilecount=\"{}\" columns=\"{}\">",
            t.first_gid,
            xml(&t.name),
            t.tile_width,
            t.tile_height,
            t.count,
            t.columns()
        );
        let mut props = Vec::new();
        if let Some((p, s)) = t.plane_set {
            props.push(("plane".to_string(), p.to_string()));
            props.push(("set".to_string(), s.to_string()));
        }
        if t.filled {
            props.push(("filled".to_string(), "true".to_string()));
        }
        if t.tile_properties {
            props.push(("tile_properties".to_string(), "true".to_string()));
        }
        properties(&mut out, "  ", &props);
        if let Some((source, width, height)) = image(t)? {
            let _ = writeln!(
                out,
                "  <image source=\"{}\" width=\"{width}\" height=\"{height}\"/>",
                xml(&source)
            );
        }
        if t.tile_properties {
            for (id, tp) in level.tile_properties.iter().enumerate() {
                let b = &tp.base;
                let mut props = vec![(
                    "type".to_string(),
                    match tp.body {
                        TileBody::Single(_) => "single",
                        TileBody::Double { .. } => "double",
                        TileBody::Mask(_) => "mask",
                    }
                    .to_string(),
                )];
                props.extend(fields(
                    TilePropertyBase::FIELD_NAMES,
                    DERIVED_TILE,
                    "",
                    |n| b.field_text(n),
                ));
                match &tp.body {
                    TileBody::Single(a) => props.push(("attribute".into(), a.to_string())),
                    TileBody::Double {
                        outside,
                        inside,
                        rect,
                    } => {
                        props.push(("outside".into(), outside.to_string()));
                        props.push(("inside".into(), inside.to_string()));
                        props.push(("rect".into(), rect.map(|v| v.to_string()).join(",")));
                    }
                    TileBody::Mask(m) => props.push(("mask".into(), hex(m))),
                }
                let _ = writeln!(out, "  <tile id=\"{id}\">");
                properties(&mut out, "   ", &props);
                let _ = writeln!(out, "  </tile>");
            }
        }
        let _ = writeln!(out, " </tileset>");
    }

    let mut layer_id = 1;
    for (p, plane) in level.planes.iter().enumerate() {
        let ph = &plane.header;
        let (w, hi) = (ph.tiles_wide.get().max(0), ph.tiles_high.get().max(0));
        let _ = writeln!(
            out,
            " <layer id=\"{layer_id}\" name=\"{}\" width=\"{w}\" height=\"{hi}\">",
            xml(&escape(fixed(&ph.name), b""))
        );
        layer_id += 1;
        let mut props = fields(PlaneHeader::FIELD_NAMES, DERIVED_PLANE, "", |n| {
            ph.field_text(n)
        });
        for (i, name) in plane.image_sets.iter().enumerate() {
            props.push((format!("image_set.{i}"), escape(name, b"")));
        }
        properties(&mut out, "  ", &props);
        if plane.tiles.is_empty() {
            // CSV readers choke on an empty grid; an empty base64 block is an empty grid.
            let _ = writeln!(out, "  <data encoding=\"base64\"></data>");
            let _ = writeln!(out, " </layer>");
            continue;
        }
        let _ = writeln!(out, "  <data encoding=\"csv\">");
        let wide = usize::try_from(w).unwrap_or(0).max(1);
        let rows = plane.tiles.chunks(wide);
        let last = rows.len();
        for (r, row) in rows.enumerate() {
            let cells: Vec<String> = row
                .iter()
                .map(|&v| {
                    match Tile::from_raw(v) {
                        Tile::Invisible => 0,
                        Tile::Filled => 1,
                        Tile::Image { set, index } => gid_of
                            .get(&(p, set))
                            .map_or(0, |g| g.saturating_add(u32::from(index))),
                    }
                    .to_string()
                })
                .collect();
            let _ = writeln!(
                out,
                "{}{}",
                cells.join(","),
                if r + 1 < last { "," } else { "" }
            );
        }
        let _ = writeln!(out, "</data>");
        let _ = writeln!(out, " </layer>");
    }

    let mut object_id = 1;
    for (p, plane) in level.planes.iter().enumerate() {
        if plane.objects.is_empty() {
            continue;
        }
        let _ = writeln!(
            out,
            " <objectgroup id=\"{layer_id}\" name=\"{} objects\">",
            xml(&escape(fixed(&plane.header.name), b""))
        );
        layer_id += 1;
        properties(&mut out, "  ", &[("plane".into(), p.to_string())]);
        for o in &plane.objects {
            let f = &o.fields;
            let _ = writeln!(
                out,
                "  <object id=\"{object_id}\" name=\"{}\" class=\"{}\" x=\"{}\" y=\"{}\">",
                xml(&escape(&o.name, b"")),
                xml(&escape(&o.logic, b"")),
                f.location_x.get(),
                f.location_y.get()
            );
            object_id += 1;
            let mut props = fields(Object::FIELD_NAMES, DERIVED_OBJECT, "", |n| f.field_text(n));
            props.push(("image_set".into(), escape(&o.image_set, b"")));
            props.push(("animation".into(), escape(&o.animation, b"")));
            properties(&mut out, "   ", &props);
            let _ = writeln!(out, "   <point/>");
            let _ = writeln!(out, "  </object>");
        }
        let _ = writeln!(out, " </objectgroup>");
    }
    let _ = writeln!(out, "</map>");
    Ok(out)
}

//! TMX → level.

use std::io::Read as _;

use zerocopy::FromZeros;

use super::xml::{self, Element};
use super::{
    DERIVED_HEADER, DERIVED_OBJECT, DERIVED_PLANE, DERIVED_TABLE, DERIVED_TILE, WriteError,
};
use crate::WriteErrorKind;
use crate::bytes::unhex;
use crate::wwd::model::{ObjectData, PlaneData, TileBody, TilePropertyData, WwdModel};
use crate::wwd::raw::{self, PlaneHeader, TilePropertyBase};
use crate::wwd::{Tile, unescape};

/// Tiled's flip and rotation flags in the top bits of a gid.
const FLIP_FLAGS: u32 = 0xF000_0000;

/// What a tileset stands for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Filled,
    ImageSet {
        plane: usize,
        set: u16,
    },
    /// Carries the tile properties only; its tiles cannot be placed.
    PropertiesOnly,
}

#[derive(Debug)]
struct Tileset {
    name: String,
    first_gid: u32,
    count: u32,
    kind: Kind,
}

fn number<T: core::str::FromStr>(text: &str, place: &str, what: &str) -> Result<T, WriteError> {
    text.trim().parse().map_err(|_| {
        crate::WriteError::new(crate::WriteErrorKind::NotA {
            what: what.to_string(),
            found: Some(format!("{text:?}")),
            expected: "a valid number",
        })
        .about(place)
    })
}

fn attr<'e>(e: &'e Element, name: &str, place: &str) -> Result<&'e str, WriteError> {
    e.attr(name)
        .ok_or_else(|| WriteError::missing("attribute", Some(name)).about(place))
}

fn text(value: &str, place: &str) -> Result<Vec<u8>, WriteError> {
    unescape(value).map_err(|e| e.about(place))
}

/// The map as a level (see the [module](super) for the layout).
pub fn from_tmx(tmx: &str) -> Result<WwdModel, WriteError> {
    let map = xml::parse(tmx)?;
    if map.name != "map" {
        return Err(crate::WriteError::rule("the root element is not <map>").about("document"));
    }
    if map.attr("infinite") == Some("1") {
        return Err(crate::WriteError::rule(
            "infinite maps have no fixed grid: make the map fixed-size",
        )
        .about("map"));
    }
    let mut level = WwdModel::new("", "");
    for (name, value) in map.properties() {
        let place = format!("map property {name:?}");
        if let Some(field) = name.strip_prefix("tile_properties.") {
            if DERIVED_TABLE.contains(&field) {
                continue;
            }
            level
                .tile_properties_header
                .set_field_text(field, value)
                .map_err(|e| e.about(&place))?;
        } else if name == "wapmap_meta" {
            let block = unhex(value).map_err(|why| crate::WriteError::rule(why).about(&place))?;
            // Checked here as well as by the writer, so that the error names the property.
            if !block.is_empty() {
                crate::wwd::check_wapmap_meta(&block).map_err(|e| {
                    WriteError::from(e).about(format_args!(
                        "{place}, not one whole WapMap block (offsets from its first byte)"
                    ))
                })?;
            }
            level.wapmap_meta = Some(block);
        } else if !DERIVED_HEADER.contains(&name) {
            level
                .header
                .set_field_text(name, value)
                .map_err(|e| e.about(&place))?;
        }
    }

    let mut tilesets = Vec::new();
    for ts in map.children("tileset") {
        let name = ts.attr("name").unwrap_or("").to_string();
        let place = format!("tileset {name:?}");
        if ts.attr("source").is_some() {
            return Err(crate::WriteError::rule(
                "external tilesets are not read: embed the tileset in the map",
            )
            .about(place));
        }
        let first_gid: u32 = number(attr(ts, "firstgid", &place)?, &place, "firstgid")?;
        let count: u32 = number(attr(ts, "tilecount", &place)?, &place, "tilecount")?;
        let (mut plane, mut set, mut filled, mut carries) = (None, None, false, false);
        for (k, v) in ts.properties() {
            let place = format!("{place}, property {k:?}");
            match k {
                "plane" => plane = Some(number::<usize>(v, &place, "plane")?),
                "set" => set = Some(number::<u16>(v, &place, "set")?),
                "filled" => filled = v == "true",
                "tile_properties" => carries = v == "true",
                _ => {
                    return Err(
                        crate::WriteError::rule("not a property of a level's tileset").about(place),
                    );
                }
            }
        }
        let kind = match (plane, set, filled) {
            (_, _, true) => Kind::Filled,
            (Some(plane), Some(set), false) => Kind::ImageSet { plane, set },
            _ if carries => Kind::PropertiesOnly,
            _ => {
                return Err(crate::WriteError::rule(
                    "a tileset of a level says its plane and set (or filled)",
                )
                .about(place));
            }
        };
        if carries {
            level.tile_properties = tile_properties(ts, &place)?;
        }
        tilesets.push(Tileset {
            name,
            first_gid,
            count,
            kind,
        });
    }

    for (p, layer) in map
        .children
        .iter()
        .filter(|c| c.name == "layer")
        .enumerate()
    {
        let in_plane = |e: WriteError| e.at_index(p).in_field("planes");
        level
            .planes
            .push(plane(layer, p, &tilesets).map_err(in_plane)?);
    }
    if map.child("group").is_some() {
        return Err(crate::WriteError::rule(
            "group layers have no place in a level: move their layers out",
        )
        .about("map"));
    }
    for group in map.children("objectgroup") {
        let gname = group.attr("name").unwrap_or("");
        let place = format!("object layer {gname:?}");
        let plane_index = group
            .properties()
            .into_iter()
            .find(|(k, _)| *k == "plane")
            .ok_or_else(|| {
                crate::WriteError::missing("no plane property (which plane it holds)", None)
                    .about(&place)
            })?
            .1;
        let plane_index: usize = number(plane_index, &place, "plane")?;
        let count = level.planes.len();
        let plane = level.planes.get_mut(plane_index).ok_or_else(|| {
            WriteError::new(WriteErrorKind::Mismatch {
                found: plane_index as u64,
                expected: count as u64,
                unit: "",
                relation: "is not one of the",
                of: " tile layers",
            })
            .in_field("plane")
            .about(&place)
        })?;
        for (i, o) in group.children("object").enumerate() {
            let at = plane.objects.len();
            let object = object(o, &format!("object {} in {place}", i + 1)).map_err(|e| {
                e.at_index(at)
                    .in_field("objects")
                    .at_index(plane_index)
                    .in_field("planes")
            })?;
            plane.objects.push(object);
        }
    }
    Ok(level)
}

/// A tile layer as a plane.
fn plane(layer: &Element, p: usize, tilesets: &[Tileset]) -> Result<PlaneData, WriteError> {
    let lname = layer.attr("name").unwrap_or("");
    let place = format!("layer {lname:?} (plane {p})");
    let wide: i32 = number(attr(layer, "width", &place)?, &place, "width")?;
    let high: i32 = number(attr(layer, "height", &place)?, &place, "height")?;
    let mut header = PlaneHeader::new_zeroed();
    let mut image_sets: Vec<(usize, Vec<u8>)> = Vec::new();
    for (k, v) in layer.properties() {
        let fplace = format!("{place}, property {k:?}");
        if let Some(i) = k.strip_prefix("image_set.") {
            image_sets.push((number(i, &fplace, "image-set index")?, text(v, &fplace)?));
        } else if !DERIVED_PLANE.contains(&k) {
            header.set_field_text(k, v).map_err(|e| e.about(fplace))?;
        }
    }
    image_sets.sort_by_key(|(i, _)| *i);
    for (n, (i, _)) in image_sets.iter().enumerate() {
        if *i != n {
            return Err(WriteError::missing(
                "property (image-set names are numbered from 0)",
                Some(&format!("image_set.{n}")),
            )
            .about(&place));
        }
    }
    header.tiles_wide = wide.into();
    header.tiles_high = high.into();
    let gids = data(layer, &place, wide, high)?;
    let row = usize::try_from(wide).unwrap_or(0).max(1);
    let mut tiles = Vec::with_capacity(gids.len());
    for (i, gid) in gids.into_iter().enumerate() {
        let (x, y) = (i % row, i / row);
        // The map's place and the model's: `planes[1].tiles[3,5]` (the plane added by the caller).
        // The tile's place in the map, with the tileset its gid falls in once that is known.
        let cell = |why: WriteErrorKind, tileset: Option<&str>| {
            let error = WriteError::new(why);
            match tileset {
                Some(t) => error.about(format_args!("{place}, tile ({x}, {y}) of tileset {t:?}")),
                None => error.about(format_args!("{place}, tile ({x}, {y})")),
            }
            .at_cell(x, y)
            .in_field("tiles")
        };
        if gid & FLIP_FLAGS != 0 {
            return Err(cell(
                WriteErrorKind::InvalidValue {
                    value: gid.into(),
                    reason: "the gid is flipped or rotated: a level's tiles cannot be",
                },
                None,
            ));
        }
        if gid == 0 {
            tiles.push(Tile::INVISIBLE);
            continue;
        }
        let ts = tilesets
            .iter()
            .find(|t| gid >= t.first_gid && gid - t.first_gid < t.count)
            .ok_or_else(|| {
                cell(
                    WriteErrorKind::Unknown {
                        what: "gid",
                        name: gid.to_string(),
                        note: ": it is beyond every tileset",
                    },
                    None,
                )
            })?;
        let index = gid - ts.first_gid;
        let value = match ts.kind {
            Kind::Filled => Tile::FILLED,
            Kind::ImageSet { plane, set } if plane == p => {
                let index = u16::try_from(index).map_err(|_| {
                    cell(
                        WriteErrorKind::DoesNotFit {
                            what: "tile id",
                            value: index.into(),
                            bits: 16,
                            signed: false,
                            field: None,
                        },
                        Some(&ts.name),
                    )
                })?;
                crate::wwd::model::tile(set, index)
            }
            Kind::ImageSet { plane, .. } => {
                return Err(cell(
                    WriteErrorKind::Mismatch {
                        found: plane as u64,
                        expected: p as u64,
                        unit: " (the plane of its image set)",
                        relation: "is not the layer's plane",
                        of: "",
                    },
                    Some(&ts.name),
                ));
            }
            Kind::PropertiesOnly => {
                return Err(cell(
                    WriteErrorKind::Rule {
                        rule: "the tileset only carries tile properties: its tiles cannot be placed",
                        at: None,
                    },
                    Some(&ts.name),
                ));
            }
        };
        tiles.push(value);
    }
    Ok(PlaneData {
        header,
        tiles,
        image_sets: image_sets.into_iter().map(|(_, n)| n).collect(),
        objects: Vec::new(),
    })
}

/// A layer's gids, `wide × high` of them: CSV, or base64 of little-endian u32s, raw or zlib/gzip.
fn data(layer: &Element, place: &str, wide: i32, high: i32) -> Result<Vec<u32>, WriteError> {
    let cells = usize::try_from(wide)
        .ok()
        .zip(usize::try_from(high).ok())
        .and_then(|(w, h)| w.checked_mul(h))
        .ok_or_else(|| {
            crate::WriteError::rule("width × height is negative or overflows").about(place)
        })?;
    // A grid no level could hold is refused before any data is decoded (a zlib stream could
    // otherwise inflate to any size).
    if cells > crate::wwd::MAX_MAIN_BLOCK / 4 {
        return Err(
            WriteError::rule("the grid is larger than any level's main block")
                .about(format_args!("{place}, a {wide}×{high} grid")),
        );
    }
    let data = layer
        .child("data")
        .ok_or_else(|| crate::WriteError::missing("no <data>", None).about(place))?;
    if data.child("chunk").is_some() {
        return Err(
            crate::WriteError::rule("chunked (infinite) data: make the map fixed-size")
                .about(place),
        );
    }
    let gids: Vec<u32> = match (data.attr("encoding"), data.attr("compression")) {
        (Some("csv"), None) => data
            .text
            .split(',')
            .map(str::trim)
            .filter(|t| !t.is_empty())
            .map(|t| number(t, place, "gid"))
            .collect::<Result<_, _>>()?,
        (Some("base64"), compression) => {
            let packed =
                base64(&data.text).map_err(|why| crate::WriteError::rule(why).about(place))?;
            // Never more than the grid holds (one byte more, to notice a longer stream).
            let limit = u64::try_from(cells)
                .unwrap_or(u64::MAX)
                .saturating_mul(4)
                .saturating_add(1);
            let mut bytes = Vec::new();
            let read = match compression {
                None => {
                    bytes = packed;
                    Ok(0)
                }
                Some("zlib") => flate2::read::ZlibDecoder::new(packed.as_slice())
                    .take(limit)
                    .read_to_end(&mut bytes),
                Some("gzip") => flate2::read::GzDecoder::new(packed.as_slice())
                    .take(limit)
                    .read_to_end(&mut bytes),
                Some(other) => {
                    return Err(WriteError::new(WriteErrorKind::Unknown {
                        what: "layer compression",
                        name: format!("{other:?}"),
                        note: ": save the layer as CSV, base64, zlib or gzip",
                    })
                    .about(place));
                }
            };
            read.map_err(|e| {
                WriteError::new(WriteErrorKind::Interchange {
                    form: "TMX layer data",
                    line: None,
                    message: format!("does not inflate: {e}"),
                })
                .about(place)
            })?;
            bytes
                .chunks_exact(4)
                .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                .collect()
        }
        (encoding, _) => {
            return Err(WriteError::new(WriteErrorKind::Unknown {
                what: "layer data encoding",
                name: format!("{encoding:?}"),
                note: ": save the layer as CSV or base64",
            })
            .about(place));
        }
    };
    if gids.len() != cells {
        return Err(WriteError::new(WriteErrorKind::Mismatch {
            found: gids.len() as u64,
            expected: cells as u64,
            unit: " tiles",
            relation: "for a layer of",
            of: " cells",
        })
        .about(format_args!("{place}, a {wide}×{high} layer")));
    }
    Ok(gids)
}

/// Standard base64 (whitespace ignored).
fn base64(text: &str) -> Result<Vec<u8>, &'static str> {
    let mut out = Vec::with_capacity(text.len() / 4 * 3);
    let (mut acc, mut bits) = (0u32, 0u32);
    for c in text.bytes().filter(|c| !c.is_ascii_whitespace()) {
        let v = match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            b'=' => break,
            _ => return Err("layer data is not base64"),
        };
        acc = (acc << 6) | u32::from(v);
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
            acc &= (1 << bits) - 1;
        }
    }
    Ok(out)
}

/// A Tiled object as a level object.
fn object(o: &Element, place: &str) -> Result<ObjectData, WriteError> {
    let name = o.attr("name").unwrap_or("");
    let place = if name.is_empty() {
        place.to_string()
    } else {
        format!("{place} ({name:?})")
    };
    let coordinate = |axis: &str| -> Result<i32, WriteError> {
        let v: f64 = number(o.attr(axis).unwrap_or("0"), &place, axis)?;
        let r = v.round();
        if !r.is_finite() || r < f64::from(i32::MIN) || r > f64::from(i32::MAX) {
            return Err(WriteError::new(WriteErrorKind::NotA {
                what: axis.to_string(),
                found: Some(v.to_string()),
                expected: "a 32-bit location",
            })
            .about(&place));
        }
        Ok(r as i32)
    };
    let mut fields = raw::Object::new_zeroed();
    fields.location_x = coordinate("x")?.into();
    fields.location_y = coordinate("y")?.into();
    let logic = o.attr("class").or(o.attr("type")).unwrap_or("");
    let mut object = ObjectData {
        fields,
        name: text(name, &format!("{place}, name"))?,
        logic: text(logic, &format!("{place}, class"))?,
        image_set: Vec::new(),
        animation: Vec::new(),
    };
    for (k, v) in o.properties() {
        let fplace = format!("{place}, property {k:?}");
        match k {
            "image_set" => object.image_set = text(v, &fplace)?,
            "animation" => object.animation = text(v, &fplace)?,
            _ if DERIVED_OBJECT.contains(&k) => {
                return Err(
                    crate::WriteError::rule("set by the object's position or strings")
                        .about(fplace),
                );
            }
            _ => object
                .fields
                .set_field_text(k, v)
                .map_err(|e| e.about(fplace))?,
        }
    }
    Ok(object)
}

/// The tile properties a tileset carries: tile `id` holds property `id`, ids from 0 up without gaps.
fn tile_properties(ts: &Element, place: &str) -> Result<Vec<TilePropertyData>, WriteError> {
    let mut found: Vec<(u32, TilePropertyData)> = Vec::new();
    for tile in ts.children("tile") {
        let props = tile.properties();
        if props.is_empty() {
            continue;
        }
        let id: u32 = number(attr(tile, "id", place)?, place, "tile id")?;
        let tplace = format!("{place}, tile {id}");
        let get = |k: &str| props.iter().find(|(n, _)| *n == k).map(|(_, v)| *v);
        let need = |k: &str| {
            get(k).ok_or_else(|| {
                crate::WriteError::missing("missing", None)
                    .about(format!("{tplace}, property {k:?}"))
            })
        };
        let int = |k: &str| -> Result<i32, WriteError> {
            number(need(k)?, &format!("{tplace}, property {k:?}"), k)
        };
        let mut base = TilePropertyBase::new_zeroed();
        for (k, v) in &props {
            if TilePropertyBase::FIELD_NAMES.contains(k) && !DERIVED_TILE.contains(k) {
                base.set_field_text(k, v)
                    .map_err(|e| e.about(format!("{tplace}, property {k:?}")))?;
            }
        }
        let body = match need("type")? {
            "single" => TileBody::Single(int("attribute")?),
            "double" => {
                let rplace = format!("{tplace}, property \"rect\"");
                let rect = <raw::Rect as crate::wwd::Field>::from_text(need("rect")?)
                    .map_err(|e| e.about(&rplace))?;
                TileBody::Double {
                    outside: int("outside")?,
                    inside: int("inside")?,
                    rect: rect.get(),
                }
            }
            "mask" => {
                let mplace = format!("{tplace}, property \"mask\"");
                let mask = unhex(need("mask")?)
                    .map_err(|why| crate::WriteError::rule(why).about(&mplace))?;
                let area = u64::from(base.width.get()) * u64::from(base.height.get());
                if area != mask.len() as u64 {
                    return Err(WriteError::new(WriteErrorKind::Mismatch {
                        found: mask.len() as u64,
                        expected: area,
                        unit: " bytes",
                        relation: "for a mask of",
                        of: " pixels",
                    })
                    .about(format_args!(
                        "{mplace}, {}×{}",
                        base.width.get(),
                        base.height.get()
                    )));
                }
                TileBody::Mask(mask)
            }
            other => {
                return Err(crate::WriteError::not_a(
                    "",
                    format!("{other:?}"),
                    "single, double or mask",
                )
                .about(format!("{tplace}, property \"type\"")));
            }
        };
        found.push((id, TilePropertyData { base, body }));
    }
    found.sort_by_key(|(id, _)| *id);
    let mut out = Vec::with_capacity(found.len());
    for (n, (id, p)) in found.into_iter().enumerate() {
        if id as usize != n {
            return Err(WriteError::new(WriteErrorKind::Missing {
                what: "tile property (tile properties run from tile 0 without gaps)",
                name: None,
                owner: Some(("tile", n as u64)),
            })
            .about(place));
        }
        out.push(p);
    }
    Ok(out)
}

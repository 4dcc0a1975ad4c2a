//! A picture of one plane of a level: each tile coloured by its tile property's attribute (double
//! and mask tiles pixel by pixel, scaled), objects marked where they stand, and a legend
//! underneath. By default the picture is cropped to the part of the plane in use: real Claw planes
//! are mostly invisible tiles around the level's path, and a cropped picture shows the level at a
//! larger scale. RGB pixels in memory ([`Picture`]); PNG with the `png` feature.

use core::fmt;

use crate::error::Error;
use crate::wwd::{Plane, Tile, TileKind, Tiles, WwdView, text_lossy};

/// The largest picture made (pixels), so that a damaged header cannot ask for gigabytes.
pub const MAX_PIXELS: u64 = 64 << 20;
/// The widest a picture is made by default: a whole Claw level (up to about 800 tiles wide) fits
/// a screen or two at this size.
const TARGET_WIDTH: u64 = 4096;
/// Tiles kept around the part in use when cropping, so that its edges are visibly edges.
const CROP_MARGIN: u64 = 2;

/// How to draw.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RenderOptions {
    /// Pixels per tile (clamped to 1–64); `None` picks one that makes the picture about
    /// 4,096 pixels wide.
    pub scale: Option<u32>,
    /// Crop to the part of the plane in use (tiles that are not invisible, and objects).
    pub crop: bool,
}

impl Default for RenderOptions {
    /// Automatic scale, cropped.
    fn default() -> Self {
        RenderOptions {
            scale: None,
            crop: true,
        }
    }
}

/// Why a plane could not be drawn.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RenderError {
    /// The level could not be read.
    Level(Error),
    /// The picture would have more than [`MAX_PIXELS`] pixels.
    TooLarge {
        /// Tiles across and down the drawn area.
        tiles: (u64, u64),
        /// Pixels per tile.
        scale: u64,
        /// The picture's width and height.
        pixels: (u64, u64),
    },
}

impl From<Error> for RenderError {
    fn from(e: Error) -> Self {
        RenderError::Level(e)
    }
}

impl fmt::Display for RenderError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RenderError::Level(e) => write!(f, "{e}"),
            RenderError::TooLarge {
                tiles: (wide, high),
                scale,
                pixels: (width, height),
            } => write!(
                f,
                "a {wide}x{high}-tile plane at {scale} px per tile would be {width}x{height} pixels"
            ),
        }
    }
}

impl std::error::Error for RenderError {}

/// A drawn plane (or a sheet of tiles, for a Tiled tileset): RGB, 8 bits per channel, rows top to
/// bottom.
#[derive(Clone, PartialEq, Eq)]
pub struct Picture {
    /// Width in pixels.
    pub width: usize,
    /// Height in pixels (the plane's rows and the legend under them).
    pub height: usize,
    /// `width × height × 3` bytes.
    pub pixels: Vec<u8>,
    /// The tiles drawn (the whole plane, or the part in use when cropped; a sheet's grid).
    pub area: TileArea,
    /// The plane's size in tiles (columns, rows; a sheet's grid).
    pub plane_tiles: (u64, u64),
}

// By hand: the derived `Debug` printed every pixel.
impl fmt::Debug for Picture {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Picture")
            .field("width", &self.width)
            .field("height", &self.height)
            .field("pixels", &format_args!("[{} bytes]", self.pixels.len()))
            .field("area", &self.area)
            .field("plane_tiles", &self.plane_tiles)
            .finish()
    }
}

#[cfg(feature = "png")]
impl Picture {
    /// Writes the picture as a PNG (RGB, 8 bits).
    pub fn write_png(&self, out: impl std::io::Write) -> std::io::Result<()> {
        let size = |n: usize| {
            u32::try_from(n).map_err(|_| std::io::Error::other("the picture is too large for PNG"))
        };
        let mut encoder = png::Encoder::new(out, size(self.width)?, size(self.height)?);
        encoder.set_color(png::ColorType::Rgb);
        encoder.set_depth(png::BitDepth::Eight);
        let mut writer = encoder.write_header().map_err(std::io::Error::other)?;
        writer
            .write_image_data(&self.pixels)
            .map_err(std::io::Error::other)?;
        writer.finish().map_err(std::io::Error::other)
    }
}

/// Draws `plane` of `view`. The tile properties colour the main plane's tiles; the other planes'
/// tiles are drawn in one grey. Objects that cannot be read end the list of those drawn (the
/// picture shows what reads).
///
/// ```
/// # #[cfg(feature = "write")]
/// # fn main() -> Result<(), Box<dyn std::error::Error>> {
/// use gamebin::wwd::WwdView;
/// use gamebin::wwd::export::render::{RenderOptions, render_plane};
///
/// let level = gamebin::synth::wwd::example_file();
/// let mut inflated = Vec::new(); // a compressed level's main block, inflated once
/// let view = WwdView::from_bytes(&level, &mut inflated)?;
/// let plane = view.plane(0).expect("a plane");
/// let picture = render_plane(&view, &plane, &RenderOptions::default())?;
/// assert_eq!(picture.pixels.len(), picture.width * picture.height * 3);
/// # Ok(())
/// # }
/// # #[cfg(not(feature = "write"))]
/// # fn main() {}
/// ```
pub fn render_plane(
    view: &WwdView<'_>,
    plane: &Plane<'_>,
    options: &RenderOptions,
) -> Result<Picture, RenderError> {
    let properties: Vec<Property> = if plane.flags().is_main() {
        let mut v = Vec::new();
        for p in view.tile_properties()?.iter() {
            let p = p?;
            v.push(match p.kind() {
                TileKind::Single { attribute } => Property::Single(attribute),
                TileKind::Double {
                    outside,
                    inside,
                    rect,
                } => Property::Double {
                    outside,
                    inside,
                    rect,
                },
                TileKind::Mask { mask } => Property::Mask {
                    width: p.width() as usize,
                    height: p.height() as usize,
                    mask: mask.to_vec(),
                },
            });
        }
        v
    } else {
        Vec::new()
    };
    let tiles = plane.tiles()?;
    let (tile_w, tile_h) = (
        i64::from(plane.tile_width().max(1)),
        i64::from(plane.tile_height().max(1)),
    );
    let objects: Vec<(i32, i32)> = plane
        .objects()?
        .map_while(|o| o.ok().map(|o| o.location()))
        .collect();
    let whole = TileArea {
        x0: 0,
        y0: 0,
        x1: tiles.wide() as u64,
        y1: tiles.high() as u64,
    };
    let area = if options.crop {
        used_area(&tiles, &objects, tile_w, tile_h).unwrap_or(whole)
    } else {
        whole
    };
    let canvas = draw(view, plane, &properties, &objects, area, options.scale)?;
    Ok(Picture {
        width: canvas.width,
        height: canvas.height,
        pixels: canvas.pixels,
        area,
        plane_tiles: (whole.x1, whole.y1),
    })
}

#[cfg(feature = "tiled")]
/// What a tile sheet's tiles show: the plain colour of filled tiles, or each tile's attributes.
pub(crate) enum SheetTiles<'p> {
    /// The one `filled` tile.
    Filled,
    /// Tiles `0..count`, each drawn as its property (grey where the table has none) with its id.
    Numbered(&'p [Property]),
}

#[cfg(feature = "tiled")]
/// A picture of `count` tiles of `tile_w × tile_h` pixels, `columns` to a row (a Tiled tileset's
/// image): each tile's collision attributes as `wwd render` colours them, a dark outline and its
/// id written in its corner. What stands in for the game's tile graphics, which live in its
/// `.REZ` archives.
pub(crate) fn tile_sheet(
    tiles: SheetTiles<'_>,
    (tile_w, tile_h): (u32, u32),
    count: u32,
    columns: u32,
) -> Result<Picture, RenderError> {
    let (tw, th) = (u64::from(tile_w.max(1)), u64::from(tile_h.max(1)));
    let columns = u64::from(columns.clamp(1, count.max(1)));
    let rows = u64::from(count.max(1)).div_ceil(columns);
    let (width, height) = (columns * tw, rows * th);
    if width.saturating_mul(height) > MAX_PIXELS {
        return Err(RenderError::TooLarge {
            tiles: (columns, rows),
            scale: tw,
            pixels: (width, height),
        });
    }
    let mut canvas = Canvas::new(width as usize, height as usize);
    let (tw, th) = (tw as i64, th as i64);
    let columns_i = columns as i64;
    match tiles {
        SheetTiles::Filled => canvas.rect(0, 0, tw, th, FILLED),
        SheetTiles::Numbered(properties) => {
            // Digits readable at any tile size: a font pixel per 16 tile pixels, at least one.
            let px = (tw.min(th) / 16).max(1);
            for id in 0..i64::from(count) {
                let (ox, oy) = ((id % columns_i) * tw, (id / columns_i) * th);
                match properties.get(id as usize) {
                    Some(p) => {
                        for ly in 0..th {
                            for lx in 0..tw {
                                canvas.put(
                                    ox + lx,
                                    oy + ly,
                                    attribute_colour(p.at(lx, ly, tw, th)),
                                );
                            }
                        }
                    }
                    None => canvas.rect(ox, oy, tw, th, TILE),
                }
                canvas.rect(ox, oy, tw, 1, INK);
                canvas.rect(ox, oy, 1, th, INK);
                let label = id.to_string();
                let text_w = (label.len() as i64 * 4 + 1) * px;
                canvas.rect(ox + 1, oy + 1, text_w, 7 * px, INVISIBLE);
                canvas.text(ox + 1 + px, oy + 1 + px, px, &label, INK);
            }
        }
    }
    Ok(Picture {
        width: canvas.width,
        height: canvas.height,
        pixels: canvas.pixels,
        area: TileArea {
            x0: 0,
            y0: 0,
            x1: columns,
            y1: rows,
        },
        plane_tiles: (columns, rows),
    })
}

/// A rectangle of tiles: columns `x0..x1`, rows `y0..y1`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TileArea {
    /// First column.
    pub x0: u64,
    /// First row.
    pub y0: u64,
    /// One past the last column.
    pub x1: u64,
    /// One past the last row.
    pub y1: u64,
}

impl TileArea {
    /// Columns.
    pub fn wide(&self) -> u64 {
        self.x1 - self.x0
    }
    /// Rows.
    pub fn high(&self) -> u64 {
        self.y1 - self.y0
    }
}

/// The part of a plane in use: the bounding box of its tiles that are not invisible and of its
/// objects (an object outside the grid counts at the nearest edge), widened by [`CROP_MARGIN`]
/// and kept inside the grid. `None` when nothing is in use.
fn used_area(
    tiles: &Tiles<'_>,
    objects: &[(i32, i32)],
    tile_w: i64,
    tile_h: i64,
) -> Option<TileArea> {
    let (wide, high) = (tiles.wide() as u64, tiles.high() as u64);
    if wide == 0 || high == 0 {
        return None;
    }
    let mut used: Option<TileArea> = None;
    let mut include = |x: u64, y: u64| {
        let a = used.get_or_insert(TileArea {
            x0: x,
            y0: y,
            x1: x + 1,
            y1: y + 1,
        });
        a.x0 = a.x0.min(x);
        a.y0 = a.y0.min(y);
        a.x1 = a.x1.max(x + 1);
        a.y1 = a.y1.max(y + 1);
    };
    for (y, row) in tiles.rows().enumerate() {
        // The first and last tiles of the row in use, searched from both ends.
        let in_use = |v: &zerocopy::little_endian::U32| Tile::from_raw(v.get()) != Tile::Invisible;
        if let (Some(first), Some(last)) =
            (row.iter().position(in_use), row.iter().rposition(in_use))
        {
            include(first as u64, y as u64);
            include(last as u64, y as u64);
        }
    }
    for &(x, y) in objects {
        let column = i64::from(x)
            .div_euclid(tile_w.max(1))
            .clamp(0, wide as i64 - 1);
        let row = i64::from(y)
            .div_euclid(tile_h.max(1))
            .clamp(0, high as i64 - 1);
        include(column as u64, row as u64);
    }
    used.map(|a| TileArea {
        x0: a.x0.saturating_sub(CROP_MARGIN),
        y0: a.y0.saturating_sub(CROP_MARGIN),
        x1: (a.x1 + CROP_MARGIN).min(wide),
        y1: (a.y1 + CROP_MARGIN).min(high),
    })
}

type Rgb = [u8; 3];

const INVISIBLE: Rgb = [255, 255, 255];
const FILLED: Rgb = [112, 146, 190];
const CLEAR: Rgb = [214, 232, 246];
const SOLID: Rgb = [70, 70, 80];
const GROUND: Rgb = [60, 170, 70];
const CLIMB: Rgb = [200, 130, 40];
const DEATH: Rgb = [215, 30, 40];
const USER: Rgb = [150, 90, 210];
const NO_PROPERTY: Rgb = [255, 0, 255];
const TILE: Rgb = [150, 150, 150];
const OBJECT: Rgb = [255, 220, 0];
const INK: Rgb = [0, 0, 0];

fn attribute_colour(a: i32) -> Rgb {
    match a {
        0 => CLEAR,
        1 => SOLID,
        2 => GROUND,
        3 => CLIMB,
        4 => DEATH,
        _ => USER,
    }
}

/// A picture being drawn.
struct Canvas {
    width: usize,
    height: usize,
    pixels: Vec<u8>,
}

impl Canvas {
    fn new(width: usize, height: usize) -> Canvas {
        Canvas {
            width,
            height,
            pixels: vec![255; width * height * 3],
        }
    }
    fn put(&mut self, x: i64, y: i64, c: Rgb) {
        if x < 0 || y < 0 || x as usize >= self.width || y as usize >= self.height {
            return;
        }
        let i = (y as usize * self.width + x as usize) * 3;
        if let Some(p) = self.pixels.get_mut(i..i + 3) {
            p.copy_from_slice(&c);
        }
    }
    fn rect(&mut self, x: i64, y: i64, w: i64, h: i64, c: Rgb) {
        for yy in y..y + h {
            for xx in x..x + w {
                self.put(xx, yy, c);
            }
        }
    }
    /// Text in a 3×5 pixel font, each font pixel `px` canvas pixels.
    fn text(&mut self, x: i64, y: i64, px: i64, s: &str, c: Rgb) {
        for (i, ch) in s.chars().enumerate() {
            let glyph = glyph(ch.to_ascii_uppercase());
            for (row, bits) in glyph.iter().enumerate() {
                for col in 0..3 {
                    if bits & (0b100 >> col) != 0 {
                        self.rect(
                            x + (i as i64 * 4 + col) * px,
                            y + row as i64 * px,
                            px,
                            px,
                            c,
                        );
                    }
                }
            }
        }
    }
}

/// A 3×5 glyph, rows top to bottom, 3 bits each (high bit left).
fn glyph(c: char) -> [u8; 5] {
    match c {
        'A' => [0b010, 0b101, 0b111, 0b101, 0b101],
        'B' => [0b110, 0b101, 0b110, 0b101, 0b110],
        'C' => [0b011, 0b100, 0b100, 0b100, 0b011],
        'D' => [0b110, 0b101, 0b101, 0b101, 0b110],
        'E' => [0b111, 0b100, 0b110, 0b100, 0b111],
        'F' => [0b111, 0b100, 0b110, 0b100, 0b100],
        'G' => [0b011, 0b100, 0b101, 0b101, 0b011],
        'H' => [0b101, 0b101, 0b111, 0b101, 0b101],
        'I' => [0b111, 0b010, 0b010, 0b010, 0b111],
        'J' => [0b001, 0b001, 0b001, 0b101, 0b010],
        'K' => [0b101, 0b101, 0b110, 0b101, 0b101],
        'L' => [0b100, 0b100, 0b100, 0b100, 0b111],
        'M' => [0b101, 0b111, 0b111, 0b101, 0b101],
        'N' => [0b110, 0b101, 0b101, 0b101, 0b101],
        'O' => [0b010, 0b101, 0b101, 0b101, 0b010],
        'P' => [0b110, 0b101, 0b110, 0b100, 0b100],
        'Q' => [0b010, 0b101, 0b101, 0b110, 0b011],
        'R' => [0b110, 0b101, 0b110, 0b101, 0b101],
        'S' => [0b011, 0b100, 0b010, 0b001, 0b110],
        'T' => [0b111, 0b010, 0b010, 0b010, 0b010],
        'U' => [0b101, 0b101, 0b101, 0b101, 0b111],
        'V' => [0b101, 0b101, 0b101, 0b101, 0b010],
        'W' => [0b101, 0b101, 0b111, 0b111, 0b101],
        'X' => [0b101, 0b101, 0b010, 0b101, 0b101],
        'Y' => [0b101, 0b101, 0b010, 0b010, 0b010],
        'Z' => [0b111, 0b001, 0b010, 0b100, 0b111],
        '0' => [0b111, 0b101, 0b101, 0b101, 0b111],
        '1' => [0b010, 0b110, 0b010, 0b010, 0b111],
        '2' => [0b110, 0b001, 0b010, 0b100, 0b111],
        '3' => [0b110, 0b001, 0b010, 0b001, 0b110],
        '4' => [0b101, 0b101, 0b111, 0b001, 0b001],
        '5' => [0b111, 0b100, 0b110, 0b001, 0b110],
        '6' => [0b011, 0b100, 0b111, 0b101, 0b111],
        '7' => [0b111, 0b001, 0b010, 0b010, 0b010],
        '8' => [0b111, 0b101, 0b111, 0b101, 0b111],
        '9' => [0b111, 0b101, 0b111, 0b001, 0b110],
        '-' => [0, 0, 0b111, 0, 0],
        '.' => [0, 0, 0, 0, 0b010],
        ',' => [0, 0, 0, 0b010, 0b100],
        ':' => [0, 0b010, 0, 0b010, 0],
        '(' => [0b001, 0b010, 0b010, 0b010, 0b001],
        ')' => [0b100, 0b010, 0b010, 0b010, 0b100],
        '/' => [0b001, 0b001, 0b010, 0b100, 0b100],
        '_' => [0, 0, 0, 0, 0b111],
        ' ' => [0; 5],
        _ => [0b111, 0b101, 0b101, 0b101, 0b111],
    }
}

/// What the tile-property table says, per tile id, for drawing.
pub(crate) enum Property {
    Single(i32),
    Double {
        outside: i32,
        inside: i32,
        rect: [i32; 4],
    },
    Mask {
        width: usize,
        height: usize,
        mask: Vec<u8>,
    },
}

impl Property {
    /// The attribute at tile-local pixel (lx, ly) of a `tw × th` tile.
    fn at(&self, lx: i64, ly: i64, tw: i64, th: i64) -> i32 {
        match self {
            Property::Single(a) => *a,
            Property::Double {
                outside,
                inside,
                rect,
            } => {
                let [l, t, r, b] = rect.map(i64::from);
                if lx >= l && lx <= r && ly >= t && ly <= b {
                    *inside
                } else {
                    *outside
                }
            }
            Property::Mask {
                width,
                height,
                mask,
            } => {
                if *width == 0 || *height == 0 {
                    return 0;
                }
                // The mask has its own size: sample it proportionally.
                let x = (lx.max(0) as usize * width / tw.max(1) as usize).min(width - 1);
                let y = (ly.max(0) as usize * height / th.max(1) as usize).min(height - 1);
                mask.get(y * width + x).map_or(0, |&b| i32::from(b))
            }
        }
    }
}

fn draw(
    view: &WwdView<'_>,
    plane: &Plane<'_>,
    properties: &[Property],
    objects: &[(i32, i32)],
    area: TileArea,
    scale: Option<u32>,
) -> Result<Canvas, RenderError> {
    let tiles = plane.tiles()?;
    let (wide, high) = (area.wide(), area.high());
    let s = match scale {
        Some(s) => u64::from(s.clamp(1, 64)),
        None => (TARGET_WIDTH / wide.max(1)).clamp(2, 16),
    };
    let width = (wide * s).max(360);
    // Legend text grows with the picture so that it stays readable when the map is scaled down.
    let legend_px = (width / 960).clamp(2, 6);
    let legend_height = 7 * 7 * legend_px + 12;
    let height = high * s + legend_height;
    if width.saturating_mul(height) > MAX_PIXELS {
        return Err(RenderError::TooLarge {
            tiles: (wide, high),
            scale: s,
            pixels: (width, height),
        });
    }
    let mut canvas = Canvas::new(width as usize, height as usize);
    let legend_px = legend_px as i64;
    let (tw, th) = (
        i64::from(plane.tile_width().max(1)),
        i64::from(plane.tile_height().max(1)),
    );
    let s = s as i64;
    let (x0, y0) = (area.x0 as usize, area.y0 as usize);
    let rows = tiles.rows().skip(y0).take(high as usize);
    for (y, row) in rows.enumerate() {
        let row = row.get(x0..).unwrap_or(&[]);
        for (x, value) in row.iter().take(wide as usize).enumerate() {
            let (ox, oy) = (x as i64 * s, y as i64 * s);
            match Tile::from_raw(value.get()) {
                Tile::Invisible => canvas.rect(ox, oy, s, s, INVISIBLE),
                Tile::Filled => canvas.rect(ox, oy, s, s, FILLED),
                Tile::Image { index, .. } => match properties.get(usize::from(index)) {
                    None if properties.is_empty() => canvas.rect(ox, oy, s, s, TILE),
                    None => canvas.rect(ox, oy, s, s, NO_PROPERTY),
                    Some(p) => {
                        for py in 0..s {
                            for px in 0..s {
                                let a = p.at(px * tw / s, py * th / s, tw, th);
                                canvas.put(ox + px, oy + py, attribute_colour(a));
                            }
                        }
                    }
                },
            }
        }
    }
    // Objects: a yellow square with a black outline at each position.
    let r = (s / 3).clamp(1, 4);
    // Object positions are in plane pixels; the picture starts at the area's corner.
    let (dx, dy) = (area.x0 as i64 * s, area.y0 as i64 * s);
    for &(x, y) in objects {
        let (cx, cy) = (i64::from(x) * s / tw - dx, i64::from(y) * s / th - dy);
        canvas.rect(cx - r - 1, cy - r - 1, 2 * r + 3, 2 * r + 3, INK);
        canvas.rect(cx - r, cy - r, 2 * r + 1, 2 * r + 1, OBJECT);
    }
    // Legend.
    let top = (high as i64) * s + 6;
    let px = legend_px;
    let shown = if (wide, high) == (tiles.wide() as u64, tiles.high() as u64) {
        String::new()
    } else {
        format!(
            ", SHOWN X {}-{} Y {}-{}",
            area.x0,
            area.x1 - 1,
            area.y0,
            area.y1 - 1
        )
    };
    let title = format!(
        "{} - PLANE {} - {}X{} TILES{shown}",
        text_lossy(view.name()),
        text_lossy(plane.name()),
        tiles.wide(),
        tiles.high()
    );
    canvas.text(4, top, px, &title, INK);
    let entries: [(Rgb, &str); 10] = [
        (CLEAR, "CLEAR"),
        (SOLID, "SOLID"),
        (GROUND, "GROUND"),
        (CLIMB, "CLIMB"),
        (DEATH, "DEATH"),
        (USER, "USER ATTRIBUTE"),
        (INVISIBLE, "INVISIBLE"),
        (FILLED, "FILLED"),
        (NO_PROPERTY, "NO TILE PROPERTY"),
        (OBJECT, "OBJECT"),
    ];
    for (i, (colour, label)) in entries.iter().enumerate() {
        let (col, row) = ((i / 5) as i64, (i % 5) as i64);
        let x = 4 + col * 90 * px;
        let y = top + (row + 1) * 7 * px + 4;
        canvas.rect(x, y, 5 * px + 2, 5 * px + 2, INK);
        canvas.rect(x + 1, y + 1, 5 * px, 5 * px, *colour);
        canvas.text(x + 8 * px, y + 1, px, label, INK);
    }
    Ok(canvas)
}

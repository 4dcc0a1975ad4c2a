//! Claw / Gruntz levels compared by plane and object: the header field by field, each plane (by
//! name) by its header fields and image sets, its tile grid as the rectangles of tiles that changed
//! (rows of changed tiles merged with the rows below them while they span the same columns), its
//! objects by id, and the tile properties by tile id. Offsets, sizes and the checksum, which move
//! whenever anything before them changes, are not compared.

use serde_json::Value;

use crate::diff::value::{compare, compare_keyed, join, to_value, without};
use crate::diff::{Change, Report};
use crate::error::Result;
use crate::wwd::WwdView;
use crate::wwd::model::{PlaneData, WwdModel};

/// Header fields that follow from the rest of the file.
const DERIVED_HEADER: [&str; 5] = [
    "offset_planes",
    "offset_tile_properties",
    "decompressed_mainblock_size",
    "checksum",
    "num_planes",
];

/// Plane header fields that follow from the rest of the file.
const DERIVED_PLANE: [&str; 6] = [
    "block_size",
    "num_image_sets",
    "num_objects",
    "offset_tiles",
    "offset_image_sets",
    "offset_objects",
];

/// A rectangle of changed tiles: columns `x0..x1`, rows `y0..y1`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Rect {
    x0: usize,
    x1: usize,
    y0: usize,
    y1: usize,
}

/// The rectangles of cells that differ between two grids of `wide` columns, in reading order of
/// their top-left corners. A row's runs of changed cells extend the rectangle above them when
/// they span exactly its columns; otherwise they start one. Linear in the cells: the rectangles
/// still open below a row are found by their column span (a row's runs never share one).
fn changed_rects(a: &[u32], b: &[u32], wide: usize) -> Vec<Rect> {
    use std::collections::HashMap;
    let mut done = Vec::new();
    let mut open: HashMap<(usize, usize), Rect> = HashMap::new();
    if wide == 0 {
        return done;
    }
    for (y, (ra, rb)) in a.chunks(wide).zip(b.chunks(wide)).enumerate() {
        let mut next = HashMap::new();
        let mut x = 0;
        while x < ra.len() {
            if ra.get(x) == rb.get(x) {
                x += 1;
                continue;
            }
            let x0 = x;
            while x < ra.len() && ra.get(x) != rb.get(x) {
                x += 1;
            }
            let rect = match open.remove(&(x0, x)) {
                Some(r) => Rect { y1: y + 1, ..r },
                None => Rect {
                    x0,
                    x1: x,
                    y0: y,
                    y1: y + 1,
                },
            };
            next.insert((x0, x), rect);
        }
        done.extend(open.into_values());
        open = next;
    }
    done.extend(open.into_values());
    done.sort_by_key(|r| (r.y0, r.x0));
    done
}

/// The tiles of a rectangle, row by row, as the change shows them (a count when there are many).
fn tiles_text(grid: &[u32], wide: usize, r: Rect) -> String {
    let cells = (r.x1 - r.x0) * (r.y1 - r.y0);
    if cells > 16 {
        return format!("{cells} tiles");
    }
    let rows: Vec<String> = (r.y0..r.y1)
        .map(|y| {
            let row = grid.get(y * wide + r.x0..y * wide + r.x1).unwrap_or(&[]);
            row.iter().map(u32::to_string).collect::<Vec<_>>().join(" ")
        })
        .collect();
    rows.join(" / ")
}

fn plane_name(p: &PlaneData) -> String {
    String::from_utf8_lossy(p.header.name.split(|&c| c == 0).next().unwrap_or(&[])).into_owned()
}

fn compare_planes(path: &str, a: &PlaneData, b: &PlaneData, changes: &mut Vec<Change>) {
    compare(
        &join(path, "header"),
        &without(to_value(&a.header), &DERIVED_PLANE),
        &without(to_value(&b.header), &DERIVED_PLANE),
        changes,
    );
    compare(
        &join(path, "image_sets"),
        &to_value(&a.image_sets),
        &to_value(&b.image_sets),
        changes,
    );
    let (wa, ha) = (a.header.tiles_wide.get(), a.header.tiles_high.get());
    let (wb, hb) = (b.header.tiles_wide.get(), b.header.tiles_high.get());
    if (wa, ha) == (wb, hb) && a.tiles.len() == b.tiles.len() {
        let wide = usize::try_from(wa).unwrap_or(0);
        for r in changed_rects(&a.tiles, &b.tiles, wide) {
            changes.push(Change::changed(
                format!(
                    "{}/x {}-{}, y {}-{}",
                    join(path, "tiles"),
                    r.x0,
                    r.x1 - 1,
                    r.y0,
                    r.y1 - 1
                ),
                tiles_text(&a.tiles, wide, r),
                tiles_text(&b.tiles, wide, r),
            ));
        }
    } else {
        changes.push(Change::changed(
            join(path, "tiles"),
            format!("{wa}x{ha} tiles"),
            format!("{wb}x{hb} tiles"),
        ));
    }
    let objects = |p: &PlaneData| -> Vec<(String, Value)> {
        p.objects
            .iter()
            .map(|o| (o.fields.id.get().to_string(), to_value(o)))
            .collect()
    };
    compare_keyed(&join(path, "objects"), objects(a), objects(b), changes);
}

/// Compares two levels (their main blocks inflated).
pub fn files(a: &WwdView<'_>, b: &WwdView<'_>) -> Result<Report> {
    let (la, lb) = (WwdModel::from_view(a)?, WwdModel::from_view(b)?);
    Ok(levels(&la, &lb))
}

/// Compares two owned levels.
pub fn levels(a: &WwdModel, b: &WwdModel) -> Report {
    let mut changes = Vec::new();
    compare(
        "header",
        &without(to_value(&a.header), &DERIVED_HEADER),
        &without(to_value(&b.header), &DERIVED_HEADER),
        &mut changes,
    );
    let names = |l: &WwdModel| -> Vec<String> { l.planes.iter().map(plane_name).collect() };
    let (na, nb) = (names(a), names(b));
    for (i, pa) in a.planes.iter().enumerate() {
        let name = &na[i];
        match b.planes.iter().zip(&nb).find(|(_, n)| *n == name) {
            Some((pb, _)) => compare_planes(&join("planes", name), pa, pb, &mut changes),
            None => changes.push(Change::removed(join("planes", name), "plane".to_string())),
        }
    }
    for name in nb.iter().filter(|n| !na.contains(n)) {
        changes.push(Change::added(join("planes", name), "plane".to_string()));
    }
    let properties = |l: &WwdModel| -> Vec<(String, Value)> {
        l.tile_properties
            .iter()
            .enumerate()
            .map(|(i, p)| (i.to_string(), to_value(p)))
            .collect()
    };
    compare_keyed(
        "tile_properties",
        properties(a),
        properties(b),
        &mut changes,
    );
    Report::new(crate::Format::Wap32Wwd.name(), changes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn changed_cells_become_rectangles() {
        let wide = 6;
        let a = vec![0u32; 6 * 4];
        let mut b = a.clone();
        // A 2×2 block at (1, 1) and a single cell at (5, 0).
        for (x, y) in [(1, 1), (2, 1), (1, 2), (2, 2), (5, 0)] {
            b[y * wide + x] = 7;
        }
        let rects = changed_rects(&a, &b, wide);
        assert_eq!(
            rects,
            vec![
                Rect {
                    x0: 5,
                    x1: 6,
                    y0: 0,
                    y1: 1
                },
                Rect {
                    x0: 1,
                    x1: 3,
                    y0: 1,
                    y1: 3
                },
            ]
        );
        assert_eq!(tiles_text(&b, wide, rects[1]), "7 7 / 7 7");
        assert!(changed_rects(&a, &a, wide).is_empty());
    }

    /// The pattern that made a search of the open rectangles quadratic: every other cell of a wide
    /// grid changed, row after row (many open rectangles, each extended on every row), with a
    /// row of full-width change in the middle that closes them all. Each changed column becomes
    /// one rectangle per side of that row, and the full row one of its own.
    #[test]
    fn many_open_rectangles() {
        let (wide, high) = (2001, 9);
        let a = vec![0u32; wide * high];
        let mut b = a.clone();
        for y in 0..high {
            for x in 0..wide {
                if y == 4 || x % 2 == 0 {
                    b[y * wide + x] = 1;
                }
            }
        }
        let rects = changed_rects(&a, &b, wide);
        let columns = wide.div_ceil(2);
        let mut want: Vec<Rect> = (0..columns)
            .map(|c| Rect {
                x0: 2 * c,
                x1: 2 * c + 1,
                y0: 0,
                y1: 4,
            })
            .collect();
        want.push(Rect {
            x0: 0,
            x1: wide,
            y0: 4,
            y1: 5,
        });
        want.extend((0..columns).map(|c| Rect {
            x0: 2 * c,
            x1: 2 * c + 1,
            y0: 5,
            y1: high,
        }));
        assert_eq!(rects, want);
        // Every changed cell is in exactly one rectangle.
        let covered: usize = rects.iter().map(|r| (r.x1 - r.x0) * (r.y1 - r.y0)).sum();
        let changed = a.iter().zip(&b).filter(|(x, y)| x != y).count();
        assert_eq!(covered, changed);
    }
}

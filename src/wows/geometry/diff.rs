//! World of Warships `.geometry` files compared by buffer and mapping: the description
//! [`GeometrySummary`] gives (buffers with their formats, counts and bounds; mappings by id; draws
//! by their index mapping with how each was paired; collision and armor models by name; file
//! offsets left out), then, for each
//! draw in both files over the same number of vertices and indices, whether its decoded vertex data
//! and indices changed (how many vertices or indices differ, and the first).

use serde_json::Value;

use crate::diff::value::{compare_keyed, to_value, without_anywhere};
use crate::diff::{Change, Report};
use crate::error::Result;
use crate::wows::geometry::{DecodedGeometry, GeometrySummary, GeometryView, Indices};

fn keyed<T: serde::Serialize>(items: &[T], key: impl Fn(&T) -> String) -> Vec<(String, Value)> {
    items.iter().map(|i| (key(i), to_value(i))).collect()
}

/// Buffers and models without their records' file offsets, which move whenever anything before
/// them changes (a mapping's `offset` is its first item, and is compared).
fn positionless<T: serde::Serialize>(
    items: &[T],
    key: impl Fn(&T) -> String,
) -> Vec<(String, Value)> {
    items
        .iter()
        .map(|i| (key(i), without_anywhere(to_value(i), "offset")))
        .collect()
}

/// How many of two equal-length runs of records differ, and the first that does.
fn differing(a: &[u8], b: &[u8], stride: usize) -> Option<(usize, usize)> {
    let mut count = 0;
    let mut first = None;
    for (i, (x, y)) in a
        .chunks(stride.max(1))
        .zip(b.chunks(stride.max(1)))
        .enumerate()
    {
        if x != y {
            count += 1;
            first.get_or_insert(i);
        }
    }
    first.map(|f| (count, f))
}

fn index_values(indices: Indices<'_>) -> Vec<u32> {
    indices.iter().collect()
}

/// Compares two files.
pub fn files(a: &GeometryView<'_>, b: &GeometryView<'_>) -> Result<Report> {
    let (sa, sb) = (
        GeometrySummary::from_view(a)?,
        GeometrySummary::from_view(b)?,
    );
    let mut changes = Vec::new();
    compare_keyed(
        "vertex_buffers",
        positionless(&sa.vertex_buffers, |v| v.index.to_string()),
        positionless(&sb.vertex_buffers, |v| v.index.to_string()),
        &mut changes,
    );
    compare_keyed(
        "index_buffers",
        positionless(&sa.index_buffers, |i| i.index.to_string()),
        positionless(&sb.index_buffers, |i| i.index.to_string()),
        &mut changes,
    );
    let id = |id: u32| format!("{id:#010x}");
    compare_keyed(
        "vertex_mappings",
        keyed(&sa.vertex_mappings, |m| id(m.id)),
        keyed(&sb.vertex_mappings, |m| id(m.id)),
        &mut changes,
    );
    compare_keyed(
        "index_mappings",
        keyed(&sa.index_mappings, |m| id(m.id)),
        keyed(&sb.index_mappings, |m| id(m.id)),
        &mut changes,
    );
    compare_keyed(
        "draws",
        keyed(&sa.draws, |d| id(d.index_mapping)),
        keyed(&sb.draws, |d| id(d.index_mapping)),
        &mut changes,
    );
    compare_keyed(
        "collision_models",
        positionless(&sa.collision_models, |m| m.name.clone()),
        positionless(&sb.collision_models, |m| m.name.clone()),
        &mut changes,
    );
    compare_keyed(
        "armor_models",
        positionless(&sa.armor_models, |m| m.name.clone()),
        positionless(&sb.armor_models, |m| m.name.clone()),
        &mut changes,
    );
    // The draws' data: decoded once per file, compared draw by draw.
    let (mut da, mut db) = (DecodedGeometry::new(), DecodedGeometry::new());
    da.decode(a);
    db.decode(b);
    let draws_b: std::collections::HashMap<u32, _> =
        db.draws(b).map(|d| (d.indices.id(), d)).collect();
    for draw_a in da.draws(a) {
        let Some(draw_b) = draws_b.get(&draw_a.indices.id()) else {
            continue;
        };
        let (Ok(xa), Ok(xb)) = (da.draw_data(&draw_a), db.draw_data(draw_b)) else {
            continue;
        };
        let path = format!("draws/{}", id(draw_a.indices.id()));
        let (va, vb) = (xa.vertices.bytes(), xb.vertices.bytes());
        if va.len() == vb.len() && xa.vertices.stride() == xb.vertices.stride() {
            if let Some((count, first)) = differing(va, vb, xa.vertices.stride()) {
                changes.push(Change::changed(
                    format!("{path}/vertex data"),
                    format!("{} vertices", xa.vertices.len()),
                    format!("{count} differ, the first at vertex {first}"),
                ));
            }
        }
        let (ia, ib) = (index_values(xa.indices), index_values(xb.indices));
        if ia.len() == ib.len() && ia != ib {
            let count = ia.iter().zip(&ib).filter(|(x, y)| x != y).count();
            let first = ia.iter().zip(&ib).position(|(x, y)| x != y).unwrap_or(0);
            changes.push(Change::changed(
                format!("{path}/indices"),
                format!("{} indices", ia.len()),
                format!("{count} differ, the first at index {first}"),
            ));
        }
    }
    Ok(Report::new(crate::Format::WowsGeometry.name(), changes))
}

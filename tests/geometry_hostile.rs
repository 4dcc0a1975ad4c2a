//! Hostile edits of the fixtures' `.geometry` models, as `gamebin geometry pack` gets them from an
//! edited `dump --json`: every numeric field of every buffer and mapping, and the model's padding,
//! set to values a reader may refuse (0, 1, 7, the type's largest, 2^31, the buffer's item count
//! and one past it, …). Each edited model either is refused by the writer, with a `WriteError`
//! that names where in the model, or is written to a file that opens and whose full check (what
//! `gamebin check` runs) finds no error: the writer never writes a file its reader refuses.

use std::path::Path;

use gamebin::wows::geometry::GeometryView;
use gamebin::wows::geometry::model::{GeometryModel, MappingSpec};
use gamebin::{AnyView, Format, Scratch};

/// One edit: the model path of the field (as the JSON spells it), the value, and the change.
struct Edit {
    path: String,
    value: u64,
    apply: Box<dyn Fn(&mut GeometryModel)>,
}

/// The values to try for a field of `max` at most whose current value is `current`, with `items`
/// (a buffer's or table's count, when the field counts or indexes into one) and its neighbours.
fn values(max: u64, current: u64, items: &[u64]) -> Vec<u64> {
    let mut v = vec![
        0,
        1,
        2,
        3,
        4,
        7,
        8,
        255,
        256,
        257,
        0xffff,
        1 << 31,
        u64::from(u32::MAX),
    ];
    v.extend([current.wrapping_sub(1), current + 1, current * 2]);
    for &n in items {
        v.extend([n.wrapping_sub(1), n, n + 1]);
    }
    v.retain(|&x| x <= max && x != current);
    v.push(max);
    v.sort_unstable();
    v.dedup();
    v
}

/// Every hostile edit of `model`, which was read from `view`.
fn edits(model: &GeometryModel, view: &GeometryView<'_>) -> Vec<Edit> {
    let mut out = Vec::new();
    let mut push = |path: String, value: u64, apply: Box<dyn Fn(&mut GeometryModel)>| {
        out.push(Edit { path, value, apply })
    };
    let vertex_counts: Vec<u64> = view
        .vertex_buffers()
        .map(|b| b.vertex_count().map_or(0, |n| n as u64))
        .collect();
    let index_counts: Vec<u64> = view
        .index_buffers()
        .map(|b| b.index_count().map_or(0, |n| n as u64))
        .collect();
    for value in values(u64::MAX, model.blob_padding as u64, &[16]) {
        let padding = usize::try_from(value).unwrap_or(usize::MAX);
        push(
            "blob_padding".into(),
            value,
            Box::new(move |m| m.blob_padding = padding),
        );
    }
    for (i, vb) in model.vertex_buffers.iter().enumerate() {
        let lengths = [vb.data.len() as u64];
        for value in values(0xffff, u64::from(vb.stride), &lengths) {
            push(
                format!("vertex_buffers[{i}].stride"),
                value,
                Box::new(move |m| m.vertex_buffers[i].stride = value as u16),
            );
        }
        for value in values(0xff, u64::from(vb.is_skinned), &[]) {
            push(
                format!("vertex_buffers[{i}].is_skinned"),
                value,
                Box::new(move |m| m.vertex_buffers[i].is_skinned = value as u8),
            );
        }
        for value in values(0xff, u64::from(vb.is_bumped), &[]) {
            push(
                format!("vertex_buffers[{i}].is_bumped"),
                value,
                Box::new(move |m| m.vertex_buffers[i].is_bumped = value as u8),
            );
        }
    }
    for (i, ib) in model.index_buffers.iter().enumerate() {
        for value in values(0xffff, u64::from(ib.index_size), &[]) {
            push(
                format!("index_buffers[{i}].index_size"),
                value,
                Box::new(move |m| m.index_buffers[i].index_size = value as u16),
            );
        }
        for value in values(0xffff, u64::from(ib.reserved), &[]) {
            push(
                format!("index_buffers[{i}].reserved"),
                value,
                Box::new(move |m| m.index_buffers[i].reserved = value as u16),
            );
        }
    }
    type Table = fn(&mut GeometryModel) -> &mut Vec<MappingSpec>;
    let tables: [(&str, &[MappingSpec], &[u64], Table); 2] = [
        (
            "vertex_mappings",
            &model.vertex_mappings,
            &vertex_counts,
            |m| &mut m.vertex_mappings,
        ),
        (
            "index_mappings",
            &model.index_mappings,
            &index_counts,
            |m| &mut m.index_mappings,
        ),
    ];
    for (table, mappings, counts, get) in tables {
        let other_ids: Vec<u64> = mappings.iter().map(|m| u64::from(m.id)).collect();
        for (i, mapping) in mappings.iter().enumerate() {
            let items = counts
                .get(usize::from(mapping.buffer))
                .copied()
                .unwrap_or(0);
            let path = |field: &str| format!("{table}[{i}].{field}");
            let set =
                |f: fn(&mut MappingSpec, u64), value: u64| -> Box<dyn Fn(&mut GeometryModel)> {
                    Box::new(move |m: &mut GeometryModel| f(&mut get(m)[i], value))
                };
            for value in values(u64::from(u32::MAX), u64::from(mapping.id), &other_ids) {
                push(path("id"), value, set(|m, v| m.id = v as u32, value));
            }
            let buffers = [counts.len() as u64];
            for value in values(0xffff, u64::from(mapping.buffer), &buffers) {
                push(
                    path("buffer"),
                    value,
                    set(|m, v| m.buffer = v as u16, value),
                );
            }
            for value in values(0xffff, u64::from(mapping.texel_density), &[]) {
                push(
                    path("texel_density"),
                    value,
                    set(|m, v| m.texel_density = v as u16, value),
                );
            }
            let offset = u64::from(mapping.items_offset);
            let count = u64::from(mapping.items_count);
            let ends = [items, items.saturating_sub(count)];
            for value in values(u64::from(u32::MAX), offset, &ends) {
                push(
                    path("items_offset"),
                    value,
                    set(|m, v| m.items_offset = v as u32, value),
                );
            }
            let ends = [items, items.saturating_sub(offset)];
            for value in values(u64::from(u32::MAX), count, &ends) {
                push(
                    path("items_count"),
                    value,
                    set(|m, v| m.items_count = v as u32, value),
                );
            }
        }
    }
    out
}

/// The errors `gamebin check` would report for `bytes` (detection by content, then the full
/// check), one line each.
fn check_errors(bytes: &[u8]) -> Vec<String> {
    let mut scratch = Scratch::default();
    match AnyView::parse(bytes, &mut scratch) {
        Ok(view) if view.format() == Format::WowsGeometry => view
            .check()
            .errors
            .iter()
            .map(ToString::to_string)
            .collect(),
        Ok(other) => vec![format!("detected as {} instead", other.format())],
        Err(e) => vec![format!("does not open: {e}")],
    }
}

#[test]
fn every_hostile_edit_is_refused_by_the_writer_or_written_to_a_file_its_check_accepts() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/wows-geometry");
    let mut names: Vec<_> = std::fs::read_dir(&dir)
        .expect("fixtures")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "geometry"))
        .collect();
    names.sort();
    assert!(!names.is_empty(), "no fixtures in {}", dir.display());
    let (mut tried, mut refused) = (0, 0);
    let mut accepted_but_broken = Vec::new();
    for path in &names {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let bytes = std::fs::read(path).unwrap();
        let view = GeometryView::from_bytes(&bytes).unwrap();
        let model = GeometryModel::from_view(&view).unwrap();
        assert!(
            check_errors(&model.to_bytes().unwrap()).is_empty(),
            "{name}: the fixture as it is checks clean"
        );
        for edit in edits(&model, &view) {
            let mut edited = model.clone();
            (edit.apply)(&mut edited);
            tried += 1;
            match edited.to_bytes() {
                Err(e) => {
                    refused += 1;
                    assert!(
                        !e.path().is_empty(),
                        "{name}: {} = {}: the refusal names no place in the model: {e}",
                        edit.path,
                        edit.value
                    );
                }
                Ok(written) => {
                    let errors = check_errors(&written);
                    if !errors.is_empty() {
                        accepted_but_broken.push(format!(
                            "{name}: {} = {}: {}",
                            edit.path,
                            edit.value,
                            errors.join("; ")
                        ));
                    }
                }
            }
        }
    }
    println!("{tried} hostile edits, {refused} refused by the writer");
    assert!(
        accepted_but_broken.is_empty(),
        "{} of {tried} hostile edits were written to files `check` refuses:\n{}",
        accepted_but_broken.len(),
        accepted_but_broken.join("\n")
    );
}

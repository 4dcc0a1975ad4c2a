//! Zero-copy means zero allocations: opening a `.geometry`, walking every table, resolving every
//! name and blob, pairing draws, reading attributes and decoding into caller buffers allocate
//! nothing; opening a `.wdb`, looking records up and reading every field allocate nothing beyond
//! its schema (one `Vec`, built once per file). A counting global allocator proves it over the
//! fixtures and the real samples.

use std::path::Path;

use gamebin::wows::geometry::{DecodedGeometry, DrawTable, GeometryView, Indices, Vertices};

mod counting;

use counting::allocations;

#[global_allocator]
static ALLOCATOR: counting::Counting = counting::Counting;

#[test]
fn the_counter_counts() {
    let (n, v) = allocations(|| vec![1u8; 10]);
    assert_eq!(n, 1);
    drop(v);
}

/// Walks everything and decodes into the given (caller-owned, preallocated) buffers; pairs the
/// draws into a table and decodes the whole file into a `DecodedGeometry`, both reused from an
/// earlier file.
fn walk(
    data: &[u8],
    vertex_out: &mut [Vec<u8>],
    index_out: &mut [Vec<u32>],
    table: &mut DrawTable,
    decoded: &mut DecodedGeometry,
) -> f64 {
    let view = GeometryView::from_bytes(data).unwrap();
    view.validate().unwrap();
    let mut sum = 0.0f64;
    for (vb, out) in view.vertex_buffers().zip(vertex_out.iter_mut()) {
        sum += vb.format_name().unwrap().len() as f64;
        let n = vb.decode_vertices_into(out).unwrap();
        let v = Vertices::new(&out[..n * vb.stride()], vb.stride(), vb.format().unwrap()).unwrap();
        for p in v.positions() {
            sum += f64::from(p[0]);
        }
        for n in v.normals() {
            sum += f64::from(n[1]);
        }
        for uv in v.uvs() {
            sum += f64::from(uv[0]);
        }
        if let Ok(raw) = vb.raw_vertices() {
            sum += raw.bounds().map_or(0.0, |(lo, _)| f64::from(lo[0]));
        }
    }
    for (ib, out) in view.index_buffers().zip(index_out.iter_mut()) {
        let n = ib.decode_indices_into(out).unwrap();
        sum += Indices::from(&out[..n]).iter().map(f64::from).sum::<f64>();
        if let Ok(raw) = ib.raw_indices() {
            sum += f64::from(raw.max().unwrap_or(0));
        }
    }
    for m in view
        .vertex_mappings()
        .iter()
        .chain(view.index_mappings().iter())
    {
        sum += f64::from(m.id() % 7) + m.items_count() as f64;
    }
    table.pair(&view);
    for d in table.draws(&view) {
        sum += d.vertices.items_offset() as f64;
    }
    sum += table.notes().len() as f64;
    decoded.decode(&view);
    for d in decoded.draws(&view) {
        let data = decoded.draw_data(&d).unwrap();
        sum += data
            .indices
            .triangles()
            .map(|t| f64::from(t[0]))
            .sum::<f64>();
        sum += data
            .vertices
            .positions()
            .map(|p| f64::from(p[1]))
            .sum::<f64>();
    }
    if let Some(d) = view.draw_by_ids(
        view.vertex_mappings().get(0).map_or(0, |m| m.id()),
        view.index_mappings().get(0).map_or(0, |m| m.id()),
    ) {
        sum += d.indices.items_count() as f64;
    }
    sum += view
        .draw_by_name("Propeller_meshShape")
        .map_or(0.0, |d| d.indices.items_count() as f64);
    sum += view
        .draw_by_name("Cube")
        .map_or(0.0, |d| d.indices.items_count() as f64);
    for model in view.collision_models().chain(view.armor_models()) {
        sum += model.name().unwrap().len() as f64 + model.data().unwrap().len() as f64;
    }
    for model in view.armor_models() {
        let armor = model.armor().unwrap();
        sum += armor.triangle_count().unwrap() as f64;
        for node in armor.nodes() {
            for t in node.unwrap().triangles() {
                sum += f64::from(t[0][0]);
            }
        }
    }
    sum
}

fn check(path: &Path) {
    let data = std::fs::read(path).unwrap();
    let view = GeometryView::from_bytes(&data).unwrap();
    // The caller's buffers, allocated before counting starts.
    let mut vertex_out: Vec<Vec<u8>> = view
        .vertex_buffers()
        .map(|b| vec![0; b.decoded_len().unwrap()])
        .collect();
    let mut index_out: Vec<Vec<u32>> = view
        .index_buffers()
        .map(|b| vec![0; b.index_count().unwrap()])
        .collect();
    // Tables and decode buffers reused across files: warmed up on this one first.
    let (mut table, mut decoded) = (DrawTable::new(), DecodedGeometry::new());
    table.pair(&view);
    decoded.decode(&view);
    let (n, sum) = allocations(|| {
        walk(
            &data,
            &mut vertex_out,
            &mut index_out,
            &mut table,
            &mut decoded,
        )
    });
    assert!(sum.is_finite());
    assert_eq!(n, 0, "{}: {n} allocations", path.display());
    let (n, _) = allocations(|| gamebin::detect(&data));
    assert_eq!(n, 0, "{}: detect allocated", path.display());
}

#[test]
fn fixtures_open_walk_and_decode_without_allocating() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/wows-geometry");
    let mut seen = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        check(&entry.unwrap().path());
        seen += 1;
    }
    assert!(seen >= 3);
}

#[test]
#[ignore = "needs GAMEBIN_SAMPLES (real files): GAMEBIN_SAMPLES=../shared/samples cargo test -- --include-ignored"]
fn samples_open_walk_and_decode_without_allocating() {
    let dir = std::env::var_os("GAMEBIN_SAMPLES").expect("GAMEBIN_SAMPLES is not set: this test reads the real samples (run it with GAMEBIN_SAMPLES=../shared/samples cargo test -- --include-ignored)");
    let dir = Path::new(&dir).join("wows-geometry");
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "geometry") {
            check(&path);
        }
    }
}

// ---- Final Fantasy XIII `.wdb` ----

/// Opens, looks records up, reads every field (through a schema built beforehand, by the iterator
/// and by the visitor) and every raw
/// cell: nothing may allocate. Building the schema is the one documented allocation.
fn check_wdb(path: &Path) {
    use gamebin::wdb::WdbView;
    let data = std::fs::read(path).unwrap();
    let (n, view) = allocations(|| WdbView::from_bytes(&data).unwrap());
    assert_eq!(n, 0, "{}: open allocated", path.display());
    let names: Vec<Vec<u8>> = view.records().map(|r| r.name_bytes().to_vec()).collect();
    let (n, schema) = allocations(|| match view.game() {
        gamebin::wdb::Game::Xiii2Lr => Some(view.schema().unwrap()),
        gamebin::wdb::Game::Xiii1 => None,
    });
    assert_eq!(
        n,
        usize::from(schema.as_ref().is_some_and(|s| !s.is_empty())),
        "{}: the schema is one Vec",
        path.display()
    );
    let (n, sum) = allocations(|| {
        let mut sum = 0u64;
        for name in &names {
            let record = view.record_by_name(name).unwrap();
            sum += record.data().len() as u64;
            if schema.is_none() {
                // XIII-1: cells raw (4 bytes each; a u64 file needs its names).
                for cell in view.cells(record) {
                    sum += matches!(cell.unwrap(), gamebin::wdb::Cell::Bits(_)) as u64;
                }
            }
            if let Some(schema) = &schema {
                for (field, value) in schema.values(record) {
                    let value = value.unwrap();
                    sum = sum.wrapping_add(field.width as u64 + value.as_u64().unwrap_or(1) % 1000);
                    sum += value.as_bytes().map_or(0, |s| s.len() as u64);
                }
                schema
                    .for_each_value(&record, |field, value| {
                        sum = sum
                            .wrapping_add(field.width as u64 + value.as_u64().unwrap_or(1) % 1000);
                    })
                    .unwrap();
                if let Some(first) = schema.field(0) {
                    sum += schema.value_by_name(&record, first.name).unwrap().is_ok() as u64;
                }
            }
        }
        sum += view.record_by_name("no such record").is_none() as u64;
        sum += view.sections().count() as u64 + view.version().unwrap_or(0) as u64;
        if let Some(names) = view.field_names() {
            sum += names.iter().map(|n| n.unwrap().len() as u64).sum::<u64>();
        }
        view.validate().unwrap_or_else(|_| panic!("validate"));
        sum
    });
    assert!(sum > 0);
    // validate() builds its own schema: that one Vec is all.
    let expected = usize::from(schema.as_ref().is_some_and(|s| !s.is_empty()));
    assert_eq!(
        n,
        expected,
        "{}: {n} allocations reading records",
        path.display()
    );
    let (n, _) = allocations(|| gamebin::detect(&data));
    assert_eq!(n, 0, "{}: detect allocated", path.display());
}

#[test]
fn wdb_fixtures_open_look_up_and_read_fields_without_allocating() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/ff13-wdb");
    let mut seen = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        check_wdb(&entry.unwrap().path());
        seen += 1;
    }
    assert!(seen >= 5);
}

#[test]
#[ignore = "needs GAMEBIN_SAMPLES (real files): GAMEBIN_SAMPLES=../shared/samples cargo test -- --include-ignored"]
fn wdb_samples_open_look_up_and_read_fields_without_allocating() {
    let dir = std::env::var_os("GAMEBIN_SAMPLES").expect("GAMEBIN_SAMPLES is not set: this test reads the real samples (run it with GAMEBIN_SAMPLES=../shared/samples cargo test -- --include-ignored)");
    for entry in std::fs::read_dir(Path::new(&dir).join("ff13-wdb")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "wdb") {
            check_wdb(&path);
        }
    }
}

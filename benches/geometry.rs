//! `.geometry` benchmarks: opening a view, walking its tables, and ENCD (meshoptimizer) decoding
//! into caller-owned buffers beside meshopt's own allocating decoders on the same payload.
//!
//! ```text
//! cargo bench --bench geometry
//! ```
//!
//! The large input is made once, before anything is timed, by the crate's writer: a 1024 × 1024
//! grid surface with smooth positions, normals, tangents and UVs, cut into 32 bands (one mesh
//! each, neighbouring bands sharing their border row), in `set3/xyznuvtbpc` (28-byte stride),
//! ENCD-encoded, with ENCD 4-byte indices: 1,080,320 vertices and 6,279,174 indices.
//!
//! Each decode group times the same payload several ways, so that every comparison says what it
//! compares:
//! - `gamebin_into_preallocated`: `decode_vertices_into` / `decode_indices_into` into a buffer
//!   allocated and written once, outside the timed loop (how a pipeline reuses its buffer);
//! - `gamebin_into_fresh_buffer`: the same call into a buffer allocated (zeroed) and freed in every
//!   iteration: the same allocation work as meshopt's own call, for a like-for-like ratio;
//! - `meshopt_*`: meshopt's allocating `decode_vertex_buffer` / `decode_index_buffer`. For vertices
//!   it is timed with a `[u8; 28]` element (`calloc`) and with a newtype element (the `Vec` is
//!   filled element by element before decoding).
//!
//! Vertex decoding speed depends on where the output sits relative to meshoptimizer's stack
//! buffers (see [`on_shifted_stack`]): every decode variant rotates its calls through 16 stack
//! placements, so each figure is an average over placements rather than one call path's luck.
//!
//! After the criterion groups (when measuring decode groups), the same variants run once more
//! interleaved, round by round, and the binary prints each one's median, the median of the
//! per-round throughput ratios against meshopt's call, and the time at each stack placement: a
//! cross-check of the criterion ratios that does not suffer from the machine's load changing
//! between one benchmark and the next.
//!
//! A counting global allocator backs the zero-copy claim: before and after the criterion groups
//! the binary checks that opening a view (from bytes and from a mapping), looking meshes up,
//! walking all mappings, buffers and draws, validating, and decoding into preallocated buffers
//! allocate nothing, and panics if any of them does.

use std::hint::black_box;
use std::time::Duration;

use std::sync::atomic::{AtomicU64, Ordering};

use criterion::{Criterion, SamplingMode, Throughput};
use gamebin::MappedFile;
use gamebin::wows::geometry::export::gltf::{GeometryGlbOptions, geometry_to_glb};
use gamebin::wows::geometry::model::{GeometryBuilder, MeshVertex};
use gamebin::wows::geometry::{DecodedGeometry, GeometryView, IndexBuffer, VertexBuffer};

#[path = "../tests/counting/mod.rs"]
mod counting;

#[global_allocator]
static GLOBAL: counting::Counting = counting::Counting;

/// Allocations made on this thread while `f` runs.
fn allocations_during<R>(f: impl FnOnce() -> R) -> (u64, R) {
    let (count, result) = counting::allocations(f);
    (count as u64, black_box(result))
}

const FORMAT: &str = "set3/xyznuvtbpc";
const STRIDE: usize = 28;
/// Grid vertices per side.
const GRID: usize = 1024;
/// Grid rows per band (mesh); bands share their border row.
const BAND_ROWS: usize = 32;
const SMALL_FIXTURE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/fixtures/wows-geometry/ships_encd.geometry"
);

/// A 28-byte vertex record as an opaque newtype: meshopt's `vec![Default::default(); n]` fills it
/// element by element (no `calloc` shortcut), as it would for any user vertex struct.
#[derive(Clone, Copy, Default)]
struct V28([u8; STRIDE]);

fn normalize(v: [f32; 3]) -> [f32; 3] {
    let len = (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).sqrt();
    v.map(|c| c / len)
}

/// Vertex of grid column `i`, row `j` on the surface `y = 2 sin(0.05 x) cos(0.07 z)`, 0.25 m apart,
/// with its analytic normal, tangent and binormal, and UVs spanning the grid.
fn grid_vertex(i: usize, j: usize) -> MeshVertex {
    let (x, z) = (i as f32 * 0.25, j as f32 * 0.25);
    let (amp, kx, kz) = (2.0f32, 0.05f32, 0.07f32);
    let y = amp * (kx * x).sin() * (kz * z).cos();
    let dy_dx = amp * kx * (kx * x).cos() * (kz * z).cos();
    let dy_dz = -amp * kz * (kx * x).sin() * (kz * z).sin();
    let last = (GRID - 1) as f32;
    MeshVertex {
        normal: normalize([-dy_dx, 1.0, -dy_dz]),
        // Stored as the game stores them: uv − 0.5.
        uv: [i as f32 / last - 0.5, j as f32 / last - 0.5],
        tangent: normalize([1.0, dy_dx, 0.0]),
        binormal: normalize([0.0, dy_dz, 1.0]),
        ..MeshVertex::at([x, y, z])
    }
}

/// The large ENCD `.geometry` file (see the module docs).
fn build_large_file() -> Vec<u8> {
    let mut builder = GeometryBuilder::new();
    let vb = builder.vertex_buffer(FORMAT, true);
    let ib = builder.index_buffer(4, true);
    let mut first_row = 0;
    let mut band = 0u16;
    while first_row + 1 < GRID {
        let last_row = (first_row + BAND_ROWS).min(GRID - 1);
        let rows = last_row - first_row + 1;
        let vertices: Vec<MeshVertex> = (first_row..=last_row)
            .flat_map(|j| (0..GRID).map(move |i| grid_vertex(i, j)))
            .collect();
        let mut indices = Vec::with_capacity((rows - 1) * (GRID - 1) * 6);
        for r in 0..rows - 1 {
            for c in 0..GRID - 1 {
                let at = |r: usize, c: usize| (r * GRID + c) as u32;
                let (a, b, d, e) = (at(r, c), at(r, c + 1), at(r + 1, c), at(r + 1, c + 1));
                indices.extend([a, d, b, b, d, e]);
            }
        }
        // A distinct non-zero texel density per band, so the pairing goes by density as in new files.
        builder
            .mesh(
                &format!("Band_{band:02}"),
                vb,
                ib,
                17000 + band,
                &vertices,
                &indices,
            )
            .expect("band mesh");
        first_row = last_row;
        band += 1;
    }
    builder.to_bytes().expect("large .geometry")
}

/// Sums everything a tool walking the file's tables reads, without decoding: all vertex and index
/// mappings, all merged buffers (stride, format, decoded sizes from the ENCD headers), all draws.
fn walk(view: &GeometryView<'_>) -> u64 {
    let mut sum = 0u64;
    for m in view
        .vertex_mappings()
        .iter()
        .chain(view.index_mappings().iter())
    {
        sum = sum
            .wrapping_add(u64::from(m.id()))
            .wrapping_add(m.buffer_index() as u64)
            .wrapping_add(u64::from(m.texel_density()))
            .wrapping_add(m.items_offset() as u64)
            .wrapping_add(m.items_count() as u64);
    }
    for vb in view.vertex_buffers() {
        sum = sum
            .wrapping_add(vb.stride() as u64)
            .wrapping_add(vb.format_name().map_or(0, |n| n.len() as u64))
            .wrapping_add(vb.decoded_len().unwrap_or(0) as u64);
    }
    for ib in view.index_buffers() {
        sum = sum
            .wrapping_add(ib.index_size() as u64)
            .wrapping_add(ib.index_count().unwrap_or(0) as u64);
    }
    // The writer lists both tables in mesh order: each pair found by its two ids, as a caller
    // holding an assets.bin render set finds it (pairing from the data is timed on its own).
    for (v, i) in view
        .vertex_mappings()
        .iter()
        .zip(view.index_mappings().iter())
    {
        if let Some(draw) = view.draw_by_ids(v.id(), i.id()) {
            sum = sum
                .wrapping_add(u64::from(draw.vertices.id() ^ draw.indices.id()))
                .wrapping_add(draw.vertices.items_count() as u64)
                .wrapping_add(draw.indices.items_count() as u64);
        }
    }
    sum
}

/// The benchmark inputs, made once.
struct Inputs {
    large: Vec<u8>,
    small: Vec<u8>,
    vertex_count: usize,
    index_count: usize,
    /// Decoded vertex bytes / index bytes of the large file.
    vertex_bytes: usize,
    index_bytes: usize,
}

impl Inputs {
    fn large_view(&self) -> GeometryView<'_> {
        GeometryView::from_bytes(&self.large).expect("large file opens")
    }

    fn buffers(&self) -> (VertexBuffer<'_>, IndexBuffer<'_>) {
        let view = self.large_view();
        (
            view.vertex_buffer(0).expect("vertex buffer"),
            view.index_buffer(0).expect("index buffer"),
        )
    }

    fn vertex_payload(&self) -> &[u8] {
        self.buffers()
            .0
            .encoded()
            .expect("blob")
            .expect("ENCD vertices")
            .payload
    }

    fn index_payload(&self) -> &[u8] {
        self.buffers()
            .1
            .encoded()
            .expect("blob")
            .expect("ENCD indices")
            .payload
    }
}

fn setup() -> Inputs {
    let large = build_large_file();
    let small = std::fs::read(SMALL_FIXTURE).expect("small fixture");
    let view = GeometryView::from_bytes(&large).expect("large file opens");
    view.validate().expect("large file validates");
    let (vb, ib) = (
        view.vertex_buffer(0).unwrap(),
        view.index_buffer(0).unwrap(),
    );
    assert_eq!(vb.stride(), STRIDE);
    let vertex_count = vb.vertex_count().unwrap();
    let index_count = ib.index_count().unwrap();
    assert!(vertex_count >= 1 << 20, "at least 1M vertices");
    assert_eq!(
        view.draws().len(),
        view.vertex_mappings().len(),
        "all paired"
    );
    let meshes = view.vertex_mappings().len();
    let vertex_bytes = vb.decoded_len().unwrap();
    let inputs = Inputs {
        vertex_bytes,
        index_bytes: index_count * 4,
        large,
        small,
        vertex_count,
        index_count,
    };
    println!(
        "large .geometry: {} bytes on disk; {} vertices × {} B = {} B decoded (vertex payload {} B), \
         {} indices × 4 B = {} B decoded (index payload {} B); {} meshes",
        inputs.large.len(),
        vertex_count,
        STRIDE,
        inputs.vertex_bytes,
        inputs.vertex_payload().len(),
        index_count,
        inputs.index_bytes,
        inputs.index_payload().len(),
        meshes,
    );
    println!(
        "small fixture: {} ({} bytes)",
        SMALL_FIXTURE,
        inputs.small.len()
    );
    check_same_output_as_meshopt(&inputs);
    inputs
}

/// Our decode and meshopt's own must give the same bytes, or the comparison means nothing.
fn check_same_output_as_meshopt(inputs: &Inputs) {
    let (vb, ib) = inputs.buffers();
    let mut ours = vec![0u8; inputs.vertex_bytes];
    assert_eq!(
        vb.decode_vertices_into(&mut ours).unwrap(),
        inputs.vertex_count
    );
    let theirs =
        meshopt::decode_vertex_buffer::<[u8; STRIDE]>(inputs.vertex_payload(), inputs.vertex_count)
            .expect("meshopt decodes the vertices");
    assert!(
        ours == theirs.as_flattened(),
        "vertex decode differs from meshopt"
    );
    let newtype =
        meshopt::decode_vertex_buffer::<V28>(inputs.vertex_payload(), inputs.vertex_count)
            .expect("meshopt decodes the vertices");
    assert!(
        newtype
            .iter()
            .zip(ours.chunks_exact(STRIDE))
            .all(|(v, record)| v.0 == record),
        "vertex decode differs from meshopt (newtype element)"
    );
    // And the decoded data is the grid: first vertex of band 1 is grid row 32.
    let row32 = BAND_ROWS * GRID * STRIDE;
    let x = f32::from_le_bytes(ours[row32..row32 + 4].try_into().unwrap());
    let z = f32::from_le_bytes(ours[row32 + 8..row32 + 12].try_into().unwrap());
    assert_eq!((x, z), (0.0, BAND_ROWS as f32 * 0.25));

    let mut ours = vec![0u32; inputs.index_count];
    assert_eq!(
        ib.decode_indices_into(&mut ours).unwrap(),
        inputs.index_count
    );
    let theirs = meshopt::decode_index_buffer::<u32>(inputs.index_payload(), inputs.index_count)
        .expect("meshopt decodes the indices");
    assert!(ours == theirs, "index decode differs from meshopt");
}

/// Checks that opening, looking up, walking and decoding into preallocated buffers allocate
/// nothing; panics if one does. Prints one line per check.
fn check_zero_allocations(inputs: &Inputs, when: &str) {
    let (large, small) = (inputs.large.as_slice(), inputs.small.as_slice());
    let mapped = MappedFile::open(SMALL_FIXTURE).expect("map the small fixture");
    let large_view = GeometryView::from_bytes(large).unwrap();
    let small_view = GeometryView::from_bytes(small).unwrap();
    let (vb, ib) = (
        large_view.vertex_buffer(0).unwrap(),
        large_view.index_buffer(0).unwrap(),
    );
    let (small_vb, small_ib) = (
        small_view.vertex_buffer(0).unwrap(),
        small_view.index_buffer(0).unwrap(),
    );
    let mut vertices = vec![0u8; inputs.vertex_bytes];
    let mut indices = vec![0u32; inputs.index_count];
    let mut small_vertices = vec![0u8; small_vb.decoded_len().unwrap()];
    let mut small_indices = vec![0u16; small_ib.index_count().unwrap()];

    let mut results: Vec<(&str, u64)> = Vec::with_capacity(16);
    let mut check = |name, (count, ok): (u64, bool)| {
        assert!(ok, "{name}: the operation itself failed");
        results.push((name, count));
    };
    check(
        "GeometryView::from_bytes(large)",
        allocations_during(|| GeometryView::from_bytes(large).is_ok()),
    );
    check(
        "GeometryView::from_bytes(small fixture)",
        allocations_during(|| GeometryView::from_bytes(small).is_ok()),
    );
    check(
        "GeometryView::open(mapped small fixture)",
        allocations_during(|| GeometryView::open(&mapped).is_ok()),
    );
    check(
        "draw_by_name(\"Band_17\") on large",
        allocations_during(|| large_view.draw_by_name("Band_17").is_some()),
    );
    check(
        "draw_by_name(\"Cube\") on small fixture",
        allocations_during(|| small_view.draw_by_name("Cube").is_some()),
    );
    check(
        "walk mappings + buffers + draws (large)",
        allocations_during(|| walk(&large_view) != 0),
    );
    check(
        "walk mappings + buffers + draws (small fixture)",
        allocations_during(|| walk(&small_view) != 0),
    );
    check(
        "validate() (large)",
        allocations_during(|| large_view.validate().is_ok()),
    );
    check(
        "decode_vertices_into(preallocated) (large)",
        allocations_during(|| vb.decode_vertices_into(&mut vertices).is_ok()),
    );
    check(
        "decode_indices_into(preallocated u32) (large)",
        allocations_during(|| ib.decode_indices_into(&mut indices).is_ok()),
    );
    check(
        "decode_vertices_into(preallocated) (small fixture)",
        allocations_during(|| small_vb.decode_vertices_into(&mut small_vertices).is_ok()),
    );
    check(
        "decode_indices_into(preallocated u16) (small fixture)",
        allocations_during(|| small_ib.decode_indices_into(&mut small_indices).is_ok()),
    );
    let mut whole = DecodedGeometry::new();
    whole.decode(&large_view);
    check(
        "DecodedGeometry::decode + pairing, buffers reused (large)",
        allocations_during(|| {
            whole.decode(&large_view);
            whole.draw_table().len() == 32
        }),
    );
    // The control: meshopt's own call allocates its output, so the counter must see it.
    let (control, _) = allocations_during(|| {
        meshopt::decode_vertex_buffer::<[u8; STRIDE]>(inputs.vertex_payload(), inputs.vertex_count)
            .map(|v| v.len())
    });

    for (name, count) in &results {
        println!("zero-alloc check ({when}): {name}: {count} allocations");
    }
    println!(
        "zero-alloc check ({when}): control, meshopt::decode_vertex_buffer: {control} allocation(s)"
    );
    assert!(
        control > 0,
        "the counting allocator saw no allocation in meshopt's allocating call: it is not counting"
    );
    let failed: Vec<_> = results.iter().filter(|(_, count)| *count != 0).collect();
    assert!(
        failed.is_empty(),
        "zero-copy violated ({when}): {failed:?} allocated"
    );
    println!(
        "zero-alloc check ({when}): all {} checks allocate nothing",
        results.len()
    );
}

/// The large file decoded whole into reused buffers, then exported to GLB: the export's cost
/// against the decode alone, both over the decoded bytes (vertices and indices).
fn bench_export(c: &mut Criterion, inputs: &Inputs) {
    let view = inputs.large_view();
    let mut decoded = DecodedGeometry::new();
    decoded.decode(&view);
    let options = GeometryGlbOptions::default();
    let glb = geometry_to_glb(&view, &decoded, &options).expect("GLB");
    assert!(glb.skipped.is_empty() && glb.meshes == 32);
    println!(
        "export_glb: {} meshes, GLB of {} bytes from {} decoded bytes",
        glb.meshes,
        glb.bytes.len(),
        inputs.vertex_bytes + inputs.index_bytes
    );
    let mut group = c.benchmark_group("export_glb");
    group
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(8))
        .throughput(Throughput::Bytes(
            (inputs.vertex_bytes + inputs.index_bytes) as u64,
        ));
    group.bench_function("decode_whole_file_reused_buffers", |b| {
        b.iter(|| decoded.decode(black_box(&view)))
    });
    group.bench_function("glb_from_decoded", |b| {
        b.iter(|| geometry_to_glb(&view, black_box(&decoded), &options).map(|g| g.bytes.len()))
    });
    group.bench_function("decode_and_glb", |b| {
        b.iter(|| {
            decoded.decode(black_box(&view));
            geometry_to_glb(&view, &decoded, &options).map(|g| g.bytes.len())
        })
    });
    group.finish();
}

/// Every stored buffer of `views` copied into a fresh `Vec`.
fn copy_samples(views: &[GeometryView<'_>]) -> usize {
    let mut kept = 0;
    for view in views {
        for vb in view.vertex_buffers() {
            kept += black_box(vb.data().map(<[u8]>::to_vec).unwrap_or_default()).len();
        }
        for ib in view.index_buffers() {
            kept += black_box(ib.data().map(<[u8]>::to_vec).unwrap_or_default()).len();
        }
    }
    kept
}

/// Every buffer of `views` decoded into a fresh `Vec` (indices at their stored width).
fn decode_samples_into_vecs(views: &[GeometryView<'_>]) -> usize {
    let mut kept = 0;
    for view in views {
        for vb in view.vertex_buffers() {
            let mut out = Vec::new();
            let _ = vb.decode_vertices_into_vec(&mut out);
            kept += black_box(out).len();
        }
        for ib in view.index_buffers() {
            kept += if ib.effective_index_size().unwrap_or(2) == 2 {
                let mut out: Vec<u16> = Vec::new();
                let _ = ib.decode_indices_into_vec(&mut out);
                black_box(out).len()
            } else {
                let mut out: Vec<u32> = Vec::new();
                let _ = ib.decode_indices_into_vec(&mut out);
                black_box(out).len()
            };
        }
    }
    kept
}

/// The decode into fresh `Vec`s against the plain copy, alternating round by round so that both
/// see the same machine load: prints the median and the 10th/90th percentile of the per-round
/// ratios.
fn interleaved_samples(what: &str, views: &[GeometryView<'_>]) {
    const ROUNDS: usize = 301;
    const RUNS: usize = 200;
    let time = |f: &dyn Fn() -> usize| {
        let start = std::time::Instant::now();
        for _ in 0..RUNS {
            black_box(f());
        }
        start.elapsed().as_secs_f64() / RUNS as f64
    };
    let mut ratios: Vec<f64> = (0..ROUNDS)
        .map(|round| {
            let (copy, decode) = if round % 2 == 0 {
                let c = time(&|| copy_samples(views));
                (c, time(&|| decode_samples_into_vecs(views)))
            } else {
                let d = time(&|| decode_samples_into_vecs(views));
                (time(&|| copy_samples(views)), d)
            };
            decode / copy
        })
        .collect();
    ratios.sort_by(f64::total_cmp);
    println!(
        "samples_decode interleaved, {what}: decode into fresh Vecs / plain copy: median {:.3}, p10 {:.3}, p90 {:.3} ({ROUNDS} rounds of {RUNS})",
        ratios[ROUNDS / 2],
        ratios[ROUNDS / 10],
        ratios[ROUNDS - 1 - ROUNDS / 10]
    );
}

/// Every real sample (`$GAMEBIN_SAMPLES/wows-geometry`): each merged buffer decoded (or copied, for
/// raw blobs) into a freshly allocated buffer, against a plain copy of every stored blob into a
/// fresh `Vec`.
fn bench_samples(c: &mut Criterion) {
    let Some(dir) = std::env::var_os("GAMEBIN_SAMPLES") else {
        println!("samples_decode: skipped, GAMEBIN_SAMPLES is not set");
        return;
    };
    let dir = std::path::Path::new(&dir).join("wows-geometry");
    let mut files = Vec::new();
    for entry in std::fs::read_dir(&dir).expect("samples folder") {
        let path = entry.expect("entry").path();
        if path.extension().is_some_and(|e| e == "geometry") {
            files.push(std::fs::read(&path).expect("sample"));
        }
    }
    let views: Vec<GeometryView<'_>> = files
        .iter()
        .map(|f| GeometryView::from_bytes(f).expect("sample opens"))
        .collect();
    let stored: usize = views
        .iter()
        .flat_map(|v| {
            v.vertex_buffers()
                .map(|b| b.data().map_or(0, <[u8]>::len))
                .chain(v.index_buffers().map(|b| b.data().map_or(0, <[u8]>::len)))
        })
        .sum();
    println!(
        "samples_decode: {} files, {stored} stored buffer bytes",
        views.len()
    );
    let mut group = c.benchmark_group("samples_decode");
    group
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(4))
        .throughput(Throughput::Bytes(stored as u64));
    group.bench_function("plain_copy_into_fresh_vec", |b| {
        b.iter(|| copy_samples(&views))
    });
    group.bench_function("decode_into_fresh_buffers", |b| {
        b.iter(|| {
            let mut kept = 0;
            for view in &views {
                for vb in view.vertex_buffers() {
                    let mut out = vec![0u8; vb.decoded_len().unwrap_or(0)];
                    let _ = vb.decode_vertices_into(&mut out);
                    kept += black_box(out).len();
                }
                for ib in view.index_buffers() {
                    let count = ib.index_count().unwrap_or(0);
                    kept += if ib.effective_index_size().unwrap_or(2) == 2 {
                        let mut out = vec![0u16; count];
                        let _ = ib.decode_indices_into(&mut out);
                        black_box(out).len()
                    } else {
                        let mut out = vec![0u32; count];
                        let _ = ib.decode_indices_into(&mut out);
                        black_box(out).len()
                    };
                }
            }
            kept
        })
    });
    group.bench_function("decode_into_fresh_vecs", |b| {
        b.iter(|| decode_samples_into_vecs(&views))
    });
    group.bench_function("decoded_geometry_fresh_with_pairing", |b| {
        b.iter(|| {
            let mut kept = 0;
            for view in &views {
                let mut decoded = DecodedGeometry::new();
                decoded.decode(view);
                kept += black_box(decoded.draw_table().len());
            }
            kept
        })
    });
    group.finish();
    interleaved_samples("all 7 samples", &views);
    // Decoding an ENCD buffer is work a copy of its stored bytes does not do: the raw samples
    // alone compare like with like.
    let raw: Vec<GeometryView<'_>> = views
        .iter()
        .copied()
        .filter(|v| {
            v.vertex_buffers().all(|b| b.is_encoded() == Ok(false))
                && v.index_buffers().all(|b| b.is_encoded() == Ok(false))
        })
        .collect();
    interleaved_samples("the 6 raw samples", &raw);
}

fn bench_open(c: &mut Criterion, inputs: &Inputs) {
    let mut group = c.benchmark_group("open");
    group
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3));
    let large = inputs.large.as_slice();
    let small = inputs.small.as_slice();
    group.bench_function("from_bytes/large", |b| {
        b.iter(|| GeometryView::from_bytes(black_box(large)))
    });
    group.bench_function("from_bytes/small_fixture", |b| {
        b.iter(|| GeometryView::from_bytes(black_box(small)))
    });
    group.finish();
}

fn bench_walk(c: &mut Criterion, inputs: &Inputs) {
    let mut group = c.benchmark_group("walk");
    group
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3));
    let large = inputs.large_view();
    let small = GeometryView::from_bytes(&inputs.small).unwrap();
    group.bench_function("large_32_meshes", |b| b.iter(|| walk(black_box(&large))));
    group.bench_function("small_fixture_2_meshes", |b| {
        b.iter(|| walk(black_box(&small)))
    });
    group.finish();
}

/// How many stack placements every decode call rotates through (see [`on_shifted_stack`]).
const STACK_SHIFTS: usize = 16;

/// Calls `f` with the stack pointer about `PAD` bytes lower than it would otherwise be.
///
/// meshoptimizer's SIMD vertex decoder decodes each block of up to 256 vertices into buffers on
/// its own stack and `memcpy`s the block (7 KB at stride 28) to the output. Measured on the
/// benchmark machine, one decode call takes up to 15–25 % longer at some placements of that stack
/// relative to the output than at others (mostly alternating with every 16 bytes of stack shift;
/// likely cache-line-split loads in that copy, and 4 KiB aliasing). The stack address is fixed by
/// the call path, so any one call path (ours, meshopt's own function, criterion's closure, the
/// interleaved loop) is lucky or unlucky by a fixed amount, and two call paths are not comparable.
/// Every decode variant therefore rotates its calls through [`STACK_SHIFTS`] placements 272 bytes
/// apart (16 bytes apart modulo a cache line, spread over a whole 4 KiB page), and its figure is
/// an average over placements. The index decoder is not sensitive to this.
#[inline(never)]
fn on_shifted_stack<const PAD: usize>(f: &mut dyn FnMut()) {
    let pad = [0u8; PAD];
    black_box(&pad);
    f();
    black_box(&pad);
}

fn call_with_stack_shift(shift: usize, f: &mut dyn FnMut()) {
    match shift % STACK_SHIFTS {
        0 => on_shifted_stack::<1>(f),
        1 => on_shifted_stack::<273>(f),
        2 => on_shifted_stack::<545>(f),
        3 => on_shifted_stack::<817>(f),
        4 => on_shifted_stack::<1089>(f),
        5 => on_shifted_stack::<1361>(f),
        6 => on_shifted_stack::<1633>(f),
        7 => on_shifted_stack::<1905>(f),
        8 => on_shifted_stack::<2177>(f),
        9 => on_shifted_stack::<2449>(f),
        10 => on_shifted_stack::<2721>(f),
        11 => on_shifted_stack::<2993>(f),
        12 => on_shifted_stack::<3265>(f),
        13 => on_shifted_stack::<3537>(f),
        14 => on_shifted_stack::<3809>(f),
        _ => on_shifted_stack::<{ 1 + 272 * 15 }>(f),
    }
}

/// One decode variant, shared by its criterion benchmark and the interleaved cross-check.
struct Variant<'f> {
    name: &'static str,
    run: Box<dyn FnMut(&AtomicU64) + 'f>,
    /// Stack placements seen inside the call, as a bit set of `address % 64`.
    stack_residues: AtomicU64,
    calls: usize,
    /// Interleaved timings, per stack placement.
    times: [Vec<Duration>; STACK_SHIFTS],
}

impl<'f> Variant<'f> {
    fn new(name: &'static str, run: impl FnMut(&AtomicU64) + 'f) -> Self {
        Variant {
            name,
            run: Box::new(run),
            stack_residues: AtomicU64::new(0),
            calls: 0,
            times: Default::default(),
        }
    }

    /// One call, at the next stack placement in rotation.
    fn call(&mut self) {
        self.calls = self.calls.wrapping_add(1);
        self.call_at(self.calls);
    }

    fn call_at(&mut self, shift: usize) {
        let (run, seen) = (&mut self.run, &self.stack_residues);
        call_with_stack_shift(shift, &mut || run(seen));
    }

    fn stack_residues(&self) -> Vec<usize> {
        let bits = self.stack_residues.load(Ordering::Relaxed);
        (0..64).filter(|r| bits & (1 << r) != 0).collect()
    }
}

/// Records where the stack is inside a decode variant (a local's address modulo 64).
fn note_stack(seen: &AtomicU64) {
    let here = 0u8;
    let at = black_box(&here) as *const u8 as usize;
    seen.fetch_or(1 << (at % 64), Ordering::Relaxed);
}

fn vertex_variants<'f>(inputs: &'f Inputs, out: &'f mut [u8]) -> Vec<Variant<'f>> {
    let (vb, _) = inputs.buffers();
    let (payload, count, len) = (
        inputs.vertex_payload(),
        inputs.vertex_count,
        inputs.vertex_bytes,
    );
    vec![
        Variant::new("gamebin_into_preallocated", move |seen| {
            note_stack(seen);
            black_box(vb.decode_vertices_into(black_box(&mut *out))).expect("decode");
        }),
        Variant::new("gamebin_into_fresh_buffer", move |seen| {
            note_stack(seen);
            let mut fresh = vec![0u8; len];
            black_box(vb.decode_vertices_into(&mut fresh)).expect("decode");
            black_box(fresh);
        }),
        Variant::new("meshopt_decode_vertex_buffer_u8x28", move |seen| {
            note_stack(seen);
            let out = meshopt::decode_vertex_buffer::<[u8; STRIDE]>(black_box(payload), count);
            black_box(out).expect("decode");
        }),
        Variant::new("meshopt_decode_vertex_buffer_newtype", move |seen| {
            note_stack(seen);
            let out = meshopt::decode_vertex_buffer::<V28>(black_box(payload), count);
            black_box(out).expect("decode");
        }),
    ]
}

fn index_variants<'f>(inputs: &'f Inputs, out: &'f mut [u32]) -> Vec<Variant<'f>> {
    let (_, ib) = inputs.buffers();
    let (payload, count) = (inputs.index_payload(), inputs.index_count);
    vec![
        Variant::new("gamebin_into_preallocated", move |seen| {
            note_stack(seen);
            black_box(ib.decode_indices_into(black_box(&mut *out))).expect("decode");
        }),
        Variant::new("gamebin_into_fresh_buffer", move |seen| {
            note_stack(seen);
            let mut fresh = vec![0u32; count];
            black_box(ib.decode_indices_into(&mut fresh)).expect("decode");
            black_box(fresh);
        }),
        Variant::new("meshopt_decode_index_buffer_u32", move |seen| {
            note_stack(seen);
            let out = meshopt::decode_index_buffer::<u32>(black_box(payload), count);
            black_box(out).expect("decode");
        }),
    ]
}

/// Checks that a variant's calls really ran at different stack placements modulo 32 (the period
/// that matters), so that its figure is the average the module docs promise.
fn check_stack_rotation(group: &str, variants: &[Variant<'_>]) {
    for v in variants.iter().filter(|v| v.calls >= STACK_SHIFTS) {
        let residues = v.stack_residues();
        let mut mod32: Vec<usize> = residues.iter().map(|r| r % 32).collect();
        mod32.sort_unstable();
        mod32.dedup();
        println!(
            "{group}/{}: stack address % 64 seen inside the calls: {residues:?}",
            v.name
        );
        assert!(
            mod32.len() > 1,
            "{group}/{}: the stack shift did not move the stack ({residues:?})",
            v.name
        );
    }
}

/// A decode group: each iteration takes milliseconds, so flat sampling and few samples. Every
/// iteration moves on to the next stack placement.
fn bench_decode(c: &mut Criterion, name: &str, bytes: usize, variants: &mut [Variant<'_>]) {
    let mut group = c.benchmark_group(name);
    group
        .sampling_mode(SamplingMode::Flat)
        .sample_size(30)
        .warm_up_time(Duration::from_secs(2))
        .measurement_time(Duration::from_secs(5))
        .throughput(Throughput::BytesDecimal(bytes as u64));
    for v in variants.iter_mut() {
        group.bench_function(v.name, |b| b.iter(|| v.call()));
    }
    group.finish();
}

fn median(values: &mut [f64]) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

/// A cross-check of the criterion groups that is robust to the machine's state drifting between
/// one benchmark and the next (on a shared 2-core machine): the variants run interleaved, each
/// round calling every variant once at every stack placement (starting variant rotated), and each
/// round gives a ratio against the variant named `reference` on the same machine state. Prints,
/// per variant, the median over rounds of the placement-averaged time, the median of the per-round
/// throughput ratios (with 10th and 90th percentiles), and the median at each placement.
fn paired(group: &str, bytes: usize, reference: &str, variants: &mut [Variant<'_>]) {
    const ROUNDS: usize = 11;
    let n = variants.len();
    let reference = variants
        .iter()
        .position(|v| v.name == reference)
        .expect("reference variant");
    for v in variants.iter_mut() {
        v.call(); // warm up
        v.times = Default::default();
    }
    for round in 0..ROUNDS {
        for k in 0..n {
            let v = &mut variants[(round + k) % n];
            for shift in 0..STACK_SHIFTS {
                let start = std::time::Instant::now();
                v.call_at(shift);
                v.times[shift].push(start.elapsed());
            }
        }
    }
    // Per round: the average over the stack placements.
    let averaged = |v: &Variant<'_>| -> Vec<f64> {
        (0..ROUNDS)
            .map(|r| v.times.iter().map(|t| t[r].as_secs_f64()).sum::<f64>() / STACK_SHIFTS as f64)
            .collect()
    };
    let reference_times = averaged(&variants[reference]);
    println!(
        "paired {group} ({ROUNDS} interleaved rounds × {STACK_SHIFTS} stack placements, {bytes} B decoded per call):"
    );
    for v in variants.iter() {
        let mut times = averaged(v);
        let mut ratios: Vec<f64> = times
            .iter()
            .zip(&reference_times)
            .map(|(ours, theirs)| theirs / ours)
            .collect();
        let ratio = median(&mut ratios);
        let t = median(&mut times);
        let per_shift: Vec<String> = v
            .times
            .iter()
            .map(|ts| {
                let mut secs: Vec<f64> = ts.iter().map(Duration::as_secs_f64).collect();
                format!("{:.3}", median(&mut secs) * 1e3)
            })
            .collect();
        println!(
            "  {:37} median {:6.3} ms {:6.3} GB/s | throughput / {}: {:.3} (p10 {:.3}, p90 {:.3}) | ms per stack placement: {}",
            v.name,
            t * 1e3,
            bytes as f64 / t / 1e9,
            variants[reference].name,
            ratio,
            ratios[ROUNDS / 10],
            ratios[ROUNDS - 1 - ROUNDS / 10],
            per_shift.join(" "),
        );
    }
}

/// Whether criterion was asked to measure (`cargo bench`), not to test, list or profile, with no
/// filter or one that names a decode group.
fn measuring_decode() -> bool {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let flag = |f: &str| args.iter().any(|a| a == f);
    let filters: Vec<&String> = args.iter().filter(|a| !a.starts_with('-')).collect();
    flag("--bench")
        && !flag("--test")
        && !flag("--list")
        && !args.iter().any(|a| a.starts_with("--profile-time"))
        && (filters.is_empty() || filters.iter().any(|f| f.contains("decode")))
}

fn main() {
    let inputs = setup();
    check_zero_allocations(&inputs, "before benchmarks");

    let mut criterion = Criterion::default().configure_from_args();
    bench_open(&mut criterion, &inputs);
    bench_walk(&mut criterion, &inputs);
    bench_export(&mut criterion, &inputs);
    bench_samples(&mut criterion);

    // Allocated and written once, outside the timed loops, so their pages are resident.
    let mut vertex_out = vec![0xffu8; inputs.vertex_bytes];
    let mut vertices = vertex_variants(&inputs, &mut vertex_out);
    bench_decode(
        &mut criterion,
        "decode_vertices",
        inputs.vertex_bytes,
        &mut vertices,
    );
    let mut index_out = vec![u32::MAX; inputs.index_count];
    let mut indices = index_variants(&inputs, &mut index_out);
    bench_decode(
        &mut criterion,
        "decode_indices",
        inputs.index_bytes,
        &mut indices,
    );
    if measuring_decode() {
        paired(
            "decode_vertices",
            inputs.vertex_bytes,
            "meshopt_decode_vertex_buffer_u8x28",
            &mut vertices,
        );
        paired(
            "decode_indices",
            inputs.index_bytes,
            "meshopt_decode_index_buffer_u32",
            &mut indices,
        );
    }
    check_stack_rotation("decode_vertices", &vertices);
    check_stack_rotation("decode_indices", &indices);
    drop((vertices, indices));

    check_zero_allocations(&inputs, "after benchmarks");
    criterion.final_summary();
}

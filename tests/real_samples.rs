//! Real World of Warships files from `$GAMEBIN_SAMPLES/wows-geometry`, checked against the facts
//! their SOURCES.txt states and against each other (an ENCD file and its raw twin). Every test here
//! is `#[ignore]`d: run them with `GAMEBIN_SAMPLES=../shared/samples cargo test -- --include-ignored`.

use std::path::PathBuf;

use gamebin::MappedFile;
use gamebin::wows::geometry::{
    DecodedGeometry, GeometryView, Indices, MappingKind, Pairing, PairingDoubt, Vertices,
};

fn samples() -> Option<PathBuf> {
    match std::env::var_os("GAMEBIN_SAMPLES") {
        Some(dir) => Some(PathBuf::from(dir).join("wows-geometry")),
        None => panic!(
            "GAMEBIN_SAMPLES is not set: this test reads the real samples (run it with GAMEBIN_SAMPLES=../shared/samples cargo test -- --include-ignored)"
        ),
    }
}

fn open(name: &str) -> Option<MappedFile> {
    let path = samples()?.join(name);
    Some(MappedFile::open(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display())))
}

/// Every buffer of a file, decoded: (vertex bytes, stride, format) per vertex buffer, indices per
/// index buffer.
struct Decoded {
    vertices: Vec<(Vec<u8>, usize, gamebin::wows::geometry::VertexFormat)>,
    indices: Vec<Vec<u32>>,
}

fn decode_all(view: &GeometryView<'_>) -> Decoded {
    let vertices = view
        .vertex_buffers()
        .map(|vb| {
            let mut out = vec![0u8; vb.decoded_len().unwrap()];
            let n = vb.decode_vertices_into(&mut out).unwrap();
            assert_eq!(n * vb.stride(), out.len());
            (out, vb.stride(), vb.format().unwrap())
        })
        .collect();
    let indices = view
        .index_buffers()
        .map(|ib| {
            let mut out = vec![0u32; ib.index_count().unwrap()];
            ib.decode_indices_into(&mut out).unwrap();
            out
        })
        .collect();
    Decoded { vertices, indices }
}

/// Every file SOURCES.txt lists.
const ALL: [&str; 8] = [
    "CM001_0.11.5.geometry",
    "CM001_p2g_0.10.2.geometry",
    "CM001_p2g_0.11.5.geometry",
    "CPA003_Shell_CS_0.11.5.geometry",
    "FSD012_Kleber_1952_0.11.5.geometry",
    "CPA001_Shell_AP_0.10.2.geometry",
    "JAS007_Kawanishi_E15K1.geometry",
    "AGS028_5in38_Mk29_Mod0_0.10.2.geometry",
];

/// The samples whose two mapping tables list their meshes in different orders, with texel
/// density 0 (SOURCES.txt).
const UNORDERED: [&str; 2] = [
    "CPA001_Shell_AP_0.10.2.geometry",
    "JAS007_Kawanishi_E15K1.geometry",
];

#[test]
#[ignore = "needs GAMEBIN_SAMPLES (real files): GAMEBIN_SAMPLES=../shared/samples cargo test -- --include-ignored"]
fn every_sample_is_detected_opens_validates_and_decodes() {
    let Some(dir) = samples() else { return };
    let mut seen = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "geometry") {
            continue;
        }
        seen += 1;
        let file = MappedFile::open(&path).unwrap();
        assert_eq!(
            gamebin::detect(&file),
            Some(gamebin::Format::WowsGeometry),
            "{}",
            path.display()
        );
        let view = GeometryView::open(&file).unwrap();
        view.validate()
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let decoded = decode_all(&view);
        assert!(!decoded.vertices.is_empty() && !decoded.indices.is_empty());
        for vb in view.vertex_buffers() {
            // Each format name describes its stored stride, letter for letter.
            let format = vb.format().unwrap();
            let name = vb.format_name().unwrap();
            assert!(format.complete, "{}: {name}", path.display());
            assert_eq!(usize::from(format.size), vb.stride(), "{name}");
            assert!(format.position.is_some() && format.normal.is_some());
        }
    }
    assert_eq!(seen, ALL.len(), "samples in {}", dir.display());
}

#[test]
#[ignore = "needs GAMEBIN_SAMPLES (real files): GAMEBIN_SAMPLES=../shared/samples cargo test -- --include-ignored"]
fn sources_txt_facts() {
    let Some(_) = samples() else { return };
    // "ENCD-encoded (vertex codec v0, index codec v0)"
    let file = open("CM001_p2g_0.11.5.geometry").unwrap();
    let view = GeometryView::open(&file).unwrap();
    let vb = view
        .vertex_buffer(0)
        .unwrap()
        .encoded()
        .unwrap()
        .expect("ENCD vertices");
    let ib = view
        .index_buffer(0)
        .unwrap()
        .encoded()
        .unwrap()
        .expect("ENCD indices");
    assert_eq!(vb.codec_byte(), Some(0xa0));
    assert_eq!(ib.codec_byte(), Some(0xe0));
    // The others are raw.
    for name in [ALL[0], ALL[1], ALL[3], ALL[4]] {
        let file = open(name).unwrap();
        let view = GeometryView::open(&file).unwrap();
        assert!(
            view.vertex_buffers().all(|b| !b.is_encoded().unwrap()),
            "{name}"
        );
        assert!(
            view.index_buffers().all(|b| !b.is_encoded().unwrap()),
            "{name}"
        );
    }
    // "raw, 3 LOD mappings", "raw, 1 vertex format, 3 mappings" and "raw, 3 vertex + 3 index
    // mappings"
    for name in [ALL[0], ALL[3], ALL[5]] {
        let file = open(name).unwrap();
        let view = GeometryView::open(&file).unwrap();
        assert_eq!(view.vertex_mappings().len(), 3, "{name}");
        assert_eq!(view.index_mappings().len(), 3, "{name}");
        assert_eq!(view.draws().len(), 3, "{name}: every mapping pairs");
    }
    // "1 vertex format"
    let file = open(ALL[3]).unwrap();
    assert_eq!(GeometryView::open(&file).unwrap().vertex_buffer_count(), 1);
    // "the i-th index mapping does NOT belong to the i-th vertex mapping": table order is not the
    // pairing (the first index mapping reaches index 134, the first vertex mapping has 14).
    let file = open("CPA001_Shell_AP_0.10.2.geometry").unwrap();
    let view = GeometryView::open(&file).unwrap();
    let first = view
        .draws()
        .table()
        .draw_of_index_mapping(&view, 0)
        .unwrap();
    assert_ne!(first.vertices.index(), 0);
    assert_eq!(view.vertex_mappings().get(0).unwrap().items_count(), 14);
    // "packedTexelDensity 0", "texel density 0"
    for name in UNORDERED {
        let file = open(name).unwrap();
        let view = GeometryView::open(&file).unwrap();
        assert!(
            view.vertex_mappings()
                .iter()
                .chain(view.index_mappings().iter())
                .all(|m| m.texel_density() == 0)
        );
    }
    // "1 ArmorModelPrototype "CM_PA_united.armor" (2072 triangles)"
    let file = open("FSD012_Kleber_1952_0.11.5.geometry").unwrap();
    let view = GeometryView::open(&file).unwrap();
    assert_eq!(view.armor_models().len(), 1);
    assert_eq!(view.collision_models().len(), 0);
    let armor = view.armor_models().next().unwrap();
    assert_eq!(armor.name().unwrap(), "CM_PA_united.armor");
    let payload = armor.armor().unwrap();
    assert_eq!(payload.triangle_count().unwrap(), 2072);
    assert_eq!(payload.id(), 0x8000_0001);
    assert_eq!(
        payload.trailing_bytes().unwrap(),
        0,
        "the nodes fill the payload exactly"
    );
    for node in payload.nodes() {
        let node = node.unwrap();
        node.check().unwrap();
        for v in node.vertices() {
            let n = v.normal();
            let len = (n[0] * n[0] + n[1] * n[1] + n[2] * n[2]).sqrt();
            assert!(
                (len - 1.0).abs() <= 0.02,
                "armor normal {n:?} has length {len}"
            );
        }
        assert!(node.layer_index() >= 1, "layers are 1-based");
        // Every triangle lies inside its node's bounds and the node inside the model's.
        let (b, all) = (node.bounds(), payload.bounds());
        for t in node.triangles() {
            for p in t {
                for (k, c) in p.into_iter().enumerate() {
                    assert!(c >= b.min[k] - 1e-3 && c <= b.max[k] + 1e-3);
                    assert!(c >= all.min[k] - 1e-3 && c <= all.max[k] + 1e-3);
                }
            }
        }
    }
}

/// "a gun turret with a skinned vertex format (bone indices and weights)". The engine's packed
/// skinned vertex (BigWorld's `VertexXYZNUVIIIWWPC`) declares the two fields as colours read back
/// swizzled: `index3, index2, index, pad` and `pad, weight2, weight, pad`. Every stored vertex
/// keeps those pads zero, which the plain byte order (`index, index2, index3` and `weight,
/// weight2` first) would not explain, and the reader pairs the bytes as the engine does.
#[test]
#[ignore = "needs GAMEBIN_SAMPLES (real files): GAMEBIN_SAMPLES=../shared/samples cargo test -- --include-ignored"]
fn skinned_turret_bones_follow_the_engines_packed_layout() {
    let Some(file) = open("AGS028_5in38_Mk29_Mod0_0.10.2.geometry") else {
        return;
    };
    let view = GeometryView::open(&file).unwrap();
    let decoded = decode_all(&view);
    let mut skinned = 0;
    for (bytes, stride, format) in &decoded.vertices {
        let (Some(at_i), Some(at_w)) = (format.bone_indices, format.bone_weights) else {
            continue;
        };
        let vertices = gamebin::wows::geometry::Vertices::new(bytes, *stride, *format).unwrap();
        for (k, record) in bytes.chunks_exact(*stride).enumerate() {
            let iii = &record[usize::from(at_i)..usize::from(at_i) + 4];
            let ww = &record[usize::from(at_w)..usize::from(at_w) + 4];
            assert_eq!(
                (iii[3], ww[0], ww[3]),
                (0, 0, 0),
                "vertex {k}: pads {iii:?} {ww:?}"
            );
            assert!(iii[..3].iter().all(|b| b % 3 == 0), "stored x 3: {iii:?}");
            let bones = vertices.bone_indices(k).unwrap();
            assert_eq!(bones, [iii[2] / 3, iii[1] / 3, iii[0] / 3]);
            let w = vertices.bone_weights(k).unwrap();
            assert_eq!(w[..2], [f32::from(ww[2]) / 255.0, f32::from(ww[1]) / 255.0]);
            assert!((w.iter().sum::<f32>() - 1.0).abs() < 1e-6, "weights {w:?}");
            skinned += 1;
        }
    }
    assert!(skinned > 0, "no skinned vertex buffer");
}

#[test]
#[ignore = "needs GAMEBIN_SAMPLES (real files): GAMEBIN_SAMPLES=../shared/samples cargo test -- --include-ignored"]
fn encd_decodes_to_the_raw_twin() {
    let (Some(encd), Some(raw)) = (
        open("CM001_p2g_0.11.5.geometry"),
        open("CM001_p2g_0.10.2.geometry"),
    ) else {
        return;
    };
    let (encd, raw) = (
        GeometryView::open(&encd).unwrap(),
        GeometryView::open(&raw).unwrap(),
    );
    let decoded = decode_all(&encd);
    let raw_vertices = raw.vertex_buffer(0).unwrap().raw_vertices().unwrap();
    assert_eq!(decoded.vertices[0].0.len(), 24 * 28);
    // The first vertex as the file stores it: (-0.5, -0.5, -0.5), normal 7f 7f 00 = (0, 0, -1),
    // tangent fe 7f 7f = (1, 0, 0), binormal 7f 00 7f = (0, -1, 0).
    assert_eq!(raw_vertices.position(0), Some([-0.5, -0.5, -0.5]));
    assert_eq!(raw_vertices.normal(0), Some([0.0, 0.0, -1.0]));
    assert_eq!(raw_vertices.tangent(0), Some([1.0, 0.0, 0.0]));
    assert_eq!(raw_vertices.binormal(0), Some([0.0, -1.0, 0.0]));
    assert!(
        decoded.vertices[0].0 == raw_vertices.bytes(),
        "decoded ENCD vertices equal the raw twin byte for byte"
    );

    // The same triangles, possibly rotated within a triangle.
    let canonical = |t: [u32; 3]| {
        let k = (0..3).min_by_key(|&k| t[k]).unwrap();
        [t[k], t[(k + 1) % 3], t[(k + 2) % 3]]
    };
    let ours: Vec<_> = Indices::from(decoded.indices[0].as_slice())
        .triangles()
        .map(canonical)
        .collect();
    let theirs: Vec<_> = raw
        .index_buffer(0)
        .unwrap()
        .raw_indices()
        .unwrap()
        .triangles()
        .map(canonical)
        .collect();
    assert_eq!(ours.len(), 12);
    assert_eq!(ours, theirs);

    // The typed variant gives the same bytes.
    let mut typed = vec![[0u8; 28]; 24];
    assert_eq!(
        encd.vertex_buffer(0)
            .unwrap()
            .decode_vertices_into_typed(&mut typed)
            .unwrap(),
        24
    );
    assert!(typed.concat() == raw_vertices.bytes());
    let mut narrow = vec![0u16; 36];
    encd.index_buffer(0)
        .unwrap()
        .decode_indices_into(&mut narrow)
        .unwrap();
    assert!(
        narrow
            .iter()
            .map(|&i| u32::from(i))
            .eq(decoded.indices[0].iter().copied())
    );
}

/// Whether a draw's triangles agree with its vertex normals: the face normal of a triangle of the
/// right vertices points the way its corners' normals do, for nearly every triangle (one winding
/// or the other), while triangles built from another mesh's vertices point every which way. An
/// independent check of the pairing, from positions and normals alone.
fn winding_agreement(vertices: &Vertices<'_>, indices: &Indices<'_>) -> f64 {
    let (mut agree, mut all) = (0usize, 0usize);
    for [a, b, c] in indices.triangles() {
        let p = |k: u32| vertices.position(k as usize).unwrap();
        let n = |k: u32| vertices.normal(k as usize).unwrap();
        let (pa, pb, pc) = (p(a), p(b), p(c));
        let u = [pb[0] - pa[0], pb[1] - pa[1], pb[2] - pa[2]];
        let v = [pc[0] - pa[0], pc[1] - pa[1], pc[2] - pa[2]];
        let face = [
            u[1] * v[2] - u[2] * v[1],
            u[2] * v[0] - u[0] * v[2],
            u[0] * v[1] - u[1] * v[0],
        ];
        let area = (face[0] * face[0] + face[1] * face[1] + face[2] * face[2]).sqrt();
        if area < 1e-12 {
            continue; // degenerate: no direction
        }
        let (na, nb, nc) = (n(a), n(b), n(c));
        let mean = [0, 1, 2].map(|k| na[k] + nb[k] + nc[k]);
        let dot: f32 = (0..3).map(|k| face[k] * mean[k]).sum();
        all += 1;
        agree += usize::from(dot > 0.0);
    }
    if all == 0 {
        return 1.0;
    }
    let share = agree as f64 / all as f64;
    share.max(1.0 - share)
}

#[test]
#[ignore = "needs GAMEBIN_SAMPLES (real files): GAMEBIN_SAMPLES=../shared/samples cargo test -- --include-ignored"]
fn indices_stay_within_their_draws_and_normals_are_unit() {
    let Some(_) = samples() else { return };
    for name in ALL {
        let file = open(name).unwrap();
        let view = GeometryView::open(&file).unwrap();
        let mut whole = DecodedGeometry::new();
        whole.decode(&view);
        let mut draws = 0;
        for draw in whole.draws(&view) {
            draws += 1;
            let data = whole
                .draw_data(&draw)
                .unwrap_or_else(|e| panic!("{name}: {draw:?}: {e}"));
            let (vertices, indices) = (data.vertices, data.indices);
            assert_eq!(draw.vertices.texel_density(), draw.indices.texel_density());
            assert_eq!(indices.len() % 3, 0);
            let max = indices.max().unwrap();
            assert!(
                (max as usize) < vertices.len(),
                "{name}: draw {:#x} index {max} >= {} vertices",
                draw.vertices.id(),
                vertices.len()
            );
            let agreement = winding_agreement(&vertices, &indices);
            assert!(
                agreement >= 0.9,
                "{name}: draw {:#x}+{:#x}: only {agreement:.2} of the triangles agree with their normals",
                draw.vertices.id(),
                draw.indices.id()
            );
            for n in vertices.normals() {
                let len = (n[0] * n[0] + n[1] * n[1] + n[2] * n[2]).sqrt();
                assert!(
                    (len - 1.0).abs() <= 0.02,
                    "{name}: normal {n:?} has length {len}"
                );
            }
            for uv in vertices.uvs() {
                assert!(
                    uv.iter().all(|c| c.is_finite() && c.abs() <= 8.0),
                    "{name}: uv {uv:?}"
                );
            }
        }
        assert_eq!(
            draws,
            view.index_mappings().len(),
            "{name}: every index mapping pairs"
        );
        assert_eq!(
            whole.draw_table().unpaired_vertex_mappings().count(),
            0,
            "{name}: every vertex mapping pairs"
        );
    }
}

#[test]
#[ignore = "needs GAMEBIN_SAMPLES (real files): GAMEBIN_SAMPLES=../shared/samples cargo test -- --include-ignored"]
fn unordered_tables_pair_by_index_range() {
    let Some(_) = samples() else { return };
    for name in UNORDERED {
        let file = open(name).unwrap();
        let view = GeometryView::open(&file).unwrap();
        let draws = view.draws();
        let mut seen = vec![0; view.index_mappings().len()];
        for draw in draws.iter() {
            seen[draw.indices.index()] += 1;
            assert_eq!(draw.pairing, Pairing::ByIndexRange, "{name}: {draw:?}");
        }
        assert!(
            seen.iter().all(|&n| n == 1),
            "{name}: every index mapping in exactly one draw: {seen:?}"
        );
        // The winding check tells a wrong pair from a right one: every other vertex mapping that
        // could hold the indices of a draw of 30 triangles or more (fewer say little) gives
        // triangles that disagree with their normals.
        let mut whole = DecodedGeometry::new();
        whole.decode(&view);
        let mut wrong_pairs = 0;
        for draw in draws.iter() {
            for other in view.vertex_mappings().iter() {
                let wrong = view.draw_by_ids(other.id(), draw.indices.id()).unwrap();
                let Ok(data) = whole.draw_data(&wrong) else {
                    continue;
                };
                if other.index() == draw.vertices.index()
                    || other.items_count() == draw.vertices.items_count()
                    || data.indices.len() < 90
                {
                    continue;
                }
                wrong_pairs += 1;
                let agreement = winding_agreement(&data.vertices, &data.indices);
                assert!(
                    agreement < 0.9,
                    "{name}: the wrong pair {:#x}+{:#x} agrees {agreement:.2}",
                    other.id(),
                    draw.indices.id()
                );
            }
        }
        assert!(wrong_pairs > 0, "{name}: some wrong pair could be tried");
        // Any tie the data left is one whose meshes are the same either way.
        for note in draws.table().notes() {
            assert!(
                matches!(
                    note.doubt,
                    PairingDoubt::SameVertexCount {
                        interchangeable: true,
                        ..
                    }
                ),
                "{name}: {note:?}"
            );
        }
    }
}

#[test]
#[ignore = "needs GAMEBIN_SAMPLES (real files): GAMEBIN_SAMPLES=../shared/samples cargo test -- --include-ignored"]
fn propeller_is_found_by_name_in_the_cm001_files() {
    let Some(_) = samples() else { return };
    assert_eq!(
        MappingKind::Vertices.id_of("Propeller_meshShape"),
        0xC301_017C
    );
    assert_eq!(
        MappingKind::Indices.id_of("Propeller_meshShape"),
        0xB3CE_F438
    );
    for name in [ALL[0], ALL[1], ALL[2]] {
        let file = open(name).unwrap();
        let view = GeometryView::open(&file).unwrap();
        let m = view
            .vertex_mappings()
            .by_name("Propeller_meshShape")
            .unwrap_or_else(|| panic!("{name}"));
        assert_eq!(m.id(), 0xC301_017C);
        let draw = view
            .draw_by_name("Propeller_meshShape")
            .unwrap_or_else(|| panic!("{name}"));
        // The name-based pair is the one the file's own pairing finds.
        let paired = view
            .draws()
            .iter()
            .find(|d| d.vertices.id() == 0xC301_017C)
            .unwrap();
        assert_eq!(paired.indices.id(), draw.indices.id(), "{name}");
    }
}

/// Real CraftStudio `Project.dat` files from `$GAMEBIN_SAMPLES/craftstudio-project`, against the
/// counts in its SOURCES.txt.
mod craftstudio {
    use std::path::{Path, PathBuf};

    use gamebin::craftstudio::model::ProjectModel;
    use gamebin::craftstudio::{Parent, ProjectType, ProjectView};
    use gamebin::{Format, MappedFile};

    fn dir() -> Option<PathBuf> {
        match std::env::var_os("GAMEBIN_SAMPLES") {
            Some(dir) => Some(PathBuf::from(dir).join("craftstudio-project")),
            None => panic!(
                "GAMEBIN_SAMPLES is not set: this test reads the real samples (run it with GAMEBIN_SAMPLES=../shared/samples cargo test -- --include-ignored)"
            ),
        }
    }

    /// (file, entries, controls, trailing bytes) from SOURCES.txt.
    const SAMPLES: [(&str, usize, usize, usize); 3] = [
        ("AntarkaGame_CS_ConnectionWar_Project.dat", 334, 50, 0),
        ("AntarkaGame_CS_Glanduff_Project.dat", 307, 79, 0),
        ("AntarkaGame_CS_Monochrome_Project.dat", 481, 102, 0),
    ];

    fn open(dir: &Path, name: &str) -> MappedFile {
        let path = dir.join(name);
        MappedFile::open(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
    }

    #[test]
    #[ignore = "needs GAMEBIN_SAMPLES (real files): GAMEBIN_SAMPLES=../shared/samples cargo test -- --include-ignored"]
    fn counts_match_sources_txt() {
        let Some(dir) = dir() else { return };
        for (name, entries, controls, trailing) in SAMPLES {
            let file = open(&dir, name);
            assert_eq!(
                gamebin::detect(&file),
                Some(Format::CraftStudioProject),
                "{name}"
            );
            let view = ProjectView::open(&file).unwrap_or_else(|e| panic!("{name}: {e}"));
            view.validate().unwrap_or_else(|e| panic!("{name}: {e}"));
            // "All: format version 9, project type 0 (game), script API 5."
            assert_eq!(view.format_version(), 9, "{name}");
            assert_eq!(view.project_type(), ProjectType::Game, "{name}");
            assert_eq!(view.script_api_version(), 5, "{name}");
            assert_eq!(view.entry_count(), entries, "{name}");
            assert_eq!(view.entries().count(), entries, "{name}");
            assert_eq!(view.control_count(), controls, "{name}");
            assert_eq!(view.controls().count(), controls, "{name}");
            assert_eq!(view.trailing_bytes().len(), trailing, "{name}");
            assert_eq!(view.trailing_offset(), file.len(), "{name}");
            // Revision names are mostly "YYYY-MM-DD HH:MM:SS" timestamps, but users can name
            // them ("Version 1", "Tête"): the notes' "in every real file" does not hold.
            let (mut stamps, mut all) = (0, 0);
            for entry in view.entries() {
                for r in entry.unwrap().revisions() {
                    let b = r.unwrap().name.as_bytes();
                    all += 1;
                    stamps += usize::from(
                        b.len() == 19 && b[4] == b'-' && b[10] == b' ' && b[13] == b':',
                    );
                }
            }
            assert!(
                stamps * 2 > all,
                "{name}: {stamps} of {all} revisions are timestamps"
            );
        }
    }

    #[test]
    #[ignore = "needs GAMEBIN_SAMPLES (real files): GAMEBIN_SAMPLES=../shared/samples cargo test -- --include-ignored"]
    fn glanduff_has_non_ascii_control_names() {
        let Some(dir) = dir() else { return };
        let file = open(&dir, SAMPLES[1].0);
        let view = ProjectView::open(&file).unwrap();
        assert!(view.controls().any(|c| !c.unwrap().name().is_ascii()));
        // Hand-read from the bytes: name "Glanduff" (0x02..0x0b), startup scene 0x0106, script
        // API 5, policy 2 (Open), role 1 (Spectator), empty description at 0x11, next control id
        // 82, 79 controls; the first control (id 5, "SM", mouse button 1) starts at 0x16.
        assert_eq!(view.startup_scene_id(), 0x0106);
        assert_eq!(view.next_control_id(), 82);
        assert_eq!(view.description(), "");
        let first = view.controls().next().unwrap().unwrap();
        assert_eq!((first.id(), first.name(), first.offset()), (5, "SM", 0x16));
        assert_eq!(first.source(), gamebin::craftstudio::ControlSource::Mouse);
        assert_eq!(first.positive_button(), 1);
    }

    #[test]
    #[ignore = "needs GAMEBIN_SAMPLES (real files): GAMEBIN_SAMPLES=../shared/samples cargo test -- --include-ignored"]
    fn trashed_entries_with_dangling_parents_occur() {
        let Some(dir) = dir() else { return };
        let mut any = false;
        for (name, ..) in SAMPLES {
            let file = open(&dir, name);
            let view = ProjectView::open(&file).unwrap();
            let index = view.index();
            for entry in index.dangling() {
                let entry = entry.unwrap();
                any = true;
                assert!(matches!(index.parent(&entry), Parent::Dangling(_)));
            }
            // The scan and the index agree.
            assert_eq!(view.dangling().count(), index.dangling().count(), "{name}");
        }
        assert!(
            any,
            "SOURCES.txt: trashed entries with dangling parents occur"
        );
    }

    #[test]
    #[ignore = "needs GAMEBIN_SAMPLES (real files): GAMEBIN_SAMPLES=../shared/samples cargo test -- --include-ignored"]
    fn read_write_is_byte_identical() {
        let Some(dir) = dir() else { return };
        for (name, ..) in SAMPLES {
            let file = open(&dir, name);
            let view = ProjectView::open(&file).unwrap();
            let written = ProjectModel::from_view(&view).unwrap().to_bytes().unwrap();
            assert!(written == file.bytes(), "{name}: written bytes differ");
        }
    }

    #[test]
    #[ignore = "needs GAMEBIN_SAMPLES (real files): GAMEBIN_SAMPLES=../shared/samples cargo test -- --include-ignored"]
    fn other_formats_samples_are_not_claimed() {
        let Some(dir) = dir() else { return };
        let root = dir.parent().unwrap();
        let mut checked = 0;
        for folder in std::fs::read_dir(root).unwrap() {
            let folder = folder.unwrap().path();
            if folder
                .file_name()
                .is_some_and(|n| n == "craftstudio-project")
                || !folder.is_dir()
            {
                continue;
            }
            for file in std::fs::read_dir(&folder).unwrap() {
                let path = file.unwrap().path();
                if !path.is_file() {
                    continue;
                }
                let data = std::fs::read(&path).unwrap();
                assert_ne!(
                    gamebin::detect(&data),
                    Some(Format::CraftStudioProject),
                    "{}",
                    path.display()
                );
                checked += 1;
            }
        }
        assert!(checked > 10, "only {checked} other samples found");
    }
}

// ---- Final Fantasy XIII `.wdb` ($GAMEBIN_SAMPLES/ff13-wdb) ----

mod wdb_samples {
    use std::path::PathBuf;

    use gamebin::wdb::model::WdbModel;
    use gamebin::wdb::{FieldKind, Game, Value, WdbView};

    const XIII2: &str = "bartz24_ffmoddingwpf_xiii2_btstab00032.wdb";
    const LR: &str = "bartz24_ffmoddingwpf_lr_monster_book.wdb";

    fn read(name: &str) -> Option<Vec<u8>> {
        let dir = std::env::var_os("GAMEBIN_SAMPLES").expect("GAMEBIN_SAMPLES is not set: this test reads the real samples (run it with GAMEBIN_SAMPLES=../shared/samples cargo test -- --include-ignored)");
        let path = PathBuf::from(dir).join("ff13-wdb").join(name);
        Some(std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display())))
    }

    #[test]
    #[ignore = "needs GAMEBIN_SAMPLES (real files): GAMEBIN_SAMPLES=../shared/samples cargo test -- --include-ignored"]
    fn samples_are_detected_and_validate() {
        for name in [XIII2, LR] {
            let Some(data) = read(name) else { return };
            assert_eq!(gamebin::detect(&data), Some(gamebin::Format::Ff13Wdb));
            let view = WdbView::from_bytes(&data).unwrap();
            assert_eq!(view.game(), Game::Xiii2Lr);
            assert!(
                view.is_sorted(),
                "{name}: the notes say entries are byte-sorted"
            );
            view.validate().unwrap_or_else(|e| panic!("{name}: {e}"));
        }
    }

    #[test]
    #[ignore = "needs GAMEBIN_SAMPLES (real files): GAMEBIN_SAMPLES=../shared/samples cargo test -- --include-ignored"]
    fn btstab_matches_sources_txt() {
        let Some(data) = read(XIII2) else { return };
        let view = WdbView::from_bytes(&data).unwrap();
        // SOURCES.txt: sheet BtSceneTable, 32 cells, 55 names, record size 128.
        assert_eq!(view.sheet_name(), Some(&b"BtSceneTable"[..]));
        assert_eq!(view.type_list().unwrap().len(), 32);
        let schema = view.schema().unwrap();
        assert_eq!(schema.len(), 55);
        assert_eq!(schema.record_size(), 128);
        // "uiDespair0": the second character is a letter, so width 0 = the whole word.
        let despair = schema
            .field(schema.index_of("uiDespair0").unwrap())
            .unwrap();
        assert_eq!((despair.width, despair.kind), (32, FieldKind::U32));
        let r = schema
            .field(schema.index_of("i8BattleSituationRandom0").unwrap())
            .unwrap();
        assert_eq!(
            (r.width, r.bit_offset, r.kind),
            (8, 0, FieldKind::Int { signed: true })
        );
    }

    #[test]
    #[ignore = "needs GAMEBIN_SAMPLES (real files): GAMEBIN_SAMPLES=../shared/samples cargo test -- --include-ignored"]
    fn monster_book_string_arrays_and_cell_moves() {
        let Some(data) = read(LR) else { return };
        let view = WdbView::from_bytes(&data).unwrap();
        let arrays = view.str_arrays().unwrap().unwrap();
        // SOURCES.txt: 3 offsets x 9 bits per word.
        assert_eq!(
            (arrays.offsets_per_word(), arrays.bits_per_offset()),
            (3, 9)
        );
        let schema = view.schema().unwrap();
        assert_eq!(schema.record_size(), 76);
        // u13ZoneNum does not fit the 4 bits left after u7+u9+u9+u1+u2+u1 = 29: it moves on.
        let zone = schema
            .field(schema.index_of("u13ZoneNum").unwrap())
            .unwrap();
        let race = schema.field(schema.index_of("u7NewRace").unwrap()).unwrap();
        assert_eq!((zone.cell, zone.bit_offset), (race.cell + 1, 0));
        // Hand-decoded from the bytes of record m003 (cell 16 = 0x043C0024: 36, 0, 60, 0, 1, 0).
        let m003 = view.record_by_name("m003").unwrap();
        let v = |n: &str| schema.value_by_name(&m003, n).unwrap().unwrap();
        assert_eq!(v("u7NewRace"), Value::UInt(36));
        assert_eq!(v("u9SortId"), Value::UInt(60));
        assert_eq!(v("sLibraOpenItem").as_str(), Some("libra_m003"));
        assert_eq!(v("fScale"), Value::Float(0.65));
        assert!(view.record_by_name("m004").is_none());
        assert!(view.record_by_name("!!string").is_none());
    }

    #[test]
    #[ignore = "needs GAMEBIN_SAMPLES (real files): GAMEBIN_SAMPLES=../shared/samples cargo test -- --include-ignored"]
    fn read_then_write_reproduces_the_samples_byte_for_byte() {
        for name in [XIII2, LR] {
            let Some(data) = read(name) else { return };
            let view = WdbView::from_bytes(&data).unwrap();
            let table = WdbModel::from_view(&view, None).unwrap();
            let written = table.to_bytes().unwrap();
            let first_diff = data.iter().zip(&written).position(|(a, b)| a != b);
            assert!(
                written == data,
                "{name}: {} bytes written for {}, first difference at {first_diff:?}",
                written.len(),
                data.len()
            );
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Claw / Gruntz `.wwd` levels from `$GAMEBIN_SAMPLES/wap32-wwd`, checked against EXPECTED.tsv.

mod wwd {
    use std::collections::BTreeMap;
    use std::path::PathBuf;

    use gamebin::wwd::{ChecksumVerdict, Game, Inflater, Options, TileKind, WwdView};

    fn dir() -> Option<PathBuf> {
        match std::env::var_os("GAMEBIN_SAMPLES") {
            Some(dir) => Some(PathBuf::from(dir).join("wap32-wwd")),
            None => panic!(
                "GAMEBIN_SAMPLES is not set: this test reads the real samples (run it with GAMEBIN_SAMPLES=../shared/samples cargo test -- --include-ignored)"
            ),
        }
    }

    /// One row of EXPECTED.tsv, by column name.
    struct Row(BTreeMap<String, String>);

    impl Row {
        fn get(&self, column: &str) -> &str {
            self.0
                .get(column)
                .unwrap_or_else(|| panic!("EXPECTED.tsv has no column {column}"))
        }
        fn num(&self, column: &str) -> i64 {
            let v = self.get(column);
            match v.strip_prefix("0x") {
                Some(hex) => i64::from_str_radix(hex, 16).unwrap(),
                None => v.parse().unwrap(),
            }
        }
        /// `{"1":816,"2":111,"3":1}` → counts by type.
        fn types(&self) -> BTreeMap<u32, usize> {
            let text = self.get("tile_prop_types");
            text.trim_matches(|c| c == '{' || c == '}')
                .split(',')
                .map(|pair| {
                    let (k, v) = pair.split_once(':').unwrap();
                    (k.trim_matches('"').parse().unwrap(), v.parse().unwrap())
                })
                .collect()
        }
    }

    fn expected(dir: &std::path::Path) -> Vec<Row> {
        let text = std::fs::read_to_string(dir.join("EXPECTED.tsv")).unwrap();
        let mut lines = text.lines();
        let columns: Vec<&str> = lines.next().unwrap().split('\t').collect();
        lines
            .filter(|l| !l.trim().is_empty())
            .map(|l| {
                Row(columns
                    .iter()
                    .zip(l.split('\t'))
                    .map(|(c, v)| (c.to_string(), v.to_string()))
                    .collect())
            })
            .collect()
    }

    #[test]
    #[ignore = "needs GAMEBIN_SAMPLES (real files): GAMEBIN_SAMPLES=../shared/samples cargo test -- --include-ignored"]
    fn every_sample_matches_expected_tsv() {
        let Some(dir) = dir() else { return };
        let rows = expected(&dir);
        assert!(rows.len() >= 6);
        // One decompressor for every sample, as a tool scanning many levels would keep.
        let mut inflater = Inflater::new();
        for row in &rows {
            let name = row.get("file");
            let data = std::fs::read(dir.join(name)).unwrap();
            assert_eq!(data.len() as i64, row.num("size"), "{name}");
            let sig_ok = row.get("sig_ok") == "True";
            let mut buffer = Vec::new();
            if !sig_ok {
                let e = WwdView::from_bytes(&data, &mut buffer).unwrap_err();
                assert_eq!(e.offset(), 0);
                assert!(e.to_string().contains("signature"), "{e}");
                assert_eq!(gamebin::detect(&data), None, "{name}");
            } else {
                assert_eq!(
                    gamebin::detect(&data),
                    Some(gamebin::Format::Wap32Wwd),
                    "{name}"
                );
            }
            let options = Options {
                ignore_signature: !sig_ok,
            };
            let view = WwdView::from_bytes_with(&data, &mut buffer, &mut inflater, options)
                .unwrap_or_else(|e| panic!("{name}: {e}"));
            view.validate().unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(view.signature_ok(), sig_ok, "{name}");
            let game = match row.get("game") {
                "Claw" => Game::Claw,
                "Gruntz" => Game::Gruntz,
                other => panic!("unknown game {other}"),
            };
            assert_eq!(view.game(), game, "{name}");
            assert_eq!(
                view.is_compressed(),
                row.get("compression") == "zlib",
                "{name}"
            );
            assert_eq!(
                format!(
                    "{:02x}{:02x}",
                    view.stored_main_block()[0],
                    view.stored_main_block()[1]
                ),
                row.get("bytes_1524_1525"),
                "{name}"
            );
            assert_eq!(view.plane_count() as i64, row.num("num_planes"), "{name}");
            assert_eq!(
                i64::from(view.header().decompressed_mainblock_size.get()),
                row.num("mainblock_len_field"),
                "{name}"
            );
            assert_eq!(
                view.main_block_len() as i64,
                row.num("main_block_len_actual"),
                "{name}"
            );
            let mut objects = 0;
            for plane in view.planes() {
                for o in plane.objects().unwrap() {
                    o.unwrap();
                    objects += 1;
                }
            }
            assert_eq!(objects, row.num("objects"), "{name}");
            let table = view.tile_properties().unwrap();
            assert_eq!(i64::from(table.len()), row.num("tile_props"), "{name}");
            let mut types = BTreeMap::new();
            let mut end = 0;
            for p in table.iter() {
                let p = p.unwrap();
                *types.entry(p.tile_type()).or_insert(0usize) += 1;
                end = p.offset() + p.size();
                if let TileKind::Mask { mask } = p.kind() {
                    assert_eq!(mask.len(), (p.width() * p.height()) as usize);
                }
            }
            assert_eq!(types, row.types(), "{name}");
            // The table ends exactly at the end of the image (notes: all 26 real files).
            assert_eq!(end, view.image().len(), "{name}");
            let checksum = view.checksum();
            assert_eq!(i64::from(checksum.stored), row.num("checksum"), "{name}");
            let residual = row.num("checksum_minus_brief_formula_on_stored_bytes");
            assert_eq!(i64::from(checksum.residual()), residual, "{name}");
            let verdict = match residual {
                0 => ChecksumVerdict::Seed,
                r @ 1..=255 => ChecksumVerdict::SeedPlusResidual(r as u8),
                _ => ChecksumVerdict::WapMap,
            };
            assert_eq!(checksum.verdict, verdict, "{name}");
        }
    }

    #[test]
    #[ignore = "needs GAMEBIN_SAMPLES (real files): GAMEBIN_SAMPLES=../shared/samples cargo test -- --include-ignored"]
    fn uncompressed_samples_round_trip_byte_for_byte() {
        let Some(dir) = dir() else { return };
        let data = std::fs::read(dir.join("claw_libwap32_RETAIL01_nocompress.WWD")).unwrap();
        let mut buffer = Vec::new();
        let view = WwdView::from_bytes(&data, &mut buffer).unwrap();
        let level = gamebin::wwd::model::WwdModel::from_view(&view).unwrap();
        let written = level.to_uncompressed().unwrap();
        assert!(written == data, "rewritten level differs from the original");
    }

    #[test]
    #[ignore = "needs GAMEBIN_SAMPLES (real files): GAMEBIN_SAMPLES=../shared/samples cargo test -- --include-ignored"]
    fn compressed_and_uncompressed_retail_level_read_the_same() {
        let Some(dir) = dir() else { return };
        let packed = std::fs::read(dir.join("claw_libwap32_RETAIL01.WWD")).unwrap();
        let plain = std::fs::read(dir.join("claw_libwap32_RETAIL01_nocompress.WWD")).unwrap();
        let badsig = std::fs::read(dir.join("claw_libwap32_RETAIL01_badsig.WWD")).unwrap();
        let (mut a, mut b, mut c) = (Vec::new(), Vec::new(), Vec::new());
        let packed = WwdView::from_bytes(&packed, &mut a).unwrap();
        let plain = WwdView::from_bytes(&plain, &mut b).unwrap();
        let badsig = WwdView::from_bytes_with(
            &badsig,
            &mut c,
            &mut Inflater::new(),
            Options {
                ignore_signature: true,
            },
        )
        .unwrap();
        // The re-saved copy has the same layout (its objects were edited by a later editor, so the
        // bytes differ); the badly signed copy reads exactly as the original.
        assert_eq!(packed.main_block_len(), plain.main_block_len());
        assert_eq!(packed.plane_count(), plain.plane_count());
        assert!(badsig.image()[1524..] == packed.image()[1524..]);
        assert_eq!(badsig.checksum(), packed.checksum());
        assert_eq!(badsig.header().signature.get(), 0xADBA);
        // Rewritten compressed, the level reads back to the same values.
        let level = gamebin::wwd::model::WwdModel::from_view(&packed).unwrap();
        let again = level.to_compressed().unwrap();
        let mut d = Vec::new();
        let again = WwdView::from_bytes(&again, &mut d).unwrap();
        assert!(again.image()[1524..] == packed.image()[1524..]);
        assert_eq!(again.checksum().verdict, ChecksumVerdict::WapMap);
    }

    #[test]
    #[ignore = "needs GAMEBIN_SAMPLES (real files): GAMEBIN_SAMPLES=../shared/samples cargo test -- --include-ignored"]
    fn mask_tile_properties_read() {
        let Some(dir) = dir() else { return };
        let data = std::fs::read(dir.join("claw_libwap32_ParadiseCove.wwd")).unwrap();
        let mut buffer = Vec::new();
        let view = WwdView::from_bytes(&data, &mut buffer).unwrap();
        let masks: Vec<_> = view
            .tile_properties()
            .unwrap()
            .iter()
            .map(Result::unwrap)
            .filter(|p| matches!(p.kind(), TileKind::Mask { .. }))
            .collect();
        assert_eq!(masks.len(), 1);
        assert_eq!(view.main_plane().unwrap().name(), b"Action");
    }
}

// ---------------------------------------------------------------------------------------------
// World of Warships assets.bin: `$GAMEBIN_SAMPLES/wows-assets/minimal_synthetic_assets.bin`, made
// by an independent writer; every value below is stated in its SOURCES.txt.

mod assets_sample {
    use gamebin::MappedFile;
    use gamebin::hash::murmur3_32;
    use gamebin::wows::assets::{
        AssetsDb, ChecksumMatch, Layout, MaterialValue, Prototype, PrototypeState, PrototypeType,
    };

    fn open() -> Option<MappedFile> {
        let dir = std::path::PathBuf::from(std::env::var_os("GAMEBIN_SAMPLES").expect("GAMEBIN_SAMPLES is not set: this test reads the real samples (run it with GAMEBIN_SAMPLES=../shared/samples cargo test -- --include-ignored)"));
        let path = dir.join("wows-assets/minimal_synthetic_assets.bin");
        Some(MappedFile::open(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display())))
    }

    #[test]
    #[ignore = "needs GAMEBIN_SAMPLES (real files): GAMEBIN_SAMPLES=../shared/samples cargo test -- --include-ignored"]
    fn header_checksum_and_detection() {
        let Some(file) = open() else { return };
        assert_eq!(file.len(), 1648);
        assert_eq!(&file[..4], b"BDWB");
        assert_eq!(gamebin::detect(&file), Some(gamebin::Format::WowsAssets));
        let db = AssetsDb::open(&file).unwrap();
        assert_eq!(db.header().magic.get(), 0x42574442);
        assert_eq!(db.header().version.get(), 0x01010000);
        assert_eq!(db.header().architecture.get(), 0x40);
        let checksum = db.verify_checksum();
        assert_eq!(checksum.matches(), ChecksumMatch::Murmur3);
        assert_eq!(checksum.stored, murmur3_32(&file[0x10..], 0));
        db.validate().unwrap();
    }

    #[test]
    #[ignore = "needs GAMEBIN_SAMPLES (real files): GAMEBIN_SAMPLES=../shared/samples cargo test -- --include-ignored"]
    fn strings_are_found_by_their_murmur3() {
        let Some(file) = open() else { return };
        let db = AssetsDb::open(&file).unwrap();
        assert_eq!(db.strings().capacity(), 11);
        let names = ["Scene Root", "HP_Test", "rs_hull", "mat_hull", "diffuseMap"];
        for name in names {
            let id = murmur3_32(name.as_bytes(), 0);
            assert_eq!(db.string(id).unwrap(), Some(name), "{name}");
        }
        assert_eq!(db.string(0x10C30510).unwrap(), Some("Scene Root"));
        assert_eq!(db.string(0x820f0280).unwrap(), Some("diffuseMap"));
        assert_eq!(db.string(murmur3_32(b"absent", 0)).unwrap(), None);
        let mut all: Vec<&str> = db.strings().iter().map(|s| s.unwrap().1).collect();
        all.sort_unstable();
        let mut expected = names.to_vec();
        expected.sort_unstable();
        assert_eq!(all, expected);
    }

    #[test]
    #[ignore = "needs GAMEBIN_SAMPLES (real files): GAMEBIN_SAMPLES=../shared/samples cargo test -- --include-ignored"]
    fn prototypes_and_databases() {
        let Some(file) = open() else { return };
        let db = AssetsDb::open(&file).unwrap();
        assert_eq!(db.prototypes().capacity(), 7);
        assert_eq!(db.prototypes().count(), 3);
        for (id, database) in [(0x5555, 0), (0x3333, 1), (0x4444, 3)] {
            let p = db.prototype(id).unwrap().unwrap();
            assert_eq!(
                (p.database, p.record, p.state),
                (database, 0, PrototypeState::Live)
            );
        }
        assert_eq!(db.prototype(0x6666).unwrap(), None);
        assert_eq!(db.prototype(0x1111).unwrap(), None);

        assert_eq!(db.databases().len(), 10);
        for (i, kind) in PrototypeType::ALL.into_iter().enumerate() {
            let d = db.databases().get(i).unwrap().unwrap();
            assert_eq!(d.kind(), Some(kind));
            assert_eq!(d.schema_hash(), 0);
            assert_eq!(
                d.layout(),
                Layout::Checked {
                    item_size: kind.item_size()
                }
            );
            assert_eq!(db.database(kind).unwrap().unwrap().index(), i);
        }
        // The seed's table of magics.
        let magics = [
            0x5069C471, 0x480DC57B, 0x1AE023FF, 0xA9576F28, 0x0D3665A4, 0xEB23E0AF, 0xAFD4A63F,
            0x42E15336, 0xDFC8F8E0, 0xF64359AA,
        ];
        for (kind, magic) in PrototypeType::ALL.into_iter().zip(magics) {
            assert_eq!(kind.magic(), magic, "{}", kind.name());
        }
    }

    #[test]
    #[ignore = "needs GAMEBIN_SAMPLES (real files): GAMEBIN_SAMPLES=../shared/samples cargo test -- --include-ignored"]
    fn paths() {
        let Some(file) = open() else { return };
        let db = AssetsDb::open(&file).unwrap();
        let entries: Vec<(u64, &str)> = db
            .paths()
            .iter()
            .map(|e| (e.self_id(), e.name().unwrap()))
            .collect();
        assert_eq!(
            entries,
            [
                (0x1111, "content"),
                (0x2222, "gameplay"),
                (0x3333, "Test.visual"),
                (0x4444, "Test.model"),
                (0x5555, "Test.mfm"),
                (0x6666, "Test.geometry"),
            ]
        );
        assert_eq!(db.paths().find(0x1111).unwrap().parent_id(), 0);
        let mut path = String::new();
        assert!(db.full_path(0x3333, &mut path).unwrap());
        assert_eq!(path, "content/gameplay/Test.visual");
        assert!(!db.full_path(0x7777, &mut path).unwrap());
        let index = gamebin::wows::assets::PathIndex::build(db.paths()).unwrap();
        assert!(index.full_path(db.paths(), 0x6666, &mut path).unwrap());
        assert_eq!(path, "content/gameplay/Test.geometry");
        let found = db
            .find_path("content/gameplay/Test.visual")
            .unwrap()
            .unwrap();
        assert_eq!(found.self_id(), 0x3333);
        assert!(db.find_path("content/Test.visual").unwrap().is_none());
        // The sample's ids are arbitrary, not CityHash64: the check must say so.
        let check = db.ids_are_path_hashes(64).unwrap();
        assert_eq!((check.checked, check.matched), (6, 0));
        assert!(
            db.lookup_path("content/gameplay/Test.visual")
                .unwrap()
                .is_none()
        );
    }

    #[test]
    #[ignore = "needs GAMEBIN_SAMPLES (real files): GAMEBIN_SAMPLES=../shared/samples cargo test -- --include-ignored"]
    fn visual_record() {
        let Some(file) = open() else { return };
        let db = AssetsDb::open(&file).unwrap();
        let at = db.prototype(0x3333).unwrap().unwrap();
        let Prototype::Visual(v) = db.record(at).unwrap() else {
            panic!("a visual")
        };
        let nodes: Vec<_> = v.nodes().unwrap().collect();
        assert_eq!(nodes.len(), 2);
        let names: Vec<_> = nodes
            .iter()
            .map(|n| db.string(n.name_id).unwrap().unwrap())
            .collect();
        assert_eq!(names, ["Scene Root", "HP_Test"]);
        assert_eq!((nodes[0].parent, nodes[1].parent), (None, Some(0)));
        let m = nodes[1].matrix();
        assert_eq!((m[12], m[13], m[14]), (1.5, 2.5, 3.5));
        assert_eq!(v.merged_geometry_path_id(), 0x6666);
        assert!(v.abovewater());
        assert!(!v.underwater());
        assert_eq!(v.bounding_box(), ([-1.0, -2.0, -3.0], [1.0, 2.0, 3.0]));
        let sets: Vec<_> = v.render_sets().unwrap().collect();
        assert_eq!(sets.len(), 1);
        let rs = sets[0];
        assert_eq!(db.string(rs.name_id()).unwrap(), Some("rs_hull"));
        assert_eq!(db.string(rs.material_name_id()).unwrap(), Some("mat_hull"));
        assert_eq!(rs.vertices_mapping_id(), 0xC301017C);
        assert_eq!(rs.indices_mapping_id(), 0xB3CEF438);
        assert_eq!(rs.material_mfm_path_id(), 0x5555);
        let node_names: Vec<_> = rs
            .node_name_ids()
            .unwrap()
            .iter()
            .map(|id| db.string(id.get()).unwrap().unwrap())
            .collect();
        assert_eq!(node_names, ["Scene Root"]);
        let lods: Vec<_> = v.lods().unwrap().collect();
        assert_eq!(lods.len(), 1);
        assert_eq!(lods[0].extent(), 500.0);
        assert!(lods[0].casts_shadow());
        let lod_sets = lods[0].render_set_names().unwrap();
        assert_eq!(lod_sets.len(), 1);
        assert_eq!(db.string(lod_sets[0].get()).unwrap(), Some("rs_hull"));
    }

    #[test]
    #[ignore = "needs GAMEBIN_SAMPLES (real files): GAMEBIN_SAMPLES=../shared/samples cargo test -- --include-ignored"]
    fn material_and_model_records() {
        let Some(file) = open() else { return };
        let db = AssetsDb::open(&file).unwrap();
        let Prototype::Material(m) = db.record(db.prototype(0x5555).unwrap().unwrap()).unwrap()
        else {
            panic!("a material")
        };
        let props: Vec<_> = m.properties().unwrap().map(Result::unwrap).collect();
        assert_eq!(props.len(), 1);
        assert_eq!(db.string(props[0].name_id).unwrap(), Some("diffuseMap"));
        assert_eq!((props[0].kind, props[0].index), (4, 0));
        assert_eq!(props[0].value, MaterialValue::Texture(0xDEADBEEFCAFEF00D));

        let Prototype::Model(model) = db.record(db.prototype(0x4444).unwrap().unwrap()).unwrap()
        else {
            panic!("a model")
        };
        assert!(matches!(
            model.layout(),
            gamebin::wows::assets::ModelLayout::Current(_)
        ));
        assert_eq!(model.visual_resource_id(), 0x3333);
        assert!(model.skeleton_extender_ids().unwrap().is_empty());
        assert!(model.animations().unwrap().is_empty());
        assert_eq!(model.dyes().unwrap().len(), 0);
    }
}

/// Rusty Hearts `.wdata` maps in `$GAMEBIN_SAMPLES/rusty-hearts-wdata`, if any: none is public (the
/// game ships them inside encrypted archives), so the folder is usually absent and this says so.
/// Any map put there must be detected, open, end exactly at EOF (the view checks it) and rewrite
/// byte for byte through the owned model.
#[test]
#[ignore = "needs GAMEBIN_SAMPLES (real files): GAMEBIN_SAMPLES=../shared/samples cargo test -- --include-ignored"]
fn wdata_samples_open_and_round_trip() {
    let dir = std::env::var_os("GAMEBIN_SAMPLES").expect("GAMEBIN_SAMPLES is not set: this test reads the real samples (run it with GAMEBIN_SAMPLES=../shared/samples cargo test -- --include-ignored)");
    let dir = PathBuf::from(dir).join("rusty-hearts-wdata");
    let Ok(entries) = std::fs::read_dir(&dir) else {
        eprintln!("skipped: no {} (no real .wdata is public)", dir.display());
        return;
    };
    let mut seen = 0;
    for path in entries.flatten().map(|e| e.path()) {
        if !path
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("wdata"))
        {
            continue;
        }
        let file = MappedFile::open(&path).unwrap();
        assert_eq!(
            gamebin::detect(&file),
            Some(gamebin::Format::RustyHeartsWdata),
            "{}",
            path.display()
        );
        let view = gamebin::wdata::WdataView::open(&file)
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let map = gamebin::wdata::model::WdataModel::from_view(&view).unwrap();
        assert!(
            map.to_bytes().unwrap() == file.bytes(),
            "{}",
            path.display()
        );
        seen += 1;
    }
    eprintln!("{seen} .wdata sample(s) checked");
}

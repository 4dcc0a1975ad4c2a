//! Exports read back: every fixture and every real sample (`$GAMEBIN_SAMPLES/wows-geometry`)
//! exported to GLB is read back by the `gltf` crate, an independent glTF reader, and gives the
//! reader's draws: the same vertex, index and triangle counts, positions within 1e-6 once the axis
//! conversion is undone, the same triangles; and to OBJ with the same counts.

use std::path::{Path, PathBuf};

use gamebin::wows::axes::right_handed;
use gamebin::wows::geometry::export::gltf::{GeometryGlbOptions, geometry_to_glb};
use gamebin::wows::geometry::export::obj;
use gamebin::wows::geometry::{DecodedGeometry, GeometryView};

fn inputs() -> Vec<PathBuf> {
    let mut dirs = vec![Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/wows-geometry")];
    match std::env::var_os("GAMEBIN_SAMPLES") {
        Some(dir) => dirs.push(PathBuf::from(dir).join("wows-geometry")),
        None => eprintln!("skipped the real samples: GAMEBIN_SAMPLES is not set"),
    }
    let mut files = Vec::new();
    for dir in dirs {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "geometry") {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

#[test]
fn every_fixture_and_sample_exports_to_a_glb_the_gltf_crate_reads_back() {
    let files = inputs();
    assert!(files.len() >= 6);
    for path in files {
        let name = path.display().to_string();
        let bytes = std::fs::read(&path).unwrap();
        let view = GeometryView::from_bytes(&bytes).unwrap();
        let mut decoded = DecodedGeometry::new();
        decoded.decode(&view);
        let glb = geometry_to_glb(&view, &decoded, &GeometryGlbOptions { armor: true }).unwrap();
        assert!(glb.skipped.is_empty(), "{name}: {:?}", glb.skipped);
        let draws: Vec<_> = decoded.draws(&view).collect();
        assert_eq!(draws.len(), view.index_mappings().len(), "{name}");
        assert_eq!(glb.meshes, draws.len() + view.armor_models().len());

        let gltf = gltf::Gltf::from_slice(&glb.bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
        let blob = gltf.blob.as_deref().expect("a BIN chunk");
        let meshes: Vec<_> = gltf.meshes().collect();
        assert_eq!(meshes.len(), glb.meshes, "{name}");
        for (draw, mesh) in draws.iter().zip(&meshes) {
            let data = decoded.draw_data(draw).unwrap();
            assert_eq!(
                mesh.name(),
                Some(format!("{:08x}_{:08x}", draw.vertices.id(), draw.indices.id()).as_str())
            );
            let primitive = mesh.primitives().next().unwrap();
            let reader = primitive.reader(|_| Some(blob));
            let positions: Vec<[f32; 3]> = reader.read_positions().unwrap().collect();
            assert_eq!(positions.len(), data.vertices.len(), "{name}");
            for (k, p) in positions.iter().enumerate() {
                let want = data.vertices.position(k).unwrap();
                let back = right_handed(*p);
                for c in 0..3 {
                    assert!(
                        (back[c] - want[c]).abs() <= 1e-6,
                        "{name}: {back:?} {want:?}"
                    );
                }
            }
            let indices: Vec<u32> = reader.read_indices().unwrap().into_u32().collect();
            assert_eq!(indices.len(), data.indices.len(), "{name}");
            assert_eq!(indices.len() % 3, 0);
            // The same triangles, rewound for the mirrored space.
            for (t, want) in indices.chunks_exact(3).zip(data.indices.triangles()) {
                assert_eq!([t[0], t[2], t[1]], want, "{name}");
            }
            let format = data.vertices.format();
            assert_eq!(reader.read_normals().is_some(), format.normal.is_some());
            if let Some(normals) = reader.read_normals() {
                for n in normals {
                    let len = (n[0] * n[0] + n[1] * n[1] + n[2] * n[2]).sqrt();
                    assert!((len - 1.0).abs() < 1e-5, "{name}: normal {n:?}");
                }
            }
            assert_eq!(
                reader.read_tangents().is_some(),
                format.normal.is_some() && format.tangent.is_some() && format.binormal.is_some()
            );
            assert_eq!(reader.read_tex_coords(0).is_some(), format.uv0.is_some());
            assert_eq!(reader.read_tex_coords(1).is_some(), format.uv1.is_some());
            if let Some(uvs) = reader.read_tex_coords(0) {
                for (k, uv) in uvs.into_f32().enumerate() {
                    let stored = data.vertices.uv(k).unwrap();
                    assert_eq!(uv, [stored[0] + 0.5, stored[1] + 0.5], "{name}");
                }
            }
            let skinned = format.bone_indices.is_some() && format.bone_weights.is_some();
            assert_eq!(reader.read_joints(0).is_some(), skinned, "{name}");
            if let Some(weights) = reader.read_weights(0) {
                let joints: Vec<[u16; 4]> = reader.read_joints(0).unwrap().into_u16().collect();
                for (k, w) in weights.into_f32().enumerate() {
                    let sum: f32 = w.iter().sum();
                    assert!((sum - 1.0).abs() < 1e-5, "{name}: weights {w:?}");
                    // glTF's rules for a vertex's joints: one without weight is 0, none twice
                    // with weight.
                    let j = joints[k];
                    for a in 0..4 {
                        if w[a] == 0.0 {
                            assert_eq!(j[a], 0, "{name}: vertex {k} joints {j:?} weights {w:?}");
                        }
                        for b in a + 1..4 {
                            assert!(
                                w[a] == 0.0 || w[b] == 0.0 || j[a] != j[b],
                                "{name}: vertex {k} names a joint twice: {j:?} {w:?}"
                            );
                        }
                    }
                    // The heaviest joint is the stored bone with the largest stored weight.
                    let (stored_bones, stored_weights) = (
                        data.vertices.bone_indices(k).unwrap(),
                        data.vertices.bone_weights(k).unwrap(),
                    );
                    let heaviest = |w: &[f32]| {
                        (0..w.len()).fold(0, |best, i| if w[i] > w[best] { i } else { best })
                    };
                    let want = stored_bones[heaviest(&stored_weights)];
                    let got = j[heaviest(&w)];
                    let tied = stored_weights
                        .iter()
                        .filter(|&&x| x == stored_weights[heaviest(&stored_weights)])
                        .count()
                        > 1;
                    assert!(
                        tied || u16::from(want) == got,
                        "{name}: vertex {k}: joint {got}, stored bone {want}"
                    );
                }
            }
        }
        // Every skin's joints share one root (glTF: SKIN_NO_COMMON_ROOT otherwise).
        let nodes: Vec<_> = gltf.nodes().collect();
        let parent_of = |n: usize| {
            nodes
                .iter()
                .find(|p| p.children().any(|c| c.index() == n))
                .map(|p| p.index())
        };
        let root_of = |mut n: usize| {
            while let Some(p) = parent_of(n) {
                n = p;
            }
            n
        };
        for skin in gltf.skins() {
            let roots: std::collections::BTreeSet<usize> =
                skin.joints().map(|j| root_of(j.index())).collect();
            assert_eq!(
                roots.len(),
                1,
                "{name}: the skin's joints have roots {roots:?}"
            );
        }
        // Armor models: one primitive per BVH node, the node's triangles and material id.
        for (model, mesh) in view.armor_models().zip(&meshes[draws.len()..]) {
            let armor = model.armor().unwrap();
            assert_eq!(mesh.name(), Some(model.name().unwrap()));
            let mut triangles = 0;
            for (node, primitive) in armor.nodes().zip(mesh.primitives()) {
                let node = node.unwrap();
                let reader = primitive.reader(|_| Some(blob));
                let count = reader.read_positions().unwrap().count();
                assert_eq!(count, node.triangle_count() * 3);
                triangles += count / 3;
                let extras = primitive.extras().as_ref().unwrap().get();
                assert!(
                    extras.contains(&format!("\"material_id\":{}", node.material_id())),
                    "{extras}"
                );
            }
            assert_eq!(triangles, armor.triangle_count().unwrap());
        }
    }
}

#[test]
fn every_fixture_and_sample_exports_to_obj() {
    for path in inputs() {
        let name = path.display().to_string();
        let bytes = std::fs::read(&path).unwrap();
        let view = GeometryView::from_bytes(&bytes).unwrap();
        let mut decoded = DecodedGeometry::new();
        decoded.decode(&view);
        let mut exported = 0;
        for draw in decoded.draws(&view) {
            let data = decoded.draw_data(&draw).unwrap();
            let text = obj::draw_to_obj(&name, &draw, &data);
            let count = |prefix: &str| text.lines().filter(|l| l.starts_with(prefix)).count();
            assert_eq!(count("v "), data.vertices.len(), "{name}");
            assert_eq!(count("f "), data.indices.len() / 3, "{name}");
            // Every face corner names a vertex that exists (OBJ counts from 1).
            for face in text.lines().filter(|l| l.starts_with("f ")) {
                for corner in face.split_whitespace().skip(1) {
                    let k: usize = corner.split('/').next().unwrap().parse().unwrap();
                    assert!((1..=data.vertices.len()).contains(&k), "{name}: {face}");
                }
            }
            exported += 1;
        }
        assert_eq!(exported, view.index_mappings().len(), "{name}");
        for model in view.armor_models() {
            let armor = model.armor().unwrap();
            let text = obj::armor_to_obj(&name, model.name().unwrap(), &armor).unwrap();
            let faces = text.lines().filter(|l| l.starts_with("f ")).count();
            assert_eq!(faces, armor.triangle_count().unwrap());
        }
    }
}

#[test]
fn a_skipped_armor_model_is_named_as_an_armor_model() {
    use gamebin::wows::geometry::export::gltf::GeometryPart;
    // The writer's example ends with its armor model: cut by one byte, its name does not read.
    let file = gamebin::synth::geometry::example_file();
    let cut = &file[..file.len() - 1];
    let view = GeometryView::from_bytes(cut).unwrap();
    let mut decoded = DecodedGeometry::new();
    decoded.decode(&view);
    let glb = geometry_to_glb(&view, &decoded, &GeometryGlbOptions { armor: true }).unwrap();
    assert_eq!(glb.meshes, 2, "the two draws");
    let [skipped] = &glb.skipped[..] else {
        panic!("{:?}", glb.skipped)
    };
    assert_eq!(
        skipped.part,
        GeometryPart::Armor {
            index: 0,
            name: None
        }
    );
    assert_eq!(skipped.part.to_string(), "armor model 0 (name unreadable)");
    let named = GeometryPart::Armor {
        index: 2,
        name: Some("CM_PA_united.armor".into()),
    };
    assert_eq!(named.to_string(), "armor model 2 (\"CM_PA_united.armor\")");
    let draw = GeometryPart::Draw {
        vertices_id: 0xc0be,
        indices_id: 0xc0bf,
    };
    assert_eq!(draw.to_string(), "draw 0x0000c0be + 0x0000c0bf");
}

/// A texture coordinate stored as NaN (a real hull section stores f16 0x7E00): `check` names the
/// draw and the attribute, and both exporters write 0 for it (the texture's middle once `uv - 0.5`
/// is undone), so that the GLB holds only finite numbers and the OBJ no `NaN`.
#[test]
fn a_nan_texture_coordinate_is_reported_and_exported_as_zero() {
    use gamebin::synth::geometry::cube;
    use gamebin::wows::geometry::model::GeometryBuilder;
    use gamebin::wows::geometry::{FloatAttribute, GeometryFinding};

    let (mut vertices, indices) = cube([0.0; 3], 1.0);
    vertices[2].uv = [f32::NAN, 0.25];
    vertices[5].uv = [0.0, f32::INFINITY];
    let mut builder = GeometryBuilder::new();
    let vb = builder.vertex_buffer("set3/xyznuvtbpc", false);
    let ib = builder.index_buffer(2, false);
    builder
        .mesh("Hull", vb, ib, 0, &vertices, &indices)
        .unwrap();
    let file = builder.to_bytes().unwrap();

    let view = GeometryView::from_bytes(&file).unwrap();
    let found = view.check().unwrap();
    assert!(found.errors.is_empty(), "{:?}", found.errors);
    let [GeometryFinding::NonFiniteAttribute { non_finite, .. }] = found.warnings.as_slice() else {
        panic!("one warning expected: {:?}", found.warnings);
    };
    assert_eq!(non_finite.attribute, FloatAttribute::Uv);
    assert_eq!((non_finite.first_vertex, non_finite.vertices), (2, 2));
    assert!(
        found.warnings[0]
            .to_string()
            .contains("texture coordinates")
    );

    let mut decoded = DecodedGeometry::new();
    decoded.decode(&view);
    let glb = geometry_to_glb(&view, &decoded, &GeometryGlbOptions::default()).unwrap();
    let gltf = gltf::Gltf::from_slice(&glb.bytes).unwrap();
    let blob = gltf.blob.as_deref().unwrap();
    let primitive = gltf.meshes().next().unwrap().primitives().next().unwrap();
    let uvs: Vec<[f32; 2]> = primitive
        .reader(|_| Some(blob))
        .read_tex_coords(0)
        .unwrap()
        .into_f32()
        .collect();
    assert!(uvs.iter().flatten().all(|c| c.is_finite()), "{uvs:?}");
    assert_eq!(uvs[2], [0.5, 0.75]);
    assert_eq!(uvs[5][1], 0.5);

    let draw = decoded.draws(&view).next().unwrap();
    let data = decoded.draw_data(&draw).unwrap();
    let text = obj::draw_to_obj("hull", &draw, &data);
    assert!(!text.contains("NaN") && !text.contains("inf"), "{text}");
}

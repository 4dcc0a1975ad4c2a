//! BigWorld XML sources: the committed fixtures are what the generator writes, each reads to its
//! golden output, damaged files (truncated at every length, bytes flipped) give errors with their
//! place, never a panic; and the real models of `wows-mod/` read with the facts SOURCES.txt gives,
//! each render set's mappings found in the `.geometry` by the MurmurHash3 of their names.

use std::path::{Path, PathBuf};

use gamebin::wows::sources::{Material, ModelFile, SourceError, VisualFile, VisualForm};

fn fixtures_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/wows-sources")
}

/// Parses `text` as the reader its extension calls for, as JSON.
fn read(name: &str, text: &str) -> Result<serde_json::Value, SourceError> {
    Ok(match name.rsplit('.').next() {
        Some("model") => serde_json::to_value(ModelFile::parse(name, text)?),
        Some("visual") => serde_json::to_value(VisualFile::parse(name, text)?),
        Some("mfm") => serde_json::to_value(Material::parse(name, text)?),
        _ => panic!("{name}: not a source file"),
    }
    .unwrap())
}

#[test]
fn committed_fixtures_match_the_generator_and_read_to_their_goldens() {
    let regenerate = std::env::var_os("GAMEBIN_REGENERATE").is_some();
    let bless = std::env::var_os("GAMEBIN_BLESS").is_some();
    let goldens = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/wows-sources");
    for (name, text) in gamebin::synth::sources::fixtures() {
        let path = fixtures_dir().join(&name);
        if regenerate {
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(&path, &text).unwrap();
        }
        let committed = std::fs::read_to_string(&path).unwrap_or_else(|e| {
            panic!(
                "{}: {e}; run GAMEBIN_REGENERATE=1 cargo test --test sources",
                path.display()
            )
        });
        assert_eq!(
            committed,
            text,
            "{} differs from the generator",
            path.display()
        );
        let json = serde_json::to_string_pretty(&read(&name, &text).unwrap()).unwrap() + "\n";
        let golden = goldens.join(format!("{name}.json"));
        if bless {
            std::fs::create_dir_all(golden.parent().unwrap()).unwrap();
            std::fs::write(&golden, &json).unwrap();
        }
        let want = std::fs::read_to_string(&golden).unwrap_or_else(|e| {
            panic!(
                "{}: {e}; run GAMEBIN_BLESS=1 cargo test --test sources",
                golden.display()
            )
        });
        assert_eq!(
            json,
            want,
            "{name} reads differently from {}",
            golden.display()
        );
    }
}

#[test]
fn goldens_hold_what_the_generator_was_told() {
    // Independent of the reader: the generator wrote these values.
    let text = |name: &str| std::fs::read_to_string(fixtures_dir().join(name)).unwrap();
    let visual = VisualFile::parse("gun.visual", &text("newer/gun.visual")).unwrap();
    assert_eq!(visual.form, VisualForm::Skeleton);
    let names: Vec<_> = visual.nodes.iter().map(|n| n.identifier.as_str()).collect();
    assert_eq!(names, ["Scene Root", "Turret", "HP_gunFire1"]);
    assert_eq!(visual.nodes[1].parent, Some(0));
    assert_eq!(visual.nodes[1].transform[3], [0.0, 1.5, -2.0, 1.0]);
    assert_eq!(visual.lods.len(), 2);
    assert_eq!(visual.lods[1].extent, 10.0);
    assert_eq!(visual.render_sets[0].vertices, "TurretShape.vertices");
    assert_eq!(
        visual.bounding_box,
        Some([[-1.0, 0.0, -2.0], [1.0, 2.0, 3.0]])
    );

    let top = ModelFile::parse("finder.model", &text("classic/finder.model")).unwrap();
    assert_eq!(top.visual, "classic/finder.visual");
    assert_eq!(top.parent.as_deref(), Some("classic/lods/finder_lod1"));
    assert_eq!(top.extent, Some(2.0));
    let lod =
        ModelFile::parse("finder_lod1.model", &text("classic/lods/finder_lod1.model")).unwrap();
    assert_eq!((lod.parent, lod.extent), (None, Some(12.0)));
    let classic = VisualFile::parse("finder.visual", &text("classic/finder.visual")).unwrap();
    assert_eq!(classic.form, VisualForm::NodeTree);
    assert_eq!(classic.render_sets[0].indices, "AM001Shape.indices");
    assert_eq!(
        classic.render_sets[0].materials[0].mfm,
        "classic/finder.mfm"
    );

    let mfm = Material::parse("gun.mfm", &text("newer/gun.mfm")).unwrap();
    assert_eq!(mfm.properties.len(), 6);
}

#[test]
fn damaged_sources_give_errors_with_their_place_never_a_panic() {
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    for (name, text) in gamebin::synth::sources::fixtures() {
        let bytes = text.as_bytes();
        for cut in 0..bytes.len() {
            let Ok(cut_text) = std::str::from_utf8(&bytes[..cut]) else {
                continue;
            };
            if let Err(e) = read(&name, cut_text) {
                assert!(e.to_string().starts_with(&name), "{e}");
            }
        }
        for _ in 0..300 {
            let mut mutated = bytes.to_vec();
            for _ in 0..1 + next() % 4 {
                let at = (next() % mutated.len() as u64) as usize;
                mutated[at] = b"<>/ \t\n0a.-"[(next() % 10) as usize];
            }
            if let Ok(t) = std::str::from_utf8(&mutated) {
                let _ = read(&name, t);
            }
        }
    }
    // An element left open is named with the line it opens on.
    let e = VisualFile::parse("v.visual", "<v.visual>\n\t<skeleton>\n\t\t<node>\n").unwrap_err();
    assert_eq!(
        e.to_string(),
        "v.visual:3: <v.visual/skeleton/node>: the file ends before this element is closed"
    );
}

// ---- the real models ($GAMEBIN_SAMPLES/wows-mod) ----

fn res_root() -> PathBuf {
    let dir = std::env::var_os("GAMEBIN_SAMPLES").expect(
        "GAMEBIN_SAMPLES is not set: this test reads the real samples (run it with \
         GAMEBIN_SAMPLES=../shared/samples cargo test -- --include-ignored)",
    );
    PathBuf::from(dir).join("wows-mod")
}

fn load(root: &Path, relative: &str) -> String {
    std::fs::read_to_string(root.join(relative)).unwrap_or_else(|e| panic!("{relative}: {e}"))
}

/// The mapping ids of a `.geometry`, read by its own reader.
fn mapping_ids(path: &Path) -> (Vec<u32>, Vec<u32>) {
    let file = std::fs::read(path).unwrap();
    let view = gamebin::wows::geometry::GeometryView::from_bytes(&file).unwrap();
    (
        view.vertex_mappings().iter().map(|m| m.id()).collect(),
        view.index_mappings().iter().map(|m| m.id()).collect(),
    )
}

#[test]
#[ignore = "needs GAMEBIN_SAMPLES (real files): GAMEBIN_SAMPLES=../shared/samples cargo test -- --include-ignored"]
fn the_newer_form_model_reads_and_finds_its_draws_by_name() {
    let root = res_root();
    let folder = "PnFMods/SEA_PI_Yuugumo_Kiyoshimo/JSD209_Yugumo/gun";
    let model_path = format!("{folder}/JGA010_25mm_Type96.model");
    let model = ModelFile::parse(&model_path, &load(&root, &model_path)).unwrap();
    assert_eq!(model.visual, format!("{folder}/JGA010_25mm_Type96.visual"));
    let visual = VisualFile::parse(&model.visual, &load(&root, &model.visual)).unwrap();
    assert_eq!(visual.form, VisualForm::Skeleton);
    // SOURCES.txt: TurretShape.vertices = 0x03432c0c, TurretShape.indices = 0x98e59262; 4 vertex
    // and 4 index mappings, one per render set.
    let turret = &visual.render_sets[0];
    assert_eq!(turret.name.as_deref(), Some("TurretShape"));
    assert_eq!(
        (turret.vertices_id, turret.indices_id),
        (0x03432c0c, 0x98e59262)
    );
    let (vertices, indices) =
        mapping_ids(&root.join(format!("{folder}/JGA010_25mm_Type96.geometry")));
    assert_eq!(
        (vertices.len(), indices.len(), visual.render_sets.len()),
        (4, 4, 4)
    );
    for set in &visual.render_sets {
        assert!(vertices.contains(&set.vertices_id), "{:?}", set.name);
        assert!(indices.contains(&set.indices_id), "{:?}", set.name);
        assert_eq!(set.nodes, ["Turret"]);
        for material in &set.materials {
            let mfm = Material::parse(&material.mfm, &load(&root, &material.mfm)).unwrap();
            for property in &mfm.properties {
                if let gamebin::wows::sources::PropertyValue::Texture { dds, .. } = &property.value
                {
                    let bytes =
                        std::fs::read(root.join(dds)).unwrap_or_else(|e| panic!("{dds}: {e}"));
                    gamebin::dds::DdsView::from_bytes(&bytes).unwrap();
                }
            }
        }
    }
    // Every LOD draws render sets the file defines (checked by the reader), finest first.
    let extents: Vec<f32> = visual.lods.iter().map(|l| l.extent).collect();
    assert_eq!(extents, [2.0, 4.0, 10.0, 25.0]);
}

#[test]
#[ignore = "needs GAMEBIN_SAMPLES (real files): GAMEBIN_SAMPLES=../shared/samples cargo test -- --include-ignored"]
fn the_classic_form_chain_reads_and_every_lod_draws_from_the_top_geometry() {
    let root = res_root();
    let folder = "PnFMods/SEA_KRE_Atlanta/ASC006_Atlanta_1942/finder";
    let (vertices, indices) =
        mapping_ids(&root.join(format!("{folder}/AF076_Rangefinder_2_5m.geometry")));
    let mut next = Some(format!("{folder}/AF076_Rangefinder_2_5m"));
    let mut extents = Vec::new();
    let mut shapes = Vec::new();
    while let Some(stem) = next.take() {
        assert!(extents.len() < 8, "the <parent> chain does not end");
        let path = format!("{stem}.model");
        let model = ModelFile::parse(&path, &load(&root, &path)).unwrap();
        extents.push(model.extent.unwrap());
        let visual = VisualFile::parse(&model.visual, &load(&root, &model.visual)).unwrap();
        assert_eq!(visual.form, VisualForm::NodeTree);
        for set in &visual.render_sets {
            // SOURCES.txt: the top model's .geometry holds every LOD's mappings.
            assert!(vertices.contains(&set.vertices_id), "{}", set.vertices);
            assert!(indices.contains(&set.indices_id), "{}", set.indices);
            shapes.push(set.vertices.clone());
        }
        next = model.parent;
    }
    // SOURCES.txt: extents 2, 6, 12, 50; AM001Shape, then AM001_lod1Shape .. AM001_lod3Shape.
    assert_eq!(extents, [2.0, 6.0, 12.0, 50.0]);
    assert_eq!(shapes[0], "AM001Shape.vertices");
    assert_eq!(shapes[3], "AM001_lod3Shape.vertices");
}

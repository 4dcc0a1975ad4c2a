//! From `assets.bin` to a model: a small world written with the writers (an `assets.bin` with a
//! ModelPrototype → VisualPrototype → MaterialPrototypes, and `.geometry` files under a temporary
//! resource root) is resolved, exported to GLB and read back with the `gltf` crate. Expected
//! values come from the specs the test wrote. Deliberate faults (a missing geometry file, a
//! mapping id not in its file, a missing material, a missing visual) give errors naming the
//! model, the render set and the piece, and the rest of the batch still resolves. A counting
//! allocator shows that resolving with a warm cache allocates nothing.

use std::path::{Path, PathBuf};

use gamebin::hash::murmur3_32;
use gamebin::synth::assets::translation;
use gamebin::synth::dds::{Kind, Spec, texture as texture_file};
use gamebin::synth::geometry::{cube, pyramid, quad};
use gamebin::wows::assets::model::AssetsBuilder;
use gamebin::wows::assets::{AssetsDb, MaterialValue};
use gamebin::wows::assets::{
    BoundsFields, LodFields, MaterialFields, ModelFields, NodeFields, PropertyFields,
    PropertyValue, RenderSetFields, VisualFields,
};
use gamebin::wows::axes::right_handed_matrix;
use gamebin::wows::geometry::model::{GeometryBuilder, MeshVertex};
use gamebin::wows::pfs::{Compression, GameInstall, PfsWriter};
use gamebin::wows::resolve::gltf::{LodChoice, ModelGlbOptions, model_to_glb};
use gamebin::wows::resolve::{GeometryCache, Missing, ModelResolver};
use gamebin::wows::textures::TextureMode;

mod counting;

#[global_allocator]
static ALLOCATOR: counting::Counting = counting::Counting;

const DIR: &str = "content/gameplay/ships";

/// The texture files the world writes beside its `.geometry` (`Hull_mg.dds` is named but absent).
/// `Hull_n` has a larger tier beside it, `.dd2`, twice its size as the game's tiers are.
const TEXTURES: [(&str, Spec); 3] = [
    ("Hull_a.dds", Spec::new(Kind::Bc1, 16, 8, 1)),
    ("Hull_n.dds", Spec::new(Kind::Bgra8, 8, 8, 2)),
    ("Hull_n.dd2", Spec::new(Kind::Bgra8, 16, 16, 1)),
];

fn ids(mesh: &str) -> (u32, u32) {
    (
        murmur3_32(format!("{mesh}.vertices").as_bytes(), 0),
        murmur3_32(format!("{mesh}.indices").as_bytes(), 0),
    )
}

/// A node rotated 90° about Y and translated (column-major).
fn turned(t: [f32; 3]) -> [f32; 16] {
    [
        0.0, 0.0, -1.0, 0.0, //
        0.0, 1.0, 0.0, 0.0, //
        1.0, 0.0, 0.0, 0.0, //
        t[0], t[1], t[2], 1.0,
    ]
}

fn set(name: &str, mesh: &str, mfm: u64, skinned: bool, nodes: &[&str]) -> RenderSetFields {
    let (v, i) = ids(mesh);
    RenderSetFields {
        name: Some(name.into()),
        material: Some(format!("{name}_material")),
        vertices_mapping_id: v,
        indices_mapping_id: i,
        material_mfm_path_id: mfm,
        skinned,
        nodes: nodes.iter().map(|&n| Some(n.into())).collect(),
    }
}

/// The meshes of the ship's `.geometry`: (name, vertices, indices, skinned).
fn meshes() -> Vec<(&'static str, Vec<MeshVertex>, Vec<u32>, bool)> {
    let (hull_v, hull_i) = cube([0.0; 3], 2.0);
    let (turret_v, turret_i) = pyramid([0.0, 1.0, 0.0], 0.5);
    let (lod_v, lod_i) = quad(0.0, 2.0);
    let (skin_v, skin_i) = cube([0.0, 3.0, 0.0], 0.5);
    vec![
        ("Hull", hull_v, hull_i, false),
        ("Turret", turret_v, turret_i, false),
        ("HullLod1", lod_v, lod_i, false),
        ("Flag", skin_v, skin_i, true),
    ]
}

struct World {
    root: PathBuf,
    assets: Vec<u8>,
    visual: VisualFields,
    hull_mfm: String,
    turret_mfm: String,
}

impl Drop for World {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.root);
    }
}

fn world(tag: &str) -> World {
    let root =
        std::env::temp_dir().join(format!("gamebin-model-test-{}-{tag}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    let mut b = AssetsBuilder::new();
    let path = |name: &str| format!("{DIR}/{name}");
    let geometry = b.path(&path("Ship.geometry")).unwrap();
    let missing_geometry = b.path(&path("Missing.geometry")).unwrap();
    let hull_mfm = b.path(&path("Hull.mfm")).unwrap();
    let turret_mfm = b.path(&path("Turret.mfm")).unwrap();
    let gone_mfm = b.path(&path("Gone.mfm")).unwrap();
    let texture = b.path(&path("Hull_a.dds")).unwrap();
    let normal = b.path(&path("Hull_n.dds")).unwrap();
    let metal_gloss = b.path(&path("Hull_mg.dds")).unwrap();

    b.prototype(
        hull_mfm,
        MaterialFields {
            properties: vec![
                PropertyFields::new("gloss", PropertyValue::Float(0.25)),
                PropertyFields::new("tint", PropertyValue::Vec3([0.5, 0.625, 0.75])),
                PropertyFields::new("diffuseMap", PropertyValue::Texture(texture)),
                PropertyFields::new("normalMap", PropertyValue::Texture(normal)),
                // Named, but its file is not written: a warning, not a failure.
                PropertyFields::new("metallicGlossMap", PropertyValue::Texture(metal_gloss)),
                PropertyFields::new("doubleSided", PropertyValue::Bool(true)),
            ],
            ..Default::default()
        },
    )
    .unwrap();
    b.prototype(
        turret_mfm,
        MaterialFields {
            properties: vec![
                PropertyFields::new("layer", PropertyValue::Int(-3)),
                PropertyFields::new("alphaTest", PropertyValue::Bool(true)),
                PropertyFields::new("color", PropertyValue::Vec4([1.0, 0.5, 0.25, 1.0])),
            ],
            ..Default::default()
        },
    )
    .unwrap();

    let node = |name: &str, matrix, parent| NodeFields {
        name: Some(name.into()),
        matrix,
        parent,
    };
    let visual = VisualFields {
        nodes: vec![
            node("Scene Root", translation([0.0; 3]), None),
            node("Hull", translation([1.0, 2.0, 3.0]), Some(0)),
            node("Turret", turned([4.0, 5.0, -6.0]), Some(1)),
            node("Bone_A", translation([0.0, 3.0, 0.0]), Some(0)),
            node("Bone_B", turned([0.5, 0.0, 0.0]), Some(3)),
        ],
        merged_geometry_path_id: geometry,
        underwater: false,
        abovewater: true,
        bounding_box: BoundsFields {
            min: [-2.0; 3],
            max: [2.0; 3],
        },
        render_sets: vec![
            set("rs_hull", "Hull", hull_mfm, false, &["Hull"]),
            set("rs_turret", "Turret", turret_mfm, false, &["Turret"]),
            set("rs_hull_lod1", "HullLod1", hull_mfm, false, &["Hull"]),
            set(
                "rs_flag",
                "Flag",
                turret_mfm,
                true,
                &["Bone_A", "Bone_B", "Scene Root"],
            ),
        ],
        lods: vec![
            LodFields {
                extent: 300.0,
                casts_shadow: true,
                render_sets: ["rs_hull", "rs_turret", "rs_flag"]
                    .map(|n| Some(n.into()))
                    .into(),
            },
            LodFields {
                extent: 1200.0,
                casts_shadow: false,
                render_sets: vec![Some("rs_hull_lod1".into())],
            },
        ],
    };
    let model = |b: &mut AssetsBuilder, name: &str, visual: VisualFields| {
        let visual_id = b.path(&path(&format!("{name}.visual"))).unwrap();
        let model_id = b.path(&path(&format!("{name}.model"))).unwrap();
        b.prototype(visual_id, visual).unwrap();
        b.prototype(
            model_id,
            ModelFields {
                visual_resource_id: visual_id,
                ..Default::default()
            },
        )
        .unwrap();
    };
    model(&mut b, "Ship", visual.clone());
    // Faults, one per model.
    model(
        &mut b,
        "NoFile",
        VisualFields {
            merged_geometry_path_id: missing_geometry,
            ..visual.clone()
        },
    );
    let mut bad_mapping = visual.clone();
    bad_mapping.render_sets[1].vertices_mapping_id = ids("Nope").0;
    model(&mut b, "BadMapping", bad_mapping);
    let mut no_material = visual.clone();
    no_material.render_sets[0].material_mfm_path_id = gone_mfm;
    model(&mut b, "NoMaterial", no_material);
    let orphan = b.path(&path("Orphan.model")).unwrap();
    let nowhere = b.path(&path("Nowhere.visual")).unwrap();
    b.prototype(
        orphan,
        ModelFields {
            visual_resource_id: nowhere,
            ..Default::default()
        },
    )
    .unwrap();
    let assets = b.to_bytes().unwrap();

    let mut g = GeometryBuilder::new();
    let vb = g.vertex_buffer("set3/xyznuvtbpc", true);
    let skinned_vb = g.vertex_buffer_with("set3/xyznuviiiwwtbpc", 36, true, true, true);
    let ib = g.index_buffer(2, true);
    for (name, vertices, indices, skinned) in meshes() {
        let buffer = if skinned { skinned_vb } else { vb };
        g.mesh(ids(name), buffer, ib, 0, &vertices, &indices)
            .unwrap();
    }
    let file = root.join("res").join(DIR).join("Ship.geometry");
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    std::fs::write(&file, g.to_bytes().unwrap()).unwrap();
    for (name, spec) in TEXTURES {
        std::fs::write(file.with_file_name(name), texture_file(&spec).unwrap()).unwrap();
    }
    World {
        root,
        assets,
        visual,
        hull_mfm: path("Hull.mfm"),
        turret_mfm: path("Turret.mfm"),
    }
}

fn mesh_counts(name: &str) -> (usize, usize) {
    let (_, v, i, _) = meshes().into_iter().find(|m| m.0 == name).unwrap();
    (v.len(), i.len())
}

#[test]
fn a_model_resolves_to_its_nodes_lods_render_sets_and_materials() {
    let w = world("resolve");
    let db = AssetsDb::from_bytes(&w.assets).unwrap();
    // The root holds `res/`: the resolver finds `res/content/`.
    let resolver = ModelResolver::new(db, &w.root);
    assert_eq!(resolver.root(), w.root.join("res"));
    let model = resolver
        .resolve_path(&format!("res/{DIR}/Ship.model"))
        .unwrap();
    assert!(model.model().is_some());
    assert_eq!(model.geometry_path_id(), w.visual.merged_geometry_path_id);

    let nodes: Vec<_> = model.nodes().unwrap().collect();
    assert_eq!(nodes.len(), w.visual.nodes.len());
    for (node, spec) in nodes.iter().zip(&w.visual.nodes) {
        assert_eq!(node.name, spec.name.as_deref());
        assert_eq!(node.parent, spec.parent);
        assert_eq!(node.matrix, spec.matrix);
    }

    let lods: Vec<_> = model.lods().unwrap().map(Result::unwrap).collect();
    assert_eq!(lods.len(), 2);
    for (lod, spec) in lods.iter().zip(&w.visual.lods) {
        assert_eq!(lod.extent, spec.extent);
        assert_eq!(lod.casts_shadow, spec.casts_shadow);
        let names: Vec<_> = model
            .lod_render_sets(lod.index)
            .unwrap()
            .map(|s| s.unwrap().name.unwrap())
            .collect();
        let expected: Vec<_> = spec.render_sets.iter().flat_map(|n| n.as_deref()).collect();
        assert_eq!(names, expected);
    }

    let sets: Vec<_> = model.render_sets().unwrap().map(Result::unwrap).collect();
    assert_eq!(sets.len(), w.visual.render_sets.len());
    for (s, spec) in sets.iter().zip(&w.visual.render_sets) {
        assert_eq!(s.name, spec.name.as_deref());
        assert_eq!(s.material_name, spec.material.as_deref());
        assert_eq!(
            (s.vertices_mapping_id(), s.indices_mapping_id()),
            (spec.vertices_mapping_id, spec.indices_mapping_id)
        );
        assert_eq!(s.skinned(), spec.skinned);
        assert_eq!(s.material_mfm_path_id, spec.material_mfm_path_id);
        let nodes: Vec<_> = model
            .render_set_nodes(s)
            .unwrap()
            .map(|i| w.visual.nodes[i.unwrap()].name.clone())
            .collect();
        assert_eq!(nodes, spec.nodes);
    }
    let props: Vec<_> = sets[1]
        .material
        .properties()
        .unwrap()
        .map(Result::unwrap)
        .map(|p| p.value)
        .collect();
    assert_eq!(
        props,
        [
            MaterialValue::Int(-3),
            MaterialValue::Bool(true),
            MaterialValue::Vec4([1.0, 0.5, 0.25, 1.0])
        ]
    );
    // By id, and the visual directly.
    let by_id = resolver.resolve(model.self_id()).unwrap();
    assert_eq!(by_id.visual_id(), model.visual_id());
    let visual = resolver.resolve(model.visual_id()).unwrap();
    assert!(visual.model().is_none());
    assert_eq!(visual.node_count(), 5);
}

#[test]
fn draws_come_from_the_geometry_file_mapped_once() {
    let w = world("draws");
    let db = AssetsDb::from_bytes(&w.assets).unwrap();
    let resolver = ModelResolver::new(db, w.root.join("res"));
    let mut cache = GeometryCache::new();
    for path in ["Ship.model", "BadMapping.model", "Ship.visual"] {
        let model = resolver.resolve_path(&format!("{DIR}/{path}")).unwrap();
        let geometry = cache.load(&resolver, &model).unwrap();
        assert_eq!(geometry.path(), format!("{DIR}/Ship.geometry"));
        if path == "BadMapping.model" {
            continue;
        }
        for set in model.render_sets().unwrap() {
            let set = set.unwrap();
            let draw = geometry.draw(&model, &set).unwrap();
            let mesh = match set.name.unwrap() {
                "rs_hull" => "Hull",
                "rs_turret" => "Turret",
                "rs_hull_lod1" => "HullLod1",
                _ => "Flag",
            };
            assert_eq!((draw.vertices.len(), draw.indices.len()), mesh_counts(mesh));
        }
    }
    assert_eq!(cache.len(), 1, "three models, one file, mapped once");
}

/// `S·M·S` with `S = diag(-1, 1, 1, 1)`, by matrix products (column-major).
fn mirrored(m: [f32; 16]) -> [f32; 16] {
    let s = |i: usize| if i == 0 { -1.0 } else { 1.0 };
    let mut out = [0.0; 16];
    for c in 0..4 {
        for r in 0..4 {
            out[c * 4 + r] = s(r) * m[c * 4 + r] * s(c);
        }
    }
    out
}

fn flat(m: [[f32; 4]; 4]) -> [f32; 16] {
    let mut out = [0.0; 16];
    for (c, column) in m.iter().enumerate() {
        out[c * 4..c * 4 + 4].copy_from_slice(column);
    }
    out
}

/// The world's Ship model exported from its folder.
fn ship_glb(w: &World, options: &ModelGlbOptions) -> gamebin::wows::resolve::gltf::ModelGlb {
    let db = AssetsDb::from_bytes(&w.assets).unwrap();
    let resolver = ModelResolver::new(db, &w.root);
    let mut cache = GeometryCache::new();
    let model = resolver.resolve_path(&format!("{DIR}/Ship.model")).unwrap();
    let geometry = cache.load(&resolver, &model).unwrap();
    model_to_glb(&resolver, &model, &geometry, options).unwrap()
}

#[test]
fn the_glb_has_the_hierarchy_meshes_materials_and_skin_the_assets_say() {
    let w = world("glb");
    let db = AssetsDb::from_bytes(&w.assets).unwrap();
    let glb = ship_glb(&w, &ModelGlbOptions::default());
    let gltf = gltf::Gltf::from_slice(&glb.bytes).unwrap();

    assert_eq!(gltf.scenes().count(), 1);
    let lod0 = &w.visual.lods[0].render_sets;
    assert_eq!(gltf.nodes().count(), w.visual.nodes.len() + lod0.len());
    assert_eq!(gltf.meshes().count(), lod0.len());
    for mesh in gltf.meshes() {
        let name = mesh.name().unwrap();
        let spec = w
            .visual
            .render_sets
            .iter()
            .find(|s| s.name.as_deref() == Some(name))
            .unwrap();
        let written = meshes()
            .into_iter()
            .find(|m| ids(m.0) == (spec.vertices_mapping_id, spec.indices_mapping_id))
            .unwrap();
        let primitive = mesh.primitives().next().unwrap();
        let positions = primitive.get(&gltf::Semantic::Positions).unwrap();
        assert_eq!(positions.count(), written.1.len(), "{name}");
        assert_eq!(
            primitive.indices().unwrap().count(),
            written.2.len(),
            "{name}"
        );
        let material = primitive.material().name().unwrap().to_owned();
        let mfm = if spec.material_mfm_path_id == db.path_id(&w.hull_mfm) {
            &w.hull_mfm
        } else {
            &w.turret_mfm
        };
        assert_eq!(&material, mfm, "{name}");
    }
    // Node matrices: the assets' matrices, mirrored; parents as stored.
    for spec in &w.visual.nodes {
        let node = gltf
            .nodes()
            .find(|n| n.name() == spec.name.as_deref())
            .unwrap();
        let matrix = flat(node.transform().matrix());
        assert_eq!(matrix, mirrored(spec.matrix), "{:?}", spec.name);
        assert_eq!(matrix, right_handed_matrix(spec.matrix));
        let parent = gltf
            .nodes()
            .find(|p| p.children().any(|c| c.index() == node.index()));
        let expected = spec
            .parent
            .and_then(|p| w.visual.nodes[usize::from(p)].name.as_deref());
        assert_eq!(parent.and_then(|p| p.name()), expected, "{:?}", spec.name);
    }
    // Mesh nodes hang under the render set's first node.
    let turret = gltf.nodes().find(|n| n.name() == Some("Turret")).unwrap();
    assert!(turret.children().any(|c| c.name() == Some("rs_turret")));
    // Materials: named by the .mfm path, properties as extras.
    let hull = gltf
        .materials()
        .find(|m| m.name() == Some(w.hull_mfm.as_str()))
        .unwrap();
    let extras: gltf::json::Value =
        gltf::json::deserialize::from_str(hull.extras().as_ref().unwrap().get()).unwrap();
    assert_eq!(extras["gloss"], 0.25);
    assert_eq!(
        extras["tint"],
        gltf::json::Value::from(vec![0.5, 0.625, 0.75])
    );
    assert_eq!(extras["diffuseMap"], format!("{DIR}/Hull_a.dds"));
    assert_eq!(gltf.materials().count(), 2);
    // The skinned render set: a skin over its three nodes.
    let skins: Vec<_> = gltf.skins().collect();
    assert_eq!(skins.len(), 1);
    let joints: Vec<_> = skins[0]
        .joints()
        .map(|j| j.name().map(str::to_owned))
        .collect();
    assert_eq!(joints, w.visual.render_sets[3].nodes);
    let flag = gltf.nodes().find(|n| n.name() == Some("rs_flag")).unwrap();
    assert_eq!(flag.skin().unwrap().index(), skins[0].index());
    assert!(
        gltf.scenes()
            .next()
            .unwrap()
            .nodes()
            .any(|n| n.index() == flag.index())
    );
}

#[test]
fn all_lods_are_separate_scenes_sharing_meshes() {
    let w = world("lods");
    let db = AssetsDb::from_bytes(&w.assets).unwrap();
    let resolver = ModelResolver::new(db, &w.root);
    let mut cache = GeometryCache::new();
    let model = resolver.resolve_path(&format!("{DIR}/Ship.model")).unwrap();
    let geometry = cache.load(&resolver, &model).unwrap();
    let options = ModelGlbOptions {
        lods: LodChoice::All,
        ..Default::default()
    };
    let glb = model_to_glb(&resolver, &model, &geometry, &options).unwrap();
    let gltf = gltf::Gltf::from_slice(&glb.bytes).unwrap();
    let names: Vec<_> = gltf
        .scenes()
        .map(|s| s.name().unwrap().to_owned())
        .collect();
    assert_eq!(names, ["Ship.model LOD0", "Ship.model LOD1"]);
    let n = w.visual.nodes.len();
    assert_eq!(gltf.nodes().count(), (n + 3) + (n + 1));
    assert_eq!(gltf.meshes().count(), 4);
    // LOD 1 alone.
    let one = ModelGlbOptions {
        lods: LodChoice::One(1),
        ..Default::default()
    };
    let glb = model_to_glb(&resolver, &model, &geometry, &one).unwrap();
    let gltf = gltf::Gltf::from_slice(&glb.bytes).unwrap();
    assert_eq!(gltf.meshes().count(), 1);
    assert_eq!(gltf.meshes().next().unwrap().name(), Some("rs_hull_lod1"));
    // A LOD past the visual's.
    let past = ModelGlbOptions {
        lods: LodChoice::One(2),
        ..Default::default()
    };
    let error = model_to_glb(&resolver, &model, &geometry, &past).unwrap_err();
    assert_eq!(error.missing(), &Missing::Lod { index: 2, count: 2 });
}

#[test]
fn faults_name_the_model_the_render_set_and_the_piece_and_the_batch_goes_on() {
    let w = world("faults");
    let db = AssetsDb::from_bytes(&w.assets).unwrap();
    let resolver = ModelResolver::new(db, &w.root);
    let mut cache = GeometryCache::new();
    let mut exported = Vec::new();
    let mut errors = Vec::new();
    for name in [
        "NoFile.model",
        "BadMapping.model",
        "Ship.model",
        "NoMaterial.model",
        "Orphan.model",
        "Unknown.model",
    ] {
        let path = format!("{DIR}/{name}");
        let result = resolver.resolve_path(&path).and_then(|model| {
            let geometry = cache.load(&resolver, &model)?;
            model_to_glb(&resolver, &model, &geometry, &ModelGlbOptions::default())
        });
        match result {
            Ok(glb) => exported.push((name, glb.added.meshes)),
            Err(e) => errors.push((name, e)),
        }
    }
    assert_eq!(exported, [("Ship.model", 3)]);
    let find = |name: &str| &errors.iter().find(|e| e.0 == name).unwrap().1;

    let e = find("NoFile.model");
    assert_eq!(e.model_path(), Some(format!("{DIR}/NoFile.model").as_str()));
    let Missing::GeometryModel { path, .. } = e.missing() else {
        panic!("{e}")
    };
    assert_eq!(path, &format!("{DIR}/Missing.geometry"));
    assert!(e.to_string().contains("Missing.geometry"), "{e}");

    let e = find("BadMapping.model");
    assert_eq!(e.render_set_name(), Some("rs_turret"));
    assert_eq!(
        e.missing(),
        &Missing::VerticesMapping {
            id: ids("Nope").0,
            geometry: format!("{DIR}/Ship.geometry")
        }
    );
    assert!(e.to_string().contains("rs_turret"), "{e}");

    let e = find("NoMaterial.model");
    assert_eq!(e.render_set_name(), Some("rs_hull"));
    assert_eq!(
        e.missing(),
        &Missing::Material {
            mfm_path_id: db.path_id(&format!("{DIR}/Gone.mfm"))
        }
    );

    let e = find("Orphan.model");
    assert_eq!(
        e.missing(),
        &Missing::Visual {
            id: db.path_id(&format!("{DIR}/Nowhere.visual"))
        }
    );
    let e = find("Unknown.model");
    assert_eq!(e.missing(), &Missing::Prototype);
    assert_eq!(errors.len(), 5);
    // A material is not a model.
    let e = resolver.resolve_path(&w.hull_mfm).unwrap_err();
    assert!(matches!(e.missing(), Missing::NotAModel { .. }), "{e}");
}

#[test]
fn a_geometry_path_leaving_the_root_is_refused() {
    let mut b = AssetsBuilder::new();
    let visual = b.path("content/v.visual").unwrap();
    let escape = 0x00E5_CA9E;
    b.path_entry(escape, 0, "..");
    b.prototype(
        visual,
        VisualFields {
            merged_geometry_path_id: escape,
            ..Default::default()
        },
    )
    .unwrap();
    let bytes = b.to_bytes().unwrap();
    let db = AssetsDb::from_bytes(&bytes).unwrap();
    let resolver = ModelResolver::new(db, Path::new("/nonexistent-root"));
    let model = resolver.resolve(visual).unwrap();
    let e = GeometryCache::new().load(&resolver, &model).unwrap_err();
    assert_eq!(e.missing(), &Missing::UnsafePath { path: "..".into() });
}

#[test]
fn resolving_with_a_warm_cache_allocates_nothing() {
    let w = world("alloc");
    let db = AssetsDb::from_bytes(&w.assets).unwrap();
    let resolver = ModelResolver::new(db, &w.root);
    let mut cache = GeometryCache::new();
    let path = format!("{DIR}/Ship.model");
    let pass = |cache: &mut GeometryCache| {
        let model = resolver.resolve_path(&path).unwrap();
        let geometry = cache.load(&resolver, &model).unwrap();
        let mut sum = 0usize;
        for node in model.nodes().unwrap() {
            sum += node.name.map_or(0, str::len) + node.parent.map_or(0, usize::from);
        }
        for lod in model.lods().unwrap() {
            for set in model.lod_render_sets(lod.unwrap().index).unwrap() {
                let set = set.unwrap();
                for p in set.material.properties().unwrap() {
                    sum += usize::from(p.unwrap().kind);
                }
                sum += model
                    .render_set_nodes(&set)
                    .unwrap()
                    .flatten()
                    .sum::<usize>();
                let draw = geometry.draw(&model, &set).unwrap();
                sum += draw.vertices.len() + draw.indices.len();
            }
        }
        sum
    };
    let (cold, first) = counting::allocations(|| pass(&mut cache));
    assert!(cold > 0, "the cache maps and decodes the file");
    let (warm, second) = counting::allocations(|| pass(&mut cache));
    assert_eq!(warm, 0, "a warm cache and borrowed views allocate nothing");
    assert_eq!(first, second);
}

/// The size of the PNG image of a texture, embedded in the GLB's binary chunk.
fn embedded_size(texture: gltf::Texture<'_>, blob: &[u8]) -> (u32, u32) {
    let gltf::image::Source::View { view, .. } = texture.source().source() else {
        panic!("the image is not embedded");
    };
    let png = &blob[view.offset()..view.offset() + view.length()];
    let reader = png::Decoder::new(std::io::Cursor::new(png))
        .read_info()
        .unwrap();
    (reader.info().width, reader.info().height)
}

#[test]
fn a_materials_maps_are_textures_from_the_root_or_the_install_and_a_missing_one_is_a_warning() {
    let w = world("textures");
    let db = AssetsDb::from_bytes(&w.assets).unwrap();
    let glb = ship_glb(&w, &ModelGlbOptions::default());
    // Hull_a.dds and Hull_n.dds; Hull_mg.dds is named but missing, and said so.
    assert_eq!(glb.textures, 2);
    assert_eq!(glb.warnings.len(), 1, "{:?}", glb.warnings);
    assert!(
        glb.warnings[0].contains(&format!("{DIR}/Hull_mg.dds"))
            && glb.warnings[0].contains("missing"),
        "{}",
        glb.warnings[0]
    );
    let gltf = gltf::Gltf::from_slice(&glb.bytes).unwrap();
    let blob = gltf.blob.as_deref().unwrap();
    let hull = gltf
        .materials()
        .find(|m| m.name() == Some(&*w.hull_mfm))
        .unwrap();
    let surface = hull.pbr_metallic_roughness();
    // The sizes the generator wrote (TEXTURES), read back from the PNGs.
    let base = surface.base_color_texture().unwrap().texture();
    assert_eq!(embedded_size(base, blob), (16, 8));
    let normal = hull.normal_texture().unwrap().texture();
    assert_eq!(
        embedded_size(normal, blob),
        (16, 16),
        "the .dd2 tier, the largest"
    );
    assert!(surface.metallic_roughness_texture().is_none());
    assert_eq!(surface.metallic_factor(), 0.0, "no _mg: a dielectric");
    assert!(hull.double_sided(), "doubleSided true");
    let turret = gltf
        .materials()
        .find(|m| m.name() == Some(&*w.turret_mfm))
        .unwrap();
    assert!(
        turret
            .pbr_metallic_roughness()
            .base_color_texture()
            .is_none()
    );
    assert!(!turret.double_sided());

    // No textures: no image, no warning.
    let none = ModelGlbOptions {
        textures: TextureMode::None,
        ..Default::default()
    };
    let bare = ship_glb(&w, &none);
    assert_eq!((bare.textures, bare.warnings.len()), (0, 0));
    assert_eq!(
        gltf::Gltf::from_slice(&bare.bytes)
            .unwrap()
            .images()
            .count(),
        0
    );

    // External: the same PNGs, named by URI under the prefix.
    let external = ModelGlbOptions {
        textures: TextureMode::External,
        texture_uri_prefix: "../tex/".to_owned(),
        ..Default::default()
    };
    let beside = ship_glb(&w, &external);
    let paths: Vec<&str> = beside.images.iter().map(|i| i.path.as_str()).collect();
    assert_eq!(
        paths,
        [
            format!("{DIR}/Hull_a.png"),
            format!("{DIR}/Hull_n.normal.png")
        ]
    );
    let uris: Vec<String> = gltf::Gltf::from_slice(&beside.bytes)
        .unwrap()
        .images()
        .map(|i| match i.source() {
            gltf::image::Source::Uri { uri, .. } => uri.to_owned(),
            gltf::image::Source::View { .. } => panic!("embedded"),
        })
        .collect();
    assert_eq!(
        uris,
        paths
            .iter()
            .map(|p| format!("../tex/{p}"))
            .collect::<Vec<_>>()
    );

    // The same files inside an install (tiers looked up in it): the same GLB, byte for byte.
    let mut writer = PfsWriter::new("textures_0001.pkg");
    for name in ["Ship.geometry", "Hull_a.dds", "Hull_n.dds", "Hull_n.dd2"] {
        let bytes = std::fs::read(w.root.join("res").join(DIR).join(name)).unwrap();
        writer
            .add(&format!("{DIR}/{name}"), &bytes, Compression::Deflate)
            .unwrap();
    }
    let archive = writer.finish().unwrap();
    let nowhere = std::env::temp_dir().join("gamebin-no-such-root");
    // Its volume missing: the model's error names the volume, for a batch to count such models.
    let no_volume = GameInstall::from_memory(
        vec![("textures.idx".into(), archive.idx.clone())],
        Vec::new(),
    )
    .unwrap();
    let resolver = ModelResolver::new(db, &nowhere).with_install(&no_volume);
    let model = resolver.resolve_path(&format!("{DIR}/Ship.model")).unwrap();
    let error = GeometryCache::new().load(&resolver, &model).unwrap_err();
    match error.missing() {
        Missing::InstallFile {
            volume: Some(volume),
            reason,
            ..
        } => {
            assert!(volume.ends_with("textures_0001.pkg"), "{volume}");
            // The install's message, without the path the model's error gives already.
            assert!(reason.starts_with("its volume "), "{reason}");
            assert!(reason.contains("cannot be opened"), "{reason}");
        }
        other => panic!("{other:?}"),
    }
    let install =
        GameInstall::from_memory(vec![("textures.idx".into(), archive.idx)], archive.volumes)
            .unwrap();
    let from_install = ModelResolver::new(db, &nowhere).with_install(&install);
    let mut install_cache = GeometryCache::new();
    let model = from_install
        .resolve_path(&format!("{DIR}/Ship.model"))
        .unwrap();
    let geometry = install_cache.load(&from_install, &model).unwrap();
    // With and without a size limit: 8 px picks Hull_n.dds over its 16-px tier (Hull_a.dds has
    // one 16x8 level, kept as the smallest there is).
    let limited = ModelGlbOptions {
        max_texture: Some(8),
        ..Default::default()
    };
    for options in [ModelGlbOptions::default(), limited] {
        let packed = model_to_glb(&from_install, &model, &geometry, &options).unwrap();
        assert_eq!(packed.warnings.len(), 1, "{:?}", packed.warnings);
        let from_folder = ship_glb(&w, &options);
        assert!(
            packed.bytes == from_folder.bytes,
            "the install's GLB differs from the folder's ({:?})",
            options.max_texture
        );
        if options.max_texture.is_some() {
            let gltf = gltf::Gltf::from_slice(&packed.bytes).unwrap();
            let blob = gltf.blob.as_deref().unwrap();
            let hull = gltf.materials().find(|m| m.name() == Some(&*w.hull_mfm));
            let normal = hull.unwrap().normal_texture().unwrap().texture();
            assert_eq!(
                embedded_size(normal, blob),
                (8, 8),
                "Hull_n.dds within 8 px"
            );
        }
    }
    std::fs::remove_dir_all(&w.root).unwrap();
}

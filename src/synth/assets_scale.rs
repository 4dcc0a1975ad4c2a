//! A deterministic `assets.bin` at the real file's scale, for benchmarks and scale tests: the seed's
//! layout example has 786,433 string buckets, 393,241 resource-to-prototype buckets, 246,065 paths
//! and ten databases with about 131 MB of records. Ships, effects and lights are laid out in a
//! realistic tree (`content/gameplay/<nation>/ship/<class>/<ID>/<ID>.visual` …), visuals carry tens
//! of nodes with render sets and LODs, materials a handful of typed properties.
//!
//! Generated on demand (`gamebin synth assets --scale full -o FILE`, or under `target/` by the
//! benches); never committed.

use super::assets::{animation, translation};
use super::ship_textures::{MAPS, ShipTexture, material_textures};
use crate::hash::murmur3_32;
use crate::wows::assets::PrototypeType;
use crate::wows::assets::model::AssetsBuilder;
use crate::wows::assets::{
    AtlasContourFields, BoundsFields, ChannelFields, DyeFields, EffectFields, EffectMetadataFields,
    EffectPresetFields, LodFields, MODEL_LAYOUT, MaterialFields, ModelFields, NodeFields,
    PointLightFields, PropertyFields, PropertyValue, RenderSetFields, SkeletonExtenderFields,
    VelocityFieldFields, VisualFields,
};
use crate::write_error::WriteResult as Result;

/// How big a file to make.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scale {
    /// The real file's table sizes (about 170 MB).
    Full,
    /// A thousandth-ish of it (2,461 paths), for tests.
    Small,
}

impl Scale {
    /// (paths, string buckets, prototype buckets, nodes per visual).
    const fn shape(self) -> (usize, usize, usize, usize) {
        match self {
            Scale::Full => (246_065, 786_433, 393_241, 60),
            Scale::Small => (2_461, 7_867, 3_931, 12),
        }
    }
}

/// splitmix64: small, fast, deterministic.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
    fn float(&mut self) -> f32 {
        (self.next() >> 40) as f32 / (1u64 << 24) as f32
    }
}

const NATIONS: [&str; 12] = [
    "japan",
    "usa",
    "ussr",
    "germany",
    "uk",
    "france",
    "italy",
    "pan_asia",
    "europe",
    "commonwealth",
    "pan_america",
    "netherlands",
];
const CLASSES: [&str; 5] = [
    "destroyer",
    "cruiser",
    "battleship",
    "aircarrier",
    "submarine",
];
const PARTS: [&str; 6] = ["hull", "deck", "bridge", "funnel", "mast", "gun"];
const SUFFIXES: [&str; 8] = [
    "_mesh", "_shape", "_HP", "_dummy", "_lod0", "_lod1", "_col", "_fx",
];

/// The generated file's bytes.
pub fn synth(scale: Scale) -> Result<Vec<u8>> {
    Ok(synth_world(scale)?.assets)
}

/// One ship group in this many is changed by [`synth_patched`].
pub const PATCH_EVERY: usize = 20;

/// Whether [`synth_patched`] changes group `group`: every [`PATCH_EVERY`]-th, offset by one so
/// that the group is a ship's.
pub const fn is_patched(group: usize) -> bool {
    group % PATCH_EVERY == 1
}

/// The file [`synth`] makes, as a game patch would change it — the second file of a `diff`
/// benchmark and test. In every group [`is_patched`] names (`<dir>/<ID>` from [`ship_dir`]), and
/// nowhere else: the `<ID>_hull.mfm` material's sort order is 1 instead of 0, the
/// `<ID>_bridge_a.dds` path is gone (the bridge material still names its id), and a
/// `<ID>_patch.visual` VisualPrototype is new (so every visual after the first patched group
/// sits at another position in its database, as in a real patch). Path count, random draws and
/// everything else stay as in [`synth`].
pub fn synth_patched(scale: Scale) -> Result<Vec<u8>> {
    Ok(synth_world_with(scale, true, false)?.assets)
}

/// The generated `assets.bin` and the ship models it holds, each with the `.geometry` its visual
/// names (see [`crate::synth::model_world`] for the files themselves).
#[derive(Debug, Clone)]
pub struct SynthAssets {
    /// The `assets.bin`.
    pub assets: Vec<u8>,
    /// Every ModelPrototype, in the order written.
    pub models: Vec<SynthModel>,
    /// The textures its materials name, each once, by path ([`synth_world_textured`]; empty
    /// otherwise).
    pub textures: Vec<ShipTexture>,
}

/// One ship model of the generated file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SynthModel {
    /// The group it was made in: the seed of its meshes.
    pub group: usize,
    /// Full path of the ModelPrototype (`content/…/ID.model`).
    pub model_path: String,
    /// Full path of its VisualPrototype.
    pub visual_path: String,
    /// Full path of the visual's `.geometry`.
    pub geometry_path: String,
}

/// The generated file with the list of its models.
pub fn synth_world(scale: Scale) -> Result<SynthAssets> {
    synth_world_with(scale, false, false)
}

/// [`synth_world`] whose ship materials name real textures, shared between ships
/// ([`crate::synth::ship_textures`]): every material its four maps, each map a path of the
/// file (the world of [`synth_world`] names one albedo per material, by a path no file has,
/// and its other maps by ids the path tree lacks; its goldens keep it so). Everything else —
/// models, visuals, meshes, path count — is [`synth_world`]'s: the paths the textures take are
/// taken from the filler.
pub fn synth_world_textured(scale: Scale) -> Result<SynthAssets> {
    synth_world_with(scale, false, true)
}

/// [`synth_world`], with `patch` the world of [`synth_patched`], with `textured` the world of
/// [`synth_world_textured`].
pub(crate) fn synth_world_with(scale: Scale, patch: bool, textured: bool) -> Result<SynthAssets> {
    let (paths_target, strings_capacity, r2p_capacity, nodes) = scale.shape();
    let mut rng = Rng(0x5EED_A55E_7B1D);
    let mut b = AssetsBuilder::new();
    b.capacities(strings_capacity, r2p_capacity);
    // The published schema hashes of the layouts written (the notes give them for VisualPrototype
    // and MaterialPrototype; the one published for ModelPrototype is the older 0x20-byte layout,
    // not the 0x28 one written here, so that database keeps 0).
    b.schema_hash(PrototypeType::Visual, VISUAL_SCHEMA_HASH);
    b.schema_hash(PrototypeType::Material, MATERIAL_SCHEMA_HASH);
    let mut models = Vec::new();
    let mut textures = std::collections::BTreeSet::new();
    let node_vocabulary = crate::bytes::u64_of(paths_target).max(16);
    let mut group = 0usize;
    while b.path_count() + 16 < paths_target {
        let nation = NATIONS[group % NATIONS.len()];
        match group % 10 {
            // Effects: an effect, its preset and metadata, sometimes a velocity field.
            7 => {
                let dir = format!("content/effects/{nation}/fx_{group:06}");
                let effect = b.path(&format!("{dir}/fx_{group:06}.effect"))?;
                let systems = (0..1 + rng.below(6))
                    .map(|s| {
                        let mut sys = vec![0u8; crate::wows::assets::raw::EFFECT_SYSTEM_SIZE];
                        sys[..8].copy_from_slice(&(s ^ rng.next()).to_le_bytes());
                        sys
                    })
                    .collect();
                b.prototype(
                    effect,
                    EffectFields {
                        max_emitting_duration: rng.float() * 10.0,
                        systems,
                    },
                )?;
                let preset = b.path(&format!("{dir}/fx_{group:06}.fxpreset"))?;
                b.prototype(
                    preset,
                    EffectPresetFields {
                        high_id: rng.next(),
                        low_id: rng.next(),
                    },
                )?;
                let meta = b.path(&format!("{dir}/fx_{group:06}.fxmeta"))?;
                let channels = (0..1 + rng.below(4))
                    .map(|c| ChannelFields {
                        name: format!("channel_{c}"),
                        min: 0.0,
                        max: 1.0 + u16::try_from(c).map_or(f32::MAX, f32::from),
                        default: 0.5,
                        kind: u32::try_from(c).unwrap_or(u32::MAX),
                    })
                    .collect();
                b.prototype(meta, EffectMetadataFields { channels })?;
                if group % 40 == 7 {
                    let field = b.path(&format!("{dir}/fx_{group:06}.vfield"))?;
                    // The low 16 bits of each random word.
                    let velocities = (0..512)
                        .map(|_| {
                            let [lo, hi, ..] = rng.next().to_le_bytes();
                            u16::from_le_bytes([lo, hi])
                        })
                        .collect();
                    b.prototype(
                        field,
                        VelocityFieldFields {
                            dimensions: [8, 8, 8],
                            velocities,
                        },
                    )?;
                }
                for t in 0..2 {
                    b.path(&format!("{dir}/fx_{group:06}_{t}.dds"))?;
                }
            }
            // Lights and GUI atlases.
            9 => {
                let dir = format!("content/location/{nation}/lights_{group:06}");
                for l in 0..2 {
                    let light = b.path(&format!("{dir}/lamp_{l}.light"))?;
                    b.prototype(
                        light,
                        PointLightFields {
                            color_animation: animation(
                                1.0,
                                true,
                                &[(0.0, [1.0, 1.0, 1.0, 1.0]), (1.0, [1.0, 0.5, 0.2, 1.0])],
                            ),
                            radius_animation: animation(1.0, true, &[(0.0, 2.0), (1.0, 4.0)]),
                            color: [1.0, 0.8, 0.6, 1.0],
                            local_position: [rng.float(), rng.float(), rng.float()],
                            radius: 3.0,
                            min_quality: 1,
                            animated_color: l == 0,
                            animated_radius: l == 1,
                        },
                    )?;
                }
                let atlas = b.path(&format!("content/gui/atlas_{group:06}.contour"))?;
                let frames = (0..1 + rng.below(3))
                    .map(|_| (0..4).map(|_| [rng.float(), rng.float()]).collect())
                    .collect();
                b.prototype(atlas, AtlasContourFields { frames })?;
                for t in 0..3 {
                    b.path(&format!("{dir}/lamp_{t}.dds"))?;
                }
            }
            // A ship part: visual, model, geometry, materials, textures.
            _ => {
                let (dir, id) = ship_dir(group);
                let patched = patch && is_patched(group);
                let geometry = b.path(&format!("{dir}/{id}.geometry"))?;
                let mut mfms = Vec::new();
                for (m, part) in PARTS.iter().take(3).enumerate() {
                    let mfm = b.path(&format!("{dir}/{id}_{part}.mfm"))?;
                    let maps = if textured {
                        let nation = (group % NATIONS.len(), nation);
                        let class = CLASSES[(group / 12) % CLASSES.len()];
                        let mut maps = Vec::with_capacity(MAPS.len());
                        for (texture, (property, _)) in
                            material_textures(nation, class, m).into_iter().zip(MAPS)
                        {
                            maps.push((property, b.path(&texture.path)?));
                            textures.insert(texture);
                        }
                        maps
                    } else {
                        let texture_path = format!("{dir}/{id}_{part}_a.dds");
                        let texture = if patched && *part == "bridge" {
                            crate::hash::city_hash_64(texture_path.as_bytes())
                        } else {
                            b.path(&texture_path)?
                        };
                        vec![
                            ("diffuseMap", texture),
                            ("normalMap", texture ^ 1),
                            ("metallicGlossMap", texture ^ 2),
                        ]
                    };
                    let mut fields = material(&mut rng, &maps, m);
                    if patched && *part == "hull" {
                        fields.sort_order = 1;
                    }
                    b.prototype(mfm, fields)?;
                    mfms.push(mfm);
                }
                if patched {
                    // A new record among the visuals: every later visual moves in its database.
                    let added = b.path(&format!("{dir}/{id}_patch.visual"))?;
                    let visual = super::assets::example_visual(geometry, mfms[0]);
                    b.prototype(added, visual)?;
                }
                let visual = b.path(&format!("{dir}/{id}.visual"))?;
                let fields = visual_fields(&mut rng, nodes, node_vocabulary, geometry, &mfms);
                b.prototype(visual, fields)?;
                let mut extenders = Vec::new();
                if group % 10 == 3 {
                    let skel = b.path(&format!("{dir}/{id}.skel"))?;
                    let extender = SkeletonExtenderFields {
                        flag: 0,
                        names: (0..4).map(|k| Some(format!("HP_ext_{k}"))).collect(),
                        parents: vec![Some("Scene Root".to_string()); 4],
                        matrices: (0..4u8)
                            .map(|k| translation([f32::from(k), 0.0, 0.0]))
                            .collect(),
                    };
                    b.prototype(skel, extender)?;
                    extenders.push(skel);
                }
                let model_path = format!("{dir}/{id}.model");
                let model = b.path(&model_path)?;
                models.push(SynthModel {
                    group,
                    model_path,
                    visual_path: format!("{dir}/{id}.visual"),
                    geometry_path: format!("{dir}/{id}.geometry"),
                });
                let dyes = if group.is_multiple_of(5) {
                    vec![DyeFields {
                        matter_id: murmur3_32(b"camo", 0),
                        replaces_id: murmur3_32(PARTS[0].as_bytes(), 0),
                        tints: vec![Some("tint_camo_1".into()), Some("tint_camo_2".into())],
                        tint_materials: vec![mfms[0], mfms[1]],
                    }]
                } else {
                    Vec::new()
                };
                b.prototype(
                    model,
                    ModelFields {
                        layout: MODEL_LAYOUT,
                        visual_resource_id: visual,
                        misc_type: u8::try_from(group % 3).unwrap_or(0),
                        skeleton_extenders: extenders,
                        animations: Vec::new(),
                        dyes,
                    },
                )?;
            }
        }
        group += 1;
    }
    // Top up with textures in one directory until the count is exact.
    let mut t = 0;
    while b.path_count() < paths_target {
        b.path(&format!(
            "content/gameplay/common/textures/filler_{t:05}.dds"
        ))?;
        t += 1;
    }
    Ok(SynthAssets {
        assets: b.to_bytes()?,
        models,
        textures: textures.into_iter().collect(),
    })
}

/// The published schema hash of the VisualPrototype layout (0x70 bytes).
pub const VISUAL_SCHEMA_HASH: u32 = 0x3167_064B;
/// The published schema hash of the MaterialPrototype layout (0x78 bytes).
pub const MATERIAL_SCHEMA_HASH: u32 = 2_840_859_861;

/// The folder and id of group `group`'s ship: `content/gameplay/<nation>/ship/<class>/<ID>`.
pub fn ship_dir(group: usize) -> (String, String) {
    let nation = NATIONS[group % NATIONS.len()];
    let class = CLASSES[(group / 12) % CLASSES.len()];
    let initial = nation.get(..1).unwrap_or_default().to_ascii_uppercase();
    let id = format!("{initial}{group:05}");
    (format!("content/gameplay/{nation}/ship/{class}/{id}"), id)
}

/// The parts of every ship visual, one render set each (`rs_<part>`), in order; the last is
/// skinned.
pub const SHIP_PARTS: [&str; 6] = PARTS;

/// The (vertices, indices) mapping ids of render set `i` (part `SHIP_PARTS[i]`).
pub fn part_mapping_ids(i: usize) -> (u32, u32) {
    let part = PARTS.get(i).copied().unwrap_or_default();
    (
        murmur3_32(format!("{part}_{i}.vertices").as_bytes(), 0),
        murmur3_32(format!("{part}_{i}.indices").as_bytes(), 0),
    )
}

/// Material `m` of a ship: its texture `maps` (property name, path id) and a few typed values.
fn material(rng: &mut Rng, maps: &[(&str, u64)], m: usize) -> MaterialFields {
    let mut properties: Vec<PropertyFields> = maps
        .iter()
        .map(|&(name, id)| PropertyFields::new(name, PropertyValue::Texture(id)))
        .collect();
    properties.extend([
        PropertyFields::new("alphaTestEnable", PropertyValue::Bool(m == 0)),
        PropertyFields::new("g_glossiness", PropertyValue::Float(rng.float())),
        PropertyFields::new("g_tileScale", PropertyValue::Vec2([1.0, 1.0])),
        PropertyFields::new(
            "g_tintColor",
            PropertyValue::Vec4([rng.float(), rng.float(), rng.float(), 1.0]),
        ),
    ]);
    if m == 2 {
        properties.push(PropertyFields::new(
            "g_uvTransform",
            PropertyValue::Mat4(translation([0.0; 3])),
        ));
    }
    MaterialFields {
        properties,
        fx_path_id: 0,
        collision_flags: 0,
        sort_order: 0,
    }
}

fn visual_fields(
    rng: &mut Rng,
    nodes: usize,
    vocabulary: u64,
    geometry: u64,
    mfms: &[u64],
) -> VisualFields {
    let nodes: Vec<NodeFields> = (0..nodes)
        .map(|k| {
            let word = rng.below(vocabulary);
            NodeFields {
                name: if k == 0 {
                    Some("Scene Root".to_string())
                } else {
                    let suffix = usize::try_from(word % 8).ok().and_then(|k| SUFFIXES.get(k));
                    Some(format!(
                        "node_{word:05x}{}",
                        suffix.copied().unwrap_or_default()
                    ))
                },
                matrix: translation([rng.float(), rng.float(), rng.float()]),
                parent: if k == 0 {
                    None
                } else {
                    u16::try_from(rng.below(crate::bytes::u64_of(k))).ok()
                },
            }
        })
        .collect();
    let render_sets: Vec<RenderSetFields> = PARTS
        .iter()
        .enumerate()
        .map(|(i, part)| RenderSetFields {
            name: Some(format!("rs_{part}")),
            material: Some(format!("mat_{part}")),
            vertices_mapping_id: part_mapping_ids(i).0,
            indices_mapping_id: part_mapping_ids(i).1,
            material_mfm_path_id: mfms.get(i % mfms.len().max(1)).copied().unwrap_or(0),
            skinned: i == 5,
            nodes: nodes.iter().take(4).map(|n| n.name.clone()).collect(),
        })
        .collect();
    let lods = [500.0, 1500.0, 5000.0]
        .iter()
        .enumerate()
        .map(|(l, &extent)| LodFields {
            extent,
            casts_shadow: l == 0,
            render_sets: render_sets.iter().skip(l).map(|r| r.name.clone()).collect(),
        })
        .collect();
    VisualFields {
        nodes,
        merged_geometry_path_id: geometry,
        underwater: false,
        abovewater: true,
        bounding_box: BoundsFields {
            min: [-10.0, -5.0, -80.0],
            max: [10.0, 25.0, 80.0],
        },
        render_sets,
        lods,
    }
}

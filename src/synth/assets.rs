//! The writer's examples: small builders with every record type and the older layouts (the
//! committed fixtures, `fixtures/wows-assets/`), and the helpers they are written with.

use core::mem::size_of;

use zerocopy::IntoBytes;
use zerocopy::little_endian::U64;

use crate::bytes::u64_of;
use crate::hash::murmur3_32;
use crate::wows::assets::model::{AssetsBuilder, ChecksumKind};
use crate::wows::assets::raw::{BlobHeader, EFFECT_SYSTEM_SIZE};
use crate::wows::assets::{
    AnimationFields, AtlasContourFields, BoundsFields, ChannelFields, DyeFields, EffectFields,
    EffectMetadataFields, EffectPresetFields, KeyFields, LodFields, MODEL_LAYOUT, MODEL_LAYOUT_V1,
    MaterialFields, ModelFields, NodeFields, PointLightFields, PropertyFields, PropertyValue,
    PrototypeType, RenderSetFields, SkeletonExtenderFields, VelocityFieldFields, VisualFields,
};
use crate::write_error::WriteResult as Result;

/// The identity matrix translated by `t`.
pub fn translation(t: [f32; 3]) -> [f32; 16] {
    let mut m = [0.0; 16];
    m[0] = 1.0;
    m[5] = 1.0;
    m[10] = 1.0;
    m[15] = 1.0;
    m[12] = t[0];
    m[13] = t[1];
    m[14] = t[2];
    m
}

/// A point light's animation of `period` through `keys` (time, value).
pub fn animation<T: Copy>(period: f32, repeated: bool, keys: &[(f32, T)]) -> AnimationFields<T> {
    AnimationFields {
        period,
        repeated,
        points: keys
            .iter()
            .map(|&(time, value)| KeyFields { time, value })
            .collect(),
    }
}

/// A visual like the independent sample's: two nodes, one render set, one LOD.
pub fn example_visual(geometry_id: u64, mfm_id: u64) -> VisualFields {
    VisualFields {
        nodes: vec![
            NodeFields {
                name: Some("Scene Root".into()),
                matrix: translation([0.0; 3]),
                parent: None,
            },
            NodeFields {
                name: Some("HP_Test".into()),
                matrix: translation([1.5, 2.5, 3.5]),
                parent: Some(0),
            },
        ],
        merged_geometry_path_id: geometry_id,
        underwater: false,
        abovewater: true,
        bounding_box: BoundsFields {
            min: [-1.0, -2.0, -3.0],
            max: [1.0, 2.0, 3.0],
        },
        render_sets: vec![RenderSetFields {
            name: Some("rs_hull".into()),
            material: Some("mat_hull".into()),
            vertices_mapping_id: murmur3_32(b"Hull.vertices", 0),
            indices_mapping_id: murmur3_32(b"Hull.indices", 0),
            material_mfm_path_id: mfm_id,
            skinned: false,
            nodes: vec![Some("Scene Root".into())],
        }],
        lods: vec![LodFields {
            extent: 500.0,
            casts_shadow: true,
            render_sets: vec![Some("rs_hull".into())],
        }],
    }
}

/// One record of each of the ten types, with every array non-empty, mapped from CityHash64 path
/// ids under `content/gameplay/` (the visual at `content/gameplay/Test.visual`).
pub fn all_prototypes() -> Result<AssetsBuilder> {
    let mut b = AssetsBuilder::new();
    let dir = "content/gameplay";
    let geometry = b.path(&format!("{dir}/Test.geometry"))?;
    let mfm = b.path(&format!("{dir}/Test.mfm"))?;
    let visual = b.path(&format!("{dir}/Test.visual"))?;
    let model = b.path(&format!("{dir}/Test.model"))?;
    let skeleton = b.path(&format!("{dir}/Test.skel"))?;
    b.prototype(
        mfm,
        MaterialFields {
            properties: vec![
                PropertyFields::new("diffuseMap", PropertyValue::Texture(0xDEAD_BEEF_CAFE_F00D)),
                PropertyFields::new("alphaTest", PropertyValue::Bool(true)),
                PropertyFields::new("layer", PropertyValue::Int(-3)),
                PropertyFields::new("flags", PropertyValue::Uint(7)),
                PropertyFields::new("gloss", PropertyValue::Float(0.25)),
                PropertyFields::new("normalMap", PropertyValue::Texture(0x1234)),
                PropertyFields::new("uvScale", PropertyValue::Vec2([2.0, 3.0])),
                PropertyFields::new("tint", PropertyValue::Vec3([0.5, 0.6, 0.7])),
                PropertyFields::new("color", PropertyValue::Vec4([1.0, 0.0, 0.0, 1.0])),
                PropertyFields::new(
                    "uvTransform",
                    PropertyValue::Mat4(translation([4.0, 5.0, 6.0])),
                ),
            ],
            fx_path_id: 0xF0F0,
            collision_flags: 0x11,
            sort_order: -2,
        },
    )?;
    b.prototype(visual, example_visual(geometry, mfm))?;
    b.prototype(
        skeleton,
        SkeletonExtenderFields {
            flag: 1,
            names: vec![Some("HP_Gun".into()), Some("HP_Mast".into())],
            parents: vec![Some("Scene Root".into()), Some("HP_Gun".into())],
            matrices: vec![translation([0.0, 1.0, 0.0]), translation([0.0, 2.0, 0.0])],
        },
    )?;
    b.prototype(
        model,
        ModelFields {
            layout: MODEL_LAYOUT,
            visual_resource_id: visual,
            misc_type: 2,
            skeleton_extenders: vec![skeleton],
            animations: vec![0xA1, 0xA2],
            dyes: vec![DyeFields {
                matter_id: 11,
                replaces_id: 12,
                tints: vec![Some("tint_red".into()), Some("tint_blue".into())],
                tint_materials: vec![0xB1, 0xB2],
            }],
        },
    )?;
    let light = b.path("content/lights/lamp.light")?;
    b.prototype(
        light,
        PointLightFields {
            color_animation: animation(
                2.0,
                true,
                &[(0.0, [1.0, 0.5, 0.25, 1.0]), (1.0, [0.0, 0.0, 1.0, 1.0])],
            ),
            radius_animation: animation(4.0, false, &[(0.0, 3.0), (0.5, 6.0), (1.0, 3.0)]),
            color: [1.0, 0.9, 0.8, 1.0],
            local_position: [1.0, 2.0, 3.0],
            radius: 5.0,
            min_quality: 2,
            animated_color: true,
            animated_radius: true,
        },
    )?;
    let effect = b.path("content/effects/fire.effect")?;
    // A system's first and last bytes marked.
    let mut system = vec![0u8; EFFECT_SYSTEM_SIZE];
    if let Some((first, rest)) = system.split_first_mut() {
        *first = 0xE5;
        if let Some(last) = rest.last_mut() {
            *last = 0x5E;
        }
    }
    b.prototype(
        effect,
        EffectFields {
            max_emitting_duration: 1.5,
            systems: vec![system.clone(), system],
        },
    )?;
    let field = b.path("content/effects/wind.vfield")?;
    b.prototype(
        field,
        VelocityFieldFields {
            dimensions: [2, 2, 1],
            velocities: vec![1, 2, 3, 4],
        },
    )?;
    let preset = b.path("content/effects/fire.preset")?;
    b.prototype(
        preset,
        EffectPresetFields {
            high_id: 0x1111_2222,
            low_id: 0x3333_4444,
        },
    )?;
    let metadata = b.path("content/effects/fire.meta")?;
    b.prototype(
        metadata,
        EffectMetadataFields {
            channels: vec![
                ChannelFields {
                    name: "intensity".into(),
                    min: 0.0,
                    max: 2.0,
                    default: 1.0,
                    kind: 1,
                },
                ChannelFields {
                    name: "size".into(),
                    min: 0.5,
                    max: 4.0,
                    default: 1.0,
                    kind: 2,
                },
            ],
        },
    )?;
    let atlas = b.path("content/gui/atlas.contour")?;
    b.prototype(
        atlas,
        AtlasContourFields {
            frames: vec![
                vec![[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]],
                vec![[0.5, 0.5], [0.75, 0.5]],
            ],
        },
    )?;
    Ok(b)
}

/// Older layouts and odd states: models in the 0x20 layout, a visual database with its known
/// schema hash, a deleted entry, a database of unknown magic, explicit (non-hash) path ids and a
/// CRC32 checksum.
pub fn legacy_layouts() -> Result<AssetsBuilder> {
    let mut b = AssetsBuilder::new();
    b.checksum(ChecksumKind::Crc32)
        .model_layout_v1()
        .schema_hash(PrototypeType::Visual, 0x3167_064B);
    b.path_entry(0x10, 0, "content")
        .path_entry(0x20, 0x10, "ships")
        .path_entry(0x30, 0x20, "Old.model")
        .path_entry(0x40, 0x20, "Old.visual")
        .path_entry(0x50, 0x20, "Gone.model");
    b.prototype(0x40, example_visual(0, 0))?;
    b.prototype(
        0x30,
        ModelFields {
            layout: MODEL_LAYOUT_V1,
            visual_resource_id: 0x40,
            misc_type: 1,
            skeleton_extenders: Vec::new(),
            animations: vec![0xC1],
            dyes: vec![DyeFields {
                matter_id: 1,
                replaces_id: 2,
                tints: vec![Some("tint_old".into())],
                tint_materials: vec![0xD1],
            }],
        },
    )?;
    b.deleted(0x50);
    // One record of 8 bytes the reader cannot decode, after the blob header.
    let mut blob = BlobHeader {
        record_count: U64::new(1),
        header_size: U64::new(u64_of(size_of::<BlobHeader>())),
    }
    .as_bytes()
    .to_vec();
    blob.extend([0xAB; 8]);
    b.unknown_database(murmur3_32(b"FuturePrototype", 0), 0x1234_5678, blob);
    Ok(b)
}

/// The committed fixtures (`fixtures/wows-assets/`).
pub fn fixtures() -> Result<Vec<(&'static str, Vec<u8>)>> {
    Ok(vec![
        ("all_prototypes.assets.bin", all_prototypes()?.to_bytes()?),
        ("legacy_layouts.assets.bin", legacy_layouts()?.to_bytes()?),
    ])
}

/// A small valid file (the `all_prototypes` fixture), for examples and doc tests.
pub fn example_file() -> Vec<u8> {
    all_prototypes()
        .and_then(|b| b.to_bytes())
        .unwrap_or_default()
}

/// The float bits JSON has no number for, and one that JSON numbers must not lose: the quiet
/// NaN, a NaN with a payload, a negative NaN, a signalling NaN, both infinities and `-0.0`.
pub const ODD_FLOAT_BITS: [u32; 7] = [
    0x7fc0_0000,
    0x7fc0_0001,
    0xffc0_0000,
    0x7f80_0001,
    0x7f80_0000,
    0xff80_0000,
    0x8000_0000,
];

/// [`all_prototypes`] with floats of every record type that has them set to [`ODD_FLOAT_BITS`]
/// in turn (from the first again for each record): a visual's first node matrix, its bounding
/// box and LOD extent; a material's float and vector properties; a skeleton extender's first
/// matrix; a point light's colour, position, radius and animations; an effect's emitting
/// duration; every metadata channel's bounds; every atlas point.
pub fn odd_floats() -> Result<AssetsBuilder> {
    use crate::wows::assets::PrototypeFields as F;
    let mut model = all_prototypes()?.to_model();
    for database in &mut model.databases {
        let crate::wows::assets::model::DatabaseRecords::Decoded { records, .. } =
            &mut database.records
        else {
            continue;
        };
        for record in records {
            let mut odd = ODD_FLOAT_BITS.iter().cycle().map(|&b| f32::from_bits(b));
            let mut set = |floats: &mut [f32]| {
                for (f, o) in floats.iter_mut().zip(&mut odd) {
                    *f = o;
                }
            };
            match record {
                F::Visual(v) => {
                    if let Some(node) = v.nodes.first_mut() {
                        set(&mut node.matrix);
                    }
                    set(&mut v.bounding_box.min);
                    set(&mut v.bounding_box.max);
                    for lod in &mut v.lods {
                        set(core::slice::from_mut(&mut lod.extent));
                    }
                }
                F::Material(m) => {
                    for p in &mut m.properties {
                        match &mut p.value {
                            PropertyValue::Float(f) => set(core::slice::from_mut(f)),
                            PropertyValue::Vec2(v) => set(v),
                            PropertyValue::Vec3(v) => set(v),
                            PropertyValue::Vec4(v) => set(v),
                            PropertyValue::Mat4(v) => set(v),
                            _ => {}
                        }
                    }
                }
                F::SkeletonExtender(s) => {
                    if let Some(m) = s.matrices.first_mut() {
                        set(m);
                    }
                }
                F::PointLight(l) => {
                    set(&mut l.color);
                    set(&mut l.local_position);
                    set(core::slice::from_mut(&mut l.radius));
                    set(core::slice::from_mut(&mut l.color_animation.period));
                    for key in &mut l.color_animation.points {
                        set(core::slice::from_mut(&mut key.time));
                        set(&mut key.value);
                    }
                    for key in &mut l.radius_animation.points {
                        set(core::slice::from_mut(&mut key.time));
                        set(core::slice::from_mut(&mut key.value));
                    }
                }
                F::Effect(e) => set(core::slice::from_mut(&mut e.max_emitting_duration)),
                F::EffectMetadata(m) => {
                    for c in &mut m.channels {
                        set(core::slice::from_mut(&mut c.min));
                        set(core::slice::from_mut(&mut c.max));
                        set(core::slice::from_mut(&mut c.default));
                    }
                }
                F::AtlasContour(a) => {
                    for point in a.frames.iter_mut().flatten() {
                        set(point);
                    }
                }
                _ => {}
            }
        }
    }
    AssetsBuilder::from_model(model)
}

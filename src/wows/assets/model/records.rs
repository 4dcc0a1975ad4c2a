//! The record encoders, one per prototype type: each fills the reader's raw record struct from
//! the record's fields and stores its arrays out of line in the database's [`Blob`], names as the
//! MurmurHash3 ids the strings map is keyed by.

use core::mem::{offset_of, size_of};

use zerocopy::IntoBytes;
use zerocopy::little_endian::{F32, I32, I64, U16, U32, U64};

use super::{Blob, NodeNameMaps, name_id};
use crate::bytes::sink::{invalid, narrow};
use crate::bytes::u64_of;
use crate::wows::assets::raw::{
    Animation, AtlasContourProto, Channel, ColorPoint, Contour, Dye, EFFECT_SYSTEM_SIZE,
    EffectMetadataPrototype, EffectPresetPrototype, EffectPrototype, Lod, MaterialPrototype,
    Matrix, ModelPrototype, ModelPrototypeV1, NO_PARENT, Point, PointLightPrototype, RenderSet,
    ScalarPoint, SkeletonExtenderPrototype, VelocityFieldPrototype, VisualPrototype,
};
use crate::wows::assets::{
    AnimationFields, AtlasContourFields, BoundsFields, ChannelFields, DyeFields, EffectFields,
    EffectMetadataFields, EffectPresetFields, KeyFields, LodFields, MODEL_LAYOUT_V1,
    MaterialFields, ModelFields, Name, PointLightFields, PropertyFields, PropertyValue,
    PrototypeFields, RenderSetFields, SkeletonExtenderFields, VelocityFieldFields, VisualFields,
};
use crate::write_error::WriteResult as Result;

impl PropertyValue {
    /// Appends the value as its typed array stores it.
    fn encode(&self, out: &mut Vec<u8>) {
        match *self {
            PropertyValue::Bool(b) => out.push(u8::from(b)),
            PropertyValue::Int(v) => out.extend_from_slice(I32::new(v).as_bytes()),
            PropertyValue::Uint(v) => out.extend_from_slice(U32::new(v).as_bytes()),
            PropertyValue::Float(v) => out.extend_from_slice(F32::new(v).as_bytes()),
            PropertyValue::Texture(v) => out.extend_from_slice(U64::new(v).as_bytes()),
            PropertyValue::Vec2(v) => out.extend_from_slice(floats(v).as_bytes()),
            PropertyValue::Vec3(v) => out.extend_from_slice(floats(v).as_bytes()),
            PropertyValue::Vec4(v) => out.extend_from_slice(floats(v).as_bytes()),
            PropertyValue::Mat4(v) => out.extend_from_slice(floats(v).as_bytes()),
        }
    }
}

/// Little-endian floats, as the records store them.
pub(super) fn floats<const N: usize>(values: [f32; N]) -> [F32; N] {
    values.map(F32::new)
}

pub(super) fn ids(ids: impl IntoIterator<Item = u32>) -> Vec<U32> {
    ids.into_iter().map(U32::new).collect()
}

pub(super) fn ids64(ids: impl IntoIterator<Item = u64>) -> Vec<U64> {
    ids.into_iter().map(U64::new).collect()
}

/// Every string `record` names, in the order they are added to the strings map (a name the
/// reader found missing, `None`, is refused when the record is encoded).
pub(super) fn names<'r>(record: &'r PrototypeFields) -> Vec<&'r str> {
    let mut names: Vec<&'r str> = Vec::new();
    let mut add = |list: &'r [Name]| names.extend(list.iter().filter_map(|n| n.as_deref()));
    match record {
        PrototypeFields::Visual(v) => {
            for n in &v.nodes {
                add(core::slice::from_ref(&n.name));
            }
            for s in &v.render_sets {
                add(core::slice::from_ref(&s.name));
                add(core::slice::from_ref(&s.material));
                add(&s.nodes);
            }
            for l in &v.lods {
                add(&l.render_sets);
            }
        }
        PrototypeFields::Material(m) => {
            for p in &m.properties {
                add(core::slice::from_ref(&p.name));
            }
        }
        PrototypeFields::Model(m) => {
            for d in &m.dyes {
                add(&d.tints);
            }
        }
        PrototypeFields::SkeletonExtender(s) => {
            for (name, parent) in s.names.iter().zip(&s.parents) {
                add(core::slice::from_ref(name));
                add(core::slice::from_ref(parent));
            }
        }
        PrototypeFields::PointLight(_)
        | PrototypeFields::Effect(_)
        | PrototypeFields::VelocityField(_)
        | PrototypeFields::EffectPreset(_)
        | PrototypeFields::EffectMetadata(_)
        | PrototypeFields::AtlasContour(_)
        | PrototypeFields::Raw(_) => {}
    }
    names
}

/// The name id of a name the reader resolved; `None` (an id the strings map lacked) cannot be
/// written back.
pub(super) fn named(name: &Name, what: &'static str) -> Result<u32> {
    name.as_deref().map(name_id).ok_or_else(|| {
        invalid(
            what,
            0,
            "a name missing from the strings map cannot be written",
        )
    })
}

pub(super) fn named_ids(names: &[Name], what: &'static str) -> Result<Vec<U32>> {
    names.iter().map(|n| named(n, what).map(U32::new)).collect()
}

/// A VisualPrototype: the record, its node arrays (the name map in the order `name_maps`
/// gives), then its render sets and LODs.
pub(super) fn encode_visual(b: &mut Blob, v: &VisualFields, name_maps: NodeNameMaps) -> Result<()> {
    let VisualFields {
        merged_geometry_path_id,
        underwater,
        abovewater,
        bounding_box: BoundsFields { min, max },
        nodes,
        render_sets,
        lods,
    } = v;
    let r = b.push_record(
        &VisualPrototype {
            nodes_count: U32::new(narrow(nodes.len(), "VisualPrototype.nodesCount")?),
            pad0: U32::new(0),
            name_map_name_ids_ptr: I64::new(0),
            name_map_node_ids_ptr: I64::new(0),
            name_ids_ptr: I64::new(0),
            matrices_ptr: I64::new(0),
            parent_ids_ptr: I64::new(0),
            merged_geometry_path_id: U64::new(*merged_geometry_path_id),
            underwater: u8::from(*underwater),
            abovewater: u8::from(*abovewater),
            render_sets_count: U16::new(narrow(
                render_sets.len(),
                "VisualPrototype.renderSetsCount",
            )?),
            lods_count: narrow(lods.len(), "VisualPrototype.lodsCount")?,
            pad1: [0; 3],
            bbox_min: floats(*min),
            pad2: U32::new(0),
            bbox_max: floats(*max),
            pad3: U32::new(0),
            render_sets_ptr: I64::new(0),
            lods_ptr: I64::new(0),
        },
        "VisualPrototype",
    )?;
    let name_ids: Vec<U32> = nodes
        .iter()
        .map(|n| named(&n.name, "VisualPrototype.nameIds").map(U32::new))
        .collect::<Result<_>>()?;
    // The name map, sorted by name id for a lookup by binary search (or in node order, as
    // another writer left it).
    let mut map = Vec::with_capacity(nodes.len());
    for (i, id) in name_ids.iter().enumerate() {
        let node_id: u16 = narrow(i, "VisualPrototype.nameMapNodeIds")?;
        map.push((id.get(), node_id));
    }
    if name_maps.is_sorted() {
        map.sort_unstable();
    }
    let field = offset_of!(VisualPrototype, name_map_name_ids_ptr);
    b.record_array(r, field, &ids(map.iter().map(|m| m.0)))?;
    let node_ids: Vec<U16> = map.iter().map(|m| U16::new(m.1)).collect();
    b.record_array(
        r,
        offset_of!(VisualPrototype, name_map_node_ids_ptr),
        &node_ids,
    )?;
    b.record_array(r, offset_of!(VisualPrototype, name_ids_ptr), &name_ids)?;
    let matrices: Vec<Matrix> = nodes.iter().map(|n| floats(n.matrix)).collect();
    b.record_array(r, offset_of!(VisualPrototype, matrices_ptr), &matrices)?;
    let parents: Vec<U16> = nodes
        .iter()
        .map(|n| U16::new(n.parent.unwrap_or(NO_PARENT)))
        .collect();
    b.record_array(r, offset_of!(VisualPrototype, parent_ids_ptr), &parents)?;
    let field = offset_of!(VisualPrototype, render_sets_ptr);
    b.record_table(r, field, render_sets, "RenderSet", |b, at, set| {
        let RenderSetFields {
            name,
            material,
            vertices_mapping_id,
            indices_mapping_id,
            material_mfm_path_id,
            skinned,
            nodes,
        } = set;
        let node_names = named_ids(nodes, "RenderSet.nodeNameIds")?;
        Ok(RenderSet {
            name_id: U32::new(named(name, "RenderSet.nameId")?),
            material_name_id: U32::new(named(material, "RenderSet.materialNameId")?),
            vertices_mapping_id: U32::new(*vertices_mapping_id),
            indices_mapping_id: U32::new(*indices_mapping_id),
            material_mfm_path_id: U64::new(*material_mfm_path_id),
            skinned: u8::from(*skinned),
            nodes_count: narrow(nodes.len(), "RenderSet.nodesCount")?,
            pad: [0; 6],
            node_name_ids_ptr: b.ool_array(
                at,
                offset_of!(RenderSet, node_name_ids_ptr),
                &node_names,
                "RenderSet.nodeNameIdsPtr",
            )?,
        })
    })?;
    let field = offset_of!(VisualPrototype, lods_ptr);
    b.record_table(r, field, lods, "Lod", |b, at, lod| {
        let LodFields {
            extent,
            casts_shadow,
            render_sets,
        } = lod;
        let names = named_ids(render_sets, "Lod.renderSetNames")?;
        Ok(Lod {
            extent: F32::new(*extent),
            casts_shadow: u8::from(*casts_shadow),
            pad: 0,
            render_set_names_count: U16::new(narrow(render_sets.len(), "Lod.renderSetNamesCount")?),
            render_set_names_ptr: b.ool_array(
                at,
                offset_of!(Lod, render_set_names_ptr),
                &names,
                "Lod.renderSetNamesPtr",
            )?,
        })
    })
}

/// A MaterialPrototype: properties sorted into the nine typed arrays.
pub(super) fn encode_material(b: &mut Blob, m: &MaterialFields) -> Result<()> {
    let MaterialFields {
        properties,
        fx_path_id,
        collision_flags,
        sort_order,
    } = m;
    let mut arrays: [Vec<u8>; 9] = Default::default();
    let mut counts = [0u8; 9];
    let mut prop_ids = Vec::with_capacity(properties.len());
    let mut names = Vec::with_capacity(properties.len());
    for PropertyFields { name, kind, value } in properties {
        names.push(U32::new(named(name, "MaterialPrototype.propertyNameIds")?));
        if *kind != value.type_name() {
            return Err(invalid(
                "MaterialPrototype.propertyIds",
                u64::from(value.type_index()),
                "the property's type is not its value's",
            ));
        }
        let kind = value.type_index();
        let slot = usize::from(kind);
        let (Some(count), Some(array)) = (counts.get_mut(slot), arrays.get_mut(slot)) else {
            return Err(invalid(
                "MaterialPrototype.propertyIds",
                u64::from(kind),
                "no such type",
            ));
        };
        // The id keeps 12 bits for the index in its type's array; the count is one byte.
        let index = u16::from(*count);
        *count = count.checked_add(1).ok_or_else(|| {
            invalid(
                "MaterialPrototype.counts",
                u64::from(*count),
                "more than 255 values of one type",
            )
        })?;
        value.encode(array);
        prop_ids.push(U16::new((index << 4) | u16::from(kind)));
    }
    let r = b.push_record(
        &MaterialPrototype {
            property_count: U16::new(narrow(properties.len(), "MaterialPrototype.propertyCount")?),
            counts,
            pad: [0; 5],
            property_name_ids_ptr: I64::new(0),
            property_ids_ptr: I64::new(0),
            values_ptrs: [I64::new(0); 9],
            fx_path_id: U64::new(*fx_path_id),
            collision_flags: U32::new(*collision_flags),
            sort_order: I32::new(*sort_order),
        },
        "MaterialPrototype",
    )?;
    b.record_array(
        r,
        offset_of!(MaterialPrototype, property_name_ids_ptr),
        &names,
    )?;
    b.record_array(
        r,
        offset_of!(MaterialPrototype, property_ids_ptr),
        &prop_ids,
    )?;
    let values_ptrs = offset_of!(MaterialPrototype, values_ptrs);
    for (k, array) in arrays.iter().enumerate() {
        b.record_array(r, values_ptrs + k * size_of::<I64>(), array)?;
    }
    Ok(())
}

/// A ModelPrototype in the database's layout (0x28, or the older 0x20 without skeleton
/// extenders: fields in the other layout, or skeleton extenders for the older one, are refused).
pub(super) fn encode_model(b: &mut Blob, m: &ModelFields) -> Result<()> {
    let ModelFields {
        layout,
        visual_resource_id,
        misc_type,
        skeleton_extenders,
        animations,
        dyes,
    } = m;
    if *layout != b.model_layout() {
        return Err(invalid(
            "ModelPrototype.layout",
            u64_of(b.item_size),
            "the database's model layout is not this record's",
        ));
    }
    let animations_count = narrow(animations.len(), "ModelPrototype.animationsCount")?;
    let dyes_count = narrow(dyes.len(), "ModelPrototype.dyesCount")?;
    let (r, animations_ptr, dyes_ptr) = if *layout == MODEL_LAYOUT_V1 {
        if !skeleton_extenders.is_empty() {
            return Err(invalid(
                "ModelPrototypeV1.skeletonExtenders",
                u64_of(skeleton_extenders.len()),
                "the older model layout has no skeleton extenders",
            ));
        }
        let r = b.push_record(
            &ModelPrototypeV1 {
                visual_resource_id: U64::new(*visual_resource_id),
                misc_type: *misc_type,
                animations_count,
                dyes_count,
                pad: [0; 5],
                animations_ptr: I64::new(0),
                dyes_ptr: I64::new(0),
            },
            "ModelPrototypeV1",
        )?;
        (
            r,
            offset_of!(ModelPrototypeV1, animations_ptr),
            offset_of!(ModelPrototypeV1, dyes_ptr),
        )
    } else {
        let r = b.push_record(
            &ModelPrototype {
                visual_resource_id: U64::new(*visual_resource_id),
                skeleton_extender_count: narrow(
                    skeleton_extenders.len(),
                    "ModelPrototype.skeletonExtenderCount",
                )?,
                misc_type: *misc_type,
                animations_count,
                dyes_count,
                pad: U32::new(0),
                skeleton_extender_ids_ptr: I64::new(0),
                animations_ptr: I64::new(0),
                dyes_ptr: I64::new(0),
            },
            "ModelPrototype",
        )?;
        let extenders = ids64(skeleton_extenders.iter().copied());
        b.record_array(
            r,
            offset_of!(ModelPrototype, skeleton_extender_ids_ptr),
            &extenders,
        )?;
        (
            r,
            offset_of!(ModelPrototype, animations_ptr),
            offset_of!(ModelPrototype, dyes_ptr),
        )
    };
    b.record_array(r, animations_ptr, &ids64(animations.iter().copied()))?;
    b.record_table(r, dyes_ptr, dyes, "Dye", |b, at, dye| {
        let DyeFields {
            matter_id,
            replaces_id,
            tints,
            tint_materials,
        } = dye;
        if tints.len() != tint_materials.len() {
            return Err(invalid(
                "Dye.tintsCount",
                u64_of(tint_materials.len()),
                "a dye's tint names and tint materials differ in number",
            ));
        }
        let names = named_ids(tints, "Dye.tintNameIds")?;
        let materials = ids64(tint_materials.iter().copied());
        Ok(Dye {
            matter_id: U32::new(*matter_id),
            replaces_id: U32::new(*replaces_id),
            tints_count: U32::new(narrow(tints.len(), "Dye.tintsCount")?),
            pad: U32::new(0),
            tint_name_ids_ptr: b.ool_array(
                at,
                offset_of!(Dye, tint_name_ids_ptr),
                &names,
                "Dye.tintNameIdsPtr",
            )?,
            tint_material_ids_ptr: b.ool_array(
                at,
                offset_of!(Dye, tint_material_ids_ptr),
                &materials,
                "Dye.tintMaterialIdsPtr",
            )?,
        })
    })
}

/// A SkeletonExtenderPrototype: the record, then its names, parents' names and matrices.
pub(super) fn encode_skeleton_extender(b: &mut Blob, s: &SkeletonExtenderFields) -> Result<()> {
    let SkeletonExtenderFields {
        flag,
        names,
        parents,
        matrices,
    } = s;
    if parents.len() != names.len() || matrices.len() != names.len() {
        return Err(invalid(
            "SkeletonExtenderPrototype.nodeCount",
            u64_of(names.len()),
            "names, parents and matrices differ in number",
        ));
    }
    let r = b.push_record(
        &SkeletonExtenderPrototype {
            flag: U16::new(*flag),
            node_count: U16::new(narrow(names.len(), "SkeletonExtenderPrototype.nodeCount")?),
            pad: U32::new(0),
            name_ids_ptr: I64::new(0),
            parent_name_ids_ptr: I64::new(0),
            matrices_ptr: I64::new(0),
        },
        "SkeletonExtenderPrototype",
    )?;
    let names = named_ids(names, "SkeletonExtenderPrototype.nameIds")?;
    let field = offset_of!(SkeletonExtenderPrototype, name_ids_ptr);
    b.record_array(r, field, &names)?;
    let parents = named_ids(parents, "SkeletonExtenderPrototype.parentNameIds")?;
    let field = offset_of!(SkeletonExtenderPrototype, parent_name_ids_ptr);
    b.record_array(r, field, &parents)?;
    let matrices: Vec<Matrix> = matrices.iter().map(|m| floats(*m)).collect();
    let field = offset_of!(SkeletonExtenderPrototype, matrices_ptr);
    b.record_array(r, field, &matrices)?;
    Ok(())
}

/// A PointLightPrototype: the record, then the colour and radius keyframes.
pub(super) fn encode_point_light(b: &mut Blob, p: &PointLightFields) -> Result<()> {
    let PointLightFields {
        color,
        local_position,
        radius,
        min_quality,
        animated_color,
        animated_radius,
        color_animation,
        radius_animation,
    } = p;
    fn animation<T>(a: &AnimationFields<T>) -> Result<Animation> {
        let AnimationFields {
            period,
            repeated,
            points,
        } = a;
        Ok(Animation {
            period: F32::new(*period),
            repeated: u8::from(*repeated),
            pad0: [0; 11],
            points_count: I32::new(narrow(points.len(), "Animation.pointsCount")?),
            pad1: U32::new(0),
            points_ptr: I64::new(0),
        })
    }
    let r = b.push_record(
        &PointLightPrototype {
            color_animation: animation(color_animation)?,
            radius_animation: animation(radius_animation)?,
            color: floats(*color),
            local_position: floats(*local_position),
            pad0: U32::new(0),
            radius: F32::new(*radius),
            min_quality: U32::new(*min_quality),
            animated_color: u8::from(*animated_color),
            animated_radius: u8::from(*animated_radius),
            pad1: [0; 6],
        },
        "PointLightPrototype",
    )?;
    let color_points: Vec<ColorPoint> = color_animation
        .points
        .iter()
        .map(|&KeyFields { time, value }| ColorPoint {
            time: F32::new(time),
            value: floats(value),
        })
        .collect();
    let radius_points: Vec<ScalarPoint> = radius_animation
        .points
        .iter()
        .map(|&KeyFields { time, value }| ScalarPoint {
            time: F32::new(time),
            value: F32::new(value),
        })
        .collect();
    // `points_ptr` is relative to the inner {count, ptr} struct, not to the animation.
    let (base, field) = (
        offset_of!(Animation, points_count),
        offset_of!(Animation, points_ptr),
    );
    let color = offset_of!(PointLightPrototype, color_animation);
    b.record_array_from(r + color + field, r + color + base, &color_points)?;
    let radius = offset_of!(PointLightPrototype, radius_animation);
    b.record_array_from(r + radius + field, r + radius + base, &radius_points)
}

/// An EffectPrototype: the record, then its systems at their fixed size.
pub(super) fn encode_effect(b: &mut Blob, e: &EffectFields) -> Result<()> {
    let EffectFields {
        max_emitting_duration,
        systems,
    } = e;
    let r = b.push_record(
        &EffectPrototype {
            max_emitting_duration: F32::new(*max_emitting_duration),
            systems_count: U32::new(narrow(systems.len(), "EffectPrototype.systemsCount")?),
            systems_ptr: I64::new(0),
        },
        "EffectPrototype",
    )?;
    let mut bytes = Vec::new();
    for s in systems {
        // A system is kept raw at its fixed size: shorter ones are zero-padded, a longer one
        // cannot be stored.
        if s.len() > EFFECT_SYSTEM_SIZE {
            return Err(invalid(
                "EffectPrototype.systems",
                u64_of(s.len()),
                "a system is longer than 0x1C8 bytes",
            ));
        }
        bytes.extend_from_slice(s);
        bytes.resize(bytes.len() + EFFECT_SYSTEM_SIZE - s.len(), 0);
    }
    b.record_array(r, offset_of!(EffectPrototype, systems_ptr), &bytes)
}

/// A VelocityFieldPrototype: the record, then its velocities.
pub(super) fn encode_velocity_field(b: &mut Blob, v: &VelocityFieldFields) -> Result<()> {
    let VelocityFieldFields {
        dimensions,
        velocities,
    } = v;
    let r = b.push_record(
        &VelocityFieldPrototype {
            dimensions: dimensions.map(U32::new),
            velocities_count: U32::new(narrow(
                velocities.len(),
                "VelocityFieldPrototype.velocitiesCount",
            )?),
            velocities_ptr: I64::new(0),
        },
        "VelocityFieldPrototype",
    )?;
    let data: Vec<U16> = velocities.iter().map(|&x| U16::new(x)).collect();
    b.record_array(r, offset_of!(VelocityFieldPrototype, velocities_ptr), &data)
}

/// An EffectPresetPrototype: two ids, nothing out of line.
pub(super) fn encode_effect_preset(b: &mut Blob, p: &EffectPresetFields) -> Result<()> {
    let EffectPresetFields { high_id, low_id } = *p;
    b.push_record(
        &EffectPresetPrototype {
            high_id: U64::new(high_id),
            low_id: U64::new(low_id),
        },
        "EffectPresetPrototype",
    )?;
    Ok(())
}

/// An EffectMetadataPrototype: the record, its channel table, then each channel's name.
pub(super) fn encode_effect_metadata(b: &mut Blob, m: &EffectMetadataFields) -> Result<()> {
    let EffectMetadataFields { channels } = m;
    let r = b.push_record(
        &EffectMetadataPrototype {
            count: U64::new(u64_of(channels.len())),
            channels_ptr: I64::new(0),
        },
        "EffectMetadataPrototype",
    )?;
    let field = offset_of!(EffectMetadataPrototype, channels_ptr);
    b.record_table(r, field, channels, "Channel", |b, at, channel| {
        let ChannelFields {
            name,
            min,
            max,
            default,
            kind,
        } = channel;
        let mut name = name.as_bytes().to_vec();
        name.push(0);
        Ok(Channel {
            name_len: U32::new(narrow(name.len(), "Channel.nameLen")?),
            pad: U32::new(0),
            name_ptr: b.ool_array(at, offset_of!(Channel, name_ptr), &name, "Channel.namePtr")?,
            min: F32::new(*min),
            max: F32::new(*max),
            default: F32::new(*default),
            kind: U32::new(*kind),
        })
    })
}

/// An AtlasContourProto: the record, its contour table, then each frame's points.
pub(super) fn encode_atlas_contour(b: &mut Blob, a: &AtlasContourFields) -> Result<()> {
    let AtlasContourFields { frames } = a;
    let r = b.push_record(
        &AtlasContourProto {
            frame_count: I32::new(narrow(frames.len(), "AtlasContourProto.frameCount")?),
            pad: U32::new(0),
            contours_ptr: I64::new(0),
        },
        "AtlasContourProto",
    )?;
    let field = offset_of!(AtlasContourProto, contours_ptr);
    b.record_table(r, field, frames, "Contour", |b, at, frame| {
        let points: Vec<Point> = frame
            .iter()
            .map(|&[x, y]| Point {
                x: F32::new(x),
                y: F32::new(y),
            })
            .collect();
        Ok(Contour {
            count: I32::new(narrow(frame.len(), "Contour.count")?),
            pad: U32::new(0),
            points_ptr: b.ool_array(
                at,
                offset_of!(Contour, points_ptr),
                &points,
                "Contour.pointsPtr",
            )?,
        })
    })
}

//! Drives every `assets.bin` accessor, the builder made from the file (`from_view`, then
//! `to_bytes`), then the model resolver over the file.

use std::path::Path;

use gamebin::wows::assets::{AssetsDb, PathIndex, Prototype, PrototypeType};
use gamebin::wows::resolve::{GeometryCache, LoadedGeometry, ModelResolver, ResolvedModel};

/// Path entries resolved as models per input: enough to reach every model of a small file, few
/// enough to keep executions fast on big ones.
const MODELS: usize = 64;

/// Path entries resolved without a [`PathIndex`], whose error paths walk the whole path table
/// (O(entries) each): a few are enough to cover them.
const LINEAR_MODELS: usize = 4;

/// What a caller does with a model whose `.geometry` loaded (the fuzz target exports it to GLB);
/// returns how many structures it read.
pub type ModelSink<'s> =
    &'s mut dyn FnMut(&ModelResolver<'_>, &ResolvedModel<'_>, LoadedGeometry<'_>) -> usize;

/// Everything a record hands out.
fn drive_record(record: &Prototype<'_>) -> usize {
    let _ = record.validate();
    let _ = record.kind();
    match record {
        Prototype::Visual(v) => {
            let _ = (v.raw(), v.offset(), v.nodes_count(), v.bounding_box());
            let _ = (v.merged_geometry_path_id(), v.underwater(), v.abovewater());
            let _ = (v.name_map_name_ids(), v.name_map_node_ids(), v.matrices());
            let _ = (v.name_ids(), v.parent_ids());
            if let Ok(nodes) = v.nodes() {
                for n in nodes {
                    let _ = (n.matrix(), v.name(n.name_id));
                }
            }
            if let Ok(sets) = v.render_sets() {
                for s in sets {
                    let _ = (s.raw(), s.name_id(), s.material_name_id(), s.skinned());
                    let _ = (s.vertices_mapping_id(), s.indices_mapping_id());
                    let _ = (s.material_mfm_path_id(), s.node_name_ids());
                }
            }
            if let Ok(lods) = v.lods() {
                for l in lods {
                    let _ = (l.raw(), l.extent(), l.casts_shadow(), l.render_set_names());
                }
            }
        }
        Prototype::Material(m) => {
            let _ = (m.raw(), m.offset(), m.counts(), m.property_count());
            let _ = (m.property_name_ids(), m.property_ids(), m.fx_path_id());
            let _ = (m.collision_flags(), m.sort_order());
            if let Ok(props) = m.properties() {
                for p in props.flatten() {
                    let _ = (p.value.type_name(), m.name(p.name_id));
                }
            }
            for kind in 0..10 {
                let _ = m.value(kind, 0);
            }
        }
        Prototype::Model(m) => {
            let _ = (
                m.layout(),
                m.offset(),
                m.visual_resource_id(),
                m.misc_type(),
            );
            let _ = (m.skeleton_extender_ids(), m.animations());
            if let Ok(dyes) = m.dyes() {
                for d in dyes {
                    let _ = (d.raw(), d.matter_id(), d.replaces_id(), d.tints_count());
                    let _ = (d.tint_name_ids(), d.tint_material_ids());
                }
            }
        }
        Prototype::SkeletonExtender(s) => {
            let _ = (s.raw(), s.offset(), s.flag(), s.node_count());
            let _ = (s.name_ids(), s.parent_name_ids(), s.matrices());
        }
        Prototype::PointLight(l) => {
            let _ = (
                l.raw(),
                l.offset(),
                l.color(),
                l.local_position(),
                l.radius(),
            );
            let _ = (l.min_quality(), l.animated_color(), l.animated_radius());
            let _ = (l.color_animation(), l.radius_animation());
        }
        Prototype::Effect(e) => {
            let _ = (
                e.raw(),
                e.offset(),
                e.max_emitting_duration(),
                e.systems_count(),
            );
            let _ = (e.systems(), e.system(0), e.system(usize::MAX));
        }
        Prototype::VelocityField(v) => {
            let _ = (v.raw(), v.offset(), v.dimensions(), v.velocities());
        }
        Prototype::EffectPreset(p) => {
            let _ = (p.offset(), p.high_id(), p.low_id());
        }
        Prototype::EffectMetadata(m) => {
            let _ = m.offset();
            if let Ok(channels) = m.channels() {
                for c in channels {
                    let _ = (c.raw(), c.name_bytes(), c.name(), c.min(), c.max());
                    let _ = (c.default(), c.kind());
                }
            }
        }
        Prototype::AtlasContour(a) => {
            let _ = a.offset();
            if let Ok(frames) = a.frames() {
                for f in frames {
                    let _ = f.points();
                }
            }
        }
        Prototype::Raw(r) => {
            let _ = (r.database.len(), r.index, r.reason.describe());
        }
    }
    1
}

/// Opens `data` as `assets.bin` and drives every accessor: maps, paths (indexed and linear),
/// databases and every record; then the model resolver with a resource root that holds no
/// `.geometry` (every load fails, naming its model).
pub fn drive_assets(data: &[u8]) -> usize {
    drive_assets_under(data, None, &mut |_, _, _| 0)
}

/// [`drive_assets`], with the model resolver over `root` (the folder holding `content/`; `None`
/// for one that holds nothing): `sink` gets every model whose `.geometry` loaded.
pub fn drive_assets_under(data: &[u8], root: Option<&Path>, sink: ModelSink<'_>) -> usize {
    let mut scratch = gamebin::Scratch::new();
    let Some(db) = super::open::<AssetsDb<'_>>(data, &mut scratch) else {
        return 0;
    };
    let mut seen = 1;
    let _ = (
        db.header(),
        db.body_header(),
        db.as_bytes().len(),
        db.body().len(),
    );
    let checksum = db.verify_checksum();
    let _ = checksum.matches().name();
    let _ = db.validate();
    // The file as a builder, written again.
    if let Ok(builder) = gamebin::wows::assets::model::AssetsBuilder::from_view(&db) {
        seen += 1;
        let _ = builder.to_bytes();
    }

    let strings = db.strings();
    let _ = (strings.capacity(), strings.pool().len(), strings.count());
    for s in strings.iter() {
        seen += 1;
        if let Ok((id, _)) = s {
            let _ = db.string(id);
        }
    }
    let _ = db.string(0);
    let _ = db.string(u32::MAX);

    let prototypes = db.prototypes();
    let _ = (prototypes.capacity(), prototypes.count());
    for p in prototypes.iter() {
        seen += 1;
        if let Ok((id, at)) = p {
            let _ = db.prototype(id);
            if let Ok(record) = db.record(at) {
                seen += drive_record(&record);
            }
        }
    }
    let _ = db.prototype(0);
    let _ = db.prototype(u64::MAX);

    let paths = db.paths();
    let _ = (paths.len(), paths.is_empty(), paths.get(usize::MAX));
    let index = PathIndex::build(paths).ok();
    let mut full = String::new();
    let mut at = String::new();
    for (n, entry) in paths.iter().enumerate() {
        seen += 1;
        let _ = (
            entry.self_id(),
            entry.parent_id(),
            entry.index(),
            entry.offset(),
        );
        let _ = (entry.name_bytes(), entry.name());
        if let Some(index) = &index {
            let first = index.get(paths, entry.self_id());
            let by_id = index.full_path(paths, entry.self_id(), &mut full);
            if matches!(by_id, Ok(true)) {
                let _ = db.lookup_path(&full);
            }
            // By position: the same path as by id when this entry is the one its id finds (the
            // first of a duplicated id).
            let by_position = index.full_path_at(paths, n, &mut at);
            // The path ends with the entry's own name, read from the file; a name the file
            // refuses is refused through the index too.
            match (&by_position, entry.name()) {
                (Ok(true), Ok(name)) => assert!(
                    at.strip_suffix(name)
                        .is_some_and(|up| up.is_empty() || up.ends_with('/')),
                    "PathIndex: entry {n}'s path {at:?} does not end with its name {name:?}"
                ),
                (Ok(true), Err(e)) => panic!("PathIndex: entry {n}'s path {at:?}, its name: {e}"),
                _ => {}
            }
            if first.is_some_and(|e| e.index() == n)
                && let (Ok(true), Ok(true)) = (&by_id, &by_position)
            {
                assert_eq!(
                    full, at,
                    "PathIndex: full_path and full_path_at of entry {n}"
                );
            }
        }
        // The linear walks are O(entries) each: a few are enough to cover them.
        if n < 4 {
            if db.full_path(entry.self_id(), &mut full).unwrap_or(false) {
                let _ = db.find_path(&full);
            }
            let _ = paths.find(entry.parent_id());
        }
    }
    if let Some(index) = &index {
        let _ = index.full_path_at(paths, paths.len(), &mut at);
        let _ = index.full_path_at(paths, usize::MAX, &mut at);
        // The incremental walk builds each path from the previous one: it must give what the
        // walk from the entry up to its root gives.
        let mut walked = String::new();
        let _ = index.for_each_full_path(paths, &mut walked, |entry, path| {
            seen += 1;
            if let Ok(true) = index.full_path_at(paths, entry.index(), &mut at) {
                assert_eq!(
                    path,
                    at,
                    "PathIndex: for_each_full_path at entry {}",
                    entry.index()
                );
            }
            Ok(())
        });
    }
    let _ = db.ids_are_path_hashes(8);
    let _ = db.find_path("");
    let _ = db.find_path("content/a/b");
    let _ = db.path_id("content");

    let databases = db.databases();
    let _ = (databases.len(), databases.is_empty());
    for kind in PrototypeType::ALL {
        let _ = db.database(kind);
    }
    for d in databases.iter().flatten() {
        seen += 1;
        let _ = (d.index(), d.offset(), d.magic(), d.schema_hash(), d.kind());
        let _ = (d.type_name(), d.layout(), d.item_size(), d.blob().len());
        let _ = (d.blob_offset(), d.record_offset(0), d.record_bytes(0));
        // Bounded by the record area (checked against the blob when the layout is known).
        let count = if d.item_size().is_some() {
            d.record_count()
        } else {
            1
        };
        for i in 0..count.min(4096) {
            if let Ok(record) = d.prototype(i, db.strings()) {
                seen += drive_record(&record);
            }
            let _ = d.record_bytes(i);
        }
        let _ = d.prototype(usize::MAX, db.strings());
    }

    let nowhere;
    let root = match root {
        Some(root) => root,
        None => {
            nowhere = std::env::temp_dir().join("gamebin-drive-no-resources");
            nowhere.as_path()
        }
    };
    let linear = ModelResolver::new(db, root);
    seen += drive_models(&linear, LINEAR_MODELS, sink);
    let _ = linear.resolve_path("content/gameplay/Test.model");
    let _ = linear.resolve_path("res/content/a/b.model");
    if let Some(index) = &index {
        seen += drive_models(&linear.clone().with_path_index(index), MODELS, sink);
    }
    seen
}

/// Resolves the first `limit` path entries as models and drives everything a resolved model hands
/// out: nodes, LODs and their render sets, render sets with their materials and nodes, the
/// `.geometry` and each render set's draw; every error's message (which walks the path tree for
/// the model's path).
fn drive_models(resolver: &ModelResolver<'_>, limit: usize, sink: ModelSink<'_>) -> usize {
    let db = resolver.db();
    let mut seen = 0;
    let mut cache = GeometryCache::new();
    let mut full = String::new();
    let error = |e: gamebin::wows::resolve::ResolveError| {
        let _ = (
            e.model(),
            e.model_path(),
            e.render_set_id(),
            e.render_set_name(),
        );
        let _ = (e.missing(), e.read_error(), e.to_string());
    };
    for entry in db.paths().iter().take(limit) {
        let _ = resolver.full_path(entry.self_id(), &mut full);
        let model = match resolver.resolve(entry.self_id()) {
            Ok(model) => model,
            Err(e) => {
                error(e);
                continue;
            }
        };
        seen += 1;
        let _ = (
            model.self_id(),
            model.model(),
            model.visual_id(),
            model.visual(),
        );
        let _ = (
            model.geometry_path_id(),
            model.node_count(),
            model.lod_count(),
        );
        if let Ok(nodes) = model.nodes() {
            for node in nodes {
                let _ = (node.index, node.name, node.parent, node.matrix);
                let _ = model.node_index(node.name_id);
            }
        }
        let _ = model.node_index(u32::MAX);
        for lod in 0..model.lod_count().min(8) {
            let _ = model.lod(lod).map(|l| (l.index, l.extent, l.casts_shadow));
            match model.lod_render_sets(lod) {
                Ok(sets) => sets.filter_map(Result::err).for_each(error),
                Err(e) => error(e),
            }
        }
        let _ = model.lod(usize::MAX).map_err(error);
        let _ = model.render_set_named(u32::MAX);
        let sets = match model.render_sets() {
            Ok(sets) => sets,
            Err(e) => {
                error(e);
                continue;
            }
        };
        let geometry = cache.load(resolver, &model).map_err(error).ok();
        for set in sets {
            let set = match set {
                Ok(set) => set,
                Err(e) => {
                    error(e);
                    continue;
                }
            };
            seen += 1;
            let _ = (
                set.index,
                set.name,
                set.material_mfm_path_id,
                set.material_name,
            );
            let _ = (set.material.property_count(), set.skinned());
            if let Ok(nodes) = model.render_set_nodes(&set) {
                nodes.for_each(drop);
            }
            if let Some(geometry) = &geometry
                && let Err(e) = geometry.draw(&model, &set)
            {
                error(e);
            }
        }
        if let Some(geometry) = geometry {
            let _ = (geometry.path(), geometry.view(), geometry.decoded());
            seen += sink(resolver, &model, geometry);
        }
    }
    seen
}

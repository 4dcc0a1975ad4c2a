//! What the CLI shows of a World of Warships `assets.bin`: the info summary, records as JSON with
//! names resolved, and the streaming dump.

use std::io::IsTerminal;
use std::path::Path;

use anyhow::Result;
use gamebin::wows::assets::{
    AssetsDb, Database, Layout, MaterialValue, ModelLayout, PathIndex, Prototype, PrototypeRef,
    PrototypeState,
};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use serde::Serialize;
use serde_json::{Value, json};

use crate::output::{Out, count};

#[derive(Debug, Serialize)]
pub struct DatabaseInfo {
    pub name: String,
    pub records: usize,
    pub item_size: Option<usize>,
    pub schema_hash: u32,
}

#[derive(Debug, Serialize)]
pub struct ChecksumInfo {
    pub stored: u32,
    pub matches: &'static str,
}

#[derive(Debug, Serialize)]
pub struct Info {
    pub path: String,
    pub format: &'static str,
    pub strings: usize,
    pub paths: usize,
    /// Live entries of the resource-to-prototype map (those with a record).
    pub prototypes: usize,
    /// Deleted entries: their slots are kept, with no record behind them.
    pub deleted: usize,
    /// Entries in a state no reader has seen (1 or 2); omitted when there are none.
    #[serde(skip_serializing_if = "is_zero")]
    pub other_states: usize,
    pub databases: Vec<DatabaseInfo>,
    pub checksum: ChecksumInfo,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

/// A database's type name, or `unknown:0x…` for an unknown magic.
fn database_name(d: &Database<'_>) -> String {
    d.type_name()
        .map_or_else(|| format!("unknown:{:#010x}", d.magic()), str::to_string)
}

pub fn info(path: &Path, data: &[u8]) -> Result<Info> {
    let db = AssetsDb::from_bytes(data)?;
    let mut databases = Vec::new();
    for d in db.databases().iter() {
        let d = d?;
        databases.push(DatabaseInfo {
            name: database_name(&d),
            records: d.record_count(),
            item_size: d.item_size(),
            schema_hash: d.schema_hash(),
        });
    }
    let checksum = db.verify_checksum();
    let states = db.prototypes().states()?;
    Ok(Info {
        path: path.display().to_string(),
        format: gamebin::Format::WowsAssets.name(),
        strings: db.strings().count(),
        paths: db.paths().len(),
        prototypes: states.live,
        deleted: states.deleted,
        other_states: states.other,
        databases,
        checksum: ChecksumInfo {
            stored: checksum.stored,
            matches: checksum.matches().name(),
        },
    })
}

pub fn info_line(i: &Info) -> String {
    let records: usize = i.databases.iter().map(|d| d.records).sum();
    format!(
        "{}: {}, {}, {}, {}, {} deleted, {} ({}), checksum {:#010x} ({})",
        i.path,
        i.format,
        count(i.strings, "string", "strings"),
        count(i.paths, "path", "paths"),
        count(i.prototypes, "live prototype", "live prototypes"),
        i.deleted,
        count(i.databases.len(), "database", "databases"),
        count(records, "record", "records"),
        i.checksum.stored,
        i.checksum.matches
    )
}

/// A name id as its string, or `null` when the strings map has no such id.
fn name(db: &AssetsDb<'_>, id: u32) -> Result<Value> {
    Ok(db.string(id)?.map_or(Value::Null, |s| json!(s)))
}

fn names(db: &AssetsDb<'_>, ids: impl IntoIterator<Item = u32>) -> Result<Value> {
    let mut out = Vec::new();
    for id in ids {
        out.push(name(db, id)?);
    }
    Ok(Value::Array(out))
}

fn hex64(v: u64) -> String {
    format!("{v:#018x}")
}

fn hex32(v: u32) -> String {
    format!("{v:#010x}")
}

/// A record as JSON, name ids resolved through the strings map.
pub fn record_json(db: &AssetsDb<'_>, record: Prototype<'_>) -> Result<Value> {
    Ok(match record {
        Prototype::Visual(v) => {
            let mut nodes = Vec::new();
            for n in v.nodes()? {
                nodes.push(json!({
                    "name": name(db, n.name_id)?,
                    "parent": n.parent,
                    "matrix": n.matrix(),
                }));
            }
            let mut sets = Vec::new();
            for s in v.render_sets()? {
                sets.push(json!({
                    "name": name(db, s.name_id())?,
                    "material": name(db, s.material_name_id())?,
                    "vertices_mapping_id": hex32(s.vertices_mapping_id()),
                    "indices_mapping_id": hex32(s.indices_mapping_id()),
                    "material_mfm_path_id": hex64(s.material_mfm_path_id()),
                    "skinned": s.skinned(),
                    "nodes": names(db, s.node_name_ids()?.iter().map(|i| i.get()))?,
                }));
            }
            let mut lods = Vec::new();
            for l in v.lods()? {
                lods.push(json!({
                    "extent": l.extent(),
                    "casts_shadow": l.casts_shadow(),
                    "render_sets": names(db, l.render_set_names()?.iter().map(|i| i.get()))?,
                }));
            }
            let (min, max) = v.bounding_box();
            json!({
                "type": "VisualPrototype",
                "merged_geometry_path_id": hex64(v.merged_geometry_path_id()),
                "underwater": v.underwater(),
                "abovewater": v.abovewater(),
                "bounding_box": {"min": min, "max": max},
                "nodes": nodes,
                "render_sets": sets,
                "lods": lods,
            })
        }
        Prototype::Material(m) => {
            let mut props = Vec::new();
            for p in m.properties()? {
                let p = p?;
                let value = match p.value {
                    MaterialValue::Bool(b) => json!(b),
                    MaterialValue::Int(i) => json!(i),
                    MaterialValue::Uint(u) => json!(u),
                    MaterialValue::Float(f) => json!(f),
                    MaterialValue::Texture(t) => json!(hex64(t)),
                    MaterialValue::Vec2(v) => json!(v),
                    MaterialValue::Vec3(v) => json!(v),
                    MaterialValue::Vec4(v) => json!(v),
                    MaterialValue::Mat4(m) => json!(m.map(|f| f.get())),
                };
                props.push(json!({
                    "name": name(db, p.name_id)?,
                    "type": p.value.type_name(),
                    "value": value,
                }));
            }
            json!({
                "type": "MaterialPrototype",
                "properties": props,
                "fx_path_id": hex64(m.fx_path_id()),
                "collision_flags": m.collision_flags(),
                "sort_order": m.sort_order(),
            })
        }
        Prototype::Model(m) => {
            let mut dyes = Vec::new();
            for d in m.dyes()? {
                dyes.push(json!({
                    "matter_id": hex32(d.matter_id()),
                    "replaces_id": hex32(d.replaces_id()),
                    "tints": names(db, d.tint_name_ids()?.iter().map(|i| i.get()))?,
                    "tint_materials": d.tint_material_ids()?.iter().map(|i| hex64(i.get())).collect::<Vec<_>>(),
                }));
            }
            json!({
                "type": "ModelPrototype",
                "layout": match m.layout() { ModelLayout::Current(_) => "0x28", ModelLayout::V1(_) => "0x20" },
                "visual_resource_id": hex64(m.visual_resource_id()),
                "misc_type": m.misc_type(),
                "skeleton_extenders": m.skeleton_extender_ids()?.iter().map(|i| hex64(i.get())).collect::<Vec<_>>(),
                "animations": m.animations()?.iter().map(|i| hex64(i.get())).collect::<Vec<_>>(),
                "dyes": dyes,
            })
        }
        Prototype::SkeletonExtender(s) => json!({
            "type": "SkeletonExtenderPrototype",
            "flag": s.flag(),
            "names": names(db, s.name_ids()?.iter().map(|i| i.get()))?,
            "parents": names(db, s.parent_name_ids()?.iter().map(|i| i.get()))?,
            "matrices": s.matrices()?.iter().map(|m| m.map(|f| f.get())).collect::<Vec<_>>(),
        }),
        Prototype::PointLight(l) => {
            let (cp, cr, color_points) = l.color_animation()?;
            let (rp, rr, radius_points) = l.radius_animation()?;
            json!({
                "type": "PointLightPrototype",
                "color": l.color(),
                "local_position": l.local_position(),
                "radius": l.radius(),
                "min_quality": l.min_quality(),
                "animated_color": l.animated_color(),
                "animated_radius": l.animated_radius(),
                "color_animation": {"period": cp, "repeated": cr, "points": color_points.iter().map(|p| json!({"time": p.time.get(), "value": p.value.map(|f| f.get())})).collect::<Vec<_>>()},
                "radius_animation": {"period": rp, "repeated": rr, "points": radius_points.iter().map(|p| json!({"time": p.time.get(), "value": p.value.get()})).collect::<Vec<_>>()},
            })
        }
        Prototype::Effect(e) => json!({
            "type": "EffectPrototype",
            "max_emitting_duration": e.max_emitting_duration(),
            "systems": e.systems_count(),
            "systems_bytes": e.systems()?.len(),
        }),
        Prototype::VelocityField(v) => json!({
            "type": "VelocityFieldPrototype",
            "dimensions": v.dimensions(),
            "velocities": v.velocities()?.len(),
        }),
        Prototype::EffectPreset(p) => json!({
            "type": "EffectPresetPrototype",
            "high_id": hex64(p.high_id()),
            "low_id": hex64(p.low_id()),
        }),
        Prototype::EffectMetadata(m) => {
            let mut channels = Vec::new();
            for c in m.channels()? {
                channels.push(json!({"name": c.name()?, "min": c.min(), "max": c.max(), "default": c.default(), "kind": c.kind()}));
            }
            json!({"type": "EffectMetadataPrototype", "channels": channels})
        }
        Prototype::AtlasContour(a) => {
            let mut frames = Vec::new();
            for f in a.frames()? {
                frames.push(
                    f.points()?
                        .iter()
                        .map(|p| [p.x.get(), p.y.get()])
                        .collect::<Vec<_>>(),
                );
            }
            json!({"type": "AtlasContourProto", "frames": frames})
        }
        Prototype::Raw(r) => json!({
            "type": null,
            "raw": true,
            "index": r.index,
            "reason": r.reason.describe(),
            "database_bytes": r.database.len(),
        }),
    })
}

/// The state name of a prototype reference.
pub fn state_name(state: PrototypeState) -> String {
    match state {
        PrototypeState::Live => "live".into(),
        PrototypeState::Deleted => "deleted".into(),
        PrototypeState::Other(s) => format!("state {s}"),
    }
}

/// The type name of what a reference points to (`deleted` for deleted entries).
/// The prototype type a reference points into: its database's name, `invalid` for a database
/// index the file does not have; a database table that cannot be read is an error (with its
/// offset), not a type.
pub fn type_of(db: &AssetsDb<'_>, at: PrototypeRef) -> gamebin::Result<String> {
    if at.state != PrototypeState::Live {
        return Ok(state_name(at.state));
    }
    Ok(match db.databases().get(at.database as usize)? {
        Some(d) => database_name(&d),
        None => "invalid".into(),
    })
}

/// A prototype reference and its record as JSON.
pub fn prototype_json(db: &AssetsDb<'_>, id: u64, at: PrototypeRef) -> Result<Value> {
    let mut out = json!({
        "id": hex64(id),
        "database": at.database,
        "record": at.record,
        "state": state_name(at.state),
    });
    if at.state == PrototypeState::Live {
        out["prototype"] = record_json(db, db.record(at)?)?;
    }
    Ok(out)
}

/// A progress bar on stderr for a whole-file walk of `len` items, hidden unless stderr is a
/// terminal.
pub fn progress(len: usize, what: &str) -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    // Cleared however the walk ends (an error, a closed pipe).
    let bar = ProgressBar::with_draw_target(Some(len as u64), ProgressDrawTarget::stderr())
        .with_finish(indicatif::ProgressFinish::AndClear);
    if let Ok(style) =
        ProgressStyle::with_template(&format!("{{bar:40}} {{pos}}/{{len}} {what} {{elapsed}}"))
    {
        bar.set_style(style);
    }
    bar
}

/// Streams the dump: one JSON document (or text) written element by element, never the whole
/// tree in memory. Full paths come from an owned id → entry index (4 + 8 bytes per path).
pub fn dump(path: &Path, data: &[u8], json: bool, out: &mut Out) -> Result<()> {
    let db = AssetsDb::from_bytes(data)?;
    let info = info(path, data)?;
    let index = PathIndex::build(db.paths())?;
    let total = db.paths().len()
        + db.databases()
            .iter()
            .filter_map(|d| d.ok())
            .map(|d| d.record_count())
            .sum::<usize>();
    let bar = progress(total, "entries");
    if json {
        out.line("{")?;
        out.line(&format!("\"path\": {},", json!(info.path)))?;
        out.line(&format!("\"format\": {},", json!(info.format)))?;
        out.line(&format!(
            "\"checksum\": {},",
            serde_json::to_string(&info.checksum)?
        ))?;
        out.line(&format!(
            "\"databases\": {},",
            serde_json::to_string(&info.databases)?
        ))?;
        out.line("\"strings\": [")?;
        let mut first = true;
        for s in db.strings().iter() {
            let (id, s) = s?;
            let sep = if first { "" } else { "," };
            first = false;
            out.line(&format!("{sep}{}", json!({"id": hex32(id), "string": s})))?;
        }
        out.line("],")?;
        out.line("\"paths\": [")?;
    } else {
        out.line(&info_line(&info))?;
    }
    let mut full = String::new();
    for (n, entry) in db.paths().iter().enumerate() {
        bar.inc(1);
        index.full_path(db.paths(), entry.self_id(), &mut full)?;
        let at = db.prototype(entry.self_id())?;
        if json {
            let sep = if n == 0 { "" } else { "," };
            let line = json!({
                "id": hex64(entry.self_id()),
                "parent": hex64(entry.parent_id()),
                "name": entry.name()?,
                "path": full,
                "prototype": at.map(|at| json!({"database": at.database, "record": at.record, "state": state_name(at.state)})),
            });
            bar.suspend(|| out.line(&format!("{sep}{line}")))?;
        } else {
            let kind = match at {
                Some(at) => type_of(&db, at)?,
                None => "-".to_string(),
            };
            bar.suspend(|| out.line(&format!("{}  {kind:<26} {full}", hex64(entry.self_id()))))?;
        }
    }
    if json {
        out.line("],")?;
        out.line("\"records\": [")?;
    }
    let mut first = true;
    for d in db.databases().iter() {
        let d = d?;
        let layout = match d.layout() {
            Layout::Known { .. } => "known",
            Layout::Checked { .. } => "checked",
            Layout::Raw(_) => "raw",
        };
        for i in 0..d.record_count() {
            bar.inc(1);
            let record = d.prototype(i, db.strings())?;
            if json {
                let sep = if first { "" } else { "," };
                first = false;
                let line = json!({
                    "database": d.index(),
                    "index": i,
                    "layout": layout,
                    "record": record_json(&db, record)?,
                });
                bar.suspend(|| out.line(&format!("{sep}{line}")))?;
            }
            // Raw databases have one entry describing the blob; their record count is the
            // stored one.
            if matches!(record, Prototype::Raw(_)) {
                break;
            }
        }
    }
    bar.finish_and_clear();
    if json {
        out.line("]")?;
        out.line("}")?;
    }
    Ok(())
}

//! A prototype record's fields as a dict, names resolved through the strings map: every one of
//! the ten prototype types the reader decodes (the fields `gamebin assets get` prints, ids as
//! integers). A record the reader keeps raw (an unknown layout) gives `None`; its bytes are
//! `Prototype.raw`.

use gamebin::wows::assets::{AssetsDb, MaterialValue, Prototype, PrototypeState};
use pyo3::IntoPyObjectExt;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use crate::errors::OrRaise;
use crate::source::Source;

/// A name id as its string (`None` when the strings map has no such id).
fn name(db: &AssetsDb<'_>, py: Python<'_>, id: u32) -> PyResult<Option<String>> {
    Ok(db.string(id).or_raise(py)?.map(str::to_owned))
}

fn names(
    db: &AssetsDb<'_>,
    py: Python<'_>,
    ids: impl Iterator<Item = u32>,
) -> PyResult<Vec<Option<String>>> {
    ids.map(|id| name(db, py, id)).collect()
}

fn material_value<'py>(py: Python<'py>, v: &MaterialValue<'_>) -> PyResult<Bound<'py, PyAny>> {
    match *v {
        MaterialValue::Bool(b) => b.into_bound_py_any(py),
        MaterialValue::Int(i) => i.into_bound_py_any(py),
        MaterialValue::Uint(u) => u.into_bound_py_any(py),
        MaterialValue::Float(f) => f.into_bound_py_any(py),
        MaterialValue::Texture(t) => t.into_bound_py_any(py),
        MaterialValue::Vec2(v) => v.into_bound_py_any(py),
        MaterialValue::Vec3(v) => v.into_bound_py_any(py),
        MaterialValue::Vec4(v) => v.into_bound_py_any(py),
        MaterialValue::Mat4(m) => m.map(|f| f.get()).into_bound_py_any(py),
    }
}

/// The decoded fields of prototype `id`'s record, or `None` (no live prototype, or a record kept
/// raw).
#[pyfunction]
pub fn assets_prototype_fields<'py>(
    source: &Bound<'py, Source>,
    id: u64,
) -> PyResult<Option<Bound<'py, PyDict>>> {
    let py = source.py();
    let this = source.borrow();
    let db = AssetsDb::from_bytes(this.bytes()?).or_raise(py)?;
    let Some(at) = db.prototype(id).or_raise(py)? else {
        return Ok(None);
    };
    if at.state != PrototypeState::Live {
        return Ok(None);
    }
    let d = PyDict::new(py);
    match db.record(at).or_raise(py)? {
        Prototype::Visual(v) => {
            let nodes = PyList::empty(py);
            for n in v.nodes().or_raise(py)? {
                let o = PyDict::new(py);
                o.set_item("name", name(&db, py, n.name_id)?)?;
                o.set_item("parent", n.parent)?;
                o.set_item("matrix", n.matrix())?;
                nodes.append(o)?;
            }
            let sets = PyList::empty(py);
            for s in v.render_sets().or_raise(py)? {
                let o = PyDict::new(py);
                o.set_item("name", name(&db, py, s.name_id())?)?;
                o.set_item("material", name(&db, py, s.material_name_id())?)?;
                o.set_item("vertices_mapping_id", s.vertices_mapping_id())?;
                o.set_item("indices_mapping_id", s.indices_mapping_id())?;
                o.set_item("material_mfm_path_id", s.material_mfm_path_id())?;
                o.set_item("skinned", s.skinned())?;
                let ids = s.node_name_ids().or_raise(py)?;
                o.set_item("nodes", names(&db, py, ids.iter().map(|i| i.get()))?)?;
                sets.append(o)?;
            }
            let lods = PyList::empty(py);
            for l in v.lods().or_raise(py)? {
                let o = PyDict::new(py);
                o.set_item("extent", l.extent())?;
                o.set_item("casts_shadow", l.casts_shadow())?;
                let ids = l.render_set_names().or_raise(py)?;
                o.set_item("render_sets", names(&db, py, ids.iter().map(|i| i.get()))?)?;
                lods.append(o)?;
            }
            let (min, max) = v.bounding_box();
            d.set_item("merged_geometry_path_id", v.merged_geometry_path_id())?;
            d.set_item("underwater", v.underwater())?;
            d.set_item("abovewater", v.abovewater())?;
            d.set_item("bounding_box", (min, max))?;
            d.set_item("nodes", nodes)?;
            d.set_item("render_sets", sets)?;
            d.set_item("lods", lods)?;
        }
        Prototype::Material(m) => {
            let props = PyList::empty(py);
            for p in m.properties().or_raise(py)? {
                let p = p.or_raise(py)?;
                let o = PyDict::new(py);
                o.set_item("name", name(&db, py, p.name_id)?)?;
                o.set_item("type", p.value.type_name())?;
                o.set_item("value", material_value(py, &p.value)?)?;
                props.append(o)?;
            }
            d.set_item("properties", props)?;
            d.set_item("fx_path_id", m.fx_path_id())?;
            d.set_item("collision_flags", m.collision_flags())?;
            d.set_item("sort_order", m.sort_order())?;
        }
        Prototype::Model(m) => {
            d.set_item("visual_resource_id", m.visual_resource_id())?;
            d.set_item("misc_type", m.misc_type())?;
            let ids = m.skeleton_extender_ids().or_raise(py)?;
            d.set_item(
                "skeleton_extenders",
                ids.iter().map(|i| i.get()).collect::<Vec<u64>>(),
            )?;
            let ids = m.animations().or_raise(py)?;
            d.set_item(
                "animations",
                ids.iter().map(|i| i.get()).collect::<Vec<u64>>(),
            )?;
        }
        Prototype::SkeletonExtender(x) => {
            d.set_item("flag", x.flag())?;
            let ids = x.name_ids().or_raise(py)?;
            d.set_item("names", names(&db, py, ids.iter().map(|i| i.get()))?)?;
            let ids = x.parent_name_ids().or_raise(py)?;
            d.set_item("parents", names(&db, py, ids.iter().map(|i| i.get()))?)?;
            let matrices = x.matrices().or_raise(py)?;
            d.set_item(
                "matrices",
                matrices
                    .iter()
                    .map(|m| m.map(|f| f.get()))
                    .collect::<Vec<_>>(),
            )?;
        }
        Prototype::PointLight(l) => {
            d.set_item("color", l.color())?;
            d.set_item("local_position", l.local_position())?;
            d.set_item("radius", l.radius())?;
            d.set_item("min_quality", l.min_quality())?;
            d.set_item("animated_color", l.animated_color())?;
            d.set_item("animated_radius", l.animated_radius())?;
            let (period, repeated, points) = l.color_animation().or_raise(py)?;
            let colour = PyDict::new(py);
            colour.set_item("period", period)?;
            colour.set_item("repeated", repeated)?;
            let list = PyList::empty(py);
            for p in points {
                list.append((p.time.get(), p.value.map(|f| f.get())))?;
            }
            colour.set_item("points", list)?;
            d.set_item("color_animation", colour)?;
            let (period, repeated, points) = l.radius_animation().or_raise(py)?;
            let radius = PyDict::new(py);
            radius.set_item("period", period)?;
            radius.set_item("repeated", repeated)?;
            let list = PyList::empty(py);
            for p in points {
                list.append((p.time.get(), p.value.get()))?;
            }
            radius.set_item("points", list)?;
            d.set_item("radius_animation", radius)?;
        }
        Prototype::Effect(e) => {
            d.set_item("max_emitting_duration", e.max_emitting_duration())?;
            d.set_item("systems", e.systems_count())?;
            d.set_item("systems_bytes", e.systems().or_raise(py)?.len())?;
        }
        Prototype::VelocityField(v) => {
            d.set_item("dimensions", v.dimensions())?;
            d.set_item("velocities", v.velocities().or_raise(py)?.len())?;
        }
        Prototype::EffectPreset(p) => {
            d.set_item("high_id", p.high_id())?;
            d.set_item("low_id", p.low_id())?;
        }
        Prototype::EffectMetadata(m) => {
            let channels = PyList::empty(py);
            for c in m.channels().or_raise(py)? {
                let o = PyDict::new(py);
                o.set_item("name", c.name().or_raise(py)?)?;
                o.set_item("min", c.min())?;
                o.set_item("max", c.max())?;
                o.set_item("default", c.default())?;
                o.set_item("kind", c.kind())?;
                channels.append(o)?;
            }
            d.set_item("channels", channels)?;
        }
        Prototype::AtlasContour(a) => {
            let frames = PyList::empty(py);
            for f in a.frames().or_raise(py)? {
                let points: Vec<(f32, f32)> = f
                    .points()
                    .or_raise(py)?
                    .iter()
                    .map(|p| (p.x.get(), p.y.get()))
                    .collect();
                frames.append(points)?;
            }
            d.set_item("frames", frames)?;
        }
        Prototype::Raw(_) => return Ok(None),
    }
    Ok(Some(d))
}

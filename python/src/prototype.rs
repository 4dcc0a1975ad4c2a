//! A prototype record's fields as a dict, names resolved through the strings map: the Visual,
//! Material and Model records (what the model pipeline reads). Other types give `None`; their
//! bytes are `Prototype.raw`.

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

/// The decoded fields of prototype `id`'s record, or `None` (no live prototype, or a type whose
/// fields are not bound).
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
        _ => return Ok(None),
    }
    Ok(Some(d))
}

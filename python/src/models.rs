//! `.wdata` and `Project.dat`: the owned models, as Python dicts.

use gamebin::craftstudio::ProjectView;
use gamebin::wdata::WdataView;
use gamebin::craftstudio::model::ProjectModel;
use gamebin::wdata::model::WdataModel;
use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList};

use crate::errors::OrRaise;
use crate::source::Source;

/// The whole map as JSON text, the serde form `gamebin dump --json` prints (Python parses it into
/// dicts and lists).
#[pyfunction]
pub fn wdata_json(source: &Bound<'_, Source>) -> PyResult<String> {
    let py = source.py();
    let this = source.borrow();
    let view = WdataView::from_bytes(this.bytes()?).or_raise(py)?;
    let map = WdataModel::from_view(&view).or_raise(py)?;
    serde_json::to_string(&map).map_err(|e| PyRuntimeError::new_err(e.to_string()))
}

/// The project: settings, game controls and the asset tree's entries, as a dict.
#[pyfunction]
pub fn craftstudio_project<'py>(source: &Bound<'py, Source>) -> PyResult<Bound<'py, PyDict>> {
    let py = source.py();
    let this = source.borrow();
    let view = ProjectView::from_bytes(this.bytes()?).or_raise(py)?;
    let p = ProjectModel::from_view(&view).or_raise(py)?;
    let d = PyDict::new(py);
    d.set_item("format_version", p.format_version)?;
    d.set_item("project_type", p.project_type)?;
    d.set_item("name", &p.name)?;
    d.set_item("startup_scene_id", p.startup_scene_id)?;
    d.set_item("script_api_version", p.script_api_version)?;
    d.set_item("membership_policy", p.membership_policy)?;
    d.set_item("default_member_role", p.default_member_role)?;
    d.set_item("description", &p.description)?;
    d.set_item("next_control_id", p.next_control_id)?;
    let controls = PyList::empty(py);
    for c in &p.controls {
        let o = PyDict::new(py);
        o.set_item("id", c.id)?;
        o.set_item("name", &c.name)?;
        let s = &c.settings;
        o.set_item("control_type", s.control_type)?;
        o.set_item("source", s.control_source)?;
        o.set_item("positive_key", s.positive_key)?;
        o.set_item("negative_key", s.negative_key)?;
        o.set_item("positive_button", s.positive_button)?;
        o.set_item("negative_button", s.negative_button)?;
        o.set_item("joystick_index", s.joystick_index)?;
        o.set_item("joystick_axis", s.joystick_axis)?;
        o.set_item("dead_zone", s.dead_zone())?;
        o.set_item("sensitivity", s.sensitivity())?;
        o.set_item("gravity", s.gravity())?;
        o.set_item("snap_to_zero", s.snap_to_zero())?;
        controls.append(o)?;
    }
    d.set_item("controls", controls)?;
    d.set_item("next_entry_id", p.next_entry_id)?;
    let entries = PyList::empty(py);
    for e in &p.entries {
        let o = PyDict::new(py);
        o.set_item("is_folder", e.is_folder)?;
        o.set_item("id", e.id)?;
        o.set_item("parent_id", e.parent_id)?;
        o.set_item("name", &e.name)?;
        o.set_item("entry_type", e.entry_type)?;
        o.set_item("locked", e.locked)?;
        o.set_item("trashed", e.trashed)?;
        o.set_item("next_revision_id", e.next_revision_id)?;
        o.set_item("revisions", &e.revisions)?;
        entries.append(o)?;
    }
    d.set_item("entries", entries)?;
    d.set_item("trailing", PyBytes::new(py, &p.trailing))?;
    Ok(d)
}

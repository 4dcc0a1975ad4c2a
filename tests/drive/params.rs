//! GameParams: opens the bytes as a file (reversed zlib) and as a bare pickle, and drives every
//! accessor: facts, look-ups, regions, every value decoded and written as JSON, the full check.

use gamebin::wows::params::export::json::{Layout, write_value};
use gamebin::wows::params::{ParamsScratch, ParamsView, from_pickle};

fn walk(view: &ParamsView<'_>) -> usize {
    let mut seen = view.len();
    let _ = view.damage();
    let _ = view.info();
    let report = view.validate();
    seen += report.errors.len() + report.warnings.len();
    // One budget for the walk, as every tool that decodes each entry draws on (a hostile file's
    // entries could each spend a budget of their own); the first entry also by itself.
    let mut budget = view.walk_budget();
    if let Some(e) = view.entries().next() {
        seen += usize::from(e.value().is_ok());
    }
    for e in view.entries().take(2000) {
        let name = e.name();
        seen += usize::from(view.by_name(&name).is_some());
        if let Some(id) = e.id() {
            seen += usize::from(view.by_id(id).is_some());
        }
        if let Some(ix) = e.index() {
            seen += usize::from(view.by_index(&ix).is_some());
        }
        let _ = (e.type_name(), e.nation(), e.species(), e.region());
        if let Ok(v) = e.value_within(&mut budget) {
            let mut out = Vec::new();
            let _ = write_value(&mut out, &v, Layout::Pretty, 0);
            seen += out.len().min(1) + v.non_utf8_strings();
            let _ = v.at_path("A_Hull.health");
        }
    }
    for r in view.regions() {
        let _ = r.name();
        for e in r.entries().take(2000) {
            seen += usize::from(r.by_name(&e.name()).is_some());
        }
    }
    seen
}

/// Drives `data` as a GameParams.data file and as an inflated pickle.
pub fn drive_params(data: &[u8]) -> usize {
    let mut seen = 0;
    let mut scratch = ParamsScratch::default();
    if let Ok(view) = ParamsView::from_bytes(data, &mut scratch) {
        seen += walk(&view);
    }
    let mut scratch = ParamsScratch::default();
    if let Ok(view) = from_pickle(data, &mut scratch) {
        seen += walk(&view);
    }
    seen
}

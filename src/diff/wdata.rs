//! Rusty Hearts `.wdata` maps compared by section and entry: the owned model
//! ([`WdataMap`], what `dump --json` prints) field by field, each section (header, event box
//! groups, AniBG, item boxes, gimmicks, triggers, scenes, scene resources) under its name and each
//! entry by its position in its section.

use super::Report;
use super::value::{compare, to_value};
use crate::error::Result;
use crate::wdata::WdataView;
use crate::write::wdata::WdataMap;

/// Compares two maps.
pub fn files(a: &WdataView<'_>, b: &WdataView<'_>) -> Result<Report> {
    Ok(maps(&WdataMap::from_view(a)?, &WdataMap::from_view(b)?))
}

/// Compares two owned maps.
pub fn maps(a: &WdataMap, b: &WdataMap) -> Report {
    let mut changes = Vec::new();
    compare("", &to_value(a), &to_value(b), &mut changes);
    Report::new(crate::Format::RustyHeartsWdata.name(), changes)
}

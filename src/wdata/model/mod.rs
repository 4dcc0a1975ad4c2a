//! The owned `.wdata` map ([`WdataModel`]): every field the file stores, as owned values, so that
//! a map read from a file ([`WdataModel::from_view`]) and written back
//! ([`WdataModel::to_bytes`], in [`wdata::write`](crate::wdata::write)) is the same bytes; with
//! the `serde` feature, its JSON form (`gamebin dump --json`, `gamebin wdata pack`).
//!
//! - the map, its header and the shared building blocks in `map.rs`, the EventBoxes section
//!   (and another writer's layout of its groups, [`EventBoxLayout`]) in `event_boxes.rs`, the
//!   scenes in `scenes.rs`; the flat records (boxes, AniBG, ItemBox, Gimmick, triggers, scene
//!   resources) come from the record tables of `wdata::flat_records`, whose one grammar makes
//!   the reader's structs, these models and their writers;
//! - `from_view.rs` copies a view into the model, `json.rs` holds the JSON forms that are not
//!   derived.

mod event_boxes;
pub(crate) mod from_view;
#[cfg(feature = "serde")]
mod json;
mod map;
mod scenes;

pub use event_boxes::*;
// The records declared in the tables of `wdata::flat_records`, whose grammar makes them.
pub use crate::wdata::flat_records::{
    event_box_models::*, inner_record_models::*, nested_record_models::*, section_models::*,
};
pub use map::*;
pub use scenes::*;

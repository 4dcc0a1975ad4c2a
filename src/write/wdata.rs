//! Writes Rusty Hearts `.wdata` maps from an owned [`WdataMap`], in the read order and with the
//! version gates of `specs/rusty-hearts-wdata.notes.md`. No real `.wdata` is public, so this
//! writer is the source of the committed fixtures (`fixtures/rusty-hearts-wdata/`); it is written
//! from the notes alone, and `tests/wdata_hand.rs` checks its output against bytes assembled by
//! hand.

mod event_boxes;
mod model;
mod scenes;

pub use event_boxes::*;
pub use model::*;
pub use scenes::*;

//! Writers for the formats (feature `write`): the source of the committed fixtures, of round-trip
//! tests and of benchmark inputs.

pub mod assets;
pub mod assets_synth;
pub mod craftstudio;
pub mod geometry;
pub mod model;
#[cfg(feature = "serde")]
pub(crate) mod serde_hex;
pub(crate) mod sink;
pub mod wdata;
pub mod wdb;
pub mod wwd;

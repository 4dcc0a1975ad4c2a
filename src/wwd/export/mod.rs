//! A level's interchange forms: a plane drawn as a picture ([`render`]; PNG with the `png`
//! feature) and the whole level as a Tiled map and back (`tiled`, feature `tiled`).

pub mod render;
#[cfg(feature = "tiled")]
pub mod tiled;

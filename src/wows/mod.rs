//! World of Warships formats.

pub mod assets;
pub mod geometry;
pub mod model;

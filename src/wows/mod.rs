//! World of Warships formats.

#[cfg(feature = "assets")]
pub mod assets;
#[cfg(feature = "geometry")]
pub mod axes;
#[cfg(feature = "geometry")]
pub mod geometry;
#[cfg(all(feature = "geometry", feature = "assets"))]
pub mod model;

//! Synthetic files made with the writers (feature `synth`): the committed fixtures of every format
//! (`fixtures/`), the small files of the docs' examples, the benchmarks' large inputs, and the
//! model worlds — an `assets.bin` at a real game's scale with the `.geometry` file of every ship
//! visual, laid out the way the game's `res/` folder is. Not part of the readers: a library user's
//! plain dependency does not build them.

#[cfg(feature = "assets")]
pub mod assets;
#[cfg(feature = "assets")]
pub mod assets_scale;
#[cfg(feature = "craftstudio")]
pub mod craftstudio;
#[cfg(feature = "dds")]
pub mod dds;
#[cfg(feature = "geometry")]
pub mod geometry;
#[cfg(all(feature = "geometry", feature = "assets"))]
pub mod model_world;
#[cfg(feature = "params")]
pub mod params;
#[cfg(all(feature = "pfs", feature = "assets"))]
pub mod pfs;
#[cfg(feature = "assets")]
pub mod ship_textures;
#[cfg(feature = "sources")]
pub mod sources;
#[cfg(feature = "wdata")]
pub mod wdata;
#[cfg(feature = "wdata")]
pub mod wdata_large;
#[cfg(feature = "wdb")]
pub mod wdb;
#[cfg(feature = "wwd")]
pub mod wwd;

//! BigWorld XML model sources as mod authors ship them (the ModSDK layout): `.model`, `.visual`
//! and `.mfm` files, in both generations (see the crate's specs: the newer form with a
//! `<skeleton>`, named render sets and `<lods>`; the classic form with a top-level `<node>` tree,
//! `<geometry>` mapping names and a `<parent>` chain of LOD `.model` files).
//!
//! The files are small text files, so they are read whole into owned types (unlike the binary
//! formats, there is nothing to borrow: every value is trimmed text that must be parsed). Every
//! error names the file, the element path and the line. [`resolve`] reads a model and every file it
//! names under a res/ root (the `<parent>` chain, the files a mod lacks are errors naming them);
//! `gltf` (feature `gltf`) exports it, with its textures (`wows::textures`).

mod error;
#[cfg(all(feature = "geometry", feature = "gltf"))]
pub mod gltf;
mod mfm;
mod model;
mod resolve;
mod visual;
mod xml;

pub use error::SourceError;
pub use mfm::{Material, MaterialProperty, PropertyValue};
pub use model::{ModelFile, VisualKind};
pub use resolve::{MAX_LOD_CHAIN, SourceLod, SourceModel, relative_to, resolve};
pub use visual::{VisualFile, VisualForm, VisualLod, VisualMaterial, VisualNode, VisualRenderSet};
pub use xml::{Element, MAX_DEPTH, MAX_FILE_SIZE, parse, read_source};

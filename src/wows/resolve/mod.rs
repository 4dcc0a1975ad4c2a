//! From `assets.bin` to a model: a ModelPrototype (or VisualPrototype), by id or path, resolved
//! to its visual, its node hierarchy, its levels of detail and its render sets with their
//! materials ([`ModelResolver`]), and each render set's mesh drawn from its `.geometry` file
//! ([`GeometryCache`], which opens and decodes each file once for a whole batch: files under
//! 1 MiB read into memory, so that a batch's threads do not interrupt each other unmapping them;
//! larger ones mapped).
//!
//! Everything is borrowed from the `assets.bin` and the cached `.geometry` files; resolving
//! allocates nothing but the cache's own buffers. Errors ([`ResolveError`]) name the model, the
//! render set and the missing piece, so that a batch reports one bad model and goes on.
//!
//! ```
//! # #[cfg(feature = "write")]
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! # let root = gamebin::synth::model_world::example_root()?;
//! # let file = std::fs::read(root.join("assets.bin"))?;
//! use gamebin::wows::assets::AssetsDb;
//! use gamebin::wows::resolve::{GeometryCache, ModelResolver};
//!
//! let db = AssetsDb::from_bytes(&file)?;
//! let resolver = ModelResolver::new(db, &root); // the folder holding `content/`
//! let mut cache = GeometryCache::new(); // keep it for the whole batch
//!
//! let model = resolver.resolve_path("res/content/gameplay/Test.model")?;
//! let geometry = cache.load(&resolver, &model)?;
//! for set in model.render_sets()? {
//!     let set = set?;
//!     let draw = geometry.draw(&model, &set)?;
//!     println!("{:?}: {} vertices", set.name, draw.vertices.len());
//! }
//! # std::fs::remove_dir_all(&root)?;
//! # Ok(())
//! # }
//! # #[cfg(not(feature = "write"))]
//! # fn main() {}
//! ```

mod cache;
mod error;
#[cfg(feature = "gltf")]
pub mod gltf;
mod resolver;

pub use cache::{GeometryCache, LoadedGeometry};
pub use error::{Missing, ResolveError};
pub use resolver::{
    ModelLod, ModelNode, ModelResolver, ResolvedModel, ResolvedRenderSet, strip_res,
};

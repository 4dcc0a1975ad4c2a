//! # gamebin
//!
//! Zero-copy readers for game data files. A file is memory-mapped once (or handed over as a byte
//! slice) and every structure is a borrowed, lifetime-bound view over it: nothing is parsed until it
//! is asked for, nothing is allocated to open, look up or iterate, and the only copies are the ones a
//! format forces (decoding meshoptimizer buffers, or inflating a compressed `.wwd` main block, into a
//! buffer the caller owns, with a decompressor the caller can keep across files).
//!
//! Every read is bounds-checked; a malformed file gives an [`Error`] that says where (the file
//! offset), what (the structure and field) and why (the offending values), never a panic.
//!
//! | module | format | view |
//! |---|---|---|
//! | [`wows::geometry`] | World of Warships `.geometry` | [`GeometryView`](wows::geometry::GeometryView) |
//! | [`wows::assets`] | World of Warships `assets.bin` (BWDB PrototypeDatabase) | [`AssetsDb`](wows::assets::AssetsDb) |
//! | [`wows::pfs`] | World of Warships `.idx` + `.pkg` archives (a game install) | [`IdxView`](wows::pfs::IdxView), [`GameInstall`](wows::pfs::GameInstall) |
//! | [`wdb`] | Final Fantasy XIII trilogy `.wdb` | [`WdbView`](wdb::WdbView) |
//! | [`wwd`] | Captain Claw / Gruntz `.wwd` levels | [`WwdView`](wwd::WwdView) |
//! | [`wdata`] | Rusty Hearts `.wdata` maps | [`WdataView`](wdata::WdataView) |
//! | [`craftstudio`] | CraftStudio `Project.dat` | [`ProjectView`](craftstudio::ProjectView) |
//! | [`dds`] | DDS textures (BC1–BC7, uncompressed) | [`DdsView`](dds::DdsView) |
//!
//! ```
//! # #[cfg(feature = "geometry")]
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! # let dir = std::env::temp_dir().join(format!("gamebin-doc-{}", std::process::id()));
//! # std::fs::create_dir_all(&dir)?;
//! # let path = dir.join("ship.geometry");
//! # std::fs::write(&path, gamebin::synth::geometry::example_file())?;
//! use gamebin::{Format, MappedFile, wows::geometry::GeometryView};
//!
//! let file = MappedFile::open(&path)?;
//! assert_eq!(gamebin::detect(&file), Some(Format::WowsGeometry));
//!
//! let geometry = GeometryView::open(&file)?;
//! for draw in geometry.draws().iter() {
//!     println!(
//!         "mesh {:#010x}: {} vertices, {} indices",
//!         draw.vertices.id(),
//!         draw.vertices.items_count(),
//!         draw.indices.items_count()
//!     );
//! }
//! let propeller = geometry.draw_by_name("Cube");
//! assert!(propeller.is_some());
//! # std::fs::remove_dir_all(&dir)?;
//! # Ok(())
//! # }
//! # #[cfg(not(feature = "geometry"))]
//! # fn main() {}
//! ```
//!
//! Tools that take a file of any format go through [`AnyView`]: [`AnyView::parse`] detects the
//! format by content and opens the format's view, and every format's view implements [`View`]
//! (check, summary, owned model), so that such tools hold no list of formats of their own.
//!
//! A mapped file must not be truncated or modified while it is mapped (truncation kills the process
//! with `SIGBUS`): see the contract on [`MappedFile::open`]. [`MappedFile::read`] reads a file into
//! memory instead, with the same [`MappedFile::bytes`]; every view also opens from a plain `&[u8]`
//! (`from_bytes`).
#![deny(unsafe_code)]
#![warn(missing_debug_implementations)]
#![warn(missing_docs)]

/// Items that exist in a build with at least one format, and the ones that stand in for them in a
/// build with none: the list of formats' features, once.
macro_rules! with_formats {
    (built { $($built:item)* } none { $($none:item)* }) => {
        $(#[cfg(any(
            feature = "geometry",
            feature = "assets",
            feature = "wdb",
            feature = "wwd",
            feature = "wdata",
            feature = "craftstudio",
            feature = "pfs",
            feature = "dds"
        ))] $built)*
        $(#[cfg(not(any(
            feature = "geometry",
            feature = "assets",
            feature = "wdb",
            feature = "wwd",
            feature = "wdata",
            feature = "craftstudio",
            feature = "pfs",
            feature = "dds"
        )))] $none)*
    };
}

with_formats! {
    built {
        pub mod any;
        #[cfg(feature = "write")]
        pub use any::AnyModel;
        pub use any::{AnySummary, AnyView, Scratch, View, detect_file};
    }
    none {}
}
pub mod bytes;
#[cfg(feature = "craftstudio")]
pub mod craftstudio;
#[cfg(feature = "dds")]
pub mod dds;
pub mod diff;
pub mod error;
#[cfg(feature = "gltf")]
pub mod gltf;
pub mod hash;
pub mod mmap;
// Used by the formats whose models hold opaque bytes; a build with fewer formats may use half.
#[cfg(feature = "serde")]
#[allow(dead_code)]
pub(crate) mod serde_hex;
#[cfg(feature = "synth")]
pub mod synth;
#[cfg(feature = "wdata")]
pub mod wdata;
#[cfg(feature = "wdb")]
pub mod wdb;
#[cfg(any(
    feature = "geometry",
    feature = "assets",
    feature = "pfs",
    feature = "sources"
))]
pub mod wows;
pub mod write_error;
#[cfg(feature = "wwd")]
pub mod wwd;

/// The paths of the writers and owned models before each format's folder held them
/// (`gamebin::write::wdb` is [`wdb::model`], and with the `synth` feature the fixture makers of
/// `synth::wdb`). Kept so that code written against them still builds; new code uses the
/// formats' own paths (CHANGELOG.md lists every move).
#[cfg(feature = "write")]
pub mod write {
    /// Now [`crate::wows::assets::model`] (and `crate::synth::assets`).
    #[cfg(feature = "assets")]
    pub mod assets {
        #[cfg(feature = "synth")]
        pub use crate::synth::assets::*;
        pub use crate::wows::assets::model::*;
    }
    /// Now `crate::synth::assets_scale`.
    #[cfg(all(feature = "synth", feature = "assets"))]
    pub use crate::synth::assets_scale as assets_synth;
    /// Now [`crate::craftstudio::model`] (and `crate::synth::craftstudio`).
    #[cfg(feature = "craftstudio")]
    pub mod craftstudio {
        pub use crate::craftstudio::model::*;
        #[cfg(feature = "synth")]
        pub use crate::synth::craftstudio::*;
    }
    /// Now [`crate::wows::geometry::model`] (and `crate::synth::geometry`).
    #[cfg(feature = "geometry")]
    pub mod geometry {
        #[cfg(feature = "synth")]
        pub use crate::synth::geometry::*;
        pub use crate::wows::geometry::model::*;
    }
    /// Now `crate::synth::model_world`.
    #[cfg(all(feature = "synth", feature = "geometry", feature = "assets"))]
    pub use crate::synth::model_world as model;
    /// Now [`crate::wdata::model`] (and `crate::synth::wdata`, `crate::synth::wdata_large`).
    #[cfg(feature = "wdata")]
    pub mod wdata {
        #[cfg(feature = "synth")]
        pub use crate::synth::wdata::*;
        #[cfg(feature = "synth")]
        pub use crate::synth::wdata_large::*;
        pub use crate::wdata::model::*;
    }
    /// Now [`crate::wdb::model`] (and `crate::synth::wdb`).
    #[cfg(feature = "wdb")]
    pub mod wdb {
        #[cfg(feature = "synth")]
        pub use crate::synth::wdb::*;
        pub use crate::wdb::model::*;
    }
    /// Now [`crate::wwd::model`] (and `crate::synth::wwd`).
    #[cfg(feature = "wwd")]
    pub mod wwd {
        #[cfg(feature = "synth")]
        pub use crate::synth::wwd::*;
        pub use crate::wwd::model::*;
    }
}

/// The exporters' paths before the World of Warships folder held them: [`wows::axes`], the
/// `.geometry` exporters of [`wows::geometry::export`] and the model exporter `wows::model::gltf`.
/// Kept so that code written against them still builds.
#[cfg(feature = "geometry")]
pub mod export {
    pub use crate::wows::axes;
    #[cfg(feature = "gltf")]
    pub use crate::wows::geometry::export::gltf;
    pub use crate::wows::geometry::export::obj;
    #[cfg(all(feature = "gltf", feature = "assets"))]
    pub use crate::wows::model::gltf as model_gltf;
}

pub use error::{Error, ErrorKind, Result};
pub use mmap::MappedFile;
pub use write_error::{WriteContext, WriteError, WriteErrorKind, WriteResult};

/// A file format gamebin reads. Exhaustive: a `match` over formats needs no fallback arm, so that
/// a format added later fails to compile wherever it is not handled (see [`AnyView`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Format {
    /// World of Warships `.geometry` (MergedGeometryPrototype).
    WowsGeometry,
    /// World of Warships `assets.bin` (BWDB PrototypeDatabase).
    WowsAssets,
    /// Final Fantasy XIII trilogy `.wdb` (WPD container).
    Ff13Wdb,
    /// Captain Claw / Gruntz `.wwd` level (WAP32 engine).
    Wap32Wwd,
    /// CraftStudio `Project.dat` (the project's header, game controls and asset tree).
    CraftStudioProject,
    /// Rusty Hearts `.wdata` map.
    RustyHeartsWdata,
    /// World of Warships PFS index (`.idx`): one index of an install, without its `.pkg` volumes.
    WowsPfsIdx,
    /// DDS texture (DirectDraw Surface: BC1–BC7 or uncompressed).
    Dds,
}

impl Format {
    /// The short name used in the CLI's output (`"wows-geometry"`).
    pub const fn name(self) -> &'static str {
        match self {
            Format::WowsGeometry => "wows-geometry",
            Format::WowsAssets => "wows-assets",
            Format::Ff13Wdb => "ff13-wdb",
            Format::Wap32Wwd => "wap32-wwd",
            Format::CraftStudioProject => "craftstudio-project",
            Format::RustyHeartsWdata => "rusty-hearts-wdata",
            Format::WowsPfsIdx => "wows-pfs-idx",
            Format::Dds => "dds",
        }
    }
}

impl core::fmt::Display for Format {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.name())
    }
}

with_formats! {
    built {
        /// Detects a file's format from its content, never its name. Formats with a magic number
        /// are tried first (`assets.bin`, a PFS `.idx`, `.wdb`, `.wwd`, `.wdata`'s signature) and
        /// formats without one (`.geometry`, CraftStudio's `Project.dat`) last, each by its
        /// [`View::looks_like`]. To fall back on the file's name when content says nothing, see
        /// [`detect_file`]. Only the formats this build has (their features) are recognised.
        pub fn detect(data: &[u8]) -> Option<Format> {
            any::detect(data)
        }
    }
    none {
        /// Detects a file's format from its content: in this build, which has no format, nothing
        /// is recognised.
        pub fn detect(_data: &[u8]) -> Option<Format> {
            None
        }
    }
}

/// The README's examples, run as doc tests. They make their input files with the writers and
/// export glTF, so they run only when every format and `gltf` are on (`cargo test` in the
/// workspace turns `gltf` on through the command line tool).
#[cfg(all(
    doctest,
    feature = "geometry",
    feature = "assets",
    feature = "wdb",
    feature = "wwd",
    feature = "wdata",
    feature = "craftstudio",
    feature = "pfs",
    feature = "gltf"
))]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;

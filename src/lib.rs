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
//! | [`wows::assets`] | World of Warships `assets.bin` (BWDB PrototypeDatabase) | [`AssetsView`](wows::assets::AssetsView) |
//! | [`wdb`] | Final Fantasy XIII trilogy `.wdb` | [`WdbView`](wdb::WdbView) |
//! | [`wwd`] | Captain Claw / Gruntz `.wwd` levels | [`WwdView`](wwd::WwdView) |
//! | [`wdata`] | Rusty Hearts `.wdata` maps | [`WdataView`](wdata::WdataView) |
//! | [`craftstudio`] | CraftStudio `Project.dat` | [`ProjectView`](craftstudio::ProjectView) |
//!
//! ```
//! # #[cfg(feature = "write")]
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! # let dir = std::env::temp_dir().join(format!("gamebin-doc-{}", std::process::id()));
//! # std::fs::create_dir_all(&dir)?;
//! # let path = dir.join("ship.geometry");
//! # std::fs::write(&path, gamebin::write::geometry::example_file())?;
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
//! # #[cfg(not(feature = "write"))]
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

pub mod any;
pub mod bytes;
pub mod craftstudio;
pub mod diff;
pub mod error;
pub mod export;
pub mod hash;
pub mod mmap;
pub mod wdata;
pub mod wdb;
pub mod wows;
#[cfg(feature = "write")]
pub mod write;
pub mod wwd;

#[cfg(feature = "write")]
pub use any::AnyModel;
pub use any::{AnySummary, AnyView, Scratch, View, detect_file};
pub use error::{Error, ErrorKind, Result};
pub use mmap::MappedFile;

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
        }
    }
}

impl core::fmt::Display for Format {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.name())
    }
}

/// Detects a file's format from its content, never its name. Formats with a magic number are tried
/// first (`assets.bin`, `.wdb`, `.wwd`, `.wdata`'s signature) and formats without one
/// (`.geometry`, CraftStudio's `Project.dat`) last, each by its [`View::looks_like`]. To fall back
/// on the file's name when content says nothing, see [`detect_file`].
pub fn detect(data: &[u8]) -> Option<Format> {
    any::detect(data)
}

/// The README's examples, run as doc tests. They make their input files with the writers and
/// export glTF, so they run only when `write` and `gltf` are on (the default features are).
#[cfg(all(doctest, feature = "write", feature = "gltf"))]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;

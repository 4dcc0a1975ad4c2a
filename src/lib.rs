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
//! Each format is a module behind a Cargo feature of the same name (all on by default); in this
//! build's documentation, the formats it leaves out are not linked.
//!
//! | module | format | view |
//! |---|---|---|
#![cfg_attr(
    feature = "geometry",
    doc = "| [`wows::geometry`] | World of Warships `.geometry` | [`GeometryView`](wows::geometry::GeometryView) |"
)]
#![cfg_attr(
    not(feature = "geometry"),
    doc = "| `wows::geometry` (feature `geometry`, off) | World of Warships `.geometry` | `GeometryView` |"
)]
#![cfg_attr(
    feature = "assets",
    doc = "| [`wows::assets`] | World of Warships `assets.bin` (BWDB PrototypeDatabase) | [`AssetsDb`](wows::assets::AssetsDb) |"
)]
#![cfg_attr(
    not(feature = "assets"),
    doc = "| `wows::assets` (feature `assets`, off) | World of Warships `assets.bin` (BWDB PrototypeDatabase) | `AssetsDb` |"
)]
#![cfg_attr(
    feature = "pfs",
    doc = "| [`wows::pfs`] | World of Warships `.idx` + `.pkg` archives (a game install) | [`IdxView`](wows::pfs::IdxView), [`GameInstall`](wows::pfs::GameInstall) |"
)]
#![cfg_attr(
    not(feature = "pfs"),
    doc = "| `wows::pfs` (feature `pfs`, off) | World of Warships `.idx` + `.pkg` archives (a game install) | `IdxView`, `GameInstall` |"
)]
#![cfg_attr(
    feature = "params",
    doc = "| [`wows::params`] | World of Warships `GameParams.data` (reversed zlib, Python 2 pickle) | [`ParamsView`](wows::params::ParamsView) |"
)]
#![cfg_attr(
    not(feature = "params"),
    doc = "| `wows::params` (feature `params`, off) | World of Warships `GameParams.data` (reversed zlib, Python 2 pickle) | `ParamsView` |"
)]
#![cfg_attr(
    feature = "wdb",
    doc = "| [`wdb`] | Final Fantasy XIII trilogy `.wdb` | [`WdbView`](wdb::WdbView) |"
)]
#![cfg_attr(
    not(feature = "wdb"),
    doc = "| `wdb` (feature `wdb`, off) | Final Fantasy XIII trilogy `.wdb` | `WdbView` |"
)]
#![cfg_attr(
    feature = "wwd",
    doc = "| [`wwd`] | Captain Claw / Gruntz `.wwd` levels | [`WwdView`](wwd::WwdView) |"
)]
#![cfg_attr(
    not(feature = "wwd"),
    doc = "| `wwd` (feature `wwd`, off) | Captain Claw / Gruntz `.wwd` levels | `WwdView` |"
)]
#![cfg_attr(
    feature = "wdata",
    doc = "| [`wdata`] | Rusty Hearts `.wdata` maps | [`WdataView`](wdata::WdataView) |"
)]
#![cfg_attr(
    not(feature = "wdata"),
    doc = "| `wdata` (feature `wdata`, off) | Rusty Hearts `.wdata` maps | `WdataView` |"
)]
#![cfg_attr(
    feature = "craftstudio",
    doc = "| [`craftstudio`] | CraftStudio `Project.dat` | [`ProjectView`](craftstudio::ProjectView) |"
)]
#![cfg_attr(
    not(feature = "craftstudio"),
    doc = "| `craftstudio` (feature `craftstudio`, off) | CraftStudio `Project.dat` | `ProjectView` |"
)]
#![cfg_attr(
    feature = "dds",
    doc = "| [`dds`] | DDS textures (BC1–BC7, uncompressed) | [`DdsView`](dds::DdsView) |"
)]
#![cfg_attr(
    not(feature = "dds"),
    doc = "| `dds` (feature `dds`, off) | DDS textures (BC1–BC7, uncompressed) | `DdsView` |"
)]
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
//! Tools that take a file of any format go through `AnyView` (in every build with a format):
//! `AnyView::parse` detects the format by content and opens the format's view, and every format's
//! view implements [`View`] (check, summary, owned model), so that such tools hold no list of
//! formats of their own.
//!
//! A mapped file must not be truncated or modified while it is mapped (truncation kills the process
//! with `SIGBUS`): see the contract on [`MappedFile::open`]. [`MappedFile::read`] reads a file into
//! memory instead, with the same [`MappedFile::bytes`]; every view also opens from a plain `&[u8]`
//! (`from_bytes`).
//!
//! ## Errors
//!
//! Three errors are shared by every format, each for one kind of failure:
//!
//! - [`Error`]: reading a file's bytes failed. It always has the file offset where, the structure
//!   and field that was being read, and why; it is small, `Copy` and allocation-free, as the read
//!   path wants.
//! - [`WriteError`]: an owned model cannot be written (or built from an interchange form such as
//!   JSON, CSV or TMX). It has no offset, since it is about a model: the model's path to the value
//!   (`planes[1].tiles[40,7]`), the format's field and a typed [`WriteErrorKind`].
//! - [`ExportError`]: an export (GLB, OBJ, PNG) could not be made: the reader's error, a size past
//!   what the output format holds, or an output that cannot be written.
//!
//! The generic layer adds [`ViewError`] (a summary, model or comparison of an opened file) and,
//! where formats are detected, `ParseError`, `NamedError` and `NamelessError`, which say which
//! format the content or the name pointed to, the reader's [`Error`] being their source.
//!
//! The other error types stay their own because each carries what [`Error`] has no room for and
//! that only its layer knows; each wraps the reader's [`Error`] where reading failed, rather than
//! saying it again:
//! a `.wdb`'s record and field names (`WdbError`); a GameParams entry's name (`ParamsError`: its
//! offsets are in the inflated pickle, not the file); an install's file names and paths, and
//! which of two installs (`InstallError`, `InstallDiffError`: an install is many files, and
//! I/O fails there too); an `assets.bin` model's id, full path and render set (`ResolveError`); an
//! XML source's file, element path and line (`SourceError`: text, not bytes at offsets); the
//! texture tier file that does not read (`TierError`); a level plane that cannot be drawn
//! (`RenderError`).
#![deny(unsafe_code)]
#![warn(missing_debug_implementations)]
#![warn(missing_docs)]

/// Items that exist in a build with `any` format (a build with none has nothing to detect or open)
/// or with `all` of them: the list of formats' features, once.
macro_rules! with_formats {
    ($when:ident: $($built:item)*) => {
        $(#[cfg($when(
            feature = "geometry",
            feature = "assets",
            feature = "wdb",
            feature = "wwd",
            feature = "wdata",
            feature = "craftstudio",
            feature = "pfs",
            feature = "dds",
            feature = "params"
        ))] $built)*
    };
}

with_formats! {
    any:
    mod any;
    pub use any::*;
}
pub mod bytes;
#[cfg(feature = "craftstudio")]
pub mod craftstudio;
#[cfg(feature = "dds")]
pub mod dds;
pub mod diff;
mod error;
mod export_error;
#[cfg(feature = "gltf")]
pub mod gltf;
pub mod hash;
mod mmap;
mod view;
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
    feature = "sources",
    feature = "params"
))]
pub mod wows;
mod write_error;
#[cfg(feature = "wwd")]
pub mod wwd;

pub use error::{Error, ErrorKind, Result};
pub use export_error::{ExportError, ExportResult};
pub use mmap::MappedFile;
#[cfg(feature = "write")]
pub use view::ModelValue;
pub use view::{CheckReport, Finding, NameHint, Scratch, SummaryValue, View, ViewError};
pub use write_error::{WriteContext, WriteError, WriteErrorKind, WriteResult};

with_formats! {
    all:
    /// The README's examples, run as doc tests. They make their input files with the writers and
    /// export glTF, so they run only when every format and `gltf` are on (`cargo test` in the
    /// workspace turns `gltf` on through the command line tool).
    #[cfg(all(doctest, feature = "gltf"))]
    #[doc = include_str!("../README.md")]
    pub struct ReadmeDoctests;
}

//! One enum over every format: [`AnyView`] opens whatever a file is, and each format's view is one
//! implementation of [`View`]. This is the one module that lists the formats: [`Format`],
//! [`AnyView`], [`AnySummary`] and [`AnyModel`] are made from one list below, and every format's
//! facts (its name, the names its files go by) come from its `impl View`.
//!
//! Tools that take any file (`gamebin info`, `check`, `dump`, `diff`, Python's `gamebin.open`,
//! the fuzz targets) go through [`AnyView`], so that they need no list of formats of their own: a
//! new format is one `impl View` beside its view and one line in that list, and nothing compiles
//! until both exist (every `match` over formats in the crate and the CLI is exhaustive, with no
//! fallback arm).
//!
//! Where the parts are: the list and the enums here; detection by file name in
//! [`name`](detect_file); the trait, the check report and the scratch space in
//! [`view`](crate::view); each format's `impl View` in a `view.rs` beside its reader
//! (`wdb/view.rs`, `wows/geometry/view.rs`, ...).
//!
//! ```
//! # #[cfg(feature = "geometry")]
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! # let bytes = gamebin::synth::geometry::example_file();
//! use gamebin::{AnyView, Format, Scratch};
//!
//! let mut scratch = Scratch::new();
//! let view = AnyView::parse(&bytes, &mut scratch)?;
//! assert_eq!(view.format(), Format::WowsGeometry);
//! println!("{}", view.summary()?);
//! assert!(view.check().is_clean());
//! # Ok(())
//! # }
//! # #[cfg(not(feature = "geometry"))]
//! # fn main() {}
//! ```

mod name;

use core::fmt;
use std::path::Path;

#[cfg(feature = "craftstudio")]
use crate::craftstudio::ProjectView;
#[cfg(feature = "dds")]
use crate::dds::DdsView;
use crate::error::{Error, Result};
use crate::view::{CheckReport, NameHint, Scratch, View, ViewError};
#[cfg(feature = "wdata")]
use crate::wdata::WdataView;
#[cfg(feature = "wdb")]
use crate::wdb::WdbView;
#[cfg(feature = "assets")]
use crate::wows::assets::AssetsDb;
#[cfg(feature = "geometry")]
use crate::wows::geometry::GeometryView;
#[cfg(feature = "params")]
use crate::wows::params::ParamsView;
#[cfg(feature = "pfs")]
use crate::wows::pfs::IdxView;
#[cfg(feature = "wwd")]
use crate::wwd::WwdView;

use name::Named;
pub use name::{NamedError, NamelessError, detect_file, nearest_reader};

/// Why [`AnyView::parse`] opened nothing: no format this build reads recognises the content, or
/// the format that does cannot read it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ParseError {
    /// No format this build reads recognises the content (formats are detected by content; a
    /// format whose Cargo feature is off is not among them).
    UnknownFormat,
    /// The content is empty: there is nothing to detect or read.
    Empty,
    /// The format that recognises the content cannot read it: the reader's error.
    Read(Error),
}

impl ParseError {
    /// Why `data`, which no format recognises, is not read: [`Empty`](ParseError::Empty) for no
    /// bytes at all, [`UnknownFormat`](ParseError::UnknownFormat) otherwise. One rule for every
    /// caller (the CLI, the Python package), so that they say the same of the same file.
    pub fn unrecognised(data: &[u8]) -> Self {
        if data.is_empty() {
            ParseError::Empty
        } else {
            ParseError::UnknownFormat
        }
    }
}

impl From<Error> for ParseError {
    fn from(e: Error) -> Self {
        ParseError::Read(e)
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseError::UnknownFormat => {
                f.write_str("not a format gamebin reads (formats are detected by content)")
            }
            ParseError::Empty => f.write_str("empty (0 bytes): there is nothing to read"),
            ParseError::Read(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for ParseError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ParseError::UnknownFormat | ParseError::Empty => None,
            ParseError::Read(e) => Some(e),
        }
    }
}

/// Declares the enums over the formats from one list, in the order content detection tries them
/// (formats with a magic number first, the others last), and forwards their calls to [`View`].
macro_rules! formats {
    ($($(#[$doc:meta])* $variant:ident($view:ident) = $format:ident if $feature:literal,)*) => {
        // Only the formats of this list implement `View`.
        $(#[cfg(feature = $feature)] impl crate::view::sealed::Sealed for $view<'_> {})*

        /// A file format gamebin reads: one variant per format this build has (its Cargo
        /// feature on). Exhaustive: a `match` over formats needs no fallback arm, so that a format
        /// added later fails to compile wherever it is not handled (see [`AnyView`]).
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum Format {
            $(#[cfg(feature = $feature)] $(#[$doc])* $format,)*
        }

        impl Format {
            /// The short name used in the CLI's output (`"wows-geometry"`): the format's
            /// [`View::NAME`].
            pub const fn name(self) -> &'static str {
                match self {
                    $(#[cfg(feature = $feature)] Format::$format => <$view<'static> as View<'static>>::NAME,)*
                }
            }
        }

        /// A file of any format gamebin reads, opened: one variant per format, each the format's
        /// main view. Made by [`AnyView::parse`] (detection by content) or
        /// [`AnyView::from_bytes_as`] (a format already known).
        ///
        /// Exhaustive on purpose: a `match` over it needs no fallback arm, so that a format added
        /// later does not compile until every such match handles it. As large as the largest
        /// view (views are a few hundred bytes of offsets and slices): boxing them would
        /// allocate on every open, which zero-copy opening must not.
        #[derive(Debug, Clone, Copy)]
        #[allow(clippy::large_enum_variant)]
        pub enum AnyView<'a> {
            $(#[cfg(feature = $feature)] $(#[$doc])* $variant($view<'a>),)*
        }

        /// What `gamebin info` shows of a file of any format ([`View::Summary`]). `Display` gives
        /// the line (from the format's name on); with `serde`, the format's own object.
        #[derive(Debug, Clone)]
        pub enum AnySummary {
            $(#[cfg(feature = $feature)] $(#[$doc])* $variant(<$view<'static> as View<'static>>::Summary),)*
        }

        /// The owned model of a file of any format ([`View::Model`]); with `serde`, it
        /// serializes as the format's own model.
        #[cfg(feature = "write")]
        #[derive(Debug)]
        // Models own their contents on the heap already; the enum is made once per file.
        #[allow(clippy::large_enum_variant)]
        pub enum AnyModel {
            $(#[cfg(feature = $feature)] $(#[$doc])* $variant(<$view<'static> as View<'static>>::Model),)*
        }

        /// Detects a file's format from its content, never its name: each format's
        /// [`View::looks_like`], in the order of the list below.
        pub fn detect(data: &[u8]) -> Option<Format> {
            $(
                #[cfg(feature = $feature)]
                if <$view<'_> as View<'_>>::looks_like(data) {
                    return Some(Format::$format);
                }
            )*
            let _ = data;
            None
        }

        /// The formats with how a name vouches for them ([`View::NAMED`]) and what makes their
        /// reader's errors evidence for nameless data ([`View::MAGIC`],
        /// [`View::NAMELESS_EVIDENCE`]), in detection order.
        pub(crate) const NAMED: &[Named] = &[
            $(
                #[cfg(feature = $feature)]
                Named {
                    format: Format::$format,
                    hint: <$view<'static> as View<'static>>::NAMED,
                    magic: <$view<'static> as View<'static>>::MAGIC,
                    evidence: <$view<'static> as View<'static>>::NAMELESS_EVIDENCE,
                },
            )*
        ];

        /// The format a file's name suggests when its content did not ([`View::named_like`]).
        pub(crate) fn named_like(path: &Path, data: &[u8], named: bool) -> Option<(Format, NameHint)> {
            $(
                #[cfg(feature = $feature)]
                if let Some(hint) = <$view<'_> as View<'_>>::named_like(path, data, named) {
                    return Some((Format::$format, hint));
                }
            )*
            let _ = (path, data, named);
            None
        }

        impl<'a> AnyView<'a> {
            /// Opens `data` as `format` (known from [`detect`] or [`detect_file`]).
            pub fn from_bytes_as(format: Format, data: &'a [u8], scratch: &'a mut Scratch) -> Result<Self> {
                match format {
                    $(
                        #[cfg(feature = $feature)]
                        Format::$format => <$view<'a> as View<'a>>::from_bytes_in(data, scratch).map(AnyView::$variant),
                    )*
                }
            }

            /// The format of the file.
            pub const fn format(&self) -> Format {
                match self {
                    $(#[cfg(feature = $feature)] AnyView::$variant(_) => Format::$format,)*
                }
            }

            /// Walks every structure ([`View::check`]).
            pub fn check(&self) -> CheckReport {
                match self {
                    $(#[cfg(feature = $feature)] AnyView::$variant(view) => View::check(view),)*
                }
            }

            /// What `gamebin info` shows ([`View::summary`]).
            pub fn summary(&self) -> core::result::Result<AnySummary, ViewError> {
                match self {
                    $(#[cfg(feature = $feature)] AnyView::$variant(view) => View::summary(view).map(AnySummary::$variant),)*
                }
            }

            /// Whether a file opened because its name said so is one ([`View::is_as_named`]).
            pub(crate) fn is_as_named(&self) -> core::result::Result<(), &'static str> {
                match self {
                    $(#[cfg(feature = $feature)] AnyView::$variant(view) => View::is_as_named(view),)*
                }
            }

            /// The owned model ([`View::to_model`]).
            #[cfg(feature = "write")]
            pub fn to_model(&self) -> core::result::Result<AnyModel, ViewError> {
                match self {
                    $(#[cfg(feature = $feature)] AnyView::$variant(view) => View::to_model(view).map(AnyModel::$variant),)*
                }
            }

            /// Compares two files of one format ([`View::diff`]); `None` when `other` is of
            /// another format.
            #[cfg(all(feature = "write", feature = "serde"))]
            // A build with one format has one variant, whose `let … else` cannot fail.
            #[allow(irrefutable_let_patterns)]
            pub fn diff(
                &self,
                other: &AnyView<'_>,
            ) -> Option<core::result::Result<crate::diff::Report, ViewError>> {
                match self {
                    $(#[cfg(feature = $feature)] AnyView::$variant(a) => {
                        let AnyView::$variant(b) = other else {
                            return None;
                        };
                        Some(View::diff(a, b))
                    })*
                }
            }
        }

        impl AnySummary {
            /// The format summarised.
            pub const fn format(&self) -> Format {
                match self {
                    $(#[cfg(feature = $feature)] AnySummary::$variant(_) => Format::$format,)*
                }
            }
        }

        impl fmt::Display for AnySummary {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                match self {
                    $(#[cfg(feature = $feature)] AnySummary::$variant(s) => s.fmt(f),)*
                }
            }
        }

        #[cfg(feature = "serde")]
        impl serde::Serialize for AnySummary {
            fn serialize<S: serde::Serializer>(&self, s: S) -> core::result::Result<S::Ok, S::Error> {
                match self {
                    $(#[cfg(feature = $feature)] AnySummary::$variant(summary) => summary.serialize(s),)*
                }
            }
        }

        #[cfg(feature = "write")]
        impl AnyModel {
            /// The format of the file modelled.
            pub const fn format(&self) -> Format {
                match self {
                    $(#[cfg(feature = $feature)] AnyModel::$variant(_) => Format::$format,)*
                }
            }
        }

        #[cfg(all(feature = "write", feature = "serde"))]
        impl serde::Serialize for AnyModel {
            fn serialize<S: serde::Serializer>(&self, s: S) -> core::result::Result<S::Ok, S::Error> {
                match self {
                    $(#[cfg(feature = $feature)] AnyModel::$variant(model) => model.serialize(s),)*
                }
            }
        }
    };
}

formats! {
    /// World of Warships `assets.bin` (BWDB PrototypeDatabase).
    Assets(AssetsDb) = WowsAssets if "assets",
    /// World of Warships PFS index (`.idx`): one index of an install, read without its `.pkg`
    /// volumes.
    PfsIdx(IdxView) = WowsPfsIdx if "pfs",
    /// Final Fantasy XIII trilogy `.wdb` (WPD container).
    Wdb(WdbView) = Ff13Wdb if "wdb",
    /// Captain Claw / Gruntz `.wwd` level (WAP32 engine).
    Wwd(WwdView) = Wap32Wwd if "wwd",
    /// Rusty Hearts `.wdata` map.
    Wdata(WdataView) = RustyHeartsWdata if "wdata",
    /// DDS texture (DirectDraw Surface: BC1–BC7 or uncompressed).
    Dds(DdsView) = Dds if "dds",
    /// World of Warships `GameParams.data` (a reversed zlib stream of a Python 2 pickle; known
    /// by its last bytes, a reversed zlib header: tried after the formats with a magic number).
    Params(ParamsView) = WowsGameParams if "params",
    /// World of Warships `.geometry` (MergedGeometryPrototype; no magic number: tried after the
    /// formats that have one).
    Geometry(GeometryView) = WowsGeometry if "geometry",
    /// CraftStudio `Project.dat`: the project's header, game controls and asset tree (no magic
    /// number).
    CraftStudio(ProjectView) = CraftStudioProject if "craftstudio",
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl<'a> AnyView<'a> {
    /// Detects `data`'s format by content ([`detect`]) and opens it. A file no format recognises
    /// is [`ParseError::UnknownFormat`] (an empty one [`ParseError::Empty`]); a file that is
    /// recognised but damaged gives its reader's error.
    pub fn parse(data: &'a [u8], scratch: &'a mut Scratch) -> core::result::Result<Self, ParseError> {
        match detect(data) {
            Some(format) => Ok(AnyView::from_bytes_as(format, data, scratch)?),
            None => Err(ParseError::unrecognised(data)),
        }
    }
}

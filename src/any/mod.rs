//! One enum over every format: [`AnyView`] opens whatever a file is, and each format's view is one
//! implementation of [`View`].
//!
//! Tools that take any file (`gamebin info`, `check`, `dump`, `diff`, Python's `gamebin.open`,
//! the fuzz targets) go through [`AnyView`], so that they need no list of formats of their own: a
//! new format is a new [`Format`], a new variant here and one `impl View` beside its view, and
//! nothing compiles until all three exist (every `match` over formats in the crate and the CLI is
//! exhaustive, with no fallback arm).
//!
//! Where the parts are: the trait, the enums and the scratch space here; detection by file name in
//! [`name`](detect_file); each format's `impl View` and its [summary](View::Summary) in an
//! `info.rs` beside the format's view (`wdb/info.rs`, `wows/geometry/info.rs`, ...).
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

use crate::Format;
#[cfg(feature = "craftstudio")]
use crate::craftstudio::ProjectView;
use crate::error::{Error, ErrorKind, Result};
#[cfg(feature = "dds")]
use crate::dds::DdsView;
#[cfg(feature = "wdata")]
use crate::wdata::WdataView;
#[cfg(feature = "wdb")]
use crate::wdb::{OwnedWdbError, WdbView};
#[cfg(feature = "assets")]
use crate::wows::assets::AssetsDb;
#[cfg(feature = "geometry")]
use crate::wows::geometry::GeometryView;
#[cfg(feature = "pfs")]
use crate::wows::pfs::IdxView;
#[cfg(feature = "wwd")]
use crate::wwd::{Inflater, WwdView};

pub use name::{NamedError, detect_file};

/// The space a format may need to open a file, kept by the caller across files: a compressed
/// `.wwd` level is inflated into its buffer with its decompressor, so that opening thousands of
/// levels allocates the decompressor once and the buffer only when a level is larger than every one
/// before it. The other formats read the file's own bytes and leave it untouched. Making one
/// allocates nothing.
#[derive(Debug, Default)]
pub struct Scratch {
    /// A compressed level's main block, inflated.
    #[cfg(feature = "wwd")]
    inflated: Vec<u8>,
    /// The decompressor kept across levels.
    #[cfg(feature = "wwd")]
    inflater: Inflater,
    /// How strictly `.wwd` levels are opened.
    #[cfg(feature = "wwd")]
    wwd: crate::wwd::Options,
}

impl Scratch {
    /// Scratch space that opens every format strictly (the default options).
    pub const fn new() -> Scratch {
        #[cfg(feature = "wwd")]
        return Scratch::with_wwd_options(crate::wwd::Options {
            ignore_signature: false,
        });
        #[cfg(not(feature = "wwd"))]
        Scratch {}
    }

    /// Scratch space that opens `.wwd` levels with `options` (`ignore_signature` reads a level
    /// whose header signature is damaged).
    #[cfg(feature = "wwd")]
    pub const fn with_wwd_options(options: crate::wwd::Options) -> Scratch {
        Scratch {
            inflated: Vec::new(),
            inflater: Inflater::new(),
            wwd: options,
        }
    }

    /// The options `.wwd` levels are opened with.
    #[cfg(feature = "wwd")]
    pub const fn wwd_options(&self) -> crate::wwd::Options {
        self.wwd
    }

    /// Opens a `.wwd` level with the kept buffer, decompressor and options.
    #[cfg(feature = "wwd")]
    pub(crate) fn open_wwd<'a>(&'a mut self, data: &'a [u8]) -> Result<WwdView<'a>> {
        WwdView::from_bytes_with(data, &mut self.inflated, &mut self.inflater, self.wwd)
    }
}

/// Why a summary, a model or a comparison of an opened file could not be made. `Display` says
/// everything (where, what and why); it has no `source`, so that printing the chain of causes
/// does not say the reader's error twice.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum ViewError {
    /// The reader's error: the offset, the structure and why.
    Read(Error),
    /// A `.wdb` reader's error, with the record and field it happened in.
    #[cfg(feature = "wdb")]
    Wdb(OwnedWdbError),
    /// A file whose content its owned model cannot hold (a `.wdb` record and field that do not
    /// decode as the model's values), with where in the model.
    Model(crate::write_error::WriteError),
}

impl From<Error> for ViewError {
    fn from(e: Error) -> Self {
        ViewError::Read(e)
    }
}

#[cfg(feature = "wdb")]
impl From<crate::wdb::WdbError<'_>> for ViewError {
    fn from(e: crate::wdb::WdbError<'_>) -> Self {
        ViewError::Wdb(e.into_owned())
    }
}

impl From<crate::write_error::WriteError> for ViewError {
    fn from(e: crate::write_error::WriteError) -> Self {
        ViewError::Model(e)
    }
}

impl fmt::Display for ViewError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ViewError::Read(e) => e.fmt(f),
            #[cfg(feature = "wdb")]
            ViewError::Wdb(e) => e.fmt(f),
            ViewError::Model(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for ViewError {}

/// One thing [`View::check`] found.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Problem {
    /// The walk stopped here: the file cannot be read past this error.
    Stopped(ViewError),
    /// What the `.geometry` check found in a draw, a buffer or a pairing
    /// ([`GeometryView::check`]).
    #[cfg(feature = "geometry")]
    Geometry(crate::wows::geometry::Finding),
    /// What the `.idx` check found in a record, the tree or the header
    /// ([`IdxView`]'s `check`).
    #[cfg(feature = "pfs")]
    Pfs(crate::wows::pfs::IdxFinding),
    /// What the DDS check tolerated (trailing bytes, a pixel format size).
    #[cfg(feature = "dds")]
    Dds(crate::dds::DdsFinding),
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Problem::Stopped(e) => e.fmt(f),
            #[cfg(feature = "geometry")]
            Problem::Geometry(finding) => finding.fmt(f),
            #[cfg(feature = "pfs")]
            Problem::Pfs(finding) => finding.fmt(f),
            #[cfg(feature = "dds")]
            Problem::Dds(finding) => finding.fmt(f),
        }
    }
}

/// What [`View::check`] found: errors (data that cannot be used as it is) and warnings (what the
/// reader tolerated or had to guess), each in the order found.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct CheckReport {
    /// What cannot be read or used.
    pub errors: Vec<Problem>,
    /// What was tolerated or guessed.
    pub warnings: Vec<Problem>,
}

impl CheckReport {
    /// Whether nothing was found.
    pub fn is_clean(&self) -> bool {
        self.errors.is_empty() && self.warnings.is_empty()
    }

    /// The report of a walk that ended with `result`: clean, or stopped at its error.
    pub fn of_walk<E: Into<ViewError>>(result: core::result::Result<(), E>) -> CheckReport {
        let mut report = CheckReport::default();
        if let Err(e) = result {
            report.errors.push(Problem::Stopped(e.into()));
        }
        report
    }
}

/// What a summary must offer: a line for people (`Display`, starting with the format's name),
/// and with the `serde` feature the object `gamebin info --json` prints.
#[cfg(feature = "serde")]
pub trait SummaryValue: fmt::Display + fmt::Debug + serde::Serialize {}
#[cfg(feature = "serde")]
impl<T: fmt::Display + fmt::Debug + serde::Serialize> SummaryValue for T {}
/// What a summary must offer: a line for people (`Display`, starting with the format's name),
/// and with the `serde` feature the object `gamebin info --json` prints.
#[cfg(not(feature = "serde"))]
pub trait SummaryValue: fmt::Display + fmt::Debug {}
#[cfg(not(feature = "serde"))]
impl<T: fmt::Display + fmt::Debug> SummaryValue for T {}

/// What an owned model must offer: with the `serde` feature, the JSON `dump --json` prints and the
/// pack commands read back.
#[cfg(all(feature = "write", feature = "serde"))]
pub trait ModelValue: fmt::Debug + serde::Serialize {}
#[cfg(all(feature = "write", feature = "serde"))]
impl<T: fmt::Debug + serde::Serialize> ModelValue for T {}
/// What an owned model must offer: with the `serde` feature, the JSON `dump --json` prints and the
/// pack commands read back.
#[cfg(all(feature = "write", not(feature = "serde")))]
pub trait ModelValue: fmt::Debug {}
#[cfg(all(feature = "write", not(feature = "serde")))]
impl<T: fmt::Debug> ModelValue for T {}

/// One format's main view, as every generic tool sees it. Each format implements it once, beside
/// its view; [`AnyView`] forwards to it.
pub trait View<'a>: Sized {
    /// The format this view reads.
    const FORMAT: Format;

    /// What `gamebin info` shows of a file: counts and facts from the header and tables.
    type Summary: SummaryValue;

    /// The owned model of the whole file (every stored field; its writer takes it back).
    #[cfg(feature = "write")]
    type Model: ModelValue;

    /// Whether `data` starts like a file of this format (by content, never by name). Cheap: the
    /// header and sizes only, nothing walked.
    fn looks_like(data: &[u8]) -> bool;

    /// Opens `data`, using `scratch` when the format needs space of its own (an inflated `.wwd`
    /// main block); allocates nothing otherwise.
    fn open(data: &'a [u8], scratch: &'a mut Scratch) -> Result<Self>;

    /// Walks every structure (the format's full validation, and for `.geometry` every buffer
    /// decoded and every draw paired) and says what is wrong and what was tolerated.
    fn check(&self) -> CheckReport;

    /// The summary `gamebin info` prints.
    fn summary(&self) -> core::result::Result<Self::Summary, ViewError>;

    /// The owned model: what `dump --json` prints and `diff` compares.
    #[cfg(feature = "write")]
    fn to_model(&self) -> core::result::Result<Self::Model, ViewError>;

    /// A structural comparison of two files of this format (`gamebin diff`).
    #[cfg(all(feature = "write", feature = "serde"))]
    fn diff(&self, other: &Self) -> core::result::Result<crate::diff::Report, ViewError>;
}

/// A counted noun for the summary lines: `1 vertex`, `2 vertices`.
pub(crate) fn count(n: impl fmt::Display, one: &str, many: &str) -> String {
    let n = n.to_string();
    let noun = if n == "1" { one } else { many };
    format!("{n} {noun}")
}

/// Declares the enums over the formats from one list, in the order content detection tries them
/// (formats with a magic number first, the others last), and forwards their calls to [`View`].
macro_rules! formats {
    ($($(#[$doc:meta])* $variant:ident($view:ident) = $format:ident if $feature:literal,)*) => {
        /// A file of any format gamebin reads, opened: one variant per format, each the format's
        /// main view. Made by [`AnyView::parse`] (detection by content) or [`AnyView::open`] (a
        /// format already known).
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
        /// [`View::looks_like`], in the order of the list above.
        pub(crate) fn detect(data: &[u8]) -> Option<Format> {
            $(
                #[cfg(feature = $feature)]
                if <$view<'_> as View<'_>>::looks_like(data) {
                    return Some(Format::$format);
                }
            )*
            None
        }

        impl<'a> AnyView<'a> {
            /// Opens `data` as `format` (known from [`detect`](crate::detect) or
            /// [`detect_file`]).
            pub fn open(format: Format, data: &'a [u8], scratch: &'a mut Scratch) -> Result<Self> {
                match format {
                    $(
                        #[cfg(feature = $feature)]
                        Format::$format => <$view<'a> as View<'a>>::open(data, scratch).map(AnyView::$variant),
                        #[cfg(not(feature = $feature))]
                        Format::$format => Err(Error::new(0, "format", ErrorKind::FormatNotBuilt)),
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
    /// World of Warships `assets.bin`.
    Assets(AssetsDb) = WowsAssets if "assets",
    /// World of Warships PFS index (`.idx`), read without its volumes.
    PfsIdx(IdxView) = WowsPfsIdx if "pfs",
    /// Final Fantasy XIII `.wdb`.
    Wdb(WdbView) = Ff13Wdb if "wdb",
    /// Captain Claw / Gruntz `.wwd` level.
    Wwd(WwdView) = Wap32Wwd if "wwd",
    /// Rusty Hearts `.wdata` map.
    Wdata(WdataView) = RustyHeartsWdata if "wdata",
    /// DDS texture.
    Dds(DdsView) = Dds if "dds",
    /// World of Warships `.geometry` (no magic number: tried after the formats that have one).
    Geometry(GeometryView) = WowsGeometry if "geometry",
    /// CraftStudio `Project.dat` (no magic number).
    CraftStudio(ProjectView) = CraftStudioProject if "craftstudio",
}

impl<'a> AnyView<'a> {
    /// Detects `data`'s format by content ([`detect`](crate::detect)) and opens it. A file no
    /// format recognises is an [`ErrorKind::UnknownFormat`] error at offset 0; a file that is
    /// recognised but damaged gives its reader's error.
    pub fn parse(data: &'a [u8], scratch: &'a mut Scratch) -> Result<Self> {
        match detect(data) {
            Some(format) => AnyView::open(format, data, scratch),
            None => Err(Error::new(0, "format", ErrorKind::UnknownFormat)),
        }
    }
}

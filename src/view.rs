//! What every format's main view offers a generic tool: the [`View`] trait, the [`CheckReport`]
//! of its full walk with its [`Finding`]s, the [`ViewError`] of a summary, a model or a comparison,
//! and the [`Scratch`] space a format may need to open a file.
//!
//! This module names no format: each format implements [`View`] once, in a `view.rs` beside its
//! reader, and [`any`](crate::any) is the one module that lists the formats (so nothing here
//! imports a format, and no format imports `any`).

use core::any::Any;
use core::fmt;
use std::path::Path;

use crate::error::{Error, Result};
use crate::write_error::WriteError;

/// The space a format may need to open a file, kept by the caller across files: a format whose
/// file must be decoded before it can be read (a compressed `.wwd` level) decodes into its bytes,
/// with state of its own kept here too (a decompressor), so that opening thousands of files
/// allocates that state once and the bytes only when a file is larger than every one before it.
/// The other formats read the file's own bytes and leave it untouched. Making one allocates
/// nothing.
#[derive(Default)]
pub struct Scratch {
    /// Bytes decoded from the file (a compressed level's main block, inflated).
    bytes: Vec<u8>,
    /// The states formats keep across files, one of each format's own type, made on first use
    /// (kept side by side, so that files of two formats in turn, a `.wwd` level and a
    /// GameParams, do not make their states again each time).
    kept: Vec<Box<dyn Any + Send + Sync>>,
    /// Whether a file whose signature is damaged is read anyway.
    ignore_signature: bool,
}

impl fmt::Debug for Scratch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Scratch")
            .field("bytes", &self.bytes.len())
            .field("capacity", &self.bytes.capacity())
            .field("kept", &self.kept.len())
            .field("ignore_signature", &self.ignore_signature)
            .finish()
    }
}

impl Scratch {
    /// Scratch space that opens every format strictly.
    pub const fn new() -> Scratch {
        Scratch {
            bytes: Vec::new(),
            kept: Vec::new(),
            ignore_signature: false,
        }
    }

    /// Scratch space that reads files whose header signature is damaged (a `.wwd` level whose
    /// signature is not 0x5F4); everything else in them is still checked.
    pub const fn ignoring_signatures() -> Scratch {
        Scratch {
            bytes: Vec::new(),
            kept: Vec::new(),
            ignore_signature: true,
        }
    }

    /// Whether files whose signature is damaged are read anyway.
    pub const fn ignores_signatures(&self) -> bool {
        self.ignore_signature
    }

    /// The bytes to decode into and the state of type `T` kept across files (made with
    /// `T::default()` the first time; other formats' states are kept beside it).
    #[allow(dead_code)] // used by the formats that decode before reading
    pub(crate) fn parts<T: Any + Default + Send + Sync>(&mut self) -> (&mut Vec<u8>, &mut T) {
        let at = match self.kept.iter().position(|k| k.is::<T>()) {
            Some(at) => at,
            None => {
                self.kept.push(Box::new(T::default()));
                self.kept.len() - 1
            }
        };
        match self.kept.get_mut(at).and_then(|k| k.downcast_mut::<T>()) {
            Some(state) => (&mut self.bytes, state),
            // A logic invariant, not a file's value: the state at `at` is a `T` (found or made).
            None => unreachable!("the kept state at this position is a T"),
        }
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
    /// The reader's error inside an entry the file names (a `.wdb` record and field).
    ReadIn {
        /// Which entry, as the format names it (`record "it_potion", field "u16Price"`).
        within: String,
        /// The offset, the structure and why.
        error: Error,
    },
    /// A file whose content its owned model cannot hold (a `.wdb` record and field that do not
    /// decode as the model's values), with where in the model.
    Model(WriteError),
}

impl ViewError {
    /// The file offset where reading failed, when the error is a read's.
    pub fn offset(&self) -> Option<u64> {
        match self {
            ViewError::Read(e) | ViewError::ReadIn { error: e, .. } => Some(e.offset()),
            ViewError::Model(_) => None,
        }
    }
}

impl From<Error> for ViewError {
    fn from(e: Error) -> Self {
        ViewError::Read(e)
    }
}

impl From<WriteError> for ViewError {
    fn from(e: WriteError) -> Self {
        ViewError::Model(e)
    }
}

impl fmt::Display for ViewError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ViewError::Read(e) => e.fmt(f),
            ViewError::ReadIn { within, error } => write!(f, "{within}: {error}"),
            ViewError::Model(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for ViewError {}

/// One thing [`View::check`] found: where in the file's structure, at which file offset when
/// there is one, and what (the line `gamebin check` prints).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    /// Where in the file's structure, in the format's own names and indices
    /// (`index_buffers[3]`, `NameRecord[12]`); empty for the file as a whole.
    pub path: String,
    /// The file offset the finding is at, when it is at one.
    pub offset: Option<u64>,
    /// What was found and why, with the values: the whole line, path and offset included.
    pub message: String,
}

impl Finding {
    /// A finding at `path` and `offset` that `message` describes.
    pub fn new(path: impl Into<String>, offset: Option<u64>, message: impl fmt::Display) -> Self {
        Finding {
            path: path.into(),
            offset,
            message: message.to_string(),
        }
    }

    /// The walk stopped at `error`: the file cannot be read past it.
    pub fn stopped(error: &ViewError) -> Self {
        Finding::new("", error.offset(), error)
    }
}

impl fmt::Display for Finding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

/// What [`View::check`] found: errors (data that cannot be used as it is) and warnings (what the
/// reader tolerated or had to guess), each in the order found.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CheckReport {
    /// What cannot be read or used.
    pub errors: Vec<Finding>,
    /// What was tolerated or guessed.
    pub warnings: Vec<Finding>,
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
            report.errors.push(Finding::stopped(&e.into()));
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

/// How a file's name says it is of a format, when its content did not say so (see
/// [`View::NAMED`]): the extensions, how messages say the name, and what they say when the file
/// does not read as that format.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NameHint {
    /// The extensions (without the dot, case ignored) that name the format; empty when a whole
    /// name does ([`View::named_like`] decides).
    pub extensions: &'static [&'static str],
    /// The name as messages say it (`".geometry"`, `"assets.bin"`, `"Project.dat"`).
    pub name: &'static str,
    /// The message when the file does not open as the format
    /// (`"named .geometry but does not read as one"`).
    pub unreadable: &'static str,
}

/// The trait's seal: only the crate's views implement [`View`], so that methods can be added to
/// it without breaking anyone.
pub(crate) mod sealed {
    /// Implemented by each format's main view, beside its `impl View`.
    pub trait Sealed {}
}

/// One format's main view, as every generic tool sees it. Each format implements it once, in a
/// `view.rs` beside its view, with the format's facts (its name, how a file's name suggests it);
/// `AnyView` forwards to it. Sealed: only gamebin's formats implement it.
pub trait View<'a>: Sized + sealed::Sealed {
    /// The format's short name, as the CLI prints it (`"wows-geometry"`).
    const NAME: &'static str;

    /// What `gamebin info` shows of a file: counts and facts from the header and tables.
    type Summary: SummaryValue;

    /// The owned model of the whole file (every stored field; its writer takes it back).
    #[cfg(feature = "write")]
    type Model: ModelValue;

    /// Whether `data` starts like a file of this format (by content, never by name). Cheap: the
    /// header and sizes only, nothing walked.
    fn looks_like(data: &[u8]) -> bool;

    /// How a file's name says it is of this format: its extensions and the messages about such a
    /// file (`detect_file`); `None` when no name does.
    const NAMED: Option<NameHint> = None;

    /// For data with no name (standard input) that content detection did not recognise: the
    /// offset from which an error of this format's reader is evidence that the data is of this
    /// format (`nearest_reader`). For a format without a magic number,
    /// the end of its fixed header: a reader failing past it has read the whole header and
    /// followed its pointers inside the data, which arbitrary bytes do not survive. `None` (the
    /// default): no error of this reader is, so such data stays unrecognised (a format with a
    /// magic number is recognised by it, or not at all).
    const NAMELESS_EVIDENCE: Option<u64> = None;

    /// The bytes every file of this format begins with; empty for a format without a magic
    /// number. For data with no name that content detection did not recognise (a file cut
    /// short, read from standard input), beginning with them is the evidence a name would give:
    /// the data is taken for a damaged file of this format and its reader's error is shown
    /// (`nearest_reader`), as it is for a file so named.
    const MAGIC: &'static [u8] = &[];

    /// Whether a file's name says it is of this format when its content did not
    /// (`detect_file`): `data` is the content, `named` whether the user
    /// named the file (rather than it being found in a folder, where other programs' files with
    /// the same extension lie too). The default: its extension is one of [`NAMED`](View::NAMED)'s.
    fn named_like(path: &Path, data: &[u8], named: bool) -> Option<NameHint> {
        let _ = (data, named);
        by_extension(path, Self::NAMED?)
    }

    /// Whether a file opened because its name said so really is one of these; `Err` with the
    /// message when it opens but lacks what makes it one (a `.wdb` without a type list).
    fn is_as_named(&self) -> core::result::Result<(), &'static str> {
        Ok(())
    }

    /// Opens `data`, using `scratch` when the format needs space of its own (an inflated `.wwd`
    /// main block); allocates nothing otherwise.
    fn from_bytes_in(data: &'a [u8], scratch: &'a mut Scratch) -> Result<Self>;

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
#[allow(dead_code)] // used by the formats' summaries: a build with none leaves it unused
pub(crate) fn count(n: impl fmt::Display, one: &str, many: &str) -> String {
    let n = n.to_string();
    let noun = if n == "1" { one } else { many };
    format!("{n} {noun}")
}

/// `hint` when `path`'s extension (case ignored) is one of its extensions (for
/// [`View::named_like`]).
pub(crate) fn by_extension(path: &Path, hint: NameHint) -> Option<NameHint> {
    let extension = path.extension()?.to_str()?;
    hint.extensions
        .iter()
        .any(|e| extension.eq_ignore_ascii_case(e))
        .then_some(hint)
}

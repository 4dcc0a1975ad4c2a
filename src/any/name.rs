//! Detection with the file's name as a second witness: content decides, and the name only chooses
//! whose error to show when content detection fails, so that a damaged `foo.geometry` is reported
//! with the `.geometry` reader's error (where and why it fails) instead of as an unknown file.

use core::fmt;
use std::path::Path;

use super::{AnyView, Format, Scratch};
use crate::view::NameHint;

/// A file whose name says which format it is but whose content does not read as that format.
/// `Display` says what the name suggested and what failed; [`source`](std::error::Error::source)
/// is the reader's error (where and why), so that a chain of causes prints
/// `named .geometry but does not read as one: at 0x…: …`.
#[derive(Debug, Clone, PartialEq)]
pub struct NamedError {
    /// The format the file's name suggests.
    pub format: Format,
    /// What the name suggests, as messages say it (`".geometry"`, `"Project.dat"`).
    pub named: &'static str,
    /// What failed, as the format says it (`"named .geometry but does not read as one"`).
    pub message: &'static str,
    /// The reader's error (the offset and field where the file stopped reading as the format its
    /// name suggests); `None` when the file opens but lacks what makes it one of these (a `.wdb`
    /// without a type list).
    pub error: Option<crate::Error>,
}

impl fmt::Display for NamedError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.message)
    }
}

impl std::error::Error for NamedError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.error.as_ref().map(|e| e as _)
    }
}

/// Detects a file's format by content ([`detect`](crate::detect)) and, when content says nothing,
/// by its name: a file named as one of the formats (each format's
/// [`View::named_like`](crate::View::named_like)) is opened as that format, and is that format if
/// it opens (however implausible its header looked to detection); if it does not, the reader's
/// error is returned as a [`NamedError`]. `Ok(None)`: the content is not recognised and the name
/// suggests nothing.
///
/// `named` says the user named the file: some names are other programs' too (`.idx`, a
/// `Project.dat`), and a file found by walking a folder is taken by such a name only as its format
/// says (a `Project.dat` whose first bytes read like a CraftStudio header; an `.idx` never). A
/// `.wwd` is opened with `scratch`'s options, so that a level whose signature is damaged is
/// recognised by its name when signatures are ignored.
pub fn detect_file(
    path: &Path,
    data: &[u8],
    named: bool,
    scratch: &mut Scratch,
) -> Result<Option<Format>, NamedError> {
    if let Some(format) = crate::detect(data) {
        return Ok(Some(format));
    }
    let Some((format, hint)) = super::named_like(path, data, named) else {
        return Ok(None);
    };
    let fail = |message, error| NamedError {
        format,
        named: hint.name,
        message,
        error,
    };
    let view = AnyView::from_bytes_as(format, data, scratch)
        .map_err(|e| fail(hint.unreadable, Some(e)))?;
    view.is_as_named().map_err(|message| fail(message, None))?;
    Ok(Some(format))
}

/// Content no format recognises, with no name to say what it is (standard input): the reader
/// of a format a name could have chosen ([`View::NAMED`](crate::View::NAMED)) that reads it
/// furthest before failing. `Display` says so; [`source`](std::error::Error::source) is that
/// reader's error, so that a chain of causes prints
/// `… it reads furthest as .geometry, and does not read as one: at 0x…: …`, as
/// [`detect_file`] does for the same bytes in a file named `.geometry`.
#[derive(Debug, Clone, PartialEq)]
pub struct NamelessError {
    /// The format whose magic number the data begins with, or whose reader got furthest.
    pub format: Format,
    /// Its name as messages say it (`".geometry"`).
    pub named: &'static str,
    /// Whether the data begins with the format's magic number ([`View::MAGIC`](crate::View::MAGIC)),
    /// rather than reading furthest as it.
    pub by_magic: bool,
    /// Where and why that reader stopped.
    pub error: crate::Error,
}

/// A format as [`nearest_reader`] weighs it: how a name vouches for it, its magic number and
/// where its reader's errors are evidence without one.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Named {
    pub format: Format,
    pub hint: Option<NameHint>,
    pub magic: &'static [u8],
    pub evidence: Option<u64>,
}

impl fmt::Display for NamelessError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.by_magic {
            // `a .wdb`, `an assets.bin`.
            let article = match self.named.as_bytes().first() {
                Some(b'a' | b'e' | b'i' | b'o' | b'u') => "an",
                _ => "a",
            };
            write!(
                f,
                "begins with the magic number of {article} {} and does not read as one",
                self.named
            )
        } else {
            write!(
                f,
                "not recognised by content, and no name says its format: it reads furthest as {}, \
                 and does not read as one",
                self.named
            )
        }
    }
}

impl std::error::Error for NamelessError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.error)
    }
}

/// For content no format recognises and no name vouches for (standard input), whose error to
/// show, as a name chooses it in [`detect_file`]: the reader of a format whose errors can be
/// evidence without a name ([`View::NAMELESS_EVIDENCE`](crate::View::NAMELESS_EVIDENCE): a
/// `.geometry`, which has no magic number) that fails past its fixed header, the furthest one if
/// several do. `None` otherwise: a reader failing inside its header, or opening what content
/// detection refused, is no witness without a name, and the data stays unrecognised (so that
/// arbitrary bytes are not said to be a damaged file of some format).
pub fn nearest_reader(data: &[u8], scratch: &mut Scratch) -> Option<NamelessError> {
    // A magic number vouches as a name does: its format's error is the one to show.
    for named in super::NAMED {
        let Some(hint) = named.hint else { continue };
        if named.magic.is_empty() || !data.starts_with(named.magic) {
            continue;
        }
        if let Err(error) = AnyView::from_bytes_as(named.format, data, scratch) {
            return Some(NamelessError {
                format: named.format,
                named: hint.name,
                by_magic: true,
                error,
            });
        }
    }
    let mut nearest: Option<NamelessError> = None;
    for named in super::NAMED {
        let (Some(hint), Some(evidence)) = (named.hint, named.evidence) else {
            continue;
        };
        let Err(error) = AnyView::from_bytes_as(named.format, data, scratch) else {
            continue;
        };
        let further = nearest
            .as_ref()
            .map_or(error.offset() >= evidence, |n| {
                error.offset() >= evidence && error.offset() > n.error.offset()
            });
        if further {
            nearest = Some(NamelessError {
                format: named.format,
                named: hint.name,
                by_magic: false,
                error,
            });
        }
    }
    nearest
}

// Each test needs the formats it names.
#[cfg(all(test, feature = "geometry"))]
mod tests {
    use super::*;

    #[test]
    #[cfg(feature = "geometry")]
    fn nameless_data_is_read_as_the_nearest_format_only_past_its_header() {
        let mut scratch = Scratch::new();
        // A committed fixture cut in its first table, after the header.
        let file = include_bytes!("../../fixtures/wows-geometry/ambiguous_pairing.geometry");
        let data = &file[..100];
        let nearest = nearest_reader(data, &mut scratch).unwrap();
        assert_eq!(nearest.format, Format::WowsGeometry);
        assert_eq!(nearest.error.offset(), 0x48);
        // Text and short data fail inside every header: no format is claimed.
        assert_eq!(nearest_reader(b"not a game file", &mut scratch), None);
        assert_eq!(nearest_reader(&[0xa5; 300], &mut scratch), None);
    }

    #[test]
    #[cfg(all(
        feature = "geometry",
        feature = "wdb",
        feature = "wwd",
        feature = "wdata",
        feature = "assets",
        feature = "craftstudio"
    ))]
    fn names() {
        let name = |p: &str| super::super::named_like(Path::new(p), b"", true).map(|(f, _)| f);
        assert_eq!(name("a/b.GEOMETRY"), Some(Format::WowsGeometry));
        assert_eq!(name("x.wdb"), Some(Format::Ff13Wdb));
        assert_eq!(name("LEVEL1.WWD"), Some(Format::Wap32Wwd));
        assert_eq!(name("m.wdata"), Some(Format::RustyHeartsWdata));
        assert_eq!(name("idx/assets.bin"), Some(Format::WowsAssets));
        assert_eq!(name("other.bin"), None);
        assert_eq!(name("MyProject.dat"), Some(Format::CraftStudioProject));
        assert_eq!(name("readme.txt"), None);
    }

    #[test]
    #[cfg(feature = "geometry")]
    fn named_but_damaged() {
        let mut scratch = Scratch::new();
        let e = detect_file(Path::new("x.geometry"), &[0; 3], true, &mut scratch).unwrap_err();
        assert_eq!(e.format, Format::WowsGeometry);
        assert!(e.error.is_some());
        assert!(
            e.to_string()
                .starts_with("named .geometry but does not read as one")
        );
        // An unknown name and unknown content: nothing.
        let none = detect_file(Path::new("x.txt"), b"hello", true, &mut scratch);
        assert_eq!(none, Ok(None));
        // A Project.dat found in a folder that does not look like CraftStudio's is skipped.
        let skipped = detect_file(Path::new("d/Project.dat"), b"hello", false, &mut scratch);
        assert_eq!(skipped, Ok(None));
    }
}

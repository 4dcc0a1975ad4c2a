//! Detection with the file's name as a second witness: content decides, and the name only chooses
//! whose error to show when content detection fails, so that a damaged `foo.geometry` is reported
//! with the `.geometry` reader's error (where and why it fails) instead of as an unknown file.

use core::fmt;
use std::path::Path;

use super::{AnyView, Scratch};
use crate::Format;

/// A file whose name says which format it is but whose content does not read as that format.
/// `Display` names the format the name suggests; [`source`](std::error::Error::source) is the
/// reader's error (where and why), so that a chain of causes prints
/// `named .geometry but does not read as one: at 0x…: …`.
#[derive(Debug, Clone, PartialEq)]
pub struct NamedError {
    /// The format the file's name suggests.
    pub format: Format,
    /// What the name suggests, as the message says it (`".geometry"`, `"Project.dat"`).
    pub named: &'static str,
    /// The reader's error (the offset and field where the file stopped reading as the format its
    /// name suggests); `None` when the file opens but lacks what makes it one of these (a `.wdb`
    /// without a type list).
    pub error: Option<crate::Error>,
}

impl fmt::Display for NamedError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.format == Format::Ff13Wdb && self.error.is_none() {
            return f.write_str("named .wdb but has neither !!strtypelist nor !!strtypelistb");
        }
        match self.format {
            Format::WowsAssets => {
                write!(f, "named like an {} but does not read as one", self.named)
            }
            Format::CraftStudioProject => write!(
                f,
                "named {} but does not read as a CraftStudio project",
                self.named
            ),
            Format::WowsGeometry
            | Format::WowsPfsIdx
            | Format::Ff13Wdb
            | Format::Wap32Wwd
            | Format::RustyHeartsWdata
            | Format::Dds => {
                write!(f, "named {} but does not read as one", self.named)
            }
        }
    }
}

impl std::error::Error for NamedError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.error.as_ref().map(|e| e as _)
    }
}

/// The format a file's name suggests, with the name as messages say it: an extension (`.geometry`,
/// `.wdb`, `.wwd`, `.wdata`, `.idx`, case ignored), a `.bin` whose stem contains `assets`, or a
/// name ending in `Project.dat`.
fn by_name(path: &Path) -> Option<(Format, &'static str)> {
    let extension = path
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase);
    let by_extension = match extension.as_deref() {
        Some("geometry") => Some((Format::WowsGeometry, ".geometry")),
        Some("wdb") => Some((Format::Ff13Wdb, ".wdb")),
        Some("wwd") => Some((Format::Wap32Wwd, ".wwd")),
        Some("wdata") => Some((Format::RustyHeartsWdata, ".wdata")),
        Some("idx") => Some((Format::WowsPfsIdx, ".idx")),
        Some("dds" | "dd0" | "dd1" | "dd2") => Some((Format::Dds, ".dds")),
        Some("bin")
            if path
                .file_stem()
                .is_some_and(|s| s.to_string_lossy().contains("assets")) =>
        {
            Some((Format::WowsAssets, "assets.bin"))
        }
        _ => None,
    };
    by_extension.or_else(|| {
        path.file_name()
            .and_then(|n| n.to_str())
            .is_some_and(|n| n.to_ascii_lowercase().ends_with("project.dat"))
            .then_some((Format::CraftStudioProject, "Project.dat"))
    })
}

/// Detects a file's format by content ([`detect`](crate::detect)) and, when content says nothing,
/// by its name: a file named as one of the formats (see below) is opened as that format, and is
/// that format if it opens (however implausible its header looked to detection); if it does not,
/// the reader's error is returned as a [`NamedError`]. `Ok(None)`: the content is not recognised
/// and the name suggests nothing.
///
/// Names: `.geometry`, `.wdb` (which must also have a type list), `.wwd` (opened with `scratch`'s
/// options, so that a level whose signature is damaged is recognised by its name when
/// `ignore_signature` is set), `.wdata`, `.idx` (named on the command line only: other programs
/// use the extension too), a `.bin` whose stem contains `assets`, and a name ending in
/// `Project.dat`. `Project.dat` is a name other programs use too: `named` says the user named
/// the file (it is then read as a CraftStudio project whatever it holds); a `Project.dat` found by
/// walking a folder is one only when its first bytes read like a CraftStudio header, so that other
/// programs' files are skipped.
pub fn detect_file(
    path: &Path,
    data: &[u8],
    named: bool,
    scratch: &mut Scratch,
) -> Result<Option<Format>, NamedError> {
    if let Some(format) = crate::detect(data) {
        return Ok(Some(format));
    }
    let Some((format, name)) = by_name(path) else {
        return Ok(None);
    };
    if format == Format::CraftStudioProject && !(named || craftstudio_header(data)) {
        return Ok(None);
    }
    // `.idx` is other programs' extension too (git's pack indexes, subtitles): one found by
    // walking a folder is a PFS index only by its content.
    if format == Format::WowsPfsIdx && !named {
        return Ok(None);
    }
    let fail = |error| NamedError {
        format,
        named: name,
        error,
    };
    let view = AnyView::open(format, data, scratch).map_err(|e| fail(Some(e)))?;
    if wdb_without_type_list(&view) {
        return Err(fail(None));
    }
    Ok(Some(format))
}

/// Whether `data` starts like a CraftStudio project's header (false in a build without the
/// format).
fn craftstudio_header(data: &[u8]) -> bool {
    #[cfg(feature = "craftstudio")]
    return crate::craftstudio::header_looks_like(data);
    #[cfg(not(feature = "craftstudio"))]
    {
        let _ = data;
        false
    }
}

/// Whether `view` is a WPD container without a type list: it opens, but it is no table.
fn wdb_without_type_list(view: &AnyView<'_>) -> bool {
    #[cfg(feature = "wdb")]
    return matches!(view, AnyView::Wdb(wdb) if wdb.type_list().is_none());
    #[cfg(not(feature = "wdb"))]
    {
        let _ = view;
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names() {
        let name = |p: &str| by_name(Path::new(p)).map(|(f, _)| f);
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

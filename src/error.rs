//! The one error type of every reader.
//!
//! An [`Error`] says *where* (the absolute file offset at which reading failed), *what* (the structure
//! and field being read, e.g. `"VerticesPrototype.formatName"`) and *why* (an [`ErrorKind`] carrying
//! the offending values). It is `Copy` and never allocates, so producing one on the read path costs
//! nothing but the bytes of the struct. It is only for reading a file's bytes, and its offset is
//! always a real one.
//!
//! What is not a read has its own error, with no offset: [`ParseError`](crate::ParseError) (no
//! format recognises the content), [`WriteError`](crate::WriteError) (a model a writer refuses,
//! with the path in the model), [`ExportError`](crate::ExportError) (an export that cannot be
//! made), [`ViewError`](crate::ViewError) (a summary, model or comparison of an opened file).
//!
//! A few errors stay their own, because what they must name is none of the above:
//! - `wows::pfs::InstallError`: an install is many files; it names the `.idx` or the path in the
//!   install and carries the system's I/O error beside the reader's.
//! - `wows::resolve::ResolveError`: a model resolved across an `assets.bin` and many `.geometry`
//!   files names the model (its id and path), the render set and the missing piece, so that a
//!   batch counts its failures by kind.
//! - `wows::sources::SourceError`: XML sources are text; it names the file, the element path and
//!   the line, not a byte offset.
//! - `wwd::export::render::RenderError`: a picture too large is said in tiles and pixels per tile,
//!   the values the caller changes to draw it.
//! - `dds::tiers::TierError`: it names the tier file on disk chosen among `.dd0`/`.dd1`/`.dd2`, with
//!   the system's I/O error or that file's read error.
//! - `dds::UnknownFormat`: a pixel format classified from bare header values, which the DDS view
//!   turns into an [`Error`] at the header field's offset.
//! - [`NamedError`](crate::NamedError): a file whose name suggests a format it does not read as:
//!   the format, the name and the reader's error.
//! - `synth::model_world::WorldError`: the generators' (feature `synth`), about files they write.

use core::fmt;

/// What went wrong, with the values that made it go wrong.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The structure needs `needed` bytes at the offset but only `available` remain.
    Truncated {
        /// Bytes the structure needs.
        needed: u64,
        /// Bytes that remain from the offset.
        available: u64,
    },
    /// A magic number or signature did not match.
    BadMagic {
        /// The value the format requires.
        expected: u64,
        /// The value stored.
        found: u64,
    },
    /// A relative pointer resolves outside the file (or before its start).
    PointerOutOfBounds {
        /// The base the pointer is relative to.
        base: u64,
        /// The stored relative value.
        relative: i64,
        /// The size of the data the pointer must land in.
        size: u64,
    },
    /// A version (or codec version, or layout variant) the reader does not know.
    UnsupportedVersion {
        /// The version stored.
        found: u64,
    },
    /// A field holds a value that the format does not allow; `reason` says which rule it breaks.
    InvalidValue {
        /// The value stored.
        value: u64,
        /// The rule it breaks.
        reason: &'static str,
    },
    /// The caller's buffer has the wrong number of elements for what is being decoded into it.
    BufferSize {
        /// Elements the decoded data needs.
        needed: u64,
        /// Elements the caller's buffer has.
        provided: u64,
    },
    /// An external decoder (meshoptimizer) rejected the data with this code.
    Decoder {
        /// The decoder's return code.
        code: i64,
    },
    /// A checksum stored in the file differs from the one computed over the bytes it covers.
    ChecksumMismatch {
        /// The checksum the file stores.
        stored: u64,
        /// The checksum of the bytes.
        computed: u64,
    },
    /// Data stored with a compression gamebin does not decode (a proprietary codec, or words it
    /// does not know), named by the words stored.
    UnsupportedCompression {
        /// The method word (6: an Oodle data stream).
        method: u64,
        /// The flag word stored beside it.
        flag: u64,
    },
}

/// A read failure: where, what, and why.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Error {
    offset: u64,
    what: &'static str,
    kind: ErrorKind,
}

/// The result type of every reader.
pub type Result<T, E = Error> = core::result::Result<T, E>;

impl Error {
    /// An error at absolute file offset `offset` while reading `what`.
    pub const fn new(offset: u64, what: &'static str, kind: ErrorKind) -> Self {
        Error { offset, what, kind }
    }

    /// The absolute file offset at which reading failed.
    pub const fn offset(&self) -> u64 {
        self.offset
    }

    /// The structure and field being read, in the format's own vocabulary.
    pub const fn what(&self) -> &'static str {
        self.what
    }

    /// Why it failed, with the offending values.
    pub const fn kind(&self) -> ErrorKind {
        self.kind
    }

    pub(crate) const fn truncated(
        offset: u64,
        what: &'static str,
        needed: u64,
        available: u64,
    ) -> Self {
        Error::new(offset, what, ErrorKind::Truncated { needed, available })
    }

    pub(crate) const fn invalid(
        offset: u64,
        what: &'static str,
        value: u64,
        reason: &'static str,
    ) -> Self {
        Error::new(offset, what, ErrorKind::InvalidValue { value, reason })
    }
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            // Nothing needed yet nothing there: the offset itself lies past the end of the file.
            ErrorKind::Truncated {
                needed: 0,
                available: 0,
            } => write!(f, "the file ends before this offset (truncated file?)"),
            ErrorKind::Truncated { needed, available } => write!(
                f,
                "needs {needed:#x} bytes but only {available:#x} remain (truncated file?)"
            ),
            ErrorKind::BadMagic { expected, found } => {
                write!(f, "bad magic: expected {expected:#x}, found {found:#x}")
            }
            ErrorKind::PointerOutOfBounds {
                base,
                relative,
                size,
            } => {
                let target = i128::from(base) + i128::from(relative);
                if target < 0 {
                    write!(
                        f,
                        "pointer {relative:#x} relative to {base:#x} points before the start of the file"
                    )
                } else {
                    write!(
                        f,
                        "pointer {target:#x} is outside the file (size {size:#x})"
                    )
                }
            }
            ErrorKind::UnsupportedVersion { found } => write!(f, "unsupported version {found:#x}"),
            ErrorKind::InvalidValue { value, reason } => {
                write!(f, "invalid value {value} ({value:#x}): {reason}")
            }
            ErrorKind::BufferSize { needed, provided } => write!(
                f,
                "the output buffer holds {provided} elements but {needed} are decoded"
            ),
            ErrorKind::Decoder { code } => {
                let meaning = match code {
                    -1 => "unknown codec header or version",
                    -2 => "encoded data is truncated or corrupt",
                    -3 => "encoded data has trailing bytes or a wrong element count",
                    _ => "decoding failed",
                };
                write!(f, "meshoptimizer decoder returned {code}: {meaning}")
            }
            ErrorKind::ChecksumMismatch { stored, computed } => write!(
                f,
                "checksum mismatch: the file stores {stored:#010x}, the bytes give {computed:#010x}"
            ),
            ErrorKind::UnsupportedCompression { method: 6, .. } => f.write_str(
                "compressed with Oodle (method 6, a proprietary codec): gamebin does not decode it",
            ),
            ErrorKind::UnsupportedCompression { method, flag } => write!(
                f,
                "unknown compression words ({method:#x}, {flag:#x}): not decoded"
            ),
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "at {:#010x}: {}: {}", self.offset, self.what, self.kind)
    }
}

impl std::error::Error for Error {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_names_offset_structure_and_values() {
        let e = Error::new(
            0x1a2c4,
            "VerticesPrototype.formatName",
            ErrorKind::PointerOutOfBounds {
                base: 0x1a2c4,
                relative: 0x7fff0000 - 0x1a2c4,
                size: 0x2f0b4,
            },
        );
        assert_eq!(
            e.to_string(),
            "at 0x0001a2c4: VerticesPrototype.formatName: pointer 0x7fff0000 is outside the file (size 0x2f0b4)"
        );
    }

    #[test]
    fn an_offset_past_the_end_is_not_a_zero_byte_truncation() {
        let past = Error::truncated(0x200, "Table.names", 0, 0);
        assert_eq!(
            past.to_string(),
            "at 0x00000200: Table.names: the file ends before this offset (truncated file?)"
        );
        let short = Error::truncated(0x10, "Header", 8, 4);
        assert!(
            short
                .to_string()
                .ends_with("needs 0x8 bytes but only 0x4 remain (truncated file?)")
        );
    }

    #[test]
    fn negative_pointer_target_is_described() {
        let e = Error::new(
            8,
            "X.ptr",
            ErrorKind::PointerOutOfBounds {
                base: 8,
                relative: -16,
                size: 100,
            },
        );
        assert!(e.to_string().contains("before the start"), "{e}");
    }

    #[test]
    fn error_is_small_and_copy() {
        fn assert_copy<T: Copy + Send + Sync + 'static>() {}
        assert_copy::<Error>();
        assert!(core::mem::size_of::<Error>() <= 56);
    }
}

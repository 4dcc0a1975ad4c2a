//! The one error type of the exporters: what a conversion to another tool's format (GLB, OBJ,
//! PNG, TMX) could not do.
//!
//! An export reads its source (a view's bytes: a read failure is the reader's [`Error`], with its
//! offset) and then builds its output, which has limits of its own (a GLB holds at most 4 GiB, a
//! glTF joint index 16 bits). Those are not reads: an [`ExportError`] says what was being built
//! and why, with the values, and no file offset.

use core::fmt;

use crate::error::Error;

/// Why an export could not be made.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ExportError {
    /// The source's data, at an offset in its file: it did not read, or a value of it cannot be
    /// exported (a draw whose index lies beyond its vertices): the reader's error.
    Source(Error),
    /// The output, or a value in it, is larger than its format holds.
    TooLarge {
        /// What in the output (`"GLB length"`, `"glTF joint index"`).
        what: &'static str,
        /// The value.
        value: u64,
        /// The largest value the format holds.
        limit: u64,
    },
    /// The output's text part could not be written (the glTF JSON document).
    Unwritable {
        /// What could not be written.
        what: &'static str,
    },
    /// The output refers to an item of the source that the exporter was not given (a render set
    /// a level of detail names, left out of the ones resolved).
    NotGiven {
        /// What kind of item.
        what: &'static str,
        /// Its key.
        key: u64,
    },
}

impl From<Error> for ExportError {
    fn from(e: Error) -> Self {
        ExportError::Source(e)
    }
}

impl fmt::Display for ExportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ExportError::Source(e) => e.fmt(f),
            ExportError::TooLarge { what, value, limit } => {
                write!(f, "{what}: {value} is more than the format holds ({limit})")
            }
            ExportError::Unwritable { what } => write!(f, "{what}: could not be written"),
            ExportError::NotGiven { what, key } => {
                write!(f, "{what} {key}: not among the ones given to the exporter")
            }
        }
    }
}

impl std::error::Error for ExportError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ExportError::Source(e) => Some(e),
            ExportError::TooLarge { .. }
            | ExportError::Unwritable { .. }
            | ExportError::NotGiven { .. } => None,
        }
    }
}

/// The result type of the exporters.
pub type ExportResult<T> = core::result::Result<T, ExportError>;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::ErrorKind;

    #[test]
    fn a_read_error_reads_as_the_reader_said_it() {
        let read = Error::new(
            0x48,
            "VerticesPrototype.formatName",
            ErrorKind::Truncated {
                needed: 0x20,
                available: 0x1c,
            },
        );
        assert_eq!(ExportError::from(read).to_string(), read.to_string());
    }

    #[test]
    fn a_limit_names_the_value_and_the_limit_without_an_offset() {
        let e = ExportError::TooLarge {
            what: "GLB length",
            value: 1 << 32,
            limit: u64::from(u32::MAX),
        };
        assert_eq!(
            e.to_string(),
            "GLB length: 4294967296 is more than the format holds (4294967295)"
        );
        assert!(!e.to_string().contains("at 0x"));
    }
}

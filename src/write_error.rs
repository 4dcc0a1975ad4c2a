//! The one error type of the owned models and their writers.
//!
//! A [`WriteError`] says *where in the model* (a path of the model's own field names and indices,
//! as its JSON form spells them: `event_boxes.CameraBox[3].category`, `records[12].fieldName`,
//! `planes[1].tiles[40,7]`), *which field of the format* the value would be written to (e.g.
//! `GeometryModel.blob_padding`), and *why*. It has no file offset: it is about a model, not about a
//! position in a file. The readers keep [`Error`], which does.
//!
//! Errors start where the value is checked, with the format's field and the reason, and gain their
//! path on the way out: each layer that knows which entry or field it was working on adds it with
//! [`WriteError::in_field`] / [`WriteError::at_index`] (or the same methods of [`WriteContext`] on a
//! `Result`). Adding context only happens on the error path.

use core::fmt;

use crate::error::Error;

/// Why a model cannot be written (or built from an interchange form).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum WriteErrorKind {
    /// The value cannot be stored: it does not fit its field, or it breaks one of the format's
    /// rules; `reason` says which.
    InvalidValue {
        /// The value (or, for a list or string, its length).
        value: u64,
        /// The rule it breaks.
        reason: &'static str,
    },
    /// A value of an interchange form (JSON, CSV, XLSX, TMX) that does not make a model; the text
    /// says why, with the values.
    Invalid(String),
    /// Reading a file failed on the way (the written bytes read back, or a view a model is built
    /// from): the reader's error, with its offset in that file.
    Read(Error),
}

/// A model that cannot be written: where in the model, the format's field, and why.
///
/// One pointer wide, so that the writers' `Result`s stay as small on the path that succeeds as
/// with no error at all; the details are allocated only when an error is made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WriteError(Box<Details>);

#[derive(Debug, Clone, PartialEq, Eq)]
struct Details {
    path: String,
    field: Option<&'static str>,
    /// The entry the path leads to, by its own name (`record "it_ether"`), when it has one.
    subject: Option<String>,
    kind: WriteErrorKind,
}

/// The result type of the writers and of the conversions into owned models.
pub type WriteResult<T> = core::result::Result<T, WriteError>;

impl WriteError {
    /// `value` cannot be written to the format's field `field` (`"GeometryFile.blob_padding"`):
    /// `reason` says why.
    pub fn invalid(field: &'static str, value: u64, reason: &'static str) -> Self {
        WriteError(Box::new(Details {
            path: String::new(),
            field: Some(field),
            subject: None,
            kind: WriteErrorKind::InvalidValue { value, reason },
        }))
    }

    /// A value of an interchange form that does not make a model; `reason` has the values.
    pub fn message(reason: impl Into<String>) -> Self {
        WriteError(Box::new(Details {
            path: String::new(),
            field: None,
            subject: None,
            kind: WriteErrorKind::Invalid(reason.into()),
        }))
    }

    /// Where in the model: field names and indices, outermost first (`""` when the error is about
    /// the model as a whole).
    pub fn path(&self) -> &str {
        &self.0.path
    }

    /// The format's structure and field the value would be written to, when there is one.
    pub fn field(&self) -> Option<&'static str> {
        self.0.field
    }

    /// The entry the path leads to, by its own name (`record "it_ether"`), when it has one.
    pub fn subject(&self) -> Option<&str> {
        self.0.subject.as_deref()
    }

    /// Why, with the values.
    pub fn kind(&self) -> &WriteErrorKind {
        &self.0.kind
    }

    /// The error inside the model's field `name`: `x` becomes `center.x`, `[3]` becomes
    /// `event_boxes[3]`.
    #[must_use]
    pub fn in_field(mut self, name: &str) -> Self {
        if self.0.path.is_empty() || self.0.path.starts_with('[') {
            self.0.path.insert_str(0, name);
        } else {
            self.0.path.insert(0, '.');
            self.0.path.insert_str(0, name);
        }
        self
    }

    /// The error inside entry `index` of a list: `name` becomes `[3].name`.
    #[must_use]
    pub fn at_index(self, index: usize) -> Self {
        self.at(format_args!("[{index}]"))
    }

    /// The error inside the cell at column `x`, row `y` of a grid: `[40,7]`.
    #[must_use]
    pub fn at_cell(self, x: impl fmt::Display, y: impl fmt::Display) -> Self {
        self.at(format_args!("[{x},{y}]"))
    }

    /// Names the entry the path leads to by its own name (`record "it_ether"`): an index alone
    /// is hard to find in a large table. The innermost name given is kept.
    #[must_use]
    pub fn about(mut self, subject: impl fmt::Display) -> Self {
        if self.0.subject.is_none() {
            self.0.subject = Some(subject.to_string());
        }
        self
    }

    fn at(mut self, step: fmt::Arguments<'_>) -> Self {
        let step = step.to_string();
        if !self.0.path.is_empty() && !self.0.path.starts_with('[') {
            self.0.path.insert(0, '.');
        }
        self.0.path.insert_str(0, &step);
        self
    }
}

impl From<Error> for WriteError {
    fn from(error: Error) -> Self {
        WriteError(Box::new(Details {
            path: String::new(),
            field: None,
            subject: None,
            kind: WriteErrorKind::Read(error),
        }))
    }
}

/// [`WriteError`]'s context methods on a `Result`, so that a layer adds where it was with `?`.
pub trait WriteContext<T> {
    /// [`WriteError::in_field`] on the error, if any.
    fn in_field(self, name: &str) -> WriteResult<T>;
    /// [`WriteError::at_index`] on the error, if any.
    fn at_index(self, index: usize) -> WriteResult<T>;
}

impl<T, E: Into<WriteError>> WriteContext<T> for core::result::Result<T, E> {
    fn in_field(self, name: &str) -> WriteResult<T> {
        self.map_err(|e| e.into().in_field(name))
    }

    fn at_index(self, index: usize) -> WriteResult<T> {
        self.map_err(|e| e.into().at_index(index))
    }
}

impl fmt::Display for WriteErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WriteErrorKind::InvalidValue { value, reason } => {
                write!(f, "invalid value {value} ({value:#x}): {reason}")
            }
            WriteErrorKind::Invalid(reason) => f.write_str(reason),
            WriteErrorKind::Read(error) => write!(f, "{error}"),
        }
    }
}

impl fmt::Display for WriteError {
    /// `event_boxes.CameraBox[3].category (CameraBox.Category): invalid value …`: the model path,
    /// then the format's field in brackets (either alone when the other is unknown), the entry's
    /// own name when it has one, and why.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.0.path.is_empty(), self.0.field) {
            (false, Some(field)) => write!(f, "{} ({field}): ", self.0.path)?,
            (false, None) => write!(f, "{}: ", self.0.path)?,
            (true, Some(field)) => write!(f, "{field}: ")?,
            (true, None) => {}
        }
        if let Some(subject) = &self.0.subject {
            write!(f, "{subject}: ")?;
        }
        write!(f, "{}", self.0.kind)
    }
}

impl std::error::Error for WriteError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match &self.0.kind {
            WriteErrorKind::Read(error) => Some(error),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_error_is_one_pointer_wide() {
        // The writers return it from every field: a large error would widen every `Result`.
        assert_eq!(
            core::mem::size_of::<WriteResult<()>>(),
            core::mem::size_of::<usize>()
        );
    }

    #[test]
    fn the_path_grows_outwards_from_the_field() {
        let e = WriteError::invalid("OBB.center.x", 7, "not finite")
            .in_field("x")
            .in_field("center")
            .in_field("obb")
            .at_index(3)
            .in_field("event_boxes");
        assert_eq!(e.path(), "event_boxes[3].obb.center.x");
        assert_eq!(
            e.to_string(),
            "event_boxes[3].obb.center.x (OBB.center.x): invalid value 7 (0x7): not finite"
        );
    }

    #[test]
    fn cells_and_nested_lists() {
        let e = WriteError::message("tile 9 is not in the tileset")
            .at_cell(40, 7)
            .in_field("tiles")
            .at_index(1)
            .in_field("planes");
        assert_eq!(e.path(), "planes[1].tiles[40,7]");
        assert_eq!(
            e.to_string(),
            "planes[1].tiles[40,7]: tile 9 is not in the tileset"
        );
        let nested = WriteError::message("x").at_index(2).at_index(1);
        assert_eq!(nested.path(), "[1][2]");
        let named = WriteError::message("16 does not fit 4 unsigned bits")
            .in_field("u4Kind")
            .at_index(3)
            .about("record \"it_ether\"")
            .in_field("records");
        assert_eq!(
            named.to_string(),
            "records[3].u4Kind: record \"it_ether\": 16 does not fit 4 unsigned bits"
        );
    }

    #[test]
    fn no_offset_is_printed_but_a_read_error_keeps_its_own() {
        let e = WriteError::invalid("GeometryFile.blob_padding", 99, "too much");
        assert_eq!(
            e.to_string(),
            "GeometryFile.blob_padding: invalid value 99 (0x63): too much"
        );
        let read =
            WriteError::from(Error::invalid(0x40, "Header.magic", 1, "bad")).in_field("header");
        assert_eq!(
            read.to_string(),
            "header: at 0x00000040: Header.magic: invalid value 1 (0x1): bad"
        );
        let via_context: WriteResult<()> =
            Err(WriteError::message("no such column")).in_field("fieldName");
        assert_eq!(via_context.unwrap_err().path(), "fieldName");
    }
}

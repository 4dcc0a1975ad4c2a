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
    /// Something the model or its interchange form needs is not there. Shown as `no {what}`
    /// (`no !!string`), as `no "{name}" {what}` (`no "records" list`) when the missing thing has
    /// a name, or as `{owner} {index} has no {what}` (`row 7 has no record name`) when an entry
    /// lacks it; with neither, `what` is the whole phrase (`missing column`: the path names the
    /// column).
    Missing {
        /// What is missing.
        what: &'static str,
        /// Its name (a key, a column, a metadata row), when it has one.
        name: Option<String>,
        /// The entry that lacks it and that entry's index or row number, when there is one.
        owner: Option<(&'static str, u64)>,
    },
    /// A value of an interchange form that is not of the type its place needs. Shown as
    /// `{found} is not {expected}` (`"x1" is not a u32`), with `what` before it when set
    /// (`bit-packed cell "x1" is not 0x…`); when nothing usable was found (absent, or not even
    /// of the right shape), `found` is `None` and it is shown as `{what} must be {expected}`.
    NotA {
        /// What the value is (`bit-packed cell`), or the key it is missing from; may be empty.
        what: String,
        /// The value as the form spells it (strings in quotes), or the key whose value it is.
        found: Option<String>,
        /// What it must be (`a u32`, `a list`, `a number 0..=255`).
        expected: &'static str,
    },
    /// A name or code the model or form does not know: `unknown {what} {name}{note}`
    /// (`unknown cell type 7 (0 bit-packed, 1 float, 2 string, 3 u32)`).
    Unknown {
        /// What kind of name it is (`cell type`, `metadata row`, `game`).
        what: &'static str,
        /// The name as the form spells it (text in quotes).
        name: String,
        /// What follows the name: the known values or where the name stands; may be empty.
        note: &'static str,
    },
    /// Two entries where the format allows one: `duplicate {what}` (the path and subject name
    /// the second one).
    Duplicate {
        /// What is duplicated (`record name`).
        what: &'static str,
    },
    /// A count or size that differs from the one the format or the model's header requires:
    /// `{found}{unit} {relation} {expected}{of}` (`3 values for 4 fields`,
    /// `12 bytes where the header's format and size need 16`).
    Mismatch {
        /// The count or size the model holds.
        found: u64,
        /// The one required.
        expected: u64,
        /// What `found` counts, after it (` values`, ` bytes`); may be empty.
        unit: &'static str,
        /// How the two relate (`for`, `where the header describes`).
        relation: &'static str,
        /// What `expected` counts, after it (` fields`); may be empty.
        of: &'static str,
    },
    /// An integer that does not fit its field: `{what} {value} does not fit {bits} unsigned
    /// bits` (or `signed bits`), or `… does not fit {field}` when the field is named instead.
    DoesNotFit {
        /// What the value is (`value`, `type code`).
        what: &'static str,
        /// The value.
        value: i128,
        /// The field's width in bits.
        bits: u32,
        /// Whether the field is two's-complement.
        signed: bool,
        /// The field, when the message names it rather than its width.
        field: Option<&'static str>,
    },
    /// A rule of the format that the model breaks, with no value to show (the path says where):
    /// `record names are 1 to 16 bytes, without NUL, not starting with '!'`, `too many records`.
    /// With `at`, a field of a record's layout that breaks it: `{at.0} at byte {at.1} {rule}`
    /// (`field at byte 12 lies outside the record`).
    Rule {
        /// The rule.
        rule: &'static str,
        /// The field and its byte in the record, for a rule of the record's layout.
        at: Option<(&'static str, u64)>,
    },
    /// The library that reads or writes an interchange file (CSV, XLSX) refused it, or the
    /// checks made before that library reads it did: `{form}: {message}`, or
    /// `{form} line {line}: {message}`.
    Interchange {
        /// The form (`CSV`, `XLSX`).
        form: &'static str,
        /// The line of the file, when the library gives one.
        line: Option<u64>,
        /// The library's message (or the check's), as text.
        message: String,
    },
    /// A value of another kind than the cell's type code says: `cell {cell} has type code
    /// {code} ({code's kind}), which does not fit the value it holds, {held}`.
    TypeCode {
        /// The cell's index in the record.
        cell: u64,
        /// Its type code (0 bit-packed, 1 float, 2 string, 3 u32).
        code: u32,
        /// What the value is (`an integer`, `a float`, `a string`).
        held: &'static str,
    },
    /// What was written does not read back: `the {what} would not read back: {error}`; the
    /// reader's error, with its offset in the written bytes. Its text is part of this error's,
    /// so it is not also this error's `source`.
    ReadBack {
        /// What was written (`texture`).
        what: &'static str,
        /// The reader's error.
        error: Error,
    },
    /// A value of an interchange form (JSON, CSV, XLSX, TMX) that does not make a model; the text
    /// says why, with the values. Used where none of the kinds above says it.
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

    /// A value of an interchange form that does not make a model; `reason` has the values. For
    /// the few cases no [`WriteErrorKind`] says: prefer [`WriteError::new`] with a kind.
    pub fn message(reason: impl Into<String>) -> Self {
        WriteError::new(WriteErrorKind::Invalid(reason.into()))
    }

    /// An error of `kind`, with no path yet.
    pub fn new(kind: WriteErrorKind) -> Self {
        WriteError(Box::new(Details {
            path: String::new(),
            field: None,
            subject: None,
            kind,
        }))
    }

    /// [`WriteErrorKind::Missing`]: `no {what}`, `what` being the whole phrase when neither a
    /// name nor an owner is given (`WriteError::missing("no !!string", None)`).
    pub fn missing(what: &'static str, name: Option<&str>) -> Self {
        WriteError::new(WriteErrorKind::Missing {
            what,
            name: name.map(str::to_string),
            owner: None,
        })
    }

    /// [`WriteErrorKind::NotA`]: `found` (as the form spells it) is not `expected`.
    pub fn not_a(
        what: impl Into<String>,
        found: impl Into<String>,
        expected: &'static str,
    ) -> Self {
        WriteError::new(WriteErrorKind::NotA {
            what: what.into(),
            found: Some(found.into()),
            expected,
        })
    }

    /// [`WriteErrorKind::Rule`] with no position: the model breaks `rule`.
    pub fn rule(rule: &'static str) -> Self {
        WriteError::new(WriteErrorKind::Rule { rule, at: None })
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
        WriteError::new(WriteErrorKind::Read(error))
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
            WriteErrorKind::Missing { what, name, owner } => match (owner, name) {
                (Some((owner, index)), _) => write!(f, "{owner} {index} has no {what}"),
                (None, Some(name)) => write!(f, "no {name:?} {what}"),
                (None, None) => f.write_str(what),
            },
            WriteErrorKind::NotA {
                what,
                found,
                expected,
            } => match found {
                Some(found) if what.is_empty() => write!(f, "{found} is not {expected}"),
                Some(found) => write!(f, "{what} {found} is not {expected}"),
                None => write!(f, "{what} must be {expected}"),
            },
            WriteErrorKind::Unknown { what, name, note } => {
                write!(f, "unknown {what} {name}{note}")
            }
            WriteErrorKind::Duplicate { what } => write!(f, "duplicate {what}"),
            WriteErrorKind::Mismatch {
                found,
                expected,
                unit,
                relation,
                of,
            } => write!(f, "{found}{unit} {relation} {expected}{of}"),
            WriteErrorKind::DoesNotFit {
                what,
                value,
                bits,
                signed,
                field,
            } => match field {
                Some(field) => write!(f, "{what} {value} does not fit {field}"),
                None => {
                    let sign = if *signed { "signed" } else { "unsigned" };
                    write!(f, "{what} {value} does not fit {bits} {sign} bits")
                }
            },
            WriteErrorKind::Rule { rule, at } => match at {
                Some((field, byte)) => write!(f, "{field} at byte {byte} {rule}"),
                None => f.write_str(rule),
            },
            WriteErrorKind::Interchange {
                form,
                line,
                message,
            } => match line {
                Some(line) => write!(f, "{form} line {line}: {message}"),
                None => write!(f, "{form}: {message}"),
            },
            WriteErrorKind::TypeCode { cell, code, held } => {
                let kind = match code {
                    0 => "bit-packed",
                    1 => "float",
                    2 => "string",
                    _ => "u32",
                };
                write!(
                    f,
                    "cell {cell} has type code {code} ({kind}), which does not fit the value it holds, {held}"
                )
            }
            WriteErrorKind::ReadBack { what, error } => {
                write!(f, "the {what} would not read back: {error}")
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
            // `ReadBack`'s text has the reader's error in it already: a printer of the chain
            // would show it twice.
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
        let e = WriteError::rule("tile 9 is not in the tileset")
            .at_cell(40, 7)
            .in_field("tiles")
            .at_index(1)
            .in_field("planes");
        assert_eq!(e.path(), "planes[1].tiles[40,7]");
        assert_eq!(
            e.to_string(),
            "planes[1].tiles[40,7]: tile 9 is not in the tileset"
        );
        let nested = WriteError::rule("x").at_index(2).at_index(1);
        assert_eq!(nested.path(), "[1][2]");
        let named = WriteError::new(WriteErrorKind::DoesNotFit {
            what: "value",
            value: 16,
            bits: 4,
            signed: false,
            field: None,
        })
        .in_field("u4Kind")
        .at_index(3)
        .about("record \"it_ether\"")
        .in_field("records");
        assert_eq!(
            named.to_string(),
            "records[3].u4Kind: record \"it_ether\": value 16 does not fit 4 unsigned bits"
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
            Err(WriteError::missing("no such column", None)).in_field("fieldName");
        assert_eq!(via_context.unwrap_err().path(), "fieldName");
    }

    #[test]
    fn each_kind_says_what_the_free_text_said() {
        // The texts these kinds replaced, word for word: the CLI prints them.
        let said = |kind: WriteErrorKind| WriteError::new(kind).to_string();
        let missing = |what, name: Option<&str>, owner| WriteErrorKind::Missing {
            what,
            name: name.map(str::to_string),
            owner,
        };
        assert_eq!(said(missing("no !!string", None, None)), "no !!string");
        assert_eq!(
            said(missing("list", Some("records"), None)),
            "no \"records\" list"
        );
        assert_eq!(
            said(missing("record name", None, Some(("row", 7)))),
            "row 7 has no record name"
        );
        let not_a = |what: &str, found: Option<&str>, expected| WriteErrorKind::NotA {
            what: what.to_string(),
            found: found.map(str::to_string),
            expected,
        };
        assert_eq!(
            said(not_a("", Some("\"x1\""), "a u32")),
            "\"x1\" is not a u32"
        );
        assert_eq!(
            said(not_a("bit-packed cell", Some("\"zz\""), "0x…")),
            "bit-packed cell \"zz\" is not 0x…"
        );
        assert_eq!(
            said(not_a("\"!!version\"", None, "a u32")),
            "\"!!version\" must be a u32"
        );
        assert_eq!(
            WriteError::not_a("", "5.5", "a type code")
                .about("\"!!typelist\"")
                .to_string(),
            "\"!!typelist\": 5.5 is not a type code"
        );
        assert_eq!(
            said(WriteErrorKind::Unknown {
                what: "game",
                name: "\"XIV\"".into(),
                note: " in \"!game\"",
            }),
            "unknown game \"XIV\" in \"!game\""
        );
        assert_eq!(
            said(WriteErrorKind::Duplicate {
                what: "record name"
            }),
            "duplicate record name"
        );
        assert_eq!(
            said(WriteErrorKind::Mismatch {
                found: 3,
                expected: 4,
                unit: " values",
                relation: "for",
                of: " fields",
            }),
            "3 values for 4 fields"
        );
        assert_eq!(
            said(WriteErrorKind::Mismatch {
                found: 12,
                expected: 16,
                unit: " bytes",
                relation: "where the header's format and size need",
                of: "",
            }),
            "12 bytes where the header's format and size need 16"
        );
        assert_eq!(
            said(WriteErrorKind::DoesNotFit {
                what: "value",
                value: -9,
                bits: 3,
                signed: true,
                field: None,
            }),
            "value -9 does not fit 3 signed bits"
        );
        assert_eq!(
            said(WriteErrorKind::DoesNotFit {
                what: "type code",
                value: 300,
                bits: 8,
                signed: false,
                field: Some("!!strtypelistb's byte"),
            }),
            "type code 300 does not fit !!strtypelistb's byte"
        );
        assert_eq!(
            said(WriteErrorKind::Rule {
                rule: "lies outside the record",
                at: Some(("field", 12)),
            }),
            "field at byte 12 lies outside the record"
        );
        assert_eq!(
            said(WriteErrorKind::Interchange {
                form: "CSV",
                line: Some(3),
                message: "bad".into(),
            }),
            "CSV line 3: bad"
        );
        assert_eq!(
            said(WriteErrorKind::Interchange {
                form: "XLSX",
                line: None,
                message: "bad".into(),
            }),
            "XLSX: bad"
        );
        assert_eq!(
            said(WriteErrorKind::TypeCode {
                cell: 2,
                code: 1,
                held: "a string",
            }),
            "cell 2 has type code 1 (float), which does not fit the value it holds, a string"
        );
        let read = Error::invalid(0x40, "DDS_HEADER.size", 1, "bad");
        let back = WriteError::new(WriteErrorKind::ReadBack {
            what: "texture",
            error: read,
        });
        assert_eq!(
            back.to_string(),
            format!("the texture would not read back: {read}")
        );
        // Its text has the reader's already: no source to print it twice.
        assert!(std::error::Error::source(&back).is_none());
    }
}

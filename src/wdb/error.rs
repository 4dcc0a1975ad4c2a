//! [`WdbError`]: a crate [`Error`] plus the record and field it happened in.
//!
//! The crate's `Error` carries a `&'static str`; a WDB's record and field names come from the file
//! (or the caller), so they ride beside it, borrowed: still `Copy`, still allocation-free.

use core::fmt;

use crate::error::Error;

/// A decoding failure in a `.wdb`: where and why (`error`), and in which record and field.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WdbError<'n> {
    /// The record's name, as stored (`None` when the failure is not in one record, e.g. a schema
    /// that cannot be built).
    pub record: Option<&'n [u8]>,
    /// The field's name, or `None` when no field was involved.
    pub field: Option<&'n str>,
    /// The offset, structure and values.
    pub error: Error,
}

/// The result of the WDB readers.
pub type WdbResult<'n, T> = core::result::Result<T, WdbError<'n>>;

impl<'n> WdbError<'n> {
    pub(crate) const fn new(error: Error) -> Self {
        WdbError {
            record: None,
            field: None,
            error,
        }
    }

    pub(crate) const fn in_field(error: Error, field: &'n str) -> Self {
        WdbError {
            record: None,
            field: Some(field),
            error,
        }
    }

    pub(crate) const fn in_record(mut self, record: &'n [u8]) -> Self {
        self.record = Some(record);
        self
    }
}

impl From<Error> for WdbError<'_> {
    fn from(error: Error) -> Self {
        WdbError::new(error)
    }
}

impl WdbError<'_> {
    /// The record and field, as messages say them (`record "it_potion", field "u16Price"`);
    /// `None` when the error is in neither.
    pub fn within(&self) -> Option<String> {
        let record = self
            .record
            .map(|r| format!("record {:?}", String::from_utf8_lossy(r)));
        let field = self.field.map(|name| format!("field {name:?}"));
        match (record, field) {
            (Some(record), Some(field)) => Some(format!("{record}, {field}")),
            (one, None) | (None, one) => one,
        }
    }
}

impl fmt::Display for WdbError<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(within) = self.within() {
            write!(f, "{within}: ")?;
        }
        write!(f, "{}", self.error)
    }
}

impl std::error::Error for WdbError<'_> {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.error)
    }
}

/// A [`WdbError`] that owns its names, for `?` into `Box<dyn Error>` or `anyhow` (which need
/// `'static`). Made only on the error path, by [`WdbError::into_owned`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OwnedWdbError {
    /// The record's name, as stored.
    pub record: Option<Vec<u8>>,
    /// The field's name.
    pub field: Option<String>,
    /// The offset, structure and values.
    pub error: Error,
}

impl WdbError<'_> {
    /// Copies the record and field names so that the error outlives the file's bytes.
    pub fn into_owned(self) -> OwnedWdbError {
        OwnedWdbError {
            record: self.record.map(<[u8]>::to_vec),
            field: self.field.map(str::to_string),
            error: self.error,
        }
    }
}

impl fmt::Display for OwnedWdbError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        WdbError {
            record: self.record.as_deref(),
            field: self.field.as_deref(),
            error: self.error,
        }
        .fmt(f)
    }
}

impl std::error::Error for OwnedWdbError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.error)
    }
}

/// A `.wdb` error as every format's: the record and field it happened in, said as the format
/// says them, beside the reader's error.
impl From<WdbError<'_>> for crate::view::ViewError {
    fn from(e: WdbError<'_>) -> Self {
        match e.within() {
            Some(within) => crate::view::ViewError::ReadIn {
                within,
                error: e.error,
            },
            None => crate::view::ViewError::Read(e.error),
        }
    }
}

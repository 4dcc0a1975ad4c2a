//! The one error of the XML sources: which file, which element, which line, and why.

use std::fmt;

/// An error reading a BigWorld XML source: the file, the element path inside it (`""` when the
/// error is about the file as a whole), the 1-based line (0 when unknown) and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SourceError {
    /// The file being read (as the caller or the referencing file named it).
    pub file: String,
    /// The element path, e.g. `X.visual/renderSets/renderSet/name`.
    pub element: String,
    /// 1-based line of the element, 0 when the error is not about one place.
    pub line: usize,
    /// What went wrong.
    pub why: String,
}

impl SourceError {
    /// An error about `file` at `element` on `line`.
    pub fn new(file: &str, element: &str, line: usize, why: impl Into<String>) -> Self {
        SourceError {
            file: file.to_owned(),
            element: element.to_owned(),
            line,
            why: why.into(),
        }
    }
}

impl fmt::Display for SourceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.file)?;
        if self.line > 0 {
            write!(f, ":{}", self.line)?;
        }
        if !self.element.is_empty() {
            write!(f, ": <{}>", self.element)?;
        }
        write!(f, ": {}", self.why)
    }
}

impl std::error::Error for SourceError {}

//! `.wdb` as one of [`AnyView`](crate::AnyView)'s formats: its [`View`] implementation and the
//! summary `gamebin info` prints.

use core::fmt;

use super::WdbView;
use crate::view::{View, count};

/// What `gamebin info` shows of a `.wdb`: the game, the sheet, its records and their layout, and
/// the sections stored.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct WdbInfo {
    /// Which game's layout (`"xiii"`, `"xiii-2/lr"`).
    pub game: &'static str,
    /// The sheet's name (`!!sheetname`), when stored.
    pub sheet: Option<String>,
    /// Records.
    pub records: usize,
    /// Fields of the schema; an XIII-1 file (no names) counts its cells.
    pub fields: usize,
    /// Bytes of one record.
    pub record_size: usize,
    /// The sections' names, in file order.
    pub sections: Vec<String>,
}

impl fmt::Display for WdbInfo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} ({}), sheet {}, {} of {}, {}, sections {}",
            <WdbView<'_> as View<'_>>::NAME,
            self.game,
            self.sheet.as_deref().unwrap_or("(none)"),
            count(self.records, "record", "records"),
            count(self.record_size, "byte", "bytes"),
            count(self.fields, "field", "fields"),
            self.sections.join(" "),
        )
    }
}

//! `.wdb` as one of [`AnyView`](crate::AnyView)'s formats: its [`View`] implementation and the
//! summary `gamebin info` prints.

use core::fmt;

use super::{Game, WdbView};
use crate::Format;
use crate::any::{CheckReport, Scratch, View, ViewError, count};
use crate::error::Result;

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
            Format::Ff13Wdb,
            self.game,
            self.sheet.as_deref().unwrap_or("(none)"),
            count(self.records, "record", "records"),
            count(self.record_size, "byte", "bytes"),
            count(self.fields, "field", "fields"),
            self.sections.join(" "),
        )
    }
}

impl<'a> View<'a> for WdbView<'a> {
    const FORMAT: Format = Format::Ff13Wdb;
    type Summary = WdbInfo;
    #[cfg(feature = "write")]
    type Model = crate::wdb::model::WdbModel;

    fn looks_like(data: &[u8]) -> bool {
        super::looks_like(data)
    }

    fn open(data: &'a [u8], _: &'a mut Scratch) -> Result<Self> {
        WdbView::from_bytes(data)
    }

    /// [`WdbView::validate`]: every record's every value decoded.
    fn check(&self) -> CheckReport {
        CheckReport::of_walk(self.validate())
    }

    fn summary(&self) -> Result<WdbInfo, ViewError> {
        let (fields, record_size) = match self.game() {
            Game::Xiii2Lr => {
                let schema = self.schema()?;
                (schema.len(), schema.record_size())
            }
            Game::Xiii1 => {
                let cells = self.type_list().map_or(0, |t| t.len());
                (cells, cells * 4)
            }
        };
        Ok(WdbInfo {
            game: self.game().name(),
            sheet: self
                .sheet_name()
                .map(|s| String::from_utf8_lossy(s).into_owned()),
            records: self.record_count(),
            fields,
            record_size,
            sections: self
                .sections()
                .map(|(name, _)| String::from_utf8_lossy(name).into_owned())
                .collect(),
        })
    }

    /// The table with the file's own field names (an XIII-1 file's raw cells).
    #[cfg(feature = "write")]
    fn to_model(&self) -> Result<Self::Model, ViewError> {
        Ok(crate::wdb::model::WdbModel::from_view(self, None)?)
    }

    #[cfg(all(feature = "write", feature = "serde"))]
    fn diff(&self, other: &Self) -> Result<crate::diff::Report, ViewError> {
        Ok(crate::wdb::diff::files(self, other)?)
    }
}

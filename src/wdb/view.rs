//! The `ff13-wdb` format as one of [`AnyView`](crate::AnyView)'s formats: its [`View`]
//! implementation, with the format's facts (its name, the names its files go by).

use super::{Game, WdbInfo, WdbView};
use crate::error::Result;
use crate::view::{CheckReport, NameHint, Scratch, View, ViewError};

impl<'a> View<'a> for WdbView<'a> {
    const NAME: &'static str = "ff13-wdb";
    type Summary = WdbInfo;
    #[cfg(feature = "write")]
    type Model = crate::wdb::model::WdbModel;

    fn looks_like(data: &[u8]) -> bool {
        super::looks_like(data)
    }

    const NAMED: Option<NameHint> = Some(NameHint {
        extensions: &["wdb"],
        name: ".wdb",
        unreadable: "named .wdb but does not read as one",
    });

    /// `WPD\0`, the container every `.wdb` is (other WPD files read as a container without a
    /// type list, and stay unrecognised).
    const MAGIC: &'static [u8] = &super::raw::MAGIC;

    /// A WPD container is a `.wdb` table only with a type list.
    fn is_as_named(&self) -> core::result::Result<(), &'static str> {
        match self.type_list() {
            Some(_) => Ok(()),
            None => Err("named .wdb but has neither !!strtypelist nor !!strtypelistb"),
        }
    }

    fn from_bytes_in(data: &'a [u8], _: &'a mut Scratch) -> Result<Self> {
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

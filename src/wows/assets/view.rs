//! The `wows-assets` format as one of [`AnyView`](crate::AnyView)'s formats: its [`View`]
//! implementation, with the format's facts (its name, the names its files go by).

use std::path::Path;

use super::{AssetsDb, AssetsInfo, ChecksumInfo, DatabaseInfo};
use crate::error::Result;
use crate::view::{self, CheckReport, NameHint, Scratch, View, ViewError};

impl<'a> View<'a> for AssetsDb<'a> {
    const NAME: &'static str = "wows-assets";
    type Summary = AssetsInfo;
    #[cfg(feature = "write")]
    type Model = crate::wows::assets::model::AssetsModel;

    fn looks_like(data: &[u8]) -> bool {
        super::looks_like(data)
    }

    const NAMED: Option<NameHint> = Some(NameHint {
        extensions: &["bin"],
        name: "assets.bin",
        unreadable: "named like an assets.bin but does not read as one",
    });

    /// `BWDB`.
    const MAGIC: &'static [u8] = &super::MAGIC.to_le_bytes();

    /// A `.bin` whose stem contains `assets` (`assets.bin`, `assets_old.bin`).
    fn named_like(path: &Path, _: &[u8], _: bool) -> Option<NameHint> {
        let stem = path.file_stem()?.to_string_lossy();
        view::by_extension(path, Self::NAMED?).filter(|_| stem.contains("assets"))
    }

    fn from_bytes_in(data: &'a [u8], _: &'a mut Scratch) -> Result<Self> {
        AssetsDb::from_bytes(data)
    }

    /// [`AssetsDb::validate`].
    fn check(&self) -> CheckReport {
        CheckReport::of_walk(self.validate())
    }

    fn summary(&self) -> Result<AssetsInfo, ViewError> {
        let mut databases = Vec::new();
        for d in self.databases().iter() {
            let d = d?;
            databases.push(DatabaseInfo {
                name: d.name().into_owned(),
                records: d.record_count(),
                item_size: d.item_size(),
                schema_hash: d.schema_hash(),
            });
        }
        let checksum = self.verify_checksum();
        let states = self.prototypes().states()?;
        Ok(AssetsInfo {
            strings: self.strings().count(),
            paths: self.paths().len(),
            prototypes: states.live,
            deleted: states.deleted,
            other_states: states.other,
            databases,
            checksum: ChecksumInfo {
                stored: checksum.stored,
                matches: checksum.matches().name(),
            },
        })
    }

    /// The model `gamebin assets unpack` prints and `assets pack` writes back.
    #[cfg(feature = "write")]
    fn to_model(&self) -> Result<Self::Model, ViewError> {
        Ok(crate::wows::assets::model::AssetsModel::from_view(self)?)
    }

    #[cfg(all(feature = "write", feature = "serde"))]
    fn diff(&self, other: &Self) -> Result<crate::diff::Report, ViewError> {
        Ok(crate::wows::assets::diff::files(self, other)?)
    }
}

//! The `wows-pfs-idx` format as one of [`AnyView`](crate::AnyView)'s formats: its [`View`]
//! implementation, with the format's facts (its name, the names its files go by).

use std::path::Path;

use super::entry::Compression;
use super::info::{BLOBS_NOT_CHECKED, CompressionCounts, IdxInfo};
use super::{IdxView, MAGIC};
use crate::error::Result;
use crate::view::{self, CheckReport, NameHint, Scratch, View, ViewError};

impl<'a> View<'a> for IdxView<'a> {
    const NAME: &'static str = "wows-pfs-idx";
    type Summary = IdxInfo;
    #[cfg(feature = "write")]
    type Model = super::model::IdxModel;

    /// The BigWorld header's magic, `ISFP` (`assets.bin`, the other BigWorld file, has `BDWB`).
    fn looks_like(data: &[u8]) -> bool {
        data.get(..4)
            .is_some_and(|magic| magic == MAGIC.to_le_bytes().as_slice())
            && data.len() >= 16
    }

    /// `.idx` is other programs' extension too (git's pack indexes, subtitles): only a file the
    /// user named is taken for a PFS index by its name; one found by walking a folder is one only
    /// by its content.
    const NAMED: Option<NameHint> = Some(NameHint {
        extensions: &["idx"],
        name: ".idx",
        unreadable: "named .idx but does not read as one",
    });

    /// `ISFP`.
    const MAGIC: &'static [u8] = &MAGIC.to_le_bytes();

    fn named_like(path: &Path, _: &[u8], named: bool) -> Option<NameHint> {
        view::by_extension(path, Self::NAMED?).filter(|_| named)
    }

    fn from_bytes_in(data: &'a [u8], _: &'a mut Scratch) -> Result<Self> {
        IdxView::from_bytes(data)
    }

    /// The checksum, every record, the tree and each file's name and volume (the blobs are in the
    /// volumes: `gamebin check` of the game folder reads them).
    fn check(&self) -> CheckReport {
        let found = self.findings();
        let finding = |f: &super::IdxFinding| view::Finding::new("", f.offset(), f);
        CheckReport {
            errors: found.errors.iter().map(finding).collect(),
            warnings: found.warnings.iter().map(finding).collect(),
        }
    }

    fn summary(&self) -> core::result::Result<IdxInfo, ViewError> {
        let mut compression = CompressionCounts::default();
        let (mut stored_bytes, mut unpacked_bytes) = (0u64, 0u64);
        for file in self.files() {
            match file.compression {
                Compression::Stored => compression.stored += 1,
                Compression::Deflate => compression.deflate += 1,
                Compression::OodleStream { .. } => compression.oodle += 1,
                Compression::Unknown { .. } => compression.unknown += 1,
            }
            stored_bytes += u64::from(file.size);
            unpacked_bytes += u64::from(file.unpacked_size);
        }
        let volumes = self
            .volumes()
            .map(|v| Ok(String::from_utf8_lossy(v?.name).into_owned()))
            .collect::<Result<Vec<_>>>()?;
        Ok(IdxInfo {
            layout: self.layout().name(),
            names: self.name_count(),
            directories: self.name_count().saturating_sub(self.file_count()),
            files: self.file_count(),
            volumes,
            compression,
            stored_bytes,
            unpacked_bytes,
            checksum: if self.verify_checksum().is_ok() {
                "ok"
            } else {
                "mismatch"
            },
            blobs: BLOBS_NOT_CHECKED,
        })
    }

    #[cfg(feature = "write")]
    fn to_model(&self) -> core::result::Result<Self::Model, ViewError> {
        Ok(super::model::IdxModel::from_view(self)?)
    }

    #[cfg(all(feature = "write", feature = "serde"))]
    fn diff(&self, other: &Self) -> core::result::Result<crate::diff::Report, ViewError> {
        super::diff::files(self, other)
    }
}

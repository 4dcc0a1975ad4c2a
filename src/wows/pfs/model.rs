//! The owned model of one PFS index (`.idx`): every record of its three tables as stored, in
//! table order, with the full paths its tree spells (derived, for people and for `diff`). What
//! `gamebin dump --json` prints of an index; with the `serde` feature it serializes and reads
//! back, and [`IdxModel::to_bytes`] writes it (the records as held).

use super::entry::Compression;
use super::tree::Tree;
use super::write::{NameRecordOut, RecordOut, write_idx};
use super::{IdxLayout, IdxView};
use crate::error::Result;
use crate::write_error::{WriteError, WriteResult};

/// A PFS index, owned.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(deny_unknown_fields))]
pub struct IdxModel {
    /// `"current"` (pointer size 0x40) or `"legacy"` (0x20).
    pub layout: String,
    /// The checksum the header stores (MurmurHash3 of the bytes after the header).
    pub checksum: u32,
    /// The name records (directories and files), in table order.
    pub names: Vec<NameModel>,
    /// The file records, in table order.
    pub files: Vec<FileModel>,
    /// The volume records, in table order.
    pub volumes: Vec<VolumeModel>,
}

/// A name record: a directory or a file of the tree.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(deny_unknown_fields))]
pub struct NameModel {
    /// The last segment of the path.
    pub name: String,
    /// CityHash64 of the full path.
    pub id: u64,
    /// The parent's id (CityHash64 of `"."` at the top).
    pub parent_id: u64,
    /// The full path its parents spell (derived, not stored); `None` when they do not lead to the
    /// root.
    pub path: Option<String>,
}

/// A file record: where a file's bytes are and how they are stored.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(deny_unknown_fields))]
pub struct FileModel {
    /// The id of the file's name record.
    pub id: u64,
    /// The file's full path (derived from its name record; `None` when it has none, or its
    /// parents do not lead to the root).
    pub path: Option<String>,
    /// The id of the volume holding its bytes.
    pub volume_id: u64,
    /// That volume's file name (derived; `None` when no volume record has the id).
    pub volume: Option<String>,
    /// Where the stored bytes start in the volume.
    pub offset: u64,
    /// `"stored"`, `"deflate"`, `"oodle"` or `"unknown"` (derived from the two words).
    pub compression: String,
    /// The first compression word as stored (0 stored, 5 deflate, 6 Oodle).
    pub method: u32,
    /// The second compression word as stored (0 stored, 1 deflate).
    pub flag: u32,
    /// The stored size.
    pub size: u32,
    /// CRC-32 of the unpacked bytes.
    pub crc32: u32,
    /// The unpacked size.
    pub unpacked_size: u32,
}

/// A volume record: one `.pkg` file.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(deny_unknown_fields))]
pub struct VolumeModel {
    /// The file name (without the `//.//` some indexes put before it).
    pub name: String,
    /// CityHash64 of the file name.
    pub id: u64,
}

impl IdxModel {
    /// Every record of `view`; an error at the first name that does not read (outside the file,
    /// not NUL-terminated, not UTF-8).
    pub fn from_view(view: &IdxView<'_>) -> Result<IdxModel> {
        let tree = Tree::of(view);
        let mut names = Vec::with_capacity(tree.names.len());
        for (i, name) in tree.names.iter().enumerate() {
            let name = (*name)?;
            names.push(NameModel {
                name: name.name_str()?.to_owned(),
                id: name.id,
                parent_id: name.parent_id,
                path: tree.path(i).map(str::to_owned),
            });
        }
        let mut volumes = Vec::with_capacity(view.volume_count());
        for volume in view.volumes() {
            let volume = volume?;
            volumes.push(VolumeModel {
                name: volume.name_str()?.to_owned(),
                id: volume.id,
            });
        }
        // Each volume's name by id (the first record of each id).
        let mut by_id = std::collections::HashMap::with_capacity(volumes.len());
        for volume in &volumes {
            by_id.entry(volume.id).or_insert(volume.name.as_str());
        }
        let files = view
            .files()
            .map(|file| {
                let (method, flag) = file.compression.words();
                FileModel {
                    id: file.id,
                    path: tree.path_of_id(file.id).map(str::to_owned),
                    volume_id: file.volume_id,
                    volume: by_id.get(&file.volume_id).map(|&v| v.to_owned()),
                    offset: file.offset_in_volume,
                    compression: Compression::from_words(method, flag).as_str().to_owned(),
                    method,
                    flag,
                    size: file.size,
                    crc32: file.crc32,
                    unpacked_size: file.unpacked_size,
                }
            })
            .collect();
        Ok(IdxModel {
            layout: view.layout().name().to_owned(),
            checksum: view.stored_checksum(),
            names,
            files,
            volumes,
        })
    }
}

impl IdxModel {
    /// The index this model holds: every record as held, in the model's order, in its layout;
    /// the string pools laid out as the writer lays them and the checksum computed (the model's
    /// `checksum`, and its derived `path`, `volume` and `compression`, are not read). Refused: a
    /// layout other than `"current"` or `"legacy"`, a name with a NUL in it, a count or a legacy
    /// field that does not fit in 32 bits.
    pub fn to_bytes(&self) -> WriteResult<Vec<u8>> {
        let layout = match self.layout.as_str() {
            "current" => IdxLayout::Current,
            "legacy" => IdxLayout::Legacy,
            _ => {
                return Err(WriteError::invalid(
                    "layout",
                    0,
                    "neither \"current\" nor \"legacy\"",
                ));
            }
        };
        let no_nul = |name: &str, field: &'static str, i: usize| {
            if name.contains('\0') {
                Err(WriteError::invalid("name", 0, "a NUL inside the name")
                    .at_index(i)
                    .in_field(field))
            } else {
                Ok(())
            }
        };
        let mut names = Vec::with_capacity(self.names.len());
        for (i, n) in self.names.iter().enumerate() {
            no_nul(&n.name, "names", i)?;
            names.push(NameRecordOut {
                name: &n.name,
                id: n.id,
                parent_id: n.parent_id,
            });
        }
        let files: Vec<RecordOut> = self
            .files
            .iter()
            .map(|f| RecordOut {
                id: f.id,
                volume_id: f.volume_id,
                offset: f.offset,
                method: f.method,
                flag: f.flag,
                size: f.size,
                crc32: f.crc32,
                unpacked_size: f.unpacked_size,
            })
            .collect();
        let mut volumes = Vec::with_capacity(self.volumes.len());
        for (i, v) in self.volumes.iter().enumerate() {
            no_nul(&v.name, "volumes", i)?;
            volumes.push((v.name.as_str(), v.id));
        }
        write_idx(layout, &names, &files, &volumes)
    }
}

//! Writes CraftStudio `Project.dat` files from an owned [`ProjectModel`], the way CraftStudio's
//! .NET `BinaryWriter` does: every record through the reader's raw structs and record types
//! (`craftstudio::raw`, `ControlRecord`, `EntryRecord`), with canonical length prefixes and
//! booleans as 0 or 1.

use zerocopy::little_endian::U16;

use crate::bytes::sink::{Sink, narrow};
use crate::craftstudio::model::ProjectModel;
use crate::craftstudio::netstr;
use crate::craftstudio::raw::{
    AssetHead, EntryFlags, EntryHead, FileStart, ProjectSettings, TableHead,
};
use crate::craftstudio::{ControlRecord, EntryRecord, RevisionRecord};
use crate::write_error::{WriteContext, WriteError, WriteResult};

impl ProjectModel {
    /// The file's bytes, laid out by the reader's raw structs (`craftstudio::raw`). Fails,
    /// naming the structure and field, if a table has more than 65,535 records or a string is
    /// longer than a .NET string's `i32` length can say.
    pub fn to_bytes(&self) -> WriteResult<Vec<u8>> {
        // Readers read one version: a file of another would not open.
        if self.format_version != crate::craftstudio::raw::FORMAT_VERSION {
            return Err(WriteError::invalid(
                "Project.format_version",
                u64::from(self.format_version),
                "not the one version readers read",
            )
            .in_field("format_version"));
        }
        let mut out = Sink::new();
        out.put(&FileStart {
            format_version: self.format_version,
            project_type: self.project_type,
        });
        netstr::write(&mut out, &self.name, "Project.name").in_field("name")?;
        out.put(&ProjectSettings {
            startup_scene_id: self.startup_scene_id.into(),
            script_api_version: self.script_api_version.into(),
            membership_policy: self.membership_policy,
            default_member_role: self.default_member_role,
        });
        netstr::write(&mut out, &self.description, "Project.description")
            .in_field("description")?;
        out.put(&TableHead {
            next_id: self.next_control_id.into(),
            count: count(self.controls.len(), "Project.game_controls").in_field("controls")?,
        });
        for (i, c) in self.controls.iter().enumerate() {
            let record = ControlRecord {
                id: c.id,
                name: &c.name,
                settings: &c.settings,
            };
            record.write(&mut out).at_index(i).in_field("controls")?;
        }
        out.put(&TableHead {
            next_id: self.next_entry_id.into(),
            count: count(self.entries.len(), "Project.entries").in_field("entries")?,
        });
        let mut revisions = Vec::new();
        for (i, e) in self.entries.iter().enumerate() {
            let in_entry = |e: WriteError| e.at_index(i).in_field("entries");
            // A folder stores none of an asset's fields: set, they would be lost.
            if e.is_folder {
                let set = [
                    ("trashed", u64::from(e.trashed)),
                    ("next_revision_id", u64::from(e.next_revision_id)),
                    ("revisions", crate::bytes::u64_of(e.revisions.len())),
                ];
                if let Some(&(key, value)) = set.iter().find(|(_, value)| *value != 0) {
                    let e = WriteError::invalid(
                        "ProjectEntry.asset",
                        value,
                        "a folder stores no asset fields (trashed, revision id, revisions)",
                    );
                    return Err(in_entry(e.in_field(key)));
                }
            }
            let asset = if e.is_folder {
                None
            } else {
                Some(AssetHead {
                    trashed: e.trashed.into(),
                    next_revision_id: e.next_revision_id.into(),
                    revision_count: count(e.revisions.len(), "ProjectEntry.revisions")
                        .in_field("revisions")
                        .map_err(in_entry)?,
                })
            };
            revisions.clear();
            if asset.is_some() {
                revisions.extend(
                    e.revisions
                        .iter()
                        .map(|(id, name)| RevisionRecord { id: *id, name }),
                );
            }
            let record = EntryRecord {
                head: &EntryHead {
                    is_folder: e.is_folder.into(),
                    id: e.id.into(),
                    parent_id: e.parent_id.into(),
                },
                name: &e.name,
                flags: &EntryFlags {
                    entry_type: e.entry_type,
                    locked: e.locked.into(),
                },
                asset: asset.as_ref(),
            };
            record.write(&mut out, &revisions).map_err(in_entry)?;
        }
        out.put(self.trailing.as_slice());
        Ok(out.into_bytes())
    }
}

/// A table's record count as the file's `u16`.
fn count(n: usize, what: &'static str) -> WriteResult<U16> {
    narrow::<u16>(n, what).map(U16::new)
}

//! The `assets.bin` writer: strings and resource-to-prototype maps with linear probing
//! (`hash_map.rs`), prototype databases whose records (all ten types) are encoded from the
//! reader's own [`PrototypeFields`] — each record type's encoder is in its file under `records/`,
//! what they share in `encode.rs` — into database blobs (`blob.rs`), laid out the way the seed
//! describes the game's file (`layout.rs`), or where another writer's [`FileLayout`] and
//! [`BlobPlacement`]s put the parts (`file_layout.rs`, `blob_placement.rs`, `placer.rs`). Either
//! checksum flavour. The builder and the model it converts to and from are in `model`.

use crate::bytes::sink::invalid;
use crate::bytes::u64_of;
use crate::wows::assets::model::{AssetsBuilder, AssetsModel};
use crate::wows::assets::{PrototypeFields, PrototypeType};
use crate::write_error::{WriteError, WriteResult as Result};

mod blob;
mod blob_placement;
mod encode;
mod file_layout;
mod hash_map;
mod layout;
mod placer;

pub(crate) use blob::Blob;
use blob::pointer;
pub use blob_placement::BlobPlacement;
pub(crate) use encode::{floats, ids, ids64, named, named_ids};
pub use file_layout::{FileLayout, NodeNameMaps, Padding, StoredBlob, StringWords};

impl AssetsModel {
    /// The model as a file, named as every format's owned model names it. It works on a copy
    /// ([`AssetsBuilder::from_model`] takes the model): a pipeline that no longer needs the model
    /// saves that copy with `AssetsBuilder::from_model(model)?.to_bytes()`.
    pub fn to_bytes(&self) -> Result<Vec<u8>> {
        AssetsBuilder::from_model(self.clone())?.to_bytes()
    }
}

impl AssetsBuilder {
    /// The position of the (decoded) database of `kind`.
    fn database_of(&self, kind: PrototypeType) -> Result<usize> {
        self.blobs
            .iter()
            .position(|b| b.magic == kind.magic() && b.raw.is_none())
            .ok_or_else(|| WriteError::invalid("databases", u64::from(kind.magic()), "no database"))
    }

    /// Encodes `record` into its type's database; returns the database's position and the
    /// record's index there.
    pub(in crate::wows::assets) fn encode(
        &mut self,
        record: PrototypeFields,
    ) -> Result<(usize, usize)> {
        let kind = record.kind().ok_or_else(raw_refused)?;
        let database = self.database_of(kind)?;
        Ok((database, self.encode_fields(database, record)?))
    }

    /// Encodes a record's fields into database `database` and keeps them there; returns the
    /// record's index.
    pub(in crate::wows::assets) fn encode_fields(
        &mut self,
        database: usize,
        record: PrototypeFields,
    ) -> Result<usize> {
        // Name ids first (they borrow self mutably for the strings map).
        for n in record.names() {
            self.string(n);
        }
        let Some(b) = self.blobs.get_mut(database) else {
            return Err(invalid("databases", u64_of(database), "no database"));
        };
        let index = b.count;
        if !record.encode(b, self.node_name_maps)? {
            return Err(raw_refused());
        }
        b.fields.push(record);
        Ok(index)
    }
}

/// A record the reader kept raw: it carries no fields to encode.
fn raw_refused() -> WriteError {
    invalid(
        "PrototypeFields",
        0,
        "a record kept raw is not writable as fields",
    )
}

//! [`PrototypeFields`]: a prototype record's decoded fields, owned, with every name id resolved
//! through the strings map — what `gamebin assets get` and `dump --json` print, what the Python
//! package's `Prototype.to_dict()` gives and what `diff` of two assets.bin files compares. Reading
//! a record into it allocates (names, lists); the borrowed record views stay the zero-copy path.
//! It is also the writer's one record input (`AssetsBuilder::prototype`, feature `write`). Each
//! record type's fields are declared once, for reading and writing, in its file under `records/`
//! (beside its view and its encoder); this file holds what they share: the enum's reading entry,
//! the budget every record's copy is taken from, the id fields' names and a raw record's fields.
//!
//! With the `serde` feature it serializes as JSON objects tagged by `"type"` (the database's name,
//! `null` for a record kept raw), ids as `0x…` hex text: the fields named in [`ID_FIELDS`] and
//! [`ID_LIST_FIELDS`], and a texture property's value (a property whose `"type"` is
//! `"texture"`). Floats are JSON numbers, except those JSON has no number for (NaN, infinity),
//! which are strings that keep their bits: `"inf"`, `"-inf"`, `"NaN"`, `"-NaN"`, or `"NaN:0x…"`
//! with the 32 bits of any other NaN. It reads back from that JSON too, except the two summaries it prints (an
//! effect's systems, a velocity field's velocities), which `PrototypeFields::complete` prints
//! in full.
//!
//! ```
//! # #[cfg(feature = "write")]
//! # fn main() -> Result<(), gamebin::Error> {
//! # let file = gamebin::synth::assets::example_file();
//! use gamebin::wows::assets::{AssetsDb, PrototypeFields};
//!
//! let db = AssetsDb::from_bytes(&file)?;
//! let at = db.lookup_path("content/gameplay/Test.visual")?.expect("a visual");
//! let PrototypeFields::Visual(visual) = PrototypeFields::read(&db, db.record(at)?)? else {
//!     panic!("a visual")
//! };
//! assert_eq!(visual.nodes[0].name.as_deref(), Some("Scene Root"));
//! # Ok(())
//! # }
//! # #[cfg(not(feature = "write"))]
//! # fn main() {}
//! ```

use super::{AssetsDb, Prototype, PrototypeFields, RawRecord};
use crate::bytes::u64_of;
use crate::error::{Error, Result};
use zerocopy::little_endian::U32;

/// Fields holding one path id (a resource id: the CityHash64 of a full path in most files), which
/// the path tree can turn into a full path.
pub const PATH_ID_FIELDS: [&str; 4] = [
    "merged_geometry_path_id",
    "material_mfm_path_id",
    "visual_resource_id",
    "fx_path_id",
];

/// Every field holding one id, given as `0x…` hex text in JSON: the path ids of
/// [`PATH_ID_FIELDS`], mapping ids and the other ids.
pub const ID_FIELDS: [&str; 10] = [
    "merged_geometry_path_id",
    "material_mfm_path_id",
    "visual_resource_id",
    "fx_path_id",
    "vertices_mapping_id",
    "indices_mapping_id",
    "matter_id",
    "replaces_id",
    "high_id",
    "low_id",
];

/// Fields holding a list of path ids, given as `0x…` hex text in JSON.
pub const ID_LIST_FIELDS: [&str; 3] = ["skeleton_extenders", "animations", "tint_materials"];

/// A name out of a fixed set (a layout's, a reason's). Spelled as an alias so that serde's derive
/// does not borrow a `&str` field from its input (it would need the input to live forever): the
/// field's own function reads it back as one of the set.
type FixedName = &'static str;

/// A name id resolved: `None` when the strings map has no such id.
pub type Name = Option<String>;

/// A record of a database kept raw.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct RawFields {
    /// Always `true`: marks the record as undecoded in JSON.
    pub raw: bool,
    /// The record's index in its database.
    pub index: usize,
    /// Why the database is kept raw.
    #[cfg_attr(
        feature = "serde",
        serde(deserialize_with = "super::fields_serde::raw_reason")
    )]
    pub reason: FixedName,
    /// The database blob's size in bytes.
    pub database_bytes: usize,
}

impl RawFields {
    /// What is known of a record kept raw.
    pub(crate) fn of(record: RawRecord<'_>) -> Self {
        RawFields {
            raw: true,
            index: record.index,
            reason: record.reason.describe(),
            database_bytes: record.database.len(),
        }
    }
}

/// What one record's owned fields may take: eight times the file (at least 1 MiB). A record's
/// lists and names are bounded by the file one by one, but records may point many lists at the
/// same bytes (a render set's node names, an atlas frame's points) and many ids at one long
/// string; copied one by one, a small crafted file would make the fields grow with the square of
/// its size. Well-formed records take a small part of this.
pub(crate) struct Budget<'v, 'a> {
    db: &'v AssetsDb<'a>,
    left: usize,
    /// The record's file offset, where an error is reported.
    at: usize,
}

impl<'v, 'a> Budget<'v, 'a> {
    fn new(db: &'v AssetsDb<'a>, at: usize) -> Self {
        Budget {
            db,
            left: db.as_bytes().len().saturating_mul(8).max(1 << 20),
            at,
        }
    }

    /// Takes `bytes` from what is left, or says which part of the record exhausted it.
    fn take(&mut self, bytes: usize, what: &'static str) -> Result<()> {
        self.left = self.left.checked_sub(bytes).ok_or_else(|| {
            Error::invalid(
                u64_of(self.at),
                what,
                u64_of(bytes),
                "the record's lists and names, copied one by one, would take more than eight \
                 times the file (they share bytes: a damaged or crafted file)",
            )
        })?;
        Ok(())
    }

    /// One fixed-size item of a list of structs.
    pub(crate) fn item<T>(&mut self, what: &'static str) -> Result<()> {
        self.take(core::mem::size_of::<T>(), what)
    }

    /// A list of plain values, converted one by one.
    pub(crate) fn list<T, U>(
        &mut self,
        items: &[T],
        convert: impl Fn(&T) -> U,
        what: &'static str,
    ) -> Result<Vec<U>> {
        self.take(items.len().saturating_mul(core::mem::size_of::<U>()), what)?;
        Ok(items.iter().map(convert).collect())
    }

    /// A name id resolved through the strings map.
    pub(crate) fn name(&mut self, id: u32, what: &'static str) -> Result<Name> {
        let text = self.db.string(id)?;
        self.take(
            core::mem::size_of::<Name>().saturating_add(text.map_or(0, str::len)),
            what,
        )?;
        Ok(text.map(str::to_owned))
    }

    /// A list of name ids, resolved.
    pub(crate) fn names(&mut self, ids: &[U32], what: &'static str) -> Result<Vec<Name>> {
        ids.iter().map(|id| self.name(id.get(), what)).collect()
    }

    /// A string stored in the record itself.
    pub(crate) fn text(&mut self, text: &str, what: &'static str) -> Result<String> {
        self.take(text.len(), what)?;
        Ok(text.to_owned())
    }
}

impl PrototypeFields {
    /// Reads `record`'s fields, its name ids resolved through `db`'s strings map. Errors are the
    /// record view's (a list beyond the database, a bad channel name).
    pub fn read(db: &AssetsDb<'_>, record: Prototype<'_>) -> Result<Self> {
        let budget = &mut Budget::new(db, record.record_offset().unwrap_or(0));
        Self::read_within(record, budget)
    }

    /// The prototype type's name as the file's databases spell it (`VisualPrototype`, …,
    /// `AtlasContourProto`: [`PrototypeType::name`](super::PrototypeType::name)), `None` for a
    /// record kept raw.
    pub fn type_name(&self) -> Option<&'static str> {
        self.kind().map(super::PrototypeType::name)
    }
}

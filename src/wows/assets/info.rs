//! `assets.bin` as one of [`AnyView`](crate::AnyView)'s formats: its [`View`] implementation and
//! the summary `gamebin info` prints.

use core::fmt;

use super::AssetsDb;
use crate::view::{View, count};

/// One prototype database as `info` shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct DatabaseInfo {
    /// The database's name (its prototype type).
    pub name: String,
    /// Records.
    pub records: usize,
    /// Bytes of one record, when the reader knows the layout.
    pub item_size: Option<usize>,
    /// The schema hash stored.
    pub schema_hash: u32,
}

/// The header's checksum and what it matches.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct ChecksumInfo {
    /// The checksum stored.
    pub stored: u32,
    /// What it matches ([`ChecksumMatch::name`](super::ChecksumMatch::name)).
    pub matches: &'static str,
}

/// What `gamebin info` shows of an `assets.bin`: how many strings, paths and prototypes, each
/// database, and the checksum.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct AssetsInfo {
    /// Strings of the strings map.
    pub strings: usize,
    /// Path entries.
    pub paths: usize,
    /// Live entries of the resource-to-prototype map (those with a record).
    pub prototypes: usize,
    /// Deleted entries: their slots are kept, with no record behind them.
    pub deleted: usize,
    /// Entries in a state no reader has seen (1 or 2); omitted from JSON when there are none.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "is_zero"))]
    pub other_states: usize,
    /// The prototype databases, in table order.
    pub databases: Vec<DatabaseInfo>,
    /// The header's checksum.
    pub checksum: ChecksumInfo,
}

#[cfg(feature = "serde")]
fn is_zero(n: &usize) -> bool {
    *n == 0
}

impl fmt::Display for AssetsInfo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Each count is the file's own (up to 2^64 − 1): their total is kept exact in 128 bits
        // rather than overflowing (the fuzz target found a file whose counts add up past it).
        let records: u128 = self.databases.iter().map(|d| d.records as u128).sum();
        write!(
            f,
            "{}, {}, {}, {}, {} deleted, {} ({}), checksum {:#010x} ({})",
            <AssetsDb<'_> as View<'_>>::NAME,
            count(self.strings, "string", "strings"),
            count(self.paths, "path", "paths"),
            count(self.prototypes, "live prototype", "live prototypes"),
            self.deleted,
            count(self.databases.len(), "database", "databases"),
            count(records, "record", "records"),
            self.checksum.stored,
            self.checksum.matches
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn record_counts_past_usize_add_up_without_overflow() {
        let database = |records| DatabaseInfo {
            name: "VisualPrototype".into(),
            records,
            item_size: None,
            schema_hash: 0,
        };
        let info = AssetsInfo {
            strings: 0,
            paths: 0,
            prototypes: 0,
            deleted: 0,
            other_states: 0,
            databases: vec![database(usize::MAX), database(usize::MAX), database(2)],
            checksum: ChecksumInfo {
                stored: 0,
                matches: "nothing",
            },
        };
        let total = 2 * (usize::MAX as u128) + 2;
        assert!(info.to_string().contains(&format!("({total} records)")));
    }
}

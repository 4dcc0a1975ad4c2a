//! Resources named the way a user names them (an id or a full path), and what a prototype
//! reference points to in one word: what `gamebin assets get`, `assets ls` and `dump` rely on.

use std::borrow::Cow;

use super::{AssetsDb, PrototypeRef, PrototypeState};
use crate::error::Result;

/// An id written as `0x…` hex or decimal; `None` for anything else (a path).
///
/// ```
/// use gamebin::wows::assets::parse_id;
///
/// assert_eq!(parse_id("0x1F"), Some(31));
/// assert_eq!(parse_id("31"), Some(31));
/// assert_eq!(parse_id("content/gameplay/Test.visual"), None);
/// ```
pub fn parse_id(key: &str) -> Option<u64> {
    match key.strip_prefix("0x").or_else(|| key.strip_prefix("0X")) {
        Some(hex) => u64::from_str_radix(hex, 16).ok(),
        None => key.parse().ok(),
    }
}

/// A resource as a user names it: an id (`0x…` hex or decimal) or a full path, with or without
/// the game's `res/` prefix. Found with [`AssetsDb::resolve_key`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ResourceKey<'k> {
    text: &'k str,
    id: Option<u64>,
}

impl<'k> ResourceKey<'k> {
    /// Reads `key`: a `res/` prefix is dropped, then the rest is an id when [`parse_id`] reads
    /// one, a full path otherwise.
    pub fn parse(key: &'k str) -> Self {
        let text = key.strip_prefix("res/").unwrap_or(key);
        ResourceKey {
            text,
            id: parse_id(text),
        }
    }

    /// The key without its `res/` prefix.
    pub fn text(&self) -> &'k str {
        self.text
    }

    /// The id the key gives, `None` for a path.
    pub fn id(&self) -> Option<u64> {
        self.id
    }
}

/// A resource [`AssetsDb::resolve_key`] found: its id, and its full path (`None` when the path
/// table has no entry with the id).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Resource {
    /// The resource's id (its path id).
    pub id: u64,
    /// Its full path, when the path table has it.
    pub path: Option<String>,
}

impl AssetsDb<'_> {
    /// Finds the resource `key` names. An id is taken as it is, its full path looked up by a
    /// linear walk of the path entries. A path is hashed (CityHash64) and probed; when no
    /// prototype has that id, the path entries are walked for it (files whose ids are not path
    /// hashes). `Ok(None)` when a path names no entry. Allocates the full path.
    ///
    /// ```
    /// # #[cfg(feature = "write")]
    /// # fn main() -> Result<(), gamebin::Error> {
    /// # let file = gamebin::synth::assets::example_file();
    /// use gamebin::wows::assets::{AssetsDb, ResourceKey};
    ///
    /// let db = AssetsDb::from_bytes(&file)?;
    /// let by_path = db.resolve_key(ResourceKey::parse("res/content/gameplay/Test.visual"))?;
    /// let found = by_path.expect("a path entry");
    /// assert_eq!(found.id, db.path_id("content/gameplay/Test.visual"));
    /// // The same resource by its id, written in hex: its full path comes back.
    /// let by_id = db.resolve_key(ResourceKey::parse(&format!("{:#x}", found.id)))?;
    /// assert_eq!(by_id, Some(found));
    /// assert_eq!(db.resolve_key(ResourceKey::parse("content/nothing"))?, None);
    /// # Ok(())
    /// # }
    /// # #[cfg(not(feature = "write"))]
    /// # fn main() {}
    /// ```
    pub fn resolve_key(&self, key: ResourceKey<'_>) -> Result<Option<Resource>> {
        if let Some(id) = key.id {
            let mut full = String::new();
            let found = self.full_path(id, &mut full)?;
            return Ok(Some(Resource {
                id,
                path: found.then_some(full),
            }));
        }
        let path = key.text;
        let hashed = self.path_id(path);
        let id = if self.prototype(hashed)?.is_some() {
            hashed
        } else if let Some(entry) = self.find_path(path)? {
            // Ids are not path hashes in this file: the linear walk found it.
            entry.self_id()
        } else {
            return Ok(None);
        };
        Ok(Some(Resource {
            id,
            path: Some(path.to_string()),
        }))
    }

    /// What a prototype reference points to, in one word: its database's
    /// [`name`](super::Database::name) for a live entry (`invalid` for a database index the file
    /// does not have), its [state](PrototypeState) otherwise. A database descriptor that cannot be
    /// read is an error (with its offset), not a type. Allocates only for a name it has to make
    /// (an unknown database magic or state).
    ///
    /// ```
    /// # #[cfg(feature = "write")]
    /// # fn main() -> Result<(), gamebin::Error> {
    /// # let file = gamebin::synth::assets::example_file();
    /// use gamebin::wows::assets::AssetsDb;
    ///
    /// let db = AssetsDb::from_bytes(&file)?;
    /// let at = db.lookup_path("content/gameplay/Test.mfm")?.expect("a prototype");
    /// assert_eq!(db.type_label(at)?, "MaterialPrototype");
    /// # Ok(())
    /// # }
    /// # #[cfg(not(feature = "write"))]
    /// # fn main() {}
    /// ```
    pub fn type_label(&self, at: PrototypeRef) -> Result<Cow<'static, str>> {
        match at.state {
            PrototypeState::Live => {}
            PrototypeState::Deleted => return Ok("deleted".into()),
            other => return Ok(other.to_string().into()),
        }
        Ok(match self.databases().get(at.database as usize)? {
            Some(d) => d.name(),
            None => "invalid".into(),
        })
    }
}

//! World of Warships `assets.bin` (BigWorld "BWDB" PrototypeDatabase): the game's master asset
//! index. Strings keyed by MurmurHash3, a resource-to-prototype hash map keyed by path ids
//! (CityHash64 of the full path), the path tree, and ten prototype databases (visuals, materials,
//! models…).
//!
//! Where its parts are: [`raw`] the on-disk structs; this file the view ([`AssetsDb`]) and the
//! reader beside it (strings, paths, prototypes, databases); `records/` one file per record type
//! (its view, its owned fields, its encoder) and the one list of the types that every dispatch
//! over them is derived from; `fields` the owned fields' common parts ([`PrototypeFields::read`],
//! JSON in `fields_serde` and `fields_float`);
//! `model` the owned database (`model::AssetsModel` and `model::AssetsBuilder`, feature `write`);
//! `write` its writer (record encoding into blobs, hash maps, layout, checksum, `to_bytes`);
//! `diff` the comparison by path; the fixtures and the full-scale world in `synth::assets` and
//! `synth::assets_scale`.
//!
//! [`AssetsDb::from_bytes`] reads the 16-byte header and the 0x60-byte body header and checks that
//! every section lies inside the file: O(1), nothing is walked and nothing is allocated. Lookups
//! probe the hash maps in place; records are borrowed.
//!
//! # Format notes
//!
//! Nothing here is verified on a real file (none is public); the reader follows the format notes.
//!
//! - The stored magic bytes are `BDWB`; relative pointers count from the section bases of the
//!   seed.
//! - Strings-map buckets are occupied when bit 31 of their word is set, resource-to-prototype
//!   buckets when their word is non-zero (peers disagree on bit 0 or bit 63). Probes stop at an
//!   all-zero bucket and never visit more than `capacity` slots.
//! - A prototype-map value is read as `state = v & 3, database = (v >> 2) & 0x3F, record = v >> 8`.
//! - Records are decoded when the (magic, schema hash) pair is known, or when the schema is
//!   unknown but the records fit the blob (`Layout::Checked`); otherwise they stay raw with the
//!   reason ([`RawReason`]). ModelPrototype's two layouts are told apart by the known schema hash,
//!   else the current 0x28 layout is tried first.
//!
//! ```
//! # #[cfg(feature = "write")]
//! # fn main() -> Result<(), gamebin::Error> {
//! # let file = gamebin::synth::assets::example_file();
//! use gamebin::wows::assets::{AssetsDb, Prototype};
//!
//! let db = AssetsDb::from_bytes(&file)?;
//! let path = "content/gameplay/Test.visual";
//! let found = db.lookup_path(path)?.expect("a prototype for the path");
//! let Prototype::Visual(visual) = db.record(found)? else { panic!("a visual") };
//! for node in visual.nodes()? {
//!     println!("node {}", db.string(node.name_id)?.unwrap_or("?"));
//! }
//! let mut full = String::new();
//! db.full_path(db.path_id(path), &mut full)?;
//! assert_eq!(full, path);
//! # Ok(())
//! # }
//! # #[cfg(not(feature = "write"))]
//! # fn main() {}
//! ```
//!
//! Doubtful points of the format (none is verified on a real file: no real `assets.bin` is public)
//! are visible in the API instead of guessed: [`AssetsDb::verify_checksum`] tries both candidate
//! algorithms, [`AssetsDb::ids_are_path_hashes`] checks the CityHash64 rule on a sample of paths
//! (with [`AssetsDb::find_path`] and [`PathIndex`] for files where it fails), and a database whose
//! (magic, schema hash) pair is unknown says why its records stay raw ([`Layout`]).

mod checksum;
mod database;
#[cfg(feature = "serde")]
pub mod diff;
mod fields;
#[cfg(feature = "serde")]
mod fields_float;
#[cfg(feature = "serde")]
mod fields_serde;
mod info;
#[cfg(feature = "serde")]
pub mod json;
#[cfg(feature = "write")]
pub mod model;
mod paths;
mod prototypes;
pub mod raw;
mod records;
mod resource;
mod strings;
mod view;
#[cfg(feature = "write")]
mod write;

pub use checksum::{Checksum, ChecksumMatch};
pub use database::{Database, Databases, Layout, RawReason, Records};
pub use fields::{ID_FIELDS, ID_LIST_FIELDS, Name, PATH_ID_FIELDS, RawFields};
#[cfg(feature = "serde")]
pub use fields_serde::CompleteFields;
#[cfg(all(feature = "serde", feature = "write"))]
pub(crate) use fields_serde::{complete_records, hex as serde_ids};
pub use info::{AssetsInfo, ChecksumInfo, DatabaseInfo};
pub use paths::{
    FIND_CANDIDATES, IdHasher, MAX_PATH_DEPTH, PathEntry, PathHashCheck, PathIndex, Paths,
};
pub use prototypes::{PrototypeRef, PrototypeState, PrototypeStates, Prototypes};
// Every record type's view and fields, and the enums over them, as `records/` declares them.
pub use records::*;
pub use resource::{Resource, ResourceKey, parse_id};
pub use strings::{Strings, StringsIter};

use crate::bytes::{Bytes, Table, u64_of};
use crate::error::{Error, ErrorKind, Result};
use crate::mmap::MappedFile;
use crate::wows::bigworld::Header;
use raw::BodyHeader;

/// The magic as a little-endian u32 (stored bytes `42 44 57 42`, "BDWB").
pub const MAGIC: u32 = 0x4257_4442;
/// The one version this reader knows.
pub const VERSION: u32 = 0x0101_0000;
/// Pointer size in bits of the files this reader knows.
pub const ARCHITECTURE: u16 = 0x40;

/// An `assets.bin`, borrowed. `Copy`, `Send`, `Sync`; everything it hands out lives as long as the
/// file's bytes (`'a`).
#[derive(Debug, Clone, Copy)]
pub struct AssetsDb<'a> {
    bytes: Bytes<'a>,
    header: &'a Header,
    body: &'a BodyHeader,
    strings: Strings<'a>,
    prototypes: Prototypes<'a>,
    // The path and database tables alone: `paths()` and `databases()` pair them with `bytes`, so
    // that the view holds the file's slice once (it is returned from every open).
    path_entries: Table<'a, raw::PathEntry>,
    database_entries: Table<'a, raw::DatabaseEntry>,
}

impl<'a> AssetsDb<'a> {
    /// Opens an `assets.bin` held in memory: checks the header (magic, version, 64-bit pointers,
    /// little-endian) and that the strings map, string pool, resource-to-prototype map, path
    /// entries and database entries lie inside the file. O(1), no allocation.
    ///
    /// ```
    /// # #[cfg(feature = "write")]
    /// # fn main() -> Result<(), gamebin::Error> {
    /// # let file = gamebin::synth::assets::example_file();
    /// use gamebin::wows::assets::{AssetsDb, PrototypeType};
    ///
    /// let db = AssetsDb::from_bytes(&file)?;
    /// // Which checksum algorithm matched is reported, never a reason to refuse the file.
    /// println!("checksum: {:?}", db.verify_checksum().matches());
    /// // Databases are found by their type's magic, not by their position.
    /// assert!(db.database(PrototypeType::Visual)?.is_some());
    /// # Ok(())
    /// # }
    /// # #[cfg(not(feature = "write"))]
    /// # fn main() {}
    /// ```
    pub fn from_bytes(data: &'a [u8]) -> Result<Self> {
        let bytes = Bytes::new(data);
        let header: &Header = bytes.read(0, "BWDB.header")?;
        if header.magic.get() != MAGIC {
            return Err(Error::new(
                0,
                "BWDB.magic",
                ErrorKind::BadMagic {
                    expected: u64::from(MAGIC),
                    found: u64::from(header.magic.get()),
                },
            ));
        }
        if header.version.get() != VERSION {
            return Err(Error::new(
                4,
                "BWDB.version",
                ErrorKind::UnsupportedVersion {
                    found: u64::from(header.version.get()),
                },
            ));
        }
        if header.architecture.get() != ARCHITECTURE {
            return Err(Error::invalid(
                0xC,
                "BWDB.architecture",
                u64::from(header.architecture.get()),
                "only 64-bit (0x40) databases are known",
            ));
        }
        if header.endianness.get() != 0 {
            return Err(Error::invalid(
                0xE,
                "BWDB.endianness",
                u64::from(header.endianness.get()),
                "only little-endian (0) databases are known",
            ));
        }
        let base = raw::BODY_BASE;
        let body: &BodyHeader = bytes.read(base, "BWDB.bodyHeader")?;

        // Every section is a table behind a relative pointer of the body header, counted from
        // the body (the r2p map and the paths from their own {count, pointer} pairs).
        let capacity = body.strings_capacity.get() as usize;
        let strings = Strings::new(
            Table::at_pointer(
                bytes,
                base + raw::BODY_STRINGS_BUCKETS_PTR,
                base,
                body.strings_buckets_ptr.get(),
                capacity,
                "offsetsMap.buckets",
            )?,
            Table::at_pointer(
                bytes,
                base + raw::BODY_STRINGS_VALUES_PTR,
                base,
                body.strings_values_ptr.get(),
                capacity,
                "offsetsMap.values",
            )?,
            Table::at_pointer(
                bytes,
                base + raw::BODY_STRING_DATA_PTR,
                base,
                body.string_data_ptr.get(),
                body.string_data_size.get() as usize,
                "stringData",
            )?,
        );

        let r2p = base + raw::BODY_R2P;
        let capacity = body.r2p_capacity.get() as usize;
        let prototypes = Prototypes::new(
            Table::at_pointer(
                bytes,
                base + raw::BODY_R2P_BUCKETS_PTR,
                r2p,
                body.r2p_buckets_ptr.get(),
                capacity,
                "resourceToPrototypeMap.buckets",
            )?,
            Table::at_pointer(
                bytes,
                base + raw::BODY_R2P_VALUES_PTR,
                r2p,
                body.r2p_values_ptr.get(),
                capacity,
                "resourceToPrototypeMap.values",
            )?,
        );

        let path_entries = Table::at_pointer(
            bytes,
            base + raw::BODY_PATHS_PTR,
            base + raw::BODY_PATHS,
            body.paths_ptr.get(),
            body.paths_count.get() as usize,
            "pathsStorage.data",
        )?;

        let database_entries = Table::at_pointer(
            bytes,
            base + raw::BODY_DATABASES_PTR,
            base,
            body.databases_ptr.get(),
            body.databases_count.get() as usize,
            "databases",
        )?;

        Ok(AssetsDb {
            bytes,
            header,
            body,
            strings,
            prototypes,
            path_entries,
            database_entries,
        })
    }

    /// Opens a mapped `assets.bin`. The file must not change while mapped (see [`MappedFile`]).
    pub fn open(file: &'a MappedFile) -> Result<Self> {
        Self::from_bytes(file.bytes())
    }

    /// The file's bytes.
    pub fn as_bytes(&self) -> &'a [u8] {
        self.bytes.as_slice()
    }

    /// The stored header.
    pub fn header(&self) -> &'a Header {
        self.header
    }

    /// The stored body header (section descriptors).
    pub fn body_header(&self) -> &'a BodyHeader {
        self.body
    }

    /// The body: every byte after the 16-byte header, which the checksum covers.
    pub fn body(&self) -> &'a [u8] {
        self.bytes
            .as_slice()
            .get(raw::BODY_BASE..)
            .unwrap_or_default()
    }

    /// Computes both candidate checksums over the body and says which one equals the stored value.
    /// Information only: a file whose checksum matches neither still opens and reads. O(file size).
    ///
    /// Bodies of 4 MiB or more are hashed on two threads (CRC32 beside MurmurHash3, whose serial
    /// chain sets the pace), so a full-size file costs about what MurmurHash3 alone costs; the
    /// thread is the only allocation. Smaller bodies are hashed on the calling thread and allocate
    /// nothing.
    pub fn verify_checksum(&self) -> Checksum {
        Checksum::compute(self.header.checksum.get(), self.body())
    }

    /// The strings map (name id → string).
    pub fn strings(&self) -> Strings<'a> {
        self.strings
    }

    /// The string whose MurmurHash3 is `name_id`, probed in place: `Ok(None)` when no string has
    /// that id.
    ///
    /// ```
    /// # #[cfg(feature = "write")]
    /// # fn main() -> Result<(), gamebin::Error> {
    /// # let file = gamebin::synth::assets::example_file();
    /// use gamebin::wows::assets::AssetsDb;
    ///
    /// let db = AssetsDb::from_bytes(&file)?;
    /// // Records hold name ids: the MurmurHash3 (seed 0) of the name.
    /// let id = gamebin::hash::murmur3_32(b"Scene Root", 0);
    /// assert_eq!(db.string(id)?, Some("Scene Root"));
    /// assert_eq!(db.string(0x1234_5678)?, None);
    /// # Ok(())
    /// # }
    /// # #[cfg(not(feature = "write"))]
    /// # fn main() {}
    /// ```
    pub fn string(&self, name_id: u32) -> Result<Option<&'a str>> {
        self.strings.get(name_id)
    }

    /// The resource-to-prototype map: one slot per resource that has (or had) a prototype. To
    /// count prototypes, count by state: a deleted entry keeps its slot but has no record.
    ///
    /// ```
    /// # #[cfg(feature = "write")]
    /// # fn main() -> Result<(), gamebin::Error> {
    /// # let file = gamebin::synth::assets::example_file();
    /// use gamebin::wows::assets::{AssetsDb, PrototypeState};
    ///
    /// let db = AssetsDb::from_bytes(&file)?;
    /// let states = db.prototypes().states()?; // one walk over the slots
    /// assert_eq!(states.live, 10); // one prototype of each type
    /// assert_eq!(states.deleted, 0);
    /// for entry in db.prototypes().iter() {
    ///     let (self_id, at) = entry?;
    ///     if at.state == PrototypeState::Live {
    ///         println!("{self_id:#018x}: database {}, record {}", at.database, at.record);
    ///     }
    /// }
    /// // The records themselves, database by database: the same ten.
    /// assert_eq!(db.records().count(), 10);
    /// # Ok(())
    /// # }
    /// # #[cfg(not(feature = "write"))]
    /// # fn main() {}
    /// ```
    pub fn prototypes(&self) -> Prototypes<'a> {
        self.prototypes
    }

    /// Where the prototype of resource `self_id` is stored (database, record, state), probed in
    /// place in O(1): `Ok(None)` when the resource has no prototype.
    ///
    /// ```
    /// # #[cfg(feature = "write")]
    /// # fn main() -> Result<(), gamebin::Error> {
    /// # let file = gamebin::synth::assets::example_file();
    /// use gamebin::wows::assets::{AssetsDb, Prototype, PrototypeState};
    ///
    /// let db = AssetsDb::from_bytes(&file)?;
    /// // A resource's id is its path id (the CityHash64 of its full path in the game's files).
    /// let id = db.path_id("content/gameplay/Test.mfm");
    /// let at = db.prototype(id)?.expect("a prototype");
    /// assert_eq!(at.state, PrototypeState::Live);
    /// assert!(matches!(db.record(at)?, Prototype::Material(_)));
    /// assert_eq!(db.prototype(0x1234)?, None);
    /// # Ok(())
    /// # }
    /// # #[cfg(not(feature = "write"))]
    /// # fn main() {}
    /// ```
    pub fn prototype(&self, self_id: u64) -> Result<Option<PrototypeRef>> {
        self.prototypes.get(self_id)
    }

    /// The path tree's entries, in table order: each names one segment and its parent's id (0 for
    /// a root). See [`PathIndex`] for many full paths.
    ///
    /// ```
    /// # #[cfg(feature = "write")]
    /// # fn main() -> Result<(), gamebin::Error> {
    /// # let file = gamebin::synth::assets::example_file();
    /// use gamebin::wows::assets::AssetsDb;
    ///
    /// let db = AssetsDb::from_bytes(&file)?;
    /// let entry = db.paths().iter().next().expect("an entry");
    /// assert_eq!((entry.name()?, entry.parent_id()), ("content", 0));
    /// let files = db.paths().iter().filter(|e| e.name().is_ok_and(|n| n.contains('.')));
    /// assert_eq!(files.count(), 11);
    /// # Ok(())
    /// # }
    /// # #[cfg(not(feature = "write"))]
    /// # fn main() {}
    /// ```
    pub fn paths(&self) -> Paths<'a> {
        Paths::new(self.bytes, self.path_entries)
    }

    /// The path id of a full path (`content/…`, no `res/` prefix): its CityHash64.
    pub fn path_id(&self, path: &str) -> u64 {
        paths::path_id(path)
    }

    /// The prototype of a full path: CityHash64 of the path, then a probe. O(1). Relies on path
    /// ids being CityHash64 of the full path (see [`AssetsDb::ids_are_path_hashes`]).
    ///
    /// ```
    /// # #[cfg(feature = "write")]
    /// # fn main() -> Result<(), gamebin::Error> {
    /// # let file = gamebin::synth::assets::example_file();
    /// use gamebin::wows::assets::{AssetsDb, Prototype};
    ///
    /// let db = AssetsDb::from_bytes(&file)?;
    /// let path = "content/gameplay/Test.visual";
    /// let found = db.lookup_path(path)?.expect("a prototype for the path");
    /// assert_eq!(db.prototype(db.path_id(path))?, Some(found)); // the same probe, by selfId
    /// assert!(matches!(db.record(found)?, Prototype::Visual(_)));
    /// assert_eq!(db.lookup_path("content/gameplay/Missing.visual")?, None);
    /// # Ok(())
    /// # }
    /// # #[cfg(not(feature = "write"))]
    /// # fn main() {}
    /// ```
    pub fn lookup_path(&self, path: &str) -> Result<Option<PrototypeRef>> {
        self.prototype(paths::path_id(path))
    }

    /// Writes the full path of the entry with id `self_id` into `out` (cleared first), walking the
    /// parent chain. Without an index each parent is found by a linear scan of the entries
    /// (O(entries × depth), no allocation beyond `out` growing); use [`PathIndex`] for many calls.
    /// `Ok(false)` when no entry has the id. Cycles and chains deeper than [`MAX_PATH_DEPTH`] are
    /// errors.
    ///
    /// ```
    /// # #[cfg(feature = "write")]
    /// # fn main() -> Result<(), gamebin::Error> {
    /// # let file = gamebin::synth::assets::example_file();
    /// use gamebin::wows::assets::AssetsDb;
    ///
    /// let db = AssetsDb::from_bytes(&file)?;
    /// let mut full = String::new(); // reused from call to call
    /// let id = db.path_id("content/lights/lamp.light");
    /// assert!(db.full_path(id, &mut full)?);
    /// assert_eq!(full, "content/lights/lamp.light");
    /// assert!(!db.full_path(0x1234, &mut full)?);
    /// # Ok(())
    /// # }
    /// # #[cfg(not(feature = "write"))]
    /// # fn main() {}
    /// ```
    pub fn full_path(&self, self_id: u64, out: &mut String) -> Result<bool> {
        let paths = self.paths();
        paths.full_path(self_id, out, |id| paths.find(id))
    }

    /// The entry whose full path is `path`, found by walking the entries linearly and matching
    /// names segment by segment: no hashing assumption, no allocation. O(entries): one pass that
    /// stops at the entry when parents are listed before their children (as in the game's
    /// files), two for a path that is absent, and a slower third when the table lists children
    /// before their parents.
    ///
    /// ```
    /// # #[cfg(feature = "write")]
    /// # fn main() -> Result<(), gamebin::Error> {
    /// # let file = gamebin::synth::assets::example_file();
    /// use gamebin::wows::assets::AssetsDb;
    ///
    /// let db = AssetsDb::from_bytes(&file)?;
    /// let entry = db.find_path("content/gameplay/Test.visual")?.expect("a path entry");
    /// assert_eq!(entry.name()?, "Test.visual");
    /// // The same entry without walking: its selfId is the path's CityHash64.
    /// assert_eq!(entry.self_id(), db.path_id("content/gameplay/Test.visual"));
    /// # Ok(())
    /// # }
    /// # #[cfg(not(feature = "write"))]
    /// # fn main() {}
    /// ```
    pub fn find_path(&self, path: &str) -> Result<Option<PathEntry<'a>>> {
        self.paths().find_path(path)
    }

    /// Checks whether path ids are CityHash64 of full paths on up to `sample` entries spread over
    /// the table (see [`PathHashCheck`]). Allocates one path buffer.
    pub fn ids_are_path_hashes(&self, sample: usize) -> Result<PathHashCheck> {
        self.paths().check_hashes(sample)
    }

    /// The prototype databases.
    ///
    /// ```
    /// # #[cfg(feature = "write")]
    /// # fn main() -> Result<(), gamebin::Error> {
    /// # let file = gamebin::synth::assets::example_file();
    /// use gamebin::wows::assets::AssetsDb;
    ///
    /// let db = AssetsDb::from_bytes(&file)?;
    /// println!("{} databases", db.databases().len());
    /// for database in db.databases().iter() {
    ///     let database = database?; // each entry is checked as it is read
    ///     println!("{:?}: {} records", database.type_name(), database.record_count());
    /// }
    /// # Ok(())
    /// # }
    /// # #[cfg(not(feature = "write"))]
    /// # fn main() {}
    /// ```
    pub fn databases(&self) -> Databases<'a> {
        Databases::new(self.bytes, self.database_entries)
    }

    /// The first database of a prototype type, found by its magic (not by its position).
    pub fn database(&self, kind: PrototypeType) -> Result<Option<Database<'a>>> {
        self.databases().by_magic(kind.magic())
    }

    /// The typed record a [`PrototypeRef`] points to (raw with a reason when its layout is unknown).
    ///
    /// ```
    /// # #[cfg(feature = "write")]
    /// # fn main() -> Result<(), gamebin::Error> {
    /// # let file = gamebin::synth::assets::example_file();
    /// use gamebin::wows::assets::{AssetsDb, Prototype};
    ///
    /// let db = AssetsDb::from_bytes(&file)?;
    /// let at = db.lookup_path("content/effects/fire.preset")?.expect("a prototype");
    /// let Prototype::EffectPreset(preset) = db.record(at)? else { panic!("a preset") };
    /// assert_eq!((preset.high_id(), preset.low_id()), (0x1111_2222, 0x3333_4444));
    /// # Ok(())
    /// # }
    /// # #[cfg(not(feature = "write"))]
    /// # fn main() {}
    /// ```
    pub fn record(&self, at: PrototypeRef) -> Result<Prototype<'a>> {
        let database = self.databases().get(at.database as usize)?.ok_or_else(|| {
            Error::invalid(
                u64_of(self.prototypes.value_offset(at.slot)),
                "resourceToPrototypeMap.value",
                u64::from(at.database),
                "database index is past the database array",
            )
        })?;
        database.prototype(at.record as usize, self.strings)
    }

    /// Every record of every database, in file order, with its database and its index there (see
    /// [`Records`]: a database kept raw gives one [`Prototype::Raw`]). No allocation.
    ///
    /// ```
    /// # #[cfg(feature = "write")]
    /// # fn main() -> Result<(), gamebin::Error> {
    /// # let file = gamebin::synth::assets::example_file();
    /// use gamebin::wows::assets::{AssetsDb, Prototype};
    ///
    /// let db = AssetsDb::from_bytes(&file)?;
    /// let mut visuals = 0;
    /// for record in db.records() {
    ///     let (database, index, record) = record?; // an error ends the iteration
    ///     if let Prototype::Visual(visual) = record {
    ///         println!("{:?} #{index}: {} nodes", database.type_name(), visual.nodes()?.len());
    ///         visuals += 1;
    ///     }
    /// }
    /// assert_eq!(visuals, 1);
    /// # Ok(())
    /// # }
    /// # #[cfg(not(feature = "write"))]
    /// # fn main() {}
    /// ```
    pub fn records(&self) -> Records<'a> {
        Records::new(self.databases(), self.strings)
    }

    /// Walks everything: every string, prototype entry, path (name and parent chain bounded), and
    /// every record of every database with its arrays. For tools and tests; O(file size × depth).
    pub fn validate(&self) -> Result<()> {
        for s in self.strings.iter() {
            s?;
        }
        for p in self.prototypes.iter() {
            let (_, at) = p?;
            if at.state == PrototypeState::Live {
                self.record(at)?;
            }
        }
        let index = PathIndex::build(self.paths())?;
        let mut path = String::new();
        for entry in self.paths().iter() {
            entry.name()?;
            index.full_path(self.paths(), entry.self_id(), &mut path)?;
        }
        for database in self.databases().iter() {
            let database = database?;
            // Only a known or checked layout bounds the record count by the blob; a raw
            // database's stored count is not trusted as a loop bound.
            if database.item_size().is_none() {
                continue;
            }
            for i in 0..database.record_count() {
                database.prototype(i, self.strings)?.validate()?;
            }
        }
        Ok(())
    }
}

/// Whether `data` starts like an `assets.bin` (magic and a body header that fits).
pub(crate) fn looks_like(data: &[u8]) -> bool {
    data.get(..4) == Some(&MAGIC.to_le_bytes()[..]) && AssetsDb::from_bytes(data).is_ok()
}

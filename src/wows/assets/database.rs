//! Prototype databases: a descriptor per prototype type (magic, schema hash, blob size) and a blob
//! of fixed-size records followed by their out-of-line arrays. Databases are found by magic, not by
//! position: client versions differ in which databases they carry.

use super::raw::{BlobHeader, DATABASE_ENTRY_DATA_PTR, DatabaseEntry};
use super::records::{Prototype, PrototypeType, RawRecord};
use super::strings::Strings;
use crate::bytes::{Bytes, Table, to_usize, u64_of};
use crate::error::{Error, Result};
use crate::hash::murmur3_32;

// The type itself, its names, record sizes and layouts are declared with the list of record
// types in `records/`; what depends on the database descriptor is here.
impl PrototypeType {
    /// MurmurHash3_x86_32 (seed 0) of the name, as stored in the database descriptor.
    pub const fn magic(self) -> u32 {
        murmur3_32(self.name().as_bytes(), 0)
    }

    /// The type whose magic is `magic`.
    pub fn from_magic(magic: u32) -> Option<PrototypeType> {
        Self::ALL.into_iter().find(|t| t.magic() == magic)
    }
}

/// Why a database's records are not decoded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RawReason {
    /// The magic is not one of the known prototype types.
    UnknownMagic,
    /// The blob header's size field is not 16.
    UnexpectedHeaderSize(u64),
    /// The schema hash is unknown and no known record size fits the blob.
    RecordsDoNotFit,
}

impl RawReason {
    /// A sentence for reports.
    pub const fn describe(self) -> &'static str {
        match self {
            RawReason::UnknownMagic => "unknown prototype type magic",
            RawReason::UnexpectedHeaderSize(_) => "blob header size is not 16",
            RawReason::RecordsDoNotFit => {
                "unknown schema hash and no known record layout fits the blob"
            }
        }
    }
}

/// How the reader knows (or does not know) a database's record layout.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Layout {
    /// The (magic, schema hash) pair is known.
    Known {
        /// Bytes per record.
        item_size: usize,
    },
    /// The schema hash is unknown, but the record layout's checks pass (the records fit the blob);
    /// records are decoded, and each read is still bounds-checked.
    Checked {
        /// Bytes per record (the current layout's size).
        item_size: usize,
    },
    /// Records stay raw bytes.
    Raw(RawReason),
}

impl Layout {
    /// `known`, `checked` or `raw` (as `dump --json` gives a record's layout).
    pub const fn name(self) -> &'static str {
        match self {
            Layout::Known { .. } => "known",
            Layout::Checked { .. } => "checked",
            Layout::Raw(_) => "raw",
        }
    }

    /// The record size, when known.
    pub const fn item_size(self) -> Option<usize> {
        match self {
            Layout::Known { item_size } | Layout::Checked { item_size } => Some(item_size),
            Layout::Raw(_) => None,
        }
    }
}

/// The database descriptors, borrowed.
#[derive(Debug, Clone, Copy)]
pub struct Databases<'a> {
    bytes: Bytes<'a>,
    entries: Table<'a, DatabaseEntry>,
}

impl<'a> Databases<'a> {
    pub(crate) fn new(bytes: Bytes<'a>, entries: Table<'a, DatabaseEntry>) -> Self {
        Databases { bytes, entries }
    }

    /// Number of databases.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Database `index` (its blob is checked to lie inside the file).
    pub fn get(&self, index: usize) -> Result<Option<Database<'a>>> {
        let Some(entry) = self.entries.get(index) else {
            return Ok(None);
        };
        Database::read(self.bytes, entry.offset(), index, entry.get()).map(Some)
    }

    /// Every database, in table order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = Result<Database<'a>>> + 'a {
        let bytes = self.bytes;
        self.entries
            .iter_indexed()
            .map(move |(i, entry)| Database::read(bytes, entry.offset(), i, entry.get()))
    }

    /// The first database whose magic is `magic`.
    pub fn by_magic(&self, magic: u32) -> Result<Option<Database<'a>>> {
        match self
            .entries
            .records()
            .iter()
            .position(|e| e.magic.get() == magic)
        {
            Some(i) => self.get(i),
            None => Ok(None),
        }
    }
}

/// One prototype database: its descriptor, its blob, and its record layout.
#[derive(Clone, Copy)]
pub struct Database<'a> {
    bytes: Bytes<'a>,
    at: usize,
    index: usize,
    entry: &'a DatabaseEntry,
    blob_at: usize,
    blob: &'a [u8],
    record_count: usize,
    kind: Option<PrototypeType>,
    layout: Layout,
}

// By hand: a blob can be most of a 164 MB file; [`Bytes`] shows its length and first bytes.
impl core::fmt::Debug for Database<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Database")
            .field("bytes", &self.bytes)
            .field("at", &self.at)
            .field("index", &self.index)
            .field("entry", &self.entry)
            .field("blob_at", &self.blob_at)
            .field("blob", &Bytes::new(self.blob))
            .field("record_count", &self.record_count)
            .field("kind", &self.kind)
            .field("layout", &self.layout)
            .finish()
    }
}

/// The record layout the reader takes for a database of `kind` with schema hash `schema` and
/// `record_count` records in the `records_space` bytes after its blob header: a known schema's
/// record size, else the first of the type's layouts the records fit in. The record size is not
/// stored; the writer checks with this that a database is read in the layout it was written in.
pub(crate) fn decoded_layout(
    kind: PrototypeType,
    schema: u32,
    record_count: usize,
    records_space: usize,
) -> Layout {
    let fits = |size: usize| {
        record_count
            .checked_mul(size)
            .is_some_and(|n| n <= records_space)
    };
    match kind.known_schemas().iter().find(|&&(s, _)| s == schema) {
        Some(&(_, item_size)) if fits(item_size) => Layout::Known { item_size },
        Some(_) => Layout::Raw(RawReason::RecordsDoNotFit),
        None => match kind.layouts().iter().copied().find(|&s| fits(s)) {
            Some(item_size) => Layout::Checked { item_size },
            None => Layout::Raw(RawReason::RecordsDoNotFit),
        },
    }
}

impl<'a> Database<'a> {
    fn read(bytes: Bytes<'a>, at: usize, index: usize, entry: &'a DatabaseEntry) -> Result<Self> {
        let blob_at = bytes.resolve(
            at + DATABASE_ENTRY_DATA_PTR,
            at,
            entry.data_ptr.get(),
            "DatabaseEntry.data",
        )?;
        let blob = bytes.slice(blob_at, entry.size.get() as usize, "DatabaseEntry.data")?;
        let header: &BlobHeader = Bytes::new(blob)
            .read(0, "Database.header")
            .map_err(|e| Error::new(u64_of(blob_at) + e.offset(), e.what(), e.kind()))?;
        let record_count = to_usize(header.record_count.get(), blob_at, "Database.recordCount")?;
        let kind = PrototypeType::from_magic(entry.magic.get());
        let records_space = blob
            .len()
            .saturating_sub(core::mem::size_of::<BlobHeader>());
        let layout = match kind {
            None => Layout::Raw(RawReason::UnknownMagic),
            Some(_) if header.header_size.get() != 16 => {
                Layout::Raw(RawReason::UnexpectedHeaderSize(header.header_size.get()))
            }
            Some(kind) => {
                decoded_layout(kind, entry.schema_hash.get(), record_count, records_space)
            }
        };
        Ok(Database {
            bytes,
            at,
            index,
            entry,
            blob_at,
            blob,
            record_count,
            kind,
            layout,
        })
    }

    /// Position in the database array (what [`PrototypeRef::database`](super::PrototypeRef)
    /// refers to).
    pub fn index(&self) -> usize {
        self.index
    }

    /// File offset of the descriptor.
    pub fn offset(&self) -> usize {
        self.at
    }

    /// The stored magic.
    pub fn magic(&self) -> u32 {
        self.entry.magic.get()
    }

    /// The stored schema hash.
    pub fn schema_hash(&self) -> u32 {
        self.entry.schema_hash.get()
    }

    /// The prototype type, when the magic is known.
    pub fn kind(&self) -> Option<PrototypeType> {
        self.kind
    }

    /// The type name, or `None` for an unknown magic.
    pub fn type_name(&self) -> Option<&'static str> {
        self.kind.map(PrototypeType::name)
    }

    /// The type name, or `unknown:0x…` (the magic, 8 hex digits) for an unknown magic; allocates
    /// only for an unknown one.
    pub fn name(&self) -> std::borrow::Cow<'static, str> {
        match self.type_name() {
            Some(name) => name.into(),
            None => format!("unknown:{:#010x}", self.magic()).into(),
        }
    }

    /// How the record layout is known.
    pub fn layout(&self) -> Layout {
        self.layout
    }

    /// Record size, when the layout is known or checked.
    pub fn item_size(&self) -> Option<usize> {
        self.layout.item_size()
    }

    /// Number of records, as stored. When the layout is known or checked, the records are known
    /// to fit the blob; for a raw database ([`Layout::Raw`]) the count is unchecked and must not
    /// be used as a loop bound.
    pub fn record_count(&self) -> usize {
        self.record_count
    }

    /// The whole blob (header, records, out-of-line data).
    pub fn blob(&self) -> &'a [u8] {
        self.blob
    }

    /// File offset of the blob.
    pub fn blob_offset(&self) -> usize {
        self.blob_at
    }

    /// File offset of record `index` (when the item size is known).
    pub fn record_offset(&self, index: usize) -> Option<usize> {
        let size = self.item_size()?;
        if index >= self.record_count {
            return None;
        }
        Some(self.blob_at + core::mem::size_of::<BlobHeader>() + index * size)
    }

    /// Record `index` as borrowed bytes (when the item size is known).
    pub fn record_bytes(&self, index: usize) -> Option<&'a [u8]> {
        let at = self.record_offset(index)?;
        self.bytes.slice(at, self.item_size()?, "record").ok()
    }

    /// Record `index` decoded as its type, or raw with the reason when the layout is unknown.
    /// Names resolve through `strings`.
    pub fn prototype(&self, index: usize, strings: Strings<'a>) -> Result<Prototype<'a>> {
        if index >= self.record_count {
            return Err(Error::invalid(
                u64_of(self.blob_at),
                "Database.record",
                u64_of(index),
                "record index is past the record count",
            ));
        }
        let (Some(kind), Some(item_size)) = (self.kind, self.layout.item_size()) else {
            let reason = match self.layout {
                Layout::Raw(reason) => reason,
                _ => RawReason::UnknownMagic,
            };
            return Ok(Prototype::Raw(RawRecord {
                database: self.blob,
                offset: self.blob_at,
                index,
                reason,
            }));
        };
        let at = self.blob_at + core::mem::size_of::<BlobHeader>() + index * item_size;
        Prototype::read(self.bytes, at, kind, item_size, strings)
    }
}

/// Every record of every database, in file order, with its database and index: what
/// [`AssetsDb::records`](super::AssetsDb::records) returns. A database kept raw gives one
/// [`Prototype::Raw`] (its stored record count is not trusted as a bound); a database or record
/// that cannot be read is yielded once as an error and ends the iteration. Allocates nothing.
#[derive(Debug, Clone)]
pub struct Records<'a> {
    databases: Databases<'a>,
    strings: Strings<'a>,
    next_database: usize,
    current: Option<Database<'a>>,
    next_record: usize,
    done: bool,
}

impl<'a> Records<'a> {
    pub(crate) fn new(databases: Databases<'a>, strings: Strings<'a>) -> Self {
        Records {
            databases,
            strings,
            next_database: 0,
            current: None,
            next_record: 0,
            done: false,
        }
    }
}

impl<'a> Iterator for Records<'a> {
    type Item = Result<(Database<'a>, usize, Prototype<'a>)>;

    fn next(&mut self) -> Option<Self::Item> {
        // Each turn either yields, ends, or moves to the next database: bounded by the
        // database count plus the records.
        while !self.done {
            if let Some(database) = self.current {
                let index = self.next_record;
                if index < database.record_count() {
                    self.next_record += 1;
                    return Some(match database.prototype(index, self.strings) {
                        Ok(record) => {
                            if matches!(record, Prototype::Raw(_)) {
                                self.current = None;
                            }
                            Ok((database, index, record))
                        }
                        Err(e) => {
                            self.done = true;
                            Err(e)
                        }
                    });
                }
                self.current = None;
            }
            match self.databases.get(self.next_database) {
                Ok(Some(database)) => {
                    self.next_database += 1;
                    self.current = Some(database);
                    self.next_record = 0;
                }
                Ok(None) => self.done = true,
                Err(e) => {
                    self.done = true;
                    return Some(Err(e));
                }
            }
        }
        None
    }
}

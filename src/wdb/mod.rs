//! Final Fantasy XIII trilogy `.wdb` databases: a big-endian WPD container whose `!` sections
//! describe the records (type list, field names, strings, string arrays) and whose other entries are
//! the records, each a row of typed and bit-packed cells.
//!
//! Where its parts are: `raw.rs` the on-disk structs; this file the view ([`WdbView`]) and the
//! rest of the reader beside it (`sections.rs`, `schema.rs`, `record.rs`); `model` the owned
//! table (`model::WdbModel`, feature `write`) and its interchange forms (JSON, CSV, XLSX);
//! `write` its writer (`to_bytes`, the `!!string` pool, field encoding, feature `write`); `diff`
//! the comparison by record and field; the fixtures in `synth::wdb`.
//!
//! [`WdbView::from_bytes`] reads the header and the entry table (borrowed), checks that every entry
//! lies inside the file, notes where the known sections are and whether the record names are
//! sorted; it allocates nothing. Records are found by name with a binary search (a scan if a file's
//! names are not sorted). Decoding fields needs a [`Schema`], built once per file from the type
//! list and the field names: that small `Vec` (one [`FieldSpec`] per field) is the reader's only
//! allocation. XIII-1 files have no field names: read their cells raw ([`WdbView::cell`]) or supply
//! names ([`WdbView::schema_with_names`]).
//!
//! # Format notes
//!
//! - Entries are kept byte-sorted by the games; the reader checks that on open (one pass over the
//!   entry table) and falls back to a scan for files whose names are not sorted. The game is told
//!   by content: `!structitem` present means XIII-2/Lightning Returns.
//! - String arrays and record strings share tails in `!!string` (an array slot may point into the
//!   middle of `libra_m327` for `m327`); the writer's string pool reuses any terminated tail, which
//!   is what makes read → write byte-exact on the samples.
//!
//!
//! ```
//! # #[cfg(feature = "write")]
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! # let file = gamebin::synth::wdb::example_file()?;
//! use gamebin::wdb::{Game, Value, WdbView};
//!
//! let wdb = WdbView::from_bytes(&file)?;
//! assert_eq!(wdb.game(), Game::Xiii2Lr); // it has field names
//! // The one allocation. Errors borrow names from the file; `into_owned` lets them outlive it.
//! let schema = wdb.schema().map_err(|e| e.into_owned())?;
//! let potion = wdb.record_by_name("it_potion").ok_or("no potion")?;
//! let price = schema.value_by_name(&potion, "u16Price").ok_or("no field")?;
//! assert_eq!(price, Ok(Value::UInt(50)));
//! let name = schema.value_by_name(&potion, "sName").ok_or("no field")?;
//! assert_eq!(name.ok().and_then(|v| v.as_str()), Some("Potion"));
//! for record in wdb.records() {
//!     for (field, value) in schema.values(record) {
//!         let value = value.map_err(|e| e.into_owned())?;
//!         println!("{} {} = {value:?}", record.name().unwrap_or("?"), field.name);
//!     }
//! }
//! # Ok(())
//! # }
//! # #[cfg(not(feature = "write"))]
//! # fn main() {}
//! ```

#[cfg(feature = "write")]
pub mod diff;
mod error;
#[cfg(feature = "write")]
pub mod export;
mod info;
#[cfg(feature = "write")]
pub mod model;
mod plan;
pub mod raw;
mod record;
mod schema;
mod sections;
mod view;
#[cfg(feature = "write")]
mod write;

pub use error::{OwnedWdbError, WdbError, WdbResult};
pub use info::WdbInfo;
pub use record::{Cell, Record, Value, Values};
pub use schema::{FieldKind, FieldSpec, Schema, name_width, owns_string_array};
pub use sections::{FieldNames, Section, StrArrays, TypeList};

use crate::bytes::{Bytes, u64_of};
use crate::error::{Error, ErrorKind, Result};
use crate::mmap::MappedFile;
use raw::{ENTRY_SIZE, Entry, HEADER_SIZE, Header, MAGIC};
use sections::Known;

/// Which game's layout a file has, decided by its content: XIII-2 and Lightning Returns files name
/// their fields in `!structitem`, XIII-1 files do not.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Game {
    /// Final Fantasy XIII: no field names.
    Xiii1,
    /// Final Fantasy XIII-2 or Lightning Returns: `!structitem` present.
    Xiii2Lr,
}

impl Game {
    /// `"xiii"` or `"xiii-2/lr"`.
    pub const fn name(self) -> &'static str {
        match self {
            Game::Xiii1 => "xiii",
            Game::Xiii2Lr => "xiii-2/lr",
        }
    }
}

/// A `.wdb` file, borrowed. `Copy`, `Send`, `Sync`; everything it hands out lives as long as the
/// file's bytes.
#[derive(Debug, Clone, Copy)]
pub struct WdbView<'a> {
    bytes: Bytes<'a>,
    entries: &'a [Entry],
    first_record: usize,
    sorted: bool,
    known: Known<'a>,
}

impl<'a> WdbView<'a> {
    /// Opens a `.wdb` held in memory: the header, the entry table (every entry's data must lie
    /// inside the file) and the known sections. One pass over the entries, no allocation.
    ///
    /// ```
    /// # #[cfg(feature = "write")]
    /// # fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # let file = gamebin::synth::wdb::example_file()?;
    /// use gamebin::wdb::WdbView;
    ///
    /// let wdb = WdbView::from_bytes(&file)?;
    /// let potion = wdb.record_by_name("it_potion").ok_or("no record named it_potion")?;
    /// assert_eq!(potion.name(), Some("it_potion"));
    /// println!("{} records", wdb.records().count());
    /// # Ok(())
    /// # }
    /// # #[cfg(not(feature = "write"))]
    /// # fn main() {}
    /// ```
    pub fn from_bytes(data: &'a [u8]) -> Result<Self> {
        let bytes = Bytes::new(data);
        let header: &Header = bytes.read(0, "WdbHeader")?;
        if header.magic != MAGIC {
            return Err(Error::new(
                0,
                "WdbHeader.magic",
                ErrorKind::BadMagic {
                    expected: u64::from(u32::from_be_bytes(MAGIC)),
                    found: u64::from(u32::from_be_bytes(header.magic)),
                },
            ));
        }
        let count = usize::try_from(header.entry_count.get()).unwrap_or(usize::MAX);
        let entries: &[Entry] = bytes.read_slice(HEADER_SIZE, count, "WdbHeader.entryCount")?;
        // The leading run of `!` entries are the sections (they sort first); the rest are records.
        let first_record = entries
            .iter()
            .position(|e| !e.is_section())
            .unwrap_or(entries.len());
        let mut known = Known::default();
        let mut sorted = true;
        let mut previous: Option<&[u8]> = None;
        for (i, entry) in entries.iter().enumerate() {
            let data = bytes
                .slice(
                    entry.offset.get() as usize,
                    entry.size.get() as usize,
                    "WdbEntry.data",
                )
                .map_err(|_| {
                    Error::invalid(
                        u64_of(HEADER_SIZE + i * ENTRY_SIZE + raw::NAME_SIZE),
                        "WdbEntry.offset",
                        u64::from(entry.offset.get()) + u64::from(entry.size.get()),
                        "entry data (offset + size) runs past the end of the file",
                    )
                })?;
            if i < first_record {
                known.file(
                    entry,
                    Section {
                        at: entry.offset.get() as usize,
                        data,
                    },
                );
            } else {
                // Lookups compare the stored 16-byte NUL-padded names whole: that order is the
                // order of the names when nothing but zeros follows a name's first NUL.
                let name = &entry.name;
                let clean = name
                    .get(entry.name_bytes().len()..)
                    .is_some_and(|pad| pad.iter().all(|&b| b == 0));
                sorted &= clean && previous.is_none_or(|p| p < &name[..]);
                previous = Some(&name[..]);
            }
        }
        Ok(WdbView {
            bytes,
            entries,
            first_record,
            sorted,
            known,
        })
    }

    /// Opens a mapped `.wdb`. The file must not change while mapped (see [`MappedFile`]).
    pub fn open(file: &'a MappedFile) -> Result<Self> {
        Self::from_bytes(file.bytes())
    }

    /// The file's bytes.
    pub fn as_bytes(&self) -> &'a [u8] {
        self.bytes.as_slice()
    }

    /// Every entry of the table, sections and records, as stored.
    pub fn entries(&self) -> &'a [Entry] {
        self.entries
    }

    /// The `!` sections, in table order.
    pub fn sections(&self) -> impl ExactSizeIterator<Item = (&'a [u8], Section<'a>)> + 'a {
        let data = self.bytes.as_slice();
        self.entries
            .get(..self.first_record)
            .unwrap_or(&[])
            .iter()
            .map(move |e| (e.name_bytes(), entry_section(data, e)))
    }

    /// The section named `name` (e.g. `"!!string"`), if the file has it.
    pub fn section(&self, name: &str) -> Option<Section<'a>> {
        self.sections()
            .find(|(n, _)| *n == name.as_bytes())
            .map(|(_, s)| s)
    }

    /// The game, by content: `!structitem` present or not.
    pub fn game(&self) -> Game {
        if self.known.structitem.is_some() {
            Game::Xiii2Lr
        } else {
            Game::Xiii1
        }
    }

    /// `!!sheetname` up to its NUL, if present.
    pub fn sheet_name(&self) -> Option<&'a [u8]> {
        let data = self.known.sheetname?.data;
        let end = data.iter().position(|&b| b == 0).unwrap_or(data.len());
        data.get(..end)
    }

    /// `!!version`, if present and 4 bytes or more.
    pub fn version(&self) -> Option<u32> {
        sections::word(self.known.version?.data, 0)
    }

    /// The per-cell type codes: `!!strtypelistb` if present, else `!!strtypelist`.
    pub fn type_list(&self) -> Option<TypeList<'a>> {
        if let Some(s) = self.known.strtypelistb {
            return Some(TypeList::bytes(s.data));
        }
        self.known.strtypelist.map(|s| TypeList::words(s.data))
    }

    fn type_list_section(&self) -> Result<(TypeList<'a>, usize)> {
        let section = self.known.strtypelistb.or(self.known.strtypelist);
        match (self.type_list(), section) {
            (Some(types), Some(s)) => Ok((types, s.at)),
            _ => Err(Error::invalid(
                u64_of(HEADER_SIZE),
                "!!strtypelist",
                0,
                "the file has neither !!strtypelist nor !!strtypelistb",
            )),
        }
    }

    /// `!!typelist` (XIII-1's per-field types, in an order no tool relies on), raw.
    pub fn typelist(&self) -> Option<TypeList<'a>> {
        self.known.typelist.map(|s| TypeList::words(s.data))
    }

    /// `!!string`, if present.
    pub fn strings(&self) -> Option<Section<'a>> {
        self.known.string
    }

    /// The field names of `!structitem` (limited by `!structitemnum`, as the peer tools read
    /// them), if present. [`FieldNames::check`] says whether the count and the names agree.
    pub fn field_names(&self) -> Option<FieldNames<'a>> {
        Some(FieldNames::new(
            self.known.structitem?,
            self.known.structitemnum,
        ))
    }

    /// The string arrays, if the file has `!!strArray`; an error if its companions are missing or
    /// malformed.
    pub fn str_arrays(&self) -> Result<Option<StrArrays<'a>>> {
        let Some(array) = self.known.str_array else {
            return Ok(None);
        };
        let missing = |what| {
            Error::invalid(
                u64_of(array.at),
                what,
                0,
                "!!strArray without this companion section",
            )
        };
        let info = self.known.str_array_info.ok_or(missing("!!strArrayInfo"))?;
        let list = self.known.str_array_list.ok_or(missing("!!strArrayList"))?;
        StrArrays::new(array, info, list).map(Some)
    }

    /// The schema from the file's own field names (`!structitem`). An XIII-1 file has none: an
    /// error that says so (use [`schema_with_names`](Self::schema_with_names) or [`cell`](Self::cell)).
    /// A `!structitemnum` that disagrees with the names is an error ([`FieldNames::check`]).
    /// Allocates one `Vec` of one [`FieldSpec`] per name.
    pub fn schema(&self) -> WdbResult<'a, Schema<'a>> {
        let Some(names) = self.field_names() else {
            return Err(WdbError::new(Error::invalid(
                u64_of(HEADER_SIZE),
                "!structitem",
                0,
                "an XIII-1 file has no field names: supply them or read cells raw",
            )));
        };
        names.check()?;
        let (types, at) = self.type_list_section()?;
        Schema::build(
            types,
            at,
            names.len(),
            names.iter().map(|n| n.map_err(WdbError::new)),
            self.str_arrays()?,
            self.known.string,
        )
    }

    /// The schema from caller-supplied field names, for XIII-1 files (or to override a file's own).
    /// Allocates one `Vec` of one [`FieldSpec`] per name.
    pub fn schema_with_names<'n>(&self, names: &[&'n str]) -> WdbResult<'n, Schema<'n>>
    where
        'a: 'n,
    {
        let (types, at) = self.type_list_section()?;
        Schema::build(
            types,
            at,
            names.len(),
            names.iter().map(|&n| Ok(n)),
            self.str_arrays()?,
            self.known.string,
        )
    }

    /// Number of records.
    pub fn record_count(&self) -> usize {
        self.entries.len().saturating_sub(self.first_record)
    }

    fn record_at(&self, index: usize) -> Option<Record<'a>> {
        let entry = self.entries.get(self.first_record.checked_add(index)?)?;
        let section = entry_section(self.bytes.as_slice(), entry);
        Some(Record {
            index,
            name: &entry.name,
            at: section.at,
            data: section.data,
        })
    }

    /// Record `index` (entry order).
    pub fn record(&self, index: usize) -> Option<Record<'a>> {
        self.record_at(index)
    }

    /// Every record in entry order, lazily.
    pub fn records(&self) -> impl ExactSizeIterator<Item = Record<'a>> + 'a {
        let data = self.bytes.as_slice();
        self.entries
            .get(self.first_record..)
            .unwrap_or(&[])
            .iter()
            .enumerate()
            .map(move |(index, entry)| {
                let section = entry_section(data, entry);
                Record {
                    index,
                    name: &entry.name,
                    at: section.at,
                    data: section.data,
                }
            })
    }

    /// Whether the record names are in ascending byte order and cleanly NUL-padded (checked on
    /// open), so that
    /// [`record_by_name`](Self::record_by_name) can binary-search.
    pub fn is_sorted(&self) -> bool {
        self.sorted
    }

    /// The record named `name`: a binary search over the entry table (O(log n)), or a scan when
    /// the file's names are not sorted.
    pub fn record_by_name(&self, name: impl AsRef<[u8]>) -> Option<Record<'a>> {
        let name = name.as_ref();
        let records = self.entries.get(self.first_record..)?;
        let index = if self.sorted {
            let mut padded = [0u8; raw::NAME_SIZE];
            padded.get_mut(..name.len())?.copy_from_slice(name);
            if name.contains(&0) {
                return None;
            }
            records.binary_search_by(|e| e.name.cmp(&padded)).ok()?
        } else {
            records.iter().position(|e| e.name_bytes() == name)?
        };
        self.record_at(index)
    }

    /// Cell `i` of `record` by its type code alone, without names (XIII-1 files): bit-packed cells
    /// as opaque words, floats, resolved strings, u32s.
    pub fn cell(&self, record: &Record<'a>, i: usize) -> WdbResult<'a, Cell<'a>> {
        let (types, _) = self.type_list_section()?;
        record::cell(types, self.known.string, record, i)
    }

    /// Every cell of `record`, lazily.
    pub fn cells(
        &self,
        record: Record<'a>,
    ) -> impl ExactSizeIterator<Item = WdbResult<'a, Cell<'a>>> + 'a {
        let view = *self;
        let n = self.type_list().map_or(0, |t| t.len());
        (0..n).map(move |i| view.cell(&record, i))
    }

    /// Decodes every field (or cell, for a file without names) of every record and checks the
    /// sections; the first failure is returned. For tools and tests; readers do not need it.
    pub fn validate(&self) -> WdbResult<'a, ()> {
        if self.known.structitem.is_some() {
            let schema = self.schema()?;
            for record in self.records() {
                for (_, value) in schema.values(record) {
                    value?;
                }
            }
        } else {
            for record in self.records() {
                for cell in self.cells(record) {
                    cell?;
                }
            }
        }
        Ok(())
    }
}

/// The string at `offset` of a `!!string` section (for the writer's table).
#[cfg(feature = "write")]
pub(crate) fn sections_string(strings: Option<Section<'_>>, offset: u32) -> Result<&[u8]> {
    sections::string(strings, offset, 0, "!!string")
}

/// An entry's data; `from_bytes` checked that it lies inside the file.
fn entry_section<'a>(data: &'a [u8], entry: &Entry) -> Section<'a> {
    let at = entry.offset.get() as usize;
    let end = at.saturating_add(entry.size.get() as usize);
    Section {
        at,
        data: data.get(at..end).unwrap_or(&[]),
    }
}

/// Whether `data` looks like a `.wdb`: the WPD magic, an entry table that opens, and a type list
/// (a plain WPD pack has none).
pub(crate) fn looks_like(data: &[u8]) -> bool {
    if !data.starts_with(&MAGIC) {
        return false;
    }
    WdbView::from_bytes(data).is_ok_and(|v| v.type_list().is_some())
}

//! Records (the non-`!` entries), their decoded field values, and XIII-1's raw cells.

use super::error::{WdbError, WdbResult};
use super::plan::{self, Op, Step, Words};
use super::raw::{NAME_SIZE, trim_name};
use super::schema::{FieldSpec, Schema};
use super::sections::{self, Section, TypeList};
use crate::bytes::u64_of;
use crate::error::Error;

/// One record: its name and its bytes, borrowed from the file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Record<'a> {
    pub(super) index: usize,
    /// The stored 16 bytes: trimmed only when asked for (most reads never need the name).
    pub(super) name: &'a [u8; NAME_SIZE],
    pub(super) at: usize,
    pub(super) data: &'a [u8],
}

impl<'a> Record<'a> {
    /// Position among the records (entry order).
    pub const fn index(&self) -> usize {
        self.index
    }

    /// The name as stored (without NUL padding).
    #[inline]
    pub fn name_bytes(&self) -> &'a [u8] {
        trim_name(self.name)
    }

    /// The name as UTF-8, or `None` if it is not.
    pub fn name(&self) -> Option<&'a str> {
        core::str::from_utf8(self.name_bytes()).ok()
    }

    /// Absolute offset of the record's data.
    pub const fn offset(&self) -> usize {
        self.at
    }

    /// The record's bytes.
    pub const fn data(&self) -> &'a [u8] {
        self.data
    }

    /// Big-endian u32 at byte `pos` of the record.
    fn word(&self, pos: usize, what: &'static str) -> Result<u32, Error> {
        sections::word_at(self.data, pos).ok_or_else(|| {
            Error::truncated(
                u64_of(self.at.saturating_add(pos)),
                what,
                4,
                u64_of(self.data.len().saturating_sub(pos)),
            )
        })
    }
}

/// A decoded field value, borrowing strings from the file.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Value<'a> {
    /// `i`/`f` bit fields and whole-word signed cells.
    Int(i64),
    /// `u` bit fields, whole-word unsigned cells, type-3 u32 and u64 cells.
    UInt(u64),
    /// Type-1 cells.
    Float(f32),
    /// `!!string` strings and `s#` string-array entries, as stored (without the NUL).
    Str(&'a [u8]),
}

impl<'a> Value<'a> {
    /// The value as a signed integer, if it is an integer that fits.
    pub fn as_i64(&self) -> Option<i64> {
        match *self {
            Value::Int(v) => Some(v),
            Value::UInt(v) => i64::try_from(v).ok(),
            _ => None,
        }
    }

    /// The value as an unsigned integer, if it is a non-negative integer.
    pub fn as_u64(&self) -> Option<u64> {
        match *self {
            Value::UInt(v) => Some(v),
            Value::Int(v) => u64::try_from(v).ok(),
            _ => None,
        }
    }

    /// The value of a float field.
    pub fn as_f32(&self) -> Option<f32> {
        match *self {
            Value::Float(v) => Some(v),
            _ => None,
        }
    }

    /// The bytes of a string field.
    pub fn as_bytes(&self) -> Option<&'a [u8]> {
        match *self {
            Value::Str(s) => Some(s),
            _ => None,
        }
    }

    /// A string field as UTF-8, if it is.
    pub fn as_str(&self) -> Option<&'a str> {
        core::str::from_utf8(self.as_bytes()?).ok()
    }
}

impl<'n> Schema<'n> {
    /// Reads field `i` of `record`. Every failure names the record and the field.
    pub fn value<'r>(&self, record: &Record<'r>, i: usize) -> WdbResult<'n, Value<'n>>
    where
        'r: 'n,
    {
        let Some(spec) = self.fields.get(i) else {
            return Err(WdbError::new(Error::invalid(
                u64_of(record.at),
                "WdbRecord.field",
                u64_of(i),
                "no field with this index",
            ))
            .in_record(record.name_bytes()));
        };
        let record: Record<'n> = *record;
        let value = if record.data.len() == self.record_size {
            self.decode(&record, spec)
        } else {
            Err(size_error(record.at, record.data.len()))
        };
        value.map_err(|e| WdbError::in_field(e, spec.name).in_record(record.name_bytes()))
    }

    /// Reads the field named `name` of `record`, `None` if the schema has no such field.
    pub fn value_by_name<'r>(
        &self,
        record: &Record<'r>,
        name: &str,
    ) -> Option<WdbResult<'n, Value<'n>>>
    where
        'r: 'n,
    {
        Some(self.value(record, self.index_of(name)?))
    }

    /// Every field of `record` in order, lazily: the record's size is checked once, then each
    /// field is one step of the schema's compiled plan. To go through whole records,
    /// [`for_each_value`](Self::for_each_value) is faster (no `Result` per field).
    pub fn values<'s, 'r>(&'s self, record: Record<'r>) -> Values<'s, 'n>
    where
        'r: 'n,
    {
        Values {
            schema: self,
            fields: self.fields.iter(),
            sized: record.data.len() == self.record_size,
            record,
        }
    }

    /// Decodes every field of `record` in order and hands each to `f`: the fastest way through a
    /// record. The size is checked once, then each field is one step of the compiled plan, with
    /// no `Result` per field. Stops at the first field that fails and returns its error (naming
    /// the record and the field); `f` has then seen the fields before it.
    ///
    /// ```
    /// # #[cfg(feature = "write")]
    /// # fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # let file = gamebin::synth::wdb::example_file()?;
    /// use gamebin::wdb::{Value, WdbView};
    ///
    /// let wdb = WdbView::from_bytes(&file)?;
    /// let schema = wdb.schema().map_err(|e| e.into_owned())?;
    /// let mut total_price = 0;
    /// for record in wdb.records() {
    ///     schema
    ///         .for_each_value(&record, |field, value| {
    ///             if let ("u16Price", Value::UInt(price)) = (field.name, value) {
    ///                 total_price += price;
    ///             }
    ///         })
    ///         .map_err(|e| e.into_owned())?;
    /// }
    /// assert!(total_price >= 50);
    /// # Ok(())
    /// # }
    /// # #[cfg(not(feature = "write"))]
    /// # fn main() {}
    /// ```
    #[inline]
    pub fn for_each_value<'r, F>(&self, record: &Record<'r>, mut f: F) -> WdbResult<'n, ()>
    where
        'r: 'n,
        F: FnMut(&FieldSpec<'n>, Value<'n>),
    {
        let record: Record<'n> = *record;
        if record.data.len() != self.record_size {
            return match self.fields.first() {
                Some(spec) => Err(WdbError::in_field(
                    size_error(record.at, record.data.len()),
                    spec.name,
                )
                .in_record(record.name_bytes())),
                None => Ok(()),
            };
        }
        // Bit fields of the cell the previous field read take its word: one test, the shortest
        // path of the loop.
        let mut word = 0u32;
        let words = plan::words(record.data);
        for spec in &self.fields {
            let step = &spec.step;
            if !step.same_word {
                word = match step.word(words, 0) {
                    Some(word) => word,
                    None => {
                        return Err(field_error(
                            truncated(record.at, record.data.len(), step.pos as usize),
                            spec,
                            record.name,
                        ));
                    }
                };
                if !step.bits {
                    self.visit_word(&record, words, spec, word, &mut f)?;
                    continue;
                }
            }
            bit_field(spec, word, &mut f);
        }
        Ok(())
    }

    /// Hands field `spec` of `record`, whose cell holds `word`, to `f`, unless it is a bit field.
    #[inline(always)]
    fn visit_word<F>(
        &self,
        record: &Record<'n>,
        words: Words<'_>,
        spec: &FieldSpec<'n>,
        word: u32,
        f: &mut F,
    ) -> WdbResult<'n, ()>
    where
        F: FnMut(&FieldSpec<'n>, Value<'n>),
    {
        let step = &spec.step;
        let fail = |e: Error| field_error(e, spec, record.name);
        // Each arm hands over its own variant, so a caller's `match` on the value folds away.
        match step.op {
            Op::Unsigned => f(spec, Value::UInt(u64::from(step.unsigned(word)))),
            Op::Signed => f(spec, Value::Int(step.extended(word) as i64)),
            Op::Float => f(spec, Value::Float(f32::from_bits(word))),
            // The fast paths' `None` is the only way to the slow paths and their `Result`.
            Op::String => {
                let s = match plan::string_fast(self.strings_data, word) {
                    Some(s) => s,
                    None => self
                        .string_slow(cell_at(record, step), word)
                        .map_err(fail)?,
                };
                f(spec, Value::Str(s));
            }
            Op::StrArray => {
                let s = match self.str_array_fast(step, word) {
                    Some(s) => s,
                    None => self
                        .str_array_slow(cell_at(record, step), step.array, step.unsigned(word))
                        .map_err(fail)?,
                };
                f(spec, Value::Str(s));
            }
            Op::U64 => {
                let Some(lo) = step.word(words, 1) else {
                    return Err(fail(truncated(
                        record.at,
                        record.data.len(),
                        step.pos as usize + 4,
                    )));
                };
                f(spec, Value::UInt(u64::from(word) << 32 | u64::from(lo)));
            }
        }
        Ok(())
    }

    /// Decodes `spec` in `record`, whose size the caller has checked.
    #[inline(always)]
    fn decode(&self, record: &Record<'n>, spec: &FieldSpec<'n>) -> Result<Value<'n>, Error> {
        self.decode_raw(record, spec).map(Raw::value)
    }

    /// [`decode`](Self::decode) into a [`Raw`].
    #[inline(always)]
    fn decode_raw(&self, record: &Record<'n>, spec: &FieldSpec<'n>) -> Result<Raw<'n>, Error> {
        let step = &spec.step;
        let words = plan::words(record.data);
        // Every op starts with one big-endian word at the field's cell (in bounds for a record of
        // the schema's size: the check cannot fail, but costs one predictable branch).
        let Some(word) = step.word(words, 0) else {
            return Err(truncated(record.at, record.data.len(), step.pos as usize));
        };
        Ok(match step.op {
            Op::Unsigned => Raw::UInt(u64::from(step.unsigned(word))),
            Op::Signed => Raw::Int(step.extended(word) as i64),
            Op::Float => Raw::Float(u64::from(word)),
            Op::String => Raw::Str(self.string(record, step, word)?),
            Op::StrArray => Raw::Str(self.str_array(record, step, word)?),
            Op::U64 => {
                let Some(lo) = step.word(words, 1) else {
                    return Err(truncated(
                        record.at,
                        record.data.len(),
                        step.pos as usize + 4,
                    ));
                };
                Raw::UInt(u64::from(word) << 32 | u64::from(lo))
            }
        })
    }

    /// The string of a `!!string` field whose cell holds `offset`: the fast path, else the slow
    /// one (both decoders read strings through here).
    #[inline(always)]
    fn string(&self, record: &Record<'n>, step: &Step<'n>, offset: u32) -> Result<&'n [u8], Error> {
        match plan::string_fast(self.strings_data, offset) {
            Some(s) => Ok(s),
            None => self.string_slow(cell_at(record, step), offset),
        }
    }

    /// The string of an `s#` field whose cell holds `word` (its slot index, in the step's bits):
    /// the fast path through the `!!strArray` slot, else the slow one.
    #[inline(always)]
    fn str_array(
        &self,
        record: &Record<'n>,
        step: &Step<'n>,
        word: u32,
    ) -> Result<&'n [u8], Error> {
        match self.str_array_fast(step, word) {
            Some(s) => Ok(s),
            None => self.str_array_slow(cell_at(record, step), step.array, step.unsigned(word)),
        }
    }

    /// The string of an `s#` field whose cell holds `word`, through the `!!strArray` slot, when
    /// the fast paths resolve it.
    #[inline(always)]
    fn str_array_fast(&self, step: &Step<'n>, word: u32) -> Option<&'n [u8]> {
        let offset = plan::slot_fast(step, step.unsigned(word))?;
        plan::string_fast(self.strings_data, offset)
    }

    /// A `!!string` field at file offset `at` the fast path did not resolve: offset 0 without the
    /// section, or the precise error.
    #[cold]
    #[inline(never)]
    fn string_slow(&self, at: usize, offset: u32) -> Result<&'n [u8], Error> {
        sections::string(self.strings, offset, at, "WdbRecord.string")
    }

    /// An `s#` field at file offset `at` (slot `index` of `!!strArray` section `array`) the fast
    /// path did not resolve: the general readers make the value or the precise error.
    #[cold]
    #[inline(never)]
    fn str_array_slow(&self, at: usize, array: usize, index: u32) -> Result<&'n [u8], Error> {
        let index = u64::from(index);
        let Some(arrays) = self.arrays else {
            return Err(Error::invalid(
                u64_of(at),
                "!!strArray",
                index,
                "s# field, but the file has no !!strArray sections",
            ));
        };
        let offset = arrays.offset(array, index, at)?;
        sections::string(self.strings, offset, at, "!!strArray.offset")
    }
}

/// The fields of one record, decoded lazily in schema order (see [`Schema::values`]). A record
/// of the wrong size gives the size error, naming the record and each field.
#[derive(Debug, Clone)]
pub struct Values<'s, 'n> {
    schema: &'s Schema<'n>,
    fields: core::slice::Iter<'s, FieldSpec<'n>>,
    record: Record<'n>,
    sized: bool,
}

impl<'s, 'n> Iterator for Values<'s, 'n> {
    type Item = (&'s FieldSpec<'n>, WdbResult<'n, Value<'n>>);

    #[inline(always)]
    fn next(&mut self) -> Option<Self::Item> {
        let spec = self.fields.next()?;
        let value = if self.sized {
            self.schema.decode(&self.record, spec)
        } else {
            Err(size_error(self.record.at, self.record.data.len()))
        };
        Some((
            spec,
            value.map_err(|e| WdbError::in_field(e, spec.name).in_record(self.record.name_bytes())),
        ))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.fields.size_hint()
    }
}

impl ExactSizeIterator for Values<'_, '_> {}

/// A decoded value before it is a [`Value`]: every payload a whole 64-bit word (a float's bits
/// too, where `Value::Float` has 32 bits beside its tag), so that the decode's arms meet in
/// memory without a narrow store that a wider load then reads back (a store-forwarding stall
/// that took the `values` iterator to 3× its time).
#[derive(Clone, Copy)]
enum Raw<'a> {
    Int(i64),
    UInt(u64),
    Float(u64),
    Str(&'a [u8]),
}

impl<'a> Raw<'a> {
    #[inline(always)]
    fn value(self) -> Value<'a> {
        match self {
            Raw::Int(v) => Value::Int(v),
            Raw::UInt(v) => Value::UInt(v),
            Raw::Float(bits) => Value::Float(f32::from_bits(bits as u32)),
            Raw::Str(s) => Value::Str(s),
        }
    }
}

/// File offset of the cell `step` reads in `record`, for the errors of its slow paths.
#[inline(always)]
fn cell_at(record: &Record<'_>, step: &Step<'_>) -> usize {
    record.at.saturating_add(step.pos as usize)
}

/// Hands bit field `spec` of `word` to `f`.
#[inline(always)]
fn bit_field<'n, F>(spec: &FieldSpec<'n>, word: u32, f: &mut F)
where
    F: FnMut(&FieldSpec<'n>, Value<'n>),
{
    let step = &spec.step;
    // One computation for both kinds: a caller that treats them alike needs no branch.
    let value = step.extended(word);
    if step.signed {
        f(spec, Value::Int(value as i64));
    } else {
        f(spec, Value::UInt(value));
    }
}

/// `e` in field `spec` of the record named `record`. Out of line and, like the other errors,
/// given plain values rather than the `Record`, so that the decode loop neither prepares names
/// nor keeps a copy of the record in memory for an error that it almost never makes.
#[cold]
#[inline(never)]
fn field_error<'n>(e: Error, spec: &FieldSpec<'n>, record: &'n [u8; NAME_SIZE]) -> WdbError<'n> {
    WdbError::in_field(e, spec.name).in_record(trim_name(record))
}

#[cold]
#[inline(never)]
fn size_error(at: usize, len: usize) -> Error {
    Error::invalid(
        u64_of(at),
        "WdbRecord.size",
        u64_of(len),
        "record size differs from the size its type list gives",
    )
}

#[cold]
#[inline(never)]
fn truncated(at: usize, len: usize, pos: usize) -> Error {
    Error::truncated(
        u64_of(at.saturating_add(pos)),
        "WdbRecord.cell",
        4,
        u64_of(len.saturating_sub(pos)),
    )
}

/// One cell of a record read without field names (XIII-1 files): bit-packed cells as an opaque
/// word, floats, resolved strings, u32s.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Cell<'a> {
    /// Type 0: the bit-packed word, undecoded.
    Bits(u32),
    /// Type 1.
    Float(f32),
    /// Type 2, resolved in `!!string`.
    Str(&'a [u8]),
    /// Type 3.
    U32(u32),
}

/// Reads cell `i` of `record` by its type code alone. The record must be exactly 4 bytes per cell.
pub(crate) fn cell<'a>(
    types: TypeList<'_>,
    strings: Option<Section<'a>>,
    record: &Record<'a>,
    i: usize,
) -> WdbResult<'a, Cell<'a>> {
    let in_record = |e: Error| WdbError::new(e).in_record(record.name_bytes());
    if types.len().checked_mul(4) != Some(record.data.len()) {
        return Err(in_record(Error::invalid(
            u64_of(record.at),
            "WdbRecord.size",
            u64_of(record.data.len()),
            "record size differs from 4 bytes per type-list cell",
        )));
    }
    let Some(code) = types.get(i) else {
        return Err(in_record(Error::invalid(
            u64_of(record.at),
            "WdbRecord.cell",
            u64_of(i),
            "no cell with this index",
        )));
    };
    let pos = i.saturating_mul(4);
    let at = record.at.saturating_add(pos);
    let word = record.word(pos, "WdbRecord.cell").map_err(in_record)?;
    Ok(match code {
        0 => Cell::Bits(word),
        1 => Cell::Float(f32::from_bits(word)),
        2 => Cell::Str(sections::string(strings, word, at, "WdbRecord.string").map_err(in_record)?),
        3 => Cell::U32(word),
        other => {
            return Err(in_record(Error::invalid(
                u64_of(at),
                "!!strtypelist",
                u64::from(other),
                "unknown cell type (0 bit-packed, 1 float, 2 string, 3 u32)",
            )));
        }
    })
}

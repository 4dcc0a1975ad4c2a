//! A database blob under construction: the record area and the out-of-line area after it, the
//! pointers from records into the out-of-line area patched once the record count is final.

use core::mem::size_of;

use zerocopy::little_endian::{I64, U64};
use zerocopy::{Immutable, IntoBytes};

use super::super::sink::{Reserved, Sink, invalid, relative};
use crate::bytes::u64_of;
use crate::error::Result;
use crate::wows::assets::raw::{BlobHeader, ModelPrototypeV1};
use crate::wows::assets::{MODEL_LAYOUT, MODEL_LAYOUT_V1, PrototypeFields};

/// A database blob under construction: fixed-size records first, out-of-line arrays after them.
/// Pointers from records into the out-of-line area are patched once the record count is final.
#[derive(Debug, Clone)]
pub(super) struct Blob {
    pub(super) magic: u32,
    pub(super) schema_hash: u32,
    pub(super) item_size: usize,
    pub(super) count: usize,
    pub(super) records: Sink,
    pub(super) ool: Sink,
    /// (record-area field position, record-area base, out-of-line target)
    pub(super) fixups: Vec<(usize, usize, usize)>,
    /// Raw blob bytes for a database of unknown layout (written as is).
    pub(super) raw: Option<Vec<u8>>,
    /// The records encoded, as given (what the model of the file carries).
    pub(super) fields: Vec<PrototypeFields>,
}

impl Blob {
    pub(super) fn new(magic: u32, schema_hash: u32, item_size: usize) -> Self {
        Blob {
            magic,
            schema_hash,
            item_size,
            count: 0,
            records: Sink::new(),
            ool: Sink::new(),
            fixups: Vec::new(),
            raw: None,
            fields: Vec::new(),
        }
    }

    /// The [`ModelFields::layout`] this database's item size makes (meaningful for models only).
    pub(super) fn model_layout(&self) -> &'static str {
        if self.item_size == size_of::<ModelPrototypeV1>() {
            MODEL_LAYOUT_V1
        } else {
            MODEL_LAYOUT
        }
    }

    /// Appends a record; its type must have the database's item size. Returns its position in the
    /// record area.
    pub(super) fn push_record<T: IntoBytes + Immutable>(
        &mut self,
        record: &T,
        what: &'static str,
    ) -> Result<usize> {
        if size_of::<T>() != self.item_size {
            return Err(invalid(
                what,
                u64_of(self.item_size),
                "the database's item size is not this record layout's",
            ));
        }
        self.count += 1;
        Ok(self.records.put(record))
    }

    /// Appends an array to the out-of-line area (8-aligned), returning its position there.
    pub(super) fn array<T: IntoBytes + Immutable>(&mut self, items: &[T]) -> Result<usize> {
        self.ool.align(8)?;
        Ok(self.ool.put(items))
    }

    /// Stores a table of out-of-line structs, one made by `make` per item (8-aligned, each filled
    /// once `make` has written its arrays after it, given the struct's position), and points the
    /// field at `rec + field` at it; an empty table's pointer stays null.
    pub(super) fn record_table<S, T: IntoBytes + Immutable>(
        &mut self,
        rec: usize,
        field: usize,
        items: &[S],
        what: &'static str,
        mut make: impl FnMut(&mut Self, usize, &S) -> Result<T>,
    ) -> Result<()> {
        if items.is_empty() {
            return Ok(());
        }
        self.ool.align(8)?;
        let table: Reserved<T> = self.ool.reserve(items.len(), what)?;
        self.fixups.push((rec + field, rec, table.at()));
        for (i, item) in items.iter().enumerate() {
            let value = make(self, table.record(i)?, item)?;
            self.ool.patch_record(&table, i, &value)?;
        }
        Ok(())
    }

    /// Stores a non-empty array out of line and points the field at `rec + field` at it,
    /// relative to the record; an empty array's pointer stays null.
    pub(super) fn record_array<T: IntoBytes + Immutable>(
        &mut self,
        rec: usize,
        field: usize,
        items: &[T],
    ) -> Result<()> {
        if !items.is_empty() {
            let target = self.array(items)?;
            self.fixups.push((rec + field, rec, target));
        }
        Ok(())
    }

    /// Stores a non-empty array out of line; returns the pointer to it that an out-of-line struct
    /// at `base` stores (null for an empty array).
    pub(super) fn ool_array<T: IntoBytes + Immutable>(
        &mut self,
        base: usize,
        items: &[T],
        what: &'static str,
    ) -> Result<I64> {
        if items.is_empty() {
            return Ok(I64::new(0));
        }
        let target = self.array(items)?;
        pointer(base, target, what)
    }

    /// The finished blob: header, records (pointers patched), out-of-line data.
    pub(super) fn finish(&self) -> Result<Vec<u8>> {
        if let Some(raw) = &self.raw {
            return Ok(raw.clone());
        }
        let mut out = Sink::new();
        out.put(&BlobHeader {
            record_count: U64::new(u64_of(self.count)),
            header_size: U64::new(u64_of(size_of::<BlobHeader>())),
        });
        let records_at = out.put(self.records.as_slice());
        out.align(8)?;
        let ool_at = out.put(self.ool.as_slice());
        for &(field, base, target) in &self.fixups {
            let rel = pointer(records_at + base, ool_at + target, "record pointer")?;
            out.patch(records_at + field, &rel, "record pointer")?;
        }
        Ok(out.into_bytes())
    }
}

/// The relative pointer from the struct at `base` to `target`.
pub(super) fn pointer(base: usize, target: usize, what: &'static str) -> Result<I64> {
    relative(base, target, what).map(I64::new)
}

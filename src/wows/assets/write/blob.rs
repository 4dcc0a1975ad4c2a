//! A database blob under construction: the record area and the out-of-line arrays after it.
//! The blob knows every array it places and every relative pointer it stores (in the record
//! area or inside an array), so that the arrays can be placed anywhere after the records — the
//! writer's own way, one after another 8-aligned, or where a [`BlobPlacement`] puts them — and
//! every pointer patched to where its array went.

use core::mem::size_of;

use zerocopy::little_endian::{I64, U64};
use zerocopy::{Immutable, IntoBytes};

use super::blob_placement::BlobPlacement;
use super::placer::Placer;
use crate::bytes::sink::{Reserved, Sink, invalid, relative};
use crate::bytes::u64_of;
use crate::wows::assets::database::decoded_layout;
use crate::wows::assets::raw::{BlobHeader, ModelPrototypeV1};
use crate::wows::assets::{MODEL_LAYOUT, MODEL_LAYOUT_V1, PrototypeFields, PrototypeType};
use crate::write_error::WriteResult as Result;

/// An out-of-line array: where it starts in [`Blob::ool`] and its length in bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(in crate::wows::assets) struct OolArray {
    pub(in crate::wows::assets) at: usize,
    pub(in crate::wows::assets) len: usize,
}

/// What stores a pointer: the record area or an out-of-line array (its index).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(in crate::wows::assets) enum Holder {
    Records,
    Array(usize),
}

/// A relative pointer a blob stores: in `holder`, `field` bytes from its start, measured from
/// `base` (bytes from the holder's start too), to the array `target`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(in crate::wows::assets) struct BlobPointer {
    pub(in crate::wows::assets) holder: Holder,
    pub(in crate::wows::assets) field: usize,
    pub(in crate::wows::assets) base: usize,
    pub(in crate::wows::assets) target: usize,
}

/// A database blob under construction: fixed-size records first, out-of-line arrays after them.
/// Pointers are patched once every array has its place.
#[derive(Debug, Clone)]
pub(crate) struct Blob {
    pub(in crate::wows::assets) magic: u32,
    pub(in crate::wows::assets) schema_hash: u32,
    pub(crate) item_size: usize,
    pub(in crate::wows::assets) count: usize,
    pub(in crate::wows::assets) records: Sink,
    /// The out-of-line arrays one after another, each 8-aligned (the writer's own placing).
    pub(in crate::wows::assets) ool: Sink,
    /// Each array in `ool`, in the order the encoders make them (a placement's indices).
    pub(in crate::wows::assets) arrays: Vec<OolArray>,
    /// Each pointer, in the order the encoders make them: a pointer stored inside an array
    /// comes after the one to that array.
    pub(in crate::wows::assets) pointers: Vec<BlobPointer>,
    /// Raw blob bytes for a database of unknown layout (written as is).
    pub(in crate::wows::assets) raw: Option<Vec<u8>>,
    /// The records encoded, as given (what the model of the file carries).
    pub(in crate::wows::assets) fields: Vec<PrototypeFields>,
}

impl Blob {
    pub(in crate::wows::assets) fn new(magic: u32, schema_hash: u32, item_size: usize) -> Self {
        Blob {
            magic,
            schema_hash,
            item_size,
            count: 0,
            records: Sink::new(),
            ool: Sink::new(),
            arrays: Vec::new(),
            pointers: Vec::new(),
            raw: None,
            fields: Vec::new(),
        }
    }

    /// The [`ModelFields::layout`] this database's item size makes (meaningful for models only).
    pub(crate) fn model_layout(&self) -> &'static str {
        if self.item_size == size_of::<ModelPrototypeV1>() {
            MODEL_LAYOUT_V1
        } else {
            MODEL_LAYOUT
        }
    }

    /// Refuses an item size that the reader would not take for `blob`, this database's finished
    /// blob: the size is not stored, readers take it from the type, the schema hash and the
    /// records' room (a known schema's size, else the first layout the records fit in), so
    /// another one would not be read as given.
    pub(in crate::wows::assets) fn check_read_item_size(&self, blob: &[u8]) -> Result<()> {
        let Some(kind) = PrototypeType::from_magic(self.magic).filter(|_| self.raw.is_none())
        else {
            return Ok(());
        };
        let space = blob.len().saturating_sub(size_of::<BlobHeader>());
        let read = decoded_layout(kind, self.schema_hash, self.count, space).item_size();
        if read == Some(self.item_size) {
            return Ok(());
        }
        let e = invalid(
            "Database.itemSize",
            u64_of(self.item_size),
            "not the record size readers take for this type and schema hash",
        );
        Err(e
            .in_field("item_size")
            .in_field("decoded")
            .in_field("records"))
    }

    /// Appends a record; its type must have the database's item size. Returns its position in the
    /// record area.
    pub(crate) fn push_record<T: IntoBytes + Immutable>(
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

    /// Appends an array to the out-of-line area (8-aligned), returning its index.
    fn array<T: IntoBytes + Immutable + ?Sized>(&mut self, items: &T) -> Result<usize> {
        self.ool.align(8)?;
        let at = self.ool.put(items);
        Ok(self.arrays_push(at, items.as_bytes().len()))
    }

    fn arrays_push(&mut self, at: usize, len: usize) -> usize {
        self.arrays.push(OolArray { at, len });
        self.arrays.len() - 1
    }

    /// Stores a table of out-of-line structs, one made by `make` per item (8-aligned, each filled
    /// once `make` has written its arrays after it, given the struct's position), and points the
    /// field at `rec + field` at it; an empty table's pointer stays null.
    pub(crate) fn record_table<S, T: IntoBytes + Immutable>(
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
        let len = self.ool.len().saturating_sub(table.at());
        let target = self.arrays_push(table.at(), len);
        self.point(Holder::Records, rec + field, rec, target);
        for (i, item) in items.iter().enumerate() {
            let value = make(self, table.record(i)?, item)?;
            self.ool.patch_record(&table, i, &value)?;
        }
        Ok(())
    }

    /// Stores a non-empty array out of line and points the field at `rec + field` at it,
    /// relative to the record; an empty array's pointer stays null.
    pub(crate) fn record_array<T: IntoBytes + Immutable>(
        &mut self,
        rec: usize,
        field: usize,
        items: &[T],
    ) -> Result<()> {
        self.record_array_from(rec + field, rec, items)
    }

    /// Stores a non-empty array out of line and points the record-area field at `field` at it,
    /// relative to `base` (a struct inside a record); an empty array's pointer stays null.
    pub(crate) fn record_array_from<T: IntoBytes + Immutable>(
        &mut self,
        field: usize,
        base: usize,
        items: &[T],
    ) -> Result<()> {
        if !items.is_empty() {
            let target = self.array(items)?;
            self.point(Holder::Records, field, base, target);
        }
        Ok(())
    }

    /// Stores a non-empty array out of line; returns the pointer to it that the out-of-line
    /// struct at `base` stores in its field `field` bytes on (null for an empty array).
    pub(crate) fn ool_array<T: IntoBytes + Immutable>(
        &mut self,
        base: usize,
        field: usize,
        items: &[T],
        what: &'static str,
    ) -> Result<I64> {
        if items.is_empty() {
            return Ok(I64::new(0));
        }
        // The array holding the struct: the last one starting at or before it.
        let holder = self
            .arrays
            .partition_point(|a| a.at <= base)
            .checked_sub(1)
            .ok_or_else(|| invalid(what, u64_of(base), "no out-of-line array holds the struct"))?;
        let start = self.arrays.get(holder).map_or(base, |a| a.at);
        let target = self.array(items)?;
        let at = self.arrays.get(target).map_or(0, |a| a.at);
        self.point(
            Holder::Array(holder),
            base - start + field,
            base - start,
            target,
        );
        pointer(base, at, what)
    }

    fn point(&mut self, holder: Holder, field: usize, base: usize, target: usize) {
        self.pointers.push(BlobPointer {
            holder,
            field,
            base,
            target,
        });
    }

    /// The finished blob the writer's own way: header, records, then each array 8-aligned, one
    /// after another.
    pub(in crate::wows::assets) fn finish(&self) -> Result<Vec<u8>> {
        self.finish_placed(&mut Placer::new(None, &[]))
    }

    /// The finished blob: header, records, each array where `place` puts it (in the order of
    /// its placement's offsets; the writer's way from the first that does not fit), pointers
    /// patched.
    pub(in crate::wows::assets) fn finish_placed(
        &self,
        place: &mut Placer<'_, BlobPlacement>,
    ) -> Result<Vec<u8>> {
        if let Some(raw) = &self.raw {
            return Ok(raw.clone());
        }
        let mut out = Sink::new();
        out.put(&BlobHeader {
            record_count: U64::new(u64_of(self.count)),
            header_size: U64::new(u64_of(size_of::<BlobHeader>())),
        });
        let records_at = out.put(self.records.as_slice());
        if place.layout().is_none() {
            out.align(8)?;
        }
        let order = place
            .layout()
            .map_or_else(|| (0..self.arrays.len()).collect(), |p| p.order(self));
        let mut placed = vec![0usize; self.arrays.len()];
        for k in order {
            let (Some(array), Some(slot)) = (self.arrays.get(k), placed.get_mut(k)) else {
                continue;
            };
            let what = "layout.blob_placements.arrays";
            place.place(&mut out, |p| p.arrays.get(k).copied(), array.len, what)?;
            if place.layout().is_none() {
                out.align(8)?;
            }
            let bytes = array
                .at
                .checked_add(array.len)
                .and_then(|end| self.ool.as_slice().get(array.at..end))
                .ok_or_else(|| invalid("out-of-line array", u64_of(array.at), "not written"))?;
            *slot = out.put(bytes);
        }
        place.place(&mut out, |p| Some(p.end), 0, "layout.blob_placements.end")?;
        place.pad(&mut out, "layout.blob_placements.padding")?;
        for p in &self.pointers {
            let holder = match p.holder {
                Holder::Records => Some(records_at),
                Holder::Array(h) => placed.get(h).copied(),
            };
            let target = placed.get(p.target).copied();
            let (Some(holder), Some(target)) = (holder, target) else {
                return Err(invalid(
                    "blob pointer",
                    u64_of(p.target),
                    "no such out-of-line array",
                ));
            };
            let rel = pointer(holder + p.base, target, "blob pointer")?;
            out.patch(holder + p.field, &rel, "blob pointer")?;
        }
        Ok(out.into_bytes())
    }
}

/// The relative pointer from the struct at `base` to `target`.
pub(in crate::wows::assets) fn pointer(
    base: usize,
    target: usize,
    what: &'static str,
) -> Result<I64> {
    relative(base, target, what).map(I64::new)
}

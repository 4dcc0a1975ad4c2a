//! The `.wdata` writer's face of the shared [`Sink`](crate::bytes::sink::Sink), the [`Encoder`]:
//! little-endian numbers, length-prefixed UTF-16LE strings, counts checked against their field's
//! width, and the version-gate check every optional field goes through. The bytes go through the
//! shared sink (one way to emit bytes for every writer); what this adds is the `.wdata` vocabulary
//! and errors that name the format's field and, for a field a version gates, its JSON key (the
//! layers above add the entry: `anibg[1].shadow`).

use zerocopy::little_endian::{F32, I32, U16, U32};

use crate::bytes::sink;
use crate::bytes::u64_of;
use crate::wdata::gates::Decision;
use crate::write_error::{WriteError, WriteResult as Result};

use crate::wdata::model::{Bool32, WString};

/// The output being built.
pub(crate) struct Encoder {
    /// The bytes so far.
    pub(crate) out: sink::Sink,
}

impl Encoder {
    pub(crate) fn new() -> Encoder {
        Encoder {
            out: sink::Sink::new(),
        }
    }

    /// The current output offset (where the next field starts).
    pub(crate) fn pos(&self) -> u64 {
        u64_of(self.out.len())
    }

    pub(crate) fn i32(&mut self, value: i32) {
        self.out.put(&I32::new(value));
    }

    pub(crate) fn u32(&mut self, value: u32) {
        self.out.put(&U32::new(value));
    }

    pub(crate) fn f32(&mut self, value: f32) {
        self.out.put(&F32::new(value));
    }

    pub(crate) fn bool32(&mut self, value: Bool32) {
        self.u32(value.0);
    }

    /// `u16` code-unit count, then the code units, little-endian.
    pub(crate) fn wstr(&mut self, text: &WString, what: &'static str) -> Result<()> {
        let len = u16::try_from(text.units.len()).map_err(|_| {
            refused(
                what,
                u64_of(text.units.len()),
                "a string holds at most 65,535 UTF-16 code units (u16 count)",
            )
        })?;
        self.out.put(&U16::new(len));
        for &u in &text.units {
            self.out.put(&U16::new(u));
        }
        Ok(())
    }

    /// A list's length as the file's `i32` count.
    pub(crate) fn count_i32(&mut self, len: usize, what: &'static str) -> Result<()> {
        let n = self.i32_count(len, what)?;
        self.out.put(&n);
        Ok(())
    }

    /// A list's length as the file's `u32` count (a camera info's lists).
    pub(crate) fn count_u32(&mut self, len: usize, what: &'static str) -> Result<()> {
        let n = self.u32_count(len, what)?;
        self.out.put(&n);
        Ok(())
    }

    /// A list's length as an `i32` count of a raw struct (errors at the current offset).
    pub(crate) fn i32_count(&self, len: usize, what: &'static str) -> Result<I32> {
        self.count_as(len, what, "more items than an i32 count can hold")
            .map(I32::new)
    }

    /// A list's length as a `u32` count of a raw struct (errors at the current offset).
    pub(crate) fn u32_count(&self, len: usize, what: &'static str) -> Result<U32> {
        self.count_as(len, what, "more items than a u32 count can hold")
            .map(U32::new)
    }

    fn count_as<N: TryFrom<usize>>(
        &self,
        len: usize,
        what: &'static str,
        reason: &'static str,
    ) -> Result<N> {
        N::try_from(len).map_err(|_| refused(what, u64_of(len), reason))
    }

    /// Each string of `list`, in order.
    pub(crate) fn wstrs(&mut self, list: &[WString], what: &'static str) -> Result<()> {
        for s in list {
            self.wstr(s, what)?;
        }
        Ok(())
    }

    /// Checks that an optional field is present exactly when the version stores it; the
    /// error's value is the version that decides (main or sub-version).
    pub(crate) fn gate<'m, T>(
        &self,
        field: &'m Option<T>,
        decision: Decision,
        what: &'static str,
    ) -> Result<Option<&'m T>> {
        let reason = match (field, decision.stored) {
            (Some(v), true) => return Ok(Some(v)),
            (None, false) => return Ok(None),
            (Some(_), false) => {
                "the model sets a field that this version (the value) does not store: leave it out (None)"
            }
            (None, true) => {
                "this version (the value) stores the field but the model leaves it out (None)"
            }
        };
        Err(refused(what, version_value(decision.version), reason))
    }
}

/// The writer's error for the format's field `what`; a field a version gates ends its path with
/// its own JSON key (`shadow`), to which the layers above add the entry (`anibg[1].shadow`).
pub(crate) fn refused(what: &'static str, value: u64, reason: &'static str) -> WriteError {
    let e = WriteError::invalid(what, value, reason);
    match super::gated_json_key(what) {
        Some(key) => e.in_field(key),
        None => e,
    }
}

/// A version as an error value (its bit pattern: a negative version shows as a huge number,
/// which is what it is to the file).
pub(crate) fn version_value(version: i32) -> u64 {
    u64::from(version.cast_unsigned())
}

//! What the record encoders share (each record type's encoder is in its file under
//! `records/`, feature `write`): little-endian values and ids as the records store them, and
//! names as the MurmurHash3 ids the strings map is keyed by.

use zerocopy::little_endian::{F32, U32, U64};

use crate::bytes::sink::invalid;
use crate::wows::assets::Name;
use crate::wows::assets::model::name_id;
use crate::write_error::WriteResult as Result;

/// Little-endian floats, as the records store them.
pub(crate) fn floats<const N: usize>(values: [f32; N]) -> [F32; N] {
    values.map(F32::new)
}

/// Little-endian 32-bit ids.
pub(crate) fn ids(ids: impl IntoIterator<Item = u32>) -> Vec<U32> {
    ids.into_iter().map(U32::new).collect()
}

/// Little-endian 64-bit ids.
pub(crate) fn ids64(ids: impl IntoIterator<Item = u64>) -> Vec<U64> {
    ids.into_iter().map(U64::new).collect()
}

/// The name id of a name the reader resolved; `None` (an id the strings map lacked) cannot be
/// written back.
pub(crate) fn named(name: &Name, what: &'static str) -> Result<u32> {
    name.as_deref().map(name_id).ok_or_else(|| {
        invalid(
            what,
            0,
            "a name missing from the strings map cannot be written",
        )
    })
}

/// The name ids of names the reader resolved ([`named`]).
pub(crate) fn named_ids(names: &[Name], what: &'static str) -> Result<Vec<U32>> {
    names.iter().map(|n| named(n, what).map(U32::new)).collect()
}

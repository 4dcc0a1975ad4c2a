//! Opaque bytes in the owned models as lowercase hex strings in JSON (the crate's text form of
//! bytes it does not interpret, as `gamebin dump --json` prints them): `#[serde(with =
//! "crate::serde_hex")]` on a `Vec<u8>` field.

use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

pub(crate) fn serialize<S: Serializer>(bytes: &[u8], s: S) -> Result<S::Ok, S::Error> {
    crate::bytes::hex(bytes).serialize(s)
}

pub(crate) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<u8>, D::Error> {
    crate::bytes::unhex(&String::deserialize(d)?).map_err(D::Error::custom)
}

//! The records' floats in JSON without loss (feature `serde`). JSON has no NaN or infinity, and
//! serde_json writes them as `null`, which no float reads back from; a record read from a file
//! made by someone else may hold any bits, and a model of that file must write them again.
//!
//! A finite float is a JSON number, exactly as serde writes an `f32` (shortest text that reads
//! back to the same bits, `-0.0` included). A non-finite one is a string:
//!
//! | bits | JSON |
//! |---|---|
//! | `0x7f800000` | `"inf"` |
//! | `0xff800000` | `"-inf"` |
//! | `0x7fc00000` (the quiet NaN Rust's `f32::NAN` is) | `"NaN"` |
//! | `0xffc00000` | `"-NaN"` |
//! | any other NaN (a payload, a signalling NaN) | `"NaN:0x7fc00001"`: `NaN:` and its 32 bits in hex |
//!
//! Reading back takes a number (as serde's `f32` does) or one of these strings; `NaN:0x…` must
//! name a NaN's bits (a finite value is written as a number, an infinity by its name). Anything
//! else, `null` among them, is refused with a message listing these forms.
//!
//! Fields are declared with `#[serde(with = "float")]` whatever their shape (a float, an array of
//! them, a list of arrays …): [`Floats`] carries the form through the shape.

use serde::de::{self, SeqAccess, Unexpected, Visitor};
use serde::ser::{SerializeSeq, SerializeTuple};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// What a reader is told a float may be.
const EXPECTED: &str = "a number, or for a float that is not finite \"NaN\", \"-NaN\", \"inf\", \
                        \"-inf\" or \"NaN:0x…\" (a NaN's 32 bits in hex)";

/// The quiet NaN `f32::NAN` is, written `"NaN"`.
const QUIET_NAN: u32 = 0x7fc0_0000;
/// The sign bit.
const SIGN: u32 = 0x8000_0000;

/// The text of a non-finite float; `None` for a finite one (written as a number).
fn non_finite(value: f32) -> Option<NonFinite> {
    let bits = value.to_bits();
    let named = |name| Some(NonFinite::Named(name));
    if value.is_finite() {
        None
    } else if value == f32::INFINITY {
        named("inf")
    } else if value == f32::NEG_INFINITY {
        named("-inf")
    } else if bits == QUIET_NAN {
        named("NaN")
    } else if bits == QUIET_NAN | SIGN {
        named("-NaN")
    } else {
        Some(NonFinite::Bits(bits))
    }
}

/// A non-finite float's string form.
enum NonFinite {
    /// One of the four names.
    Named(&'static str),
    /// Any other NaN: its bits.
    Bits(u32),
}

impl core::fmt::Display for NonFinite {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            Self::Named(name) => f.write_str(name),
            Self::Bits(bits) => write!(f, "NaN:{bits:#010x}"),
        }
    }
}

/// The float a string form names, `None` when it names none (or a finite value by its bits).
fn parse(text: &str) -> Option<f32> {
    match text {
        "inf" => Some(f32::INFINITY),
        "-inf" => Some(f32::NEG_INFINITY),
        "NaN" => Some(f32::from_bits(QUIET_NAN)),
        "-NaN" => Some(f32::from_bits(QUIET_NAN | SIGN)),
        _ => {
            let hex = text.strip_prefix("NaN:0x")?;
            // `from_str_radix` takes a sign; the form has none.
            if hex.is_empty() || hex.len() > 8 || !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
                return None;
            }
            let value = f32::from_bits(u32::from_str_radix(hex, 16).ok()?);
            value.is_nan().then_some(value)
        }
    }
}

/// A shape of floats the records hold (a float, a fixed array, a list), written and read with
/// the lossless form of each float in it.
pub trait Floats: Sized {
    /// Writes the floats, each non-finite one as its string.
    fn serialize_floats<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error>;
    /// Reads the floats back, each from a number or a string form.
    fn deserialize_floats<'de, D: Deserializer<'de>>(d: D) -> Result<Self, D::Error>;
}

/// `#[serde(serialize_with)]` of a shape of floats.
pub fn serialize<T: Floats, S: Serializer>(value: &T, s: S) -> Result<S::Ok, S::Error> {
    value.serialize_floats(s)
}

/// `#[serde(deserialize_with)]` of a shape of floats.
pub fn deserialize<'de, T: Floats, D: Deserializer<'de>>(d: D) -> Result<T, D::Error> {
    T::deserialize_floats(d)
}

/// A shape of floats as a serde value (to put it in a sequence, or read it out of one).
#[derive(Debug)]
pub(crate) struct Lossless<T>(pub T);

impl<T: Floats> Serialize for Lossless<&T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.0.serialize_floats(s)
    }
}

impl<'de, T: Floats> Deserialize<'de> for Lossless<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        T::deserialize_floats(d).map(Lossless)
    }
}

impl Floats for f32 {
    fn serialize_floats<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match non_finite(*self) {
            None => s.serialize_f32(*self),
            Some(text) => s.collect_str(&text),
        }
    }

    fn deserialize_floats<'de, D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Float;
        impl Visitor<'_> for Float {
            type Value = f32;
            fn expecting(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                f.write_str(EXPECTED)
            }
            // As serde's own `f32` reads numbers: a float written from an `f32` reads back to
            // the same bits.
            fn visit_f64<E: de::Error>(self, v: f64) -> Result<f32, E> {
                Ok(v as f32)
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<f32, E> {
                Ok(v as f32)
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<f32, E> {
                Ok(v as f32)
            }
            fn visit_str<E: de::Error>(self, text: &str) -> Result<f32, E> {
                parse(text).ok_or_else(|| E::invalid_value(Unexpected::Str(text), &self))
            }
        }
        d.deserialize_any(Float)
    }
}

impl<T: Floats, const N: usize> Floats for [T; N] {
    fn serialize_floats<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut out = s.serialize_tuple(N)?;
        for item in self {
            out.serialize_element(&Lossless(item))?;
        }
        out.end()
    }

    fn deserialize_floats<'de, D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Array<T, const N: usize>(core::marker::PhantomData<T>);
        impl<'de, T: Floats, const N: usize> Visitor<'de> for Array<T, N> {
            type Value = [T; N];
            fn expecting(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                write!(f, "an array of {N} floats")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<[T; N], A::Error> {
                // N is the declared shape (at most 16), not a value from the input.
                let mut items = Vec::with_capacity(N);
                while let Some(Lossless(item)) = seq.next_element::<Lossless<T>>()? {
                    if items.len() == N {
                        return Err(de::Error::invalid_length(N + 1, &self));
                    }
                    items.push(item);
                }
                let found = items.len();
                <[T; N]>::try_from(items).map_err(|_| de::Error::invalid_length(found, &self))
            }
        }
        d.deserialize_tuple(N, Array(core::marker::PhantomData))
    }
}

impl<T: Floats> Floats for Vec<T> {
    fn serialize_floats<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut out = s.serialize_seq(Some(self.len()))?;
        for item in self {
            out.serialize_element(&Lossless(item))?;
        }
        out.end()
    }

    fn deserialize_floats<'de, D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct List<T>(core::marker::PhantomData<T>);
        impl<'de, T: Floats> Visitor<'de> for List<T> {
            type Value = Vec<T>;
            fn expecting(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                f.write_str("a list")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Vec<T>, A::Error> {
                // Grown as items come (a size hint is the input's word, not a checked count).
                let mut items = Vec::new();
                while let Some(Lossless(item)) = seq.next_element::<Lossless<T>>()? {
                    items.push(item);
                }
                Ok(items)
            }
        }
        d.deserialize_seq(List(core::marker::PhantomData))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every float form written and read back through JSON.
    fn round_trip(value: f32) -> (String, f32) {
        let text = serde_json::to_string(&Lossless(&value)).unwrap();
        let back: Lossless<f32> = serde_json::from_str(&text).unwrap();
        (text, back.0)
    }

    #[test]
    fn finite_floats_are_the_numbers_serde_writes() {
        for value in [
            0.0f32,
            -0.0,
            1.5,
            -2.25,
            f32::MIN_POSITIVE,
            1e-45,
            f32::MAX,
            0.1,
        ] {
            let (text, back) = round_trip(value);
            assert_eq!(text, serde_json::to_string(&value).unwrap());
            assert_eq!(back.to_bits(), value.to_bits(), "{text}");
        }
    }

    #[test]
    fn non_finite_floats_keep_their_bits() {
        for (bits, text) in [
            (0x7f80_0000u32, "\"inf\""),
            (0xff80_0000, "\"-inf\""),
            (0x7fc0_0000, "\"NaN\""),
            (0xffc0_0000, "\"-NaN\""),
            (0x7fc0_0001, "\"NaN:0x7fc00001\""),
            (0x7f80_0001, "\"NaN:0x7f800001\""),
            (0xffff_ffff, "\"NaN:0xffffffff\""),
        ] {
            let (written, back) = round_trip(f32::from_bits(bits));
            assert_eq!(written, text);
            assert_eq!(back.to_bits(), bits, "{text}");
        }
    }

    #[test]
    fn other_text_and_null_are_refused() {
        for text in [
            "null",
            "\"nan\"",
            "\"NaN:0x3f800000\"",
            "\"NaN:0x7f800000\"",
            "\"NaN:0x\"",
            "\"NaN:0x+7fc00000\"",
            "\"NaN:0x17fc00000\"",
            "\"1.5\"",
        ] {
            let error = serde_json::from_str::<Lossless<f32>>(text).unwrap_err();
            assert!(error.to_string().contains("\"NaN:0x…\""), "{text}: {error}");
        }
    }

    #[test]
    fn arrays_take_exactly_their_length() {
        let back: Lossless<[f32; 2]> = serde_json::from_str("[1.0, \"-inf\"]").unwrap();
        assert_eq!(back.0, [1.0, f32::NEG_INFINITY]);
        assert!(serde_json::from_str::<Lossless<[f32; 2]>>("[1.0]").is_err());
        assert!(serde_json::from_str::<Lossless<[f32; 2]>>("[1.0, 2.0, 3.0]").is_err());
    }
}

//! One description of every stored field: the `raw` structs are declared through [`fields!`], which
//! also gives each struct its field names, a text form per field (what a Tiled property holds) and,
//! with the `serde` feature, `Serialize`/`Deserialize` through plain values. A field added to a raw
//! struct is thereby in the reader, the writer, `dump --json` and the Tiled conversion at once.
//!
//! Level text is 8-bit code-page bytes, never UTF-8 by contract. [`escape`] turns them into a
//! string that reads as Windows-1250 (the code page of the real levels with non-ASCII names) and
//! that [`unescape`] turns back into the same bytes: bytes that code page leaves undefined, control
//! bytes and `%` itself are written `%XX`.

use zerocopy::little_endian::{I32, U32};

use super::raw::Rect;
use super::text::WINDOWS_1250_HIGH;
use crate::write_error::WriteError;

/// Why a text or plain value does not fit its field: a [`WriteError`] whose kind is the
/// [`Rule`](crate::WriteErrorKind::Rule) the text breaks (`not an unsigned 32-bit integer`,
/// `text longer than its slot`, `no such field`). The caller adds where the text came from
/// ([`WriteError::about`], [`WriteError::in_field`]).
fn refused(rule: &'static str) -> WriteError {
    WriteError::rule(rule)
}

/// A stored field that converts to a plain value (serde) and to text (Tiled properties), both ways.
pub trait Field: Sized {
    /// The plain Rust value (`u32`, `i32`, a string for text slots, arrays of those).
    type Plain;
    /// The field's plain value.
    fn plain(&self) -> Self::Plain;
    /// The field from a plain value; an error when it does not fit (text longer than its slot).
    fn from_plain(plain: Self::Plain) -> Result<Self, WriteError>;
    /// The field as text: a decimal number, an escaped string ([`escape`]), or a comma-separated
    /// list of those.
    fn to_text(&self) -> String;
    /// The field from its text form.
    fn from_text(text: &str) -> Result<Self, WriteError>;
}

impl Field for U32 {
    type Plain = u32;
    fn plain(&self) -> u32 {
        self.get()
    }
    fn from_plain(plain: u32) -> Result<Self, WriteError> {
        Ok(plain.into())
    }
    fn to_text(&self) -> String {
        self.get().to_string()
    }
    fn from_text(text: &str) -> Result<Self, WriteError> {
        text.trim()
            .parse::<u32>()
            .map(Into::into)
            .map_err(|_| refused("not an unsigned 32-bit integer"))
    }
}

impl Field for I32 {
    type Plain = i32;
    fn plain(&self) -> i32 {
        self.get()
    }
    fn from_plain(plain: i32) -> Result<Self, WriteError> {
        Ok(plain.into())
    }
    fn to_text(&self) -> String {
        self.get().to_string()
    }
    fn from_text(text: &str) -> Result<Self, WriteError> {
        text.trim()
            .parse::<i32>()
            .map(Into::into)
            .map_err(|_| refused("not a signed 32-bit integer"))
    }
}

/// A text slot: its bytes up to the last non-zero one, escaped; NULs inside (text after the first
/// NUL, which real editors leave behind) are kept as `%00`, so the slot comes back byte for byte.
impl<const N: usize> Field for [u8; N] {
    type Plain = String;
    fn plain(&self) -> String {
        let end = self.iter().rposition(|&b| b != 0).map_or(0, |i| i + 1);
        escape(self.get(..end).unwrap_or(&[]), b"")
    }
    fn from_plain(plain: String) -> Result<Self, WriteError> {
        Self::from_text(&plain)
    }
    fn to_text(&self) -> String {
        self.plain()
    }
    fn from_text(text: &str) -> Result<Self, WriteError> {
        let bytes = unescape(text)?;
        let mut slot = [0u8; N];
        slot.get_mut(..bytes.len())
            .ok_or_else(|| refused("text longer than its slot"))?
            .copy_from_slice(&bytes);
        Ok(slot)
    }
}

/// Arrays of numbers or slots: a comma-separated list (commas inside slot text escaped).
macro_rules! array_field {
    ($elem:ty, $plain:ty, $escape_comma:expr) => {
        impl<const N: usize> Field for [$elem; N] {
            type Plain = [$plain; N];
            fn plain(&self) -> [$plain; N] {
                self.each_ref().map(Field::plain)
            }
            fn from_plain(plain: [$plain; N]) -> Result<Self, WriteError> {
                let mut out = <[$elem; N] as zerocopy::FromZeros>::new_zeroed();
                for (o, p) in out.iter_mut().zip(plain) {
                    *o = Field::from_plain(p)?;
                }
                Ok(out)
            }
            fn to_text(&self) -> String {
                let items: Vec<String> = self.iter().map($escape_comma).collect();
                items.join(",")
            }
            fn from_text(text: &str) -> Result<Self, WriteError> {
                let mut out = <[$elem; N] as zerocopy::FromZeros>::new_zeroed();
                let mut parts = text.split(',');
                for o in out.iter_mut() {
                    let part = parts
                        .next()
                        .ok_or_else(|| refused("too few comma-separated values"))?;
                    *o = Field::from_text(part)?;
                }
                if parts.next().is_some() {
                    return Err(refused("too many comma-separated values"));
                }
                Ok(out)
            }
        }
    };
}

array_field!(U32, u32, |v: &U32| v.to_text());
array_field!(I32, i32, |v: &I32| v.to_text());
array_field!([u8; 128], String, |s: &[u8; 128]| s
    .to_text()
    .replace(',', "%2C"));
array_field!([u8; 32], String, |s: &[u8; 32]| s
    .to_text()
    .replace(',', "%2C"));

impl Field for Rect {
    type Plain = [i32; 4];
    fn plain(&self) -> [i32; 4] {
        self.get()
    }
    fn from_plain(plain: [i32; 4]) -> Result<Self, WriteError> {
        Ok(Rect::new(plain))
    }
    fn to_text(&self) -> String {
        self.get().map(|v| v.to_string()).join(",")
    }
    fn from_text(text: &str) -> Result<Self, WriteError> {
        <[I32; 4]>::from_text(text).map(|[l, t, r, b]| Rect {
            left: l,
            top: t,
            right: r,
            bottom: b,
        })
    }
}

/// Level text as a string: printable ASCII as is, other bytes as their Windows-1250 character,
/// and `%XX` for `%`, control bytes, bytes Windows-1250 leaves undefined and any byte in `also`.
pub fn escape(bytes: &[u8], also: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len());
    for &b in bytes {
        let ch = match b {
            b'%' | 0..0x20 | 0x7F => None,
            _ if also.contains(&b) => None,
            0x20..0x7F => Some(char::from(b)),
            _ => WINDOWS_1250_HIGH
                .get(usize::from(b - 0x80))
                .copied()
                .filter(|&c| c != '\u{fffd}'),
        };
        match ch {
            Some(c) => out.push(c),
            None => {
                out.push('%');
                out.push_str(&format!("{b:02X}"));
            }
        }
    }
    out
}

/// The bytes [`escape`] made `text` from; an error for a character Windows-1250 cannot store or a
/// `%` not followed by two hex digits.
pub fn unescape(text: &str) -> Result<Vec<u8>, WriteError> {
    let mut out = Vec::with_capacity(text.len());
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        let b = if c == '%' {
            let hex: String = chars.by_ref().take(2).collect();
            if hex.len() != 2 {
                return Err(refused("'%' not followed by two hex digits"));
            }
            u8::from_str_radix(&hex, 16)
                .map_err(|_| refused("'%' not followed by two hex digits"))?
        } else if c.is_ascii() {
            c as u8
        } else {
            let high = WINDOWS_1250_HIGH
                .iter()
                .position(|&w| w == c && c != '\u{fffd}')
                .ok_or_else(|| refused("a character Windows-1250 cannot store"))?;
            0x80 + high as u8
        };
        out.push(b);
    }
    Ok(out)
}

/// Declares a raw struct once: the struct itself (attributes and docs as written), the list of its
/// field names, each field's text form by name, and serde through a struct of plain values.
macro_rules! fields {
    (
        $(#[$meta:meta])*
        pub struct $name:ident { $($body:tt)* }
    ) => {
        // The struct as written (passed through untouched: derives see the caller's tokens).
        $(#[$meta])*
        pub struct $name { $($body)* }
        $crate::wwd::field::fields!(@impl $name { $($body)* });
    };
    (
        @impl $name:ident {
            $( $(#[$field_meta:meta])* pub $field:ident : $ty:ty, )*
        }
    ) => {
        impl $name {
            /// The fields' names, in stored order.
            pub const FIELD_NAMES: &'static [&'static str] = &[$(stringify!($field)),*];

            /// Field `name` in its text form ([`Field::to_text`](super::Field::to_text)); `None`
            /// for a name the struct does not have.
            pub fn field_text(&self, name: &str) -> Option<String> {
                match name {
                    $( stringify!($field) => Some($crate::wwd::Field::to_text(&self.$field)), )*
                    _ => None,
                }
            }

            /// Sets field `name` from its text form; an error says why the text does not fit, or
            /// that the struct has no such field.
            pub fn set_field_text(
                &mut self,
                name: &str,
                text: &str,
            ) -> ::core::result::Result<(), $crate::WriteError> {
                match name {
                    $( stringify!($field) => {
                        self.$field = $crate::wwd::Field::from_text(text)?;
                        Ok(())
                    } )*
                    _ => Err($crate::WriteError::rule("no such field")),
                }
            }
        }

        #[cfg(feature = "serde")]
        const _: () = {
            use $crate::wwd::Field as _;

            #[derive(serde::Serialize, serde::Deserialize)]
            #[serde(deny_unknown_fields)]
            struct Plain {
                $( $field: <$ty as $crate::wwd::Field>::Plain, )*
            }

            impl serde::Serialize for $name {
                fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                    Plain { $( $field: self.$field.plain(), )* }.serialize(s)
                }
            }

            impl<'de> serde::Deserialize<'de> for $name {
                fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                    let plain = Plain::deserialize(d)?;
                    Ok($name {
                        $( $field: <$ty>::from_plain(plain.$field).map_err(|why| {
                            <D::Error as serde::de::Error>::custom(format_args!(
                                "{}.{}: {}", stringify!($name), stringify!($field), why
                            ))
                        })?, )*
                    })
                }
            }
        };
    };
}
pub(crate) use fields;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_escapes_round_trip() {
        let bytes: Vec<u8> = (0..=255).collect();
        let text = escape(&bytes, b",");
        assert_eq!(unescape(&text).unwrap(), bytes);
        assert_eq!(escape(b"T\xb3o 100%", b""), "Tło 100%25");
        assert!(unescape("%4").is_err());
        assert!(unescape("中").is_err());
    }

    #[test]
    fn slots_keep_bytes_after_the_first_nul() {
        let mut slot = [0u8; 8];
        slot[..5].copy_from_slice(b"ab\0cd");
        assert_eq!(slot.to_text(), "ab%00cd");
        assert_eq!(<[u8; 8]>::from_text("ab%00cd").unwrap(), slot);
        assert!(<[u8; 2]>::from_text("abc").is_err());
        let sets = [[b'a'; 32]; 4];
        assert_eq!(<[[u8; 32]; 4]>::from_text(&sets.to_text()).unwrap(), sets);
        assert!(<[I32; 2]>::from_text("1").is_err());
        assert!(<[I32; 2]>::from_text("1,2,3").is_err());
    }
}

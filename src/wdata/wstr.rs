//! The format's strings: a `u16` count of UTF-16 code units, then the units, little-endian. They sit
//! at any offset (odd ones included), so a [`WStr`] borrows the bytes and decodes unit by unit; it
//! never casts to `&[u16]`. A stored string may end with NULs (the signature is stored as 14
//! characters + NUL): comparisons trim them. `".\"` is the format's "no path".

use core::fmt;

use crate::bytes::Bytes;
use crate::error::Result;

/// The "no path" sentinel, `.\`.
pub const NO_PATH: &str = ".\\";

/// A borrowed UTF-16LE string of the file (the code units only, without the length prefix).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct WStr<'a> {
    bytes: &'a [u8],
}

impl<'a> WStr<'a> {
    /// Wraps raw UTF-16LE bytes (an odd trailing byte is ignored by every decoder).
    pub const fn from_utf16le(bytes: &'a [u8]) -> Self {
        WStr { bytes }
    }

    /// Reads the length-prefixed string at `at`; returns it and the offset just past it.
    pub(crate) fn read(bytes: Bytes<'a>, at: usize, what: &'static str) -> Result<(Self, usize)> {
        let len = bytes.slice(at, 2, what)?;
        let units = usize::from(u16::from_le_bytes([len[0], len[1]]));
        let start = at.saturating_add(2);
        // units ≤ 0xffff, so units * 2 cannot overflow.
        let raw = bytes.slice(start, units * 2, what)?;
        Ok((WStr { bytes: raw }, start + raw.len()))
    }

    /// The stored UTF-16LE bytes (NULs included), borrowed from the file.
    pub const fn as_bytes(&self) -> &'a [u8] {
        self.bytes
    }

    /// The stored length in code units (the prefix's value).
    pub const fn len_units(&self) -> usize {
        self.bytes.len() / 2
    }

    /// Whether nothing is stored.
    pub const fn is_empty(&self) -> bool {
        self.bytes.len() < 2
    }

    /// The stored code units, NULs included.
    // Inlined into callers in other crates too: a walk that reads every string calls it once a
    // string, and outlined the call cost as much as summing a short name's units.
    #[inline]
    pub fn units(&self) -> impl DoubleEndedIterator<Item = u16> + ExactSizeIterator + use<'a> {
        Units {
            bytes: self.bytes.get(..self.bytes.len() & !1).unwrap_or_default(),
        }
    }

    /// The string without trailing NUL units.
    pub fn trimmed(&self) -> WStr<'a> {
        let mut len = self.bytes.len() & !1;
        while len >= 2 && self.bytes.get(len - 2..len) == Some(&[0, 0][..]) {
            len -= 2;
        }
        WStr {
            bytes: self.bytes.get(..len).unwrap_or_default(),
        }
    }

    /// The characters after trimming trailing NULs; an unpaired surrogate gives an `Err` item.
    pub fn chars(
        &self,
    ) -> impl Iterator<Item = core::result::Result<char, core::char::DecodeUtf16Error>> + use<'a>
    {
        char::decode_utf16(self.trimmed().units())
    }

    /// Whether the string (trailing NULs trimmed) is exactly `text`.
    pub fn eq_str(&self, text: &str) -> bool {
        self.trimmed().units().eq(text.encode_utf16())
    }

    /// Whether the string is the `.\` "no path" sentinel (after trimming NULs).
    pub fn is_no_path(&self) -> bool {
        self.eq_str(NO_PATH)
    }

    /// As a path: `None` for `.\` or an empty string, the string otherwise.
    pub fn as_path(&self) -> Option<WStr<'a>> {
        let t = self.trimmed();
        (!t.is_empty() && !t.is_no_path()).then_some(*self)
    }

    /// Whether the string (NULs trimmed) ends with `suffix`, ASCII letters compared without case.
    pub fn ends_with_ignore_ascii_case(&self, suffix: &str) -> bool {
        let n = suffix.encode_utf16().count();
        let t = self.trimmed();
        let Some(skip) = t.len_units().checked_sub(n) else {
            return false;
        };
        t.units()
            .skip(skip)
            .zip(suffix.encode_utf16())
            .all(|(a, b)| {
                let lower = |u: u16| match u8::try_from(u) {
                    Ok(c) => u16::from(c.to_ascii_lowercase()),
                    Err(_) => u,
                };
                lower(a) == lower(b)
            })
    }
}

/// The code units of a [`WStr`], decoded as they are iterated (`bytes` has an even length).
#[derive(Debug, Clone)]
struct Units<'a> {
    bytes: &'a [u8],
}

impl Iterator for Units<'_> {
    type Item = u16;

    #[inline]
    fn next(&mut self) -> Option<u16> {
        let (&unit, rest) = self.bytes.split_first_chunk::<2>()?;
        self.bytes = rest;
        Some(u16::from_le_bytes(unit))
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.bytes.len() / 2;
        (n, Some(n))
    }

    /// Eight units a step, then four, two and one: a walk reads every string's units with a
    /// fold (a `sum`, a comparison, a hash), and most strings are short (a name, a motion, 2 to
    /// 12 units). The loop the compiler made of `chunks_exact(2)` set up a vector loop for each
    /// string and finished unit by unit, which cost a short string more than its units did:
    /// this way its units are straight-line code (3.2 M fewer instructions in the bench's walk
    /// of the large map, 43.5 M before).
    #[inline]
    fn fold<B, F: FnMut(B, u16) -> B>(self, init: B, mut f: F) -> B {
        let mut acc = init;
        let mut rest = self.bytes;
        // Each chunk seen as its units' byte pairs (zerocopy checks the sizes at compile time):
        // no index, no bounds check.
        while let Some((chunk, after)) = rest.split_first_chunk::<16>() {
            let units: &[[u8; 2]; 8] = zerocopy::transmute_ref!(chunk);
            for unit in units {
                acc = f(acc, u16::from_le_bytes(*unit));
            }
            rest = after;
        }
        if let Some((chunk, after)) = rest.split_first_chunk::<8>() {
            let units: &[[u8; 2]; 4] = zerocopy::transmute_ref!(chunk);
            for unit in units {
                acc = f(acc, u16::from_le_bytes(*unit));
            }
            rest = after;
        }
        if let Some((chunk, after)) = rest.split_first_chunk::<4>() {
            let [a, b]: &[[u8; 2]; 2] = zerocopy::transmute_ref!(chunk);
            acc = f(acc, u16::from_le_bytes(*a));
            acc = f(acc, u16::from_le_bytes(*b));
            rest = after;
        }
        if let Some((&unit, _)) = rest.split_first_chunk::<2>() {
            acc = f(acc, u16::from_le_bytes(unit));
        }
        acc
    }
}

impl DoubleEndedIterator for Units<'_> {
    #[inline]
    fn next_back(&mut self) -> Option<u16> {
        let (rest, &unit) = self.bytes.split_last_chunk::<2>()?;
        self.bytes = rest;
        Some(u16::from_le_bytes(unit))
    }
}

impl ExactSizeIterator for Units<'_> {}

/// The text (trailing NULs trimmed, unpaired surrogates as U+FFFD), written without allocating;
/// `to_string()` decodes to a `String` on request.
impl fmt::Display for WStr<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use fmt::Write;
        for c in self.chars() {
            f.write_char(c.unwrap_or(char::REPLACEMENT_CHARACTER))?;
        }
        Ok(())
    }
}

impl fmt::Debug for WStr<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}", format_args!("{self}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::ErrorKind;

    fn encode(text: &str, nul: bool) -> Vec<u8> {
        let units: Vec<u16> = text.encode_utf16().chain(nul.then_some(0)).collect();
        let mut out = (units.len() as u16).to_le_bytes().to_vec();
        for u in units {
            out.extend_from_slice(&u.to_le_bytes());
        }
        out
    }

    #[test]
    fn reads_at_odd_offsets_and_trims_nuls() -> Result<()> {
        let mut data = vec![0xaa];
        data.extend(encode("stairwaygames.", true));
        let (s, end) = WStr::read(Bytes::new(&data), 1, "Header.signature")?;
        assert_eq!(end, data.len());
        assert_eq!(s.len_units(), 15);
        assert!(s.eq_str("stairwaygames."));
        assert!(!s.eq_str("stairwaygames"));
        assert_eq!(s.to_string(), "stairwaygames.");
        assert_eq!(s.trimmed().len_units(), 14);
        Ok(())
    }

    #[test]
    fn paths_and_sentinels() -> Result<()> {
        let data = encode(".\\", false);
        let (s, _) = WStr::read(Bytes::new(&data), 0, "p")?;
        assert!(s.is_no_path());
        assert!(s.as_path().is_none());
        let data = encode("map\\Town.MMP", true);
        let (s, _) = WStr::read(Bytes::new(&data), 0, "p")?;
        assert!(s.ends_with_ignore_ascii_case(".mmp"));
        assert!(!s.ends_with_ignore_ascii_case(".mdata"));
        assert!(s.as_path().is_some());
        assert!(WStr::default().as_path().is_none());
        Ok(())
    }

    #[test]
    fn surrogates_decode_or_replace() -> Result<()> {
        let data = encode("\u{1f600}é", false);
        let (s, _) = WStr::read(Bytes::new(&data), 0, "p")?;
        assert_eq!(s.to_string(), "\u{1f600}é");
        let lone = [1, 0, 0x00, 0xd8];
        let (s, _) = WStr::read(Bytes::new(&lone), 0, "p")?;
        assert_eq!(s.to_string(), "\u{fffd}");
        Ok(())
    }

    /// `fold` (eight units a step, then four, two and one) yields what `next` and `next_back`
    /// do, in order, for every length up to past two steps of eight, odd byte counts included.
    #[test]
    fn fold_agrees_with_next() {
        let data: Vec<u8> = (0..41u8).map(|b| b.wrapping_mul(37) ^ 0x5a).collect();
        for len in 0..=data.len() {
            let s = WStr::from_utf16le(&data[..len]);
            let expected: Vec<u16> = data[..len]
                .chunks_exact(2)
                .map(|u| u16::from_le_bytes([u[0], u[1]]))
                .collect();
            let mut by_next = Vec::new();
            let mut units = s.units();
            assert_eq!(units.len(), expected.len());
            // A `for` loop asks `next` alone.
            for u in &mut units {
                by_next.push(u);
            }
            assert_eq!(by_next, expected, "next, {len} bytes");
            let folded = s.units().fold(Vec::new(), |mut v, u| {
                v.push(u);
                v
            });
            assert_eq!(folded, expected, "fold, {len} bytes");
            let mut back: Vec<u16> = s.units().rev().collect();
            back.reverse();
            assert_eq!(back, expected, "next_back, {len} bytes");
            // After a few units taken, the fold reads the rest.
            let mut part = s.units();
            let first = part.next();
            let rest = part.fold(Vec::new(), |mut v, u| {
                v.push(u);
                v
            });
            assert_eq!(
                first.into_iter().chain(rest).collect::<Vec<_>>(),
                expected,
                "next then fold, {len} bytes"
            );
        }
    }

    #[test]
    fn truncated_strings_fail_where_they_start() {
        let data = [3, 0, b'a', 0, b'b'];
        let Err(e) = WStr::read(Bytes::new(&data), 0, "Obb.name") else {
            panic!("a truncated string must not read");
        };
        assert_eq!(e.offset(), 2);
        assert_eq!(e.what(), "Obb.name");
        assert_eq!(
            e.kind(),
            ErrorKind::Truncated {
                needed: 6,
                available: 3
            }
        );
        assert!(WStr::read(Bytes::new(&data), 4, "x").is_err());
    }
}

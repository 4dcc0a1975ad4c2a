//! Pickle strings: Python 2 `repr` escapes (`S'…'`), raw-unicode-escape (`V…`), raw bytes
//! (`T`, `U`) and UTF-8 (`X`), decoded to bytes that borrow the pickle when nothing needs
//! unescaping (every string of the game's files but a few).

use std::borrow::Cow;

use super::pickle::StrForm;

/// Why a string's escapes do not decode: the offset inside the string's stored bytes and the rule.
pub(crate) type EscapeError = (usize, &'static str);

/// The bytes a string opcode stands for: Python 2 `str` bytes for `S`/`T`/`U`, UTF-8 for
/// `V`/`X` (a unicode string). Borrowed when the stored bytes are the value.
pub(crate) fn decode(form: StrForm, raw: &[u8]) -> Result<Cow<'_, [u8]>, EscapeError> {
    match form {
        StrForm::Raw | StrForm::Utf8 => Ok(Cow::Borrowed(raw)),
        StrForm::Escaped => {
            if !raw.contains(&b'\\') {
                return Ok(Cow::Borrowed(raw));
            }
            unescape_repr(raw).map(Cow::Owned)
        }
        StrForm::RawUnicodeEscape => {
            if raw.iter().all(|&b| b != b'\\' && b < 0x80) {
                return Ok(Cow::Borrowed(raw));
            }
            unescape_raw_unicode(raw).map(|s| Cow::Owned(s.into_bytes()))
        }
    }
}

fn hex(b: u8) -> Option<u32> {
    (b as char).to_digit(16)
}

/// Python's `codecs.escape_decode` (what protocol 0's STRING loads with).
fn unescape_repr(raw: &[u8]) -> Result<Vec<u8>, EscapeError> {
    let mut out = Vec::with_capacity(raw.len());
    let mut i = 0;
    while let Some(&b) = raw.get(i) {
        if b != b'\\' {
            out.push(b);
            i += 1;
            continue;
        }
        let Some(&c) = raw.get(i + 1) else {
            return Err((i, "a string ends with a lone backslash"));
        };
        i += 2;
        match c {
            b'\n' => {}
            b'\\' => out.push(b'\\'),
            b'\'' => out.push(b'\''),
            b'"' => out.push(b'"'),
            b'a' => out.push(7),
            b'b' => out.push(8),
            b'f' => out.push(12),
            b'n' => out.push(b'\n'),
            b'r' => out.push(b'\r'),
            b't' => out.push(b'\t'),
            b'v' => out.push(11),
            b'0'..=b'7' => {
                let mut v = u32::from(c - b'0');
                for _ in 0..2 {
                    match raw.get(i) {
                        Some(&d @ b'0'..=b'7') => {
                            v = v * 8 + u32::from(d - b'0');
                            i += 1;
                        }
                        _ => break,
                    }
                }
                out.push((v & 0xff) as u8);
            }
            b'x' => match (
                raw.get(i).and_then(|&d| hex(d)),
                raw.get(i + 1).and_then(|&d| hex(d)),
            ) {
                (Some(h), Some(l)) => {
                    out.push((h * 16 + l) as u8);
                    i += 2;
                }
                _ => return Err((i - 2, "\\x in a string needs two hex digits")),
            },
            other => {
                out.push(b'\\');
                out.push(other);
            }
        }
    }
    Ok(out)
}

/// Python's `raw_unicode_escape` decoding (protocol 0's UNICODE): `\uXXXX` and `\UXXXXXXXX`
/// escapes, every other byte a latin-1 character.
fn unescape_raw_unicode(raw: &[u8]) -> Result<String, EscapeError> {
    let mut out = String::with_capacity(raw.len());
    let mut i = 0;
    while let Some(&b) = raw.get(i) {
        let digits = match (b, raw.get(i + 1)) {
            (b'\\', Some(b'u')) => 4,
            (b'\\', Some(b'U')) => 8,
            _ => {
                out.push(char::from(b));
                i += 1;
                continue;
            }
        };
        let mut v: u32 = 0;
        for k in 0..digits {
            match raw.get(i + 2 + k).and_then(|&d| hex(d)) {
                Some(h) => v = v.wrapping_mul(16).wrapping_add(h),
                None => return Err((i, "a \\u or \\U escape needs 4 or 8 hex digits")),
            }
        }
        match char::from_u32(v) {
            Some(c) => out.push(c),
            None => return Err((i, "a \\U escape names no Unicode character")),
        }
        i += 2 + digits;
    }
    Ok(out)
}

/// The latin-1 reading of bytes that are not UTF-8 (each byte the character of its value): how a
/// string that is not UTF-8 is kept in JSON, losslessly (encode the text as latin-1 to get the
/// bytes back).
pub fn latin1(bytes: &[u8]) -> String {
    bytes.iter().map(|&b| char::from(b)).collect()
}

/// FNV-1a over bytes: the hash of the look-up tables (short keys; no allocation, no seed).
#[inline]
pub(crate) fn hash(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_decode_as_python_does() {
        let d = |s: &[u8]| decode(StrForm::Escaped, s).unwrap().into_owned();
        assert_eq!(d(b"plain"), b"plain");
        assert_eq!(d(b"a\\'b\\\\c\\n\\x41\\101\\q"), b"a'b\\c\nAA\\q");
        assert_eq!(d(b"\\xc3\\xa9"), "é".as_bytes());
        assert!(decode(StrForm::Escaped, b"abc\\").is_err());
        assert!(decode(StrForm::Escaped, b"\\x4").is_err());
        let u = |s: &[u8]| decode(StrForm::RawUnicodeEscape, s).unwrap().into_owned();
        assert_eq!(u(b"caf\\u00e9"), "café".as_bytes());
        assert_eq!(u(b"\xe9"), "é".as_bytes());
        assert!(decode(StrForm::RawUnicodeEscape, b"\\U0011ffff").is_err());
        assert_eq!(latin1(b"\xe9a"), "éa");
    }
}

//! .NET `BinaryWriter.Write(string)` strings: a 7-bit-encoded varint byte length, then UTF-8.

use crate::bytes::{Cursor, u64_of};
use crate::error::{Error, Result};

/// The most bytes a .NET 7-bit-encoded `Int32` takes; a fifth byte may carry only 4 bits.
const MAX_VARINT_BYTES: usize = 5;

/// The 7-bit-encoded length at the cursor, which moves past it. An over-long varint (a sixth
/// byte, or a fifth byte above 0x0f, as .NET's `Read7BitEncodedInt` rejects) or one cut off by the
/// end of the file is an error at the varint's offset (the cursor does not move).
#[inline]
pub(crate) fn varint(cur: &mut Cursor<'_>, what: &'static str) -> Result<u32> {
    let at = cur.offset();
    let mut ahead = *cur;
    let mut value = 0u32;
    for i in 0..MAX_VARINT_BYTES {
        let byte = ahead.u8(what)?;
        if i == MAX_VARINT_BYTES - 1 && byte > 0x0f {
            return Err(Error::invalid(
                u64_of(at),
                what,
                u64::from(byte),
                "7-bit-encoded string length is longer than 5 bytes or exceeds 32 bits",
            ));
        }
        value |= u32::from(byte & 0x7f) << (7 * i);
        if byte & 0x80 == 0 {
            *cur = ahead;
            return Ok(value);
        }
    }
    Err(Error::invalid(
        u64_of(at),
        what,
        u64::from(value),
        "7-bit-encoded string length is longer than 5 bytes",
    ))
}

/// The string at the cursor, borrowed and checked as UTF-8; the cursor moves past it. A length
/// that runs past the end of the file is a truncation error; invalid UTF-8 is an error at the
/// offset of the first bad byte.
#[inline]
pub(crate) fn read<'a>(cur: &mut Cursor<'a>, what: &'static str) -> Result<&'a str> {
    let mut ahead = *cur;
    let at = ahead.offset();
    let len = varint(&mut ahead, what)?;
    let start = ahead.offset();
    let len = crate::bytes::to_usize(u64::from(len), at, what)?;
    let raw = ahead.take(len, what)?;
    let text = crate::bytes::utf8(raw, start, what, "string is not valid UTF-8")?;
    *cur = ahead;
    Ok(text)
}

/// Writes `s` as .NET's `BinaryWriter.Write(string)` does: the UTF-8 byte length as a
/// 7-bit-encoded `i32` (low groups first, the high bit set on every byte but the last), then the
/// bytes. The inverse of [`read`]; a string longer than an `i32` can say is an error naming
/// `what`.
#[cfg(feature = "write")]
pub(crate) fn write(
    out: &mut crate::bytes::sink::Sink,
    s: &str,
    what: &'static str,
) -> crate::write_error::WriteResult<()> {
    let mut len = crate::bytes::sink::narrow::<i32>(s.len(), what)?.cast_unsigned();
    while len >= 0x80 {
        // The low 7 bits, with the "more follows" bit.
        out.put(&(len.to_le_bytes()[0] | 0x80));
        len >>= 7;
    }
    out.put(&len.to_le_bytes()[0]);
    out.put(s.as_bytes());
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bytes::Bytes;
    use crate::error::ErrorKind;

    #[test]
    fn lengths_decode_like_dotnet() {
        let cases: &[(&[u8], u32, usize)] = &[
            (&[0x00], 0, 1),
            (&[0x7f], 127, 1),
            (&[0x80, 0x01], 128, 2),
            (&[0xac, 0x02], 300, 2),
            (&[0xff, 0xff, 0xff, 0xff, 0x0f], u32::MAX, 5),
        ];
        for &(data, value, used) in cases {
            let mut cur = Cursor::new(Bytes::new(data), 0);
            assert_eq!(varint(&mut cur, "s").unwrap(), value);
            assert_eq!(cur.offset(), used);
        }
    }

    #[test]
    fn over_long_and_cut_varints_fail_at_their_offset() {
        let data = [0x41, 0xff, 0xff, 0xff, 0xff, 0x10];
        let mut cur = Cursor::new(Bytes::new(&data), 1);
        let e = varint(&mut cur, "X.name").unwrap_err();
        assert_eq!((e.offset(), cur.offset()), (1, 1));
        assert!(matches!(
            e.kind(),
            ErrorKind::InvalidValue { value: 0x10, .. }
        ));
        let data = [0x80, 0x80];
        let mut cur = Cursor::new(Bytes::new(&data), 0);
        let e = varint(&mut cur, "X.name").unwrap_err();
        assert_eq!((e.offset(), cur.offset()), (2, 0));
        assert!(matches!(e.kind(), ErrorKind::Truncated { .. }));
    }

    #[test]
    fn strings_are_borrowed_and_checked() {
        let data = b"\x00\x05caf\xc3\xa9!";
        let mut cur = Cursor::new(Bytes::new(data), 1);
        let s = read(&mut cur, "s").unwrap();
        assert_eq!((s, cur.offset()), ("caf\u{e9}", 7));
        let bad = b"\x03ab\xff";
        let mut cur = Cursor::new(Bytes::new(bad), 0);
        let e = read(&mut cur, "s").unwrap_err();
        assert_eq!((e.offset(), cur.offset()), (3, 0));
        assert!(matches!(
            e.kind(),
            ErrorKind::InvalidValue { value: 0xff, .. }
        ));
        let short = b"\x09abc";
        assert!(matches!(
            read(&mut Cursor::new(Bytes::new(short), 0), "s")
                .unwrap_err()
                .kind(),
            ErrorKind::Truncated {
                needed: 9,
                available: 3
            }
        ));
    }
}

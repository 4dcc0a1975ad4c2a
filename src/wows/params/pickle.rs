//! The pickle's opcodes (protocols 0–2), read one at a time without building values: the one
//! tokenizer under both the index pass (which only follows the stack's shape) and the decoder
//! (which builds values on demand). Numbers and strings stay text here; they are parsed only when
//! a value is asked for, so that indexing a 30 MB pickle parses no float it does not need.

use crate::error::{Error, ErrorKind, Result};

/// How a string opcode stores its bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StrForm {
    /// `S'…'` (protocol 0): a Python 2 `repr`, with backslash escapes; the quotes removed.
    Escaped,
    /// `T`/`U` (binary protocols): the bytes as they are.
    Raw,
    /// `V…` (protocol 0 unicode): raw-unicode-escape (`\uXXXX`, `\UXXXXXXXX`, other bytes latin-1).
    RawUnicodeEscape,
    /// `X` (binary protocols, unicode): UTF-8.
    Utf8,
}

/// One opcode with its argument, borrowed from the pickle.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Op<'a> {
    /// `(`
    Mark,
    /// `.`
    Stop,
    /// `0`
    Pop,
    /// `1`
    PopMark,
    /// `2`
    Dup,
    /// `I…` (text, `I01`/`I00` are bools) or `L…L` (text, Python 2 long).
    IntText(&'a [u8]),
    /// `J`, `K`, `M`: binary ints.
    Int(i64),
    /// `\x8a`/`\x8b`: a little-endian two's-complement long.
    LongBytes(&'a [u8]),
    /// `I01`/`I00`, `\x88`/`\x89`.
    Bool(bool),
    /// `F…` (repr text).
    FloatText(&'a [u8]),
    /// `G`: a big-endian double.
    Float(f64),
    /// A byte string (`S`, `T`, `U`) or a unicode string (`V`, `X`).
    Str(StrForm, &'a [u8]),
    /// `N`
    None,
    /// `a`
    Append,
    /// `e`
    Appends,
    /// `l` (mark-based)
    List,
    /// `]`
    EmptyList,
    /// `d` (mark-based)
    Dict,
    /// `}`
    EmptyDict,
    /// `s`
    SetItem,
    /// `u`
    SetItems,
    /// `t` (mark-based)
    Tuple,
    /// `)`
    EmptyTuple,
    /// `\x85`, `\x86`, `\x87`: a tuple of the 1–3 values on top.
    TupleN(u8),
    /// `g`, `h`, `j`: a memo get.
    Get(u32),
    /// `p`, `q`, `r`: a memo put.
    Put(u32),
    /// `c module\nname\n`
    Global(&'a [u8], &'a [u8]),
    /// `R`
    Reduce,
    /// `b`
    Build,
    /// `i module\nname\n` (mark-based instance)
    Inst(&'a [u8], &'a [u8]),
    /// `o` (mark-based: class, args…)
    Obj,
    /// `\x81`
    NewObj,
    /// `\x80 n`
    Proto(u8),
}

const WHAT: &str = "pickle opcode";

/// The offset as the error type's `u64`.
#[inline]
pub(crate) fn at(pos: usize) -> u64 {
    pos as u64
}

/// The line that starts at `pos` (an opcode's text argument), without its `\n`, and the offset
/// after it.
#[inline]
fn line<'a>(data: &'a [u8], pos: usize, what: &'static str) -> Result<(&'a [u8], usize)> {
    let rest = data.get(pos..).unwrap_or(&[]);
    match newline(rest) {
        Some(n) => Ok((&rest[..n], pos + n + 1)),
        None => Err(Error::new(
            at(pos),
            what,
            ErrorKind::InvalidValue {
                value: rest.len() as u64,
                reason: "the opcode's text argument has no end of line (truncated pickle?)",
            },
        )),
    }
}

/// The first `\n` in `bytes`: eight bytes at a time (a word's zero-byte test on the bytes XOR
/// `\n`), the text arguments of a pickle being most of its bytes.
#[inline]
fn newline(bytes: &[u8]) -> Option<usize> {
    const LO: u64 = 0x0101_0101_0101_0101;
    const HI: u64 = 0x8080_8080_8080_8080;
    const NL: u64 = LO * b'\n' as u64;
    let mut chunks = bytes.chunks_exact(8);
    let mut at = 0;
    for chunk in &mut chunks {
        let mut word = [0u8; 8];
        word.copy_from_slice(chunk);
        let x = u64::from_le_bytes(word) ^ NL;
        let found = x.wrapping_sub(LO) & !x & HI;
        if found != 0 {
            return Some(at + (found.trailing_zeros() / 8) as usize);
        }
        at += 8;
    }
    chunks
        .remainder()
        .iter()
        .position(|&b| b == b'\n')
        .map(|i| at + i)
}

#[inline]
fn take<'a>(data: &'a [u8], pos: usize, n: usize, what: &'static str) -> Result<&'a [u8]> {
    match pos.checked_add(n).and_then(|end| data.get(pos..end)) {
        Some(b) => Ok(b),
        None => Err(Error::truncated(
            at(pos),
            what,
            n as u64,
            data.len().saturating_sub(pos) as u64,
        )),
    }
}

#[inline]
fn le_u32(b: &[u8]) -> u32 {
    let mut a = [0u8; 4];
    a.copy_from_slice(&b[..4.min(b.len())]);
    u32::from_le_bytes(a)
}

/// A decimal memo id (`p12\n`, `g12\n`).
fn memo_id(text: &[u8], pos: usize) -> Result<u32> {
    parse_u32(text).ok_or(Error::invalid(
        at(pos),
        "pickle memo id",
        text.len() as u64,
        "a text memo id must be a decimal number below 2^32",
    ))
}

pub(crate) fn parse_u32(text: &[u8]) -> Option<u32> {
    if text.is_empty() || text.len() > 10 {
        return None;
    }
    let mut n: u64 = 0;
    for &b in text {
        if !b.is_ascii_digit() {
            return None;
        }
        n = n * 10 + u64::from(b - b'0');
    }
    u32::try_from(n).ok()
}

/// A protocol-0 memo id (`g12\n`, `p12\n`: the text after the opcode at `p`) and the offset
/// after its newline, in the one form every pickler writes (1–10 digits below 2^32, then `\n`);
/// `None` for anything else, which [`read_op`] then reads (and names what is wrong with it). The
/// index pass's fast path: no second scan for the newline.
#[inline]
pub(crate) fn text_id(data: &[u8], p: usize) -> Option<(u32, usize)> {
    let rest = data.get(p..)?;
    let mut n: u64 = 0;
    for (i, &b) in rest.iter().take(11).enumerate() {
        if b == b'\n' {
            return if i == 0 {
                None
            } else {
                u32::try_from(n).ok().map(|v| (v, p + i + 1))
            };
        }
        if !b.is_ascii_digit() {
            return None;
        }
        n = n * 10 + u64::from(b - b'0');
    }
    None
}

/// The offset after the newline that ends the text argument starting at `p` (`I`, `L`, `F`);
/// `None` when there is none ([`read_op`] then says so).
#[inline]
pub(crate) fn text_end(data: &[u8], p: usize) -> Option<usize> {
    let rest = data.get(p..)?;
    newline(rest).map(|n| p + n + 1)
}

/// Reads the opcode at `pos` and returns it with the offset of the next one.
#[inline]
pub fn read_op(data: &[u8], pos: usize) -> Result<(Op<'_>, usize)> {
    let Some(&code) = data.get(pos) else {
        return Err(Error::new(
            at(pos),
            WHAT,
            ErrorKind::InvalidValue {
                value: 0,
                reason: "the pickle ends without its STOP opcode (truncated?)",
            },
        ));
    };
    let p = pos + 1;
    Ok(match code {
        b'(' => (Op::Mark, p),
        b'.' => (Op::Stop, p),
        b'0' => (Op::Pop, p),
        b'1' => (Op::PopMark, p),
        b'2' => (Op::Dup, p),
        b'N' => (Op::None, p),
        b'a' => (Op::Append, p),
        b'e' => (Op::Appends, p),
        b'l' => (Op::List, p),
        b']' => (Op::EmptyList, p),
        b'd' => (Op::Dict, p),
        b'}' => (Op::EmptyDict, p),
        b's' => (Op::SetItem, p),
        b'u' => (Op::SetItems, p),
        b't' => (Op::Tuple, p),
        b')' => (Op::EmptyTuple, p),
        0x85 => (Op::TupleN(1), p),
        0x86 => (Op::TupleN(2), p),
        0x87 => (Op::TupleN(3), p),
        b'R' => (Op::Reduce, p),
        b'b' => (Op::Build, p),
        b'o' => (Op::Obj, p),
        0x81 => (Op::NewObj, p),
        0x88 => (Op::Bool(true), p),
        0x89 => (Op::Bool(false), p),
        b'I' => {
            let (text, next) = line(data, p, "pickle INT")?;
            match text {
                b"01" => (Op::Bool(true), next),
                b"00" => (Op::Bool(false), next),
                _ => (Op::IntText(text), next),
            }
        }
        b'L' => {
            let (text, next) = line(data, p, "pickle LONG")?;
            let text = text.strip_suffix(b"L").unwrap_or(text);
            (Op::IntText(text), next)
        }
        b'F' => {
            let (text, next) = line(data, p, "pickle FLOAT")?;
            (Op::FloatText(text), next)
        }
        b'J' => {
            let b = take(data, p, 4, "pickle BININT")?;
            (Op::Int(i64::from(le_u32(b) as i32)), p + 4)
        }
        b'K' => {
            let b = take(data, p, 1, "pickle BININT1")?;
            (Op::Int(i64::from(b[0])), p + 1)
        }
        b'M' => {
            let b = take(data, p, 2, "pickle BININT2")?;
            (Op::Int(i64::from(u16::from_le_bytes([b[0], b[1]]))), p + 2)
        }
        0x8a => {
            let n = take(data, p, 1, "pickle LONG1")?[0] as usize;
            (
                Op::LongBytes(take(data, p + 1, n, "pickle LONG1")?),
                p + 1 + n,
            )
        }
        0x8b => {
            let n = le_u32(take(data, p, 4, "pickle LONG4")?) as usize;
            (
                Op::LongBytes(take(data, p + 4, n, "pickle LONG4")?),
                p + 4 + n,
            )
        }
        b'G' => {
            let b = take(data, p, 8, "pickle BINFLOAT")?;
            let mut a = [0u8; 8];
            a.copy_from_slice(b);
            (Op::Float(f64::from_be_bytes(a)), p + 8)
        }
        b'S' => {
            let (text, next) = line(data, p, "pickle STRING")?;
            let inner = match text {
                [q @ (b'\'' | b'"'), inner @ .., last] if last == q => inner,
                _ => {
                    return Err(Error::invalid(
                        at(p),
                        "pickle STRING",
                        text.len() as u64,
                        "a protocol-0 string must be quoted with ' or \" at both ends",
                    ));
                }
            };
            (Op::Str(StrForm::Escaped, inner), next)
        }
        b'V' => {
            let (text, next) = line(data, p, "pickle UNICODE")?;
            (Op::Str(StrForm::RawUnicodeEscape, text), next)
        }
        b'T' => {
            let n = le_u32(take(data, p, 4, "pickle BINSTRING")?) as usize;
            (
                Op::Str(StrForm::Raw, take(data, p + 4, n, "pickle BINSTRING")?),
                p + 4 + n,
            )
        }
        b'U' => {
            let n = take(data, p, 1, "pickle SHORT_BINSTRING")?[0] as usize;
            (
                Op::Str(
                    StrForm::Raw,
                    take(data, p + 1, n, "pickle SHORT_BINSTRING")?,
                ),
                p + 1 + n,
            )
        }
        b'X' => {
            let n = le_u32(take(data, p, 4, "pickle BINUNICODE")?) as usize;
            (
                Op::Str(StrForm::Utf8, take(data, p + 4, n, "pickle BINUNICODE")?),
                p + 4 + n,
            )
        }
        b'g' => {
            let (text, next) = line(data, p, "pickle GET")?;
            (Op::Get(memo_id(text, p)?), next)
        }
        b'h' => (
            Op::Get(u32::from(take(data, p, 1, "pickle BINGET")?[0])),
            p + 1,
        ),
        b'j' => (
            Op::Get(le_u32(take(data, p, 4, "pickle LONG_BINGET")?)),
            p + 4,
        ),
        b'p' => {
            let (text, next) = line(data, p, "pickle PUT")?;
            (Op::Put(memo_id(text, p)?), next)
        }
        b'q' => (
            Op::Put(u32::from(take(data, p, 1, "pickle BINPUT")?[0])),
            p + 1,
        ),
        b'r' => (
            Op::Put(le_u32(take(data, p, 4, "pickle LONG_BINPUT")?)),
            p + 4,
        ),
        b'c' | b'i' => {
            let what = if code == b'c' {
                "pickle GLOBAL"
            } else {
                "pickle INST"
            };
            let (module, next) = line(data, p, what)?;
            let (name, next) = line(data, next, what)?;
            if code == b'c' {
                (Op::Global(module, name), next)
            } else {
                (Op::Inst(module, name), next)
            }
        }
        0x80 => {
            let v = take(data, p, 1, "pickle PROTO")?[0];
            if v > 2 {
                return Err(Error::new(
                    at(pos),
                    "pickle PROTO",
                    ErrorKind::UnsupportedVersion {
                        found: u64::from(v),
                    },
                ));
            }
            (Op::Proto(v), p + 1)
        }
        _ => {
            return Err(Error::invalid(
                at(pos),
                WHAT,
                u64::from(code),
                "not an opcode of pickle protocols 0-2 (persistent ids and the extension registry are not read either)",
            ));
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_and_binary_opcodes() {
        let p = b"I01\nI12\nL5L\nS'a\\'b'\np3\ng3\n\x80\x02K\x05q\x01h\x01cGameParams\nGPData\n.";
        let mut pos = 0;
        let mut ops = Vec::new();
        loop {
            let (op, next) = read_op(p, pos).unwrap();
            ops.push(op);
            pos = next;
            if op == Op::Stop {
                break;
            }
        }
        assert_eq!(
            ops,
            vec![
                Op::Bool(true),
                Op::IntText(b"12"),
                Op::IntText(b"5"),
                Op::Str(StrForm::Escaped, b"a\\'b"),
                Op::Put(3),
                Op::Get(3),
                Op::Proto(2),
                Op::Int(5),
                Op::Put(1),
                Op::Get(1),
                Op::Global(b"GameParams", b"GPData"),
                Op::Stop,
            ]
        );
    }

    #[test]
    fn newline_is_found_in_every_position() {
        for len in 0..40 {
            for nl in 0..=len {
                let mut b = vec![b'x'; len];
                if nl < len {
                    b[nl] = b'\n';
                    // Bytes that differ from \n by one bit around it must not match.
                    if nl > 0 {
                        b[nl - 1] = b'\n' ^ 0x80;
                    }
                }
                let want = b.iter().position(|&c| c == b'\n');
                assert_eq!(newline(&b), want, "{len} {nl}");
            }
        }
        assert_eq!(newline(b"\x0b\x0a"), Some(1));
        assert_eq!(newline(b"\x8a\x0b\x09\x0a"), Some(3));
    }

    #[test]
    fn text_ids_read_as_read_op_reads_them() {
        let cases: &[&[u8]] = &[
            b"0\n",
            b"7\n",
            b"12\n",
            b"1234567\n",
            b"12345678\n",
            b"4294967295\n",
            b"4294967296\n",
            b"99999999999\n",
            b"\n",
            b"1a\n",
            b"1/\n",
            b"1:\n",
            b"-1\n",
            b" 1\n",
            b"12",
            b"",
            b"1234567",
            b"\xb1\n",
            b"9\n\n\n\n\n\n\n\n",
        ];
        for c in cases {
            for pad in [&b""[..], b"........"] {
                let mut d = b"g".to_vec();
                d.extend_from_slice(c);
                d.extend_from_slice(pad);
                let want = match read_op(&d, 0) {
                    Ok((Op::Get(id), next)) => Some((id, next)),
                    _ => None,
                };
                assert_eq!(text_id(&d, 1), want, "{:?}", String::from_utf8_lossy(&d));
            }
        }
        for id in [
            0u32, 9, 10, 99, 100, 65535, 999_999, 1_000_000, 9_999_999, 10_000_000,
        ] {
            let d = format!("p{id}\nxxxxxxxx");
            assert_eq!(text_id(d.as_bytes(), 1).map(|(v, _)| v), Some(id));
        }
    }

    #[test]
    fn bad_opcodes_are_errors() {
        assert!(read_op(b"\xff", 0).is_err());
        assert!(read_op(b"", 0).is_err());
        assert!(read_op(b"S'abc\n", 0).is_err());
        assert!(read_op(b"T\xff\xff\xff\xffab", 0).is_err());
        assert!(read_op(b"g99999999999\n", 0).is_err());
        assert!(read_op(b"\x80\x05", 0).is_err());
        assert!(read_op(b"I12", 0).is_err());
    }
}

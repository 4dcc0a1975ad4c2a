//! JSON as dataminers know it, written as it goes (no JSON library): each object as its state
//! dict; tuples and sets as arrays; dict keys that are not strings as Python's `json` writes them
//! (`1`, `1.5`, `true`, `false`, `null`), tuple keys by their Python `repr`; floats as Python's
//! `repr` writes them (`167.0`, `0.6`, `1e-05`, `1e+16`; NaN and infinities as `NaN`,
//! `Infinity`, `-Infinity`, as Python's `json` does by default).
//!
//! Byte strings that are not UTF-8 are kept as their latin-1 reading (each byte the character of
//! its value, `\xe9` → `é`): lossless, since encoding the text as latin-1 gives the bytes back;
//! `check` counts them. Text is written as UTF-8 (Python's `ensure_ascii=False`), with `"`, `\`
//! and control characters escaped.
//!
//! A value that refers to a value containing it (a cycle, never in the game's files) is written
//! as the string `"<cycle: memo N>"`; a class named and not called as `"module.name"`; an object
//! without state as `{}`, or as the array of its arguments when it has some.

use std::io::{self, Write};

use crate::wows::params::strings::latin1;
use crate::wows::params::value::Value;

/// How the JSON is laid out.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Layout {
    /// No whitespace (`{"a":1,"b":[1,2]}`).
    #[default]
    Compact,
    /// Indented by two spaces per level, `": "` after keys.
    Pretty,
}

/// Writes `v` as JSON to `w`, starting at indentation `level` (for pretty output inside an
/// enclosing object).
pub fn write_value<W: Write>(
    w: &mut W,
    v: &Value<'_>,
    layout: Layout,
    level: usize,
) -> io::Result<()> {
    match v {
        Value::None => w.write_all(b"null"),
        Value::Bool(true) => w.write_all(b"true"),
        Value::Bool(false) => w.write_all(b"false"),
        Value::Int(i) => write_int(w, *i),
        Value::BigInt(s) => w.write_all(s.as_bytes()),
        Value::Float(f) => {
            let mut buf = [0u8; FLOAT_LEN];
            let n = float_repr(*f, &mut buf);
            w.write_all(buf.get(..n).unwrap_or(&[]))
        }
        Value::Bytes(b) => match core::str::from_utf8(b) {
            Ok(s) => write_str(w, s),
            Err(_) => write_str(w, &latin1(b)),
        },
        Value::Str(s) => write_str(w, s),
        Value::Tuple(items) | Value::List(items) | Value::Set(items) => {
            write_array(w, items, layout, level)
        }
        Value::Dict(pairs) => write_object(w, pairs, layout, level),
        Value::Object(o) => match (&o.state, o.args.is_empty()) {
            (Some(state), _) => write_value(w, state, layout, level),
            (None, true) => w.write_all(b"{}"),
            (None, false) => write_array(w, &o.args, layout, level),
        },
        Value::Global(g) => write_str(w, &g.to_string()),
        Value::Ref(id) => write_str(w, &format!("<cycle: memo {id}>")),
    }
}

fn newline<W: Write>(w: &mut W, layout: Layout, level: usize) -> io::Result<()> {
    if layout == Layout::Pretty {
        w.write_all(b"\n")?;
        for _ in 0..level {
            w.write_all(b"  ")?;
        }
    }
    Ok(())
}

fn write_array<W: Write>(
    w: &mut W,
    items: &[Value<'_>],
    layout: Layout,
    level: usize,
) -> io::Result<()> {
    if items.is_empty() {
        return w.write_all(b"[]");
    }
    w.write_all(b"[")?;
    for (i, item) in items.iter().enumerate() {
        if i > 0 {
            w.write_all(b",")?;
        }
        newline(w, layout, level + 1)?;
        write_value(w, item, layout, level + 1)?;
    }
    newline(w, layout, level)?;
    w.write_all(b"]")
}

fn write_object<W: Write>(
    w: &mut W,
    pairs: &[(Value<'_>, Value<'_>)],
    layout: Layout,
    level: usize,
) -> io::Result<()> {
    if pairs.is_empty() {
        return w.write_all(b"{}");
    }
    w.write_all(b"{")?;
    for (i, (k, v)) in pairs.iter().enumerate() {
        if i > 0 {
            w.write_all(b",")?;
        }
        newline(w, layout, level + 1)?;
        write_key(w, k)?;
        w.write_all(if layout == Layout::Pretty {
            b": "
        } else {
            b":"
        })?;
        write_value(w, v, layout, level + 1)?;
    }
    newline(w, layout, level)?;
    w.write_all(b"}")
}

/// A dict key as Python's `json` turns it into a string (tuples by their `repr`).
pub fn write_key<W: Write>(w: &mut W, k: &Value<'_>) -> io::Result<()> {
    match k {
        Value::Bytes(_) | Value::Str(_) => write_value(w, k, Layout::Compact, 0),
        _ => write_str(w, &key_text(k)),
    }
}

/// The text of a key that is not a string, as Python's `json` writes it.
pub fn key_text(k: &Value<'_>) -> String {
    match k {
        Value::None => "null".into(),
        Value::Bool(true) => "true".into(),
        Value::Bool(false) => "false".into(),
        Value::Int(i) => i.to_string(),
        Value::BigInt(s) => s.to_string(),
        Value::Float(f) => py_float(*f),
        Value::Bytes(b) => match core::str::from_utf8(b) {
            Ok(s) => s.to_string(),
            Err(_) => latin1(b),
        },
        Value::Str(s) => s.to_string(),
        other => py_repr(other),
    }
}

/// Python 3's `repr` of a value whose strings are text (how a tuple key is named).
pub fn py_repr(v: &Value<'_>) -> String {
    let mut s = String::new();
    repr_into(&mut s, v);
    s
}

fn repr_into(s: &mut String, v: &Value<'_>) {
    match v {
        Value::None => s.push_str("None"),
        Value::Bool(true) => s.push_str("True"),
        Value::Bool(false) => s.push_str("False"),
        Value::Int(i) => s.push_str(&i.to_string()),
        Value::BigInt(d) => s.push_str(d),
        Value::Float(f) => s.push_str(&match py_float(*f).as_str() {
            "NaN" => "nan".to_string(),
            "Infinity" => "inf".to_string(),
            "-Infinity" => "-inf".to_string(),
            other => other.to_string(),
        }),
        Value::Bytes(b) => match core::str::from_utf8(b) {
            Ok(t) => repr_str(s, t),
            Err(_) => repr_str(s, &latin1(b)),
        },
        Value::Str(t) => repr_str(s, t),
        Value::Tuple(items) => {
            s.push('(');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    s.push_str(", ");
                }
                repr_into(s, item);
            }
            if items.len() == 1 {
                s.push(',');
            }
            s.push(')');
        }
        Value::List(items) | Value::Set(items) => {
            s.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    s.push_str(", ");
                }
                repr_into(s, item);
            }
            s.push(']');
        }
        Value::Dict(_) | Value::Object(_) | Value::Global(_) | Value::Ref(_) => {
            s.push_str(&format!("{v:?}"));
        }
    }
}

/// Python's `repr` of a str: single quotes unless the text has `'` and no `"`.
fn repr_str(s: &mut String, t: &str) {
    let q = if t.contains('\'') && !t.contains('"') {
        '"'
    } else {
        '\''
    };
    s.push(q);
    for c in t.chars() {
        match c {
            '\\' => s.push_str("\\\\"),
            '\n' => s.push_str("\\n"),
            '\r' => s.push_str("\\r"),
            '\t' => s.push_str("\\t"),
            c if c == q => {
                s.push('\\');
                s.push(c);
            }
            c if (c as u32) < 0x20 || c as u32 == 0x7f => {
                s.push_str(&format!("\\x{:02x}", c as u32))
            }
            c => s.push(c),
        }
    }
    s.push(q);
}

/// A JSON string.
pub fn write_str<W: Write>(w: &mut W, s: &str) -> io::Result<()> {
    w.write_all(b"\"")?;
    let bytes = s.as_bytes();
    let mut from = 0;
    for (i, &b) in bytes.iter().enumerate() {
        let esc: &[u8] = match b {
            b'"' => b"\\\"",
            b'\\' => b"\\\\",
            b'\n' => b"\\n",
            b'\r' => b"\\r",
            b'\t' => b"\\t",
            0x08 => b"\\b",
            0x0c => b"\\f",
            0..=0x1f => b"",
            _ => continue,
        };
        w.write_all(&bytes[from..i])?;
        if esc.is_empty() {
            write!(w, "\\u{b:04x}")?;
        } else {
            w.write_all(esc)?;
        }
        from = i + 1;
    }
    w.write_all(&bytes[from..])?;
    w.write_all(b"\"")
}

/// An int in decimal, without the formatting machinery.
fn write_int<W: Write>(w: &mut W, i: i64) -> io::Result<()> {
    let mut buf = [0u8; 20];
    let n = digits(i.unsigned_abs(), &mut buf);
    if i < 0 {
        w.write_all(b"-")?;
    }
    w.write_all(buf.get(buf.len() - n..).unwrap_or(&[]))
}

/// Writes `v`'s decimal digits at the end of `buf` and returns how many.
fn digits(mut v: u64, buf: &mut [u8; 20]) -> usize {
    let mut at = buf.len();
    loop {
        at -= 1;
        buf[at] = b'0' + (v % 10) as u8;
        v /= 10;
        if v == 0 {
            return buf.len() - at;
        }
    }
}

/// The longest float text: a sign, 17 digits, a point, `e-308`.
const FLOAT_LEN: usize = 32;

/// A `fmt::Write` into a buffer on the stack (the longest shortest-digits text of a double fits).
struct StackText {
    buf: [u8; FLOAT_LEN],
    len: usize,
}

impl core::fmt::Write for StackText {
    fn write_str(&mut self, s: &str) -> core::fmt::Result {
        let end = self.len + s.len();
        let dst = self.buf.get_mut(self.len..end).ok_or(core::fmt::Error)?;
        dst.copy_from_slice(s.as_bytes());
        self.len = end;
        Ok(())
    }
}

/// A float as Python's `repr` (and `json`) writes it: the shortest digits that read back,
/// fixed notation for exponents from -4 to 15, otherwise `d.ddde±XX`.
pub fn py_float(f: f64) -> String {
    let mut buf = [0u8; FLOAT_LEN];
    let n = float_repr(f, &mut buf);
    String::from_utf8_lossy(buf.get(..n).unwrap_or(&[])).into_owned()
}

/// [`py_float`] into `out`, returning the length written (no allocation). Two fast paths for the
/// floats game files are full of (`170.0`, `33.2346`): an integral value below 10^16 is its
/// integer and `.0`; a value from 10^-4 to 10^15 is written with the fewest decimals `d` whose
/// `round(f * 10^d) / 10^d` reads back as `f` (both exact doubles, the division correctly rounded:
/// what reading the text gives), up to 15 significant digits (two decimals of 15 digits or fewer
/// are never the same double, so the one found is the shortest repr's). Anything else takes the
/// shortest digits from Rust's formatter.
fn float_repr(f: f64, out: &mut [u8; FLOAT_LEN]) -> usize {
    let text = |out: &mut [u8; FLOAT_LEN], s: &[u8]| {
        out[..s.len()].copy_from_slice(s);
        s.len()
    };
    if f.is_nan() {
        return text(out, b"NaN");
    }
    if f.is_infinite() {
        return text(out, if f > 0.0 { b"Infinity" } else { b"-Infinity" });
    }
    let neg = f.is_sign_negative();
    let a = f.abs();
    let mut len = 0;
    if neg {
        out[0] = b'-';
        len = 1;
    }
    const POW10: [f64; 16] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
    ];
    let mut d_buf = [0u8; 20];
    if a < 1e16 && a.fract() == 0.0 {
        let n = digits(a as u64, &mut d_buf);
        out[len..len + n].copy_from_slice(&d_buf[20 - n..]);
        out[len + n..len + n + 2].copy_from_slice(b".0");
        return len + n + 2;
    }
    if (1e-4..1e15).contains(&a) {
        for (d, &p) in POW10.iter().enumerate().skip(1) {
            let s = (a * p).round();
            if s >= 1e15 {
                break;
            }
            if s / p == a {
                let n = digits(s as u64, &mut d_buf);
                let digits = &d_buf[20 - n..];
                if n > d {
                    let int = n - d;
                    out[len..len + int].copy_from_slice(&digits[..int]);
                    out[len + int] = b'.';
                    out[len + int + 1..len + n + 1].copy_from_slice(&digits[int..]);
                    return len + n + 1;
                }
                out[len..len + 2].copy_from_slice(b"0.");
                let zeros = d - n;
                out[len + 2..len + 2 + zeros].fill(b'0');
                out[len + 2 + zeros..len + 2 + d].copy_from_slice(digits);
                return len + 2 + d;
            }
        }
    }
    // Rust's `{:e}` gives the shortest round-trip digits: `1.5e-5`.
    let mut e = StackText {
        buf: [0; FLOAT_LEN],
        len: 0,
    };
    if core::fmt::Write::write_fmt(&mut e, format_args!("{a:e}")).is_err() {
        return len;
    }
    let e = &e.buf[..e.len];
    let (mantissa, exp) = match e.iter().position(|&c| c == b'e') {
        Some(at) => (&e[..at], &e[at + 1..]),
        None => (e, &b"0"[..]),
    };
    let exp: i32 = core::str::from_utf8(exp)
        .ok()
        .and_then(|x| x.parse().ok())
        .unwrap_or(0);
    let mut dg = [0u8; FLOAT_LEN];
    let mut nd = 0;
    for &c in mantissa.iter().filter(|&&c| c != b'.') {
        dg[nd] = c;
        nd += 1;
    }
    let digits = &dg[..nd];
    let mut put = |bytes: &[u8]| {
        out[len..len + bytes.len()].copy_from_slice(bytes);
        len += bytes.len();
    };
    if (-4..16).contains(&exp) {
        let point = exp + 1; // digits before the decimal point
        if point <= 0 {
            put(b"0.");
            for _ in 0..(-point) {
                put(b"0");
            }
            put(digits);
        } else {
            let point = point as usize;
            if digits.len() <= point {
                put(digits);
                for _ in digits.len()..point {
                    put(b"0");
                }
                put(b".0");
            } else {
                put(&digits[..point]);
                put(b".");
                put(&digits[point..]);
            }
        }
    } else {
        put(&digits[..1]);
        if digits.len() > 1 {
            put(b".");
            put(&digits[1..]);
        }
        put(b"e");
        put(if exp < 0 { b"-" } else { b"+" });
        let x = exp.unsigned_abs();
        if x < 10 {
            put(b"0");
        }
        let n = digits_u32(x, &mut d_buf);
        put(&d_buf[20 - n..]);
    }
    len
}

fn digits_u32(x: u32, buf: &mut [u8; 20]) -> usize {
    digits(u64::from(x), buf)
}

/// Writes one JSON object of `entries` (name, value), as they come: the whole file's export
/// (`{"PJSD012_Shimakaze_1943": {...}, ...}`), one entry in memory at a time.
pub fn write_entries<'v, W, I, E>(w: &mut W, entries: I, layout: Layout) -> Result<(), E>
where
    W: Write,
    I: Iterator<Item = Result<(std::borrow::Cow<'v, str>, Value<'v>), E>>,
    E: From<io::Error>,
{
    w.write_all(b"{")?;
    let mut first = true;
    for entry in entries {
        let (name, value) = entry?;
        if !first {
            w.write_all(b",")?;
        }
        first = false;
        newline(w, layout, 1)?;
        write_str(w, &name)?;
        w.write_all(if layout == Layout::Pretty {
            b": "
        } else {
            b":"
        })?;
        write_value(w, &value, layout, 1)?;
    }
    if !first {
        newline(w, layout, 0)?;
    }
    w.write_all(b"}")?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::borrow::Cow;

    #[test]
    fn floats_as_python_writes_them() {
        for (f, s) in [
            (167.0, "167.0"),
            (0.6, "0.6"),
            // Python 2 wrote 0.6 as 0.59999999999999998: the same double.
            ("0.59999999999999998".parse().unwrap(), "0.6"),
            (1e-5, "1e-05"),
            (0.0001, "0.0001"),
            (1e16, "1e+16"),
            (123456789012345.6, "123456789012345.6"),
            (-0.0, "-0.0"),
            (1.5e300, "1.5e+300"),
            (f64::NAN, "NaN"),
        ] {
            assert_eq!(py_float(f), s);
        }
    }

    /// The writer before its fast paths, as the oracle.
    /// A float as Python's `repr` (and `json`) writes it: the shortest digits that read back,
    /// fixed notation for exponents from -4 to 15, otherwise `d.ddde±XX`.
    fn py_float_formatted(f: f64) -> String {
        if f.is_nan() {
            return "NaN".into();
        }
        if f.is_infinite() {
            return if f > 0.0 {
                "Infinity".into()
            } else {
                "-Infinity".into()
            };
        }
        // Rust's `{:e}` gives the shortest round-trip digits: `-1.5e-5`.
        let e = format!("{f:e}");
        let (neg, e) = match e.strip_prefix('-') {
            Some(rest) => (true, rest),
            None => (false, e.as_str()),
        };
        let (mantissa, exp) = e.split_once('e').unwrap_or((e, "0"));
        let exp: i32 = exp.parse().unwrap_or(0);
        let digits: String = mantissa.chars().filter(|c| *c != '.').collect();
        let mut out = String::with_capacity(24);
        if neg {
            out.push('-');
        }
        if (-4..16).contains(&exp) {
            let point = exp + 1; // digits before the decimal point
            if point <= 0 {
                out.push_str("0.");
                for _ in 0..(-point) {
                    out.push('0');
                }
                out.push_str(&digits);
            } else {
                let point = point as usize;
                if digits.len() <= point {
                    out.push_str(&digits);
                    for _ in digits.len()..point {
                        out.push('0');
                    }
                    out.push_str(".0");
                } else {
                    out.push_str(&digits[..point]);
                    out.push('.');
                    out.push_str(&digits[point..]);
                }
            }
        } else {
            out.push_str(&digits[..1]);
            if digits.len() > 1 {
                out.push('.');
                out.push_str(&digits[1..]);
            }
            out.push('e');
            out.push(if exp < 0 { '-' } else { '+' });
            out.push_str(&format!("{:02}", exp.unsigned_abs()));
        }
        out
    }

    #[test]
    fn fast_floats_match_the_formatter() {
        let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        let check = |f: f64| assert_eq!(py_float(f), py_float_formatted(f), "{f:e}");
        for _ in 0..200_000 {
            let r = next();
            // Any double.
            check(f64::from_bits(r));
            // Decimals of a few digits, as game files have them.
            let digits = (r % 1_000_000_000) as f64;
            let scale = [
                1.0, 10.0, 100.0, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e12,
            ][(r >> 40) as usize % 12];
            check(digits / scale);
            check(-digits / scale);
            check((r >> 20) as f64 / 1e15);
            check((r % 100_000) as f64 * 0.1);
        }
        for f in [
            0.1,
            0.2,
            0.3,
            1e-4,
            9.999e-5,
            1e-5,
            1e15,
            999999999999999.9,
            1e16,
            1e16 - 2.0,
            0.5,
            123456789012345.6,
            12345678901234.56,
            4.726349999999999,
            0.47902999999999996,
            0.40900000000000003,
            5e-324,
            f64::MAX,
            f64::MIN_POSITIVE,
            -0.0,
            0.0,
        ] {
            check(f);
            check(-f);
        }
    }

    #[test]
    fn ints_as_decimal() {
        for i in [0, 1, -1, 9, 10, -10, i64::MAX, i64::MIN, 4282101744] {
            let mut out = Vec::new();
            write_int(&mut out, i).unwrap();
            assert_eq!(String::from_utf8(out).unwrap(), i.to_string());
        }
    }

    #[test]
    fn keys_as_python_json_writes_them() {
        assert_eq!(key_text(&Value::Int(1)), "1");
        assert_eq!(key_text(&Value::Float(1.5)), "1.5");
        assert_eq!(key_text(&Value::Bool(true)), "true");
        assert_eq!(key_text(&Value::None), "null");
        let t = Value::Tuple(vec![Value::Bytes(Cow::Borrowed(b"a")), Value::Int(1)]);
        assert_eq!(key_text(&t), "('a', 1)");
        let t1 = Value::Tuple(vec![Value::Str(Cow::Borrowed("it's"))]);
        assert_eq!(key_text(&t1), "(\"it's\",)");
        let mut out = Vec::new();
        write_str(&mut out, "a\"b\\c\n\u{1}é").unwrap();
        assert_eq!(out, "\"a\\\"b\\\\c\\n\\u0001é\"".as_bytes());
    }
}

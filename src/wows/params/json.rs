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

use super::strings::latin1;
use super::value::Value;

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
        Value::Int(i) => write!(w, "{i}"),
        Value::BigInt(s) => w.write_all(s.as_bytes()),
        Value::Float(f) => w.write_all(py_float(*f).as_bytes()),
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

/// A float as Python's `repr` (and `json`) writes it: the shortest digits that read back,
/// fixed notation for exponents from -4 to 15, otherwise `d.ddde±XX`.
pub fn py_float(f: f64) -> String {
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

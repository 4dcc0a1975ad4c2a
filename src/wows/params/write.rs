//! The writer: owned params back to a `GameParams.data` as the game's Python 2 writes it — a
//! protocol-0 pickle (objects through `copy_reg._reconstructor` and BUILD, every string, global
//! and container put in the memo and equal strings shared through it), zlib, every byte reversed.
//! CPython's `pickle` reads it as the same objects.
//!
//! A classic root is written as the list `[params]`, a root by region as the dict
//! `{'': params, region: overrides, …}`.

use std::collections::HashMap;
use std::io::Write as _;

use flate2::Compression;
use flate2::write::ZlibEncoder;

use super::export::json::py_float;
use super::index::RootKind;
use super::model::{EntryModel, ParamsModel, PyValue};
use crate::write_error::{WriteError, WriteResult};

/// The deepest nesting written (the reader's bound).
const MAX_DEPTH: usize = super::index::MAX_DEPTH - 8;

struct Pickler {
    out: Vec<u8>,
    next_memo: u32,
    strings: HashMap<Vec<u8>, u32>,
    unicode: HashMap<String, u32>,
    globals: HashMap<(String, String), u32>,
}

impl Pickler {
    fn put(&mut self) -> u32 {
        let id = self.next_memo;
        self.next_memo += 1;
        let _ = writeln!(self.out, "p{id}");
        id
    }

    fn get(&mut self, id: u32) {
        let _ = writeln!(self.out, "g{id}");
    }

    fn global(&mut self, module: &str, name: &str) {
        let key = (module.to_string(), name.to_string());
        if let Some(&id) = self.globals.get(&key) {
            return self.get(id);
        }
        let _ = writeln!(self.out, "c{module}\n{name}");
        let id = self.put();
        self.globals.insert(key, id);
    }

    fn bytes(&mut self, b: &[u8]) {
        if let Some(&id) = self.strings.get(b) {
            return self.get(id);
        }
        // Python 2's repr of a str: single quotes, \\ \' \t \n \r, other bytes outside
        // printable ASCII as \xNN.
        self.out.extend_from_slice(b"S'");
        for &c in b {
            match c {
                b'\\' => self.out.extend_from_slice(b"\\\\"),
                b'\'' => self.out.extend_from_slice(b"\\'"),
                b'\t' => self.out.extend_from_slice(b"\\t"),
                b'\n' => self.out.extend_from_slice(b"\\n"),
                b'\r' => self.out.extend_from_slice(b"\\r"),
                0x20..=0x7e => self.out.push(c),
                _ => {
                    let _ = write!(self.out, "\\x{c:02x}");
                }
            }
        }
        self.out.extend_from_slice(b"'\n");
        // cPickle puts every string but the empty one in the memo (the game's files show it).
        if !b.is_empty() {
            let id = self.put();
            self.strings.insert(b.to_vec(), id);
        }
    }

    fn unicode(&mut self, s: &str) {
        if let Some(&id) = self.unicode.get(s) {
            return self.get(id);
        }
        // raw-unicode-escape, with `\` and newline escaped as protocol 0 does.
        self.out.push(b'V');
        for c in s.chars() {
            match c {
                '\\' => self.out.extend_from_slice(b"\\u005c"),
                '\n' => self.out.extend_from_slice(b"\\u000a"),
                c if (c as u32) < 0x100 => self.out.push(c as u32 as u8),
                c if (c as u32) < 0x10000 => {
                    let _ = write!(self.out, "\\u{:04x}", c as u32);
                }
                c => {
                    let _ = write!(self.out, "\\U{:08x}", c as u32);
                }
            }
        }
        self.out.push(b'\n');
        let id = self.put();
        self.unicode.insert(s.to_string(), id);
    }

    fn value(&mut self, v: &PyValue, depth: usize) -> WriteResult<()> {
        if depth > MAX_DEPTH {
            return Err(WriteError::invalid(
                "value",
                depth as u64,
                "nested deeper than the reader reads",
            ));
        }
        match v {
            PyValue::None => self.out.push(b'N'),
            PyValue::Bool(b) => self
                .out
                .extend_from_slice(if *b { b"I01\n" } else { b"I00\n" }),
            PyValue::Int(i) => {
                let _ = writeln!(self.out, "I{i}");
            }
            PyValue::BigInt(d) => {
                let digits = d.strip_prefix('-').unwrap_or(d);
                if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
                    return Err(WriteError::invalid(
                        "BigInt",
                        d.len() as u64,
                        "not decimal digits",
                    ));
                }
                let _ = writeln!(self.out, "L{d}L");
            }
            PyValue::Float(f) => {
                let text = match py_float(*f).as_str() {
                    "NaN" => "nan".to_string(),
                    "Infinity" => "inf".to_string(),
                    "-Infinity" => "-inf".to_string(),
                    t => t.to_string(),
                };
                let _ = writeln!(self.out, "F{text}");
            }
            PyValue::Bytes(b) => self.bytes(b),
            PyValue::Str(s) => self.unicode(s),
            PyValue::Tuple(items) => {
                self.out.push(b'(');
                for item in items {
                    self.value(item, depth + 1)?;
                }
                self.out.extend_from_slice(b"t");
                self.put();
            }
            PyValue::List(items) => {
                self.out.extend_from_slice(b"(l");
                self.put();
                for item in items {
                    self.value(item, depth + 1)?;
                    self.out.push(b'a');
                }
            }
            PyValue::Set(items) => {
                // set([...]) as Python 2 pickles it.
                self.global("__builtin__", "set");
                self.out.extend_from_slice(b"((l");
                self.put();
                for item in items {
                    self.value(item, depth + 1)?;
                    self.out.push(b'a');
                }
                self.out.extend_from_slice(b"tR");
                self.put();
            }
            PyValue::Dict(pairs) => {
                self.dict(pairs, depth)?;
            }
            PyValue::Object(o) => {
                if o.args.is_empty() {
                    self.global("copy_reg", "_reconstructor");
                    self.out.push(b'(');
                    self.global(&o.module, &o.name);
                    self.global("__builtin__", "object");
                    self.out.extend_from_slice(b"NtR");
                } else {
                    self.global(&o.module, &o.name);
                    self.out.push(b'(');
                    for a in &o.args {
                        self.value(a, depth + 1)?;
                    }
                    self.out.extend_from_slice(b"tR");
                }
                self.put();
                if let Some(state) = &o.state {
                    self.value(state, depth + 1)?;
                    self.out.push(b'b');
                }
            }
            PyValue::Global(m, n) => self.global(m, n),
            PyValue::Ref(id) => {
                return Err(WriteError::invalid(
                    "Ref",
                    u64::from(*id),
                    "a cycle read from a file cannot be written back from the owned model",
                ));
            }
        }
        Ok(())
    }

    fn dict(&mut self, pairs: &[(PyValue, PyValue)], depth: usize) -> WriteResult<()> {
        self.out.extend_from_slice(b"(d");
        self.put();
        for (k, v) in pairs {
            self.value(k, depth + 1)?;
            self.value(v, depth + 1)?;
            self.out.push(b's');
        }
        Ok(())
    }

    fn entries(&mut self, entries: &[EntryModel]) -> WriteResult<()> {
        self.out.extend_from_slice(b"(d");
        self.put();
        for (i, (name, v)) in entries.iter().enumerate() {
            self.bytes(name.as_bytes());
            self.value(v, 2).map_err(|e| e.at_index(i))?;
            self.out.push(b's');
        }
        Ok(())
    }
}

impl ParamsModel {
    /// The protocol-0 pickle of the params (what the file inflates to).
    pub fn to_pickle(&self) -> WriteResult<Vec<u8>> {
        let mut p = Pickler {
            out: Vec::new(),
            next_memo: 1,
            strings: HashMap::new(),
            unicode: HashMap::new(),
            globals: HashMap::new(),
        };
        if self.root == RootKind::Dict {
            p.out.extend_from_slice(b"(d");
            p.put();
            p.out.extend_from_slice(b"S''\n");
            p.entries(&self.entries)
                .map_err(|e| e.in_field("entries"))?;
            p.out.push(b's');
            for (name, entries) in &self.regions {
                p.bytes(name.as_bytes());
                p.entries(entries).map_err(|e| e.in_field("regions"))?;
                p.out.push(b's');
            }
        } else {
            p.out.extend_from_slice(b"(l");
            p.put();
            p.entries(&self.entries)
                .map_err(|e| e.in_field("entries"))?;
            p.out.push(b'a');
        }
        p.out.push(b'.');
        Ok(p.out)
    }

    /// The `GameParams.data` file: the pickle, zlib-compressed, every byte reversed.
    pub fn to_bytes(&self) -> WriteResult<Vec<u8>> {
        let pickle = self.to_pickle()?;
        Ok(compress_reversed(&pickle))
    }
}

/// `pickle` as the game stores it: zlib, then every byte reversed.
pub fn compress_reversed(pickle: &[u8]) -> Vec<u8> {
    let mut z = ZlibEncoder::new(
        Vec::with_capacity(pickle.len() / 4 + 64),
        Compression::default(),
    );
    // Writing into a Vec cannot fail.
    let _ = z.write_all(pickle);
    let mut out = z.finish().unwrap_or_default();
    out.reverse();
    out
}

//! The cell references of a workbook, checked before calamine reads them.
//!
//! calamine turns a reference such as `C107` or `A1:D35` into numbers with plain `u32`
//! arithmetic: a run of letters or digits too long for a `u32`, or a range whose end comes before
//! its start, overflows. A build with overflow checks (any debug build of a program that uses
//! gamebin, and the fuzz targets) panics there; a release build wraps to a position the sheet
//! never had. So every value calamine may read as a reference — an `r` or `ref` attribute, in
//! any part of the archive — must name a cell a spreadsheet has: columns `A` to `XFD`, rows 1 to
//! 1,048,576, and a range's end at or after its start. The scan is byte-level and reads more than
//! calamine does (a text that looks like such an attribute is checked too), so that no value
//! calamine parses escapes it, whatever the element or the XML around it.

use std::io::{Cursor, Read};

use crate::write_error::WriteError;

/// The last column a sheet has, `XFD`, counted from `A` = 1.
const LAST_COLUMN: u32 = 16_384;
/// The last row a sheet has, counted from 1.
const LAST_ROW: u32 = 1_048_576;
/// How much of a refused value the error quotes.
const QUOTED: usize = 32;

/// Refuses a workbook whose parts hold a cell reference no sheet has. An archive that does not
/// open, or a part that does not read to its end, is scanned as far as it reads and left for
/// calamine to report: calamine reads the same archive with the same zip crate, so it parses no
/// byte this scan has not seen.
pub(super) fn check(data: &[u8]) -> Result<(), WriteError> {
    let Ok(mut archive) = zip::ZipArchive::new(Cursor::new(data)) else {
        return Ok(());
    };
    let mut chunk = vec![0u8; 64 * 1024];
    for index in 0..archive.len() {
        let Ok(mut part) = archive.by_index(index) else {
            continue;
        };
        let mut scan = Scan::default();
        let mut offset = 0u64;
        loop {
            let n = match part.read(&mut chunk) {
                Ok(0) | Err(_) => break,
                Ok(n) => n,
            };
            let bytes = &chunk[..n];
            let mut i = 0;
            while let Some(&b) = bytes.get(i) {
                if let Some((why, value)) = scan.byte(b) {
                    let name = part.name().map(|n| n.into_owned()).unwrap_or_default();
                    let at = offset + i as u64;
                    return Err(super::xlsx_error(format!(
                        "part {name:?}, byte {at}: cell reference \"{}\" {why}",
                        value.quoted()
                    )));
                }
                i += 1;
                if scan.is_idle() {
                    // Only an `r` can start what the scan looks for: the bytes before it need
                    // no turn of the state machine. On a 17.6 MB workbook of 110,000 records the
                    // check took 0.40-0.44 s without this and 0.33-0.37 s with it, of a 2.0 s
                    // read; most of what is left is inflating the parts a second time.
                    let skip = bytes[i..].iter().position(|&c| c == b'r');
                    i = skip.map_or(bytes.len(), |k| i + k);
                    if let Some(&before) = i.checked_sub(1).and_then(|p| bytes.get(p)) {
                        scan.previous = before;
                    }
                }
            }
            offset += n as u64;
        }
    }
    Ok(())
}

/// Where the search for an attribute is: outside one, in the name `r` or `ref` (how many of its
/// bytes), between the name and `=`, or between `=` and the opening quote.
#[derive(Default, Clone, Copy, PartialEq)]
enum Name {
    #[default]
    Outside,
    Within(u8),
    BeforeEquals,
    BeforeQuote,
}

/// The quote characters, in the order of [`Scan::values`].
const QUOTES: [u8; 2] = [b'"', b'\''];

/// One part of a value: the letters' column and the digits' row, as far as they read.
#[derive(Default, Clone, Copy, PartialEq)]
struct Part {
    column: u32,
    row: u32,
    letters: bool,
    digits: bool,
    /// A byte that is neither a letter before the digits nor a digit after them: calamine stops
    /// at it with an error, so the part names no cell.
    stray: bool,
}

impl Part {
    fn names_a_cell(&self) -> bool {
        self.letters && self.digits && self.row >= 1 && !self.stray
    }
}

/// The value of one `r` or `ref` attribute, checked as its bytes come.
#[derive(Default, Clone, Copy, PartialEq)]
struct Value {
    /// The `:` seen so far.
    colons: u32,
    first: Part,
    part: Part,
    quoted: [u8; QUOTED],
    quoted_len: usize,
}

impl Value {
    /// Takes one byte of the value; says why the value names no cell.
    fn byte(&mut self, b: u8) -> Option<&'static str> {
        if let Some(slot) = self.quoted.get_mut(self.quoted_len) {
            *slot = b;
            self.quoted_len += 1;
        }
        let part = &mut self.part;
        match b {
            b':' => {
                if self.colons == 0 {
                    self.first = *part;
                }
                self.colons = self.colons.saturating_add(1);
                *part = Part::default();
            }
            _ if part.stray => {}
            b'A'..=b'Z' | b'a'..=b'z' if !part.digits => {
                let letter = u32::from(b.to_ascii_uppercase() - b'A') + 1;
                part.letters = true;
                part.column = part.column.saturating_mul(26).saturating_add(letter);
                if part.column > LAST_COLUMN {
                    return Some("has a column past XFD, the last a sheet has");
                }
            }
            b'0'..=b'9' => {
                part.digits = true;
                part.row = part
                    .row
                    .saturating_mul(10)
                    .saturating_add(u32::from(b - b'0'));
                if part.row > LAST_ROW {
                    return Some("has a row past 1048576, the last a sheet has");
                }
            }
            _ => part.stray = true,
        }
        None
    }

    /// At the closing quote: says why the value names no range.
    fn end(&self) -> Option<&'static str> {
        let (start, end) = (self.first, self.part);
        // Only a range of exactly two cells is measured (end minus start); others are errors.
        let range = self.colons == 1 && start.names_a_cell() && end.names_a_cell();
        if range && (end.row < start.row || end.column < start.column) {
            return Some("is a range that ends before it starts");
        }
        None
    }

    fn quoted(&self) -> String {
        String::from_utf8_lossy(&self.quoted[..self.quoted_len]).into_owned()
    }
}

/// The scan of one part's bytes.
///
/// The search for names goes on inside values: the scan cannot tell an attribute's value from a
/// text that looks like one, and a value taken wrongly must not hide the attributes after it. So
/// each quote character has its own value in progress, and there are never more than two: a value
/// ends at the next quote of its kind, the quote a new value of that kind starts with.
#[derive(Default)]
struct Scan {
    name: Name,
    /// The byte before this one: an attribute's name follows white space or a closing quote.
    previous: u8,
    /// The values in progress, opened by `"` and by `'`.
    values: [Option<Value>; 2],
}

impl Scan {
    /// Outside any name and value: the bytes up to the next `r` change nothing but `previous`.
    fn is_idle(&self) -> bool {
        self.name == Name::Outside && self.values == [None, None]
    }

    /// Takes one byte; on a value that names no cell, says why and hands the value back.
    fn byte(&mut self, b: u8) -> Option<(&'static str, Value)> {
        for (slot, quote) in self.values.iter_mut().zip(QUOTES) {
            let Some(value) = slot else { continue };
            let why = if b == quote {
                let why = value.end();
                let value = *value;
                *slot = None;
                why.map(|why| (why, value))
            } else {
                value.byte(b).map(|why| (why, *value))
            };
            if why.is_some() {
                return why;
            }
        }
        let previous = std::mem::replace(&mut self.previous, b);
        self.name = match (self.name, b) {
            (Name::Within(1), b'e') => Name::Within(2),
            (Name::Within(2), b'f') => Name::Within(3),
            (Name::Within(1 | 3), b'=') | (Name::BeforeEquals, b'=') => Name::BeforeQuote,
            (Name::Within(1 | 3) | Name::BeforeEquals, _) if b.is_ascii_whitespace() => {
                Name::BeforeEquals
            }
            (Name::BeforeQuote, _) if b.is_ascii_whitespace() => Name::BeforeQuote,
            (Name::BeforeQuote, b'"' | b'\'') => {
                self.values[usize::from(b == b'\'')] = Some(Value::default());
                Name::Outside
            }
            _ => {
                let after_separator =
                    previous.is_ascii_whitespace() || previous == b'"' || previous == b'\'';
                if b == b'r' && after_separator {
                    Name::Within(1)
                } else {
                    Name::Outside
                }
            }
        };
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refused(text: &str) -> Option<&'static str> {
        let mut scan = Scan {
            previous: b' ',
            ..Scan::default()
        };
        text.bytes().find_map(|b| scan.byte(b)).map(|(why, _)| why)
    }

    /// An archive of one stored part holding `xml`.
    fn archive(xml: &str) -> Vec<u8> {
        use std::io::Write;
        let mut out = zip::ZipWriter::new(Cursor::new(Vec::new()));
        let options = zip::write::SimpleFileOptions::default()
            .compression_method(zip::CompressionMethod::Stored);
        out.start_file("xl/worksheets/sheet1.xml", options).unwrap();
        out.write_all(xml.as_bytes()).unwrap();
        out.finish().unwrap().into_inner()
    }

    #[test]
    fn a_reference_across_the_reads_of_a_part_is_seen_whole() {
        // The part is read 64 KiB at a time: put the reference across the first boundary, and
        // the space before its name as the last byte of the first read.
        for cut in 1..=8 {
            let reference = "<c r=\"AAAAAAAA1\"/>";
            let pad = "x".repeat(64 * 1024 - 3 - cut);
            let xml = format!("<a>{pad}{reference}{pad}</a>");
            let error = check(&archive(&xml)).expect_err("the reference is past XFD");
            assert!(error.to_string().contains("column past XFD"), "{error}");
            assert!(check(&archive(&xml.replace("AAAAAAAA1", "AAA1"))).is_ok());
        }
    }

    #[test]
    fn cells_a_sheet_has_pass() {
        for text in [
            r#"<dimension ref="A1:XFD1048576"/>"#,
            r#"<row r="1048576"><c r="xfd1" t="s">"#,
            r#"<c r = 'B2'/><mergeCell ref="B2:B2"/>"#,
            // Not references: calamine errors on these without overflowing.
            r#"<c r="A1B2:1"/><f ref="A1:B2:C3"/><x r="$A$1"/><y ref="B2:A1:C3"/>"#,
            r#"<t>rows 1 ref 2 r= 3</t><x id="r" rr="ZZZZZZZZ99999999999"/>"#,
        ] {
            assert_eq!(refused(text), None, "{text}");
        }
    }

    #[test]
    fn cells_past_the_last_or_ranges_backwards_are_refused() {
        for (text, why) in [
            (r#"<dimension ref="A1:XFE1"/>"#, "column past XFD"),
            (r#"<c r="AAAAAAAAAAAAAAA1"/>"#, "column past XFD"),
            (r#"<row r="1048577">"#, "row past 1048576"),
            (r#"<row r="99999999999999x">"#, "row past 1048576"),
            (r#"<c s="1"r="A99999999999"/>"#, "row past 1048576"),
            (r#"<dimension ref="B2:A9"/>"#, "ends before it starts"),
            (r#"<mergeCell ref='A9:B2'/>"#, "ends before it starts"),
            // A text that looks like a value hides no attribute after it.
            (
                r#"<t>x r='</t><c r="AAAAAAAAAAAAAAA1"/><t>'</t>"#,
                "column past XFD",
            ),
            (
                r#"<t>x r="</t><c r="AAAAAAAAAAAAAAA1"/>"#,
                "column past XFD",
            ),
            (
                r#"<t>x r="</t><row r='99999999999'><t>"</t>"#,
                "row past 1048576",
            ),
        ] {
            let got = refused(text).unwrap_or_else(|| panic!("{text} passed"));
            assert!(got.contains(why), "{text}: {got}");
        }
    }
}

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
            for (i, &b) in chunk[..n].iter().enumerate() {
                if let Some(why) = scan.byte(b) {
                    let name = part.name().map(|n| n.into_owned()).unwrap_or_default();
                    let at = offset + i as u64;
                    return Err(WriteError::message(format!(
                        "XLSX: part {name:?}, byte {at}: cell reference \"{}\" {why}",
                        scan.quoted()
                    )));
                }
            }
            offset += n as u64;
        }
    }
    Ok(())
}

/// Where the scan is: outside an attribute, in the name `r` or `ref` (how many of its bytes),
/// between the name and `=`, between `=` and the quote, or in the value.
#[derive(Default, Clone, Copy, PartialEq)]
enum State {
    #[default]
    Outside,
    Name(u8),
    BeforeEquals,
    BeforeQuote,
    Value(u8),
}

/// One part of a value: the letters' column and the digits' row, as far as they read.
#[derive(Default, Clone, Copy)]
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

#[derive(Default)]
struct Scan {
    state: State,
    /// The byte before this one: an attribute's name follows white space or a closing quote.
    previous: u8,
    parts: u32,
    first: Part,
    part: Part,
    quoted: [u8; QUOTED],
    quoted_len: usize,
}

impl Scan {
    /// Takes one byte; says why the value that ends or grows with it names no cell.
    fn byte(&mut self, b: u8) -> Option<&'static str> {
        let previous = std::mem::replace(&mut self.previous, b);
        match self.state {
            State::Outside => self.outside(b, previous),
            State::Name(n) => match (n, b) {
                (1, b'e') => self.state = State::Name(2),
                (2, b'f') => self.state = State::Name(3),
                (1 | 3, b'=') => self.state = State::BeforeQuote,
                (1 | 3, _) if b.is_ascii_whitespace() => self.state = State::BeforeEquals,
                _ => self.outside(b, previous),
            },
            State::BeforeEquals => match b {
                b'=' => self.state = State::BeforeQuote,
                _ if b.is_ascii_whitespace() => {}
                _ => self.outside(b, previous),
            },
            State::BeforeQuote => match b {
                b'"' | b'\'' => self.start_value(b),
                _ if b.is_ascii_whitespace() => {}
                _ => self.outside(b, previous),
            },
            State::Value(quote) if b == quote => {
                self.state = State::Outside;
                return self.end_value();
            }
            State::Value(_) => return self.value_byte(b),
        }
        None
    }

    fn outside(&mut self, b: u8, previous: u8) {
        let after_separator =
            previous.is_ascii_whitespace() || previous == b'"' || previous == b'\'';
        self.state = if b == b'r' && after_separator {
            State::Name(1)
        } else {
            State::Outside
        };
    }

    fn start_value(&mut self, quote: u8) {
        self.state = State::Value(quote);
        self.parts = 0;
        self.first = Part::default();
        self.part = Part::default();
        self.quoted_len = 0;
    }

    fn value_byte(&mut self, b: u8) -> Option<&'static str> {
        if let Some(slot) = self.quoted.get_mut(self.quoted_len) {
            *slot = b;
            self.quoted_len += 1;
        }
        let part = &mut self.part;
        match b {
            b':' => {
                self.end_part();
                return None;
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

    fn end_part(&mut self) {
        if self.parts == 0 {
            self.first = self.part;
        }
        self.parts += 1;
        self.part = Part::default();
    }

    fn end_value(&mut self) -> Option<&'static str> {
        let (start, end) = (self.first, self.part);
        // Only a range of exactly two cells is measured (end minus start); others are errors.
        let range = self.parts == 1 && start.names_a_cell() && end.names_a_cell();
        if range && (end.row < start.row || end.column < start.column) {
            return Some("is a range that ends before it starts");
        }
        None
    }

    fn quoted(&self) -> String {
        String::from_utf8_lossy(&self.quoted[..self.quoted_len]).into_owned()
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
        text.bytes().find_map(|b| scan.byte(b))
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
        ] {
            let got = refused(text).unwrap_or_else(|| panic!("{text} passed"));
            assert!(got.contains(why), "{text}: {got}");
        }
    }
}

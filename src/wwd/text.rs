//! Strings of a level: 8-bit code-page text in fixed slots (header, plane names) or counted runs
//! (object strings), never UTF-8 by contract. They are handed out as borrowed bytes; [`text_lossy`]
//! decodes them for display.

use std::borrow::Cow;

/// The bytes of a fixed-size slot up to its first NUL (the whole slot when it has none: the reader
/// never looks past the slot, whatever the original editors did).
pub fn fixed(slot: &[u8]) -> &[u8] {
    match slot.iter().position(|&b| b == 0) {
        Some(end) => slot.get(..end).unwrap_or(slot),
        None => slot,
    }
}

/// Decodes level text for display. ASCII is borrowed unchanged; other bytes are read as Windows-1250,
/// the code page of the real levels that have non-ASCII names (Polish `T\xb3o` is `Tło`), and bytes
/// that code page leaves undefined become U+FFFD.
pub fn text_lossy(bytes: &[u8]) -> Cow<'_, str> {
    if bytes.is_ascii() {
        // ASCII is valid UTF-8.
        return match core::str::from_utf8(bytes) {
            Ok(s) => Cow::Borrowed(s),
            Err(_) => Cow::Owned(String::new()),
        };
    }
    Cow::Owned(
        bytes
            .iter()
            .map(|&b| match b.checked_sub(0x80) {
                None => char::from(b),
                Some(high) => WINDOWS_1250_HIGH
                    .get(usize::from(high))
                    .copied()
                    .unwrap_or('\u{fffd}'),
            })
            .collect(),
    )
}

/// Windows-1250, bytes 0x80..=0xFF.
pub(crate) const WINDOWS_1250_HIGH: [char; 128] = [
    '\u{20ac}', '\u{fffd}', '\u{201a}', '\u{fffd}', '\u{201e}', '\u{2026}', '\u{2020}', '\u{2021}',
    '\u{fffd}', '\u{2030}', '\u{0160}', '\u{2039}', '\u{015a}', '\u{0164}', '\u{017d}', '\u{0179}',
    '\u{fffd}', '\u{2018}', '\u{2019}', '\u{201c}', '\u{201d}', '\u{2022}', '\u{2013}', '\u{2014}',
    '\u{fffd}', '\u{2122}', '\u{0161}', '\u{203a}', '\u{015b}', '\u{0165}', '\u{017e}', '\u{017a}',
    '\u{00a0}', '\u{02c7}', '\u{02d8}', '\u{0141}', '\u{00a4}', '\u{0104}', '\u{00a6}', '\u{00a7}',
    '\u{00a8}', '\u{00a9}', '\u{015e}', '\u{00ab}', '\u{00ac}', '\u{00ad}', '\u{00ae}', '\u{017b}',
    '\u{00b0}', '\u{00b1}', '\u{02db}', '\u{0142}', '\u{00b4}', '\u{00b5}', '\u{00b6}', '\u{00b7}',
    '\u{00b8}', '\u{0105}', '\u{015f}', '\u{00bb}', '\u{013d}', '\u{02dd}', '\u{013e}', '\u{017c}',
    '\u{0154}', '\u{00c1}', '\u{00c2}', '\u{0102}', '\u{00c4}', '\u{0139}', '\u{0106}', '\u{00c7}',
    '\u{010c}', '\u{00c9}', '\u{0118}', '\u{00cb}', '\u{011a}', '\u{00cd}', '\u{00ce}', '\u{010e}',
    '\u{0110}', '\u{0143}', '\u{0147}', '\u{00d3}', '\u{00d4}', '\u{0150}', '\u{00d6}', '\u{00d7}',
    '\u{0158}', '\u{016e}', '\u{00da}', '\u{0170}', '\u{00dc}', '\u{00dd}', '\u{0162}', '\u{00df}',
    '\u{0155}', '\u{00e1}', '\u{00e2}', '\u{0103}', '\u{00e4}', '\u{013a}', '\u{0107}', '\u{00e7}',
    '\u{010d}', '\u{00e9}', '\u{0119}', '\u{00eb}', '\u{011b}', '\u{00ed}', '\u{00ee}', '\u{010f}',
    '\u{0111}', '\u{0144}', '\u{0148}', '\u{00f3}', '\u{00f4}', '\u{0151}', '\u{00f6}', '\u{00f7}',
    '\u{0159}', '\u{016f}', '\u{00fa}', '\u{0171}', '\u{00fc}', '\u{00fd}', '\u{0163}', '\u{02d9}',
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slots_stop_at_the_first_nul_and_never_pass_the_slot() {
        assert_eq!(fixed(b"Action\0junk"), b"Action");
        assert_eq!(fixed(b"ABCD"), b"ABCD");
        assert_eq!(fixed(b"\0ABCD"), b"");
    }

    #[test]
    fn code_page_text_decodes() {
        assert_eq!(text_lossy(b"T\xb3o"), "Tło");
        assert!(matches!(text_lossy(b"Action"), Cow::Borrowed("Action")));
        assert_eq!(text_lossy(b"\x81\x8a\xa3\xff"), "\u{fffd}ŠŁ˙");
    }
}

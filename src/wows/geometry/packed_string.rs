//! PackedString: a counted string stored out of line, its text pointer relative to the struct.

use super::raw::{PACKED_STRING_TEXT_PTR, PackedString};
use crate::bytes::Bytes;
use crate::error::{Error, Result};

/// The text of the PackedString at absolute offset `at`, borrowed, without its NUL terminator.
/// `what` names the field that holds the PackedString.
pub(crate) fn text<'a>(bytes: Bytes<'a>, at: usize, what: &'static str) -> Result<&'a [u8]> {
    let packed: &PackedString = bytes.read(at, what)?;
    let count = packed.char_count.get() as usize;
    if count == 0 {
        return Ok(&[]);
    }
    let field = at.saturating_add(PACKED_STRING_TEXT_PTR);
    let start = bytes.resolve(field, at, packed.text_ptr.get(), what)?;
    let text = bytes.slice(start, count, what)?;
    // charCount includes the terminator; tolerate a missing one rather than lose a character.
    Ok(text.strip_suffix(&[0]).unwrap_or(text))
}

/// The text as UTF-8, or an error at the text's offset.
pub(crate) fn utf8<'a>(bytes: Bytes<'a>, at: usize, what: &'static str) -> Result<&'a str> {
    let raw = text(bytes, at, what)?;
    core::str::from_utf8(raw).map_err(|e| {
        let offset = (raw.as_ptr() as usize).saturating_sub(bytes.as_slice().as_ptr() as usize);
        Error::invalid(
            crate::bytes::u64_of(offset.saturating_add(e.valid_up_to())),
            what,
            u64::from(raw.get(e.valid_up_to()).copied().unwrap_or(0)),
            "string is not valid UTF-8",
        )
    })
}

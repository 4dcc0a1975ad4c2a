//! The XML the conversion needs: an escaping writer for the few elements a TMX map has, and a small
//! element tree read with quick-xml (the standard Rust XML reader) for the way back. The tree is
//! built with an explicit stack, so a deeply nested file cannot overflow the call stack.

use std::fmt::Write as _;

use quick_xml::events::Event;

use crate::WriteError;

/// Escapes text for an attribute value (quotes included) or element content.
pub(super) fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            // Attribute values normalise whitespace: keep control characters as references.
            c if u32::from(c) < 0x20 => {
                let _ = write!(out, "&#{};", u32::from(c));
            }
            c => out.push(c),
        }
    }
    out
}

/// An element: its name, attributes (unescaped), children and text content.
#[derive(Debug, Default)]
pub(super) struct Element {
    pub(super) name: String,
    pub(super) attributes: Vec<(String, String)>,
    pub(super) children: Vec<Element>,
    pub(super) text: String,
}

impl Element {
    /// The attribute `name`, if present.
    pub(super) fn attr(&self, name: &str) -> Option<&str> {
        self.attributes
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// The children named `name`.
    pub(super) fn children<'s>(&'s self, name: &'s str) -> impl Iterator<Item = &'s Element> {
        self.children.iter().filter(move |c| c.name == name)
    }

    /// The first child named `name`.
    pub(super) fn child(&self, name: &str) -> Option<&Element> {
        self.children.iter().find(|c| c.name == name)
    }

    /// `<properties><property name value/>…</properties>` as (name, value) pairs, in order; a
    /// property's value may also be its text content (Tiled writes multi-line strings that way).
    pub(super) fn properties(&self) -> Vec<(&str, &str)> {
        self.child("properties")
            .map(|p| {
                p.children("property")
                    .map(|q| {
                        let value = q.attr("value").unwrap_or(q.text.as_str());
                        (q.attr("name").unwrap_or(""), value)
                    })
                    .collect()
            })
            .unwrap_or_default()
    }
}

fn xml_error(e: impl std::fmt::Display, at: u64) -> WriteError {
    WriteError::new(crate::WriteErrorKind::Interchange {
        form: "TMX",
        line: None,
        message: format!("XML at byte {at}: {e}"),
    })
}

fn element(
    start: &quick_xml::events::BytesStart<'_>,
    decoder: quick_xml::encoding::Decoder,
    at: u64,
) -> Result<Element, WriteError> {
    let mut attributes = Vec::new();
    for a in start.attributes() {
        let a = a.map_err(|e| xml_error(e, at))?;
        let key = String::from_utf8_lossy(a.key.as_ref()).into_owned();
        // The decoder form works whether or not another crate in the build (calamine) turns on
        // quick-xml's `encoding` feature, which removes the plain `unescape_value`.
        let value = a
            .decode_and_unescape_value(decoder)
            .map_err(|e| xml_error(e, at))?;
        attributes.push((key, value.into_owned()));
    }
    Ok(Element {
        name: String::from_utf8_lossy(start.name().as_ref()).into_owned(),
        attributes,
        ..Element::default()
    })
}

/// Parses a document into its root element.
pub(super) fn parse(text: &str) -> Result<Element, WriteError> {
    let mut reader = quick_xml::Reader::from_str(text);
    // The open elements, the document's root at the bottom once it starts.
    let mut stack: Vec<Element> = Vec::new();
    let mut root: Option<Element> = None;
    loop {
        let at = reader.buffer_position();
        let event = reader.read_event().map_err(|e| xml_error(e, at))?;
        match event {
            Event::Start(start) => stack.push(element(&start, reader.decoder(), at)?),
            Event::Empty(start) => {
                let e = element(&start, reader.decoder(), at)?;
                match stack.last_mut() {
                    Some(parent) => parent.children.push(e),
                    None => root = Some(e),
                }
            }
            Event::End(_) => {
                let done = stack
                    .pop()
                    .ok_or_else(|| xml_error("closing tag without an opening one", at))?;
                match stack.last_mut() {
                    Some(parent) => parent.children.push(done),
                    None => root = Some(done),
                }
            }
            Event::Text(t) => {
                if let Some(open) = stack.last_mut() {
                    let raw = t.decode().map_err(|e| xml_error(e, at))?;
                    open.text.push_str(&raw);
                }
            }
            Event::CData(t) => {
                if let Some(open) = stack.last_mut() {
                    let raw = t.decode().map_err(|e| xml_error(e, at))?;
                    open.text.push_str(&raw);
                }
            }
            Event::GeneralRef(r) => {
                if let Some(open) = stack.last_mut() {
                    let name = r.decode().map_err(|e| xml_error(e, at))?;
                    let entity = format!("&{name};");
                    let text =
                        quick_xml::escape::unescape(&entity).map_err(|e| xml_error(e, at))?;
                    open.text.push_str(&text);
                }
            }
            Event::Eof => break,
            _ => {}
        }
    }
    if !stack.is_empty() {
        return Err(xml_error(
            "the document ends inside an element",
            reader.buffer_position(),
        ));
    }
    root.ok_or_else(|| xml_error("no root element", 0))
}

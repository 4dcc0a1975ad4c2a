//! A small owned element tree over quick-xml, with each element's path and line, so that the
//! typed readers can say where a value was wrong. BigWorld XML has no attributes that matter and
//! mixes a text value with child elements (`<property> name <Bool> .. </Bool></property>`), so an
//! element keeps its own text (trimmed of the tab padding) and its children.

use super::SourceError;
use quick_xml::events::Event;

/// Files larger than this are refused: real sources are a few kB, and the tree is owned.
pub const MAX_FILE_SIZE: usize = 16 << 20;
/// Deepest element nesting accepted (real skeletons nest about ten deep).
pub const MAX_DEPTH: usize = 256;

/// One XML element: name, path from the root, line, trimmed text and children.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Element {
    /// The element's name.
    pub name: String,
    /// Names from the root down to this element, joined by `/`.
    pub path: String,
    /// 1-based line of the opening tag.
    pub line: usize,
    /// The element's own text, trimmed of spaces, tabs and line breaks.
    pub text: String,
    /// Child elements in file order.
    pub children: Vec<Element>,
}

impl Element {
    /// The first child named `name`.
    pub fn child(&self, name: &str) -> Option<&Element> {
        self.children.iter().find(|c| c.name == name)
    }

    /// Every child named `name`.
    pub fn children_named<'s>(&'s self, name: &'s str) -> impl Iterator<Item = &'s Element> + 's {
        self.children.iter().filter(move |c| c.name == name)
    }

    /// An error about this element in `file`.
    pub fn error(&self, file: &str, why: impl Into<String>) -> SourceError {
        SourceError::new(file, &self.path, self.line, why)
    }

    /// The text of the child `name`, an error naming this element when it is missing.
    pub fn required_text<'s>(&'s self, file: &str, name: &str) -> Result<&'s str, SourceError> {
        self.child(name)
            .map(|c| c.text.as_str())
            .ok_or_else(|| self.error(file, format!("no <{name}> element")))
    }

    /// This element's text as a float.
    pub fn float(&self, file: &str) -> Result<f32, SourceError> {
        parse_float(&self.text)
            .ok_or_else(|| self.error(file, format!("{:?} is not a number", self.text)))
    }

    /// This element's text as `true`/`false`.
    pub fn bool(&self, file: &str) -> Result<bool, SourceError> {
        match self.text.as_str() {
            "true" => Ok(true),
            "false" => Ok(false),
            t => Err(self.error(file, format!("{t:?} is not true or false"))),
        }
    }

    /// This element's text as whitespace-separated floats, exactly `N` or (when `alt` is given)
    /// `alt` of them; missing trailing values of the shorter form are left as in `fill`.
    pub fn floats<const N: usize>(
        &self,
        file: &str,
        alt: Option<usize>,
        fill: [f32; N],
    ) -> Result<[f32; N], SourceError> {
        let mut out = fill;
        let mut n = 0usize;
        for word in self.text.split_ascii_whitespace() {
            let v = parse_float(word)
                .ok_or_else(|| self.error(file, format!("{word:?} is not a number")))?;
            let slot = out
                .get_mut(n)
                .ok_or_else(|| self.error(file, format!("more than {N} numbers")))?;
            *slot = v;
            n += 1;
        }
        if n == N || alt == Some(n) {
            Ok(out)
        } else {
            let want = match alt {
                Some(a) => format!("{a} or {N}"),
                None => N.to_string(),
            };
            Err(self.error(file, format!("{n} numbers, expected {want}")))
        }
    }
}

/// A finite float (BigWorld writes `1.000000`, `-0.000000`, `2.0000`).
fn parse_float(s: &str) -> Option<f32> {
    s.parse::<f32>().ok().filter(|v| v.is_finite())
}

/// Lines counted as the reader moves forward: each byte of the file is looked at once, however
/// many elements it holds (counting from the start for every element made a large file
/// quadratic).
struct Lines<'t> {
    text: &'t [u8],
    counted_to: usize,
    line: usize,
}

impl Lines<'_> {
    /// The 1-based line of byte `pos`; positions asked for only grow, except for an error's,
    /// which is counted afresh.
    fn at(&mut self, pos: u64) -> usize {
        let end = usize::try_from(pos)
            .unwrap_or(usize::MAX)
            .min(self.text.len());
        if end < self.counted_to {
            return self.text[..end].iter().filter(|&&c| c == b'\n').count() + 1;
        }
        self.line += self.text[self.counted_to..end]
            .iter()
            .filter(|&&c| c == b'\n')
            .count();
        self.counted_to = end;
        self.line
    }
}

/// The most bytes of element paths the tree may hold: each element keeps its path for errors,
/// so a deep nest of long names could otherwise make the tree many times the file.
fn path_budget(len: usize) -> usize {
    len.saturating_mul(16).saturating_add(1 << 20)
}

/// Reads the source file at `path` as text, at most [`MAX_FILE_SIZE`] bytes: a larger file is
/// refused before it is read whole (the parser would refuse it anyway, after the allocation).
pub fn read_source(path: &std::path::Path) -> std::io::Result<String> {
    use std::io::Read as _;
    let mut text = String::new();
    std::fs::File::open(path)?
        .take(MAX_FILE_SIZE as u64 + 1)
        .read_to_string(&mut text)?;
    if text.len() > MAX_FILE_SIZE {
        return Err(std::io::Error::other(format!(
            "larger than the {MAX_FILE_SIZE} bytes a source file may have"
        )));
    }
    Ok(text)
}

/// Parses `text` (the contents of `file`) into its root element.
pub fn parse(file: &str, text: &str) -> Result<Element, SourceError> {
    if text.len() > MAX_FILE_SIZE {
        return Err(SourceError::new(
            file,
            "",
            0,
            format!(
                "{} bytes, more than the {MAX_FILE_SIZE} accepted",
                text.len()
            ),
        ));
    }
    let mut reader = quick_xml::Reader::from_str(text);
    let mut lines = Lines {
        text: text.as_bytes(),
        counted_to: 0,
        line: 1,
    };
    let mut path_bytes = 0usize;
    let budget = path_budget(text.len());
    let mut stack: Vec<Element> = Vec::new();
    let mut root: Option<Element> = None;
    let path_of = |stack: &[Element]| stack.last().map(|e| e.path.clone()).unwrap_or_default();
    let open = |stack: &[Element], name: &[u8], line: usize| -> Element {
        let name = String::from_utf8_lossy(name).into_owned();
        let parent = path_of(stack);
        let path = if parent.is_empty() {
            name.clone()
        } else {
            format!("{parent}/{name}")
        };
        Element {
            name,
            path,
            line,
            ..Element::default()
        }
    };
    loop {
        let at = reader.buffer_position();
        let event = match reader.read_event() {
            Ok(event) => event,
            Err(e) => {
                let line = lines.at(reader.error_position());
                return Err(SourceError::new(
                    file,
                    &path_of(&stack),
                    line,
                    format!("bad XML: {e}"),
                ));
            }
        };
        let line = lines.at(at);
        let bad =
            |stack: &[Element], why: String| SourceError::new(file, &path_of(stack), line, why);
        if let Event::Start(start) | Event::Empty(start) = &event {
            if root.is_some() {
                return Err(bad(&stack, "a second root element".into()));
            }
            path_bytes = path_bytes
                .saturating_add(path_of(&stack).len())
                .saturating_add(start.name().as_ref().len() + 1);
            if path_bytes > budget {
                return Err(bad(
                    &stack,
                    format!("the element paths exceed {budget} bytes (names nested too deep)"),
                ));
            }
        }
        match event {
            Event::Start(start) => {
                if stack.len() >= MAX_DEPTH {
                    return Err(bad(
                        &stack,
                        format!("elements nested deeper than {MAX_DEPTH}"),
                    ));
                }
                let e = open(&stack, start.name().as_ref(), line);
                stack.push(e);
            }
            Event::Empty(start) => {
                let e = open(&stack, start.name().as_ref(), line);
                match stack.last_mut() {
                    Some(parent) => parent.children.push(e),
                    None => root = Some(e),
                }
            }
            Event::End(_) => {
                let mut done = stack
                    .pop()
                    .ok_or_else(|| bad(&stack, "closing tag without an opening one".into()))?;
                done.text = done.text.trim().to_owned();
                match stack.last_mut() {
                    Some(parent) => parent.children.push(done),
                    None => root = Some(done),
                }
            }
            Event::Text(t) => {
                if let Some(open) = stack.last_mut() {
                    let raw = t.decode().map_err(|e| bad(&[], format!("bad text: {e}")))?;
                    open.text.push_str(&raw);
                }
            }
            Event::CData(t) => {
                if let Some(open) = stack.last_mut() {
                    let raw = t.decode().map_err(|e| bad(&[], format!("bad text: {e}")))?;
                    open.text.push_str(&raw);
                }
            }
            Event::GeneralRef(r) => {
                if let Some(open) = stack.last_mut() {
                    let name = r
                        .decode()
                        .map_err(|e| bad(&[], format!("bad entity: {e}")))?;
                    let entity = format!("&{name};");
                    let t = quick_xml::escape::unescape(&entity)
                        .map_err(|e| bad(&[], format!("bad entity: {e}")))?;
                    open.text.push_str(&t);
                }
            }
            Event::Eof => break,
            _ => {}
        }
    }
    if let Some(open) = stack.last() {
        return Err(SourceError::new(
            file,
            &open.path,
            open.line,
            "the file ends before this element is closed",
        ));
    }
    root.ok_or_else(|| SourceError::new(file, "", 0, "no root element"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trims_and_locates() {
        let root = parse("a.visual", "<a.visual>\n\t<x>\t1.5\t</x>\n</a.visual>").unwrap();
        let x = root.child("x").unwrap();
        assert_eq!(
            (x.text.as_str(), x.line, x.path.as_str()),
            ("1.5", 2, "a.visual/x")
        );
        assert_eq!(x.float("a.visual").unwrap(), 1.5);
    }

    #[test]
    fn unclosed_element_names_it() {
        let e = parse("a.model", "<a.model>\n\t<visual>v\n</a.model>").unwrap_err();
        assert!(e.line >= 1, "{e}");
        let e = parse("a.model", "<a.model>\n\t<visual>v").unwrap_err();
        assert_eq!(
            e.to_string(),
            "a.model:2: <a.model/visual>: the file ends before this element is closed"
        );
    }

    #[test]
    fn a_source_file_past_the_limit_is_refused_without_reading_it_whole() {
        let path = std::env::temp_dir().join(format!("gamebin-big-{}.visual", std::process::id()));
        let file = std::fs::File::create(&path).unwrap();
        file.set_len(MAX_FILE_SIZE as u64 + 10).unwrap();
        let e = read_source(&path).unwrap_err();
        assert!(e.to_string().contains("larger than"), "{e}");
        file.set_len(4).unwrap();
        assert_eq!(read_source(&path).unwrap(), "\0\0\0\0");
        std::fs::remove_file(&path).unwrap();
    }

    #[test]
    fn too_deep_is_refused() {
        let text = "<a>".repeat(MAX_DEPTH + 1);
        let e = parse("d", &text).unwrap_err();
        assert!(e.why.contains("deeper"), "{e}");
    }
}

//! The HTML reading: block elements (`<h1>`..`<h6>`, `<p>`, `<li>`, `<tr>`,
//! ...) become spans wherever they sit on the lines; cells are joined as
//! `a | b` and entities are decoded in the text (offsets stay raw). A small
//! hand-written tag scanner, not a full HTML parser.

use super::span::{DocSpan, SpanKind};

/// Whether the document is read as HTML: mostly lines starting with a block
/// element, an HTML skeleton, or (without Markdown headings) many block tags.
pub(super) fn looks_like_html(document: &str) -> bool {
    let nonblank = document.lines().filter(|l| !l.trim().is_empty()).count();
    let html_lines = document
        .lines()
        .filter(|l| html_tag(l.trim_start()).is_some())
        .count();
    if html_lines * 2 > nonblank {
        return true;
    }
    let lower = document.to_ascii_lowercase();
    if lower.contains("<!doctype html") || lower.contains("<html") || lower.contains("<body") {
        return true;
    }
    if document.lines().any(|l| l.trim_start().starts_with('#')) {
        return false;
    }
    let mut block_tags = 0;
    let mut i = 0;
    while let Some(found) = document[i..].find('<') {
        let at = i + found;
        if let Some(tag) = parse_tag(document, at) {
            if !tag.closing && matches!(tag_class(&tag.name), TagClass::Span(_) | TagClass::Cell) {
                block_tags += 1;
            }
            i = tag.end;
        } else {
            i = at + 1;
        }
    }
    block_tags > 0 && block_tags * 2 > nonblank
}

/// The kind of a line starting with a block element tag.
pub(super) fn html_tag(line: &str) -> Option<SpanKind> {
    let tag = line.strip_prefix('<')?;
    let name: String = tag
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric())
        .collect();
    match name.to_ascii_lowercase().as_str() {
        "h1" => Some(SpanKind::Heading(1)),
        "h2" => Some(SpanKind::Heading(2)),
        "h3" | "h4" | "h5" | "h6" => Some(SpanKind::Heading(3)),
        "p" => Some(SpanKind::Paragraph),
        "li" => Some(SpanKind::ListItem),
        "tr" => Some(SpanKind::TableRow),
        _ => None,
    }
}

pub(super) fn strip_tags(text: &str) -> String {
    let mut out = String::new();
    let mut in_tag = false;
    for c in text.chars() {
        match c {
            '<' => in_tag = true,
            '>' if in_tag => {
                in_tag = false;
                out.push(' ');
            }
            c if !in_tag => out.push(c),
            _ => {}
        }
    }
    normalize(&out)
}

pub(super) fn normalize(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The character an entity at the start of `s` stands for, and its length.
pub(super) fn entity_at(s: &str) -> Option<(char, usize)> {
    let rest = s.strip_prefix('&')?;
    let semi = rest[..rest.len().min(12)].find(';')?;
    let name = &rest[..semi];
    let c = if let Some(num) = name.strip_prefix('#') {
        let code = match num.strip_prefix(['x', 'X']) {
            Some(hex) => u32::from_str_radix(hex, 16).ok()?,
            None => num.parse().ok()?,
        };
        char::from_u32(code)?
    } else {
        match name {
            "amp" => '&',
            "lt" => '<',
            "gt" => '>',
            "quot" => '"',
            "apos" => '\'',
            "nbsp" => '\u{a0}',
            "ndash" => '–',
            "mdash" => '—',
            "lsquo" => '‘',
            "rsquo" => '’',
            "ldquo" => '“',
            "rdquo" => '”',
            "hellip" => '…',
            "pound" => '£',
            "euro" => '€',
            "copy" => '©',
            _ => return None,
        }
    };
    Some((c, semi + 2))
}

pub(super) fn decode_entities(s: &str) -> String {
    if !s.contains('&') {
        return s.to_string();
    }
    let mut out = String::with_capacity(s.len());
    let mut i = 0;
    while let Some(found) = s[i..].find('&') {
        let at = i + found;
        out.push_str(&s[i..at]);
        match entity_at(&s[at..]) {
            Some((c, len)) => {
                out.push(c);
                i = at + len;
            }
            None => {
                out.push('&');
                i = at + 1;
            }
        }
    }
    out.push_str(&s[i..]);
    out
}

/// A tag (or comment/doctype) found in the document.
pub(super) struct Tag {
    /// Lower-case name; empty for comments, doctypes and processing
    /// instructions.
    pub(super) name: String,
    pub(super) closing: bool,
    pub(super) self_closing: bool,
    /// Byte range of the whole tag.
    pub(super) start: usize,
    pub(super) end: usize,
}

/// Parses the tag starting at byte `at` (a `<`), if it is one.
pub(super) fn parse_tag(document: &str, at: usize) -> Option<Tag> {
    let rest = &document[at..];
    let bytes = rest.as_bytes();
    if let Some(comment) = rest.strip_prefix("<!--") {
        let end = comment
            .find("-->")
            .map_or(document.len(), |p| at + 4 + p + 3);
        return Some(Tag {
            name: String::new(),
            closing: false,
            self_closing: true,
            start: at,
            end,
        });
    }
    let second = *bytes.get(1)?;
    if second == b'!' || second == b'?' {
        let end = at + rest.find('>')? + 1;
        return Some(Tag {
            name: String::new(),
            closing: false,
            self_closing: true,
            start: at,
            end,
        });
    }
    let closing = second == b'/';
    let name_start = if closing { 2 } else { 1 };
    if !bytes.get(name_start)?.is_ascii_alphabetic() {
        return None;
    }
    let name_len = bytes[name_start..]
        .iter()
        .take_while(|b| b.is_ascii_alphanumeric() || **b == b'-')
        .count();
    let after = bytes.get(name_start + name_len)?;
    if !(after.is_ascii_whitespace() || *after == b'>' || *after == b'/') {
        return None;
    }
    let mut quote = None;
    let mut j = name_start + name_len;
    while j < bytes.len() {
        let b = bytes[j];
        match quote {
            Some(q) if b == q => quote = None,
            Some(_) => {}
            None if b == b'"' || b == b'\'' => quote = Some(b),
            None if b == b'>' => {
                return Some(Tag {
                    name: rest[name_start..name_start + name_len].to_ascii_lowercase(),
                    closing,
                    self_closing: j > 0 && bytes[j - 1] == b'/',
                    start: at,
                    end: at + j + 1,
                });
            }
            None if b == b'<' => return None,
            None => {}
        }
        j += 1;
    }
    None
}

pub(super) enum TagClass {
    /// An element that makes a span of this kind.
    Span(SpanKind),
    /// A table cell, joined into its row.
    Cell,
    /// A block element that separates text but makes no span of its own.
    Block,
    /// Content skipped entirely.
    Skip,
    /// An inline element: no break in the text.
    Inline,
    /// Not an HTML element name.
    Unknown,
}

pub(super) fn tag_class(name: &str) -> TagClass {
    match name {
        "h1" | "title" => TagClass::Span(SpanKind::Heading(1)),
        "h2" => TagClass::Span(SpanKind::Heading(2)),
        "h3" | "h4" | "h5" | "h6" => TagClass::Span(SpanKind::Heading(3)),
        "p" | "dt" | "dd" | "caption" | "figcaption" => TagClass::Span(SpanKind::Paragraph),
        "li" => TagClass::Span(SpanKind::ListItem),
        "tr" => TagClass::Span(SpanKind::TableRow),
        "td" | "th" => TagClass::Cell,
        "div" | "ul" | "ol" | "dl" | "table" | "thead" | "tbody" | "tfoot" | "section"
        | "article" | "header" | "footer" | "main" | "nav" | "aside" | "blockquote" | "br"
        | "hr" | "body" | "html" | "head" | "form" | "figure" | "pre" | "address" | "fieldset"
        | "details" | "summary" | "center" | "meta" | "link" | "img" => TagClass::Block,
        "script" | "style" | "template" | "noscript" | "svg" => TagClass::Skip,
        "a" | "b" | "i" | "em" | "strong" | "span" | "code" | "small" | "sup" | "sub" | "u"
        | "abbr" | "mark" | "q" | "cite" | "s" | "del" | "ins" | "kbd" | "var" | "time"
        | "label" | "font" | "big" | "tt" | "dfn" | "bdi" | "bdo" | "wbr" => TagClass::Inline,
        "" => TagClass::Block,
        _ => TagClass::Unknown,
    }
}

/// The span being gathered while reading HTML.
struct Segment {
    kind: SpanKind,
    start: usize,
    end: usize,
    text: String,
    /// Table cells, when the row has `<td>`/`<th>` children.
    cells: Option<Vec<String>>,
    has_content: bool,
    /// Text outside any span element.
    loose: bool,
    /// Stack depth of the element the segment belongs to.
    depth: usize,
}

impl Segment {
    fn push_text(&mut self, s: &str) {
        match self.cells.as_mut().and_then(|c| c.last_mut()) {
            Some(cell) => cell.push_str(s),
            None => self.text.push_str(s),
        }
    }

    fn finish(self) -> Option<DocSpan> {
        if !self.has_content {
            return None;
        }
        let text = match self.cells {
            Some(cells) => {
                let prefix = normalize(&self.text);
                let mut parts: Vec<String> = Vec::with_capacity(cells.len() + 1);
                if !prefix.is_empty() {
                    parts.push(prefix);
                }
                parts.extend(cells.iter().map(|c| normalize(c)));
                parts.join(" | ")
            }
            None => normalize(&self.text),
        };
        (!text.trim().is_empty()).then_some(DocSpan {
            kind: self.kind,
            start: self.start,
            end: self.end,
            text,
        })
    }
}

struct HtmlSplitter<'a> {
    document: &'a str,
    spans: Vec<DocSpan>,
    /// Open span elements: (name, kind).
    stack: Vec<(String, SpanKind)>,
    /// Open containers whose end closes the items left open inside them
    /// (`<ul>`, `<ol>`, `<table>`, `<dl>`, ...): (name, depth of `stack`
    /// when they opened).
    containers: Vec<(String, usize)>,
    cur: Option<Segment>,
}

/// Containers whose end implicitly closes the items inside them.
fn closes_items(name: &str) -> bool {
    matches!(
        name,
        "ul" | "ol" | "dl" | "table" | "thead" | "tbody" | "tfoot"
    )
}

impl HtmlSplitter<'_> {
    fn flush(&mut self) {
        if let Some(seg) = self.cur.take()
            && let Some(span) = seg.finish()
        {
            self.spans.push(span);
        }
    }

    fn innermost(&self) -> Option<(usize, SpanKind)> {
        self.stack.last().map(|(_, k)| (self.stack.len() - 1, *k))
    }

    /// Text between tags, `[a, b)`; loose text is split at blank lines.
    fn text(&mut self, a: usize, b: usize) {
        let raw = &self.document[a..b];
        let loose = self.cur.as_ref().map_or(self.stack.is_empty(), |s| s.loose);
        let mut chunk_start = 0;
        let mut offset = 0;
        if loose {
            for line in raw.split_inclusive('\n') {
                if offset > 0 && line.ends_with('\n') && line.trim().is_empty() {
                    self.chunk(a + chunk_start, a + offset);
                    self.flush();
                    chunk_start = offset;
                }
                offset += line.len();
            }
        }
        self.chunk(a + chunk_start, b);
    }

    fn chunk(&mut self, a: usize, b: usize) {
        let raw = &self.document[a..b];
        let decoded = decode_entities(raw);
        if decoded.trim().is_empty() {
            if let Some(seg) = self.cur.as_mut() {
                seg.push_text(" ");
            }
            return;
        }
        let first = a + (raw.len() - raw.trim_start().len());
        let last = a + raw.trim_end().len();
        if self.cur.is_none() {
            let (depth, kind, loose) = match self.innermost() {
                Some((depth, kind)) => (depth, kind, false),
                None => (self.stack.len(), SpanKind::Paragraph, true),
            };
            self.cur = Some(Segment {
                kind,
                start: first,
                end: last,
                text: String::new(),
                cells: None,
                has_content: false,
                loose,
                depth,
            });
        }
        if let Some(seg) = self.cur.as_mut() {
            seg.push_text(&decoded);
            seg.has_content = true;
            seg.end = last.max(seg.start);
        }
    }

    fn tag(&mut self, tag: &Tag) {
        match tag_class(&tag.name) {
            TagClass::Span(kind) => {
                if tag.self_closing {
                    return;
                }
                if tag.closing {
                    self.close(tag);
                } else {
                    self.open(tag, kind);
                }
            }
            TagClass::Cell => {
                if tag.closing {
                    return;
                }
                if self.cur.as_ref().is_some_and(|s| s.loose) {
                    self.flush();
                }
                if self.cur.is_none() {
                    let (depth, kind) = self
                        .innermost()
                        .unwrap_or((self.stack.len(), SpanKind::TableRow));
                    self.cur = Some(Segment {
                        kind,
                        start: tag.start,
                        end: tag.end,
                        text: String::new(),
                        cells: None,
                        has_content: false,
                        loose: false,
                        depth,
                    });
                }
                if let Some(seg) = self.cur.as_mut() {
                    seg.cells.get_or_insert_with(Vec::new).push(String::new());
                }
            }
            TagClass::Block if closes_items(&tag.name) => {
                if tag.closing {
                    self.close_container(&tag.name);
                } else if !tag.self_closing {
                    self.containers.push((tag.name.clone(), self.stack.len()));
                }
                if self.cur.as_ref().is_some_and(|s| s.loose) {
                    self.flush();
                } else if let Some(seg) = self.cur.as_mut() {
                    seg.push_text(" ");
                }
            }
            TagClass::Block | TagClass::Unknown | TagClass::Skip => {
                if self.cur.as_ref().is_some_and(|s| s.loose) {
                    self.flush();
                } else if let Some(seg) = self.cur.as_mut() {
                    seg.push_text(" ");
                }
            }
            TagClass::Inline => {}
        }
    }

    fn open(&mut self, tag: &Tag, kind: SpanKind) {
        // Implicitly closed elements: `<p>` ends an open `<p>`, `<li>` an
        // open `<li>`, `<tr>` an open `<tr>`.
        if let Some((top, _)) = self.stack.last()
            && (top == "p" && matches!(kind, SpanKind::Paragraph | SpanKind::Heading(_))
                || top == &tag.name && matches!(tag.name.as_str(), "li" | "tr" | "dt" | "dd"))
        {
            self.stack.pop();
        }
        match &self.cur {
            Some(seg) if !seg.has_content && !seg.loose => {}
            _ => {
                self.flush();
                self.cur = Some(Segment {
                    kind,
                    start: tag.start,
                    end: tag.end,
                    text: String::new(),
                    cells: None,
                    has_content: false,
                    loose: false,
                    depth: self.stack.len(),
                });
            }
        }
        self.stack.push((tag.name.clone(), kind));
    }

    /// The end of a list or table: items and rows left open inside it end
    /// here, so the text after it is not read into its last item.
    fn close_container(&mut self, name: &str) {
        let Some(pos) = self.containers.iter().rposition(|(n, _)| n == name) else {
            return;
        };
        let depth = self.containers[pos].1;
        self.containers.truncate(pos);
        if self.stack.len() <= depth {
            return;
        }
        if let Some(seg) = self.cur.as_ref()
            && seg.depth >= depth
        {
            if seg.has_content {
                self.flush();
            } else {
                self.cur = None;
            }
        }
        self.stack.truncate(depth);
    }

    fn close(&mut self, tag: &Tag) {
        let Some(pos) = self.stack.iter().rposition(|(n, _)| n == &tag.name) else {
            return;
        };
        if let Some(seg) = self.cur.as_mut() {
            if seg.has_content {
                seg.end = tag.end;
                self.flush();
            } else if seg.depth >= pos {
                self.cur = None;
            }
        }
        self.stack.truncate(pos);
    }
}

pub(super) fn split_html(document: &str) -> Vec<DocSpan> {
    let mut splitter = HtmlSplitter {
        document,
        spans: Vec::new(),
        stack: Vec::new(),
        containers: Vec::new(),
        cur: None,
    };
    let mut i = 0;
    let mut text_start = 0;
    while let Some(found) = document[i..].find('<') {
        let at = i + found;
        let Some(tag) = parse_tag(document, at) else {
            i = at + 1;
            continue;
        };
        if text_start < at {
            splitter.text(text_start, at);
        }
        splitter.tag(&tag);
        i = tag.end;
        if matches!(tag_class(&tag.name), TagClass::Skip) && !tag.closing && !tag.self_closing {
            let close = format!("</{}", tag.name);
            let lower = document[i..].to_ascii_lowercase();
            i = match lower.find(&close) {
                Some(p) => {
                    let after = i + p;
                    document[after..]
                        .find('>')
                        .map_or(document.len(), |q| after + q + 1)
                }
                None => document.len(),
            };
        }
        text_start = i;
    }
    if text_start < document.len() {
        splitter.text(text_start, document.len());
    }
    splitter.flush();
    splitter.spans
}

//! Splits a policy document into spans: headings, paragraphs, list items and
//! table rows, each with its byte range in the document.
//!
//! Three readings are supported:
//!
//! * Markdown: blocks separated by blank lines, `#` headings, `-`/`1.` list
//!   items and `|` table rows.
//! * Plain text (no `#` heading anywhere): the Markdown reading, plus short
//!   lines without final punctuation followed by a blank line, and ALL CAPS
//!   lines, become headings.
//! * HTML: block elements (`<h1>`..`<h6>`, `<p>`, `<li>`, `<tr>`, ...) become
//!   spans wherever they sit on the lines; `<td>`/`<th>` cells are joined as
//!   `a | b` and entities are decoded in the text (offsets stay raw).
//!
//! [`heading_path`] gives a span's enclosing headings and
//! [`split_for_budget`] cuts long spans into sentence-aligned pieces.

use serde::Serialize;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum SpanKind {
    Heading(u8),
    Paragraph,
    ListItem,
    TableRow,
}

/// One span of the document.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DocSpan {
    pub kind: SpanKind,
    /// Byte range in the document, covering the span as written.
    pub start: usize,
    pub end: usize,
    /// The text to show: markup markers and tags removed.
    pub text: String,
}

impl DocSpan {
    /// Whether a rule's source range falls in this span.
    pub fn overlaps(&self, start: usize, end: usize) -> bool {
        start < self.end && end > self.start
            || (start == end && start >= self.start && start < self.end)
    }
}

/// Splits `document` into spans, choosing the HTML, Markdown or plain-text
/// reading.
pub fn split_spans(document: &str) -> Vec<DocSpan> {
    if looks_like_html(document) {
        split_html(document)
    } else {
        let plain = !document.lines().any(|l| l.trim_start().starts_with('#'));
        split_markdown(document, plain)
    }
}

/// Whether the document is read as HTML: mostly lines starting with a block
/// element, an HTML skeleton, or (without Markdown headings) many block tags.
fn looks_like_html(document: &str) -> bool {
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

/// The enclosing headings of span `index`, outermost first (for a heading,
/// the headings above it, not itself). Walks back from `index` and stops at
/// the first top-level heading, so the cost is bounded by the section size.
pub fn heading_path(spans: &[DocSpan], index: usize) -> Vec<String> {
    let Some(span) = spans.get(index) else {
        return Vec::new();
    };
    let mut limit = match span.kind {
        SpanKind::Heading(level) => level,
        _ => u8::MAX,
    };
    let mut path = Vec::new();
    for s in spans[..index].iter().rev() {
        if limit <= 1 {
            break;
        }
        if let SpanKind::Heading(level) = s.kind
            && level < limit
        {
            path.push(s.text.clone());
            limit = level;
        }
    }
    path.reverse();
    path
}

/// [`heading_path`] for every span at once, in one pass.
pub fn heading_paths(spans: &[DocSpan]) -> Vec<Vec<String>> {
    let mut stack: Vec<(u8, &str)> = Vec::new();
    spans
        .iter()
        .map(|span| {
            if let SpanKind::Heading(level) = span.kind {
                while stack.last().is_some_and(|&(l, _)| l >= level) {
                    stack.pop();
                }
                let path = stack.iter().map(|&(_, t)| t.to_string()).collect();
                stack.push((level, &span.text));
                path
            } else {
                stack.iter().map(|&(_, t)| t.to_string()).collect()
            }
        })
        .collect()
}

/// Splits every span whose text is longer than `max_chars` characters into
/// pieces of at most `max_chars`, cutting at sentence ends (packing whole
/// sentences into a piece while they fit) and, for a sentence longer than the
/// budget, at the last whitespace before the budget. Each piece keeps the
/// span's kind; its `start`/`end` are the byte range in `document` of the
/// piece's own text (first to last character, markup around it excluded).
pub fn split_for_budget(spans: &[DocSpan], document: &str, max_chars: usize) -> Vec<DocSpan> {
    let max_chars = max_chars.max(1);
    let html = looks_like_html(document);
    let mut out = Vec::with_capacity(spans.len());
    for span in spans {
        if span.text.chars().count() <= max_chars {
            out.push(span.clone());
            continue;
        }
        let ranges = budget_pieces(&span.text, max_chars);
        let positions = align_text(span, document, html);
        let mut cursor = 0;
        for (a, b) in ranges {
            let mut first = None;
            let mut last = None;
            while cursor < positions.len() && positions[cursor].0 < b {
                let (ti, ds, de) = positions[cursor];
                if ti >= a && ds < de {
                    first.get_or_insert(ds);
                    last = Some(de);
                }
                cursor += 1;
            }
            let prev_end = out
                .last()
                .map_or(span.start, |s: &DocSpan| s.end.max(span.start));
            let start = first.unwrap_or(prev_end);
            let end = last.unwrap_or(start).max(start);
            out.push(DocSpan {
                kind: span.kind,
                start,
                end,
                text: span.text[a..b].to_string(),
            });
        }
    }
    out
}

/// Common abbreviations after which a period does not end a sentence.
const ABBREVIATIONS: &[&str] = &[
    "e.g", "i.e", "etc", "mr", "mrs", "ms", "dr", "no", "nos", "st", "vs", "cf", "prof", "jr",
    "sr", "inc", "ltd", "co", "fig", "approx", "art", "sec", "para", "pp", "vol", "op", "ref",
    "jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec",
];

fn is_quote(c: char) -> bool {
    matches!(c, '"' | '\'' | '“' | '‘' | '”' | '’' | '(' | '[')
}

/// Whether the word ending just before a period is an abbreviation.
fn is_abbreviation(word: &str) -> bool {
    let word = word.trim_start_matches(|c: char| is_quote(c));
    if word.is_empty() {
        return false;
    }
    let lower = word.to_lowercase();
    if ABBREVIATIONS.contains(&lower.as_str()) {
        return true;
    }
    // Initials and dotted abbreviations: "J", "U.S", "a.m".
    lower
        .split('.')
        .all(|part| part.chars().count() == 1 && part.chars().all(char::is_alphabetic))
}

/// Byte ranges of the sentences of `text` (trimmed, non-empty).
pub fn sentence_ranges(text: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut start = 0;
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    let mut k = 0;
    while k < chars.len() {
        let (i, c) = chars[k];
        if matches!(c, '.' | '?' | '!') {
            let mut j = k + 1;
            while j < chars.len() && matches!(chars[j].1, '"' | '\'' | '”' | '’' | ')' | ']') {
                j += 1;
            }
            let has_space = j < chars.len() && chars[j].1.is_whitespace();
            let mut n = j;
            while n < chars.len() && chars[n].1.is_whitespace() {
                n += 1;
            }
            let next_ok = n < chars.len()
                && (chars[n].1.is_uppercase()
                    || chars[n].1.is_ascii_digit()
                    || is_quote(chars[n].1));
            let abbreviation = c == '.' && {
                let word_start = text[..i].rfind(char::is_whitespace).map_or(0, |p| {
                    p + text[p..].chars().next().map_or(1, char::len_utf8)
                });
                is_abbreviation(&text[word_start..i])
            };
            if has_space && next_ok && !abbreviation {
                let end = chars[j].0;
                push_trimmed(text, start, end, &mut out);
                start = chars[n].0;
                k = n;
                continue;
            }
        }
        k += 1;
    }
    push_trimmed(text, start, text.len(), &mut out);
    out
}

fn push_trimmed(text: &str, a: usize, b: usize, out: &mut Vec<(usize, usize)>) {
    let slice = &text[a..b];
    let lead = slice.len() - slice.trim_start().len();
    let trail = slice.len() - slice.trim_end().len();
    if a + lead < b - trail {
        out.push((a + lead, b - trail));
    }
}

/// Pieces of `text` of at most `max_chars` characters: whole sentences packed
/// while they fit, over-long sentences cut at whitespace.
fn budget_pieces(text: &str, max_chars: usize) -> Vec<(usize, usize)> {
    let mut out: Vec<(usize, usize)> = Vec::new();
    let mut open: Option<(usize, usize)> = None;
    for (a, b) in sentence_ranges(text) {
        if let Some((pa, _)) = open {
            if text[pa..b].chars().count() <= max_chars {
                open = Some((pa, b));
                continue;
            }
            out.extend(open.take());
        }
        if text[a..b].chars().count() <= max_chars {
            open = Some((a, b));
        } else {
            cut_long(text, a, b, max_chars, &mut out);
        }
    }
    out.extend(open);
    out
}

/// Cuts `text[a..b]` at the last whitespace before each budget.
fn cut_long(text: &str, mut a: usize, b: usize, max_chars: usize, out: &mut Vec<(usize, usize)>) {
    while a < b {
        let rest = &text[a..b];
        let Some((cut, _)) = rest.char_indices().nth(max_chars) else {
            push_trimmed(text, a, b, out);
            return;
        };
        // A space at `cut` itself still leaves `max_chars` characters before it.
        let window = &rest[..cut + rest[cut..].chars().next().map_or(0, char::len_utf8)];
        match window.rfind(char::is_whitespace).filter(|&p| p > 0) {
            Some(p) => {
                push_trimmed(text, a, a + p, out);
                a += p;
            }
            None => {
                push_trimmed(text, a, a + cut, out);
                a += cut;
            }
        }
        a += text[a..b].len() - text[a..b].trim_start().len();
    }
}

/// For each non-whitespace character of `span.text`: its byte index in the
/// text and the byte range in `document` it was read from (empty when it was
/// not found, e.g. the `|` joining HTML cells).
fn align_text(span: &DocSpan, document: &str, html: bool) -> Vec<(usize, usize, usize)> {
    let end = span.end.min(document.len());
    let mut cursor = span.start.min(end);
    let mut out = Vec::with_capacity(span.text.len());
    for (ti, c) in span.text.char_indices() {
        if c.is_whitespace() {
            continue;
        }
        let mut j = cursor;
        let mut found = None;
        while j < end {
            let b = document.as_bytes()[j];
            if b == b'<'
                && let Some(tag) = parse_tag(document, j)
                && (html || !matches!(tag_class(&tag.name), TagClass::Unknown))
            {
                j = tag.end;
                continue;
            }
            if html
                && b == b'&'
                && let Some((decoded, len)) = entity_at(&document[j..])
            {
                if decoded == c {
                    found = Some((j, j + len));
                    break;
                }
                j += len;
                continue;
            }
            let dc = document[j..].chars().next().unwrap_or(' ');
            if dc == c {
                found = Some((j, j + dc.len_utf8()));
                break;
            }
            j += dc.len_utf8();
        }
        match found {
            Some((s, e)) => {
                out.push((ti, s, e));
                cursor = e;
            }
            None => out.push((ti, cursor, cursor)),
        }
    }
    out
}

/// Lines with byte offsets.
fn lines_with_offsets(document: &str) -> impl Iterator<Item = (usize, &str)> {
    let mut offset = 0;
    document.split_inclusive('\n').map(move |raw| {
        let start = offset;
        offset += raw.len();
        (start, raw.trim_end_matches(['\n', '\r']))
    })
}

/// The kind of a line starting with a block element tag.
fn html_tag(line: &str) -> Option<SpanKind> {
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

fn strip_tags(text: &str) -> String {
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

fn normalize(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The character an entity at the start of `s` stands for, and its length.
fn entity_at(s: &str) -> Option<(char, usize)> {
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

fn decode_entities(s: &str) -> String {
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
struct Tag {
    /// Lower-case name; empty for comments, doctypes and processing
    /// instructions.
    name: String,
    closing: bool,
    self_closing: bool,
    /// Byte range of the whole tag.
    start: usize,
    end: usize,
}

/// Parses the tag starting at byte `at` (a `<`), if it is one.
fn parse_tag(document: &str, at: usize) -> Option<Tag> {
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

enum TagClass {
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

fn tag_class(name: &str) -> TagClass {
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
    cur: Option<Segment>,
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

fn split_html(document: &str) -> Vec<DocSpan> {
    let mut splitter = HtmlSplitter {
        document,
        spans: Vec::new(),
        stack: Vec::new(),
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

fn list_marker(line: &str) -> Option<usize> {
    let trimmed = line.trim_start();
    let indent = line.len() - trimmed.len();
    for bullet in ["- ", "* ", "+ "] {
        if trimmed.starts_with(bullet) {
            return Some(indent + 2);
        }
    }
    let digits = trimmed.chars().take_while(|c| c.is_ascii_digit()).count();
    if digits > 0 && (trimmed[digits..].starts_with(". ") || trimmed[digits..].starts_with(") ")) {
        return Some(indent + digits + 2);
    }
    None
}

fn is_table_separator(line: &str) -> bool {
    let t = line.trim();
    t.starts_with('|') && t.chars().all(|c| matches!(c, '|' | '-' | ':' | ' '))
}

/// The heading level of a plain-text line starting a block, if it reads as a
/// heading: ALL CAPS (level 1), or short, without final punctuation, starting
/// with a capital or digit and followed by a blank line (level 2).
fn plain_heading(trimmed: &str, next_blank: bool) -> Option<u8> {
    let letters = trimmed.chars().filter(|c| c.is_alphabetic()).count();
    if letters == 0 {
        return None;
    }
    let chars = trimmed.chars().count();
    if letters >= 2 && chars <= 100 && !trimmed.chars().any(char::is_lowercase) {
        return Some(1);
    }
    let last = trimmed.chars().next_back()?;
    let first = trimmed.chars().next()?;
    let short = chars <= 80 && trimmed.split_whitespace().count() <= 12;
    (next_blank
        && short
        && !matches!(last, '.' | ':' | ';' | ',' | '!' | '?')
        && (first.is_uppercase() || first.is_ascii_digit()))
    .then_some(2)
}

fn split_markdown(document: &str, plain: bool) -> Vec<DocSpan> {
    let mut spans: Vec<DocSpan> = Vec::new();
    // The paragraph or list item being gathered: (kind, start, end, text).
    let mut open: Option<(SpanKind, usize, usize, String)> = None;
    let flush = |open: &mut Option<(SpanKind, usize, usize, String)>, spans: &mut Vec<DocSpan>| {
        if let Some((kind, start, end, text)) = open.take() {
            let text = normalize(&text);
            if !text.is_empty() {
                spans.push(DocSpan {
                    kind,
                    start,
                    end,
                    text,
                });
            }
        }
    };
    let lines: Vec<(usize, &str)> = lines_with_offsets(document).collect();
    for (index, &(start, line)) in lines.iter().enumerate() {
        let end = start + line.len();
        let trimmed = line.trim();
        if trimmed.is_empty() {
            flush(&mut open, &mut spans);
            continue;
        }
        if trimmed.starts_with('#') {
            flush(&mut open, &mut spans);
            let level = trimmed.chars().take_while(|&c| c == '#').count().min(3) as u8;
            let text = trimmed.trim_start_matches('#').trim().to_string();
            spans.push(DocSpan {
                kind: SpanKind::Heading(level),
                start,
                end,
                text,
            });
            continue;
        }
        if trimmed.starts_with('|') {
            flush(&mut open, &mut spans);
            if !is_table_separator(trimmed) {
                let cells: Vec<&str> = trimmed
                    .trim_matches('|')
                    .split('|')
                    .map(str::trim)
                    .collect();
                spans.push(DocSpan {
                    kind: SpanKind::TableRow,
                    start,
                    end,
                    text: cells.join(" | "),
                });
            }
            continue;
        }
        if let Some(marker) = list_marker(line) {
            flush(&mut open, &mut spans);
            open = Some((
                SpanKind::ListItem,
                start,
                end,
                line[marker.min(line.len())..].to_string(),
            ));
            continue;
        }
        if let Some(kind) = html_tag(trimmed) {
            flush(&mut open, &mut spans);
            spans.push(DocSpan {
                kind,
                start,
                end,
                text: strip_tags(trimmed),
            });
            continue;
        }
        if plain && open.is_none() {
            let next_blank = lines
                .get(index + 1)
                .is_none_or(|(_, next)| next.trim().is_empty());
            if let Some(level) = plain_heading(trimmed, next_blank) {
                let lead = line.len() - line.trim_start().len();
                spans.push(DocSpan {
                    kind: SpanKind::Heading(level),
                    start: start + lead,
                    end: start + lead + trimmed.len(),
                    text: normalize(trimmed),
                });
                continue;
            }
        }
        match &mut open {
            Some((_, _, open_end, text)) => {
                *open_end = end;
                text.push(' ');
                text.push_str(trimmed);
            }
            None => open = Some((SpanKind::Paragraph, start, end, trimmed.to_string())),
        }
    }
    flush(&mut open, &mut spans);
    spans
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markdown_blocks_become_spans_with_offsets() {
        let doc = "# Fees\n\nThe fee is $50\nper visit.\n\n- Seniors pay less.\n- Children\n  pay half.\n\n| Age | Fee |\n|---|---|\n| 65+ | 30 |\n";
        let spans = split_spans(doc);
        let kinds: Vec<SpanKind> = spans.iter().map(|s| s.kind).collect();
        assert_eq!(
            kinds,
            vec![
                SpanKind::Heading(1),
                SpanKind::Paragraph,
                SpanKind::ListItem,
                SpanKind::ListItem,
                SpanKind::TableRow,
                SpanKind::TableRow
            ]
        );
        assert_eq!(spans[1].text, "The fee is $50 per visit.");
        assert_eq!(
            &doc[spans[1].start..spans[1].end],
            "The fee is $50\nper visit."
        );
        assert_eq!(spans[3].text, "Children pay half.");
        assert_eq!(spans[5].text, "65+ | 30");
    }

    #[test]
    fn html_lines_are_split_per_element() {
        let doc = "Title line\n<h1>Overview</h1>\n<p>You can <b>appeal</b>.</p>\n<li>Wales</li>\n";
        let spans = split_spans(doc);
        assert_eq!(spans.len(), 4);
        assert_eq!(spans[0].kind, SpanKind::Paragraph);
        assert_eq!(&doc[spans[0].start..spans[0].end], "Title line");
        assert_eq!(spans[1].kind, SpanKind::Heading(1));
        // Inline tags no longer leave a space behind.
        assert_eq!(spans[2].text, "You can appeal.");
        assert_eq!(spans[3].kind, SpanKind::ListItem);
        assert_eq!(&doc[spans[3].start..spans[3].end], "<li>Wales</li>");
    }

    #[test]
    fn several_html_elements_on_one_line() {
        let doc = "<html><body><h2>Fees</h2><p>a fee</p><p>b fee</p><ul><li>one</li><li>two</li></ul></body></html>";
        let spans = split_spans(doc);
        let got: Vec<(SpanKind, &str)> = spans.iter().map(|s| (s.kind, s.text.as_str())).collect();
        assert_eq!(
            got,
            vec![
                (SpanKind::Heading(2), "Fees"),
                (SpanKind::Paragraph, "a fee"),
                (SpanKind::Paragraph, "b fee"),
                (SpanKind::ListItem, "one"),
                (SpanKind::ListItem, "two"),
            ]
        );
        assert_eq!(&doc[spans[1].start..spans[1].end], "<p>a fee</p>");
        assert_eq!(&doc[spans[4].start..spans[4].end], "<li>two</li>");
    }

    #[test]
    fn html_element_across_lines_and_table_cells() {
        let doc = "<p>one</p><p>two</p>\n<ul>\n  <li>first line\n      second line</li>\n</ul>\n<table>\n<tr><th>Age</th><th>Fee</th></tr>\n<tr>\n  <td>65+</td>\n  <td>£30</td>\n</tr>\n</table>\n";
        let spans = split_spans(doc);
        let got: Vec<(SpanKind, &str)> = spans.iter().map(|s| (s.kind, s.text.as_str())).collect();
        assert_eq!(
            got,
            vec![
                (SpanKind::Paragraph, "one"),
                (SpanKind::Paragraph, "two"),
                (SpanKind::ListItem, "first line second line"),
                (SpanKind::TableRow, "Age | Fee"),
                (SpanKind::TableRow, "65+ | £30"),
            ]
        );
        assert!(doc[spans[2].start..spans[2].end].starts_with("<li>first"));
        assert!(doc[spans[4].start..spans[4].end].ends_with("</tr>"));
    }

    #[test]
    fn nested_lists_and_paragraphs_in_items() {
        let doc = "<ul><li><p>Wrapped</p></li><li>Outer<ul><li>Inner</li></ul></li></ul>";
        let spans = split_spans(doc);
        let got: Vec<(SpanKind, &str)> = spans.iter().map(|s| (s.kind, s.text.as_str())).collect();
        assert_eq!(
            got,
            vec![
                (SpanKind::ListItem, "Wrapped"),
                (SpanKind::ListItem, "Outer"),
                (SpanKind::ListItem, "Inner"),
            ]
        );
        for pair in spans.windows(2) {
            assert!(pair[0].end <= pair[1].start);
        }
    }

    #[test]
    fn html_entities_are_decoded_offsets_raw() {
        let doc = "<p>Tom &amp; Jerry &lt;3 &gt; &quot;x&quot; &#39;y&#39;&nbsp;z &#8364;5 &#x41;</p><p>&unknown; stays</p>";
        let spans = split_spans(doc);
        assert_eq!(spans[0].text, "Tom & Jerry <3 > \"x\" 'y' z €5 A");
        assert_eq!(spans[0].start, 0);
        assert_eq!(&doc[spans[0].end - 4..spans[0].end], "</p>");
        assert_eq!(spans[1].text, "&unknown; stays");
    }

    #[test]
    fn comments_and_scripts_are_skipped() {
        let doc = "<!DOCTYPE html><html><head><style>p { x: 1 }</style><script>if (a < b) {}</script></head><body><!-- note --><p>Kept</p></body></html>";
        let spans = split_spans(doc);
        assert_eq!(spans.len(), 1);
        assert_eq!(spans[0].text, "Kept");
    }

    #[test]
    fn odd_inputs_keep_invariants() {
        let docs = [
            "",
            "<",
            "<p",
            "&",
            "a < b and c > d",
            "<p>&#xFFFFFFFF; &#99999999999; é</p>",
            "<p>unclosed <li>item<p>next",
            "</p></li>stray closes<p>ok</p>",
            "<html><body>loose text\n\nmore loose<div>in div</div></body></html>",
            "<p>ü<b>ñ</b>\u{a0}&nbsp;</p><tr><td></td><td></td></tr><tr><td>x</td><td></td></tr>",
            "ÉTÉ\n\nTexte ici.\n",
        ];
        for doc in docs {
            let spans = split_spans(doc);
            let mut previous = 0;
            for s in &spans {
                assert!(s.start < s.end && s.end <= doc.len(), "{doc:?}: {s:?}");
                assert!(doc.is_char_boundary(s.start) && doc.is_char_boundary(s.end));
                assert!(s.start >= previous, "{doc:?}: {spans:?}");
                assert!(!s.text.is_empty());
                previous = s.end;
            }
            for p in split_for_budget(&spans, doc, 3) {
                assert!(p.text.chars().count() <= 3, "{doc:?}: {p:?}");
                assert!(doc.is_char_boundary(p.start) && doc.is_char_boundary(p.end));
            }
        }
        let spans = split_spans("<p>unclosed <li>item<p>next");
        let texts: Vec<&str> = spans.iter().map(|s| s.text.as_str()).collect();
        assert_eq!(texts, vec!["unclosed", "item", "next"]);
    }

    #[test]
    fn plain_text_paragraphs_and_headings() {
        let doc = "ADMISSION POLICY\nThe park opens daily.\n\nFees and discounts\n\nThe fee is $50\nper visit.\n\nSeniors pay less\nthan adults do.\n\nYou must:\n\n- bring a ticket.\n";
        let spans = split_spans(doc);
        let got: Vec<(SpanKind, &str)> = spans.iter().map(|s| (s.kind, s.text.as_str())).collect();
        assert_eq!(
            got,
            vec![
                (SpanKind::Heading(1), "ADMISSION POLICY"),
                (SpanKind::Paragraph, "The park opens daily."),
                (SpanKind::Heading(2), "Fees and discounts"),
                (SpanKind::Paragraph, "The fee is $50 per visit."),
                (SpanKind::Paragraph, "Seniors pay less than adults do."),
                (SpanKind::Paragraph, "You must:"),
                (SpanKind::ListItem, "bring a ticket."),
            ]
        );
        assert_eq!(&doc[spans[2].start..spans[2].end], "Fees and discounts");
        let paths = heading_paths(&spans);
        assert_eq!(paths[3], vec!["ADMISSION POLICY", "Fees and discounts"]);
        assert_eq!(heading_path(&spans, 3), paths[3]);
    }

    #[test]
    fn markdown_with_headings_keeps_short_lines_as_paragraphs() {
        let doc = "# Fees\n\nShort line\n\nMORE TEXT\n";
        let spans = split_spans(doc);
        assert_eq!(spans[1].kind, SpanKind::Paragraph);
        assert_eq!(spans[2].kind, SpanKind::Paragraph);
    }

    #[test]
    fn heading_path_follows_levels() {
        let doc = "# Park\n\n## Admission fees\n\nFee text.\n\n### Discounts\n\nSenior text.\n\n## Credits\n\nCredit text.\n";
        let spans = split_spans(doc);
        assert_eq!(heading_path(&spans, 0), Vec::<String>::new());
        assert_eq!(heading_path(&spans, 2), vec!["Park", "Admission fees"]);
        assert_eq!(heading_path(&spans, 3), vec!["Park", "Admission fees"]);
        assert_eq!(
            heading_path(&spans, 4),
            vec!["Park", "Admission fees", "Discounts"]
        );
        assert_eq!(heading_path(&spans, 6), vec!["Park", "Credits"]);
        assert_eq!(heading_path(&spans, 99), Vec::<String>::new());
        let all = heading_paths(&spans);
        for (i, path) in all.iter().enumerate() {
            assert_eq!(&heading_path(&spans, i), path);
        }
    }

    fn sentences(text: &str) -> Vec<&str> {
        sentence_ranges(text)
            .into_iter()
            .map(|(a, b)| &text[a..b])
            .collect()
    }

    #[test]
    fn sentences_respect_abbreviations_and_decimals() {
        assert_eq!(
            sentences("Pay 1.5 times the fee. Seniors pay less! Really? Yes."),
            vec![
                "Pay 1.5 times the fee.",
                "Seniors pay less!",
                "Really?",
                "Yes."
            ]
        );
        assert_eq!(
            sentences("Bring ID, e.g. A passport. Also fruit, i.e. Apples. Pens etc. Are fine."),
            vec![
                "Bring ID, e.g. A passport.",
                "Also fruit, i.e. Apples.",
                "Pens etc. Are fine."
            ]
        );
        assert_eq!(
            sentences(
                "Ask Dr. Smith or Mr. Jones. See form No. 5 for details. It costs £2.50. \"Quoted\" next."
            ),
            vec![
                "Ask Dr. Smith or Mr. Jones.",
                "See form No. 5 for details.",
                "It costs £2.50.",
                "\"Quoted\" next."
            ]
        );
        // Lower-case continuation and initials do not end a sentence.
        assert_eq!(
            sentences("Apply by 5 p.m. today. J. Smith signs. The U.S. Office agrees."),
            vec![
                "Apply by 5 p.m. today.",
                "J. Smith signs.",
                "The U.S. Office agrees."
            ]
        );
        assert_eq!(
            sentences("He said \"stop.\" Then left."),
            vec!["He said \"stop.\"", "Then left."]
        );
        assert_eq!(sentences("   "), Vec::<&str>::new());
    }

    #[test]
    fn budget_split_keeps_offsets_and_text() {
        let doc = "# Fees\n\nThe fee is $50 per visit. Seniors, e.g. those over 65, pay\n1.5 times less. Children pay half.\n\n- An item that is long. Another sentence here.\n";
        let spans = split_spans(doc);
        let pieces = split_for_budget(&spans, doc, 30);
        for p in &pieces {
            assert!(p.text.chars().count() <= 30, "{p:?}");
            if !spans.contains(p) {
                assert_eq!(normalize(&doc[p.start..p.end]), p.text, "{p:?}");
            }
        }
        let para: Vec<&str> = pieces
            .iter()
            .filter(|p| p.kind == SpanKind::Paragraph)
            .map(|p| p.text.as_str())
            .collect();
        assert_eq!(
            para,
            vec![
                "The fee is $50 per visit.",
                "Seniors, e.g. those over 65,",
                "pay 1.5 times less.",
                "Children pay half."
            ]
        );
        assert_eq!(para.join(" "), spans[1].text);
        let items: Vec<&str> = pieces
            .iter()
            .filter(|p| p.kind == SpanKind::ListItem)
            .map(|p| p.text.as_str())
            .collect();
        assert_eq!(
            items,
            vec!["An item that is long.", "Another sentence here."]
        );
        // Short spans are untouched.
        assert_eq!(split_for_budget(&spans, doc, 1000), spans);
    }

    #[test]
    fn budget_split_packs_sentences_and_cuts_long_words() {
        let text = "Aa. Bb. Cc. Dd.";
        assert_eq!(budget_pieces(text, 8), vec![(0, 7), (8, 15)]);
        let long = "abcdefghij klm";
        let pieces: Vec<&str> = budget_pieces(long, 4)
            .into_iter()
            .map(|(a, b)| &long[a..b])
            .collect();
        assert_eq!(pieces, vec!["abcd", "efgh", "ij", "klm"]);
    }

    #[test]
    fn budget_split_on_html_maps_decoded_text_to_raw_offsets() {
        let doc = "<p>Tom &amp; Jerry pay. <b>Seniors</b> pay less.</p>";
        let spans = split_spans(doc);
        let pieces = split_for_budget(&spans, doc, 20);
        let got: Vec<(&str, &str)> = pieces
            .iter()
            .map(|p| (p.text.as_str(), &doc[p.start..p.end]))
            .collect();
        assert_eq!(
            got,
            vec![
                ("Tom & Jerry pay.", "Tom &amp; Jerry pay."),
                ("Seniors pay less.", "Seniors</b> pay less.")
            ]
        );
    }
}

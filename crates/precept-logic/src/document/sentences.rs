//! Sentences: the byte ranges of a text's sentences, and cutting long
//! spans into sentence-aligned pieces within a character budget.

use super::html::{TagClass, entity_at, looks_like_html, parse_tag, tag_class};
use super::span::DocSpan;

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
pub(super) fn budget_pieces(text: &str, max_chars: usize) -> Vec<(usize, usize)> {
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

//! Finds a quotation from the LLM in the text it was given, so untranslated
//! statements are reported with their exact byte span. An exact match is
//! tried first, then one that ignores case, runs of white space and the
//! kind of quotation marks and apostrophes; the span is always that of the
//! original text.

use serde::Serialize;

/// Which part of the input a span lies in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum TextPart {
    Question,
    Answer,
}

/// A located quotation: `text` is exactly `part[start..end]`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Located {
    pub part: TextPart,
    pub start: usize,
    pub end: usize,
    pub text: String,
}

/// Locates `quote` in the answer, else in the question.
pub fn locate_in(question: &str, answer: &str, quote: &str) -> Option<Located> {
    [(TextPart::Answer, answer), (TextPart::Question, question)]
        .into_iter()
        .find_map(|(part, text)| {
            locate(text, quote).map(|(start, end)| Located {
                part,
                start,
                end,
                text: text[start..end].to_string(),
            })
        })
}

/// The byte range of `quote` in `text`, if it occurs there (see the module).
pub fn locate(text: &str, quote: &str) -> Option<(usize, usize)> {
    let quote = quote
        .trim()
        .trim_matches(|c: char| matches!(c, '"' | '\'' | '“' | '”' | '‘' | '’' | '«' | '»'))
        .trim();
    if quote.is_empty() {
        return None;
    }
    if let Some(start) = text.find(quote) {
        return Some((start, start + quote.len()));
    }
    let (haystack, offsets) = normalize_with_offsets(text);
    let (needle, _) = normalize_with_offsets(quote);
    let needle = needle.trim();
    if needle.is_empty() {
        return None;
    }
    let at = haystack.find(needle)?;
    // `offsets[i]` is the byte in `text` where normalized char i starts.
    let first = haystack[..at].chars().count();
    let last = first + needle.chars().count() - 1;
    let start = offsets[first];
    let last_start = offsets[last];
    let end = last_start + text[last_start..].chars().next()?.len_utf8();
    Some((start, end))
}

/// Lower-cased text with white-space runs collapsed to one space and
/// typographic quotes made plain; for each kept character, the byte offset
/// of the original character it stands for.
fn normalize_with_offsets(text: &str) -> (String, Vec<usize>) {
    let mut normalized = String::with_capacity(text.len());
    let mut offsets = Vec::with_capacity(text.len());
    let mut last_was_space = false;
    for (offset, c) in text.char_indices() {
        if c.is_whitespace() {
            if !last_was_space {
                normalized.push(' ');
                offsets.push(offset);
            }
            last_was_space = true;
            continue;
        }
        last_was_space = false;
        let plain = match c {
            '“' | '”' | '«' | '»' => '"',
            '‘' | '’' => '\'',
            other => other,
        };
        // One output character per input character, so offsets stay aligned.
        let lower = plain.to_lowercase().next().unwrap_or(plain);
        normalized.push(lower);
        offsets.push(offset);
    }
    (normalized, offsets)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_quotes_give_their_byte_span() {
        let text = "Yes. You also get free parking.";
        let (start, end) = locate(text, "You also get free parking").expect("found");
        assert_eq!(&text[start..end], "You also get free parking");
        assert_eq!(start, 5);
    }

    #[test]
    fn loose_quotes_map_back_to_the_original_text() {
        let text = "Sure!  The café’s\n  parking is FREE.";
        let (start, end) = locate(text, "\"the café's parking is free\"").expect("found");
        assert_eq!(&text[start..end], "The café’s\n  parking is FREE");
    }

    #[test]
    fn absent_quotes_are_not_found() {
        assert_eq!(locate("Yes, you can.", "free parking"), None);
        assert_eq!(locate("Yes, you can.", "  \"\" "), None);
        let found = locate_in("Can I park?", "Yes.", "Can I park").expect("in the question");
        assert_eq!(found.part, TextPart::Question);
        assert_eq!((found.start, found.end), (0, 10));
    }
}

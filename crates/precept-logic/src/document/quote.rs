//! Finding a rule's quoted source in a span's text: the quote is matched on
//! its letters and digits alone (case, whitespace and punctuation may
//! differ: "you’re" matches "you're", "£1,000" matches "£1000"), and the
//! sentences holding it are what the rule comes from.

use super::html::{decode_entities, strip_tags};
use super::sentences::sentence_ranges;
use super::span::DocSpan;

/// The letters and digits of `text`, lower-cased, each with the byte range
/// of the character it came from.
fn folded(text: &str) -> Vec<(char, usize, usize)> {
    let mut out = Vec::with_capacity(text.len());
    for (at, c) in text.char_indices() {
        if c.is_alphanumeric() {
            let end = at + c.len_utf8();
            out.extend(c.to_lowercase().map(|l| (l, at, end)));
        }
    }
    out
}

/// Whether the character before byte `at` of `text` ends a word (or there is
/// none), so a match starting at `at` starts at a word.
fn starts_word(text: &str, at: usize) -> bool {
    text[..at]
        .chars()
        .next_back()
        .is_none_or(|c| !c.is_alphanumeric())
}

fn ends_word(text: &str, at: usize) -> bool {
    text[at..]
        .chars()
        .next()
        .is_none_or(|c| !c.is_alphanumeric())
}

/// The byte range of `quote` in `text`, matched on letters and digits only
/// and from word start to word end; the first such place. None when the
/// quote has no letters or digits or is not there.
pub fn find_quote(text: &str, quote: &str) -> Option<(usize, usize)> {
    let needle: Vec<char> = folded(quote).into_iter().map(|(c, _, _)| c).collect();
    if needle.is_empty() {
        return None;
    }
    let hay = folded(text);
    if hay.len() < needle.len() {
        return None;
    }
    (0..=hay.len() - needle.len()).find_map(|i| {
        let window = &hay[i..i + needle.len()];
        let (start, end) = (window[0].1, window[needle.len() - 1].2);
        (window.iter().map(|(c, _, _)| *c).eq(needle.iter().copied())
            && starts_word(text, start)
            && ends_word(text, end))
        .then_some((start, end))
    })
}

/// The byte range of the sentences of `text` that hold `quote` (from the
/// start of the sentence where it starts to the end of the one where it
/// ends), when the quote is found.
pub fn quoted_sentences(text: &str, quote: &str) -> Option<(usize, usize)> {
    let (start, end) = find_quote(text, quote)?;
    let sentences = sentence_ranges(text);
    let first = sentences
        .iter()
        .find(|(a, b)| start >= *a && start < *b)
        .map_or(start, |(a, _)| *a);
    let last = sentences
        .iter()
        .find(|(a, b)| end > *a && end <= *b)
        .map_or(end, |(_, b)| *b);
    Some((first, last.max(first)))
}

/// What a rule was formalized from, as precisely as it is known: its source
/// range in the document and the quote its formalization recorded.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct RuleSource<'a> {
    /// The byte range of the rule's source in the document.
    pub range: Option<(usize, usize)>,
    /// The sentences the formalization quoted for the rule, if any.
    pub quotes: &'a [&'a str],
}

/// The part of `span.text` to highlight as the rule's own sentences: found
/// from the rule's source range when that is narrower than the span, else
/// from the first quote its formalization recorded that is found. None when neither is found in
/// the span (the whole span is the rule's source).
pub fn rule_sentences(
    document: &str,
    span: &DocSpan,
    source: RuleSource,
) -> Option<(usize, usize)> {
    let narrower = source.range.and_then(|(start, end)| {
        let start = start.max(span.start);
        let end = end.min(span.end).min(document.len());
        (start < end
            && (start > span.start || end < span.end)
            && document.is_char_boundary(start)
            && document.is_char_boundary(end))
        .then(|| decode_entities(&strip_tags(&document[start..end])))
    });
    narrower
        .and_then(|quote| quoted_sentences(&span.text, &quote))
        .or_else(|| {
            source
                .quotes
                .iter()
                .find_map(|quote| quoted_sentences(&span.text, quote))
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::document::split_spans;

    #[test]
    fn quotes_match_across_whitespace_punctuation_and_case() {
        let text = "You can be fined up to £1,000 and get up to 6 penalty points if you’re riding.";
        let found = |q: &str| find_quote(text, q).map(|(a, b)| &text[a..b]);
        assert_eq!(
            found("can be fined up to £1000"),
            Some("can be fined up to £1,000")
        );
        assert_eq!(found("if you're   RIDING"), Some("if you’re riding"));
        assert_eq!(found("6 penalty-points"), Some("6 penalty points"));
        // Only whole words: "an" is not the start of "and".
        assert_eq!(found("an get"), None);
        assert_eq!(found("ride"), None);
        assert_eq!(found("..."), None);
        assert_eq!(found(""), None);
        assert_eq!(found("points if you are riding"), None);
    }

    #[test]
    fn the_sentences_holding_a_quote() {
        let text =
            "CBT is a course. You can be fined up to £1,000 and get 6 points. It is not a test.";
        let sentence = |q: &str| quoted_sentences(text, q).map(|(a, b)| &text[a..b]);
        assert_eq!(
            sentence("fined up to £1000"),
            Some("You can be fined up to £1,000 and get 6 points.")
        );
        assert_eq!(
            sentence("6 points. It is not"),
            Some("You can be fined up to £1,000 and get 6 points. It is not a test.")
        );
        assert_eq!(sentence("a course"), Some("CBT is a course."));
        assert_eq!(sentence("a refund"), None);
    }

    #[test]
    fn a_rule_highlights_its_own_sentence_from_its_range_or_its_quote() {
        let document = "# Training\n\nCBT is a course you take before you ride.\nThe training makes sure you can ride safely.\nCBT is not a test that you pass or fail.\n";
        let spans = split_spans(document);
        let span = &spans[1];
        let highlighted = |source: RuleSource| {
            rule_sentences(document, span, source).map(|(a, b)| &span.text[a..b])
        };
        // A source range narrower than the span: its own sentence.
        let at = document.find("makes sure").unwrap();
        assert_eq!(
            highlighted(RuleSource {
                range: Some((at, at + "makes sure you can ride".len())),
                quotes: &[],
            }),
            Some("The training makes sure you can ride safely.")
        );
        // The whole span as the range: the recorded quote decides, matched
        // despite its different punctuation and spacing.
        assert_eq!(
            highlighted(RuleSource {
                range: Some((span.start, span.end)),
                quotes: &[
                    "a different page",
                    "CBT is not a test, that you pass  or fail"
                ],
            }),
            Some("CBT is not a test that you pass or fail.")
        );
        // Neither found: no sentence of its own.
        assert_eq!(
            highlighted(RuleSource {
                range: Some((span.start, span.end)),
                quotes: &["a different page"],
            }),
            None
        );
        assert_eq!(highlighted(RuleSource::default()), None);
        // A range past the span's end is cut to the span.
        assert_eq!(
            highlighted(RuleSource {
                range: Some((span.start + 4, usize::MAX)),
                quotes: &[],
            }),
            Some(span.text.as_str())
        );
    }

    #[test]
    fn html_source_ranges_are_read_without_tags_and_entities() {
        let document = "<p>Fees are due. Tom &amp; Jerry pay <b>half</b>. Others pay all.</p>";
        let spans = split_spans(document);
        let at = document.find("Tom").unwrap();
        let end = document.find("</b>").unwrap() + 4;
        let range = rule_sentences(
            document,
            &spans[0],
            RuleSource {
                range: Some((at, end)),
                quotes: &[],
            },
        )
        .unwrap();
        assert_eq!(&spans[0].text[range.0..range.1], "Tom & Jerry pay half.");
    }
}

//! Tests of the document readings.

use super::html::normalize;
use super::sentences::budget_pieces;
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

/// A short policy page in the style of GOV.UK's motorcycle training guide:
/// a lead-in sentence, a bulleted list, then a paragraph right after the
/// list, once with no blank line in between and once with one.
const ISLANDS_MARKDOWN: &str = "# Riding on islands\n\nYou do not need to take CBT if you live and ride on:\n  - Lewis\n  - mainland Orkney\n  - any other island connected to mainland Great Britain by road\nYou do not need to take CBT to ride on other offshore islands.\n\nYou must still hold a provisional licence:\n\n- for a moped\n- for a motorcycle\n\nThe licence must be valid.\n";

fn texts(spans: &[DocSpan]) -> Vec<(SpanKind, &str)> {
    spans.iter().map(|s| (s.kind, s.text.as_str())).collect()
}

#[test]
fn a_paragraph_right_after_a_markdown_list_is_its_own_span() {
    let spans = split_spans(ISLANDS_MARKDOWN);
    assert_eq!(
        texts(&spans),
        vec![
            (SpanKind::Heading(1), "Riding on islands"),
            (
                SpanKind::Paragraph,
                "You do not need to take CBT if you live and ride on:"
            ),
            (SpanKind::ListItem, "Lewis"),
            (SpanKind::ListItem, "mainland Orkney"),
            (
                SpanKind::ListItem,
                "any other island connected to mainland Great Britain by road"
            ),
            (
                SpanKind::Paragraph,
                "You do not need to take CBT to ride on other offshore islands."
            ),
            (
                SpanKind::Paragraph,
                "You must still hold a provisional licence:"
            ),
            (SpanKind::ListItem, "for a moped"),
            (SpanKind::ListItem, "for a motorcycle"),
            (SpanKind::Paragraph, "The licence must be valid."),
        ]
    );
    assert_eq!(
        &ISLANDS_MARKDOWN[spans[5].start..spans[5].end],
        "You do not need to take CBT to ride on other offshore islands."
    );
    // The same page read as plain text (no `#` heading) splits the same way.
    let plain = ISLANDS_MARKDOWN.trim_start_matches("# Riding on islands\n\n");
    let plain_spans = split_spans(plain);
    assert_eq!(texts(&plain_spans), texts(&spans)[1..].to_vec());
}

#[test]
fn an_item_continues_on_indented_or_lower_case_lines_only() {
    let doc = "# Fees\n\n- Children under 5\n  travel free.\n- Seniors pay\nless on weekdays.\nStudents pay the full fee.\n";
    let spans = split_spans(doc);
    assert_eq!(
        texts(&spans),
        vec![
            (SpanKind::Heading(1), "Fees"),
            (SpanKind::ListItem, "Children under 5 travel free."),
            (SpanKind::ListItem, "Seniors pay less on weekdays."),
            (SpanKind::Paragraph, "Students pay the full fee."),
        ]
    );
}

#[test]
fn a_paragraph_right_after_an_html_list_is_its_own_span() {
    let expected = vec![
        (
            SpanKind::Paragraph,
            "You do not need to take CBT if you live and ride on:",
        ),
        (SpanKind::ListItem, "Lewis"),
        (
            SpanKind::ListItem,
            "any other island connected to mainland Great Britain by road",
        ),
        (
            SpanKind::Paragraph,
            "You do not need to take CBT to ride on other offshore islands.",
        ),
    ];
    let docs = [
        // Loose text right after the list.
        "<p>You do not need to take CBT if you live and ride on:</p><ul><li>Lewis</li><li>any other island connected to mainland Great Britain by road</li></ul>You do not need to take CBT to ride on other offshore islands.",
        // A paragraph right after the list.
        "<p>You do not need to take CBT if you live and ride on:</p><ul><li>Lewis</li><li>any other island connected to mainland Great Britain by road</li></ul><p>You do not need to take CBT to ride on other offshore islands.</p>",
        // Items left unclosed, as HTML allows: the list's end closes them.
        "<body>\n<p>You do not need to take CBT if you live and ride on:</p>\n<ul>\n<li>Lewis\n<li>any other island connected to mainland Great Britain by road\n</ul>\nYou do not need to take CBT to ride on other offshore islands.\n</body>\n",
        "<p>You do not need to take CBT if you live and ride on:</p><ol><li>Lewis<li>any other island connected to mainland Great Britain by road</ol><p>You do not need to take CBT to ride on other offshore islands.",
    ];
    for doc in docs {
        let spans = split_spans(doc);
        assert_eq!(texts(&spans), expected, "{doc}");
        let last = spans.last().unwrap();
        assert!(
            doc[last.start..last.end].contains("You do not need to take CBT to ride on other"),
            "{doc}"
        );
        assert!(
            !doc[spans[2].start..spans[2].end].contains("You do not"),
            "{doc}"
        );
    }
}

#[test]
fn the_end_of_a_table_closes_an_unclosed_row() {
    let doc = "<table><tr><td>Age</td><td>Fee</td><tr><td>65+</td><td>£30</td></table>Seniors show an ID card.";
    let spans = split_spans(doc);
    assert_eq!(
        texts(&spans),
        vec![
            (SpanKind::TableRow, "Age | Fee"),
            (SpanKind::TableRow, "65+ | £30"),
            (SpanKind::Paragraph, "Seniors show an ID card."),
        ]
    );
}

//! Runs the span splitter over every ConditionalQA document and checks the
//! spans' invariants: offsets, order, coverage of the text, headings and
//! budget splitting.

use std::collections::{BTreeMap, HashSet};
use std::fs;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use precept::document::{
    DocSpan, SpanKind, heading_path, heading_paths, split_for_budget, split_spans,
};

const BUDGET: usize = 400;

fn docs_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/conditionalqa/docs")
}

fn normalize(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The document with tags replaced by spaces.
fn strip_tags(document: &str) -> String {
    let mut out = String::with_capacity(document.len());
    let mut in_tag = false;
    for c in document.chars() {
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
    out
}

fn words(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| w.chars().count() >= 4)
}

fn kind_name(kind: SpanKind) -> String {
    match kind {
        SpanKind::Heading(level) => format!("heading{level}"),
        SpanKind::Paragraph => "paragraph".into(),
        SpanKind::ListItem => "list_item".into(),
        SpanKind::TableRow => "table_row".into(),
    }
}

fn check_document(name: &str, document: &str, spans: &[DocSpan]) {
    // Offsets, order, non-empty text.
    let mut previous_end = 0;
    for (i, span) in spans.iter().enumerate() {
        assert!(
            span.start < span.end,
            "{name}: span {i} empty range {span:?}"
        );
        assert!(span.end <= document.len(), "{name}: span {i} past end");
        assert!(
            document.is_char_boundary(span.start),
            "{name}: span {i} start"
        );
        assert!(document.is_char_boundary(span.end), "{name}: span {i} end");
        assert!(
            span.start >= previous_end,
            "{name}: span {i} overlaps or out of order"
        );
        assert!(!span.text.trim().is_empty(), "{name}: span {i} has no text");
        previous_end = span.end;
    }

    // Coverage: every word of four or more characters outside tags appears
    // in the span texts.
    let joined = spans
        .iter()
        .map(|s| s.text.as_str())
        .collect::<Vec<_>>()
        .join(" ");
    let known: HashSet<&str> = words(&joined).collect();
    for word in words(&strip_tags(document)) {
        assert!(
            known.contains(word) || joined.contains(word),
            "{name}: word {word:?} not covered by any span"
        );
    }

    // Headings, and a heading path for every paragraph after the first one.
    let first_heading = spans
        .iter()
        .position(|s| matches!(s.kind, SpanKind::Heading(_)))
        .unwrap_or_else(|| panic!("{name}: no heading"));
    let paths = heading_paths(spans);
    for (i, span) in spans.iter().enumerate() {
        let path = heading_path(spans, i);
        assert_eq!(path, paths[i], "{name}: span {i} heading paths disagree");
        if !matches!(span.kind, SpanKind::Heading(_)) && i > first_heading {
            assert!(!path.is_empty(), "{name}: span {i} has no heading path");
        }
    }
}

fn check_budget(name: &str, document: &str, spans: &[DocSpan]) -> usize {
    let pieces = split_for_budget(spans, document, BUDGET);
    // Pieces come in span order; regroup them by the span containing them.
    let mut next = 0;
    let mut previous_end = 0;
    let mut split = 0;
    for (i, span) in spans.iter().enumerate() {
        let mut texts = Vec::new();
        while next < pieces.len()
            && pieces[next].end <= span.end
            && pieces[next].start >= span.start
        {
            let piece = &pieces[next];
            assert_eq!(piece.kind, span.kind, "{name}: piece kind");
            assert!(piece.start < piece.end, "{name}: empty piece {piece:?}");
            assert!(piece.start >= previous_end, "{name}: pieces out of order");
            assert!(document.is_char_boundary(piece.start) && document.is_char_boundary(piece.end));
            assert!(
                piece.text.chars().count() <= BUDGET,
                "{name}: piece of {} chars",
                piece.text.chars().count()
            );
            previous_end = piece.end;
            texts.push(piece.text.as_str());
            next += 1;
        }
        assert!(!texts.is_empty(), "{name}: span {i} has no pieces");
        if texts.len() > 1 {
            split += 1;
        }
        assert_eq!(
            normalize(&texts.join(" ")),
            span.text,
            "{name}: span {i} pieces"
        );
    }
    assert_eq!(next, pieces.len(), "{name}: stray pieces");
    split
}

#[test]
fn conditionalqa_corpus_spans() {
    let dir = docs_dir();
    assert!(dir.is_dir(), "missing corpus folder {}", dir.display());
    let mut files: Vec<PathBuf> = fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_file())
        .collect();
    files.sort();
    assert_eq!(files.len(), 59, "expected the 59 ConditionalQA documents");

    let mut kinds: BTreeMap<String, usize> = BTreeMap::new();
    let mut total_spans = 0;
    let mut total_pieces = 0;
    let mut split_spans_count = 0;
    let mut bytes = 0;
    let mut split_time = Duration::ZERO;
    let mut budget_time = Duration::ZERO;
    for path in &files {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let document = fs::read_to_string(path).unwrap();
        bytes += document.len();

        let t = Instant::now();
        let spans = split_spans(&document);
        split_time += t.elapsed();

        check_document(&name, &document, &spans);

        let t = Instant::now();
        total_pieces += split_for_budget(&spans, &document, BUDGET).len();
        budget_time += t.elapsed();
        split_spans_count += check_budget(&name, &document, &spans);

        total_spans += spans.len();
        for span in &spans {
            *kinds.entry(kind_name(span.kind)).or_default() += 1;
        }
    }
    println!(
        "documents: {}, bytes: {bytes}, spans: {total_spans}, kinds: {kinds:?}",
        files.len()
    );
    println!(
        "budget {BUDGET}: {split_spans_count} spans split, {total_pieces} pieces; \
         split_spans {split_time:?}, split_for_budget {budget_time:?}"
    );
}

/// The picked ConditionalQA pages are Markdown whose lists are followed by a
/// sentence with no blank line in between. No list item may run on into
/// such a sentence: every line inside an item after its first is indented
/// past the item's marker or goes on in lower case.
#[test]
fn picked_pages_keep_the_sentence_after_a_list_out_of_the_list() {
    let dir = docs_dir().join("../picked");
    let mut checked_items = 0;
    let mut sentences_after_lists = 0;
    for name in [
        "motorcycle_cbt.txt",
        "masters_loan.txt",
        "vat_registration.txt",
    ] {
        let document = fs::read_to_string(dir.join(name)).unwrap();
        let spans = split_spans(&document);
        for span in spans.iter().filter(|s| s.kind == SpanKind::ListItem) {
            checked_items += 1;
            let raw = &document[span.start..span.end];
            let marker_indent = raw.len() - raw.trim_start().len();
            for line in raw.lines().skip(1) {
                let trimmed = line.trim_start();
                assert!(
                    line.len() - trimmed.len() > marker_indent
                        || trimmed.starts_with(char::is_lowercase),
                    "{name}: list item {:?} runs on into {line:?}",
                    span.text
                );
            }
        }
        // Each line right after an item's last line, outside the list, starts
        // a span of its own.
        let lines: Vec<&str> = document.lines().collect();
        for pair in lines.windows(2) {
            let after_item = pair[0].trim_start().starts_with("- ");
            let outside = !pair[1].starts_with(' ') && pair[1].starts_with(char::is_uppercase);
            if after_item && outside {
                sentences_after_lists += 1;
                assert!(
                    spans
                        .iter()
                        .any(|s| document[s.start..].starts_with(pair[1])),
                    "{name}: {:?} is not a span of its own",
                    pair[1]
                );
            }
        }
    }
    assert!(checked_items > 20, "only {checked_items} list items");
    assert!(sentences_after_lists > 5, "only {sentences_after_lists}");
}

//! Document coverage: uncovered spans, not-policy marks, a rule's own sentence, document search.

use super::*;

// ------------------------------------------------- document coverage

/// A source line, a sentence of policy and an appendix that no rule of the
/// park model formalizes, after its policy.
const APPENDIX: &str = "\n## Sources\n\nSOURCE: the park's staff handbook, 2024 edition.\n\nVisitors under 12 must be accompanied by an adult.\n\n## Appendix\n\nA map of the park hangs at the entrance.\n";

fn append_to_policy(dir: &std::path::Path) {
    let policy = dir.join("policy.md");
    let text = fs::read_to_string(&policy).unwrap() + APPENDIX;
    fs::write(policy, text).unwrap();
}

#[test]
fn the_document_lists_only_uncovered_spans_and_sets_apart_those_not_policy() {
    for size in SIZES {
        let mut bench = Bench::open_copy(&sample("park-admission"), size, append_to_policy);
        bench.press('U');
        insta::assert_snapshot!(name("document_uncovered", size), bench.screen_text());
        let document = areas(Screen::Rules, size).document;
        let lines = rows(&bench.buffer(), document);
        assert!(
            lines[0].contains("Document · uncovered only: 3"),
            "{}",
            lines[0]
        );
        assert!(lines[1].starts_with("│○ SOURCE: the park"), "{lines:#?}");
        // The source line is not policy: X sets it apart, out of the count;
        // with every span listed again, it is the one above the selection.
        bench.press('X');
        bench.press('U');
        bench.press('k');
        let lines = rows(&bench.buffer(), document);
        assert!(
            lines[0].contains("Document · 2 uncovered · 1 not policy")
                || size.0 < 120 && lines[0].contains("Document · 2 uncovered · …"),
            "{}",
            lines[0]
        );
        let marked = lines
            .iter()
            .find(|l| l.contains("SOURCE: the park"))
            .unwrap_or_else(|| panic!("{lines:#?}"));
        assert!(marked.starts_with("│× SOURCE"), "{marked}");
    }
}

/// The lab's LLM-formalized CBT project: its model, document and
/// formalization record (with the sentence quoted for each rule).
fn cbt_project() -> std::path::PathBuf {
    support::test_data("lab/cbt-llm-model")
}

/// Whether the cell at the first character of `needle`, as drawn inside
/// the borders of `area` (words may wrap onto the next row), has the span
/// highlight.
/// Where a rule's source is drawn on the Rules screen: the document, and
/// the rule detail where it is above the fold (not at 80×24).
fn source_panes(size: (u16, u16)) -> Vec<Rect> {
    let layout = areas(Screen::Rules, size);
    if size.1 < 40 {
        vec![layout.document]
    } else {
        vec![layout.document, layout.detail]
    }
}

fn highlighted_at(bench: &Bench, area: Rect, needle: &str) -> bool {
    let buffer = bench.buffer();
    // The text inside the borders, whitespace collapsed, with each
    // character's cell.
    let mut text = String::new();
    let mut cells: Vec<(u16, u16)> = Vec::new();
    for y in area.y + 1..area.y + area.height - 1 {
        for x in area.x + 1..area.x + area.width - 1 {
            let symbol = buffer[(x, y)].symbol();
            for c in symbol.chars() {
                if c.is_whitespace() {
                    if !text.ends_with(' ') {
                        text.push(' ');
                        cells.push((x, y));
                    }
                } else {
                    text.push(c);
                    cells.push((x, y));
                }
            }
        }
        if !text.ends_with(' ') {
            text.push(' ');
            cells.push((area.x, y));
        }
    }
    let at = text
        .find(needle)
        .unwrap_or_else(|| panic!("{needle:?} not drawn in {text:?}"));
    let cell = cells[text[..at].chars().count()];
    Some(buffer[cell].bg) == bench.app.theme.span_highlight().bg
}

fn select_rule(bench: &mut Bench, id: &str) {
    bench.press('g');
    while bench.app.selected_rule().unwrap().id != id {
        bench.press('j');
    }
}

#[test]
fn the_selected_rules_own_sentence_is_highlighted_not_its_whole_paragraph() {
    for size in SIZES {
        let mut bench = Bench::open_copy(&cbt_project(), size, |_| {});
        // R5 formalizes one sentence of a three-sentence paragraph.
        select_rule(&mut bench, "R5");
        insta::assert_snapshot!(name("rules_cbt_r5", size), bench.screen_text());
        let panes = source_panes(size);
        for area in panes {
            assert!(highlighted_at(&bench, area, "You must pass your full"));
            assert!(highlighted_at(&bench, area, "take CBT again or stop"));
            assert!(!highlighted_at(&bench, area, "You must use L plates"));
            assert!(!highlighted_at(&bench, area, "You can be fined"));
        }
        // The list item before it is a span of its own (the splitter no
        // longer joins the sentence after a list into its last item).
        let lines = rows(&bench.buffer(), areas(Screen::Rules, size).document);
        let item = lines
            .iter()
            .position(|l| l.contains("• motorcycle up to 125cc"))
            .unwrap_or_else(|| panic!("{lines:#?}"));
        assert!(
            lines[item..]
                .iter()
                .any(|l| l.starts_with("│● You must use L plates")),
            "{lines:#?}"
        );
    }
}

#[test]
fn a_rule_linked_to_its_whole_span_is_highlighted_by_its_recorded_quote() {
    // R1's source range widened to its whole paragraph: the sentence the
    // formalization quoted for it decides what is highlighted.
    let widen = |dir: &std::path::Path| {
        let path = dir.join("model.json");
        let text = fs::read_to_string(&path).unwrap();
        let document = fs::read_to_string(dir.join("motorcycle_cbt.txt")).unwrap();
        let last = "After you’ve completed CBT, you can ride a:";
        let end = document.find(last).unwrap() + last.len();
        let text = text.replacen(
            "\"source_span\": {\n        \"start\": 213,\n        \"end\": 332\n      }",
            &format!("\"source_span\": {{\"start\": 213, \"end\": {end}}}"),
            1,
        );
        assert!(
            text.contains(&format!("\"end\": {end}")),
            "R1's range not found"
        );
        fs::write(path, text).unwrap();
    };
    for size in SIZES {
        let bench = Bench::open_copy(&cbt_project(), size, widen);
        assert_eq!(bench.app.selected_rule().unwrap().id, "R1");
        let panes = source_panes(size);
        for area in panes {
            assert!(highlighted_at(&bench, area, "Compulsory basic"));
            assert!(!highlighted_at(&bench, area, "The training makes"));
            assert!(!highlighted_at(&bench, area, "After you’ve completed"));
        }
    }
}

#[test]
fn search_lists_document_text_with_the_match_in_view() {
    for size in SIZES {
        let mut bench = Bench::open_copy(&sample("park-admission"), size, append_to_policy);
        bench.press('/');
        bench.type_text("worth towards");
        insta::assert_snapshot!(name("search_document", size), bench.screen_text());
        let screen = bench.screen_text();
        assert!(
            screen.contains("document: …costs $0.60 and is worth $1 towards"),
            "{screen}"
        );
    }
}

//! What users look for, asserted against the drawn buffer.

use super::*;

// ------------------------------------------------------ buffer assertions

#[test]
fn the_status_line_counts_the_results() {
    let bench = Bench::open((80, 24));
    let buffer = bench.buffer();
    let status = areas(Screen::Rules, (80, 24)).status;
    assert_eq!(status.y, 23);
    let line = text(&buffer, status);
    assert!(line.starts_with("18 passed, 0 failed"), "{line:?}");
    assert!(line.ends_with("?/f1 help · : commands"), "{line:?}");
}

#[test]
fn the_tab_bar_marks_the_current_screen_and_shows_the_title() {
    let mut bench = Bench::open((120, 40));
    bench.press('3');
    let buffer = bench.buffer();
    let tabs = text(&buffer, Rect::new(0, 0, 120, 1));
    assert!(
        tabs.starts_with(" 1 Rules   2 Variables   3 Tests   4 Verify   5 Vetting   6 Formalize"),
        "{tabs:?}"
    );
    assert!(
        tabs.ends_with("Riverside Nature Park admission"),
        "{tabs:?}"
    );
    // The current tab is drawn in the selection style, the others are not.
    let tests_at = tabs.find("3 Tests").unwrap() as u16;
    let rules_at = tabs.find("1 Rules").unwrap() as u16;
    assert_ne!(buffer[(tests_at, 0)].style(), buffer[(rules_at, 0)].style());
    assert_eq!(
        buffer[(tests_at, 0)].fg,
        bench.app.theme.selected().fg.unwrap_or_default()
    );
}

#[test]
fn the_document_marks_covered_and_uncovered_spans_with_their_rules() {
    let mut bench = Bench::open((80, 24));
    let document = areas(Screen::Rules, (80, 24)).document;
    let lines = rows(&bench.buffer(), document);
    let title = &lines[0];
    // At 80 columns the title still fits whole.
    assert!(title.starts_with("┌ Document · 0 uncovered ─"), "{title}");
    // The standard fee sentence is covered by R1: "●", and its id at the end.
    let first = lines
        .iter()
        .position(|l| l.contains("The standard admission"))
        .unwrap_or_else(|| panic!("{lines:#?}"));
    assert!(lines[first].starts_with("│● The standard"), "{lines:#?}");
    assert!(
        lines[first..first + 3].iter().any(|l| l.contains("[R1]")),
        "{lines:#?}"
    );
    // Headings carry no mark.
    let heading = lines.iter().find(|l| l.contains("Admission fees")).unwrap();
    assert!(heading.starts_with("│  Admission fees"), "{heading}");

    // Deleting R1 leaves its sentence without a rule: "○", and no id.
    bench.press('d');
    assert!(bench.app.ws.model.rule("R1").is_none());
    let lines = rows(&bench.buffer(), document);
    assert!(lines[0].contains("Document · 1 uncovered"), "{}", lines[0]);
    let first = lines
        .iter()
        .position(|l| l.contains("The standard admission"))
        .unwrap();
    assert!(lines[first].starts_with("│○ The standard"), "{lines:#?}");
    assert!(!lines.iter().any(|l| l.contains("[R1]")), "{lines:#?}");
    let uncovered = bench.app.theme.uncovered().fg;
    let x = document.x + 1;
    let y = document.y + first as u16;
    assert_eq!(bench.buffer()[(x, y)].symbol(), "○");
    assert_eq!(Some(bench.buffer()[(x, y)].fg), uncovered);
}

#[test]
fn a_span_with_several_rules_lists_them_all() {
    let bench = Bench::open((120, 40));
    let document = areas(Screen::Rules, (120, 40)).document;
    let lines = rows(&bench.buffer(), document);
    assert!(
        lines.iter().any(|l| l.contains("[R8 R9 R10 R11]")),
        "{lines:#?}"
    );
    assert!(lines.iter().any(|l| l.contains("[R12 R14]")), "{lines:#?}");
}

#[test]
fn differing_scenario_rows_are_starred_and_come_first() {
    for size in SIZES {
        let mut bench = Bench::open(size);
        bench.press('3');
        let inner = tests_detail_inside(size);
        // The verdict and the question come first: on a small screen the
        // table is scrolled into view, as the expert would page down.
        let mut lines = rows(&bench.buffer(), inner);
        while bench.app.detail_scroll < 40
            && lines
                .iter()
                .position(|l| l.trim_start().starts_with("Scenario"))
                .is_none_or(|header| header + 8 > lines.len())
        {
            bench.app.detail_scroll += 1;
            lines = rows(&bench.buffer(), inner);
        }
        let header = lines
            .iter()
            .position(|l| l.trim_start().starts_with("Scenario"))
            .unwrap_or_else(|| panic!("no scenario table: {lines:#?}"));
        assert!(lines[header].contains("claim true"), "{}", lines[header]);
        assert!(lines[header].contains("claim false"), "{}", lines[header]);
        let table: Vec<&String> = lines[header + 1..]
            .iter()
            .take_while(|l| l.starts_with('*') || l.starts_with("  "))
            .collect();
        assert!(table.len() >= 3, "{lines:#?}");
        let mut seen_same = false;
        let mut starred = 0;
        for row in &table {
            let words: Vec<&str> = row.split_whitespace().collect();
            // Names get the width they need, even in the narrow tests pane.
            let name = if row.starts_with('*') {
                words[1]
            } else {
                words[0]
            };
            assert!(!name.contains('…'), "a cut name: {row}");
            if row.starts_with('*') {
                assert!(!seen_same, "a differing row after an equal one: {table:#?}");
                // Marker, name, two values, then the description's words.
                assert!(words.len() >= 4, "{row}");
                assert_ne!(words[2], words[3], "starred but equal: {row}");
                starred += 1;
            } else {
                seen_same = true;
                assert!(row.starts_with("  "), "{row}");
                assert!(words.len() >= 3, "{row}");
                assert_eq!(words[1], words[2], "differs but not starred: {row}");
            }
        }
        assert!(starred >= 2, "{table:#?}");
        // The paper's example: entry turns on whether 3 units of credits are used.
        let credit = table
            .iter()
            .find(|r| r.contains("creditUnits"))
            .unwrap_or_else(|| panic!("{table:#?}"));
        let words: Vec<&str> = credit.split_whitespace().collect();
        assert_eq!(words[..4], ["*", "creditUnits", "0", "3"]);
        // The emphasis style marks them in the buffer too.
        let row_y = inner.y + (header + 1) as u16;
        assert_eq!(
            Some(bench.buffer()[(inner.x, row_y)].fg),
            bench.app.theme.emphasis().fg
        );
    }
}

#[test]
fn a_failing_test_shows_expected_and_actual() {
    let mut bench = Bench::open((80, 24));
    bench.press('G');
    bench.press('k');
    bench.press('e');
    bench.key(KeyCode::Char('a'), KeyModifiers::CONTROL);
    bench.key(KeyCode::Char('k'), KeyModifiers::CONTROL);
    bench.type_text("(= totalExpense (* 1.2 (+ cashPayment creditCost)))");
    bench.key(KeyCode::Char('s'), KeyModifiers::CONTROL);
    bench.press('n');
    let screen = bench.screen_text();
    let lines: Vec<&str> = screen.lines().collect();
    let list = areas(Screen::Tests, (80, 24)).list;
    // The first failing test is selected and marked ✗ with a ↓ for the flip.
    let row = lines[list.y as usize + 1];
    assert!(row.starts_with("│✗↓T1 "), "{screen}");
    let row = lines[list.y as usize + 2];
    assert!(row.starts_with("│✗↓T2 "), "{screen}");
    let row = lines[list.y as usize + 3];
    assert!(row.starts_with("│✓ T3 "), "{screen}");
    assert!(lines[list.y as usize].contains("Tests · 16 pass · 2 fail"));
    let verdict = lines
        .iter()
        .find(|l| l.contains("Expected "))
        .unwrap_or_else(|| panic!("{screen}"));
    assert!(
        verdict.contains("Expected SATISFIABLE · actual VALID ✗ fail"),
        "{verdict}"
    );
    let status = lines[23];
    assert!(status.starts_with("failing test 1 of 2"), "{status}");
}

#[test]
fn the_editor_shows_the_error_under_the_line_with_its_position() {
    let mut bench = Bench::open((80, 24));
    bench.press('e');
    bench.key(KeyCode::Char('e'), KeyModifiers::CONTROL);
    bench.key(KeyCode::Backspace, KeyModifiers::NONE);
    let screen = bench.screen_text();
    let lines: Vec<&str> = screen.lines().collect();
    let title = lines
        .iter()
        .position(|l| l.contains("Edit rule R1 · ctrl-s apply · esc close"))
        .unwrap_or_else(|| panic!("{screen}"));
    assert!(lines[title + 1].contains("│(= baseFee 50.0 "), "{screen}");
    // Under the line: where, what was expected and what was found.
    assert!(
        lines[title + 2].contains("▲ 1:16: expected ')' to close the '(' at 1:1, found"),
        "{screen}"
    );
    assert!(
        lines
            .iter()
            .any(|l| l.contains("ctrl-s keeps it as a draft; it is applied once it checks")),
        "{screen}"
    );
    // Fixing it turns the hint green.
    bench.press(')');
    let screen = bench.screen_text();
    assert!(!screen.contains('▲'), "{screen}");
    assert!(
        screen.contains("✓ checks: ctrl-s applies it and reruns the affected tests"),
        "{screen}"
    );
}

#[test]

fn the_document_scrolls_to_the_selected_rules_span() {
    let mut bench = Bench::open((80, 24));
    bench.press('G');
    bench.press('k');
    assert_eq!(bench.app.selected_rule().unwrap().id, "R16");
    let document = areas(Screen::Rules, (80, 24)).document;
    let lines = rows(&bench.buffer(), document);
    // "The document follows the selected rule: its span is selected and shown."
    assert!(
        lines.iter().any(|l| l.contains("A federal tax of 10%")),
        "R16's span is not in view: {lines:#?}"
    );
    assert!(lines.iter().any(|l| l.contains("[R16]")), "{lines:#?}");
    // The last rule's span, all of it, at the larger size too.
    let mut bench = Bench::open((120, 40));
    bench.press('G');
    let document = areas(Screen::Rules, (120, 40)).document;
    let lines = rows(&bench.buffer(), document);
    assert!(lines.iter().any(|l| l.contains("[R17]")), "{lines:#?}");
}

//! What the workbench draws: snapshots of each screen and overlay at 80×24
//! and 120×40 on the park-admission sample with real, settled results, and
//! assertions against the drawn buffer for what users look for.

mod support;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use precept::core::compose::record::FormalizationRecord;
use precept::core::model::Project;
use precept::core::model::drafts::Drafts;
use precept::tui::effects::runtime::Runtime;
use precept::tui::input::keymap::Keymap;
use precept::tui::measure::layout::areas;
use precept::tui::state::app::{App, Overlay, Screen};
use precept::tui::state::msg::{Effect, Msg};
use precept::tui::style::theme::Theme;
use precept::tui::update::{start_full_run, update};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use std::fs;
use std::time::{Duration, Instant};
use support::sample;

const SIZES: [(u16, u16); 2] = [(80, 24), (120, 40)];
const PREMISE: &str = "(and (= ageClass SENIOR) isLowSeason (= totalAdmissionFund 35.4))";
const CLAIM: &str = "(not isEntryAllowed)";

struct Bench {
    _dir: tempfile::TempDir,
    app: App,
    runtime: Runtime,
}

impl Bench {
    /// The park sample at `size`, opened as the workbench opens it: the model
    /// loaded and every test run to completion.
    fn open(size: (u16, u16)) -> Bench {
        Bench::open_copy(&sample("park-admission"), size, |_| {})
    }

    /// A scratch copy of the project in `from`, changed by `change` before
    /// it is opened (with its formalization record, as the workbench opens
    /// it), every test run to completion.
    fn open_copy(
        from: &std::path::Path,
        size: (u16, u16),
        change: impl Fn(&std::path::Path),
    ) -> Bench {
        let dir = tempfile::tempdir().unwrap();
        for entry in fs::read_dir(from).unwrap() {
            let path = entry.unwrap().path();
            if path.is_file() {
                fs::copy(&path, dir.path().join(path.file_name().unwrap())).unwrap();
            }
        }
        change(dir.path());
        let mut app = App::new(
            Project::load_unchecked(dir.path()).unwrap(),
            Drafts::default(),
            Keymap::default(),
            Theme::built_in("dark").unwrap(),
            size,
        );
        app.formalization.record = FormalizationRecord::load(dir.path()).unwrap();
        let runtime = Runtime::new(dir.path().to_path_buf(), None, Duration::from_secs(5));
        let effects = vec![
            Effect::LoadSolver(Box::new(app.compiled.clone())),
            start_full_run(&mut app),
        ];
        let mut bench = Bench {
            _dir: dir,
            app,
            runtime,
        };
        bench.settle(effects);
        bench
    }

    /// Carries out effects and feeds the results back until nothing is running.
    fn settle(&mut self, mut effects: Vec<Effect>) {
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            let mut messages = Vec::new();
            for effect in effects.drain(..) {
                messages.extend(self.runtime.execute(effect));
            }
            messages.extend(self.runtime.poll());
            for message in messages {
                effects.extend(update(&mut self.app, message));
            }
            if !effects.is_empty() {
                continue;
            }
            if self.app.pending == 0 && !self.app.verify.running && !self.runtime.has_pending() {
                break;
            }
            assert!(Instant::now() < deadline, "the solver did not finish");
            for message in self.runtime.wait(Duration::from_millis(200)) {
                effects.extend(update(&mut self.app, message));
            }
        }
        // Nothing may be drawn mid-run: no spinner, no "running" state.
        assert_eq!(self.app.pending, 0);
        assert_eq!(self.app.status.job, None);
        assert_eq!(self.app.tick, 0);
    }

    fn key(&mut self, code: KeyCode, modifiers: KeyModifiers) {
        let effects = update(&mut self.app, Msg::Key(KeyEvent::new(code, modifiers)));
        self.settle(effects);
    }

    fn press(&mut self, c: char) {
        self.key(KeyCode::Char(c), KeyModifiers::NONE);
    }

    fn type_text(&mut self, text: &str) {
        for c in text.chars() {
            self.press(c);
        }
    }

    fn buffer(&self) -> Buffer {
        let (width, height) = self.app.size;
        let mut terminal = Terminal::new(TestBackend::new(width, height)).unwrap();
        terminal
            .draw(|frame| precept::tui::view::render(&self.app, frame))
            .unwrap();
        terminal.backend().buffer().clone()
    }

    fn screen_text(&self) -> String {
        text(&self.buffer(), self.buffer().area)
    }
}

/// The rows of `area` in `buffer` as text (wide symbols take their cells).
fn rows(buffer: &Buffer, area: Rect) -> Vec<String> {
    (area.y..area.y + area.height)
        .map(|y| {
            let mut row = String::new();
            let mut skip = 0usize;
            for x in area.x..area.x + area.width {
                let cell = &buffer[(x, y)];
                if skip == 0 {
                    row.push_str(cell.symbol());
                }
                skip = skip.max(cell.symbol().chars().count().max(1)) - 1;
            }
            row.trim_end().to_string()
        })
        .collect()
}

fn text(buffer: &Buffer, area: Rect) -> String {
    rows(buffer, area).join("\n")
}

fn name(screen: &str, (width, height): (u16, u16)) -> String {
    format!("{screen}_{width}x{height}")
}

// -------------------------------------------------------------- snapshots

#[test]
fn rules_screen() {
    for size in SIZES {
        let bench = Bench::open(size);
        assert_eq!(bench.app.screen, Screen::Rules);
        insta::assert_snapshot!(name("rules", size), bench.screen_text());
    }
}

#[test]
fn rules_screen_with_a_rule_selected_further_down() {
    // Only at 120×40: at 80×24 the document does not scroll to the span (see
    // the ignored the_document_scrolls_to_the_selected_rules_span).
    for size in [(120, 40)] {
        let mut bench = Bench::open(size);
        bench.press('G');
        bench.press('k');
        assert_eq!(bench.app.selected_rule().unwrap().id, "R16");
        insta::assert_snapshot!(name("rules_r16", size), bench.screen_text());
    }
}

#[test]
fn variables_screen() {
    for size in SIZES {
        let mut bench = Bench::open(size);
        bench.press('2');
        insta::assert_snapshot!(name("variables", size), bench.screen_text());
    }
}

#[test]
fn tests_screen_with_a_satisfiable_test() {
    for size in SIZES {
        let mut bench = Bench::open(size);
        bench.press('3');
        let test = bench.app.selected_test().unwrap();
        assert_eq!(test.id, "T1");
        assert_eq!(
            test.expected,
            precept::core::solve::FindingKind::Satisfiable
        );
        insta::assert_snapshot!(name("tests", size), bench.screen_text());
    }
}

#[test]
fn verify_screen_with_a_finding() {
    for size in SIZES {
        let mut bench = Bench::open(size);
        bench.press('4');
        bench.type_text(PREMISE);
        bench.key(KeyCode::Tab, KeyModifiers::NONE);
        bench.type_text(CLAIM);
        bench.key(KeyCode::Enter, KeyModifiers::NONE);
        assert!(bench.app.verify.finding.is_some());
        insta::assert_snapshot!(name("verify", size), bench.screen_text());
    }
}

#[test]
fn formalize_screen_after_a_formalization() {
    for size in SIZES {
        let mut bench = Bench::open(size);
        let document = bench.app.document.clone().unwrap();
        let (_, record) = support::park_formalization::park_formalization(&document);
        bench.app.formalization.record = Some(record);
        bench.press('6');
        let screen = bench.screen_text();
        assert!(screen.contains("12 formalized, 0 failed"), "{screen}");
        assert!(
            screen.contains("Review: 17 of 17 rules reviewed"),
            "{screen}"
        );
        insta::assert_snapshot!(name("formalize", size), screen);
    }
}

/// The Coverage pane shows the one mutation score text (the one the CLI
/// prints), with one decimal.
#[test]
fn vetting_screen_with_coverage_and_the_mutation_score() {
    for size in SIZES {
        let mut bench = Bench::open(size);
        bench.press('5');
        bench.press('C');
        let summary = bench
            .app
            .coverage
            .mutation
            .as_ref()
            .unwrap()
            .summary
            .clone();
        let screen = bench.screen_text();
        let flat: String = screen.split_whitespace().collect::<Vec<_>>().join(" ");
        let score = summary.split(':').next().unwrap();
        assert!(
            flat.contains(&format!("Mutation score {score}")),
            "{summary}\n{screen}"
        );
        insta::assert_snapshot!(name("vetting_coverage", size), screen);
    }
}

/// `y` on a proposed test proved IMPOSSIBLE asks first, in plain words.
#[test]
fn accepting_an_impossible_test_asks_for_confirmation() {
    for size in SIZES {
        let mut bench = Bench::open(size);
        bench.key(KeyCode::Char('g'), KeyModifiers::CONTROL);
        let index = bench
            .app
            .tests
            .tests
            .iter()
            .position(|t| {
                t.status == precept::core::model::TestStatus::Proposed
                    && t.proved == Some(precept::core::solve::FindingKind::Impossible)
            })
            .unwrap();
        bench.press('3');
        for _ in 0..index {
            bench.press('j');
        }
        bench.press('y');
        assert!(matches!(
            bench.app.overlay,
            Some(Overlay::ConfirmAcceptImpossible { .. })
        ));
        let screen = bench.screen_text();
        assert!(
            screen.contains("Accept a conflict as expected?"),
            "{screen}"
        );
        insta::assert_snapshot!(name("accept_impossible", size), screen);
    }
}

#[test]
fn help_overlay() {
    for size in SIZES {
        let mut bench = Bench::open(size);
        bench.press('?');
        assert!(matches!(bench.app.overlay, Some(Overlay::Help { .. })));
        let screen = bench.screen_text();
        assert!(
            screen.contains("j/k ↑/↓ scroll · pgup/pgdn page · esc or ? closes"),
            "{screen}"
        );
        assert!(!screen.contains("any key"), "{screen}");
        insta::assert_snapshot!(name("help", size), screen);
        // At the end of the list the marker points back up.
        bench.key(KeyCode::End, KeyModifiers::NONE);
        let screen = bench.screen_text();
        assert!(screen.contains("This help"), "{screen}");
        assert!(
            screen.contains("↑ ") && screen.contains(" more"),
            "{screen}"
        );
        insta::assert_snapshot!(name("help_end", size), screen);
    }
}

#[test]
fn editor_overlay_with_a_live_error() {
    for size in SIZES {
        let mut bench = Bench::open(size);
        bench.press('G');
        bench.press('k');
        bench.press('e');
        // Replace "cashPayment" by a typo.
        bench.key(KeyCode::Char('a'), KeyModifiers::CONTROL);
        for _ in 0.."(= totalExpense (* 1.1 (+ ".len() {
            bench.key(KeyCode::Right, KeyModifiers::NONE);
        }
        for _ in 0.."cashPayment".len() {
            bench.key(KeyCode::Delete, KeyModifiers::NONE);
        }
        bench.type_text("cashPaymnt");
        let Some(Overlay::Editor(editor)) = &bench.app.overlay else {
            panic!("the editor is not open")
        };
        assert_eq!(
            editor.text(),
            "(= totalExpense (* 1.1 (+ cashPaymnt creditCost)))"
        );
        assert!(editor.error.is_some());
        insta::assert_snapshot!(name("editor_error", size), bench.screen_text());
    }
}

#[test]
fn scenario_descriptions_follow_the_table_when_a_column_would_cut_them() {
    let find_line = |size: (u16, u16), text: &str| {
        let mut bench = Bench::open(size);
        bench.press('3');
        let detail = areas(Screen::Tests, size).detail;
        let inner = Rect::new(
            detail.x + 1,
            detail.y + 1,
            detail.width - 2,
            detail.height - 2,
        );
        while bench.app.detail_scroll < 60 {
            let lines = rows(&bench.buffer(), inner);
            if let Some(line) = lines.iter().find(|l| l.contains(text)) {
                return Some(line.trim_end().to_string());
            }
            bench.app.detail_scroll += 1;
        }
        None
    };
    let find = |size: (u16, u16), text: &str| {
        find_line(size, text).unwrap_or_else(|| panic!("{text} never shows"))
    };
    // 80 columns: no room for a description column; each follows the table
    // (wrapped to the pane).
    assert_eq!(
        find((80, 24), "creditUnits:"),
        "  creditUnits: Number of 5-credit units the"
    );
    // 120 columns: a column would cut most of them, so they follow in full.
    let row = find((120, 40), "* creditUnits");
    assert_eq!(
        row.split_whitespace().collect::<Vec<_>>(),
        ["*", "creditUnits", "0", "3"]
    );
    assert_eq!(
        find((120, 40), "creditUnits:"),
        "  creditUnits: Number of 5-credit units the visitor uses"
    );
    // (The verify screen at 120 columns has room: see its snapshot, where
    // only the one description the column cuts is repeated after the table.)
}

#[test]
fn the_editor_reads_the_rule_in_english_as_it_is_typed() {
    for size in SIZES {
        let mut bench = Bench::open(size);
        bench.press('e');
        let english = |bench: &Bench| match &bench.app.overlay {
            Some(Overlay::Editor(editor)) => editor.english.clone(),
            _ => panic!("the editor is not open"),
        };
        assert_eq!(
            english(&bench).as_deref(),
            Some("The standard admission fee in dollars equals 50.")
        );
        // Retype R1 as a negated comparison, one key at a time.
        bench.key(KeyCode::Char('e'), KeyModifiers::CONTROL);
        for _ in 0.."(= baseFee 50.0)".len() {
            bench.key(KeyCode::Backspace, KeyModifiers::NONE);
        }
        bench.type_text("(not (>= baseFee 16.0)");
        // Unbalanced: no English, the error instead.
        assert_eq!(english(&bench), None);
        assert!(!bench.screen_text().contains("less than 16"));
        bench.press(')');
        let sentence = "The standard admission fee in dollars is less than 16.";
        assert_eq!(english(&bench).as_deref(), Some(sentence));
        let screen = bench.screen_text();
        assert!(screen.contains(sentence), "{screen}");
        insta::assert_snapshot!(name("editor_english", size), screen);
    }
}

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
    assert!(bench.app.model.rule("R1").is_none());
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
        let detail = areas(Screen::Tests, size).detail;
        let inner = Rect::new(
            detail.x + 1,
            detail.y + 1,
            detail.width - 2,
            detail.height - 2,
        );
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
    support::shared_data("lab/cbt-llm-model")
}

/// Whether the cell at the first character of `needle`, as drawn inside
/// the borders of `area` (words may wrap onto the next row), has the span
/// highlight.
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
        let layout = areas(Screen::Rules, size);
        // (At 80×24 the rule's source is below the detail pane's fold.)
        let panes = if size.1 < 40 {
            vec![layout.document]
        } else {
            vec![layout.document, layout.detail]
        };
        for area in panes {
            assert!(highlighted_at(&bench, area, "You must pass your full"));
            assert!(highlighted_at(&bench, area, "take CBT again or stop"));
            assert!(!highlighted_at(&bench, area, "You must use L plates"));
            assert!(!highlighted_at(&bench, area, "You can be fined"));
        }
        // The list item before it is a span of its own (the splitter no
        // longer joins the sentence after a list into its last item).
        let lines = rows(&bench.buffer(), layout.document);
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
        let layout = areas(Screen::Rules, size);
        let panes = if size.1 < 40 {
            vec![layout.document]
        } else {
            vec![layout.document, layout.detail]
        };
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

// ------------------------------------------------------------------ themes

/// Every cell of `buffer` is painted by the theme: its background is one the
/// theme names (mostly the base background), never the terminal's own, and
/// no text is left in the terminal's colour.
fn assert_painted_by(theme: &Theme, buffer: &Buffer, what: &str) {
    let backgrounds = theme.backgrounds();
    let mut base = 0;
    for y in 0..buffer.area.height {
        for x in 0..buffer.area.width {
            let cell = &buffer[(x, y)];
            assert!(
                backgrounds.contains(&cell.bg),
                "{what}: the cell at {x},{y} ('{}') has background {:?}, not one of the {} theme's",
                cell.symbol(),
                cell.bg,
                theme.name
            );
            assert_ne!(cell.fg, ratatui::style::Color::Reset, "{what}: {x},{y}");
            base += usize::from(cell.bg == theme.background());
        }
    }
    let cells = buffer.area.area() as usize;
    assert!(
        base * 10 >= cells * 8,
        "{what}: only {base} of {cells} cells have the base background"
    );
}

#[test]
fn every_theme_paints_its_own_background_on_every_screen_and_overlay() {
    for size in SIZES {
        let mut bench = Bench::open(size);
        for theme in ["light", "dark"] {
            bench.app.theme = Theme::built_in(theme).unwrap();
            assert_ne!(bench.app.theme.background(), ratatui::style::Color::Reset);
            for screen in Screen::ALL {
                bench.app.screen = screen;
                let what = format!("{theme} {:?} at {size:?}", screen);
                assert_painted_by(&bench.app.theme, &bench.buffer(), &what);
            }
            bench.press('1');
            for (open, close) in [
                ('?', KeyCode::Esc),
                (':', KeyCode::Esc),
                ('e', KeyCode::Esc),
            ] {
                bench.press(open);
                let what = format!("{theme} overlay {open} at {size:?}");
                assert_painted_by(&bench.app.theme, &bench.buffer(), &what);
                bench.key(close, KeyModifiers::NONE);
                assert!(bench.app.overlay.is_none(), "{what}");
            }
        }
    }
}

// ------------------------------------------------------------ 90×30

/// The top-border titles of a screen: the text between "┌ " and the first
/// "─" or "┐" after it.
fn titles(screen: &str) -> Vec<String> {
    let mut titles = Vec::new();
    for row in screen.lines() {
        let mut rest = row;
        while let Some(at) = rest.find("┌ ") {
            let after = &rest[at + "┌ ".len()..];
            let end = after.find(['─', '┐']).unwrap_or(after.len());
            titles.push(after[..end].trim_end().to_string());
            rest = &after[end..];
        }
    }
    titles
}

/// At 90×30 every pane title fits: shortened by dropping its last parts with
/// "…", never cut into a stub like "L: ┐".
#[test]
fn every_screen_fits_its_pane_titles_at_90x30() {
    let size = (90, 30);
    let mut bench = Bench::open(size);
    let mut screens = Vec::new();
    bench.press('1');
    screens.push(("rules", bench.screen_text()));
    bench.press('2');
    screens.push(("variables", bench.screen_text()));
    bench.press('3');
    screens.push(("tests", bench.screen_text()));
    bench.press('4');
    screens.push(("verify", bench.screen_text()));
    bench.key(KeyCode::Esc, KeyModifiers::NONE);
    bench.press('5');
    bench.press('L');
    bench.press('C');
    screens.push(("vetting", bench.screen_text()));
    bench.press('6');
    screens.push(("formalize", bench.screen_text()));
    for (screen, text) in &screens {
        for title in titles(text) {
            let words: Vec<&str> = title.split(' ').collect();
            let last = words.last().copied().unwrap_or_default();
            let lone_letter = last.chars().count() == 1 && last.chars().all(char::is_alphabetic);
            let stub = last.ends_with([':', '·', ',']) || lone_letter;
            assert!(
                title.ends_with('…') || !stub,
                "{screen}: the title '{title}' is cut into a stub\n{text}"
            );
        }
        assert!(!text.contains(": ┐"), "{screen}\n{text}");
        insta::assert_snapshot!(name(screen, size), text);
    }
    let vetting = &screens[4].1;
    assert!(
        titles(vetting)
            .iter()
            .any(|t| t.starts_with("Diagnostic · ") && t.ends_with('…')),
        "{vetting}"
    );
}

#[test]
fn why_overlay_on_a_decided_test() {
    for size in SIZES {
        let mut bench = Bench::open(size);
        bench.press('3');
        bench.press('j');
        bench.press('j');
        assert_eq!(bench.app.selected_test().unwrap().id, "T3");
        bench.press('W');
        bench.press('j');
        bench.press('j');
        let screen = bench.screen_text();
        assert!(screen.contains("Why T3 is VALID"), "{screen}");
        assert!(screen.contains("▸ Step 3 · rule R4"), "{screen}");
        insta::assert_snapshot!(name("why", size), screen);
    }
}

#[test]
fn consultant_mode_with_three_facts_and_a_claim() {
    for size in SIZES {
        let mut bench = Bench::open(size);
        bench.press('4');
        bench.key(KeyCode::Tab, KeyModifiers::NONE);
        bench.type_text(CLAIM);
        bench.key(KeyCode::Char('o'), KeyModifiers::CONTROL);
        // ageClass: SENIOR is the third value.
        bench.key(KeyCode::Enter, KeyModifiers::NONE);
        bench.press('j');
        bench.press('j');
        bench.key(KeyCode::Enter, KeyModifiers::NONE);
        // isLowSeason: toggled true.
        bench.press('j');
        bench.key(KeyCode::Enter, KeyModifiers::NONE);
        // totalAdmissionFund: typed.
        bench.press('j');
        bench.press('j');
        bench.key(KeyCode::Enter, KeyModifiers::NONE);
        bench.type_text("35.4");
        bench.key(KeyCode::Enter, KeyModifiers::NONE);
        assert_eq!(bench.app.verify.consultant.facts.len(), 3);
        let screen = bench.screen_text();
        assert!(screen.contains("● totalAdmissionFund = 35.4"), "{screen}");
        assert!(screen.contains("Ask next"), "{screen}");
        insta::assert_snapshot!(name("consultant", size), screen);
    }
}

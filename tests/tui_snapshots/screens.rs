//! Each screen and overlay as drawn: snapshots at 80×24 and 120×40.

use super::*;

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
        assert_eq!(test.expected, precept::solve::FindingKind::Satisfiable);
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
        let document = bench.app.ws.document.clone().unwrap();
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
            .ws
            .tests
            .tests
            .iter()
            .position(|t| {
                t.status == precept::model::TestStatus::Proposed
                    && t.proved == Some(precept::solve::FindingKind::Impossible)
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
        let inner = tests_detail_inside(size);
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
        assert!(!bench.screen_text().contains("under 16"));
        bench.press(')');
        let sentence = "The standard admission fee in dollars is under 16.";
        assert_eq!(english(&bench).as_deref(), Some(sentence));
        let screen = bench.screen_text();
        assert!(screen.contains(sentence), "{screen}");
        insta::assert_snapshot!(name("editor_english", size), screen);
    }
}

//! The vetting screen.

use super::*;

// ---------------------------------------------------------------- vetting

#[test]
fn the_vetting_screen_lints_in_the_background_and_applies_a_fix() {
    let dir = copy_sample("airline-refunds");
    let project = Project::load_unchecked(dir.path()).unwrap();
    let mut app = App::new(
        project,
        Drafts::default(),
        Keymap::default(),
        Theme::built_in("dark").unwrap(),
        (100, 30),
    );
    let mut runtime = start(&mut app);
    let effects = press(&mut app, '5');
    assert_eq!(app.screen, Screen::Vetting);
    assert_eq!(kinds(&effects), ["Lint"]);
    assert!(app.lint.running);
    settle(&mut app, &mut runtime, effects);
    assert!(!app.lint.running, "the lint run finished");
    let redundant = app
        .lint
        .diagnostics
        .iter()
        .position(|d| d.code == precept::lint::LintCode::RedundantRule)
        .expect("the sample has a redundant rule");
    let target = app.lint.diagnostics[redundant].rules[0].clone();
    for _ in 0..redundant {
        press(&mut app, 'j');
    }
    let rules_before = app.ws.model.rules.len();
    let effects = press(&mut app, 'x');
    assert_eq!(app.ws.model.rules.len(), rules_before - 1);
    assert!(
        app.ws.model.rule(&target).is_none(),
        "{target} was deleted by the fix"
    );
    assert!(
        kinds(&effects).contains(&"SaveModel") && kinds(&effects).contains(&"Lint"),
        "{:?}",
        kinds(&effects)
    );
    settle(&mut app, &mut runtime, effects);
    assert!(
        !app.lint
            .diagnostics
            .iter()
            .any(|d| d.code == precept::lint::LintCode::RedundantRule && d.rules[0] == target)
    );
    // An ordinary edit: undo brings the rule back.
    let effects = press(&mut app, 'u');
    assert!(app.ws.model.rule(&target).is_some());
    settle(&mut app, &mut runtime, effects);
}

#[test]
fn coverage_and_mutation_are_measured_in_the_background() {
    let (_dir, mut app) = park();
    let mut runtime = start(&mut app);
    let effects = press(&mut app, 'C');
    assert_eq!(app.screen, Screen::Vetting);
    assert!(
        kinds(&effects).contains(&"Coverage"),
        "{:?}",
        kinds(&effects)
    );
    assert!(app.coverage.running);
    settle(&mut app, &mut runtime, effects);
    assert!(!app.coverage.running);
    let coverage = app.coverage.coverage.as_ref().expect("a coverage report");
    assert_eq!(coverage.totals.rules, 17);
    assert!(coverage.untouched.is_empty());
    let mutation = app.coverage.mutation.as_ref().expect("a mutation report");
    assert!(mutation.killed > 0 && mutation.evaluated >= mutation.killed);
    assert!(
        app.status
            .message
            .as_deref()
            .unwrap_or("")
            .contains("mutation score"),
        "{:?}",
        app.status.message
    );
}

/// One score, one text: the workbench's status line says exactly what
/// `precept coverage` says for the same model and the same mutants (the
/// workbench evaluates a sample of 200, as `--max-mutants 200` does).
#[test]
fn the_mutation_score_reads_the_same_in_the_cli_and_the_workbench() {
    let (dir, mut app) = park();
    let mut runtime = start(&mut app);
    let effects = press(&mut app, 'C');
    settle(&mut app, &mut runtime, effects);
    let mutation = app.coverage.mutation.as_ref().expect("a mutation report");
    let status = app.status.message.clone().unwrap_or_default();
    let out = support::precept(&[
        "coverage",
        dir.path().to_str().unwrap(),
        "--max-mutants",
        "200",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", support::stderr(&out));
    let cli = support::stdout(&out);
    let cli_line = cli
        .lines()
        .find_map(|l| l.strip_prefix("Mutation score: "))
        .expect("the CLI prints the score")
        .to_string();
    // The score is killed / (killed + survived − equivalent), one decimal.
    let scored = mutation.killed + mutation.survived - mutation.equivalent;
    let expected = format!("{:.1}%", mutation.killed as f64 * 100.0 / scored as f64);
    assert!(
        cli_line.starts_with(&format!("{expected}: {} killed, ", mutation.killed)),
        "{cli_line}"
    );
    assert_eq!(
        status,
        format!(
            "coverage {:.1}% of rules both ways; mutation score {cli_line}",
            app.coverage
                .coverage
                .as_ref()
                .unwrap()
                .totals
                .covered_percent
        )
    );
    if mutation.generated > mutation.evaluated {
        assert!(
            cli_line.ends_with(&format!(
                ", on a sample of {} of {} mutants",
                mutation.evaluated, mutation.generated
            )),
            "{cli_line}"
        );
    }
}

#[test]
fn generated_tests_are_proposed_then_accepted_or_rejected() {
    let (dir, mut app) = park();
    let mut runtime = start(&mut app);
    let before = app.ws.tests.tests.len();
    let effects = ctrl(&mut app, 'g');
    assert_eq!(kinds(&effects), ["Generate"]);
    settle(&mut app, &mut runtime, effects);
    let proposed: Vec<usize> = app
        .ws
        .tests
        .tests
        .iter()
        .enumerate()
        .filter(|(_, t)| t.status == precept::model::TestStatus::Proposed)
        .map(|(i, _)| i)
        .collect();
    assert!(!proposed.is_empty() && app.ws.tests.tests.len() == before + proposed.len());
    // Proposed tests do not count until reviewed.
    assert_eq!(app.counts().0 + app.counts().1, before);
    // Accept the first: a regression test expecting the proved finding.
    press(&mut app, '3');
    for _ in 0..proposed[0] {
        press(&mut app, 'j');
    }
    let mut effects = press(&mut app, 'y');
    if matches!(app.overlay, Some(Overlay::ConfirmAcceptImpossible { .. })) {
        // Proved IMPOSSIBLE: accepted knowingly.
        effects = press(&mut app, 'y');
    }
    settle(&mut app, &mut runtime, effects);
    let accepted = &app.ws.tests.tests[proposed[0]];
    assert_eq!(accepted.status, precept::model::TestStatus::Accepted);
    assert_eq!(Some(accepted.expected), accepted.proved);
    // Reject the second with another finding: it becomes a failing test.
    press(&mut app, 'j');
    press(&mut app, 'R');
    assert!(matches!(app.overlay, Some(Overlay::RejectPrompt { .. })));
    let proved = app.ws.tests.tests[proposed[1]].proved.unwrap();
    let other = if proved == FindingKind::Valid {
        'i'
    } else {
        'v'
    };
    let effects = press(&mut app, other);
    settle(&mut app, &mut runtime, effects);
    let rejected = &app.ws.tests.tests[proposed[1]];
    assert_eq!(rejected.status, precept::model::TestStatus::Rejected);
    assert_eq!(app.test_state(&rejected.id).passed(), Some(false));
    // Saved with their states.
    let saved: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(dir.path().join("tests.json")).unwrap()).unwrap();
    let statuses: Vec<&str> = saved["tests"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|t| t["status"].as_str())
        .collect();
    assert!(
        statuses.contains(&"accepted")
            && statuses.contains(&"rejected")
            && statuses.contains(&"proposed"),
        "{statuses:?}"
    );
}

/// Accepting a proposed test proved IMPOSSIBLE locks a conflict in as
/// expected behaviour: `y` first asks, naming the conflicting rules and
/// saying what accepting means; any other key cancels, `y` again accepts.
#[test]
fn accepting_an_impossible_test_asks_first() {
    let (_dir, mut app) = park();
    let mut runtime = start(&mut app);
    let effects = ctrl(&mut app, 'g');
    settle(&mut app, &mut runtime, effects);
    let index = app
        .ws
        .tests
        .tests
        .iter()
        .position(|t| {
            t.status == precept::model::TestStatus::Proposed
                && t.proved == Some(FindingKind::Impossible)
        })
        .expect("park has a proposed IMPOSSIBLE test");
    let id = app.ws.tests.tests[index].id.clone();
    let rules = match &app.ws.run.results[&id] {
        TestState::Done(outcome) => outcome
            .finding
            .as_ref()
            .unwrap()
            .contradicting_rules
            .clone(),
        _ => panic!("{id} was run"),
    };
    assert!(rules.len() >= 2, "{rules:?}");
    let listed = format!(
        "{} and {}",
        rules[..rules.len() - 1].join(", "),
        rules[rules.len() - 1]
    );
    press(&mut app, '3');
    for _ in 0..index {
        press(&mut app, 'j');
    }
    let effects = press(&mut app, 'y');
    assert!(effects.is_empty(), "nothing is saved or run yet");
    match &app.overlay {
        Some(Overlay::ConfirmAcceptImpossible {
            test_index,
            warning,
        }) => {
            assert_eq!(*test_index, index);
            assert_eq!(
                warning,
                &format!(
                    "{id} was proved IMPOSSIBLE: rules {listed} contradict each other in this situation, so it can never arise. \
                     Accepting {id} would make that contradiction expected behaviour: the test would pass while the conflict stays, \
                     and fail once the rules are repaired. Usually the rules need repairing instead."
                )
            );
        }
        _ => panic!("no confirmation"),
    }
    // Any other key cancels.
    let effects = press(&mut app, 'n');
    assert!(effects.is_empty() && app.overlay.is_none());
    assert_eq!(
        app.ws.tests.tests[index].status,
        precept::model::TestStatus::Proposed
    );
    // y, then y again, accepts it as an ordinary (undoable) edit.
    press(&mut app, 'y');
    let effects = press(&mut app, 'y');
    assert!(
        kinds(&effects).contains(&"SaveTests"),
        "{:?}",
        kinds(&effects)
    );
    settle(&mut app, &mut runtime, effects);
    let accepted = &app.ws.tests.tests[index];
    assert_eq!(accepted.status, precept::model::TestStatus::Accepted);
    assert_eq!(accepted.expected, FindingKind::Impossible);
}

/// `x` on a conflicting overlap: both exception fixes are offered, each with
/// the tests it would flip (worked out by the solver in the background);
/// the chosen one is applied as an ordinary edit and undone with `u`.
#[test]
fn an_exception_fix_is_chosen_with_its_flips_applied_and_undone() {
    let scratch = tempfile::tempdir().unwrap();
    support::overlap_project(scratch.path());
    let mut app = open_app(scratch.path());
    let mut runtime = start(&mut app);
    assert_eq!(
        app.ws.run.results["T1"].passed(),
        Some(false),
        "IMPOSSIBLE before the fix"
    );
    let effects = press(&mut app, '5');
    settle(&mut app, &mut runtime, effects);
    // The list is ranked: the impossible situation the overlap makes
    // (three rules) comes before the overlap itself (two).
    let rows: Vec<&str> = app
        .lint
        .triage
        .groups
        .iter()
        .map(|g| g.code.code())
        .collect();
    assert_eq!(rows, ["L210", "L206", "L207"]);
    let overlap = 1;
    for _ in 0..overlap {
        press(&mut app, 'j');
    }
    let effects = press(&mut app, 'x');
    assert_eq!(kinds(&effects), ["PreviewFixes"]);
    settle(&mut app, &mut runtime, effects);
    let Some(Overlay::FixChoice(choice)) = &app.overlay else {
        panic!("a choice of fixes, not {:?}", app.overlay.is_some());
    };
    assert_eq!(choice.fixes.len(), 2);
    assert!(
        choice.fixes[0]
            .description
            .starts_with("R2 is the exception")
    );
    let flips = |i: usize| match &choice.flips[i] {
        Some(Ok(flips)) => flips.clone(),
        other => panic!("fix {i}: {other:?}"),
    };
    assert!(
        flips(0).iter().any(|f| f.test_id == "T1" && f.passes_after),
        "making denied boarding the exception fixes T1"
    );
    assert!(!flips(1).iter().any(|f| f.test_id == "T1" && f.passes_after));

    let before = app.ws.model.rules[0].expression.clone();
    press(&mut app, '2');
    press(&mut app, '1');
    let effects = update(&mut app, key_event(KeyCode::Enter, KeyModifiers::NONE));
    assert!(app.overlay.is_none());
    assert_eq!(
        app.ws.model.rules[0].expression,
        "(=> (and operated (not travelled) (not deniedBoarding)) (not refund))"
    );
    settle(&mut app, &mut runtime, effects);
    assert_eq!(app.ws.run.results["T1"].passed(), Some(true));
    assert_eq!(
        read_model(scratch.path()).rules[0].expression,
        app.ws.model.rules[0].expression,
        "saved at once"
    );
    let effects = press(&mut app, 'u');
    assert_eq!(app.ws.model.rules[0].expression, before);
    settle(&mut app, &mut runtime, effects);
}

/// Two exceptions that both conflict with one general rule over the same
/// output: one row, naming both pairs; tab and j reach the second rule;
/// x offers the fixes of both conflicts. Notes are folded into one row.
#[test]
fn conflicts_over_one_variable_are_one_row_and_notes_fold_away() {
    let scratch = tempfile::tempdir().unwrap();
    support::smtlib_project(
        scratch.path(),
        "(declare-const operated Bool)(declare-const travelled Bool)(declare-const deniedBoarding Bool)
         (declare-const cancelled Bool)(declare-const refund Bool)(declare-const seats Int)
         (assert (=> (and operated (not travelled)) (not refund)))
         (assert (=> deniedBoarding refund))
         (assert (=> cancelled refund))
         (assert (>= seats 0))",
        "(and operated deniedBoarding (not travelled))",
    );
    let mut app = open_app(scratch.path());
    app.size = (150, 40);
    let mut runtime = start(&mut app);
    let effects = press(&mut app, '5');
    settle(&mut app, &mut runtime, effects);

    let conflicts = app
        .lint
        .diagnostics
        .iter()
        .filter(|d| d.code == precept::lint::LintCode::ConflictingOverlap)
        .count();
    assert_eq!(conflicts, 2, "{:#?}", app.lint.diagnostics);
    let row = app
        .lint
        .triage
        .groups
        .iter()
        .position(|g| g.code == precept::lint::LintCode::ConflictingOverlap)
        .expect("one row for both conflicts");
    assert_eq!(
        app.lint.triage.groups[row].subject,
        "2 conflicts deciding refund: R1 ↔ R2, R1 ↔ R3"
    );
    // The bare assertion on seats, and seats making a group of rules of its
    // own, are notes: folded into the last row.
    assert_eq!(
        app.lint.triage.folded_notes, 2,
        "{:#?}",
        app.lint.diagnostics
    );
    let screen = screen_text(&app);
    assert!(
        screen.contains("L206 2 conflicts deciding refund: R1 ↔ R2, R1 ↔ R3"),
        "{screen}"
    );
    assert!(
        screen.contains("2 notes folded away · f shows them"),
        "{screen}"
    );
    assert!(!screen.contains("L130"), "{screen}");
    press(&mut app, 'f');
    assert_eq!(app.lint.triage.folded_notes, 0);
    assert!(screen_text(&app).contains("L130"));
    press(&mut app, 'f');

    // enter goes to the first rule; tab, j and enter to another.
    for _ in 0..row {
        press(&mut app, 'j');
    }
    code(&mut app, KeyCode::Tab);
    assert_eq!(app.focus, Pane::DiagnosticRules);
    press(&mut app, 'j');
    code(&mut app, KeyCode::Enter);
    assert_eq!(
        (app.screen, app.selected_rule().unwrap().id.as_str()),
        (Screen::Rules, "R2")
    );

    // x on the row: the fixes of both conflicts to choose from.
    press(&mut app, '5');
    for _ in 0..row {
        press(&mut app, 'j');
    }
    let effects = press(&mut app, 'x');
    assert_eq!(kinds(&effects), ["PreviewFixes"]);
    let Some(Overlay::FixChoice(choice)) = &app.overlay else {
        panic!("a choice of fixes");
    };
    assert_eq!(choice.fixes.len(), 4, "two exception fixes per conflict");
    settle(&mut app, &mut runtime, effects);
    code(&mut app, KeyCode::Esc);
    // Enter on a row reaches its first rule and says which others it names.
    press(&mut app, '5');
    assert_eq!(app.focus, Pane::Diagnostics);
    code(&mut app, KeyCode::Enter);
    assert!(
        app.status
            .message
            .as_deref()
            .is_some_and(|m| m.contains("tab, then j/k and enter")),
        "{:?}",
        app.status.message
    );
}

#[test]
fn the_rules_of_a_large_conflict_group_are_in_view_when_chosen() {
    // The LLM-formalized CBT page: eleven conflicts decide needsToTakeCbt.
    let scratch = support::copy_test_data("lab/cbt-llm-model");
    let mut app = open_app(scratch.path());
    for size in [(120, 40), (80, 24)] {
        app.size = size;
        let mut runtime = start(&mut app);
        let effects = press(&mut app, '5');
        settle(&mut app, &mut runtime, effects);
        press(&mut app, 'g');
        let row = app
            .lint
            .triage
            .groups
            .iter()
            .position(|g| {
                g.subject
                    .starts_with("11 conflicts deciding needsToTakeCbt")
            })
            .unwrap_or_else(|| panic!("{:#?}", app.lint.triage.groups));
        for _ in 0..row {
            press(&mut app, 'j');
        }
        code(&mut app, KeyCode::Tab);
        assert_eq!(app.focus, Pane::DiagnosticRules);
        press(&mut app, 'j');
        let chosen = app.lint.selected_group().unwrap().rules[1].clone();
        let screen = screen_text(&app);
        assert!(
            screen.contains(&format!("▶ {chosen:<5}")),
            "the chosen rule {chosen} is on screen at {size:?}:\n{screen}"
        );
        code(&mut app, KeyCode::Enter);
        assert_eq!(app.selected_rule().unwrap().id, chosen);
        code(&mut app, KeyCode::Esc);
    }
}

/// A row that groups several findings whose messages point at "the
/// scenario shown" shows one: its first member's, cut to that member's
/// rules.
#[test]
fn a_group_row_shows_the_scenario_its_messages_point_to() {
    let dir = support::copy_test_data("lab/cbt-llm-model");
    let mut app = support::keys::open_app(dir.path());
    app.size = (160, 250);
    let mut runtime = start(&mut app);
    let effects = press(&mut app, '5');
    settle(&mut app, &mut runtime, effects);
    assert!(!app.lint.running);
    // The first row is the group of gaps.
    let screen = support::keys::screen_text(&app);
    assert!(screen.contains("gap · "), "{screen}");
    assert!(screen.contains("Scenario (of "), "{screen}");
}

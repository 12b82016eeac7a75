//! Results computed before an edit never pass for current: lint reruns (or
//! says it is stale, naming the edit), coverage says it is stale, the
//! status line drops an error the edit answered, and flips are named with
//! the edit that caused them.

use super::*;
use precept::lint::LintCode;
use precept::tui::update::RELINT_AT_ONCE_RULES;

const DUPLICATE_OF_R1: &str = "(= baseFee 50.0)";

fn add_rule(app: &mut App, text: &str) -> Vec<Effect> {
    press(app, '1');
    press(app, 'a');
    type_text(app, text);
    ctrl(app, 's')
}

fn has_duplicate(app: &App) -> bool {
    app.lint
        .diagnostics
        .iter()
        .any(|d| d.code == LintCode::DuplicateRule)
}

#[test]
fn lint_follows_edits_and_undo_takes_a_duplicate_away_at_once() {
    let (_dir, mut app) = park();
    assert_eq!(expression(&app.ws.model, "R1"), DUPLICATE_OF_R1);
    let mut runtime = start(&mut app);
    let effects = press(&mut app, '5');
    settle(&mut app, &mut runtime, effects);
    assert!(!has_duplicate(&app));

    // A small model is linted again after every edit.
    let effects = add_rule(&mut app, DUPLICATE_OF_R1);
    assert!(kinds(&effects).contains(&"Lint"), "{:?}", kinds(&effects));
    settle(&mut app, &mut runtime, effects);
    assert!(has_duplicate(&app), "{:?}", app.lint.diagnostics);
    assert_eq!(app.lint.basis.stale_since(), None);

    // Undo: the duplicate is gone before the solver has said anything.
    let effects = press(&mut app, 'u');
    assert!(!has_duplicate(&app), "{:?}", app.lint.diagnostics);
    settle(&mut app, &mut runtime, effects);
    assert!(!has_duplicate(&app));
    assert!(!screen_text(&app).contains("STALE"));
}

/// An edit's lint carries the model it checks and goes to the solver
/// workers before the edit's test rerun, so the vetting pane is current
/// first.
#[test]
fn an_edits_lint_goes_to_the_workers_before_its_test_rerun() {
    let (_dir, mut app) = park();
    let mut runtime = start(&mut app);
    let effects = press(&mut app, '5');
    settle(&mut app, &mut runtime, effects);
    edit_rule(&mut app, "R16", R16_TAXED_MORE);
    let effects = ctrl(&mut app, 's');
    let order = kinds(&effects);
    let at = |kind: &str| order.iter().position(|k| *k == kind);
    assert!(
        at("Lint").is_some() && at("Lint") < at("RunTests") && at("RunTests").is_some(),
        "{order:?}"
    );
}

/// An edit's lint redoes the syntactic checks in the background beside the
/// solver checks: the run is over only when both are in, whichever comes
/// first, and meanwhile no diagnostic names a rule the edit changed.
#[test]
fn an_edits_lint_ends_when_its_syntactic_and_solver_checks_are_both_in() {
    let (_dir, mut app) = park();
    let mut runtime = start(&mut app);
    let effects = press(&mut app, '5');
    settle(&mut app, &mut runtime, effects);
    let effects = add_rule(&mut app, DUPLICATE_OF_R1);
    assert!(
        kinds(&effects).contains(&"Lint") && kinds(&effects).contains(&"syntactic lint"),
        "{:?}",
        kinds(&effects)
    );
    // The solver checks first: the run is not over, the duplicate not
    // yet listed.
    let (syntactic, solver): (Vec<Effect>, Vec<Effect>) = effects
        .into_iter()
        .partition(|e| matches!(e, Effect::Background(t) if t.name == "syntactic lint"));
    settle(&mut app, &mut runtime, solver);
    assert!(app.lint.running && !has_duplicate(&app));
    settle(&mut app, &mut runtime, syntactic);
    assert!(
        !app.lint.running && has_duplicate(&app),
        "{:?}",
        app.lint.diagnostics
    );
    assert_eq!(app.lint.basis.stale_since(), None);
    // Undo, and the syntactic checks last: the duplicate goes at once, as
    // it names the rule the undo removed.
    let effects = press(&mut app, 'u');
    assert!(!has_duplicate(&app), "{:?}", app.lint.diagnostics);
    settle(&mut app, &mut runtime, effects);
    assert!(!app.lint.running && !has_duplicate(&app));
}

/// Rule `X{i}`, unreviewed.
fn extra_rule(i: usize, expression: String) -> precept::model::Rule {
    precept::model::Rule {
        id: format!("X{i}"),
        expression,
        source_span: None,
        also_from: Vec::new(),
        review: ReviewStatus::Unreviewed,
        note: String::new(),
    }
}

fn write_model(dir: &std::path::Path, model: &precept::model::PolicyModel) {
    fs::write(
        dir.join("model.json"),
        serde_json::to_string_pretty(model).unwrap(),
    )
    .unwrap();
}

#[test]
fn a_large_model_of_small_groups_is_linted_again_after_every_edit() {
    let dir = copy_sample("park-admission");
    let mut model = read_model(dir.path());
    // More rules than a group may have, each in a group of its own: an
    // edit rechecks only its group, so lint follows every edit.
    for i in 0..=RELINT_AT_ONCE_RULES {
        model.variables.push(precept::model::Variable {
            name: format!("visits{i}"),
            sort: "Int".into(),
            description: format!("visits in season {i}"),
            reading: Default::default(),
        });
        model.rules.push(extra_rule(i, format!("(>= visits{i} 0)")));
    }
    write_model(dir.path(), &model);
    let mut app = open_app(dir.path());
    let mut runtime = start(&mut app);
    let effects = press(&mut app, '5');
    settle(&mut app, &mut runtime, effects);
    assert!(!has_duplicate(&app));
    let effects = add_rule(&mut app, DUPLICATE_OF_R1);
    assert!(kinds(&effects).contains(&"Lint"), "{:?}", kinds(&effects));
    settle(&mut app, &mut runtime, effects);
    assert!(has_duplicate(&app), "{:?}", app.lint.diagnostics);
    assert_eq!(app.lint.basis.stale_since(), None);
    assert!(!screen_text(&app).contains("STALE"));
}

/// The park sample with more rules in one group (they all share
/// creditUnits) than the workbench lints again after every edit before a
/// lint of it has finished.
fn one_large_group() -> (tempfile::TempDir, App) {
    let dir = copy_sample("park-admission");
    let mut model = read_model(dir.path());
    for i in 0..RELINT_AT_ONCE_RULES {
        model.rules.push(extra_rule(
            i,
            format!("(=> (> creditUnits {i}) (>= creditCost 0.0))"),
        ));
    }
    write_model(dir.path(), &model);
    let mut app = open_app(dir.path());
    app.size = (140, 30);
    (dir, app)
}

#[test]
fn a_large_models_solver_checks_are_marked_stale_with_the_edit() {
    let (_dir, mut app) = one_large_group();
    // Lint, and edit at once: the results still arriving describe the old model.
    press(&mut app, '5');
    let effects = add_rule(&mut app, DUPLICATE_OF_R1);
    assert!(!kinds(&effects).contains(&"Lint"), "{:?}", kinds(&effects));
    let new_rule = app.ws.model.rules.last().unwrap().id.clone();
    assert_eq!(
        app.lint.basis.stale_since(),
        Some(format!("add rule {new_rule}").as_str())
    );
    // The syntactic checks are redone at once: the duplicate is listed.
    assert!(has_duplicate(&app));
    app.lint.running = false;
    press(&mut app, '5');
    let screen = screen_text(&app);
    assert!(
        screen.contains("Lint · STALE · ")
            && screen.contains(&format!(
                "STALE since add rule {new_rule}: the solver checks"
            )),
        "{screen}"
    );
    // Undo returns to the linted model: current again.
    press(&mut app, 'u');
    assert_eq!(app.lint.basis.stale_since(), None);
}

/// Once a lint of a model with a large group has finished, the engine
/// keeps its answers, and every edit is linted again at once: a rule that
/// can never apply is reported, and the pane is current with no stale
/// marker.
#[test]
fn a_large_groups_lint_follows_every_edit_once_a_lint_has_finished() {
    let (_dir, mut app) = one_large_group();
    let mut runtime = start(&mut app);
    let effects = press(&mut app, '5');
    settle(&mut app, &mut runtime, effects);
    assert!(app.lint.finished_once);
    let never = "(=> (and (> creditUnits 5) (< creditUnits 2)) (>= creditCost 1.0))";
    let effects = add_rule(&mut app, never);
    assert!(kinds(&effects).contains(&"Lint"), "{:?}", kinds(&effects));
    let new_rule = app.ws.model.rules.last().unwrap().id.clone();
    settle(&mut app, &mut runtime, effects);
    assert!(
        app.lint
            .diagnostics
            .iter()
            .any(|d| d.code == LintCode::VacuousRule && d.rules.first() == Some(&new_rule)),
        "{:?}",
        app.lint.diagnostics
    );
    assert_eq!(app.lint.basis.stale_since(), None);
    press(&mut app, '5');
    assert!(!screen_text(&app).contains("STALE"));
}

#[test]
fn coverage_measured_before_an_edit_says_so() {
    let (_dir, mut app) = park();
    let mut runtime = start(&mut app);
    let effects = press(&mut app, 'C');
    settle(&mut app, &mut runtime, effects);
    assert_eq!(app.coverage.basis.stale_since(), None);
    edit_rule(&mut app, "R16", R16_TAXED_MORE);
    let effects = ctrl(&mut app, 's');
    settle(&mut app, &mut runtime, effects);
    assert_eq!(app.coverage.basis.stale_since(), Some("edit rule R16"));
    app.size = (140, 40);
    press(&mut app, '5');
    let screen = screen_text(&app);
    assert!(
        screen.contains("Coverage · STALE since edit rule R16"),
        "{screen}"
    );
    // A review mark does not change what coverage measured.
    let (_dir2, mut fresh) = park();
    let mut runtime2 = start(&mut fresh);
    let effects = press(&mut fresh, 'C');
    settle(&mut fresh, &mut runtime2, effects);
    press(&mut fresh, '1');
    press(&mut fresh, 'A');
    assert_eq!(fresh.coverage.basis.stale_since(), None);
}

#[test]
fn the_draft_error_goes_once_the_corrected_rule_is_applied() {
    let (_dir, mut app) = park();
    let mut runtime = start(&mut app);
    edit_rule(&mut app, "R16", "(= totalExpense");
    ctrl(&mut app, 's');
    assert!(
        app.status
            .last_error
            .as_deref()
            .is_some_and(|e| e.contains("R16 kept as a draft")),
        "{:?}",
        app.status
    );
    clear_editor(&mut app);
    type_text(&mut app, R16_TAXED_MORE);
    let effects = ctrl(&mut app, 's');
    assert_eq!(app.status.last_error, None, "{:?}", app.status);
    settle(&mut app, &mut runtime, effects);
    assert!(
        !screen_text(&app).contains("kept as a draft"),
        "{}",
        screen_text(&app)
    );
}

#[test]
fn flips_are_named_and_j_walks_them_with_the_edit_that_made_them() {
    let (_dir, mut app) = park();
    let mut runtime = start(&mut app);
    edit_rule(&mut app, "R16", R16_TAXED_MORE);
    let effects = ctrl(&mut app, 's');
    settle(&mut app, &mut runtime, effects);
    let message = app.status.message.clone().unwrap();
    assert!(
        message.contains("; flipped: 2 passed→failed (T1, T2), 0 failed→passed · J jumps to them"),
        "{message}"
    );
    press(&mut app, 'J');
    assert_eq!((app.screen, app.focus), (Screen::Tests, Pane::Tests));
    assert_eq!(app.selected_test().unwrap().id, "T1");
    let change = &app.ws.run.finding_changes["T1"];
    assert_eq!(change.edit, "edit rule R16");
    assert_ne!(change.from, change.to);
    assert_eq!(
        app.status.message.as_deref(),
        Some("flipped test 1 of 2: T1 passed→failed by edit rule R16")
    );
    app.size = (140, 40);
    let screen = screen_text(&app);
    assert!(
        screen.contains(&format!(
            "Finding changed from {} to {} by: edit rule R16",
            change.from.name(),
            change.to.name()
        )),
        "{screen}"
    );
    press(&mut app, 'J');
    assert_eq!(app.selected_test().unwrap().id, "T2");
    press(&mut app, 'J');
    assert_eq!(app.selected_test().unwrap().id, "T1", "wraps around");

    // Undo flips them back, and says so.
    let effects = press(&mut app, 'u');
    settle(&mut app, &mut runtime, effects);
    assert_eq!(app.ws.run.finding_changes["T1"].edit, "undo edit rule R16");
}

#[test]
fn proposed_tests_are_counted_apart_from_pass_and_fail() {
    let (_dir, mut app) = park();
    let mut runtime = start(&mut app);
    let effects = ctrl(&mut app, 'g');
    settle(&mut app, &mut runtime, effects);
    let proposed = app.proposed_count();
    assert!(proposed > 0);
    assert_eq!(app.counts(), (18, 0, 0), "proposed tests do not count");
    app.size = (160, 40);
    press(&mut app, '3');
    let screen = screen_text(&app);
    assert!(
        screen.contains(&format!(
            "Tests · 18 pass · 0 fail · {proposed} proposed, not counted"
        )),
        "{screen}"
    );
    // The status line says so too, in the same words: ✓ proposed tests
    // never read as "0 passed".
    let status = screen.lines().last().unwrap();
    assert!(
        status.contains(&format!(
            "18 passed, 0 failed · {proposed} proposed, not counted"
        )),
        "{status}"
    );
    assert_eq!(
        app.standing(),
        format!("18 passed, 0 failed · {proposed} proposed, not counted")
    );
}

#[test]
fn a_generated_tests_explanation_says_when_the_rules_have_moved_on() {
    let (_dir, mut app) = park();
    let mut runtime = start(&mut app);
    let effects = ctrl(&mut app, 'g');
    settle(&mut app, &mut runtime, effects);
    // Raising the tax changes what some generated questions prove.
    edit_rule(&mut app, "R16", R16_TAXED_MORE);
    let effects = ctrl(&mut app, 's');
    settle(&mut app, &mut runtime, effects);
    let moved: Vec<usize> = app
        .ws.tests
        .tests
        .iter()
        .enumerate()
        .filter(|(_, t)| {
            matches!(app.test_state(&t.id), TestState::Done(o) if t.proved.is_some() && o.actual() != t.proved)
        })
        .map(|(i, _)| i)
        .collect();
    assert!(!moved.is_empty(), "some generated test changed its finding");
    app.size = (160, 60);
    press(&mut app, '3');
    for _ in 0..moved[0] {
        press(&mut app, 'j');
    }
    let screen = screen_text(&app);
    assert!(
        screen.contains("The model has changed since this test was generated: the solver proved"),
        "{screen}"
    );
    // A generated test whose finding still holds says nothing of the kind.
    let held = app
        .ws.tests
        .tests
        .iter()
        .position(|t| {
            matches!(app.test_state(&t.id), TestState::Done(o) if t.proved.is_some() && o.actual() == t.proved)
        })
        .expect("a generated test that still holds");
    press(&mut app, 'g');
    for _ in 0..held {
        press(&mut app, 'j');
    }
    assert!(!screen_text(&app).contains("The model has changed since"));
}

/// A solver can prove a generated question's finding again through another
/// minimal rule set (an IMPOSSIBLE question often has several conflicts).
/// The "why" line is then written from the finding on the screen: it names
/// that finding's rules and none of an earlier proof's, and keeps what the
/// test was generated to probe.
#[test]
fn a_generated_tests_why_names_the_rules_of_the_finding_on_screen() {
    let (_dir, mut app) = park();
    let mut runtime = start(&mut app);
    let effects = ctrl(&mut app, 'g');
    settle(&mut app, &mut runtime, effects);
    let (at, rules) = app
        .ws
        .tests
        .tests
        .iter()
        .enumerate()
        .find_map(|(i, t)| match app.test_state(&t.id) {
            TestState::Done(o) if t.proved.is_some() && o.actual() == t.proved => o
                .finding
                .as_ref()
                .filter(|f| !f.rules().is_empty())
                .map(|f| (i, f.rules().to_vec())),
            _ => None,
        })
        .expect("a generated test proved again through some rules");
    // As if the proof at generation had gone through a rule the finding on
    // screen does not use.
    app.ws.tests.tests[at].rationale =
        "Follows: with the premise, R99 forces the claim. Generated as a “Boundary” test of R4."
            .into();
    app.size = (600, 80);
    press(&mut app, '3');
    for _ in 0..at {
        press(&mut app, 'j');
    }
    let screen = screen_text(&app);
    let why = screen
        .lines()
        .find(|l| l.contains("why: "))
        .unwrap_or_else(|| panic!("{screen}"));
    assert!(!why.contains("R99"), "{why}");
    for rule in &rules {
        assert!(why.contains(rule.as_str()), "{rule} missing: {why}");
    }
    assert!(
        why.contains("Generated as a “Boundary” test of R4."),
        "{why}"
    );
}

/// The solver's word on a rewrite may come after the edit's rerun is over
/// (a rerun that keeps most findings is quick): the status line then puts
/// it in front of the run's counts and flips, which stay in view.
#[test]
fn a_rewrite_proved_after_the_rerun_keeps_the_runs_counts_in_view() {
    let (_dir, mut app) = park();
    let mut runtime = start(&mut app);
    edit_rule(
        &mut app,
        "R16",
        "(= totalExpense (* 1.1 (+ creditCost cashPayment)))",
    );
    let (rewrite, run): (Vec<Effect>, Vec<Effect>) = ctrl(&mut app, 's')
        .into_iter()
        .partition(|e| matches!(e, Effect::Background(task) if task.name == "CheckRewrite"));
    assert_eq!(rewrite.len(), 1);
    settle(&mut app, &mut runtime, run);
    let counts = app.status.message.clone().unwrap();
    assert!(counts.starts_with("reran "), "{counts}");
    settle(&mut app, &mut runtime, rewrite);
    assert_eq!(
        app.status.message.as_deref(),
        Some(
            format!(
                "R16 rewritten with the same meaning (proved by the solver): still approved · {counts}"
            )
            .as_str()
        )
    );
}

/// Approval follows meaning, decided by the solver: an approved rule
/// rewritten in other words that mean the same (operands swapped) gets its
/// approval back, saved to disk, with the status line saying why; a change
/// of meaning leaves it unreviewed (the status line keeps the flips).
#[test]
fn a_pure_rewrite_keeps_approval_and_a_change_of_meaning_does_not() {
    let (dir, mut app) = park();
    let review = |app: &App| app.ws.model.rule("R16").unwrap().review;
    assert_eq!(review(&app), ReviewStatus::Approved);
    let mut runtime = start(&mut app);
    let swapped = "(= totalExpense (* 1.1 (+ creditCost cashPayment)))";
    edit_rule(&mut app, "R16", swapped);
    let effects = ctrl(&mut app, 's');
    assert_eq!(
        review(&app),
        ReviewStatus::Unreviewed,
        "until the solver says"
    );
    settle(&mut app, &mut runtime, effects);
    assert_eq!(expression(&app.ws.model, "R16"), swapped);
    assert_eq!(review(&app), ReviewStatus::Approved);
    let status = app.status.message.clone().unwrap_or_default();
    assert!(
        status.starts_with(
            "R16 rewritten with the same meaning (proved by the solver): still approved · "
        ),
        "{status}"
    );
    let on_disk = |dir: &Path| {
        let text = fs::read_to_string(dir.join("model.json")).unwrap();
        serde_json::from_str::<PolicyModel>(&text)
            .unwrap()
            .rule("R16")
            .unwrap()
            .review
    };
    assert_eq!(on_disk(dir.path()), ReviewStatus::Approved);

    edit_rule(&mut app, "R16", R16_TAXED_MORE);
    let effects = ctrl(&mut app, 's');
    settle(&mut app, &mut runtime, effects);
    assert_eq!(review(&app), ReviewStatus::Unreviewed);
    assert_eq!(on_disk(dir.path()), ReviewStatus::Unreviewed);
    let status = app.status.message.clone().unwrap_or_default();
    assert!(
        status.starts_with("reran ") && status.contains(": 16 passed, 2 failed; flipped: "),
        "{status}"
    );
}

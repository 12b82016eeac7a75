//! Approval follows meaning whatever made the edit: a lint fix or an
//! accepted repair that rewrites an approved rule asks the solver, as an
//! editor edit does, so a pure rewrite keeps the approval (saying so in the
//! status line) and a change of meaning leaves the rule to review again.

use super::*;
use precept::lint::{Diagnostic, LintCode, Severity};
use precept::model::ModelEdit;
use precept::repair::{ProposedEdit, RepairProposal};
use precept::solve::lint_checks::LintEvent;

/// R16 in other words that mean the same (the sum's operands swapped).
const R16_SWAPPED: &str = "(= totalExpense (* 1.1 (+ creditCost cashPayment)))";

fn review(app: &App, id: &str) -> ReviewStatus {
    app.ws.model.rule(id).unwrap().review
}

fn same_meaning_note(id: &str) -> String {
    format!("{id} rewritten with the same meaning (proved by the solver): still approved · ")
}

/// A diagnostic on R16 whose one fix gives R16 the text `expression`, as
/// the linter sends it, selected on the vetting screen.
fn select_fix_for_r16(app: &mut App, expression: &str) {
    let diagnostic = Diagnostic::new(
        LintCode::EquivalentRule,
        Severity::Warning,
        "R16 could be written more plainly",
    )
    .rules(["R16"])
    .fix(
        "write R16 more plainly",
        ModelEdit::ReplaceRule {
            id: "R16".into(),
            expression: expression.into(),
        },
    );
    let stamp = precept::workspace::Stamp {
        job: app.lint.job,
        revision: app.ws.revision(),
    };
    for event in [
        LintEvent::Found(Box::new(diagnostic)),
        LintEvent::Finished {
            checks: 1,
            undecided: 0,
            unchecked: Vec::new(),
        },
    ] {
        update(app, Msg::Lint { stamp, event });
    }
    let row = app
        .lint
        .triage
        .groups
        .iter()
        .position(|g| g.code == LintCode::EquivalentRule)
        .expect("the diagnostic is listed");
    for _ in 0..app.lint.triage.groups.len() {
        press(app, 'k');
    }
    for _ in 0..row {
        press(app, 'j');
    }
    assert_eq!(
        app.lint.selected_members()[0].message,
        "R16 could be written more plainly"
    );
}

#[test]
fn a_lint_fix_that_only_rewrites_an_approved_rule_keeps_its_approval() {
    let (dir, mut app) = park();
    assert_eq!(review(&app, "R16"), ReviewStatus::Approved);
    let mut runtime = start(&mut app);
    // The lint run itself is not carried out: its messages are the test's.
    press(&mut app, '5');
    select_fix_for_r16(&mut app, R16_SWAPPED);
    let effects = press(&mut app, 'x');
    assert!(
        kinds(&effects).contains(&"CheckRewrite"),
        "{:?}",
        kinds(&effects)
    );
    assert_eq!(
        review(&app, "R16"),
        ReviewStatus::Unreviewed,
        "until the solver says"
    );
    settle(&mut app, &mut runtime, effects);
    assert_eq!(expression(&app.ws.model, "R16"), R16_SWAPPED);
    assert_eq!(review(&app, "R16"), ReviewStatus::Approved);
    assert_eq!(
        read_model(dir.path()).rule("R16").unwrap().review,
        ReviewStatus::Approved,
        "saved"
    );
    let status = app.status.message.clone().unwrap_or_default();
    assert!(status.starts_with(&same_meaning_note("R16")), "{status}");
}

#[test]
fn a_lint_fix_that_changes_an_approved_rules_meaning_sends_it_to_review() {
    let scratch = tempfile::tempdir().unwrap();
    support::overlap_project(scratch.path());
    let mut app = open_app(scratch.path());
    let general = app.ws.model.rules[0].id.clone();
    app.ws.model.rules[0].review = ReviewStatus::Approved;
    let mut runtime = start(&mut app);
    let effects = press(&mut app, '5');
    settle(&mut app, &mut runtime, effects);
    // The overlap's fixes make one rule the other's exception.
    let overlap = app
        .lint
        .triage
        .groups
        .iter()
        .position(|g| g.code == LintCode::ConflictingOverlap)
        .expect("the overlap is listed");
    for _ in 0..overlap {
        press(&mut app, 'j');
    }
    let effects = press(&mut app, 'x');
    settle(&mut app, &mut runtime, effects);
    let Some(Overlay::FixChoice(choice)) = &app.overlay else {
        panic!("a choice of fixes");
    };
    let rewrites_general = choice
        .fixes
        .iter()
        .position(|f| matches!(&f.edit, ModelEdit::ReplaceRule { id, .. } if *id == general));
    let at = rewrites_general.expect("a fix rewriting the approved rule");
    press(&mut app, char::from_digit(at as u32 + 1, 10).unwrap());
    let effects = code(&mut app, KeyCode::Enter);
    assert!(
        kinds(&effects).contains(&"CheckRewrite"),
        "{:?}",
        kinds(&effects)
    );
    settle(&mut app, &mut runtime, effects);
    assert_eq!(review(&app, &general), ReviewStatus::Unreviewed);
    let status = app.status.message.clone().unwrap_or_default();
    assert!(!status.contains("same meaning"), "{status}");
}

#[test]
fn an_accepted_repair_keeps_approval_only_for_a_pure_rewrite() {
    let (dir, mut app) = park();
    let mut runtime = start(&mut app);
    select_rule(&mut app, "R16");
    press(&mut app, 'w');
    type_text(&mut app, "R16 should say the tax the other way round.");
    let effects = code(&mut app, KeyCode::Enter);
    let Some(Effect::ProposeRepair { stamp, .. }) = effects.first() else {
        panic!("{:?}", kinds(&effects));
    };
    let stamp = *stamp;
    let proposed = |expression: &str| ProposedEdit {
        edit: ModelEdit::ReplaceRule {
            id: "R16".into(),
            expression: expression.into(),
        },
        reason: "as the feedback says".into(),
        before: R16.into(),
        after: expression.into(),
        before_english: String::new(),
        after_english: String::new(),
    };
    // The LLM's reply, as the runtime delivers it.
    update(
        &mut app,
        Msg::RepairProposed {
            stamp,
            result: Ok(RepairProposal {
                edits: vec![proposed(R16_SWAPPED), proposed(R16_TAXED_MORE)],
                refused: vec![],
            }),
        },
    );
    let effects = press(&mut app, 'y');
    assert!(
        kinds(&effects).contains(&"CheckRewrite"),
        "{:?}",
        kinds(&effects)
    );
    settle(&mut app, &mut runtime, effects);
    assert_eq!(expression(&app.ws.model, "R16"), R16_SWAPPED);
    assert_eq!(review(&app, "R16"), ReviewStatus::Approved);
    assert_eq!(
        read_model(dir.path()).rule("R16").unwrap().review,
        ReviewStatus::Approved
    );
    let status = app.status.message.clone().unwrap_or_default();
    assert!(status.starts_with(&same_meaning_note("R16")), "{status}");

    // The second edit raises the tax: a change of meaning.
    press(&mut app, 'j');
    let effects = press(&mut app, 'y');
    settle(&mut app, &mut runtime, effects);
    assert_eq!(expression(&app.ws.model, "R16"), R16_TAXED_MORE);
    assert_eq!(review(&app, "R16"), ReviewStatus::Unreviewed);
    assert_eq!(
        read_model(dir.path()).rule("R16").unwrap().review,
        ReviewStatus::Unreviewed
    );
}

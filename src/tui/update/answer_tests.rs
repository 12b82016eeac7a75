//! The natural-language tests on the tests screen: run through the answer
//! verifier on request (`r` on their pane) and again after each edit once
//! they have run (their translations are cached, so an edit to the rules
//! costs only solver time); each outcome says what is at fault.

use crate::core::answer::NlTestOutcome;
use crate::tui::state::app::App;
use crate::tui::state::msg::Effect;

/// Runs every natural-language test (replacing a run in progress).
pub fn start(app: &mut App) -> Vec<Effect> {
    if app.tests.nl_tests.is_empty() {
        app.status.message = Some(
            "no natural-language tests yet: check an answer on the verify screen (ctrl-t) and \
             save it with ctrl-s"
                .into(),
        );
        return Vec::new();
    }
    app.nl.ticket += 1;
    app.nl.running = true;
    app.nl.done = 0;
    app.nl.total = app.tests.nl_tests.len();
    app.nl.ran_on = Some(app.model.clone());
    app.status.job = Some(format!(
        "natural-language tests: 0/{} (translations come from the cache when they can)",
        app.nl.total
    ));
    vec![Effect::RunNlTests {
        ticket: app.nl.ticket,
        model: Box::new(app.model.clone()),
        compiled: Box::new(app.compiled.clone()),
        tests: app.tests.nl_tests.clone(),
        redundancy: crate::tui::state::msg::Redundancy {
            translations: app.answer_translations,
            threshold: app.answer_threshold,
        },
    }]
}

/// After a logic run: natural-language tests that ran on an older model
/// run again.
pub fn rerun_if_stale(app: &mut App) -> Vec<Effect> {
    let stale = app
        .nl
        .ran_on
        .as_ref()
        .is_some_and(|model| *model != app.model);
    if stale && !app.nl.running {
        start(app)
    } else {
        Vec::new()
    }
}

pub fn test_done(app: &mut App, ticket: u64, outcome: NlTestOutcome) -> Vec<Effect> {
    if ticket != app.nl.ticket {
        return Vec::new();
    }
    app.nl.done += 1;
    app.nl.outcomes.insert(outcome.id.clone(), outcome);
    app.status.job = Some(format!(
        "natural-language tests: {}/{}",
        app.nl.done, app.nl.total
    ));
    Vec::new()
}

pub fn finished(app: &mut App, ticket: u64) -> Vec<Effect> {
    if ticket != app.nl.ticket {
        return Vec::new();
    }
    app.nl.running = false;
    app.status.job = None;
    let (passed, failed) = crate::tui::state::queries::nl_test_counts(app);
    app.status.message = Some(format!(
        "natural-language tests: {passed} passed, {failed} failed"
    ));
    Vec::new()
}

/// `d` on the pane: delete the selected natural-language test (undoable).
pub fn delete_selected(app: &mut App) -> Vec<Effect> {
    let Some(test) = app.tests.nl_tests.get(app.nl.cursor.selected).cloned() else {
        return Vec::new();
    };
    let before = app.snapshot();
    app.tests.nl_tests.retain(|t| t.id != test.id);
    app.nl.outcomes.remove(&test.id);
    app.history
        .record(format!("delete natural-language test {}", test.id), before);
    let len = app.tests.nl_tests.len();
    app.nl.cursor.step(0, len, usize::MAX / 2);
    app.status.message = Some(format!("deleted {} (u to undo)", test.id));
    vec![Effect::SaveTests(Box::new(app.tests.clone()))]
}
